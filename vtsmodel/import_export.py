"""Import/Export task time of the VTS B18 (Eqs. 1 and 2) and how other work stretches it.

Source: ibm-vts-b18-2000, Sec. 7. The trend lines of Fig. 14:

``t_e = 0.00296 * MB + 2.36 * m + 0.35 * s``   (Eq. 1, export, minutes)
``t_i = 0.00276 * MB + 3.75 * m + 0.35 * s``   (Eq. 2, import, minutes)

with MB the physical (compressed) megabytes moved, ``m`` the cartridge mounts (source
plus destination) and ``s`` the searches along a tape (about 21 s each, for selected
volumes on the same cartridge). They were fitted on tasks of at most 18 mounts and about
2.3 GB (outliers with 64 % more data also fit) on a three-frame 3494 with one
dual-gripper accessor; a single-volume task can be off by up to two minutes either way.

Other work on the VTS stretches a task (Sec. 7): with the host saturating the VTS in
peak write, a ten-volume export of 13 mounts took about 25 % and a ten-volume import of
6 mounts about 50 % longer, and "the less mount activity an import/export task requires
the more it is affected (relatively)"; with saturated recall activity, either took about
50 % longer. The model stretches a task under peak write by ``1 + k / mounts``, one
contention constant ``k`` fitted to the two measurements (:func:`contention_mounts`):
a calibration, so those two percentages and the direction are its inputs. Import/export
in turn halves the maximum recall rate (:func:`recall_rate_factor`); write and read-hit
rates are "not greatly affected".
"""

from __future__ import annotations

import functools

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import broadcast, result, warn_outside
from vtsmodel.quantities import DATA_MB, MOUNTS, SEARCHES, TASK
from vtsmodel.quantities import INTERFERENCE as INTERFERENCE_INPUT

#: At least two mounts, "two physical tape cartridge mounts" for a single volume (Sec. 7,
#: data row ie_min_mounts_per_volume; a test checks).
_MOUNTS = MOUNTS.but(lo=2, default=None)

__all__ = [
    "INTERFERENCE",
    "contention_mounts",
    "export_minutes",
    "import_minutes",
    "interference_factor",
    "recall_rate_factor",
]

_SRC = "ibm-vts-b18-2000"

#: What else the VTS is doing during the task: ``"none"``, ``"peak_write"`` (the host
#: saturating it in peak write) or ``"recall"`` (saturated recall activity).
INTERFERENCE = ("none", "peak_write", "recall")


@cites("vts_facts")
def recall_rate_factor() -> float:
    """Multiplier on the maximum recall (read miss) rate while import/export runs. [-]

    "read miss (recall) maximum rate was reduced to approximately half" (ibm-vts-b18-2000,
    Sec. 7; data row ``recall_rate_factor_during_ie``).
    """
    return load("vts_facts").value("recall_rate_factor_during_ie")


def __getattr__(name: str):
    # RECALL_RATE_FACTOR [-]: read from its data row (see recall_rate_factor).
    if name == "RECALL_RATE_FACTOR":
        return recall_rate_factor()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
@cites("vts_facts")
def contention_mounts() -> float:
    """The contention constant ``k`` of ``1 + k / mounts`` under peak write, fitted. [count]

    Least squares through Sec. 7's two measurements, export +25 % at 13 mounts and
    import +50 % at 6 (ibm-vts-b18-2000, Sec. 7, data rows ``ie_*``):
    ``k = (e1 / m1 + e2 / m2) / (1 / m1**2 + 1 / m2**2)`` = 3.04 mount-equivalents, giving
    +23.4 % and +50.7%. A calibration: the form 1 + k / mounts embodies "the less mount
    activity an import/export task requires the more it is affected (relatively)".
    """
    f = load("vts_facts")
    points = [
        (f.value("ie_load_test_export_mounts"), f.value("ie_export_elongation_peak_write")),
        (f.value("ie_load_test_import_mounts"), f.value("ie_import_elongation_peak_write")),
    ]
    return sum(e / m for m, e in points) / sum(1.0 / m**2 for m, _ in points)


@functools.cache
def _terms(task: str) -> tuple[float, float, float]:
    t = load("vts_import_export")
    return tuple(t.value(task=task, term=term) for term in ("per_mb", "per_mount", "per_search"))


@cites("vts_facts")
@declare(task=TASK, interference=INTERFERENCE_INPUT, mounts=_MOUNTS)
def interference_factor(task: str = "export", interference: str = "none", *, mounts=None):
    """Multiplier on an import or export task's time for what else the VTS is doing.

    - ``"none"``: 1.
    - ``"peak_write"`` (the host saturating the VTS in peak write): ``1 + k / mounts``
      with ``k`` = :func:`contention_mounts`, calibrated to export +25 % at 13 mounts and
      import +50 % at 6 (Sec. 7): the fewer the mounts, the more a task is stretched.
    - ``"recall"`` (saturated recall activity): 1.5, "about 50%", whatever the mounts
      (the measurement gives no mount count).

    Parameters
    ----------
    task : {"export", "import"}
        Which task.
    interference : {"none", "peak_write", "recall"}
        Concurrent work.
    mounts : int or array_like, optional
        The task's cartridge mounts; default the measured task's (export 13, import 6),
        which gives back about the measured 25 % and 50 %. [count]

    Returns
    -------
    numpy.float64 or numpy.ndarray
        Multiplier, at least 1. [-]

    Notes
    -----
    ibm-vts-b18-2000, Sec. 7 (a ten-volume export with 13 mounts and a ten-volume import
    with 6 mounts, 2.3 GB each).
    """
    TASK.check("task", task)
    INTERFERENCE_INPUT.check("interference", interference)
    facts = load("vts_facts")
    if mounts is None:
        mounts = facts.value(f"ie_load_test_{task}_mounts")  # the measured task
    m = _MOUNTS.check("mounts", mounts)
    if interference == "none":
        return result(np.ones_like(m))
    if interference == "recall":
        return result(np.ones_like(m) + facts.value("ie_elongation_recall"))  # Sec. 7, "about 50%"
    return result(1.0 + contention_mounts() / m)  # Sec. 7: the fewer mounts, the more affected


def _task_minutes(task, mb, mounts, searches, interference):
    facts = load("vts_facts")
    TASK.check("task", task)
    INTERFERENCE_INPUT.check("interference", interference)
    mb_ = DATA_MB.check("mb", mb)
    m = _MOUNTS.check("mounts", mounts)
    s = SEARCHES.check("searches", searches)
    broadcast(mb=mb_, mounts=m, searches=s)
    k = interference_factor(task, interference, mounts=m)
    max_mb = facts.value("ie_trend_data_gb") * (1.0 + facts.value("ie_outlier_extra_data")) * 1000.0
    src = f"{_SRC}, Sec. 7 (fitted on 18 mounts or less, about 2.3 GB; outliers 64 % more)"
    warn_outside("mb", mb_, None, max_mb, source=src, stacklevel=4)
    warn_outside("mounts", m, None, facts.value("ie_trend_mounts_max"), source=src, stacklevel=4)
    per_mb, per_mount, per_search = _terms(task)
    return result(k * (per_mb * mb_ + per_mount * m + per_search * s))  # Eq. 1 / Eq. 2


@cites("vts_import_export", "vts_facts")
@declare(mb=DATA_MB, mounts=_MOUNTS, searches=SEARCHES, interference=INTERFERENCE_INPUT)
def export_minutes(mb, mounts, searches=0, *, interference: str = "none"):
    """Time of an export task, Eq. 1, stretched by concurrent work.

    ``t = k * (0.00296 * MB + 2.36 * mounts + 0.35 * searches)`` with ``k`` from
    :func:`interference_factor`.

    Parameters
    ----------
    mb : float or array_like
        Physical (compressed) data moved. [MB]
    mounts : int or array_like
        Cartridge mounts, source plus destination; at least 2 ("two physical tape
        cartridge mounts" for a single volume). [-]
    searches : int or array_like
        Searches along a tape between selected volumes (about 21 s each). [-]
    interference : {"none", "peak_write", "recall"}
        Concurrent work on the VTS.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Task time. [min]

    Warns
    -----
    ExtrapolationWarning
        Above 18 mounts or about 3.8 GB (2.3 GB and outliers with 64 % more).

    Notes
    -----
    ibm-vts-b18-2000, Sec. 7, Eq. 1, Fig. 14. A single-volume task can be off by up to
    two minutes either way (task start overhead).

    Examples
    --------
    >>> round(float(export_minutes(2300, 13)), 2)
    37.49
    """
    return _task_minutes("export", mb, mounts, searches, interference)


@cites("vts_import_export", "vts_facts")
@declare(mb=DATA_MB, mounts=_MOUNTS, searches=SEARCHES, interference=INTERFERENCE_INPUT)
def import_minutes(mb, mounts, searches=0, *, interference: str = "none"):
    """Time of an import task, Eq. 2, stretched by concurrent work.

    ``t = k * (0.00276 * MB + 3.75 * mounts + 0.35 * searches)`` with ``k`` from
    :func:`interference_factor`.

    Parameters
    ----------
    mb : float or array_like
        Physical (compressed) data moved. [MB]
    mounts : int or array_like
        Cartridge mounts, source plus destination; at least 2. [-]
    searches : int or array_like
        Searches along a tape between selected volumes. [-]
    interference : {"none", "peak_write", "recall"}
        Concurrent work on the VTS.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Task time. [min]

    Warns
    -----
    ExtrapolationWarning
        Above 18 mounts or about 3.8 GB.

    Notes
    -----
    ibm-vts-b18-2000, Sec. 7, Eq. 2, Fig. 14.

    Examples
    --------
    >>> round(float(import_minutes(2300, 6)), 2)
    28.85
    """
    return _task_minutes("import", mb, mounts, searches, interference)
