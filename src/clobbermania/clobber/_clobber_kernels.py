"""Numba kernels for Clobber values on grids: a part as an h x w bitboard (h * w <= 63).

Square (r, c) of the part's bounding box is bit ``r * w + c``; ``b`` and ``wm`` are the
black and white stones. :func:`part_options` lists every option of a part (Black's, then
White's), each option split into its connected parts, cropped and put in canonical form
(:func:`canonical`: the least (h, w, black, white) among the 8 symmetries of the box and
their colour swaps, with a flag when the least is a swapped image, whose value is the
negative). The moves are those of the reference generator
(:meth:`clobbermania.stones.Position.moves`); ``tests/test_clobber_values.py`` holds the
kernel's options equal to it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_CELLS = 63   # the bits of a non-negative int64


@njit(cache=True)
def _image(h, w, b, wm, t):
    """(H, W, b', w') of the part under symmetry t (0-3 keep the box, 4-7 transpose)."""
    if t < 4:
        H, W = h, w
    else:
        H, W = w, h
    ob = np.int64(0)
    ow = np.int64(0)
    stones = b | wm
    for r in range(h):
        for c in range(w):
            bit = np.int64(1) << (r * w + c)
            if stones & bit:
                if t == 0:
                    rr, cc = r, c
                elif t == 1:
                    rr, cc = r, w - 1 - c
                elif t == 2:
                    rr, cc = h - 1 - r, c
                elif t == 3:
                    rr, cc = h - 1 - r, w - 1 - c
                elif t == 4:
                    rr, cc = c, r
                elif t == 5:
                    rr, cc = c, h - 1 - r
                elif t == 6:
                    rr, cc = w - 1 - c, r
                else:
                    rr, cc = w - 1 - c, h - 1 - r
                j = np.int64(1) << (rr * W + cc)
                if b & bit:
                    ob |= j
                else:
                    ow |= j
    return H, W, ob, ow


@njit(cache=True)
def _less(h1, w1, b1, x1, h2, w2, b2, x2):
    if h1 != h2:
        return h1 < h2
    if w1 != w2:
        return w1 < w2
    if b1 != b2:
        return b1 < b2
    return x1 < x2


@njit(cache=True)
def canonical(h, w, b, wm):
    """(H, W, black, white, negated) of the least image of the part (see the module)."""
    bh, bw, bb, bx, neg = h, w, b, wm, False
    first = True
    for t in range(8):
        H, W, ob, ow = _image(h, w, b, wm, t)
        if first or _less(H, W, ob, ow, bh, bw, bb, bx):
            bh, bw, bb, bx, neg = H, W, ob, ow, False
            first = False
        if _less(H, W, ow, ob, bh, bw, bb, bx):
            bh, bw, bb, bx, neg = H, W, ow, ob, True
    return bh, bw, bb, bx, neg


@njit(cache=True)
def _crop(h, w, b, wm):
    """The part cut down to its bounding box: (H, W, b', w')."""
    stones = b | wm
    r0, r1, c0, c1 = h, -1, w, -1
    for r in range(h):
        for c in range(w):
            if stones & (np.int64(1) << (r * w + c)):
                r0 = min(r0, r)
                r1 = max(r1, r)
                c0 = min(c0, c)
                c1 = max(c1, c)
    H, W = r1 - r0 + 1, c1 - c0 + 1
    ob = np.int64(0)
    ow = np.int64(0)
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            bit = np.int64(1) << (r * w + c)
            j = np.int64(1) << ((r - r0) * W + (c - c0))
            if b & bit:
                ob |= j
            elif wm & bit:
                ow |= j
    return H, W, ob, ow


@njit(cache=True)
def _col_masks(h, w):
    not_first = np.int64(0)
    not_last = np.int64(0)
    for r in range(h):
        for c in range(w):
            bit = np.int64(1) << (r * w + c)
            if c > 0:
                not_first |= bit
            if c < w - 1:
                not_last |= bit
    return not_first, not_last


@njit(cache=True)
def part_options(h, w, b, wm):
    """Every option of the part, split and canonical.

    Returns (side, start, parts): option k is Black's when side[k] == 0, White's when 1;
    its parts are rows start[k]..start[k+1]-1 of ``parts`` (H, W, black, white, negated).
    Parts where nobody can ever move (one colour, or a lone stone) are left out.
    """
    not_first, not_last = _col_masks(h, w)
    n = h * w
    count = 0
    for i in range(n):
        bit = np.int64(1) << i
        if (b | wm) & bit:
            r, c = i // w, i % w
            theirs = wm if b & bit else b
            if r > 0 and theirs & (bit >> w):
                count += 1
            if r < h - 1 and theirs & (bit << w):
                count += 1
            if c > 0 and theirs & (bit >> 1):
                count += 1
            if c < w - 1 and theirs & (bit << 1):
                count += 1
    side = np.empty(count, np.int64)
    start = np.empty(count + 1, np.int64)
    parts = np.empty((4 * count + 1, 5), np.int64)
    k = 0
    p = 0
    for s in range(2):
        mine = b if s == 0 else wm
        theirs = wm if s == 0 else b
        for i in range(n):
            bit = np.int64(1) << i
            if not mine & bit:
                continue
            r, c = i // w, i % w
            for d in range(4):
                if d == 0:
                    if r == 0:
                        continue
                    j = i - w
                elif d == 1:
                    if c == 0:
                        continue
                    j = i - 1
                elif d == 2:
                    if c == w - 1:
                        continue
                    j = i + 1
                else:
                    if r == h - 1:
                        continue
                    j = i + w
                dbit = np.int64(1) << j
                if not theirs & dbit:
                    continue
                nm = (mine ^ bit) | dbit
                nt = theirs ^ dbit
                nb = nm if s == 0 else nt
                nw = nt if s == 0 else nm
                side[k] = s
                start[k] = p
                stones = nb | nw
                rest = stones
                while rest:
                    comp = rest & -rest
                    while True:
                        grow = comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) \
                            | (comp << w) | (comp >> w)
                        grow &= stones
                        if grow == comp:
                            break
                        comp = grow
                    rest ^= comp
                    if comp & nb and comp & nw:
                        H, W, cb, cw = _crop(h, w, nb & comp, nw & comp)
                        H, W, cb, cw, neg = canonical(H, W, cb, cw)
                        parts[p, 0] = H
                        parts[p, 1] = W
                        parts[p, 2] = cb
                        parts[p, 3] = cw
                        parts[p, 4] = 1 if neg else 0
                        p += 1
                k += 1
    start[k] = p
    return side, start, parts[:p]
