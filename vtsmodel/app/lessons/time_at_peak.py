"""Lesson 02: time at peak write vs cache size, and a day in the life of the cache.

Panel 1 answers the Fig. 10 question (ibm-vts-b18-2000): how long can the VTS write at
its peak rate before the fill threshold throttles it, for each TVC capacity and several
data compressibilities, and how big a cache does a burst need. Panel 2 runs a workload
profile (a built-in or an edited sheet) through :func:`vtsmodel.tvc_day.simulate_tvc`.
"""

from __future__ import annotations

import copy
import functools
import html
import math
import warnings

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go

from vtsmodel import tvc, tvc_day, workload
from vtsmodel.app.figures import COLORS, fixed_json, new_figure
from vtsmodel.app.lessons import Param, scenario_values
from vtsmodel.app.panels import Panel, View, dropdown, slider

__all__ = [
    "NOTEBOOK",
    "SCENARIO_PARAMS",
    "TITLE",
    "DayPanel",
    "day_panel",
    "day_figures",
    "scenario_outputs",
    "scenario_view",
    "time_at_peak_figure",
    "time_at_peak_panel",
    "view_day",
    "view_time_at_peak",
]

LESSON_ID = "02"
TITLE = "Lesson 02: time at peak write vs cache size, and a day in the life of the cache"
NOTEBOOK = "02_time_at_peak_vs_tvc.ipynb"

#: CF values drawn as the family of curves (Fig. 10 labels its curves by compressibility).
CURVE_CFS = (1.0, 2.0, 3.0, 4.0)
_TVC_AXIS = np.geomspace(72.0, 1728.0, 160)  # Table 3's range
_CITES = (tvc.hours_at_peak, "vts_tvc_configs", "vts_facts")
_FEATURE_LABELS = (("PAF", "paf"), ("EHPO", "ehpo"), ("base", "base"))

SCENARIO_PARAMS = {
    "feature": Param("Feature", "", "paf", choices=("paf", "ehpo", "base"), help="VTS feature level"),
    "cf": Param("CF", "-", 3.0, 1.0, 4.0, help="Data compressibility (host bytes per cache byte)"),
    "tvc_gb": Param("TVC", "GB", 432.0, 72.0, 1728.0, help="Tape volume cache capacity (physical)"),
    "threshold": Param("Fill threshold", "-", tvc.DEFAULT_THRESHOLD, 0.5, 1.0, help="Modelling choice"),
    "peak_copy_fraction": Param(
        "Copy during peak",
        "-",
        tvc.DEFAULT_PEAK_COPY_FRACTION,
        0.0,
        0.5,
        help="Fraction of sustained copying",
    ),
    "backlog_gb": Param("Un-copied at start", "GB", 0.0, 0.0, 400.0, help="Fig. 4 caption assumes 0"),
    "burst_hours": Param("Burst length", "h", 6.0, 0.5, 24.0, help="Burst to ride without throttling"),
    "profile": Param("Profile", "", "nightly batch window", choices=tuple(workload.PROFILES)),
    "read_hit": Param("Read hit ratio", "-", 0.8, 0.0, 1.0, help="Workload assumption"),
}


@functools.cache
def _blank_layout(xaxis_title: str, yaxis_title: str, height: int) -> dict:
    """The project's styled empty layout (vtsmodel.app.figures.new_figure), built once as a dict.

    Without plotly's default template: checking it again on every update would cost most of
    the update's time (the plot panes and the exports add the project's template).
    """
    return fixed_json(new_figure(xaxis_title=xaxis_title, yaxis_title=yaxis_title, height=height))["layout"]


def _figure(traces: list[dict], xaxis_title: str, yaxis_title: str, height: int, **layout) -> go.Figure:
    """One validated Figure from trace dicts on the cached styled layout (fast: one constructor)."""
    base = copy.deepcopy(_blank_layout(xaxis_title, yaxis_title, height))
    for key, val in layout.items():
        if isinstance(val, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **val}
        else:
            base[key] = val
    return go.Figure({"data": traces, "layout": base})


def _fmt_h(x: float) -> str:
    if not math.isfinite(x):
        return "unlimited" if x > 0 else "—"
    return f"{x:.2f} h"


def _fmt_gb(x: float) -> str:
    return f"{x:,.0f} GB" if math.isfinite(x) else "—"


# --------------------------------------------------------------------------------------
# Panel 1: hours at peak vs TVC
# --------------------------------------------------------------------------------------
def time_at_peak_figure(
    tvc_axis: np.ndarray,
    curves: dict[float, np.ndarray],
    configs: np.ndarray,
    config_hours: np.ndarray,
    *,
    cf: float,
    knee_gb: float,
    ymax: float,
) -> go.Figure:
    """Hours at peak vs TVC capacity: one curve per CF, configurations marked. Numbers in, figure out."""
    traces = [
        {
            "type": "scatter", "x": tvc_axis, "y": np.where(np.isfinite(h), h, np.nan), "mode": "lines",
            "name": f"CF {c:g}", "line": {"color": COLORS[i % len(COLORS)], "width": 3.5 if c == cf else 1.6},
            "hovertemplate": f"CF {c:g}<br>%{{x:.0f}} GB: %{{y:.2f}} h<extra></extra>",
        }
        for i, (c, h) in enumerate(curves.items())
    ]  # fmt: skip
    traces.append(
        {
            "type": "scatter", "x": configs, "y": np.where(np.isfinite(config_hours), config_hours, np.nan),
            "mode": "markers+text", "name": f"Table 3 configurations (CF {cf:g})",
            "text": [f"{c:g} GB" for c in configs], "textposition": "top left",
            "marker": {"color": "black", "size": 11, "symbol": "diamond"},
            "hovertemplate": "%{x:.0f} GB (Table 3): %{y:.2f} h<extra></extra>",
        }
    )  # fmt: skip
    return _figure(
        traces, "TVC capacity [GB]", "time at peak write [h]", 400,
        shapes=[{"type": "line", "xref": "x", "yref": "paper", "x0": knee_gb, "x1": knee_gb, "y0": 0, "y1": 1,
                 "line": {"dash": "dot", "color": "#888"}}],
        annotations=[{"x": math.log10(knee_gb), "y": 1, "xref": "x", "yref": "paper", "showarrow": False,
                      "text": "cache algorithm changes above 864 GB (Fig. 10)", "xanchor": "right", "yanchor": "top",
                      "font": {"size": 11, "color": "#555"}}],
        xaxis={"type": "log", "range": [math.log10(tvc_axis[0]), math.log10(tvc_axis[-1])]},
        yaxis={"range": [0, ymax]},
        legend={"x": 0.01, "y": 0.99, "xanchor": "left", "yanchor": "top"},
    )  # fmt: skip


def view_time_at_peak(
    *,
    cf: float = 3.0,
    feature: str = "paf",
    threshold: float = tvc.DEFAULT_THRESHOLD,
    peak_copy_fraction: float = tvc.DEFAULT_PEAK_COPY_FRACTION,
    backlog_gb: float = 0.0,
    burst_hours: float = 6.0,
) -> View:
    """Panel 1's view: hours at peak vs TVC for several CF, the configurations, the inverse."""
    kw = dict(
        feature=feature, threshold=threshold, peak_copy_fraction=peak_copy_fraction, backlog_gb=backlog_gb
    )
    cfs = sorted(set(CURVE_CFS) | {float(cf)})
    grid = np.asarray(tvc.hours_at_peak(_TVC_AXIS[None, :], np.array(cfs)[:, None], **kw))
    curves = dict(zip(cfs, grid, strict=True))
    configs = tvc.product_configurations(feature)
    ch = np.atleast_1d(tvc.hours_at_peak(configs, cf, **kw))
    finite = grid[np.isfinite(grid)]
    ymax = float(max(finite.max() if finite.size else 1.0, 1.0) * 1.08)
    fig = time_at_peak_figure(
        _TVC_AXIS, curves, configs, ch, cf=float(cf), knee_gb=tvc.algorithm_change_gb(), ymax=ymax
    )
    need = float(tvc.tvc_needed(burst_hours, cf, **kw)) if burst_hours <= _max_burst(cf, kw) else math.inf
    order = float(tvc.smallest_configuration(need, feature)) if math.isfinite(need) else math.nan
    readouts = {f"Time at peak, {c:g} GB": _fmt_h(float(h)) for c, h in zip(configs, ch, strict=True)}
    readouts["TVC needed for the burst"] = _fmt_gb(need)
    readouts["Smallest configuration (Table 3)"] = (
        _fmt_gb(order) if math.isfinite(order) else "none large enough"
    )
    if not np.isfinite(ch).any():
        binding = "Copying to tape keeps up with the peak input: the cache never reaches its threshold."
    else:
        binding = (
            f"The fill threshold ({threshold:.0%} of the usable cache) ends peak write; "
            f"copying to tape during peak runs at {peak_copy_fraction:.0%} of the sustained copy rate."
        )
    return View(
        figures={"time_at_peak": fig},
        readouts=readouts,
        binding=binding,
        caption_values={
            "Feature": feature,
            "CF [-]": cf,
            "Fill threshold [-]": threshold,
            "Copy during peak [-]": peak_copy_fraction,
            "Un-copied at start [GB]": backlog_gb,
            "Burst [h]": burst_hours,
        },
        citations=_CITES,
    )


def _max_burst(cf, kw) -> float:
    """The longest burst Table 3's largest capacity rides (tvc_needed beyond it extrapolates)."""
    top = float(tvc.product_configurations("paf")[-1])
    return float(tvc.hours_at_peak(top, cf, **kw))


def time_at_peak_panel(**values) -> Panel:
    """Panel 1: sliders for CF, threshold, copy rate, starting backlog, burst length."""
    p = SCENARIO_PARAMS
    v = {
        k: values.get(k, p[k].default)
        for k in ("cf", "feature", "threshold", "peak_copy_fraction", "backlog_gb", "burst_hours")
    }
    controls = {
        "feature": dropdown("Feature", _FEATURE_LABELS, v["feature"], tooltip="VTS B18 feature level"),
        "cf": slider("CF", v["cf"], 1.0, 4.0, 0.1, unit="-", tooltip="Data compressibility"),
        "threshold": slider(
            "Fill threshold", v["threshold"], 0.5, 1.0, 0.01, unit="-",
            tooltip="Fraction of the usable cache at which throttling starts (modelling choice)",
        ),
        "peak_copy_fraction": slider(
            "Copy during peak", v["peak_copy_fraction"], 0.0, 0.5, 0.01, unit="-",
            tooltip="Copy rate to tape during peak write, as a fraction of the sustained copy rate",
        ),
        "backlog_gb": slider(
            "Un-copied at start", v["backlog_gb"], 0.0, 400.0, 10.0, unit="GB",
            tooltip="Data not yet copied to tape when the burst begins (Fig. 4 assumes 0)",
        ),
        "burst_hours": slider(
            "Burst length", v["burst_hours"], 0.5, 24.0, 0.5, unit="h", tooltip="Burst to ride at peak"
        ),
    }  # fmt: skip
    return Panel(
        controls,
        lambda **kw: view_time_at_peak(**kw),
        title="Time at peak write vs TVC capacity",
        name="02_time_at_peak",
    )


# --------------------------------------------------------------------------------------
# Panel 2: a day in the life of the cache
# --------------------------------------------------------------------------------------
def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Start and end (exclusive) indices of the True runs of ``mask``."""
    m = np.concatenate([[False], mask, [False]]).astype(np.int8)
    d = np.diff(m)
    return list(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist(), strict=True))


def day_figures(run: tvc_day.TvcRun, *, max_points: int = 300) -> dict[str, go.Figure]:
    """Occupancy and rates of a simulated run. Numbers in, figures out."""
    n = run.accepted_mb_s.size
    stride = max(1, math.ceil(n / max_points))
    t = run.time_hours
    ib = np.unique(np.append(np.arange(0, n + 1, stride), n))
    tb = t[ib]
    u = run.uncopied_gb[ib]
    shapes = [
        {"type": "rect", "xref": "x", "yref": "paper", "x0": float(t[a]), "x1": float(t[b]), "y0": 0, "y1": 1,
         "fillcolor": "rgba(213,94,0,0.15)", "line": {"width": 0}, "layer": "below"}
        for a, b in _runs(run.throttled)
    ]  # fmt: skip
    legend = {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0}
    xaxis = {"range": [0.0, float(t[-1])]}
    throttled_key = {"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": "throttled",
                     "marker": {"symbol": "square", "size": 12, "color": "rgba(213,94,0,0.35)"}, "hoverinfo": "skip"}  # fmt: skip
    occ = _figure(
        [
            {"type": "scatter", "x": tb, "y": u, "mode": "lines", "name": "not yet copied", "stackgroup": "c",
             "line": {"color": COLORS[1]}, "hovertemplate": "%{x:.2f} h: %{y:.0f} GB not yet copied<extra></extra>"},
            {"type": "scatter", "x": tb, "y": run.capacity_gb - u, "mode": "lines", "name": "copied (space reusable)",
             "stackgroup": "c", "line": {"color": COLORS[5]},
             "hovertemplate": "%{x:.2f} h: %{y:.0f} GB copied<extra></extra>"},
            {"type": "scatter", "x": [t[0], t[-1]], "y": [run.threshold_gb] * 2, "mode": "lines",
             "name": "fill threshold", "line": {"color": "black", "dash": "dash"}, "hoverinfo": "skip"},
            throttled_key,
        ],
        "time [h]", "usable cache [GB]", 390, shapes=shapes, legend=legend, xaxis=xaxis,
    )  # fmt: skip

    def avg(x):  # step averages over the plotted intervals
        c = np.concatenate([[0.0], np.cumsum(x * np.diff(t))])
        return np.diff(c[ib]) / np.diff(tb)

    xs = tb[:-1]
    rate_traces = [
        {"type": "scatter", "x": xs, "y": avg(run.offered_mb_s), "mode": "lines", "name": "offered",
         "line": {"color": COLORS[0], "shape": "hv"}},
        {"type": "scatter", "x": xs, "y": avg(run.accepted_mb_s), "mode": "lines", "name": "accepted",
         "line": {"color": COLORS[2], "shape": "hv", "width": 3}},
    ]  # fmt: skip
    for val, label in ((run.peak_mb_s, "peak"), (run.sustained_mb_s, "sustained")):
        rate_traces.append(
            {"type": "scatter", "x": [t[0], t[-1]], "y": [val, val], "mode": "lines", "name": f"{label} {val:.0f} MB/s",
             "line": {"color": "#777", "dash": "dot" if label == "peak" else "dash", "width": 1}, "hoverinfo": "skip"}
        )  # fmt: skip
    rate_traces.append(throttled_key)
    rates = _figure(
        rate_traces, "time [h]", "host write rate [MB/s]", 390, shapes=shapes, legend=legend, xaxis=xaxis
    )
    return {"occupancy": occ, "rates": rates}


def _day_readouts(run: tvc_day.TvcRun) -> dict[str, str]:
    s = run.summary()
    cleared = s["Backlog cleared at [h]"]
    return {
        "Time at peak": _fmt_h(s["Time at peak [h]"]),
        "Time throttled": _fmt_h(s["Time throttled [h]"]),
        "Delay imposed": f"{s['Delay imposed [MB·h]'] / 1e6:.3g} TB·h",
        "Longest delay": _fmt_h(s["Longest delay [h]"]),
        "Backlog cleared at": _fmt_h(cleared) if math.isfinite(cleared) else "not by the end",
        "Peak un-copied data": f"{s['Peak un-copied data [GB]']:.0f} GB",
    }


def view_day(
    *,
    profile: workload.Profile | str = "nightly batch window",
    tvc_gb: float = 432.0,
    cf: float = 3.0,
    feature: str = "paf",
    threshold: float = tvc.DEFAULT_THRESHOLD,
    peak_copy_fraction: float = tvc.DEFAULT_PEAK_COPY_FRACTION,
    read_hit: float = 0.8,
    backlog_gb: float = 0.0,
    step_minutes: float = 2.0,
) -> View:
    """Panel 2's view: simulate ``profile`` and draw the occupancy and the rates."""
    run = tvc_day.simulate_tvc(
        profile, tvc_gb=tvc_gb, cf=cf, feature=feature, threshold=threshold,
        peak_copy_fraction=peak_copy_fraction, read_hit=read_hit, backlog_gb=backlog_gb, step_minutes=step_minutes,
    )  # fmt: skip
    figs = day_figures(run)
    if run.hours_throttled > 0:
        binding = (
            f"The cache reached its fill threshold at {run.first_throttle_hours:.2f} h: input was throttled to what "
            "copying to tape sustains for "
            f"{run.hours_throttled:.2f} h."
        )
    elif run.delay_mb_hours > 0:
        binding = "The peak write rate binds: the host offered more than the VTS accepts even at peak."
    else:
        binding = "Nothing binds: every write was accepted when offered."
    name = profile if isinstance(profile, str) else profile.name
    return View(
        figures=figs,
        readouts=_day_readouts(run),
        binding=binding,
        caption_values={
            "Profile": name, "Feature": feature, "TVC [GB]": tvc_gb, "CF [-]": cf, "Fill threshold [-]": threshold,
            "Copy during peak [-]": peak_copy_fraction, "Read hit ratio [-]": read_hit, "Un-copied at start [GB]": backlog_gb,
        },
        citations=(tvc_day.simulate_tvc, "vts_tvc_configs", "vts_facts"),
    )  # fmt: skip


class DayPanel:
    """Panel 2: a profile chooser and editable sheet beside the simulated day.

    The sheet (an ipydatagrid ``DataGrid``) shows the chosen profile's intervals; an edit
    is cast to a number and checked with :func:`vtsmodel.workload.make_profile`; a bad cell
    is rejected with a message and its old value restored. A good edit becomes the
    profile the panel simulates (``self.profile``), and the panel updates.
    """

    def __init__(self, **values) -> None:
        import pandas as pd

        with warnings.catch_warnings():
            # ipydatagrid pulls in bqplot/bqscales, which warn on import with current traitlets
            warnings.simplefilter("ignore", DeprecationWarning)
            from ipydatagrid import DataGrid

        self._pd = pd
        p = SCENARIO_PARAMS
        v = {
            k: values.get(k, p[k].default)
            for k in (
                "profile",
                "feature",
                "tvc_gb",
                "cf",
                "threshold",
                "peak_copy_fraction",
                "read_hit",
                "backlog_gb",
            )
        }
        self.profile: workload.Profile = workload.PROFILES[v["profile"]]
        tvcs = sorted({float(x) for f in ("paf", "ehpo") for x in tvc.product_configurations(f)})
        controls = {
            "profile": dropdown("Profile", list(workload.PROFILES), v["profile"], tooltip="Built-in illustrative workload"),
            "feature": dropdown("Feature", _FEATURE_LABELS, v["feature"], tooltip="VTS B18 feature level"),
            "tvc_gb": dropdown("TVC [GB]", [(f"{x:g}", x) for x in tvcs], float(v["tvc_gb"]), tooltip="Table 3 capacities"),
            "cf": slider("CF", v["cf"], 1.0, 4.0, 0.1, unit="-", tooltip="Data compressibility"),
            "threshold": slider("Fill threshold", v["threshold"], 0.5, 1.0, 0.01, unit="-"),
            "peak_copy_fraction": slider("Copy during peak", v["peak_copy_fraction"], 0.0, 0.5, 0.01, unit="-"),
            "read_hit": slider("Read hit ratio", v["read_hit"], 0.0, 1.0, 0.05, unit="-", tooltip="Reads served from cache"),
            "backlog_gb": slider("Un-copied at start", v["backlog_gb"], 0.0, 400.0, 10.0, unit="GB"),
        }  # fmt: skip
        # registered before the Panel's own observer, so the sheet and profile change first
        controls["profile"].observe(self._on_profile, names="value")
        self.grid = DataGrid(
            self._frame(self.profile), editable=True, layout={"height": "200px", "width": "400px"}
        )
        self.grid.on_cell_change(self._on_cell)
        self.message = w.HTML()
        self.message.add_class("vtsmodel-sheet-message")
        self.panel = Panel(
            controls, lambda **kw: view_day(**{**kw, "profile": self.profile}),
            title="A day in the life of the cache", name="02_day",
        )  # fmt: skip
        sheet = w.VBox(
            [w.HTML("<b>Profile sheet</b> (double-click a cell, type, Enter)"), self.grid, self.message],
            layout=w.Layout(width="420px"),
        )
        sheet.add_class("vtsmodel-sheet")
        self.widget = w.VBox([self.panel.widget, sheet])

    # --- sheet ---------------------------------------------------------------------------
    def _frame(self, prof: workload.Profile):
        return self._pd.DataFrame(
            {"start_hours": prof.start_hours, "write_mb_s": prof.write_mb_s, "read_mb_s": prof.read_mb_s}
        )

    def _on_profile(self, change) -> None:
        self.profile = workload.PROFILES[change["new"]]
        self.grid.data = self._frame(self.profile)
        self.message.value = ""

    def set_cell(self, row: int, column: str, value) -> bool:
        """Edit a cell as a user would (the grid shows it); return whether it was accepted."""
        try:
            self._put(row, column, float(value))
        except (TypeError, ValueError):
            pass  # not a number: the grid keeps its value, _apply reports the rejection
        return self._apply(row, column, value)

    def _put(self, row: int, column: str, value) -> None:
        self._restoring = True
        try:
            self.grid.set_cell_value(column, row, value)
        finally:
            self._restoring = False

    _restoring = False

    def _on_cell(self, cell) -> None:
        if self._restoring:  # our own restore of a rejected value
            return
        self._apply(int(cell["row"]), str(cell["column"]), cell["value"])

    def _apply(self, row: int, column: str, value) -> bool:
        rows = [list(r) for r in self.profile.rows()]
        cols = ("start_hours", "write_mb_s", "read_mb_s")
        old = rows[row][cols.index(column)]
        try:
            try:
                num = float(value)  # a number typed into a float column can arrive as int or str
            except (TypeError, ValueError):
                raise ValueError(f"{column}={value!r} is not a number") from None
            rows[row][cols.index(column)] = num
            new = workload.make_profile(
                rows, duration_hours=self.profile.duration_hours, name=f"{self.profile.name} (edited)",
                assumptions=self.profile.assumptions,
            )  # fmt: skip
        except ValueError as exc:
            msg = str(exc)
            if "row " not in msg:
                msg = f"row {row + 1}: {msg}"
            self.message.value = (
                f"<span style='color:#B00020'>⚠ rejected: {html.escape(msg)}; kept {old:g}</span>"
            )
            self._put(row, column, old)
            return False
        self.profile = new
        self.message.value = f"<span style='color:#333'>row {row + 1}: {column} = {num:g}</span>"
        self.panel.update()
        return True

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def day_panel(**values) -> DayPanel:
    """Panel 2: profile choice, editable sheet and the simulated day."""
    return DayPanel(**values)


# --------------------------------------------------------------------------------------
# Lesson contract
# --------------------------------------------------------------------------------------
def _values(values: dict) -> dict:
    return scenario_values(SCENARIO_PARAMS, values)


def scenario_outputs(**values) -> dict[str, float]:
    """The computed columns of one scenario."""
    v = _values(values)
    kw = dict(feature=v["feature"], threshold=v["threshold"], peak_copy_fraction=v["peak_copy_fraction"],
              backlog_gb=v["backlog_gb"])  # fmt: skip
    h = float(tvc.hours_at_peak(v["tvc_gb"], v["cf"], **kw))
    need = (
        float(tvc.tvc_needed(v["burst_hours"], v["cf"], **kw))
        if v["burst_hours"] <= _max_burst(v["cf"], kw)
        else math.inf
    )
    run = tvc_day.simulate_tvc(v["profile"], tvc_gb=v["tvc_gb"], cf=v["cf"], read_hit=v["read_hit"], **kw)
    out = {
        "Time at peak [h]": h,
        "TVC needed for the burst [GB]": need,
        "Smallest configuration [GB]": float(tvc.smallest_configuration(need, v["feature"]))
        if math.isfinite(need)
        else math.nan,
    }
    out.update({f"Day: {k}": float(x) for k, x in run.summary().items()})
    return out


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario."""
    v = _values(values)
    a = view_time_at_peak(
        cf=v["cf"], feature=v["feature"], threshold=v["threshold"], peak_copy_fraction=v["peak_copy_fraction"],
        backlog_gb=v["backlog_gb"], burst_hours=v["burst_hours"],
    )  # fmt: skip
    b = view_day(
        profile=v["profile"], tvc_gb=v["tvc_gb"], cf=v["cf"], feature=v["feature"], threshold=v["threshold"],
        peak_copy_fraction=v["peak_copy_fraction"], read_hit=v["read_hit"], backlog_gb=v["backlog_gb"],
    )  # fmt: skip
    return View(
        figures={**a.figures, **b.figures},
        readouts={**a.readouts, **b.readouts},
        binding=f"{a.binding} {b.binding}",
        caption_values={**a.caption_values, **b.caption_values},
        citations=(*a.citations, *b.citations),
    )


# --- the notebook's cited rows and checked numbers ---------------------------------------------

#: The vts_facts rows the notebook lists under "What the source says".
SOURCE_ROWS = (
    "fig4_unmigrated_at_start",
    "cache_algorithm_change_tvc",
    "fig10_effective_capacity",
    "peak_over_sustained_gain",
    "tvc_capacity_216",
    "tvc_capacity_1728",
)
#: Reading of "about 60% greater" (Sec. 3.5.4): the model's gain may differ by this much. [-]
ABOUT_TOLERANCE = 0.05


def source_rows_text(rows=SOURCE_ROWS) -> str:
    """One line per vts_facts row: id, value, unit, source and locator."""
    facts = tvc.load("vts_facts")
    lines = []
    for row_id in rows:
        p = facts.provenance(row_id)
        lines.append(f"{row_id:28s} {p.value:8g} {p.unit:4s} {p.source}, {p.locator}")
    return "\n".join(lines)


def profile_assumptions_text() -> str:
    """One line per built-in workload profile: its name and its stated assumptions."""
    return "\n".join(f"{name}: {prof.assumptions}" for name, prof in workload.PROFILES.items())


def _expect(ok: bool, what: str, row: str, table: str = "vts_facts") -> None:
    """Raise AssertionError naming the source statement ``row`` when ``ok`` is false."""
    if not ok:
        p = tvc.load(table).provenance(row)
        raise AssertionError(
            f'{what}; source: {p.source}, {p.locator}: "{p.quote or p.printed}" ({table}/{row})'
        )


def check_key_numbers(feature: str = "paf", cf: float = 3.0, burst_hours: float = 6.0) -> str:
    """Hours at peak per Table 3 configuration, the TVC a burst needs, checked against the text.

    Checks: time at peak grows with the capacity (Sec. 4); it starts from no un-copied data
    (Fig. 4 caption); peak is about 60% above sustained (Sec. 3.5.4, within
    :data:`ABOUT_TOLERANCE`; the statement refers to Figs. 7 and 8, so PAF and EHPO only); ``tvc_needed`` inverts ``hours_at_peak`` to the printed 0.01 h;
    the smallest configuration holds what is needed. Raises AssertionError naming the
    statement that fails.

    Returns
    -------
    str
        The lines to print.
    """
    facts = tvc.load("vts_facts")
    configs = tvc.product_configurations(feature)
    hours = np.asarray(tvc.hours_at_peak(configs, cf, feature=feature), dtype=float)
    run = tvc_day.simulate_tvc("steady day", tvc_gb=float(configs[0]), cf=cf, feature=feature)
    gain = run.peak_mb_s / run.sustained_mb_s - 1.0
    need = float(tvc.tvc_needed(burst_hours, cf, feature=feature))
    back = float(tvc.hours_at_peak(need, cf, feature=feature))
    smallest = float(tvc.smallest_configuration(need, feature))
    lines = [f"{c:6.0f} GB: {h:5.2f} h at peak" for c, h in zip(configs, hours, strict=True)]
    lines += [
        f"peak {run.peak_mb_s:.1f} MB/s, sustained {run.sustained_mb_s:.1f} MB/s: {gain:.0%} greater",
        f"TVC needed for a {burst_hours:g} h burst at CF {cf:g}: {need:.0f} GB (gives {back:.2f} h at peak)",
        f"smallest configuration: {smallest:.0f} GB",
    ]
    _expect(
        bool(np.all(np.diff(hours) > 0)),
        f"hours at peak {hours} do not grow with the TVC",
        "tvc_capacity_1728",
    )
    _expect(
        float(
            tvc.hours_at_peak(
                configs[0], cf, feature=feature, backlog_gb=facts.value("fig4_unmigrated_at_start")
            )
        )
        == hours[0],
        "the default starting backlog is not the caption's",
        "fig4_unmigrated_at_start",
    )
    _expect(
        feature == "base" or abs(gain - facts.value("peak_over_sustained_gain")) <= ABOUT_TOLERANCE,
        f"peak is {gain:.0%} above sustained",
        "peak_over_sustained_gain",
    )
    if abs(back - burst_hours) > 0.005:
        raise AssertionError(
            f"tvc_needed({burst_hours}) = {need:.1f} GB gives {back:.3f} h, not {burst_hours} h"
        )
    if not (smallest >= need and smallest in configs):
        raise AssertionError(f"{smallest} GB is not the smallest Table 3 configuration holding {need:.0f} GB")
    return "\n".join(lines)


def check_day(run: tvc_day.TvcRun) -> str:
    """The summary of a simulated day, after checking it conserves data.

    Checks at every step: written = copied + not yet copied, offered = accepted + delayed
    (to 1e-6 of the volume); nothing negative; the un-copied data never above the capacity;
    the day starts with no un-copied data (Fig. 4 caption's assumption) unless a backlog
    was given. Raises AssertionError naming the check that fails.

    Returns
    -------
    str
        The summary lines to print.
    """
    scale = max(float(run.offered_total_mb[-1]), 1.0) * 1e-6
    written = run.copied_total_mb + run.uncopied_gb * 1000.0
    if np.max(np.abs(run.written_total_mb - written)) > scale:
        raise AssertionError("data not conserved: written != copied + not yet copied")
    if np.max(np.abs(run.offered_total_mb - run.accepted_total_mb - run.delayed_mb)) > scale:
        raise AssertionError("data not conserved: offered != accepted + delayed")
    if np.min(run.uncopied_gb) < -scale or np.min(run.delayed_mb) < -scale:
        raise AssertionError("negative un-copied or delayed data")
    if run.peak_occupancy_gb > run.capacity_gb * (1 + 1e-9):
        raise AssertionError(
            f"un-copied data {run.peak_occupancy_gb:.1f} GB above the capacity {run.capacity_gb:g} GB"
        )
    _expect(
        abs(run.uncopied_gb[0] - run.backlog_gb) <= scale,
        f"the day starts with {run.uncopied_gb[0]:.1f} GB un-copied, not the given {run.backlog_gb:g} GB",
        "fig4_unmigrated_at_start",
    )
    return "\n".join(f"{label:28s} {value:10.2f}" for label, value in run.summary().items())
