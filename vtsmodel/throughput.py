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
:func:`write_capacities`, :func:`binding_resource`, :func:`bottleneck_rate`
    The bottleneck view: what each resource (host channels, processor, cache disks, tape
    drives) could carry, calibrated by :class:`Resources` to reproduce Table 4 and the
    PAF curves, and which one binds.

Features
--------
``"base"``
    No compression: the host rate does not depend on CF. The rate is Table 4's line at
    CF = 1 (Sec. 3.5.3: "Their intercept at CF = 1 corresponds to the base VTS B18
    throughput"), which reproduces "between 8 and 10" (peak, Sec. 3.1.1) and "between 5.5
    and 7" MB/s (sustained, Sec. 3.1.2).
``"ehpo"``
    Eq. 3 with Table 4: host MB/s = m * CF + b, the coefficients depending on the TVC.
``"paf"``
    A saturating curve fitted to the stated points of Secs. 3.5.3 and 3.5.4 (see
    :func:`paf_fit`).

Which Table 4 column applies to which TVC capacity
--------------------------------------------------
Table 4 prints three columns, read (data notes, ambiguity 1) as the 36 GB-HDD capacities
288 GB (4(2+P); printed "≤288"), 576 GB (8(2+P)) and 1152 GB (16(2+P)). For a capacity
``tvc_gb`` the coefficients m and b are interpolated linearly in log2(tvc_gb) between
those three columns and held flat outside them:

=============  ==============================================================
TVC [GB]       coefficients used
=============  ==============================================================
<= 288         column "≤288 /72 GB" (72, 144, 216, 288 GB: the 4(2+P) layouts)
432            58.5 % of the way from the 288 to the 576 column
               (log2(432 / 288) = 0.585)
576            column "576 /144 GB"
864            58.5 % of the way from the 576 to the 1152 column
>= 1152        column "1152 /288 GB" (1152 GB; and 1728 GB, the capacity the
               paper names for the 19.5 MB/s that this column gives, Sec. 3.5.3)
=============  ==============================================================

The 9 GB-HDD configurations (72/144/288 GB on 4/8/16(2+P)) share their RAID layout's
column in the paper; this function takes the capacity only and maps them by capacity,
as above. The PAF curves do not depend on the TVC: Sec. 3.5.3 says 216 to 864 GB perform
"approximately the same" as 1728 GB (somewhat lower, by an amount the text does not give),
and Fig. 8's PAF peak curve averages all cache sizes.
"""

from __future__ import annotations

import functools

import numpy as np

from vtsmodel._tables import cites, load
from vtsmodel._validation import as_float_array, check_choice, result, warn_outside
from vtsmodel.fit import Fit, fit_curve

__all__ = [
    "FEATURES",
    "MODES",
    "PAF_KNEE_SHARPNESS",
    "PAF_PARAMS",
    "READ_KINDS",
    "READ_PARAMS",
    "SCSI_COMPRESSED_MBS",
    "block_size_factor",
    "ehpo_coefficients",
    "escon_distance_factor",
    "paf_fit",
    "read_fit",
    "read_rate",
    "scsi_rate",
    "soft_min",
    "typical_mix_rate",
    "write_rate",
]

#: The B18 performance options, in increasing order of capability.
FEATURES = ("base", "ehpo", "paf")
#: The two write benchmarks: "peak" (write/fill, no copy to tape) and "sustained".
MODES = ("sustained", "peak")

_SRC = "ibm-vts-b18-2000"
#: Table 4's columns, by 36 GB-HDD capacity [GB].
_T4_TVC = (288.0, 576.0, 1152.0)
#: CF range Eq. 3 was validated over (Appendix B) [-].
EQ3_CF_RANGE = (1.0, 4.0)
#: Host rate above which Eq. 3 is a non-validated extrapolation (Appendix B). [MB/s]
EQ3_HOST_MBS_MAX = 50.0
#: Largest and smallest TVC capacities of Table 3. [GB]
TVC_RANGE = (72.0, 1728.0)

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


def soft_min(a, b, n: float = PAF_KNEE_SHARPNESS):
    """Smooth minimum of two positive rates, ``(a**-n + b**-n) ** (-1/n)``.

    Always below ``min(a, b)``, by at most a factor ``2 ** (-1/n)`` where ``a == b``;
    tends to ``min(a, b)`` as ``n`` grows. It is how two resources in series combine
    when neither is far below the other.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    lo = np.minimum(a, b)
    # Scaled by the smaller rate so that large n does not overflow.
    return lo * ((a / lo) ** -n + (b / lo) ** -n) ** (-1.0 / n)


def _paf_curve(cf, s, c):
    return soft_min(s * np.asarray(cf, dtype=float), c)


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
            (cf_max, plateau, "paf_sustained_knee_cf"),
        ]
    blocks = load("vts_block_size")
    top = facts.value("paf_peak_max")
    return [
        (1.0, facts.value("paf_peak_cf1"), "paf_peak_cf1"),  # Sec. 3.5.4, "about 45 MB/s" at CF 1
        (facts.value("paf_peak_max_min_cf"), top, "paf_peak_max"),  # "about 80" down to CF 2.0
        (_cell(blocks, "peak_write_32kb", "cf"), blocks.value("peak_write_32kb"), "peak_write_32kb"),
        (cf_max, top, "conclusion_peak_write_max"),  # Sec. 9, "up to 80 MB/s"
    ]


@functools.cache
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
    check_choice("mode", mode, MODES)
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
                [t4.value(mode=mode, coefficient=coef, tvc_gb=c) for c in _T4_TVC]
            )
    return out


@cites("vts_ehpo_coefficients")
def ehpo_coefficients(tvc_gb=1152.0, *, mode: str = "sustained"):
    """Eq. 3's slope m and intercept b for a TVC capacity, from Table 4.

    m and b are interpolated linearly in log2(tvc_gb) between Table 4's columns at 288,
    576 and 1152 GB (36 GB-HDD capacities) and held flat below 288 and above 1152 GB (see
    the module docstring for the mapping of the product's capacities).

    Parameters
    ----------
    tvc_gb : float or array_like
        Tape volume cache capacity. [GB]
    mode : {"sustained", "peak"}
        Which benchmark.

    Returns
    -------
    m : numpy.ndarray or numpy.float64
        Slope. [MB/s per unit CF]
    b : numpy.ndarray or numpy.float64
        Intercept. [MB/s]

    Notes
    -----
    ibm-vts-b18-2000, Appendix B, Eq. 3 and Table 4.
    """
    check_choice("mode", mode, MODES)
    tvc = as_float_array("tvc_gb", tvc_gb, lo=0.0, lo_open=True)
    t4 = _table4()
    xp = np.log2(_T4_TVC)
    lx = np.log2(tvc)
    m = np.interp(lx, xp, t4[f"{mode}_m"])  # Table 4, flat outside [288, 1152]
    b = np.interp(lx, xp, t4[f"{mode}_b"])
    return result(m), result(b)


def _check_tvc(tvc_gb):
    tvc = as_float_array("tvc_gb", tvc_gb, lo=0.0, lo_open=True)
    warn_outside("tvc_gb", tvc, *TVC_RANGE, source=f"{_SRC}, Table 3 (72 to 1728 GB)", stacklevel=4)
    return tvc


def _check_cf(cf):
    return as_float_array("cf", cf, lo=1.0)


def _ehpo_rate(cf, tvc, mode):
    m, b = ehpo_coefficients(tvc, mode=mode)
    return m * cf + b  # Eq. 3, Table 4


def _paf_rate(cf, mode):
    s, c = PAF_PARAMS[mode]
    return _paf_curve(cf, s, c)


# --- block size and channel distance -------------------------------------------------


@functools.cache
def _block_overhead(operation: str) -> tuple[float, float]:
    """Per-block time ``t0`` and streaming time per KB ``1/bw`` fitted to Table 2."""
    t2 = load("vts_block_size")
    op = {"write": "peak_write", "read": "read_hit"}[operation]
    t32 = 32.0 / t2.value(f"{op}_32kb")  # time per 32 KB block, in units of KB / (MB/s)
    t64 = 64.0 / t2.value(f"{op}_64kb")
    per_kb = (t64 - t32) / 32.0
    return t32 - 32.0 * per_kb, per_kb


@cites("vts_block_size")
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
    check_choice("operation", operation, ("write", "read"))
    b = as_float_array("block_kb", block_kb, lo=0.0, lo_open=True)
    warn_outside("block_kb", b, 32.0, 64.0, source=f"{_SRC}, Table 2 (32 and 64 KB)")
    t0, per_kb = _block_overhead(operation)
    rate = b / (t0 + b * per_kb)
    return result(rate / (32.0 / (t0 + 32.0 * per_kb)))


@cites("vts_facts")
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
        For a negative distance, or one at which the linear rule leaves no throughput
        (``km >= 1 / loss``: 43 km for reads).

    Warns
    -----
    ExtrapolationWarning
        Beyond the 25 km the rule is stated for.

    Notes
    -----
    ibm-vts-b18-2000, Sec. 8.2.
    """
    check_choice("direction", direction, ("write", "read"))
    facts = load("vts_facts")
    loss = facts.value(f"escon_distance_{direction}_loss")  # Sec. 8.2, per km
    d = as_float_array("km", km, lo=0.0, hi=1.0 / loss, hi_open=True)
    warn_outside("km", d, 0.0, facts.value("escon_distance_rule_max"), source=f"{_SRC}, Sec. 8.2 (25 km)")
    return result(1.0 - loss * d)  # Sec. 8.2


def _block_gain(block_kb, operation: str | None):
    """``block_size_factor`` for ``operation`` (checked input, 1 at 32 KB); ``None``: 1."""
    if np.ndim(block_kb) == 0 and isinstance(block_kb, int | float) and float(block_kb) == 32.0:
        return np.asarray(1.0)
    b = as_float_array("block_kb", block_kb, lo=0.0, lo_open=True)
    if operation is None:
        return np.ones_like(b)
    return np.asarray(block_size_factor(b, operation=operation))


def _distance(escon_km, direction: str):
    if np.ndim(escon_km) == 0 and isinstance(escon_km, int | float) and float(escon_km) == 0.0:
        return np.asarray(1.0)
    return np.asarray(escon_distance_factor(escon_km, direction=direction))


# --- write --------------------------------------------------------------------------


@cites("vts_ehpo_coefficients", "vts_facts", "vts_block_size")
def write_rate(
    cf, tvc_gb=1728.0, *, feature: str = "paf", mode: str = "sustained", block_kb=32.0, escon_km=0.0
):
    """Host write throughput of the VTS B18 by data compressibility and TVC capacity.

    - ``"base"``: ``m(tvc) + b(tvc)``, Table 4 at CF = 1, whatever CF (no compression).
    - ``"ehpo"``: ``m(tvc) * CF + b(tvc)`` (Eq. 3, Table 4), capped at the PAF rate,
      which EHPO never exceeds in the measured range (the cap only acts above CF 7,
      far outside it).
    - ``"paf"``: ``soft_min(s * CF, C * g(block_kb))`` with the fitted
      :data:`PAF_PARAMS` (:func:`paf_fit`), independent of the TVC capacity; ``g`` is
      :func:`block_size_factor` in peak mode (the peak ceiling is the host channels',
      Table 2) and 1 in sustained mode (its ceiling is the processor's, which Table 2
      did not measure).

    Parameters
    ----------
    cf : float or array_like
        Data compressibility: host bytes per byte stored in the cache. Data that does
        not compress has CF = 1; values below 1 are rejected. [-]
    tvc_gb : float or array_like
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

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host write rate. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        For CF above 4 (EHPO and PAF: Appendix B, Sec. 3.5.1), an EHPO rate above
        50 MB/s (Appendix B), a TVC outside Table 3's 72 to 1728 GB, or a block size
        outside Table 2's 32 to 64 KB.

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
    check_choice("feature", feature, FEATURES)
    check_choice("mode", mode, MODES)
    c = _check_cf(cf)
    tvc = _check_tvc(tvc_gb)
    g = _block_gain(block_kb, "write") if mode == "peak" else _block_gain(block_kb, None)
    dist = _distance(escon_km, "write")
    if feature == "base":
        return result((_ehpo_rate(1.0, tvc, mode) + 0.0 * c + 0.0 * g) * dist)  # Table 4 at CF = 1
    warn_outside("cf", c, *EQ3_CF_RANGE, source=f"{_SRC}, Appendix B, Sec. 3.5.1", stacklevel=3)
    s, cap = PAF_PARAMS[mode]
    paf = _paf_curve(c, s, cap * g) + 0.0 * tvc
    if feature == "paf":
        return result(paf * dist)
    ehpo = _ehpo_rate(c, tvc, mode)  # Eq. 3, Table 4
    warn_outside(
        "EHPO host rate [MB/s]", ehpo, None, EQ3_HOST_MBS_MAX, source=f"{_SRC}, Appendix B", stacklevel=3
    )
    return result(np.minimum(ehpo, paf) * dist)


# --- read ---------------------------------------------------------------------------

#: Read kinds: ``"hit"`` (volume in the cache) and ``"recall"`` (read miss: from tape).
READ_KINDS = ("hit", "recall")

#: Shipped parameters of the read curves ``rate = soft_min(s * CF, C)`` by kind,
#: ``(s [MB/s per unit CF], C [MB/s])``, fitted by :func:`read_fit` to Table 1.
READ_PARAMS = {
    "hit": (57.73555, 64.00101),
    "recall": (18.00092, 38.39865),
}


@functools.cache
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
    check_choice("kind", kind, READ_KINDS)
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
    check_choice("kind", kind, READ_KINDS)
    c = _check_cf(cf)
    warn_outside("cf", c, 1.0, 2.66, source=f"{_SRC}, Table 1 (CF 1 and 2.66)")
    s, cap = READ_PARAMS[kind]
    g = _block_gain(block_kb, "read" if kind == "hit" else None)
    return result(_paf_curve(c, s, cap * g) * _distance(escon_km, "read"))


@cites("vts_facts", "vts_read_rates", "vts_ehpo_coefficients")
def typical_mix_rate(
    cf,
    tvc_gb=1728.0,
    *,
    feature: str = "paf",
    write_fraction=0.6,
    read_hit_ratio=0.5,
    block_kb=32.0,
    escon_km=0.0,
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
    they "correspond approximately to" (Sec. 3.5.4).

    Parameters
    ----------
    cf : float or array_like
        Data compressibility (>= 1). [-]
    tvc_gb : float or array_like
        TVC capacity. [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option.
    write_fraction : float or array_like
        Share of the host bytes that are (scratch) writes; 0.6 in the paper's 60/40
        typical mix. [-]
    read_hit_ratio : float or array_like
        Share of the read bytes found in the cache; 0.5 in the typical mix. [-]
    block_kb : float or array_like
        Host block size (moves the read-hit and peak-write ceilings, Table 2). [KB]
    escon_km : float or array_like
        ESCON distance: writes and reads lose 0.6 % and 2.3 % per km (Sec. 8.2). [km]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Total host rate, writes plus reads. [MB/s]

    Notes
    -----
    ibm-vts-b18-2000, Sec. 3.5.6 ("a 60/40 mix of writes/reads ... a 50% hit ratio"),
    Fig. 9 caption (1728 GB), Table 1, Sec. 3.5.4.
    """
    check_choice("feature", feature, FEATURES)
    w = as_float_array("write_fraction", write_fraction, lo=0.0, hi=1.0)
    h = as_float_array("read_hit_ratio", read_hit_ratio, lo=0.0, hi=1.0)
    kw = {"block_kb": block_kb, "escon_km": escon_km}
    big_w = write_rate(cf, tvc_gb, feature=feature, mode="sustained", **kw)
    if feature == "paf":
        big_h, big_r = read_rate(cf, kind="hit", **kw), read_rate(cf, kind="recall", **kw)
    else:
        # Sec. 3.5.4: hits ~ peak write, recalls ~ sustained write; at distance, as reads.
        to_read = _distance(escon_km, "read") / _distance(escon_km, "write")
        big_h = write_rate(cf, tvc_gb, feature=feature, mode="peak", **kw) * to_read
        big_r = big_w * to_read
    seconds_per_mb = w / big_w + (1 - w) * h / big_h + (1 - w) * (1 - h) / big_r  # Sec. 3.5.6 mix
    return result(1.0 / seconds_per_mb)


# --- SCSI attachment ----------------------------------------------------------------

#: Capacity of the stage behind a SCSI adapter that carries compressed bytes, in
#: compressed MB/s. A modelling choice, not a source value, chosen so that the Sec. 6
#: statements hold: compressibility has "little effect" at 64 KB and below (under 5 %
#: here), while at 256 KB "throughput improves with data compressibility" and reaches
#: "about 23 MB/s" from CF 2.7 up. [MB/s]
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
    check_choice("direction", direction, ("write", "read"))
    n = as_float_array("adapters", adapters, lo=1, hi=2, integer=True)
    b = as_float_array("block_kb", block_kb, lo=0.0, lo_open=True)
    c = _check_cf(cf)
    facts = load("vts_facts")
    warn_outside("block_kb", b, 4.0, 256.0, source=f"{_SRC}, Sec. 6 (4 to 256 KB)")
    warn_outside("cf", c, 1.0, 4.0, source=f"{_SRC}, Sec. 6")
    t0, per_kb = _scsi_block_curve()
    per_block = b / (t0 + b * per_kb)  # Sec. 6: 1 MB/s at 4 KB, 23 MB/s at 256 KB
    if direction == "write":
        per_adapter = soft_min(per_block, SCSI_COMPRESSED_MBS * c)
    else:
        lo_kb = facts.value("scsi_cf_insensitive_block_max")
        hi_kb = facts.value("scsi_write_256kb_block")
        share = np.clip(np.log2(b / lo_kb) / np.log2(hi_kb / lo_kb), 0.0, 1.0)
        per_adapter = per_block * (1.0 - facts.value("scsi_read_below_write_max") * share) + 0.0 * c
    return result(n * per_adapter)
