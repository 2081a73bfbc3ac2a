"""The tape-library plan: drives of one catalog drive for a plan's workload, and the library over the years.

Today: the CERN formula sizes each flow (:func:`~vtsmodel.sizing.drives_needed`); recalls
also need drives enough for the wait target (:func:`~vtsmodel.queueing.recall_drives_needed`),
each recall waiting for a robot too (:func:`~vtsmodel.library.robot_wait_s`); the larger
governs (:func:`library_plan`, :class:`LibraryPlan`).

Over the years (:class:`LibraryYearsPlan`): the archive the answers describe
(:func:`~vtsmodel.archive.archive_years`), the drives, mounts and robots its flows need and
the frames or modules of the chosen library family
(:func:`~vtsmodel.library_years.library_years`), with each year's recall wait target, the
margins of slots, drive bays, robots and recall ready time, what binds, and the cost from
the user's prices (:func:`~vtsmodel.archive.cost_by_year`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vtsmodel import quantities as q
from vtsmodel._inputs import declare, number
from vtsmodel._tables import load
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.archive import ArchiveYears, archive_years, cartridge_tb, cost_by_year
from vtsmodel.catalog import drive_spec, mount_parts, resolve_drive
from vtsmodel.library import MOVES_PER_MOUNT, LibraryModel, library_model
from vtsmodel.library_years import (
    YEAR_S,
    LibraryYears,
    _mounts_per_hour,
    _robots,
    _sized,
    _t_mount,
    library_years,
)
from vtsmodel.plan.answers import NO_LIBRARY, Answers
from vtsmodel.plan.day import MIN_RECALLS_PER_HOUR, PlanDay, plan_day
from vtsmodel.plan.files import Plan, check_plan
from vtsmodel.plan.provenance import Provenance, _collect_notes
from vtsmodel.plan.vts import Check
from vtsmodel.queueing import recall_drives_needed, wait_percentile
from vtsmodel.replay import DrivesByReplay, replay_drives_needed, replay_library
from vtsmodel.sizing import Flow, Sizing, _flows

__all__ = ["LibraryPlan", "LibraryYearsPlan", "library_plan"]


@dataclass(frozen=True)
class LibraryYearsPlan:
    """The library at the end of each year (year 0: now): what to install, its margins, what binds.

    Attributes
    ----------
    years : LibraryYears
        The archive, drives, mounts, robots and frames or modules per year
        (:func:`~vtsmodel.library_years.library_years`), with the plan's drives installed.
    drives_throughput : numpy.ndarray
        Drives the flows need by the CERN formula. [count]
    recall_drives_for_wait : numpy.ndarray
        Drives the recall wait target needs each year (NaN: no recalls, or no count meets
        it). [count]
    recall_service_s, recall_ready_s : numpy.ndarray
        A recall's drive time and its time to ready on an idle drive, each with the year's
        mean wait for a robot. [s]
    recall_ready_q_s : numpy.ndarray
        A recall's ready time at the answers' percentile with the drives installed
        (NaN: no recalls; inf: no steady state). [s]
    recall_target_s, recall_percentile : float
        The target and its percentile. [s], [-]
    drives_bought, units_bought : numpy.ndarray
        Drives and frames or modules added each year (year 0: all of them). [count]
    cost : dict or None
        :func:`~vtsmodel.archive.cost_by_year` of the user's prices (None: no price given).
    """

    years: LibraryYears
    drives_throughput: np.ndarray
    recall_drives_for_wait: np.ndarray
    recall_service_s: np.ndarray
    recall_ready_s: np.ndarray
    recall_ready_q_s: np.ndarray
    recall_target_s: float
    recall_percentile: float
    drives_bought: np.ndarray
    units_bought: np.ndarray
    cost: dict | None

    @property
    def year(self) -> np.ndarray:
        """0, 1, ..., N. [year]"""
        return self.years.year

    @property
    def archive(self) -> ArchiveYears:
        """The archive year by year."""
        return self.years.archive

    @property
    def library(self) -> LibraryModel | None:
        """The library family (None: none chosen)."""
        return self.years.library

    @property
    def unit(self) -> str:
        """What one unit of the family is called (``"frame"``, ``"module"``)."""
        return self.library.unit if self.library is not None else "frame"

    def usable_slots(self) -> np.ndarray:
        """Usable slots of each year's configuration (NaN without frames or beyond one library). [count]"""
        return self._of_units(lambda n, d: self.library._usable_of(n, d))

    def drive_bays(self) -> np.ndarray:
        """Drive bays of each year's configuration (NaN without frames or beyond one library). [count]"""
        return self._of_units(lambda n, _d: self.library._bays_of(n))

    def _of_units(self, f) -> np.ndarray:
        r = self.years
        out = np.full(r.units.size, math.nan)
        ok = np.isfinite(r.units)
        if ok.any():
            out[ok] = f(r.units[ok], r.drives[ok])
        return out

    def robot_capacity(self) -> np.ndarray:
        """Mounts per hour the robots installed each year serve. [1/h]"""
        return self.years.robots * 3600.0 / (MOVES_PER_MOUNT * self.years.robot_move_s)

    def checks(self, year: int | None = None) -> tuple[Check, ...]:
        """The margins of one year (default the last): slots, drive bays, robot mounts and recall ready time.

        Each a :class:`~vtsmodel.plan.Check` (``margin = limit - value``): cartridges in the
        library against the usable slots, drives against the drive bays (with frames),
        mounts per hour against what the robots serve, and the recall ready time at the
        percentile against the target (with recalls).
        """
        r = self.years
        y = int(r.year[-1]) if year is None else int(year)
        if not 0 <= y <= int(r.year[-1]):
            raise ValueError(f"year={year!r} is not valid; choose 0 to {int(r.year[-1])}")
        out = []
        carts, drives, mounts = (
            float(r.archive.cartridges_onsite[y]),
            float(r.drives[y]),
            float(r.mounts_per_hour[y]),
        )
        slots, bays = float(self.usable_slots()[y]), float(self.drive_bays()[y])
        if math.isfinite(slots):
            out.append(Check("slots", "cartridges in the library", carts, slots, "slots", bool(carts <= slots),
                             f"{carts:,.0f} cartridges in {slots:,.0f} usable slots"))  # fmt: skip
            out.append(Check("drive_bays", "drives installed", drives, bays, "drives", bool(drives <= bays),
                             f"{drives:,.0f} drives in {bays:,.0f} bays"))  # fmt: skip
        cap = float(self.robot_capacity()[y])
        out.append(Check("robots", "robot mounts per hour", mounts, cap, "1/h", bool(mounts < cap),
                         f"{mounts:,.1f} mounts an hour; {int(r.robots[y])} robot(s) serve {cap:,.0f}"))  # fmt: skip
        ready = float(self.recall_ready_q_s[y])
        if not math.isnan(ready):
            label = f"recall ready ({self.recall_percentile * 100:g}th percentile)"
            text = (f"ready within {ready:,.0f} s against {self.recall_target_s:g} s" if math.isfinite(ready)
                    else "the recalls' queue has no steady state")  # fmt: skip
            out.append(
                Check(
                    "recall",
                    label,
                    ready,
                    self.recall_target_s,
                    "s",
                    bool(ready <= self.recall_target_s),
                    text,
                )
            )
        return tuple(out)

    @property
    def meets(self) -> bool:
        """Whether every year's margins hold (one library holds every year; robots and recalls keep up)."""
        return (
            all(c.ok for y in self.year for c in self.checks(int(y))) and not np.isinf(self.years.units).any()
        )

    def rows(self) -> list[dict]:
        """One row per year: data, cartridges, frames or modules, drives, robots, margins, what binds."""
        r = self.years
        slots, bays = self.usable_slots(), self.drive_bays()
        out = []
        for y in range(r.year.size):
            u = r.units[y]
            out.append({
                "year": int(r.year[y]), "stored [TB]": float(r.archive.stored_tb[y]),
                "cartridges": int(r.archive.cartridges[y]), "in the library": int(r.archive.cartridges_onsite[y]),
                f"{self.unit}s": int(u) if math.isfinite(u) else None,
                "usable slots": None if math.isnan(slots[y]) else int(slots[y]), "drives": int(r.drives[y]),
                "drive bays": None if math.isnan(bays[y]) else int(bays[y]), "robots": int(r.robots[y]),
                "mounts per hour": float(r.mounts_per_hour[y]), "robot busy": float(r.robot_utilisation[y]),
                "recall ready at percentile [s]": float(self.recall_ready_q_s[y]), "binds": r.binding[y],
            })  # fmt: skip
        return out


@dataclass(frozen=True)
class LibraryPlan:
    """Drives of one catalog drive for the workload, without a VTS, and the library over the years.

    Attributes
    ----------
    drive : str or None
        The catalog drive, or None when a speed was given.
    speed_mb_s : float
        The drive speed _sized with (the catalog's observed or native rate). [MB/s]
    sizing : Sizing
        The CERN formula per flow (:func:`~vtsmodel.sizing.drives_needed`).
    recall_flow : int or None
        Index of the recall flow in ``sizing``, or None.
    recall_drives_for_wait : int or None
        Drives the recall wait target needs (:func:`~vtsmodel.queueing.recall_drives_needed`);
        None when there are no recalls or the target cannot be met by any count.
    recall_service_s, recall_ready_s : float
        One recall's drive time and its ready time on an idle drive, the mean wait for a
        robot included. [s]
    recalls_per_hour : float
        Recall arrivals in the busiest hour. [1/h]
    drives : int
        Drives to buy now: the other flows plus the larger of the recall flow's throughput
        drives and the wait target's. [count]
    governs : str
        ``"throughput (CERN formula)"`` or ``"recall wait target (queueing)"``.
    notes : tuple of str
    models, tables, rows, sources
        As :class:`VtsPlan`.
    robot_move_s : float
        The robots' move time in the mount cycle. [s]
    robot_wait_s : float
        A mount's mean wait for a robot now (:func:`~vtsmodel.library.robot_wait_s`). [s]
    over_years : LibraryYearsPlan or None
        The library year by year (None: flows given, a speed instead of a catalog drive, or
        a drive without a cartridge capacity in the catalog).
    replay : DrivesByReplay or None
        With the plan's mount log: the drives its replay needs for the recall target, the
        analytic count (M/G/c of the log's own service times) beside; ``drives`` is at least
        these (:func:`vtsmodel.replay.replay_drives_needed`).
    """

    drive: str | None
    speed_mb_s: float
    sizing: Sizing
    recall_flow: int | None
    recall_drives_for_wait: int | None
    recall_service_s: float
    recall_ready_s: float
    recalls_per_hour: float
    drives: int
    governs: str
    notes: tuple[str, ...]
    models: tuple[str, ...]
    tables: tuple[str, ...]
    rows: tuple[tuple[str, str], ...]
    sources: tuple[str, ...]
    robot_move_s: float = math.nan
    robot_wait_s: float = 0.0
    over_years: LibraryYearsPlan | None = None
    replay: DrivesByReplay | None = None

    def headline(self) -> str:
        """One or two sentences: drives now and what governs; over the years, the library, frames, robots, cartridges."""
        what = self.drive or f"a {self.speed_mb_s:g} MB/s drive"
        first = f"Tape library: {self.drives} {what} drives; {self.governs} governs."
        y = self.over_years
        if y is None:
            return first
        r, n = y.years, int(y.year[-1])
        parts = []
        if r.has_frames:
            u0, un = r.units[0], r.units[-1]
            if not math.isfinite(un):
                parts.append(f"more than one {r.library.label}")
            elif u0 == un:
                parts.append(f"{r.library.label} of {_count(un, r.library.unit)}")
            else:
                parts.append(f"{r.library.label} of {_count(u0, r.library.unit)} now, {int(un)} in year {n}")
        parts.append(f"{_count(r.drives[-1], 'drive')}, {_count(r.robots[-1], 'robot')} and "
                     f"{_count(r.archive.cartridges[-1], 'cartridge')} in year {n}")  # fmt: skip
        if r.binding[-1] in _RESOURCE_WORDS:
            parts.append(f"what binds: {r.binding[-1]}")
        return f"{first} Over {n} years: {'; '.join(parts)}."


def _count(n, what: str) -> str:
    return f"{int(n):,} {what}{'' if n == 1 else 's'}"


_RESOURCE_WORDS = ("cartridge slots", "drive bays", "robot mounts per hour")


@dataclass(frozen=True)
class _LibraryDrive:
    """The drive a library plan sizes with, and the times one mount and one file cost."""

    name: str | None  # the catalog drive; None: a speed was given
    speed_mb_s: float  # [MB/s]
    t_mount_s: float  # CERN's tMount for the drive (mount_cycle_s), with the robots' move [s]
    t_overhead_s: float  # CERN's tOverhead per file [s]
    rewind_unload_s: float  # the part of tMount after the data is read [s]

    @classmethod
    def of(
        cls, name: str | None, speed_mb_s: float | None, robot_move_s: float | None = None
    ) -> _LibraryDrive:
        """A catalog drive (its observed or native rate), or a speed (``name`` None); CERN's robot move by default."""
        if name is not None:
            name = resolve_drive(name)
            speed_mb_s = float(drive_spec(name).speed_mb_s)
        return cls(
            name, float(speed_mb_s),
            _t_mount(robot_move_s, name),  # the drive's own parts where the catalog has them
            load("cern_facts").value("toverhead"), mount_parts(name)["rewind_unload"].seconds,
        )  # fmt: skip


@dataclass(frozen=True)
class _RecallTargets:
    """The recall wait target in each year's busiest hour: the drives it needs, or why none will do."""

    recalls_per_hour: np.ndarray  # [1/h]
    service_s: np.ndarray  # a recall's drive time, the robot wait included [s]
    ready_s: np.ndarray  # its time to ready on an idle drive [s]
    drives: np.ndarray  # 0 without recalls; NaN: no number of drives meets the target [count]
    notes: tuple[str, ...]
    tried: dict = dataclasses.field(
        default_factory=dict
    )  # {year: (fewest drives tried, waits at the percentile)}


def _plan_flows(day: PlanDay, a: Answers) -> list[Flow]:
    """The plan's flows: host writes and recalls at the busiest hour's rates, times the peak factor."""
    eff = a.drive_efficiency
    write_rate = float(day.workload.write_mb_s.max())
    recall_rate = float(day.recalls_per_hour.max()) * a.volume_mb / 3600.0
    pattern_w = {} if eff is not None else {"file_mb": a.volume_mb, "files_per_mount": a.files_per_mount}
    pattern_r = {} if eff is not None else {"file_mb": a.volume_mb, "files_per_mount": 1.0}
    return [Flow("host writes", write_rate, a.peak_factor, eff, **pattern_w),
            Flow("recalls (read misses)", recall_rate, a.peak_factor, eff, **pattern_r)]  # fmt: skip


#: Drive counts tried at once above the fewest with a steady state (a wider search follows where none meets).
_TRY = 16


def _recall_targets(lam, a: Answers, d: _LibraryDrive, robot_wait_s=0.0) -> _RecallTargets:
    """The fewest drives whose recall wait at the percentile leaves the ready time within the target, each year.

    Each recall first waits ``robot_wait_s`` on average for a robot, its drive reserved:
    the wait is part of its drive time and of its time to ready. The drives are those of
    :func:`~vtsmodel.queueing.recall_drives_needed`, found for every year in one evaluation
    of :func:`~vtsmodel.queueing.wait_percentile` over the counts just above a steady state.
    """
    lam, wait = np.broadcast_arrays(
        np.atleast_1d(np.asarray(lam, dtype=float)), np.asarray(robot_wait_s, dtype=float)
    )
    service = d.t_mount_s + d.t_overhead_s + a.volume_mb / d.speed_mb_s + wait
    ready = service - d.rewind_unload_s
    room = a.recall_target_s - ready
    need = np.where(lam <= MIN_RECALLS_PER_HOUR, 0.0, math.nan)
    notes = []
    when = (lambda y: f" in year {y}") if lam.size > 1 else (lambda y: "")
    todo = []
    for y in np.flatnonzero(np.isnan(need)):
        if math.isinf(wait[y]):
            notes.append(f"the robots are saturated{when(y)}: no number of drives meets the recall target")
        elif room[y] < 0:
            notes.append(f"a recall needs {ready[y]:.0f} s on an idle {d.name or 'drive'}{when(y)}: "
                         f"the target of {a.recall_target_s:g} s cannot be met by any number of drives")  # fmt: skip
        else:
            todo.append(y)
    if todo:
        t = np.array(todo)
        rate = lam[t] / 3600.0
        lo = np.maximum(1.0, np.floor(rate * service[t]) + 1.0)  # the fewest drives with a steady state
        c = lo[:, None] + np.arange(_TRY)[None, :]
        w = wait_percentile(rate[:, None], service[t, None], c, a.recall_percentile, service_cv=0.0)
        ok = w <= room[t, None]
        tried = {y: (lo[i], w[i]) for i, y in enumerate(todo)}
        for i, y in enumerate(todo):
            if ok[i].any():
                need[y] = c[i, np.argmax(ok[i])]
                continue
            try:  # beyond the counts tried: the bisection
                need[y] = recall_drives_needed(rate[i], service[y], room[y], a.recall_percentile, service_cv=0.0,
                                               max_drives=4096)  # fmt: skip
            except ValueError as exc:
                notes.append(str(exc))
    return _RecallTargets(lam, service, ready, need, tuple(dict.fromkeys(notes)), tried if todo else {})


def _robot_move(a: Answers, model: LibraryModel | None) -> tuple[float | None, str | None]:
    """The robots' move time (None: CERN's, in :func:`~vtsmodel.drives.mount_cycle_s`) and a note when it stands in."""
    if a.robot_move_s is not None:
        return float(a.robot_move_s), None
    if model is not None and model.robot_move_s is not None:
        return float(model.robot_move_s), None
    cern = load("cern_facts").value("tmount_move")
    if model is None:
        return None, None
    return None, (f"no document found gives the {model.label}'s robot move time: CERN's {cern:g} s "
                  "(160 robot arm movements per hour, cern-tape-sizing-2005) stands in (robot_move_s)")  # fmt: skip


def _model(a: Answers) -> tuple[LibraryModel | None, tuple[str, ...]]:
    """The answers' library family with their stand-ins, and a note where its frames cannot be planned."""
    if a.library == NO_LIBRARY:
        return None, ()
    model = library_model(a.library, slots_base=a.slots_base, slots_per_expansion=a.slots_per_expansion)
    missing = model.frame_values_missing()
    if not missing:
        return model, ()
    note = (
        f"no document found gives the {model.label}'s {', '.join(missing)}: its {model.unit}s are not planned"
    )
    answerable = [k for k in missing if k in ("slots_base", "slots_per_expansion")]  # the plan's stand-ins
    if answerable == list(missing):
        note += f"; give {' and '.join(answerable)}"
    return model, (f"{note} (see data/notes/library_models.md)",)


def _written_tb_per_year(plan: Plan, day: PlanDay) -> float:
    """TB written in a year, one copy: the answer, the writing flows' average rate all year, or the day's writes x 365.25. [TB]"""
    a = plan.answers
    if a.growth_tb_per_year is not None:
        return float(a.growth_tb_per_year)
    if plan.library_flows:
        return sum(f.flow.rate_mb_s for f in plan.library_flows if f.writes) * YEAR_S / 1e6
    w = day.workload
    days = w.hours / 24.0
    return float(w.write_mb.sum()) / days * (YEAR_S / 86400.0) / 1e6


def _archive(plan: Plan, day: PlanDay, drive: str) -> ArchiveYears:
    a = plan.answers
    cart = float(cartridge_tb(drive, compression=a.library_compression, fill=a.fill_efficiency))
    return archive_years(
        a.years, stored_now_tb=a.stored_now_tb, growth_tb_per_year=_written_tb_per_year(plan, day),
        growth_rate=a.growth_rate, ingest_growth=a.ingest_growth, retention_years=a.retention_years,
        copies=a.copies, offsite_copies=a.offsite_copies, cartridge_tb=cart, reclaim_reserve=a.reclaim_reserve,
    )  # fmt: skip


def _bought(counts: np.ndarray) -> np.ndarray:
    """What is added each year to hold the most needed so far (year 0: all of it). [count]"""
    most = np.maximum.accumulate(counts)
    return np.concatenate([most[:1], np.diff(most)])


def _ready_at_percentile(t: _RecallTargets, a: Answers, recall_drives: np.ndarray) -> np.ndarray:
    """A recall's ready time at the percentile on ``recall_drives`` (NaN: no recalls; inf: no steady state). [s]"""
    rate = t.recalls_per_hour / 3600.0
    out = np.where(t.recalls_per_hour <= MIN_RECALLS_PER_HOUR, math.nan, math.inf)
    ok = (
        (t.recalls_per_hour > MIN_RECALLS_PER_HOUR)
        & np.isfinite(t.service_s)
        & (rate * t.service_s < recall_drives)
    )
    for y in np.flatnonzero(ok):
        lo, w = t.tried.get(y, (None, None))
        k = int(recall_drives[y] - lo) if lo is not None else -1
        if 0 <= k < (w.size if w is not None else 0):  # on the grid the target's search evaluated
            out[y] = w[k] + t.ready_s[y]
        else:
            w = wait_percentile(
                rate[y], t.service_s[y], recall_drives[y], a.recall_percentile, service_cv=0.0
            )
            out[y] = float(w) + t.ready_s[y]
    return out


def _over_years(
    plan: Plan, day: PlanDay, d: _LibraryDrive, flows: list[Flow], sizing: Sizing, model: LibraryModel | None,
    recall_idx: int | None, recalls_per_hour: float,
) -> tuple[LibraryYearsPlan, _RecallTargets]:  # fmt: skip
    """The library year by year (the core's years, each year's recall wait target, the cost), and the targets."""
    a = plan.answers
    r = library_years(_archive(plan, day, d.name), flows, drive=d.name, library=model, robots=a.robots,
                      robot_move_s=a.robot_move_s)  # fmt: skip
    k = r.flow_factor
    recall_tp = (float(sizing.drives[recall_idx]) if recall_idx is not None else 0.0) * k
    others = float(sizing.total) * k - recall_tp
    t = _recall_targets(recalls_per_hour * k, a, d, r.robot_wait_mean_s)
    recall = np.maximum(recall_tp, np.nan_to_num(t.drives))
    drives = np.maximum(np.ceil(others + recall - 1e-9), r.drives)
    r = r.with_drives(drives)
    ready_q = _ready_at_percentile(
        t, a, np.maximum(np.floor(drives - others + 1e-9), 1.0)
    )  # the drives left for recalls
    units_bought = (
        _bought(r.units) if r.has_frames and np.isfinite(r.units).all() else np.full(k.size, math.nan)
    )
    bought = {"drive": _bought(r.drives), "cartridge": r.archive.cartridges_bought}
    if np.isfinite(units_bought).all():
        bought["frame"] = units_bought
    prices = {"drive": a.price_drive, "cartridge": a.price_cartridge, "frame": a.price_frame,
              "support_per_year": a.price_support_per_year}  # fmt: skip
    cost = cost_by_year(bought, prices, r.archive.stored_tb)
    plan = LibraryYearsPlan(r, r.drives_fractional, np.where(t.drives > 0, t.drives, math.nan), t.service_s, t.ready_s,
                            ready_q, float(a.recall_target_s), float(a.recall_percentile), bought["drive"], units_bought,
                            cost)  # fmt: skip
    return plan, t


def _robots_now(
    fl: list[Flow], sizing: Sizing, d: _LibraryDrive, a: Answers, model, move
) -> tuple[int, float]:
    """Robots now and a mount's mean wait for one, the mounts of every flow queued on them (no years planned)."""
    if d.name is None:
        return 1, 0.0
    mounts = np.array([_mounts_per_hour(fl, sizing.efficiencies, d.speed_mb_s, d.t_mount_s)])
    robots, _needed, _util, wait, _p95 = _robots(mounts, model, a.robots, move)
    return int(robots[0]), float(wait[0])


def _replayed(
    plan: Plan, drive: str, robots: int, move: float
) -> tuple[DrivesByReplay | None, tuple[str, ...]]:
    """The drives the plan's mount log needs by replay for the recall target, the analytic count beside (issue 24).

    Every request of the log is a mount (a library has no cache in front): robots, loads,
    locates, reads and unloads of the catalog drive (:func:`vtsmodel.replay.replay_library`),
    the response of each request its wait and its time to data. Drives are added until the
    replay's percentile meets the target (:func:`vtsmodel.replay.replay_drives_needed`).
    """
    a = plan.answers
    key = (id(plan.log), drive, robots, move, a.recall_target_s, a.recall_percentile)
    kept = _REPLAYED.get(key)
    if kept is not None and kept[0] is plan.log:  # the same log object: a page's moves replay once
        return kept[1]
    lib = replay_library(1, drive=drive, robots=robots, robot_move_s=move)
    try:
        out = replay_drives_needed(plan.log, a.recall_target_s, q=a.recall_percentile, library=lib)
        answer = out, tuple(out.replay.notes)
    except ConstraintError as exc:
        said = str(exc)
        if hasattr(exc, "replayed_s"):  # the search's limit: said in the plan's answers
            said = (f"even {exc.drives:,} drives leave a recall at the {100 * a.recall_percentile:g}th percentile "
                    f"{number(exc.replayed_s)} s to be ready, against the {number(a.recall_target_s)} s target")  # fmt: skip
        answer = None, (f"the mount log replayed: {said}; requests for one cartridge wait for each other whatever "
                        "the drives (a log whose volumes fill few cartridges of this drive is bound by them)",)  # fmt: skip
    _REPLAYED[key] = (plan.log, answer)
    while len(_REPLAYED) > 8:
        _REPLAYED.pop(next(iter(_REPLAYED)))
    return answer


#: The last replays, by log object and library (a log's replay takes 0.1 to 1 s; a page moves the answers often).
_REPLAYED: dict = {}


@declare(drive_speed_mb_s=q.SPEED_MB_S.but(default=None))
def library_plan(
    plan: Plan | None = None,
    *,
    flows: Sequence | None = None,
    drive: str | None = None,
    drive_speed_mb_s: float | None = None,
) -> LibraryPlan:
    """Tape drives for the workload in a tape library, and the library over the years.

    Flows (from the plan unless ``flows`` are given): host writes at the busiest hour's
    rate, and recalls at the busiest hour's recall MB/s, each times the answers' peak
    factor (a library without a cache must keep up with its busiest hour). Each flow's
    efficiency is the answer, or from its access pattern
    (:func:`~vtsmodel.drives.drive_efficiency`: writes ``files_per_mount`` files of
    ``volume_mb``, recalls one file per mount). Drives per flow:
    ``rate · factor / efficiency / speed`` (cern-tape-sizing-2005, Summary).

    ``tMount`` is :func:`~vtsmodel.drives.mount_cycle_s` for the drive: its own load,
    locate and rewind/unload times where the catalog has them, CERN's 9940B parts where it
    does not, and the robots' move (the answer, the library family's document, else CERN's
    22.5 s); ``tOverhead`` is CERN's 4.4 s per file.

    Recalls also need drives enough for the wait target: each recall waits for a robot
    (the mean of :func:`~vtsmodel.library.robot_wait_s` for the mounts of every flow),
    keeps a drive for that wait plus ``tMount + tOverhead + volume / speed`` and is ready
    ``tMount − rewind/unload + tOverhead + volume / speed`` after it starts; the fewest
    drives whose wait at the percentile leaves the ready time within the target
    (:func:`~vtsmodel.queueing.recall_drives_needed`). The larger of the recall flow's
    throughput drives and these governs the recall part; the total adds the other flows.

    Over the years (with a plan and a catalog drive that gives a cartridge capacity):
    the archive (:func:`~vtsmodel.archive.archive_years`: data stored now, written each
    year, the answer or the day's writes x 365.25, retention, copies, the cartridge's
    native capacity x the expected compression x the fill efficiency, the reclamation
    reserve); the flows grow with the data written; each year's drives as above, the
    robots, the frames or modules of the library family and what binds
    (:func:`~vtsmodel.library_years.library_years`); the cost from the user's prices
    (:func:`~vtsmodel.archive.cost_by_year`).

    Parameters
    ----------
    plan : Plan, optional
        The workload and answers.
    flows : sequence of Flow or mapping, optional
        Flows to size instead of the plan's (the CERN sample calculation's, say).
    drive : str, optional
        A catalog drive; default the answers' ``library_drive``.
    drive_speed_mb_s : float, optional
        A drive speed instead of a catalog drive, 10^-9 to 10^9. [MB/s]

    Returns
    -------
    LibraryPlan
    """
    return _plan_library(plan, flows=flows, drive=drive, drive_speed_mb_s=drive_speed_mb_s)


def _plan_library(
    plan=None, *, flows=None, drive=None, drive_speed_mb_s=None, years: bool = True
) -> LibraryPlan:
    """:func:`library_plan`; ``years=False`` leaves the years out (today's drives only: the sensitivity's)."""
    if drive_speed_mb_s is not None:
        drive_speed_mb_s = as_scalar(
            "drive_speed_mb_s", q.SPEED_MB_S.check("drive_speed_mb_s", drive_speed_mb_s)
        )
    if plan is not None:
        check_plan(plan)
    if plan is None and flows is None:
        raise ValueError("library_plan needs a plan or flows")
    if drive is not None and drive_speed_mb_s is not None:
        raise ValueError("give drive or drive_speed_mb_s, not both")
    a = plan.answers if plan is not None else None
    name = drive or (a.library_drive if a is not None else None)
    if drive_speed_mb_s is None and name is None:
        raise ValueError("give drive (a catalog drive) or drive_speed_mb_s")
    model, model_notes = _model(a) if a is not None else (None, ())
    catalog_drive = None if drive_speed_mb_s is not None else resolve_drive(name)
    if (
        model is not None
        and catalog_drive is not None
        and drive_spec(catalog_drive).family not in model.families
    ):
        spec = drive_spec(catalog_drive)
        model_notes = (f"the {model.label} takes {', '.join(model.families)} drives, not the {spec.label}: "
                       f"no {model.unit}s planned (choose a drive it takes, or another library)",)  # fmt: skip
        model = None
    move, move_note = _robot_move(a, model) if a is not None else (None, None)
    d = _LibraryDrive.of(catalog_drive, drive_speed_mb_s, move)
    years_ok = years and plan is not None and flows is None and catalog_drive is not None
    if years_ok and drive_spec(catalog_drive).native_capacity_gb is None:
        years_ok = False
        model_notes += (
            f"the catalog gives no cartridge capacity for {catalog_drive}: no plan over the years",
        )

    own = plan.library_flows if plan is not None and flows is None else ()
    recall_idx = 1 if flows is None and not own else None  # the day's flows: writes, then recalls

    def run():
        day = plan_day(plan) if plan is not None else None
        if flows is not None or own:
            fl = _flows(flows) if flows is not None else [f.flow for f in own]
        else:
            fl = _plan_flows(day, a)
        sizing = _sized(tuple(fl), d.speed_mb_s, d.t_mount_s, d.t_overhead_s)
        if day is None:
            return sizing, None, None, 1, 0.0
        lam = float(day.recalls_per_hour.max()) if recall_idx is not None else 0.0
        if years_ok:
            over, targets = _over_years(plan, day, d, fl, sizing, model, recall_idx, lam)
            robots, wait = int(over.years.robots[0]), float(over.years.robot_wait_mean_s[0])
        else:
            over = None
            robots, wait = _robots_now(fl, sizing, d, a, model, move if move is not None else cern_move)
            targets = _recall_targets(lam, a, d, wait)
        return sizing, (targets if recall_idx is not None else None), over, robots, wait

    cern_move = load("cern_facts").value("tmount_move")
    (sizing, targets, over, robots, robot_wait), notes = _collect_notes(run)
    parts = np.asarray(sizing.drives, dtype=float)
    recall_tp = float(parts[recall_idx]) if recall_idx is not None else 0.0
    others = float(parts.sum() - recall_tp)
    need = None
    if targets is not None and not math.isnan(targets.drives[0]):
        need = int(targets.drives[0])
    wait_need = float(need) if need is not None else 0.0
    governs = "recall wait target (queueing)" if wait_need > recall_tp else "throughput (CERN formula)"
    total = others + max(recall_tp, wait_need)
    whole = int(math.ceil(total - 1e-9 * max(1.0, total)))
    if targets is not None and need is None:
        governs = "throughput (CERN formula); the recall wait target cannot be met"
    replayed, replay_notes = None, ()
    if plan is not None and plan.log is not None and catalog_drive is not None:
        replayed, replay_notes = _replayed(
            plan, catalog_drive, robots, move if move is not None else cern_move
        )
    if replayed is not None and replayed.drives > whole:
        whole, governs = replayed.drives, "recall target by replay of the mount log"
        if over is not None:
            over = dataclasses.replace(
                over, years=over.years.with_drives(np.maximum(over.years.drives, whole))
            )
    if targets is not None:
        lam, service, ready = (
            float(x[0]) for x in (targets.recalls_per_hour, targets.service_s, targets.ready_s)
        )
    elif a is not None:  # no recall flow: what one recall of a volume would take, for the record
        service = d.t_mount_s + d.t_overhead_s + a.volume_mb / d.speed_mb_s + robot_wait
        lam, ready = 0.0, service - d.rewind_unload_s
    else:
        lam, service, ready = 0.0, math.nan, math.nan
    all_notes = tuple(dict.fromkeys(model_notes + ((move_note,) if move_note else ())
                                    + (targets.notes if targets else ()) + replay_notes + notes))  # fmt: skip
    prov = Provenance.of_library(d.name, model)
    return LibraryPlan(d.name, d.speed_mb_s, sizing, recall_idx, need, service, ready, lam, whole, governs, all_notes,
                       prov.models, prov.tables, prov.rows, prov.sources, robot_move_s=move if move is not None else cern_move,
                       robot_wait_s=robot_wait, over_years=over, replay=replayed)  # fmt: skip
