"""Tests of vtsmodel.queueing: Erlang C, the M/D/c and M/G/c approximations, the simulation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtsmodel.queueing import (
    erlang_c,
    recall_drives_needed,
    simulate_recalls,
    utilisation,
    wait_mdc,
    wait_mgc,
    wait_mmc,
    wait_percentile,
)

S = 180.0  # service time of the reference workload [s]
C = 4
LAM = 0.8 * C / S  # utilisation 0.8


def test_reference_values_stack_md():
    # Reference values measured on this stack (shared/STACK.md, "Queue simulation speed"):
    # Erlang C waiting probability 0.596, Wq(M/M/4) = 134.2 s, Cosmetatos 69.38 s,
    # Allen-Cunneen 67.10 s, for service 180 s at utilisation 0.8 on four servers.
    assert erlang_c(LAM, S, C) == pytest.approx(0.596, abs=5e-4)
    assert wait_mmc(LAM, S, C) == pytest.approx(134.2, abs=0.05)
    assert wait_mdc(LAM, S, C) == pytest.approx(69.38, abs=0.005)
    assert wait_mgc(LAM, S, C, 0.0) == pytest.approx(67.10, abs=0.005)
    assert wait_mgc(LAM, S, C, 1.0) == pytest.approx(wait_mmc(LAM, S, C))


def test_single_server_closed_forms():
    # M/M/1: Wq = rho S / (1 - rho); M/D/1 (Pollaczek-Khinchine): half of it.
    rho = 0.7
    assert wait_mmc(rho / S, S, 1) == pytest.approx(rho * S / (1 - rho))
    assert wait_mdc(rho / S, S, 1) == pytest.approx(0.5 * rho * S / (1 - rho))
    assert erlang_c(rho / S, S, 1) == pytest.approx(rho)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mmc_simulation_vs_erlang_c(seed):
    # M/M/4 at utilisation 0.8 (general-service heap path, cv = 1): Erlang C's Wq within the
    # 99% batch-means interval of each seeded run; mean, P(wait) and p95 close to theory.
    sim = simulate_recalls(LAM, S, C, 100_000, seed=seed, service_cv=1.0, confidence=0.99)
    lo, hi = sim.ci
    assert lo <= wait_mmc(LAM, S, C) <= hi
    assert sim.prob_wait == pytest.approx(erlang_c(LAM, S, C), abs=0.02)
    assert sim.percentile(0.95) == pytest.approx(wait_percentile(LAM, S, C, 0.95), rel=0.08)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mdc_simulation_vs_cosmetatos(seed):
    # M/D/4 at utilisation 0.8 (exact vectorized path): Cosmetatos within the 99% interval.
    sim = simulate_recalls(LAM, S, C, 200_000, seed=seed, confidence=0.99)
    lo, hi = sim.ci
    assert lo <= wait_mdc(LAM, S, C) <= hi


def test_mdc_cosmetatos_within_one_percent_pooled():
    # The "within 1% at moderate load": pooled over seeded runs of 10^6 recalls the
    # simulated mean is within 1% of Cosmetatos, with a confidence interval narrow enough
    # (half-width < 1%) for the check to mean something. STACK.md: 69.55 +/- 0.10 s at 2x10^8.
    sims = [simulate_recalls(LAM, S, C, 1_000_000, seed=s) for s in range(8)]
    means = np.array([s.mean_wait for s in sims])
    half = np.sqrt(np.sum(np.array([s.ci_halfwidth for s in sims]) ** 2)) / len(sims)
    theory = wait_mdc(LAM, S, C)
    assert half < 0.01 * theory
    assert abs(means.mean() - theory) < 0.01 * theory


def test_deterministic_paths_agree():
    # The vectorized lag-c running maximum equals the heap of free times, recall by recall.
    from vtsmodel.queueing import _deterministic_starts, _heap_starts

    rng = np.random.default_rng(7)
    arr = np.cumsum(rng.exponential(40.0, 5000))
    for c in (1, 3, 4):
        np.testing.assert_allclose(
            _deterministic_starts(arr, S, c), _heap_starts(arr, np.full(arr.size, S), c), rtol=0, atol=1e-9
        )


def test_simulation_reproducible():
    a = simulate_recalls(LAM, S, C, 5000, seed=11, service_cv=0.5)
    b = simulate_recalls(LAM, S, C, 5000, seed=11, service_cv=0.5)
    np.testing.assert_array_equal(a.waits, b.waits)
    assert np.all(a.waits >= 0)


def test_overload_raises_for_formulas_but_simulation_grows():
    lam = 1.2 * C / S
    for f in (wait_mmc, wait_mdc, erlang_c):
        with pytest.raises(ValueError, match="utilisation"):
            f(lam, S, C)
    with pytest.raises(ValueError, match="utilisation"):
        wait_mgc(lam, S, C, 0.5)
    sim = simulate_recalls(lam, S, C, 50_000, seed=0)
    assert sim.growing
    # the wait grows at about (rho - 1) seconds per second: 0.2
    assert sim.wait_slope == pytest.approx(0.2, rel=0.1)
    assert not simulate_recalls(LAM, S, C, 50_000, seed=0).growing


def test_drives_needed_for_target():
    n = recall_drives_needed(LAM, S, 300.0, 0.95)
    assert wait_percentile(LAM, S, n, 0.95, service_cv=0.0) <= 300.0
    assert n - 1 < LAM * S or wait_percentile(LAM, S, n - 1, 0.95, service_cv=0.0) > 300.0


@settings(max_examples=300, deadline=None)
@given(rho=st.floats(1e-6, 0.999), c=st.integers(1, 2000))
def test_identical_service_never_waits_longer_than_exponential(rho, c):
    # M/D/c against M/M/c at the same load: identical service times must not wait longer
    # (Cosmetatos' ratio alone reached 1.18 at c = 7, rho = 1/7, and 47 at c = 60, rho = 0.01).
    lam = rho * c / S
    mmc, mdc = float(wait_mmc(lam, S, c)), float(wait_mdc(lam, S, c))
    assert 0.0 <= mdc <= mmc
    assert mdc <= c / (c + 1) * mmc * (1 + 1e-12)  # the light-traffic ratio bounds it
    assert float(wait_percentile(lam, S, c, 0.95, service_cv=0.0)) <= float(wait_percentile(lam, S, c, 0.95))


def test_mdc_light_traffic_ratio_against_the_exact_simulation():
    # Light traffic, 4 drives at rho = 0.1: Cosmetatos alone gave 1.11 x M/M/c (more than
    # exponential service); the exact ratio tends to c / (c + 1) = 0.8 as the load falls.
    # The deterministic simulation (exact vectorized path, 2e6 recalls) gives about 0.75.
    lam = 0.1 * C / S
    mmc = float(wait_mmc(lam, S, C))
    sim = simulate_recalls(lam, S, C, 2_000_000, seed=3)
    measured = sim.waits[sim.warmup :].mean() / mmc
    assert float(wait_mdc(lam, S, C)) / mmc == pytest.approx(0.8)
    assert 0.7 < measured < 0.8


@settings(max_examples=40, deadline=None)
@given(rho=st.floats(0.05, 0.9), c=st.integers(1, 8), cv=st.floats(0.0, 2.0))
def test_monotone_in_load_and_drives(rho, c, cv):
    lam = rho * c / S
    assert wait_mmc(lam * 1.05, S, c) >= wait_mmc(lam, S, c)
    assert wait_mdc(lam * 1.05, S, c) >= wait_mdc(lam, S, c)
    assert wait_mgc(lam, S, c + 1, cv) <= wait_mgc(lam, S, c, cv)
    assert wait_mdc(lam, S, c + 1) <= wait_mdc(lam, S, c)
    assert 0 <= erlang_c(lam, S, c) <= 1
    assert wait_percentile(lam, S, c, 0.99, service_cv=cv) >= wait_percentile(lam, S, c, 0.9, service_cv=cv)
    assert utilisation(lam, S, c) == pytest.approx(rho)


def test_bad_input():
    with pytest.raises(ValueError, match="servers"):
        wait_mmc(LAM, S, 0)
    with pytest.raises(ValueError, match="service_s"):
        wait_mdc(LAM, -1.0, 4)
    with pytest.raises(ValueError, match="q"):
        wait_percentile(LAM, S, C, 1.0)
    with pytest.raises(ValueError, match="n="):
        simulate_recalls(LAM, S, C, 10)


# --- nothing hangs, nothing nonsensical comes back -------------------------------------------------
def test_erlang_family_is_fast_and_exact_for_a_billion_servers():
    # Before: the Erlang B recursion took one step per server: 10^9 servers hung.
    c = 1e9
    lam = 0.999 * c / S  # 99.9 % busy: waiting is rare with so many servers
    for f in (erlang_c, wait_mmc, wait_mdc):
        assert 0.0 <= float(f(lam, S, c)) < 1e-6
    assert 0.0 <= float(wait_mgc(lam, S, c, 2.0)) < 1e-6
    assert 0.0 <= float(wait_percentile(lam, S, c, 0.999, service_cv=0.0)) < 1e-3
    # and the same as the recursion it replaces, where the recursion can run
    from vtsmodel.queueing import _erlang_b

    for c, rho in [(1, 0.5), (4, 0.8), (37, 0.95), (400, 0.999)]:
        b = 1.0
        for k in range(1, c + 1):
            b = rho * c * b / (k + rho * c * b)
        assert float(_erlang_b(rho * c, c)) == pytest.approx(b, rel=1e-10)


def test_drives_needed_searches_by_bisection():
    # Before: one evaluation per drive up to max_drives (not validated either).
    lam = 1e6 / S
    n = recall_drives_needed(lam, S, 10.0, max_drives=10**9)
    assert wait_percentile(lam, S, n, 0.95, service_cv=0.0) <= 10.0
    assert wait_percentile(lam, S, n - 1, 0.95, service_cv=0.0) > 10.0
    for bad, match in [(0, r"max_drives=0 is outside"), (2.5, "whole number"), ("64", "is text")]:
        with pytest.raises(ValueError, match=match):
            recall_drives_needed(LAM, S, 300.0, max_drives=bad)
    with pytest.raises(ValueError, match="max_drives=4 is not enough"):
        recall_drives_needed(LAM, S, 1.0, max_drives=4)


def test_tiny_load_gives_zero_not_nan():
    # Before: wait_mdc(1e-310, 1, 2) returned nan (0 * inf in the Cosmetatos term).
    assert wait_mdc(1e-310, 1, 2) == 0.0
    assert wait_percentile(1e-310, 1, 2, 0.99, service_cv=0.0) == 0.0


def test_huge_service_cv_is_refused_not_infinite():
    # Before: wait_mgc and wait_percentile returned inf for service_cv = 1e200.
    for call in (lambda: wait_mgc(LAM, S, C, 1e200), lambda: wait_percentile(LAM, S, C, service_cv=1e200)):
        with pytest.raises(ValueError, match=r"service_cv=1e\+200 is outside the valid range \[0, 100\]"):
            call()


def test_seed_and_simulation_size_are_checked():
    # Before: any seed numpy took (or its TypeError), and any n (memory without limit).
    for seed, match in [(-1, r"seed=-1 is outside"), (1.5, "whole number"), ("0", "is text")]:
        with pytest.raises(ValueError, match=match):
            simulate_recalls(LAM, S, C, 1000, seed=seed)
    with pytest.raises(ValueError, match=r"n=100000000.0 is outside the valid range \[1, 1e\+07\]"):
        simulate_recalls(LAM, S, C, 1e8)


def test_mismatched_shapes_name_the_inputs():
    with pytest.raises(ValueError, match=r"servers has shape \(3,\), arrival_rate has shape \(2,\)"):
        wait_mmc([LAM, LAM / 2], S, [4, 5, 6])


def test_a_billion_drives_simulate_in_little_memory():
    # Before: simulate_recalls(..., servers=1e9, ...) allocated a row of 10^9 drive slots
    # (8 GB per copy; the machine ran out of memory): only min(servers, n) can ever be busy.
    for cv in (0.0, 1.0):
        sim = simulate_recalls(LAM, S, 1e9, 1000, service_cv=cv)
        assert sim.mean_wait == 0.0 and sim.utilisation == pytest.approx(LAM * S / 1e9)


def test_no_wait_is_negative_from_rounding():
    # Found by tests/test_properties.py: (a - j s) + j s rounded below a, and a wait came
    # back as -4e-22 s (arrival_rate=20080398, service_s=1e-9, one server).
    sim = simulate_recalls(20080398.0, 1e-9, 1, 333)
    assert np.all(sim.waits >= 0.0)


def test_a_tiny_service_cv_is_identical_service_not_a_division_by_zero():
    # Found by tests/test_properties.py: service_cv=3.9e-264 made the gamma shape 1/cv**2
    # overflow and the simulation raised ZeroDivisionError.
    sim = simulate_recalls(LAM, S, C, 3000, service_cv=3.9e-264)
    assert np.array_equal(sim.waits, simulate_recalls(LAM, S, C, 3000).waits)
