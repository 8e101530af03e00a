"""Numba kernels for two-player (partizan) Clobber on bitboards of up to 64 squares.

A state is the pair ``(me, opp)`` of uint64 stone masks, ``me`` being the stones of the
player to move: Clobber's rules do not depend on colour, so "Black to move on (b, w)" and
"White to move on (w, b)" are one state, and the transposition table is shared by both.
``nbr[v]`` is the neighbour mask of square v (from ``Board.adjacency_masks``).

The kernels are the fast twin of :meth:`clobbermania.stones.Position.moves` and are held
equal to it by property tests (tests/test_clobber_search.py):

- :func:`gen_moves` -- every move of the player to move, stone by stone in square order,
  each stone's targets in square order (the order of ``Position.moves``);
- :func:`perft` -- the number of move sequences of each length;
- :func:`solve` -- a negamax proof search (win/loss of the player to move) with a
  transposition table keyed by a canonical key (monochrome components removed, least
  image under the board's symmetries and, on grids, translation to the top-left corner),
  moves ordered by the opponent's replies (fewest first; a move leaving none wins at
  once), and a node budget so the Python side can check the clock between calls;
- :func:`reduce_parts` -- simplest-equal replacement of small parts: a part whose value
  a table (filled by the Python side from :mod:`.values`) knows to be 0, ``*``, ``^`` or
  ``v`` is replaced by the smallest part of that value (nothing, two stones, three in a
  chain) on its own squares, so that sums of parts meet in the table whatever their
  shapes, and :func:`simplify` cancels them in pairs;
- :func:`alphabeta` -- a depth-limited negamax on mobility, for the computer player.

Every search keeps its stack in arrays: numba's on-disk cache cannot hold recursive
functions (measured: a segfault on the second run with cached recursion).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._bits import GOLDEN, U0, U1, bit_index, least_image, mix64, popcount
from .._bits import symmetry_tables as symmetry_tables
from ..solitaire._kernels import apply_move, flood, generate_moves
from ..solitaire._kernels import count_moves as _count_moves

WIN = 1
LOSS = 2
ABORT = 3
#: Move buffers hold this many moves: a player has at most one move per edge, and the
#: Python side refuses boards of more edges (an 8x8 grid has 112).
MAXM = 256


@njit(cache=True, inline="always")
def gen_moves(me, opp, nbr, src, dst):
    """Write the moves of the player owning ``me`` into ``src``/``dst``; return the count
    (:func:`clobbermania.solitaire._kernels.generate_moves` with ``me`` as the side to
    move)."""
    return generate_moves(me, opp, 0, nbr, src, dst)


@njit(cache=True, inline="always")
def count_moves(me, opp, nbr):
    """The number of moves of the player owning ``me``."""
    return _count_moves(me, opp, 0, nbr)


@njit(cache=True, inline="always")
def _play(me, opp, s, t):
    """The state after the owner of ``me`` moves s -> t, seen by the opponent, who moves
    next: (its stones, the mover's stones)."""
    nme, nopp, _ = apply_move(me, opp, s, t)
    return nopp, nme


@njit(cache=True)
def _stack(depth):
    """An explicit search stack of ``depth`` levels (numba's cache cannot hold recursive
    functions): each level's moves (src, dst), their count and the next one to try, and
    its state (me, opp)."""
    return (np.empty((depth, MAXM), dtype=np.int64), np.empty((depth, MAXM), dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.uint64), np.zeros(depth, dtype=np.uint64))


@njit(cache=True)
def perft(me, opp, nbr, depth, budget):
    """counts[i] = the number of move sequences of length i + 1 (players alternating,
    the owner of ``me`` first); a sequence ends early when a player cannot move.
    ``budget[0]``: positions the search may expand; it stops (the counts incomplete) with
    ``budget[0] < 0`` when they run out. (Iterative: numba's cache cannot hold recursive
    functions.)"""
    counts = np.zeros(depth, dtype=np.int64)
    if depth == 0:
        return counts
    srcbuf, dstbuf, nmov, idx, smes, sopps = _stack(depth)
    smes[0] = me
    sopps[0] = opp
    nmov[0] = gen_moves(me, opp, nbr, srcbuf[0], dstbuf[0])
    counts[0] += nmov[0]
    level = 0
    if depth == 1:
        return counts
    while level >= 0:
        if idx[level] >= nmov[level]:
            level -= 1
            continue
        budget[0] -= 1
        if budget[0] < 0:
            return counts
        i = idx[level]
        idx[level] += 1
        nme, nopp = _play(smes[level], sopps[level], srcbuf[level, i], dstbuf[level, i])
        nl = level + 1
        if nl == depth - 1:
            # the last level: count the moves without generating them
            counts[nl] += count_moves(nme, nopp, nbr)
            continue
        smes[nl] = nme
        sopps[nl] = nopp
        nmov[nl] = gen_moves(nme, nopp, nbr, srcbuf[nl], dstbuf[nl])
        counts[nl] += nmov[nl]
        idx[nl] = 0
        level = nl
    return counts


# -- components and canonical keys ----------------------------------------------------------

@njit(cache=True)
def strip_dead(me, opp, nbr):
    """Remove every monochrome component: its stones can never move nor be taken (the
    occupied set only shrinks, so components never merge)."""
    occ = me | opp
    rem = occ
    keep = U0
    while rem:
        seed = rem & (~rem + U1)
        comp = flood(seed, occ, nbr)
        rem &= ~comp
        if (comp & me) != U0 and (comp & opp) != U0:
            keep |= comp
    return me & keep, opp & keep


@njit(cache=True, inline="always")
def _one_more_up(mine, theirs, comp):
    """A player's ^ part ``comp`` met while ``mine`` / ``theirs`` are the unmatched ^ parts
    of that player / the other (U0: none): it cancels theirs (^ + v = 0), or becomes the
    player's unmatched one, or (one is unmatched already) is kept. Returns (mine, theirs,
    stones to keep)."""
    if theirs != U0:
        return mine, U0, U0
    if mine == U0:
        return comp, theirs, U0
    return mine, theirs, comp


@njit(cache=True)
def simplify(me, opp, nbr):
    """:func:`strip_dead`, and then parts of two or three stones whose values cancel
    removed (see :func:`simplify_count`, which also counts the parts)."""
    me2, opp2, _ = simplify_count(me, opp, nbr)
    return me2, opp2


@njit(cache=True)
def simplify_count(me, opp, nbr):
    """(me, opp, live parts met): :func:`strip_dead`, and then parts of two or three
    stones whose values cancel removed (Albert, Grossman, Nowakowski, Wolfe 2005: a part's
    value depends on the part alone, and a sum with a 0 sub-sum has the same outcome):

    - ``*`` parts: two stones (one of each colour), or three where the lone stone of one
      colour touches both others (Left's and Right's every move leaves a dead pair:
      ``{0|0}``); ``* + * = 0``, so they go in pairs;
    - ``^`` parts: three stones in a chain, two of one colour with the lone stone of the
      other at an end (``xxo`` = ``{0|*}`` = ^ for the pair's owner, whatever the bend),
      or in a triangle (graph boards); one ^ of each player cancels (^ + v = 0).
    """
    occ = me | opp
    rem = occ
    keep = U0
    star = U0          # the stones of one unmatched * part
    up_me = U0         # of one unmatched ^ for the owner of `me`
    up_opp = U0
    live = 0
    while rem:
        seed = rem & (~rem + U1)
        comp = flood(seed, occ, nbr)
        rem &= ~comp
        cm = comp & me
        co = comp & opp
        if cm == U0 or co == U0:
            continue
        live += 1
        c = popcount(comp)
        if c == 2:
            if star == U0:
                star = comp
            else:
                star = U0
            continue
        if c == 3:
            lone = cm if popcount(cm) == 1 else co
            pair = comp & ~lone
            # the lone stone touches both and the pair does not touch (a triangle, on a
            # graph board, is ^ like a chain: Right's take leaves an adjacent pair, *)
            if nbr[bit_index(lone)] & pair == pair and \
                    nbr[bit_index(pair)] & pair == U0:
                if star == U0:
                    star = comp
                else:
                    star = U0
                continue
            if lone == co:     # two of `me` and one of `opp`: ^ for `me`
                up_me, up_opp, kept = _one_more_up(up_me, up_opp, comp)
            else:
                up_opp, up_me, kept = _one_more_up(up_opp, up_me, comp)
            keep |= kept
            continue
        keep |= comp
    keep |= star | up_me | up_opp
    return me & keep, opp & keep, live


@njit(cache=True)
def canonical(me, opp, syms, cols, row0):
    """The least (me, opp) image under the symmetries (``syms`` from
    :func:`clobbermania._bits.symmetry_tables`) and, when ``cols`` > 0 (a grid, ``row0``
    the mask of its first row), translation to the top-left corner
    (:func:`clobbermania._bits.least_image`; no colour swap: ``me`` moves next)."""
    return least_image(me, opp, syms, cols, row0, False)


@njit(cache=True, inline="always")
def _hash(a, b):
    # splitmix64 finaliser of a mix of both masks (see docs/architecture.md on why weak
    # hashes make whole buckets collide)
    return mix64(a * GOLDEN ^ (b + np.uint64(0x632BE59BD9B4E019)))


@njit(cache=True, inline="always")
def _tt_hash(a, b, g):
    # the value id mixed into the first mask (g = 0, no summed parts: the board's hash)
    return _hash(a ^ (np.uint64(g) * np.uint64(0xD6E8FEB86659FD93)), b)


@njit(cache=True)
def tt_lookup(tkey1, tkey2, tkeyg, tval, a, b, g):
    """The stored result of the node (board key (a, b), summed value id g), else 0."""
    h = _tt_hash(a, b, g)
    mask = np.uint64(tval.shape[0] - 1)
    i = np.int64(h & mask)
    j = i ^ 1
    if tval[i] != 0 and tkey1[i] == a and tkey2[i] == b and tkeyg[i] == g:
        return tval[i]
    if tval[j] != 0 and tkey1[j] == a and tkey2[j] == b and tkeyg[j] == g:
        return tval[j]
    return 0


@njit(cache=True)
def tt_store(tkey1, tkey2, tkeyg, tval, twork, a, b, g, val, work):
    h = _tt_hash(a, b, g)
    mask = np.uint64(tval.shape[0] - 1)
    i = np.int64(h & mask)
    j = i ^ 1
    # a bucket of two: overwrite the same key, else an empty slot, else the cheaper entry
    if tval[i] != 0 and tkey1[i] == a and tkey2[i] == b and tkeyg[i] == g:
        k = i
    elif tval[j] != 0 and tkey1[j] == a and tkey2[j] == b and tkeyg[j] == g:
        k = j
    elif tval[i] == 0:
        k = i
    elif tval[j] == 0:
        k = j
    elif twork[i] <= twork[j]:
        k = i
    else:
        k = j
    tkey1[k] = a
    tkey2[k] = b
    tkeyg[k] = g
    tval[k] = val
    twork[k] = work


# -- small parts as one summed value G, played in as a game ---------------------------------

#: The part table (pk1, pk2, pv) maps a part's key (least image, as :func:`canonical`;
#: its value taken with the owner of ``me`` as Left) to 2 + the engine's id of its value;
#: PART_EMPTY: a free slot, PART_PENDING: met, not yet valued (the Python side values the
#: parts listed in ``pend`` between kernel calls; a value it declines, too many options,
#: stays pending and its part stays on the board). The sum table (sk, sv) maps a pair of
#: ids to 2 + the id of their sum (pairs listed in ``spend``).
#:
#: The value tables, indexed by id (id 0 is the game 0; every id's negative and options
#: are registered with it): ``gneg[g]`` the id of -g; ``glo[gls[g] : gls[g] + glc[g]]``
#: the ids of -gL for Left's options gL of g (the value left for the opponent, who moves
#: next, seen as Left); ``lwin[g]`` 1 when Left moving first wins g.
PART_EMPTY = 0
PART_PENDING = 1


@njit(cache=True)
def part_slot(pk1, pk2, pv, a, b):
    """The slot of key (a, b) in a table (pk1, pk2, pv; size a power of two, open
    addressing): the slot holding it, else the empty slot where it would go. The Python
    side keeps the tables at most half full."""
    m = np.int64(pv.shape[0] - 1)
    i = np.int64(_hash(a, b) & np.uint64(m))
    while pv[i] != PART_EMPTY and not (pk1[i] == a and pk2[i] == b):
        i = (i + 1) & m
    return i


@njit(cache=True)
def part_put(pk1, pk2, pv, keys1, keys2, vals):
    """Store ``vals[i]`` under key ``(keys1[i], keys2[i])`` for each i."""
    for k in range(keys1.shape[0]):
        i = part_slot(pk1, pk2, pv, keys1[k], keys2[k])
        pk1[i] = keys1[k]
        pk2[i] = keys2[k]
        pv[i] = vals[k]


@njit(cache=True)
def _list_pending(k1, k2, vals, i, a, b, pend, pstat, which):
    """Mark slot ``i`` of a part or sum table pending under key (a, b) and list the key in
    ``pend`` for the Python side (``pstat[which]`` keys listed so far; none past its
    capacity: the key is asked again at a later node)."""
    n = pstat[which]
    if n < pend.shape[0]:
        k1[i] = a
        k2[i] = b
        vals[i] = PART_PENDING
        pend[n, 0] = a
        pend[n, 1] = b
        pstat[which] = n + 1


@njit(cache=True)
def _sum_id(g, h, sk1, sk2, sv, spend, pstat):
    """The id of g + h (0 + h is h) from the sum table, or -1 (the pair listed in
    ``spend`` when new)."""
    if g == 0:
        return h
    if h == 0:
        return g
    if g <= h:
        a, b = np.uint64(g), np.uint64(h)
    else:
        a, b = np.uint64(h), np.uint64(g)
    i = part_slot(sk1, sk2, sv, a, b)
    v = sv[i]
    if v >= 2:
        return np.int64(v - 2)
    if v == PART_EMPTY:
        _list_pending(sk1, sk2, sv, i, a, b, spend, pstat, 1)
    return np.int64(-1)


@njit(cache=True)
def fold_parts(me, opp, g, nbr, syms, cols, row0, pmax, pk1, pk2, pv, sk1, sk2, sv, pend,
               spend, pstat):
    """(me, opp, g): the position board (me, opp) + G (G the game of id g, the owner of
    ``me`` as Left) with every part of at most ``pmax`` stones whose value the part table
    knows taken off the board and added into G, when the sum table knows the sum. A part
    is a summand whose value alone counts (Albert, Grossman, Nowakowski, Wolfe 2005), and
    equal games are interchangeable in a sum, so the result has the value and outcome of
    the original; G in canonical form is the simplest game equal to the sum, and its
    options are undominated (dominance pruning for free). Unvalued parts and pairs are
    listed in ``pend`` / ``spend`` for the Python side (see :func:`_list_pending`)."""
    occ = me | opp
    rem = occ
    out = occ
    while rem:
        seed = rem & (~rem + U1)
        comp = flood(seed, occ, nbr)
        rem &= ~comp
        if popcount(comp) > pmax:
            continue
        a, b = canonical(comp & me, comp & opp, syms, cols, row0)
        i = part_slot(pk1, pk2, pv, a, b)
        v = pv[i]
        if v == PART_EMPTY:
            _list_pending(pk1, pk2, pv, i, a, b, pend, pstat, 0)
            continue
        if v == PART_PENDING:
            continue
        s = _sum_id(g, np.int64(v - 2), sk1, sk2, sv, spend, pstat)
        if s >= 0:
            g = s
            out &= ~comp
    return me & out, opp & out, g


# -- the proof search -------------------------------------------------------------------------


@njit(cache=True)
def _order(me, opp, nbr, src, dst, keys, order, nb, n, gextra, glc):
    """Write the n moves' search order into ``order`` (best first: fewest replies for the
    opponent; an insertion sort in place, as n is small and a node must not allocate);
    return the index of a move leaving the opponent without a move, else -1. Moves 0..nb-1
    are on the board, the rest in G (``src`` -1, ``dst`` the value left); ``gextra`` is
    the opponent's moves in G after a board move. (Both players have one board move per
    edge joining a black and a white stone, so "most moves for us" would break no tie: it
    is not counted.)

    A board move's reply count is updated from the nb edges joining the colours, not
    recounted: the move s -> d drops the edges of s to opp and of d to me (the edge s-d in
    both) and adds those of d, now ours, to the rest of opp."""
    for i in range(n):
        if i < nb:
            vs = src[i]
            vd = dst[i]
            d = U1 << np.uint64(vd)
            om = nb - popcount(nbr[vs] & opp) - popcount(nbr[vd] & me) + 1 \
                + popcount(nbr[vd] & opp & ~d) + gextra
        else:
            om = nb + glc[dst[i]]
        if om == 0:
            return i
        keys[i] = om
        # insert i among the sorted order[0:i] (stable: equal keys keep square order)
        j = i
        while j > 0 and keys[order[j - 1]] > om:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return -1


@njit(cache=True, inline="always")
def _child(me, opp, g, s, t, gneg):
    """The state after the owner of ``me`` plays move (s, t) (s -1: in G, to the value of
    id t), seen by the opponent."""
    if s < 0:
        return opp, me, t
    nme, nopp = _play(me, opp, s, t)
    return nme, nopp, gneg[g]


@njit(cache=True)
def _gen_all(me, opp, g, nbr, src, dst, gls, glc, glo):
    """The board moves and then the moves in G; returns (board moves, all moves)."""
    nb = gen_moves(me, opp, nbr, src, dst)
    m = glc[g]
    base = gls[g]
    for k in range(m):
        src[nb + k] = -1
        dst[nb + k] = glo[base + k]
    return nb, nb + m


@njit(cache=True)
def tt_rehash(k1, k2, kg, val, work, n1, n2, ng, nval, nwork):
    """Store every entry of the table (k1, k2, kg, val, work) into the empty larger table
    (n1, n2, ng, nval, nwork), by the usual replacement rule."""
    for i in range(val.shape[0]):
        if val[i] != 0:
            tt_store(n1, n2, ng, nval, nwork, k1[i], k2[i], kg[i], val[i], work[i])


#: Nodes of at least this many stones look their children up in the table before
#: searching any (enhanced transposition cutoff: a child already known lost wins at once);
#: on smaller nodes the look-ups cost more than the searches they save (5x5 start,
#: 2026-11-24, loaded machine: off 19.0M nodes 8.4 s CPU; 22: 18.7M 8.5 s; 18: 17.5M
#: 7.8 s; 12: 13.0M 10.2 s).
ETC_MIN_STONES = 18


@njit(cache=True)
def _enter(me, opp, g, fold, nbr, syms, cols, row0, pmax, pk1, pk2, pv, sk1, sk2, sv, pend,
           spend, pstat, lwin):
    """A node as the search keys it: simplified, its small parts folded into G (when
    ``fold``), then (me, opp, g, verdict): verdict WIN / LOSS when the board is empty (G's
    outcome decides), else 0."""
    me, opp, live = simplify_count(me, opp, nbr)
    if fold and pmax > 0 and (live >= 2 or g != 0):
        me, opp, g = fold_parts(me, opp, g, nbr, syms, cols, row0, pmax, pk1, pk2, pv,
                                sk1, sk2, sv, pend, spend, pstat)
    if me == U0:   # (no live part left: simplify removes the one-colour parts)
        return me, opp, g, WIN if lwin[g] == 1 else LOSS
    return me, opp, g, 0


@njit(cache=True)
def _known_lost_child(me, opp, g, nbr, syms, cols, row0, tkey1, tkey2, tkeyg, tval, src,
                      dst, order, n, pmax, pk1, pk2, pv, sk1, sk2, sv, pend, spend, pstat,
                      gneg, lwin):
    """The index of a move whose position the table already holds as lost for the
    opponent (keyed as :func:`solve` keys a node), else -1."""
    for k in range(n):
        i = order[k]
        cme, copp, cg = _child(me, opp, g, src[i], dst[i], gneg)
        cme, copp, cg, verdict = _enter(cme, copp, cg, True, nbr, syms, cols, row0, pmax,
                                        pk1, pk2, pv, sk1, sk2, sv, pend, spend, pstat, lwin)
        if verdict == LOSS:
            return i
        if verdict == 0:
            a, b = canonical(cme, copp, syms, cols, row0)
            if tt_lookup(tkey1, tkey2, tkeyg, tval, a, b, cg) == LOSS:
                return i
    return -1


@njit(cache=True)
def solve(me, opp, nbr, syms, cols, row0, tkey1, tkey2, tkeyg, tval, twork, stats, limit,
          pmax, pk1, pk2, pv, sk1, sk2, sv, pend, spend, pstat, gneg, gls, glc, glo, lwin):
    """WIN / LOSS for the owner of ``me`` to move, or ABORT once ``stats[0]`` (nodes, kept
    across calls) exceeds ``limit``.

    Below the root, the parts of at most ``pmax`` stones (0: none) whose values the part
    table knows are folded into one summed value G (:func:`fold_parts`), and a node is
    the board of the parts left plus G: the player to move plays on the board or in G (to
    one of G's canonical Left options, each listed in the value tables as the value left
    for the opponent; module notes above :data:`PART_EMPTY`); a node whose board is empty
    is decided by G's outcome. The transposition table (tkey1, tkey2, tkeyg, tval, twork;
    size a power of two; kept across calls, so a search resumed after ABORT redoes little)
    is keyed by the board's canonical key and G's id. ``stats[1]`` counts table hits; on a
    WIN found by search (not read from the table) ``stats[2]``, ``stats[3]`` are set to
    the square and target of the winning first move (else -1; the root is never folded,
    so its moves are all on the board). An explicit stack (numba's cache cannot hold
    recursive functions): level L holds a node, its moves in search order and the next one
    to try. A line is at most as deep as the root has stones: a board move takes a stone,
    a move in G lowers G's birthday, which is at most the stones folded into it."""
    depth = popcount(me | opp) + 2
    stats[2] = -1
    stats[3] = -1
    # move buffers are always written before they are read: no zeroing
    srcbuf, dstbuf, nmov, idx, smes, sopps = _stack(depth)
    keybuf = np.empty((depth, MAXM), dtype=np.int64)
    ordbuf = np.empty((depth, MAXM), dtype=np.int64)
    sgs = np.zeros(depth, dtype=np.int64)
    ka = np.zeros(depth, dtype=np.uint64)
    kb = np.zeros(depth, dtype=np.uint64)
    start = np.zeros(depth, dtype=np.int64)
    level = 0
    cme = me
    copp = opp
    cg = np.int64(0)
    entering = True
    result = 0
    while True:
        if entering:
            stats[0] += 1
            if stats[0] > limit:
                return ABORT
            # (the root is not folded: its winning move is named in its own squares; one
            # part alone gains nothing from its value that its search would not give)
            cme, copp, cg, verdict = _enter(cme, copp, cg, level > 0, nbr, syms, cols, row0,
                                            pmax, pk1, pk2, pv, sk1, sk2, sv, pend, spend,
                                            pstat, lwin)
            if verdict != 0:
                result = verdict
                entering = False
            else:
                a, b = canonical(cme, copp, syms, cols, row0)
                r = tt_lookup(tkey1, tkey2, tkeyg, tval, a, b, cg)
                if r != 0:
                    stats[1] += 1
                    result = r
                    entering = False
                else:
                    nb, n = _gen_all(cme, copp, cg, nbr, srcbuf[level], dstbuf[level],
                                     gls, glc, glo)
                    if n == 0:
                        tt_store(tkey1, tkey2, tkeyg, tval, twork, a, b, cg, LOSS, 1)
                        result = LOSS
                        entering = False
                    else:
                        immediate = _order(cme, copp, nbr, srcbuf[level], dstbuf[level],
                                           keybuf[level], ordbuf[level], nb, n,
                                           glc[gneg[cg]], glc)
                        if immediate < 0 and popcount(cme | copp) >= ETC_MIN_STONES:
                            immediate = _known_lost_child(
                                cme, copp, cg, nbr, syms, cols, row0, tkey1, tkey2, tkeyg,
                                tval, srcbuf[level], dstbuf[level], ordbuf[level], n, pmax,
                                pk1, pk2, pv, sk1, sk2, sv, pend, spend, pstat, gneg, lwin)
                        if immediate >= 0:
                            tt_store(tkey1, tkey2, tkeyg, tval, twork, a, b, cg, WIN, 1)
                            result = WIN
                            entering = False
                            if level == 0:
                                stats[2] = srcbuf[0, immediate]
                                stats[3] = dstbuf[0, immediate]
                        else:
                            nmov[level] = n
                            idx[level] = 0
                            smes[level] = cme
                            sopps[level] = copp
                            sgs[level] = cg
                            ka[level] = a
                            kb[level] = b
                            start[level] = stats[0]
                            # descend into the first move
                            i = ordbuf[level, 0]
                            cme, copp, cg = _child(cme, copp, cg, srcbuf[level, i],
                                                   dstbuf[level, i], gneg)
                            level += 1
                            continue
        # a result for the node at `level` has arrived: hand it to the parent
        if level == 0:
            return result
        level -= 1
        work = stats[0] - start[level] + 1
        if result == LOSS:  # the child loses: the parent wins
            tt_store(tkey1, tkey2, tkeyg, tval, twork, ka[level], kb[level], sgs[level], WIN,
                     work)
            if level == 0:
                i = ordbuf[0, idx[0]]
                stats[2] = srcbuf[0, i]
                stats[3] = dstbuf[0, i]
            result = WIN
            continue
        idx[level] += 1
        if idx[level] >= nmov[level]:
            tt_store(tkey1, tkey2, tkeyg, tval, twork, ka[level], kb[level], sgs[level], LOSS,
                     work)
            result = LOSS
            continue
        i = ordbuf[level, idx[level]]
        cme, copp, cg = _child(smes[level], sopps[level], sgs[level], srcbuf[level, i],
                               dstbuf[level, i], gneg)
        level += 1
        entering = True


# -- a depth-limited player for positions too big to solve in time ---------------------------

INF = 1 << 20


@njit(cache=True)
def alphabeta(me, opp, nbr, depth, alpha, beta, stats, limit):
    """Negamax alpha-beta score of the owner of ``me`` to move, ``depth`` plies deep:
    a player who cannot move scores -INF + (plies played), so later losses are preferred;
    at depth 0 the score is the mobility difference. Stops counting (scores meaningless)
    once ``stats[0]`` exceeds ``limit``. Iterative, like :func:`solve`."""
    D = depth + 1
    srcbuf, dstbuf, nmov, idx, smes, sopps = _stack(D)
    al = np.zeros(D, dtype=np.int64)
    be = np.zeros(D, dtype=np.int64)
    best = np.zeros(D, dtype=np.int64)
    level = 0
    cme = me
    copp = opp
    al[0] = alpha
    be[0] = beta
    entering = True
    value = 0
    while True:
        if entering:
            stats[0] += 1
            if stats[0] > limit:
                return 0
            n = gen_moves(cme, copp, nbr, srcbuf[level], dstbuf[level])
            if n == 0:
                value = -INF + level
            elif level == depth:
                value = n - count_moves(copp, cme, nbr)
            else:
                nmov[level] = n
                idx[level] = 0
                smes[level] = cme
                sopps[level] = copp
                best[level] = -INF - 1
                cme, copp = _play(cme, copp, srcbuf[level, 0], dstbuf[level, 0])
                al[level + 1] = -be[level]
                be[level + 1] = -al[level]
                level += 1
                continue
        if level == 0:
            return value
        level -= 1
        v = -value
        if v > best[level]:
            best[level] = v
        if best[level] > al[level]:
            al[level] = best[level]
        idx[level] += 1
        if al[level] >= be[level] or idx[level] >= nmov[level]:
            value = best[level]
            entering = False
            continue
        i = idx[level]
        cme, copp = _play(smes[level], sopps[level], srcbuf[level, i], dstbuf[level, i])
        al[level + 1] = -be[level]
        be[level + 1] = -al[level]
        level += 1
        entering = True


@njit(cache=True)
def root_scores(me, opp, nbr, depth, stats, limit, src, dst, n):
    """The alpha-beta score (depth ``depth`` below each) of each of the n root moves."""
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        cme, copp = _play(me, opp, src[i], dst[i])
        out[i] = -alphabeta(cme, copp, nbr, depth, -INF - 1, INF + 1, stats, limit)
    return out
