"""An hourly workload: what an hourly VTS statistics report carries, one row per hour.

The VTS B18 sends its statistics to the host every hour as an SMF type 94 record, which
"includes logical and physical drive usage, number of fast-ready (virtual scratch),
read-hit, and recall mounts, channel and tape input and output data transfer activity,
and cache usage statistics" (ibm-vts-b18-2000, Sec. 8.5); Consul Batch Magic worked from
"input and output tape data transfer activity by hour" (Sec. 8.4). An hourly workload
file is a CSV with those numbers, one row per hour, which the planner
(:mod:`vtsmodel.plan`) runs through the models.

The file
--------
UTF-8 text. Lines starting with ``#`` and blank lines are comments. The first other line
is the header: the column names, in any order. Every following line is one hour. Values
are separated by commas; by semicolons or tabs where the header has no comma (a
spreadsheet set to a European language saves CSV so), and then a decimal comma is a
decimal point and a number grouped in thousands by dots (``250.000``) is refused: it may
be either.

============================  ========  ==========  ==========================================
column                        unit      required    what
============================  ========  ==========  ==========================================
``hour``                      h         yes         start of the hour: 0, 1, 2, ... in order
``host_write_mb``             MB        yes         data the host wrote (channel input), uncompressed
``host_read_mb``              MB        yes         data the host read (channel output), uncompressed
``fast_ready_mounts``         count     no          scratch (fast-ready) mounts
``read_hit_mounts``           count     no          specific mounts found in the cache
``recall_mounts``             count     no          specific mounts that recalled from tape (read misses)
``max_virtual_drives``        count     no          most virtual drives mounted at once
============================  ========  ==========  ==========================================

MB = 10^6 bytes. At most :data:`MAX_HOURS` rows (a week). What the planner does with the
optional columns: ``recall_mounts`` are the recall arrivals of their hour (otherwise they
are derived from the reads, the read-hit ratio and the volume size);
``read_hit_mounts`` with ``recall_mounts`` give the read-hit ratio by mounts;
``max_virtual_drives`` is checked against the virtual drives a configuration presents;
``fast_ready_mounts`` give the mean volume size written, reported beside the one assumed.

Errors name the line, the column, the value and the valid range; the file is read line by
line (:func:`iter_hourly_rows`) and nothing is returned until every row is checked.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vtsmodel._inputs import Input

__all__ = [
    "COLUMNS",
    "MAX_FILE_BYTES",
    "MAX_HOURS",
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "HourlyWorkload",
    "iter_hourly_rows",
    "read_hourly_workload",
]

#: Most rows (hours) a workload holds: one week.
MAX_HOURS = 168
#: Largest workload file read. [bytes]
MAX_FILE_BYTES = 1_000_000
_MAX_LINE = 2000

_SMF = "ibm-vts-b18-2000, Sec. 8.5 (SMF type 94)"

#: The columns of an hourly workload file, each declared once.
COLUMNS: dict[str, Input] = {
    "hour": Input(
        "hour", "h", 0, lo=0, hi=MAX_HOURS - 1, integer=True, source=_SMF,
        help="Start of the hour, counted from the start of the workload: 0, 1, 2, ...",
    ),
    "host_write_mb": Input(
        "host writes", "MB", 0.0, lo=0.0, hi=1e7, source=_SMF,
        help="Data the host wrote in the hour (channel input), uncompressed.",
    ),
    "host_read_mb": Input(
        "host reads", "MB", 0.0, lo=0.0, hi=1e7, source=_SMF,
        help="Data the host read in the hour (channel output), uncompressed.",
    ),
    "fast_ready_mounts": Input(
        "fast-ready mounts", "-", 0, lo=0, hi=1e6, integer=True, source=_SMF,
        help="Scratch (fast-ready) mounts in the hour.",
    ),
    "read_hit_mounts": Input(
        "read-hit mounts", "-", 0, lo=0, hi=1e6, integer=True, source=_SMF,
        help="Specific mounts of volumes found in the cache.",
    ),
    "recall_mounts": Input(
        "recall mounts", "-", 0, lo=0, hi=1e6, integer=True, source=_SMF,
        help="Specific mounts that recalled the volume from tape (read misses).",
    ),
    "max_virtual_drives": Input(
        "virtual drives in use", "-", 0, lo=0, hi=4096, integer=True, source=_SMF,
        help="Most virtual drives mounted at once in the hour (logical drive usage).",
    ),
}  # fmt: skip

#: Columns every file has.
REQUIRED_COLUMNS = ("hour", "host_write_mb", "host_read_mb")
#: Columns a file may add.
OPTIONAL_COLUMNS = tuple(c for c in COLUMNS if c not in REQUIRED_COLUMNS)


@dataclass(frozen=True)
class HourlyWorkload:
    """A workload of consecutive hours, as an hourly statistics report gives it.

    Attributes
    ----------
    name : str
        Short name (a file's stem).
    columns : dict of str to numpy.ndarray
        The columns present, by name (:data:`COLUMNS`), one value per hour; ``hour`` is
        0, 1, 2, ...
    notes : str
        What the workload stands for (a file's header comment).
    """

    name: str
    columns: Mapping[str, np.ndarray]
    notes: str = ""

    def __post_init__(self) -> None:
        cols = {}
        for key, arr in self.columns.items():
            a = np.array(arr, dtype=float, copy=True)
            a.flags.writeable = False
            cols[key] = a
        object.__setattr__(self, "columns", cols)

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping], *, name: str = "workload", notes: str = "") -> HourlyWorkload:
        """A workload from row mappings (column name to value), each row checked.

        Errors name the row (numbered from 1), the column, the value and the range.
        """
        checked = list(_check_rows(((i, r) for i, r in enumerate(rows, start=1)), what="row"))
        return cls._from_checked(checked, name=name, notes=notes, where="rows")

    @classmethod
    def _from_checked(cls, rows: list[dict], *, name: str, notes: str, where: str) -> HourlyWorkload:
        if not rows:
            raise ValueError(f"{where}: no hours; give at least one row ({', '.join(REQUIRED_COLUMNS)})")
        keys = list(rows[0])
        return cls(
            name=name, columns={k: np.array([r[k] for r in rows], dtype=float) for k in keys}, notes=notes
        )

    # --- what it holds --------------------------------------------------------------------------
    @property
    def hours(self) -> int:
        """Number of hours (rows)."""
        return int(self.columns["hour"].size)

    def has(self, column: str) -> bool:
        """Whether the workload carries ``column``."""
        return column in self.columns

    @property
    def write_mb(self) -> np.ndarray:
        """Host writes per hour. [MB]"""
        return self.columns["host_write_mb"]

    @property
    def read_mb(self) -> np.ndarray:
        """Host reads per hour. [MB]"""
        return self.columns["host_read_mb"]

    @property
    def write_mb_s(self) -> np.ndarray:
        """Host write rate in each hour. [MB/s]"""
        return self.write_mb / 3600.0

    @property
    def read_mb_s(self) -> np.ndarray:
        """Host read rate in each hour. [MB/s]"""
        return self.read_mb / 3600.0

    def column(self, name: str) -> np.ndarray | None:
        """A column by name, or None when the workload does not carry it."""
        return self.columns.get(name)

    def read_hit_by_mounts(self) -> float | None:
        """Read-hit ratio by mounts, Σ hits / (Σ hits + Σ recalls); None without both columns or mounts. [-]"""
        hits, recalls = self.column("read_hit_mounts"), self.column("recall_mounts")
        if hits is None or recalls is None or hits.sum() + recalls.sum() <= 0:
            return None
        return float(hits.sum() / (hits.sum() + recalls.sum()))

    def mean_volume_written_mb(self) -> float | None:
        """Host MB written per fast-ready mount over the workload; None without mounts. [MB]"""
        fr = self.column("fast_ready_mounts")
        if fr is None or fr.sum() <= 0:
            return None
        return float(self.write_mb.sum() / fr.sum())

    def scaled(self, *, write: float = 1.0, read: float = 1.0, name: str | None = None) -> HourlyWorkload:
        """A copy with host writes and reads (and their mounts) multiplied by factors.

        Mount counts are scaled with the data they carry and stay fractional (a
        what-if, not a file).
        """
        cols = dict(self.columns)
        cols["host_write_mb"] = cols["host_write_mb"] * write
        cols["host_read_mb"] = cols["host_read_mb"] * read
        if "fast_ready_mounts" in cols:
            cols["fast_ready_mounts"] = cols["fast_ready_mounts"] * write
        for key in ("read_hit_mounts", "recall_mounts"):
            if key in cols:
                cols[key] = cols[key] * read
        return HourlyWorkload(name=name or self.name, columns=cols, notes=self.notes)

    def summary(self) -> dict[str, float]:
        """Totals and peaks, keys with units."""
        out = {
            "hours [h]": float(self.hours),
            "host writes [GB]": float(self.write_mb.sum() / 1000.0),
            "host reads [GB]": float(self.read_mb.sum() / 1000.0),
            "busiest write hour [MB/s]": float(self.write_mb_s.max()),
            "busiest read hour [MB/s]": float(self.read_mb_s.max()),
        }
        for key in OPTIONAL_COLUMNS:
            col = self.column(key)
            if col is not None:
                inp = COLUMNS[key]
                out[f"{inp.label}, {'most' if key == 'max_virtual_drives' else 'total'} [-]"] = float(
                    col.max() if key == "max_virtual_drives" else col.sum()
                )
        return out

    def rows(self) -> list[dict]:
        """The hours as row dicts (whole numbers as ``int``), in column order."""
        keys = [k for k in COLUMNS if k in self.columns]
        out = []
        for i in range(self.hours):
            row = {}
            for k in keys:
                v = float(self.columns[k][i])
                row[k] = int(v) if COLUMNS[k].integer and v == int(v) else v
            out.append(row)
        return out

    def to_csv(self) -> str:
        """The workload as CSV text in the file format (notes as ``#`` comment lines)."""
        buf = io.StringIO()
        for line in self.notes.splitlines():
            buf.write(f"# {line}\n" if line else "#\n")
        keys = [k for k in COLUMNS if k in self.columns]
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(keys)
        for row in self.rows():
            writer.writerow([_plain(row[k]) for k in keys])
        return buf.getvalue()


def _plain(v) -> str:
    if isinstance(v, int):
        return str(v)
    return f"{v:.12g}"


def _check_header(names: list[str], where: str) -> list[str]:
    clean = [n.strip().lower() for n in names]
    unknown = [n for n in clean if n not in COLUMNS]
    if unknown:
        raise ValueError(
            f"{where}: unknown column(s) {', '.join(map(repr, unknown))}; "
            f"columns: {', '.join(COLUMNS)} (required: {', '.join(REQUIRED_COLUMNS)})"
        )
    dupes = sorted({n for n in clean if clean.count(n) > 1})
    if dupes:
        raise ValueError(f"{where}: column(s) {', '.join(map(repr, dupes))} appear more than once")
    missing = [n for n in REQUIRED_COLUMNS if n not in clean]
    if missing:
        raise ValueError(
            f"{where}: the header lacks the required column(s) {', '.join(missing)}; "
            f"required: {', '.join(REQUIRED_COLUMNS)}"
        )
    return clean


def _check_row(row: Mapping, keys: list[str], index: int, where: str) -> dict:
    """One row checked: its values parsed by their declarations, its hour ``index``."""
    if index >= MAX_HOURS:
        raise ValueError(f"{where}: more than {MAX_HOURS} hours; a workload holds at most a week")
    out = {}
    for name, raw in zip(keys, row.values(), strict=True):
        inp = COLUMNS[name]
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            raise ValueError(f"{where}: {name} is empty; {inp.header} must be a number in {inp.range_text()}")
        try:
            out[name] = inp.parse(name, raw)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if out["hour"] != index:
        raise ValueError(
            f"{where}: hour={out['hour']} must be {index}; hours start at 0 and follow one another"
        )
    return out


def _check_rows(items: Iterable[tuple[int, Mapping]], *, what: str) -> Iterator[dict]:
    """Check ``(number, row mapping)`` items; yield clean rows. Errors name ``what number``."""
    keys = None
    for index, (n, row) in enumerate(items):
        where = f"{what} {n}"
        if not isinstance(row, Mapping):
            raise ValueError(f"{where}: expected a mapping of column to value, not {type(row).__name__}")
        names = [str(c).strip().lower() for c in row]
        if keys is None:
            keys = _check_header([str(c) for c in row], where)
        elif names != keys:
            raise ValueError(f"{where}: columns {', '.join(map(str, row))} differ from the first row's")
        yield _check_row(row, keys, index, where)


def _lines(source) -> tuple[Iterator[tuple[int, str]], str, callable]:
    """Numbered lines of ``source`` (path, file-like or CSV text), its label, and a closer."""
    from vtsmodel._files import check_regular_file, decode_utf8, not_utf8

    if not isinstance(source, str | bytes | bytearray | os.PathLike) and not hasattr(source, "read"):
        raise ValueError(f"source={source!r} must be a path, an open file or the workload's text"[:300])
    if isinstance(source, bytes | bytearray):
        if len(source) > MAX_FILE_BYTES:
            raise ValueError(f"the workload is larger than {MAX_FILE_BYTES} bytes; it holds at most a week")
        source = decode_utf8(source, "the workload", what="workload file")
        fh, label, close = io.StringIO(source), "workload", (lambda: None)
    elif hasattr(source, "read"):
        fh, label, close = source, Path(str(getattr(source, "name", "workload"))).name, (lambda: None)
    elif isinstance(source, str) and "\n" in source:
        fh, label, close = io.StringIO(source), "workload", (lambda: None)
    else:
        path = Path(os.fspath(source))
        size = check_regular_file(path, what="workload file").st_size  # a FIFO would block for ever
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{path} is larger than {MAX_FILE_BYTES} bytes; a workload holds at most a week")
        fh = open(path, "rb")  # noqa: SIM115 - closed by the caller; lines decoded one by one
        label, close = path.name, fh.close

    def gen():
        total = offset = 0
        try:
            for n, line in enumerate(fh, start=1):
                if isinstance(line, bytes):  # a file: the message names the line and byte offset
                    raw = line
                    line = decode_utf8(raw, label, what="workload file", line=n, offset=offset)
                    offset += len(raw)
                total += len(line)
                if total > MAX_FILE_BYTES:
                    raise ValueError(f"line {n}: the workload is larger than {MAX_FILE_BYTES} bytes")
                if len(line) > _MAX_LINE:
                    raise ValueError(f"line {n}: longer than {_MAX_LINE} characters; not a workload row")
                yield n, line
        except UnicodeDecodeError:  # a text file the caller opened
            raise not_utf8(fh, label, what="workload file", max_bytes=MAX_FILE_BYTES) from None

    return gen(), str(label), close


#: A number grouped in thousands by dots (250.000): 250 or 250,000, which a file does not say.
_DOT_GROUPED = re.compile(r"\s*\d{1,3}(\.\d{3})+\s*$")


def _delimiter_of(header: str) -> str:
    """The header's delimiter: a comma, or a semicolon or tab where it has no comma.

    A spreadsheet set to a European language saves CSV with semicolons and decimal commas.
    """
    if "," in header:
        return ","
    return ";" if ";" in header else "\t" if "\t" in header else ","


def _decimal_comma(cell: str, name: str, where: str) -> str:
    """A value of a semicolon- or tab-separated file: its decimal comma as a point; grouped thousands refused."""
    if _DOT_GROUPED.match(cell):
        raise ValueError(
            f"{where}: {name}={cell.strip()!r} may be {cell.strip().replace('.', '')} grouped in thousands, or a "
            "decimal; save the numbers without grouping"
        )
    return cell.replace(",", ".")


def iter_hourly_rows(source, *, comments: list[str] | None = None) -> Iterator[dict]:
    """Read an hourly workload file line by line, yielding each checked row.

    Parameters
    ----------
    source : path-like, file-like or str
        The file, an open text file, or CSV text containing a newline.
    comments : list, optional
        Receives the text of the ``#`` comment lines before the header.

    Yields
    ------
    dict
        Column name to value (``int`` for counts and hours, ``float`` for MB).

    Raises
    ------
    ValueError
        Naming the line, the column, the value and the valid range.
    """
    lines, _label, close = _lines(source)
    try:
        keys = None
        index = 0
        delimiter = ","
        for n, text in lines:
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                if keys is None and comments is not None and stripped.startswith("#"):
                    comments.append(stripped[1:].strip())
                continue
            if keys is None:
                delimiter = _delimiter_of(stripped)
            try:
                cells = next(csv.reader([text], delimiter=delimiter))
            except csv.Error as exc:
                raise ValueError(f"line {n}: not valid CSV ({exc})") from None
            if keys is None:
                keys = _check_header(cells, f"line {n}")
                continue
            if len(cells) != len(keys):
                raise ValueError(
                    f"line {n}: expected {len(keys)} values ({', '.join(keys)}), got {len(cells)}"
                )
            if delimiter != ",":
                cells = [_decimal_comma(c, k, f"line {n}") for c, k in zip(cells, keys, strict=True)]
            yield _check_row(dict(zip(keys, cells, strict=True)), keys, index, f"line {n}")
            index += 1
        if keys is None:
            raise ValueError(f"the workload has no header; it must name {', '.join(REQUIRED_COLUMNS)}")
    finally:
        close()


def read_hourly_workload(source, *, name: str | None = None) -> HourlyWorkload:
    """Read and check a whole hourly workload file (see the module docstring for the format).

    Parameters
    ----------
    source : path-like, file-like, bytes or str
        The file, an open file, its bytes (an upload), or CSV text containing a newline.
    name : str, optional
        The workload's name; default the file's stem.

    Returns
    -------
    HourlyWorkload
        Returned only when every row is valid; the ``#`` comment lines before the header
        become its notes.

    Raises
    ------
    ValueError
        Naming the line, the column, the value and the valid range.
    """
    if not isinstance(source, str | bytes | bytearray | os.PathLike) and not hasattr(source, "read"):
        raise ValueError(f"source={source!r} must be a path, an open file or the workload's text")
    comments: list[str] = []
    rows = list(iter_hourly_rows(source, comments=comments))
    label = name
    if label is None:
        if isinstance(source, str | os.PathLike) and not (isinstance(source, str) and "\n" in source):
            label = Path(os.fspath(source)).stem
        elif hasattr(source, "name"):
            label = Path(str(source.name)).stem
        else:
            label = "workload"
    return HourlyWorkload._from_checked(rows, name=label, notes="\n".join(comments), where=label)
