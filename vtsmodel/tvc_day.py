"""A day of the tape volume cache, simulated in time steps: peak, throttling, sustained, drain.

:func:`simulate_tvc` runs the TVC of the VTS B18 through a workload :class:`Profile
<vtsmodel.workload.Profile>` and returns a :class:`TvcRun` (time series and summary:
time at peak, hours throttled, delay imposed, backlog cleared). The model and its
assumptions are those of :mod:`vtsmodel.tvc`; units as there.

Recalls (read misses) follow Sec. 5 of ibm-vts-b18-2000: without PAF they compete with
the copy to tape ("The same situation can also occur with recalls"), so they lower the
input the VTS accepts once throttled; "With PAF, input is not throttled for recalls and
when copying to physical tape", so with PAF they do not. Either way recalls are served
up to the recall ceiling of the read model (:func:`recall_ceiling_mb_s`); read misses
above it are not served (reported, not hidden).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from vtsmodel import _dayloop
from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, ExtrapolationWarning, as_scalar, broadcast, result
from vtsmodel.b18 import FEATURE
from vtsmodel.quantities import (
    ABOVE_864_FRACTION,
    BACKLOG_GB,
    CF,
    PEAK_COPY_FRACTION,
    PEAK_MB_S,
    RATE_MB_S,
    READ_HIT,
    STEP_MINUTES,
    SUSTAINED_MB_S,
    THRESHOLD,
    TVC_GB,
)
from vtsmodel.throughput import read_rate, write_rate
from vtsmodel.tvc import (
    _MB_PER_GB,
    _S_PER_H,
    DEFAULT_PEAK_COPY_FRACTION,
    DEFAULT_THRESHOLD,
    _capacity,
    _rates,
    cache_cf,
    effective_capacity_gb,
)
from vtsmodel.workload import PROFILES, Profile

__all__ = ["COMPILED_STEPS", "MAX_STEPS", "TvcRun", "default_read_hit", "recall_ceiling_mb_s", "simulate_tvc"]

#: Whether a day's step loop runs compiled by numba where numba is installed (the same floats
#: to the bit: ``vtsmodel._daykernel``). On by default: 0.2 ms less a day, once numba has
#: started (0.6-0.75 s, the first day of a process). A short process that simulates a few
#: hundred days, the ``vtsmodel`` command, turns it off and never imports numba for them.
COMPILED_STEPS = True

#: Most time steps one simulation takes (the period over the step): about 3 s of work,
#: one step every 0.9 s over a day. [-]
MAX_STEPS = 100_000


def default_read_hit() -> float:
    """The read-hit ratio the simulation takes by default: the typical mix's 50 %. [-]

    "the reads are assumed to have a 50% hit ratio" (ibm-vts-b18-2000, Sec. 3.5.6; data
    row ``typical_mix_read_hit_ratio``). A workload's own ratio "depends on specific
    workload characteristics" (Sec. 4): a parameter.
    """
    return load("vts_facts").value("typical_mix_read_hit_ratio")


@cites("vts_read_rates", "vts_ehpo_coefficients")
@declare(cf=CF, feature=FEATURE, sustained_mb_s=SUSTAINED_MB_S)
def recall_ceiling_mb_s(cf, *, feature: str = "paf", sustained_mb_s=None):
    """Most host MB/s of read misses (recalls) the VTS serves. [MB/s]

    With PAF, Table 1's read recall rate (``throughput.read_rate(cf, kind="recall")``,
    held at its fitted ceiling beyond the CF 2.66 Table 1 measured). Without PAF, the
    sustained write rate, which the read recall rate "correspond[s] approximately to"
    (ibm-vts-b18-2000, Sec. 3.5.4).

    Parameters
    ----------
    cf : float or array_like
        Data compressibility. [-]
    feature : {"base", "ehpo", "paf"}
        Feature level.
    sustained_mb_s : float or array_like, optional
        The sustained write rate (base and EHPO); default from ``write_rate``. [MB/s]

    Returns
    -------
    numpy.ndarray or numpy.float64
        Recall ceiling, host MB/s. [MB/s]
    """
    FEATURE.check("feature", feature)
    c = CF.check("cf", cf)
    if sustained_mb_s is not None:
        broadcast(cf=c, sustained_mb_s=SUSTAINED_MB_S.check("sustained_mb_s", sustained_mb_s))
    if feature == "paf":
        with warnings.catch_warnings():  # Table 1 stops at CF 2.66; its curve is flat beyond
            warnings.filterwarnings("ignore", message="cf=", category=ExtrapolationWarning)
            return read_rate(cf, kind="recall")
    if sustained_mb_s is not None:
        return result(SUSTAINED_MB_S.check("sustained_mb_s", sustained_mb_s) + 0.0 * c)
    return write_rate(cf, feature=feature)


@dataclass
class TvcRun:
    """The result of :func:`simulate_tvc`: time series per step and summary numbers.

    Per-step arrays (length ``n``, step ``k`` covers ``[time_hours[k], time_hours[k+1])``):
    ``offered_mb_s``, ``accepted_mb_s``, ``copy_mb_s`` (physical), ``recall_mb_s``
    (physical, served), ``recall_unserved_mb_s`` (host MB/s of read misses above the recall
    ceiling), ``throttled`` (bool), ``at_peak_hours`` (time within the step at the peak rate).
    State arrays (length ``n + 1``, at the step boundaries): ``time_hours``, ``uncopied_gb``,
    ``delayed_mb`` (offered but not yet accepted, host MB), ``offered_total_mb``,
    ``accepted_total_mb`` (host MB), ``written_total_mb`` and ``copied_total_mb``
    (physical MB, cumulative). ``time_hours``, ``offered_mb_s`` and ``offered_total_mb``
    depend on the profile alone and are read-only: the runs of one profile share them.
    """

    time_hours: np.ndarray
    offered_mb_s: np.ndarray
    accepted_mb_s: np.ndarray
    copy_mb_s: np.ndarray
    recall_mb_s: np.ndarray
    throttled: np.ndarray
    at_peak_hours: np.ndarray
    uncopied_gb: np.ndarray
    delayed_mb: np.ndarray
    offered_total_mb: np.ndarray
    accepted_total_mb: np.ndarray
    written_total_mb: np.ndarray
    copied_total_mb: np.ndarray
    capacity_gb: float
    threshold_gb: float
    backlog_gb: float
    peak_mb_s: float
    sustained_mb_s: float
    cache_cf: float
    params: dict = field(default_factory=dict)
    recall_unserved_mb_s: np.ndarray | None = None
    recall_ceiling_mb_s: float = math.inf

    # --- summary -----------------------------------------------------------------------
    @property
    def hours_at_peak(self) -> float:
        """Total time the VTS accepted host writes at the peak rate. [h]"""
        return float(self.at_peak_hours.sum())

    @property
    def hours_throttled(self) -> float:
        """Total time the input was throttled (offered data delayed by the threshold). [h]"""
        dt = np.diff(self.time_hours)
        return float(dt[self.throttled].sum())

    @property
    def first_throttle_hours(self) -> float:
        """When throttling first started; NaN if never. [h]"""
        idx = np.flatnonzero(self.throttled)
        return float(self.time_hours[idx[0]]) if idx.size else math.nan

    @property
    def delay_mb_hours(self) -> float:
        """Delay imposed: the integral of the delayed (offered, not yet accepted) data. [MB·h]

        By Little's law this is the sum over host MB of the time each waited.
        """
        q = self.delayed_mb
        return float(np.sum(0.5 * (q[1:] + q[:-1]) * np.diff(self.time_hours)))

    @property
    def max_delay_hours(self) -> float:
        """Longest wait of any host MB between being offered and accepted (FIFO). [h]

        Data still waiting at the end of the run counts up to the end.
        """
        off, acc, t = self.offered_total_mb, self.accepted_total_mb, self.time_hours
        if off[-1] - acc[-1] <= 1e-9 * max(off[-1], 1.0) and np.all(
            self.delayed_mb <= 1e-9 * max(off[-1], 1.0)
        ):
            return 0.0
        # time at which cumulative accepted reaches each cumulative offered level
        levels = np.minimum(off, acc[-1])
        j = np.minimum(np.maximum(np.searchsorted(acc, levels, side="left"), 1), acc.size - 1)
        i = j - 1
        a0, a1 = acc[i], acc[j]
        rising = a1 > a0
        frac = np.where(rising, (levels - a0) / np.where(rising, a1 - a0, 1.0), 0.0)  # no 0/0 where flat
        t_acc = t[i] + np.minimum(np.maximum(frac, 0.0), 1.0) * (t[j] - t[i])
        t_acc = np.where(off > acc[-1] + 1e-9 * max(off[-1], 1.0), t[-1], t_acc)  # relative: sums of ~1e6 MB
        return float(max(np.max(t_acc - t), 0.0))

    @property
    def backlog_cleared_hours(self) -> float:
        """When the un-copied data and the delayed data last returned to zero; NaN if not by the end. [h]"""
        tol_gb = 1e-9 * max(self.capacity_gb, 1.0)
        busy = (self.uncopied_gb > tol_gb) | (self.delayed_mb > tol_gb * _MB_PER_GB)
        idx = np.flatnonzero(busy)
        if idx.size == 0:
            return 0.0
        last = idx[-1]
        return float(self.time_hours[last + 1]) if last + 1 < self.time_hours.size else math.nan

    @property
    def peak_occupancy_gb(self) -> float:
        """Largest amount of un-copied data in the cache. [GB]"""
        return float(self.uncopied_gb.max())

    def summary(self) -> dict[str, float]:
        """The summary numbers, keys with units."""
        return {
            "Time at peak [h]": self.hours_at_peak,
            "Time throttled [h]": self.hours_throttled,
            "First throttled at [h]": self.first_throttle_hours,
            "Delay imposed [MB·h]": self.delay_mb_hours,
            "Longest delay [h]": self.max_delay_hours,
            "Backlog cleared at [h]": self.backlog_cleared_hours,
            "Peak un-copied data [GB]": self.peak_occupancy_gb,
        }


@cites("vts_facts", "vts_tvc_configs")
@declare(
    tvc_gb=TVC_GB.but(default=None), cf=CF, feature=FEATURE, threshold=THRESHOLD,
    peak_copy_fraction=PEAK_COPY_FRACTION, backlog_gb=BACKLOG_GB, above_864_fraction=ABOVE_864_FRACTION,
    read_hit=READ_HIT.but(default=None), step_minutes=STEP_MINUTES, peak_mb_s=PEAK_MB_S,
    sustained_mb_s=SUSTAINED_MB_S, max_recall_mb_s=RATE_MB_S.but(
        label="recall ceiling", default=None, help="Most host MB/s of recalls served (default: recall_ceiling_mb_s).",
    ),
)  # fmt: skip
def simulate_tvc(
    profile: Profile | str,
    *,
    tvc_gb: float | None = None,
    cf: float,
    feature: str = "paf",
    threshold: float = DEFAULT_THRESHOLD,
    peak_copy_fraction: float = DEFAULT_PEAK_COPY_FRACTION,
    backlog_gb: float = 0.0,
    above_864_fraction: float | None = None,
    read_hit: float | None = None,
    step_minutes: float = 1.0,
    peak_mb_s: float | None = None,
    sustained_mb_s: float | None = None,
    tvc_config: str | None = None,
    max_recall_mb_s: float | None = None,
) -> TvcRun:
    """Simulate the TVC through a workload profile in fixed time steps.

    State: un-copied data ``U`` (physical) and delayed host data ``Q``. In each step the
    host offers ``Q + o·Δt``. Below the threshold ``θ·C_eff`` the VTS accepts up to the peak
    rate ``P`` and copies at ``D_r · share(a)`` (full below the sustained rate, ``f`` at peak); when ``U`` reaches the threshold
    within a step the rest of the step runs throttled: the VTS accepts at most
    ``D_r · CF_c`` and copies at ``D_r``, so ``U`` stays at the threshold. Recalls are
    served up to the recall ceiling ``X`` (:func:`recall_ceiling_mb_s`):
    ``R = min(read · (1 − read_hit), X) / CF_c`` (physical). Without PAF they share the
    drives with the copy, ``D_r = S/CF_c − R`` (Sec. 5: "The same situation can also occur
    with recalls"); with PAF the input "is not throttled for recalls and when copying to
    physical tape" (Sec. 5): ``D_r = S/CF_c``, so the accepted rate at the threshold is the
    sustained rate whatever the recalls. Data not accepted waits in ``Q`` (delayed, not
    lost: Sec. 5).

    Conservation holds at every step: ``B + written = copied + U`` (physical) and
    ``offered = accepted + Q`` (host).

    Parameters
    ----------
    profile : Profile or str
        The workload, or the name of a built-in in :data:`PROFILES`.
    tvc_gb : float, optional
        Physical TVC capacity (or give ``tvc_config``). [GB]
    cf : float
        Data compressibility. [-]
    feature : {"base", "ehpo", "paf"}
        Feature level.
    threshold, peak_copy_fraction, backlog_gb, above_864_fraction
        As for :func:`hours_at_peak`.
    read_hit : float, optional
        Fraction of host reads served from the cache; the rest are recalls from tape.
        Default :func:`default_read_hit`, the typical mix's 50 % (Sec. 3.5.6); a
        workload's own ratio "depends on specific workload characteristics" (Sec. 4). [-]
    step_minutes : float
        Time step, at most 60 min; the period over the step is at most :data:`MAX_STEPS`
        steps. [min]
    peak_mb_s, sustained_mb_s : float, optional
        Peak and sustained host write rates; default from ``write_rate``. [MB/s]
    tvc_config : str, optional
        A Table 3 configuration id instead of ``tvc_gb`` (:func:`vtsmodel.b18.configurations`).
    max_recall_mb_s : float, optional
        Most host MB/s of recalls served; default :func:`recall_ceiling_mb_s` (fewer host
        channels than the paper's eight can lower it). [MB/s]

    Returns
    -------
    TvcRun
        Time series and summary numbers.

    Raises
    ------
    ConstraintError
        (a ``ValueError``) for a backlog above the effective capacity, a sustained rate
        above the peak rate, or more than :data:`MAX_STEPS` steps.
    """
    if isinstance(profile, str):
        if profile not in PROFILES:
            raise ValueError(
                f"profile={profile!r} is not valid; choose one of {', '.join(map(repr, PROFILES))}"
            )
        profile = PROFILES[profile]
    if not isinstance(profile, Profile):
        raise ValueError(
            f"profile={profile!r} must be a Profile (make_profile, read_profile_csv) or the name of a built-in "
            f"one: {', '.join(map(repr, PROFILES))}"
        )
    c = _tvc_constants(
        profile.duration_hours, tvc_gb=tvc_gb, cf=cf, feature=feature, threshold=threshold,
        peak_copy_fraction=peak_copy_fraction, above_864_fraction=above_864_fraction, read_hit=read_hit,
        step_minutes=step_minutes, peak_mb_s=peak_mb_s, sustained_mb_s=sustained_mb_s, tvc_config=tvc_config,
        max_recall_mb_s=max_recall_mb_s,
    )  # fmt: skip
    b0 = as_scalar("backlog_gb", BACKLOG_GB.check("backlog_gb", backlog_gb))
    if b0 > c.cap:
        raise ConstraintError(
            f"backlog_gb={b0:g} exceeds the effective capacity, {c.cap:g} GB (tvc_gb={c.tvc:g})"
        )
    return _run_day(profile, c, b0)


@dataclass(frozen=True)
class _TvcConstants:
    """What a day simulation takes besides the workload and the backlog: checked, in floats.

    :func:`simulate_tvc` checks its arguments into these (:func:`_tvc_constants`) and runs
    :func:`_run_day`; a caller that runs the same cache through many days (the planner) keeps
    them. Units as :func:`simulate_tvc`'s.
    """

    tvc: float  # physical capacity [GB]
    cap: float  # effective capacity [GB]
    cf: float
    feature: str
    theta: float  # fill threshold [-]
    f: float  # copy share at peak [-]
    hit: float  # read-hit ratio [-]
    dt_min: float  # time step [min]
    P: float  # peak host rate [MB/s]
    S: float  # sustained host rate [MB/s]
    cfc: float  # cache CF [-]
    ceiling: float  # recalls served at most, host [MB/s]
    tvc_config: str | None


def _tvc_constants(
    duration_hours: float, *, tvc_gb, cf, feature, threshold, peak_copy_fraction, above_864_fraction, read_hit,
    step_minutes, peak_mb_s, sustained_mb_s, tvc_config, max_recall_mb_s,
) -> _TvcConstants:  # fmt: skip
    """:func:`simulate_tvc`'s arguments checked (``ValueError`` naming a bad one) into :class:`_TvcConstants`."""
    FEATURE.check("feature", feature)
    tvc = as_scalar("tvc_gb", TVC_GB.check("tvc_gb", _capacity(tvc_gb, tvc_config)))
    cf_ = as_scalar("cf", CF.check("cf", cf))
    theta = as_scalar("threshold", THRESHOLD.check("threshold", threshold))
    f = as_scalar("peak_copy_fraction", PEAK_COPY_FRACTION.check("peak_copy_fraction", peak_copy_fraction))
    hit = as_scalar(
        "read_hit", READ_HIT.check("read_hit", default_read_hit() if read_hit is None else read_hit)
    )
    dt_min = as_scalar("step_minutes", STEP_MINUTES.check("step_minutes", step_minutes))
    steps_needed = duration_hours * 60.0 / dt_min
    if steps_needed > MAX_STEPS:
        raise ConstraintError(
            f"step_minutes={dt_min:g} takes {steps_needed:.3g} steps over the profile's {duration_hours:g} h; "
            f"at most {MAX_STEPS:,}: choose a step of at least {duration_hours * 60.0 / MAX_STEPS:.3g} min"
        )
    for name, inp, value in (
        ("peak_mb_s", PEAK_MB_S, peak_mb_s),
        ("sustained_mb_s", SUSTAINED_MB_S, sustained_mb_s),
    ):
        if value is not None:
            as_scalar(name, inp.check(name, value))
    cap = float(effective_capacity_gb(tvc, above_864_fraction=above_864_fraction))
    p_arr, s_arr = _rates(cf_, tvc, feature, peak_mb_s, sustained_mb_s, tvc_config)
    P, S = float(p_arr), float(s_arr)
    cfc = float(cache_cf(cf_, feature))
    ceiling = float(recall_ceiling_mb_s(cf_, feature=feature, sustained_mb_s=S))
    if max_recall_mb_s is not None:
        ceiling = as_scalar("max_recall_mb_s", RATE_MB_S.check("max_recall_mb_s", max_recall_mb_s))

    return _TvcConstants(tvc, cap, cf_, feature, theta, f, hit, dt_min, P, S, cfc, ceiling, tvc_config)


@dataclass(frozen=True)
class _DayGrid:
    """A profile on the day simulation's time grid: what every cache's day of it shares (:func:`_day_grid`).

    Arrays read-only: the runs of a plan's caches hold the same ones.
    """

    steps: np.ndarray  # each step's length [s]
    moving: np.ndarray  # steps > 0
    safe_steps: np.ndarray  # steps, 1 where 0 (a divisor)
    off_vol: np.ndarray  # host MB offered in each step, integrated exactly from the profile
    read_rate: np.ndarray  # host MB/s read in each step
    off_rate: np.ndarray  # host MB/s offered in each step
    offered_total_mb: np.ndarray  # cumulative host MB offered at the step edges
    time_hours: np.ndarray  # the step edges [h]


_GRIDS: dict[tuple, _DayGrid] = {}  # the last profile's grid, keyed by its values and the step


def _day_grid(profile: Profile, dt_min: float) -> _DayGrid:
    """The time grid of ``profile`` at ``dt_min`` minutes a step, the offered and read volumes on it.

    Computed once for a plan's sixteen caches, which simulate the same hours: keyed by the
    profile's values (not its identity), so a profile changed in place is never answered from
    an old grid.
    """
    key = (profile.start_hours.tobytes(), profile.write_mb_s.tobytes(), profile.read_mb_s.tobytes(),
           float(profile.duration_hours), float(dt_min))  # fmt: skip
    grid = _GRIDS.get(key)
    if grid is not None:
        return grid
    dur_s = profile.duration_hours * _S_PER_H
    dt = dt_min * 60.0
    n = max(1, int(math.ceil(dur_s / dt - 1e-9)))
    edges_s = np.minimum(np.arange(n + 1) * dt, dur_s)
    knots = np.append(profile.start_hours * _S_PER_H, dur_s)
    cum_w = np.concatenate([[0.0], np.cumsum(profile.write_mb_s * np.diff(knots))])
    cum_r = np.concatenate([[0.0], np.cumsum(profile.read_mb_s * np.diff(knots))])
    steps = np.diff(edges_s)
    off_vol = np.diff(np.interp(edges_s, knots, cum_w))
    read_vol = np.diff(np.interp(edges_s, knots, cum_r))
    moving = steps > 0
    safe = np.where(moving, steps, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        read_rate = np.where(moving, read_vol / safe, 0.0)
        off_rate = np.where(moving, off_vol / safe, 0.0)
    grid = _DayGrid(steps, moving, safe, off_vol, read_rate, off_rate, np.concatenate([[0.0], np.cumsum(off_vol)]),
                    edges_s / _S_PER_H)  # fmt: skip
    for a in vars(grid).values():
        a.flags.writeable = False
    _GRIDS.clear()
    _GRIDS[key] = grid
    return grid


def _run_day(profile: Profile, c: _TvcConstants, b0: float) -> TvcRun:
    """The day simulation of :func:`simulate_tvc` with its arguments checked already (:class:`_TvcConstants`).

    ``b0``: the backlog at the start, within the effective capacity. [GB]
    """
    tvc, cap, cf_, feature, theta, f, hit, dt_min = (
        c.tvc,
        c.cap,
        c.cf,
        c.feature,
        c.theta,
        c.f,
        c.hit,
        c.dt_min,
    )
    P, S, cfc, ceiling, tvc_config = c.P, c.S, c.cfc, c.ceiling, c.tvc_config
    g = _day_grid(profile, dt_min)
    steps, off_vol = g.steps, g.off_vol
    misses = g.read_rate * (1.0 - hit)  # host MB/s of read misses
    served = np.minimum(misses, ceiling)  # recalls up to the read model's ceiling
    recall = served / cfc  # physical MB/s read back from tape
    d_full = S / cfc  # Sec. 3.1.2: sustained input equals copying
    # Sec. 5: without PAF recalls take copy bandwidth; with PAF the input is not throttled for them
    d_r = np.full_like(recall, d_full) if feature == "paf" else np.maximum(d_full - recall, 0.0)

    thr_mb = theta * cap * _MB_PER_GB
    span = max(P - S, 1e-12 * max(P, 1.0))
    acc, cop, peak_t, thr, U, Q = _steps(
        steps, off_vol, d_r, P=P, S=S, f=f, cfc=cfc, thr_mb=thr_mb, span=span, b0=b0
    )

    acc_rate = np.where(g.moving, acc / g.safe_steps, 0.0)  # safe_steps: never 0
    cop_rate = np.where(g.moving, cop / g.safe_steps, 0.0)
    zero = np.zeros(1)
    return TvcRun(
        time_hours=g.time_hours,
        offered_mb_s=g.off_rate,
        accepted_mb_s=acc_rate,
        copy_mb_s=cop_rate,
        recall_mb_s=recall,
        throttled=thr,
        at_peak_hours=peak_t / _S_PER_H,
        uncopied_gb=U / _MB_PER_GB,
        delayed_mb=Q,
        offered_total_mb=g.offered_total_mb,
        accepted_total_mb=np.concatenate([zero, np.cumsum(acc)]),
        written_total_mb=np.concatenate([zero, np.cumsum(acc / cfc)]),
        copied_total_mb=np.concatenate([zero, np.cumsum(cop)]),
        capacity_gb=cap,
        threshold_gb=theta * cap,
        backlog_gb=b0,
        peak_mb_s=P,
        sustained_mb_s=S,
        cache_cf=cfc,
        params={
            "profile": profile.name,
            "tvc_gb": tvc,
            "cf": cf_,
            "feature": feature,
            "threshold": theta,
            "peak_copy_fraction": f,
            "read_hit": hit,
            "step_minutes": dt_min,
            "tvc_config": tvc_config,
        },
        recall_unserved_mb_s=misses - served,
        recall_ceiling_mb_s=ceiling,
    )


def _steps(steps: np.ndarray, off_vol: np.ndarray, d_r: np.ndarray, *, P: float, S: float, f: float, cfc: float,
           thr_mb: float, span: float, b0: float) -> tuple[np.ndarray, ...]:  # fmt: skip
    """The day simulation's steps (:func:`_run_day`): accepted, copied, time at peak, throttled, U and Q.

    ``steps`` [s], ``off_vol`` (host MB offered) and ``d_r`` (the copy rate, physical MB/s)
    per step; ``b0`` the backlog at the start [GB]; the rest as in :func:`simulate_tvc`'s
    notation. Accepted and copied volumes and time at peak per step [MB, MB, s], throttled
    per step, and the un-copied [MB] and delayed [MB] data at the step edges.
    """
    kw = {"P": P, "S": S, "f": f, "cfc": cfc, "thr_mb": thr_mb, "span": span, "u0": b0 * _MB_PER_GB}
    if COMPILED_STEPS:
        from vtsmodel import _daykernel  # here, not at the top: numba is imported on the first day simulated

        return _daykernel.day_steps(steps, off_vol, d_r, **kw)
    return _dayloop.run(_dayloop.loop, False, steps, off_vol, d_r, **kw)
