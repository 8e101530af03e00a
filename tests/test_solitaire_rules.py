"""Tests of the Solitaire Clobber rules: replay, the numba kernels against the reference
rules, the delta invariant and the static lower bound against an independent brute force."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import BruteForce
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clobbermania.errors import IllegalMoveError, NotationError
from clobbermania.graphs import parse_graph_spec
from clobbermania.solitaire import _kernels as K
from clobbermania.solitaire.rules import is_over, legal_moves, parse_first, replay, sequence
from clobbermania.solitaire.theory import (
    clashing_stones,
    component_lower_bound,
    delta,
)
from clobbermania.stones import BLACK, EMPTY, WHITE, Board, Move, Position

PROPS = settings(max_examples=200, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# -- independent brute force ------------------------------------------------------------------




# -- boards and positions ---------------------------------------------------------------------

GRID_BOARDS = [Board.grid(r, c) for r in range(1, 6) for c in range(1, 6)]
GRAPH_BOARDS = [parse_graph_spec(s) for s in ("cycle:5", "cycle:6", "complete:5", "hamming:2,3",
                                              "hypercube:3", "path:6", "grid:3x3")]
BIG_BOARDS = [Board.grid(8, 8), parse_graph_spec("hypercube:6"), Board.grid(7, 9)]
ALL_BOARDS = GRID_BOARDS + GRAPH_BOARDS + BIG_BOARDS


@st.composite
def positions(draw, boards=ALL_BOARDS) -> Position:
    board = draw(st.sampled_from(boards))
    weights = draw(st.sampled_from([(1, 1, 1), (1, 2, 2), (3, 1, 1)]))
    pool = [EMPTY] * weights[0] + [BLACK] * weights[1] + [WHITE] * weights[2]
    cells = draw(st.lists(st.sampled_from(pool), min_size=board.n, max_size=board.n))
    return Position(board, bytes(cells))


def kernel_args(board: Board):
    adj = np.array(board.adjacency_masks, dtype=np.uint64)
    size = max(1, sum(len(board.neighbors(v)) for v in range(board.n)))
    return adj, np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)


def blacksq(board: Board) -> np.uint64:
    colors = board.square_colors
    return np.uint64(sum(1 << v for v in range(board.n) if colors and colors[v] == BLACK))


# -- replay ---------------------------------------------------------------------------------


def test_replay_legal_sequence():
    p = Position.from_string("xoxo")
    r = replay(p, ["a1-b1", "d1-c1", "b1-c1"])
    assert r.valid and r.error is None
    assert r.stones_left == 1 and r.moves_played == 3
    assert r.final.text() == "..x."
    assert r.first == BLACK
    d = r.to_dict()
    assert d["valid"] and d["stones_left"] == 1 and d["first"] == "black" and "error" not in d


def test_replay_with_move_objects_and_graph_notation():
    g = parse_graph_spec("cycle:4")
    p = Position.from_string("xoxo", g)
    r = replay(p, [Move(1, 2), "0-3", Move(2, 3)])
    assert r.valid and r.stones_left == 1 and r.first == WHITE
    assert r.final.text() == "...o"


@pytest.mark.parametrize(
    "moves, bad, piece",
    [
        (["a1-b1", "a1-b1"], 2, "a1-b1"),           # a1 is empty now
        (["a1-c1"], 1, "a1-c1"),                    # not adjacent
        (["a1-b1", "d1-c1", "c1-b1"], 3, "c1-b1"),  # black's turn, c1 holds white
        (["a1-b1", "b1-c1"], 2, "b1-c1"),           # same colour on c1, and white's turn
        (["a1-a1"], 1, "a1-a1"),
    ],
)
def test_replay_illegal_sequences(moves, bad, piece):
    p = Position.from_string("xoxo")
    r = replay(p, moves)
    assert not r.valid
    assert r.moves_played == bad - 1
    assert r.stones_left == 4 - (bad - 1)
    assert f"move {bad}" in r.error and piece in r.error
    assert r.to_dict()["error"] == r.error
    assert r.final == replay(p, moves[:bad - 1]).final


def test_replay_illegal_target_reasons():
    p = Position.from_string("xxo./o...")
    r = replay(p, ["a1-b1"], free=True)
    assert not r.valid and "same colour" in r.error
    r = replay(p, ["c1-d1"], free=True)
    assert not r.valid and "empty" in r.error
    r = replay(p, ["d1-c1"], free=True)
    assert not r.valid and "d1 is empty" in r.error
    r = replay(p, ["a2-a1", "b1-c1"], free=True)
    assert r.valid and r.stones_left == 2


def test_alternation_enforced():
    p = Position.from_string("xoxo")
    # a1-b1 (black), then c1-d1 (black again)
    r = replay(p, ["a1-b1", "c1-d1"])
    assert not r.valid and "move 2" in r.error and "c1-d1" in r.error
    assert "white" in r.error
    r = replay(p, ["a1-b1", "c1-d1"], free=True)
    assert r.valid and r.stones_left == 2 and r.first is None
    assert r.final.text() == ".x.x"


def test_first_enforced():
    p = Position.from_string("xoxo")
    r = replay(p, ["b1-a1"], first=BLACK)
    assert not r.valid and "move 1" in r.error and "b1-a1" in r.error
    r = replay(p, ["a1-b1"], first=WHITE)
    assert not r.valid and "move 1" in r.error
    r = replay(p, ["b1-a1"], first=WHITE)
    assert r.valid and r.first == WHITE
    r = replay(p, ["b1-a1"])
    assert r.valid and r.first == WHITE
    r = replay(p, [], first=WHITE)
    assert r.valid and r.stones_left == 4 and r.moves_played == 0


def test_replay_bad_notation_raises():
    p = Position.from_string("xoxo")
    with pytest.raises(NotationError):
        replay(p, ["a1b1"])


def test_play_and_sequence_and_helpers():
    p = Position.from_string("xo./ox.")
    assert [m.to_str(p.board) for m in legal_moves(p)] == [
        "a1-b1", "a1-a2", "b2-b1", "b2-a2", "b1-a1", "b1-b2", "a2-a1", "a2-b2"]
    assert {m.to_str(p.board) for m in legal_moves(p, BLACK)} == {"a1-b1", "a1-a2", "b2-b1",
                                                                   "b2-a2"}
    assert {m.to_str(p.board) for m in legal_moves(p, WHITE)} == {"b1-a1", "b1-b2", "a2-a1",
                                                                   "a2-b2"}
    with pytest.raises(IllegalMoveError, match="a1-b1"):
        p.play(Move(0, 1), WHITE)
    with pytest.raises(IllegalMoveError):
        p.play(Move(0, 2))
    seq = sequence(p, [Move(0, 1), Move(3, 4), Move(1, 4)])
    assert [q.text() for q in seq] == ["xo./ox.", ".x./ox.", ".x./.o.", ".../.x."]
    assert not is_over(seq[0]) and not is_over(seq[2], BLACK)
    assert is_over(seq[2], WHITE) is False  # b2 (white) can take b1
    assert is_over(seq[3], BLACK) and is_over(seq[3], WHITE) and is_over(seq[3])
    with pytest.raises(IllegalMoveError):
        sequence(p, [Move(0, 1), Move(4, 3)])  # black twice
    assert parse_first("black") == BLACK and parse_first("O") == WHITE
    assert parse_first(None) is None and parse_first("any") is None
    with pytest.raises(NotationError):
        parse_first("red")


# -- kernels against the reference rules ------------------------------------------------------


def reference_moves(p: Position, side: int) -> list[tuple[int, int]]:
    """Moves written from the rules: a stone of the colour due (any when side 2) takes an
    adjacent stone of the other colour. Black stones first, targets in vertex order."""
    out = []
    for color in (BLACK, WHITE):
        if side != 2 and color != (BLACK if side == 0 else WHITE):
            continue
        for v, c in enumerate(p.cells):
            if c == color:
                for u in sorted(p.board.neighbors(v)):
                    if p.cells[u] == 3 - color:
                        out.append((v, u))
    return out


@PROPS
@given(positions())
def test_kernels_agree_with_reference_rules(p):
    adj, src, dst = kernel_args(p.board)
    b, w = np.uint64(p.black), np.uint64(p.white)
    for side, color in ((0, BLACK), (1, WHITE), (2, None)):
        cnt = K.generate_moves(b, w, side, adj, src, dst)
        got = [(int(src[i]), int(dst[i])) for i in range(cnt)]
        ref = [(m.src, m.dst) for m in p.moves(color)]
        assert set(got) == set(ref)
        assert len(got) == len(set(got))
        assert got == ref == reference_moves(p, side)
    for m in p.moves():
        nb, nw, mover = K.apply_move(b, w, m.src, m.dst)
        q = p.play(m)
        assert (int(nb), int(nw)) == (q.black, q.white)
        assert int(mover) == (0 if p.cells[m.src] == BLACK else 1)
        # independent: the mover lands on dst, src empties
        assert q.cells[m.dst] == p.cells[m.src] and q.cells[m.src] == EMPTY
        assert q.stone_count() == p.stone_count() - 1


@PROPS
@given(positions(GRID_BOARDS + [b for b in GRAPH_BOARDS if b.is_bipartite] + BIG_BOARDS[:2]),
       st.lists(st.integers(0, 10_000), max_size=40))
def test_delta_is_invariant_under_play(p, choices):
    d0 = delta(p)
    colors = p.board.square_colors
    clash = sum(1 for v, c in enumerate(p.cells) if c != EMPTY and c != colors[v])
    assert clashing_stones(p) == clash
    assert d0 == (p.stone_count() + clash) % 3
    for k in choices:
        moves = p.moves()
        if not moves:
            break
        p = p.play(moves[k % len(moves)])
        assert delta(p) == d0


def test_delta_examples():
    # Lemma 3: one stone has delta 1 (matching) or 2 (clashing)
    assert delta(Position.from_string("x")) == 1
    assert delta(Position.from_string("o")) == 2
    assert delta(Position.from_string(".x")) == 2
    assert delta(Position.checkerboard(3, 3)) == 0
    assert delta(Position.checkerboard(2, 3)) == 0
    assert delta(Position.checkerboard(2, 2)) == 1


SMALL_BOARDS = [Board.grid(r, c) for r, c in ((1, 1), (1, 4), (1, 7), (2, 2), (2, 3), (3, 3),
                                              (2, 4))]
SMALL_BOARDS += [parse_graph_spec(s) for s in ("cycle:5", "cycle:6", "complete:4", "complete:5",
                                               "hamming:2,3", "path:6", "hypercube:3")]
_BRUTE = {}


def brute(board: Board) -> BruteForce:
    if board not in _BRUTE:
        _BRUTE[board] = BruteForce(board)
    return _BRUTE[board]


@PROPS
@given(positions(SMALL_BOARDS))
def test_static_lower_bound_is_sound(p):
    board = p.board
    adj = np.array(board.adjacency_masks, dtype=np.uint64)
    lb = int(K.static_lower_bound(np.uint64(p.black), np.uint64(p.white), adj, blacksq(board),
                                  board.is_bipartite))
    bf = brute(board)
    cells = tuple(p.cells)
    free = bf.value(cells, 0)
    sc_black, sc_white = bf.value(cells, BLACK), bf.value(cells, WHITE)
    assert lb <= free <= min(sc_black, sc_white)
    assert lb <= p.stone_count()
    # the Python bound of theory.py is the same bound
    assert component_lower_bound(p)[0] == lb
    if p.stone_count() and (p.black == 0 or p.white == 0):
        assert lb == free == p.stone_count()


@PROPS
@given(positions(SMALL_BOARDS))
def test_alternation_lower_bound_is_sound(p):
    bf = brute(p.board)
    nb, nw = p.stone_count(BLACK), p.stone_count(WHITE)
    for side, color in ((0, BLACK), (1, WHITE)):
        assert int(K.alternation_lower_bound(nb, nw, side)) <= bf.value(tuple(p.cells), color)


# -- canonical keys and exact group values -----------------------------------------------------


def symmetry_table(board: Board) -> np.ndarray:
    perms = board.symmetries()
    table = np.zeros((len(perms), 8, 256), dtype=np.uint64)
    for s, perm in enumerate(perms):
        for j in range(8):
            for byte in range(1, 256):
                m = 0
                for i in range(8):
                    v = 8 * j + i
                    if byte >> i & 1 and v < board.n:
                        m |= 1 << perm[v]
                table[s, j, byte] = m
    return table


_TABLES = {}


def table_of(board: Board) -> np.ndarray:
    if board not in _TABLES:
        _TABLES[board] = symmetry_table(board)
    return _TABLES[board]


KEY_BOARDS = [Board.grid(3, 3), Board.grid(2, 4), Board.grid(4, 4), parse_graph_spec("cycle:6"),
              parse_graph_spec("path:5")]


@settings(max_examples=100, deadline=None)
@given(positions(KEY_BOARDS), st.integers(0, 2), st.data())
def test_canonical_key_is_invariant(p, side, data):
    board = p.board
    table = table_of(board)
    nsym = len(board.symmetries())
    key = K.canonical_key(np.uint64(p.black), np.uint64(p.white), side, table, nsym, True)
    perm = data.draw(st.sampled_from(board.symmetries()))
    q = p.transform(perm)
    assert K.canonical_key(np.uint64(q.black), np.uint64(q.white), side, table, nsym,
                           True) == key
    s = q.swap_colors()
    sside = side if side == 2 else 1 - side
    assert K.canonical_key(np.uint64(s.black), np.uint64(s.white), sside, table, nsym,
                           True) == key
    # the key is one of the images of the position
    images = set()
    for pm in board.symmetries():
        t = p.transform(pm)
        images.add((t.black, t.white, side))
        images.add((t.white, t.black, sside))
    assert (int(key[0]), int(key[1]), int(key[2])) == min(images)


GROUP_BOARDS = [Board.grid(3, 3), Board.grid(2, 4), Board.grid(1, 8), parse_graph_spec("cycle:6"),
                parse_graph_spec("complete:5"), parse_graph_spec("hamming:2,3")]


@settings(max_examples=80, deadline=None)
@given(positions(GROUP_BOARDS))
def test_group_value_is_the_sc2_optimum(p):
    board = p.board
    # keep the group of stones containing the lowest stone
    stones = p.stones()
    if not stones:
        return
    comp, stack = {stones[0]}, [stones[0]]
    while stack:
        u = stack.pop()
        for v in board.neighbors(u):
            if p.cells[v] != EMPTY and v not in comp:
                comp.add(v)
                stack.append(v)
    cells = bytes(p.cells[v] if v in comp else EMPTY for v in range(board.n))
    g = Position(board, cells)
    if g.black == 0 or g.white == 0:
        return
    adj = np.array(board.adjacency_masks, dtype=np.uint64)
    size = 1 << 10
    gk1, gk2 = np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.uint64)
    gks, gv = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int8)
    counter = np.array([0, 1 << 40, 0], dtype=np.int64)
    translate = board.is_grid
    cols = board.cols if board.is_grid else board.n
    v = K.group_value(np.uint64(g.black), np.uint64(g.white), adj, blacksq(board),
                      board.is_bipartite, table_of(board), len(board.symmetries()), translate,
                      cols, gk1, gk2, gks, gv, counter)
    assert int(v) == brute(board).value(tuple(g.cells), 0)
