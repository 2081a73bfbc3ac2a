"""The look of every vtsmodel figure: palette, styles, the plotly template, an empty styled figure.

Figure builders leave the template out (building it costs tens of milliseconds per figure);
the plot panes and the exports add it (:func:`template_json`).
"""

from __future__ import annotations

import copy
import functools

import plotly.graph_objects as go
import plotly.io as pio

__all__ = [
    "BASE_TEMPLATE",
    "COLORS",
    "STYLES",
    "check_style",
    "new_figure",
    "new_layout",
    "style_figure",
    "style_layout",
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
def style_layout(style: str) -> dict:
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
    template = pio.templates[BASE_TEMPLATE].to_plotly_json()
    for axis in ("xaxis", "yaxis"):  # every axis of every figure
        # plotly.js's default ("hide past div") measures every tick label against the page on each
        # draw: about a third of a slider's redraw; with automargin no label runs past the figure
        template["layout"][axis]["ticklabeloverflow"] = "allow"
    return template


def template_json() -> dict:
    """The plotly template every vtsmodel figure is drawn with, as JSON (built once).

    Figure builders leave the template out (building it costs tens of milliseconds per
    figure); the plot panes and the exports add it.
    """
    return _template_json()


def check_style(style: str) -> None:
    """``ValueError`` naming ``style`` unless it is one of :data:`STYLES`."""
    if style not in STYLES:
        raise ValueError(f"style={style!r} is not valid; choose one of {', '.join(map(repr, STYLES))}")


def style_figure(fig: go.Figure, style: str = "light") -> go.Figure:
    """Apply a proposal-ready style, template included, to ``fig`` in place and return it."""
    check_style(style)
    fig.layout.template = template_json()  # replaced, not merged into the figure's own
    fig.update_layout(**copy.deepcopy(style_layout(style)))
    return fig


def new_layout(
    *,
    title: str = "",
    xaxis_title: str = "",
    yaxis_title: str = "",
    height: int = 420,
    width: int | None = None,
    style: str = "light",
) -> dict:
    """The layout of :func:`new_figure` as plain JSON (a new dict), for figures written as JSON directly."""
    check_style(style)
    layout = copy.deepcopy(style_layout(style))
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
    return layout


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
    layout = new_layout(
        title=title, xaxis_title=xaxis_title, yaxis_title=yaxis_title, height=height, width=width, style=style
    )
    return go.Figure(layout=layout)
