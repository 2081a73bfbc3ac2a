"""Plan a system from a workload: every VTS B18 configuration evaluated, the smallest that meets the targets.

The VTS paper names the tools IBM's field staff used for this: Tape Magic, "answers to a
half-dozen or so simple questions about basic customer tape workload characteristics"
in, a configuration out (ibm-vts-b18-2000, Sec. 8.3), and Consul Batch Magic, hourly tape
activity from SMF records in, projected VTS configurations and cache statistics out
(Sec. 8.4). This module is an open one, built on the project's models:

:class:`Answers`
    The handful of answers (data written per day and its window, reads and their hit
    ratio, compressibility, recalls, volume size, the targets, the drives).
:class:`Plan`
    The answers and, optionally, an hourly workload (:mod:`vtsmodel.hourly`), saved and
    loaded as a JSON plan file (:func:`save_plan`, :func:`load_plan`).
:func:`vts_plan`
    Every configuration the paper offers (feature x Table 3 cache x 3590 drives, with the
    prerequisites it states) run through the day hour by hour
    (:func:`~vtsmodel.tvc_day.simulate_tvc`), recalls queued on the drives left after
    copying (:func:`~vtsmodel.recall.recall_drives`, :func:`~vtsmodel.queueing.wait_percentile`),
    the binding resource named (:func:`~vtsmodel.bottleneck.binding_resource`); the
    smallest configuration that meets every target, its margins, and what the next
    smaller one fails.
:func:`library_plan`
    Drives of any catalog drive for the same workload without a VTS: the CERN formula per
    flow (:func:`~vtsmodel.sizing.drives_needed`) and the drives recalls need to meet the
    wait target (:func:`~vtsmodel.queueing.recall_drives_needed`); the larger governs.
:func:`sensitivity`
    How far each answer moves when each input moves by a stated fraction (a tornado).
:func:`evaluate`
    All three at once, as :class:`PlanResult`.

Every result carries the model functions and data tables it used (``models``,
``tables``, ``rows``) for :func:`vtsmodel.cite`.

Modelling choices (each documented where it is made, and listed by :func:`assumptions`):
the order that makes one configuration "smaller" than another (cache, then feature, then
drives: the paper prices nothing); recall waits checked in the busiest hour; the copy's
drive count from the drive's rate and the efficiency of stacking volumes on a cartridge;
a day that repeats (un-copied data at its end is carried into a second pass).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import numbers
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vtsmodel import quantities as q
from vtsmodel._files import atomic_write, parse_json_bytes, read_file
from vtsmodel._inputs import Input, declare
from vtsmodel._tables import load
from vtsmodel._validation import VtsModelWarning, as_scalar
from vtsmodel.hourly import COLUMNS, MAX_HOURS, HourlyWorkload, read_hourly_workload

__all__ = [
    "FEATURE_ORDER",
    "FRACTION",
    "MAX_PLAN_BYTES",
    "MIN_RECALLS_PER_HOUR",
    "PLAN_SCHEMA",
    "PLAN_VERSION",
    "STEP",
    "Answers",
    "Check",
    "Configuration",
    "ConfigResult",
    "LibraryPlan",
    "Plan",
    "PlanResult",
    "Sensitivity",
    "SensitivityRow",
    "VtsPlan",
    "answer_inputs",
    "assumptions",
    "evaluate",
    "evaluate_configuration",
    "library_plan",
    "load_plan",
    "plan_from_bytes",
    "plan_from_dict",
    "plan_to_dict",
    "plan_to_json",
    "save_plan",
    "sensitivity",
    "vts_configurations",
    "vts_plan",
]

_VTS = "ibm-vts-b18-2000"
_CERN = "cern-tape-sizing-2005"
_YOURS = "your workload"

#: The ``schema`` field of a plan file.
PLAN_SCHEMA = "vtsmodel-plan"
#: The plan file version this module writes and reads.
PLAN_VERSION = 1
#: Largest plan file read. [bytes]
MAX_PLAN_BYTES = 2_000_000

#: Recall arrivals below this count as none (the queueing formulas overflow on denormal
#: rates; a billionth of a recall an hour is none). [1/h]
MIN_RECALLS_PER_HOUR = 1e-9

#: Time step of the planner's day simulation: 0.5 to 60 min (finer steps only cost time:
#: a day at 0.5 min is 2,880 steps per configuration). [min]
STEP = q.STEP_MINUTES.but(default=5.0, lo=0.5, source="practical limit (finer steps only cost time)")
#: The move of each input in a sensitivity study, a share of its value. [-]
FRACTION = Input(
    "move of each input", "-", 0.2, lo=0.0, hi=1.0, lo_open=True, hi_open=True,
    source="project assumption (a tornado's +/- share); 1 would move an input to 0",
    help="Each input is moved down and up by this share of its value.",
)  # fmt: skip

#: Feature levels from the least to the most capable (PAF includes EHPO, Sec. 3.5).
FEATURE_ORDER = ("base", "ehpo", "paf")
_FEATURE_LABEL = {"base": "base", "ehpo": "EHPO", "paf": "PAF"}
_VTS_DRIVE_CATALOG = {"3590B": "IBM3590B", "3590E": "IBM3590E"}


# --------------------------------------------------------------------------------------
# The answers
# --------------------------------------------------------------------------------------
@functools.cache
def _inputs() -> dict[str, Input]:
    from vtsmodel.catalog import drive_options

    return {
        "write_gb_per_day": Input(
            "data written per day", "GB", 2000.0, lo=0.0, hi=1e6, source=_YOURS, digits=4,
            help="Host data written in a day, uncompressed (GB = 10^9 bytes).",
        ),
        "write_window_hours": Input(
            "write window", "h", 6.0, lo=0.0, hi=24.0, lo_open=True, source=_YOURS, step=0.5,
            help="Hours in which the day's writes arrive, evenly.",
        ),
        "write_start_hour": Input(
            "write window starts", "h", 0.0, lo=0.0, hi=24.0, hi_open=True, source=_YOURS, step=0.5,
            help="Hour of the day the write window opens (the day starts at 0).",
        ),
        "read_gb_per_day": Input(
            "data read per day", "GB", 400.0, lo=0.0, hi=1e6, source=_YOURS,
            help="Host data read in a day, uncompressed.",
        ),
        "read_window_hours": Input(
            "read window", "h", 24.0, lo=0.0, hi=24.0, lo_open=True, source=_YOURS, step=0.5,
            help="Hours in which the day's reads arrive, evenly.",
        ),
        "read_start_hour": Input(
            "read window starts", "h", 0.0, lo=0.0, hi=24.0, hi_open=True, source=_YOURS, step=0.5,
            help="Hour of the day the read window opens.",
        ),
        "read_hit": q.READ_HIT.but(
            default=0.7, source=_YOURS,
            help="Share of the reads found in the cache; the rest are recalled from tape.",
        ),
        "cf": q.CF.but(default=2.5),
        "recalls_per_hour": q.RECALLS_PER_HOUR.but(
            default=None, lo=0.0, lo_open=False, hi=1e5, source=_YOURS,
            help="Recalls arriving per hour in the read window; empty: reads x misses / volume size.",
        ),
        # at least a byte: stored after a CF of up to 100 it stays above SMALL
        "volume_mb": q.VOLUME_MB.but(
            label="volume or file size", default=800.0, lo=1e-6, hi=1e6,
            help="Logical volume (VTS) or file (library) size, uncompressed; 800 MB in the paper's tests.",
        ),
        "files_per_mount": q.FILES_PER_MOUNT.but(
            hi=1e6, help="Files written or read per mount in a tape library (nRequests).",
        ),
        "recall_target_s": Input(
            "recall ready within", "s", 600.0, lo=0.0, hi=86400.0, lo_open=True, source=_YOURS,
            help="Time from a recall's request until its volume is ready, at the percentile below.",
        ),
        "recall_percentile": Input(
            "at percentile", "-", 0.95, lo=0.0, hi=1.0, lo_open=True, hi_open=True, source=_YOURS,
            help="Share of the recalls that must be ready within the target.",
        ),
        "throttle_hours_allowed": Input(
            "hours throttled allowed", "h", 0.0, lo=0.0, hi=float(MAX_HOURS), source=_YOURS,
            help="Hours the VTS may throttle host writes at its cache fill threshold.",
        ),
        "delay_hours_allowed": Input(
            "write delay allowed", "h", 1.0, lo=0.0, hi=float(MAX_HOURS),
            source="project assumption (set yours)",
            help="Longest a host write may wait to be accepted (throttling or a peak rate below demand).",
        ),
        "drive_efficiency": Input(
            "drive efficiency assumed", "-", None, lo=q.SMALL, hi=1.0, source=_CERN,
            help="Share of a drive's speed a flow gets; empty: from the access pattern (CERN formula).",
        ),
        "peak_factor": Input(
            "peak factor", "-", 1.0, lo=1.0, hi=10.0, source=f"{_CERN}, Summary (the note uses 2)",
            help="Factor for peaks, backlogs and failures on each library flow.",
        ),
        "vts_drive": Input(
            "VTS tape drive", "", "3590B",
            choices=(("IBM 3590 model B", "3590B"), ("IBM 3590 model E", "3590E")),
            source=f"{_VTS}, Sec. 2", help="The 3590 model in the VTS's library.",
        ),
        "library_drive": Input(
            "library drive", "", "IBM3592A", choices=tuple(drive_options()), source="drive catalog",
            help="The drive of a tape library plan without a VTS.",
        ),
        "virtual_drives_needed": Input(
            "virtual drives needed", "-", 0, lo=0, hi=4096, integer=True, source=_YOURS,
            help="Virtual drives mounted at once at the busiest time; 0: no requirement.",
        ),
    }  # fmt: skip


def answer_inputs() -> dict[str, Input]:
    """The declarations of :class:`Answers`' fields, by name (a new dict on every call).

    Each gives the label, unit, default, valid range, source and help a control or a
    form needs.
    """
    return dict(_inputs())


#: Answers that may be left empty (``None``): they are then derived.
_OPTIONAL = frozenset({"recalls_per_hour", "drive_efficiency"})


@dataclass(frozen=True)
class Answers:
    """The handful of answers a plan starts from; every field checked by :func:`answer_inputs`.

    Attributes
    ----------
    write_gb_per_day : float
        Host data written in a day, uncompressed. [GB]
    write_window_hours, write_start_hour : float
        The hours in which the writes arrive (evenly), and when that window opens. [h]
    read_gb_per_day : float
        Host data read in a day, uncompressed. [GB]
    read_window_hours, read_start_hour : float
        The hours in which the reads arrive (evenly), and when that window opens. [h]
    read_hit : float
        Share of the reads found in the cache. [-]
    cf : float
        Data compressibility. [-]
    recalls_per_hour : float or None
        Recalls arriving per hour in the read window; None: the read MB of each hour
        times ``1 - read_hit`` divided by ``volume_mb``. [1/h]
    volume_mb : float
        Logical volume (VTS) or file (tape library) size, uncompressed. [MB]
    files_per_mount : float
        Files written or read per mount in a tape library. [-]
    recall_target_s, recall_percentile : float
        Recalls must be ready within ``recall_target_s`` [s] at this percentile [-].
    throttle_hours_allowed : float
        Hours the VTS may throttle at its fill threshold. [h]
    delay_hours_allowed : float
        Longest a host write may wait to be accepted. [h]
    drive_efficiency : float or None
        Efficiency assumed for every drive flow; None: from the access pattern. [-]
    peak_factor : float
        CERN's factor for peaks, backlogs and failures on each library flow. [-]
    vts_drive : {"3590B", "3590E"}
        The VTS's tape drive model.
    library_drive : str
        A drive of the catalog (:func:`vtsmodel.catalog.drive_names`) for the library plan.
    virtual_drives_needed : int
        Virtual drives mounted at once at the busiest time (0: no requirement). [-]
    """

    write_gb_per_day: float = 2000.0
    write_window_hours: float = 6.0
    write_start_hour: float = 0.0
    read_gb_per_day: float = 400.0
    read_window_hours: float = 24.0
    read_start_hour: float = 0.0
    read_hit: float = 0.7
    cf: float = 2.5
    recalls_per_hour: float | None = None
    volume_mb: float = 800.0
    files_per_mount: float = 10.0
    recall_target_s: float = 600.0
    recall_percentile: float = 0.95
    throttle_hours_allowed: float = 0.0
    delay_hours_allowed: float = 1.0
    drive_efficiency: float | None = None
    peak_factor: float = 1.0
    vts_drive: str = "3590B"
    library_drive: str = "IBM3592A"
    virtual_drives_needed: int = 0

    def __post_init__(self) -> None:
        inputs = _inputs()
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in _OPTIONAL:
                continue
            object.__setattr__(self, f.name, inputs[f.name].parse(f.name, value))

    def replace(self, **changes) -> Answers:
        """A copy with some answers changed (each checked)."""
        unknown = [k for k in changes if k not in _inputs()]
        if unknown:
            raise ValueError(
                f"unknown answer(s) {', '.join(map(repr, unknown))}; answers: {', '.join(_inputs())}"
            )
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        """The answers by name (JSON-ready)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, values: Mapping, *, strict_types: bool = True) -> Answers:
        """Answers from a mapping; missing ones take their defaults, unknown ones are rejected.

        With ``strict_types`` (files), a number must be a number, not text.
        """
        if not isinstance(values, Mapping):
            raise ValueError(f"answers must be an object of name to value, not {type(values).__name__}")
        inputs = _inputs()
        unknown = [k for k in values if k not in inputs]
        if unknown:
            raise ValueError(
                f"unknown answer(s) {', '.join(map(repr, unknown))}; answers: {', '.join(inputs)}"
            )
        if strict_types:
            for k, v in values.items():
                inp = inputs[k]
                if v is None and k in _OPTIONAL:
                    continue
                if inp.choices:
                    if not isinstance(v, str):
                        raise ValueError(f"{k}={v!r} must be text; choose {inp.range_text()}")
                elif isinstance(v, bool) or not isinstance(v, numbers.Real):
                    raise ValueError(f"{k}={v!r} must be a number in {inp.range_text()} ({inp.header})")
        return cls(**dict(values))

    # --- the day they describe -----------------------------------------------------------------
    def hourly(self) -> HourlyWorkload:
        """The 24 hours these answers describe, as an hourly workload.

        Writes and reads spread evenly over their windows (a window that passes midnight
        wraps to the start of the day); recall mounts are ``recalls_per_hour`` in the
        read window, or each hour's reads times ``1 - read_hit`` over ``volume_mb``.
        """
        w = _window_share(self.write_start_hour, self.write_window_hours)
        r = _window_share(self.read_start_hour, self.read_window_hours)
        write_mb = self.write_gb_per_day * 1000.0 * w
        read_mb = self.read_gb_per_day * 1000.0 * r
        if self.recalls_per_hour is None:
            recalls = read_mb * (1.0 - self.read_hit) / self.volume_mb
        else:
            recalls = self.recalls_per_hour * r * self.read_window_hours
        cols = {"hour": np.arange(24.0), "host_write_mb": write_mb, "host_read_mb": read_mb,
                "recall_mounts": recalls}  # fmt: skip
        if self.virtual_drives_needed:
            cols["max_virtual_drives"] = np.full(24, float(self.virtual_drives_needed))
        return HourlyWorkload(name="answers", columns=cols, notes="The day the answers describe.")


def _window_share(start: float, length: float) -> np.ndarray:
    """Share of a window ``[start, start + length)`` (wrapping at 24 h) in each hour of the day."""
    edges = np.arange(25.0)
    lo, hi = edges[:-1], edges[1:]
    share = np.zeros(24)
    for a in (start - 24.0, start):
        b = a + length
        share += np.clip(np.minimum(hi, b) - np.maximum(lo, a), 0.0, None)
    return share / length


# --------------------------------------------------------------------------------------
# The plan and its file
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """A plan: the answers and, optionally, an hourly workload that replaces the day they describe.

    Attributes
    ----------
    answers : Answers
    workload : HourlyWorkload or None
        An hourly workload (a file). When given, its writes, reads and recall mounts
        replace those the answers describe; the answers still give the compressibility,
        volume size, targets and drives, and the read-hit ratio unless the workload has
        read-hit and recall mounts.
    workload_file : str or None
        Where the workload came from, as a plan file references it (relative to the plan
        file's folder), or None when it is embedded or absent.
    name : str
        What the plan is for.
    hits : HitCurve or None
        The read-hit curve of a mount log (:func:`vtsmodel.hits.lru_hit_curve`). When
        given, each VTS configuration gets its own read-hit ratio, by bytes, at its cache
        size (:func:`vtsmodel.hits.tvc_read_hit`, the feature's rule for what the cache
        holds, the answers' CF) in place of the answered one, and its recall mounts are
        the reads of each hour times ``1 - that ratio`` over the volume size (replacing
        recalls given per hour or by the workload). The tape-library plan, which has no
        cache, keeps the answered ratio.
    mount_log_file : str or None
        The mount log ``hits`` came from, as a plan file references it (relative to the
        plan file's folder).
    """

    answers: Answers = field(default_factory=Answers)
    workload: HourlyWorkload | None = None
    workload_file: str | None = None
    name: str = "plan"
    hits: object = None
    mount_log_file: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.answers, Answers):
            raise ValueError(f"answers={self.answers!r} must be an Answers")
        if self.workload is not None and not isinstance(self.workload, HourlyWorkload):
            raise ValueError(f"workload={self.workload!r} must be an HourlyWorkload or None")
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 200:
            raise ValueError(f"name={self.name!r} must be text of 1 to 200 characters")
        if self.hits is not None:
            from vtsmodel.hits import HitCurve

            if not isinstance(self.hits, HitCurve):
                raise ValueError(
                    f"hits={self.hits!r} must be a HitCurve (vtsmodel.hits.lru_hit_curve) or None"
                )
            if not self.hits.reads > 0:
                raise ValueError("hits: the mount log has no counted reads, so it gives no read-hit ratio")

    def day(self) -> HourlyWorkload:
        """The hours the plan evaluates: the workload, or the day the answers describe."""
        return self.workload if self.workload is not None else self.answers.hourly()

    def with_answers(self, **changes) -> Plan:
        """A copy with some answers changed."""
        return dataclasses.replace(self, answers=self.answers.replace(**changes))


def plan_to_dict(plan: Plan, *, embed: bool | None = None) -> dict:
    """The plan as the JSON document :func:`save_plan` writes.

    ``embed``: write the workload's hours into the file (True), or reference its file
    (False, needs ``plan.workload_file``); None: reference when there is a file.
    """
    # a slider's step arithmetic leaves 800.0000000000001: twelve significant digits keep every answer
    answers = {
        k: float(f"{v:.12g}") if isinstance(v, float) else v for k, v in plan.answers.to_dict().items()
    }
    doc = {"schema": PLAN_SCHEMA, "version": PLAN_VERSION, "name": plan.name, "answers": answers,
           "workload": None}  # fmt: skip
    if plan.hits is not None:
        if not plan.mount_log_file:
            raise ValueError(
                "the plan's read hits come from a mount log without a file name (plan.mount_log_file); "
                "a plan file references its mount log by file: set it, or save the plan without hits"
            )
        doc["mount_log"] = {"file": plan.mount_log_file}
    if plan.workload is not None:
        if embed is None:
            embed = plan.workload_file is None
        if not embed:
            if not plan.workload_file:
                raise ValueError("embed=False needs plan.workload_file, the workload file to reference")
            doc["workload"] = {"file": plan.workload_file}
        else:
            w = plan.workload
            cols = {k: [r[k] for r in w.rows()] for k in COLUMNS if w.has(k)}
            doc["workload"] = {"name": w.name, "notes": w.notes, "columns": cols}
    return doc


def _check_plan(plan, name: str = "plan") -> None:
    if not isinstance(plan, Plan):
        raise ValueError(f"{name}={plan!r} must be a Plan (vtsmodel.plan.Plan, or load_plan(path))"[:300])


def save_plan(
    plan: Plan, path: str | os.PathLike, *, overwrite: bool = False, embed: bool | None = None
) -> Path:
    """Write ``plan`` as a JSON plan file, atomically; an existing file is replaced only if asked.

    Parameters
    ----------
    plan : Plan
    path : path-like
    overwrite : bool
        Replace an existing file.
    embed : bool, optional
        See :func:`plan_to_dict`.
    """
    _check_plan(plan)
    return atomic_write(path, plan_to_json(plan, embed=embed), overwrite=overwrite)


def _read_json(path: Path):
    # a regular file only: a FIFO would block for ever
    return _parse_json(read_file(path, max_bytes=MAX_PLAN_BYTES, what="plan file"), str(path))


def _parse_json(raw: bytes, where: str):
    return parse_json_bytes(raw, where, max_bytes=MAX_PLAN_BYTES, what="plan file")


def plan_to_json(plan: Plan, *, embed: bool | None = None) -> str:
    """The plan file's text (what :func:`save_plan` writes; a page offers it as a download)."""
    return json.dumps(plan_to_dict(plan, embed=embed), indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def plan_from_bytes(
    data: bytes, *, base_dir: str | os.PathLike | None = None, where: str = "the plan file"
) -> Plan:
    """A :class:`Plan` from a plan file's bytes (an upload), checked as :func:`load_plan` checks a file.

    A workload referenced by file name is read relative to ``base_dir``; without one, a
    relative name is read relative to the working folder.
    """
    if not isinstance(data, bytes | bytearray):
        raise ValueError(f"data must be the plan file's bytes, not {type(data).__name__}")
    return plan_from_dict(_parse_json(bytes(data), where), base_dir=base_dir)


_PLAN_KEYS = {"schema", "version", "name", "answers", "workload", "mount_log"}


def plan_from_dict(doc, *, base_dir: str | os.PathLike | None = None) -> Plan:
    """A :class:`Plan` from a parsed plan document, every field checked.

    A referenced workload file is read relative to ``base_dir`` (the plan file's folder).
    A referenced mount log (``"mount_log": {"file": NAME}``) is read only with a
    ``base_dir`` (a plan file on disk, :func:`load_plan`): a plan from bytes without one
    (an upload to a page) that references a mount log is refused, since a page reads no
    file on the server.

    Raises
    ------
    ValueError
        Of another schema or version, with unknown or missing keys, or any invalid value.
    """
    if not isinstance(doc, dict):
        raise ValueError(f"a plan file holds a JSON object, not {type(doc).__name__}")
    unknown, missing = set(doc) - _PLAN_KEYS, {"schema", "version", "answers"} - set(doc)
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(map(repr, unknown)))} in the plan file")
    if missing:
        raise ValueError(f"the plan file lacks {', '.join(sorted(missing))}")
    if doc["schema"] != PLAN_SCHEMA:
        raise ValueError(f"schema={doc['schema']!r} is not a vtsmodel plan file (expected {PLAN_SCHEMA!r})")
    version = doc["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version != PLAN_VERSION:
        raise ValueError(f"version={version!r} is not supported; this vtsmodel reads version {PLAN_VERSION}")
    name = doc.get("name", "plan")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise ValueError(f"name={name!r} must be text of 1 to 200 characters")
    try:
        answers = Answers.from_dict(doc["answers"])
    except ValueError as exc:
        raise ValueError(f"answers: {exc}") from None
    workload, ref = None, None
    spec = doc.get("workload")
    if spec is not None:
        if not isinstance(spec, dict):
            raise ValueError(f"workload must be an object or null, not {type(spec).__name__}")
        if set(spec) == {"file"}:
            ref = spec["file"]
            if not isinstance(ref, str) or not ref.strip() or len(ref) > 1000 or "\x00" in ref:
                raise ValueError(f"workload file={ref!r} must be a file name")
            path = Path(ref)
            if not path.is_absolute() and base_dir is not None:
                path = Path(base_dir) / path
            try:
                workload = read_hourly_workload(path)
            except ValueError as exc:
                raise ValueError(f"workload file {ref}: {exc}") from None
        else:
            workload = _embedded_workload(spec)
    curve, log_ref = _mount_log(doc.get("mount_log"), base_dir)
    return Plan(answers=answers, workload=workload, workload_file=ref, name=name.strip(), hits=curve,
                mount_log_file=log_ref)  # fmt: skip


def _mount_log(spec, base_dir):
    """(curve, reference) of a plan file's ``mount_log`` entry, or (None, None)."""
    if spec is None:
        return None, None
    ref = spec.get("file") if isinstance(spec, dict) and set(spec) == {"file"} else None
    if not isinstance(ref, str) or not ref.strip() or len(ref) > 1000 or "\x00" in ref:
        raise ValueError(f"mount_log must be {{'file': NAME}} naming a mount log file, not {spec!r}")
    if base_dir is None:
        raise ValueError(
            f"the plan references the mount log {ref!r}; a plan read without its folder (an upload) "
            "reads no file: give the log with vtsmodel plan PLAN --mount-log LOG.csv"
        )
    from vtsmodel.hits import lru_hit_curve

    path = Path(ref)
    if not path.is_absolute():
        path = Path(base_dir) / path
    try:
        return lru_hit_curve(path), ref
    except (ValueError, OSError) as exc:
        raise ValueError(f"mount log {ref}: {exc}") from None


def _embedded_workload(spec: dict) -> HourlyWorkload:
    extra = set(spec) - {"name", "notes", "columns"}
    if extra or "columns" not in spec:
        raise ValueError(
            "workload must be {'file': NAME} or {'name', 'notes', 'columns'}; "
            f"got key(s) {', '.join(sorted(map(repr, spec)))}"
        )
    wname, notes, cols = spec.get("name", "workload"), spec.get("notes", ""), spec["columns"]
    if not isinstance(wname, str) or len(wname) > 200 or not isinstance(notes, str) or len(notes) > 20_000:
        raise ValueError(
            "workload name and notes must be text (name up to 200, notes up to 20,000 characters)"
        )
    if not isinstance(cols, dict) or not cols:
        raise ValueError("workload columns must be an object of column name to a list of numbers")
    lengths = set()
    for key, vals in cols.items():
        if not isinstance(vals, list):
            raise ValueError(f"workload column {key!r} must be a list of numbers, not {type(vals).__name__}")
        if len(vals) > MAX_HOURS:
            raise ValueError(f"workload column {key!r} has {len(vals)} hours; at most {MAX_HOURS}")
        for i, v in enumerate(vals, start=1):
            if isinstance(v, bool) or not isinstance(v, numbers.Real):
                raise ValueError(f"workload row {i}: {key}={v!r} must be a number")
        lengths.add(len(vals))
    if len(lengths) != 1:
        raise ValueError(f"workload columns differ in length ({', '.join(map(str, sorted(lengths)))} hours)")
    n = lengths.pop()
    rows = [{k: cols[k][i] for k in cols} for i in range(n)]
    try:
        return HourlyWorkload.from_rows(rows, name=wname or "workload", notes=notes)
    except ValueError as exc:
        raise ValueError(f"workload {exc}") from None


def load_plan(path: str | os.PathLike) -> Plan:
    """Read a plan file; every field is checked before a :class:`Plan` is returned.

    Raises
    ------
    ValueError
        The file is missing, too large, not JSON, of another schema or version, or holds
        unknown keys or invalid values (the message names the field).
    """
    if not isinstance(path, str | os.PathLike):
        raise ValueError(f"path={path!r} must be the path of a plan file")
    path = Path(path)
    return plan_from_dict(_read_json(path), base_dir=path.parent)


# --------------------------------------------------------------------------------------
# Configurations
# --------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Configuration:
    """One VTS B18 configuration; ordered from the smallest (cache, then feature, then drives).

    Attributes
    ----------
    tvc_gb : float
        Tape volume cache, physical (Table 3). [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option (PAF includes its prerequisite EHPO).
    drives : int
        3590 tape drives. [count]
    """

    rank: tuple = field(repr=False, compare=True)
    tvc_gb: float = field(compare=False)
    feature: str = field(compare=False)
    drives: int = field(compare=False)

    @classmethod
    def of(cls, tvc_gb: float, feature: str, drives: int) -> Configuration:
        """A configuration (not checked against what the paper offers: see :func:`vts_configurations`)."""
        if feature not in FEATURE_ORDER:
            raise ValueError(f"feature={feature!r} is not valid; choose one of {', '.join(FEATURE_ORDER)}")
        return cls(
            (float(tvc_gb), FEATURE_ORDER.index(feature), int(drives)), float(tvc_gb), feature, int(drives)
        )

    @property
    def label(self) -> str:
        """``"864 GB PAF, 4 drives"``."""
        return f"{self.tvc_gb:,.0f} GB {_FEATURE_LABEL[self.feature]}, {self.drives} drives"

    @property
    def virtual_drives(self) -> int:
        """Virtual drives presented: 64 with EHPO (or PAF) and at least 144 GB, else 32 (Sec. 2)."""
        f = load("vts_facts")
        if self.feature != "base" and self.tvc_gb >= f.value("tvc_min_for_64_virtual_drives"):
            return int(f.value("virtual_drives_ehpo"))
        return int(f.value("virtual_drives_base"))


def vts_configurations(*, include_earlier_paf: bool = False) -> tuple[Configuration, ...]:
    """Every configuration the paper offers, smallest first.

    - Caches: Table 3's capacities per feature column ("Base/EHPO": 72, 144, 216, 288,
      576, 1152 GB; "PAF": 216, 432, 864, 1728 GB). With ``include_earlier_paf``, also
      the two marked "In earlier shipments these configurations were available with
      PAF" (144 and 288 GB).
    - Features: base, EHPO, and PAF, which "has a prerequisite of the EHPO feature"
      (Sec. 3.5): a PAF configuration has both.
    - Drives: "from three to six (four to six with the Performance Accelerator)" (Sec. 2).

    The order: cache capacity, then feature (base, EHPO, PAF), then drives. The paper
    prices nothing, so "smaller" is this order: a modelling choice.
    """
    t = load("vts_tvc_configs")
    f = load("vts_facts")
    tvc = np.asarray(t["tvc_gb"], dtype=float)
    col = np.asarray(t["features"])
    earlier = np.asarray(t["earlier_paf"], dtype=bool)
    base_caps = sorted(set(tvc[col == "base_ehpo"].tolist()))
    paf_caps = set(tvc[col == "paf"].tolist())
    if include_earlier_paf:
        paf_caps |= set(tvc[(col == "base_ehpo") & earlier].tolist())
    lo, hi = int(f.value("physical_drives_low")), int(f.value("physical_drives_high"))  # Sec. 2
    plo, phi = int(f.value("physical_drives_paf_low")), int(f.value("physical_drives_paf_high"))
    out = [
        Configuration.of(c, feat, d)
        for feat in ("base", "ehpo")
        for c in base_caps
        for d in range(lo, hi + 1)
    ]
    out += [Configuration.of(c, "paf", d) for c in sorted(paf_caps) for d in range(plo, phi + 1)]
    return tuple(sorted(out))


# --------------------------------------------------------------------------------------
# Evaluating a configuration
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """One target checked.

    Attributes
    ----------
    key : str
        ``"throttle"``, ``"delay"``, ``"recall"``, ``"copy"`` or ``"virtual_drives"``.
    label : str
        What is checked, e.g. ``"hours throttled"``.
    value, limit : float
        The configuration's value and the target. [unit]
    unit : str
    ok : bool
    text : str
        One line for a person: ``"throttles 2.1 h against 0 allowed"``.
    """

    key: str
    label: str
    value: float
    limit: float
    unit: str
    ok: bool
    text: str

    @property
    def margin(self) -> float:
        """How far the value is inside the target (negative: missed). [unit]

        ``limit - value``; for virtual drives, presented minus needed.
        """
        if self.key == "copy" and math.isinf(self.value):
            return -math.inf
        return (
            float(self.limit - self.value) if self.key != "virtual_drives" else float(self.value - self.limit)
        )


@dataclass(frozen=True)
class ConfigResult:
    """A configuration run through the plan's workload.

    Attributes
    ----------
    config : Configuration
    peak_mb_s, sustained_mb_s : float
        Host write rates (``write_rate``). [MB/s]
    hours_at_peak, hours_throttled, longest_delay_hours : float
        From the day simulated (``simulate_tvc``). [h]
    delay_mb_hours : float
        Delay imposed, the integral of the delayed data. [MB·h]
    backlog_cleared_hours : float
        When un-copied and delayed data last returned to zero (NaN: not within the day). [h]
    carried_gb : float
        Un-copied data carried from one day into the next (the day run twice). [GB]
    copy_drives : numpy.ndarray
        Drives copying to tape in each hour. [count]
    recall_drives : numpy.ndarray
        Drives left for recalls in each hour. [count]
    recall_ready_s : numpy.ndarray
        Time until ready of a recall at the percentile, each hour (NaN: no recalls; inf:
        no steady state). [s]
    binding_resource : str
        What limits the sustained write rate (``binding_resource``).
    checks : tuple of Check
    run : TvcRun
        The day simulated (for figures).
    read_hit : float
        The read-hit ratio the day ran with (a mount log's at this cache size, or the
        answered one). [-]
    """

    config: Configuration
    peak_mb_s: float
    sustained_mb_s: float
    hours_at_peak: float
    hours_throttled: float
    longest_delay_hours: float
    delay_mb_hours: float
    backlog_cleared_hours: float
    carried_gb: float
    copy_drives: np.ndarray
    recall_drives: np.ndarray
    recall_ready_s: np.ndarray
    binding_resource: str
    checks: tuple[Check, ...]
    run: object = field(repr=False, compare=False)
    read_hit: float = math.nan

    @property
    def meets(self) -> bool:
        """Whether every target is met."""
        return all(c.ok for c in self.checks)

    @property
    def failing(self) -> tuple[Check, ...]:
        """The targets missed."""
        return tuple(c for c in self.checks if not c.ok)

    @property
    def worst_recall_ready_s(self) -> float:
        """Recall ready time at the percentile in the busiest hour (NaN: no recalls). [s]"""
        r = self.recall_ready_s[~np.isnan(self.recall_ready_s)]
        return float(r.max()) if r.size else math.nan

    def check(self, key: str) -> Check:
        """The check of ``key``."""
        for c in self.checks:
            if c.key == key:
                return c
        raise KeyError(f"no check {key!r}; checks: {', '.join(c.key for c in self.checks)}")

    def summary(self) -> dict[str, object]:
        """One row of the configuration table, keys with units."""
        return {
            "configuration": self.config.label,
            "peak write [MB/s]": self.peak_mb_s,
            "sustained write [MB/s]": self.sustained_mb_s,
            "time at peak [h]": self.hours_at_peak,
            "throttled [h]": self.hours_throttled,
            "longest write delay [h]": self.longest_delay_hours,
            "recall ready at percentile [s]": self.worst_recall_ready_s,
            "most copy drives [-]": float(self.copy_drives.max()) if self.copy_drives.size else 0.0,
            "binds (sustained)": self.binding_resource,
            "meets targets": self.meets,
        }


@dataclass(frozen=True)
class _Day:
    """The plan's hours, as the models take them."""

    workload: HourlyWorkload
    profile: object
    cf: float
    read_hit: float
    read_hit_basis: str
    recalls_per_hour: np.ndarray
    recall_basis: str
    volume_mb: float
    virtual_drives: int
    recall_service_s: float
    recall_ready_s: float
    hits: object = None

    def of(self, cfg: Configuration) -> _Day:
        """The day as ``cfg`` sees it: with a mount log, its own read-hit ratio and recalls."""
        if self.hits is None:
            return self
        from vtsmodel.hits import tvc_read_hit

        hit = float(tvc_read_hit(self.hits, cfg.tvc_gb, feature=cfg.feature, cf=self.cf))
        recalls = np.asarray(self.workload.read_mb, dtype=float) * (1.0 - hit) / self.volume_mb
        return dataclasses.replace(self, read_hit=hit, recalls_per_hour=recalls)


def _day(plan: Plan) -> _Day:
    from vtsmodel.recall import recall_ready_s, recall_service_s
    from vtsmodel.workload import make_profile

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
        recalls = w.read_mb * (1.0 - hit) / a.volume_mb  # each configuration replaces it (_Day.of)
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
    return _Day(w, profile, float(a.cf), float(hit), hit_basis, recalls, basis, float(a.volume_mb), vdn,
                service, ready, plan.hits)  # fmt: skip


@functools.cache
def _vts_drive(vts_drive: str) -> dict:
    """Rate, cartridge, per-mount time and recall parts of a VTS drive model."""
    from vtsmodel.catalog import drive_spec
    from vtsmodel.recall import drive_preset

    p = drive_preset(vts_drive)
    spec = drive_spec(_VTS_DRIVE_CATALOG[vts_drive])
    mount_s = p["robot_s"] + p["load_s"] + p["overhead_s"] + p["rewind_unload_s"]  # Eq. 1: 2.36 min per mount
    return {"rate_mb_s": float(p["rate_mb_s"]), "cartridge_gb": float(spec.native_capacity_gb),
            "mount_s": float(mount_s)}  # fmt: skip


def _copy_efficiency(a: Answers, cf: float) -> float:
    """Share of a drive's rate the copy gets: stored volumes stacked until the cartridge is full.

    The CERN formula (:func:`~vtsmodel.drives.drive_efficiency`) with files of
    ``volume_mb / cf`` stored MB, as many per mount as fill a cartridge (at most 10^9), the drive's
    native rate and Eq. 1's 2.36 min per mount; or the efficiency answered.
    """
    from vtsmodel.drives import drive_efficiency

    if a.drive_efficiency is not None:
        return float(a.drive_efficiency)
    d = _vts_drive(a.vts_drive)
    stored = a.volume_mb / cf
    # as many as fill a cartridge; beyond 10^9 (volumes of a few bytes) the mount's share is nil
    per_mount = min(max(1.0, d["cartridge_gb"] * 1000.0 / stored), q.FILES_PER_MOUNT.hi)
    return float(drive_efficiency(stored, per_mount, speed_mb_s=d["rate_mb_s"], t_mount_s=d["mount_s"]))


def _hourly(values_at_edges: np.ndarray, time_hours: np.ndarray, hours: int) -> np.ndarray:
    """Hourly increments of a cumulative series given at the simulation's step edges."""
    at = np.interp(np.arange(hours + 1, dtype=float), time_hours, values_at_edges)
    return np.diff(at)


def _simulate(day: _Day, feature: str, tvc_gb: float, step_minutes: float, tvc_options: Mapping):
    """The day simulated, run twice when un-copied data is left at its end (a day that repeats)."""
    from vtsmodel.tvc_day import simulate_tvc

    kw = dict(tvc_gb=tvc_gb, cf=day.cf, feature=feature, read_hit=day.read_hit, step_minutes=step_minutes,
              **tvc_options)  # fmt: skip
    first = simulate_tvc(day.profile, **kw)
    left = float(first.uncopied_gb[-1])
    if left <= 1e-9 * max(first.capacity_gb, 1.0) or float(first.delayed_mb[-1]) > 1e-6:
        return first, 0.0, left  # cleared, or already behind (host writes still waiting)
    carried = min(left, first.capacity_gb)
    second = simulate_tvc(day.profile, backlog_gb=carried, **kw)
    return second, carried, float(second.uncopied_gb[-1])


def _recall_ready(day: _Day, a: Answers, total: int, copy: np.ndarray):
    """Drives left for recalls and the recall ready time at the percentile, hour by hour."""
    from vtsmodel.queueing import wait_percentile
    from vtsmodel.recall import recall_drives

    lam = day.recalls_per_hour / 3600.0
    service, ready = day.recall_service_s, day.recall_ready_s
    left = np.zeros(copy.shape, dtype=int)
    ok = copy < total
    if ok.any():
        left[ok] = np.atleast_1d(recall_drives(total, copy[ok]))  # Sec. 3.2.2: total - copying
    out = np.full(copy.shape, np.nan)
    busy = day.recalls_per_hour > MIN_RECALLS_PER_HOUR
    out[busy] = np.inf
    stable = busy & (left >= 1) & (lam * service < left)
    if stable.any():
        wq = np.atleast_1d(
            wait_percentile(lam[stable], service, left[stable], a.recall_percentile, service_cv=0.0)
        )
        out[stable] = wq + ready
    return left, out


def _fmt(x: float, unit: str = "") -> str:
    from vtsmodel._inputs import number

    if math.isinf(x):
        return "no steady state" if unit == "s" else "∞"
    return f"{number(x, 3)}{(' ' + unit) if unit else ''}"


def _checks(cfg: Configuration, a: Answers, day: _Day, run, summary: Mapping, carried_in: float,
            carried_out: float, copy: np.ndarray, ready_q: np.ndarray) -> tuple[Check, ...]:  # fmt: skip
    out = []
    thr, allowed = summary["hours_throttled"], a.throttle_hours_allowed
    out.append(Check("throttle", "hours throttled", thr, allowed, "h", thr <= allowed + 1e-9,
                     f"throttles {_fmt(thr, 'h')} against {_fmt(allowed, 'h')} allowed"))  # fmt: skip
    dly, dallowed = summary["longest_delay_hours"], a.delay_hours_allowed
    out.append(Check("delay", "longest write delay", dly, dallowed, "h", dly <= dallowed + 1e-9,
                     f"delays host writes up to {_fmt(dly, 'h')} against {_fmt(dallowed, 'h')} allowed"))  # fmt: skip
    busy = ~np.isnan(ready_q)
    pct = f"{100 * a.recall_percentile:g}th percentile"
    if busy.any():
        worst = float(ready_q[busy].max())
        hour = int(np.flatnonzero(busy)[np.argmax(ready_q[busy])])
        why = ""
        if math.isinf(worst):
            why = (" (no drive left for recalls while copying)" if copy[hour] >= cfg.drives
                   else " (recalls arrive faster than the drives left can serve them)")  # fmt: skip
        text = (f"recalls ready in {_fmt(worst, 's')} at the {pct} (hour {hour}){why} "
                f"against {_fmt(a.recall_target_s, 's')}")  # fmt: skip
        out.append(Check("recall", f"recall ready ({pct})", worst, a.recall_target_s, "s",
                         worst <= a.recall_target_s + 1e-9, text))  # fmt: skip
    else:
        out.append(Check("recall", f"recall ready ({pct})", 0.0, a.recall_target_s, "s", True, "no recalls"))
    most = float(copy.max()) if copy.size else 0.0
    growing = carried_out > carried_in + 1e-6 * max(run.capacity_gb, 1.0) or float(run.delayed_mb[-1]) > 1e-6
    copy_ok = most <= cfg.drives and not growing
    if growing:
        text = (f"falls behind: {_fmt(carried_out, 'GB')} un-copied at the end of the day after "
                f"{_fmt(carried_in, 'GB')} at its start"
                + (f", {_fmt(float(run.delayed_mb[-1]) / 1000.0, 'GB')} of host writes still waiting"
                   if run.delayed_mb[-1] > 1e-6 else ""))  # fmt: skip
    else:
        text = f"copy to tape needs up to {most:.0f} of {cfg.drives} drives"
    out.append(Check("copy", "drives for the copy", most if not growing else math.inf, float(cfg.drives),
                     "drives", copy_ok, text))  # fmt: skip
    if day.virtual_drives > 0:
        vd = cfg.virtual_drives
        out.append(Check("virtual_drives", "virtual drives", float(vd), float(day.virtual_drives), "drives",
                         vd >= day.virtual_drives,
                         f"presents {vd} virtual drives for {day.virtual_drives} needed"))  # fmt: skip
    return tuple(out)


def _evaluate(day: _Day, a: Answers, cfg: Configuration, runs: dict, step_minutes: float,
              tvc_options: Mapping) -> ConfigResult:  # fmt: skip
    from vtsmodel.bottleneck import binding_resource

    day = day.of(cfg)
    key = (cfg.feature, cfg.tvc_gb)
    if key not in runs:
        run, cin, cout = _simulate(day, cfg.feature, cfg.tvc_gb, step_minutes, tvc_options)
        bind = str(binding_resource(day.cf, cfg.tvc_gb, feature=cfg.feature, mode="sustained"))
        eff = _copy_efficiency(a, day.cf)
        d = _vts_drive(a.vts_drive)
        per_drive = d["rate_mb_s"] * day.cf / run.cache_cf * eff  # in the cache's MB/s
        copy_mb = _hourly(run.copied_total_mb, run.time_hours, day.workload.hours)
        need = np.maximum(np.ceil(copy_mb / 3600.0 / per_drive - 1e-9).astype(int), 0)
        summary = {"hours_at_peak": run.hours_at_peak, "hours_throttled": run.hours_throttled,
                   "longest_delay_hours": run.max_delay_hours, "delay_mb_hours": run.delay_mb_hours,
                   "backlog_cleared_hours": run.backlog_cleared_hours}  # fmt: skip
        runs[key] = (run, cin, cout, bind, need, summary)
    run, cin, cout, bind, need, summary = runs[key]
    memo = runs.setdefault("recall", {})
    rkey = (need.tobytes(), cfg.drives, day.read_hit)
    if rkey not in memo:
        memo[rkey] = _recall_ready(day, a, cfg.drives, need)
    left, ready_q = memo[rkey]
    checks = _checks(cfg, a, day, run, summary, cin, cout, need, ready_q)
    return ConfigResult(
        config=cfg, peak_mb_s=float(run.peak_mb_s), sustained_mb_s=float(run.sustained_mb_s),
        carried_gb=float(cin), copy_drives=need, recall_drives=left, recall_ready_s=ready_q,
        binding_resource=bind, checks=checks, run=run, read_hit=day.read_hit, **summary,
    )  # fmt: skip


def _model_funcs(kind: str) -> tuple[Callable, ...]:
    """The model functions a plan calls, and those they are built on (the ledger names them)."""
    from vtsmodel import bottleneck, catalog, drives, queueing, recall, sizing, throughput, tvc, tvc_day

    if kind == "vts":
        return (throughput.write_rate, tvc_day.simulate_tvc, tvc.cache_cf, tvc.effective_capacity_gb,
                tvc.product_configurations, bottleneck.binding_resource, bottleneck.write_capacities,
                recall.recall_parts, recall.recall_service_s, recall.recall_ready_s, recall.recall_drives,
                queueing.wait_percentile, drives.drive_efficiency, catalog.drive_spec)  # fmt: skip
    return (sizing.drives_needed, drives.drive_efficiency, drives.mount_cycle_s, queueing.recall_drives_needed,
            queueing.wait_percentile, catalog.drive_spec)  # fmt: skip


def _names(funcs) -> tuple[str, ...]:
    return tuple(f"{f.__module__}.{f.__qualname__}" for f in funcs)


def _tables_of(funcs, extra=(), exclude=()) -> tuple[str, ...]:
    from vtsmodel._tables import tables

    known = set(tables()) - set(exclude)
    out = []
    for f in funcs:
        for t in getattr(f, "__vtsmodel_cites__", ()):
            if t in known and t not in out:
                out.append(t)
    for t in extra:
        if t not in out:
            out.append(t)
    return tuple(out)


#: Data rows the planner reads itself (beyond those of the model functions it calls).
VTS_ROWS = (
    ("vts_facts", "physical_drives_low"), ("vts_facts", "physical_drives_high"),
    ("vts_facts", "physical_drives_paf_low"), ("vts_facts", "physical_drives_paf_high"),
    ("vts_facts", "virtual_drives_base"), ("vts_facts", "virtual_drives_ehpo"),
    ("vts_facts", "tvc_min_for_64_virtual_drives"), ("vts_facts", "recall_example_drives"),
    ("vts_facts", "recall_example_copy_drives"), ("vts_facts", "recall_example_concurrent_recalls"),
    ("vts_facts", "search_time_avg"), ("vts_facts", "cache_algorithm_change_tvc"),
    ("vts_facts", "fig10_effective_capacity"), ("vts_import_export", "export_per_mount"),
    ("cern_facts", "tmount_move"), ("cern_facts", "tmount_mount"), ("cern_facts", "tmount_rewind_unload"),
    ("cern_facts", "toverhead"),
)  # fmt: skip
LIBRARY_ROWS = (
    ("cern_facts", "robot_moves_normal"), ("cern_facts", "tmount_move"), ("cern_facts", "tmount_mount"),
    ("cern_facts", "tmount_positioning"), ("cern_facts", "tmount_rewind_unload"), ("cern_facts", "toverhead"),
)  # fmt: skip


def _drive_rows(name: str | None) -> tuple[tuple[str, str], ...]:
    """The catalog rows behind one drive's values, as (table, id)."""
    from vtsmodel.catalog import drive_spec

    if name is None:
        return ()
    return tuple((p.table, p.id) for p in drive_spec(name).primary.values())


def _sources(tables: Sequence[str], rows: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Source ids of the tables (the drive catalog only through the rows used) and the rows."""
    from vtsmodel._tables import references

    ids = [r["name"] for r in references(*(t for t in tables if t != "drive_catalog"))]
    ids += [load(t).provenance(i).source for t, i in rows]
    return tuple(dict.fromkeys(ids))


def _collect(fn, *args, **kwargs):
    """Call ``fn``; return its result and the project warnings it gave (as text, once each)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", VtsModelWarning)
        out = fn(*args, **kwargs)
    notes = []
    for w in caught:
        if issubclass(w.category, VtsModelWarning):
            text = str(w.message)
            if text not in notes:
                notes.append(text)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return out, tuple(notes)


@dataclass(frozen=True)
class VtsPlan:
    """Every VTS configuration evaluated against the plan's workload.

    Attributes
    ----------
    results : tuple of ConfigResult
        Every configuration, smallest first (:func:`vts_configurations`).
    recommended : ConfigResult or None
        The smallest that meets every target; None when none does.
    next_smaller : ConfigResult or None
        The configuration just below the recommended one in the order.
    next_smaller_cache : ConfigResult or None
        The recommended feature and drives with the next smaller cache Table 3 offers.
    day : dict
        What the plan ran: read-hit ratio and its basis, recall arrivals and their basis,
        virtual drives needed, the copy's drive efficiency.
    notes : tuple of str
        Extrapolation warnings the models gave.
    models : tuple of str
        The model functions used, by dotted name.
    tables : tuple of str
        The data tables they and the planner read.
    rows : tuple of (table, id)
        Data rows the planner read itself.
    sources : tuple of str
        Source ids of those tables and rows (for :func:`vtsmodel.cite`).
    """

    results: tuple[ConfigResult, ...]
    recommended: ConfigResult | None
    next_smaller: ConfigResult | None
    next_smaller_cache: ConfigResult | None
    day: dict
    notes: tuple[str, ...]
    models: tuple[str, ...]
    tables: tuple[str, ...]
    rows: tuple[tuple[str, str], ...]
    sources: tuple[str, ...]

    def result(self, config: Configuration | str) -> ConfigResult:
        """The result of one configuration (or its label)."""
        label = config if isinstance(config, str) else config.label
        for r in self.results:
            if r.config.label == label:
                return r
        raise KeyError(f"no configuration {label!r}")

    @property
    def closest(self) -> ConfigResult:
        """The recommended configuration, or when none meets every target, the one missing fewest."""
        if self.recommended is not None:
            return self.recommended
        return min(
            self.results,
            key=lambda r: (len(r.failing), -r.config.rank[0], -r.config.rank[1], -r.config.rank[2]),
        )

    def headline(self) -> str:
        """One or two sentences: the recommendation and the next smaller one's failing target."""
        if self.recommended is None:
            c = self.closest
            return (f"No VTS B18 configuration meets every target. The closest, {c.config.label}, "
                    + "; ".join(x.text for x in c.failing) + ".")  # fmt: skip
        text = f"Recommended: {self.recommended.config.label}."
        for what, other in (
            ("The next smaller", self.next_smaller),
            ("With the next smaller cache", self.next_smaller_cache),
        ):
            if other is not None and (what == "The next smaller" or other is not self.next_smaller):
                text += f" {what}, {other.config.label}, " + "; ".join(x.text for x in other.failing) + "."
        return text

    def table(self) -> list[dict]:
        """Every configuration as a row (:meth:`ConfigResult.summary`)."""
        return [r.summary() for r in self.results]


@declare(
    step_minutes=STEP, threshold=q.THRESHOLD.but(default=None),
    peak_copy_fraction=q.PEAK_COPY_FRACTION.but(default=None),
)  # fmt: skip
def vts_plan(
    plan: Plan,
    *,
    step_minutes: float = 5.0,
    include_earlier_paf: bool = False,
    threshold: float | None = None,
    peak_copy_fraction: float | None = None,
) -> VtsPlan:
    """Evaluate every VTS B18 configuration against the plan's workload.

    For each cache (feature x Table 3 capacity) the day is simulated hour by hour
    (:func:`~vtsmodel.tvc_day.simulate_tvc`, rates from
    :func:`~vtsmodel.throughput.write_rate`); when un-copied data is left at the end the
    day is run again starting with it (the day repeats). For each drive count, the
    drives copying in each hour are the copy rate over one drive's rate times the copy
    efficiency (:func:`_copy_efficiency`); the rest serve recalls
    (:func:`~vtsmodel.recall.recall_drives`, Sec. 3.2.2), each recall keeping a drive
    busy for :func:`~vtsmodel.recall.recall_service_s`; its wait at the percentile is
    :func:`~vtsmodel.queueing.wait_percentile` (M/D/c, Poisson arrivals), plus
    :func:`~vtsmodel.recall.recall_ready_s`. Recalls are checked in every hour; the
    busiest governs (busy-hour engineering, a modelling choice).

    Targets: hours throttled, the longest write delay, recall ready time at the
    percentile, drives enough for the copy without falling behind day after day, and the
    virtual drives needed (64 need EHPO and 144 GB, Sec. 2).

    Parameters
    ----------
    plan : Plan
    step_minutes : float
        Time step of the day simulation, 0.5 to 60. [min]
    include_earlier_paf : bool
        Also the 144 and 288 GB PAF configurations of earlier shipments (Table 3, *).
    threshold, peak_copy_fraction : float, optional
        The cache model's assumptions (:mod:`vtsmodel.tvc`); default its defaults. [-]

    Returns
    -------
    VtsPlan
    """
    _check_plan(plan)
    step_minutes = _check_step(step_minutes)
    opts = {}
    if threshold is not None:
        opts["threshold"] = as_scalar("threshold", q.THRESHOLD.check("threshold", threshold))
    if peak_copy_fraction is not None:
        opts["peak_copy_fraction"] = as_scalar(
            "peak_copy_fraction", q.PEAK_COPY_FRACTION.check("peak_copy_fraction", peak_copy_fraction)
        )

    def run():
        day = _day(plan)
        runs: dict = {}
        results = tuple(
            _evaluate(day, plan.answers, cfg, runs, step_minutes, opts)
            for cfg in vts_configurations(include_earlier_paf=include_earlier_paf)
        )
        return day, results, _copy_efficiency(plan.answers, day.cf)

    (day, results, copy_eff), notes = _collect(run)
    rec_i = next((i for i, r in enumerate(results) if r.meets), None)
    rec = results[rec_i] if rec_i is not None else None
    nxt = results[rec_i - 1] if rec_i else None
    same = None
    if rec is not None:
        below = [r for r in results[:rec_i] if r.config.feature == rec.config.feature
                 and r.config.drives == rec.config.drives]  # fmt: skip
        same = below[-1] if below else None
    info = {
        "read hit ratio [-]": day.read_hit,
        "read hit basis": day.read_hit_basis,
        "recalls per day [-]": float(day.recalls_per_hour.sum()),
        "busiest recall hour [1/h]": float(day.recalls_per_hour.max()) if day.recalls_per_hour.size else 0.0,
        "recall basis": day.recall_basis,
        "virtual drives needed [-]": day.virtual_drives,
        "copy efficiency [-]": copy_eff,
        "hours [h]": day.workload.hours,
        "step [min]": float(step_minutes),
    }
    mean_volume = day.workload.mean_volume_written_mb()
    if mean_volume is not None:  # the fast-ready mounts' volume size, beside the one answered
        info["mean volume written [MB]"] = mean_volume
        info["volume size answered [MB]"] = day.volume_mb
    funcs = _model_funcs("vts")
    # the recall functions also cite the StorageTek 3480 preset, which is no VTS drive
    tables = _tables_of(funcs, ("vts_tvc_configs", "vts_facts", "drive_catalog"), exclude=("stk_facts",))
    rows = VTS_ROWS + _drive_rows(_VTS_DRIVE_CATALOG[plan.answers.vts_drive])
    out = VtsPlan(results, rec, nxt, same, info, notes, _names(funcs), tables, rows, _sources(tables, rows))
    if day.hits is not None:  # with a mount log, the day of the recommended (or closest) configuration
        shown = day.of(out.closest.config)
        info["read hit ratio [-]"] = shown.read_hit
        info["read hit basis"] = (
            f"mount log, at {out.closest.config.tvc_gb:,.0f} GB (each configuration its own)"
        )
        info["recalls per day [-]"] = float(shown.recalls_per_hour.sum())
        info["busiest recall hour [1/h]"] = (
            float(shown.recalls_per_hour.max()) if shown.recalls_per_hour.size else 0.0
        )
    return out


def _check_step(step_minutes) -> float:
    return as_scalar("step_minutes", STEP.check("step_minutes", step_minutes))


@declare(step_minutes=STEP)
def evaluate_configuration(plan: Plan, config: Configuration, *, step_minutes: float = 5.0) -> ConfigResult:
    """One configuration run through the plan's workload (as :func:`vts_plan` does for each)."""
    step_minutes = _check_step(step_minutes)
    day = _day(plan)
    return _evaluate(day, plan.answers, config, {}, step_minutes, {})


# --------------------------------------------------------------------------------------
# The tape-library plan
# --------------------------------------------------------------------------------------
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
    sizing: object
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
        _check_plan(plan)
    from vtsmodel.catalog import drive_spec, mount_parts, resolve_drive
    from vtsmodel.drives import mount_cycle_s
    from vtsmodel.queueing import recall_drives_needed
    from vtsmodel.sizing import Flow, drives_needed

    if plan is None and flows is None:
        raise ValueError("library_plan needs a plan or flows")
    if drive is not None and drive_speed_mb_s is not None:
        raise ValueError("give drive or drive_speed_mb_s, not both")
    a = plan.answers if plan is not None else None
    if drive_speed_mb_s is not None:
        name, speed = None, drive_speed_mb_s
    else:
        name = drive or (a.library_drive if a is not None else None)
        if name is None:
            raise ValueError("give drive (a catalog drive) or drive_speed_mb_s")
        name = resolve_drive(name)
        speed = float(drive_spec(name).speed_mb_s)
    t_mount = float(mount_cycle_s(drive=name))  # the drive's own parts where the catalog has them
    t_over = load("cern_facts").value("toverhead")
    rewind = mount_parts(name)["rewind_unload"].seconds

    def run():
        recall_idx, lam, service, ready, need = None, 0.0, math.nan, math.nan, None
        notes = []
        if flows is not None:
            fl = list(flows)
        else:
            day = _day(plan)
            eff = a.drive_efficiency
            write_rate = float(day.workload.write_mb_s.max())
            lam = float(day.recalls_per_hour.max())
            recall_rate = lam * a.volume_mb / 3600.0
            pattern_w = (
                {} if eff is not None else {"file_mb": a.volume_mb, "files_per_mount": a.files_per_mount}
            )
            pattern_r = {} if eff is not None else {"file_mb": a.volume_mb, "files_per_mount": 1.0}
            fl = [Flow("host writes", write_rate, a.peak_factor, eff, **pattern_w),
                  Flow("recalls (read misses)", recall_rate, a.peak_factor, eff, **pattern_r)]  # fmt: skip
            recall_idx = 1
        sizing = drives_needed(fl, drive_speed_mb_s=speed, t_mount_s=t_mount, t_overhead_s=t_over)
        if plan is not None and recall_idx is None:
            lam = float(_day(plan).recalls_per_hour.max())
        if plan is not None:
            service = t_mount + t_over + a.volume_mb / speed
            ready = service - rewind
            room = a.recall_target_s - ready
            if lam <= MIN_RECALLS_PER_HOUR:
                need = 0
            elif room < 0:
                notes.append(f"a recall needs {ready:.0f} s on an idle {name or 'drive'}: "
                             f"the target of {a.recall_target_s:g} s cannot be met by any number of drives")  # fmt: skip
            else:
                try:
                    need = int(recall_drives_needed(lam / 3600.0, service, room, a.recall_percentile,
                                                    service_cv=0.0, max_drives=4096))  # fmt: skip
                except ValueError as exc:
                    notes.append(str(exc))
        return sizing, recall_idx, lam, service, ready, need, notes

    (sizing, recall_idx, lam, service, ready, need, extra), notes = _collect(run)
    parts = np.asarray(sizing.drives, dtype=float)
    recall_tp = float(parts[recall_idx]) if recall_idx is not None else 0.0
    others = float(parts.sum() - recall_tp)
    wait_need = float(need) if need is not None else 0.0
    governs = "recall wait target (queueing)" if wait_need > recall_tp else "throughput (CERN formula)"
    total = others + max(recall_tp, wait_need)
    whole = int(math.ceil(total - 1e-9 * max(1.0, total)))
    if plan is not None and need is None and lam > MIN_RECALLS_PER_HOUR:
        governs = "throughput (CERN formula); the recall wait target cannot be met"
    funcs = _model_funcs("library")
    tables = _tables_of(funcs, ("cern_facts",))
    rows = LIBRARY_ROWS + _drive_rows(name)
    return LibraryPlan(name, speed, sizing, recall_idx, need, float(service), float(ready), float(lam), whole,
                       governs, tuple(extra) + notes, _names(funcs), tables, rows, _sources(tables, rows))  # fmt: skip


# --------------------------------------------------------------------------------------
# Sensitivity
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SensitivityRow:
    """How one answer moves when one input moves down and up by the fraction.

    Attributes
    ----------
    driver : str
        The input moved (``"data written"``).
    output : str
        The answer watched, with its unit (``"time throttled [h]"``).
    base, low, high : float
        The answer at the plan's inputs, with the input lowered, and raised. [unit]
    input_base, input_low, input_high : float
        The input's values (clipped to its valid range). [its unit]
    input_unit : str
    """

    driver: str
    output: str
    base: float
    low: float
    high: float
    input_base: float
    input_low: float
    input_high: float
    input_unit: str

    @property
    def swing(self) -> float:
        """``|high − low|`` (NaN-safe; inf when one side has no steady state). [unit]"""
        vals = [v for v in (self.low, self.high, self.base) if not math.isnan(v)]
        if not vals:
            return 0.0
        return float(max(vals) - min(vals))


@dataclass(frozen=True)
class Sensitivity:
    """A tornado's data: each answer's move for each input's move.

    Attributes
    ----------
    fraction : float
        Each input moved down and up by this fraction of its value. [-]
    configuration : str
        The VTS configuration the VTS answers are for (held fixed).
    rows : tuple of SensitivityRow
    """

    fraction: float
    configuration: str
    rows: tuple[SensitivityRow, ...]

    @property
    def outputs(self) -> tuple[str, ...]:
        """The answers watched, in order."""
        return tuple(dict.fromkeys(r.output for r in self.rows))

    def tornado(self, output: str) -> list[SensitivityRow]:
        """The rows of ``output``, largest swing first (a tornado's bars, top down)."""
        rows = [r for r in self.rows if r.output == output]
        if not rows:
            raise KeyError(f"no output {output!r}; outputs: {', '.join(self.outputs)}")
        return sorted(rows, key=lambda r: -r.swing if not math.isinf(r.swing) else -math.inf)


def _drivers(plan: Plan) -> list[tuple[str, str, float, Callable[[Plan, float], tuple[Plan, float]]]]:
    """(name, unit, base value, move(plan, factor) -> (plan, value)) for each input moved."""
    a = plan.answers
    inputs = _inputs()
    out = []

    def answer(key, label=None):
        inp = inputs[key]

        def move(p, f):
            v = getattr(p.answers, key) * f
            lo = inp.lo if inp.lo is not None else -math.inf
            hi = inp.hi if inp.hi is not None else math.inf
            if inp.lo_open and v <= lo:
                v = lo + 1e-9
            v = min(max(v, lo), hi - (1e-9 if inp.hi_open else 0.0))
            return p.with_answers(**{key: v}), v

        out.append((label or inp.label, inp.unit, float(getattr(a, key)), move))

    if plan.workload is None:
        answer("write_gb_per_day")
        answer("write_window_hours")
        answer("read_gb_per_day")
    else:
        w = plan.workload
        tw, tr = float(w.write_mb.sum() / 1000.0), float(w.read_mb.sum() / 1000.0)
        out.append(("data written", "GB", tw,
                    lambda p, f: (dataclasses.replace(p, workload=p.workload.scaled(write=f)), tw * f)))  # fmt: skip
        out.append(("data read", "GB", tr,
                    lambda p, f: (dataclasses.replace(p, workload=p.workload.scaled(read=f)), tr * f)))  # fmt: skip
    if plan.hits is None and (plan.workload is None or plan.workload.read_hit_by_mounts() is None):
        answer("read_hit")
    if plan.workload is None and a.recalls_per_hour is not None:
        answer("recalls_per_hour")
    answer("cf")
    answer("volume_mb")
    answer("files_per_mount")
    return out


def _outputs(plan: Plan, config: Configuration, step_minutes: float) -> dict[str, float]:
    r = evaluate_configuration(plan, config, step_minutes=step_minutes)
    lib = library_plan(plan)
    return {
        "time at peak [h]": r.hours_at_peak,
        "time throttled [h]": r.hours_throttled,
        "longest write delay [h]": r.longest_delay_hours,
        "recall ready at percentile [s]": r.worst_recall_ready_s,
        "library drives [-]": float(lib.drives),
    }


@declare(fraction=FRACTION, step_minutes=STEP)
def sensitivity(
    plan: Plan,
    *,
    fraction: float = 0.2,
    configuration: Configuration | None = None,
    step_minutes: float = 5.0,
) -> Sensitivity:
    """How far each answer moves when each input moves down and up by ``fraction``.

    The VTS answers are for one configuration held fixed (default: the recommended one,
    or the closest when none meets every target), so each bar shows the input's effect,
    not a change of configuration. Inputs are clipped to their valid ranges (a read-hit
    ratio stays at most 1, CF at least 1); the rows carry the values used.

    Parameters
    ----------
    plan : Plan
    fraction : float
        The move, a share of each input's value, in (0, 1). [-]
    configuration : Configuration, optional
    step_minutes : float
        Time step of the day simulation, 0.5 to 60. [min]

    Returns
    -------
    Sensitivity
        Data for a tornado chart (:meth:`Sensitivity.tornado`).
    """
    if configuration is not None and not isinstance(configuration, Configuration):
        raise ValueError(
            f"configuration={configuration!r} must be a Configuration (vts_configurations()) or None"
        )
    _check_plan(plan)
    fraction = as_scalar("fraction", FRACTION.check("fraction", fraction))
    step_minutes = _check_step(step_minutes)
    if configuration is None:
        configuration = vts_plan(plan, step_minutes=step_minutes).closest.config

    def run():
        base = _outputs(plan, configuration, step_minutes)
        rows = []
        for name, unit, value, move in _drivers(plan):
            lo_plan, lo_val = move(plan, 1.0 - fraction)
            hi_plan, hi_val = move(plan, 1.0 + fraction)
            lo, hi = (
                _outputs(lo_plan, configuration, step_minutes),
                _outputs(hi_plan, configuration, step_minutes),
            )
            for key in base:
                rows.append(
                    SensitivityRow(name, key, base[key], lo[key], hi[key], value, lo_val, hi_val, unit)
                )
        return rows

    rows, _notes = _collect(run)
    return Sensitivity(float(fraction), configuration.label, tuple(rows))


# --------------------------------------------------------------------------------------
# Everything at once, and the assumptions
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlanResult:
    """A plan evaluated: the VTS plan, the tape-library plan and the sensitivity."""

    plan: Plan
    vts: VtsPlan
    library: LibraryPlan
    sensitivity: Sensitivity | None

    @property
    def models(self) -> tuple[str, ...]:
        """Every model function used, by dotted name."""
        return tuple(dict.fromkeys(self.vts.models + self.library.models))

    @property
    def tables(self) -> tuple[str, ...]:
        """Every data table read."""
        return tuple(dict.fromkeys(self.vts.tables + self.library.tables))

    @property
    def rows(self) -> tuple[tuple[str, str], ...]:
        """Data rows the planner read itself."""
        return tuple(dict.fromkeys(self.vts.rows + self.library.rows))

    @property
    def sources(self) -> tuple[str, ...]:
        """Source ids of every table and row used (the report's references)."""
        return tuple(dict.fromkeys(self.vts.sources + self.library.sources))

    def headline(self) -> str:
        """The recommendation in two or three sentences."""
        return f"{self.vts.headline()} {self.library.headline()}"


@declare(fraction=FRACTION.but(optional=True), step_minutes=STEP)
def evaluate(plan: Plan, *, fraction: float | None = 0.2, step_minutes: float = 5.0) -> PlanResult:
    """The VTS plan, the tape-library plan and (unless ``fraction`` is None) the sensitivity.

    Parameters
    ----------
    plan : Plan
    fraction : float or None
        The sensitivity's move of each input, in (0, 1) (:func:`sensitivity`); None: no
        sensitivity. [-]
    step_minutes : float
        Time step of the day simulation, 0.5 to 60. [min]

    Returns
    -------
    PlanResult
    """
    _check_plan(plan)
    if fraction is not None:
        fraction = as_scalar("fraction", FRACTION.check("fraction", fraction))
    step_minutes = _check_step(step_minutes)
    vts = vts_plan(plan, step_minutes=step_minutes)
    lib = library_plan(plan)
    sens = None
    if fraction is not None:
        sens = sensitivity(
            plan, fraction=fraction, configuration=vts.closest.config, step_minutes=step_minutes
        )
    return PlanResult(plan, vts, lib, sens)


def assumptions() -> list[dict]:
    """The planner's assumptions: what, the value, and its source or why.

    Each dict has ``"assumption"``, ``"value"`` and ``"source"``.
    """
    from vtsmodel import tvc

    f = load("vts_facts")
    return [
        {"assumption": "fill threshold at which the VTS throttles", "value": f"{tvc.DEFAULT_THRESHOLD:g} of the cache",
         "source": f"modelling choice; {_VTS}, Sec. 3.1.1 names a fill threshold without its value"},
        {"assumption": "copy to tape during peak write", "value": f"{tvc.DEFAULT_PEAK_COPY_FRACTION:g} of the sustained copy rate",
         "source": f"modelling choice for 'little copy activity', {_VTS}, Sec. 3.1.1"},
        {"assumption": "capacity above 864 GB that counts toward time at peak",
         "value": f"{tvc.above_864_fraction_default():.3f}",
         "source": f"derived from the '1200 GB effective capacity', {_VTS}, Sec. 4 and Fig. 10 caption"},
        {"assumption": "where data sits in the cache", "value": "compressed with EHPO and PAF, uncompressed in the base VTS",
         "source": f"{_VTS}, Sec. 2"},
        {"assumption": "the order of configurations ('smaller')", "value": "cache capacity, then feature (base, EHPO, PAF), then drives",
         "source": "modelling choice: the paper prices nothing"},
        {"assumption": "prerequisites", "value": "PAF needs EHPO; 3 to 6 drives, 4 to 6 with PAF; 64 virtual drives need EHPO and 144 GB",
         "source": f"{_VTS}, Secs. 2 and 3.5, Table 3"},
        {"assumption": "drives for recalls", "value": "the drives not copying (total minus copying, each hour)",
         "source": f"{_VTS}, Sec. 3.2.2 ('only four recall mounts can be handled simultaneously')"},
        {"assumption": "drives copying", "value": "copy rate / (drive rate x efficiency of stacking volumes), rounded up",
         "source": f"modelling choice; the CERN formula ({_CERN}) with Eq. 1's {load('vts_import_export').value('export_per_mount'):g} min per mount ({_VTS})"},
        {"assumption": "recall arrivals", "value": "Poisson within each hour; identical service (M/D/c); the busiest hour governs",
         "source": "modelling choice (busy-hour engineering)"},
        {"assumption": "recall parts", "value": "robot, load and rewind/unload from CERN's tMount; the rest of Eq. 1's per-mount time; search 21 s",
         "source": f"{_CERN}; {_VTS}, Eq. 1 and Sec. 7 (search time {f.value('search_time_avg'):g} s)"},
        {"assumption": "a day that repeats", "value": "un-copied data left at the end is carried into a second run of the day",
         "source": "modelling choice"},
        {"assumption": "library drive speed", "value": "the catalog's observed rate, else its native rate",
         "source": f"{_CERN}, Introduction (Maxspeed); drive catalog"},
        {"assumption": "library flows", "value": "the busiest hour's write and recall rates, times the peak factor",
         "source": f"modelling choice; {_CERN}, Summary (the formula)"},
        {"assumption": "library mount cycle (tMount)", "value": "the drive's own load, locate and rewind/unload where the catalog has them, else CERN's 9940B parts; robot move 22.5 s",
         "source": f"{_CERN}, Access pattern and tape drive efficiency; drive catalog (mount_cycle_s with drive)"},
        {"assumption": "library overhead per file (tOverhead)", "value": f"{load('cern_facts').value('toverhead'):g} s",
         "source": f"{_CERN}, Access pattern and tape drive efficiency"},
    ]  # fmt: skip
