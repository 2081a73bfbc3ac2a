"""Logs real tape systems write, read into one in-memory form (:class:`vtsmodel.MountLog`).

Request logs of a mass storage system, an FTP server's ``xferlog``, a library manager's
mount records, exports of a monitoring tool: :func:`vtsmodel.read_mount_log` (whole) and
:func:`vtsmodel.iter_mount_log` (a chunk at a time) read them, streamed, in bounded
memory, with the same per-line errors as vtsmodel's own CSV (file, line, field, value,
valid range). What is not given is detected from the first lines; a :class:`LogFile`
holds a source and how to read it, for functions that stream a file
(:func:`vtsmodel.lru_hit_curve`, :func:`vtsmodel.shards_hit_curve`).

What the reader takes
---------------------
- **Compressed files** (gzip, bz2, xz, zstd: recognised by their first bytes, whatever the
  name), decompressed as they are read, never unpacked to disk. zstd needs the
  ``zstandard`` package.
- **Delimiters**: comma, semicolon, tab, ``|`` or runs of spaces, detected from the first
  50 lines (the one that splits every line into the same number of fields, the most
  fields winning) or given (``delimiter=``). Fields may be quoted (RFC 4180), a quoted
  field may hold line ends.
- **JSON Lines** (an object a line, as monitoring tools export: known by its first line's
  ``{``): the first object's keys name the columns, by the same names as a header's; a key
  another object adds is said in the notes, not read. Parsed by :func:`json.loads` alone.
- **A header or none**: a first line holding a column name vtsmodel knows (and no time)
  is the header (lines a report puts over it, a title and a date, are left out and said); unknown header columns are left out and listed in the log's ``notes``
  (a name close to a known one, such as ``acess``, is an error: a misspelt column must not
  pass unnoticed). Without a header, ``columns=`` says what each field holds, by position
  from 1 (as ``cut`` and ``awk`` count): ``"time,volume,,bytes,op"`` (an empty name skips
  a field), or ``"time=1,tape=3,bytes=5"``; a time in several fields is ``time=1+2``.
- **Column names** (:data:`ALIASES`; case, spaces and punctuation do not matter:
  ``"Size (bytes)"`` is ``size_bytes``): the time (``time``, ``timestamp``, ``ts``,
  ``date``, ``start``, ``time_s`` for seconds as given, ``epoch_ms``...), its end (``end``,
  ``end_time``, ``stop``...), the object (``volume``, ``volser``, ``file``, ``path``, ``id``,
  ``key``, ``lbn``...), the cartridge (``tape``, ``cartridge``, ``vid``, ``barcode``...), the
  size (``bytes``, ``size`` (bytes), ``size_kb``, ``size_mb``, ``size_gb``, ``size_tb``, and
  in binary units ``size_kib``, ``size_mib``, ``size_gib``, ``size_tib``: ``"Size (GiB)"``,
  ``compressed_mb``, ``host_mb``), the access kind (``access``, ``op``, ``operation``,
  ``type``, ``direction``...), the duration (``duration``, ``elapsed``, ``service_time``,
  ``transfer_time``, ``duration_ms``...).
- **Times** (:data:`TIME_FORMS`, detected from the first line or given by ``time_form=``):
  seconds from any origin; epoch seconds, milliseconds, microseconds, nanoseconds (told
  apart by their size: a number of 10^8 or more is an epoch time); ISO 8601 extended
  (``2011-08-19T00:15:58``, a space for the ``T``, ``/`` in the date, fractions) and basic
  (``20110819T001558``), each with or without a zone (``Z``, ``UTC``, ``GMT``, ``+02:00``,
  ``+0200``, ``+02``, after a space or not: converted to UTC; without one, taken as written;
  a zone named otherwise, ``CEST``, is an error: such names are not one offset); ctime as xferlog writes it; a date
  written month first as US-English tools write it (``8/19/2011 12:15:58 AM``, ``mdy``) or
  day first as European ones do (``19.08.2011 00:15:58``, ``dmy``). Which of the two a date
  such as ``08/09/2011`` is, one of the first lines must tell (a day over 12, AM or PM, dots
  between the date's parts), or ``time_form=`` name: the reader does not guess a month. A
  month by its English name (``month_name``: ``19/Aug/2011:00:15:58 +0200`` as web servers
  write it, brackets and all; ``19-Aug-2011 00:15:58``; Oracle's
  ``19-AUG-11 12.15.58.000000 AM``, a year of two digits 69-99 of the 1900s and 00-68 of the
  2000s as POSIX's ``%y``; ``Aug 19, 2011 12:15:58 AM``; ``Fri, 19 Aug 2011 00:15:58 GMT``),
  with a zone or not. A spreadsheet's dates saved as
  numbers (``excel``: days since 1899-12-30, to the millisecond) only where named: a number
  is seconds, and numbers that look like such days (1970 to 2100, with 5 or more decimals,
  or all within one unit) are read so with a :class:`ReadingWarning` and a note. Times
  become seconds after the first line's; the log's ``start`` is that first time.
- **Numbers** (sizes, durations): digits grouped in threes as spreadsheets write them
  (``"1,234,567"`` in a comma-separated log, where a comma cannot be the decimal mark;
  ``1 234 567`` with any space; ``1'234'567``); a decimal comma where the delimiter is not a
  comma. A point between groups (``1.234.567``) is an error: ``1.234`` alone would be a
  thousand or a fraction.
- **Sizes** optional: without a size column, ``object_mb=`` gives every object one size
  (``--object-gb``); the log says ``sizes_given=False``.
- **Access kinds** optional: without a column every request is a read
  (``access_given=False``). Known words (:data:`ACCESS_ALIASES`: read, r, get, recall,
  write, put, store, update, append, delete...) and ``access_map=`` for a log's own
  (``{"R": "read", "W": "scratch_write", "*": "read"}``); a word mapped to None (a
  deletion) leaves its line out.
- **Ids** (objects, cartridges) of 1 to 4,096 characters (file paths).
- **Logs joined end to end** (``cat`` of daily exports, each with its header): the header
  line where it comes again is left out, and the log's ``notes`` say how often. Lines of
  NUL bytes alone (a file cut short by a crash, or written ahead by its writer) are left
  out and said too; NUL bytes beside data are an error naming the line. Up to three lines
  under the last request that are no request are left out and said, with the first of
  them: a report's footer (no digit in the time, and a field the log uses empty or missing:
  ``Total,,80000``, ``End of report``) and a last line cut short (fewer fields than the
  header's and no line end, as a live log copied mid-write ends). Such a line above a
  request, or a bad value on a line whose fields are all given, is an error naming it.
- **Encodings**: UTF-8 by default (a byte-order mark is skipped); UTF-16 and UTF-32 (what
  Windows tools and a spreadsheet's "Unicode text" export write) are known by their
  byte-order marks; a byte that is not of the encoding is an error naming its line and its
  place in the line; ``encoding=`` names another (``utf-16`` without a mark: the byte order
  from the first character's zero bytes).

Named formats
-------------
:data:`FORMATS`: ``vtsmodel`` (the project's own CSV), ``xferlog`` (FTP servers' transfer
log), ``tape-requests`` (a tape library's request log: semicolon-separated, no header,
ISO 8601 basic times). :func:`example_log` writes a synthetic example of each.
"""

from vtsmodel.logs._columns import ALIASES
from vtsmodel.logs._info import ReadInfo, ReadingWarning
from vtsmodel.logs._reader import ACCESS_ALIASES, FORMATS, LogFile, LogFormat
from vtsmodel.logs._times import TIME_FORMS
from vtsmodel.logs.synthetic import (
    MAX_SYNTHETIC_MOUNTS,
    MAX_SYNTHETIC_VOLUMES,
    example_log,
    render_log,
    synthetic_mount_log,
)

__all__ = [
    "ACCESS_ALIASES",
    "ALIASES",
    "FORMATS",
    "MAX_SYNTHETIC_MOUNTS",
    "MAX_SYNTHETIC_VOLUMES",
    "TIME_FORMS",
    "LogFile",
    "LogFormat",
    "ReadInfo",
    "ReadingWarning",
    "example_log",
    "render_log",
    "synthetic_mount_log",
]
