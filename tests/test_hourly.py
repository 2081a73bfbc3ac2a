"""Hourly workload files: the columns, checked rows with located errors, streaming, limits."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from vtsmodel.hourly import (
    COLUMNS,
    MAX_FILE_BYTES,
    MAX_HOURS,
    OPTIONAL_COLUMNS,
    REQUIRED_COLUMNS,
    HourlyWorkload,
    iter_hourly_rows,
    read_hourly_workload,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "example_hourly_workload.csv"
HEAD = "hour,host_write_mb,host_read_mb"


def test_the_example_workload_loads_and_says_it_is_illustrative():
    w = read_hourly_workload(EXAMPLE)
    assert w.name == "example_hourly_workload"
    assert w.hours == 24
    assert set(w.columns) == set(COLUMNS)  # it shows every column
    assert "Illustrative" in w.notes and "NOT measured data" in w.notes
    assert np.array_equal(w.columns["hour"], np.arange(24))
    # the rule the header comment states: mounts are MB / 800 MB volumes, 70 % of read mounts hit
    reads = w.columns["read_hit_mounts"] + w.columns["recall_mounts"]
    assert np.allclose(reads, np.round(w.read_mb / 800.0), atol=0.5)
    assert np.allclose(w.columns["fast_ready_mounts"], np.round(w.write_mb / 800.0), atol=0.5)
    assert w.read_hit_by_mounts() == pytest.approx(0.7, abs=0.01)


def test_columns_are_declared_with_units_and_required_ones_named():
    assert REQUIRED_COLUMNS == ("hour", "host_write_mb", "host_read_mb")
    assert set(OPTIONAL_COLUMNS) == {
        "fast_ready_mounts",
        "read_hit_mounts",
        "recall_mounts",
        "max_virtual_drives",
    }
    assert COLUMNS["host_write_mb"].unit == "MB" and COLUMNS["hour"].unit == "h"
    assert all("Sec. 8.5" in c.source for c in COLUMNS.values())


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (f"{HEAD}\n0,100,5\n1,-3,5\n", 3, ["host_write_mb=-3", "[0, 10000000]"]),
        (f"{HEAD}\n0,100,5\n1,lots,5\n", 3, ["host_write_mb='lots'", "not a number"]),
        (f"{HEAD}\n0,nan,5\n", 2, ["host_write_mb='nan'", "finite"]),
        (f"{HEAD}\n0,1e300,5\n", 2, ["host_write_mb=1e+300", "[0, 10000000]"]),
        (f"{HEAD}\n0,100,\n", 2, ["host_read_mb is empty"]),
        (f"{HEAD}\n0,100,5\n2,100,5\n", 3, ["hour=2 must be 1"]),
        (f"{HEAD}\n1,100,5\n", 2, ["hour=1 must be 0"]),
        (f"{HEAD}\n0,100\n", 2, ["expected 3 values"]),
        (f"{HEAD},recall_mounts\n0,100,5,2.5\n", 2, ["recall_mounts=2.5", "whole number"]),
        (f"{HEAD},max_virtual_drives\n0,100,5,-1\n", 2, ["max_virtual_drives=-1"]),
        (f"# comment\n\n{HEAD},speed\n0,1,2,3\n", 3, ["unknown column", "'speed'"]),
        ("hour,host_write_mb\n0,1\n", 1, ["lacks the required column", "host_read_mb"]),
        (f"{HEAD},hour\n0,1,2,0\n", 1, ["more than once"]),
    ],
)
def test_a_bad_row_is_rejected_naming_the_line_field_value_and_range(text, line, words):
    with pytest.raises(ValueError) as err:
        read_hourly_workload(text)
    msg = str(err.value)
    assert msg.startswith(f"line {line}:"), msg
    for w in words:
        assert w in msg, msg


def test_rows_are_streamed_and_checked_one_line_at_a_time():
    text = f"{HEAD}\n0,1,1\n1,2,2\n2,bad,3\n3,4,4\n"
    rows = iter_hourly_rows(io.StringIO(text))
    assert next(rows)["host_write_mb"] == 1.0
    assert next(rows)["host_write_mb"] == 2.0  # read before the bad line is reached
    with pytest.raises(ValueError, match=r"^line 4: host_write_mb='bad'"):
        next(rows)
    with pytest.raises(ValueError, match="line 4"):  # the whole file: nothing half-loaded
        read_hourly_workload(text)


def test_a_workload_holds_at_most_a_week():
    ok = HEAD + "\n" + "".join(f"{h},1,1\n" for h in range(MAX_HOURS))
    assert read_hourly_workload(ok).hours == MAX_HOURS
    with pytest.raises(ValueError, match=f"line {MAX_HOURS + 2}: more than {MAX_HOURS} hours"):
        read_hourly_workload(ok + f"{MAX_HOURS},1,1\n")


def test_files_that_are_too_large_or_not_text_are_rejected(tmp_path):
    big = tmp_path / "big.csv"
    big.write_text(HEAD + "\n" + "#" * (MAX_FILE_BYTES + 10) + "\n")
    with pytest.raises(ValueError, match="larger than"):
        read_hourly_workload(big)
    with pytest.raises(ValueError, match="not UTF-8"):
        read_hourly_workload(HEAD.encode() + b"\n0,\xff1,1\n")
    # what a spreadsheet's "Unicode text" export writes: named as such, with the way out
    wide = (HEAD + "\n0,1,1\n").encode("utf-16")
    (tmp_path / "wide.csv").write_bytes(wide)
    for source in (wide, tmp_path / "wide.csv", io.BytesIO(wide)):
        with pytest.raises(
            ValueError,
            match=r"is UTF-16 text \(it begins with UTF-16's byte-order mark\); save the workload file as UTF-8",
        ):
            read_hourly_workload(source)
    with pytest.raises(ValueError, match="longer than"):
        read_hourly_workload(f"{HEAD}\n0,1,{'1' * 3000}\n")
    with pytest.raises(ValueError, match="no such file"):
        read_hourly_workload(tmp_path / "missing.csv")
    with pytest.raises(ValueError, match="a folder"):
        read_hourly_workload(tmp_path)
    with pytest.raises(ValueError, match="no header"):
        read_hourly_workload("# only a comment\n\n")


def test_a_spreadsheets_european_csv_reads_as_the_example():
    # Saved by a spreadsheet set to German or French: semicolons, decimal commas; or tab-separated.
    text = EXAMPLE.read_text()
    rows = [line for line in text.splitlines() if not line.startswith("#")]
    want = read_hourly_workload(EXAMPLE).rows()
    for sep in (";", "\t"):
        assert read_hourly_workload("\n".join(r.replace(",", sep) for r in rows) + "\n").rows() == want
    eu = "\n".join(r.replace(",", ";") for r in rows) + "\n"
    assert read_hourly_workload(eu.replace("250000", "250000,5", 1)).rows()[0]["host_write_mb"] == 250000.5
    with pytest.raises(
        ValueError, match=r"line 2: host_write_mb='250.000' may be 250000 grouped in thousands"
    ):
        read_hourly_workload(eu.replace("250000", "250.000", 1))


def test_bytes_file_objects_paths_and_text_read_the_same(tmp_path):
    text = EXAMPLE.read_text()
    path = tmp_path / "day.csv"
    path.write_text(text)
    expected = read_hourly_workload(EXAMPLE).rows()
    assert read_hourly_workload(text.encode()).rows() == expected
    assert read_hourly_workload(io.StringIO(text)).rows() == expected
    assert read_hourly_workload(io.BytesIO(text.encode())).rows() == expected  # an upload
    offset = len(text.encode())  # the bad byte is the first after the example's 33 lines
    with pytest.raises(ValueError, match=rf"line 34 is not UTF-8 text \(byte 0xff at byte offset {offset}\)"):
        read_hourly_workload(io.BytesIO(text.encode() + b"\xff\xfe,1\n"))
    with open(path, encoding="utf-8") as fh:
        assert read_hourly_workload(fh).name == "day"
    assert read_hourly_workload(str(path)).rows() == expected


def test_to_csv_round_trips_rows_and_notes():
    w = read_hourly_workload(EXAMPLE)
    back = read_hourly_workload(w.to_csv(), name=w.name)
    assert back.rows() == w.rows() and back.notes == w.notes


def test_from_rows_checks_each_row_and_names_it():
    rows = [
        {"hour": 0, "host_write_mb": 1.0, "host_read_mb": 2.0},
        {"hour": 1, "host_write_mb": -1, "host_read_mb": 0},
    ]
    with pytest.raises(ValueError, match=r"^row 2: host_write_mb=-1"):
        HourlyWorkload.from_rows(rows)
    with pytest.raises(ValueError, match="no hours"):
        HourlyWorkload.from_rows([])
    w = HourlyWorkload.from_rows(rows[:1])
    assert w.write_mb_s[0] == pytest.approx(1.0 / 3600.0)


def test_derived_numbers_and_scaling():
    w = read_hourly_workload(EXAMPLE)
    assert w.mean_volume_written_mb() == pytest.approx(
        w.write_mb.sum() / w.columns["fast_ready_mounts"].sum()
    )
    s = w.scaled(write=2.0, read=0.5)
    assert np.allclose(s.write_mb, 2 * w.write_mb) and np.allclose(s.read_mb, 0.5 * w.read_mb)
    assert np.allclose(s.columns["recall_mounts"], 0.5 * w.columns["recall_mounts"])
    assert s.read_hit_by_mounts() == pytest.approx(w.read_hit_by_mounts())
    with pytest.raises(ValueError):
        w.columns["host_write_mb"][0] = 1.0  # read-only
    bare = read_hourly_workload(f"{HEAD}\n0,1,1\n")
    assert bare.read_hit_by_mounts() is None and bare.mean_volume_written_mb() is None
