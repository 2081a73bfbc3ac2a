"""Answer key of lesson 05 (the sizing workbench), from sizing and the drive catalog."""

from __future__ import annotations

import dataclasses

from vtsmodel.app.lessons.drive_counts import DEFAULT_DRIVE, DRIVES, label_of, speed_of
from vtsmodel.app.text import number, percent
from vtsmodel.catalog import drive_spec
from vtsmodel.sizing import cern_example_flows, drives_needed


def _with(flows, name: str, **changes):
    return tuple(dataclasses.replace(f, **changes) if f.name == name else f for f in flows)


def answers() -> list[str]:
    """The four answers of lesson 05, on the worked example's drive (the 3592A, 40 MB/s)."""
    flows = cern_example_flows()
    t2 = next(f.name for f in flows if f.name.startswith("T2"))
    speed = speed_of(DEFAULT_DRIVE)
    base = drives_needed(flows, drive_speed_mb_s=speed)
    chaotic = drives_needed(_with(flows, t2, efficiency=0.05), drive_speed_mb_s=speed)
    pattern = _with(flows, t2, efficiency=None, file_mb=100.0, files_per_mount=10.0)
    on = {d: drives_needed(pattern, drive_speed_mb_s=speed_of(d)) for d in (DEFAULT_DRIVE, "LTO9")}
    eff = {d: float(s.efficiencies[[f.name for f in flows].index(t2)]) for d, s in on.items()}
    counts = {k: drives_needed(flows, drive_speed_mb_s=speed_of(k)).total for _label, k in DRIVES}
    fewest = min(counts.values())
    best = [label_of(k) for k, n in counts.items() if n == fewest]
    measured = [label_of(k) for _label, k in DRIVES if drive_spec(k).speed_basis.startswith("observed")]
    rep = next(f.name for f in flows if f.name.startswith("repro"))
    doubled = drives_needed(_with(flows, rep, rate_mb_s=2 * next(f.rate_mb_s for f in flows if f.name == rep)),
                            drive_speed_mb_s=speed)  # fmt: skip
    i = int(doubled.drives.argmax())
    return [
        f"With the T2/analysis efficiency at 0.05 the worked example needs {number(chaotic.total)} drives instead "
        f"of {number(base.total)}: halving the efficiency of the chaotic flow doubles its drives.",
        f"100 MB files, 10 per mount give the T2 flow an efficiency of {number(eff[DEFAULT_DRIVE])} on the 3592A "
        f"(40 MB/s), so the note's 0.1 is {'optimistic' if eff[DEFAULT_DRIVE] < 0.1 else 'pessimistic'}: "
        f"{number(on[DEFAULT_DRIVE].total)} drives in all. On LTO-9 the same pattern gives "
        f"{number(eff['LTO9'])}: the faster drive loses more of its time to the same mounts.",
        f"The fewest, {number(fewest)} drives: {', '.join(best)}. Speeds measured by a source: "
        f"{', '.join(measured) or 'none'}; every other drive is sized at its specified native rate.",
        f"With reprocessing doubled the example needs {number(doubled.total)} drives; {doubled.names[i]} now takes "
        f"the largest share, {number(doubled.drives[i])} drives ({percent(doubled.shares[i])}).",
    ]
