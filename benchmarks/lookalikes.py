"""Look-alike logs for the benchmarks: made by the project, shaped like public ones (never copied).

- ``block_trace``: a block-I/O trace shaped like the CloudPhysics trace libCacheSim's
  repository ships (``data/trace.csv``, columns version, time, op, size, lbn; read
  through the project's search index on 2026-11-26, not downloaded): requests of 512 B to
  64 KB, most of 4 KB; a loop of metadata blocks re-read again and again (the trace's
  ``1313767, 6160455, 1313768, 1329911, ...`` runs); sequential runs of new blocks; and
  re-reads of earlier blocks, recent ones more often. The real trace is not on this
  machine and a benchmark fetches nothing, so its numbers are this look-alike's.
- ``tape_requests``: a tape library's request log: cartridges requested with Zipf
  popularity, in bursts of requests for one cartridge, all reads, no sizes (the
  ``tape-requests`` format).
"""

from __future__ import annotations

import numpy as np

from vtsmodel import mountlog


def block_trace(n: int = 1_000_000, *, seed: int = 0, loop: int = 40, fixed_sizes: bool = True):
    """A block trace look-alike: n requests (all reads), sizes in MB. ILLUSTRATIVE."""
    rng = np.random.default_rng(seed)
    sectors = np.array([1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 32, 64, 96, 104, 112, 128])
    p = np.array([12, 3, 3, 4, 3, 3, 3, 40, 3, 2, 8, 2, 3, 2, 1, 2, 2, 4], dtype=float)
    kind = rng.choice(3, size=n, p=[0.25, 0.35, 0.40])  # loop, sequential, re-read
    ids = np.empty(n, dtype=np.int64)
    # the metadata loop: the same few blocks, in order, over and over
    loop_ids = 1_000_000 + rng.choice(50_000, size=loop, replace=False)
    k0 = np.flatnonzero(kind == 0)
    ids[k0] = loop_ids[np.arange(k0.size) % loop]
    # sequential runs of new blocks: consecutive ids from random starts
    k1 = np.flatnonzero(kind == 1)
    run = 16
    starts = 10_000_000 + rng.choice(10**8, size=k1.size // run + 1, replace=False) * 64
    ids[k1] = starts[np.arange(k1.size) // run] + np.arange(k1.size) % run
    # re-reads of earlier requests, a geometric number of requests back (recent ones more often)
    k2 = np.flatnonzero(kind == 2)
    back = rng.geometric(1 / 20_000, size=k2.size)
    src = np.maximum(k2 - back, 0)
    ids[k2] = src  # placeholder: resolved in order below
    for i, j in zip(k2.tolist(), src.tolist(), strict=True):
        ids[i] = ids[j] if j < i else loop_ids[0]
    uniq, code = np.unique(ids, return_inverse=True)
    size_of = rng.choice(sectors, size=uniq.size, p=p / p.sum()) * 512
    size = size_of[code]
    if not fixed_sizes:  # the real trace's blocks are sometimes read with another length
        change = rng.random(n) < 0.05
        size = np.where(change, rng.choice(sectors, size=n, p=p / p.sum()) * 512, size)
    t = np.sort(rng.random(n)) * 3600.0 * 4
    return mountlog.mount_log(
        t, ids.astype(str), size / 1e6, None, size_basis="host", source="block look-alike"
    )


def tape_requests(n: int = 250_000, cartridges: int = 7_000, *, seed: int = 0, burst: float = 3.0):
    """A tape library's request log look-alike: (times, cartridge ids) of n reads. ILLUSTRATIVE."""
    rng = np.random.default_rng(seed)
    w = np.arange(1, cartridges + 1, dtype=float) ** -0.9
    bursts = rng.geometric(1 / burst, size=n)
    first = rng.choice(cartridges, size=bursts.size, p=w / w.sum())
    cart = np.repeat(first, bursts)[:n]
    t = np.sort(rng.random(n)) * 86_400.0 * 30
    return t, np.char.add("T", cart.astype(str))
