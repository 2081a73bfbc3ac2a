"""Lesson 07, the tape library: the drives the library needs for the day's flows, and what governs.

The CERN sizing rule (cern-tape-sizing-2005) applied to the day's write and recall flows, the
recall wait target's drives, and the feed each writing drive gets
(:func:`~vtsmodel.app.lessons.configurations.write_feed_mb_s`). The page is
:mod:`vtsmodel.app.lessons.planner`.
"""

from __future__ import annotations

import numpy as np

from vtsmodel import plan
from vtsmodel.app.text import count_or_number, number

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
    if lib.replay is not None:
        r = lib.replay
        analytic = "none" if r.analytic_drives is None else _drives(r.analytic_drives)
        out["library, recall target by replay"] = (
            f"{_drives(r.drives)} (the log's analytic M/G/c count: {analytic})"
        )
    if lib.over_years is not None:
        out.update(years_readouts(lib.over_years))
    return out


def years_readouts(y: plan.LibraryYearsPlan) -> dict[str, str]:
    """The library over the years in words: the family and its frames, drives, robots, cartridges, what binds, the cost."""
    r, n = y.years, int(y.year[-1])
    out = {}
    if r.has_frames:
        u = r.units
        frames = (f"more than one {r.library.label}" if not np.isfinite(u[-1])
                  else f"{r.library.label}: {_count(u[0], r.library.unit)} now, {_count(u[-1], r.library.unit)} in year {n}")  # fmt: skip
        out["library, frames"] = frames
    out["library, drives now → last year"] = f"{int(r.drives[0])} → {int(r.drives[-1])}"
    out["library, robots now → last year"] = (f"{int(r.robots[0])} → {int(r.robots[-1])} "
                                              f"({number(100 * float(np.max(r.robot_utilisation)))} % busy at most)")  # fmt: skip
    out["library, cartridges now → last year"] = (
        f"{int(r.archive.cartridges[0]):,} → {int(r.archive.cartridges[-1]):,}"
    )
    if r.has_frames and r.binding[-1]:
        out[f"library, binds in year {n}"] = r.binding[-1]
    for c in y.checks():
        out[f"library margin, {c.label}"] = (
            f"{count_or_number(c.margin)} {c.unit}" if np.isfinite(c.margin) else "none"
        )
    if y.cost is not None:
        out["library, cost so far"] = f"{number(float(y.cost['cumulative'][-1]))} in year {n} (your prices)"
    return out


def _count(n: float, what: str) -> str:
    return f"{int(n)} {what}{'' if n == 1 else 's'}"


def _drives(n: float) -> str:
    return f"{number(n)} drive{'' if n == 1 else 's'}"


def cern_numbers() -> str:
    """CERN's sample calculation through the page's library plan (cern-tape-sizing-2005, Summary): labelled lines."""
    from vtsmodel.sizing import cern_example_drive_speed, cern_example_flows

    lib = plan.library_plan(flows=cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    return "\n".join(f"{k}: {x}" for k, x in library_readouts(lib).items())


def archive_numbers() -> str:
    """The shipped archive plan (examples/archive_plan.json: the CERN Tier-1 flows, five years, LTO-9), year by year."""
    from vtsmodel.files import example_file

    lib = plan.evaluate(plan.load_plan(example_file("archive_plan.json"))).library
    y = lib.over_years
    lines = [lib.headline()]
    for row in y.rows():
        lines.append(
            f"year {row['year']}: {number(row['stored [TB]'], 5)} TB stored, {row['cartridges']:,} cartridges, "
            f"{row[f'{y.unit}s']} {y.unit}(s), {row['drives']} drives, {row['robots']} robot(s), "
            f"{number(row['mounts per hour'])} mounts an hour; binds: {row['binds']}"
        )
    return "\n".join(lines)
