"""Shared pieces of every lesson's figures: style, cited source markers, captions.

Figure builders are pure functions: numbers in, a plotly ``Figure`` out; they never read
a widget. Each lesson module ``vtsmodel.lessons.<name>`` builds its own figures with
these pieces. Figure text uses Unicode and ``<sup>``/``<sub>``, never LaTeX: MathJax
would be fetched from the internet.

This module imports plotly; ``import vtsmodel`` does not import it.
"""

from __future__ import annotations

import copy
import functools
import textwrap
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from vtsmodel._tables import Provenance, cite

__all__ = [
    "COLORS",
    "STYLES",
    "caption_text",
    "figure_from_json",
    "fixed_json",
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
        wrapped = "<br>".join(textwrap.wrap(f"“{quote}”", 70)[:6])
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


def fixed_json(fig: go.Figure) -> dict:
    """The data and layout of a (validated) figure without its template, for :func:`figure_from_json`.

    Arrays stay numpy arrays, as in a figure built directly.
    """
    layout = fig.layout.to_plotly_json()
    return {
        "data": [t.to_plotly_json() for t in fig.data],
        "layout": {k: v for k, v in layout.items() if k != "template"},
    }


def figure_from_json(spec: Mapping, traces: Iterable = (), *, copy_spec: bool = True) -> go.Figure:
    """A Figure from :func:`fixed_json` output plus ``traces``, without validating it again.

    For figures whose fixed part (curves, source points) is built once and cached while a
    slider moves only an operating point: plotly checks every property when it builds a
    Figure, most of an update's time, and JSON that came out of a validated Figure needs
    no second check. ``traces`` (plotly traces, checked when made, or their JSON) are
    appended in order. The result equals building the whole figure with validation.
    ``copy_spec=False`` uses ``spec`` as it is, for a spec made for this one figure (a
    cached spec must be copied, the default).
    """
    take = copy.deepcopy if copy_spec else (lambda x: x)
    data = take(list(spec.get("data", [])))
    data += [t.to_plotly_json() if hasattr(t, "to_plotly_json") else copy.deepcopy(dict(t)) for t in traces]
    layout = take(dict(spec.get("layout", {})))
    return go.Figure({"data": data, "layout": layout}, _validate=False)


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
        return f"{float(v):.4g}"
    return str(v)


def caption_text(
    values: Mapping[str, object],
    citations: Iterable,
    *,
    title: str = "",
    width: int = 140,
) -> str:
    """The caption exported under a figure: the scenario's values and the data's citations.

    Parameters
    ----------
    values : mapping
        Labelled inputs of the figure, e.g. ``{"CF [-]": 3.0, "TVC [GB]": 1728}``.
    citations : iterable
        Table names, source ids or model functions whose sources the figure uses.
    title : str
        A first line, e.g. the scenario's name.
    width : int
        Line width in characters before wrapping.
    """
    settings = "; ".join(f"{k} = {_fmt(v)}" for k, v in values.items())
    lines = [title] if title else []
    if settings:
        lines.extend(textwrap.wrap(f"Settings: {settings}.", width))
    refs = cite(*citations) if citations else ""
    if refs:
        lines.append("Sources:")
        for ref in refs.splitlines():
            lines.extend(textwrap.wrap(ref, width))
    lines.append("Made with vtsmodel.")
    return "\n".join(lines)
