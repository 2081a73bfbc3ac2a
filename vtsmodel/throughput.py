"""Host throughput of the IBM 3494 VTS model B18: write, read, the typical mix, and what binds.

Source: ibm-vts-b18-2000 (the B18 performance white paper, v4.0, July 2000). Every rate is
in host MB/s (uncompressed bytes as the host sees them, MB = 10^6 bytes) for 32 KB blocks,
BUFNO 20 and eight ESCON channels at short distance, the paper's measurement conditions,
unless ``block_kb`` and ``escon_km`` say otherwise.

Contents
--------
:func:`write_rate`
    Peak and sustained write for base, EHPO (Eq. 3, Table 4) and PAF (fitted, :func:`paf_fit`).
:func:`read_rate`, :func:`typical_mix_rate`
    Read hit and recall (Table 1, fitted, :func:`read_fit`) and the 60/40 mix (Sec. 3.5.6).
:func:`block_size_factor`, :func:`escon_distance_factor`, :func:`scsi_rate`
    Table 2's block-size effect, the Sec. 8.2 distance rule, the Sec. 6 SCSI attachment.
:func:`paf_small_tvc_factor`
    The PAF small-cache reduction.

The bottleneck view (what each resource could carry, which binds) is
:mod:`vtsmodel.bottleneck`.

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
    ConstraintError,
    ExtrapolationWarning,
    as_scalar,
    broadcast,
    cached,
    result,
    warn_outside,
)
from vtsmodel.b18 import FEATURE, resolve_tvc, tvc_range
from vtsmodel.fit import Fit, fit_curve
from vtsmodel.quantities import (
    ADAPTERS,
    BLOCK_KB,
    CF,
    DIRECTION,
    ESCON_KM,
    KNEE_SHARPNESS,
    MODE,
    PAF_SMALL_TVC_REDUCTION_INPUT,
    RATE_MB_S,
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


#: Sharpness ``n`` of the soft minimum used by the PAF curves (a modelling choice, not a
#: source value): ``n = 10`` keeps every stated PAF point within 1.5 MB/s (3 %) while the
#: knee stays smooth. The larger ``n``, the closer the curve is to ``min(s * CF, C)``.
PAF_KNEE_SHARPNESS = 10.0

#: Shipped parameters of the PAF curves ``rate = soft_min(s * CF, C)``, by mode:
#: ``(s [MB/s per unit CF], C [MB/s])``, fitted by :func:`paf_fit` to the stated points
#: (ibm-vts-b18-2000, Secs. 3.5.3, 3.5.4, Table 2). A test refits them from ``data/``.
PAF_PARAMS = {
    "sustained": (19.29663, 50.54586),
    "peak": (45.56400, 80.61326),
}


#: The points of the PAF fits that the project places (calibration anchors), by id: a
#: statement turned into a point at a CF the text does not print. Their provenance is
#: this description, not a data row's id.
PAF_ANCHORS = {
    "sustained": "anchor:paf_sustained_flat_cf4",
    "peak": "anchor:paf_peak_80_cf4",
}
#: What each anchor stands for.
PAF_ANCHOR_PROVENANCE = {
    PAF_ANCHORS["sustained"]: (
        "project anchor: 50 MB/s placed at CF 4, the highest CF measured (ibm-vts-b18-2000, "
        "Sec. 3.5.1), from 'At higher compression, the PAF throughput is not sensitive to "
        "compression factor' (Sec. 3.5.3)"
    ),
    PAF_ANCHORS["peak"]: (
        "project anchor: 80 MB/s placed at CF 4, the highest CF measured (Sec. 3.5.1), from "
        "'a peak write throughput of up to 80 MB/s' (Sec. 9) and 'about 80 MB/s' down to CF 2.0 "
        "(Sec. 3.5.4)"
    ),
}


@declare(a=RATE_MB_S, b=RATE_MB_S, n=KNEE_SHARPNESS)
def soft_min(a, b, n: float = PAF_KNEE_SHARPNESS):
    """Smooth minimum of two positive rates, ``(a**-n + b**-n) ** (-1/n)``.

    Always below ``min(a, b)``, by at most a factor ``2 ** (-1/n)`` where ``a == b``;
    tends to ``min(a, b)`` as ``n`` grows. It is how two resources in series combine
    when neither is far below the other. Rates must be above 0 (``soft_min(0, 5)`` has
    no meaning: the formula divides by the smaller rate).
    """
    a = RATE_MB_S.check("a", a)
    b = RATE_MB_S.check("b", b)
    n = KNEE_SHARPNESS.check("n", n)
    broadcast(a=a, b=b, n=n)
    return _soft_min(a, b, n)


def _soft_min(a, b, n=PAF_KNEE_SHARPNESS):
    """:func:`soft_min` of checked (or internal, positive) rates."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    lo = np.minimum(a, b)
    # Scaled by the smaller rate so that large n does not overflow.
    return lo * ((a / lo) ** -n + (b / lo) ** -n) ** (-1.0 / n)


def _paf_curve(cf, s, c):
    return _soft_min(s * np.asarray(cf, dtype=float), c)


def _cell(table, row_id: str, column: str) -> float:
    """One cell of a data table, by row id and column name."""
    return float(table[column][list(table["id"]).index(row_id)])


def _paf_points(mode: str):
    """The PAF points of ``mode`` as (CF, host MB/s, row id), from the data tables."""
    facts = load("vts_facts")
    cf_max = facts.value("meas_cf_max")  # Sec. 3.5.1: curves measured up to CF 4
    if mode == "sustained":
        plateau = facts.value("paf_sustained_cf3")
        return [
            (1.0, facts.value("paf_sustained_cf1"), "paf_sustained_cf1"),  # Sec. 3.5.3, "about 19"
            (facts.value("paf_sustained_knee_cf"), plateau, "paf_sustained_cf3"),  # "50 MB/s" at CF 3
            # "At higher compression, the PAF throughput is not sensitive to compression factor."
            (cf_max, plateau, PAF_ANCHORS["sustained"]),
        ]
    blocks = load("vts_block_size")
    top = facts.value("paf_peak_max")
    return [
        (1.0, facts.value("paf_peak_cf1"), "paf_peak_cf1"),  # Sec. 3.5.4, "about 45 MB/s" at CF 1
        (facts.value("paf_peak_max_min_cf"), top, "paf_peak_max"),  # "about 80" down to CF 2.0
        (_cell(blocks, "peak_write_32kb", "cf"), blocks.value("peak_write_32kb"), "peak_write_32kb"),
        (cf_max, top, PAF_ANCHORS["peak"]),  # Sec. 9, "up to 80 MB/s", placed at CF 4
    ]


@declare(mode=MODE)
@cached
def paf_fit(mode: str = "sustained") -> Fit:
    """Fit the PAF write curve of ``mode`` to the paper's stated points.

    The curve is ``rate = soft_min(s * CF, C)``: proportional to CF while a resource that
    works in compressed bytes binds, saturating at a ceiling ``C`` that does not depend on
    CF (see :func:`write_capacities`), joined smoothly with :data:`PAF_KNEE_SHARPNESS`.

    Points fitted (ibm-vts-b18-2000):

    - sustained: about 19 MB/s at CF 1, 50 MB/s at CF 3, and "not sensitive to
      compression factor" above CF 3, entered as 50 MB/s at CF 4, the highest CF
      measured (Secs. 3.5.1, 3.5.3);
    - peak: about 45 MB/s at CF 1, about 80 MB/s "down to data compressibility as low
      as 2.0" (Sec. 3.5.4), 80 MB/s at CF 2.66 (Table 2, 32 KB), up to 80 MB/s (Sec. 9),
      entered at CF 4.

    The CF 4 points are placed by the project (:data:`PAF_ANCHORS`, with their own
    provenance in :data:`PAF_ANCHOR_PROVENANCE`). Every point is an input: the curves are
    calibrated to these statements, so agreeing with them is no evidence.

    Parameters
    ----------
    mode : {"sustained", "peak"}
        Which benchmark.

    Returns
    -------
    Fit
        Parameters ``s`` [MB/s per unit CF] and ``C`` [MB/s], their standard errors, the
        residuals and the ids of the data rows.
    """
    MODE.check("mode", mode)
    pts = _paf_points(mode)
    x, y, ids = zip(*pts, strict=True)
    return fit_curve(
        f"paf_{mode}",
        _paf_curve,
        x,
        y,
        p0=(y[0], max(y)),
        param_names=("s", "C"),
        bounds=((1e-3, 1e-3), (np.inf, np.inf)),
        ids=ids,
    )


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


def _check_cf(cf):
    return CF.check("cf", cf)


def _ehpo_rate(cf, axis, mode):
    """Eq. 3 at a point of Table 4's axis (:func:`vtsmodel.b18.resolve_tvc`). [MB/s]"""
    m, b = _coefficients(axis, mode)
    return m * cf + b  # Eq. 3, Table 4


# --- block size and channel distance -------------------------------------------------


@functools.cache
def _block_overhead(operation: str) -> tuple[float, float]:
    """Per-block time ``t0`` and streaming time per KB ``1/bw`` fitted to Table 2."""
    t2 = load("vts_block_size")
    op = {"write": "peak_write", "read": "read_hit"}[operation]
    rows = t2.where(operation=op)
    b_small, b_large = float(np.min(rows["block_kb"])), float(np.max(rows["block_kb"]))  # 32, 64 KB
    t_small = b_small / rows.value(block_kb=b_small)  # time per block, in units of KB / (MB/s)
    t_large = b_large / rows.value(block_kb=b_large)
    per_kb = (t_large - t_small) / (b_large - b_small)
    return t_small - b_small * per_kb, per_kb


def _reference_block_kb() -> float:
    """The block size of the paper's rates, 32 KB (Table 2's smaller block; Sec. 3.5.7). [KB]"""
    return float(np.min(load("vts_block_size")["block_kb"]))


@cites("vts_block_size")
@declare(block_kb=BLOCK_KB, operation=DIRECTION)
def block_size_factor(block_kb, *, operation: str = "write"):
    """Gain of a channel-bound host rate from larger blocks, relative to 32 KB blocks.

    Each block costs a fixed time ``t0`` (channel protocol and I/O handling) plus its
    bytes at a streaming rate ``bw``, so a channel-bound rate is
    ``r(B) = B / (t0 + B / bw)``. ``t0`` and ``bw`` are solved from Table 2's two points
    (32 and 64 KB at CF 2.66, 8 ESCON, PAF): peak write 80 -> 103 MB/s, read hit
    64 -> 89 MB/s. The factor is ``r(B) / r(32)``.

    Parameters
    ----------
    block_kb : float or array_like
        Host block size. [KB]
    operation : {"write", "read"}
        ``"write"``: peak write (Table 2 row 1); ``"read"``: read hit (row 2).

    Returns
    -------
    numpy.ndarray or numpy.float64
        Multiplier on a channel-bound rate measured with 32 KB blocks. [-]

    Warns
    -----
    ExtrapolationWarning
        Outside 32 to 64 KB, the block sizes Table 2 measured.

    Notes
    -----
    ibm-vts-b18-2000, Table 2 and Sec. 3.5.7 ("more than 25%").
    """
    DIRECTION.check("operation", operation)
    b = BLOCK_KB.check("block_kb", block_kb)
    t2 = load("vts_block_size")["block_kb"]
    warn_outside(
        "block_kb", b, float(np.min(t2)), float(np.max(t2)), source=f"{_SRC}, Table 2 (32 and 64 KB)"
    )
    t0, per_kb = _block_overhead(operation)
    rate = b / (t0 + b * per_kb)
    ref = _reference_block_kb()
    return result(rate / (ref / (t0 + ref * per_kb)))


@cites("vts_facts")
@declare(km=ESCON_KM, direction=DIRECTION)
def escon_distance_factor(km, *, direction: str = "write"):
    """Host throughput multiplier for the ESCON distance between host and VTS.

    ``factor = 1 - loss * km``: "reduced approximately 0.6% and 2.3%, respectively, per
    kilometer" for writes and reads, relative to distances small compared with 1 km,
    32 KB blocks, IBM ESCON directors.

    Parameters
    ----------
    km : float or array_like
        Channel distance between host and VTS. [km]
    direction : {"write", "read"}
        Which host throughput.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Multiplier in (0, 1]. [-]

    Raises
    ------
    ValueError
        For a negative distance; a ``ConstraintError`` for one at which the linear rule
        leaves no throughput (``km >= 1 / loss``: 43 km for reads, 167 km for writes).

    Warns
    -----
    ExtrapolationWarning
        Beyond the 25 km the rule is stated for.

    Notes
    -----
    ibm-vts-b18-2000, Sec. 8.2.
    """
    DIRECTION.check("direction", direction)
    return result(_distance_factor(ESCON_KM.check("km", km), direction, "km", stacklevel=4))


def _distance_factor(d, direction: str, name: str, *, stacklevel: int = 5):
    """The Sec. 8.2 factor of a checked distance ``d``; ``name`` is the caller's parameter."""
    facts = load("vts_facts")
    loss = facts.value(f"escon_distance_{direction}_loss")  # Sec. 8.2, per km
    if np.any(d >= 1.0 / loss):
        raise ConstraintError(
            f"{name}={float(np.max(d)):g} leaves no {direction} throughput: the rule of Sec. 8.2 "
            f"(-{100 * loss:.2g} % per km) reaches 0 at {1.0 / loss:.4g} km (valid range [0, {1.0 / loss:.4g}))"
        )
    warn_outside(
        name, d, 0.0, facts.value("escon_distance_rule_max"), source=f"{_SRC}, Sec. 8.2 (25 km)",
        stacklevel=stacklevel,
    )  # fmt: skip
    return 1.0 - loss * d  # Sec. 8.2


def _block_gain(block_kb, operation: str | None):
    """``block_size_factor`` for ``operation`` (checked input, 1 at 32 KB); ``None``: 1."""
    if (
        np.ndim(block_kb) == 0
        and isinstance(block_kb, int | float)
        and float(block_kb) == _reference_block_kb()
    ):
        return np.asarray(1.0)
    b = BLOCK_KB.check("block_kb", block_kb)
    if operation is None:
        return np.ones_like(b)
    return np.asarray(block_size_factor(b, operation=operation))


def _distance(escon_km, direction: str):
    if np.ndim(escon_km) == 0 and isinstance(escon_km, int | float) and float(escon_km) == 0.0:
        return np.asarray(1.0)
    return _distance_factor(ESCON_KM.check("escon_km", escon_km), direction, "escon_km")


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
    c = _check_cf(cf)
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

#: Read kinds: ``"hit"`` (volume in the cache) and ``"recall"`` (read miss: from tape).
READ_KINDS = ("hit", "recall")

#: Shipped parameters of the read curves ``rate = soft_min(s * CF, C)`` by kind,
#: ``(s [MB/s per unit CF], C [MB/s])``, fitted by :func:`read_fit` to Table 1.
READ_PARAMS = {
    "hit": (57.73555, 64.00101),
    "recall": (18.00092, 38.39865),
}


@declare(kind=READ_KIND)
@cached
def read_fit(kind: str = "hit") -> Fit:
    """Fit the read curve of ``kind`` to Table 1 (8-ESCON VTS with PAF).

    Same form as the PAF write curves, ``soft_min(s * CF, C)``: a resource working in
    compressed bytes at low CF (cache disks for hits, tape drives for recalls: "the tape
    drive limited read recall bandwidth", Sec. 3.5.3) under a ceiling that does not
    depend on CF (the channels for hits: "the asymmetry in the details of the ESCON
    data transmission", Sec. 3.5.4). Two points, two parameters: the curve passes
    through both and the parameters' uncertainty is undefined (reported as inf).

    Parameters
    ----------
    kind : {"hit", "recall"}
        Which read.

    Returns
    -------
    Fit
    """
    READ_KIND.check("kind", kind)
    t1 = load("vts_read_rates").where(operation=kind)
    x, y, ids = t1["cf"], t1["value"], tuple(t1["id"])
    return fit_curve(
        f"read_{kind}",
        _paf_curve,
        x,
        y,
        p0=(float(y[0]), float(max(y))),
        param_names=("s", "C"),
        bounds=((1e-3, 1e-3), (np.inf, np.inf)),
        ids=ids,
    )


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
    c = _check_cf(cf)
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
    arrays = {"cf": _check_cf(cf), "write_fraction": w, "read_hit_ratio": h}
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


# --- SCSI attachment ----------------------------------------------------------------

#: Capacity of the stage behind a SCSI adapter that carries compressed bytes, in
#: compressed MB/s. Not a source value: calibrated, chosen so that the Sec. 6 statements
#: hold (compressibility has "little effect" at 64 KB and below, under 5 % here, while
#: at 256 KB "throughput improves with data compressibility" and reaches "about 23 MB/s"
#: from CF 2.7 up); those statements are its inputs, not evidence for it. [MB/s]
SCSI_COMPRESSED_MBS = 12.0


@functools.cache
def _scsi_block_curve() -> tuple[float, float]:
    """Per-block time and time per KB of one SCSI adapter, through Sec. 6's two points."""
    f = load("vts_facts")
    b1, r1 = f.value("scsi_write_4kb_block"), f.value("scsi_write_4kb")
    b2, r2 = f.value("scsi_write_256kb_block"), f.value("scsi_write_256kb")
    per_kb = (b2 / r2 - b1 / r1) / (b2 - b1)
    return b1 / r1 - b1 * per_kb, per_kb


@cites("vts_facts")
@declare(block_kb=BLOCK_KB, cf=CF.but(default=2.7), adapters=ADAPTERS, direction=DIRECTION)
def scsi_rate(block_kb, cf=2.7, *, adapters: int = 1, direction: str = "write"):
    """Host throughput through the SCSI attachment (peak/fill), by block size and CF.

    Per adapter, writes: ``soft_min(B / (t0 + B / bw), K * CF)``: a per-block curve
    through "near one MB/s with 4 KB blocking" and "about 23 MB/s with 256 KB blocks"
    (at CF 2.7 and above), under a compressed-byte stage of :data:`SCSI_COMPRESSED_MBS`
    that makes the rate grow with CF at large blocks only. Reads "follow the write
    throughput dependence", insensitive to CF (Fig. 13), "up to twenty percent" lower at
    the larger blocks: the model lowers them by 20 % x ``log2(B/64) / log2(256/64)``
    between 64 and 256 KB, 0 below, 20 % above. Two adapters carry twice one adapter's
    rate (two cards at 256 KB, CF 4: about 47 MB/s observed, 46 modelled).

    Parameters
    ----------
    block_kb : float or array_like
        Host block size. [KB]
    cf : float or array_like
        Data compressibility (>= 1). [-]
    adapters : {1, 2}
        SCSI host attachment features installed ("Up to two"), each used with both of
        its busses.
    direction : {"write", "read"}
        Host writes or read hits.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host rate through the SCSI adapters. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        Outside 4 to 256 KB or CF 1 to 4.

    Notes
    -----
    ibm-vts-b18-2000, Sec. 6 (Figs. 11 to 13: EHPO, 288 GB TVC, no ESCON load). The
    ESCON and SCSI inputs "share an aggregate maximum" of about 47 MB/s.
    """
    DIRECTION.check("direction", direction)
    facts = load("vts_facts")
    n = ADAPTERS.check("adapters", adapters)  # its hi is scsi_adapters_max (a test checks)
    b = BLOCK_KB.check("block_kb", block_kb)
    c = _check_cf(cf)
    broadcast(block_kb=b, cf=c, adapters=n)
    lo_b, hi_b = facts.value("scsi_write_4kb_block"), facts.value("scsi_write_256kb_block")
    warn_outside("block_kb", b, lo_b, hi_b, source=f"{_SRC}, Sec. 6 ({lo_b:g} to {hi_b:g} KB)")
    warn_outside("cf", c, *_limits()["EQ3_CF_RANGE"], source=f"{_SRC}, Secs. 3.5.1, 6")
    t0, per_kb = _scsi_block_curve()
    per_block = b / (t0 + b * per_kb)  # Sec. 6: 1 MB/s at 4 KB, 23 MB/s at 256 KB
    if direction == "write":
        per_adapter = _soft_min(per_block, SCSI_COMPRESSED_MBS * c)
    else:
        lo_kb = facts.value("scsi_cf_insensitive_block_max")
        hi_kb = facts.value("scsi_write_256kb_block")
        share = np.clip(np.log2(b / lo_kb) / np.log2(hi_kb / lo_kb), 0.0, 1.0)
        per_adapter = per_block * (1.0 - facts.value("scsi_read_below_write_max") * share) + 0.0 * c
    return result(n * per_adapter)
