"""Benchmark: the day simulation's step loop compiled with numba against the same loop in plain Python.

Not a test: run ``python benchmarks/bench_day.py [--calls N]`` (ratios in one run; the machine is shared).

1. ``simulate_tvc`` and its step loop alone (``tvc_day._steps``), 5-minute steps over the
   shipped profiles and a heavy-tailed day, every call with a fresh CF (never a value seen
   before), the compiled loop and the plain-Python one (``_daykernel._loop.py_func`` over
   lists, as without numba) interleaved call by call.
2. The planner's VTS plan (``vts_plan``: 15 configurations, 16 days simulated), a fresh
   value of the day's writes per call, compiled and plain interleaved.
3. The first day simulated in a fresh process (median of three processes each): ``import
   vtsmodel`` alone; then the first ``simulate_tvc`` with numba's compilation cached (the
   usual case after the first run), with an empty cache folder (the compile), and without
   numba (``sys.modules['numba'] = None``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_FIRST_DAY = """
import time
{setup}
t = time.perf_counter()
import vtsmodel
t_import = time.perf_counter() - t
t = time.perf_counter()
vtsmodel.simulate_tvc("nightly batch window", tvc_config="tvc_864_36gb_paf", cf=3.0, step_minutes=5.0)
print(t_import, time.perf_counter() - t)
"""


def _days():
    from vtsmodel.workload import PROFILES, make_profile

    rng = np.random.default_rng(5)
    w = rng.lognormal(np.log(25.0), 1.2, 24 * 12)  # 5-minute hours of a heavy-tailed day
    heavy = make_profile([(i / 12, float(x), 10.0) for i, x in enumerate(w)], name="lognormal")
    return [*PROFILES.values(), heavy]


def _interleaved(calls: int, call) -> dict[str, list[float]]:
    """Time ``call(i)`` compiled and in plain Python, alternating, each ``calls`` times. [s]"""
    from vtsmodel import _daykernel

    compiled = _daykernel._loop
    out: dict[str, list[float]] = {"compiled": [], "plain": []}
    call(-1)  # the compilation loaded before timing
    for i in range(calls):
        for name in ("compiled", "plain"):
            _daykernel._loop, _daykernel.COMPILED = (
                (compiled, True) if name == "compiled" else (compiled.py_func, False)
            )
            t = time.perf_counter()
            call(i)
            out[name].append(time.perf_counter() - t)
    _daykernel._loop, _daykernel.COMPILED = compiled, True
    return out


def _row(what: str, times: dict[str, list[float]]) -> str:
    c, p = (statistics.median(times[k]) * 1e3 for k in ("compiled", "plain"))
    return f"| {what} | {len(times['compiled'])} | {p:.3f} | {c:.3f} | {p / c:.1f} |"


def _first_day(setup: str, env: dict | None = None, runs: int = 3) -> tuple[float, float]:
    """Median ``import vtsmodel`` and first ``simulate_tvc`` times of fresh processes. [ms]"""
    out = []
    for _ in range(runs):
        env_i = dict(os.environ, **(env or {}))
        with tempfile.TemporaryDirectory() as cache:
            if env_i.get("NUMBA_CACHE_DIR") == "":
                env_i["NUMBA_CACHE_DIR"] = cache  # empty: numba compiles
            proc = subprocess.run([sys.executable, "-c", _FIRST_DAY.format(setup=setup)], capture_output=True,
                                  text=True, check=True, cwd=ROOT, env=env_i)  # fmt: skip
        out.append(tuple(map(float, proc.stdout.split())))
    return tuple(statistics.median(x[k] for x in out) * 1e3 for k in (0, 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=60)
    n = ap.parse_args().calls

    from vtsmodel import _daykernel, tvc_day
    from vtsmodel.plan import Answers, Plan, vts_plan

    if not _daykernel.COMPILED:
        sys.exit("numba is not installed: nothing to compare")
    days = _days()

    def day(i):
        return tvc_day.simulate_tvc(days[i % len(days)], tvc_config="tvc_864_36gb_paf", cf=2.0 + 0.0137 * (i + 1),
                                    step_minutes=5.0)  # fmt: skip

    run = day(0)
    steps = np.diff(run.time_hours) * 3600.0
    off = run.offered_mb_s * steps
    d_r = np.full(steps.size, run.sustained_mb_s / run.cache_cf)

    def loop(i):
        scale = 1.0 + 0.001 * (i + 1)  # fresh offers
        tvc_day._steps(steps, off * scale, d_r, P=run.peak_mb_s, S=run.sustained_mb_s, f=0.3, cfc=run.cache_cf,
                       thr_mb=run.threshold_gb * 1000.0, span=run.peak_mb_s - run.sustained_mb_s, b0=0.0)  # fmt: skip

    def planner(i):
        vts_plan(Plan(Answers(write_gb_per_day=1500.0 + 7.3 * (i + 1))))

    print("| what | calls | plain Python p50 [ms] | compiled p50 [ms] | ratio |")
    print("|---|---|---|---|---|")
    print(_row(f"step loop alone ({steps.size} steps)", _interleaved(n, loop)))
    print(_row("simulate_tvc, 5-minute steps", _interleaved(n, day)))
    print(_row("vts_plan (16 days simulated)", _interleaved(max(10, n // 3), planner)))

    print("\n| fresh process | import vtsmodel [ms] | first simulate_tvc [ms] |")
    print("|---|---|---|")
    for what, setup, env in (
        ("numba, compilation cached", "", None),
        ("numba, empty cache (compiles)", "", {"NUMBA_CACHE_DIR": ""}),
        ("without numba", "import sys; sys.modules['numba'] = None", None),
    ):
        t_import, t_first = _first_day(setup, env)
        print(f"| {what} | {t_import:.0f} | {t_first:.0f} |")


if __name__ == "__main__":
    main()
