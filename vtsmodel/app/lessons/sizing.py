"""Lesson 05: the sizing workbench: how many tape drives a site's data flows need.

The CERN sizing rule (cern-tape-sizing-2005, Summary, sample calculation): each flow needs
``rate · factor / efficiency / drive speed`` drives, the site the sum. The page holds one
table of flows (a :class:`~vtsmodel.app.grids.GridEditor`; an efficiency left empty comes
from the flow's access pattern), the drive choice, the drives per flow and a dot plot of
every catalog drive for the same flows. Scenarios are named versions of that table and
its drive, compared side by side in a second grid; the selected one is the one shown and
edited. The note's worked example (50 drives) loads as the first scenario.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math

import ipywidgets as w

from vtsmodel import quantities as q
from vtsmodel._inputs import Input
from vtsmodel._tables import cite
from vtsmodel.app.downloads import Downloader, upload_control, uploaded_file
from vtsmodel.app.export import csv_text
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure
from vtsmodel.app.grids import Column, GridEditor
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View
from vtsmodel.app.scenarios import MAX_FILE_BYTES, MAX_SCENARIOS, parse_scenario_bytes
from vtsmodel.app.text import number, percent
from vtsmodel.catalog import drive_options, drive_spec
from vtsmodel.drives import drive_efficiency
from vtsmodel.sizing import Flow, cern_example_drive_speed, cern_example_flows, drives_needed

LESSON_ID = "05"
TITLE = "Sizing workbench: tape drives for a site's data flows"
NOTEBOOK = "05_sizing_workbench.ipynb"


@dataclasses.dataclass(frozen=True)
class MaybeEmpty(Input):
    """An input whose cell may be left empty: an empty cell (or ``None``) parses to ``None``."""

    def parse(self, name: str, value):
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, float) and math.isnan(value):
            return None
        return super().parse(name, value)


def _may_be_empty(inp: Input) -> MaybeEmpty:
    return MaybeEmpty(**{f.name: getattr(inp, f.name) for f in dataclasses.fields(inp)})


_RULE = "cern-tape-sizing-2005, Summary, sample calculation"
#: The catalog's drives, grouped by family in order of generation: (label, key).
DRIVES = tuple(drive_options())
#: The catalog drive of the worked example's "Tape drive maxspeed = 40 MB/s" (the 3592A).
DEFAULT_DRIVE = next(k for _l, k in DRIVES if drive_spec(k).speed_mb_s == cern_example_drive_speed())
#: The most flows one scenario holds, and the longest flow name.
MAX_FLOWS = 50

INPUTS = {
    "drive": Input("drive", "", DEFAULT_DRIVE, choices=DRIVES, source="data/drive_catalog.csv, each row cited",
                   help="Catalog drive to size for, at its speed: measured where a source measured it, else its "
                        "native rate (CERN sizes with the measured Maxspeed)."),
    "name": Input("flow", "", "flow", help="What the flow is (T0 → T1, nightly backup); unique in the table."),
    "rate_mb_s": Input("rate", "MB/s", 100.0, lo=0.0, hi=1e5, source=f"{_RULE}; the upper bound a project assumption",
                       help="Average data rate of the flow."),
    "peak_factor": Input("factor", "-", 2.0, lo=1.0, hi=100.0, source=f"{_RULE}; the upper bound a project assumption",
                         help="Factor for peaks, backlogs and failures (the note: 2)."),
    "efficiency": _may_be_empty(Input(
        "efficiency", "-", 0.5, lo=0.001, hi=1.0, source=f"{_RULE}; the lower bound a project assumption",
        help="Fraction of the drive's speed the flow gets (the note: about 0.5 organised, 0.1 chaotic); "
             "empty: from the access pattern.")),
    "file_mb": _may_be_empty(q.FILE_MB.but(default=None)),
    "files_per_mount": _may_be_empty(q.FILES_PER_MOUNT.but(default=None)),
}  # fmt: skip
SCENARIO = ("drive",)
#: The flow columns, as :class:`~vtsmodel.sizing.Flow` names its fields.
FLOW_KEYS = ("name", "rate_mb_s", "peak_factor", "efficiency", "file_mb", "files_per_mount")
FLOW_COLUMNS = [Column.of(k, INPUTS[k]) for k in FLOW_KEYS] + [
    Column("used", "efficiency used [-]"), Column("drives", "drives [-]"), Column("share", "share [%]")]  # fmt: skip
SCENARIO_NAME = Input("scenario", "", "scenario", help="The scenario's name, unique on the page.")
SCENARIO_COLUMNS = [Column.of("name", SCENARIO_NAME), Column.of("drive", INPUTS["drive"]), Column("flows", "flows [-]"),
                    Column("total", "drives needed [-]"), Column("buy", "drives to buy [-]"), Column("largest", "largest flow")]  # fmt: skip
FILE_SCHEMA = "vtsmodel-flow-scenarios"


def _speed(drive: str) -> float:
    return drive_spec(drive).speed_mb_s


def _label(drive: str) -> str:
    return INPUTS["drive"].label_of(drive)


def _unique(name: str, taken) -> str:
    new, i = name, 2
    while new in taken:
        new, i = f"{name} {i}", i + 1
    return new


# --- figures --------------------------------------------------------------------------------


def split_base(flows: tuple, drive: str) -> dict:
    """Drives each flow needs on ``drive``: one bar per flow, labelled with its share and efficiency."""
    s = drives_needed(flows, drive_speed_mb_s=_speed(drive))
    fig = new_figure(title=f"Drives per flow: {number(s.total)} in all, buy {s.whole_drives}<br><sup>on "
                           f"{html.escape(_label(drive), quote=False)}, {number(_speed(drive))} MB/s</sup>",
                     xaxis_title="drives needed [-]", height=150 + 40 * len(flows))  # fmt: skip
    text = [f"{number(d)} ({percent(sh)}) at efficiency {number(e)}"
            for d, sh, e in zip(s.drives, s.shares, s.efficiencies, strict=True)]  # fmt: skip
    fig.add_bar(y=list(s.names), x=s.drives, orientation="h", text=text, textposition="auto", showlegend=False,
                marker_color=[COLORS[i % len(COLORS)] for i in range(len(flows))], hoverinfo="text",
                hovertext=[f"{html.escape(n, quote=False)}: {t}" for n, t in zip(s.names, text, strict=True)])  # fmt: skip
    fig.update_xaxes(range=[0.0, float(s.drives.max()) * 1.08 or 1.0])
    fig.update_yaxes(type="category", autorange="reversed", automargin=True)
    fig.update_layout(margin={"t": 70, "r": 20, "b": 55, "l": 20})
    return figure_json(fig)


def compare_base(flows: tuple) -> dict:
    """Drives needed on every catalog drive for the same flows: a dot per flow and one for the total (log axis)."""
    sizes = [drives_needed(flows, drive_speed_mb_s=_speed(k)) for _l, k in DRIVES]
    rows = [f"{label}, {number(_speed(k))} MB/s" for label, k in DRIVES]
    fig = new_figure(title="Drives needed on each catalog drive, same flows", height=170 + 21 * len(DRIVES),
                     xaxis_title="drives needed [-] (log scale: each dot's position, not a length)")  # fmt: skip
    for i, name in enumerate(sizes[0].names):
        x = [float(s.drives[i]) if s.drives[i] > 0 else None for s in sizes]
        fig.add_scatter(x=x, y=rows, mode="markers", name=name, hoverinfo="text",
                        marker={"color": COLORS[i % len(COLORS)], "size": 9, "line": {"width": 1, "color": "white"}},
                        hovertext=[f"{r}<br>{html.escape(name, quote=False)}: {number(v or 0.0)} drives" for r, v in zip(rows, x, strict=True)])  # fmt: skip
    fig.add_scatter(x=[s.total if s.total > 0 else None for s in sizes], y=rows, mode="markers+text",
                    name="all flows", text=[number(s.total) for s in sizes], textposition="middle right",
                    marker={"color": "black", "size": 12, "symbol": "line-ns", "line": {"width": 2.5}},
                    textfont={"size": 11}, hoverinfo="text", cliponaxis=False,
                    hovertext=[f"{r}<br>all flows: {number(s.total)} drives, buy {s.whole_drives}"
                               for r, s in zip(rows, sizes, strict=True)])  # fmt: skip
    family = [drive_spec(k).family for _l, k in DRIVES]
    for j in range(1, len(DRIVES)):
        if family[j] != family[j - 1]:
            fig.add_hline(y=j - 0.5, line={"color": "#999", "width": 1, "dash": "dot"})
    values = [v for s in sizes for v in (*s.drives, s.total) if v > 0]
    lo, hi = (min(values), max(values)) if values else (1.0, 10.0)
    fig.update_xaxes(type="log", range=[math.log10(lo) - 0.15, math.log10(hi) + 0.35])
    fig.update_yaxes(type="category", autorange="reversed", automargin=True, tickfont={"size": 11})
    fig.update_layout(legend={"orientation": "h", "x": 0.0, "y": 1.0, "xanchor": "left", "yanchor": "bottom"},
                      margin={"t": 85, "r": 20, "b": 55, "l": 20})  # fmt: skip
    return figure_json(fig)


# --- the view -------------------------------------------------------------------------------


def _term(f: Flow, e: float, d: float, speed: float) -> str:
    """One flow's term as the note writes it: ``100 MB/s × 2 / 0.5 (efficiency) / 40 MB/s = 10 drives``."""
    how = "" if f.efficiency is not None else f" from {number(f.file_mb)} MB files, {number(f.files_per_mount)} per mount"
    return (f"{number(f.rate_mb_s)} MB/s × {number(f.peak_factor)} / {number(e)} (efficiency{how}) / "
            f"{number(speed)} MB/s = {number(d)} drives")  # fmt: skip


def view_sizing(flows=None, drive: str = DEFAULT_DRIVE) -> View:
    """The workbench for ``flows`` (default the worked example's) on a catalog ``drive``."""
    flows = tuple(cern_example_flows() if flows is None else flows)
    spec = drive_spec(drive)
    s = drives_needed(flows, drive_speed_mb_s=spec.speed_mb_s)
    row = [k for _l, k in DRIVES].index(drive)
    band = {"type": "rect", "xref": "paper", "x0": 0.0, "x1": 1.0, "yref": "y", "y0": row - 0.5, "y1": row + 0.5,
            "fillcolor": "rgba(213,94,0,0.18)", "line": {"width": 0}, "layer": "below",
            "name": "chosen drive", "showlegend": True}  # fmt: skip
    readouts = {"drive speed": f"{number(spec.speed_mb_s)} MB/s ({spec.speed_basis})",
                "drives needed": number(s.total), "drives to buy": str(s.whole_drives)}  # fmt: skip
    for n, d, sh, e in zip(s.names, s.drives, s.shares, s.efficiencies, strict=True):
        readouts[f"{n} needs"] = f"{number(d)} drives ({percent(sh)}), efficiency {number(e)}"
    big = int(s.drives.argmax())
    binding = (f"{s.names[big]} needs the most drives: {number(s.drives[big])} of {number(s.total)} "
               f"({percent(s.shares[big])}), at efficiency {number(s.efficiencies[big])}.")  # fmt: skip
    terms = {f.name: _term(f, e, d, spec.speed_mb_s) for f, e, d in zip(flows, s.efficiencies, s.drives, strict=True)}
    patterns = (drive_efficiency,) if any(f.efficiency is None for f in flows) else ()
    return View(
        figures={"split": Plot(split_base, {"flows": flows, "drive": drive}),
                 "compare": Plot(compare_base, {"flows": flows}, shapes=[band])},
        readouts=readouts, binding=binding,
        caption_values={"drive speed [MB/s]": f"{number(spec.speed_mb_s)} ({spec.speed_basis})", **terms,
                        "drives needed": f"{number(s.total)}, buy {s.whole_drives}",
                        "compared drives": f"the catalog's {len(DRIVES)}, each at its own speed (data/drive_catalog.csv)"},
        citations=(drives_needed, *patterns, *spec.primary_sources),
    )  # fmt: skip


# --- scenarios: named versions of the flows table and its drive ------------------------------


def flow_of(row) -> Flow:
    """A :class:`~vtsmodel.sizing.Flow` from a row of values by :data:`FLOW_KEYS`, each checked by its input."""
    if not isinstance(row, dict) or not {"name", "rate_mb_s", "peak_factor"} <= set(row) <= set(FLOW_KEYS):
        raise ValueError(f"a flow is an object with name, rate_mb_s, peak_factor and optionally "
                         f"efficiency, file_mb, files_per_mount; got {str(row)[:60]!r}")  # fmt: skip
    return Flow(**{k: INPUTS[k].parse(k, row.get(k)) for k in FLOW_KEYS})


def _check_flows(flows) -> tuple:
    flows = tuple(flows)
    if not 1 <= len(flows) <= MAX_FLOWS or not all(isinstance(f, Flow) for f in flows):
        raise ValueError(f"flows={flows!r:.80} is not valid: give 1 to {MAX_FLOWS} vtsmodel.sizing.Flow")
    names = [f.name for f in flows]
    if len(set(names)) < len(names):
        raise ValueError(f"flow names {names} repeat; each flow needs its own name")
    return flows


def scenarios_json(scenarios) -> str:
    """Scenarios (``name``, ``drive``, ``flows``) as the JSON text :func:`read_scenarios` reads."""
    items = [{"name": sc["name"], "drive": sc["drive"],
              "flows": [{k: getattr(f, k) for k in FLOW_KEYS} for f in sc["flows"]]} for sc in scenarios]  # fmt: skip
    doc = {"schema": FILE_SCHEMA, "version": 1, "lesson": LESSON_ID, "scenarios": items}
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def read_scenarios(data: bytes, label: str = "the file") -> list[dict]:
    """The scenarios of a file :func:`scenarios_json` wrote, every value checked; ``ValueError`` if bad."""
    doc = parse_scenario_bytes(data, label)
    if not isinstance(doc, dict) or [doc.get(k) for k in ("schema", "version", "lesson")] != [FILE_SCHEMA, 1, LESSON_ID]:
        raise ValueError(f"{label} is not a lesson {LESSON_ID} scenario file (schema {FILE_SCHEMA!r}, version 1)")
    items = doc.get("scenarios")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_SCENARIOS:
        raise ValueError(f"{label}: scenarios must be a list of 1 to {MAX_SCENARIOS} scenarios")
    out = []
    for n, item in enumerate(items, start=1):
        try:
            if not isinstance(item, dict) or set(item) != {"name", "drive", "flows"}:
                raise ValueError("a scenario is an object with name, drive and flows")
            name = SCENARIO_NAME.parse("name", item["name"])
            if name in [sc["name"] for sc in out]:
                raise ValueError(f"name={name!r} is used twice")
            flows = item["flows"] if isinstance(item["flows"], list) else [None]
            out.append({"name": name, "drive": INPUTS["drive"].parse("drive", item["drive"]),
                        "flows": _check_flows(flow_of(r) for r in flows)})  # fmt: skip
        except ValueError as exc:
            raise ValueError(f"{label}, scenario {n}: {exc}") from None
    return out


def scenarios_csv(scenarios) -> str:
    """Every scenario's flows with their drives, and each scenario's total, as CSV with its sources."""
    rows, sources = [], set()
    for sc in scenarios:
        s = drives_needed(sc["flows"], drive_speed_mb_s=_speed(sc["drive"]))
        sources.update(drive_spec(sc["drive"]).primary_sources)
        head = {"scenario": sc["name"], "drive": _label(sc["drive"]), "drive speed [MB/s]": _speed(sc["drive"])}
        for f, e, d, sh in zip(sc["flows"], s.efficiencies, s.drives, s.shares, strict=True):
            rows.append({**head, **{INPUTS[k].header: getattr(f, k) for k in FLOW_KEYS},
                         "efficiency used [-]": e, "drives [-]": d, "share [-]": sh})  # fmt: skip
        rows.append({**head, "flow": "total", "drives [-]": s.total, "drives to buy [-]": s.whole_drives})
    columns = [*rows[0], "efficiency used [-]", "drives [-]", "share [-]", "drives to buy [-]"]
    caption = f"{TITLE}: drives = Σ rate × factor / efficiency / drive speed ({_RULE}).\n"
    return csv_text(rows, columns=list(dict.fromkeys(columns)), caption=caption + cite(drives_needed, *sorted(sources)))


class SizingWorkbench:
    """The flows table, the drive choice, the sizing panel, and the scenarios that hold them.

    Parameters
    ----------
    flows : sequence of Flow, optional
        The first scenario's flows; default the worked example's.
    drive : str, optional
        Its drive (key or label); default the example's 40 MB/s drive.

    Attributes
    ----------
    scenarios : list of dict
        ``{"name", "drive", "flows"}`` each; :attr:`selected` is the one shown and edited.
    flows_grid, scenario_grid : GridEditor
    panel : Panel
        The drive dropdown, readouts and the two figures.
    widget : ipywidgets.VBox
    """

    def __init__(self, flows=None, drive: str | None = None) -> None:
        first = {"name": "worked example" if flows is None else "scenario 1",
                 "drive": INPUTS["drive"].parse("drive", drive or DEFAULT_DRIVE),
                 "flows": _check_flows(cern_example_flows() if flows is None else flows)}  # fmt: skip
        self.scenarios, self.selected, self._syncing = [first], 0, False
        self.panel = Panel({"drive": INPUTS["drive"]}, lambda drive: view_sizing(self.flows, drive),
                           values={"drive": first["drive"]}, title="Drives needed", name="05_sizing")  # fmt: skip
        self.panel.controls["drive"].observe(self._on_drive, names="value")
        self.flows_grid = GridEditor(
            FLOW_COLUMNS, self._flow_rows(), on_edit=self._edit_flow, height=self._height(),
            title="<b>Data flows</b> of the selected scenario (double-click a cell, type, Enter; leave the efficiency "
                  "empty to compute it from the access pattern; grey columns are for the chosen drive)")  # fmt: skip
        self.flows_grid.widget.add_class("vtsmodel-flows")
        self.scenario_grid = GridEditor(
            SCENARIO_COLUMNS, self._scenario_rows(), on_edit=self._edit_scenario, on_select=self.select,
            height="130px", title="<b>Scenarios</b>: named versions of the flows and the drive. Select a row to "
                                  "show and edit it above; grey columns are computed.")  # fmt: skip
        self.scenario_grid.grid.column_widths = {**self.scenario_grid.grid.column_widths, "drive": 230}
        self.scenario_grid.widget.add_class("vtsmodel-scenarios")
        self.downloader = Downloader()
        self._upload = upload_control(".json", tooltip="Load scenarios saved from this page")
        self._upload.observe(self._on_upload, names="value")
        fb, sb = self.flows_grid, self.scenario_grid
        self.widget = w.VBox(
            [fb.widget, self._buttons(fb, ("Add flow", "Add a copy of the selected flow", self.add_flow),
                                      ("Remove flow", "Remove the selected flow", self.remove_flow)),
             self.panel.widget, sb.widget,
             self._buttons(sb, ("Copy scenario", "Copy the selected scenario and select the copy", self.copy_scenario),
                           ("Delete scenario", "Delete the selected scenario", self.delete_scenario),
                           ("Save", "Download the scenarios as JSON", self.save), self._upload,
                           ("Export CSV", "Download every scenario's flows and drives as CSV", self.export_csv)),
             self.downloader], layout=w.Layout(width="100%", max_width="1240px"))  # fmt: skip

    @staticmethod
    def _buttons(grid: GridEditor, *items) -> w.HBox:
        def run(fn, text):
            try:
                grid.say(f"{text}: {fn()}")
            except ValueError as exc:
                grid.say(f"{text} refused: {exc}", error=True)

        def make(item):
            if isinstance(item, w.Widget):
                return item
            b = w.Button(description=item[0], tooltip=item[1], layout=w.Layout(width="auto"))
            b.on_click(lambda _b, fn=item[2], text=item[0]: run(fn, text.lower()))
            return b

        return w.HBox([make(i) for i in items], layout=w.Layout(flex_flow="row wrap", align_items="center"))

    # --- state ------------------------------------------------------------------------------
    @property
    def flows(self) -> tuple[Flow, ...]:
        """The selected scenario's flows."""
        return self.scenarios[self.selected]["flows"]

    @property
    def sizing(self):
        """:func:`~vtsmodel.sizing.drives_needed` of the selected scenario."""
        sc = self.scenarios[self.selected]
        return drives_needed(sc["flows"], drive_speed_mb_s=_speed(sc["drive"]))

    def _height(self) -> str:
        return f"{34 + 26 * (len(self.flows) + 1)}px"

    def _flow_rows(self) -> list[dict]:
        s = self.sizing
        return [{**{k: getattr(f, k) for k in FLOW_KEYS}, "used": e, "drives": d, "share": 100 * sh}
                for f, e, d, sh in zip(self.flows, s.efficiencies, s.drives, s.shares, strict=True)]  # fmt: skip

    def _scenario_rows(self) -> list[dict]:
        out = []
        for sc in self.scenarios:
            s = drives_needed(sc["flows"], drive_speed_mb_s=_speed(sc["drive"]))
            out.append({"name": sc["name"], "drive": sc["drive"], "flows": len(sc["flows"]), "total": s.total,
                        "buy": s.whole_drives, "largest": s.names[int(s.drives.argmax())]})  # fmt: skip
        return out

    def _show(self, *, rows: bool = False, panel: bool = True) -> None:
        """Show the selected scenario: its flows (all rows anew when ``rows``), its summary row, the panel."""
        if rows:
            self.flows_grid.set_rows(self._flow_rows())
            self.flows_grid.grid.layout.height = self._height()
        else:
            for i, r in enumerate(self._flow_rows()):
                self.flows_grid.set_row(i, r)
        self.scenario_grid.set_row(self.selected, self._scenario_rows()[self.selected])
        if not panel:
            return
        self._syncing = True
        try:
            self.panel.set(drive=self.scenarios[self.selected]["drive"])
        finally:
            self._syncing = False

    # --- edits --------------------------------------------------------------------------------
    def _edit_flow(self, row: int, key: str, value) -> None:
        flows = list(self.flows)
        if key == "name" and value in [f.name for i, f in enumerate(flows) if i != row]:
            raise ValueError(f"flow={value!r} is the name of another flow; each flow needs its own")
        flows[row] = dataclasses.replace(flows[row], **{key: value})  # Flow checks the row as a whole
        self.scenarios[self.selected]["flows"] = tuple(flows)
        self._show()

    def edit_flow(self, row: int, key: str, value) -> bool:
        """Edit a cell of the flows table as a person types it; return whether it was accepted."""
        return self.flows_grid.edit(row, key, value)

    def _on_drive(self, change) -> None:
        if not self._syncing:
            self.scenarios[self.selected]["drive"] = change["new"]
            self._show(panel=False)  # the panel follows its own control

    def _edit_scenario(self, row: int, key: str, value) -> None:
        if key == "name" and value in [sc["name"] for i, sc in enumerate(self.scenarios) if i != row]:
            raise ValueError(f"scenario={value!r} is already used; scenario names must be unique")
        self.scenarios[row][key] = value
        if row == self.selected:
            self._show()
        else:
            self.scenario_grid.set_row(row, self._scenario_rows()[row])

    def select(self, row: int) -> None:
        """Show scenario ``row``: its flows in the table, its drive in the panel."""
        if not 0 <= row < len(self.scenarios):
            raise ValueError(f"row={row!r} is not valid; scenarios are 0 to {len(self.scenarios) - 1}")
        self.selected = self.scenario_grid.selected = row
        self._show(rows=True)

    def add_flow(self) -> str:
        """Add a copy of the selected flow, named "... (copy)"; return its name."""
        if len(self.flows) >= MAX_FLOWS:
            raise ValueError(f"a scenario holds at most {MAX_FLOWS} flows")
        src = self.flows[min(self.flows_grid.selected, len(self.flows) - 1)]
        new = dataclasses.replace(src, name=_unique(f"{src.name} (copy)", [f.name for f in self.flows]))
        self.scenarios[self.selected]["flows"] = (*self.flows, new)
        self._show(rows=True)
        return new.name

    def remove_flow(self, row: int | None = None) -> str:
        """Remove flow ``row`` (default the selected one); the last flow stays. Return its name."""
        row = min(self.flows_grid.selected, len(self.flows) - 1) if row is None else row
        if not 0 <= row < len(self.flows):
            raise ValueError(f"row={row!r} is not valid; flows are 0 to {len(self.flows) - 1}")
        if len(self.flows) == 1:
            raise ValueError("the last flow stays: edit it instead")
        flows = list(self.flows)
        gone = flows.pop(row)
        self.scenarios[self.selected]["flows"] = tuple(flows)
        self._show(rows=True)
        return gone.name

    def copy_scenario(self) -> str:
        """Copy the selected scenario below it and select the copy; return its name."""
        if len(self.scenarios) >= MAX_SCENARIOS:
            raise ValueError(f"the page holds at most {MAX_SCENARIOS} scenarios")
        sc = self.scenarios[self.selected]
        new = {**sc, "name": _unique(f"{sc['name']} copy", [s["name"] for s in self.scenarios])}
        self.scenarios.insert(self.selected + 1, new)
        self.scenario_grid.set_rows(self._scenario_rows())
        self.select(self.selected + 1)
        return new["name"]

    def delete_scenario(self) -> str:
        """Delete the selected scenario (not the last one); return its name."""
        if len(self.scenarios) == 1:
            raise ValueError("the last scenario stays")
        gone = self.scenarios.pop(self.selected)
        self.scenario_grid.set_rows(self._scenario_rows())
        self.select(max(0, self.selected - 1))
        return gone["name"]

    # --- files ------------------------------------------------------------------------------
    def save(self) -> str:
        """Download the scenarios as JSON; return the file name."""
        return self.downloader.send_file(f"scenarios_{LESSON_ID}.json", scenarios_json(self.scenarios), "json")

    def export_csv(self) -> str:
        """Download every scenario's flows and drives as CSV; return the file name."""
        return self.downloader.send_file(f"scenarios_{LESSON_ID}.csv", scenarios_csv(self.scenarios), "csv")

    def load_bytes(self, data: bytes, name: str = "the file") -> str:
        """Replace the scenarios with those of a saved file; a bad file changes nothing."""
        self.scenarios = read_scenarios(data, name)
        self.scenario_grid.set_rows(self._scenario_rows())
        self.select(0)
        return f"{len(self.scenarios)} scenarios from {name}"

    def _on_upload(self, _change) -> None:
        try:
            got = uploaded_file(self._upload, max_bytes=MAX_FILE_BYTES)
            if got is not None:
                self.scenario_grid.say(f"loaded {self.load_bytes(got[1], got[0])}")
        except ValueError as exc:
            self.scenario_grid.say(f"load refused: {exc}", error=True)
        finally:
            self._upload.value = ()

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def sizing_panel(flows=None, drive: str | None = None) -> SizingWorkbench:
    """The sizing workbench, loaded with the CERN worked example by default."""
    return SizingWorkbench(flows, drive)


# --- the lesson contract and the notebook's numbers ---------------------------------------------


def scenario_outputs(flows=None, **values) -> dict[str, float]:
    """Drives needed (total, to buy, per flow) for ``flows`` (default the worked example's) on a drive."""
    v = scenario_values(INPUTS, SCENARIO, values)
    s = drives_needed(cern_example_flows() if flows is None else flows, drive_speed_mb_s=_speed(v["drive"]))
    out = {"drives needed [-]": s.total, "drives to buy [-]": float(s.whole_drives)}
    return out | {f"{n} [drives]": float(d) for n, d in zip(s.names, s.drives, strict=True)}


def scenario_view(flows=None, **values) -> View:
    """Both figures of the workbench for ``flows`` (default the worked example's) on a drive."""
    return view_sizing(flows, **scenario_values(INPUTS, SCENARIO, values))


#: The worked example's rows, for the notebook's source table.
SOURCE_ROWS = tuple(("cern_sizing_example", f"{k}_{p}") for k in ("t0_to_t1", "reprocessing", "t2_analysis")
                    for p in ("rate", "factor", "efficiency", "drives")) + (
    ("cern_sizing_example", "drive_speed"), ("cern_sizing_example", "drives_needed_total"))  # fmt: skip


def key_numbers() -> str:
    """The worked example term by term, and its flows on every catalog drive: labelled lines with units."""
    speed = cern_example_drive_speed()
    flows = cern_example_flows()
    s = drives_needed(flows, drive_speed_mb_s=speed)
    lines = [f"worked example, drive speed {number(speed)} MB/s: {number(s.total)} drives needed, buy {s.whole_drives}"]
    lines += [f"  {f.name}: {_term(f, e, d, speed)} ({percent(sh)})"
              for f, e, d, sh in zip(flows, s.efficiencies, s.drives, s.shares, strict=True)]  # fmt: skip
    lines.append("the same flows on each catalog drive:")
    for label, k in DRIVES:
        c = drives_needed(flows, drive_speed_mb_s=_speed(k))
        lines.append(f"  {label}, {number(_speed(k))} MB/s: {number(c.total)} drives needed, buy {c.whole_drives}")
    return "\n".join(lines)
