"""The scenario sheet in Voila, on lesson 01's write panel, driven as a person does.

The sheet is an HTML table (:class:`~vtsmodel.app.tables.TableEditor`): a click on a cell,
typing and Enter (or Tab) edit it; Escape cancels. An edited cell recomputes the row (the
sheet's summary of the selected row) and moves the panel's readouts and plot; a bad cell is
rejected with a message under the table that stays, the cell marked and its old value kept;
a choice cell takes the label its dropdown shows. Clicking a row's number (or moving to one
of its cells) selects it and the panel's controls take its values; a slider moved edits the
selected row. Add puts a second scenario on the plots, one legend entry by name; Save
downloads the scenarios as JSON; Load reads a file the person picks. Every expected number
is computed here from the package.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from vtsmodel.app.lessons import write as lesson01
from vtsmodel.app.sheet import ScenarioSheetWidget

from .helpers import (
    move_panel_slider,
    pick_file,
    plot_traces,
    table_cell,
    type_into_table_cell,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "01_sustained_vs_peak_write.ipynb"
WRITE = "Peak and sustained write"
WRITE_PLOT = 0  # the write panel's first figure: peak and sustained vs CF
CF = lesson01.INPUTS["cf"]
FEATURE = lesson01.INPUTS["feature"]

_SUMMARY = """() => Object.fromEntries([...document.querySelectorAll(
  '.vtsmodel-sheet-summary .vtsmodel-sheet-output[data-label]')].map(e => [e.dataset.label, Number(e.dataset.value)]))"""


def _wait_summary(page, expected: dict[str, float], timeout: int = 30_000) -> dict[str, float]:
    """Wait until the sheet's summary of the selected row shows ``expected`` (rel 1e-9)."""
    page.wait_for_function(
        f"""(want) => {{ const got = ({_SUMMARY})();
          return Object.entries(want).every(([k, v]) => k in got &&
            (Math.abs(got[k] - v) <= 1e-9 * Math.abs(v) || (!isFinite(v) && got[k] === v))); }}""",
        arg=expected,
        timeout=timeout,
    )
    return page.evaluate(_SUMMARY)


def _message(page, *words: str, timeout: int = 30_000) -> str:
    """The sheet's message once it contains every one of ``words``."""
    box = page.locator(".vtsmodel-sheet .vtsmodel-grid-message").first
    page.wait_for_function(
        "(words) => { const e = document.querySelector('.vtsmodel-sheet .vtsmodel-grid-message');"
        " return !!e && words.every(w => e.innerText.includes(w)); }",
        arg=list(words),
        timeout=timeout,
    )
    return box.inner_text()


def _expect_row(table, model, row: int) -> None:
    """Every cell of ``row`` on the page shows the model's text (inputs their value, computed cells their text)."""
    tr = table.locator("tbody tr").nth(row)
    for c, col in enumerate(model.grid.columns):
        text = model.grid.cell_text(row, col.key)
        if col.input is None:
            expect(tr.locator("td").nth(c)).to_have_text(text)
        else:
            expect(table_cell(table, row, col.header)).to_have_value(text)


def _expect_selected(table, row: int) -> None:
    """The page marks ``row`` (from 0) as the selected one, and only it."""
    expect(table.locator("tbody tr[aria-current=true]")).to_have_count(1)
    expect(table.locator("tbody tr").nth(row)).to_have_attribute("aria-current", "true")


def _focused(cell) -> bool:
    return cell.evaluate("e => e === document.activeElement")


def test_edit_reject_select_add_save_and_load(open_lesson, artifacts_dir, tmp_path):
    page = open_lesson(NOTEBOOK)
    page.wait_for_selector(".vtsmodel-sheet-summary .vtsmodel-sheet-output")
    panel = lesson01.write_panel()
    model = ScenarioSheetWidget(lesson01, panel)  # the test's own sheet bound to its own panel
    sheet = page.locator(".vtsmodel-sheet").first
    table = sheet.locator(".vtsmodel-table").first
    table.scroll_into_view_if_needed()
    _wait_summary(page, model.sheet.outputs(0))
    _expect_row(table, model, 0)
    _expect_selected(table, 0)

    # (1) Click CF of the selected scenario ("scenario 1"), type 2, Enter: computed columns,
    #     readouts and plot follow.
    type_into_table_cell(table, 0, CF.header, "2")
    assert model.set_cell(0, CF.header, "2")
    _wait_summary(page, model.sheet.outputs(0))
    wait_for_panel(page, WRITE, panel.view)
    assert "rejected" not in _message(page, "compressibility CF")
    _expect_row(table, model, 0)

    # (2) Text, then a number outside CF's range: rejected under the table, the cell marked
    #     with the reason and CF 2 kept; the message stays.
    type_into_table_cell(table, 0, CF.header, "abc")
    msg = _message(page, "rejected", "abc", CF.range_text(), "kept 2")
    cf_cell = table_cell(table, 0, CF.header)
    cf_cell.and_(page.locator("[aria-invalid=true]")).wait_for(timeout=30_000)
    assert cf_cell.input_value() == "2"
    assert "is not a number" in cf_cell.locator("xpath=..").get_attribute("title")
    page.wait_for_timeout(1500)
    assert _message(page, "rejected") == msg
    type_into_table_cell(table, 0, CF.header, f"{CF.hi + 1:g}")
    _message(page, "rejected", "outside the valid range", "kept 2")
    _wait_summary(page, model.sheet.outputs(0))

    # (3) Escape cancels: the text as it was, nothing sent (the message is the last rejection's).
    cf_cell.click()
    page.keyboard.type("7")
    page.keyboard.press("Escape")
    assert cf_cell.input_value() == "2"
    page.wait_for_timeout(500)
    assert "outside the valid range" in _message(page, "rejected")

    # (4) A choice cell takes the label its dropdown shows; Tab commits and moves right.
    type_into_table_cell(table, 0, FEATURE.header, "EHPO", commit="Tab")
    assert model.set_cell(0, FEATURE.header, "EHPO")
    _wait_summary(page, model.sheet.outputs(0))
    wait_for_panel(page, WRITE, panel.view)
    next_header = model.grid.columns[[c.key for c in model.grid.columns].index("feature") + 1].header
    assert _focused(table_cell(table, 0, next_header))
    # the next edit clears the rejected cell's mark, as it replaces the message
    cf_cell.and_(page.locator("[aria-invalid=false]")).wait_for(timeout=30_000)
    assert not cf_cell.locator("xpath=..").get_attribute("title")

    # (5) Add: a new scenario at the defaults, selected and marked; the plot overlays "scenario 1"
    #     by name: its lines and its setting (a cross, no cited point's symbol), each once in the legend.
    new_name = model.add()
    page.get_by_role("button", name="Add", exact=True).click()
    _message(page, "added", new_name)
    assert page.locator(".vtsmodel-sheet-selected").first.inner_text() == new_name
    _expect_selected(table, 1)
    _expect_row(table, model, 1)
    wait_for_panel(page, WRITE, panel.view)
    names = [t["name"] for t in plot_traces(page, WRITE_PLOT)]
    assert names.count("scenario 1") >= 1 and names.count("scenario 1: its setting") >= 1
    legend = page.locator(".vtsmodel-plot .js-plotly-plot").nth(WRITE_PLOT).locator(".legend .legendtext")
    legend.filter(has_text="scenario 1").first.wait_for()
    texts = legend.evaluate_all("els => els.map(e => e.textContent)")
    assert texts.count("scenario 1") == 1 and texts.count("scenario 1: its setting") == 1

    # (6) A click on row 1's number selects it: the panel's controls take its values (CF 2, EHPO).
    table.locator("tbody th[scope=row]").nth(0).click()
    model.select(0)
    _expect_selected(table, 0)
    page.locator(".vtsmodel-sheet-selected", has_text="scenario 1").first.wait_for()
    wait_for_panel(page, WRITE, panel.view)
    assert panel.controls["cf"].value == 2.0 and panel.controls["feature"].value == "ehpo"

    # (7) A slider moved edits the selected row: its CF cell and its computed cells follow.
    move_panel_slider(page, panel, WRITE, "cf", "compressibility CF", 2)
    assert model.sheet.values(0)["cf"] == panel.controls["cf"].value != 2.0
    _expect_row(table, model, 0)
    _wait_summary(page, model.sheet.outputs(0))
    wait_for_panel(page, WRITE, panel.view)

    # (8) The arrow keys move to row 2's cell, which selects row 2: the controls take its values.
    table_cell(table, 0, CF.header).click()
    page.keyboard.press("ArrowDown")
    assert _focused(table_cell(table, 1, CF.header))
    model.select(1)
    _expect_selected(table, 1)
    wait_for_panel(page, WRITE, panel.view)

    # (9) Save: the browser downloads the scenarios as JSON.
    with page.expect_download() as info:
        page.get_by_role("button", name="Save", exact=True).click()
    download = info.value
    assert download.suggested_filename == "scenarios_01.json"
    download.save_as(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    assert [s["name"] for s in doc["scenarios"]] == ["scenario 1", new_name]
    assert doc["scenarios"][0]["values"]["cf"] == model.sheet.values(0)["cf"]
    assert doc["scenarios"][0]["values"]["feature"] == "ehpo"

    # (10) Load a file of three scenarios the person picks: the table shows them, the first selected.
    model.duplicate("night shift")
    three = model.sheet.to_json().encode()
    pick_file(page, "sheet", "Load", {"name": "three.json", "mimeType": "application/json", "buffer": three})
    page.locator(".vtsmodel-sheet-status", has_text="loaded 3 scenarios from three.json").wait_for(
        timeout=30_000
    )
    model.load_bytes(three, "three.json")
    expect(table.locator("tbody tr")).to_have_count(3)
    for row in range(3):
        _expect_row(table, model, row)
    _expect_selected(table, 0)
    wait_for_panel(page, WRITE, panel.view)

    # Every head whole; the page fits its width (the table scrolls inside its box).
    heads = table.locator("thead th").evaluate_all("els => els.map(e => e.scrollWidth <= e.clientWidth)")
    assert all(heads), "a header is cut"
    cells = table.locator("tbody input").evaluate_all("els => els.map(e => e.scrollWidth <= e.clientWidth)")
    assert all(cells), "a cell's text is cut"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    sheet.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "sheet-01-after-edit-reject-add-load.png"))
    sheet.screenshot(path=str(artifacts_dir / "sheet-01-table.png"))
