"""Benchmark: the one-pass read-hit curve vs one libCacheSim run per cache size vs plain Python.

Workload: a synthetic mount log (vtsmodel.mountlog.synthetic_mount_log, illustrative) of
10 million mounts over 1 million volume serials, volume sizes fixed per volume (so that
libCacheSim, which keeps an object's first size, simulates exactly the same cache), sizes
in compressed MB, one week.

- vtsmodel: ``lru_hit_curve`` gives the whole curve (every capacity) in one pass; the
  aim is under 10 s and 2 GB. Timed three times (best and median reported: the machine is
  shared); memory is the peak resident set during the first call (the peak is reset
  first, so the log's generation does not count) and numpy's traced peak.
- libCacheSim: one LRU simulation per Table 3 capacity (nine), through its C trace loop
  (an oracleGeneral binary trace written once, not timed); its miss ratio over all mounts
  is checked against the one-pass thresholds at each size.
- plain Python: one OrderedDict LRU simulation per size, on a log 50 times smaller (200,000
  mounts, 20,000 volumes), timed and scaled by 50 (the per-size cost is linear in the
  mounts); the one-pass curve is timed on the same small log for the ratio.
- SHARDS: the fixed-size sampled curve on the 10M log, its time, memory and its error
  against the exact curve at the Table 3 sizes and on a grid of 40 sizes.
- Reading: ``read_mount_log`` on a 1 million line CSV file (lines per second).
- Real logs in (issue 23): the 10 million mount log written as a CSV file and the same
  text gzip'd; ``lru_hit_curve(path)`` streams each (read + exact curve) in a fresh
  process: wall and CPU time and peak resident memory, gzip'd against plain (aim: under
  1.5 times the plain time, judged on CPU time, which the machine's other load moves
  less; under 1.5 GB). Each is run twice, alternating, the lower CPU time kept. And the exact curve against libCacheSim's LRU at 24
  capacities on a block-trace look-alike (``benchmarks/lookalikes.py``: the public
  CloudPhysics trace libCacheSim's repository ships is not on this machine, and a
  benchmark fetches nothing).

Not a test: run ``python benchmarks/bench_hits.py [--mounts N --volumes V] [--real-logs]``
(``--real-logs``: the issue 23 rows only).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import tracemalloc
from collections import OrderedDict
from pathlib import Path

import numpy as np

from vtsmodel import hits, mountlog

TABLE3_GB = np.array([72, 144, 216, 288, 432, 576, 864, 1152, 1728], dtype=float)
SCALE = 50


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _measured(fn, *args, **kwargs):
    """(seconds, peak resident MB during the call, numpy-traced peak MB, result)."""
    reset = _reset_peak()
    tracemalloc.start()
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    dt = time.perf_counter() - t
    traced = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return dt, (_peak_mb() if reset else float("nan")), traced, out


def _python_lru(vol: list, size: list, capacity: float) -> int:
    """Hits of a plain per-size LRU simulation (the model of vtsmodel.hits)."""
    cache: OrderedDict = OrderedDict()
    used = 0.0
    hits_ = 0
    for v, s in zip(vol, size, strict=True):
        if v in cache:
            hits_ += 1
            used -= cache.pop(v)
        cache[v] = s
        used += s
        while used > capacity:
            used -= cache.popitem(last=False)[1]
    return hits_


def _libcachesim_runs(log: mountlog.MountLog, caps_gb: np.ndarray):
    import libcachesim as lcs

    n = len(log)
    rec = np.zeros(n, dtype=[("t", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
    rec["t"] = np.floor(log.time_s).astype(np.uint32)
    rec["id"] = log.volume + 1
    size_b = hits._curve._bytes(log.size_mb)
    if size_b.max() >= 2**32:
        raise ValueError("a volume of 4.3 GB or more does not fit libCacheSim's 32-bit object size")
    rec["size"] = size_b
    rec["next"] = -1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.oracleGeneral.bin")
        rec.tofile(path)
        del rec
        times, hit_ratio = [], []
        for c in caps_gb:
            reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE)
            cache = lcs.LRU(cache_size=int(round(c * 1e9)))
            t = time.perf_counter()
            miss, _ = cache.process_trace(reader)
            times.append(time.perf_counter() - t)
            hit_ratio.append(1.0 - miss)
    return np.array(times), np.array(hit_ratio)


_STREAM = """
import sys, time
from pathlib import Path
from vtsmodel import hits
t, c = time.perf_counter(), time.process_time()
curve = hits.lru_hit_curve(sys.argv[1])
dt, cpu = time.perf_counter() - t, time.process_time() - c
peak = next(int(x.split()[1]) for x in Path("/proc/self/status").read_text().splitlines() if x.startswith("VmHWM:"))
print(dt, cpu, peak / 1024, curve.mounts, float(curve.read_hit_ratio(864.0)))
"""


def _streamed(path: Path) -> dict:
    """``lru_hit_curve(path)`` in a fresh process: wall and CPU seconds, peak resident MB, mounts, hit ratio at 864 GB."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _STREAM, str(path)], capture_output=True, text=True, check=True
    )
    dt, cpu, peak, mounts, hit = out.stdout.split()
    return {
        "seconds": round(float(dt), 2),
        "cpu_seconds": round(float(cpu), 2),
        "peak_rss_mb": round(float(peak)),
        "mounts": int(mounts),
        "hit_864": float(hit),
    }


def real_logs(log: mountlog.MountLog) -> dict:
    """The log as plain CSV and gzip'd, each streamed through the exact curve in a fresh process."""
    import gzip
    import shutil

    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "log.csv"
        t = time.perf_counter()
        mountlog.write_mount_log(log, plain)
        out["write_csv_s"] = round(time.perf_counter() - t, 2)
        packed = Path(tmp) / "log.csv.gz"
        with plain.open("rb") as src, gzip.open(packed, "wb", compresslevel=6) as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        out["csv_mb"] = round(plain.stat().st_size / 1e6)
        out["gzip_mb"] = round(packed.stat().st_size / 1e6)
        runs = {"plain": [], "gzip": []}
        for _ in range(2):  # the machine is shared: alternate, keep the best of two
            for name, path in (("plain", plain), ("gzip", packed)):
                runs[name].append(_streamed(path))
        best = {k: min(v, key=lambda r: r["cpu_seconds"]) for k, v in runs.items()}
        out["read_and_curve_plain"] = best["plain"]
        out["read_and_curve_gzip"] = best["gzip"]
        out["gzip_to_plain_time"] = round(best["gzip"]["seconds"] / best["plain"]["seconds"], 2)
        # judged on CPU time: the wall time of a shared machine moves with the others' load
        out["gzip_to_plain_cpu"] = round(best["gzip"]["cpu_seconds"] / best["plain"]["cpu_seconds"], 2)
        out["same_answer"] = best["gzip"]["hit_864"] == best["plain"]["hit_864"]
        out["aim_met"] = bool(out["gzip_to_plain_cpu"] < 1.5 and best["gzip"]["peak_rss_mb"] < 1536)
    return out


def block_trace_vs_libcachesim(n: int = 200_000) -> dict:
    """The exact curve against libCacheSim's LRU at 24 capacities on a block-trace look-alike."""
    from lookalikes import block_trace

    log = block_trace(n, seed=3)
    curve = hits.lru_hit_curve(log)
    caps = np.geomspace(curve.largest_volume_gb, 2 * curve.working_set_gb, 24)
    t = time.perf_counter()
    theirs = hits.simulate_policy(log, caps, policy="LRU")
    t_lib = time.perf_counter() - t
    diff = np.abs(curve.read_hit_ratio(caps) - theirs.read_hit_ratio)
    below = curve.read_hit_ratio(np.array([1e-4, 1e-3]))  # 100 kB and 1 MB
    return {
        "requests": n, "objects": log.n_volumes, "capacities": len(caps),
        "max_abs_diff_hit_ratio": float(diff.max()), "libcachesim_s": round(t_lib, 1),
        "read_hit_ratio_at_100kB_1MB": [round(float(x), 4) for x in below],
    }  # fmt: skip


def run_real_logs(log: mountlog.MountLog) -> dict:
    """Issue 23's rows: the log gzip'd against plain, and the block-trace look-alike against libCacheSim."""
    out = {"real_logs": real_logs(log)}
    try:
        out["block_trace_lookalike_vs_libcachesim"] = block_trace_vs_libcachesim()
    except ImportError:
        out["block_trace_lookalike_vs_libcachesim"] = "libcachesim not installed"
    return out


def run(mounts: int = 10_000_000, volumes: int = 1_000_000, seed: int = 1) -> dict:
    """Time and size the one-pass curve, libCacheSim per size, plain Python per size, SHARDS."""
    out: dict = {"mounts": mounts, "volumes": volumes}
    # warm the JIT (compiled code is cached on disk after the first run)
    small = mountlog.synthetic_mount_log(2000, 200, seed=0)
    t = time.perf_counter()
    hits.lru_hit_curve(small)
    hits.shards_hit_curve(small)
    out["jit_warmup_s"] = round(time.perf_counter() - t, 2)

    log = mountlog.synthetic_mount_log(mounts, volumes, seed=seed, resize_on_write=False)
    out |= run_real_logs(log)
    out["volumes_used"] = log.n_volumes
    out["largest_volume_gb"] = float(log.size_mb.max() / 1000)
    dt, rss, traced, curve = _measured(hits.lru_hit_curve, log)
    times = [dt]
    for _ in range(2):  # the machine is shared: best and median of three
        t = time.perf_counter()
        hits.lru_hit_curve(log)
        times.append(time.perf_counter() - t)
    dt = min(times)
    out["curve_s_runs"] = [round(x, 2) for x in times]
    out["curve_s"] = round(dt, 2)
    out["curve_s_median"] = round(float(np.median(times)), 2)
    out["curve_peak_rss_mb"] = round(rss)
    out["curve_numpy_peak_mb"] = round(traced)
    out["curve_aim_met"] = bool(dt < 10 and rss < 2048)
    out["read_hit_ratio_table3"] = [round(float(x), 4) for x in curve.read_hit_ratio(TABLE3_GB)]

    # the same kernel's thresholds for every mount, for libCacheSim's all-mount hit ratio
    state = hits._exact._Exact(log.n_volumes)
    thr = state.run(log.volume, hits._curve._bytes(log.size_mb))
    ours_all = np.array([(thr <= c * 1e9).mean() for c in TABLE3_GB])
    del state, thr
    try:
        t_lib, lib_all = _libcachesim_runs(log, TABLE3_GB)
        out["libcachesim_per_size_s"] = [round(float(x), 2) for x in t_lib]
        out["libcachesim_total_s"] = round(float(t_lib.sum()), 2)
        out["ratio_libcachesim_total_to_curve"] = round(float(t_lib.sum()) / dt, 1)
        out["ratio_libcachesim_one_size_to_curve"] = round(float(t_lib.mean()) / dt, 2)
        out["libcachesim_sizes_to_break_even"] = round(dt / float(t_lib.mean()), 1)
        out["libcachesim_200_point_curve_s_extrapolated"] = round(200 * float(t_lib.mean()), 1)
        out["libcachesim_max_abs_diff_hit_ratio"] = float(np.max(np.abs(lib_all - ours_all)))
    except ImportError:
        out["libcachesim"] = "not installed (pip install 'vtsmodel[hits]')"

    # plain Python on the full log, one size (the middle Table 3 size), measured
    vol, size = log.volume.tolist(), log.size_mb.tolist()
    t = time.perf_counter()
    py_one = _python_lru(vol, size, 432 * 1000)
    out["python_one_size_full_log_s"] = round(time.perf_counter() - t, 2)
    out["python_one_size_full_log_agrees"] = bool(
        py_one == int((hits._exact._Exact(1).run(log.volume, hits._curve._bytes(log.size_mb)) <= 432e9).sum())
    )
    del vol, size

    # SHARDS on the big log: time, memory, error against the exact curve
    grid = np.geomspace(10, 20_000, 40)
    exact_grid = curve.read_hit_ratio(grid)
    # its memory does not grow with the log: the same on the first tenth of it
    part = mountlog.MountLog(
        *(getattr(log, f) for f in ("time_s", "volume", "volume_ids", "size_mb", "access", "size_basis"))
    )
    tenth = len(log) // 10
    part = mountlog.MountLog(
        part.time_s[:tenth],
        part.volume[:tenth],
        part.volume_ids,
        part.size_mb[:tenth],
        part.access[:tenth],
        part.size_basis,
    )
    _, _, traced_part, _ = _measured(hits.shards_hit_curve, part, max_volumes=65_536)
    out["shards_65536_numpy_peak_mb_on_a_tenth_of_the_log"] = round(traced_part, 1)
    del part
    for mv in (16_384, 65_536):
        dt_s, rss_s, traced_s, s = _measured(hits.shards_hit_curve, log, max_volumes=mv)
        err3 = np.abs(s.read_hit_ratio(TABLE3_GB) - curve.read_hit_ratio(TABLE3_GB))
        errg = np.abs(s.read_hit_ratio(grid) - exact_grid)
        errb = np.abs(s.read_byte_hit_ratio(TABLE3_GB) - curve.read_byte_hit_ratio(TABLE3_GB))
        out[f"shards_{mv}"] = {
            "seconds": round(dt_s, 2),
            "numpy_peak_mb": round(traced_s, 1),
            "sampling_rate": round(s.sampling_rate, 4),
            "max_abs_error_table3": round(float(err3.max()), 4),
            "mean_abs_error_table3": round(float(err3.mean()), 4),
            "max_abs_error_grid": round(float(errg.max()), 4),
            "max_abs_error_bytes_table3": round(float(errb.max()), 4),
        }
    del log, curve

    # plain Python, one simulation per size, on a log SCALE times smaller
    n_s, v_s = mounts // SCALE, max(1, volumes // SCALE)
    slog = mountlog.synthetic_mount_log(n_s, v_s, seed=seed, resize_on_write=False)
    caps_s = TABLE3_GB / SCALE  # the same cache-to-working-set proportion
    t = time.perf_counter()
    c_small = hits.lru_hit_curve(slog)
    t_curve_small = time.perf_counter() - t
    vol, size = slog.volume.tolist(), slog.size_mb.tolist()
    reads = slog.access == mountlog.READ
    t = time.perf_counter()
    py_hits = [_python_lru(vol, size, c * 1000) for c in caps_s]
    t_py = time.perf_counter() - t
    state = hits._exact._Exact(slog.n_volumes)
    thr = state.run(slog.volume, hits._curve._bytes(slog.size_mb))
    agree = all(int((thr <= c * 1e9).sum()) == h for c, h in zip(caps_s, py_hits, strict=True))
    out["python_small_log"] = f"{n_s} mounts, {v_s} volumes, capacities Table 3 / {SCALE}"
    out["python_per_size_total_s"] = round(t_py, 2)
    out["curve_small_log_s"] = round(t_curve_small, 3)
    out["ratio_python_to_curve_small_log"] = round(t_py / t_curve_small, 1)
    out["python_scaled_to_full_log_s"] = round(t_py * SCALE, 1)
    out["python_agrees_with_curve"] = agree
    _ = c_small.read_hit_ratio(caps_s), reads

    # reading a CSV file
    rlog = mountlog.synthetic_mount_log(1_000_000, 100_000, seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.csv"
        path.write_text(mountlog.mount_log_csv(rlog))
        t = time.perf_counter()
        back = mountlog.read_mount_log(path)
        t_read = time.perf_counter() - t
        del back
        # streamed from the file: SHARDS holds a chunk and its fixed state; the exact curve
        # also holds a threshold per read and a slot per volume
        _, _, traced_s, _ = _measured(hits.shards_hit_curve, path, max_volumes=65_536)
        _, _, traced_e, _ = _measured(hits.lru_hit_curve, path)
    out["read_csv_1M_lines_s"] = round(t_read, 2)
    out["read_csv_lines_per_s"] = round(1_000_000 / t_read)
    out["streamed_1M_lines_numpy_peak_mb"] = {"shards_65536": round(traced_s, 1), "exact": round(traced_e, 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mounts", type=int, default=10_000_000)
    ap.add_argument("--volumes", type=int, default=1_000_000)
    ap.add_argument(
        "--real-logs", action="store_true", help="only the gzip'd against plain and libCacheSim rows"
    )
    args = ap.parse_args()
    if args.real_logs:
        log = mountlog.synthetic_mount_log(args.mounts, args.volumes, seed=1, resize_on_write=False)
        results = run_real_logs(log)
    else:
        results = run(args.mounts, args.volumes)
    for k, v in results.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
