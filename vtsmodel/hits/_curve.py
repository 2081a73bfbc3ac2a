"""The results of a read-hit pass: the curve, hits at given capacities, and their helpers (private)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._validation import as_scalar, result
from vtsmodel.mountlog import MountLog, iter_mount_log
from vtsmodel.quantities import BIG_GB, WARMUP_HOURS

_B_PER_MB = 1e6
_B_PER_GB = 1e9
_S_PER_H = 3600.0

#: Most capacities one call evaluates (:meth:`HitCurve.at`, :func:`simulate_policy`): a
#: curve drawn at more points shows nothing more, and each capacity costs a pass over the
#: recalls (``at``) or a whole simulation of the log (``simulate_policy``, about 1.5
#: microseconds a mount: 1,000 capacities of a million-mount log take 25 minutes). [count]
MAX_CAPACITIES = 1000

AUTO_CAPACITIES = Input(
    "capacities", "-", 20, lo=2, hi=MAX_CAPACITIES, integer=True,
    help="Capacities spaced evenly in log scale over the log's working set.",
)  # fmt: skip
CAPACITY_GB = Input(
    "cache capacity (the log's size basis)", "GB", 864.0, lo=0.0, hi=BIG_GB,
    help="Capacity of the cache the volumes are compared with, in the log's size basis (module notes).",
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
    notes : tuple of str
        How the log was read (defaults taken: every request a read, one size for every
        object; columns left out), for a result to carry.
    smallest_object_gb : float
        Smallest object size above zero in the log (NaN: none). [GB]
    working_set_gb : float
        The objects' sizes as they last were, added up: a cache this large holds every
        object (estimated from the sample for a sampled curve). [GB]
    sampled_volumes : int
        Volumes in the sample at the end (SHARDS); the exact curve's distinct volumes. [count]
    expected_error : float
        The error a sampled curve of its sample size had, measured
        (:data:`vtsmodel.hits.EXPECTED_ERROR`: the largest over a curve, median over the
        benchmark's logs); 0 for the exact curve. [-]
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
    notes: tuple = ()
    smallest_object_gb: float = float("nan")
    working_set_gb: float = float("nan")
    sampled_volumes: int = 0
    expected_error: float = 0.0
    _errors: object = None  # sampled only: _Replicates of the read-hit ratio

    @property
    def top_gb(self) -> float:
        """The capacity above which the curve rises no more: its last step (0: no hit). [GB]"""
        steps = [s.at_gb[-1] for s in (self._read, self._specific) if s.at_gb.size]
        return float(max(steps)) if steps else 0.0

    def read_hit_error(self, capacity_gb):
        """Standard error of the read-hit ratio at ``capacity_gb``: 0 for the exact curve. [-]

        For a sampled curve, the random-groups estimate (Wolter, *Introduction to Variance
        Estimation*, 2nd ed. 2007, Ch. 2): beside the curve, 16 independent SHARDS samples
        run on 16 disjoint groups of volumes (by their hash), each with a 16th of the
        sample; the spread of their ratios over sqrt(16), times sqrt(1 - R) (none when
        every volume is sampled). Each replicate scales its own reuse distances, so the
        estimate includes that error as well as which volumes were drawn;
        ``benchmarks/bench_shards_error.py`` measures how often the exact ratio lies within
        two of it.
        """
        cap = _capacity(capacity_gb)
        if self._errors is None:
            return result(np.zeros(np.shape(cap)))
        return result(self._errors.at(np.asarray(cap, dtype=float)))

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
def _blocks(log, chunk_lines, notes: list):
    """(time_s, volume codes or None, size_mb, access, size basis, serials or None) blocks.

    ``log`` is a MountLog, a :class:`vtsmodel.logs.LogFile` or a source for one; ``notes``
    gets the log's notes when the last block has been read.
    """
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
        notes.extend(log.notes)
        return
    c = None
    for c in iter_mount_log(log, chunk_lines=chunk_lines):
        yield c.time_s, None, c.size_mb, c.access, c.size_basis, c.volume
    if c is not None and c.info is not None:
        notes.extend(c.info.notes())


class _Tally:
    """What a pass counts of the blocks it reads: the first and last time, mounts, sizes."""

    def __init__(self, warm_s: float):
        self.warm_s = warm_s
        self.t_first = self.t_last = None
        self.mounts = self.largest = 0
        self.smallest = float("inf")  # above zero [bytes]
        self.basis = "compressed"

    def add(self, time_s: np.ndarray, size_b: np.ndarray) -> np.ndarray:
        """Count a non-empty block; return which of its mounts are counted (after the warm-up)."""
        if self.t_first is None:
            self.t_first = float(time_s[0])
        self.t_last = float(time_s[-1])
        self.mounts += time_s.size
        self.largest = max(self.largest, int(size_b.max()))
        pos = size_b[size_b > 0]
        if pos.size:
            self.smallest = min(self.smallest, float(pos.min()))
        return time_s >= self.t_first + self.warm_s

    @property
    def start(self) -> float:
        """The start of the counted log. [s]"""
        return (self.t_first or 0.0) + self.warm_s

    @property
    def hours(self) -> float:
        """Time the counted mounts span. [h]"""
        return max(0.0, ((self.t_last or 0.0) - self.start) / _S_PER_H) if self.mounts else 0.0

    def sizes(self) -> dict:
        """The HitCurve fields of the sizes seen. [GB]"""
        small = self.smallest / _B_PER_GB if np.isfinite(self.smallest) else float("nan")
        return {"largest_volume_gb": self.largest / _B_PER_GB, "smallest_object_gb": small}


#: Replicate samples a sampled curve's standard error is estimated from (a power of 2). [count]
GROUPS = 16


@dataclass(frozen=True, eq=False)
class _Replicates:
    """The read-hit curves of independent replicate samples: the random-groups standard error."""

    curves: tuple  # _Steps of each replicate's counted reads (without SHARDS_adj)
    rate: float  # the main sample's final rate

    def at(self, cap_gb: np.ndarray) -> np.ndarray:
        ratios = []
        for steps in self.curves:
            if steps.total > 0:
                hits, _ = steps.cumulative(np.asarray(cap_gb, dtype=float))
                ratios.append(hits / steps.total)
        if len(ratios) < 2:
            return np.full(np.shape(cap_gb), np.nan)
        r = np.asarray(ratios)
        se = r.std(axis=0, ddof=1) / np.sqrt(r.shape[0]) * np.sqrt(max(0.0, 1.0 - self.rate))
        return se.reshape(np.shape(cap_gb))


@declare(n=AUTO_CAPACITIES)
def auto_capacities(curve: HitCurve, n: int = 20) -> np.ndarray:
    """``n`` capacities spaced evenly in log scale over the log's working set. [GB]

    From the smallest object (a cache smaller holds nothing) to the larger of the working
    set (every object at its last size) and the curve's last step (where it stops rising):
    the whole curve, whatever the objects' sizes.

    Parameters
    ----------
    curve : HitCurve
        From :func:`lru_hit_curve` or :func:`shards_hit_curve`.
    n : int
        Capacities, 2 to :data:`MAX_CAPACITIES`. [count]

    Returns
    -------
    numpy.ndarray
        Ascending capacities, in the log's size basis; a single 0 when the log holds no
        object larger than 0. [GB]
    """
    if not isinstance(curve, HitCurve):
        raise ValueError(f"curve={curve!r} must be a HitCurve (lru_hit_curve, shards_hit_curve)"[:300])
    k = int(as_scalar("n", AUTO_CAPACITIES.check("n", n)))
    lo = curve.smallest_object_gb
    hi = max(curve.working_set_gb if np.isfinite(curve.working_set_gb) else 0.0, curve.top_gb)
    if not np.isfinite(lo) or hi <= 0:
        return np.zeros(1)
    return np.geomspace(lo, max(hi, lo), k) if hi > lo else np.full(1, lo)


def _bytes(size_mb: np.ndarray) -> np.ndarray:
    return np.rint(np.asarray(size_mb, dtype=np.float64) * _B_PER_MB).astype(np.int64)


def _pow2(n: int) -> int:
    return 1 << max(6, int(n - 1).bit_length())


def _warmup(warmup_hours) -> float:
    return as_scalar("warmup_hours", WARMUP_HOURS.check("warmup_hours", warmup_hours)) * _S_PER_H
