"""The arrays a replay keeps, fed to the event loop in chunks (private).

:class:`Engine` owns every array of :func:`vtsmodel.replay._kernel.run`: the request ring,
the drives, robots and cartridges, the hourly bins and the histograms. ``feed`` adds a chunk
of requests (in time order) and runs every event up to the chunk's last arrival; ``drain``
runs the rest. The ring, the cartridge arrays and the hourly bins grow as needed, so memory
follows the requests outstanding and the cartridges, not the length of the log.
"""

from __future__ import annotations

import functools
import math

import numpy as np

#: Histograms of response and wait: 10^-3 s to 10^9 s, 200 bins per decade (a bin is 1.2%
#: wide), bin 0 holding exact zeros. [s]
HIST_LO, HIST_HI, HIST_PER = -3.0, 9.0, 200
#: Most requests outstanding (arrived and not yet started) a replay holds: beyond, the
#: library is so far behind its log that the answer is "it cannot keep up". [count]
MAX_OUTSTANDING = 2**27


@functools.cache
def kernel():
    """The compiled (or plain Python) event loop module."""
    from vtsmodel.replay import _kernel

    return _kernel


def _grow(a: np.ndarray, n: int, fill) -> np.ndarray:
    out = np.full(n, fill, dtype=a.dtype)
    out[: a.size] = a
    return out


class Engine:
    """Drives, robots, cartridges and the request ring of one replay."""

    def __init__(self, *, drives, robots, move_s, load_s, unload_s, delay_s, policy, batch_k, batch_wait_s,
                 t0, cap, cartridges, keep_requests):  # fmt: skip
        k = kernel()
        self.k = k
        self.keep = keep_requests
        self.par = np.zeros(k.N_PAR)
        self.par[k.P_MOVE], self.par[k.P_LOAD], self.par[k.P_UNLOAD] = move_s, load_s, unload_s
        self.par[k.P_DELAY], self.par[k.P_BWAIT], self.par[k.P_T0] = delay_s, batch_wait_s, t0
        self.par[k.P_HIST_LO], self.par[k.P_HIST_PER] = HIST_LO, HIST_PER
        self.ipar = np.zeros(k.N_IPAR, dtype=np.int64)
        self.ipar[k.Q_POLICY] = k.GROUP if policy == "group" else k.FIFO
        self.ipar[k.Q_BATCH], self.ipar[k.Q_CAP] = batch_k, cap
        self.ipar[k.Q_DRIVES], self.ipar[k.Q_ROBOTS] = drives, robots
        self.ipar[k.Q_HIST] = 0 if keep_requests else 1  # kept requests give exact percentiles
        self.ist = np.zeros(k.N_IST, dtype=np.int64)
        self.ist[k.I_IDLEH] = self.ist[k.I_IDLET] = -1
        self.ist[k.I_EMPTYN] = drives
        self.fst = np.zeros(k.N_FST)
        self._ring(cap)
        self.d_state = np.zeros(drives, dtype=np.int64)
        self.d_cart = np.full(drives, -1, dtype=np.int64)
        self.d_since = np.full(drives, float(t0))
        self.d_target = np.full(drives, -1, dtype=np.int64)
        self.d_iprev = np.full(drives, -1, dtype=np.int64)
        self.d_inext = np.full(drives, -1, dtype=np.int64)
        npow = 1 << max(1, math.ceil(math.log2(max(drives, 2))))
        self.ev = np.full(npow, np.inf)
        self.tree = np.zeros(2 * npow, dtype=np.int64)
        self.tree[npow:] = np.arange(npow)
        for node in range(npow - 1, 0, -1):
            self.tree[node] = self.tree[2 * node]
        self.empty = np.arange(drives - 1, -1, -1, dtype=np.int64)  # drive 0 taken first
        self.rfree = np.full(robots, float(t0))
        self.ncart = 0
        self._carts(max(cartridges, 1))
        self.hours = np.zeros((5, 1))  # mounts, busy, held, queue, arrivals
        self.hist_resp = np.zeros(int((HIST_HI - HIST_LO) * HIST_PER) + 2, dtype=np.int64)
        self.hist_wait = np.zeros_like(self.hist_resp)
        self.last_arrival = t0
        self.t0 = t0

    def _ring(self, cap: int, old=None) -> None:
        new = {
            "r_arr": np.zeros(cap), "r_cart": np.zeros(cap, dtype=np.int64), "r_svc": np.zeros(cap),
            "r_next": np.full(cap, -1, dtype=np.int64), "r_flag": np.zeros(cap, dtype=np.int8),
            "o_done": np.full(cap, np.nan), "o_wait": np.full(cap, np.nan), "o_mount": np.zeros(cap, dtype=np.int8),
            "o_drive": np.full(cap, -1, dtype=np.int32), "b_cart": np.zeros(cap, dtype=np.int64),
            "b_dead": np.zeros(cap),
        }  # fmt: skip
        if old is not None:  # requests lo..avail keep their global numbers
            lo, hi, ocap = int(self.ist[self.k.I_LO]), int(self.ist[self.k.I_AVAIL]), old
            g = np.arange(lo, hi)
            for name, arr in new.items():
                if not name.startswith("b_"):
                    arr[g % cap] = getattr(self, name)[g % ocap]
            bh, bt = int(self.ist[self.k.I_BHEAD]), int(self.ist[self.k.I_BTAIL])
            gb = np.arange(bh, bt)
            new["b_cart"][gb % cap] = self.b_cart[gb % ocap]
            new["b_dead"][gb % cap] = self.b_dead[gb % ocap]
        for name, arr in new.items():
            setattr(self, name, arr)
        self.cap = cap
        self.ipar[self.k.Q_CAP] = cap

    def _carts(self, n: int) -> None:
        if n <= self.ncart:
            return
        n = max(n, 2 * self.ncart)
        if self.ncart == 0:
            self.c_qhead = np.full(n, -1, dtype=np.int64)
            self.c_qtail = np.full(n, -1, dtype=np.int64)
            self.c_qcount = np.zeros(n, dtype=np.int64)
            self.c_drive = np.full(n, -1, dtype=np.int64)
            self.c_avail = np.full(n, -np.inf)
            self.c_bstate = np.zeros(n, dtype=np.int64)
            self.c_bdead = np.zeros(n)
            self.c_waiter = np.full(n, -1, dtype=np.int64)
            self.heap = np.zeros(n + 1, dtype=np.int64)
        else:
            self.c_qhead = _grow(self.c_qhead, n, -1)
            self.c_qtail = _grow(self.c_qtail, n, -1)
            self.c_qcount = _grow(self.c_qcount, n, 0)
            self.c_drive = _grow(self.c_drive, n, -1)
            self.c_avail = _grow(self.c_avail, n, -np.inf)
            self.c_bstate = _grow(self.c_bstate, n, 0)
            self.c_bdead = _grow(self.c_bdead, n, 0.0)
            self.c_waiter = _grow(self.c_waiter, n, -1)
            self.heap = _grow(self.heap, n + 1, 0)
        self.ncart = n

    def _hours_to(self, t: float) -> None:
        need = int((t - self.t0) // 3600.0) + 2
        if need > self.hours.shape[1]:
            h = np.zeros((5, max(need, 2 * self.hours.shape[1])))
            h[:, : self.hours.shape[1]] = self.hours
            self.hours = h

    def _run(self, horizon: float) -> int:
        k = self.k
        h = self.hours
        # the last bin may only take what lies beyond the horizon's hour: keep one spare
        return k.run(
            self.par, self.ipar, self.ist, self.fst,
            self.r_arr, self.r_cart, self.r_svc, self.r_next, self.r_flag,
            self.o_done, self.o_wait, self.o_mount, self.o_drive,
            self.d_state, self.d_cart, self.d_since, self.d_target, self.d_iprev, self.d_inext,
            self.tree, self.ev, self.empty, self.rfree,
            self.c_qhead, self.c_qtail, self.c_qcount, self.c_drive, self.c_avail, self.c_bstate, self.c_bdead,
            self.c_waiter,
            self.heap, self.b_cart, self.b_dead, h[0], h[1], h[2], h[3], h[4], self.hist_resp, self.hist_wait,
            float(horizon),
        )  # fmt: skip

    def feed(self, arr: np.ndarray, cart: np.ndarray, svc: np.ndarray) -> None:
        """Add requests (arrival times not before the last ones fed) and run up to the last."""
        m = arr.size
        if m == 0:
            return
        k = self.k
        self._carts(int(cart.max()) + 1)
        lo, avail = int(self.ist[k.I_LO]), int(self.ist[k.I_AVAIL])
        need = avail + m - lo
        if need > self.cap:
            if need > MAX_OUTSTANDING:
                raise ValueError(
                    f"more than {MAX_OUTSTANDING} requests wait at once: the library cannot keep up with "
                    "the log (add drives or robots, or shorten the log)"
                )
            self._ring(1 << math.ceil(math.log2(2 * need)), old=self.cap)
        g = (avail + np.arange(m)) % self.cap
        self.r_arr[g], self.r_cart[g], self.r_svc[g] = arr, cart, svc
        self.ist[k.I_AVAIL] = avail + m
        self.last_arrival = float(arr[-1])
        self._hours_to(self.last_arrival)
        self._run(self.last_arrival)

    def drain(self) -> None:
        """Run the events left until every request is served and no drive is busy.

        A cartridge still mounted then (a dismount delay longer than the rest of the log)
        stays mounted: the replay ends at its last event.
        """
        k = self.k
        step = 3600.0
        horizon = self.last_arrival
        while True:
            horizon += step
            self._hours_to(horizon)
            if self._run(horizon):
                return
            if self.ist[k.I_LO] == self.ist[k.I_AVAIL] and np.all(
                (self.d_state == k.IDLE) | (self.d_state == k.EMPTY)
            ):
                return
            step *= 2.0

    def outputs(self, n: int):
        """Per-request completion, wait, mount flag and drive of requests 0..n-1 (a ring of n)."""
        return self.o_done[:n], self.o_wait[:n], self.o_mount[:n].astype(bool), self.o_drive[:n]

    @property
    def end(self) -> float:
        """Time of the last event. [s]"""
        return float(self.fst[self.k.F_LAST])

    def finish(self) -> None:
        """Close the drives' open states (idle and busy time) at the last event."""
        k = self.k
        t = self.end
        for d in range(self.d_state.size):
            k._set_state(
                d, k.EMPTY, t, self.d_state, self.d_since, self.fst, self.hours[1], self.hours[2], self.t0
            )
