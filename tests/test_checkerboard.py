"""Theorem 5 constructively: reduce_checkerboard against the reference replay, the exact
optimum (independent brute force), and its stored gadgets."""

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest
from brute_force import BruteForce
from cli_runner import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from clobbermania.errors import UnsupportedError
from clobbermania.solitaire import checkerboard as cb
from clobbermania.solitaire import replay
from clobbermania.solitaire.checkerboard import optimum_stones, reduce_checkerboard
from clobbermania.stones import BLACK, EMPTY, WHITE, Board, Position


def check(rows: int, cols: int, first: int) -> None:
    moves = reduce_checkerboard(rows, cols, first)
    result = replay(Position.checkerboard(rows, cols), moves, first=first)
    assert result.valid, (rows, cols, first, result.error)
    assert result.stones_left == optimum_stones(rows, cols, first), (rows, cols, first)
    # every move removes one stone: the sequence is exactly as long as it must be
    assert len(moves) == rows * cols - result.stones_left


def check_rows(rows: int) -> list:
    """Every board rows x 2..40, both first colours: the failures (none expected)."""
    failures = []
    for cols in range(2, 41):
        for first in (BLACK, WHITE):
            try:
                check(rows, cols, first)
            except (AssertionError, UnsupportedError) as exc:
                failures.append((rows, cols, first, str(exc)[:200]))
    return failures


def test_every_size_up_to_40_both_colours():
    # 3042 boards: spread over the machine's cores (fork keeps the loaded gadget table)
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=ctx) as pool:
        failures = [f for chunk in pool.map(check_rows, range(40, 1, -1)) for f in chunk]
    assert failures == []


# derandomized: the same pseudo-random sizes on every run, so CI is reproducible (a wider
# random search of sizes up to 300 x 300 is a benchmark, not a test)
@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(2, 200), st.integers(2, 200), st.sampled_from([BLACK, WHITE]))
def test_random_sizes_up_to_200(rows, cols, first):
    check(rows, cols, first)


def test_single_rows_use_theorem_1():
    for n in range(1, 30):
        for first in (BLACK, WHITE):
            moves = reduce_checkerboard(1, n, first)
            assert replay(Position.checkerboard(1, n), moves, first=first).stones_left == \
                optimum_stones(1, n, first)
            moves = reduce_checkerboard(n, 1, first)
            assert replay(Position.checkerboard(n, 1), moves, first=first).stones_left == \
                optimum_stones(n, 1, first)


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4),
                                       (2, 6), (2, 7)])
def test_optimum_matches_brute_force(rows, cols):
    """optimum_stones (Theorem 5 and the counting argument) is the true optimum."""
    board = Board.grid(rows, cols)
    cells = tuple(Position.checkerboard(rows, cols).cells)
    bf = BruteForce(board)
    for first in (BLACK, WHITE):
        assert optimum_stones(rows, cols, first) == bf.value(cells, first), (rows, cols, first)


def test_theorem_5_values():
    assert optimum_stones(5, 5, BLACK) == 2 and optimum_stones(5, 5, WHITE) == 1
    assert optimum_stones(3, 4, BLACK) == 2 == optimum_stones(6, 6, WHITE)
    assert optimum_stones(4, 5, BLACK) == 1 == optimum_stones(4, 5, WHITE)
    assert optimum_stones(1, 7, BLACK) == 3  # Theorem 2: ceil(7/4) + 1


def _replay_gadget(cells, start, moves, due):
    """Play ``moves`` (index pairs) on the stones ``start`` at grid cells ``cells``:
    each must be a capture of an orthogonally adjacent stone of the other colour, by the
    colour ``due`` when due is not 0 (alternating)."""
    stones = list(start)
    for s, d in moves:
        (r1, c1), (r2, c2) = cells[s], cells[d]
        assert abs(r1 - r2) + abs(c1 - c2) == 1
        assert stones[s] != EMPTY and stones[d] == 3 - stones[s]
        if due:
            assert stones[s] == due
            due = 3 - due
        stones[d], stones[s] = stones[s], EMPTY
    return stones, due


def _parse_key(text):
    return [tuple(int(x) for x in part.split(",")) for part in text.split(";")]


def test_every_stored_carry_gadget_replays():
    table = cb.gadget_table()["carry"]
    assert len(table) > 1000
    for key, outcomes in table.items():
        start_key = key.startswith("-;")
        ctx = _parse_key(key[2:] if start_key else key)
        if start_key:
            ctx = [(0, 0, EMPTY)] + ctx  # index 0 is the absent carry
        cells = [(a, b) for a, b, _ in ctx]
        colours = [c for _, _, c in ctx]
        for left, moves in outcomes:
            stones, _ = _replay_gadget(cells, colours, moves, 0)
            assert sorted((i, c) for i, c in enumerate(stones) if c) == sorted(map(tuple, left))
            assert 1 <= len(left) <= 2


def test_every_stored_endgame_replays():
    table = cb.gadget_table()["endgame"]
    assert len(table) > 100
    for key, outcomes in table.items():
        shape, due, _rows, _target = key.split("|")
        ctx = _parse_key(shape)
        cells = [(a, b) for a, b, _ in ctx]
        colours = [c for _, _, c in ctx]
        for left, due_after, moves in outcomes:
            stones, due_now = _replay_gadget(cells, colours, moves, int(due))
            assert due_now == due_after
            assert sorted((i, c) for i, c in enumerate(stones) if c) == sorted(map(tuple, left))


def _odd_groups_of(shape):
    return [[tuple(int(x) for x in cell.split(",")) for cell in grp.split(";")]
            for grp in shape.split("|")]


def test_every_stored_odd_step_replays():
    """Each step of the odd automaton: alternating moves from the state's colour due that
    empty the oldest group of a full window and leave the next state's colours."""
    table = cb.gadget_table()
    assert len(table["odd"]) > 20
    steps = 0
    for key, entry in table["odd"].items():
        shape, new_colours = key.split("#")
        groups = _odd_groups_of(shape)
        cells = [cell for grp in groups for cell in grp]
        drop = len(groups[0]) if len(groups) == cb.ODD_GROUPS + 1 else 0
        for state, outcomes in entry.items():
            start = [int(x) for x in state[:-1]] + [int(x) for x in new_colours]
            assert len(start) == len(cells)
            for nxt, moves in outcomes:
                stones, due = _replay_gadget(cells, start, moves, int(state[-1]))
                assert not any(stones[:drop])
                assert "".join(map(str, stones[drop:])) + str(due) == nxt
                assert sum(1 for x in stones if x) <= cb.ODD_STONES
                steps += 1
    assert steps > 100
    for key, entry in table["odd_end"].items():
        shape, target = key[3:].split("#")
        cells = [cell for grp in _odd_groups_of(shape) for cell in grp]
        for state, moves in entry.items():
            stones, _ = _replay_gadget(cells, [int(x) for x in state[:-1]], moves,
                                       int(state[-1]))
            assert sum(1 for x in stones if x) == int(target)


def test_bad_arguments():
    with pytest.raises(UnsupportedError):
        reduce_checkerboard(0, 5)
    with pytest.raises(UnsupportedError):
        reduce_checkerboard(3, 3, first=7)




def test_cli_reduce_json(capsys):
    code, out, err = run_cli(capsys, "solitaire", "reduce", "5x7", "--first", "white", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["stones_left"] == 1 and data["verified"] is True
    assert len(data["moves"]) == 34 and data["moves"][0].count("-") == 1
    code, out, err = run_cli(capsys, "solitaire", "reduce", "9x9", "--json", "--no-moves")
    data = json.loads(out)
    assert data["stones_left"] == 2 and "moves" not in data


def test_cli_reduce_graph_and_errors(capsys, tmp_path):
    code, out, err = run_cli(capsys, "solitaire", "reduce", "xxoxoxxoo", "--graph",
                             "hamming:3,3", "--to", "4", "--color", "white", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["stones_left"] == 1 and data["verified"]
    code, out, err = run_cli(capsys, "solitaire", "reduce", "8y8")
    assert code == 2 and err.startswith("error:") and "8y8" in err and "Traceback" not in err
    code, out, err = run_cli(capsys, "solitaire", "reduce", "8x8", "--to", "3")
    assert code == 2 and err.startswith("error:")
    svg = tmp_path / "r.svg"
    code, out, err = run_cli(capsys, "solitaire", "reduce", "5x6", "--svg", str(svg),
                             "--no-moves")
    assert code == 0 and svg.read_text().count('<g class="board"') == 9


# -- the build step: python -m clobbermania.solitaire.checkerboard -----------------------------

def test_entry_point_verifies_the_stored_table(capsys):
    # the module's entry point replays the stored table's plans with the reference rules
    assert cb.main(["--verify-only", "--max-side", "6", "--odd-side", "7"]) == 0
    out = capsys.readouterr().out
    # 25 boards of sides 2..6, 6 long bands, 3x7, 5x7 and 7x7; both first colours
    assert "68 plans replayed by the reference rules: all reach the optimum" in out


def test_entry_point_fails_on_a_damaged_table(capsys, monkeypatch):
    # every carry gadget's moves dropped: the plans no longer reduce the boards
    table = cb.gadget_table()
    damaged = {key: [[left, []] for left, _moves in outcomes]
               for key, outcomes in table["carry"].items()}
    monkeypatch.setattr(cb._TABLE, "carry", damaged)
    cb._OUTCOMES.clear()
    try:
        assert cb.main(["--verify-only", "--max-side", "4", "--odd-side", "3"]) == 1
    finally:
        cb._OUTCOMES.clear()
    out = capsys.readouterr().out
    assert "FAIL 2x2, black first" in out and "plans replayed by the reference rules" in out
