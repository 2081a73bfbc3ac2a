"""Replay requests through a cache and a tape library: each request's response time.

The requests come in log order and time. A cache in front (LRU by default, any policy of
:func:`vtsmodel.hits.simulate_policy`, or none) serves its hits from disk; the rest need a
cartridge in a drive. A request names its cartridge, or volumes are stacked on cartridges in
the order they first appear (volumes per cartridge = the log's share of a cartridge x its
capacity / volume size; the share 1 by default: the log's volumes fill their cartridges). A
request's own drive time is the drive's average locate plus its size at the drive's rate
(``service="drive"``), or the duration the log gives (``"log"``: replayed as is;
``"resample"``: drawn at random, with a seed, from the log's durations). What the library
does with them (:mod:`vtsmodel.replay._kernel`): robots move cartridges, drives load, serve
and unload them, a cartridge stays mounted for the dismount delay, requests for a mounted
cartridge are served in the same mount, batches wait for their size or their oldest's wait.

Response time = wait + own service, where a request's own service is its locate and read
(plus the robot move and load when its arrival started the mount); the wait is everything
else (queueing, robot waits, other cartridges' unloads). Percentiles are exact from the
per-request arrays (in memory) or from histograms 1.2% wide (streamed).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.mountlog import READ, SCRATCH_WRITE, SPECIFIC_WRITE, MountLog
from vtsmodel.quantities import BIG_GB, BIG_MB, SEED, SMALL
from vtsmodel.replay import _engine
from vtsmodel.replay.library import ReplayLibrary
from vtsmodel.replay.result import Replay

__all__ = ["SERVICES", "PreparedRequests", "Replay", "prepare_log", "prepare_requests", "replay_chunks",
           "replay_log", "replay_prepared", "replay_requests"]  # fmt: skip

#: Where a request's own drive time comes from (see the module docstring).
SERVICES = ("drive", "log", "resample")

SERVICE = Input(
    "service from", "", "drive",
    choices=(("the drive's timings and rate", "drive"), ("the log's durations", "log"),
             ("the log's durations, resampled", "resample")),
    help="Where a request's time on the drive comes from.",
)  # fmt: skip
CACHE_GB = Input(
    "cache", "GB", None, lo=0.0, hi=BIG_GB, optional=True,
    help="Disk cache in front of the library (empty: none, every request goes to tape).",
)  # fmt: skip
VOLUME_MB = Input(
    "volume size", "MB", None, lo=SMALL, hi=BIG_MB,
    help="Volume size that sets how many volumes a cartridge holds (default: the log's mean).",
)  # fmt: skip

CARTRIDGE_SHARE = Input(
    "log's share of a cartridge", "-", 1.0, lo=0.0, hi=1.0, lo_open=True,
    source="modelling choice (1: the log's volumes fill their cartridges, stacked until full as ibm-vts-b18-2000, "
    "Sec. 2 says)",
    help="Share of each cartridge's capacity that holds the log's volumes, the rest holding data the log does not "
    "read: 1, the log's volumes fill their cartridges in order of first use; lower, they spread over more cartridges.",
)  # fmt: skip

_B_PER_MB = 1e6
#: Request slots a streamed replay starts with (grown as requests wait). [count]
RING = 1 << 16


# --------------------------------------------------------------------------------------
# Preparing requests: cache, cartridges, service times
# --------------------------------------------------------------------------------------
class _Cache:
    """The cache in front, kept across chunks: which requests it serves."""

    def __init__(self, capacity_gb, policy: str):
        self.capacity_b = int(round(capacity_gb * 1e9))
        self.policy = policy
        self.n = 0
        self.st = np.array([-1, -1, 0], dtype=np.int64)
        if policy != "LRU":
            from vtsmodel.hits._policies import _libcachesim

            self.cache = getattr(_libcachesim(), policy)(
                cache_size=max(10, self.capacity_b)
            )  # as simulate_policy
            self.req = _libcachesim().Request

    def _grow(self, n):
        if n <= self.n:
            return
        n = max(n, 2 * self.n, 1024)
        grow = _engine._grow
        if self.n == 0:
            self.prev = np.full(n, -1, dtype=np.int64)
            self.nxt = np.full(n, -1, dtype=np.int64)
            self.size = np.zeros(n, dtype=np.int64)
            self.inc = np.zeros(n, dtype=np.int8)
        else:
            self.prev, self.nxt = grow(self.prev, n, -1), grow(self.nxt, n, -1)
            self.size, self.inc = grow(self.size, n, 0), grow(self.inc, n, 0)
        self.n = n

    def hits(self, obj, size_mb, counted) -> np.ndarray:
        size_b = np.round(size_mb * _B_PER_MB).astype(np.int64)
        out = np.zeros(obj.size, dtype=np.bool_)
        if self.policy == "LRU":
            self._grow(int(obj.max()) + 1 if obj.size else 0)
            _engine.kernel().lru_hits(obj, size_b, counted, out, self.prev, self.nxt, self.size, self.inc,
                                      self.st, self.capacity_b)  # fmt: skip
            return out
        cache, req = self.cache, self.req
        for i, (o, s) in enumerate(zip((obj + 1).tolist(), size_b.tolist(), strict=True)):
            r = req(obj_size=s, obj_id=o)
            found = cache.find(r, False)
            if found is not None and found.obj_size != s:
                cache.remove(o)
            cache.get(r)
            out[i] = found is not None and counted[i]
        return out


def _float_array(name: str, value, n: int | None, *, lo=0.0) -> np.ndarray:
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers") from None
    if a.ndim != 1 or (n is not None and a.size != n):
        raise ValueError(f"{name} must be a 1-d array of {n} numbers, not shape {a.shape}")
    bad = ~np.isfinite(a) | (a < lo)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"{name}[{k}]={a[k]!r} is not valid; valid range [{lo:g}, ∞), finite")
    return a


def _code_array(name: str, value, n: int) -> np.ndarray:
    a = np.asarray(value)
    if a.ndim != 1 or a.size != n:
        raise ValueError(f"{name} must be a 1-d array of {n} codes, not shape {a.shape}")
    if a.size and (a.dtype.kind not in "iu" or a.min() < 0):
        raise ValueError(f"{name} must hold whole numbers >= 0 (codes), not {a.dtype} values")
    return a.astype(np.int64, copy=False)


@dataclass
class _Prep:
    """What every chunk of one replay shares: the cache in front and the stacking of volumes."""

    cartridge_gb: float
    cache: _Cache | None
    per_cart: int
    recall_specific_writes: bool
    stacked: bool = False  # volumes stacked here (the log names no cartridges)
    share: float = 1.0
    volume_mb: float | None = None  # the volume size stacked by

    @property
    def volumes_per_cartridge(self) -> int | None:
        return self.per_cart if self.stacked else None

    @property
    def volumes(self) -> int:
        return self.next_slot

    first: dict | None = None  # volume code -> cartridge (stacking), across chunks
    next_slot: int = 0
    keep_codes: bool = True  # False for one chunk (in memory): no later chunk asks

    def cartridges(self, obj: np.ndarray) -> np.ndarray:
        """Stack volumes on cartridges in order of first appearance (codes kept across chunks)."""
        uniq, first_idx, inv = np.unique(obj, return_index=True, return_inverse=True)
        order = np.argsort(first_idx, kind="stable")
        known = self.first
        slot = np.empty(uniq.size, dtype=np.int64)
        if not known:  # the first chunk: slots in order of first use, at once
            slot[order] = self.next_slot + np.arange(uniq.size)
            self.next_slot += uniq.size
            if self.keep_codes:
                known.update(zip(uniq.tolist(), slot.tolist(), strict=True))
            return slot[inv] // self.per_cart
        for j in order.tolist():
            o = int(uniq[j])
            s = known.get(o)
            if s is None:
                s = known[o] = self.next_slot
                self.next_slot += 1
            slot[j] = s
        return slot[inv] // self.per_cart

    def to_tape(self, obj, size_mb, access):
        """Which requests go to tape: every one without a cache, else the counted misses."""
        if access is None:
            counted = np.ones(obj.size, dtype=np.bool_)
        else:
            counted = (access == READ) | ((access == SPECIFIC_WRITE) & self.recall_specific_writes)
        if self.cache is None:
            return np.ones(obj.size, dtype=np.bool_), 0
        hit = self.cache.hits(obj, size_mb if size_mb is not None else np.zeros(obj.size), counted)
        tape = counted & ~hit
        if access is not None:
            tape &= access != SCRATCH_WRITE
        return tape, int(hit.sum())


@dataclass
class _Service:
    """Each request's own drive time: the drive's locate and read, the log's duration, or a draw."""

    library: ReplayLibrary
    service: str
    sample: np.ndarray | None
    rng: np.random.Generator

    def own(self, size_mb, duration_s, m: int) -> np.ndarray:
        lib = self.library
        if self.service == "drive":
            read = 0.0 if size_mb is None else size_mb / lib.rate_mb_s
            return lib.locate_s + np.broadcast_to(read, (m,)).astype(float)
        if self.service == "log":
            return np.asarray(duration_s, dtype=float)
        return self.rng.choice(self.sample, m) if m else np.zeros(0)


def _library(library) -> ReplayLibrary:
    if not isinstance(library, ReplayLibrary):
        raise ValueError(
            f"library must be a ReplayLibrary (from replay_library), not {type(library).__name__}"
        )
    return library


def _service(library, service, duration_s, service_sample, seed, size_mb, notes) -> _Service:
    SERVICE.check("service", service)
    seed = int(as_scalar("seed", SEED.check("seed", seed)))
    if service_sample is not None:
        service_sample = _float_array("service_sample", service_sample, None)
        if service_sample.size == 0:
            raise ValueError("service_sample is empty: give at least one duration [s]")
    if service == "log" and duration_s is None:
        raise ConstraintError("duration_s=None: service='log' replays the log's durations; the log has none")
    sample = None
    if service == "resample":
        sample = service_sample if service_sample is not None else duration_s
        if sample is None:
            raise ConstraintError(
                "service_sample=None: service='resample' draws from the log's durations; give them"
            )
        if sample.size == 0:
            raise ConstraintError("duration_s is empty: service='resample' needs at least one duration")
    if service == "drive" and size_mb is None:
        notes.append("the log gives no sizes: each request takes the drive's locate time only")
    return _Service(library, service, sample, np.random.default_rng(seed))


def _prep(
    library,
    *,
    cache_gb,
    cache_policy,
    size_mb,
    volume_mb,
    cartridge,
    recall_specific_writes,
    notes,
    share=1.0,
) -> _Prep:
    _library(library)
    from vtsmodel.hits import POLICY as CACHE_POLICY

    CACHE_POLICY.check("cache_policy", cache_policy)
    share = float(as_scalar("cartridge_share", CARTRIDGE_SHARE.check("cartridge_share", share)))
    cache = None
    if cache_gb is not None:
        as_scalar("cache_gb", CACHE_GB.check("cache_gb", cache_gb))
        cache = _Cache(float(cache_gb), cache_policy)
    per_cart, vol = 1, None
    if cartridge is None:
        if volume_mb is not None:
            vol = float(as_scalar("volume_mb", VOLUME_MB.check("volume_mb", volume_mb)))
        elif size_mb is not None and np.size(size_mb) and float(np.mean(size_mb)) > 0:
            vol = float(np.mean(size_mb))
        else:
            vol = None
        if vol is None:
            notes.append("no cartridges and no sizes: each volume on a cartridge of its own")
        else:
            per_cart = max(
                1, int(min(library.cartridge_gb * 1e3 * share // vol, 2.0**62))
            )  # no overflow: tiny volumes
            what = "" if share == 1.0 else f", the log's volumes taking {share:.3g} of each"
            notes.append(
                f"volumes stacked on cartridges in order of first use: {per_cart:,} of {vol:,.0f} MB on a "
                f"{library.cartridge_gb:,.0f} GB cartridge{what}"
            )
    return _Prep(
        cartridge_gb=library.cartridge_gb, cache=cache, per_cart=per_cart,
        recall_specific_writes=recall_specific_writes, first={}, stacked=cartridge is None, share=share,
        volume_mb=vol if cartridge is None else None,
    )  # fmt: skip


def _count(c: np.ndarray) -> int:
    """Distinct cartridge codes in ``c`` (codes are small whole numbers). [count]"""
    if not c.size:
        return 0
    seen = np.zeros(int(c.max()) + 1, dtype=np.bool_)
    seen[c] = True
    return int(np.count_nonzero(seen))


def _few_cartridges(cartridges: int, drives: int, prepared: PreparedRequests | _Prep) -> str | None:
    """The note when the tape requests use fewer cartridges than the library has drives, or None.

    Where the volumes were stacked several a cartridge, it says which ``cartridge_share``
    spreads them over as many cartridges as drives: ``volumes // drives`` volumes a cartridge
    or fewer (the share rounded down, so that it does).
    """
    d = drives
    if cartridges == 0 or cartridges >= d:
        return None
    many = cartridges > 1
    said = (f"the tape requests use {cartridges:,} cartridge{'s' if many else ''}, fewer than the {d} drives: at "
            f"most {cartridges:,} drive{'s serve' if many else ' serves'} at once, and a request for a cartridge in "
            "use waits for it")  # fmt: skip
    per_cart, volumes, vol = prepared.volumes_per_cartridge, prepared.volumes, prepared.volume_mb
    if per_cart is None or per_cart <= 1 or vol is None:
        return said
    k = volumes // d
    if k < 1:
        return said + f"; the log's {volumes:,} volumes are fewer than the drives"
    share = k * vol / (prepared.cartridge_gb * 1e3)
    if not share > 0.0:  # volumes too small for a share to say
        return said
    digits = 10.0 ** (math.floor(math.log10(share)) - 2)
    share = math.floor(share / digits) * digits  # three digits, rounded down
    return said + (f"; {per_cart:,} volumes were stacked a cartridge: if the log's volumes share their cartridges "
                   f"with data it does not read, lower the log's share of a cartridge (cartridge_share) to "
                   f"{share:.3g} or less, and its {volumes:,} volumes take {d} cartridges or more")  # fmt: skip


def _engine_for(library: ReplayLibrary, t0: float, cap: int, keep: bool, cartridges: int) -> _engine.Engine:
    return _engine.Engine(
        drives=library.drives, robots=library.robots, move_s=library.robot_move_s, load_s=library.load_s,
        unload_s=library.rewind_unload_s, delay_s=library.dismount_after_s, policy=library.policy,
        batch_k=library.batch_requests, batch_wait_s=library.batch_wait_s if library.batch_requests > 1 else 0.0,
        t0=t0, cap=max(cap, 1), cartridges=cartridges, keep_requests=keep,
    )  # fmt: skip


def _result(eng: _engine.Engine, library, requests, hits, tape_n, hold, per_request, notes, cartridges,
            per_cart) -> Replay:  # fmt: skip
    eng.finish()
    k = eng.k
    end = max(eng.end, eng.t0)
    nh = int((end - eng.t0) // 3600.0) + 1
    hours = eng.hours[:, :nh].copy()
    if eng.hours.shape[1] > nh:  # whatever lies beyond (never, but kept whole)
        hours[:, -1] += eng.hours[:, nh:].sum(axis=1)
    hourly = {
        "mounts": hours[0], "busy_s": hours[1], "held_s": hours[2], "queue": hours[3] / 3600.0,
        "arrivals": hours[4],
    }  # fmt: skip
    return Replay(
        library=library, requests=requests, cache_hits=hits, mounts=int(eng.ist[k.I_MOUNTS]),
        moves=int(eng.ist[k.I_MOVES]), drive_busy_s=float(eng.fst[k.F_BUSY]), drive_held_s=float(eng.fst[k.F_HELD]),
        robot_busy_s=float(eng.fst[k.F_ROBOT]), start_s=eng.t0, end_s=end, hourly=hourly,
        max_waiting=int(eng.ist[k.I_MAXWAITING]), hist_response=eng.hist_resp, hist_wait=eng.hist_wait,
        tape_requests=tape_n, hold_sum_s=hold[0], hold_sq_s2=hold[1],
        arrival_span_s=eng.last_arrival - eng.t0, notes=tuple(notes), cartridges=cartridges,
        volumes_per_cartridge=per_cart, **per_request,
    )  # fmt: skip


@declare(cache_gb=CACHE_GB, service=SERVICE, volume_mb=VOLUME_MB, seed=SEED, cartridge_share=CARTRIDGE_SHARE)
def replay_requests(
    time_s,
    obj=None,
    *,
    library: ReplayLibrary,
    cartridge=None,
    size_mb=None,
    duration_s=None,
    access=None,
    cache_gb=None,
    cache_policy: str = "LRU",
    service: str = "drive",
    service_sample=None,
    volume_mb=None,
    seed=0,
    recall_specific_writes: bool = True,
    cartridge_share=1.0,
) -> Replay:
    """Replay requests given as arrays through a cache and a tape library (in memory).

    Parameters
    ----------
    time_s : array_like
        Arrival of each request, non-decreasing. [s]
    obj : array_like of int, optional
        Object (volume or file) code of each request; default: each request its own object.
    library : ReplayLibrary
        From :func:`replay_library`.
    cartridge : array_like of int, optional
        Cartridge code of each request; default: volumes stacked by first use.
    size_mb : array_like, optional
        Data each request reads, as stored. [MB]
    duration_s : array_like, optional
        The log's own service time of each request (``service="log"`` or ``"resample"``). [s]
    access : array_like of int, optional
        Access codes (:data:`vtsmodel.mountlog.ACCESS_TYPES`); with a cache, scratch writes
        and hits stay on disk. Default: all reads.
    cache_gb : float, optional
        Cache capacity (as stored); ``None``: no cache. [GB]
    cache_policy : str
        ``"LRU"`` (built in) or another policy of :data:`vtsmodel.hits.POLICIES` (libCacheSim).
    service : str
        ``"drive"``, ``"log"`` or ``"resample"`` (:data:`SERVICES`).
    service_sample : array_like, optional
        Durations to resample from (default: ``duration_s``). [s]
    volume_mb : float, optional
        Volume size for stacking (default: the mean of ``size_mb``). [MB]
    seed : int
        Seed of the resampling.
    recall_specific_writes : bool
        With a cache, specific-mount writes that miss go to tape too.
    cartridge_share : float
        Share of each cartridge's capacity that holds the log's volumes (the rest holds data the
        log does not read), for stacking: volumes per cartridge = share x capacity / volume size.
        1 (default): the log's volumes fill their cartridges in order of first use, "stacked ...
        until the tape is full" (ibm-vts-b18-2000, Sec. 2); a small log then fits on a few
        cartridges, and :attr:`Replay.notes` says so when they are fewer than the drives. [-]

    Returns
    -------
    Replay
    """
    prepared = prepare_requests(
        time_s, obj, library=library, cartridge=cartridge, size_mb=size_mb, duration_s=duration_s, access=access,
        cache_gb=cache_gb, cache_policy=cache_policy, volume_mb=volume_mb,
        recall_specific_writes=recall_specific_writes, cartridge_share=cartridge_share,
    )  # fmt: skip
    return replay_prepared(prepared, library, service=service, service_sample=service_sample, seed=seed)


@dataclass(frozen=True, eq=False)
class PreparedRequests:
    """A log's requests made ready for a library (:func:`prepare_requests`): what goes to tape, on which cartridge.

    What depends on the cache and the cartridges only, kept so that the same log replays
    through libraries of other drive counts, robots, delays or policies without the cache
    pass and the stacking again (:func:`replay_prepared`).

    Attributes
    ----------
    requests, cache_hits : int
        Requests in the log; those served from the cache. [count]
    tape : numpy.ndarray
        Indices into the log of the requests that go to tape.
    time_s : numpy.ndarray
        Their arrivals. [s]
    cartridge : numpy.ndarray
        Their cartridge codes.
    size_mb, duration_s : numpy.ndarray or None
        Their sizes [MB] and the log's durations [s], where given.
    start_s : float
        The log's first request. [s]
    cartridge_gb : float or None
        The cartridge capacity volumes were stacked by (None: the log named its cartridges). [GB]
    notes : tuple of str
    cartridges : int
        Distinct cartridges the tape requests use. [count]
    volumes_per_cartridge : int or None
        Volumes stacked on a cartridge (None: the log named its cartridges). [count]
    volumes : int
        The log's volumes stacked (0: the log named its cartridges). [count]
    cartridge_share : float
        The log's share of a cartridge the volumes were stacked by. [-]
    volume_mb : float or None
        The volume size the volumes were stacked by (None: not stacked by size). [MB]
    """

    requests: int
    cache_hits: int
    tape: np.ndarray
    time_s: np.ndarray
    cartridge: np.ndarray
    size_mb: np.ndarray | None
    duration_s: np.ndarray | None
    start_s: float
    cartridge_gb: float | None
    notes: tuple[str, ...] = ()
    cartridges: int = 0
    volumes_per_cartridge: int | None = None
    volumes: int = 0
    cartridge_share: float = 1.0
    volume_mb: float | None = None


@declare(cache_gb=CACHE_GB, volume_mb=VOLUME_MB, cartridge_share=CARTRIDGE_SHARE)
def prepare_requests(
    time_s,
    obj=None,
    *,
    library: ReplayLibrary,
    cartridge=None,
    size_mb=None,
    duration_s=None,
    access=None,
    cache_gb=None,
    cache_policy: str = "LRU",
    volume_mb=None,
    recall_specific_writes: bool = True,
    cartridge_share=1.0,
) -> PreparedRequests:
    """The cache pass and the stacking of :func:`replay_requests`, kept for several replays.

    Arguments as :func:`replay_requests`; ``library`` gives the cartridge capacity that
    volumes are stacked by.
    """
    t = _float_array("time_s", time_s, None, lo=-np.inf)
    n = t.size
    if n == 0:
        raise ValueError("time_s is empty: the log holds no requests to replay")
    if n > 1 and np.any(t[1:] < t[:-1]):
        k = int(np.argmax(t[1:] < t[:-1])) + 1
        raise ValueError(
            f"time_s[{k}]={t[k]!r} is before time_s[{k - 1}]={t[k - 1]!r}: requests must be in time order"
        )
    o = np.arange(n, dtype=np.int64) if obj is None else _code_array("obj", obj, n)
    cart = None if cartridge is None else _code_array("cartridge", cartridge, n)
    size = None if size_mb is None else _float_array("size_mb", size_mb, n)
    dur = None if duration_s is None else _float_array("duration_s", duration_s, n)
    acc = None if access is None else _code_array("access", access, n)
    if acc is not None and acc.size and acc.max() > READ:
        raise ValueError(f"access holds code {int(acc.max())}; valid codes 0, 1, 2 (ACCESS_TYPES)")
    notes: list[str] = []
    prep = _prep(
        library, cache_gb=cache_gb, cache_policy=cache_policy, size_mb=size, volume_mb=volume_mb, cartridge=cart,
        recall_specific_writes=recall_specific_writes, notes=notes, share=cartridge_share,
    )  # fmt: skip
    tape, hits = prep.to_tape(o, size, acc)
    idx = np.flatnonzero(tape)
    prep.keep_codes = False
    c = cart[idx] if cart is not None else prep.cartridges(o)[idx]
    return PreparedRequests(
        requests=n, cache_hits=hits, tape=idx, time_s=t[idx], cartridge=c,
        size_mb=None if size is None else size[idx], duration_s=None if dur is None else dur[idx],
        start_s=float(t[0]), cartridge_gb=None if cart is not None else library.cartridge_gb, notes=tuple(notes),
        cartridges=_count(c), volumes_per_cartridge=prep.volumes_per_cartridge, volumes=prep.volumes,
        cartridge_share=prep.share, volume_mb=prep.volume_mb,
    )  # fmt: skip


@declare(service=SERVICE, seed=SEED)
def replay_prepared(
    prepared: PreparedRequests, library: ReplayLibrary, *, service: str = "drive", service_sample=None, seed=0
) -> Replay:
    """Replay prepared requests (:func:`prepare_requests`) through a library; as :func:`replay_requests`.

    The library's cartridge capacity must be the one the volumes were stacked by.
    """
    if not isinstance(prepared, PreparedRequests):
        raise ValueError(
            f"prepared must be PreparedRequests (from prepare_requests), not {type(prepared).__name__}"
        )
    _library(library)
    if prepared.cartridge_gb is not None and prepared.cartridge_gb != library.cartridge_gb:
        raise ConstraintError(
            f"library.cartridge_gb={library.cartridge_gb:g} differs from the {prepared.cartridge_gb:g} GB the "
            "volumes were stacked by: prepare the requests with this library"
        )
    notes = list(prepared.notes)
    few = _few_cartridges(prepared.cartridges, library.drives, prepared)
    notes += [few] if few else []
    srv = _service(library, service, prepared.duration_s, service_sample, seed, prepared.size_mb, notes)
    idx, c = prepared.tape, prepared.cartridge
    svc = srv.own(prepared.size_mb, prepared.duration_s, idx.size)
    eng = _engine_for(library, prepared.start_s, idx.size, True, int(c.max()) + 1 if c.size else 1)
    eng.take(prepared.time_s, c, svc)
    eng.drain()
    response, wait, mounted, drive = eng.outputs(idx.size)  # the engine's own arrays: not copied
    hold = svc + library.cycle_s - library.locate_s
    per = {
        "tape": idx, "time_s": prepared.time_s, "response_s": response, "wait_s": wait, "service_s": response - wait,
        "mounted": mounted, "drive": drive, "hold_s": hold,
    }  # fmt: skip
    moments = (float(hold.sum()), float((hold * hold).sum()))
    return _result(eng, library, prepared.requests, prepared.cache_hits, idx.size, moments, per, notes,
                   prepared.cartridges, prepared.volumes_per_cartridge)  # fmt: skip


_PREPARE = ("cartridge", "duration_s", "cache_gb", "cache_policy", "volume_mb", "recall_specific_writes",
            "cartridge_share")  # fmt: skip


def prepare_log(log: MountLog, library: ReplayLibrary, **kwargs) -> PreparedRequests:
    """:func:`prepare_requests` for a mount log, taking what the log gives (see :func:`replay_log`)."""
    if not isinstance(log, MountLog):
        raise ValueError(f"log must be a MountLog (read it with read_mount_log), not {type(log).__name__}")
    unknown = set(kwargs) - set(_PREPARE)
    if unknown:
        raise ValueError(f"prepare_log takes {', '.join(_PREPARE)}; not {', '.join(sorted(unknown))}")
    dur = kwargs.pop("duration_s", log.duration_s)
    cols = {"obj": log.volume, "size_mb": log.size_mb, "access": log.access, "duration_s": dur,
            "cartridge": kwargs.pop("cartridge", log.cartridge)}  # fmt: skip
    t, order = log.time_s, None
    if log.time_at == "end" and dur is not None:
        start = t - np.asarray(dur, dtype=float)  # may begin before the first line's time
        order = np.argsort(start, kind="stable")
        t = start[order]
        cols = {k: v if v is None else np.asarray(v)[order] for k, v in cols.items()}
    p = prepare_requests(t, library=library, **cols, **kwargs)
    said = tuple(log.notes)
    if order is not None:
        said += ("the log's times mark the ends of requests: replayed from their starts",)
        p = dataclasses.replace(p, tape=order[p.tape])  # indices into the log as given
    return dataclasses.replace(p, notes=said + p.notes)


def replay_log(log: MountLog, library: ReplayLibrary, **kwargs) -> Replay:
    """Replay a mount log (the reader's in-memory form) through a cache and a library.

    Takes what the log gives: its cartridges (else volumes are stacked), its durations
    (``service`` defaults to ``"log"`` when it has them: each request's own drive time is
    its duration, to which the library adds the robot move, load and unload of each mount;
    set those to 0 in :func:`replay_library` where the durations include them), the start
    of each request where the log's times mark their ends (``time_s - duration_s``, the
    requests then taken in order of their starts). The reader's notes (sizes or access
    kinds defaulted) come out in :attr:`Replay.notes`. Keyword arguments as
    :func:`replay_requests`.
    """
    prep = {k: kwargs.pop(k) for k in _PREPARE if k in kwargs}
    prepared = prepare_log(log, library, **prep)
    kwargs.setdefault("service", "log" if prepared.duration_s is not None else "drive")
    return replay_prepared(prepared, library, **kwargs)


@declare(cache_gb=CACHE_GB, service=SERVICE, volume_mb=VOLUME_MB, seed=SEED, cartridge_share=CARTRIDGE_SHARE)
def replay_chunks(
    chunks: Iterable,
    library: ReplayLibrary,
    *,
    cache_gb=None,
    cache_policy: str = "LRU",
    service: str = "drive",
    service_sample=None,
    volume_mb=None,
    seed=0,
    recall_specific_writes: bool = True,
    progress: Callable[[int], None] | None = None,
    cartridge_share=1.0,
) -> Replay:
    """Replay a log given in chunks, in bounded memory (the per-request arrays are not kept).

    Each chunk is a mapping (or an object with attributes) with ``time_s`` and ``obj``
    (integer codes, the same code for the same object across chunks) and optionally
    ``cartridge``, ``size_mb``, ``duration_s``, ``access``; chunks in time order.
    Percentiles come from the histograms (1.2% bins). ``volume_mb`` sets the stacking
    (default: the first chunk's mean size). ``progress(requests_done)`` is called after
    each chunk. Other arguments as :func:`replay_requests`.
    """
    if isinstance(chunks, str | bytes | dict) or not hasattr(chunks, "__iter__"):
        raise ValueError(
            f"chunks must be an iterable of chunks (mappings of arrays), not {type(chunks).__name__}"
        )
    notes: list[str] = []
    prep = eng = None
    requests = hits = tape_n = 0
    hold = [0.0, 0.0]
    last_t = -math.inf
    used = np.zeros(0, dtype=np.bool_)  # the cartridges tape requests used
    for ch in chunks:
        if ch is None or isinstance(ch, str | bytes | int | float):
            raise ValueError(f"chunks holds {ch!r}: each chunk is a mapping (or object) of arrays")
        get = ch.get if isinstance(ch, dict) else (lambda k, ch=ch: getattr(ch, k, None))
        t = _float_array("time_s", get("time_s"), None, lo=-np.inf)
        n = t.size
        if n == 0:
            continue
        if t[0] < last_t or (n > 1 and np.any(np.diff(t) < 0)):
            raise ValueError(
                f"time_s goes back in time near request {requests}: chunks must be in time order"
            )
        last_t = float(t[-1])
        o = _code_array("obj", get("obj"), n)
        cart = None if get("cartridge") is None else _code_array("cartridge", get("cartridge"), n)
        size = None if get("size_mb") is None else _float_array("size_mb", get("size_mb"), n)
        dur = None if get("duration_s") is None else _float_array("duration_s", get("duration_s"), n)
        acc = None if get("access") is None else _code_array("access", get("access"), n)
        if prep is None:
            prep = _prep(
                library, cache_gb=cache_gb, cache_policy=cache_policy, size_mb=size, volume_mb=volume_mb,
                cartridge=cart, recall_specific_writes=recall_specific_writes, notes=notes, share=cartridge_share,
            )  # fmt: skip
            srv = _service(library, service, dur, service_sample, seed, size, notes)
            eng = _engine_for(library, float(t[0]), RING, False, 1)
        elif service == "log" and dur is None:
            raise ValueError(
                f"duration_s=None in the chunk at request {requests}: service='log' needs every duration"
            )
        tape, h = prep.to_tape(o, size, acc)
        idx = np.flatnonzero(tape)
        c = cart[idx] if cart is not None else prep.cartridges(o)[idx]
        svc = srv.own(None if size is None else size[idx], None if dur is None else dur[idx], idx.size)
        eng.feed(t[idx], c, svc)
        if c.size:
            used = _engine._grow(used, max(int(c.max()) + 1, used.size), False)
            used[c] = True
        x = svc + library.cycle_s - library.locate_s
        hold[0] += float(x.sum())
        hold[1] += float((x * x).sum())
        requests += n
        hits += h
        tape_n += idx.size
        if progress is not None:
            progress(requests)
    if eng is None:
        raise ValueError("the log holds no requests: nothing to replay")
    eng.drain()
    cartridges = int(used.sum())
    few = _few_cartridges(cartridges, library.drives, prep)
    notes += [few] if few else []
    none = dict.fromkeys(
        ("tape", "time_s", "response_s", "wait_s", "service_s", "mounted", "drive", "hold_s")
    )
    return _result(eng, library, requests, hits, tape_n, tuple(hold), none, notes, cartridges,
                   prep.volumes_per_cartridge)  # fmt: skip
