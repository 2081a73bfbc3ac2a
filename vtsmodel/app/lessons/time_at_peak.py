"""Lesson 02: time at peak write vs cache size, and a day in the life of the cache.

Panel 1 answers the Fig. 10 question (ibm-vts-b18-2000): how long can the VTS write at its
peak rate before the fill threshold throttles it, for each TVC capacity and several data
compressibilities, and how big a cache does a burst need (this module). Panel 2 runs a
workload profile (a built-in or one edited in its table) through
:func:`vtsmodel.tvc_day.simulate_tvc` (:mod:`~vtsmodel.app.lessons.cache_day`). This module
holds the lesson's contract and the inputs its panels share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vtsmodel import b18, tvc, tvc_day
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, path_mark, point_mark
from vtsmodel.app.lessons import cache_day, scenario_values
from vtsmodel.app.lessons.cache_day import DAY, DayPanel
from vtsmodel.app.panels import Panel, Stage, View, merge_views
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


@dataclass(frozen=True, eq=False)
class TimeAtPeakResult:
    """Hours at peak at one CF: the curve over capacity, each Table 3 configuration, the cache a burst needs.

    Attributes
    ----------
    cf, feature, threshold, peak_copy_fraction, backlog_gb, burst_hours
        The inputs.
    axis, curve : numpy.ndarray
        Capacities drawn (:func:`tvc_axis`) [GB] and the hours at peak there [h].
    configs : tuple
        Table 3's configurations for the feature.
    hours : tuple of float
        Hours at peak of each configuration; infinite where copying keeps up. [h]
    need_gb : float
        The cache the burst needs; infinite beyond Table 3's largest. [GB]
    smallest_gb : float
        The smallest Table 3 configuration holding it (NaN for none). [GB]
    """

    cf: float
    feature: str
    threshold: float
    peak_copy_fraction: float
    backlog_gb: float
    burst_hours: float
    axis: np.ndarray
    curve: np.ndarray
    configs: tuple
    hours: tuple
    need_gb: float
    smallest_gb: float

    @property
    def model(self) -> dict:
        """The cache model's settings, as :mod:`vtsmodel.tvc` takes them."""
        return {"feature": self.feature, "threshold": self.threshold, "peak_copy_fraction": self.peak_copy_fraction,
                "backlog_gb": self.backlog_gb}  # fmt: skip


def evaluate_time_at_peak(cf=3.0, feature="paf", threshold=0.95, peak_copy_fraction=0.1, backlog_gb=0.0,
                          burst_hours=6.0) -> TimeAtPeakResult:  # fmt: skip
    """Panel 1: hours at peak at ``cf`` (ibm-vts-b18-2000, Fig. 10), each Table 3 configuration, the cache a burst needs."""
    kw = dict(
        feature=feature, threshold=threshold, peak_copy_fraction=peak_copy_fraction, backlog_gb=backlog_gb
    )
    axis = tvc_axis(feature)
    curve = np.asarray(tvc.hours_at_peak(axis, cf, **kw))
    configs = tuple(b18.configurations(feature))
    ch = tuple(float(tvc.hours_at_peak(c.tvc_gb, cf, tvc_config=c.id, **kw)) for c in configs)
    need = float(tvc.tvc_needed(burst_hours, cf, **kw)) if burst_hours <= _max_burst(cf, kw) else math.inf
    order = float(tvc.smallest_configuration(need, feature)) if math.isfinite(need) else math.nan
    return TimeAtPeakResult(float(cf), feature, float(threshold), float(peak_copy_fraction), float(backlog_gb),
                            float(burst_hours), axis, curve, configs, ch, need, order)  # fmt: skip


def view_time_at_peak(r: TimeAtPeakResult) -> View:
    """Panel 1: the bold curve at this CF, each Table 3 configuration marked, the cache a burst needs."""
    configs, ch, need, order = r.configs, r.hours, r.need_gb, r.smallest_gb
    shapes = [
        path_mark(r.axis, r.curve, color="black", name="the CF set above")
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
        binding = (f"The fill threshold ({r.threshold:.0%} of the usable cache) ends peak write; copying to tape "
                   f"during peak runs at {r.peak_copy_fraction:.0%} of the sustained copy rate.")  # fmt: skip
    return View(
        figures={"time_at_peak": Plot(peak_base, r.model, shapes=shapes, annotations=labels)},
        readouts=readouts, binding=binding, citations=(tvc.hours_at_peak, tvc.tvc_needed, "vts_tvc_configs"),
    )  # fmt: skip


#: Panel 1's stage.
TIME_AT_PEAK = Stage(evaluate_time_at_peak, view_time_at_peak)


def time_at_peak_panel(**values) -> Panel:
    """Panel 1: CF, feature, threshold, copy rate during peak, starting backlog, burst length."""
    names = ("feature", "cf", "threshold", "peak_copy_fraction", "backlog_gb", "burst_hours")
    return Panel({k: INPUTS[k] for k in names}, TIME_AT_PEAK, values=values,
                 title="Time at peak write vs TVC capacity", name="02_time_at_peak")  # fmt: skip


def day_panel(**values) -> DayPanel:
    """Panel 2: profile choice, editable table and the simulated day."""
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
    """The computed columns of one scenario: time at peak, the cache a burst needs, the day (the panels' evaluations)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    peak, day = TIME_AT_PEAK.result(v), DAY.result(v)
    kw = peak.model
    out = {
        "time at peak [h]": float(tvc.hours_at_peak(b18.configuration(v["tvc_config"]).tvc_gb, v["cf"],
                                                    tvc_config=v["tvc_config"], **kw)),
        "TVC needed for the burst [GB]": peak.need_gb,
        "smallest configuration [GB]": peak.smallest_gb,
    }  # fmt: skip
    out.update({f"day: {k}": float(x) for k, x in day.run.summary().items()})
    return out


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return merge_views(TIME_AT_PEAK.show(v), DAY.show(v))


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
