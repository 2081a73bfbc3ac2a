"""Lesson 02: time at peak write vs cache size, and a day in the life of the cache.

Panel 1 answers the Fig. 10 question (ibm-vts-b18-2000): how long can the VTS write at its
peak rate before the fill threshold throttles it, for each TVC capacity and several data
compressibilities, and how big a cache does a burst need. Panel 2 runs a workload profile
(a built-in or one edited in its grid) through :func:`vtsmodel.tvc_day.simulate_tvc`.
"""

from __future__ import annotations

import functools
import math

import ipywidgets as w
import numpy as np

from vtsmodel import quantities as q
from vtsmodel import tvc, tvc_day, workload
from vtsmodel._inputs import Input
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, path_mark, point_mark
from vtsmodel.app.grids import Column, GridEditor
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View, compute
from vtsmodel.app.text import number

LESSON_ID = "02"
TITLE = "Time at peak write vs cache size, and a day in the life of the cache"
NOTEBOOK = "02_time_at_peak_vs_tvc.ipynb"

#: CF values drawn as the family of curves (Fig. 10 labels its curves by compressibility).
CURVE_CFS = (1.0, 2.0, 3.0, 4.0)
_AXIS_POINTS = 160

INPUTS = {
    "feature": q.FEATURE,
    "cf": q.CF.but(hi=4.0, step=0.1),
    "tvc_config": q.TVC_CONFIG.but(default="tvc_432_36gb_paf"),
    "threshold": q.THRESHOLD.but(lo=0.5, lo_open=False, step=0.01),
    "peak_copy_fraction": q.PEAK_COPY_FRACTION.but(hi=0.5, step=0.01),
    "backlog_gb": q.BACKLOG_GB.but(hi=400.0, step=10.0),
    "burst_hours": q.BURST_HOURS.but(lo=0.5, lo_open=False, hi=24.0, step=0.5),
    "profile": Input("profile", "", "nightly batch window", choices=tuple(workload.PROFILES),
                     help="A built-in illustrative workload (not source data); edit it in the grid."),
    "read_hit": q.READ_HIT.but(step=0.05),
}  # fmt: skip
SCENARIO = tuple(INPUTS)
#: The columns of the profile grid: interval start, host write and read rates.
PROFILE_INPUTS = {
    "start_hours": Input("start", "h", 0.0, lo=0.0, help="Start of the interval."),
    "write_mb_s": Input("write", "MB/s", 0.0, lo=0.0, help="Host write rate offered in the interval."),
    "read_mb_s": Input("read", "MB/s", 0.0, lo=0.0, help="Host read rate in the interval."),
}


def _hours(x: float) -> str:
    return "unlimited (copying keeps up)" if math.isinf(x) else f"{number(x)} h"


# --- panel 1: hours at peak vs TVC -----------------------------------------------------------


def tvc_axis(feature: str) -> np.ndarray:
    """Capacities drawn for ``feature``: Table 3's range for it (base and EHPO stop at 1152 GB). [GB]"""
    caps = [c.tvc_gb for c in tvc.configurations(feature)]
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
    top = max(tvc.configurations(kw["feature"]), key=lambda c: c.tvc_gb)
    return float(tvc.hours_at_peak(top.tvc_gb, cf, tvc_config=top.id, **kw))


def view_time_at_peak(cf=3.0, feature="paf", threshold=0.95, peak_copy_fraction=0.1, backlog_gb=0.0,
                      burst_hours=6.0) -> View:  # fmt: skip
    """Panel 1: hours at peak at ``cf`` (the bold curve), each Table 3 configuration, the cache a burst needs."""
    kw = dict(
        feature=feature, threshold=threshold, peak_copy_fraction=peak_copy_fraction, backlog_gb=backlog_gb
    )
    axis = tvc_axis(feature)
    curve = np.asarray(tvc.hours_at_peak(axis, cf, **kw))
    configs = tvc.configurations(feature)
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


# --- panel 2: a day in the life of the cache ---------------------------------------------------


@functools.lru_cache(maxsize=32)
def _run(
    rows: tuple, duration: float, tvc_config, cf, feature, threshold, peak_copy_fraction, read_hit, backlog_gb
):
    profile = workload.make_profile(rows, duration_hours=duration)
    return tvc_day.simulate_tvc(profile, tvc_config=tvc_config, cf=cf, feature=feature, threshold=threshold,
                                peak_copy_fraction=peak_copy_fraction, read_hit=read_hit, backlog_gb=backlog_gb,
                                step_minutes=2.0)  # fmt: skip


def _spans(mask: np.ndarray) -> list[tuple[int, int]]:
    m = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(m == 1).tolist(), np.flatnonzero(m == -1).tolist(), strict=True))


def day_base(which: str, **run_args) -> dict:
    """The simulated day: occupancy of the cache (``which="occupancy"``) or host rates (``"rates"``)."""
    run = _run(**run_args)
    t = run.time_hours
    stride = max(1, math.ceil(t.size / 300))
    ib = np.unique(np.append(np.arange(0, t.size, stride), t.size - 1))
    tb = t[ib]
    title = "Cache occupancy through the day" if which == "occupancy" else "Host write rate through the day"
    fig = new_figure(title=title, xaxis_title="time [h]", height=380,
                     yaxis_title="usable cache [GB]" if which == "occupancy" else "host write rate [MB/s]")  # fmt: skip
    for a, b in _spans(run.throttled):  # above the filled areas, translucent, so it shows on both plots
        fig.add_vrect(
            x0=float(t[a]), x1=float(t[b]), fillcolor="rgba(0,0,0,0.13)", line_width=0, layer="above"
        )
    if which == "occupancy":
        u = run.uncopied_gb[ib]
        fig.add_scatter(
            x=tb, y=u, mode="lines", name="not yet copied", stackgroup="c", line={"color": COLORS[1]}
        )
        fig.add_scatter(x=tb, y=run.capacity_gb - u, mode="lines", name="copied (space reusable)", stackgroup="c",
                        line={"color": COLORS[5]})  # fmt: skip
        fig.add_scatter(x=[t[0], t[-1]], y=[run.threshold_gb] * 2, mode="lines", name="fill threshold",
                        line={"color": "black", "dash": "dash"})  # fmt: skip
    else:
        cum = {
            k: np.concatenate([[0.0], np.cumsum(getattr(run, k) * np.diff(t))])
            for k in ("offered_mb_s", "accepted_mb_s")
        }
        for k, name, color in (
            ("offered_mb_s", "offered", COLORS[0]),
            ("accepted_mb_s", "accepted", COLORS[2]),
        ):
            fig.add_scatter(x=tb[:-1], y=np.diff(cum[k][ib]) / np.diff(tb), mode="lines", name=name,
                            line={"color": color, "shape": "hv", "width": 3 if name == "accepted" else 2})  # fmt: skip
        for val, label, dash in ((run.peak_mb_s, "peak", "dot"), (run.sustained_mb_s, "sustained", "dash")):
            fig.add_scatter(x=[t[0], t[-1]], y=[val, val], mode="lines", name=f"{label} {number(val)} MB/s",
                            line={"color": "#777", "dash": dash, "width": 1})  # fmt: skip
    fig.add_scatter(x=[None], y=[None], mode="markers", name="throttled",
                    marker={"symbol": "square", "size": 12, "color": "rgba(0,0,0,0.25)"})  # fmt: skip
    fig.update_xaxes(range=[0.0, float(t[-1])])
    fig.update_yaxes(rangemode="tozero")
    fig.update_layout(legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
                      margin={"t": 90, "r": 20, "b": 60, "l": 70}, title={"y": 0.97, "yanchor": "top"})  # fmt: skip
    return figure_json(fig)


def view_day(profile="nightly batch window", tvc_config="tvc_432_36gb_paf", cf=3.0, feature="paf", threshold=0.95,
             peak_copy_fraction=0.1, read_hit=0.5, backlog_gb=0.0) -> View:  # fmt: skip
    """Panel 2: simulate ``profile`` (a name or a :class:`~vtsmodel.workload.Profile`); occupancy and rates."""
    prof = workload.PROFILES[profile] if isinstance(profile, str) else profile
    args = dict(rows=tuple(prof.rows()), duration=prof.duration_hours, tvc_config=tvc_config, cf=cf, feature=feature,
                threshold=threshold, peak_copy_fraction=peak_copy_fraction, read_hit=read_hit, backlog_gb=backlog_gb)  # fmt: skip
    run = _run(**args)
    s = run.summary()
    if run.hours_throttled > 0:
        binding = (f"The cache reached its fill threshold at {number(run.first_throttle_hours)} h: input was "
                   f"throttled to what copying to tape sustains for {number(run.hours_throttled)} h.")  # fmt: skip
    elif run.delay_mb_hours > 0:
        binding = "The peak write rate binds: the host offered more than the VTS accepts even at peak."
    else:
        binding = (
            "Nothing binds: every write was accepted when offered, and the cache never reached its threshold."
        )
    cleared = s["Backlog cleared at [h]"]
    readouts = {
        "time at peak": f"{number(s['Time at peak [h]'])} h" if s["Time at peak [h]"] > 0 else "none (never above sustained)",
        "time throttled": f"{number(s['Time throttled [h]'])} h" if run.hours_throttled > 0 else "none",
        "delay imposed": f"{number(s['Delay imposed [MB·h]'] / 1e6)} TB·h",
        "longest delay": f"{number(s['Longest delay [h]'])} h",
        "backlog cleared at": f"{number(cleared)} h" if math.isfinite(cleared) else "not by the end",
        "peak un-copied data": f"{number(s['Peak un-copied data [GB]'])} GB",
    }  # fmt: skip
    return View(
        figures={k: Plot(day_base, {"which": k, **args}) for k in ("occupancy", "rates")},
        readouts=readouts, binding=binding, caption_values={"profile": prof.name},
        citations=(tvc_day.simulate_tvc, "vts_tvc_configs", "vts_facts"),
    )  # fmt: skip


class DayPanel:
    """Panel 2: a profile chooser, the profile's grid and the simulated day.

    An edit in the grid is checked cell by cell (:data:`PROFILE_INPUTS`) and then as a
    whole (:func:`vtsmodel.workload.make_profile`: times in order, before the end); an
    accepted edit becomes the profile the panel simulates (:attr:`profile`).
    """

    def __init__(self, **values) -> None:
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
        self.profile: workload.Profile = workload.PROFILES[values.get("profile", INPUTS["profile"].default)]
        self.panel = Panel({k: INPUTS[k] for k in names}, self._view, values=values,
                           title="A day in the life of the cache", name="02_day")  # fmt: skip
        self.panel.controls["profile"].observe(self._on_profile, names="value")
        columns = [Column.of(k, inp) for k, inp in PROFILE_INPUTS.items()]
        self.grid = GridEditor(columns, self._rows(), on_edit=self._on_edit, height="200px", width="420px",
                               title="<b>Profile</b> (double-click a cell, type, Enter)")  # fmt: skip
        self.grid.widget.add_class("vtsmodel-sheet")
        self.widget = w.VBox([self.panel.widget, self.grid.widget])

    def _view(self, profile, **kw) -> View:
        return view_day(profile=self.profile, **kw)

    def _rows(self) -> list[dict]:
        return [dict(zip(PROFILE_INPUTS, r, strict=True)) for r in self.profile.rows()]

    def _on_profile(self, change) -> None:
        self.profile = workload.PROFILES[change["new"]]
        self.grid.set_rows(self._rows())
        self.panel.update()

    def _on_edit(self, row: int, key: str, value) -> None:
        rows = [list(r) for r in self.profile.rows()]
        rows[row][list(PROFILE_INPUTS).index(key)] = value
        self.profile = workload.make_profile(rows, duration_hours=self.profile.duration_hours,
                                             name=f"{self.profile.name.removesuffix(' (edited)')} (edited)",
                                             assumptions=self.profile.assumptions)  # fmt: skip
        self.grid.set_row(row, self._rows()[row])
        self.panel.update()

    def set_cell(self, row: int, column: str, value) -> bool:
        """Edit a cell as a person types it; return whether it was accepted."""
        return self.grid.edit(row, column, value)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def day_panel(**values) -> DayPanel:
    """Panel 2: profile choice, editable grid and the simulated day."""
    return DayPanel(**values)


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
    cap = tvc.configuration(v["tvc_config"]).tvc_gb
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
    return View({**a.figures, **b.figures}, {**a.readouts, **b.readouts}, f"{a.binding} {b.binding}",
                notes=tuple(dict.fromkeys((*a.notes, *b.notes))), caption_values=b.caption_values,
                citations=(*a.citations, *b.citations))  # fmt: skip


#: The vts_facts rows the notebook lists under "What the source says".
SOURCE_ROWS = tuple(("vts_facts", r) for r in ("fig4_unmigrated_at_start", "cache_algorithm_change_tvc",
                                               "fig10_effective_capacity", "peak_over_sustained_gain",
                                               "tvc_capacity_216", "tvc_capacity_1728"))  # fmt: skip


def key_numbers(feature: str = "paf", cf: float = 3.0, burst_hours: float = 6.0) -> str:
    """Hours at peak per Table 3 configuration, peak over sustained, the cache a burst needs: labelled lines.

    Peak over sustained is taken with the largest cache the feature is offered with: the
    paper's "about 60%" refers to Figs. 7 and 8 (1728 GB).
    """
    configs = tvc.configurations(feature)
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


def day_summary(run: tvc_day.TvcRun) -> str:
    """The summary numbers of a simulated day, one labelled line each."""
    return "\n".join(f"{k}: {number(v)}" for k, v in run.summary().items())


def profile_assumptions_text() -> str:
    """One line per built-in workload profile: its name and its stated assumptions."""
    return "\n".join(f"{name}: {prof.assumptions}" for name, prof in workload.PROFILES.items())
