"""Lesson 02's day in the life of the cache (vtsmodel.app.lessons.cache_day) without a browser: the day, its grid."""

import math

import numpy as np
import pytest

from vtsmodel import tvc_day, workload
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import cache_day
from vtsmodel.app.lessons import time_at_peak as L
from vtsmodel.app.text import number

HIT = L.INPUTS["read_hit"].default  # the lesson's read-hit ratio: the typical mix's 50 % (Sec. 3.5.6)


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


def test_an_accepted_edit_survives_switching_the_profile_away_and_back():
    d = L.day_panel()
    assert d.set_cell(1, "write_mb_s", "60") is True
    edited = d.panel.readout_values
    d.panel.set(profile="steady day")
    assert d.grid.cell_text(0, "write_mb_s") == number(workload.PROFILES["steady day"].rows()[0][1], 4)
    d.panel.set(profile="nightly batch window")
    assert d.grid.cell_text(1, "write_mb_s") == "60"  # the edit, as the status line said
    assert d.panel.readout_values == edited


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
        (1, "write_mb_s", "abc", "write='abc' is not a number; write [MB/s] must be in [0, ∞)"),
        (1, "read_mb_s", -5, "read=-5 is outside the valid range [0, ∞)"),
        # in the grid's words and numbers: the column's label and unit, rows as the grid numbers them
        (
            1,
            "start_hours",
            "9",
            "row 2: rejected: start [h] = 9 is not before row 3's 8 h: the starts must increase",
        ),
        (2, "start_hours", "1", "row 3: rejected: start [h] = 1 is not after row 2's 2 h"),
        (0, "start_hours", "1", "start [h] = 1: the first row starts the day, at 0 h"),
        (2, "start_hours", "30", "start [h] = 30 is not before the end of the day, 24 h"),
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


def test_day_summary_conserves_data_and_is_labelled():
    run = tvc_day.simulate_tvc("nightly batch window", tvc_gb=432, cf=3.0)
    scale = max(float(run.offered_total_mb[-1]), 1.0) * 1e-9
    np.testing.assert_allclose(
        run.written_total_mb, run.copied_total_mb + run.uncopied_gb * 1000.0, atol=scale * 1e3
    )
    np.testing.assert_allclose(run.offered_total_mb, run.accepted_total_mb + run.delayed_mb, atol=scale * 1e3)
    text = cache_day.day_summary(run)
    assert f"Time at peak [h]: {number(run.hours_at_peak)}" in text
    assert not math.isnan(run.peak_occupancy_gb) and "Peak un-copied data [GB]" in text


def test_profile_assumptions_name_every_profile():
    assert all(name in cache_day.profile_assumptions_text() for name in workload.PROFILES)
