"""Axis ranges that stay put while a slider moves the values under them.

A page's plot pane redraws only the traces of a figure that asks for it (:func:`in_place`)
when nothing but the traces' values, labels and names changed (``_plotpane.js``: plotly.js's
transition path, about half a full redraw); these give an axis a range that moves in steps,
so most moves of a slider keep it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = [
    "NICE_STEPS",
    "VALUE_KEYS",
    "in_place",
    "log_range",
    "nice_ceiling",
    "values_alone_changed",
    "year_range",
]


#: The steps of :func:`nice_ceiling` in each power of ten: fine enough that the values fill at
#: least three quarters of the axis (1.5 -> 2, 3 -> 4 and 6 -> 8 the coarsest), coarse enough
#: that a slider's step seldom crosses one.
NICE_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def nice_ceiling(x: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 and 8 times a power of ten at or above ``x``; 1 for ``x <= 0``.

    The top of a linear axis that stays put while a slider moves the values under it: the
    axis is redrawn only when a value crosses a step (a page redraws the traces alone then).

    Examples
    --------
    >>> nice_ceiling(0.0), nice_ceiling(2.2), nice_ceiling(7.9), nice_ceiling(8.01)
    (1.0, 2.5, 8.0, 10.0)
    """
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"nice_ceiling: x={x!r} must be finite")
    if x <= 0:
        return 1.0
    p = 10.0 ** math.floor(math.log10(x))
    for m in NICE_STEPS:
        if m * p >= x * (1 - 1e-12):
            return m * p
    return 10.0 * p  # pragma: no cover - log10's rounding at an exact power of ten


def year_range(first: int, last: int, band: int = 1) -> list[float]:
    """The range of an axis of whole years ``first`` to ``last`` (a bar centred on each), its end in steps of ``band`` years.

    The axis ends at the first year ``first + k * band`` at or after ``last``, so a page moving the
    years one at a time keeps it while the last year stays in its band of ``band`` years (and
    redraws the bars alone); ``band=1`` (a report) ends it at ``last``.

    Examples
    --------
    >>> year_range(0, 5, 5), year_range(0, 6, 5), year_range(0, 10, 5), year_range(0, 6)
    ([-0.6, 5.6], [-0.6, 10.6], [-0.6, 10.6], [-0.6, 6.6])
    """
    if isinstance(band, bool) or not isinstance(band, int) or band < 1:
        raise ValueError(f"year_range: band={band!r} must be a whole number of years >= 1")
    if last < first:
        raise ValueError(f"year_range: last={last!r} must be >= first={first!r}")
    end = first + band * max(1, math.ceil((last - first) / band))
    return [first - 0.6, end + 0.6]


def log_range(lo: float, hi: float, ticks: Sequence[float], pad: float = 0.06) -> list[float]:
    """A log axis's range [log10 units] over ``lo`` to ``hi`` and ``ticks``, widened to the 1, 2, 5 values around them.

    The range moves only when a value crosses one of those (as :func:`nice_ceiling` does for a
    linear axis); ``pad`` decades either side keep a marker on the edge whole.

    Examples
    --------
    >>> [round(v, 3) for v in log_range(150.0, 4000.0, [200.0, 500.0, 1000.0, 2000.0])]
    [1.94, 3.759]
    """
    lo, hi = float(lo), float(hi)
    if not (0 < lo <= hi and math.isfinite(hi)):
        raise ValueError(f"log_range: lo={lo!r} and hi={hi!r} must be positive and finite, lo <= hi")
    steps = [m * 10.0**e for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 2)
             for m in (1, 2, 5)]  # fmt: skip
    below = max(t for t in steps if t <= lo * (1 + 1e-12))
    above = min(t for t in steps if t >= hi * (1 - 1e-12))
    low, high = min([below, *ticks]), max([above, *ticks])
    return [math.log10(low) - pad, math.log10(high) + pad]


def in_place() -> dict:
    """The ``layout.transition`` of a figure whose axes stay put (:func:`nice_ceiling`, :func:`log_range`).

    A move that changes only its traces' values, labels and names is then redrawn by plotly.js's
    transition path without an animation (``_plotpane.js``); any other change, in full. A figure
    whose axes follow the data (autorange) must not ask: that path leaves them as they were.
    """
    return {"duration": 0}


#: What a trace may change and still be redrawn by the transition path: its values, their labels and
#: its name (``_plotpane.js``'s ``VALUE_KEYS``, the same list: a test reads both).
VALUE_KEYS = ("x", "y", "text", "hovertext", "name")


def values_alone_changed(before: Mapping, after: Mapping) -> bool:
    """Whether two figures differ in their traces' values, labels and names alone (:data:`VALUE_KEYS`).

    A move between them is what the page redraws by the transition path, for a figure that asks
    (:func:`in_place`).
    """

    def rest(fig: Mapping) -> tuple:
        return fig["layout"], [{k: v for k, v in t.items() if k not in VALUE_KEYS} for t in fig["data"]]

    return before != after and rest(before) == rest(after)
