"""Lesson 08, the recalls each cache size leaves: recalls per hour and the recall wait, per Table 3 size.

A read or a specific-mount write that misses the cache recalls its volume from tape
(ibm-vts-b18-2000, Sec. 3.4); the recalls per hour the curve leaves at each capacity queue
for the drives not copying, and :func:`vtsmodel.hits.recall_waits` gives the time to a
recalled volume being ready at a percentile. The figure (recalls per hour and the ready
time vs capacity), the Table 3 rows as a table and as CSV, and the notebook's numbers. The
page is :class:`vtsmodel.app.lessons.hits.HitsPage`.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from vtsmodel import Input, hits
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, point_mark
from vtsmodel.app.lessons.hit_curve import (
    VTS,
    LogSource,
    Scale,
    capacity_line,
    curve_of,
    example_source,
    factor,
    log_x,
    numbers_table,
    scale_of,
    table3,
)
from vtsmodel.app.panels import View
from vtsmodel.app.text import duration, number, size
from vtsmodel.plan import answer_inputs

_ASSUMED = "project assumption"
#: What the page says where the recall queue does not apply (:attr:`RecallCurves.queued`).
NOT_QUEUED = (
    "not modelled: this log's objects are whole cartridges, and the queue is a VTS B18's "
    "(a recall reads one logical volume on a 3590); lesson 09 replays the log on a library's drives"
)


def whole_cartridges(source: LogSource) -> bool:
    """Whether ``source``'s log names only cartridges (each cartridge one object: a tape library's request log)."""
    return source.log.objects_are_cartridges


INPUTS = {
    "recall_specific_writes": Input("specific-write misses are recalls", "", True, source=f"{VTS}, Sec. 3.4",
                                    help="A specific-mount write whose volume is not in the cache recalls it."),
    "total_drives": Input("3590 drives", "-", 6, lo=3, hi=6, integer=True, source=f"{VTS}, Sec. 2 (three to six)",
                          help="Tape drives in the VTS."),
    "copy_drives": Input("drives copying", "-", 2, lo=0, hi=5, integer=True,
                         source=f"{VTS}, Sec. 3.2.2 (two of six in its example)",
                         help="Drives busy copying the cache to tape; the rest serve recalls."),
    "vts_drive": answer_inputs()["vts_drive"].but(help="The 3590 model that reads a recalled volume."),
    "percentile": Input("recall ready at percentile", "-", 0.95, lo=0.5, hi=0.99, step=0.01, source=_ASSUMED,
                        help="Share of the recalls that are ready within the time shown."),
    "busiest_hour": Input("recalls of the busiest hour", "", False, source=_ASSUMED,
                          help="Off: the log's mean recall rate; on: the recalls of its busiest clock hour."),
}  # fmt: skip


def waits(capacity_gb, source: LogSource, cf, cache_rule, warmup_hours, recall_specific_writes=True, total_drives=6,
          copy_drives=2, vts_drive="3590B", percentile=0.95, busiest_hour=False, in_log_sizes=False) -> hits.RecallWaits:  # fmt: skip
    """The recall queue at physical capacities ``capacity_gb`` (:func:`vtsmodel.hits.recall_waits`).

    With ``in_log_sizes``, the capacities are in the log's own sizes (no TVC conversion).
    """
    curve = curve_of(source, warmup_hours)
    k = 1.0 if in_log_sizes else factor(source, cf, cache_rule)
    at = curve.at(np.asarray(capacity_gb, float) * k, recall_specific_writes=recall_specific_writes)
    return hits.recall_waits(at, size_basis=curve.size_basis, cf=cf, total_drives=total_drives,
                             copy_drives=copy_drives, drive=vts_drive, percentile=percentile,
                             busiest_hour=busiest_hour)  # fmt: skip


# --- the figure ------------------------------------------------------------------------------------


def _minutes(seconds) -> np.ndarray:
    return np.where(np.isfinite(seconds), np.asarray(seconds) / 60.0, np.nan)


@dataclass(frozen=True, eq=False)
class RecallCurves:
    """The recalls a log leaves and their waits, at every capacity of the figure's axis and each Table 3 size.

    Attributes
    ----------
    source : LogSource
    percentile : float
    busiest_hour : bool
        The recall rate of the log's busiest clock hour rather than its mean.
    grid : vtsmodel.hits.RecallWaits
        At every capacity of the figure's axis (``scale.grid``).
    table3 : vtsmodel.hits.ConfigurationHits
        Each Table 3 size's hits and recalls.
    at_table3 : vtsmodel.hits.RecallWaits
        The recall queue at each marked capacity (Table 3's sizes, or the chosen ones).
    scale : Scale
        The axis and the marks (:func:`~.hit_curve.scale_of`).
    marked : vtsmodel.hits.CapacityHits
        The hits at the marked capacities.
    """

    source: LogSource
    percentile: float
    busiest_hour: bool
    grid: hits.RecallWaits
    table3: hits.ConfigurationHits
    at_table3: hits.RecallWaits
    scale: Scale
    marked: hits.CapacityHits

    @property
    def queued(self) -> bool:
        """Whether the recall queue applies: not to a log whose objects are whole cartridges.

        The queue is a VTS B18's: a recall reads one logical volume on a 3590
        (ibm-vts-b18-2000, Sec. 3.4). A tape library's request log names only cartridges,
        and a mount reads part of one, not the whole: the queue's service times would be
        those of reading every cartridge end to end. Lesson 09 replays such a log on a
        library's drives and robots instead.
        """
        return not whole_cartridges(self.source)


def recall_curves(source: LogSource, cf, cache_rule, warmup_hours, recall_specific_writes=True, total_drives=6,
                  copy_drives=2, vts_drive="3590B", percentile=0.95, busiest_hour=False, capacities=None) -> RecallCurves:  # fmt: skip
    """The recall queue at every capacity of the axis and at each marked one (kept per setting: the capacity moves marks only).

    ``capacities``: None for Table 3's sizes on the physical axis, else capacities in the log's sizes.
    """
    queue = {"source": source, "cf": cf, "cache_rule": cache_rule, "warmup_hours": warmup_hours,
             "recall_specific_writes": recall_specific_writes, "total_drives": total_drives, "copy_drives": copy_drives,
             "vts_drive": vts_drive, "percentile": percentile, "busiest_hour": busiest_hour}  # fmt: skip
    t = table3(source, cf, cache_rule, warmup_hours, recall_specific_writes)
    sc = scale_of(source, cf, cache_rule, warmup_hours, capacities)
    in_log = not sc.table3
    marked = curve_of(source, warmup_hours).at(sc.marks_log, recall_specific_writes=recall_specific_writes)
    return RecallCurves(source, float(percentile), bool(busiest_hour), waits(sc.grid, **queue, in_log_sizes=in_log), t,
                        waits(sc.marks, **queue, in_log_sizes=in_log), sc, marked)  # fmt: skip


def recalls_base(curves: RecallCurves) -> dict:
    """Recalls per hour and the recall ready time at the percentile vs capacity (Table 3's axis or the log's sizes)."""
    source, percentile, busiest_hour = curves.source, curves.percentile, curves.busiest_hour
    q_grid, q3, sc = curves.grid, curves.at_table3, curves.scale
    GRID, X_RANGE = sc.grid, sc.x_range  # noqa: N806 - this figure's axis
    what = "TVC" if sc.table3 else "capacity"
    pct = f"{100 * percentile:g}th percentile"
    rate = "busiest hour" if busiest_hour else "mean over the log"
    rows = 2 if curves.queued else 1  # whole cartridges: the recalls alone (NOT_QUEUED)
    titles = ((f"recalls per hour ({rate})", f"recall ready at the {pct}, on {q3.recall_drives} drive(s)") if rows == 2
              else (f"recalls per hour ({rate}); their waits are not modelled for whole cartridges",))  # fmt: skip
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, vertical_spacing=0.1, subplot_titles=titles)
    fig.update_layout(new_figure(height=600).layout)
    fig.update_layout(
        title={"text": f"The recalls each cache size leaves: {source.name}", "x": 0.0, "xanchor": "left"}
    )
    ring = {"size": 10, "symbol": "circle-open", "line": {"width": 2}}
    fig.add_trace(go.Scatter(x=GRID, y=q_grid.recalls_per_hour, mode="lines", name="recalls per hour",
                             line={"color": COLORS[1], "width": 3}, hovertemplate="%{x:,.4g} GB: %{y:.3g} per hour<extra></extra>"),
                  row=1, col=1)  # fmt: skip
    fig.add_trace(go.Scatter(x=sc.marks, y=q3.recalls_per_hour, mode="markers", name=sc.mark_name, marker={"color": COLORS[1], **ring},
                             hovertext=[f"{what} {g:,.4g} GB: {number(r)} recalls per hour" for g, r in zip(sc.marks, q3.recalls_per_hour, strict=True)],
                             hoverinfo="text"), row=1, col=1)  # fmt: skip
    if rows == 1:
        return _finish(fig, sc, rows)
    ready, wait = _minutes(q_grid.response_s), _minutes(q_grid.wait_s)
    for y, name, line in ((ready, f"recall ready ({pct})", {"width": 3}), (wait, "of which waiting for a drive", {"width": 2, "dash": "dot"})):  # fmt: skip
        fig.add_trace(go.Scatter(x=GRID, y=y, mode="lines", name=name, line={"color": COLORS[4], **line},
                                 hovertemplate="%{x:,.4g} GB: %{y:.3g} min<extra></extra>"), row=2, col=1)  # fmt: skip
    fig.add_trace(go.Scatter(x=sc.marks, y=_minutes(q3.response_s), mode="markers", name=f"{sc.mark_name}, ready", showlegend=False,
                             marker={"color": COLORS[4], **ring}, hoverinfo="text",
                             hovertext=[f"{what} {g:,.4g} GB: {duration(s)}" for g, s in zip(sc.marks, q3.response_s, strict=True)]),
                  row=2, col=1)  # fmt: skip
    saturated = GRID[np.isinf(q_grid.response_s)]
    if saturated.size:
        fig.add_vrect(x0=X_RANGE[0], x1=float(saturated.max()), fillcolor="#B00020", opacity=0.08, line_width=0,
                      row=2, col=1)  # fmt: skip
        fig.add_annotation(x=0.5, y=0.95, xref="x2 domain", yref="y2 domain", showarrow=False, font={"size": 11, "color": "#B00020"},
                           text="shaded: no steady state (recalls arrive faster than the drives serve them)")  # fmt: skip
    top = float(np.nanmax(ready)) if np.isfinite(ready).any() else 5.0
    fig.update_yaxes(title_text="[min]", range=[0, 1.1 * min(top, 120.0)], row=2, col=1)
    return _finish(fig, sc, rows)


def _finish(fig, sc: Scale, rows: int) -> dict:
    """The plots' axes (``rows`` of them), the title and the legend above the plots."""
    rates = fig.data[0].y
    most = float(np.nanmax(rates)) if np.isfinite(rates).any() else 1.0
    fig.update_yaxes(title_text="[1/h]", range=[0, 1.1 * max(most, 1e-3)], row=1, col=1)
    log_x(fig, sc.x_range)
    fig.update_xaxes(title_text=sc.title, row=rows, col=1)
    # the title, then the legend, then the plots (an export keeps a legend above the plots)
    height = 600 if rows == 2 else 420
    fig.update_layout(height=height, margin={"t": 120, "b": 60},
                      title={"y": 1 - 10 / height, "yanchor": "top", "yref": "container"},
                      legend={"orientation": "h", "x": 0, "xanchor": "left", "yref": "container",
                              "y": 1 - 42 / height, "yanchor": "top"})  # fmt: skip
    return figure_json(fig)


# --- the view --------------------------------------------------------------------------------------


def _ready(ready_s: float, wait_s: float) -> str:
    if math.isnan(ready_s):
        return "no recalls"
    if math.isinf(ready_s):
        return "no steady state (the queue grows)"
    return f"{duration(ready_s)}, of which {duration(wait_s)} waiting"


def view_recalls(r) -> View:
    """The recalls figure with its marks at the capacity, the recalls and their wait there (``r``: a :class:`~.hit_curve.HitsResult`).

    With chosen capacities (in the log's sizes), the figure marks them and the readouts speak of the largest.
    """
    queue, wq, queued = r.queue, r.waits_here, r.recalls.queued
    chosen = r.capacities is not None
    at = float(max(r.capacities)) if chosen else r.capacity_gb  # the waits at the largest chosen capacity
    shapes = []
    if not chosen:
        shapes = [capacity_line(at),
                  point_mark(at, float(wq.recalls_per_hour[0]), color=COLORS[1], name="recalls here", showlegend=False)]  # fmt: skip
        if queued:  # the lower plot's
            shapes += [capacity_line(at, xref="x2", yref="y2"),
                       point_mark(at, float(wq.response_s[0]) / 60.0, xref="x2", yref="y2", color=COLORS[4],
                                  name="ready here", showlegend=False)]  # fmt: skip
    plot = Plot(recalls_base, {"curves": r.recalls}, shapes=shapes)
    ready = float(wq.response_s[0])
    pct = f"{100 * queue['percentile']:g}th percentile"
    where = f" at {size(at)}" if chosen else ""
    readouts = {
        f"recalls{where}": f"{number(float(wq.recalls_per_hour[0]))} per hour" + (" (busiest hour)" if queue["busiest_hour"] else ""),
    }  # fmt: skip
    if not queued:
        return View(figures={"recalls": plot}, readouts={**readouts, "recall waits": NOT_QUEUED})
    readouts |= {
        "mean recalled volume": f"{number(float(wq.volume_mb[0]))} MB uncompressed",
        "drives for recalls": f"{wq.recall_drives} ({queue['total_drives']} − {queue['copy_drives']} copying)",
        "recall drive utilisation": number(float(wq.utilisation[0])),
        f"recall ready ({pct})": _ready(ready, float(wq.wait_s[0])),
    }  # fmt: skip
    binding = ""
    if math.isinf(ready):
        binding = (f"At {number(at)} GB the recalls ({number(float(wq.recalls_per_hour[0]))} per hour) need more "
                   f"than the {wq.recall_drives} drive(s) left: utilisation {number(float(wq.utilisation[0]))}, "
                   "the queue grows without bound.")  # fmt: skip
    return View(figures={"recalls": plot}, readouts=readouts, binding=binding)


# --- the Table 3 rows ------------------------------------------------------------------------------

COLUMNS = ("TVC [GB]", "offered with", "compared [GB]", "read hits [%]", "read hits, bytes [%]", "recalls [1/h]",
           "busiest hour [recalls]", "recalled volume [MB]", "utilisation [-]", "wait at pct [s]", "ready at pct [s]")  # fmt: skip


def table3_rows(curves: RecallCurves) -> list[dict]:
    """One row per Table 3 size: hits, recalls and the recall queue (what the table and its CSV show)."""
    t, wq = curves.table3, curves.at_table3
    cols = (t.tvc_gb, t.offered_with, t.capacity_gb, 100 * t.read_hit_ratio, 100 * t.read_byte_hit_ratio,
            t.recalls_per_hour, t.peak_hour_recalls, wq.volume_mb, wq.utilisation, wq.wait_s, wq.response_s)  # fmt: skip
    return [dict(zip(COLUMNS, (v if isinstance(v, str) else float(v) for v in row), strict=True)) for row in zip(*cols, strict=True)]  # fmt: skip


#: The columns of the rows at capacities the person chose (in the log's sizes).
CHOSEN_COLUMNS = ("capacity [GB]", *COLUMNS[3:])


def capacity_rows(curves: RecallCurves) -> list[dict]:
    """One row per chosen capacity (in the log's sizes): hits, recalls and the recall queue."""
    h, wq = curves.marked, curves.at_table3
    cols = (curves.scale.marks, 100 * h.read_hit_ratio, 100 * h.read_byte_hit_ratio, h.recalls_per_hour,
            h.peak_hour_recalls, wq.volume_mb, wq.utilisation, wq.wait_s, wq.response_s)  # fmt: skip
    return [dict(zip(CHOSEN_COLUMNS, map(float, row), strict=True)) for row in zip(*cols, strict=True)]


#: The columns of the recall queue (left out where it does not apply: :attr:`RecallCurves.queued`).
QUEUE_COLUMNS = COLUMNS[-4:]


def rows_of(curves: RecallCurves) -> list[dict]:
    """The rows the table shows: Table 3's sizes, or the chosen capacities (without the queue's columns for whole cartridges)."""
    rows = table3_rows(curves) if curves.scale.table3 else capacity_rows(curves)
    if curves.queued:
        return rows
    return [{k: v for k, v in row.items() if k not in QUEUE_COLUMNS} for row in rows]


def cell(key: str, v) -> str:
    """A Table 3 row's value as the table shows it (HTML)."""
    if isinstance(v, str):
        return html.escape(v)
    if math.isinf(v):
        return "no steady state"
    if key in ("TVC [GB]", "busiest hour [recalls]") and math.isfinite(v):
        return f"{v:,.0f}"  # whole numbers, every digit
    if key == "capacity [GB]":
        return size(v)
    return number(v, 4 if key == "compared [GB]" else 3)


def table3_html(rows: list[dict], percentile: float) -> str:
    """The rows (Table 3's, or the chosen capacities') as an HTML table."""
    keys = list(rows[0]) if rows else list(COLUMNS)
    shown = {"capacity [GB]": "capacity (the log's sizes)"}  # its cells carry their unit
    head = [html.escape(shown.get(h, h).replace("pct", f"{100 * percentile:g}th pct")) for h in keys]
    return numbers_table(head, [[cell(k, v) for k, v in r.items()] for r in rows], "vtsmodel-hits-table")


def table3_csv(rows: list[dict], source: LogSource) -> str:
    """The rows as CSV, headed by where they came from (text cells guarded: vtsmodel.files.csv_row)."""
    from vtsmodel.files import csv_row

    keys = list(rows[0]) if rows else list(COLUMNS)
    by = "Table 3 TVC size" if keys[0] == COLUMNS[0] else "cache capacity (the log's sizes)"
    name = " ".join(source.name.split())  # one line, whatever the file name holds
    head = (f"# read hits and recalls by {by}, from the mount log {name}"
            f"{' (illustrative, synthetic)' if source.example else ''}; vtsmodel.hits ({VTS}, Table 3)\n")  # fmt: skip
    return head + csv_row(keys) + "".join(csv_row(r.values()) for r in rows)


def example_numbers() -> str:
    """The example log at the defaults: each Table 3 size's read hits and recalls, labelled lines."""
    defaults = {k: INPUTS[k].default for k in INPUTS}
    rows = table3_rows(
        recall_curves(example_source(), cf=3.0, cache_rule="all", warmup_hours=0.0, **defaults)
    )
    lines = [f"{r['TVC [GB]']:,.0f} GB: read hits {number(r['read hits [%]'])} % of reads, "
             f"{number(r['read hits, bytes [%]'])} % of bytes; {number(r['recalls [1/h]'])} recalls per hour; "
             f"ready at the 95th percentile in {duration(r['ready at pct [s]'])}" for r in rows]  # fmt: skip
    curve = curve_of(example_source(), 0.0)
    lines.insert(0, f"example log: {curve.mounts:,} mounts, {curve.volumes:,} volumes, {curve.reads:,.0f} reads, "
                    f"{number(curve.hours)} h")  # fmt: skip
    return "\n".join(lines)
