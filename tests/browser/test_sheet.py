"""The scenario sheet in Voila (issue 7), on lesson 01's write panel.

An edited cell recomputes the row (the sheet's summary of the selected row) and moves the
panel's readouts and plot; a bad cell is rejected with a message beside the grid and the
old value stays; Add puts a second scenario on the plots, with a legend entry by name.
Every expected number is computed here from the package.
"""

from __future__ import annotations

import pytest

from vtsmodel import throughput as tp
from vtsmodel.app.lessons import write as lesson01
from vtsmodel.app.scenarios import ScenarioSheet

from .helpers import plot_traces, readouts, slider_readout

pytestmark = pytest.mark.browser

NOTEBOOK = "01_sustained_vs_peak_write.ipynb"
WRITE_PLOT = 0  # the write panel's first figure: peak and sustained vs CF
CF = lesson01.SCENARIO_PARAMS["cf"]
NEW_CF = 2.0


def _geometry() -> dict:
    """The grid's sizes and column order, as the package builds lesson 01's sheet."""
    from vtsmodel.app.sheet import ScenarioSheetWidget

    widget = ScenarioSheetWidget("01", lesson01.write_panel())
    g = widget.grid
    assert not g.auto_fit_columns  # widths are base_column_size or the header's (column_widths)
    widths = g.column_widths or {}
    return {
        "row": g.base_row_size,
        "widths": [widths.get(c, g.base_column_size) for c in widget.sheet.columns],
        "header": g.base_column_header_size,
        "row_header": g.base_row_header_size,
        "columns": widget.sheet.columns,
    }


def _edit_cell(page, geometry: dict, row: int, column: str, text: str) -> None:
    """Double-click the cell (the grid is a canvas), select its text, type, Enter."""
    grid = page.locator(".vtsmodel-sheet-grid").first
    grid.scroll_into_view_if_needed()
    page.wait_for_selector(".vtsmodel-sheet-grid canvas")
    box = grid.bounding_box()
    assert box is not None
    i = geometry["columns"].index(column)
    x = box["x"] + geometry["row_header"] + sum(geometry["widths"][:i]) + geometry["widths"][i] / 2
    y = box["y"] + geometry["header"] + geometry["row"] * (row + 0.5)
    assert x < box["x"] + box["width"], f"column {column!r} is outside the visible grid"
    page.mouse.dblclick(x, y)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


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


def _wait_point(page, name: str, x: float, timeout: int = 30_000) -> dict:
    """The trace ``name`` of the write plot once its one point sits at CF ``x``."""
    page.wait_for_function(
        "([i, name, x]) => { const el = document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')[i];"
        " const t = el && el.data && el.data.find(d => d.name === name);"
        " return !!t && Math.abs(Number(t.x[0]) - x) < 1e-9; }",
        arg=[WRITE_PLOT, name, x],
        timeout=timeout,
    )
    return next(t for t in plot_traces(page, WRITE_PLOT) if t["name"] == name)


def _wait_message(page, *words: str, timeout: int = 30_000) -> str:
    """The sheet's message once it contains every one of ``words``."""
    page.wait_for_function(
        "(words) => { const e = document.querySelector('.vtsmodel-sheet-message');"
        " return !!e && words.every(w => e.innerText.includes(w)); }",
        arg=list(words),
        timeout=timeout,
    )
    return page.locator(".vtsmodel-sheet-message").first.inner_text()


def test_edit_a_cell_reject_bad_values_and_add_a_scenario(open_lesson, artifacts_dir):
    page = open_lesson(NOTEBOOK)
    page.wait_for_selector(".vtsmodel-sheet-summary .vtsmodel-sheet-output")
    geometry = _geometry()
    base = {k: p.default for k, p in lesson01.SCENARIO_PARAMS.items()}
    _wait_summary(page, lesson01.scenario_outputs(**base))

    # (1) CF of the selected scenario ("base") to 2: computed columns, readouts and plot follow.
    _edit_cell(page, geometry, 0, CF.header, f"{NEW_CF:g}")
    edited = {**base, "cf": NEW_CF}
    expected = lesson01.scenario_outputs(**edited)
    shown = _wait_summary(page, expected)
    for key, value in expected.items():
        assert shown[key] == pytest.approx(value, rel=1e-9), key
    peak = float(tp.write_rate(NEW_CF, base["tvc_gb"], feature=base["feature"], mode="peak"))
    sus = float(tp.write_rate(NEW_CF, base["tvc_gb"], feature=base["feature"]))
    assert expected["peak write [MB/s]"] == pytest.approx(peak, rel=1e-12)  # the sheet's model is Eq. 3's
    assert _wait_point(page, "peak at this CF", NEW_CF)["y"][0] == pytest.approx(peak, rel=1e-9)
    assert _wait_point(page, "sustained at this CF", NEW_CF)["y"][0] == pytest.approx(sus, rel=1e-9)
    assert float(slider_readout(page, "compressibility CF")) == pytest.approx(NEW_CF)
    page.wait_for_function(
        "v => { const e = document.querySelector('td.vtsmodel-readout[data-label=\"peak write [MB/s]\"]');"
        " return !!e && e.innerText.trim() === v; }",
        arg=f"{peak:.3g}",
    )
    assert readouts(page)["sustained write [MB/s]"] == f"{sus:.3g}"
    assert "rejected" not in page.locator(".vtsmodel-sheet-message").first.inner_text()

    # (2) Text, then a number outside CF's range: rejected beside the grid, CF 2 kept.
    _edit_cell(page, geometry, 0, CF.header, "abc")
    msg = _wait_message(page, "rejected", "abc", f"[{CF.lo}, {CF.hi}]", f"kept {NEW_CF:.4g}")
    assert "cf=" in msg
    too_big = CF.hi + 1.0
    _edit_cell(page, geometry, 0, CF.header, f"{too_big:g}")
    msg = _wait_message(page, "rejected", f"{too_big:g}", "outside the valid range", f"kept {NEW_CF:.4g}")
    shown = page.evaluate(_SUMMARY)
    for key, value in expected.items():
        assert shown[key] == pytest.approx(value, rel=1e-9), key
    assert float(slider_readout(page, "compressibility CF")) == pytest.approx(NEW_CF)
    assert _wait_point(page, "peak at this CF", NEW_CF)["y"][0] == pytest.approx(peak, rel=1e-9)

    # (3) Add: a new scenario at the defaults, selected; the plot overlays "base" by name.
    model = ScenarioSheet("01")
    new_name = model.add()  # the name the sheet gives a second row
    page.get_by_role("button", name="Add", exact=True).click()
    _wait_message(page, "added", new_name)
    assert page.locator(".vtsmodel-sheet-selected").first.inner_text() == new_name
    _wait_summary(page, lesson01.scenario_outputs(**base))
    overlay = _wait_point(page, "base: peak at this CF", NEW_CF)
    assert overlay["y"][0] == pytest.approx(peak, rel=1e-9)
    current = _wait_point(page, f"{new_name}: peak at this CF", base["cf"])
    assert current["y"][0] == pytest.approx(
        float(tp.write_rate(base["cf"], base["tvc_gb"], feature=base["feature"], mode="peak")), rel=1e-9
    )
    names = {t["name"] for t in plot_traces(page, WRITE_PLOT)}
    label = lesson01._FEATURE_LABELS[base["feature"]]
    assert {f"base: {label} peak", f"base: {label} sustained"} <= names
    legend = page.locator(".vtsmodel-plot .js-plotly-plot").nth(WRITE_PLOT).locator(".legend .legendtext")
    legend.filter(has_text="base: ").first.wait_for()
    texts = legend.evaluate_all("els => els.map(e => e.textContent)")  # SVG text: no innerText
    assert any(t.startswith("base: ") for t in texts) and any(t.startswith(f"{new_name}: ") for t in texts)
    # A picture of the sheet under the write plots, after the three steps, to look at.
    sheet = page.locator(".vtsmodel-sheet").first
    sheet.scroll_into_view_if_needed()
    page.locator(".vtsmodel-plot .js-plotly-plot").nth(WRITE_PLOT).scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "sheet-01-after-edit-reject-add.png"))
    sheet.screenshot(path=str(artifacts_dir / "sheet-01-grid.png"))
