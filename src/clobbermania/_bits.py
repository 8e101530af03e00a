"""Bit tools of the numba kernels: counting and finding bits, the one hash mixer, and the
least image of a pair of bitsets under a board's symmetries.

Every ``*_kernels.py`` module takes these from here, so each tool exists once:

- :func:`popcount` and :func:`bit_index` are LLVM's ``ctpop`` and ``cttz`` (one
  instruction on current CPUs, a short fallback elsewhere); :func:`lowbit` isolates the
  lowest set bit; :func:`reverse_low` reverses the low n bits;
- :func:`mix64` is the splitmix64 finaliser (Steele, Lea, Flood, *Fast splittable
  pseudorandom number generators*, OOPSLA 2014), a bijection of 64-bit words in which
  every input bit reaches every output bit: the kernels' open-addressing tables take
  their slot from its low bits, and keys that differ only in high bits no longer share
  slots (docs/architecture.md: a weak hash made whole buckets collide);
- :func:`symmetry_tables` / :func:`image` move a bitset of up to 64 squares by a board
  symmetry with one table lookup a byte; :func:`least_image` is the canonical key of a
  pair of bitsets (black, white, or mover, opponent): the least image under the board's
  symmetries, each image first shifted to the top-left corner on a grid
  (:func:`origin_shift`), optionally with the two bitsets swapped;
- :func:`sort_rows` is the insertion sort of a search node's moves by their score.

The functions are compiled with ``cache=True``. numba's cache checks only the source file
of the function it compiled, so after a change here run ``make clean-cache`` (it deletes
the ``*.nbi``/``*.nbc`` files under src/): a cached kernel of another module would keep
the old code inlined.

Beware numba's typing: mixing uint64 with a signed integer gives float64, so every
constant that meets a bitset is a ``np.uint64``.

>>> import numpy as np
>>> popcount(np.uint64(0b101100)), bit_index(np.uint64(0b101100))
(3, 2)
>>> tab = symmetry_tables([(0, 1, 2), (2, 1, 0)])      # a row of 3 and its mirror
>>> int(image(np.uint64(0b011), tab, 1))
6
>>> [int(k) for k in least_image(np.uint64(0b100), np.uint64(0b010), tab, 3,
...                              row_mask(3), False)]
[1, 2]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

U0 = np.uint64(0)
U1 = np.uint64(1)
U8 = np.uint64(8)
U255 = np.uint64(255)
ALL = ~U0
#: 2^64 / golden ratio, odd: multiplying by it spreads a key over the word
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return context.cast(builder, builder.ctpop(args[0]), x, types.int64)

    return types.int64(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        # the flag 0: cttz(0) is the word's width, not undefined
        tz = builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
        return context.cast(builder, tz, x, types.int64)

    return types.int64(x), codegen


@njit(cache=True, inline="always")
def popcount(x):
    """The number of set bits of the integer x (int64).

    >>> popcount(np.uint64(2**64 - 1))
    64
    """
    return _ctpop(x)


@njit(cache=True, inline="always")
def bit_index(x):
    """The index of the lowest set bit of x (int64); the width of x (64) when x is 0.

    >>> bit_index(np.uint64(2**63))
    63
    """
    return _cttz(x)


@njit(cache=True, inline="always")
def lowbit(x):
    """x's lowest set bit alone (0 when x is 0).

    >>> int(lowbit(np.uint64(0b1100)))
    4
    """
    return x & (~x + U1)


@njit(cache=True, inline="always")
def mix64(x):
    """The splitmix64 finaliser of the uint64 x (see the module).

    >>> hex(mix64(np.uint64(1)))
    '0x5692161d100b05e5'
    """
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True)
def reverse_low(x, n):
    """The low n bits of the uint64 x (1 <= n <= 64) in reverse order (bit i goes to bit
    n - 1 - i); the bits above are dropped.

    >>> int(reverse_low(np.uint64(0b0011), 4))
    12
    """
    v = np.uint64(x)
    m = np.uint64(0x5555555555555555)
    v = ((v >> np.uint64(1)) & m) | ((v & m) << np.uint64(1))
    m = np.uint64(0x3333333333333333)
    v = ((v >> np.uint64(2)) & m) | ((v & m) << np.uint64(2))
    m = np.uint64(0x0F0F0F0F0F0F0F0F)
    v = ((v >> np.uint64(4)) & m) | ((v & m) << np.uint64(4))
    m = np.uint64(0x00FF00FF00FF00FF)
    v = ((v >> np.uint64(8)) & m) | ((v & m) << np.uint64(8))
    m = np.uint64(0x0000FFFF0000FFFF)
    v = ((v >> np.uint64(16)) & m) | ((v & m) << np.uint64(16))
    v = (v >> np.uint64(32)) | (v << np.uint64(32))
    return v >> np.uint64(64 - n)


@njit(cache=True, inline="always")
def row_mask(cols):
    """The squares of the first row of a grid with ``cols`` columns (all 64 when cols >= 64).

    >>> int(row_mask(3))
    7
    """
    if cols >= 64:
        return ALL
    return (U1 << np.uint64(cols)) - U1


def symmetry_tables(perms: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
    """``tab[s, j, byte]``: the image under permutation ``perms[s]`` (``perms[s][v]`` the
    image of square v; at most 64 squares) of the squares 8j..8j+7 set in ``byte``, so a
    bitset's image is the OR of one entry a byte (:func:`image`).

    >>> int(symmetry_tables([(1, 0)])[0, 0, 0b01])
    2
    """
    perms = np.asarray(perms, dtype=np.int64)
    nperm, n = perms.shape
    images = np.zeros((nperm, 64), dtype=np.uint64)      # images[s, v] = 1 << perm[s][v]
    images[:, :n] = np.left_shift(np.uint64(1), perms.astype(np.uint64))
    per_byte = images.reshape(nperm, 8, 8)                # (s, j, i): square 8j + i
    bits = ((np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1).astype(np.uint64)
    tab = np.zeros((nperm, 8, 256), dtype=np.uint64)
    for i in range(8):                                    # OR in square 8j + i where set
        tab |= bits[None, None, :, i] * per_byte[:, :, i, None]
    return tab


@njit(cache=True, inline="always")
def image(x, tab, s):
    """The image of the bitset x under symmetry s of ``tab`` (:func:`symmetry_tables`)."""
    out = U0
    j = 0
    while x != U0:
        out |= tab[s, j, x & U255]
        x >>= U8
        j += 1
    return out


@njit(cache=True, inline="always")
def origin_shift(occ, cols, row):
    """The right shift that moves the non-empty bitset ``occ`` on a grid of ``cols``
    columns to the top row and the leftmost column (``row`` = :func:`row_mask` (cols)):
    no square of occ lies left of its least column, so nothing wraps.

    >>> int(origin_shift(np.uint64(0b110000), 3, row_mask(3)))      # (1, 1) and (1, 2)
    4
    """
    r0 = bit_index(occ) // cols
    if cols >= 64:
        acc = occ              # one row (a shift by 64 is undefined)
    else:
        first = np.uint64(row)
        acc = U0
        x = occ >> np.uint64(r0 * cols)
        while x != U0:         # the rows folded onto the first: the occupied columns
            acc |= x & first
            x >>= np.uint64(cols)
    return np.uint64(r0 * cols + bit_index(acc))


@njit(cache=True)
def least_image(b, w, tab, cols, row, swap):
    """The least pair (b', w') (compared as (b', w')) over the images of the pair (b, w)
    under the symmetries of ``tab`` and, when ``swap``, of the pair (w, b); on a grid
    (``cols`` > 0, ``row`` = :func:`row_mask` (cols)) each image is first shifted to the
    top-left corner. A position's key up to symmetry (and translation, and the colour
    swap where the game allows it): two positions have the same key iff one is an image of
    the other under those maps (the maps form a group)."""
    best_b = ALL
    best_w = ALL
    for s in range(tab.shape[0]):
        ib = image(b, tab, s)
        iw = image(w, tab, s)
        if cols > 0:
            sh = origin_shift(ib | iw, cols, row)
            ib >>= sh
            iw >>= sh
        if ib < best_b or (ib == best_b and iw < best_w):
            best_b = ib
            best_w = iw
        if swap and (iw < best_b or (iw == best_b and ib < best_w)):
            best_b = iw
            best_w = ib
    return best_b, best_w


@njit(cache=True)
def sort_rows(key, a, b, n, descending):
    """Sort the first n entries of ``key`` in place, ascending (descending when
    ``descending``), carrying ``a`` and ``b`` along: a stable insertion sort, the fastest
    for the handful of moves a search node orders.

    >>> k, a, b = np.array([3, 1, 2]), np.array([0, 1, 2]), np.array([5, 6, 7])
    >>> sort_rows(k, a, b, 3, False); [int(x) for x in a]
    [1, 2, 0]
    """
    for i in range(1, n):
        k0 = key[i]
        a0 = a[i]
        b0 = b[i]
        j = i - 1
        while j >= 0 and ((key[j] < k0) if descending else (key[j] > k0)):
            key[j + 1] = key[j]
            a[j + 1] = a[j]
            b[j + 1] = b[j]
            j -= 1
        key[j + 1] = k0
        a[j + 1] = a0
        b[j + 1] = b0
