"""Numba kernel of :mod:`clobbermania.clobber.families`: Grundy values of the shapes of a
repeated pattern, by dynamic programming over lengths.

A *shape* row is ``t = (fl, a, fr)`` at length ``L``: the substring of the infinite word
``P P P ...`` that starts at phase ``a``, with its first stone's colour flipped when ``fl``
is 1 and its last stone's colour flipped when ``fr`` is 1 (see the module docstring of
``families``). Row ``t`` of ``G`` holds the values of that type at every length; lengths 0
and 1 are 0 (no move). Every option of a shape is the XOR of two shorter shapes, so one
pass over increasing ``L`` fills the table.

The option pairs come in *families*: all cuts at gaps of one phase give pairs
``G[tl, m] ^ G[tr, L - 1 - m]`` for ``m`` in an arithmetic progression of step ``p``. The
inner loop ORs ``1 << x`` into a 64-bit mask (values below 64, the common case; it is a
plain reduction that the compiler can vectorise) and falls back to a marks array when a
larger value shows up.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _families(col, p, tindex, fl, a, fr, L, both, fam):
    """Write the option families of shape (fl, a, fr) at length L into ``fam`` (rows of
    tl, tr, start, stop); return how many. ``both`` False: the shape is its own mirror
    image, so the left-moving captures mirror the right-moving ones and are skipped."""
    k = 0
    for r in range(p):
        if col[(a + r) % p] == col[(a + r + 1) % p]:
            continue
        j0 = r if r >= 1 else p            # interior gaps only: 1 <= j <= L - 3
        if j0 > L - 3:
            continue
        # stone j captures j + 1: left piece s[0..j-1], right piece flip(s[j+1]) s[j+2..]
        fam[k, 0] = tindex[fl, a, 0]
        fam[k, 1] = tindex[1, (a + r + 1) % p, fr]
        fam[k, 2] = j0
        fam[k, 3] = L - 2
        k += 1
        if both:
            # stone j + 1 captures j: left piece s[0..j-1] flip(s[j]), right s[j+2..]
            fam[k, 0] = tindex[fl, a, 1]
            fam[k, 1] = tindex[0, (a + r + 2) % p, fr]
            fam[k, 2] = j0 + 1
            fam[k, 3] = L - 1
            k += 1
    # the end gaps, where a flipped end stone decides whether there is a move
    if L >= 2:
        c0 = col[a] ^ fl
        c1 = col[(a + 1) % p] ^ (fr if L == 2 else 0)
        if c0 != c1:
            fam[k, 0] = tindex[fl, a, 0]
            fam[k, 1] = tindex[1, (a + 1) % p, fr]
            fam[k, 2] = 0
            fam[k, 3] = 1
            k += 1
            if both:
                fam[k, 0] = tindex[fl, a, 1]
                fam[k, 1] = tindex[0, (a + 2) % p, fr]
                fam[k, 2] = 1
                fam[k, 3] = 2
                k += 1
    if L >= 3:
        c = (a + L - 2) % p
        c0 = col[c]
        c1 = col[(c + 1) % p] ^ fr
        if c0 != c1:
            fam[k, 0] = tindex[fl, a, 0]
            fam[k, 1] = tindex[1, (c + 1) % p, fr]
            fam[k, 2] = L - 2
            fam[k, 3] = L - 1
            k += 1
            if both:
                fam[k, 0] = tindex[fl, a, 1]
                fam[k, 1] = tindex[0, (c + 2) % p, fr]
                fam[k, 2] = L - 1
                fam[k, 3] = L
                k += 1
    return k


@njit(cache=True)
def _mark_family(left, right, start, stop, step, total, seen):
    # plain stores, no read-modify-write chain: one option per cycle or so
    for m in range(start, stop, step):
        seen[left[m] ^ right[total - m]] = 1


@njit(cache=True)
def fill_shapes(G, col, tindex, tfl, ta, tfr, src, selfsym, need, L_start, L_stop, top):
    """Fill ``G[:, L]`` for ``L_start <= L < L_stop`` (all shorter lengths already filled).

    ``need[t, L % p]``: compute this type at this length class (it is in the closed set);
    ``src[t, L % p] >= 0``: the shape equals type ``src`` at the same length after a colour
    swap and/or a reversal, so its value is copied; ``selfsym[t, L % p]``: the shape is its
    own mirror image. ``top`` is the largest value in the table so far; returns the new
    largest value.
    """
    p = col.shape[0]
    nt = G.shape[0]
    fam = np.empty((4 * p + 8, 4), dtype=np.int64)
    # marks of the option values: XORs of values below 2^k stay below 2^k
    seen = np.zeros(1 << 17, dtype=np.uint8)
    for L in range(L_start, L_stop):
        rho = L % p
        size = 64
        while size <= top:
            size *= 2
        for t in range(nt):
            if not need[t, rho]:
                continue
            s = src[t, rho]
            if s >= 0:
                G[t, L] = G[s, L]
                continue
            k = _families(col, p, tindex, tfl[t], ta[t], tfr[t], L, not selfsym[t, rho], fam)
            seen[:size] = 0
            for i in range(k):
                step = p if fam[i, 3] - fam[i, 2] > 1 else 1
                _mark_family(G[fam[i, 0]], G[fam[i, 1]], fam[i, 2], fam[i, 3], step, L - 1,
                             seen)
            g = 0
            while seen[g]:
                g += 1
            G[t, L] = g
            if g > top:
                top = g
    return top
