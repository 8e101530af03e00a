"""SC2 on paths and cycles: the polynomial algorithm against the exhaustive solver."""

import itertools
import random

import pytest

from clobbermania import Position
from clobbermania.graphs import cycle, path
from clobbermania.solitaire import replay, solve
from clobbermania.solitaire.paths import cycle_sc2, path_sc2
from clobbermania.solitaire.theory import one_d_value
from clobbermania.stones import Move

FACTORIES = {"path": (path, path_sc2, 1), "cycle": (cycle, cycle_sc2, 3)}


def check(kind: str, text: str) -> None:
    factory, algo, _ = FACTORIES[kind]
    p = Position.from_string(text, factory(len(text)))
    value, pairs = algo(text)
    r = replay(p, [Move(a, b) for a, b in pairs], free=True)
    assert r.valid and r.stones_left == value, (kind, text)
    exhaustive = solve(p, free=True, algorithm="search")
    assert exhaustive.exact and exhaustive.stones_left == value, (kind, text)


@pytest.mark.parametrize("kind", ["path", "cycle"])
def test_every_colouring_with_holes_up_to_6(kind):
    for n in range(FACTORIES[kind][2], 7):
        for cells in itertools.product("xo.", repeat=n):
            check(kind, "".join(cells))


@pytest.mark.parametrize("kind", ["path", "cycle"])
def test_every_two_colour_colouring_up_to_11(kind):
    for n in range(FACTORIES[kind][2], 12):
        for cells in itertools.product("xo", repeat=n):
            check(kind, "".join(cells))


def test_random_longer_colourings_against_search():
    rng = random.Random(7)
    for _ in range(40):
        n = rng.randint(12, 40)
        text = "".join(rng.choice("xxoo.") for _ in range(n))
        check("path", text)
        check("cycle", text)


def test_one_d_formula_holds_in_sc2_far_beyond_the_solver():
    for n in list(range(1, 80)) + [150, 301]:
        assert path_sc2(("xo" * n)[:n])[0] == one_d_value(n)


def test_solve_uses_the_polynomial_algorithm_at_any_size():
    n = 130
    p = Position.from_string(("xo" * n)[:n], path(n))
    r = solve(p, free=True)
    assert r.exact and r.stones_left == one_d_value(n)
    assert r.proof.startswith("polynomial algorithm")
    assert replay(p, r.moves, free=True).stones_left == r.stones_left
    row = Position.from_string("xo" * 40)  # a 1 x 80 grid is a path too
    assert solve(row, free=True).stones_left == one_d_value(80)
    # under alternation the exact solver's 64-square limit still applies (to rows that
    # are not the checkerboard A_n, which Theorems 1-2 answer)
    q = Position.from_string("xxo" * 30, path(90))
    with pytest.raises(Exception, match="64 squares"):
        solve(q)
