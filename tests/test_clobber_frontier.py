"""The CGT-aided bitboard search (issue 28): small parts valued inside the search, replaced
by the simplest part of equal value, and sums of valued parts decided by their outcome.

Held against the plain bitboard search (parts off) and against the values of
:mod:`clobbermania.clobber.values`: the winner and the winning-move list on every
rectangle up to 4x5 and 3x6 and on random positions; a reduced position has the value of
the original."""

from __future__ import annotations

import random

import numpy as np
import pytest

from clobbermania.clobber import _search_kernels as K
from clobbermania.clobber import search
from clobbermania.clobber.values import clobber_value
from clobbermania.stones import BLACK, WHITE, Position


def random_position(rng: random.Random, rows: int, cols: int, holes: float) -> Position:
    cells = ["." if (x := rng.random()) < holes else "x" if x < holes + (1 - holes) / 2
             else "o" for _ in range(rows * cols)]
    return Position.from_string("/".join("".join(cells[r * cols:(r + 1) * cols])
                                         for r in range(rows)))


def engine(board, pmax: int, chunk: int = 50_000_000) -> search._Engine:
    """A fresh engine with parts of up to ``pmax`` stones valued; kernel calls of at most
    ``chunk`` nodes (the parts a call lists are valued after it). (A call resumes from the
    root, so a small ``chunk`` must still exceed the nodes of walking back down to where
    the last call stopped.)"""
    old = search.PART_STONES
    search.PART_STONES = pmax
    try:
        e = search._Engine(board)
    finally:
        search.PART_STONES = old
    e.max_chunk = chunk
    return e


def warm_engine(p: Position, color: int, pmax: int) -> search._Engine:
    """An engine with a fresh transposition table whose part and sum tables already hold
    every part and pair of values that a search of p met: the search uses them from its
    first node (a small search is done in one kernel call, before any part is valued)."""
    first = engine(p.board, pmax)
    outcome_and_moves(first, p, color)
    e = engine(p.board, pmax)
    e.parts, e.sums, e.lwin, e.games = first.parts, first.sums, first.lwin, first.games
    return e


def outcome_and_moves(e: search._Engine, p: Position, color: int) -> tuple[bool, list]:
    """Whether ``color`` to move wins p, and its winning first moves, on engine e."""
    budget = search._Budget(None, None)
    me, opp = (p.black, p.white) if color == BLACK else (p.white, p.black)
    root = e.wins(me, opp, budget)
    moves = []
    for mv in p.moves(color):
        nme = (me & ~(1 << mv.src)) | (1 << mv.dst)
        if not e.wins(opp & ~(1 << mv.dst), nme, budget):
            moves.append(mv.to_str(p.board))
    return root, moves


RECTANGLES = [(r, c) for r in range(1, 5) for c in range(2, 6)] + [(2, 6), (3, 6)]


@pytest.mark.parametrize("rows,cols", RECTANGLES)
def test_rectangles_same_winner_and_winning_moves(rows, cols):
    p = Position.checkerboard(rows, cols)
    for color in (BLACK, WHITE):
        plain = outcome_and_moves(engine(p.board, 0), p, color)
        parts = warm_engine(p, color, 8)
        assert outcome_and_moves(parts, p, color) == plain
        if rows * cols >= 12:
            assert parts.parts.count > 0     # parts were met and valued


def test_random_positions_same_winner_and_winning_moves():
    rng = random.Random(28)
    used = 0
    for _ in range(50):
        p = random_position(rng, rng.randint(2, 4), rng.randint(3, 5), rng.random() * 0.4)
        color = rng.choice((BLACK, WHITE))
        e = warm_engine(p, color, rng.choice((4, 6, 8, 10)))
        assert outcome_and_moves(e, p, color) == outcome_and_moves(engine(p.board, 0), p,
                                                                   color), p.text()
        used += e.parts.count
    assert used > 200


def test_reduced_positions_keep_their_value_and_verdicts_their_outcome():
    """reduce_parts on random positions, with the part and sum tables filled by an engine:
    the reduced position has the value of the original (both colours to move), and a
    verdict is the outcome of the original with the owner of ``me`` first."""
    rng = random.Random(2026)
    board = Position.checkerboard(4, 4).board
    e = warm_engine(Position.checkerboard(4, 4), BLACK, 8)   # tables filled
    replaced = decided = 0
    for _ in range(150):
        # (a third or more of the squares empty: the values of the whole stay cheap)
        p = random_position(rng, 4, 4, 0.3 + rng.random() * 0.4)
        for color in (BLACK, WHITE):
            me, opp = (p.black, p.white) if color == BLACK else (p.white, p.black)
            sme, sopp = K.simplify(np.uint64(me), np.uint64(opp), e.nbr)
            rme, ropp, verdict = K.reduce_parts(
                np.uint64(sme), np.uint64(sopp), e.nbr, e.syms, e.cols, e.row0,
                *e.parts.arrays, *e.sums.arrays, e.lwin, e.pend, e.spend, e.pstat, e.pconst)
            e._value_parts()
            sign = 1 if color == BLACK else -1
            before = clobber_value(p)
            rb, rw = (int(rme), int(ropp)) if color == BLACK else (int(ropp), int(rme))
            after = clobber_value(Position.from_masks(board, rb, rw))
            assert before == after, p.text()
            if (rme, ropp) != (sme, sopp):
                replaced += 1
            if verdict:
                decided += 1
                o = (before if sign == 1 else -before).outcome
                assert (verdict == K.WIN) == (o in ("L", "N")), p.text()
    assert replaced > 10 and decided > 10, (replaced, decided)


def test_parts_valued_between_kernel_calls_agree_on_4x5():
    """A search of several kernel calls, parts valued as they are met (no warm tables):
    the 4x5 start's winner and winning moves with parts equal those with parts off, and
    the search used fewer nodes."""
    p = Position.checkerboard(4, 5)
    e = engine(p.board, 10)   # the first call is 2^14 nodes, the next ones larger
    a = outcome_and_moves(e, p, WHITE)
    b = outcome_and_moves(engine(p.board, 0), p, WHITE)
    assert a == b and a[0] is True
    assert e.parts.count > 1000 and e.sums.count > 100
