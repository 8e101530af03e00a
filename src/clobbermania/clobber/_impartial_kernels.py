"""Numba kernels of impartial Clobber: the Grundy value of a component on a board of at
most 64 squares, with a memo keyed by the component's canonical bitsets.

A position is two uint64 bitsets (black, white); ``adj[v]`` is the bitset of v's
neighbours. Moves are those of the reference generator ``Position.moves()`` (a stone of
either colour onto an adjacent stone of the other colour); the tests hold
:func:`impartial_moves` equal to it on random positions, and the values equal to a plain
recursion over ``Position``.

Canonical key of a component: the least (black, white) pair over the board's symmetries
(``perms``, one row per symmetry) and the colour swap; on a grid (``cols > 0``) every
image is first translated to touch the top row and the left column (a right shift by
``r0 * cols + c0``: no stone has column < c0, so nothing wraps).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from ..solitaire._kernels import U0, U1, bit_index, flood, lowbit

KEY_TYPE = types.UniTuple(types.uint64, 2)


def new_memo() -> Dict:
    """An empty memo: canonical (black, white) -> Grundy value."""
    return Dict.empty(key_type=KEY_TYPE, value_type=types.int64)


@njit(cache=True)
def _translate(m, cols):
    low = lowbit(m)
    r0 = bit_index(low) // cols
    c0 = cols
    f = m
    while f != U0:
        lb = lowbit(f)
        c = bit_index(lb) % cols
        if c < c0:
            c0 = c
        f ^= lb
    return np.uint64(r0 * cols + c0)


@njit(cache=True)
def canonical(b, w, perms, cols):
    """The least (black, white) image of a component under ``perms`` and the colour swap."""
    best_b = ~U0
    best_w = ~U0
    nperm = perms.shape[0]
    for s in range(nperm):
        ib = U0
        iw = U0
        f = b
        while f != U0:
            lb = lowbit(f)
            ib |= U1 << np.uint64(perms[s, bit_index(lb)])
            f ^= lb
        f = w
        while f != U0:
            lb = lowbit(f)
            iw |= U1 << np.uint64(perms[s, bit_index(lb)])
            f ^= lb
        if cols > 0:
            sh = _translate(ib | iw, cols)
            ib >>= sh
            iw >>= sh
        if ib < best_b or (ib == best_b and iw < best_w):
            best_b = ib
            best_w = iw
        if iw < best_b or (iw == best_b and ib < best_w):
            best_b = iw
            best_w = ib
    return best_b, best_w


@njit(cache=True)
def impartial_moves(b, w, adj, n):
    """Every impartial move as two arrays (src, dst): black stones first, then white, each
    stone's moves in increasing neighbour order (the order of ``Position.moves()``)."""
    src = np.empty(4 * n + 8, dtype=np.int64)
    dst = np.empty(4 * n + 8, dtype=np.int64)
    k = 0
    for colour in range(2):
        mine = b if colour == 0 else w
        theirs = w if colour == 0 else b
        for v in range(n):
            if (mine >> np.uint64(v)) & U1:
                prey = adj[v] & theirs
                while prey != U0:
                    lb = lowbit(prey)
                    if k == src.shape[0]:
                        src = np.concatenate((src, np.empty_like(src)))
                        dst = np.concatenate((dst, np.empty_like(dst)))
                    src[k] = v
                    dst[k] = bit_index(lb)
                    k += 1
                    prey ^= lb
    return src[:k], dst[:k]


@njit(cache=True)
def component_value(b, w, adj, perms, cols, memo, budget):
    """The Grundy value of the connected component (b, w): mex over its moves of the XOR of
    the values of the parts each move leaves.

    ``budget[0]`` is decremented for each value computed; when it goes negative the
    search returns -1 at once (the memo keeps what was finished, so a new call resumes).
    """
    if b == U0 or w == U0:
        return 0
    key = canonical(b, w, perms, cols)
    if key in memo:
        return memo[key]
    budget[0] -= 1
    if budget[0] < 0:
        return -1
    occ = b | w
    # collect the XOR of every option first, then take the mex
    nopt = 0
    vals = np.empty(256, dtype=np.int64)
    f = occ
    while f != U0:
        lb = lowbit(f)
        f ^= lb
        v = bit_index(lb)
        mover_black = (b & lb) != U0
        prey = adj[v] & (w if mover_black else b)
        while prey != U0:
            lp = lowbit(prey)
            prey ^= lp
            if mover_black:
                nb = (b & ~lb) | lp
                nw = w & ~lp
            else:
                nw = (w & ~lb) | lp
                nb = b & ~lp
            nocc = nb | nw
            rem = nocc
            g = 0
            while rem != U0:
                comp = flood(lowbit(rem), nocc, adj)
                rem &= ~comp
                cb = comp & nb
                cw = comp & nw
                if cb != U0 and cw != U0:
                    part = component_value(cb, cw, adj, perms, cols, memo, budget)
                    if part < 0:
                        return -1
                    g ^= part
            if nopt == vals.shape[0]:
                vals = np.concatenate((vals, np.empty_like(vals)))
            vals[nopt] = g
            nopt += 1
    seen = np.zeros(nopt + 1, dtype=np.bool_)
    for i in range(nopt):
        if vals[i] <= nopt:
            seen[vals[i]] = True
    m = 0
    while seen[m]:
        m += 1
    memo[key] = m
    return m
