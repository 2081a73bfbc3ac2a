"""The disk cache in front of the tape: read-miss staging, background copy, ride-through.

Three behaviours of a disk cache that the DS8000/TPF measurements quantify
(``ibm-ds8000-tpf``), each as a small queueing or balance model whose assumptions are
parameters:

* **Read-miss staging.** A read miss costs the hard disk drive (HDD) a positioning time
  plus the transfer of the staged amount at the media rate; under load the HDD is a
  single-server queue (M/G/1, M/M/1 by default). Staging 21 KB instead of 57 KB per miss
  lowered the HDD read response by 19% ("Adaptive Record Caching"): the model's load is
  calibrated to that 19% (:func:`calibrate_staging_load`, :data:`STAGING_LOAD_IO_PER_S`),
  so agreeing with it is no evidence; what the model answers on its own is the direction
  of the other statements (record staging for TPF's poor spatial locality, track staging
  for z/OS's, lower HDD utilisation at the same load).
* **Record vs track vs adaptive staging** for a workload of given spatial locality
  (:func:`staging_modes`).
* **Background copy** (FlashCopy) as added disk load: 2 ms before, more than double but
  under 5 ms during the copy at 163K IO/s ("Performance with FlashCopy"): the added load
  is calibrated (:func:`calibrate_copy_load`, :data:`COPY_LOAD`) to a target between the
  two bounds, the midpoint 4.5 ms by default, a project assumption
  (:data:`COPY_TARGET_POSITION`).
* **Ride-through** of a pause in disk access (failover, failback, warmstart: under six
  seconds measured) against the work arriving and the blocks it holds, with the 70%
  shutdown threshold ("Error Handling Behavior Performance"): :func:`ride_through_s`.

The source states no absolute HDD service time, positioning time, media rate, record
size or number of HDDs: those are modelled parameters with the defaults below, documented
as assumptions, that the lesson lets the user move.
"""

from __future__ import annotations

import functools

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, as_scalar, broadcast, result
from vtsmodel.quantities import BIG_COUNT, BIG_RATE, BIG_S, SMALL

__all__ = [
    "COPY_LOAD",
    "COPY_TARGET_POSITION",
    "COPY_UTILISATION_REF",
    "KB_BYTES",
    "MEDIA_MB_S",
    "POSITIONING_MS",
    "RECORD_KB",
    "STAGING_LOAD_IO_PER_S",
    "STAGING_MODES",
    "background_copy_response_ms",
    "calibrate_copy_load",
    "calibrate_staging_load",
    "copy_response_target_ms",
    "copy_saturation_io_per_s",
    "disk_response_ms",
    "disk_service_ms",
    "disk_utilisation",
    "resources_for_pause",
    "ride_through_s",
    "staging_gain",
    "staging_modes",
]

#: Bytes in a KB of staged data. The source prints "57 KB" and "21 KB" without saying
#: 1000 or 1024; the project reads block and record sizes as binary (data/README.md).
KB_BYTES = 1024

#: Mean positioning time of a read miss on one HDD (seek plus rotational latency). [ms]
#: Modelled, not from the source: about 3.5 ms average seek plus 2 ms half a revolution
#: of a 15,000 rpm drive, the class of HDD a DS8300 of the paper's time carried.
POSITIONING_MS = 5.5

#: Media transfer rate of one HDD while staging. [MB/s] Modelled, not from the source.
MEDIA_MB_S = 100.0

#: Size of one record, what record staging stages per miss. [KB] Modelled: the largest
#: standard TPF record size (4 KB); the source gives no record size.
RECORD_KB = 4.0

#: The staging modes :func:`staging_modes` compares.
STAGING_MODES = ("record", "track", "adaptive")

#: Where the response during the copy is taken between its two stated bounds, "more than
#: doubled" (4 ms) = 0 and "still less than 5 ms" = 1: the midpoint, a **project
#: assumption** (the value was only in the lost Fig. 6). [-]
COPY_TARGET_POSITION = 0.5

#: Disk-system utilisation just before the FlashCopy, at the measured 163K IO/s. [-]
#: Modelled: the source says only "close to the maximum I/0 throughput for the disk
#: system" (ibm-ds8000-tpf, Performance with FlashCopy); 0.8 is this project's reading.
COPY_UTILISATION_REF = 0.8

# --- the inputs (see vtsmodel.quantities for the practical limits) ------------------------------
_SRC = "ibm-ds8000-tpf"
IO_PER_S = Input("I/O rate", "IO/s", 100.0, lo=0.0, hi=BIG_RATE, help="Requests per second.")
STAGED_KB = Input(
    "staged per read miss", "KB", None, lo=SMALL, hi=1e6,
    source=f"{_SRC}, Adaptive Record Caching (57 KB track, 21 KB adaptive)",
    help="Data staged from the HDD per read miss.",
)  # fmt: skip
TRACK_KB = STAGED_KB.but(
    label="staged per miss, track caching", help="Data staged per miss with track staging."
)
RECORD_KB_INPUT = STAGED_KB.but(
    label="record size", default=RECORD_KB, source="modelling choice (the largest standard TPF record)",
    help="Data staged per miss with record staging.",
)  # fmt: skip
POSITIONING = Input(
    "positioning per miss", "ms", POSITIONING_MS, lo=0.0, hi=1e3, source="modelling choice (POSITIONING_MS)",
    help="Mean seek plus rotational latency of a read miss.",
)  # fmt: skip
MEDIA = Input(
    "HDD media rate", "MB/s", MEDIA_MB_S, lo=SMALL, hi=1e5, source="modelling choice (MEDIA_MB_S)",
    help="Media transfer rate of one HDD while staging.",
)  # fmt: skip
N_HDD = Input("HDDs", "-", 1, lo=1, hi=BIG_COUNT, integer=True, help="HDDs sharing the read misses evenly.")
CS2 = Input(
    "service time SCV",
    "-",
    1.0,
    lo=0.0,
    hi=100.0,
    help="Squared coefficient of variation of the service time.",
)
GAIN = Input(
    "response reduction", "-", None, lo=0.0, hi=1.0, lo_open=True, hi_open=True,
    source=f"{_SRC}, Adaptive Record Caching (19 %)", help="Fractional reduction of the read-miss response.",
)  # fmt: skip
SPATIAL_LOCALITY = Input(
    "spatial locality",
    "-",
    0.1,
    lo=0.0,
    hi=1.0,
    help="Probability that a read is on the track of the read before.",
)
TEMPORAL_HIT = Input(
    "temporal hit ratio", "-", 0.0, lo=0.0, hi=1.0, help="Share of reads hit by reuse of records."
)
COPY_LOAD_INPUT = Input(
    "background copy load", "-", 0.0, lo=0.0, hi=1.0, hi_open=True,
    help="Share of the disk system's capacity a background copy uses.",
)  # fmt: skip
UTILISATION_REF = Input(
    "utilisation at the reference rate", "-", COPY_UTILISATION_REF, lo=SMALL, hi=1.0, hi_open=True,
    source="modelling choice (COPY_UTILISATION_REF)", help="Disk-system utilisation at io_per_s_ref without copy.",
)  # fmt: skip
RESPONSE_REF_MS = Input(
    "response at the reference rate", "ms", None, lo=SMALL, hi=BIG_S,
    source=f"{_SRC}, Performance with FlashCopy (2 ms)", help="Host I/O response at io_per_s_ref without copy.",
)  # fmt: skip
IO_PER_S_REF = Input(
    "reference host rate", "IO/s", None, lo=SMALL, hi=BIG_RATE,
    source=f"{_SRC}, Performance with FlashCopy (163K IO/s)", help="The host rate the reference response was measured at.",
)  # fmt: skip
TARGET_MS = Input(
    "response during the copy", "ms", None, lo=SMALL, hi=BIG_S,
    source=f"{_SRC}, Performance with FlashCopy (above 4, below 5 ms)", help="Host response to calibrate the copy to.",
)  # fmt: skip
TRANSACTIONS_PER_S = Input(
    "transactions per second", "1/s", 1000.0, lo=SMALL, hi=BIG_RATE,
    help="Transactions arriving during a pause in disk access.",
)  # fmt: skip
BLOCKS = Input("blocks", "-", 10_000.0, lo=SMALL, hi=BIG_COUNT, help="Blocks (ECBs, frames) available.")
SHUTDOWN_THRESHOLD = Input(
    "shutdown threshold", "-", None, lo=SMALL, hi=1.0,
    source=f"{_SRC}, Error Handling Behavior Performance (about 70 %)", help="Share of the blocks at which shutdown starts.",
)  # fmt: skip
PAUSE_S = Input(
    "pause in disk access", "s", 6.0, lo=0.0, hi=BIG_S,
    source=f"{_SRC}, Error Handling Behavior Performance (under six seconds)",
    help="Length of a pause (failover, failback, warmstart).",
)  # fmt: skip


@functools.cache
def _facts():
    return load("ds8000_facts")


def _fact(row_id: str) -> float:
    return _facts().value(row_id)


# --- read-miss service and response ----------------------------------------------------


def _transfer_ms(staged_kb, media_mb_s):
    # bytes / (bytes per ms): MB/s = 10^6 bytes/s = 10^3 bytes/ms
    return staged_kb * KB_BYTES / (media_mb_s * 1e3)


@declare(staged_kb=STAGED_KB, positioning_ms=POSITIONING, media_mb_s=MEDIA)
def disk_service_ms(staged_kb, *, positioning_ms=POSITIONING_MS, media_mb_s=MEDIA_MB_S):
    """Service time of one read miss on one HDD: positioning plus transfer of the stage.

    ``s = t_pos + staged_kb * 1024 / (media_mb_s * 10^3)`` in ms.

    Parameters
    ----------
    staged_kb : float or array_like
        Data staged from the HDD per read miss. [KB]
    positioning_ms : float or array_like
        Mean seek plus rotational latency per miss (modelled, :data:`POSITIONING_MS`). [ms]
    media_mb_s : float or array_like
        Media transfer rate of the HDD (modelled, :data:`MEDIA_MB_S`). [MB/s]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Mean service time per read miss. [ms]
    """
    return result(_service(staged_kb, positioning_ms, media_mb_s))


def _service(staged_kb, positioning_ms, media_mb_s, *, name: str = "staged_kb"):
    kb = STAGED_KB.check(name, staged_kb)
    pos = POSITIONING.check("positioning_ms", positioning_ms)
    rate = MEDIA.check("media_mb_s", media_mb_s)
    broadcast(**{name: kb}, positioning_ms=pos, media_mb_s=rate)
    return pos + _transfer_ms(kb, rate)


@declare(io_per_s=IO_PER_S, staged_kb=STAGED_KB, positioning_ms=POSITIONING, media_mb_s=MEDIA, n_hdd=N_HDD)
def disk_utilisation(io_per_s, *, staged_kb, positioning_ms=POSITIONING_MS, media_mb_s=MEDIA_MB_S, n_hdd=1):
    """Utilisation of one HDD by read misses: ``rho = (io_per_s / n_hdd) * s``.

    Parameters
    ----------
    io_per_s : float or array_like
        Read misses per second reaching the HDDs, spread evenly over ``n_hdd``. [IO/s]
    staged_kb : float or array_like
        Data staged per read miss. [KB]
    positioning_ms, media_mb_s : float or array_like
        As for :func:`disk_service_ms`. [ms], [MB/s]
    n_hdd : int or array_like
        Number of HDDs sharing the load. [count]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Offered utilisation per HDD; 1 or more means the HDD cannot keep up. [-]
    """
    return result(_utilisation(io_per_s, staged_kb, positioning_ms, media_mb_s, n_hdd)[1])


def _utilisation(io_per_s, staged_kb, positioning_ms, media_mb_s, n_hdd, *, name: str = "staged_kb"):
    lam = IO_PER_S.check("io_per_s", io_per_s)
    n = N_HDD.check("n_hdd", n_hdd)
    s = _service(staged_kb, positioning_ms, media_mb_s, name=name)
    broadcast(io_per_s=lam, n_hdd=n, **{name: s})
    return s, lam / n * s * 1e-3


@cites("ibm-ds8000-tpf")
@declare(
    io_per_s=IO_PER_S, staged_kb=STAGED_KB, positioning_ms=POSITIONING, media_mb_s=MEDIA, n_hdd=N_HDD, cs2=CS2
)
def disk_response_ms(
    io_per_s,
    *,
    staged_kb,
    positioning_ms=POSITIONING_MS,
    media_mb_s=MEDIA_MB_S,
    n_hdd=1,
    cs2=1.0,
):
    """Mean HDD read-miss response time under load (M/G/1 per HDD).

    Pollaczek-Khinchine: ``R = s + rho * s * (1 + cs2) / (2 * (1 - rho))`` with
    ``s`` from :func:`disk_service_ms` and ``rho = (io_per_s / n_hdd) * s``; with
    ``cs2 = 1`` (exponential service, M/M/1) this is ``R = s / (1 - rho)``.

    Parameters
    ----------
    io_per_s : float or array_like
        Read misses per second reaching the HDDs, spread evenly over ``n_hdd``. [IO/s]
    staged_kb : float or array_like
        Data staged per read miss (ibm-ds8000-tpf, Adaptive Record Caching: 57 KB with
        track caching, 21 KB with adaptive record caching). [KB]
    positioning_ms : float or array_like
        Mean seek plus rotational latency per miss (modelled). [ms]
    media_mb_s : float or array_like
        Media transfer rate of the HDD (modelled). [MB/s]
    n_hdd : int or array_like
        Number of HDDs sharing the load. [count]
    cs2 : float or array_like
        Squared coefficient of variation of the service time (1: exponential). [-]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Mean response time of a read miss, queueing included. [ms]

    Raises
    ------
    ValueError
        For invalid input, and where an HDD is saturated (utilisation of 1 or more): the
        queue then grows without bound and there is no steady-state response time.
    """
    return result(_response(io_per_s, staged_kb, positioning_ms, media_mb_s, n_hdd, cs2))


def _response(io_per_s, staged_kb, positioning_ms, media_mb_s, n_hdd, cs2, *, name: str = "staged_kb"):
    c2 = CS2.check("cs2", cs2)
    s, rho = _utilisation(io_per_s, staged_kb, positioning_ms, media_mb_s, n_hdd, name=name)
    broadcast(io_per_s=rho, cs2=c2)
    if np.any(rho >= 1.0):
        worst = float(np.max(rho))
        raise ConstraintError(
            f"io_per_s={_first(io_per_s, rho >= 1.0):g} saturates the HDDs with {name}: utilisation {worst:.3g} "
            f"(valid range [0, 1) per HDD; service {float(np.max(s)):.3g} ms per miss, "
            f"at most {1e3 / float(np.max(s)):.4g} misses per second per HDD)"
        )
    return s + rho * s * (1.0 + c2) / (2.0 * (1.0 - rho))


def _first(value, mask) -> float:
    arr = np.broadcast_to(np.asarray(value, dtype=float), np.shape(mask))
    return float(arr[np.asarray(mask)].ravel()[0]) if np.any(mask) else float(np.ravel(arr)[0])


_DISK = {"positioning_ms": POSITIONING, "media_mb_s": MEDIA, "n_hdd": N_HDD, "cs2": CS2}


def _disk(disk: dict) -> dict:
    unknown = set(disk) - set(_DISK)
    if unknown:
        raise ValueError(
            f"unknown argument(s) {', '.join(sorted(map(repr, unknown)))}; the disk takes "
            f"{', '.join(map(repr, _DISK))}"
        )
    out = {"positioning_ms": POSITIONING_MS, "media_mb_s": MEDIA_MB_S, "n_hdd": 1, "cs2": 1.0}
    out.update(disk)
    return out


@cites("ibm-ds8000-tpf")
@declare(io_per_s=IO_PER_S, staged_kb=STAGED_KB, track_kb=TRACK_KB, **_DISK)
def staging_gain(io_per_s, *, staged_kb=None, track_kb=None, **disk):
    """Fractional reduction of the read-miss response from staging less per miss.

    ``gain = 1 - R(staged_kb) / R(track_kb)`` at the same miss rate (the source saw "no
    reduction in the read hit percentage", so both modes serve the same misses).

    Parameters
    ----------
    io_per_s : float or array_like
        Read misses per second reaching the HDDs. [IO/s]
    staged_kb : float, optional
        Staged per miss with adaptive record caching; default the measured 21 KB. [KB]
    track_kb : float, optional
        Staged per miss with track caching; default the measured 57 KB. [KB]
    **disk
        ``positioning_ms``, ``media_mb_s``, ``n_hdd``, ``cs2`` of :func:`disk_response_ms`.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Response-time reduction as a fraction (negative where ``staged_kb`` exceeds
        ``track_kb``). [-]
    """
    d = _disk(disk)
    small = STAGED_KB.check(
        "staged_kb", _fact("staged_per_read_adaptive") if staged_kb is None else staged_kb
    )
    big = TRACK_KB.check("track_kb", _fact("staged_per_read_track") if track_kb is None else track_kb)
    broadcast(io_per_s=IO_PER_S.check("io_per_s", io_per_s), staged_kb=small, track_kb=big)
    r_big = _response(
        io_per_s, big, d["positioning_ms"], d["media_mb_s"], d["n_hdd"], d["cs2"], name="track_kb"
    )
    r_small = _response(io_per_s, small, d["positioning_ms"], d["media_mb_s"], d["n_hdd"], d["cs2"])
    return result(1.0 - r_small / r_big)


@cites("ibm-ds8000-tpf")
@declare(gain=GAIN, staged_kb=STAGED_KB, track_kb=TRACK_KB, **_DISK)
def calibrate_staging_load(*, gain=None, staged_kb=None, track_kb=None, **disk) -> float:
    """The read-miss rate at which staging ``staged_kb`` instead of ``track_kb`` gains ``gain``.

    Solves ``staging_gain(io_per_s) = gain`` with Brent's method on
    ``0 <= io_per_s < n_hdd / s(track_kb)`` (the gain rises from its zero-load value
    ``1 - s(staged)/s(track)`` towards 1 as the track-staging HDD saturates).

    Parameters
    ----------
    gain : float, optional
        Measured response reduction; default 0.19 (ibm-ds8000-tpf, Adaptive Record
        Caching: "reduced the HDD response time by 19% compared to track caching"). [-]
    staged_kb, track_kb : float, optional
        Default 21 KB and 57 KB (same locator). [KB]
    **disk
        ``positioning_ms``, ``media_mb_s``, ``n_hdd``, ``cs2`` of :func:`disk_response_ms`.

    Returns
    -------
    float
        Read misses per second (over ``n_hdd`` HDDs) at which the gain is reached. [IO/s]

    Raises
    ------
    ValueError
        If the gain is already exceeded with no load (positioning too short for the
        transfer to matter so little): no load gives it.
    """
    g = as_scalar(
        "gain", GAIN.check("gain", _fact("arc_hdd_read_response_reduction") if gain is None else gain)
    )
    d = _disk(disk)
    small = as_scalar(
        "staged_kb",
        STAGED_KB.check("staged_kb", _fact("staged_per_read_adaptive") if staged_kb is None else staged_kb),
    )
    big = as_scalar(
        "track_kb",
        TRACK_KB.check("track_kb", _fact("staged_per_read_track") if track_kb is None else track_kb),
    )
    pos = as_scalar("positioning_ms", POSITIONING.check("positioning_ms", d["positioning_ms"]))
    media = as_scalar("media_mb_s", MEDIA.check("media_mb_s", d["media_mb_s"]))
    n = as_scalar("n_hdd", N_HDD.check("n_hdd", d["n_hdd"]))
    c2 = as_scalar("cs2", CS2.check("cs2", d["cs2"]))
    s_big = float(_service(big, pos, media, name="track_kb"))
    s_small = float(_service(small, pos, media))
    if s_small >= s_big:
        raise ConstraintError(f"staged_kb={small!r} must be smaller than track_kb={big!r} for a gain")
    g0 = 1.0 - s_small / s_big
    if g0 >= g:
        raise ConstraintError(
            f"gain={g:g} is already exceeded at zero load ({g0:.3g} with service {s_small:.3g} ms vs "
            f"{s_big:.3g} ms): lengthen positioning_ms or raise media_mb_s; no load gives it"
        )
    # The gain depends on the load per HDD only: solve for one HDD, then scale by n_hdd.
    top = 1e3 / s_big

    def f(lam):
        r_big = _response(lam, big, pos, media, 1, c2, name="track_kb")
        return float(1.0 - _response(lam, small, pos, media, 1, c2) / r_big) - g

    edge = top * (1.0 - 1e-12)
    if f(edge) < 0:
        raise ConstraintError(
            f"gain={g:g} is not reached below saturation (at most {f(edge) + g:.12g} with "
            f"staged_kb={small:g} and track_kb={big:g}): choose a smaller gain"
        )
    from scipy.optimize import brentq  # imported here: scipy.optimize costs ~0.5 s at import

    return n * float(brentq(f, 0.0, edge, xtol=1e-12, rtol=1e-13))


#: Read misses per second per HDD at which the model gives the measured 19% (21 KB vs
#: 57 KB staged; defaults :data:`POSITIONING_MS`, :data:`MEDIA_MB_S`, M/M/1, one HDD):
#: the output of :func:`calibrate_staging_load()`, rechecked by a test. A calibration:
#: the 19% is its input, not evidence for it. [IO/s]
STAGING_LOAD_IO_PER_S = 119.1732


# --- record vs track vs adaptive staging ------------------------------------------------


@cites("ibm-ds8000-tpf")
@declare(
    read_per_s=IO_PER_S, spatial_locality=SPATIAL_LOCALITY, temporal_hit=TEMPORAL_HIT, record_kb=RECORD_KB_INPUT,
    track_kb=TRACK_KB, positioning_ms=POSITIONING, media_mb_s=MEDIA, n_hdd=N_HDD,
)  # fmt: skip
def staging_modes(
    read_per_s,
    *,
    spatial_locality,
    temporal_hit=0.0,
    record_kb=RECORD_KB,
    track_kb=None,
    positioning_ms=POSITIONING_MS,
    media_mb_s=MEDIA_MB_S,
    n_hdd=1,
) -> dict[str, dict[str, np.ndarray]]:
    """Hit ratio, staged KB per miss and HDD utilisation of record, track, adaptive staging.

    The workload model: a read hits by temporal reuse with probability ``h0 =
    temporal_hit`` whatever the staging; otherwise, with probability ``p =
    spatial_locality``, it is on the same track as the read before it. Track staging put
    that track in cache on the earlier miss, so such reads hit; record staging staged
    only the record, so they miss.

    * record: hit ratio ``h0``, stages ``record_kb`` per miss;
    * track: hit ratio ``h0 + (1 - h0) p``, stages ``track_kb`` per miss;
    * adaptive: per workload, the mode with less HDD busy time per read, i.e. track
      staging where ``(1 - p) s(track_kb) < s(record_kb)``, else record staging
      (the DS8000 "dynamically adjusts between track and record modes ... based on past
      experience"; here the adjustment is ideal and the cache space a track takes is not
      modelled).

    Utilisation per HDD = ``read_per_s / n_hdd * (1 - hit) * s(staged)``; it may exceed 1
    (offered load) and is then the factor by which the HDD is overloaded.

    Parameters
    ----------
    read_per_s : float or array_like
        Reads per second reaching the cache for the HDDs' data. [IO/s]
    spatial_locality : float or array_like
        Probability that a read not served by temporal reuse is on the track of the read
        before it (TPF: "poor spatial locality", near 0; z/OS: higher). [-]
    temporal_hit : float or array_like
        Fraction of reads that hit by temporal reuse of records. [-]
    record_kb : float
        Staged per miss with record staging (modelled, :data:`RECORD_KB`). [KB]
    track_kb : float, optional
        Staged per miss with track staging; default the measured 57 KB. [KB]
    positioning_ms, media_mb_s, n_hdd
        As for :func:`disk_response_ms`.

    Returns
    -------
    dict
        ``{mode: {"hit_ratio": [-], "staged_kb": [KB], "utilisation": [-]}}`` for each of
        :data:`STAGING_MODES`, arrays broadcast over the inputs.
    """
    lam = IO_PER_S.check("read_per_s", read_per_s)
    p = SPATIAL_LOCALITY.check("spatial_locality", spatial_locality)
    h0 = TEMPORAL_HIT.check("temporal_hit", temporal_hit)
    n = N_HDD.check("n_hdd", n_hdd)
    track = _fact("staged_per_read_track") if track_kb is None else track_kb
    rec = RECORD_KB_INPUT.check("record_kb", record_kb)
    trk = TRACK_KB.check("track_kb", track)
    s_rec = _service(rec, positioning_ms, media_mb_s, name="record_kb")
    s_trk = _service(trk, positioning_ms, media_mb_s, name="track_kb")
    broadcast(read_per_s=lam, spatial_locality=p, temporal_hit=h0, n_hdd=n, record_kb=s_rec, track_kb=s_trk)
    if np.any(rec > trk):
        raise ConstraintError(
            f"record_kb={record_kb!r} must not exceed track_kb={track!r} (a record is on a track)"
        )
    lam, p, h0, rec, trk, s_rec, s_trk = np.broadcast_arrays(lam, p, h0, rec, trk, s_rec, s_trk)
    per_hdd = lam / n * 1e-3  # reads per ms per HDD

    hit = {"record": h0, "track": h0 + (1.0 - h0) * p}
    staged = {"record": rec, "track": trk}
    service = {"record": s_rec, "track": s_trk}
    use_track = (1.0 - p) * s_trk < s_rec
    hit["adaptive"] = np.where(use_track, hit["track"], hit["record"])
    staged["adaptive"] = np.where(use_track, trk, rec)
    service["adaptive"] = np.where(use_track, s_trk, s_rec)
    out = {}
    for mode in STAGING_MODES:
        out[mode] = {
            "hit_ratio": result(hit[mode]),
            "staged_kb": result(staged[mode] * 1.0),
            "utilisation": result(per_hdd * (1.0 - hit[mode]) * service[mode]),
        }
    return out


# --- background copy (FlashCopy) ---------------------------------------------------------


def _copy_ref():
    return _fact("flashcopy_test_io_rate"), _fact("flashcopy_response_before")


@cites("ibm-ds8000-tpf")
@declare(
    io_per_s=IO_PER_S, copy_load=COPY_LOAD_INPUT, utilisation_ref=UTILISATION_REF,
    response_ref_ms=RESPONSE_REF_MS, io_per_s_ref=IO_PER_S_REF,
)  # fmt: skip
def background_copy_response_ms(
    io_per_s,
    *,
    copy_load=0.0,
    utilisation_ref=COPY_UTILISATION_REF,
    response_ref_ms=None,
    io_per_s_ref=None,
):
    """Host I/O response of the disk system with a background copy adding load.

    The disk system is one aggregate queue whose utilisation grows with the host rate,
    ``rho = utilisation_ref * io_per_s / io_per_s_ref``; a background copy takes a fixed
    share ``copy_load`` of its capacity. M/M/1-like response:
    ``R = R0 / (1 - rho - copy_load)`` with ``R0 = response_ref_ms * (1 - utilisation_ref)``
    so that ``R = response_ref_ms`` at ``io_per_s_ref`` without copy.

    Parameters
    ----------
    io_per_s : float or array_like
        Host I/O rate. [IO/s]
    copy_load : float or array_like
        Share of the disk system's capacity the background copy uses (0: no copy). [-]
    utilisation_ref : float
        Utilisation at ``io_per_s_ref`` without copy (modelled reading of "close to the
        maximum I/0 throughput", :data:`COPY_UTILISATION_REF`). [-]
    response_ref_ms : float, optional
        Response at ``io_per_s_ref`` without copy; default the measured 2 ms
        (ibm-ds8000-tpf, Performance with FlashCopy). [ms]
    io_per_s_ref : float, optional
        The reference host rate; default the measured 163K IO/s (same locator). [IO/s]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Mean host I/O response. [ms]

    Raises
    ------
    ValueError
        For invalid input, and where ``rho + copy_load >= 1`` (saturated).
    """
    ref_rate, ref_ms = _copy_ref()
    ref_rate = ref_rate if io_per_s_ref is None else io_per_s_ref
    ref_ms = ref_ms if response_ref_ms is None else response_ref_ms
    lam = IO_PER_S.check("io_per_s", io_per_s)
    c = COPY_LOAD_INPUT.check("copy_load", copy_load)
    u = UTILISATION_REF.check("utilisation_ref", utilisation_ref)
    r_ref = RESPONSE_REF_MS.check("response_ref_ms", ref_ms)
    l_ref = IO_PER_S_REF.check("io_per_s_ref", ref_rate)
    broadcast(io_per_s=lam, copy_load=c, utilisation_ref=u, response_ref_ms=r_ref, io_per_s_ref=l_ref)
    rho = u * lam / l_ref + c
    if np.any(rho >= 1.0):
        raise ConstraintError(
            f"io_per_s={_first(io_per_s, rho >= 1.0):g} saturates the disk system: utilisation "
            f"{float(np.max(rho)):.3g} with copy_load={float(np.max(c)):g} (valid range [0, 1); at most "
            f"{float(np.min(l_ref * (1.0 - c) / u)):.4g} IO/s)"
        )
    r0 = r_ref * (1.0 - u)
    return result(r0 / (1.0 - rho))


@declare(copy_load=COPY_LOAD_INPUT, utilisation_ref=UTILISATION_REF, io_per_s_ref=IO_PER_S_REF)
def copy_saturation_io_per_s(*, copy_load=0.0, utilisation_ref=COPY_UTILISATION_REF, io_per_s_ref=None):
    """Host rate at which the disk system saturates: ``io_per_s_ref * (1 - copy_load) / utilisation_ref``.

    Parameters
    ----------
    copy_load, utilisation_ref, io_per_s_ref
        As for :func:`background_copy_response_ms`.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host I/O rate of utilisation 1. [IO/s]
    """
    l_ref = IO_PER_S_REF.check("io_per_s_ref", _copy_ref()[0] if io_per_s_ref is None else io_per_s_ref)
    c = COPY_LOAD_INPUT.check("copy_load", copy_load)
    u = UTILISATION_REF.check("utilisation_ref", utilisation_ref)
    broadcast(copy_load=c, utilisation_ref=u, io_per_s_ref=l_ref)
    return result(l_ref * (1.0 - c) / u)


COPY_POSITION = Input(
    "target between the bounds", "-", COPY_TARGET_POSITION, lo=0.0, hi=1.0,
    source="project assumption (COPY_TARGET_POSITION: the midpoint)",
    help="Where the calibration target lies between 4 ms (0) and 5 ms (1).",
)  # fmt: skip


@cites("ibm-ds8000-tpf")
@declare(position=COPY_POSITION)
def copy_response_target_ms(position=None) -> float:
    """The response during the copy this project calibrates to: a point between the stated bounds.

    Before the copy 2 ms; during it "more than doubled" (so above 4 ms) and "still less
    than 5 ms" (ibm-ds8000-tpf, Performance with FlashCopy). The value itself was only in
    Fig. 6, whose image is lost; any value in (4, 5) ms agrees with the text. The project
    takes ``lo + position * (hi - lo)``, by default the midpoint, 4.5 ms: a project
    assumption.

    Parameters
    ----------
    position : float, optional
        Where between the bounds, 0 (4 ms) to 1 (5 ms); default
        :data:`COPY_TARGET_POSITION`. [-]

    Returns
    -------
    float
        Target response. [ms]
    """
    pos = COPY_TARGET_POSITION if position is None else position
    pos = as_scalar("position", COPY_POSITION.check("position", pos))
    lo = _fact("flashcopy_response_before") * _fact("flashcopy_response_factor_min")
    hi = _fact("flashcopy_response_max")
    return lo + pos * (hi - lo)


@cites("ibm-ds8000-tpf")
@declare(
    target_ms=TARGET_MS,
    utilisation_ref=UTILISATION_REF,
    response_ref_ms=RESPONSE_REF_MS,
    io_per_s_ref=IO_PER_S_REF,
)
def calibrate_copy_load(*, target_ms=None, utilisation_ref=COPY_UTILISATION_REF, response_ref_ms=None,
                        io_per_s_ref=None) -> float:  # fmt: skip
    """The background copy's share of capacity that gives ``target_ms`` at the reference rate.

    Solves ``background_copy_response_ms(io_per_s_ref, copy_load=c) = target_ms`` for ``c``;
    at the reference rate ``R = R_ref (1 - u) / (1 - u - c)``, so in closed form
    ``c = (1 - u) (1 - R_ref / target_ms)``: in ``[0, 1 - u)`` for any target above
    ``R_ref``, the copy taking all the spare capacity as the target grows without bound.

    Parameters
    ----------
    target_ms : float, optional
        Response during the copy, above ``response_ref_ms``; default
        :func:`copy_response_target_ms` (4.5 ms). [ms]
    utilisation_ref, response_ref_ms, io_per_s_ref
        As for :func:`background_copy_response_ms`.

    Returns
    -------
    float
        Added load of the background copy, as a share of capacity. [-]

    Raises
    ------
    ConstraintError
        (a ``ValueError``) when ``target_ms`` is not above ``response_ref_ms``.
    """
    ref_rate, ref_ms = _copy_ref()
    as_scalar(
        "io_per_s_ref", IO_PER_S_REF.check("io_per_s_ref", ref_rate if io_per_s_ref is None else io_per_s_ref)
    )
    r_ref = as_scalar(
        "response_ref_ms",
        RESPONSE_REF_MS.check("response_ref_ms", ref_ms if response_ref_ms is None else response_ref_ms),
    )
    t = as_scalar(
        "target_ms",
        TARGET_MS.check("target_ms", copy_response_target_ms() if target_ms is None else target_ms),
    )
    u = as_scalar("utilisation_ref", UTILISATION_REF.check("utilisation_ref", utilisation_ref))
    if t <= r_ref:
        raise ConstraintError(
            f"target_ms={t:g} must be above response_ref_ms={r_ref:g}: a background copy only adds load"
        )
    return (1.0 - u) * (1.0 - r_ref / t)


#: Share of disk capacity the FlashCopy background copy takes in the model: the output
#: of :func:`calibrate_copy_load()` (target 4.5 ms, the assumed midpoint of the stated
#: bounds; utilisation 0.8 at 163K IO/s, assumed; 2 ms before), rechecked by a test. A
#: calibration: the bounds it was solved between are its inputs, not evidence. [-]
COPY_LOAD = 0.1111111


# --- ride-through of a pause in disk access ----------------------------------------------


@cites("ibm-ds8000-tpf")
@declare(arrival_per_s=TRANSACTIONS_PER_S, resources=BLOCKS, threshold=SHUTDOWN_THRESHOLD)
def ride_through_s(arrival_per_s, resources, *, threshold=None):
    """Longest pause in disk access a system rides through before shutdown.

    While disk access is paused, every arriving transaction takes one block (an ECB, a
    frame) and holds it until disk access returns; none is released. The system stays
    out of shutdown while the blocks held stay at or below ``threshold * resources``:

    ``T_max = threshold * resources / arrival_per_s``

    the same buffer-over-rate balance as time at peak (a buffer filling at a net rate).

    Parameters
    ----------
    arrival_per_s : float or array_like
        Transactions arriving per second during the pause. [1/s]
    resources : float or array_like
        Blocks available to hold them. [count]
    threshold : float, optional
        Share of the blocks at which shutdown starts; default 0.7 (ibm-ds8000-tpf,
        Error Handling Behavior Performance: "should be set to roughly 70%"). [-]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Pause length survived. [s]
    """
    thr = _fact("shutdown_threshold") if threshold is None else threshold
    lam = TRANSACTIONS_PER_S.check("arrival_per_s", arrival_per_s)
    res = BLOCKS.check("resources", resources)
    th = SHUTDOWN_THRESHOLD.check("threshold", thr)
    broadcast(arrival_per_s=lam, resources=res, threshold=th)
    return result(th * res / lam)


@cites("ibm-ds8000-tpf")
@declare(arrival_per_s=TRANSACTIONS_PER_S, pause_s=PAUSE_S, threshold=SHUTDOWN_THRESHOLD)
def resources_for_pause(arrival_per_s, pause_s, *, threshold=None):
    """Blocks needed to ride through a pause: ``arrival_per_s * pause_s / threshold``.

    The inverse of :func:`ride_through_s` in ``resources``.

    Parameters
    ----------
    arrival_per_s : float or array_like
        Transactions arriving per second during the pause. [1/s]
    pause_s : float or array_like
        Pause in disk access (measured: under 6 s, ibm-ds8000-tpf, Error Handling
        Behavior Performance). [s]
    threshold : float, optional
        Shutdown threshold; default 0.7 (same locator). [-]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Blocks needed. [count]
    """
    thr = _fact("shutdown_threshold") if threshold is None else threshold
    lam = TRANSACTIONS_PER_S.check("arrival_per_s", arrival_per_s)
    t = PAUSE_S.check("pause_s", pause_s)
    th = SHUTDOWN_THRESHOLD.check("threshold", thr)
    broadcast(arrival_per_s=lam, pause_s=t, threshold=th)
    return result(lam * t / th)
