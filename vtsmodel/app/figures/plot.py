"""A figure as a cached base (what slow inputs set) and a moving part (what a slider moves), as JSON.

A :class:`Plot` names its base builder and the builder's arguments; :func:`base_spec`
builds the base once per arguments and keeps it, so a plot pane sends it only when it
changes; :func:`compose` draws the moving part over it, as the page's script does.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go

from vtsmodel import ExtrapolationWarning
from vtsmodel.app import cache
from vtsmodel.app.figures.marks import legend_entries

__all__ = ["Plot", "base_spec", "compose", "figure_json", "plain_json"]


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
        ``base(**args) -> {"data": [...], "layout": {...}}``: plain JSON (:func:`figure_json`, :func:`plain_json`); pure.
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

    def moving(self) -> dict:
        """The moving part as JSON: what a plot pane sends on every change.

        A shape named in the legend (:func:`point_mark`) is there as a legend-only trace of its
        own symbol (:func:`legend_entries`).
        """
        shapes, legend = legend_entries([plain_json(s) for s in self.shapes])
        return {
            "traces": [plain_json(t) for t in self.traces] + legend,
            "shapes": shapes,
            "annotations": [plain_json(a) for a in self.annotations],
            "layout": plain_json(dict(self.layout)),
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


def _base_json(builder: Callable[..., dict], args: tuple) -> dict:
    spec = builder(**dict(args))  # plain JSON already (figure_json, plain_json): not converted again
    if not isinstance(spec, dict) or "data" not in spec or "layout" not in spec:
        raise ValueError(f"{builder.__name__} must return figure JSON with 'data' and 'layout'")
    if spec["layout"].get("shapes"):  # a named mark's legend item with its own symbol (legend_entries)
        spec["layout"]["shapes"], legend = legend_entries(spec["layout"]["shapes"])
        spec["data"] = spec["data"] + legend
    return spec


def base_spec(plot: Plot) -> dict:
    """The base figure JSON of ``plot``, built once per ``(base, args)`` and kept (:mod:`vtsmodel.app.cache`).

    The same dict is returned for the same key, so a pane can tell by identity that the
    base did not change. Callers must not modify it.
    """
    with warnings.catch_warnings():
        # a base draws curves past the validated range on purpose (dotted); the operating
        # point's extrapolation is reported by the panel
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return cache.cached(_base_json, builder=plot.base, args=tuple(sorted(plot.args.items())))


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


def plain_json(obj):
    """Plain JSON values: numpy arrays and scalars to lists and floats, NaN to None; traces to dicts.

    Lists of plain numbers and text, and float arrays, are converted without a call per element
    (a figure's traces hold thousands).
    """
    if isinstance(obj, Mapping):
        return {str(k): plain_json(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        out = []
        for v in obj:
            kind = type(v)
            if kind is float:
                out.append(v if math.isfinite(v) else None)
            elif kind is str or kind is int or kind is bool or v is None:
                out.append(v)
            else:
                out.append(plain_json(v))
        return out
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind == "f" and obj.ndim == 1:
            values = obj.tolist()
            return values if np.isfinite(obj).all() else [v if math.isfinite(v) else None for v in values]
        if obj.dtype.kind == "f":
            return [plain_json(row) for row in obj]
        return plain_json(obj.tolist())
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if hasattr(obj, "to_plotly_json"):
        return plain_json(obj.to_plotly_json())
    return obj


def figure_json(fig: go.Figure) -> dict:
    """A validated figure as plain JSON without its template: what a base builder returns."""
    layout = fig.layout.to_plotly_json()
    return plain_json(
        {
            "data": [t.to_plotly_json() for t in fig.data],
            "layout": {k: v for k, v in layout.items() if k != "template"},
        }
    )
