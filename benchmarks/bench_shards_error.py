"""Benchmark: the SHARDS curve's error and cost at 16,384 and 65,536 sampled volumes.

Why ``shards_hit_curve``'s default ``max_volumes`` is 65,536. Twelve synthetic mount logs
(vtsmodel.mountlog.synthetic_mount_log, illustrative: 2 million mounts over 200,000
volume serials, seeds 10 to 21, other parameters at their defaults); for each, the exact
one-pass curve and the fixed-size SHARDS curve at both sample sizes; the error is the
largest absolute difference of the read-hit ratio (by count) at Table 3's nine capacities
scaled by 1/5 (the log's working set is a fifth of the 10-million-mount benchmark's).
Reports each log's error, time and final sampling rate, and the median and largest error.

Not a test: run ``python benchmarks/bench_shards_error.py [--logs N --mounts M --volumes V]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from vtsmodel import hits, mountlog

TABLE3_GB = np.array([72, 144, 216, 288, 432, 576, 864, 1152, 1728], dtype=float)
SIZES = (16_384, 65_536)


def run(logs: int = 12, mounts: int = 2_000_000, volumes: int = 200_000) -> dict:
    """Errors and times of SHARDS at each sample size over ``logs`` synthetic logs."""
    caps = TABLE3_GB * volumes / 1_000_000
    hits.shards_hit_curve(mountlog.synthetic_mount_log(2000, 200, seed=0))  # compile first
    err = {s: [] for s in SIZES}
    out: dict = {"logs": logs, "mounts": mounts, "volumes": volumes}
    for seed in range(10, 10 + logs):
        log = mountlog.synthetic_mount_log(mounts, volumes, seed=seed)
        t = time.perf_counter()
        exact = hits.lru_hit_curve(log)
        row = {"exact_s": round(time.perf_counter() - t, 2)}
        want = exact.read_hit_ratio(caps)
        for s in SIZES:
            t = time.perf_counter()
            curve = hits.shards_hit_curve(log, max_volumes=s)
            dt = time.perf_counter() - t
            e = float(np.abs(curve.read_hit_ratio(caps) - want).max())
            err[s].append(e)
            row[s] = {
                "max_abs_error": round(e, 4),
                "seconds": round(dt, 2),
                "rate": round(curve.sampling_rate, 4),
            }
        out[f"seed {seed}"] = row
    for s in SIZES:
        e = np.array(err[s])
        out[f"{s}: median, largest error"] = (round(float(np.median(e)), 4), round(float(e.max()), 4))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=12)
    ap.add_argument("--mounts", type=int, default=2_000_000)
    ap.add_argument("--volumes", type=int, default=200_000)
    args = ap.parse_args()
    for k, v in run(args.logs, args.mounts, args.volumes).items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
