"""The scenario sheet widget: an editable grid of a lesson's scenarios bound to its panels.

One row per named scenario (:class:`vtsmodel.app.scenarios.ScenarioSheet` holds and checks
them): the input columns are editable, the computed columns are recomputed on every edit
and refuse edits. The selected row drives the bound panels' controls and the controls
edit the selected row; every plot of a bound panel overlays the other scenarios, dashed,
with a legend by name. Add, Duplicate, Rename, Delete, Save / Load (JSON) and Export CSV
buttons sit under the grid; a rejected edit shows its reason beside the grid and the
cell gets its old value back.

This module imports ipywidgets, ipydatagrid and plotly; ``import vtsmodel`` does not.
"""

from __future__ import annotations

import html
import math
import warnings
from collections.abc import Iterable
from pathlib import Path

import ipywidgets as w
import plotly.graph_objects as go

from vtsmodel.app.figures import figure_from_json, fixed_json
from vtsmodel.app.panels import Panel, View
from vtsmodel.app.scenarios import NAME_COLUMN, ScenarioSheet

__all__ = ["ScenarioSheetWidget", "overlay_traces", "scenario_sheet"]

_DASHES = ("dash", "dot", "dashdot", "longdash", "longdashdot")
_CACHE_SIZE = 128


def _datagrid():
    with warnings.catch_warnings():
        # ipydatagrid pulls in bqplot/bqscales, which warn on import with current traitlets
        warnings.simplefilter("ignore", DeprecationWarning)
        from ipydatagrid import DataGrid, TextRenderer
    return DataGrid, TextRenderer


def _is_overlay(trace) -> bool:
    """A trace worth repeating per scenario: a line, or a one-point operating marker.

    Markers of source data (many points, or hover text with a citation) are left alone.
    """
    if trace.type not in ("scatter", "scattergl"):
        return False
    mode = trace.mode or "lines"
    if "lines" in mode:
        return True
    x = trace.x if trace.x is not None else ()
    return trace.hovertext is None and len(x) == 1


def overlay_traces(fig: go.Figure, scenario: str, dash: str) -> list:
    """Copies of ``fig``'s line traces for ``scenario``: named, dashed, grouped by scenario."""
    out = []
    for tr in fig.data:
        if not _is_overlay(tr):
            continue
        t = tr.to_plotly_json()
        t["name"] = f"{scenario}: {tr.name or tr.type}"
        t["legendgroup"] = scenario
        # A trace its figure keeps out of the legend (an extrapolated stretch) stays out.
        t["showlegend"] = tr.showlegend is not False
        if "lines" in (tr.mode or "lines"):
            t["line"] = {**t.get("line", {}), "dash": dash}
        else:
            t["marker"] = {**t.get("marker", {}), "symbol": "diamond-open"}
        t.pop("uid", None)
        out.append(t)
    return out


def _cell(value):
    """A value the grid can show: non-finite numbers become empty cells."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def header_widths(headers, *, min_px: int = 90, max_px: int = 240) -> dict[str, int]:
    """Column widths [px] that show each header whole (about 7 px a character, 12 px font).

    ipydatagrid gives every column one width; long headers such as "hours at peak [h]"
    would be cut.
    """
    return {str(h): int(min(max_px, max(min_px, 7 * len(str(h)) + 28))) for h in headers}


class ScenarioSheetWidget:
    """An editable grid of scenarios, bound to one or more panels of the lesson.

    Parameters
    ----------
    lesson : str, int or module
        The lesson (``"01"``) or its module.
    panels : Panel or iterable of Panel, optional
        Panels whose controls named like ``SCENARIO_PARAMS`` keys follow the selected
        row; their plots overlay every scenario.
    sheet : ScenarioSheet, optional
        The scenarios; default one ``"base"`` row taken from the first panel's controls.
    path : str or Path, optional
        The file the Save and Load buttons use (default ``scenarios_<lesson>.json``).

    Attributes
    ----------
    sheet : ScenarioSheet
        The model; change it through this widget's methods so the grid follows.
    grid : ipydatagrid.DataGrid
    message : ipywidgets.HTML
        The last rejection or confirmation, beside the grid.
    summary : ipywidgets.HTML
        The selected scenario's computed columns as text (``data-value`` holds each full
        number), for readers the canvas of the grid does not reach.
    widget : ipywidgets.VBox
        What ``display`` shows.
    """

    def __init__(self, lesson, panels: Panel | Iterable[Panel] = (), *, sheet=None, path=None) -> None:
        DataGrid, TextRenderer = _datagrid()
        self._TextRenderer = TextRenderer
        self.sheet = sheet if sheet is not None else ScenarioSheet(lesson)
        self.selected = 0
        self.panels: list[Panel] = []
        self._views: dict = {}
        self._restoring = False
        self._syncing = False
        self.message = w.HTML(layout=w.Layout(min_height="1.6em"))
        self.message.add_class("vtsmodel-sheet-message")
        self.summary = w.HTML(layout=w.Layout(width="100%"))
        self.summary.add_class("vtsmodel-sheet-summary")
        self.grid = DataGrid(
            self._frame(),
            editable=True,
            selection_mode="cell",
            renderers=self._renderers(),
            base_column_size=110,
            column_widths=header_widths(self.sheet.columns),
            base_row_header_size=40,
            layout={"height": "170px", "width": "100%"},
        )
        self.grid.on_cell_change(self._on_cell)
        self.grid.observe(self._on_selection, names="selections")
        self.grid.add_class("vtsmodel-sheet-grid")
        self._build_controls(path)
        head = w.HTML(
            "<b>Scenarios</b> (double-click a cell, type, Enter; the grey columns are computed; "
            "the selected row drives the sliders)"
        )
        self.widget = w.VBox(
            [head, self.grid, self.summary, self.message, self._buttons, self._files],
            layout=w.Layout(width="100%", max_width="1240px"),
        )
        self.widget.add_class("vtsmodel-sheet")
        for p in [panels] if isinstance(panels, Panel) else list(panels):
            self.bind(p, adopt=(sheet is None and not self.panels))
        self._render_summary()

    # --- grid ----------------------------------------------------------------------------
    def _frame(self):
        import pandas as pd

        cols = self.sheet.columns
        rows = [{c: _cell(v) for c, v in r.items()} for r in self.sheet.rows()]
        df = pd.DataFrame(rows, columns=cols)
        for c in self.sheet.output_columns:
            df[c] = df[c].astype(float)
        # Inputs as objects: whatever is typed reaches the sheet's check (and its message);
        # a typed number column would make the grid refuse text before the sheet sees it.
        for h in self.sheet.headers.values():
            df[h] = df[h].astype(object)
        return df

    def _renderers(self) -> dict:
        TR = self._TextRenderer
        out = {
            c: TR(format=".4~g", background_color="#EFEFEF", text_color="#333")
            for c in self.sheet.output_columns
        }
        for p in self.sheet.params.values():
            if not p.choices:
                out[p.header] = TR(format=".4~g", horizontal_alignment="right")
        return out

    def refresh(self) -> None:
        """Redraw the whole grid from the sheet (after add, delete, rename or load)."""
        self._restoring = True
        try:
            self.grid.data = self._frame()
        finally:
            self._restoring = False
        self.selected = min(self.selected, len(self.sheet) - 1)
        self._rows_changed()

    def _put(self, row: int, column: str, value) -> None:
        self._restoring = True
        try:
            self.grid.set_cell_value_by_index(column, row, _cell(value))
        finally:
            self._restoring = False

    def _refresh_row(self, row: int) -> None:
        for k, h in self.sheet.headers.items():
            self._put(row, h, self.sheet.values(row)[k])
        for c, v in self.sheet.outputs(row).items():
            self._put(row, c, v)
        if row == self.selected:
            self._render_summary()

    def _render_summary(self) -> None:
        """The selected row's computed columns as text (the grid draws them on a canvas)."""
        cells = "".join(
            f"<span style='margin-right:14px'>{html.escape(c)}: "
            f"<b class='vtsmodel-sheet-output' data-label='{html.escape(c)}' data-value='{v!r}'>"
            f"{html.escape(format(v, '.4g'))}</b></span>"
            for c, v in self.sheet.outputs(self.selected).items()
        )
        name = html.escape(self.sheet.name(self.selected))
        self.summary.value = (
            f"<div style='font-size:90%;line-height:1.5'>Selected "
            f"<b class='vtsmodel-sheet-selected'>{name}</b>: {cells}</div>"
        )

    def _say(self, text: str, *, error: bool = False) -> None:
        color = "#B00020" if error else "#333"
        sign = "⚠ " if error else ""
        self.message.value = f"<span style='color:{color}'>{sign}{html.escape(text)}</span>"

    def _on_cell(self, cell) -> None:
        if self._restoring:
            return
        row, column, value = int(cell["row"]), str(cell["column"]), cell["value"]
        if self._is_echo(row, column, value):
            return
        self.set_cell(row, column, value)

    def _is_echo(self, row: int, column: str, value) -> bool:
        """Whether a reported cell already holds the sheet's value.

        The grid in the browser reports back, as an edit, every value the kernel puts into
        it (a recomputed column, a restored cell); applying those again would put them
        again, and so on for ever. A cell the user left as it was changes nothing either.
        """
        try:
            current = _cell(self.sheet.cell(row, column))
        except ValueError:
            return False
        if hasattr(value, "item"):
            value = value.item()
        if current is None or value is None:
            return current is None and value is None
        if isinstance(current, str | bool) or isinstance(value, str | bool):
            # True == 1 in Python: a flag only echoes a flag.
            return type(current) is type(value) and current == value
        # The browser may report a float a rounding step away (21 -> 20.999999999999996).
        return math.isclose(float(current), float(value), rel_tol=1e-9, abs_tol=1e-12)

    def set_cell(self, row: int, column: str, value) -> bool:
        """Apply an edit as the grid reports it; return whether it was accepted.

        A rejected edit shows its reason in :attr:`message` and the cell shows its old value.
        """
        try:
            old = self.sheet.cell(row, column)
        except ValueError as exc:
            self._say(f"rejected: {exc}", error=True)
            return False
        if hasattr(value, "item"):
            value = value.item()  # numpy scalars; an int typed into a float column is cast by the sheet
        try:
            self.sheet.set_cell(row, column, value)
        except ValueError as exc:
            shown = old if isinstance(old, str) else f"{old:.4g}" if isinstance(old, float) else old
            self._say(f"rejected: {exc}; kept {shown}", error=True)
            self._put(row, column, old)
            return False
        if column == NAME_COLUMN:
            self._refresh_names()
            self._say(f"renamed {old!r} to {self.sheet.name(row)!r}")
            return True
        self._refresh_row(row)
        self._say(f"{self.sheet.name(row)}: {column} = {self.sheet.cell(row, column)}")
        if row == self.selected:
            self._push_to_panels()
        else:
            self._update_panels()
        return True

    def _on_selection(self, change) -> None:
        sel = change["new"] or []
        if not sel:
            return
        row = int(sel[-1].get("r1", 0))
        if 0 <= row < len(self.sheet) and row != self.selected:
            self.select(row)

    # --- rows ---------------------------------------------------------------------------
    def select(self, row: int | str) -> None:
        """Make ``row`` the selected scenario: the panels' controls take its values."""
        self.selected = self.sheet.row_index(row)
        self._syncing = True
        try:
            self._choice.value = self.sheet.name(self.selected)
        finally:
            self._syncing = False
        self._render_summary()
        self._push_to_panels()

    def _refresh_names(self, *, update: bool = True) -> None:
        self._syncing = True
        try:
            self._choice.options = self.sheet.names
            self._choice.value = self.sheet.name(self.selected)
        finally:
            self._syncing = False
        self._render_summary()
        if update:
            self._update_panels()

    def _rows_changed(self) -> None:
        self._refresh_names(update=False)
        self._push_to_panels()

    def _do(self, action, done: str) -> None:
        try:
            result = action()
        except (ValueError, FileExistsError, OSError) as exc:
            self._say(f"{done.split()[0]} failed: {exc}", error=True)
            return
        self._say(done.format(result=result))

    def add(self, name: str | None = None) -> str:
        """Add a scenario at the lesson's defaults and select it."""
        new = self.sheet.add(name)
        self.selected = self.sheet.row_index(new)
        self.refresh()
        return new

    def duplicate(self) -> str:
        """Copy the selected scenario below it and select the copy."""
        new = self.sheet.duplicate(self.selected)
        self.selected = self.sheet.row_index(new)
        self.refresh()
        return new

    def rename(self, new_name: str) -> str:
        """Rename the selected scenario."""
        clean = self.sheet.rename(self.selected, new_name)
        self.refresh()
        return clean

    def delete(self) -> str:
        """Delete the selected scenario (not the last one)."""
        name = self.sheet.delete(self.selected)
        self.selected = max(0, self.selected - 1)
        self.refresh()
        return name

    def save(self, path=None, *, overwrite: bool | None = None) -> Path:
        """Save the scenarios as JSON (atomic; replaces a file only if asked)."""
        path = Path(path or self._path.value)
        return self.sheet.save(path, overwrite=self._overwrite.value if overwrite is None else overwrite)

    def load(self, path=None) -> None:
        """Load scenarios from JSON; a bad file changes nothing and says why."""
        self.sheet.load(Path(path or self._path.value))
        self.selected = 0
        self.refresh()

    def export_csv(self, path=None, *, overwrite: bool | None = None) -> Path:
        """Write the sheet as CSV beside the JSON file (same name, ``.csv``)."""
        path = Path(path) if path else Path(self._path.value).with_suffix(".csv")
        return self.sheet.export_csv(
            path, overwrite=self._overwrite.value if overwrite is None else overwrite
        )

    def _build_controls(self, path) -> None:
        def button(text, tip, fn):
            b = w.Button(description=text, tooltip=tip, layout=w.Layout(width="auto"))
            b.on_click(lambda _b: fn())
            return b

        self._choice = w.Dropdown(
            options=self.sheet.names, value=self.sheet.name(0), description="Selected",
            tooltip="The scenario the sliders show and edit", layout=w.Layout(width="260px"),
            style={"description_width": "70px"},
        )  # fmt: skip
        self._choice.observe(self._on_choice, names="value")
        self._name = w.Text(placeholder="new name", tooltip="New name of the selected scenario",
                            layout=w.Layout(width="160px"))  # fmt: skip
        self._buttons = w.HBox(
            [
                self._choice,
                button(
                    "Add", "Add a scenario at the defaults", lambda: self._do(self.add, "added {result!r}")
                ),
                button(
                    "Duplicate",
                    "Copy the selected scenario",
                    lambda: self._do(self.duplicate, "added {result!r}"),
                ),
                self._name,
                button(
                    "Rename",
                    "Rename the selected scenario",
                    lambda: self._do(lambda: self.rename(self._name.value), "renamed to {result!r}"),
                ),
                button(
                    "Delete",
                    "Delete the selected scenario",
                    lambda: self._do(self.delete, "deleted {result!r}"),
                ),
            ],  # fmt: skip
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        self._path = w.Text(
            value=str(path or f"scenarios_{self.sheet.lesson_id}.json"), description="File",
            tooltip="JSON file of the scenarios (CSV export uses the same name)",
            layout=w.Layout(width="360px"), style={"description_width": "40px"},
        )  # fmt: skip
        self._overwrite = w.Checkbox(value=False, description="replace existing", indent=False,
                                     layout=w.Layout(width="140px"))  # fmt: skip
        self._files = w.HBox(
            [
                self._path,
                self._overwrite,
                button("Save", "Save the scenarios as JSON", lambda: self._do(self.save, "saved {result}")),
                button("Load", "Load scenarios from the JSON file", lambda: self._do(self.load, "loaded")),
                button(
                    "Export CSV",
                    "Write the sheet as CSV",
                    lambda: self._do(self.export_csv, "wrote {result}"),
                ),
            ],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )

    def _on_choice(self, change) -> None:
        if not self._syncing and change["new"] in self.sheet.names:
            self.select(change["new"])

    # --- panels ----------------------------------------------------------------------------
    def bind(self, panel: Panel, *, adopt: bool = False) -> None:
        """Bind ``panel``: its matching controls follow and edit the selected row.

        With ``adopt``, the selected row first takes the panel's current values.
        """
        keys = [k for k in panel.controls if k in self.sheet.params]
        if not keys:
            raise ValueError(
                f"the panel has no control named like this lesson's inputs ({', '.join(self.sheet.params)})"
            )
        self.panels.append(panel)
        panel.decorate = lambda view, _p=panel: self._decorate(_p, view)
        for k in keys:
            panel.controls[k].observe(lambda change, _k=k: self._on_control(_k, change), names="value")
        if adopt:
            try:
                self.sheet.set_values(self.selected, **{k: panel.controls[k].value for k in keys})
                self._refresh_row(self.selected)
            except ValueError:
                pass  # the panel's start values are outside the sheet's ranges: keep the defaults
        self._push_to_panels()

    def _on_control(self, key: str, change) -> None:
        if self._syncing:
            return
        try:
            self.sheet.set_values(self.selected, **{key: change["new"]})
        except ValueError as exc:
            self._say(f"rejected: {exc}", error=True)
            return
        self._refresh_row(self.selected)

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

    def _other_view(self, panel: Panel, values: dict) -> View:
        kw = {k: values.get(k, c.value) for k, c in panel.controls.items()}
        key = (id(panel), tuple(sorted((k, repr(v)) for k, v in kw.items())))
        view = self._views.get(key)
        if view is None:
            if len(self._views) >= _CACHE_SIZE:
                self._views.clear()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                view = panel._view_fn(**kw)
            self._views[key] = view
        return view

    def _decorate(self, panel: Panel, view: View) -> View:
        """The panel's view with every other scenario's lines overlaid, by name."""
        if len(self.sheet) < 2:
            return view
        current = self.sheet.name(self.selected)
        others = [(n, v) for i, (n, v) in enumerate(self.sheet.scenarios().items()) if i != self.selected]
        overlays = {key: [] for key in view.figures}
        for j, (name, values) in enumerate(others):
            try:
                other = self._other_view(panel, values)
            except ValueError:
                continue  # a combination this panel cannot draw; the grid still shows its numbers
            for key in overlays:
                if key in other.figures:
                    overlays[key] += overlay_traces(other.figures[key], name, _DASHES[j % len(_DASHES)])
        figures = {}
        for key, fig in view.figures.items():
            # On the figure's JSON: a new validated Figure would cost most of a slider move.
            spec = fixed_json(fig)
            for t, tr in zip(spec["data"], fig.data, strict=True):
                if _is_overlay(tr):
                    t["name"] = f"{current}: {tr.name or tr.type}"
                    t["legendgroup"] = current
            if overlays[key]:
                spec["layout"]["showlegend"] = True
            figures[key] = figure_from_json(spec, overlays[key], copy_spec=False)  # spec is ours
        caption = {"Scenario": current, **view.caption_values, "Also shown": ", ".join(n for n, _ in others)}
        return View(figures, view.readouts, view.binding, caption, view.citations)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def scenario_sheet(lesson, *panels: Panel, path=None) -> ScenarioSheetWidget:
    """A scenario sheet for ``lesson`` bound to ``panels`` (display it under them)."""
    return ScenarioSheetWidget(lesson, panels, path=path)
