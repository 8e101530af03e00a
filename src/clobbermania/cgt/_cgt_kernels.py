"""Numba kernels for :mod:`clobbermania.cgt.game`: comparison and canonical simplification
on the hash-consed game table, mirrored into flat arrays.

The table (kept in step with ``game.py``'s lists by ``game._tab_push``):

* ``tab[g]`` = (left start, left count, right start, right count, kind, ups, nim, 0), the
  options of game ``g`` being ``opts[start:start + count]``; kind 0 is a general game,
  1 a number, 2 a number-up-star ``x + u.^ + *n`` that is not a number;
* ``xs[g]`` = the number part x of a number-up-star as a float (``game.py`` uses these
  kernels only while every such x is exactly a float, so float comparison is exact).

Comparison ``le(g, h)`` is the recursive definition (``G <= H`` iff no ``G^L >= H`` and no
``H^R <= G``; Conway, *ONAG* ch. 1; Siegel, *CGT* II.1) with the number avoidance theorem
(a number's own options need not be tried against a non-number) and the closed form of
number-up-star comparisons (Siegel II.4), memoised in an open-addressing hash table
``mkeys``/``mvals`` keyed by ``g << 32 | h``. The table stops taking new entries at 3/4 full
(results stay exact, only slower); ``game.py`` grows it between calls.

:func:`simplify` is the loop of canonical simplification (Siegel II.2): remove dominated
options, bypass reversible ones (Left's A with some ``A^R <= G`` is replaced by the left
options of that ``A^R``; Right's mirror), until neither applies. Comparisons of the
not-yet-canonical ``G = {GL | GR}`` with table games use the definition directly, memoised
per round (an array indexed by game, stamped with the round). :func:`simplify_many` runs
it over a batch of games in one call; :func:`sum_get` reads the sums game.py has found
(with ``game._NEG``, the negatives), so that a caller can assemble options in a kernel.
Recursions run on explicit stacks: numba cannot cache recursive functions (numba issue
6061: the cached code crashes). ``tests/cgt/test_kernels.py`` holds every kernel equal to
the plain Python definitions in ``game.py`` on random games.

>>> from clobbermania.cgt import Game
>>> Game.from_options(["^", "*"], ["v", "*"]).compare("{^,*|v,*}")
'='
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._bits import mix64

EMPTY = np.int64(-1)


@njit(cache=True, inline="always")
def _slot(key, mask):
    return np.int64(mix64(np.uint64(key)) & np.uint64(mask))


@njit(cache=True, inline="always")
def _place(keys, key):
    """The slot of ``key`` in the open-addressing table ``keys``, or of the free slot where
    it would go (the tables are never full)."""
    mask = keys.shape[0] - 1
    i = _slot(key, mask)
    while keys[i] != EMPTY and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _memo_get(mkeys, mvals, key):
    """-1 when absent, else 0/1 (also the lookup of the sums table)."""
    i = _place(mkeys, key)
    return np.int64(-1) if mkeys[i] == EMPTY else np.int64(mvals[i])


@njit(cache=True)
def _memo_put(mkeys, mvals, mcount, key, value):
    if mcount[0] * 4 >= mkeys.shape[0] * 3:
        return                      # full enough: stay exact, stop memoising
    i = _place(mkeys, key)
    if mkeys[i] == key:
        return
    mkeys[i] = key
    mvals[i] = value
    mcount[0] += 1


@njit(cache=True)
def rehash(mkeys, mvals, new_size):
    """A table of ``new_size`` slots (a power of two) holding the same entries (the memo
    and the sums tables)."""
    nk = np.full(new_size, EMPTY, np.int64)
    nv = np.zeros(new_size, mvals.dtype)
    for j in range(mkeys.shape[0]):
        if mkeys[j] != EMPTY:
            i = _place(nk, mkeys[j])
            nk[i] = mkeys[j]
            nv[i] = mvals[j]
    return nk, nv


@njit(cache=True)
def _nus_le(tab, xs, g, h):
    """x + u.^ + *n <= y + v.^ + *m (Siegel II.4)."""
    if xs[g] != xs[h]:
        return xs[g] < xs[h]
    a, b = tab[g, 5], tab[h, 5]
    if a < b - 1:
        return True
    if a == b - 1:
        return (tab[g, 6] ^ tab[h, 6]) != 1
    return a == b and tab[g, 6] == tab[h, 6]


@njit(cache=True)
def _quick(tab, xs, mkeys, mvals, a, b):
    """A <= B when known without search: 1 or 0, else -1."""
    if a == b:
        return 1
    if tab[a, 4] != 0 and tab[b, 4] != 0:
        return 1 if _nus_le(tab, xs, a, b) else 0
    return _memo_get(mkeys, mvals, (a << 32) | b)


@njit(cache=True)
def le(tab, xs, opts, mkeys, mvals, mcount, stack, g0, h0):
    """G <= H for canonical ids (see the module docstring).

    The recursion runs on ``stack`` (rows g, h, phase, next option index; as deep as
    birthday(G) + birthday(H) + 1), not on numba's call stack: numba cannot cache
    recursive functions."""
    q = _quick(tab, xs, mkeys, mvals, g0, h0)
    if q >= 0:
        return q == 1
    stack[0, 0] = g0
    stack[0, 1] = h0
    stack[0, 2] = 0
    stack[0, 3] = tab[g0, 0]
    sp = 1
    ret = -1
    while True:
        top = sp - 1
        g = stack[top, 0]
        h = stack[top, 1]
        phase = stack[top, 2]
        i = stack[top, 3]
        res = -1
        if ret == 1:
            res = 0                 # a child answered yes: some G^L >= H or H^R <= G
        ret = -1
        while res < 0:
            if phase == 0:          # no G^L >= H (skipped when G is a number)
                if tab[g, 4] == 1 or i >= tab[g, 0] + tab[g, 1]:
                    phase = 1
                    i = tab[h, 2]
                    continue
                a = h
                b = opts[i]
            else:                   # no H^R <= G (skipped when H is a number)
                if tab[h, 4] == 1 or i >= tab[h, 2] + tab[h, 3]:
                    res = 1
                    break
                a = opts[i]
                b = g
            i += 1
            q = _quick(tab, xs, mkeys, mvals, a, b)
            if q == 1:
                res = 0
            elif q < 0:
                stack[top, 2] = phase
                stack[top, 3] = i
                stack[sp, 0] = a
                stack[sp, 1] = b
                stack[sp, 2] = 0
                stack[sp, 3] = tab[a, 0]
                sp += 1
                break
        if res < 0:
            continue                # descended into a child
        _memo_put(mkeys, mvals, mcount, (g << 32) | h, res)
        sp -= 1
        if sp == 0:
            return res == 1
        ret = res


@njit(cache=True)
def _raw(which0, x0, GL, GR, stamp, rstamp, rval, rstack,
         tab, xs, opts, mkeys, mvals, mcount, stack):
    """which = 0: X <= G; which = 1: G <= X, for G = {GL | GR} not yet canonical.

    Answers are memoised in ``rstamp``/``rval`` at ``2 x + which`` under the round's
    ``stamp``; the recursion runs on ``rstack`` (rows which, x, phase, index)."""
    k0 = x0 * 2 + which0
    if rstamp[k0] == stamp:
        return rval[k0] == 1
    rstack[0, 0] = which0
    rstack[0, 1] = x0
    rstack[0, 2] = 0
    rstack[0, 3] = 0
    sp = 1
    ret = -1
    while True:
        top = sp - 1
        which = rstack[top, 0]
        x = rstack[top, 1]
        phase = rstack[top, 2]
        i = rstack[top, 3]
        res = -1
        if ret == 1:
            res = 0
        ret = -1
        while res < 0:
            child = -1
            if which == 0:          # X <= G: no X^L with G <= X^L, no G^R <= X
                if phase == 0:
                    if i >= tab[x, 1]:
                        phase = 1
                        i = 0
                        continue
                    child = opts[tab[x, 0] + i] * 2 + 1
                    i += 1
                else:
                    if i >= GR.shape[0]:
                        res = 1
                        break
                    if le(tab, xs, opts, mkeys, mvals, mcount, stack, GR[i], x):
                        res = 0
                    i += 1
            else:                   # G <= X: no G^L >= X, no X^R with X^R <= G
                if phase == 0:
                    if i >= GL.shape[0]:
                        phase = 1
                        i = 0
                        continue
                    if le(tab, xs, opts, mkeys, mvals, mcount, stack, x, GL[i]):
                        res = 0
                    i += 1
                else:
                    if i >= tab[x, 3]:
                        res = 1
                        break
                    child = opts[tab[x, 2] + i] * 2
                    i += 1
            if child >= 0:
                if rstamp[child] == stamp:
                    if rval[child] == 1:
                        res = 0
                else:
                    rstack[top, 2] = phase
                    rstack[top, 3] = i
                    rstack[sp, 0] = child & 1
                    rstack[sp, 1] = child >> 1
                    rstack[sp, 2] = 0
                    rstack[sp, 3] = 0
                    sp += 1
                    break
        if res < 0:
            continue
        k = x * 2 + which
        rstamp[k] = stamp
        rval[k] = res
        sp -= 1
        if sp == 0:
            return res == 1
        ret = res


@njit(cache=True)
def _undominated(a, left, tab, xs, opts, mkeys, mvals, mcount, stack):
    """The options of ``a`` (distinct ids) not dominated by another: for Left those not
    <= another, for Right those not >= another (one pass: a newcomer is dropped if a kept
    option dominates it, else it evicts the kept options it dominates)."""
    n = a.shape[0]
    kept = np.empty(n, np.int64)
    nk = 0
    for j in range(n):
        x = a[j]
        dominated = False
        for i in range(nk):
            y = kept[i]
            if left:
                d = le(tab, xs, opts, mkeys, mvals, mcount, stack, x, y)
            else:
                d = le(tab, xs, opts, mkeys, mvals, mcount, stack, y, x)
            if d:
                dominated = True
                break
        if dominated:
            continue
        m = 0
        for i in range(nk):
            y = kept[i]
            if left:
                d = le(tab, xs, opts, mkeys, mvals, mcount, stack, y, x)
            else:
                d = le(tab, xs, opts, mkeys, mvals, mcount, stack, x, y)
            if not d:
                kept[m] = y
                m += 1
        kept[m] = x
        nk = m + 1
    return kept[:nk].copy()


@njit(cache=True)
def _bypass(side, GL, GR, stamp, rstamp, rval, rstack, tab, xs, opts, mkeys, mvals, mcount,
            stack):
    """Side 0: Left's options with each reversible A (some A^R <= G) replaced by the left
    options of that A^R; side 1: Right's mirror (some B^L >= G: B^LR replace B). Returns
    (options, whether any was reversible)."""
    own = GL if side == 0 else GR
    back = 2 if side == 0 else 0          # the columns of the reversing options...
    fwd = 0 if side == 0 else 2           # ...and of the options that replace them
    rev = np.full(own.shape[0], -1, np.int64)
    total = 0
    for j in range(own.shape[0]):
        a = own[j]
        s = tab[a, back]
        total += 1
        for i in range(s, s + tab[a, back + 1]):
            if _raw(side, opts[i], GL, GR, stamp, rstamp, rval, rstack,
                    tab, xs, opts, mkeys, mvals, mcount, stack):
                rev[j] = opts[i]
                total += tab[opts[i], fwd + 1] - 1
                break
    out = np.empty(total, np.int64)
    p = 0
    changed = False
    for j in range(own.shape[0]):
        r = rev[j]
        if r < 0:
            out[p] = own[j]
            p += 1
        else:
            changed = True
            t = tab[r, fwd]
            for i in range(t, t + tab[r, fwd + 1]):
                out[p] = opts[i]
                p += 1
    return out, changed


@njit(cache=True)
def sorted_distinct(a):
    """The distinct values of ``a``, ascending (insertion sort: option lists are short, and
    ``np.unique`` costs about 1 us a call here, half of all simplification time)."""
    out = a.copy()
    n = 0
    for j in range(out.shape[0]):
        x = out[j]
        i = n
        while i > 0 and out[i - 1] > x:
            i -= 1
        if i > 0 and out[i - 1] == x:
            continue
        for k in range(n, i, -1):
            out[k] = out[k - 1]
        out[i] = x
        n += 1
    return out[:n]


@njit(cache=True)
def simplify(L, R, tab, xs, opts, mkeys, mvals, mcount, stack, rstack, rstamp, rval, stampbox):
    """The canonical option sets of {L | R} (canonical ids), as two sorted arrays:
    dominated options removed and reversible ones bypassed until neither applies."""
    Ls = sorted_distinct(L)
    Rs = sorted_distinct(R)
    while True:
        GL = _undominated(Ls, True, tab, xs, opts, mkeys, mvals, mcount, stack)
        GR = _undominated(Rs, False, tab, xs, opts, mkeys, mvals, mcount, stack)
        stampbox[0] += 1                  # a new G: forget the last round's comparisons
        stamp = stampbox[0]
        newL, cl = _bypass(0, GL, GR, stamp, rstamp, rval, rstack,
                           tab, xs, opts, mkeys, mvals, mcount, stack)
        newR, cr = _bypass(1, GL, GR, stamp, rstamp, rval, rstack,
                           tab, xs, opts, mkeys, mvals, mcount, stack)
        if not (cl or cr):
            return sorted_distinct(GL), sorted_distinct(GR)
        Ls = sorted_distinct(newL)
        Rs = sorted_distinct(newR)


# --- many games at once: sums and negatives known to game.py, and batch simplification ---
# ``neg[g]`` is the id of -G once game.py has it (else -1); sums G + H (g <= h) found so far
# are in the open-addressing table ``skeys``/``svals`` (key g << 32 | h, -1 empty).

@njit(cache=True)
def sum_get(skeys, svals, g, h):
    """The id of G + H when known, else -1."""
    if g > h:
        g, h = h, g
    return _memo_get(skeys, svals, (g << 32) | h)


@njit(cache=True)
def sum_put(skeys, svals, g, h, value):
    """Enter G + H = value (the caller keeps the table at most half full)."""
    if g > h:
        g, h = h, g
    key = (g << 32) | h
    i = _place(skeys, key)
    skeys[i] = key
    svals[i] = value


sum_rehash = rehash


# --- the intern table, mirrored: canonical option lists -> id --------------------------
# ``ikeys[i]`` = a hash of a game's sorted left and right option lists (-1 empty), ``ivals[i]``
# its id; a hit is confirmed against the game's options in ``tab``/``opts``.

@njit(cache=True)
def _options_hash(L, R):
    k = np.uint64(0x243F6A8885A308D3)
    for x in L:
        k = mix64(k ^ np.uint64(x))
    k = mix64(k ^ np.uint64(0xFFFFFFFF))          # the bar between the sides
    for x in R:
        k = mix64(k ^ np.uint64(x))
    return np.int64(k & np.uint64(0x7FFFFFFFFFFFFFFF))


@njit(cache=True)
def _same_options(tab, opts, g, L, R):
    if tab[g, 1] != L.shape[0] or tab[g, 3] != R.shape[0]:
        return False
    s = tab[g, 0]
    for i in range(L.shape[0]):
        if opts[s + i] != L[i]:
            return False
    s = tab[g, 2]
    for i in range(R.shape[0]):
        if opts[s + i] != R[i]:
            return False
    return True


@njit(cache=True)
def intern_get(tab, opts, ikeys, ivals, L, R):
    """The id of the game with sorted option lists L and R, or -1 if none yet."""
    key = _options_hash(L, R)
    mask = ikeys.shape[0] - 1
    i = _slot(key, mask)
    while ikeys[i] != EMPTY:
        if ikeys[i] == key and _same_options(tab, opts, ivals[i], L, R):
            return ivals[i]
        i = (i + 1) & mask
    return np.int64(-1)


@njit(cache=True)
def intern_put(tab, opts, ikeys, ivals, lo, hi):
    """Enter games lo..hi-1 of the table (the caller keeps it at most half full)."""
    mask = ikeys.shape[0] - 1
    for g in range(lo, hi):
        L = opts[tab[g, 0]:tab[g, 0] + tab[g, 1]]
        R = opts[tab[g, 2]:tab[g, 2] + tab[g, 3]]
        key = _options_hash(L, R)
        i = _slot(key, mask)
        while ikeys[i] != EMPTY:
            i = (i + 1) & mask
        ikeys[i] = key
        ivals[i] = g


@njit(cache=True)
def simplify_many(todo, ls, lopts, rs, ropts, tab, xs, opts, mkeys, mvals, mcount, stack,
                  rstack, rstamp, rval, stampbox, ikeys, ivals):
    """:func:`simplify` of the games j with todo[j] != 0, game j having the options
    lopts[ls[j]:ls[j+1]] and ropts[rs[j]:rs[j+1]]. Returns (flag, cls, copts, crs, cropts):
    flag[j] = 2 for a game not done, 1 when all of game j's options are numbers (left to
    the caller: the simplest number between, or a switch), 3 + id when its canonical form
    is already in the table (``ikeys``/``ivals``), else 0 and its canonical options are
    copts[cls[j]:cls[j+1]] and cropts[crs[j]:crs[j+1]] (a new game for the caller to
    intern)."""
    m = ls.shape[0] - 1
    flag = np.zeros(m, np.int64)
    cls = np.zeros(m + 1, np.int64)
    crs = np.zeros(m + 1, np.int64)
    copts = np.empty(lopts.shape[0], np.int64)
    cropts = np.empty(ropts.shape[0], np.int64)
    nl = 0
    nr = 0
    for j in range(m):
        L = lopts[ls[j]:ls[j + 1]]
        R = ropts[rs[j]:rs[j + 1]]
        if todo[j] == 0:
            flag[j] = 2
            cls[j + 1] = nl
            crs[j + 1] = nr
            continue
        numbers = True
        for x in L:
            if tab[x, 4] != 1:
                numbers = False
                break
        if numbers:
            for x in R:
                if tab[x, 4] != 1:
                    numbers = False
                    break
        if numbers:
            flag[j] = 1
        else:
            GL, GR = simplify(L, R, tab, xs, opts, mkeys, mvals, mcount, stack, rstack,
                              rstamp, rval, stampbox)
            g = intern_get(tab, opts, ikeys, ivals, GL, GR)
            if g >= 0:
                flag[j] = 3 + g
                cls[j + 1] = nl
                crs[j + 1] = nr
                continue
            if nl + GL.shape[0] > copts.shape[0]:
                bigger = np.empty(2 * copts.shape[0] + GL.shape[0], np.int64)
                bigger[:nl] = copts[:nl]
                copts = bigger
            if nr + GR.shape[0] > cropts.shape[0]:
                bigger = np.empty(2 * cropts.shape[0] + GR.shape[0], np.int64)
                bigger[:nr] = cropts[:nr]
                cropts = bigger
            copts[nl:nl + GL.shape[0]] = GL
            cropts[nr:nr + GR.shape[0]] = GR
            nl += GL.shape[0]
            nr += GR.shape[0]
        cls[j + 1] = nl
        crs[j + 1] = nr
    return flag, cls, copts[:nl], crs, cropts[:nr]
