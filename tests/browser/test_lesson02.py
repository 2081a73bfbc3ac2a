"""02_time_at_peak_vs_tvc in Voila: sliders, dropdowns and a profile-sheet edit move the
plots and readouts to the package's numbers; export writes PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own panels built in the test process
(``lesson02.time_at_peak_panel()``, ``lesson02.day_panel()``), set to the same inputs as
the browser: their views are what ``vtsmodel.tvc`` and ``vtsmodel.tvc_day`` compute for those inputs.
"""

from __future__ import annotations

import pytest

from vtsmodel import tvc, tvc_day
from vtsmodel.app.lessons import time_at_peak as lesson02

from .helpers import (
    edit_grid_cell,
    export_png_and_html,
    fits_width,
    open_lesson_with_plots,
    press_panel_slider,
    select_panel_dropdown,
    slider_after_keys,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "02_time_at_peak_vs_tvc.ipynb"
PEAK = "Time at peak write vs TVC capacity"
DAY = "A day in the life of the cache"


def test_controls_sheet_edit_and_export_follow_the_package(open_lesson, export_dir):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 3)

    # Panel 1 at its defaults, then the CF slider two steps right, then the EHPO feature.
    peak = lesson02.time_at_peak_panel()
    wait_for_panel(page, PEAK, peak.view)
    cf = slider_after_keys(peak.controls["cf"], 2)
    press_panel_slider(page, PEAK, "CF", "ArrowRight", times=2)
    peak.set(cf=cf)
    assert float(peak.view.readouts["Time at peak, 432 GB"].split()[0]) == pytest.approx(
        float(tvc.hours_at_peak(432.0, cf)), abs=0.005
    )  # the readout is tvc.hours_at_peak at the new CF (ibm-vts-b18-2000 Fig. 10 question)
    wait_for_panel(page, PEAK, peak.view)
    select_panel_dropdown(page, PEAK, "Feature", "EHPO")
    peak.set(feature="ehpo")
    wait_for_panel(page, PEAK, peak.view)

    # Panel 2: a smaller TVC, then the batch window's write rate edited in the profile sheet.
    day = lesson02.day_panel()
    wait_for_panel(page, DAY, day.panel.view)
    select_panel_dropdown(page, DAY, "TVC", "216")
    day.panel.set(tvc_gb=216.0)
    wait_for_panel(page, DAY, day.panel.view)
    row, column = 1, "write_mb_s"
    new_rate = day.profile.write_mb_s[row] * 0.5
    sheet = page.locator(".vtsmodel-sheet", has_text="Profile sheet").locator(".datagrid-container").first
    edit_grid_cell(page, sheet, day.grid, row, column, f"{new_rate:g}")
    assert day.set_cell(row, column, new_rate)
    run = tvc_day.simulate_tvc(day.profile, tvc_gb=216.0, cf=3.0)
    assert day.panel.view.readouts["Peak un-copied data"] == f"{run.peak_occupancy_gb:.0f} GB"
    wait_for_panel(page, DAY, day.panel.view)
    page.locator(".vtsmodel-sheet-message", has_text=f"row {row + 1}: {column} = {new_rate:g}").wait_for()

    # Export panel 1's figure (EHPO, the new CF) as PNG and as offline HTML.
    export_png_and_html(page, PEAK, peak, export_dir)
    assert fits_width(page)
