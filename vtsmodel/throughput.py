"""Host throughput of the IBM 3494 VTS model B18: write, read, the typical mix, and what binds.

Source: ibm-vts-b18-2000 (the B18 performance white paper, v4.0, July 2000). Every rate is
in host MB/s (uncompressed bytes as the host sees them, MB = 10^6 bytes) for 32 KB blocks,
BUFNO 20 and eight ESCON channels at short distance, the paper's measurement conditions.

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
    "ehpo_coefficients",
    "paf_fit",
    "soft_min",
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


@cites("vts_ehpo_coefficients", "vts_facts", "vts_block_size")
def write_rate(cf, tvc_gb=1728.0, *, feature: str = "paf", mode: str = "sustained"):
    """Host write throughput of the VTS B18 by data compressibility and TVC capacity.

    - ``"base"``: ``m(tvc) + b(tvc)``, Table 4 at CF = 1, whatever CF (no compression).
    - ``"ehpo"``: ``m(tvc) * CF + b(tvc)`` (Eq. 3, Table 4), capped at the PAF rate,
      which EHPO never exceeds in the measured range (the cap only acts above CF 7,
      far outside it).
    - ``"paf"``: ``soft_min(s * CF, C)`` with the fitted :data:`PAF_PARAMS`
      (:func:`paf_fit`); independent of the TVC capacity.

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

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host write rate. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        For CF above 4 (EHPO and PAF: Appendix B, Sec. 3.5.1), an EHPO rate above
        50 MB/s (Appendix B), or a TVC outside Table 3's 72 to 1728 GB.

    Notes
    -----
    ibm-vts-b18-2000, Secs. 3.1.1, 3.1.2, 3.5.3, 3.5.4, Table 2, Appendix B (Eq. 3,
    Table 4). Conditions: 32 KB blocks, BUFNO 20, eight ESCON channels (EHPO curves:
    four or more), short channel distance.

    Examples
    --------
    >>> round(float(write_rate(3, 1152, feature="ehpo")), 2)
    19.51
    """
    check_choice("feature", feature, FEATURES)
    check_choice("mode", mode, MODES)
    c = _check_cf(cf)
    tvc = _check_tvc(tvc_gb)
    if feature == "base":
        out = _ehpo_rate(1.0, tvc, mode) + 0.0 * c  # Table 4 at CF = 1
        return result(out)
    if feature != "base":
        warn_outside("cf", c, *EQ3_CF_RANGE, source=f"{_SRC}, Appendix B, Sec. 3.5.1", stacklevel=3)
    paf = _paf_rate(c, mode) + 0.0 * tvc
    if feature == "paf":
        return result(paf)
    ehpo = _ehpo_rate(c, tvc, mode)
    warn_outside(
        "EHPO host rate [MB/s]", ehpo, None, EQ3_HOST_MBS_MAX, source=f"{_SRC}, Appendix B", stacklevel=3
    )
    return result(np.minimum(ehpo, paf))
