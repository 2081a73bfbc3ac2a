"""Read hits of the tape volume cache, for every cache size at once, from a mount log.

The VTS paper names two gains of a larger tape volume cache (TVC) and quantifies only the
first (time at peak). Of the second, "more recently written or accessed tape volumes are
in tape cache. This increases the probability of read hits and write hits on specific
mounts", it says it "depends on specific workload characteristics intimately and [is]
thus hard to use in quantifying the general value of tape cache capacity except for the
observation that more is better" (ibm-vts-b18-2000, Sec. 4). With a mount log
(:mod:`vtsmodel.mountlog`) that number can be computed: this module gives the read-hit
ratio, by count and by bytes, as a function of the cache capacity, and the recall mounts
per hour each Table 3 configuration would see.

The cache model (least recently used, volumes of any size)
-----------------------------------------------------------
What the paper states, and how it is modelled:

- "Following the copying of data from tape cache to physical tape, the copy of the data
  in tape cache remains, providing for possible read hits" (Sec. 3.1.1), and a read hit
  "finds the requested volume in tape volume cache ... whether the data has been copied
  to physical tape or not" (Sec. 3.2.1): a volume stays cached until it is displaced,
  whether or not it was copied to tape.
- "more recently written or accessed tape volumes are in tape cache" (Sec. 4): every
  mount, write or read, makes its volume the most recent; the least recent go first.
- "the data being recalled has to displace data in tape cache" (Sec. 5): a read miss
  brings the volume in, as writes do, displacing the least recent volumes until it fits.
- Recalls: "read misses and writes to specific mount ... (if their data is not in tape
  cache) ... require the recall of the requested tape volume" (Sec. 3.4). A scratch
  mount needs no physical mount (Sec. 2); a specific-mount write that misses is a
  recall, counted unless ``recall_specific_writes=False``.

The size on a log line is the volume's size after that mount. A volume rewritten with a
different size occupies its new size from that mount on (if it grew, older volumes are
displaced until it fits; if it shrank, the space is free and nothing comes back). A
volume larger than the cache displaces every other volume and is not kept itself: all
its reads miss. (libCacheSim instead lets such a volume bypass the cache, leaving the
others in place; the two agree at every capacity at or above the largest volume, which
:attr:`HitCurve.largest_volume_gb` reports, and every Table 3 capacity is far above a
3490E-style volume. This choice keeps the curve a curve: a larger cache always holds
what a smaller one holds.) The first mount of each volume in the log is a miss: what the
cache held before the log began is unknown; ``warmup_hours`` leaves the start of the
log out of the counts (its mounts still fill the cache).

What capacity is compared with what
-----------------------------------
The curve's capacity axis is in the log's own size basis, in GB (10^9 bytes): the sum
of the sizes, as logged, of the volumes the cache holds. A Table 3 capacity is physical
disk ("The TVC is available in capacities of 216, 432, 864, and 1728 GB (physical)",
Sec. 2), and what sits on it depends on the feature: with EHPO or PAF, "all data within
the system below the attachment adapters is in compressed form" (Sec. 2), so the cache
holds compressed volumes; the base VTS compresses at the 3590 drive, so its cache holds
volumes at host size (:func:`vtsmodel.tvc.cache_cf`). :func:`configuration_hits`
converts: a log of ``compressed_mb`` is compared directly with the physical capacity of
an EHPO or PAF cache; a log of ``host_mb`` with the capacity times the compressibility
``cf``. The TVC is taken as wholly available to volumes (no share kept free for the
fill threshold of :mod:`vtsmodel.tvc`: the paper gives none for reads).

The method, and why it is written here
---------------------------------------
One pass over the log gives, for each mount, the smallest capacity at which it would
hit: its *threshold*. With fixed sizes that is Mattson's stack distance in bytes: the
volume's size plus the bytes of the distinct volumes touched since its last mount, kept
in a tree over last-access times (O(log n) per mount). Size changes need one more idea:
a volume survives in an LRU cache of capacity C iff, at every mount since its last, the
bytes above it (and its own) stayed within C; so the threshold uses the running *maximum*
of that sum, which a segment tree with lazy (add, max-add) tags keeps exactly
(:mod:`vtsmodel._hitkernels`). The hit ratio at every capacity is then a cumulative count
of thresholds: O(n log n) for the whole curve, where one simulation per size costs O(n)
per size.

libCacheSim (PyPI ``libcachesim``, the ``hits`` extra) simulates one cache size per run,
for many replacement policies: :func:`simulate_policy` uses it for the other policies
(FIFO, LFU, ARC, ...) and the tests use its LRU as the oracle for this one. Its Python
bindings offer no miss-ratio-curve profiler (no one-pass curve, no SHARDS), and we found
no maintained package whose one-pass curve handles objects that change size when
rewritten (here common: scratch serials are reused with new data); so the one-pass curve
and its sampled version are the only parts written by hand. numba (also in the ``hits``
extra) compiles them: the pass is a loop of dependent tree walks that numpy cannot
vectorise; without numba the same code runs as plain Python, slowly.

Scale: SHARDS
-------------
:func:`shards_hit_curve` samples volumes by a hash of their serial (spatially hashed
sampling, Waldspurger et al., "Efficient MRC Construction with SHARDS", FAST 2015) and
runs the same pass on the sampled mounts, distances divided by the sampling rate R. Its
fixed-size variant keeps at most ``max_volumes`` sampled volumes: when one more arrives,
the threshold drops to the largest sampled hash and that volume leaves. Hits are counted
in fine logarithmic bins of capacity, each mount weighted 1/R at its time, so memory is
fixed whatever the log's length. The ratio estimate is sampled hits over sampled reads
(no SHARDS_adj correction).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import cites
from vtsmodel._validation import as_scalar, result
from vtsmodel.b18 import FEATURE, FEATURE_LABELS, configurations, product_configurations
from vtsmodel.mountlog import READ, SIZE_BASIS, SPECIFIC_WRITE, MountLog, _chunk_lines, _Codes, iter_mount_log
from vtsmodel.quantities import (
    BIG_GB,
    CF,
    CHUNK_LINES,
    COPY_DRIVES,
    RECALL_DRIVE,
    SERVICE_CV,
    TOTAL_DRIVES,
    TVC_GB,
    WARMUP_HOURS,
)
from vtsmodel.queueing import QUANTILE
from vtsmodel.tvc import cache_cf

__all__ = [
    "CAPACITY_GB",
    "MAX_CAPACITIES",
    "MAX_SHARDS_VOLUMES",
    "POLICIES",
    "POLICY",
    "CapacityHits",
    "ConfigurationHits",
    "HitCurve",
    "RecallWaits",
    "compared_capacity_gb",
    "configuration_hits",
    "lru_hit_curve",
    "recall_waits",
    "shards_hit_curve",
    "simulate_policy",
    "tvc_read_hit",
    "volume_hashes",
]

_B_PER_MB = 1e6
_B_PER_GB = 1e9
_S_PER_H = 3600.0

#: Replacement policies :func:`simulate_policy` runs through libCacheSim (class names in
#: ``libcachesim``).
POLICIES = ("LRU", "FIFO", "LFU", "ARC", "Clock", "TwoQ", "LIRS", "S3FIFO", "Sieve", "GDSF")

#: Most capacities one call evaluates (:meth:`HitCurve.at`, :func:`simulate_policy`): a
#: curve drawn at more points shows nothing more, and each capacity costs a pass over the
#: recalls (``at``) or a whole simulation of the log (``simulate_policy``, about 1.5
#: microseconds a mount: 1,000 capacities of a million-mount log take 25 minutes). [count]
MAX_CAPACITIES = 1000
#: Most sampled volumes :func:`shards_hit_curve` tracks: its state is about 430 bytes a
#: volume when full (28 MB at the default 65,536), so about 450 MB at 2**20; measured, a
#: 3-million-mount log over 3 million volumes takes 2.1 s at 2**20 and 0.3 s at 65,536.
#: Beyond it the state, not the log, would exhaust the memory (10^8 volumes: about 43 GB). [count]
MAX_SHARDS_VOLUMES = 2**20

CAPACITY_GB = Input(
    "cache capacity (the log's size basis)", "GB", 864.0, lo=0.0, hi=BIG_GB,
    help="Capacity of the cache the volumes are compared with, in the log's size basis (module notes).",
)  # fmt: skip
POLICY = Input(
    "replacement policy", "", "LRU", choices=POLICIES, source="libCacheSim (PyPI libcachesim)",
    help="Which volumes the cache displaces first.",
)  # fmt: skip
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
    source="practical limit (at 10^-5 the bins hold about 90 MB; beyond 0.5 a curve has few steps)",
    help="Relative width of SHARDS' capacity bins: a hit is counted at most this much above its capacity.",
)  # fmt: skip


@functools.cache
def _kernels():
    from vtsmodel import _hitkernels

    return _hitkernels


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class CapacityHits:
    """Hits and recalls at given cache capacities (one element per capacity).

    NaN where there is nothing to count: a ratio without counted reads (or specific
    writes, or bytes read), a rate when the counted log spans no time, a mean recalled
    size without recalls.

    Attributes
    ----------
    capacity_gb : numpy.ndarray
        Capacity, in the log's size basis. [GB]
    read_hit_ratio : numpy.ndarray
        Share of the counted reads that hit. [-]
    read_byte_hit_ratio : numpy.ndarray
        Share of the bytes read that hit. [-]
    specific_write_hit_ratio : numpy.ndarray
        Share of specific-mount writes whose volume was in the cache. [-]
    recalls_per_hour : numpy.ndarray
        Recall mounts (read misses, plus specific-write misses unless excluded) per hour
        of the counted log; divide by 3600 for the ``arrival_rate`` of
        :mod:`vtsmodel.queueing`. [1/h]
    recall_mb_per_hour : numpy.ndarray
        Data recalled per hour, in the log's size basis. [MB/h]
    mean_recall_mb : numpy.ndarray
        Mean size of a recalled volume (for :func:`vtsmodel.recall.recall_service_s`). [MB]
    peak_hour_recalls : numpy.ndarray
        Recalls in the busiest clock hour, hours counted from the start of the counted
        log (NaN for a sampled curve, which keeps no times). [count]
    """

    capacity_gb: np.ndarray
    read_hit_ratio: np.ndarray
    read_byte_hit_ratio: np.ndarray
    specific_write_hit_ratio: np.ndarray
    recalls_per_hour: np.ndarray
    recall_mb_per_hour: np.ndarray
    mean_recall_mb: np.ndarray
    peak_hour_recalls: np.ndarray


@dataclass(frozen=True, eq=False)
class ConfigurationHits(CapacityHits):
    """:class:`CapacityHits` for Table 3 configurations.

    Attributes
    ----------
    tvc_gb : numpy.ndarray
        Physical TVC capacity (ibm-vts-b18-2000, Table 3). [GB]
    offered_with : tuple of str
        Features each capacity is offered with in Table 3 ("base/EHPO", "PAF").
    """

    tvc_gb: np.ndarray = None
    offered_with: tuple = ()


@dataclass(frozen=True, eq=False)
class _Steps:
    """Cumulative hits of one access kind at ascending threshold breakpoints."""

    at_gb: np.ndarray  # breakpoints [GB]
    hits: np.ndarray  # cumulative (weighted) hits at each breakpoint
    hit_mb: np.ndarray  # cumulative (weighted) MB hit
    total: float
    total_mb: float

    def cumulative(self, cap_gb: np.ndarray):
        k = np.searchsorted(self.at_gb, cap_gb * (1 + 1e-12), side="right")
        hits = np.where(k > 0, self.hits[np.maximum(k - 1, 0)] if self.hits.size else 0.0, 0.0)
        mb = np.where(k > 0, self.hit_mb[np.maximum(k - 1, 0)] if self.hit_mb.size else 0.0, 0.0)
        return hits, mb


@dataclass(frozen=True, eq=False)
class HitCurve:
    """Hit ratio of an LRU cache as a function of its capacity, from one pass over a log.

    Capacities are in the log's size basis (see the module notes). Build one with
    :func:`lru_hit_curve` (exact) or :func:`shards_hit_curve` (sampled).

    Attributes
    ----------
    method : str
        ``"exact"`` or ``"shards"``.
    size_basis : str
        ``"compressed"`` or ``"host"``: what the log's sizes measure.
    hours : float
        Time the counted mounts span (after the warm-up). [h]
    reads, specific_writes : float
        Counted reads and specific-mount writes (estimates for a sampled curve). [count]
    read_mb : float
        Bytes read, counted. [MB]
    mounts : int
        Mounts in the log, warm-up included. [count]
    volumes : int
        Distinct volumes in the log (exact) or tracked at the end (sampled). [count]
    largest_volume_gb : float
        Largest volume size in the log; below it, see the module notes. [GB]
    sampling_rate : float
        1 for the exact curve; SHARDS' final rate R. [-]
    warmup_hours : float
        Start of the log left out of the counts. [h]
    """

    method: str
    size_basis: str
    hours: float
    reads: float
    read_mb: float
    specific_writes: float
    mounts: int
    volumes: int
    largest_volume_gb: float
    sampling_rate: float
    warmup_hours: float
    _read: _Steps
    _specific: _Steps
    _events: tuple | None = None  # exact only: (threshold GB, hour, is read) of counted recall candidates

    @property
    def capacity_gb(self) -> np.ndarray:
        """Capacities at which the read-hit ratio steps up. [GB]"""
        return self._read.at_gb

    def read_hit_ratio(self, capacity_gb):
        """Share of counted reads that hit at ``capacity_gb`` (NaN without reads). [-]"""
        cap = _capacity(capacity_gb)
        hits, _ = self._read.cumulative(cap)
        return result(_ratio(hits, self._read.total))

    def read_byte_hit_ratio(self, capacity_gb):
        """Share of the bytes read that hit at ``capacity_gb`` (NaN without bytes read). [-]"""
        cap = _capacity(capacity_gb)
        _, mb = self._read.cumulative(cap)
        return result(_ratio(mb, self._read.total_mb))

    def specific_write_hit_ratio(self, capacity_gb):
        """Share of specific-mount writes that find their volume cached (NaN without any). [-]"""
        cap = _capacity(capacity_gb)
        hits, _ = self._specific.cumulative(cap)
        return result(_ratio(hits, self._specific.total))

    def at(self, capacity_gb, *, recall_specific_writes: bool = True) -> CapacityHits:
        """Hit ratios and recall rates at the given capacities.

        Parameters
        ----------
        capacity_gb : float or array_like
            Cache capacity, in the log's size basis; at most :data:`MAX_CAPACITIES`
            values. [GB]
        recall_specific_writes : bool
            Count specific-mount writes that miss as recalls (ibm-vts-b18-2000, Sec. 3.4).

        Returns
        -------
        CapacityHits
            One element per capacity (flattened). Rates are NaN when the counted log
            spans no time.
        """
        cap = np.atleast_1d(_capacities(capacity_gb)).ravel()
        rh, rmb = self._read.cumulative(cap)
        sh, smb = self._specific.cumulative(cap)
        misses = self._read.total - rh
        miss_mb = self._read.total_mb - rmb
        if recall_specific_writes:
            misses = misses + (self._specific.total - sh)
            miss_mb = miss_mb + (self._specific.total_mb - smb)
        per_h = np.full(cap.shape, np.nan) if self.hours <= 0 else misses / self.hours
        mb_h = np.full(cap.shape, np.nan) if self.hours <= 0 else miss_mb / self.hours
        peak = np.full(cap.shape, np.nan)
        if self._events is not None:
            thr, hour, is_read = self._events
            use = is_read | recall_specific_writes
            for j, c in enumerate(cap):
                miss = use & (thr > c * (1 + 1e-12))
                peak[j] = np.bincount(hour[miss]).max() if miss.any() else 0.0
        return CapacityHits(
            capacity_gb=cap,
            read_hit_ratio=_ratio(rh, self._read.total),
            read_byte_hit_ratio=_ratio(rmb, self._read.total_mb),
            specific_write_hit_ratio=_ratio(sh, self._specific.total),
            recalls_per_hour=per_h,
            recall_mb_per_hour=mb_h,
            mean_recall_mb=_ratio(miss_mb, misses),
            peak_hour_recalls=peak,
        )


def _capacity(capacity_gb):
    return CAPACITY_GB.check("capacity_gb", capacity_gb)


def _capacities(capacity_gb) -> np.ndarray:
    """Checked capacities, at most :data:`MAX_CAPACITIES` of them."""
    cap = _capacity(capacity_gb)
    if cap.size > MAX_CAPACITIES:
        raise ValueError(
            f"capacity_gb holds {cap.size:,} capacities; at most {MAX_CAPACITIES:,} in one call "
            "(each is a pass over the log: evaluate a coarser grid, or in parts)"
        )
    return cap


def _ratio(num, den):
    num = np.asarray(num, dtype=np.float64)
    den = np.broadcast_to(np.asarray(den, dtype=np.float64), num.shape)
    out = np.full(num.shape, np.nan)
    ok = den > 0
    out[ok] = num[ok] / den[ok]
    return out


def _steps(thr_b: np.ndarray, size_b: np.ndarray, weight: np.ndarray | None = None) -> _Steps:
    """Cumulative hits at each distinct finite threshold (bytes in, GB and MB out)."""
    w = np.ones(thr_b.size) if weight is None else weight
    total = float(w.sum())
    total_mb = float((w * size_b).sum()) / _B_PER_MB
    finite = thr_b < _kernels().INF
    t, s, ww = thr_b[finite], size_b[finite], w[finite]
    order = np.argsort(t, kind="stable")
    t, s, ww = t[order], s[order], ww[order]
    cum = np.cumsum(ww)
    cum_mb = np.cumsum(ww * s) / _B_PER_MB
    last = np.flatnonzero(np.append(t[1:] != t[:-1], True)) if t.size else np.zeros(0, dtype=np.int64)
    return _Steps(t[last] / _B_PER_GB, cum[last], cum_mb[last], total, total_mb)


# --------------------------------------------------------------------------------------
# Inputs: a MountLog or a file streamed in chunks
# --------------------------------------------------------------------------------------
def _blocks(log, chunk_lines):
    """(time_s, volume codes or None, size_mb, access, size basis, serials or None) blocks."""
    if isinstance(log, MountLog):
        for lo in range(0, max(len(log), 1), chunk_lines):
            hi = lo + chunk_lines
            yield (
                log.time_s[lo:hi],
                log.volume[lo:hi],
                log.size_mb[lo:hi],
                log.access[lo:hi],
                log.size_basis,
                None,
            )
        return
    for c in iter_mount_log(log, chunk_lines=chunk_lines):
        yield c.time_s, None, c.size_mb, c.access, c.size_basis, c.volume


def _bytes(size_mb: np.ndarray) -> np.ndarray:
    return np.rint(np.asarray(size_mb, dtype=np.float64) * _B_PER_MB).astype(np.int64)


def _pow2(n: int) -> int:
    return 1 << max(6, int(n - 1).bit_length())


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


def _warmup(warmup_hours) -> float:
    return as_scalar("warmup_hours", WARMUP_HOURS.check("warmup_hours", warmup_hours)) * _S_PER_H


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
    t_first = t_last = None
    mounts = 0
    largest = 0
    basis = "compressed"
    for time_s, vol, size_mb, access, block_basis, names in _blocks(log, chunk_lines):
        basis = block_basis
        n = time_s.size
        if n == 0:
            continue
        if vol is None:
            vol = codes(names)
        size_b = _bytes(size_mb)
        thr = state.run(vol, size_b)
        if t_first is None:
            t_first = float(time_s[0])
        t_last = float(time_s[-1])
        mounts += n
        largest = max(largest, int(size_b.max()))
        keep = (time_s >= t_first + warm_s) & ((access == READ) | (access == SPECIFIC_WRITE))
        parts.append((thr[keep], size_b[keep], time_s[keep], access[keep] == READ))
    volumes = whole.n_volumes if whole is not None else len(codes.names)
    return _exact_curve(parts, basis, t_first, t_last, warm_s, mounts, volumes, largest, warmup_hours)


def _exact_curve(parts, basis, t_first, t_last, warm_s, mounts, volumes, largest, warmup_hours) -> HitCurve:
    def cat(i, dtype):
        return np.concatenate([p[i] for p in parts]) if parts else np.zeros(0, dtype=dtype)

    thr, size_b, t, is_read = cat(0, np.int64), cat(1, np.int64), cat(2, np.float64), cat(3, bool)
    start = (t_first or 0.0) + warm_s
    hours = max(0.0, ((t_last if t_last is not None else 0.0) - start) / _S_PER_H) if mounts else 0.0
    hour = np.floor((t - start) / _S_PER_H).astype(np.int64) if t.size else np.zeros(0, dtype=np.int64)
    read = _steps(thr[is_read], size_b[is_read])
    spec = _steps(thr[~is_read], size_b[~is_read])
    events = (thr / _B_PER_GB, hour, is_read)
    return HitCurve(
        method="exact",
        size_basis=basis,
        hours=hours,
        reads=read.total,
        read_mb=read.total_mb,
        specific_writes=spec.total,
        mounts=mounts,
        volumes=volumes,
        largest_volume_gb=largest / _B_PER_GB,
        sampling_rate=1.0,
        warmup_hours=float(warmup_hours),
        _read=read,
        _specific=spec,
        _events=events,
    )


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


class _Shards:
    def __init__(self, max_volumes: int, initial_rate: float, resolution: float):
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
        top = 2**_HASH_BITS
        self.st = np.array([0, nleaves, 0, min(top, int(initial_rate * top)), 0, s + 1, s, 0], dtype=np.int64)
        self.b0 = 1e6  # 1 MB: distances below count in the first bin [bytes]
        self.log_g = math.log1p(resolution)
        nbins = int(math.ceil(math.log(1e18 / self.b0) / self.log_g)) + 2
        self.fs = np.array([self.b0, self.log_g])
        self.cnt = np.zeros((2, nbins))
        self.byt = np.zeros((2, nbins))

    @property
    def rate(self) -> float:
        return float(self.st[3]) / 2**_HASH_BITS

    def run(self, hsh, size_b, kind, counted):
        # mounts hashed above the current threshold can never be sampled again: drop them here
        keep = hsh < self.st[3]
        self.k.shards_pass(
            hsh[keep], size_b[keep], kind[keep], counted[keep], self.table, self.last, self.cur,
            self.free, self.hh, self.hc, self.owner, self.base, self.tree, self.st, self.fs, self.cnt, self.byt,
        )  # fmt: skip

    def steps(self, k: int, total: float, total_mb: float, adjust: bool) -> _Steps:
        """Cumulative hits of kind k; with ``adjust``, SHARDS_adj's first-bin correction."""
        nb = self.cnt.shape[1]
        edges_gb = self.b0 * np.exp(self.log_g * np.arange(nb - 1)) / _B_PER_GB
        cnt = self.cnt[k].copy()
        mb = self.byt[k] / _B_PER_MB
        if adjust:
            # The sampled mounts' weights should add up to the true count (every line is
            # seen): the gap goes to the smallest distance (Waldspurger et al. 2015, SHARDS_adj).
            cnt[0] += total - cnt.sum()
            mb[0] += total_mb - mb.sum()
        else:
            total, total_mb = float(cnt.sum()), float(mb.sum())
        used = np.flatnonzero((cnt[:-1] != 0) | (mb[:-1] != 0))
        hits = np.clip(np.cumsum(cnt[:-1])[used], 0.0, total)
        hit_mb = np.clip(np.cumsum(mb[:-1])[used], 0.0, total_mb)
        return _Steps(edges_gb[used], hits, hit_mb, total, total_mb)


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
    adjust: bool = True,
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
        about 28 MB of state at the default. Measured on twelve synthetic logs of 2 million mounts over 200,000
        volumes (``benchmarks/bench_shards_error.py``), the largest error of the read-hit
        ratio at Table 3's sizes (scaled to the logs) was 0.012 in the median and 0.021
        at most with 65,536, against 0.046 and 0.067 with 16,384, for 3 to 4 times the
        time (0.4 to 0.9 s, a third of the exact curve's). A few very popular volumes in
        or out of the sample decide most of the error. [count]
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
        hits. False: the ratio of sampled hits to sampled reads.
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
    state = _Shards(s, r0, res)
    vh = volume_hashes(whole.volume_ids) if whole is not None else None
    t_first = t_last = None
    mounts, largest, basis = 0, 0, "compressed"
    totals, totals_b = [0, 0], [0, 0]
    for time_s, vol, size_mb, access, block_basis, names in _blocks(log, chunk_lines):
        basis = block_basis
        n = time_s.size
        if n == 0:
            continue
        hsh = vh[vol] if vol is not None else volume_hashes(names)
        if t_first is None:
            t_first = float(time_s[0])
        t_last = float(time_s[-1])
        size_b = _bytes(size_mb)
        mounts += n
        largest = max(largest, int(size_b.max()))
        kind = np.where(access == READ, 1, np.where(access == SPECIFIC_WRITE, 2, 0)).astype(np.int64)
        counted = time_s >= t_first + warm_s
        for j in (0, 1):
            m = counted & (kind == j + 1)
            totals[j] += int(m.sum())
            totals_b[j] += int(size_b[m].sum())
        state.run(hsh, size_b, kind, counted)
    start = (t_first or 0.0) + warm_s
    hours = max(0.0, ((t_last or 0.0) - start) / _S_PER_H) if mounts else 0.0
    read = state.steps(0, totals[0], totals_b[0] / _B_PER_MB, adjust)
    spec = state.steps(1, totals[1], totals_b[1] / _B_PER_MB, adjust)
    return HitCurve(
        method="shards",
        size_basis=basis,
        hours=hours,
        reads=read.total,
        read_mb=read.total_mb,
        specific_writes=spec.total,
        mounts=mounts,
        volumes=int(state.st[2]),
        largest_volume_gb=largest / _B_PER_GB,
        sampling_rate=state.rate,
        warmup_hours=float(warmup_hours),
        _read=read,
        _specific=spec,
        _events=None,
    )


# --------------------------------------------------------------------------------------
# Table 3 configurations
# --------------------------------------------------------------------------------------
@cites("vts_tvc_configs", "ibm-vts-b18-2000")
@declare(feature=FEATURE.but(default=None), cf=CF.but(default=1.0))
def configuration_hits(
    curve: HitCurve, *, feature: str | None = None, cf: float = 1.0, recall_specific_writes: bool = True
) -> ConfigurationHits:
    """Read hits and recall mounts per hour of each Table 3 TVC capacity.

    The input the recall queue (:mod:`vtsmodel.queueing`: ``arrival_rate =
    recalls_per_hour / 3600``), the cache-day simulation (its ``read_hit``) and the
    planner take, one value per configuration instead of one guess.

    Parameters
    ----------
    curve : HitCurve
        From :func:`lru_hit_curve` or :func:`shards_hit_curve`.
    feature : {None, "base", "ehpo", "paf"}
        The capacities Table 3 offers with this feature, and its rule for what the cache
        holds (base: host-size data; EHPO, PAF: compressed). None: every Table 3
        capacity, the cache holding compressed data (each capacity is offered with EHPO
        or PAF).
    cf : float
        Data compressibility, to convert between host and compressed sizes where the
        log's size basis and the cache's differ; 1 means the data does not compress. [-]
    recall_specific_writes : bool
        Count specific-mount writes that miss as recalls (ibm-vts-b18-2000, Sec. 3.4).

    Returns
    -------
    ConfigurationHits
        One element per capacity, ascending; ``capacity_gb`` is the capacity in the
        log's size basis that was compared with the volumes. [GB] NaN where there is
        nothing to count (:class:`CapacityHits`).
    """
    if not isinstance(curve, HitCurve):
        raise ValueError(f"curve={curve!r} must be a HitCurve (lru_hit_curve, shards_hit_curve)"[:300])
    if feature is not None:
        FEATURE.check("feature", feature)
    c = as_scalar("cf", CF.check("cf", cf))
    table3 = configurations()
    tvc = product_configurations(feature) if feature is not None else np.unique([t.tvc_gb for t in table3])
    names = {"base_ehpo": "base/EHPO", "paf": FEATURE_LABELS["paf"]}
    offered = tuple(
        ", ".join(names[f] for f in sorted({t.features for t in table3 if t.tvc_gb == g})) for g in tvc
    )
    compared = compared_capacity_gb(tvc, size_basis=curve.size_basis, feature=feature or "ehpo", cf=c)
    h = curve.at(compared, recall_specific_writes=recall_specific_writes)
    return ConfigurationHits(
        **{f: getattr(h, f) for f in CapacityHits.__dataclass_fields__}, tvc_gb=tvc, offered_with=offered
    )


#: A physical TVC capacity compared with a log's volumes: 0 GB holds nothing. [GB]
_TVC_GB = TVC_GB.but(lo=0.0, valid=None)
_BY = Input("read-hit ratio of", "", "bytes", choices=(("bytes read", "bytes"), ("read mounts", "count")),
            help="Share of the bytes read, or of the read mounts.")  # fmt: skip


@declare(tvc_gb=_TVC_GB, size_basis=SIZE_BASIS, feature=FEATURE, cf=CF.but(default=1.0))
def compared_capacity_gb(tvc_gb, *, size_basis: str = "compressed", feature: str = "paf", cf: float = 1.0):
    """The capacity, in a log's size basis, that a physical TVC holds. [GB]

    With EHPO or PAF the cache holds compressed volumes, the base VTS host-size ones
    (ibm-vts-b18-2000, Sec. 2; :func:`vtsmodel.tvc.cache_cf`): a log of compressed sizes
    is compared with ``tvc_gb`` (EHPO, PAF) or ``tvc_gb / cf`` (base); a log of host sizes
    with ``tvc_gb * cf`` (EHPO, PAF) or ``tvc_gb`` (base).

    Parameters
    ----------
    tvc_gb : float or array_like
        Physical TVC capacity. [GB]
    size_basis : {"compressed", "host"}
        What the log's sizes measure (:attr:`HitCurve.size_basis`).
    feature : {"base", "ehpo", "paf"}
        The feature, which decides what the cache holds.
    cf : float
        Data compressibility. [-]

    Returns
    -------
    numpy value
        Capacity in the log's size basis. [GB]
    """
    SIZE_BASIS.check("size_basis", size_basis)
    FEATURE.check("feature", feature)
    tvc = _TVC_GB.check("tvc_gb", tvc_gb)
    c = as_scalar("cf", CF.check("cf", cf))
    host_per_physical = float(cache_cf(c, feature))  # host MB held per physical MB of cache
    factor = host_per_physical if size_basis == "host" else host_per_physical / c
    return result(tvc * factor)


@declare(tvc_gb=_TVC_GB, feature=FEATURE, cf=CF.but(default=1.0), by=_BY)
def tvc_read_hit(curve: HitCurve, tvc_gb, *, feature: str = "paf", cf: float = 1.0, by: str = "bytes"):
    """The read-hit ratio of a physical TVC, from the curve: what the cache-day simulation takes.

    :func:`vtsmodel.tvc_day.simulate_tvc` and the planner count reads in MB (recalled MB =
    read MB x (1 - read_hit)), so the ratio by bytes is their input; ``by="count"`` gives
    the share of read mounts that hit.

    Parameters
    ----------
    curve : HitCurve
        From :func:`lru_hit_curve` or :func:`shards_hit_curve`.
    tvc_gb : float or array_like
        Physical TVC capacity (a Table 3 capacity, or any). [GB]
    feature : {"base", "ehpo", "paf"}
        What the cache holds (:func:`compared_capacity_gb`).
    cf : float
        Data compressibility. [-]
    by : {"bytes", "count"}
        Share of the bytes read, or of the read mounts.

    Returns
    -------
    numpy value
        Read-hit ratio (NaN when the log has no reads). [-]
    """
    if not isinstance(curve, HitCurve):
        raise ValueError(f"curve={curve!r} must be a HitCurve (lru_hit_curve, shards_hit_curve)"[:300])
    _BY.check("by", by)
    cap = compared_capacity_gb(tvc_gb, size_basis=curve.size_basis, feature=feature, cf=cf)
    return curve.read_byte_hit_ratio(cap) if by == "bytes" else curve.read_hit_ratio(cap)


@dataclass(frozen=True, eq=False)
class RecallWaits:
    """The recall queue at given cache capacities (one element per capacity).

    Attributes
    ----------
    recalls_per_hour : numpy.ndarray
        Recall arrivals used: the log's mean rate, or its busiest hour's count. [1/h]
    recall_drives : int
        Drives left for recalls: total minus copying (ibm-vts-b18-2000, Sec. 3.2.2). [count]
    volume_mb : numpy.ndarray
        Mean recalled volume, uncompressed (NaN: no recalls). [MB]
    service_s : numpy.ndarray
        Time one recall keeps a drive busy (:func:`vtsmodel.recall.recall_service_s`). [s]
    ready_s : numpy.ndarray
        A recall's time to ready on a free drive (:func:`vtsmodel.recall.recall_ready_s`). [s]
    utilisation : numpy.ndarray
        Offered load per recall drive; at 1 or above the queue grows without bound. [-]
    mean_wait_s : numpy.ndarray
        Mean wait for a drive (M/D/c, Cosmetatos, or M/G/c; inf: no steady state; 0: no
        recalls). [s]
    wait_s : numpy.ndarray
        Wait for a drive at ``percentile`` (:func:`vtsmodel.queueing.wait_percentile`). [s]
    response_s : numpy.ndarray
        Recall ready at ``percentile``: ``wait_s + ready_s`` (NaN: no recalls). [s]
    percentile : float
        The quantile of the waits. [-]
    """

    recalls_per_hour: np.ndarray
    recall_drives: int
    volume_mb: np.ndarray
    service_s: np.ndarray
    ready_s: np.ndarray
    utilisation: np.ndarray
    mean_wait_s: np.ndarray
    wait_s: np.ndarray
    response_s: np.ndarray
    percentile: float


#: Recall arrivals below this count as none. [1/h]
_NO_RECALLS_PER_HOUR = 1e-9


@declare(
    size_basis=SIZE_BASIS.but(default=None), cf=CF.but(default=1.0), total_drives=TOTAL_DRIVES,
    copy_drives=COPY_DRIVES, drive=RECALL_DRIVE, percentile=QUANTILE, service_cv=SERVICE_CV,
)  # fmt: skip
def recall_waits(
    hits: CapacityHits,
    *,
    size_basis: str,
    cf: float = 1.0,
    total_drives: int = 6,
    copy_drives: int = 2,
    drive: str = "3590B",
    percentile: float = 0.95,
    busiest_hour: bool = False,
    service_cv: float = 0.0,
) -> RecallWaits:
    """The recall queue's waits at each capacity: the recalls a cache size lets through, queued.

    Recalls arrive at random (Poisson) at ``recalls_per_hour`` (or, with ``busiest_hour``,
    the count of the busiest clock hour) and queue for the drives not copying
    (:func:`vtsmodel.recall.recall_drives`); each keeps a drive busy for
    :func:`vtsmodel.recall.recall_service_s` of the log's mean recalled volume at that
    capacity. The wait is M/D/c (``service_cv=0``, identical recalls: Cosmetatos) or M/G/c
    (Allen-Cunneen), its percentile :func:`vtsmodel.queueing.wait_percentile`; the recall
    is ready ``recall_ready_s`` after its drive starts (ibm-vts-b18-2000, Secs. 3.2.2, 3.4).

    Parameters
    ----------
    hits : CapacityHits
        From :meth:`HitCurve.at` or :func:`configuration_hits`.
    size_basis : {"compressed", "host"}
        What the log's sizes measure (:attr:`HitCurve.size_basis`): a compressed size
        times ``cf`` is the volume's host size.
    cf : float
        Data compressibility (the read at the drive moves ``volume / cf``). [-]
    total_drives : int
        3590 drives in the VTS (three to six, Sec. 2). [count]
    copy_drives : int
        Drives busy copying the cache to tape, fewer than ``total_drives``. [count]
    drive : str
        The recall drive (:func:`vtsmodel.recall.drive_preset`: "3590B", "3590E", or a
        catalog drive).
    percentile : float
        Quantile of the wait, in (0, 1). [-]
    busiest_hour : bool
        Use the busiest clock hour's recalls instead of the mean rate (the exact curve
        only: a sampled one keeps no times, NaN).
    service_cv : float
        Coefficient of variation of the service time (0: identical recalls). [-]

    Returns
    -------
    RecallWaits
    """
    from vtsmodel.queueing import utilisation, wait_mdc, wait_mgc, wait_percentile
    from vtsmodel.recall import drive_preset, recall_drives, recall_ready_s, recall_service_s

    if not isinstance(hits, CapacityHits):
        raise ValueError(f"hits={hits!r} must be a CapacityHits (HitCurve.at, configuration_hits)"[:300])
    SIZE_BASIS.check("size_basis", size_basis)
    c = as_scalar("cf", CF.check("cf", cf))
    pct = as_scalar("percentile", QUANTILE.check("percentile", percentile))
    cv = as_scalar("service_cv", SERVICE_CV.check("service_cv", service_cv))
    for name, inp, value in (
        ("total_drives", TOTAL_DRIVES, total_drives),
        ("copy_drives", COPY_DRIVES, copy_drives),
    ):
        as_scalar(name, inp.check(name, value))
    left = int(recall_drives(total_drives, copy_drives))
    drive_preset(drive)  # a drive without a preset is refused here, with recalls or without
    rate = np.asarray(hits.peak_hour_recalls if busiest_hour else hits.recalls_per_hour, dtype=float)
    volume = np.asarray(hits.mean_recall_mb, dtype=float) * (c if size_basis == "compressed" else 1.0)
    shape = rate.shape
    nan = np.full(shape, np.nan)
    service, ready = nan.copy(), nan.copy()
    some = np.isfinite(volume) & (volume > 0)
    if some.any():
        service[some] = recall_service_s(volume[some], cf=c, drive=drive)
        ready[some] = recall_ready_s(volume[some], cf=c, drive=drive)
    busy = np.isfinite(rate) & (rate > _NO_RECALLS_PER_HOUR) & some
    known = np.isfinite(rate)
    lam = np.where(busy, rate, 0.0) / _S_PER_H
    rho = np.where(known, 0.0, np.nan)  # no recalls: an idle queue
    mean_wait = np.where(known, 0.0, np.nan)
    wait = mean_wait.copy()
    response = np.full(shape, np.nan)  # no recalls: no response time
    if busy.any():
        rho[busy] = utilisation(lam[busy], service[busy], left)
        stable = busy & (rho < 1.0)
        mean_wait[busy & ~stable] = wait[busy & ~stable] = response[busy & ~stable] = np.inf
        if stable.any():
            s, lam_s = service[stable], lam[stable]
            mean_wait[stable] = wait_mdc(lam_s, s, left) if cv == 0.0 else wait_mgc(lam_s, s, left, cv)
            wait[stable] = wait_percentile(lam_s, s, left, pct, service_cv=cv)
            response[stable] = wait[stable] + ready[stable]
    return RecallWaits(
        recalls_per_hour=rate,
        recall_drives=left,
        volume_mb=np.where(some, volume, np.nan),
        service_s=service,
        ready_s=ready,
        utilisation=rho,
        mean_wait_s=mean_wait,
        wait_s=wait,
        response_s=response,
        percentile=pct,
    )


# --------------------------------------------------------------------------------------
# Other policies, through libCacheSim
# --------------------------------------------------------------------------------------
def _libcachesim():
    try:
        import libcachesim
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "simulate_policy needs libCacheSim's Python bindings: pip install 'vtsmodel[hits]' (or libcachesim)"
        ) from exc
    return libcachesim


#: Smallest cache libCacheSim is given: below 10 bytes its S3FIFO aborts the process (its
#: small queue, a tenth of the cache, is empty; libcachesim 0.3.5). A smaller capacity is
#: simulated at 10 bytes, which differs only for volumes of 1 to 9 bytes. [bytes]
_MIN_CACHE_BYTES = 10


@declare(capacity_gb=CAPACITY_GB, policy=POLICY, warmup_hours=WARMUP_HOURS)
def simulate_policy(
    log: MountLog,
    capacity_gb,
    *,
    policy: str = "LRU",
    warmup_hours: float = 0.0,
    recall_specific_writes: bool = True,
) -> CapacityHits:
    """Hits at each capacity for a replacement policy, one libCacheSim run per capacity.

    Each mount is a request for its volume (its size in bytes); a mount whose size
    differs from the cached copy's removes that copy first and inserts the new one
    (libCacheSim keeps an object's first size on a hit), so a rewritten volume is the
    most recent at its new size, as in :func:`lru_hit_curve`. libCacheSim lets a volume
    larger than the cache bypass it; the module notes say where that differs. Costs about
    1.5 microseconds per mount per capacity (a Python call per mount). A capacity below
    10 bytes is simulated at 10 bytes (:data:`_MIN_CACHE_BYTES`: libCacheSim's S3FIFO aborts
    the process below).

    Parameters
    ----------
    log : MountLog
        The log.
    capacity_gb : float or array_like
        Capacities, in the log's size basis; at most :data:`MAX_CAPACITIES` (each is one
        simulation of the whole log). [GB]
    policy : str
        One of :data:`POLICIES`.
    warmup_hours : float
        Mounts in the first ``warmup_hours`` fill the cache but are not counted. [h]
    recall_specific_writes : bool
        Count specific-mount writes that miss as recalls.

    Returns
    -------
    CapacityHits
        One element per capacity (flattened); NaN where there is nothing to count (a
        warm-up that leaves no reads counted, say: see :class:`CapacityHits`).
    """
    POLICY.check("policy", policy)
    if not isinstance(log, MountLog):
        raise ValueError(f"log must be a MountLog (read it with read_mount_log), not {type(log).__name__}")
    cap = np.atleast_1d(_capacities(capacity_gb)).ravel()
    warm_s = _warmup(warmup_hours)
    lcs = _libcachesim()
    cls = getattr(lcs, policy)
    n = len(log)
    ids = (log.volume + 1).tolist()
    sizes = _bytes(log.size_mb).tolist()
    clock = np.floor(log.time_s).astype(np.int64).tolist()
    t0 = float(log.time_s[0]) if n else 0.0
    counted = (log.time_s >= t0 + warm_s) if n else np.zeros(0, dtype=bool)
    kinds = np.where(counted, log.access, -1).tolist()
    start = t0 + warm_s
    hour = (
        np.floor((log.time_s - start) / _S_PER_H).astype(np.int64) if n else np.zeros(0, dtype=np.int64)
    ).tolist()
    hours = max(0.0, (float(log.time_s[-1]) - start) / _S_PER_H) if n else 0.0
    out = {f: np.full(cap.size, np.nan) for f in CapacityHits.__dataclass_fields__}
    out["capacity_gb"] = cap
    request = lcs.Request
    for j, c in enumerate(cap):
        cache = cls(cache_size=max(_MIN_CACHE_BYTES, int(round(c * _B_PER_GB))))
        reads = read_hits = read_b = read_hit_b = 0
        sw = sw_hits = sw_b = sw_hit_b = 0
        per_hour: dict[int, int] = {}
        for i in range(n):
            req = request(obj_size=sizes[i], obj_id=ids[i], clock_time=clock[i])
            obj = cache.find(req, False)
            hit = obj is not None
            if hit and obj.obj_size != sizes[i]:
                cache.remove(ids[i])
            cache.get(req)
            k = kinds[i]
            if k == READ:
                reads += 1
                read_b += sizes[i]
                read_hits += hit
                read_hit_b += sizes[i] * hit
            elif k == SPECIFIC_WRITE:
                sw += 1
                sw_b += sizes[i]
                sw_hits += hit
                sw_hit_b += sizes[i] * hit
            if not hit and (k == READ or (k == SPECIFIC_WRITE and recall_specific_writes)):
                per_hour[hour[i]] = per_hour.get(hour[i], 0) + 1
        misses = (reads - read_hits) + (sw - sw_hits if recall_specific_writes else 0)
        miss_b = (read_b - read_hit_b) + (sw_b - sw_hit_b if recall_specific_writes else 0)
        out["read_hit_ratio"][j] = read_hits / reads if reads else np.nan
        out["read_byte_hit_ratio"][j] = read_hit_b / read_b if read_b else np.nan
        out["specific_write_hit_ratio"][j] = sw_hits / sw if sw else np.nan
        out["recalls_per_hour"][j] = misses / hours if hours > 0 else np.nan
        out["recall_mb_per_hour"][j] = miss_b / _B_PER_MB / hours if hours > 0 else np.nan
        out["mean_recall_mb"][j] = miss_b / _B_PER_MB / misses if misses else np.nan
        out["peak_hour_recalls"][j] = max(per_hour.values()) if per_hour else 0.0
    return CapacityHits(**out)
