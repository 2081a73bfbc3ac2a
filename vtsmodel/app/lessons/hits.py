"""Lesson 08: read hits from a mount log, for every cache size, and the recalls they leave.

Sec. 4 of the VTS paper quantifies only the first gain of a larger tape volume cache (time
at peak); of the second, more read hits, it says it is "hard to use in quantifying the
general value of tape cache capacity except for the observation that more is better". With
a mount log the number can be computed (:mod:`vtsmodel.hits`): the read-hit ratio of an LRU
cache at every capacity from one pass, the Table 3 sizes marked, and the recall queue each
size leaves (:func:`vtsmodel.hits.recall_waits`).

The page (:class:`HitsPage`): a mount log uploaded (up to :data:`MAX_UPLOAD_BYTES`; larger
logs go through ``vtsmodel hits``) or the example one, the curve by count and by bytes (a
cached base that depends on the log, the warm-up, what the cache holds and CF; the capacity
slider moves only marks), the recalls and their waits vs capacity, the Table 3 rows as a
table (and CSV), libCacheSim's other policies at the Table 3 sizes, and SHARDS with its
error against the exact curve.
"""

from __future__ import annotations

import functools
import html
import io
import math
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from vtsmodel import hits, mountlog
from vtsmodel import quantities as q
from vtsmodel._inputs import Input
from vtsmodel.app.downloads import upload_control, uploaded_file
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, point_mark
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View, compute
from vtsmodel.app.text import duration, number, percent
from vtsmodel.plan import answer_inputs

LESSON_ID = "08"
TITLE = "Read hits from a mount log: what each cache size saves"
NOTEBOOK = "08_read_hits_from_a_mount_log.ipynb"

#: The example mount log (synthetic, illustrative: not measured), where this copy of vtsmodel has it.
EXAMPLE_LOG = Path(__file__).resolve().parents[3] / "examples" / "example_mount_log.csv"
#: Largest log the page reads (about 200,000 mounts): an upload travels in one message of the
#: page's connection, which the server caps at 10 MiB. Larger logs: ``vtsmodel hits LOG.csv``. [bytes]
MAX_UPLOAD_BYTES = 8_000_000
#: Largest log the page runs the other policies on: each costs one libCacheSim run per Table 3
#: size (the example log, 8,000 mounts: 7 to 11 s for 10 policies × 9 sizes on a shared 2-core machine). [mounts]
MAX_POLICY_MOUNTS = 20_000
#: Capacity axis of the figures (physical TVC), log scale. [GB]
X_RANGE = (10.0, 5000.0)
_GRID = np.geomspace(*X_RANGE, 241)
_TICKS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
_VTS = "ibm-vts-b18-2000"
_ASSUMED = "project assumption"

INPUTS = {
    "cf": q.CF.but(hi=6.0, step=0.1, help="Host bytes per byte stored: converts the log's sizes to what the cache holds, and sets a recall's read time."),
    "cache_rule": Input("feature (cache holds)", "", "all", choices=(
        ("EHPO or PAF: compressed", "all"), ("base: host-size volumes", "base"), ("EHPO: compressed", "ehpo"),
        ("PAF: compressed", "paf")), source=f"{_VTS}, Sec. 2 and Table 3",
        help="The Table 3 sizes offered with the feature, and what its cache holds: with EHPO or PAF compressed "
             "data, in the base VTS host-size data (it compresses at the drive). EHPO or PAF: every Table 3 size."),
    "capacity_gb": q.TVC_GB.but(label="TVC capacity", default=864.0, lo=12.0, lo_open=False, hi=3456.0, step=12.0,
                                help="The physical cache capacity the marks and readouts show (Table 3: 72 to 1,728 GB)."),
    "warmup_hours": Input("warm-up left out", "h", 0.0, lo=0.0, hi=72.0, step=1.0, source=_ASSUMED,
                          help="Mounts in the first hours fill the cache but are not counted: what the cache held "
                               "before the log began is unknown, so a volume's first mount is a miss."),
    "recall_specific_writes": Input("specific-write misses are recalls", "", True, source=f"{_VTS}, Sec. 3.4",
                                    help="A specific-mount write whose volume is not in the cache recalls it."),
    "total_drives": Input("3590 drives", "-", 6, lo=3, hi=6, integer=True, source=f"{_VTS}, Sec. 2 (three to six)",
                          help="Tape drives in the VTS."),
    "copy_drives": Input("drives copying", "-", 2, lo=0, hi=5, integer=True,
                         source=f"{_VTS}, Sec. 3.2.2 (two of six in its example)",
                         help="Drives busy copying the cache to tape; the rest serve recalls."),
    "vts_drive": answer_inputs()["vts_drive"].but(help="The 3590 model that reads a recalled volume."),
    "percentile": Input("recall ready at percentile", "-", 0.95, lo=0.5, hi=0.99, step=0.01, source=_ASSUMED,
                        help="Share of the recalls that are ready within the time shown."),
    "busiest_hour": Input("recalls of the busiest hour", "", False, source=_ASSUMED,
                          help="Off: the log's mean recall rate; on: the recalls of its busiest clock hour."),
    "policies": Input("other policies (libCacheSim)", "", False, source="libCacheSim",
                      help="FIFO, LFU, ARC, … at the Table 3 sizes: one simulation per policy and size."),
    "shards": Input("sampled curve (SHARDS)", "", False, source="Waldspurger et al., FAST 2015",
                    help="The curve from a hashed sample of volumes, and its error against the exact one."),
    "max_volumes": Input("SHARDS sample", "", 1024, choices=tuple((f"{n:,} volumes", n) for n in (256, 1024, 4096, 16384, 65536)),
                         source="Waldspurger et al., FAST 2015",
                         help="Most volumes the sample tracks at once: its memory, whatever the log's length."),
}  # fmt: skip
#: A scenario: the example log seen with these settings (the costly options are the page's).
SCENARIO = ("cf", "cache_rule", "capacity_gb", "warmup_hours", "recall_specific_writes", "total_drives",
            "copy_drives", "vts_drive", "percentile", "busiest_hour")  # fmt: skip
#: What the figures draw on: the paper (cache model, Table 3, drives), CERN (the borrowed recall parts).
_CITATIONS = (_VTS, "vts_tvc_configs", "cern-tape-sizing-2005")


# --- the log and what is computed from it (pure, memoized by the log's identity) ---------------


@dataclass(frozen=True, eq=False)
class LogSource:
    """A mount log the page shows: its name, the log, and whether it is the example."""

    name: str
    log: mountlog.MountLog
    example: bool = False


@functools.cache
def example_source() -> LogSource:
    """The example mount log (synthetic, illustrative)."""
    return LogSource(EXAMPLE_LOG.name, mountlog.read_mount_log(EXAMPLE_LOG), example=True)


def read_upload(data: bytes, name: str) -> LogSource:
    """A mount log from an upload's bytes; ``ValueError`` naming the line, field, value and range."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(f"{name} is larger than {MAX_UPLOAD_BYTES:,} bytes; use vtsmodel hits {name}")
    stream = io.BytesIO(data)
    stream.name = name  # errors name the file
    return LogSource(name, mountlog.read_mount_log(stream))


@functools.lru_cache(maxsize=8)
def curve_of(source: LogSource, warmup_hours: float) -> hits.HitCurve:
    """The exact LRU curve of the log (one pass)."""
    return hits.lru_hit_curve(source.log, warmup_hours=warmup_hours)


@functools.lru_cache(maxsize=8)
def sampled_curve_of(source: LogSource, warmup_hours: float, max_volumes: int) -> hits.HitCurve:
    """The SHARDS curve of the log."""
    return hits.shards_hit_curve(source.log, max_volumes=max_volumes, warmup_hours=warmup_hours)


@functools.lru_cache(maxsize=4)
def policies_of(source: LogSource, capacities: tuple, warmup_hours: float) -> dict[str, hits.CapacityHits]:
    """Every libCacheSim policy at ``capacities`` (in the log's basis): one run per policy and size."""
    return {p: hits.simulate_policy(source.log, capacities, policy=p, warmup_hours=warmup_hours)
            for p in hits.POLICIES}  # fmt: skip


def _feature(cache_rule: str) -> str:
    return "ehpo" if cache_rule == "all" else cache_rule


def table3(
    source: LogSource, cf, cache_rule, warmup_hours, recall_specific_writes=True
) -> hits.ConfigurationHits:
    """Each Table 3 size's hits and recalls (:func:`vtsmodel.hits.configuration_hits`)."""
    feature = None if cache_rule == "all" else cache_rule
    return hits.configuration_hits(curve_of(source, warmup_hours), feature=feature, cf=cf,
                                   recall_specific_writes=recall_specific_writes)  # fmt: skip


def factor(source: LogSource, cf, cache_rule) -> float:
    """GB of the log's sizes one physical GB of cache holds (:func:`vtsmodel.hits.compared_capacity_gb`)."""
    return float(
        hits.compared_capacity_gb(1.0, size_basis=source.log.size_basis, feature=_feature(cache_rule), cf=cf)
    )


def waits(
    source,
    cf,
    cache_rule,
    warmup_hours,
    recall_specific_writes,
    total_drives,
    copy_drives,
    vts_drive,
    percentile,
    busiest_hour,
    capacity_gb,
) -> hits.RecallWaits:
    """The recall queue at physical capacities ``capacity_gb`` (:func:`vtsmodel.hits.recall_waits`)."""
    curve = curve_of(source, warmup_hours)
    at = curve.at(np.asarray(capacity_gb, float) * factor(source, cf, cache_rule),
                  recall_specific_writes=recall_specific_writes)  # fmt: skip
    return hits.recall_waits(at, size_basis=curve.size_basis, cf=cf, total_drives=total_drives,
                             copy_drives=copy_drives, drive=vts_drive, percentile=percentile,
                             busiest_hour=busiest_hour)  # fmt: skip


# --- figure bases --------------------------------------------------------------------------------


def _table3_hover(t: hits.ConfigurationHits, ratio, what: str) -> list[str]:
    return [f"TVC {g:,.0f} GB ({o})<br>{what}: {percent(r)}" for g, o, r in zip(t.tvc_gb, t.offered_with, ratio, strict=True)]  # fmt: skip


#: Marker symbol and colour of each policy of :data:`vtsmodel.hits.POLICIES`, in its order.
_POLICY_MARKS = tuple(zip(
    ("x", "triangle-up", "square", "diamond", "star", "cross", "triangle-down", "pentagon", "hexagon", "hourglass"),
    ("#555555", COLORS[5], COLORS[7], COLORS[0], COLORS[1], COLORS[2], COLORS[3], COLORS[4], "#8C564B", "#7F3C8D"),
    strict=True,
))  # fmt: skip


def curve_base(
    source: LogSource,
    cf: float,
    cache_rule: str,
    warmup_hours: float,
    policies: bool = False,
    shards: bool = False,
    max_volumes: int = 1024,
) -> dict:
    """The read-hit ratio by count and by bytes vs physical TVC capacity, the Table 3 sizes marked."""
    curve = curve_of(source, warmup_hours)
    k = factor(source, cf, cache_rule)
    fig = new_figure(title=f"Read hits vs cache size: {source.name}", xaxis_title="TVC capacity, physical [GB]",
                     yaxis_title="read-hit ratio [-]", height=440)  # fmt: skip
    for by, y, color, dash in (("by count", curve.read_hit_ratio(_GRID * k), COLORS[0], "solid"),
                               ("by bytes", curve.read_byte_hit_ratio(_GRID * k), COLORS[2], "dash")):  # fmt: skip
        fig.add_trace(go.Scatter(x=_GRID, y=y, mode="lines", name=f"LRU, {by}", line={"color": color, "dash": dash, "width": 3},
                                 hovertemplate=f"%{{x:,.0f}} GB: %{{y:.3f}} of reads, {by}<extra></extra>"))  # fmt: skip
    t = table3(source, cf, cache_rule, warmup_hours)
    for by, ratio, color in (
        ("by count", t.read_hit_ratio, COLORS[0]),
        ("by bytes", t.read_byte_hit_ratio, COLORS[2]),
    ):
        fig.add_trace(go.Scatter(x=t.tvc_gb, y=ratio, mode="markers", name=f"Table 3 sizes, {by}",
                                 marker={"color": color, "size": 10, "symbol": "circle-open", "line": {"width": 2}},
                                 hovertext=_table3_hover(t, ratio, f"read hits {by}"), hoverinfo="text"))  # fmt: skip
    if shards:
        s = sampled_curve_of(source, warmup_hours, max_volumes)
        fig.add_trace(go.Scatter(x=_GRID, y=s.read_hit_ratio(_GRID * k), mode="lines", name=f"SHARDS, by count ({max_volumes:,} volumes)",
                                 line={"color": COLORS[3], "dash": "dot", "width": 2.5}))  # fmt: skip
    if policies and len(source.log) <= MAX_POLICY_MOUNTS:
        runs = policies_of(source, tuple(t.capacity_gb), warmup_hours)
        for (name, h), (symbol, color) in zip(runs.items(), _POLICY_MARKS, strict=False):
            fig.add_trace(go.Scatter(x=t.tvc_gb, y=h.read_hit_ratio, mode="markers", name=f"{name} (libCacheSim)",
                                     marker={"size": 8, "symbol": symbol, "color": color},
                                     hovertemplate=f"{name}<br>%{{x:,.0f}} GB: %{{y:.3f}}<extra></extra>"))  # fmt: skip
    _log_x(fig)
    fig.update_yaxes(range=[0, 1.02])
    # the title, then the legend (three entries a row, the capacity mark's included), then the plot
    rows = math.ceil((len(fig.data) + 1) / 3)
    height = 380 + 24 * rows
    fig.update_layout(height=height, margin={"t": 56 + 24 * rows, "b": 60},
                      title={"y": 1 - 10 / height, "yanchor": "top", "yref": "container"},
                      legend={"orientation": "h", "x": 0, "xanchor": "left", "yref": "container",
                              "y": 1 - 42 / height, "yanchor": "top", "entrywidth": 0.33, "entrywidthmode": "fraction"})  # fmt: skip
    return figure_json(fig)


def recalls_base(
    source,
    cf,
    cache_rule,
    warmup_hours,
    recall_specific_writes,
    total_drives,
    copy_drives,
    vts_drive,
    percentile,
    busiest_hour,
) -> dict:
    """Recalls per hour and the recall ready time at the percentile vs physical TVC capacity."""
    args = (source, cf, cache_rule, warmup_hours, recall_specific_writes, total_drives, copy_drives, vts_drive,
            percentile, busiest_hour)  # fmt: skip
    q_grid = waits(*args, _GRID)
    t = table3(source, cf, cache_rule, warmup_hours, recall_specific_writes)
    q3 = waits(*args, t.tvc_gb)
    pct = f"{100 * percentile:g}th percentile"
    rate = "busiest hour" if busiest_hour else "mean over the log"
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                        subplot_titles=(f"recalls per hour ({rate})", f"recall ready at the {pct}, on {q3.recall_drives} drive(s)"))  # fmt: skip
    fig.update_layout(new_figure(height=600).layout)
    fig.update_layout(
        title={"text": f"The recalls each cache size leaves: {source.name}", "x": 0.0, "xanchor": "left"}
    )
    fig.add_trace(go.Scatter(x=_GRID, y=q_grid.recalls_per_hour, mode="lines", name="recalls per hour",
                             line={"color": COLORS[1], "width": 3}, hovertemplate="%{x:,.0f} GB: %{y:.3g} per hour<extra></extra>"),
                  row=1, col=1)  # fmt: skip
    fig.add_trace(go.Scatter(x=t.tvc_gb, y=q3.recalls_per_hour, mode="markers", name="Table 3 sizes",
                             marker={"color": COLORS[1], "size": 10, "symbol": "circle-open", "line": {"width": 2}},
                             hovertext=[f"TVC {g:,.0f} GB: {number(r)} recalls per hour" for g, r in zip(t.tvc_gb, q3.recalls_per_hour, strict=True)],
                             hoverinfo="text"), row=1, col=1)  # fmt: skip
    ready = np.where(np.isfinite(q_grid.response_s), q_grid.response_s / 60.0, np.nan)
    wait = np.where(np.isfinite(q_grid.wait_s), q_grid.wait_s / 60.0, np.nan)
    fig.add_trace(go.Scatter(x=_GRID, y=ready, mode="lines", name=f"recall ready ({pct})", line={"color": COLORS[4], "width": 3},
                             hovertemplate="%{x:,.0f} GB: %{y:.3g} min<extra></extra>"), row=2, col=1)  # fmt: skip
    fig.add_trace(go.Scatter(x=_GRID, y=wait, mode="lines", name="of which waiting for a drive", line={"color": COLORS[4], "width": 2, "dash": "dot"},
                             hovertemplate="%{x:,.0f} GB: %{y:.3g} min<extra></extra>"), row=2, col=1)  # fmt: skip
    r3 = np.where(np.isfinite(q3.response_s), q3.response_s / 60.0, np.nan)
    fig.add_trace(go.Scatter(x=t.tvc_gb, y=r3, mode="markers", name="Table 3 sizes, ready", showlegend=False,
                             marker={"color": COLORS[4], "size": 10, "symbol": "circle-open", "line": {"width": 2}},
                             hovertext=[f"TVC {g:,.0f} GB: {duration(s)}" for g, s in zip(t.tvc_gb, q3.response_s, strict=True)],
                             hoverinfo="text"), row=2, col=1)  # fmt: skip
    saturated = _GRID[np.isinf(q_grid.response_s)]
    if saturated.size:
        fig.add_vrect(x0=X_RANGE[0], x1=float(saturated.max()), fillcolor="#B00020", opacity=0.08, line_width=0,
                      row=2, col=1)  # fmt: skip
        fig.add_annotation(x=0.5, y=0.95, xref="x2 domain", yref="y2 domain", showarrow=False, font={"size": 11, "color": "#B00020"},
                           text="shaded: no steady state (recalls arrive faster than the drives serve them)")  # fmt: skip
    top = float(np.nanmax(ready)) if np.isfinite(ready).any() else 5.0
    fig.update_yaxes(title_text="[1/h]", range=[0, 1.1 * max(float(np.nanmax(q_grid.recalls_per_hour)) if np.isfinite(q_grid.recalls_per_hour).any() else 1.0, 1e-3)], row=1, col=1)  # fmt: skip
    fig.update_yaxes(title_text="[min]", range=[0, 1.1 * min(top, 120.0)], row=2, col=1)
    _log_x(fig)
    fig.update_xaxes(title_text="TVC capacity, physical [GB]", row=2, col=1)
    # the title, then the legend, then the plots (an export keeps a legend above the plots)
    height = 600
    fig.update_layout(height=height, margin={"t": 120, "b": 60},
                      title={"y": 1 - 10 / height, "yanchor": "top", "yref": "container"},
                      legend={"orientation": "h", "x": 0, "xanchor": "left", "yref": "container",
                              "y": 1 - 42 / height, "yanchor": "top"})  # fmt: skip
    return figure_json(fig)


def _log_x(fig: go.Figure) -> None:
    """The capacity axis: log scale, fixed range, plain tick labels (marks never rescale it)."""
    fig.update_xaxes(type="log", range=[math.log10(X_RANGE[0]), math.log10(X_RANGE[1])], tickmode="array",
                     tickvals=_TICKS, ticktext=[f"{t:,}" for t in _TICKS])  # fmt: skip


# --- the view ------------------------------------------------------------------------------------


def _line(x: float, *, xref="x", yref="y domain", name="") -> dict:
    shape = {"type": "line", "xref": xref, "x0": x, "x1": x, "yref": yref, "y0": 0, "y1": 1,
             "line": {"color": COLORS[7], "width": 1.5, "dash": "dash"}, "layer": "above"}  # fmt: skip
    if name:
        shape.update(name=name, showlegend=True)
    return shape


def view_hits(source: LogSource | None = None, cf=3.0, cache_rule="all", capacity_gb=864.0, warmup_hours=0.0,
              recall_specific_writes=True, total_drives=6, copy_drives=2, vts_drive="3590B", percentile=0.95,
              busiest_hour=False, policies=False, shards=False, max_volumes=1024) -> View:  # fmt: skip
    """The page for one log and one setting: the curve, the recalls, the readouts at ``capacity_gb``."""
    source = source or example_source()
    curve = curve_of(source, warmup_hours)
    k = factor(source, cf, cache_rule)
    here = curve.at(capacity_gb * k, recall_specific_writes=recall_specific_writes)
    slow = {"source": source, "cf": cf, "cache_rule": cache_rule, "warmup_hours": warmup_hours}
    qargs = {**slow, "recall_specific_writes": recall_specific_writes, "total_drives": total_drives,
             "copy_drives": copy_drives, "vts_drive": vts_drive, "percentile": percentile, "busiest_hour": busiest_hour}  # fmt: skip
    wq = waits(*qargs.values(), [capacity_gb])
    count, byte = float(here.read_hit_ratio[0]), float(here.read_byte_hit_ratio[0])
    label = f"{number(capacity_gb)} GB"
    curve_plot = Plot(curve_base, {**slow, "policies": policies, "shards": shards, "max_volumes": max_volumes},
                      shapes=[_line(capacity_gb, name=f"TVC {label}"),
                              point_mark(capacity_gb, count, color=COLORS[0], name="by count here", showlegend=False),
                              point_mark(capacity_gb, byte, color=COLORS[2], name="by bytes here", showlegend=False)])  # fmt: skip
    ready = float(wq.response_s[0])
    recalls_plot = Plot(recalls_base, qargs,
                        shapes=[_line(capacity_gb, yref="y domain"), _line(capacity_gb, xref="x2", yref="y2 domain"),
                                point_mark(capacity_gb, float(wq.recalls_per_hour[0]), color=COLORS[1], name="recalls here", showlegend=False),
                                point_mark(capacity_gb, ready / 60.0, xref="x2", yref="y2", color=COLORS[4],
                                           name="ready here", showlegend=False)])  # fmt: skip
    pct = f"{100 * percentile:g}th percentile"
    basis = "compressed" if curve.size_basis == "compressed" else "host-size"
    readouts = {
        "mount log": f"{source.name}{' (illustrative)' if source.example else ''}",
        "mounts": f"{curve.mounts:,} of {curve.volumes:,} volumes in {number(curve.hours)} h",
        "reads counted": f"{curve.reads:,.0f} ({basis} sizes)",
        f"read hits at {label}": f"{_pct(count)} of reads, {_pct(byte)} of bytes",
        "capacity compared": f"{number(capacity_gb * k)} GB of the log's {basis} volumes",
        "recalls": f"{number(float(wq.recalls_per_hour[0]))} per hour" + (" (busiest hour)" if busiest_hour else ""),
        "mean recalled volume": f"{number(float(wq.volume_mb[0]))} MB uncompressed",
        "drives for recalls": f"{wq.recall_drives} ({total_drives} − {copy_drives} copying)",
        "recall drive utilisation": number(float(wq.utilisation[0])),
        f"recall ready ({pct})": _ready(ready, float(wq.wait_s[0])),
    }  # fmt: skip
    notes = []
    if shards:
        t = table3(source, cf, cache_rule, warmup_hours)
        s = sampled_curve_of(source, warmup_hours, max_volumes)
        err = np.abs(s.read_hit_ratio(t.capacity_gb) - t.read_hit_ratio)
        readouts["SHARDS error at Table 3 sizes"] = (
            f"{number(float(np.nanmax(err)), 2)} at most (sampling rate {number(s.sampling_rate)})"
        )
    if policies and len(source.log) > MAX_POLICY_MOUNTS:
        notes.append(f"the other policies run on logs of up to {MAX_POLICY_MOUNTS:,} mounts in the page "
                     f"(one simulation per policy and size); for this log use vtsmodel.hits.simulate_policy")  # fmt: skip
    if not curve.reads:
        notes.append("the log has no reads counted: it gives no read-hit ratio")
    if curve.largest_volume_gb > 72.0 * k:
        notes.append(f"the largest volume ({number(curve.largest_volume_gb)} GB) is larger than the smallest Table 3 "
                     "cache holds: below that size this page's LRU and libCacheSim's differ (vtsmodel.hits)")  # fmt: skip
    return View(figures={"curve": curve_plot, "recalls": recalls_plot}, readouts=readouts,
                binding=_binding(curve, k, capacity_gb, wq), notes=tuple(notes),
                caption_values={"mount log": source.name + (" (illustrative, synthetic)" if source.example else "")},
                citations=_CITATIONS)  # fmt: skip


def _pct(x: float) -> str:
    return "—" if math.isnan(x) else percent(x)


def _ready(ready_s: float, wait_s: float) -> str:
    if math.isnan(ready_s):
        return "no recalls"
    if math.isinf(ready_s):
        return "no steady state (the queue grows)"
    return f"{duration(ready_s)}, of which {duration(wait_s)} waiting"


def _binding(curve: hits.HitCurve, k: float, capacity_gb: float, wq: hits.RecallWaits) -> str:
    if math.isinf(float(wq.response_s[0])):
        return (f"At {number(capacity_gb)} GB the recalls ({number(float(wq.recalls_per_hour[0]))} per hour) need more "
                f"than the {wq.recall_drives} drive(s) left: utilisation {number(float(wq.utilisation[0]))}, "
                "the queue grows without bound.")  # fmt: skip
    if not curve.reads or not curve.capacity_gb.size:
        return ""
    full = float(curve.capacity_gb.max()) / k
    top = float(curve.read_hit_ratio(curve.capacity_gb.max()))
    if capacity_gb >= full:
        return (f"From {number(full)} GB on, a larger cache gains nothing for this log: the {_pct(1 - top)} of reads "
                "that still miss are first mounts of their volumes in the log.")  # fmt: skip
    return (f"At {number(capacity_gb)} GB, {_pct(float(curve.read_hit_ratio(capacity_gb * k)))} of reads hit; the curve "
            f"rises to {_pct(top)} at {number(full)} GB, beyond which only first mounts of volumes miss.")  # fmt: skip


# --- the Table 3 rows ----------------------------------------------------------------------------

_COLUMNS = ("TVC [GB]", "offered with", "compared [GB]", "read hits [%]", "read hits, bytes [%]", "recalls [1/h]",
            "busiest hour [recalls]", "recalled volume [MB]", "utilisation [-]", "wait at pct [s]", "ready at pct [s]")  # fmt: skip


def table3_rows(source: LogSource | None = None, cf=3.0, cache_rule="all", warmup_hours=0.0,
                recall_specific_writes=True, total_drives=6, copy_drives=2, vts_drive="3590B", percentile=0.95,
                busiest_hour=False, **_page) -> list[dict]:  # fmt: skip
    """One row per Table 3 size: hits, recalls and the recall queue (what the table and its CSV show)."""
    source = source or example_source()
    t = table3(source, cf, cache_rule, warmup_hours, recall_specific_writes)
    wq = waits(source, cf, cache_rule, warmup_hours, recall_specific_writes, total_drives, copy_drives, vts_drive,
               percentile, busiest_hour, t.tvc_gb)  # fmt: skip
    cols = (t.tvc_gb, t.offered_with, t.capacity_gb, 100 * t.read_hit_ratio, 100 * t.read_byte_hit_ratio,
            t.recalls_per_hour, t.peak_hour_recalls, wq.volume_mb, wq.utilisation, wq.wait_s, wq.response_s)  # fmt: skip
    return [dict(zip(_COLUMNS, (v if isinstance(v, str) else float(v) for v in row), strict=True)) for row in zip(*cols, strict=True)]  # fmt: skip


def _cell(key: str, v) -> str:
    if isinstance(v, str):
        return html.escape(v)
    if math.isinf(v):
        return "no steady state"
    if key in ("TVC [GB]", "busiest hour [recalls]") and math.isfinite(v):
        return f"{v:,.0f}"  # whole numbers, every digit
    return number(v, 4 if key == "compared [GB]" else 3)


def table3_html(rows: list[dict], percentile: float) -> str:
    """The Table 3 rows as an HTML table."""
    heads = [h.replace("pct", f"{100 * percentile:g}th pct") for h in _COLUMNS]
    head = "".join(f"<th style='text-align:right;padding:2px 6px'>{html.escape(h)}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td style='text-align:right;padding:2px 6px'>{_cell(k, v)}</td>" for k, v in r.items()) + "</tr>"
                   for r in rows)  # fmt: skip
    return f"<table class='vtsmodel-hits-table' style='border-collapse:collapse;font-size:13px'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def table3_csv(rows: list[dict], source: LogSource) -> str:
    """The Table 3 rows as CSV, headed by where they came from."""
    out = io.StringIO()
    out.write(f"# read hits and recalls by Table 3 TVC size, from the mount log {source.name}"
              f"{' (illustrative, synthetic)' if source.example else ''}; vtsmodel.hits ({_VTS}, Table 3)\n")  # fmt: skip
    out.write(",".join(f'"{c}"' for c in _COLUMNS) + "\n")
    for r in rows:
        out.write(
            ",".join(
                f'"{v}"' if isinstance(v, str) else ("inf" if math.isinf(v) else f"{v:.6g}")
                for v in r.values()
            )
            + "\n"
        )
    return out.getvalue()


def policies_html(source: LogSource, cf, cache_rule, warmup_hours) -> str:
    """Each libCacheSim policy's read-hit ratio at the Table 3 sizes, as an HTML table ('' above the page's limit)."""
    if len(source.log) > MAX_POLICY_MOUNTS:
        return ""
    t = table3(source, cf, cache_rule, warmup_hours)
    runs = policies_of(source, tuple(t.capacity_gb), warmup_hours)
    head = "<th style='text-align:left;padding:2px 6px'>policy</th>" + "".join(
        f"<th style='text-align:right;padding:2px 6px'>{g:,.0f} GB</th>" for g in t.tvc_gb
    )
    rows = [("LRU, one pass (this page's curve)", t.read_hit_ratio)] + [
        (f"{p} (libCacheSim)", h.read_hit_ratio) for p, h in runs.items()
    ]
    body = "".join(f"<tr><td style='padding:2px 6px'>{html.escape(name)}</td>"
                   + "".join(f"<td style='text-align:right;padding:2px 6px'>{_pct(float(x))}</td>" for x in r) + "</tr>"
                   for name, r in rows)  # fmt: skip
    return ("<p><b>Read hits (by count) of other replacement policies at the Table 3 sizes</b></p>"
            f"<table class='vtsmodel-policies' style='border-collapse:collapse;font-size:13px'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")  # fmt: skip


# --- the page ------------------------------------------------------------------------------------


def _say(text: str, kind: str = "done") -> str:
    color = "#B00020" if kind == "failed" else "#222"
    sign = "⚠ " if kind == "failed" else ""
    return f"<span class='vtsmodel-hits-{kind}' style='color:{color}'>{sign}{text}</span>"


class HitsPage:
    """The page: a mount log (uploaded, or the example), its panel, the Table 3 table and its CSV.

    Parameters
    ----------
    source : LogSource, optional
        The log shown first (default: the example).
    **values
        Starting values of :data:`INPUTS`.
    """

    def __init__(self, source: LogSource | None = None, **values) -> None:
        self.source = source or example_source()
        self.status = w.HTML()
        self.status.add_class("vtsmodel-hits-status")
        self.table = w.HTML()
        self.table.add_class("vtsmodel-hits-rows")
        self.policies = w.HTML()
        self.panel = Panel(INPUTS, self._view, values=values, title=TITLE, name="08_hits")
        self.upload = upload_control(".csv", description="Upload mount log…",
                                     tooltip=f"A mount log (CSV: time_s or time, volume, compressed_mb or host_mb, access), "
                                             f"up to {MAX_UPLOAD_BYTES / 1e6:g} MB")  # fmt: skip
        self.upload.observe(self._on_upload, names="value")
        example = w.Button(description="Use the example log", tooltip=f"examples/{EXAMPLE_LOG.name}: synthetic, illustrative",
                           layout=w.Layout(width="auto"))  # fmt: skip
        example.on_click(lambda _b: self.use_example())
        csv = w.Button(description="Download table (CSV)", tooltip="The Table 3 rows below, as CSV",
                       layout=w.Layout(width="auto"))  # fmt: skip
        csv.on_click(lambda _b: self.download_table())
        hint = w.HTML(f"<span style='color:#555'>up to {MAX_UPLOAD_BYTES / 1e6:g} MB; larger logs: "
                      "<code>vtsmodel hits LOG.csv</code></span>&nbsp;")  # fmt: skip
        bar = w.HBox([w.HTML("<b>Mount log</b>&nbsp;"), self.upload, example, hint, self.status],
                     layout=w.Layout(flex_flow="row wrap", align_items="center"))  # fmt: skip
        bar.add_class("vtsmodel-hits-files")
        self.widget = w.VBox(
            [bar, self.panel.widget, w.HTML("<b>Each Table 3 size</b> (the recall columns at the drives, "
                                            "percentile and rate set above)"), self.table, w.HBox([csv]), self.policies],
            layout=w.Layout(width="100%", max_width="1240px"),
        )  # fmt: skip
        shards = self.panel.controls["shards"]
        shards.observe(self._enable, names="value")
        self._enable()
        self.status.value = _say(self._showing())

    def _enable(self, _change=None) -> None:
        """The SHARDS sample size is used only with the sampled curve."""
        self.panel.controls["max_volumes"].disabled = not self.panel.controls["shards"].value

    def _view(self, **values) -> View:
        view = view_hits(self.source, **values)
        self.rows = table3_rows(self.source, **values)
        self.table.value = table3_html(self.rows, values["percentile"])
        self.policies.value = (
            policies_html(self.source, values["cf"], values["cache_rule"], values["warmup_hours"])
            if values["policies"]
            else ""
        )
        return view

    def _showing(self) -> str:
        what = " (synthetic, illustrative: not measured)" if self.source.example else ""
        return f"showing <b>{html.escape(self.source.name)}</b>{what}: {len(self.source.log):,} mounts"

    def set(self, **values) -> None:
        """Set inputs (checked by their declarations); the panel and the table follow."""
        self.panel.set(**values)

    def show(self, source: LogSource) -> None:
        """Show ``source`` (a log already read)."""
        self.source = source
        self.panel.update()
        self.status.value = _say(self._showing())

    def load_bytes(self, data: bytes, name: str) -> LogSource:
        """Read an uploaded log and show it; a bad log changes nothing and the status says why."""
        try:
            source = read_upload(data, name)
        except ValueError as exc:
            why = str(exc) if str(exc).startswith(name) else f"{name}: {exc}"
            self.status.value = _say(f"not read: {html.escape(why)}", "failed")
            raise
        self.show(source)
        return source

    def use_example(self) -> None:
        """Show the example log."""
        self.show(example_source())

    def _on_upload(self, _change) -> None:
        try:
            got = uploaded_file(self.upload, max_bytes=MAX_UPLOAD_BYTES)
        except ValueError as exc:
            self.status.value = _say(f"not read: {html.escape(str(exc))}; larger logs go through "
                                     "<code>vtsmodel hits LOG.csv</code>", "failed")  # fmt: skip
            got = None
        finally:
            self.upload.value = ()
        if got is not None:
            try:
                self.load_bytes(got[1], got[0])
            except ValueError:
                pass  # the status says why

    def download_table(self) -> str:
        """Download the Table 3 rows as CSV; return the file name."""
        stem = Path(self.source.name).stem
        name = self.panel.downloader.send_file(
            f"08_hits_{stem}.csv", table3_csv(self.rows, self.source), "csv"
        )
        self.status.value = _say(f"downloaded <b>{html.escape(name)}</b>: see your browser's downloads")
        return name

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def hits_page(**values) -> HitsPage:
    """The page with the example log (or ``values``)."""
    return HitsPage(**values)


# --- the lesson contract and the notebook's numbers -------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """The example log at one setting: hits, recalls and the recall ready time at the capacity."""
    v = scenario_values(INPUTS, SCENARIO, values)
    src = example_source()
    curve = curve_of(src, v["warmup_hours"])
    k = factor(src, v["cf"], v["cache_rule"])
    here = curve.at(v["capacity_gb"] * k, recall_specific_writes=v["recall_specific_writes"])
    wq = waits(src, v["cf"], v["cache_rule"], v["warmup_hours"], v["recall_specific_writes"], v["total_drives"],
               v["copy_drives"], v["vts_drive"], v["percentile"], v["busiest_hour"], [v["capacity_gb"]])  # fmt: skip
    return {
        "read hit ratio [-]": float(here.read_hit_ratio[0]),
        "read hit ratio, bytes [-]": float(here.read_byte_hit_ratio[0]),
        "recalls per hour [1/h]": float(wq.recalls_per_hour[0]),
        "recall ready at percentile [s]": float(wq.response_s[0]),
    }


def scenario_view(**values) -> View:
    """Both figures for one scenario, on the example log."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return compute(view_hits, {**v, "source": example_source()})


def columns_html() -> str:
    """The mount log's columns: name, what it holds, its range."""
    rows = (
        ("time_s or time", "when the mount happened: seconds from any origin, or an ISO 8601 date and time "
                           "(2026-03-01T08:15:00); lines in time order", "time_s ≥ 0 s"),
        ("volume", "the volume serial (VOLSER)", "1 to 64 characters"),
        ("compressed_mb or host_mb", "the volume's size after the mount, as stored after compression or as the "
                                     "host wrote it: the column's name says which", "0 to 10⁸ MB (MB = 10⁶ bytes)"),
        ("access", "scratch_write (a new or reused scratch serial: no physical mount), specific_write "
                   "(an update: a recall when not cached) or read (a hit or a recall)", "one of the three"),
    )  # fmt: skip
    cell = "style='text-align:left;vertical-align:top;padding:2px 8px'"
    body = "".join(f"<tr><td {cell}><code>{html.escape(a)}</code></td><td {cell}>{html.escape(b)}</td>"
                   f"<td {cell}>{html.escape(c)}</td></tr>" for a, b, c in rows)  # fmt: skip
    head = "".join(f"<th {cell}>{h}</th>" for h in ("column", "what it holds", "range"))
    return f"<table class='vtsmodel-log-columns'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def example_numbers() -> str:
    """The example log at the defaults: each Table 3 size's read hits and recalls, labelled lines."""
    rows = table3_rows()
    lines = [f"{r['TVC [GB]']:,.0f} GB: read hits {number(r['read hits [%]'])} % of reads, "
             f"{number(r['read hits, bytes [%]'])} % of bytes; {number(r['recalls [1/h]'])} recalls per hour; "
             f"ready at the 95th percentile in {duration(r['ready at pct [s]'])}" for r in rows]  # fmt: skip
    curve = curve_of(example_source(), 0.0)
    lines.insert(0, f"example log: {curve.mounts:,} mounts, {curve.volumes:,} volumes, {curve.reads:,.0f} reads, "
                    f"{number(curve.hours)} h")  # fmt: skip
    return "\n".join(lines)
