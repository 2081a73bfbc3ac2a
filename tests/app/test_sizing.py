"""Lesson 05, the sizing workbench (vtsmodel.app.lessons.sizing: the flows table, its file, the contract), without a browser: edit the flows table, choose a drive,
compare the panel's figures and readouts with vtsmodel.sizing's numbers.

The worked example is cern-tape-sizing-2005, Summary, sample calculation: three flows,
"Tape drive maxspeed = 40 MB/s", "Number of needed tape drives = 50". Its inputs and each
flow's term are rows of data/cern_sizing_example.csv; the model's sum of the terms is the
note's arithmetic, not a calibration, so the 50 is a reproduction.
"""

from __future__ import annotations

import json
import math

import pytest

from vtsmodel import data
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons import sizing as L
from vtsmodel.app.scenarios import ScenarioSheet
from vtsmodel.catalog import drive_options, drive_spec
from vtsmodel.drives import drive_efficiency
from vtsmodel.sizing import Flow, cern_example_flows, drives_needed

from .uploads import browser_upload

ex = data.load("cern_sizing_example")
KEYS = ("t0_to_t1", "reprocessing", "t2_analysis")
EXAMPLE = f"{L.EXAMPLE}: drives"


def browser_edit(wb, row: int, key: str, value) -> None:
    """What ipydatagrid does on an edit in the browser: store the value, then send cell-changed."""
    header = next(c.header for c in L.COLUMNS if c.key == key)
    grid = wb.grid.grid
    grid._DataGrid__handle_custom_msg(
        None,
        {"event_type": "cell-changed", "row": row, "column_index": grid._column_name_to_index(header),
         "value": value},
        None,
    )  # fmt: skip


def sized(flows, drive):
    return drives_needed(flows, drive_speed_mb_s=drive_spec(drive).speed_mb_s)


# --- the worked example ----------------------------------------------------------------------


def test_default_drive_is_the_examples_maxspeed():
    # "Tape drive maxspeed = 40 MB/s": the workbench sizes with the catalog drive of that speed.
    assert drive_spec(L.DEFAULT_DRIVE).speed_mb_s == ex.value("drive_speed")
    assert L.sizing_panel().drive == L.DEFAULT_DRIVE


def test_worked_example_50_drives_cern_summary_sample_calculation():
    # "Number of needed tape drives = 50" = 10 + 15 + 25 (the note's three terms).
    wb = L.sizing_panel()
    total = ex.value("drives_needed_total")
    assert wb.panel.readout_values[EXAMPLE] == f"{total:g} needed, buy {total:g}"
    split = wb.panel.figure("split")
    assert split["data"][0]["x"] == pytest.approx([ex.value(f"{k}_drives") for k in KEYS])
    assert split["layout"]["yaxis"]["ticktext"] == [f.name for f in cern_example_flows()]
    out = L.scenario_outputs()
    assert out["drives needed [-]"] == pytest.approx(total)
    assert out["drives to buy [-]"] == total
    for k, f in zip(KEYS, cern_example_flows(), strict=True):
        assert out[f"{f.name} [drives]"] == pytest.approx(ex.value(f"{k}_drives"))


# --- the flows table ---------------------------------------------------------------------------


def test_browser_edit_of_a_rate_changes_the_count():
    wb = L.sizing_panel()
    browser_edit(wb, 0, "rate_mb_s", "200")  # the grid's cells are text
    flows = cern_example_flows()
    flows[0] = Flow(flows[0].name, 200.0, flows[0].peak_factor, flows[0].efficiency)
    s = sized(flows, L.DEFAULT_DRIVE)
    assert wb.panel.readout_values[EXAMPLE] == f"{s.total:g} needed, buy {s.whole_drives}"
    assert wb.grid.cell_text(0, "rate_mb_s") == "200"
    assert wb.grid.cell_text(0, "drives") == f"{s.drives[0]:g}"
    assert "error" not in wb.grid.message.value


@pytest.mark.parametrize(
    "key, value, header, rng",
    [
        ("rate_mb_s", "-5", "rate [MB/s]", "[0, 100000]"),
        ("peak_factor", "0.5", "factor [-]", "[1, 100]"),
        ("efficiency", "1.5", "efficiency [-]", "[0.001, 1]"),
        ("rate_mb_s", "abc", "rate [MB/s]", "[0, 100000]"),
        ("files_per_mount", "abc", "files per mount [-]", "[1, 1000000000]"),
    ],
)
def test_bad_cell_is_rejected_with_column_value_and_range(key, value, header, rng):
    wb = L.sizing_panel()
    before, readouts = wb.grid.cell_text(1, key), wb.panel.readout_values
    browser_edit(wb, 1, key, value)
    msg = wb.grid.message.value
    assert "⚠" in msg and header in msg and rng in msg and value.lstrip("-") in msg
    assert "None" not in msg
    assert wb.grid.cell_text(1, key) == before and wb.panel.readout_values == readouts


def test_empty_name_is_rejected():
    wb = L.sizing_panel()
    assert not wb.edit(0, "name", "  ")
    assert "flow" in wb.grid.message.value and wb.table[0][1].name == "T0 → T1"


def test_empty_efficiency_needs_an_access_pattern_then_uses_it():
    wb = L.sizing_panel()
    assert not wb.edit(2, "efficiency", "")  # no access pattern yet: refused in the grid's words
    msg = wb.grid.message.value
    assert "row 3: rejected: T2, analysis needs an efficiency [-] in [0.001, 1], or an access pattern" in msg
    assert "file size [MB] and files per mount [-]" in msg and "None" not in msg and "file_mb" not in msg
    assert wb.grid.cell_text(2, "file_mb") == "" and wb.grid.cell_text(2, "efficiency") == "0.1"
    assert wb.edit(2, "file_mb", "1000") and wb.edit(2, "files_per_mount", "10")
    assert wb.edit(2, "efficiency", "")
    assert wb.table[2][1].efficiency is None and wb.grid.cell_text(2, "efficiency") == ""
    assert all("nan" not in wb.grid.cell_text(i, k).lower() for i in range(3) for k in L.ROW_KEYS)
    # cern-tape-sizing-2005, Access pattern and tape drive efficiency, at the drive's 40 MB/s
    e = float(drive_efficiency(1000.0, 10.0, speed_mb_s=40.0))
    assert wb.grid.rows[2]["used"] == pytest.approx(e)
    assert "1,000 MB files, 10 per mount" in wb.panel.caption()
    # a faster drive loses more of its time to the same mounts: a lower efficiency
    wb.panel.set(drive="LTO9")
    assert wb.grid.rows[2]["used"] == pytest.approx(float(drive_efficiency(1000.0, 10.0, speed_mb_s=400.0)))


def test_the_flows_grid_fits_a_1024_px_canvas_with_every_header_whole():
    # The page's grid sizes its canvas in steps of 512 px to its width and copies the canvas
    # once per column on every redraw, each copy costing by the canvas' size (Chromium without
    # a GPU: 6.4 ms at 1536 px, 2.6 ms at 1024 px): the flows grid stays under 1024 px.
    from vtsmodel.app.grids import ROW_HEADER_PX, header_widths

    grid = L.sizing_panel().grid.grid
    width = int(grid.layout.width.removesuffix("px"))
    assert width == ROW_HEADER_PX + sum(grid.column_widths.values()) + 8 and width < 1024
    assert grid.base_column_header_size == 34 and grid.header_renderer.text_wrap  # heads on two lines
    two_lines = header_widths(grid.data.columns, lines=2)
    assert all(grid.column_widths[h] >= two_lines[h] for h in grid.data.columns)


def test_add_and_remove_flows_copy_and_move_scenarios():
    # 50 = 10 + 15 + 25: a copy of the reprocessing flow adds its 15; removing T0 -> T1 its 10.
    wb = L.sizing_panel()
    per_flow = {f.name: ex.value(f"{k}_drives") for k, f in zip(KEYS, cern_example_flows(), strict=True)}
    wb.grid.selected = 1
    assert wb.add_flow() == "reprocessing (copy)" and wb.add_flow() == "reprocessing (copy 2)"
    assert wb.grid.grid.data.shape[0] == 5 and wb.grid.grid.layout.height == f"{34 + 26 * 6}px"
    total = ex.value("drives_needed_total") + 2 * per_flow["reprocessing"]
    assert wb.panel.readout_values[EXAMPLE] == f"{total:g} needed, buy {total:g}"
    assert wb.remove_flow(0) == "T0 → T1 of worked example"
    assert wb.panel.readout_values[EXAMPLE].startswith(f"{total - per_flow['T0 → T1']:g} needed")
    with pytest.raises(ValueError, match="row=9"):
        wb.remove_flow(9)
    # a new scenario from the selected flow's, then one flow moved into it by its scenario cell
    wb.grid.selected = 0
    wb.copy_scenario("T2 chaotic")
    assert [sc for sc, _f in wb.table].count("T2 chaotic") == 4
    with pytest.raises(ValueError, match="already a scenario"):
        wb.copy_scenario("T2 chaotic")
    assert not wb.edit(0, "scenario", "T2 chaotic")  # its flow name is already there
    assert "appears twice" in wb.grid.message.value


def test_the_last_flow_stays():
    wb = L.sizing_panel(table=[("one", cern_example_flows()[0])])
    with pytest.raises(ValueError, match="last one stays"):
        wb.remove_flow()
    wb._do(wb.remove_flow, "remove flow")
    assert "refused" in wb.grid.message.value and len(wb.table) == 1
    with pytest.raises(ValueError, match="give 1 to"):
        L.sizing_panel(table=[])


def test_scenarios_are_compared_side_by_side():
    # The note's chaotic floor, efficiency 0.05 for T2: that term doubles to 50 drives.
    wb = L.sizing_panel()
    wb.copy_scenario("T2 at 0.05")
    assert wb.edit(5, "efficiency", "0.05")
    flows = [*cern_example_flows()[:2], Flow("T2, analysis", 50.0, 2.0, 0.05)]
    s = sized(flows, L.DEFAULT_DRIVE)
    assert wb.panel.readout_values["T2 at 0.05: drives"] == f"{s.total:g} needed, buy {s.whole_drives}"
    assert wb.panel.readout_values[EXAMPLE] == "50 needed, buy 50"
    compare = wb.panel.figure("compare")
    assert [t["name"] for t in compare["data"]] == [L.EXAMPLE, "T2 at 0.05"]
    keys = [k for _label, k in drive_options()]
    assert compare["data"][1]["x"] == pytest.approx([sized(flows, k).total for k in keys])
    assert "T2 at 0.05 · T2, analysis = 50 MB/s × 2 / 0.05 (efficiency) / 40 MB/s = 50 drives" in " ".join(
        wb.panel.caption().split()
    )


# --- files ---------------------------------------------------------------------------------------


def test_save_and_load_round_trip():
    wb = L.sizing_panel()
    wb.copy_scenario("copy")
    assert wb.edit(3, "efficiency", "") is False  # no access pattern
    assert (
        wb.edit(3, "file_mb", "500") and wb.edit(3, "files_per_mount", "4") and wb.edit(3, "efficiency", "")
    )
    wb.panel.set(drive="IBM3592_70F")
    text = L.table_json(wb.table, wb.drive)
    assert json.loads(text)["flows"][3]["efficiency"] is None
    other = L.sizing_panel()
    assert other.load_bytes(text.encode(), "flows_05.json") == "loaded 6 flows from <b>flows_05.json</b>"
    assert other.table == wb.table and other.drive == "IBM3592_70F"
    assert other.panel.readout_values == wb.panel.readout_values


@pytest.mark.parametrize(
    "edit, match",
    [
        (
            lambda d: d.update(schema="vtsmodel-scenarios"),
            "this is a scenario file, not a flows file: open it in",
        ),
        (lambda d: d.update(schema="vtsmodel-other"), "not a lesson 05 flows file"),
        (lambda d: d["flows"][1].update(rate_mb_s=-1), "flow 2: rate_mb_s=-1"),
        (lambda d: d["flows"][0].update(colour="red"), "flow 1: an object"),
        (lambda d: d.update(drive="LTO99"), "drive='LTO99'"),
        (lambda d: d["flows"].append(dict(d["flows"][0])), "appears twice"),
        (lambda d: d.update(flows=[]), "1 to 100"),
    ],
)
def test_a_bad_file_changes_nothing(edit, match):
    wb = L.sizing_panel()
    doc = json.loads(L.table_json(wb.table, wb.drive))
    edit(doc)
    with pytest.raises(ValueError, match=match):
        wb.load_bytes(json.dumps(doc).encode())
    assert wb.table == L.example_table()
    for bad in (b"{", b"[1, 2]", b"x" * 1_000_001):
        with pytest.raises(ValueError):
            L.read_table(bad)


def test_a_picked_file_loads_and_a_bad_one_is_refused_on_the_page():
    wb = L.sizing_panel()
    good = L.table_json(L.example_table() + (("other", Flow("backup", 120.0, 2.0, 0.5)),), "LTO9").encode()
    for name, content in (("flows.json", good), ("big.json", b" " * 1_000_001), ("bad.json", b"{")):
        browser_upload(wb.files.controls["Load…"], name, content)
        if name == "flows.json":
            assert "loaded 4 flows from <b>flows.json</b>" in wb.files.status.value
            assert (
                wb.drive == "LTO9"
                and wb.panel.readout_values["other: drives"] == f"{120 * 2 / 0.5 / 400:g} needed, buy 2"
            )
        elif name == "big.json":  # refused unread (the page's script does not even send it)
            assert (
                "<b>big.json</b> is 1,000,001 bytes; this page reads files up to 1,000,000 bytes"
                in wb.files.status.value
            )
        else:
            assert f"<b>{name}</b> not loaded" in wb.files.status.value
            assert len(wb.table) == 4


def test_csv_export_holds_the_table_and_the_drives_sources(monkeypatch):
    wb = L.sizing_panel()
    sent = {}
    monkeypatch.setattr(
        wb.files.downloader, "send_file", lambda name, data, fmt: sent.update(text=data.decode()) or name
    )
    assert wb.export_csv() == "flows_05.csv" and "downloaded <b>flows_05.csv</b>" in wb.files.status.value
    lines = sent["text"].splitlines()
    assert lines[0].split(",")[:3] == ["scenario", "flow", "rate [MB/s]"]
    assert lines[3].startswith('worked example,"T2, analysis",50.0,2.0,0.1,,,0.1,25.0,50.0')
    assert "# [cern-tape-sizing-2005]" in sent["text"] and "[wikipedia-ibm-3592]" in sent["text"]


# --- the contract and the inputs -------------------------------------------------------------------


def test_contract():
    mod = lesson_module("05")
    assert mod is L and L.NOTEBOOK == "05_sizing_workbench.ipynb" and L.TITLE
    assert set(L.scenario_view().figures) == {"split", "compare"}
    s = sized(cern_example_flows(), "LTO9")
    assert L.scenario_outputs(drive="LTO9")["drives needed [-]"] == pytest.approx(s.total)
    assert L.scenario_outputs(drive="LTO-9 (Ultrium 9)") == L.scenario_outputs(drive="LTO9")
    flows = [Flow("backup", 120.0, 2.0, 0.5)]
    assert L.scenario_outputs(flows, drive="LTO9")["backup [drives]"] == pytest.approx(120 * 2 / 0.5 / 400)
    with pytest.raises(ValueError, match="drive='LTO99' is not valid; choose one of 'LTO-1"):
        L.scenario_outputs(drive="LTO99")
    with pytest.raises(ValueError, match="unknown scenario input"):
        L.scenario_outputs(colour="red")


def test_sheet_and_panel_accept_the_same_drives():
    sheet = ScenarioSheet(L)
    assert sheet.outputs(0)["drives needed [-]"] == pytest.approx(ex.value("drives_needed_total"))
    wb = L.sizing_panel()
    for label, key in drive_options():
        sheet.set_cell(0, "drive", label)
        wb.panel.set(drive=label)
        assert sheet.values(0)["drive"] == key == wb.drive
    for bad in ("LTO99", 3, ""):
        with pytest.raises(ValueError, match="drive"):
            sheet.set_cell(0, "drive", bad)
        with pytest.raises(ValueError, match="drive"):
            wb.panel.set(drive=bad)


def test_inputs_defaults_lie_in_their_ranges_and_cells_may_be_empty_where_flows_allow():
    for key, inp in L.INPUTS.items():
        assert inp.parse(key, inp.default) == inp.default
    for key in ("efficiency", "file_mb", "files_per_mount"):
        assert L.INPUTS[key].parse(key, "") is None and L.INPUTS[key].parse(key, math.nan) is None
    for key in ("name", "rate_mb_s", "peak_factor", "scenario"):
        with pytest.raises(ValueError, match="empty|not valid"):
            L.INPUTS[key].parse(key, "")
    assert L.INPUTS["file_mb"].header == "file size [MB]"  # derived from vtsmodel.quantities.FILE_MB


def test_the_compare_figure_cites_every_compared_drives_speed_and_split_the_chosen_drive_only():
    # "Drives needed on each catalog drive" draws every drive at its own speed: its caption cites the
    # document of each of those speeds; the split figure is about the chosen drive alone
    import re

    wb = L.sizing_panel()
    cited = {
        f: set(re.findall(r"^\[([^\]]+)\]", wb.panel.caption(f), flags=re.M)) for f in ("split", "compare")
    }
    chosen = set(drive_spec(L.DEFAULT_DRIVE).primary_sources)
    rows = [drive_spec(key).speed_provenance for _label, key in drive_options()]
    speeds = {row.source for row in rows if row is not None}
    assert chosen <= cited["split"] and not (speeds - chosen) & cited["split"]
    assert chosen | speeds <= cited["compare"]
    assert {"ibm-ts4500-drives", "ibm-dtl-lto-perf"} <= cited["compare"]  # LTO-9's and LTO-10's rates
