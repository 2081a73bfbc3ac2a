"""Recalls arriving at random: multi-drive FIFO queue formulas and a fast simulation.

Recalls arrive as a Poisson stream (rate lambda per second) at ``servers`` identical
drives, each recall keeping a drive busy for a service time with mean S; the offered
utilisation is rho = lambda * S / c. The formulas are the textbook ones:

- M/M/c (exponential service): Erlang C, exact.
- M/D/c (identical service, the Fig. 6 setting): Cosmetatos' approximation, bounded by
  the exact light-traffic ratio c / (c + 1) of the M/M/c wait.
- M/G/c (service with coefficient of variation cv): Allen-Cunneen's approximation.

:func:`simulate_recalls` checks them: a heap of drive free times for any service times,
and, for identical deterministic service, an exact vectorized form (customer k takes the
drive that customer k - c freed: a running maximum over each residue class mod c).
Steady-state formulas need rho < 1 and raise ``ValueError`` otherwise; the simulation
still runs and reports a growing queue.

Cost does not grow with the input: Erlang B is computed from the Poisson distribution,
``B(c, a) = P(X = c) / P(X <= c)`` for ``X ~ Poisson(a)`` (the regularized incomplete
gamma function), so a billion servers take as long as four; the fewest drives for a
target are found by bisection; the simulation is limited to :data:`MAX_SIMULATED`
recalls.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._validation import MAX_WHOLE, ConstraintError, as_scalar, broadcast, result
from vtsmodel.quantities import ARRIVAL_RATE, BIG_COUNT, BIG_S, SERVERS, SERVICE_CV, SERVICE_S, SMALL

__all__ = [
    "RecallSimulation",
    "recall_drives_needed",
    "erlang_c",
    "prob_wait",
    "simulate_recalls",
    "utilisation",
    "wait_mdc",
    "wait_mgc",
    "wait_mmc",
    "wait_percentile",
]

#: Most recalls :func:`simulate_recalls` runs (about 3 s and 0.5 GB at the limit). [count]
MAX_SIMULATED = 10_000_000

QUANTILE = Input(
    "quantile",
    "-",
    0.95,
    lo=0.0,
    hi=1.0,
    lo_open=True,
    hi_open=True,
    help="Share of waits at or below the answer.",
)
TARGET_WAIT_S = Input(
    "target wait", "s", 300.0, lo=0.0, hi=BIG_S, help="Largest acceptable wait at the quantile."
)
MAX_DRIVES = Input(
    "most drives searched", "-", 64, lo=1, hi=BIG_COUNT, integer=True, help="Search limit of the sizing."
)
SIMULATED = Input(
    "recalls simulated", "-", 100_000, lo=1, hi=MAX_SIMULATED, integer=True,
    source="practical limit (time and memory grow with it)", help="Recalls the simulation runs.",
)  # fmt: skip
SEED = Input(
    "random seed", "-", 0, lo=0, hi=MAX_WHOLE, integer=True, help="Seed of numpy's default generator."
)
WARMUP = Input(
    "warm-up share",
    "-",
    0.1,
    lo=0.0,
    hi=1.0,
    hi_open=True,
    help="Share of the recalls left out at the start.",
)
BATCHES = Input("batches", "-", 30, lo=2, hi=1e6, integer=True, help="Batches of the batch-means interval.")
CONFIDENCE = Input(
    "confidence level", "-", 0.95, lo=0.0, hi=1.0, lo_open=True, hi_open=True, help="Of the intervals."
)
_POSITIVE_RATE = ARRIVAL_RATE.but(lo=SMALL)


def _inputs(arrival_rate, service_s, servers, *, steady=True):
    lam = ARRIVAL_RATE.check("arrival_rate", arrival_rate)
    s = SERVICE_S.check("service_s", service_s)
    c = SERVERS.check("servers", servers)
    broadcast(arrival_rate=lam, service_s=s, servers=c)
    rho = lam * s / c
    if steady and np.any(rho >= 1.0):
        bad = np.broadcast_to(rho, np.broadcast_shapes(rho.shape))[rho >= 1.0].ravel()[0]
        raise ConstraintError(
            f"utilisation = arrival_rate * service_s / servers = {bad:.4g} must be below 1 for a steady "
            f"state (valid range [0, 1)); the queue grows without bound: add servers or lower the load"
        )
    return lam, s, c, rho


@declare(arrival_rate=ARRIVAL_RATE, service_s=SERVICE_S, servers=SERVERS)
def utilisation(arrival_rate, service_s, servers):
    """Offered utilisation of each drive, rho = lambda * S / c. [-]

    Parameters
    ----------
    arrival_rate : float or array_like
        Recalls per second. [1/s]
    service_s : float or array_like
        Mean service time per recall. [s]
    servers : int or array_like
        Drives serving the queue. [count]
    """
    return result(_inputs(arrival_rate, service_s, servers, steady=False)[3])


def _erlang_b(a, c) -> np.ndarray:
    """Erlang B for offered load a and c servers: ``P(X = c) / P(X <= c)``, X ~ Poisson(a).

    The same number as the recursion B(k) = a B(k-1) / (k + a B(k-1)) (to about 1e-11
    relative), at a cost that does not grow with c. Accurate for a < c (rho < 1), where
    P(X <= c) is not small.
    """
    from scipy.special import gammaincc, gammaln  # imported here, not at package import

    a, c = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(c, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        log_pmf = np.where(a > 0, c * np.log(np.where(a > 0, a, 1.0)) - a - gammaln(c + 1.0), -np.inf)
        return np.exp(log_pmf) / gammaincc(c + 1.0, a)


def _erlang_c(a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Erlang C for offered load a = lambda * S and c servers, from Erlang B."""
    b = _erlang_b(a, c)
    rho = np.asarray(a, dtype=float) / np.asarray(c, dtype=float)
    return b / (1.0 - rho + rho * b)


@declare(arrival_rate=ARRIVAL_RATE, service_s=SERVICE_S, servers=SERVERS)
def erlang_c(arrival_rate, service_s, servers):
    """Probability that an arriving recall waits in M/M/c (Erlang C). [-]

    C(c, a) = B(c, a) / (1 - rho + rho B(c, a)), with a = lambda S and B the Erlang B
    formula (B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)), computed in closed form from
    the Poisson distribution: :func:`_erlang_b`).

    Parameters
    ----------
    arrival_rate : float or array_like
        Recalls per second. [1/s]
    service_s : float or array_like
        Mean service time. [s]
    servers : int or array_like
        Drives. [count]
    """
    lam, s, c, _ = _inputs(arrival_rate, service_s, servers)
    return result(_erlang_c(lam * s, c))


#: The probability of waiting; the M/D/c and M/G/c approximations here use Erlang C too.
prob_wait = erlang_c


@declare(arrival_rate=ARRIVAL_RATE, service_s=SERVICE_S, servers=SERVERS)
def wait_mmc(arrival_rate, service_s, servers):
    """Mean wait in queue of M/M/c (Erlang C), before a drive starts the recall. [s]

    Wq = C(c, a) S / (c (1 - rho)).

    Parameters
    ----------
    arrival_rate : float or array_like
        Recalls per second. [1/s]
    service_s : float or array_like
        Mean service time. [s]
    servers : int or array_like
        Drives. [count]
    """
    lam, s, c, rho = _inputs(arrival_rate, service_s, servers)
    return result(_erlang_c(lam * s, c) * s / (c * (1.0 - rho)))


@declare(arrival_rate=ARRIVAL_RATE, service_s=SERVICE_S, servers=SERVERS)
def wait_mdc(arrival_rate, service_s, servers):
    """Mean wait in queue of M/D/c: Cosmetatos' approximation, bounded at light load. [s]

    Wq(M/D/c) = Wq(M/M/c) min(R_C, c / (c + 1)), with Cosmetatos' ratio
    R_C = 1/2 [1 + (1 - rho)(c - 1)(sqrt(4 + 5c) - 2) / (16 rho c)]
    (G. P. Cosmetatos, 1975, INFOR 13: 328-331) and its bound c / (c + 1), the exact
    ratio in light traffic: a recall that finds all c drives busy waits for the first
    to free, the least of c residual service times, S / (c + 1) for identical service
    against S / c for exponential (the light-traffic limit of M/G/c, Burman and Smith,
    1983, Math. Oper. Res. 8: 15-25). R_C grows as 1 / rho at light load, above 1 for
    several drives (it overestimates there, as Kimura, 1991, J. Oper. Res. Soc. 42:
    595-603, notes): without the bound identical service times would wait longer than
    exponential ones (c = 7 at rho = 1/7: 1.18 times M/M/c; 60 drives at rho = 0.01: 47).
    The bound binds only where R_C > c / (c + 1), below rho of about 0.2 to 0.5; there
    the exact simulation (:func:`simulate_recalls`) lies 0 to 13 % below it (measured
    for 2 to 60 drives), elsewhere R_C is within about 4 % of it. Exact for c = 1
    (Pollaczek-Khinchine: 1/2). The Cosmetatos term is computed as
    (C / rho) S (c - 1)(sqrt(4 + 5c) - 2) / (16 c^2), finite as the load tends to 0.

    Parameters as :func:`wait_mmc`; ``service_s`` is the (identical) service time. [s]
    """
    lam, s, c, rho = _inputs(arrival_rate, service_s, servers)
    return result(_mdc(lam * s, s, c, rho))


def _mdc(a, s, c, rho):
    pw = _erlang_c(a, c)
    wq = pw * s / (c * (1.0 - rho))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        c_over_rho = np.where(rho > 0, pw / np.where(rho > 0, rho, 1.0), 0.0)
    extra = c_over_rho * s * (c - 1.0) * (np.sqrt(4.0 + 5.0 * c) - 2.0) / (16.0 * c * c)
    return np.minimum(0.5 * (wq + extra), wq * c / (c + 1.0))  # Cosmetatos, light-traffic bound


@declare(arrival_rate=ARRIVAL_RATE, service_s=SERVICE_S, servers=SERVERS, service_cv=SERVICE_CV)
def wait_mgc(arrival_rate, service_s, servers, service_cv=None, *, service_sample=None):
    """Mean wait in queue of M/G/c by Allen-Cunneen's approximation, or simulated from a sample. [s]

    Wq(M/G/c) = Wq(M/M/c) (1 + cv^2) / 2, for Poisson arrivals (arrival cv = 1).
    At cv = 0 it is half the M/M/c wait, a few percent below Cosmetatos' M/D/c value.
    With ``service_sample`` (a log's own service times) instead of a cv: Poisson arrivals
    and service drawn from the sample, scaled to mean ``service_s``, simulated
    (:func:`simulate_recalls`, :data:`SAMPLE_SIMULATED` recalls, seed 0).

    Parameters
    ----------
    arrival_rate, service_s, servers
        As :func:`wait_mmc` (scalars with a sample).
    service_cv : float or array_like
        Coefficient of variation of the service time (0 deterministic, 1 exponential). [-]
    service_sample : array_like, optional
        Service times whose shape the service follows (replaces ``service_cv``). [s]
    """
    if service_sample is not None:
        return _by_sample(arrival_rate, service_s, servers, _sample("service_sample", service_sample))
    lam, s, c, rho = _inputs(arrival_rate, service_s, servers)
    if service_cv is None:
        raise ConstraintError(
            "service_cv=None and service_sample=None: give the service time's coefficient of "
            "variation or a sample of service times"
        )
    cv = SERVICE_CV.check("service_cv", service_cv)
    broadcast(arrival_rate=lam, service_s=s, servers=c, service_cv=cv)
    return result(_erlang_c(lam * s, c) * s / (c * (1.0 - rho)) * (1.0 + cv**2) / 2.0)


@declare(
    arrival_rate=ARRIVAL_RATE, service_s=SERVICE_S, servers=SERVERS, q=QUANTILE,
    service_cv=SERVICE_CV.but(default=1.0),
)  # fmt: skip
def wait_percentile(arrival_rate, service_s, servers, q=0.95, *, service_cv=1.0, service_sample=None):
    """The q-quantile of the wait in queue. [s]

    M/M/c (service_cv = 1), exact: P(W > t) = C exp(-(c/S - lambda) t), so
    t_q = 0 if q <= 1 - C, else ln(C / (1 - q)) / (c/S - lambda).
    Other cv: the same exponential tail scaled to the approximate mean (Cosmetatos for
    cv = 0, Allen-Cunneen otherwise): t_q = (Wq / C) ln(C / (1 - q)), an approximation.
    With ``service_sample``: simulated, as :func:`wait_mgc` does with one.

    Parameters
    ----------
    arrival_rate, service_s, servers
        As :func:`wait_mmc`.
    q : float or array_like
        Quantile, 0 < q < 1. [-]
    service_cv : float or array_like
        Coefficient of variation of the service time. [-]
    service_sample : array_like, optional
        Service times whose shape the service follows (replaces ``service_cv``). [s]
    """
    if service_sample is not None:
        return _by_sample(arrival_rate, service_s, servers, _sample("service_sample", service_sample), q)
    qa = QUANTILE.check("q", q)
    cv = SERVICE_CV.check("service_cv", service_cv)
    lam, s, c, rho = _inputs(arrival_rate, service_s, servers)
    broadcast(arrival_rate=lam, service_s=s, servers=c, q=qa, service_cv=cv)
    pw = _erlang_c(lam * s, c)
    mmc = pw * s / (c * (1.0 - rho))
    if np.all(cv == 1.0):
        wq = mmc
    else:
        wq = np.where(cv == 0.0, _mdc(lam * s, s, c, rho), mmc * (1.0 + cv**2) / 2.0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = np.where(
            (pw > 0) & (qa > 1.0 - pw), wq / np.where(pw > 0, pw, 1.0) * np.log(pw / (1.0 - qa)), 0.0
        )
    return result(t)


@declare(
    arrival_rate=ARRIVAL_RATE, service_s=SERVICE_S, target_wait_s=TARGET_WAIT_S, q=QUANTILE,
    service_cv=SERVICE_CV, max_drives=MAX_DRIVES,
)  # fmt: skip
def recall_drives_needed(
    arrival_rate, service_s, target_wait_s, q=0.95, *, service_cv=0.0, max_drives=64
) -> int:
    """Fewest drives whose q-quantile wait (:func:`wait_percentile`) is at most the target.

    Found by bisection between the fewest drives with rho < 1 and ``max_drives`` (the
    wait falls as drives are added), so the cost grows with log(max_drives) only.

    Parameters
    ----------
    arrival_rate : float
        Recalls per second. [1/s]
    service_s : float
        Mean service time per recall. [s]
    target_wait_s : float
        Largest acceptable q-quantile of the wait in queue. [s]
    q : float
        Quantile. [-]
    service_cv : float
        Coefficient of variation of the service time. [-]
    max_drives : int
        Search limit. [count]

    Raises
    ------
    ConstraintError
        (a ``ValueError``) when ``max_drives`` drives do not meet the target.
    """
    lam = as_scalar("arrival_rate", ARRIVAL_RATE.check("arrival_rate", arrival_rate))
    s = as_scalar("service_s", SERVICE_S.check("service_s", service_s))
    target = as_scalar("target_wait_s", TARGET_WAIT_S.check("target_wait_s", target_wait_s))
    qa = as_scalar("q", QUANTILE.check("q", q))
    cv = as_scalar("service_cv", SERVICE_CV.check("service_cv", service_cv))
    top = int(as_scalar("max_drives", MAX_DRIVES.check("max_drives", max_drives)))

    def meets(c: int) -> bool:
        return float(wait_percentile(lam, s, c, qa, service_cv=cv)) <= target

    lo = max(1, math.floor(lam * s) + 1)  # fewest drives with rho < 1
    if lo > top or not meets(top):
        raise ConstraintError(
            f"max_drives={max_drives!r} is not enough for target_wait_s={target_wait_s!r} at "
            f"arrival_rate={arrival_rate!r}, service_s={service_s!r}: raise max_drives or the target"
        )
    hi = top  # meets(hi); find the fewest
    while lo < hi:
        mid = (lo + hi) // 2
        if meets(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


@dataclass
class RecallSimulation:
    """Result of :func:`simulate_recalls`; times in seconds.

    Attributes
    ----------
    waits : numpy.ndarray
        Wait in queue of every recall, in arrival order. [s]
    arrivals : numpy.ndarray
        Arrival times. [s]
    warmup : int
        Recalls left out of the statistics at the start.
    batches : int
        Number of batches of the batch-means confidence interval.
    confidence : float
        Confidence level of the intervals. [-]
    """

    waits: np.ndarray
    arrivals: np.ndarray
    utilisation: float
    warmup: int
    batches: int = 30
    confidence: float = 0.95
    _batch_means: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        w = self.waits[self.warmup :]
        m = len(w) // self.batches
        self._batch_means = w[: m * self.batches].reshape(self.batches, m).mean(axis=1)

    @property
    def steady(self) -> np.ndarray:
        """Waits after the warm-up. [s]"""
        return self.waits[self.warmup :]

    @property
    def mean_wait(self) -> float:
        """Mean wait in queue after the warm-up. [s]"""
        return float(self.steady.mean())

    @property
    def ci_halfwidth(self) -> float:
        """Half-width of the batch-means confidence interval of the mean wait. [s]"""
        from scipy import stats  # imported here: scipy.stats costs ~0.7 s at import

        t = stats.t.ppf(0.5 + self.confidence / 2.0, self.batches - 1)
        return float(t * self._batch_means.std(ddof=1) / math.sqrt(self.batches))

    @property
    def ci(self) -> tuple[float, float]:
        """Batch-means confidence interval of the mean wait. [s]"""
        h = self.ci_halfwidth
        return (self.mean_wait - h, self.mean_wait + h)

    @property
    def prob_wait(self) -> float:
        """Fraction of recalls that waited. [-]"""
        return float(np.mean(self.steady > 0.0))

    def percentile(self, q=0.95) -> float:
        """The q-quantile of the wait. [s]"""
        return float(np.quantile(self.steady, q))

    @property
    def wait_slope(self) -> float:
        """Least-squares slope of batch mean wait vs batch mid-time: growth of the wait. [s/s]"""
        w_t = self.arrivals[self.warmup :]
        m = len(w_t) // self.batches
        t_mid = w_t[: m * self.batches].reshape(self.batches, m).mean(axis=1)
        return float(np.polyfit(t_mid, self._batch_means, 1)[0])

    @property
    def growing(self) -> bool:
        """True when the queue grows: the batch means rise with a trend t-statistic above 3."""
        x = np.arange(self.batches, dtype=float)
        from scipy import stats

        fit = stats.linregress(x, self._batch_means)
        return bool(fit.slope > 0 and fit.stderr > 0 and fit.slope / fit.stderr > 3.0) or bool(
            fit.slope > 0 and fit.stderr == 0
        )


#: Recalls simulated where a formula takes a sample of service times instead of a cv. [count]
SAMPLE_SIMULATED = 200_000


def _sample(name: str, value) -> np.ndarray:
    """A sample of service times: a 1-d array of finite numbers >= 0 with a mean above 0."""
    x = np.asarray(value, dtype=float) if not isinstance(value, str | bytes) else np.array([np.nan])
    if x.ndim != 1 or x.size == 0 or not np.all(np.isfinite(x)) or np.any(x < 0) or not x.mean() > 0:
        raise ValueError(
            f"{name} must be a 1-d array of service times, finite and >= 0 with a mean above 0 "
            f"(valid range [0, {BIG_S:g}] s each), not {np.array2string(x.ravel()[:6], threshold=6)}"
        )
    return x


def _by_sample(lam, s, c, sample, q=None, seed=0):
    """Mean (q None) or q-quantile of the wait, simulated with service drawn from ``sample``."""
    lam = as_scalar("arrival_rate", ARRIVAL_RATE.check("arrival_rate", lam))
    s = as_scalar("service_s", SERVICE_S.check("service_s", s))
    c = int(as_scalar("servers", SERVERS.check("servers", c)))
    if q is not None:
        q = as_scalar("q", QUANTILE.check("q", q))
    if lam < _POSITIVE_RATE.lo:
        # No arrivals, or fewer than the simulation's smallest rate (one in ~32 years): the
        # wait is 0 to every digit a run could show (light traffic: Wq ~ lambda^c).
        return result(0.0)
    if lam * s / c >= 1.0:
        raise ConstraintError(
            f"utilisation = arrival_rate * service_s / servers = {lam * s / c:.4g} must be below 1 for a "
            "steady state (valid range [0, 1))"
        )
    sim = simulate_recalls(lam, s, c, SAMPLE_SIMULATED, seed=seed, service_sample=sample)
    return result(sim.mean_wait if q is None else sim.percentile(q))


def _deterministic_starts(arr: np.ndarray, s: float, c: int) -> np.ndarray:
    """Exact FIFO start times with c servers and identical service s (lag-c running max).

    start[k] = max(arr[k], start[k - c] + s); along each residue class r (k = r + j c),
    start - j s is the running maximum of arr - j s.
    """
    n = len(arr)
    rows = -(-n // c)
    pad = np.full(rows * c, np.inf)
    pad[:n] = arr
    grid = pad.reshape(rows, c)
    shift = (np.arange(rows) * s)[:, None]
    starts = np.maximum.accumulate(grid - shift, axis=0) + shift
    # (a - j s) + j s can round below a: a start is never before its arrival
    return np.maximum(starts.ravel()[:n], arr)


def _heap_starts(arr: np.ndarray, svc: np.ndarray, c: int) -> np.ndarray:
    """FIFO start times with c servers and any service times (a heap of free times)."""
    free = [0.0] * c
    starts = np.empty(len(arr))
    replace = heapq.heapreplace
    for k, (a, x) in enumerate(zip(arr.tolist(), svc.tolist(), strict=True)):
        f = free[0]
        st = a if a > f else f
        starts[k] = st
        replace(free, st + x)
    return starts


@declare(
    arrival_rate=_POSITIVE_RATE, service_s=SERVICE_S, servers=SERVERS, n=SIMULATED, seed=SEED,
    service_cv=SERVICE_CV, warmup=WARMUP, batches=BATCHES, confidence=CONFIDENCE,
)  # fmt: skip
def simulate_recalls(
    arrival_rate,
    service_s,
    servers,
    n,
    *,
    seed=0,
    service_cv=0.0,
    warmup=0.1,
    batches=30,
    confidence=0.95,
    service_sample=None,
) -> RecallSimulation:
    """Simulate n recalls arriving at random at a FIFO queue of identical drives.

    Poisson arrivals (exponential gaps, mean 1 / arrival_rate); service times identical
    (service_cv = 0: the exact vectorized running-maximum path) or gamma-distributed
    with mean service_s and coefficient of variation service_cv (exponential at 1; a
    heap of drive free times). Seeded: the same arguments give the same waits. Runs for
    any utilisation; above 1 the result reports ``growing``.

    Parameters
    ----------
    arrival_rate : float
        Recalls per second. [1/s]
    service_s : float
        Mean service time per recall. [s]
    servers : int
        Drives. [count]
    n : int
        Recalls simulated (at least 10 per batch after the warm-up, at most
        :data:`MAX_SIMULATED`). [count]
    seed : int
        Seed of numpy's default generator, a whole number >= 0.
    service_cv : float
        Coefficient of variation of the service time. [-]
    warmup : float
        Fraction of the recalls left out of the statistics at the start. [-]
    batches : int
        Batches of the batch-means confidence interval. [count]
    confidence : float
        Confidence level. [-]

    Returns
    -------
    RecallSimulation
    """
    lam = as_scalar("arrival_rate", _POSITIVE_RATE.check("arrival_rate", arrival_rate))
    s = as_scalar("service_s", SERVICE_S.check("service_s", service_s))
    c = int(as_scalar("servers", SERVERS.check("servers", servers)))
    batches = int(as_scalar("batches", BATCHES.check("batches", batches)))
    fw = as_scalar("warmup", WARMUP.check("warmup", warmup))
    n = int(as_scalar("n", SIMULATED.check("n", n)))
    seed = int(as_scalar("seed", SEED.check("seed", seed)))
    skip = int(n * fw)
    if (n - skip) < 10 * batches:
        raise ConstraintError(
            f"n={n} is too small for batches={batches} and warmup={fw:g}: need at least "
            f"{10 * batches} recalls after the warm-up"
        )
    cv = as_scalar("service_cv", SERVICE_CV.check("service_cv", service_cv))
    conf = as_scalar("confidence", CONFIDENCE.check("confidence", confidence))
    rng = np.random.default_rng(seed)
    arr = np.cumsum(rng.exponential(1.0 / lam, n))
    c_used = min(c, n)  # more drives than recalls: the rest stay idle (and cost no memory)
    if service_sample is not None:
        sample = _sample("service_sample", service_sample)
        svc = rng.choice(sample, n) * (s / sample.mean())
        starts = _heap_starts(arr, svc, c_used)
    elif cv < 1e-6:  # service times within a millionth of each other: identical (1/cv**2 would overflow)
        starts = _deterministic_starts(arr, s, c_used)
    else:
        shape = 1.0 / cv**2
        svc = rng.gamma(shape, s / shape, n)
        starts = _heap_starts(arr, svc, c_used)
    return RecallSimulation(
        waits=starts - arr,
        arrivals=arr,
        utilisation=lam * s / c,
        warmup=skip,
        batches=batches,
        confidence=conf,
    )
