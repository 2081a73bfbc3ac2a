"""05_sizing_workbench in Voila: editing flows in the table and choosing a drive move the
plots and readouts to the package's numbers; a rejected cell's message stays; export
downloads PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own workbench built in the test process
(``lesson05.sizing_panel()``) and edited like the browser's: its view is what
``vtsmodel.sizing.drives_needed`` computes for those flows (cern-tape-sizing-2005, Summary,
sample calculation: the default is the worked example, 50 drives).
"""

import time

import pytest

from vtsmodel.app.lessons import sizing as lesson05
from vtsmodel.catalog import drive_options, drive_spec
from vtsmodel.sizing import drives_needed

from .conftest import RENDER_TIMEOUT_MS
from .helpers import (
    edit_grid_cell,
    export_png_and_html,
    fits_width,
    open_lesson_with_plots,
    panel_locator,
    panel_plot_index,
    select_panel_dropdown,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "05_sizing_workbench.ipynb"
PANEL = "Drives needed"
LABEL = f"{lesson05.EXAMPLE}: drives"


def _readout(wb) -> str:
    flows = [f for _sc, f in wb.table]
    s = drives_needed(flows, drive_speed_mb_s=drive_spec(wb.drive).speed_mb_s)
    return f"{s.total:g} needed, buy {s.whole_drives}"


def _band(page) -> list[float]:
    """The chosen-drive band of the comparison plot, as the page holds it in ``layout.shapes``."""
    el = page.locator(".vtsmodel-plot .js-plotly-plot").nth(panel_plot_index(page, PANEL, 1))
    return el.evaluate("el => { const s = el.layout.shapes.filter(s => s.name === 'chosen drive')[0];"
                       " return [s.y0, s.y1]; }")  # fmt: skip


def test_table_edits_and_drive_choice_follow_the_package_then_export(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 2)
    wb = lesson05.sizing_panel()
    assert wb.panel.readout_values[LABEL] == _readout(wb) == "50 needed, buy 50"  # the worked example
    wait_for_panel(page, PANEL, wb.panel.view)

    table = page.locator(".vtsmodel-flows .datagrid-container").first
    flows = [f for _sc, f in wb.table]
    edits = [(0, "rate_mb_s", 2 * flows[0].rate_mb_s), (2, "efficiency", 2 * flows[2].efficiency)]
    for row, key, value in edits:
        before = wb.panel.readout_values[LABEL]
        header = next(c.header for c in lesson05.COLUMNS if c.key == key)
        edit_grid_cell(page, table, wb.grid.grid, row, header, f"{value:g}")
        assert wb.edit(row, key, value)
        assert wb.panel.readout_values[LABEL] == _readout(wb) != before
        wait_for_panel(page, PANEL, wb.panel.view)

    # Text in a number cell: refused with the column, the value and the range; the message stays.
    edit_grid_cell(page, table, wb.grid.grid, 1, "factor [-]", "abc")
    message = page.locator(".vtsmodel-flows .vtsmodel-grid-message")
    message.locator("text=factor='abc' is not a number").wait_for(timeout=30_000)
    page.wait_for_timeout(1000)
    assert "must be in [1, 100]" in message.inner_text()
    wait_for_panel(page, PANEL, wb.panel.view)

    label, drive = next((lab, k) for lab, k in drive_options() if k == "LTO9")
    select_panel_dropdown(page, PANEL, "drive", label)
    wb.panel.set(drive=drive)
    assert wb.panel.readout_values[LABEL] == _readout(wb)
    wait_for_panel(page, PANEL, wb.panel.view)
    row = [k for _lab, k in drive_options()].index(drive)
    assert _band(page) == [row - 0.5, row + 0.5]
    assert panel_locator(page, PANEL).locator("td.vtsmodel-readout").first.inner_text() == "400 MB/s (spec)"

    # A window resized after the band moved keeps both plots drawn (not collapsed to zero height).
    page.set_viewport_size({"width": 1280, "height": 3000})
    plots = panel_locator(page, PANEL).locator(".vtsmodel-plot")
    deadline = time.monotonic() + RENDER_TIMEOUT_MS / 1000
    while True:  # until both plots have their height again (a busy page redraws late)
        heights = plots.evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
        if len(heights) == 2 and min(heights) > 200:
            break
        assert time.monotonic() < deadline, f"a plot collapsed after the resize: heights {heights}"
        page.wait_for_timeout(100)

    export_png_and_html(page, PANEL, wb.panel, tmp_path)
    assert fits_width(page)
