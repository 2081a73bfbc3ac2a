"""Lesson 06, ride-through: the blocks transactions hold during a pause in disk access, against shutdown.

Blocks held = arrivals × pause, at most all of them; shutdown starts at a share of the
blocks (the source: roughly 70 %), and the measured pauses never exceeded six seconds. The
panel is :func:`vtsmodel.app.lessons.disk_cache.ride_panel`. Source: ibm-ds8000-tpf, Error
Handling Behavior Performance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vtsmodel import Input
from vtsmodel import ds8000 as dc
from vtsmodel.app.figures import (
    COLORS,
    Plot,
    figure_json,
    line_mark,
    new_figure,
    padded,
    point_mark,
    source_markers,
)
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import duration, number, percent
from vtsmodel.data import load

_FACTS = load("ds8000_facts")
INPUTS = {
    "arrival_per_s": Input("transactions arriving", "1/s", 2000.0, lo=100.0, hi=10000.0, step=100.0,
                           source="project assumption", help="Transactions per second arriving while disk access is paused."),
    "resources": Input("blocks available", "-", 20000, lo=1000, hi=100000, step=1000, integer=True,
                       source="project assumption", help="Blocks (ECBs, frames) the arriving transactions hold during the pause."),
    "threshold": Input("shutdown threshold", "-", _FACTS.value("shutdown_threshold"), lo=0.1, hi=1.0, step=0.05,
                       source="ibm-ds8000-tpf, Error Handling Behavior Performance (roughly 70 %)",
                       help="Share of the blocks at which shutdown starts."),
    "pause_s": Input("pause in disk access", "s", 6.0, lo=0.0, hi=20.0, step=0.5,
                     source="ibm-ds8000-tpf, Error Handling Behavior Performance (measured: never over 6 s)",
                     help="Failover, failback or warmstart delay."),
}  # fmt: skip


def ride_base(arrival_per_s, resources, threshold) -> dict:
    """Blocks held vs pause length, the shutdown level, all blocks, the measured six seconds."""
    t_max, six = INPUTS["pause_s"].hi, _FACTS.value("error_handling_time_max")
    full = min(resources / arrival_per_s, t_max)
    ride = float(dc.ride_through_s(arrival_per_s, resources, threshold=threshold))
    fig = new_figure(title="Blocks held during a pause in disk access", xaxis_title="pause in disk access [s]",
                     yaxis_title="blocks held [-]", height=400)  # fmt: skip
    fig.add_scatter(x=[0.0, full, t_max], y=[0.0, arrival_per_s * full, min(arrival_per_s * t_max, resources)],
                    mode="lines", name="blocks held = arrivals × pause (at most all)", line={"color": COLORS[0], "width": 3})  # fmt: skip
    fig.add_scatter(x=[0.0, t_max], y=[threshold * resources] * 2, mode="lines", name=f"shutdown at {percent(threshold)}",
                    line={"color": COLORS[1], "dash": "dash", "width": 2})  # fmt: skip
    fig.add_scatter(x=[0.0, t_max], y=[resources] * 2, mode="lines", name=f"all {number(resources)} blocks",
                    line={"color": "#888", "dash": "dot", "width": 2})  # fmt: skip
    fig.add_trace(source_markers([six], [min(arrival_per_s * six, resources)], [_FACTS.provenance("error_handling_time_max")],
                                 name="measured pauses: never over 6 s"))  # fmt: skip
    if ride <= t_max:
        fig.add_scatter(x=[ride], y=[threshold * resources], mode="markers", name=f"ride-through {duration(ride)}",
                        marker={"color": COLORS[2], "size": 13, "symbol": "square"})  # fmt: skip
    fig.add_shape(line_mark(x=six, color="black"))
    fig.update_xaxes(range=padded(t_max))
    fig.update_yaxes(range=padded(1.1 * resources), tickformat=",d")
    fig.update_layout(legend={"orientation": "h", "x": 0.0, "y": 1.02, "yanchor": "bottom", "font": {"size": 11}},
                      margin={"l": 80, "r": 20, "t": 70, "b": 60})  # fmt: skip
    return figure_json(fig)


@dataclass(frozen=True)
class RideResult:
    """A pause in disk access against the blocks transactions hold.

    Attributes
    ----------
    arrival_per_s, resources, threshold, pause_s
        The inputs.
    ride_s : float
        The longest pause survived before shutdown starts. [s]
    held : float
        Blocks held at ``pause_s`` (at most all). [-]
    need_for_measured : float
        Blocks the measured six seconds need (a fraction: a page rounds it up). [-]
    """

    arrival_per_s: float
    resources: int
    threshold: float
    pause_s: float
    ride_s: float
    held: float
    need_for_measured: float


def evaluate_ride(arrival_per_s=2000.0, resources=20000, threshold=0.7, pause_s=6.0) -> RideResult:
    """The longest pause survived and the blocks a six-second pause needs (ibm-ds8000-tpf, Error Handling)."""
    ride = float(dc.ride_through_s(arrival_per_s, resources, threshold=threshold))
    six = _FACTS.value("error_handling_time_max")
    need = float(dc.resources_for_pause(arrival_per_s, six, threshold=threshold))
    return RideResult(float(arrival_per_s), int(resources), float(threshold), float(pause_s), ride,
                      min(arrival_per_s * pause_s, resources), need)  # fmt: skip


def view_ride(r: RideResult) -> View:
    """The ride-through panel: the pause on the blocks-held line, whether it and the measured six seconds are survived."""
    a, n, th, ride = r.arrival_per_s, r.resources, r.threshold, r.ride_s
    six = _FACTS.value("error_handling_time_max")
    readouts = {
        "ride-through (before shutdown)": duration(ride),
        "blocks held at this pause": f"{number(r.held)} ({percent(r.held / n)})",
        "blocks needed for 6 s": f"{math.ceil(r.need_for_measured - 1e-9):,d}",
        "survives this pause": "yes" if r.pause_s <= ride else "no: shutdown",
        "survives the measured 6 s": "yes" if six <= ride else "no: shutdown",
    }
    binding = (f"Blocks × threshold ÷ arrival rate: {number(n)} × {number(th)} ÷ {number(a)}/s = {duration(ride)}, "
               "the same buffer-over-rate balance as time at peak in lesson 02.")  # fmt: skip
    mark = point_mark(
        r.pause_s, r.held, color=COLORS[3] if r.pause_s <= ride else "#B00020", name="this pause"
    )
    return View(figures={"ride": Plot(ride_base, {"arrival_per_s": a, "resources": n, "threshold": th}, shapes=[mark])},
                readouts=readouts, binding=binding, citations=("ds8000_facts", dc.ride_through_s))  # fmt: skip


#: The ride-through panel's stage.
RIDE = Stage(evaluate_ride, view_ride)


def ride_numbers(arrival_per_s: float = 2000.0, resources: int = 20000) -> str:
    """A configuration's ride-through and the blocks the measured six seconds need: labelled lines."""
    six = _FACTS.value("error_handling_time_max")
    need = float(dc.resources_for_pause(arrival_per_s, six))
    return "\n".join([
        f"{number(arrival_per_s)} transactions/s with {number(resources)} blocks: ride-through "
        f"{number(dc.ride_through_s(arrival_per_s, resources))} s",
        f"blocks needed for the measured {number(six)} s: {math.ceil(need - 1e-9):,d}",
    ])  # fmt: skip
