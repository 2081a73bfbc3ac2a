"""Tests of vtsmodel.bottleneck: the view equals write_rate where both answer; what binds."""

import numpy as np
import pytest

import vtsmodel
from vtsmodel import ExtrapolationWarning, b18, load
from vtsmodel import bottleneck as bn
from vtsmodel import throughput as tp

FEATURES = ("base", "ehpo", "paf")
MODES = ("sustained", "peak")
GRID_CF = np.linspace(1.0, 4.0, 31)


@pytest.mark.parametrize("tvc", [72, 144, 216, 288, 432, 576, 864, 1152, 1728])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("feature", FEATURES)
@pytest.mark.filterwarnings("ignore:.*not offered:vtsmodel._validation.ExtrapolationWarning")
@pytest.mark.filterwarnings("ignore::vtsmodel.b18.LayoutWarning")
def test_bottleneck_view_equals_write_rate(feature, mode, tvc):
    # The view's capacities are calibrated to write_rate (itself calibrated to Table 4 and
    # the PAF points): agreement is by construction, checked so that neither drifts.
    view = bn.bottleneck_rate(GRID_CF, tvc, feature=feature, mode=mode)
    model = tp.write_rate(GRID_CF, tvc, feature=feature, mode=mode)
    np.testing.assert_allclose(view, model, rtol=1e-12)


@pytest.mark.parametrize("config", [c.id for c in b18.configurations()])
@pytest.mark.filterwarnings("ignore:.*offered only:vtsmodel._validation.ExtrapolationWarning")
def test_bottleneck_view_equals_write_rate_by_configuration(config):
    for feature in FEATURES:
        for mode in MODES:
            view = bn.bottleneck_rate(GRID_CF, tvc_config=config, feature=feature, mode=mode)
            model = tp.write_rate(GRID_CF, tvc_config=config, feature=feature, mode=mode)
            np.testing.assert_allclose(view, model, rtol=1e-12)


@pytest.mark.parametrize(("cf", "tvc", "feature", "mode", "binds"), [
    (3.0, 1152, "ehpo", "sustained", "cache disks"),   # Sec. 3.5.1: EHPO bound by the HDDs
    (3.0, 72, "ehpo", "peak", "cache disks"),
    (2.0, 576, "base", "peak", "cache disks"),
    (1.0, 1728, "paf", "sustained", "tape drives"),    # proportional to CF below 3
    (3.5, 1728, "paf", "sustained", "processor"),      # flat above CF 3
    (1.0, 1728, "paf", "peak", "cache disks"),         # about 45 at CF 1
    (3.0, 1728, "paf", "peak", "host channels"),       # about 80 down to CF 2
])  # fmt: skip
def test_binding_resource(cf, tvc, feature, mode, binds):
    assert bn.binding_resource(cf, tvc, feature=feature, mode=mode) == binds


def test_binding_shifts_with_channels_and_blocks():
    assert bn.binding_resource(4.0, 1152, feature="ehpo", mode="peak", channels=2) == "host channels"
    caps = bn.write_capacities(3.0, mode="peak", block_kb=64)
    assert caps["host channels"] == pytest.approx(bn.Resources().channel_mb_s * 8 * 103 / 80)
    caps = bn.write_capacities(3.0, mode="peak", escon_km=10)
    assert caps["host channels"] == pytest.approx(bn.Resources().channel_mb_s * 8 * 0.94)
    assert np.isinf(caps["tape drives"])
    names = bn.binding_resource(np.array([1.0, 4.0]), feature="paf")
    assert list(names) == ["tape drives", "processor"]


def test_two_escon_channels_sec6_contradicted():
    # Sec. 6: two ESCON channels "saturated at about 16 MB/s" (EHPO, 288 GB, CF 2.7, 32 KB).
    # The view gives 18.76 MB/s, bound by Table 4's cache line; recorded as contradicted
    # (ledger vts_two_escon_16, data notes 10).
    kw = {"tvc_config": "tvc_288_36gb_base_ehpo", "feature": "ehpo", "mode": "peak", "channels": 2}
    rate = float(bn.bottleneck_rate(2.7, **kw))
    assert rate == pytest.approx(6.33 * 2.7 + 1.67)
    assert bn.binding_resource(2.7, **kw) == "cache disks"
    assert rate - load("vts_facts").value("escon2_saturated_write") == pytest.approx(2.76, abs=0.01)


def test_project_assumptions_are_named_and_movable():
    res = bn.Resources()
    assert res.processor_peak_mb_s == bn.PROCESSOR_PEAK_MB_S
    assert (
        res.paf_copy_read_cost
        == bn.copy_read_cost_default()
        == load("vts_facts").value("peak_over_sustained_gain")
    )
    assert res.channel_mb_s * load("vts_facts").value("meas_escon_channels_figs7_9") == pytest.approx(
        tp.PAF_PARAMS["peak"][1]
    )
    # The copy read cost never moves the PAF sustained rate (the cache never binds there).
    for cost in (0.0, 0.6, 1.0):
        r = bn.bottleneck_rate(GRID_CF, resources=bn.Resources(paf_copy_read_cost=cost))
        np.testing.assert_allclose(r, tp.write_rate(GRID_CF), rtol=1e-12)
    # A slower processor binds in peak mode.
    slow = bn.Resources(processor_peak_mb_s=60.0)
    assert bn.binding_resource(3.0, mode="peak", resources=slow) == "processor"


def test_write_capacities_invalid():
    with pytest.raises(ValueError, match="channels"):
        bn.write_capacities(2, channels=0)
    with pytest.raises(ValueError, match="channels"):
        bn.write_capacities(2, channels=9)
    with pytest.warns(ExtrapolationWarning, match="only with PAF"):
        bn.bottleneck_rate(3.0, tvc_config="tvc_1728_36gb_paf", feature="ehpo")


def test_public_names():
    for name in ("binding_resource", "write_capacities", "bottleneck_rate"):
        assert getattr(vtsmodel, name) is getattr(bn, name)
