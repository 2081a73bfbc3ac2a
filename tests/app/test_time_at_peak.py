"""Lesson 02 (vtsmodel.app.lessons.time_at_peak: the contract and time at peak) without a browser."""

import numpy as np
import pytest

from vtsmodel import b18, load, tvc, tvc_day
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons import time_at_peak as L
from vtsmodel.app.text import number

FACTS = load("vts_facts")
HIT = L.INPUTS["read_hit"].default  # the lesson's read-hit ratio: the typical mix's 50 % (Sec. 3.5.6)


def marks(spec):
    return [s for s in spec["layout"]["shapes"] if s["type"] == "path" and s.get("xsizemode") == "pixel"]


def test_contract():
    assert lesson_module("02") is L and L.NOTEBOOK == "02_time_at_peak_vs_tvc.ipynb" and L.TITLE
    out = L.scenario_outputs(tvc_config="tvc_432_36gb_paf", cf=3.0)
    assert out["time at peak [h]"] == pytest.approx(
        float(tvc.hours_at_peak(432.0, 3.0, tvc_config="tvc_432_36gb_paf"))
    )
    assert set(L.scenario_view().figures) == {"time_at_peak", "occupancy", "rates"}
    with pytest.raises(
        ValueError, match=r"tvc_config='tvc_500' is not valid; choose one of '72 GB: 9 GB HDDs"
    ):
        L.scenario_outputs(tvc_config="tvc_500")


def test_time_at_peak_panel_follows_the_inputs():
    p = L.time_at_peak_panel()
    p.set(cf=2.5, threshold=0.9, peak_copy_fraction=0.2)
    kw = dict(feature="paf", threshold=0.9, peak_copy_fraction=0.2, backlog_gb=0.0)
    spec = p.figure()
    cf1 = trace_named(spec, "CF 1")
    np.testing.assert_allclose(cf1["y"], tvc.hours_at_peak(np.array(cf1["x"]), 1.0, **kw))
    configs = b18.product_configurations("paf")
    pts = marks(spec)
    np.testing.assert_array_equal([m["xanchor"] for m in pts], configs)
    np.testing.assert_allclose([m["yanchor"] for m in pts], tvc.hours_at_peak(configs, 2.5, **kw))
    r = p.readout_values
    assert r["time at peak, 864 GB"] == f"{number(tvc.hours_at_peak(864.0, 2.5, **kw))} h"
    need = float(tvc.tvc_needed(6.0, 2.5, **kw))
    assert r["TVC needed for the burst"] == f"{number(need)} GB"
    assert r["smallest configuration (Table 3)"] == f"{float(tvc.smallest_configuration(need)):g} GB"


def test_moving_cf_moves_only_the_highlighted_curve_and_the_marks():
    p = L.time_at_peak_panel()
    sent = []
    p.plots["time_at_peak"].widget.observe(lambda ch: sent.append(ch["name"]), names=["base", "moving"])
    p.set(cf=2.2)
    assert sent == ["moving"]
    path = next(s for s in p.figure()["layout"]["shapes"] if s.get("name") == "the CF set above")
    first = path["path"].split(" ")[0]  # "M72,<hours>"
    assert float(first[1:].split(",")[1]) == pytest.approx(float(tvc.hours_at_peak(72.0, 2.2)), rel=1e-5)


def test_feature_changes_the_configurations():
    p = L.time_at_peak_panel()
    p.set(feature="ehpo")
    np.testing.assert_array_equal(
        [m["xanchor"] for m in marks(p.figure())], [c.tvc_gb for c in b18.configurations("ehpo")]
    )


def test_copying_keeps_up_says_so():
    v = L.TIME_AT_PEAK.show({"cf": 1.0, "feature": "base", "peak_copy_fraction": 0.5})
    assert all(v.readouts.values())
    assert all(
        x.endswith(" h") or "unlimited" in x for k, x in v.readouts.items() if k.startswith("time at peak")
    )


def test_key_numbers_against_the_source():
    text = L.key_numbers(feature="paf", cf=3.0, burst_hours=6.0)
    configs = b18.product_configurations("paf")
    hours = np.asarray(tvc.hours_at_peak(configs, 3.0))
    for c, h in zip(configs, hours, strict=True):
        assert f"time at peak, {c:g} GB TVC: {number(h)} h" in text
    # Sec. 4: "With a larger TVC capacity the VTS can run in a peak write mode longer."
    assert np.all(np.diff(hours) > 0)
    # Fig. 4 caption: no un-migrated data at the start; the default backlog is the caption's
    assert (
        float(tvc.hours_at_peak(configs[0], 3.0, backlog_gb=FACTS.value("fig4_unmigrated_at_start")))
        == hours[0]
    )
    # Sec. 3.5.4: peak "about 60% greater" than sustained (PAF, CF 3)
    run = tvc_day.simulate_tvc("steady day", tvc_config="tvc_1728_36gb_paf", cf=3.0)  # Figs. 7 and 8: 1728 GB
    assert run.peak_mb_s / run.sustained_mb_s - 1 == pytest.approx(
        FACTS.value("peak_over_sustained_gain"), abs=0.05
    )
    need = float(tvc.tvc_needed(6.0, 3.0))
    assert f"(gives {number(6.0)} h at peak)" in text and float(
        tvc.hours_at_peak(need, 3.0)
    ) == pytest.approx(6.0)
    assert f"{float(tvc.smallest_configuration(need)):g} GB" in text
