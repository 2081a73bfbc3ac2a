"""Tables as a page shows them: cited data rows with their ledger status, inputs, plain rows of text."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from vtsmodel import number
from vtsmodel.app.text import plain_math
from vtsmodel.data import load, statement_status, statements_for

__all__ = ["STATUS_STYLE", "html_table", "inputs_table_html", "source_table_html"]

#: How each status of the statement ledger reads in a source table.
STATUS_STYLE = {
    "reproduced": ("#1B7F3B", "a model reproduces it"),
    "calibrated": ("#8A6D00", "a model constant was solved or fitted to it: an input, not evidence"),
    "by-construction": ("#5B6770", "the model encodes it (its rule or arithmetic): a check, not evidence"),
    "data-only": ("#555555", "kept as a cited value; nothing models it"),
    "contradicted": ("#B00020", "the model disagrees; the ledger's note says by how much and why"),
    "source-inconsistent": ("#7A3E9D", "the source contradicts itself; the ledger shows the arithmetic"),
}


def source_table_html(rows: Iterable[tuple[str, str]]) -> str:
    """Cited data rows as an HTML table: id, as printed, value, unit, source and locator, ledger status.

    ``rows`` are ``(table, row id)`` pairs. Hovering a row shows the sentence it came from;
    hovering its status, what the statement ledger says of it (``data/statements.csv``).
    """
    head = "".join(f"<th style='text-align:{'right' if h == 'value' else 'left'};padding:1px 6px'>{h}</th>"
                   for h in ("id", "printed", "value", "unit", "source, locator", "status"))  # fmt: skip
    body = []
    for table, rid in rows:
        p = load(table).provenance(rid)
        ref = f"{table}:{rid}"
        status = statement_status(ref) or ""
        color, meaning = STATUS_STYLE.get(status, ("#555555", ""))
        notes = " | ".join(f"{s['id']}: {s['claim']} {s['note']}".strip() for s in statements_for(ref))
        tip = html.escape(plain_math(f"{status}: {meaning}. {notes}".strip(" .")) if status else "")
        left = "style='text-align:left'"  # a notebook's output right-aligns cells unless told
        body.append(
            f"<tr title='{html.escape(plain_math(p.quote or p.note))}'><td {left}><code>{html.escape(rid)}</code></td>"
            f"<td {left}>{html.escape(p.printed)}</td><td style='text-align:right'>{number(p.value, 6)}</td>"
            f"<td {left}>{html.escape(p.unit)}</td><td {left}>{html.escape(p.source)}, {html.escape(p.locator)}</td>"
            f"<td class='vtsmodel-status' data-status='{status}' title='{tip}' style='color:{color};text-align:left'>"
            f"{status}</td></tr>"
        )
    return (
        "<table class='vtsmodel-sources' style='border-collapse:collapse'><thead><tr>" + head + "</tr></thead><tbody>"
        + "".join(body) + "</tbody></table>"
    )  # fmt: skip


_CELL = "style='text-align:left;vertical-align:top;padding:2px 8px'"


def html_table(head: Sequence[str], rows: Iterable[Sequence[str]], *, css_class: str = "") -> str:
    """Rows of text cells as an HTML table, each cell escaped, left- and top-aligned, under ``head``."""
    th = "".join(f"<th {_CELL}>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td {_CELL}>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table class='{css_class}'><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def inputs_table_html(inputs, *, what: str = "input", css_class: str = "vtsmodel-inputs") -> str:
    """Inputs (:class:`~vtsmodel.Input`) as a page offers them: label, unit, default, the control's range, its source.

    A choice of more than four options says how many (the list is on the page).
    """

    def rng(inp) -> str:
        return (
            f"one of {len(inp.options)} (the list on the page)" if len(inp.options) > 4 else inp.range_text()
        )

    rows = [
        (i.label, i.unit, i.format(i.default), rng(i), " ".join(i.source.split())) for i in inputs.values()
    ]
    return html_table((what, "unit", "default", "range on the page", "source"), rows, css_class=css_class)
