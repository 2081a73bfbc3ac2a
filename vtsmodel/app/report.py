"""The plan report: one document for a proposal, as HTML (offline) or PDF.

:func:`report_bytes` is the API (the CLI's ``vtsmodel plan --report`` and the planner page
call it): a :class:`~vtsmodel.plan.Plan` (or its evaluated
:class:`~vtsmodel.plan.PlanResult`) in, the document's bytes out. The document holds the
inputs, the recommendation and its margins, the figures, the configurations compared, the
tape-library plan, the assumptions with their sources, the model functions and data rows
each number rests on, and the references.

HTML is built here, with plotly.js inline (one copy for every figure), so it opens
offline in any browser. PDF is that HTML printed by a headless Chromium (the browser the
figure exports use, found by :mod:`vtsmodel.app._browser`): one rendering, so the PDF
shows exactly what the HTML shows, and no other typesetting dependency is needed.

The figures are the planner page's (:mod:`vtsmodel.app.figures.plan`).
"""

from __future__ import annotations

import datetime as dt
import html
import importlib
import math
import os
import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import plotly.io as pio
import plotly.offline

import vtsmodel
from vtsmodel import number
from vtsmodel.app._browser import HOW_TO_GET, find_chromium
from vtsmodel.app.export import export_spec
from vtsmodel.app.figures.library import capacity_plot
from vtsmodel.app.figures.plan import FIGURE_WIDTH, configurations_spec, day_spec, tornado_spec
from vtsmodel.app.text import count_or_number, plain_math
from vtsmodel.data import cite, load, statements, statements_for
from vtsmodel.files import atomic_write
from vtsmodel.hourly import COLUMNS
from vtsmodel.plan import EMPTY_MEANS, Plan, PlanResult, answer_inputs, assumptions, evaluate

__all__ = [
    "FORMATS",
    "answers_used",
    "html_to_pdf",
    "ledger_rows",
    "plan_figures",
    "report_bytes",
    "report_html",
    "write_report",
]

#: Report formats.
FORMATS = ("html", "pdf")
#: Longest the browser may take to print a report. [s]
PDF_TIMEOUT_S = 120


def _e(text) -> str:
    return html.escape(str(text), quote=True)


_IDENTIFIER = re.compile(r"\b[A-Za-z]\w+(?:[._]\w{2,})+\b")


def _cell(text) -> str:
    """Table cell text as HTML: the sources' LaTeX as Unicode; a code name may break after a dot or underscore.

    ``tvc_day.simulate_tvc`` may wrap at its dots and underscores, so that no word is broken
    inside a narrow cell.
    """
    out = _e(plain_math(str(text)))
    return _IDENTIFIER.sub(lambda m: m.group(0).replace(".", ".<wbr>").replace("_", "_<wbr>"), out)


def _n(x, digits: int = 3) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int | float | np.floating | np.integer):
        x = float(x)
        if math.isinf(x):
            return "no steady state" if x > 0 else "−∞"
        return number(x, digits)
    return str(x)


# --- figures -------------------------------------------------------------------------------------
def plan_figures(result) -> dict[str, dict]:
    """The report's figures as JSON (:mod:`vtsmodel.app.figures.plan`, :mod:`~vtsmodel.app.figures.library`).

    ``"day"`` and ``"configurations"`` (with a VTS), ``"tornado"`` (with a sensitivity) and
    ``"capacity"`` (the library over the years: cartridges against each configuration's slots).
    """
    out = {}
    if result.vts is not None:
        out = {"day": day_spec(result.vts.closest), "configurations": configurations_spec(result.vts)}
    if result.sensitivity is not None:
        out["tornado"] = tornado_spec(result.sensitivity)
    if result.library.over_years is not None:
        spec = capacity_plot(result.library.over_years.years, band=1).spec()
        out["capacity"] = {**spec, "layout": {**spec["layout"], "width": FIGURE_WIDTH}}
    return out


# --- HTML -----------------------------------------------------------------------------------------
_CSS = """
body { font-family: Arial, Helvetica, sans-serif; font-size: 13px; color: #222; max-width: 760px;
       margin: 24px auto; line-height: 1.4; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px;
     border-bottom: 1px solid #ccc; } h3 { font-size: 14px; }
table { border-collapse: collapse; margin: 8px 0; width: 100%; }
th, td { border: 1px solid #ccc; padding: 3px 5px; text-align: left; vertical-align: top;
         overflow-wrap: break-word; word-break: normal; hyphens: manual; }
th { font-size: 12px; } td { font-size: 12px; }
th { background: #f2f2f2; } td.num { text-align: right; white-space: nowrap; }
tr { page-break-inside: avoid; } .ok { color: #096b2e; } .fail { color: #b00020; font-weight: bold; }
.lead { font-size: 15px; background: #f5f8fc; border-left: 4px solid #0072B2; padding: 8px 12px; }
.small { font-size: 11px; color: #555; } figure { margin: 12px 0; page-break-inside: avoid; }
figcaption { font-size: 11px; color: #444; } blockquote { margin: 2px 0 2px 12px; color: #444; }
.modebar { display: none !important; }
@page { size: A4; margin: 14mm; }
@media print { body { margin: 0; max-width: none; } h2 { page-break-after: avoid; } }
"""


def _table(
    rows: Sequence[Sequence],
    header: Sequence[str],
    *,
    num: Sequence[bool] | None = None,
    widths: Sequence[int] = (),
) -> str:
    num = num or [False] * len(header)
    cols = (
        "<colgroup>" + "".join(f"<col style='width:{w}%'>" for w in widths) + "</colgroup>" if widths else ""
    )
    out = [
        f"<table>{cols}<thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr></thead><tbody>"
    ]
    for row in rows:
        cells = []
        for cell, isnum in zip(row, num, strict=True):
            if isinstance(cell, tuple):  # (html, css class): already escaped
                cells.append(f"<td class='{cell[1]}'>{cell[0]}</td>")
            else:
                cells.append(f"<td{' class=num' if isnum else ''}>{_cell(cell)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _status(ok: bool) -> tuple[str, str]:
    return ("met", "ok") if ok else ("missed", "fail")


def _fig_html(fig: dict, div_id: str, caption: str, plotly_config: Mapping) -> str:

    spec = export_spec(fig, "", style="print")
    body = pio.to_html(spec, include_plotlyjs=False, full_html=False, div_id=div_id, config=dict(plotly_config),
                       validate=False)  # fmt: skip
    return f"<figure>{body}<figcaption>{_e(caption)}</figcaption></figure>"


def answers_used(plan, vts) -> dict[str, tuple[float | None, str]]:
    """The answers the plan did not take as answered: key to (the value used, or None, and what gave it).

    An hourly workload replaces the data written and read per day and their windows (its own
    hours), its recall mounts the recalls per hour, its read-hit and recall mounts the read-hit
    ratio, and raises the virtual drives needed to its busiest hour's; a mount log gives each
    configuration its own read-hit ratio (the recommended or closest one's is shown).

    Parameters
    ----------
    plan : vtsmodel.plan.Plan
    vts : vtsmodel.plan.VtsPlan or None
        The plan evaluated (its ``day`` holds the read-hit and recall bases); None for a
        library alone, which uses the day's writes only.
    """
    out: dict[str, tuple[float | None, str]] = {}
    day, info = plan.day(), (vts.day if vts is not None else None)
    if plan.workload is not None:
        s = day.summary()
        per_day, wl = 24.0 / s["hours [h]"], f"the hourly workload {day.name}"
        for key, total in (("write_gb_per_day", "host writes [GB]"), ("read_gb_per_day", "host reads [GB]")):
            out[key] = (s[total] * per_day, f"{wl}: {_n(s[total], 4)} GB in {_n(s['hours [h]'])} h")
        for key in ("write_window_hours", "write_start_hour", "read_window_hours", "read_start_hour"):
            out[key] = (None, f"{wl}: its hours")
        if info is not None and "workload" in info["recall basis"]:
            out["recalls_per_hour"] = (
                info["busiest recall hour [1/h]"],
                f"{wl}: its recall mounts (the busiest hour)",
            )
        vd = day.column("max_virtual_drives")
        if vd is not None and vd.size and vd.max() > plan.answers.virtual_drives_needed:
            out["virtual_drives_needed"] = (float(vd.max()), f"{wl}: its busiest hour")
    if info is None:
        return out
    if info["read hit basis"] != "answer":
        out["read_hit"] = (info["read hit ratio [-]"], info["read hit basis"])
    if plan.hits is not None:
        out["recalls_per_hour"] = (
            info["busiest recall hour [1/h]"],
            f"{info['recall basis']} (the busiest hour)",
        )
    return out


def _answers_section(plan, vts) -> str:

    inputs = answer_inputs()
    used = answers_used(plan, vts)
    rows = []
    for key, value in plan.answers.to_dict().items():
        inp = inputs[key]
        if value is not None:
            shown, note = (inp.format(value) if inp.choices else _n(value, 4)), inp.outside_valid(value)
        else:  # left empty: what it then is (the prices: nothing shown)
            empty = EMPTY_MEANS.get(key, "derived").removeprefix("derived: ")
            shown, note = ("not given" if empty == "not shown" else "derived"), f"empty: {empty}"
        source = " — ".join(t for t in (inp.source, note) if t)
        if key in used:
            value_used, by = used[key]
            source = f"from {by} (answered: {shown})"
            shown = "—" if value_used is None else _n(value_used, 4)
        rows.append((inp.label, shown, inp.unit, source))
    parts = ["<h2>Inputs</h2>", "<h3>The answers</h3>",
             "<p class=small>The values the plan used: where an hourly workload or a mount log replaced an "
             "answer, the value it gave, and the answer beside its source.</p>",
             _table(rows, ["answer", "value used", "unit", "source"], num=[False, True, False, False])]  # fmt: skip
    day = plan.day()
    if vts is None:
        parts.append("<p>A tape library alone: the VTS answers are not used.</p>")
    parts.append("<h3>The hours evaluated</h3>")
    if plan.workload is not None:
        src = f" (file {plan.workload_file})" if plan.workload_file else " (embedded in the plan file)"
        parts.append(f"<p>Hourly workload <b>{_e(day.name)}</b>{_e(src)}: its writes, reads and mounts replace the "
                     "day the answers describe.</p>")  # fmt: skip
        if day.notes:
            parts.append(f"<blockquote>{_e(day.notes)}</blockquote>")
    else:
        parts.append(
            "<p>The day the answers describe: writes and reads spread evenly over their windows.</p>"
        )
    if plan.hits is not None:
        parts.append(f"<p>Read hits from the mount log <b>{_e(plan.mount_log_file)}</b>: each configuration its own "
                     "read-hit ratio by bytes at its cache size (LRU, vtsmodel.hits.tvc_read_hit), in place of the "
                     "answered one; the recalls follow from it. The table below shows the recommended (or closest) "
                     "configuration's.</p>")  # fmt: skip
        if plan.log is not None and plan.log.notes:  # how it was read: what was given and what was detected
            parts.append(f"<p>The mount log's reader says: {_e('; '.join(plan.log.notes))}.</p>")
    if plan.library_flows:
        parts.append("<p>The tape library's own flows replace the day's writes and recalls in its plan:</p>")
        rows = [(f.flow.name, _n(f.flow.rate_mb_s), _n(f.flow.peak_factor),
                 _n(f.flow.efficiency) if f.flow.efficiency is not None else "from its access pattern",
                 "yes" if f.writes else "no") for f in plan.library_flows]  # fmt: skip
        parts.append(_table(rows, ["flow", "rate [MB/s]", "factor [-]", "efficiency [-]", "adds to the archive"],
                            num=[False, True, True, True, False]))  # fmt: skip
    if vts is None:
        return "\n".join(parts)
    info = [(k, _n(v, 4) if not isinstance(v, str) else v) for k, v in {**day.summary(), **vts.day}.items()]
    parts.append(_table(info, ["quantity", "value"], num=[False, True]))

    keys = [k for k in COLUMNS if day.has(k)]
    hours = [[_n(r[k], 4) for k in keys] for r in day.rows()]
    parts.append("<h3>Hour by hour</h3>")
    parts.append(_table(hours, [COLUMNS[k].header for k in keys], num=[True] * len(keys)))
    return "\n".join(parts)


def _recommendation_section(result) -> str:
    vts, lib = result.vts, result.library
    if vts is None:
        return f"<h2>Recommendation</h2><p class=lead>{_e(lib.headline())}</p>"
    parts = ["<h2>Recommendation</h2>", f"<p class=lead>{_e(vts.headline())}</p>"]
    c = vts.closest
    title = (
        "Margins of the recommended configuration" if vts.recommended else f"Where {c.config.label} misses"
    )
    rows = []
    for ch in c.checks:
        text, cls = _status(ch.ok)
        rows.append((ch.label, _n(ch.value), _n(ch.limit), ch.unit, _n(ch.margin), (text, cls), ch.text))
    parts += [f"<h3>{_e(title)}</h3>",
              _table(rows, ["target", "value", "target", "unit", "margin", "", "in words"],
                     num=[False, True, True, False, True, False, False])]  # fmt: skip
    parts.append(
        f"<p>Peak write {_n(c.peak_mb_s)} MB/s, sustained {_n(c.sustained_mb_s)} MB/s (write_rate); at peak "
        f"{_n(c.hours_at_peak)} h; backlog cleared at hour {_n(c.backlog_cleared_hours)}; "
        f"{_n(c.carried_gb)} GB carried into the next day; the sustained write is bound by the "
        f"{_e(c.binding_resource)}.</p>"
    )
    parts.append(f"<p class=lead>{_e(lib.headline())}</p>")
    return "\n".join(parts)


def _configurations_section(vts, hits: bool = False) -> str:
    """Every configuration's numbers; with a mount log's hits (``hits``), each one's read-hit ratio too."""
    rows = []
    for r in vts.results:
        text, cls = _status(r.meets)
        mark = " ◀ recommended" if vts.recommended is r else ""
        rows.append((r.config.label + mark, *((_n(r.read_hit),) if hits else ()), _n(r.peak_mb_s), _n(r.sustained_mb_s),
                     _n(r.hours_at_peak), _n(r.hours_throttled), _n(r.longest_delay_hours), _n(r.worst_recall_ready_s),
                     int(r.copy_drives.max()) if r.copy_drives.size else 0, r.binding_resource, (text, cls)))  # fmt: skip
    head = ["configuration", *(["read hit [-]"] if hits else []), "peak [MB/s]", "sustained [MB/s]", "at peak [h]",
            "throttled [h]", "longest delay [h]", "recall ready [s]", "copy drives", "binds", "targets"]  # fmt: skip
    num = [False] + [True] * (8 if hits else 7) + [False, False]
    return "<h2>Every configuration</h2>" + _table(rows, head, num=num)


def _library_section(lib) -> str:
    s = lib.sizing
    rows = [(n, _n(e), _n(d)) for n, e, d in zip(s.names, s.efficiencies, s.drives, strict=True)]
    parts = ["<h2>Tape-library plan</h2>",
             f"<p>Drive: {_e(lib.drive or 'given speed')}, {_n(lib.speed_mb_s)} MB/s. Drives per flow: "
             "rate · factor / efficiency / speed (cern-tape-sizing-2005, Summary).</p>",
             _table(rows, ["flow", "efficiency [-]", "drives [-]"], num=[False, True, True])]  # fmt: skip
    if lib.recall_flow is not None:
        parts.append(
            f"<p>Recalls in the busiest hour: {_n(lib.recalls_per_hour)} per hour; each keeps a drive "
            f"{_n(lib.recall_service_s)} s and is ready {_n(lib.recall_ready_s)} s after it starts. Drives the wait "
            f"target needs: {_e(lib.recall_drives_for_wait if lib.recall_drives_for_wait is not None else '—')}.</p>"
        )
    parts.append(f"<p><b>{lib.drives} drives; {_e(lib.governs)} governs.</b></p>")
    if lib.recall_flow is not None and lib.robot_wait_s > 0:
        parts.append(f"<p>Each recall first waits {_n(lib.robot_wait_s)} s on average for a robot (its move "
                     f"{_n(lib.robot_move_s)} s; the robots an M/D/c queue of moves, library.robot_wait_s), its drive "
                     "reserved: the wait is part of its drive time and ready time above.</p>")  # fmt: skip
    if lib.replay is not None:
        r = lib.replay
        tried = ", ".join(f"{k}: {_n(v)} s" for k, v in r.tried.items())
        parts.append(f"<p><b>The recall target checked by replay of the mount log:</b> {r.drives} drives meet "
                     f"{_n(r.target_s)} s at the {_n(r.q * 100)}th percentile (each request of the log mounted, "
                     f"robots, loads, locates and reads of the drive; vtsmodel.replay.replay_drives_needed); the "
                     f"analytic count for the same log (M/G/c, its own service mean and cv): "
                     f"{_e(r.analytic_drives if r.analytic_drives is not None else 'none')}. The replay's percentile "
                     f"by drives tried: {_e(tried)}.</p>")  # fmt: skip
    if lib.over_years is not None:
        parts.append(_over_years_section(lib.over_years))
    for n in lib.notes:
        parts.append(f"<p class=small>{_e(n)}</p>")
    return "\n".join(parts)


def _span(counts) -> str:
    first, last = int(counts[0]), int(counts[-1])
    return f"{first}" if first == last else f"{first} to {last}"


def _whole(x) -> str:
    """A whole number in full (1,443), another to four significant digits (74.34)."""
    return f"{int(x):,}" if math.isfinite(x) and float(x).is_integer() else _n(x, 4)


def _margin_cell(v) -> str:
    """A margin's number: whole ones with every digit (1,443 slots), others to 3 digits; inf in words."""
    return count_or_number(v) if math.isfinite(float(v)) else _n(v)


def _count(v) -> str:
    """A count in a table: whole, with separators; ``—`` where there is none (NaN), "more than one library" for inf."""
    if math.isnan(v):
        return "—"
    return "more than one library" if math.isinf(v) else f"{int(v):,}"


def _over_years_section(y) -> str:
    """The library year by year: what to install, the margins of the last year, what binds, the cost."""
    r, n = y.years, int(y.year[-1])
    unit = f"{y.unit}s"
    fam = r.library.label if r.library is not None else "no library family"
    parts = ["<h3>The library over the years</h3>",
             f"<p>{_e(fam)}; {_e(r.drive)}, {_n(r.archive.cartridge_tb)} TB a cartridge (native capacity × "
             f"compression × fill); {r.archive.copies} cop{'y' if r.archive.copies == 1 else 'ies'}, "
             f"{r.archive.offsite_copies} off site; robots {_e(_span(r.robots))}, a move {_n(r.robot_move_s)} s "
             f"({_e(r.robot_move_basis)}). Year 0 is now.</p>"]  # fmt: skip
    slots, bays = y.usable_slots(), y.drive_bays()
    ready = y.recall_ready_q_s
    cols = {
        "year": [int(v) for v in y.year], "stored [TB]": [_n(v, 4) for v in r.archive.stored_tb],
        "cartridges, every copy": [f"{int(v):,}" for v in r.archive.cartridges] if r.archive.offsite_copies else None,
        "cartridges in the library": [f"{int(v):,}" for v in r.archive.cartridges_onsite],
        unit: [_count(v) for v in r.units] if r.has_frames else None,
        "usable slots": [_count(v) for v in slots] if r.has_frames else None,
        "drives": [int(v) for v in r.drives], "drive bays": [_count(v) for v in bays] if r.has_frames else None,
        "robots": [int(v) for v in r.robots], "mounts per hour": [_n(v) for v in r.mounts_per_hour],
        "recall ready [s]": [_n(v) if not math.isnan(v) else "—" for v in ready] if not np.isnan(ready).all() else None,
        "binds": list(r.binding) if r.has_frames else None,
    }  # fmt: skip
    cols = {k: v for k, v in cols.items() if v is not None}
    rows = list(zip(*cols.values(), strict=True))
    parts.append(_table(rows, list(cols), num=[k != "binds" for k in cols]))
    checks = []
    for ch in y.checks():
        text, cls = _status(ch.ok)
        checks.append(
            (
                ch.label,
                _margin_cell(ch.value),
                _margin_cell(ch.limit),
                ch.unit,
                _margin_cell(ch.margin),
                (text, cls),
                ch.text,
            )
        )
    parts += [f"<h3>Margins in year {n}</h3>",
              _table(checks, ["margin of", "value", "limit", "unit", "margin", "", "in words"],
                     num=[False, True, True, False, True, False, False])]  # fmt: skip
    if r.binding[-1]:
        parts.append(f"<p><b>What binds in year {n}: {_e(r.binding[-1])}</b> (the fullest of the slots, the "
                     "drive bays and the robots' mounts per hour, library.library_binding).</p>")  # fmt: skip
    if r.fill_years:
        fills = "; ".join(f"{k} {y.unit}{'s' if k > 1 else ''}: " + ("holds every year" if v is None else f"full in year {v}")
                          for k, v in sorted(r.fill_years.items())[-6:])  # fmt: skip
        parts.append(f"<p>When each configuration fills: {_e(fills)}.</p>")
    if y.cost is not None:
        c = y.cost
        rows = [(int(yr), _n(py, 6), _n(cu, 6), _n(pt, 4) if not math.isnan(pt) else "—")
                for yr, py, cu, pt in zip(y.year, c["per_year"], c["cumulative"], c["per_tb"], strict=True)]  # fmt: skip
        parts += [f"<h3>Cost, from your prices ({_e(', '.join(c['items']))})</h3>",
                  "<p class=small>Your prices, in your currency, as you entered them; nothing else is priced.</p>",
                  _table(rows, ["year", "spent", "spent so far", "per TB stored"], num=[True] * 4)]  # fmt: skip
    return "\n".join(parts)


def _model_summary(dotted: str) -> tuple[str, str]:

    mod, _, name = dotted.rpartition(".")
    func = getattr(importlib.import_module(mod), name)
    doc = (func.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
    return doc, ", ".join(getattr(func, "__vtsmodel_cites__", ()))


def _statements_section(result) -> str:

    parts = ["<h2>What each number rests on</h2>", "<h3>Model functions</h3>"]
    rows = [(name, *_model_summary(name)) for name in result.models]
    parts.append(_table(rows, ["function", "what it computes", "data it cites"]))
    parts.append(_ledger(result))
    parts.append("<h3>Data rows the planner reads</h3>")
    rows = []
    for table, row_id in result.rows:
        p = load(table).provenance(row_id)
        rows.append((f"{table}: {row_id}", f"{p.source}, {p.locator}", p.printed or _n(p.value),
                     p.quote or p.note))  # fmt: skip
    parts.append(_table(rows, ["row", "where", "as printed", "statement"]))
    return "\n".join(parts)


_STATUS_CLASS = {"reproduced": "ok", "contradicted": "fail", "source-inconsistent": "fail"}


def ledger_rows(result) -> list[dict]:
    """The statement ledger's rows behind a plan: those of the models it used and the rows it read.

    Parameters
    ----------
    result : vtsmodel.plan.PlanResult

    Returns
    -------
    list of dict
        Ledger rows (``data/statements.csv``), each once, in ledger order.
    """
    models = set(result.models)
    keep = {r["id"] for r in statements() if r["model"] in models}
    for table, row_id in result.rows:
        keep |= {r["id"] for r in statements_for(f"{table}:{row_id}")}
    return [r for r in statements() if r["id"] in keep]


def _check_text(r: Mapping) -> str:
    if not r["relation"]:
        return ""
    if r["relation"] == "holds":
        return "holds" if r["computed"] == 1.0 else "does not hold"
    tol = f" ± {_n(r['tolerance'], 4)}" if r["tolerance"] else ""
    unit = f" {r['unit']}" if r["unit"] and r["unit"] != "1" else ""
    return f"model {_n(r['computed'], 4)}{unit}; source {r['relation']} {_n(r['expected'], 4)}{tol}{unit}"


def _ledger(result) -> str:
    rows = []
    for r in ledger_rows(result):
        status = (_e(r["status"]), _STATUS_CLASS.get(r["status"], ""))
        where = (f"{_e(r['id'])}<br><span class=small>{_e(r['source'])}, {_e(r['locator'])}</span>", "")
        model = r["model"].removeprefix("vtsmodel.")
        rows.append((where, r["quote"] or r["claim"], model, status, _check_text(r)))
    if not rows:
        return ""
    return (
        "<h3>Statements of the sources (the statement ledger)</h3><p class=small>Each statement the models "
        "used here answer or read, and its status: <i>reproduced</i> (the model gives what the source states, "
        "independently), <i>calibrated</i> (a constant was solved or fitted to it: no evidence), "
        "<i>by-construction</i> (the model encodes it: the check verifies the implementation, no evidence), "
        "<i>data-only</i> (a value read, nothing to check), <i>source-inconsistent</i> or "
        "<i>contradicted</i>.</p>"
        + _table(
            rows, ["statement", "the source says", "model", "status", "check"], widths=(20, 38, 16, 11, 15)
        )
    )


def _assumptions_section() -> str:

    rows = [(a["assumption"], a["value"], a["source"]) for a in assumptions()]
    return "<h2>Assumptions</h2>" + _table(rows, ["assumption", "value", "source or reason"])


def report_html(result, *, generated: str | None = None) -> str:
    """The report of an evaluated plan as one offline HTML page.

    Parameters
    ----------
    result : vtsmodel.plan.PlanResult
    generated : str, optional
        The date line; default now (UTC).
    """
    plan = result.plan
    title = "Plan" if plan.name == "plan" else plan.name  # "plan" is the name a plan has until one is given
    when = generated or dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    cfg = {"displaylogo": False, "displayModeBar": False, "responsive": False}
    figs = plan_figures(result)
    closest = result.vts.closest.config.label if result.vts is not None else ""
    captions = {
        "capacity": ("The cartridges in the library each year (year 0: now) against the usable slots of each "
                     "configuration of the library family, and the year each fills (library_years)."),
        "day": (f"The day simulated hour by hour (simulate_tvc) with {closest}: host writes "
                "offered and accepted, the copy to tape, and un-copied data against the fill threshold."),
        "configurations": ("Each cache configuration's time throttled and longest write delay (any drive count), and "
                           "the recall ready time at the percentile by drive count (missing points: no steady state)."),
        "tornado": ("How far each answer moves when each input moves down and up by the stated fraction, for the "
                    "configuration held fixed; inputs clipped to their valid ranges."),
    }  # fmt: skip
    body = [
        f"<h1>{_e(title)}</h1>",
        f"<p class=small>A VTS and tape-library plan made with vtsmodel {_e(vtsmodel.__version__)} on {_e(when)}. "
        "Every number comes from the project's models and cited data; the sections below list them.</p>",
        _recommendation_section(result),
        "<h2>Figures</h2>",
        *(_fig_html(fig, f"fig-{key}", captions[key], cfg) for key, fig in figs.items()),
        _answers_section(plan, result.vts),
        _configurations_section(result.vts, hits=plan.hits is not None) if result.vts is not None else "",
        _library_section(result.library),
        _assumptions_section(),
        _statements_section(result),
    ]
    notes = result.notes
    if notes:
        body.append("<h2>Extrapolations</h2>" + "".join(f"<p class=small>{_e(n)}</p>" for n in notes))
    refs = cite(*result.sources).splitlines()
    body.append("<h2>References</h2><ul>" + "".join(f"<li>{_e(r)}</li>" for r in refs) + "</ul>")
    head = (f"<meta charset='utf-8'><title>{_e(title)} (vtsmodel plan report)</title><style>{_CSS}</style>"
            f"<script type='text/javascript'>{plotly.offline.get_plotlyjs()}</script>")  # fmt: skip
    return (
        f"<!DOCTYPE html>\n<html lang='en'><head>{head}</head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


# --- PDF ------------------------------------------------------------------------------------------
def html_to_pdf(page: str, *, timeout_s: float = PDF_TIMEOUT_S) -> bytes:
    """Print an HTML page to PDF with a headless Chromium (A4, no header or footer).

    Raises
    ------
    RuntimeError
        When no browser is found (the message says how to get one), the browser fails,
        or it takes longer than ``timeout_s``.
    """
    browser = find_chromium()
    if browser is None:
        raise RuntimeError(f"A PDF report needs a Chromium browser. {HOW_TO_GET}")
    with tempfile.TemporaryDirectory(prefix="vtsmodel-report-") as tmp:
        src, out = Path(tmp) / "report.html", Path(tmp) / "report.pdf"
        src.write_text(page, encoding="utf-8")
        args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update", "--disable-extensions",
                "--disable-sync", f"--user-data-dir={Path(tmp) / 'profile'}", "--no-pdf-header-footer",
                "--virtual-time-budget=10000", f"--print-to-pdf={out}", src.as_uri()]  # fmt: skip
        try:
            proc = subprocess.run(args, capture_output=True, timeout=timeout_s, check=False,
                                  env={**os.environ, "HOME": tmp})  # fmt: skip
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"the browser took longer than {timeout_s:g} s to print the report") from None
        if not out.exists() or out.stat().st_size == 0 or not out.read_bytes().startswith(b"%PDF"):
            tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise RuntimeError(f"the browser did not print the report (exit {proc.returncode}): {tail[0]}")
        return out.read_bytes()


# --- the API ------------------------------------------------------------------------------------
def _result(plan_or_result, fraction: float):

    if isinstance(plan_or_result, PlanResult):
        return plan_or_result
    if isinstance(plan_or_result, Plan):
        return evaluate(plan_or_result, fraction=fraction)
    raise ValueError(f"plan={plan_or_result!r} must be a Plan or a PlanResult")


def report_bytes(plan, fmt: str = "html", *, fraction: float = 0.2, generated: str | None = None) -> bytes:
    """The plan report as bytes: ``"html"`` (offline, UTF-8) or ``"pdf"``.

    Parameters
    ----------
    plan : vtsmodel.plan.Plan or vtsmodel.plan.PlanResult
        A plan (evaluated here) or one already evaluated.
    fmt : {"html", "pdf"}
    fraction : float
        The sensitivity's move of each input, when ``plan`` is not yet evaluated. [-]
    generated : str, optional
        The date line; default now (UTC).
    """
    if fmt not in FORMATS:
        raise ValueError(f"fmt={fmt!r} is not valid; choose one of {', '.join(FORMATS)}")
    page = report_html(_result(plan, fraction), generated=generated)
    return page.encode("utf-8") if fmt == "html" else html_to_pdf(page)


def write_report(plan, path: str | os.PathLike, *, fmt: str | None = None, overwrite: bool = False,
                 fraction: float = 0.2) -> Path:  # fmt: skip
    """Write the report to ``path`` atomically (format from ``fmt`` or the suffix, ``.html`` or ``.pdf``).

    An existing file is replaced only if ``overwrite``; nothing is written when the report
    fails.
    """
    path = Path(path)
    fmt = fmt or path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise ValueError(
            f"report {path.name!r}: the format must be one of {', '.join(FORMATS)} (from the suffix)"
        )
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists; pass overwrite=True to replace it")
    return atomic_write(path, report_bytes(plan, fmt, fraction=fraction), overwrite=overwrite, parents=True)
