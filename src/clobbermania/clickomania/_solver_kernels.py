"""Numba search of the exact Clickomania solver (:mod:`clobbermania.clickomania.solver`).

One resumable depth-first branch and bound over settled grids (the engine's layout,
``int8[W, H]``), built on the engine's kernels: groups are found by
:func:`~clobbermania.clickomania._kernels.k_group` and removed by
:func:`~clobbermania.clickomania._kernels.k_remove_marked` (the one click). This module
adds only what is search-specific: the exact table key, the table, move ordering and the
explicit stack.

Search state lives in numpy arrays (level ``d`` of the stack holds the grid, colour counts
and ordered moves of the node at depth ``d``), so :func:`search` can stop after a node
budget and be called again to go on; the Python caller checks the clock between calls.

Why the table is a *visited set* (no values stored): a node is cut when its lower bound on
the blocks that must stay is >= ``min(best, cap)``, where ``best`` (fewest blocks left by
any sequence found) only decreases. Once a node's subtree is exhausted, no sequence through
it leaves fewer than that threshold, which is still a valid cut when the node is met again
later with an equal or smaller threshold. Moves remove blocks, so a node cannot be met
again while it is still on the stack. Losing an entry (replacement) only costs a re-search.

Table keys are exact: the grid packed ``b`` bits a cell (``b`` = bits of the number of
colours + 1), when that fits in 128 bits; otherwise two independent 64-bit Zobrist hashes
(a false match has probability about 2^-128 per pair of states). Both keys are taken up to
the left-right mirror (reversing the order of the columns commutes with clicks, gravity
and closing up, so a board and its mirror have the same answers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._bits import mix64
from ._kernels import k_group, k_moves_with, k_n_columns, k_remove_marked

# indices into the int64 state array ``st``
ST_NODES = 0  # nodes expanded so far (cumulative over calls)
ST_DEPTH = 1  # depth of the node on top of the stack
ST_BEST = 2  # fewest blocks left by a sequence found so far
ST_BEST_LEN = 3  # length of that sequence (best_c / best_h hold it)
ST_TT_USED = 4  # entries in the table
ST_TT_HITS = 5  # nodes skipped because the table held them
ST_CUTS = 6  # children cut by the lower bound
ST_PENDING = 7  # 1 when the node on top has been entered but not yet expanded
ST_CAP = 8  # fixed cut: a node whose bound is >= cap is cut (1 in decision mode)
ST_GOAL = 9  # stop as soon as best <= goal
ST_GROW_AT = 10  # return TABLE_FULL when the table holds this many entries
ST_SIZE = 16

# return status of search()
RUNNING = 0  # node budget spent; call again
EXHAUSTED = 1  # the whole tree is searched: best is optimal under the cut
GOAL = 2  # best <= goal
TABLE_FULL = 3  # the table is more than half full; grow it and call again

# move orderings
ORDER_NATURAL = 0  # the engine's order (column-major)
ORDER_SMALL_FIRST = 1  # smallest groups first
ORDER_LARGE_FIRST = 2  # largest groups first
ORDER_RARE_FIRST = 3  # groups of the colour with the fewest blocks first
ORDER_LOW_FIRST = 4  # groups whose representative is lowest first
ORDER_HIGH_FIRST = 5  # groups whose representative is highest first
ORDER_RIGHT_FIRST = 6  # the engine's order reversed


@njit(cache=True, inline="always")
def _put(k1, k2, v, p, bits):
    """The 128-bit word (k1 low, k2 high) with the ``bits``-bit value v ORed in at bit p."""
    if p < 64:
        k1 |= v << np.uint64(p)
        if p + bits > 64:
            k2 |= v >> np.uint64(64 - p)
    else:
        k2 |= v << np.uint64(p - 64)
    return k1, k2


@njit(cache=True)
def grid_key(grid: np.ndarray, bits: int, za: np.ndarray, zb: np.ndarray):
    """The table key (k1, k2) of a settled grid, the least of it and its mirror image.

    ``bits`` > 0: exact packing, ``bits`` bits a cell (colour + 1, 0 empty), cell (c, h)
    at bit ``(c*H + h)*bits`` of the 128-bit pair; ``bits`` == 0: Zobrist pair (za, zb).
    """
    W, H = grid.shape
    nc = k_n_columns(grid)
    f1 = np.uint64(0)
    f2 = np.uint64(0)
    m1 = np.uint64(0)
    m2 = np.uint64(0)
    for c in range(nc):
        cm = nc - 1 - c
        for h in range(H):
            x = grid[c, h]
            if x < 0:
                break
            if bits > 0:
                v = np.uint64(x + 1)
                f1, f2 = _put(f1, f2, v, (c * H + h) * bits, bits)
                m1, m2 = _put(m1, m2, v, (cm * H + h) * bits, bits)
            else:
                f1 ^= za[c, h, x]
                f2 ^= zb[c, h, x]
                m1 ^= za[cm, h, x]
                m2 ^= zb[cm, h, x]
    if m2 < f2 or (m2 == f2 and m1 < f1):
        return m1, m2
    return f1, f2


@njit(cache=True)
def tt_visit(tk1: np.ndarray, tk2: np.ndarray, k1: np.uint64, k2: np.uint64) -> int:
    """1 when (k1, k2) is in the table, else insert it and return 0 (-1: it replaced an
    entry because its 16 probe slots were full)."""
    mask = np.uint64(tk1.shape[0] - 1)
    i = mix64(k1 ^ mix64(k2)) & mask
    home = i
    for _ in range(16):
        a = tk1[i]
        b = tk2[i]
        if a == k1 and b == k2:
            return 1
        if a == 0 and b == 0:
            tk1[i] = k1
            tk2[i] = k2
            return 0
        i = (i + np.uint64(1)) & mask
    tk1[home] = k1
    tk2[home] = k2
    return -1


@njit(cache=True)
def tt_rehash(tk1: np.ndarray, tk2: np.ndarray, nk1: np.ndarray, nk2: np.ndarray) -> int:
    """Insert every entry of (tk1, tk2) into the larger empty table (nk1, nk2)."""
    n = 0
    for i in range(tk1.shape[0]):
        if tk1[i] != 0 or tk2[i] != 0:
            if tt_visit(nk1, nk2, tk1[i], tk2[i]) == 0:
                n += 1
    return n


@njit(cache=True)
def _expand(d, grids, counts, lbs, mark, sc, sh, mc, mh, msz, mcol, mlb, mkey, order, nm, mi,
            order_mode):
    """List the clickable groups of the node at depth d with their children's bounds,
    ordered: bound first (smaller first), then by the ordering key."""
    grid = grids[d]
    H = grid.shape[1]
    m = k_moves_with(grid, mc[d], mh[d], msz[d], mcol[d], mark, sc, sh)
    for i in range(m):
        c = mc[d, i]
        h = mh[d, i]
        n = msz[d, i]
        x = mcol[d, i]
        left = counts[d, x] - n
        mlb[d, i] = lbs[d] + (1 if left == 1 else 0)
        if order_mode == ORDER_SMALL_FIRST:
            key = n
        elif order_mode == ORDER_LARGE_FIRST:
            key = -n
        elif order_mode == ORDER_RARE_FIRST:
            key = counts[d, x] * 64 + n
        elif order_mode == ORDER_LOW_FIRST:
            key = h * 64 + c
        elif order_mode == ORDER_HIGH_FIRST:
            key = (H - h) * 64 + c
        elif order_mode == ORDER_RIGHT_FIRST:
            key = 10_000 - i
        else:
            key = i
        mkey[d, i] = mlb[d, i] * 1_000_000 + key
    # insertion sort of the indices by key (a handful of moves)
    for i in range(m):
        order[d, i] = i
    for i in range(1, m):
        j = order[d, i]
        k = i - 1
        while k >= 0 and mkey[d, order[d, k]] > mkey[d, j]:
            order[d, k + 1] = order[d, k]
            k -= 1
        order[d, k + 1] = j
    nm[d] = m
    mi[d] = 0


@njit(cache=True)
def search(st, grids, counts, lbs, nblocks, mc, mh, msz, mcol, mlb, mkey, order, nm, mi,
           path_c, path_h, best_c, best_h, tk1, tk2, bits, za, zb, mark, sc, sh,
           order_mode, max_nodes):
    """Run the branch and bound for up to ``max_nodes`` more node expansions.

    The caller sets level 0 (``grids[0]``, ``counts[0]``, ``lbs[0]``, ``nblocks[0]``) and
    ``st`` (depth 0, pending 1, best = blocks on the board, cap, goal, grow_at). Returns RUNNING,
    EXHAUSTED, GOAL or TABLE_FULL.
    """
    limit = st[ST_NODES] + max_nodes
    K = counts.shape[1]
    while True:
        d = st[ST_DEPTH]
        if st[ST_PENDING] == 1:
            if st[ST_NODES] >= limit:
                return RUNNING
            if st[ST_TT_USED] >= st[ST_GROW_AT]:
                return TABLE_FULL
            st[ST_PENDING] = 0
            st[ST_NODES] += 1
            nb = nblocks[d]
            if nb < st[ST_BEST]:
                st[ST_BEST] = nb
                st[ST_BEST_LEN] = d
                for i in range(d):
                    best_c[i] = path_c[i]
                    best_h[i] = path_h[i]
                if nb <= st[ST_GOAL]:
                    return GOAL
            cut = min(st[ST_BEST], st[ST_CAP])
            nm[d] = 0
            mi[d] = 0
            if lbs[d] < cut:
                visited = 0
                if d > 0:
                    k1, k2 = grid_key(grids[d], bits, za, zb)
                    visited = tt_visit(tk1, tk2, k1, k2)
                    if visited == 0:
                        st[ST_TT_USED] += 1
                    elif visited == 1:
                        st[ST_TT_HITS] += 1
                if visited != 1:
                    _expand(d, grids, counts, lbs, mark, sc, sh, mc, mh, msz, mcol, mlb, mkey,
                            order, nm, mi, order_mode)
        if mi[d] >= nm[d]:
            if d == 0:
                return EXHAUSTED
            st[ST_DEPTH] = d - 1
            continue
        j = order[d, mi[d]]
        mi[d] += 1
        cut = min(st[ST_BEST], st[ST_CAP])
        if mlb[d, j] >= cut:
            # children are ordered by bound: every later one is cut too
            st[ST_CUTS] += nm[d] - mi[d] + 1
            mi[d] = nm[d]
            continue
        c = mc[d, j]
        h = mh[d, j]
        g = grids[d + 1]
        g[:, :] = grids[d]
        n = k_group(g, c, h, mark, sc, sh)
        k_remove_marked(g, mark)
        for i in range(n):
            mark[sc[i], sh[i]] = False
        for x in range(K):
            counts[d + 1, x] = counts[d, x]
        counts[d + 1, mcol[d, j]] -= n
        lbs[d + 1] = mlb[d, j]
        nblocks[d + 1] = nblocks[d] - n
        path_c[d] = c
        path_h[d] = h
        st[ST_DEPTH] = d + 1
        st[ST_PENDING] = 1


@njit(cache=True)
def frontier_bound(st, lbs, mlb, order, nm, mi) -> int:
    """The least lower bound over the nodes not yet searched (the untried children on the
    stack and the entered-but-unexpanded top node); a large number when there are none."""
    best = 1 << 30
    d = st[ST_DEPTH]
    if st[ST_PENDING] == 1 and lbs[d] < best:
        best = lbs[d]
    for e in range(d + 1):
        for i in range(mi[e], nm[e]):
            v = mlb[e, order[e, i]]
            if v < best:
                best = v
    return best
