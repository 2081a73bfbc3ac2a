"""Recall of a volume from physical tape: its parts, and the deterministic recall queue.

A *read miss* (recall) needs "the mounting of a physical tape and transfer of the tape
volume data involved to tape cache" before the VTS presents "ready" to the host
(ibm-vts-b18-2000, Sec. 3.4). The paper states a best case of about two to three minutes
and shows, in Fig. 6, a "theoretical estimate" of the recall mount time vs the recall
queue length; the figure's values and its formula are not in the text, and the
parameters it cites ("Eq. 3 (Sec. 7)") point at an equation that does not exist there
(data/notes/ibm-vts-b18-2000.md, item 4). This module rebuilds the estimate from parts,
reading the reference as Sec. 7's terms. None of the parts is fitted to the best case of
"approximately two to three minutes" (Sec. 3.4): the model reproduces it (121 to 146 s
for Fig. 6's 100 to 800 MB volumes at CF 3 on a 3590B).

The parts of one recall, in order (all in seconds):

``robot_s``
    Robot fetch: the accessor moves the cartridge from its cell to the drive.
    Default borrowed from CERN's tMount component (cern-tape-sizing-2005, tmount_move,
    22.5 s for a Powderhorn silo); the 3494's own figure is not stated in the sources.
``load_s``
    Load and thread the cartridge in the drive. Borrowed from CERN's tmount_mount (15 s,
    "for 9940 type drives"); the 3590 figure is not in the sources. A catalog drive with
    its own load-to-ready time uses it (e.g. LTO-9, 17 s).
``overhead_s``
    The rest of a 3494 VTS mount cycle: the only measurement of a whole mount on the
    3494 VTS is the per-mount term of the export formula, 2.36 min (ibm-vts-b18-2000,
    Eq. 1); the default is that term minus the three borrowed component times
    (robot, load, rewind/unload), i.e. 141.6 - 22.5 - 15 - 45 = 59.1 s. Reading Eq. 1's
    per-mount term as one full mount cycle, and placing the remainder before "ready", is
    an assumption. Eq. 1 (export) rather than Eq. 2 (import, 3.75 min per mount): a recall
    mounts one of the VTS's own stacked cartridges, as an export's source mounts do,
    while an import also handles foreign cartridges from the I/O station; and Eq. 2's
    term gives 204 to 230 s for the same volumes, outside the paper's two to three
    minutes. ``mount_equation="import"`` shows it.
``search_s``
    Locate the volume on the stacked cartridge: "avg. random repositioning time [search
    time] is about 21 seconds" (ibm-vts-b18-2000, Sec. 7).
``read``
    Read the whole volume: ``volume_mb / cf`` megabytes as stored (the VTS compresses
    before writing to tape) at the drive's native rate (data/drive_catalog.csv).
``rewind_unload_s``
    Rewind and unload after the volume is in cache: it does not delay this recall's
    "ready" but keeps the drive busy, so it is part of the service time a queued recall
    waits for. Borrowed from CERN's tmount_rewind_unload (45 s), except for a catalog
    drive with its own average rewind and unload times (e.g. LTO-9, 55 + 30 s).

Time until ready = robot + load + overhead + search + read; the drive's service time
adds rewind/unload.
"""

from __future__ import annotations

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, broadcast, cached, result, warn_outside
from vtsmodel.catalog import drive_names, drive_spec, mount_parts, resolve_drive
from vtsmodel.quantities import (
    CF,
    COPY_DRIVES,
    LOAD_S,
    LOCATE_S,
    MOUNT_EQUATION,
    OVERHEAD_S,
    QUEUE_LENGTH,
    RECALL_DRIVE,
    REWIND_UNLOAD_S,
    ROBOT_S,
    SPEED_MB_S,
    TOTAL_DRIVES,
    VOLUME_MB,
)
from vtsmodel.quantities import (
    DRIVES as RECALL_DRIVES,
)

__all__ = [
    "DRIVES",
    "MOUNT_EQUATIONS",
    "RECALL_PARTS",
    "drive_preset",
    "recall_response_s",
    "recall_drives",
    "recall_parts",
    "recall_ready_s",
    "recall_service_s",
]

#: Drive models with presets of their own; see :func:`drive_preset`. Every drive of
#: :mod:`vtsmodel.catalog` is accepted too, with a preset built from its catalog rows.
DRIVES = ("3590B", "3590E", "STK3480")

#: Which per-mount term of Sec. 7 is one mount cycle: ``"export"`` (Eq. 1, 2.36 min, the
#: default) or ``"import"`` (Eq. 2, 3.75 min).
MOUNT_EQUATIONS = ("export", "import")

#: The parts of a recall, in order, as keys of :func:`recall_parts`.
RECALL_PARTS = ("robot", "load", "overhead", "search", "read", "rewind_unload")

_CATALOG_ID = {
    "3590B": "ibm3590b_native_rate",
    "3590E": "ibm3590e_native_rate",
    "STK3480": "stk3480_observed_read_rate",
}


@declare(drive=RECALL_DRIVE, mount_equation=MOUNT_EQUATION)
@cached
def drive_preset(drive: str = "3590B", mount_equation: str = "export") -> dict[str, float]:
    """Default parts of a recall for a drive model, each from a data row or derived.

    Parameters
    ----------
    drive : str
        "3590B", "3590E", "STK3480", or any catalog drive (key or alias, e.g. "LTO9",
        "TS1160"; :func:`vtsmodel.catalog.drive_choices`).
    mount_equation : {"export", "import"}
        Whose per-mount term is one 3494 mount cycle (3590 drives): Eq. 1's 2.36 min
        (export, the default; see the module docstring for why) or Eq. 2's 3.75 min.

    Returns
    -------
    dict
        ``robot_s``, ``load_s``, ``overhead_s``, ``search_s``, ``rewind_unload_s`` [s] and
        ``rate_mb_s`` [MB/s].

    Notes
    -----
    3590B and 3590E: the rate is the drive catalog's native rate (3590B derived as
    14 MB/s / 1.5, ibm-vts-b18-2000 Sec. 2); robot, load and rewind/unload are CERN's
    tMount components (cern-tape-sizing-2005), the search is the VTS paper's 21 s
    (Sec. 7), and the overhead is the remainder of Eq. 1's per-mount term (2.36 min;
    with ``mount_equation="import"``, Eq. 2's 3.75 min).

    STK3480: the StorageTek single-session mount time, 28 s (stk-acs4400-cray,
    Discussion a.), stands for robot fetch plus load (no further split is stated); no
    search (the StorageTek tests read files from the start of the tape: an assumption
    for this preset); the best observed read rate, 1.92 MB/s; rewind/unload borrowed
    from CERN (45 s), an assumption for a 3480 cartridge.

    Any other catalog drive (a drive outside the 3494 VTS): load, search and
    rewind/unload are the drive's own load-to-ready, average locate and average rewind
    plus unload times where the catalog has them (:func:`vtsmodel.catalog.mount_parts`;
    e.g. LTO-9: 17, 45 and 55 + 30 s, ibm-dtl-lto-perf), CERN's 9940B figures where it
    does not (15, 45 and 45 s: the 3592 family and the T10000s borrow all three); the
    robot is CERN's move (the library's, not the drive's); no overhead (the 3494 VTS's
    mount-cycle remainder does not apply outside it: a modelling choice, a parameter);
    the rate is the drive's native rate (its observed rate where no native rate is
    stated, the STK 9940B).
    """
    MOUNT_EQUATION.check("mount_equation", mount_equation)
    if drive not in DRIVES:
        return _catalog_preset(_check_drive(drive))
    cern = load("cern_facts")
    vts = load("vts_facts")
    rate = load("drive_catalog").value(_CATALOG_ID[drive])
    rewind = cern.value("tmount_rewind_unload")
    if drive == "STK3480":
        return {
            "robot_s": load("stk_facts").value("mount_time_single_session"),
            "load_s": 0.0,
            "overhead_s": 0.0,
            "search_s": 0.0,
            "rate_mb_s": rate,
            "rewind_unload_s": rewind,
        }
    robot = cern.value("tmount_move")
    load_s = cern.value("tmount_mount")
    per_mount_s = (
        load("vts_import_export").value(f"{mount_equation}_per_mount") * 60.0
    )  # Eq. 1 or 2, min -> s
    return {
        "robot_s": robot,
        "load_s": load_s,
        "overhead_s": per_mount_s - robot - load_s - rewind,
        "search_s": vts.value("search_time_avg"),  # Sec. 7, item 3
        "rate_mb_s": rate,
        "rewind_unload_s": rewind,
    }


def _check_drive(drive) -> str:
    """A preset name of :data:`DRIVES`, or the catalog key of a catalog drive."""
    if isinstance(drive, str) and drive in DRIVES:
        return drive
    try:
        return resolve_drive(drive)
    except KeyError:
        raise ValueError(
            f"drive={drive!r} is not valid; choose one of {', '.join(map(repr, DRIVES))} "
            f"or a catalog drive ({', '.join(drive_names())})"
        ) from None


def _catalog_preset(key: str) -> dict[str, float]:
    spec = drive_spec(key)
    parts = mount_parts(key)
    return {
        "robot_s": load("cern_facts").value("tmount_move"),
        "load_s": parts["load"].seconds,
        "overhead_s": 0.0,
        "search_s": parts["locate"].seconds,
        "rate_mb_s": spec.native_rate_mb_s if spec.native_rate_mb_s is not None else spec.speed_mb_s,
        "rewind_unload_s": parts["rewind_unload"].seconds,
    }


def _parts(volume_mb, cf, drive, robot_s, load_s, overhead_s, search_s, rate_mb_s, rewind_unload_s,
           mount_equation="export"):  # fmt: skip
    drive = _check_drive(drive)
    preset = drive_preset(drive, mount_equation)
    vol = _VOLUME.check("volume_mb", volume_mb)
    cf_a = CF.check("cf", load("vts_facts").value("fig6_cf") if cf is None else cf)
    if drive.startswith("3590"):
        vts = load("vts_facts")
        lo, hi = vts.value("eq3_cf_min"), vts.value("eq3_cf_max")
        warn_outside("cf", cf_a, lo, hi, source="ibm-vts-b18-2000, Appendix B: 1 <= CF <= 4")

    def pick(name, value):
        return _PARTS[name].check(name, preset[name] if value is None else value)

    parts = {
        "robot": pick("robot_s", robot_s),
        "load": pick("load_s", load_s),
        "overhead": pick("overhead_s", overhead_s),
        "search": pick("search_s", search_s),
        "read": pick("rate_mb_s", rate_mb_s),
        "rewind_unload": pick("rewind_unload_s", rewind_unload_s),
    }
    broadcast(
        volume_mb=vol, cf=cf_a, **{f"{k}_s" if k != "read" else "rate_mb_s": v for k, v in parts.items()}
    )
    parts["read"] = vol / cf_a / parts["read"]
    return parts


_VOLUME = VOLUME_MB.but(lo=0.0)
#: The parts of a recall as inputs (``None`` takes the drive's preset).
_PARTS = {
    "robot_s": ROBOT_S,
    "load_s": LOAD_S,
    "overhead_s": OVERHEAD_S,
    "search_s": LOCATE_S.but(label="search"),
    "rate_mb_s": SPEED_MB_S.but(label="drive read rate", default=None),
    "rewind_unload_s": REWIND_UNLOAD_S,
}
_RECALL_INPUTS = {"volume_mb": _VOLUME, "cf": CF.but(default=None), "drive": RECALL_DRIVE, **_PARTS,
                  "mount_equation": MOUNT_EQUATION}  # fmt: skip


@cites("cern_facts", "vts_facts", "drive_catalog", "vts_import_export", "stk_facts")
@declare(**_RECALL_INPUTS)
def recall_parts(
    volume_mb,
    *,
    cf=None,
    drive: str = "3590B",
    robot_s=None,
    load_s=None,
    overhead_s=None,
    search_s=None,
    rate_mb_s=None,
    rewind_unload_s=None,
    mount_equation: str = "export",
) -> dict[str, np.ndarray]:
    """The parts of one recall, in seconds, keyed as :data:`RECALL_PARTS`.

    read = volume_mb / cf / rate_mb_s; every other part is a parameter (``None`` takes
    the drive's preset, :func:`drive_preset`).

    Parameters
    ----------
    volume_mb : float or array_like
        Logical volume size as the host wrote it (uncompressed). [MB]
    cf : float or array_like, optional
        Data compressibility; the volume is stored as volume_mb / cf. Default Fig. 6's
        CF 3 (data row ``fig6_cf``). [-]
    drive : str
        Drive model whose preset fills the parts not given: "3590B", "3590E", "STK3480"
        or a catalog drive (see :func:`drive_preset`).
    robot_s, load_s, overhead_s, search_s : float, optional
        Robot fetch, load/thread, the rest of the mount cycle, and search. [s]
    rate_mb_s : float, optional
        Drive read rate of stored (compressed) data. [MB/s]
    rewind_unload_s : float, optional
        Rewind and unload after the read. [s]
    mount_equation : {"export", "import"}
        Whose per-mount term sets the preset's rest of the mount cycle: Eq. 1 (export,
        2.36 min, the default) or Eq. 2 (import, 3.75 min); see :func:`drive_preset`.

    Returns
    -------
    dict of str to numpy value
        Seconds per part (ibm-vts-b18-2000, Sec. 3.4 and Sec. 7; cern-tape-sizing-2005).
    """
    parts = _parts(volume_mb, cf, drive, robot_s, load_s, overhead_s, search_s, rate_mb_s, rewind_unload_s,
                   mount_equation)  # fmt: skip
    shape = np.broadcast_shapes(*(p.shape for p in parts.values()))
    return {k: result(np.broadcast_to(v, shape).astype(float)) for k, v in parts.items()}


@cites("cern_facts", "vts_facts", "drive_catalog", "vts_import_export", "stk_facts")
@declare(**_RECALL_INPUTS)
def recall_ready_s(volume_mb, *, cf=None, drive: str = "3590B", **parts):
    """Time from a recall's start on a free drive until the volume is ready. [s]

    ready = robot + load + overhead + search + volume_mb / cf / rate: the best case of
    ibm-vts-b18-2000, Sec. 3.4 ("approximately two to three minutes ... when little else
    is active"), which it reproduces with the default Eq. 1 mount cycle and leaves with
    Eq. 2's. Keyword arguments as :func:`recall_parts`.
    """
    p = recall_parts(volume_mb, cf=cf, drive=drive, **parts)
    return result(sum(np.asarray(p[k]) for k in RECALL_PARTS if k != "rewind_unload"))


@cites("cern_facts", "vts_facts", "drive_catalog", "vts_import_export", "stk_facts")
@declare(**_RECALL_INPUTS)
def recall_service_s(volume_mb, *, cf=None, drive: str = "3590B", **parts):
    """Time one recall keeps a drive busy: ready time plus rewind and unload. [s]

    service = robot + load + overhead + search + volume_mb / cf / rate + rewind_unload.
    With the 3590 presets, robot + load + overhead + rewind_unload equals the per-mount
    term of ibm-vts-b18-2000 Eq. 1 (2.36 min). Keyword arguments as :func:`recall_parts`.

    Parameters
    ----------
    volume_mb : float or array_like
        Logical volume size, uncompressed. [MB]
    cf : float or array_like, optional
        Data compressibility; default Fig. 6's 3. [-]
    drive : str
        Drive model: "3590B", "3590E", "STK3480" or a catalog drive (see
        :func:`drive_preset`).

    Returns
    -------
    numpy value
        Drive service time per recall. [s]
    """
    p = recall_parts(volume_mb, cf=cf, drive=drive, **parts)
    return result(sum(np.asarray(p[k]) for k in RECALL_PARTS))


@cites("vts_facts")
@declare(total_drives=TOTAL_DRIVES, copy_drives=COPY_DRIVES)
def recall_drives(total_drives, copy_drives):
    """Drives left for recall when some copy the cache to tape. [count]

    recall = total - copy. "if the VTS is configured with the maximum of six tape drives,
    and two of them are assigned to receiving of data being copied from tape volume
    cache, then only four recall mounts can be handled simultaneously"
    (ibm-vts-b18-2000, Sec. 3.2.2).

    Parameters
    ----------
    total_drives : int or array_like
        3590 drives in the VTS (1 to 6, Sec. 2). [count]
    copy_drives : int or array_like
        Drives busy copying from the cache to tape. [count]
    """
    most = load("vts_facts").value("library_3590_drives_max")
    total = TOTAL_DRIVES.check("total_drives", total_drives)
    warn_outside("total_drives", total, 1, most, source="ibm-vts-b18-2000, Sec. 2: up to six 3590 drives")
    copy = COPY_DRIVES.check("copy_drives", copy_drives)
    broadcast(total_drives=total, copy_drives=copy)
    if np.any(copy >= total):
        raise ConstraintError(
            f"copy_drives={copy_drives!r} must be below total_drives={total_drives!r}: "
            "at least one drive must be left for recall"
        )
    return result((total - copy).astype(int))


@cites("cern_facts", "vts_facts", "drive_catalog", "vts_import_export", "stk_facts")
@declare(queue_length=QUEUE_LENGTH, drives=RECALL_DRIVES.but(default=None), **_RECALL_INPUTS)
def recall_response_s(queue_length, volume_mb, *, cf=None, drives=None, drive: str = "3590B", **parts):
    """Time until ready for a recall that arrives behind ``queue_length`` recalls. [s]

    The deterministic estimate of ibm-vts-b18-2000 Fig. 6: the ``queue_length`` recalls
    ahead (in service or waiting) all started or queued at the same moment, as when "an
    application request[s] the mounting of a large number of volumes nearly
    simultaneously" (Sec. 3.2.2); recalls are served in order, "sequentially", on
    ``drives`` drives with identical service times S. The new recall gets a drive after
    floor(n / d) full service times, then needs its own ready time R:

        T(n) = floor(n / d) * S + R

    Parameters
    ----------
    queue_length : int or array_like
        Recalls ahead of this one when it arrives, n >= 0. [count]
    volume_mb : float or array_like
        Logical volume size, uncompressed (Fig. 6: 100, 250, 800 MB). [MB]
    cf : float, optional
        Data compressibility; default Fig. 6's 3 (``fig6_cf``). [-]
    drives : int, optional
        Drives allocated to recall, d >= 1; default Fig. 6's four 3590B
        (``fig6_recall_drives``). [count]
    drive : str
        Drive model: "3590B", "3590E", "STK3480" or a catalog drive (see
        :func:`drive_preset`).
    **parts
        Parts of a recall as :func:`recall_parts`.

    Returns
    -------
    numpy value
        Time until ready. [s]
    """
    n = QUEUE_LENGTH.check("queue_length", queue_length)
    d = RECALL_DRIVES.check(
        "drives", load("vts_facts").value("fig6_recall_drives") if drives is None else drives
    )
    broadcast(queue_length=n, drives=d, volume_mb=_VOLUME.check("volume_mb", volume_mb))
    ready = np.asarray(recall_ready_s(volume_mb, cf=cf, drive=drive, **parts))
    service = np.asarray(recall_service_s(volume_mb, cf=cf, drive=drive, **parts))
    return result(np.floor(n / d) * service + ready)
