"""One editable grid for every sheet: scenarios, workload profiles, flow tables.

A :class:`GridEditor` shows rows of values in an ipydatagrid ``DataGrid``. Its columns
are declared with :class:`Column`: an editable column carries an :class:`~vtsmodel.Input`,
which parses what a person types (numbers as ``float``, never evaluated; a choice by its
label or value) and formats what the grid shows (plain digits, a choice's label, empty
for a missing value, never ``NaN``); a computed column is grey and refuses edits.

Every cell holds the text the kernel put there, so the grid's echo of a value the kernel
wrote (the browser reports it back as an edit) is recognised by equality and ignored: a
rejected edit's message stays on screen, and nothing loops. An accepted edit goes to the
owner's ``on_edit(row, key, value)``, which applies it to its model and may still reject
it with ``ValueError`` (a constraint across cells: times in order); either way the grid
shows the model's value afterwards.

This module imports ipywidgets and ipydatagrid (with pandas); ``import vtsmodel`` does not.
"""

from __future__ import annotations

import html
import math
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import ipywidgets as w

from vtsmodel import Input, number

__all__ = ["ROW_HEADER", "Column", "GridEditor", "header_widths"]

#: The head of the rows' numbers (1, 2, ...), which messages use: "row 2: ...".
ROW_HEADER = "row"
#: Width [px] of the rows' numbers; height [px] of a head of two lines (the 12 px font).
ROW_HEADER_PX, TWO_LINE_HEAD_PX = 48, 34
#: The most changed rows :meth:`GridEditor.update_rows` sends one by one (more: the whole table).
ROWS_IN_PLACE = 2


@dataclass(frozen=True)
class Column:
    """One column of a grid.

    Attributes
    ----------
    key : str
        The key of the column's values in a row.
    header : str
        What the column's head shows (with the unit).
    input : Input, optional
        For an editable column, its declaration; ``None`` for a computed column.
    """

    key: str
    header: str
    input: Input | None = None

    @classmethod
    def of(cls, key: str, inp: Input) -> Column:
        """An editable column of input ``inp``, headed by its label and unit."""
        return cls(key, inp.header, inp)

    def text(self, value) -> str:
        """The cell text of ``value``: a choice's label, plain digits, empty when missing."""
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ""
        if self.input is not None:
            return self.input.format(value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int | float):
            return number(value, 4)
        return str(value)


def header_widths(headers, *, lines: int = 1, min_px: int | None = None, max_px: int = 260) -> dict[str, int]:
    """Column widths [px] that show each header whole, on one line or at most ``lines`` lines.

    One line: about 7 px a character at the 12 px font (a wide margin), at least 90 px.
    Several: the head breaks a header where a space precedes a word (``files per`` over
    ``mount [-]``; a unit in brackets stays with the word before it), about 6 px a
    character (12 px sans-serif measures 4.4-5.7 px in Chromium), at least 72 px. Both
    leave 28 px for the padding and the column's menu.
    """
    if min_px is None:
        min_px = 90 if lines < 2 else 72
    per_char = 7 if lines < 2 else 6

    def longest_line(text: str) -> int:
        words = re.split(r"\s(?=\w)", text)
        if lines < 2 or len(words) < 2:
            return len(text)
        return min(max(len(" ".join(words[:k])), len(" ".join(words[k:]))) for k in range(1, len(words)))

    return {str(h): int(min(max_px, max(min_px, per_char * longest_line(str(h)) + 28))) for h in headers}


def _datagrid():
    with warnings.catch_warnings():
        # ipydatagrid pulls in bqplot/bqscales, which warn on import with current traitlets
        warnings.simplefilter("ignore", DeprecationWarning)
        from ipydatagrid import DataGrid, TextRenderer
    return DataGrid, TextRenderer


class GridEditor:
    """An editable grid of rows, parsed and formatted by its columns' inputs.

    Parameters
    ----------
    columns : sequence of Column
        In display order.
    rows : sequence of mapping
        The rows' values by column key.
    on_edit : callable, optional
        ``on_edit(row, key, value)`` with the parsed value of an accepted edit; raise
        ``ValueError`` to reject it. The owner then calls :meth:`set_rows` or
        :meth:`set_row` with its model's values.
    on_select : callable, optional
        ``on_select(row)`` when a person selects a cell of another row.
    title : str
        A line above the grid (HTML is escaped).
    height : str
        CSS height of the grid.
    width : str, optional
        CSS width of the grid; default as wide as its columns (at most its container's
        width). The page's grid paints on a canvas sized in steps of 512 px to its width,
        and copies that canvas once per column on every redraw, so a grid no wider than
        its columns redraws in less time (lesson 05: 1024 px instead of 1536 px).
    widths : mapping of str to int, optional
        Column widths [px] by key, over the default (:func:`header_widths`).
    head_lines : int
        1: each header on one line; 2: a header may take two lines (narrower columns).

    Attributes
    ----------
    message : ipywidgets.HTML
        The last rejection or confirmation, beside the grid; it stays until the next edit.
    widget : ipywidgets.VBox
        What ``display`` shows.
    """

    def __init__(
        self,
        columns: Sequence[Column],
        rows: Sequence[Mapping],
        *,
        on_edit: Callable[[int, str, object], None] | None = None,
        on_select: Callable[[int], None] | None = None,
        title: str = "",
        height: str = "170px",
        width: str | None = None,
        widths: Mapping[str, int] | None = None,
        head_lines: int = 1,
    ) -> None:
        DataGrid, TextRenderer = _datagrid()
        self.columns = list(columns)
        self._by_header = {c.header: c for c in self.columns}
        self.on_edit = on_edit
        self.on_select = on_select
        self._rows = [dict(r) for r in rows]
        self._writing = False
        self.selected = 0
        grey = TextRenderer(background_color="#EFEFEF", text_color="#333")
        right = TextRenderer(horizontal_alignment="right")
        renderers = {
            c.header: grey
            if c.input is None
            else (right if c.input.kind in ("number", "int") else TextRenderer())
            for c in self.columns
        }
        by_key = {c.key: c.header for c in self.columns}
        column_widths = header_widths((c.header for c in self.columns), lines=head_lines)
        column_widths |= {by_key[k]: int(v) for k, v in (widths or {}).items()}
        # the viewport is 6 px narrower than the grid (its borders): no scroll bar for the last pixels
        width = width or f"{ROW_HEADER_PX + sum(column_widths.values()) + 8}px"
        head_style = (
            {
                "header_renderer": TextRenderer(text_wrap=True, vertical_alignment="top"),
                "base_column_header_size": TWO_LINE_HEAD_PX,
            }
            if head_lines > 1
            else {}
        )
        self.grid = DataGrid(
            self._frame(), editable=True, selection_mode="cell", renderers=renderers, base_column_size=110,
            column_widths=column_widths, base_row_header_size=ROW_HEADER_PX, **head_style,
            layout={"height": height, "width": width, "max_width": "100%"},
        )  # fmt: skip
        self.grid.on_cell_change(self._on_cell)
        self.grid.observe(self._on_selection, names="selections")
        self.grid.add_class("vtsmodel-grid")
        self.message = w.HTML(layout=w.Layout(min_height="1.6em"))
        self.message.add_class("vtsmodel-grid-message")
        head = [w.HTML(title)] if title else []
        # the box as wide as the grid from the start: the grid sizes its canvas to the first width it sees
        self.widget = w.VBox([*head, self.grid, self.message], layout=w.Layout(width=width, max_width="100%"))

    # --- what the grid shows -------------------------------------------------------------------
    def _frame(self):
        import pandas as pd

        data = {c.header: [c.text(r.get(c.key)) for r in self._rows] for c in self.columns}
        # rows numbered from 1 under the head "row", as every message numbers them
        index = pd.RangeIndex(1, len(self._rows) + 1, name=ROW_HEADER)
        return pd.DataFrame(data, columns=[c.header for c in self.columns], index=index, dtype=object)

    @property
    def rows(self) -> list[dict]:
        """A copy of the rows as the grid holds them (values, not text)."""
        return [dict(r) for r in self._rows]

    def cell_text(self, row: int, key: str) -> str:
        """The text a cell shows."""
        col = next(c for c in self.columns if c.key == key)
        return col.text(self._rows[row].get(key))

    def set_rows(self, rows: Sequence[Mapping]) -> None:
        """Show new rows (after rows were added, deleted or loaded)."""
        self._rows = [dict(r) for r in rows]
        self._writing = True
        try:
            self.grid.data = self._frame()
        finally:
            self._writing = False
        self.selected = min(self.selected, max(len(self._rows) - 1, 0))

    def set_row(self, i: int, row: Mapping) -> None:
        """Show new values of row ``i``; nothing is sent when no cell's text changed."""
        old = self._rows[i]
        self._rows[i] = {**old, **row}
        if self._texts(self._rows[i]) != self._texts(old):
            self._send_row(i)

    def update_rows(self, rows: Sequence[Mapping]) -> None:
        """Show the rows' new values: a changed row in place, or the whole table in one message.

        The page's grid redraws once per message. A row sent in place is one redraw; the
        whole table (:meth:`set_rows`) is a redraw, each column's width set again (a redraw
        each) and the selection cleared: about as much as three rows in place (lesson 05 in
        Chromium, its 1024 px canvas, CPU profile: the grid's drawing an edit, its commit
        included, 345 ms with three rows in place, 360 ms with the table, on a loaded machine).
        Up to :data:`ROWS_IN_PLACE` changed rows go in place, more as the whole table.
        """
        rows = [dict(r) for r in rows]
        if len(rows) != len(self._rows):
            self.set_rows(rows)
            return
        changed = [
            i
            for i, (a, b) in enumerate(zip(self._rows, rows, strict=True))
            if self._texts(a) != self._texts(b)
        ]
        if len(changed) > ROWS_IN_PLACE:
            self.set_rows(rows)
            return
        self._rows = rows
        for i in changed:
            self._send_row(i)

    def _texts(self, row: Mapping) -> list[str]:
        return [c.text(row.get(c.key)) for c in self.columns]

    def _send_row(self, i: int) -> None:
        """Send row ``i`` as the page shows it: one message, no echo.

        A row goes whole, never cell by cell: the page's grid redraws on each message, and a
        cell written from here comes back as an edit to ignore; a row does not.
        """
        self._writing = True
        try:
            # by the row's number (the frame's index)
            self.grid.set_row_value(i + 1, self._texts(self._rows[i]))
        finally:
            self._writing = False

    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` under the grid (in red with a sign when ``error``)."""
        color, sign = ("#B00020", "⚠ ") if error else ("#333", "")
        kind = "error" if error else "info"
        self.message.value = (
            f"<span class='vtsmodel-grid-{kind}' style='color:{color}'>{sign}{html.escape(text)}</span>"
        )

    # --- edits ----------------------------------------------------------------------------------
    def _on_cell(self, cell) -> None:
        if self._writing:
            return
        row, header, value = int(cell["row"]), str(cell["column"]), cell["value"]
        col = self._by_header.get(header)
        if col is None or not 0 <= row < len(self._rows):
            return
        shown = col.text(self._rows[row].get(col.key))
        if (value if isinstance(value, str) else col.text(value)) == shown:
            return  # the browser's echo of what the kernel wrote, or a cell left as it was
        accepted = self.edit(row, col.key, value)
        if accepted and self.grid.get_cell_value_by_index(header, row) != self.cell_text(row, col.key):
            self._send_row(row)  # accepted as typed ("100.0"), shown as the kernel writes it ("100")

    def edit(self, row: int, key: str, value) -> bool:
        """Apply an edit as a person types it; return whether it was accepted.

        A rejected edit shows its reason (the input's name, the value, the valid range)
        under the grid, and the cell shows the value it had.
        """
        col = next((c for c in self.columns if c.key == key), None)
        if col is None:
            raise KeyError(f"no column {key!r}; columns: {', '.join(c.key for c in self.columns)}")
        old = self._rows[row].get(key)
        try:
            if col.input is None:
                raise ValueError(f"{col.header} is computed from the other columns; it cannot be edited")
            parsed = col.input.parse(col.input.label, value)
            if self.on_edit is not None:
                self.on_edit(row, key, parsed)
            else:
                self._rows[row][key] = parsed
        except ValueError as exc:
            self.say(f"row {row + 1}: rejected: {exc}; kept {col.text(old) or 'empty'}", error=True)
            self._send_row(row)
            return False
        self.say(f"row {row + 1}: {col.header} = {col.text(self._rows[row].get(key))}")
        return True

    def _on_selection(self, change) -> None:
        sel = change["new"] or []
        if not sel:
            return
        row = int(sel[-1].get("r1", 0))
        if 0 <= row < len(self._rows) and row != self.selected:
            self.selected = row
            if self.on_select is not None:
                self.on_select(row)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
