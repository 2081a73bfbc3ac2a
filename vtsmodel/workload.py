"""Workloads of a day: host write and read rates, hour by hour (piecewise constant).

A :class:`Profile` is what the TVC day simulation (:func:`vtsmodel.tvc_day.simulate_tvc`)
runs through. Profiles are built from rows (:func:`make_profile`) or read from CSV
(:func:`read_profile_csv`); :data:`PROFILES` holds three illustrative ones, which are not
source data. Rates are host MB/s (MB = 10^6 bytes), times hours.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vtsmodel._files import decode_utf8, not_utf8, read_file
from vtsmodel._inputs import Input, declare
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.quantities import BIG_COUNT, DURATION_HOURS

ROW_OFFSET = Input(
    "first row number", "-", 1, lo=0, hi=BIG_COUNT, integer=True, help="Number of the first row in messages."
)

#: Largest profile file read (a day of one-minute rows is about 40 KB). [bytes]
MAX_CSV_BYTES = 10_000_000
#: Most rows a profile may have. [-]
MAX_ROWS = 100_000

__all__ = ["PROFILES", "Profile", "make_profile", "read_profile_csv"]


@dataclass(frozen=True)
class Profile:
    """A workload: piecewise-constant host write and read rates over a period.

    Attributes
    ----------
    name : str
        Short name.
    start_hours : numpy.ndarray
        Start of each interval, strictly increasing, the first 0. [h]
    write_mb_s : numpy.ndarray
        Host write rate offered in each interval. [MB/s]
    read_mb_s : numpy.ndarray
        Host read rate in each interval. [MB/s]
    duration_hours : float
        End of the last interval. [h]
    assumptions : str
        What the profile stands for and what it assumes.
    """

    name: str
    start_hours: np.ndarray
    write_mb_s: np.ndarray
    read_mb_s: np.ndarray
    duration_hours: float
    assumptions: str = ""

    def rows(self) -> list[tuple[float, float, float]]:
        """The intervals as ``(start_hours, write_mb_s, read_mb_s)`` tuples."""
        return [
            (float(a), float(b), float(c))
            for a, b, c in zip(self.start_hours, self.write_mb_s, self.read_mb_s, strict=True)
        ]

    def at(self, hours) -> tuple[np.ndarray, np.ndarray]:
        """Write and read rates in force at ``hours``. [MB/s]"""
        idx = np.searchsorted(self.start_hours, np.asarray(hours, dtype=float), side="right") - 1
        idx = np.clip(idx, 0, self.start_hours.size - 1)
        return self.write_mb_s[idx], self.read_mb_s[idx]


@declare(duration_hours=DURATION_HOURS, row_offset=ROW_OFFSET)
def make_profile(
    rows: Sequence[Sequence[float]],
    *,
    duration_hours: float = 24.0,
    name: str = "custom",
    assumptions: str = "",
    row_offset: int = 1,
) -> Profile:
    """Build a :class:`Profile` from ``(start_hours, write_mb_s, read_mb_s)`` rows.

    Every row is checked before anything is built; an error names the row (numbered from
    ``row_offset``), the field, the value and the valid range.

    Parameters
    ----------
    rows : sequence of 3-sequences
        Interval start [h], host write rate [MB/s], host read rate [MB/s].
    duration_hours : float
        End of the last interval. [h]
    name, assumptions : str
        Labels.
    row_offset : int
        Number of the first row in error messages (a CSV's line number).
    """
    dur = as_scalar("duration_hours", DURATION_HOURS.check("duration_hours", duration_hours))
    row_offset = int(as_scalar("row_offset", ROW_OFFSET.check("row_offset", row_offset)))
    if isinstance(rows, str | bytes | Mapping) or not isinstance(rows, Sequence | np.ndarray):
        raise ValueError(f"rows={rows!r} must be a list of (start_hours, write_mb_s, read_mb_s) rows")
    if len(rows) == 0:
        raise ValueError("profile has no rows; give at least one (start_hours, write_mb_s, read_mb_s)")
    if len(rows) > MAX_ROWS:
        raise ValueError(f"profile has {len(rows)} rows; at most {MAX_ROWS:,}")
    starts, writes, reads = [], [], []
    names = ("start_hours", "write_mb_s", "read_mb_s")
    for i, row in enumerate(rows):
        n = i + row_offset
        if isinstance(row, str | bytes) or not hasattr(row, "__len__") or len(row) != 3:
            raise ValueError(f"row {n}: expected 3 values (start_hours, write_mb_s, read_mb_s), got {row!r}")
        vals = []
        for key, raw in zip(names, row, strict=True):
            try:
                v = float(raw)
            except OverflowError:
                raise ValueError(f"row {n}: {key}={raw!r} is outside the valid range [0, ∞)") from None
            except (TypeError, ValueError):
                raise ValueError(f"row {n}: {key}={raw!r} is not a number") from None
            if not math.isfinite(v) or v < 0:
                raise ValueError(f"row {n}: {key}={raw!r} is outside the valid range [0, ∞)")
            vals.append(v)
        s, wr, rd = vals
        if i == 0 and s != 0:
            raise ValueError(f"row {n}: start_hours={s:g} must be 0 for the first interval")
        if starts and s <= starts[-1]:
            raise ValueError(
                f"row {n}: start_hours={s:g} is not after the previous row's {starts[-1]:g}; "
                "times must be sorted and distinct"
            )
        if s >= dur:
            raise ConstraintError(f"row {n}: start_hours={s:g} is not before the end, duration_hours={dur:g}")
        starts.append(s)
        writes.append(wr)
        reads.append(rd)
    return Profile(
        name=name,
        start_hours=np.array(starts),
        write_mb_s=np.array(writes),
        read_mb_s=np.array(reads),
        duration_hours=dur,
        assumptions=assumptions,
    )


_CSV_COLUMNS = ("start_hours", "write_mb_s", "read_mb_s")


@declare(duration_hours=DURATION_HOURS)
def read_profile_csv(source, *, duration_hours: float = 24.0, name: str | None = None) -> Profile:
    """Read a workload profile from a CSV file (or a file-like object, or CSV text).

    The header must be ``start_hours,write_mb_s,read_mb_s``; each following line is one
    interval. The whole file is checked before a profile is returned (nothing is half
    loaded); errors name the line.

    Parameters
    ----------
    source : path-like, file-like or str
        The file (a regular file of at most :data:`MAX_CSV_BYTES`: a FIFO or a device is
        refused before it is read), an open text file, or CSV text containing a newline.
    duration_hours : float
        End of the last interval. [h]
    name : str, optional
        The profile's name; default the file's stem.
    """
    if hasattr(source, "read"):
        label = name or "profile"
        try:
            text = source.read(MAX_CSV_BYTES + 1)
        except UnicodeDecodeError:
            raise not_utf8(source, label, what="profile CSV file", max_bytes=MAX_CSV_BYTES) from None
        if not isinstance(text, str):
            raise ValueError("source must be opened as text (open(path, encoding='utf-8')), not bytes")
        if len(text) > MAX_CSV_BYTES:
            raise ValueError(f"the profile is longer than {MAX_CSV_BYTES} characters; not a profile")
    elif isinstance(source, str) and "\n" in source:
        text, label = source, name or "profile"
    elif isinstance(source, str | os.PathLike):
        path = Path(os.fspath(source))
        raw = read_file(path, max_bytes=MAX_CSV_BYTES, what="profile CSV file")
        text = decode_utf8(raw, str(path), what="profile CSV file")
        label = name or path.stem
    else:
        raise ValueError(f"source={source!r} must be a path, an open text file or CSV text")
    reader = csv.reader(io.StringIO(text))
    lines = [(i + 1, r) for i, r in enumerate(reader) if any(cell.strip() for cell in r)]
    if not lines:
        raise ValueError(f"profile CSV is empty; the header must be {','.join(_CSV_COLUMNS)}")
    head_line, head = lines[0]
    if tuple(c.strip().lower() for c in head) != _CSV_COLUMNS:
        raise ValueError(f"line {head_line}: header {','.join(head)!r} must be {','.join(_CSV_COLUMNS)}")
    body = lines[1:]
    for n, r in body:
        if len(r) != 3:
            raise ValueError(
                f"line {n}: expected 3 values (start_hours, write_mb_s, read_mb_s), got {len(r)}"
            )
    # make_profile numbers rows consecutively; map back to line numbers on error
    try:
        return make_profile([r for _, r in body], duration_hours=duration_hours, name=label, row_offset=0)
    except ValueError as exc:
        msg = str(exc)
        if msg.startswith("row "):
            idx = int(msg.split(":", 1)[0][4:])
            msg = f"line {body[idx][0]}:{msg.split(':', 1)[1]}"
        raise type(exc)(msg) from None


#: Built-in illustrative workloads (host MB/s). These are NOT source data: they are made
#: up to show typical shapes of a day; each names its assumptions.
PROFILES: dict[str, Profile] = {
    "nightly batch window": make_profile(
        [(0, 10, 5), (2, 90, 5), (8, 10, 15)],
        name="nightly batch window",
        assumptions=(
            "Illustrative, not source data: a 6-hour batch window (hours 2-8) offering 90 host MB/s, "
            "more than the PAF peak, between light work (10 MB/s writes, 5-15 MB/s reads)."
        ),
    ),
    "steady day": make_profile(
        [(0, 30, 20)],
        name="steady day",
        assumptions=(
            "Illustrative, not source data: a constant 30 host MB/s of writes and 20 MB/s of reads "
            "for 24 hours, below the PAF sustained rate at CF 3."
        ),
    ),
    "weekly full backup": make_profile(
        [(0, 10, 5), (1, 100, 2), (15, 10, 5)],
        duration_hours=48.0,
        name="weekly full backup",
        assumptions=(
            "Illustrative, not source data: a 14-hour full backup (hours 1-15) offering 100 host MB/s, "
            "then light activity; 48 hours, to show the drain."
        ),
    ),
}
