"""Lesson 03, robot contention: the mount response time of sessions sharing one robot.

Mean value analysis of a closed network (the sessions, the robot, the rest of the mount),
calibrated to StorageTek's 28 s for one session and 52.15 s on average with several
(stk-acs4400-cray, Test Results f.). The panel is :func:`vtsmodel.app.lessons.recall.robot_panel`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vtsmodel import Input, robot
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, point_mark, source_markers
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number, percent
from vtsmodel.data import load

INPUTS = {
    "sessions": q.SESSIONS.but(hi=32),
    "think_s": Input("time between mounts", "s", 0.0, lo=0.0, hi=120.0, step=1.0,
                     source="project assumption (stk-acs4400-cray does not state it)",
                     help="A session's time between its mounts (0: back to back)."),
    "calib_sessions": Input("sessions behind 52.15 s", "-", 4, lo=2, hi=8, integer=True,
                            source="stk-acs4400-cray, Test Results f. ('as many as four')",
                            help="How many sessions ran while StorageTek measured its 52.15 s average."),
}  # fmt: skip
#: Sessions on the figure's axis. [-]
ROBOT_SESSIONS = np.arange(1, 33)


@dataclass(frozen=True)
class RobotResult:
    """Sessions sharing one robot at one setting: the calibration and the mount response time.

    Attributes
    ----------
    sessions, think_s, calib_sessions
        The inputs.
    robot_s, fixed_s : float
        The robot's time per mount and the rest of the mount, calibrated to StorageTek's 28 s and 52.15 s. [s]
    mount_s : float
        The mount response time with ``sessions`` sessions. [s]
    robot_utilisation, mounts_per_hour : float
        The robot's busy share [-] and the mounts it serves per hour [1/h].
    """

    sessions: int
    think_s: float
    calib_sessions: int
    robot_s: float
    fixed_s: float
    mount_s: float
    robot_utilisation: float
    mounts_per_hour: float


def evaluate_robot(sessions=4, think_s=0.0, calib_sessions=4) -> RobotResult:
    """Sessions sharing one robot (mean value analysis), calibrated to StorageTek's 28 s and 52.15 s."""
    cal = robot.calibrate_robot(sessions=calib_sessions, think_s=think_s)
    here = robot.mva_robot(sessions, think_s=think_s, **cal)
    t = float(robot.mount_response_s(sessions, think_s=think_s, calib_sessions=calib_sessions))
    return RobotResult(int(sessions), float(think_s), int(calib_sessions), float(cal["robot_s"]), float(cal["fixed_s"]),
                       t, float(here["robot_utilisation"]), float(here["mounts_per_hour"]))  # fmt: skip


def robot_base(think_s: float, calib_sessions: int) -> dict:
    """Mount response time vs sessions sharing one robot (MVA), with the StorageTek measurements."""
    cal = robot.calibrate_robot(sessions=calib_sessions, think_s=think_s)
    out = robot.mva_robot(ROBOT_SESSIONS, think_s=think_s, **cal)
    stk = load("stk_facts")
    ids = ("mount_time_single_session", "mount_time_avg")
    fig = new_figure(title="Mount response time vs sessions sharing the robot", xaxis_title="concurrent mount sessions", yaxis_title="mount response time [s]", height=400)  # fmt: skip
    fig.add_scatter(x=ROBOT_SESSIONS, y=out["mount_s"], customdata=out["robot_utilisation"], mode="lines+markers",
                    name="MVA model", line={"color": COLORS[0]}, marker={"size": 5},
                    hovertemplate="%{x} sessions: %{y:.3g} s, robot busy %{customdata:.0%}<extra></extra>")  # fmt: skip
    fig.add_trace(source_markers([1, int(calib_sessions)], [stk.value(i) for i in ids], [stk.provenance(i) for i in ids],
                                 name="StorageTek measured"))  # fmt: skip
    fig.update_xaxes(range=[0, float(ROBOT_SESSIONS[-1]) + 1])
    fig.update_yaxes(range=[0, 1.05 * float(np.max(out["mount_s"]))])
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return figure_json(fig)


def view_robot(r: RobotResult) -> View:
    """The mount response time of ``r.sessions`` sessions on the robot's curve; what binds."""
    readouts = {
        "robot time per mount": f"{number(r.robot_s)} s",
        "rest of the mount": f"{number(r.fixed_s)} s",
        f"mount response time, {r.sessions} sessions": f"{number(r.mount_s)} s",
        "robot busy": percent(r.robot_utilisation),
        "mounts per hour": number(r.mounts_per_hour),
    }
    plot = Plot(robot_base, {"think_s": r.think_s, "calib_sessions": r.calib_sessions},
                shapes=[point_mark(r.sessions, r.mount_s, name="these sessions")])  # fmt: skip
    binding = (f"The robot: once it is busy nearly all the time, each extra session adds a full robot time "
               f"({number(r.robot_s)} s).")  # fmt: skip
    return View(
        figures={"robot": plot}, readouts=readouts, binding=binding, citations=(robot.mount_response_s,)
    )


#: The robot panel's stage.
ROBOT = Stage(evaluate_robot, view_robot)


def robot_numbers(sessions=(1, 2, 4, 8)) -> str:
    """Mount response time vs sessions sharing one robot, and StorageTek's measurements: labelled lines."""
    stk = load("stk_facts")
    lines = [f"mount response time, {n} session(s): {number(robot.mount_response_s(n), 4)} s" for n in sessions]  # fmt: skip
    lines.append(f"StorageTek measured: {number(stk.value('mount_time_single_session'))} s for one session, "
                 f"{number(stk.value('mount_time_avg'), 4)} s on average with up to four")  # fmt: skip
    return "\n".join(lines)
