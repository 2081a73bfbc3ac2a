"""Lesson 07, the tape library: the drives the library needs for the day's flows, and what governs.

The CERN sizing rule (cern-tape-sizing-2005) applied to the day's write and recall flows, the
recall wait target's drives, and the feed each writing drive gets
(:func:`~vtsmodel.app.lessons.configurations.write_feed_mb_s`). The page is
:mod:`vtsmodel.app.lessons.planner`.
"""

from __future__ import annotations

from vtsmodel import plan
from vtsmodel.app.text import number

_DRIVE = plan.answer_inputs()["library_drive"]


def library_readouts(lib: plan.LibraryPlan, feed: float | None = None, cf: float = 1.0) -> dict[str, str]:
    """The tape-library plan in words: drives per flow, the recall wait target's drives, what governs.

    With ``feed`` (:func:`~vtsmodel.app.lessons.configurations.write_feed_mb_s`, host MB/s) also the feed per writing drive, and its
    native MB/s at compressibility ``cf``.
    """
    if lib.drive:
        drives = f"{lib.drives} × {_DRIVE.label_of(lib.drive)}"
    else:
        drives = f"{_drives(lib.drives)} at {number(lib.speed_mb_s)} MB/s"
    out = {"tape library": drives, "tape library, governs": lib.governs}
    for flow, eff, d in zip(lib.sizing.names, lib.sizing.efficiencies, lib.sizing.drives, strict=True):
        out[f"library, {flow}"] = f"{_drives(d)} (efficiency {number(eff)})"
    if lib.recall_flow is not None:
        need = lib.recall_drives_for_wait
        out["library, recall wait target"] = "cannot be met" if need is None else _drives(need)
    if feed is not None:
        out["library, feed per writing drive"] = f"{number(feed)} MB/s ({number(feed / cf)} MB/s native)"
    return out


def _drives(n: float) -> str:
    return f"{number(n)} drive{'' if n == 1 else 's'}"


def cern_numbers() -> str:
    """CERN's sample calculation through the page's library plan (cern-tape-sizing-2005, Summary): labelled lines."""
    from vtsmodel.sizing import cern_example_drive_speed, cern_example_flows

    lib = plan.library_plan(flows=cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    return "\n".join(f"{k}: {x}" for k, x in library_readouts(lib).items())
