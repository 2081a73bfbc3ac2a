"""vts_plan's fast path against one configuration at a time: the same answers, to the bit.

:func:`vtsmodel.plan.vts_plan` keeps each cache's checked constants across plans
(``_days._model_of``: the simulation's rates, capacity, recall ceiling and the binding resource)
and queues every configuration's recalls in one call of each queueing model
(``_days._recalls_ready``); the sensitivity evaluates one configuration with the kept constants
(``_evaluate_one``); :func:`vtsmodel.plan.evaluate_configuration` runs one configuration
the plain way (``simulate_tvc`` checking its arguments, one recall queue). Equal results
on many random plans, after plans that filled the kept constants, say the restructuring
changed no arithmetic.
"""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pytest

from vtsmodel import ExtrapolationWarning, VtsModelWarning
from vtsmodel.hourly import HourlyWorkload
from vtsmodel.plan import Plan, evaluate_configuration, vts_plan
from vtsmodel.plan import _days as days_module
from vtsmodel.plan import vts as vts_module


def _same(x, y) -> bool:
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        x, y = np.asarray(x), np.asarray(y)
        if x.dtype.kind in "fc" or y.dtype.kind in "fc":
            return x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
        return x.shape == y.shape and np.array_equal(x, y)
    if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
        return True
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return type(x) is type(y) and all(
            _same(getattr(x, f.name), getattr(y, f.name)) for f in dataclasses.fields(x)
        )
    if isinstance(x, tuple | list) and isinstance(y, tuple | list):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    return x == y


def _random_plan(rng: np.random.Generator) -> Plan:
    """Answers drawn across their ranges: light and overloaded days, few and many channels, recalls or none."""
    answers = {
        "write_gb_per_day": float(rng.choice([0.0, rng.uniform(50, 800), rng.uniform(800, 12_000)])),
        "write_window_hours": float(rng.uniform(1, 24)),
        "write_start_hour": float(rng.integers(0, 24)),
        "read_gb_per_day": float(rng.choice([0.0, rng.uniform(10, 3000)])),
        "read_window_hours": float(rng.uniform(1, 24)),
        "read_start_hour": float(rng.integers(0, 24)),
        "read_hit": float(rng.uniform(0, 1)),
        "cf": float(rng.choice([rng.uniform(0.6, 1.0), rng.uniform(1, 4), rng.uniform(4, 8)])),
        "volume_mb": float(rng.uniform(50, 4000)),
        "recall_percentile": float(rng.uniform(0.5, 0.99)),
        "escon_channels": int(rng.choice([2, 4, 8, 8])),
        "drive_efficiency": None if rng.random() < 0.6 else float(rng.uniform(0.1, 1.0)),
        "virtual_drives_needed": int(rng.choice([0, 40, 64])),
    }
    return Plan().with_answers(**answers)


def _without_warnings(fn, *args, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kw)
    return out, sorted({str(w.message) for w in caught if issubclass(w.category, VtsModelWarning)})


def test_vts_plan_equals_each_configuration_evaluated_alone_on_random_plans():
    rng = np.random.default_rng(20261126)
    days_module._MODELS.clear()
    checked = 0
    for _ in range(16):
        plan = _random_plan(rng)
        step = float(rng.choice([5.0, 5.0, 10.0]))
        for _twice in range(2):  # the second finds every cache's constants kept
            try:
                fast = vts_plan(plan, step_minutes=step)
            except ValueError as exc:  # an answer the models refuse: the plain way refuses it too
                with pytest.raises(ValueError, match=str(exc)[:40].replace("(", r"\(").replace("[", r"\[")):
                    for r in vts_module.vts_configurations():
                        evaluate_configuration(plan, r, step_minutes=step)
                break
            for r in fast.results:
                plain, plain_notes = _without_warnings(
                    evaluate_configuration, plan, r.config, step_minutes=step
                )
                assert _same(r, plain), (plan.answers, r.config.label)
                if r.config.drives == 6:  # one configuration for many plans (the sensitivity's way)
                    one = _without_warnings(vts_module._evaluate_one, plan, r.config, step)[0]
                    assert _same(one, plain), [
                        f.name
                        for f in dataclasses.fields(one)
                        if not _same(getattr(one, f.name), getattr(plain, f.name))
                    ]
                assert set(plain_notes) <= set(fast.notes)  # each configuration's warnings are the plan's too
                checked += 1
    assert checked > 16 * 60  # 60 configurations a plan, most plans evaluated twice


def test_kept_constants_give_their_warnings_again():
    """A plan whose CF is outside what Appendix B validated notes it on every evaluation, not only the first.

    The notes come from the rates and the binding resource, which are kept after the first
    plan: kept with their warnings, the second evaluation notes the same, in the same order.
    """
    plan = Plan().with_answers(cf=7.5)
    days_module._MODELS.clear()
    first, second = vts_plan(plan).notes, vts_plan(plan).notes
    assert any("cf=7.5" in n for n in first) and any("EHPO host rate" in n for n in first)
    assert first == second
    plain = set()
    for r in vts_module.vts_configurations()[::5]:
        plain |= set(_without_warnings(evaluate_configuration, plan, r)[1])
    assert plain <= set(first)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExtrapolationWarning)
        assert vts_plan(plan).notes == first  # kept inside the plan's notes, never raised past them


def test_a_workload_of_other_hours_keeps_its_own_constants():
    """The kept constants are keyed by the day's hours too (the step limit depends on them)."""
    rows = [{"hour": h, "host_write_mb": 90_000.0, "host_read_mb": 20_000.0} for h in range(48)]
    two_days = Plan(workload=HourlyWorkload.from_rows(rows))
    one_day = Plan(workload=HourlyWorkload.from_rows(rows[:24]))
    for plan in (one_day, two_days, one_day):
        fast = vts_plan(plan)
        for r in fast.results[::7]:
            assert _same(r, evaluate_configuration(plan, r.config))
