"""Marks drawn on a figure: cited source points, curves solid where validated, and the moving marks.

The moving marks (:func:`point_mark`, :func:`line_mark`, :func:`path_mark`) are layout
shapes: a slider moves them without recomputing the figure's traces. Figure text uses
Unicode and ``<sup>``/``<sub>``, never LaTeX: MathJax would be fetched from the internet.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from vtsmodel.app.figures.theme import COLORS
from vtsmodel.app.text import plain_math
from vtsmodel.data import Provenance

__all__ = [
    "legend_entries",
    "alert_note",
    "frame_validated",
    "line_mark",
    "off_scale_note",
    "padded",
    "path_mark",
    "point_mark",
    "source_markers",
    "trace_named",
    "validated_curve",
]


def _hover_for(p: Provenance) -> str:
    quote = p.quote if p.kind in ("text", "derived") else ""
    parts = [
        f"<b>{p.printed or p.value:g}</b>" if not p.printed else f"<b>{p.printed}</b>",
        f"{p.value:g} {p.unit}",
        f"{p.source}, {p.locator} ({p.kind})",
    ]
    if quote:
        wrapped = "<br>".join(textwrap.wrap(f"“{plain_math(quote)}”", 70)[:6])
        parts.append(f"<i>{wrapped}</i>")
    return "<br>".join(parts)


def source_markers(
    x: Sequence[float],
    y: Sequence[float],
    provenance: Sequence[Provenance],
    *,
    name: str = "source data",
    color: str = "black",
    symbol: str = "circle-open",
    size: int = 11,
    showlegend: bool = True,
) -> go.Scatter:
    """Markers for source data points whose hover shows value, locator and source."""
    if not (len(x) == len(y) == len(provenance)):
        raise ValueError(
            f"x, y and provenance must have the same length; got {len(x)}, {len(y)}, {len(provenance)}"
        )
    return go.Scatter(
        x=np.asarray(x, dtype=float),
        y=np.asarray(y, dtype=float),
        mode="markers",
        name=name,
        marker={"color": color, "symbol": symbol, "size": size, "line": {"width": 2, "color": color}},
        hovertext=[_hover_for(p) for p in provenance],
        hoverinfo="text",
        showlegend=showlegend,
    )


def point_mark(
    x: float,
    y: float,
    *,
    color: str = COLORS[1],
    symbol: str = "diamond",
    size: int = 16,
    name: str = "",
    xref: str = "x",
    yref: str = "y",
    showlegend: bool = True,
    y_range: tuple[float, float] | None = None,
) -> dict:
    """An operating point drawn as a layout shape: a marker of ``size`` pixels at data ``(x, y)``.

    A shape moves without recomputing the figure's traces (a trace would), which keeps a
    slider's redraw to a few milliseconds. Non-finite coordinates hide the mark.
    ``symbol`` is ``"diamond"``, ``"circle"``, ``"square"`` or ``"triangle"``.
    With ``y_range=(lo, hi)`` (a linear axis's range, or a narrower one the mark must stay
    in), a ``y`` beyond it is drawn on that edge as a triangle pointing out, its tip on the
    edge: say its true value with :func:`off_scale_note`.
    """
    h = size / 2.0
    paths = {
        "diamond": f"M 0,{-h} L {h},0 L 0,{h} L {-h},0 Z",
        "square": f"M {-h * 0.8},{-h * 0.8} H {h * 0.8} V {h * 0.8} H {-h * 0.8} Z",
        "triangle": f"M 0,{h} L {h},{-h * 0.7} L {-h},{-h * 0.7} Z",
        "circle": f"M {h},0 A {h},{h} 0 1,1 {-h},0 A {h},{h} 0 1,1 {h},0 Z",
    }
    if symbol not in paths:
        raise ValueError(f"symbol={symbol!r} is not valid; choose one of {', '.join(map(repr, paths))}")
    finite = bool(np.isfinite(x) and np.isfinite(y))
    path = paths[symbol]
    side = _off_scale(y, y_range) if finite else 0
    if side:
        y = y_range[1] if side > 0 else y_range[0]
        path = (
            f"M 0,0 L {h},{-side * 1.6 * h} L {-h},{-side * 1.6 * h} Z"  # the tip on the edge, pointing out
        )
    mark = {
        "type": "path",
        "path": path,
        "xref": xref,
        "yref": yref,
        "xsizemode": "pixel",
        "ysizemode": "pixel",
        "xanchor": float(x) if finite else 0.0,
        "yanchor": float(y) if finite else 0.0,
        "fillcolor": color,
        "line": {"color": "white", "width": 1},
        "opacity": 1,
        "layer": "above",
        "visible": finite,
    }
    if name:
        mark.update(name=name, showlegend=showlegend)
    return mark


def _off_scale(y: float, y_range: tuple[float, float] | None) -> int:
    """1 above ``y_range``, -1 below it, 0 inside it (or no range, or ``y`` not finite)."""
    if y_range is None or not np.isfinite(y):
        return 0
    return 1 if y > y_range[1] else -1 if y < y_range[0] else 0


def off_scale_note(x: float, y: float, y_range: tuple[float, float], text: str, *, stack: int = 0,
                   xref: str = "x", yref: str = "y") -> list[dict]:  # fmt: skip
    """The annotation that gives a mark's true value where :func:`point_mark` drew it on the edge of ``y_range``.

    An arrow to the mark from ``text``, placed inside the plot (the ``stack``-th note at this
    point sits one line further in); an empty list when ``y`` lies in the range or is not finite.
    """
    side = _off_scale(y, y_range) if np.isfinite(x) else 0
    if not side:
        return []
    edge = y_range[1] if side > 0 else y_range[0]
    return [{"x": float(x), "y": float(edge), "xref": xref, "yref": yref, "ax": -40, "ay": side * (30 + 22 * stack),
             "showarrow": True, "arrowhead": 2, "xanchor": "right", "text": text}]  # fmt: skip


def line_mark(
    *, x: float | None = None, y: float | None = None, color: str = "#777", dash: str = "dot", width: float = 1.0,
    xref: str = "x", yref: str = "y", name: str = "", visible: bool = True,
) -> dict:  # fmt: skip
    """A line across the plot as a layout shape: vertical at data ``x``, or horizontal at data ``y``.

    It spans its axis's whole domain (``"y domain"`` for a vertical line, ``"x domain"`` for a
    horizontal one) and moves without recomputing the traces, like :func:`point_mark`.
    """
    if (x is None) == (y is None):
        raise ValueError("line_mark: give x (a vertical line) or y (a horizontal one), not both")
    at = x if x is not None else y
    span = {"x0": at, "x1": at, "xref": xref, "y0": 0, "y1": 1, "yref": f"{yref} domain"} if x is not None else (
        {"y0": at, "y1": at, "yref": yref, "x0": 0, "x1": 1, "xref": f"{xref} domain"})  # fmt: skip
    shape = {"type": "line", **span, "line": {"color": color, "dash": dash, "width": width}, "opacity": 1,
             "visible": visible}  # fmt: skip
    if name:
        shape["name"] = name
    return shape


def alert_note(
    x: float, text: str, *, x_max: float, y: float = 0.55, xref: str = "x", yref: str = "y"
) -> dict:
    """A red note at ``x`` (at most ``x_max``, the axis's end), ``y`` of the way up, on the side with more room.

    For what a mark cannot show: a saturated queue, a load beyond the capacity (the mark is hidden).
    """
    return {"x": min(float(x), float(x_max)), "y": y, "xref": xref, "yref": f"{yref} domain", "text": text,
            "showarrow": False, "font": {"color": "#B00020"}, "bgcolor": "rgba(255,255,255,0.85)",
            "xanchor": "right" if x > x_max / 2 else "left"}  # fmt: skip


def padded(hi: float, lo: float = 0.0, spare: float = 0.02) -> list[float]:
    """An axis range from ``lo`` to ``hi`` with ``spare`` of the span to spare each side: a mark at either end stays whole."""
    pad = spare * (hi - lo)
    return [lo - pad, hi + pad]


def frame_validated(fig: go.Figure, axis, valid: tuple[float, float]) -> None:
    """Shade the x beyond the range a source validated (grey) and fix the x axis to ``axis``'s span, 1 % to spare.

    Fixed axes: the marks a slider moves never rescale the plot.
    """
    lo, hi = float(np.min(axis)), float(np.max(axis))
    for x0, x1 in ((lo, valid[0]), (valid[1], hi)):
        if x1 > x0:
            fig.add_vrect(x0=x0, x1=x1, fillcolor="#999999", opacity=0.08, line_width=0)
    fig.update_xaxes(range=padded(hi, lo, 0.01))


def validated_curve(
    x,
    y,
    *,
    name: str,
    color: str,
    valid: tuple[float, float],
    dash: str = "solid",
    width: float = 3.0,
    legendgroup: str | None = None,
    showlegend: bool = True,
    unit: str = "MB/s",
    xlabel: str = "CF",
) -> list[dict]:
    """A curve as two traces: solid inside the range a source validated, dotted outside it.

    The dotted part is named ``"<name> (extrapolated)"`` and kept out of the legend; it
    joins the solid part at the edge of the range.
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    inside = (x >= valid[0] - 1e-9) & (x <= valid[1] + 1e-9)
    out_x = np.where(inside, np.nan, x)
    edge = np.flatnonzero(inside)
    if edge.size and edge[-1] + 1 < x.size:
        out_x[edge[-1]] = x[edge[-1]]
    if edge.size and edge[0] > 0:
        out_x[edge[0]] = x[edge[0]]
    group = legendgroup or name
    hover = f"{name}<br>{xlabel} %{{x:.3g}}: %{{y:.3g}} {unit}<extra></extra>"
    return [
        {"type": "scatter", "x": np.where(inside, x, np.nan), "y": y, "mode": "lines", "name": name,
         "legendgroup": group, "showlegend": showlegend, "line": {"color": color, "dash": dash, "width": width},
         "hovertemplate": hover},
        {"type": "scatter", "x": out_x, "y": y, "mode": "lines", "name": f"{name} (extrapolated)",
         "legendgroup": group, "showlegend": False,
         "line": {"color": color, "dash": "dot", "width": max(width - 1.0, 1.0)},
         "hovertemplate": hover.replace("<br>", ", extrapolated<br>", 1)},
    ]  # fmt: skip


def trace_named(spec: Mapping, name: str) -> dict:
    """The trace called ``name`` in figure JSON (``KeyError`` listing the names)."""
    for t in spec["data"]:
        if t.get("name") == name:
            return t
    raise KeyError(f"no trace {name!r}; traces: {[t.get('name') for t in spec['data']]}")


def path_mark(x, y, *, color: str, width: float = 3.5, name: str = "", dash: str = "solid") -> dict:
    """A curve drawn as a layout shape (an SVG path in data coordinates) that moves cheaply.

    For a curve a slider moves (the CF a lesson highlights): as a shape, it redraws without
    recomputing the figure's traces. Points where x or y is not finite break the path.
    It shows in the legend under ``name``; it has no hover.
    """
    parts, pen = [], "M"
    for xi, yi in zip(np.asarray(x, float), np.asarray(y, float), strict=True):
        if np.isfinite(xi) and np.isfinite(yi):
            parts.append(f"{pen}{xi:.6g},{yi:.6g}")
            pen = "L"
        else:
            pen = "M"
    shape = {
        "type": "path", "path": " ".join(parts) or "M0,0", "xref": "x", "yref": "y", "layer": "above", "opacity": 1,
        "line": {"color": color, "width": width, "dash": dash}, "visible": bool(parts),
        # no fill: the template fills a path shape black, which covered the other curves as a polygon
        "fillcolor": "rgba(0,0,0,0)",
    }  # fmt: skip
    if name:
        shape.update(name=name, showlegend=True)
    return shape


def _legend_symbol(path: str) -> str:
    """The marker symbol of a :func:`point_mark` path: its legend shows the shape the plot draws."""
    if " A " in path:
        return "circle"
    if "H" in path:
        return "square"
    corners = path.count("L")
    if corners == 3:
        return "diamond"
    return (
        "triangle-down"
        if path.startswith("M 0,0") and "-" not in path.split("L")[1].split(",")[1]
        else "triangle-up"
    )


def legend_entries(shapes: Sequence[Mapping]) -> tuple[list[dict], list[dict]]:
    """Path shapes without their legend items, and a legend-only trace for each path shape that had one.

    plotly draws a path shape's legend item as a hexagon whatever the path; the trace shows the
    diamond, square, circle or triangle a :func:`point_mark` draws, or the line of a
    :func:`path_mark`. A legend-only trace has no points: it costs a redraw only when it changes.
    """
    out_shapes, traces = [], []
    for shape in shapes:
        if not (shape.get("type") == "path" and shape.get("showlegend") and shape.get("name")):
            out_shapes.append(shape)
            continue
        out_shapes.append({**shape, "showlegend": False})
        line = shape.get("line") or {}
        entry = {"type": "scatter", "x": [None], "y": [None], "name": shape["name"], "showlegend": True,
                 "hoverinfo": "skip", "legendgroup": shape["name"]}  # fmt: skip
        if shape.get("xsizemode") == "pixel":  # a point mark: its symbol and fill
            entry |= {"mode": "markers", "marker": {"symbol": _legend_symbol(shape.get("path", "")), "size": 12,
                                                     "color": shape.get("fillcolor"),
                                                     "line": {"color": line.get("color", "white"), "width": 1}}}  # fmt: skip
        else:  # a curve or a line
            entry |= {"mode": "lines", "line": {k: line[k] for k in ("color", "width", "dash") if k in line}}
        traces.append(entry)
    return out_shapes, traces
