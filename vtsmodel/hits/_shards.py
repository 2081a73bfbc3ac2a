"""The sampled hit curve, SHARDS (private: :func:`vtsmodel.hits.shards_hit_curve`)."""

from __future__ import annotations

import math

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._mountlog import READ, SPECIFIC_WRITE, MountLog, _chunk_lines
from vtsmodel._validation import as_scalar
from vtsmodel.hits._curve import (
    _B_PER_GB,
    _B_PER_MB,
    GROUPS,
    HitCurve,
    _blocks,
    _bytes,
    _kernels,
    _pow2,
    _Replicates,
    _Steps,
    _Tally,
    _warmup,
)
from vtsmodel.quantities import CHUNK_LINES, WARMUP_HOURS

#: Most sampled volumes :func:`shards_hit_curve` tracks: its state is about 430 bytes a
#: volume when full (28 MB at the default 65,536), so about 450 MB at 2**20; measured, a
#: 3-million-mount log over 3 million volumes takes 2.1 s at 2**20 and 0.3 s at 65,536.
#: Beyond it the state, not the log, would exhaust the memory (10^8 volumes: about 43 GB). [count]
MAX_SHARDS_VOLUMES = 2**20

#: The sampled curve's error by sample size: the largest absolute error of the read-hit
#: ratio over 20 capacities spanning the log's working set, median over the 12 logs of
#: ``benchmarks/bench_shards_error.py`` (6 synthetic mount logs of 2 million mounts over
#: 200,000 volumes, 3 block-trace look-alikes of a million requests, 3 tape-request
#: look-alikes of 500,000; measured 2026-11-26, without SHARDS_adj: BENCHMARKS.md). A
#: measurement on illustrative logs, not a bound: a log with a few very hot objects can err
#: more (the largest errors are in BENCHMARKS.md). [count] -> [-]
EXPECTED_ERROR = {512: 0.122, 1024: 0.139, 2048: 0.081, 4096: 0.061, 8192: 0.058, 16_384: 0.045,
                  32_768: 0.029, 65_536: 0.018}  # fmt: skip


def expected_error(sampled_volumes: int, rate: float) -> float:
    """:data:`EXPECTED_ERROR` at a sample size (interpolated in log scale; 0 when every volume is sampled). [-]"""
    if rate >= 1.0:
        return 0.0
    sizes = np.log2(list(EXPECTED_ERROR))
    return float(np.interp(np.log2(max(1, sampled_volumes)), sizes, list(EXPECTED_ERROR.values())))


#: The largest reuse distance SHARDS bins (10^18 bytes: BIG_GB); beyond, a miss. [bytes]
_TOP_BYTES = 1e18

_MAX_VOLUMES = Input(
    "SHARDS sample", "-", 65536, lo=16, hi=MAX_SHARDS_VOLUMES, integer=True,
    source="practical limit MAX_SHARDS_VOLUMES (memory of the sampled state)",
    help="Largest number of sampled volumes tracked at once.",
)  # fmt: skip
_INITIAL_RATE = Input(
    "initial sampling rate", "-", 1.0, lo=0.0, lo_open=True, hi=1.0,
    help="SHARDS' sampling rate at the start; it falls as the sample fills.",
)  # fmt: skip
_RESOLUTION = Input(
    "capacity bin width", "-", 0.001, lo=1e-5, hi=0.5,
    source="practical limit (at 10^-5 the bins hold about 130 MB; beyond 0.5 a curve has few steps)",
    help="Relative width of SHARDS' capacity bins: a hit is counted at most this much above its capacity.",
)  # fmt: skip


# --------------------------------------------------------------------------------------
# SHARDS (fixed size)
# --------------------------------------------------------------------------------------
_HASH_BITS = 62


def volume_hashes(volume_ids) -> np.ndarray:
    """A fixed 62-bit hash of each volume serial (FNV-1a over code points, then splitmix64).

    The same serial hashes the same on every machine and run, whatever the array's width.

    Parameters
    ----------
    volume_ids : array_like of str
        Volume serials.

    Returns
    -------
    numpy.ndarray
        int64 values in [0, 2**62).
    """
    names = np.asarray(volume_ids, dtype=str).ravel()
    out = np.empty(names.size, dtype=np.int64)
    for lo in range(0, names.size, 65536):  # in blocks: the code-point table is 8 bytes a character
        out[lo : lo + 65536] = _fnv_splitmix(names[lo : lo + 65536])
    return out


def _fnv_splitmix(names: np.ndarray) -> np.ndarray:
    n = names.size
    width = names.dtype.itemsize // 4
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    cp = names.view(np.uint32).reshape(n, width).astype(np.uint64)
    length = np.char.str_len(names)
    h = np.full(n, 0xCBF29CE484222325, dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    for j in range(width):
        h = np.where(j < length, (h ^ cp[:, j]) * prime, h)
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return (h >> np.uint64(64 - _HASH_BITS)).astype(np.int64)


class _Sampler:
    """One fixed-size SHARDS state: the sampled volumes' tree, heap of hashes, and bins."""

    def __init__(self, max_volumes: int, threshold: int, resolution: float):
        k = _kernels()
        self.k = k
        s = max_volumes
        nleaves = _pow2(2 * (s + 1))
        if k.COMPILED:
            import numba

            self.table = numba.typed.Dict.empty(numba.types.int64, numba.types.int64)
        else:
            self.table = {}
        self.last = np.full(s + 1, -1, dtype=np.int64)
        self.cur = np.zeros(s + 1, dtype=np.int64)
        self.free = np.arange(s, -1, -1, dtype=np.int64)
        self.hh = np.zeros(s + 2, dtype=np.int64)
        self.hc = np.zeros(s + 2, dtype=np.int64)
        self.owner = np.full(nleaves, -1, dtype=np.int64)
        self.tree = np.zeros(4 * nleaves, dtype=np.int64)
        self.base = np.zeros(nleaves, dtype=np.int64)
        self.st = np.array([0, nleaves, 0, threshold, 0, s + 1, s, 0], dtype=np.int64)
        self.b0 = 1.0  # 1 byte: every distance above has its bin [bytes]
        self.log_g = math.log1p(resolution)
        nbins = int(math.ceil(math.log(_TOP_BYTES / self.b0) / self.log_g)) + 2
        self.fs = np.array([self.b0, self.log_g])
        self.cnt = np.zeros((2, nbins))
        self.byt = np.zeros((2, nbins))
        self.bmin = np.full((2, nbins), np.inf)

    @property
    def rate(self) -> float:
        """The sampling rate R (of all volumes, for a replicate too). [-]"""
        return float(self.st[3]) / 2**_HASH_BITS

    def run(self, hsh, size_b, kind, counted):
        # mounts hashed above the current threshold can never be sampled again: drop them here
        keep = hsh < self.st[3]
        self.k.shards_pass(
            hsh[keep], size_b[keep], kind[keep], counted[keep], self.table, self.last, self.cur,
            self.free, self.hh, self.hc, self.owner, self.base, self.tree, self.st, self.fs, self.cnt, self.byt,
            self.bmin,
        )  # fmt: skip

    def working_set_gb(self) -> float:
        """The sampled volumes' last sizes, added up and scaled by 1/R. [GB]"""
        live = self.owner[self.owner >= 0]
        return float(self.cur[live].sum()) / self.rate / _B_PER_GB if live.size else 0.0

    def steps(self, k: int, total: float, total_mb: float, adjust: bool) -> _Steps:
        """Cumulative hits of kind k; with ``adjust``, SHARDS_adj's correction.

        A bin's hits count from the smallest distance seen in it (the curve steps where the
        exact one does for objects of one size; elsewhere at most ``resolution`` early).
        """
        cnt = self.cnt[k, :-1].copy()
        mb = self.byt[k, :-1] / _B_PER_MB
        used = np.flatnonzero((cnt != 0) | (mb != 0))
        if adjust and used.size:
            # The sampled mounts' weights should add up to the true count (every line is
            # seen): the gap goes to the smallest distance seen (Waldspurger et al. 2015,
            # Sec. 4.3, SHARDS_adj).
            cnt[used[0]] += total - self.cnt[k].sum()
            mb[used[0]] += total_mb - self.byt[k].sum() / _B_PER_MB
        elif not adjust:
            total, total_mb = float(self.cnt[k].sum()), float(self.byt[k].sum() / _B_PER_MB)
        edges_gb = self.bmin[k, :-1][used] / _B_PER_GB
        hits = np.clip(np.cumsum(cnt[used]), 0.0, total)
        hit_mb = np.clip(np.cumsum(mb[used]), 0.0, total_mb)
        return _Steps(edges_gb, hits, hit_mb, total, total_mb)


#: Bin width of the replicates' curves: a standard error needs no finer. [-]
_REPLICATE_RESOLUTION = 0.01
_GROUP_BITS = GROUPS.bit_length() - 1


class _Shards:
    """The sample, and :data:`GROUPS` replicate samples on disjoint groups of volumes."""

    def __init__(self, max_volumes: int, initial_rate: float, resolution: float, replicates: bool):
        top = 2**_HASH_BITS
        self.main = _Sampler(max_volumes, min(top, int(initial_rate * top)), resolution)
        # replicate g samples the volumes whose hash ends in g, by the rest of the hash (a
        # 16th of the hash space: its rate, of all volumes, starts at initial_rate / 16)
        sub = max(16, max_volumes // GROUPS)
        self.subs = [
            _Sampler(sub, int(initial_rate * (top >> _GROUP_BITS)), _REPLICATE_RESOLUTION)
            for _ in range(GROUPS if replicates else 0)
        ]

    def run(self, hsh, size_b, kind, counted):
        self.main.run(hsh, size_b, kind, counted)
        if not self.subs:
            return
        group = hsh & (GROUPS - 1)
        order = np.argsort(group, kind="stable")
        cuts = np.searchsorted(group[order], np.arange(GROUPS + 1))
        for g, s in enumerate(self.subs):
            i = order[cuts[g] : cuts[g + 1]]
            if i.size:
                s.run(hsh[i] >> _GROUP_BITS, size_b[i], kind[i], counted[i])

    def errors(self) -> _Replicates | None:
        if not self.subs:
            return None
        return _Replicates(tuple(s.steps(0, 0.0, 0.0, False) for s in self.subs), self.main.rate)


@declare(
    max_volumes=_MAX_VOLUMES, initial_rate=_INITIAL_RATE, resolution=_RESOLUTION, warmup_hours=WARMUP_HOURS,
    chunk_lines=CHUNK_LINES,
)  # fmt: skip
def shards_hit_curve(
    log,
    *,
    max_volumes: int = 65536,
    initial_rate: float = 1.0,
    resolution: float = 0.001,
    adjust: bool = False,
    error: bool = True,
    warmup_hours: float = 0.0,
    chunk_lines: int = 100_000,
) -> HitCurve:
    """Hit ratio of an LRU cache at every capacity, estimated from a hashed sample of volumes.

    Fixed-size SHARDS (Waldspurger et al., FAST 2015) over the same one-pass method as
    :func:`lru_hit_curve`: memory is fixed by ``max_volumes`` and ``resolution``, not by
    the log. Exact (but for the binning) while the log has no more than ``max_volumes``
    volumes and ``initial_rate`` is 1.

    Parameters
    ----------
    log : MountLog, path-like, file-like or str
        The log in memory, or a file (or CSV text) read in chunks.
    max_volumes : int
        Largest number of sampled volumes tracked at once, 16 to :data:`MAX_SHARDS_VOLUMES`;
        about 28 MB of state at the default (twice that with ``error``). Its error, measured
        (``benchmarks/bench_shards_error.py``, :data:`EXPECTED_ERROR`): the largest error of
        the read-hit ratio over a curve was 0.018 in the median of the benchmark's 12 logs
        (0.045 at most) with 65,536 volumes, 0.045 (0.12) with 16,384, 0.061 (0.31) with
        4,096 and 0.12 (0.72) with 512. A few very popular volumes in or out of the sample
        decide most of it. [count]
    initial_rate : float
        Sampling rate at the start, (0, 1]; it falls as the sample fills. [-]
    resolution : float
        Relative width of the capacity bins, 10^-5 to 0.5: a hit is counted at most this
        much above its exact capacity (the curve errs low). [-]
    adjust : bool
        SHARDS_adj (Waldspurger et al. 2015, Sec. 4.3): the gap between the true number
        of counted reads (every line is seen) and the sampled reads' total weight is put
        in the first distance bin, on the grounds that a sample that misses (or over-
        weights) a few very hot volumes misses (or over-counts) their short-distance
        hits. False (default): the ratio of sampled hits to sampled reads. Measured on the
        benchmark's 12 logs, the adjustment lowered the median error at six of eight sample
        sizes from 512 to 65,536 volumes, but it lowered the error in more than half of the
        logs at two sizes only (7 and 8 of 12), raised it on the block-trace look-alikes at
        seven sizes, and at the default 65,536 volumes raised the largest error from 0.045 to
        0.080 (the median fell from 0.018 to 0.012): off unless asked for, the worst case
        counting more than the median.
    error : bool
        Run the 16 replicate samples that give :meth:`HitCurve.read_hit_error` (about
        twice the time and memory of the curve alone).
    warmup_hours : float
        Mounts in the first ``warmup_hours`` fill the cache but are not counted. [h]
    chunk_lines : int
        Lines per chunk, 1 to :data:`~vtsmodel.quantities.MAX_CHUNK_LINES`. [count]

    Returns
    -------
    HitCurve
        ``method == "shards"``; ``peak_hour_recalls`` are not available (NaN).
    """
    s = int(as_scalar("max_volumes", _MAX_VOLUMES.check("max_volumes", max_volumes)))
    r0 = as_scalar("initial_rate", _INITIAL_RATE.check("initial_rate", initial_rate))
    res = as_scalar("resolution", _RESOLUTION.check("resolution", resolution))
    warm_s = _warmup(warmup_hours)
    chunk_lines = _chunk_lines(chunk_lines)
    whole = log if isinstance(log, MountLog) else None
    state = _Shards(s, r0, res, error)
    vh = volume_hashes(whole.volume_ids) if whole is not None else None
    tally = _Tally(warm_s)
    totals, totals_b = [0, 0], [0, 0]
    notes: list[str] = []
    for time_s, vol, size_mb, access, block_basis, names in _blocks(log, chunk_lines, notes):
        tally.basis = block_basis
        if time_s.size == 0:
            continue
        hsh = vh[vol] if vol is not None else volume_hashes(names)
        size_b = _bytes(size_mb)
        counted = tally.add(time_s, size_b)
        kind = np.where(access == READ, 1, np.where(access == SPECIFIC_WRITE, 2, 0)).astype(np.int64)
        for j in (0, 1):
            m = counted & (kind == j + 1)
            totals[j] += int(m.sum())
            totals_b[j] += int(size_b[m].sum())
        state.run(hsh, size_b, kind, counted)
    main = state.main
    use_adj = bool(adjust)
    read = main.steps(0, totals[0], totals_b[0] / _B_PER_MB, use_adj)
    spec = main.steps(1, totals[1], totals_b[1] / _B_PER_MB, use_adj)
    return HitCurve(
        method="shards",
        size_basis=tally.basis,
        hours=tally.hours,
        reads=read.total,
        read_mb=read.total_mb,
        specific_writes=spec.total,
        mounts=tally.mounts,
        volumes=int(main.st[2]),
        sampling_rate=main.rate,
        warmup_hours=float(warmup_hours),
        _read=read,
        _specific=spec,
        _events=None,
        notes=tuple(notes),
        working_set_gb=main.working_set_gb(),
        sampled_volumes=int(main.st[2]),
        expected_error=expected_error(int(main.st[2]), main.rate),
        _errors=state.errors(),
        **tally.sizes(),
    )
