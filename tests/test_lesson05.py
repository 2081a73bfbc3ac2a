"""Lesson 05, the sizing workbench, without a browser."""

import numpy as np
import pytest

from vtsmodel import data
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons import sizing as M
from vtsmodel.catalog import drive_names, drive_spec
from vtsmodel.drives import drive_efficiency
from vtsmodel.sizing import Flow, cern_example_flows, drives_needed

ex = data.load("cern_sizing_example")


def browser_edit(wb, row, column, value):
    """What ipydatagrid does on an edit in the browser: store the value, then call back."""
    wb.grid._DataGrid__handle_custom_msg(
        None,
        {"event_type": "cell-changed", "row": row, "column_index": wb.grid._column_name_to_index(column),
         "value": value},
        None,
    )  # fmt: skip


def test_default_is_the_worked_example_50_drives():
    # "Number of needed tape drives = 50" with "Tape drive maxspeed = 40 MB/s".
    wb = M.sizing_panel()
    assert drive_spec(wb.panel.values["drive"]).speed_mb_s == ex.value("drive_speed")
    assert wb.panel.readout_values["drives needed [-]"] == f"{ex.value('drives_needed_total'):.4g}"
    assert wb.panel.readout_values["drives to buy [-]"] == "50"
    bars = wb.panel.figure_widgets["split"].data
    assert [b.x[0] for b in bars] == pytest.approx([10, 15, 25])  # the derived per-flow rows


def test_browser_edit_of_rate_changes_drive_count_int_arrives_for_float():
    wb = M.sizing_panel()
    browser_edit(wb, 0, "rate [MB/s]", 200)  # an int typed into a float column
    flows = cern_example_flows()
    flows[0] = Flow(flows[0].name, 200.0, flows[0].peak_factor, flows[0].efficiency)
    s = drives_needed(flows, drive_speed_mb_s=40)
    assert wb.panel.readout_values["drives needed [-]"] == f"{s.total:.4g}"
    assert isinstance(wb.cell(0, "rate [MB/s]"), float)
    assert wb.message.value == ""


@pytest.mark.parametrize(
    "column, value", [("rate [MB/s]", -5), ("factor [-]", 0.5), ("efficiency [-]", 1.5), ("name", "")]
)
def test_bad_cell_is_rejected_and_restored(column, value):
    wb = M.sizing_panel()
    before = wb.cell(1, column)
    total = wb.panel.readout_values["drives needed [-]"]
    browser_edit(wb, 1, column, value)
    assert wb.cell(1, column) == before
    assert "⚠" in wb.message.value and column.split(" ")[0] in wb.message.value
    assert wb.panel.readout_values["drives needed [-]"] == total


def test_access_pattern_replaces_the_efficiency():
    wb = M.sizing_panel()
    browser_edit(wb, 2, "file size [MB]", 1000)
    browser_edit(wb, 2, "files per mount [-]", 10)
    browser_edit(wb, 2, "efficiency [-]", None)
    assert wb.message.value == ""
    e = float(drive_efficiency(1000.0, 10.0, speed_mb_s=40.0))
    assert wb.sizing.efficiencies[2] == pytest.approx(e)


def test_drive_choice_and_comparison():
    wb = M.sizing_panel()
    wb.panel.set(drive="STK9940B")
    s = drives_needed(cern_example_flows(), drive_speed_mb_s=drive_spec("STK9940B").speed_mb_s)
    assert wb.panel.readout_values["drives needed [-]"] == f"{s.total:.4g}"
    comp = wb.panel.figure_widgets["compare"]
    assert list(comp.data[0].x) == list(drive_names())
    totals = np.sum([np.asarray(t.y, float) for t in comp.data if t.type == "bar"], axis=0)
    expect = [
        drives_needed(cern_example_flows(), drive_speed_mb_s=drive_spec(n).speed_mb_s).total
        for n in drive_names()
    ]
    np.testing.assert_allclose(totals, expect)


def test_contract():
    mod = lesson_module("05")
    assert mod.NOTEBOOK == "05_sizing_workbench.ipynb"
    out = mod.scenario_outputs()
    assert out["drives needed [-]"] == pytest.approx(ex.value("drives_needed_total"))
    assert mod.scenario_outputs(t2_analysis_efficiency=0.05)["T2, analysis [drives]"] == pytest.approx(50)
    assert set(mod.scenario_view().figures) == {"split", "compare"}
    with pytest.raises(ValueError):
        mod.scenario_outputs(t0_to_t1_factor=0.5)


def test_text_in_a_number_cell_is_rejected():
    # The grid's number editor does not commit text; the programmatic path checks it too.
    wb = M.sizing_panel()
    assert not wb.edit(1, "factor [-]", "abc")
    assert "must be a number" in wb.message.value
    assert wb.cell(1, "factor [-]") == ex.value("reprocessing_factor")


def test_add_and_remove_flows_resize_the_sheet_and_the_sizing():
    # The worked example's 50 drives are 10 + 15 + 25 (one per flow): a copy of the
    # reprocessing flow adds its 15; removing T0 -> T1 takes its 10 away.
    wb = M.sizing_panel()
    per_flow = {k: ex.value(f"{k}_drives") for k in ("t0_to_t1", "reprocessing", "t2_analysis")}
    wb.grid.selections = [{"r1": 1, "r2": 1, "c1": 0, "c2": 0}]
    added = wb.add_flow()
    assert added.name == f"{cern_example_flows()[1].name} (copy)"
    assert wb.grid.data.shape[0] == 4 and wb.cell(3, "name") == added.name
    assert wb.grid.layout.height == f"{40 + 28 * 5}px"
    total = ex.value("drives_needed_total")
    assert wb.sizing.total == pytest.approx(total + per_flow["reprocessing"])
    assert wb.panel.readout_values["drives needed [-]"] == f"{total + per_flow['reprocessing']:g}"
    gone = wb.remove_flow(0)
    assert gone.name == cern_example_flows()[0].name and wb.grid.data.shape[0] == 3
    assert wb.sizing.total == pytest.approx(total + per_flow["reprocessing"] - per_flow["t0_to_t1"])
    with pytest.raises(ValueError, match="row=7"):
        wb.remove_flow(7)
    with pytest.raises(ValueError, match="flow="):
        wb.add_flow("not a flow")


def test_the_last_flow_stays():
    wb = M.sizing_panel(flows=[cern_example_flows()[0]])
    assert wb.remove_flow() is None
    assert len(wb.flows) == 1 and "last flow stays" in wb.message.value
    with pytest.raises(ValueError, match="at least one flow"):
        M.sizing_panel(flows=[])


def test_cast_cell():
    assert M.cast_cell("rate [MB/s]", 3) == 3.0 and M.cast_cell("rate [MB/s]", "2.5") == 2.5
    assert M.cast_cell("efficiency [-]", "") is None
    with pytest.raises(ValueError, match="factor"):
        M.cast_cell("factor [-]", 0.5)


def test_check_key_numbers_reproduces_the_worked_example():
    # "Number of needed tape drives = 50" with 10, 15 and 25 drives per flow.
    text = M.check_key_numbers()
    assert f"worked example at 40 MB/s: {ex.value('drives_needed_total'):g} drives" in text
    assert f"T2, analysis: {ex.value('t2_analysis_drives'):g} drives" in text


def test_check_key_numbers_names_the_statement_it_fails(monkeypatch):
    # A model whose flows drift from the example's fails naming the note's sample calculation.
    import dataclasses

    drifted = [dataclasses.replace(f, rate_mb_s=2 * f.rate_mb_s) for f in cern_example_flows()]
    monkeypatch.setattr(M, "cern_example_flows", lambda: drifted)
    with pytest.raises(AssertionError, match=r"cern-tape-sizing-2005, Summary, sample calculation"):
        M.check_key_numbers()


def test_scenario_sheet_without_a_panel_computes_the_example():
    from vtsmodel.app.sheet import scenario_sheet

    row = scenario_sheet("05").sheet.rows()[0]
    assert row["drives needed [-]"] == pytest.approx(ex.value("drives_needed_total"))
