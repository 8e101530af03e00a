"""Numba kernels of the Solitaire Clobber solver: bitset moves, bounds, symmetry keys, and a
resumable depth-first search with a transposition table.

A position is two uint64 bitsets (black, white) over at most 64 squares; ``adj[v]`` is
the bitset of v's neighbours. ``side`` is 0 when black must move, 1 when white must, 2
when any colour may (SC2). Everything here is held equal to :mod:`.rules` by the tests.

Beware numba's typing: mixing uint64 with a signed integer gives float64, so every
constant that meets a bitset is a ``np.uint64``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._bits import (
    U0,
    U1,
    bit_index,
    image,
    least_image,
    lowbit,
    mix64,
    popcount,
    reverse_low,
    row_mask,
    sort_rows,
)

HASH3 = np.uint64(0x165667B19E3779F9)
S40 = np.uint64(40)
THREE = np.uint64(3)

FOUND = 1
EXHAUSTED = 2
PAUSED = 3

# indices into the search's small int64 state array
ST_DEPTH = 0
ST_MODE = 1
ST_NODES = 2
ST_BEST = 3
ST_BEST_LEN = 4
ST_SIZE = 8


@njit(cache=True)
def flood(start, occ, adj):
    """The connected component of ``occ`` containing the bitset ``start``."""
    comp = start
    frontier = start
    while frontier != U0:
        nb = U0
        f = frontier
        while f != U0:
            low = lowbit(f)
            nb |= adj[bit_index(low)]
            f ^= low
        nb &= occ & ~comp
        comp |= nb
        frontier = nb
    return comp


@njit(cache=True)
def group_static_bound(b, w, blacksq, bipartite):
    """The bound of one group: a one-coloured group never moves and keeps its stones; a
    mixed group keeps 2 when the board is bipartite and its delta is 0 (mod 3), else 1."""
    if b == U0 or w == U0:
        return popcount(b | w)
    if bipartite:
        clash = popcount(b & ~blacksq) + popcount(w & blacksq)
        if (popcount(b | w) + clash) % 3 == 0:
            return 2
    return 1


@njit(cache=True)
def static_lower_bound(b, w, adj, blacksq, bipartite):
    """Sum over groups of stones of :func:`group_static_bound`."""
    occ = b | w
    lb = 0
    while occ != U0:
        comp = flood(lowbit(occ), b | w, adj)
        occ ^= comp
        lb += group_static_bound(comp & b, comp & w, blacksq, bipartite)
    return lb


@njit(cache=True)
def alternation_lower_bound(nb, nw, side):
    """Under alternation each move removes a stone of the colour not moving; with only the
    colour counts known, play can go on until one colour runs out."""
    while True:
        if nb == 0 or nw == 0:
            return nb + nw
        if side == 0:
            nw -= 1
            side = 1
        else:
            nb -= 1
            side = 0


@njit(cache=True, inline="always")
def _key_less(b1, w1, s1, b2, w2, s2):
    return b1 < b2 or (b1 == b2 and (w1 < w2 or (w1 == w2 and s1 < s2)))


@njit(cache=True)
def canonical_key(b, w, side, table, nsym, color_swap):
    """The least (black, white, side) over the board's symmetries (and the colour swap,
    which exchanges the colours and the side to move): the images of
    :func:`clobbermania._bits.least_image` with the side to move as a third key."""
    sside = side if side == 2 else 1 - side
    k1 = ~U0
    k2 = ~U0
    ks = 3
    for s in range(nsym):
        mb = image(b, table, s)
        mw = image(w, table, s)
        if _key_less(mb, mw, side, k1, k2, ks):
            k1, k2, ks = mb, mw, side
        if color_swap and _key_less(mw, mb, sside, k1, k2, ks):
            k1, k2, ks = mw, mb, sside
    return k1, k2, ks


@njit(cache=True, inline="always")
def tt_hash(k1, k2, ks):
    return mix64(k1 ^ mix64(k2 + np.uint64(ks + 1) * HASH3))


@njit(cache=True)
def tt_probe(tk1, tk2, tks, tv, mask, k1, k2, ks, h):
    base = np.int64(h & mask) & ~3
    for i in range(4):
        j = base + i
        if tv[j] != 0 and tk1[j] == k1 and tk2[j] == k2 and tks[j] == ks:
            return np.int64(tv[j])
    return 0


@njit(cache=True)
def tt_store(tk1, tk2, tks, tv, mask, k1, k2, ks, h, value):
    base = np.int64(h & mask) & ~3
    for i in range(4):
        j = base + i
        if tv[j] != 0 and tk1[j] == k1 and tk2[j] == k2 and tks[j] == ks:
            if value > tv[j]:
                tv[j] = value
            return
    for i in range(4):
        j = base + i
        if tv[j] == 0:
            tk1[j] = k1
            tk2[j] = k2
            tks[j] = ks
            tv[j] = value
            return
    j = base + np.int64((h >> S40) & THREE)
    tk1[j] = k1
    tk2[j] = k2
    tks[j] = ks
    tv[j] = value


@njit(cache=True)
def path_key(b, w, adj):
    """Key of a group whose stones form an induced path (on any board): its colours read
    along the path, least over both directions and the colour swap, with the all-ones
    mask of its length. Such a group's game is the row game of that colour string.
    Returns (0, 0) when the group is not a path. (Mask keys have disjoint halves, these
    overlapping ones, so the two kinds never collide.)"""
    occ = b | w
    end = -1
    m = occ
    while m != U0:
        low = lowbit(m)
        v = bit_index(low)
        deg = popcount(adj[v] & occ)
        if deg > 2:
            return U0, U0
        if deg <= 1 and end < 0:
            end = v
        m ^= low
    if end < 0:
        return U0, U0  # a cycle
    fwd = U0
    length = 0
    visited = U0
    cur = end
    while True:
        bit = U1 << np.uint64(cur)
        visited |= bit
        if b & bit:
            fwd |= U1 << np.uint64(length)
        length += 1
        nxt = adj[cur] & occ & ~visited
        if nxt == U0:
            break
        cur = bit_index(lowbit(nxt))
    rev = reverse_low(fwd, length)
    ones = ~U0 if length == 64 else (U1 << np.uint64(length)) - U1
    k1 = fwd
    if rev < k1:
        k1 = rev
    if fwd ^ ones < k1:
        k1 = fwd ^ ones
    if rev ^ ones < k1:
        k1 = rev ^ ones
    return k1, ones


@njit(cache=True)
def group_key(b, w, table, nsym, translate, cols, adj):
    """Canonical key of one group of stones under SC2: the path key when the group is an
    induced path; otherwise least over the symmetries and the colour swap, after
    translation to the origin where the board allows it."""
    k1, k2 = path_key(b, w, adj)
    if k2 != U0:
        return k1, k2
    return least_image(b, w, table[:nsym], cols if translate else 0, row_mask(cols), True)


@njit(cache=True)
def group_value(b, w, adj, blacksq, bipartite, table, nsym, translate, cols,
                gk1, gk2, gks, gv, counter):
    """The exact SC2 optimum of one connected mixed group of stones, memoized.

    In SC2 separate groups never interact, so a move's value is the sum of the values of
    the groups it leaves. Returns -1 when ``counter[0]`` passes ``counter[1]`` (the
    budget); values already computed stay in the table.
    """
    k1, k2 = group_key(b, w, table, nsym, translate, cols, adj)
    mask = np.uint64(gv.shape[0] - 1)
    h = tt_hash(k1, k2, 2)
    v = tt_probe(gk1, gk2, gks, gv, mask, k1, k2, 2, h)
    if v > 0:
        return v
    if counter[0] >= counter[1]:
        return -1
    counter[0] += 1
    counter[2] += 1
    lb = group_static_bound(b, w, blacksq, bipartite)
    best = popcount(b | w)
    # every move of either colour
    n = count_moves(b, w, 2, adj)
    src = np.empty(n, np.int64)
    dst = np.empty(n, np.int64)
    generate_moves(b, w, 2, adj, src, dst)
    for i in range(n):
        if best <= lb:
            break
        nb, nw, mover = apply_move(b, w, src[i], dst[i])
        # quick bound on the child before any recursion
        if static_lower_bound(nb, nw, adj, blacksq, bipartite) >= best:
            continue
        total = 0
        nocc = nb | nw
        rem = nocc
        while rem != U0 and total < best:
            comp = flood(lowbit(rem), nocc, adj)
            rem ^= comp
            if comp & nb == U0 or comp & nw == U0:
                total += popcount(comp)
                continue
            part = group_value(comp & nb, comp & nw, adj, blacksq, bipartite, table, nsym,
                               translate, cols, gk1, gk2, gks, gv, counter)
            if part < 0:
                return -1
            total += part
        if total < best:
            best = total
    tt_store(gk1, gk2, gks, gv, mask, k1, k2, 2, h, best)
    return best


@njit(cache=True)
def free_lower_bound(b, w, adj, blacksq, bipartite, table, nsym, translate, cols,
                     gk1, gk2, gks, gv, counter, group_limit):
    """Sum over groups of their SC2 optimum (exact for groups of at most ``group_limit``
    stones within the budget, the static bound otherwise). In SC2 this is the optimum;
    in SC, where alternation only removes options, it is a lower bound."""
    occ = b | w
    lb = 0
    rem = occ
    while rem != U0:
        comp = flood(lowbit(rem), occ, adj)
        rem ^= comp
        cb = comp & b
        cw = comp & w
        v = -1
        if cb != U0 and cw != U0 and popcount(comp) <= group_limit:
            v = group_value(cb, cw, adj, blacksq, bipartite, table, nsym, translate, cols,
                            gk1, gk2, gks, gv, counter)
        if v < 0:
            v = group_static_bound(cb, cw, blacksq, bipartite)
        lb += v
    return lb


@njit(cache=True, inline="always")
def _moves_of(mine, theirs, adj, src, dst, cnt):
    """Append the moves of the stones ``mine`` onto ``theirs`` from index cnt."""
    m = mine
    while m != U0:
        low = lowbit(m)
        m ^= low
        t = adj[bit_index(low)] & theirs
        while t != U0:
            lt = lowbit(t)
            t ^= lt
            src[cnt] = bit_index(low)
            dst[cnt] = bit_index(lt)
            cnt += 1
    return cnt


@njit(cache=True)
def generate_moves(b, w, side, adj, src, dst):
    """Fill src/dst with the moves of the colour due (both colours when side == 2), black
    stones first, each stone's targets in vertex order; return the count.

    The one fast move generator of Clobber on (black, white) bitsets: Solitaire Clobber's
    search and group values here, impartial Clobber (``side`` 2) and two-player Clobber
    (the mover's stones as black, ``side`` 0) in ``clobber/``; held equal to
    ``Position.moves`` by tests/test_solitaire_rules.py and tests/test_clobber_search.py."""
    cnt = 0
    if side != 1:
        cnt = _moves_of(b, w, adj, src, dst, cnt)
    if side != 0:
        cnt = _moves_of(w, b, adj, src, dst, cnt)
    return cnt


@njit(cache=True)
def count_moves(b, w, side, adj):
    """The number of moves :func:`generate_moves` writes."""
    n = 0
    for col in range(2):
        if side == 2 or side == col:
            m = b if col == 0 else w
            while m != U0:
                low = lowbit(m)
                m ^= low
                n += popcount(adj[bit_index(low)] & (w if col == 0 else b))
    return n


@njit(cache=True, inline="always")
def apply_move(b, w, s, t):
    """(black, white, mover) after the stone on s clobbers t; mover 0 black, 1 white."""
    bs = U1 << np.uint64(s)
    bt = U1 << np.uint64(t)
    if b & bs:
        return (b & ~bs) | bt, w & ~bt, 0
    return b & ~bt, (w & ~bs) | bt, 1


@njit(cache=True)
def search(adj, blacksq, bipartite, table, nsym, color_swap, free, target,
           st, sb, sw, ss, keys1, keys2, keyss, msrc, mdst, mscore, nm, mi, best_path,
           tk1, tk2, tks, tv, max_nodes, translate, cols, gk1, gk2, gks, gv, counter,
           group_limit, group_budget):
    """Depth-first search for a sequence leaving at most ``target`` stones.

    Resumable: the stack lives in the arrays, so the caller can stop after ``max_nodes``
    nodes (PAUSED), check the clock, and call again. Returns FOUND (the path is the moves
    msrc/mdst[j, mi[j] - 1] for j < st[ST_DEPTH]), EXHAUSTED (no such sequence; every
    refuted state's lower bound is in the table), or PAUSED. ``st[ST_BEST]`` and
    ``best_path`` keep the fewest stones seen on any path, for bounds on a time-out.
    """
    mask = np.uint64(tv.shape[0] - 1)
    d = st[ST_DEPTH]
    mode = st[ST_MODE]
    nodes = st[ST_NODES]
    # group-value nodes count as work too, so a chunk stays short
    budget = nodes + counter[2] + max_nodes
    while True:
        if mode == 0:
            # enter the node at depth d
            nodes += 1
            b = sb[d]
            w = sw[d]
            side = ss[d]
            stones = popcount(b | w)
            if stones < st[ST_BEST]:
                st[ST_BEST] = stones
                st[ST_BEST_LEN] = d
                for j in range(d):
                    best_path[j, 0] = msrc[j, mi[j] - 1]
                    best_path[j, 1] = mdst[j, mi[j] - 1]
            if stones <= target:
                st[ST_DEPTH] = d
                st[ST_NODES] = nodes
                return FOUND
            fail = static_lower_bound(b, w, adj, blacksq, bipartite) > target
            if not fail and not free:
                fail = alternation_lower_bound(popcount(b), popcount(w), side) > target
            if not fail and group_limit > 0:
                counter[0] = 0
                counter[1] = group_budget
                fail = free_lower_bound(b, w, adj, blacksq, bipartite, table, nsym, translate,
                                        cols, gk1, gk2, gks, gv, counter, group_limit) > target
            if not fail:
                k1, k2, ks = canonical_key(b, w, side, table, nsym, color_swap)
                h = tt_hash(k1, k2, ks)
                if tt_probe(tk1, tk2, tks, tv, mask, k1, k2, ks, h) > target:
                    fail = True
                else:
                    keys1[d] = k1
                    keys2[d] = k2
                    keyss[d] = ks
                    cnt = generate_moves(b, w, side, adj, msrc[d], mdst[d])
                    if cnt == 0:
                        # play is over here: exactly `stones` remain
                        tt_store(tk1, tk2, tks, tv, mask, k1, k2, ks, h, stones)
                        fail = True
                    else:
                        # Order: children with the smallest lower bound first; then moves
                        # from squares with few occupied neighbours (clear from the rim);
                        # then moves that land the stone next to many stones it can still
                        # capture (keeps the mover mobile). Measured on checkerboards up
                        # to 8x8 and random 7x7 boards, this finds witnesses orders of
                        # magnitude sooner than rim order alone.
                        occ = b | w
                        for i in range(cnt):
                            nb2, nw2, mover = apply_move(b, w, msrc[d, i], mdst[d, i])
                            clb = static_lower_bound(nb2, nw2, adj, blacksq, bipartite)
                            deg = popcount(adj[msrc[d, i]] & occ)
                            prey = popcount(adj[mdst[d, i]] & (nw2 if mover == 0 else nb2))
                            mscore[d, i] = (clb << 20) + deg * 64 + (64 - prey)
                        sort_rows(mscore[d], msrc[d], mdst[d], cnt, False)
                        nm[d] = cnt
                        mi[d] = 0
                        mode = 1
                        continue
            # this node fails: back to the parent
            if d == 0:
                st[ST_DEPTH] = 0
                st[ST_NODES] = nodes
                return EXHAUSTED
            d -= 1
            mode = 1
        else:
            # try the next child of the node at depth d
            if nodes + counter[2] >= budget:
                st[ST_DEPTH] = d
                st[ST_MODE] = 1
                st[ST_NODES] = nodes
                return PAUSED
            i = mi[d]
            if i < nm[d]:
                if (mscore[d, i] >> 20) > target:
                    mi[d] = nm[d]  # sorted: every remaining child is refuted by its bound
                    continue
                mi[d] = i + 1
                nb2, nw2, mover = apply_move(sb[d], sw[d], msrc[d, i], mdst[d, i])
                sb[d + 1] = nb2
                sw[d + 1] = nw2
                ss[d + 1] = 2 if free else 1 - mover
                d += 1
                mode = 0
            else:
                k1 = keys1[d]
                k2 = keys2[d]
                ks = keyss[d]
                tt_store(tk1, tk2, tks, tv, mask, k1, k2, ks, tt_hash(k1, k2, ks), target + 1)
                if d == 0:
                    st[ST_DEPTH] = 0
                    st[ST_NODES] = nodes
                    return EXHAUSTED
                d -= 1


# -- SC2 on paths: dynamic programme over segments --------------------------------------------

@njit(cache=True)
def _segment_colour(s, a, b, lc, rc, k):
    """Colour (1 black, 2 white) of cell k of segment [a, b] whose end colours are lc, rc."""
    if k == a:
        return lc
    if k == b:
        return rc
    return s[k]


@njit(cache=True)
def path_segment_values(s, max_len):
    """val[a, L, lc - 1, rc - 1]: the SC2 optimum of the segment s[a .. a + L - 1] (all
    squares occupied, s holding 1/2 colours) with its first cell recoloured lc and its
    last cell rc, for every length L <= max_len. A move on a path empties the mover's
    square and so splits the segment in two independent parts, each a shorter segment
    with at most its cut end recoloured: O(n^2) states, O(n) moves each."""
    n = s.shape[0]
    val = np.zeros((n + 1, max_len + 1, 2, 2), dtype=np.int32)
    blacks = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        blacks[i + 1] = blacks[i] + (1 if s[i] == 1 else 0)
    for L in range(1, max_len + 1):
        for a in range(0, n - L + 1):
            b = a + L - 1
            for lc in range(1, 3):
                for rc in range(1, 3):
                    if L == 1:
                        val[a, 1, lc - 1, rc - 1] = 1
                        continue
                    # monochrome segments never move
                    nb = (1 if lc == 1 else 0) + (1 if rc == 1 else 0)
                    if L > 2:
                        nb += blacks[b] - blacks[a + 1]
                    if nb == 0 or nb == L:
                        val[a, L, lc - 1, rc - 1] = L
                        continue
                    best = L
                    for i in range(a, b):
                        ci = _segment_colour(s, a, b, lc, rc, i)
                        cj = _segment_colour(s, a, b, lc, rc, i + 1)
                        if ci == cj:
                            continue
                        # stone on i captures i + 1: parts [a, i-1] and [i+1, b]
                        left = 0
                        if i - 1 >= a:
                            left = val[a, i - a, lc - 1,
                                       _segment_colour(s, a, b, lc, rc, i - 1) - 1]
                        right_rc = rc if b > i + 1 else ci
                        right = val[i + 1, b - i, ci - 1, right_rc - 1]
                        if left + right < best:
                            best = left + right
                        # stone on i + 1 captures i: parts [a, i] and [i+2, b]
                        left_lc = lc if i > a else cj
                        left = val[a, i - a + 1, left_lc - 1, cj - 1]
                        right = 0
                        if i + 2 <= b:
                            right = val[i + 2, b - i - 1,
                                        _segment_colour(s, a, b, lc, rc, i + 2) - 1, rc - 1]
                        if left + right < best:
                            best = left + right
                    val[a, L, lc - 1, rc - 1] = best
    return val
