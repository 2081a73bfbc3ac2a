"""Lesson 07, the evaluation: the page's answers, workload and mount log through the planner, once per setting.

:func:`evaluate_plan` (the page's stage) runs :func:`vtsmodel.plan.vts_plan` and
:func:`vtsmodel.plan.library_plan` for one setting and returns a :class:`PlanEvaluation`,
which every figure, readout, sheet row and the report read. The VTS plan is kept per the
answers it reads (:mod:`vtsmodel.app.cache`): a change of the library's answers alone
evaluates the library only. Then the readouts of the recommendation and the figure of every
configuration's numbers (a base keyed by those numbers: the targets and the recommended
configuration are moving marks). The page is :mod:`vtsmodel.app.lessons.planner`.
Sources: ibm-vts-b18-2000, Secs. 8.3 and 8.4.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Generator
from dataclasses import dataclass

from vtsmodel import plan
from vtsmodel.app import cache
from vtsmodel.app.figures import plan as plan_figures
from vtsmodel.app.figures.axes import in_place
from vtsmodel.app.lessons.hit_curve import LogSource, curve_of
from vtsmodel.app.text import number
from vtsmodel.hourly import HourlyWorkload
from vtsmodel.plan.day import PlanDay, plan_day

_DEFAULT_ANSWERS = plan.Answers().to_dict()
#: Answers only the tape-library plan depends on.
LIBRARY_ONLY = ("library_drive", "peak_factor", "files_per_mount", *plan.ARCHIVE_ANSWERS)


def hits_of(log: LogSource | None):
    """The read-hit curve of a mount log (:func:`~.hit_curve.curve_of`, no warm-up, as the CLI's), or None."""
    return None if log is None else curve_of(log, 0.0)


def answers_key(answers: plan.Answers, drop=()) -> tuple:
    """``answers`` as a hashable tuple of ``(name, value)``, without those in ``drop``."""
    return tuple((k, v) for k, v in answers.to_dict().items() if k not in drop)


def the_plan(answers: plan.Answers, workload: HourlyWorkload | None, log: LogSource | None) -> plan.Plan:
    """The :class:`~vtsmodel.plan.Plan` of the answers, an hourly workload and a mount log (its read hits)."""
    return plan.Plan(answers, workload=workload, hits=hits_of(log), mount_log_file=log and log.name,
                     mount_log_reading=log.reading if log is not None else {}, log=log and log.log)  # fmt: skip


def _vts_plan(
    answers: tuple, workload: HourlyWorkload | None, log: LogSource | None
) -> tuple[plan.VtsPlan, PlanDay]:
    """Every VTS configuration for ``answers``, and the hours evaluated (neither reads the library's answers)."""
    p = the_plan(plan.Answers(**dict(answers)), workload, log)
    return plan.vts_plan(p), plan_day(p)


@dataclass(frozen=True, eq=False)
class PlanEvaluation:
    """The page's setting evaluated: what every figure, readout, sheet row and the report read.

    Attributes
    ----------
    plan : vtsmodel.plan.Plan
        The answers, the workload and the mount log's hit curve.
    vts : vtsmodel.plan.VtsPlan
        Every VTS configuration against the targets.
    library : vtsmodel.plan.LibraryPlan
        The tape library's drives.
    day : vtsmodel.plan.day.PlanDay
        The hours evaluated, as the models take them (the read-hit ratio and recalls and their bases).
    feed_mb_s : float or None
        Host MB/s reaching each library drive that writes, in the busiest hour (:func:`write_feed_mb_s`). [MB/s]
    log : LogSource or None
        The mount log that gives each configuration its read hits.
    """

    plan: plan.Plan
    vts: plan.VtsPlan
    library: plan.LibraryPlan
    day: PlanDay
    feed_mb_s: float | None
    log: LogSource | None

    @property
    def answers(self) -> plan.Answers:
        """The answers evaluated."""
        return self.plan.answers

    @functools.cached_property
    def _tornado_answers(self) -> plan.Answers:
        # the years' answers move no answer of the tornado: one tornado for all their values
        return self.answers.replace(**{k: _DEFAULT_ANSWERS[k] for k in plan.YEARS_ONLY})

    def _sensitivity_args(self, fraction: float) -> dict:
        return {"answers": self._tornado_answers, "workload": self.plan.workload, "log": self.log,
                "configuration": self.vts.closest.config.label, "fraction": float(fraction)}  # fmt: skip

    def sensitivity(self, fraction: float = 0.2) -> plan.Sensitivity:
        """The sensitivity, each answer moved by ``fraction``, the recommended (or closest) configuration held fixed.

        Kept once computed, per the answers, workload, log, configuration and fraction.
        """
        return cache.cached(_sensitivity, **self._sensitivity_args(fraction))

    def sensitivity_steps(self, fraction: float = 0.2) -> Generator:
        """:meth:`sensitivity` one evaluation per ``next()`` (:func:`vtsmodel.plan.sensitivity_steps`), kept once done."""
        return cache.cached_steps(_sensitivity, **self._sensitivity_args(fraction))

    def sensitivity_ready(self, fraction: float = 0.2) -> bool:
        """Whether :meth:`sensitivity` is computed already (the page draws it at once, else after the rest)."""
        return cache.is_cached(_sensitivity, **self._sensitivity_args(fraction))


def _sensitivity(answers, workload, log, configuration: str, fraction: float) -> Generator:
    config = next(c for c in plan.vts_configurations() if c.label == configuration)
    return (
        yield from plan.sensitivity_steps(
            the_plan(answers, workload, log), fraction=fraction, configuration=config
        )
    )


def write_feed_mb_s(p: plan.Plan, lib: plan.LibraryPlan) -> float | None:
    """Host MB/s reaching each library drive that writes, in the busiest hour (None: no writes).

    The busiest hour's write rate spread over the whole drives the CERN formula sizes for
    the write flow (a modelling choice: the drives share the flow evenly).
    """
    if lib.recall_flow is None:
        return None
    rate = float(p.day().write_mb_s.max())
    drives = max(1, math.ceil(float(lib.sizing.drives[1 - lib.recall_flow]) - 1e-9))
    return rate / drives if rate > 0 else None


def _kept_vts_plan(answers: plan.Answers, workload: HourlyWorkload | None, log: LogSource | None):
    return cache.cached(_vts_plan, answers=answers_key(answers, LIBRARY_ONLY), workload=workload, log=log)


def vts_of(
    answers: plan.Answers, workload: HourlyWorkload | None = None, log: LogSource | None = None
) -> plan.VtsPlan:
    """Every VTS configuration for ``answers``, a workload and a log: the part of :func:`evaluate` kept per the answers it reads."""
    return _kept_vts_plan(answers, workload, log)[0]


def evaluate(
    answers: plan.Answers, workload: HourlyWorkload | None = None, log: LogSource | None = None
) -> PlanEvaluation:
    """The plan of ``answers``, an hourly workload and a mount log: every VTS configuration and the library.

    With a log, each configuration gets its own read-hit ratio (:func:`hits_of`). The VTS
    plan and the hours evaluated are kept per the answers they read (all but :data:`LIBRARY_ONLY`), the
    workload and the log.
    """
    p = the_plan(answers, workload, log)
    vts, day = _kept_vts_plan(answers, workload, log)
    lib = plan.library_plan(p)
    return PlanEvaluation(p, vts, lib, day, write_feed_mb_s(p, lib), log)


# --- the configurations' figure ------------------------------------------------------------------


class ConfigurationNumbers:
    """What the configurations' figure draws, compared by value: equal numbers, the same figure (one base kept).

    ``key`` holds each configuration's label, time throttled, longest delay and recall ready
    time (None where not finite); ``vts`` is the plan they come from (not compared: its
    targets are drawn as moving marks).
    """

    def __init__(self, vts: plan.VtsPlan) -> None:
        def v(x: float):
            return float(x) if math.isfinite(x) else None

        self.vts = vts
        self.key = (vts.results[0].check("recall").label,) + tuple(
            (r.config.label, v(r.hours_throttled), v(r.longest_delay_hours), v(r.worst_recall_ready_s))
            for r in vts.results
        )

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other) -> bool:
        return isinstance(other, ConfigurationNumbers) and other.key == self.key


def configurations_base(numbers: ConfigurationNumbers) -> dict:
    """Every configuration's numbers (:func:`~vtsmodel.app.figures.plan.configurations_spec`) without the targets.

    The targets and the recommended configuration are moving marks
    (:func:`~vtsmodel.app.figures.plan.target_marks`); the log axis is labelled 1, 2, 5 per
    decade in full (:func:`~vtsmodel.app.figures.plan.log_ticks`).
    """
    spec = plan_figures.configurations_spec(numbers.vts, targets=False)
    page = plan_figures.for_page(spec, height=660, legend_rows=1, bottom=120)
    # Its axes stay put while the values move (configurations_spec): the pane redraws the traces
    # alone when nothing else changed (plotly.js's transition path, without an animation).
    page["layout"]["transition"] = in_place()
    return page


def day_base(result: plan.ConfigResult) -> dict:
    """The day of one configuration (:func:`~vtsmodel.app.figures.plan.day_spec`)."""
    return plan_figures.for_page(plan_figures.day_spec(result), height=620, legend_rows=2, bottom=60)


# --- readouts ----------------------------------------------------------------------------------


def _fmt(value: float, unit: str) -> str:
    if math.isinf(value):
        return "no steady state" if unit == "s" else "∞"
    if unit == "drives":
        return f"{value:.0f}"
    return f"{number(value)} {unit}"


def check_readout(c: plan.Check) -> str:
    """One target: value, target and margin, e.g. ``"439 s against 600 s; margin 161 s"``."""
    if c.key == "virtual_drives":
        return f"{c.value:.0f} presented for {c.limit:.0f}; margin {c.margin:.0f}"
    if c.key == "copy":
        if math.isinf(c.value):
            return f"falls behind day after day with {c.limit:.0f}"
        return f"{c.value:.0f} of {c.limit:.0f} drives; margin {c.margin:.0f}"
    margin = "—" if math.isinf(c.margin) else _fmt(c.margin, c.unit)
    return f"{_fmt(c.value, c.unit)} against {_fmt(c.limit, c.unit)}; margin {margin}"


def _misses(what: str, r: plan.ConfigResult) -> str:
    return f"{what}, {r.config.label}, " + "; ".join(c.text for c in r.failing) + "."


def binding_sentence(vts: plan.VtsPlan) -> str:
    """What the next smaller configuration misses (or, with no recommendation, what the closest misses)."""
    rec = vts.recommended
    if rec is None:
        return vts.headline()
    if vts.next_smaller is None:
        return (
            f"{rec.config.label} is the smallest configuration the paper offers: nothing smaller to compare."
        )
    parts = [_misses("The next smaller", vts.next_smaller)]
    if vts.next_smaller_cache is not None and vts.next_smaller_cache is not vts.next_smaller:
        parts.append(_misses("With the next smaller cache", vts.next_smaller_cache))
    return " ".join([*vts.cautions, *parts])  # what the recommendation must not hide first


def vts_readouts(e: PlanEvaluation) -> dict[str, str]:
    """The recommendation (or the closest configuration) in words: each target, time at peak, the day evaluated."""
    p, vts = e.plan, e.vts
    best, day = vts.closest, e.day.of(vts.closest.config)  # with a mount log, the closest's own hits
    basis = ", answered" if day.read_hit_basis == "answer" else f", from the {day.read_hit_basis}"
    if p.hits is not None:
        basis = f" at {number(best.config.tvc_gb)} GB, from the mount log {p.mount_log_file}"
    return {
        "recommended": best.config.label if vts.recommended else f"none (closest: {best.config.label})",
        **{c.label: check_readout(c) for c in best.checks},
        "time at peak": f"{number(best.hours_at_peak)} h",
        "peak / sustained write": f"{number(best.peak_mb_s)} / {number(best.sustained_mb_s)} MB/s "
        f"with {vts.channels} ESCON channels",
        "sustained write bound by": best.binding_resource,
        "day evaluated": f"{p.day().name if p.workload is not None else 'the answers'} ({day.workload.hours} h)",
        "read hit ratio used": f"{number(best.read_hit)}{basis}",
        "recalls in the busiest hour": f"{number(float(day.recalls_per_hour.max(initial=0.0)))} per hour",
    }
