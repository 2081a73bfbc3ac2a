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
peak write, export took about 25 % and import about 50 % longer; with saturated recall
activity, either took about 50 % longer. Import/export in turn halves the maximum recall
rate (:data:`RECALL_RATE_FACTOR`); write and read-hit rates are "not greatly affected".
"""

from __future__ import annotations

import functools

from vtsmodel._tables import cites, load
from vtsmodel._validation import as_float_array, check_choice, result, warn_outside

__all__ = [
    "INTERFERENCE",
    "RECALL_RATE_FACTOR",
    "export_minutes",
    "import_minutes",
    "interference_factor",
]

_SRC = "ibm-vts-b18-2000"

#: What else the VTS is doing during the task: ``"none"``, ``"peak_write"`` (the host
#: saturating it in peak write) or ``"recall"`` (saturated recall activity).
INTERFERENCE = ("none", "peak_write", "recall")

#: Multiplier on the maximum recall (read miss) rate while import/export runs:
#: "read miss (recall) maximum rate was reduced to approximately half" (Sec. 7). [-]
RECALL_RATE_FACTOR = 0.5


@functools.cache
def _terms(task: str) -> tuple[float, float, float]:
    t = load("vts_import_export")
    return tuple(t.value(task=task, term=term) for term in ("per_mb", "per_mount", "per_search"))


@cites("vts_facts")
def interference_factor(task: str = "export", interference: str = "none"):
    """Multiplier on an import or export task's time for what else the VTS is doing.

    Parameters
    ----------
    task : {"export", "import"}
        Which task.
    interference : {"none", "peak_write", "recall"}
        Concurrent work: none; the host saturating the VTS in peak write (export +25 %,
        import +50 %); saturated recall activity (+50 % for both).

    Returns
    -------
    float
        Multiplier, at least 1. [-]

    Notes
    -----
    ibm-vts-b18-2000, Sec. 7 (a ten-volume export with 13 mounts and a ten-volume import
    with 6 mounts, 2.3 GB each).
    """
    check_choice("task", task, ("export", "import"))
    check_choice("interference", interference, INTERFERENCE)
    facts = load("vts_facts")
    if interference == "none":
        return 1.0
    if interference == "recall":
        return 1.0 + facts.value("ie_elongation_recall")  # Sec. 7, "about 50%"
    return 1.0 + facts.value(f"ie_{task}_elongation_peak_write")  # Sec. 7, 25 % / 50 %


def _task_minutes(task, mb, mounts, searches, interference):
    facts = load("vts_facts")
    mb_ = as_float_array("mb", mb, lo=0.0)
    min_mounts = facts.value("ie_min_mounts_per_volume")
    m = as_float_array("mounts", mounts, lo=min_mounts, integer=True)
    s = as_float_array("searches", searches, lo=0.0, integer=True)
    k = interference_factor(task, interference)
    max_mb = facts.value("ie_trend_data_gb") * (1.0 + facts.value("ie_outlier_extra_data")) * 1000.0
    src = f"{_SRC}, Sec. 7 (fitted on 18 mounts or less, about 2.3 GB; outliers 64 % more)"
    warn_outside("mb", mb_, None, max_mb, source=src, stacklevel=4)
    warn_outside("mounts", m, None, facts.value("ie_trend_mounts_max"), source=src, stacklevel=4)
    per_mb, per_mount, per_search = _terms(task)
    return result(k * (per_mb * mb_ + per_mount * m + per_search * s))  # Eq. 1 / Eq. 2


@cites("vts_import_export", "vts_facts")
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
