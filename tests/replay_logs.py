"""Synthetic request logs shaped like the real thing, made here (never a copied trace).

- bursty arrivals: a two-state modulated Poisson process (quiet and burst periods);
- heavy-tailed service: lognormal durations with a chosen coefficient of variation, or a
  Pareto tail (cv > 3), as mounts of a real library's log are (issue 24: cv 4.07);
- same-cartridge clusters: a request repeats the cartridge of a recent one with a chance.
"""

from __future__ import annotations

import gzip

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


#: How :func:`site_log` is read: it has no header, and one access word ("U") of its own.
SITE_READING = {"columns": "time,volume,mb,access", "access_map": {"U": "specific_write"}}


def site_log(n: int = 3000, seed: int = 11) -> bytes:
    """A tape library's request log as a site writes one (made here, never a copied trace).

    ';'-separated, no header, gzip-compressed, seconds from any origin; bursts (a third of
    the gaps 20 times shorter), a hot set of volumes read again and again, heavy-tailed
    (lognormal) volume sizes, and the site's own access words R, W and U.
    """
    rng = np.random.default_rng(seed)
    t = np.cumsum(rng.exponential(20.0, n) * np.where(rng.random(n) < 0.3, 0.05, 1.0))
    vol = np.where(rng.random(n) < 0.6, rng.integers(0, 150, n), rng.integers(150, 4000, n))
    mb = np.round(rng.lognormal(np.log(800.0), 1.2, 4000), 1)
    code = rng.choice(["R", "W", "U"], n, p=[0.6, 0.3, 0.1])
    text = "".join(f"{ti:.1f};V{v:05d};{mb[v]};{c}\n" for ti, v, c in zip(t, vol, code, strict=True))
    return gzip.compress(text.encode())
