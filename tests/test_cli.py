"""The ``vtsmodel`` command: exit codes, output, one-line errors, figures written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from vtsmodel import sizing
from vtsmodel._tables import cite
from vtsmodel.app import cli
from vtsmodel.app._browser import find_chromium
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.scenarios import ScenarioSheet
from vtsmodel.catalog import drive_choices, drive_names, drive_spec


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [["--help"], ["figures", "--help"], ["size", "--help"], ["cite", "--help"]])
def test_help_on_each_command(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0
    assert "usage: vtsmodel" in out
    assert err == ""


def test_no_command_prints_help_and_fails(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "figures" in out and "size" in out and "cite" in out


def test_size_without_flows_is_the_cern_sample_calculation(capsys):
    # cern-tape-sizing-2005, Summary, sample calculation: "Number of needed tape drives = 50"
    expected = sizing.sizing_table(
        sizing.cern_example_flows(), drive_speed_mb_s=sizing.cern_example_drive_speed()
    )[-1]["drives to buy [-]"]
    code, out, err = run(capsys, "size")
    assert code == 0 and err == ""
    assert f"drives to buy: {expected}" in out
    assert "T0 → T1" in out and "reprocessing" in out
    assert "[cern-tape-sizing-2005]" in out


def test_size_with_flows_and_a_catalog_drive(capsys):
    speed = drive_spec("LTO2").speed_mb_s
    rows = sizing.sizing_table(
        [sizing.Flow("backup, nightly", 120.0, 2.0, 0.5), sizing.Flow("archive", 30.0, 1.5, 0.2)],
        drive_speed_mb_s=speed,
    )
    code, out, _ = run(capsys, "size", "--flow", "backup, nightly,120,2,0.5", "--flow", "archive,30,1.5,0.2",
                       "--drive", "LTO2")  # fmt: skip
    assert code == 0
    assert "backup, nightly" in out and f"{speed:g} MB/s" in out
    assert f"drives to buy: {rows[-1]['drives to buy [-]']}" in out


@pytest.mark.parametrize("name", drive_names())
def test_size_accepts_every_catalog_drive(capsys, name):
    # Every drive of the catalog sizes with its own speed (observed where measured, else
    # native) and the output cites the drive's sources.
    spec = drive_spec(name)
    rows = sizing.sizing_table(sizing.cern_example_flows(), drive_speed_mb_s=spec.speed_mb_s)
    code, out, err = run(capsys, "size", "--drive", name)
    assert code == 0 and err == ""
    assert f"drive speed for the {spec.label} [{name}]: {spec.speed_mb_s:g} MB/s, {spec.speed_basis}" in out
    assert f"drives to buy: {rows[-1]['drives to buy [-]']}" in out
    assert all(f"[{s}]" in out for s in spec.primary_sources)


def test_size_takes_drive_aliases_lto9_ibm_ts4500(capsys):
    # "LTO 9 ... 400 MB/s" (ibm-ts4500-drives): the alias LTO-9 names the catalog's LTO9.
    code, out, _ = run(capsys, "size", "--drive", "LTO-9")
    assert code == 0 and "drive speed for the LTO-9 (Ultrium 9) [LTO9]: 400 MB/s, spec" in out
    assert "[ibm-ts4500-drives] IBM. Supported tape drives." in out


def test_size_unknown_drive_lists_the_drives_grouped_by_family(capsys):
    code, _, err = run(capsys, "size", "--drive", "LTO11")
    assert code == 1 and len(err.strip().splitlines()) == 1
    for group in drive_choices():
        assert f"{group.label}: {', '.join(c.key for c in group.drives)}" in err
    assert err.index("LTO Ultrium:") < err.index("IBM 3592 (TS1100):") < err.index("StorageTek:")


def test_size_with_a_drive_speed(capsys):
    rows = sizing.sizing_table([sizing.Flow("f", 100.0, 2.0, 0.5)], drive_speed_mb_s=80.0)
    code, out, _ = run(capsys, "size", "--flow", "f,100,2,0.5", "--drive-speed", "80")
    assert code == 0 and f"drives to buy: {rows[-1]['drives to buy [-]']}" in out


@pytest.mark.parametrize(
    ("argv", "code", "words"),
    [
        (["size", "--flow", "a,100,2"], 1, ["NAME,RATE,FACTOR,EFFICIENCY"]),
        (["size", "--flow", "a,fast,2,0.5"], 1, ["RATE", "'fast'"]),
        (["size", "--flow", "a,100,2,0"], 1, ["a: EFFICIENCY=0.0", "[1e-09, 1]"]),
        (["size", "--flow", "a,100,0.5,0.5"], 1, ["a: FACTOR=0.5 is outside the valid range [1, "]),
        (["size", "--flow", "a,-1,2,0.5"], 1, ["a: RATE=-1.0 is outside"]),
        (["size", "--drive-speed", "1e-12"], 1, ["--drive-speed=1e-12 is outside"]),
        (["size", "--drive", "NOPE"], 1, ["'NOPE'", "LTO2"]),
        (["size", "--drive-speed", "-3"], 2, ["--drive-speed", "> 0"]),
        (["size", "--drive-speed", "nan"], 2, ["--drive-speed"]),
        (["size", "--drive", "LTO2", "--drive-speed", "40"], 2, ["not both"]),
        (["cite", "bogus"], 1, ["'bogus'", "cern_facts"]),
        (["bogus"], 2, ["invalid choice"]),
        (["figures"], 2, ["OUTDIR"]),
        (["figures", "out", "--format", "eps"], 2, ["'eps'", "png"]),
        (["figures", "out", "--lessons", "77"], 2, ["'77'"]),
        (["figures", "out", "--style", "dark"], 2, ["dark"]),
    ],
)
def test_errors_are_one_line_and_a_nonzero_exit(capsys, tmp_path, monkeypatch, argv, code, words):
    monkeypatch.chdir(tmp_path)
    got, out, err = run(capsys, *argv)
    assert got == code
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0]


def test_cite_prints_references(capsys):
    from vtsmodel import REFERENCE

    code, out, _ = run(capsys, "cite")
    assert code == 0 and out.strip() == f"{cite()}\n\nCite the models as: {REFERENCE}"
    code, out, _ = run(capsys, "cite", "cern_facts", "ibm-vts-b18-2000")
    assert code == 0 and out.startswith(cite("cern_facts", "ibm-vts-b18-2000")) and REFERENCE in out


@pytest.mark.slow
def test_figures_for_one_lesson_with_captions_and_no_overwrite(capsys, tmp_path):
    view = lesson_module("04").scenario_view()
    code, out, err = run(capsys, "figures", str(tmp_path), "--format", "svg,html", "--lessons", "04")
    assert code == 0, err
    expected = {f"04_{k}.{fmt}" for k in view.figures for fmt in ("svg", "html")}
    assert {p.name for p in tmp_path.iterdir()} == expected
    assert f"wrote {len(expected)} file(s)" in out
    assert "[#" not in err  # no progress bar when stderr is not a terminal
    svg = (tmp_path / f"04_{next(iter(view.figures))}.svg").read_bytes()
    assert ET.fromstring(svg).tag.endswith("svg")
    assert b"Made with vtsmodel:" in svg  # the caption is in the figure
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    code, out, _ = run(capsys, "figures", str(tmp_path), "--format", "html", "--lessons", "04")
    assert code == 0 and "wrote 0 file(s)" in out and "--overwrite" in out
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before
    code, out, _ = run(capsys, "figures", str(tmp_path), "--format", "html", "--lessons", "04", "--overwrite")
    assert code == 0 and f"wrote {len(view.figures)} file(s)" in out


def test_figures_one_set_per_scenario(capsys, tmp_path):
    sheet = ScenarioSheet(lesson_module("04"))
    sheet.rename(0, "big files")
    sheet.duplicate(0, "small/files")
    sheet.set_cell("small/files", "file_mb", 5.0)
    path = sheet.save(tmp_path / "s.json")
    out_dir = tmp_path / "out"
    code, out, err = run(capsys, "figures", str(out_dir), "--format", "html", "--scenarios", str(path))
    assert code == 0, err
    keys = lesson_module("04").scenario_view().figures
    names = {p.name for p in out_dir.iterdir()}
    assert names == {f"04_{s}_{k}.html" for s in ("big-files", "small-files") for k in keys}
    text = (out_dir / f"04_small-files_{next(iter(keys))}.html").read_text(encoding="utf-8")
    assert "scenario: small/files" in text and "file size [MB] = 5" in text


def test_a_bad_scenario_file_is_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "vtsmodel-scenarios", "version": 9}')
    code, _, err = run(capsys, "figures", str(tmp_path / "o"), "--format", "html", "--scenarios", str(bad))
    assert code == 1 and len(err.strip().splitlines()) == 1 and "bad.json" in err


def test_a_lesson_that_does_not_import_is_skipped_with_a_note(capsys, tmp_path, monkeypatch):
    import vtsmodel.app.lessons as lessons

    monkeypatch.setitem(lessons.LESSONS, "98", "lesson98_not_written_yet")
    code, out, err = run(capsys, "figures", str(tmp_path), "--format", "html", "--lessons", "04,98")
    assert code == 0, err
    assert "note: lesson 98 skipped: it does not import" in out
    assert "lessons 04;" in out


@pytest.mark.slow
def test_entry_point_runs_as_a_program(tmp_path):
    exe = Path(sys.executable).with_name("vtsmodel")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "vtsmodel.app.cli"]
    ok = subprocess.run([*cmd, "cite", "cern-tape-sizing-2005"], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and ok.stdout.startswith(cite("cern-tape-sizing-2005"))
    bad = subprocess.run([*cmd, "size", "--drive", "NOPE"], capture_output=True, text=True, check=False)
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


@pytest.mark.slow
def test_import_vtsmodel_cli_does_not_import_plotly():
    code = (
        "import sys, vtsmodel.app.cli; assert 'plotly' not in sys.modules and 'ipywidgets' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_progress_is_a_bar_on_a_terminal_and_a_line_per_step_elsewhere():
    import io

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        cli._progress(1, 4, "a.png", stream=stream)
        cli._progress(4, 4, "d.png", stream=stream)
    assert (
        "1/4" in tty.getvalue() and tty.getvalue().endswith("\n") and "[" + "#" * 30 + "]" in tty.getvalue()
    )
    assert pipe.getvalue() == "1/4 a.png\n4/4 d.png\n"  # a log or a pipe reads one line per step


@pytest.mark.slow
def test_figures_say_which_figure_a_validated_range_note_belongs_to(capsys, tmp_path):
    # Lesson 01 at CF 3: the write figures lie inside Eq. 3's validated CF 1-4, the read-hit and mix
    # figures outside Table 1's CF 1-2.66; only these carry the note, in their captions and in the summary.
    view = lesson_module("01").scenario_view()
    noted = {k for k in view.figures if view.notes_of(k)}
    assert noted and noted != set(view.figures)
    code, out, err = run(capsys, "figures", str(tmp_path), "--format", "svg", "--lessons", "01")
    assert code == 0, err
    assert f"1/{len(view.figures)} 01_" in err  # progress, one line per figure written
    note = next(line for line in out.splitlines() if line.startswith("  01_"))
    assert note.strip().split(": ", 1)[0] == ", ".join(f"01_{k}" for k in view.figures if k in noted)
    for k in view.figures:
        svg = (tmp_path / f"01_{k}.svg").read_text(encoding="utf-8")
        assert ("Note: " in svg) == (k in noted), k


def test_figures_do_not_call_every_caption_note_an_extrapolation(capsys, tmp_path):
    # Lesson 09's notes say how its log was read: they are no settings outside a validated range.
    code, out, err = run(capsys, "figures", str(tmp_path), "--format", "html", "--lessons", "09")
    assert code == 0, err
    assert "the captions carry" in out and "note: 1 setting" not in out and " setting(s) outside" not in out
    assert "09_response" in out and "read as comma-separated" in out


# --- plan ------------------------------------------------------------------------------------------
EXAMPLE_WORKLOAD = Path(__file__).resolve().parents[1] / "examples" / "example_hourly_workload.csv"
EXAMPLE_ARCHIVE = EXAMPLE_WORKLOAD.with_name("archive_plan.json")


def test_plan_help(capsys):
    code, out, err = run(capsys, "plan", "--help")
    assert code == 0 and "usage: vtsmodel plan" in out and "--report" in out and err == ""


def test_plan_prints_the_recommendation_and_its_margins(capsys, tmp_path):
    from vtsmodel.plan import Answers, Plan, library_plan, save_plan, vts_plan

    plan = Plan(Answers(delay_hours_allowed=2.0), name="nightly")
    save_plan(plan, tmp_path / "plan.json")
    code, out, err = run(capsys, "plan", str(tmp_path / "plan.json"))
    assert code == 0 and err == ""
    vts = vts_plan(plan)
    assert vts.headline() in out and library_plan(plan).headline() in out
    for ch in vts.recommended.checks:
        assert ch.label in out
    assert "report:" not in out


def test_plan_with_a_workload_file_writes_the_html_report(capsys, tmp_path):
    from vtsmodel.plan import Plan, save_plan

    save_plan(Plan(name="from a file"), tmp_path / "plan.json")
    target = tmp_path / "out" / "plan.html"
    code, out, err = run(capsys, "plan", str(tmp_path / "plan.json"), "--workload", str(EXAMPLE_WORKLOAD),
                         "--report", str(target))  # fmt: skip
    assert code == 0, err
    assert f"report: {target}" in out
    text = target.read_text(encoding="utf-8")
    assert "<h1>from a file</h1>" in text and "example_hourly_workload" in text
    code, _out, err = run(capsys, "plan", str(tmp_path / "plan.json"), "--report", str(target))
    assert code == 1 and "exists" in err and len(err.strip().splitlines()) == 1
    # Issue 27: the command names its flag, not the library's keyword (was "overwrite=True").
    assert "pass --overwrite to replace it" in err and "=True" not in err
    assert run(capsys, "plan", str(tmp_path / "plan.json"), "--report", str(target), "--overwrite")[0] == 0
    target.chmod(0o444)  # a read-only report is not replaced, and the message says what to do
    code, _out, err = run(capsys, "plan", str(tmp_path / "plan.json"), "--report", str(target), "--overwrite")
    assert code == 1 and "is read-only; make it writable to replace it" in err and "force" not in err


def test_plan_from_a_workload_file_alone_names_the_defaults_it_used(capsys):
    # A new user with an hourly report and no plan file: the workload gives the writes and
    # reads (and here the read hits and recalls, from its mount columns); every other
    # answer is the default, and the output says which.
    from vtsmodel.hourly import read_hourly_workload
    from vtsmodel.plan import Answers, Plan, answer_inputs, vts_plan

    code, out, err = run(capsys, "plan", "--workload", str(EXAMPLE_WORKLOAD))
    assert code == 0, err
    plan = Plan(Answers(), name=EXAMPLE_WORKLOAD.stem, workload=read_hourly_workload(EXAMPLE_WORKLOAD))
    assert vts_plan(plan).headline() in out
    assert "every other answer is its default" in out
    inputs = answer_inputs()
    for key in ("cf", "volume_mb", "recall_target_s", "delay_hours_allowed", "vts_drive"):
        assert f"{inputs[key].label}: {inputs[key].format(getattr(Answers(), key))}" in out, key
    for key in ("write_gb_per_day", "read_hit", "recalls_per_hour"):  # the workload's own
        assert f"{inputs[key].label}: " not in out.split("default:")[1].split("\n")[1], key


def test_plan_defaults_say_what_an_empty_answer_means_in_words(capsys):
    # Was 'drive efficiency assumed derived', 'price of a drive derived', '8 ESCON channels' after its label.
    from vtsmodel.plan import EMPTY_MEANS, answer_inputs

    code, out, _ = run(capsys, "plan", "--workload", str(EXAMPLE_WORKLOAD))
    said = out.split("default:\n")[1].split("\n")[0].strip().split("; ")
    inputs = answer_inputs()
    for key in ("drive_efficiency", "robots", "price_drive", "slots_base", "growth_tb_per_year"):
        assert f"{inputs[key].label}: {EMPTY_MEANS[key]}" in said, key
    assert not [s for s in said if s.endswith(" derived") or s.endswith("'")]
    assert "8 ESCON channels" in said and not any(s.startswith("ESCON channels") for s in said)


def test_plan_tables_group_every_count(capsys, tmp_path):
    # 200,000 TB on LTO-9: over 10,000 cartridges; the count was printed '11112' beside '200,000'.
    import re

    plan = json.loads(EXAMPLE_ARCHIVE.read_text())
    plan["answers"]["stored_now_tb"] = 200_000.0
    path = tmp_path / "big.json"
    path.write_text(json.dumps(plan))
    code, out, _ = run(capsys, "plan", str(path))
    assert code in (0, 3)
    year5 = next(line for line in out.splitlines() if line.startswith("5 "))
    assert re.search(r"\b\d{2},\d{3}\s+\d{2},\d{3}\b", year5), year5  # cartridges, in the library
    assert not re.search(r"\b\d{5,}\b", out.split("year  stored")[1]), out


def test_table_cells_group_whole_numbers_of_any_integer_type():
    import numpy as np

    rows = [{"a": "x", "n": 12175, "m": np.int64(3652), "f": 12175.0, "b": True}]
    line = cli._table(rows, ["a", "n", "m", "f", "b"]).splitlines()[2]
    assert line.split() == ["x", "12,175", "3,652", "12,175", "True"]


def test_plan_init_writes_a_commented_plan_file_that_plans(capsys, tmp_path):
    # `vtsmodel plan --init FILE`: a plan file a person can read and edit (each answer with
    # its unit, range and source as a // comment) that the planner then reads as it is.
    from vtsmodel.plan import Answers, answer_inputs, load_plan, save_plan

    path = tmp_path / "mine.json"
    code, out, err = run(capsys, "plan", "--init", str(path))
    assert code == 0 and err == "" and f"vtsmodel plan {path}" in out
    text = path.read_text(encoding="utf-8")
    for key, inp in answer_inputs().items():
        assert f'"{key}":' in text and f"// {inp.label}" in text, key
    assert '"escon_channels": 8' in text and "// ESCON channels: one of 2 (2 ESCON channels)" in text
    assert load_plan(path).answers == Answers() and load_plan(path).name == "mine"
    edited = text.replace('"cf": 2.5', '"cf": 3.0')
    path.write_text(edited, encoding="utf-8")
    assert load_plan(path).answers.cf == 3.0
    code, out, _err = run(capsys, "plan", str(path))
    assert code in (0, cli.EXIT_NO_CONFIGURATION) and "Plan 'mine'" in out
    # again: refused without --overwrite; from a plan file: its answers, commented
    code, _out, err = run(capsys, "plan", "--init", str(path))
    assert code == 2 and "--overwrite" in err
    save_plan(_plan_with(cf=2.0), tmp_path / "old.json")
    code, _out, err = run(capsys, "plan", str(tmp_path / "old.json"), "--init", str(path), "--overwrite")
    assert code == 0 and load_plan(path).answers.cf == 2.0 and "// " in path.read_text(encoding="utf-8")


def _plan_with(**answers):
    from vtsmodel.plan import Answers, Plan

    return Plan(Answers(**answers), name="old")


def test_plan_with_neither_a_file_nor_a_workload_is_a_usage_error(capsys):
    code, out, err = run(capsys, "plan")
    assert code == 2 and out == "" and "--workload" in err and len(err.strip().splitlines()) == 1


def test_a_plan_no_configuration_meets_exits_3_and_says_so_in_words(capsys, tmp_path):
    # 20 TB a day: every configuration falls behind. The copy check's value is infinite in
    # the model; the table says "falls behind" and "none", never inf or -inf, and a
    # script sees the documented exit code 3 (no recommendation), not 0.
    from vtsmodel.plan import Answers, Plan, save_plan, vts_plan

    plan = Plan(Answers(write_gb_per_day=20000.0, write_window_hours=24.0), name="too much")
    save_plan(plan, tmp_path / "plan.json")
    code, out, err = run(capsys, "plan", str(tmp_path / "plan.json"))
    assert vts_plan(plan).recommended is None
    assert code == cli.EXIT_NO_CONFIGURATION == 3
    assert "No VTS B18 configuration meets every target" in out
    assert "no VTS configuration meets every target" in err and len(err.strip().splitlines()) == 1
    assert "inf" not in out.replace("infinite", "")
    copy_line = next(line for line in out.splitlines() if line.startswith("drives for the copy"))
    assert "falls behind" in copy_line and "none" in copy_line and copy_line.rstrip().endswith("NO")


def test_plan_with_a_mount_log_evaluates_each_configuration_with_its_own_read_hit(capsys, tmp_path):
    import dataclasses

    from vtsmodel.hits import lru_hit_curve
    from vtsmodel.plan import Plan, save_plan, vts_plan

    save_plan(Plan(name="logged"), tmp_path / "plan.json")
    code, out, err = run(capsys, "plan", str(tmp_path / "plan.json"), "--mount-log", str(EXAMPLE_LOG))
    assert code == 0, err
    vts = vts_plan(dataclasses.replace(Plan(name="logged"), hits=lru_hit_curve(EXAMPLE_LOG)))
    assert vts.headline() in out
    assert f"{vts.closest.config.label}: {vts.closest.read_hit:.3f}" in out
    bad = tmp_path / "bad.csv"
    bad.write_text("time_s,volume,compressed_mb,access\n0,A,-5,read\n")
    code, out, err = run(capsys, "plan", str(tmp_path / "plan.json"), "--mount-log", str(bad))
    assert (
        code == 1 and "line 2" in err and "compressed_mb='-5'" in err and len(err.strip().splitlines()) == 1
    )


def test_plan_reads_a_mount_log_as_it_comes_with_the_reading_flags(capsys, tmp_path):
    # A real system's mount log has no header, another delimiter and is compressed: the same
    # rows as the example log's, read with --columns, give the same plan; without the flags the
    # error names the flag to give, and the flags without --mount-log are a usage error.
    import csv
    import gzip

    from vtsmodel.plan import Plan, save_plan

    save_plan(Plan(name="logged"), tmp_path / "plan.json")
    rows = list(csv.reader(line for line in EXAMPLE_LOG.read_text().splitlines() if not line.startswith("#")))
    head, body = rows[0], rows[1:]
    assert head == ["time_s", "volume", "compressed_mb", "access"]
    raw = tmp_path / "mounts.log.gz"
    with gzip.open(raw, "wt") as f:
        f.writelines(";".join(r) + "\n" for r in body)
    plan = str(tmp_path / "plan.json")
    code, want, err = run(capsys, "plan", plan, "--mount-log", str(EXAMPLE_LOG))
    assert code == 0, err
    code, out, err = run(
        capsys, "plan", plan, "--mount-log", str(raw), "--columns", "time,volume,compressed_mb,access"
    )
    assert code == 0, err
    assert out.replace(raw.name, EXAMPLE_LOG.name) == want
    code, out, err = run(capsys, "plan", plan, "--mount-log", str(raw))
    assert code == 1 and "no header line" in err and "--columns" in err
    code, out, err = run(capsys, "plan", plan, "--columns", "time,volume")
    assert code == 2 and "need --mount-log" in err


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('{"schema": "vtsmodel-plan", "version": 1, "answers": {"cf": 0}}', "answers: cf=0"),
        ("{not json", "not valid JSON"),
    ],
)
def test_plan_with_a_bad_file_fails_in_one_line(capsys, tmp_path, content, words):
    path = tmp_path / "plan.json"
    path.write_text(content)
    code, out, err = run(capsys, "plan", str(path))
    assert code == 1 and out == ""
    assert err.startswith("vtsmodel: error:") and words in err and len(err.strip().splitlines()) == 1


def test_plan_with_a_bad_workload_names_the_line(capsys, tmp_path):
    from vtsmodel.plan import Plan, save_plan

    save_plan(Plan(), tmp_path / "plan.json")
    bad = tmp_path / "day.csv"
    bad.write_text("hour,host_write_mb,host_read_mb\n0,1,1\n1,-1,1\n")
    code, _out, err = run(capsys, "plan", str(tmp_path / "plan.json"), "--workload", str(bad))
    assert code == 1 and "line 3: host_write_mb=-1" in err


# --- hits --------------------------------------------------------------------------------------
EXAMPLE_LOG = Path(__file__).resolve().parents[1] / "examples" / "example_mount_log.csv"


def test_hits_prints_the_table3_sizes_with_the_models_numbers(capsys):
    from vtsmodel import hits

    want = hits.configuration_hits(hits.lru_hit_curve(EXAMPLE_LOG))
    code, out, err = run(capsys, "hits", str(EXAMPLE_LOG))
    assert code == 0 and err == ""
    lines = out.splitlines()
    for g, r, b, rate in zip(
        want.tvc_gb, want.read_hit_ratio, want.read_byte_hit_ratio, want.recalls_per_hour, strict=True
    ):
        row = next(line for line in lines if line.split()[:1] == [f"{g:g}"])
        assert f"{100 * r:.1f}" in row and f"{100 * b:.1f}" in row and f"{rate:.2f}" in row
    assert "exact one-pass LRU" in out and "[ibm-vts-b18-2000]" in out


def test_hits_with_a_feature_cf_and_shards(capsys):
    code, out, _ = run(capsys, "hits", str(EXAMPLE_LOG), "--feature", "paf", "--cf", "2.5", "--shards", "512")
    assert code == 0
    assert "SHARDS sample" in out and "CF 2.5" in out
    assert [line.split()[0] for line in out.splitlines() if line[:1].isdigit() and "PAF" in line] == [
        "216",
        "432",
        "864",
        "1728",
    ]


def test_hits_at_a_cf_below_1_answers_and_says_so_once(capsys):
    # issue 23: a ratio below 1 (data that grows on tape) gives a result and a warning
    from vtsmodel import CompressionWarning, hits

    code, out, err = run(capsys, "hits", str(EXAMPLE_LOG), "--cf", "0.95")
    assert code == 0 and "CF 0.95" in out
    with pytest.warns(CompressionWarning):
        want = hits.configuration_hits(hits.lru_hit_curve(EXAMPLE_LOG), cf=0.95)
    row = next(line for line in out.splitlines() if line.split()[:1] == [f"{want.tvc_gb[0]:g}"])
    assert f"{100 * want.read_hit_ratio[0]:.1f}" in row
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: cf=0.95 is below 1: data that does not compress grows on tape (encrypted or already "
        "compressed data, which a compressor cannot shrink); taken as given, though the sources measured "
        "ratios of 1 and more"
    ]  # once, though three models warned
    code, out, err = run(capsys, "hits", str(EXAMPLE_LOG), "--cf", "0.95", "--format", "json")
    assert sum("cf=0.95 is below 1" in n for n in json.loads(out)["notes"]) == 1 and "note:" not in err


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "time_s,volume,compressed_mb,access\n0,A,-1,read\n",
            ["line 2", "compressed_mb='-1'", "[0, 1e+08] MB"],
        ),
        ("time_s,volume,compressed_mb,access\n5,A,1,read\n1,B,1,read\n", ["line 3", "time order", "--sort"]),
    ],
)
def test_hits_bad_logs_are_one_line(capsys, tmp_path, text, words):
    path = tmp_path / "log.csv"
    path.write_text(text)
    code, _, err = run(capsys, "hits", str(path))
    assert code == 1 and len(err.strip().splitlines()) == 1
    for word in words:
        assert word in err


def test_hits_sort_and_an_empty_log(capsys, tmp_path):
    path = tmp_path / "log.csv"
    path.write_text("time_s,volume,compressed_mb,access\n5,A,1,read\n1,A,1,read\n")
    assert run(capsys, "hits", str(path))[0] == 1  # out of order: rejected
    code, out, _ = run(capsys, "hits", str(path), "--sort")
    assert code == 0 and "50.0" in out  # sorted: the first read misses, the second hits


@pytest.mark.parametrize(
    ("lines", "flags", "words"),
    [
        ([], [], ["log.csv: the log holds no requests"]),  # header only: as replay refuses it
        (
            ["0,A,1,read", "7200,A,1,read"],
            ["--warmup-hours", "2"],
            ["--warmup-hours=2", "no hour", "2 requests"],
        ),
        (["0,A,1,read", "7200,A,1,read"], ["--warmup-hours", "1e5"], ["--warmup-hours=100000", "no hour"]),
        (["0,A,1,read"], ["--shards", "0"], ["--shards=0", "[16, 1048576]"]),  # 0 is not the exact method
        (["0,A,1,read"], ["--shards", "-3", "--table3"], ["--shards=-3", "[16, "]),
        (["0,A,1,read", "9,B,1,read"], ["--auto", "0"], ["--auto=0", "[2, "]),  # 0 is not the default 20
    ],
)
def test_hits_refuses_what_would_print_a_table_of_nothing(capsys, tmp_path, lines, flags, words):
    path = tmp_path / "log.csv"
    path.write_text("\n".join(["time_s,volume,compressed_mb,access", *lines, ""]))
    code, out, err = run(capsys, "hits", str(path), *flags)
    assert (code, out) == (1, "") and len(err.strip().splitlines()) == 1, err
    for word in words:
        assert word in err
    if flags[:1] == ["--warmup-hours"]:  # an hour less counts the last request
        code, out, _ = run(capsys, "hits", str(path), "--warmup-hours", "1", "--capacities", "1GB")
        assert code == 0 and "100.0" in out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("browser", "says"),
    [
        ("/no/such/browser", "no such file"),
        ("/bin/true", "not a Chromium-family browser"),
        ("hangs", "did not answer `--version` within 2 s"),
    ],
)
def test_figures_with_a_broken_browser_path_fail_in_one_line(capsys, tmp_path, monkeypatch, browser, says):
    # Before: the check was skipped whenever BROWSER_PATH was set, and the export then
    # waited for ever. Now the browser is checked (and started) before any figure is built.
    from vtsmodel.app import _browser, export

    if browser == "hangs":
        script = tmp_path / "hangs"
        script.write_text("#!/bin/sh\nsleep 1000\n")
        script.chmod(0o755)
        browser = str(script)
    monkeypatch.setattr(_browser, "PROBE_TIMEOUT_S", 2.0)
    monkeypatch.setenv("BROWSER_PATH", browser)
    export.stop_browser()
    out = tmp_path / "out"
    code, stdout, err = run(capsys, "figures", str(out), "--format", "png,html", "--lessons", "04")
    assert code == 1 and stdout == ""
    assert err.count("\n") == 1 and says in err and browser in err
    assert "PNG, SVG and PDF need a working Chromium browser" in err
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.skipif(find_chromium() is None, reason="the PDF report needs Chromium")
def test_a_fresh_clone_plans_the_example_and_writes_the_pdf_report(tmp_path):
    # What a new user does first: clone, then `vtsmodel plan examples/example_plan.json
    # --report r.pdf`. The clone holds only committed files, so the example, the data and
    # the code it needs must all be in the repository.
    root = Path(__file__).resolve().parents[1]
    if subprocess.run(["git", "-C", str(root), "rev-parse", "--git-dir"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(root), str(clone)], check=True, timeout=120)
    env = {**os.environ, "PYTHONPATH": str(clone)}
    cmd = [
        sys.executable,
        "-m",
        "vtsmodel.app.cli",
        "plan",
        "examples/example_plan.json",
        "--report",
        "r.pdf",
    ]
    done = subprocess.run(cmd, cwd=clone, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, cli.EXIT_NO_CONFIGURATION), done.stderr
    assert "Plan 'nightly batch':" in done.stdout and "report:" in done.stdout
    assert (clone / "r.pdf").read_bytes()[:5] == b"%PDF-"
    probe = [sys.executable, "-c", "import vtsmodel; print(vtsmodel.__file__)"]
    used = subprocess.run(probe, cwd=clone, env=env, capture_output=True, text=True, check=True).stdout
    assert Path(used.strip()).is_relative_to(clone), used  # the clone's code, not this checkout's


def test_a_reader_that_stops_early_is_no_error(tmp_path, monkeypatch, capsys):
    class Closed:  # a pipe whose reader stopped (vtsmodel cite | head -1)
        def __init__(self, fh):
            self.fh = fh

        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

        def fileno(self):
            return self.fh.fileno()

    with open(tmp_path / "out", "w") as fh:
        monkeypatch.setattr(sys, "stdout", Closed(fh))
        assert cli.main(["cite"]) == 1
    assert capsys.readouterr().err == ""  # no "error: [Errno 32] Broken pipe"


def test_table_cells_are_plain_decimals_without_exponents():
    # a library margin of 1,324 slots read "1.32e+03", then "1,320": a whole number keeps every digit
    assert [cli._fmt_cell(v) for v in (1324.0, 999.6, 0.0833, 12_345.6, 7.0, 1443.0, None)] == [
        "1,324", "1,000", "0.0833", "12,346", "7", "1,443", ""
    ]  # fmt: skip


def test_hits_on_a_gzipped_headerless_semicolon_log_with_basic_times_and_no_sizes(capsys, tmp_path):
    # Done when: "vtsmodel hits on a gzip'd, headerless, semicolon-separated log with basic ISO
    # times and no sizes works with one --columns/--object-gb line"
    import gzip

    from vtsmodel import hits, read_mount_log
    from vtsmodel.logs import example_log

    text = example_log("tape-requests", 60, seed=5)
    path = tmp_path / "robot.log.gz"
    path.write_bytes(gzip.compress(text.encode()))
    code, out, err = run(
        capsys,
        "hits",
        str(path),
        "--columns",
        "time,tape",
        "--object-gb",
        "18000",
        "--capacities",
        "20TB,100TB,1PB",
    )
    assert code == 0 and err == "", err
    want = hits.lru_hit_curve(read_mount_log(text, columns="time,tape", object_mb=18e6)).at([2e4, 1e5, 1e6])
    rows = [
        line for line in out.splitlines() if line.split()[:2] in (["20", "TB"], ["100", "TB"], ["1", "PB"])
    ]
    assert len(rows) == 3
    for row, r, rate in zip(rows, want.read_hit_ratio, want.recalls_per_hour, strict=True):
        assert f"{100 * r:.1f}" in row and f"{rate:.2f}" in row
    assert "every request counted as a read" in out and "every object counted as 18,000,000 MB" in out


def test_a_spreadsheets_days_are_said_once_as_a_note_and_read_with_the_flag(capsys, tmp_path):
    # A spreadsheet's export: dates saved as numbers (days since 1899-12-30), sizes grouped in threes
    path = tmp_path / "export.csv"
    rows = [(40774.0110879630 + k / 1440, f"V{k % 7}", f'"{(k + 1) * 1_234_567:,}"') for k in range(40)]
    path.write_text("Date,Volume,Size (bytes)\n" + "".join(f"{d:.10f},{v},{b}\n" for d, v, b in rows))
    for argv in (["hits", str(path)], ["replay", str(path)]):
        code, out, err = run(capsys, *argv)
        assert code == 0 and err == "", err  # no Python warning beside the note
        assert out.count("may be a spreadsheet's dates (days since 1899-12-30): if so, name the form: "
                         "time_form='excel' (--time-form excel)") == 1  # fmt: skip
    code, out, err = run(capsys, "hits", str(path), "--time-form", "excel")
    assert code == 0 and err == "" and "spreadsheet's dates" not in out
    assert "40 requests, 7 objects, 0.7 h counted" in out


def test_hits_capacities_auto_and_the_default_for_a_non_vts_log(capsys, tmp_path):
    from vtsmodel import hits
    from vtsmodel.logs import example_log

    path = tmp_path / "xfer.log"
    path.write_text(example_log("xferlog", 80, seed=2))
    curve = hits.lru_hit_curve(__import__("vtsmodel").logs.LogFile(path, format="xferlog"))
    code, out, _ = run(capsys, "hits", str(path), "--log-format", "xferlog", "--auto", "7")
    assert code == 0 and "Read hits by cache capacity" in out
    table = out.split("-----")[-1]
    assert len([line for line in table.splitlines() if "%" not in line and line[:1].isdigit()]) == 7
    code, out, _ = run(capsys, "hits", str(path), "--log-format", "xferlog")
    assert len([line for line in out.split("-----")[-1].splitlines() if line[:1].isdigit()]) == 20
    assert curve.mounts == 80


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_hits_csv_and_json_carry_the_models_numbers(capsys, fmt):
    import csv
    import io
    import json

    from vtsmodel import hits

    curve = hits.lru_hit_curve(EXAMPLE_LOG)
    want = curve.at([500, 2000])
    code, out, _ = run(capsys, "hits", str(EXAMPLE_LOG), "--capacities", "500GB,2TB", "--format", fmt)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out))) if fmt == "csv" else json.loads(out)["rows"]
    assert [float(r["capacity_gb"]) for r in rows] == [500.0, 2000.0]
    assert [float(r["read_hit_ratio"]) for r in rows] == want.read_hit_ratio.tolist()
    assert [float(r["recalls_per_hour"]) for r in rows] == want.recalls_per_hour.tolist()


def test_hits_table3_is_the_default_for_a_vts_log_and_bad_capacities_are_named(capsys):
    code, out, _ = run(capsys, "hits", str(EXAMPLE_LOG))
    assert "Table 3 cache size" in out
    code, out, _ = run(capsys, "hits", str(EXAMPLE_LOG), "--auto", "5")
    assert "Table 3" not in out
    code, _, err = run(capsys, "hits", str(EXAMPLE_LOG), "--capacities", "5 parsecs")
    assert code == 1 and "'5 parsecs' is not a size" in err and len(err.strip().splitlines()) == 1


def test_a_plan_report_that_could_not_be_written_is_refused_before_the_plan_is_printed(capsys, tmp_path):
    code, out, err = run(
        capsys, "plan", "--workload", str(EXAMPLE_WORKLOAD), "--report", str(tmp_path / "p.docx")
    )
    assert (code, out) == (2, "") and "name it .html or .pdf" in err
    mine = tmp_path / "p.html"
    mine.write_text("mine")
    code, out, err = run(capsys, "plan", "--workload", str(EXAMPLE_WORKLOAD), "--report", str(mine))
    assert (code, out) == (1, "") and "exists; pass --overwrite" in err and mine.read_text() == "mine"
