"""The planner's figures: every configuration against the targets, one configuration's day, the tornado.

Used by the planner page (:mod:`vtsmodel.app.lessons.planner`) and the report
(:mod:`vtsmodel.app.report`). Each builder is pure: a plan's results in, figure JSON out,
written as JSON directly (a plotly ``Figure`` checks every property again: tens of
milliseconds per figure, more than the rest of a slider's move). Source:
ibm-vts-b18-2000, Secs. 8.3 and 8.4.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vtsmodel import number
from vtsmodel.app.figures.axes import log_range, nice_ceiling
from vtsmodel.app.figures.marks import line_mark
from vtsmodel.app.figures.plot import plain_json
from vtsmodel.app.figures.theme import COLORS

__all__ = [
    "FIGURE_WIDTH",
    "configurations_spec",
    "day_spec",
    "for_page",
    "log_ticks",
    "slanted_px",
    "target_marks",
    "tornado_spec",
    "value_axes",
]

#: Figure width in the report, fitting an A4 page's text width. [CSS px]
FIGURE_WIDTH = 700
#: :func:`for_page`'s bands from the top: the legend's top under the figure's top edge, a row
#: of legend entries, and the top subplot's title over the plot area. [CSS px]
LEGEND_TOP_PX, LEGEND_ROW_PX, SUBPLOT_TITLE_PX = 44, 22, 30


def _n(x: float) -> str:
    return "no steady state" if math.isinf(x) and x > 0 else number(x)


def _title(text: str, y: float) -> dict:
    """A subplot's title above its plot, as plotly's ``make_subplots`` places it."""
    return {"text": text, "x": 0.5, "xanchor": "center", "xref": "paper", "y": y, "yanchor": "bottom",
            "yref": "paper", "showarrow": False, "font": {"size": 16}}  # fmt: skip


def _two_rows(titles: tuple[str, str]) -> dict:
    """The layout of two plots one above the other, sharing the x axis (``make_subplots(2, 1, shared_xaxes=True)``)."""
    return {
        "xaxis": {"anchor": "y", "domain": [0.0, 1.0], "matches": "x2", "showticklabels": False},
        "yaxis": {"anchor": "x", "domain": [0.54, 1.0]},
        "xaxis2": {"anchor": "y2", "domain": [0.0, 1.0]},
        "yaxis2": {"anchor": "x2", "domain": [0.0, 0.46]},
        "annotations": [_title(titles[0], 1.0), _title(titles[1], 0.46)],
        "shapes": [],
    }


def _hline(layout: dict, y: float, row: int, line: dict, text: str = "", where: str = "top left") -> None:
    """A line across plot ``row`` at data ``y``, labelled at one end (``add_hline``'s shape and annotation)."""
    x, y_ = ("x domain", "y") if row == 1 else (f"x{row} domain", f"y{row}")
    layout["shapes"].append(
        {"type": "line", "x0": 0, "x1": 1, "xref": x, "y0": y, "y1": y, "yref": y_, "line": line}
    )
    if text:
        up, side = where.split()
        layout["annotations"].append({"text": text, "showarrow": False, "x": 0 if side == "left" else 1,
                                      "xanchor": side, "xref": x, "y": y, "yanchor": "bottom" if up == "top" else "top",
                                      "yref": y_})  # fmt: skip


def day_spec(result, *, throttle_threshold: bool = True) -> dict:
    """The day of one configuration, hour by hour: host writes offered and accepted, the copy, and un-copied data.

    Parameters
    ----------
    result : vtsmodel.plan.ConfigResult
        A configuration evaluated (its ``run`` is the day simulated).
    throttle_threshold : bool
        Draw the cache's fill threshold.
    """
    run = result.run
    t = np.asarray(run.time_hours, dtype=float)
    data = []
    for name, y, color, dash in (
        ("host writes offered [MB/s]", run.offered_mb_s, COLORS[1], "dot"),
        ("host writes accepted [MB/s]", run.accepted_mb_s, COLORS[0], "solid"),
        ("copy to tape, cache MB/s × CF<sub>cache</sub>", np.asarray(run.copy_mb_s) * run.cache_cf, COLORS[2], "dash"),
    ):  # fmt: skip
        # each step's rate held over the step: plotly's step line ("hv") at the step edges, the last rate
        # repeated at the day's end (half the points of drawing each step's two ends)
        y = np.asarray(y, dtype=float)
        data.append({"type": "scatter", "x": t, "y": np.append(y, y[-1:]), "name": name, "mode": "lines",
                     "line": {"color": color, "dash": dash, "shape": "hv"}, "xaxis": "x", "yaxis": "y"})  # fmt: skip
    layout = _two_rows(("Host writes and copy to tape", "Un-copied data in the cache"))
    _hline(
        layout,
        run.peak_mb_s,
        1,
        {"color": "#888", "width": 1, "dash": "dot"},
        f"peak {_n(run.peak_mb_s)} MB/s",
    )
    _hline(layout, run.sustained_mb_s, 1, {"color": "#888", "width": 1, "dash": "dash"},
           f"sustained {_n(run.sustained_mb_s)} MB/s", "bottom left")  # fmt: skip
    data.append({"type": "scatter", "x": t, "y": run.uncopied_gb, "name": "un-copied [GB]", "mode": "lines",
                 "line": {"color": COLORS[3]}, "fill": "tozeroy", "xaxis": "x2", "yaxis": "y2"})  # fmt: skip
    if throttle_threshold:
        _hline(layout, run.threshold_gb, 2, {"color": COLORS[1], "width": 1, "dash": "dash"},
               f"fill threshold {_n(run.threshold_gb)} GB")  # fmt: skip
    thr = np.asarray(run.throttled, dtype=bool)
    if thr.any():
        data.append({"type": "scatter", "x": t[:-1][thr], "y": np.full(int(thr.sum()), run.threshold_gb),
                     "mode": "markers", "name": "throttled", "marker": {"color": COLORS[1], "symbol": "x", "size": 6},
                     "xaxis": "x2", "yaxis": "y2"})  # fmt: skip
    # hours, never rotated: a fixed angle spares plotly measuring each label on every draw
    layout["xaxis2"].update(title={"text": "hour [h]"}, dtick=2 if t[-1] <= 48 else 12, tickangle=0)
    layout["yaxis"].update(title={"text": "MB/s"}, rangemode="tozero")
    layout["yaxis2"].update(title={"text": "GB"}, rangemode="tozero")
    layout.update(title={"text": f"The day with {result.config.label}"}, height=560, width=FIGURE_WIDTH,
                  legend={"orientation": "h", "y": -0.15}, margin={"t": 70, "b": 40, "l": 60, "r": 20})  # fmt: skip
    return plain_json({"data": data, "layout": layout})


def _legend_line(name: str, color: str, dash: str, yaxis: str) -> dict:
    """A legend entry for a line drawn as a layout shape (a target): a trace with no points."""
    return {"type": "scatter", "x": [None], "y": [None], "mode": "lines", "name": name, "xaxis": "x",
            "yaxis": yaxis, "line": {"color": color, "dash": dash, "width": 1.5}}  # fmt: skip


def log_ticks(lo: float, hi: float) -> list[float]:
    """Tick values of a log axis from ``lo`` to ``hi``: 1, 2 and 5 times each power of ten, each labelled in full.

    A log axis labels its minor ticks "2" and "5" only, so that an axis from 150 to 4,000
    reads "2, 5, 1000, 2"; these are labelled with the whole number.

    Examples
    --------
    >>> log_ticks(150.0, 4000.0)
    [200.0, 500.0, 1000.0, 2000.0]
    """
    lo, hi = float(lo), float(hi)
    if not (0 < lo <= hi and math.isfinite(hi)):
        raise ValueError(f"log_ticks: lo={lo!r} and hi={hi!r} must be positive and finite, lo <= hi")
    ticks = [
        m * 10.0**e
        for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
        for m in (1, 2, 5)
    ]
    inside = [t for t in ticks if lo <= t <= hi]
    if len(inside) >= 2:
        return inside
    below = [t for t in ticks if t < lo][-1:]  # a narrow range: the ticks on either side
    above = [t for t in ticks if t > hi][:1]
    return below + inside + above


def slanted_px(labels: Sequence[str], size: float = 14.0) -> int:
    """Height [px] under a plot that category labels slanted at 45 degrees take, with the gap above them.

    Estimated as :mod:`vtsmodel.app.export` estimates label widths: 0.6 of the font size a character.
    """
    longest = max((len(x) for x in labels), default=0)
    return int((longest * 0.6 * size + size) * math.sqrt(0.5)) + 24


def _caches(vts) -> list[str]:
    """The cache configurations' labels (without the drive count), smallest first."""
    return list(dict.fromkeys(r.config.label.rsplit(", ", 1)[0] for r in vts.results))


def value_axes(vts) -> dict:
    """The ranges of :func:`configurations_spec`'s value axes, over every configuration's values and the targets.

    ``yaxis`` (hours) from 0 to :func:`nice_ceiling` of the largest bar or target, or of the
    hours simulated once a bar or target passes half of them; ``yaxis2`` (recall ready, seconds)
    on a log scale labelled 1, 2, 5 per decade in full (:func:`log_ticks`, :func:`log_range`),
    when any configuration has a recall time. A page sends these with the targets (they move
    when a target does).
    """
    first = vts.results[0]
    throttle, delay, recall = (first.check(k) for k in ("throttle", "delay", "recall"))
    hours = [v for r in vts.results for v in (r.hours_throttled, r.longest_delay_hours)]
    top = max((v for v in (*hours, throttle.limit, delay.limit) if math.isfinite(v)), default=0.0)
    # No delay or time throttled outlasts the hours simulated, and a configuration that falls behind
    # delays writes for nearly all of them: past half the day the axis runs to its end, or it would
    # flip between two steps (25 and 30 h) on every move while such a delay hovers around 23.8 h.
    simulated = float(vts.day.get("hours [h]", 0.0))
    if top > simulated / 2:
        top = max(top, simulated)
    out = {"yaxis": {"range": [0.0, nice_ceiling(top * 1.05)]}}  # autorange's 5 % above
    shown = [r.worst_recall_ready_s for r in vts.results if math.isfinite(r.worst_recall_ready_s)]
    if shown:
        lo, hi = min(shown + [recall.limit]), max(shown + [recall.limit])
        ticks = log_ticks(lo, hi)
        labels = [_n(t) for t in ticks]  # 200, 500, 1,000
        out["yaxis2"] = {
            "type": "log",
            "tickvals": ticks,
            "ticktext": labels,
            "range": log_range(lo, hi, ticks),
        }
    return out


def configurations_spec(vts, *, targets: bool = True) -> dict:
    """Every cache configuration against the targets: time throttled, longest write delay, recall ready time.

    Both value axes have set ranges that cover the values and the targets and move in steps
    (:func:`nice_ceiling`, :func:`log_range`): a slider that moves the values redraws the bars
    and points under axes that stay put.

    Parameters
    ----------
    vts : vtsmodel.plan.VtsPlan
    targets : bool
        Draw the targets' lines (a page draws them as moving marks instead: :func:`target_marks`).
    """
    caches, thr, dly = [], [], []
    by_drives: dict[int, dict[str, float]] = {}
    for r in vts.results:
        label = r.config.label.rsplit(", ", 1)[0]
        if label not in caches:
            caches.append(label)
            thr.append(r.hours_throttled)
            dly.append(r.longest_delay_hours)
        by_drives.setdefault(r.config.drives, {})[label] = r.worst_recall_ready_s
    first = vts.results[0]
    throttle, delay, recall = (first.check(k) for k in ("throttle", "delay", "recall"))
    layout = _two_rows(("Time throttled and longest write delay [h]",
                        f"Recall ready, {recall.label.split('(')[-1].rstrip(')')} [s]"))  # fmt: skip
    data = [
        {"type": "bar", "x": caches, "y": thr, "name": "throttled [h]", "marker": {"color": COLORS[1]},
         "xaxis": "x", "yaxis": "y"},
        {"type": "bar", "x": caches, "y": dly, "name": "longest write delay [h]", "marker": {"color": COLORS[0]},
         "xaxis": "x", "yaxis": "y"},
    ]  # fmt: skip
    if targets:  # lines named in the legend: a label on the plot would stand over the bars
        for limit, text, color, dash in ((throttle.limit, f"throttling allowed: {_n(throttle.limit)} h", COLORS[1], "dash"),
                                         (delay.limit, f"write delay allowed: {_n(delay.limit)} h", COLORS[0], "dot")):  # fmt: skip
            _hline(layout, limit, 1, {"color": color, "dash": dash, "width": 1.5})
            data.append(_legend_line(text, color, dash, "y"))
    any_recall = False
    for i, (drives, vals) in enumerate(sorted(by_drives.items())):
        ys = [vals.get(c, math.nan) for c in caches]
        ys = [y if y is not None and math.isfinite(y) else None for y in ys]
        any_recall = any_recall or any(y is not None for y in ys)
        data.append({"type": "scatter", "x": caches, "y": ys, "mode": "markers+lines", "name": f"{drives} drives",
                     "marker": {"color": COLORS[(i + 2) % len(COLORS)], "size": 7}, "line": {"width": 1},
                     "xaxis": "x2", "yaxis": "y2"})  # fmt: skip
    if any_recall and targets:
        _hline(layout, recall.limit, 2, {"color": "#444", "dash": "dash", "width": 1.5})
        data.append(_legend_line(f"recall target: {_n(recall.limit)} s", "#444", "dash", "y2"))
    for axis, values in value_axes(vts).items():
        layout[axis].update(values)
    names = slanted_px(caches)  # the slanted names under the plot, then the legend (two rows) under them
    bottom = names + 2 * LEGEND_ROW_PX + 10
    height = 500 + bottom  # the title's band and a plot area of 430 px over them
    layout.update(
        title={"text": "Every configuration against the targets"},
        barmode="group",
        height=height,
        width=FIGURE_WIDTH,
        legend={"orientation": "h", "y": -names / max(height - 70 - bottom, 1), "yanchor": "top"},
        margin={"t": 70, "b": bottom, "l": 60, "r": 20},
    )  # fmt: skip
    layout["xaxis2"]["tickangle"] = -45
    return plain_json({"data": data, "layout": layout})


def target_marks(vts) -> tuple[list[dict], list[dict], list[dict]]:
    """The targets as lines over :func:`configurations_spec` (``targets=False``), and the recommended (or closest) configuration marked.

    Returns the shapes, their labels (annotations) and the recommended configuration's recall
    point as a marker trace: a move that changes the values but not the recommendation
    changes traces only, which a page redraws without its axes (:mod:`vtsmodel.app.lessons.configurations`).
    """
    first, best = vts.results[0], vts.closest
    shapes, labels = [], []
    for key, yref, color, dash, text, anchor in (
        ("throttle", "y", COLORS[1], "dash", "throttling allowed", "left"),
        ("delay", "y", COLORS[0], "dot", "delay allowed", "right"),
        ("recall", "y2", "#444", "dash", "target", "left"),
    ):
        check = first.check(key)
        if key == "recall" and math.isnan(best.worst_recall_ready_s):
            continue
        shapes.append(
            line_mark(y=check.limit, yref=yref, color=color, dash=dash, name=f"{text} {number(check.limit)}")
        )
        y = (
            math.log10(check.limit) if key == "recall" else check.limit
        )  # annotations on a log axis take the log
        labels.append({"xref": "x domain", "x": 0 if anchor == "left" else 1, "xanchor": anchor, "yref": yref,
                       "y": y, "yanchor": "bottom", "showarrow": False, "font": {"size": 11, "color": color},
                       "bgcolor": "rgba(255,255,255,0.85)", "text": f"{text} {number(check.limit)} {check.unit}"})  # fmt: skip
    i = _caches(vts).index(best.config.label.rsplit(", ", 1)[0])
    word = "recommended" if vts.recommended is not None else "closest"
    shapes.append({"type": "rect", "xref": "x", "x0": i - 0.45, "x1": i + 0.45, "yref": "paper", "y0": 0, "y1": 1,
                   "fillcolor": "rgba(0,158,115,0.12)", "line": {"width": 0}, "layer": "below"})  # fmt: skip
    y = best.worst_recall_ready_s
    point = {"type": "scatter", "x": [_caches(vts)[i]], "y": [y if math.isfinite(y) else None], "xaxis": "x2",
             "yaxis": "y2", "mode": "markers", "name": f"{word}: {best.config.label}", "showlegend": False,
             "marker": {"symbol": "diamond", "size": 14, "color": COLORS[2], "line": {"color": "white", "width": 1}},
             "cliponaxis": False}  # fmt: skip
    labels.append({"xref": "x", "x": i, "yref": "y domain", "y": 0.98, "yanchor": "top", "textangle": -90,
                   "showarrow": False, "text": f"{word}: {best.config.label}", "font": {"size": 11, "color": "#05704F"},
                   "bgcolor": "rgba(255,255,255,0.85)"})  # fmt: skip
    return shapes, labels, [point]


def tornado_spec(sens, outputs: Sequence[str] | None = None, *, every_label: bool = False) -> dict:
    """A tornado chart per answer: the move of each input down and up, largest swing on top.

    Parameters
    ----------
    sens : vtsmodel.plan.Sensitivity
    outputs : sequence of str, optional
        The answers to draw; default every answer that moves.
    every_label : bool
        Name every bar on its axis (plotly skips category labels where they crowd, which
        would leave bars beside other inputs' names).
    """
    wanted = list(outputs) if outputs is not None else [o for o in sens.outputs if any(r.swing > 0 for r in sens.tornado(o))]  # fmt: skip
    wanted = wanted or list(sens.outputs[:1])
    n = max(len(wanted), 1)
    gap = 0.5 / n
    height = (1.0 - gap * (n - 1)) / n
    pct = f"{sens.fraction * 100:g} %"
    data, layout = [], {"annotations": [], "shapes": []}
    for i, out in enumerate(wanted, start=1):
        top = 1.0 - (i - 1) * (height + gap)
        ax = "" if i == 1 else str(i)
        yaxis = {"anchor": f"x{ax}", "domain": [max(top - height, 0.0), top], "type": "category", "dtick": 1}
        if every_label:
            yaxis.update(tickmode="linear", tick0=0)
        layout[f"xaxis{ax}"] = {"anchor": f"y{ax}", "domain": [0.0, 1.0]}
        layout[f"yaxis{ax}"] = yaxis
        layout["annotations"].append(_title(out, top))
        rows = sens.tornado(out)[::-1]  # plotly draws the first category at the bottom
        names = [r.driver for r in rows]
        base = rows[0].base if rows else 0.0
        at = base if math.isfinite(base) else 0
        for key, label, color in (("low", f"input −{pct}", COLORS[0]), ("high", f"input +{pct}", COLORS[1])):
            vals = [getattr(r, key) for r in rows]
            data.append({"type": "bar", "y": names, "base": at, "orientation": "h", "name": label,
                         "x": [v - base if math.isfinite(v) and math.isfinite(base) else None for v in vals],
                         "marker": {"color": color}, "showlegend": i == 1, "legendgroup": key, "hoverinfo": "text",
                         "hovertext": [f"{r.driver}: {number(getattr(r, 'input_' + key))} {r.input_unit} → {_n(v)}"
                                       for r, v in zip(rows, vals, strict=True)],
                         "xaxis": f"x{ax}", "yaxis": f"y{ax}"})  # fmt: skip
        layout["shapes"].append({"type": "line", "x0": at, "x1": at, "xref": f"x{ax}", "y0": 0, "y1": 1,
                                 "yref": f"y{ax} domain", "line": {"color": "#444", "width": 1}})  # fmt: skip
    layout.update(title={"text": f"Sensitivity: each input moved by ±{pct} ({sens.configuration})"},
                  barmode="overlay", height=170 * len(wanted) + 110, width=FIGURE_WIDTH,
                  legend={"orientation": "h", "y": -0.06}, margin={"t": 80, "b": 40, "l": 170, "r": 20})  # fmt: skip
    return plain_json({"data": data, "layout": layout})


def for_page(spec: dict, *, height: int, legend_rows: int, bottom: int) -> dict:
    """A report figure laid out for a pane and an export: the title, then the legend, then the plots.

    The legend sits above the plots (an export would move a legend from under them there,
    over the title), the bottom margin holds the tick labels (an export's caption goes under
    it), and the width follows the pane. Both are placed in pixels: the title 10 px under the
    top edge, the legend's top :data:`LEGEND_TOP_PX` under it, measured from the plot area's
    top edge (a position as a share of the figure's height would move down as an export adds
    its caption's height). A new dict; ``spec`` is unchanged.
    """
    layout = {k: v for k, v in spec["layout"].items() if k != "width"}
    grow = max(layout.get("margin", {}).get("b", 0) - bottom, 0)  # the spec's room for slanted labels
    height, bottom = height + grow, bottom + grow  # the same plot area, the labels' room added
    top = LEGEND_TOP_PX + LEGEND_ROW_PX * legend_rows + SUBPLOT_TITLE_PX
    plot_h = max(height - top - bottom, 1)  # the plot area: an export keeps it, adding to height and bottom
    layout.update(
        height=height, margin={**layout.get("margin", {}), "t": top, "b": bottom},
        title={**layout.get("title", {}), "y": 1, "yref": "container", "yanchor": "top", "pad": {"t": 10}},
        legend={"orientation": "h", "x": 0, "xanchor": "left", "yref": "paper",
                "y": 1 + (top - LEGEND_TOP_PX) / plot_h, "yanchor": "top"},
    )  # fmt: skip
    return {"data": spec["data"], "layout": layout}
