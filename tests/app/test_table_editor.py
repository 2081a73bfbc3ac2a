"""The HTML table editor's Python side (vtsmodel.app.tables): what it sends the page, what it
does with the page's messages, the columns' parsing and formatting, rejections.

The page (``_table.js``) sends ``{"kind": "edit", row, key, text}`` when a person commits a
cell, and sets the ``selected`` row when the focus moves to another row (a state update,
as ipywidgets applies it: ``set_state``); the messages here are those. Each test counts the
messages the widget sends (its ``_send``), as the page receives them. The page's side is
driven in Chromium by tests/browser/test_lesson05.py, test_sheet.py and test_lesson02.py.
"""

from __future__ import annotations

import pytest

from vtsmodel import Input
from vtsmodel.app.tables import Column, TableEditor

RATE = Input("rate", "MB/s", 100.0, lo=0.0, hi=1000.0)
COUNT = Input("count", "-", 2, lo=1, hi=10, integer=True)
NAME = Input("name", "", "a")
COLUMNS = [
    Column.of("name", NAME),
    Column.of("rate", RATE),
    Column.of("count", COUNT),
    Column("total", "total [MB/s]"),
]


def rows_of(values):
    return [{"name": n, "rate": r, "count": c, "total": r * c} for n, r, c in values]


class Owner:
    """An owner as a page has one: its model, checked across cells, shown after each edit."""

    def __init__(self, values=(("a", 100.0, 2), ("b", 50.5, 1))):
        self.values = [list(v) for v in values]
        self.table = TableEditor(
            COLUMNS, rows_of(self.values), on_edit=self.on_edit, on_select=self.on_select
        )
        self.selected = []
        self.sent = []
        self.table.view._send = lambda msg, buffers=None: self.sent.append(msg)

    def on_edit(self, row, key, value):
        i = ("name", "rate", "count").index(key)
        after = [*self.values[row][:i], value, *self.values[row][i + 1 :]]
        if after[1] * after[2] > 500:
            raise ValueError(f"rate × count = {after[1] * after[2]:g} MB/s is over the link's 500 MB/s")
        self.values[row] = after
        self.table.update_rows(rows_of(self.values))

    def on_select(self, row):
        self.selected.append(row)

    def page(self, *, focus=True, **content):
        """A message from the page; an edit after its cell took the focus (which selects its row)."""
        if focus and content.get("kind") == "edit":
            self.page_selects(content["row"])  # sends nothing back (its own selection)
        self.table._on_msg(self.table.view, content, [])

    def page_selects(self, row):
        """The page's state update when a person moves to a cell of ``row``."""
        self.table.view.set_state({"selected": row})

    def updates(self):
        return [m["state"] for m in self.sent if m["method"] == "update"]


def test_the_page_gets_columns_with_their_kind_and_the_cells_as_text():
    t = Owner().table
    cols = t.view.columns
    assert [c["header"] for c in cols] == ["name", "rate [MB/s]", "count [-]", "total [MB/s]"]
    assert [c["editable"] for c in cols] == [True, True, True, False]  # a computed column is not an input
    assert [c["numeric"] for c in cols] == [False, True, True, True]  # numbers right-aligned
    # plain digits, as the input formats them; the computed column by number(value, 4)
    assert t.view.rows == [["a", "100", "2", "200"], ["b", "50.5", "1", "50.5"]]


def test_an_edit_is_parsed_applied_and_answered_in_one_message():
    o = Owner()
    o.page(kind="edit", row=0, key="rate", text=" 150 ")
    assert o.values[0] == ["a", 150.0, 2]
    assert len(o.updates()) == 1  # the rows and the edit's outcome together
    (state,) = o.updates()
    assert state["rows"] == [["a", "150", "2", "300"], ["b", "50.5", "1", "50.5"]]
    assert state["status"] == {"seq": 1, "row": 0, "key": "rate", "ok": True, "message": ""}
    assert o.table.message.value.endswith("row 1: rate [MB/s] = 150</span>")


def test_an_edit_shown_as_it_was_sends_only_its_outcome():
    # "100.0" is the 100 the cell holds: nothing to redraw, but the page shows "100" again.
    o = Owner()
    o.page(kind="edit", row=0, key="rate", text="100.0")
    assert [set(s) for s in o.updates()] == [{"status"}]
    assert o.table.view.status["ok"] and o.table.view.rows[0][1] == "100"


@pytest.mark.parametrize(
    "key, text, words",
    [
        ("rate", "abc", "rate='abc' is not a number"),
        ("rate", "-1", "outside the valid range [0, 1000]"),
        ("count", "2.5", "count"),
        ("rate", "600", "over the link's 500 MB/s"),  # the owner's check across cells
        ("total", "3", "total [MB/s] is computed from the other columns"),
    ],
)
def test_a_rejected_edit_keeps_the_value_and_says_why_in_the_status(key, text, words):
    o = Owner()
    before = o.table.view.rows
    o.page(kind="edit", row=1, key=key, text=text)
    assert o.values[1] == ["b", 50.5, 1] and o.table.view.rows == before
    (state,) = o.updates()
    assert set(state) == {"status"}  # the rows did not change: the page shows the kept text
    status = state["status"]
    assert status["ok"] is False and status["row"] == 1 and status["key"] == key
    assert words in status["message"] and status["message"].startswith("row 2: rejected: ")
    assert "⚠" in o.table.message.value and "vtsmodel-grid-error" in o.table.message.value


def test_edits_are_counted_so_the_same_outcome_twice_still_reaches_the_page():
    o = Owner()
    o.page(kind="edit", row=0, key="rate", text="abc")
    o.page(kind="edit", row=0, key="rate", text="abc")
    assert [s["status"]["seq"] for s in o.updates()] == [1, 2]


def test_selection_tells_the_owner_once_per_row():
    o = Owner()
    o.page_selects(0)  # the first row is selected at first
    o.page_selects(1)
    o.page_selects(1)
    assert o.selected == [1] and o.table.selected == 1
    assert [s for s in o.updates() if "selected" in s] == []  # the page's own selection is not sent back
    o.page(
        kind="edit", row=0, key="name", text="c", focus=False
    )  # an edit selects its row, in its one message
    assert o.selected == [1, 0] and o.table.selected == o.table.view.selected == 0
    assert [set(s) for s in o.updates()] == [{"selected", "rows", "status"}]


def test_the_owner_selects_a_row_and_the_page_follows_but_not_a_row_that_is_not_there():
    o = Owner()
    o.table.selected = 1  # a scenario chosen from a list: the page marks it, the owner is not told again
    assert o.table.view.selected == 1 and o.updates() == [{"selected": 1}] and o.selected == []
    o.sent.clear()
    o.page_selects(7)  # no such row: the page is told the selection kept
    assert o.table.selected == 1 and o.updates() == [{"selected": 1}] and o.selected == []


@pytest.mark.parametrize(
    "content",
    [
        {"kind": "edit", "row": 5, "key": "rate", "text": "1"},
        {"kind": "edit", "row": -1, "key": "rate", "text": "1"},
        {"kind": "edit", "row": 0, "key": "nope", "text": "1"},
        {"kind": "edit", "row": 0, "key": "rate", "text": 1},
        {"kind": "edit", "row": "0", "key": "rate", "text": "1"},
        {"kind": "select", "row": 1},
        {"kind": "select", "row": "x"},
        {"kind": "edit", "row": True, "key": "rate", "text": "1"},
        ["edit", 0],
        {"kind": "other"},
    ],
)
def test_a_message_no_page_of_ours_sends_changes_nothing(content):
    o = Owner()
    o.table._on_msg(o.table.view, content, [])
    assert o.sent == [] and o.values == [["a", 100.0, 2], ["b", 50.5, 1]] and o.selected == []


def test_new_rows_go_in_one_message_and_none_when_nothing_changed():
    o = Owner()
    o.table.update_rows(rows_of(o.values))
    assert o.sent == []
    o.table.update_rows(rows_of([("a", 100.0, 2), ("b", 60.0, 1), ("c", 1.0, 1)]))  # a row added
    o.table.set_row(0, {"count": 3, "total": 300.0})
    assert [list(s) for s in o.updates()] == [["rows"], ["rows"]]
    assert o.table.view.rows[0] == ["a", "100", "3", "300"] and len(o.table.view.rows) == 3
    o.table.selected = 2
    o.table.set_rows(rows_of(o.values[:1]))  # rows removed: the selection stays inside
    assert o.table.selected == o.table.view.selected == 0 and len(o.table.view.rows) == 1


def test_an_editor_without_an_owner_keeps_the_value_and_shows_it():
    t = TableEditor(COLUMNS, rows_of([("a", 1.0, 1)]))
    t._on_msg(t.view, {"kind": "edit", "row": 0, "key": "count", "text": "4"}, [])
    assert t.rows[0]["count"] == 4 and t.view.rows[0][2] == "4" and t.view.status["ok"]


def test_a_computed_column_of_text_is_not_right_aligned():
    t = TableEditor([Column.of("rate", RATE), Column("kind", "kind"), Column("ok", "ok")],
                    [{"rate": 1.0, "kind": "disk", "ok": True}])  # fmt: skip
    assert [c["numeric"] for c in t.view.columns] == [True, False, False]
    assert t.view.rows == [["1", "disk", "yes"]]


def test_empty_optional_cells_and_missing_values_show_empty_never_nan():
    opt = Input("eff", "-", 0.5, lo=0.01, hi=1.0, optional=True)
    t = TableEditor(
        [Column.of("eff", opt), Column("used", "used [-]")], [{"eff": None, "used": float("nan")}]
    )
    assert t.view.rows == [["", ""]]
    t._on_msg(t.view, {"kind": "edit", "row": 0, "key": "eff", "text": "0.25"}, [])
    assert t.rows[0]["eff"] == 0.25 and t.view.rows[0][0] == "0.25"
    t._on_msg(t.view, {"kind": "edit", "row": 0, "key": "eff", "text": ""}, [])
    assert t.rows[0]["eff"] is None and t.view.rows[0][0] == ""


def test_title_height_and_widths_reach_the_page():
    t = TableEditor(COLUMNS, rows_of([("a", 1.0, 1)]), title="<b>Flows</b>", height="300px", width="600px",
                    widths={"name": 140})  # fmt: skip
    assert t.view.caption == "<b>Flows</b>" and t.view.max_height == "300px"
    assert [c["min_px"] for c in t.view.columns] == [140, 72, 72, 72] and t.widget.layout.width == "600px"
    assert not t.view.mark_selected and TableEditor(COLUMNS, [], mark_selected=True).view.mark_selected


def test_each_head_says_what_its_column_accepts():
    opt = Input("eff", "-", 0.5, lo=0.01, hi=1.0, optional=True, help="Drive efficiency.")
    t = TableEditor([*COLUMNS, Column.of("eff", opt)], [])
    hints = {c["key"]: c["hint"] for c in t.view.columns}
    assert hints["rate"] == "Accepts [0, 1000]."
    assert (
        hints["count"] == "Accepts whole numbers in [1, 10]."
        and hints["name"] == "Accepts text of 1 to 60 characters."
    )
    assert hints["total"] == "computed from the other columns"
    assert hints["eff"] == "Drive efficiency. Accepts [0.01, 1] or empty."


def test_an_editable_number_shows_the_digits_a_person_types_back():
    # "1,000" in a cell a person edits would come back refused (parse reads no separator:
    # a comma may be a decimal one); a computed cell keeps its thousands grouped.
    size = Input("file size", "MB", 1000.0, lo=0.1, hi=1e5)
    rate = Input("rate", "IO/s", 163000, lo=0, hi=10**6, integer=True)
    t = TableEditor([Column.of("size", size), Column.of("rate", rate), Column("total", "total [MB]")],
                    [{"size": 1000.0, "rate": 163000, "total": 12500.0}])  # fmt: skip
    assert t.view.rows == [["1000", "163000", "12,500"]]
    t._on_msg(t.view, {"kind": "edit", "row": 0, "key": "size", "text": "1200"}, [])
    assert t.rows[0]["size"] == 1200.0 and t.view.rows[0][0] == "1200"
