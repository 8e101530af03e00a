"""The numba kernels of clobbermania.cgt (comparison, canonical simplification) against
the plain Python definitions in game.py and an independent brute force on raw game trees.

Random games are built from random option sets over a growing pool, so the pool holds
numbers, nimbers, ups, switches and general games of birthday up to 4 or so.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from clobbermania.cgt import STAR, UP, Game, nimber, number, nus
from clobbermania.cgt import game as G


@cache
def raw_le(g, h) -> bool:
    """Conway's definition on raw trees (left options, right options)."""
    return not any(raw_le(h, gl) for gl in g[0]) and not any(raw_le(hr, g) for hr in h[1])


@cache
def tree(g: Game) -> tuple:
    return (tuple(tree(x) for x in g.left_options), tuple(tree(x) for x in g.right_options))


def pool(seed: int, size: int) -> list[Game]:
    rng = random.Random(seed)
    games = [Game(0), STAR, UP, -UP, number(1), number(-1), number(Fraction(1, 2)), nimber(2),
             nus(0, 2, 1), Game("{1|-1}"), Game("{0|*}")]
    while len(games) < size:
        L = rng.sample(games, rng.randint(0, 3))
        R = rng.sample(games, rng.randint(0, 3))
        g = Game.from_options(L, R)
        if g.birthday <= 4 and g not in games:
            games.append(g)
    return games


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_le_kernel_equals_plain_definition(seed):
    games = pool(seed, 45)
    assert G._fast
    for a in games:
        for b in games:
            G._flush()
            k = G._k.le(G._T, G._X, G._O, G._MK, G._MV, G._MC, G._STK, a.id, b.id)
            assert k == G._le_plain(a.id, b.id), (a, b)


def test_le_matches_raw_trees():
    games = pool(7, 30)
    for a in games:
        for b in games:
            assert (a <= b) == raw_le(tree(a), tree(b)), (a, b)


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_simplify_kernel_equals_plain_and_raw(seed):
    games = pool(seed, 40)
    rng = random.Random(seed)
    for _ in range(150):
        L = {g.id for g in rng.sample(games, rng.randint(1, 5))}
        R = {g.id for g in rng.sample(games, rng.randint(1, 5))}
        if all(G._kind[i] == 1 for i in L | R):
            continue            # all numbers: the closed form, no simplification loop
        fast = G._canon_uncached(set(L), set(R))
        plain = G._simplify_plain(set(L), set(R))
        assert fast == plain
        # the canonical game equals the raw game {L | R}
        raw = (tuple(tree(G._objects[i]) for i in L), tuple(tree(G._objects[i]) for i in R))
        t = tree(G._objects[fast])
        assert raw_le(raw, t) and raw_le(t, raw)


def test_reversible_bypass_textbook():
    # {0, * | 0} = ^* (Left's 0 is dominated by nothing, * reverses nothing: the nus
    # form); in {^ | v} both options reverse (^'s * <= G), leaving {0 | 0} = *
    assert Game.from_options([0, STAR], [0]) is UP + STAR
    assert Game.from_options([UP], [-UP]) is STAR
    assert Game.from_options([UP, STAR], [-UP, STAR]) is Game("{^,*|v,*}")


def test_full_memo_stays_exact(monkeypatch):
    # a memo of 8 slots fills at once: the kernel must then answer without memoising
    monkeypatch.setattr(G, "_MK", np.full(8, -1, np.int64))
    monkeypatch.setattr(G, "_MV", np.zeros(8, np.int8))
    monkeypatch.setattr(G, "_MC", np.zeros(1, np.int64))
    monkeypatch.setattr(G, "_MEMO_MAX", 8)
    games = pool(5, 30)
    for a in games:
        for b in games:
            G._flush()
            k = G._k.le(G._T, G._X, G._O, G._MK, G._MV, G._MC, G._STK, a.id, b.id)
            assert k == G._le_plain(a.id, b.id)
    assert G._MC[0] <= 6


def test_rehash_keeps_entries():
    keys = np.full(16, -1, np.int64)
    vals = np.zeros(16, np.int8)
    count = np.zeros(1, np.int64)
    for k in range(10):
        G._k._memo_put(keys, vals, count, (k << 32) | (k + 1), k & 1)
    assert count[0] == 10
    nk, nv = G._k.rehash(keys, vals, 64)
    for k in range(10):
        assert G._k._memo_get(nk, nv, (k << 32) | (k + 1)) == k & 1
    assert G._k._memo_get(nk, nv, 12345) == -1


def test_number_not_exact_as_float_is_kept_as_a_tag():
    # x = 1 + 2^-60 is no float: it is kept as its tag, the kernels stay on for the other
    # games, and games with x as a follower are answered by the plain code
    x = number(Fraction(2**60 + 1, 2**60))
    assert G._left[x.id] is None and G._sym[x.id] and G._fast
    a = Game.from_options([UP], [STAR])
    g = Game.from_options([x], [a])
    assert G._sym[g.id] and not G._sym[a.id]
    assert (x > 1, g > 1, g.compare(number(2))) == (True, False, "<")   # g = {x | a} || 1
    assert g.compare(1) == "||" and Game.from_options([0, STAR], [0]) is UP + STAR


def test_sorted_distinct_equals_numpy_unique():
    rng = np.random.default_rng(11)
    for size in [0, 1, 2, 5, 17, 60]:
        for _ in range(30):
            a = rng.integers(0, max(1, size // 2 + 1), size).astype(np.int64)
            before = a.copy()
            assert np.array_equal(G._k.sorted_distinct(a), np.unique(a))
            assert np.array_equal(a, before)            # the input is left alone
