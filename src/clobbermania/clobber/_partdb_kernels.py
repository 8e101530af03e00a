"""Numba kernels of the part database (:mod:`clobbermania.clobber.partdb`).

A part is an h x w bitboard as in :mod:`._clobber_kernels` (square (r, c) is bit
``r * w + c``; ``b`` black, ``x`` white). Its stored key packs the canonical image into
one int64: ``h << 58 | w << 54 | stones << 12 | colours``, where ``stones = b | x`` and
bit j of ``colours`` is 1 when the j-th stone (in bit order) is black. That holds every
connected part of at most 12 squares (a box of at most 42 squares, 12 colour bits).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._clobber_kernels import _crop, canonical, known_get, part_options

#: The most squares a packed key holds (see the module docstring).
MAX_PACKED_SQUARES = 12


@njit(cache=True)
def pack(h, w, b, x):
    """The int64 key of the part (h, w, black b, white x) as it stands (no symmetry)."""
    stones = b | x
    colours = np.int64(0)
    j = 0
    m = stones
    while m:
        low = m & -m
        if b & low:
            colours |= np.int64(1) << j
        j += 1
        m ^= low
    return (np.int64(h) << 58) | (np.int64(w) << 54) | (stones << 12) | colours


@njit(cache=True)
def unpack(key):
    """(h, w, black, white) of a packed key (inverse of :func:`pack`)."""
    h = (key >> 58) & 15
    w = (key >> 54) & 15
    stones = (key >> 12) & ((np.int64(1) << 42) - 1)
    colours = key & 4095
    b = np.int64(0)
    j = 0
    m = stones
    while m:
        low = m & -m
        if (colours >> j) & 1:
            b |= low
        j += 1
        m ^= low
    return h, w, b, stones ^ b


@njit(cache=True)
def unpack_many(keys):
    """Rows (h, w, black, white) of packed keys."""
    out = np.empty((keys.shape[0], 4), np.int64)
    for i in range(keys.shape[0]):
        h, w, b, x = unpack(keys[i])
        out[i, 0] = h
        out[i, 1] = w
        out[i, 2] = b
        out[i, 3] = x
    return out


@njit(cache=True)
def canonical_keys(h, w, stones, n):
    """The packed canonical keys of every colouring of the shape ``stones`` (n squares in an
    h x w box) with both colours, duplicates included (colour swap and the box's symmetries
    map several colourings onto one key)."""
    cells = np.empty(n, np.int64)
    j = 0
    m = stones
    while m:
        low = m & -m
        cells[j] = low
        j += 1
        m ^= low
    top = (np.int64(1) << n) - 1
    out = np.empty(top - 1, np.int64)
    for c in range(1, top):
        b = np.int64(0)
        for k in range(n):
            if (c >> k) & 1:
                b |= cells[k]
        kh, kw, kb, kx, _ = canonical(h, w, b, stones ^ b)
        out[c - 1] = pack(kh, kw, kb, kx)
    return out


@njit(cache=True)
def list_options(keys, hkeys, hvals):
    """The options of the canonical parts ``keys`` (rows h, w, black, white), every part of
    every option already valued in the table ``hkeys``/``hvals`` (values.py's table of known
    parts), in the layout of :func:`._clobber_kernels.part_dag`: (missing, opt_start, side,
    ranges, refs) with refs rows (-id - 1, negated). ``missing`` is the number of option
    parts not found in the table (0 when the smaller sizes are complete); the options are
    :func:`part_options`, the one move generator of values.py."""
    m = keys.shape[0]
    opt_start = np.zeros(m + 1, np.int64)
    cap = 64 * m + 16
    side = np.empty(cap, np.int64)
    ranges = np.empty((cap, 2), np.int64)
    refs = np.empty((4 * cap, 2), np.int64)
    nopt = 0
    nref = 0
    missing = 0
    for i in range(m):
        opt_start[i] = nopt
        s, st, pr = part_options(keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3])
        k = s.shape[0]
        if nopt + k > side.shape[0]:
            grow = max(2 * side.shape[0], nopt + k)
            side2 = np.empty(grow, np.int64)
            side2[:nopt] = side[:nopt]
            side = side2
            ranges2 = np.empty((grow, 2), np.int64)
            ranges2[:nopt] = ranges[:nopt]
            ranges = ranges2
        if nref + pr.shape[0] > refs.shape[0]:
            refs2 = np.empty((max(2 * refs.shape[0], nref + pr.shape[0]), 2), np.int64)
            refs2[:nref] = refs[:nref]
            refs = refs2
        for o in range(k):
            side[nopt] = s[o]
            ranges[nopt, 0] = nref
            for r in range(st[o], st[o + 1]):
                v = known_get(hkeys, hvals, pr[r, 0], pr[r, 1], pr[r, 2], pr[r, 3])
                if v < 0:
                    missing += 1
                    v = 0
                refs[nref, 0] = -v - 1
                refs[nref, 1] = pr[r, 4]
                nref += 1
            ranges[nopt, 1] = nref
            nopt += 1
    opt_start[m] = nopt
    return missing, opt_start, side[:nopt].copy(), ranges[:nopt].copy(), refs[:nref].copy()


@njit(cache=True)
def board_keys(rows, cols, blacks, whites):
    """For parts given by their (black, white) masks on a rows x cols board (square (r, c)
    = bit r * cols + c, at most 63 squares): (packed canonical key, squares, negated)
    arrays, each part cropped to its box and put in canonical form."""
    m = blacks.shape[0]
    keys = np.empty(m, np.int64)
    squares = np.empty(m, np.int64)
    neg = np.empty(m, np.bool_)
    for i in range(m):
        h, w, b, x = _crop(rows, cols, blacks[i], whites[i])
        kh, kw, kb, kx, ng = canonical(h, w, b, x)
        keys[i] = pack(kh, kw, kb, kx)
        n = 0
        s = kb | kx
        while s:
            s &= s - 1
            n += 1
        squares[i] = n
        neg[i] = ng
    return keys, squares, neg
