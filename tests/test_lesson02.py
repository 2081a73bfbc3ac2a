"""Lesson 02 without a browser: set controls, compare figures and readouts with the model."""

from __future__ import annotations

import numpy as np
import pytest

from vtsmodel import tvc, tvc_day, workload
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons import time_at_peak as L


def _trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_contract():
    mod = lesson_module("02")
    assert mod is L
    assert L.NOTEBOOK == "02_time_at_peak_vs_tvc.ipynb"
    assert L.TITLE
    out = L.scenario_outputs()
    assert out["Time at peak [h]"] == pytest.approx(float(tvc.hours_at_peak(432.0, 3.0)))
    assert set(L.scenario_view().figures) == {"time_at_peak", "occupancy", "rates"}
    with pytest.raises(ValueError, match="cf"):
        L.scenario_outputs(cf=0.5)
    with pytest.raises(ValueError, match="unknown"):
        L.scenario_outputs(nope=1)


def test_time_at_peak_panel_follows_sliders():
    p = L.time_at_peak_panel()
    p.set(cf=2.5, threshold=0.8, peak_copy_fraction=0.2, backlog_gb=50.0, burst_hours=4.0)
    assert p.last_error == ""
    kw = dict(feature="paf", threshold=0.8, peak_copy_fraction=0.2, backlog_gb=50.0)
    fw = p.figure_widgets["time_at_peak"]
    curve = _trace(fw, "CF 2.5")
    np.testing.assert_allclose(curve.y, tvc.hours_at_peak(np.asarray(curve.x), 2.5, **kw))
    marks = _trace(fw, "Table 3 configurations (CF 2.5)")
    # Table 3 PAF column, ibm-vts-b18-2000: 216, 432, 864, 1728 GB marked
    np.testing.assert_array_equal(marks.x, tvc.product_configurations("paf"))
    r = p.readout_values
    assert r["Time at peak, 864 GB"] == f"{float(tvc.hours_at_peak(864.0, 2.5, **kw)):.2f} h"
    need = float(tvc.tvc_needed(4.0, 2.5, **kw))
    assert r["TVC needed for the burst"] == f"{need:,.0f} GB"
    assert r["Smallest configuration (Table 3)"] == f"{float(tvc.smallest_configuration(need)):,.0f} GB"


def test_time_at_peak_panel_feature_changes_configurations():
    p = L.time_at_peak_panel()
    p.set(feature="ehpo")
    marks = _trace(p.figure_widgets["time_at_peak"], "Table 3 configurations (CF 3)")
    np.testing.assert_array_equal(marks.x, tvc.product_configurations("ehpo"))


def test_copying_keeps_up_says_so():
    v = L.view_time_at_peak(peak_copy_fraction=0.5, cf=1.0, feature="base", threshold=0.9)
    assert all(val for val in v.readouts.values())
    # base at CF 1: peak 10, sustained 7.05 -> net fill 10 - 0.5*7.05 > 0: finite
    assert v.readouts["Time at peak, 288 GB"].endswith(" h")


def test_day_panel_follows_controls():
    d = L.day_panel()
    d.panel.set(tvc_gb=864.0, cf=2.5, read_hit=0.9)
    run = tvc_day.simulate_tvc("nightly batch window", tvc_gb=864.0, cf=2.5, read_hit=0.9, step_minutes=2.0)
    r = d.panel.readout_values
    assert r["Time at peak"] == f"{run.hours_at_peak:.2f} h"
    assert r["Peak un-copied data"] == f"{run.peak_occupancy_gb:.0f} GB"
    occ = d.panel.figure_widgets["occupancy"]
    not_copied = _trace(occ, "not yet copied")
    np.testing.assert_allclose(not_copied.y, np.interp(not_copied.x, run.time_hours, run.uncopied_gb))
    thr = _trace(occ, "fill threshold")
    assert thr.y[0] == pytest.approx(run.threshold_gb)


def test_day_panel_profile_choice_loads_sheet():
    d = L.day_panel()
    d.panel.set(profile="weekly full backup")
    assert d.profile is workload.PROFILES["weekly full backup"]
    df = d.grid._data["data"]
    np.testing.assert_array_equal(
        df["write_mb_s"].to_numpy(), workload.PROFILES["weekly full backup"].write_mb_s
    )
    run = tvc_day.simulate_tvc("weekly full backup", tvc_gb=432.0, cf=3.0, step_minutes=2.0)
    assert d.panel.readout_values["Time throttled"] == f"{run.hours_throttled:.2f} h"


def test_sheet_edit_updates_the_day():
    d = L.day_panel()
    before = d.panel.readout_values
    assert d.set_cell(1, "write_mb_s", 60) is True
    rows = [list(r) for r in workload.PROFILES["nightly batch window"].rows()]
    rows[1][1] = 60.0
    run = tvc_day.simulate_tvc(workload.make_profile(rows), tvc_gb=432.0, cf=3.0, step_minutes=2.0)
    assert d.panel.readout_values != before
    assert d.panel.readout_values["Peak un-copied data"] == f"{run.peak_occupancy_gb:.0f} GB"
    assert d.grid._data["data"].iloc[1]["write_mb_s"] == 60.0


def test_sheet_edit_from_grid_callback_casts_int():
    d = L.day_panel()
    d._on_cell({"row": 0, "column": "write_mb_s", "value": 20})
    assert d.profile.write_mb_s[0] == 20.0 and isinstance(d.profile.write_mb_s[0], np.floating)


@pytest.mark.parametrize(
    ("row", "column", "value", "match"),
    [
        (1, "write_mb_s", "abc", "is not a number"),
        (1, "write_mb_s", -5, "outside the valid range"),
        (2, "start_hours", 1, "not after"),
    ],
)
def test_bad_cell_rejected_and_old_value_restored(row, column, value, match):
    d = L.day_panel()
    old_profile = d.profile
    old = d.grid._data["data"].iloc[row][column]
    before = d.panel.readout_values
    assert d.set_cell(row, column, value) is False
    assert match in d.message.value and "rejected" in d.message.value
    assert d.profile is old_profile
    assert d.grid._data["data"].iloc[row][column] == old
    assert d.panel.readout_values == before


def test_figures_fit_the_screen():
    v = L.scenario_view()
    for fig in v.figures.values():
        assert fig.layout.width is None
        assert 380 <= fig.layout.height <= 420
        assert len(fig.data[0].x) <= 400


def test_check_key_numbers_reproduces_the_text_and_inverts():
    # Sec. 4 "With a larger TVC capacity the VTS can run in a peak write mode longer";
    # Sec. 3.5.4 peak "about 60% greater" (PAF model: 63%); tvc_needed inverts hours_at_peak.
    text = L.check_key_numbers()
    configs = tvc.product_configurations("paf")
    for c, h in zip(configs, tvc.hours_at_peak(configs, 3.0), strict=True):
        assert f"{c:6.0f} GB: {h:5.2f} h at peak" in text
    assert f"{tvc.tvc_needed(6.0, 3.0):.0f} GB (gives 6.00 h at peak)" in text


def test_check_key_numbers_names_the_statement_it_fails(monkeypatch):
    # A model drifting from "about 60% greater" (Sec. 3.5.4) fails with the source's sentence.
    monkeypatch.setattr(L, "ABOUT_TOLERANCE", 0.001)
    with pytest.raises(AssertionError, match=r"Sec\. 3\.5\.4.*60% greater"):
        L.check_key_numbers()


def test_check_day_conserves_and_prints_the_summary():
    run = tvc_day.simulate_tvc("nightly batch window", tvc_gb=432, cf=3.0)
    text = L.check_day(run)
    assert f"{run.hours_at_peak:10.2f}" in text and "Time throttled [h]" in text
    run.copied_total_mb = run.copied_total_mb + 1e3  # break written = copied + not yet copied
    with pytest.raises(AssertionError, match="written != copied"):
        L.check_day(run)


def test_source_rows_and_profile_texts():
    text = L.source_rows_text()
    assert "peak_over_sustained_gain" in text and "Sec. 3.5.4" in text
    assert all(name in L.profile_assumptions_text() for name in workload.PROFILES)
