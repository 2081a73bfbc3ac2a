"""The day simulation's step loop in plain Python, and the runner of it or its compiled form (private).

:func:`loop` is the one source: :mod:`vtsmodel._daykernel` compiles it with numba;
:func:`vtsmodel.tvc_day._steps` runs it as it is where the compiled loop is not wanted (numba
absent, or ``tvc_day.COMPILED_STEPS`` off). Imports nothing beyond numpy.
"""

from __future__ import annotations

import numpy as np


def loop(steps, off_vol, d_r, P, S, f, cfc, thr_mb, span, u0, acc, cop, peak_t, thr, U, Q):  # noqa: N803 - the model's notation
    # min and max written out (the same results: the first of equals, as the builtins give)
    n = len(steps)
    u, q = u0, 0.0
    U[0] = u
    Q[0] = q
    p_hi, thr_hi = P * (1 - 1e-12), thr_mb * (1 - 1e-12)
    for k in range(n):
        h = steps[k]
        demand = q + off_vol[k]
        dk = d_r[k]
        a_vol = c_vol = t_pk = 0.0
        left = h
        throttled = False
        if u < thr_mb and h > 0:
            a = demand / h
            if not a < P:  # min(P, a)
                a = P
            if a >= p_hi:  # the copy share (tvc._copy_share) in scalar floats
                x = 1.0
            else:
                x = (a - S) / span
                x = 0.0 if 0.0 > x else x
                x = 1.0 if 1.0 < x else x
            c = dk * (1.0 - (1.0 - f) * x)
            net = a / cfc - c
            if net > 0:
                tau = (thr_mb - u) / net
                tau = tau if tau < h else h
            else:
                tau = h
            if net < 0 and u + net * tau < 0:  # cannot copy more than is there
                c = a / cfc + u / tau
                net = -u / tau
            a_vol, c_vol = a * tau, c * tau
            u = u + net * tau
            if a >= p_hi:
                t_pk = tau
            left = h - tau
            if left <= 1e-9 * h:
                left = 0.0
            if left == 0.0 and net > 0 and u >= thr_hi:
                u = thr_mb  # reached exactly at the step's end
        if left > 0:
            rest = demand - a_vol
            excess = u - thr_mb
            excess = (0.0 if 0.0 > excess else excess) / left  # a start above the threshold drains to it
            a2, cap_a = (dk - excess) * cfc, rest / left
            a2 = cap_a if cap_a < a2 else a2
            a2 = a2 if a2 > 0.0 else 0.0
            c2 = u / left + a2 / cfc
            c2 = c2 if c2 < dk else dk
            a_vol += a2 * left
            c_vol += c2 * left
            u = u + (a2 / cfc - c2) * left
            throttled = rest / left > a2 * (1 + 1e-12) + 1e-12
        elif demand - a_vol > 1e-9 * (1.0 if 1.0 > demand else demand) and u >= thr_hi:
            throttled = True
        acc[k] = a_vol
        cop[k] = c_vol
        peak_t[k] = t_pk
        thr[k] = throttled
        q = demand - a_vol
        if q < 0:
            q = 0.0
        u = 0.0 if 0.0 > u else u
        U[k + 1] = u
        Q[k + 1] = q


def run(kernel, compiled: bool, steps, off_vol, d_r, *, P, S, f, cfc, thr_mb, span, u0):  # noqa: N803 - the model's notation
    """Run ``kernel`` (:func:`loop`, or it compiled) over a day: ``tvc_day._steps``'s arguments and results (see there).

    ``u0``: the un-copied data at the start (``tvc_day._steps``'s ``b0`` in MB). [MB]

    Compiled (``compiled``), the loop writes into numpy arrays allocated here; in plain Python it
    reads and writes lists (a numpy element read or store costs as much as a step's arithmetic)
    turned into arrays after.
    """
    n = len(steps)
    if compiled:
        ins = (np.ascontiguousarray(steps, dtype=float), np.ascontiguousarray(off_vol, dtype=float),
               np.ascontiguousarray(d_r, dtype=float))  # fmt: skip
        outs = (np.empty(n), np.empty(n), np.empty(n), np.empty(n, dtype=np.bool_), np.empty(n + 1), np.empty(n + 1))  # fmt: skip
    else:
        ins = (steps.tolist(), off_vol.tolist(), d_r.tolist())
        outs = ([0.0] * n, [0.0] * n, [0.0] * n, [False] * n, [0.0] * (n + 1), [0.0] * (n + 1))
    kernel(*ins, float(P), float(S), float(f), float(cfc), float(thr_mb), float(span), float(u0), *outs)
    acc, cop, peak_t, thr, U, Q = outs
    return (np.asarray(acc, dtype=float), np.asarray(cop, dtype=float), np.asarray(peak_t, dtype=float),
            np.asarray(thr, dtype=bool), np.asarray(U, dtype=float), np.asarray(Q, dtype=float))  # fmt: skip
