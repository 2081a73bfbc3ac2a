"""A mount log in memory (:class:`MountLog`), from arrays, and written as vtsmodel's CSV.

The rules of the format and of the reader are in :mod:`vtsmodel.mountlog` (the public face:
it re-exports every name here); the reader of real logs, :mod:`vtsmodel.logs`, builds on this
module and this module on nothing of it, so the two import no cycle.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._validation import as_scalar, check_choice
from vtsmodel.quantities import CHUNK_LINES

#: Access types, in the order of their codes (0, 1, 2) in :attr:`MountLog.access`.
ACCESS_TYPES = ("scratch_write", "specific_write", "read")
SCRATCH_WRITE, SPECIFIC_WRITE, READ = 0, 1, 2
_ACCESS_CODE = {name: code for code, name in enumerate(ACCESS_TYPES)}

#: What a size means: as stored after compression, or as the host wrote it.
SIZE_BASES = ("compressed", "host")
_ALL_READS = "the log has no access column: every request counted as a read"

#: Largest volume size accepted, a sanity bound (100 TB), not a product limit. [MB]
MAX_SIZE_MB = 1e8
#: Longest id (volume serial, file path, cartridge) accepted: PATH_MAX of Linux. [characters]
MAX_ID_CHARS = 4096
#: Longest service or mount time accepted, a sanity bound (about 3 years). [s]
MAX_DURATION_S = 1e8
_DEFAULT_CHUNK = 100_000

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
    info : vtsmodel.logs.ReadInfo or None
        How the log is being read (filled in as it is read).
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
    info: object = None

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
        The volume serials (str), by code, in order of first appearance: a numpy str
        array, or an object array of str when an id is longer than 256 characters.
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
    objects_are_cartridges : bool
        True when the log names no object but the cartridge (a tape library's request
        log): each cartridge is one object, and a request reads part of it, not the whole.
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
    objects_are_cartridges: bool = False

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


def _chunk_lines(chunk_lines) -> int:
    return int(as_scalar("chunk_lines", CHUNK_LINES.check("chunk_lines", chunk_lines)))


class _Codes:
    """Serial -> dense code, in order of first appearance."""

    def __init__(self):
        self.code: dict[str, int] = {}

    def __call__(self, names) -> np.ndarray:
        names = np.asarray(names)
        if names.size == 0:
            return np.zeros(0, dtype=np.int64)
        if names.dtype.kind == "O":  # long ids: no fixed-width copy
            d = self.code
            put = d.setdefault
            return np.fromiter((put(v, len(d)) for v in names.tolist()), dtype=np.int64, count=names.size)
        uniq, first, inverse = np.unique(names, return_index=True, return_inverse=True)
        codes = np.empty(uniq.size, dtype=np.int64)
        for k in np.argsort(first, kind="stable"):  # new names get codes in order of appearance
            name = str(uniq[k])
            c = self.code.get(name)
            if c is None:
                c = self.code[name] = len(self.code)
            codes[k] = c
        return codes[inverse.ravel()]

    @property
    def names(self) -> list[str]:
        return list(self.code)

    def ids(self) -> np.ndarray:
        return _id_array(list(self.code))


#: Longest id held in a fixed-width numpy str array; beyond, an object array of str (a
#: fixed-width array holds 4 bytes times the longest id for every id). [characters]
_FIXED_WIDTH_IDS = 256


def _id_array(names: list[str]) -> np.ndarray:
    if not names:
        return np.zeros(0, dtype="<U1")
    if max(map(len, names)) <= _FIXED_WIDTH_IDS:
        return np.asarray(names, dtype=str)
    out = np.empty(len(names), dtype=object)
    out[:] = names
    return out


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
        first_bad("time_s", bad, t, "[0, ∞) s")
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
    bad = (lengths == 0) | (lengths > MAX_ID_CHARS)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{i}]={str(names[i])!r} must be 1 to {MAX_ID_CHARS} characters")
    c = _Codes()
    codes = c(np.char.strip(names)) if n else np.zeros(0, dtype=np.int64)
    return codes, c.ids()


def _no_sizes(object_mb: float) -> str:
    return f"the log has no sizes: every object counted as {object_mb:,.10g} MB"


def _csv_pieces(log: MountLog, comments: Sequence[str], chunk_rows: int) -> Iterator[str]:
    """The CSV text of a log in pieces of ``chunk_rows`` rows (memory bounded by a piece)."""
    from vtsmodel._csv import csv_row, guard, quote

    for c in comments:
        for part in str(c).splitlines() or [""]:
            yield f"# {part}".rstrip() + "\n"
    names = ["time_s", "volume", f"{log.size_basis}_mb"]
    ids = [np.asarray([quote(guard(v)) for v in log.volume_ids.tolist()], dtype=object)]
    if log.access_given:
        names.append("access")
    if log.cartridge is not None:
        names.append("cartridge")
        ids.append(np.asarray([quote(guard(v)) for v in log.cartridge_ids.tolist()], dtype=object))
    if log.duration_s is not None:
        names.append("duration_s")
    yield csv_row(names)
    kinds = np.asarray(ACCESS_TYPES, dtype=object)
    for lo in range(0, len(log), chunk_rows):
        hi = lo + chunk_rows
        cols = [map(repr, log.time_s[lo:hi].tolist()), ids[0][log.volume[lo:hi]].tolist()]
        cols.append(map(repr, log.size_mb[lo:hi].tolist()))
        if log.access_given:
            cols.append(kinds[log.access[lo:hi]].tolist())
        if log.cartridge is not None:
            cols.append(ids[1][log.cartridge[lo:hi]].tolist())
        if log.duration_s is not None:
            cols.append(map(repr, log.duration_s[lo:hi].tolist()))
        yield "\n".join(map(",".join, zip(*cols, strict=True))) + "\n"


def mount_log_csv(log: MountLog, *, comments: Sequence[str] = ()) -> str:
    """The log as CSV text in vtsmodel's format (:func:`read_mount_log` reads it back exactly).

    Parameters
    ----------
    log : MountLog
        The log.
    comments : sequence of str
        Lines written first, each prefixed with ``# ``.

    Returns
    -------
    str
        Numbers written exactly (the shortest text that reads back as the same float); ids
        quoted per RFC 4180 where they hold a comma, a quote or a line end, and guarded
        against spreadsheet formulas (module notes). :func:`write_mount_log` writes a file
        in bounded memory; this builds the whole text.
    """
    _check_log(log)
    return "".join(_csv_pieces(log, comments, _DEFAULT_CHUNK))


def _check_log(log) -> None:
    if not isinstance(log, MountLog):
        raise ValueError(f"log={log!r} must be a MountLog (read_mount_log, mount_log)"[:300])


@declare(chunk_lines=CHUNK_LINES)
def write_mount_log(
    log: MountLog, path, *, comments: Sequence[str] = (), overwrite: bool = False, chunk_lines: int = 65_536
) -> Path:
    """Write the log as CSV, atomically (a temporary file renamed into place), in pieces.

    The text is :func:`mount_log_csv`'s, written ``chunk_lines`` rows at a time: the
    memory it takes is a piece's, whatever the log's length. A failure leaves no file (and
    an existing one as it was).

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
    chunk_lines : int
        Rows formatted at a time, 1 to :data:`~vtsmodel.quantities.MAX_CHUNK_LINES`. [count]

    Returns
    -------
    pathlib.Path
    """
    _check_log(log)
    from vtsmodel._files import atomic_write

    pieces = _csv_pieces(log, comments, _chunk_lines(chunk_lines))
    return atomic_write(path, pieces, overwrite=overwrite)
