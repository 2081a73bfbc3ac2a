"""Lesson 02, a day in the life of the cache: a workload profile through the tape volume cache.

A built-in profile, or one edited in its table, run through :func:`vtsmodel.tvc_day.simulate_tvc`:
the cache's occupancy and the host's offered and accepted write rates through the day, with the
hours throttled. The panel is :func:`vtsmodel.app.lessons.time_at_peak.day_panel` (it shares the
configuration, CF, feature, threshold, copy rate and backlog with the time-at-peak panel).
Source: ibm-vts-b18-2000 (the cache's behaviour); the profiles are illustrative, not source data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ipywidgets as w
import numpy as np

from vtsmodel import Input, tvc_day, workload
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure
from vtsmodel.app.panels import Panel, Stage, View
from vtsmodel.app.tables import Column, TableEditor
from vtsmodel.app.text import number

INPUTS = {
    "profile": Input("profile", "", "nightly batch window", choices=tuple(workload.PROFILES),
                     help="A built-in illustrative workload (not source data); edit it in the table."),
    "read_hit": q.READ_HIT.but(step=0.05),
}  # fmt: skip
#: The columns of the profile table: interval start, host write and read rates.
PROFILE_INPUTS = {
    "start_hours": Input("start", "h", 0.0, lo=0.0, help="Start of the interval."),
    "write_mb_s": Input("write", "MB/s", 0.0, lo=0.0, help="Host write rate offered in the interval."),
    "read_mb_s": Input("read", "MB/s", 0.0, lo=0.0, help="Host read rate in the interval."),
}


def _spans(mask: np.ndarray) -> list[tuple[int, int]]:
    m = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(m == 1).tolist(), np.flatnonzero(m == -1).tolist(), strict=True))


def day_base(run: tvc_day.TvcRun, which: str) -> dict:
    """The simulated day: occupancy of the cache (``which="occupancy"``) or host rates (``"rates"``)."""
    t = run.time_hours
    stride = max(1, math.ceil(t.size / 300))
    ib = np.unique(np.append(np.arange(0, t.size, stride), t.size - 1))
    tb = t[ib]
    title = "Cache occupancy through the day" if which == "occupancy" else "Host write rate through the day"
    fig = new_figure(title=title, xaxis_title="time [h]", height=380,
                     yaxis_title="usable cache [GB]" if which == "occupancy" else "host write rate [MB/s]")  # fmt: skip
    for a, b in _spans(run.throttled):  # above the filled areas, translucent, so it shows on both plots
        fig.add_vrect(
            x0=float(t[a]), x1=float(t[b]), fillcolor="rgba(0,0,0,0.13)", line_width=0, layer="above"
        )
    if which == "occupancy":
        u = run.uncopied_gb[ib]
        fig.add_scatter(
            x=tb, y=u, mode="lines", name="not yet copied", stackgroup="c", line={"color": COLORS[1]}
        )
        fig.add_scatter(x=tb, y=run.capacity_gb - u, mode="lines", name="copied (space reusable)", stackgroup="c",
                        line={"color": COLORS[5]})  # fmt: skip
        fig.add_scatter(x=[t[0], t[-1]], y=[run.threshold_gb] * 2, mode="lines", name="fill threshold",
                        line={"color": "black", "dash": "dash"})  # fmt: skip
    else:
        cum = {
            k: np.concatenate([[0.0], np.cumsum(getattr(run, k) * np.diff(t))])
            for k in ("offered_mb_s", "accepted_mb_s")
        }
        for k, name, color in (
            ("offered_mb_s", "offered", COLORS[0]),
            ("accepted_mb_s", "accepted", COLORS[2]),
        ):
            fig.add_scatter(x=tb[:-1], y=np.diff(cum[k][ib]) / np.diff(tb), mode="lines", name=name,
                            line={"color": color, "shape": "hv", "width": 3 if name == "accepted" else 2})  # fmt: skip
        for val, label, dash in ((run.peak_mb_s, "peak", "dot"), (run.sustained_mb_s, "sustained", "dash")):
            fig.add_scatter(x=[t[0], t[-1]], y=[val, val], mode="lines", name=f"{label} {number(val)} MB/s",
                            line={"color": "#777", "dash": dash, "width": 1})  # fmt: skip
    fig.add_scatter(x=[None], y=[None], mode="markers", name="throttled",
                    marker={"symbol": "square", "size": 12, "color": "rgba(0,0,0,0.25)"})  # fmt: skip
    fig.update_xaxes(range=[0.0, float(t[-1])])
    fig.update_yaxes(rangemode="tozero")
    fig.update_layout(legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
                      margin={"t": 90, "r": 20, "b": 60, "l": 70}, title={"y": 0.97, "yanchor": "top"})  # fmt: skip
    return figure_json(fig)


@dataclass(frozen=True, eq=False)
class DayResult:
    """A workload profile run through the tape volume cache.

    Attributes
    ----------
    profile : vtsmodel.workload.Profile
        The workload (a built-in, or one edited in the table).
    run : vtsmodel.tvc_day.TvcRun
        The day simulated in 2-minute steps (:func:`vtsmodel.tvc_day.simulate_tvc`).
    """

    profile: workload.Profile
    run: tvc_day.TvcRun


def evaluate_day(profile="nightly batch window", tvc_config="tvc_432_36gb_paf", cf=3.0, feature="paf",
                 threshold=0.95, peak_copy_fraction=0.1, read_hit=0.5, backlog_gb=0.0) -> DayResult:  # fmt: skip
    """Panel 2: simulate ``profile`` (a built-in's name or a :class:`~vtsmodel.workload.Profile`) through the cache."""
    prof = workload.PROFILES[profile] if isinstance(profile, str) else profile
    run = tvc_day.simulate_tvc(prof, tvc_config=tvc_config, cf=cf, feature=feature, threshold=threshold,
                               peak_copy_fraction=peak_copy_fraction, read_hit=read_hit, backlog_gb=backlog_gb,
                               step_minutes=2.0)  # fmt: skip
    return DayResult(prof, run)


def view_day(r: DayResult) -> View:
    """Panel 2: the cache's occupancy and the host's rates through the day; what binds."""
    run = r.run
    if run.hours_throttled > 0:
        binding = (f"The cache reached its fill threshold at {number(run.first_throttle_hours)} h: input was "
                   f"throttled to what copying to tape sustains for {number(run.hours_throttled)} h.")  # fmt: skip
    elif run.delay_mb_hours > 0:
        binding = "The peak write rate binds: the host offered more than the VTS accepts even at peak."
    else:
        binding = (
            "Nothing binds: every write was accepted when offered, and the cache never reached its threshold."
        )
    cleared = run.backlog_cleared_hours
    readouts = {
        "time at peak": f"{number(run.hours_at_peak)} h" if run.hours_at_peak > 0 else "none (never above sustained)",
        "time throttled": f"{number(run.hours_throttled)} h" if run.hours_throttled > 0 else "none",
        "delay imposed": f"{number(run.delay_mb_hours / 1e6)} TB·h",
        "longest delay": f"{number(run.max_delay_hours)} h",
        "backlog cleared at": f"{number(cleared)} h" if math.isfinite(cleared) else "not by the end",
        "peak un-copied data": f"{number(run.peak_occupancy_gb)} GB",
    }  # fmt: skip
    return View(
        figures={k: Plot(day_base, {"run": run, "which": k}) for k in ("occupancy", "rates")},
        readouts=readouts, binding=binding, caption_values={"profile": r.profile.name},
        citations=(tvc_day.simulate_tvc, "vts_tvc_configs", "vts_facts"),
    )  # fmt: skip


#: Panel 2's stage.
DAY = Stage(evaluate_day, view_day)


def _check_start(rows: list, row: int, value: float, duration_hours: float) -> None:
    """A start time typed into row ``row`` (from 0) checked against its neighbours, in the table's words and numbers."""
    head, hours = PROFILE_INPUTS["start_hours"].header, lambda x: f"{number(x)} h"
    if row == 0 and value != 0:
        raise ValueError(f"{head} = {number(value)}: the first row starts the day, at 0 h")
    if row > 0 and value <= rows[row - 1][0]:
        raise ValueError(f"{head} = {number(value)} is not after row {row}'s {hours(rows[row - 1][0])}: "
                         "the starts must increase down the table")  # fmt: skip
    if row + 1 < len(rows) and value >= rows[row + 1][0]:
        raise ValueError(f"{head} = {number(value)} is not before row {row + 2}'s {hours(rows[row + 1][0])}: "
                         "the starts must increase down the table")  # fmt: skip
    if value >= duration_hours:
        raise ValueError(
            f"{head} = {number(value)} is not before the end of the day, {hours(duration_hours)}"
        )


class DayPanel:
    """Panel 2: a profile chooser, the profile's table and the simulated day, for ``inputs`` (the lesson's).

    An edit in the table is checked cell by cell (:data:`PROFILE_INPUTS`) and then as a
    whole (:func:`vtsmodel.workload.make_profile`: times in order, before the end); an
    accepted edit becomes the profile the panel simulates (:attr:`profile`).
    """

    def __init__(self, inputs: dict, **values) -> None:
        self.profile: workload.Profile = workload.PROFILES[values.get("profile", inputs["profile"].default)]
        self.edited = False
        self._edited: dict[str, workload.Profile] = {}  # each built-in profile as last edited
        self.panel = Panel(inputs, DAY, values=values, state=self._state, title="A day in the life of the cache",
                           name="02_day")  # fmt: skip
        self.panel.controls["profile"].observe(self._on_profile, names="value")
        columns = [Column.of(k, inp) for k, inp in PROFILE_INPUTS.items()]
        self.grid = TableEditor(columns, self._rows(), on_edit=self._on_edit, height="200px",
                                title="<b>Profile</b> (click a cell and type, Enter)")  # fmt: skip
        self.grid.widget.add_class("vtsmodel-sheet")
        self.grid.widget.add_class("vtsmodel-profile")
        self.widget = w.VBox([self.panel.widget, self.grid.widget])

    def _state(self) -> dict:
        """The profile the panel simulates where the table changed it (else the built-in the control names)."""
        return {"profile": self.profile} if self.edited else {}

    def _rows(self) -> list[dict]:
        return [dict(zip(PROFILE_INPUTS, r, strict=True)) for r in self.profile.rows()]

    def _on_profile(self, change) -> None:
        # a profile chosen again comes back with its accepted edits
        self.profile = self._edited.get(change["new"], workload.PROFILES[change["new"]])
        self.edited = change["new"] in self._edited
        self.grid.set_rows(self._rows())
        self.panel.update()

    def _on_edit(self, row: int, key: str, value) -> None:
        rows = [list(r) for r in self.profile.rows()]
        if key == "start_hours":
            _check_start(rows, row, value, self.profile.duration_hours)
        rows[row][list(PROFILE_INPUTS).index(key)] = value
        self.profile = workload.make_profile(rows, duration_hours=self.profile.duration_hours,
                                             name=f"{self.profile.name.removesuffix(' (edited)')} (edited)",
                                             assumptions=self.profile.assumptions)  # fmt: skip
        self.edited = True
        self._edited[self.panel.values["profile"]] = self.profile
        self.grid.set_row(row, self._rows()[row])
        self.panel.update()

    def set_cell(self, row: int, column: str, value) -> bool:
        """Edit a cell as a person types it; return whether it was accepted."""
        return self.grid.edit(row, column, value)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def day_summary(run: tvc_day.TvcRun) -> str:
    """The summary numbers of a simulated day, one labelled line each."""
    return "\n".join(f"{k}: {number(v)}" for k, v in run.summary().items())


def profile_assumptions_text() -> str:
    """One line per built-in workload profile: its name and its stated assumptions."""
    return "\n".join(f"{name}: {prof.assumptions}" for name, prof in workload.PROFILES.items())
