"""The exact Clickomania solver against an independent brute force on the reference rules."""

from __future__ import annotations

import json
import random
import time
from functools import cache

import numpy as np
import pytest
from cli_runner import run_cli

from clobbermania.clickomania import _solver_kernels as K
from clobbermania.clickomania.rules import Board, replay
from clobbermania.clickomania.solver import ORDERS, single_block_colors, solve_clickomania
from clobbermania.errors import UnsupportedError

# undecided after 3 s (1.7M nodes): 8x8, 6 colours, each with 9 or more blocks
HARD = "04054232/11123411/30225041/32012223/54114353/03220142/20222124/10455103"


def brute_max_removed(board: Board) -> int:
    """The most removable blocks: every click sequence, by recursion on rules.py only."""
    n = board.n_blocks

    @cache
    def best(b: Board) -> int:
        m = n - b.n_blocks
        for sq in b.moves():
            m = max(m, best(b.click(sq)))
        return m

    return best(board)


def random_board(rng: random.Random, h: int, w: int, k: int, ragged: bool = False) -> Board:
    cols = []
    for _ in range(w):
        tall = rng.randint(0, h) if ragged else h
        cols.append([rng.randrange(k) for _ in range(tall)])
    return Board.from_columns(cols, h, w)


def check_witness(board: Board, r) -> None:
    """The witness replays under the reference rules and removes exactly r.removed."""
    final = replay(board, r.moves)[-1]
    assert final.n_blocks == board.n_blocks - r.removed
    assert r.lower_bound <= r.removed <= r.upper_bound or r.lower_bound == r.removed


def random_cases():
    rng = random.Random(2026)
    cases = []
    for _ in range(260):
        h, w, k = rng.randint(1, 4), rng.randint(1, 4), rng.randint(2, 4)
        cases.append(random_board(rng, h, w, k, ragged=rng.random() < 0.3))
    return cases


CASES = random_cases()


def test_random_boards_agree_with_brute_force():
    solvable = one_column = 0
    for board in CASES:
        m = brute_max_removed(board)
        r = solve_clickomania(board, maximize=True)
        check_witness(board, r)
        assert r.exact and r.removed == m == r.lower_bound == r.upper_bound, board.text()
        assert r.solvable == (m == board.n_blocks)
        d = solve_clickomania(board)
        check_witness(board, d)
        assert d.exact and d.solvable == (m == board.n_blocks), board.text()
        if d.solvable:
            solvable += 1
            assert d.removed == board.n_blocks
            assert d.proof in ("witness clears the board", "the board is empty") or \
                d.proof.startswith("one ")
        elif d.proof.startswith("one "):  # a row or a column: the grammar DP knows the optimum
            assert d.upper_bound == m == d.removed
            one_column += 1
        else:
            assert d.upper_bound == board.n_blocks - max(1, len(single_block_colors(board)))
    # the sample has both answers in quantity, so both branches were exercised
    assert 40 < solvable < len(CASES) - 40
    assert one_column > 10  # rows and columns went to clickomania.column


@pytest.mark.parametrize("order", sorted(ORDERS))
def test_every_ordering_is_exact(order):
    rng = random.Random(7)
    for _ in range(25):
        board = random_board(rng, 4, 4, rng.randint(2, 4))
        m = brute_max_removed(board)
        assert solve_clickomania(board, maximize=True, order=order).removed == m
        assert solve_clickomania(board, order=order).solvable == (m == board.n_blocks)


def test_known_answers():
    # a checkerboard never has a group: nothing can be removed
    r = solve_clickomania("121/212/121", maximize=True)
    assert (r.removed, r.exact, r.moves, r.solvable) == (0, True, (), False)
    # one column, palindrome nesting (the grammar's cSc): solvable
    r = solve_clickomania("1/2/2/1")
    assert r.solvable and r.moves == ("a3", "a4")
    # two colours with a single block each: decided without search
    r = solve_clickomania("112/113")
    assert (r.solvable, r.exact, r.upper_bound) == (False, True, 4)
    assert r.proof.startswith("colours with a single block: 2, 3")
    assert r.removed == 4 and r.moves == ("a2",)  # the four 1s are one group
    r = solve_clickomania("4112/3122", maximize=True)
    assert (r.removed, r.exact, r.proof.split(":")[0]) == (6, True, "bound")
    assert solve_clickomania("...").proof == "the board is empty"


def test_mirror_and_colour_renaming_do_not_change_answers():
    rng = random.Random(11)
    for _ in range(30):
        board = random_board(rng, 5, 5, 4)
        mirror = Board.from_columns(board.columns[::-1], board.height, board.width)
        perm = [3, 0, 2, 1]
        renamed = Board.from_columns([[perm[x] for x in col] for col in board.columns],
                                     board.height, board.width)
        a = solve_clickomania(board, maximize=True)
        assert a.exact
        assert solve_clickomania(mirror, maximize=True).removed == a.removed
        assert solve_clickomania(renamed, maximize=True).removed == a.removed


def test_zobrist_keys_on_boards_too_large_to_pack():
    # a 24x4 frame with 2 or more colours: 2 bits a cell x 96 cells = 192 > 128 bits, so a
    # Zobrist pair keys the table (short columns keep the brute force small)
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        board = Board.from_columns([[rng.randrange(4) for _ in range(rng.randint(1, 4))]
                                    for _ in range(4)], 24, 4)
        if len(board.color_counts()) < 2:
            continue
        m = brute_max_removed(board)
        r = solve_clickomania(board, maximize=True)
        assert r.stats["table_keys"] == "Zobrist 2x64-bit"
        assert r.removed == m and r.exact
        assert solve_clickomania(board).solvable == (m == board.n_blocks)
        checked += 1
    assert checked > 30


def test_grid_key_is_exact_and_mirror_invariant():
    rng = random.Random(3)
    seen: dict[tuple[int, int], set] = {}
    dummy = np.zeros((1, 1, 1), dtype=np.uint64)
    for _ in range(3000):
        board = random_board(rng, 3, 4, 3, ragged=True)
        grid = np.full((4, 3), -1, dtype=np.int8)
        for c, col in enumerate(board.columns):
            grid[c, :len(col)] = col
        key = K.grid_key(grid, 2, dummy, dummy)
        mgrid = np.full((4, 3), -1, dtype=np.int8)
        for c, col in enumerate(board.columns[::-1]):
            mgrid[c, :len(col)] = col
        assert K.grid_key(mgrid, 2, dummy, dummy) == key
        canon = min(board.columns, board.columns[::-1])
        seen.setdefault(key, set()).add(canon)
    # different boards (up to mirror) never share a key
    assert all(len(v) == 1 for v in seen.values())
    assert len(seen) > 1000


def test_table_grows_and_answers_stay_exact():
    # an 8x8 7-colour board whose proof needs more entries than the first table (16384)
    board = Board.from_string(
        "54361630/32410662/43656051/26415633/10310254/44565046/40153435/14134623")
    assert not single_block_colors(board)
    d = solve_clickomania(board)
    assert (d.solvable, d.exact) == (False, True)
    assert d.proof == "exhaustive search (table keyed by 128-bit Zobrist hashes)"
    assert d.stats["table_entries"] > 1 << 13
    a = solve_clickomania(board, maximize=True)
    b = solve_clickomania(board, maximize=True, order="large")
    assert a.exact and b.exact and a.removed == b.removed < board.n_blocks
    assert a.removed >= d.removed
    check_witness(board, a)


def test_node_limit_gives_bounds_and_a_valid_witness():
    board = Board.from_string(HARD)
    for maximize in (False, True):
        r = solve_clickomania(board, maximize=maximize, node_limit=3000)
        assert not r.exact and r.solvable is None
        assert r.nodes <= 3000 + 1
        assert r.lower_bound == r.removed < r.upper_bound == 64
        assert r.proof.startswith("search stopped after")
        check_witness(board, r)


def test_time_limit_returns_promptly():
    solve_clickomania(HARD, time_limit=0.01)  # kernels compiled (untimed)
    # CPU time, with slack: a loaded machine stretches the wall clock, not the work done
    t0 = time.process_time()
    r = solve_clickomania(HARD, time_limit=0.3)
    assert time.process_time() - t0 < 1.5
    assert not r.exact and r.solvable is None
    check_witness(Board.from_string(HARD), r)
    with pytest.raises(UnsupportedError):
        solve_clickomania("11", time_limit=0)
    with pytest.raises(UnsupportedError):
        solve_clickomania("11", order="sideways")


def test_cli_json_svg_and_file(capsys, tmp_path):
    code, out, err = run_cli(capsys, "clickomania", "solve", "1212/1122/2211", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["solvable"] is True and obj["exact"] is True and obj["removed"] == 12
    assert {"moves", "seconds", "lower_bound", "upper_bound", "nodes", "proof"} <= set(obj)
    assert replay(Board.from_string("1212/1122/2211"), obj["moves"])[-1].is_cleared
    path = tmp_path / "board.txt"
    path.write_text("# a checkerboard\n121\n212\n121\n")
    svg = tmp_path / "s.svg"
    code, out, err = run_cli(capsys, "clickomania", "solve", str(path), "--maximize", "--json",
                             "--svg", str(svg))
    obj = json.loads(out)
    assert code == 0 and obj["removed"] == 0 and obj["solvable"] is False and obj["exact"]
    assert svg.read_text().startswith("<svg")
    code, out, err = run_cli(capsys, "clickomania", "solve", "112/113")
    assert code == 0 and "not solvable" in out and "single block" in out


def test_cli_time_limit_and_errors(capsys):
    code, out, err = run_cli(capsys, "clickomania", "solve", HARD, "--time-limit", "0.2",
                             "--json")
    obj = json.loads(out)
    assert code == 0 and obj["exact"] is False and obj["solvable"] is None
    for bad in (["12/1"], ["1x+/111"], ["12/.1"], ["11", "--time-limit", "-1"]):
        code, out, err = run_cli(capsys, "clickomania", "solve", *bad)
        assert code == 2 and err.startswith("error: ") and "Traceback" not in err
        assert out == ""


def test_five_by_five_three_colours_agree_with_brute_force():
    # the benchmark's family (random 5x5, 3 colours), decided both ways by the brute force
    rng = random.Random(55)
    answers = set()
    for _ in range(20):
        board = random_board(rng, 5, 5, 3)
        m = brute_max_removed(board)
        r = solve_clickomania(board, maximize=True)
        assert r.exact and r.removed == m
        check_witness(board, r)
        assert solve_clickomania(board).solvable == (m == 25)
        answers.add(m == 25)
    assert answers == {True, False}


def test_bounds_of_a_stopped_search_hold_the_optimum():
    # stop after a handful of nodes: the optimum (brute force) lies within the bounds
    rng = random.Random(99)
    stopped = 0
    for _ in range(60):
        board = random_board(rng, 4, 4, 3)
        m = brute_max_removed(board)
        for limit in (1, 2, 5):
            for maximize in (False, True):
                r = solve_clickomania(board, maximize=maximize, node_limit=limit)
                check_witness(board, r)
                assert r.lower_bound <= m <= r.upper_bound
                if r.solvable is not None:
                    assert r.solvable == (m == board.n_blocks)
                stopped += not r.exact
    assert stopped > 50
