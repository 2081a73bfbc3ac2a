"""Tape drives: the CERN efficiency formula, the mount cycle, block size, limits outside the drive.

What fraction of a drive's speed does a workload get? The CERN sizing note
(cern-tape-sizing-2005, "Access pattern and tape drive efficiency") answers with one
formula: a mount costs tMount, every file costs tOverhead (tape marks), and the data
stream at the drive's maximum speed::

    throughput = n·f / (tMount + n·tOverhead + n·f / speed),   efficiency = throughput / speed

with n files of f MB per mount. The catalog of drives is :mod:`vtsmodel.catalog` (a
drive's own mount times: :func:`mount_cycle_s` with ``drive``). This module also holds
the StorageTek block-size transfer curves (stk-acs4400-cray, fitted with
:mod:`vtsmodel.fit`), and the limits outside the drive: the shared SCSI bus
(adsm-l-lto-2003), the disk pool's stream rate (cern-tape-sizing-2005, ALICE example) and
compression.
"""

from __future__ import annotations

import functools

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import broadcast, cached, result, warn_outside
from vtsmodel.catalog import mount_parts
from vtsmodel.fit import Fit, fit_curve
from vtsmodel.quantities import (
    BLOCK_KB,
    BUS_MB_S,
    COMPRESSION_RATIO,
    CONTROLLER_BUFFER_KB,
    DIRECTION,
    DRIVES_PER_BUS,
    DRIVES_SHARING,
    FILE_MB,
    FILES_PER_MOUNT,
    LOAD_S,
    LOCATE_S,
    REWIND_UNLOAD_S,
    ROBOT_MOVES_PER_HOUR,
    SPEED_MB_S,
    STREAM_MB_S,
    T_MOUNT_S,
    T_OVERHEAD_S,
)

_RATE = SPEED_MB_S.but(lo=0.0, default=None)  # a rate of 0 MB/s means something here

__all__ = [
    "compressed_rate",
    "drive_efficiency",
    "drive_throughput",
    "mount_cycle_s",
    "scsi_bus_rate",
    "stream_limited_efficiency",
    "transfer_rate",
    "transfer_rate_fit",
]

_CERN = "cern-tape-sizing-2005, Access pattern and tape drive efficiency"
_STK = "stk-acs4400-cray, Test Results b. and c. (block-size tables)"


@functools.cache
def _cern(id_: str) -> float:
    return load("cern_facts").value(id_)


@functools.cache
def _stk(id_: str) -> float:
    return load("stk_facts").value(id_)


@functools.cache
def _lto(id_: str) -> float:
    return load("lto_facts").value(id_)


def _default(value, id_: str) -> float:
    return _cern(id_) if value is None else value


# --- mount time and the CERN formula ----------------------------------------------------


@cites("cern_facts", "drive_catalog")
@declare(
    robot_moves_per_hour=ROBOT_MOVES_PER_HOUR.but(default=None), load_s=LOAD_S, position_s=LOCATE_S,
    rewind_unload_s=REWIND_UNLOAD_S,
)  # fmt: skip
def mount_cycle_s(
    *, robot_moves_per_hour=None, load_s=None, position_s=None, rewind_unload_s=None, drive: str | None = None
):
    """Time one mount costs (tMount), built from its parts.

    ``tMount = 3600 / robot_moves_per_hour + load_s + position_s + rewind_unload_s``

    With ``drive``, the drive-side parts default to that drive's own catalog times where
    the catalog has them (:func:`vtsmodel.catalog.mount_parts`: load-to-ready, average
    locate from the load point, average rewind plus unload) and to CERN's 9940B figures
    where it does not; the robot move is the library's and stays CERN's.

    With the note's values (160 robot moves per hour -> 22.5 s, mount 15 s, positioning
    45 s, rewind and unload 45 s) this returns **127.5 s, the sum of the components**, not
    the note's printed total "about 120s". The function builds tMount from its parts, so
    it returns what the parts add up to; the printed 120 s is the note's rounding (the
    7.5 s gap is exactly the move time of the normal vs the upgraded 240 moves/h silo,
    with which the parts sum to 120 s). :func:`drive_throughput` defaults to the printed
    120 s, the value the note itself computes with; pass this function's value to
    use the parts.

    Parameters
    ----------
    robot_moves_per_hour : float, optional
        Robot arm movements per hour; one movement brings the tape from its slot to the
        drive. Default 160, the normal STK Powderhorn silo (cern_facts
        ``robot_moves_normal``). [moves/h]
    load_s : float, optional
        Time to mount (load) the tape in the drive; default 15 s (``tmount_mount``). [s]
    position_s : float, optional
        Average time to position the tape to the file; default 45 s
        (``tmount_positioning``). [s]
    rewind_unload_s : float, optional
        Time to rewind and unload; default 45 s (``tmount_rewind_unload``). [s]
    drive : str, optional
        A catalog drive (key or alias, e.g. ``"LTO9"``) whose own times replace the
        defaults of ``load_s``, ``position_s`` and ``rewind_unload_s`` where the catalog
        has them; an explicit value still wins.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        tMount. [s]

    Notes
    -----
    Source: cern-tape-sizing-2005, "Access pattern and tape drive efficiency", the
    numbers given "for 9940 type drives (applies more or less also for the IBM 3592)".
    A drive's own times: data/drive_catalog.csv (e.g. LTO-9: load 17 s, locate 45 s,
    rewind 55 s + unload 30 s, ibm-dtl-lto-perf), so ``mount_cycle_s(drive="LTO9")`` is
    22.5 + 17 + 45 + 85 = 169.5 s. The 3592 family, the T10000s and LTO-1 to LTO-4 have
    no times of their own in the catalog and still borrow all three CERN parts.
    """
    moves = ROBOT_MOVES_PER_HOUR.check(
        "robot_moves_per_hour", _default(robot_moves_per_hour, "robot_moves_normal")
    )
    if drive is not None:
        parts = mount_parts(drive)
        load_s = parts["load"].seconds if load_s is None else load_s
        position_s = parts["locate"].seconds if position_s is None else position_s
        rewind_unload_s = parts["rewind_unload"].seconds if rewind_unload_s is None else rewind_unload_s
    load_ = LOAD_S.check("load_s", _default(load_s, "tmount_mount"))
    pos = LOCATE_S.check("position_s", _default(position_s, "tmount_positioning"))
    rew = REWIND_UNLOAD_S.check("rewind_unload_s", _default(rewind_unload_s, "tmount_rewind_unload"))
    broadcast(robot_moves_per_hour=moves, load_s=load_, position_s=pos, rewind_unload_s=rew)
    return result(3600.0 / moves + load_ + pos + rew)  # "3600 / 160 = 22.5s" + 15 + 45 + 45


def _throughput_core(f, n, t_mount, t_over, speed):
    data = n * f
    return data / (t_mount + n * t_over + data / speed)  # CERN formula


def _check_formula_inputs(file_mb, files_per_mount, t_mount_s, t_overhead_s, speed_mb_s):
    f = FILE_MB.check("file_mb", file_mb)
    n = FILES_PER_MOUNT.check("files_per_mount", files_per_mount)
    tm = T_MOUNT_S.check("t_mount_s", _default(t_mount_s, "tmount_total"))
    to = T_OVERHEAD_S.check("t_overhead_s", _default(t_overhead_s, "toverhead"))
    s = SPEED_MB_S.check("speed_mb_s", _default(speed_mb_s, "plot_drive_speed"))
    broadcast(file_mb=f, files_per_mount=n, t_mount_s=tm, t_overhead_s=to, speed_mb_s=s)
    lo, hi = _cern("toverhead_test_file_size_1"), _cern("toverhead_test_file_size_1000")
    warn_outside(
        "file_mb", f, lo, hi, source=f"{_CERN}: tOverhead measured with 1-1000 MB files", stacklevel=4
    )
    return f, n, tm, to, s


@cites("cern_facts")
@declare(
    file_mb=FILE_MB, files_per_mount=FILES_PER_MOUNT, t_mount_s=T_MOUNT_S.but(default=None),
    t_overhead_s=T_OVERHEAD_S.but(default=None), speed_mb_s=SPEED_MB_S.but(default=None),
)  # fmt: skip
def drive_throughput(file_mb, files_per_mount, *, t_mount_s=None, t_overhead_s=None, speed_mb_s=None):
    """Throughput of a drive that writes or reads ``files_per_mount`` files per mount.

    ``throughput = n·f / (tMount + n·tOverhead + n·f / speed)``

    Parameters
    ----------
    file_mb : float or array_like
        File size f, > 0. [MB]
    files_per_mount : float or array_like
        Files n written or read in one mount, >= 1. [-]
    t_mount_s : float, optional
        Time per mount; default the note's "about 120s" (cern_facts ``tmount_total``;
        :func:`mount_cycle_s` builds it from its parts, 127.5 s). [s]
    t_overhead_s : float, optional
        Overhead per file (tape marks); default "about 4.4 seconds" (``toverhead``). [s]
    speed_mb_s : float, optional
        The drive's maximum speed; default 30 MB/s, the drive of the note's efficiency
        plot (``plot_drive_speed``, the STK 9940B). [MB/s]

    Returns
    -------
    numpy.float64 or numpy.ndarray
        Average throughput over the mount. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        For file sizes outside 1-1000 MB, the sizes tOverhead was measured with.

    Notes
    -----
    Source: cern-tape-sizing-2005, "Access pattern and tape drive efficiency".
    """
    f, n, tm, to, s = _check_formula_inputs(file_mb, files_per_mount, t_mount_s, t_overhead_s, speed_mb_s)
    return result(_throughput_core(f, n, tm, to, s))


@cites("cern_facts")
@declare(
    file_mb=FILE_MB, files_per_mount=FILES_PER_MOUNT, t_mount_s=T_MOUNT_S.but(default=None),
    t_overhead_s=T_OVERHEAD_S.but(default=None), speed_mb_s=SPEED_MB_S.but(default=None),
)  # fmt: skip
def drive_efficiency(file_mb, files_per_mount, *, t_mount_s=None, t_overhead_s=None, speed_mb_s=None):
    """Fraction of the drive's maximum speed a workload gets: throughput / speed.

    ``efficiency = n·f / (speed·(tMount + n·tOverhead) + n·f)``, in [0, 1]; it tends to 1
    as files grow with no mount or overhead time, and to 0 as the file size tends to 0.

    Parameters are those of :func:`drive_throughput`.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        Efficiency. [-]
    """
    f, n, tm, to, s = _check_formula_inputs(file_mb, files_per_mount, t_mount_s, t_overhead_s, speed_mb_s)
    # Efficiency = Throughput / tSpeed, written as data / (data + speed·time) so that it is
    # exactly 1, never 1 + 1 ulp, when there is no mount or overhead time.
    data = n * f
    return result(data / (data + s * (tm + n * to)))


# --- limits outside the drive -------------------------------------------------------------


@cites("cern_facts")
@declare(stream_mb_s=STREAM_MB_S.but(lo=0.0), speed_mb_s=SPEED_MB_S)
def stream_limited_efficiency(stream_mb_s, speed_mb_s):
    """Efficiency of a drive fed by a disk-pool stream slower than the drive.

    ``efficiency = min(stream, speed) / speed``. CERN's ALICE data challenge: tape streams
    of about 20 MB/s "== 66% efficiency for 9940 B, 50 % for IBM 3592A". The ratio
    assumes the drive slows to the stream; below its lowest speed-matching rate it cannot
    and backhitches instead, which this ratio does not capture: see
    :func:`vtsmodel.catalog.streaming_check`.

    Parameters
    ----------
    stream_mb_s : float or array_like
        Rate one disk-pool stream delivers to the drive. [MB/s]
    speed_mb_s : float or array_like
        The drive's maximum speed. [MB/s]

    Returns
    -------
    numpy.float64 or numpy.ndarray
        Efficiency. [-]
    """
    st = STREAM_MB_S.but(lo=0.0).check("stream_mb_s", stream_mb_s)
    s = SPEED_MB_S.check("speed_mb_s", speed_mb_s)
    broadcast(stream_mb_s=st, speed_mb_s=s)
    return result(np.minimum(st, s) / s)


@cites("lto_facts")
@declare(
    drive_mb_s=_RATE, drives_per_bus=DRIVES_PER_BUS.but(default=None), bus_mb_s=BUS_MB_S.but(default=None)
)
def scsi_bus_rate(drive_mb_s, drives_per_bus=None, *, bus_mb_s=None):
    """Rate each drive gets when ``drives_per_bus`` drives share one SCSI bus.

    ``rate = min(drive, bus / drives_per_bus)``, all drives streaming at once.

    Parameters
    ----------
    drive_mb_s : float or array_like
        Each drive's own rate. [MB/s]
    drives_per_bus : float or array_like, optional
        Drives streaming on one bus, whole number >= 1; default 2, the ADSM-L site's
        rule (lto_facts ``drives_per_scsi_bus``). [-]
    bus_mb_s : float or array_like, optional
        Bus bandwidth; default 60 MB/s, "2x30 = 60 MB/sec", the bandwidth the poster
        says two LTO-1 drives peaking at 30 MB/s need (``scsi_bus_rate_needed``). [MB/s]

    Returns
    -------
    numpy.float64 or numpy.ndarray
        Rate per drive. [MB/s]
    """
    d = _RATE.check("drive_mb_s", drive_mb_s)
    k = DRIVES_PER_BUS.check(
        "drives_per_bus", _lto("drives_per_scsi_bus") if drives_per_bus is None else drives_per_bus
    )
    bus = BUS_MB_S.check("bus_mb_s", _lto("scsi_bus_rate_needed") if bus_mb_s is None else bus_mb_s)
    broadcast(drive_mb_s=d, drives_per_bus=k, bus_mb_s=bus)
    return result(np.minimum(d, bus / k))


@cites("lto_facts")
@declare(native_mb_s=_RATE, compression_ratio=COMPRESSION_RATIO, max_rate_mb_s=SPEED_MB_S.but(default=None))
def compressed_rate(native_mb_s, compression_ratio, *, max_rate_mb_s=None):
    """Host-side rate of a drive that compresses: ``min(native · ratio, max_rate)``.

    Parameters
    ----------
    native_mb_s : float or array_like
        The drive's native (uncompressed) rate. [MB/s]
    compression_ratio : float or array_like
        Data compressibility, >= 1 (incompressible data: 1). [-]
    max_rate_mb_s : float or array_like, optional
        The drive's compressed maximum (e.g. LTO-1 "max compressed is 30 MB/sec");
        default no cap. [MB/s]

    Returns
    -------
    numpy.float64 or numpy.ndarray
        Rate of uncompressed host data. [MB/s]
    """
    nat = _RATE.check("native_mb_s", native_mb_s)
    cr = COMPRESSION_RATIO.check("compression_ratio", compression_ratio)
    cap = None if max_rate_mb_s is None else SPEED_MB_S.check("max_rate_mb_s", max_rate_mb_s)
    broadcast(native_mb_s=nat, compression_ratio=cr, **({} if cap is None else {"max_rate_mb_s": cap}))
    warn_outside(
        "compression_ratio", cr, 1.0, _lto("max_compression_ratio"),
        source="adsm-l-lto-2003: 'once, almost 4:1'",
    )  # fmt: skip
    out = nat * cr
    if max_rate_mb_s is not None:
        out = np.minimum(out, cap)
    return result(out)


# --- block size: the StorageTek transfer-rate tables ---------------------------------------

DIRECTIONS = ("write", "read")


def _rising(block_kb, rate_max, block_half):
    # A fixed cost per block plus streaming: rate = B / (t_block + B / rate_max),
    # written with the block size at which half the maximum is reached.
    return rate_max * block_kb / (block_kb + block_half)


def _write_curve(block_kb, rate_max, block_half, overflow_factor, share_kb):
    fits = block_kb <= share_kb
    return _rising(block_kb, rate_max, block_half) * np.where(fits, 1.0, overflow_factor)


@declare(direction=DIRECTION)
@cached
def transfer_rate_fit(direction: str = "write") -> Fit:
    """The fitted transfer-rate curve of one direction of the StorageTek tables.

    Model (both directions): ``rate = rate_max · B / (B + block_half)``, a fixed cost per
    block plus streaming. Write only: a block larger than the per-drive share of the
    controller buffer (the Ciprico 4781's 1 MB "shared equally among all drives
    configured", 125 KB each for eight drives) streams at ``overflow_factor`` of that
    rate; this is the paper's explanation of the write rate's drop from 64 KB to 128 KB.
    The read rate keeps rising to 128 KB and has no such term. The write fit has one
    point (128 KB) beyond the share, so ``overflow_factor`` is fitted to that point alone
    (passes through it exactly: a calibration, not evidence).
    The rates span a factor of seven, so the fit weighs relative errors (``sigma`` = the
    measured rate): every point is fitted to within 10%.

    Parameters
    ----------
    direction : {"write", "read"}

    Returns
    -------
    vtsmodel.fit.Fit
        Parameters ``rate_max`` [MB/s], ``block_half`` [KB] (and ``overflow_factor`` [-]
        for write), with covariance and residuals.
    """
    DIRECTION.check("direction", direction)
    t = load("stk_transfer_rates").where(direction=direction)
    x, y, ids = np.asarray(t["block_kb"], float), np.asarray(t["value"], float), tuple(t["id"])
    if direction == "read":
        return fit_curve(
            "stk_read_rate", _rising, x, y, p0=(2.0, 30.0), param_names=("rate_max", "block_half"),
            bounds=([0, 0], [np.inf, np.inf]), sigma=y, ids=ids,
        )  # fmt: skip
    share = _stk("controller_buffer") * 1000.0 / _stk("tested_drives")  # 1 MB / 8 = 125 KB, as the paper

    def curve(b, rate_max, block_half, overflow_factor):
        return _write_curve(b, rate_max, block_half, overflow_factor, share)

    return fit_curve(
        "stk_write_rate", curve, x, y, p0=(1.5, 12.0, 0.8),
        param_names=("rate_max", "block_half", "overflow_factor"),
        bounds=([0, 0, 0], [np.inf, np.inf, 1.0]), sigma=y, ids=ids,
    )  # fmt: skip


@cites("stk_transfer_rates", "stk_facts")
@declare(
    block_kb=BLOCK_KB.but(valid=(4.0, 128.0), source=_STK), direction=DIRECTION, controller_buffer_kb=CONTROLLER_BUFFER_KB.but(default=None),
    drives_sharing=DRIVES_SHARING.but(default=None),
)  # fmt: skip
def transfer_rate(block_kb, direction: str = "write", *, controller_buffer_kb=None, drives_sharing=None):
    """Transfer rate vs block size of the StorageTek 3480 set-up, from the fitted tables.

    ``rate = rate_max · B / (B + block_half)``, times ``overflow_factor`` for a write
    block larger than ``controller_buffer_kb / drives_sharing`` (see
    :func:`transfer_rate_fit`).

    Parameters
    ----------
    block_kb : float or array_like
        Block size, > 0. [KB]
    direction : {"write", "read"}
        Disk-to-tape (write) or tape-to-disk (read).
    controller_buffer_kb : float, optional
        Controller buffer shared equally by the drives; default 1000 KB, the 4781's
        "1 MB" read as the paper does (1 MB / 8 = 125 KB) (stk_facts
        ``controller_buffer``). [KB]
    drives_sharing : float, optional
        Drives configured on the controller buffer, whole number >= 1; default 8
        (``tested_drives``). [-]

    Returns
    -------
    numpy.float64 or numpy.ndarray
        Average transfer rate of the system (Cray, Ciprico SCSI-1, 3480 drive). [MB/s]

    Warns
    -----
    ExtrapolationWarning
        Outside the 4-128 KB the tables measured (128 KB is the IOBB's maximum).
    """
    DIRECTION.check("direction", direction)
    b = BLOCK_KB.check("block_kb", block_kb)
    buf = CONTROLLER_BUFFER_KB.check(
        "controller_buffer_kb",
        _stk("controller_buffer") * 1000.0 if controller_buffer_kb is None else controller_buffer_kb,
    )
    k = DRIVES_SHARING.check(
        "drives_sharing", _stk("tested_drives") if drives_sharing is None else drives_sharing
    )
    broadcast(block_kb=b, controller_buffer_kb=buf, drives_sharing=k)
    smallest = float(np.min(load("stk_transfer_rates")["block_kb"]))  # the tables start at 4 KB
    warn_outside("block_kb", b, smallest, _stk("iobb_max_block"), source=_STK)
    p = transfer_rate_fit(direction).as_dict()
    if direction == "read":
        return result(_rising(b, p["rate_max"], p["block_half"]))
    return result(_write_curve(b, p["rate_max"], p["block_half"], p["overflow_factor"], buf / k))
