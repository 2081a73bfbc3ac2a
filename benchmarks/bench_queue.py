"""Benchmark: vtsmodel.simulate_recalls vs SimPy and Ciw on the same M/D/4 and M/G/4 workloads.

All engines get the same arrival times and service times (generated once per workload),
so their per-recall waits must agree; the script checks that, then prints wall times and
the ratios. Ciw on the M/G/4 workload gives the same mean wait but pairs service times
with recalls in a different order, so its per-recall waits differ (reported, not hidden). Not a test: run ``python benchmarks/bench_queue.py [--customers N]``.
Workloads: service 180 s (mean), utilisation 0.8, four drives; M/G/4 uses gamma service
with coefficient of variation 0.5.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from vtsmodel.queueing import _deterministic_starts, _heap_starts, simulate_recalls

SERVICE_S = 180.0
SERVERS = 4
RHO = 0.8
CV = 0.5
DEFAULT_CUSTOMERS = 50_000


def _workload(n: int, cv: float, seed: int = 0):
    """Arrival and service times drawn exactly as simulate_recalls draws them."""
    lam = RHO * SERVERS / SERVICE_S
    rng = np.random.default_rng(seed)
    arr = np.cumsum(rng.exponential(1.0 / lam, n))
    if cv == 0.0:
        svc = np.full(n, SERVICE_S)
    else:
        shape = 1.0 / cv**2
        svc = rng.gamma(shape, SERVICE_S / shape, n)
    return lam, arr, svc


def _simpy_waits(arr: np.ndarray, svc: np.ndarray) -> np.ndarray:
    import simpy

    env = simpy.Environment()
    drives = simpy.Resource(env, capacity=SERVERS)
    waits = np.empty(len(arr))

    def recall(i):
        with drives.request() as req:
            yield req
            waits[i] = env.now - arr[i]
            yield env.timeout(svc[i])

    def source():
        last = 0.0
        for i, a in enumerate(arr.tolist()):
            yield env.timeout(a - last)
            last = a
            env.process(recall(i))

    env.process(source())
    env.run()
    return waits


def _ciw_waits(arr: np.ndarray, svc: np.ndarray) -> np.ndarray:
    import ciw

    gaps = np.diff(np.r_[0.0, arr]).tolist()
    network = ciw.create_network(
        arrival_distributions=[ciw.dists.Sequential(gaps)],
        service_distributions=[ciw.dists.Sequential(svc.tolist())],
        number_of_servers=[SERVERS],
    )
    sim = ciw.Simulation(network)
    sim.simulate_until_max_customers(len(arr), method="Finish")
    recs = sorted(sim.get_all_records(), key=lambda r: r.arrival_date)
    return np.array([r.waiting_time for r in recs])


def _timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t, out


def run(customers: int = DEFAULT_CUSTOMERS) -> dict:
    """Time every engine on both workloads; return times, ratios and wait agreement."""
    results: dict = {"customers": int(customers)}
    for label, cv in (("M/D/4", 0.0), ("M/G/4", CV)):
        lam, arr, svc = _workload(customers, cv)
        if cv == 0.0:
            t_ours, starts = _timed(_deterministic_starts, arr, SERVICE_S, SERVERS)
        else:
            t_ours, starts = _timed(_heap_starts, arr, svc, SERVERS)
        ours = starts - arr
        # the public function, end to end (random draws included), gives the same waits
        t0 = time.perf_counter()
        sim = simulate_recalls(lam, SERVICE_S, SERVERS, customers, seed=0, service_cv=cv)
        t_api = time.perf_counter() - t0
        t_simpy, w_simpy = _timed(_simpy_waits, arr, svc)
        t_ciw, w_ciw = _timed(_ciw_waits, arr, svc)
        n_ciw = min(len(w_ciw), len(ours))
        row = {
            "vtsmodel_s": t_ours,
            "vtsmodel_api_s": t_api,
            "simpy_s": t_simpy,
            "ciw_s": t_ciw,
            "ratio_simpy": t_simpy / t_ours,
            "ratio_ciw": t_ciw / t_ours,
            "mean_wait_s": float(ours.mean()),
            "max_diff_simpy_s": float(np.max(np.abs(w_simpy - ours))),
            "max_diff_ciw_s": float(np.max(np.abs(w_ciw[:n_ciw] - ours[:n_ciw]))),
            "max_diff_api_s": float(np.max(np.abs(sim.waits - ours))),
        }
        row["mean_wait_ciw_s"] = float(w_ciw.mean())
        row["agree_simpy"] = max(row["max_diff_simpy_s"], row["max_diff_api_s"]) < 1e-6
        row["agree_ciw"] = row["max_diff_ciw_s"] < 1e-6
        row["waits_agree"] = row["agree_simpy"] and row["agree_ciw"]
        results[label] = row
    return results


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--customers", type=int, default=DEFAULT_CUSTOMERS, help="recalls per workload")
    args = parser.parse_args(argv)
    res = run(args.customers)
    print(
        f"{res['customers']} recalls per workload, service {SERVICE_S:g} s, utilisation {RHO}, {SERVERS} drives"
    )
    for label in ("M/D/4", "M/G/4"):
        r = res[label]
        print(
            f"{label}: vtsmodel {r['vtsmodel_s']:.3f} s (public API {r['vtsmodel_api_s']:.3f} s), "
            f"SimPy {r['simpy_s']:.2f} s ({r['ratio_simpy']:.0f}x), Ciw {r['ciw_s']:.2f} s ({r['ratio_ciw']:.0f}x); "
            f"mean wait {r['mean_wait_s']:.2f} s; waits agree: {r['waits_agree']} "
            f"(max diff SimPy {r['max_diff_simpy_s']:.2g} s, Ciw {r['max_diff_ciw_s']:.2g} s; "
            f"Ciw mean wait {r['mean_wait_ciw_s']:.2f} s)"
        )


if __name__ == "__main__":
    main()
