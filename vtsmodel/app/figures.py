"""Shared pieces of every lesson's figures: style, cited source markers, captions.

Figure builders are pure functions: numbers in, a plotly ``Figure`` out; they never read
a widget. Each lesson module ``vtsmodel.app.lessons.<name>`` builds its own figures with
these pieces. Figure text uses Unicode and ``<sup>``/``<sub>``, never LaTeX: MathJax
would be fetched from the internet.

This module imports plotly; ``import vtsmodel`` does not import it.
"""

from __future__ import annotations

import copy
import functools
import html
import textwrap
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from vtsmodel._inputs import number
from vtsmodel._tables import Provenance, cite
from vtsmodel._validation import ExtrapolationWarning
from vtsmodel.app.text import plain_math

__all__ = [
    "COLORS",
    "Plot",
    "alert_note",
    "base_spec",
    "compose",
    "frame_validated",
    "html_table",
    "inputs_table_html",
    "line_mark",
    "off_scale_note",
    "padded",
    "slow_value",
    "figure_json",
    "path_mark",
    "point_mark",
    "source_table_html",
    "trace_named",
    "validated_curve",
    "STYLES",
    "caption_text",
    "new_figure",
    "operating_point",
    "source_markers",
    "style_figure",
    "template_json",
]

#: A colour-blind-safe qualitative palette (Okabe and Ito).
COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")

#: The plotly template the styles build on.
BASE_TEMPLATE = "simple_white"

#: Export styles: "light" for slides and screens, "print" for paper (no fill, darker ink).
STYLES = {
    "light": {
        "font": {"family": "Arial, Helvetica, sans-serif", "size": 14, "color": "#222"},
        "paper_bgcolor": "white",
        "plot_bgcolor": "#F7F7F7",
        "grid": "#DDDDDD",
    },
    "print": {
        "font": {"family": "Arial, Helvetica, sans-serif", "size": 13, "color": "black"},
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "grid": "#BBBBBB",
    },
}


@functools.cache
def _style_layout(style: str) -> dict:
    """The layout entries of a style, without the plotly template (cheap to apply)."""
    s = STYLES[style]
    axis = {"showgrid": True, "gridcolor": s["grid"], "zeroline": False, "ticks": "outside",
            "showline": True, "linecolor": "#444", "mirror": False}  # fmt: skip
    return {
        "font": s["font"],
        "paper_bgcolor": s["paper_bgcolor"],
        "plot_bgcolor": s["plot_bgcolor"],
        "colorway": list(COLORS),
        "legend": {"bgcolor": "rgba(255,255,255,0.8)"},
        "hoverlabel": {"align": "left"},
        "xaxis": dict(axis),
        "yaxis": dict(axis),
    }


@functools.cache
def _template_json() -> dict:
    return pio.templates[BASE_TEMPLATE].to_plotly_json()


def template_json() -> dict:
    """The plotly template every vtsmodel figure is drawn with, as JSON (built once).

    Figure builders leave the template out (building it costs tens of milliseconds per
    figure); the plot panes and the exports add it.
    """
    return _template_json()


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise ValueError(f"style={style!r} is not valid; choose one of {', '.join(map(repr, STYLES))}")


def style_figure(fig: go.Figure, style: str = "light") -> go.Figure:
    """Apply a proposal-ready style, template included, to ``fig`` in place and return it."""
    _check_style(style)
    fig.update_layout(template=BASE_TEMPLATE, **copy.deepcopy(_style_layout(style)))
    return fig


def new_figure(
    *,
    title: str = "",
    xaxis_title: str = "",
    yaxis_title: str = "",
    height: int = 420,
    width: int | None = None,
    style: str = "light",
) -> go.Figure:
    """An empty figure with the project's style and sensible margins.

    The figure carries no template (see :func:`template_json`): panes and exports add it.
    """
    _check_style(style)
    layout = copy.deepcopy(_style_layout(style))
    layout["xaxis"]["title"] = {"text": xaxis_title}
    layout["yaxis"]["title"] = {"text": yaxis_title}
    layout.update(
        height=height,
        margin={"l": 70, "r": 20, "t": 50 if title else 20, "b": 60},
    )
    if title:
        layout["title"] = {"text": title, "x": 0.0, "xanchor": "left"}
    if width:
        layout["width"] = width
    return go.Figure(layout=layout)


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


def operating_point(x: float, y: float, *, name: str = "this setting", color: str = "#D55E00") -> go.Scatter:
    """A single highlighted marker for the current setting of the controls."""
    return go.Scatter(
        x=[float(x)],
        y=[float(y)],
        mode="markers",
        name=name,
        marker={"color": color, "size": 14, "symbol": "diamond", "line": {"width": 1, "color": "white"}},
        hovertemplate=f"{name}<br>x=%{{x:.3g}}<br>y=%{{y:.3g}}<extra></extra>",
    )


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float | int | np.floating | np.integer):
        return number(v, 4)
    return str(v)


def caption_text(
    values: Mapping[str, object],
    citations: Iterable,
    *,
    title: str = "",
    notes: Iterable[str] = (),
    width: int | None = None,
) -> str:
    """The caption exported under a figure: the settings, any extrapolation, the citations.

    Parameters
    ----------
    values : mapping
        Labelled inputs of the figure, e.g. ``{"CF [-]": 3.0, "TVC [GB]": 1728}``.
    citations : iterable
        Table names, source ids or model functions whose sources the figure uses.
    title : str
        A first line, e.g. the panel's title or the scenario's name.
    notes : iterable of str
        Sentences that qualify the figure (an input outside the range a source validated).
    width : int, optional
        Line width in characters to wrap at; default: one line per paragraph (an export
        wraps the caption to the figure's width).
    """

    def wrap(text: str) -> list[str]:
        return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) if width else [text]

    settings = "; ".join(f"{k} = {_fmt(v)}" for k, v in values.items())
    lines = [title] if title else []
    if settings:
        lines.extend(wrap(f"Settings: {settings}."))
    for note in notes:
        lines.extend(wrap(f"Note: {note}"))
    refs = cite(*citations) if citations else ""
    if refs:
        lines.append("Sources:")
        for ref in refs.splitlines():
            lines.extend(wrap(ref))
    from vtsmodel import REFERENCE

    lines.append(f"Made with {REFERENCE}")
    return "\n".join(lines)


# --- figures as a cached base and moving parts ------------------------------------------------


@dataclass(frozen=True, eq=False)
class Plot:
    """A figure as the part that depends only on slow inputs and the part a slider moves.

    ``base(**args)`` builds the fixed part (curves, cited source points, axes) as figure
    JSON; a panel caches it by ``(base, args)`` (:func:`base_spec`) and sends it to the
    browser only when ``args`` change. The moving part (``traces``, ``shapes``,
    ``annotations``, ``layout``) is sent on every change and drawn over the base; moving
    shapes and annotations (an operating point, :func:`point_mark`) redraw without
    recomputing the base's traces.

    Attributes
    ----------
    base : callable
        ``base(**args) -> {"data": [...], "layout": {...}}``; pure.
    args : mapping
        Keyword arguments of ``base``: hashable values (floats, strings, tuples).
    traces : sequence of dict
        Moving traces, drawn after the base's.
    shapes, annotations : sequence of dict
        Moving layout shapes and annotations, drawn after the base's.
    layout : mapping
        Other layout entries that move (merged over the base's).
    citations : tuple
        What this figure draws on (table names, source ids, model functions), where it
        differs from its view's: an exported caption cites these.
    """

    base: Callable[..., dict]
    args: Mapping = field(default_factory=dict)
    traces: Sequence = ()
    shapes: Sequence = ()
    annotations: Sequence = ()
    layout: Mapping = field(default_factory=dict)
    citations: tuple = ()

    @property
    def key(self) -> tuple:
        """The base's cache key: the builder and its arguments."""
        return (self.base, tuple(sorted(self.args.items())))

    def moving(self) -> dict:
        """The moving part as JSON: what a plot pane sends on every change."""
        return {
            "traces": [_json(t) for t in self.traces],
            "shapes": [_json(s) for s in self.shapes],
            "annotations": [_json(a) for a in self.annotations],
            "layout": _json(dict(self.layout)),
        }

    def spec(self) -> dict:
        """The whole figure as JSON: the base with the moving part drawn over it."""
        return compose(base_spec(self), self.moving())

    def figure(self) -> go.Figure:
        """The whole figure as a plotly ``Figure`` (validated: for tests and exports)."""
        return go.Figure(self.spec())

    def with_traces(self, extra: Sequence) -> Plot:
        """A copy with ``extra`` moving traces appended (scenario overlays)."""
        return Plot(self.base, self.args, (*self.traces, *extra), self.shapes, self.annotations, self.layout,
                    self.citations)  # fmt: skip


#: Bases kept per process (figures x settings of their slow inputs).
BASE_CACHE_SIZE = 256
_bases: OrderedDict = OrderedDict()


def base_spec(plot: Plot) -> dict:
    """The base figure JSON of ``plot``, built once per ``(base, args)`` and kept (LRU).

    The same dict is returned for the same key, so a pane can tell by identity that the
    base did not change. Callers must not modify it.
    """
    key = plot.key
    spec = _bases.get(key)
    if spec is not None:
        _bases.move_to_end(key)
        return spec
    with warnings.catch_warnings():
        # a base draws curves past the validated range on purpose (dotted); the operating
        # point's extrapolation is reported by the panel
        warnings.simplefilter("ignore", ExtrapolationWarning)
        spec = _json(plot.base(**plot.args))
    if "data" not in spec or "layout" not in spec:
        raise ValueError(f"{plot.base.__name__} must return figure JSON with 'data' and 'layout'")
    _bases[key] = spec
    if len(_bases) > BASE_CACHE_SIZE:
        _bases.popitem(last=False)
    return spec


_values: OrderedDict = OrderedDict()


def slow_value(func: Callable, **args):
    """``func(**args)``, computed once per arguments and kept like the figure bases (LRU).

    For a value that depends only on a figure's slow inputs and that its view needs too (a
    calibration solved for the curves, then read out beside them): the base and the view
    both call ``slow_value(func, **args)`` and the solve runs once per setting. ``args`` are
    hashable (floats, strings, tuples); an exception is not kept (the next call raises it
    again). Extrapolation warnings are the base's, not the operating point's: silenced.
    """
    key = (func, tuple(sorted(args.items())))
    if key in _values:
        _values.move_to_end(key)
        return _values[key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        value = func(**args)
    _values[key] = value
    if len(_values) > BASE_CACHE_SIZE:
        _values.popitem(last=False)
    return value


def compose(base: Mapping, moving: Mapping) -> dict:
    """The figure JSON of a base with a moving part drawn over it (a new dict; inputs unchanged).

    Moving traces follow the base's; moving shapes and annotations follow the base's; other
    moving layout entries are merged over the base's (nested dicts merged). The plot
    pane's script (``_plotpane.js``) composes the same way.
    """
    layout = copy.deepcopy(dict(base.get("layout", {})))
    for key in ("shapes", "annotations"):
        extra = list(moving.get(key, ()))
        if extra:
            layout[key] = [*layout.get(key, []), *copy.deepcopy(extra)]
    _merge_into(layout, moving.get("layout", {}))
    data = copy.deepcopy(list(base.get("data", []))) + copy.deepcopy(list(moving.get("traces", [])))
    return {"data": data, "layout": layout}


def _merge_into(target: dict, extra: Mapping) -> None:
    for k, v in extra.items():
        if isinstance(v, Mapping) and isinstance(target.get(k), dict):
            _merge_into(target[k], v)
        else:
            target[k] = copy.deepcopy(v)


def _json(obj):
    """Plain JSON values: numpy arrays and scalars to lists and floats, NaN to None; traces to dicts."""
    if hasattr(obj, "to_plotly_json"):
        obj = obj.to_plotly_json()
    if isinstance(obj, Mapping):
        return {str(k): _json(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "fc":
            return (
                [None if not np.isfinite(v) else float(v) for v in obj.ravel().tolist()]
                if obj.ndim == 1
                else [_json(row) for row in obj]
            )
        return _json(obj.tolist())
    if isinstance(obj, list | tuple):
        return [_json(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not np.isfinite(obj):
        return None
    return obj


def figure_json(fig: go.Figure) -> dict:
    """A validated figure as plain JSON without its template: what a base builder returns."""
    layout = fig.layout.to_plotly_json()
    return _json(
        {
            "data": [t.to_plotly_json() for t in fig.data],
            "layout": {k: v for k, v in layout.items() if k != "template"},
        }
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


#: How each status of the statement ledger reads in a source table.
STATUS_STYLE = {
    "reproduced": ("#1B7F3B", "a model reproduces it"),
    "calibrated": ("#8A6D00", "a model constant was solved or fitted to it: an input, not evidence"),
    "data-only": ("#555555", "kept as a cited value; nothing models it"),
    "contradicted": ("#B00020", "the model disagrees; the ledger's note says by how much and why"),
    "source-inconsistent": ("#7A3E9D", "the source contradicts itself; the ledger shows the arithmetic"),
}


def source_table_html(rows: Iterable[tuple[str, str]]) -> str:
    """Cited data rows as an HTML table: id, as printed, value, unit, source and locator, ledger status.

    ``rows`` are ``(table, row id)`` pairs. Hovering a row shows the sentence it came from;
    hovering its status, what the statement ledger says of it (``data/statements.csv``).
    """
    from vtsmodel._tables import load
    from vtsmodel.data import statement_status, statements_for

    head = "".join(f"<th style='text-align:{'right' if h == 'value' else 'left'};padding:1px 6px'>{h}</th>"
                   for h in ("id", "printed", "value", "unit", "source, locator", "status"))  # fmt: skip
    body = []
    for table, rid in rows:
        p = load(table).provenance(rid)
        ref = f"{table}:{rid}"
        status = statement_status(ref) or ""
        color, meaning = STATUS_STYLE.get(status, ("#555555", ""))
        notes = " | ".join(f"{s['id']}: {s['claim']} {s['note']}".strip() for s in statements_for(ref))
        tip = html.escape(plain_math(f"{status}: {meaning}. {notes}".strip(" .")) if status else "")
        left = "style='text-align:left'"  # a notebook's output right-aligns cells unless told
        body.append(
            f"<tr title='{html.escape(plain_math(p.quote or p.note))}'><td {left}><code>{html.escape(rid)}</code></td>"
            f"<td {left}>{html.escape(p.printed)}</td><td style='text-align:right'>{number(p.value, 6)}</td>"
            f"<td {left}>{html.escape(p.unit)}</td><td {left}>{html.escape(p.source)}, {html.escape(p.locator)}</td>"
            f"<td class='vtsmodel-status' data-status='{status}' title='{tip}' style='color:{color};text-align:left'>"
            f"{status}</td></tr>"
        )
    return (
        "<table class='vtsmodel-sources' style='border-collapse:collapse'><thead><tr>" + head + "</tr></thead><tbody>"
        + "".join(body) + "</tbody></table>"
    )  # fmt: skip


_CELL = "style='text-align:left;vertical-align:top;padding:2px 8px'"


def html_table(head: Sequence[str], rows: Iterable[Sequence[str]], *, css_class: str = "") -> str:
    """Rows of text cells as an HTML table, each cell escaped, left- and top-aligned, under ``head``."""
    th = "".join(f"<th {_CELL}>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td {_CELL}>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table class='{css_class}'><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def inputs_table_html(inputs, *, what: str = "input", css_class: str = "vtsmodel-inputs") -> str:
    """Inputs (:class:`~vtsmodel.Input`) as a page offers them: label, unit, default, the control's range, its source.

    A choice of more than four options says how many (the list is on the page).
    """

    def rng(inp) -> str:
        return (
            f"one of {len(inp.options)} (the list on the page)" if len(inp.options) > 4 else inp.range_text()
        )

    rows = [
        (i.label, i.unit, i.format(i.default), rng(i), " ".join(i.source.split())) for i in inputs.values()
    ]
    return html_table((what, "unit", "default", "range on the page", "source"), rows, css_class=css_class)


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
    }  # fmt: skip
    if name:
        shape.update(name=name, showlegend=True)
    return shape
