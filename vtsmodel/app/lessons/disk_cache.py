"""Lesson 06: a disk cache under load, from the DS8000/TPF measurements (a disk system; no tape).

Three panels (ibm-ds8000-tpf): :func:`staging_panel` (read-miss response vs load for the
adaptive and the track stage, with the load calibrated to the measured 19 % marked; record,
track and adaptive staging vs spatial locality: this module), :func:`copy_panel` (host
response vs host rate with the FlashCopy background copy off and on, its load calibrated to a
response between the stated bounds: :mod:`~vtsmodel.app.lessons.flashcopy`) and
:func:`ride_panel` (blocks held during a pause in disk access against the shutdown threshold:
:mod:`~vtsmodel.app.lessons.ride_through`). This module holds the lesson's contract. Each
figure is a cached base (curves, cited points) and the marks its sliders move.
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
from vtsmodel.app.lessons import flashcopy, ride_through, scenario_values
from vtsmodel.app.lessons.flashcopy import COPY, ms_text
from vtsmodel.app.lessons.ride_through import RIDE
from vtsmodel.app.panels import Panel, Stage, View, merge_views
from vtsmodel.app.text import number, percent
from vtsmodel.data import load

LESSON_ID = "06"
TITLE = "A disk cache under load: staging, background copy, ride-through (DS8300, no tape)"
NOTEBOOK = "06_disk_cache_staging.ipynb"

_SRC = "ibm-ds8000-tpf"
_ASSUMED = "project assumption"
_FACTS = load("ds8000_facts")
_N = 200  # points per curve

INPUTS = {
    "io_per_s": Input("reads per HDD", "IO/s", 119.0, lo=0.0, hi=250.0, step=1.0, source=_ASSUMED,
                      help="Reads per second for one HDD's data that reuse of cached records does not serve: "
                      "each is a miss with the adaptive stage; track staging makes the spatially local ones hits."),
    "staged_kb": Input("adaptive stage", "KB", 21.0, lo=1.0, hi=56.0, step=1.0,
                       source=f"{_SRC}, Adaptive Record Caching (21 KB measured)",
                       help="Data staged per read miss with adaptive record caching."),
    "track_kb": Input("track stage", "KB", 57.0, lo=8.0, hi=128.0, step=1.0,
                      source=f"{_SRC}, Adaptive Record Caching (57 KB measured)",
                      help="Data staged per read miss with track caching."),
    "spatial_locality": Input("spatial locality", "-", 0.0, lo=0.0, hi=0.9, step=0.01,
                              source=f"{_ASSUMED} (TPF: 'poor spatial locality')",
                              help="Probability that a read not served by reuse is on the track of the read before it."),
    "temporal_hit": Input("hit ratio from reuse", "-", 0.0, lo=0.0, hi=0.95, step=0.05, source=_ASSUMED,
                          help="Share of all reads that reuse of cached records serves, whatever the staging."),
    "positioning_ms": Input("positioning time", "ms", dc.POSITIONING_MS, lo=0.5, hi=15.0, step=0.1,
                            source=f"{_ASSUMED} (the source gives no HDD timing)",
                            help="Mean seek plus rotational latency of a read miss."),
    "media_mb_s": Input("HDD media rate", "MB/s", dc.MEDIA_MB_S, lo=20.0, hi=400.0, step=5.0,
                        source=f"{_ASSUMED} (the source gives no HDD timing)",
                        help="Media transfer rate of one HDD while staging."),
    **flashcopy.INPUTS,
    **ride_through.INPUTS,
}  # fmt: skip
_STAGING = ("io_per_s", "staged_kb", "track_kb", "spatial_locality", "temporal_hit", "positioning_ms",
            "media_mb_s")  # fmt: skip
_COPY, _RIDE = tuple(flashcopy.INPUTS), tuple(ride_through.INPUTS)
SCENARIO = (*_STAGING, *_COPY, *_RIDE)

#: The ds8000_facts rows the notebook lists under "The measurements".
SOURCE_ROWS = tuple(("ds8000_facts", r) for r in (
    "staged_per_read_track", "staged_per_read_adaptive", "arc_hdd_read_response_reduction", "arc_read_hit_reduction",
    "flashcopy_test_io_rate", "flashcopy_response_before", "flashcopy_response_factor_min", "flashcopy_response_max",
    "shutdown_threshold", "error_handling_time_max", "io_delay_max"))  # fmt: skip


def _inputs(*names: str) -> dict:
    return {k: INPUTS[k] for k in names}


def _response(load_per_s: float, kb: float, disk: dict) -> float:
    """Mean read-miss response at ``load_per_s`` misses per second; infinite where the HDD saturates."""
    if float(dc.disk_utilisation(load_per_s, staged_kb=kb, **disk)) >= 1.0:
        return math.inf
    return float(dc.disk_response_ms(load_per_s, staged_kb=kb, **disk))


def staging_load(positioning_ms: float, media_mb_s: float) -> float:
    """The read-miss load calibrated to the measured 19 % (NaN where no load gives it). [IO/s]"""
    try:
        return float(dc.calibrate_staging_load(positioning_ms=positioning_ms, media_mb_s=media_mb_s))
    except ValueError:  # the gain is exceeded with no load
        return math.nan


def response_top(track_kb: float, positioning_ms: float, media_mb_s: float, lam: float) -> float:
    """The top of the response axis: 8 service times of the track stage, and above the pair calibrated at ``lam``. [ms]"""
    disk = {"positioning_ms": positioning_ms, "media_mb_s": media_mb_s}
    top = 8.0 * float(dc.disk_service_ms(track_kb, **disk))
    if lam <= INPUTS["io_per_s"].hi:
        top = max(
            top,
            1.15 * float(dc.disk_response_ms(lam, staged_kb=_FACTS.value("staged_per_read_track"), **disk)),
        )
    return top


# --- staging ------------------------------------------------------------------------------------


def response_base(
    staged_kb, track_kb, spatial_locality, positioning_ms, media_mb_s, calibrated_load, y_top
) -> dict:
    """Read-miss response vs load, adaptive and track stage, the gain on a right axis, the 19 % calibration.

    The axes are fixed: x over the load slider's range, y to ``y_top`` (:func:`response_top`);
    ``calibrated_load`` is :func:`staging_load`'s (the evaluation's: solved once per setting).
    """
    disk = {"positioning_ms": positioning_ms, "media_mb_s": media_mb_s}
    miss = {"adaptive": (staged_kb, 1.0), "track": (track_kb, 1.0 - spatial_locality)}
    x_max, lam = INPUTS["io_per_s"].hi, calibrated_load
    fig = new_figure(title="Read-miss response vs load: adaptive vs track staging",
                     xaxis_title="reads per HDD, not served by reuse [IO/s]", yaxis_title="read-miss response [ms]",
                     height=420)  # fmt: skip
    sat = {}
    for (name, (kb, share)), color in zip(miss.items(), COLORS, strict=False):
        sat[name] = 1e3 / (float(dc.disk_service_ms(kb, **disk)) * share)
        x = np.linspace(0.0, min(x_max, 0.995 * sat[name]), _N)
        fig.add_scatter(x=x, y=dc.disk_response_ms(x * share, staged_kb=kb, **disk), mode="lines",
                        name=f"{name} stage, {number(kb)} KB per miss", line={"color": color, "width": 3},
                        hovertemplate=f"{name}<br>%{{x:.4g}} IO/s: %{{y:.3g}} ms<extra></extra>")  # fmt: skip
    x = np.linspace(0.0, min(x_max, 0.995 * min(sat.values())), _N)
    gain = 1.0 - dc.disk_response_ms(x, staged_kb=staged_kb, **disk) / dc.disk_response_ms(
        x * miss["track"][1], staged_kb=track_kb, **disk
    )
    fig.add_scatter(x=x, y=100.0 * gain, mode="lines", yaxis="y2", name="gain of the adaptive stage (right axis)",
                    line={"color": COLORS[2], "dash": "dot", "width": 2},
                    hovertemplate="%{x:.4g} IO/s: gain %{y:.3g} %<extra></extra>")  # fmt: skip
    if lam <= x_max:  # the pair calibrated to the measured 19 %, 21 and 57 KB staged
        r = [float(dc.disk_response_ms(lam, staged_kb=_FACTS.value(k), **disk))
             for k in ("staged_per_read_adaptive", "staged_per_read_track")]  # fmt: skip
        fig.add_trace(source_markers([lam, lam], r, [_FACTS.provenance("arc_hdd_read_response_reduction")] * 2,
                                     name="calibrated to the measured 19 % (21 vs 57 KB)"))  # fmt: skip
        fig.add_shape(line_mark(x=lam, color="#444"))
    fig.update_xaxes(range=padded(x_max))
    fig.update_yaxes(range=padded(y_top))
    fig.update_layout(
        yaxis2={"title": {"text": "gain [%]"}, "overlaying": "y", "side": "right", "showgrid": False, "ticks": "outside",
                "range": padded(100.0, max(-100.0, 20.0 * math.floor(min(0.0, 5.0 * np.nanmin(gain))))),
                "tickmode": "linear", "dtick": 20},
        legend={"x": 0.01, "y": 0.99, "xanchor": "left", "yanchor": "top", "font": {"size": 11}},
        margin={"l": 70, "r": 60, "t": 20, "b": 60},
    )  # fmt: skip
    return figure_json(fig)


def modes_base(track_kb, temporal_hit, positioning_ms, media_mb_s) -> dict:
    """Record, track and adaptive staging vs spatial locality: hit ratio, KB per miss, HDD busy time per read."""
    p = np.linspace(0.0, INPUTS["spatial_locality"].hi, _N)
    disk = {"positioning_ms": positioning_ms, "media_mb_s": media_mb_s}
    m = dc.staging_modes(1.0, spatial_locality=p, temporal_hit=temporal_hit, track_kb=track_kb, **disk)
    fig = new_figure(title="Record, track and adaptive staging vs spatial locality", height=330)
    fig.set_subplots(1, 3, horizontal_spacing=0.1)
    style = {k: v for k, v in fig.layout.xaxis.to_plotly_json().items() if k not in ("anchor", "domain")}
    fig.update_xaxes(**style, range=padded(float(p[-1])), title_text="spatial locality [-]")
    fig.update_yaxes(**style, rangemode="tozero")
    fig.update_yaxes(range=padded(1.0), row=1, col=1)
    for col, title in enumerate(("hit ratio [-]", "staged per miss [KB]", "HDD busy per read [ms]"), start=1):
        fig.update_yaxes(title_text=title, title_standoff=2, row=1, col=col)
    look = {"record": (COLORS[0], "solid", 3), "track": (COLORS[1], "solid", 3), "adaptive": (COLORS[4], "dot", 2)}  # fmt: skip
    for mode in dc.STAGING_MODES:
        r = m[mode]
        busy = (1.0 - r["hit_ratio"]) * dc.disk_service_ms(r["staged_kb"], **disk)
        color, dash, width = look[mode]
        for col, y in enumerate((r["hit_ratio"], r["staged_kb"], busy), start=1):
            fig.add_scatter(x=p, y=y, mode="lines", name=mode, legendgroup=mode, showlegend=col == 1,
                            line={"color": color, "dash": dash, "width": width}, row=1, col=col)  # fmt: skip
    fig.update_layout(
        legend={"orientation": "h", "x": 0.0, "y": 1.02, "yanchor": "bottom"},
        title={"y": 0.98, "yref": "container", "yanchor": "top"},
        margin={"l": 60, "r": 20, "t": 80, "b": 60},
    )  # fmt: skip  (the title, then the legend)
    return figure_json(fig)


@dataclass(frozen=True)
class StagingResult:
    """Both stages at one read-miss load: responses, utilisations, and the load calibrated to the measured 19 %.

    Attributes
    ----------
    io_per_s, staged_kb, track_kb, spatial_locality, temporal_hit, positioning_ms, media_mb_s
        The inputs.
    adaptive_ms, track_ms : float
        The read-miss response with each stage; infinite where the HDD saturates. [ms]
    adaptive_util, track_util : float
        The HDD's utilisation with each stage. [-]
    track_service_ms : float
        One track stage's HDD service time. [ms]
    locality_star : float
        The spatial locality above which adaptive staging stages tracks. [-]
    calibrated_load : float
        The load calibrated to the measured 19 % (NaN where no load gives it; kept per HDD setting). [IO/s]
    calibrated_track_util : float
        The track stage's utilisation at that load (NaN without one). [-]
    y_top : float
        The response axis's top (:func:`response_top`). [ms]
    """

    io_per_s: float
    staged_kb: float
    track_kb: float
    spatial_locality: float
    temporal_hit: float
    positioning_ms: float
    media_mb_s: float
    adaptive_ms: float
    track_ms: float
    adaptive_util: float
    track_util: float
    track_service_ms: float
    locality_star: float
    calibrated_load: float
    calibrated_track_util: float
    y_top: float

    @property
    def disk(self) -> dict:
        """The HDD's timing, as the models take it."""
        return {"positioning_ms": self.positioning_ms, "media_mb_s": self.media_mb_s}


def evaluate_staging(io_per_s=119.0, staged_kb=21.0, track_kb=57.0, spatial_locality=0.0, temporal_hit=0.0,
                     positioning_ms=dc.POSITIONING_MS, media_mb_s=dc.MEDIA_MB_S) -> StagingResult:  # fmt: skip
    """Both stages at this load (ibm-ds8000-tpf, Adaptive Record Caching), the load calibrated to its 19 %."""
    if staged_kb >= track_kb:
        raise ValueError(f"staged_kb={staged_kb:g} must be smaller than track_kb={track_kb:g}")
    disk = {"positioning_ms": float(positioning_ms), "media_mb_s": float(media_mb_s)}
    lam, p = cache.cached(staging_load, **disk), spatial_locality
    track = _FACTS.value("staged_per_read_track")
    s_track = float(dc.disk_service_ms(track_kb, **disk))
    return StagingResult(
        float(io_per_s), float(staged_kb), float(track_kb), float(p), float(temporal_hit), **disk,
        adaptive_ms=_response(io_per_s, staged_kb, disk), track_ms=_response(io_per_s * (1 - p), track_kb, disk),
        adaptive_util=float(dc.disk_utilisation(io_per_s, staged_kb=staged_kb, **disk)),
        track_util=float(dc.disk_utilisation(io_per_s * (1 - p), staged_kb=track_kb, **disk)),
        track_service_ms=s_track, locality_star=1.0 - float(dc.disk_service_ms(dc.RECORD_KB, **disk)) / s_track,
        calibrated_load=lam,
        calibrated_track_util=math.nan if math.isnan(lam) else float(dc.disk_utilisation(lam, staged_kb=track, **disk)),
        y_top=response_top(track_kb, **disk, lam=lam),
    )  # fmt: skip


def view_staging(r: StagingResult) -> View:
    """The staging panel: response of both stages at this load, utilisations, the calibrated load."""
    disk, io_per_s, lam = r.disk, r.io_per_s, r.calibrated_load
    r_small, r_track = r.adaptive_ms, r.track_ms
    slow = {"staged_kb": r.staged_kb, "track_kb": r.track_kb, "spatial_locality": r.spatial_locality, **disk,
            "calibrated_load": lam, "y_top": r.y_top}  # fmt: skip
    shown = (0.0, r.y_top)
    marks = [point_mark(io_per_s, r_small, color=COLORS[0], name="this load, adaptive stage", y_range=shown),
             point_mark(io_per_s, r_track, color=COLORS[1], name="this load, track stage", showlegend=False, y_range=shown),
             line_mark(x=io_per_s, color=COLORS[3])]  # fmt: skip
    notes = [n for k, (what, x) in enumerate((("adaptive", r_small), ("track", r_track)))
             for n in off_scale_note(io_per_s, x, shown, f"{what} {number(x)} ms: off the scale", stack=k)]  # fmt: skip
    full = [n for n, x in (("adaptive stage", r_small), ("track stage", r_track)) if not math.isfinite(x)]
    notes += [alert_note(io_per_s, f"{' and '.join(full)} saturated", x_max=INPUTS["io_per_s"].hi)] * bool(
        full
    )
    if full:
        binding = f"The HDD saturates with the {' and the '.join(full)} at this load: the queue grows without bound."
    elif r_small <= r_track:
        binding = (f"Positioning dominates a miss ({number(r.positioning_ms)} ms against "
                   f"{number(r.track_service_ms - r.positioning_ms)} ms to transfer a track): the smaller stage wins by "
                   "a shorter HDD busy time, amplified by the queue.")  # fmt: skip
    else:
        binding = "Spatial locality makes track staging win: its extra hits outweigh its longer transfers."
    calibrated = {"load calibrated to the 19 %": "none (19 % exceeded at no load)",
                  "track utilisation at that load": "n/a"}  # fmt: skip
    if not math.isnan(lam):
        calibrated = {"load calibrated to the 19 %": f"{number(lam)} IO/s",
                      "track utilisation at that load": number(r.calibrated_track_util)}  # fmt: skip
    readouts = {
        "response, adaptive stage": ms_text(r_small),
        "response, track stage": ms_text(r_track),
        "gain of the adaptive stage": percent(1 - r_small / r_track) if not full else "n/a (saturated)",
        "utilisation, adaptive stage": number(r.adaptive_util),
        "utilisation, track stage": number(r.track_util),
        **calibrated,
        "adaptive stages tracks above": f"locality {number(r.locality_star)}",
    }
    modes = Plot(modes_base, {"track_kb": r.track_kb, "temporal_hit": r.temporal_hit, **disk},
                 shapes=[line_mark(x=r.spatial_locality, color=COLORS[3], xref=f"x{i}", yref=f"y{i}")
                         for i in ("", 2, 3)])  # fmt: skip
    return View(figures={"response": Plot(response_base, slow, shapes=marks, annotations=notes), "modes": modes},
                readouts=readouts, binding=binding,
                citations=("ds8000_facts", dc.disk_response_ms, dc.calibrate_staging_load, dc.staging_modes))  # fmt: skip


#: The staging panel's stage.
STAGING = Stage(evaluate_staging, view_staging)


# --- panels ------------------------------------------------------------------------------------


def staging_panel(**values) -> Panel:
    """Load, stage sizes, locality and the HDD: response vs load and the staging modes."""
    return Panel(_inputs(*_STAGING), STAGING, values=values, title="Staging size, locality and HDD response",
                 name="06_staging")  # fmt: skip


def copy_panel(**values) -> Panel:
    """Host rate, copy on or off, the utilisation reading and the calibration target's position."""
    return Panel(_inputs(*_COPY), COPY, values=values, title="Background copy as added disk load",
                 name="06_copy")  # fmt: skip


def ride_panel(**values) -> Panel:
    """Arrival rate, blocks, shutdown threshold and pause length."""
    return Panel(_inputs(*_RIDE), RIDE, values=values, title="Riding through a pause in disk access",
                 name="06_ride_through")  # fmt: skip


# --- the lesson contract ------------------------------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """The computed columns of one scenario: the staging, background-copy and ride-through panels' evaluations."""
    v = scenario_values(INPUTS, SCENARIO, values)
    st, cp, rd = (stage.result(v) for stage in (STAGING, COPY, RIDE))
    return {
        "response, adaptive stage [ms]": st.adaptive_ms,
        "response, track stage [ms]": st.track_ms,
        "load calibrated to the 19 % [IO/s]": st.calibrated_load,
        "copy load (calibrated) [-]": cp.copy_load,
        "host response [ms]": cp.here_ms,
        "ride-through [s]": rd.ride_s,
        "blocks needed for 6 s [-]": rd.need_for_measured,
    }


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return merge_views(*(stage.show(v) for stage in (STAGING, COPY, RIDE)))


# --- the numbers the notebook prints ------------------------------------------------------------

#: Loads at which the notebook prints the staging gain, besides the calibrated one. [IO/s]
GAIN_LOADS = (0.0, 60.0, 150.0)


def staging_numbers() -> str:
    """The load calibrated to the measured 19 % and the staging numbers there: labelled lines."""
    lam = dc.calibrate_staging_load()
    track, staged = _FACTS.value("staged_per_read_track"), _FACTS.value("staged_per_read_adaptive")
    loads = sorted((*GAIN_LOADS, lam))
    gains = dc.staging_gain(loads, staged_kb=staged, track_kb=track)
    return "\n".join([
        f"load calibrated to the measured 19 %: {number(lam, 4)} read misses per second per HDD",
        f"HDD utilisation there: {number(track)} KB stage {number(dc.disk_utilisation(lam, staged_kb=track))}, "
        f"{number(staged)} KB stage {number(dc.disk_utilisation(lam, staged_kb=staged))}",
        f"response there: {number(track)} KB stage {number(dc.disk_response_ms(lam, staged_kb=track))} ms, "
        f"{number(staged)} KB stage {number(dc.disk_response_ms(lam, staged_kb=staged))} ms",
        *(f"gain at {number(x, 4)} read misses/s: {percent(g)}" for x, g in zip(loads, gains, strict=True)),
    ])  # fmt: skip
