"""Lesson 06: the disk cache in front of the tape, from the DS8000/TPF measurements.

Three panels (ibm-ds8000-tpf): :func:`staging_panel` (read-miss response vs load for the
adaptive and the track stage, with the load calibrated to the measured 19 % marked; record,
track and adaptive staging vs spatial locality), :func:`copy_panel` (host response vs host
rate with the FlashCopy background copy off and on, its load calibrated to a response between
the stated bounds) and :func:`ride_panel` (blocks held during a pause in disk access against
the shutdown threshold). Each figure is a cached base (curves, cited points) and the marks
its sliders move.
"""

from __future__ import annotations

import math

import numpy as np

from vtsmodel import ds8000 as dc
from vtsmodel._inputs import Input
from vtsmodel._tables import load
from vtsmodel.app.figures import COLORS, Plot, base_spec, figure_json, new_figure, point_mark, source_markers
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View, compute
from vtsmodel.app.text import duration, number, percent

LESSON_ID = "06"
TITLE = "The disk cache in front of the tape: staging, background copy, ride-through"
NOTEBOOK = "06_disk_cache_staging.ipynb"

_SRC = "ibm-ds8000-tpf"
_ASSUMED = "project assumption"
_N = 200  # points per curve
_LEGEND_INSIDE = {"x": 0.01, "y": 0.99, "xanchor": "left", "yanchor": "top", "font": {"size": 11}}


def _v(row: str) -> float:
    return load("ds8000_facts").value(row)


def _p(row: str):
    return load("ds8000_facts").provenance(row)


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
    "host_io_per_s": Input("host I/O rate", "IO/s", 163000.0, lo=0.0, hi=250000.0, step=1000.0,
                           source=f"{_SRC}, Performance with FlashCopy (measured at 163K IO/s)",
                           help="Host I/O requests per second on the disk system."),
    "copy_on": Input("background copy running", "", True, help="Whether the FlashCopy background copy runs."),
    "utilisation_ref": Input("utilisation at 163,000 IO/s", "-", dc.COPY_UTILISATION_REF, lo=0.3, hi=0.97,
                             step=0.01, source=f"{_ASSUMED} (the source: 'close to the maximum I/0 throughput')",
                             help="Disk-system utilisation at the measured 163,000 IO/s before the copy."),
    "target_position": Input("copy target position", "-", dc.COPY_TARGET_POSITION, lo=0.05, hi=0.95, step=0.05,
                             source=f"{_ASSUMED} (the value was only in the lost Fig. 6)",
                             help="Where the response during the copy lies between 'more than doubled' (4 ms, 0) "
                             "and 'still less than 5 ms' (1): the copy load is calibrated to it."),
    "arrival_per_s": Input("transactions arriving", "1/s", 2000.0, lo=100.0, hi=10000.0, step=100.0,
                           source=_ASSUMED, help="Transactions per second arriving while disk access is paused."),
    "resources": Input("blocks available", "-", 20000, lo=1000, hi=100000, step=1000, integer=True,
                       source=_ASSUMED, help="Blocks (ECBs, frames) the arriving transactions hold during the pause."),
    "threshold": Input("shutdown threshold", "-", _v("shutdown_threshold"), lo=0.1, hi=1.0, step=0.05,
                       source=f"{_SRC}, Error Handling Behavior Performance (roughly 70 %)",
                       help="Share of the blocks at which shutdown starts."),
    "pause_s": Input("pause in disk access", "s", 6.0, lo=0.0, hi=20.0, step=0.5,
                     source=f"{_SRC}, Error Handling Behavior Performance (measured: never over 6 s)",
                     help="Failover, failback or warmstart delay."),
}  # fmt: skip
_STAGING = ("io_per_s", "staged_kb", "track_kb", "spatial_locality", "temporal_hit", "positioning_ms",
            "media_mb_s")  # fmt: skip
_COPY = ("host_io_per_s", "copy_on", "utilisation_ref", "target_position")
_RIDE = ("arrival_per_s", "resources", "threshold", "pause_s")
SCENARIO = (*_STAGING, *_COPY, *_RIDE)

#: The ds8000_facts rows the notebook lists under "The measurements".
SOURCE_ROWS = tuple(("ds8000_facts", r) for r in (
    "staged_per_read_track", "staged_per_read_adaptive", "arc_hdd_read_response_reduction", "arc_read_hit_reduction",
    "flashcopy_test_io_rate", "flashcopy_response_before", "flashcopy_response_factor_min", "flashcopy_response_max",
    "shutdown_threshold", "error_handling_time_max", "io_delay_max"))  # fmt: skip


def _inputs(*names: str) -> dict:
    return {k: INPUTS[k] for k in names}


def _ms(x: float) -> str:
    return f"{number(x)} ms" if math.isfinite(x) else "saturated (no steady state)"


def _response(load_per_s: float, kb: float, disk: dict) -> float:
    """Mean read-miss response at ``load_per_s`` misses per second; infinite where the HDD saturates."""
    if float(dc.disk_utilisation(load_per_s, staged_kb=kb, **disk)) >= 1.0:
        return math.inf
    return float(dc.disk_response_ms(load_per_s, staged_kb=kb, **disk))


def _mark(x, y, y_top, **kw) -> dict:
    """A point mark kept inside the plot: above ``y_top``, a triangle at the top edge; infinite, hidden."""
    above = math.isfinite(y) and y > y_top
    return point_mark(x, 0.97 * y_top if above else y, symbol="triangle" if above else "diamond", **kw)


def _vline(x, color="#777", dash="dot", xref="x", yref="y domain") -> dict:
    return {"type": "line", "x0": x, "x1": x, "y0": 0, "y1": 1, "xref": xref, "yref": yref,
            "line": {"color": color, "dash": dash, "width": 1}}  # fmt: skip


def _pad(hi: float, lo: float = 0.0) -> list[float]:
    """An axis range from ``lo`` to ``hi`` with 2 % to spare each side: a mark at either end stays whole."""
    return [lo - 0.02 * (hi - lo), hi + 0.02 * (hi - lo)]


def _saturated_note(x, x_max, text) -> dict:
    return {"x": x, "y": 0.55, "yref": "y domain", "text": text, "showarrow": False, "font": {"color": "#B00020"},
            "xanchor": "right" if x > x_max / 2 else "left"}  # fmt: skip


# --- staging ------------------------------------------------------------------------------------


def response_base(staged_kb, track_kb, spatial_locality, positioning_ms, media_mb_s) -> dict:
    """Read-miss response vs load, adaptive and track stage, the gain on a right axis, the 19 % calibration.

    The axes are fixed: x over the load slider's range, y to 8 service times of the track
    stage (and above the calibrated point). Beside the figure, ``"computed"`` holds the
    calibrated load and the top of the y axis for the view (the panel caches both with the
    base; a plot pane draws only ``data`` and ``layout``, and a ``layout.meta`` would make
    plotly redraw every trace on each move).
    """
    disk = {"positioning_ms": positioning_ms, "media_mb_s": media_mb_s}
    miss = {"adaptive": (staged_kb, 1.0), "track": (track_kb, 1.0 - spatial_locality)}
    x_max = INPUTS["io_per_s"].hi
    y_top = 8.0 * float(dc.disk_service_ms(track_kb, **disk))
    fig = new_figure(xaxis_title="reads per HDD, not served by reuse [IO/s]", yaxis_title="read-miss response [ms]",
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
    try:
        lam = dc.calibrate_staging_load(**disk)  # to the measured 19 %, with 21 and 57 KB staged
    except ValueError:
        lam = math.nan
    if lam <= x_max:
        r = [float(dc.disk_response_ms(lam, staged_kb=_v(k), **disk))
             for k in ("staged_per_read_adaptive", "staged_per_read_track")]  # fmt: skip
        y_top = max(y_top, 1.15 * r[1])
        fig.add_trace(source_markers([lam, lam], r, [_p("arc_hdd_read_response_reduction")] * 2,
                                     name="calibrated to the measured 19 % (21 vs 57 KB)"))  # fmt: skip
        fig.add_shape(_vline(lam, color="#444"))
    fig.update_xaxes(range=_pad(x_max))
    fig.update_yaxes(range=_pad(y_top))
    fig.update_layout(
        yaxis2={"title": {"text": "gain [%]"}, "overlaying": "y", "side": "right", "showgrid": False, "ticks": "outside",
                "range": _pad(100.0, max(-100.0, 20.0 * math.floor(min(0.0, 5.0 * np.nanmin(gain))))),
                "tickmode": "linear", "dtick": 20},
        legend=_LEGEND_INSIDE,
        margin={"l": 70, "r": 60, "t": 20, "b": 60},
    )  # fmt: skip
    return {**figure_json(fig), "computed": {"calibrated_io_per_s": lam, "y_top": y_top}}


def modes_base(track_kb, temporal_hit, positioning_ms, media_mb_s) -> dict:
    """Record, track and adaptive staging vs spatial locality: hit ratio, KB per miss, HDD busy time per read."""
    p = np.linspace(0.0, INPUTS["spatial_locality"].hi, _N)
    disk = {"positioning_ms": positioning_ms, "media_mb_s": media_mb_s}
    m = dc.staging_modes(1.0, spatial_locality=p, temporal_hit=temporal_hit, track_kb=track_kb, **disk)
    fig = new_figure(height=330)
    fig.set_subplots(1, 3, horizontal_spacing=0.1)
    style = {k: v for k, v in fig.layout.xaxis.to_plotly_json().items() if k not in ("anchor", "domain")}
    fig.update_xaxes(**style, range=_pad(float(p[-1])), title_text="spatial locality [-]")
    fig.update_yaxes(**style, rangemode="tozero")
    fig.update_yaxes(range=_pad(1.0), row=1, col=1)
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
    fig.update_layout(legend={"orientation": "h", "x": 0.0, "y": 1.02, "yanchor": "bottom"},
                      margin={"l": 60, "r": 20, "t": 40, "b": 60})  # fmt: skip
    return figure_json(fig)


def view_staging(io_per_s=119.0, staged_kb=21.0, track_kb=57.0, spatial_locality=0.0, temporal_hit=0.0,
                 positioning_ms=dc.POSITIONING_MS, media_mb_s=dc.MEDIA_MB_S) -> View:  # fmt: skip
    """The staging panel: response of both stages at this load, utilisations, the calibrated load."""
    if staged_kb >= track_kb:
        raise ValueError(f"staged_kb={staged_kb:g} must be smaller than track_kb={track_kb:g}")
    disk = {"positioning_ms": positioning_ms, "media_mb_s": media_mb_s}
    slow = {"staged_kb": staged_kb, "track_kb": track_kb, "spatial_locality": spatial_locality, **disk}
    response = Plot(response_base, slow)
    computed = base_spec(response)["computed"]  # the calibration, computed once with the base
    lam = computed["calibrated_io_per_s"] or math.nan  # JSON holds NaN as None
    y_top, p = computed["y_top"], spatial_locality
    r_small, r_track = _response(io_per_s, staged_kb, disk), _response(io_per_s * (1 - p), track_kb, disk)
    u_small = float(dc.disk_utilisation(io_per_s, staged_kb=staged_kb, **disk))
    u_track = float(dc.disk_utilisation(io_per_s * (1 - p), staged_kb=track_kb, **disk))
    s_track = float(dc.disk_service_ms(track_kb, **disk))
    p_star = 1.0 - float(dc.disk_service_ms(dc.RECORD_KB, **disk)) / s_track
    marks = [_mark(io_per_s, r_small, y_top, color=COLORS[0], name="this load, adaptive stage"),
             _mark(io_per_s, r_track, y_top, color=COLORS[1], name="this load, track stage", showlegend=False),
             _vline(io_per_s, color=COLORS[3])]  # fmt: skip
    full = [n for n, r in (("adaptive stage", r_small), ("track stage", r_track)) if not math.isfinite(r)]
    notes = [_saturated_note(io_per_s, INPUTS["io_per_s"].hi, f"{' and '.join(full)} saturated")] * bool(full)
    if full:
        binding = f"The HDD saturates with the {' and the '.join(full)} at this load: the queue grows without bound."
    elif r_small <= r_track:
        binding = (f"Positioning dominates a miss ({number(positioning_ms)} ms against {number(s_track - positioning_ms)} "
                   "ms to transfer a track): the smaller stage wins by a shorter HDD busy time, amplified by the queue.")  # fmt: skip
    else:
        binding = "Spatial locality makes track staging win: its extra hits outweigh its longer transfers."
    calibrated = {"load calibrated to the 19 %": "none (19 % exceeded at no load)",
                  "track utilisation at that load": "n/a"}  # fmt: skip
    if not math.isnan(lam):
        u = number(dc.disk_utilisation(lam, staged_kb=_v("staged_per_read_track"), **disk))
        calibrated = {"load calibrated to the 19 %": f"{number(lam)} IO/s", "track utilisation at that load": u}  # fmt: skip
    readouts = {
        "response, adaptive stage": _ms(r_small),
        "response, track stage": _ms(r_track),
        "gain of the adaptive stage": percent(1 - r_small / r_track) if not full else "n/a (saturated)",
        "utilisation, adaptive stage": number(u_small),
        "utilisation, track stage": number(u_track),
        **calibrated,
        "adaptive stages tracks above": f"locality {number(p_star)}",
    }
    modes = Plot(modes_base, {"track_kb": track_kb, "temporal_hit": temporal_hit, **disk},
                 shapes=[_vline(p, color=COLORS[3], xref=f"x{i}", yref=f"y{i} domain") for i in ("", 2, 3)])  # fmt: skip
    return View(figures={"response": Plot(response_base, slow, shapes=marks, annotations=notes), "modes": modes},
                readouts=readouts, binding=binding,
                citations=("ds8000_facts", dc.disk_response_ms, dc.calibrate_staging_load, dc.staging_modes))  # fmt: skip


def staging_panel(**values) -> Panel:
    """Load, stage sizes, locality and the HDD: response vs load and the staging modes."""
    return Panel(_inputs(*_STAGING), view_staging, values=values, title="Staging size, locality and HDD response",
                 name="06_staging")  # fmt: skip


# --- background copy ----------------------------------------------------------------------------

_COPY_Y_TOP = 12.0  # [ms]


def copy_base(utilisation_ref, target_position) -> dict:
    """Host response vs host rate without and with the background copy; the stated points at 163K IO/s."""
    target = dc.copy_response_target_ms(target_position)
    c = dc.calibrate_copy_load(target_ms=target, utilisation_ref=utilisation_ref)
    x_max, ref = INPUTS["host_io_per_s"].hi, _v("flashcopy_test_io_rate")
    fig = new_figure(xaxis_title="host I/O rate [IO/s]", yaxis_title="host I/O response [ms]", height=400)
    for name, load_, color in (("no background copy", 0.0, COLORS[0]),
                               (f"background copy, {percent(c)} of capacity (calibrated)", c, COLORS[1])):  # fmt: skip
        sat = float(dc.copy_saturation_io_per_s(copy_load=load_, utilisation_ref=utilisation_ref))
        x = np.linspace(0.0, min(x_max, 0.99 * sat), _N)
        fig.add_scatter(x=x, y=dc.background_copy_response_ms(x, copy_load=load_, utilisation_ref=utilisation_ref),
                        mode="lines", name=name, line={"color": color, "width": 3},
                        hovertemplate="%{x:,.0f} IO/s: %{y:.3g} ms<extra></extra>")  # fmt: skip
    before = _v("flashcopy_response_before")
    lo, hi = before * _v("flashcopy_response_factor_min"), _v("flashcopy_response_max")
    name = "measured before the copy: 2 ms"
    fig.add_trace(source_markers([ref], [before], [_p("flashcopy_response_before")], name=name))
    fig.add_trace(source_markers([ref, ref], [lo, hi], [_p("flashcopy_response_factor_min"), _p("flashcopy_response_max")],
                                 name="during the copy: above 4 ms, below 5 ms", symbol="line-ew-open", color="#555",
                                 size=18))  # fmt: skip
    fig.add_shape(type="line", x0=ref, x1=ref, y0=lo, y1=hi, line={"color": "#555", "width": 2})
    fig.update_xaxes(range=_pad(x_max), tickformat=",d")
    fig.update_yaxes(range=_pad(_COPY_Y_TOP))
    fig.update_layout(legend=_LEGEND_INSIDE)
    return {**figure_json(fig), "computed": {"copy_load": c, "target_ms": target}}


def _copy_response(rate: float, copy_load: float, u: float) -> float:
    if rate >= float(dc.copy_saturation_io_per_s(copy_load=copy_load, utilisation_ref=u)):
        return math.inf
    return float(dc.background_copy_response_ms(rate, copy_load=copy_load, utilisation_ref=u))


def view_copy(host_io_per_s=163000.0, copy_on=True, utilisation_ref=dc.COPY_UTILISATION_REF,
              target_position=dc.COPY_TARGET_POSITION) -> View:  # fmt: skip
    """The background-copy panel: the response at this rate with the copy off and on."""
    plot = Plot(copy_base, {"utilisation_ref": utilisation_ref, "target_position": target_position})
    computed = base_spec(plot)["computed"]  # the calibration, computed once with the base
    c, u, rate = computed["copy_load"], utilisation_ref, host_io_per_s
    r_off, r_on = _copy_response(rate, 0.0, u), _copy_response(rate, c, u)
    here = r_on if copy_on else r_off
    sat = [float(dc.copy_saturation_io_per_s(copy_load=x, utilisation_ref=u)) for x in (0.0, c)]
    name = f"this rate, {'copy running' if copy_on else 'no copy'}"
    mark = _mark(rate, here, _COPY_Y_TOP, color=COLORS[3], name=name)
    notes = [] if math.isfinite(here) else [_saturated_note(rate, INPUTS["host_io_per_s"].hi, "saturated")]
    if not math.isfinite(here):
        binding = "The disk system is saturated at this rate: lower the load or stop the copy."
    else:
        quarter = _copy_response(rate / 4, c, u) / _copy_response(rate / 4, 0.0, u)
        binding = (f"A copy taking {percent(c)} of the capacity multiplies the response by {number(r_on / r_off)} "
                   f"at this rate and by {number(quarter)} at a quarter of it: run copies when the I/O demand is modest.")  # fmt: skip
    readouts = {
        "calibration target (assumed position)": f"{number(computed['target_ms'])} ms",
        "copy load (calibrated)": f"{percent(c)} of capacity",
        "response, no copy": _ms(r_off),
        "response, copy running": _ms(r_on),
        "copy ÷ no copy": number(r_on / r_off) if math.isfinite(r_on) else "n/a (saturated)",
        "saturation, no copy": f"{number(sat[0])} IO/s",
        "saturation, copy running": f"{number(sat[1])} IO/s",
    }
    return View(figures={"copy": Plot(copy_base, plot.args, shapes=[mark, _vline(rate, color=COLORS[3])], annotations=notes)},
                readouts=readouts, binding=binding,
                citations=("ds8000_facts", dc.background_copy_response_ms, dc.calibrate_copy_load))  # fmt: skip


def copy_panel(**values) -> Panel:
    """Host rate, copy on or off, the utilisation reading and the calibration target's position."""
    return Panel(_inputs(*_COPY), view_copy, values=values, title="Background copy as added disk load",
                 name="06_copy")  # fmt: skip


# --- ride-through -------------------------------------------------------------------------------


def ride_base(arrival_per_s, resources, threshold) -> dict:
    """Blocks held vs pause length, the shutdown level, all blocks, the measured six seconds."""
    t_max, six = INPUTS["pause_s"].hi, _v("error_handling_time_max")
    full = min(resources / arrival_per_s, t_max)
    ride = float(dc.ride_through_s(arrival_per_s, resources, threshold=threshold))
    fig = new_figure(xaxis_title="pause in disk access [s]", yaxis_title="blocks held [-]", height=400)
    fig.add_scatter(x=[0.0, full, t_max], y=[0.0, arrival_per_s * full, min(arrival_per_s * t_max, resources)],
                    mode="lines", name="blocks held = arrivals × pause (at most all)", line={"color": COLORS[0], "width": 3})  # fmt: skip
    fig.add_scatter(x=[0.0, t_max], y=[threshold * resources] * 2, mode="lines", name=f"shutdown at {percent(threshold)}",
                    line={"color": COLORS[1], "dash": "dash", "width": 2})  # fmt: skip
    fig.add_scatter(x=[0.0, t_max], y=[resources] * 2, mode="lines", name=f"all {number(resources)} blocks",
                    line={"color": "#888", "dash": "dot", "width": 2})  # fmt: skip
    fig.add_trace(source_markers([six], [min(arrival_per_s * six, resources)], [_p("error_handling_time_max")],
                                 name="measured pauses: never over 6 s"))  # fmt: skip
    if ride <= t_max:
        fig.add_scatter(x=[ride], y=[threshold * resources], mode="markers", name=f"ride-through {duration(ride)}",
                        marker={"color": COLORS[2], "size": 13, "symbol": "square"})  # fmt: skip
    fig.add_shape(_vline(six, color="black"))
    fig.update_xaxes(range=_pad(t_max))
    fig.update_yaxes(range=_pad(1.1 * resources), tickformat=",d")
    fig.update_layout(legend={"orientation": "h", "x": 0.0, "y": 1.02, "yanchor": "bottom", "font": {"size": 11}},
                      margin={"l": 80, "r": 20, "t": 70, "b": 60})  # fmt: skip
    return figure_json(fig)


def view_ride(arrival_per_s=2000.0, resources=20000, threshold=0.7, pause_s=6.0) -> View:
    """The ride-through panel: the longest pause survived, the blocks a six-second pause needs."""
    a, n, th = arrival_per_s, resources, threshold
    ride = float(dc.ride_through_s(a, n, threshold=th))
    six = _v("error_handling_time_max")
    need = math.ceil(float(dc.resources_for_pause(a, six, threshold=th)) - 1e-9)
    held = min(a * pause_s, n)
    readouts = {
        "ride-through (before shutdown)": duration(ride),
        "blocks held at this pause": f"{number(held)} ({percent(held / n)})",
        "blocks needed for 6 s": f"{need:,d}",
        "survives this pause": "yes" if pause_s <= ride else "no: shutdown",
        "survives the measured 6 s": "yes" if six <= ride else "no: shutdown",
    }
    binding = (f"Blocks × threshold ÷ arrival rate: {number(n)} × {number(th)} ÷ {number(a)}/s = {duration(ride)}, "
               "the same buffer-over-rate balance as time at peak in lesson 02.")  # fmt: skip
    mark = point_mark(pause_s, held, color=COLORS[3] if pause_s <= ride else "#B00020", name="this pause")
    return View(figures={"ride": Plot(ride_base, {"arrival_per_s": a, "resources": n, "threshold": th}, shapes=[mark])},
                readouts=readouts, binding=binding, citations=("ds8000_facts", dc.ride_through_s))  # fmt: skip


def ride_panel(**values) -> Panel:
    """Arrival rate, blocks, shutdown threshold and pause length."""
    return Panel(_inputs(*_RIDE), view_ride, values=values, title="Riding through a pause in disk access",
                 name="06_ride_through")  # fmt: skip


# --- the lesson contract ------------------------------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """The computed columns of one scenario: staging, background copy and ride-through."""
    v = scenario_values(INPUTS, SCENARIO, values)
    if v["staged_kb"] >= v["track_kb"]:
        raise ValueError(f"staged_kb={v['staged_kb']:g} must be smaller than track_kb={v['track_kb']:g}")
    disk = {"positioning_ms": v["positioning_ms"], "media_mb_s": v["media_mb_s"]}
    try:
        lam = dc.calibrate_staging_load(**disk)
    except ValueError:
        lam = math.nan
    c = dc.calibrate_copy_load(target_ms=dc.copy_response_target_ms(v["target_position"]),
                               utilisation_ref=v["utilisation_ref"])  # fmt: skip
    return {
        "response, adaptive stage [ms]": _response(v["io_per_s"], v["staged_kb"], disk),
        "response, track stage [ms]": _response(v["io_per_s"] * (1 - v["spatial_locality"]), v["track_kb"], disk),
        "load calibrated to the 19 % [IO/s]": lam,
        "copy load (calibrated) [-]": c,
        "host response [ms]": _copy_response(v["host_io_per_s"], c if v["copy_on"] else 0.0, v["utilisation_ref"]),
        "ride-through [s]": float(dc.ride_through_s(v["arrival_per_s"], v["resources"], threshold=v["threshold"])),
        "blocks needed for 6 s [-]": float(dc.resources_for_pause(
            v["arrival_per_s"], _v("error_handling_time_max"), threshold=v["threshold"])),
    }  # fmt: skip


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario."""
    v = scenario_values(INPUTS, SCENARIO, values)
    views = [compute(f, {k: v[k] for k in keys}) for f, keys in
             ((view_staging, _STAGING), (view_copy, _COPY), (view_ride, _RIDE))]  # fmt: skip
    return View(
        figures={k: f for view in views for k, f in view.figures.items()},
        readouts={k: r for view in views for k, r in view.readouts.items()},
        binding=" ".join(view.binding for view in views),
        notes=tuple(dict.fromkeys(n for view in views for n in view.notes)),
        citations=tuple(dict.fromkeys(c for view in views for c in view.citations)),
    )


# --- the numbers the notebook prints ------------------------------------------------------------

#: Loads at which the notebook prints the staging gain, besides the calibrated one. [IO/s]
GAIN_LOADS = (0.0, 60.0, 150.0)


def staging_numbers() -> str:
    """The load calibrated to the measured 19 % and the staging numbers there: labelled lines."""
    lam = dc.calibrate_staging_load()
    track, staged = _v("staged_per_read_track"), _v("staged_per_read_adaptive")
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


def copy_numbers(position: float = dc.COPY_TARGET_POSITION) -> str:
    """The copy load calibrated to the target between the stated bounds, and its cost: labelled lines."""
    target = dc.copy_response_target_ms(position)
    c = dc.calibrate_copy_load(target_ms=target)
    rate = _v("flashcopy_test_io_rate")
    lines = [f"calibration target at position {number(position)} between 4 and 5 ms (assumed): {number(target)} ms",
             f"copy load calibrated to it: {percent(c, 4)} of capacity"]  # fmt: skip
    for r in (rate, rate / 4):
        before, during = (_copy_response(r, x, dc.COPY_UTILISATION_REF) for x in (0.0, c))
        lines.append(f"at {number(r, 5)} IO/s: {number(before)} ms without the copy, {number(during)} ms with it "
                     f"(× {number(during / before)})")  # fmt: skip
    return "\n".join(lines)


def ride_numbers(arrival_per_s: float = 2000.0, resources: int = 20000) -> str:
    """A configuration's ride-through and the blocks the measured six seconds need: labelled lines."""
    six = _v("error_handling_time_max")
    need = float(dc.resources_for_pause(arrival_per_s, six))
    return "\n".join([
        f"{number(arrival_per_s)} transactions/s with {number(resources)} blocks: ride-through "
        f"{number(dc.ride_through_s(arrival_per_s, resources))} s",
        f"blocks needed for the measured {number(six)} s: {math.ceil(need - 1e-9):,d}",
    ])  # fmt: skip
