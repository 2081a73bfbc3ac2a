"""Lesson 08, the curve: a mount log's read-hit ratio at every cache size, the Table 3 sizes marked.

The log the page shows (:class:`LogSource`: the example, or a file the person picks), its exact
LRU curve from one pass (:func:`vtsmodel.hits.lru_hit_curve`), what one physical GB of cache
holds in the log's sizes, each Table 3 size's hits, and the curve's figure: by count and by
bytes against the physical capacity, on a fixed log axis that the capacity marks never
rescale. The page is :class:`vtsmodel.app.lessons.hits.HitsPage`; what it draws over the
curve on request is :mod:`~vtsmodel.app.lessons.replacement`'s.
"""

from __future__ import annotations

import html
import io
import math
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go

from vtsmodel import hits, mountlog
from vtsmodel.app import cache
from vtsmodel.app.downloads import MAX_UPLOAD_BYTES, FileBar, FilePicker, refusal
from vtsmodel.app.figures import COLORS, Plot, figure_json, line_mark, new_figure, point_mark
from vtsmodel.app.panels import View
from vtsmodel.app.text import number, percent, size
from vtsmodel.files import example_file
from vtsmodel.logs import ReadingWarning

#: The example mount log (synthetic, illustrative: not measured).
EXAMPLE_LOG = example_file("example_mount_log.csv")
#: What a person with a log larger than the page reads does instead.
LARGER = "use the command line (vtsmodel hits LOG.csv) for larger ones"
#: The files the upload dialog offers: logs, plain or compressed.
LOG_FILES = ".csv,.txt,.log,.tsv,.json,.jsonl,.ndjson,.gz,.bz2,.xz,.zst"
#: Most requests the page reads from a log (a compressed upload can hold many more lines
#: than its bytes suggest): about 2 s and 200 MB for its curve on the project's machine. [count]
MAX_PAGE_REQUESTS = 1_000_000
#: Capacity axis of the figures (physical TVC), log scale. [GB]
X_RANGE = (10.0, 5000.0)
GRID = np.geomspace(*X_RANGE, 241)
_TICKS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
VTS = "ibm-vts-b18-2000"
#: What the figures draw on: the paper (cache model, Table 3, drives), CERN (the borrowed recall parts).
CITATIONS = (VTS, "vts_tvc_configs", "cern-tape-sizing-2005")


# --- the log and what is computed from it (pure, memoized by the log's identity) ---------------


@dataclass(frozen=True, eq=False)
class LogSource:
    """A mount log the page shows: its name, the log, whether it is the example, and how it was read.

    ``reading``: the options it was read with (:class:`vtsmodel.logs.LogFile`'s, and ``sort``);
    the others were detected. A saved plan file says them (``mount_log.reading``).
    """

    name: str
    log: mountlog.MountLog
    example: bool = False
    reading: dict = field(default_factory=dict)


@cache.kept(keep=1)
def example_source() -> LogSource:
    """The example mount log (synthetic, illustrative)."""
    return LogSource(EXAMPLE_LOG.name, mountlog.read_mount_log(EXAMPLE_LOG), example=True)


def read_upload(data: bytes, name: str, **options) -> LogSource:
    """A log from a picked file's bytes, plain or compressed; ``ValueError`` naming the line, field, value and range.

    ``options``: how to read it (:class:`vtsmodel.logs.LogFile`).
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(refusal(name, len(data), MAX_UPLOAD_BYTES, LARGER))
    stream = io.BytesIO(data)
    stream.name = name  # errors name the file
    try:
        with warnings.catch_warnings():  # the log's notes say it, in the page's words
            warnings.simplefilter("ignore", ReadingWarning)
            log = mountlog.read_mount_log(stream, max_rows=MAX_PAGE_REQUESTS, **options)
        return LogSource(name, log, reading=dict(options))
    except ValueError as exc:
        raise ValueError(page_advice(str(exc))) from None


def page_advice(message: str) -> str:
    """A reader's message as the page says it: its advice for Python and the command line becomes what to do here."""
    message = re.sub(
        r"access_map=\{.*?\} \(--access-map ([^)]*)\)", r"type \1 in the box 'access words'", message
    )
    message = message.replace(
        "name the form (time_form='mdy' or time_form='dmy', --time-form mdy)",
        "choose month/day/year (US) or day/month/year in the box 'times'",
    )
    message = message.replace(
        "name the form: time_form='excel' (--time-form excel)", "choose spreadsheet days in the box 'times'"
    )
    cut = message.find("sort the file first")
    if cut < 0 or "read_mount_log(" not in message:
        return message
    return (message[:cut].rstrip(" :;,") + ": sort the file by time and upload it again "
            "(vtsmodel hits LOG.csv --sort sorts it for you)")  # fmt: skip


def log_controls(files: FileBar, read, use_example) -> FilePicker:
    """A file bar's mount-log controls: the upload (``read(data, name)``, up to :data:`MAX_UPLOAD_BYTES`) and the example."""
    up = files.upload("Upload log…", read, accept=LOG_FILES, max_bytes=MAX_UPLOAD_BYTES,
                      tooltip=f"A mount log (CSV: time_s or time, volume, compressed_mb or host_mb, access) or a "
                              f"real system's request log (any delimiter, header or not, gzip/bz2/xz/zstd), up to "
                              f"{MAX_UPLOAD_BYTES / 1e6:g} MB", larger=LARGER)  # fmt: skip
    example = files.button(
        "Use the example log", use_example, f"examples/{EXAMPLE_LOG.name}: synthetic, illustrative"
    )
    example.disabled = not EXAMPLE_LOG.exists()
    return up


#: Named log formats an upload offers (vtsmodel.logs.FORMATS), "detect" first.
LOG_FORMATS = (("detect", ""), ("vtsmodel mount log", "vtsmodel"), ("xferlog (FTP)", "xferlog"),
               ("tape requests (;, no header)", "tape-requests"))  # fmt: skip


#: The times' forms an upload offers (vtsmodel.logs.TIME_FORMS), "detect" first: a date written
#: 08/09/2011 must be named month or day first where no line of the log tells which.
TIME_FORM_CHOICES = (("detect", ""), ("seconds from any origin", "seconds"), ("epoch seconds", "epoch_s"),
                     ("epoch milliseconds", "epoch_ms"), ("epoch microseconds", "epoch_us"),
                     ("epoch nanoseconds", "epoch_ns"), ("ISO 8601", "iso"), ("ISO 8601 basic", "iso_basic"),
                     ("ctime (xferlog)", "ctime"), ("month/day/year (US)", "mdy"), ("day/month/year", "dmy"),
                     ("month by name (19/Aug/2011)", "month_name"), ("spreadsheet days (Excel)", "excel"))  # fmt: skip


class ReadingBoxes:
    """How a page reads an uploaded log: its format, its times' form, what each column holds, the size of every object, its access words.

    Each is detected when left empty (:class:`vtsmodel.logs.LogFile`); a log without a header
    needs its columns. ``widget`` is the row of boxes; :meth:`options` what they say.
    """

    def __init__(self) -> None:
        small = {"style": {"description_width": "initial"}}
        self.log_format = w.Dropdown(options=list(LOG_FORMATS), value="", description="format",
                                     layout=w.Layout(width="250px"), **small)  # fmt: skip
        self.time_form = w.Dropdown(options=list(TIME_FORM_CHOICES), value="", description="times",
                                    layout=w.Layout(width="260px"), **small)  # fmt: skip
        self.columns = w.Text(value="", placeholder="header, or e.g. time,tape,,bytes", description="columns",
                              layout=w.Layout(width="300px"), **small)  # fmt: skip
        self.object_size = w.Text(value="", placeholder="e.g. 18TB", description="size of every object",
                                  layout=w.Layout(width="260px"), **small)  # fmt: skip
        self.access_words = w.Text(value="", placeholder="e.g. U=specific_write,D=skip", description="access words",
                                   layout=w.Layout(width="300px"), **small)  # fmt: skip
        for box in (self.log_format, self.time_form, self.columns, self.object_size, self.access_words):
            box.add_class("vtsmodel-read-option")
        self.widget = w.HBox([w.HTML("<b>Reading an upload</b> (each detected when left empty)&nbsp;"),
                              self.log_format, self.time_form, self.columns, self.object_size, self.access_words],
                             layout=w.Layout(flex_flow="row wrap"))  # fmt: skip

    def show(self, reading: Mapping) -> dict:
        """Set the boxes to what ``reading`` (a plan file's ``mount_log.reading``) says; the options they cannot show.

        Each box not named is emptied (detected). Columns given as a list or by header name,
        and the options without a box, are returned for the caller to read with.
        """
        from vtsmodel.app.text import access_map_text

        formats = {value for _label, value in LOG_FORMATS}
        forms = {value for _label, value in TIME_FORM_CHOICES}
        fmt, cols, mb = reading.get("format"), reading.get("columns"), reading.get("object_mb")
        form = reading.get("time_form")
        words = access_map_text(reading.get("access_map"))
        self.log_format.value = fmt if fmt in formats else ""
        self.time_form.value = form if form in forms else ""
        self.columns.value = cols if isinstance(cols, str) else ""
        self.object_size.value = "" if mb is None else f"{mb / 1e3!r} GB"
        self.access_words.value = words or ""
        shown = {"format": fmt in formats, "time_form": form in forms, "columns": isinstance(cols, str),
                 "object_mb": mb is not None, "access_map": words is not None}  # fmt: skip
        return {k: v for k, v in reading.items() if not shown.get(k, False)}

    def options(self) -> dict:
        """What the boxes say, as :class:`vtsmodel.logs.LogFile` takes it; ``ValueError`` for a size that is not one."""
        from vtsmodel.app.text import parse_sizes_gb

        opts = {}
        if self.log_format.value:
            opts["format"] = self.log_format.value
        if self.time_form.value:
            opts["time_form"] = self.time_form.value
        if self.columns.value.strip():
            opts["columns"] = self.columns.value.strip()
        if self.object_size.value.strip():
            (gb,) = parse_sizes_gb(self.object_size.value, name="size of every object")
            opts["object_mb"] = gb * 1e3
        if self.access_words.value.strip():
            from vtsmodel.app.text import parse_access_map

            opts["access_map"] = parse_access_map(self.access_words.value, name="access words")
        return opts


# Few kept: the curve of a 200,000-mount log (the largest the page reads) holds about 50 MB.
@cache.kept(keep=8)
def curve_of(source: LogSource, warmup_hours: float) -> hits.HitCurve:
    """The exact LRU curve of the log (one pass)."""
    return hits.lru_hit_curve(source.log, warmup_hours=warmup_hours)


def table3(
    source: LogSource, cf, cache_rule, warmup_hours, recall_specific_writes=True
) -> hits.ConfigurationHits:
    """Each Table 3 size's hits and recalls (:func:`vtsmodel.hits.configuration_hits`)."""
    feature = None if cache_rule == "all" else cache_rule
    return hits.configuration_hits(curve_of(source, warmup_hours), feature=feature, cf=cf,
                                   recall_specific_writes=recall_specific_writes)  # fmt: skip


def factor(source: LogSource, cf, cache_rule) -> float:
    """GB of the log's sizes one physical GB of cache holds (:func:`vtsmodel.hits.compared_capacity_gb`)."""
    feature = "ehpo" if cache_rule == "all" else cache_rule
    return float(hits.compared_capacity_gb(1.0, size_basis=source.log.size_basis, feature=feature, cf=cf))


# --- the capacities shown: Table 3's physical sizes, or any in the log's own sizes ----------------


@dataclass(frozen=True)
class Scale:
    """The capacity axis and its marks: physical TVC GB (Table 3) or the log's own sizes.

    ``grid`` and ``marks`` are on the axis; ``grid_log`` and ``marks_log`` the same
    capacities in the log's size basis (what the curve is evaluated at).
    """

    table3: bool
    grid: np.ndarray
    grid_log: np.ndarray
    marks: np.ndarray
    marks_log: np.ndarray
    title: str
    x_range: tuple
    mark_name: str


def scale_of(source: LogSource, cf, cache_rule, warmup_hours, capacities=None) -> Scale:
    """The axis for ``capacities``: None for Table 3's sizes, else capacities in the log's sizes. [GB]"""
    if capacities is None:
        k = factor(source, cf, cache_rule)
        t = table3(source, cf, cache_rule, warmup_hours)
        return Scale(True, GRID, GRID * k, t.tvc_gb, t.capacity_gb, "TVC capacity, physical [GB]", X_RANGE,
                     "Table 3 sizes")  # fmt: skip
    caps = np.sort(np.asarray(capacities, dtype=float))
    curve = curve_of(source, warmup_hours)
    lo = min(curve.smallest_object_gb if np.isfinite(curve.smallest_object_gb) else caps.min(), caps.min())
    hi = max(curve.top_gb, curve.working_set_gb if np.isfinite(curve.working_set_gb) else 0.0, caps.max())
    lo, hi = max(lo / 2, 1e-9), max(hi * 2, lo * 10)
    grid = np.geomspace(lo, hi, 241)
    return Scale(False, grid, grid, caps, caps, "cache capacity, in the log's sizes [GB]", (lo, hi),
                 "chosen capacities")  # fmt: skip


def capacities_choice(source: LogSource, warmup_hours: float, how: str, typed: str = "") -> tuple | None:
    """The capacities a choice names: None (Table 3), 12 over the working set, or typed (``"500GB, 2TB"``). [GB]"""
    from vtsmodel.app.text import parse_sizes_gb

    if how == "table3":
        return None
    if how == "auto":
        return tuple(float(c) for c in hits.auto_capacities(curve_of(source, warmup_hours), 12))
    if how == "typed":
        return tuple(parse_sizes_gb(typed, name="capacities"))
    raise ValueError(f"how={how!r} is not valid; choose table3, auto or typed")


# --- pieces the lesson's figures and tables share ------------------------------------------------


def log_x(fig: go.Figure, x_range: tuple = X_RANGE) -> None:
    """The capacity axis: log scale, fixed range, plain tick labels (marks never rescale it)."""
    if x_range == X_RANGE:
        fig.update_xaxes(type="log", range=[math.log10(X_RANGE[0]), math.log10(X_RANGE[1])], tickmode="array",
                         tickvals=_TICKS, ticktext=[f"{t:,}" for t in _TICKS])  # fmt: skip
        return
    from vtsmodel.app.text import size

    lo, hi = (math.log10(v) for v in x_range)
    ticks = [10.0**e for e in range(math.ceil(lo), math.floor(hi) + 1)]
    fig.update_xaxes(
        type="log", range=[lo, hi], tickmode="array", tickvals=ticks, ticktext=[size(t) for t in ticks]
    )


def capacity_line(x: float, *, xref="x", yref="y", name="") -> dict:
    """The dashed line at the capacity the slider sets (with a legend entry when named)."""
    shape = line_mark(x=x, color=COLORS[7], dash="dash", width=1.5, xref=xref, yref=yref, name=name)
    return shape | {"showlegend": True} if name else shape


def pct(x: float) -> str:
    """A ratio as a percentage, or a dash where there is none (no reads)."""
    return "—" if math.isnan(x) else percent(x)


def numbers_table(
    head: list[str], rows: list[list[str]], css_class: str, *, label_first: bool = False
) -> str:
    """A table of numbers, right-aligned (the first column left with ``label_first``); cells are HTML."""

    def style(i: int) -> str:
        return f"text-align:{'left' if label_first and i == 0 else 'right'};padding:2px 6px"

    th = "".join(f"<th style='{style(i)}'>{h}</th>" for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f"<td style='{style(i)}'>{c}</td>" for i, c in enumerate(r)) + "</tr>" for r in rows)  # fmt: skip
    return (f"<table class='{css_class}' style='border-collapse:collapse;font-size:13px'><thead><tr>{th}</tr></thead>"
            f"<tbody>{body}</tbody></table>")  # fmt: skip


def columns_html() -> str:
    """The mount log's columns: name, what it holds, its range."""
    rows = (
        ("time_s or time", "when the mount happened: seconds from any origin, or an ISO 8601 date and time "
                           "(2026-03-01T08:15:00); lines in time order", "time_s ≥ 0 s"),
        ("volume", "the volume serial (VOLSER), a file name or any id", "1 to 4,096 characters"),
        ("compressed_mb or host_mb", "the volume's size after the mount, as stored after compression or as the "
                                     "host wrote it: the column's name says which", "0 to 10⁸ MB (MB = 10⁶ bytes)"),
        ("access", "scratch_write (a new or reused scratch serial: no physical mount), specific_write "
                   "(an update: a recall when not cached) or read (a hit or a recall); optional: every mount a read",
         "one of the three"),
        ("cartridge, duration_s", "optional: the tape the request names; its service or mount time", "id; ≥ 0 s"),
    )  # fmt: skip
    cell = "style='text-align:left;vertical-align:top;padding:2px 8px'"
    body = "".join(f"<tr><td {cell}><code>{html.escape(a)}</code></td><td {cell}>{html.escape(b)}</td>"
                   f"<td {cell}>{html.escape(c)}</td></tr>" for a, b, c in rows)  # fmt: skip
    head = "".join(f"<th {cell}>{h}</th>" for h in ("column", "what it holds", "range"))
    return f"<table class='vtsmodel-log-columns'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


# --- the curve's figure --------------------------------------------------------------------------


def _table3_hover(t: hits.ConfigurationHits, ratio, what: str) -> list[str]:
    return [f"TVC {g:,.0f} GB ({o})<br>{what}: {percent(r)}" for g, o, r in zip(t.tvc_gb, t.offered_with, ratio, strict=True)]  # fmt: skip


def curve_figure(
    source: LogSource, cf: float, cache_rule: str, warmup_hours: float, capacities=None
) -> go.Figure:
    """The read-hit ratio by count and by bytes vs capacity, the Table 3 sizes (or the chosen capacities) marked."""
    curve = curve_of(source, warmup_hours)
    sc = scale_of(source, cf, cache_rule, warmup_hours, capacities)
    unit = "GB" if sc.table3 else "GB (the log's sizes)"
    fig = new_figure(title=f"Read hits vs cache size: {source.name}", xaxis_title=sc.title,
                     yaxis_title="read-hit ratio [-]", height=440)  # fmt: skip
    for by, y, color, dash in (("by count", curve.read_hit_ratio(sc.grid_log), COLORS[0], "solid"),
                               ("by bytes", curve.read_byte_hit_ratio(sc.grid_log), COLORS[2], "dash")):  # fmt: skip
        fig.add_trace(go.Scatter(x=sc.grid, y=y, mode="lines", name=f"LRU, {by}", line={"color": color, "dash": dash, "width": 3},
                                 hovertemplate=f"%{{x:,.4g}} {unit}: %{{y:.3f}} of reads, {by}<extra></extra>"))  # fmt: skip
    here = curve.at(sc.marks_log)
    if sc.table3:
        t = table3(source, cf, cache_rule, warmup_hours)
        hover = {"count": _table3_hover(t, here.read_hit_ratio, "read hits by count"),
                 "bytes": _table3_hover(t, here.read_byte_hit_ratio, "read hits by bytes")}  # fmt: skip
    else:
        from vtsmodel.app.text import size

        hover = {by: [f"{size(c)}: {percent(r)} of reads, {by}" for c, r in zip(sc.marks, ratio, strict=True)]
                 for by, ratio in (("count", here.read_hit_ratio), ("bytes", here.read_byte_hit_ratio))}  # fmt: skip
    for by, ratio, color in (("by count", here.read_hit_ratio, COLORS[0]), ("by bytes", here.read_byte_hit_ratio, COLORS[2])):  # fmt: skip
        fig.add_trace(go.Scatter(x=sc.marks, y=ratio, mode="markers", name=f"{sc.mark_name}, {by}",
                                 marker={"color": color, "size": 10, "symbol": "circle-open", "line": {"width": 2}},
                                 hovertext=hover[by.split()[-1]], hoverinfo="text"))  # fmt: skip
    fig.layout.meta = {"x_range": list(sc.x_range)}
    return fig


def curve_json(fig: go.Figure) -> dict:
    """The curve's figure laid out (its axes fixed; the title, then the legend, then the plot) as JSON."""
    meta = fig.layout.meta or {}
    log_x(fig, tuple(meta.get("x_range", X_RANGE)))
    fig.update_yaxes(range=[0, 1.02])
    rows = math.ceil((len(fig.data) + 1) / 3)  # three legend entries a row, the capacity line's included
    height = 380 + 24 * rows
    fig.update_layout(height=height, margin={"t": 56 + 24 * rows, "b": 60},
                      title={"y": 1 - 10 / height, "yanchor": "top", "yref": "container"},
                      legend={"orientation": "h", "x": 0, "xanchor": "left", "yref": "container",
                              "y": 1 - 42 / height, "yanchor": "top", "entrywidth": 0.33, "entrywidthmode": "fraction"})  # fmt: skip
    return figure_json(fig)


def curve_base(source: LogSource, cf: float, cache_rule: str, warmup_hours: float, capacities=None) -> dict:
    """The curve alone (:func:`curve_figure`, laid out)."""
    return curve_json(curve_figure(source, cf, cache_rule, warmup_hours, capacities))


# --- the view --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class HitsResult:
    """A mount log at one setting of the page: its curve, the hits at the capacity, each Table 3 size, the recalls.

    Attributes
    ----------
    source : LogSource
        The log.
    cf, cache_rule, capacity_gb, warmup_hours
        The curve's inputs.
    queue : dict
        The recall queue's inputs (:data:`~.recall_waits.INPUTS`).
    policies, shards, max_volumes
        What is drawn over the curve on request (:mod:`~.replacement`).
    curve : vtsmodel.hits.HitCurve
        The exact LRU curve (kept per log and warm-up).
    factor : float
        GB of the log's sizes one physical GB of cache holds (:func:`factor`). [-]
    here : vtsmodel.hits.CapacityHits
        The hits at ``capacity_gb``.
    table3 : vtsmodel.hits.ConfigurationHits
        Each Table 3 size's hits and recalls.
    recalls : object
        The recalls and their waits at every capacity and each Table 3 size (:class:`~.recall_waits.RecallCurves`).
    waits_here : vtsmodel.hits.RecallWaits
        The recall queue at ``capacity_gb``.
    sampled : vtsmodel.hits.HitCurve or None
        The SHARDS curve, when asked for.
    policy_hits : dict or None
        Each libCacheSim policy's hits at the marked capacities, when asked for and the log is small enough.
    capacities : tuple or None
        The capacities marked, in the log's sizes; None: Table 3's sizes on the physical axis. [GB]
    """

    source: LogSource
    cf: float
    cache_rule: str
    capacity_gb: float
    warmup_hours: float
    queue: dict
    policies: bool
    shards: bool
    max_volumes: int
    curve: hits.HitCurve
    factor: float
    here: object
    table3: hits.ConfigurationHits
    recalls: object
    waits_here: object
    sampled: hits.HitCurve | None
    policy_hits: dict | None
    capacities: tuple | None = None

    @property
    def slow(self) -> dict:
        """The log and the settings the curve's figure depends on."""
        return {
            "source": self.source,
            "cf": self.cf,
            "cache_rule": self.cache_rule,
            "warmup_hours": self.warmup_hours,
            "capacities": self.capacities,
        }


def _binding(curve: hits.HitCurve, k: float, capacity_gb: float) -> str:
    if not curve.reads or not curve.capacity_gb.size:
        return ""
    full = float(curve.capacity_gb.max()) / k
    top = float(curve.read_hit_ratio(curve.capacity_gb.max()))
    if capacity_gb >= full:
        return (f"From {size(full)} on, a larger cache gains nothing for this log: the {pct(1 - top)} of reads "
                "that still miss are first mounts of their volumes in the log.")  # fmt: skip
    return (f"At {size(capacity_gb)}, {pct(float(curve.read_hit_ratio(capacity_gb * k)))} of reads hit; the curve "
            f"rises to {pct(top)} at {size(full)}, beyond which only first mounts of volumes miss.")  # fmt: skip


def view_curve(r: HitsResult) -> View:
    """The curve with its marks at the capacity (Table 3's axis) or at the chosen capacities, the log and its hits."""
    curve, k, capacity_gb, source = r.curve, r.factor, r.capacity_gb, r.source
    basis = "compressed" if curve.size_basis == "compressed" else "host-size"
    readouts = {
        "mount log": f"{source.name}{' (illustrative)' if source.example else ''}",
        "mounts": f"{curve.mounts:,} of {curve.volumes:,} volumes in {number(curve.hours)} h",
        "reads counted": f"{curve.reads:,.0f} ({basis} sizes)",
    }
    notes = [
        page_advice(n) for n in source.log.notes if not n.startswith(("read as", "times:"))
    ]  # defaults the reader took
    if not curve.reads:
        notes.append("the log has no reads counted: it gives no read-hit ratio")
    caption = {"mount log": source.name + (" (illustrative, synthetic)" if source.example else "")}
    if r.capacities is not None:
        from vtsmodel.app.text import size

        caps = np.sort(np.asarray(r.capacities, dtype=float))
        top = curve.at(caps[-1:])
        readouts["capacities"] = (
            f"{len(caps)}, {size(caps[0])} to {size(caps[-1])} (the log's sizes; each in the table)"
        )
        readouts[f"read hits at {size(caps[-1])}"] = (f"{pct(float(top.read_hit_ratio[0]))} of reads, "
                                                      f"{pct(float(top.read_byte_hit_ratio[0]))} of bytes")  # fmt: skip
        return View(figures={"curve": Plot(curve_base, r.slow)}, readouts=readouts,
                    binding=_binding(curve, 1.0, float(caps[-1])), notes=tuple(notes), citations=CITATIONS,
                    caption_values=caption)  # fmt: skip
    count, byte = float(r.here.read_hit_ratio[0]), float(r.here.read_byte_hit_ratio[0])
    label = f"{number(capacity_gb)} GB"
    plot = Plot(curve_base, r.slow,
                shapes=[capacity_line(capacity_gb, name=f"TVC {label}"),
                        point_mark(capacity_gb, count, color=COLORS[0], name="by count here", showlegend=False),
                        point_mark(capacity_gb, byte, color=COLORS[2], name="by bytes here", showlegend=False)])  # fmt: skip
    readouts[f"read hits at {label}"] = f"{pct(count)} of reads, {pct(byte)} of bytes"
    readouts["capacity compared"] = f"{number(capacity_gb * k)} GB of the log's {basis} volumes"
    if curve.largest_volume_gb > 72.0 * k:
        notes.append(f"the largest volume ({number(curve.largest_volume_gb)} GB) is larger than the smallest Table 3 "
                     "cache holds: below that size this page's LRU and libCacheSim's differ (vtsmodel.hits)")  # fmt: skip
    return View(figures={"curve": plot}, readouts=readouts, binding=_binding(curve, k, capacity_gb),
                notes=tuple(notes), citations=CITATIONS, caption_values=caption)  # fmt: skip
