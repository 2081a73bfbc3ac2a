"""Mount logs: the CSV format, validated and streamed reading, and a synthetic generator.

A mount log lists, in time order, each host mount of a logical tape volume on the VTS:
when, which volume, how large it is, and whether the host wrote it from scratch, updated
it (a specific mount write) or read it. The read-hit analysis (:mod:`vtsmodel.hits`) takes
one in; the source papers give none, so the project ships only an illustrative,
synthetic one (``examples/example_mount_log.csv``, made by :func:`synthetic_mount_log`).

The CSV format
--------------
UTF-8 text, comma-separated. Lines starting with ``#`` and blank lines are skipped
anywhere. The first other line is the header; it names four columns, in any order:

``time_s`` or ``time``
    When the mount happened: ``time_s`` in seconds from any origin (a number >= 0), or
    ``time`` as an ISO 8601 date and time without a time zone (``2026-03-01T08:15:00``,
    fractions of a second allowed). [s]
``volume``
    The volume serial (VOLSER): any text of 1 to 64 characters, spaces at its ends
    removed.
``compressed_mb`` or ``host_mb``
    The volume's size after this mount, in MB (10^6 bytes), as it sits in the cache and
    on tape after compression (``compressed_mb``) or as the host wrote it (``host_mb``).
    The header's column name is the flag that says which. 0 to 10^8 MB. [MB]
``access``
    ``scratch_write`` (the host writes a new volume, or reuses a scratch VOLSER: no
    physical mount), ``specific_write`` (the host updates an existing volume: a recall
    when it is not in the cache), or ``read`` (a read hit or a recall) (ibm-vts-b18-2000,
    Secs. 2, 3.4).

Other columns are rejected (a misspelt size column must not pass unnoticed). Errors are
``ValueError`` naming the file, the line, the field, the value and the valid range.

Time order
----------
The lines must be in time order; equal times keep the file's order. A line earlier than
the one before it is **rejected** by default, naming both lines. Why reject rather than
sort: the file is read in chunks so that a log larger than memory can be analysed, and
sorting needs all of it at once; and a log out of order is most often two logs
concatenated or a clock that jumped, which the user should see rather than have silently
repaired. :func:`read_mount_log` with ``sort=True`` sorts instead (stable, so ties keep
the file's order), holding the whole log in memory.

Streaming
---------
:func:`iter_mount_log` reads ``chunk_lines`` lines at a time and yields
:class:`MountLogChunk` arrays; the memory it holds is one chunk, whatever the file's size.
A path must name a regular file: its type is checked on the opened descriptor (opened
non-blocking), so a FIFO, a device or a directory is refused at once instead of hanging.
"""

from __future__ import annotations

import io
import math
import os
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vtsmodel._files import open_regular
from vtsmodel._inputs import Input, declare
from vtsmodel._validation import ConstraintError, as_scalar, check_choice
from vtsmodel.quantities import BIG_HOURS, CHUNK_LINES, SEED, SMALL

__all__ = [
    "ACCESS_TYPES",
    "MAX_DURATION_S",
    "MAX_SIZE_MB",
    "MAX_SYNTHETIC_MOUNTS",
    "MAX_SYNTHETIC_VOLUMES",
    "SIZE_BASES",
    "SIZE_BASIS",
    "MountLog",
    "MountLogChunk",
    "iter_mount_log",
    "mount_log",
    "mount_log_csv",
    "read_mount_log",
    "synthetic_mount_log",
    "write_mount_log",
]

#: Access types, in the order of their codes (0, 1, 2) in :attr:`MountLog.access`.
ACCESS_TYPES = ("scratch_write", "specific_write", "read")
SCRATCH_WRITE, SPECIFIC_WRITE, READ = 0, 1, 2
_ACCESS_CODE = {name: code for code, name in enumerate(ACCESS_TYPES)}

#: What a size means: as stored after compression, or as the host wrote it.
SIZE_BASES = ("compressed", "host")
_SIZE_COLUMN = {"compressed_mb": "compressed", "host_mb": "host"}
#: Columns a mount log may have besides the four (the access column may be left out too).
_OPTIONAL = ("cartridge", "duration_s")
_ALL_READS = "the log has no access column: every request counted as a read"

#: Largest volume size accepted, a sanity bound (100 TB), not a product limit. [MB]
MAX_SIZE_MB = 1e8
#: Longest volume serial accepted. [characters]
MAX_VOLUME_CHARS = 64
#: Longest service or mount time accepted, a sanity bound (about 3 years). [s]
MAX_DURATION_S = 1e8
#: Longest line read: a line is four short fields; a longer one is not a mount log. [characters]
MAX_LINE_CHARS = 4096
_DEFAULT_CHUNK = 100_000
#: Most mounts :func:`synthetic_mount_log` makes: measured on the project's 2-core machine,
#: 10^7 mounts take about 4 to 5 s and 1.3 GB at their peak (about 0.5 microseconds and
#: 130 bytes a mount); the largest log the benchmarks use (``benchmarks/bench_hits.py``). [count]
MAX_SYNTHETIC_MOUNTS = 10_000_000
#: Most volume serials :func:`synthetic_mount_log` draws from: each costs about 50 bytes
#: and 0.3 microseconds (its popularity, and a serial for those the mounts use); 10^7
#: volumes with 10^7 mounts take about 7 s and 1.8 GB at their peak. [count]
MAX_SYNTHETIC_VOLUMES = 10_000_000

OBJECT_MB = Input(
    "size of every object", "MB", 1000.0, lo=0.0, lo_open=True, hi=MAX_SIZE_MB,
    help="The size given to each object of a log that has no sizes.",
)  # fmt: skip
SIZE_BASIS = Input(
    "size basis", "", "compressed",
    choices=(("compressed (as cached with EHPO or PAF, and on tape)", "compressed"), ("host", "host")),
    source="ibm-vts-b18-2000, Sec. 2",
    help="What a log's volume sizes measure: as stored after compression, or as the host wrote them.",
)  # fmt: skip


@dataclass(frozen=True, eq=False)
class MountLogChunk:
    """A block of consecutive, validated lines of a mount log.

    Attributes
    ----------
    time_s : numpy.ndarray
        Time of each mount: seconds as given (``time_s`` column) or seconds after the
        first line's time (``time`` column). [s]
    volume : numpy.ndarray
        Volume serials (str).
    size_mb : numpy.ndarray
        Volume size after the mount, in the log's size basis. [MB]
    access : numpy.ndarray
        Access type codes, indices into :data:`ACCESS_TYPES` (int8).
    line : numpy.ndarray
        Line number of each row in the file (1-based, comments and header counted).
    size_basis : str
        ``"compressed"`` or ``"host"``.
    start : numpy.datetime64 or None
        Date and time of ``time_s == 0`` when the file has a ``time`` column.
    cartridge : numpy.ndarray or None
        Cartridge serials (str) of each row, when the log names them.
    duration_s : numpy.ndarray or None
        Service or mount time of each row, when the log gives it. [s]
    access_given : bool
        False when the log has no access column (every row a read).
    """

    time_s: np.ndarray
    volume: np.ndarray
    size_mb: np.ndarray
    access: np.ndarray
    line: np.ndarray
    size_basis: str
    start: np.datetime64 | None = None
    cartridge: np.ndarray | None = None
    duration_s: np.ndarray | None = None
    access_given: bool = True

    def __len__(self) -> int:
        return int(self.time_s.size)


@dataclass(frozen=True, eq=False)
class MountLog:
    """A whole mount log in memory: one row per mount, in time order.

    Build one with :func:`read_mount_log`, :func:`mount_log` (from arrays) or
    :func:`synthetic_mount_log`.

    Attributes
    ----------
    time_s : numpy.ndarray
        Time of each mount, non-decreasing. [s]
    volume : numpy.ndarray
        Volume code of each mount (int64), an index into ``volume_ids``.
    volume_ids : numpy.ndarray
        The volume serials (str), by code, in order of first appearance.
    size_mb : numpy.ndarray
        Volume size after the mount, in the size basis. [MB]
    access : numpy.ndarray
        Access type codes, indices into :data:`ACCESS_TYPES` (int8).
    size_basis : str
        ``"compressed"`` (as in the cache with EHPO or PAF, and on tape) or ``"host"``.
    line : numpy.ndarray or None
        Line numbers in the file the log was read from.
    start : numpy.datetime64 or None
        Date and time of ``time_s == 0`` when known.
    source : str
        Where the log came from (a file name, or a description).
    cartridge : numpy.ndarray or None
        Cartridge code of each request (int64), an index into ``cartridge_ids``: the tape
        the request names. None when the log names no cartridges.
    cartridge_ids : numpy.ndarray or None
        The cartridge serials (str), by code, in order of first appearance.
    duration_s : numpy.ndarray or None
        Service or mount time of each request as the log gives it (a duration column, or
        an end time minus the start), >= 0; None when the log gives none. [s]
    sizes_given : bool
        False when the log has no sizes and every object was given one constant size
        (``object_mb``): byte ratios then equal count ratios.
    access_given : bool
        False when the log has no access column and every request counts as a read.
    time_at : {"start", "end"}
        What ``time_s`` marks: the start of each request, or (a log that writes a line
        when a request ends, as xferlog does) its end; the start is then
        ``time_s - duration_s``.
    notes : tuple of str
        What the reader decided that a result should say (defaults taken, columns
        ignored, the time form read).
    """

    time_s: np.ndarray
    volume: np.ndarray
    volume_ids: np.ndarray
    size_mb: np.ndarray
    access: np.ndarray
    size_basis: str
    line: np.ndarray | None = None
    start: np.datetime64 | None = None
    source: str = "<arrays>"
    cartridge: np.ndarray | None = None
    cartridge_ids: np.ndarray | None = None
    duration_s: np.ndarray | None = None
    sizes_given: bool = True
    access_given: bool = True
    time_at: str = "start"
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(self.time_s.size)

    @property
    def hours(self) -> float:
        """Time from the first mount to the last. [h]"""
        if self.time_s.size == 0:
            return 0.0
        return float(self.time_s[-1] - self.time_s[0]) / 3600.0

    @property
    def n_volumes(self) -> int:
        """Distinct volumes in the log. [count]"""
        return int(self.volume_ids.size)

    @property
    def n_cartridges(self) -> int | None:
        """Distinct cartridges in the log (None when it names none). [count]"""
        return None if self.cartridge_ids is None else int(self.cartridge_ids.size)

    def counts(self) -> dict[str, int]:
        """Mounts of each access type. [count]"""
        n = np.bincount(self.access.astype(np.int64), minlength=len(ACCESS_TYPES))
        return {name: int(n[i]) for i, name in enumerate(ACCESS_TYPES)}

    def chunks(self, chunk_lines: int = _DEFAULT_CHUNK) -> Iterator[MountLogChunk]:
        """The log as :class:`MountLogChunk` blocks (views, no copy of the sizes or times)."""
        n = len(self)
        line = self.line if self.line is not None else np.arange(1, n + 1, dtype=np.int64)
        for lo in range(0, n, chunk_lines):
            hi = min(n, lo + chunk_lines)
            yield MountLogChunk(
                self.time_s[lo:hi],
                self.volume_ids[self.volume[lo:hi]],
                self.size_mb[lo:hi],
                self.access[lo:hi],
                line[lo:hi],
                self.size_basis,
                self.start,
                None if self.cartridge is None else self.cartridge_ids[self.cartridge[lo:hi]],
                None if self.duration_s is None else self.duration_s[lo:hi],
                self.access_given,
            )


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------
def _open(source):
    """(text stream, label, close?) for a path, an open file, or CSV text with a newline."""
    if isinstance(source, str) and "\n" in source:
        return io.StringIO(source), "mount log", True
    if hasattr(source, "read"):
        stream = source
        if isinstance(source, io.BufferedIOBase | io.RawIOBase) or "b" in getattr(source, "mode", ""):
            stream = io.TextIOWrapper(source, encoding="utf-8-sig", newline="")
        return stream, str(getattr(source, "name", None) or "mount log"), False
    if isinstance(source, bytes):
        return io.StringIO(source.decode("utf-8-sig")), "mount log", True
    if not isinstance(source, str | os.PathLike):
        raise ValueError(f"source={source!r} must be a path, an open file or CSV text")
    path = Path(os.fspath(source))
    fd = open_regular(path, what="mount log (a CSV file)")  # a FIFO would wait for a writer for ever
    try:
        stream = open(fd, encoding="utf-8-sig", newline="", closefd=True)  # noqa: SIM115
    except BaseException:
        os.close(fd)
        raise
    return stream, path.name, True


def _fields(line: str) -> list[str]:
    line = line.rstrip("\r\n")
    if '"' not in line:
        return line.split(",")
    import csv

    return next(csv.reader([line]))


def _header(cells: list[str], label: str, n: int) -> dict[str, int]:
    names = [c.strip().lower() for c in cells]
    valid = "time_s or time, volume, compressed_mb or host_mb, access (optional: cartridge, duration_s)"
    unknown = [c for c in names if c not in ("time_s", "time", "volume", "access", *_SIZE_COLUMN, *_OPTIONAL)]
    if unknown:
        raise ValueError(
            f"{label}, line {n}: header column {unknown[0]!r} is not known; the header names the columns {valid}"
        )
    dup = [c for c in names if names.count(c) > 1]
    if dup:
        raise ValueError(f"{label}, line {n}: header column {dup[0]!r} appears twice")
    for group in (("time_s", "time"), ("volume",), tuple(_SIZE_COLUMN)):
        present = [c for c in group if c in names]
        if len(present) != 1:
            what = " or ".join(group)
            raise ValueError(
                f"{label}, line {n}: the header needs exactly one {what} column "
                f"(found {', '.join(present) or 'none'}); the columns are {valid}"
            )
    return {c: i for i, c in enumerate(names)}


def _bad(label, line, field, value, problem):
    return ValueError(f"{label}, line {line}: {field}={value!r} {problem}")


def _numbers(col: list[str], lines: np.ndarray, label: str, field: str, lo: float, hi: float, unit: str):
    rng = f"valid range [{lo:g}, {hi:g}] {unit}"
    try:
        arr = np.array(col, dtype=np.float64)
    except ValueError:
        for i, v in enumerate(col):
            try:
                float(v)
            except ValueError:
                raise _bad(label, lines[i], field, v, f"is not a number; {rng}") from None
        raise  # pragma: no cover - numpy and float() disagree
    bad = ~np.isfinite(arr) | (arr < lo) | (arr > hi)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        problem = "is not finite" if not np.isfinite(arr[i]) else "is outside the"
        raise _bad(
            label, lines[i], field, col[i].strip(), f"{problem}{'' if problem.endswith('the') else ';'} {rng}"
        )
    return arr


def _datetimes(col: list[str], lines: np.ndarray, label: str) -> np.ndarray:
    hint = "is not an ISO 8601 date and time without a time zone (e.g. 2026-03-01T08:15:00)"
    stripped = [v.strip() for v in col]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            arr = np.array(stripped, dtype="datetime64[us]")
        if np.isnat(arr).any() or not all(len(v) >= 16 and v[10] in "T " for v in stripped):
            raise ValueError
        return arr
    except (ValueError, TypeError, Warning):
        for i, v in enumerate(stripped):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    t = np.datetime64(v, "us")
                if np.isnat(t) or "T" not in v.replace(" ", "T") or len(v) < 16:
                    raise ValueError
            except (ValueError, TypeError, Warning):
                raise _bad(label, lines[i], "time", v, hint) from None
        raise  # pragma: no cover


@declare(chunk_lines=CHUNK_LINES)
def iter_mount_log(source, *, chunk_lines: int = _DEFAULT_CHUNK) -> Iterator[MountLogChunk]:
    """Read a mount log in chunks of validated rows, without loading the file whole.

    Parameters
    ----------
    source : path-like, file-like or str
        A regular file, an open text (or binary) stream, or CSV text containing a newline.
    chunk_lines : int
        Lines read per chunk, 1 to :data:`~vtsmodel.quantities.MAX_CHUNK_LINES`; parsing
        holds about 500 bytes per line of a chunk (50 MB for the default). [count]

    Yields
    ------
    MountLogChunk
        Consecutive rows, in file order; the time order is checked across chunks. A log
        with a header and no rows yields one empty chunk.

    Raises
    ------
    ValueError
        On the first bad line: the message names the file, the line, the field, the value
        and the valid range or choices. Also for a path that is not a regular file, and
        (at once, before any line is read) for a ``chunk_lines`` outside its range.
    """
    return _read(source, _chunk_lines(chunk_lines), check_order=True)


def _chunk_lines(chunk_lines) -> int:
    return int(as_scalar("chunk_lines", CHUNK_LINES.check("chunk_lines", chunk_lines)))


def _read(source, chunk_lines: int, *, check_order: bool) -> Iterator[MountLogChunk]:
    stream, label, close = _open(source)
    try:
        yield from _chunks(stream, label, chunk_lines, check_order)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{label}: is not UTF-8 text ({exc.reason})") from None
    finally:
        if close:
            stream.close()


def _lines(stream) -> Iterator[str]:
    """Lines of at most MAX_LINE_CHARS characters (a file with no line ends is not read whole)."""
    readline = getattr(stream, "readline", None)
    if readline is None:
        yield from stream
        return
    while raw := readline(MAX_LINE_CHARS):
        yield raw


def _chunks(stream, label: str, chunk_lines: int, check_order: bool) -> Iterator[MountLogChunk]:
    cols = None
    state = {"basis": None, "origin": None, "prev_t": -math.inf, "prev_line": 0, "label": label}
    n = 0
    yielded = False
    raws: list[str] = []
    nums: list[int] = []
    for raw in _lines(stream):
        n += 1
        if len(raw) >= MAX_LINE_CHARS and not raw.endswith("\n"):
            raise ValueError(
                f"{label}, line {n}: longer than {MAX_LINE_CHARS} characters; a mount log line is four "
                "short fields (is this a mount log?)"
            )
        first = raw.lstrip()[:1]
        if first == "#" or not first:
            continue
        if cols is None:
            cols = _header(_fields(raw), label, n)
            state["basis"] = next(_SIZE_COLUMN[c] for c in cols if c in _SIZE_COLUMN)
            state["header_line"] = n
            continue
        raws.append(raw)
        nums.append(n)
        if len(raws) >= chunk_lines:
            yield _convert(raws, nums, cols, state, check_order)
            yielded = True
            raws, nums = [], []
    if cols is None:
        raise ValueError(
            f"{label}: no header line; the first line that is not a comment names the columns "
            "time_s or time, volume, compressed_mb or host_mb, access"
        )
    if raws or not yielded:
        yield _convert(raws, nums, cols, state, check_order)


def _columns(raws: list[str], nums: list[int], ncols: int, state) -> list[list[str]]:
    """Split a block of lines into columns; a line with the wrong number of fields is named."""
    if not raws:
        return [[] for _ in range(ncols)]
    text = "".join(raws)
    if '"' not in text:
        # fast path: one split for the whole block, after checking each line's comma count
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        if not text.endswith("\n"):
            text += "\n"
        data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
        commas = np.searchsorted(np.flatnonzero(data == ord(",")), np.flatnonzero(data == ord("\n")))
        per_line = np.diff(commas, prepend=0)
        if per_line.size == len(raws) and np.all(per_line == ncols - 1):
            flat = text[:-1].replace("\n", ",").split(",")
            return [flat[j::ncols] for j in range(ncols)]
    rows = []
    for raw, n in zip(raws, nums, strict=True):
        cells = _fields(raw)
        if len(cells) != ncols:
            raise ValueError(
                f"{state['label']}, line {n}: {len(cells)} fields, but the header (line "
                f"{state['header_line']}) names {ncols}"
            )
        rows.append(cells)
    return [list(c) for c in zip(*rows, strict=True)]


def _convert(raws, nums, cols, state, check_order) -> MountLogChunk:
    label = state["label"]
    lines = np.asarray(nums, dtype=np.int64)
    columns = _columns(raws, nums, len(cols), state)

    def col(name):
        return columns[cols[name]]

    if "time_s" in cols:
        tfield = "time_s"
        t = _numbers(col("time_s"), lines, label, "time_s", 0.0, 1e12, "s")
    else:
        tfield = "time"
        dt = _datetimes(col("time"), lines, label)
        if state["origin"] is None and dt.size:
            state["origin"] = dt[0]
        t = (dt - state["origin"]).astype(np.float64) / 1e6 if dt.size else np.zeros(0)
    size_name = next(c for c in cols if c in _SIZE_COLUMN)
    size = _numbers(col(size_name), lines, label, size_name, 0.0, MAX_SIZE_MB, "MB")
    vol = _serials(col("volume"), lines, label, "volume")
    cart = _serials(col("cartridge"), lines, label, "cartridge") if "cartridge" in cols else None
    dur = None
    if "duration_s" in cols:
        dur = _numbers(col("duration_s"), lines, label, "duration_s", 0.0, MAX_DURATION_S, "s")
    if "access" not in cols:
        acc = np.full(len(vol), READ, dtype=np.int8)
    else:
        acc = _access_codes(col("access"), lines, label)
    if check_order and t.size:
        back = np.flatnonzero(np.diff(np.concatenate(([state["prev_t"]], t))) < 0)
        if back.size:
            i = int(back[0])
            prev = (state["prev_t"], state["prev_line"]) if i == 0 else (t[i - 1], lines[i - 1])
            raise _bad(
                label,
                lines[i],
                tfield,
                col(tfield)[i].strip(),
                f"is earlier than the time on line {prev[1]} ({t[i]:.6g} s < {prev[0]:.6g} s from the "
                "first line); a mount log must be in time order (equal times keep the file's order): "
                "sort the file first, or let the reader sort it (read_mount_log(..., sort=True); vtsmodel hits --sort)",
            )
    if t.size:
        state["prev_t"], state["prev_line"] = float(t[-1]), int(lines[-1])
    return MountLogChunk(
        t, np.asarray(vol, dtype=str), size, acc, lines, state["basis"], state["origin"],
        None if cart is None else np.asarray(cart, dtype=str), dur, "access" in cols,
    )  # fmt: skip


def _serials(raw: list[str], lines: np.ndarray, label: str, field: str) -> list[str]:
    vol = [v.strip() for v in raw]
    length = np.fromiter(map(len, vol), dtype=np.int64, count=len(vol))
    bad = (length == 0) | (length > MAX_VOLUME_CHARS)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise _bad(label, lines[i], field, vol[i], f"must be 1 to {MAX_VOLUME_CHARS} characters")
    return vol


def _access_codes(acc_raw: list[str], lines: np.ndarray, label: str) -> np.ndarray:
    get = _ACCESS_CODE.get
    acc = np.fromiter((get(a, -1) for a in acc_raw), dtype=np.int8, count=len(acc_raw))
    if (acc < 0).any():  # allow spaces around the names
        acc = np.fromiter((get(a.strip(), -1) for a in acc_raw), dtype=np.int8, count=len(acc_raw))
    if (acc < 0).any():
        i = int(np.flatnonzero(acc < 0)[0])
        raise _bad(
            label,
            lines[i],
            "access",
            acc_raw[i].strip(),
            f"is not valid; choose one of {', '.join(ACCESS_TYPES)}",
        )
    return acc


class _Codes:
    """Volume serial -> dense code, in order of first appearance."""

    def __init__(self):
        self.code: dict[str, int] = {}
        self.names: list[str] = []

    def __call__(self, volume: np.ndarray) -> np.ndarray:
        if volume.size == 0:
            return np.zeros(0, dtype=np.int64)
        uniq, first, inverse = np.unique(volume, return_index=True, return_inverse=True)
        codes = np.empty(uniq.size, dtype=np.int64)
        for k in np.argsort(first, kind="stable"):  # new names get codes in order of appearance
            name = str(uniq[k])
            c = self.code.get(name)
            if c is None:
                c = self.code[name] = len(self.names)
                self.names.append(name)
            codes[k] = c
        return codes[inverse.ravel()]

    def ids(self) -> np.ndarray:
        return np.asarray(self.names, dtype=str) if self.names else np.zeros(0, dtype="<U1")


@declare(chunk_lines=CHUNK_LINES)
def read_mount_log(source, *, sort: bool = False, chunk_lines: int = _DEFAULT_CHUNK) -> MountLog:
    """Read and validate a whole mount log into memory.

    Parameters
    ----------
    source : path-like, file-like or str
        A regular file, an open stream, or CSV text containing a newline.
    sort : bool
        False (default): a line earlier than the one before it is an error (see the module
        notes for why). True: the rows are sorted by time, stably (equal times keep the
        file's order); with a ``time`` column, times are then counted from the earliest.
    chunk_lines : int
        Lines parsed per block, 1 to :data:`~vtsmodel.quantities.MAX_CHUNK_LINES`. [count]

    Returns
    -------
    MountLog
    """
    chunk = _chunk_lines(chunk_lines)
    codes, carts = _Codes(), _Codes()
    parts = []
    for p in _read(source, chunk, check_order=not sort):
        # serials become codes chunk by chunk: the strings are not kept
        cart = None if p.cartridge is None else carts(p.cartridge)
        parts.append((p.time_s, codes(p.volume), p.size_mb, p.access, p.line, cart, p.duration_s))
    last = p
    time_s, vol, size, acc, line = (np.concatenate([q[k] for q in parts]) for k in range(5))
    cart = None if last.cartridge is None else np.concatenate([q[5] for q in parts])
    dur = None if last.duration_s is None else np.concatenate([q[6] for q in parts])
    start = last.start
    if sort and time_s.size:
        order = np.argsort(time_s, kind="stable")
        time_s, vol, size, acc, line = time_s[order], vol[order], size[order], acc[order], line[order]
        cart = None if cart is None else cart[order]
        dur = None if dur is None else dur[order]
        if start is not None and time_s[0] != 0.0:
            start = start + np.timedelta64(int(round(time_s[0] * 1e6)), "us")
            time_s = time_s - time_s[0]
    return MountLog(
        time_s, vol, codes.ids(), size, acc, last.size_basis, line, start, _label(source),
        cartridge=cart,
        cartridge_ids=None if cart is None else carts.ids(),
        duration_s=dur,
        access_given=last.access_given,
        notes=() if last.access_given else (_ALL_READS,),
    )  # fmt: skip


def _label(source) -> str:
    if isinstance(source, str) and "\n" in source:
        return "mount log"
    if hasattr(source, "read"):
        return str(getattr(source, "name", None) or "mount log")
    if isinstance(source, bytes):
        return "mount log"
    return Path(os.fspath(source)).name


# --------------------------------------------------------------------------------------
# From arrays, to CSV
# --------------------------------------------------------------------------------------
@declare(size_basis=SIZE_BASIS, object_mb=OBJECT_MB)
def mount_log(
    time_s,
    volume,
    size_mb=None,
    access=None,
    *,
    cartridge=None,
    duration_s=None,
    object_mb: float | None = None,
    size_basis: str = "compressed",
    source: str = "<arrays>",
    time_at: str = "start",
) -> MountLog:
    """Build a validated :class:`MountLog` from arrays (one element per mount or request).

    Parameters
    ----------
    time_s : array_like
        Times, non-decreasing, >= 0. [s]
    volume : array_like
        Volume (object) serials (str) or integer ids.
    size_mb : array_like or None
        Volume size after each mount, 0 to :data:`MAX_SIZE_MB`; None: every object is
        ``object_mb`` (``sizes_given`` False). [MB]
    access : array_like or None
        Access type names (:data:`ACCESS_TYPES`) or their codes 0, 1, 2; None: every
        request is a read (``access_given`` False).
    cartridge : array_like or None
        The cartridge (tape) each request names, serials (str) or integer ids.
    duration_s : array_like or None
        Service or mount time of each request, 0 to :data:`MAX_DURATION_S`. [s]
    object_mb : float or None
        Size of every object when ``size_mb`` is None, 0 to :data:`MAX_SIZE_MB`. [MB]
    size_basis : {"compressed", "host"}
        What the sizes measure.
    source : str
        A description kept with the log.
    time_at : {"start", "end"}
        Whether the times mark the start or the end of each request.

    Returns
    -------
    MountLog

    Raises
    ------
    ValueError
        Naming the array, the first bad element's index, its value and the valid range.
    """
    SIZE_BASIS.check("size_basis", size_basis)
    check_choice("time_at", time_at, ("start", "end"))
    t = np.asarray(time_s, dtype=np.float64).ravel()
    n = t.size
    sizes_given = size_mb is not None
    if not sizes_given:
        if object_mb is None:
            raise ValueError(
                "size_mb is None and object_mb is None: give the sizes, or one size for every object"
            )
        size_mb = np.full(n, float(as_scalar("object_mb", OBJECT_MB.check("object_mb", object_mb))))
    arrays = {"volume": np.asarray(volume).ravel(), "size_mb": np.asarray(size_mb).ravel()}
    arrays["access"] = np.full(n, READ, dtype=np.int8) if access is None else np.asarray(access).ravel()
    if cartridge is not None:
        arrays["cartridge"] = np.asarray(cartridge).ravel()
    if duration_s is not None:
        arrays["duration_s"] = np.asarray(duration_s, dtype=np.float64).ravel()
    for name, a in arrays.items():
        if a.size != n:
            raise ValueError(f"{name} has {a.size} elements but time_s has {n}; give one per mount")

    def first_bad(name, mask, values, rng):
        i = int(np.flatnonzero(mask)[0])
        raise ValueError(f"{name}[{i}]={np.asarray(values)[i].item()!r} is outside the valid range {rng}")

    bad = ~np.isfinite(t) | (t < 0)
    if bad.any():
        first_bad("time_s", bad, t, "[0, inf) s")
    back = np.flatnonzero(np.diff(t) < 0)
    if back.size:
        i = int(back[0]) + 1
        raise ValueError(
            f"time_s[{i}]={float(t[i])!r} is earlier than time_s[{i - 1}]={float(t[i - 1])!r}; times must not decrease"
        )
    size = np.asarray(arrays["size_mb"], dtype=np.float64)
    bad = ~np.isfinite(size) | (size < 0) | (size > MAX_SIZE_MB)
    if bad.any():
        first_bad("size_mb", bad, size, f"[0, {MAX_SIZE_MB:g}] MB")
    dur = arrays.get("duration_s")
    if dur is not None:
        bad = ~np.isfinite(dur) | (dur < 0) | (dur > MAX_DURATION_S)
        if bad.any():
            first_bad("duration_s", bad, dur, f"[0, {MAX_DURATION_S:g}] s")
    acc = arrays["access"]
    if acc.dtype.kind in "US":
        codes = np.fromiter((_ACCESS_CODE.get(str(a), -1) for a in acc), dtype=np.int8, count=n)
        if (codes < 0).any():
            i = int(np.flatnonzero(codes < 0)[0])
            raise ValueError(
                f"access[{i}]={str(acc[i])!r} is not valid; choose one of {', '.join(ACCESS_TYPES)}"
            )
    else:
        codes = np.asarray(acc)
        if n and (codes.dtype.kind not in "iu" or codes.min() < 0 or codes.max() > 2):
            bad = (codes < 0) | (codes > 2) | (codes != np.round(codes))
            i = int(np.flatnonzero(bad)[0]) if bad.any() else 0
            raise ValueError(
                f"access[{i}]={codes[i].item()!r} is not valid; give a name of {ACCESS_TYPES} or a code 0, 1, 2"
            )
        codes = codes.astype(np.int8)
    vcodes, vids = _coded("volume", arrays["volume"])
    ccodes, cids = _coded("cartridge", arrays["cartridge"]) if cartridge is not None else (None, None)
    notes = [] if access is not None else [_ALL_READS]
    if not sizes_given:
        notes.append(_no_sizes(float(size[0]) if n else float(object_mb)))
    return MountLog(
        t, vcodes, vids, size, codes, size_basis, None, None, source,
        cartridge=ccodes, cartridge_ids=cids, duration_s=dur, sizes_given=sizes_given,
        access_given=access is not None, time_at=time_at, notes=tuple(notes),
    )  # fmt: skip


def _coded(name: str, vol: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(codes in order of first appearance, serials) of an array of serials or integer ids."""
    n = vol.size
    if n and vol.dtype.kind not in "USiu":
        raise ValueError(f"{name} must hold strings or integers, not {vol.dtype}")
    names = vol.astype(str)
    lengths = np.char.str_len(np.char.strip(names)) if n else np.zeros(0, dtype=int)
    bad = (lengths == 0) | (lengths > MAX_VOLUME_CHARS)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{i}]={str(names[i])!r} must be 1 to {MAX_VOLUME_CHARS} characters")
    c = _Codes()
    codes = c(np.char.strip(names)) if n else np.zeros(0, dtype=np.int64)
    return codes, c.ids()


def _no_sizes(object_mb: float) -> str:
    return f"the log has no sizes: every object counted as {object_mb:g} MB"


def mount_log_csv(log: MountLog, *, comments: Sequence[str] = ()) -> str:
    """The log as CSV text in the format :func:`read_mount_log` reads.

    Parameters
    ----------
    log : MountLog
        The log.
    comments : sequence of str
        Lines written first, each prefixed with ``# ``.

    Returns
    -------
    str
        Times with millisecond resolution, sizes with 0.001 MB resolution.
    """
    out = io.StringIO()
    for c in comments:
        for part in str(c).splitlines() or [""]:
            out.write(f"# {part}".rstrip() + "\n")
    cols = [
        log.time_s.tolist(),
        (log.volume_ids[log.volume] if len(log) else np.zeros(0, dtype=str)).tolist(),
    ]
    names = ["time_s", "volume", f"{log.size_basis}_mb"]
    cols.append(log.size_mb.tolist())
    if log.access_given:
        names.append("access")
        cols.append(np.asarray(ACCESS_TYPES)[log.access.astype(np.int64)].tolist())
    if log.cartridge is not None:
        names.append("cartridge")
        cols.append(log.cartridge_ids[log.cartridge].tolist())
    if log.duration_s is not None:
        names.append("duration_s")
        cols.append([f"{d:.3f}" for d in log.duration_s.tolist()])
    out.write(",".join(names) + "\n")
    cols[0] = [f"{t:.3f}" for t in cols[0]]
    cols[2] = [f"{s:.3f}" for s in cols[2]]
    for row in zip(*cols, strict=True):
        out.write(",".join(row) + "\n")
    return out.getvalue()


def write_mount_log(log: MountLog, path, *, comments: Sequence[str] = (), overwrite: bool = False) -> Path:
    """Write the log as CSV, atomically (a temporary file renamed into place).

    Parameters
    ----------
    log : MountLog
        The log.
    path : path-like
        Where to write.
    comments : sequence of str
        Comment lines at the top (say where the log came from).
    overwrite : bool
        Replace an existing file; otherwise an existing file is an error.

    Returns
    -------
    pathlib.Path
    """
    if not isinstance(log, MountLog):
        raise ValueError(f"log={log!r} must be a MountLog (read_mount_log, mount_log)"[:300])
    from vtsmodel._files import atomic_write

    return atomic_write(path, mount_log_csv(log, comments=comments), overwrite=overwrite)


# --------------------------------------------------------------------------------------
# Synthetic logs (illustrative)
# --------------------------------------------------------------------------------------
_N_MOUNTS = Input(
    "mounts", "-", 10_000, lo=0, hi=MAX_SYNTHETIC_MOUNTS, integer=True,
    source="practical limit MAX_SYNTHETIC_MOUNTS (time and memory)", help="Mounts in a synthetic log.",
)  # fmt: skip
_N_VOLUMES = Input(
    "volumes", "-", 1_000, lo=1, hi=MAX_SYNTHETIC_VOLUMES, integer=True,
    source="practical limit MAX_SYNTHETIC_VOLUMES (time and memory)",
    help="Volume serials a synthetic log draws from.",
)  # fmt: skip
_HOURS = Input("log span", "h", 168.0, lo=SMALL, hi=BIG_HOURS, help="Time a synthetic log spans.")
_POPULARITY = Input(
    "popularity (Zipf exponent)", "-", 0.8, lo=0.0, hi=3.0,
    source="modelling choice (beyond 3 nearly every mount goes to the most popular volume)",
    help="0: every volume equally popular; larger: a few volumes take most mounts.",
)  # fmt: skip
_REACCESS = Input(
    "re-access probability", "-", 0.5, lo=0.0, hi=1.0,
    help="Probability that a mount re-accesses the volume of a recent mount.",
)  # fmt: skip
_REACCESS_HOURS = Input(
    "re-access time", "h", 24.0, lo=SMALL, hi=BIG_HOURS, help="Mean time back to the re-accessed mount."
)
_READ_FRACTION = Input("read share", "-", 0.4, lo=0.0, hi=1.0, help="Share of the mounts that are reads.")
_SPECIFIC_WRITE_FRACTION = Input(
    "specific-write share", "-", 0.1, lo=0.0, hi=1.0,
    help="Share of the mounts that are specific-mount writes; with the reads, at most 1.",
)  # fmt: skip
_MEDIAN_SIZE_MB = Input(
    "median volume size", "MB", 250.0, lo=SMALL, hi=MAX_SIZE_MB, help="Median of the lognormal volume sizes."
)
_SIZE_SIGMA = Input(
    "size spread", "-", 1.0, lo=0.0, hi=5.0,
    source="modelling choice (a log-sd of 5 spans e^10, four decades, between -1 and +1 sd)",
    help="Standard deviation of the natural log of the volume size.",
)  # fmt: skip
_MAX_DRAWN_MB = Input(
    "largest volume size", "MB", 4000.0, lo=1.0, hi=MAX_SIZE_MB, help="Largest volume size drawn."
)


@declare(
    n_mounts=_N_MOUNTS, n_volumes=_N_VOLUMES, seed=SEED, hours=_HOURS, popularity=_POPULARITY,
    reaccess=_REACCESS, reaccess_hours=_REACCESS_HOURS, read_fraction=_READ_FRACTION,
    specific_write_fraction=_SPECIFIC_WRITE_FRACTION, median_size_mb=_MEDIAN_SIZE_MB,
    size_sigma=_SIZE_SIGMA, max_size_mb=_MAX_DRAWN_MB, size_basis=SIZE_BASIS,
)  # fmt: skip
def synthetic_mount_log(
    n_mounts: int = 10_000,
    n_volumes: int = 1_000,
    *,
    seed: int = 0,
    hours: float = 168.0,
    popularity: float = 0.8,
    reaccess: float = 0.5,
    reaccess_hours: float = 24.0,
    read_fraction: float = 0.4,
    specific_write_fraction: float = 0.1,
    median_size_mb: float = 250.0,
    size_sigma: float = 1.0,
    max_size_mb: float = 4000.0,
    resize_on_write: bool = True,
    size_basis: str = "compressed",
) -> MountLog:
    """A synthetic mount log: ILLUSTRATIVE, made up, not measured data.

    For tests, examples and benchmarks; no source document gives a mount log. Each mount
    picks its volume in one of two ways:

    - with probability ``reaccess``, the volume of an earlier mount, ``L`` mounts back,
      ``L`` geometric with mean ``reaccess_hours`` worth of mounts (re-access in time:
      a volume written tonight is read tomorrow);
    - otherwise a volume drawn by popularity: the k-th most popular (k = 1, 2, ...) with
      probability proportional to ``k ** -popularity`` (Zipf; 0 is uniform), the ranks
      shuffled over the volume serials.

    The access type is drawn per mount (``read_fraction``, ``specific_write_fraction``,
    the rest scratch writes). Sizes are lognormal (median ``median_size_mb``, log-sd
    ``size_sigma``, clipped to [1, ``max_size_mb``] MB); each write draws a new size for
    its volume when ``resize_on_write`` (a rewritten volume changes size), and every
    other mount carries the volume's current size. Times are uniform over ``hours``
    (a Poisson process given the count), sorted, rounded to milliseconds.

    The size of the log is limited (:data:`MAX_SYNTHETIC_MOUNTS`, :data:`MAX_SYNTHETIC_VOLUMES`,
    10^7 each): measured on the project's 2-core machine, 10^6 mounts take about 0.3 to 0.6 s
    and 170 to 220 MB at their peak, 10^7 mounts about 4 to 5 s and 1.3 GB (over 10^4 volumes)
    or 7 s and 1.8 GB (over 10^7 volumes); the generator holds the whole log and its
    intermediates in memory, so a billion mounts would exhaust the memory of most machines
    instead of finishing. For more, write several logs, or stream a real one
    (:func:`iter_mount_log`).

    Parameters
    ----------
    n_mounts : int
        Mounts in the log, 0 to :data:`MAX_SYNTHETIC_MOUNTS`. [count]
    n_volumes : int
        Volume serials that can be drawn, 1 to :data:`MAX_SYNTHETIC_VOLUMES`. [count]
    seed : int
        Seed of numpy's default generator, 0 to 2**32 - 1: the same arguments give the
        same log. [-]
    hours : float
        Time the log spans, 10^-9 to 10^6. [h]
    popularity : float
        Zipf exponent of volume popularity, 0 to 3. [-]
    reaccess : float
        Probability that a mount re-accesses the volume of a recent mount, 0 to 1. [-]
    reaccess_hours : float
        Mean time back to the re-accessed mount, 10^-9 to 10^6. [h]
    read_fraction, specific_write_fraction : float
        Shares of reads and of specific-mount writes, each 0 to 1; their sum is at most 1. [-]
    median_size_mb : float
        Median volume size, 10^-9 to :data:`MAX_SIZE_MB`. [MB]
    size_sigma : float
        Standard deviation of the natural log of the size, 0 to 5. [-]
    max_size_mb : float
        Largest size drawn, 1 to :data:`MAX_SIZE_MB`. [MB]
    resize_on_write : bool
        Whether a write gives its volume a new size.
    size_basis : {"compressed", "host"}
        What the sizes are taken to measure.

    Returns
    -------
    MountLog

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it, its value and the range).
    ConstraintError
        ``read_fraction + specific_write_fraction`` above 1.
    """

    def scalar(name, inp, value):
        return as_scalar(name, inp.check(name, value))

    n = int(scalar("n_mounts", _N_MOUNTS, n_mounts))
    v = int(scalar("n_volumes", _N_VOLUMES, n_volumes))
    seed = int(scalar("seed", SEED, seed))
    h = scalar("hours", _HOURS, hours)
    s = scalar("popularity", _POPULARITY, popularity)
    p_re = scalar("reaccess", _REACCESS, reaccess)
    re_h = scalar("reaccess_hours", _REACCESS_HOURS, reaccess_hours)
    rf = scalar("read_fraction", _READ_FRACTION, read_fraction)
    wf = scalar("specific_write_fraction", _SPECIFIC_WRITE_FRACTION, specific_write_fraction)
    med = scalar("median_size_mb", _MEDIAN_SIZE_MB, median_size_mb)
    sig = scalar("size_sigma", _SIZE_SIGMA, size_sigma)
    top = scalar("max_size_mb", _MAX_DRAWN_MB, max_size_mb)
    SIZE_BASIS.check("size_basis", size_basis)
    if rf + wf > 1.0 + 1e-12:
        raise ConstraintError(
            f"read_fraction={rf:g} and specific_write_fraction={wf:g} add up to {rf + wf:g}; "
            "together they may be at most 1 (the rest are scratch writes)"
        )
    rng = np.random.default_rng(seed)

    # popularity: inverse CDF over Zipf ranks, ranks shuffled over the volumes
    w = np.arange(1, v + 1, dtype=np.float64) ** -s
    cdf = np.cumsum(w)
    cdf /= cdf[-1]
    u = rng.random(n)
    order = np.argsort(u)  # sorted keys walk the table once (unsorted ones miss the cache: 5x slower)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.searchsorted(cdf, u[order], side="right")
    rank = np.minimum(rank, v - 1)
    vol = rng.permutation(v)[rank]

    # re-access: mount i repeats the volume of mount i - L; chains resolved by pointer jumping
    mean_lag = max(1.0, re_h / h * n)
    lag = rng.geometric(1.0 / mean_lag, size=n)
    idx = np.arange(n)
    src = np.where((rng.random(n) < p_re) & (lag <= idx), idx - lag, idx)
    # every pointer leads back to a root (src[r] == r); only the unresolved ones jump
    active = np.flatnonzero(src[src] != src)
    while active.size:
        src[active] = src[src[active]]
        active = active[src[src[active]] != src[active]]
    vol = vol[src]

    u = rng.random(n)
    access = np.where(u < rf, READ, np.where(u < rf + wf, SPECIFIC_WRITE, SCRATCH_WRITE)).astype(np.int8)

    def draw(k):
        return np.clip(np.round(med * np.exp(sig * rng.standard_normal(k)), 3), 1.0, top)

    base = draw(v)
    fresh = draw(n)
    size = base[vol]
    if resize_on_write and n:
        # forward-fill each volume's latest write size along its own mounts
        order = np.lexsort((idx, vol))
        sv, sw = vol[order], access[order] != READ
        start = np.ones(n, dtype=bool)
        start[1:] = sv[1:] != sv[:-1]
        pos = np.where(sw | start, np.arange(n), 0)
        pos = np.maximum.accumulate(pos)
        filled = np.where(sw[pos], fresh[order][pos], base[sv])
        size = np.empty(n)
        size[order] = filled
    t = np.round(np.sort(rng.random(n)) * h * 3600.0, 3)
    width = max(5, len(str(v - 1)))
    # np.unique(vol, return_inverse=True), by counting (vol holds codes below v): O(n + v)
    used = np.flatnonzero(np.bincount(vol, minlength=v))
    code = np.empty(v, dtype=np.int64)
    code[used] = np.arange(used.size)
    code = code[vol]
    # serials of the volumes used only (np.char.zfill refuses an empty array)
    names = (
        np.char.add("V", np.char.zfill(used.astype(str), width)) if used.size else np.zeros(0, dtype="<U1")
    )
    # codes in order of first appearance, as read_mount_log gives them
    first = np.full(used.size, n, dtype=np.int64)
    np.minimum.at(first, code, idx)
    rank_first = np.empty(used.size, dtype=np.int64)
    rank_first[np.argsort(first, kind="stable")] = np.arange(used.size)
    label = f"synthetic_mount_log(n_mounts={n}, n_volumes={v}, seed={seed}) [illustrative]"
    return MountLog(
        t, rank_first[code], names[np.argsort(rank_first)], size, access, size_basis, None, None, label
    )


#: How ``examples/example_mount_log.csv`` was made (every other parameter at its default).
_EXAMPLE = {"n_mounts": 8000, "n_volumes": 4000, "seed": 19, "popularity": 0.6}


def _example_comments() -> list[str]:
    args = ", ".join(f"{k}={v}" for k, v in _EXAMPLE.items())
    return [
        "ILLUSTRATIVE mount log: synthetic, made up by vtsmodel; not measured on any VTS.",
        f"Made by vtsmodel.mountlog.synthetic_mount_log({args}), other parameters at their defaults;",
        "remake it with: python -m vtsmodel.mountlog examples/example_mount_log.csv --overwrite",
        "One week (168 h); time_s in seconds from its start; sizes in compressed MB (as held in an",
        "EHPO or PAF cache); access: scratch_write, specific_write or read.",
    ]


def _main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m vtsmodel.mountlog", description="Write the example mount log."
    )
    ap.add_argument("path")
    ap.add_argument("--overwrite", action="store_true")
    args = ap.parse_args(argv)
    log = synthetic_mount_log(**_EXAMPLE)
    print(write_mount_log(log, args.path, comments=_example_comments(), overwrite=args.overwrite))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
