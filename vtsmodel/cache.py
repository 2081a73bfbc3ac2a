"""The tape volume cache (TVC): time at peak write, cache size needed, and a day simulated.

The source gives no values for its time-at-peak figures (ibm-vts-b18-2000, Figs. 4 and
10: images lost), so this module models them from first principles. What the text does
state, the model reproduces: time at peak grows with cache capacity (Sec. 4); it assumes
no un-migrated data when the write activity begins (Fig. 4 caption); the cache-management
algorithm changes above 864 GB (Fig. 10 caption, Sec. 4); peak is about 60% above
sustained (Sec. 3.5.4); and when the cache reaches its fill level the VTS throttles the
input, "A delay is added to each incoming write operation" (Sec. 5).

Modelling choices, each a keyword parameter the user can move:

``threshold``
    Fraction of the usable capacity at which throttling starts. The source speaks of "a
    fill threshold of the tape volume cache" (Sec. 3.1.1) without a value; default
    :data:`DEFAULT_THRESHOLD`.
``peak_copy_fraction``
    Copy rate to tape while the host writes at the peak rate, as a fraction of the copy
    rate in sustained mode. "Until a fill threshold of the tape volume cache is reached
    there is little copy activity" (Sec. 3.1.1); default :data:`DEFAULT_PEAK_COPY_FRACTION`.
``backlog_gb``
    Data not yet copied to tape when the writing begins; default 0 (Fig. 4 caption).
``above_864_fraction``
    How much of the capacity above 864 GB counts toward time at peak under the modified
    cache algorithm. Default derived from the "1200 GB effective capacity" of Sec. 4,
    read as the 1728 GB TVC's: (1200 - 864) / (1728 - 864) = 0.389. Set 1 to ignore the
    algorithm change.

Where the data sits: with EHPO and PAF the data is compressed at the host adapter ("With
EHPO all data within the system below the attachment adapters is in compressed form",
Sec. 2), so the cache holds host data divided by CF. The base VTS compresses at the 3590
drive ("Without the data compression feature, data is compressed at the 3590", Sec. 2),
so its cache holds uncompressed data: the cache compression factor is 1.

In sustained mode "the rate of incoming data equal[s] the rate at which data is being
copied from tape volume cache to physical tape" (Sec. 3.1.2): the copy rate at the
threshold is the sustained host rate divided by the cache compression factor. Below the
threshold the copy rate is that full rate while the host writes no more than the
sustained rate, and falls linearly to ``peak_copy_fraction`` of it as the accepted rate
rises to the peak rate: a modelling choice.

Units: capacities in GB (10^9 bytes, physical, as Table 3 prints them), rates in MB/s
(host MB/s for host traffic, physical MB/s inside the cache), times in hours where a
name says so.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vtsmodel._tables import cites, load
from vtsmodel._validation import as_float_array, check_choice, result, warn_outside

__all__ = [
    "CacheRun",
    "DEFAULT_PEAK_COPY_FRACTION",
    "DEFAULT_THRESHOLD",
    "FEATURES",
    "PROFILES",
    "Profile",
    "above_864_fraction_default",
    "algorithm_change_gb",
    "cache_cf",
    "effective_capacity_gb",
    "hours_at_peak",
    "make_profile",
    "product_configurations",
    "read_profile_csv",
    "simulate_cache",
    "smallest_configuration",
    "tvc_needed",
]

#: The VTS B18 feature levels (ibm-vts-b18-2000, Secs. 3.1, 3.5).
FEATURES = ("base", "ehpo", "paf")

#: Fill threshold, a fraction of the usable capacity at which the VTS starts throttling.
#: A modelling choice: the source names "a fill threshold" (ibm-vts-b18-2000, Sec. 3.1.1)
#: and gives no value. [-]
DEFAULT_THRESHOLD = 0.95

#: Copy rate to tape during peak write as a fraction of the sustained-mode copy rate.
#: A modelling choice for "there is little copy activity" (ibm-vts-b18-2000, Sec. 3.1.1). [-]
DEFAULT_PEAK_COPY_FRACTION = 0.1

_MB_PER_GB = 1000.0
_S_PER_H = 3600.0


# --------------------------------------------------------------------------------------
# Constants from data/
# --------------------------------------------------------------------------------------
@functools.cache
def _facts():
    return load("vts_facts")


@functools.cache
def algorithm_change_gb() -> float:
    """TVC capacity above which the cache-management algorithm changes. [GB]

    "For TVC capacities greater than 864 GB the algorithms for managing the cache content
    are modified." (ibm-vts-b18-2000, Fig. 10 caption; Sec. 4)
    """
    return _facts().value("cache_algorithm_change_tvc")


_algorithm_change_gb = algorithm_change_gb


@cites("vts_facts")
def above_864_fraction_default() -> float:
    """Share of the capacity above 864 GB that counts toward time at peak (derived).

    Sec. 4 speaks of "the 1200 GB effective capacity" on Fig. 10; read as the usable
    capacity of the largest TVC, 1728 GB, under the algorithm modified above 864 GB:
    ``(1200 - 864) / (1728 - 864) = 0.3889``. A reading, not a statement: the text does
    not explain the 1200 GB (data notes, ibm-vts-b18-2000 Sec. 7).

    Returns
    -------
    float
        The fraction. [-]
    """
    f = _facts()
    eff = f.value("fig10_effective_capacity")  # Sec. 4
    top = f.value("tvc_capacity_1728")  # Sec. 2
    knee = _algorithm_change_gb()  # Fig. 10 caption
    return (eff - knee) / (top - knee)


@cites("vts_tvc_configs")
def product_configurations(feature: str = "paf") -> np.ndarray:
    """The TVC capacities Table 3 offers with ``feature``, ascending, unique.

    Parameters
    ----------
    feature : {"base", "ehpo", "paf"}
        Feature level. Base and EHPO share Table 3's "Base/EHPO" columns.

    Returns
    -------
    numpy.ndarray
        Capacities. [GB]
    """
    check_choice("feature", feature, FEATURES)
    t = load("vts_tvc_configs")
    want = "paf" if feature == "paf" else "base_ehpo"
    return np.unique(np.asarray(t["tvc_gb"], dtype=float)[np.asarray(t["features"]) == want])


def smallest_configuration(tvc_gb, feature: str = "paf"):
    """The smallest Table 3 capacity with ``feature`` that is at least ``tvc_gb``.

    Parameters
    ----------
    tvc_gb : float or array_like
        Capacity needed. [GB]
    feature : {"base", "ehpo", "paf"}
        Feature level.

    Returns
    -------
    numpy.ndarray or numpy.float64
        The configuration's capacity, NaN where even the largest is too small. [GB]
    """
    need = as_float_array("tvc_gb", tvc_gb, lo=0.0)
    configs = product_configurations(feature)
    idx = np.searchsorted(configs, need * (1 - 1e-12), side="left")
    out = np.where(idx < configs.size, configs[np.minimum(idx, configs.size - 1)], np.nan)
    return result(out)


def cache_cf(cf, feature: str = "paf"):
    """The factor by which host data shrinks on its way into the cache.

    EHPO and PAF compress at the host adapter, so the cache holds host data / CF; the
    base VTS compresses at the 3590 drive, so its cache holds uncompressed data
    (ibm-vts-b18-2000, Sec. 2).

    Parameters
    ----------
    cf : float or array_like
        Data compressibility. [-]
    feature : {"base", "ehpo", "paf"}
        Feature level.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host MB per physical MB in the cache. [-]
    """
    check_choice("feature", feature, FEATURES)
    c = as_float_array("cf", cf, lo=1.0)
    return result(np.ones_like(c) if feature == "base" else c)


def effective_capacity_gb(tvc_gb, *, above_864_fraction: float | None = None):
    """Capacity that counts toward time at peak, with the algorithm change above 864 GB.

    ``C_eff = min(C, 864) + f * max(C - 864, 0)`` (ibm-vts-b18-2000, Fig. 10 caption, Sec. 4).

    Parameters
    ----------
    tvc_gb : float or array_like
        Physical TVC capacity. [GB]
    above_864_fraction : float, optional
        Share ``f`` of the capacity above 864 GB that counts; default
        :func:`above_864_fraction_default`. [-]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Effective capacity. [GB]
    """
    c = as_float_array("tvc_gb", tvc_gb, lo=0.0)
    f = _fraction(above_864_fraction)
    knee = _algorithm_change_gb()
    return result(np.minimum(c, knee) + f * np.maximum(c - knee, 0.0))


def _fraction(above_864_fraction):
    if above_864_fraction is None:
        return above_864_fraction_default()
    return float(as_float_array("above_864_fraction", above_864_fraction, lo=0.0, hi=1.0))


def _rates(cf, tvc_gb, feature, peak_mb_s, sustained_mb_s):
    """Peak and sustained host rates: given, or from lesson 01's ``write_rate``."""
    if peak_mb_s is None or sustained_mb_s is None:
        from vtsmodel.throughput import write_rate  # lazy: lesson 01's model

    p = (
        write_rate(cf, tvc_gb, feature=feature, mode="peak")
        if peak_mb_s is None
        else as_float_array("peak_mb_s", peak_mb_s, lo=0.0, lo_open=True)
    )
    s = (
        write_rate(cf, tvc_gb, feature=feature, mode="sustained")
        if sustained_mb_s is None
        else as_float_array("sustained_mb_s", sustained_mb_s, lo=0.0, lo_open=True)
    )
    p, s = np.asarray(p, dtype=float), np.asarray(s, dtype=float)
    if np.any(s > p * (1 + 1e-12)):
        raise ValueError(
            f"sustained_mb_s={_first(s)} must not exceed peak_mb_s={_first(p)}; "
            "the sustained rate is the lower of the two (ibm-vts-b18-2000, Sec. 3.1.2)"
        )
    return p, s


def _first(a) -> str:
    a = np.asarray(a, dtype=float).ravel()
    return f"{a[0]:g}" if a.size else "?"


# --------------------------------------------------------------------------------------
# Time at peak and its inverse
# --------------------------------------------------------------------------------------
def _copy_share(accepted, peak, sustained, peak_copy_fraction):
    """Copy rate below the threshold as a fraction of the full copy rate ``D``.

    1 while the host writes at most the sustained rate ``S`` (the system is in balance,
    Sec. 3.1.2), falling linearly to ``f`` at the peak rate ``P`` ("little copy
    activity", Sec. 3.1.1): ``1 − (1 − f) · clip((a − S) / (P − S), 0, 1)``.
    """
    span = np.maximum(peak - sustained, 1e-12 * np.maximum(peak, 1.0))
    x = np.clip((accepted - sustained) / span, 0.0, 1.0)
    x = np.where(accepted >= peak * (1 - 1e-12), 1.0, x)
    return 1.0 - (1.0 - peak_copy_fraction) * x


def _net_fill_mb_s(accepted, peak, sustained, cfc, peak_copy_fraction):
    """Net growth of un-copied data below the threshold (physical MB/s).

    ``a / CF_c − D · share(a)`` with ``D = S / CF_c`` (Sec. 3.1.2) and :func:`_copy_share`.
    """
    d = sustained / cfc
    return accepted / cfc - d * _copy_share(accepted, peak, sustained, peak_copy_fraction)


@cites("vts_facts", "vts_tvc_configs")
def hours_at_peak(
    tvc_gb,
    cf,
    *,
    feature: str = "paf",
    threshold: float = DEFAULT_THRESHOLD,
    peak_copy_fraction: float = DEFAULT_PEAK_COPY_FRACTION,
    backlog_gb=0.0,
    above_864_fraction: float | None = None,
    offered_mb_s=None,
    peak_mb_s=None,
    sustained_mb_s=None,
):
    """Hours the VTS can write at the peak rate before the fill threshold throttles it.

    ``t = (θ · C_eff − B) / (a / CF_c − D · share(a))`` with ``a = min(offered, P)``,
    ``D = S / CF_c``, ``share(P) = f`` (:func:`_copy_share`); infinite where the net fill rate is not positive (copying keeps up).

    Parameters
    ----------
    tvc_gb : float or array_like
        Physical TVC capacity. [GB]
    cf : float or array_like
        Data compressibility. [-]
    feature : {"base", "ehpo", "paf"}
        Feature level; sets the peak and sustained rates and where data is compressed.
    threshold : float
        Fill threshold θ, fraction of the effective capacity at which throttling starts. [-]
    peak_copy_fraction : float
        Copy rate during peak write as a fraction ``f`` of the sustained copy rate. [-]
    backlog_gb : float or array_like
        Data not yet copied at the start, ``B`` (0 in Fig. 4's caption). [GB]
    above_864_fraction : float, optional
        Share of the capacity above 864 GB that counts (see :func:`effective_capacity_gb`). [-]
    offered_mb_s : float or array_like, optional
        Host write rate offered; default the peak rate (the host saturates the VTS). [MB/s]
    peak_mb_s, sustained_mb_s : float or array_like, optional
        Peak ``P`` and sustained ``S`` host write rates; default from
        ``vtsmodel.throughput.write_rate``. [MB/s]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Time at peak. [h]

    Notes
    -----
    ibm-vts-b18-2000, Sec. 3.1.1 (fill threshold, little copy activity), Fig. 4 caption
    (no un-migrated data at the start), Fig. 10 caption and Sec. 4 (864 GB), Sec. 3.1.2
    (sustained: input equals copying).
    """
    check_choice("feature", feature, FEATURES)
    theta = float(as_float_array("threshold", threshold, lo=0.0, hi=1.0, lo_open=True))
    f = float(as_float_array("peak_copy_fraction", peak_copy_fraction, lo=0.0, hi=1.0))
    cfc = np.asarray(cache_cf(cf, feature), dtype=float)
    eff = np.asarray(effective_capacity_gb(tvc_gb, above_864_fraction=above_864_fraction))
    b = as_float_array("backlog_gb", backlog_gb, lo=0.0)
    p, s = _rates(cf, tvc_gb, feature, peak_mb_s, sustained_mb_s)
    a = p if offered_mb_s is None else np.minimum(as_float_array("offered_mb_s", offered_mb_s, lo=0.0), p)
    room_mb = np.maximum(theta * eff - b, 0.0) * _MB_PER_GB
    net = _net_fill_mb_s(a, p, s, cfc, f)
    with np.errstate(divide="ignore", invalid="ignore"):
        hours = np.where(net > 0, room_mb / np.where(net > 0, net, 1.0) / _S_PER_H, np.inf)
    return result(hours)


@cites("vts_facts", "vts_tvc_configs")
def tvc_needed(
    hours,
    cf,
    *,
    feature: str = "paf",
    threshold: float = DEFAULT_THRESHOLD,
    peak_copy_fraction: float = DEFAULT_PEAK_COPY_FRACTION,
    backlog_gb=0.0,
    above_864_fraction: float | None = None,
    offered_mb_s=None,
    peak_mb_s=None,
    sustained_mb_s=None,
):
    """The TVC capacity that rides a burst of ``hours`` at the peak rate without throttling.

    The inverse of :func:`hours_at_peak`: ``C_eff = (t · net + B) / θ``, then the
    effective capacity is mapped back through the algorithm change at 864 GB. When the
    rates come from ``write_rate`` (which depend on the capacity), they are taken at the
    smallest Table 3 configuration that holds the answer, iterated to a fixed point.
    Use :func:`smallest_configuration` for the configuration to order.

    Parameters
    ----------
    hours : float or array_like
        Length of the burst at the peak rate. [h]
    cf : float or array_like
        Data compressibility. [-]
    feature, threshold, peak_copy_fraction, backlog_gb, above_864_fraction, offered_mb_s, peak_mb_s, sustained_mb_s
        As for :func:`hours_at_peak`.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Physical capacity needed; infinite where the effective capacity above 864 GB
        cannot supply it (``above_864_fraction`` = 0). [GB]
    """
    check_choice("feature", feature, FEATURES)
    t = as_float_array("hours", hours, lo=0.0)
    theta = float(as_float_array("threshold", threshold, lo=0.0, hi=1.0, lo_open=True))
    pf = float(as_float_array("peak_copy_fraction", peak_copy_fraction, lo=0.0, hi=1.0))
    cfc = np.asarray(cache_cf(cf, feature), dtype=float)
    b = as_float_array("backlog_gb", backlog_gb, lo=0.0)
    frac = _fraction(above_864_fraction)
    knee = _algorithm_change_gb()

    def solve(p, s):
        a = p if offered_mb_s is None else np.minimum(as_float_array("offered_mb_s", offered_mb_s, lo=0.0), p)
        net = np.maximum(_net_fill_mb_s(a, p, s, cfc, pf), 0.0)
        eff = (t * _S_PER_H * net / _MB_PER_GB + b) / theta
        with np.errstate(divide="ignore", invalid="ignore"):
            above = np.where(eff > knee, (eff - knee) / frac if frac > 0 else np.inf, 0.0)
        return np.where(eff > knee, knee + above, eff)

    if peak_mb_s is not None and sustained_mb_s is not None:
        p, s = _rates(cf, 1.0, feature, peak_mb_s, sustained_mb_s)
        return result(solve(p, s))
    # rates from write_rate depend (slowly) on the capacity: iterate to a fixed point,
    # taking the rates at the guess held within Table 3's range (72 to 1728 GB)
    lo, hi = float(load("vts_tvc_configs")["tvc_gb"].min()), float(load("vts_tvc_configs")["tvc_gb"].max())
    guess = np.full(np.broadcast(t, cfc, b).shape, hi)
    for _ in range(60):
        at = np.clip(np.where(np.isfinite(guess), guess, hi), lo, hi)
        p, s = _rates(cf, at, feature, None, None)
        new = solve(p, s)
        done = np.allclose(new, guess, rtol=1e-12, atol=1e-9, equal_nan=True)
        guess = new
        if done:
            break
    warn_outside("tvc needed [GB]", guess[np.isfinite(guess)], lo, hi, source="ibm-vts-b18-2000, Table 3")
    return result(guess)


# --------------------------------------------------------------------------------------
# Workload profiles
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Profile:
    """A workload: piecewise-constant host write and read rates over a period.

    Attributes
    ----------
    name : str
        Short name.
    start_hours : numpy.ndarray
        Start of each interval, strictly increasing, the first 0. [h]
    write_mb_s : numpy.ndarray
        Host write rate offered in each interval. [MB/s]
    read_mb_s : numpy.ndarray
        Host read rate in each interval. [MB/s]
    duration_hours : float
        End of the last interval. [h]
    assumptions : str
        What the profile stands for and what it assumes.
    """

    name: str
    start_hours: np.ndarray
    write_mb_s: np.ndarray
    read_mb_s: np.ndarray
    duration_hours: float
    assumptions: str = ""

    def rows(self) -> list[tuple[float, float, float]]:
        """The intervals as ``(start_hours, write_mb_s, read_mb_s)`` tuples."""
        return [
            (float(a), float(b), float(c))
            for a, b, c in zip(self.start_hours, self.write_mb_s, self.read_mb_s, strict=True)
        ]

    def at(self, hours) -> tuple[np.ndarray, np.ndarray]:
        """Write and read rates in force at ``hours``. [MB/s]"""
        idx = np.searchsorted(self.start_hours, np.asarray(hours, dtype=float), side="right") - 1
        idx = np.clip(idx, 0, self.start_hours.size - 1)
        return self.write_mb_s[idx], self.read_mb_s[idx]


def make_profile(
    rows: Sequence[Sequence[float]],
    *,
    duration_hours: float = 24.0,
    name: str = "custom",
    assumptions: str = "",
    row_offset: int = 1,
) -> Profile:
    """Build a :class:`Profile` from ``(start_hours, write_mb_s, read_mb_s)`` rows.

    Every row is checked before anything is built; an error names the row (numbered from
    ``row_offset``), the field, the value and the valid range.

    Parameters
    ----------
    rows : sequence of 3-sequences
        Interval start [h], host write rate [MB/s], host read rate [MB/s].
    duration_hours : float
        End of the last interval. [h]
    name, assumptions : str
        Labels.
    row_offset : int
        Number of the first row in error messages (a CSV's line number).
    """
    dur = float(as_float_array("duration_hours", duration_hours, lo=0.0, lo_open=True))
    if len(rows) == 0:
        raise ValueError("profile has no rows; give at least one (start_hours, write_mb_s, read_mb_s)")
    starts, writes, reads = [], [], []
    names = ("start_hours", "write_mb_s", "read_mb_s")
    for i, row in enumerate(rows):
        n = i + row_offset
        if len(row) != 3:
            raise ValueError(
                f"row {n}: expected 3 values (start_hours, write_mb_s, read_mb_s), got {len(row)}"
            )
        vals = []
        for key, raw in zip(names, row, strict=True):
            try:
                v = float(raw)
            except (TypeError, ValueError):
                raise ValueError(f"row {n}: {key}={raw!r} is not a number") from None
            if not math.isfinite(v) or v < 0:
                raise ValueError(f"row {n}: {key}={raw!r} is outside the valid range [0, inf)")
            vals.append(v)
        s, wr, rd = vals
        if i == 0 and s != 0:
            raise ValueError(f"row {n}: start_hours={s:g} must be 0 for the first interval")
        if starts and s <= starts[-1]:
            raise ValueError(
                f"row {n}: start_hours={s:g} is not after the previous row's {starts[-1]:g}; "
                "times must be sorted and distinct"
            )
        if s >= dur:
            raise ValueError(f"row {n}: start_hours={s:g} is not before the end, duration_hours={dur:g}")
        starts.append(s)
        writes.append(wr)
        reads.append(rd)
    return Profile(
        name=name,
        start_hours=np.array(starts),
        write_mb_s=np.array(writes),
        read_mb_s=np.array(reads),
        duration_hours=dur,
        assumptions=assumptions,
    )


_CSV_COLUMNS = ("start_hours", "write_mb_s", "read_mb_s")


def read_profile_csv(source, *, duration_hours: float = 24.0, name: str | None = None) -> Profile:
    """Read a workload profile from a CSV file (or a file-like object, or CSV text).

    The header must be ``start_hours,write_mb_s,read_mb_s``; each following line is one
    interval. The whole file is checked before a profile is returned (nothing is half
    loaded); errors name the line.

    Parameters
    ----------
    source : path-like, file-like or str
        The file, an open text file, or CSV text containing a newline.
    duration_hours : float
        End of the last interval. [h]
    name : str, optional
        The profile's name; default the file's stem.
    """
    if hasattr(source, "read"):
        text, label = source.read(), name or "profile"
    elif isinstance(source, str) and "\n" in source:
        text, label = source, name or "profile"
    else:
        path = Path(os.fspath(source))
        text, label = path.read_text(encoding="utf-8-sig"), name or path.stem
    reader = csv.reader(io.StringIO(text))
    lines = [(i + 1, r) for i, r in enumerate(reader) if any(cell.strip() for cell in r)]
    if not lines:
        raise ValueError(f"profile CSV is empty; the header must be {','.join(_CSV_COLUMNS)}")
    head_line, head = lines[0]
    if tuple(c.strip().lower() for c in head) != _CSV_COLUMNS:
        raise ValueError(f"line {head_line}: header {','.join(head)!r} must be {','.join(_CSV_COLUMNS)}")
    body = lines[1:]
    for n, r in body:
        if len(r) != 3:
            raise ValueError(
                f"line {n}: expected 3 values (start_hours, write_mb_s, read_mb_s), got {len(r)}"
            )
    # make_profile numbers rows consecutively; map back to line numbers on error
    try:
        return make_profile([r for _, r in body], duration_hours=duration_hours, name=label, row_offset=0)
    except ValueError as exc:
        msg = str(exc)
        if msg.startswith("row "):
            idx = int(msg.split(":", 1)[0][4:])
            msg = f"line {body[idx][0]}:{msg.split(':', 1)[1]}"
        raise ValueError(msg) from None


#: Built-in illustrative workloads (host MB/s). These are NOT source data: they are made
#: up to show typical shapes of a day; each names its assumptions.
PROFILES: dict[str, Profile] = {
    "nightly batch window": make_profile(
        [(0, 10, 5), (2, 90, 5), (8, 10, 15)],
        name="nightly batch window",
        assumptions=(
            "Illustrative, not source data: a 6-hour batch window (hours 2-8) offering 90 host MB/s, "
            "more than the PAF peak, between light work (10 MB/s writes, 5-15 MB/s reads)."
        ),
    ),
    "steady day": make_profile(
        [(0, 30, 20)],
        name="steady day",
        assumptions=(
            "Illustrative, not source data: a constant 30 host MB/s of writes and 20 MB/s of reads "
            "for 24 hours, below the PAF sustained rate at CF 3."
        ),
    ),
    "weekly full backup": make_profile(
        [(0, 10, 5), (1, 100, 2), (15, 10, 5)],
        duration_hours=48.0,
        name="weekly full backup",
        assumptions=(
            "Illustrative, not source data: a 14-hour full backup (hours 1-15) offering 100 host MB/s, "
            "then light activity; 48 hours, to show the drain."
        ),
    ),
}


# --------------------------------------------------------------------------------------
# Simulation
# --------------------------------------------------------------------------------------
@dataclass
class CacheRun:
    """The result of :func:`simulate_cache`: time series per step and summary numbers.

    Per-step arrays (length ``n``, step ``k`` covers ``[time_hours[k], time_hours[k+1])``):
    ``offered_mb_s``, ``accepted_mb_s``, ``copy_mb_s`` (physical), ``recall_mb_s``
    (physical), ``throttled`` (bool), ``at_peak_hours`` (time within the step at the peak rate).
    State arrays (length ``n + 1``, at the step boundaries): ``time_hours``, ``uncopied_gb``,
    ``delayed_mb`` (offered but not yet accepted, host MB), ``offered_total_mb``,
    ``accepted_total_mb`` (host MB), ``written_total_mb`` and ``copied_total_mb``
    (physical MB, cumulative).
    """

    time_hours: np.ndarray
    offered_mb_s: np.ndarray
    accepted_mb_s: np.ndarray
    copy_mb_s: np.ndarray
    recall_mb_s: np.ndarray
    throttled: np.ndarray
    at_peak_hours: np.ndarray
    uncopied_gb: np.ndarray
    delayed_mb: np.ndarray
    offered_total_mb: np.ndarray
    accepted_total_mb: np.ndarray
    written_total_mb: np.ndarray
    copied_total_mb: np.ndarray
    capacity_gb: float
    threshold_gb: float
    backlog_gb: float
    peak_mb_s: float
    sustained_mb_s: float
    cache_cf: float
    params: dict = field(default_factory=dict)

    # --- summary -----------------------------------------------------------------------
    @property
    def hours_at_peak(self) -> float:
        """Total time the VTS accepted host writes at the peak rate. [h]"""
        return float(self.at_peak_hours.sum())

    @property
    def hours_throttled(self) -> float:
        """Total time the input was throttled (offered data delayed by the threshold). [h]"""
        dt = np.diff(self.time_hours)
        return float(dt[self.throttled].sum())

    @property
    def first_throttle_hours(self) -> float:
        """When throttling first started; NaN if never. [h]"""
        idx = np.flatnonzero(self.throttled)
        return float(self.time_hours[idx[0]]) if idx.size else math.nan

    @property
    def delay_mb_hours(self) -> float:
        """Delay imposed: the integral of the delayed (offered, not yet accepted) data. [MB·h]

        By Little's law this is the sum over host MB of the time each waited.
        """
        q = self.delayed_mb
        return float(np.sum(0.5 * (q[1:] + q[:-1]) * np.diff(self.time_hours)))

    @property
    def max_delay_hours(self) -> float:
        """Longest wait of any host MB between being offered and accepted (FIFO). [h]

        Data still waiting at the end of the run counts up to the end.
        """
        off, acc, t = self.offered_total_mb, self.accepted_total_mb, self.time_hours
        if off[-1] - acc[-1] <= 1e-9 * max(off[-1], 1.0) and np.all(
            self.delayed_mb <= 1e-9 * max(off[-1], 1.0)
        ):
            return 0.0
        # time at which cumulative accepted reaches each cumulative offered level
        levels = np.minimum(off, acc[-1])
        j = np.searchsorted(acc, levels, side="left")
        j = np.clip(j, 1, acc.size - 1)
        a0, a1 = acc[j - 1], acc[j]
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.where(a1 > a0, (levels - a0) / (a1 - a0), 0.0)
        t_acc = t[j - 1] + np.clip(frac, 0, 1) * (t[j] - t[j - 1])
        t_acc = np.where(off > acc[-1] + 1e-9, t[-1], t_acc)
        return float(max(np.max(t_acc - t), 0.0))

    @property
    def backlog_cleared_hours(self) -> float:
        """When the un-copied data and the delayed data last returned to zero; NaN if not by the end. [h]"""
        tol_gb = 1e-9 * max(self.capacity_gb, 1.0)
        busy = (self.uncopied_gb > tol_gb) | (self.delayed_mb > tol_gb * _MB_PER_GB)
        idx = np.flatnonzero(busy)
        if idx.size == 0:
            return 0.0
        last = idx[-1]
        return float(self.time_hours[last + 1]) if last + 1 < self.time_hours.size else math.nan

    @property
    def peak_occupancy_gb(self) -> float:
        """Largest amount of un-copied data in the cache. [GB]"""
        return float(self.uncopied_gb.max())

    def summary(self) -> dict[str, float]:
        """The summary numbers, keys with units."""
        return {
            "Time at peak [h]": self.hours_at_peak,
            "Time throttled [h]": self.hours_throttled,
            "First throttled at [h]": self.first_throttle_hours,
            "Delay imposed [MB·h]": self.delay_mb_hours,
            "Longest delay [h]": self.max_delay_hours,
            "Backlog cleared at [h]": self.backlog_cleared_hours,
            "Peak un-copied data [GB]": self.peak_occupancy_gb,
        }


@cites("vts_facts", "vts_tvc_configs")
def simulate_cache(
    profile: Profile | str,
    *,
    tvc_gb: float,
    cf: float,
    feature: str = "paf",
    threshold: float = DEFAULT_THRESHOLD,
    peak_copy_fraction: float = DEFAULT_PEAK_COPY_FRACTION,
    backlog_gb: float = 0.0,
    above_864_fraction: float | None = None,
    read_hit: float = 0.8,
    step_minutes: float = 1.0,
    peak_mb_s: float | None = None,
    sustained_mb_s: float | None = None,
) -> CacheRun:
    """Simulate the TVC through a workload profile in fixed time steps.

    State: un-copied data ``U`` (physical) and delayed host data ``Q``. In each step the
    host offers ``Q + o·Δt``. Below the threshold ``θ·C_eff`` the VTS accepts up to the peak
    rate ``P`` and copies at ``D_r · share(a)`` (full below the sustained rate, ``f`` at peak); when ``U`` reaches the threshold
    within a step the rest of the step runs throttled: the VTS accepts at most
    ``D_r · CF_c`` (the sustained rate when there are no recalls) and copies at ``D_r``, so
    ``U`` stays at the threshold. ``D_r = max(S/CF_c − R, 0)`` is the copy bandwidth left
    after recalls ``R = read · (1 − read_hit) / CF_c`` (read misses are read from tape,
    sharing the drives). Data not accepted waits in ``Q`` (delayed, not lost: Sec. 5).

    Conservation holds at every step: ``B + written = copied + U`` (physical) and
    ``offered = accepted + Q`` (host).

    Parameters
    ----------
    profile : Profile or str
        The workload, or the name of a built-in in :data:`PROFILES`.
    tvc_gb : float
        Physical TVC capacity. [GB]
    cf : float
        Data compressibility. [-]
    feature : {"base", "ehpo", "paf"}
        Feature level.
    threshold, peak_copy_fraction, backlog_gb, above_864_fraction
        As for :func:`hours_at_peak`.
    read_hit : float
        Fraction of host reads served from the cache; the rest are recalls from tape.
        A workload assumption (Sec. 4 says it "depends on specific workload
        characteristics"). [-]
    step_minutes : float
        Time step. [min]
    peak_mb_s, sustained_mb_s : float, optional
        Peak and sustained host write rates; default from ``write_rate``. [MB/s]

    Returns
    -------
    CacheRun
        Time series and summary numbers.
    """
    if isinstance(profile, str):
        if profile not in PROFILES:
            raise ValueError(
                f"profile={profile!r} is not valid; choose one of {', '.join(map(repr, PROFILES))}"
            )
        profile = PROFILES[profile]
    check_choice("feature", feature, FEATURES)
    tvc = float(as_float_array("tvc_gb", tvc_gb, lo=0.0, lo_open=True))
    cf_ = float(as_float_array("cf", cf, lo=1.0))
    theta = float(as_float_array("threshold", threshold, lo=0.0, hi=1.0, lo_open=True))
    f = float(as_float_array("peak_copy_fraction", peak_copy_fraction, lo=0.0, hi=1.0))
    hit = float(as_float_array("read_hit", read_hit, lo=0.0, hi=1.0))
    dt_min = float(as_float_array("step_minutes", step_minutes, lo=0.0, hi=60.0, lo_open=True))
    cap = float(effective_capacity_gb(tvc, above_864_fraction=above_864_fraction))
    b0 = float(as_float_array("backlog_gb", backlog_gb, lo=0.0, hi=cap))
    p_arr, s_arr = _rates(cf_, tvc, feature, peak_mb_s, sustained_mb_s)
    P, S = float(p_arr), float(s_arr)
    cfc = float(cache_cf(cf_, feature))

    # time grid; offered volume per step integrated exactly from the piecewise-constant profile
    dur_s = profile.duration_hours * _S_PER_H
    dt = dt_min * 60.0
    n = max(1, int(math.ceil(dur_s / dt - 1e-9)))
    edges_s = np.minimum(np.arange(n + 1) * dt, dur_s)
    starts_s = profile.start_hours * _S_PER_H
    knots = np.append(starts_s, dur_s)
    cum_w = np.concatenate([[0.0], np.cumsum(profile.write_mb_s * np.diff(knots))])
    cum_r = np.concatenate([[0.0], np.cumsum(profile.read_mb_s * np.diff(knots))])
    steps = np.diff(edges_s)
    off_vol = np.diff(np.interp(edges_s, knots, cum_w))
    read_vol = np.diff(np.interp(edges_s, knots, cum_r))
    with np.errstate(divide="ignore", invalid="ignore"):
        read_rate = np.where(steps > 0, read_vol / np.where(steps > 0, steps, 1.0), 0.0)
    recall = read_rate * (1.0 - hit) / cfc  # physical MB/s read back from tape
    d_full = S / cfc  # Sec. 3.1.2: sustained input equals copying
    d_r = np.maximum(d_full - recall, 0.0)

    thr_mb = theta * cap * _MB_PER_GB
    acc = np.zeros(n)
    cop = np.zeros(n)
    thr = np.zeros(n, dtype=bool)
    peak_t = np.zeros(n)
    U = np.empty(n + 1)
    Q = np.empty(n + 1)
    u, q = b0 * _MB_PER_GB, 0.0
    U[0], Q[0] = u, q
    # a scalar loop over floats (the state is path dependent); about 2 µs per step
    steps_l, off_l, d_l = steps.tolist(), off_vol.tolist(), d_r.tolist()
    for k in range(n):
        h = steps_l[k]
        demand = q + off_l[k]
        dk = d_l[k]
        a_vol = c_vol = t_pk = 0.0
        left = h
        if u < thr_mb and h > 0:
            a = min(P, demand / h)
            c = dk * float(_copy_share(a, P, S, f))
            net = a / cfc - c
            tau = min(h, (thr_mb - u) / net) if net > 0 else h
            if net < 0 and u + net * tau < 0:  # cannot copy more than is there
                c = a / cfc + u / tau
                net = -u / tau
            a_vol, c_vol = a * tau, c * tau
            u = u + net * tau
            if a >= P * (1 - 1e-12):
                t_pk = tau
            left = h - tau
            if left <= 1e-9 * h:
                left = 0.0
            if left == 0.0 and net > 0 and u >= thr_mb * (1 - 1e-12):
                u = thr_mb  # reached exactly at the step's end
        if left > 0:
            rest = demand - a_vol
            excess = max(u - thr_mb, 0.0) / left  # a start above the threshold drains to it
            a2 = max(0.0, min((dk - excess) * cfc, rest / left))
            c2 = min(dk, u / left + a2 / cfc)
            a_vol += a2 * left
            c_vol += c2 * left
            u = u + (a2 / cfc - c2) * left
            if rest / left > a2 * (1 + 1e-12) + 1e-12:
                thr[k] = True
        elif demand - a_vol > 1e-9 * max(demand, 1.0) and u >= thr_mb * (1 - 1e-12):
            thr[k] = True
        acc[k], cop[k], peak_t[k] = a_vol, c_vol, t_pk
        q = demand - a_vol
        if q < 0:
            q = 0.0
        u = max(u, 0.0)
        U[k + 1], Q[k + 1] = u, q

    with np.errstate(divide="ignore", invalid="ignore"):
        safe = np.where(steps > 0, steps, 1.0)
        acc_rate = np.where(steps > 0, acc / safe, 0.0)
        cop_rate = np.where(steps > 0, cop / safe, 0.0)
        off_rate = np.where(steps > 0, off_vol / safe, 0.0)
    zero = np.zeros(1)
    return CacheRun(
        time_hours=edges_s / _S_PER_H,
        offered_mb_s=off_rate,
        accepted_mb_s=acc_rate,
        copy_mb_s=cop_rate,
        recall_mb_s=recall,
        throttled=thr,
        at_peak_hours=peak_t / _S_PER_H,
        uncopied_gb=U / _MB_PER_GB,
        delayed_mb=Q,
        offered_total_mb=np.concatenate([zero, np.cumsum(off_vol)]),
        accepted_total_mb=np.concatenate([zero, np.cumsum(acc)]),
        written_total_mb=np.concatenate([zero, np.cumsum(acc / cfc)]),
        copied_total_mb=np.concatenate([zero, np.cumsum(cop)]),
        capacity_gb=cap,
        threshold_gb=theta * cap,
        backlog_gb=b0,
        peak_mb_s=P,
        sustained_mb_s=S,
        cache_cf=cfc,
        params={
            "profile": profile.name,
            "tvc_gb": tvc,
            "cf": cf_,
            "feature": feature,
            "threshold": theta,
            "peak_copy_fraction": f,
            "read_hit": hit,
            "step_minutes": dt_min,
        },
    )
