"""What each column of a log holds: names and their aliases, ``columns=``, delimiters (private)."""

from __future__ import annotations

import csv
import difflib
import re
from dataclasses import dataclass

import numpy as np

#: Roles a column can have. ``time`` and ``end`` are times; ``volume`` the object a request
#: names (a logical volume, a file, a block); ``cartridge`` the tape.
ROLES = ("time", "end", "volume", "cartridge", "size", "access", "duration")


@dataclass(frozen=True)
class Field:
    """What a column name means: its role, and for sizes, durations and times, the unit.

    ``scale`` turns the column's numbers into MB (sizes) or seconds (durations); ``form``
    fixes a time form (``time_s`` is seconds as given, ``epoch_ms`` milliseconds, ...);
    ``basis`` is the size basis a size column implies.
    """

    role: str
    scale: float = 1.0
    form: str | None = None
    basis: str = "host"
    vts: bool = False  # a size column of vtsmodel's mount log (compressed_mb, host_mb)


def _aliases() -> dict[str, Field]:
    out: dict[str, Field] = {}

    def add(names: str, field: Field):
        for name in names.split():
            out[name] = field

    add("time timestamp ts datetime date_time start start_time starttime request_time req_time "
        "submit_time event_time when date", Field("time"))  # fmt: skip
    add("time_s seconds t_s", Field("time", form="seconds"))
    add("epoch epoch_s unix_time unixtime unix time_epoch timestamp_s", Field("time", form="epoch_s"))
    add("epoch_ms timestamp_ms ts_ms time_ms unix_ms", Field("time", form="epoch_ms"))
    add("epoch_us timestamp_us ts_us time_us unix_us", Field("time", form="epoch_us"))
    add("epoch_ns timestamp_ns ts_ns time_ns unix_ns", Field("time", form="epoch_ns"))
    add("end end_time endtime stop stop_time finish finish_time completion_time done_time dismount_time "
        "end_ts", Field("end"))  # fmt: skip
    add("volume volser vol logical_volume object obj obj_id object_id oid id key file filename file_name "
        "path filepath file_path name lbn lba block url", Field("volume"))  # fmt: skip
    add("cartridge cart cartridge_id tape tape_id tapeid vid vsn barcode media media_id medium "
        "physical_volume pvol", Field("cartridge"))  # fmt: skip
    add("bytes size size_bytes nbytes file_size filesize length obj_size object_size bytes_transferred "
        "transfer_size size_b", Field("size", 1e-6))  # fmt: skip
    add("size_kb kb kilobytes", Field("size", 1e-3))
    add("size_mb mb megabytes", Field("size", 1.0))
    add("size_gb gb gigabytes", Field("size", 1e3))
    add("size_tb tb terabytes", Field("size", 1e6))
    # binary units (IEC 80000-13): 2^10, 2^20... bytes, as `ls -h` and many tape tools count
    for short, long, power in (
        ("ki", "kibi", 10),
        ("mi", "mebi", 20),
        ("gi", "gibi", 30),
        ("ti", "tebi", 40),
    ):
        add(f"size_{short}b {short}b {long}bytes", Field("size", 2**power / 1e6))
    add("host_mb", Field("size", 1.0, basis="host", vts=True))
    add("compressed_mb", Field("size", 1.0, basis="compressed", vts=True))
    add("compressed_bytes", Field("size", 1e-6, basis="compressed"))
    add("access op operation opcode kind type mode direction rw io io_type request_type req_type cmd "
        "command action event", Field("access"))  # fmt: skip
    add("duration duration_s elapsed elapsed_s service_s service_time transfer_time xfer_time time_taken "
        "mount_duration mount_s mount_seconds", Field("duration"))  # fmt: skip
    add("duration_ms elapsed_ms service_ms time_taken_ms transfer_time_ms", Field("duration", 1e-3))
    return out


#: The unit of a size column's values, by the MB one of them is (:attr:`Field.scale`).
SIZE_UNITS = {1e-6: "bytes", 1e-3: "kB", 1.0: "MB", 1e3: "GB", 1e6: "TB",
              **{2**p / 1e6: f"{u}iB" for u, p in (("K", 10), ("M", 20), ("G", 30), ("T", 40))}}  # fmt: skip
#: Column names the reader knows (lower case, words joined by ``_``), each with its meaning.
ALIASES = _aliases()


def normal(name: str) -> str:
    """A column name as the alias table spells it: lower case, runs of other characters as ``_``.

    ``"Size (bytes)"`` is ``size_bytes``, ``"time [s]"`` is ``time_s``.
    """
    return re.sub(r"[^a-z0-9]+", "_", name.strip().strip('"').lower()).strip("_")


@dataclass(frozen=True)
class Layout:
    """Where each role is: ``roles[role] = (column indices, Field)``; the fields a line has.

    ``ncols`` is the number of fields every line must have, or None when lines may have
    more than ``need`` (a log whose lines are ragged, such as xferlog's 17 or 18 fields).
    """

    roles: dict
    ncols: int | None
    need: int
    ignored: tuple[str, ...] = ()
    names: dict | None = None  # role -> the column names or positions, for notes
    counted: str = ""  # where ncols comes from, for messages


def _spec_items(spec) -> list[tuple[str, object]]:
    """``columns=`` as (name, where) pairs; ``where`` an index from 0, a header name or a tuple."""
    if isinstance(spec, str):
        parts = [p.strip() for p in spec.split(",")]
        if any("=" in p for p in parts):
            items = []
            for p in parts:
                if not p:
                    continue
                if "=" not in p:
                    raise ValueError(f"columns={spec!r}: {p!r} has no '='; write name=position, e.g. time=1")
                name, _, where = p.partition("=")
                ws = [w.strip() for w in where.split("+")]
                items.append((name.strip(), tuple(int(w) - 1 if w.isdigit() else w for w in ws)))
            return items
        spec = parts
    if isinstance(spec, dict):
        items = []
        for name, where in spec.items():
            ws = where if isinstance(where, tuple | list) else (where,)
            items.append((str(name), tuple(w - 1 if isinstance(w, int) else str(w) for w in ws)))
        return items
    if isinstance(spec, list | tuple):
        return [(str(n).strip(), (i,)) for i, n in enumerate(spec) if n and str(n).strip() not in ("-", "_")]
    raise ValueError(f"columns={spec!r} must be a text such as 'time,volume,,bytes', a list or a dict")


def _field_of(name: str, where: str) -> Field:
    key = normal(name)
    if key in ALIASES:
        return ALIASES[key]
    if key in ROLES:
        return Field(key)
    close = difflib.get_close_matches(key, list(ALIASES), n=1, cutoff=0.75)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(
        f"{where}: {name!r} is not a column vtsmodel knows{hint} (time, end, volume, cartridge, size or "
        "bytes, access, duration, or a name such as timestamp, tape, file, op: vtsmodel.logs.ALIASES)"
    )


def layout(header: list[str] | None, spec, nfirst: int, *, ragged: bool, where: str, line: int = 0) -> Layout:
    """Resolve the roles' columns from a header, a ``columns=`` spec, or both.

    Parameters
    ----------
    header : list of str or None
        The header line's fields, when the log has one.
    spec : str, list, dict or None
        ``columns=``: positions count from 1.
    nfirst : int
        Fields on the first data line (the header's count when there is one).
    ragged : bool
        Lines may have more fields than the columns used.
    where : str
        Names the file and line for messages.
    """
    roles: dict[str, tuple[list[int], Field]] = {}
    names: dict[str, list[str]] = {}
    ignored: list[str] = []

    def put(name: str, idx: int, label: str):
        f = _field_of(name, where)
        if f.role in roles:
            prev = roles[f.role]
            if f.role != "time" or prev[1] != f:
                raise ValueError(
                    f"{where}: two {f.role} columns ({', '.join(names[f.role])} and {label}); name one "
                    "with columns=, e.g. columns='time=1,volume=2'"
                )
            prev[0].append(idx)  # date and time of day in two columns
            names[f.role].append(label)
            return
        roles[f.role] = ([idx], f)
        names[f.role] = [label]

    if spec is None:
        if header is None:
            raise ValueError(
                f"{where}: no header line; say what each column holds, by position from 1: "
                "columns='time,volume,bytes,access' (--columns), or columns='time=1,tape=3', or give a "
                "format (format='xferlog')"
            )
        lowered = [normal(h) for h in header]
        for i, h in enumerate(header):
            key = lowered[i]
            if key in ALIASES or key in ROLES:
                put(h, i, h.strip())
                continue
            close = difflib.get_close_matches(key, [*ALIASES, *ROLES], n=1, cutoff=0.85)
            role_taken = close and (ALIASES.get(close[0]) or Field(close[0])).role in [
                (ALIASES.get(k) or Field(k)).role for k in lowered if k in ALIASES or k in ROLES
            ]
            if close and not role_taken:
                raise ValueError(
                    f"{where}: header column {h.strip()!r} is not known; did you mean {close[0]!r}? "
                    "(or say what each column holds with columns=)"
                )
            ignored.append(h.strip() or f"field {i + 1} (no name)")
    else:
        hmap = {normal(h): i for i, h in enumerate(header)} if header is not None else {}
        for name, wheres in _spec_items(spec):
            for w in wheres:
                if isinstance(w, int):
                    if w < 0:
                        raise ValueError(f"{where}: column positions count from 1 (columns={spec!r})")
                    put(name, w, f"field {w + 1}")
                else:
                    if normal(w) not in hmap:
                        have = ", ".join(header) if header is not None else "none: the log has no header"
                        raise ValueError(
                            f"{where}: columns={spec!r} names {w!r}, not a header column ({have})"
                        )
                    put(name, hmap[normal(w)], w)
    if "time" not in roles:
        if "end" in roles:
            roles["time"], names["time"] = roles.pop("end"), names.pop("end")
            roles["time"] = (roles["time"][0], Field("time", form=roles["time"][1].form))
            roles["_end_only"] = ([], Field("end"))
        else:
            raise ValueError(
                f"{where}: no time column ({_found(names)}); the reader needs the time of each line"
            )
    if "volume" not in roles and "cartridge" not in roles:
        raise ValueError(
            f"{where}: no column names the object or the tape of each line ({_found(names)}): a volume, "
            "file, path, id, or a cartridge, tape, vid column"
        )
    used = [i for idx, _ in roles.values() for i in idx]
    need = max(used) + 1 if used else 0
    if need > nfirst and not ragged:
        raise ValueError(f"{where}: the columns name field {need}, but the line has {nfirst} fields")
    counted = f"the header (line {line}) names" if header is not None else f"the first line (line {line}) has"
    return Layout(roles, None if ragged else nfirst, need, tuple(ignored), names, counted)


def _found(names: dict) -> str:
    if not names:
        return "none recognised"
    return "found " + ", ".join(f"{r}: {', '.join(v)}" for r, v in names.items())


# --------------------------------------------------------------------------------------
# Delimiters and fields
# --------------------------------------------------------------------------------------
#: Delimiters tried, in order of preference on a tie; None is runs of spaces or tabs.
DELIMITERS = ("\t", ";", "|", ",", None)
DELIMITER_NAMES = {"\t": "tab", ";": "semicolon", "|": "bar", ",": "comma", None: "space"}
#: The unit separator: the delimiter of rows the reader makes itself (JSON Lines' values), split
#: as they are, without CSV's quotes (a value may begin with a quote, or hold a line end).
UNQUOTED = "\x1f"


#: Characters that group a number's digits in threes: spaces (plain, no-break, narrow, thin) and
#: apostrophes (Swiss); a comma too in a comma-separated log, where it cannot be the decimal mark.
_GROUPS = " \u00a0\u202f\u2009'\u2019"


def _grouped(decimal: str, groups: str) -> re.Pattern:
    g = re.escape(groups)
    return re.compile(rf"([+-]?\d{{1,3}})([{g}])(\d{{3}}(?:\2\d{{3}})*)(?:[{re.escape(decimal)}](\d+))?$")


_GROUPED = {True: _grouped(".,", _GROUPS), False: _grouped(".", _GROUPS + ",")}


def plain_number(value: str, *, decimal_comma: bool) -> str:
    """``value`` as Python's ``float`` reads it: digits grouped in threes joined, a decimal comma a point.

    ``1,234,567`` (in a comma-separated log, ``decimal_comma=False``), ``1 234 567,5`` and
    ``1'234'567`` as spreadsheets write them. Groups of other than three digits, or a point
    between groups (``1.234.567``: ``1.234`` alone would be a thousand or a fraction), are
    left as they are, for the caller's error.
    """
    v = value.strip()
    m = _GROUPED[decimal_comma].match(v)
    if m:
        v = m[1] + m[3].replace(m[2], "") + (f".{m[4]}" if m[4] else "")
    return v.replace(",", ".") if decimal_comma else v


def split_one(line: str, delimiter: str | None) -> list[str]:
    """The fields of one line (quotes honoured for a one-character delimiter)."""
    line = line.rstrip("\r\n")
    if delimiter is None:
        return line.split()
    if '"' not in line or delimiter == UNQUOTED:
        return line.split(delimiter)
    return next(csv.reader([line], delimiter=delimiter))


def detect_delimiter(lines: list[str]) -> str | None:
    """The delimiter that splits most sample lines into one number (>= 2) of fields.

    A candidate counts when at least half the lines split into its most common count
    (a bad line among the first is then named by the reader, not taken for another
    format). One that splits every line (the header too) into that count wins over one
    that splits only some (a comma-separated log whose ids hold semicolons, ``a;;;b``);
    among those, the largest count wins (a semicolon log with decimal commas), on a tie
    the order of :data:`DELIMITERS`. Runs of spaces only when no one character fits.
    """
    best, best_key = None, (False, 0)
    for d in DELIMITERS:
        if d is None and best_key[1]:
            break
        try:
            counts = [len(split_one(line, d)) for line in lines]
        except csv.Error:
            continue
        values, freq = np.unique(counts, return_counts=True)
        n = int(values[np.argmax(freq)])
        key = (bool(freq.max() == len(lines)), n)
        if n >= 2 and freq.max() >= 0.5 * len(lines) and key > best_key:
            best, best_key = d, key
    if not best_key[1]:
        raise ValueError(
            "cannot tell the delimiter: no one of tab, ';', '|', ',' or spaces splits the first lines into "
            "the same number of fields; give it (delimiter=';', --delimiter ';')"
        )
    return best


def padded(lines: list[str], delimiter: str | None) -> bool:
    """Whether a field of these lines may have spaces at its ends (to be stripped)."""
    if delimiter is None:
        return False  # runs of spaces are the delimiter
    return any(" " in line or "\t" in line or "\r" in line for line in lines)


_WS_EDGES = re.compile(r"(?m)^[ \t]+|[ \t]+$")
_WS_RUNS = re.compile(r"[ \t]+")


def split_block(text: str, lines: list[str], delimiter: str | None, lay: Layout, numbers, where):
    """Columns (lists of str, one per role column used) of a block of data lines.

    ``text`` is the lines joined by line feeds; ``numbers`` their line numbers. A line with the
    wrong number of fields is an error naming it.
    """
    n = len(lines)
    if n == 0:
        return {j: [] for j in _used(lay)}
    if delimiter is None:
        text = _WS_RUNS.sub("\t", _WS_EDGES.sub("", text.replace("\r", "")))
        d = "\t"
    else:
        d = delimiter
        if "\r" in text and '"' not in text:
            text = text.replace("\r\n", "\n")
    if lay.ncols is not None and (delimiter in (None, UNQUOTED) or '"' not in text):
        # one split for the whole block, after checking each line's count of delimiters
        data = np.frombuffer(text.encode("utf-8") + b"\n", dtype=np.uint8)
        cuts = np.searchsorted(np.flatnonzero(data == ord(d)), np.flatnonzero(data == 10))
        per_line = np.diff(cuts, prepend=0)
        if per_line.size == n and np.all(per_line == lay.ncols - 1):
            flat = text.replace("\n", d).split(d)
            return {j: flat[j :: lay.ncols] for j in _used(lay)}
    rows = []
    for i, line in enumerate(text.split("\n") if delimiter is None else lines):
        cells = split_one(line, d if delimiter is None else delimiter)
        if (lay.ncols is not None and len(cells) != lay.ncols) or len(cells) < lay.need:
            want = f"{lay.counted} {lay.ncols}" if lay.ncols is not None else f"the columns need {lay.need}"
            raise ValueError(f"{where}, line {numbers[i]}: {len(cells)} fields, but {want}")
        rows.append(cells)
    return {j: [r[j] for r in rows] for j in _used(lay)}


def _used(lay: Layout) -> list[int]:
    return sorted({i for idx, _ in lay.roles.values() for i in idx})
