"""Lesson 07, the sensitivity: how far each answer moves each result, as a tornado.

:func:`vtsmodel.plan.sensitivity` with the recommended (or closest) configuration held fixed
(:meth:`~vtsmodel.app.lessons.configurations.PlanEvaluation.sensitivity`, kept like every
evaluation); the page computes it after the other figures (it costs as much as the rest of
an update). The page is :mod:`vtsmodel.app.lessons.planner`.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

from vtsmodel import plan
from vtsmodel.app.figures import Plot
from vtsmodel.app.figures import plan as plan_figures


def moving_rows(sens: plan.Sensitivity) -> plan.Sensitivity:
    """The sensitivity without the inputs that move no answer (every bar left is drawn and labelled)."""
    rows = tuple(r for r in sens.rows if r.swing > 0)
    return dataclasses.replace(sens, rows=rows) if rows else sens


def tornado_base(sens: plan.Sensitivity) -> dict:
    """The tornado (:func:`~vtsmodel.app.figures.plan.tornado_spec`), inputs that move no answer left out, every bar labelled."""
    spec = plan_figures.tornado_spec(moving_rows(sens), every_label=True)
    return plan_figures.for_page(spec, height=int(spec["layout"]["height"]), legend_rows=1, bottom=40)


def tornado_plot(sens: plan.Sensitivity) -> Plot:
    """The tornado's plot: a base kept per sensitivity, nothing moving."""
    return Plot(tornado_base, {"sens": sens})


# --- the tornado after the other figures -----------------------------------------------------------

#: Seconds a page waits after the last change before it recomputes the tornado (it costs as much
#: as the rest of an update; the page shows the previous one, marked, meanwhile). [s]
TORNADO_DELAY_S = 0.25
_UPDATING = {"text": "updating…", "xref": "paper", "yref": "paper", "x": 1, "y": 1, "xanchor": "right",
             "yanchor": "bottom", "showarrow": False, "font": {"color": "#B00020", "size": 13}}  # fmt: skip


class DeferredTornado:
    """The tornado a page shows: computed on the kernel's event loop after the other figures.

    :meth:`shown` gives the tornado to draw for an evaluation: its own where it is already
    computed (or where nothing is deferred: ``defer`` False, or no event loop runs), else the
    one shown before, marked "updating…", while ``update()`` (the page's) is scheduled
    :data:`TORNADO_DELAY_S` after the last change.
    """

    def __init__(self, update: Callable[[], None], *, defer: bool = True) -> None:
        self.update, self.defer = update, defer
        self._handle = None
        self._shown: Plot | None = None

    def shown(self, evaluation, fraction: float) -> Plot:
        """The tornado to draw for ``evaluation`` (a :class:`~.configurations.PlanEvaluation`), each answer moved by ``fraction``."""
        if self._shown is not None and not evaluation.sensitivity_ready(fraction) and self._later():
            return Plot(self._shown.base, self._shown.args, annotations=[_UPDATING])
        self._shown = tornado_plot(evaluation.sensitivity(fraction))
        return self._shown

    def _later(self) -> bool:
        """Schedule the update on the kernel's event loop (debounced); False where none runs."""
        if not self.defer:
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if self._handle is not None:
            self._handle.cancel()
        self._handle = loop.call_later(TORNADO_DELAY_S, self.finish)
        return True

    def finish(self) -> None:
        """Compute the tornado of the answers shown, now."""
        self._handle = None
        self.defer, defer = False, self.defer
        try:
            self.update()
        finally:
            self.defer = defer
