"""02_time_at_peak_vs_tvc in Voila: sliders, dropdowns and a profile-table edit move the plots and
readouts to the package's numbers; a bad cell's rejection stays on screen; export downloads.
The profile is an HTML table (:class:`~vtsmodel.app.tables.TableEditor`), edited as a person
does: click a cell, type, Enter.

The expected values come from the lesson's own panels built in the test process, set to the
same inputs as the browser: their views are what ``vtsmodel.tvc`` and ``vtsmodel.tvc_day``
compute for those inputs.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from vtsmodel import tvc
from vtsmodel.app.lessons import time_at_peak as lesson02
from vtsmodel.app.text import number

from .helpers import (
    export_png_and_html,
    fits_width,
    move_and_check,
    open_lesson_with_plots,
    panel_as_shown,
    select_panel_dropdown,
    table_cell,
    type_into_table_cell,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "02_time_at_peak_vs_tvc.ipynb"
PEAK = "Time at peak write vs TVC capacity"
DAY = "A day in the life of the cache"


def test_controls_grid_edit_and_export_follow_the_package(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 3)

    # Panel 1 at its defaults, then the CF slider two steps right, then the EHPO feature.
    peak = panel_as_shown(page, PEAK, lesson02.time_at_peak_panel())
    cf = move_and_check(page, peak, PEAK, "cf", "compressibility CF", 2)
    # the readout is tvc.hours_at_peak at the new CF (ibm-vts-b18-2000, the Fig. 10 question)
    hours = tvc.hours_at_peak(432.0, cf, tvc_config="tvc_432_36gb_paf")
    assert peak.view.readouts["time at peak, 432 GB"] == f"{number(hours)} h"
    select_panel_dropdown(page, PEAK, "feature", "EHPO")
    peak.set(feature="ehpo")
    wait_for_panel(page, PEAK, peak.view)

    # Panel 2: a smaller TVC, then the batch window's write rate edited in the profile table.
    day_widget = lesson02.day_panel()
    panel_as_shown(page, DAY, day_widget.panel)
    cfg = "tvc_216_36gb_paf"
    select_panel_dropdown(page, DAY, "TVC configuration", lesson02.INPUTS["tvc_config"].label_of(cfg))
    day_widget.panel.set(tvc_config=cfg)
    wait_for_panel(page, DAY, day_widget.panel.view)
    profile = page.locator(".vtsmodel-profile")
    table = profile.locator(".vtsmodel-table").first
    write = table_cell(table, 1, "write [MB/s]")
    assert write.input_value() == day_widget.grid.cell_text(
        1, "write_mb_s"
    )  # the profile as the package has it
    type_into_table_cell(table, 1, "write [MB/s]", "45")
    assert day_widget.set_cell(1, "write_mb_s", "45")
    wait_for_panel(page, DAY, day_widget.panel.view)
    profile.locator(".vtsmodel-grid-message", has_text="row 2: write [MB/s] = 45").wait_for()
    assert table_cell(table, 2, "write [MB/s]").evaluate("e => e === document.activeElement")  # Enter: down
    # A bad cell: rejected with its reason (under the table and as the cell's title), which stays;
    # the cell keeps 45.
    type_into_table_cell(table, 1, "write [MB/s]", "abc")
    message = profile.locator(".vtsmodel-grid-message", has_text="rejected")
    message.wait_for()
    write.and_(page.locator("[aria-invalid=true]")).wait_for(timeout=30_000)
    assert write.input_value() == "45"
    page.wait_for_timeout(1500)
    assert "is not a number" in message.inner_text() and "kept 45" in message.inner_text()
    # A start out of time order: refused by the check across rows, in the table's words.
    start = table_cell(table, 1, "start [h]")
    type_into_table_cell(table, 1, "start [h]", "99")
    assert not day_widget.set_cell(1, "start_hours", "99")
    profile.locator(".vtsmodel-grid-message", has_text="is not before row 3").wait_for()
    assert start.input_value() == day_widget.grid.cell_text(1, "start_hours")
    wait_for_panel(page, DAY, day_widget.panel.view)  # the day as it was
    expect(table.locator("tbody tr")).to_have_count(len(day_widget.profile.rows()))
    heads = table.locator("thead th").evaluate_all("els => els.map(e => e.scrollWidth <= e.clientWidth)")
    assert all(heads), "a header is cut"

    export_png_and_html(page, PEAK, peak, tmp_path)
    assert fits_width(page)
