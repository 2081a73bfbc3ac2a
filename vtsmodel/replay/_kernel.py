"""The event loop behind :mod:`vtsmodel.replay` (private).

Plain Python over numpy arrays; compiled with numba when numba is installed (the ``hits``
extra), else run as it is (the same results, about 100 times slower). Imported only when a
replay runs, so ``import vtsmodel`` does not import numba.

All state lives in arrays the caller owns, so a replay can be fed in chunks (a log larger
than memory) and resumed: the requests are a ring of ``cap`` slots indexed by the global
request number modulo ``cap``; per-request outputs go to the same slots.

Events, in time order (at equal times: drive events, then batch deadlines, then arrivals):

- an arrival joins its cartridge's queue; if the cartridge sits mounted and idle in a drive
  it is served there at once, else the cartridge waits for a mount (or for its batch);
- a drive that finishes a request serves the next queued request for its cartridge
  (policy ``group``, or ``fifo`` when that request is the oldest waiting), else unloads and
  mounts the cartridge of the oldest waiting request, else stays mounted and idle for the
  dismount delay; a mount takes an empty drive, else the drive whose unload ends first, else
  the idle drive idle longest (it unloads first);
- a mount is a robot move (slot to drive, on the robot free first, not before the cartridge
  is back in its slot) then the drive's load; an unload is the drive's rewind and unload,
  then a robot move back, when the unload ends (the drive is free then); a cartridge another
  drive waits for is carried to it straight from the drive that unloaded it (one move).
"""

from __future__ import annotations

import numpy as np

try:  # numba is optional (the ``hits`` extra)
    import numba

    _jit = numba.njit(cache=True, nogil=True)
    COMPILED = True
except ImportError:  # pragma: no cover - exercised by a subprocess test

    def _jit(f):
        return f

    COMPILED = False

INF = np.inf

# drive states
EMPTY, LOADING, SERVING, UNLOADING, IDLE = 0, 1, 2, 3, 4
# policies
FIFO, GROUP = 0, 1

# int state (ist)
I_NEXT, I_AVAIL, I_EMPTYN, I_HEAPN, I_IDLEH, I_IDLET, I_BHEAD, I_BTAIL = 0, 1, 2, 3, 4, 5, 6, 7
I_WAITING, I_MOUNTS, I_MOVES, I_SERVED, I_LO, I_MAXWAITING, I_FREEING = 8, 9, 10, 11, 12, 13, 14
N_IST = 15
# float state (fst)
F_BUSY, F_HELD, F_ROBOT, F_RESP, F_WAIT, F_LAST = 0, 1, 2, 3, 4, 5
N_FST = 6
# parameters (par)
P_MOVE, P_LOAD, P_UNLOAD, P_DELAY, P_BWAIT, P_T0, P_HIST_LO, P_HIST_PER = 0, 1, 2, 3, 4, 5, 6, 7
N_PAR = 8
# int parameters (ipar)
Q_POLICY, Q_BATCH, Q_CAP, Q_DRIVES, Q_ROBOTS, Q_HIST = 0, 1, 2, 3, 4, 5
N_IPAR = 6

HOUR = 3600.0
PER_HOUR = 1.0 / HOUR


@_jit
def _spread(h, t0, a, b, w):
    """Add ``w`` times the part of [a, b) in each hour to the hourly bins ``h``."""
    if b <= a:
        return
    last = h.shape[0] - 1
    x = (a - t0) * PER_HOUR
    y = (b - t0) * PER_HOUR
    i = int(x)
    j = int(y)
    if i == j and j <= last:  # within one hour: the usual case
        h[i] += (b - a) * w
        return
    i = min(i, last)
    j = min(j, last)
    if i == j:
        h[i] += (b - a) * w
        return
    h[i] += ((i + 1) - x) * HOUR * w
    for k in range(i + 1, j):
        h[k] += HOUR * w
    h[j] += (y - j) * HOUR * w


@_jit
def _hour(t, t0, nh):
    return min(int((t - t0) * PER_HOUR), nh - 1)


@_jit
def _slot(i, cap):
    """The ring slot of request ``i`` (no division while the ring holds every request)."""
    return i if i < cap else i % cap


@_jit
def _tree_set(tree, ev, npow, d, t):
    ev[d] = t
    node = (npow + d) >> 1
    while node >= 1:
        a = tree[2 * node]
        b = tree[2 * node + 1]
        tree[node] = a if ev[a] <= ev[b] else b
        node >>= 1


@_jit
def _heap_push(heap, ist, key):
    n = ist[I_HEAPN]
    heap[n] = key
    ist[I_HEAPN] = n + 1
    while n > 0:
        p = (n - 1) >> 1
        if heap[p] <= heap[n]:
            break
        heap[p], heap[n] = heap[n], heap[p]
        n = p


@_jit
def _heap_pop(heap, ist):
    n = ist[I_HEAPN] - 1
    top = heap[0]
    heap[0] = heap[n]
    ist[I_HEAPN] = n
    i = 0
    while True:
        a = 2 * i + 1
        if a >= n:
            break
        b = a + 1
        m = b if (b < n and heap[b] < heap[a]) else a
        if heap[i] <= heap[m]:
            break
        heap[i], heap[m] = heap[m], heap[i]
        i = m
    return top


@_jit
def _robot(rfree, start, move, fst):
    """A robot move starting no earlier than ``start`` on the robot free first; its end."""
    k = 0
    for j in range(1, rfree.shape[0]):
        if rfree[j] < rfree[k]:
            k = j
    s = start if start > rfree[k] else rfree[k]
    rfree[k] = s + move
    fst[F_ROBOT] += move
    return s + move


@_jit
def _set_state(d, st, now, d_state, d_since, fst, h_busy, h_held, t0):
    """Drive ``d`` enters state ``st`` at ``now``.

    Its time goes to busy (moving, loading, serving, unloading) or held (idle with a
    cartridge) by periods: a period ends where the drive turns idle, empty or busy again,
    and is spread over the hours then (one spread a period, not one a state).
    """
    old = d_state[d]
    d_state[d] = st
    if old == IDLE:
        fst[F_HELD] += now - d_since[d]
        _spread(h_held, t0, d_since[d], now, 1.0)
    elif old != EMPTY:
        if st != EMPTY and st != IDLE:
            return  # still busy: the period goes on
        fst[F_BUSY] += now - d_since[d]
        _spread(h_busy, t0, d_since[d], now, 1.0)
    d_since[d] = now


@_jit
def _waiting(ist, delta):
    ist[I_WAITING] += delta
    if ist[I_WAITING] > ist[I_MAXWAITING]:
        ist[I_MAXWAITING] = ist[I_WAITING]


@_jit
def _hist_add(hist, lo, per, x):
    if x <= 0.0:
        hist[0] += 1
        return
    k = int((np.log10(x) - lo) * per) + 1
    if k < 1:
        k = 1
    elif k >= hist.shape[0]:
        k = hist.shape[0] - 1
    hist[k] += 1


@_jit
def run(
    par, ipar, ist, fst,
    r_arr, r_cart, r_svc, r_next, r_flag, o_done, o_wait, o_mount, o_drive,
    d_state, d_cart, d_since, d_target, d_iprev, d_inext, tree, ev, empty, rfree,
    c_qhead, c_qtail, c_qcount, c_drive, c_avail, c_bstate, c_bdead, c_waiter,
    heap, b_cart, b_dead, h_mounts, h_busy, h_held, h_queue, h_arrivals, hist_resp, hist_wait,
    horizon,
):  # fmt: skip
    """Process every event up to ``horizon``; return 1 when none is left, else 0."""
    move = par[P_MOVE]
    load = par[P_LOAD]
    delay = par[P_DELAY]
    bwait = par[P_BWAIT]
    t0 = par[P_T0]
    hlo = par[P_HIST_LO]
    hper = par[P_HIST_PER]
    policy = ipar[Q_POLICY]
    kbatch = ipar[Q_BATCH]
    cap = ipar[Q_CAP]
    hist = ipar[Q_HIST] == 1
    npow = tree.shape[0] // 2
    nh = h_mounts.shape[0]
    batching = kbatch > 1 and bwait > 0.0
    while True:
        dd = tree[1]
        td = ev[dd]
        tb = INF
        if ist[I_BHEAD] < ist[I_BTAIL]:
            tb = b_dead[_slot(ist[I_BHEAD], cap)]
        ta = INF
        i = ist[I_NEXT]
        if i < ist[I_AVAIL]:
            ta = r_arr[_slot(i, cap)]
        now = td
        if tb < now:
            now = tb
        if ta < now:
            now = ta
        if now == INF:
            return 1
        if now > horizon:
            return 0
        fst[F_LAST] = now
        # -- one event: what happens, then what each drive or cartridge does next ----------
        serve_d = -1  # a drive to start on the head of its cartridge's queue
        mounted = 0
        decide_d = -1  # a drive that finished a request
        if td <= tb and td <= ta:
            st = d_state[dd]
            if st == LOADING:
                serve_d = dd
                mounted = 1
            elif st == SERVING:
                decide_d = dd
            elif st == UNLOADING:
                c = d_cart[dd]
                e = _robot(rfree, now, move, fst)  # the cartridge leaves the drive
                ist[I_MOVES] += 1
                w = c_waiter[c]
                if w >= 0:  # another drive waits for it: the robot takes it there
                    c_waiter[c] = -1
                    _tree_set(tree, ev, npow, w, e + load)
                else:
                    c_avail[c] = e
                c2 = d_target[dd]
                d_target[dd] = -1
                if c2 < 0:
                    ist[I_FREEING] -= 1
                if c2 >= 0:  # fetch the cartridge it was unloaded for
                    _fetch(dd, c2, now, par, ist, fst, d_state, d_cart, d_since, tree, ev, npow, rfree,
                           c_drive, c_avail, c_waiter, h_mounts, h_busy, h_held)  # fmt: skip
                else:
                    _set_state(dd, EMPTY, now, d_state, d_since, fst, h_busy, h_held, t0)
                    d_cart[dd] = -1
                    empty[ist[I_EMPTYN]] = dd
                    ist[I_EMPTYN] += 1
                    _tree_set(tree, ev, npow, dd, INF)
            else:  # IDLE: the dismount delay ran out
                _idle_remove(dd, ist, d_iprev, d_inext)
                _unload(dd, -1, now, par, ist, fst, d_state, d_cart, d_since, d_target, tree, ev, npow,
                        rfree, c_drive, c_avail, h_busy, h_held)  # fmt: skip
        elif tb <= ta:
            j = _slot(ist[I_BHEAD], cap)
            ist[I_BHEAD] += 1
            c = b_cart[j]
            if c_bstate[c] == 1 and c_bdead[c] == b_dead[j]:
                c_bstate[c] = 2
                _heap_push(heap, ist, c_qhead[c])
        else:
            r = _slot(i, cap)
            ist[I_NEXT] = i + 1
            c = r_cart[r]
            h_arrivals[_hour(now, t0, nh)] += 1.0
            _waiting(ist, 1)
            r_next[r] = -1
            if c_qcount[c] == 0:
                c_qhead[c] = i
            else:
                r_next[_slot(c_qtail[c], cap)] = i
            c_qtail[c] = i
            c_qcount[c] += 1
            d = c_drive[c]
            if d >= 0:
                if d_state[d] == IDLE:
                    _idle_remove(d, ist, d_iprev, d_inext)
                    serve_d = d
            elif c_qcount[c] == 1:
                if batching:
                    c_bstate[c] = 1
                    c_bdead[c] = now + bwait
                    j = _slot(ist[I_BTAIL], cap)
                    b_cart[j] = c
                    b_dead[j] = now + bwait
                    ist[I_BTAIL] += 1
                else:
                    c_bstate[c] = 2
                    _heap_push(heap, ist, i)
            elif c_bstate[c] == 1 and c_qcount[c] >= kbatch:
                c_bstate[c] = 2
                _heap_push(heap, ist, c_qhead[c])
        if decide_d >= 0:
            d = decide_d
            c = d_cart[d]
            if c_qcount[c] > 0 and (policy == GROUP or ist[I_HEAPN] == 0 or c_qhead[c] < heap[0]):
                serve_d = d
            elif ist[I_HEAPN] > 0:
                if c_qcount[c] > 0:  # FIFO: older requests elsewhere; the cartridge waits again
                    c_bstate[c] = 2
                    _heap_push(heap, ist, c_qhead[c])
                key = _heap_pop(heap, ist)
                c2 = r_cart[_slot(key, cap)]
                c_bstate[c2] = 0
                _unload(d, c2, now, par, ist, fst, d_state, d_cart, d_since, d_target, tree, ev, npow,
                        rfree, c_drive, c_avail, h_busy, h_held)  # fmt: skip
            elif delay <= 0.0:
                _unload(d, -1, now, par, ist, fst, d_state, d_cart, d_since, d_target, tree, ev, npow,
                        rfree, c_drive, c_avail, h_busy, h_held)  # fmt: skip
            else:
                _set_state(d, IDLE, now, d_state, d_since, fst, h_busy, h_held, t0)
                _tree_set(tree, ev, npow, d, now + delay)
                # append to the idle list (longest idle at its head)
                d_inext[d] = -1
                d_iprev[d] = ist[I_IDLET]
                if ist[I_IDLET] >= 0:
                    d_inext[ist[I_IDLET]] = d
                else:
                    ist[I_IDLEH] = d
                ist[I_IDLET] = d
        if serve_d >= 0:
            d = serve_d
            c = d_cart[d]
            i = c_qhead[c]
            r = _slot(i, cap)
            c_qcount[c] -= 1
            c_qhead[c] = r_next[r]
            _waiting(ist, -1)
            _spread(h_queue, t0, r_arr[r], now, 1.0)  # its time waiting, hour by hour
            _set_state(d, SERVING, now, d_state, d_since, fst, h_busy, h_held, t0)
            done = now + r_svc[r]
            own = r_svc[r] + (move + load) * mounted
            w = done - r_arr[r] - own
            if w < 0.0:
                w = 0.0
            o_done[r] = done
            o_wait[r] = w
            o_mount[r] = mounted
            o_drive[r] = d
            r_flag[r] = 1
            ist[I_SERVED] += 1
            fst[F_RESP] += done - r_arr[r]
            fst[F_WAIT] += w
            if hist:
                _hist_add(hist_resp, hlo, hper, done - r_arr[r])
                _hist_add(hist_wait, hlo, hper, w)
            _tree_set(tree, ev, npow, d, done)
            lo = ist[I_LO]
            while lo < ist[I_NEXT] and r_flag[_slot(lo, cap)] == 1:
                r_flag[_slot(lo, cap)] = 0
                lo += 1
            ist[I_LO] = lo
        # -- mounts for waiting cartridges, on empty drives first, then idle ones -----------
        while ist[I_HEAPN] > 0:
            if ist[I_EMPTYN] > 0:
                ist[I_EMPTYN] -= 1
                d = empty[ist[I_EMPTYN]]
                key = _heap_pop(heap, ist)
                c2 = r_cart[_slot(key, cap)]
                c_bstate[c2] = 0
                _fetch(d, c2, now, par, ist, fst, d_state, d_cart, d_since, tree, ev, npow, rfree,
                       c_drive, c_avail, c_waiter, h_mounts, h_busy, h_held)  # fmt: skip
            elif ist[I_FREEING] > 0:  # a drive unloading for nothing: the one free first
                d = -1
                for j in range(d_state.shape[0]):
                    if d_state[j] == UNLOADING and d_target[j] < 0 and (d < 0 or ev[j] < ev[d]):
                        d = j
                key = _heap_pop(heap, ist)
                c2 = r_cart[_slot(key, cap)]
                c_bstate[c2] = 0
                d_target[d] = c2
                ist[I_FREEING] -= 1
            elif ist[I_IDLEH] >= 0:
                d = ist[I_IDLEH]
                _idle_remove(d, ist, d_iprev, d_inext)
                key = _heap_pop(heap, ist)
                c2 = r_cart[_slot(key, cap)]
                c_bstate[c2] = 0
                _unload(d, c2, now, par, ist, fst, d_state, d_cart, d_since, d_target, tree, ev, npow,
                        rfree, c_drive, c_avail, h_busy, h_held)  # fmt: skip
            else:
                break


@_jit
def _idle_remove(d, ist, d_iprev, d_inext):
    p = d_iprev[d]
    n = d_inext[d]
    if p >= 0:
        d_inext[p] = n
    else:
        ist[I_IDLEH] = n
    if n >= 0:
        d_iprev[n] = p
    else:
        ist[I_IDLET] = p
    d_iprev[d] = -1
    d_inext[d] = -1


@_jit
def _unload(d, target, now, par, ist, fst, d_state, d_cart, d_since, d_target, tree, ev, npow,
            rfree, c_drive, c_avail, h_busy, h_held):  # fmt: skip
    """Drive ``d`` rewinds and unloads its cartridge (then mounts ``target`` if >= 0)."""
    c = d_cart[d]
    _set_state(d, UNLOADING, now, d_state, d_since, fst, h_busy, h_held, par[P_T0])
    c_drive[c] = -1
    c_avail[c] = INF  # in the drive until the unload ends
    d_target[d] = target
    if target < 0:
        ist[I_FREEING] += 1
    _tree_set(tree, ev, npow, d, now + par[P_UNLOAD])


@_jit
def _fetch(d, c, now, par, ist, fst, d_state, d_cart, d_since, tree, ev, npow, rfree,
           c_drive, c_avail, c_waiter, h_mounts, h_busy, h_held):  # fmt: skip
    """Drive ``d`` (empty) mounts cartridge ``c``: a robot move, then the load."""
    t0 = par[P_T0]
    _set_state(d, LOADING, now, d_state, d_since, fst, h_busy, h_held, t0)
    d_cart[d] = c
    c_drive[c] = d
    ist[I_MOUNTS] += 1
    h_mounts[_hour(now, t0, h_mounts.shape[0])] += 1.0
    if c_avail[c] == INF:  # still being unloaded elsewhere: brought over when it is out
        c_waiter[c] = d
        _tree_set(tree, ev, npow, d, INF)
        return
    s0 = now if now > c_avail[c] else c_avail[c]
    ist[I_MOVES] += 1
    _tree_set(tree, ev, npow, d, _robot(rfree, s0, par[P_MOVE], fst) + par[P_LOAD])


@_jit
def lru_hits(obj, size_b, counted, hit, prev, nxt, osize, incache, st, capacity):
    """LRU cache of ``capacity`` bytes: ``hit[i]`` for each request (objects by code).

    A request for a cached object is a hit and makes it the most recent at its new size;
    a miss inserts it; the least recent objects leave until the cache fits. An object larger
    than the cache is not kept. ``st`` = [head (most recent), tail, bytes held]. Only
    requests with ``counted[i]`` read the cache's answer; all of them update it.
    """
    head = st[0]
    tail = st[1]
    used = st[2]
    for i in range(obj.shape[0]):
        o = obj[i]
        s = size_b[i]
        h = incache[o] == 1
        hit[i] = h and counted[i]
        if h:  # take it out; it goes back in at the head below
            used -= osize[o]
            p = prev[o]
            n = nxt[o]
            if p >= 0:
                nxt[p] = n
            else:
                head = n
            if n >= 0:
                prev[n] = p
            else:
                tail = p
            incache[o] = 0
        if s > capacity:
            continue
        osize[o] = s
        incache[o] = 1
        prev[o] = -1
        nxt[o] = head
        if head >= 0:
            prev[head] = o
        else:
            tail = o
        head = o
        used += s
        while used > capacity:
            v = tail
            used -= osize[v]
            incache[v] = 0
            tail = prev[v]
            if tail >= 0:
                nxt[tail] = -1
            else:
                head = -1
    st[0] = head
    st[1] = tail
    st[2] = used
