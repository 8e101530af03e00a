"""The MCGS-style search of sums of Clobber rows (clobber/rowsum.py) against a plain minimax
over the reference moves, and its row moves against Position.moves."""

from __future__ import annotations

import random
from functools import cache

import pytest

from clobbermania.clobber.rowsum import (
    RowSumSearch,
    RowSumTimeout,
    canonical_row,
    left_row_moves,
    negative_row,
)
from clobbermania.stones import BLACK, WHITE, Position, opponent


@cache
def brute_wins(position: Position, color: int) -> bool:
    """Whether ``color`` to move wins, by plain recursion on the reference moves."""
    return any(not brute_wins(position.play(m), opponent(color)) for m in position.moves(color))


def random_row(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("xo") for _ in range(n))


def test_row_moves_equal_the_reference():
    rng = random.Random(1)
    for _ in range(300):
        s = random_row(rng, rng.randint(1, 12))
        p = Position.from_string(s)
        ours = left_row_moves(s)
        assert len(ours) == len(p.moves(BLACK)), s
        for (a, b), m in zip(ours, p.moves(BLACK), strict=True):
            q = p.play(m).text()          # the hole is where the moving stone stood
            assert q[:m.src] == a and q[m.src + 1:] == b, (s, m)


def test_canonical_and_negative_rows():
    assert canonical_row("xxo") == "oxx" and canonical_row("oxx") == "oxx"
    assert negative_row("xxo") == "oox"
    rng = random.Random(2)
    for _ in range(100):
        s = random_row(rng, rng.randint(2, 9))
        assert canonical_row(s) == canonical_row(s[::-1]) <= s
        assert negative_row(negative_row(s)) == canonical_row(s)


@pytest.mark.parametrize("small", [0, 3, 6, 40])
def test_single_rows_equal_minimax(small):
    # small = 0: no values at all (pure search); 40: every row is a value
    rng = random.Random(10 + small)
    search = RowSumSearch(small=small)
    for _ in range(60):
        s = "".join(rng.choice("xxoo.") for _ in range(rng.randint(2, 12)))
        p = Position.from_string(s)
        for color in (BLACK, WHITE):
            assert search.wins_first([s], color) == brute_wins(p, color), (s, color, small)


def test_sums_of_rows_equal_minimax():
    rng = random.Random(3)
    search = RowSumSearch(small=4)
    for _ in range(60):
        rows = [random_row(rng, rng.randint(2, 6)) for _ in range(rng.randint(2, 3))]
        p = Position.from_string(".".join(rows))     # the sum, one board
        for color in (BLACK, WHITE):
            assert search.wins_first(rows, color) == brute_wins(p, color), (rows, color)


def test_cancellation_and_negatives():
    search = RowSumSearch(small=2)
    # a long row plus its colour swap (reversed): G + (-G) = 0, decided without search
    g = "xxoxoxoo"
    for color in ("black", "white"):
        assert not search.wins_first([g, negative_row(g)[::-1]], color)
    nodes = search.nodes
    assert not search.wins_first([g, negative_row(g)], "black")
    assert search.nodes == nodes + 1
    # the normalised sum: values added, zeros and pairs gone
    up = search._value_id("xxo")
    down = search._value_id("xoo")
    assert search.normalize(["xoxoxo"], [up, down]) == (("xoxoxo",), ())
    # a component equal to its own negative cancels a copy of itself: (xo)^5 + (xo)^5 = 0
    row = canonical_row("xo" * 5)
    assert negative_row(row) == row
    assert search.normalize([row, row, row], []) == ((row,), ())
    star = search._value_id("xo")
    assert search.normalize([], [star, star]) == ((), ())
    for color in ("black", "white"):
        assert not search.wins_first(["xo" * 5, "ox" * 5], color)
        assert search.wins_first(["xo" * 5] * 3, color)


def test_xo_rows_first_player_wins_except_n_3():
    search = RowSumSearch(small=8)
    for n in range(1, 13):
        for color in ("black", "white"):
            assert search.wins_first(["xo" * n], color) == (n != 3), n


def test_limits_raise_and_keep_the_tables():
    search = RowSumSearch(small=6)
    with pytest.raises(RowSumTimeout):
        search.wins_first(["xo" * 14], "black", node_limit=5)
    assert search.memo   # what was found stays
    assert search.wins_first(["xo" * 14], "black")


def test_long_rows_equal_the_bitboard_search():
    # rows of 24-30 stones: solve_outcome decides them by the bitboard search alone; the
    # row-sum search (values for parts of <= 10 stones) must agree
    from clobbermania.clobber.search import solve_outcome

    rng = random.Random(4)
    search = RowSumSearch(small=10)
    for _ in range(6):
        s = random_row(rng, rng.randint(24, 30))
        for color in ("black", "white"):
            r = solve_outcome(Position.from_string(s), color, all_moves=False)
            assert r.proof.startswith("exhaustive")
            assert search.wins_first([s], color) == (r.winner == color), (s, color)


def test_solve_sum_sends_long_rows_to_the_row_search():
    from clobbermania.clobber.search import solve_outcome, solve_sum

    row = "xo" * 20                      # 40 stones: beyond the bitboard's first share
    r = solve_sum([Position.from_string(row)], "white")
    assert r.winner == "white" and r.exact and r.proof.startswith("row-sum")
    # two rows on separate boards, and one board with a column
    r = solve_sum([Position.from_string("xoxoxo"), Position.from_string("xo")], "black")
    assert r.winner == "black"           # (xo)^3 = 0 (P), plus *: the first player wins
    r = solve_outcome(Position.from_string("x" * 40 + "o"), "black")
    assert r.winner == "black" and r.winning_moves == ("an1-ao1",)
    # a column of 34 stones: the same game as the row
    col = Position.from_string("/".join("xo" * 17))
    r = solve_sum([col], "black")
    assert r.winner == "black" and r.proof.startswith("row-sum")


def test_reproduce_xo_claim_passes_and_catches_a_wrong_statement():
    import clobbermania.reproduce.clobber as rc

    claim = rc._xo_claim(budget=1.0)
    assert claim.status == "pass" and claim.found.startswith("holds for n = 1..")
    assert int(claim.found.rsplit(".", 1)[1]) >= 8
    # a wrong statement (every n a first-player win) must fail at n = 3
    saved = rc.xo_first_player_wins
    rc.xo_first_player_wins = lambda n: True
    try:
        bad = rc._xo_claim(budget=0.5)
        assert bad.status == "fail" and "n=3: not N" in bad.found
    finally:
        rc.xo_first_player_wins = saved
