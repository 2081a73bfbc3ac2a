"""Lesson 05: the sizing workbench: how many drives for a site's data flows.

A sheet of data flows (an editable ``ipydatagrid.DataGrid``: name, rate, factor,
efficiency or access pattern), the drive choice, the drives needed with each flow's
share, a chart of the split and a comparison of the catalog's drives. The CERN sizing
note's worked example (cern-tape-sizing-2005, Summary, sample calculation: 50 drives)
loads as the default.

The view is a pure function of the flows and the drive (:func:`view_sizing`); the
workbench (:class:`SizingWorkbench`) holds the sheet, checks every edited cell and
restores the previous value with a visible message when a cell is not valid.
"""

from __future__ import annotations

import dataclasses
import html
import math
import warnings

import numpy as np
import plotly.graph_objects as go

from vtsmodel._validation import ExtrapolationWarning
from vtsmodel.app.figures import COLORS
from vtsmodel.app.lessons import Param
from vtsmodel.app.lessons.efficiency import fast_figure
from vtsmodel.app.panels import Panel, View, dropdown
from vtsmodel.catalog import drive_catalog, drive_names, drive_spec
from vtsmodel.sizing import Flow, cern_example_drive_speed, cern_example_flows, drives_needed

__all__ = [
    "COLUMNS",
    "NOTEBOOK",
    "SCENARIO_PARAMS",
    "TITLE",
    "SizingWorkbench",
    "compare_figure",
    "default_drive",
    "scenario_outputs",
    "scenario_view",
    "sizing_panel",
    "split_figure",
    "view_sizing",
]

LESSON_ID = "05"
TITLE = "Sizing workbench: tape drives for a site's data flows"
NOTEBOOK = "05_sizing_workbench.ipynb"

#: Sheet columns: header -> (Flow field, lower bound, upper bound, may be empty).
COLUMNS = {
    "name": ("name", None, None, False),
    "rate [MB/s]": ("rate_mb_s", 0.0, None, False),
    "factor [-]": ("peak_factor", 1.0, None, False),
    "efficiency [-]": ("efficiency", 0.0, 1.0, True),
    "file size [MB]": ("file_mb", 0.0, None, True),
    "files per mount [-]": ("files_per_mount", 1.0, None, True),
}
_FIGURE_HEIGHT = 380


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return func(*args, **kwargs)


def default_drive() -> str:
    """The catalog drive whose speed is the worked example's "maxspeed = 40 MB/s"."""
    speed = cern_example_drive_speed()
    return next(n for n in drive_names() if drive_spec(n).speed_mb_s == speed)


# --- figures --------------------------------------------------------------------------------


def split_figure(sizing) -> go.Figure:
    """Horizontal bar of the drives each flow needs, labelled with its share."""
    fig = fast_figure(title=f"Drives needed: {sizing.total:.4g} → buy {sizing.whole_drives}",
                     xaxis_title="drives [-]", height=_FIGURE_HEIGHT)  # fmt: skip
    for i, (name, d, sh) in enumerate(zip(sizing.names, sizing.drives, sizing.shares, strict=True)):
        fig.add_trace(
            go.Bar(
                x=[float(d)], y=["drives"], orientation="h", name=name, marker_color=COLORS[i % len(COLORS)],
                text=[f"{name}: {d:.3g} ({sh:.0%})"], textposition="inside", insidetextanchor="middle",
                hovertemplate=f"{html.escape(name)}: %{{x:.4g}} drives, {sh:.1%}<extra></extra>",
            )
        )  # fmt: skip
    fig.update_layout(barmode="stack", legend={"orientation": "h", "y": -0.25})
    fig.update_yaxes(showticklabels=False)
    return fig


def compare_figure(comparison: dict, names: tuple, chosen: str) -> go.Figure:
    """Drives needed per catalog drive, stacked by flow (log axis)."""
    drives = list(comparison)
    fig = fast_figure(
        title="Drives needed per catalog drive", yaxis_title="drives [-]", height=_FIGURE_HEIGHT
    )
    for i, name in enumerate(names):
        fig.add_trace(
            go.Bar(x=drives, y=[float(comparison[d].drives[i]) for d in drives], name=name,
                   marker_color=COLORS[i % len(COLORS)],
                   hovertemplate="%{x}: %{y:.4g} drives<extra>" + html.escape(name) + "</extra>")
        )  # fmt: skip
    fig.add_trace(
        go.Scatter(x=drives, y=[comparison[d].whole_drives for d in drives], mode="text+markers",
                   text=[str(comparison[d].whole_drives) for d in drives], textposition="top center",
                   marker={"symbol": "line-ew-open", "size": 1, "color": "black"}, name="to buy",
                   hovertemplate="%{x}: buy %{y}<extra></extra>")
    )  # fmt: skip
    fig.update_layout(barmode="stack")
    fig.update_yaxes(type="log")
    fig.add_annotation(x=chosen, y=1.0, yref="paper", text="chosen", showarrow=False, yanchor="bottom")
    return fig


# --- the pure view ----------------------------------------------------------------------------


def compare_drives(flows) -> dict:
    """:func:`~vtsmodel.sizing.drives_needed` for every catalog drive, by name."""
    return {
        n: _quiet(drives_needed, flows, drive_speed_mb_s=s.speed_mb_s) for n, s in drive_catalog().items()
    }


def view_sizing(flows, drive: str | None = None) -> View:
    """The workbench's view for a list of :class:`~vtsmodel.sizing.Flow` and a drive."""
    drive = drive or default_drive()
    spec = drive_spec(drive)
    flows = list(flows)
    comparison = compare_drives(flows)
    s = comparison[drive]
    readouts = {
        "drive speed [MB/s]": f"{spec.speed_mb_s:.3g} ({spec.speed_basis})",
        "drives needed [-]": f"{s.total:.4g}",
        "drives to buy [-]": f"{s.whole_drives}",
    }
    for name, d, sh, e in zip(s.names, s.drives, s.shares, s.efficiencies, strict=True):
        readouts[f"{name} [drives]"] = f"{d:.3g} ({sh:.0%}, efficiency {e:.2g})"
    big = s.names[int(np.argmax(s.drives))]
    binding = f"{big} needs the most drives: {float(np.max(s.drives)):.3g} of {s.total:.4g} ({float(np.max(s.shares)):.0%})."
    return View(
        figures={"split": split_figure(s), "compare": compare_figure(comparison, s.names, drive)},
        readouts=readouts,
        binding=binding,
        caption_values={
            "drive": drive,
            "speed [MB/s]": spec.speed_mb_s,
            **{f"{f.name} rate×factor [MB/s]": f.rate_mb_s * f.peak_factor for f in flows},
        },
        citations=("cern_sizing_example", "cern_facts", "drive_catalog"),
    )


# --- the sheet ------------------------------------------------------------------------------


def flows_to_frame(flows):
    """A pandas DataFrame of flows with the sheet's columns (empty cells as NaN)."""
    import pandas as pd

    rows = []
    for f in flows:
        rows.append({h: (getattr(f, fld) if getattr(f, fld) is not None else (np.nan if h != "name" else ""))
                     for h, (fld, *_rest) in COLUMNS.items()})  # fmt: skip
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _is_empty(value) -> bool:
    return (
        value is None
        or (isinstance(value, str) and not value.strip())
        or (isinstance(value, float) and math.isnan(value))
    )


def cast_cell(column: str, value):
    """Convert a sheet cell to its Flow value, or raise ``ValueError`` naming the column.

    Numbers may arrive as ``int``, ``float`` or text; empty cells (for the efficiency and
    the access pattern) become ``None``.
    """
    if column not in COLUMNS:
        raise ValueError(f"column={column!r} is not a sheet column; columns: {', '.join(COLUMNS)}")
    fld, lo, hi, optional = COLUMNS[column]
    if fld == "name":
        text = "" if value is None else str(value).strip()
        if not text:
            raise ValueError("name must not be empty")
        return text
    if _is_empty(value):
        if optional:
            return None
        raise ValueError(f"{column} must not be empty")
    if isinstance(value, bool):
        raise ValueError(f"{column}={value!r} must be a number")
    try:
        num = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{column}={value!r} must be a number") from None
    if not math.isfinite(num) or (lo is not None and num < lo) or (hi is not None and num > hi):
        rng = f"[{'-inf' if lo is None else f'{lo:g}'}, {'inf' if hi is None else f'{hi:g}'}]"
        raise ValueError(f"{column}={value!r} is outside the valid range {rng}")
    return num


def row_to_flow(row: dict) -> Flow:
    """A Flow from one sheet row (header -> cell); ``ValueError`` for an invalid row."""
    kw = {COLUMNS[h][0]: cast_cell(h, row.get(h)) for h in COLUMNS}
    return Flow(**kw)


class SizingWorkbench:
    """The sheet of flows, the drive choice and the live sizing panel.

    Parameters
    ----------
    flows : list of Flow, optional
        The starting flows; default the CERN worked example.
    drive : str, optional
        The starting drive; default the catalog drive of the example's 40 MB/s.

    Attributes
    ----------
    grid : ipydatagrid.DataGrid
        The editable sheet.
    panel : vtsmodel.app.panels.Panel
        The drive dropdown, readouts and figures.
    message : ipywidgets.HTML
        Shows why an edited cell was rejected.
    widget : ipywidgets.VBox
        Everything, for ``display``.
    """

    def __init__(self, flows=None, drive: str | None = None) -> None:
        import ipywidgets as w

        with warnings.catch_warnings():
            # bqplot (imported by ipydatagrid) uses a traitlets form deprecated upstream
            warnings.simplefilter("ignore", DeprecationWarning)
            from ipydatagrid import DataGrid

        from vtsmodel.app.sheet import header_widths

        self.flows: list[Flow] = list(cern_example_flows() if flows is None else flows)
        if not self.flows:
            raise ValueError("flows=[] is not valid: the workbench needs at least one flow")
        self.selected = 0
        self.grid = DataGrid(
            flows_to_frame(self.flows),
            editable=True,
            selection_mode="cell",
            base_column_size=120,
            base_row_header_size=30,
            column_widths=header_widths(COLUMNS),
            layout=w.Layout(height=self._grid_height(), width="100%"),
        )
        self.grid.add_class("vtsmodel-sheet")
        self.message = w.HTML()
        self.message.add_class("vtsmodel-sheet-message")
        options = [
            (f"{n} ({drive_spec(n).speed_mb_s:.3g} MB/s, {drive_spec(n).speed_basis})", n)
            for n in drive_names()
        ]
        controls = {
            "drive": dropdown("drive", options, drive or default_drive(), tooltip="Drive to size for")
        }
        self.panel = Panel(controls, self._view, title="Drives needed", name="05_sizing")
        self._restoring = False
        self.grid.on_cell_change(self._on_cell_change)
        self.grid.observe(self._on_selection, names="selections")
        add = w.Button(description="Add flow", tooltip="Add a copy of the selected flow, to edit",
                       layout=w.Layout(width="auto"))  # fmt: skip
        remove = w.Button(description="Remove flow", tooltip="Remove the selected flow",
                          layout=w.Layout(width="auto"))  # fmt: skip
        add.on_click(lambda _b: self.add_flow())
        remove.on_click(lambda _b: self.remove_flow())
        self.widget = w.VBox(
            [w.HTML("<b>Data flows</b> (double-click a cell to edit; leave efficiency empty to use the "
                    "access pattern; select a cell to choose its flow)"), self.grid,
             w.HBox([add, remove]), self.message, self.panel.widget],
            layout=w.Layout(width="100%", max_width="1240px"),
        )  # fmt: skip

    def _grid_height(self) -> str:
        return f"{40 + 28 * (len(self.flows) + 1)}px"

    def _on_selection(self, change) -> None:
        sel = change["new"] or []
        if sel:
            row = int(sel[-1].get("r1", 0))
            if 0 <= row < len(self.flows):
                self.selected = row

    def _refill(self) -> None:
        """Show :attr:`flows` in the grid again (after rows were added or removed)."""
        self._restoring = True
        try:
            self.grid.data = flows_to_frame(self.flows)
            self.grid.layout.height = self._grid_height()
        finally:
            self._restoring = False
        self.panel.update()

    def add_flow(self, flow: Flow | None = None) -> Flow:
        """Append ``flow``, or a copy of the selected flow named "... (copy)"; return it."""
        if flow is None:
            src = self.flows[self.selected]
            flow = dataclasses.replace(src, name=f"{src.name} (copy)")
        elif not isinstance(flow, Flow):
            raise ValueError(f"flow={flow!r} is not valid: give a vtsmodel.sizing.Flow or None")
        self.flows.append(flow)
        self.selected = len(self.flows) - 1
        self.message.value = f"added {html.escape(flow.name)}"
        self._refill()
        return flow

    def remove_flow(self, row: int | None = None) -> Flow | None:
        """Remove flow ``row`` (default the selected one); the last flow stays. Return it."""
        row = self.selected if row is None else row
        if not 0 <= row < len(self.flows):
            raise ValueError(f"row={row!r} is not valid: choose 0 to {len(self.flows) - 1}")
        if len(self.flows) == 1:
            self.message.value = "<span style='color:#B00020'>⚠ the last flow stays: edit it instead</span>"
            return None
        gone = self.flows.pop(row)
        self.selected = min(row, len(self.flows) - 1)
        self.message.value = f"removed {html.escape(gone.name)}"
        self._refill()
        return gone

    def _view(self, drive):
        return view_sizing(self.flows, drive)

    @property
    def sizing(self):
        """The current :class:`~vtsmodel.sizing.Sizing` for the chosen drive."""
        return _quiet(
            drives_needed, self.flows, drive_speed_mb_s=drive_spec(self.panel.values["drive"]).speed_mb_s
        )

    def _on_cell_change(self, cell) -> None:
        if self._restoring:
            return
        row, column, value = int(cell["row"]), cell["column"], cell["value"]
        self.edit(row, column, value, _from_grid=True)

    def edit(self, row: int, column: str, value, *, _from_grid: bool = False) -> bool:
        """Set one cell as a user would; return whether it was accepted.

        A rejected cell keeps (or gets back) its previous value and the message says why.
        """
        import html as _html

        old = self.flows[row]
        previous = flows_to_frame([old]).iloc[0][column] if column in COLUMNS else None
        try:
            cells = flows_to_frame([old]).iloc[0].to_dict()
            cells[column] = value
            new = row_to_flow(cells)
            _quiet(drives_needed, [new], drive_speed_mb_s=drive_spec(self.panel.values["drive"]).speed_mb_s)
        except ValueError as exc:
            self.message.value = (
                f"<span style='color:#B00020'>⚠ row {row + 1}, {_html.escape(str(column))}: "
                f"{_html.escape(str(exc))}; kept {_html.escape(str(previous))}</span>"
            )
            if _from_grid and column in COLUMNS:
                self._set_cell(row, column, previous)
            return False
        self.message.value = ""
        self.flows[row] = new
        if not _from_grid:
            self._set_cell(row, column, cast_cell(column, value) if not _is_empty(value) else previous)
        else:
            # keep the stored cell a number even when the browser sent an int or text
            clean = cast_cell(column, value)
            if clean is not None and clean != value:
                self._set_cell(row, column, clean)
        self.panel.update()
        return True

    def cell(self, row: int, column: str):
        """The value the sheet shows in one cell."""
        return self.grid.get_cell_value_by_index(column, row)

    def _set_cell(self, row, column, value) -> None:
        self._restoring = True
        try:
            self.grid.set_cell_value_by_index(column, row, np.nan if value is None else value)
        finally:
            self._restoring = False

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def sizing_panel(flows=None, drive: str | None = None) -> SizingWorkbench:
    """The sizing workbench, loaded with the CERN worked example by default."""
    return SizingWorkbench(flows, drive)


# --- lesson contract --------------------------------------------------------------------------

_EX = cern_example_flows()
_KEYS = ("t0_to_t1", "reprocessing", "t2_analysis")

# The default drive is the catalog's 40 MB/s one, the worked example's (a None default
# would reach scenario_outputs as drive=None from the scenario sheet and be refused).
SCENARIO_PARAMS = {
    "drive": Param("drive", "", default_drive(), choices=drive_names(), help="Catalog drive to size for")
}
for _k, _f in zip(_KEYS, _EX, strict=True):
    SCENARIO_PARAMS[f"{_k}_rate_mb_s"] = Param(f"{_f.name} rate", "MB/s", _f.rate_mb_s, 0.0, 1e5)
    SCENARIO_PARAMS[f"{_k}_factor"] = Param(f"{_f.name} factor", "-", _f.peak_factor, 1.0, 100.0)
    SCENARIO_PARAMS[f"{_k}_efficiency"] = Param(f"{_f.name} efficiency", "-", _f.efficiency, 0.001, 1.0)


def _scenario(values):
    v = {}
    for k, p in SCENARIO_PARAMS.items():
        v[k] = p.coerce(k, values[k]) if k in values else p.default
    unknown = set(values) - set(SCENARIO_PARAMS)
    if unknown:
        raise ValueError(
            f"{', '.join(sorted(unknown))} not scenario inputs; inputs: {', '.join(SCENARIO_PARAMS)}"
        )
    if v["drive"] is None:
        v["drive"] = default_drive()
    flows = [
        Flow(f.name, v[f"{k}_rate_mb_s"], v[f"{k}_factor"], v[f"{k}_efficiency"])
        for k, f in zip(_KEYS, _EX, strict=True)
    ]
    return flows, v["drive"]


def scenario_outputs(**values) -> dict[str, float]:
    """Drives needed (total, to buy, per flow) for one scenario of the example's three flows."""
    flows, drive = _scenario(values)
    s = drives_needed(flows, drive_speed_mb_s=drive_spec(drive).speed_mb_s)
    out = {"drives needed [-]": s.total, "drives to buy [-]": float(s.whole_drives)}
    out.update({f"{n} [drives]": float(d) for n, d in zip(s.names, s.drives, strict=True)})
    return out


def scenario_view(**values) -> View:
    """The workbench's figures for one scenario."""
    flows, drive = _scenario(values)
    return view_sizing(flows, drive)


def example_html() -> str:
    """The worked example as an HTML table: the sizing rows, with the source line."""
    from vtsmodel.app.lessons.efficiency import _html_table
    from vtsmodel.sizing import cern_example_drive_speed, sizing_table

    rows = sizing_table(cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    return _html_table(rows) + (
        "<p><i>cern-tape-sizing-2005, Summary, sample calculation; drive speed "
        f"{cern_example_drive_speed():g} MB/s.</i></p>"
    )


def key_numbers() -> str:
    """The lesson's key numbers as plain text (for the notebook's checked cell)."""
    from vtsmodel.sizing import cern_example_drive_speed

    s = drives_needed(cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    lines = [f"worked example at {s.drive_speed_mb_s:g} MB/s: {s.total:g} drives"]
    lines += [f"  {n}: {d:g} drives ({sh:.0%})" for n, d, sh in zip(s.names, s.drives, s.shares, strict=True)]
    for name, c in compare_drives(cern_example_flows()).items():
        lines.append(f"{name} at {drive_spec(name).speed_mb_s:.3g} MB/s: {c.total:.1f} drives")
    return "\n".join(lines)


def check_key_numbers() -> str:
    """:func:`key_numbers`, checked against the note's worked example (data/cern_sizing_example.csv).

    Checks: the example's drive speed is the catalog drive the workbench sizes with by
    default; each flow's drives (10, 15, 25) and the total, "Number of needed tape drives =
    50", to the printed whole drive. Raises AssertionError naming the source statement.

    Returns
    -------
    str
        The lines to print.
    """
    from vtsmodel import data
    from vtsmodel.app.lessons.efficiency import _expect

    t = "cern_sizing_example"
    _expect(
        drive_spec(default_drive()).speed_mb_s == cern_example_drive_speed(),
        f"the default drive {default_drive()} is not the example's maxspeed",
        t,
        "drive_speed",
    )
    s = drives_needed(cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    for key, d in zip(_KEYS, s.drives, strict=True):
        want = data.load(t).value(f"{key}_drives")
        _expect(
            abs(float(d) - want) < 0.5, f"{key}: {float(d):g} drives, expected {want:g}", t, f"{key}_drives"
        )
    want = data.load(t).value("drives_needed_total")
    _expect(
        abs(s.total - want) < 0.5, f"{s.total:g} drives in all, expected {want:g}", t, "drives_needed_total"
    )
    return key_numbers()
