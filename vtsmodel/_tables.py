"""The digitized source data: load, validate and cite (public face: :mod:`vtsmodel.data`).

Every number that came from a source document is a row of a CSV table in ``data/``
(shipped inside the wheel as ``vtsmodel/_data``), described by ``datapackage.json``.
Each row carries its source id, locator, kind of evidence, the value as printed, the
value in the project's units and, for text, the sentence it came from.

>>> from vtsmodel import data
>>> t4 = data.load("vts_ehpo_coefficients")
>>> t4.value(mode="sustained", coefficient="m", tvc_gb=1152)
6.23

Run ``python -m vtsmodel.data check`` to validate every table.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vtsmodel._validation import UnknownName, cached

__all__ = [
    "COMMON_FIELDS",
    "UNITS",
    "DataError",
    "LEDGER",
    "STATUSES",
    "Provenance",
    "Table",
    "SOURCE_GROUPS",
    "cite",
    "check_sources",
    "cites",
    "data_dir",
    "load",
    "references",
    "sources",
    "statement_counts",
    "statement_status",
    "statements",
    "statements_for",
    "tables",
]

#: Columns every table has, in the order they follow the table's own columns.
COMMON_FIELDS = ("source", "locator", "kind", "printed", "value", "unit", "quote", "note")
#: Units a row's ``value`` may carry.
UNITS = frozenset(
    {
        "MB/s", "MB", "GB", "TB", "KB", "s", "ms", "min", "h", "1", "1/km", "km",
        "min/MB", "min/mount", "min/search", "IO/s", "count", "moves/h", "GB/s",
    }
)  # fmt: skip


class DataError(ValueError):
    """A data file is malformed; the message names the file, the row and the field."""


def data_dir() -> Path:
    """Return the folder holding ``datapackage.json`` and the CSV tables.

    An installed wheel carries the data as ``vtsmodel/_data``; a source checkout (or an
    editable install) reads the repository's ``data/`` folder.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "_data", here.parent / "data"):
        if (candidate / "datapackage.json").is_file():
            return candidate
    raise DataError(
        f"no datapackage.json found in {here / '_data'} or {here.parent / 'data'}; reinstall vtsmodel"
    )


@dataclass(frozen=True)
class Provenance:
    """Where one row's number came from."""

    table: str
    id: str
    source: str
    locator: str
    kind: str
    printed: str
    value: float
    unit: str
    quote: str = ""
    note: str = ""

    def __str__(self) -> str:
        printed = f' ("{self.printed}")' if self.printed else ""
        return f"{self.source}, {self.locator}{printed}"


@dataclass(frozen=True)
class Field:
    """A column of a table, as ``datapackage.json`` describes it."""

    name: str
    type: str
    description: str = ""
    unit: str = ""
    required: bool = False
    unique: bool = False
    enum: tuple = ()
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None


@dataclass(frozen=True, eq=False)
class Table:
    """A loaded table: columns as read-only numpy arrays, units, provenance per row.

    Numeric columns are float arrays (integer columns int64, boolean columns bool);
    text columns are arrays of Python strings.
    """

    name: str
    title: str
    path: Path
    fields: tuple[Field, ...]
    columns: Mapping[str, np.ndarray] = field(repr=False)
    description: str = ""

    def __len__(self) -> int:
        return len(self.columns["id"])

    def __getitem__(self, column: str) -> np.ndarray:
        try:
            return self.columns[column]
        except KeyError:
            raise KeyError(
                f"table {self.name!r} has no column {column!r}; columns: {', '.join(self.columns)}"
            ) from None

    def __iter__(self) -> Iterator[dict]:
        return iter(self.records())

    @property
    def column_names(self) -> tuple[str, ...]:
        """Column names in file order."""
        return tuple(f.name for f in self.fields)

    @property
    def units(self) -> dict[str, str]:
        """Unit of each column that has one (``value`` varies by row: see ``unit``)."""
        return {f.name: f.unit for f in self.fields if f.unit}

    @property
    def sources(self) -> tuple[str, ...]:
        """Source ids this table cites, sorted."""
        return tuple(sorted(set(self.columns["source"])))

    def records(self) -> list[dict]:
        """The rows as dictionaries of Python values."""
        names = self.column_names
        return [
            {n: self.columns[n][i].item() if hasattr(self.columns[n][i], "item") else self.columns[n][i]
             for n in names}
            for i in range(len(self))
        ]  # fmt: skip

    def _mask(self, conditions: dict) -> np.ndarray:
        """Rows whose columns equal the given values (floats compared to 1e-12)."""
        mask = np.ones(len(self), dtype=bool)
        for key, want in conditions.items():
            col = self[key]
            if col.dtype.kind == "f":
                mask &= np.isclose(col, float(want), rtol=1e-12, atol=0.0)
            else:
                mask &= col == want
        return mask

    def _index(self, id: str | None, where: dict) -> int:
        hits = np.flatnonzero(self._mask(where if id is None else {"id": id, **where}))
        cond = ", ".join([f"id={id!r}"] * (id is not None) + [f"{k}={v!r}" for k, v in where.items()])
        if hits.size == 0:
            hint = ""
            if id is not None:
                hint = f"; ids: {', '.join(self.columns['id'][:40])}"
            raise KeyError(f"table {self.name!r} has no row with {cond}{hint}")
        if hits.size > 1:
            raise KeyError(
                f"table {self.name!r} has {hits.size} rows with {cond}: "
                f"{', '.join(self.columns['id'][hits])}; be more specific"
            )
        return int(hits[0])

    def value(self, id: str | None = None, /, **where) -> float:
        """The ``value`` of the one row matching ``id`` and/or column conditions."""
        return float(self.columns["value"][self._index(id, where)])

    def provenance(self, id: str | None = None, /, **where) -> Provenance:
        """Provenance of the one row matching ``id`` and/or column conditions."""
        i = self._index(id, where)
        c = self.columns
        return Provenance(
            table=self.name,
            id=str(c["id"][i]),
            source=str(c["source"][i]),
            locator=str(c["locator"][i]),
            kind=str(c["kind"][i]),
            printed=str(c["printed"][i]),
            value=float(c["value"][i]),
            unit=str(c["unit"][i]),
            quote=str(c["quote"][i]),
            note=str(c["note"][i]),
        )

    def where(self, **conditions) -> Table:
        """A new table with the rows whose columns equal the given values."""
        mask = self._mask(conditions)
        cols = {k: _readonly(v[mask]) for k, v in self.columns.items()}
        return Table(self.name, self.title, self.path, self.fields, cols, self.description)

    def cite(self) -> str:
        """Formatted references for this table's sources."""
        return cite(self.name)


def _readonly(arr: np.ndarray) -> np.ndarray:
    arr = np.array(arr, copy=True)
    arr.flags.writeable = False
    return arr


def _text(path: Path, what: str) -> io.StringIO:
    """A data file's text; ``DataError`` naming the line and byte offset of a byte not UTF-8."""
    from vtsmodel._files import decode_utf8

    try:
        return io.StringIO(decode_utf8(path.read_bytes(), str(path), what=what), newline="")
    except ValueError as exc:
        raise DataError(str(exc)) from None


@functools.lru_cache(maxsize=1)
def _package() -> dict:
    path = data_dir() / "datapackage.json"
    try:
        pkg = json.load(_text(path, "data package"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(pkg, dict) or not isinstance(pkg.get("resources"), list):
        raise DataError(f"{path}: no 'resources' list")
    if not isinstance(pkg.get("sources"), list):
        raise DataError(f"{path}: no 'sources' list")
    if not isinstance(pkg.get("supplementarySources", []), list):
        raise DataError(f"{path}: 'supplementarySources' is not a list")
    return pkg


#: Source groups: the five founding documents and the public documents added later.
SOURCE_GROUPS = ("founding", "supplementary")
#: What a supplementary source record must give (datapackage ``supplementarySources``).
SUPPLEMENTARY_FIELDS = ("name", "title", "publisher", "date", "url", "accessed", "supplied", "citation")
_DATE = re.compile(r"(\d{4})(-\d{2}(-\d{2})?)?|undated")


def sources(group: str | None = None) -> dict[str, dict]:
    """The source documents by id: title, author or publisher, date and full citation.

    Each record carries ``group``: ``"founding"`` for the five documents the project was
    built on (their texts in ``shared/sources``), ``"supplementary"`` for the public
    documents added later (datapackage ``supplementarySources``: each with its URL, the
    date it was read and what it supplied).

    Parameters
    ----------
    group : {"founding", "supplementary"}, optional
        Only that group; default both, founding first.
    """
    if group is not None and group not in SOURCE_GROUPS:
        raise ValueError(f"group={group!r} is not valid; choose one of {', '.join(map(repr, SOURCE_GROUPS))}")
    pkg = _package()
    out = {}
    for g, key in zip(SOURCE_GROUPS, ("sources", "supplementarySources"), strict=True):
        if group in (None, g):
            out.update({s["name"]: {**s, "group": g} for s in pkg.get(key, [])})
    return out


def check_sources() -> list[str]:
    """Problems with the source records (empty when all is well).

    A supplementary source cannot be checked against a local text, so its record is:
    every field of :data:`SUPPLEMENTARY_FIELDS` present and non-empty, ``url`` an
    http(s) address (a host name, not a bare IP address), ``date`` ``YYYY``, ``YYYY-MM``,
    ``YYYY-MM-DD`` or ``undated``, ``accessed`` ``YYYY-MM-DD``, a ``citation`` that ends as
    a reference list cites a web page (``<url>. Accessed 23 November 2026.``), and no id
    shared with another source.
    """
    pkg = _package()
    problems = []
    names = [s.get("name") for s in pkg["sources"]] + [
        s.get("name") for s in pkg.get("supplementarySources", [])
    ]
    for n in sorted({n for n in names if names.count(n) > 1}, key=str):
        problems.append(f"source id {n!r} is listed more than once")
    for i, s in enumerate(pkg.get("supplementarySources", [])):
        where = f"supplementarySources[{i}] ({s.get('name', '?')!r})"
        for f in SUPPLEMENTARY_FIELDS:
            if not isinstance(s.get(f), str) or not s[f].strip():
                problems.append(f"{where}: field {f!r} missing or empty")
        if not re.fullmatch(r"https?://\S+", str(s.get("url", ""))):
            problems.append(f"{where}: url {s.get('url')!r} is not an http(s) address")
        if not _DATE.fullmatch(str(s.get("date", ""))):
            problems.append(f"{where}: date {s.get('date')!r} is not YYYY, YYYY-MM, YYYY-MM-DD or 'undated'")
        try:
            accessed = datetime.date.fromisoformat(str(s.get("accessed", "")))
        except ValueError:
            problems.append(f"{where}: accessed {s.get('accessed')!r} is not YYYY-MM-DD")
            continue
        if re.match(r"https?://[\d.]+(:\d+)?/", str(s.get("url", ""))):
            problems.append(
                f"{where}: url {s['url']!r} is a bare IP address, not a publisher's or mirror's name"
            )
        ending = f"{s.get('url')}. Accessed {accessed.day} {accessed:%B %Y}."
        if not str(s.get("citation", "")).endswith(ending):
            problems.append(f"{where}: citation must end with the URL and the access date: {ending!r}")
    return problems


def tables() -> tuple[str, ...]:
    """Names of every data table in the data package (the statement ledger is not one)."""
    return tuple(r["name"] for r in _package()["resources"] if not _is_ledger(r))


def _resource(name: str) -> dict:
    for res in _package()["resources"]:
        if res.get("name") == name:
            return res
    shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
    raise UnknownName(f"no table named {shown}; tables: {', '.join(tables())}")


def _parse_fields(res: dict, where: str) -> tuple[Field, ...]:
    try:
        raw = res["schema"]["fields"]
    except (KeyError, TypeError):
        raise DataError(f"{where}: resource {res.get('name')!r} has no schema.fields") from None
    out = []
    for f in raw:
        cons = f.get("constraints", {})
        out.append(
            Field(
                name=f["name"],
                type=f.get("type", "string"),
                description=f.get("description", ""),
                unit=f.get("unit", ""),
                required=bool(cons.get("required", False)),
                unique=bool(cons.get("unique", False)),
                enum=tuple(cons.get("enum", ())),
                minimum=cons.get("minimum"),
                maximum=cons.get("maximum"),
                exclusive_minimum=cons.get("exclusiveMinimum"),
                exclusive_maximum=cons.get("exclusiveMaximum"),
            )
        )
    names = [f.name for f in out]
    expected_tail = list(COMMON_FIELDS)
    if names[:1] != ["id"] or names[-len(expected_tail) :] != expected_tail:
        raise DataError(
            f"{where}: resource {res['name']!r} must have fields id, <its own columns>, "
            f"{', '.join(COMMON_FIELDS)}; has {', '.join(names)}"
        )
    return tuple(out)


#: How a number is written in a data file: digits, an optional point and exponent. Python's
#: ``float`` also takes ``1_000``, ``" 5"``, ``inf`` and ``nan``; a data file may not.
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_INTEGER = re.compile(r"[+-]?\d+")


def _check_bounds(val: float, fld: Field, where: str) -> None:
    """The field's datapackage constraints ``minimum``, ``exclusiveMinimum``, ... (if any)."""
    for bound, bad, words in (
        (fld.minimum, lambda b: val < b, "below the minimum"),
        (fld.exclusive_minimum, lambda b: val <= b, "not above the exclusive minimum"),
        (fld.maximum, lambda b: val > b, "above the maximum"),
        (fld.exclusive_maximum, lambda b: val >= b, "not below the exclusive maximum"),
    ):
        if bound is not None and bad(bound):
            raise DataError(
                f"{where}, field {fld.name!r}: {val:g} is {words} {bound:g} (datapackage.json constraints); "
                "this quantity cannot take it"
            )


def _convert(text: str, fld: Field, where: str):
    if fld.type == "number":
        if not _NUMBER.fullmatch(text):
            raise DataError(
                f"{where}, field {fld.name!r}: {text!r} is not a number as a data file writes one "
                "(digits, an optional point and exponent: no spaces, underscores, inf or nan)"
            )
        val = float(text)
        if not math.isfinite(val):
            raise DataError(f"{where}, field {fld.name!r}: {text!r} is not a finite number")
        _check_bounds(val, fld, where)
        return val
    if fld.type == "integer":
        if not _INTEGER.fullmatch(text):
            raise DataError(f"{where}, field {fld.name!r}: {text!r} is not an integer (digits only)")
        val = int(text)
        _check_bounds(val, fld, where)
        return val
    if fld.type == "boolean":
        low = text.strip().lower()
        if low in ("true", "1", "yes"):
            return True
        if low in ("false", "0", "no", ""):
            return False
        raise DataError(f"{where}, field {fld.name!r}: {text!r} is not true or false")
    return text


def _missing(fld: Field):
    return {"number": math.nan, "integer": -1, "boolean": False}.get(fld.type, "")


@cached
def load(name: str) -> Table:
    """Load and validate one table by name.

    Parameters
    ----------
    name : str
        A table name, one of :func:`tables`.

    Returns
    -------
    Table

    Raises
    ------
    KeyError
        For an unknown name (the message lists the known ones).
    DataError
        For a malformed file: the message names the file, the row and the field.
    """
    res = _resource(name)
    if _is_ledger(res):
        raise UnknownName(f"{name!r} is the statement ledger, not a data table: use statements()")
    path = data_dir() / res.get("path", f"{name}.csv")
    fields = _parse_fields(res, str(path))
    known_sources = set(sources())
    supplementary = set(sources("supplementary"))
    names = [f.name for f in fields]
    values: dict[str, list] = {n: [] for n in names}
    try:
        fh = _text(path, "data table")
    except FileNotFoundError:
        raise DataError(f"{path}: file not found (table {name!r} in datapackage.json)") from None
    with fh:
        reader = csv.reader(fh, strict=True)
        try:
            header = next(reader, None)
            if header is None:
                raise DataError(f"{path}: file is empty; expected header {','.join(names)}")
            if header != names:
                raise DataError(
                    f"{path}, row 1 (header): columns {','.join(header)} do not match the "
                    f"schema {','.join(names)}"
                )
            seen: set[str] = set()
            folded: dict[str, str] = {}
            for lineno, row in enumerate(reader, start=2):
                if not row or all(not c.strip() for c in row):
                    continue
                rid = row[0] if row else ""
                where = f"{path}, row {lineno} (id {rid!r})"
                if len(row) != len(names):
                    raise DataError(f"{where}: {len(row)} fields, expected {len(names)}")
                rec = dict(zip(names, row, strict=True))
                for fld in fields:
                    text = rec[fld.name]
                    if not text.strip():
                        if fld.required:
                            blank = "empty" if text == "" else "only whitespace"
                            raise DataError(f"{where}, field {fld.name!r}: {blank} but required")
                        values[fld.name].append(_missing(fld))
                        continue
                    if fld.enum and text not in fld.enum:
                        raise DataError(
                            f"{where}, field {fld.name!r}: {text!r} is not one of {', '.join(fld.enum)}"
                        )
                    values[fld.name].append(_convert(text, fld, where))
                if rid in seen:
                    raise DataError(f"{where}, field 'id': duplicate id {rid!r}")
                if rid.casefold() in folded:
                    raise DataError(
                        f"{where}, field 'id': id {rid!r} differs only in case from {folded[rid.casefold()]!r}; "
                        "ids must differ in more than case"
                    )
                seen.add(rid)
                folded[rid.casefold()] = rid
                if rec["source"] not in known_sources:
                    raise DataError(
                        f"{where}, field 'source': unknown source id {rec['source']!r}; "
                        f"known: {', '.join(sorted(known_sources))}"
                    )
                if rec["unit"] not in UNITS:
                    raise DataError(
                        f"{where}, field 'unit': unknown unit {rec['unit']!r}; "
                        f"known: {', '.join(sorted(UNITS))}"
                    )
                if rec["kind"] in ("text", "derived") and not rec["quote"].strip():
                    raise DataError(f"{where}, field 'quote': a {rec['kind']} row needs its sentence")
                if rec["kind"] == "derived" and not rec["note"].strip():
                    raise DataError(f"{where}, field 'note': a derived row must say how")
                if rec["source"] in supplementary and not rec["quote"].strip():
                    raise DataError(
                        f"{where}, field 'quote': a row citing a supplementary source needs the "
                        "text it was read from (no local copy exists to check it against)"
                    )
        except csv.Error as exc:
            raise DataError(f"{path}, row {reader.line_num}: {exc}") from None
    if not values["id"]:
        raise DataError(f"{path}: no rows")
    cols = {}
    for fld in fields:
        vals = values[fld.name]
        if fld.type == "number":
            arr = np.array(vals, dtype=float)
        elif fld.type == "integer":
            arr = np.array(vals, dtype=np.int64)
        elif fld.type == "boolean":
            arr = np.array(vals, dtype=bool)
        else:
            arr = np.empty(len(vals), dtype=object)
            arr[:] = vals
        cols[fld.name] = _readonly(arr)
    return Table(
        name=name,
        title=res.get("title", name),
        path=path,
        fields=fields,
        columns=cols,
        description=res.get("description", ""),
    )


def cites(*names: str):
    """Decorate a model function with the tables or source ids it draws on.

    :func:`cite` then formats the references for the function.
    """

    def mark(func):
        func.__vtsmodel_cites__ = tuple(names)
        return func

    return mark


def _source_ids(items: Iterable) -> list[str]:
    known = sources()
    table_names = set(tables())
    out: list[str] = []
    for item in items:
        if isinstance(item, str):
            if item in known:
                ids = [item]
            elif item in table_names:
                ids = list(load(item).sources)
            else:
                raise UnknownName(
                    f"{item!r} is neither a table nor a source id; tables: "
                    f"{', '.join(sorted(table_names))}; sources: {', '.join(known)}"
                )
        elif hasattr(item, "__vtsmodel_cites__"):
            ids = _source_ids(item.__vtsmodel_cites__)
        elif isinstance(item, Table):
            ids = list(item.sources)
        else:
            raise ValueError(f"cannot cite {item!r}: give a table name, source id or model function")
        out.extend(i for i in ids if i not in out)
    return out


def references(*items) -> list[dict]:
    """The source records for the given tables, source ids or model functions.

    With no argument, every source.
    """
    known = sources()
    ids = _source_ids(items) if items else list(known)
    return [known[i] for i in ids]


def cite(*items) -> str:
    """Formatted references for the given tables, source ids or model functions.

    With no argument, every source of the data package. One reference per line,
    ``[id] full citation``.

    >>> print(cite("cern-tape-sizing-2005"))  # doctest: +ELLIPSIS
    [cern-tape-sizing-2005] Panzer-Steindel, B. Some calculations ...
    """
    return "\n".join(f"[{s['name']}] {s['citation']}" for s in references(*items))


def check() -> list[str]:
    """Check the source records and load every table; return the problems (empty when well)."""
    problems = check_sources()
    for name in tables():
        try:
            load(name)
        except (DataError, KeyError) as exc:
            problems.append(str(exc))
    if not problems and any(_is_ledger(r) for r in _package()["resources"]):
        try:
            _ledger()
        except (DataError, KeyError) as exc:
            problems.append(str(exc))
    return problems


def catalogue() -> list[dict]:
    """Every row of every table, with its table name: the data catalogue.

    Each dict has ``table``, ``id``, ``source``, ``locator``, ``kind``, ``printed``,
    ``value``, ``unit``, ``quote`` and ``note``.
    """
    rows = []
    for name in tables():
        t = load(name)
        c = t.columns
        for i in range(len(t)):
            rows.append(
                {
                    "table": name,
                    "id": str(c["id"][i]),
                    "source": str(c["source"][i]),
                    "locator": str(c["locator"][i]),
                    "kind": str(c["kind"][i]),
                    "printed": str(c["printed"][i]),
                    "value": float(c["value"][i]),
                    "unit": str(c["unit"][i]),
                    "quote": str(c["quote"][i]),
                    "note": str(c["note"][i]),
                }
            )
    return rows


def filter_catalogue(
    rows: Iterable[dict], text: str = "", *, source: str | None = None, table: str | None = None
) -> list[dict]:
    """Rows whose id, locator, printed value, quote or note contain every word of ``text``.

    Matching ignores case; ``source`` and ``table`` restrict to one source id or table.
    """
    words = text.lower().split()
    out = []
    for r in rows:
        if source and r["source"] != source:
            continue
        if table and r["table"] != table:
            continue
        hay = " ".join((r["table"], r["id"], r["locator"], r["printed"], r["quote"], r["note"])).lower()
        if all(w in hay for w in words):
            out.append(r)
    return out


# --------------------------------------------------------------------------------------
# The statement ledger (data/statements.csv)
# --------------------------------------------------------------------------------------
#: The ledger's resource name in datapackage.json (``vtsmodel_role``: ``ledger``).
LEDGER = "statements"
#: Statuses of a ledger row, from evidence to disagreement.
STATUSES = ("reproduced", "calibrated", "by-construction", "data-only", "contradicted", "source-inconsistent")
#: Which status a data row shows when several statements link it: the most cautious.
_PRECEDENCE = (
    "contradicted", "source-inconsistent", "calibrated", "by-construction", "reproduced", "data-only",
)  # fmt: skip
_LEDGER_NUMBERS = ("expected", "tolerance", "computed")


def _is_ledger(res: dict) -> bool:
    return res.get("vtsmodel_role") == "ledger"


@functools.lru_cache(maxsize=1)
def _ledger() -> tuple[dict, ...]:
    res = _resource(LEDGER)
    path = data_dir() / res.get("path", f"{LEDGER}.csv")
    fields = res["schema"]["fields"]
    names = [f["name"] for f in fields]
    known_rows = {f"{t}:{i}" for t in tables() for i in load(t)["id"]}
    known_sources = set(sources("founding"))  # the ledger covers the five founding documents
    rows, seen = [], set()
    try:
        fh = _text(path, "statement ledger")
    except FileNotFoundError:
        raise DataError(f"{path}: file not found (the statement ledger in datapackage.json)") from None
    with fh:
        reader = csv.reader(fh, strict=True)
        try:
            header = next(reader, None)
            if header != names:
                raise DataError(f"{path}, row 1 (header): columns {header} do not match the schema {names}")
            for lineno, raw in enumerate(reader, start=2):
                if not raw or all(not c.strip() for c in raw):
                    continue
                where = f"{path}, row {lineno} (id {raw[0]!r})"
                if len(raw) != len(names):
                    raise DataError(f"{where}: {len(raw)} fields, expected {len(names)}")
                rec = dict(zip(names, raw, strict=True))
                for fld in fields:
                    cons = fld.get("constraints", {})
                    text = rec[fld["name"]]
                    if cons.get("required") and not text.strip():
                        raise DataError(f"{where}, field {fld['name']!r}: empty but required")
                    if text and cons.get("enum") and text not in cons["enum"]:
                        raise DataError(
                            f"{where}, field {fld['name']!r}: {text!r} is not one of {', '.join(cons['enum'])}"
                        )
                out: dict = dict(rec)
                for name in _LEDGER_NUMBERS:
                    out[name] = None if rec[name] == "" else _convert(rec[name], Field(name, "number"), where)
                out["data_rows"] = tuple(rec["data_rows"].split())
                if rec["id"] in seen:
                    raise DataError(f"{where}, field 'id': duplicate id {rec['id']!r}")
                seen.add(rec["id"])
                if rec["source"] not in known_sources:
                    raise DataError(f"{where}, field 'source': unknown source id {rec['source']!r}")
                for ref in out["data_rows"]:
                    if ref not in known_rows:
                        raise DataError(f"{where}, field 'data_rows': no data row {ref!r} (table:id)")
                if rec["unit"] and rec["unit"] not in UNITS:
                    raise DataError(f"{where}, field 'unit': unknown unit {rec['unit']!r}")
                if rec["relation"] and rec["relation"] != "holds" and out["expected"] is None:
                    raise DataError(f"{where}, field 'expected': relation {rec['relation']!r} needs a value")
                if (rec["status"] == "data-only") == bool(rec["relation"]):
                    raise DataError(
                        f"{where}, field 'relation': a {rec['status']} row "
                        + ("checks nothing" if rec["status"] == "data-only" else "needs a check")
                    )
                rows.append(out)
        except csv.Error as exc:
            raise DataError(f"{path}, row {reader.line_num}: {exc}") from None
    return tuple(rows)


def statements(
    status: str | Iterable[str] | None = None, source: str | None = None, text: str = ""
) -> list[dict]:
    """Rows of the statement ledger, optionally filtered.

    Parameters
    ----------
    status : str or iterable of str, optional
        Keep only these statuses (:data:`STATUSES`).
    source : str, optional
        Keep only this source id.
    text : str
        Keep rows whose id, locator, quote, claim, model or note contain every word
        (case ignored).

    Returns
    -------
    list of dict
        One dict per statement, in ledger order, with the ledger's columns; ``expected``,
        ``tolerance`` and ``computed`` are floats or None, ``data_rows`` a tuple of
        ``"table:id"``.

    Raises
    ------
    ValueError
        For an unknown status or source.
    """
    wanted = None
    if status is not None:
        wanted = {status} if isinstance(status, str) else set(status)
        bad = sorted(wanted - set(STATUSES))
        if bad:
            raise ValueError(f"status={bad[0]!r} is not valid; choose from {', '.join(STATUSES)}")
    founding = sources("founding")
    if source is not None and source not in founding:
        raise ValueError(f"source={source!r} is not valid; choose from {', '.join(founding)}")
    words = text.lower().split()
    out = []
    for r in _ledger():
        if wanted is not None and r["status"] not in wanted:
            continue
        if source is not None and r["source"] != source:
            continue
        hay = " ".join((r["id"], r["locator"], r["quote"], r["claim"], r["model"], r["note"])).lower()
        if all(w in hay for w in words):
            out.append(dict(r))
    return out


def statements_for(ref: str) -> list[dict]:
    """The ledger rows that link the data row ``ref`` (``"table:id"``), in ledger order."""
    _check_ref(ref)
    return [dict(r) for r in _ledger() if ref in r["data_rows"]]


def statement_status(ref: str) -> str | None:
    """The status to show beside the data row ``ref`` (``"table:id"``).

    Where several statements link the row, the most cautious status wins:
    contradicted, source-inconsistent, calibrated, by-construction, reproduced, data-only. ``None`` when
    no statement links it.
    """
    found = {r["status"] for r in statements_for(ref)}
    return next((s for s in _PRECEDENCE if s in found), None)


def statement_counts() -> dict[str, dict[str, int]]:
    """Number of ledger rows by founding source and status: ``{source: {status: n}}``."""
    counts = {s: dict.fromkeys(STATUSES, 0) for s in sources("founding")}
    for r in _ledger():
        counts[r["source"]][r["status"]] += 1
    return counts


def _check_ref(ref: str) -> None:
    table, sep, row_id = str(ref).partition(":")
    if not sep or table not in tables():
        raise UnknownName(f"{ref!r} is not a data row reference 'table:id'; tables: {', '.join(tables())}")
    load(table)._index(row_id, {})
