"""Numba kernels of the two-player search: canonical keys of a board and of all its children.

The click itself is :func:`~clobbermania.clickomania._kernels.k_click` (the one fast click,
held equal to the reference rules by the engine's tests); here only the keys are computed,
following the facts 1-3 of :mod:`clobbermania.clickomania.twoplayer` (the plain-Python
:func:`~clobbermania.clickomania.twoplayer.impartial_key` /
:func:`~clobbermania.clickomania.twoplayer.partizan_key` say the same thing slowly, and
``tests/clickomania/test_twoplayer.py`` holds the two equal as equivalence classes).

A key is bytes: each non-empty column bottom to top as ``colour + 1``, then a 0. Its
colours are renamed by first appearance (impartial: 0, 1, 2, ...; partizan: Left's even
colours to 0, 2, 4, ..., Right's odd ones to 1, 3, 5, ...). A line (one column, or one row)
is written as the one column of its run word, each run cut to length 2. The key is the
least (bytewise) encoding over the mirror images (a line: the word and its reversal) and,
in the partizan game, over the colour swap ``c -> c xor 1`` too, which negates: the sign
says whether the least encoding was a swapped one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import k_click, k_height, k_moves, k_n_columns

MODE_IMPARTIAL = 0
MODE_PARTIZAN = 1


@njit(cache=True)
def _rename(src: np.ndarray, n: int, mode: int, swap: int, dst: np.ndarray) -> None:
    """Rename the colours of an encoding (``colour + 1``, 0 ends a column) into dst."""
    names = np.full(80, -1, dtype=np.int16)
    count = np.zeros(2, dtype=np.int16)
    for i in range(n):
        x = src[i]
        if x == 0:
            dst[i] = 0
            continue
        c = (x - 1) ^ swap
        y = names[c]
        if y < 0:
            if mode == MODE_IMPARTIAL:
                y = count[0]
                count[0] += 1
            else:
                p = c & 1
                y = 2 * count[p] + p
                count[p] += 1
            names[c] = y
        dst[i] = y + 1


@njit(cache=True)
def _less(a: np.ndarray, b: np.ndarray, n: int) -> bool:
    for i in range(n):
        if a[i] != b[i]:
            return a[i] < b[i]
    return False


@njit(cache=True)
def k_encode(grid: np.ndarray, mode: int, out: np.ndarray) -> tuple[int, int]:
    """The key of ``grid`` written into ``out``: returns (length, sign)."""
    ncols = k_n_columns(grid)
    nblocks = 0
    line_row = True
    for c in range(ncols):
        height = k_height(grid, c)
        nblocks += height
        if height > 1:
            line_row = False
    if ncols == 0:
        return 0, 1
    # the raw encodings of the orientations: two candidates
    size = nblocks + ncols
    raw = np.zeros((2, size), dtype=np.int8)
    lens = np.zeros(2, dtype=np.int64)
    if ncols == 1 or line_row:
        word = np.empty(nblocks, dtype=np.int8)
        if ncols == 1:
            for h in range(nblocks):
                word[h] = grid[0, h]
        else:
            for c in range(ncols):
                word[c] = grid[c, 0]
        # cap the runs at length 2 (fact 3)
        m = 0
        capped = np.empty(nblocks, dtype=np.int8)
        for i in range(nblocks):
            if i >= 2 and word[i - 1] == word[i] and word[i - 2] == word[i]:
                continue
            capped[m] = word[i]
            m += 1
        for i in range(m):
            raw[0, i] = capped[i] + 1
            raw[1, i] = capped[m - 1 - i] + 1
        raw[0, m] = 0
        raw[1, m] = 0
        lens[0] = m + 1
        lens[1] = m + 1
    else:
        for o in range(2):      # the columns left to right, then right to left
            k = 0
            for i in range(ncols):
                c = i if o == 0 else ncols - 1 - i
                for h in range(k_height(grid, c)):
                    raw[o, k] = grid[c, h] + 1
                    k += 1
                raw[o, k] = 0
                k += 1
        lens[0] = size
        lens[1] = size
    n = lens[0]
    tmp = np.empty(n, dtype=np.int8)
    have = False
    sign = 1
    for o in range(2):
        for swap in range(2 if mode == MODE_PARTIZAN else 1):
            _rename(raw[o], n, mode, swap, tmp)
            if not have or _less(tmp, out, n):
                for i in range(n):
                    out[i] = tmp[i]
                have = True
                sign = -1 if swap == 1 else 1
    return n, sign


@njit(cache=True)
def k_child_keys(grid: np.ndarray, mode: int):
    """Every click of ``grid``: (count, keys int8[m, L], lengths, signs, colours, sizes).

    The colour is the clicked group's colour in ``grid``'s own colouring; row ``i`` of
    ``keys`` holds the key of the board after the i-th click in its first ``lengths[i]``
    bytes (the order is that of ``k_moves``, the reference order of ``Board.moves``).
    """
    W, H = grid.shape
    cap = W * H
    out_c = np.empty(cap, dtype=np.int32)
    out_h = np.empty(cap, dtype=np.int32)
    out_size = np.empty(cap, dtype=np.int32)
    out_color = np.empty(cap, dtype=np.int8)
    m = k_moves(grid, out_c, out_h, out_size, out_color)
    width = cap + W
    keys = np.zeros((max(m, 1), width), dtype=np.int8)
    lens = np.zeros(max(m, 1), dtype=np.int64)
    signs = np.ones(max(m, 1), dtype=np.int64)
    work = np.empty_like(grid)
    for i in range(m):
        work[:, :] = grid
        k_click(work, out_c[i], out_h[i])
        n, s = k_encode(work, mode, keys[i])
        lens[i] = n
        signs[i] = s
    return m, keys, lens, signs, out_color[:m].copy(), out_size[:m].copy()


@njit(cache=True)
def k_decode(key: np.ndarray) -> np.ndarray:
    """The grid of a key (``int8[W, H]``, W its columns, H its tallest column)."""
    W = 0
    H = 0
    run = 0
    for x in key:
        if x == 0:
            W += 1
            H = max(H, run)
            run = 0
        else:
            run += 1
    grid = np.full((W, H), -1, dtype=np.int8)
    c = 0
    h = 0
    for x in key:
        if x == 0:
            c += 1
            h = 0
        else:
            grid[c, h] = x - 1
            h += 1
    return grid


@njit(cache=True)
def k_has_separator(grid: np.ndarray) -> bool:
    """Whether fact 4 of the two-player module splits the board: in one column, a block
    whose colour occurs once; on several columns, a column all of whose colours occur once."""
    counts = np.zeros(64, dtype=np.int64)
    ncols = k_n_columns(grid)
    for c in range(ncols):
        for h in range(k_height(grid, c)):
            counts[grid[c, h]] += 1
    if ncols == 1:
        for h in range(k_height(grid, 0)):
            if counts[grid[0, h]] == 1:
                return True
        return False
    for c in range(ncols):
        alone = True
        for h in range(k_height(grid, c)):
            if counts[grid[c, h]] != 1:
                alone = False
                break
        if alone:
            return True
    return False


@njit(cache=True)
def k_node(key: np.ndarray, mode: int):
    """One search node from its key: (has_separator, then what k_child_keys returns, empty
    when there is a separator: the caller splits the board in Python)."""
    grid = k_decode(key)
    if k_has_separator(grid):
        return (True, 0, np.zeros((1, 1), dtype=np.int8), np.zeros(1, dtype=np.int64),
                np.ones(1, dtype=np.int64), np.zeros(0, dtype=np.int8),
                np.zeros(0, dtype=np.int32))
    m, keys, lens, signs, colors, sizes = k_child_keys(grid, mode)
    return False, m, keys, lens, signs, colors, sizes
