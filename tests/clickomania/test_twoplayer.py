"""Two-player Clickomania: the values against plain searches that know no theory.

The brute forces here recurse on :class:`clobbermania.clickomania.rules.Board` itself
(memo keyed by the board, no keys, no symmetry, no splitting): outcomes by minimax, Grundy
values by mex, partizan values by ``Game.from_options`` over the raw options, and the
outcome of a *sum* of two boards by minimax on the pair (which checks the values as values,
not only their outcomes).
"""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path

import pytest

from clobbermania.cgt import Game as CGTGame
from clobbermania.clickomania.rules import Board
from clobbermania.clickomania.twoplayer import (
    TwoPlayerTimeout,
    column_board,
    column_statistics,
    column_values,
    grundy_value,
    impartial_key,
    long_runs_grundy,
    long_runs_proof,
    long_runs_value,
    owner,
    partizan_key,
    partizan_value,
    value_result,
)
from clobbermania.errors import NotationError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cli_runner import run_cli  # noqa: E402


# --- the independent brute force -----------------------------------------------------------
def clicks(b: Board):
    """(colour, board after) for every legal click, straight from the reference rules."""
    return [(g.color, b.click(g.square)) for g in b.groups() if g.size >= 2]


@cache
def mover_wins(b: Board) -> bool:
    """Impartial: the player to move wins."""
    return any(not mover_wins(c) for _, c in clicks(b))


@cache
def plain_grundy(b: Board) -> int:
    seen = {plain_grundy(c) for _, c in clicks(b)}
    m = 0
    while m in seen:
        m += 1
    return m


def mine(color: int, left: frozenset | None) -> bool:
    return color % 2 == 0 if left is None else color in left


@cache
def wins_first(b: Board, left_moves: bool, left: frozenset | None) -> bool:
    """Partizan: the player to move (Left if left_moves) wins."""
    return any(not wins_first(c, not left_moves, left)
               for col, c in clicks(b) if mine(col, left) == left_moves)


def brute_outcome(b: Board, left: frozenset | None = None) -> str:
    lw, rw = wins_first(b, True, left), wins_first(b, False, left)
    return {(True, True): "N", (True, False): "L", (False, True): "R",
            (False, False): "P"}[(lw, rw)]


@cache
def plain_value(b: Board) -> CGTGame:
    opts = clicks(b)
    return CGTGame.from_options([plain_value(c) for col, c in opts if col % 2 == 0],
                                [plain_value(c) for col, c in opts if col % 2 == 1])


@cache
def sum_mover_wins(a: Board, b: Board) -> bool:
    """Impartial sum A + B: the player to move wins."""
    return any(not sum_mover_wins(c, b) for _, c in clicks(a)) or \
        any(not sum_mover_wins(a, c) for _, c in clicks(b))


@cache
def sum_wins_first(a: Board, b: Board, left_moves: bool) -> bool:
    """Partizan sum A + B (default owners): the player to move wins."""
    return any(not sum_wins_first(c, b, not left_moves)
               for col, c in clicks(a) if (col % 2 == 0) == left_moves) or \
        any(not sum_wins_first(a, c, not left_moves)
            for col, c in clicks(b) if (col % 2 == 0) == left_moves)


def random_board(rng: random.Random, h: int, w: int, k: int) -> Board:
    """A random settled board: full columns, some with blocks removed from the top."""
    cols = []
    for _ in range(w):
        n = rng.randint(1, h)
        cols.append([rng.randrange(k) for _ in range(n)])
    return Board.from_columns(cols, h, w)


def boards(seed: int, count: int, shapes) -> list[Board]:
    rng = random.Random(seed)
    return [random_board(rng, *rng.choice(shapes)) for _ in range(count)]


SHAPES = [(2, 2, 2), (2, 3, 2), (3, 3, 2), (2, 4, 2), (3, 3, 3), (2, 3, 3), (4, 2, 3),
          (3, 4, 2), (1, 7, 2), (7, 1, 3), (2, 5, 3)]


# --- tests -----------------------------------------------------------------------------------
@pytest.mark.parametrize("b", boards(1, 120, SHAPES), ids=str)
def test_impartial_against_brute_force(b):
    g = grundy_value(b)
    assert g == plain_grundy(b)
    assert (g != 0) == mover_wins(b)


@pytest.mark.parametrize("b", boards(2, 120, SHAPES), ids=str)
def test_partizan_against_brute_force(b):
    v = partizan_value(b)
    assert v is plain_value(b)
    assert v.outcome == brute_outcome(b)


def test_sums_check_the_values_themselves():
    # G(A) xor G(B) = 0 exactly when A + B is lost by the mover; (vA + vB).outcome is the
    # outcome of the sum played out by minimax: wrong values would show on some pair
    pool = boards(3, 24, [(2, 2, 2), (2, 3, 2), (1, 6, 2), (3, 2, 3), (5, 1, 2)])
    pairs = [(a, b) for a in pool for b in pool][::3]
    for a, b in pairs:
        assert (grundy_value(a) ^ grundy_value(b) != 0) == sum_mover_wins(a, b), (a, b)
        lw, rw = sum_wins_first(a, b, True), sum_wins_first(a, b, False)
        out = {(True, True): "N", (True, False): "L", (False, True): "R",
               (False, False): "P"}[(lw, rw)]
        assert (partizan_value(a) + partizan_value(b)).outcome == out, (a, b)


def test_every_column_of_up_to_8_blocks_against_brute_force():
    vals = column_values(8)
    assert len(vals) == 2 ** 9 - 2
    for word, (g, v) in vals.items():
        b = column_board(word)
        assert g == plain_grundy(b), word
        assert v is plain_value(b), word
        # a column and its row play the same game (fact 3)
        row = Board.from_string(word)
        assert plain_grundy(row) == g and plain_value(row) is v, word


def test_three_and_four_colour_columns_against_brute_force():
    rng = random.Random(4)
    for _ in range(150):
        k = rng.choice((3, 4))
        word = "".join(rng.choice("0123"[:k]) for _ in range(rng.randint(1, 11)))
        b = column_board(word)
        assert grundy_value(b) == plain_grundy(b), word
        assert partizan_value(b) is plain_value(b), word


def test_separators_against_brute_force():
    # fact 4: blocks (one column) and columns (several) of colours met once split the board
    rng = random.Random(11)
    for _ in range(60):
        b = random_board(rng, rng.randint(1, 3), rng.randint(2, 4), 2)
        cols = [list(c) for c in b.columns]
        lone = [7] if rng.random() < 0.5 else [8, 9][:rng.randint(1, 2)]
        cols.insert(rng.randint(0, len(cols)), lone)
        wide = Board.from_columns(cols, max(b.height, 2), len(cols))
        word = [rng.randrange(2) for _ in range(rng.randint(2, 9))]
        for extra in (4, 5):
            word.insert(rng.randint(0, len(word)), extra)
        tall = Board.from_columns([word], len(word))
        for x in (wide, tall):
            assert grundy_value(x) == plain_grundy(x), x
            assert partizan_value(x) is plain_value(x), x


def test_hand_checked_values():
    # 00: Left clicks to the empty board: {0|} = 1; 11 is -1; 0011: {-1|1} = 0
    assert str(partizan_value("00")) == "1" and str(partizan_value("11")) == "-1"
    assert str(partizan_value("0011")) == "0"
    # 0110: Right's click joins the 0s: {|1} = 0; Grundy mex{G(00) = 1} = 0
    assert str(partizan_value("0110")) == "0" and grundy_value("0110") == 0
    # 00110011: Left {0011 -> ... } by symmetry the value is its own negative: 0 or *;
    # every click leaves a column with one more click for the other side: *
    assert str(partizan_value("00110011")) == "*"
    # alternating singletons: nobody can click
    assert grundy_value("010101") == 0 and partizan_value("0101/1010") is CGTGame(0)
    # 0001000: the lone 1 separates two copies of 000 (= 1 each): 2, Grundy * + * = 0
    assert str(partizan_value("0/0/0/1/0/0/0")) == "2" and grundy_value("0001000") == 0
    # 2x2 of one colour: one click clears it
    assert grundy_value("00/00") == 1 and str(partizan_value("11/11")) == "-1"


def test_keys_and_symmetries():
    assert impartial_key("0011") == impartial_key("2211") == impartial_key("1/1/0/0")
    assert impartial_key("0001") == ((0, 0, 1),) == impartial_key("1/2/2/2")
    assert impartial_key("01/01") == impartial_key("10/10")
    # 0011 is its own colour swap read backwards: both signs reach its key, value 0
    assert partizan_key("0011")[0] == partizan_key("1100")[0] == ((0, 0, 1, 1),)
    assert partizan_key("001")[0] == partizan_key("110")[0]
    assert partizan_key("001")[1] == -partizan_key("110")[1]
    # colour swap negates, mirror and renaming keep, in the values themselves
    for b in boards(5, 30, [(3, 3, 2), (2, 4, 3)]):
        swapped = Board.from_columns([[x ^ 1 for x in c] for c in b.columns], b.height,
                                     b.width)
        mirror = Board.from_columns(b.columns[::-1], b.height, b.width)
        assert partizan_value(swapped) is -partizan_value(b)
        assert partizan_value(mirror) is partizan_value(b)
        assert grundy_value(mirror) == grundy_value(b) == grundy_value(swapped)


def test_numba_keys_match_the_plain_keys():
    # the search's keys (numba) and the readable ones must split boards into the same
    # classes, with the same relative signs in the partizan game
    from clobbermania.clickomania.twoplayer import _key
    rng = random.Random(9)
    pool = []
    for b in boards(10, 40, SHAPES + [(1, 6, 3), (6, 1, 2)]):
        perm = list(range(4))
        rng.shuffle(perm)
        swap_parity = [1, 0, 3, 2]
        for cols in (b.columns, b.columns[::-1],
                     tuple(tuple(perm[x] for x in c) for c in b.columns),
                     tuple(tuple(swap_parity[x] for x in c) for c in b.columns[::-1])):
            pool.append(Board.from_columns(cols, b.height, b.width))
    pool += [Board.from_string(w) for w in ("0011", "1/1/0/0", "0001000", "2220222", "0/1/1/1")]
    pk = [impartial_key(b) for b in pool]
    nk = [_key(b.columns, 0)[0] for b in pool]
    pp = [partizan_key(b) for b in pool]
    npk = [_key(b.columns, 1) for b in pool]
    for i in range(len(pool)):
        for j in range(i, len(pool)):
            assert (pk[i] == pk[j]) == (nk[i] == nk[j]), (pool[i], pool[j])
            assert (pp[i][0] == pp[j][0]) == (npk[i][0] == npk[j][0]), (pool[i], pool[j])
            if pp[i][0] == pp[j][0] and partizan_value(pool[i]) != 0:
                assert pp[i][1] * pp[j][1] == npk[i][1] * npk[j][1], (pool[i], pool[j])


def test_left_colors_convention():
    assert owner(0) == "L" and owner(1) == "R" and owner(2) == "L" and owner(3) == "R"
    assert owner(3, [3]) == "L" and owner(0, [3]) == "R"
    b = Board.from_string("0112/0122")
    for left in ([0], [1], [0, 2], [1, 2], [0, 1, 2]):
        fs = frozenset(left)
        assert partizan_value(b, left_colors=left).outcome == brute_outcome(b, fs), left
    with pytest.raises(NotationError):
        partizan_value("00", left_colors=[40])


def test_closed_forms_of_long_runs():
    p = long_runs_proof(10)
    assert p["checked"] and p["grundy_period"] == (1, 3) and p["value_period"] == (2, 4)
    for m in range(1, 8):
        word = "".join(("01"[j % 2] * 3) for j in range(m))       # runs of 3 blocks
        b = column_board(word[::-1])                                  # bottom run is 0
        assert plain_grundy(b) == long_runs_grundy(m)
        assert plain_value(b) is long_runs_value(m, 0)


def test_statistics_to_8():
    rows = column_statistics(8)
    assert [r["count"] for r in rows] == [2 ** n for n in range(1, 9)]
    for r in rows:
        assert sum(r["grundy"].values()) == r["count"] == sum(r["outcomes"].values())
        assert r["outcomes"].get("L", 0) == r["outcomes"].get("R", 0)   # colour swap
    assert rows[7]["outcomes"] == {"L": 79, "N": 6, "P": 92, "R": 79}
    assert rows[7]["grundy"] == {0: 106, 1: 106, 2: 40, 3: 4}


def test_winning_moves_win():
    for b in boards(6, 40, [(3, 3, 2), (2, 4, 3), (1, 8, 2)]):
        r = value_result(b, "impartial")
        for sq in r.winning["next"]:
            assert not mover_wins(b.click(sq))
        assert bool(r.winning["next"]) == mover_wins(b)
        r = value_result(b, "partizan")
        for sq in r.winning["left"]:
            assert not wins_first(b.click(sq), False, None)
        assert bool(r.winning["left"]) == wins_first(b, True, None)
        assert bool(r.winning["right"]) == wins_first(b, False, None)


def test_time_limit_and_bad_input():
    rng = random.Random(7)
    big = Board.from_columns([[rng.randrange(3) for _ in range(7)] for _ in range(7)], 7)
    with pytest.raises(TwoPlayerTimeout):
        partizan_value(big, time_limit=0.05)
    with pytest.raises(NotationError):
        grundy_value("00", time_limit=-1)
    with pytest.raises(NotationError):
        value_result("00", "misere")


# --- the command -----------------------------------------------------------------------------
def test_cli_value(capsys):
    import json
    code, out, _ = run_cli(capsys, "clickomania", "value", "00110011", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["variant"] == "partizan" and d["value"] == "*" and d["outcome"] == "N"
    assert "seconds" in d and d["exact"] is True
    code, out, _ = run_cli(capsys, "clickomania", "value", "1100/0011", "--impartial",
                           "--json")
    d = json.loads(out)
    assert code == 0 and d["variant"] == "impartial"
    assert d["grundy"] == plain_grundy(Board.from_string("1100/0011"))
    code, out, _ = run_cli(capsys, "clickomania", "value", "001100")
    assert code == 0 and "1/2" in out
    code, _, err = run_cli(capsys, "clickomania", "value", "00#1")
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err
    rng = random.Random(8)
    big = Board.from_columns([[rng.randrange(3) for _ in range(7)] for _ in range(7)], 7).text()
    code, out, _ = run_cli(capsys, "clickomania", "value", big, "--time-limit", "0.01",
                           "--json")
    d = json.loads(out)
    assert code == 0 and d["exact"] is False and d["value"] is None
