"""Lesson 01, import and export: the task time of Eqs. 1 and 2 and where it goes.

The calculator's inputs, figure bases, view and the numbers the notebook prints; its
panel is :func:`vtsmodel.app.lessons.write.import_export_panel`. Source:
ibm-vts-b18-2000, Sec. 7 (Eqs. 1 and 2, Fig. 14).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from vtsmodel import import_export as ie
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, point_mark
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number
from vtsmodel.data import load

INPUTS = {
    "mb": q.DATA_MB.but(hi=4000.0, step=50.0),
    "mounts": q.MOUNTS.but(lo=2, hi=30),
    "searches": q.SEARCHES.but(hi=20),
    "interference": q.INTERFERENCE,
}
#: Data moved, axis of the task-time figure. [MB]
MB_AXIS = np.linspace(0.0, 4000.0, 81)


def task_time_base(mounts: int, searches: int, interference: str) -> dict:
    """Import and export task time vs data moved (Eqs. 1 and 2), the fitted range shaded."""
    facts = load("vts_facts")
    fitted_mb = facts.value("ie_trend_data_gb") * (1.0 + facts.value("ie_outlier_extra_data")) * 1000.0
    fig = new_figure(title="Import/export task time", xaxis_title="data moved, compressed [MB]",
                     yaxis_title="task time [min]", height=400)  # fmt: skip
    fig.add_vrect(x0=0, x1=fitted_mb, fillcolor=COLORS[2], opacity=0.07, line_width=0)
    for func, name, color in (
        (ie.export_minutes, "export (Eq. 1)", COLORS[0]),
        (ie.import_minutes, "import (Eq. 2)", COLORS[1]),
    ):
        y = func(MB_AXIS, mounts, searches, interference=interference)
        fig.add_trace(go.Scatter(x=MB_AXIS, y=y, mode="lines", name=name, line={"color": color, "width": 3}))
    fig.update_xaxes(range=[0, float(MB_AXIS[-1])])
    fig.update_yaxes(
        range=[0, 1.05 * float(ie.import_minutes(MB_AXIS[-1], mounts, searches, interference=interference))]
    )
    return figure_json(fig)


def task_parts_base(mb: float, mounts: int, searches: int, interference: str) -> dict:
    """Stacked bars: where each task's time goes (data, mounts, searches, other work)."""
    fig = new_figure(title="Where the time goes", xaxis_title="task time [min]", height=260)
    parts = {}
    for task, func in (("export", ie.export_minutes), ("import", ie.import_minutes)):
        base = {
            "data": float(func(mb, 2, 0)) - float(func(0.0, 2, 0)),
            "mounts": float(func(0.0, mounts, 0)),
            "searches": float(func(0.0, 2, searches)) - float(func(0.0, 2, 0)),
        }
        factor = float(ie.interference_factor(task, interference, mounts=mounts))
        base["other work"] = (factor - 1.0) * sum(base.values())
        parts[task] = base
    for i, term in enumerate(parts["export"]):
        fig.add_trace(go.Bar(y=list(parts), x=[parts[t][term] for t in parts], name=term, orientation="h",
                             marker_color=COLORS[(i + 2) % len(COLORS)],
                             hovertemplate=f"{term}: %{{x:.3g}} min<extra>%{{y}}</extra>"))  # fmt: skip
    fig.update_layout(barmode="stack")
    return figure_json(fig)


@dataclass(frozen=True)
class TaskResult:
    """One import and one export task: their times (Eqs. 1 and 2).

    Attributes
    ----------
    mb, mounts, searches, interference
        The inputs.
    export_min, import_min : float
        The task times. [min]
    """

    mb: float
    mounts: int
    searches: int
    interference: str
    export_min: float
    import_min: float


def evaluate_import_export(mb=2300.0, mounts=10, searches=0, interference="none") -> TaskResult:
    """The import/export calculator: task times (ibm-vts-b18-2000, Sec. 7, Eqs. 1 and 2)."""
    kw = {"interference": interference}
    e = float(ie.export_minutes(mb, mounts, searches, **kw))
    i = float(ie.import_minutes(mb, mounts, searches, **kw))
    return TaskResult(float(mb), int(mounts), int(searches), interference, e, i)


def view_import_export(r: TaskResult) -> View:
    """The task times on their lines, and where the time goes."""
    mb, e, i = r.mb, r.export_min, r.import_min
    slow = {"mounts": r.mounts, "searches": r.searches, "interference": r.interference}
    figures = {
        "task_time": Plot(task_time_base, slow, shapes=[point_mark(mb, e, color=COLORS[0], name="export, this task"),
                                                        point_mark(mb, i, color=COLORS[1], name="import, this task")]),
        "task_parts": Plot(task_parts_base, {"mb": mb, **slow}),
    }  # fmt: skip
    readouts = {"export": f"{number(e)} min", "import": f"{number(i)} min",
                "export data rate": f"{number(mb / (e * 60.0))} MB/s", "import data rate": f"{number(mb / (i * 60.0))} MB/s",
                "recall rate meanwhile": f"× {number(ie.RECALL_RATE_FACTOR)}"}  # fmt: skip
    return View(figures=figures, readouts=readouts,
                binding=f"Export {number(e)} min, import {number(i)} min for {number(mb)} MB and {r.mounts} mounts.",
                citations=(ie.export_minutes, ie.import_minutes))  # fmt: skip


#: The calculator's stage.
IMPORT_EXPORT = Stage(evaluate_import_export, view_import_export)


def task_numbers(mb: float = 2300.0) -> str:
    """Eqs. 1 and 2 for the paper's Fig. 14 example sizes, alone and with the host in peak write."""
    lines = []
    for task, func, mounts in (("export", ie.export_minutes, 13), ("import", ie.import_minutes, 6)):
        for other in ("none", "peak_write"):
            label = INPUTS["interference"].label_of(other)
            lines.append(f"{task} of {number(mb)} MB with {mounts} mounts, other work {label}: "
                         f"{number(func(mb, mounts, interference=other))} min")  # fmt: skip
    return "\n".join(lines)
