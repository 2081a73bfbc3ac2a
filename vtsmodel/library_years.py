"""A tape library year by year: drives, robots, frames and cartridges as an archive grows.

:func:`library_years` puts together the archive's cartridges per year
(:func:`vtsmodel.archive.archive_years`), the drives its data flows need (the CERN formula,
:func:`vtsmodel.sizing.drives_needed`, on a catalog drive), the mounts they make
(:func:`vtsmodel.library.flow_mounts_per_hour`) and a library family
(:func:`vtsmodel.library.library_model`): frames or modules per year, robots per year, the
year each configuration fills, and which resource binds.

Modelling choices (parameters where they can move): the flows grow with the data written
(a year's flows are today's times that year's writes over the first year's); the robots'
move time is the library's where a document states it, else CERN's Powderhorn silo's
22.5 s ("160 robot arm movements per hour", cern-tape-sizing-2005), a 2005 silo, so a
stand-in that, if anything, overstates today's robots' load.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.archive import ArchiveYears
from vtsmodel.library import (
    CARTRIDGES,
    LIB_DRIVES,
    MOVE_S,
    RESOURCES,
    ROBOTS,
    LibraryModel,
    _shares,
    _units_needed,
    flow_mounts_per_hour,
    robot_mounts_per_hour,
    robot_wait_s,
)

__all__ = ["YEAR_S", "LibraryYears", "cern_example_writes_tb_per_year", "library_years"]


@dataclass(frozen=True)
class LibraryYears:
    """The library at the end of each year (year 0: now).

    Attributes
    ----------
    archive : ArchiveYears
    library : LibraryModel or None
        The library family; None: no family (drives, robots and cartridges, no frames).
    drive : str
        The catalog drive.
    speed_mb_s, t_mount_s : float
        The drive speed _sized with and its mount cycle (robot move included). [MB/s], [s]
    robot_move_s : float
        The robots' move time used. [s]
    robot_move_basis : str
        ``"document"`` (the library's row), ``"yours"`` or ``"stand-in"`` (CERN's silo).
    robots : numpy.ndarray
        Robots installed each year: the number given, or as many as that year's mounts
        need, at least the family's standard, at most its documented most, never fewer than
        the year before. [count]
    flow_factor : numpy.ndarray
        Each year's flows over today's. [-]
    drives_fractional : numpy.ndarray
        Drives the flows need (the CERN formula). [count]
    drives : numpy.ndarray
        Drives installed: the CERN formula's, rounded up, or those given to
        :meth:`with_drives`. [count]
    mounts_per_hour : numpy.ndarray
        Mounts the flows make at their _sized rates. [1/h]
    robots_needed : numpy.ndarray
        Robots whose capacity covers the mounts. [count]
    robot_utilisation : numpy.ndarray
        Mounts over the installed robots' capacity. [-]
    robot_wait_mean_s, robot_wait_p95_s : numpy.ndarray
        A mount's wait for a robot (inf when saturated). [s]
    units : numpy.ndarray
        Frames or modules the year needs (inf: more than one library; NaN: no library, or
        one whose documents lack a value, :attr:`missing`). [count]
    binding : tuple of str
        The resource that binds each year in the configuration of that year (``""``
        without frames).
    fill_years : dict of int to int or None
        For each configuration of 1 .. the most units needed (every size of one library
        where some year needs more), the first year it no longer holds the cartridges and
        drives (None: not within the years).
    missing : tuple of str
        What a frame plan needs that no document gave and no stand-in set
        (:meth:`~vtsmodel.library.LibraryModel.frame_values_missing`).
    """

    archive: ArchiveYears
    library: LibraryModel | None
    drive: str
    speed_mb_s: float
    t_mount_s: float
    robot_move_s: float
    robot_move_basis: str
    robots: np.ndarray
    flow_factor: np.ndarray
    drives_fractional: np.ndarray
    drives: np.ndarray
    mounts_per_hour: np.ndarray
    robots_needed: np.ndarray
    robot_utilisation: np.ndarray
    robot_wait_mean_s: np.ndarray
    robot_wait_p95_s: np.ndarray
    units: np.ndarray
    binding: tuple[str, ...]
    fill_years: dict
    missing: tuple[str, ...] = ()

    @property
    def year(self) -> np.ndarray:
        """0, 1, ..., N. [year]"""
        return self.archive.year

    @property
    def final_units(self) -> float:
        """Frames or modules for the last year (the most over the years). [count]"""
        return float(np.max(self.units))

    @property
    def has_frames(self) -> bool:
        """Whether the frames or modules were planned (a library with every value they need)."""
        return self.library is not None and not self.missing

    def with_drives(self, drives) -> LibraryYears:
        """The same years with these drives installed (one count per year, at least the CERN formula's).

        The frames or modules, what binds and the fill-up years follow the drives; the
        robots do not (they serve the mounts, which the flows set).

        Parameters
        ----------
        drives : array_like
            Drives installed each year, year 0 first. [count]
        """
        d = LIB_DRIVES.but(hi=math.inf).check("drives", drives)
        if d.shape != self.drives.shape:
            raise ValueError(f"drives has {d.size} years; the archive has {self.drives.size} (year 0 first)")
        short = np.flatnonzero(d < self.drives_fractional - 1e-9)
        if short.size:
            y = int(short[0])
            raise ConstraintError(
                f"drives[{y}]={d[y]:g} is fewer than the {self.drives_fractional[y]:.3g} the flows need in year {y}"
            )
        d = np.ceil(d - 1e-9)
        units, binding, fill = _frames(self.library, self.missing, self.archive.cartridges_onsite, d, self.robots,
                                       self.mounts_per_hour, self.robot_move_s)  # fmt: skip
        return dataclasses.replace(self, drives=d, units=units, binding=binding, fill_years=fill)

    def rows(self) -> list[dict]:
        """One row per year, to print or export."""
        unit = f"{self.library.unit}s" if self.library is not None else "frames or modules"
        return [
            {**a, "drives": int(d), "mounts per hour": float(m), "robots": int(ri), "robots needed": int(r),
             unit: (None if not math.isfinite(u) else int(u)), "binds": b}
            for a, d, m, ri, r, u, b in zip(self.archive.rows(), self.drives, self.mounts_per_hour, self.robots,
                                            self.robots_needed, self.units, self.binding, strict=True)
        ]  # fmt: skip


def _robot_move(library: LibraryModel | None, robot_move_s) -> tuple[float, str]:
    if robot_move_s is not None:
        return as_scalar("robot_move_s", MOVE_S.check("robot_move_s", robot_move_s)), "yours"
    if library is not None and library.robot_move_s is not None:
        return float(library.robot_move_s), library.basis.get("robot_move_s", "document")
    return float(load("cern_facts").value("tmount_move")), "stand-in"


def _mounts_per_hour(flows, efficiencies, speed: float, t_mount_s: float) -> float:
    """Mounts per hour today's flows make: per file read or written with an access pattern, else the CERN bound."""
    m = 0.0
    for f, e in zip(flows, efficiencies, strict=True):
        rate = f.rate_mb_s * f.peak_factor
        if rate <= 0:
            continue
        if f.efficiency is None:
            m += rate / (f.file_mb * f.files_per_mount) * 3600.0
        else:
            m += float(flow_mounts_per_hour(rate, efficiency=e, speed_mb_s=speed, t_mount_s=t_mount_s))
    return m


@functools.lru_cache(maxsize=32)
def _t_mount(robot_move_s: float | None, drive: str | None) -> float:
    """:func:`vtsmodel.drives.mount_cycle_s` of a catalog drive with robots of one move time (None: CERN's). [s]"""
    from vtsmodel.drives import mount_cycle_s

    moves = None if robot_move_s is None else 3600.0 / robot_move_s
    return float(mount_cycle_s(robot_moves_per_hour=moves, drive=drive))


@functools.lru_cache(maxsize=32)
def _sized(flows: tuple, speed_mb_s: float, t_mount_s: float, t_overhead_s: float):
    """:func:`vtsmodel.sizing.drives_needed` of ``flows`` (a tuple of Flow), kept for the last few (a page's moves repeat them)."""
    from vtsmodel.sizing import drives_needed

    return drives_needed(
        list(flows), drive_speed_mb_s=speed_mb_s, t_mount_s=t_mount_s, t_overhead_s=t_overhead_s
    )


def _robots(mounts: np.ndarray, library: LibraryModel | None, robots, move: float):
    """Robots installed each year (given, or as many as the mounts need within the family's documents), needed, busy, waits.

    Returns ``(robots, robots_needed, utilisation, wait_mean_s, wait_p95_s)``, each per entry
    of ``mounts`` (waits inf where the robots are saturated). Robots are never fewer than
    the year before.
    """
    per_robot = float(robot_mounts_per_hour(1, robot_move_s=move))
    needed = np.maximum(np.ceil(mounts / per_robot - 1e-9), 1.0)
    if robots is None:
        if library is None:
            installed = needed
        else:
            # as many as the mounts need, within what the documents allow (one where they give no count)
            most = library.robots_max or library.robots_standard or 1
            installed = np.minimum(np.maximum(needed, library.default_robots()), most)
        installed = np.maximum.accumulate(installed)
    else:
        installed = np.full(mounts.size, float(as_scalar("robots", ROBOTS.check("robots", robots))))
    util = mounts / (installed * per_robot)
    wait_mean, wait_p95 = np.full(mounts.size, math.inf), np.full(mounts.size, math.inf)
    ok = util < 1.0
    if ok.any():
        wm, wp = robot_wait_s(mounts[ok], robots=installed[ok], robot_move_s=move)
        wait_mean[ok], wait_p95[ok] = wm, wp
    return installed.astype(int), needed, util, wait_mean, wait_p95


def _frames(library, missing, onsite, drives, robots, mounts, move) -> tuple[np.ndarray, tuple, dict]:
    """Units per year, what binds each year, and the year each configuration fills (NaN, "", {} without frames)."""
    n = onsite.size
    if library is None or missing:
        return np.full(n, math.nan), ("",) * n, {}
    units = np.full(n, math.inf)  # more than any library may hold: more than one
    small = (onsite <= CARTRIDGES.hi) & (drives <= LIB_DRIVES.hi)
    if small.any():
        units[small] = _units_needed(library, onsite[small], drives[small])
    fits = np.isfinite(units)
    binding = np.full(n, f"more than one {library.label}", dtype=object)
    if fits.any():
        robots = np.broadcast_to(np.asarray(robots, dtype=float), (n,))
        sh = _shares(library, units[fits], robots[fits], onsite[fits], drives[fits], mounts[fits], move)
        stacked = np.vstack([sh[k] for k in RESOURCES])
        binding[fits] = [RESOURCES[i] for i in np.argmax(stacked, axis=0)]
    finite = units[fits]
    if not fits.all() and library.units_max is not None:
        top = library.units_max  # every configuration of one library, up to the largest
    else:
        top = int(finite.max()) if finite.size else 1
    fill = {}
    for k in range(1, top + 1):
        within = units <= k
        fill[k] = None if within.all() else int(np.argmin(within))
    return units, tuple(binding), fill


@cites("library_models", "drive_catalog", "cern_facts", "cern_sizing_example")
@declare(robots=ROBOTS.but(default=None), robot_move_s=MOVE_S)
def library_years(
    archive: ArchiveYears,
    flows: Sequence,
    *,
    drive: str,
    library: LibraryModel | None,
    robots: int | None = None,
    robot_move_s: float | None = None,
) -> LibraryYears:
    """Drives, robots, frames or modules and cartridges for each year of an archive.

    Per year ``y`` (factor ``k_y = written_y / written_1``, 1 for years 0 and 1 or when
    nothing is written):

    - drives: ``sum(rate_i k_y factor_i / efficiency_i / speed)`` (cern-tape-sizing-2005,
      Summary), rounded up;
    - mounts per hour: per flow, ``rate / (file x files per mount) x 3600`` with an access
      pattern, else the CERN bound :func:`~vtsmodel.library.flow_mounts_per_hour`;
    - robots needed: ``ceil(mounts / robot_mounts_per_hour(1))``; the robots' wait:
      :func:`~vtsmodel.library.robot_wait_s` with the year's robots installed;
    - units: :func:`~vtsmodel.library.units_needed` for the cartridges in the library and
      the drives; what binds: :func:`~vtsmodel.library.library_binding`.

    Parameters
    ----------
    archive : ArchiveYears
    flows : sequence of Flow or mapping
        Today's data flows (:class:`vtsmodel.sizing.Flow`).
    drive : str
        A catalog drive.
    library : LibraryModel or None
        The library family; None: no frames, and the robots without a documented limit.
        A family whose documents lack a value the frames need (and no stand-in set it)
        gets no frames either (:attr:`LibraryYears.missing` names what is lacking).
    robots : int, optional
        Robots installed every year; default as many as each year's mounts need (never fewer
        than the year before), at least the library's standard and at most its documented
        maximum (one where no document gives a count). [count]
    robot_move_s : float, optional
        Time of one move; default the library's, else CERN's 22.5 s. [s]

    Returns
    -------
    LibraryYears
    """
    from vtsmodel.catalog import drive_spec
    from vtsmodel.sizing import _flows

    if not isinstance(archive, ArchiveYears):
        raise ValueError(f"archive={archive!r:.60} must be an ArchiveYears (vtsmodel.archive.archive_years)")
    if library is not None and not isinstance(library, LibraryModel):
        raise ValueError(
            f"library={library!r:.60} must be a LibraryModel (vtsmodel.library.library_model) or None"
        )
    fl = _flows(flows)
    spec = drive_spec(drive)
    if library is not None and spec.family not in library.families:
        raise ConstraintError(
            f"drive={drive!r}: the {library.label} takes {', '.join(library.families)} drives, not {spec.family}"
        )
    move, basis = _robot_move(library, robot_move_s)
    speed = float(spec.speed_mb_s)
    tm = _t_mount(move, spec.name)
    t_over = load("cern_facts").value("toverhead")
    w = archive.written_tb
    factor = np.ones(w.size)
    if w.size > 2 and w[1] > 0:
        factor[2:] = w[2:] / w[1]
    # the CERN formula and the mounts are linear in the rates: today's flows once, times each year's factor
    s = _sized(tuple(fl), speed, tm, t_over)
    drives_f = s.total * factor
    mounts = _mounts_per_hour(fl, s.efficiencies, speed, tm) * factor
    drives = np.ceil(drives_f - 1e-9 * np.maximum(drives_f, 1.0))
    robots, robots_needed, util, wait_mean, wait_p95 = _robots(mounts, library, robots, move)
    missing = library.frame_values_missing() if library is not None else ()
    onsite = archive.cartridges_onsite
    units, binding, fill = _frames(library, missing, onsite, drives, robots, mounts, move)
    return LibraryYears(archive, library, spec.name, speed, tm, move, basis, robots, factor, drives_f, drives, mounts,
                        robots_needed, util, wait_mean, wait_p95, units, binding, fill, missing)  # fmt: skip


#: Seconds in a year of 365.25 days. [s]
YEAR_S = 365.25 * 86400.0


@cites("cern_sizing_example")
def cern_example_writes_tb_per_year() -> float:
    """TB a year the CERN example's T0 → T1 flow writes: 100 MB/s all year. [TB]

    ``100 MB/s x 365.25 x 86,400 s / 10^6 = 3,155.76 TB`` ("Data rate T0 → T1 = 100 MB/s",
    cern-tape-sizing-2005, Summary). That the flow runs all year is a modelling choice: the
    note gives a rate, not a year's volume.
    """
    return load("cern_sizing_example").value("t0_to_t1_rate") * YEAR_S / 1e6
