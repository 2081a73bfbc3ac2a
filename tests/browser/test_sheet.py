"""The scenario sheet in Voila, on lesson 01's write panel.

An edited cell recomputes the row (the sheet's summary of the selected row) and moves the
panel's readouts and plot; a bad cell is rejected with a message under the grid that stays,
and the old value stays; a choice cell takes the label its dropdown shows; Add puts a second
scenario on the plots, one legend entry by name; Save downloads the scenarios as JSON.
Every expected number is computed here from the package.
"""

from __future__ import annotations

import json

import pytest

from vtsmodel.app.lessons import write as lesson01
from vtsmodel.app.sheet import ScenarioSheetWidget

from .helpers import edit_grid_cell, plot_traces, wait_for_panel

pytestmark = pytest.mark.browser

NOTEBOOK = "01_sustained_vs_peak_write.ipynb"
WRITE = "Peak and sustained write"
WRITE_PLOT = 0  # the write panel's first figure: peak and sustained vs CF
CF = lesson01.INPUTS["cf"]

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


def test_edit_reject_add_and_save(open_lesson, artifacts_dir, tmp_path):
    page = open_lesson(NOTEBOOK)
    page.wait_for_selector(".vtsmodel-sheet-summary .vtsmodel-sheet-output")
    panel = lesson01.write_panel()
    model = ScenarioSheetWidget(lesson01, panel)  # the test's own sheet bound to its own panel
    grid = model.grid.grid
    container = page.locator(".vtsmodel-sheet").first.locator(".datagrid-container").first
    _wait_summary(page, model.sheet.outputs(0))

    # (1) CF of the selected scenario ("scenario 1") to 2: computed columns, readouts and plot follow.
    edit_grid_cell(page, container, grid, 0, CF.header, "2")
    assert model.set_cell(0, CF.header, "2")
    _wait_summary(page, model.sheet.outputs(0))
    wait_for_panel(page, WRITE, panel.view)
    assert "rejected" not in _message(page, "compressibility CF")

    # (2) Text, then a number outside CF's range: rejected under the grid, CF 2 kept, the
    #     message still there after the grid reported the restored cell back.
    edit_grid_cell(page, container, grid, 0, CF.header, "abc")
    msg = _message(page, "rejected", "abc", CF.range_text(), "kept 2")
    page.wait_for_timeout(1500)
    assert _message(page, "rejected") == msg
    edit_grid_cell(page, container, grid, 0, CF.header, f"{CF.hi + 1:g}")
    _message(page, "rejected", "outside the valid range", "kept 2")
    _wait_summary(page, model.sheet.outputs(0))

    # (3) A choice cell takes the label its dropdown shows.
    feature = lesson01.INPUTS["feature"]
    edit_grid_cell(page, container, grid, 0, feature.header, "EHPO")
    assert model.set_cell(0, feature.header, "EHPO")
    _wait_summary(page, model.sheet.outputs(0))
    wait_for_panel(page, WRITE, panel.view)

    # (4) Add: a new scenario at the defaults, selected; the plot overlays "scenario 1" by name: its
    #     lines and its setting (a cross, no cited point's symbol), each once in the legend.
    new_name = model.add()
    page.get_by_role("button", name="Add", exact=True).click()
    _message(page, "added", new_name)
    assert page.locator(".vtsmodel-sheet-selected").first.inner_text() == new_name
    wait_for_panel(page, WRITE, panel.view)
    names = [t["name"] for t in plot_traces(page, WRITE_PLOT)]
    assert names.count("scenario 1") >= 1 and names.count("scenario 1: its setting") >= 1
    legend = page.locator(".vtsmodel-plot .js-plotly-plot").nth(WRITE_PLOT).locator(".legend .legendtext")
    legend.filter(has_text="scenario 1").first.wait_for()
    texts = legend.evaluate_all("els => els.map(e => e.textContent)")
    assert texts.count("scenario 1") == 1 and texts.count("scenario 1: its setting") == 1

    # (5) Save: the browser downloads the scenarios as JSON.
    with page.expect_download() as info:
        page.get_by_role("button", name="Save", exact=True).click()
    download = info.value
    assert download.suggested_filename == "scenarios_01.json"
    download.save_as(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    assert [s["name"] for s in doc["scenarios"]] == ["scenario 1", new_name]
    assert doc["scenarios"][0]["values"]["cf"] == 2.0 and doc["scenarios"][0]["values"]["feature"] == "ehpo"

    sheet = page.locator(".vtsmodel-sheet").first
    sheet.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "sheet-01-after-edit-reject-add.png"))
    sheet.screenshot(path=str(artifacts_dir / "sheet-01-grid.png"))
