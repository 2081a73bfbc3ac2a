"""The day simulation's step loop compiled (numba) against the same loop run as plain Python, to the bit.

``vtsmodel._dayloop.loop`` is one source: ``vtsmodel._daykernel._loop`` is it compiled by numba
when numba is installed; without numba, or with ``tvc_day.COMPILED_STEPS`` off, it runs as it is. No fastmath and the same operations in the same order, so both must give
the same floats and flags (``np.array_equal``, not a tolerance), on days shaped like real
ones: the shipped profiles, bursts far above the peak, heavy-tailed (lognormal, Pareto)
offered volumes, short and zero-length last steps, a start backlog above the threshold, PAF
and no-PAF copy rates, and steps whose net fill is exactly zero.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtsmodel import _daykernel
from vtsmodel.tvc_day import _MB_PER_GB, simulate_tvc
from vtsmodel.workload import PROFILES, make_profile

ROOT = Path(__file__).resolve().parents[1]

needs_numba = pytest.mark.skipif(not _daykernel.COMPILED, reason="numba is not installed")

#: The TvcRun fields that are arrays: every one is compared.
_SERIES = ("time_hours", "offered_mb_s", "accepted_mb_s", "copy_mb_s", "recall_mb_s", "throttled", "at_peak_hours",
           "uncopied_gb", "delayed_mb", "offered_total_mb", "accepted_total_mb", "written_total_mb",
           "copied_total_mb", "recall_unserved_mb_s")  # fmt: skip


def _plain_python(monkeypatch):
    """Run the loop as the ``vtsmodel`` command and a machine without numba do: plain Python over lists.

    ``tvc_day.COMPILED_STEPS`` off takes ``vtsmodel._dayloop``'s loop; the compiled path would fail.
    """
    from vtsmodel import tvc_day

    monkeypatch.setattr(tvc_day, "COMPILED_STEPS", False)
    monkeypatch.setattr(_daykernel, "day_steps", None)


def _loop_inputs(rng):
    """One day's kernel inputs, drawn to cover the loop's branches (as tvc_day._run_day builds them)."""
    n = int(rng.integers(1, 400))
    dt = float(rng.choice([60.0, 120.0, 300.0, 900.0, 3600.0]))
    steps = np.full(n, dt)
    steps[-1] = float(rng.choice([dt, dt * rng.uniform(0, 1), 0.0]))  # a last step cut short, or empty
    P = float(rng.uniform(5, 120))
    S = float(P * rng.choice([rng.uniform(0.2, 1.0), 1.0]))
    cfc = float(rng.choice([1.0, rng.uniform(0.5, 4)]))
    kind = rng.integers(4)
    if kind == 0:  # lognormal rates, heavy-tailed
        rate = rng.lognormal(np.log(S * 0.6), 1.5, n)
    elif kind == 1:  # Pareto (tail index 1.2)
        rate = S * 0.3 * (1 + rng.pareto(1.2, n))
    elif kind == 2:  # quiet with bursts of several minutes at 5-20 times the peak
        rate = np.full(n, S * 0.2)
        for start in rng.integers(0, n, size=int(rng.integers(1, 4))):
            rate[start : start + int(rng.integers(1, 6))] = P * rng.uniform(5, 20)
    else:  # idle hours, the sustained rate (net fill exactly zero below the threshold), above the peak
        rate = rng.choice([0.0, S, P * 1.5, rng.uniform(0, 2 * P)], size=n, p=[0.3, 0.3, 0.2, 0.2])
    off_vol = rate * steps
    d_full = S / cfc
    if rng.random() < 0.5:  # PAF: the copy at its full rate
        d_r = np.full(n, d_full)
    else:  # no PAF: recalls take copy bandwidth, up to all of it
        d_r = np.maximum(d_full - rng.choice([0.0, rng.uniform(0, d_full * 1.2)], size=n), 0.0)
    cap = float(rng.uniform(50, 1500))
    thr_mb = float(rng.uniform(0.5, 0.99)) * cap * _MB_PER_GB
    u0 = float(
        rng.choice([0.0, rng.uniform(0, thr_mb), rng.uniform(thr_mb, cap * _MB_PER_GB)])
    )  # above thr too
    scal = (P, S, float(rng.uniform(0, 1)), cfc, thr_mb, max(P - S, 1e-12 * max(P, 1.0)), u0)
    return steps, off_vol, d_r, scal


def _run_loop(loop, steps, off_vol, d_r, scal):
    n = steps.size
    outs = (
        np.empty(n),
        np.empty(n),
        np.empty(n),
        np.empty(n, dtype=np.bool_),
        np.empty(n + 1),
        np.empty(n + 1),
    )
    loop(steps, off_vol, d_r, *scal, *outs)
    return outs


def _assert_same(a_outs, b_outs, context):
    for a, b in zip(a_outs, b_outs, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b), context  # bit for bit (no NaN is produced: array_equal is exact)


@needs_numba
@pytest.mark.parametrize("seed", range(8))
def test_the_compiled_loop_equals_the_python_loop(seed):
    rng = np.random.default_rng(100 + seed)
    throttled = net_zero = 0
    for _ in range(40):
        steps, off_vol, d_r, scal = _loop_inputs(rng)
        compiled = _run_loop(_daykernel._loop, steps, off_vol, d_r, scal)
        _assert_same(compiled, _run_loop(_daykernel._loop.py_func, steps, off_vol, d_r, scal), scal)
        acc, _, _, thr, U, _ = compiled
        throttled += int(thr.any())
        # below the threshold, data accepted and none net written: a net fill of exactly zero
        net_zero += int(np.any((U[1:] == U[:-1]) & (U[:-1] > 0) & (U[:-1] < scal[4]) & (acc > 0) & ~thr))
    assert 0 < throttled < 40 and net_zero > 0  # the draws reach these branches


@needs_numba
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_property_compiled_equals_python_on_drawn_days(seed):
    steps, off_vol, d_r, scal = _loop_inputs(np.random.default_rng(seed))
    _assert_same(
        _run_loop(_daykernel._loop, steps, off_vol, d_r, scal),
        _run_loop(_daykernel._loop.py_func, steps, off_vol, d_r, scal),
        scal,
    )


def _runs():
    """simulate_tvc cases shaped like the planner's and the lessons' days."""
    rng = np.random.default_rng(7)
    cases = []
    for name in PROFILES:
        for feature, config in (("paf", "tvc_864_36gb_paf"), ("ehpo", "tvc_576_36gb_base_ehpo"),
                                ("base", "tvc_576_36gb_base_ehpo")):  # fmt: skip
            cases += [(name, {"tvc_config": config, "cf": 3.0, "feature": feature, "step_minutes": step})
                      for step in (1.0, 5.0, 7.0)]  # fmt: skip
    # busy days filling a small cache, with a backlog above the threshold at the start
    cases.append(("nightly batch window", {"tvc_config": "tvc_216_9gb_base_ehpo", "cf": 2.0, "feature": "base",
                                           "backlog_gb": 210, "read_hit": 0.2}))  # fmt: skip
    cases.append(("weekly full backup", {"tvc_config": "tvc_216_36gb_paf", "cf": 4.0, "feature": "paf",
                                         "backlog_gb": 180, "threshold": 0.7}))  # fmt: skip
    # heavy-tailed hours, 7-minute intervals (steps cut through them), a 24.03-hour day (a short last step)
    for shape in ("lognormal", "pareto", "burst"):
        k = 206
        if shape == "lognormal":
            w = rng.lognormal(np.log(20.0), 1.2, k)
        elif shape == "pareto":
            w = 8.0 * (1 + rng.pareto(1.3, k))
        else:
            w = np.full(k, 15.0)
            w[[40, 41, 120]] = 900.0  # 7-minute bursts far above the peak rate
        rows = [(i * 7 / 60, float(w[i]), float(rng.uniform(0, 30))) for i in range(k)]
        prof = make_profile(rows, duration_hours=24.03, name=shape)
        cases += [(prof, {"tvc_config": config, "cf": 2.5, "feature": feature, "step_minutes": 5.0})
                  for feature, config in (("paf", "tvc_432_36gb_paf"), ("base", "tvc_288_36gb_base_ehpo"))]  # fmt: skip
    return cases


@needs_numba
def test_simulate_tvc_the_same_with_the_loop_compiled_or_not(monkeypatch):
    compiled = [simulate_tvc(p, **kw) for p, kw in _runs()]
    assert any(r.throttled.any() for r in compiled) and any(not r.throttled.any() for r in compiled)
    assert any(r.uncopied_gb[0] > r.threshold_gb for r in compiled)  # a start above the threshold
    _plain_python(monkeypatch)
    for (p, kw), c in zip(_runs(), compiled, strict=True):
        r = simulate_tvc(p, **kw)
        for name in _SERIES:
            assert np.array_equal(getattr(r, name), getattr(c, name)), (getattr(p, "name", p), kw, name)
        assert np.array_equal(list(r.summary().values()), list(c.summary().values()), equal_nan=True)


@pytest.mark.slow
def test_a_command_simulates_its_days_without_numba_and_leaves_the_switch_as_it_was():
    """``vtsmodel plan``: a short process, its days in plain Python (numba's start would cost more)."""
    code = (
        "import sys\n"
        "from vtsmodel import tvc_day\n"
        "from vtsmodel.app import cli\n"
        "code = cli.main(['plan', 'examples/example_plan.json'])\n"
        "print('RESULT', code, 'numba' in sys.modules, tvc_day.COMPILED_STEPS)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.splitlines()[-1] == "RESULT 0 False True"


def test_the_step_loop_is_the_kernel(monkeypatch):
    """tvc_day._steps runs _daykernel's loop (not a copy of it): a loop that records its calls sees each day."""
    calls = []
    loop = _daykernel._loop

    def counting(*args):
        calls.append(len(args[0]))
        return loop(*args)

    monkeypatch.setattr(_daykernel, "_loop", counting)
    run = simulate_tvc("steady day", tvc_gb=864, cf=3.0, step_minutes=5.0)
    assert calls == [run.offered_mb_s.size] == [288]


@pytest.mark.slow
def test_import_vtsmodel_and_tvc_day_does_not_import_numba():
    code = (
        "import sys, vtsmodel, vtsmodel.tvc_day, vtsmodel.plan\n"
        "print(sorted({'numba', 'vtsmodel._daykernel'} & set(sys.modules)))\n"
        "vtsmodel.simulate_tvc('steady day', tvc_gb=864, cf=3.0)\n"
        "print('vtsmodel._daykernel' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["[]", "True"]  # imported on the first day simulated, not before


def _days_in_a_process(setup: str) -> None:
    """Run the cases of :func:`_runs` in a fresh process after ``setup``: the same series as here, to the bit."""
    code = (
        f"{setup}\n"
        "sys.path.insert(0, 'tests')\n"
        "from test_daykernel import _runs, _SERIES\n"
        "from vtsmodel import simulate_tvc\n"
        "for p, kw in _runs():\n"
        "    r = simulate_tvc(p, **kw)\n"
        "    print(repr([getattr(r, s).tolist() for s in _SERIES]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    there = [eval(line) for line in out.stdout.splitlines()]  # noqa: S307 - our own output
    cases = _runs()
    assert len(there) == len(cases)
    for (p, kw), got in zip(cases, there, strict=True):
        r = simulate_tvc(p, **kw)
        assert got == [getattr(r, s).tolist() for s in _SERIES], (getattr(p, "name", p), kw)


@pytest.mark.slow
def test_without_numba_the_same_days_in_plain_python():
    """numba absent: the plain-Python loop gives the compiled loop's simulate_tvc results."""
    _days_in_a_process(
        "import sys; sys.modules['numba'] = None\n"
        "from vtsmodel import _daykernel\n"
        "assert not _daykernel.COMPILED"
    )


@needs_numba
@pytest.mark.slow
def test_with_no_writable_cache_folder_the_loop_is_compiled_uncached():
    """numba finds no folder to cache in (a read-only package and home): compiled per process, no error."""
    _days_in_a_process(
        "import sys\n"
        "from numba.core import caching\n"
        "caching.CacheImpl._locator_classes = []  # no locator: numba's 'cannot cache function'\n"
        "from vtsmodel import _daykernel\n"
        "assert _daykernel.COMPILED and type(_daykernel._loop._cache).__name__ == 'NullCache'"
    )
