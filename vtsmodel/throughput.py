"""Host throughput of the IBM 3494 VTS model B18: write, read, the typical mix, and what binds.

Source: ibm-vts-b18-2000 (the B18 performance white paper, v4.0, July 2000). Every rate is
in host MB/s (uncompressed bytes as the host sees them, MB = 10^6 bytes) for 32 KB blocks,
BUFNO 20 and eight ESCON channels at short distance, the paper's measurement conditions,
unless ``block_kb`` and ``escon_km`` say otherwise.

Contents
--------
:func:`write_rate`
    Peak and sustained write for base, EHPO (Eq. 3, Table 4: :func:`ehpo_coefficients`)
    and PAF (fitted, :func:`vtsmodel.paf.paf_fit`).
:func:`read_rate`, :func:`typical_mix_rate`
    Read hit and recall (Table 1, fitted, :func:`vtsmodel.paf.read_fit`) and the 60/40
    mix (Sec. 3.5.6).
:func:`paf_small_tvc_factor`
    The PAF small-cache reduction.

The module's concerns live in their own modules, and their names are importable from here
too: the fitted curves in :mod:`vtsmodel.paf` (:func:`soft_min`, :func:`paf_fit`,
:func:`read_fit` and their parameters), the host attachment in :mod:`vtsmodel.attachment`
(:func:`block_size_factor`, Table 2; :func:`escon_distance_factor`, Sec. 8.2;
:func:`scsi_rate`, Sec. 6), the product in :mod:`vtsmodel.b18`. The bottleneck view (what
each resource could carry, which binds) is :mod:`vtsmodel.bottleneck`.

Features
--------
``"base"``
    No compression: the host rate does not depend on CF. The rate is Table 4's line at
    CF = 1 (Sec. 3.5.3: "Their intercept at CF = 1 corresponds to the base VTS B18
    throughput"): an input. Table 4 at CF 1 then reproduces "between 8 and 10" (peak,
    Sec. 3.1.1) and "between 5.5 and 7" MB/s (sustained, Sec. 3.1.2).
``"ehpo"``
    Eq. 3 with Table 4: host MB/s = m * CF + b, the coefficients depending on the TVC.
``"paf"``
    A saturating curve fitted to the stated points of Secs. 3.5.3 and 3.5.4 (see
    :func:`paf_fit`): calibrated to them, so they are its inputs, not evidence.

Which Table 4 column applies to which TVC
-----------------------------------------
The TVC is given by capacity (``tvc_gb``) or by Table 3 configuration (``tvc_config``);
:func:`vtsmodel.b18.resolve_tvc` finds its capacity and its place on Table 4's axis: a
configuration's RAID layout picks the column, a capacity alone is taken as Table 3's
configuration of it (144, 216 and 288 GB on 9 GB HDDs: 16.73, 18.36 and 19.51 MB/s EHPO
sustained at CF 3), and any other capacity is read on the 36 GB-HDD axis, interpolated
linearly in log2 between the columns (see :mod:`vtsmodel.b18`). The PAF peak curve does
not depend on the TVC (Fig. 8's PAF curve averages all cache sizes); the PAF sustained
curve is lowered for smaller caches by :func:`paf_small_tvc_factor`, a project assumption
for Sec. 3.5.3's "somewhat reduced".
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import (
    ExtrapolationWarning,
    as_scalar,
    broadcast,
    result,
    warn_outside,
)
from vtsmodel.attachment import (
    SCSI_COMPRESSED_MBS,
    _block_gain,
    _distance,
    block_size_factor,
    escon_distance_factor,
    scsi_rate,
)
from vtsmodel.b18 import FEATURE, resolve_tvc, tvc_range
from vtsmodel.paf import (
    PAF_ANCHOR_PROVENANCE,
    PAF_ANCHORS,
    PAF_KNEE_SHARPNESS,
    PAF_PARAMS,
    READ_KINDS,
    READ_PARAMS,
    _paf_curve,
    paf_fit,
    read_fit,
    soft_min,
)
from vtsmodel.quantities import (
    BLOCK_KB,
    CF,
    ESCON_KM,
    MODE,
    PAF_SMALL_TVC_REDUCTION_INPUT,
    READ_HIT,
    READ_KIND,
    TVC_GB,
    WRITE_FRACTION,
)

__all__ = [
    "MODES",
    "PAF_KNEE_SHARPNESS",
    "PAF_ANCHORS",
    "PAF_ANCHOR_PROVENANCE",
    "PAF_PARAMS",
    "PAF_SMALL_TVC_REDUCTION",
    "READ_KINDS",
    "READ_PARAMS",
    "SCSI_COMPRESSED_MBS",
    "block_size_factor",
    "ehpo_coefficients",
    "escon_distance_factor",
    "paf_fit",
    "paf_small_tvc_factor",
    "read_fit",
    "read_rate",
    "scsi_rate",
    "soft_min",
    "typical_mix_rate",
    "write_rate",
]

#: The two write benchmarks: "peak" (write/fill, no copy to tape) and "sustained".
MODES = ("sustained", "peak")

_SRC = "ibm-vts-b18-2000"


@functools.cache
def _t4_tvc() -> tuple[float, ...]:
    """Table 4's columns, by 36 GB-HDD capacity (288, 576, 1152). [GB]"""
    return tuple(float(c) for c in np.unique(load("vts_ehpo_coefficients")["tvc_gb"]))


#: Reduction of the PAF sustained rate at the smallest PAF cache (216 GB) relative to
#: 1728 GB: a **project assumption**. Sec. 3.5.3 says 216 to 864 GB perform
#: "approximately the same, but smaller TVC capacity appears to correlate with a somewhat
#: reduced throughput" and the Fig. 9 caption that smaller caches "reduce the throughput
#: somewhat"; how much was only in the lost figures. 5 % is read as "somewhat" within
#: "approximately the same"; it falls linearly in log2(capacity) to 0 at 1728 GB. [-]
PAF_SMALL_TVC_REDUCTION = 0.05


@functools.cache
def _limits() -> dict[str, tuple[float, float] | float]:
    """Validated ranges, read from their data rows."""
    f = load("vts_facts")
    return {
        "EQ3_CF_RANGE": (f.value("eq3_cf_min"), f.value("eq3_cf_max")),  # Appendix B
        "EQ3_HOST_MBS_MAX": f.value("eq3_host_mbs_max"),  # Appendix B
        "TVC_RANGE": tvc_range(),  # Table 3
    }


def __getattr__(name: str):
    # EQ3_CF_RANGE [-], EQ3_HOST_MBS_MAX [MB/s] and TVC_RANGE [GB]: read from data/.
    if name in ("EQ3_CF_RANGE", "EQ3_HOST_MBS_MAX", "TVC_RANGE"):
        return _limits()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _table4() -> dict[str, np.ndarray]:
    t4 = load("vts_ehpo_coefficients")
    out = {}
    for mode in MODES:
        for coef in ("m", "b"):
            out[f"{mode}_{coef}"] = np.array(
                [t4.value(mode=mode, coefficient=coef, tvc_gb=c) for c in _t4_tvc()]
            )
    return out


@cites("vts_ehpo_coefficients", "vts_tvc_configs")
@declare(tvc_gb=TVC_GB.but(default=1152.0), mode=MODE)
def ehpo_coefficients(tvc_gb=1152.0, *, mode: str = "sustained", tvc_config: str | None = None):
    """Eq. 3's slope m and intercept b for a TVC, from Table 4.

    The TVC's place on Table 4's axis is :func:`vtsmodel.b18.resolve_tvc`'s: a Table 3
    configuration's RAID layout picks the column; a capacity alone is taken as Table 3's
    configuration of it (144 GB as 8(2+P) of 9 GB HDDs: the "576 /144" column); any other
    capacity is read on the 36 GB-HDD axis. m and b are interpolated linearly in log2 of
    that axis between Table 4's columns at 288, 576 and 1152 GB and held flat outside
    (see :mod:`vtsmodel.b18`).

    Parameters
    ----------
    tvc_gb : float or array_like
        Tape volume cache capacity. [GB]
    mode : {"sustained", "peak"}
        Which benchmark.
    tvc_config : str, optional
        A Table 3 configuration id (:func:`vtsmodel.b18.configurations`); its RAID
        layout picks the column (:func:`vtsmodel.b18.table4_column`) and ``tvc_gb`` is
        ignored. A PAF configuration has no column: its capacity is used.

    Returns
    -------
    m : numpy.ndarray or numpy.float64
        Slope. [MB/s per unit CF]
    b : numpy.ndarray or numpy.float64
        Intercept. [MB/s]

    Warns
    -----
    ExtrapolationWarning, LayoutWarning
        As :func:`vtsmodel.b18.resolve_tvc` for EHPO.

    Notes
    -----
    ibm-vts-b18-2000, Appendix B, Eq. 3 and Table 4; Table 3.
    """
    MODE.check("mode", mode)
    if tvc_config is None:
        TVC_GB.check("tvc_gb", tvc_gb)  # None is no capacity here (resolve_tvc reads it as the default)
    _, axis = resolve_tvc(None if tvc_config is not None else tvc_gb, tvc_config, "ehpo")
    m, b = _coefficients(axis, mode)
    return result(m), result(b)


def _coefficients(axis, mode: str):
    """M and b at a point of Table 4's axis (the 36 GB-HDD capacity of a layout). [GB]"""
    t4 = _table4()
    xp = np.log2(_t4_tvc())
    lx = np.log2(axis)
    m = np.interp(lx, xp, t4[f"{mode}_m"])  # Table 4, flat outside [288, 1152]
    b = np.interp(lx, xp, t4[f"{mode}_b"])
    return m, b


@cites("vts_facts")
@declare(tvc_gb=TVC_GB, reduction=PAF_SMALL_TVC_REDUCTION_INPUT)
def paf_small_tvc_factor(tvc_gb, *, reduction=None):
    """Multiplier on the PAF sustained rate for a cache smaller than 1728 GB (a project assumption).

    ``1 - r * clip(log2(1728 / C) / log2(1728 / 216), 0, 1)``: 1 at 1728 GB and above,
    ``1 - r`` at 216 GB and below, linear in log2(capacity) between. Sec. 3.5.3: "smaller
    TVC capacity appears to correlate with a somewhat reduced throughput"; how much is
    not stated (see :data:`PAF_SMALL_TVC_REDUCTION`).

    Parameters
    ----------
    tvc_gb : float or array_like
        TVC capacity. [GB]
    reduction : float, optional
        ``r``, the reduction at 216 GB; default :data:`PAF_SMALL_TVC_REDUCTION`. [-]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Multiplier in ``[1 - r, 1]``. [-]
    """
    return result(_small_tvc_factor(tvc_gb, reduction, "reduction"))


def _small_tvc_factor(tvc_gb, reduction, name: str):
    """:func:`paf_small_tvc_factor`, the reduction checked under the caller's ``name``."""
    r = as_scalar(name, PAF_SMALL_TVC_REDUCTION_INPUT.check(name, PAF_SMALL_TVC_REDUCTION if reduction is None
                                                              else reduction))  # fmt: skip
    tvc = TVC_GB.check("tvc_gb", tvc_gb)
    f = load("vts_facts")
    small, large = f.value("tvc_capacity_216"), f.value("tvc_capacity_1728")  # Sec. 2
    share = np.clip(np.log2(large / tvc) / np.log2(large / small), 0.0, 1.0)
    return 1.0 - r * share


def _ehpo_rate(cf, axis, mode):
    """Eq. 3 at a point of Table 4's axis (:func:`vtsmodel.b18.resolve_tvc`). [MB/s]"""
    m, b = _coefficients(axis, mode)
    return m * cf + b  # Eq. 3, Table 4


# --- write --------------------------------------------------------------------------


@cites("vts_ehpo_coefficients", "vts_facts", "vts_block_size")
@declare(
    cf=CF, tvc_gb=TVC_GB.but(default=None), feature=FEATURE, mode=MODE, block_kb=BLOCK_KB, escon_km=ESCON_KM,
    paf_small_tvc_reduction=PAF_SMALL_TVC_REDUCTION_INPUT,
)  # fmt: skip
def write_rate(
    cf,
    tvc_gb=None,
    *,
    feature: str = "paf",
    mode: str = "sustained",
    block_kb=32.0,
    escon_km=0.0,
    tvc_config: str | None = None,
    paf_small_tvc_reduction=None,
):
    """Host write throughput of the VTS B18 by data compressibility and TVC capacity.

    - ``"base"``: ``m(tvc) + b(tvc)``, Table 4 at CF = 1, whatever CF (no compression).
    - ``"ehpo"``: ``m(tvc) * CF + b(tvc)`` (Eq. 3, Table 4), capped at the PAF rate,
      which EHPO never exceeds in the measured range (the cap only acts above CF 7,
      far outside it).
    - ``"paf"``: ``soft_min(s * CF, C * g(block_kb))`` with the fitted
      :data:`PAF_PARAMS` (:func:`paf_fit`); ``g`` is :func:`block_size_factor` in peak
      mode (the peak ceiling is the host channels', Table 2) and 1 in sustained mode
      (its ceiling is the processor's, which Table 2 did not measure). The peak rate
      does not depend on the TVC (Fig. 8 caption: "an average of measurements on all
      cache sizes"); the sustained rate is lowered for caches below 1728 GB by
      :func:`paf_small_tvc_factor`, a project assumption ("somewhat reduced", Sec. 3.5.3).

    The TVC is given by capacity (``tvc_gb``) or by Table 3 configuration
    (``tvc_config``), which also fixes the RAID layout and so the Table 4 column (see
    :func:`vtsmodel.b18.resolve_tvc`); without either, the largest configuration of the feature
    (PAF 1728 GB, base and EHPO 1152 GB).

    Parameters
    ----------
    cf : float or array_like
        Data compressibility: host bytes per byte stored in the cache. Data that does
        not compress has CF = 1; values below 1 are rejected. [-]
    tvc_gb : float or array_like, optional
        Tape volume cache capacity; mapped onto Table 4's columns as the module
        docstring says. [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option installed (PAF includes EHPO).
    mode : {"sustained", "peak"}
        ``"peak"``: peak write/fill, the rate while the cache absorbs data with little
        copying to tape, for limited times; ``"sustained"``: the steady state with copying
        to tape keeping up (Secs. 3.1.1, 3.1.2).
    block_kb : float or array_like
        Host block size; the paper's rates are for 32 KB (the QSAM limit). [KB]
    escon_km : float or array_like
        ESCON distance between host and VTS; the rate is multiplied by
        :func:`escon_distance_factor` (Sec. 8.2 rule of thumb). [km]
    tvc_config : str, optional
        A Table 3 configuration id (``vts_tvc_configs``, e.g. ``"tvc_144_9gb_base_ehpo"``),
        instead of ``tvc_gb``.
    paf_small_tvc_reduction : float, optional
        PAF sustained rate reduction at 216 GB; default :data:`PAF_SMALL_TVC_REDUCTION`
        (a project assumption). [-]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host write rate. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        For CF above 4 (EHPO and PAF: Appendix B, Sec. 3.5.1), an EHPO rate above
        50 MB/s (Appendix B), a TVC outside Table 3's 72 to 1728 GB, a configuration or
        capacity Table 3 does not offer with the feature (:func:`vtsmodel.b18.resolve_tvc`), or a
        block size outside Table 2's 32 to 64 KB.

    Notes
    -----
    ibm-vts-b18-2000, Secs. 3.1.1, 3.1.2, 3.5.3, 3.5.4, Table 2, Appendix B (Eq. 3,
    Table 4). Conditions: BUFNO 20, eight ESCON channels (EHPO curves: four or more),
    short channel distance (see :func:`escon_distance_factor`).

    Examples
    --------
    >>> round(float(write_rate(3, 1152, feature="ehpo")), 2)
    19.51
    """
    FEATURE.check("feature", feature)
    MODE.check("mode", mode)
    c = CF.check("cf", cf)
    tvc, axis = resolve_tvc(tvc_gb, tvc_config, feature)
    broadcast(
        cf=c,
        tvc_gb=tvc,
        block_kb=BLOCK_KB.check("block_kb", block_kb),
        escon_km=ESCON_KM.check("escon_km", escon_km),
    )
    if paf_small_tvc_reduction is not None:
        PAF_SMALL_TVC_REDUCTION_INPUT.check("paf_small_tvc_reduction", paf_small_tvc_reduction)
    g = _block_gain(block_kb, "write") if mode == "peak" else _block_gain(block_kb, None)
    dist = _distance(escon_km, "write")
    if feature == "base":
        return result((_ehpo_rate(1.0, axis, mode) + 0.0 * c + 0.0 * g) * dist)  # Table 4 at CF = 1
    lims = _limits()
    warn_outside("cf", c, *lims["EQ3_CF_RANGE"], source=f"{_SRC}, Appendix B, Sec. 3.5.1", stacklevel=3)
    paf = _paf_write(c, tvc, mode, g, paf_small_tvc_reduction)
    if feature == "paf":
        return result(paf * dist)
    ehpo = _ehpo_rate(c, axis, mode)  # Eq. 3, Table 4
    warn_outside(
        "EHPO host rate [MB/s]",
        ehpo,
        None,
        lims["EQ3_HOST_MBS_MAX"],
        source=f"{_SRC}, Appendix B",
        stacklevel=3,
    )
    return result(np.minimum(ehpo, paf) * dist)


def _paf_write(c, tvc, mode, g=1.0, reduction=None):
    """The PAF write curve, with the small-cache reduction in sustained mode."""
    s, cap = PAF_PARAMS[mode]
    rate = _paf_curve(c, s, cap * g) + 0.0 * tvc
    if mode == "sustained":
        rate = rate * _small_tvc_factor(tvc, reduction, "paf_small_tvc_reduction")
    return rate


# --- read ---------------------------------------------------------------------------
@cites("vts_read_rates", "vts_block_size")
@declare(
    cf=CF.but(valid=(1.0, 2.66), source=f"{_SRC}, Table 1"),
    kind=READ_KIND,
    block_kb=BLOCK_KB,
    escon_km=ESCON_KM,
)
def read_rate(cf, *, kind: str = "hit", block_kb=32.0, escon_km=0.0):
    """Host read throughput of the VTS B18 with PAF: read hit or read recall, by CF.

    ``soft_min(s * CF, C)`` with :data:`READ_PARAMS` fitted to Table 1 (:func:`read_fit`).
    For hits, the ceiling ``C`` scales with :func:`block_size_factor` for reads (Table 2:
    64 -> 89 MB/s from 32 to 64 KB). Recalls are bound by the tape drives, which the host
    block size does not change; Table 2 has no recall row, so ``block_kb`` does not
    change the recall rate.

    Parameters
    ----------
    cf : float or array_like
        Data compressibility (>= 1). [-]
    kind : {"hit", "recall"}
        ``"hit"``: the volume is in the cache; ``"recall"``: it is read back from tape
        (read miss) first.
    block_kb : float or array_like
        Host block size. [KB]
    escon_km : float or array_like
        ESCON distance; the rate is multiplied by :func:`escon_distance_factor` for reads
        (-2.3 % per km, Sec. 8.2). [km]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host read rate. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        Outside CF 1 to 2.66, the values Table 1 measured.

    Notes
    -----
    ibm-vts-b18-2000, Table 1 (64 active virtual drives, 800 MB volumes; the TVC capacity
    "does not appear to be a significant factor"), Table 2, Secs. 3.5.4, 3.5.5.
    """
    READ_KIND.check("kind", kind)
    c = CF.check("cf", cf)
    broadcast(
        cf=c, block_kb=BLOCK_KB.check("block_kb", block_kb), escon_km=ESCON_KM.check("escon_km", escon_km)
    )
    t1 = load("vts_read_rates")["cf"]
    warn_outside("cf", c, float(np.min(t1)), float(np.max(t1)), source=f"{_SRC}, Table 1 (CF 1 and 2.66)")
    s, cap = READ_PARAMS[kind]
    g = _block_gain(block_kb, "read" if kind == "hit" else None)
    return result(_paf_curve(c, s, cap * g) * _distance(escon_km, "read"))


@cites("vts_facts", "vts_read_rates", "vts_ehpo_coefficients")
@declare(
    cf=CF, tvc_gb=TVC_GB.but(default=None), feature=FEATURE, write_fraction=WRITE_FRACTION.but(default=None),
    read_hit_ratio=READ_HIT.but(default=None), block_kb=BLOCK_KB, escon_km=ESCON_KM,
    paf_small_tvc_reduction=PAF_SMALL_TVC_REDUCTION_INPUT,
)  # fmt: skip
def typical_mix_rate(
    cf,
    tvc_gb=None,
    *,
    feature: str = "paf",
    write_fraction=None,
    read_hit_ratio=None,
    block_kb=32.0,
    escon_km=0.0,
    tvc_config: str | None = None,
    paf_small_tvc_reduction=None,
):
    """Total host throughput of a write/read mix in steady state (the paper's Fig. 9 model).

    Combining rule (a modelling choice; the paper does not print its model): the parts
    share one machine in proportion to their bytes, each part using it for the time its
    bytes take at that part's own maximum rate, so the total is the weighted harmonic
    mean

    ``X = 1 / (w / W + (1 - w) h / H + (1 - w)(1 - h) / R)``

    with ``w`` the write fraction, ``h`` the read hit ratio, ``W`` the sustained write
    rate ("steady state operation", Sec. 3.5.6), ``H`` the read hit and ``R`` the read
    recall rate. With PAF, ``H`` and ``R`` are Table 1's (:func:`read_rate`); without it,
    the hit and recall rates are taken equal to the peak and sustained write rates, which
    they "correspond approximately to" (Sec. 3.5.4). A smaller PAF cache lowers ``W``
    (:func:`paf_small_tvc_factor`): the Fig. 9 caption's "smaller caches will reduce the
    throughput somewhat", by a project assumption.

    Parameters
    ----------
    cf : float or array_like
        Data compressibility (>= 1). [-]
    tvc_gb : float or array_like, optional
        TVC capacity; default the largest configuration of the feature. [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option.
    write_fraction : float or array_like, optional
        Share of the host bytes that are (scratch) writes; default the typical mix's 0.6
        (data row ``typical_mix_write_fraction``). [-]
    read_hit_ratio : float or array_like, optional
        Share of the read bytes found in the cache; default the typical mix's 0.5
        (``typical_mix_read_hit_ratio``). [-]
    block_kb : float or array_like
        Host block size (moves the read-hit and peak-write ceilings, Table 2). [KB]
    escon_km : float or array_like
        ESCON distance: writes and reads lose 0.6 % and 2.3 % per km (Sec. 8.2). [km]
    tvc_config : str, optional
        A Table 3 configuration id, instead of ``tvc_gb`` (see :func:`write_rate`).
    paf_small_tvc_reduction : float, optional
        As for :func:`write_rate`. [-]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Total host rate, writes plus reads. [MB/s]

    Notes
    -----
    ibm-vts-b18-2000, Sec. 3.5.6 ("a 60/40 mix of writes/reads ... a 50% hit ratio"),
    Fig. 9 caption (1728 GB), Table 1, Sec. 3.5.4.
    """
    FEATURE.check("feature", feature)
    facts = load("vts_facts")
    w = WRITE_FRACTION.check("write_fraction", facts.value("typical_mix_write_fraction") if write_fraction is None
                             else write_fraction)  # fmt: skip
    h = READ_HIT.check("read_hit_ratio", facts.value("typical_mix_read_hit_ratio") if read_hit_ratio is None
                       else read_hit_ratio)  # fmt: skip
    arrays = {"cf": CF.check("cf", cf), "write_fraction": w, "read_hit_ratio": h}
    if tvc_gb is not None:
        arrays["tvc_gb"] = TVC_GB.check("tvc_gb", tvc_gb)
    broadcast(
        **arrays, block_kb=BLOCK_KB.check("block_kb", block_kb), escon_km=ESCON_KM.check("escon_km", escon_km)
    )
    kw = {"block_kb": block_kb, "escon_km": escon_km, "tvc_config": tvc_config}
    big_w = write_rate(cf, tvc_gb, feature=feature, mode="sustained", paf_small_tvc_reduction=paf_small_tvc_reduction,
                       **kw)  # fmt: skip
    if feature == "paf":
        rkw = {"block_kb": block_kb, "escon_km": escon_km}
        big_h, big_r = read_rate(cf, kind="hit", **rkw), read_rate(cf, kind="recall", **rkw)
    else:
        # Sec. 3.5.4: hits ~ peak write, recalls ~ sustained write; at distance, as reads.
        to_read = _distance(escon_km, "read") / _distance(escon_km, "write")
        with warnings.catch_warnings():  # the same TVC warned once, for the sustained rate
            warnings.simplefilter("ignore", ExtrapolationWarning)
            big_h = write_rate(cf, tvc_gb, feature=feature, mode="peak", **kw) * to_read
        big_r = big_w * to_read
    seconds_per_mb = w / big_w + (1 - w) * h / big_h + (1 - w) * (1 - h) / big_r  # Sec. 3.5.6 mix
    return result(1.0 / seconds_per_mb)
