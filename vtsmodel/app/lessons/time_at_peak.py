"""Lesson 02: time at peak write vs cache size, and a day in the life of the cache.

Panel 1 answers the Fig. 10 question (ibm-vts-b18-2000): how long can the VTS write at its
peak rate before the fill threshold throttles it, for each TVC capacity and several data
compressibilities, and how big a cache does a burst need (this module). Panel 2 runs a
workload profile (a built-in or one edited in its grid) through
:func:`vtsmodel.tvc_day.simulate_tvc` (:mod:`~vtsmodel.app.lessons.cache_day`). This module
holds the lesson's contract and the inputs its panels share.
"""

from __future__ import annotations

import math

import numpy as np

from vtsmodel import b18, tvc, tvc_day
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, path_mark, point_mark
from vtsmodel.app.lessons import cache_day, scenario_values
from vtsmodel.app.lessons.cache_day import DayPanel, view_day
from vtsmodel.app.panels import Panel, View, compute, merge_views
from vtsmodel.app.text import number

LESSON_ID = "02"
TITLE = "Time at peak write vs cache size, and a day in the life of the cache"
NOTEBOOK = "02_time_at_peak_vs_tvc.ipynb"

#: CF values drawn as the family of curves (Fig. 10 labels its curves by compressibility).
CURVE_CFS = (1.0, 2.0, 3.0, 4.0)
_AXIS_POINTS = 160

INPUTS = {
    "feature": b18.FEATURE,
    "cf": q.CF.but(hi=4.0, step=0.1),
    "tvc_config": b18.TVC_CONFIG.but(default="tvc_432_36gb_paf"),
    "threshold": q.THRESHOLD.but(lo=0.5, lo_open=False, step=0.01),
    "peak_copy_fraction": q.PEAK_COPY_FRACTION.but(hi=0.5, step=0.01),
    "backlog_gb": q.BACKLOG_GB.but(hi=400.0, step=10.0),
    "burst_hours": q.BURST_HOURS.but(lo=0.5, lo_open=False, hi=24.0, step=0.5),
    **cache_day.INPUTS,
}  # fmt: skip
SCENARIO = tuple(INPUTS)


def _hours(x: float) -> str:
    return "unlimited (copying keeps up)" if math.isinf(x) else f"{number(x)} h"


# --- panel 1: hours at peak vs TVC -----------------------------------------------------------


def tvc_axis(feature: str) -> np.ndarray:
    """Capacities drawn for ``feature``: Table 3's range for it (base and EHPO stop at 1152 GB). [GB]"""
    caps = [c.tvc_gb for c in b18.configurations(feature)]
    return np.geomspace(72.0, max(caps), _AXIS_POINTS)


def _config_label(c) -> str:
    return f"{c.tvc_gb:g} GB" + (f" ({c.hdd_gb:g} GB HDDs)" if c.hdd_gb != 36.0 else "")


def peak_base(feature: str, threshold: float, peak_copy_fraction: float, backlog_gb: float) -> dict:
    """Hours at peak vs TVC capacity, one thin curve per CF of :data:`CURVE_CFS`; the 864 GB change."""
    kw = dict(
        feature=feature, threshold=threshold, peak_copy_fraction=peak_copy_fraction, backlog_gb=backlog_gb
    )
    axis = tvc_axis(feature)
    grid = np.asarray(tvc.hours_at_peak(axis[None, :], np.array(CURVE_CFS)[:, None], **kw))
    fig = new_figure(title="Time at peak write vs TVC capacity", xaxis_title="TVC capacity [GB]",
                     yaxis_title="time at peak write [h]", height=420)  # fmt: skip
    for i, (c, h) in enumerate(zip(CURVE_CFS, grid, strict=True)):
        fig.add_scatter(x=axis, y=np.where(np.isfinite(h), h, np.nan), mode="lines", name=f"CF {c:g}",
                        line={"color": COLORS[i % len(COLORS)], "width": 1.6},
                        hovertemplate=f"CF {c:g}<br>%{{x:.0f}} GB: %{{y:.2f}} h<extra></extra>")  # fmt: skip
    knee = tvc.algorithm_change_gb()
    if axis[-1] > knee:
        fig.add_vline(x=knee, line={"dash": "dot", "color": "#888"})
        fig.add_annotation(x=math.log10(knee), y=1, yref="paper", showarrow=False, xanchor="right", yanchor="top",
                           text="cache algorithm changes above 864 GB (Fig. 10)", font={"size": 11, "color": "#555"})  # fmt: skip
    finite = grid[np.isfinite(grid)]
    ymax = float(max(finite.max() if finite.size else 1.0, 1.0)) * 1.25
    fig.update_xaxes(type="log", range=[math.log10(axis[0]) - 0.03, math.log10(axis[-1]) + 0.03])
    fig.update_yaxes(range=[0, ymax])
    fig.update_layout(legend={"x": 0.01, "y": 0.99, "xanchor": "left", "yanchor": "top"},
                      margin={"t": 50, "r": 20, "b": 60, "l": 70})  # fmt: skip
    return figure_json(fig)


def _max_burst(cf: float, kw: dict) -> float:
    """The longest burst Table 3's largest capacity for the feature rides (beyond it tvc_needed extrapolates)."""
    top = max(b18.configurations(kw["feature"]), key=lambda c: c.tvc_gb)
    return float(tvc.hours_at_peak(top.tvc_gb, cf, tvc_config=top.id, **kw))


def view_time_at_peak(cf=3.0, feature="paf", threshold=0.95, peak_copy_fraction=0.1, backlog_gb=0.0,
                      burst_hours=6.0) -> View:  # fmt: skip
    """Panel 1: hours at peak at ``cf`` (the bold curve), each Table 3 configuration, the cache a burst needs."""
    kw = dict(
        feature=feature, threshold=threshold, peak_copy_fraction=peak_copy_fraction, backlog_gb=backlog_gb
    )
    axis = tvc_axis(feature)
    curve = np.asarray(tvc.hours_at_peak(axis, cf, **kw))
    configs = b18.configurations(feature)
    ch = [float(tvc.hours_at_peak(c.tvc_gb, cf, tvc_config=c.id, **kw)) for c in configs]
    need = float(tvc.tvc_needed(burst_hours, cf, **kw)) if burst_hours <= _max_burst(cf, kw) else math.inf
    order = float(tvc.smallest_configuration(need, feature)) if math.isfinite(need) else math.nan
    shapes = [
        path_mark(axis, curve, color="black", name="the CF set above")
    ]  # a name that does not change: plotly keeps a shape's first legend text
    shapes += [point_mark(c.tvc_gb, h, color="black", size=12, name="Table 3 configurations" if i == 0 else "",
                          showlegend=i == 0) for i, (c, h) in enumerate(zip(configs, ch, strict=True))]  # fmt: skip
    labels = [{"x": math.log10(c.tvc_gb), "y": h if math.isfinite(h) else 0.0, "text": _config_label(c),
               "showarrow": False, "yshift": 12 if c.hdd_gb == 36.0 else -14, "font": {"size": 10},
               "visible": math.isfinite(h)} for c, h in zip(configs, ch, strict=True)]  # fmt: skip
    readouts = {f"time at peak, {_config_label(c)}": _hours(h) for c, h in zip(configs, ch, strict=True)}
    readouts["TVC needed for the burst"] = (
        f"{number(need)} GB" if math.isfinite(need) else "more than Table 3 offers"
    )
    readouts["smallest configuration (Table 3)"] = (
        f"{order:g} GB" if math.isfinite(order) else "none large enough"
    )
    if not any(math.isfinite(h) for h in ch):
        binding = "Copying to tape keeps up with the peak input: the cache never reaches its threshold."
    else:
        binding = (f"The fill threshold ({threshold:.0%} of the usable cache) ends peak write; copying to tape "
                   f"during peak runs at {peak_copy_fraction:.0%} of the sustained copy rate.")  # fmt: skip
    return View(
        figures={"time_at_peak": Plot(peak_base, kw, shapes=shapes, annotations=labels)},
        readouts=readouts, binding=binding, citations=(tvc.hours_at_peak, tvc.tvc_needed, "vts_tvc_configs"),
    )  # fmt: skip


def time_at_peak_panel(**values) -> Panel:
    """Panel 1: CF, feature, threshold, copy rate during peak, starting backlog, burst length."""
    names = ("feature", "cf", "threshold", "peak_copy_fraction", "backlog_gb", "burst_hours")
    return Panel({k: INPUTS[k] for k in names}, view_time_at_peak, values=values,
                 title="Time at peak write vs TVC capacity", name="02_time_at_peak")  # fmt: skip


def day_panel(**values) -> DayPanel:
    """Panel 2: profile choice, editable grid and the simulated day."""
    names = (
        "profile",
        "feature",
        "tvc_config",
        "cf",
        "threshold",
        "peak_copy_fraction",
        "read_hit",
        "backlog_gb",
    )
    return DayPanel({k: INPUTS[k] for k in names}, **values)


# --- the lesson contract and the notebook's numbers ---------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """The computed columns of one scenario: time at peak, the cache a burst needs, the day."""
    v = scenario_values(INPUTS, SCENARIO, values)
    kw = dict(feature=v["feature"], threshold=v["threshold"], peak_copy_fraction=v["peak_copy_fraction"],
              backlog_gb=v["backlog_gb"])  # fmt: skip
    need = (
        float(tvc.tvc_needed(v["burst_hours"], v["cf"], **kw))
        if v["burst_hours"] <= _max_burst(v["cf"], kw)
        else math.inf
    )
    run = tvc_day.simulate_tvc(
        v["profile"], tvc_config=v["tvc_config"], cf=v["cf"], read_hit=v["read_hit"], **kw
    )
    cap = b18.configuration(v["tvc_config"]).tvc_gb
    out = {
        "time at peak [h]": float(tvc.hours_at_peak(cap, v["cf"], tvc_config=v["tvc_config"], **kw)),
        "TVC needed for the burst [GB]": need,
        "smallest configuration [GB]": float(tvc.smallest_configuration(need, v["feature"])) if math.isfinite(need) else math.nan,
    }  # fmt: skip
    out.update({f"day: {k}": float(x) for k, x in run.summary().items()})
    return out


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario."""
    v = scenario_values(INPUTS, SCENARIO, values)
    a = compute(view_time_at_peak, {k: v[k] for k in ("cf", "feature", "threshold", "peak_copy_fraction",
                                                     "backlog_gb", "burst_hours")})  # fmt: skip
    b = compute(view_day, {k: v[k] for k in ("profile", "tvc_config", "cf", "feature", "threshold",
                                            "peak_copy_fraction", "read_hit", "backlog_gb")})  # fmt: skip
    return merge_views(a, b)


#: The vts_facts rows the notebook lists under "What the source says".
SOURCE_ROWS = tuple(("vts_facts", r) for r in ("fig4_unmigrated_at_start", "cache_algorithm_change_tvc",
                                               "fig10_effective_capacity", "peak_over_sustained_gain",
                                               "tvc_capacity_216", "tvc_capacity_1728"))  # fmt: skip


def key_numbers(feature: str = "paf", cf: float = 3.0, burst_hours: float = 6.0) -> str:
    """Hours at peak per Table 3 configuration, peak over sustained, the cache a burst needs: labelled lines.

    Peak over sustained is taken with the largest cache the feature is offered with: the
    paper's "about 60%" refers to Figs. 7 and 8 (1728 GB).
    """
    configs = b18.configurations(feature)
    lines = [f"time at peak, {_config_label(c)} TVC: "
             f"{number(tvc.hours_at_peak(c.tvc_gb, cf, feature=feature, tvc_config=c.id))} h" for c in configs]  # fmt: skip
    top = max(configs, key=lambda c: c.tvc_gb)
    run = tvc_day.simulate_tvc("steady day", tvc_config=top.id, cf=cf, feature=feature)
    need = float(tvc.tvc_needed(burst_hours, cf, feature=feature))
    lines += [
        f"peak {number(run.peak_mb_s)} MB/s, sustained {number(run.sustained_mb_s)} MB/s at {top.tvc_gb:g} GB: "
        f"{run.peak_mb_s / run.sustained_mb_s - 1:.0%} greater",
        f"TVC needed for a {burst_hours:g} h burst at CF {cf:g}: {number(need)} GB "
        f"(gives {number(float(tvc.hours_at_peak(need, cf, feature=feature)))} h at peak)",
        f"smallest Table 3 configuration holding it: {float(tvc.smallest_configuration(need, feature)):g} GB",
    ]
    return "\n".join(lines)
