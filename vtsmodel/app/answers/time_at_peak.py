"""Answer key of lesson 02 (time at peak vs cache size, a day of the cache), from tvc and tvc_day."""

from __future__ import annotations

import warnings

from vtsmodel import ExtrapolationWarning, tvc, tvc_day, workload
from vtsmodel.app.lessons.time_at_peak import INPUTS
from vtsmodel.app.text import number

#: The panels' defaults.
_D = {k: INPUTS[k].default for k in INPUTS}
_PAF = {432.0: "tvc_432_36gb_paf", 864.0: "tvc_864_36gb_paf", 1728.0: "tvc_1728_36gb_paf"}


def _hours(**changes) -> float:
    a = {"feature": _D["feature"], "cf": _D["cf"], "peak_copy_fraction": _D["peak_copy_fraction"],
         "backlog_gb": _D["backlog_gb"], "threshold": _D["threshold"], "tvc_config": _D["tvc_config"]} | changes  # fmt: skip
    gb = tvc.configuration(a["tvc_config"]).tvc_gb
    return float(tvc.hours_at_peak(gb, a.pop("cf"), **a))


def _day(profile, tvc_config: str = _D["tvc_config"]) -> tvc_day.TvcRun:
    """The day as panel 2 simulates it (2-minute steps, the panels' defaults)."""
    return tvc_day.simulate_tvc(profile, tvc_config=tvc_config, cf=_D["cf"], feature=_D["feature"],
                                threshold=_D["threshold"], peak_copy_fraction=_D["peak_copy_fraction"],
                                read_hit=_D["read_hit"], backlog_gb=_D["backlog_gb"], step_minutes=2.0)  # fmt: skip


def _batch_rate_without_throttling() -> tuple[float, float, float]:
    """The nightly batch window's highest write rate that is never throttled (bisection), its row's rate, sustained."""
    prof = workload.PROFILES["nightly batch window"]
    rows = [list(r) for r in prof.rows()]
    i = max(range(len(rows)), key=lambda k: rows[k][1])
    lo, hi = 0.0, rows[i][1]
    for _ in range(30):
        mid = (lo + hi) / 2
        rows[i][1] = mid
        run = _day(workload.make_profile(rows, duration_hours=prof.duration_hours))
        lo, hi = (mid, hi) if run.hours_throttled == 0 else (lo, mid)
    return lo, prof.rows()[i][1], run.sustained_mb_s


def answers() -> list[str]:
    """The five answers of lesson 02, at the panels' defaults (PAF, CF 3, 432 GB, the nightly batch)."""
    gb = tvc.configuration(_D["tvc_config"]).tvc_gb
    f0 = _D["peak_copy_fraction"]
    copy = {f: _hours(peak_copy_fraction=f) for f in (0.0, f0, 0.5)}
    backlog = {b: _hours(backlog_gb=b) for b in (0.0, 100.0, 200.0)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)  # base with a PAF cache: the question's setting
        base = {cf: _hours(feature="base", cf=cf) for cf in (1.0, 4.0)}
    weekly = {g: _day("weekly full backup", c) for g, c in _PAF.items()}
    ok, given, sustained = _batch_rate_without_throttling()

    def week(g: float, run: tvc_day.TvcRun) -> str:
        if run.hours_throttled == 0:
            return f"{g:,.0f} GB never throttles"
        cleared = run.summary()["Backlog cleared at [h]"]
        end = (
            "drains by hour " + number(cleared)
            if cleared == cleared and cleared < float("inf")
            else "does not drain"
        )
        return f"{g:,.0f} GB throttles from hour {number(run.first_throttle_hours)} for {number(run.hours_throttled)} h and {end}"

    return [
        f"At {gb:,.0f} GB, CF {number(_D['cf'])}: {number(copy[0.0])} h at peak with no copying, {number(copy[f0])} h "
        f"at the default {number(f0)} and {number(copy[0.5])} h at 0.5. The 'little copy activity' is worth "
        f"{number(copy[f0] - copy[0.0])} h at the default: the cache fills at peak less copy.",
        f"{number(backlog[0.0])} h from an empty cache, {number(backlog[100.0])} h with 100 GB not yet copied, "
        f"{number(backlog[200.0])} h with 200 GB: each GB left from the last burst shortens the next by "
        f"{number((backlog[0.0] - backlog[100.0]) / 100 * 60)} min.",
        f"The base VTS gives {number(base[1.0])} h at CF 1 and {number(base[4.0])} h at CF 4: it compresses at "
        "the drive, so its cache holds host-size data and its rate does not depend on CF.",
        "The weekly full backup at CF 3, PAF: " + "; ".join(week(g, r) for g, r in weekly.items()) + ".",
        f"The batch window's {number(given)} MB/s is throttled; up to about {number(ok)} MB/s nothing is, "
        f"{number(ok / sustained)} times the sustained {number(sustained)} MB/s: the cache absorbs the excess "
        "over the window, and copying drains it afterwards.",
    ]
