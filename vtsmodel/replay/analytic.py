"""The analytic queueing answers beside a replay, and drives sized by replay.

For the same log and library, the formulas of :mod:`vtsmodel.queueing` see Poisson
arrivals at the log's mean rate and, as service time, the drive time a request takes with a
mount of its own (robot move, load, locate, read, rewind and unload: :attr:`Replay.hold_s`):
M/D/c (Cosmetatos) with its mean, M/G/c (Allen-Cunneen) with its mean and coefficient of
variation, and a simulation fed the sample itself. They know nothing of bursts, of requests
for the same cartridge served in one mount, of the dismount delay or of robot contention:
the replay does. Where an answer differs from the replay's by more than
:data:`DIFFERENCE` or the service cv exceeds :data:`CV_LIMIT` (where the approximations are
known to fail: Allen-Cunneen's mean wait was 5x a simulation's at cv 4.07 on a real log,
issue 24), :func:`analytic_beside` warns.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._validation import ConstraintError, VtsModelWarning, as_scalar
from vtsmodel.mountlog import MountLog
from vtsmodel.quantities import BIG_S, SEED
from vtsmodel.queueing import QUANTILE, prob_wait, simulate_recalls, wait_mdc, wait_mgc, wait_percentile
from vtsmodel.replay.library import MAX_DRIVES, ReplayLibrary, replay_library
from vtsmodel.replay.run import _PREPARE, Replay, _code_array, prepare_log, prepare_requests, replay_prepared

__all__ = ["CV_LIMIT", "DIFFERENCE", "AnalyticBeside", "ApproximationWarning", "DrivesByReplay", "WaitParts",
           "analytic_beside", "replay_drives_needed", "wait_parts"]  # fmt: skip

#: Relative difference between an analytic answer and the replay's beyond which
#: :func:`analytic_beside` warns (issue 24's threshold). [-]
DIFFERENCE = 0.2
#: Service cv beyond which the M/G/c approximations are known to fail (issue 24). [-]
CV_LIMIT = 2.0
#: How the note on answers far from the replay begins (a page naming the reasons drops it).
FAR_NOTE = "differ from the replay by more than"
#: Recalls the sample-fed simulation runs. [count]
SAMPLE_RUN = 200_000

MOST_DRIVES = Input("most drives", "-", 1000, lo=1, hi=MAX_DRIVES, integer=True, help="Search limit.")
TARGET_S = Input(
    "target", "s", 600.0, lo=0.0, hi=BIG_S, lo_open=True, help="Largest acceptable response at the quantile."
)


class ApproximationWarning(VtsModelWarning):
    """An analytic queueing answer is far from the replay of the same log, or outside its ground."""


@dataclass(frozen=True)
class AnalyticBeside:
    """A replay's wait beside the analytic answers for the same log and library. [s]

    Attributes
    ----------
    arrival_rate : float
        Tape requests per second over the log. [1/s]
    service_s, service_cv : float
        Mean and coefficient of variation of the drive time per request with a mount of its
        own. [s], [-]
    drives : int
        Drives. [count]
    utilisation : float
        arrival_rate * service_s / drives. [-]
    q : float
        The quantile compared. [-]
    replay_mean_s, replay_q_s : float
        The replay's mean and q-quantile wait. [s]
    mdc_mean_s, mdc_q_s, mgc_mean_s, mgc_q_s : float
        M/D/c and M/G/c mean and q-quantile wait (NaN at utilisation 1 or more). [s]
    sample_mean_s, sample_q_s : float
        Poisson arrivals, service drawn from the replay's own drive times
        (:attr:`Replay.hold_sample_s`: all of them, or a uniform sample when streamed; NaN
        at utilisation 1 or more). [s]
    differences : dict of str to float
        (answer - replay) / replay for each answer's mean and quantile. [-]
    notes : tuple of str
        Why an answer is missing or why it warned.
    prob_wait : float
        Erlang C: the formulas' share of requests that wait (NaN at utilisation 1 or more). [-]
    ready_s : float
        Mean time to data of a request with a mount of its own: robot move, load, locate,
        read (:attr:`service_s` less the rewind and unload). [s]
    """

    arrival_rate: float
    service_s: float
    service_cv: float
    drives: int
    utilisation: float
    q: float
    replay_mean_s: float
    replay_q_s: float
    mdc_mean_s: float
    mdc_q_s: float
    mgc_mean_s: float
    mgc_q_s: float
    sample_mean_s: float
    sample_q_s: float
    differences: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    prob_wait: float = math.nan
    ready_s: float = math.nan

    def response_survival(self, t, model: str = "M/G/c", ready=None, weights=None) -> np.ndarray:
        """The formulas' share of requests whose response exceeds ``t``. [-]

        The wait's exponential tail (as :func:`vtsmodel.queueing.wait_percentile` takes it),
        P(W > w) = C exp(-w C / Wq), with Wq the ``model``'s mean wait (``"M/D/c"`` or
        ``"M/G/c"``), plus the time to data R: P(W + R > t) = 1 for t < R, else
        C exp(-(t - R) C / Wq), averaged over ``ready`` (each request's time to data, the
        wait independent of it; with ``weights``, a weighted mean), or at its mean
        :attr:`ready_s` when ``ready`` is None.

        Parameters
        ----------
        t : array_like
            Response times. [s]
        model : str
            ``"M/D/c"`` or ``"M/G/c"``.
        ready : array_like, optional
            Times to data to average over (a sample, or its quantiles). [s]
        weights : array_like, optional
            The share of requests each of ``ready`` stands for (default equal). [-]
        """
        if model not in ("M/D/c", "M/G/c"):
            raise ValueError(f"model={model!r} is not valid; choose 'M/D/c' or 'M/G/c'")
        t = np.asarray(t, dtype=float)
        r = np.atleast_1d(np.asarray(self.ready_s if ready is None else ready, dtype=float))
        wq = self.mdc_mean_s if model == "M/D/c" else self.mgc_mean_s
        c = self.prob_wait
        w = (
            np.full(r.size, 1.0 / r.size)
            if weights is None
            else np.asarray(weights, dtype=float) / np.sum(weights)
        )
        late = t[..., None] - r  # [t, ready]
        if not (math.isfinite(wq) and math.isfinite(c)) or wq <= 0 or c <= 0:
            return np.where(late < 0, 1.0, 0.0) @ w
        return np.where(late < 0, 1.0, c * np.exp(-np.maximum(late, 0.0) * c / wq)) @ w

    @property
    def missing(self) -> str:
        """Why an answer is NaN, in words: no steady state, or too few requests for a rate."""
        return "no steady state" if self.utilisation >= 1 else "too few requests"

    def rows(self) -> list[tuple[str, float, float]]:
        """``(answer, mean, quantile)`` rows: replay, M/D/c, M/G/c, sample. [s]"""
        return [
            ("replay", self.replay_mean_s, self.replay_q_s),
            ("M/D/c (Cosmetatos)", self.mdc_mean_s, self.mdc_q_s),
            (f"M/G/c (Allen-Cunneen, cv {self.service_cv:.2f})", self.mgc_mean_s, self.mgc_q_s),
            ("M/G/c simulated with the sample", self.sample_mean_s, self.sample_q_s),
        ]


def _rel(a: float, b: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.nan
    if b == 0:
        return 0.0 if a == 0 else math.inf
    return (a - b) / b


@declare(q=QUANTILE, seed=SEED)
def analytic_beside(
    rep: Replay, q=0.95, *, warn: bool = True, seed: int = 0, simulate: bool = True
) -> AnalyticBeside:
    """The M/D/c and M/G/c waits for a replay's log and library, beside the replay's own.

    Parameters
    ----------
    rep : Replay
        A replay (:func:`vtsmodel.replay.replay_log`).
    q : float
        Quantile compared. [-]
    warn : bool
        Issue an :class:`ApproximationWarning` where an answer differs from the replay's by
        more than :data:`DIFFERENCE` or the service cv exceeds :data:`CV_LIMIT`.
    seed : int
        Seed of the sample-fed simulation.
    simulate : bool
        Run the sample-fed simulation (:data:`SAMPLE_RUN` recalls, about 0.2 s); without it
        ``sample_mean_s`` and ``sample_q_s`` are NaN.

    Returns
    -------
    AnalyticBeside
    """
    if not isinstance(rep, Replay):
        raise ValueError(f"rep must be a Replay, not {type(rep).__name__}")
    q = float(as_scalar("q", QUANTILE.check("q", q)))
    seed = int(as_scalar("seed", SEED.check("seed", seed)))
    n = rep.tape_requests
    span = rep.arrival_span_s
    lam = n / span if span > 0 and n > 1 else math.nan
    s, cv, c = rep.hold_mean_s, rep.hold_cv, rep.library.drives
    rho = lam * s / c if math.isfinite(lam) else math.nan
    notes = []
    nan = math.nan
    mdc_m = mdc_q = mgc_m = mgc_q = smp_m = smp_q = pw = nan
    if not math.isfinite(rho):
        notes.append("too few tape requests for an arrival rate")
    elif rho >= 1.0:
        notes.append(f"utilisation {rho:.3g} >= 1: the formulas have no steady state")
    else:
        pw = float(prob_wait(lam, s, c))
        mdc_m = float(wait_mdc(lam, s, c))
        mdc_q = float(wait_percentile(lam, s, c, q, service_cv=0.0))
        cvc = min(cv, 100.0)
        mgc_m = float(wait_mgc(lam, s, c, cvc))
        mgc_q = float(wait_percentile(lam, s, c, q, service_cv=cvc))
        drawn = rep.hold_sample_s if rep.hold_sample_s is not None else rep.hold_s
        if simulate and drawn is not None and drawn.size:
            sim = simulate_recalls(lam, s, c, SAMPLE_RUN, seed=seed, service_sample=drawn)
            smp_m, smp_q = sim.mean_wait, sim.percentile(q)
            if drawn.size < n:
                notes.append(f"the sample-fed simulation draws from {drawn.size:,} of the {n:,} drive times "
                             "(a uniform sample kept as the log streamed)")  # fmt: skip
    r_m, r_q = rep.mean_wait_s, rep.percentile(q, of="wait")
    diffs = {
        "M/D/c mean": _rel(mdc_m, r_m), "M/D/c quantile": _rel(mdc_q, r_q),
        "M/G/c mean": _rel(mgc_m, r_m), "M/G/c quantile": _rel(mgc_q, r_q),
    }  # fmt: skip
    far = [f"{k} {v:+.0%}" for k, v in diffs.items() if math.isfinite(v) and abs(v) > DIFFERENCE]
    if cv > CV_LIMIT:
        notes.append(f"service cv {cv:.2f} > {CV_LIMIT:g}: the M/G/c approximations are known to fail here")
    if far:
        notes.append(f"{FAR_NOTE} {DIFFERENCE:.0%}: " + ", ".join(far))
    out = AnalyticBeside(
        arrival_rate=lam, service_s=s, service_cv=cv, drives=c, utilisation=rho, q=q, replay_mean_s=r_m,
        replay_q_s=r_q, mdc_mean_s=mdc_m, mdc_q_s=mdc_q, mgc_mean_s=mgc_m, mgc_q_s=mgc_q, sample_mean_s=smp_m,
        sample_q_s=smp_q, differences=diffs, notes=tuple(notes), prob_wait=pw,
        ready_s=s - rep.library.rewind_unload_s,
    )  # fmt: skip
    if warn and (far or cv > CV_LIMIT):
        warnings.warn("analytic beside replay: " + "; ".join(notes), ApproximationWarning, stacklevel=2)
    return out


@dataclass(frozen=True, eq=False)
class WaitParts:
    """A replay's waits split by what each request waited for: its cartridge, or the rest. [s]

    A request that arrives while an earlier request for its cartridge is still being served
    waits at least until that one ends: that much of its wait (at most all of it) is
    **cartridge contention**, which no queueing formula sees (they give every request a
    mount of its own). The rest of every wait is for a drive, a robot or an unload: what the
    formulas model, though with Poisson arrivals where a log comes in bursts.

    Attributes
    ----------
    cartridge_s, other_s : numpy.ndarray
        Each tape request's wait for its cartridge, and the rest of its wait. [s]
    contended : int
        Tape requests that arrived while an earlier one held their cartridge. [count]
    peak_ratio : float
        Tape arrivals in the busiest hour over the mean hour's, from the first arrival to the
        last (1: even, or no arrivals). [-]
    """

    cartridge_s: np.ndarray
    other_s: np.ndarray
    contended: int
    peak_ratio: float

    @property
    def share_contended(self) -> float:
        """Share of the tape requests that waited for their cartridge. [-]"""
        n = self.cartridge_s.size
        return self.contended / n if n else math.nan

    def mean_cartridge_s(self) -> float:
        """Mean cartridge wait of the requests that had one. [s]"""
        held = self.cartridge_s[self.cartridge_s > 0]
        return float(held.mean()) if held.size else 0.0

    def other_quantile_s(self, q: float) -> float:
        """The q-quantile of the waits less their cartridge part. [s]"""
        return float(np.quantile(self.other_s, q)) if self.other_s.size else math.nan


def wait_parts(rep: Replay, cartridge=None) -> WaitParts:
    """Split a replay's waits into cartridge contention and the rest (:class:`WaitParts`).

    A cartridge is in one drive at a time and serves its requests in arrival order, so a
    request waits for its cartridge until the request before it on that cartridge ends (its
    arrival plus response), when that is after its own arrival.

    Parameters
    ----------
    rep : Replay
        A replay with its per-request arrays (not streamed).
    cartridge : array_like of int, optional
        Cartridge code of each tape request, in the replay's order
        (:attr:`PreparedRequests.cartridge`); None: each on a cartridge of its own.
    """
    if not isinstance(rep, Replay):
        raise ValueError(f"rep must be a Replay, not {type(rep).__name__}")
    if rep.wait_s is None:
        raise ValueError("rep has no per-request arrays (a streamed replay): replay the log in memory")
    n = rep.wait_s.size
    c = np.arange(n) if cartridge is None else _code_array("cartridge", cartridge, n)
    order = np.argsort(c, kind="stable")  # by cartridge, then arrival (the replay's order)
    end = rep.time_s + rep.response_s
    held = np.zeros(n)
    same = c[order[1:]] == c[order[:-1]]
    later, before = order[1:][same], order[:-1][same]
    held[later] = np.clip(end[before] - rep.time_s[later], 0.0, None)
    cart = np.minimum(held, rep.wait_s)
    hours = int(rep.arrival_span_s // 3600.0) + 1  # to the last arrival, not the queue's draining
    arrivals = rep.hourly["arrivals"][:hours]
    peak = float(arrivals.max() / arrivals.mean()) if arrivals.size and arrivals.sum() > 0 else 1.0
    return WaitParts(cartridge_s=cart, other_s=rep.wait_s - cart, contended=int(np.count_nonzero(cart > 0)),
                     peak_ratio=peak)  # fmt: skip


@dataclass(frozen=True)
class DrivesByReplay:
    """Drives a log needs by replay, with the analytic count beside.

    Attributes
    ----------
    drives : int
        Fewest drives whose replay meets the target. [count]
    analytic_drives : int or None
        Fewest drives by M/G/c (Allen-Cunneen, the log's mean and cv): q-quantile wait plus
        the mean time to data of a mounted request at most the target; ``None`` when
        ``max_drives`` do not meet it. [count]
    target_s, q : float
        The target and its quantile. [s], [-]
    tried : dict of int to float
        The replay's q-quantile response at each drive count tried. [s]
    replay : Replay
        The replay at ``drives``.
    """

    drives: int
    analytic_drives: int | None
    target_s: float
    q: float
    tried: dict
    replay: Replay


@declare(target_s=TARGET_S, q=QUANTILE, max_drives=MOST_DRIVES)
def replay_drives_needed(
    log, target_s, *, q=0.95, library: ReplayLibrary | None = None, max_drives: int = 1000, **replay_kwargs
) -> DrivesByReplay:
    """Fewest drives whose replayed q-quantile response meets ``target_s``, beside the analytic count.

    Drives are doubled from 1 until the replay meets the target, then bisected (the response
    falls as drives are added: the property tests check it on random logs), so the cost is
    about 2 log2(drives) replays.

    Parameters
    ----------
    log : MountLog or dict
        The log, or arrays as :func:`replay_requests` takes them (``time_s``, ``obj``, ...).
    target_s : float
        Largest acceptable q-quantile response (wait plus time to data). [s]
    q : float
        Quantile. [-]
    library : ReplayLibrary, optional
        The library whose drive count varies (default :func:`replay_library`'s).
    max_drives : int
        Search limit. [count]
    **replay_kwargs
        Passed to the replay (cache, service, seed, ...).

    Raises
    ------
    ConstraintError
        (a ``ValueError``) when ``max_drives`` drives do not meet the target; its ``drives``
        and ``replayed_s`` say how many were tried and the percentile they gave. [count, s]
    """
    target = float(as_scalar("target_s", TARGET_S.check("target_s", target_s)))
    q = float(as_scalar("q", QUANTILE.check("q", q)))
    top = int(as_scalar("max_drives", MOST_DRIVES.check("max_drives", max_drives)))
    lib = replay_library() if library is None else library
    if not isinstance(lib, ReplayLibrary):
        raise ValueError(
            f"library must be a ReplayLibrary (from replay_library) or None, not {type(lib).__name__}"
        )
    prep = {k: replay_kwargs.pop(k) for k in _PREPARE if k in replay_kwargs}
    if isinstance(log, MountLog):
        prepared = prepare_log(log, lib, **prep)
        replay_kwargs.setdefault("service", "log" if prepared.duration_s is not None else "drive")
    elif isinstance(log, dict):
        if "time_s" not in log:
            raise ValueError("log is a dict without 'time_s': give the arrays replay_requests takes")
        prepared = prepare_requests(**log, library=lib, **prep)
    else:
        raise ValueError(f"log must be a MountLog or a dict of arrays, not {type(log).__name__}")

    def run(c):  # the cache pass and the stacking once, a replay per drive count
        return replay_prepared(prepared, lib.but(drives=c), **replay_kwargs)

    tried: dict[int, float] = {}
    runs: dict[int, Replay] = {}

    def meets(c):
        runs[c] = run(c)
        tried[c] = runs[c].percentile(q)
        return tried[c] <= target

    c, prev = 1, 0
    while not meets(c):
        if c >= top:
            exc = ConstraintError(
                f"max_drives={top} drives do not meet target_s={target:g} at q={q:g} "
                f"(replayed {tried[c]:.4g} s): raise max_drives or the target"
            )
            exc.drives, exc.replayed_s = top, float(tried[c])  # for a caller that says it in its own terms
            raise exc
        prev, c = c, min(2 * c, top)
    lo, hi = prev + 1, c
    while lo < hi:
        mid = (lo + hi) // 2
        if meets(mid):
            hi = mid
        else:
            lo = mid + 1
    if hi not in runs:
        meets(hi)
    rep = runs[hi]
    return DrivesByReplay(
        drives=hi, analytic_drives=_analytic_drives(rep, target, q, top), target_s=target, q=q,
        tried=dict(sorted(tried.items())), replay=rep,
    )  # fmt: skip


def _analytic_drives(rep: Replay, target: float, q: float, top: int) -> int | None:
    span = rep.arrival_span_s
    if rep.tape_requests < 2 or span <= 0:
        return None
    lam = rep.tape_requests / span
    s, cv = rep.hold_mean_s, min(rep.hold_cv, 100.0)
    lib = rep.library
    ready = rep.hold_mean_s - lib.rewind_unload_s  # move, load, locate and read
    c = max(1, math.floor(lam * s) + 1)
    while c <= top:
        if float(wait_percentile(lam, s, c, q, service_cv=cv)) + ready <= target:
            return c
        c += 1
    return None
