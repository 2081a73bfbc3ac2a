"""The tape volume cache (TVC) of the VTS B18: time at peak write and the cache size a burst needs.

The source gives no values for its time-at-peak figures (ibm-vts-b18-2000, Figs. 4 and
10: images lost), so this module models them from first principles. What the text states
the model either takes as an input (calibrated: no un-migrated data when the write
activity begins, Fig. 4 caption; the cache-management algorithm changes above 864 GB,
Fig. 10 caption, Sec. 4, with the "1200 GB effective capacity" read as the 1728 GB
TVC's) or reproduces (time at peak grows with cache capacity, Sec. 4; when the cache
reaches its fill level the VTS throttles the input, "A delay is added to each incoming
write operation", Sec. 5). The statement ledger (``data/statements.csv``) says which.

Table 3's configurations are :class:`vtsmodel.b18.Configuration` records; a configuration
id (``tvc_config``) names the HDDs and RAID layout as well as the capacity, and so the
Table 4 column of the EHPO rates (:func:`vtsmodel.b18.table4_column`).

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

import functools
import warnings

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import (
    ConstraintError,
    ExtrapolationWarning,
    as_scalar,
    broadcast,
    result,
    warn_outside,
)
from vtsmodel.b18 import FEATURE, LayoutWarning, configuration, product_configurations, tvc_range
from vtsmodel.quantities import (
    ABOVE_864_FRACTION,
    BACKLOG_GB,
    BURST_HOURS,
    CF,
    OFFERED_MB_S,
    PEAK_COPY_FRACTION,
    PEAK_MB_S,
    SUSTAINED_MB_S,
    THRESHOLD,
    TVC_GB,
)
from vtsmodel.throughput import write_rate

#: A capacity of 0 GB has a meaning here (no room: no time at peak), unlike in write_rate.
_CAPACITY = TVC_GB.but(lo=0.0)
_NEEDED = _CAPACITY.but(label="capacity needed", valid=None)

__all__ = [
    "DEFAULT_PEAK_COPY_FRACTION",
    "DEFAULT_THRESHOLD",
    "above_864_fraction_default",
    "algorithm_change_gb",
    "cache_cf",
    "effective_capacity_gb",
    "hours_at_peak",
    "smallest_configuration",
    "tvc_needed",
]

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


@declare(tvc_gb=_NEEDED, feature=FEATURE)
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
    need = _NEEDED.check("tvc_gb", tvc_gb)
    configs = product_configurations(feature)
    idx = np.searchsorted(configs, need * (1 - 1e-12), side="left")
    out = np.where(idx < configs.size, configs[np.minimum(idx, configs.size - 1)], np.nan)
    return result(out)


@declare(cf=CF, feature=FEATURE)
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
    FEATURE.check("feature", feature)
    c = CF.check("cf", cf)
    return result(np.ones_like(c) if feature == "base" else c)


@declare(tvc_gb=_CAPACITY, above_864_fraction=ABOVE_864_FRACTION)
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
    c = _CAPACITY.check("tvc_gb", tvc_gb)
    f = _fraction(above_864_fraction)
    knee = _algorithm_change_gb()
    return result(np.minimum(c, knee) + f * np.maximum(c - knee, 0.0))


def _fraction(above_864_fraction):
    if above_864_fraction is None:
        return above_864_fraction_default()
    return as_scalar("above_864_fraction", ABOVE_864_FRACTION.check("above_864_fraction", above_864_fraction))


def _rates(cf, tvc_gb, feature, peak_mb_s, sustained_mb_s, tvc_config=None):
    """Peak and sustained host rates: given, or from ``vtsmodel.throughput.write_rate``."""
    kw = {"feature": feature, "tvc_config": tvc_config}
    if tvc_config is not None:
        tvc_gb = None
    p = (
        write_rate(cf, tvc_gb, mode="peak", **kw)
        if peak_mb_s is None
        else PEAK_MB_S.check("peak_mb_s", peak_mb_s)
    )
    with warnings.catch_warnings():  # the TVC warned once, for the peak rate
        warnings.filterwarnings("ignore", message=".*offered", category=ExtrapolationWarning)
        warnings.simplefilter("ignore", LayoutWarning)
        s = (
            write_rate(cf, tvc_gb, mode="sustained", **kw)
            if sustained_mb_s is None
            else SUSTAINED_MB_S.check("sustained_mb_s", sustained_mb_s)
        )
    p, s = np.asarray(p, dtype=float), np.asarray(s, dtype=float)
    if np.any(s > p * (1 + 1e-12)):
        raise ConstraintError(
            f"sustained_mb_s={_first(s)} must not exceed peak_mb_s={_first(p)}; "
            "the sustained rate is the lower of the two (ibm-vts-b18-2000, Sec. 3.1.2)"
        )
    return p, s


def _capacity(tvc_gb, tvc_config):
    """The physical capacity of a TVC given by size or by Table 3 configuration. [GB]"""
    if tvc_config is None:
        if tvc_gb is None:
            raise ConstraintError(
                f"tvc_gb=None: give a TVC capacity in {_CAPACITY.range_text()} GB, or a tvc_config"
            )
        return tvc_gb
    cap = configuration(tvc_config).tvc_gb
    if tvc_gb is not None and np.any(_CAPACITY.check("tvc_gb", tvc_gb) != cap):
        raise ConstraintError(
            f"tvc_gb={tvc_gb!r} does not match tvc_config={tvc_config!r} ({cap:g} GB); give one of them"
        )
    return cap


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


_TVC_INPUTS = {
    "cf": CF, "feature": FEATURE, "threshold": THRESHOLD, "peak_copy_fraction": PEAK_COPY_FRACTION,
    "backlog_gb": BACKLOG_GB, "above_864_fraction": ABOVE_864_FRACTION, "offered_mb_s": OFFERED_MB_S,
    "peak_mb_s": PEAK_MB_S, "sustained_mb_s": SUSTAINED_MB_S,
}  # fmt: skip


def _check_common(cf, tvc_gb, threshold, peak_copy_fraction, backlog_gb, offered_mb_s, peak_mb_s, sustained_mb_s,
                  *, first: dict):  # fmt: skip
    """Check the inputs hours_at_peak and tvc_needed share; scalars and shapes by name."""
    theta = as_scalar("threshold", THRESHOLD.check("threshold", threshold))
    f = as_scalar("peak_copy_fraction", PEAK_COPY_FRACTION.check("peak_copy_fraction", peak_copy_fraction))
    arrays = {**first, "cf": CF.check("cf", cf), "backlog_gb": BACKLOG_GB.check("backlog_gb", backlog_gb)}
    if tvc_gb is not None:
        arrays["tvc_gb"] = _CAPACITY.check("tvc_gb", tvc_gb)
    for name, inp, value in (
        ("offered_mb_s", OFFERED_MB_S, offered_mb_s),
        ("peak_mb_s", PEAK_MB_S, peak_mb_s),
        ("sustained_mb_s", SUSTAINED_MB_S, sustained_mb_s),
    ):
        if value is not None:
            arrays[name] = inp.check(name, value)
    broadcast(**arrays)
    return theta, f


@cites("vts_facts", "vts_tvc_configs")
@declare(tvc_gb=_CAPACITY, **_TVC_INPUTS)
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
    tvc_config: str | None = None,
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
    tvc_config : str, optional
        A Table 3 configuration id (:func:`vtsmodel.b18.configurations`) instead of ``tvc_gb`` (pass
        ``tvc_gb=None``): its capacity, and its RAID layout for the EHPO rates.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Time at peak; infinite where copying keeps up. [h]

    Raises
    ------
    ConstraintError
        (a ``ValueError``) where ``sustained_mb_s`` exceeds ``peak_mb_s``, or ``tvc_gb``
        is not ``tvc_config``'s capacity.

    Notes
    -----
    ibm-vts-b18-2000, Sec. 3.1.1 (fill threshold, little copy activity), Fig. 4 caption
    (no un-migrated data at the start), Fig. 10 caption and Sec. 4 (864 GB), Sec. 3.1.2
    (sustained: input equals copying).
    """
    FEATURE.check("feature", feature)
    cap = _capacity(tvc_gb, tvc_config)
    theta, f = _check_common(
        cf, cap, threshold, peak_copy_fraction, backlog_gb, offered_mb_s, peak_mb_s, sustained_mb_s, first={}
    )
    if (peak_mb_s is None or sustained_mb_s is None) and np.any(np.asarray(cap) < TVC_GB.lo):
        raise ConstraintError(
            f"tvc_gb={float(np.min(cap)):g} needs peak_mb_s and sustained_mb_s: write_rate gives rates for "
            f"capacities in {TVC_GB.range_text()} GB only"
        )
    cfc = np.asarray(cache_cf(cf, feature), dtype=float)
    eff = np.asarray(effective_capacity_gb(cap, above_864_fraction=above_864_fraction))
    b = BACKLOG_GB.check("backlog_gb", backlog_gb)
    p, s = _rates(cf, cap, feature, peak_mb_s, sustained_mb_s, tvc_config)
    a = p if offered_mb_s is None else np.minimum(OFFERED_MB_S.check("offered_mb_s", offered_mb_s), p)
    room_mb = np.maximum(theta * eff - b, 0.0) * _MB_PER_GB
    net = _net_fill_mb_s(a, p, s, cfc, f)
    with np.errstate(divide="ignore", invalid="ignore"):
        hours = np.where(net > 0, room_mb / np.where(net > 0, net, 1.0) / _S_PER_H, np.inf)
    return result(hours)


@cites("vts_facts", "vts_tvc_configs")
@declare(hours=BURST_HOURS.but(lo=0.0), **_TVC_INPUTS)
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
    FEATURE.check("feature", feature)
    t = BURST_HOURS.but(lo=0.0).check("hours", hours)
    theta, pf = _check_common(
        cf, None, threshold, peak_copy_fraction, backlog_gb, offered_mb_s, peak_mb_s, sustained_mb_s,
        first={"hours": t},
    )  # fmt: skip
    cfc = np.asarray(cache_cf(cf, feature), dtype=float)
    b = BACKLOG_GB.check("backlog_gb", backlog_gb)
    frac = _fraction(above_864_fraction)
    knee = _algorithm_change_gb()

    def solve(p, s):
        a = p if offered_mb_s is None else np.minimum(OFFERED_MB_S.check("offered_mb_s", offered_mb_s), p)
        net = np.maximum(_net_fill_mb_s(a, p, s, cfc, pf), 0.0)
        eff = (t * _S_PER_H * net / _MB_PER_GB + b) / theta
        with np.errstate(divide="ignore", invalid="ignore"):
            above = np.where(eff > knee, (eff - knee) / frac if frac > 0 else np.inf, 0.0)
        return np.where(eff > knee, knee + above, eff)

    if peak_mb_s is not None and sustained_mb_s is not None:
        p, s = _rates(cf, 1.0, feature, peak_mb_s, sustained_mb_s)
        return result(solve(p, s))
    # rates from write_rate depend (slowly) on the capacity: iterate to a fixed point,
    # taking the rates at the guess held within Table 3's range for the feature (72 to
    # 1728 GB with PAF; to 1152 GB, the largest base/EHPO configuration, without)
    lo = tvc_range()[0]
    hi = float(np.max(product_configurations(feature)))
    guess = np.full(np.broadcast(t, cfc, b).shape, hi)
    for _ in range(60):
        at = np.clip(np.where(np.isfinite(guess), guess, hi), lo, hi)
        p, s = _rates(cf, at, feature, None, None)
        new = solve(p, s)
        done = np.allclose(new, guess, rtol=1e-12, atol=1e-9, equal_nan=True)
        guess = new
        if done:
            break
    warn_outside(
        "tvc needed [GB]", guess[np.isfinite(guess)], lo, hi, source=f"ibm-vts-b18-2000, Table 3 ({feature})"
    )
    return result(guess)
