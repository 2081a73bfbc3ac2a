"""Lesson 05: the sizing workbench: how many tape drives a site's data flows need.

The CERN sizing rule (cern-tape-sizing-2005, Summary, sample calculation): each flow needs
``rate · factor / efficiency / drive speed`` drives, the site the sum. The page has one
table of flows (:class:`~vtsmodel.app.tables.TableEditor`, an HTML table: this module holds
its inputs, its file and the workbench); each row names its scenario, and the flows of a
scenario add up.
Scenarios are compared side by side (:mod:`~vtsmodel.app.lessons.drive_counts`): drives per
flow on the chosen drive, and a dot plot of every catalog drive for each scenario. An
efficiency left empty comes from the flow's access pattern. The note's worked example (50
drives) is the first scenario.
"""

from __future__ import annotations

import dataclasses
import html
import json

import ipywidgets as w

from vtsmodel import Input
from vtsmodel import quantities as q
from vtsmodel.app.downloads import FileBar
from vtsmodel.app.export import csv_text
from vtsmodel.app.filekinds import wrong_kind
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.lessons.drive_counts import (
    DEFAULT_DRIVE,
    DRIVES,
    EXAMPLE,
    MAX_ROWS,
    SIZING,
    example_table,
    label_of,
    scenarios,
    speed_of,
)
from vtsmodel.app.panels import Panel, View
from vtsmodel.app.scenarios import MAX_FILE_BYTES, parse_scenario_bytes
from vtsmodel.app.tables import Column, TableEditor
from vtsmodel.app.text import number
from vtsmodel.catalog import drive_spec
from vtsmodel.data import cite
from vtsmodel.sizing import Flow, drives_needed

LESSON_ID = "05"
TITLE = "Sizing workbench: tape drives for a site's data flows"
NOTEBOOK = "05_sizing_workbench.ipynb"


_RULE = "cern-tape-sizing-2005, Summary, sample calculation"
_BOUND = f"{_RULE}; the bound a project assumption"
INPUTS = {
    "drive": Input("drive", "", DEFAULT_DRIVE, choices=DRIVES, source="data/drive_catalog.csv, each row cited",
                   help="Catalog drive to size for, at its speed: measured where a source measured it, else its "
                        "native rate (CERN sizes with the measured Maxspeed)."),
    "scenario": Input("scenario", "", EXAMPLE, help="The scenario the flow belongs to; a scenario's flows add up."),
    "name": Input("flow", "", "flow", help="What the flow is (T0 → T1, nightly backup); unique in its scenario."),
    "rate_mb_s": Input("rate", "MB/s", 100.0, lo=0.0, hi=1e5, source=_BOUND, help="Average data rate of the flow."),
    "peak_factor": Input("factor", "-", 2.0, lo=1.0, hi=100.0, source=_BOUND,
                         help="Factor for peaks, backlogs and failures (the note: 2)."),
    "efficiency": Input("efficiency", "-", 0.5, lo=0.001, hi=1.0, source=_BOUND, optional=True,
        help="Fraction of the drive's speed the flow gets (the note: about 0.5 organised, 0.1 chaotic); "
             "empty: from the access pattern."),
    "file_mb": q.FILE_MB.but(default=None, optional=True),
    "files_per_mount": q.FILES_PER_MOUNT.but(default=None, optional=True),
}  # fmt: skip
SCENARIO = ("drive",)
#: A row of the flows table: its scenario and the fields of :class:`~vtsmodel.sizing.Flow`.
ROW_KEYS = ("scenario", "name", "rate_mb_s", "peak_factor", "efficiency", "file_mb", "files_per_mount")
COLUMNS = [Column.of(k, INPUTS[k]) for k in ROW_KEYS] + [
    Column("used", "efficiency used [-]"), Column("drives", "drives [-]"), Column("share", "share [%]")]  # fmt: skip
FILE_SCHEMA = "vtsmodel-flows"


# --- the table's file -----------------------------------------------------------------------


def table_json(table, drive: str) -> str:
    """The flows table and the drive as JSON text, as :func:`read_table` reads it."""
    rows = [{"scenario": sc, **{k: getattr(f, k) for k in ROW_KEYS[1:]}} for sc, f in table]
    doc = {"schema": FILE_SCHEMA, "version": 1, "lesson": LESSON_ID, "drive": drive, "flows": rows}
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def read_table(data: bytes, label: str = "the file") -> tuple[tuple, str]:
    """The table and drive of a file :func:`table_json` wrote, each value checked; ``ValueError`` if bad."""
    doc = parse_scenario_bytes(data, label)
    other = wrong_kind(doc, FILE_SCHEMA)
    if other:
        raise ValueError(f"{label}: {other}")
    head = ("schema", "version", "lesson")
    if not isinstance(doc, dict) or set(doc) != {*head, "drive", "flows"} or [doc[k] for k in head] != [FILE_SCHEMA, 1, LESSON_ID]:  # fmt: skip
        raise ValueError(f"{label} is not a lesson {LESSON_ID} flows file ({FILE_SCHEMA!r}, version 1)")
    if not isinstance(doc["flows"], list) or not 1 <= len(doc["flows"]) <= MAX_ROWS:
        raise ValueError(f"{label}: flows must be a list of 1 to {MAX_ROWS} flows")
    table = []
    for n, r in enumerate(doc["flows"], start=1):
        if not isinstance(r, dict) or not {"scenario", "name", "rate_mb_s", "peak_factor"} <= set(r) <= set(ROW_KEYS):  # fmt: skip
            raise ValueError(f"{label}, flow {n}: an object with keys among {', '.join(ROW_KEYS)}")
        try:
            v = {k: INPUTS[k].parse(k, r.get(k)) for k in ROW_KEYS}
            table.append((v.pop("scenario"), Flow(**v)))
        except ValueError as exc:
            raise ValueError(f"{label}, flow {n}: {exc}") from None
    scenarios(table)
    return tuple(table), INPUTS["drive"].parse("drive", doc["drive"])


class SizingWorkbench:
    """The flows table, its buttons and file controls, and the sizing panel (drive, readouts, figures).

    ``table`` holds ``(scenario, Flow)`` rows (default :func:`example_table`); ``drive`` a
    catalog key or label. Edit with :meth:`edit` (as a person types a cell), :meth:`add_flow`,
    :meth:`remove_flow`, :meth:`copy_scenario` and :meth:`load_bytes`.
    """

    def __init__(self, table=None, drive: str | None = None) -> None:
        self.table = tuple(example_table() if table is None else table)
        scenarios(self.table)
        self.panel = Panel({"drive": INPUTS["drive"]}, SIZING, state=lambda: {"table": self.table},
                           values={"drive": drive}, title="Drives needed", name="05_sizing")  # fmt: skip
        self.panel.controls["drive"].observe(lambda _c: self._show(), names="value")
        self.grid = TableEditor(COLUMNS, self._rows(), on_edit=self._on_edit, widths={"scenario": 110, "name": 100},
                                mark_selected=True,  # the flow Add flow copies and Remove flow removes
                                title="<b>Data flows</b> (click a cell, type, Enter; a scenario's flows add up; "
                                      "leave the efficiency empty to compute it from the access pattern; grey columns "
                                      "are computed for the chosen drive)")  # fmt: skip
        self.grid.widget.add_class("vtsmodel-flows")
        self._name = w.Text(placeholder="new scenario name", layout=w.Layout(width="190px"))

        def button(text, tip, fn):
            b = w.Button(description=text, tooltip=tip, layout=w.Layout(width="auto"))
            b.on_click(lambda _b: self._do(fn, text.lower()))
            return b

        bar = [button("Add flow", "Add a copy of the selected flow to its scenario", self.add_flow),
               button("Remove flow", "Remove the selected flow", self.remove_flow), self._name,
               button("Copy scenario", "Copy the selected flow's scenario under the new name",
                      lambda: self.copy_scenario(self._name.value))]  # fmt: skip
        self.files = FileBar("flows")
        self.files.button("Save", self.save, "Download the table and the drive as JSON")
        self.files.upload("Load…", self.load_bytes, accept=".json", max_bytes=MAX_FILE_BYTES,
                          tooltip="Load a flows table saved from this page")  # fmt: skip
        self.files.button(
            "Export CSV", self.export_csv, "Download the table with its computed columns as CSV"
        )
        self.widget = w.VBox([self.grid.widget, w.HBox(bar, layout=w.Layout(flex_flow="row wrap")),
                              self.files.widget, self.panel.widget], layout=w.Layout(width="100%", max_width="1240px"))  # fmt: skip

    def _do(self, fn, text: str) -> None:
        try:
            self.grid.say(f"{text}: {fn()}")
        except ValueError as exc:
            self.grid.say(f"{text} refused: {exc}", error=True)

    @property
    def drive(self) -> str:
        """The chosen drive's catalog key."""
        return self.panel.values["drive"]

    def _rows(self) -> list[dict]:
        """The table's rows with the columns computed for the chosen drive (the panel's evaluation)."""
        sized = SIZING.result({"table": self.table, "drive": self.drive}).sized
        out = []
        for sc, f in self.table:
            s = sized[sc]
            i = s.names.index(f.name)
            out.append({"scenario": sc, **{k: getattr(f, k) for k in ROW_KEYS[1:]}, "used": s.efficiencies[i],
                        "drives": s.drives[i], "share": 100 * s.shares[i]})  # fmt: skip
        return out

    def _show(self, table=None) -> None:
        """Take ``table`` (checked first) and show it; without one, show the columns the drive changed."""
        if table is not None:
            scenarios(table := tuple(table))
            self.table = table
            self.panel.update()
        self.grid.update_rows(self._rows())

    def _on_edit(self, row: int, key: str, value) -> None:
        sc, f = self.table[row]
        if key != "scenario":
            after = dataclasses.asdict(f) | {key: value}
            if after["efficiency"] is None and (after["file_mb"] is None or after["files_per_mount"] is None):
                eff, size, n = (INPUTS[k] for k in ("efficiency", "file_mb", "files_per_mount"))
                raise ValueError(f"{f.name} needs an {eff.header} in {eff.range_text().removesuffix(' or empty')}, or "
                                 f"an access pattern: {size.header} and {n.header} (then leave the efficiency empty)")  # fmt: skip
        new = (value, f) if key == "scenario" else (sc, dataclasses.replace(f, **{key: value}))
        self._show(self.table[:row] + (new,) + self.table[row + 1 :])

    def edit(self, row: int, key: str, value) -> bool:
        """Edit a cell as a person types it; return whether it was accepted."""
        return self.grid.edit(row, key, value)

    def _selected(self) -> int:
        return min(self.grid.selected, len(self.table) - 1)

    def add_flow(self) -> str:
        """Add a copy of the selected flow to its scenario, named "... (copy)"; return its name."""
        sc, f = self.table[self._selected()]
        taken, name, i = [g.name for s, g in self.table if s == sc], f"{f.name} (copy)", 2
        while name in taken:
            name, i = f"{f.name} (copy {i})", i + 1
        self._show((*self.table, (sc, dataclasses.replace(f, name=name))))
        return name

    def remove_flow(self, row: int | None = None) -> str:
        """Remove flow ``row`` (default the selected one); the last flow stays. Return its name."""
        row = self._selected() if row is None else row
        if not 0 <= row < len(self.table) or len(self.table) == 1:
            raise ValueError(f"row={row!r} cannot be removed: rows are 0 to {len(self.table) - 1}, the last one stays")  # fmt: skip
        gone = self.table[row]
        self._show(self.table[:row] + self.table[row + 1 :])
        return f"{gone[1].name} of {gone[0]}"

    def copy_scenario(self, name: str) -> str:
        """Copy the selected flow's scenario as scenario ``name`` (a new name); return the name."""
        name = INPUTS["scenario"].parse("name", name)
        if name in scenarios(self.table):
            raise ValueError(f"name={name!r} is already a scenario; give a new name")
        src = self.table[self._selected()][0]
        self._show((*self.table, *((name, f) for sc, f in self.table if sc == src)))
        return f"{src} as {name}"

    # --- files --------------------------------------------------------------------------------
    def save(self) -> str:
        """Download the table and the drive as JSON; return the file name."""
        return self.files.deliver(
            "save", lambda: (f"flows_{LESSON_ID}.json", table_json(self.table, self.drive))
        )

    def export_csv(self) -> str:
        """Download the table with its computed columns, and the sources, as CSV; return the file name."""
        rows = [{c.header: r.get(c.key) for c in COLUMNS} for r in self._rows()]
        caption = (f"{TITLE}, on {label_of(self.drive)} at {number(speed_of(self.drive))} MB/s: drives = Σ rate × factor"
                   f" / efficiency / drive speed ({_RULE}).\n{cite(drives_needed, *drive_spec(self.drive).primary_sources)}")  # fmt: skip
        return self.files.deliver(
            "export", lambda: (f"flows_{LESSON_ID}.csv", csv_text(rows, caption=caption))
        )

    def load_bytes(self, data: bytes, name: str = "the file") -> str:
        """Replace the table and the drive with a saved file's; a bad file changes nothing."""
        table, drive = read_table(data, name)
        self._show(table)
        self.panel.set(drive=drive)
        return f"loaded {len(table)} flows from <b>{html.escape(name)}</b>"

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def sizing_panel(table=None, drive: str | None = None) -> SizingWorkbench:
    """The sizing workbench, loaded with the CERN worked example by default."""
    return SizingWorkbench(table, drive)


# --- the lesson contract and the notebook's numbers ---------------------------------------------


def scenario_outputs(flows=None, **values) -> dict[str, float]:
    """Drives needed (total, to buy, per flow) for ``flows`` (default the worked example's) on a drive."""
    v = scenario_values(INPUTS, SCENARIO, values)
    table = None if flows is None else tuple((EXAMPLE, f) for f in flows)
    s = next(iter(SIZING.result({"table": table, **v}).sized.values()))
    out = {"drives needed [-]": s.total, "drives to buy [-]": float(s.whole_drives)}
    return out | {f"{n} [drives]": float(d) for n, d in zip(s.names, s.drives, strict=True)}


def scenario_view(table=None, **values) -> View:
    """Both figures of the workbench for a table (default the worked example) on a drive."""
    return SIZING.show({"table": table, **scenario_values(INPUTS, SCENARIO, values)})


#: The worked example's rows, for the notebook's source table.
SOURCE_ROWS = (("cern_sizing_example", "drive_speed"),) + tuple(
    ("cern_sizing_example", f"{k}_{p}") for k in ("t0_to_t1", "reprocessing", "t2_analysis")
    for p in ("rate", "factor", "efficiency", "drives")) + (("cern_sizing_example", "drives_needed_total"),)  # fmt: skip
