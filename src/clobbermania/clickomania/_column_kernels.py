"""Numba kernels of one-column Clickomania (:mod:`.column` explains the algorithms).

A puzzle is given in run-length form: ``col[i]`` and ``mult[i]`` are the colour and the
number of blocks of run (group) ``i``, ``0 <= i < n``, and adjacent runs differ in colour.

The grammar DP that :mod:`.column` uses keeps one bit row per start run
(:func:`k_clearable_rows`): ``R[i]`` bit j when runs ``i..j`` can be cleared, ``CH[i]``
bit k when runs i and k can meet (a chain of runs of one colour with clearable gaps).

The cell-by-cell CYK form (:func:`k_clearable_table`, kept as the cross-check) uses
(``w = 64`` bits a word, ``nw`` words a row):

- ``A[i]`` has bit ``k+1`` set when runs ``i..k`` can be cleared (the table is shifted so
  that a split test is a plain AND);
- ``B[j]`` has bit ``p`` set when runs ``p..j`` can be cleared;
- ``Bm[j]`` is ``B[j]`` shifted down one bit (bit ``p-1`` for ``p..j``), for the
  three-run rule;
- ``cm[c]`` has bit ``k`` set when run ``k`` has colour ``c``.

Beware numba's typing: mixing uint64 with a signed integer gives float64, so every
constant that meets a bitset is a ``np.uint64``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._bits import ALL, U0, U1, bit_index

U63 = np.uint64(63)


@njit(cache=True)
def _above(b):
    """The word mask of the bits above bit ``b`` (0..63) of a word."""
    return (ALL << (np.uint64(b) & U63)) << U1


@njit(cache=True)
def _bit(bits, row, pos):
    return (bits[row, pos >> 6] >> (np.uint64(pos) & U63)) & U1 != U0


@njit(cache=True)
def _set(bits, row, pos):
    bits[row, pos >> 6] |= U1 << (np.uint64(pos) & U63)


@njit(cache=True)
def k_clearable_table(col, mult, ncolors):
    """The tables ``(A, B, Bm, cm)`` of every clearable interval of runs.

    Interval ``i..j`` is clearable when one of the grammar's rules applies (run level):
    ``i == j`` and ``mult[i] >= 2``; ``col[i] == col[j]`` and ``i+1..j-1`` clearable
    (cSc); ``col[i] == col[k] == col[j]`` with ``i+1..k-1`` and ``k+1..j-1`` clearable
    (cScSc); or a split ``i..p-1``, ``p..j`` into two clearable parts (SS). Intervals
    are filled by decreasing ``i`` and increasing ``j``, so every table bit a rule reads
    is final; each rule is an AND of two or three table rows over the words the
    interval spans: O(n^3 / w) word operations in all.
    """
    n = col.shape[0]
    nw = (n + 1) // 64 + 1
    A = np.zeros((n + 1, nw), np.uint64)
    B = np.zeros((max(n, 1), nw), np.uint64)
    Bm = np.zeros((max(n, 1), nw), np.uint64)
    cm = np.zeros((max(ncolors, 1), nw), np.uint64)
    for k in range(n):
        _set(cm, col[k], k)
    for i in range(n - 1, -1, -1):
        ci = col[i]
        for j in range(i, n):
            ok = False
            if i == j:
                ok = mult[i] >= 2
            else:
                if ci == col[j]:
                    # cSc: the inner part i+1..j-1 (never empty: adjacent runs differ)
                    if _bit(A, i + 1, j):
                        ok = True
                    elif j - i >= 4:
                        # cScSc: A[i+1] bit k <=> i+1..k-1 clearable, Bm[j-1] bit k <=>
                        # k+1..j-1 clearable, cm[ci] bit k <=> run k has colour ci
                        for w in range((i + 2) >> 6, ((j - 2) >> 6) + 1):
                            if A[i + 1, w] & Bm[j - 1, w] & cm[ci, w]:
                                ok = True
                                break
                if not ok:
                    # SS: A[i] bit p <=> i..p-1 clearable, B[j] bit p <=> p..j clearable;
                    # only bits p in i+1..j are set yet in both rows
                    for w in range((i + 1) >> 6, (j >> 6) + 1):
                        if A[i, w] & B[j, w]:
                            ok = True
                            break
            if ok:
                _set(A, i, j + 1)
                _set(B, j, i)
                if i >= 1:
                    _set(Bm, j, i - 1)
    return A, B, Bm, cm


@njit(cache=True)
def k_clearable(A, i, j):
    """True when runs ``i..j`` can be cleared (an empty interval, ``i > j``, can)."""
    if i > j:
        return True
    return _bit(A, i, j + 1)


@njit(cache=True)
def k_optimize(mult, B):
    """The most blocks removable from the runs ``0..t-1`` for every t.

    ``best[t]`` is the best total of disjoint clearable intervals inside the first t runs
    and ``choice[t]`` the start of the interval ending at run t-1 in an optimum, or -1
    when run t-1 is kept. Every clearable interval ending at ``j`` is a set bit of
    ``B[j]``: O(n^2) in all.
    """
    n = mult.shape[0]
    pre = np.zeros(n + 1, np.int64)
    for i in range(n):
        pre[i + 1] = pre[i] + mult[i]
    best = np.zeros(n + 1, np.int64)
    choice = np.full(n + 1, -1, np.int64)
    for j in range(n):
        best[j + 1] = best[j]
        for w in range((j >> 6) + 1):
            x = B[j, w]
            while x != U0:
                i = w * 64 + bit_index(x)
                x &= x - U1
                v = best[i] + pre[j + 1] - pre[i]
                if v > best[j + 1]:
                    best[j + 1] = v
                    choice[j + 1] = i
    return best, choice


@njit(cache=True)
def k_derive(col, A, B, Bm, cm, seg_lo, seg_hi, grp):
    """Group the runs of the clearable intervals ``seg_lo[s]..seg_hi[s]`` by a derivation.

    Writes ``grp[r]`` = the group of run r (runs outside the intervals are left as they
    are) and returns the number of groups. A group is a set of runs of one colour that
    one click removes once everything between them is gone: a single run (S -> run of
    two or more), the two ends of cSc, or the three c's of cScSc; SS only splits.
    """
    n = col.shape[0]
    si = np.empty(2 * n + 2, np.int64)
    sj = np.empty(2 * n + 2, np.int64)
    sp = 0
    for s in range(seg_lo.shape[0]):
        si[sp] = seg_lo[s]
        sj[sp] = seg_hi[s]
        sp += 1
    g = 0
    while sp > 0:
        sp -= 1
        i = si[sp]
        j = sj[sp]
        if i > j:
            continue
        if i == j:
            grp[i] = g
            g += 1
            continue
        c = col[i]
        if c == col[j]:
            if k_clearable(A, i + 1, j - 1):
                grp[i] = g
                grp[j] = g
                g += 1
                si[sp] = i + 1
                sj[sp] = j - 1
                sp += 1
                continue
            k = -1
            if j - i >= 4:
                for w in range((i + 2) >> 6, ((j - 2) >> 6) + 1):
                    x = A[i + 1, w] & Bm[j - 1, w] & cm[c, w]
                    if x != U0:
                        k = w * 64 + bit_index(x)
                        break
            if k >= 0:
                grp[i] = g
                grp[k] = g
                grp[j] = g
                g += 1
                si[sp] = i + 1
                sj[sp] = k - 1
                si[sp + 1] = k + 1
                sj[sp + 1] = j - 1
                sp += 2
                continue
        p = -1
        for w in range((i + 1) >> 6, (j >> 6) + 1):
            x = A[i, w] & B[j, w]
            if x != U0:
                p = w * 64 + bit_index(x)
                break
        if p < 0:
            raise ValueError("k_derive: interval is not clearable")
        si[sp] = i
        sj[sp] = p - 1
        si[sp + 1] = p
        sj[sp + 1] = j
        sp += 2
    return g


# -- playing a plan -----------------------------------------------------------------------
@njit(cache=True)
def _rfind(par, x):
    while par[x] != x:
        par[x] = par[par[x]]
        x = par[x]
    return x


@njit(cache=True)
def _fen_add(fen, i, v):
    i += 1
    while i < fen.shape[0]:
        fen[i] += v
        i += i & (-i)


@njit(cache=True)
def _fen_prefix(fen, i):
    """Sum of the first i entries."""
    s = 0
    while i > 0:
        s += fen[i]
        i -= i & (-i)
    return s


@njit(cache=True)
def k_execute(col, mult, grp, ngroups):
    """Play a plan: the clicks that remove every group of ``grp`` (-1 = a kept run).

    The runs are a linked list of current runs (merged original runs, union-find); a
    group is ready when all its runs have merged into one current run, that is when
    everything between them is gone. When a click makes two current runs of different
    groups meet (same colour), they are one run from then on, so their groups are united
    (a kept run that meets a planned group is removed with it: more blocks, never fewer;
    two kept runs stay kept). Every planned run is removed: in a laminar plan the
    innermost group left is always ready.

    Returns ``(first, size, nclicks)``: for each click, the index of the clicked run's
    first block in the string as it stands (internal order) and the number of blocks it
    removes.
    """
    n = col.shape[0]
    par = np.arange(n)
    rsize = mult.copy()
    prv = np.arange(-1, n - 1)
    nxt = np.arange(1, n + 1)
    if n > 0:
        nxt[n - 1] = -1
    gone = np.zeros(n, np.bool_)
    fen = np.zeros(n + 1, np.int64)
    for i in range(n):
        _fen_add(fen, i, mult[i])
    # member lists of current runs, to clear their blocks from the Fenwick tree
    mnext = np.full(n, -1, np.int64)
    mtail = np.arange(n)
    # groups: planned ones 0..ngroups-1, kept runs get ngroups + r
    ng = ngroups + n
    gpar = np.arange(ng)
    gcnt = np.zeros(ng, np.int64)
    gkept = np.zeros(ng, np.bool_)
    grun = np.full(ng, -1, np.int64)
    rgrp = np.empty(n, np.int64)
    for r in range(n):
        g = grp[r]
        if g < 0:
            g = ngroups + r
            gkept[g] = True
        rgrp[r] = g
        gcnt[g] += 1
        grun[g] = r
    stack = np.empty(ng + n + 1, np.int64)
    sp = 0
    for g in range(ngroups):
        if gcnt[g] == 1:
            stack[sp] = g
            sp += 1
    first = np.empty(n, np.int64)
    size = np.empty(n, np.int64)
    nclicks = 0
    while sp > 0:
        sp -= 1
        g = stack[sp]
        if gpar[g] != g or gkept[g] or gcnt[g] != 1:
            continue
        r = _rfind(par, grun[g])
        if gone[r]:
            continue
        first[nclicks] = _fen_prefix(fen, r)
        size[nclicks] = rsize[r]
        nclicks += 1
        gcnt[g] = 0
        gone[r] = True
        m = r
        while m != -1:
            _fen_add(fen, m, -mult[m])
            m = mnext[m]
        left = prv[r]
        right = nxt[r]
        if left != -1:
            nxt[left] = right
        if right != -1:
            prv[right] = left
        if left != -1 and right != -1 and col[left] == col[right]:
            # the two neighbours meet: one current run (root: left, the earlier one)
            par[right] = left
            rsize[left] += rsize[right]
            mnext[mtail[left]] = right
            mtail[left] = mtail[right]
            nxt[left] = nxt[right]
            if nxt[right] != -1:
                prv[nxt[right]] = left
            gl = _rfind(gpar, rgrp[left])
            gr = _rfind(gpar, rgrp[right])
            if gl == gr:
                gcnt[gl] -= 1
            else:
                gpar[gr] = gl
                gcnt[gl] += gcnt[gr] - 1
                gkept[gl] = gkept[gl] and gkept[gr]
                if grun[gl] < 0:
                    grun[gl] = grun[gr]
            rgrp[left] = gl
            if gcnt[gl] == 1 and not gkept[gl]:
                stack[sp] = gl
                sp += 1
    return first[:nclicks], size[:nclicks], nclicks


# -- two colours (Biedl et al., Theorems 10 and 12) ---------------------------------------
@njit(cache=True)
def k_big_neighbours(mult):
    """``prev[c]``: the last run before c with two or more blocks (-1 if none);
    ``nxt[c]``: the first such run after c (n if none)."""
    n = mult.shape[0]
    prev = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    last = -1
    for c in range(n):
        prev[c] = last
        if mult[c] >= 2:
            last = c
    last = n
    for c in range(n - 1, -1, -1):
        nxt[c] = last
        if mult[c] >= 2:
            last = c
    return prev, nxt


@njit(cache=True)
def k_two_odd(mult, prev, nxt, i, j):
    """Whether the odd interval of runs ``i..j`` (two colours) can be cleared: its median
    run ``c`` has two or more blocks, or the nearest such runs ``p < c < q`` around it
    satisfy ``q - p <= (j - i) / 2`` (then both lie inside the interval)."""
    c = (i + j) // 2
    if mult[c] >= 2:
        return True
    p = prev[c]
    q = nxt[c]
    n = mult.shape[0]
    return p >= 0 and q < n and q - p <= (j - i) // 2


@njit(cache=True)
def k_two_split(mult, prev, nxt, i, j):
    """For an even interval ``i..j``: the first run ``s`` of a second part such that
    ``i..s-1`` and ``s..j`` are both clearable odd intervals, or -1. A scan over the
    split points, O(1) each."""
    for s in range(i + 1, j + 1, 2):
        if k_two_odd(mult, prev, nxt, i, s - 1) and k_two_odd(mult, prev, nxt, s, j):
            return s
    return -1


@njit(cache=True)
def k_two_solvable(mult):
    """Theorem 10 / 12 decision for two colours: -2 when the runs cannot be cleared,
    -1 when they can as one odd interval, else the split point of an even count."""
    n = mult.shape[0]
    if n == 0:
        return -1
    prev, nxt = k_big_neighbours(mult)
    if n % 2 == 1:
        return -1 if k_two_odd(mult, prev, nxt, 0, n - 1) else -2
    s = k_two_split(mult, prev, nxt, 0, n - 1)
    return s if s >= 0 else -2


@njit(cache=True)
def k_two_plan(mult, prev, nxt, i, j, grp, g):
    """Group the runs of a clearable odd interval ``i..j`` (two colours) by the median
    strategy; returns the next free group id.

    Median ``c`` with two or more blocks: click it, then the run its two neighbours
    merge into, and so on outwards: groups {c}, {c-1, c+1}, ..., {i, j}. Otherwise, with
    ``p = c - a`` and ``q = c + b`` the nearest big runs (``a + b <= (j-i)/2``): b clicks
    on the left big run and the runs it merges into (groups {p}, {p-1, p+1}, ...,
    {p-b+1, p+b-1}), each moving the median one run right, until q is the median; then
    outwards from q, where the b-th left merge {p-b, p+b} counts as one run.
    """
    c = (i + j) // 2
    if mult[c] >= 2:
        for d in range((j - i) // 2 + 1):
            grp[c - d] = g
            grp[c + d] = g
            g += 1
        return g
    p = prev[c]
    q = nxt[c]
    b = q - c
    for d in range(b):
        grp[p - d] = g
        grp[p + d] = g
        g += 1
    # the string now: i..p-b-1, M = {p-b, p+b}, p+b+1..q-1, q, q+1..j (q the median)
    grp[q] = g
    g += 1
    left = q - 1
    for d in range(1, j - q + 1):
        if left == p + b:
            grp[p + b] = g
            grp[p - b] = g
            left = p - b - 1
        else:
            grp[left] = g
            left -= 1
        grp[q + d] = g
        g += 1
    return g


@njit(cache=True)
def k_two_optimize(mult):
    """The most blocks removable (two colours): the best total of disjoint clearable odd
    intervals (an even clearable interval is two odd ones side by side), each tested in
    O(1) by :func:`k_two_odd`; O(n^2) time, O(n) memory. Returns ``(best, choice)`` as
    :func:`k_optimize` does."""
    n = mult.shape[0]
    prev, nxt = k_big_neighbours(mult)
    pre = np.zeros(n + 1, np.int64)
    for i in range(n):
        pre[i + 1] = pre[i] + mult[i]
    best = np.zeros(n + 1, np.int64)
    choice = np.full(n + 1, -1, np.int64)
    for j in range(n):
        best[j + 1] = best[j]
        for i in range(j, -1, -2):
            if k_two_odd(mult, prev, nxt, i, j):
                v = best[i] + pre[j + 1] - pre[i]
                if v > best[j + 1]:
                    best[j + 1] = v
                    choice[j + 1] = i
    return best, choice


@njit(cache=True)
def _sp_append(sp, f, i):
    """Append index i to the sparse table of its parity class (argmin of f on windows
    ending at i's compressed position)."""
    par = i & 1
    k = i >> 1
    sp[par, 0, k] = i
    lev = 1
    while lev < sp.shape[1] and k - (1 << lev) + 1 >= 0:
        a = sp[par, lev - 1, k]
        b = sp[par, lev - 1, k - (1 << (lev - 1))]
        sp[par, lev, k] = a if f[a] <= f[b] else b
        lev += 1


@njit(cache=True)
def _sp_query(sp, f, lg, par, k1, k2):
    """Index of the least f over the compressed positions k1..k2 of parity class par."""
    lev = lg[k2 - k1 + 1]
    a = sp[par, lev, k2]
    b = sp[par, lev, k1 + (1 << lev) - 1]
    return a if f[a] <= f[b] else b


@njit(cache=True)
def k_two_min_kept(mult):
    """The fewest runs left (two colours), with ``choice`` as in :func:`k_optimize`:
    ``f[t]`` is the fewest runs left uncovered in the first t runs by disjoint clearable
    odd intervals. O(n log n).

    Covering the most blocks is covering all but the fewest runs (a cover that leaves a
    run of two or more can cover it alone), so ``f`` answers the optimization. For run j,
    the odd interval ``2c-j..j`` centred at ``c`` is clearable when c is big or
    ``nxt[c] - prev[c] <= j - c``. Going left from the last big run ``P <= j``, every
    centre down to ``ceil(j/2)`` qualifies except, in a gap (p, q) between consecutive
    big runs with ``q <= j`` and ``g = q - p > j - q + 1`` (a *blocking* gap), the
    centres ``j-g+1 .. q-1``; and nothing before the first big run. Each blocking gap is
    longer than everything between it and j, so there are O(log n) of them: the best
    ``f[i]`` over the allowed centres is O(log n) range minima, each O(1) by a sparse
    table per parity of i (``i = 2c - j`` has the parity of j) that grows as f does.
    """
    n = mult.shape[0]
    prev, nxt = k_big_neighbours(mult)
    first_big = nxt[0] if n > 0 and mult[0] < 2 else 0
    levels = 1
    while (1 << levels) <= n // 2 + 1:
        levels += 1
    sp = np.zeros((2, levels, n // 2 + 2), np.int32)
    lg = np.zeros(n + 2, np.int64)
    for x in range(2, n + 2):
        lg[x] = lg[x >> 1] + 1
    f = np.zeros(n + 1, np.int64)
    choice = np.full(n + 1, -1, np.int64)
    _sp_append(sp, f, 0)
    bp = np.empty(n + 1, np.int64)  # blocking gaps (p, q), in increasing q
    bq = np.empty(n + 1, np.int64)
    nb = 0
    last_big = -1
    for j in range(n):
        if mult[j] >= 2:
            if last_big >= 0 and j - last_big >= 2:
                bp[nb] = last_big
                bq[nb] = j
                nb += 1
            last_big = j
        # gaps fully qualified from now on (every centre) stop blocking
        m = 0
        for t in range(nb):
            g = bq[t] - bp[t]
            if bq[t] - 1 + g > j:
                bp[m] = bp[t]
                bq[m] = bq[t]
                m += 1
        nb = m
        best = f[j] + 1
        arg = -1
        P = last_big
        lo = max((j + 1) // 2, first_big)
        par = j & 1
        half = (j + par) // 2
        hi = P
        t = nb - 1
        while hi >= lo:
            # the next blocking gap left of hi, if any
            while t >= 0 and bq[t] - 1 > hi:
                # its excluded centres lie right of hi: only possible when they were cut
                t -= 1
            if t >= 0:
                g = bq[t] - bp[t]
                ex_lo = j - g + 1
                ex_hi = bq[t] - 1
                c1 = max(ex_hi + 1, lo)
                t -= 1
            else:
                ex_lo = lo
                c1 = lo
            if c1 <= hi:
                i = _sp_query(sp, f, lg, par, c1 - half, hi - half)
                if f[i] < best:
                    best = f[i]
                    arg = i
            hi = ex_lo - 1
        f[j + 1] = best
        choice[j + 1] = arg
        _sp_append(sp, f, j + 1)
    return f, choice


# -- the grammar DP by rows (the one column.py uses) ----------------------------------------
@njit(cache=True)
def _pair_ends(R, cm, c, i, out):
    """``out`` = the runs k >= i+2 of colour c with ``i+1..k-1`` clearable: row i+1 of R
    shifted up one bit, masked by colour c."""
    nw = out.shape[0]
    for w in range(nw):
        out[w] = U0
    for w in range((i + 1) >> 6, nw):
        x = R[i + 1, w] << U1
        if w > 0:
            x |= R[i + 1, w - 1] >> U63
        out[w] = x & cm[c, w]


@njit(cache=True)
def k_clearable_rows(col, mult, ncolors):
    """``(R, CH, cm)``: ``R[i]`` has bit j set when runs ``i..j`` can be cleared, ``CH[i]``
    bit k when runs i and k (same colour) can be brought together with everything between
    them cleared, possibly through other runs of that colour (a *chain*).

    Every clearable ``i..j`` starts with the *group block* of run i: the runs ``i..k``
    where k is the last run of the group that removes run i; the rest ``k+1..j`` is
    clearable. A group block is run i alone (two or more blocks) or a chain ``i -> m ->
    ... -> k`` of runs of colour ``c_i`` whose gaps are clearable (cSc is one hop, cScSc
    two; longer chains are harmless). So, by decreasing i,

    - ``H_i`` = {k : c_k = c_i, i+1..k-1 clearable} = (R[i+1] << 1) & colour mask,
    - ``CH[i]`` = H_i and the chains of its members, ``R[i]`` = the union over the group
      block ends k of {k} and ``R[k+1]``.

    Both unions skip a member already reached (if ``i..k`` is already clearable, then
    ``R[k+1]`` is already inside ``R[i]``; likewise for chains), which keeps a typical
    row to a few OR's of O(n / w) words. Worst case O(n^3 / w) like the cell-by-cell
    table (:func:`k_clearable_table`, kept as the cross-check), O(n^2 / w) words.
    """
    n = col.shape[0]
    nw = (n + 1) // 64 + 1
    R = np.zeros((n + 1, nw), np.uint64)
    CH = np.zeros((n + 1, nw), np.uint64)
    cm = np.zeros((max(ncolors, 1), nw), np.uint64)
    for k in range(n):
        _set(cm, col[k], k)
    h = np.zeros(nw, np.uint64)
    reach = np.zeros(nw, np.uint64)
    for i in range(n - 1, -1, -1):
        w0 = i >> 6
        _pair_ends(R, cm, col[i], i, h)
        for w in range(w0, nw):
            reach[w] = U0
        # only members not reached yet are visited (x is recomputed after each union)
        for w in range(w0, nw):
            x = h[w] & ~reach[w]
            while x != U0:
                b = bit_index(x)
                m = w * 64 + b
                for v in range(m >> 6, nw):
                    reach[v] |= CH[m, v]
                x = h[w] & ~reach[w] & _above(b)
        for w in range(w0, nw):
            CH[i, w] = h[w] | reach[w]
        # the group block ends, ascending: i itself when it is big, then the chain ends
        if mult[i] >= 2:
            _set(R, i, i)
            for v in range(w0, nw):
                R[i, v] |= R[i + 1, v]
        for w in range(w0, nw):
            x = CH[i, w] & ~R[i, w]
            while x != U0:
                k = w * 64 + bit_index(x)
                _set(R, i, k)
                for v in range((k + 1) >> 6, nw):
                    R[i, v] |= R[k + 1, v]
                x = CH[i, w] & ~R[i, w]
    return R, CH, cm


@njit(cache=True)
def k_optimize_rows(mult, R):
    """:func:`k_optimize` on the rows of :func:`k_clearable_rows`, forward: when the
    prefix of i runs is final, every clearable ``i..j`` (a set bit of ``R[i]``) offers
    ``best[i] + size(i..j)`` to ``best[j+1]``. O(n^2 / w + number of clearable
    intervals)."""
    n = mult.shape[0]
    pre = np.zeros(n + 1, np.int64)
    for i in range(n):
        pre[i + 1] = pre[i] + mult[i]
    best = np.full(n + 1, -1, np.int64)
    best[0] = 0
    choice = np.full(n + 1, -1, np.int64)
    for i in range(n):
        if best[i] > best[i + 1]:
            best[i + 1] = best[i]
            choice[i + 1] = -1
        for w in range(i >> 6, R.shape[1]):
            x = R[i, w]
            while x != U0:
                j = w * 64 + bit_index(x)
                x &= x - U1
                v = best[i] + pre[j + 1] - pre[i]
                if v > best[j + 1]:
                    best[j + 1] = v
                    choice[j + 1] = i
    return best, choice


@njit(cache=True)
def k_derive_rows(col, mult, R, CH, cm, seg_lo, seg_hi, grp):
    """:func:`k_derive` on the rows of :func:`k_clearable_rows`: split each clearable
    interval into the group block of its first run and a clearable rest, and a chain
    block into its hops (each gap a clearable interval); returns the number of groups."""
    n = col.shape[0]
    nw = R.shape[1]
    si = np.empty(2 * n + 2, np.int64)
    sj = np.empty(2 * n + 2, np.int64)
    h = np.zeros(nw, np.uint64)
    sp = 0
    for s in range(seg_lo.shape[0]):
        si[sp] = seg_lo[s]
        sj[sp] = seg_hi[s]
        sp += 1
    g = 0
    while sp > 0:
        sp -= 1
        i = si[sp]
        j = sj[sp]
        if i > j:
            continue
        # the end k of the group block of run i: k == j, or k+1..j clearable
        k = -1
        if mult[i] >= 2 and (i == j or _bit(R, i + 1, j)):
            k = i
        else:
            for w in range(i >> 6, (j >> 6) + 1):
                x = CH[i, w]
                while x != U0 and k < 0:
                    kk = w * 64 + bit_index(x)
                    x &= x - U1
                    if kk > j:
                        break
                    if kk == j or _bit(R, kk + 1, j):
                        k = kk
                if k >= 0:
                    break
        if k < 0:
            raise ValueError("k_derive_rows: interval is not clearable")
        if k < j:
            si[sp] = k + 1
            sj[sp] = j
            sp += 1
        grp[i] = g
        cur = i
        c = col[i]
        while cur != k:
            if k >= cur + 2 and col[k] == c and _bit(R, cur + 1, k - 1):
                nxt = k
            else:
                _pair_ends(R, cm, c, cur, h)
                nxt = -1
                for w in range((cur + 2) >> 6, (k >> 6) + 1):
                    x = h[w]
                    while x != U0:
                        m = w * 64 + bit_index(x)
                        x &= x - U1
                        if m < k and _bit(CH, m, k):
                            nxt = m
                            break
                    if nxt >= 0:
                        break
                if nxt < 0:
                    raise ValueError("k_derive_rows: broken chain")
            si[sp] = cur + 1
            sj[sp] = nxt - 1
            sp += 1
            grp[nxt] = g
            cur = nxt
        g += 1
    return g
