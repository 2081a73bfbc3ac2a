"""The scenario sheet widget without a browser: edits, rejection, selection, panels, overlays, files.

Edits enter the way the page sends them (``_table.js``): the cell's row first selected (a
state update, ``set_state``, as a person's focus moves to it), then ``{"kind": "edit", row,
key, text}``; what the page shows is the table's ``rows`` trait. The page itself is driven in
Chromium by tests/browser/test_sheet.py.
"""

from __future__ import annotations

import json
import re
import types

import numpy as np
import plotly.graph_objects as go
import pytest

from vtsmodel import Input
from vtsmodel.app.figures import Plot, figure_json, point_mark
from vtsmodel.app.panels import Panel, Stage, View
from vtsmodel.app.sheet import OVERLAY_POINT, ScenarioSheetWidget, overlay_traces
from vtsmodel.app.tables import Column, TableEditor

from .uploads import browser_upload

RATE = Input("rate", "MB/s", 100.0, lo=0.0, hi=1000.0, step=10.0)
DRIVES = Input("drives", "count", 4, lo=1, hi=16, integer=True)
GAIN = Input("gain", "-", 1.0, lo=0.5, hi=2.0, step=0.1)
MODE = Input("mode", "", "fast", choices=(("Fast", "fast"), ("Slow", "slow")))


def _lesson():
    mod = types.ModuleType("vtsmodel.app.lessons.fake")
    mod.LESSON_ID = "97"
    mod.INPUTS = {"rate": RATE, "drives": DRIVES, "mode": MODE, "gain": GAIN}
    mod.SCENARIO = ("rate", "drives", "mode")

    def outputs(rate=100.0, drives=4, mode="fast"):
        return {"per drive [MB/s]": rate / drives * (1.0 if mode == "fast" else 0.5)}

    mod.scenario_outputs = outputs
    return mod


def main_base(drives, mode):
    x = np.linspace(0, 10, 11)
    fig = go.Figure(go.Scatter(x=x, y=10 * x / drives, mode="lines", name="curve"))
    fig.add_scatter(x=[1, 2, 3], y=[1, 2, 3], mode="markers", name="source data", hovertext=["a", "b", "c"])
    return figure_json(fig)


def evaluate(rate=100.0, drives=4, mode="fast", gain=1.0):
    return {"rate": rate, "drives": drives, "mode": mode, "gain": gain}


def view(r):
    mark = point_mark(5.0, r["rate"] * r["gain"] / r["drives"], name="this setting")
    return View({"main": Plot(main_base, {"drives": r["drives"], "mode": r["mode"]}, shapes=[mark])},
                readouts={"per drive": f"{r['rate'] / r['drives']:g} MB/s"})  # fmt: skip


def make_panel():
    inputs = {k: _lesson().INPUTS[k] for k in ("rate", "drives", "mode", "gain")}
    return Panel(inputs, Stage(evaluate, view), title="test")


@pytest.fixture
def bound():
    panel = make_panel()
    return ScenarioSheetWidget(_lesson(), panel), panel


def _key(table, column):
    return next(c["key"] for c in table.view.columns if c["header"] == column)


def browser_edit(sheet, row, column, text):
    """What the page sends when a person types ``text`` into a cell (by its head) and presses Enter."""
    table = sheet.grid
    table.view.set_state({"selected": row})  # the cell took the focus
    table._on_msg(table.view, {"kind": "edit", "row": row, "key": _key(table, column), "text": str(text)}, [])


def select_on_page(sheet, row):
    """A person moves to a cell of ``row`` (or clicks its number)."""
    sheet.grid.view.set_state({"selected": row})


def cell(sheet, row, column):
    """The text the page shows in a cell."""
    table = sheet.grid
    return table.view.rows[row][[c["header"] for c in table.view.columns].index(column)]


def test_the_table_shows_names_inputs_with_units_and_computed_columns_grey(bound):
    sheet, _ = bound
    cols = sheet.grid.view.columns
    assert [c["header"] for c in cols] == [
        "Scenario",
        "rate [MB/s]",
        "drives [count]",
        "mode",
        "per drive [MB/s]",
    ]
    assert [c["editable"] for c in cols] == [True, True, True, True, False]  # the computed column is grey
    assert cell(sheet, 0, "per drive [MB/s]") == "25" and cell(sheet, 0, "mode") == "Fast"
    assert sheet.grid.view.mark_selected and sheet.grid.view.selected == 0  # the page marks the selected row


def test_an_edit_recomputes_the_row_and_drives_the_panel(bound):
    sheet, panel = bound
    browser_edit(sheet, 0, "rate [MB/s]", "200")  # a whole number typed into a number column
    assert sheet.sheet.values(0)["rate"] == 200.0 and cell(sheet, 0, "per drive [MB/s]") == "50"
    assert panel.controls["rate"].value == 200.0 and panel.readout_values["per drive"] == "50 MB/s"
    browser_edit(sheet, 0, "mode", "Slow")  # the label the table shows is accepted
    assert sheet.sheet.values(0)["mode"] == "slow" and panel.controls["mode"].value == "slow"


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [
        ("rate [MB/s]", "lots", ["rate='lots' is not a number", "[0, 1000]"]),
        ("rate [MB/s]", "-5", ["rate=-5 is outside the valid range [0, 1000]"]),
        ("drives [count]", "2.5", ["drives=2.5 must be a whole number"]),
        ("mode", "medium", ["'Fast', 'Slow'"]),
        ("per drive [MB/s]", "1", ["computed"]),
    ],
)
def test_a_bad_cell_is_rejected_and_the_message_stays(bound, column, value, words):
    sheet, panel = bound
    old = cell(sheet, 0, column)
    browser_edit(sheet, 0, column, value)
    message = sheet.message.value
    assert cell(sheet, 0, column) == old and "rejected" in message
    for word in words:
        assert word.replace("'", "&#x27;") in message
    status = sheet.grid.view.status  # the page marks the cell and shows the reason as its title
    assert status["ok"] is False and status["row"] == 0 and "rejected" in status["message"]
    # The cell's kept text sent back, or the focus moving on: the message stays.
    browser_edit(sheet, 0, column, old)
    select_on_page(sheet, 0)
    assert sheet.message.value == message
    assert panel.controls["rate"].value == 100.0 and sheet.sheet.outputs(0) == {"per drive [MB/s]": 25.0}


def test_the_page_sending_the_kernels_own_texts_changes_nothing(bound, monkeypatch):
    sheet, panel = bound
    browser_edit(sheet, 0, "rate [MB/s]", "200")
    message = sheet.message.value
    updates, sent = [], []
    monkeypatch.setattr(panel, "update", lambda: updates.append(1))
    monkeypatch.setattr(sheet.grid.view, "_send", lambda msg, buffers=None: sent.append(msg))
    for column in ("Scenario", "rate [MB/s]", "drives [count]", "mode", "per drive [MB/s]"):
        browser_edit(sheet, 0, column, cell(sheet, 0, column))
    assert sheet.message.value == message and updates == []
    updates_sent = [m["state"] for m in sent if m["method"] == "update"]
    assert len(updates_sent) == 5 and all(set(u) == {"status"} and u["status"]["ok"] for u in updates_sent)


def summary_values(sheet) -> dict[str, tuple[str, str]]:
    found = re.findall(r"class='vtsmodel-sheet-output' data-label='([^']*)' data-value='([^']*)'>([^<]*)<",
                       sheet.summary.value)  # fmt: skip
    return {label: (text, value) for label, value, text in found}


def test_the_summary_and_the_sliders_follow_the_selected_row(bound):
    sheet, panel = bound
    assert summary_values(sheet) == {"per drive [MB/s]": ("25", "25.0")}
    browser_edit(sheet, 0, "rate [MB/s]", "150")
    assert summary_values(sheet) == {"per drive [MB/s]": ("37.5", "37.5")}
    panel.controls["drives"].value = 3  # a slider edits the selected row
    assert (
        summary_values(sheet)["per drive [MB/s]"][1] == repr(150.0 / 3)
        and cell(sheet, 0, "drives [count]") == "3"
    )
    sheet.add("more")
    assert "vtsmodel-sheet-selected'>more<" in sheet.summary.value and sheet.grid.view.selected == 1
    sheet.select("scenario 1")
    assert panel.controls["rate"].value == 150.0 and sheet.grid.view.selected == 0  # the page marks it


def test_add_duplicate_rename_delete_and_selection(bound):
    sheet, panel = bound
    panel.controls["rate"].value = 300.0
    assert sheet.duplicate() == "scenario 1 copy" and sheet.selected == 1
    sheet.rename("fast one")
    assert sheet.sheet.names == ["scenario 1", "fast one"] and cell(sheet, 1, "Scenario") == "fast one"
    browser_edit(sheet, 1, "Scenario", "scenario 1")  # a name in use: refused
    assert "already used" in sheet.message.value and cell(sheet, 1, "Scenario") == "fast one"
    sheet.add()
    assert sheet.selected == 2 and panel.controls["rate"].value == 100.0  # defaults
    sheet.select("fast one")
    assert panel.controls["rate"].value == 300.0
    sheet.delete()
    assert sheet.sheet.names == ["scenario 1", "scenario 3"]
    select_on_page(sheet, 0)
    assert (
        sheet.selected == 0 and sheet._choice.value == "scenario 1" and panel.controls["rate"].value == 300.0
    )
    sheet._choice.value = "scenario 3"  # the list beside the buttons: the page marks the row
    assert sheet.selected == sheet.grid.view.selected == 1 and panel.controls["rate"].value == 100.0


def test_every_plot_overlays_the_other_scenarios_one_legend_entry_each(bound):
    sheet, panel = bound
    sheet.duplicate()
    browser_edit(sheet, 1, "rate [MB/s]", "500")
    data = panel.figure("main")["data"]
    names = ["curve", "source data", "scenario 1", "scenario 1: its setting", "this setting"]
    assert [t["name"] for t in data] == names
    line, point = data[2], data[3]
    # the other scenario's line and its setting each once in the legend; its point a cross, which no
    # cited source point uses (lesson 01's stated peak points are open diamonds)
    assert line["line"]["dash"] == "dash" and line["showlegend"] and point["showlegend"]
    assert point["marker"]["symbol"] == OVERLAY_POINT
    assert point["y"] == [100.0 / 4] and line["y"] == data[0]["y"]
    # an edit of the other row redraws its overlay (from code: on the page an edit selects its row)
    assert sheet.set_cell(0, "rate [MB/s]", "50")
    assert panel.figure("main")["data"][3]["y"] == [50.0 / 4]
    assert "Also shown = scenario 1" in panel.caption() and "Scenario = scenario 1 copy" in panel.caption()
    sheet.delete()
    assert [t["name"] for t in panel.figure("main")["data"]] == ["curve", "source data", "this setting"]


def test_overlay_traces_skip_source_markers_and_turn_marks_into_points():
    spec = view(evaluate()).figures["main"].spec()
    out = overlay_traces(spec, "s", "dot")
    assert [t["name"] for t in out] == ["s", "s: its setting"] and out[0]["line"]["dash"] == "dot"
    assert out[1]["mode"] == "markers" and out[1]["x"] == [5.0]


def test_save_and_csv_are_downloads_and_load_is_an_upload(bound):
    sheet, panel = bound
    sent = []
    sheet.files.downloader.send = lambda content, buffers: sent.append((content, buffers))
    sheet.duplicate()
    panel.controls["rate"].value = 700.0
    sheet.files.controls["Save"].click()
    assert "downloaded <b>scenarios_97.json</b>" in sheet.files.status.value
    content, buffers = sent[-1]
    assert content == {"kind": "download", "name": "scenarios_97.json", "mime": "application/json"}
    doc = json.loads(bytes(buffers[0]))
    assert [s["values"]["rate"] for s in doc["scenarios"]] == [100.0, 700.0]
    sheet.files.controls["Export CSV"].click()
    assert (
        bytes(sent[-1][1][0]).decode().startswith("Scenario,rate [MB/s],drives [count],mode,per drive [MB/s]")
    )
    sheet.delete()
    browser_upload(sheet.files.controls["Load…"], "s.json", bytes(buffers[0]))
    assert sheet.sheet.names == ["scenario 1", "scenario 1 copy"]
    assert "loaded 2 scenarios from <b>s.json</b>" in sheet.files.status.value
    browser_upload(sheet.files.controls["Load…"], "bad.json", b'{"schema": "vtsmodel-sc')
    assert "<b>bad.json</b> not loaded: bad.json is not valid JSON" in sheet.files.status.value
    assert sheet.sheet.names == ["scenario 1", "scenario 1 copy"]


def test_binding_a_panel_without_matching_inputs_is_an_error():
    other = Panel({"gain": GAIN}, Stage(evaluate, view))
    with pytest.raises(ValueError, match="no input named like"):
        ScenarioSheetWidget(_lesson(), other)


def test_lesson_01_write_panel_binds():
    from vtsmodel.app.lessons import write as lesson01

    panel = lesson01.write_panel()
    sheet = ScenarioSheetWidget(lesson01, panel)
    sheet.duplicate()
    browser_edit(sheet, 1, lesson01.INPUTS["cf"].header, "2")
    assert panel.controls["cf"].value == 2.0
    browser_edit(sheet, 1, lesson01.INPUTS["feature"].header, "EHPO")
    assert panel.controls["feature"].value == "ehpo"
    assert {t.get("name") for t in panel.figure("write")["data"]} >= {"scenario 1"}


# --- the table editor alone ------------------------------------------------------------------


def _sent_updates(editor, monkeypatch):
    sent = []
    monkeypatch.setattr(editor.view, "_send", lambda msg, buffers=None: sent.append(msg))
    return sent


def test_table_editor_shows_empty_cells_as_empty_and_checks_across_cells():
    seen = []

    def on_edit(row, key, value):
        if key == "hi" and value < 5:
            raise ValueError("hi must be at least 5")
        seen.append((row, key, value))
        editor.set_row(row, {key: value})

    cols = [Column.of("hi", Input("hi", "-", 10.0, lo=0.0)), Column("note", "note")]
    editor = TableEditor(cols, [{"hi": 10.0, "note": None}], on_edit=on_edit)
    assert editor.cell_text(0, "note") == "" and editor.view.rows[0][1] == ""
    assert editor.edit(0, "hi", "3") is False and "hi must be at least 5" in editor.message.value
    assert editor.edit(0, "hi", "7") is True and seen == [(0, "hi", 7.0)] and editor.cell_text(0, "hi") == "7"
    assert editor.view.rows == [["7", ""]]
    assert editor.edit(0, "note", "x") is False and "computed" in editor.message.value


def test_table_editor_sends_changed_rows_as_one_message_and_nothing_when_nothing_changed(monkeypatch):
    # A slider move that changes a row's outputs sends the rows' texts once; the page touches
    # only the cells whose text changed (tests/browser/test_lesson05.py counts them).
    cols = [Column.of("a", Input("a", "-", 1.0)), Column("b", "b [-]"), Column("c", "c [-]")]
    editor = TableEditor(cols, [{"a": 1.0, "b": 2.0, "c": 3.0}, {"a": 2.0, "b": 3.0, "c": 4.0}])
    sent = _sent_updates(editor, monkeypatch)
    editor.set_row(0, {"a": 1.5, "b": 2.5, "c": 3.0})
    assert [m["state"] for m in sent] == [{"rows": [["1.5", "2.5", "3"], ["2", "3", "4"]]}]
    sent.clear()
    editor.set_row(0, {"a": 1.5})
    editor.update_rows(editor.rows)
    assert sent == []  # nothing changed, nothing sent
    editor.update_rows([{"a": 1.0, "b": 9.0, "c": 3.0}, {"a": 2.0, "b": 9.0, "c": 4.0}])  # both rows
    assert [m["state"] for m in sent] == [{"rows": [["1", "9", "3"], ["2", "9", "4"]]}]
    sent.clear()
    editor.update_rows([*editor.rows, {"a": 4.0, "b": 5.0, "c": 6.0}])  # a row more: one message too
    assert len(sent) == 1 and len(sent[0]["state"]["rows"]) == 3


def test_an_edit_typed_otherwise_than_the_kernel_writes_it_is_shown_as_written():
    # "100.0" typed where 100 was: the value is unchanged and the page's cell shows "100" again.
    cols = [Column.of("a", Input("a", "-", 1.0, lo=0.0, hi=1e3))]
    editor = TableEditor(cols, [{"a": 100.0}])
    editor._on_msg(editor.view, {"kind": "edit", "row": 0, "key": "a", "text": "100.0"}, [])
    assert editor.rows == [{"a": 100.0}] and editor.view.rows == [["100"]] and editor.view.status["ok"]


def test_overlays_of_a_highlighted_curve_and_two_panels_kept_in_step():
    # A path mark (a highlighted curve drawn as a shape) overlays as a dashed line; two bound
    # panels that share an input follow each other.
    from vtsmodel.app.lessons import time_at_peak as lesson02

    a = lesson02.time_at_peak_panel()
    b = lesson02.day_panel().panel
    sheet = ScenarioSheetWidget(lesson02, [a, b])
    sheet.duplicate()
    a.set(cf=2.0)
    assert b.values["cf"] == 2.0 and sheet.sheet.values(1)["cf"] == 2.0
    lines = [t for t in a.figure()["data"] if t.get("name") == "scenario 1" and t.get("mode") == "lines"]
    assert lines and lines[0]["line"]["dash"] == "dash" and None not in lines[0]["x"][:2]


def test_add_and_duplicate_take_the_typed_name(bound):
    sheet, _panel = bound
    sheet._name.value = "  night shift "
    sheet._buttons.children[2].click()  # Add
    assert sheet.sheet.names[-1] == "night shift" and sheet._name.value == ""
    sheet._name.value = "day shift"
    sheet._buttons.children[3].click()  # Duplicate
    assert "day shift" in sheet.sheet.names and sheet.sheet.name(sheet.selected) == "day shift"
    sheet._buttons.children[3].click()  # no name typed: one is made up
    assert "day shift copy" in sheet.sheet.names
    sheet._name.value = "day shift"  # a name in use: refused, said, kept in the box
    sheet._buttons.children[3].click()
    assert "failed" in sheet.grid.message.value and sheet._name.value == "day shift"


def test_the_first_scenario_is_not_named_like_a_vts_model():
    from vtsmodel.app.lessons import write

    assert ScenarioSheetWidget(write).sheet.names == ["scenario 1"]  # "base" is the base VTS


def test_a_plan_file_loaded_as_scenarios_is_named_and_sent_to_lesson_07(bound):
    from vtsmodel import plan

    sheet, _panel = bound
    before = sheet.sheet.names
    browser_upload(sheet.files.controls["Load…"], "my_plan.json", plan.plan_to_json(plan.Plan()).encode())
    status = sheet.files.status.value
    assert (
        "this is a plan file, not a scenario file: open it in lesson 07" in status
        and "unknown key" not in status
    )
    assert sheet.sheet.names == before  # nothing changed


def test_files_of_another_kind_are_named_where_they_open():
    from vtsmodel.app.filekinds import wrong_kind

    assert wrong_kind({"schema": "vtsmodel-scenarios", "lesson": "04"}, "vtsmodel-scenarios", "01") == (
        "this is a file of lesson 04, not of lesson 01: open it in lesson 04"
    )
    assert "open it in lesson 05" in wrong_kind({"schema": "vtsmodel-flows"}, "vtsmodel-plan")
    assert wrong_kind({"schema": "vtsmodel-plan"}, "vtsmodel-plan") is None
    assert wrong_kind({"anything": 1}, "vtsmodel-plan") is None  # left to the reader's own checks
