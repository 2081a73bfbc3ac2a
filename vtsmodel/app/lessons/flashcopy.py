"""Lesson 06, background copy: the FlashCopy copy as added disk load, calibrated between the stated bounds.

Host I/O response vs host rate with the copy off and on; the copy's share of capacity is
calibrated so that the response at the measured 163,000 IO/s lies between "more than doubled"
and "still less than 5 ms" (at a position that is a project assumption). The panel is
:func:`vtsmodel.app.lessons.disk_cache.copy_panel`. Source: ibm-ds8000-tpf, Performance with
FlashCopy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vtsmodel import Input
from vtsmodel import ds8000 as dc
from vtsmodel.app import cache
from vtsmodel.app.figures import (
    COLORS,
    Plot,
    alert_note,
    figure_json,
    line_mark,
    new_figure,
    off_scale_note,
    padded,
    point_mark,
    source_markers,
)
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number, percent
from vtsmodel.data import load

_FACTS = load("ds8000_facts")
INPUTS = {
    "host_io_per_s": Input("host I/O rate", "IO/s", 163000.0, lo=0.0, hi=250000.0, step=1000.0,
                           source="ibm-ds8000-tpf, Performance with FlashCopy (measured at 163K IO/s)",
                           help="Host I/O requests per second on the disk system."),
    "copy_on": Input("background copy running", "", True, help="Whether the FlashCopy background copy runs."),
    "utilisation_ref": Input("utilisation at 163,000 IO/s", "-", dc.COPY_UTILISATION_REF, lo=0.3, hi=0.97,
                             step=0.01, source="project assumption (the source: 'close to the maximum I/0 throughput')",
                             help="Disk-system utilisation at the measured 163,000 IO/s before the copy."),
    "target_position": Input("copy target position", "-", dc.COPY_TARGET_POSITION, lo=0.05, hi=0.95, step=0.05,
                             source="project assumption (the value was only in the lost Fig. 6)",
                             help="Where the response during the copy lies between 'more than doubled' (4 ms, 0) "
                             "and 'still less than 5 ms' (1): the copy load is calibrated to it."),
}  # fmt: skip
#: Top of the response axis. [ms]
Y_TOP_MS = 12.0
#: Points per curve.
CURVE_POINTS = 200
#: A response that has no steady state, as a readout says it.
SATURATED = "saturated (no steady state)"


def ms_text(x: float) -> str:
    """A response in ms, or :data:`SATURATED` where it is infinite."""
    return f"{number(x)} ms" if math.isfinite(x) else SATURATED


def copy_load(utilisation_ref: float, target_position: float) -> float:
    """The copy's share of capacity calibrated to the target at ``target_position``. [-]"""
    return float(dc.calibrate_copy_load(target_ms=dc.copy_response_target_ms(target_position),
                                        utilisation_ref=utilisation_ref))  # fmt: skip


def copy_base(utilisation_ref: float, copy_load: float) -> dict:
    """Host response vs host rate without and with a background copy taking ``copy_load``; the stated points at 163K IO/s."""
    c = copy_load
    x_max, ref = INPUTS["host_io_per_s"].hi, _FACTS.value("flashcopy_test_io_rate")
    fig = new_figure(title="Host I/O response with and without a background copy", xaxis_title="host I/O rate [IO/s]",
                     yaxis_title="host I/O response [ms]", height=400)  # fmt: skip
    for name, load_, color in (("no background copy", 0.0, COLORS[0]),
                               (f"background copy, {percent(c)} of capacity (calibrated)", c, COLORS[1])):  # fmt: skip
        sat = float(dc.copy_saturation_io_per_s(copy_load=load_, utilisation_ref=utilisation_ref))
        x = np.linspace(0.0, min(x_max, 0.99 * sat), CURVE_POINTS)
        fig.add_scatter(x=x, y=dc.background_copy_response_ms(x, copy_load=load_, utilisation_ref=utilisation_ref),
                        mode="lines", name=name, line={"color": color, "width": 3},
                        hovertemplate="%{x:,.0f} IO/s: %{y:.3g} ms<extra></extra>")  # fmt: skip
    before = _FACTS.value("flashcopy_response_before")
    lo, hi = before * _FACTS.value("flashcopy_response_factor_min"), _FACTS.value("flashcopy_response_max")
    fig.add_trace(source_markers([ref], [before], [_FACTS.provenance("flashcopy_response_before")],
                                 name="measured before the copy: 2 ms"))  # fmt: skip
    fig.add_trace(source_markers([ref, ref], [lo, hi], [_FACTS.provenance(r) for r in ("flashcopy_response_factor_min",
                                 "flashcopy_response_max")], name="during the copy: above 4 ms, below 5 ms",
                                 symbol="line-ew-open", color="#555", size=18))  # fmt: skip
    fig.add_shape(type="line", x0=ref, x1=ref, y0=lo, y1=hi, line={"color": "#555", "width": 2})
    fig.update_xaxes(range=padded(x_max), tickformat=",d")
    fig.update_yaxes(range=padded(Y_TOP_MS))
    fig.update_layout(
        legend={"x": 0.01, "y": 0.99, "xanchor": "left", "yanchor": "top", "font": {"size": 11}}
    )
    return figure_json(fig)


def copy_response(rate: float, copy_load: float, u: float) -> float:
    """Host response at ``rate`` with a copy taking ``copy_load`` of capacity; infinite where it saturates. [ms]"""
    if rate >= float(dc.copy_saturation_io_per_s(copy_load=copy_load, utilisation_ref=u)):
        return math.inf
    return float(dc.background_copy_response_ms(rate, copy_load=copy_load, utilisation_ref=u))


@dataclass(frozen=True)
class CopyResult:
    """The host response at one rate with the background copy off and on.

    Attributes
    ----------
    host_io_per_s, copy_on, utilisation_ref, target_position
        The inputs.
    copy_load : float
        The copy's share of capacity, calibrated to the target (:func:`copy_load`; kept per its inputs). [-]
    target_ms : float
        The calibration target at ``target_position`` between the stated bounds. [ms]
    off_ms, on_ms : float
        The host response without and with the copy; infinite where the system saturates. [ms]
    saturation_off, saturation_on : float
        The host rates at which the system saturates without and with the copy. [IO/s]
    quarter_ratio : float
        With the copy ÷ without it at a quarter of the rate (NaN where saturated). [-]
    """

    host_io_per_s: float
    copy_on: bool
    utilisation_ref: float
    target_position: float
    copy_load: float
    target_ms: float
    off_ms: float
    on_ms: float
    saturation_off: float
    saturation_on: float
    quarter_ratio: float

    @property
    def here_ms(self) -> float:
        """The response at this rate, the copy as set. [ms]"""
        return self.on_ms if self.copy_on else self.off_ms


def evaluate_copy(host_io_per_s=163000.0, copy_on=True, utilisation_ref=dc.COPY_UTILISATION_REF,
                  target_position=dc.COPY_TARGET_POSITION) -> CopyResult:  # fmt: skip
    """The background copy as added disk load (ibm-ds8000-tpf, Performance with FlashCopy), at this host rate."""
    c = cache.cached(
        copy_load, utilisation_ref=float(utilisation_ref), target_position=float(target_position)
    )
    u, rate = utilisation_ref, host_io_per_s
    r_off, r_on = copy_response(rate, 0.0, u), copy_response(rate, c, u)
    sat = [float(dc.copy_saturation_io_per_s(copy_load=x, utilisation_ref=u)) for x in (0.0, c)]
    quarter = (
        copy_response(rate / 4, c, u) / copy_response(rate / 4, 0.0, u) if math.isfinite(r_on) else math.nan
    )
    return CopyResult(float(rate), bool(copy_on), float(u), float(target_position), c,
                      float(dc.copy_response_target_ms(target_position)), r_off, r_on, sat[0], sat[1], quarter)  # fmt: skip


def view_copy(r: CopyResult) -> View:
    """The background-copy panel: the response at this rate with the copy off and on."""
    c, rate, here = r.copy_load, r.host_io_per_s, r.here_ms
    name = f"this rate, {'copy running' if r.copy_on else 'no copy'}"
    marks = [
        point_mark(rate, here, color=COLORS[3], name=name, y_range=(0.0, Y_TOP_MS)),
        line_mark(x=rate, color=COLORS[3]),
    ]
    notes = off_scale_note(rate, here, (0.0, Y_TOP_MS), f"{number(here)} ms: off the scale")
    if not math.isfinite(here):
        notes.append(alert_note(rate, "saturated", x_max=INPUTS["host_io_per_s"].hi))
        binding = "The disk system is saturated at this rate: lower the load or stop the copy."
    else:
        binding = (f"A copy taking {percent(c)} of the capacity multiplies the response by {number(r.on_ms / r.off_ms)} "
                   f"at this rate and by {number(r.quarter_ratio)} at a quarter of it: run copies when the I/O demand is modest.")  # fmt: skip
    readouts = {
        "calibration target (assumed position)": f"{number(r.target_ms)} ms",
        "copy load (calibrated)": f"{percent(c)} of capacity",
        "response, no copy": ms_text(r.off_ms),
        "response, copy running": ms_text(r.on_ms),
        "copy ÷ no copy": number(r.on_ms / r.off_ms) if math.isfinite(r.on_ms) else "n/a (saturated)",
        "saturation, no copy": f"{number(r.saturation_off)} IO/s",
        "saturation, copy running": f"{number(r.saturation_on)} IO/s",
    }
    args = {"utilisation_ref": r.utilisation_ref, "copy_load": c}
    return View(figures={"copy": Plot(copy_base, args, shapes=marks, annotations=notes)}, readouts=readouts,
                binding=binding, citations=("ds8000_facts", dc.background_copy_response_ms, dc.calibrate_copy_load))  # fmt: skip


#: The background-copy panel's stage.
COPY = Stage(evaluate_copy, view_copy)


def copy_numbers(position: float = dc.COPY_TARGET_POSITION) -> str:
    """The copy load calibrated to the target between the stated bounds, and its cost: labelled lines."""
    target = dc.copy_response_target_ms(position)
    c = dc.calibrate_copy_load(target_ms=target)
    rate = _FACTS.value("flashcopy_test_io_rate")
    lines = [f"calibration target at position {number(position)} between 4 and 5 ms (assumed): {number(target)} ms",
             f"copy load calibrated to it: {percent(c, 4)} of capacity"]  # fmt: skip
    for r in (rate, rate / 4):
        before, during = (copy_response(r, x, dc.COPY_UTILISATION_REF) for x in (0.0, c))
        lines.append(f"at {number(r, 5)} IO/s: {number(before)} ms without the copy, {number(during)} ms with it "
                     f"(× {number(during / before)})")  # fmt: skip
    return "\n".join(lines)
