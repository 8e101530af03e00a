"""Theorem 1's construction for the row A_n, replayed by the reference rules."""

import pytest

from clobbermania import BLACK, WHITE, Position
from clobbermania.graphs import path
from clobbermania.solitaire import replay, solve
from clobbermania.solitaire.construction import reduce_row
from clobbermania.solitaire.theory import one_d_value


@pytest.mark.parametrize("first", [BLACK, WHITE])
def test_reduce_row_meets_the_bound_for_every_n_up_to_300(first):
    for n in range(1, 301):
        row = Position.from_string(("xo" * n)[:n])
        r = replay(row, reduce_row(n, first), first=first)
        assert r.valid and r.stones_left == one_d_value(n), n


def test_reduce_row_agrees_with_the_exact_solver():
    for n in range(1, 21):
        for first in (BLACK, WHITE):
            exact = solve(Position.from_string(("xo" * n)[:n]), first=first,
                          use_theorems=False)
            assert exact.stones_left == len(("xo" * n)[:n]) - len(reduce_row(n, first))


def test_solve_answers_long_rows_by_theorem():
    for text in ("xo" * 50 + "x", "ox" * 60):
        n = len(text)
        for board in (None, path(n)):
            p = Position.from_string(text, board)
            for first in (BLACK, WHITE, None):
                r = solve(p, first=first)
                assert r.exact and r.stones_left == one_d_value(n)
                assert r.proof.startswith("Theorems 1 and 2")
                assert replay(p, r.moves, first=r.first).stones_left == r.stones_left


def test_bad_arguments():
    from clobbermania.errors import UnsupportedError
    with pytest.raises(UnsupportedError):
        reduce_row(0)
    with pytest.raises(UnsupportedError):
        reduce_row(5, first=7)
