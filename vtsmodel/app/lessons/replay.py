"""Lesson 09: replay your log through a tape library, the analytic answers beside it.

The page (:class:`ReplayPage`): a mount log picked in the browser (up to
:data:`~vtsmodel.app.downloads.MAX_UPLOAD_BYTES`; larger logs through ``vtsmodel replay``) or
the example one; sliders for the library (drives, robots, drive model, dismount delay, policy,
batching) and the cache in front; three plots: the response-time distribution of the replay
beside M/D/c and M/G/c (:func:`vtsmodel.replay.analytic_beside`), mounts and drive
utilisation per hour, and what the dismount delay buys (loads saved against drive time held).
A replay is computed once per setting and kept (:mod:`vtsmodel.app.cache`): one stage
(:data:`REPLAY`) evaluates it with the formulas beside it, and every figure and readout reads it.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import plotly.offline

import vtsmodel.replay as rp
from vtsmodel import Input, number
from vtsmodel.app import cache
from vtsmodel.app.downloads import MAX_UPLOAD_BYTES, FileBar
from vtsmodel.app.figures import COLORS, new_layout, plain_json
from vtsmodel.app.figures.axes import in_place, log_range, nice_ceiling
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.lessons.hit_curve import (
    LARGER,
    LOG_FILES,
    LogSource,
    ReadingBoxes,
    page_advice,
    read_upload,
)
from vtsmodel.app.panels import Panel, Plot, Stage, View
from vtsmodel.app.text import percent
from vtsmodel.catalog import drive_options
from vtsmodel.files import atomic_write, example_file
from vtsmodel.mountlog import read_mount_log
from vtsmodel.replay import library as _LIB

__all__ = ["DELAYS", "EXAMPLE_LOG", "EXAMPLE_SHARE", "FORMULAS", "INPUTS", "LESSON_ID", "NOTEBOOK", "SCENARIO", "TITLE", "ReplayPage",
           "example_source", "hourly_spec", "replay_of", "replay_page", "response_spec", "scenario_outputs", "scenario_view", "REPLAY", "evaluate_replay", "view_replay",
    "write_report"]  # fmt: skip

LESSON_ID = "09"
TITLE = "Replay your log: the recall answer from your own requests"
NOTEBOOK = "09_replay_your_log.ipynb"

#: The lesson's example: a request log drawn by :func:`vtsmodel.replay.synthetic.synthetic_request_log`
#: (illustrative, not measured): three days of bursty restore jobs, files clustered on the
#: cartridges the log names, durations with a cv over 3.
EXAMPLE_LOG = example_file("example_library_log.csv")
#: The page's default share of a cartridge holding the log's volumes, for a log that names no
#: cartridges (the example names its own): a modelling choice, not a source value. At 1 a few
#: thousand volumes of some hundred MB fit on one 18 TB LTO-9 cartridge and every tape request
#: queues for it; at 0.001 they spread over dozens, as a week's reads spread over a library's
#: cartridges. [-]
EXAMPLE_SHARE = 0.001
#: Shares of requests (edges) whose times to data the formulas' response curves average over:
#: even to 0.9, then ever finer towards the slowest, down to a share of 10^-5. [-]
READY_EDGES = np.concatenate([np.linspace(0.0, 0.9, 181), 1.0 - np.geomspace(0.1, 1e-5, 160)[1:], [1.0]])
#: Dismount delays the third plot replays with "replay every dismount delay". [s]
DELAYS = (0.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1200.0, 1800.0)

INPUTS = {
    "drives": _LIB.REPLAY_DRIVES.but(hi=64, step=1),
    "robots": _LIB.ROBOTS.but(hi=8, step=1),
    "drive": Input("drive", "", "LTO9", choices=tuple(drive_options(having=("load_time",))),
                   source="drive catalog (load, locate, rewind, unload, rate, capacity)",
                   help="The catalog drive whose timings, rate and capacity the library uses."),
    "dismount_after_s": _LIB.DISMOUNT_AFTER_S.but(hi=1800.0, step=30.0),
    "policy": _LIB.POLICY,
    "batch_requests": _LIB.BATCH_REQUESTS.but(hi=8, step=1),
    "batch_wait_s": _LIB.BATCH_WAIT_S.but(hi=1800.0, step=30.0),
    "cartridge_share": rp.run.CARTRIDGE_SHARE.but(
        lo=1e-5, lo_open=False, scale="log", step=0.1, default=EXAMPLE_SHARE,
        help="For a log that names no cartridges (the example names its own): the share of each cartridge's capacity "
        "that holds the log's volumes, the rest holding data the log does not read. 1, they fill their cartridges in "
        f"order of first use; lower, they spread over more. {EXAMPLE_SHARE:g} by default."),
    "cache_gb": rp.run.CACHE_GB.but(default=864.0, optional=False, hi=3456.0, step=12.0,
                                    help="Disk cache in front (LRU, in the log's sizes); 0: none, every request to tape."),
    "q": Input("percentile", "-", 0.95, lo=0.5, hi=0.99, step=0.01, help="The percentile the readouts and plots compare."),
    "delays": Input("replay every dismount delay", "", False,
                    help=f"Draw loads saved and drive hours held for each delay ({len(DELAYS)} more replays a change)."),
}  # fmt: skip
SCENARIO = (
    "drives",
    "robots",
    "drive",
    "dismount_after_s",
    "policy",
    "batch_requests",
    "batch_wait_s",
    "cartridge_share",
    "cache_gb",
    "q",
)
#: The analytic answers' formulas, named in an export's caption (textbook approximations: no
#: source document of the project gives them; :mod:`vtsmodel.queueing`).
FORMULAS = (
    "M/D/c by Cosmetatos' approximation (G. P. Cosmetatos, 1975, INFOR 13: 328-331), M/G/c by "
    "Allen-Cunneen's, on Erlang C"
)
_LIBRARY_KEYS = ("drives", "robots", "drive", "policy", "batch_requests", "batch_wait_s")


@cache.kept(keep=1)
def example_source() -> LogSource:
    """The lesson's example request log (synthetic, illustrative)."""
    return LogSource(EXAMPLE_LOG.name, read_mount_log(EXAMPLE_LOG), example=True)


def _prepared(source: LogSource, cache_gb: float, drive: str, cartridge_share: float) -> rp.PreparedRequests:
    """The cache pass and the stacking: the same for every drive count, robot, delay and policy."""
    return rp.prepare_log(source.log, rp.replay_library(drive=drive), cache_gb=cache_gb if cache_gb > 0 else None,
                          cartridge_share=cartridge_share)  # fmt: skip


def _run(
    source: LogSource, cache_gb: float, cartridge_share: float, dismount_after_s: float, **lib
) -> tuple[rp.Replay, rp.WaitParts]:
    library = rp.replay_library(dismount_after_s=dismount_after_s, **lib)
    prepared = cache.cached(_prepared, source=source, cache_gb=float(cache_gb), drive=lib["drive"],
                            cartridge_share=float(cartridge_share))  # fmt: skip
    rep = rp.replay_prepared(prepared, library, service="log" if prepared.duration_s is not None else "drive")
    return rep, rp.wait_parts(rep, prepared.cartridge)


def replay_parts(
    source: LogSource, cache_gb: float, cartridge_share: float, dismount_after_s: float, **lib
) -> tuple[rp.Replay, rp.WaitParts]:
    """The replay at one setting and its waits split (:func:`vtsmodel.replay.wait_parts`), computed once and kept."""
    return cache.cached(_run, source=source, cache_gb=float(cache_gb), cartridge_share=float(cartridge_share),
                        dismount_after_s=float(dismount_after_s), **lib)  # fmt: skip


def replay_of(
    source: LogSource, cache_gb: float, cartridge_share: float, dismount_after_s: float, **lib
) -> rp.Replay:
    """The replay at one setting, computed once and kept (:mod:`vtsmodel.app.cache`)."""
    return replay_parts(source, cache_gb, cartridge_share, dismount_after_s, **lib)[0]


def _beside(rep: rp.Replay, q: float) -> rp.AnalyticBeside:
    return rp.analytic_beside(rep, q, warn=False, simulate=False)  # the formulas only: no 0.2 s simulation


def _layout(title: str, height: int, xaxis_title: str = "", yaxis_title: str = "") -> dict:
    """The page's layout: the title, then the legend in one row, then the plot.

    Both are placed in pixels from an edge (the title 10 px under the top, the legend on the
    plot area's top edge), not as fractions of the height: an export grows the figure by its
    caption, and a fraction of the taller figure would push them down into an empty band.
    The figures are written as JSON directly: a plotly ``Figure`` checks every property again,
    tens of milliseconds a figure, more than the replay behind a move.
    """
    layout = new_layout(title=title, xaxis_title=xaxis_title, yaxis_title=yaxis_title, height=height)
    layout.update(margin={**layout["margin"], "t": 76},
                  title={**layout["title"], "y": 1, "yref": "container", "yanchor": "top", "pad": {"t": 10}},
                  legend={**layout["legend"], "orientation": "h", "x": 0, "xanchor": "left", "yref": "paper",
                          "y": 1.0, "yanchor": "bottom"})  # fmt: skip
    return layout


def _line(x, y, name: str, line: dict, **more) -> dict:
    return {"type": "scatter", "x": x, "y": y, "mode": "lines", "name": name, "line": line, **more}


def response_spec(rep: rp.Replay, a: rp.AnalyticBeside) -> dict:
    """The replay's response times beside M/D/c and M/G/c: share of tape requests slower than t (figure JSON).

    The formulas' curves are their waits plus each request's own time to data (robot move,
    load, locate, read: :meth:`~vtsmodel.replay.AnalyticBeside.response_survival` over its
    quantiles at :data:`READY_EDGES`), so that heavy-tailed reads show in their tails too. A
    dotted line marks the replay's response at the quantile compared (``a.q``). The time axis
    runs out to the 1, 2, 5 values around the curves, so a move that changes only the curves
    redraws them alone (:func:`~vtsmodel.app.figures.axes.in_place`).
    """
    layout = _layout("Response time: replay vs the formulas", 420, "response time t [s]",
                     "share of tape requests slower than t")  # fmt: skip
    data = []
    layout["xaxis"]["type"] = "log"
    bottom, top = -4, 0.05  # the share axis [log10]
    if rep.tape_requests:
        t, share = rep.survival()
        t, share = t[share > 0], share[share > 0]  # the slowest request: no share above it on a log axis
        data.append(_line(t, share, "replay", {"color": COLORS[0], "width": 3}))
        grid = np.geomspace(max(t[0], 1.0), max(t[-1], 10.0) * 2, 200)
        ready = weights = None
        hold = rep.hold_sample_s  # each request's time to data (streamed: a sample), by its quantiles
        if hold is not None and hold.size:
            mid = (READY_EDGES[1:] + READY_EDGES[:-1]) / 2
            ready, weights = np.quantile(hold - rep.library.rewind_unload_s, mid), np.diff(READY_EDGES)
        for model, color in (("M/D/c", COLORS[1]), ("M/G/c", COLORS[2])):
            label = model if model == "M/D/c" else f"M/G/c, cv {a.service_cv:.2f}"
            tail = a.response_survival(grid, model, ready, weights)
            data.append(_line(grid, tail, label, {"color": color, "dash": "dash"}))
        p = rep.percentile(a.q)
        if math.isfinite(p):
            data.append(_line([p, p], [10.0**bottom, 10.0**top], f"replay p{100 * a.q:g}",
                              {"color": COLORS[0], "dash": "dot", "width": 2}, showlegend=False,
                              hovertemplate=f"replay p{100 * a.q:g}: %{{x:,.4g}} s<extra></extra>"))  # fmt: skip
        first = min(v for v in (float(t[0]), float(grid[0])) if v > 0)  # grid[0] >= 1 s
        layout["xaxis"]["range"] = log_range(first, float(grid[-1]), (), pad=0.0)
        layout["transition"] = in_place()
    ticks = [1.0, 0.1, 0.01, 0.001, 0.0001]
    layout["yaxis"].update(
        type="log", range=[bottom, top], tickvals=ticks, ticktext=["100%", "10%", "1%", "0.1%", "0.01%"]
    )
    return plain_json({"data": data, "layout": layout})


def response_base(rep: rp.Replay, beside: rp.AnalyticBeside) -> dict:
    """:func:`response_spec` of a replay and the formulas beside it."""
    return response_spec(rep, beside)


def hourly_spec(rep: rp.Replay) -> dict:
    """Mounts per hour (bars) and drive utilisation per hour (line), as figure JSON."""
    h = np.arange(rep.hourly["mounts"].size)
    layout = _layout("Mounts and drive utilisation per hour", 360, "hour of the log", "mounts per hour")
    util = rep.hourly["busy_s"] / (3600.0 * rep.library.drives)
    data = [
        {"type": "bar", "x": h, "y": rep.hourly["mounts"], "name": "mounts", "marker": {"color": COLORS[0]}},
        _line(h, util, "drive utilisation", {"color": COLORS[1]}, yaxis="y2"),
    ]
    layout["yaxis2"] = {"title": {"text": "drive utilisation"}, "overlaying": "y", "side": "right",
                        "range": [0, 1.05], "tickformat": ".0%", "dtick": 0.25, "showgrid": False}  # fmt: skip
    # mounts from 0 to a step above the busiest hour: a move that changes only the bars and the line
    # redraws them alone (in_place)
    top = float(np.max(rep.hourly["mounts"], initial=0.0))
    layout["yaxis"]["range"] = [0.0, nice_ceiling(1.05 * top)]
    layout["transition"] = in_place()
    return plain_json({"data": data, "layout": layout})


def hourly_base(rep: rp.Replay) -> dict:
    """:func:`hourly_spec` of a replay."""
    return hourly_spec(rep)


def delay_curve(
    source: LogSource, cache_gb, cartridge_share, **lib
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Loads, drive hours held and the mean response at each of :data:`DELAYS` (one replay each, kept)."""
    reps = [replay_of(source, cache_gb, cartridge_share, d, **lib) for d in DELAYS]
    loads = np.array([r.mounts for r in reps], dtype=float)
    held = np.array([r.drive_held_s / 3600.0 for r in reps])
    mean = np.array([r.mean_response_s for r in reps])
    return loads, held, mean


def delay_base(curve: tuple) -> dict:
    """Loads saved and drive hours held, against the dismount delay (:func:`delay_curve`)."""
    loads, held, mean = curve
    x = np.asarray(DELAYS)
    layout = new_layout(title="What the dismount delay buys", xaxis_title="dismount delay [s]",
                        yaxis_title="loads saved against no delay", height=360)  # fmt: skip
    data = [
        _line(x, loads[0] - loads, "loads saved", {"color": COLORS[2]}, mode="lines+markers"),
        _line(x, held, "drive hours held idle", {"color": COLORS[3]}, mode="lines+markers", yaxis="y2"),
        _line(x, mean, "mean response [s]", {"color": "#777", "dash": "dot"}, yaxis="y3"),
    ]
    layout["yaxis2"] = {"title": {"text": "drive hours held"}, "overlaying": "y", "side": "right"}
    layout["yaxis3"] = {"overlaying": "y", "side": "right", "visible": False}
    return plain_json({"data": data, "layout": layout})


def held_base(rep: rp.Replay, dismount_after_s: float) -> dict:
    """Loads (mounts and loads saved) and drive hours (busy and held idle) of one replay."""
    layout = new_layout(title=f"What the dismount delay buys at {number(dismount_after_s)} s", height=360)
    bars = (
        (["mounts", "loads saved"], [rep.mounts, rep.loads_saved], [COLORS[0], COLORS[2]], "x", "y"),
        (["busy", "held idle"], [rep.drive_busy_s / 3600.0, rep.drive_held_s / 3600.0], [COLORS[1], COLORS[3]],
         "x2", "y2"),
    )  # fmt: skip
    data = [{"type": "bar", "x": x, "y": y, "marker": {"color": color}, "xaxis": xa, "yaxis": ya, "showlegend": False,
             "hovertemplate": "%{x}: %{y:,.4g}<extra></extra>"} for x, y, color, xa, ya in bars]  # fmt: skip
    layout["xaxis"]["domain"] = [0, 0.42]
    layout["xaxis2"] = {"domain": [0.58, 1], "anchor": "y2"}
    # each from 0 to a step above its taller bar: a move that changes only the bars redraws them alone (in_place)
    layout["yaxis"].update(title={"text": "loads [count]"}, range=[0.0, nice_ceiling(1.05 * max(bars[0][1]))])
    layout["yaxis2"] = {"title": {"text": "drive time [h]"}, "anchor": "x2",
                        "range": [0.0, nice_ceiling(1.05 * max(bars[1][1]))]}  # fmt: skip
    layout["transition"] = in_place()
    return plain_json({"data": data, "layout": layout})


@dataclass(frozen=True, eq=False)
class ReplayResult:
    """A log replayed at one setting, the formulas beside it, and (when asked) every dismount delay.

    Attributes
    ----------
    source : LogSource
    dismount_after_s, q
        The dismount delay [s] and the percentile compared [-].
    replay : vtsmodel.replay.Replay
        The replay (kept per setting).
    beside : vtsmodel.replay.AnalyticBeside
        M/D/c and M/G/c beside it, at ``q``.
    parts : vtsmodel.replay.WaitParts
        The replay's waits split: for a cartridge an earlier request held, and the rest.
    delay_curve : tuple of numpy.ndarray or None
        Loads, drive hours held and mean response at each of :data:`DELAYS`, when asked for.
    """

    source: LogSource
    dismount_after_s: float
    q: float
    replay: rp.Replay
    beside: rp.AnalyticBeside
    parts: rp.WaitParts
    delay_curve: tuple | None


def evaluate_replay(source: LogSource | None = None, drives=16, robots=1, drive="LTO9", dismount_after_s=0.0,
                    policy="fifo", batch_requests=1, batch_wait_s=0.0, cartridge_share=EXAMPLE_SHARE, cache_gb=864.0, q=0.95,
                    delays=False) -> ReplayResult:  # fmt: skip
    """A log (default the example) replayed through the library and cache of this setting."""
    source = source or example_source()
    lib = {"drives": int(drives), "robots": int(robots), "drive": drive, "policy": policy,
           "batch_requests": int(batch_requests), "batch_wait_s": float(batch_wait_s)}  # fmt: skip
    share = float(cartridge_share)
    rep, parts = replay_parts(source, cache_gb, share, dismount_after_s, **lib)
    curve = (cache.cached(delay_curve, source=source, cache_gb=float(cache_gb), cartridge_share=share, **lib)
             if delays else None)  # fmt: skip
    return ReplayResult(source, float(dismount_after_s), float(q), rep, _beside(rep, q), parts, curve)


def view_replay(r: ReplayResult) -> View:
    """The page for one log and one setting: the three plots, the readouts, what binds."""
    source, rep, a, q = r.source, r.replay, r.beside, r.q
    x_line = {"type": "line", "x0": r.dismount_after_s, "x1": r.dismount_after_s, "y0": 0, "y1": 1, "yref": "paper",
              "line": {"color": "#333", "dash": "dot"}}  # fmt: skip
    p = rep.percentile(q) if rep.tape_requests else math.nan
    figures = {
        "response": Plot(response_base, {"rep": rep, "beside": a}),
        "hourly": Plot(hourly_base, {"rep": rep}),
        "delay": Plot(delay_base, {"curve": r.delay_curve}, shapes=[x_line]) if r.delay_curve is not None
        else Plot(held_base, {"rep": rep, "dismount_after_s": r.dismount_after_s}),
    }  # fmt: skip
    pct = f"p{100 * q:g}"
    readouts = {
        "mount log": f"{source.name}{' (illustrative)' if source.example else ''}",
        "requests to tape": f"{rep.tape_requests:,} of {rep.requests:,} ({rep.cache_hits:,} cache hits)",
        f"response, mean / {pct}": f"{number(rep.mean_response_s)} s / {number(p)} s",
        f"wait {pct}: replay / M/D/c / M/G/c": f"{number(a.replay_q_s)} / {number(a.mdc_q_s)} / {number(a.mgc_q_s)} s",
        "cartridges used": f"{rep.cartridges:,}"
        + ("" if rep.volumes_per_cartridge is None else f" ({rep.volumes_per_cartridge:,} volumes a cartridge)"),
        "mounts per hour": number(rep.mounts_per_hour),
        "loads saved (cartridge mounted)": f"{rep.loads_saved:,}",
        "drive / robot utilisation": f"{number(rep.drive_utilisation)} / {number(rep.robot_utilisation)}",
        **why_apart(rep, a, r.parts),
    }  # fmt: skip
    u, rr = rep.drive_utilisation, rep.robot_utilisation
    busiest = "robots" if rr > u else "drives"
    binding = (f"Busiest: the {busiest} ({number(100 * max(u, rr))}% of the time); the {pct} response is "
               f"{number(p)} s, of which {number(a.replay_q_s)} s waiting at the {pct} of waits.")  # fmt: skip
    notes = [page_advice(n) for n in rep.notes] + [
        n for n in a.notes if not n.startswith(rp.analytic.FAR_NOTE)
    ]  # named above instead
    return View(figures=figures, readouts=readouts, binding=binding, notes=tuple(notes),
                caption_values={"formulas beside the replay": FORMULAS}, citations=rep.library.source_ids)  # fmt: skip


def why_apart(rep: rp.Replay, a: rp.AnalyticBeside, parts: rp.WaitParts) -> dict[str, str]:
    """The readouts that say why the replay's wait and the formulas' differ, each reason on its own line.

    The service cv against the approximations' ground (:data:`vtsmodel.replay.analytic.CV_LIMIT`),
    the wait for a cartridge an earlier request held (no formula sees it), and the rest of
    the wait (a drive, a robot, an unload) beside M/G/c's, with the bursts and the robots
    that the formulas' Poisson arrivals leave out.
    """
    pct = f"p{100 * a.q:g}"
    cv, limit = a.service_cv, rp.analytic.CV_LIMIT
    ground = (f"over {limit:g}: where M/G/c's approximation is known to fail; M/D/c takes every service alike"
              if cv > limit else f"within {limit:g}, the approximations' ground")  # fmt: skip
    out = {"service mean, cv": f"{number(a.service_s)} s, {cv:.2f}: {ground}"}
    if not parts.cartridge_s.size:
        return out
    out["waiting for a cartridge (no formula sees it)"] = (
        f"{percent(parts.share_contended)} of tape requests came while an earlier one held their cartridge, "
        f"{number(parts.mean_cartridge_s())} s each on average")  # fmt: skip
    peak = f"busiest hour {parts.peak_ratio:.1f}x the mean, " if rep.hourly["arrivals"].size > 1 else ""
    robots = rep.library.robots
    out[f"waiting for a drive or robot, {pct}"] = (
        f"{number(parts.other_quantile_s(a.q))} s against M/G/c's {number(a.mgc_q_s)} s: arrivals in bursts "
        f"({peak}not Poisson), {robots} robot{'s' if robots > 1 else ''} {percent(rep.robot_utilisation)} busy")  # fmt: skip
    return out


#: The page's stage: a log (the page's) and the setting replayed, viewed.
REPLAY = Stage(evaluate_replay, view_replay)


# --- the page ------------------------------------------------------------------------------------
class ReplayPage:
    """The page: a mount log (picked in the browser, or the example) and its panel."""

    def __init__(self, source: LogSource | None = None, **values) -> None:
        self.source = source or example_source()
        self.panel = Panel(INPUTS, REPLAY, state=lambda: {"source": self.source}, values=values, title=TITLE,
                           name="09_replay")  # fmt: skip
        self.files = f = FileBar("replay")
        f.add(w.HTML("<b>Mount log</b>&nbsp;"))
        self.upload = f.upload("Upload mount log…", self.load_bytes, accept=LOG_FILES, max_bytes=MAX_UPLOAD_BYTES,
                               tooltip="A request log (CSV: time_s or time, volume, compressed_mb or host_mb; optional "
                                       "access, cartridge, duration_s; or a real system's: any delimiter, header or "
                                       f"not, gzip/bz2/xz/zstd), up to {MAX_UPLOAD_BYTES / 1e6:g} MB",
                               larger=LARGER)  # fmt: skip
        f.button(
            "Use the example log", self.use_example, f"examples/{EXAMPLE_LOG.name}: synthetic, illustrative"
        )
        f.add(w.HTML(f"<span style='color:#555'>up to {MAX_UPLOAD_BYTES / 1e6:g} MB; larger logs: "
                     "<code>vtsmodel replay LOG.csv</code></span>"))  # fmt: skip
        self.status = f.status
        self.reading = ReadingBoxes()  # a log without a header needs its columns
        self.widget = w.VBox([f.widget, self.reading.widget, self.panel.widget],
                             layout=w.Layout(width="100%", max_width="1240px"))  # fmt: skip
        f.say(source_html(self.source))

    def set(self, **values) -> None:
        """Set inputs (checked by their declarations); the panel follows."""
        self.panel.set(**values)

    def show(self, source: LogSource) -> None:
        """Show ``source`` (a log already read)."""
        self.source = source
        self.panel.update()
        self.files.say(source_html(source))

    def load_bytes(self, data: bytes, name: str) -> str:
        """Read a picked log and show it; a bad log raises ``ValueError`` and changes nothing."""
        self.show(read_upload(data, name, **self.reading.options()))
        return source_html(self.source)

    def use_example(self) -> None:
        """Show the example log."""
        self.show(example_source())

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def replay_page(**values) -> ReplayPage:
    """The page with the example log (or ``values``)."""
    return ReplayPage(**values)


def example_numbers() -> str:
    """The example log replayed at the defaults and with a 300 s dismount delay, to 3 digits.

    With the formulas beside each replay, the simulation fed the log's own service sample
    (seed 0), and the replay's wait split (:func:`vtsmodel.replay.wait_parts`).
    """
    lines = []
    for delay in (0.0, 300.0):
        rep, parts = replay_parts(example_source(), INPUTS["cache_gb"].default, INPUTS["cartridge_share"].default,
                                  delay, **{k: INPUTS[k].default for k in _LIBRARY_KEYS})  # fmt: skip
        a = rp.analytic_beside(rep, 0.95, warn=False)
        n = number
        lines.append(
            f"dismount after {delay:g} s: {rep.tape_requests:,} tape requests, {rep.mounts:,} mounts, "
            f"drives {percent(rep.drive_utilisation)} busy, mean response {n(rep.mean_response_s)} s, "
            f"p95 {n(rep.percentile(0.95))} s; service cv {n(a.service_cv)}; p95 wait replay {n(a.replay_q_s)} s, "
            f"M/D/c {n(a.mdc_q_s)} s, M/G/c {n(a.mgc_q_s)} s, the sample simulated {n(a.sample_q_s)} s; "
            f"{percent(parts.share_contended)} waited for their cartridge ({n(parts.mean_cartridge_s())} s on "
            f"average), p95 of the rest {n(parts.other_quantile_s(0.95))} s"
        )
    return "\n".join(lines)


def write_report(rep: rp.Replay, a: rp.AnalyticBeside, path, *, name: str = "", overwrite: bool = False,
                 read_notes=()):  # fmt: skip
    """Write an offline HTML report of a replay (its figures, the analytic answers, the sources), atomically.

    ``read_notes`` (how the log was read) come before the replay's and the formulas' own.
    """
    e = html.escape

    def cell(v):
        return number(v) if math.isfinite(v) else a.missing

    lib = rep.library
    rows = "".join(f"<tr><td>{e(n)}</td><td>{cell(m)}</td><td>{cell(x)}</td></tr>" for n, m, x in a.rows())
    figs = "".join(
        pio.to_html(go.Figure(f), include_plotlyjs=False, full_html=False)
        for f in (response_spec(rep, a), hourly_spec(rep))
    )
    facts = (f"{rep.requests:,} requests, {rep.tape_requests:,} to tape; {lib.drives} x {lib.drive or 'drive'}, "
             f"{lib.robots} robot(s), dismount after {lib.dismount_after_s:g} s, policy {lib.policy}; response mean "
             f"{number(rep.mean_response_s)} s, p{100 * a.q:g} {number(rep.percentile(a.q))} s; mounts per hour "
             f"{number(rep.mounts_per_hour)}; drive utilisation {number(rep.drive_utilisation)}")  # fmt: skip
    notes = "".join(f"<li>{e(n)}</li>" for n in (*read_notes, *rep.notes, *a.notes))
    sources = "".join(f"<li>{e(s)}</li>" for s in lib.sources)
    page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Replay {e(name)}</title>"
            f"<script type='text/javascript'>{plotly.offline.get_plotlyjs()}</script></head><body>"
            f"<h1>Replay of {e(name)} (vtsmodel)</h1><p>{e(facts)}</p>"
            f"<table border='1' cellpadding='4'><tr><th>answer</th><th>mean wait [s]</th>"
            f"<th>p{100 * a.q:g} wait [s]</th></tr>{rows}</table><ul>{notes}</ul>{figs}"
            f"<h2>Sources</h2><ul>{sources}</ul></body></html>")  # fmt: skip
    return atomic_write(path, page, overwrite=overwrite, parents=True)


# --- the lesson contract ---------------------------------------------------------------------------
def scenario_outputs(**values) -> dict[str, float]:
    """The example log at one setting: response mean and percentile, mounts per hour, utilisation."""
    v = scenario_values(INPUTS, SCENARIO, values)
    rep = REPLAY.result(v).replay
    return {
        "mean response [s]": rep.mean_response_s,
        "response at percentile [s]": rep.percentile(v["q"]),
        "mounts per hour [1/h]": rep.mounts_per_hour,
        "drive utilisation [-]": rep.drive_utilisation,
    }


def scenario_view(**values) -> View:
    """Every figure for one scenario, on the example log."""
    return REPLAY.show(scenario_values(INPUTS, SCENARIO, values))


def source_html(source: LogSource) -> str:
    """One line naming the log shown."""
    what = " (synthetic, illustrative: not measured)" if source.example else ""
    return f"showing <b>{html.escape(source.name)}</b>{what}: {len(source.log):,} requests"
