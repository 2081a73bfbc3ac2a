"""An editable HTML table of rows: the :class:`~vtsmodel.app.grids.RowsEditor` drawn as a ``<table>``.

A :class:`TableEditor` has the API of :class:`~vtsmodel.app.grids.GridEditor` (columns
parsed and formatted by their inputs, ``on_edit`` raising ``ValueError`` to reject, the
message under the rows), drawn by ``_table.js`` as an HTML table of labelled inputs, where
a person moves and types as in a spreadsheet. An edit is one message to the kernel; the
rows as the kernel then holds them, with the edit's outcome, come back as one message, and
the page touches only the cells whose text changed.

Why not the canvas grid: ipydatagrid redraws its whole canvas when an edit is committed,
before the page reads the kernel's reply (lesson 05's edit to its first plot: 85 ms p50 at
a load of 6-7, of which 58-72 ms the grid's redraw). As this table: 60-78 ms against 216 ms
for the grid in the same runs (load 4-10), 41 ms on a quiet machine (BENCHMARKS.md).

This module imports ipywidgets and anywidget; ``import vtsmodel`` does not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import anywidget
import ipywidgets as w
import traitlets

from vtsmodel.app.grids import ROW_HEADER, Column, RowsEditor

__all__ = ["TableEditor"]

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
"""


class _TableView(anywidget.AnyWidget):
    """The page's side of a :class:`TableEditor`, drawn by ``_table.js``."""

    _esm = Path(__file__).with_name("_table.js")
    _css = _CSS
    #: The columns: key, header, whether editable, whether numeric (right-aligned), min width [px].
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


class TableEditor(RowsEditor):
    """An editable HTML table of rows, parsed and formatted by its columns' inputs.

    A person clicks a cell or moves to it (Tab, Shift-Tab, the arrow keys, Enter and
    Shift-Enter), types to replace its text (F2, a double-click or Backspace to edit it),
    and commits with Enter, Tab or by leaving the cell; Escape cancels. A rejected edit
    marks its cell (red, ``aria-invalid``, the reason as its title) and the reason shows
    under the table; the cell shows the value it had. Computed columns are grey text, not
    editable; numbers are right-aligned.

    Parameters
    ----------
    columns, rows, on_edit, on_select
        As :class:`~vtsmodel.app.grids.RowsEditor`.
    title : str
        The table's caption, its accessible name (HTML: the page's own text, not a person's).
    height : str
        CSS height beyond which the table scrolls (its head stays in view).
    width : str, optional
        CSS width of the table's box; default as wide as its columns.
    widths : mapping of str to int, optional
        Least column widths [px] by key, over :data:`MIN_COLUMN_PX`; a head breaks between
        words, never inside one.

    Attributes
    ----------
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
    ) -> None:
        super().__init__(columns, rows, on_edit=on_edit, on_select=on_select)
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
                }
                for c in self.columns
            ],
            rows=self._all_texts(),
            caption=title,
            max_height=height,
            layout=w.Layout(width=width or "auto", max_width="100%"),
        )
        self.view.add_class("vtsmodel-grid")
        self.view.on_msg(self._on_msg)
        self.widget = w.VBox(
            [self.view, self.message], layout=w.Layout(width=width or "auto", max_width="100%")
        )

    # --- what the table shows -------------------------------------------------------------------
    def _numeric(self, col: Column) -> bool:
        """Whether ``col`` holds numbers (right-aligned): by its input, or a computed column's values."""
        if col.input is not None:
            return col.input.kind in ("number", "int")
        values = [r.get(col.key) for r in self._rows]
        return all(v is None or (isinstance(v, int | float) and not isinstance(v, bool)) for v in values)

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

    def _send_row(self, i: int) -> None:
        self._sync()

    # --- the page's messages --------------------------------------------------------------------
    def _on_msg(self, _view, content, _buffers) -> None:
        kind = content.get("kind") if isinstance(content, dict) else None
        row = content.get("row") if kind else None
        if not isinstance(row, int) or isinstance(row, bool):
            return  # no page of ours sends it
        if kind == "select":
            self._select(row)
        elif kind == "edit":
            key, text = content.get("key"), content.get("text")
            if not 0 <= row < len(self._rows) or not isinstance(text, str):
                return
            if key not in {c.key for c in self.columns}:
                return
            self._select(row)
            # the rows and the edit's outcome in one message, after the owner's plots
            with self.view.hold_sync():
                ok = self.edit(row, key, text)
                self._sync()  # an edit without an owner, or accepted as typed ("100.0" shows "100")
                self._seq += 1
                message = "" if ok else self._said
                self.view.status = {"seq": self._seq, "row": row, "key": key, "ok": ok, "message": message}

    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` under the table (in red with a sign when ``error``)."""
        super().say(text, error=error)
        self._said = text
