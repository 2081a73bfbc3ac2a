"""The hours a plan evaluates, as the models take them (:class:`PlanDay`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vtsmodel.hits import HitCurve, tvc_read_hit
from vtsmodel.hourly import HourlyWorkload
from vtsmodel.plan.answers import ARCHIVE_ANSWERS, Answers
from vtsmodel.plan.files import Plan, check_plan
from vtsmodel.plan.provenance import _given_again, _recorded
from vtsmodel.recall import recall_ready_s, recall_service_s
from vtsmodel.workload import Profile, make_profile

if TYPE_CHECKING:  # for the annotation only: vts.py imports this module
    from vtsmodel.plan.vts import VtsConfiguration

__all__ = ["MIN_RECALLS_PER_HOUR", "PlanDay", "plan_day"]

#: Recall arrivals below this count as none (the queueing formulas overflow on denormal
#: rates; a billionth of a recall an hour is none). [1/h]
MIN_RECALLS_PER_HOUR = 1e-9


@dataclass(frozen=True)
class PlanDay:
    """The plan's hours, as the models take them.

    Attributes
    ----------
    workload : HourlyWorkload
        The hours (a workload file's, or the day the answers describe).
    profile : Profile
        The same hours as the day simulation's write and read rates.
    cf : float
        Data compressibility. [-]
    read_hit : float
        Read-hit ratio the day runs with. [-]
    read_hit_basis : str
        Where it comes from (``"answer"``, a workload's mounts, a mount log).
    recalls_per_hour : numpy.ndarray
        Recall arrivals in each hour. [1/h]
    recall_basis : str
        Where they come from.
    volume_mb : float
        Volume size, uncompressed. [MB]
    virtual_drives : int
        Virtual drives needed at once (0: no requirement). [count]
    recall_service_s, recall_ready_s : float
        One recall's drive time, and its time to ready on an idle drive. [s]
    hits : HitCurve or None
        A mount log's hit curve: each configuration then gets its own read-hit ratio.
    """

    workload: HourlyWorkload
    profile: Profile
    cf: float
    read_hit: float
    read_hit_basis: str
    recalls_per_hour: np.ndarray
    recall_basis: str
    volume_mb: float
    virtual_drives: int
    recall_service_s: float
    recall_ready_s: float
    hits: HitCurve | None = None

    def of(self, cfg: VtsConfiguration) -> PlanDay:
        """The day as ``cfg`` sees it: with a mount log, its own read-hit ratio and recalls."""
        if self.hits is None:
            return self
        hit = float(tvc_read_hit(self.hits, cfg.tvc_gb, feature=cfg.feature, cf=self.cf))
        recalls = np.asarray(self.workload.read_mb, dtype=float) * (1.0 - hit) / self.volume_mb
        return dataclasses.replace(self, read_hit=hit, recalls_per_hour=recalls)


#: The answers a plan's day reads: all but the library's.
DAY_ANSWERS = tuple(k for k in Answers.__dataclass_fields__ if k not in (*ARCHIVE_ANSWERS, "library_drive"))
_LAST: dict = {}  # the last plan's day: its key, the plan (its workload's and hits' ids stay theirs), the day


def plan_day(plan: Plan) -> PlanDay:
    """The hours ``plan`` evaluates, with the read-hit ratio and recalls it implies.

    The last plan's day is kept (the VTS plan, the library and a page read it for one change),
    with the project warnings it gave, given again on each call; the library's answers do not
    change it.
    """
    check_plan(plan)
    key = (tuple(getattr(plan.answers, k) for k in DAY_ANSWERS), id(plan.workload), id(plan.hits))
    if _LAST.get("key") != key:
        _LAST.update(key=key, plan=plan, entry=_recorded(lambda: _plan_day(plan)))
    return _given_again(_LAST["entry"])


def _plan_day(plan: Plan) -> PlanDay:
    a = plan.answers
    w = plan.day()
    hit, hit_basis = a.read_hit, "answer"
    by_mounts = w.read_hit_by_mounts() if plan.workload is not None else None
    if by_mounts is not None:
        hit, hit_basis = by_mounts, "workload (read-hit and recall mounts)"
    if plan.hits is not None:
        hit_basis = "mount log (each configuration its own)"
    rec = w.column("recall_mounts")
    if plan.hits is not None:
        recalls = w.read_mb * (1.0 - hit) / a.volume_mb  # each configuration replaces it (PlanDay.of)
        basis = "reads x (1 - the configuration's read hit from the mount log) / volume size"
    elif rec is not None:
        recalls = np.asarray(rec, dtype=float)
        basis = (
            "given per hour"
            if plan.workload is None and a.recalls_per_hour is not None
            else (
                "workload (recall mounts)"
                if plan.workload is not None
                else "reads x (1 - read hit) / volume size"
            )
        )
    else:
        recalls = w.read_mb * (1.0 - hit) / a.volume_mb
        basis = "reads x (1 - read hit) / volume size"
    vd = w.column("max_virtual_drives")
    vdn = max(int(a.virtual_drives_needed), int(vd.max()) if vd is not None and vd.size else 0)
    rows = [
        (float(h), float(wr), float(rd))
        for h, wr, rd in zip(range(w.hours), w.write_mb_s, w.read_mb_s, strict=True)
    ]
    profile = make_profile(rows, duration_hours=float(w.hours), name=w.name)
    service = float(recall_service_s(a.volume_mb, cf=a.cf, drive=a.vts_drive))
    ready = float(recall_ready_s(a.volume_mb, cf=a.cf, drive=a.vts_drive))
    return PlanDay(w, profile, float(a.cf), float(hit), hit_basis, recalls, basis, float(a.volume_mb), vdn,
                   service, ready, plan.hits)  # fmt: skip
