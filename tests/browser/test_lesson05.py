"""05_sizing_workbench in Voila: editing flows in the sheet and choosing a drive move the
plots and readouts to the package's numbers; export writes PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own workbench built in the test process
(``lesson05.sizing_panel()``) and edited like the browser's: its view is what
``vtsmodel.sizing.drives_needed`` computes for those flows (cern-tape-sizing-2005, Summary,
sample calculation: the default is the worked example).
"""

import pytest

from vtsmodel.app.lessons import sizing as lesson05
from vtsmodel.catalog import drive_spec
from vtsmodel.sizing import drives_needed

from .helpers import (
    edit_grid_cell,
    export_png_and_html,
    fits_width,
    open_lesson_with_plots,
    select_panel_dropdown,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "05_sizing_workbench.ipynb"
PANEL = "Drives needed"
LABEL = "drives needed [-]"


def _total(wb) -> str:
    speed = drive_spec(wb.panel.values["drive"]).speed_mb_s
    return f"{drives_needed(wb.flows, drive_speed_mb_s=speed).total:.4g}"


def test_sheet_edits_and_drive_choice_follow_the_package_then_export(open_lesson, export_dir):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 2)
    wb = lesson05.sizing_panel()
    assert wb.panel.readout_values[LABEL] == _total(wb)  # the worked example's 50 drives
    wait_for_panel(page, PANEL, wb.panel.view)

    sheet = page.locator(".datagrid-container.vtsmodel-sheet").first
    edits = [(0, "rate [MB/s]", 2 * wb.flows[0].rate_mb_s), (2, "efficiency [-]", 2 * wb.flows[2].efficiency)]
    for row, column, value in edits:
        before = wb.panel.readout_values[LABEL]
        edit_grid_cell(page, sheet, wb.grid, row, column, f"{value:g}")
        assert wb.edit(row, column, value)
        assert wb.panel.readout_values[LABEL] == _total(wb) != before
        wait_for_panel(page, PANEL, wb.panel.view)

    control = wb.panel.controls["drive"]
    label, drive = next((lab, v) for lab, v in control.options if v != control.value)
    select_panel_dropdown(page, PANEL, "drive", label)
    wb.panel.set(drive=drive)
    assert wb.panel.readout_values[LABEL] == _total(wb)
    wait_for_panel(page, PANEL, wb.panel.view)

    export_png_and_html(page, PANEL, wb.panel, export_dir)
    assert fits_width(page)
