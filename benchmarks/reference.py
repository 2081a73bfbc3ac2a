"""The machine's speed when a benchmark ran: fixed workloads timed, and the load beside them.

The page aims (``bench_pages.py``) are absolute times, and the shared machines these
benchmarks run on differ from day to day. A run's report gives these numbers so that two
runs can be read against each other: a page that is slower on a machine whose reference
workloads are as much slower has not changed.

- ``python_ms``: a pure-Python loop (10^6 additions of ints, a dict's lookups, an f-string),
  the kind of work a kernel's message handling and an evaluation's bookkeeping do;
- ``numpy_ms``: 2,000 rounds of element-wise work on 24-element arrays (an hour-by-hour
  day), numpy's per-call overhead, which dominates the planner's evaluation.

Each is the median of ``repeat`` runs [ms]; lower is faster.
"""

from __future__ import annotations

import os
import statistics
import time

import numpy as np

__all__ = ["speed", "speed_text"]


def _python() -> None:
    table = {i: i for i in range(256)}
    total = 0
    for i in range(1_000_000):
        total += table[i & 255]
        if i % 100_000 == 0:
            _ = f"{total:,}"


def _numpy() -> None:
    a = np.linspace(0.0, 1.0, 24)
    b = np.linspace(1.0, 0.0, 24)
    for _ in range(2_000):
        c = np.maximum(a - b, 0.0)
        d = np.cumsum(c) * 0.5
        float(np.max(np.where(d > 0.1, d, 0.0)))


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def speed(repeat: int = 5) -> dict:
    """The reference workloads' times [ms], the cores and the one-minute load average before them."""
    if repeat < 1:
        raise ValueError(f"repeat={repeat!r} is not a count of runs >= 1")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {"python_ms": _median_ms(_python, repeat), "numpy_ms": _median_ms(_numpy, repeat),
            "cores": os.cpu_count(), "load": load}  # fmt: skip


def speed_text(s: dict) -> str:
    """:func:`speed`'s numbers in words, for a report's sentence."""
    return (f"{s['cores']} cores, load average {s['load']:.1f}, reference workloads "
            f"(`benchmarks/reference.py`, lower is faster) Python {s['python_ms']:.0f} ms and "
            f"numpy {s['numpy_ms']:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    print(f"The machine: {speed_text(speed())}.")
