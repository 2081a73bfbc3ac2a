"""The tape-library plan: drives of one catalog drive for a plan's workload, without a VTS.

The CERN formula sizes each flow (:func:`~vtsmodel.sizing.drives_needed`); recalls also
need drives enough for the wait target (:func:`~vtsmodel.queueing.recall_drives_needed`);
the larger governs (:func:`library_plan`, :class:`LibraryPlan`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vtsmodel import quantities as q
from vtsmodel._inputs import declare
from vtsmodel._tables import load
from vtsmodel._validation import as_scalar
from vtsmodel.catalog import drive_spec, mount_parts, resolve_drive
from vtsmodel.drives import mount_cycle_s
from vtsmodel.plan.answers import Answers
from vtsmodel.plan.day import MIN_RECALLS_PER_HOUR, PlanDay, plan_day
from vtsmodel.plan.files import Plan, check_plan
from vtsmodel.plan.provenance import Provenance, _collect_notes
from vtsmodel.queueing import recall_drives_needed
from vtsmodel.sizing import Flow, Sizing, drives_needed

__all__ = ["LibraryPlan", "library_plan"]


@dataclass(frozen=True)
class LibraryPlan:
    """Drives of one catalog drive for the workload, without a VTS.

    Attributes
    ----------
    drive : str or None
        The catalog drive, or None when a speed was given.
    speed_mb_s : float
        The drive speed sized with (the catalog's observed or native rate). [MB/s]
    sizing : Sizing
        The CERN formula per flow (:func:`~vtsmodel.sizing.drives_needed`).
    recall_flow : int or None
        Index of the recall flow in ``sizing``, or None.
    recall_drives_for_wait : int or None
        Drives the recall wait target needs (:func:`~vtsmodel.queueing.recall_drives_needed`);
        None when there are no recalls or the target cannot be met by any count.
    recall_service_s, recall_ready_s : float
        One recall's drive time and its ready time on an idle drive. [s]
    recalls_per_hour : float
        Recall arrivals in the busiest hour. [1/h]
    drives : int
        Drives to buy: the other flows plus the larger of the recall flow's throughput
        drives and the wait target's. [count]
    governs : str
        ``"throughput (CERN formula)"`` or ``"recall wait target (queueing)"``.
    notes : tuple of str
    models, tables, rows, sources
        As :class:`VtsPlan`.
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

    def headline(self) -> str:
        """One sentence: how many drives and what governs."""
        what = self.drive or f"a {self.speed_mb_s:g} MB/s drive"
        return f"Tape library: {self.drives} {what} drives; {self.governs} governs."


@dataclass(frozen=True)
class _LibraryDrive:
    """The drive a library plan sizes with, and the times one mount and one file cost."""

    name: str | None  # the catalog drive; None: a speed was given
    speed_mb_s: float  # [MB/s]
    t_mount_s: float  # CERN's tMount for the drive (mount_cycle_s) [s]
    t_overhead_s: float  # CERN's tOverhead per file [s]
    rewind_unload_s: float  # the part of tMount after the data is read [s]

    @classmethod
    def of(cls, name: str | None, speed_mb_s: float | None) -> _LibraryDrive:
        """A catalog drive (its observed or native rate), or a speed (``name`` None)."""
        if name is not None:
            name = resolve_drive(name)
            speed_mb_s = float(drive_spec(name).speed_mb_s)
        return cls(
            name, float(speed_mb_s),
            float(mount_cycle_s(drive=name)),  # the drive's own parts where the catalog has them
            load("cern_facts").value("toverhead"), mount_parts(name)["rewind_unload"].seconds,
        )  # fmt: skip


@dataclass(frozen=True)
class _RecallTarget:
    """The recall wait target in the busiest hour: the drives it needs, or why none will do."""

    recalls_per_hour: float  # [1/h]
    service_s: float  # a recall's drive time [s]
    ready_s: float  # its time to ready on an idle drive [s]
    drives: int | None  # None: no number of drives meets the target
    notes: tuple[str, ...]


def _plan_flows(day: PlanDay, a: Answers) -> list[Flow]:
    """The plan's flows: host writes and recalls at the busiest hour's rates, times the peak factor."""
    eff = a.drive_efficiency
    write_rate = float(day.workload.write_mb_s.max())
    recall_rate = float(day.recalls_per_hour.max()) * a.volume_mb / 3600.0
    pattern_w = {} if eff is not None else {"file_mb": a.volume_mb, "files_per_mount": a.files_per_mount}
    pattern_r = {} if eff is not None else {"file_mb": a.volume_mb, "files_per_mount": 1.0}
    return [Flow("host writes", write_rate, a.peak_factor, eff, **pattern_w),
            Flow("recalls (read misses)", recall_rate, a.peak_factor, eff, **pattern_r)]  # fmt: skip


def _recall_target(day: PlanDay, a: Answers, d: _LibraryDrive) -> _RecallTarget:
    """The fewest drives whose recall wait at the percentile leaves the ready time within the target."""
    lam = float(day.recalls_per_hour.max())
    service = d.t_mount_s + d.t_overhead_s + a.volume_mb / d.speed_mb_s
    ready = service - d.rewind_unload_s
    room = a.recall_target_s - ready
    if lam <= MIN_RECALLS_PER_HOUR:
        return _RecallTarget(lam, service, ready, 0, ())
    if room < 0:
        note = (f"a recall needs {ready:.0f} s on an idle {d.name or 'drive'}: "
                f"the target of {a.recall_target_s:g} s cannot be met by any number of drives")  # fmt: skip
        return _RecallTarget(lam, service, ready, None, (note,))
    try:
        need = int(recall_drives_needed(lam / 3600.0, service, room, a.recall_percentile, service_cv=0.0,
                                        max_drives=4096))  # fmt: skip
    except ValueError as exc:
        return _RecallTarget(lam, service, ready, None, (str(exc),))
    return _RecallTarget(lam, service, ready, need, ())


@declare(drive_speed_mb_s=q.SPEED_MB_S.but(default=None))
def library_plan(
    plan: Plan | None = None,
    *,
    flows: Sequence | None = None,
    drive: str | None = None,
    drive_speed_mb_s: float | None = None,
) -> LibraryPlan:
    """Tape drives for the workload in a tape library: the CERN formula and the recall wait target.

    Flows (from the plan unless ``flows`` are given): host writes at the busiest hour's
    rate, and recalls at the busiest hour's recall MB/s, each times the answers' peak
    factor (a library without a cache must keep up with its busiest hour). Each flow's
    efficiency is the answer, or from its access pattern
    (:func:`~vtsmodel.drives.drive_efficiency`: writes ``files_per_mount`` files of
    ``volume_mb``, recalls one file per mount). Drives per flow:
    ``rate · factor / efficiency / speed`` (cern-tape-sizing-2005, Summary).

    ``tMount`` is :func:`~vtsmodel.drives.mount_cycle_s` for the drive: its own load,
    locate and rewind/unload times where the catalog has them, CERN's 9940B parts where it
    does not, and CERN's robot move; ``tOverhead`` is CERN's 4.4 s per file.

    Recalls also need drives enough for the wait target: each recall keeps a drive for
    ``tMount + tOverhead + volume / speed`` and is ready ``tMount − rewind/unload +
    tOverhead + volume / speed`` after it starts; the fewest
    drives whose wait at the percentile leaves the ready time within the target
    (:func:`~vtsmodel.queueing.recall_drives_needed`). The larger of the recall flow's
    throughput drives and these governs the recall part; the total adds the other flows.

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
    name = drive or (plan.answers.library_drive if plan is not None else None)
    if drive_speed_mb_s is None and name is None:
        raise ValueError("give drive (a catalog drive) or drive_speed_mb_s")
    d = _LibraryDrive.of(None if drive_speed_mb_s is not None else name, drive_speed_mb_s)

    def run() -> tuple[Sizing, _RecallTarget | None]:
        day = plan_day(plan) if plan is not None else None
        fl = list(flows) if flows is not None else _plan_flows(day, plan.answers)
        sizing = drives_needed(fl, drive_speed_mb_s=d.speed_mb_s, t_mount_s=d.t_mount_s,
                               t_overhead_s=d.t_overhead_s)  # fmt: skip
        return sizing, (_recall_target(day, plan.answers, d) if day is not None else None)

    (sizing, target), notes = _collect_notes(run)
    recall_idx = 1 if flows is None else None  # the plan's flows: writes, then recalls
    parts = np.asarray(sizing.drives, dtype=float)
    recall_tp = float(parts[recall_idx]) if recall_idx is not None else 0.0
    others = float(parts.sum() - recall_tp)
    need = target.drives if target is not None else None
    wait_need = float(need) if need is not None else 0.0
    governs = "recall wait target (queueing)" if wait_need > recall_tp else "throughput (CERN formula)"
    total = others + max(recall_tp, wait_need)
    whole = int(math.ceil(total - 1e-9 * max(1.0, total)))
    if target is not None and need is None:
        governs = "throughput (CERN formula); the recall wait target cannot be met"
    lam, service, ready = (
        (target.recalls_per_hour, target.service_s, target.ready_s) if target else (0.0, math.nan, math.nan)
    )
    prov = Provenance.of_library(d.name)
    return LibraryPlan(d.name, d.speed_mb_s, sizing, recall_idx, need, float(service), float(ready), float(lam),
                       whole, governs, (target.notes if target else ()) + notes, prov.models, prov.tables,
                       prov.rows, prov.sources)  # fmt: skip
