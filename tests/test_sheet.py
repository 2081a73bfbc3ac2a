"""The scenario sheet widget without a browser: grid edits, rejection, panel binding, overlays.

Edits enter the way the browser sends them: ipydatagrid's ``cell-changed`` message, which
the grid applies to its data and then passes to ``on_cell_change``.
"""

from __future__ import annotations

import json
import types

import numpy as np
import pytest

from vtsmodel.app.lessons import Param
from vtsmodel.app.panels import Panel, View, slider
from vtsmodel.app.sheet import ScenarioSheetWidget, overlay_traces


def _lesson():
    mod = types.ModuleType("vtsmodel.app.lessons.lesson97")
    mod.SCENARIO_PARAMS = {
        "rate": Param("rate", "MB/s", 100.0, 0.0, 1000.0),
        "drives": Param("drives", "count", 4, 1, 16),
    }

    def outputs(rate=100.0, drives=4):
        return {"per drive [MB/s]": rate / drives}

    mod.scenario_outputs = outputs
    return mod


def view(rate=100.0, drives=4, gain=1.0):
    import plotly.graph_objects as go

    x = np.linspace(0, 10, 11)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x, y=rate * gain * x / drives, mode="lines", name="curve"))
    fig.add_trace(
        go.Scatter(x=[1, 2, 3], y=[1, 2, 3], mode="markers", name="source data", hovertext=["a", "b", "c"])
    )
    fig.add_trace(go.Scatter(x=[5.0], y=[rate / drives], mode="markers", name="this setting"))
    return View(
        {"main": fig}, readouts={"per drive": f"{rate / drives:.3g} MB/s"}, caption_values={"rate": rate}
    )


def make_panel():
    controls = {
        "rate": slider("rate", 100.0, 0.0, 1000.0, 1.0, unit="MB/s"),
        "drives": slider("drives", 4.0, 1.0, 16.0, 1.0),
        "gain": slider("gain", 1.0, 0.5, 2.0, 0.1),  # a control the sheet does not hold
    }
    return Panel(controls, view, title="test")


@pytest.fixture
def bound():
    panel = make_panel()
    return ScenarioSheetWidget(_lesson(), panel), panel


def browser_edit(sheet, row, column, value):
    """What ipydatagrid does when the browser reports an edited cell."""
    index = sheet.grid._column_name_to_index(column)
    sheet.grid._DataGrid__handle_custom_msg(
        None, {"event_type": "cell-changed", "row": row, "column_index": index, "value": value}, None
    )


def grid_cell(sheet, row, column):
    return sheet.grid.get_cell_value_by_index(column, row)


def test_grid_shows_names_inputs_with_units_and_computed_columns(bound):
    sheet, _ = bound
    cols = [f["name"] for f in sheet.grid._data["schema"]["fields"]]
    assert cols[1:] == ["Scenario", "rate [MB/s]", "drives [count]", "per drive [MB/s]", "ipydguuid"]
    assert grid_cell(sheet, 0, "per drive [MB/s]") == 25.0


def test_an_edit_recomputes_the_row_and_drives_the_panel(bound):
    sheet, panel = bound
    browser_edit(sheet, 0, "rate [MB/s]", 200)  # an int typed into a float column
    assert sheet.sheet.values(0)["rate"] == 200.0
    assert grid_cell(sheet, 0, "per drive [MB/s]") == 50.0
    assert panel.controls["rate"].value == 200.0
    assert panel.readout_values["per drive"] == "50 MB/s"
    y = np.asarray(panel.figure_widgets["main"].data[0].y)
    np.testing.assert_allclose(y, view(rate=200.0).figures["main"].data[0].y)


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [
        ("rate [MB/s]", "lots", ["rate", "'lots'", "[0.0, 1000.0]"]),
        ("rate [MB/s]", -5.0, ["rate", "outside", "[0.0, 1000.0]"]),
        ("drives [count]", 2.5, ["drives", "whole"]),
        ("per drive [MB/s]", 1.0, ["computed"]),
    ],
)
def test_a_bad_cell_is_rejected_with_a_message_and_the_old_value_returns(bound, column, value, words):
    sheet, panel = bound
    old = grid_cell(sheet, 0, column)
    browser_edit(sheet, 0, column, value)
    assert grid_cell(sheet, 0, column) == old
    assert "rejected" in sheet.message.value
    for word in words:
        assert word.replace("'", "&#x27;") in sheet.message.value
    assert panel.controls["rate"].value == 100.0
    assert sheet.sheet.outputs(0) == {"per drive [MB/s]": 25.0}


def summary_values(sheet) -> dict[str, tuple[str, str]]:
    """The summary's computed columns: label to (shown text, full value)."""
    import re

    found = re.findall(
        r"class='vtsmodel-sheet-output' data-label='([^']*)' data-value='([^']*)'>([^<]*)<",
        sheet.summary.value,
    )
    return {label: (text, value) for label, value, text in found}


def test_the_summary_shows_the_selected_rows_computed_columns(bound):
    sheet, panel = bound
    assert summary_values(sheet) == {"per drive [MB/s]": ("25", "25.0")}
    browser_edit(sheet, 0, "rate [MB/s]", 150)
    assert summary_values(sheet) == {"per drive [MB/s]": ("37.5", "37.5")}
    browser_edit(sheet, 0, "rate [MB/s]", "abc")  # rejected: the summary keeps the old row
    assert summary_values(sheet) == {"per drive [MB/s]": ("37.5", "37.5")}
    panel.controls["drives"].value = 3.0  # a slider edits the selected row
    assert summary_values(sheet)["per drive [MB/s]"][1] == repr(150.0 / 3)
    sheet.add("more")
    assert "vtsmodel-sheet-selected'>more<" in sheet.summary.value
    assert summary_values(sheet) == {"per drive [MB/s]": ("25", "25.0")}
    sheet.select("base")
    assert summary_values(sheet)["per drive [MB/s]"][1] == repr(150.0 / 3)


def test_the_grid_reporting_back_the_kernels_values_changes_nothing(bound, monkeypatch):
    """The browser's grid reports every value the kernel puts as an edit: those are echoes."""
    sheet, panel = bound
    browser_edit(sheet, 0, "rate [MB/s]", 200)
    message = sheet.message.value
    updates = []
    monkeypatch.setattr(panel, "update", lambda: updates.append(1))
    puts = []
    monkeypatch.setattr(sheet, "_put", lambda *a: puts.append(a))
    for column in ("Scenario", "rate [MB/s]", "drives [count]", "per drive [MB/s]"):
        browser_edit(sheet, 0, column, grid_cell(sheet, 0, column))
    assert sheet.message.value == message and "rejected" not in message
    assert updates == [] and puts == []  # nothing is put back, so nothing echoes again
    browser_edit(sheet, 0, "rate [MB/s]", "200")  # typed text is an edit, even of the same number
    assert sheet.sheet.values(0)["rate"] == 200.0 and puts


def test_sliders_edit_the_selected_row(bound):
    sheet, panel = bound
    panel.controls["drives"].value = 5.0
    assert sheet.sheet.values(0)["drives"] == 5
    assert grid_cell(sheet, 0, "per drive [MB/s]") == 20.0


def test_add_duplicate_rename_delete_and_selection(bound):
    sheet, panel = bound
    panel.controls["rate"].value = 300.0
    assert sheet.duplicate() == "base copy" and sheet.selected == 1
    sheet.rename("fast")
    assert sheet.sheet.names == ["base", "fast"]
    assert grid_cell(sheet, 1, "Scenario") == "fast"
    sheet.add()
    assert sheet.selected == 2 and panel.controls["rate"].value == 100.0  # defaults
    sheet.select("fast")
    assert panel.controls["rate"].value == 300.0
    sheet.delete()
    assert sheet.sheet.names == ["base", "scenario 3"]
    sheet.select("scenario 3")
    sheet._name.value = "base"
    sheet._buttons.children[4].click()  # Rename to a name in use: refused, said beside the grid
    assert "already used" in sheet.message.value
    sheet.grid.selections = [{"r1": 0, "r2": 0, "c1": 1, "c2": 1}]
    assert sheet.selected == 0 and sheet._choice.value == "base"


def test_every_plot_overlays_the_other_scenarios_by_name(bound):
    sheet, panel = bound
    sheet.duplicate()
    browser_edit(sheet, 1, "rate [MB/s]", 500.0)
    traces = panel.figure_widgets["main"].data
    names = [t.name for t in traces]
    assert names == [
        "base copy: curve",
        "source data",
        "base copy: this setting",
        "base: curve",
        "base: this setting",
    ]
    other = traces[3]
    assert other.line.dash == "dash" and other.legendgroup == "base"
    np.testing.assert_allclose(other.y, view(rate=100.0).figures["main"].data[0].y)
    np.testing.assert_allclose(traces[0].y, view(rate=500.0).figures["main"].data[0].y)
    # an edit of the other (unselected) row redraws its overlay
    browser_edit(sheet, 0, "rate [MB/s]", 50.0)
    np.testing.assert_allclose(
        panel.figure_widgets["main"].data[3].y, view(rate=50.0).figures["main"].data[0].y
    )
    assert "base" in panel.caption()
    sheet.delete()
    assert [t.name for t in panel.figure_widgets["main"].data] == ["curve", "source data", "this setting"]


def test_overlay_traces_skips_source_markers():
    out = overlay_traces(view().figures["main"], "s", "dot")
    assert [t["name"] for t in out] == ["s: curve", "s: this setting"]
    assert out[0]["line"]["dash"] == "dot"


def test_overlay_traces_keep_traces_out_of_the_legend_that_their_figure_keeps_out():
    fig = view().figures["main"]
    fig.data[0].showlegend = False
    out = overlay_traces(fig, "s", "dot")
    assert [t["showlegend"] for t in out] == [False, True]


def test_save_load_and_csv_buttons(bound, tmp_path):
    sheet, panel = bound
    sheet._path.value = str(tmp_path / "s.json")
    sheet.duplicate()
    panel.controls["rate"].value = 700.0
    sheet._files.children[2].click()  # Save
    assert "saved" in sheet.message.value
    doc = json.loads((tmp_path / "s.json").read_text())
    assert [s["values"]["rate"] for s in doc["scenarios"]] == [100.0, 700.0]
    sheet._files.children[2].click()  # Save again: the file exists and replace is off
    assert "exists" in sheet.message.value
    sheet._files.children[4].click()  # Export CSV
    assert (tmp_path / "s.csv").read_text().startswith("Scenario,rate [MB/s],drives [count],per drive [MB/s]")
    sheet.delete()
    sheet._files.children[3].click()  # Load
    assert sheet.sheet.names == ["base", "base copy"] and sheet.selected == 0
    (tmp_path / "bad.json").write_text(
        '{"schema": "vtsmodel-scenarios", "version": 1, "lesson": "97", "scena'
    )
    sheet._path.value = str(tmp_path / "bad.json")
    sheet._files.children[3].click()
    assert "not valid JSON" in sheet.message.value
    assert sheet.sheet.names == ["base", "base copy"]


def test_binding_a_panel_without_matching_controls_is_an_error():
    other = Panel({"gain": slider("gain", 1.0, 0.5, 2.0, 0.1)}, lambda gain: view(gain=gain))
    with pytest.raises(ValueError, match="no control named like"):
        ScenarioSheetWidget(_lesson(), other)


def test_panel_decorate_hook_applies_to_every_view():
    panel = make_panel()
    seen = []

    def decorate(v):
        seen.append(v.readouts["per drive"])
        return View(v.figures, {**v.readouts, "decorated": "yes"})

    panel.decorate = decorate
    panel.controls["rate"].value = 40.0
    assert seen == ["10 MB/s"] and panel.readout_values["decorated"] == "yes"
    undecorated = Panel(make_panel().controls, view)
    assert undecorated.decorate is None and "decorated" not in undecorated.readout_values
    first = Panel(make_panel().controls, view, decorate=decorate)
    assert first.readout_values["decorated"] == "yes"


def test_lesson_01_write_panel_binds():
    from vtsmodel.app.lessons import write as lesson01

    panel = lesson01.write_panel()
    sheet = ScenarioSheetWidget("01", panel)
    cf = lesson01.SCENARIO_PARAMS["cf"]
    sheet.duplicate()
    browser_edit(sheet, 1, cf.header, 2)
    assert panel.controls["cf"].value == 2.0
    for key, value in lesson01.scenario_outputs(**sheet.sheet.values(1)).items():
        assert grid_cell(sheet, 1, key) == pytest.approx(value)
    names = {t.name for fw in panel.figure_widgets.values() for t in fw.data}
    assert any(n and n.startswith("base: ") for n in names)


def test_a_flag_or_a_float_echoed_by_the_grid_is_not_an_edit():
    # The grid reports back every value the kernel puts in it; a checkbox column (lesson 06's
    # "background copy running") echoed as True, or a float echoed a rounding step away,
    # must not start another put/echo round (it did, for ever, in the browser).
    from vtsmodel.app.sheet import scenario_sheet

    widget = scenario_sheet("06")
    sheet = widget.sheet
    flags = [k for k, p in sheet.params.items() if p.choices and all(isinstance(c, bool) for c in p.choices)]
    assert flags, "lesson 06 has a flag input"
    header = sheet.headers[flags[0]]
    current = sheet.cell(0, header)
    assert widget._is_echo(0, header, current)
    assert not widget._is_echo(0, header, not current)
    number = next(k for k, p in sheet.params.items() if not p.choices)
    h = sheet.headers[number]
    x = float(sheet.cell(0, h))
    assert widget._is_echo(0, h, x * (1 + 1e-15))
    assert not widget._is_echo(0, h, x * 1.01 + 1.0)


def test_header_widths_show_long_headers_whole():
    from vtsmodel.app.sheet import header_widths

    w = header_widths(["CF [-]", "hours at peak [h]", "x" * 80])
    assert w["CF [-]"] == 90  # the floor
    assert w["hours at peak [h]"] == 7 * 17 + 28
    assert w["x" * 80] == 240  # the ceiling
