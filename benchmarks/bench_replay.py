"""Benchmark: vtsmodel.replay (issue 24): speed, memory, against SimPy and Ciw, and lesson 09's moves.

Not a test: run ``python benchmarks/bench_replay.py`` (ratios in one run; the machine is shared).

1. Requests replayed per second through a 16-drive, 4-robot LTO-9 library with a 300 s dismount delay,
   clustered cartridges and heavy-tailed sizes: 10^5 and 10^6 in memory, 10^6 and 10^7 in
   chunks of 10^6 (``replay_chunks``, the chunks made while it runs, as a reader reads them),
   each in a fresh process whose peak memory (max RSS) is read back. Aims: 10^6 under 5 s, 10^7 under 60 s, memory under 2 GB.
2. The same queue in SimPy and in Ciw on 10^5 requests: FIFO, one request per cartridge, no
   robot or load time, each request's own service time (lognormal, cv 2): the part of the
   replay both can express. Three logs (fresh values: three seeds), each replayed once by every
   engine; every engine's per-request waits are checked equal before the times are compared; the
   replay's times are those of a fresh process (its compile cached, its first replay timed).
   Aim: 50x faster than SimPy.
3. Lesson 09 on a 10^5-request log, each slider stepped through fresh values (up to 30 a
   slider, nothing cached): the kernel's time per move, the view and every figure as sent.
   Aim: p50 <= 33 ms, p95 <= 50 ms.
4. ``--browser``: the same page in the app server with Chromium, the 10^5-request log uploaded,
   the drives slider and the dismount delay slider moved 30 steps each: key press to repaint
   (:func:`bench_pages.browser_moves`).

``--baseline DIR`` (a checkout of an earlier commit, e.g. ``git archive REV | tar -x -C DIR``)
measures 1 to 3 for DIR's package in the same run, interleaved (compare ratios: the machine is
shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

#: The engines' logs: one per seed, each a fresh value for every engine.
SEEDS = (1, 2, 3)


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


def _in_tree(tree: Path, *args: str) -> dict:
    """This file's worker (``--worker ...``) run with ``tree``'s package, in a fresh process: its JSON."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env, cwd=tree,
                          timeout=3600)  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --- 1. speed and memory --------------------------------------------------------------------------

_CHILD = r"""
import json, resource, sys, time
import numpy as np
sys.path.insert(0, {bench!r})
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


def speed(cases, tree: Path = ROOT) -> list[dict]:
    """Each case (requests, "memory" or "chunks") in a fresh process of ``tree``'s package."""
    out = []
    env = {**os.environ, "PYTHONPATH": str(tree)}
    for n, mode in cases:
        code = _CHILD.format(bench=str(ROOT / "benchmarks"), n=n, mode=mode)
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tree, env=env)
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


# --- 2. the same queue in SimPy and Ciw -----------------------------------------------------------


def _queue(n: int, seed: int):
    """8 drives at 80% load, lognormal service (cv 2), Poisson arrivals: ``(arrivals, service)``. [s]"""
    rng = np.random.default_rng(seed)
    svc = np.exp(rng.normal(np.log(300.0) - 0.5 * np.log(5.0), np.sqrt(np.log(5.0)), n))
    return np.cumsum(rng.exponential(svc.mean() / (0.8 * 8), n)), svc


def _bare_library():
    from vtsmodel.replay import replay_library

    return replay_library(8, drive=None, robot_move_s=0, load_s=0, locate_s=0, rewind_unload_s=0, rate_mb_s=1,
                          cartridge_gb=1)  # fmt: skip


def _replay_waits(arr, svc):
    from vtsmodel.replay import replay_requests

    n = arr.size
    return replay_requests(
        arr, library=_bare_library(), cartridge=np.arange(n), duration_s=svc, service="log"
    ).wait_s


def replay_times(n: int, seeds=SEEDS) -> dict:
    """The replay of each seed's queue in this process (its compile done first): wall and CPU [s]."""
    a, s = _queue(10, 0)
    _replay_waits(a, s)  # numba's compile or its cache, outside the timing
    out = {"wall": [], "cpu": []}
    for seed in seeds:
        arr, svc = _queue(n, seed)
        clock = _Clock()
        _replay_waits(arr, svc)
        wall, cpu = clock.lap()
        out["wall"].append(wall)
        out["cpu"].append(cpu)
    return out


def _simpy_waits(arr, svc):
    import simpy

    env = simpy.Environment()
    drives = simpy.Resource(env, capacity=8)
    waits = np.empty(arr.size)

    def req(i):
        with drives.request() as r:
            yield r
            waits[i] = env.now - arr[i]
            yield env.timeout(svc[i])

    def source():
        last = 0.0
        for i, a in enumerate(arr.tolist()):
            yield env.timeout(a - last)
            last = a
            env.process(req(i))

    env.process(source())
    env.run()
    return waits


def _ciw_waits(arr, svc):
    import ciw

    gaps = np.diff(np.concatenate([[0.0], arr]))
    net = ciw.create_network(arrival_distributions=[ciw.dists.Sequential([*gaps.tolist(), 1e12])],
                             service_distributions=[ciw.dists.Sequential(svc.tolist())], number_of_servers=[8])  # fmt: skip
    q = ciw.Simulation(net)
    q.simulate_until_max_customers(arr.size, method="Finish")
    return np.array([x.waiting_time for x in sorted(q.get_all_records(), key=lambda x: x.id_number)])


def engines(n: int, trees: dict) -> dict:
    """SimPy and Ciw in this process, the replay of each tree in a fresh process, on the same :data:`SEEDS` logs."""
    times = {"simpy": {"wall": [], "cpu": []}, "ciw": {"wall": [], "cpu": []}}
    same = True
    for name, tree in trees.items():
        times[name] = _in_tree(tree, "--worker", "replay", "--n", str(n))
    for seed in SEEDS:
        arr, svc = _queue(n, seed)
        ours = _replay_waits(arr, svc)
        for engine, waits in (("simpy", _simpy_waits), ("ciw", _ciw_waits)):
            clock = _Clock()
            theirs = waits(arr, svc)
            wall, cpu = clock.lap()
            times[engine]["wall"].append(wall)
            times[engine]["cpu"].append(cpu)
            same = same and bool(np.allclose(ours, theirs, atol=1e-6))
    row = {"seeds": list(SEEDS), "same_waits": same, "times": times}
    for k in ("wall", "cpu"):
        total = {e: sum(t[k]) for e, t in times.items()}
        row[f"{k}_s"] = total
        parts = [f"{e} {total[e]:.3f} s" for e in times]
        ratios = [
            f"SimPy/{e} x{total['simpy'] / total[e]:.0f}, Ciw/{e} x{total['ciw'] / total[e]:.0f}"
            for e in trees
        ]
        print(f"{n:,} requests x {len(SEEDS)} logs, {k}: " + ", ".join(parts) + "; " + "; ".join(ratios)
              + f"; same waits: {same}", flush=True)  # fmt: skip
    return row


# --- 3. lesson 09's sliders -----------------------------------------------------------------------


def _steps(inp, n: int) -> list:
    """Up to ``n`` values of a control, one step apart from its default, never back to one it had."""
    if inp.choices:
        return [v for _label, v in inp.choices if v != inp.default]
    if inp.scale == "log":
        at = np.log10(inp.default)
        lo, hi, step = np.log10(inp.lo), np.log10(inp.hi), inp.step
    else:
        at, lo, hi, step = inp.default, inp.lo, inp.hi, inp.step
    up, down = (hi - at) / step, (at - lo) / step
    sign = 1 if up >= down else -1
    k = min(n, int(max(up, down) + 1e-9))
    values = [at + sign * step * (i + 1) for i in range(k)]
    values = [float(10.0**v) for v in values] if inp.scale == "log" else values
    return [int(round(v)) for v in values] if inp.integer else [round(v, 12) for v in values]


def lesson_sliders(n: int, moves: int = 30) -> dict:
    """Lesson 09's view on an ``n``-request log, each control stepped through fresh values: ms per move."""
    from vtsmodel import mountlog
    from vtsmodel.app.lessons import replay as lesson
    from vtsmodel.app.lessons.hit_curve import LogSource

    log = mountlog.synthetic_mount_log(n, n // 10, seed=3, hours=24 * 14)
    src = LogSource("bench.csv", log)
    values = {k: inp.default for k, inp in lesson.INPUTS.items()}
    lesson.REPLAY.show({**values, "source": src})  # the log's cache pass and stacking: once per log and drive
    out = {}
    for key, inp in lesson.INPUTS.items():
        if (
            inp.kind == "flag"
        ):  # the delay curve's checkbox: 8 replays, behind a checkbox as lesson 08's costly options
            continue
        walls, cpus = [], []
        for v in _steps(inp, moves):
            clock = _Clock()
            view = lesson.REPLAY.show({**values, key: v, "source": src})
            for plot in view.figures.values():
                plot.spec()  # the figure as sent: base and moving part
            wall, cpu = clock.lap()
            walls.append(1000 * wall)
            cpus.append(1000 * cpu)
        out[key] = {"wall": walls, "cpu": cpus}
    return out


def _q(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def lesson_report(n: int, trees: dict) -> dict:
    """:func:`lesson_sliders` of each tree, in fresh processes; one line per slider and tree."""
    out = {}
    for name, tree in trees.items():
        res = _in_tree(tree, "--worker", "lesson", "--n", str(n))
        out[name] = res
        for key, t in res.items():
            print(f"lesson 09 ({name}), {key}, {len(t['cpu'])} moves on a {n:,}-request log: wall p50 "
                  f"{statistics.median(t['wall']):.0f} ms, p95 {_q(t['wall'], 0.95):.0f} ms; CPU p50 "
                  f"{statistics.median(t['cpu']):.1f} ms, p95 {_q(t['cpu'], 0.95):.1f} ms", flush=True)  # fmt: skip
    return out


# --- 4. the browser -----------------------------------------------------------------------------


def browser(n: int, moves: int = 30) -> dict:
    """Lesson 09 in the app server with Chromium, an ``n``-request log uploaded: key press to repaint per move."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT / "tests"))
    import bench_pages
    from browser.conftest import CHROMIUM_ARGS
    from helpers import pick_file

    from vtsmodel import mountlog
    from vtsmodel.app._browser import find_chromium

    folder = Path(tempfile.mkdtemp(prefix="vtsmodel-bench-replay-"))
    path = folder / "bench_requests.csv"
    mountlog.write_mount_log(mountlog.synthetic_mount_log(n, n // 10, seed=3, hours=24 * 14), path)
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", tempfile.mkdtemp(prefix="vtsmodel-bench-"))

    def upload(page):
        pick_file(page, "replay", "Upload mount log", str(path))
        page.locator(".vtsmodel-replay-status", has_text=f"{n:,} requests").wait_for(timeout=300_000)
        page.wait_for_timeout(3000)  # the panel's replay of the new log drawn

    out = {}
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=find_chromium(), headless=True, args=CHROMIUM_ARGS)
        server = bench_pages.Server(ROOT, pool=1)
        try:
            time.sleep(20)  # the preheated kernel
            for label, key in (("drives", "ArrowRight"), ("dismount delay", "ArrowRight")):
                kernel = {"kind": "slider", "target": label, "key": key, "moves": moves}
                out[label] = bench_pages.browser_moves(chromium, server.url, "09_replay_your_log.ipynb", kernel,
                                                       prepare=upload)  # fmt: skip
                print(
                    f"lesson 09 in the browser, {label}, {n:,}-request log: " + json.dumps(out[label]),
                    flush=True,
                )
        finally:
            server.close()
            chromium.close()
    return out


# --- the run ------------------------------------------------------------------------------------


def run(quick: bool = False, baseline: Path | None = None, with_browser: bool = False) -> dict:
    """Every measurement, as ``make bench`` reports them (times in s, memory in MB, moves in ms)."""
    trees = {"now": ROOT, **({"before": Path(baseline).resolve()} if baseline else {})}
    cases = [(100_000, "memory"), (1_000_000, "memory"), (1_000_000, "chunks")]
    if not quick:
        cases.append((10_000_000, "chunks"))
    out = {"uptime": os.getloadavg()}
    for name, tree in trees.items():
        for row in speed(cases, tree):
            key = f"{row['n']:.0e}_{row['mode']}".replace("+0", "")
            prefix = "" if name == "now" else f"{name}_"
            out[f"{prefix}{key}_s"] = round(row["s"], 2)
            out[f"{prefix}{key}_cpu_s"] = round(row["cpu"], 2)
            out[f"{prefix}{key}_peak_rss_mb"] = round(row["rss_mb"])
    e = engines(100_000, trees)
    out["engines_1e5_same_waits"] = e["same_waits"]
    for k in ("wall", "cpu"):
        out[f"engines_1e5_{k}_s"] = {name: round(v, 3) for name, v in e[f"{k}_s"].items()}
        for name in trees:
            out[f"ratio_simpy_{name}_{k}"] = round(e[f"{k}_s"]["simpy"] / e[f"{k}_s"][name], 1)
            out[f"ratio_ciw_{name}_{k}"] = round(e[f"{k}_s"]["ciw"] / e[f"{k}_s"][name], 1)
    for name, res in lesson_report(100_000, trees).items():
        for key, t in res.items():
            out[f"lesson09_{name}_{key}_ms"] = {
                "p50": round(statistics.median(t["wall"]), 1), "p95": round(_q(t["wall"], 0.95), 1),
                "cpu_p50": round(statistics.median(t["cpu"]), 1), "cpu_p95": round(_q(t["cpu"], 0.95), 1),
            }  # fmt: skip
    if with_browser:
        out["lesson09_browser"] = browser(100_000)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10^5 and 10^6 only")
    p.add_argument("--baseline", type=Path, help="a checkout of an earlier commit, measured in the same run")
    p.add_argument("--browser", action="store_true", help="also lesson 09 in Chromium on a 10^5-request log")
    p.add_argument("--json", type=Path, help="also write the results as JSON")
    p.add_argument("--worker", choices=("replay", "lesson"), help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, default=100_000, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker == "replay":
        print(json.dumps(replay_times(a.n)))
        return 0
    if a.worker == "lesson":
        print(json.dumps(lesson_sliders(a.n)))
        return 0
    res = run(a.quick, a.baseline, a.browser)
    if a.json:
        a.json.write_text(json.dumps(res, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
