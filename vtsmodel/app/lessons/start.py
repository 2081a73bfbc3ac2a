"""Start here: the suite's lessons and the browsable data catalogue."""

from __future__ import annotations

import html

import ipywidgets as w

from vtsmodel.data import catalogue, filter_catalogue, sources, tables

__all__ = ["LESSON_LIST", "catalogue_browser", "catalogue_html"]

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
    ("06_disk_cache_staging.ipynb", "What do staging size, background copies and pauses cost the disk cache in front of the tape?"),
)  # fmt: skip

_COLUMNS = (("table", "table"), ("id", "id"), ("source", "source"), ("locator", "locator"),
            ("kind", "kind"), ("printed", "as printed"), ("value", "value"), ("unit", "unit"))  # fmt: skip


def catalogue_html(rows: list[dict], *, limit: int = 500) -> str:
    """An HTML table of catalogue rows; the quote and note show on hover."""
    head = "".join(f"<th style='text-align:left;padding:2px 6px'>{label}</th>" for _, label in _COLUMNS)
    body = []
    for r in rows[:limit]:
        tip = html.escape((r["quote"] + ("\n\nNote: " + r["note"] if r["note"] else "")).strip(), quote=True)
        cells = "".join(
            f"<td style='padding:2px 6px'>{html.escape(f'{r[key]:g}' if key == 'value' else str(r[key]))}</td>"
            for key, _ in _COLUMNS
        )
        body.append(f"<tr class='vtsmodel-catalogue-row' title=\"{tip}\">{cells}</tr>")
    more = f"<p>… and {len(rows) - limit} more: narrow the filter.</p>" if len(rows) > limit else ""
    return (
        "<div style='max-height:420px;overflow:auto'><table class='vtsmodel-catalogue' "
        f"style='border-collapse:collapse;font-size:12px'><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div>{more}"
    )


def catalogue_browser() -> w.VBox:
    """A filterable view of every data row: words, source and table filters."""
    rows = catalogue()
    text = w.Text(
        description="Filter",
        placeholder="words to find, e.g. sustained PAF",
        tooltip="Show rows whose id, locator, printed value, quote or note contain every word",
        layout=w.Layout(width="420px"),
    )
    src = w.Dropdown(
        options=[("all sources", "")] + [(k, k) for k in sources()],
        description="Source",
        tooltip="Restrict to one source document",
        layout=w.Layout(width="320px"),
    )
    tab = w.Dropdown(
        options=[("all tables", "")] + [(t, t) for t in tables()],
        description="Table",
        tooltip="Restrict to one table",
        layout=w.Layout(width="320px"),
    )
    count = w.HTML()
    out = w.HTML()

    def refresh(_=None):
        hits = filter_catalogue(rows, text.value, source=src.value or None, table=tab.value or None)
        count.value = f"<span class='vtsmodel-catalogue-count'>{len(hits)} of {len(rows)} rows</span>"
        out.value = catalogue_html(hits)

    for ctl in (text, src, tab):
        ctl.observe(refresh, names="value")
    refresh()
    box = w.VBox([w.HBox([text, src, tab], layout=w.Layout(flex_flow="row wrap")), count, out])
    box.add_class("vtsmodel-panel")
    return box
