"""Tests of vtsmodel.replay: hand-built logs timed by hand, the queue formulas and simulation,
an independent simulator (Ciw), properties on random logs, streaming, bad input."""

from __future__ import annotations

import heapq
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_logs import (
    bursty_arrivals,
    clustered_cartridges,
    lognormal_service,
    pareto_service,
    poisson_arrivals,
)

from vtsmodel import lru_hit_curve, simulate_recalls, synthetic_mount_log, wait_mdc
from vtsmodel.catalog import mount_parts
from vtsmodel.replay import (
    ApproximationWarning,
    analytic_beside,
    replay_chunks,
    replay_drives_needed,
    replay_library,
    replay_log,
    replay_requests,
    wait_parts,
)
from vtsmodel.replay import run as replay_run
from vtsmodel.replay.synthetic import synthetic_request_log

ROOT = Path(__file__).resolve().parents[1]

# A library with round timings, so that every time below is worked out by hand:
# robot move 10 s, load 20 s, locate 30 s, read 1000 MB at 100 MB/s = 10 s, rewind+unload 40 s.
HAND = {
    "robot_move_s": 10,
    "load_s": 20,
    "locate_s": 30,
    "rewind_unload_s": 40,
    "rate_mb_s": 100,
    "cartridge_gb": 1000,
}


def hand(drives=1, **kw):
    return replay_library(drives, drive=None, **{**HAND, **kw})


def run(times, carts, lib, **kw):
    n = len(times)
    return replay_requests(times, library=lib, cartridge=carts, size_mb=np.full(n, 1000.0), **kw)


# --- exact on hand-built logs --------------------------------------------------------------------
def test_one_drive_two_cartridges_by_hand():
    r = run([0.0, 5.0], [0, 1], hand())
    # A: move 0-10, load 10-30, locate+read 30-70 -> 70 s. Unload 70-110, move back 110-120.
    # B (at 5): the robot is back at 120: move 120-130, load 130-150, read 150-190 -> 185 s.
    np.testing.assert_allclose(r.response_s, [70.0, 185.0])
    np.testing.assert_allclose(r.wait_s, [0.0, 185.0 - 70.0])  # own service 70 s each
    assert r.mounted.tolist() == [True, True]
    assert (r.mounts, r.moves) == (2, 4)
    # busy: A loading 0-30, serving 30-70, unloading 70-110; B loading 110-150 (robot wait
    # included), serving 150-190, unloading 190-230: 230 s in all.
    assert r.drive_busy_s == pytest.approx(230.0)
    assert r.robot_busy_s == pytest.approx(40.0)
    assert r.drive_held_s == 0.0


def test_dismount_delay_keeps_the_cartridge_by_hand():
    r = run([0.0, 100.0], [0, 0], hand(dismount_after_s=300))
    # second request finds A mounted and idle: locate+read 100-140 -> 40 s, no mount
    np.testing.assert_allclose(r.response_s, [70.0, 40.0])
    assert r.mounted.tolist() == [True, False]
    assert r.mounts == 1 and r.loads_saved == 1
    # held idle 70-100 and 140-440, then unloaded 440-480
    assert r.drive_held_s == pytest.approx(30.0 + 300.0)
    assert r.drive_busy_s == pytest.approx(70.0 + 40.0 + 40.0)
    # without the delay: unload 70-110, back 110-120, fetch 120-130, load -150, read -190
    r0 = run([0.0, 100.0], [0, 0], hand())
    np.testing.assert_allclose(r0.response_s, [70.0, 90.0])
    assert r0.mounts == 2


def test_batch_of_two_and_its_wait_by_hand():
    lib = hand(batch_requests=2, batch_wait_s=1000, policy="group")
    r = run([0.0, 50.0], [0, 0], lib)
    # the second request makes the batch: move 50-60, load 60-80, read 80-120, read 120-160
    np.testing.assert_allclose(r.response_s, [120.0, 110.0])
    assert r.mounts == 1
    r1 = run([0.0], [0], hand(batch_requests=2, batch_wait_s=100))
    # alone, it waits out the batch's 100 s: move 100-110, load -130, read -170
    np.testing.assert_allclose(r1.response_s, [170.0])


def test_fifo_and_group_by_hand():
    times, carts = [0.0, 1.0, 2.0], [0, 1, 0]
    fifo = run(times, carts, hand(policy="fifo"))
    # A0 30-70; B is older than A2: unload A 70-110 (back 110-120), B moved 120-130, loaded -150,
    # read -190; A2: unload B 190-230 (back 230-240), A moved 240-250, loaded -270, read -310.
    np.testing.assert_allclose(fifo.response_s, [70.0, 189.0, 308.0])
    group = run(times, carts, hand(policy="group"))
    # A2 served on A's mount 70-110; unload 110-150 (back 150-160); B moved 160-170, -190, -230
    np.testing.assert_allclose(group.response_s, [70.0, 229.0, 108.0])
    assert (fifo.mounts, group.mounts) == (3, 2)


def test_two_robots_overlap_the_moves_by_hand():
    r = run([0.0, 5.0], [0, 1], hand(robots=2))
    # B's move no longer waits for A's return: move 110-120, load -140, read -180 -> 175 s
    np.testing.assert_allclose(r.response_s, [70.0, 175.0])


def test_an_idle_drive_is_taken_over_for_another_cartridge():
    r = run([0.0, 100.0], [0, 1], hand(dismount_after_s=1000))
    # B needs the drive A holds idle: unload A 100-140 (back 140-150), move B 150-160, load -180, read -220
    np.testing.assert_allclose(r.response_s, [70.0, 120.0])
    assert r.drive_held_s == pytest.approx(30.0 + 1000.0)


def test_two_drives_free_at_once_the_lowest_goes_first_by_hand():
    r = run([0.0, 0.0, 1.0, 1.0], [0, 1, 2, 3], hand(drives=2, robots=2))
    # A on drive 0, B on drive 1: move 0-10, load 10-30, read 30-70; both unload 70-110. At 110
    # both drives are free: drive 0 first, so its robot returns A 110-120 while the other fetches
    # C to drive 0 110-120, load -140, read -180; B goes back 120-130 (no robot before), D is
    # fetched to drive 1 120-130, load -150, read -190.
    np.testing.assert_allclose(r.response_s, [70.0, 70.0, 179.0, 189.0])
    assert r.drive.tolist() == [0, 1, 0, 1]


@pytest.mark.parametrize("drives", [3, 24])
def test_a_scan_of_the_drives_and_their_tree_give_the_same_replay(monkeypatch, drives):
    """The event loop finds the first drive event by a scan (few drives) or a tournament tree."""
    from vtsmodel.replay import _engine

    log = _mixed_log(3000)
    lib = replay_library(**{**_MIXED_LIBRARY, "drives": drives, "policy": "group"})
    results = []
    for scan_drives in (0, 64):  # the tree, then the scan
        monkeypatch.setattr(_engine, "SCAN_DRIVES", scan_drives)
        results.append(replay_requests(**log, library=lib))
    tree, scan = results
    for name in ("response_s", "wait_s", "mounted", "drive"):
        np.testing.assert_array_equal(getattr(scan, name), getattr(tree, name))
    assert (scan.mounts, scan.moves, scan.drive_busy_s) == (tree.mounts, tree.moves, tree.drive_busy_s)


def test_catalog_drive_timings_and_citations():
    lib = replay_library(4, drive="LTO-9")
    parts = mount_parts("LTO9")
    assert lib.load_s == parts["load"].seconds == 17.0  # ibm-dtl-lto-perf, LTO-9 load-to-ready
    assert lib.locate_s == parts["locate"].seconds == 45.0
    assert lib.rewind_unload_s == parts["rewind_unload"].seconds == 55.0 + 30.0
    assert lib.robot_move_s == 22.5  # cern-tape-sizing-2005: 3600 / 160
    assert lib.rate_mb_s == 400.0 and lib.cartridge_gb == 18000.0
    assert any("ibm-dtl-lto-perf" in s for s in lib.sources)
    borrowed = replay_library(4, drive="TS1160")
    assert any("CERN's 9940 figure" in s for s in borrowed.sources)
    # a mount with no data takes CERN's tMount parts: move + load + locate + rewind/unload
    r = replay_requests([0.0], library=lib, size_mb=[0.0])
    assert r.response_s[0] == pytest.approx(22.5 + 17.0 + 45.0)
    assert r.drive_busy_s == pytest.approx(lib.cycle_s)


# --- the queue formulas and simulate_recalls ------------------------------------------------------
def _bare(drives, **kw):
    """A library whose only drive time is the request's own service (no robot, load, unload)."""
    return replay_library(
        drives,
        drive=None,
        robot_move_s=0,
        load_s=0,
        locate_s=0,
        rewind_unload_s=0,
        rate_mb_s=1,
        cartridge_gb=1,
        **kw,
    )


def test_poisson_identical_service_equals_simulate_recalls():
    lam, s, c, n, seed = 0.8 * 4 / 180.0, 180.0, 4, 100_000, 3
    sim = simulate_recalls(lam, s, c, n, seed=seed)
    arr = np.cumsum(np.random.default_rng(seed).exponential(1.0 / lam, n))  # the same seed path
    lib = replay_library(c, drive="LTO9", robot_move_s=0.0, cartridge_gb=1.0)
    size = (s - lib.load_s - lib.locate_s - lib.rewind_unload_s) * lib.rate_mb_s  # hold = 180 s
    r = replay_requests(arr, library=lib, size_mb=np.full(n, size), cartridge=np.arange(n))
    np.testing.assert_allclose(r.hold_s, s)
    np.testing.assert_allclose(r.wait_s, sim.waits, atol=1e-6)
    # and the M/D/c formula (Cosmetatos) within the simulation's confidence interval and 2%
    mdc = float(wait_mdc(lam, s, c))
    assert abs(r.wait_s[sim.warmup :].mean() - mdc) <= sim.ci_halfwidth + 0.02 * mdc


def _fifo_waits(arr, svc, c):
    free = [0.0] * c
    out = np.empty(arr.size)
    for k, (a, x) in enumerate(zip(arr, svc, strict=True)):
        f = heapq.heappop(free)
        st_ = max(a, f)
        out[k] = st_ - a
        heapq.heappush(free, st_ + x)
    return out


def test_dismount_delay_zero_is_the_fifo_queue():
    rng = np.random.default_rng(7)
    n = 20_000
    arr = bursty_arrivals(rng, n, 0.02)
    svc = lognormal_service(rng, n, 150.0, 1.5)
    lib = hand(drives=4, robot_move_s=0)
    r = replay_requests(arr, library=lib, cartridge=np.arange(n), duration_s=svc, service="log")
    hold = svc + lib.load_s + lib.rewind_unload_s
    np.testing.assert_allclose(r.hold_s, hold)
    np.testing.assert_allclose(r.wait_s, _fifo_waits(arr, hold, 4), atol=1e-6)


# --- Ciw, an independent simulator --------------------------------------------------------------
ciw = pytest.importorskip("ciw")


def _ciw_waits(arr, svc, c):
    """Ciw fed the same arrivals and service times, in order (Sequential distributions)."""
    gaps = np.diff(np.concatenate([[0.0], arr]))
    gaps[gaps <= 0] = 1e-12  # Ciw takes gaps > 0
    net = ciw.create_network(
        arrival_distributions=[ciw.dists.Sequential(gaps.tolist() + [1e12])],
        service_distributions=[ciw.dists.Sequential(svc.tolist())],
        number_of_servers=[c],
    )
    ciw.seed(0)
    q = ciw.Simulation(net)
    q.simulate_until_max_customers(arr.size, method="Finish")
    recs = sorted(q.get_all_records(), key=lambda x: x.id_number)
    return np.array([x.waiting_time for x in recs])


def _ciw_resampled(arr, sample, c, seed):
    gaps = np.diff(np.concatenate([[0.0], arr]))
    gaps[gaps <= 0] = 1e-12
    net = ciw.create_network(
        arrival_distributions=[ciw.dists.Sequential(gaps.tolist() + [1e12])],
        service_distributions=[ciw.dists.Empirical(sample.tolist())],
        number_of_servers=[c],
    )
    ciw.seed(seed)
    q = ciw.Simulation(net)
    q.simulate_until_max_customers(arr.size, method="Finish")
    return np.array([x.waiting_time for x in q.get_all_records()])


CASES = {
    # name: (arrivals, service sample, drives); utilisation about 0.7
    "poisson, lognormal cv 0.5": ("poisson", lambda r, n: lognormal_service(r, n, 400.0, 0.5), 4),
    "poisson, lognormal cv > 3": ("poisson", lambda r, n: lognormal_service(r, n, 406.0, 4.07), 16),
    "bursty, lognormal cv 1.27": ("bursty", lambda r, n: lognormal_service(r, n, 300.0, 1.27), 8),
    "bursty, pareto 1.6": ("bursty", lambda r, n: pareto_service(r, n, 406.0, alpha=1.6), 16),
}


def _case(name, n, seed):
    kind, draw, c = CASES[name]
    rng = np.random.default_rng(seed)
    sample = draw(rng, 5000)
    rate = 0.7 * c / sample.mean()
    arr = poisson_arrivals(rng, n, rate) if kind == "poisson" else bursty_arrivals(rng, n, rate)
    return arr, sample, c


@pytest.mark.parametrize("name", list(CASES))
def test_same_log_and_services_as_ciw_exactly(name):
    arr, sample, c = _case(name, 3000, 1)
    svc = np.random.default_rng(2).choice(sample, arr.size)
    r = replay_requests(arr, library=_bare(c), cartridge=np.arange(arr.size), duration_s=svc, service="log")
    np.testing.assert_allclose(r.wait_s, _ciw_waits(arr, svc, c), atol=1e-6)


def test_same_log_and_services_as_ciw_exactly_on_more_drives_than_a_scan_takes():
    """Past SCAN_DRIVES the event loop keeps a tournament tree of the drives' events."""
    from vtsmodel.replay import _engine

    c = 2 * _engine.SCAN_DRIVES
    rng = np.random.default_rng(4)
    svc = lognormal_service(rng, 3000, 300.0, 2.0)
    arr = bursty_arrivals(rng, svc.size, 0.8 * c / 300.0)
    r = replay_requests(arr, library=_bare(c), cartridge=np.arange(arr.size), duration_s=svc, service="log")
    assert r.wait_s.max() > 0  # the drives were all busy at times
    np.testing.assert_allclose(r.wait_s, _ciw_waits(arr, svc, c), atol=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_resampled_service_mean_and_p95_within_ciw_intervals(name):
    """Replay resampling the sample vs Ciw's Empirical on the same log: replications' intervals overlap."""
    arr, sample, c = _case(name, 4000, 11)
    if "cv > 3" in name:
        assert sample.std() / sample.mean() > 3.0
    reps = 8
    ours = np.array(
        [
            (lambda w: (w.mean(), np.quantile(w, 0.95)))(
                replay_requests(arr, library=_bare(c), cartridge=np.arange(arr.size), service="resample",
                                service_sample=sample, seed=s).wait_s
            )
            for s in range(reps)
        ]
    )  # fmt: skip
    theirs = np.array(
        [
            (lambda w: (w.mean(), np.quantile(w, 0.95)))(_ciw_resampled(arr, sample, c, 100 + s))
            for s in range(reps)
        ]
    )
    for j, what in enumerate(("mean", "p95")):
        a, b = ours[:, j], theirs[:, j]
        half = 2.0 * math.hypot(a.std(ddof=1), b.std(ddof=1)) / math.sqrt(reps)  # 95% of the difference
        assert abs(a.mean() - b.mean()) <= half + 1e-9 + 0.02 * b.mean(), (what, a.mean(), b.mean(), half)


# --- properties on random logs ---------------------------------------------------------------------
@st.composite
def small_logs(draw):
    n = draw(st.integers(1, 40))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    arr = np.sort(rng.exponential(draw(st.floats(5.0, 500.0)), n).cumsum())
    carts = clustered_cartridges(rng, n, draw(st.integers(1, 8)))
    size = rng.choice([0.0, 100.0, 5000.0], n)
    return arr, carts, size


LIBS = st.fixed_dictionaries(
    {
        "robots": st.integers(1, 3),
        "dismount_after_s": st.sampled_from([0.0, 60.0, 600.0]),
        "policy": st.sampled_from(["fifo", "group"]),
        "batch_requests": st.integers(1, 3),
        "batch_wait_s": st.sampled_from([0.0, 100.0]),
    }
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_logs(), LIBS, st.integers(1, 5))
def test_every_request_is_served_and_times_add_up(log, libkw, drives):
    arr, carts, size = log
    lib = replay_library(drives, **libkw)
    r = replay_requests(arr, library=lib, cartridge=carts, size_mb=size)
    own = lib.locate_s + size / lib.rate_mb_s
    assert np.all(np.isfinite(r.response_s))
    assert np.all(r.wait_s >= 0)
    np.testing.assert_allclose(r.service_s, own + r.mounted * lib.mount_s)
    np.testing.assert_allclose(r.response_s, r.wait_s + r.service_s)
    assert 1 <= r.mounts <= arr.size and r.mounts <= r.moves <= 2 * r.mounts
    assert r.drive_busy_s <= lib.drives * r.span_s + 1e-6
    assert r.robot_busy_s == pytest.approx(r.moves * lib.robot_move_s)
    if libkw["dismount_after_s"] == 0:
        assert r.drive_held_s == 0.0
    assert r.mounted[0]


@settings(max_examples=100, deadline=None)
@given(small_logs(), st.integers(1, 6), st.sampled_from([0.0, 300.0]))
def test_more_drives_never_lengthen_the_mean_response(log, drives, delay):
    """FIFO with one cartridge per request (each request its own mount)."""
    arr, _, size = log
    lib = replay_library(drives, dismount_after_s=delay, robots=2 * drives + 2)
    one = replay_requests(arr, library=lib, cartridge=np.arange(arr.size), size_mb=size)
    more = replay_requests(
        arr, library=lib.but(drives=drives + 1), cartridge=np.arange(arr.size), size_mb=size
    )
    assert more.mean_response_s <= one.mean_response_s + 1e-9


def test_more_drives_lower_the_mean_response_on_a_clustered_bursty_log():
    rng = np.random.default_rng(5)
    n = 20_000
    arr = bursty_arrivals(rng, n, 1 / 30.0)
    carts = clustered_cartridges(rng, n, 3000)
    size = lognormal_service(rng, n, 2000.0, 3.0)
    means = [
        replay_requests(
            arr, library=replay_library(c, dismount_after_s=300), cartridge=carts, size_mb=size
        ).mean_response_s
        for c in (4, 6, 8, 12, 16)
    ]
    assert all(b <= a for a, b in zip(means, means[1:], strict=False)), means


def test_the_dismount_delay_saves_loads_on_a_clustered_log():
    rng = np.random.default_rng(9)
    n = 20_000
    arr = poisson_arrivals(rng, n, 1 / 40.0)
    carts = clustered_cartridges(rng, n, 2000, repeat=0.6)
    size = np.full(n, 500.0)
    now = replay_requests(arr, library=replay_library(8), cartridge=carts, size_mb=size)
    later = replay_requests(
        arr, library=replay_library(8, dismount_after_s=600), cartridge=carts, size_mb=size
    )
    assert later.mounts < 0.8 * now.mounts and later.drive_held_s > 0
    # a request finding its cartridge mounted takes locate and read only ...
    own = 45.0 + 500.0 / 400.0
    np.testing.assert_allclose(later.response_s[~later.mounted & (later.wait_s == 0)], own)
    # ... while a mount that finds every drive holding a cartridge waits for an unload first
    assert np.median(later.wait_s[later.mounted]) >= 85.0 > np.median(now.wait_s[now.mounted])


def test_reproducible_with_a_seed():
    rng = np.random.default_rng(1)
    arr = poisson_arrivals(rng, 5000, 0.01)
    sample = pareto_service(rng, 500, 300.0)
    kw = {"library": replay_library(4), "service": "resample", "service_sample": sample}
    a, b = replay_requests(arr, seed=3, **kw), replay_requests(arr, seed=3, **kw)
    c = replay_requests(arr, seed=4, **kw)
    np.testing.assert_array_equal(a.response_s, b.response_s)
    assert not np.array_equal(a.response_s, c.response_s)


def _mixed_log(n=400):
    """A small log that takes every path of the event loop: clusters, a batch, idle drives, two robots."""
    rng = np.random.default_rng(21)
    return {"time_s": bursty_arrivals(rng, n, 1 / 60.0), "cartridge": clustered_cartridges(rng, n, 40),
            "size_mb": lognormal_service(rng, n, 2000.0, 2.0)}  # fmt: skip


_MIXED_LIBRARY = {"drives": 3, "robots": 2, "dismount_after_s": 120, "policy": "fifo", "batch_requests": 2,
                  "batch_wait_s": 90}  # fmt: skip


@pytest.mark.slow
def test_without_numba_the_same_replay_in_plain_python():
    """The event loop run as plain Python (numba absent) gives the compiled loop's numbers."""
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "sys.path.insert(0, 'tests')\n"
        "from test_replay import _mixed_log, _MIXED_LIBRARY\n"
        "from vtsmodel.replay import _kernel, replay_library, replay_requests\n"
        "assert not _kernel.COMPILED\n"
        "r = replay_requests(**_mixed_log(), library=replay_library(**_MIXED_LIBRARY))\n"
        "print(repr(r.response_s.tolist())); print(repr([r.mounts, r.moves, r.drive_busy_s, r.drive_held_s]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    plain_resp, plain_totals = (eval(line) for line in out.stdout.splitlines())  # noqa: S307 - our own output
    r = replay_requests(**_mixed_log(), library=replay_library(**_MIXED_LIBRARY))
    assert r.mounts < r.tape_requests and r.drive_held_s > 0  # mounts shared, drives held idle
    assert plain_resp == r.response_s.tolist()
    assert plain_totals == [r.mounts, r.moves, r.drive_busy_s, r.drive_held_s]


# --- streaming ---------------------------------------------------------------------------------------
def test_streamed_in_chunks_equals_in_memory(monkeypatch):
    monkeypatch.setattr(replay_run, "RING", 64)  # a small ring, grown as the queue builds up
    rng = np.random.default_rng(3)
    n = 30_000
    arr = bursty_arrivals(rng, n, 1 / 20.0)
    carts = clustered_cartridges(rng, n, 1000)
    size = lognormal_service(rng, n, 3000.0, 2.0)
    lib = replay_library(6, dismount_after_s=120, policy="group")
    whole = replay_requests(arr, library=lib, cartridge=carts, size_mb=size)
    chunks = ({"time_s": arr[i : i + 997], "obj": np.arange(i, min(i + 997, n)), "cartridge": carts[i : i + 997],
               "size_mb": size[i : i + 997]} for i in range(0, n, 997))  # fmt: skip
    seen = []
    part = replay_chunks(chunks, lib, progress=seen.append)
    assert seen[-1] == n and part.response_s is None
    assert (part.mounts, part.moves) == (whole.mounts, whole.moves)
    assert part.drive_busy_s == pytest.approx(whole.drive_busy_s)
    assert part.max_waiting == whole.max_waiting > 64
    for q in (0.5, 0.95, 0.99):
        assert part.percentile(q) == pytest.approx(whole.percentile(q), rel=0.013)
    assert part.mean_response_s == pytest.approx(whole.mean_response_s, rel=0.01)
    np.testing.assert_allclose(part.hourly["mounts"], whole.hourly["mounts"])


def test_volumes_stacked_on_cartridges_by_first_use():
    lib = replay_library(1, drive=None, **{**HAND, "cartridge_gb": 2.0})  # two 1000 MB volumes a cartridge
    r = replay_requests([0.0, 1.0, 2.0], [5, 9, 7], library=lib.but(policy="group"), size_mb=[1000.0] * 3)
    # volumes 5 and 9 share cartridge 0: 9 is served on 5's mount; 7 needs cartridge 1
    assert r.mounted.tolist() == [True, False, True]
    assert any("2 of 1,000 MB" in note for note in r.notes)


def test_the_log_s_share_of_a_cartridge_spreads_its_volumes_by_hand():
    lib = replay_library(1, drive=None, **{**HAND, "cartridge_gb": 2.0}).but(policy="group")
    r = replay_requests([0.0, 1.0, 2.0], [5, 9, 7], library=lib, size_mb=[1000.0] * 3, cartridge_share=0.5)
    # half of a 2 GB cartridge holds one 1000 MB volume: three cartridges, three mounts. A 30-70;
    # unload A 70-110, back 110-120; B moved 120-130, loaded -150, read -190; C the same 120 s later
    np.testing.assert_allclose(r.response_s, [70.0, 189.0, 308.0])
    assert r.mounted.tolist() == [True, True, True]
    assert (r.cartridges, r.volumes_per_cartridge) == (3, 1)
    assert any("1 of 1,000 MB" in note and "taking 0.5 of each" in note for note in r.notes)
    full = replay_requests([0.0, 1.0, 2.0], [5, 9, 7], library=lib, size_mb=[1000.0] * 3)
    assert (full.cartridges, full.volumes_per_cartridge) == (2, 2)


def _small_log(n=600, volumes=300, seed=4):
    rng = np.random.default_rng(seed)
    return {"time_s": np.cumsum(rng.exponential(300.0, n)), "obj": rng.integers(0, volumes, n),
            "size_mb": lognormal_service(rng, n, 800.0, 1.0)}  # fmt: skip


def test_a_log_on_fewer_cartridges_than_drives_is_noted_with_the_share_that_spreads_it():
    log = _small_log()
    lib = replay_library(8)  # LTO-9, 18 TB: about 22,000 volumes of 800 MB a cartridge
    r = replay_requests(**log, library=lib)
    assert r.cartridges == 1 and r.volumes_per_cartridge > 300
    few = [note for note in r.notes if "fewer than the 8 drives" in note]
    assert len(few) == 1 and "at most 1 drive serves at once" in few[0]
    # the share the note names spreads the log's volumes over 8 cartridges or more
    share = float(re.search(r"cartridge_share\) to ([0-9.e-]+) or less", few[0]).group(1))
    spread = replay_requests(**log, library=lib, cartridge_share=share)
    assert spread.cartridges >= 8 and not any("fewer than the 8 drives" in note for note in spread.notes)
    # streamed, the same count and the same note
    chunks = ({k: v[i : i + 250] for k, v in log.items()} for i in range(0, 600, 250))
    streamed = replay_chunks(chunks, lib, volume_mb=float(log["size_mb"].mean()))
    assert streamed.cartridges == 1 and any("fewer than the 8 drives" in note for note in streamed.notes)


def test_a_log_naming_fewer_cartridges_than_drives_is_noted_without_stacking_advice():
    log = _small_log()
    r = replay_requests(
        log["time_s"], library=replay_library(8), cartridge=log["obj"] % 3, size_mb=log["size_mb"]
    )
    (few,) = [note for note in r.notes if "fewer than the 8 drives" in note]
    assert few.startswith("the tape requests use 3 cartridges") and "cartridge_share" not in few
    assert r.volumes_per_cartridge is None


@pytest.mark.parametrize("share", [0.0, -0.5, 1.5, math.nan])
def test_a_share_of_a_cartridge_outside_0_1_names_the_parameter(share):
    with pytest.raises(ValueError, match="cartridge_share"):
        replay_requests(**_small_log(), library=replay_library(8), cartridge_share=share)


# --- the cache in front ------------------------------------------------------------------------------
def test_lru_cache_hits_are_the_exact_lru_curve():
    log = synthetic_mount_log(20_000, 2000, seed=4)
    for cap in (50.0, 200.0, 800.0):
        r = replay_log(log, replay_library(8), cache_gb=cap)
        reads = log.access == 2
        tape = np.zeros(len(log), dtype=bool)
        tape[r.tape] = True
        hit_ratio = 1.0 - tape[reads].mean()
        assert hit_ratio == pytest.approx(float(lru_hit_curve(log).read_hit_ratio(cap)), abs=1e-12)


@pytest.mark.slow
def test_other_cache_policies_through_libcachesim():
    pytest.importorskip("libcachesim")
    from vtsmodel import simulate_policy

    log = synthetic_mount_log(3000, 400, seed=2)
    r = replay_log(log, replay_library(8), cache_gb=100.0, cache_policy="FIFO")
    tape = np.zeros(len(log), dtype=bool)
    tape[r.tape] = True
    expected = float(simulate_policy(log, 100.0, policy="FIFO").read_hit_ratio[0])
    assert 1.0 - tape[log.access == 2].mean() == pytest.approx(expected, abs=1e-12)


# --- analytic beside -------------------------------------------------------------------------------
def test_analytic_beside_agrees_on_its_own_ground():
    rng = np.random.default_rng(0)
    n = 60_000
    lib = _bare(4)
    s = 180.0
    arr = poisson_arrivals(rng, n, 0.7 * 4 / s)
    r = replay_requests(arr, library=lib, cartridge=np.arange(n), duration_s=np.full(n, s), service="log")
    a = analytic_beside(r)  # no warning: within 20%, cv 0
    assert a.service_s == pytest.approx(s) and a.service_cv == pytest.approx(0.0, abs=1e-9)
    assert a.mdc_mean_s == pytest.approx(r.mean_wait_s, rel=0.1)
    assert a.sample_mean_s == pytest.approx(r.mean_wait_s, rel=0.1)


def test_analytic_beside_warns_on_heavy_tails():
    rng = np.random.default_rng(0)
    n = 20_000
    svc = lognormal_service(rng, n, 406.0, 4.07)
    arr = poisson_arrivals(rng, n, 0.7 * 16 / 406.0)
    r = replay_requests(arr, library=_bare(16), cartridge=np.arange(n), duration_s=svc, service="log")
    with pytest.warns(ApproximationWarning, match="cv"):
        a = analytic_beside(r)
    assert a.service_cv > 2


def test_drives_needed_by_replay_meets_the_target_and_one_fewer_does_not():
    rng = np.random.default_rng(2)
    n = 5000
    log = {"time_s": poisson_arrivals(rng, n, 1 / 60.0), "cartridge": clustered_cartridges(rng, n, 500),
           "size_mb": lognormal_service(rng, n, 3000.0, 1.0)}  # fmt: skip
    out = replay_drives_needed(log, 900.0, q=0.95, library=replay_library(1, dismount_after_s=120))
    assert out.tried[out.drives] <= 900.0
    assert out.drives == 1 or out.tried[out.drives - 1] > 900.0
    assert out.analytic_drives is not None and out.replay.library.drives == out.drives


# --- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"drives": 0}, "drives"),
        ({"robots": 0}, "robots"),
        ({"robot_move_s": -1.0}, "robot_move_s"),
        ({"robot_move_s": math.nan}, "robot_move_s"),
        ({"dismount_after_s": -5.0}, "dismount_after_s"),
        ({"policy": "lifo"}, "policy"),
        ({"batch_requests": 0}, "batch_requests"),
        ({"drive": "LTO-99"}, "LTO-99"),
        ({"rate_mb_s": 0.0}, "rate_mb_s"),
    ],
)
def test_impossible_libraries_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        replay_library(**{"drives": 2, **kwargs})


@pytest.mark.parametrize(
    ("args", "kwargs", "name"),
    [
        (([1.0, 0.5],), {}, "time_s"),
        (([0.0, math.inf],), {}, "time_s"),
        (([],), {}, "time_s"),
        (([0.0, 1.0], [0, -1]), {}, "obj"),
        (([0.0, 1.0],), {"size_mb": [1.0, -1.0]}, "size_mb"),
        (([0.0, 1.0],), {"service": "log"}, "duration_s"),
        (([0.0, 1.0],), {"service": "resample"}, "service_sample"),
        (([0.0, 1.0],), {"cartridge": [0]}, "cartridge"),
        (([0.0, 1.0],), {"cache_gb": 1.0, "cache_policy": "MRU"}, "cache_policy"),
        (([0.0, 1.0],), {"service": "guess"}, "service"),
    ],
)
def test_bad_requests_name_the_parameter(args, kwargs, name):
    with pytest.raises(ValueError, match=name):
        replay_requests(*args, library=replay_library(2), **kwargs)


def test_survival_of_the_streamed_histogram_follows_the_exact_one():
    rng = np.random.default_rng(8)
    n = 20_000
    arr = poisson_arrivals(rng, n, 1 / 30.0)
    size = lognormal_service(rng, n, 2000.0, 2.0)
    lib = replay_library(6)
    whole = replay_requests(arr, library=lib, size_mb=size, cartridge=np.arange(n))
    part = replay_chunks(
        [{"time_s": arr, "obj": np.arange(n), "cartridge": np.arange(n), "size_mb": size}], lib
    )
    t, share = whole.survival()
    t2, share2 = part.survival()
    assert share[0] == pytest.approx(1 - 1 / n) and np.all(np.diff(share) <= 0)
    # at each histogram edge, the share above it as counted exactly
    exact = np.array([(whole.response_s > x).mean() for x in t2])
    np.testing.assert_allclose(share2, exact, atol=2e-3)


# --- what the reader gives ---------------------------------------------------------------------------
def test_a_log_with_cartridges_and_durations_is_replayed_with_them_by_hand():
    from vtsmodel.mountlog import mount_log

    log = mount_log([0.0, 10.0], ["v1", "v2"], cartridge=["C1", "C1"], duration_s=[50.0, 20.0], object_mb=1.0)
    r = replay_log(log, hand(policy="group"))
    # the log's durations are the own service: move 0-10, load 10-30, 50 s -> 80; then 80-100 on the same mount
    np.testing.assert_allclose(r.response_s, [80.0, 90.0])
    assert r.mounted.tolist() == [True, False] and r.mounts == 1
    assert any("no sizes" in n for n in r.notes)  # the reader's notes come along


def test_a_log_whose_times_mark_the_ends_is_replayed_from_the_starts(tmp_path):
    from vtsmodel.logs import example_log
    from vtsmodel.mountlog import read_mount_log

    path = tmp_path / "x.log"
    path.write_text(example_log("xferlog", 300))
    log = read_mount_log(path, format="xferlog")
    assert log.time_at == "end"
    r = replay_log(log, replay_library(4))
    starts = log.time_s - log.duration_s
    np.testing.assert_allclose(np.sort(r.time_s), np.sort(starts))
    np.testing.assert_allclose(r.time_s, starts[r.tape])  # indices into the log as given
    assert any("ends of requests" in n for n in r.notes)


def test_the_formulas_response_tail_is_their_wait_percentile_shifted_by_the_time_to_data():
    from vtsmodel import wait_percentile

    rng = np.random.default_rng(4)
    n = 30_000
    svc = lognormal_service(rng, n, 200.0, 1.5)
    arr = poisson_arrivals(rng, n, 0.8 * 4 / (svc.mean() + 75.0))
    r = replay_requests(
        arr, library=hand(4, robot_move_s=0), cartridge=np.arange(n), duration_s=svc, service="log"
    )
    a = analytic_beside(r, warn=False, simulate=False)
    assert a.ready_s == pytest.approx(r.hold_mean_s - 40.0)
    for model, cv in (("M/D/c", 0.0), ("M/G/c", a.service_cv)):
        tq = a.ready_s + float(wait_percentile(a.arrival_rate, a.service_s, 4, 0.95, service_cv=cv))
        assert float(a.response_survival(tq, model)) == pytest.approx(0.05, rel=1e-9)
        assert float(a.response_survival(a.ready_s - 1.0, model)) == 1.0
        # over a sample of times to data: the mean of the tails shifted by each (P(W + R > t), W apart from R)
        lo, hi = 50.0, 5000.0
        t = np.array([10.0, 100.0, 6000.0])
        one = [a.response_survival(t, model, [x]) for x in (lo, hi)]
        np.testing.assert_allclose(a.response_survival(t, model, [lo, hi]), (one[0] + one[1]) / 2)
        np.testing.assert_allclose(
            a.response_survival(t, model, [lo, hi], [3, 1]), 0.75 * one[0] + 0.25 * one[1]
        )
        assert a.response_survival(100.0, model, [lo, hi]) == pytest.approx(0.5 + 0.5 * float(one[0][1]))


# --- queueing formulas fed a sample of service times ---------------------------------------------
def test_wait_formulas_take_a_sample_of_service_times():
    from vtsmodel import wait_mgc, wait_mmc, wait_percentile

    lam, s, c = 0.8 * 4 / 180.0, 180.0, 4
    # identical service: the sample-fed simulation is M/D/c (Cosmetatos within about 2%)
    assert float(wait_mgc(lam, s, c, service_sample=[180.0])) == pytest.approx(
        float(wait_mdc(lam, s, c)), rel=0.05
    )
    # exponential service: M/M/c, exact (Erlang C), and its exact percentile
    expo = np.random.default_rng(0).exponential(1.0, 200_000)
    assert float(wait_mgc(lam, s, c, service_sample=expo)) == pytest.approx(
        float(wait_mmc(lam, s, c)), rel=0.05
    )
    exact = float(wait_percentile(lam, s, c, 0.95, service_cv=1.0))
    assert float(wait_percentile(lam, s, c, 0.95, service_sample=expo)) == pytest.approx(exact, rel=0.05)
    # the sample's shape is kept and scaled to the mean: doubling every value changes nothing
    x = lognormal_service(np.random.default_rng(1), 5000, 100.0, 2.0)
    assert float(wait_mgc(lam, s, c, service_sample=x)) == float(wait_mgc(lam, s, c, service_sample=2 * x))
    for bad in ([], [1.0, np.nan], [-1.0, 2.0], [[1.0, 2.0]]):
        with pytest.raises(ValueError, match="service_sample"):
            wait_mgc(lam, s, c, service_sample=bad)


def test_prepared_once_replayed_through_many_libraries_is_the_same_replay():
    from vtsmodel import prepare_requests, replay_prepared
    from vtsmodel._validation import ConstraintError

    rng = np.random.default_rng(6)
    n = 5000
    arr = bursty_arrivals(rng, n, 1 / 30.0)
    obj = rng.integers(0, 800, n)
    size = lognormal_service(rng, n, 300.0, 2.0)
    acc = rng.choice([0, 1, 2], n, p=[0.3, 0.1, 0.6])
    lib = replay_library(4)
    prepared = prepare_requests(arr, obj, library=lib, size_mb=size, access=acc, cache_gb=50.0)
    for drives, delay in ((2, 0.0), (6, 300.0)):
        other = lib.but(drives=drives, dismount_after_s=delay)
        a = replay_prepared(prepared, other)
        b = replay_requests(arr, obj, library=other, size_mb=size, access=acc, cache_gb=50.0)
        np.testing.assert_array_equal(a.response_s, b.response_s)
        np.testing.assert_array_equal(a.tape, b.tape)
    with pytest.raises(ConstraintError, match="cartridge_gb"):
        replay_prepared(prepared, replay_library(4, drive="LTO-8"))  # volumes stacked on 18 TB, not 12 TB


def test_waits_split_into_cartridge_contention_and_the_rest_by_hand():
    times, carts = [0.0, 1.0, 2.0], [0, 1, 0]
    r = run(times, carts, hand(policy="fifo"))
    # as test_fifo_and_group_by_hand: responses 70, 189, 308; own services 70 each (each mounts).
    # A2 came at 2 while A0 held cartridge A until 70: 68 s waiting for it, the other 238 - 68 = 170 s
    # for the drive (B's mount and read, the unloads). B1 waited 119 s, none of it for a cartridge.
    parts = wait_parts(r, carts)
    np.testing.assert_allclose(parts.cartridge_s, [0.0, 0.0, 68.0])
    np.testing.assert_allclose(parts.other_s, [0.0, 119.0, 170.0])
    assert parts.contended == 1 and parts.share_contended == pytest.approx(1 / 3)
    assert parts.mean_cartridge_s() == pytest.approx(68.0)
    # grouped, A2 is served on A's mount 70-110 (locate + read, 40 s of its own): all of its
    # 108 - 40 = 68 s wait is for its cartridge, none for a drive
    g = wait_parts(run(times, carts, hand(policy="group")), carts)
    np.testing.assert_allclose(g.cartridge_s, [0.0, 0.0, 68.0])
    np.testing.assert_allclose(g.other_s, [0.0, 229.0 - 70.0, 0.0])
    # a request that comes after the one before it on its cartridge ended waits for no cartridge
    late = wait_parts(run([0.0, 100.0], [0, 0], hand()), [0, 0])
    assert late.contended == 0 and late.other_s.tolist() == pytest.approx([0.0, 20.0])
    # on cartridges of their own (None) nothing waits for a cartridge
    assert wait_parts(r).contended == 0


def test_the_synthetic_request_log_is_reproducible_bursty_clustered_and_heavy_tailed():
    log = synthetic_request_log(seed=5)
    again = synthetic_request_log(seed=5)
    np.testing.assert_array_equal(log.time_s, again.time_s)
    np.testing.assert_array_equal(log.duration_s, again.duration_s)
    assert not np.array_equal(log.time_s[:50], synthetic_request_log(seed=6).time_s[:50])
    n = log.time_s.size
    assert 72 * 30 * 2.5 * 0.8 < n < 72 * 30 * 2.5 * 1.2  # hours x jobs an hour x files a job
    d = log.duration_s
    assert 2.0 < d.std() / d.mean() < 5.0  # heavy-tailed, as the sizes (log-sd 1.8)
    # durations follow sizes: locate 5-100 s plus the read at 60-100 % of 240 MB/s
    read = d - log.size_mb / 240.0
    assert read.min() >= 5.0 - 0.05 and (d - log.size_mb / 144.0).max() <= 100.0 + 0.05
    # clustered: a cartridge's next request mostly follows its previous one within minutes
    c = log.cartridge
    order = np.lexsort((log.time_s, c))
    same = c[order[1:]] == c[order[:-1]]
    gaps = np.diff(log.time_s[order])[same]
    assert same.mean() > 0.5 and np.median(gaps) < 3600.0
    # bursty over the day: hours of the daily sine's top against its bottom
    hour = (log.time_s // 3600).astype(int) % 24
    per = np.bincount(hour, minlength=24)
    assert per[12:17].sum() > 1.3 * per[0:5].sum()
    with pytest.raises(ValueError, match="hours=8760.*jobs_per_hour=10000"):
        synthetic_request_log(hours=8760, jobs_per_hour=10000)
