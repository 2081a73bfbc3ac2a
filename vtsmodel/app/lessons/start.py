"""Start here: the suite's pages, the sources, the statement ledger and the data catalogue.

The ledger (``data/statements.csv``, :func:`vtsmodel.data.statements`) lists every checkable
statement of the five sources and what the project does with it: reproduced, calibrated (an
input, not evidence), true by construction (the model encodes it: not evidence), kept as
data only, contradicted, or inconsistent in the source itself.
"""

from __future__ import annotations

import html

import ipywidgets as w

from vtsmodel.app.figures import STATUS_STYLE
from vtsmodel.app.text import plain_math
from vtsmodel.data import (
    catalogue,
    filter_catalogue,
    references,
    sources,
    statement_counts,
    statement_status,
    statements,
    tables,
)

__all__ = [
    "LESSON_LIST",
    "catalogue_browser",
    "catalogue_html",
    "ledger_browser",
    "ledger_counts_html",
    "ledger_html",
    "lessons_html",
    "lessons_table",
    "navigation",
    "navigation_html",
    "references_html",
    "short_title",
]

LESSON_ID = "00"
TITLE = "Start here"
NOTEBOOK = "00_start_here.ipynb"

#: The lessons, in teaching order: notebook file and the question it answers.
LESSON_LIST = (
    ("01_sustained_vs_peak_write.ipynb", "How fast can a virtual tape server take data, for a while and for ever, and what limits it?"),
    ("02_time_at_peak_vs_tvc.ipynb", "How long can it run at peak before throttling, and how big a cache does a burst need?"),
    ("03_recall_queue_mount_time.ipynb", "How long until a recalled volume is mounted, as the queue, volume size and drives change?"),
    ("04_drive_efficiency_vs_file_size.ipynb", "How much of a drive's rated speed does a workload really get?"),
    ("05_sizing_workbench.ipynb", "How many drives does a site need for its data flows?"),
    ("06_disk_cache_staging.ipynb", "What do staging size, background copies and pauses cost a disk cache under load (measured on a DS8300 disk system, no tape)?"),
    ("07_plan_a_system.ipynb", "Which configuration and how many drives does my workload need, with what margin on each target?"),
    ("08_read_hits_from_a_mount_log.ipynb", "What is a larger cache worth in read hits and recalls, for your own mount log?"),
    ("09_replay_your_log.ipynb", "How long do my own requests wait in a tape library, and how far off are the queueing formulas?"),
    ("10_library_over_the_years.ipynb", "As an archive grows, when do the slots, the drives and the robots of today's tape library run out?"),
)  # fmt: skip

#: Words of a notebook's file name written as a person reads them.
_WORDS = {"tvc": "TVC", "vts": "VTS", "cf": "CF", "lru": "LRU", "vs": "vs"}


def short_title(notebook: str) -> str:
    """A lesson's short title from its file name: ``"02_time_at_peak_vs_tvc.ipynb"`` is ``"Time at peak vs TVC"``."""
    words = notebook.removesuffix(".ipynb").split("_")[1:]
    text = " ".join(_WORDS.get(word, word) for word in words)
    return text[:1].upper() + text[1:]


def _entry(i: int) -> tuple[str, str, str]:
    """Notebook, label (``"02 Time at peak vs TVC"``) and question of the ``i``-th page (0: start here)."""
    if i == 0:
        return NOTEBOOK, "Start here", "What the suite is, its sources and the data catalogue."
    notebook, question = LESSON_LIST[i - 1]
    return notebook, f"{notebook[:2]} {short_title(notebook)}", question


def _link(i: int, text: str, rel: str) -> str:
    notebook, label, question = _entry(i)
    return (f"<a class='vtsmodel-nav-{rel}' rel='{rel}' href='{html.escape(notebook)}' "
            f"title='{html.escape(question, quote=True)}'>{text.format(label=html.escape(label))}</a>")  # fmt: skip


def navigation_html(lesson_id: str, *, bottom: bool = False) -> str:
    """The way to the start page and the previous and next lessons, as HTML links.

    At the top of a lesson (``bottom=False``) a line: start here, previous, this lesson's
    number, next; at the bottom the next lesson with its question. Links are relative (the
    notebooks sit in one folder), so they work in JupyterLab and in the app.
    """
    pages = [NOTEBOOK] + [nb for nb, _q in LESSON_LIST]
    found = [i for i, nb in enumerate(pages) if nb[:2] == lesson_id]
    if len(found) != 1:
        raise ValueError(
            f"lesson_id={lesson_id!r} is not valid; choose one of {', '.join(nb[:2] for nb in pages)}"
        )
    i, last = found[0], len(pages) - 1
    parts = [] if i == 0 else [_link(0, "⌂ Start here", "start")]
    if i > 1:
        parts.append(_link(i - 1, "← {label}", "prev"))
    if not bottom and i > 0:
        parts.append(f"<span class='vtsmodel-nav-here'>Lesson {i} of {last}</span>")
    if i < last:
        parts.append(_link(i + 1, "{label} →", "next"))
    sep = "<span style='color:#999;margin:0 10px'>|</span>"
    line = sep.join(parts)
    if bottom and i < last:
        line += f"<div style='color:#555;margin-top:2px'>Next: {html.escape(_entry(i + 1)[2])}</div>"
    edge = "border-top:1px solid #ccc;margin-top:18px" if bottom else "border-bottom:1px solid #ccc"
    return (f"<nav class='vtsmodel-nav vtsmodel-nav-{'bottom' if bottom else 'top'}' "
            f"style='{edge};padding:6px 0;font-size:14px'>{line}</nav>")  # fmt: skip


def lessons_html() -> str:
    """The lessons in order as a table: number and title (a link), the question it answers."""
    rows = "".join(
        f"<tr><td style='{_CELL};text-align:left;white-space:nowrap'>{_link(i, '{label}', 'chapter')}</td>"
        f"<td style='{_CELL};text-align:left'>{html.escape(_entry(i)[2])}</td></tr>"
        for i in range(1, len(LESSON_LIST) + 1)
    )
    return (f"<table class='vtsmodel-lessons' style='border-collapse:collapse;font-size:14px;line-height:1.4'>"
            f"<thead><tr><th style='{_HEAD};{_CELL}'>lesson</th><th style='{_HEAD};{_CELL}'>the question</th></tr>"
            f"</thead><tbody>{rows}</tbody></table>")  # fmt: skip


def navigation(lesson_id: str, *, bottom: bool = False) -> w.HTML:
    """:func:`navigation_html` to display: a notebook's first (and last) cell shows it.

    A widget, not a notebook output: an output's links open a new browser tab in the app (each
    tab another kernel); a widget's follow in the same page.
    """
    return w.HTML(navigation_html(lesson_id, bottom=bottom), layout=w.Layout(width="100%"))


def lessons_table() -> w.HTML:
    """:func:`lessons_html` to display on the start page (a widget: its links open in the same page)."""
    return w.HTML(lessons_html())


_STYLE = "border-collapse:collapse;font-size:13px;line-height:1.35;width:100%;table-layout:fixed"
_CELL = "padding:3px 6px;vertical-align:top;line-height:1.35;text-align:left"
#: A table's head stays in view while its rows scroll.
_HEAD = "position:sticky;top:0;background:#F2F2F2;text-align:left;z-index:1"


def _status(status: str) -> str:
    color, meaning = STATUS_STYLE.get(status, ("#555", ""))
    return (f"<span class='vtsmodel-status' data-status='{status}' title='{html.escape(meaning)}' "
            f"style='color:{color};font-weight:600'>{html.escape(status)}</span>")  # fmt: skip


def _scroll(table: str) -> str:
    """A long table in a box of most of the window's height, its head kept in view (Voila's line height reset)."""
    return f"<div class='vtsmodel-table-box' style='max-height:75vh;overflow:auto;border:1px solid #DDD'>{table}</div>"


def _colgroup(widths) -> str:
    return "<colgroup>" + "".join(f"<col style='width:{w}'>" for w in widths) + "</colgroup>"


def references_html() -> str:
    """The founding and supplementary sources as a list, one reference per item (no mid-word breaks)."""
    items = "".join(f"<li style='margin:2px 0'><code>{html.escape(r['name'])}</code>: {html.escape(r['citation'])}</li>"
                    for r in references())  # fmt: skip
    return f"<ul class='vtsmodel-references' style='overflow-wrap:normal;word-break:normal'>{items}</ul>"


# --- the statement ledger ---------------------------------------------------------------------


def ledger_counts_html() -> str:
    """The ledger's counts by source and status, as a table with totals."""
    counts = statement_counts()
    stats = list(STATUS_STYLE)
    head = "".join(f"<th style='{_CELL};text-align:right'>{_status(s)}</th>" for s in stats)
    rows, total = [], dict.fromkeys(stats, 0)
    for src, by in counts.items():
        cells = "".join(f"<td style='{_CELL};text-align:right'>{by.get(s, 0)}</td>" for s in stats)
        rows.append(f"<tr><td style='{_CELL}'><code>{html.escape(src)}</code></td>{cells}"
                    f"<td style='{_CELL};text-align:right'><b>{sum(by.values())}</b></td></tr>")  # fmt: skip
        for s in stats:
            total[s] += by.get(s, 0)
    cells = "".join(f"<td style='{_CELL};text-align:right'><b>{total[s]}</b></td>" for s in stats)
    rows.append(f"<tr><td style='{_CELL}'><b>all sources</b></td>{cells}"
                f"<td style='{_CELL};text-align:right'><b>{sum(total.values())}</b></td></tr>")  # fmt: skip
    return (f"<table class='vtsmodel-ledger-counts' style='{_STYLE}'><thead><tr><th style='{_CELL}'>source</th>"
            f"{head}<th style='{_CELL};text-align:right'>all</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")  # fmt: skip


def ledger_html(rows: list[dict], *, limit: int = 400) -> str:
    """Ledger rows as an HTML table: status, source and locator, the quote, the claim, the model, the note."""
    cols = ("status", "source, locator", "the source says", "the claim, testably", "answered by", "note")
    head = "".join(f"<th style='{_HEAD};{_CELL}'>{c}</th>" for c in cols)
    body = []
    for r in rows[:limit]:
        # a long dotted name may break after a dot or an underscore, never inside a word
        model = (
            html.escape(r["model"].removeprefix("vtsmodel.")).replace(".", ".<wbr>").replace("_", "_<wbr>")
            if r["model"]
            else "—"
        )
        body.append(
            f"<tr class='vtsmodel-ledger-row' data-id='{html.escape(r['id'])}'>"
            f"<td style='{_CELL}'>{_status(r['status'])}</td>"
            f"<td style='{_CELL}'><code>{html.escape(r['source'])}</code>, {html.escape(r['locator'])}</td>"
            f"<td style='{_CELL}'><i>“{html.escape(plain_math(r['quote']))}”</i></td>"
            f"<td style='{_CELL}'>{html.escape(plain_math(r['claim']))}</td>"
            f"<td style='{_CELL}'><code>{model}</code></td>"
            f"<td style='{_CELL}'>{html.escape(plain_math(r['note']))}</td></tr>"
        )
    more = f"<p>… and {len(rows) - limit} more: narrow the filter.</p>" if len(rows) > limit else ""
    widths = ("8%", "12%", "26%", "20%", "12%", "22%")
    return _scroll(f"<table class='vtsmodel-ledger' style='{_STYLE}'>{_colgroup(widths)}<thead><tr>{head}</tr></thead>"
                   f"<tbody>{''.join(body)}</tbody></table>") + more  # fmt: skip


def _filters(text_tip: str) -> tuple[w.Text, w.Dropdown]:
    text = w.Text(
        description="Filter", placeholder="words to find", tooltip=text_tip, layout=w.Layout(width="420px")
    )
    src = w.Dropdown(options=[("all sources", "")] + [(k, k) for k in sources()], description="Source",
                     tooltip="Restrict to one source document", layout=w.Layout(width="360px"))  # fmt: skip
    return text, src


def _browser(filters: tuple, count: w.HTML, out: w.HTML, refresh) -> w.VBox:
    """The filters in a row, the count and the table under them; ``refresh`` runs on every change of a filter."""
    for ctl in filters:
        ctl.observe(refresh, names="value")
    refresh()
    box = w.VBox([w.HBox(list(filters), layout=w.Layout(flex_flow="row wrap")), count, out])
    box.add_class("vtsmodel-panel")
    return box


def ledger_browser() -> w.VBox:
    """A filterable view of the statement ledger: words, status and source filters."""
    text, src = _filters("Show statements whose quote, claim, model or note contain every word")
    status = w.Dropdown(options=[("every status", "")] + [(s, s) for s in STATUS_STYLE], description="Status",
                        tooltip="Restrict to one status", layout=w.Layout(width="320px"))  # fmt: skip
    count, out = w.HTML(), w.HTML()

    def refresh(_=None):
        hits = statements(status=status.value or None, source=src.value or None, text=text.value)
        count.value = (
            f"<span class='vtsmodel-ledger-count'>{len(hits)} of {len(statements())} statements</span>"
        )
        out.value = ledger_html(hits)

    return _browser((text, status, src), count, out, refresh)


# --- the data catalogue ----------------------------------------------------------------------

_COLUMNS = (("table", "table"), ("id", "id"), ("source", "source"), ("locator", "locator"),
            ("kind", "kind"), ("printed", "as printed"), ("value", "value"), ("unit", "unit"))  # fmt: skip


def catalogue_html(rows: list[dict], *, limit: int = 500) -> str:
    """An HTML table of catalogue rows with their ledger status; the quote and note show on hover."""
    head = "".join(f"<th style='{_HEAD};{_CELL}{';text-align:right' if key == 'value' else ''}'>{label}</th>"
                   for key, label in _COLUMNS)  # fmt: skip
    body = []
    for r in rows[:limit]:
        tip = html.escape(
            plain_math((r["quote"] + ("\n\nNote: " + r["note"] if r["note"] else "")).strip()), quote=True
        )
        cells = "".join(
            f"<td style='{_CELL}{';text-align:right' if key == 'value' else ''}'>"
            f"{html.escape(f'{r[key]:g}' if key == 'value' else plain_math(str(r[key])))}</td>"
            for key, _ in _COLUMNS
        )
        status = statement_status(f"{r['table']}:{r['id']}") or ""
        body.append(f"<tr class='vtsmodel-catalogue-row' title=\"{tip}\">{cells}"
                    f"<td style='{_CELL}'>{_status(status) if status else ''}</td></tr>")  # fmt: skip
    more = f"<p>… and {len(rows) - limit} more: narrow the filter.</p>" if len(rows) > limit else ""
    widths = ("15%", "17%", "10%", "14%", "7%", "12%", "8%", "7%", "10%")
    return _scroll(f"<table class='vtsmodel-catalogue' style='{_STYLE}'>{_colgroup(widths)}<thead><tr>{head}"
                   f"<th style='{_HEAD};{_CELL}'>status</th></tr></thead><tbody>{''.join(body)}</tbody></table>") + more  # fmt: skip


def catalogue_browser() -> w.VBox:
    """A filterable view of every data row: words, source and table filters."""
    rows = catalogue()
    text, src = _filters("Show rows whose id, locator, printed value, quote or note contain every word")
    tab = w.Dropdown(options=[("all tables", "")] + [(t, t) for t in tables()], description="Table",
                     tooltip="Restrict to one table", layout=w.Layout(width="320px"))  # fmt: skip
    count, out = w.HTML(), w.HTML()

    def refresh(_=None):
        hits = filter_catalogue(rows, text.value, source=src.value or None, table=tab.value or None)
        count.value = f"<span class='vtsmodel-catalogue-count'>{len(hits)} of {len(rows)} rows</span>"
        out.value = catalogue_html(hits)

    return _browser((text, src, tab), count, out, refresh)
