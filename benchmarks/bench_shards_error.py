"""Benchmark: the SHARDS curve's error against the exact one, by sample size, with and without SHARDS_adj.

Logs (all made by the project, ILLUSTRATIVE): synthetic mount logs
(vtsmodel.logs.synthetic_mount_log, 2 million mounts over 200,000 volume serials, seeds 10
and up, other parameters at their defaults), block-trace look-alikes and tape-request
look-alikes (``benchmarks/lookalikes.py``). For each log, the exact one-pass curve and the
fixed-size SHARDS curve at each sample size (``max_volumes``), with SHARDS_adj and
without; the error is the largest absolute difference of the read-hit ratio (by count)
over 20 capacities spaced in log scale over the log's working set
(``vtsmodel.hits.auto_capacities``), capacities below 1 MB included. Also reported: how
often the exact ratio lies within two of the curve's standard errors (plus 0.001, the binning)
(``HitCurve.read_hit_error``), and the time.

Not a test: run ``python benchmarks/bench_shards_error.py [--logs N --mounts M --volumes V]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from lookalikes import block_trace, tape_requests

from vtsmodel import hits, mountlog
from vtsmodel.logs import synthetic_mount_log

SIZES = (512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536)


def _logs(logs: int, mounts: int, volumes: int):
    for seed in range(10, 10 + logs):
        yield f"synthetic {seed}", synthetic_mount_log(mounts, volumes, seed=seed)
    for seed in range(max(1, logs // 2)):
        yield f"block {seed}", block_trace(mounts // 2, seed=seed)
    for seed in range(max(1, logs // 2)):
        t, cart = tape_requests(mounts // 4, 20_000, seed=seed)
        yield f"tape {seed}", mountlog.mount_log(t, cart, object_mb=18e6, source="tape look-alike")


def run(logs: int = 6, mounts: int = 2_000_000, volumes: int = 200_000) -> dict:
    """Errors, coverage and times of SHARDS at each sample size over the logs."""
    hits.shards_hit_curve(synthetic_mount_log(2000, 200, seed=0))  # compile first
    rows = {
        (s, a): {"err": [], "cover": [], "seconds": [], "rate": [], "kind": []}
        for s in SIZES
        for a in (True, False)
    }
    out: dict = {"logs": f"{logs} synthetic, {max(1, logs // 2)} block, {max(1, logs // 2)} tape look-alikes"}
    small = []
    for name, log in _logs(logs, mounts, volumes):
        t = time.perf_counter()
        exact = hits.lru_hit_curve(log)
        exact_s = time.perf_counter() - t
        caps = hits.auto_capacities(exact, 20)
        want = exact.read_hit_ratio(caps)
        tiny = caps < 1e-3  # below 1 MB
        for s in SIZES:
            for adj in (True, False):
                t = time.perf_counter()
                curve = hits.shards_hit_curve(log, max_volumes=s, adjust=adj)
                dt = time.perf_counter() - t
                got = curve.read_hit_ratio(caps)
                err = np.abs(got - want)
                se = curve.read_hit_error(caps)
                r = rows[(s, adj)]
                r["err"].append(float(np.nanmax(err)))
                r["cover"].append(float(np.mean(err <= 2 * se + 1e-3)))
                r["seconds"].append(dt / max(exact_s, 1e-9))
                r["rate"].append(curve.sampling_rate)
                r["kind"].append(name.split()[0])
                r.setdefault("ratio", []).extend((err / np.maximum(se, 1e-9)).tolist())
                if s == 65_536 and adj and tiny.any():
                    small.append((name, float(want[tiny].max()), float(got[tiny].max())))
        out[name] = f"{len(log):,} requests, {log.n_volumes:,} objects, exact curve {exact_s:.2f} s"
    table = []
    for s in SIZES:
        a, b = rows[(s, True)], rows[(s, False)]
        table.append(
            {
                "sample": s,
                "median error adj": round(float(np.median(a["err"])), 4),
                "largest error adj": round(float(np.max(a["err"])), 4),
                "median error no adj": round(float(np.median(b["err"])), 4),
                "largest error no adj": round(float(np.max(b["err"])), 4),
                "adj better in": f"{int(np.sum(np.array(a['err']) < np.array(b['err'])))}/{len(a['err'])}",
                "within 2 SE (adj)": round(float(np.mean(a["cover"])), 2),
                "time / exact": round(float(np.median(a["seconds"])), 2),
            }
        )
    out["by sample size"] = table
    kinds = sorted(set(rows[(SIZES[0], True)]["kind"]))
    out["median error by kind, adj / no adj"] = [
        {"sample": s}
        | {
            k: tuple(
                round(
                    float(
                        np.median(
                            [
                                e
                                for e, kk in zip(rows[(s, a)]["err"], rows[(s, a)]["kind"], strict=True)
                                if kk == k
                            ]
                        )
                    ),
                    4,
                )
                for a in (True, False)
            )
            for k in kinds
        }
        for s in SIZES
    ]
    ratio = np.array(
        rows[(SIZES[0], True)].get("ratio", [0.0])
        + sum((rows[(s, True)].get("ratio", []) for s in SIZES[1:]), [])
    )
    out["error / standard error, quantiles 50, 80, 90, 95 %"] = [
        round(float(np.quantile(ratio, q)), 2) for q in (0.5, 0.8, 0.9, 0.95)
    ]
    out["below 1 MB, exact vs sampled at 65,536 (largest ratio)"] = [
        (n, round(e, 4), round(g, 4)) for n, e, g in small
    ]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=6)
    ap.add_argument("--mounts", type=int, default=2_000_000)
    ap.add_argument("--volumes", type=int, default=200_000)
    args = ap.parse_args()
    for k, v in run(args.logs, args.mounts, args.volumes).items():
        if isinstance(v, list):
            print(f"{k}:")
            for row in v:
                print(f"  {row}")
        else:
            print(f"{k}: {v}")


if __name__ == "__main__":
    main()
