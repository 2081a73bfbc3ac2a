"""The exact one-pass LRU hit curve (private: :func:`vtsmodel.hits.lru_hit_curve`)."""

from __future__ import annotations

import dataclasses

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._mountlog import READ, SPECIFIC_WRITE, MountLog, _chunk_lines, _Codes
from vtsmodel.hits._curve import (
    _B_PER_GB,
    _S_PER_H,
    HitCurve,
    _blocks,
    _bytes,
    _kernels,
    _pow2,
    _steps,
    _Tally,
    _warmup,
)
from vtsmodel.quantities import CHUNK_LINES, WARMUP_HOURS


class _Exact:
    """State of the exact pass, kept across chunks; memory follows the live volumes."""

    def __init__(self, volumes: int):
        k = _kernels()
        self.k = k
        v = max(16, volumes)
        self.last = np.full(v, -1, dtype=np.int64)
        self.cur = np.zeros(v, dtype=np.int64)
        nleaves = _pow2(2 * v)
        self.tree = np.zeros(4 * nleaves, dtype=np.int64)  # (add, max-add) per node
        self.owner = np.full(nleaves, -1, dtype=np.int64)
        self.base = np.zeros(nleaves, dtype=np.int64)
        self.st = np.array([0, nleaves, 0], dtype=np.int64)

    def _volumes(self, n: int):
        if n > self.last.size:
            grow = max(n, 2 * self.last.size)
            self.last = np.concatenate([self.last, np.full(grow - self.last.size, -1, dtype=np.int64)])
            self.cur = np.concatenate([self.cur, np.zeros(grow - self.cur.size, dtype=np.int64)])

    def _make_room(self):
        nleaves = int(self.st[1])
        live = int(np.count_nonzero(self.owner >= 0))
        new = nleaves
        while 2 * live > new:
            new *= 2
        if new == nleaves:
            tree, owner, base = self.tree, self.owner, self.base
        else:
            tree = np.zeros(4 * new, dtype=np.int64)
            owner = np.full(new, -1, dtype=np.int64)
            base = np.zeros(new, dtype=np.int64)
        used = int(self.st[0])
        self.st[0] = self.k._compact(
            self.tree, nleaves, used, self.owner, self.last, self.base, tree, new, owner, base
        )
        self.tree, self.owner, self.base = tree, owner, base
        self.st[2] = 0
        self.st[1] = new

    def run(self, vol: np.ndarray, size_b: np.ndarray) -> np.ndarray:
        n = vol.size
        self._volumes(int(vol.max()) + 1 if n else 0)
        out = np.empty(n, dtype=np.int64)
        i = 0
        while i < n:
            i += int(
                self.k.lru_pass(
                    vol[i:],
                    size_b[i:],
                    out[i:],
                    self.last,
                    self.cur,
                    self.owner,
                    self.base,
                    self.tree,
                    self.st,
                )
            )
            if i < n:
                self._make_room()
        return out


# --------------------------------------------------------------------------------------
# The exact curve
# --------------------------------------------------------------------------------------
@declare(warmup_hours=WARMUP_HOURS, chunk_lines=CHUNK_LINES)
def lru_hit_curve(log, *, warmup_hours: float = 0.0, chunk_lines: int = 100_000) -> HitCurve:
    """Hit ratio of an LRU cache at every capacity, exactly, from one pass over the log.

    See the module notes for the cache model (what a hit is, writes, size changes,
    volumes larger than the cache) and the method.

    Parameters
    ----------
    log : MountLog, path-like, file-like or str
        The log in memory, or a file (or CSV text) read in chunks of ``chunk_lines``.
    warmup_hours : float
        Mounts in the first ``warmup_hours`` fill the cache but are not counted. [h]
    chunk_lines : int
        Lines per chunk, 1 to :data:`~vtsmodel.quantities.MAX_CHUNK_LINES`. [count]

    Returns
    -------
    HitCurve
        Its memory grows with the counted reads and specific writes (a threshold, a time
        and a size each) and the distinct volumes; for logs too large for that, see
        :func:`shards_hit_curve`.

    Examples
    --------
    >>> from vtsmodel.mountlog import synthetic_mount_log
    >>> curve = lru_hit_curve(synthetic_mount_log(2000, 300, seed=1))
    >>> bool(curve.read_hit_ratio(1000.0) >= curve.read_hit_ratio(10.0))
    True
    """
    warm_s = _warmup(warmup_hours)
    chunk_lines = _chunk_lines(chunk_lines)
    whole = log if isinstance(log, MountLog) else None
    codes = _Codes()
    state = _Exact(whole.n_volumes if whole is not None else 1024)
    parts = []
    tally = _Tally(warm_s)
    notes: list[str] = []
    for time_s, vol, size_mb, access, block_basis, names in _blocks(log, chunk_lines, notes):
        tally.basis = block_basis
        if time_s.size == 0:
            continue
        if vol is None:
            vol = codes(names)
        size_b = _bytes(size_mb)
        thr = state.run(vol, size_b)
        keep = tally.add(time_s, size_b) & ((access == READ) | (access == SPECIFIC_WRITE))
        parts.append((thr[keep], size_b[keep], time_s[keep], access[keep] == READ))
    volumes = whole.n_volumes if whole is not None else len(codes.code)
    curve = _exact_curve(parts, tally, volumes, warmup_hours)
    return dataclasses.replace(
        curve,
        notes=tuple(notes),
        working_set_gb=float(state.cur[:volumes].sum()) / _B_PER_GB,
        sampled_volumes=volumes,
    )


def _exact_curve(parts, tally: _Tally, volumes: int, warmup_hours) -> HitCurve:
    def cat(i, dtype):
        return np.concatenate([p[i] for p in parts]) if parts else np.zeros(0, dtype=dtype)

    thr, size_b, t, is_read = cat(0, np.int64), cat(1, np.int64), cat(2, np.float64), cat(3, bool)
    hour = np.floor((t - tally.start) / _S_PER_H).astype(np.int64) if t.size else np.zeros(0, dtype=np.int64)
    read = _steps(thr[is_read], size_b[is_read])
    spec = _steps(thr[~is_read], size_b[~is_read])
    events = (thr / _B_PER_GB, hour, is_read)
    return HitCurve(
        method="exact",
        size_basis=tally.basis,
        hours=tally.hours,
        reads=read.total,
        read_mb=read.total_mb,
        specific_writes=spec.total,
        mounts=tally.mounts,
        volumes=volumes,
        sampling_rate=1.0,
        warmup_hours=float(warmup_hours),
        _read=read,
        _specific=spec,
        _events=events,
        **tally.sizes(),
    )
