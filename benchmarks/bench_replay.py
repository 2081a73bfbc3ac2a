"""Benchmark: vtsmodel.replay (issue 24): speed, memory, against SimPy and Ciw, and lesson 09's moves.

Not a test: run ``python benchmarks/bench_replay.py`` (ratios in one run; the machine is shared).

1. Requests replayed per second through a 16-drive, 4-robot LTO-9 library with a 300 s dismount delay,
   clustered cartridges and heavy-tailed sizes: 10^5 and 10^6 in memory, 10^6 and 10^7 in
   chunks of 10^6 (``replay_chunks``, the chunks made while it runs, as a reader reads them),
   each in a fresh process whose peak memory (max RSS) is read back. Aims: 10^6 under 5 s, 10^7 under 60 s, memory under 2 GB.
2. The same queue in SimPy and in Ciw on 10^5 requests: FIFO, one request per cartridge, no
   robot or load time, each request's own service time (lognormal, cv 2): the part of the
   replay both can express. Every engine's per-request waits are checked equal before the
   times are compared. Aim: 50x faster than SimPy.
3. Lesson 09's view on a 10^5-request log, the drive slider stepped through fresh values
   (8, 9, ..., 37: nothing cached), then the dismount delay slider: the kernel's time per
   move (the browser's redraw comes on top; see bench_pages.py). Aim: p50 <= 33 ms, p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def _log(n: int, seed: int = 0):
    """A synthetic request log: bursty arrivals (mean one per 16 s), clustered cartridges, heavy-tailed sizes.

    A request with a mount of its own holds an LTO-9 drive about 175 s (move, load, locate, read,
    rewind and unload): 16 drives at about 70% busy before the mounts shared by clustered requests.
    """
    from replay_logs import clustered_cartridges, lognormal_service

    rng = np.random.default_rng(seed)
    gaps = rng.exponential(16.0, n) * np.where(rng.random(n) < 0.2, 0.2, 1.2)
    return {
        "time_s": np.cumsum(gaps),
        "cartridge": clustered_cartridges(rng, n, 20_000, repeat=0.3),
        "size_mb": lognormal_service(rng, n, 2000.0, 3.0),
    }


_CHILD = r"""
import json, resource, sys, time
import numpy as np
sys.path.insert(0, {tests!r})
from bench_replay import _log
from vtsmodel.replay import replay_chunks, replay_library, replay_requests
n, mode = {n}, {mode!r}
lib = replay_library(16, drive="LTO9", robots=4, dismount_after_s=300)
replay_requests([0.0, 1.0], library=lib)  # compile (numba's cache) outside the timing
if mode == "memory":
    log = _log(n)
    t0, c0 = time.perf_counter(), time.process_time()
    r = replay_requests(**log, library=lib)
    done = r.tape_requests
else:
    t0, c0 = time.perf_counter(), time.process_time()  # the chunks are made as they are replayed
    step = 1_000_000
    def chunks():
        for i in range(0, n, step):
            c = _log(min(step, n - i), seed=i)
            c["time_s"] += i * 17.0  # chunks do not overlap (a chunk spans about 16 s a request)
            c["obj"] = np.arange(i, i + c["time_s"].size)
            yield c
    r = replay_chunks(chunks(), lib)
    done = r.tape_requests
print(json.dumps({{"s": time.perf_counter() - t0, "cpu": time.process_time() - c0, "done": done, "p95": r.percentile(0.95),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def speed(cases) -> list[dict]:
    out = []
    for n, mode in cases:
        code = _CHILD.format(tests=str(ROOT / "benchmarks"), n=n, mode=mode)
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
        if res.returncode:
            print(f"{n:>10,} {mode:<7} failed: {res.stderr.strip().splitlines()[-1]}", flush=True)
            continue
        row = json.loads(res.stdout.strip().splitlines()[-1])
        row.update(n=n, mode=mode)
        out.append(row)
        print(
            f"{n:>10,} {mode:<7} {row['s']:7.2f} s ({row['cpu']:.2f} s CPU)  {row['rss_mb']:7.0f} MB  "
            f"p95 {row['p95']:.4g} s",
            flush=True,
        )
    return out


class _Clock:
    """Wall and CPU time since the last lap (the machine is shared: CPU time is what the process used)."""

    def __init__(self):
        self.t, self.c = time.perf_counter(), time.process_time()

    def lap(self) -> tuple[float, float]:
        t, c = time.perf_counter(), time.process_time()
        out = (t - self.t, c - self.c)
        self.t, self.c = t, c
        return out


def engines(n: int) -> dict:
    import ciw
    import simpy

    from vtsmodel.replay import replay_library, replay_requests

    rng = np.random.default_rng(1)
    svc = np.exp(rng.normal(np.log(300.0) - 0.5 * np.log(5.0), np.sqrt(np.log(5.0)), n))  # lognormal, cv 2
    arr = np.cumsum(rng.exponential(svc.mean() / (0.8 * 8), n))
    lib = replay_library(8, drive=None, robot_move_s=0, load_s=0, locate_s=0, rewind_unload_s=0, rate_mb_s=1,
                         cartridge_gb=1)  # fmt: skip
    replay_requests(arr[:10], library=lib, cartridge=np.arange(10), duration_s=svc[:10], service="log")
    clock = _Clock()
    ours = replay_requests(arr, library=lib, cartridge=np.arange(n), duration_s=svc, service="log").wait_s
    t_ours = clock.lap()

    env = simpy.Environment()
    drives = simpy.Resource(env, capacity=8)
    w_simpy = np.empty(n)

    def req(i):
        with drives.request() as r:
            yield r
            w_simpy[i] = env.now - arr[i]
            yield env.timeout(svc[i])

    def source():
        last = 0.0
        for i, a in enumerate(arr.tolist()):
            yield env.timeout(a - last)
            last = a
            env.process(req(i))

    env.process(source())
    env.run()
    t_simpy = clock.lap()

    gaps = np.diff(np.concatenate([[0.0], arr]))
    net = ciw.create_network(arrival_distributions=[ciw.dists.Sequential([*gaps.tolist(), 1e12])],
                             service_distributions=[ciw.dists.Sequential(svc.tolist())], number_of_servers=[8])  # fmt: skip
    q = ciw.Simulation(net)
    q.simulate_until_max_customers(n, method="Finish")
    w_ciw = np.array([x.waiting_time for x in sorted(q.get_all_records(), key=lambda x: x.id_number)])
    t_ciw = clock.lap()
    same = bool(np.allclose(ours, w_simpy, atol=1e-6) and np.allclose(ours, w_ciw, atol=1e-6))
    row = {"ours": t_ours, "simpy": t_simpy, "ciw": t_ciw, "same_waits": same}
    for k, what in ((0, "wall"), (1, "CPU")):
        o, sp, cw = t_ours[k], t_simpy[k], t_ciw[k]
        print(f"{n:,} requests, {what}: replay {o:.3f} s, SimPy {sp:.2f} s (x{sp / o:.0f}), Ciw {cw:.2f} s "
              f"(x{cw / o:.0f}); same waits: {same}", flush=True)  # fmt: skip
    return row


def lesson_moves(n: int) -> dict:
    from vtsmodel import mountlog
    from vtsmodel.app.lessons import replay as lesson
    from vtsmodel.app.lessons.hit_curve import LogSource

    log = mountlog.synthetic_mount_log(n, n // 10, seed=3, hours=24 * 14)
    src = LogSource("bench.csv", log)
    values = {k: inp.default for k, inp in lesson.INPUTS.items()}
    lesson.REPLAY.show({**values, "source": src})  # the log's cache pass and stacking: once per log and drive
    times = {}
    for name, key, steps in (("drives", "drives", range(8, 38)), ("dismount delay", "dismount_after_s",
                                                                  [30.0 * k for k in range(1, 31)])):  # fmt: skip
        ts, cs = [], []
        for v in steps:
            clock = _Clock()
            view = lesson.REPLAY.show({**values, key: v, "source": src})
            for plot in view.figures.values():
                plot.spec()  # the figure as sent: base and moving part
            wall, cpu = clock.lap()
            ts.append(1000 * wall)
            cs.append(1000 * cpu)
        times[name] = {"wall": ts, "cpu": cs}
        q = statistics.quantiles(ts, n=20)
        qc = statistics.quantiles(cs, n=20)
        print(f"lesson 09, {name} slider, {n:,}-request log: p50 {statistics.median(ts):.0f} ms, p95 {q[-1]:.0f} ms "
              f"(CPU p50 {statistics.median(cs):.0f} ms, p95 {qc[-1]:.0f} ms)", flush=True)  # fmt: skip
    return times


def run(quick: bool = False) -> dict:
    """Every measurement, as ``make bench`` reports them (times in s, memory in MB, moves in ms)."""
    cases = [(100_000, "memory"), (1_000_000, "memory"), (1_000_000, "chunks")]
    if not quick:
        cases.append((10_000_000, "chunks"))
    out = {}
    for row in speed(cases):
        key = f"{row['n']:.0e}_{row['mode']}".replace("+0", "")
        out[f"{key}_s"] = round(row["s"], 2)
        out[f"{key}_cpu_s"] = round(row["cpu"], 2)
        out[f"{key}_peak_rss_mb"] = round(row["rss_mb"])
    e = engines(100_000)
    out["engines_1e5_same_waits"] = e["same_waits"]
    for k, what in ((0, "wall"), (1, "cpu")):
        out[f"engines_1e5_{what}_s"] = {n: round(e[n][k], 3) for n in ("ours", "simpy", "ciw")}
        out[f"ratio_simpy_{what}"] = round(e["simpy"][k] / e["ours"][k], 1)
        out[f"ratio_ciw_{what}"] = round(e["ciw"][k] / e["ours"][k], 1)
    for name, times in lesson_moves(100_000).items():
        q = statistics.quantiles(times["wall"], n=20)
        qc = statistics.quantiles(times["cpu"], n=20)
        out[f"lesson09_{name.replace(' ', '_')}_ms"] = {
            "p50": round(statistics.median(times["wall"])), "p95": round(q[-1]),
            "cpu_p50": round(statistics.median(times["cpu"])), "cpu_p95": round(qc[-1]),
        }  # fmt: skip
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10^5 and 10^6 only")
    a = p.parse_args(argv)
    run(a.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
