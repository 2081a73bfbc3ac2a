"""A plan (the answers, and optionally an hourly workload and a mount log's hit curve) and its JSON file.

A plan file is a JSON object ``{"schema": "vtsmodel-plan", "version": 2, "name": ...,
"answers": {...}, "workload": null | {"file": NAME} | {"name", "notes", "columns"},
"mount_log": {"file": NAME, "reading": {...}}, "vts": false, "library_flows": [...]}`` (the last three
optional; ``reading``, how to read the mount log, too: :data:`READING_KEYS`): :func:`save_plan` and
:func:`plan_to_json` write it, :func:`load_plan`, :func:`plan_from_bytes` and
:func:`plan_from_dict` read it, every field checked. A line whose text starts with ``//``
is a comment: :func:`plan_template` (``vtsmodel plan --init``) writes one above each answer.
A version-1 file (written before the library's answers) is read as it was written: its
answers, version 1's default drive (``"IBM3592A"``) where it gave none, and no library family
(:data:`V1_DEFAULTS`).

A file a plan file references is read only from the plan file's own folder: a name
relative to it, with no ``..``, not absolute, and not a symbolic link leading out of it.
A file anywhere else is given on the command line (``vtsmodel plan PLAN --workload
FILE``), which the person typed. A referenced file that is not a valid workload or log is
reported by where it fails (its line), never by what it holds: a plan file from someone
else could otherwise make the reader print part of any file it names.
"""

from __future__ import annotations

import dataclasses
import json
import numbers
import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from vtsmodel._files import atomic_write, check_regular_file, parse_json_bytes, read_file
from vtsmodel._inputs import Input, declare
from vtsmodel._validation import as_scalar
from vtsmodel.hits import HitCurve, lru_hit_curve
from vtsmodel.hourly import COLUMNS, MAX_HOURS, HourlyWorkload, read_hourly_workload
from vtsmodel.logs import LogFile
from vtsmodel.mountlog import MountLog, read_mount_log
from vtsmodel.plan.answers import _OPTIONAL, EMPTY_MEANS, NO_LIBRARY, Answers, answer_inputs
from vtsmodel.sizing import Flow

__all__ = [
    "MAX_PLAN_BYTES",
    "LibraryFlow",
    "PLAN_SCHEMA",
    "PLAN_VERSION",
    "Plan",
    "READING_KEYS",
    "load_plan",
    "plan_from_bytes",
    "plan_from_dict",
    "plan_to_dict",
    "plan_template",
    "plan_to_json",
    "save_plan",
    "save_plan_template",
]

#: The ``schema`` field of a plan file.
PLAN_SCHEMA = "vtsmodel-plan"
#: The plan file version this module writes; it reads this one and version 1.
PLAN_VERSION = 2
#: What a plan says of how to read its mount log (``mount_log.reading``): the options of
#: :class:`vtsmodel.logs.LogFile`, and ``sort`` (:func:`vtsmodel.read_mount_log`).
READING_KEYS = ("format", "columns", "delimiter", "header", "time_form", "object_mb", "size_basis", "access_map",
                "encoding", "sort")  # fmt: skip
#: Version 1's answers (before the library over the years, issue 29), and what a version-1 file
#: without an answer meant by it where the default has changed since: a version-1 file is read
#: as it was written, with no library family (drives, robots and cartridges only).
V1_ANSWERS = (
    "write_gb_per_day", "write_window_hours", "write_start_hour", "read_gb_per_day", "read_window_hours",
    "read_start_hour", "read_hit", "cf", "recalls_per_hour", "volume_mb", "files_per_mount", "recall_target_s",
    "recall_percentile", "throttle_hours_allowed", "delay_hours_allowed", "drive_efficiency", "peak_factor",
    "vts_drive", "library_drive", "virtual_drives_needed", "escon_channels",
)  # fmt: skip
V1_DEFAULTS = {"library_drive": "IBM3592A", "library": NO_LIBRARY}
#: Largest plan file read. [bytes]
MAX_PLAN_BYTES = 2_000_000


@dataclass(frozen=True)
class LibraryFlow:
    """A data flow of a tape library plan (the CERN note's flows), and whether it writes new data.

    Attributes
    ----------
    flow : vtsmodel.sizing.Flow
        Its rate, peak factor and efficiency or access pattern (cern-tape-sizing-2005, Summary).
    writes : bool
        Whether it writes new data to the archive: the flows that do, at their average rate
        all year, are the TB written a year where the answers give none.
    """

    flow: Flow
    writes: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.flow, Flow):
            raise ValueError(f"flow={self.flow!r:.80} must be a vtsmodel.sizing.Flow")
        if not isinstance(self.writes, bool):
            raise ValueError(f"writes={self.writes!r} must be true or false")


#: Flows a plan file may hold at most.
MAX_FLOWS = 100


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
    mount_log_reading : dict
        How that mount log is read, as the plan file says it (``mount_log.reading``): any of
        :data:`READING_KEYS` (:class:`vtsmodel.logs.LogFile`'s options and ``sort``), each
        detected when not given; {} when none is. A log that needs them (no header, a
        format of its own) is read again from the plan file with them.
    log : MountLog or None
        The mount log itself (with ``hits``): the tape-library plan replays it to check its
        recall target (:func:`vtsmodel.replay.replay_drives_needed`).
    vts : bool
        Whether to plan a VTS B18 too; False: a tape library alone (an archive).
    library_flows : tuple of LibraryFlow
        The tape library's data flows; when given they replace the day's host writes and
        recalls in the library plan (and no recall flow is known to check the recall target
        against, unless a mount log is replayed).
    """

    answers: Answers = field(default_factory=Answers)
    workload: HourlyWorkload | None = None
    workload_file: str | None = None
    name: str = "plan"
    hits: HitCurve | None = None
    mount_log_file: str | None = None
    mount_log_reading: dict = field(default_factory=dict)
    vts: bool = True
    library_flows: tuple[LibraryFlow, ...] = ()
    log: MountLog | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.log is not None and not isinstance(self.log, MountLog):
            raise ValueError(f"log={self.log!r:.60} must be a MountLog (vtsmodel.read_mount_log) or None")
        if not isinstance(self.vts, bool):
            raise ValueError(f"vts={self.vts!r} must be true or false")
        flows = self.library_flows
        if not isinstance(flows, tuple | list) or not all(isinstance(f, LibraryFlow) for f in flows):
            raise ValueError(f"library_flows={flows!r:.80} must be a tuple of LibraryFlow")
        if len(flows) > MAX_FLOWS:
            raise ValueError(f"library_flows holds {len(flows)} flows; at most {MAX_FLOWS}")
        object.__setattr__(self, "library_flows", tuple(flows))
        if not isinstance(self.answers, Answers):
            raise ValueError(f"answers={self.answers!r} must be an Answers")
        if self.workload is not None and not isinstance(self.workload, HourlyWorkload):
            raise ValueError(f"workload={self.workload!r} must be an HourlyWorkload or None")
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 200:
            raise ValueError(f"name={self.name!r} must be text of 1 to 200 characters")
        object.__setattr__(self, "mount_log_reading", _check_reading(self.mount_log_reading))
        if self.hits is not None:
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
    check_plan(plan)
    # a slider's step arithmetic leaves 800.0000000000001: twelve significant digits keep every answer
    answers = {
        k: float(f"{v:.12g}") if isinstance(v, float) else v for k, v in plan.answers.to_dict().items()
    }
    doc = {"schema": PLAN_SCHEMA, "version": PLAN_VERSION, "name": plan.name, "answers": answers,
           "workload": None}  # fmt: skip
    if not plan.vts:
        doc["vts"] = False
    if plan.library_flows:
        doc["library_flows"] = [_flow_dict(f) for f in plan.library_flows]
    if plan.hits is not None:
        if not plan.mount_log_file:
            raise ValueError(
                "the plan's read hits come from a mount log without a file name (plan.mount_log_file); "
                "a plan file references its mount log by file: set it, or save the plan without hits"
            )
        doc["mount_log"] = {"file": plan.mount_log_file}
        if plan.mount_log_reading:
            doc["mount_log"]["reading"] = dict(plan.mount_log_reading)
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


def check_plan(plan, name: str = "plan") -> None:
    """Raise ``ValueError`` unless ``plan`` is a :class:`Plan`."""
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
    check_plan(plan)
    return atomic_write(path, plan_to_json(plan, embed=embed), overwrite=overwrite)


def _read_json(path: Path):
    # a regular file only: a FIFO would block for ever
    return _parse_json(read_file(path, max_bytes=MAX_PLAN_BYTES, what="plan file"), str(path))


def _parse_json(raw: bytes, where: str):
    return parse_json_bytes(_uncommented(raw), where, max_bytes=MAX_PLAN_BYTES, what="plan file")


def _uncommented(raw: bytes) -> bytes:
    """The file with its comment lines (first text ``//``, as :func:`plan_template` writes) blanked.

    Whole lines only: a JSON string cannot hold a line break, so no string is touched. The
    lines stay (empty) so an error's line number is the file's.
    """
    if b"//" not in raw or len(raw) > MAX_PLAN_BYTES:
        return raw  # the size check reports a file too large
    lines = raw.split(b"\n")
    return b"\n".join(b"" if line.lstrip().startswith(b"//") else line for line in lines)


def save_plan_template(plan: Plan | None, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
    """Write :func:`plan_template` of ``plan`` (default: every default) to ``path``, atomically.

    An existing file is replaced only if asked (``FileExistsError`` otherwise).
    """
    return atomic_write(path, plan_template(plan), overwrite=overwrite)


#: Line width of :func:`plan_template`'s comments (a layout choice).
TEMPLATE_WIDTH = Input(
    "template line width", "characters", 96, lo=40, hi=400, integer=True,
    source="layout choice", help="Longest comment line of a plan template.",
)  # fmt: skip


@declare(width=TEMPLATE_WIDTH)
def plan_template(plan: Plan | None = None, *, width: int = 96) -> str:
    """A plan file with a comment above each answer: its label, unit, range, source and help.

    Comment lines start with ``//`` (:func:`load_plan` skips them); the values are
    ``plan``'s answers (default: every default). ``vtsmodel plan --init FILE`` writes it.
    """
    width = int(as_scalar("width", TEMPLATE_WIDTH.check("width", width)))
    plan = Plan() if plan is None else plan
    check_plan(plan)
    doc = plan_to_dict(plan)

    def comment(text: str, indent: str) -> list[str]:
        return [f"{indent}// {line}" for line in textwrap.wrap(text, width - len(indent) - 3)]

    out = comment(
        f"A vtsmodel plan file (schema {PLAN_SCHEMA!r}, version {PLAN_VERSION}). Lines starting with // are "
        "comments. Change the values, keep the keys; an answer left out takes its default. Run it with: "
        'vtsmodel plan THIS_FILE --report plan.pdf (or plan.html). "workload" may name an hourly workload '
        'CSV beside this file: "workload": {"file": "day.csv"} (see examples/README.md); "mount_log" a mount log, '
        'with how to read it where it has no header or words of its own: "mount_log": {"file": "site.log.gz", '
        '"reading": {"columns": "time,volume,mb,access", "access_map": {"U": "specific_write"}}}.',
        "",
    )
    out += ["{", f'  "schema": {json.dumps(doc["schema"])},', f'  "version": {doc["version"]},',
            f'  "name": {json.dumps(doc["name"], ensure_ascii=False)},', '  "answers": {']  # fmt: skip
    inputs = answer_inputs()
    answers = list(doc["answers"].items())
    for i, (key, value) in enumerate(answers):
        inp = inputs[key]
        unit = f" [{inp.unit}]" if inp.unit not in ("", "-") else ""
        if inp.choices:
            allowed = "one of " + ", ".join(f"{json.dumps(v)} ({label})" for label, v in inp.options)
        else:
            allowed = inp.range_text() + (f"; null: {EMPTY_MEANS[key]}" if key in _OPTIONAL else "")
        source = f" Source: {inp.source}." if inp.source else ""
        out += comment(f"{inp.label}{unit}: {allowed}. {inp.help}{source}", "    ")
        comma = "," if i < len(answers) - 1 else ""
        out.append(f"    {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    rest = {k: v for k, v in doc.items() if k not in ("schema", "version", "name", "answers")}
    out.append("  }" + ("," if rest else ""))
    for j, (key, value) in enumerate(rest.items()):
        text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        out.append(f"  {json.dumps(key)}: {text}" + ("," if j < len(rest) - 1 else ""))
    out.append("}")
    return "\n".join(out) + "\n"


def plan_to_json(plan: Plan, *, embed: bool | None = None) -> str:
    """The plan file's text (what :func:`save_plan` writes; a page offers it as a download)."""
    return json.dumps(plan_to_dict(plan, embed=embed), indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def plan_from_bytes(
    data: bytes, *, base_dir: str | os.PathLike | None = None, where: str = "the plan file"
) -> Plan:
    """A :class:`Plan` from a plan file's bytes (an upload), checked as :func:`load_plan` checks a file.

    A file it references is read from ``base_dir`` only; without one, a reference is refused
    (see :func:`plan_from_dict`).
    """
    if not isinstance(data, bytes | bytearray):
        raise ValueError(f"data must be the plan file's bytes, not {type(data).__name__}")
    return plan_from_dict(_parse_json(bytes(data), where), base_dir=base_dir)


_PLAN_KEYS = {"schema", "version", "name", "answers", "workload", "mount_log", "vts", "library_flows"}
#: What a flow of a plan file holds (the fields of vtsmodel.sizing.Flow, and ``writes``).
_FLOW_KEYS = ("name", "rate_mb_s", "peak_factor", "efficiency", "file_mb", "files_per_mount", "writes")


def _flow_dict(f: LibraryFlow) -> dict:
    d = {k: getattr(f.flow, k) for k in _FLOW_KEYS[:-1]}
    return {k: v for k, v in d.items() if v is not None} | {"writes": f.writes}


def _refuse_unknown(d: dict, keys, where: str, holder: str) -> None:
    """``ValueError`` naming the keys of ``d`` not in ``keys``: "WHERE: unknown key(s) ...; HOLDER holds ..."."""
    unknown = set(d) - set(keys)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(map(repr, unknown)))}; "
                         f"{holder} holds {', '.join(keys)}")  # fmt: skip


def _library_flows(spec) -> tuple[LibraryFlow, ...]:
    """A plan file's ``library_flows``: a list of flows, each checked (the message names the flow and field)."""
    if not isinstance(spec, list) or not spec:
        raise ValueError("library_flows must be a list of flows, each {'name', 'rate_mb_s', ...}")
    if len(spec) > MAX_FLOWS:
        raise ValueError(f"library_flows holds {len(spec)} flows; at most {MAX_FLOWS}")
    out = []
    for i, d in enumerate(spec, start=1):
        if not isinstance(d, dict):
            raise ValueError(f"library flow {i} must be an object, not {type(d).__name__}")
        _refuse_unknown(d, _FLOW_KEYS, f"library flow {i}", "a flow")
        for k, v in d.items():
            if k == "name" and not (isinstance(v, str) and 0 < len(v.strip()) <= 200):
                raise ValueError(f"library flow {i}: name={v!r:.60} must be text of 1 to 200 characters")
            if k == "writes" and not isinstance(v, bool):
                raise ValueError(f"library flow {i}: writes={v!r:.60} must be true or false")
            if (
                k not in ("name", "writes")
                and v is not None
                and (isinstance(v, bool) or not isinstance(v, numbers.Real))
            ):
                raise ValueError(f"library flow {i}: {k}={v!r:.60} must be a number")
        if "name" not in d or "rate_mb_s" not in d:
            raise ValueError(f"library flow {i} needs a name and rate_mb_s")
        try:
            flow = Flow(**{k: v for k, v in d.items() if k != "writes"})
        except ValueError as exc:
            raise ValueError(f"library flow {i}: {exc}") from None
        out.append(LibraryFlow(flow, d.get("writes", False)))
    return tuple(out)


def plan_from_dict(doc, *, base_dir: str | os.PathLike | None = None, without: tuple[str, ...] = ()) -> Plan:
    """A :class:`Plan` from a parsed plan document, every field checked.

    A referenced workload or mount log (``{"file": NAME}``) is read only from ``base_dir``
    (the plan file's folder; see the module docstring): a plan from bytes without one (an
    upload to a page) that references a file is refused, since a page reads no file on the
    server. References named in ``without`` (``"workload"``, ``"mount_log"``) are checked
    but not read: the caller gives those files (the command line's ``--workload``).

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
    if isinstance(version, bool) or not isinstance(version, int) or version not in (1, PLAN_VERSION):
        raise ValueError(
            f"version={version!r} is not supported; this vtsmodel reads versions 1 and {PLAN_VERSION}"
        )
    later = sorted({"vts", "library_flows"} & set(doc)) if version == 1 else []
    if later:
        raise ValueError(
            f"{', '.join(map(repr, later))} came after version 1; save the plan as version {PLAN_VERSION}"
        )
    name = doc.get("name", "plan")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise ValueError(f"name={name!r} must be text of 1 to 200 characters")
    try:
        answers = Answers.from_dict(_v1_answers(doc["answers"]) if version == 1 else doc["answers"])
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
            if "workload" not in without:
                workload = _read_referenced(read_hourly_workload, ref, base_dir, "workload", "--workload")
        else:
            workload = _embedded_workload(spec)
    curve, log_ref, log, reading = _mount_log(doc.get("mount_log"), base_dir, read="mount_log" not in without)
    vts = doc.get("vts", True)
    if not isinstance(vts, bool):
        raise ValueError(f"vts={vts!r:.60} must be true (plan a VTS B18 too) or false (a tape library alone)")
    flows = _library_flows(doc["library_flows"]) if doc.get("library_flows") is not None else ()
    return Plan(answers=answers, workload=workload, workload_file=ref, name=name.strip(), hits=curve,
                mount_log_file=log_ref, mount_log_reading=reading, vts=vts, library_flows=flows, log=log)  # fmt: skip


def _v1_answers(values):
    """A version-1 file's answers as this version reads them: version 1's own, its defaults where they changed."""
    if not isinstance(values, dict):
        return values  # Answers.from_dict says what is wrong
    later = [k for k in values if k not in V1_ANSWERS]
    if later:
        raise ValueError(
            f"{', '.join(map(repr, later))} came after version 1; a version-1 plan file holds "
            f"{', '.join(V1_ANSWERS)} (save it again as version {PLAN_VERSION} to add the library's answers)"
        )
    return {**V1_DEFAULTS, **values}


def _check_reading(reading) -> dict:
    """How to read a mount log (:data:`READING_KEYS`), checked as :class:`vtsmodel.logs.LogFile` checks them; a new dict.

    ``ValueError`` naming an unknown key or a value that is not valid; JSON values only
    (what a plan file holds).
    """
    if reading is None or (isinstance(reading, dict) and not reading):
        return {}
    if not isinstance(reading, dict):
        raise ValueError(f"mount_log reading={reading!r:.80} must be an object of {', '.join(READING_KEYS)}")
    _refuse_unknown(reading, READING_KEYS, "mount_log reading", "it")
    out = dict(reading)
    if not isinstance(out.get("sort", False), bool):
        raise ValueError(f"mount_log reading: sort={out['sort']!r:.60} must be true or false")
    try:
        json.dumps(out, allow_nan=False)
    except (TypeError, ValueError):
        raise ValueError(f"mount_log reading={reading!r:.80} must hold JSON values (text, numbers, true/false, "
                         "objects, null)") from None  # fmt: skip
    try:
        LogFile(b"", **{k: v for k, v in out.items() if k != "sort"})
    except (ValueError, TypeError) as exc:
        raise ValueError(f"mount_log reading: {exc}") from None
    return out


def _mount_log(spec, base_dir, *, read: bool = True):
    """(curve, reference, log, reading) of a plan file's ``mount_log`` entry, or (None, None, None, {})."""
    if spec is None:
        return None, None, None, {}
    ok = isinstance(spec, dict) and "file" in spec and set(spec) <= {"file", "reading"}
    ref = spec.get("file") if ok else None
    if not isinstance(ref, str) or not ref.strip() or len(ref) > 1000 or "\x00" in ref:
        raise ValueError(f"mount_log must be {{'file': NAME}} naming a mount log file (and how to read it: "
                         f"'reading'), not {spec!r:.200}")  # fmt: skip
    reading = _check_reading(spec.get("reading"))
    if not read:
        return None, None, None, reading
    log = _read_referenced(
        lambda path: read_mount_log(path, **reading), ref, base_dir, "mount log", "--mount-log"
    )
    return lru_hit_curve(log), ref, log, reading


def _read_referenced(read, ref: str, base_dir, what: str, flag: str):
    """``read(path)`` of the file a plan file references, inside the plan file's folder only.

    Refused: no folder (a plan from bytes), an absolute name, ``..``, or a symbolic link
    leading out. The file's faults name its line, never its content.
    """
    give = f"give it on the command line: vtsmodel plan PLAN {flag} FILE"
    if base_dir is None:
        raise ValueError(
            f"the plan references the {what} {ref!r}; a plan read without its folder (an upload) "
            f"reads no file: {give}"
        )
    folder = Path(base_dir).resolve()
    name = Path(ref)
    if name.is_absolute() or ".." in name.parts or not (folder / name).resolve().is_relative_to(folder):
        raise ValueError(
            f"{what} file {ref!r}: a plan file references only files in its own folder ({folder}), "
            f"by a name without '..' that no link leads out of; for a file elsewhere, {give}"
        )
    path = folder / name
    try:
        check_regular_file(path, what=f"{what} file")
    except ValueError as exc:  # missing, a folder, a FIFO: the path's fault, not the content's
        reason = str(exc).replace(str(path), ref)
        raise ValueError(f"{what} file {reason} (in the plan file's folder, {folder})") from None
    try:
        return read(path)
    except (ValueError, OSError) as exc:
        line = re.search(r"\bline \d+", str(exc))
        raise ValueError(
            f"{what} file {ref}{f' ({line.group(0)})' if line else ''} is not a valid {what}; "
            f"to see what is wrong, give it on the command line: vtsmodel plan PLAN {flag} {ref}"
        ) from None


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


def load_plan(path: str | os.PathLike, *, without: tuple[str, ...] = ()) -> Plan:
    """Read a plan file; every field is checked before a :class:`Plan` is returned.

    The files it references are read from its folder only, but for those named in
    ``without`` (see :func:`plan_from_dict`).

    Raises
    ------
    ValueError
        The file is missing, too large, not JSON, of another schema or version, or holds
        unknown keys or invalid values (the message names the field).
    """
    if not isinstance(path, str | os.PathLike):
        raise ValueError(f"path={path!r} must be the path of a plan file")
    path = Path(path)
    return plan_from_dict(_read_json(path), base_dir=path.parent, without=without)
