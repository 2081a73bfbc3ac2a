"""The scenario sheet's model: edits, names, computed columns, and its JSON file.

A small lesson defined here (``lesson99``) keeps the tests independent of the lessons
being written; one round trip uses lesson 04, which follows the contract.
"""

from __future__ import annotations

import json
import os
import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vtsmodel
import vtsmodel.app.export
from vtsmodel import Input
from vtsmodel.app.scenarios import (
    MAX_FILE_BYTES,
    MAX_SCENARIOS,
    SCHEMA,
    SCHEMA_VERSION,
    ScenarioSheet,
    read_scenario_file,
)


def _lesson():
    mod = types.ModuleType("vtsmodel.app.lessons.lesson99")
    mod.INPUTS = {
        "rate_mb_s": Input("rate", "MB/s", 100.0, lo=0.0, hi=1000.0),
        "drives": Input("drives", "count", 4, lo=1, hi=16, integer=True),
        "mode": Input("mode", "", "fast", choices=("fast", "slow")),
    }
    mod.SCENARIO = tuple(mod.INPUTS)
    mod.LESSON_ID = "99"

    def scenario_outputs(**v):
        full = {k: p.default for k, p in mod.INPUTS.items()} | v
        factor = 1.0 if full["mode"] == "fast" else 0.5
        return {
            "per drive [MB/s]": full["rate_mb_s"] / full["drives"],
            "total [MB/s]": full["rate_mb_s"] * factor,
        }

    mod.scenario_outputs = scenario_outputs
    return mod


@pytest.fixture
def sheet():
    return ScenarioSheet(_lesson())


def test_default_sheet_has_one_base_scenario_with_computed_columns(sheet):
    assert sheet.names == ["scenario 1"]
    assert sheet.lesson_id == "99"
    assert sheet.columns == [
        "Scenario",
        "rate [MB/s]",
        "drives [count]",
        "mode",
        "per drive [MB/s]",
        "total [MB/s]",
    ]
    assert sheet.outputs(0) == {"per drive [MB/s]": 25.0, "total [MB/s]": 100.0}


def test_set_cell_parses_text_and_recomputes(sheet):
    out = sheet.set_cell(0, "rate [MB/s]", " 2e2 ")
    assert sheet.values(0)["rate_mb_s"] == 200.0
    assert out["per drive [MB/s]"] == 50.0
    sheet.set_cell("scenario 1", "drives", 5.0)  # a float arriving for an int column is cast
    assert sheet.values(0)["drives"] == 5 and isinstance(sheet.values(0)["drives"], int)
    assert sheet.cell(0, "per drive [MB/s]") == 40.0


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [
        ("rate [MB/s]", "abc", ["rate_mb_s", "'abc'", "[0, 1000]"]),
        ("rate [MB/s]", "-1", ["rate_mb_s", "outside", "[0, 1000]"]),
        ("rate [MB/s]", "nan", ["rate_mb_s"]),
        ("rate [MB/s]", "inf", ["rate_mb_s"]),
        ("rate [MB/s]", "1e999", ["rate_mb_s"]),
        ("rate [MB/s]", "__import__('os')", ["rate_mb_s"]),
        ("drives [count]", 2.5, ["drives", "whole"]),
        ("drives [count]", True, ["drives"]),
        ("mode", "medium", ["mode", "'fast'", "'slow'"]),
        ("per drive [MB/s]", 3.0, ["computed"]),
        ("nonsense", 3.0, ["nonsense", "not a column"]),
    ],
)
def test_bad_cell_is_rejected_and_the_previous_value_stays(sheet, column, value, words):
    before = (sheet.values(0), sheet.outputs(0))
    with pytest.raises(ValueError) as info:
        sheet.set_cell(0, column, value)
    for word in words:
        assert word in str(info.value)
    assert (sheet.values(0), sheet.outputs(0)) == before


def test_add_duplicate_rename_delete_keep_names_unique(sheet):
    assert sheet.add() == "scenario 2"
    sheet.set_cell(0, "rate_mb_s", 300)
    assert sheet.duplicate(0) == "scenario 1 copy"
    assert sheet.names == ["scenario 1", "scenario 1 copy", "scenario 2"]
    assert sheet.values("scenario 1 copy") == sheet.values("scenario 1")
    assert sheet.duplicate(0) == "scenario 1 copy 2"
    with pytest.raises(ValueError, match="already used"):
        sheet.rename(1, "scenario 1")
    with pytest.raises(ValueError, match="empty"):
        sheet.rename(1, "  ")
    with pytest.raises(ValueError, match="text"):
        sheet.rename(1, 42)
    assert sheet.rename(1, "  high rate ") == "high rate"
    sheet.set_cell("high rate", "Scenario", "peak")  # renaming through the name column
    assert "peak" in sheet.names
    assert sheet.delete("scenario 2") == "scenario 2"
    while len(sheet) > 1:
        sheet.delete(0)
    with pytest.raises(ValueError, match="only scenario"):
        sheet.delete(0)
    with pytest.raises(ValueError, match="rows are 0 to 0"):
        sheet.values(3)


def test_add_rejects_unknown_inputs_and_bad_values(sheet):
    with pytest.raises(ValueError, match="unknown input"):
        sheet.add("x", speed=3)
    with pytest.raises(ValueError, match="rate_mb_s"):
        sheet.add("x", rate_mb_s=-5)
    assert sheet.names == ["scenario 1"]


def test_set_values_is_all_or_nothing(sheet):
    with pytest.raises(ValueError, match="drives"):
        sheet.set_values(0, rate_mb_s=500.0, drives=0)
    assert sheet.values(0)["rate_mb_s"] == 100.0


def test_round_trip_save_and_load(sheet, tmp_path):
    sheet.set_cell(0, "mode", "slow")
    sheet.duplicate(0, "twin")
    sheet.set_cell("twin", "rate_mb_s", 12.5)
    path = sheet.save(tmp_path / "s.json")
    doc = json.loads(path.read_text())
    assert doc["schema"] == SCHEMA and doc["version"] == SCHEMA_VERSION and doc["lesson"] == "99"
    other = ScenarioSheet(_lesson())
    other.load(path)
    assert other.scenarios() == sheet.scenarios()
    assert other.rows() == sheet.rows()


def test_save_never_overwrites_unless_asked(sheet, tmp_path):
    path = sheet.save(tmp_path / "s.json")
    sheet.set_cell(0, "rate_mb_s", 1.0)
    with pytest.raises(FileExistsError):
        sheet.save(path)
    assert json.loads(path.read_text())["scenarios"][0]["values"]["rate_mb_s"] == 100.0
    sheet.save(path, overwrite=True)
    assert json.loads(path.read_text())["scenarios"][0]["values"]["rate_mb_s"] == 1.0


def test_a_failure_in_the_middle_of_a_save_keeps_the_old_file(sheet, tmp_path, monkeypatch):
    path = sheet.save(tmp_path / "s.json")
    old = path.read_bytes()
    sheet.set_cell(0, "rate_mb_s", 7.0)

    def broken_replace(src, dst):
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(vtsmodel.app.export.os, "replace", broken_replace)
    with pytest.raises(OSError, match="simulated"):
        sheet.save(path, overwrite=True)
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]  # no temporary file left


def _doc(**over):
    doc = {
        "schema": SCHEMA,
        "version": SCHEMA_VERSION,
        "lesson": "99",
        "scenarios": [{"name": "a", "values": {"rate_mb_s": 10.0, "drives": 2, "mode": "fast"}}],
    }
    doc.update(over)
    return doc


def _scen(values, name="a"):
    return [{"name": name, "values": values}]


HOSTILE = {
    "not json": "{this is not json",
    "truncated": json.dumps(_doc())[:-7],
    "empty file": "",
    "a list": "[1, 2, 3]",
    "deeply nested": "[" * 100_000 + "]" * 100_000,
    "wrong version": json.dumps(_doc(version=2)),
    "version as text": json.dumps(_doc(version="1")),
    "version as bool": json.dumps(_doc(version=True)),
    "other schema": json.dumps(_doc(schema="something-else")),
    "unknown top key": json.dumps(_doc(extra=1)),
    "missing key": json.dumps({k: v for k, v in _doc().items() if k != "lesson"}),
    "other lesson": json.dumps(_doc(lesson="04")),
    "unknown lesson": json.dumps(_doc(lesson="../../etc")),
    "scenarios not a list": json.dumps(_doc(scenarios={"a": {}})),
    "no scenarios": json.dumps(_doc(scenarios=[])),
    "too many scenarios": json.dumps(
        _doc(scenarios=[{"name": f"s{i}", "values": {}} for i in range(MAX_SCENARIOS + 1)])
    ),
    "scenario not an object": json.dumps(_doc(scenarios=["a"])),
    "unknown scenario key": json.dumps(_doc(scenarios=[{"name": "a", "values": {}, "code": "x"}])),
    "name not a string": json.dumps(_doc(scenarios=[{"name": 5, "values": {}}])),
    "name a list": json.dumps(_doc(scenarios=[{"name": ["a"], "values": {}}])),
    "empty name": json.dumps(_doc(scenarios=[{"name": "", "values": {}}])),
    "huge name": json.dumps(_doc(scenarios=[{"name": "x" * 10_000, "values": {}}])),
    "duplicate names": json.dumps(_doc(scenarios=_scen({}) + _scen({}))),
    "values not an object": json.dumps(_doc(scenarios=[{"name": "a", "values": [1]}])),
    "unknown input": json.dumps(_doc(scenarios=_scen({"evil": 1}))),
    "NaN": json.dumps(_doc(scenarios=_scen({"rate_mb_s": float("nan")}))),
    "Infinity": json.dumps(_doc(scenarios=_scen({"rate_mb_s": float("inf")}))),
    "huge integer": '{"schema": "vtsmodel-scenarios", "version": 1, "lesson": "99", "scenarios": '
    '[{"name": "a", "values": {"rate_mb_s": 1' + "0" * 400 + "}}]}",
    "too many digits": '{"schema": "vtsmodel-scenarios", "version": 1, "lesson": "99", "scenarios": '
    '[{"name": "a", "values": {"rate_mb_s": 1' + "0" * 5000 + "}}]}",
    "number as text": json.dumps(_doc(scenarios=_scen({"rate_mb_s": "10"}))),
    "expression as text": json.dumps(_doc(scenarios=_scen({"rate_mb_s": "__import__('os').getcwd()"}))),
    "value an object": json.dumps(_doc(scenarios=_scen({"rate_mb_s": {"a": 1}}))),
    "value a bool": json.dumps(_doc(scenarios=_scen({"drives": True}))),
    "out of range": json.dumps(_doc(scenarios=_scen({"rate_mb_s": 1e6}))),
    "fractional count": json.dumps(_doc(scenarios=_scen({"drives": 2.5}))),
    "unknown choice": json.dumps(_doc(scenarios=_scen({"mode": "warp"}))),
    "too large": json.dumps(_doc()) + " " * MAX_FILE_BYTES,
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_bad_file_raises_valueerror_and_leaves_the_sheet_unchanged(sheet, tmp_path, case):
    sheet.duplicate(0, "mine")
    sheet.set_cell("mine", "rate_mb_s", 42.0)
    before = sheet.rows()
    path = tmp_path / "bad.json"
    path.write_text(HOSTILE[case], encoding="utf-8")
    with pytest.raises(ValueError) as info:
        sheet.load(path)
    assert str(info.value)  # a message the user can read
    assert len(str(info.value)) < 400
    assert sheet.rows() == before


def test_a_binary_or_missing_file_is_a_clear_error(sheet, tmp_path):
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ValueError, match="UTF-8"):
        sheet.load(path)
    with pytest.raises(ValueError, match="no such file"):
        sheet.load(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="folder"):
        sheet.load(tmp_path)


def test_a_good_file_with_missing_inputs_takes_the_defaults(sheet, tmp_path):
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(_doc(scenarios=_scen({"rate_mb_s": 8.0}))))
    sheet.load(path)
    assert sheet.values("a") == {"rate_mb_s": 8.0, "drives": 4, "mode": "fast"}
    assert sheet.outputs("a")["per drive [MB/s]"] == 2.0


def test_export_csv_has_a_row_per_scenario_with_its_outputs(sheet, tmp_path):
    import csv

    sheet.duplicate(0, "twin")
    path = sheet.export_csv(tmp_path / "s.csv")
    lines = path.read_text().splitlines()
    data = [ln for ln in lines if not ln.startswith("#")]
    rows = list(csv.DictReader(data))
    assert [r["Scenario"] for r in rows] == ["scenario 1", "twin"]
    assert float(rows[0]["per drive [MB/s]"]) == pytest.approx(sheet.outputs(0)["per drive [MB/s]"], rel=1e-3)
    assert any(ln.startswith("# Scenarios of lesson 99") for ln in lines)
    with pytest.raises(FileExistsError):
        sheet.export_csv(path)


def test_lesson_01_round_trip_and_from_file(tmp_path):
    from vtsmodel.app.lessons import lesson_module

    lesson = lesson_module("01")
    sheet = ScenarioSheet(lesson)
    sheet.duplicate(0, "EHPO small cache")
    sheet.set_cell(
        "EHPO small cache", lesson.INPUTS["tvc_config"].header, lesson.INPUTS["tvc_config"].options[7][0]
    )
    sheet.set_cell("EHPO small cache", lesson.INPUTS["feature"].header, "EHPO")
    assert sheet.values("EHPO small cache")["feature"] == "ehpo"
    with pytest.warns(
        vtsmodel.ExtrapolationWarning
    ):  # CF 3 is past Table 1's reads; the sheet keeps it as a note
        expected = lesson.scenario_outputs(**sheet.values("EHPO small cache"))
    assert sheet.outputs("EHPO small cache") == expected
    assert any("Table 1" in n for n in sheet.notes["EHPO small cache"])
    path = sheet.save(tmp_path / "l01.json")
    again = ScenarioSheet.from_file(path, lesson_module)
    assert again.lesson_id == "01" and again.rows() == sheet.rows()


def test_from_file_with_unknown_lesson(tmp_path):
    from vtsmodel.app.lessons import lesson_module

    path = tmp_path / "x.json"
    path.write_text(json.dumps(_doc(lesson="77")))
    with pytest.raises(ValueError, match=r"x.json: lesson='77' is not valid; choose one of 01, "):
        ScenarioSheet.from_file(path, lesson_module)


def test_a_lesson_is_given_as_its_module():
    with pytest.raises(ValueError, match=r"lesson='42' is a lesson's number; give its module"):
        ScenarioSheet("42")
    with pytest.raises(ValueError, match="has no LESSON_ID"):
        ScenarioSheet(types.ModuleType("vtsmodel.app.lessons.lesson98"))
    partial = types.ModuleType("partial")
    partial.LESSON_ID = "98"
    with pytest.raises(ValueError, match="lesson 98 has no INPUTS"):
        ScenarioSheet(partial)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.text(
                st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), min_size=1, max_size=30
            ).filter(lambda s: s.strip()),
            st.floats(0.0, 1000.0, allow_nan=False),
            st.integers(1, 16),
            st.sampled_from(("fast", "slow")),
        ),
        min_size=1,
        max_size=6,
        unique_by=lambda r: r[0].strip(),
    )
)
def test_property_any_valid_sheet_survives_a_round_trip(rows, tmp_path_factory):
    lesson = _lesson()
    sheet = ScenarioSheet(lesson, {n: {"rate_mb_s": r, "drives": d, "mode": m} for n, r, d, m in rows})
    path = Path(tmp_path_factory.mktemp("rt")) / "s.json"
    sheet.save(path)
    other = ScenarioSheet(lesson)
    other.load(path)
    assert other.rows() == sheet.rows()
    os.unlink(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    # Before: load() of a FIFO waited for ever for a writer.
    fifo = tmp_path / "scenarios.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\), not a scenario file"):
        read_scenario_file(fifo)


def test_lesson_01_csv_reads_as_a_proposal():
    # labels, not internal ids; four significant digits, not 86.52154320597057; the sources and the maker
    import csv

    from vtsmodel import REFERENCE, cite
    from vtsmodel.app.lessons import write

    sheet = ScenarioSheet(write)
    text = sheet.to_csv()
    row = next(csv.DictReader(ln for ln in text.splitlines() if not ln.startswith("#")))
    config = write.INPUTS["tvc_config"]
    assert row[config.header] == config.format(config.default) and "tvc_" not in text
    assert row["feature"] == write.INPUTS["feature"].format("paf") and ",paf," not in text
    peak = sheet.outputs(0)["peak write [MB/s]"]
    assert row["peak write [MB/s]"] == f"{peak:.4g}" and float(row["peak write [MB/s]"]) == pytest.approx(
        peak, rel=1e-3
    )
    comments = [ln[2:] for ln in text.splitlines() if ln.startswith("# ")]
    assert (
        "Sources:" in comments
        and cite("ibm-vts-b18-2000") in comments
        and f"Made with {REFERENCE}" in comments
    )
