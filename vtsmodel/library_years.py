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

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.archive import ArchiveYears
from vtsmodel.library import (
    MOVE_S,
    RESOURCES,
    ROBOTS,
    LibraryModel,
    _shares,
    flow_mounts_per_hour,
    robot_mounts_per_hour,
    robot_wait_s,
    units_needed,
)

__all__ = ["YEAR_S", "LibraryYears", "cern_example_writes_tb_per_year", "library_years"]


@dataclass(frozen=True)
class LibraryYears:
    """The library at the end of each year (year 0: now).

    Attributes
    ----------
    archive : ArchiveYears
    library : LibraryModel
    drive : str
        The catalog drive.
    speed_mb_s, t_mount_s : float
        The drive speed sized with and its mount cycle (robot move included). [MB/s], [s]
    robot_move_s : float
        The robots' move time used. [s]
    robot_move_basis : str
        ``"document"`` (the library's row), ``"yours"`` or ``"stand-in"`` (CERN's silo).
    robots : int
        Robots installed. [count]
    flow_factor : numpy.ndarray
        Each year's flows over today's. [-]
    drives_fractional, drives : numpy.ndarray
        Drives the flows need (the CERN formula), and whole drives. [count]
    mounts_per_hour : numpy.ndarray
        Mounts the flows make at their sized rates. [1/h]
    robots_needed : numpy.ndarray
        Robots whose capacity covers the mounts. [count]
    robot_utilisation : numpy.ndarray
        Mounts over the installed robots' capacity. [-]
    robot_wait_mean_s, robot_wait_p95_s : numpy.ndarray
        A mount's wait for a robot (inf when saturated). [s]
    units : numpy.ndarray
        Frames or modules the year needs (inf: more than one library). [count]
    binding : tuple of str
        The resource that binds each year in the configuration of that year.
    fill_years : dict of int to int or None
        For each configuration of 1 .. the most units needed (every size of one library
        where some year needs more), the first year it no longer holds the cartridges and
        drives (None: not within the years).
    """

    archive: ArchiveYears
    library: LibraryModel
    drive: str
    speed_mb_s: float
    t_mount_s: float
    robot_move_s: float
    robot_move_basis: str
    robots: int
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

    @property
    def year(self) -> np.ndarray:
        """0, 1, ..., N. [year]"""
        return self.archive.year

    @property
    def final_units(self) -> float:
        """Frames or modules for the last year (the most over the years). [count]"""
        return float(np.max(self.units))

    def rows(self) -> list[dict]:
        """One row per year, to print or export."""
        return [
            {**a, "drives": int(d), "mounts per hour": float(m), "robots needed": int(r),
             f"{self.library.unit}s": (None if math.isinf(u) else int(u)), "binds": b}
            for a, d, m, r, u, b in zip(self.archive.rows(), self.drives, self.mounts_per_hour, self.robots_needed,
                                        self.units, self.binding, strict=True)
        ]  # fmt: skip


def _robot_move(library: LibraryModel, robot_move_s) -> tuple[float, str]:
    if robot_move_s is not None:
        return as_scalar("robot_move_s", MOVE_S.check("robot_move_s", robot_move_s)), "yours"
    if library.robot_move_s is not None:
        return float(library.robot_move_s), library.basis.get("robot_move_s", "document")
    return float(load("cern_facts").value("tmount_move")), "stand-in"


@cites("library_models", "drive_catalog", "cern_facts", "cern_sizing_example")
@declare(robots=ROBOTS.but(default=None), robot_move_s=MOVE_S)
def library_years(
    archive: ArchiveYears,
    flows: Sequence,
    *,
    drive: str,
    library: LibraryModel,
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
      :func:`~vtsmodel.library.robot_wait_s` with ``robots`` installed;
    - units: :func:`~vtsmodel.library.units_needed` for the cartridges in the library and
      the drives; what binds: :func:`~vtsmodel.library.library_binding`.

    Parameters
    ----------
    archive : ArchiveYears
    flows : sequence of Flow or mapping
        Today's data flows (:class:`vtsmodel.sizing.Flow`).
    drive : str
        A catalog drive.
    library : LibraryModel
    robots : int, optional
        Robots installed; default the most any year needs, at least the library's standard
        and at most its documented maximum (one where no document gives a count). [count]
    robot_move_s : float, optional
        Time of one move; default the library's, else CERN's 22.5 s. [s]

    Returns
    -------
    LibraryYears
    """
    from vtsmodel.catalog import drive_spec
    from vtsmodel.drives import mount_cycle_s
    from vtsmodel.sizing import _flows, drives_needed

    if not isinstance(archive, ArchiveYears):
        raise ValueError(f"archive={archive!r:.60} must be an ArchiveYears (vtsmodel.archive.archive_years)")
    if not isinstance(library, LibraryModel):
        raise ValueError(f"library={library!r:.60} must be a LibraryModel (vtsmodel.library.library_model)")
    fl = _flows(flows)
    spec = drive_spec(drive)
    family_ok = spec.family in library.families
    if not family_ok:
        raise ConstraintError(
            f"drive={drive!r}: the {library.label} takes {', '.join(library.families)} drives, not {spec.family}"
        )
    move, basis = _robot_move(library, robot_move_s)
    speed = float(spec.speed_mb_s)
    tm = float(mount_cycle_s(robot_moves_per_hour=3600.0 / move, drive=spec.name))
    t_over = load("cern_facts").value("toverhead")
    w = archive.written_tb
    factor = np.ones(w.size)
    if w.size > 2 and w[1] > 0:
        factor[2:] = w[2:] / w[1]
    # the CERN formula and the mounts are linear in the rates: today's flows once, times each year's factor
    s = drives_needed(fl, drive_speed_mb_s=speed, t_mount_s=tm, t_overhead_s=t_over)
    m1 = 0.0
    for f, e in zip(fl, s.efficiencies, strict=True):
        rate = f.rate_mb_s * f.peak_factor
        if rate <= 0:
            continue
        if f.efficiency is None:
            m1 += rate / (f.file_mb * f.files_per_mount) * 3600.0
        else:
            m1 += float(flow_mounts_per_hour(rate, efficiency=e, speed_mb_s=speed, t_mount_s=tm))
    drives_f = s.total * factor
    mounts = m1 * factor
    drives = np.ceil(drives_f - 1e-9 * np.maximum(drives_f, 1.0))
    per_robot = float(robot_mounts_per_hour(1, robot_move_s=move))
    robots_needed = np.maximum(np.ceil(mounts / per_robot - 1e-9), 1.0)
    if robots is None:
        # as many as the mounts need, within what the documents allow (one where they give no count)
        most = library.robots_max or library.robots_standard or 1
        robots = int(min(max(robots_needed.max(), library.default_robots()), most))
    robots = int(as_scalar("robots", ROBOTS.check("robots", robots)))
    util = mounts / (robots * per_robot)
    wait_mean, wait_p95 = np.full(w.size, math.inf), np.full(w.size, math.inf)
    ok = util < 1.0
    if ok.any():
        wm, wp = robot_wait_s(mounts[ok], robots=robots, robot_move_s=move)
        wait_mean[ok], wait_p95[ok] = wm, wp
    onsite = archive.cartridges_onsite
    units = np.asarray(units_needed(library, onsite, drives), dtype=float)
    fits = np.isfinite(units)
    binding = np.full(w.size, f"more than one {library.label}", dtype=object)
    if fits.any():
        sh = _shares(library, units[fits], robots, onsite[fits], drives[fits], mounts[fits], move)
        stacked = np.vstack([sh[k] for k in RESOURCES])
        binding[fits] = [RESOURCES[i] for i in np.argmax(stacked, axis=0)]
    binding = tuple(binding)
    finite = units[fits]
    if not fits.all() and library.units_max is not None:
        top = library.units_max  # every configuration of one library, up to the largest
    else:
        top = int(finite.max()) if finite.size else 1
    fill = {}
    for n in range(1, top + 1):
        within = units <= n
        fill[n] = None if within.all() else int(np.argmin(within))
    return LibraryYears(archive, library, spec.name, speed, tm, move, basis, robots, factor, drives_f, drives, mounts,
                        robots_needed, util, wait_mean, wait_p95, units, tuple(binding), fill)  # fmt: skip


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
