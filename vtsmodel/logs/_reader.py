"""The log reader: a log file and how to read it (:class:`LogFile`), read a chunk at a time."""

from __future__ import annotations

import codecs
import csv
import json
import math
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from vtsmodel._csv import unguard
from vtsmodel._mountlog import (
    ACCESS_TYPES,
    MAX_DURATION_S,
    MAX_ID_CHARS,
    MAX_SIZE_MB,
    OBJECT_MB,
    READ,
    SCRATCH_WRITE,
    SPECIFIC_WRITE,
    MountLogChunk,
)
from vtsmodel.logs import _columns, _times
from vtsmodel.logs._info import EXCEL_ADVICE, ReadInfo, ReadingWarning
from vtsmodel.logs._source import Source

#: Access kinds by the words logs use for them (lower case); None: the line is left out
#: (a deletion is no request for data).
ACCESS_ALIASES: dict[str, int | None] = {
    **{w: READ for w in "read r rd get recall retrieve stage restore download fetch".split()},
    **{
        w: SCRATCH_WRITE
        for w in "scratch_write write w wr put store archive migrate upload create new".split()
    },
    **{w: SPECIFIC_WRITE for w in "specific_write update append modify overwrite rewrite".split()},
    **{w: None for w in "delete del remove rm unlink".split()},
}
_UNKNOWN, _SKIP = -2, -1
_UNITS_S = {1.0: "s", 1e-3: "ms"}
#: Sample lines the delimiter and the time form are detected from. [count]
_SAMPLE = 50
#: Lines under a log's last request that are no request (a report's footer, a line cut short)
#: left out at most.
_FOOTER_MAX = 3


@dataclass(frozen=True)
class LogFormat:
    """A named log format: the reader's settings for a kind of log real systems write.

    Attributes
    ----------
    name : str
        The name (``format=`` and ``--log-format``).
    title : str
        What writes it, in a few words.
    delimiter : str or None
        ``"auto"`` (detected), a character, or None for runs of spaces.
    header : bool or None
        Whether the first line names the columns (None: detected).
    columns : str, dict or None
        Where each column is (positions from 1), when there is no header.
    time_form : str or None
        The time form (:data:`vtsmodel.logs.TIME_FORMS`), or None to detect it.
    access_map : dict
        Access words of this format and what they mean (None: leave the line out).
    time_at : {"start", "end"}
        Whether a line's time is when the request started or ended.
    ragged : bool
        Lines may have more fields than the columns used.
    reference : str
        Where the format is documented.
    notes : str
        What the reader does with it.
    """

    name: str
    title: str
    delimiter: str | None = "auto"
    header: bool | None = None
    columns: object = None
    time_form: str | None = None
    access_map: Mapping = field(default_factory=dict)
    time_at: str = "start"
    ragged: bool = False
    reference: str = ""
    notes: str = ""


FORMATS: dict[str, LogFormat] = {
    f.name: f
    for f in (
        LogFormat(
            "vtsmodel",
            "vtsmodel's own mount log (write_mount_log)",
            delimiter=",",
            header=True,
            reference="vtsmodel.mountlog, module notes",
            notes="Comma-separated with a header: time_s or time, volume, compressed_mb or host_mb, access; "
            "optional cartridge and duration_s.",
        ),
        LogFormat(
            "xferlog",
            "FTP servers' transfer log (wu-ftpd, ProFTPD, vsftpd)",
            delimiter=None,
            header=False,
            columns={"time": (1, 2, 3, 4, 5), "duration": 6, "bytes": 8, "file": 9, "direction": 12},
            time_form="ctime",
            access_map={"o": READ, "i": SCRATCH_WRITE, "d": None},
            time_at="end",
            ragged=True,
            reference="xferlog(5), ProFTPD: https://manpages.debian.org/testing/proftpd-core/xferlog.5.en.gz "
            "(read 2026-11-26): 'Each server entry is composed of a single line of the following form, with "
            "all fields being separated by spaces.'",
            notes="Fields separated by spaces: current-time (5 fields, 'DDD MMM dd hh:mm:ss YYYY', local "
            "time), transfer-time [s], remote-host, file-size [bytes], filename (spaces written as _), "
            "transfer-type, special-action-flag, direction (o outgoing: a read; i incoming: a write; d "
            "deleted: left out), access-mode, username, service-name, authentication-method, "
            "authenticated-user-id, and in ProFTPD a completion-status. A line is written when a transfer "
            "ends: the time is its end, the transfer time its duration.",
        ),
        LogFormat(
            "tape-requests",
            "a tape library's request log: semicolon-separated, no header, ISO 8601 basic times",
            delimiter=";",
            header=False,
            columns="time,cartridge",
            time_form="iso_basic",
            reference="the shape of public tape-library request logs (issue 23)",
            notes="Fields separated by ';', no header; the first field the time (20110819T001558), the "
            "second the cartridge the request names; other fields ignored unless columns= names them. No "
            "sizes (give object_mb: each cartridge is one object) and no access kind (every request a read) "
            "unless columns= names them.",
        ),
    )
}


def _check_access_map(access_map) -> dict[str, int | None]:
    out = {}
    for k, v in dict(access_map or {}).items():
        if v is None or (isinstance(v, str) and v.lower() in ("skip", "none", "")):
            out[str(k).strip()] = None
        elif isinstance(v, str) and v in ACCESS_TYPES:
            out[str(k).strip()] = ACCESS_TYPES.index(v)
        elif isinstance(v, int) and 0 <= v < len(ACCESS_TYPES):
            out[str(k).strip()] = int(v)
        else:
            raise ValueError(
                f"access_map[{k!r}]={v!r} is not valid; map a word to one of {', '.join(ACCESS_TYPES)} or None "
                "(leave the line out); the key '*' maps every other word"
            )
    return out


@dataclass(frozen=True)
class LogFile:
    """A log file and how to read it: pass it wherever a path is taken, or call :meth:`read`.

    Every setting left at its default is detected from the log; see :mod:`vtsmodel.logs`.

    Parameters
    ----------
    source : path-like, bytes, str or file-like
        A regular file, the bytes of one, text holding a newline, or an open stream.
        Compressed input (gzip, bz2, xz, zstd) is recognised by its first bytes.
    format : str or None
        A named format (:data:`FORMATS`): its settings are the defaults of the others.
    columns : str, list, dict or None
        What each column holds. ``"time,volume,,bytes,op"`` names the fields by position
        (an empty name skips one); ``"time=1,tape=3,bytes=5"`` by number from 1 (a time in
        several fields: ``time=1+2``); a dict ``{"time": 1, "volume": "VOLSER"}`` by
        number or by header name. Names: :data:`vtsmodel.logs.ALIASES`. None: the header's.
    delimiter : str or None
        ``"auto"`` (detected from the first lines), one character, or None for runs of
        spaces or tabs.
    header : bool or None
        Whether the first line names the columns; None: detected (a first line with a
        column name vtsmodel knows and no number).
    time_form : str or None
        One of :data:`vtsmodel.logs.TIME_FORMS`; None: detected from the first line.
    object_mb : float or None
        The size of every object of a log without sizes (the size column is required
        without it), 0 to 10^8. [MB]
    size_basis : {"compressed", "host"} or None
        What the sizes measure; None: from the column's name (``compressed_mb``), else host.
    access_map : dict or None
        Access words of the log and what they mean (``{"R": "read", "W": "scratch_write",
        "D": None}``; ``"*"`` for every other word); added to the known words.
    encoding : str
        The text encoding; a byte that is not of it is an error naming its line. A UTF-16 or
        UTF-32 byte-order mark at the start names its encoding where this is UTF-8.
    """

    source: object
    format: str | None = None
    columns: object = None
    delimiter: str | None = "auto"
    header: bool | None = None
    time_form: str | None = None
    object_mb: float | None = None
    size_basis: str | None = None
    access_map: Mapping | None = None
    encoding: str = "utf-8"

    def __post_init__(self):
        if self.format is not None and self.format not in FORMATS:
            raise ValueError(f"format={self.format!r} is not known; choose one of {', '.join(FORMATS)}")
        d = self.delimiter
        if d is not None and d != "auto" and (not isinstance(d, str) or len(d) != 1 or d in "\"\r\n'"):
            raise ValueError(
                f"delimiter={d!r} is not valid; give one character such as ';', or None for spaces"
            )
        if self.time_form is not None and self.time_form not in _times.TIME_FORMS:
            raise ValueError(
                f"time_form={self.time_form!r} is not known; choose one of {', '.join(_times.TIME_FORMS)}"
            )
        if self.object_mb is not None:
            OBJECT_MB.check("object_mb", self.object_mb)
        if self.size_basis is not None and self.size_basis not in ("compressed", "host"):
            raise ValueError(f"size_basis={self.size_basis!r} is not valid; choose compressed or host")
        if self.header not in (None, True, False):
            raise ValueError(f"header={self.header!r} must be True, False or None (detect)")
        _check_access_map(self.access_map)
        try:
            codecs.lookup(self.encoding)
        except (LookupError, TypeError):
            raise ValueError(f"encoding={self.encoding!r} is not a text encoding Python knows") from None
        if self.columns is not None:
            _columns._spec_items(self.columns)

    @property
    def label(self) -> str:
        """The source's short name."""
        from vtsmodel.logs._source import label_of

        return label_of(self.source)

    def chunks(self, chunk_lines: int = 100_000, *, check_order: bool = True) -> Iterator[MountLogChunk]:
        """The log's rows, validated, ``chunk_lines`` at a time (:func:`vtsmodel.iter_mount_log`)."""
        src = Source(self.source, encoding=self.encoding)
        try:
            yield from _Reader(self, src, chunk_lines, check_order).run()
        finally:
            src.close()


class _Reader:
    def __init__(self, spec: LogFile, src: Source, chunk_lines: int, check_order: bool):
        fmt = FORMATS.get(spec.format) if spec.format else None
        self.fmt = fmt
        self.spec = spec
        self.src = src
        self.where = src.label
        self.chunk_lines = chunk_lines
        self.check_order = check_order
        self.info = ReadInfo(src.label, format=fmt.name if fmt else "delimited", compression=src.compression)
        amap = dict(ACCESS_ALIASES)
        if fmt:
            amap.update({k.lower(): v for k, v in fmt.access_map.items()})
        amap.update(_check_access_map(spec.access_map))
        amap.update({k.lower(): v for k, v in list(amap.items())})
        amap = {k: _SKIP if v is None else v for k, v in amap.items()}
        self.default_access = amap.pop("*", _UNKNOWN)
        self.access_words = amap
        self.prev_t, self.prev_line = -math.inf, 0

    def _setting(self, name, unset):
        v = getattr(self.spec, name)
        if v is unset and self.fmt is not None:
            return getattr(self.fmt, name)
        return v

    # -- lines --------------------------------------------------------------------------
    def _records(self) -> Iterator[tuple[list[str], np.ndarray]]:
        """Data lines (comments and blank lines out; quoted line ends joined) and their numbers."""
        pending = None  # an open quoted record: [text, line number]
        opening = True
        for text, lines, first in self.src.blocks():
            self.info.encoding = self.src.encoding  # a byte-order mark may name it (the first block's)
            if opening:  # JSON Lines: an object a line, known by its first (its quotes are not CSV's)
                opening = False
                if self._setting("delimiter", "auto") == "auto" and _first_content(lines)[:1] == "{":
                    self.json_keys, self.quoting = [], False
            if self.quoting and (pending is not None or '"' in text):
                recs, nums = [], []
                for i, line in enumerate(lines):
                    if pending is not None:
                        pending[0] += "\n" + line
                        if pending[0].count('"') % 2 == 0:
                            recs.append(pending[0])
                            nums.append(pending[1])
                            pending = None
                        continue
                    if '"' in line and line.count('"') % 2:
                        pending = [line, first + i]
                        continue
                    if line[:1] not in _MAYBE_BLANK or self._holds_data(line):
                        recs.append(line)
                        nums.append(first + i)
                yield recs, np.asarray(nums, dtype=np.int64)
                continue
            keep = [
                i for i, line in enumerate(lines) if line[:1] not in _MAYBE_BLANK or self._holds_data(line)
            ]
            if len(keep) == len(lines):
                yield lines, np.arange(first, first + len(lines), dtype=np.int64)
            else:
                yield [lines[i] for i in keep], first + np.asarray(keep, dtype=np.int64)
        if pending is not None:
            raise ValueError(f"{self.where}, line {pending[1]}: a quoted field is not closed before the end")

    json_keys: list[str] | None = None  # JSON Lines: the first object's keys, in order

    def _json_rows(self, recs: list[str], numbers: np.ndarray) -> list[str]:
        """JSON Lines' objects as rows of their values under :attr:`json_keys` (a key not given: empty)."""
        keys, out = self.json_keys, []
        try:  # the block as one array: one call of the parser (each line on its own names a bad one)
            objs = json.loads("[" + ",".join(recs) + "]")
        except (ValueError, RecursionError):
            objs = None
        if objs is None or len(objs) != len(recs) or not all(isinstance(o, dict) for o in objs):
            objs = [
                _json_object(rec, line, self.where) for rec, line in zip(recs, numbers.tolist(), strict=True)
            ]
        seps, known = len(keys) - 1, self.json_known
        for obj, line in zip(objs, numbers.tolist(), strict=True):
            # keys the first object has not: said (the first 20)
            if len(obj) != len(keys) and len(self.info.unread_keys) < 20 and not obj.keys() <= known:
                self.info.unread_keys = tuple(
                    dict.fromkeys((*self.info.unread_keys, *(k for k in obj if k not in known)))
                )
            row = _JSON_SEP.join([v if type(v) is str else _json_cell(v) for v in map(obj.get, keys)])
            if row.count(_JSON_SEP) != seps:
                raise ValueError(f"{self.where}, line {line}: a value holds the character U+001F")
            out.append(row)
        return out

    def _title_lines(self, recs: list[str], delim) -> int:
        """Lines a report puts over its table (a title, a date) before its header: their count (0: none).

        Only where the first line splits into another number of fields than most of the first
        lines do, and the first line that splits into that number is a header
        (:func:`_looks_like_header`) within the first ten.
        """
        try:
            counts = [len(_columns.split_one(r, delim)) for r in recs[:_SAMPLE]]
        except csv.Error:
            return 0
        values, freq = np.unique(counts, return_counts=True)
        n = int(values[np.argmax(freq)])
        if counts[0] == n:
            return 0
        k = next((i for i, c in enumerate(counts[:10]) if c == n), None)
        return k if k and _looks_like_header(_columns.split_one(recs[k], delim)) else 0

    def _nested(self, cols: dict, lines: np.ndarray) -> None:
        """``ValueError`` naming the line and key where a column the log uses holds an object or a list."""
        for j, values in cols.items():
            bad = next((i for i, v in enumerate(values) if v[:1] == _NESTED), None)
            if bad is not None:
                raise ValueError(
                    f"{self.where}, line {lines[bad]}: {self.json_keys[j]}={values[bad][1:81]} is not one value"
                )

    def _holds_data(self, line: str) -> bool:
        """Whether a line that may be blank holds data (not a comment, not blank, not NUL bytes alone)."""
        if _content(line):
            if line.lstrip()[:1] != "\x00" or line.strip(_NUL_BLANK):
                return True
            self.info.nul_lines += 1
        return False

    def _without_headers(self, recs: list[str], lines: np.ndarray) -> tuple[list[str], np.ndarray]:
        """``recs`` without the header line where it comes again (logs joined end to end), and their numbers."""
        head = self.header_text
        if head is None or not any(h in recs for h in self.header_forms):  # the list's own scan: fast
            return recs, lines
        again = [i for i, r in enumerate(recs) if r in self.header_forms]
        self.info.headers_again += len(again)
        keep = np.ones(len(recs), dtype=bool)
        keep[again] = False
        return [r for r, k in zip(recs, keep, strict=True) if k], lines[keep]

    # -- the first lines: delimiter, header, columns ------------------------------------
    def run(self) -> Iterator[MountLogChunk]:
        delim = self._setting("delimiter", "auto")
        self.quoting = delim is not None  # until the delimiter is known, quotes are honoured
        records = self._records()
        recs: list[str] = []
        nums: list[np.ndarray] = []
        for r, n in records:
            recs.extend(r)
            nums.append(n)
            if len(recs) >= _SAMPLE:
                break
        numbers = np.concatenate(nums) if nums else np.zeros(0, dtype=np.int64)
        if not recs:
            raise ValueError(
                f"{self.where}: no lines but comments and blank lines; a log has a line per request "
                "(time_s or time, volume, compressed_mb or host_mb, access in vtsmodel's own format)"
            )
        if self.json_keys is not None:
            # each object a row of its values, under a header of the first one's keys
            self.json_keys = list(_json_object(recs[0], int(numbers[0]), self.where))
            if not self.json_keys:
                raise ValueError(
                    f"{self.where}, line {numbers[0]}: the first object names nothing; its keys name the columns"
                )
            self.json_known = frozenset(self.json_keys)
            recs = [_JSON_SEP.join(self.json_keys), *self._json_rows(recs, numbers)]
            numbers = np.concatenate([numbers[:1], numbers])
            records = ((self._json_rows(r, n), n) for r, n in records)
            delim = _JSON_SEP
        if delim == "auto":
            try:
                delim = _columns.detect_delimiter(recs[:_SAMPLE])
            except ValueError as exc:
                raise ValueError(
                    f"{self.where}, lines {numbers[0]}-{numbers[min(len(recs), _SAMPLE) - 1]}: {exc}"
                ) from None
        self.delim = delim
        self.quoting = delim is not None
        self.info.delimiter = delim
        header = True if self.json_keys is not None else self._setting("header", None)
        if header is None and self._setting("columns", None) is None:
            title = self._title_lines(recs, delim)
            if title:
                self.info.title_lines = title
                recs, numbers = recs[title:], numbers[title:]
        first = _columns.split_one(recs[0], delim)
        if header is None:
            header = _looks_like_header(first)
        self.info.header = bool(header)
        first_line = int(numbers[0])
        where = f"{self.where}, line {first_line}"
        fmt_ragged = self.fmt.ragged if self.fmt else False
        if header:
            head_cells = first
            self.header_line = int(numbers[0])
            self.header_text = head = recs[0].lstrip("\ufeff").rstrip("\r")
            # as a joined log repeats it: with or without a carriage return, a byte-order mark before it
            self.header_forms = (head, head + "\r", "\ufeff" + head, "\ufeff" + head + "\r")
            recs, numbers = recs[1:], numbers[1:]
        else:
            head_cells = None
            self.header_line = None
            self.header_text = None
        nfirst = len(head_cells) if head_cells is not None else len(first)
        columns = self._setting("columns", None)
        self.lay = _columns.layout(
            head_cells, columns, nfirst, ragged=fmt_ragged, where=where, line=first_line
        )
        self.info.columns = {r: tuple(v) for r, v in self.lay.names.items()}
        self.info.ignored = self.lay.ignored
        self.first_line = first_line
        self._plan(recs, numbers)
        yield from self._chunks(recs, numbers, records)

    def _sample(self, recs: list[str], idx: list[int]) -> list[str]:
        """The values of the columns ``idx`` on the sample lines (joined by a space)."""
        out = []
        for rec in recs:
            cells = _columns.split_one(rec, self.delim)
            if len(cells) > max(idx):
                out.append(" ".join(cells[i].strip() for i in idx))
        return out

    def _detect(self, values: list[str], where: str) -> str:
        """The time form of the first sample value that has one."""
        for v in values:
            form = _times.detect(v)
            if form == _times.DATE_ORDER_UNSURE:
                form = _times.date_order(values)
                if form is None:
                    raise ValueError(
                        f"{where}: time={v!r} may be month/day/year or day/month/year, and none of the first "
                        f"{len(values):,} lines tells which (a day over 12, AM or PM, dots between the date's parts): "
                        "name the form (time_form='mdy' or time_form='dmy', --time-form mdy)"
                    )
            if form is not None:
                return form
        if not values:
            return "seconds"
        raise ValueError(
            f"{where}: time={values[0]!r} is not a time vtsmodel reads ({', '.join(_times.TIME_FORMS)}: "
            "vtsmodel.logs.TIME_FORMS); name the form (time_form='iso_basic', --time-form), or the "
            "fields the time spans (columns='time=1+2,...')"
        )

    def _plan(self, recs: list[str], numbers: np.ndarray) -> None:
        """Fix the conversions: time form, size unit and basis, access, from the layout."""
        where = f"{self.where}, line {numbers[0] if len(numbers) else self.first_line}"
        roles = self.lay.roles
        tidx, tfield = roles["time"]
        form = (
            self._setting("time_form", None) or tfield.form or self._detect(self._sample(recs, tidx), where)
        )
        self.times = _times.TimeParser(form)
        self.info.time_form = form
        if form == "seconds" and not tfield.form and not self._setting("time_form", None):
            sample = self._sample(recs, tidx)
            if _times.spreadsheet_days(sample):
                self.info.maybe_days = True
                warnings.warn(
                    f"{where}: times such as {sample[0]!r} were read as seconds from any origin; if they are a "
                    f"spreadsheet's dates (days since 1899-12-30), {EXCEL_ADVICE}",
                    ReadingWarning,
                    stacklevel=2,
                )
        self.end_times = None
        if "end" in roles and "_end_only" not in roles:
            eidx, efield = roles["end"]
            eform = efield.form or self._detect(self._sample(recs, eidx) or [""], where) if recs else form
            if (eform == "seconds") != (form == "seconds"):
                raise ValueError(
                    f"{where}: the end times ({eform}) and the start times ({form}) are not of one kind"
                )
            self.end_times = _times.TimeParser(eform)
        self.info.time_at = "end" if "_end_only" in roles else (self.fmt.time_at if self.fmt else "start")
        if "size" in roles:
            sfield = roles["size"][1]
            self.size_scale = sfield.scale
            self.info.size_basis = self.spec.size_basis or sfield.basis
            self.info.vts_sizes = sfield.vts
        else:
            if self.spec.object_mb is None:
                raise ValueError(
                    f"{where}: no size column (bytes, size, size_mb, compressed_mb, host_mb, ...); give every "
                    "object's size: object_mb=... (--object-gb on the command line)"
                )
            self.info.sizes_given = False
            self.info.object_mb = float(self.spec.object_mb)
            self.info.size_basis = self.spec.size_basis or "host"
        self.info.access_given = "access" in roles
        self.info.objects_are_cartridges = "volume" not in roles

    # -- chunks -------------------------------------------------------------------------
    def _chunks(self, recs, numbers, records) -> Iterator[MountLogChunk]:
        size = self.chunk_lines
        hold = _FOOTER_MAX  # the last lines wait for the end: they may be a footer
        pend, pend_n = recs, [numbers]
        yielded = False
        for r, n in records:
            pend = pend + r if pend else r
            pend_n.append(n)
            if len(pend) >= size + hold:
                allnum = np.concatenate(pend_n)
                k = 0
                while len(pend) - k >= size + hold:
                    yield self._convert(pend[k : k + size], allnum[k : k + size])
                    yielded = True
                    k += size
                pend, pend_n = pend[k:], [allnum[k:]]
        allnum = np.concatenate(pend_n) if pend_n else np.zeros(0, dtype=np.int64)
        pend, allnum = self._without_footer(pend, allnum, yielded)
        k = 0
        while len(pend) - k > size:
            yield self._convert(pend[k : k + size], allnum[k : k + size])
            yielded = True
            k += size
        if len(pend) > k or not yielded:
            yield self._convert(pend[k:], allnum[k:])

    def _without_footer(
        self, recs: list[str], lines: np.ndarray, yielded: bool
    ) -> tuple[list[str], np.ndarray]:
        """``recs`` (the log's last) without the lines under its last request that are no request.

        At most :data:`_FOOTER_MAX` (:meth:`_is_request`); said in the notes. Where no
        request is left, or the log is JSON Lines or ragged, they stay, for the error that names them.
        """
        if self.json_keys is not None or self.lay.ncols is None:
            return recs, lines
        k = len(recs)
        while k > 0 and len(recs) - k < _FOOTER_MAX and not self._is_request(recs[k - 1], k == len(recs)):
            k -= 1
        if k == len(recs) or (k == 0 and not yielded):
            return recs, lines
        self.info.footer = tuple(r.rstrip("\r") for r in recs[k:])
        return recs[:k], lines[:k]

    def _is_request(self, rec: str, last: bool) -> bool:
        """Whether a line under the log's requests may be one (its errors then named).

        Not one: a line with no digit in its time and a field it uses empty or missing (a total:
        ``Total,,80000,``, whatever its number of fields; ``End of report``), or the ``last`` line
        with fewer fields than the header's and no line end (cut short as it was written).
        """
        if self.header_text is not None and rec in self.header_forms:
            return True  # the header again: left out where it comes, as anywhere
        try:
            cells = _columns.split_one(rec, self.delim)
        except csv.Error:
            return False
        n = len(cells)
        used = [i for idx, _ in self.lay.roles.values() for i in idx]
        dated = any(c.isdigit() for i in self.lay.roles["time"][0] if i < n for c in cells[i])
        if not dated and not all(i < n and cells[i].strip() for i in used):
            return False
        return not (last and n < self.lay.ncols and self.src.unended)

    def _bad(self, line, field_name, value, problem):
        return ValueError(f"{self.where}, line {line}: {field_name}={value!r} {problem}")

    def _convert(self, recs: list[str], lines: np.ndarray) -> MountLogChunk:
        info = self.info
        recs, lines = self._without_headers(recs, lines)
        cols = _columns.split_block("\n".join(recs), recs, self.delim, self.lay, lines, self.where)
        roles = self.lay.roles
        n = len(recs)
        if self.json_keys is not None:
            self._nested(cols, lines)

        padded = _columns.padded(recs, self.delim)

        def values(role):
            idx = roles[role][0]
            if len(idx) == 1:
                return [v.strip() for v in cols[idx[0]]] if padded else cols[idx[0]]
            return [" ".join(p.strip() for p in parts) for parts in zip(*(cols[i] for i in idx), strict=True)]

        tname = self._name("time")
        raw_t = values("time")
        try:
            abs_t = self.times.absolute(raw_t)
        except _times.TimeError as exc:
            raise self._bad(
                lines[exc.index], tname, raw_t[exc.index], self._time_problem(exc, self.times)
            ) from None
        t = self.times.seconds(abs_t)
        info.zoned = self.times.zoned
        line0 = lines
        if "size" in roles:
            sc = self.size_scale
            size = _scaled(
                self._numbers(values("size"), lines, "size", 0.0, MAX_SIZE_MB / sc, _columns.SIZE_UNITS[sc]),
                sc,
            )
        else:
            size = np.full(n, info.object_mb)
        dur = None
        if "duration" in roles:
            sc = roles["duration"][1].scale
            dur = _scaled(
                self._numbers(values("duration"), lines, "duration", 0.0, MAX_DURATION_S / sc, _UNITS_S[sc]),
                sc,
            )
        elif self.end_times is not None:
            raw_e = values("end")
            try:
                abs_e = self.end_times.absolute(raw_e)
            except _times.TimeError as exc:
                raise self._bad(
                    lines[exc.index],
                    self._name("end"),
                    raw_e[exc.index],
                    self._time_problem(exc, self.end_times),
                ) from None
            diff = abs_e - abs_t
            dur = diff.astype(np.float64) / 1e6 if diff.dtype.kind == "m" else diff.astype(np.float64)
            bad = ~np.isfinite(dur) | (dur < 0) | (dur > MAX_DURATION_S)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise self._bad(
                    lines[i],
                    self._name("end"),
                    raw_e[i],
                    f"is before the start ({raw_t[i]}) or more than {MAX_DURATION_S:g} s after it",
                )
        if "access" in roles:
            acc = self._access(values("access"), lines)
        else:
            acc = np.full(n, READ, dtype=np.int8)
        vol = self._ids(values("volume"), lines, "volume") if "volume" in roles else None
        cart = self._ids(values("cartridge"), lines, "cartridge") if "cartridge" in roles else None
        if vol is None:
            vol = cart
        keep = acc != _SKIP
        if not keep.all():
            info.skipped += int((~keep).sum())
            t, size, acc, lines = t[keep], size[keep], acc[keep], lines[keep]
            vol = vol[keep]
            cart = None if cart is None else cart[keep]
            dur = None if dur is None else dur[keep]
        if self.check_order and t.size:
            back = np.flatnonzero(np.diff(np.concatenate(([self.prev_t], t))) < 0)
            if back.size:
                i = int(back[0])
                prev = (self.prev_t, self.prev_line) if i == 0 else (t[i - 1], lines[i - 1])
                raise self._bad(
                    lines[i], tname, raw_t[int(np.searchsorted(line0, lines[i]))],
                    f"is earlier than the time on line {prev[1]} ({t[i]:.6g} s < {prev[0]:.6g} s from the "
                    "first line); a log must be in time order (equal times keep the file's order): "
                    "sort the file first, or let the reader sort it (read_mount_log(..., sort=True); vtsmodel hits --sort)",
                )  # fmt: skip
        if t.size:
            self.prev_t, self.prev_line = float(t[-1]), int(lines[-1])
        return MountLogChunk(
            t, vol, size, acc, lines, info.size_basis, self.times.start, cart, dur, info.access_given,
            info=info,
        )  # fmt: skip

    def _name(self, role: str) -> str:
        where = self.info.columns.get(role) or (role,)
        w = where[0]
        return role if w.startswith("field ") else w

    def _time_problem(self, exc: _times.TimeError, parser) -> str:
        return (
            f"{exc.problem}; the log's times are {_times.TIME_FORMS[parser.form]} (time_form={parser.form!r})"
        )

    def _numbers(self, raw: list[str], lines, role: str, lo: float, hi: float, unit: str) -> np.ndarray:
        name = self._name(role)
        rng = f"valid range [{lo:g}, {hi:g}] {unit}"
        try:
            arr = np.array(raw, dtype=np.float64)
        except ValueError:  # a decimal comma, digits grouped (1,234,567), or not a number
            comma = self.delim not in (",", None)
            plain = [_columns.plain_number(v, decimal_comma=comma) for v in raw]
            try:
                arr = np.array(plain, dtype=np.float64)
            except ValueError:
                for i, v in enumerate(plain):
                    try:
                        float(v)
                    except ValueError:
                        raise self._bad(lines[i], name, raw[i], f"is not a number; {rng}") from None
        bad = ~np.isfinite(arr) | (arr < lo) | (arr > hi)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            problem = "is not finite;" if not np.isfinite(arr[i]) else "is outside the"
            raise self._bad(lines[i], name, raw[i], f"{problem} {rng}")
        return arr

    def _access(self, raw: list[str], lines) -> np.ndarray:
        get, n = self.access_words.get, len(raw)
        acc = np.fromiter(map(get, raw, repeat(_UNKNOWN, n)), dtype=np.int8, count=n)
        unknown = acc == _UNKNOWN
        if unknown.any():  # as written, then in lower case, then the default
            acc = np.fromiter(
                map(get, map(str.lower, raw), repeat(self.default_access, n)), dtype=np.int8, count=n
            )
        if (acc == _UNKNOWN).any():
            i = int(np.flatnonzero(acc == _UNKNOWN)[0])
            raise self._bad(
                lines[i], self._name("access"), raw[i],
                f"is not an access kind vtsmodel knows ({', '.join(ACCESS_TYPES)}; read, write, update, get, "
                "put, delete, ...: vtsmodel.logs.ACCESS_ALIASES); say what it means: access_map={'" + raw[i] + "': 'read'} (--access-map "
                + raw[i] + "=read), or '*' for every other word",
            )  # fmt: skip
        return acc

    def _ids(self, raw: list[str], lines, role: str) -> np.ndarray:
        if any(v[:1] == "'" for v in raw):
            raw = [unguard(v) for v in raw]
        length = np.fromiter(map(len, raw), dtype=np.int64, count=len(raw))
        bad = (length == 0) | (length > MAX_ID_CHARS)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise self._bad(
                lines[i], self._name(role), raw[i][:80], f"must be 1 to {MAX_ID_CHARS:,} characters"
            )
        if length.size and length.max() > 256:
            out = np.empty(len(raw), dtype=object)
            out[:] = raw
            return out
        return np.asarray(raw, dtype=str) if raw else np.zeros(0, dtype="<U1")


def _scaled(x: np.ndarray, scale: float) -> np.ndarray:
    """``x * scale``, dividing where the scale is 1/n (bytes / 10^6 is exact where bytes * 10^-6 is not)."""
    n = round(1.0 / scale)
    return x / n if scale < 1 and n * scale == 1.0 else x * scale if scale != 1 else x


#: How JSON Lines' values are joined into the rows the reader splits (the unit separator: a
#: character no log's value holds, split without CSV's quotes).
_JSON_SEP = _columns.UNQUOTED
#: Before a JSON Lines value that is an object or a list (not one value): the record separator.
_NESTED = "\x1e"


def _json_object(line: str, number: int, where: str) -> dict:
    """The object on one line of JSON Lines; ``ValueError`` naming the line when it is not one (json.loads only: nothing is run)."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"{where}, line {number}: is not a JSON object ({str(exc)[:120]}); a JSON Lines log "
                         "holds an object a line") from None  # fmt: skip
    if not isinstance(obj, dict):
        raise ValueError(f"{where}, line {number}: is {type(obj).__name__} JSON, not an object; a JSON Lines log "
                         "holds an object a line")  # fmt: skip
    return obj


def _json_cell(v) -> str:
    """A JSON value other than a string as the reader's text: empty for null (or a key not given), numbers as JSON writes them."""
    if v is None:
        return ""
    if isinstance(v, dict | list):  # an error only where a column the log uses holds it (_nested)
        return _NESTED + json.dumps(v)
    return json.dumps(v)


def _looks_like_header(cells: list[str]) -> bool:
    """Whether a line's fields are a header: a column name vtsmodel knows among them, and no time."""
    keys = [_columns.normal(c) for c in cells]
    return any(k in _columns.ALIASES or k in _columns.ROLES for k in keys) and not any(
        _times.detect(c) is not None for c in cells
    )


def _first_content(lines: list[str]) -> str:
    """The first line of ``lines`` that holds data, without its leading blanks ("" when none does)."""
    return next((line.lstrip() for line in lines if _content(line)), "")


#: First characters of a line that may be blank, a comment or NUL bytes alone (checked further).
_MAYBE_BLANK = "# \t\r\x00"
#: What a line of NUL bytes alone holds.
_NUL_BLANK = "\x00 \t\r"


def _content(line: str) -> bool:
    s = line.strip()
    return bool(s) and s[0] != "#"
