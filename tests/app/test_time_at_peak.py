"""Lesson 02 (vtsmodel.app.lessons.time_at_peak) without a browser: panels, profile grid, numbers."""

import math

import numpy as np
import pytest

from vtsmodel import load, tvc, tvc_day, workload
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
    configs = tvc.product_configurations("paf")
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
        [m["xanchor"] for m in marks(p.figure())], [c.tvc_gb for c in tvc.configurations("ehpo")]
    )


def test_copying_keeps_up_says_so():
    v = L.view_time_at_peak(cf=1.0, feature="base", peak_copy_fraction=0.5)
    assert all(v.readouts.values())
    assert all(
        x.endswith(" h") or "unlimited" in x for k, x in v.readouts.items() if k.startswith("time at peak")
    )


def test_day_panel_follows_its_inputs():
    d = L.day_panel()
    d.panel.set(tvc_config="tvc_864_36gb_paf", cf=2.5, read_hit=0.9)
    run = tvc_day.simulate_tvc(
        "nightly batch window", tvc_config="tvc_864_36gb_paf", cf=2.5, read_hit=0.9, step_minutes=2.0
    )
    r = d.panel.readout_values
    assert r["peak un-copied data"] == f"{number(run.peak_occupancy_gb)} GB"
    assert r["time throttled"] == (f"{number(run.hours_throttled)} h" if run.hours_throttled else "none")
    occ = d.panel.figure("occupancy")
    nc = trace_named(occ, "not yet copied")
    np.testing.assert_allclose(nc["y"], np.interp(nc["x"], run.time_hours, run.uncopied_gb))
    assert trace_named(occ, "fill threshold")["y"][0] == pytest.approx(run.threshold_gb)


def test_a_day_that_never_throttles_says_so():
    # Issue 15: "Time at peak 0.00 h" for a day that never throttled.
    d = L.day_panel(profile="steady day")
    r = d.panel.readout_values
    assert r["time throttled"] == "none" and "Nothing binds" in d.panel.view.binding


def test_profile_choice_fills_the_grid():
    d = L.day_panel()
    d.panel.set(profile="weekly full backup")
    assert d.profile is workload.PROFILES["weekly full backup"]
    assert [r["write_mb_s"] for r in d.grid.rows] == list(workload.PROFILES["weekly full backup"].write_mb_s)
    run = tvc_day.simulate_tvc(
        "weekly full backup", tvc_config="tvc_432_36gb_paf", cf=3.0, step_minutes=2.0, read_hit=HIT
    )
    assert d.panel.readout_values["time throttled"] == f"{number(run.hours_throttled)} h"


def test_grid_edit_updates_the_day():
    d = L.day_panel()
    before = d.panel.readout_values
    assert d.set_cell(1, "write_mb_s", "60") is True
    rows = [list(r) for r in workload.PROFILES["nightly batch window"].rows()]
    rows[1][1] = 60.0
    run = tvc_day.simulate_tvc(
        workload.make_profile(rows), tvc_config="tvc_432_36gb_paf", cf=3.0, step_minutes=2.0, read_hit=HIT
    )
    assert d.panel.readout_values != before
    assert d.panel.readout_values["peak un-copied data"] == f"{number(run.peak_occupancy_gb)} GB"
    assert d.grid.cell_text(1, "write_mb_s") == "60"


@pytest.mark.parametrize(
    ("row", "column", "value", "match"),
    [
        (1, "write_mb_s", "abc", "write='abc' is not a number; write [MB/s] must be in [0, inf)"),
        (1, "read_mb_s", -5, "read=-5 is outside the valid range [0, inf)"),
        (1, "start_hours", "9", "is not after the previous row"),
        (0, "start_hours", "1", "must be 0 for the first interval"),
        (2, "start_hours", "30", "is not before the end"),
    ],
)
def test_bad_cell_rejected_with_its_reason_and_the_old_value_kept(row, column, value, match):
    d = L.day_panel()
    old_profile, old_text = d.profile, d.grid.cell_text(row, column)
    before = d.panel.readout_values
    assert d.set_cell(row, column, value) is False
    assert match in d.grid.message.value.replace("&#x27;", "'") and "rejected" in d.grid.message.value
    assert d.profile is old_profile and d.grid.cell_text(row, column) == old_text
    assert d.panel.readout_values == before


def test_key_numbers_against_the_source():
    text = L.key_numbers(feature="paf", cf=3.0, burst_hours=6.0)
    configs = tvc.product_configurations("paf")
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


def test_day_summary_conserves_data_and_is_labelled():
    run = tvc_day.simulate_tvc("nightly batch window", tvc_gb=432, cf=3.0)
    scale = max(float(run.offered_total_mb[-1]), 1.0) * 1e-9
    np.testing.assert_allclose(
        run.written_total_mb, run.copied_total_mb + run.uncopied_gb * 1000.0, atol=scale * 1e3
    )
    np.testing.assert_allclose(run.offered_total_mb, run.accepted_total_mb + run.delayed_mb, atol=scale * 1e3)
    text = L.day_summary(run)
    assert f"Time at peak [h]: {number(run.hours_at_peak)}" in text
    assert not math.isnan(run.peak_occupancy_gb) and "Peak un-copied data [GB]" in text


def test_profile_assumptions_name_every_profile():
    assert all(name in L.profile_assumptions_text() for name in workload.PROFILES)
