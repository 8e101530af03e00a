"""The kernels' bit tools (clobbermania._bits) against plain Python."""

import random

import numpy as np
import pytest

from clobbermania._bits import (
    GOLDEN,
    bit_index,
    image,
    least_image,
    lowbit,
    mix64,
    origin_shift,
    popcount,
    reverse_low,
    row_mask,
    sort_rows,
    symmetry_tables,
)
from clobbermania.graphs import cycle
from clobbermania.stones import Board

MASK = (1 << 64) - 1


def random_words(rng, n=400):
    words = [0, 1, MASK, 1 << 63, 0x8000000000000001]
    for _ in range(n):
        density = rng.random()
        words.append(sum(1 << i for i in range(64) if rng.random() < density))
    return words


def test_popcount_bit_index_lowbit_match_python():
    rng = random.Random(1)
    for x in random_words(rng):
        u = np.uint64(x)
        assert popcount(u) == bin(x).count("1")
        assert int(lowbit(u)) == x & -x
        assert bit_index(u) == ((x & -x).bit_length() - 1 if x else 64)


def test_mix64_is_the_splitmix64_finaliser():
    # splitmix64 seeded with 0 outputs mix64(k * GOLDEN) for k = 1, 2, ... (Vigna's
    # reference generator: its first two outputs)
    assert int(mix64(GOLDEN)) == 0xE220A8397B1DCDAF
    assert int(mix64(np.uint64(2 * int(GOLDEN) & MASK))) == 0x6E789E6AA1B965F4
    rng = random.Random(2)
    for x in random_words(rng, 100):
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        assert int(mix64(np.uint64(x))) == z ^ (z >> 31)


def test_reverse_low_and_row_mask():
    rng = random.Random(3)
    for x in random_words(rng, 100):
        n = rng.randint(1, 64)
        low = format(x & ((1 << n) - 1), f"0{n}b")
        assert int(reverse_low(np.uint64(x), n)) == int(low[::-1], 2)
    assert int(row_mask(5)) == 31 and int(row_mask(64)) == MASK and int(row_mask(70)) == MASK


def images(bits, perm):
    return sum(1 << perm[v] for v in range(len(perm)) if bits >> v & 1)


def shift_to_corner(b, w, cols):
    occ = b | w
    squares = [v for v in range(64) if occ >> v & 1]
    sh = min(v // cols for v in squares) * cols + min(v % cols for v in squares)
    return b >> sh, w >> sh


def random_pair(rng, n):
    b = w = 0
    while not b | w:
        for v in range(n):
            r = rng.random()
            if r < 0.3:
                b |= 1 << v
            elif r < 0.6:
                w |= 1 << v
    return b, w


BOARDS = [Board.grid(3, 3), Board.grid(4, 4), Board.grid(2, 5), Board.grid(8, 8),
          Board.grid(1, 64), Board.grid(5, 1), cycle(12)]


@pytest.mark.parametrize("board", BOARDS, ids=range(len(BOARDS)))
def test_least_image_is_the_least_of_every_image(board):
    perms = board.symmetries()
    tab = symmetry_tables(perms)
    cols = board.cols if board.is_grid else 0
    row = np.uint64(row_mask(cols))
    rng = random.Random(board.n)
    for _ in range(60):
        b, w = random_pair(rng, board.n)
        for s, perm in enumerate(perms):
            assert int(image(np.uint64(b), tab, s)) == images(b, perm)
        for swap in (False, True):
            expect = []
            for perm in perms:
                pair = (images(b, perm), images(w, perm))
                if cols:
                    pair = shift_to_corner(*pair, cols)
                expect.append(pair)
                if swap:
                    expect.append(pair[::-1])
            got = least_image(np.uint64(b), np.uint64(w), tab, cols, row, swap)
            assert (int(got[0]), int(got[1])) == min(expect)
        if cols:
            sh = origin_shift(np.uint64(b | w), cols, row)
            assert (b >> int(sh), w >> int(sh)) == shift_to_corner(b, w, cols)


def test_sort_rows_is_a_stable_sort():
    rng = random.Random(5)
    for _ in range(50):
        n = rng.randint(0, 12)
        key = np.array([rng.randint(0, 4) for _ in range(n + 3)], dtype=np.int64)
        a = np.arange(n + 3, dtype=np.int64)
        b = 100 + a
        for descending in (False, True):
            k2, a2, b2 = key.copy(), a.copy(), b.copy()
            sort_rows(k2, a2, b2, n, descending)
            order = sorted(range(n), key=lambda i: -key[i] if descending else key[i])
            assert list(a2[:n]) == order and list(b2[:n]) == [100 + i for i in order]
            assert list(k2[:n]) == [key[i] for i in order] and list(a2[n:]) == list(a[n:])
