"""Other replacement policies, through libCacheSim (private: :func:`vtsmodel.hits.simulate_policy`)."""

from __future__ import annotations

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel.hits._curve import (
    _B_PER_GB,
    _B_PER_MB,
    _S_PER_H,
    CAPACITY_GB,
    CapacityHits,
    _bytes,
    _capacities,
    _warmup,
)
from vtsmodel.mountlog import READ, SPECIFIC_WRITE, MountLog
from vtsmodel.quantities import WARMUP_HOURS

#: Replacement policies :func:`simulate_policy` runs through libCacheSim (class names in
#: ``libcachesim``).
POLICIES = ("LRU", "FIFO", "LFU", "ARC", "Clock", "TwoQ", "LIRS", "S3FIFO", "Sieve", "GDSF")

POLICY = Input(
    "replacement policy", "", "LRU", choices=POLICIES, source="libCacheSim (PyPI libcachesim)",
    help="Which volumes the cache displaces first.",
)  # fmt: skip


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
