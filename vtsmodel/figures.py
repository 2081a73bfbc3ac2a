"""Shared pieces of every lesson's figures: style, cited source markers, captions.

Figure builders are pure functions: numbers in, a plotly ``Figure`` out; they never read
a widget. Each lesson module ``vtsmodel.lessons.<name>`` builds its own figures with
these pieces. Figure text uses Unicode and ``<sup>``/``<sub>``, never LaTeX: MathJax
would be fetched from the internet.

This module imports plotly; ``import vtsmodel`` does not import it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from vtsmodel._tables import Provenance, cite

__all__ = [
    "COLORS",
    "STYLES",
    "caption_text",
    "new_figure",
    "operating_point",
    "source_markers",
    "style_figure",
]

#: A colour-blind-safe qualitative palette (Okabe and Ito).
COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")

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


def style_figure(fig: go.Figure, style: str = "light") -> go.Figure:
    """Apply a proposal-ready style to ``fig`` in place and return it."""
    if style not in STYLES:
        raise ValueError(f"style={style!r} is not valid; choose one of {', '.join(map(repr, STYLES))}")
    s = STYLES[style]
    fig.update_layout(
        template="simple_white",
        font=s["font"],
        paper_bgcolor=s["paper_bgcolor"],
        plot_bgcolor=s["plot_bgcolor"],
        colorway=list(COLORS),
        legend={"bgcolor": "rgba(255,255,255,0.8)"},
        hoverlabel={"align": "left"},
    )
    fig.update_xaxes(showgrid=True, gridcolor=s["grid"], zeroline=False, ticks="outside")
    fig.update_yaxes(showgrid=True, gridcolor=s["grid"], zeroline=False, ticks="outside")
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
    """An empty figure with the project's style and sensible margins."""
    fig = go.Figure()
    style_figure(fig, style)
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left"} if title else None,
        xaxis_title=xaxis_title,
        yaxis_title=yaxis_title,
        height=height,
        width=width,
        margin={"l": 70, "r": 20, "t": 50 if title else 20, "b": 60},
    )
    return fig


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
