"""How far each answer of a plan moves when each input moves: the data of a tornado chart."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Generator
from dataclasses import dataclass

from vtsmodel._inputs import Input, declare
from vtsmodel._validation import as_scalar
from vtsmodel.plan.answers import answer_inputs
from vtsmodel.plan.files import Plan, check_plan
from vtsmodel.plan.library import _plan_library
from vtsmodel.plan.provenance import _collect_notes
from vtsmodel.plan.vts import STEP, VtsConfiguration, _check_step, _evaluate_one, vts_plan

__all__ = ["FRACTION", "Sensitivity", "SensitivityRow", "sensitivity", "sensitivity_steps"]

#: The move of each input in a sensitivity study, a share of its value. [-]
FRACTION = Input(
    "move of each input", "-", 0.2, lo=0.0, hi=1.0, lo_open=True, hi_open=True,
    source="project assumption (a tornado's +/- share); 1 would move an input to 0",
    help="Each input is moved down and up by this share of its value.",
)  # fmt: skip


@dataclass(frozen=True)
class SensitivityRow:
    """How one answer moves when one input moves down and up by the fraction.

    Attributes
    ----------
    driver : str
        The input moved (``"data written"``).
    output : str
        The answer watched, with its unit (``"time throttled [h]"``).
    base, low, high : float
        The answer at the plan's inputs, with the input lowered, and raised. [unit]
    input_base, input_low, input_high : float
        The input's values (clipped to its valid range). [its unit]
    input_unit : str
    """

    driver: str
    output: str
    base: float
    low: float
    high: float
    input_base: float
    input_low: float
    input_high: float
    input_unit: str

    @property
    def swing(self) -> float:
        """``|high − low|`` (NaN-safe; inf when one side has no steady state). [unit]"""
        vals = [v for v in (self.low, self.high, self.base) if not math.isnan(v)]
        if not vals:
            return 0.0
        return float(max(vals) - min(vals))


@dataclass(frozen=True)
class Sensitivity:
    """A tornado's data: each answer's move for each input's move.

    Attributes
    ----------
    fraction : float
        Each input moved down and up by this fraction of its value. [-]
    configuration : str
        The VTS configuration the VTS answers are for (held fixed).
    rows : tuple of SensitivityRow
    """

    fraction: float
    configuration: str
    rows: tuple[SensitivityRow, ...]

    @property
    def outputs(self) -> tuple[str, ...]:
        """The answers watched, in order."""
        return tuple(dict.fromkeys(r.output for r in self.rows))

    def tornado(self, output: str) -> list[SensitivityRow]:
        """The rows of ``output``, largest swing first (a tornado's bars, top down)."""
        rows = [r for r in self.rows if r.output == output]
        if not rows:
            raise KeyError(f"no output {output!r}; outputs: {', '.join(self.outputs)}")
        return sorted(rows, key=lambda r: -r.swing if not math.isinf(r.swing) else -math.inf)


def _drivers(plan: Plan) -> list[tuple[str, str, float, Callable[[Plan, float], tuple[Plan, float]]]]:
    """(name, unit, base value, move(plan, factor) -> (plan, value)) for each input moved."""
    a = plan.answers
    inputs = answer_inputs()
    out = []

    def answer(key, label=None):
        inp = inputs[key]

        def move(p, f):
            v = getattr(p.answers, key) * f
            lo = inp.lo if inp.lo is not None else -math.inf
            hi = inp.hi if inp.hi is not None else math.inf
            if inp.lo_open and v <= lo:
                v = lo + 1e-9
            v = min(max(v, lo), hi - (1e-9 if inp.hi_open else 0.0))
            return p.with_answers(**{key: v}), v

        out.append((label or inp.label, inp.unit, float(getattr(a, key)), move))

    if plan.workload is None:
        answer("write_gb_per_day")
        answer("write_window_hours")
        answer("read_gb_per_day")
    else:
        w = plan.workload
        tw, tr = float(w.write_mb.sum() / 1000.0), float(w.read_mb.sum() / 1000.0)
        out.append(("data written", "GB", tw,
                    lambda p, f: (dataclasses.replace(p, workload=p.workload.scaled(write=f)), tw * f)))  # fmt: skip
        out.append(("data read", "GB", tr,
                    lambda p, f: (dataclasses.replace(p, workload=p.workload.scaled(read=f)), tr * f)))  # fmt: skip
    if plan.hits is None and (plan.workload is None or plan.workload.read_hit_by_mounts() is None):
        answer("read_hit")
    if plan.workload is None and a.recalls_per_hour is not None:
        answer("recalls_per_hour")
    answer("cf")
    answer("volume_mb")
    answer("files_per_mount")
    return out


def _outputs(plan: Plan, config: VtsConfiguration, step_minutes: float) -> dict[str, float]:
    r = _evaluate_one(plan, config, step_minutes)  # its cache's constants kept: one cache, many plans
    lib = _plan_library(plan, years=False)  # today's drives: the years do not move them
    return {
        "time at peak [h]": r.hours_at_peak,
        "time throttled [h]": r.hours_throttled,
        "longest write delay [h]": r.longest_delay_hours,
        "recall ready at percentile [s]": r.worst_recall_ready_s,
        "library drives [-]": float(lib.drives),
    }


@declare(fraction=FRACTION, step_minutes=STEP)
def sensitivity(
    plan: Plan,
    *,
    fraction: float = 0.2,
    configuration: VtsConfiguration | None = None,
    step_minutes: float = 5.0,
) -> Sensitivity:
    """How far each answer moves when each input moves down and up by ``fraction``.

    The VTS answers are for one configuration held fixed (default: the recommended one,
    or the closest when none meets every target), so each bar shows the input's effect,
    not a change of configuration. Inputs are clipped to their valid ranges (a read-hit
    ratio stays at most 1, CF at least 1); the rows carry the values used.

    Parameters
    ----------
    plan : Plan
    fraction : float
        The move, a share of each input's value, in (0, 1). [-]
    configuration : VtsConfiguration, optional
    step_minutes : float
        Time step of the day simulation, 0.5 to 60. [min]

    Returns
    -------
    Sensitivity
        Data for a tornado chart (:meth:`Sensitivity.tornado`).

    See Also
    --------
    sensitivity_steps : the same, one evaluation at a time.
    """
    steps = sensitivity_steps(plan, fraction=fraction, configuration=configuration, step_minutes=step_minutes)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


@declare(fraction=FRACTION, step_minutes=STEP)
def sensitivity_steps(
    plan: Plan,
    *,
    fraction: float = 0.2,
    configuration: VtsConfiguration | None = None,
    step_minutes: float = 5.0,
) -> Generator[tuple[int, int], None, Sensitivity]:
    """:func:`sensitivity`, one evaluation of the plan per step: for a caller that must stay responsive.

    The arguments are checked at the call. The generator yields ``(done, total)``, the
    evaluations made and to make (the configuration's choice, when ``configuration`` is None,
    the plan as it is, then each input down and up), and returns the :class:`Sensitivity`
    (``StopIteration.value``; ``yield from``). As in :func:`sensitivity`, the project's warnings
    of its evaluations are not passed on, each step's caught within that step.
    """
    if configuration is not None and not isinstance(configuration, VtsConfiguration):
        raise ValueError(
            f"configuration={configuration!r} must be a VtsConfiguration (vts_configurations()) or None"
        )
    check_plan(plan)
    fraction = as_scalar("fraction", FRACTION.check("fraction", fraction))
    step_minutes = _check_step(step_minutes)
    return _steps(plan, float(fraction), configuration, step_minutes)


def _quiet(fn, *args):
    """``fn(*args)``, the project's warnings it gives caught and not passed on (others are)."""
    return _collect_notes(fn, *args)[0]


def _steps(
    plan: Plan, fraction: float, configuration: VtsConfiguration | None, step_minutes: float
) -> Generator[tuple[int, int], None, Sensitivity]:
    drivers = _quiet(_drivers, plan)
    total, done = 1 + 2 * len(drivers) + (configuration is None), 0
    if configuration is None:
        configuration = vts_plan(plan, step_minutes=step_minutes).closest.config  # its warnings: the caller's
        done += 1
        yield done, total
    base = _quiet(_outputs, plan, configuration, step_minutes)
    done += 1
    yield done, total
    rows = []
    for name, unit, value, move in drivers:
        moved = []
        for factor in (1.0 - fraction, 1.0 + fraction):
            moved_plan, moved_value = _quiet(move, plan, factor)
            moved.append((_quiet(_outputs, moved_plan, configuration, step_minutes), moved_value))
            done += 1
            yield done, total
        (lo, lo_val), (hi, hi_val) = moved
        for key in base:
            rows.append(SensitivityRow(name, key, base[key], lo[key], hi[key], value, lo_val, hi_val, unit))
    return Sensitivity(fraction, configuration.label, tuple(rows))
