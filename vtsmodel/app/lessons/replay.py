"""Lesson 09: replay your log through a tape library, the analytic answers beside it.

The page (:class:`ReplayPage`): a mount log picked in the browser (up to
:data:`~vtsmodel.app.downloads.MAX_UPLOAD_BYTES`; larger logs through ``vtsmodel replay``) or
the example one; sliders for the library (drives, robots, drive model, dismount delay, policy,
batching) and the cache in front; three plots: the response-time distribution of the replay
beside M/D/c and M/G/c (:func:`vtsmodel.replay.analytic_beside`), mounts and drive
utilisation per hour, and what the dismount delay buys (loads saved against drive time held).
A replay is computed once per setting and kept (:func:`~vtsmodel.app.figures.slow_value`).
"""

from __future__ import annotations

import html
import math

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go

import vtsmodel.replay as rp
from vtsmodel._inputs import Input, number
from vtsmodel.app.downloads import MAX_UPLOAD_BYTES, FileBar
from vtsmodel.app.figures import COLORS, figure_json, new_figure, slow_value
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.lessons.hit_curve import LogSource, example_source, log_controls, read_upload
from vtsmodel.app.panels import Panel, Plot, View, compute
from vtsmodel.catalog import drive_options
from vtsmodel.replay import library as _LIB

__all__ = ["DELAYS", "INPUTS", "LESSON_ID", "NOTEBOOK", "SCENARIO", "TITLE", "ReplayPage", "hourly_figure", "replay_of",
           "replay_page", "response_figure", "scenario_outputs", "scenario_view", "view_replay", "write_report"]  # fmt: skip

LESSON_ID = "09"
TITLE = "Replay your log: the recall answer from your own requests"
NOTEBOOK = "09_replay_your_log.ipynb"

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
    "cache_gb",
    "q",
)
_LIBRARY_KEYS = ("drives", "robots", "drive", "policy", "batch_requests", "batch_wait_s")


def _run(source: LogSource, cache_gb: float, dismount_after_s: float, **lib) -> rp.Replay:
    library = rp.replay_library(dismount_after_s=dismount_after_s, **lib)
    return rp.replay_log(source.log, library, cache_gb=cache_gb if cache_gb > 0 else None)


def replay_of(source: LogSource, cache_gb: float, dismount_after_s: float, **lib) -> rp.Replay:
    """The replay at one setting, computed once and kept."""
    return slow_value(_run, source=source, cache_gb=cache_gb, dismount_after_s=dismount_after_s, **lib)


def _beside(rep: rp.Replay, q: float) -> rp.AnalyticBeside:
    return rp.analytic_beside(rep, q, warn=False, simulate=False)  # the formulas only: no 0.2 s simulation


def response_figure(rep: rp.Replay, a: rp.AnalyticBeside) -> go.Figure:
    """The replay's response times beside M/D/c and M/G/c: share of tape requests slower than t."""
    fig = new_figure(title="Response time: replay vs the formulas", xaxis_title="response time t [s]",
                     yaxis_title="share of tape requests slower than t", height=420)  # fmt: skip
    if rep.tape_requests:
        t, share = rep.survival()
        fig.add_trace(
            go.Scatter(x=t, y=share, mode="lines", name="replay", line={"color": COLORS[0], "width": 3})
        )
        ready = rep.hold_mean_s - rep.library.rewind_unload_s  # mean time to data with a mount
        grid = np.geomspace(max(t[0], 1.0), max(t[-1], 10.0) * 2, 200)
        for name, wq, color in (("M/D/c", a.mdc_mean_s, COLORS[1]), (f"M/G/c, cv {a.service_cv:.2f}", a.mgc_mean_s, COLORS[2])):  # fmt: skip
            if not math.isfinite(wq) or wq <= 0:
                continue
            c_wait = _prob_wait(a)  # the formulas' exponential tail (vtsmodel.queueing.wait_percentile)
            tail = np.where(grid < ready, 1.0, c_wait * np.exp(-(grid - ready) * c_wait / wq))
            fig.add_trace(
                go.Scatter(x=grid, y=tail, mode="lines", name=name, line={"color": color, "dash": "dash"})
            )
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log", range=[-4, 0.05])
    return fig


def response_base(source: LogSource, cache_gb, dismount_after_s, q, **lib) -> dict:
    """:func:`response_figure` for one setting."""
    rep = replay_of(source, cache_gb, dismount_after_s, **lib)
    return figure_json(response_figure(rep, slow_value(_beside, rep=rep, q=q)))


def _prob_wait(a: rp.AnalyticBeside) -> float:
    from vtsmodel.queueing import prob_wait

    return float(prob_wait(a.arrival_rate, a.service_s, a.drives))


def hourly_figure(rep: rp.Replay) -> go.Figure:
    """Mounts per hour (bars) and drive utilisation per hour (line)."""
    h = np.arange(rep.hourly["mounts"].size)
    fig = new_figure(title="Mounts and drive utilisation per hour", xaxis_title="hour of the log",
                     yaxis_title="mounts per hour", height=360)  # fmt: skip
    fig.add_trace(go.Bar(x=h, y=rep.hourly["mounts"], name="mounts", marker={"color": COLORS[0]}))
    util = rep.hourly["busy_s"] / (3600.0 * rep.library.drives)
    fig.add_trace(
        go.Scatter(x=h, y=util, name="drive utilisation", yaxis="y2", mode="lines", line={"color": COLORS[1]})
    )
    fig.update_layout(
        yaxis2={"title": "drive utilisation [-]", "overlaying": "y", "side": "right", "range": [0, 1.05]}
    )
    return fig


def hourly_base(source: LogSource, cache_gb, dismount_after_s, **lib) -> dict:
    """:func:`hourly_figure` for one setting."""
    return figure_json(hourly_figure(replay_of(source, cache_gb, dismount_after_s, **lib)))


def _delay_curve(source: LogSource, cache_gb, **lib):
    reps = [replay_of(source, cache_gb, d, **lib) for d in DELAYS]
    loads = np.array([r.mounts for r in reps], dtype=float)
    held = np.array([r.drive_held_s / 3600.0 for r in reps])
    mean = np.array([r.mean_response_s for r in reps])
    return loads, held, mean


def delay_base(source: LogSource, cache_gb, **lib) -> dict:
    """Loads saved and drive hours held, against the dismount delay."""
    loads, held, mean = slow_value(_delay_curve, source=source, cache_gb=cache_gb, **lib)
    x = np.asarray(DELAYS)
    fig = new_figure(title="What the dismount delay buys", xaxis_title="dismount delay [s]",
                     yaxis_title="loads saved against no delay", height=360)  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=x, y=loads[0] - loads, mode="lines+markers", name="loads saved", line={"color": COLORS[2]}
        )
    )
    fig.add_trace(go.Scatter(x=x, y=held, mode="lines+markers", name="drive hours held idle", yaxis="y2",
                             line={"color": COLORS[3]}))  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=x,
            y=mean,
            mode="lines",
            name="mean response [s]",
            yaxis="y3",
            line={"color": "#777", "dash": "dot"},
        )
    )
    fig.update_layout(yaxis2={"title": "drive hours held", "overlaying": "y", "side": "right"},
                      yaxis3={"overlaying": "y", "side": "right", "visible": False})  # fmt: skip
    return figure_json(fig)


def held_base(source: LogSource, cache_gb, dismount_after_s, **lib) -> dict:
    """Loads (mounts and loads saved) and drive hours (busy and held idle) at one setting."""
    rep = replay_of(source, cache_gb, dismount_after_s, **lib)
    fig = new_figure(title=f"What the dismount delay buys at {number(dismount_after_s)} s",
                     yaxis_title="count or drive hours", height=360)  # fmt: skip
    x = ["loads (mounts)", "loads saved", "drive hours busy", "drive hours held idle"]
    y = [rep.mounts, rep.loads_saved, rep.drive_busy_s / 3600.0, rep.drive_held_s / 3600.0]
    fig.add_trace(go.Bar(x=x, y=y, marker={"color": [COLORS[0], COLORS[2], COLORS[1], COLORS[3]]},
                         hovertemplate="%{x}: %{y:,.4g}<extra></extra>", showlegend=False))  # fmt: skip
    return figure_json(fig)


def view_replay(source: LogSource | None = None, drives=16, robots=1, drive="LTO9", dismount_after_s=0.0,
                policy="fifo", batch_requests=1, batch_wait_s=0.0, cache_gb=864.0, q=0.95, delays=False) -> View:  # fmt: skip
    """The page for one log and one setting."""
    source = source or example_source()
    lib = {"drives": drives, "robots": robots, "drive": drive, "policy": policy, "batch_requests": batch_requests,
           "batch_wait_s": batch_wait_s}  # fmt: skip
    rep = replay_of(source, cache_gb, dismount_after_s, **lib)
    a = slow_value(_beside, rep=rep, q=q)
    args = {"source": source, "cache_gb": cache_gb, **lib}
    x_line = {"type": "line", "x0": dismount_after_s, "x1": dismount_after_s, "y0": 0, "y1": 1, "yref": "paper",
              "line": {"color": "#333", "dash": "dot"}}  # fmt: skip
    p = rep.percentile(q) if rep.tape_requests else math.nan
    figures = {
        "response": Plot(response_base, {**args, "dismount_after_s": dismount_after_s, "q": q},
                         shapes=[{"type": "line", "x0": p, "x1": p, "y0": 0, "y1": 1, "yref": "paper",
                                  "line": {"color": COLORS[0], "dash": "dot"}}] if math.isfinite(p) else []),
        "hourly": Plot(hourly_base, {**args, "dismount_after_s": dismount_after_s}),
        "delay": Plot(delay_base, args, shapes=[x_line]) if delays
        else Plot(held_base, {**args, "dismount_after_s": dismount_after_s}),
    }  # fmt: skip
    pct = f"p{round(100 * q)}"
    readouts = {
        "mount log": f"{source.name}{' (illustrative)' if source.example else ''}",
        "requests to tape": f"{rep.tape_requests:,} of {rep.requests:,} ({rep.cache_hits:,} cache hits)",
        f"response, mean / {pct}": f"{number(rep.mean_response_s)} s / {number(p)} s",
        f"wait {pct}: replay / M/D/c / M/G/c": f"{number(a.replay_q_s)} / {number(a.mdc_q_s)} / {number(a.mgc_q_s)} s",
        "mounts per hour": number(rep.mounts_per_hour),
        "loads saved (cartridge mounted)": f"{rep.loads_saved:,}",
        "drive / robot utilisation": f"{number(rep.drive_utilisation)} / {number(rep.robot_utilisation)}",
        "service mean, cv": f"{number(a.service_s)} s, {a.service_cv:.2f}",
    }  # fmt: skip
    u, r = rep.drive_utilisation, rep.robot_utilisation
    busiest = "robots" if r > u else "drives"
    binding = (f"Busiest: the {busiest} ({number(100 * max(u, r))}% of the time); the {pct} response is "
               f"{number(p)} s, of which {number(a.replay_q_s)} s waiting at the {pct} of waits.")  # fmt: skip
    notes = list(rep.notes) + list(a.notes)
    return View(figures=figures, readouts=readouts, binding=binding, notes=tuple(notes),
                citations=("drive_catalog", "cern_facts"))  # fmt: skip


# --- the page ------------------------------------------------------------------------------------
class ReplayPage:
    """The page: a mount log (picked in the browser, or the example) and its panel."""

    def __init__(self, source: LogSource | None = None, **values) -> None:
        self.source = source or example_source()
        self.panel = Panel(INPUTS, self._view, values=values, title=TITLE, name="09_replay")
        self.files = f = FileBar("replay")
        f.add(w.HTML("<b>Mount log</b>&nbsp;"))
        self.upload = log_controls(f, self.load_bytes, self.use_example)
        f.add(w.HTML(f"<span style='color:#555'>up to {MAX_UPLOAD_BYTES / 1e6:g} MB; larger logs: "
                     "<code>vtsmodel replay LOG.csv</code></span>"))  # fmt: skip
        self.status = f.status
        self.widget = w.VBox([f.widget, self.panel.widget], layout=w.Layout(width="100%", max_width="1240px"))
        f.say(source_html(self.source))

    def _view(self, **values) -> View:
        return view_replay(self.source, **values)

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
        self.show(read_upload(data, name))
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
    """The example log replayed at the defaults and with a 300 s dismount delay: plain numbers."""
    lines = []
    for delay in (0.0, 300.0):
        rep = replay_of(example_source(), INPUTS["cache_gb"].default, delay,
                        **{k: INPUTS[k].default for k in _LIBRARY_KEYS})  # fmt: skip
        a = _beside(rep, 0.95)
        lines.append(
            f"dismount after {delay:g} s: {rep.tape_requests} tape requests, {rep.mounts} mounts, "
            f"mean response {rep.mean_response_s:.1f} s, p95 {rep.percentile(0.95):.1f} s; "
            f"p95 wait replay {a.replay_q_s:.1f} s, M/D/c {a.mdc_q_s:.1f} s, M/G/c {a.mgc_q_s:.1f} s"
        )
    return "\n".join(lines)


def write_report(rep: rp.Replay, a: rp.AnalyticBeside, path, *, name: str = "", overwrite: bool = False):
    """Write an offline HTML report of a replay (its figures, the analytic answers, the sources), atomically."""
    import plotly.io as pio
    import plotly.offline

    from vtsmodel._files import atomic_write

    e = html.escape
    lib = rep.library
    rows = "".join(
        f"<tr><td>{e(n)}</td><td>{number(m)}</td><td>{number(x)}</td></tr>" for n, m, x in a.rows()
    )
    figs = "".join(
        pio.to_html(f, include_plotlyjs=False, full_html=False)
        for f in (response_figure(rep, a), hourly_figure(rep))
    )
    facts = (f"{rep.requests:,} requests, {rep.tape_requests:,} to tape; {lib.drives} x {lib.drive or 'drive'}, "
             f"{lib.robots} robot(s), dismount after {lib.dismount_after_s:g} s, policy {lib.policy}; response mean "
             f"{number(rep.mean_response_s)} s, p{round(100 * a.q)} {number(rep.percentile(a.q))} s; mounts per hour "
             f"{number(rep.mounts_per_hour)}; drive utilisation {number(rep.drive_utilisation)}")  # fmt: skip
    notes = "".join(f"<li>{e(n)}</li>" for n in (*rep.notes, *a.notes))
    sources = "".join(f"<li>{e(s)}</li>" for s in lib.sources)
    page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Replay {e(name)}</title>"
            f"<script type='text/javascript'>{plotly.offline.get_plotlyjs()}</script></head><body>"
            f"<h1>Replay of {e(name)} (vtsmodel)</h1><p>{e(facts)}</p>"
            f"<table border='1' cellpadding='4'><tr><th>answer</th><th>mean wait [s]</th>"
            f"<th>p{round(100 * a.q)} wait [s]</th></tr>{rows}</table><ul>{notes}</ul>{figs}"
            f"<h2>Sources</h2><ul>{sources}</ul></body></html>")  # fmt: skip
    return atomic_write(path, page, overwrite=overwrite, parents=True)


# --- the lesson contract ---------------------------------------------------------------------------
def scenario_outputs(**values) -> dict[str, float]:
    """The example log at one setting: response mean and percentile, mounts per hour, utilisation."""
    v = scenario_values(INPUTS, SCENARIO, values)
    lib = {k: v[k] for k in _LIBRARY_KEYS}
    rep = replay_of(example_source(), v["cache_gb"], v["dismount_after_s"], **lib)
    return {
        "mean response [s]": rep.mean_response_s,
        "response at percentile [s]": rep.percentile(v["q"]),
        "mounts per hour [1/h]": rep.mounts_per_hour,
        "drive utilisation [-]": rep.drive_utilisation,
    }


def scenario_view(**values) -> View:
    """Every figure for one scenario, on the example log."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return compute(view_replay, {**v, "source": example_source()})


def source_html(source: LogSource) -> str:
    """One line naming the log shown."""
    what = " (synthetic, illustrative: not measured)" if source.example else ""
    return f"showing <b>{html.escape(source.name)}</b>{what}: {len(source.log):,} requests"
