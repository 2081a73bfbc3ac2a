"""Mount logs: the one in-memory form of a log, vtsmodel's CSV format, and writing it.

A mount log lists, in time order, each request for a tape volume or file: when, which
object (a logical volume of the VTS, a file, a block), optionally which cartridge, how
large it is, whether it was written or read, and how long it took. The read-hit analysis
(:mod:`vtsmodel.hits`) and the replay take one in as a :class:`MountLog`, read from
vtsmodel's own CSV or from the logs real systems write (:mod:`vtsmodel.logs`: any
delimiter, header or not, epoch or ISO times, compressed), or built from arrays
(:func:`mount_log`). The source papers give no log, so the project ships only an
illustrative, synthetic one (``examples/example_mount_log.csv``, made by
:func:`vtsmodel.logs.synthetic_mount_log`).

vtsmodel's CSV format
---------------------
UTF-8 text, comma-separated (RFC 4180: a field holding a comma, a quote or a line end is
quoted). Lines starting with ``#`` and blank lines are skipped anywhere. The first other
line is the header; it names the columns, in any order:

``time_s`` or ``time``
    When the mount happened: ``time_s`` in seconds from any origin (a number >= 0), or
    ``time`` as a date and time (ISO 8601, ``2026-03-01T08:15:00``; with a zone, converted
    to UTC; the other forms :mod:`vtsmodel.logs` reads). [s]
``volume``
    The volume serial (VOLSER), a file name or any id: 1 to 4,096 characters, spaces at
    its ends removed.
``compressed_mb`` or ``host_mb``
    The volume's size after this mount, in MB (10^6 bytes), as it sits in the cache and
    on tape after compression (``compressed_mb``) or as the host wrote it (``host_mb``).
    The header's column name is the flag that says which. 0 to 10^8 MB. [MB]
``access`` (optional: without it, every mount is a read)
    ``scratch_write`` (the host writes a new volume, or reuses a scratch VOLSER: no
    physical mount), ``specific_write`` (the host updates an existing volume: a recall
    when it is not in the cache), or ``read`` (a read hit or a recall) (ibm-vts-b18-2000,
    Secs. 2, 3.4).
``cartridge`` (optional)
    The physical cartridge the request names.
``duration_s`` (optional)
    The request's service or mount time. [s]

A text cell that a spreadsheet would take for a formula (starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return) is written with a leading ``'`` (OWASP's rule
against CSV injection), as is one starting with ``'``; the reader takes it off, so
``read_mount_log(write_mount_log(log))`` gives the log back. Errors are ``ValueError``
naming the file, the line, the field, the value and the valid range.

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

from collections.abc import Iterator

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._mountlog import (
    _DEFAULT_CHUNK,
    ACCESS_TYPES,
    MAX_DURATION_S,
    MAX_ID_CHARS,
    MAX_SIZE_MB,
    OBJECT_MB,
    READ,
    SCRATCH_WRITE,
    SIZE_BASES,
    SIZE_BASIS,
    SPECIFIC_WRITE,
    MountLog,
    MountLogChunk,
    _chunk_lines,
    _Codes,
    mount_log,
    mount_log_csv,
    write_mount_log,
)
from vtsmodel.logs import LogFile
from vtsmodel.quantities import CHUNK_LINES

__all__ = [
    "ACCESS_TYPES",
    "MAX_DURATION_S",
    "MAX_ID_CHARS",
    "MAX_SIZE_MB",
    "OBJECT_MB",
    "READ",
    "SCRATCH_WRITE",
    "SIZE_BASES",
    "SIZE_BASIS",
    "SPECIFIC_WRITE",
    "MountLog",
    "MountLogChunk",
    "iter_mount_log",
    "mount_log",
    "mount_log_csv",
    "read_mount_log",
    "write_mount_log",
]


# --------------------------------------------------------------------------------------
# Reading (the reader itself: vtsmodel.logs)
# --------------------------------------------------------------------------------------
def _log_file(source, options):
    if isinstance(source, LogFile):
        if options:
            raise ValueError(f"give the reading options ({', '.join(options)}) to the LogFile, not beside it")
        return source
    return LogFile(source, **options)


@declare(chunk_lines=CHUNK_LINES)
def iter_mount_log(source, *, chunk_lines: int = _DEFAULT_CHUNK, **options) -> Iterator[MountLogChunk]:
    """Read a log in chunks of validated rows, without loading the file whole.

    Parameters
    ----------
    source : path-like, bytes, str, file-like or LogFile
        A regular file (plain or compressed), its bytes, text containing a newline, an
        open stream, or a :class:`vtsmodel.logs.LogFile` (a source and how to read it).
    chunk_lines : int
        Lines read per chunk, 1 to :data:`~vtsmodel.quantities.MAX_CHUNK_LINES`; parsing
        holds about 500 bytes per line of a chunk (50 MB for the default). [count]
    **options
        How to read the log (``format``, ``columns``, ``delimiter``, ``header``,
        ``time_form``, ``object_mb``, ``size_basis``, ``access_map``, ``encoding``):
        :class:`vtsmodel.logs.LogFile`. Each is detected when not given.

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
        (at once, before any line is read) for a ``chunk_lines`` or an option outside its range.
    """
    spec = _log_file(source, options)
    return spec.chunks(_chunk_lines(chunk_lines), check_order=True)


@declare(chunk_lines=CHUNK_LINES)
def read_mount_log(
    source, *, sort: bool = False, chunk_lines: int = _DEFAULT_CHUNK, max_rows: int | None = None, **options
) -> MountLog:
    r"""Read and validate a whole log into memory: vtsmodel's mount log, or a real system's log.

    Parameters
    ----------
    source : path-like, bytes, str, file-like or LogFile
        A regular file (plain or gzip, bz2, xz or zstd-compressed), its bytes, text
        containing a newline, an open stream, or a :class:`vtsmodel.logs.LogFile`.
    sort : bool
        False (default): a line earlier than the one before it is an error (see the module
        notes for why). True: the rows are sorted by time, stably (equal times keep the
        file's order); with dated times, times are then counted from the earliest.
    chunk_lines : int
        Lines parsed per block, 1 to :data:`~vtsmodel.quantities.MAX_CHUNK_LINES`. [count]
    max_rows : int or None
        Refuse a log of more rows (a ``ValueError`` once they are read, before more memory is
        taken): a page that reads an upload bounds its memory so. [count]
    **options
        How to read the log (``format``, ``columns``, ``delimiter``, ``header``,
        ``time_form``, ``object_mb``, ``size_basis``, ``access_map``, ``encoding``): see
        :class:`vtsmodel.logs.LogFile`; each is detected when not given.

    Returns
    -------
    MountLog
        With ``notes`` saying how the log was read (delimiter, header, columns, time form,
        defaults taken).

    Examples
    --------
    A tape library's request log: semicolon-separated, no header, basic ISO times, no sizes:

    >>> text = "20110819T001558;A01234\n20110819T001602;B00042\n20110819T001700;A01234\n"
    >>> log = read_mount_log(text, format="tape-requests", object_mb=400_000)
    >>> log.cartridge_ids.tolist(), log.time_s.tolist()
    (['A01234', 'B00042'], [0.0, 4.0, 62.0])
    """
    chunk = _chunk_lines(chunk_lines)
    spec = _log_file(source, options)
    codes, carts = _Codes(), _Codes()
    parts = []
    rows = 0
    for p in spec.chunks(chunk, check_order=not sort):
        rows += len(p)
        if max_rows is not None and rows > max_rows:
            raise ValueError(
                f"{spec.label}: more than {max_rows:,} requests (max_rows); read it in chunks (iter_mount_log) "
                "or use the command line (vtsmodel hits LOG)"
            )
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
    info = last.info
    return MountLog(
        time_s, vol, codes.ids(), size, acc, last.size_basis, line, start, info.label,
        cartridge=cart, cartridge_ids=None if cart is None else carts.ids(), duration_s=dur,
        sizes_given=info.sizes_given, access_given=info.access_given, time_at=info.time_at,
        notes=info.notes(), objects_are_cartridges=info.objects_are_cartridges,
    )  # fmt: skip


def __getattr__(name):
    # the synthetic generator moved to vtsmodel.logs.synthetic; its names stay reachable here
    if name in ("synthetic_mount_log", "MAX_SYNTHETIC_MOUNTS", "MAX_SYNTHETIC_VOLUMES"):
        from vtsmodel.logs import synthetic

        return getattr(synthetic, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
