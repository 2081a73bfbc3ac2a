"""Lesson 03: recall response time, from the paper's best case and Fig. 6 to queueing theory.

Four panels: the parts of one recall (:func:`parts_panel`, :mod:`~vtsmodel.app.lessons.parts`),
the recall response time vs the queue ahead, the Fig. 6 question (:func:`queue_panel`: this
module), recalls arriving at random (:func:`arrivals_panel`, :mod:`~vtsmodel.app.lessons.arrivals`:
theory, simulation, drives for a target) and the mount response time of sessions sharing one
robot (:func:`robot_panel`, :mod:`~vtsmodel.app.lessons.robot`). This module holds the lesson's
contract and the inputs its panels share. Each figure is a cached base (curves, cited points)
and moving marks. Sources: ibm-vts-b18-2000, cern-tape-sizing-2005, stk-acs4400-cray and the
drive catalog.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vtsmodel import Input, recall
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, point_mark
from vtsmodel.app.lessons import arrivals, parts, robot, scenario_values
from vtsmodel.app.lessons.arrivals import ARRIVALS, minutes
from vtsmodel.app.lessons.parts import (
    DRIVE_CHOICES,
    FIG6_SIZES,
    PART_INPUTS,
    PARTS,
    drive_citations,
    part_sources,
    parts_with,
    preset_parts,
)
from vtsmodel.app.lessons.robot import ROBOT
from vtsmodel.app.panels import Panel, Stage, View, merge_views
from vtsmodel.app.text import number

LESSON_ID = "03"
TITLE = "Recall response time: from the paper's estimate to queueing theory"
NOTEBOOK = "03_recall_queue_mount_time.ipynb"

INPUTS = {
    "drive": Input("drive", "", "3590B", choices=DRIVE_CHOICES, source="data/drive_catalog.csv",
                   help="The recall drive: the paper's 3494 VTS with 3590s, or any catalog drive."),
    "volume_mb": q.VOLUME_MB.but(lo=10.0, lo_open=False, hi=4000.0, step=10.0),
    "cf": q.CF.but(hi=4.0, step=0.1),
    "drives": q.DRIVES.but(hi=16),
    "queue_length": q.QUEUE_LENGTH.but(hi=200),
    **parts.INPUTS,
    **arrivals.INPUTS,
    **robot.INPUTS,
}  # fmt: skip
SCENARIO = ("volume_mb", "cf", "drive", "drives", "queue_length", "recalls_per_hour", "service_cv",
            "target_p95_min", "sessions")  # fmt: skip


def _inputs(*names: str) -> dict:
    return {k: INPUTS[k] for k in names}


# --- the Fig. 6 question: recall response time vs the queue ahead -----------------------------


def queue_base(drive: str, cf: float, drives: int, n_max: int) -> dict:
    """Recall response time vs recalls ahead, one step curve per Fig. 6 size."""
    n = np.arange(n_max + 1)
    fig = new_figure(title="Recall response time vs the queue ahead (Fig. 6)", xaxis_title="recalls ahead in the queue", yaxis_title="recall response time [min]", height=400)  # fmt: skip
    top = 0.0
    for i, v in enumerate(FIG6_SIZES):
        t = np.asarray(recall.recall_response_s(n, v, cf=cf, drives=drives, drive=drive)) / 60.0
        fig.add_scatter(x=n, y=t, mode="lines", name=f"{number(v)} MB", line={"color": COLORS[i], "shape": "hv"},
                        hovertemplate=f"%{{x}} ahead: %{{y:.3g}} min<extra>{number(v)} MB</extra>")  # fmt: skip
        top = max(top, float(t[-1]))
    fig.update_xaxes(range=[-0.5, n_max + 0.5])
    fig.update_yaxes(range=[0, 1.05 * top])
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return figure_json(fig)


@dataclass(frozen=True)
class QueueResult:
    """The deterministic queue of Fig. 6: the recall response time with ``queue_length`` recalls ahead.

    Attributes
    ----------
    drive, cf, drives, queue_length
        The inputs.
    response_s : tuple of float
        The recall response time for each Fig. 6 size (:data:`~.parts.FIG6_SIZES`). [s]
    cycle_s : float
        One drive cycle for the middle Fig. 6 size. [s]
    """

    drive: str
    cf: float
    drives: int
    queue_length: int
    response_s: tuple[float, ...]
    cycle_s: float


def evaluate_queue(drive="3590B", cf=3.0, drives=4, queue_length=8) -> QueueResult:
    """T(n) = floor(n / d)·S + R for the three Fig. 6 sizes (ibm-vts-b18-2000, Fig. 6)."""
    n = int(queue_length)
    t = tuple(float(recall.recall_response_s(n, v, cf=cf, drives=drives, drive=drive)) for v in FIG6_SIZES)
    cycle = float(recall.recall_service_s(FIG6_SIZES[1], cf=cf, drive=drive))
    return QueueResult(drive, float(cf), int(drives), n, t, cycle)


def view_queue(r: QueueResult) -> View:
    """The recall response times at the queue length on the three step curves; what one drive cycle adds."""
    n = r.queue_length
    shapes = [point_mark(n, t / 60.0, color=COLORS[i], name=f"{number(v)} MB, {n} ahead", showlegend=False)
              for i, (v, t) in enumerate(zip(FIG6_SIZES, r.response_s, strict=True))]  # fmt: skip
    readouts = {f"recall response time, {number(v)} MB": minutes(t) for v, t in zip(FIG6_SIZES, r.response_s, strict=True)}  # fmt: skip
    readouts[f"drive cycle, {number(FIG6_SIZES[1])} MB"] = minutes(r.cycle_s)
    readouts["CERN's (borrowed)"] = parts_with(part_sources(r.drive), "borrowed")
    args = {"drive": r.drive, "cf": r.cf, "drives": r.drives, "n_max": 40 if n <= 40 else 200}
    binding = (f"{r.drives} drive(s): every {r.drives} recalls ahead add one full drive cycle "
               f"({minutes(r.cycle_s)} for {number(FIG6_SIZES[1])} MB).")  # fmt: skip
    return View(figures={"queue": Plot(queue_base, args, shapes=shapes)}, readouts=readouts, binding=binding,
                citations=(*drive_citations(r.drive), "vts_facts"))  # fmt: skip


#: The queue panel's stage.
QUEUE = Stage(evaluate_queue, view_queue)


# --- panels ------------------------------------------------------------------------------------


def parts_panel(**values) -> Panel:
    """Drive, volume, CF and each part of a recall; choosing a drive or a mount equation loads the preset parts."""
    choice = {k: INPUTS[k].parse(k, values.get(k, INPUTS[k].default)) for k in ("drive", "mount_equation")}
    panel = Panel(_inputs("drive", "mount_equation", "volume_mb", "cf", *PART_INPUTS), PARTS,
                  values={**preset_parts(**choice), **values}, title="The parts of one recall", name="03_parts")  # fmt: skip

    def load_preset(_change) -> None:  # the app layer has no dependent defaults: set the parts here
        panel.set(**preset_parts(panel.values["drive"], panel.values["mount_equation"]))

    for k in ("drive", "mount_equation"):
        panel.controls[k].observe(load_preset, names="value")
    return panel


def queue_panel(**values) -> Panel:
    """Recall response time vs queue position, with drives, drive model and CF."""
    return Panel(_inputs("drive", "cf", "drives", "queue_length"), QUEUE, values=values,
                 title="Recall response time vs the queue ahead (Fig. 6)", name="03_queue")  # fmt: skip


def arrivals_panel(**values) -> Panel:
    """Random arrivals: theory vs simulation, and the drives a p95 target needs."""
    names = ("recalls_per_hour", "drive", "volume_mb", "cf", "drives", "service_cv", "target_p95_min")
    return Panel(_inputs(*names), ARRIVALS, values=values, title="Recalls arriving at random",
                 name="03_arrivals")  # fmt: skip


def robot_panel(**values) -> Panel:
    """Robot contention vs the number of sessions."""
    return Panel(_inputs("sessions", "think_s", "calib_sessions"), ROBOT, values=values,
                 title="Robot contention: the mount response time", name="03_robot")  # fmt: skip


# --- the lesson contract ---------------------------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """The computed columns of one scenario: the panels' evaluations of it (the parts at the drive's preset)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    part, arr, rob = (stage.result(v) for stage in (PARTS, ARRIVALS, ROBOT))
    # the queue panel draws the Fig. 6 sizes; the scenario's own volume is this column's
    here = float(recall.recall_response_s(v["queue_length"], v["volume_mb"], drives=v["drives"], cf=v["cf"],
                                          drive=v["drive"]))  # fmt: skip
    return {
        "recall ready, free drive [min]": part.ready_s / 60.0,
        "drive busy per recall [min]": arr.curves.service_s / 60.0,
        "recall response time, queue ahead [min]": here / 60.0,
        "utilisation [-]": arr.rho,
        "mean wait for a drive [min]": arr.mean_s / 60.0,
        "p95 wait for a drive [min]": arr.p95_s / 60.0,
        "drives for the p95 target [-]": arr.drives_needed,
        "mount response time, robot [s]": rob.mount_s,
    }


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (parts at the drive's preset)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return merge_views(*(stage.show(v) for stage in (PARTS, QUEUE, ARRIVALS, ROBOT)))


#: The data rows the lesson draws on, (table, id), in the order the notebook shows them.
SOURCE_ROWS = (
    *[("vts_facts", r) for r in ("recall_mount_best_low", "recall_mount_best_high", "fig6_volume_mb_small",
                                 "fig6_volume_mb_medium", "fig6_volume_mb_large", "fig6_cf", "fig6_recall_drives",
                                 "search_time_avg", "recall_example_concurrent_recalls")],
    ("vts_import_export", "export_per_mount"),
    ("drive_catalog", "ibm3590b_native_rate"),
    ("drive_catalog", "ibm3590e_native_rate"),
    *[("cern_facts", r) for r in ("tmount_move", "tmount_mount", "tmount_rewind_unload")],
    *[("stk_facts", r) for r in ("mount_time_single_session", "mount_time_avg", "mount_sessions_concurrent_max")],
)  # fmt: skip
