"""CSV cells a spreadsheet opens safely: RFC 4180 quoting, OWASP's formula guard, numbers kept."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vtsmodel._csv import cell, csv_row, csv_text, guard, unguard


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-cmd", "'-cmd"),
        ("@A1", "'@A1"),
        ("\tx", "'\tx"),
        ("\rx", '"\'\rx"'),
        ("'x", "''x"),
        ("plain", "plain"),
        ("-3.5", "-3.5"),  # a number stays a number (OWASP's rule is for text)
        ("1e-6", "1e-6"),
        (-3.5, "-3.5"),
        (np.float64(-0.25), "-0.25"),
        (np.int64(-7), "-7"),
        (None, ""),
        ("a,b", '"a,b"'),
        ('say "hi"', '"say ""hi"""'),
        ("two\nlines", '"two\nlines"'),
    ],
)
def test_cells(value, written):
    # OWASP, CSV Injection: "Ensure that no cells begin with any of the following characters:
    # Equals to (=), Plus (+), Minus (-), At (@), Tab (0x09), Carriage return (0x0D)"
    assert cell(value) == written


@given(
    st.lists(
        st.lists(
            st.one_of(st.text(max_size=8), st.floats(allow_nan=False), st.integers()), min_size=1, max_size=5
        ),
        min_size=1,
        max_size=5,
    )
)
def test_rows_read_back_and_no_text_cell_starts_a_formula(rows):
    text = csv_text(rows)
    back = list(csv.reader(io.StringIO(text, newline="")))
    assert len(back) == len(rows)
    for got, want in zip(back, rows, strict=True):
        for g, w in zip(got, want, strict=True):
            if isinstance(w, str):
                assert unguard(g) == w
                assert not g.startswith(("=", "+", "-", "@", "\t", "\r")) or g == w
            else:
                # numbers exactly as they were (an integer read as one: floats stop at 2**53)
                assert (int(g) if isinstance(w, int) else float(g)) == w


def test_guard_and_unguard_are_inverse():
    for text in ["=x", "'", "''", "'=", "a", "-", "-1", "+2e3"]:
        assert unguard(guard(text)) == text
    assert csv_row(["=x", 1, 2.5], delimiter=";") == "'=x;1;2.5\n"


def test_every_csv_the_project_writes_guards_text_and_keeps_numbers():
    # issue 23: scenario sheets, mount logs, hit tables and plan tables all write through vtsmodel._csv
    from vtsmodel.app.export import csv_text as sheet_csv
    from vtsmodel.app.lessons import lesson_module
    from vtsmodel.app.scenarios import ScenarioSheet

    text = sheet_csv([{"name": "=HYPERLINK(1)", "value": -3.5}, {"name": "@x", "value": 2}], caption="a, b")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ["'=HYPERLINK(1)", "-3.5"] and rows[2] == ["'@x", "2"] and rows[-1] == ["# a", " b"]
    sheet = ScenarioSheet(lesson_module("01"))
    sheet.rename(0, "+1-1")
    names = [r[0] for r in csv.reader(io.StringIO(sheet.to_csv())) if r and not r[0].startswith("#")][1:]
    assert names[0] == "'+1-1"
