"""The scenario sheet widget: a lesson's named scenarios in a table, bound to its panels.

One row per scenario (:class:`~vtsmodel.app.scenarios.ScenarioSheet` holds and checks
them) in a :class:`~vtsmodel.app.tables.TableEditor`: the name and the inputs are editable,
the computed columns are grey. The selected row (marked on the page) drives the bound
panels' controls and the controls edit the selected row; every plot of a bound panel overlays the other scenarios,
dashed, one legend entry per scenario. Its file bar (:class:`~vtsmodel.app.downloads.FileBar`):
Save and Export CSV download the sheet in the browser; Load reads a file the person picks,
with the same checks as any scenario file.

This module imports ipywidgets and anywidget; ``import vtsmodel`` does not.
"""

from __future__ import annotations

import dataclasses
import html
import warnings
from collections.abc import Iterable

import ipywidgets as w

from vtsmodel import Input, number
from vtsmodel.app.downloads import FileBar
from vtsmodel.app.panels import Panel, View
from vtsmodel.app.scenarios import MAX_FILE_BYTES, NAME_COLUMN, ScenarioSheet, parse_scenario_bytes
from vtsmodel.app.tables import Column, TableEditor

__all__ = ["ScenarioSheetWidget", "overlay_traces", "scenario_sheet"]

_DASHES = ("dash", "dot", "dashdot", "longdash", "longdashdot")
_NAME = Input(NAME_COLUMN, "", "scenario", help="The scenario's name, unique in the sheet.")
#: CSS height beyond which the sheet scrolls (its head stays): about ten scenarios.
SHEET_HEIGHT = "320px"


#: The marker of another scenario's operating point (cited source points are open circles and diamonds).
OVERLAY_POINT = "x-thin-open"


def overlay_traces(spec: dict, scenario: str, dash: str, *, first: bool = True) -> list[dict]:
    """Another scenario's lines and operating points, dashed, grouped under its name.

    Lines of ``spec`` are copied dashed; its named marks (operating points drawn as shapes)
    become open markers; cited source markers are left out. Only the first trace of a
    scenario (with ``first``) shows in the legend, under the scenario's name.
    """
    out = []
    for tr in spec.get("data", []):
        if tr.get("type", "scatter") != "scatter" or "lines" not in (tr.get("mode") or "lines"):
            continue
        t = {
            k: v
            for k, v in tr.items()
            if k not in ("uid", "hovertemplate", "legendgroup", "showlegend", "name")
        }
        t["line"] = {**tr.get("line", {}), "dash": dash}
        out.append(t)
    for shape in spec.get("layout", {}).get("shapes", []):
        if not shape.get("name") or not shape.get("visible", True):
            continue
        if "xanchor" in shape:  # a point mark: a cross, a symbol no cited source point uses
            out.append({
                "type": "scatter", "x": [shape["xanchor"]], "y": [shape["yanchor"]], "mode": "markers",
                "marker": {"symbol": OVERLAY_POINT, "size": 13, "color": shape.get("fillcolor", "#444"),
                           "line": {"width": 2.5, "color": shape.get("fillcolor", "#444")}},
                "point": True,
            })  # fmt: skip
        elif shape.get("type") == "path" and shape.get("path"):  # a highlighted curve (path_mark)
            x, y = _path_points(shape["path"])
            out.append({"type": "scatter", "x": x, "y": y, "mode": "lines",
                        "line": {"color": shape.get("line", {}).get("color", "#444"), "dash": dash, "width": 2}})  # fmt: skip
    first_point = next((i for i, t in enumerate(out) if t.get("point")), None)
    for i, t in enumerate(out):
        point = t.pop("point", False)
        # the scenario's lines and its setting each once in the legend
        t.update(name=f"{scenario}: its setting" if point else scenario, legendgroup=f"scenario {scenario}",
                 showlegend=first and (i == 0 or i == first_point),
                 hovertemplate=f"{scenario}<br>%{{x:.3g}}, %{{y:.3g}}<extra></extra>")  # fmt: skip
    return out


def _path_points(path: str) -> tuple[list, list]:
    """The points of an SVG path of ``M``/``L`` commands in data coordinates; a gap at each ``M``."""
    x, y = [], []
    for token in path.split():
        cmd, xy = token[0], token[1:]
        if cmd == "M" and x:
            x.append(None)
            y.append(None)
        a, b = xy.split(",")
        x.append(float(a))
        y.append(float(b))
    return x, y


class ScenarioSheetWidget:
    """An editable table of scenarios, bound to one or more panels of the lesson.

    Parameters
    ----------
    lesson : module
        The lesson's module (``vtsmodel.app.lessons.write``).
    panels : Panel or iterable of Panel, optional
        Panels whose inputs named like the lesson's ``SCENARIO`` follow the selected row;
        their plots overlay every other scenario.
    sheet : ScenarioSheet, optional
        The scenarios; default one ``"scenario 1"`` row taken from the first panel's values.

    Attributes
    ----------
    sheet : ScenarioSheet
        The model; change it through this widget's methods so the table follows.
    grid : TableEditor
    summary : ipywidgets.HTML
        The selected scenario's computed columns as text (``data-value`` holds each number).
    widget : ipywidgets.VBox
    """

    def __init__(self, lesson, panels: Panel | Iterable[Panel] = (), *, sheet=None) -> None:
        self.sheet = sheet if sheet is not None else ScenarioSheet(lesson)
        self.selected = 0
        self.panels: list[Panel] = []
        self._syncing = False
        columns = [Column(NAME_COLUMN, NAME_COLUMN, _NAME)]
        columns += [Column.of(k, inp) for k, inp in self.sheet.params.items()]
        columns += [Column(c, c) for c in self.sheet.output_columns]
        self.grid = TableEditor(
            columns, self._rows(), on_edit=self._on_edit, on_select=self.select, height=SHEET_HEIGHT,
            mark_selected=True,
            title="<b>Scenarios</b> (click a cell and type, Enter; grey columns are computed; "
            "the marked row is the one the panel above shows: click a row's number to choose it)",
        )  # fmt: skip
        self.grid.widget.add_class("vtsmodel-sheet")
        self.summary = w.HTML(layout=w.Layout(width="100%"))
        self.summary.add_class("vtsmodel-sheet-summary")
        self._build_controls()
        self.widget = w.VBox(
            [self.grid.widget, self.summary, self._buttons, self.files.widget],
            layout=w.Layout(width="100%", max_width="1240px"),
        )
        for p in [panels] if isinstance(panels, Panel) else list(panels):
            self.bind(p, adopt=(sheet is None and not self.panels))
        self._render_summary()

    @property
    def message(self) -> w.HTML:
        """The last rejection or confirmation, under the table."""
        return self.grid.message

    # --- rows ----------------------------------------------------------------------------------
    def _rows(self) -> list[dict]:
        return [
            {NAME_COLUMN: n, **self.sheet.values(i), **self.sheet.outputs(i)}
            for i, n in enumerate(self.sheet.names)
        ]

    def _refresh(self) -> None:
        """Show the whole sheet again (after add, delete, rename or load)."""
        self.selected = min(self.selected, len(self.sheet) - 1)
        with self.grid.view.hold_sync():  # the rows and the selection in one message
            self.grid.set_rows(self._rows())
            self.grid.selected = self.selected
        self._refresh_names()
        self._push_to_panels()

    def _refresh_row(self, i: int) -> None:
        self.grid.set_row(i, self._rows()[i])
        if i == self.selected:
            self._render_summary()

    def _render_summary(self) -> None:
        cells = "".join(
            f"<span style='margin-right:14px'>{html.escape(c)}: "
            f"<b class='vtsmodel-sheet-output' data-label='{html.escape(c)}' data-value='{v!r}'>"
            f"{html.escape(number(v, 4))}</b></span>"
            for c, v in self.sheet.outputs(self.selected).items()
        )
        name = html.escape(self.sheet.name(self.selected))
        self.summary.value = (
            f"<div style='font-size:90%;line-height:1.5'>Selected "
            f"<b class='vtsmodel-sheet-selected'>{name}</b>: {cells}</div>"
        )

    def _on_edit(self, row: int, key: str, value) -> None:
        """An accepted cell: apply it to the sheet (``ValueError`` rejects it), then show it."""
        if key == NAME_COLUMN:
            self.sheet.rename(row, value)
            self._refresh_names()
        else:
            self.sheet.set_values(row, **{key: value})
        self._refresh_row(row)
        if row == self.selected:
            self._push_to_panels()
        else:
            self._update_panels()

    def set_cell(self, row: int, column: str, value) -> bool:
        """Edit a cell as a person types it (``column`` a key or a header); return whether accepted."""
        key = column if column == NAME_COLUMN else self.sheet.column_key(column)
        return self.grid.edit(row, key, value)

    def select(self, row: int | str) -> None:
        """Make ``row`` the selected scenario: the panels' controls take its values."""
        self.selected = self.sheet.row_index(row)
        self.grid.selected = self.selected
        self._syncing = True
        try:
            self._choice.value = self.sheet.name(self.selected)
        finally:
            self._syncing = False
        self._render_summary()
        self._push_to_panels()

    def _refresh_names(self) -> None:
        self._syncing = True
        try:
            self._choice.options = self.sheet.names
            self._choice.value = self.sheet.name(self.selected)
        finally:
            self._syncing = False
        self._render_summary()

    def _typed(self) -> str | None:
        """The name typed in the name box, or None when it is empty."""
        return self._name.value.strip() or None

    def _do(self, action, done: str) -> None:
        try:
            result = action()
        except ValueError as exc:
            self.grid.say(f"{done.split()[0]} failed: {exc}", error=True)
            return
        self._name.value = ""  # the name was used
        self.grid.say(done.format(result=result))

    def add(self, name: str | None = None) -> str:
        """Add a scenario at the lesson's defaults and select it."""
        new = self.sheet.add(name)
        self.selected = self.sheet.row_index(new)
        self._refresh()
        return new

    def duplicate(self, name: str | None = None) -> str:
        """Copy the selected scenario below it (as ``name``, else ``"<name> copy"``) and select the copy."""
        new = self.sheet.duplicate(self.selected, name)
        self.selected = self.sheet.row_index(new)
        self._refresh()
        return new

    def rename(self, new_name: str) -> str:
        """Rename the selected scenario."""
        clean = self.sheet.rename(self.selected, new_name)
        self._refresh()
        return clean

    def delete(self) -> str:
        """Delete the selected scenario (not the last one)."""
        name = self.sheet.delete(self.selected)
        self.selected = max(0, self.selected - 1)
        self._refresh()
        return name

    # --- files: downloads and uploads -------------------------------------------------------
    @property
    def file_stem(self) -> str:
        """The name the downloads take: ``scenarios_01``."""
        return f"scenarios_{self.sheet.lesson_id}"

    def save(self) -> str:
        """Download the scenarios as JSON; return the file name."""
        return self.files.deliver("save", lambda: (f"{self.file_stem}.json", self.sheet.to_json()))

    def export_csv(self) -> str:
        """Download the sheet as CSV; return the file name."""
        return self.files.deliver("export", lambda: (f"{self.file_stem}.csv", self.sheet.to_csv()))

    def load_bytes(self, data: bytes, name: str = "the file") -> str:
        """Replace the scenarios with a scenario file's bytes; a bad file changes nothing."""
        self.sheet.load_dict(parse_scenario_bytes(data, name))
        self.selected = 0
        self._refresh()
        return f"loaded {len(self.sheet)} scenarios from <b>{html.escape(name)}</b>"

    def _build_controls(self) -> None:
        def button(text, tip, fn):
            b = w.Button(description=text, tooltip=tip, layout=w.Layout(width="auto"))
            b.on_click(lambda _b: fn())
            return b

        self._choice = w.Dropdown(
            options=self.sheet.names, value=self.sheet.name(0), description="Selected",
            tooltip="The scenario the panel shows and edits", layout=w.Layout(width="260px"),
            style={"description_width": "70px"},
        )  # fmt: skip
        self._choice.observe(self._on_choice, names="value")
        self._name = w.Text(placeholder="name", tooltip="A name for Add, Duplicate or Rename (empty: a name is made up)",
                            layout=w.Layout(width="160px"))  # fmt: skip
        self._buttons = w.HBox(
            [self._choice, self._name,
             button("Add", "Add a scenario at the defaults, named as typed",
                    lambda: self._do(lambda: self.add(self._typed()), "added {result!r}")),
             button("Duplicate", "Copy the selected scenario, named as typed",
                    lambda: self._do(lambda: self.duplicate(self._typed()), "added {result!r}")),
             button("Rename", "Rename the selected scenario",
                    lambda: self._do(lambda: self.rename(self._name.value), "renamed to {result!r}")),
             button("Delete", "Delete the selected scenario", lambda: self._do(self.delete, "deleted {result!r}"))],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )  # fmt: skip
        self.files = FileBar("sheet")
        self.files.button("Save", self.save, "Download the scenarios as JSON")
        self.files.upload("Load…", self.load_bytes, accept=".json", max_bytes=MAX_FILE_BYTES,
                          tooltip="Load scenarios from a JSON file")  # fmt: skip
        self.files.button("Export CSV", self.export_csv, "Download the sheet as CSV")

    def _on_choice(self, change) -> None:
        if not self._syncing and change["new"] in self.sheet.names:
            self.select(change["new"])

    # --- panels ----------------------------------------------------------------------------
    def bind(self, panel: Panel, *, adopt: bool = False) -> None:
        """Bind ``panel``: its inputs named like the sheet's follow and edit the selected row.

        With ``adopt``, the selected row first takes the panel's current values.
        """
        keys = [k for k in panel.controls if k in self.sheet.params]
        if not keys:
            raise ValueError(
                f"the panel has no input named like this lesson's ({', '.join(self.sheet.params)})"
            )
        self.panels.append(panel)
        panel.decorate = lambda view, _p=panel: self._decorate(_p, view)
        for k in keys:
            panel.controls[k].observe(lambda change, _k=k: self._on_control(_k, change), names="value")
        if adopt:
            self.sheet.set_values(self.selected, **{k: panel.controls[k].value for k in keys})
            self._refresh_row(self.selected)
        self._push_to_panels()

    def _on_control(self, key: str, change) -> None:
        if self._syncing:
            return
        try:
            self.sheet.set_values(self.selected, **{key: change["new"]})
        except ValueError as exc:
            self.grid.say(f"rejected: {exc}", error=True)
            return
        self._refresh_row(self.selected)
        # Other bound panels with the same input follow (panels of one lesson share inputs).
        self._syncing = True
        try:
            for p in self.panels:
                if key in p.controls and p.controls[key].value != change["new"]:
                    p.set(**{key: change["new"]})
        finally:
            self._syncing = False

    def _push_to_panels(self) -> None:
        values = self.sheet.values(self.selected)
        self._syncing = True
        try:
            for p in self.panels:
                p.set(**{k: values[k] for k in p.controls if k in values})
        finally:
            self._syncing = False

    def _update_panels(self) -> None:
        for p in self.panels:
            p.update()

    @staticmethod
    def _other_view(panel: Panel, values: dict) -> View:
        """The panel's view of another scenario's ``values`` (its evaluation kept in the app's cache)."""
        kw = {k: values.get(k, c.value) for k, c in panel.controls.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return panel.view_of(kw)

    def _decorate(self, panel: Panel, view: View) -> View:
        """The panel's view with every other scenario's lines and points overlaid, by name."""
        if len(self.sheet) < 2:
            return view
        others = [(n, v) for i, (n, v) in enumerate(self.sheet.scenarios().items()) if i != self.selected]
        figures = dict(view.figures)
        for j, (name, values) in enumerate(others):
            try:
                other = self._other_view(panel, values)
            except ValueError:
                continue  # a combination this panel cannot draw; the table still shows its numbers
            for key in view.figures:
                if key in other.figures:
                    extra = overlay_traces(other.figures[key].spec(), name, _DASHES[j % len(_DASHES)])
                    figures[key] = figures[key].with_traces(extra)
        caption = {"Scenario": self.sheet.name(self.selected), **view.caption_values,
                   "Also shown": ", ".join(n for n, _ in others)}  # fmt: skip
        return dataclasses.replace(view, figures=figures, caption_values=caption)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def scenario_sheet(lesson, *panels: Panel) -> ScenarioSheetWidget:
    """A scenario sheet for ``lesson`` bound to ``panels`` (display it under them)."""
    return ScenarioSheetWidget(lesson, panels)
