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
runs the same pass on the sampled mounts. A sampled volume's threshold is its own size
plus the other sampled volumes' bytes divided by the sampling rate R (the volume itself is
in the sample; scaling its own size too would push every short re-access R times too far).
The fixed-size variant keeps at most ``max_volumes`` sampled volumes: when one more
arrives, the threshold drops to the largest sampled hash and that volume leaves. Hits are
counted in logarithmic bins of capacity from 1 byte (capacities below 1 MB too), each
mount weighted 1/R at its time, and a bin's hits count from the smallest threshold seen in
it, so memory is fixed whatever the log's length. The ratio estimate is sampled hits over
sampled reads (SHARDS_adj on request: measured, it lowered the median error but raised the
largest at the default sample size).

How far to trust it: :attr:`HitCurve.expected_error` is the error a sample of that size
had on the benchmark's logs (:data:`EXPECTED_ERROR`), and
:meth:`HitCurve.read_hit_error` the standard error at each capacity from 16 independent
replicate samples (random groups). The replicates catch most of the spread but not a
bias common to them: measured, the exact ratio lay within two standard errors at 61 to
85 % of the capacities (more with larger samples; BENCHMARKS.md). ``vtsmodel hits`` and lesson 08 show
both.
"""

from vtsmodel.hits._curve import (
    AUTO_CAPACITIES,
    CAPACITY_GB,
    MAX_CAPACITIES,
    CapacityHits,
    ConfigurationHits,
    HitCurve,
    auto_capacities,
)
from vtsmodel.hits._exact import lru_hit_curve
from vtsmodel.hits._policies import POLICIES, POLICY, simulate_policy
from vtsmodel.hits._recalls import RecallWaits, recall_waits
from vtsmodel.hits._shards import EXPECTED_ERROR, MAX_SHARDS_VOLUMES, shards_hit_curve, volume_hashes
from vtsmodel.hits._table3 import compared_capacity_gb, configuration_hits, tvc_read_hit

__all__ = [
    "AUTO_CAPACITIES",
    "CAPACITY_GB",
    "EXPECTED_ERROR",
    "MAX_CAPACITIES",
    "MAX_SHARDS_VOLUMES",
    "POLICIES",
    "POLICY",
    "CapacityHits",
    "ConfigurationHits",
    "HitCurve",
    "RecallWaits",
    "auto_capacities",
    "compared_capacity_gb",
    "configuration_hits",
    "lru_hit_curve",
    "recall_waits",
    "shards_hit_curve",
    "simulate_policy",
    "tvc_read_hit",
    "volume_hashes",
]
