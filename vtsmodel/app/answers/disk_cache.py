"""Answer key of lesson 06 (a disk cache under load), from ds8000 and the lesson's panels."""

from __future__ import annotations

import math

import numpy as np

from vtsmodel import ds8000 as dc
from vtsmodel.app.lessons.disk_cache import _response, staging_load
from vtsmodel.app.lessons.flashcopy import copy_load, copy_response
from vtsmodel.app.text import number, percent

_DISK = {"positioning_ms": dc.POSITIONING_MS, "media_mb_s": dc.MEDIA_MB_S}
_SMALL, _TRACK = 21.0, 57.0


def _load_for_gain(target: float) -> float:
    """The read-miss load [IO/s] at which the 21 KB stage gains ``target`` over the track stage (the calibration's solve)."""
    try:
        return float(dc.calibrate_staging_load(gain=target, staged_kb=_SMALL, track_kb=_TRACK, **_DISK))
    except ValueError:  # no load gives it
        return math.nan


def _locality_where_track_wins(load: float) -> float:
    """The spatial locality above which the track stage (serving fewer misses) answers faster than the 21 KB stage."""
    small = _response(load, _SMALL, _DISK)
    return next((float(p) for p in np.linspace(0.0, 0.9, 901) if _response(load * (1 - p), _TRACK, _DISK) < small),
                math.nan)  # fmt: skip


def answers() -> list[str]:
    """The eight answers of lesson 06, at the panels' defaults (5.5 ms, 100 MB/s, 163,000 IO/s, 0.8, 2,000/s)."""
    loads = {g: _load_for_gain(g) for g in (0.10, 0.19, 0.30)}
    lam = staging_load(**_DISK)
    moved = {k: staging_load(**(_DISK | {k: v})) for k, v in (("positioning_ms", 2.0), ("media_mb_s", 200.0))}
    floor = next(float(t) for t in np.round(np.arange(0.5, dc.POSITIONING_MS, 0.01), 2)
                 if not math.isnan(staging_load(t, dc.MEDIA_MB_S)))  # fmt: skip
    p_track = _locality_where_track_wins(lam)
    p_star = 1.0 - float(dc.disk_service_ms(dc.RECORD_KB, **_DISK)) / float(
        dc.disk_service_ms(_TRACK, **_DISK)
    )
    pos = dc.COPY_TARGET_POSITION
    c8, c5 = copy_load(dc.COPY_UTILISATION_REF, pos), copy_load(0.5, pos)

    def cost(rate: float, c: float, u: float) -> float:
        return copy_response(rate, c, u) / copy_response(rate, 0.0, u)

    ends = {p: copy_load(dc.COPY_UTILISATION_REF, p) for p in (0.05, 0.95)}
    on_off = {r: (copy_response(r, 0.0, dc.COPY_UTILISATION_REF), copy_response(r, c8, dc.COPY_UTILISATION_REF))
              for r in (100000.0, 170000.0)}  # fmt: skip
    blocks = {
        t: int(math.ceil(float(dc.resources_for_pause(5000.0, 6.0, threshold=t)))) for t in (0.7, 0.5, 0.9)
    }

    def ms(x: float) -> str:
        return f"{number(x)} ms" if math.isfinite(x) else "saturated"

    return [
        "The gain of the 21 KB stage over the 57 KB track: "
        + ", ".join(f"{percent(g)} at {number(x)} IO/s" for g, x in loads.items())
        + f". The calibration picks {number(lam)} IO/s, the load at which the model gives the measured 19 %.",
        f"The calibrated load moves from {number(lam)} IO/s to {number(moved['positioning_ms'])} IO/s with 2 ms "
        f"positioning, and to {number(moved['media_mb_s'])} IO/s with a 200 MB/s media rate: the calibration "
        f"follows the assumptions, so the 19 % cannot pin them. Below {number(floor)} ms positioning (at 100 MB/s) "
        "the 21 KB stage gains more than 19 % even on an idle HDD, and no load gives the measurement.",
        f"At the calibrated load the track stage answers faster once the spatial locality passes "
        f"{number(p_track)}; the adaptive stage switches to tracks at {number(p_star)}, where a track's busy time "
        "per read drops below a record's.",
        f"With utilisation 0.5 at 163,000 IO/s the copy must take {percent(c5)} of the capacity (against "
        f"{percent(c8)} at 0.8) to reach the target; at 80,000 IO/s it multiplies the response by "
        f"{number(cost(80000.0, c5, 0.5))} (by {number(cost(80000.0, c8, dc.COPY_UTILISATION_REF))} at 0.8).",
        f"The copy load is {percent(ends[0.05])} with the target near 4 ms and {percent(ends[0.95])} near 5 ms: the "
        f"cost at 80,000 IO/s moves from {number(cost(80000.0, ends[0.05], dc.COPY_UTILISATION_REF))} to "
        f"{number(cost(80000.0, ends[0.95], dc.COPY_UTILISATION_REF))} times: the lost figure matters less there.",
        "Without and with the copy: "
        + "; ".join(f"{number(r)} IO/s, {ms(off)} and {ms(on)}" for r, (off, on) in on_off.items())
        + ". Schedule a copy when the I/O rate is well below the disk system's maximum.",
        f"At 5,000 transactions per second a six-second pause needs {blocks[0.7]:,} blocks with the threshold at "
        f"0.7; {blocks[0.5]:,} at 0.5 and {blocks[0.9]:,} at 0.9: the threshold divides the blocks needed.",
        "The blocks below the shutdown threshold play the cache's part (the room that fills), the transactions "
        "arriving the net fill rate (peak less copy): the time to ride through is buffer ÷ rate, as the time at "
        "peak is.",
    ]
