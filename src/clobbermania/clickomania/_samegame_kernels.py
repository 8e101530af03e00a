"""Numba kernels of the scored SameGame search: random numbers, tabu-colour playouts and
one level of Monte-Carlo beam search.

Every board change goes through the engine (:mod:`._kernels`: its click, flood fill,
removal, group finder and the test of a clickable block); this module adds only search
logic. Moves are coded ``c * H + h``: the representative of the clicked group (engine
layout), everywhere, since the beam recognises the next click of a known line by it.

The random numbers are xorshift64* (Marsaglia; Vigna) kept in a ``uint64[1]`` state, so a
search is reproduced exactly from its seed, independent of numba's own generator.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._bits import GOLDEN, U0, U1, mix64, popcount, sort_rows
from ._kernels import (
    k_click_with,
    k_group,
    k_has_partner,
    k_hash,
    k_height,
    k_moves,
    k_moves_with,
    k_n_columns,
    k_remove_marked_from,
    k_scratch,
)

# colours are 0..35 (rules.MAX_COLORS); a little slack for counting arrays
N_COLOURS = 36


@njit(cache=True)
def k_rand(state: np.ndarray) -> np.uint64:
    """The next 64-bit number of the xorshift64* generator held in ``state[0]`` (never 0)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True)
def k_below(state: np.ndarray, n: int) -> int:
    """A uniform integer in [0, n) (n < 2**31; the modulo bias is below 2**-30)."""
    return np.int64((k_rand(state) >> np.uint64(33)) % np.uint64(n))


@njit(cache=True)
def k_colour_counts(grid: np.ndarray, counts: np.ndarray) -> int:
    """Blocks of each colour written to ``counts`` (N_COLOURS entries); returns the total."""
    counts[:] = 0
    total = 0
    for c in range(k_n_columns(grid)):
        for h in range(k_height(grid, c)):
            counts[grid[c, h]] += 1
            total += 1
    return total


@njit(cache=True, inline="always")
def with_bonus(score: int, remaining: int) -> int:
    """A game's score: ``score`` (the (n - 2)^2 of its clicks) and 1000 when it cleared the
    board (``remaining`` blocks left: 0), as in ``rules.score_sequence``."""
    return score + 1000 if remaining == 0 else score


@njit(cache=True)
def _move_lists(n: int):
    """Room for n moves as four int64 arrays: (column, height, size, colour)."""
    return (np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
            np.empty(n, np.int64))


@njit(cache=True)
def k_most_frequent(counts: np.ndarray, other: int) -> int:
    """The colour with the most blocks in ``counts``, ``other`` excepted (the lower colour
    on ties); -1 when no other colour has a block."""
    best = -1
    for k in range(counts.shape[0]):
        if k != other and counts[k] > 0 and (best < 0 or counts[k] > counts[best]):
            best = k
    return best


@njit(cache=True)
def k_playout(grid: np.ndarray, state: np.ndarray, policy: int, out: np.ndarray,
              out_start: int, buf_c: np.ndarray, buf_h: np.ndarray, buf_s: np.ndarray,
              buf_col: np.ndarray, pick: np.ndarray, tabu_a: int = -1,
              tabu_b: int = -1) -> tuple[int, int]:
    """Play ``grid`` to the end in place with a tabu-colour random policy.

    ``policy`` 0: uniform random clicks. 1: Cazenave's tabu colour (Nested Monte-Carlo
    Search, IJCAI 2009): the colour with most blocks at the start of the playout is clicked
    only when nothing else can be. 2: as 1, with the second most frequent colour also
    held back, below the first (it keeps two colours whole for big late groups), played
    by :func:`k_playout_two_tabu`. ``tabu_a`` / ``tabu_b`` (when >= 0) fix the first and
    second tabu colours instead (a colour the board lacks is simply never drawn). The
    moves (codes ``c * H + h``) are written to ``out[out_start:]``. Returns (score of the
    playout with the clear bonus, number of moves). The ``buf_*`` and ``pick`` arrays are
    scratch space of W * H entries.
    """
    if policy == 2:
        return k_playout_two_tabu(grid, state, out, out_start, buf_col, pick, tabu_a, tabu_b)
    W, H = grid.shape
    counts = np.zeros(N_COLOURS, np.int64)
    remaining = k_colour_counts(grid, counts)
    tabu = -1
    if policy >= 1:
        tabu = tabu_a if tabu_a >= 0 else k_most_frequent(counts, -1)
    score = 0
    nm = 0
    # scratch of the engine's group finder, once a playout
    mark, sc, sh = k_scratch(grid)
    while True:
        m = k_moves_with(grid, buf_c, buf_h, buf_s, buf_col, mark, sc, sh)
        if m == 0:
            break
        k = 0
        if tabu >= 0:
            for i in range(m):
                if buf_col[i] != tabu:
                    pick[k] = i
                    k += 1
        if k == 0:
            j = k_below(state, m)
        else:
            j = pick[k_below(state, k)]
        n = k_click_with(grid, buf_c[j], buf_h[j], mark, sc, sh)
        out[out_start + nm] = buf_c[j] * H + buf_h[j]
        nm += 1
        score += (n - 2) * (n - 2)
        remaining -= n
    return with_bonus(score, remaining), nm


@njit(cache=True, inline="always")
def _draw_block(state: np.ndarray, total: np.ndarray, counts: np.ndarray
                ) -> tuple[int, int, int]:
    """A uniform block of the first tier that has one (some tier must): (tier, column,
    rank of the block in the column's list), from the tiers' counts a column
    (``counts[t, c]``) and in all (``total[t]``)."""
    t = 0
    while total[t] == 0:
        t += 1
    r = k_below(state, total[t])
    c = 0
    while r >= counts[t, c]:
        r -= counts[t, c]
        c += 1
    return t, c, r


@njit(cache=True)
def k_playout_two_tabu_cells(grid: np.ndarray, state: np.ndarray, out: np.ndarray,
                             out_start: int, sc: np.ndarray, sh: np.ndarray, tabu_a: int = -1,
                             tabu_b: int = -1) -> tuple[int, int]:
    """Policy 2 of :func:`k_playout`, without finding every group after every click, on
    the engine's grid (any board; :func:`k_playout_two_tabu` plays the usual ones faster,
    click for click the same).

    The blocks that have a neighbour of their colour are kept in three tiers (the colours
    other than the two tabu colours, the second tabu colour, the first), column by column;
    a click changes only the group's columns (they fall) and the columns either side of
    them (a neighbour changed), so only those are scanned again, unless a column empties
    (then every column from the group's on moved, and is scanned again).
    A block of the first non-empty tier is drawn uniformly and its group (n blocks)
    flood-filled, and the group is taken with probability 2/n, else drawn again. A group
    of n blocks is drawn n times as often as one block, so every group of the tier is
    equally likely: the distribution of :func:`k_playout`'s policy 2 (checked by the
    tests), with about 4 times the playouts a CPU second of finding every group after
    every click (``benchmarks/samegame.py --playout-speed``). ``sc`` and ``sh`` are scratch of W * H
    entries for the flood fill."""
    W, H = grid.shape
    counts = np.zeros(N_COLOURS, np.int64)
    remaining = k_colour_counts(grid, counts)
    tabu = tabu_a if tabu_a >= 0 else k_most_frequent(counts, -1)
    tabu2 = tabu_b if tabu_b >= 0 else k_most_frequent(counts, tabu)
    score = 0
    nm = 0
    mark = np.zeros((W, H), dtype=np.bool_)
    # seg[t, c, :cnt[t, c]]: the codes of column c's blocks of tier t, bottom up
    seg = np.empty((3, W, H), np.int64)
    cnt = np.zeros((3, W), np.int64)
    total = np.zeros(3, np.int64)
    first = 0
    ncols = W
    stop = W
    while True:
        for c in range(first, stop):
            for t in range(3):
                total[t] -= cnt[t, c]
                cnt[t, c] = 0
            if grid[c, 0] < 0:
                continue
            for h in range(H):
                x = grid[c, h]
                if x < 0:
                    break
                if k_has_partner(grid, c, h):
                    t = 2 if x == tabu else (1 if x == tabu2 else 0)
                    seg[t, c, cnt[t, c]] = c * H + h
                    cnt[t, c] += 1
            for t in range(3):
                total[t] += cnt[t, c]
        ncols = k_n_columns(grid)
        if total[0] + total[1] + total[2] == 0:
            break
        while True:
            t, c, r = _draw_block(state, total, cnt)
            code = seg[t, c, r]
            n = k_group(grid, code // H, code % H, mark, sc, sh)
            if n == 2 or k_below(state, n) < 2:
                break
            for i in range(n):
                mark[sc[i], sh[i]] = False
        # the move is named by the group's representative (leftmost column, lowest there),
        # as the group finder names it: the beam recognises its best line's next click by
        # that code
        left = W
        low = H
        right = 0
        for i in range(n):
            if sc[i] < left or (sc[i] == left and sh[i] < low):
                left = sc[i]
                low = sh[i]
            if sc[i] > right:
                right = sc[i]
        emptied = k_remove_marked_from(grid, mark, left, right)
        for i in range(n):
            mark[sc[i], sh[i]] = False
        # only the group's columns fell; their neighbours' partners may have changed;
        # when a column emptied, everything right of it moved
        first = left - 1 if left > 0 else 0
        stop = ncols if emptied else min(right + 2, ncols)
        out[out_start + nm] = left * H + low
        nm += 1
        score += (n - 2) * (n - 2)
        remaining -= n
    return with_bonus(score, remaining), nm


# The column words of k_playout_two_tabu: nibble h holds the colour + 1 of the block at
# height h (0: empty); masks of blocks have bit 4h set for the block at height h.
_LO = np.uint64(0x1111111111111111)
_U2 = np.uint64(2)
_U4 = np.uint64(4)
_NIB = np.uint64(15)


@njit(cache=True, inline="always")
def _nonzero(v: np.uint64) -> np.uint64:
    """Bit 4h set where nibble h of v is not 0."""
    t = v | (v >> U1)
    t |= t >> _U2
    return t & _LO


@njit(cache=True, inline="always")
def _vfill(m: np.uint64, same: np.uint64) -> np.uint64:
    """The cells of ``same`` joined to those of ``m`` within a column (grown up and down)."""
    m &= same
    while True:
        m2 = (m | (m << _U4) | (m >> _U4)) & same
        if m2 == m:
            return m
        m = m2


@njit(cache=True)
def _tiers(cols: np.ndarray, occ: np.ndarray, ncols: int, c: int, ta: np.uint64,
           tb: np.uint64, tm: np.ndarray, tc: np.ndarray, total: np.ndarray) -> None:
    """Column c's blocks with a neighbour of their colour, in three tiers: masks
    ``tm[t, c]`` (bit 4h: the block at height h), counts ``tc[t, c]``, ``total[t]`` kept."""
    x = cols[c]
    o = occ[c]
    up = ~_nonzero(x ^ (x >> _U4)) & (o >> _U4)
    p = up | (up << _U4)
    if c + 1 < ncols:
        p |= ~_nonzero(x ^ cols[c + 1]) & o & occ[c + 1]
    if c > 0:
        p |= ~_nonzero(x ^ cols[c - 1]) & o & occ[c - 1]
    ea = ~_nonzero(x ^ ta) & o
    eb = ~_nonzero(x ^ tb) & o & ~ea
    m2 = p & ea
    m1 = p & eb
    m0 = p & ~(ea | eb)
    n0 = popcount(m0)
    n1 = popcount(m1)
    n2 = popcount(m2)
    total[0] += n0 - tc[0, c]
    total[1] += n1 - tc[1, c]
    total[2] += n2 - tc[2, c]
    tm[0, c] = m0
    tm[1, c] = m1
    tm[2, c] = m2
    tc[0, c] = n0
    tc[1, c] = n1
    tc[2, c] = n2


@njit(cache=True)
def k_playout_two_tabu(grid: np.ndarray, state: np.ndarray, out: np.ndarray, out_start: int,
                       sc: np.ndarray, sh: np.ndarray, tabu_a: int = -1,
                       tabu_b: int = -1) -> tuple[int, int]:
    """:func:`k_playout_two_tabu_cells` on column words: the same clicks, the same random
    draws, the same final board, about 1.6 times the playouts a CPU second.

    Column c is one 64-bit word, 4 bits a block (colour + 1; 0 empty), so a column's
    blocks with a same-coloured neighbour and its three tiers are a few word operations
    (equal nibbles of two words are the zero nibbles of their xor), a group is filled a
    column at a time, and a tier's blocks are counted by one multiplication. Boards taller
    than 15 or with colours above 14 are played by :func:`k_playout_two_tabu_cells`
    (``sc`` and ``sh`` are its scratch)."""
    W, H = grid.shape
    if H > 15:
        return k_playout_two_tabu_cells(grid, state, out, out_start, sc, sh, tabu_a, tabu_b)
    # the board as column words, its colours counted on the way
    counts = np.zeros(N_COLOURS, np.int64)
    remaining = 0
    cols = np.zeros(W, np.uint64)
    occ = np.zeros(W, np.uint64)
    height = np.zeros(W, np.int64)
    ncols = 0
    for c in range(W):
        if grid[c, 0] < 0:
            break
        x = U0
        h = 0
        while h < H:
            v = grid[c, h]
            if v < 0:
                break
            if v >= 15:
                return k_playout_two_tabu_cells(grid, state, out, out_start, sc, sh,
                                                tabu_a, tabu_b)
            counts[v] += 1
            x |= np.uint64(v + 1) << np.uint64(4 * h)
            h += 1
        cols[c] = x
        height[c] = h
        occ[c] = _LO & ((U1 << np.uint64(4 * h)) - U1)
        remaining += h
        ncols += 1
    tabu = tabu_a if tabu_a >= 0 else k_most_frequent(counts, -1)
    tabu2 = tabu_b if tabu_b >= 0 else k_most_frequent(counts, tabu)
    # tabu colours as repeated nibbles (a colour the board lacks: never matched)
    ta = np.uint64(tabu + 1) * _LO if 0 <= tabu < 15 else U0
    tb = np.uint64(tabu2 + 1) * _LO if 0 <= tabu2 < 15 else U0
    tm = np.zeros((3, W), np.uint64)
    tc = np.zeros((3, W), np.int64)
    total = np.zeros(3, np.int64)
    g = np.zeros(W, np.uint64)
    inq = np.zeros(W, np.bool_)
    stack = np.empty(W, np.int64)
    for c in range(ncols):
        _tiers(cols, occ, ncols, c, ta, tb, tm, tc, total)
    score = 0
    nm = 0
    while True:
        if total[0] + total[1] + total[2] == 0:
            break
        while True:
            t, c, r = _draw_block(state, total, tc)
            m = tm[t, c]
            for _ in range(r):
                m &= m - U1
            b = m & (~m + U1)
            # flood fill over the columns (a work list of columns whose part grew)
            k = (cols[c] & (b * _NIB))
            kk = (k // b) * _LO  # the colour's nibble repeated
            g[c] = _vfill(b, ~_nonzero(cols[c] ^ kk) & occ[c])
            left = c
            right = c
            sp = 0
            if c > 0:
                stack[sp] = c - 1
                inq[c - 1] = True
                sp += 1
            if c + 1 < ncols:
                stack[sp] = c + 1
                inq[c + 1] = True
                sp += 1
            while sp > 0:
                sp -= 1
                d = stack[sp]
                inq[d] = False
                seeds = g[d]
                if d > 0:
                    seeds |= g[d - 1]
                if d + 1 < ncols:
                    seeds |= g[d + 1]
                nw = _vfill(seeds, ~_nonzero(cols[d] ^ kk) & occ[d])
                if nw != g[d]:
                    g[d] = nw
                    if d < left:
                        left = d
                    if d > right:
                        right = d
                    if d > 0 and not inq[d - 1]:
                        stack[sp] = d - 1
                        inq[d - 1] = True
                        sp += 1
                    if d + 1 < ncols and not inq[d + 1]:
                        stack[sp] = d + 1
                        inq[d + 1] = True
                        sp += 1
            n = 0
            for d in range(left, right + 1):
                n += popcount(g[d])
            if n == 2 or k_below(state, n) < 2:
                break
            for d in range(left, right + 1):
                g[d] = U0
        lb = g[left] & (~g[left] + U1)
        low = popcount((lb - U1) & _LO)
        out[out_start + nm] = left * H + low
        nm += 1
        score += (n - 2) * (n - 2)
        remaining -= n
        # the group's columns fall
        emptied = False
        for d in range(left, right + 1):
            rm = g[d]
            g[d] = U0
            if rm == U0:
                continue
            x = cols[d]
            kept = height[d] - popcount(rm)
            # cut the removed runs out, the lowest first: in full nibbles, adding the
            # run's lowest bit carries to the first bit above the run
            f = rm * _NIB
            while f != U0:
                lb = f & (~f + U1)
                above = (f + lb) & ~f  # the lowest bit above the run
                shift = np.uint64(4) * np.uint64(popcount(f & ~(f + lb) & _LO))
                x = (x & (lb - U1)) | ((x & ~(above - U1)) >> shift)
                f = (f & ~(above - U1)) >> shift
            cols[d] = x
            height[d] = kept
            occ[d] = _LO & ((U1 << np.uint64(4 * kept)) - U1)
            if kept == 0:
                emptied = True
        first = left - 1 if left > 0 else 0
        if emptied:
            # close up: the empty columns go, the rest moves left
            dst = left
            for d in range(left, ncols):
                if height[d] > 0:
                    cols[dst] = cols[d]
                    occ[dst] = occ[d]
                    height[dst] = height[d]
                    dst += 1
            for d in range(dst, ncols):
                cols[d] = U0
                occ[d] = U0
                height[d] = 0
                for tt in range(3):
                    total[tt] -= tc[tt, d]
                    tc[tt, d] = 0
                    tm[tt, d] = U0
            ncols = dst
            stop = ncols
        else:
            stop = min(right + 2, ncols)
        for d in range(first, stop):
            _tiers(cols, occ, ncols, d, ta, tb, tm, tc, total)
    # write the final board back (the beam counts the blocks left)
    # (blocks only ever go: the old board is cleared up to its old tops)
    for c in range(W):
        if c >= ncols and grid[c, 0] < 0:
            break
        x = cols[c] if c < ncols else U0
        hc = height[c] if c < ncols else 0
        for h in range(hc):
            grid[c, h] = np.int64((x >> np.uint64(4 * h)) & _NIB) - 1
        for h in range(hc, H):
            if grid[c, h] < 0:
                break
            grid[c, h] = -1
    return with_bonus(score, remaining), nm


@njit(cache=True)
def k_playout_scores(grid: np.ndarray, seed: int, policy: int, n: int, tabu_a: int = -1,
                     tabu_b: int = -1) -> np.ndarray:
    """The scores of ``n`` playouts from ``grid`` (not changed): for tests and statistics."""
    W, H = grid.shape
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed) * GOLDEN | np.uint64(1)
    N = W * H
    bc, bh, bs, bcol = _move_lists(N)
    pick = np.empty(N, np.int64)
    out = np.empty(N, np.int16)
    tmp = np.empty((W, H), np.int8)
    scores = np.empty(n, np.int64)
    for i in range(n):
        tmp[:, :] = grid
        scores[i], _ = k_playout(tmp, state, policy, out, 0, bc, bh, bs, bcol, pick, tabu_a,
                                 tabu_b)
    return scores


@njit(cache=True)
def k_stream(base: np.uint64, index: int) -> np.ndarray:
    """A generator state of its own for item ``index`` of a parallel loop, from ``base``
    (splitmix64 scrambling: nearby indices give unrelated streams; never 0)."""
    x = mix64(base + np.uint64(index + 1) * GOLDEN)
    out = np.empty(1, np.uint64)
    out[0] = x | np.uint64(1)
    return out


@njit(cache=True, parallel=True)
def k_beam_level(grids: np.ndarray, scores: np.ndarray, paths: np.ndarray,
                 conts: np.ndarray, cont_len: np.ndarray, values: np.ndarray, nb: int,
                 level: int, width: int, policy: int, tabu_a: int, tabu_b: int,
                 left_penalty: int, state: np.ndarray,
                 zobrist: np.ndarray, new_grids: np.ndarray, new_scores: np.ndarray,
                 new_paths: np.ndarray, new_conts: np.ndarray, new_cont_len: np.ndarray,
                 new_values: np.ndarray, best: np.ndarray, best_path: np.ndarray,
                 counters: np.ndarray) -> int:
    """One level of Monte-Carlo beam search (Cazenave, *Monte Carlo Beam Search*, 2012),
    with each state's best known continuation kept as in nested Monte-Carlo search.

    The beam holds ``nb`` states after ``level`` clicks: ``grids[i]``, score so far
    ``scores[i]``, the clicks ``paths[i, :level]``, and the best complete game known
    through it: total ``values[i]`` reached by the continuation ``conts[i, :cont_len[i]]``.
    Every child (every legal click of every state) is valued by one playout (tabu colours
    ``tabu_a``, ``tabu_b``, or chosen by each playout when negative) and ranked by the
    playout's total less ``left_penalty`` a block it left (0: the total itself; the
    values and inherited lines are then in those terms, while ``best`` keeps true
    scores); the child
    that follows its parent's best continuation inherits the parent's value when that is
    higher, so the best line found never leaves the beam. Children with equal boards and
    scores are merged (Zobrist hash); the ``width`` best children by value form the new
    beam in the ``new_*`` arrays. ``best[0]`` and ``best_path[:best[1]]`` hold the best
    complete game seen (score and clicks); ``counters[0]`` counts playouts, and
    ``counters[1]`` is set to 1 when children had to be dropped (so a beam that never sets
    it searched every reachable board: its best game is optimal). Returns the size of the
    new beam (0 when no state had a move).

    The states' children are valued in parallel (numba threads); each state's playouts
    draw from a stream of their own (:func:`k_stream` of one draw of ``state`` and the
    state's index), so the result does not depend on the number of threads.
    """
    B, W, H = grids.shape
    N = W * H
    L = paths.shape[1]
    # the moves of each state, counted first to place every state's children
    n_moves = np.empty(nb, np.int64)
    for p in prange(nb):
        c0, h0, s0, col0 = _move_lists(N)
        n_moves[p] = k_moves(grids[p], c0, h0, s0, col0)
    first = np.empty(nb + 1, np.int64)
    first[0] = 0
    for p in range(nb):
        first[p + 1] = first[p] + n_moves[p]
    nc = first[nb]
    if nc == 0:
        return 0
    cand_parent = np.empty(nc, np.int64)
    cand_move = np.empty(nc, np.int64)
    cand_value = np.empty(nc, np.int64)
    cand_score = np.empty(nc, np.int64)
    cand_hash = np.empty(nc, np.uint64)
    cand_cont = np.empty((nc, L), np.int16)
    cand_cont_len = np.empty(nc, np.int64)
    # each state's best playout above the best game known when the level began: its
    # total, child and clicks, copied aside when found. The child may then inherit its
    # parent's line instead (with a left penalty, a playout that beats every game known
    # can still rank below that line when it leaves more blocks), and the game recorded
    # must be the playout's own clicks, not the line that replaced them in cand_cont.
    best0 = best[0]
    top_value = np.full(nb, best0, np.int64)
    top_child = np.full(nb, -1, np.int64)
    top_cont = np.empty((nb, L), np.int16)
    top_len = np.zeros(nb, np.int64)
    base = k_rand(state)
    for p in prange(nb):
        pst = k_stream(base, p)
        bc, bh, bs, bcol = _move_lists(N)
        mc, mh, ms, mcol = _move_lists(N)
        pick = np.empty(N, np.int64)
        chd = np.empty((W, H), np.int8)
        mk, scr_c, scr_h = k_scratch(chd)
        cnts = np.zeros(N_COLOURS, np.int64)
        gg = grids[p]
        nm = k_moves(gg, mc, mh, ms, mcol)
        fol = conts[p, 0] if cont_len[p] > 0 else -1
        jj = first[p]
        for ii in range(nm):
            cd = mc[ii] * H + mh[ii]
            chd[:, :] = gg
            nn = k_click_with(chd, mc[ii], mh[ii], mk, scr_c, scr_h)
            sv = scores[p] + (nn - 2) * (nn - 2)
            cand_hash[jj] = k_hash(chd, zobrist) ^ (np.uint64(sv) * GOLDEN)
            rsv, rll = k_playout(chd, pst, policy, cand_cont[jj], 0, bc, bh, bs, bcol, pick,
                                 tabu_a, tabu_b)
            tot = sv + rsv
            if tot > top_value[p]:
                top_value[p] = tot
                top_child[p] = jj
                top_len[p] = rll
                for qq in range(rll):
                    top_cont[p, qq] = cand_cont[jj, qq]
            if left_penalty > 0:
                tot -= left_penalty * k_colour_counts(chd, cnts)
            if cd == fol and values[p] > tot:
                tot = values[p]
                rll = cont_len[p] - 1
                for qq in range(rll):
                    cand_cont[jj, qq] = conts[p, qq + 1]
            cand_parent[jj] = p
            cand_move[jj] = cd
            cand_value[jj] = tot
            cand_score[jj] = sv
            cand_cont_len[jj] = rll
            jj += 1
    counters[0] += nc
    # the best playout of the level (the first in state order among equals)
    for p in range(nb):
        j = top_child[p]
        if j >= 0 and top_value[p] > best[0]:
            rl = top_len[p]
            best[0] = top_value[p]
            best[1] = level + 1 + rl
            for q in range(level):
                best_path[q] = paths[p, q]
            best_path[level] = cand_move[j]
            for q in range(rl):
                best_path[level + 1 + q] = top_cont[p, q]
    # best value first; among equal values the higher score so far (then the first found)
    key = np.empty(nc, np.float64)
    for j in range(nc):
        key[j] = -(cand_value[j] * 65536.0 + cand_score[j])
    order = np.argsort(key, kind="mergesort")
    tsize = 1
    while tsize < 2 * nc:
        tsize *= 2
    table = np.zeros(tsize, np.uint64)
    used = np.zeros(tsize, np.bool_)
    mark, sc, sh = k_scratch(grids[0])
    k = 0
    for oi in range(nc):
        j = order[oi]
        hsh = cand_hash[j]
        slot = np.int64(hsh & np.uint64(tsize - 1))
        dup = False
        while used[slot]:
            if table[slot] == hsh:
                dup = True
                break
            slot = (slot + 1) & (tsize - 1)
        if dup:
            continue
        used[slot] = True
        table[slot] = hsh
        p = cand_parent[j]
        new_grids[k, :, :] = grids[p]
        code = cand_move[j]
        k_click_with(new_grids[k], code // H, code % H, mark, sc, sh)
        new_scores[k] = cand_score[j]
        for q in range(level):
            new_paths[k, q] = paths[p, q]
        new_paths[k, level] = code
        cl = cand_cont_len[j]
        for q in range(cl):
            new_conts[k, q] = cand_cont[j, q]
        new_cont_len[k] = cl
        new_values[k] = cand_value[j]
        k += 1
        if k >= width:
            if oi + 1 < nc:
                counters[1] = 1
            break
    return k


@njit(cache=True)
def k_score_bound(grid: np.ndarray, counts: np.ndarray) -> int:
    """An upper bound on the score still to be made from ``grid``: every colour removed as
    one group, sum of ``(count - 2)^2``, plus the clear bonus unless some colour has a lone
    block. Valid because splitting a colour never pays: for a, b >= 2,
    ``(a + b - 2)^2 >= (a - 2)^2 + (b - 2)^2``, and leaving blocks only loses.
    ``counts`` (N_COLOURS entries) is scratch."""
    k_colour_counts(grid, counts)
    ub = 0
    lone = False
    for k in range(N_COLOURS):
        n = counts[k]
        if n == 1:
            lone = True
        elif n > 2:
            ub += (n - 2) * (n - 2)
    return ub if lone else ub + 1000


@njit(cache=True)
def k_endgame(grid: np.ndarray, target: int, max_nodes: int, zobrist: np.ndarray,
              tt_key: np.ndarray, tt_val: np.ndarray, path: np.ndarray,
              stats: np.ndarray) -> int:
    """The best score still to be made from ``grid``, by depth-first branch and bound, if
    it beats ``target``: returns it and writes its clicks to ``path[:stats[1]]``; returns
    ``target`` (``stats[1] = 0``) when nothing beats it.

    A node is cut when its score so far plus an upper bound on the rest is <= the best
    total known (initially ``target``): the bound is :func:`k_score_bound`, or a tighter one
    from the transposition table (``tt_key`` / ``tt_val``, a power-of-two size, Zobrist
    keys; it stores for a searched board the maximum over its clicks of the click's score
    plus the child's bound, a valid bound whatever cut the child). Bounds depend on the
    board only, so the table may be kept between calls. Largest groups are tried first.
    ``stats[0]`` counts the nodes; ``stats[2]`` is set to 1 when ``max_nodes`` stopped the
    search (the result is then not proved optimal).
    """
    W, H = grid.shape
    N = W * H
    D = N // 2 + 2
    grids = np.empty((D, W, H), np.int8)
    mcs = np.empty((D, N), np.int64)
    mhs = np.empty((D, N), np.int64)
    msz = np.empty((D, N), np.int64)
    bcol = np.empty(N, np.int64)
    nmv = np.zeros(D, np.int64)
    mi = np.zeros(D, np.int64)
    gsc = np.zeros(D, np.int64)  # score so far at each depth
    mvs = np.zeros(D, np.int64)  # score of the click that led to each depth
    ubs = np.zeros(D, np.int64)  # bound being built at each depth
    hs = np.zeros(D, np.uint64)
    cur = np.zeros(D, np.int16)
    counts = np.zeros(N_COLOURS, np.int64)
    mark, sc, sh = k_scratch(grid)
    mask = tt_key.shape[0] - 1
    best = target
    stats[1] = 0
    stats[2] = 0
    grids[0] = grid
    d = 0
    gsc[0] = 0
    entering = True
    child_bound = 0
    while True:
        if entering:
            # enter the node at depth d: leave child_bound set and entering False when it
            # is settled without expansion (cut, table, end of game)
            stats[0] += 1
            g = grids[d]
            ub = k_score_bound(g, counts)
            settled = False
            if gsc[d] + ub <= best:
                child_bound = ub
                settled = True
            if not settled:
                hsh = k_hash(g, zobrist)
                hs[d] = hsh
                slot = np.int64(hsh & np.uint64(mask))
                for _ in range(4):
                    if hsh == 0:  # the empty board: keys 0 mark free slots
                        break
                    if tt_key[slot] == hsh:
                        if tt_val[slot] < ub:
                            ub = tt_val[slot]
                        break
                    slot = (slot + 1) & mask
                if gsc[d] + ub <= best:
                    child_bound = ub
                    settled = True
            if not settled:
                m = k_moves_with(g, mcs[d], mhs[d], msz[d], bcol, mark, sc, sh)
                if m == 0:
                    end = 1000 if g[0, 0] < 0 else 0
                    if gsc[d] + end > best:
                        best = gsc[d] + end
                        stats[1] = d
                        for q in range(d):
                            path[q] = cur[q]
                    child_bound = end
                    settled = True
                else:
                    sort_rows(msz[d], mcs[d], mhs[d], m, True)     # largest groups first
                    nmv[d] = m
                    mi[d] = 0
                    ubs[d] = -1
            entering = False
            if settled:
                if d == 0:
                    break
                d -= 1
                v = mvs[d + 1] + child_bound
                if v > ubs[d]:
                    ubs[d] = v
                continue
        if stats[0] >= max_nodes:
            stats[2] = 1
            break
        if mi[d] < nmv[d]:
            i = mi[d]
            mi[d] += 1
            grids[d + 1] = grids[d]
            n = k_click_with(grids[d + 1], mcs[d, i], mhs[d, i], mark, sc, sh)
            mvs[d + 1] = (n - 2) * (n - 2)
            gsc[d + 1] = gsc[d] + mvs[d + 1]
            cur[d] = mcs[d, i] * H + mhs[d, i]
            d += 1
            entering = True
            continue
        # every click of the node at depth d is done: store its bound, return to the parent
        hsh = hs[d]
        slot = np.int64(hsh & np.uint64(mask))
        for _ in range(4):
            if tt_key[slot] == hsh or tt_key[slot] == 0:
                break
            slot = (slot + 1) & mask
        tt_key[slot] = hsh
        tt_val[slot] = ubs[d]
        if d == 0:
            break
        child_bound = ubs[d]
        d -= 1
        v = mvs[d + 1] + child_bound
        if v > ubs[d]:
            ubs[d] = v
    return best
