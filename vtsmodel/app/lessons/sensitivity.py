"""Lesson 07, the sensitivity: how far each answer moves each result, as a tornado.

:func:`vtsmodel.plan.sensitivity` with the recommended (or closest) configuration held fixed
(:meth:`~vtsmodel.app.lessons.configurations.PlanEvaluation.sensitivity`, kept like every
evaluation); the page computes it after the other figures (it costs as much as the rest of
an update). The page is :mod:`vtsmodel.app.lessons.planner`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable, Generator

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
#: Seconds between two of the tornado's steps [s]. A page's message reaches the kernel's main
#: thread in a few turns of its event loop (ipykernel's shell thread, then its queue): steps
#: that followed one another at once ran one per turn, and a move made during the tornado waited
#: for several (34 ms p50 on the planner), where with this pause it waits for one (BENCHMARKS.md).
TORNADO_STEP_PAUSE_S = 0.004
_UPDATING = {"text": "updating…", "xref": "paper", "yref": "paper", "x": 1, "y": 1, "xanchor": "right",
             "yanchor": "bottom", "showarrow": False, "font": {"color": "#B00020", "size": 13}}  # fmt: skip


class DeferredTornado:
    """The tornado a page shows: computed on the kernel's event loop after the other figures, a step at a time.

    :meth:`shown` gives the tornado to draw for an evaluation: its own where it is already
    computed (or where nothing is deferred: ``defer`` False, or no event loop runs), else the
    one shown before, marked "updating…", while the new one is computed on the event loop,
    :data:`TORNADO_DELAY_S` after the last change, one evaluation of the plan per callback
    (:meth:`~vtsmodel.app.lessons.configurations.PlanEvaluation.sensitivity_steps`, a few ms
    each, :data:`TORNADO_STEP_PAUSE_S` apart), then ``update()`` (the page's) draws it. Between
    two steps the kernel takes the page's next message: a move made while the tornado is
    computed waits for one step, not for the whole of it (54-140 ms on the planner), and drops
    the computation for its own.
    """

    def __init__(self, update: Callable[[], None], *, defer: bool = True) -> None:
        self.update, self.defer = update, defer
        self._handle = None
        self._steps: Generator | None = None
        self._shown: Plot | None = None
        #: The evaluations of the tornado being computed made and to make, ``(done, total)``; None when none is.
        self.progress: tuple[int, int] | None = None

    def shown(self, evaluation, fraction: float) -> Plot:
        """The tornado to draw for ``evaluation`` (a :class:`~.configurations.PlanEvaluation`), each answer moved by ``fraction``."""
        if (
            self._shown is not None
            and not evaluation.sensitivity_ready(fraction)
            and self._later(evaluation, fraction)
        ):
            return Plot(self._shown.base, self._shown.args, annotations=[_UPDATING])
        self._stop()
        self._shown = tornado_plot(evaluation.sensitivity(fraction))
        return self._shown

    @property
    def pending(self) -> bool:
        """Whether a tornado is waiting to be computed or being computed."""
        return self._handle is not None or self._steps is not None

    def _stop(self) -> None:
        """Drop the tornado waiting or being computed (nothing of it is kept)."""
        if self._handle is not None:
            self._handle.cancel()
        self._handle = None
        if self._steps is not None:
            self._steps.close()
        self._steps, self.progress = None, None

    def _later(self, evaluation, fraction: float) -> bool:
        """Start computing ``evaluation``'s tornado on the kernel's event loop (debounced); False where none runs."""
        if not self.defer:
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self._stop()
        self._steps = evaluation.sensitivity_steps(fraction)
        self._handle = loop.call_later(TORNADO_DELAY_S, self._step)
        return True

    def _step(self) -> None:
        """One evaluation of the tornado's; the next after the event loop has looked at its messages; drawn once done."""
        self._handle = None
        steps = self._steps
        if steps is None:
            return
        try:
            self.progress = next(steps)
        except StopIteration:
            self._steps, self.progress = None, None
            self.finish()  # kept now: the update draws it
            return
        except Exception:  # noqa: BLE001 - shown by the page's update, which computes (and raises) it again
            self._steps, self.progress = None, None
            self.finish()
            return
        self._handle = asyncio.get_running_loop().call_later(TORNADO_STEP_PAUSE_S, self._step)

    def finish(self) -> None:
        """Compute the tornado of the answers shown, now (the steps left, if any), and update the page."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        steps, self._steps, self.progress = self._steps, None, None
        if steps is not None:
            with contextlib.suppress(Exception):  # raised again by the update's own computation
                for _ in steps:
                    pass
        self.defer, defer = False, self.defer
        try:
            self.update()
        finally:
            self.defer = defer
