"""The scenario sheet of a lesson: named scenarios side by side, saved and loaded as JSON.

A :class:`ScenarioSheet` holds named scenarios for one lesson. Each scenario is a dict of
the lesson's inputs (its ``SCENARIO``, checked by their :class:`~vtsmodel.Input` in
``INPUTS``); the computed columns come from the lesson's
``scenario_outputs``. Every edit is checked before it is applied: a bad value raises
``ValueError`` naming the parameter, the value and the valid range, and the sheet keeps
its previous state.

Files are JSON with a schema name and version::

    {"schema": "vtsmodel-scenarios", "version": 1, "lesson": "04",
     "scenarios": [{"name": "base", "values": {"file_mb": 1000.0, ...}}, ...]}

Saving is atomic (:func:`vtsmodel.app.export.atomic_write`: a temporary file, then a
rename), so a failure never leaves a half-written file or destroys the previous one.
Loading checks the whole file (size, nesting, types, keys, lesson, names, finite values,
ranges) before anything changes; a bad file raises ``ValueError`` and the sheet stays as
it was. Cell text is converted with ``float``, never evaluated.

This module imports neither plotly nor ipywidgets; the widget is :mod:`vtsmodel.app.sheet`.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path

from vtsmodel import cite, number
from vtsmodel.app.export import csv_text
from vtsmodel.files import atomic_write, parse_json_bytes, read_file

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_SCENARIOS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "ScenarioSheet",
    "parse_scenario_bytes",
    "read_scenario_file",
]

#: The ``schema`` field of a scenario file.
SCHEMA = "vtsmodel-scenarios"
#: The version of the file format this module writes and reads.
SCHEMA_VERSION = 1
#: Largest scenario file read, in bytes (a sheet of 200 scenarios is far smaller).
MAX_FILE_BYTES = 1_000_000
#: Most scenarios one sheet holds.
MAX_SCENARIOS = 200
#: Longest scenario name, in characters.
MAX_NAME_LENGTH = 80

_FILE_KEYS = {"schema", "version", "lesson", "scenarios"}
_SCENARIO_KEYS = {"name", "values"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
NAME_COLUMN = "Scenario"


def _lesson_id(module) -> str:
    """A lesson module's number, its ``LESSON_ID`` (``"04"``)."""
    explicit = getattr(module, "LESSON_ID", None)
    if not isinstance(explicit, str):
        raise ValueError(f"lesson={module!r} is not a lesson module: it has no LESSON_ID")
    return explicit


def _check_lesson(module):
    """``module`` if it follows the lesson contract; ``ValueError`` otherwise (a lesson's number is not a module)."""
    if isinstance(module, str | int):
        raise ValueError(f"lesson={module!r} is a lesson's number; give its module "
                         "(vtsmodel.app.lessons.lesson_module(number) finds it)")  # fmt: skip
    _lesson_id(module)
    for attr in ("INPUTS", "SCENARIO", "scenario_outputs"):
        if not hasattr(module, attr):
            raise ValueError(f"lesson {_lesson_id(module)} has no {attr}: it does not follow the contract")
    return module


def _check_name(name, existing: list[str], *, what: str = "name") -> str:
    """A clean, unique scenario name, or ``ValueError``."""
    if not isinstance(name, str):
        raise ValueError(f"{what}={name!r} must be text")
    clean = name.strip()
    if not clean:
        raise ValueError(f"{what}={name!r} is empty; give the scenario a name")
    if len(clean) > MAX_NAME_LENGTH:
        raise ValueError(f"{what}={clean[:20]!r}… is {len(clean)} characters; at most {MAX_NAME_LENGTH}")
    if _CONTROL.search(clean):
        raise ValueError(f"{what}={clean!r} contains control characters")
    if clean in existing:
        raise ValueError(f"{what}={clean!r} is already used; scenario names must be unique")
    return clean


class ScenarioSheet:
    """Named scenarios of one lesson, their computed columns, and their file.

    Parameters
    ----------
    lesson : module
        The lesson's module (``vtsmodel.app.lessons.efficiency``); it must define
        ``LESSON_ID``, ``INPUTS``, ``SCENARIO`` and ``scenario_outputs``.
    scenarios : mapping of str to dict, optional
        Initial scenarios, name to inputs (missing inputs take their defaults). Default:
        one scenario, ``"scenario 1"``, at the lesson's defaults (not "base": that is a VTS model).

    Notes
    -----
    Rows are addressed by position (``0`` is the first) or by name.
    """

    def __init__(self, lesson, scenarios: Mapping[str, Mapping] | None = None) -> None:
        self.lesson = _check_lesson(lesson)
        self.lesson_id = _lesson_id(self.lesson)
        self.params = {k: self.lesson.INPUTS[k] for k in self.lesson.SCENARIO}
        self._names: list[str] = []
        self._values: list[dict] = []
        self._outputs: list[dict] = []
        self.notes: dict[str, list[str]] = {}
        if scenarios is None:
            scenarios = {"scenario 1": {}}
        if not scenarios:
            raise ValueError("scenarios is empty; a sheet holds at least one scenario")
        for name, values in scenarios.items():
            self.add(name, **dict(values))
        self.output_columns: tuple[str, ...] = tuple(self._outputs[0])

    # --- reading ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._names)

    @property
    def names(self) -> list[str]:
        """Scenario names, in row order."""
        return list(self._names)

    @property
    def headers(self) -> dict[str, str]:
        """Input key to column header with its unit, e.g. ``"file size [MB]"``."""
        return {k: p.header for k, p in self.params.items()}

    @property
    def columns(self) -> list[str]:
        """Every column header: the name, the inputs, then the computed columns."""
        return [NAME_COLUMN, *self.headers.values(), *self.output_columns]

    def row_index(self, row: int | str) -> int:
        """Position of ``row`` (a position or a name); ``ValueError`` if there is none."""
        if isinstance(row, str):
            if row not in self._names:
                raise ValueError(f"scenario={row!r} does not exist; scenarios: {', '.join(self._names)}")
            return self._names.index(row)
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < len(self._names):
            raise ValueError(f"row={row!r} is not valid; rows are 0 to {len(self._names) - 1}")
        return row

    def name(self, row: int | str) -> str:
        """The name of ``row``."""
        return self._names[self.row_index(row)]

    def values(self, row: int | str) -> dict:
        """A copy of the inputs of ``row``, by key."""
        return dict(self._values[self.row_index(row)])

    def outputs(self, row: int | str) -> dict[str, float]:
        """The computed columns of ``row``, by header."""
        return dict(self._outputs[self.row_index(row)])

    def scenarios(self) -> dict[str, dict]:
        """Every scenario: name to a copy of its inputs."""
        return {n: dict(v) for n, v in zip(self._names, self._values, strict=True)}

    def column_key(self, column: str) -> str:
        """The input key of ``column`` (a key or a header); ``ValueError`` otherwise."""
        if column in self.params:
            return column
        for k, h in self.headers.items():
            if h == column:
                return k
        if column in getattr(self, "output_columns", ()):
            raise ValueError(f"column {column!r} is computed from the inputs; it cannot be edited")
        raise ValueError(
            f"column={column!r} is not a column of this sheet; inputs: {', '.join(self.headers.values())}"
        )

    def cell(self, row: int | str, column: str):
        """The value shown in a cell (name, input or computed column)."""
        i = self.row_index(row)
        if column == NAME_COLUMN:
            return self._names[i]
        if column in self._outputs[i]:
            return self._outputs[i][column]
        return self._values[i][self.column_key(column)]

    def rows(self) -> list[dict]:
        """The sheet as rows: name, inputs by header, computed columns (for CSV and the table)."""
        out = []
        for name, vals, outs in zip(self._names, self._values, self._outputs, strict=True):
            row = {NAME_COLUMN: name}
            row.update({self.params[k].header: v for k, v in vals.items()})
            row.update(outs)
            out.append(row)
        return out

    # --- checking ------------------------------------------------------------------------------
    def coerce(self, key: str, value, *, text: bool = True):
        """``value`` converted for input ``key`` by its declaration (text parsed, never evaluated).

        With ``text=False`` (files), a number column takes only numbers, not text.
        """
        p = self.params[key]
        if isinstance(value, str) and not text and p.kind in ("number", "int"):
            raise ValueError(f"{key}={value!r} must be a number in {p.range_text()}, not text")
        return p.parse(key, value)

    def _complete(self, values: Mapping, *, text: bool = True) -> dict:
        """All inputs: ``values`` checked, the rest at their defaults."""
        unknown = [k for k in values if k not in self.params]
        if unknown:
            raise ValueError(
                f"unknown input(s) {', '.join(map(repr, unknown))}; inputs: {', '.join(self.params)}"
            )
        out = {}
        for k, p in self.params.items():
            out[k] = self.coerce(k, values[k], text=text) if k in values else p.default
        return out

    def _compute(self, name: str, values: dict) -> tuple[dict, list[str]]:
        """The computed columns of ``values`` and any warnings the model gave."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                outs = self.lesson.scenario_outputs(**values)
            except (ArithmeticError, TypeError) as exc:
                raise ValueError(f"scenario {name!r} cannot be computed: {exc}") from None
        if not isinstance(outs, Mapping):
            raise ValueError(
                f"lesson {self.lesson_id}: scenario_outputs returned {type(outs).__name__}, not a dict"
            )
        return {str(k): float(v) for k, v in outs.items()}, [str(w.message) for w in caught]

    # --- editing ------------------------------------------------------------------------------
    def _unique(self, base: str) -> str:
        if base not in self._names:
            return base
        i = 2
        while f"{base} {i}" in self._names:
            i += 1
        return f"{base} {i}"

    def add(self, name: str | None = None, *, at: int | None = None, **values) -> str:
        """Add a scenario (inputs not given take their defaults); return its name."""
        if len(self._names) >= MAX_SCENARIOS:
            raise ValueError(f"the sheet holds at most {MAX_SCENARIOS} scenarios")
        if name is None:
            name = self._unique(f"scenario {len(self._names) + 1}")
        name = _check_name(name, self._names)
        vals = self._complete(values)
        outs, notes = self._compute(name, vals)
        at = len(self._names) if at is None else max(0, min(int(at), len(self._names)))
        self._names.insert(at, name)
        self._values.insert(at, vals)
        self._outputs.insert(at, outs)
        self.notes[name] = notes
        return name

    def duplicate(self, row: int | str, name: str | None = None) -> str:
        """Copy ``row`` just below it as ``"<name> copy"`` (or ``name``); return the new name."""
        i = self.row_index(row)
        new = name if name is not None else self._unique(f"{self._names[i]} copy")
        return self.add(new, at=i + 1, **self._values[i])

    def rename(self, row: int | str, new_name: str) -> str:
        """Rename ``row``; names are unique and non-empty. Return the clean name."""
        i = self.row_index(row)
        others = self._names[:i] + self._names[i + 1 :]
        clean = _check_name(new_name, others, what="new_name")
        old = self._names[i]
        self._names[i] = clean
        self.notes[clean] = self.notes.pop(old, [])
        return clean

    def delete(self, row: int | str) -> str:
        """Delete ``row`` (not the last one); return its name."""
        i = self.row_index(row)
        if len(self._names) == 1:
            raise ValueError("cannot delete the only scenario; a sheet holds at least one")
        name = self._names.pop(i)
        del self._values[i], self._outputs[i]
        self.notes.pop(name, None)
        return name

    def set_values(self, row: int | str, **values) -> dict:
        """Set several inputs of ``row`` at once (all or none); return the computed columns."""
        i = self.row_index(row)
        new = dict(self._values[i])
        for k, v in values.items():
            if k not in self.params:
                raise ValueError(f"unknown input {k!r}; inputs: {', '.join(self.params)}")
            new[k] = self.coerce(k, v)
        outs, notes = self._compute(self._names[i], new)
        self._values[i], self._outputs[i] = new, outs
        self.notes[self._names[i]] = notes
        return dict(outs)

    def set_cell(self, row: int | str, column: str, value) -> dict:
        """Set one cell from text or a value, as a user types it.

        ``column`` is an input key or header, or ``"Scenario"`` to rename. A value that is
        not valid raises ``ValueError`` (naming the parameter, the value and the valid
        range) and the cell keeps its previous value; a computed column cannot be set.
        Returns the row's computed columns.
        """
        i = self.row_index(row)
        if column == NAME_COLUMN:
            self.rename(i, value if isinstance(value, str) else str(value))
            return self.outputs(i)
        return self.set_values(i, **{self.column_key(column): value})

    # --- files ----------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The sheet as the JSON-ready document :meth:`save` writes."""
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "lesson": self.lesson_id,
            "scenarios": [
                {"name": n, "values": dict(v)} for n, v in zip(self._names, self._values, strict=True)
            ],
        }

    def to_json(self) -> str:
        """The sheet as JSON text."""
        return json.dumps(self.to_dict(), indent=2, allow_nan=False, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
        """Write the sheet to ``path`` atomically; an existing file is replaced only if asked."""
        return atomic_write(path, self.to_json(), overwrite=overwrite)

    def load(self, path: str | os.PathLike) -> None:
        """Replace the scenarios with those of ``path``; a bad file changes nothing.

        Raises
        ------
        ValueError
            The file is missing, too large, not JSON, nested too deeply, of another schema,
            version or lesson, or holds unknown keys, bad names or invalid values.
        """
        self.load_dict(read_scenario_file(path))

    def load_dict(self, doc) -> None:
        """Replace the scenarios with those of a parsed document; a bad one changes nothing."""
        names, values, outputs, notes = self._check_document(doc)
        self._names, self._values, self._outputs, self.notes = names, values, outputs, notes

    def _check_document(self, doc):
        from vtsmodel.app.filekinds import wrong_kind

        if not isinstance(doc, dict):
            raise ValueError(f"a scenario file holds a JSON object, not {type(doc).__name__}")
        other = wrong_kind(doc, SCHEMA, self.lesson_id)
        if other:
            raise ValueError(other)
        unknown = set(doc) - _FILE_KEYS
        missing = _FILE_KEYS - set(doc)
        if unknown:
            raise ValueError(f"unknown key(s) {', '.join(sorted(map(repr, unknown)))} in the scenario file")
        if missing:
            raise ValueError(f"the scenario file lacks {', '.join(sorted(missing))}")
        if doc["schema"] != SCHEMA:
            raise ValueError(
                f"schema={doc['schema']!r} is not a vtsmodel scenario file (expected {SCHEMA!r})"
            )
        version = doc["version"]
        if isinstance(version, bool) or not isinstance(version, int) or version != SCHEMA_VERSION:
            raise ValueError(
                f"version={version!r} is not supported; this vtsmodel reads version {SCHEMA_VERSION}"
            )
        if doc["lesson"] != self.lesson_id:
            raise ValueError(
                f"lesson={doc['lesson']!r} does not match this sheet's lesson {self.lesson_id!r}"
            )
        items = doc["scenarios"]
        if not isinstance(items, list):
            raise ValueError(f"scenarios must be a list, not {type(items).__name__}")
        if not items:
            raise ValueError("scenarios is empty; a sheet holds at least one scenario")
        if len(items) > MAX_SCENARIOS:
            raise ValueError(f"the file holds {len(items)} scenarios; at most {MAX_SCENARIOS}")
        names, values, outputs, notes = [], [], [], {}
        for n, item in enumerate(items, start=1):
            where = f"scenario {n}"
            if not isinstance(item, dict):
                raise ValueError(f"{where} must be an object with name and values, not {type(item).__name__}")
            if set(item) != _SCENARIO_KEYS:
                extra = set(item) ^ _SCENARIO_KEYS
                raise ValueError(
                    f"{where}: unexpected or missing key(s) {', '.join(sorted(map(repr, extra)))}"
                )
            try:
                name = _check_name(item["name"], names)
                if not isinstance(item["values"], dict):
                    raise ValueError(f"values must be an object, not {type(item['values']).__name__}")
                vals = self._complete(item["values"], text=False)
                outs, warned = self._compute(name, vals)
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None
            names.append(name)
            values.append(vals)
            outputs.append(outs)
            notes[name] = warned
        return names, values, outputs, notes

    @classmethod
    def from_file(cls, path: str | os.PathLike, lesson_module: Callable[[str], object]) -> ScenarioSheet:
        """A new sheet for the lesson a scenario file names, holding its scenarios.

        ``lesson_module(number)`` gives the module of a lesson's number, or raises ``ValueError``
        naming the valid ones (:func:`vtsmodel.app.lessons.lesson_module`).
        """
        doc = read_scenario_file(path)
        lesson = doc.get("lesson") if isinstance(doc, dict) else None
        try:
            module = lesson_module(lesson)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
        sheet = cls(module)
        sheet.load_dict(doc)
        return sheet

    def proposal_rows(self) -> list[dict]:
        """The rows as a proposal reads them: a choice by its label, numbers to four significant digits."""
        out = []
        for row, vals in zip(self.rows(), self._values, strict=True):
            shown = dict(row)
            for k, v in vals.items():  # digits without thousands separators (a comma separates CSV cells)
                p = self.params[k]
                shown[p.header] = p.format(v).replace(",", "") if p.kind in ("number", "int") else p.format(v)
            for key in self.output_columns:
                v = row[key]
                shown[key] = "" if v is None or v != v else number(v, 4).replace(",", "")  # NaN: empty
            out.append(shown)
        return out

    def sources(self) -> str:
        """The references of what the lesson's figures cite (its first scenario's), one a line; empty if none."""
        view = getattr(self.lesson, "scenario_view", None)
        if view is None:
            return ""
        try:
            return cite(*view(**self._values[0]).citations)
        except (ValueError, KeyError):  # a lesson without citations for this scenario
            return ""

    def to_csv(self, caption: str = "") -> str:
        """The sheet as CSV for a proposal, with the title, the sources and how it was made (``#`` lines).

        Names, inputs by their labels with units, computed columns to four significant digits.
        """
        from vtsmodel import REFERENCE

        title = (
            caption
            or f"Scenarios of lesson {self.lesson_id}: {getattr(self.lesson, 'TITLE', '')}".rstrip(": ")
        )
        refs = self.sources()
        notes = "\n".join([title, *(["Sources:", refs] if refs else []), f"Made with {REFERENCE}"])
        return csv_text(self.proposal_rows(), columns=self.columns, caption=notes)

    def export_csv(self, path: str | os.PathLike, *, overwrite: bool = False, caption: str = "") -> Path:
        """Write the sheet as CSV (:meth:`to_csv`), atomically."""
        return atomic_write(path, self.to_csv(caption), overwrite=overwrite)


def read_scenario_file(path: str | os.PathLike):
    """Parse a scenario file safely: size-limited, strict JSON, no NaN/inf; ``ValueError`` if bad."""
    path = Path(path)
    # a regular file only, checked before it is opened: a FIFO would block for ever
    raw = read_file(path, max_bytes=MAX_FILE_BYTES, what="scenario file")
    return parse_scenario_bytes(raw, str(path))


def parse_scenario_bytes(raw: bytes, label: str = "the file"):
    """Parse the bytes of a scenario file (read from disk or uploaded); ``ValueError`` if bad.

    Size-limited, strict UTF-8 JSON, no NaN or infinities; ``label`` names the file in messages.
    """
    return parse_json_bytes(raw, label, max_bytes=MAX_FILE_BYTES, what="scenario file")
