"""Lesson 07, the sensitivity: how far each answer moves each result, as a tornado.

:func:`vtsmodel.plan.sensitivity` with the recommended (or closest) configuration held fixed,
kept like the evaluations; the page computes it after the other figures (it costs as much as
the rest of an update). The page is :mod:`vtsmodel.app.lessons.planner`.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import OrderedDict
from collections.abc import Callable

from vtsmodel import plan
from vtsmodel.app import report
from vtsmodel.app.figures import Plot
from vtsmodel.app.lessons.configurations import answers_key, hits_of, kept, thaw, tidy
from vtsmodel.app.lessons.hit_curve import LogSource

#: Answers the tornado does not depend on (they only pick the configuration, which is its own argument).
_NOT_TORNADO = ("throttle_hours_allowed", "delay_hours_allowed", "virtual_drives_needed")
_sensitivities: OrderedDict = OrderedDict()


def tornado_key(answers: plan.Answers) -> tuple:
    """The answers the tornado depends on, as a base's argument."""
    return answers_key(answers, _NOT_TORNADO)


def tornado_data(
    answers: tuple, workload, configuration: str, fraction: float, log: LogSource | None = None
) -> plan.Sensitivity:
    """The sensitivity (:func:`vtsmodel.plan.sensitivity`) with ``configuration`` held fixed; kept like the plans.

    With a mount log ``log``, each configuration's read hits come from it.
    """

    def make():
        config = next(c for c in plan.vts_configurations() if c.label == configuration)
        p = plan.Plan(plan.Answers(**dict(answers)), workload=thaw(workload), hits=hits_of(log))
        return plan.sensitivity(p, fraction=fraction, configuration=config)

    return kept(_sensitivities, (answers, workload, configuration, fraction, log), make)


def tornado_ready(
    answers: tuple, workload, configuration: str, fraction: float, log: LogSource | None = None
) -> bool:
    """Whether that sensitivity is already computed."""
    return (answers, workload, configuration, fraction, log) in _sensitivities


def moving_rows(sens: plan.Sensitivity) -> plan.Sensitivity:
    """The sensitivity without the inputs that move no answer (every bar left is drawn and labelled)."""
    rows = tuple(r for r in sens.rows if r.swing > 0)
    return dataclasses.replace(sens, rows=rows) if rows else sens


def tornado_base(
    configuration: str, answers: tuple, workload, fraction: float, log: LogSource | None = None
) -> dict:
    """The tornado for ``configuration`` held fixed (:func:`~vtsmodel.app.report.tornado_figure`).

    Inputs that move no answer are left out, and every bar's label is shown (plotly skips
    category labels where they crowd, which would leave bars beside other inputs' names).
    """
    fig = report.tornado_figure(moving_rows(tornado_data(answers, workload, configuration, fraction, log)))
    fig.update_yaxes(tickmode="linear", tick0=0, dtick=1)
    return tidy(fig, height=int(fig.layout.height), legend_rows=1, bottom=40)


# --- the tornado after the other figures -----------------------------------------------------------

#: Seconds a page waits after the last change before it recomputes the tornado (it costs as much
#: as the rest of an update; the page shows the previous one, marked, meanwhile). [s]
TORNADO_DELAY_S = 0.25
_UPDATING = {"text": "updating…", "xref": "paper", "yref": "paper", "x": 1, "y": 1, "xanchor": "right",
             "yanchor": "bottom", "showarrow": False, "font": {"color": "#B00020", "size": 13}}  # fmt: skip


class DeferredTornado:
    """The tornado a page shows: computed on the kernel's event loop after the other figures.

    :meth:`shown` gives the tornado to draw for a new view: the new one where it is already
    computed (or where nothing is deferred: ``defer`` False, or no event loop runs), else the
    one shown before, marked "updating…", while ``update()`` (the page's) is scheduled
    :data:`TORNADO_DELAY_S` after the last change.
    """

    def __init__(self, update: Callable[[], None], *, defer: bool = True) -> None:
        self.update, self.defer = update, defer
        self._handle = None
        self._shown: Plot | None = None

    def shown(self, tornado: Plot) -> Plot:
        """The plot to draw for ``tornado`` (a :func:`tornado_base` plot)."""
        if self._shown is not None and not tornado_ready(**tornado.args) and self._later():
            return Plot(self._shown.base, self._shown.args, annotations=[_UPDATING])
        self._shown = tornado
        return tornado

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
