"""The day simulation's step loop (``tvc_day._steps``) against the loop it replaced, to the bit.

The loop was rewritten for speed (min and max written out; compiled where numba is installed,
see tests/test_daykernel.py); :func:`_reference_steps` is the earlier loop as it stood in
``simulate_tvc``, kept here verbatim. Random steps, offers and copy rates, starts below and above the fill threshold,
zero-length and idle steps: the same floats and flags out.
"""

from __future__ import annotations

import numpy as np
import pytest

from vtsmodel.tvc_day import _MB_PER_GB, _steps


def _reference_steps(steps, off_vol, d_r, *, P, S, f, cfc, thr_mb, span, b0):
    n = steps.size
    acc = np.zeros(n)
    cop = np.zeros(n)
    thr = np.zeros(n, dtype=bool)
    peak_t = np.zeros(n)
    U = np.empty(n + 1)
    Q = np.empty(n + 1)
    u, q = b0 * _MB_PER_GB, 0.0
    U[0], Q[0] = u, q
    steps_l, off_l, d_l = steps.tolist(), off_vol.tolist(), d_r.tolist()
    for k in range(n):
        h = steps_l[k]
        demand = q + off_l[k]
        dk = d_l[k]
        a_vol = c_vol = t_pk = 0.0
        left = h
        if u < thr_mb and h > 0:
            a = min(P, demand / h)
            x = 1.0 if a >= P * (1 - 1e-12) else min(max((a - S) / span, 0.0), 1.0)
            c = dk * (1.0 - (1.0 - f) * x)
            net = a / cfc - c
            tau = min(h, (thr_mb - u) / net) if net > 0 else h
            if net < 0 and u + net * tau < 0:
                c = a / cfc + u / tau
                net = -u / tau
            a_vol, c_vol = a * tau, c * tau
            u = u + net * tau
            if a >= P * (1 - 1e-12):
                t_pk = tau
            left = h - tau
            if left <= 1e-9 * h:
                left = 0.0
            if left == 0.0 and net > 0 and u >= thr_mb * (1 - 1e-12):
                u = thr_mb
        if left > 0:
            rest = demand - a_vol
            excess = max(u - thr_mb, 0.0) / left
            a2 = max(0.0, min((dk - excess) * cfc, rest / left))
            c2 = min(dk, u / left + a2 / cfc)
            a_vol += a2 * left
            c_vol += c2 * left
            u = u + (a2 / cfc - c2) * left
            if rest / left > a2 * (1 + 1e-12) + 1e-12:
                thr[k] = True
        elif demand - a_vol > 1e-9 * max(demand, 1.0) and u >= thr_mb * (1 - 1e-12):
            thr[k] = True
        acc[k], cop[k], peak_t[k] = a_vol, c_vol, t_pk
        q = demand - a_vol
        if q < 0:
            q = 0.0
        u = max(u, 0.0)
        U[k + 1], Q[k + 1] = u, q
    return acc, cop, peak_t, thr, U, Q


@pytest.mark.parametrize("seed", range(12))
def test_the_step_loop_equals_the_loop_it_replaced(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        n = int(rng.integers(1, 400))
        dt = float(rng.choice([60.0, 300.0, 450.0, 3600.0]))
        steps = np.full(n, dt)
        steps[-1] = float(rng.choice([dt, dt * rng.uniform(0, 1), 0.0]))  # a last step cut short, or empty
        P = float(rng.uniform(5, 120))
        S = float(P * rng.choice([rng.uniform(0.2, 1.0), 1.0]))
        cfc = float(rng.choice([1.0, rng.uniform(0.5, 4)]))
        # idle hours, bursts above the peak, steady load near the sustained rate
        rate = rng.choice([0.0, S, P * 1.5, rng.uniform(0, 2 * P)], size=n, p=[0.3, 0.2, 0.2, 0.3])
        off_vol = rate * steps
        d_r = np.maximum(S / cfc - rng.choice([0.0, rng.uniform(0, S / cfc * 1.2)], size=n), 0.0)
        cap = float(rng.uniform(50, 1500))
        kw = dict(P=P, S=S, f=float(rng.uniform(0, 1)), cfc=cfc, thr_mb=float(rng.uniform(0.5, 0.99)) * cap * _MB_PER_GB,
                  span=max(P - S, 1e-12 * max(P, 1.0)), b0=float(rng.choice([0.0, rng.uniform(0, cap)])))  # fmt: skip
        new, old = _steps(steps, off_vol, d_r, **kw), _reference_steps(steps, off_vol, d_r, **kw)
        for a, b in zip(new, old, strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape
            assert np.array_equal(a, b), kw  # bit for bit: the same operations in the same order
