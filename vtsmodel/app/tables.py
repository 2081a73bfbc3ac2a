"""Editable tables of rows: scenario sheets, workload profiles, flow tables.

A :class:`TableEditor` holds rows of values and applies a person's edits; the page draws
it (``_table.js``) as an HTML table of labelled inputs, where a person moves and types as
in a spreadsheet. Columns are declared with :class:`Column`: an editable column carries an
:class:`~vtsmodel.Input`, which parses what a person types (numbers as ``float``, never
evaluated; a choice by its label or value) and formats what the table shows (plain
digits, a choice's label, empty for a missing value, never ``NaN``); a computed column is
grey and refuses edits. An accepted edit goes to the owner's ``on_edit(row, key, value)``,
which applies it to its model and may still reject it with ``ValueError`` (a constraint
across cells: times in order); either way the table shows the model's value afterwards,
and a rejection's reason stays under the rows until the next edit.

An edit is one message to the kernel; the rows as the kernel then holds them, with the
edit's outcome, come back as one message, and the page touches only the cells whose text
changed. Why not a canvas grid (ipydatagrid, which the sheets used before): it redraws its
whole canvas when an edit is committed, before the page reads the kernel's reply (lesson
05's edit to its first plot: 85 ms p50 at a load of 6-7, of which 58-72 ms the grid's
redraw). As this table: 60-78 ms against 216 ms for the grid in the same runs (load
4-10), 41 ms on a quiet machine (BENCHMARKS.md); and a page without the grid loads
ipydatagrid, bqplot and bqscales no more (lesson 05: 147 -> 106 requests).

This module imports ipywidgets and anywidget; ``import vtsmodel`` does not.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import anywidget
import ipywidgets as w
import traitlets

from vtsmodel import Input, number

__all__ = ["ROW_HEADER", "Column", "TableEditor"]

#: The head of the rows' numbers (1, 2, ...), which messages use: "row 2: ...".
ROW_HEADER = "row"


@dataclass(frozen=True)
class Column:
    """One column of a sheet.

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
        """The cell text of ``value``: a choice's label, plain digits, empty when missing.

        An editable number has no thousands separators (``12500``): its text is what a
        person edits, and :meth:`Input.parse <vtsmodel.Input.parse>` reads no separator (a
        comma may be a decimal one); a computed number has them (``12,500``).
        """
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ""
        if self.input is not None:
            text = self.input.format(value)
            return text.replace(",", "") if self.input.kind in ("number", "int") else text
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int | float):
            return number(value, 4)
        return str(value)


#: A column's least width [px]: eight digits at the 12 px font, with the cell's padding.
MIN_COLUMN_PX = 72

_CSS = """
.vtsmodel-table-wrap { overflow: auto; border: 1px solid #C8C8C8; background: #FFF; }
.vtsmodel-table { border-collapse: collapse; font: 12px sans-serif; color: #222; }
.vtsmodel-table caption { caption-side: top; text-align: left; padding: 0 0 4px 0; font-size: 13px; }
.vtsmodel-table th, .vtsmodel-table td { border: 1px solid #D8D8D8; padding: 0; height: 24px; }
.vtsmodel-table thead th { position: sticky; top: 0; z-index: 1; background: #F3F3F3; font-weight: 600;
  text-align: left; vertical-align: top; padding: 3px 6px; white-space: normal; overflow-wrap: normal; }
.vtsmodel-table th[scope="row"] { background: #F3F3F3; font-weight: normal; text-align: right;
  padding: 0 6px; min-width: 28px; }
.vtsmodel-table td.computed { background: #EFEFEF; color: #333; padding: 0 6px; white-space: nowrap; }
.vtsmodel-table .num { text-align: right; font-variant-numeric: tabular-nums; }
.vtsmodel-table input { box-sizing: border-box; width: 100%; height: 24px; margin: 0; padding: 0 6px;
  border: 0; background: transparent; font: inherit; color: inherit; outline: none; cursor: cell; }
.vtsmodel-table input:focus { outline: 2px solid #1A73E8; outline-offset: -2px; background: #EAF2FE; }
.vtsmodel-table input.editing { background: #FFF; cursor: text; box-shadow: inset 0 0 0 2px #1A73E8; }
.vtsmodel-table input.pending { color: #777; font-style: italic; }
.vtsmodel-table td.rejected { background: #FDECEE; box-shadow: inset 0 0 0 2px #B00020; }
.vtsmodel-table.marks-selected tbody th[scope="row"] { cursor: pointer; }
.vtsmodel-table tr.selected th[scope="row"] { background: #1A73E8; color: #FFF; font-weight: 600; }
.vtsmodel-table tr.selected td { border-top: 1px solid #1A73E8; border-bottom: 1px solid #1A73E8; }
.vtsmodel-table tr.selected td:not(.computed):not(.rejected) { background: #F2F7FE; }
"""


class _TableView(anywidget.AnyWidget):
    """The page's side of a :class:`TableEditor`, drawn by ``_table.js``."""

    _esm = Path(__file__).with_name("_table.js")
    _css = _CSS
    #: The columns: key, header, whether editable, whether numeric (right-aligned), min width [px],
    #: and a hint (what the column accepts, or that it is computed) shown over its head.
    columns = traitlets.List(traitlets.Dict()).tag(sync=True)
    #: The cells' texts, row by row, in the columns' order.
    rows = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    #: The last edit's outcome: ``{"seq", "row", "key", "ok", "message"}`` (``seq`` counts edits).
    status = traitlets.Dict().tag(sync=True)
    #: The table's caption (HTML: the page's own text, never a person's).
    caption = traitlets.Unicode("").tag(sync=True)
    #: The head of the rows' numbers.
    row_header = traitlets.Unicode(ROW_HEADER).tag(sync=True)
    #: CSS height the table scrolls beyond.
    max_height = traitlets.Unicode("").tag(sync=True)
    #: The selected row (from 0), which the owner acts on: set by the page when a person moves to
    #: another row, by the kernel when the owner selects one.
    selected = traitlets.Int(0).tag(sync=True)
    #: Whether the page marks the selected row (a sheet whose row drives the page's controls).
    mark_selected = traitlets.Bool(False).tag(sync=True)


class TableEditor:
    """An editable HTML table of rows, parsed and formatted by its columns' inputs.

    A person clicks a cell or moves to it (Tab, Shift-Tab, the arrow keys, Enter and
    Shift-Enter), types to replace its text (F2, a double-click or Backspace to edit it),
    and commits with Enter, Tab or by leaving the cell; Escape cancels. A rejected edit
    marks its cell (red, ``aria-invalid``, the reason as its title) and the reason shows
    under the table; the cell shows the value it had. Computed columns are grey text, not
    editable; numbers are right-aligned; a column's head says, on hover, what it accepts.
    With ``mark_selected`` the selected row is marked (its number in blue, ``aria-current``)
    and a click on a row's number selects it.

    Parameters
    ----------
    columns : sequence of Column
        In display order.
    rows : sequence of mapping
        The rows' values by column key.
    on_edit : callable, optional
        ``on_edit(row, key, value)`` with the parsed value of an accepted edit; raise
        ``ValueError`` to reject it. The owner then calls :meth:`set_rows`,
        :meth:`update_rows` or :meth:`set_row` with its model's values.
    on_select : callable, optional
        ``on_select(row)`` when a person selects a cell of another row.
    title : str
        The table's caption, its accessible name (HTML: the page's own text, not a person's).
    height : str
        CSS height beyond which the table scrolls (its head stays in view).
    width : str, optional
        CSS width of the table's box; default as wide as its columns.
    widths : mapping of str to int, optional
        Least column widths [px] by key, over :data:`MIN_COLUMN_PX`; a head breaks between
        words, never inside one.
    mark_selected : bool
        Mark the selected row on the page (when the owner acts on it: a scenario sheet).

    Attributes
    ----------
    message : ipywidgets.HTML
        The last rejection or confirmation, under the rows; it stays until the next edit.
    view : anywidget.AnyWidget
        The table on the page.
    widget : ipywidgets.VBox
        What ``display`` shows: the table and the message under it.
    """

    def __init__(
        self,
        columns: Sequence[Column],
        rows: Sequence[Mapping],
        *,
        on_edit: Callable[[int, str, object], None] | None = None,
        on_select: Callable[[int], None] | None = None,
        title: str = "",
        height: str = "420px",
        width: str | None = None,
        widths: Mapping[str, int] | None = None,
        mark_selected: bool = False,
    ) -> None:
        self.columns = list(columns)
        self.on_edit = on_edit
        self.on_select = on_select
        self._rows = [dict(r) for r in rows]
        self._selected = 0
        self.message = w.HTML(layout=w.Layout(min_height="1.6em"))
        self.message.add_class("vtsmodel-grid-message")
        least = {c.key: MIN_COLUMN_PX for c in self.columns} | dict(widths or {})
        self._seq, self._said = 0, ""
        self.view = _TableView(
            columns=[
                {
                    "key": c.key,
                    "header": c.header,
                    "editable": c.input is not None,
                    "numeric": self._numeric(c),
                    "min_px": int(least[c.key]),
                    "hint": self._hint(c),
                }
                for c in self.columns
            ],
            rows=self._all_texts(),
            caption=title,
            max_height=height,
            mark_selected=mark_selected,
            layout=w.Layout(width=width or "auto", max_width="100%"),
        )
        self.view.add_class("vtsmodel-grid")
        self.view.on_msg(self._on_msg)
        self.view.observe(lambda change: self._select(change["new"]), names="selected")
        self.widget = w.VBox(
            [self.view, self.message], layout=w.Layout(width=width or "auto", max_width="100%")
        )

    @property
    def selected(self) -> int:
        """The row (from 0) of the cell a person selected last, or the owner set; the page follows."""
        return self._selected

    @selected.setter
    def selected(self, row: int) -> None:
        self._selected = self.view.selected = int(row)

    @property
    def rows(self) -> list[dict]:
        """A copy of the rows as the editor holds them (values, not text)."""
        return [dict(r) for r in self._rows]

    def column(self, key: str) -> Column:
        """The column of ``key``; ``KeyError`` naming the columns if there is none."""
        col = next((c for c in self.columns if c.key == key), None)
        if col is None:
            raise KeyError(f"no column {key!r}; columns: {', '.join(c.key for c in self.columns)}")
        return col

    def cell_text(self, row: int, key: str) -> str:
        """The text a cell shows."""
        return self.column(key).text(self._rows[row].get(key))

    # --- what the table shows -------------------------------------------------------------------
    @staticmethod
    def _hint(col: Column) -> str:
        """What a column's head says on hover: the input's help and the values it accepts."""
        if col.input is None:
            return "computed from the other columns"
        return " ".join(t for t in (col.input.help, f"Accepts {col.input.range_text()}.") if t)

    def _numeric(self, col: Column) -> bool:
        """Whether ``col`` holds numbers (right-aligned): by its input, or a computed column's values."""
        if col.input is not None:
            return col.input.kind in ("number", "int")
        values = [r.get(col.key) for r in self._rows]
        return all(v is None or (isinstance(v, int | float) and not isinstance(v, bool)) for v in values)

    def _texts(self, row: Mapping) -> list[str]:
        return [c.text(row.get(c.key)) for c in self.columns]

    def _all_texts(self) -> list[list[str]]:
        return [self._texts(r) for r in self._rows]

    def _sync(self) -> None:
        """Send the rows' texts: one message, and none when no cell's text changed."""
        texts = self._all_texts()
        if texts != self.view.rows:
            self.view.rows = texts

    def set_rows(self, rows: Sequence[Mapping]) -> None:
        """Show new rows (after rows were added, deleted or loaded)."""
        self._rows = [dict(r) for r in rows]
        self._sync()
        self.selected = min(self.selected, max(len(self._rows) - 1, 0))

    def update_rows(self, rows: Sequence[Mapping]) -> None:
        """Show the rows' new values: one message; the page touches only the cells that changed."""
        self.set_rows(rows)

    def set_row(self, i: int, row: Mapping) -> None:
        """Show new values of row ``i``; nothing is sent when no cell's text changed.

        Only row ``i`` is formatted again (a slider move edits the selected scenario's row):
        0.9 ms a move for a sheet of 50 scenarios of 20 columns, where formatting every row
        takes 1.6 ms.
        """
        self._rows[i] = {**self._rows[i], **row}
        texts = self._texts(self._rows[i])
        if texts != self.view.rows[i]:
            self.view.rows = [*self.view.rows[:i], texts, *self.view.rows[i + 1 :]]

    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` under the table (in red with a sign when ``error``)."""
        color, sign = ("#B00020", "⚠ ") if error else ("#333", "")
        kind = "error" if error else "info"
        self.message.value = (
            f"<span class='vtsmodel-grid-{kind}' style='color:{color}'>{sign}{html.escape(text)}</span>"
        )
        self._said = text

    def edit(self, row: int, key: str, value) -> bool:
        """Apply an edit as a person types it; return whether it was accepted.

        A rejected edit shows its reason (the input's name, the value, the valid range)
        under the rows, and the cell shows the value it had.
        """
        col = self.column(key)
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
            self._sync()
            return False
        self.say(f"row {row + 1}: {col.header} = {col.text(self._rows[row].get(key))}")
        return True

    # --- the page's messages --------------------------------------------------------------------
    def _select(self, row: int) -> None:
        """A person selected a cell of ``row``: tell the owner when it is another row."""
        if not 0 <= row < len(self._rows):
            self.view.selected = self._selected  # no row of the table: the page shows the selection kept
        elif row != self._selected:
            self.selected = row
            if self.on_select is not None:
                self.on_select(row)

    def _on_msg(self, _view, content, _buffers) -> None:
        if not isinstance(content, dict) or content.get("kind") != "edit":
            return  # no page of ours sends it
        row, key, text = content.get("row"), content.get("key"), content.get("text")
        if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < len(self._rows):
            return
        if not isinstance(text, str) or key not in {c.key for c in self.columns}:
            return
        # the selection, the rows and the edit's outcome in one message, after the owner's plots
        with self.view.hold_sync():
            self._select(row)
            # the text the cell shows is no edit (the page sends none): the message stays
            ok = text == self.cell_text(row, key) or self.edit(row, key, text)
            self._sync()  # an edit without an owner, or accepted as typed ("100.0" shows "100")
            self._seq += 1
            message = "" if ok else self._said
            self.view.status = {"seq": self._seq, "row": row, "key": key, "ok": ok, "message": message}

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
