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
#: Drives up to which the event loop finds the first drive event by a scan of their times,
#: rather than keeping a tournament tree of them. Measured, CPU of a whole 10^5-request replay:
#: 4 drives 19.5 ms by the tree, 16.7 by the scan; 16 drives 20.0 and 18.8; even at 24; the
#: tree ahead from 32 (25.8 and 27.3). [count]
SCAN_DRIVES = 16


@functools.cache
def kernel():
    """The compiled (or plain Python) event loop module."""
    from vtsmodel.replay import _kernel

    return _kernel


def _grow(a: np.ndarray, n: int, fill) -> np.ndarray:
    out = np.full(n, fill, dtype=a.dtype)
    out[: a.size] = a
    return out


def _block(specs: dict) -> dict:
    """Arrays carved from one allocation: ``{name: (size, dtype, fill or None)}``.

    One region of memory instead of one per array: the memory a replay touches first costs a
    page fault per page (half its time on a 10^5-request log, measured), and one large
    region is mapped in large pages where the system allows and is reused by the allocator.
    """
    offsets, total = {}, 0
    for name, (n, dtype, _) in specs.items():
        offsets[name] = total
        total += -(-n * np.dtype(dtype).itemsize // 64) * 64  # each array 64-byte aligned
    buf = np.empty(max(total, 1), dtype=np.uint8)
    out = {}
    for name, (n, dtype, fill) in specs.items():
        a = buf[offsets[name] : offsets[name] + n * np.dtype(dtype).itemsize].view(dtype)
        if fill is not None:
            a.fill(fill)
        out[name] = a
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
        self.ipar[k.Q_SCAN] = 1 if drives <= SCAN_DRIVES else 0
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
        self.hours = np.zeros((k.N_HOURS, 1))  # mounts, busy, held, queue, arrivals
        self.hists = np.zeros((2, int((HIST_HI - HIST_LO) * HIST_PER) + 2), dtype=np.int64)
        self.hist_resp, self.hist_wait = self.hists[k.HIST_RESP], self.hists[k.HIST_WAIT]
        self.last_arrival = t0
        self.t0 = t0

    def _ring(self, cap: int, old=None) -> None:
        # requests, their links and the batch deadlines are written before they are read; the
        # outputs in a block of their own (a result keeps them, not the rest)
        i8, f8 = np.int64, np.float64
        new = _block({"r_arr": (cap, f8, None), "r_cart": (cap, i8, None), "r_svc": (cap, f8, None),
                      "r_next": (cap, i8, None), "r_flag": (cap, np.int8, 0), "b_cart": (cap, i8, None),
                      "b_dead": (cap, f8, None)})  # fmt: skip
        new.update(_block({"o_resp": (cap, f8, np.nan), "o_wait": (cap, f8, np.nan), "o_mount": (cap, np.int8, 0),
                           "o_drive": (cap, i8, -1)}))  # fmt: skip
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
        i8 = np.int64
        # a queue's head and tail, a batch's deadline and the heap's slots are read only once set
        i4 = np.int32  # counts and drives: narrower, fewer pages to touch
        new = _block({"c_qhead": (n, i8, None), "c_qtail": (n, i8, None), "c_qcount": (n, i4, 0),
                      "c_drive": (n, i4, -1), "c_avail": (n, np.float64, -np.inf), "c_bstate": (n, np.int8, 0),
                      "c_bdead": (n, np.float64, None), "c_waiter": (n, i4, -1), "heap": (n + 1, i8, None)})  # fmt: skip
        for name, arr in new.items():
            if self.ncart:
                old = getattr(self, name)
                arr[: old.size] = old
            setattr(self, name, arr)
        self.ncart = n

    def _hours_to(self, t: float) -> None:
        need = int((t - self.t0) // 3600.0) + 2
        if need > self.hours.shape[1]:
            h = np.zeros((self.hours.shape[0], max(need, 2 * self.hours.shape[1])))
            h[:, : self.hours.shape[1]] = self.hours
            self.hours = h

    def _run(self, horizon: float, close: bool = False) -> int:
        # the last bin may only take what lies beyond the horizon's hour: keep one spare
        return self.k.run(
            self.par, self.ipar, self.ist, self.fst,
            self.r_arr, self.r_cart, self.r_svc, self.r_next, self.r_flag,
            self.o_resp, self.o_wait, self.o_mount, self.o_drive,
            self.d_state, self.d_cart, self.d_since, self.d_target, self.d_iprev, self.d_inext,
            self.tree, self.ev, self.empty, self.rfree,
            self.c_qhead, self.c_qtail, self.c_qcount, self.c_drive, self.c_avail, self.c_bstate, self.c_bdead,
            self.c_waiter,
            self.heap, self.b_cart, self.b_dead, self.hours, self.hists, float(horizon), close,
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
        a = avail % self.cap
        b = min(m, self.cap - a)  # the part before the ring wraps round, then the rest from slot 0
        for ring, new in ((self.r_arr, arr), (self.r_cart, cart), (self.r_svc, svc)):
            ring[a : a + b] = new[:b]
            ring[: m - b] = new[b:]
        self._run_to(avail + m, float(arr[-1]))

    def take(self, arr: np.ndarray, cart: np.ndarray, svc: np.ndarray) -> None:
        """Every request of an in-memory replay at once (a ring of exactly their number): run up to the last.

        The arrays become the ring's (the event loop only reads them): not copied, and not
        to be changed while the engine runs.
        """
        m = arr.size
        if m == 0:
            return
        if self.cap != m or self.ist[self.k.I_AVAIL] != 0:
            raise ValueError(f"take() wants a fresh engine of {m} slots; use feed() for chunks")
        self._carts(int(cart.max()) + 1)
        self.r_arr = np.ascontiguousarray(arr, dtype=np.float64)
        self.r_cart = np.ascontiguousarray(cart, dtype=np.int64)
        self.r_svc = np.ascontiguousarray(svc, dtype=np.float64)
        self._run_to(m, float(arr[-1]))

    def _run_to(self, avail: int, last: float) -> None:
        self.ist[self.k.I_AVAIL] = avail
        self.last_arrival = last
        self._hours_to(last)
        self._run(last)

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
        """Per-request response, wait, mount flag and drive of requests 0..n-1 (a ring of n): views."""
        return self.o_resp[:n], self.o_wait[:n], self.o_mount[:n].view(np.bool_), self.o_drive[:n]

    @property
    def end(self) -> float:
        """Time of the last event. [s]"""
        return float(self.fst[self.k.F_LAST])

    def finish(self) -> None:
        """Close the drives' open states (idle and busy time) at the last event."""
        self._run(self.end, close=True)
