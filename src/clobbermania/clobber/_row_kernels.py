"""numba kernels of the row database (:mod:`clobbermania.clobber.rowdb`).

The tables of all lengths live in one flat ``uint8`` array, the *flat table*:
``flat[0]`` is the empty row (value 0) and the rows of length ``l >= 1`` whose last stone
is ``o`` (index ``i < 2^(l-1)``) sit at ``flat[2^(l-1) + i]``. Rows whose last stone is
``x`` are not stored: swapping the colours of every stone maps a row's options onto the
swapped row's options, so both have the same value, and the swap of index ``i`` is
``i ^ (2^l - 1)``. The flat position of a stored row is therefore its index with a
sentinel bit at position ``l - 1``, and the whole database up to ``M`` stones is
``2^M`` bytes.

Impartial Clobber on a hole-free row (the rule of :meth:`clobbermania.stones.Position.moves`
for both colours, restricted to a row): at each adjacent pair ``(j, j + 1)`` of different
colours, stone ``j`` may clobber ``j + 1`` (leaving stones ``0..j-1`` and, separately,
stones ``j+1..L-1`` with stone ``j + 1`` recoloured) or stone ``j + 1`` may clobber ``j``
(leaving stones ``0..j`` with stone ``j`` recoloured, and stones ``j+2..L-1``). An
option's value is the XOR of its two parts (Sprague-Grundy); a row's value is the mex
of its options' values, taken here as the lowest zero bit of a 64-bit mask.

A row of L stones has at most ``2(L - 1)`` options, so its value is at most ``2(L - 1)``;
by induction every value up to 32 stones is below 63 and every XOR of two of them below
64, so one 64-bit mask is exact. The kernel reports the largest option value it saw, and
the caller refuses to go on if it ever reaches 64 (only possible beyond 32 stones).

Two kernels fill a length: :func:`build_rows` takes one row at a time and visits its
boundaries (the plain one, used up to 13 stones and as the reference), and
:func:`build_rows_blocked` takes aligned blocks of 4096 rows and one boundary at a time,
so that each pass streams through one or two tables in order (2-3 times faster at 24-28
stones, where the long tables no longer fit in cache). The tests hold :func:`build_rows`
equal to a plain recursion over ``Position.moves`` on every row up to 12 stones and the
two kernels byte-equal up to 20 stones (tests/test_rowdb.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._bits import bit_index

#: Rows handled by one parallel work item: long enough to amortise scheduling, short
#: enough that the windows of the long prefix tables it touches stay in L2.
BLOCK = 4096


@njit(cache=True, inline="always")
def _left(flat, length, idx):  # pragma: no cover
    """Value of the row of ``length`` stones with index ``idx`` (any last stone)."""
    half = (np.int64(1) << length) >> 1  # 2^(length-1), or 0 for the empty row
    # last stone x: look up the colour swap; branch-free because the bit is random
    top = (idx >> max(length - 1, 0)) & 1
    return flat[half | (idx ^ (((np.int64(1) << length) - 1) & -top))]


@njit(cache=True)
def row_value(flat, length, idx):  # pragma: no cover
    """The mex of the options of one row (``idx < 2^(length-1)``), and the largest option
    value seen. Lengths below ``length`` must be in ``flat``."""
    r = np.int64(idx)
    diff = (r ^ (r >> 1)) & ((np.int64(1) << (length - 1)) - 1)
    mask = np.int64(0)
    top = np.int64(0)
    while diff != 0:
        j = np.int64(bit_index(diff))
        diff &= diff - 1
        # stone j clobbers j + 1: prefix 0..j-1 | suffix j+1.. with its first stone flipped.
        # The suffix keeps the last stone (o), so it is stored as is (a length-1 suffix is
        # index 1 = flat[1] = the single stone, value 0).
        low = (np.int64(1) << j) - 1
        a = _left(flat, j, r & low)
        rest = length - 1 - j
        b = flat[((np.int64(1) << rest) >> 1) | ((r >> (j + 1)) ^ 1)]
        # stone j + 1 clobbers j: prefix 0..j with stone j flipped | suffix j+2..
        c = _left(flat, j + 1, (r & (2 * low + 1)) ^ (np.int64(1) << j))
        rest2 = length - 2 - j
        e = flat[((np.int64(1) << rest2) >> 1) | (r >> (j + 2))]
        v1 = np.int64(a ^ b)
        v2 = np.int64(c ^ e)
        top = max(top, max(v1, v2))
        mask |= (np.int64(1) << (v1 & 63)) | (np.int64(1) << (v2 & 63))
    return np.int64(bit_index(~mask)), top


@njit(cache=True, parallel=True)
def build_rows(flat, length, start, stop):  # pragma: no cover
    """Fill ``flat[2^(length-1) + i]`` for ``start <= i < stop`` (rows whose last stone is
    ``o``); every shorter length must already be in ``flat``. Rows are independent, so the
    output does not depend on the number of threads. Returns the largest option value
    seen (the caller checks it is below 64)."""
    base = np.int64(1) << (length - 1)
    nblocks = (stop - start + BLOCK - 1) // BLOCK
    tops = np.zeros(nblocks, np.int64)
    for blk in prange(nblocks):
        lo = start + blk * BLOCK
        hi = min(lo + BLOCK, stop)
        t = np.int64(0)
        for i in range(lo, hi):
            v, top = row_value(flat, length, i)
            flat[base + i] = v
            t = max(t, top)
        tops[blk] = t
    return tops.max() if nblocks > 0 else np.int64(0)


@njit(cache=True, parallel=True)
def histogram(values, first, stop):  # pragma: no cover
    """Counts of each byte value in ``values[first:stop]`` (256 bins), in parallel."""
    n = stop - first
    nblocks = (n + (1 << 20) - 1) >> 20
    parts = np.zeros((max(nblocks, 1), 256), np.int64)
    for blk in prange(nblocks):
        lo = first + (np.int64(blk) << 20)
        hi = min(lo + (1 << 20), stop)
        for i in range(lo, hi):
            parts[blk, values[i]] += 1
    return parts.sum(axis=0)


@njit(cache=True)
def lookup_rows(flat_or_table, length, indices, out):  # pragma: no cover
    """``out[k]`` = value of row ``indices[k]`` of ``length`` stones, from the table of
    that length alone (``flat_or_table[i]`` for stored index ``i``)."""
    half = np.int64(1) << (length - 1)
    full = (np.int64(1) << length) - 1
    for k in range(indices.shape[0]):
        i = np.int64(indices[k])
        if i >= half:
            i ^= full
        out[k] = flat_or_table[i]



#: log2 of the rows of one block of the blocked kernel (its mask array stays in L1).
BLOCK_BITS = 12


@njit(cache=True)
def prefix_tables(flat, kbits):  # pragma: no cover
    """For the boundaries j < kbits, the values of the left parts as functions of the low
    j + 1 bits t of a row: ``a[j, t]`` of stones 0..j-1 (option "j clobbers j+1") and
    ``c[j, t]`` of stones 0..j with stone j flipped ("j+1 clobbers j"). Needs the lengths
    up to kbits in ``flat``."""
    a = np.zeros((kbits, 1 << kbits), np.uint8)
    c = np.zeros((kbits, 1 << kbits), np.uint8)
    for j in range(kbits):
        low = (np.int64(1) << j) - 1
        for t in range(np.int64(1) << (j + 1)):
            a[j, t] = _left(flat, j, t & low)
            c[j, t] = _left(flat, j + 1, t ^ (np.int64(1) << j))
    return a, c


@njit(cache=True, inline="always")
def _or_options(mask, moff, n, flat, fstart, descending, const):  # pragma: no cover
    """mask[moff + i] |= 1 << (flat[fstart +/- i] ^ const) for i < n: one option at one
    boundary for n consecutive rows, whose left parts are consecutive rows of one table."""
    if descending:
        for i in range(n):
            mask[moff + i] |= np.int64(1) << (np.int64(flat[fstart - i]) ^ const)
    else:
        for i in range(n):
            mask[moff + i] |= np.int64(1) << (np.int64(flat[fstart + i]) ^ const)


@njit(cache=True, parallel=True)
def build_rows_blocked(flat, length, start, stop, pa, pc):  # pragma: no cover
    """:func:`build_rows` reorganised for speed (same bytes; the tests compare them).

    Rows go in aligned blocks of B = 2^BLOCK_BITS; within a block the boundaries are
    taken one at a time, so each pass streams through one or two tables:

    - boundary j >= BLOCK_BITS: stones j and j + 1 are the same for the whole block, so
      the boundary is skipped or live for all of it; the right parts are two fixed rows
      and the left parts are consecutive rows of the tables of j and j + 1 stones
      (ascending, or descending where the colour swap applies).
    - boundary j < BLOCK_BITS: the left parts depend on the low j + 1 bits t only (the
      small tables ``pa``, ``pc`` of :func:`prefix_tables`), the right parts on the rest;
      the boundary is live for the half of the t values whose bit j differs from bit
      j + 1, so the inner loop runs over that half without a test.

    ``start`` and ``stop`` are multiples of B, and length > BLOCK_BITS + 1. Values must be
    below 64 (the caller checks the shorter tables: XORs of values < 32 stay below 64)."""
    kb = BLOCK_BITS
    bsize = np.int64(1) << kb
    base_out = np.int64(1) << (length - 1)
    nblocks = (stop - start) >> kb
    for blk in prange(nblocks):
        rb = start + (np.int64(blk) << kb)
        mask = np.zeros(bsize, np.int64)
        # boundaries inside the block's bits
        for j in range(kb):
            half1 = (np.int64(1) << (length - 1 - j)) >> 1
            half2 = (np.int64(1) << (length - 2 - j)) >> 1
            h = np.int64(1) << j
            groups = bsize >> (j + 1)
            for m in range(groups):
                rr = (rb >> (j + 1)) + m  # the row's bits from j + 1 up
                bm = np.int64(flat[half1 | (rr ^ 1)])
                em = np.int64(flat[half2 | (rr >> 1)])
                tlo = h if (rr & 1) == 0 else 0
                moff = m << (j + 1)
                for t in range(tlo, tlo + h):
                    mask[moff + t] |= ((np.int64(1) << (np.int64(pa[j, t]) ^ bm))
                                       | (np.int64(1) << (np.int64(pc[j, t]) ^ em)))
        # boundaries above the block's bits
        for j in range(kb, length - 1):
            if ((rb >> j) ^ (rb >> (j + 1))) & 1 == 0:
                continue
            b = np.int64(flat[((np.int64(1) << (length - 1 - j)) >> 1)
                              | ((rb >> (j + 1)) ^ 1)])
            e = np.int64(flat[((np.int64(1) << (length - 2 - j)) >> 1) | (rb >> (j + 2))])
            low = (np.int64(1) << j) - 1
            # option 1: left = stones 0..j-1, in segments where its last stone is fixed
            hj = np.int64(1) << (j - 1)
            seg = min(bsize, hj)
            for s in range(0, bsize, seg):
                p0 = (rb & low) + s
                if p0 & hj:
                    _or_options(mask, s, seg, flat, hj + (low ^ p0), True, b)
                else:
                    _or_options(mask, s, seg, flat, hj + p0, False, b)
            # option 2: left = stones 0..j with stone j flipped; its last stone is fixed
            q0 = (rb & (2 * low + 1)) ^ (np.int64(1) << j)
            if q0 >> j:
                _or_options(mask, 0, bsize, flat, (low + 1) + ((2 * low + 1) ^ q0), True, e)
            else:
                _or_options(mask, 0, bsize, flat, (low + 1) + q0, False, e)
        for i in range(bsize):
            flat[base_out + rb + i] = bit_index(~mask[i])
