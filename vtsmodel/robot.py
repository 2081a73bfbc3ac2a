"""Robot contention: sessions sharing one library robot, by mean value analysis.

The StorageTek measurements: "In a single session mount job we were able to achieve an
average mount time of 28 seconds, but while running multiple mount jobs this time
approached 52 seconds" and the timed tests' overall average was 52.15 s, with "as many as
four timed mount sessions ... run simultaneously" (stk-acs4400-cray, Test Results a. and
f., Discussion a.).

Model: a closed queueing network of N sessions. Each mount cycle of a session visits

- the robot, one first-come-first-served server, demand ``robot_s`` per mount;
- the rest of the mount (drive load, software), a delay without queueing, ``fixed_s``;
- the session's own time between mounts, a delay, ``think_s``.

Exact mean value analysis (Reiser and Lavenberg, 1980), for N = 1, 2, ...:

    R_robot(N) = robot_s (1 + Q_robot(N - 1))
    X(N) = N / (R_robot(N) + fixed_s + think_s)
    Q_robot(N) = X(N) R_robot(N)

and the mount time is R_robot(N) + fixed_s. The single-session mount is robot_s +
fixed_s = 28 s; :func:`calibrate_robot` splits it so that N = 4 sessions (the most the
paper ran at once) give 52.15 s. Reading the 52.15 s average as four sessions all the
time, and ``think_s`` = 0 (sessions mount back to back), are assumptions; the paper
gives neither the number of sessions behind its average nor the time between mounts.
Both 28 s and 52.15 s are the model's inputs (calibrated), so agreeing with them is no
evidence; what it answers beyond them is that the mount time grows with the sessions, a
property of the queue whatever the split.
"""

from __future__ import annotations

import functools

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, as_scalar, result
from vtsmodel.quantities import BIG_S, ROBOT_S, SESSIONS, SMALL

_STK = "stk-acs4400-cray"
FIXED_S = Input(
    "mount time away from the robot", "s", None, lo=0.0, hi=BIG_S,
    help="Mount time not spent at the robot (drive load, software): no contention.",
)  # fmt: skip
THINK_S = Input(
    "time between mounts", "s", 0.0, lo=0.0, hi=BIG_S, source="project assumption (0: back to back)",
    help="A session's time between one mount and its next request.",
)  # fmt: skip
SINGLE_S = Input(
    "mount time, one session", "s", None, lo=SMALL, hi=BIG_S, source=f"{_STK}, Discussion a. (28 s)",
    help="Mean mount time of a session alone.",
)  # fmt: skip
MULTI_S = Input(
    "mount time, sessions together", "s", None, lo=SMALL, hi=BIG_S,
    source=f"{_STK}, Test Results a. (52.15 s)", help="Mean mount time with several sessions; above the single time.",
)  # fmt: skip
CALIB_SESSIONS = SESSIONS.but(
    label="sessions behind the contended time", lo=2, default=None, source=f"{_STK}, Test Results f. (four)"
)

__all__ = ["calibrate_robot", "mva_robot", "mount_response_s"]


def _mva(n_max: int, robot_s: float, fixed_s: float, think_s: float):
    """Arrays over N = 1..n_max: mount time, throughput, robot utilisation."""
    q = 0.0
    mount = np.empty(n_max)
    thr = np.empty(n_max)
    for k in range(1, n_max + 1):
        r = robot_s * (1.0 + q)
        x = k / (r + fixed_s + think_s)
        q = x * r
        mount[k - 1] = r + fixed_s
        thr[k - 1] = x
    return mount, thr, thr * robot_s


def _mva_mount(n: int, robot_s: float, fixed_s: float, think_s: float) -> float:
    """Mount time at N = n only (the same recursion, floats only: for calibration)."""
    q = 0.0
    z = fixed_s + think_s
    r = robot_s
    for k in range(1, n + 1):
        r = robot_s * (1.0 + q)
        q = k * r / (r + z)
    return r + fixed_s


@declare(sessions=SESSIONS, robot_s=ROBOT_S.but(lo=SMALL), fixed_s=FIXED_S, think_s=THINK_S)
def mva_robot(sessions, *, robot_s, fixed_s, think_s=0.0) -> dict[str, np.ndarray]:
    """Mean value analysis of ``sessions`` sharing one robot.

    Parameters
    ----------
    sessions : int or array_like
        Concurrent mount sessions, 1 <= N <= :data:`~vtsmodel.quantities.MAX_SESSIONS`
        (the exact recursion takes one step per session). [count]
    robot_s : float
        Robot demand per mount. [s]
    fixed_s : float
        Mount time not spent at the robot (no contention). [s]
    think_s : float
        A session's time between mounts. [s]

    Returns
    -------
    dict
        ``mount_s`` mean mount time [s], ``mounts_per_hour`` throughput [1/h] and
        ``robot_utilisation`` [-], each shaped like ``sessions``.
    """
    n = SESSIONS.check("sessions", sessions)
    rs = as_scalar("robot_s", ROBOT_S.but(lo=SMALL).check("robot_s", robot_s))
    fs = as_scalar("fixed_s", FIXED_S.check("fixed_s", fixed_s))
    zs = as_scalar("think_s", THINK_S.check("think_s", think_s))
    mount, thr, util = _mva(int(n.max()), rs, fs, zs)
    idx = n.astype(int) - 1
    return {
        "mount_s": result(mount[idx]),
        "mounts_per_hour": result(thr[idx] * 3600.0),
        "robot_utilisation": result(util[idx]),
    }


@functools.cache
def _calibrate(single_s: float, multi_s: float, sessions: int, think_s: float) -> tuple[float, float]:
    def gap(rs):
        return _mva_mount(sessions, rs, single_s - rs, think_s) - multi_s

    lo, hi = 1e-9 * single_s, single_s
    if gap(hi) < 0:
        raise ConstraintError(
            f"multi_s={multi_s!r} cannot be reached with {sessions} sessions and think_s={think_s!r}: "
            f"even a robot taking the whole single_s={single_s:g} s gives {gap(hi) + multi_s:.4g} s; "
            "use more sessions or less think time"
        )
    from scipy import optimize  # imported here, not at package import

    rs = optimize.brentq(gap, lo, hi, xtol=1e-12)
    return rs, single_s - rs


@cites("stk_facts")
@declare(single_s=SINGLE_S, multi_s=MULTI_S, sessions=CALIB_SESSIONS, think_s=THINK_S)
def calibrate_robot(*, single_s=None, multi_s=None, sessions=None, think_s=0.0) -> dict[str, float]:
    """Split the single-session mount time into robot and fixed parts to match contention.

    Solves mount_time(sessions) = multi_s by MVA with robot_s + fixed_s = single_s.

    Parameters
    ----------
    single_s : float, optional
        Mount time of one session alone; default 28 s (stk-acs4400-cray, Discussion a.). [s]
    multi_s : float, optional
        Mount time with ``sessions`` running; default 52.15 s (Test Results a.). [s]
    sessions : int, optional
        Sessions behind ``multi_s``; default 4, "as many as four" (Test Results f.). [count]
    think_s : float
        A session's time between mounts (assumption: 0). [s]

    Returns
    -------
    dict
        ``robot_s`` and ``fixed_s``. [s]
    """
    stk = load("stk_facts")
    single = as_scalar(
        "single_s",
        SINGLE_S.check("single_s", stk.value("mount_time_single_session") if single_s is None else single_s),
    )
    multi = as_scalar(
        "multi_s", MULTI_S.check("multi_s", stk.value("mount_time_avg") if multi_s is None else multi_s)
    )
    n = stk.value("mount_sessions_concurrent_max") if sessions is None else sessions
    n = int(as_scalar("sessions", CALIB_SESSIONS.check("sessions", n)))
    z = as_scalar("think_s", THINK_S.check("think_s", think_s))
    if multi <= single:
        raise ConstraintError(
            f"multi_s={multi:g} must be above single_s={single:g}: contention lengthens the mount time"
        )
    rs, fs = _calibrate(single, multi, n, z)
    return {"robot_s": rs, "fixed_s": fs}


@cites("stk_facts")
@declare(
    sessions=SESSIONS, think_s=THINK_S, single_s=SINGLE_S, multi_s=MULTI_S,
    calib_sessions=CALIB_SESSIONS.but(label="calibration sessions"),
)  # fmt: skip
def mount_response_s(sessions, *, think_s=0.0, single_s=None, multi_s=None, calib_sessions=None):
    """Mean mount time with ``sessions`` sharing one robot, calibrated to StorageTek. [s]

    MVA (:func:`mva_robot`) with the robot and fixed parts from :func:`calibrate_robot`:
    28 s for one session and 52.15 s for four (stk-acs4400-cray).

    Parameters
    ----------
    sessions : int or array_like
        Concurrent mount sessions. [count]
    think_s : float
        A session's time between mounts (assumption: 0). [s]
    single_s, multi_s : float, optional
        Calibration points, as :func:`calibrate_robot` (defaults from stk_facts). [s]
    calib_sessions : int, optional
        Sessions behind ``multi_s``, as ``sessions`` of :func:`calibrate_robot`. [count]
    """
    n = SESSIONS.check("sessions", sessions)
    if calib_sessions is not None:
        calib_sessions = as_scalar("calib_sessions", CALIB_SESSIONS.check("calib_sessions", calib_sessions))
    cal = calibrate_robot(single_s=single_s, multi_s=multi_s, sessions=calib_sessions, think_s=think_s)
    return mva_robot(n, robot_s=cal["robot_s"], fixed_s=cal["fixed_s"], think_s=think_s)["mount_s"]
