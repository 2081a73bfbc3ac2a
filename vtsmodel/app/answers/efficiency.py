"""Answer key of lesson 04 (drive efficiency vs file size), from drives and the drive catalog."""

from __future__ import annotations

import numpy as np

from vtsmodel import catalog, drives
from vtsmodel.app.lessons.block_size import evaluate_block_size
from vtsmodel.app.lessons.drive_rates import host_rate
from vtsmodel.app.lessons.efficiency import INPUTS
from vtsmodel.app.text import number, percent

_D = {k: INPUTS[k].default for k in INPUTS}
#: Files per mount searched, 1 to 10^4 (the panel's slider). [-]
_N = np.unique(np.round(np.geomspace(1.0, 1e4, 400)))


def _eff(drive: str, file_mb: float, n, moves: float = _D["robot_moves_per_hour"]):
    tm = float(drives.mount_cycle_s(robot_moves_per_hour=moves, drive=drive))
    return drives.drive_efficiency(file_mb, n, t_mount_s=tm, t_overhead_s=_D["t_overhead_s"],
                                   speed_mb_s=catalog.drive_spec(drive).speed_mb_s)  # fmt: skip


def _files_for(drive: str, file_mb: float, target: float) -> str:
    """How many files of ``file_mb`` per mount reach ``target``, as a sentence."""
    eff = np.asarray(_eff(drive, file_mb, _N))
    reached = np.flatnonzero(eff >= target)
    if reached.size:
        return f"with {number(file_mb)} MB files, {number(_N[reached[0]])} files per mount reach {percent(target)}"
    return (
        f"with {number(file_mb)} MB files no number of files reaches {percent(target)}: at most "
        f"{percent(float(eff[-1]))}, as each file's {number(_D['t_overhead_s'])} s overhead stays"
    )


def answers() -> list[str]:
    """The six answers of lesson 04, at the panels' defaults (9940B, 10 files of 1000 MB, 20 MB/s stream)."""
    f, n = _D["file_mb"], _D["files_per_mount"]
    t160, t240 = (float(drives.mount_cycle_s(robot_moves_per_hour=m)) for m in (160.0, 240.0))
    gain = {k: float(_eff("STK9940B", f, k, 240.0) - _eff("STK9940B", f, k)) for k in (1, 10, 100, 1000)}
    most = max(gain, key=gain.get)
    e = {d: float(_eff(d, f, n)) for d in ("STK9940B", "IBM3592A", "LTO9")}
    check = catalog.streaming_check("LTO9", 2.0)
    best = {k: f"{number(evaluate_block_size(drives_sharing=k).best_write_kb)} KB" for k in (8, 4)}
    carry = max(
        k for k in range(1, 9) if host_rate("LTO1", drives_per_bus=k, stream_mb_s=200.0)[1] == "the drive"
    )
    lto9 = host_rate("LTO9", drives_per_bus=1, bus_mb_s=1e5, stream_mb_s=1e5)[0]
    return [
        f"On the 9940B, {_files_for('STK9940B', 1000.0, 0.9)}; {_files_for('STK9940B', 100.0, 0.9)}.",
        f"The mount cycle falls from {number(t160, 4)} s to {number(t240, 4)} s. At 1000 MB the curve of "
        f"{most} file(s) per mount gains most ({number(100 * gain[most])} percentage points); with 1000 files per "
        f"mount it gains {number(100 * gain[1000])}: the mount is a small part of a long mount's time.",
        f"10 files of 1000 MB: {percent(e['STK9940B'])} on the 9940B (30 MB/s), {percent(e['IBM3592A'])} on the "
        f"3592A (40 MB/s): the faster drive streams each file sooner, so the same mount and overheads are a larger "
        f"share of its time. LTO-9 ({number(catalog.drive_spec('LTO9').speed_mb_s)} MB/s, its own mount times): "
        f"{percent(e['LTO9'])}.",
        f"At 2 MB/s the panel warns that the LTO-9 cannot stream: its lowest speed-matching rate is "
        f"{number(check.min_rate_mb_s)} MB/s, so the feed must reach that (or be buffered to it); the dashed line "
        f"shows the {percent(float(drives.stream_limited_efficiency(2.0, catalog.drive_spec('LTO9').speed_mb_s)))} "
        "the feed allows.",
        f"With 8 drives sharing the 1 MB buffer the fastest write block is {best[8]}; with 4 drives, {best[4]}: "
        "a 128 KB block now fits in each drive's 250 KB share.",
        f"With a 200 MB/s stream and LTO-1 at 2:1, the 60 MB/s bus carries {carry} drive(s) before it binds. An "
        f"LTO-9 at 2:1 takes up to {number(lto9)} MB/s, so two per bus need about {number(2 * lto9)} MB/s of bus.",
    ]
