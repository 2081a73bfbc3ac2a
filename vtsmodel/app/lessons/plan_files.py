"""Lesson 07, the files: the mount log that gives each configuration its read hits, and a plan file's references.

With a mount log (one the person picks, or lesson 08's synthetic example), every VTS
configuration is evaluated with its own read-hit ratio, by bytes, at its cache size
(:class:`vtsmodel.plan.Plan`'s ``hits``, :func:`vtsmodel.hits.tvc_read_hit`), as
``vtsmodel plan PLAN --mount-log LOG.csv`` does. A plan file references its workload or its
mount log by file name; a page reads no file on the server, so :func:`read_plan` loads the
rest and :func:`references_text` names the files to upload. The page is
:mod:`vtsmodel.app.lessons.planner`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping

import ipywidgets as w

from vtsmodel import plan
from vtsmodel.app.downloads import FileBar
from vtsmodel.app.filekinds import wrong_kind
from vtsmodel.app.lessons.configurations import hits_of
from vtsmodel.app.lessons.hit_curve import LogSource, ReadingBoxes, example_source, log_controls, read_upload

#: A plan file's keys that may reference a file, and what the page calls that file.
REFERENCES = {"workload": "workload", "mount_log": "mount log"}


def read_log(data: bytes, name: str, **options) -> LogSource:
    """A picked mount log, checked as the planner checks one; ``ValueError`` naming the line, or a log with no reads.

    ``options``: how to read it (:class:`vtsmodel.logs.LogFile`; :class:`ReadingBoxes`).
    """
    log = read_upload(data, name, **options)
    plan.Plan(
        hits=hits_of(log), mount_log_file=name
    )  # the planner's checks (a log without reads gives no ratio)
    return log


def log_name(log: LogSource) -> str:
    """The log's file name, marked when it is the synthetic example."""
    return log.name + (" (synthetic, illustrative: not measured)" if log.example else "")


def log_caption(log: LogSource | None) -> dict[str, str]:
    """The caption's entries while a mount log gives the read hits (none without one)."""
    if log is None:
        return {}
    a = plan.answer_inputs()
    return {a["read_hit"].header: f"from the mount log {log_name(log)}: each configuration its own",
            a["recalls_per_hour"].header: "derived: reads × (1 − the configuration's read hit) ÷ volume size"}  # fmt: skip


class MountLogFiles:
    """The planner's "Mount log" group on its file bar: an upload, how to read it, the example and clear.

    Parameters
    ----------
    files : FileBar
        The page's file bar (the group is appended to its row; its status line says what happened).
    show : callable
        ``show(log)`` evaluates the page with ``log`` (None: the answered read-hit ratio).
    """

    def __init__(self, files: FileBar, show: Callable[[LogSource | None], None]) -> None:
        self.files, self.show = files, show
        files.add(w.HTML("&nbsp;&nbsp;<b>Mount log</b>"))
        self.upload = log_controls(files, self.load_bytes, self.use_example)
        files.button("Clear mount log", self.clear, "Back to the answered read-hit ratio")
        self.reading = ReadingBoxes()  # a log without a header needs its columns
        self.plan_reading: dict = {}  # what a plan file loaded says of reading its log, beyond the boxes
        files.add(
            w.Box(layout=w.Layout(width="100%", height="0px")), self.reading.widget
        )  # on a line of its own
        files.add(w.Box(layout=w.Layout(width="100%", height="0px")))  # the groups after it: a new line

    def load_bytes(self, data: bytes, name: str) -> str:
        """Read a picked log and evaluate with it; a bad log raises ``ValueError`` and changes nothing."""
        log = read_log(data, name, **{**self.plan_reading, **self.reading.options()})
        self.show(log)
        return self.showing(log)

    def expect(self, reading: Mapping) -> str:
        """Read the next upload as a plan file says (its ``mount_log.reading``): the boxes set, the rest kept; what the status says (HTML)."""
        self.plan_reading = self.reading.show(reading)
        if not reading:
            return ""
        said = ", ".join(f"{k} {json.dumps(v, ensure_ascii=False)}" for k, v in reading.items())
        return f" (read as the plan file says: {html.escape(said)})"

    def use_example(self) -> None:
        """Evaluate with the example mount log (synthetic, illustrative)."""
        self.show(example_source())
        self.files.say(self.showing(example_source()))

    def clear(self) -> None:
        """Back to the answered read-hit ratio."""
        self.show(None)
        self.plan_reading = {}
        self.files.say("mount log cleared: every configuration with the answered read-hit ratio")

    @staticmethod
    def showing(log: LogSource) -> str:
        """What the status line says of a log in use."""
        return (f"read hits from the mount log <b>{html.escape(log_name(log))}</b> ({len(log.log):,} mounts): "
                "each configuration its own read-hit ratio (by bytes, LRU)")  # fmt: skip


# --- a plan file's references --------------------------------------------------------------------


def _file_ref(doc, key: str) -> str | None:
    spec = doc.get(key) if isinstance(doc, dict) else None
    keys = {"file", "reading"} if key == "mount_log" else {"file"}
    ref = spec.get("file") if isinstance(spec, dict) and "file" in spec and set(spec) <= keys else None
    return ref if isinstance(ref, str) and ref.strip() else None


def read_plan(data: bytes, name: str) -> tuple[plan.Plan, dict[str, str]]:
    """A plan file's plan without the files it references, and those files (what :data:`REFERENCES` calls them: name).

    A page reads no file on the server: a referenced workload or mount log is left out (the
    rest checked as :func:`vtsmodel.plan.plan_from_bytes` checks it; ``ValueError`` naming
    what is wrong).
    """
    try:
        doc = json.loads(bytes(data).decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON: plan_from_bytes says what is wrong
        doc = None
    other = wrong_kind(doc, plan.PLAN_SCHEMA)
    if other:
        raise ValueError(other)
    refs = {key: ref for key in REFERENCES if (ref := _file_ref(doc, key))}
    if not refs:
        return plan.plan_from_bytes(bytes(data), where=name), {}
    # Checked, not read: the plan keeps how to read its mount log (mount_log_reading) for the upload.
    return plan.plan_from_dict(doc, without=tuple(refs)), {REFERENCES[k]: ref for k, ref in refs.items()}


def references_text(refs: dict[str, str]) -> str:
    """What the status line says of the files a plan references: upload them (HTML)."""
    return "".join(f"; it references the {what} file <b>{html.escape(ref)}</b>, which a page cannot read from the "
                   "server: upload it" for what, ref in refs.items())  # fmt: skip
