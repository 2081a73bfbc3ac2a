"""Tables a lesson shows: every head stands aligned with its column's cells.

A notebook's output and Voila right-align a cell unless told; a table whose heads are left and
whose cells are right (or the reverse) reads as misaligned. Each cell here says its alignment,
and each head takes its column's.
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import pytest

from vtsmodel.app.figures import source_table_html
from vtsmodel.app.lessons import drive_rates, hit_curve, planner, sizing, start, write
from vtsmodel.data import statements


class _Table(HTMLParser):
    """Rows of (tag, text-align, colspan) per cell."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, str, int]]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th") and self.rows:
            m = re.search(r"text-align:\s*(\w+)", a.get("style") or "")
            self.rows[-1].append((tag, m.group(1) if m else "", int(a.get("colspan") or 1)))


def _misaligned(page: str) -> list[str]:
    t = _Table()
    t.feed(page)
    head, *body = [r for r in t.rows if r]
    cells = [r for r in body if len(r) == len(head) and all(span == 1 for _t, _a, span in r)]
    problems = []
    for i, (_tag, align, _span) in enumerate(head):
        col = Counter(r[i][1] for r in cells)
        if "" in col:
            problems.append(f"column {i}: a cell without its alignment")
        elif cells and align != col.most_common(1)[0][0]:
            problems.append(f"column {i}: head {align or 'unaligned'}, cells {dict(col)}")
    return problems


TABLES = {
    "lesson 01 sources": lambda: source_table_html(write.SOURCE_ROWS),
    "lesson 05 sources": lambda: source_table_html(sizing.SOURCE_ROWS),
    "lesson 04 drive catalog": drive_rates.catalog_html,
    "lesson 07 answers": planner.answers_table_html,
    "lesson 07 assumptions": planner.assumptions_html,
    "lesson 08 log columns": hit_curve.columns_html,
    "start: lessons": start.lessons_html,
    "start: ledger counts": start.ledger_counts_html,
    "start: ledger": lambda: start.ledger_html(statements()[:20]),
}


@pytest.mark.parametrize("name", TABLES)
def test_heads_are_aligned_with_their_cells(name):
    assert _misaligned(TABLES[name]()) == []


def test_the_check_finds_a_head_over_cells_of_the_other_side():
    page = "<table><tr><th style='text-align:left'>value</th></tr><tr><td style='text-align:right'>1</td></tr></table>"
    assert _misaligned(page) == ["column 0: head left, cells {'right': 1}"]
