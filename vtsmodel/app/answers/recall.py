"""Answer key of lesson 03 (recall response time), from recall, queueing and robot."""

from __future__ import annotations

from vtsmodel import queueing, recall
from vtsmodel import robot as rb
from vtsmodel.app.lessons.arrivals import drives_for_target, mean_wait
from vtsmodel.app.lessons.parts import BEST_CASE_S, part_sources, parts_with, preset_parts
from vtsmodel.app.lessons.recall import INPUTS
from vtsmodel.app.text import number, percent

_D = {k: INPUTS[k].default for k in INPUTS}


def _ready(drive: str = "3590B", volume_mb: float = _D["volume_mb"], **parts) -> float:
    return float(recall.recall_ready_s(volume_mb, cf=_D["cf"], drive=drive, **parts))


def _drive_answer(drive: str, label: str) -> str:
    basis = part_sources(drive)
    ready = _ready(drive)
    read = ready - _ready(drive, volume_mb=1e-6)
    return (f"{label}: its own {parts_with(basis, 'own')}; borrowed {parts_with(basis, 'borrowed')}; ready in "
            f"{number(ready)} s, of which the read is {number(read)} s ({percent(read / ready)}): the rest is the mount")  # fmt: skip


def answers() -> list[str]:
    """The eight answers of lesson 03, at the panels' defaults (250 MB, CF 3, 3590B, 4 drives, 40 recalls/h)."""
    lo, hi = BEST_CASE_S
    bare = _ready(**{**preset_parts("3590B"), "overhead_s": 0.0})
    bare_small = _ready(volume_mb=100.0, **{**preset_parts("3590B"), "overhead_s": 0.0})
    imp = {v: _ready(volume_mb=v, **preset_parts("3590B", "import")) for v in (100.0, 250.0, 800.0)}
    q = _D["queue_length"]
    resp = {d: float(recall.recall_response_s(q, _D["volume_mb"], cf=_D["cf"], drives=_D["drives"], drive=d))
            for d in ("3590B", "3590E")}  # fmt: skip
    service = float(recall.recall_service_s(_D["volume_mb"], cf=_D["cf"]))
    twentieth = float(recall.recall_response_s(19, _D["volume_mb"], cf=_D["cf"], drives=4))
    c = _D["drives"]
    lam90 = 0.9 * c / service  # recalls per second at utilisation 0.9
    waits = {rho: (float(mean_wait(rho * c / service, service, c, 0.0)),
                   float(queueing.wait_percentile(rho * c / service, service, c, 0.95, service_cv=0.0)))
             for rho in (0.5, 0.8, 0.9)}  # fmt: skip
    need = drives_for_target(lam90, service, _D["target_p95_min"] * 60.0, 0.0)
    lam = _D["recalls_per_hour"] / 3600.0
    mdc, mmc = float(queueing.wait_mdc(lam, service, c)), float(queueing.wait_mmc(lam, service, c))
    cal0, cal60 = rb.calibrate_robot(think_s=0.0), rb.calibrate_robot(think_s=60.0)
    busy = {t: float(rb.mva_robot(_D["sessions"], think_s=t, **rb.calibrate_robot(think_s=t))["robot_utilisation"])
            for t in (0.0, 60.0)}  # fmt: skip
    return [
        f"With only CERN's borrowed parts the best case of {number(_D['volume_mb'])} MB is {number(bare)} s "
        f"({number(bare_small)} s for 100 MB), under the 'approximately two to three minutes' "
        f"({number(lo)} to {number(hi)} s) of Sec. 3.4: the 3494's own mount cost is missing.",
        "With Eq. 2's 3.75 min per mount the best case is "
        + ", ".join(f"{number(t)} s for {number(v)} MB" for v, t in imp.items())
        + f": above the three minutes ({number(hi)} s) the paper states, so Eq. 1's reading fits better.",
        _drive_answer("LTO9", "LTO-9") + "; " + _drive_answer("IBM3592_60F", "IBM TS1160") + ".",
        f"With {q} recalls ahead on {c} drives: {number(resp['3590B'] / 60)} min on the 3590B, "
        f"{number(resp['3590E'] / 60)} min on the 3590E. The 3590E reads faster, but the read is a small part "
        "of a recall; the mount cycle, the same on both, dominates.",
        f"Six drives with two copying leave four for recalls; the 20th recall has 19 ahead and is ready after "
        f"{number(twentieth / 60)} min ({19 // 4} full services of {number(service)} s, then its own ready time).",
        "M/D/c with 4 drives: mean and 95th-percentile waits "
        + "; ".join(
            f"at ρ {rho:g}, {number(m / 60)} and {number(p / 60)} min" for rho, (m, p) in waits.items()
        )
        + f". Utilisation 0.9 is {number(lam90 * 3600)} recalls per hour; keeping the p95 under "
        f"{number(_D['target_p95_min'])} min then takes {number(need)} drives.",
        f"At {number(_D['recalls_per_hour'])} recalls per hour on {c} drives, M/D/c waits {number(mdc)} s on average "
        f"and M/M/c {number(mmc)} s: {number(mmc / mdc)} times as long, as service times that vary (CV 1) let "
        "recalls bunch up.",
        f"Calibrated with no time between mounts, the robot takes {number(cal0['robot_s'])} s of StorageTek's "
        f"single-session mount; with 60 s between mounts, {number(cal60['robot_s'])} s: four sessions then load the "
        f"robot less, so it must be slower to give the same measured average. The robot is busy "
        f"{percent(busy[0.0])} and {percent(busy[60.0])} of the time.",
    ]
