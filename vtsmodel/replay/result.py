"""What a replay gives: :class:`Replay`, each request's response time and the library's counts.

Percentiles are exact from the per-request arrays (in memory) or come from histograms 1.2% wide
(streamed): :func:`_hist_quantile`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vtsmodel.replay import _engine
from vtsmodel.replay.library import ReplayLibrary

__all__ = ["Replay"]


@dataclass(frozen=True, eq=False)
class Replay:
    """What a replay gives; times in seconds.

    Per-request arrays (``None`` when the replay was streamed) hold the requests that went
    to tape, in log order; ``tape`` says which of the log's requests those are.

    Attributes
    ----------
    library : ReplayLibrary
    requests : int
        Requests in the log. [count]
    cache_hits : int
        Requests served from the cache. [count]
    tape : numpy.ndarray or None
        Indices into the log of the requests that went to tape.
    time_s, response_s, wait_s, service_s : numpy.ndarray or None
        Arrival, response (wait + own service), wait, own service (locate and read, plus
        move and load when the request started its mount) of each tape request. [s]
    mounted : numpy.ndarray or None
        Whether the request started its cartridge's mount (else the cartridge was mounted).
    drive : numpy.ndarray or None
        Drive that served it.
    hold_s : numpy.ndarray or None
        Drive time each tape request would take with a mount of its own: robot move, load,
        locate, read, rewind and unload (the service time of the M/G/c formulas). [s]
    mounts, moves : int
        Mounts, robot moves. [count]
    drive_busy_s, drive_held_s, robot_busy_s : float
        Drive time busy (moving, loading, reading, unloading), drive time idle with a
        cartridge mounted (the dismount delay's cost), robot time moving. [s]
    start_s, end_s : float
        First request, last event. [s]
    hourly : dict of str to numpy.ndarray
        Per hour from ``start_s``: ``mounts``, ``busy_s``, ``held_s``, ``queue`` (mean
        requests waiting), ``arrivals``. The last hour holds whatever came after.
    max_waiting : int
        Most requests waiting at once. [count]
    hist_response, hist_wait : numpy.ndarray
        Histograms (bin 0: zero; then 200 bins per decade from 1 ms). [count]
    tape_requests : int
        Requests that went to tape. [count]
    hold_sum_s, hold_sq_s2 : float
        Sum of :attr:`hold_s` and of its squares (kept when streamed). [s], [s^2]
    arrival_span_s : float
        From the first tape request to the last. [s]
    notes : tuple of str
        What the replay assumed that the log did not say.
    cartridges : int
        Distinct cartridges the tape requests used. [count]
    volumes_per_cartridge : int or None
        Volumes stacked on a cartridge (None: the log named its cartridges). [count]
    """

    library: ReplayLibrary
    requests: int
    cache_hits: int
    tape: np.ndarray | None
    time_s: np.ndarray | None
    response_s: np.ndarray | None
    wait_s: np.ndarray | None
    service_s: np.ndarray | None
    mounted: np.ndarray | None
    drive: np.ndarray | None
    hold_s: np.ndarray | None
    mounts: int
    moves: int
    drive_busy_s: float
    drive_held_s: float
    robot_busy_s: float
    start_s: float
    end_s: float
    hourly: dict
    max_waiting: int
    hist_response: np.ndarray
    hist_wait: np.ndarray
    tape_requests: int
    hold_sum_s: float
    hold_sq_s2: float
    arrival_span_s: float
    notes: tuple[str, ...] = ()
    cartridges: int = 0
    volumes_per_cartridge: int | None = None

    @property
    def span_s(self) -> float:
        """From the first request to the last event. [s]"""
        return max(self.end_s - self.start_s, 0.0)

    @property
    def mean_response_s(self) -> float:
        """Mean response of the tape requests. [s]"""
        if self.response_s is not None:
            return float(self.response_s.mean()) if self.response_s.size else math.nan
        return self._hist_mean(self.hist_response)

    @property
    def mean_wait_s(self) -> float:
        """Mean wait of the tape requests. [s]"""
        if self.wait_s is not None:
            return float(self.wait_s.mean()) if self.wait_s.size else math.nan
        return self._hist_mean(self.hist_wait)

    def _hist_mean(self, hist) -> float:
        n = hist.sum()
        if n == 0:
            return math.nan
        edges = _edges()
        mids = np.concatenate([[0.0], np.sqrt(edges[:-1] * edges[1:]), [edges[-1]]])
        return float((hist * mids[: hist.size]).sum() / n)

    def percentile(self, q=0.95, *, of: str = "response") -> float:
        """The q-quantile of the response (``of="response"``) or the wait (``"wait"``). [s]"""
        if of not in ("response", "wait"):
            raise ValueError(f"of={of!r} is not valid; choose 'response' or 'wait'")
        q = float(q)
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"q={q!r} must be in [0, 1]")
        arr = self.response_s if of == "response" else self.wait_s
        if arr is not None:
            return float(np.quantile(arr, q)) if arr.size else math.nan
        return _hist_quantile(self.hist_response if of == "response" else self.hist_wait, q)

    def survival(self, *, of: str = "response", points: int = 300) -> tuple[np.ndarray, np.ndarray]:
        """``(t, share of tape requests above t)``, at most ``points`` points. [s], [-]

        From the per-request times, at ranks log-spaced from the fastest and from the slowest
        (so that a tail drawn on a log axis has its points down to the slowest request), or
        from the histogram (bin edges) when streamed; times below 1 ms are drawn at 1 ms (a
        log axis).
        """
        if of not in ("response", "wait"):
            raise ValueError(f"of={of!r} is not valid; choose 'response' or 'wait'")
        arr = self.response_s if of == "response" else self.wait_s
        if arr is not None:
            s = np.sort(np.maximum(arr, 1e-3))
            n = s.size
            if n == 0:
                return s, s
            k = min(points, n)
            ranks = np.concatenate([np.geomspace(1, n, k - k // 2), n + 1 - np.geomspace(1, n, k // 2)])
            idx = np.unique(np.round(ranks).astype(int) - 1)
            return s[idx], 1.0 - (idx + 1) / n
        h = self.hist_response if of == "response" else self.hist_wait
        e = _edges()
        edges = np.concatenate([[1e-3], e[1:], [e[-1]]])  # each bin's upper edge
        keep = h > 0
        return edges[keep], 1.0 - np.cumsum(h)[keep] / max(h.sum(), 1)

    @property
    def mounts_per_hour(self) -> float:
        """Mounts per hour over the replay. [1/h]"""
        return self.mounts / (self.span_s / 3600.0) if self.span_s > 0 else math.nan

    @property
    def drive_utilisation(self) -> float:
        """Share of drive time busy. [-]"""
        d = self.library.drives * self.span_s
        return self.drive_busy_s / d if d > 0 else math.nan

    @property
    def robot_utilisation(self) -> float:
        """Share of robot time moving. [-]"""
        d = self.library.robots * self.span_s
        return self.robot_busy_s / d if d > 0 else math.nan

    @property
    def loads_saved(self) -> int:
        """Tape requests served without a mount of their own (their cartridge was mounted). [count]"""
        return self.tape_requests - self.mounts

    @property
    def hold_mean_s(self) -> float:
        """Mean of :attr:`hold_s`: the service time of the analytic formulas. [s]"""
        return self.hold_sum_s / self.tape_requests if self.tape_requests else math.nan

    @property
    def hold_cv(self) -> float:
        """Coefficient of variation of :attr:`hold_s`. [-]"""
        n = self.tape_requests
        if n < 2:
            return 0.0
        m = self.hold_sum_s / n
        var = max(self.hold_sq_s2 / n - m * m, 0.0)
        return math.sqrt(var) / m if m > 0 else 0.0


def _edges() -> np.ndarray:
    per = _engine.HIST_PER
    k = int((_engine.HIST_HI - _engine.HIST_LO) * per)
    return 10.0 ** (_engine.HIST_LO + np.arange(k + 1) / per)


def _hist_quantile(hist: np.ndarray, q: float) -> float:
    """The q-quantile of a replay histogram, interpolated geometrically within a bin (to 1.2%). [s]"""
    n = int(hist.sum())
    if n == 0:
        return math.nan
    rank = q * (n - 1)
    cum = np.cumsum(hist)
    b = int(np.searchsorted(cum, rank, side="right"))
    if b == 0:
        return 0.0
    edges = _edges()
    lo, hi = edges[min(b - 1, edges.size - 1)], edges[min(b, edges.size - 1)]
    before = cum[b - 1] if b > 0 else 0
    frac = (rank - before + 1) / hist[b] if hist[b] else 0.5
    return float(lo * (hi / lo) ** min(max(frac, 0.0), 1.0))
