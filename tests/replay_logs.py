"""Synthetic request logs shaped like the real thing, made here (never a copied trace).

- bursty arrivals: a two-state modulated Poisson process (quiet and burst periods);
- heavy-tailed service: lognormal durations with a chosen coefficient of variation, or a
  Pareto tail (cv > 3), as mounts of a real library's log are (issue 24: cv 4.07);
- same-cartridge clusters: a request repeats the cartridge of a recent one with a chance.
"""

from __future__ import annotations

import numpy as np


def lognormal_service(rng, n, mean_s, cv):
    """Lognormal service times with the given mean and coefficient of variation. [s]"""
    sigma2 = np.log(1.0 + cv * cv)
    mu = np.log(mean_s) - sigma2 / 2.0
    return rng.lognormal(mu, np.sqrt(sigma2), n)


def pareto_service(rng, n, mean_s, alpha=2.1):
    """Pareto (Lomax) service times with the given mean: alpha just above 2 gives cv well above 3. [s]"""
    x = rng.pareto(alpha, n)
    return x * (mean_s / (1.0 / (alpha - 1.0)))


def poisson_arrivals(rng, n, rate):
    return np.cumsum(rng.exponential(1.0 / rate, n))


def bursty_arrivals(rng, n, rate, *, burst=8.0, share=0.2, period_s=1800.0):
    """Arrivals with the mean ``rate``: bursts ``burst`` times the quiet rate, ``share`` of the time."""
    quiet = rate / (share * burst + (1.0 - share))
    t, out = 0.0, []
    on = False
    while len(out) < n:
        length = rng.exponential(period_s * (share if on else 1.0 - share))
        r = quiet * (burst if on else 1.0)
        k = rng.poisson(r * length)
        out.extend(np.sort(t + rng.uniform(0.0, length, k)).tolist())
        t += length
        on = not on
    return np.asarray(out[:n])


def clustered_cartridges(rng, n, cartridges, *, repeat=0.5, window=20):
    """Cartridge codes: with chance ``repeat`` the cartridge of one of the last ``window`` requests."""
    out = rng.integers(0, cartridges, n)
    rep = rng.random(n) < repeat
    back = rng.integers(1, window + 1, n)
    for i in np.flatnonzero(rep):
        if i >= back[i]:
            out[i] = out[i - back[i]]
    return out
