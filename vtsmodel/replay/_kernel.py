"""The event loop behind :mod:`vtsmodel.replay` (private).

Plain Python over numpy arrays; compiled with numba when numba is installed (the ``hits``
extra), else run as it is (the same results, about 60 times slower). Imported only when a
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

from vtsmodel._jit import COMPILED  # noqa: F401 - read by callers and tests
from vtsmodel._jit import jit as _jit

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
Q_POLICY, Q_BATCH, Q_CAP, Q_DRIVES, Q_ROBOTS, Q_HIST, Q_SCAN = 0, 1, 2, 3, 4, 5, 6
N_IPAR = 7
# rows of the hourly bins (hours) and of the histograms (hists)
H_MOUNTS, H_BUSY, H_HELD, H_QUEUE, H_ARRIVALS = 0, 1, 2, 3, 4
N_HOURS = 5
HIST_RESP, HIST_WAIT = 0, 1

HOUR = 3600.0
PER_HOUR = 1.0 / HOUR


@_jit
def run(
    par, ipar, ist, fst,
    r_arr, r_cart, r_svc, r_next, r_flag, o_resp, o_wait, o_mount, o_drive,
    d_state, d_cart, d_since, d_target, d_iprev, d_inext, tree, ev, empty, rfree,
    c_qhead, c_qtail, c_qcount, c_drive, c_avail, c_bstate, c_bdead, c_waiter,
    heap, b_cart, b_dead, hours, hists, horizon, close,
):  # fmt: skip
    """Process every event up to ``horizon``; return 1 when none is left, else 0.

    With ``close`` set, process none: close the drives' open periods (busy or held) at the
    last event instead, and leave every drive empty.

    The helpers are closures over the arrays (compiled into the loop, with no reference
    counting of the arrays they touch, which cost half the time as functions), and the
    counters of ``ist`` and ``fst`` are local variables while the loop runs (written back
    when it returns).
    """
    move = par[P_MOVE]
    load = par[P_LOAD]
    unload = par[P_UNLOAD]
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
    nh = hours.shape[1]
    nbins = hists.shape[1]
    batching = kbatch > 1 and bwait > 0.0
    nd = d_state.shape[0]
    scan = ipar[Q_SCAN] == 1  # few drives: the first event found by a scan, no tree kept

    def slot(i):
        """The ring slot of request ``i`` (no division while the ring holds every request)."""
        return i if i < cap else i % cap

    def hour(t):
        return min(int((t - t0) * PER_HOUR), nh - 1)

    def spread(k, a, b):
        """Add the part of [a, b) in each hour to the hourly bins of row ``k``."""
        if b <= a:
            return
        last = nh - 1
        x = (a - t0) * PER_HOUR
        y = (b - t0) * PER_HOUR
        i = int(x)
        j = int(y)
        if i == j and j <= last:  # within one hour: the usual case
            hours[k, i] += b - a
            return
        i = min(i, last)
        j = min(j, last)
        if i == j:
            hours[k, i] += b - a
            return
        hours[k, i] += ((i + 1) - x) * HOUR
        for m in range(i + 1, j):
            hours[k, m] += HOUR
        hours[k, j] += (y - j) * HOUR

    def hist_add(k, x):
        if x <= 0.0:
            hists[k, 0] += 1
            return
        b = int((np.log10(x) - hlo) * hper) + 1
        if b < 1:
            b = 1
        elif b >= nbins:
            b = nbins - 1
        hists[k, b] += 1

    def tree_set(d, t):
        """Drive ``d``'s next event at ``t``; the tournament tree keeps the first on top."""
        ev[d] = t
        if scan:
            return
        node = (npow + d) >> 1
        while node >= 1:
            a = tree[2 * node]
            b = tree[2 * node + 1]
            tree[node] = a if ev[a] <= ev[b] else b
            node >>= 1

    def heap_push(n, key):
        """Push ``key`` on the heap of ``n`` waiting cartridges' oldest requests; the new count."""
        heap[n] = key
        i = n
        while i > 0:
            p = (i - 1) >> 1
            if heap[p] <= heap[i]:
                break
            heap[p], heap[i] = heap[i], heap[p]
            i = p
        return n + 1

    def heap_pop(n):
        """Pop the least of the ``n`` keys; ``(key, new count)``."""
        n -= 1
        top = heap[0]
        heap[0] = heap[n]
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
        return top, n

    def robot(start):
        """A robot move starting no earlier than ``start`` on the robot free first; its end."""
        k = 0
        for j in range(1, rfree.shape[0]):
            if rfree[j] < rfree[k]:
                k = j
        s = start if start > rfree[k] else rfree[k]
        rfree[k] = s + move
        return s + move

    def set_state(d, st, now):
        """Drive ``d`` enters state ``st`` at ``now``.

        Its time goes to busy (moving, loading, serving, unloading) or held (idle with a
        cartridge) by periods: a period ends where the drive turns idle, empty or busy again,
        and is spread over the hours then (one spread a period, not one a state).
        """
        old = d_state[d]
        d_state[d] = st
        if old == IDLE:
            fst[F_HELD] += now - d_since[d]
            spread(H_HELD, d_since[d], now)
        elif old != EMPTY:
            if st != EMPTY and st != IDLE:
                return  # still busy: the period goes on
            fst[F_BUSY] += now - d_since[d]
            spread(H_BUSY, d_since[d], now)
        d_since[d] = now

    def idle_remove(d, idleh, idlet):
        """Take drive ``d`` off the idle list; the list's new head and tail."""
        p = d_iprev[d]
        n = d_inext[d]
        if p >= 0:
            d_inext[p] = n
        else:
            idleh = n
        if n >= 0:
            d_iprev[n] = p
        else:
            idlet = p
        d_iprev[d] = -1
        d_inext[d] = -1
        return idleh, idlet

    def unload_drive(d, target, now):
        """Drive ``d`` rewinds and unloads its cartridge (then mounts ``target`` if >= 0)."""
        c = d_cart[d]
        set_state(d, UNLOADING, now)
        c_drive[c] = -1
        c_avail[c] = INF  # in the drive until the unload ends
        d_target[d] = target
        tree_set(d, now + unload)

    def fetch(d, c, now):
        """Drive ``d`` (empty) mounts cartridge ``c``: a robot move, then the load; 1 if the robot moved now."""
        set_state(d, LOADING, now)
        d_cart[d] = c
        c_drive[c] = d
        hours[H_MOUNTS, hour(now)] += 1.0
        if c_avail[c] == INF:  # still being unloaded elsewhere: brought over when it is out
            c_waiter[c] = d
            tree_set(d, INF)
            return 0
        s0 = now if now > c_avail[c] else c_avail[c]
        tree_set(d, robot(s0) + load)
        return 1

    f_last = fst[F_LAST]
    if close:
        for d in range(d_state.shape[0]):
            set_state(d, EMPTY, f_last)
        return 1
    nxt = ist[I_NEXT]
    avail = ist[I_AVAIL]
    emptyn = ist[I_EMPTYN]
    heapn = ist[I_HEAPN]
    idleh = ist[I_IDLEH]
    idlet = ist[I_IDLET]
    bhead = ist[I_BHEAD]
    btail = ist[I_BTAIL]
    waiting = ist[I_WAITING]
    mounts = ist[I_MOUNTS]
    moves = ist[I_MOVES]
    served = ist[I_SERVED]
    lo = ist[I_LO]
    maxwaiting = ist[I_MAXWAITING]
    freeing = ist[I_FREEING]
    f_robot = fst[F_ROBOT]
    f_resp = fst[F_RESP]
    f_wait = fst[F_WAIT]
    done_all = 0
    while True:
        if scan:  # the first of the drives' next events, the lowest drive on a tie (as the tree)
            dd = 0
            td = ev[0]
            for j in range(1, nd):
                if ev[j] < td:
                    td = ev[j]
                    dd = j
        else:
            dd = tree[1]
            td = ev[dd]
        tb = INF
        if bhead < btail:
            tb = b_dead[slot(bhead)]
        ta = INF
        if nxt < avail:
            ta = r_arr[slot(nxt)]
        now = td
        if tb < now:
            now = tb
        if ta < now:
            now = ta
        if now == INF:
            done_all = 1
            break
        if now > horizon:
            break
        f_last = now
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
                e = robot(now)  # the cartridge leaves the drive
                f_robot += move
                moves += 1
                w = c_waiter[c]
                if w >= 0:  # another drive waits for it: the robot takes it there
                    c_waiter[c] = -1
                    tree_set(w, e + load)
                else:
                    c_avail[c] = e
                c2 = d_target[dd]
                d_target[dd] = -1
                if c2 >= 0:  # fetch the cartridge it was unloaded for
                    mounts += 1
                    if fetch(dd, c2, now):
                        moves += 1
                        f_robot += move
                else:
                    freeing -= 1
                    set_state(dd, EMPTY, now)
                    d_cart[dd] = -1
                    empty[emptyn] = dd
                    emptyn += 1
                    tree_set(dd, INF)
            else:  # IDLE: the dismount delay ran out
                idleh, idlet = idle_remove(dd, idleh, idlet)
                unload_drive(dd, -1, now)
                freeing += 1
        elif tb <= ta:
            j = slot(bhead)
            bhead += 1
            c = b_cart[j]
            if c_bstate[c] == 1 and c_bdead[c] == b_dead[j]:
                c_bstate[c] = 2
                heapn = heap_push(heapn, c_qhead[c])
        else:
            i = nxt
            r = slot(i)
            nxt = i + 1
            c = r_cart[r]
            hours[H_ARRIVALS, hour(now)] += 1.0
            waiting += 1
            if waiting > maxwaiting:
                maxwaiting = waiting
            r_next[r] = -1
            if c_qcount[c] == 0:
                c_qhead[c] = i
            else:
                r_next[slot(c_qtail[c])] = i
            c_qtail[c] = i
            c_qcount[c] += 1
            d = c_drive[c]
            if d >= 0:
                if d_state[d] == IDLE:
                    idleh, idlet = idle_remove(d, idleh, idlet)
                    serve_d = d
            elif c_qcount[c] == 1:
                if batching:
                    c_bstate[c] = 1
                    c_bdead[c] = now + bwait
                    j = slot(btail)
                    b_cart[j] = c
                    b_dead[j] = now + bwait
                    btail += 1
                else:
                    c_bstate[c] = 2
                    heapn = heap_push(heapn, i)
            elif c_bstate[c] == 1 and c_qcount[c] >= kbatch:
                c_bstate[c] = 2
                heapn = heap_push(heapn, c_qhead[c])
        if decide_d >= 0:
            d = decide_d
            c = d_cart[d]
            if c_qcount[c] > 0 and (policy == GROUP or heapn == 0 or c_qhead[c] < heap[0]):
                serve_d = d
            elif heapn > 0:
                if c_qcount[c] > 0:  # FIFO: older requests elsewhere; the cartridge waits again
                    c_bstate[c] = 2
                    heapn = heap_push(heapn, c_qhead[c])
                key, heapn = heap_pop(heapn)
                c2 = r_cart[slot(key)]
                c_bstate[c2] = 0
                unload_drive(d, c2, now)
            elif delay <= 0.0:
                unload_drive(d, -1, now)
                freeing += 1
            else:
                set_state(d, IDLE, now)
                tree_set(d, now + delay)
                # append to the idle list (longest idle at its head)
                d_inext[d] = -1
                d_iprev[d] = idlet
                if idlet >= 0:
                    d_inext[idlet] = d
                else:
                    idleh = d
                idlet = d
        if serve_d >= 0:
            d = serve_d
            c = d_cart[d]
            i = c_qhead[c]
            r = slot(i)
            c_qcount[c] -= 1
            c_qhead[c] = r_next[r]
            waiting -= 1
            a = r_arr[r]
            spread(H_QUEUE, a, now)  # its time waiting, hour by hour
            set_state(d, SERVING, now)
            s = r_svc[r]
            done = now + s
            own = s + (move + load) * mounted
            w = done - a - own
            if w < 0.0:
                w = 0.0
            o_resp[r] = done - a
            o_wait[r] = w
            o_mount[r] = mounted
            o_drive[r] = d
            r_flag[r] = 1
            served += 1
            f_resp += done - a
            f_wait += w
            if hist:
                hist_add(HIST_RESP, done - a)
                hist_add(HIST_WAIT, w)
            tree_set(d, done)
            while lo < nxt and r_flag[slot(lo)] == 1:
                r_flag[slot(lo)] = 0
                lo += 1
        # -- mounts for waiting cartridges, on empty drives first, then idle ones -----------
        while heapn > 0:
            if emptyn > 0:
                emptyn -= 1
                d = empty[emptyn]
                key, heapn = heap_pop(heapn)
                c2 = r_cart[slot(key)]
                c_bstate[c2] = 0
                mounts += 1
                if fetch(d, c2, now):
                    moves += 1
                    f_robot += move
            elif freeing > 0:  # a drive unloading for nothing: the one free first
                d = -1
                for j in range(d_state.shape[0]):
                    if d_state[j] == UNLOADING and d_target[j] < 0 and (d < 0 or ev[j] < ev[d]):
                        d = j
                key, heapn = heap_pop(heapn)
                c2 = r_cart[slot(key)]
                c_bstate[c2] = 0
                d_target[d] = c2
                freeing -= 1
            elif idleh >= 0:
                d = idleh
                idleh, idlet = idle_remove(d, idleh, idlet)
                key, heapn = heap_pop(heapn)
                c2 = r_cart[slot(key)]
                c_bstate[c2] = 0
                unload_drive(d, c2, now)
            else:
                break
    ist[I_NEXT] = nxt
    ist[I_EMPTYN] = emptyn
    ist[I_HEAPN] = heapn
    ist[I_IDLEH] = idleh
    ist[I_IDLET] = idlet
    ist[I_BHEAD] = bhead
    ist[I_BTAIL] = btail
    ist[I_WAITING] = waiting
    ist[I_MOUNTS] = mounts
    ist[I_MOVES] = moves
    ist[I_SERVED] = served
    ist[I_LO] = lo
    ist[I_MAXWAITING] = maxwaiting
    ist[I_FREEING] = freeing
    fst[F_ROBOT] = f_robot
    fst[F_RESP] = f_resp
    fst[F_WAIT] = f_wait
    fst[F_LAST] = f_last
    return done_all


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
