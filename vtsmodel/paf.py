"""The rate curves fitted to the paper's points: the PAF write curves and the read curves.

Source: ibm-vts-b18-2000. Both are ``rate = soft_min(s * CF, C)`` (:func:`soft_min`):
proportional to CF while a resource that works in compressed bytes binds, under a ceiling
that does not depend on CF. The PAF write curves (:func:`paf_fit`, :data:`PAF_PARAMS`)
are fitted to the stated points of Secs. 3.5.3, 3.5.4 and Table 2 and to two points the
project places (:data:`PAF_ANCHORS`); the read curves (:func:`read_fit`,
:data:`READ_PARAMS`) pass through Table 1's hit and recall rates, measured on an 8-ESCON
VTS with PAF. Each is calibrated to those statements, so they are its inputs, not
evidence. :mod:`vtsmodel.throughput` evaluates them for the host.
"""

from __future__ import annotations

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import load
from vtsmodel._validation import broadcast, cached
from vtsmodel.fit import Fit, fit_curve
from vtsmodel.quantities import KNEE_SHARPNESS, MODE, RATE_MB_S, READ_KIND

__all__ = [
    "PAF_ANCHORS",
    "PAF_ANCHOR_PROVENANCE",
    "PAF_KNEE_SHARPNESS",
    "PAF_PARAMS",
    "READ_KINDS",
    "READ_PARAMS",
    "paf_fit",
    "read_fit",
    "soft_min",
]

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
    CF (see :func:`vtsmodel.bottleneck.write_capacities`), joined smoothly with :data:`PAF_KNEE_SHARPNESS`.

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
