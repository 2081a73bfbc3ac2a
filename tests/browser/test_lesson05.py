"""05_sizing_workbench in Voila: editing flows in the table and choosing a drive move the
plots and readouts to the package's numbers; a rejected cell's message stays; export
downloads PNG and offline HTML; 1280 px fit. The flows table is an HTML table
(:class:`~vtsmodel.app.tables.TableEditor`), driven here with the mouse and keys as a
person does: click, type, Enter, Tab, Shift-Tab, arrows, Escape.

The expected values come from the lesson's own workbench built in the test process
(``lesson05.sizing_panel()``) and edited like the browser's: its view is what
``vtsmodel.sizing.drives_needed`` computes for those flows (cern-tape-sizing-2005, Summary,
sample calculation: the default is the worked example, 50 drives).
"""

import time

import pytest
from playwright.sync_api import expect

from vtsmodel.app.lessons import sizing as lesson05
from vtsmodel.catalog import drive_options, drive_spec
from vtsmodel.sizing import drives_needed

from .conftest import RENDER_TIMEOUT_MS
from .helpers import (
    drawn_unlike_a_new_plot,
    export_png_and_html,
    fits_width,
    in_place_draws,
    open_lesson_with_plots,
    panel_locator,
    panel_plot_index,
    select_panel_dropdown,
    table_cell,
    type_into_table_cell,
    wait_for_panel,
    watch_in_place,
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


#: Records the (row, column) of each table cell whose text the page changes, from 0.
_WATCH_CELLS = """b => { window.__touched = []; new MutationObserver(rs => rs.forEach(r => {
  const td = (r.target.nodeType === 1 ? r.target : r.target.parentElement).closest('td');
  if (td) window.__touched.push([td.parentElement.sectionRowIndex, td.cellIndex - 1]);
})).observe(b, {subtree: true, childList: true, characterData: true}); }"""


def _computed_texts(wb) -> dict[tuple[int, int], str]:
    return {(r, c): wb.grid.cell_text(r, col.key) for r in range(len(wb.table))
            for c, col in enumerate(lesson05.COLUMNS) if col.input is None}  # fmt: skip


def test_table_edits_and_drive_choice_follow_the_package_then_export(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 2)
    wb = lesson05.sizing_panel()
    assert wb.panel.readout_values[LABEL] == _readout(wb) == "50 needed, buy 50"  # the worked example
    wait_for_panel(page, PANEL, wb.panel.view)

    table = page.locator(".vtsmodel-flows .vtsmodel-table").first
    message = page.locator(".vtsmodel-flows .vtsmodel-grid-message")
    flows = [f for _sc, f in wb.table]
    head = {c.key: c.header for c in lesson05.COLUMNS}

    # Click, type over the cell, Enter: the kernel's numbers, the plots, the focus one row down;
    # of the computed cells, only those whose text changed are touched.
    table.locator("tbody").evaluate(_WATCH_CELLS)
    before, shown = wb.panel.readout_values[LABEL], _computed_texts(wb)
    type_into_table_cell(table, 0, head["rate_mb_s"], f"{2 * flows[0].rate_mb_s:g}")
    assert wb.edit(0, "rate_mb_s", 2 * flows[0].rate_mb_s)
    assert wb.panel.readout_values[LABEL] == _readout(wb) != before
    wait_for_panel(page, PANEL, wb.panel.view)
    assert table_cell(table, 1, head["rate_mb_s"]).evaluate("e => e === document.activeElement")
    changed = {k for k, text in _computed_texts(wb).items() if shown[k] != text}
    assert changed  # the edit changed the first flow's drives and every share
    for r, c in changed:
        cell = table.locator("tbody tr").nth(r).locator("td").nth(c)
        expect(cell).to_have_text(wb.grid.cell_text(r, lesson05.COLUMNS[c].key))
    assert {tuple(x) for x in page.evaluate("() => window.__touched")} == changed

    # Edits that move only the values, their labels and the totals in the legend redraw the traces
    # alone (the axes stay put, _plotpane.js); what each plot draws is what a new plot of it draws.
    plots = [panel_plot_index(page, PANEL, n) for n in range(2)]
    watch_in_place(page, *plots)
    for k in (1.01, 1.02):
        rate = 2 * flows[0].rate_mb_s * k
        type_into_table_cell(table, 0, head["rate_mb_s"], f"{rate:g}")
        assert wb.edit(0, "rate_mb_s", rate)
        wait_for_panel(page, PANEL, wb.panel.view)
        for i in plots:
            assert drawn_unlike_a_new_plot(page, i) == ""
    assert all(in_place_draws(page, i) >= 1 for i in plots), "no edit took the traces-only path"

    # Arrows and Tab move; typing replaces; Tab commits and moves right.
    for key in ("ArrowDown", "ArrowRight", "Tab"):  # row 2's rate, row 3's rate, its factor, its efficiency
        page.keyboard.press(key)
    eff = table_cell(table, 2, head["efficiency"])
    assert eff.evaluate("e => e === document.activeElement")
    page.keyboard.type(f"{2 * flows[2].efficiency:g}")
    page.keyboard.press("Tab")
    assert wb.edit(2, "efficiency", 2 * flows[2].efficiency)
    wait_for_panel(page, PANEL, wb.panel.view)
    assert table_cell(table, 2, head["file_mb"]).evaluate("e => e === document.activeElement")
    assert eff.input_value() == wb.grid.cell_text(2, "efficiency")

    # Escape cancels: nothing sent, the text as it was, the plots unchanged.
    factor = table_cell(table, 0, head["peak_factor"])
    factor.click()
    page.keyboard.type("7")
    page.keyboard.press("Escape")
    assert factor.input_value() == wb.grid.cell_text(0, "peak_factor") == "2"
    page.wait_for_timeout(500)
    assert message.inner_text().endswith("efficiency [-] = 0.2")  # the last edit's, none since
    page.keyboard.press("Shift+Tab")
    assert table_cell(table, 0, head["rate_mb_s"]).evaluate("e => e === document.activeElement")

    # Text in a number cell: refused with the column, the value and the range; the cell
    # marked and back to its value; the message stays.
    type_into_table_cell(table, 1, head["peak_factor"], "abc")
    message.locator("text=factor='abc' is not a number").wait_for(timeout=30_000)
    bad = table_cell(table, 1, head["peak_factor"])
    bad.and_(page.locator("[aria-invalid=true]")).wait_for(timeout=30_000)
    assert bad.input_value() == wb.grid.cell_text(1, "peak_factor") == "2"
    assert "must be in [1, 100]" in bad.locator("xpath=..").get_attribute("title")
    page.wait_for_timeout(1000)
    assert "must be in [1, 100]" in message.inner_text()
    wait_for_panel(page, PANEL, wb.panel.view)

    # A table a screen reader reads: headers with their scope, computed cells not inputs,
    # numbers right-aligned, the focused cell outlined.
    assert table.locator("thead th[scope=col]").count() == len(lesson05.COLUMNS) + 1
    assert table.locator("tbody th[scope=row]").all_inner_texts() == ["1", "2", "3"]
    assert table.locator("tbody input").count() == 3 * sum(c.input is not None for c in lesson05.COLUMNS)
    assert table_cell(table, 0, head["rate_mb_s"]).evaluate("e => getComputedStyle(e).textAlign") == "right"
    assert table_cell(table, 0, head["name"]).evaluate("e => getComputedStyle(e).textAlign") in (
        "left",
        "start",
    )
    bad.focus()
    assert bad.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    heads = table.locator("thead th").evaluate_all("els => els.map(e => e.scrollWidth <= e.clientWidth)")
    assert all(heads), "a header is cut"
    # the next accepted edit of the cell clears its mark
    type_into_table_cell(table, 1, head["peak_factor"], "3")
    assert wb.edit(1, "peak_factor", 3.0)
    bad.and_(page.locator("[aria-invalid=false]")).wait_for(timeout=30_000)
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
