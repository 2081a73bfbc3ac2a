"""The one-pass LRU kernels behind :mod:`vtsmodel.hits` (private).

Plain Python over numpy arrays; compiled with numba when numba is installed (the ``hits``
extra), else run as they are (the same results, about 100 times slower). Imported only
when a hit curve is computed, so ``import vtsmodel`` does not import numba.

The structure: one leaf per *slot*, a slot being the last access of a live volume, in
time order. Leaf ``t`` holds ``W(t)``, the bytes of the distinct volumes accessed after
slot ``t`` (each at its current size), and ``M(t)``, the largest ``W(t)`` has been since
slot ``t`` was written. An access of volume ``z`` (old size ``a`` at slot ``p``, new size
``b``) changes every live ``W(t)`` by ``-a`` for ``t < p`` and then by ``+b``. A segment
tree with lazy (add, max-add) tags keeps ``W`` and ``M`` exactly ("historic maximum"):
the ``-a`` is one root-to-leaf walk, the same walk that reads ``M(p)``; the ``+b`` is a
tag on the root, applied to every slot, used or not. A slot not yet used only ever gains
(sizes are >= 0), so its value when it is taken, the running total ``G`` of the ``+b``,
is also its largest so far: the slot records it as its ``base`` and its true ``W`` and
``M`` are the stored ones minus ``base``. The volume at slot ``t`` is still in an LRU
cache of capacity ``C`` iff ``size(t) + M(t) <= C`` (see :mod:`vtsmodel.hits`); so each
access yields its threshold ``size + M`` in one walk. Dead slots are squeezed out when the
slots run out (every ``L/2`` accesses or more), so memory follows the live volumes, not
the log's length, and ``G`` restarts from 0 there.
"""

from __future__ import annotations

import numpy as np

from vtsmodel._jit import COMPILED  # noqa: F401 - read by callers and tests
from vtsmodel._jit import jit as _jit

#: Threshold of a first access (never a hit). [bytes]
INF = np.int64(2**62)


@_jit
def _push(tree, node):
    j = 2 * node
    a = tree[j]
    m = tree[j + 1]
    if a == 0 and m == 0:
        return
    c = 4 * node  # the two children's records, side by side
    v = tree[c] + m
    if v > tree[c + 1]:
        tree[c + 1] = v
    tree[c] += a
    v = tree[c + 2] + m
    if v > tree[c + 3]:
        tree[c + 3] = v
    tree[c + 2] += a
    tree[j] = 0
    tree[j + 1] = 0


@_jit
def _apply(tree, node, x):
    j = 2 * node
    v = tree[j] + x
    tree[j] = v
    if v > tree[j + 1]:
        tree[j + 1] = v


@_jit
def _query_then_sub(tree, nleaves, p, x):
    """M(p), then add x to the slots [0, p): both on the one walk to leaf p."""
    node = 1
    lo = 0
    hi = nleaves
    while hi - lo > 1:
        _push(tree, node)
        mid = (lo + hi) >> 1
        if p < mid:
            node = 2 * node
            hi = mid
        else:
            if x != 0:
                _apply(tree, 2 * node, x)
            node = 2 * node + 1
            lo = mid
    return tree[2 * node + 1]


@_jit
def _compact(tree, nleaves, used, slot_owner, last, base, new_tree, new_nleaves, new_owner, new_base):
    """Move the live slots, in order, to the front of a (possibly larger) tree; bases to 0."""
    for node in range(1, nleaves):
        _push(tree, node)
    live = 0
    for p in range(used):
        if slot_owner[p] >= 0:
            live += 1
    vals = np.empty(live, dtype=np.int64)
    maxs = np.empty(live, dtype=np.int64)
    owners = np.empty(live, dtype=np.int64)
    k = 0
    for p in range(used):
        o = slot_owner[p]
        if o >= 0:
            vals[k] = tree[2 * (nleaves + p)] - base[p]
            maxs[k] = tree[2 * (nleaves + p) + 1] - base[p]
            owners[k] = o
            k += 1
    new_tree[:] = 0
    new_owner[:] = -1
    new_base[:] = 0
    for k in range(live):
        new_tree[2 * (new_nleaves + k)] = vals[k]
        new_tree[2 * (new_nleaves + k) + 1] = maxs[k]
        new_owner[k] = owners[k]
        last[owners[k]] = k
    return live


@_jit
def lru_pass(vol, size, out, last, cur, owner, base, tree, st):
    """Thresholds of the accesses ``vol[i]`` (new size ``size[i]``) into ``out``.

    ``st`` = [next free slot, number of leaves, G]. Returns the index reached: less than
    ``vol.size`` when the slots ran out (the caller compacts or grows, then calls again).
    """
    nleaves = st[1]
    nxt = st[0]
    g = st[2]
    n = vol.shape[0]
    for i in range(n):
        if nxt == nleaves:
            st[0] = nxt
            st[2] = g
            return i
        v = vol[i]
        s = size[i]
        p = last[v]
        if p >= 0:
            a = cur[v]
            out[i] = a + _query_then_sub(tree, nleaves, p, -a) - base[p]
            owner[p] = -1
        else:
            out[i] = INF
        _apply(tree, 1, s)  # + s to every slot
        g += s
        base[nxt] = g
        last[v] = nxt
        cur[v] = s
        owner[nxt] = v
        nxt += 1
    st[0] = nxt
    st[2] = g
    return n


@_jit
def _heap_push(hh, hc, n, h, c):
    i = n
    hh[i] = h
    hc[i] = c
    while i > 0:
        parent = (i - 1) >> 1
        if hh[parent] >= hh[i]:
            break
        t = hh[parent]
        hh[parent] = hh[i]
        hh[i] = t
        t = hc[parent]
        hc[parent] = hc[i]
        hc[i] = t
        i = parent
    return n + 1


@_jit
def _heap_pop(hh, hc, n):
    """Remove the largest hash; returns (hash, code, new size)."""
    h = hh[0]
    c = hc[0]
    n -= 1
    hh[0] = hh[n]
    hc[0] = hc[n]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        big = left
        if left + 1 < n and hh[left + 1] > hh[left]:
            big = left + 1
        if hh[i] >= hh[big]:
            break
        t = hh[i]
        hh[i] = hh[big]
        hh[big] = t
        t = hc[i]
        hc[i] = hc[big]
        hc[big] = t
        i = big
    return h, c, n


@_jit
def _bin(x, b0, log_g, nbins):
    if x <= b0:
        return 0
    k = int(np.ceil(np.log(x / b0) / log_g))
    if k > nbins - 1:
        return nbins - 1
    return k


@_jit
def shards_pass(
    hsh,
    size,
    kind,
    counted,
    table,
    last,
    cur,
    free,
    hh,
    hc,
    owner,
    base,
    tree,
    st,
    fs,
    cnt,
    byt,
    bmin,
):
    """Fixed-size SHARDS over one chunk of accesses.

    ``hsh`` volume hashes in [0, 2**62); ``kind`` 0 none, 1 read, 2 specific write;
    ``table`` hash -> code (a dict); ``st`` = [next slot, leaves, live, threshold T, heap
    size, free codes, s_max, G]; ``fs`` = [b0, log g]. ``cnt[k, b]``,
    ``byt[k, b]`` accumulate weights 1/R (and bytes/R) of counted accesses of kind k+1 by
    distance bin b; the last bin holds distances beyond the grid and first accesses;
    ``bmin[k, b]`` is the smallest distance counted in the bin (where its curve steps up).
    """
    P = 4611686018427387904.0  # 2**62
    nleaves = st[1]
    nbins = cnt.shape[1]
    b0 = fs[0]
    log_g = fs[1]
    for i in range(hsh.shape[0]):
        h = hsh[i]
        if h >= st[3]:
            continue
        rate = st[3] / P
        s = size[i]
        k = kind[i]
        dist = 0.0
        if h in table:
            code = table[h]
            p = last[code]
            a = cur[code]
            thr = a + _query_then_sub(tree, nleaves, p, -a) - base[p]
            owner[p] = -1
            # the volume itself is in the sample: only the others' bytes are scaled by 1/R
            dist = a + (thr - a) / rate
            b = _bin(dist, b0, log_g, nbins)
        else:
            b = nbins - 1
            st[5] -= 1
            code = free[st[5]]
            table[h] = code
            st[4] = _heap_push(hh, hc, st[4], h, code)
            st[2] += 1
        if counted[i] and k > 0:
            w = 1.0 / rate
            cnt[k - 1, b] += w
            byt[k - 1, b] += w * s
            if dist < bmin[k - 1, b]:
                bmin[k - 1, b] = dist
        nxt = st[0]
        _apply(tree, 1, s)
        st[7] += s
        base[nxt] = st[7]
        last[code] = nxt
        cur[code] = s
        owner[nxt] = code
        st[0] = nxt + 1
        if st[2] > st[6]:
            # lower the threshold to the largest sampled hash and drop that volume
            hmax, c, left = _heap_pop(hh, hc, st[4])
            st[4] = left
            st[3] = hmax
            _query_then_sub(tree, nleaves, last[c], -cur[c])
            owner[last[c]] = -1
            del table[hmax]
            free[st[5]] = c
            st[5] += 1
            st[2] -= 1
        if st[0] == nleaves:
            st[0] = _compact(tree, nleaves, nleaves, owner, last, base, tree, nleaves, owner, base)
            st[7] = 0
    return 0
