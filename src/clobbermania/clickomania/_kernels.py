"""Numba primitives of Clickomania: the one fast click (checked against ``rules.py``).

Layout: ``grid`` is ``int8[W, H]``; ``grid[c, h]`` is the colour of the block at height
``h`` (0 = bottom) of column ``c``, or -1. Columns are settled (no holes) and closed to the
left, so column ``c`` is empty exactly when ``grid[c, 0] < 0`` and every column right of
it is empty too. Representatives and move order are those of ``rules.Board.moves``:
the group's block in its leftmost column, lowest there; groups in column-major order.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def k_n_columns(grid: np.ndarray) -> int:
    """The number of non-empty columns."""
    W = grid.shape[0]
    for c in range(W):
        if grid[c, 0] < 0:
            return c
    return W


@njit(cache=True, inline="always")
def k_height(grid: np.ndarray, c: int) -> int:
    """The number of blocks of column ``c`` (settled: they are its lowest cells).

    Every scan of a grid is ``for c in range(k_n_columns(grid))`` and, inside,
    ``for h in range(k_height(grid, c))``."""
    H = grid.shape[1]
    for h in range(H):
        if grid[c, h] < 0:
            return h
    return H


@njit(cache=True)
def k_n_blocks(grid: np.ndarray) -> int:
    """The number of blocks."""
    n = 0
    for c in range(k_n_columns(grid)):
        n += k_height(grid, c)
    return n


@njit(cache=True, inline="always")
def k_unmark(grid: np.ndarray, mark: np.ndarray) -> None:
    """Clear ``mark`` on every block of ``grid`` (marks are only ever set on blocks)."""
    for c in range(k_n_columns(grid)):
        for h in range(k_height(grid, c)):
            mark[c, h] = False


@njit(cache=True)
def k_scratch(grid: np.ndarray):
    """Fresh scratch arrays for :func:`k_group` on ``grid``: (mark, stack_c, stack_h)."""
    W, H = grid.shape
    return (np.zeros((W, H), dtype=np.bool_), np.empty(W * H, dtype=np.int32),
            np.empty(W * H, dtype=np.int32))


@njit(cache=True)
def k_group(grid: np.ndarray, c: int, h: int, mark: np.ndarray,
            stack_c: np.ndarray, stack_h: np.ndarray) -> int:
    """Flood-fill the group of (c, h): set ``mark`` on its cells, list them in the stacks.

    Returns its size (0 when the cell is empty). ``mark`` must be False on the group.
    """
    W, H = grid.shape
    color = grid[c, h]
    if color < 0:
        return 0
    mark[c, h] = True
    stack_c[0] = c
    stack_h[0] = h
    n = 1
    i = 0
    while i < n:
        cc = stack_c[i]
        hh = stack_h[i]
        i += 1
        if cc > 0 and not mark[cc - 1, hh] and grid[cc - 1, hh] == color:
            mark[cc - 1, hh] = True
            stack_c[n] = cc - 1
            stack_h[n] = hh
            n += 1
        if cc + 1 < W and not mark[cc + 1, hh] and grid[cc + 1, hh] == color:
            mark[cc + 1, hh] = True
            stack_c[n] = cc + 1
            stack_h[n] = hh
            n += 1
        if hh > 0 and not mark[cc, hh - 1] and grid[cc, hh - 1] == color:
            mark[cc, hh - 1] = True
            stack_c[n] = cc
            stack_h[n] = hh - 1
            n += 1
        if hh + 1 < H and not mark[cc, hh + 1] and grid[cc, hh + 1] == color:
            mark[cc, hh + 1] = True
            stack_c[n] = cc
            stack_h[n] = hh + 1
            n += 1
    return n


@njit(cache=True)
def k_group_size(grid: np.ndarray, c: int, h: int) -> int:
    """The size of the group at (c, h) (0 when empty)."""
    mark, sc, sh = k_scratch(grid)
    return k_group(grid, c, h, mark, sc, sh)


@njit(cache=True)
def k_remove_marked(grid: np.ndarray, mark: np.ndarray) -> None:
    """Remove the marked blocks, let the rest fall, close empty columns to the left."""
    k_remove_marked_from(grid, mark, 0)


@njit(cache=True)
def k_remove_marked_from(grid: np.ndarray, mark: np.ndarray, first: int,
                         last: int = -1) -> bool:
    """:func:`k_remove_marked` when every marked block lies in columns ``first`` to
    ``last`` (``-1``: to the last column): the columns before ``first`` are not visited,
    nor those after ``last`` unless a column empties (they then move left). Returns True
    when a column emptied (and the columns right of it closed up)."""
    W, H = grid.shape
    if last < 0:
        last = W - 1
    dst = first
    c = first
    while c < W:
        if grid[c, 0] < 0:
            break
        if c > last and dst == c:
            # no column emptied: the rest of the board does not change
            return False
        k = 0
        for h in range(H):
            x = grid[c, h]
            if x < 0:
                break
            if not mark[c, h]:
                grid[dst, k] = x
                k += 1
        if k > 0:
            for h in range(k, H):
                if grid[dst, h] < 0:
                    break
                grid[dst, h] = -1
            dst += 1
        c += 1
    # clear the columns freed by closing up (their old contents were moved or removed)
    for c2 in range(dst, W):
        if grid[c2, 0] < 0 and c2 > dst:
            break
        for h in range(H):
            if grid[c2, h] < 0:
                break
            grid[c2, h] = -1
    return dst < c


@njit(cache=True)
def k_click(grid: np.ndarray, c: int, h: int) -> int:
    """Click (c, h) in place: remove its group if it has >= 2 blocks, settle, close up.

    Returns the number of blocks removed (0, board unchanged, when the click is illegal).
    """
    mark, sc, sh = k_scratch(grid)
    return k_click_with(grid, c, h, mark, sc, sh)


@njit(cache=True)
def k_click_with(grid: np.ndarray, c: int, h: int, mark: np.ndarray, sc: np.ndarray,
                 sh: np.ndarray) -> int:
    """:func:`k_click` with the caller's scratch arrays (searches call it millions of
    times: no allocation). ``mark`` is all False on entry and is left all False."""
    W, H = grid.shape
    if c < 0 or c >= W or h < 0 or h >= H or grid[c, h] < 0:
        return 0
    n = k_group(grid, c, h, mark, sc, sh)
    if n >= 2:
        # only the group's columns fall (and the rest moves if one empties)
        left = c
        right = c
        for i in range(n):
            if sc[i] < left:
                left = sc[i]
            elif sc[i] > right:
                right = sc[i]
        k_remove_marked_from(grid, mark, left, right)
    for i in range(n):
        mark[sc[i], sh[i]] = False
    return n if n >= 2 else 0


@njit(cache=True)
def k_has_partner(grid: np.ndarray, c: int, h: int) -> bool:
    """True when the block at (c, h) has an orthogonal neighbour of its colour, i.e. its
    group can be clicked (``grid[c, h]`` must be a block)."""
    W, H = grid.shape
    x = grid[c, h]
    return ((h + 1 < H and grid[c, h + 1] == x) or (c + 1 < W and grid[c + 1, h] == x)
            or (h > 0 and grid[c, h - 1] == x) or (c > 0 and grid[c - 1, h] == x))


@njit(cache=True)
def k_moves(grid: np.ndarray, out_c: np.ndarray, out_h: np.ndarray, out_size: np.ndarray,
            out_color: np.ndarray) -> int:
    """Every group of >= 2 blocks: representative (c, h), size, colour; returns the count."""
    mark, sc, sh = k_scratch(grid)
    return k_moves_with(grid, out_c, out_h, out_size, out_color, mark, sc, sh)


@njit(cache=True)
def k_moves_with(grid: np.ndarray, out_c: np.ndarray, out_h: np.ndarray,
                 out_size: np.ndarray, out_color: np.ndarray, mark: np.ndarray,
                 sc: np.ndarray, sh: np.ndarray) -> int:
    """:func:`k_moves` with the caller's scratch arrays (``mark`` all False on entry; left
    all False)."""
    m = 0
    for c in range(k_n_columns(grid)):
        for h in range(k_height(grid, c)):
            # a block with no neighbour of its colour is a group of one: no fill needed
            if mark[c, h] or not k_has_partner(grid, c, h):
                continue
            out_c[m] = c
            out_h[m] = h
            out_size[m] = k_group(grid, c, h, mark, sc, sh)
            out_color[m] = grid[c, h]
            m += 1
    k_unmark(grid, mark)
    return m


@njit(cache=True)
def k_is_dead(grid: np.ndarray) -> bool:
    """True when no two orthogonally adjacent blocks share a colour."""
    W, H = grid.shape
    for c in range(k_n_columns(grid)):
        for h in range(k_height(grid, c)):
            x = grid[c, h]
            if (h + 1 < H and grid[c, h + 1] == x) or (c + 1 < W and grid[c + 1, h] == x):
                return False
    return True


@njit(cache=True)
def k_hash(grid: np.ndarray, zobrist: np.ndarray) -> np.uint64:
    """Zobrist hash of a settled grid; ``zobrist`` is ``uint64[W, H, n_colours]``."""
    z = np.uint64(0)
    for c in range(k_n_columns(grid)):
        for h in range(k_height(grid, c)):
            z ^= zobrist[c, h, grid[c, h]]
    return z
