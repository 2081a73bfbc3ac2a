"""Lesson 01 (vtsmodel.app.lessons.write) without a browser: set inputs, the plots and readouts follow the model."""

import warnings

import numpy as np
import pytest

from vtsmodel import ExtrapolationWarning, b18, hours_at_peak
from vtsmodel import bottleneck as bn
from vtsmodel import throughput as tp
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons import write as L
from vtsmodel.app.text import number

P1728, E1152 = "tvc_1728_36gb_paf", "tvc_1152_36gb_base_ehpo"  # the largest PAF and EHPO configurations


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return func(*args, **kwargs)


def curve(spec, name):
    """A curve's x and y over the whole axis: the solid part filled in with the dotted part."""
    solid, dotted = trace_named(spec, name), trace_named(spec, f"{name} (extrapolated)")
    sx = np.array([np.nan if v is None else v for v in solid["x"]], float)
    dx = np.array([np.nan if v is None else v for v in dotted["x"]], float)
    return np.where(np.isnan(sx), dx, sx), np.array(solid["y"], float)


def mark(spec, name):
    """The operating point drawn as a shape named ``name``: (x, y)."""
    hits = [s for s in spec["layout"].get("shapes", []) if s.get("name") == name]
    assert hits, f"no mark {name!r}"
    return hits[0]["xanchor"], hits[0]["yanchor"]


# --- the contract --------------------------------------------------------------------------


def test_contract():
    assert lesson_module("01") is L
    assert L.NOTEBOOK == "01_sustained_vs_peak_write.ipynb" and L.TITLE and L.LESSON_ID == "01"
    assert set(L.SCENARIO) == {"cf", "tvc_config", "feature", "block_kb", "escon_km"} <= set(L.INPUTS)
    out = L.scenario_outputs(cf=2.0, tvc_config=E1152, feature="ehpo")  # inside every validated range
    assert out["sustained write [MB/s]"] == pytest.approx(
        float(tp.write_rate(2.0, feature="ehpo", tvc_config=E1152))
    )
    assert out["peak write [MB/s]"] == pytest.approx(
        float(tp.write_rate(2.0, feature="ehpo", mode="peak", tvc_config=E1152))
    )
    view = L.scenario_view(cf=3.0)  # the reads extrapolate past Table 1's CF 2.66: a note, not a warning
    assert any("Table 1" in n for n in view.notes)
    assert {"write", "resources", "reads", "mix", "task_time", "task_parts"} == set(view.figures)
    for plot in view.figures.values():
        assert plot.figure().layout.height  # each composes into a valid plotly figure
    with pytest.raises(ValueError, match=r"feature='turbo' is not valid; choose one of 'base', 'EHPO'"):
        L.scenario_outputs(feature="turbo")
    with pytest.raises(ValueError, match=r"cf=7 is outside the valid range \[0.5, 6\]"):
        L.scenario_outputs(cf=7)
    with pytest.raises(ValueError, match="unknown scenario input"):
        L.scenario_outputs(colour="red")


def test_scenario_outputs_at_distance_and_blocks():
    with pytest.warns(ExtrapolationWarning, match="Table 1"):
        out = L.scenario_outputs(cf=3.0, block_kb=64, escon_km=10)
    assert out["peak write [MB/s]"] == pytest.approx(
        float(tp.write_rate(3.0, mode="peak", block_kb=64) * tp.escon_distance_factor(10))
    )
    assert out["read hit [MB/s]"] == pytest.approx(
        float(quiet(tp.read_rate, 3.0, block_kb=64) * tp.escon_distance_factor(10, direction="read"))
    )


def test_choice_inputs_accept_the_labels_they_show():
    # A sheet cell takes what its dropdown shows (issue 15: "EHPO" was rejected).
    v = L.INPUTS
    assert v["feature"].parse("feature", "EHPO") == "ehpo"
    label, cfg = v["tvc_config"].options[7]
    assert v["tvc_config"].parse("tvc_config", label) == cfg == "tvc_288_36gb_base_ehpo"
    assert v["block_kb"].parse("block_kb", "32 KB (QSAM limit)") == 32.0


def test_write_sources_belong_to_the_curve_shown():
    # Sec. 3.1: "between 8 and 10", "between 5.5 and 7"
    assert {y for _, y, _, _ in L.write_sources("base")} == {5.5, 7.0, 8.0, 10.0}
    # Sec. 3.5.3's 19.5 MB/s is for the largest cache: not drawn on the 288 GB curve (issue 15)
    assert (3.0, 19.5) in {(x, y) for x, y, _, _ in L.write_sources("ehpo", tvc_config=E1152)}
    assert (3.0, 19.5) not in {
        (x, y) for x, y, _, _ in L.write_sources("ehpo", tvc_config="tvc_288_36gb_base_ehpo")
    }
    paf64 = L.write_sources("paf", 64)
    assert (2.66, 103.0) in {(x, y) for x, y, _, _ in paf64}  # Table 2
    assert all(p.source == "ibm-vts-b18-2000" for _, _, p, _ in paf64)
    assert len(L.write_sources("paf", 48)) == len(L.write_sources("paf", 32)) - 1


# --- the write panel ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cf", "cfg", "feature"),
    [(3.0, P1728, "paf"), (2.0, "tvc_576_36gb_base_ehpo", "ehpo"), (1.5, "tvc_72_9gb_base_ehpo", "base")],
)
def test_write_panel_follows_the_model(cf, cfg, feature):
    p = L.write_panel()
    p.set(cf=cf, tvc_config=cfg, feature=feature)
    assert not p.last_error
    peak = float(tp.write_rate(cf, feature=feature, mode="peak", tvc_config=cfg))
    sus = float(tp.write_rate(cf, feature=feature, tvc_config=cfg))
    r = p.readout_values
    assert r["peak write"] == f"{number(peak)} MB/s" and r["sustained write"] == f"{number(sus)} MB/s"
    assert r["peak ÷ sustained"] == number(peak / sus)
    hours = float(
        hours_at_peak(
            b18.configuration(cfg).tvc_gb,
            cf,
            feature=feature,
            tvc_config=cfg,
            peak_mb_s=peak,
            sustained_mb_s=sus,
        )
    )
    assert r["hours of peak the cache buys"] == f"{number(hours)} h"
    assert r["binds in sustained"] == bn.binding_resource(cf, feature=feature, tvc_config=cfg)
    spec = p.figure("write")
    label = L._FEATURE[feature]
    for mode in ("sustained", "peak"):
        x, y = curve(spec, f"{label} {mode}")
        np.testing.assert_allclose(y, quiet(tp.write_rate, x, feature=feature, mode=mode, tvc_config=cfg))
    assert mark(spec, "sustained at this CF") == (cf, pytest.approx(sus))
    assert mark(spec, "peak at this CF") == (cf, pytest.approx(peak))


def test_moving_cf_sends_only_the_marks():
    p = L.write_panel()
    pane = p.plots["write"]
    base_before = pane.widget.base
    sent = []
    pane.widget.observe(lambda ch: sent.append(ch["name"]), names=["base", "moving"])
    p.controls["cf"].value = 1.5  # as a person moving the slider
    assert sent == ["moving"] and pane.widget.base is base_before
    assert p.readout_values["peak write"] == f"{number(tp.write_rate(1.5, mode='peak'))} MB/s"
    assert mark(p.figure("write"), "peak at this CF")[0] == 1.5
    sent.clear()
    p.set(feature="ehpo")  # a slow input: a new base
    assert "base" in sent


def test_bottleneck_figure_follows_the_view():
    p = L.write_panel()
    p.set(cf=3.5, feature="paf", view_mode="sustained")
    spec = p.figure("resources")
    for name, cap in quiet(
        bn.write_capacities, L.CF_AXIS, feature="paf", tvc_config=P1728
    ).items():  # past CF 4
        np.testing.assert_allclose(np.array(trace_named(spec, name)["y"], float), cap)
    assert "processor" in p.view.binding and "host channels" in p.view.binding
    x, y = mark(spec, "this CF: the processor bind")
    assert (x, y) == (3.5, pytest.approx(float(bn.bottleneck_rate(3.5, tvc_config=P1728))))
    p.set(view_mode="peak")
    assert any("tape drives: not used" in (t.get("name") or "") for t in p.figure("resources")["data"])


def test_ehpo_scales_with_cf_paf_flattens():
    # The teaching core, read off the panel: EHPO's cache disks bind at every CF in 1-4;
    # PAF's sustained binding moves from the drives (proportional to CF) to the processor.
    p = L.write_panel()
    for cf in (1.0, 2.5, 4.0):
        p.set(cf=cf, feature="ehpo", tvc_config=E1152)
        assert p.readout_values["binds in sustained"] == "cache disks"
    p.set(cf=1.5, feature="paf", tvc_config=P1728)
    assert p.readout_values["binds in sustained"] == "tape drives"
    p.set(cf=3.5)
    assert (
        p.readout_values["binds in sustained"] == "processor"
        and p.readout_values["binds in peak"] == "host channels"
    )


def test_block_size_and_distance():
    p = L.write_panel()
    p.set(cf=2.66, block_kb=64.0, escon_km=0.0)
    assert p.readout_values["peak write"] == f"{number(tp.write_rate(2.66, mode='peak', block_kb=64))} MB/s"
    stated = [
        y for t in p.figure("write")["data"] if (t.get("name") or "").startswith("stated") for y in t["y"]
    ]
    assert 103.0 in stated  # Table 2's 64 KB point
    p.set(block_kb=32.0, escon_km=20.0)
    expect = float(tp.write_rate(2.66, mode="peak")) * (1 - 0.006 * 20)
    assert p.readout_values["peak write"] == f"{number(expect)} MB/s"


def test_extrapolation_becomes_a_note_and_a_caption_line():
    p = L.write_panel()
    p.set(cf=4.75, feature="ehpo")
    assert not p.last_error
    assert any(
        "compressibility CF = 4.75 is outside the range the source validated" in n for n in p.view.notes
    )
    assert "Note: compressibility CF = 4.75 is outside the range the source validated, [1, 4]" in p.caption()
    p.set(cf=3.0, feature="ehpo", tvc_config=P1728)  # offered only with PAF (Table 3): a note says so
    assert any("offered only with PAF" in n for n in p.view.notes)
    p.set(tvc_config=E1152)
    assert not p.view.notes


def test_a_value_the_control_cannot_show_is_rejected_with_its_range():
    p = L.write_panel()
    with pytest.raises(
        ValueError, match=r"tvc_config='tvc_300' is not valid; choose one of '72 GB: 9 GB HDDs"
    ):
        p.set(tvc_config="tvc_300")
    with pytest.raises(ValueError, match=r"cf=9 is outside the valid range \[0.5, 6\]"):
        p.set(cf=9)
    assert p.values["cf"] == 3.0 and not p.last_error  # the panel is unchanged


def test_write_panel_export(export_dir):
    p = L.write_panel()
    path = p.export("html")
    text = path.read_text()
    assert path.parent == export_dir and "ibm-vts-b18-2000" in text and "plotly" in text.lower()


def test_notebook_numbers_are_labelled():
    for text in (
        L.table4_numbers(),
        L.paf_fit_numbers(),
        L.binding_numbers(),
    ):
        for line in text.splitlines():
            assert line.strip() and not line.strip().replace(".", "").replace(" ", "").isdigit()
    # Table 4 at CF 1 reproduces "between 8 and 10" MB/s (Sec. 3.1.1) at its two ends
    assert "288 GB 8, 576 GB 9.01, 1152 GB 10" in L.table4_numbers()
