"""Two-player Clobber: the bitboard kernels against the reference move generator, outcomes
against a plain minimax and the published oracles, perft against OpenSpiel's counts, the
MCGS runner, OpenSpiel interop, the computer player and the CLI."""

from __future__ import annotations

import io
import json
import random
import time
from functools import cache

import numpy as np
import pytest
from cli_runner import run_cli
from data_paths import MCGS_DATA

from clobbermania.clobber import _search_kernels as K
from clobbermania.clobber.mcgs import parse_test_file, parse_test_text, run_case
from clobbermania.clobber.openspiel import (
    from_openspiel,
    move_from_openspiel,
    move_to_openspiel,
    openspiel_start,
    parse_openspiel_display,
    to_openspiel,
)
from clobbermania.clobber.search import choose_move, perft, solve_outcome, solve_sum
from clobbermania.errors import ClobbermaniaError
from clobbermania.graphs import parse_graph_spec
from clobbermania.stones import BLACK, WHITE, Position, opponent

MCGS = MCGS_DATA


def random_position(rng: random.Random, rows: int, cols: int, holes: float = 0.2) -> Position:
    cells = []
    for _ in range(rows * cols):
        x = rng.random()
        cells.append("." if x < holes else "x" if x < holes + (1 - holes) / 2 else "o")
    text = "/".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))
    return Position.from_string(text)


# -- an independent reference: plain minimax over Position.moves / play ----------------------

@cache
def brute_wins(position: Position, color: int) -> bool:
    """Whether ``color`` to move wins (normal play), by plain recursion on the reference."""
    return any(not brute_wins(position.play(m), opponent(color)) for m in position.moves(color))


def brute_perft(position: Position, color: int, depth: int) -> list[int]:
    counts = [0] * depth

    def rec(p: Position, c: int, d: int) -> None:
        moves = p.moves(c)
        counts[d] += len(moves)
        if d + 1 < depth:
            for m in moves:
                rec(p.play(m), opponent(c), d + 1)

    rec(position, color, 0)
    return counts


# -- kernels against the reference --------------------------------------------------------------

def kernel_moves(position: Position, color: int) -> list[tuple[int, int]]:
    nbr = np.array(position.board.adjacency_masks, dtype=np.uint64)
    me, opp = (position.black, position.white) if color == BLACK else (position.white,
                                                                        position.black)
    src = np.zeros(K.MAXM, np.int64)
    dst = np.zeros(K.MAXM, np.int64)
    n = K.gen_moves(np.uint64(me), np.uint64(opp), nbr, src, dst)
    assert K.count_moves(np.uint64(me), np.uint64(opp), nbr) == n
    return [(int(src[i]), int(dst[i])) for i in range(n)]


def test_kernel_moves_equal_reference_on_grids_and_graphs():
    rng = random.Random(5)
    boards = [(r, c) for r in range(1, 9) for c in range(1, 9)]
    for _ in range(300):
        r, c = rng.choice(boards)
        p = random_position(rng, r, c, holes=rng.random() * 0.5)
        for color in (BLACK, WHITE):
            assert kernel_moves(p, color) == [tuple(m) for m in p.moves(color)]
    for spec in ("cycle:12", "hypercube:5", "complete:7", "hamming:3,4", "path:40"):
        board = parse_graph_spec(spec)
        for _ in range(20):
            text = "".join(rng.choice("xo.") for _ in range(board.n))
            p = Position.from_string(text, board)
            for color in (BLACK, WHITE):
                assert kernel_moves(p, color) == [tuple(m) for m in p.moves(color)]


def test_a_row_of_64_squares_is_keyed_and_searched():
    # a grid of 64 columns: the translation once shifted by 64 bits (undefined: x86 shifts
    # by 0) and never returned on (xo)^32
    p = Position.from_string("..." + "xo" * 30 + ".")
    syms = K.symmetry_tables(p.board.symmetries())
    row0 = np.uint64((1 << 64) - 1)
    a, b = K.canonical(np.uint64(p.black), np.uint64(p.white), syms, 64, row0)
    shifted = Position.from_string("xo" * 30 + "....")
    mirror = Position.from_string("...." + "ox" * 30)
    assert (int(a), int(b)) == min((shifted.black, shifted.white), (mirror.black, mirror.white))
    r = solve_outcome(Position.from_string("xo" * 32), "black", node_limit=2000,
                      all_moves=False)
    assert r.nodes <= 2000 + 64


def test_move_order_counts_the_replies_of_the_reference():
    # _order updates the reply count from the edges joining the colours: it must equal the
    # opponent's number of moves after each move, counted by Position.moves
    rng = random.Random(8)
    boards = [p.board for p in (random_position(rng, 5, 6), random_position(rng, 1, 12))]
    boards += [parse_graph_spec(s) for s in ("hypercube:4", "complete:6", "cycle:9")]
    checked = 0
    for _ in range(200):
        board = rng.choice(boards)
        p = Position.from_string("".join(rng.choice("xo.") for _ in range(board.n)), board)
        nbr = np.array(board.adjacency_masks, dtype=np.uint64)
        for color in (BLACK, WHITE):
            moves = p.moves(color)
            me, opp = (p.black, p.white) if color == BLACK else (p.white, p.black)
            n = len(moves)
            src = np.array([m.src for m in moves] + [0], np.int64)
            dst = np.array([m.dst for m in moves] + [0], np.int64)
            keys = np.zeros(n + 1, np.int64)
            order = np.zeros(n + 1, np.int64)
            # (board moves only: no G, so none of the opponent's moves is in G)
            imm = K._order(np.uint64(me), np.uint64(opp), nbr, src, dst, keys, order, n, n,
                           0, np.zeros(1, np.int64))
            replies = [len(p.play(m).moves(opponent(color))) for m in moves]
            if imm >= 0:
                assert replies[imm] == 0 and all(replies[:imm])
                continue
            assert list(keys[:n]) == replies
            assert sorted(order[:n]) == list(range(n))
            assert [replies[i] for i in order[:n]] == sorted(replies)
            checked += 1
    assert checked > 100


def test_strip_dead_and_canonical_keep_the_game():
    rng = random.Random(11)
    for _ in range(200):
        p = random_position(rng, 4, 4, holes=0.4)
        nbr = np.array(p.board.adjacency_masks, dtype=np.uint64)
        b, w = K.strip_dead(np.uint64(p.black), np.uint64(p.white), nbr)
        q = Position.from_masks(p.board, int(b), int(w))
        # only stones without an opposite neighbour in their part go; the moves stay
        assert sorted(q.moves()) == sorted(p.moves())
        syms = K.symmetry_tables(p.board.symmetries())
        key = K.canonical(b, w, syms, 4, np.uint64(15))
        for perm in p.board.symmetries():
            t = q.transform(perm)
            assert K.canonical(np.uint64(t.black), np.uint64(t.white), syms, 4,
                               np.uint64(15)) == key


def test_perft_oracles_openspiel_start():
    # OpenSpiel's start: o on the bottom-left square, o (its player 0) to move
    oracle = {(3, 3): [12, 88, 376, 936], (3, 4): [17, 204, 1671, 8974],
              (4, 4): [24, 448, 6380, 67296], (5, 6): [49, 2116, 80063, 2630382],
              (6, 6): [60, 3244, 157408, 6812036], (8, 8): [112, 11848, 1182276]}
    for (r, c), counts in oracle.items():
        assert perft(openspiel_start(r, c), WHITE, len(counts)) == counts, (r, c)


def test_perft_equals_reference_count():
    rng = random.Random(3)
    for _ in range(30):
        p = random_position(rng, rng.randint(1, 4), rng.randint(2, 5), holes=0.15)
        color = rng.choice((BLACK, WHITE))
        assert perft(p, color, 4) == brute_perft(p, color, 4)


# -- outcomes -------------------------------------------------------------------------------

def test_outcomes_and_winning_moves_equal_minimax():
    rng = random.Random(7)
    checked = 0
    while checked < 120:
        p = random_position(rng, rng.randint(1, 4), rng.randint(2, 5), holes=0.3)
        if p.stone_count() > 11:
            continue
        for color in (BLACK, WHITE):
            r = solve_outcome(p, color)
            win = brute_wins(p, color)
            assert r.exact
            assert r.winner == ("black" if (color == BLACK) == win else "white"), p.text()
            expected = {m.to_str(p.board) for m in p.moves(color)
                        if not brute_wins(p.play(m), opponent(color))}
            assert set(r.winning_moves) == expected, p.text()
        checked += 1


def test_outcomes_on_graph_boards_equal_minimax():
    rng = random.Random(13)
    for spec in ("cycle:9", "hypercube:3", "complete:5", "tree:0,0,1,1,2"):
        board = parse_graph_spec(spec)
        for _ in range(10):
            p = Position.from_string("".join(rng.choice("xxoo.") for _ in range(board.n)),
                                     board)
            for color in (BLACK, WHITE):
                win = brute_wins(p, color)
                assert (solve_outcome(p, color).winner == "black") == ((color == BLACK) == win)


@pytest.mark.parametrize("n", range(2, 11))
def test_2xn_checkerboard_is_p_exactly_when_3_divides_n(n):
    p = Position.checkerboard(2, n)
    for first in ("black", "white"):
        r = solve_outcome(p, first, all_moves=False)
        first_wins = r.winner == first
        assert first_wins == (n % 3 != 0), (n, first)


def test_3xn_and_4xn_checkerboards():
    # Grossman 2004 / MCGS: 3xn is P exactly when n is even; 4x4, 4x5 are N
    for n in range(3, 7):
        r = solve_outcome(Position.checkerboard(3, n), "black", all_moves=False)
        assert (r.winner == "black") == (n % 2 == 1), n
    for n in (4, 5):
        assert solve_outcome(Position.checkerboard(4, n), "white", all_moves=False).winner \
            == "white"


def test_sums_of_boards_and_part_values():
    xo = Position.from_string("xo")
    assert solve_sum([xo, xo], BLACK).winner == "white"          # * + * = 0
    assert solve_sum([xo, xo, xo], WHITE).winner == "white"      # *3 fuzzy: first wins
    xxo, xoo = Position.from_string("xxo"), Position.from_string("xoo")
    assert solve_sum([xxo, xoo], BLACK).winner == "white"        # ^ + v = 0
    # more than 64 stones: eight 3x3 checkerboards (* each: the sum is 0) and one more
    boards = [Position.checkerboard(3, 3)] * 8
    r = solve_sum(boards, BLACK)
    assert r.winner == "white" and r.exact and "part values" in r.proof
    r = solve_sum(boards + [xxo], WHITE)
    assert r.winner == "black"                                   # ^ > 0


def test_time_limit_returns_unknown_quickly():
    solve_outcome(Position.checkerboard(2, 3), "black")   # kernels compiled before timing
    # CPU time, with slack: a loaded machine stretches the wall clock, not the work done
    t0 = time.process_time()
    r = solve_outcome(Position.checkerboard(5, 6), "black", time_limit=0.5)
    assert time.process_time() - t0 < 5
    assert not r.exact and r.winner is None and r.winning_moves == ()
    r = solve_outcome(Position.checkerboard(5, 6), "black", node_limit=1000)
    assert not r.exact and r.nodes <= 1000 + 10


def test_bad_input():
    with pytest.raises(ClobbermaniaError):
        solve_outcome(Position.from_string("xo"), "green")
    with pytest.raises(ClobbermaniaError):
        perft(Position.from_string("xo"), "black", 0)
    with pytest.raises(ClobbermaniaError):
        perft(Position.checkerboard(9, 9), "black", 2)


# -- the computer player ----------------------------------------------------------------------

def test_choose_move_plays_a_winning_move_when_there_is_one():
    rng = random.Random(17)
    played = 0
    while played < 25:
        p = random_position(rng, 3, 4, holes=0.2)
        color = rng.choice((BLACK, WHITE))
        if not p.moves(color) or not brute_wins(p, color):
            continue
        mv, why = choose_move(p, color, time_limit=2.0)
        assert why == "wins (solved)"
        assert not brute_wins(p.play(mv, color), opponent(color))
        played += 1


def test_choose_move_without_a_proof_is_legal():
    p = Position.checkerboard(8, 8)
    choose_move(p, BLACK, time_limit=0.05)   # kernels compiled (untimed)
    t0 = time.process_time()  # CPU time, with slack (the wall clock flakes under load)
    mv, why = choose_move(p, BLACK, time_limit=0.6)
    assert time.process_time() - t0 < 3
    assert mv in p.moves(BLACK) and why.startswith("alpha-beta")


def test_alphabeta_finds_a_forced_win_at_depth():
    # xo.ox: two * parts, the player to move loses; xoo: v, Black to move loses
    for text, color, winning in (("xo", BLACK, True), ("xoo", BLACK, False),
                                 ("xo.xo", BLACK, False), ("xxo", WHITE, False)):
        p = Position.from_string(text)
        me, opp = (p.black, p.white) if color == BLACK else (p.white, p.black)
        nbr = np.array(p.board.adjacency_masks, dtype=np.uint64)
        stats = np.zeros(2, np.int64)
        score = K.alphabeta(np.uint64(me), np.uint64(opp), nbr, 8, -K.INF - 1, K.INF + 1,
                            stats, 10**9)
        assert (score > K.INF // 2) == winning, text


# -- MCGS ---------------------------------------------------------------------------------------

FAST_FILES = [
    "main_tests__clobber_1xn_autotests__clobber_1xn_le_8_moves.test",
    "main_tests__clobber_autotests__clobber_from_1xn_le_8_moves.test",
    "main_tests__clobber_autotests__clobber_nxn_alternating.test",
    "main_tests__clobber_autotests__clobber_random_filled2.test",
    "seg_tests__clobber__random_3x4.test",
]


@pytest.mark.parametrize("name", FAST_FILES)
def test_mcgs_fast_suites_pass(name):
    for case in parse_test_file(MCGS / name):
        r = run_case(case, time_limit=60)
        assert r.status == "pass", (case.where(), r.found)


def test_mcgs_xo_rows_up_to_10_pairs():
    # (xo)^n is a first-player win for n != 3 (longer rows are in benchmarks/clobber.py)
    cases = [c for c in parse_test_file(MCGS / "seg_tests__clobber_1xn__xo.test")
             if len(c.board) <= 20]
    assert len(cases) == 10
    for case in cases:
        r = run_case(case, time_limit=60)
        assert r.status == "pass", (case.where(), r.found)


def test_mcgs_runner_reports_failures_and_sums():
    cases = parse_test_text("[clobber_1xn] XOXOXO {B win}\n"
                            "[clobber] XOX|OXO XO {B win, W win}\n"
                            "[impartial clobber_1xn] XOXO {N 3}\n"
                            "[clobber_1xn] XXO {B}")
    results = [run_case(c) for c in cases]
    assert [r.status for r in results] == ["fail", "pass", "pass", "pass"]
    assert results[0].found == ("B loss",)
    assert results[1].found == ("B win", "W win")  # 2x3 = 0, plus *
    assert results[3].found == ("B win",)
    with pytest.raises(ClobbermaniaError):
        run_case(parse_test_text("[clobber_1xn] XO {N 1}")[0])


# -- OpenSpiel ------------------------------------------------------------------------------------

def test_openspiel_strings_round_trip():
    rng = random.Random(2)
    for _ in range(50):
        r, c = rng.randint(1, 6), rng.randint(1, 6)
        p = random_position(rng, r, c)
        color = rng.choice((BLACK, WHITE))
        s = to_openspiel(p, color)
        assert s[0] == ("0" if color == WHITE else "1")
        assert from_openspiel(s, r, c) == (p, color)
        for m in p.moves():
            assert move_from_openspiel(move_to_openspiel(m, p.board), p.board) == m
    assert parse_openspiel_display("3oxox\n2xoxo\n1oxox\n abcd\n").text() == "oxox/xoxo/oxox"
    for bad in ("2oxoxxoxooxox", "0oxox", "0oxoxxoxooxoz"):
        with pytest.raises(ClobbermaniaError):
            from_openspiel(bad, 3, 4)


def test_openspiel_peer_agrees_on_moves_and_outcomes():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax
    rng = random.Random(23)
    for _ in range(40):
        r, c = rng.randint(2, 4), rng.randint(2, 4)
        game = pyspiel.load_game("clobber", {"rows": r, "columns": c})
        p = random_position(rng, r, c, holes=0.25)
        color = rng.choice((BLACK, WHITE))
        state = game.new_initial_state(to_openspiel(p, color))
        assert parse_openspiel_display(str(state)) == p
        ours = {move_to_openspiel(m, p.board) for m in p.moves(color)}
        theirs = {state.action_to_string(a) for a in state.legal_actions()}
        assert ours == theirs
        if ours and p.stone_count() <= 9:
            # OpenSpiel's own alpha-beta, value for its player 0 (o = White)
            value, _ = minimax.alpha_beta_search(game, state=state, maximizing_player_id=0)
            assert (value > 0) == (solve_outcome(p, color).winner == "white")


# -- command line -----------------------------------------------------------------------------

def test_cli_solve_perft_json(capsys):
    code, out, _ = run_cli(capsys, "clobber", "solve", "xoxo/oxox", "--first", "black",
                           "--json")
    assert code == 0
    d = json.loads(out)
    assert d["winner"] == "black" and d["exact"] and len(d["winning_moves"]) == 8
    assert {"winner", "winning_moves", "exact", "nodes", "seconds"} <= set(d)
    code, out, _ = run_cli(capsys, "clobber", "perft", "oxox/xoxo/oxox", "--depth", "4",
                           "--first", "white", "--json")
    assert code == 0 and json.loads(out)["counts"] == [17, 204, 1671, 8974]
    code, out, _ = run_cli(capsys, "clobber", "solve", "xox/oxo", "--first", "white")
    assert code == 0 and "black wins (the player to move loses)" in out
    code, out, _ = run_cli(capsys, "clobber", "solve", "xoxox/oxoxo/xoxox/oxoxo/xoxox/oxoxo",
                           "--first", "black", "--time-limit", "0.3", "--json")
    d = json.loads(out)
    assert code == 0 and d["winner"] is None and d["exact"] is False


def test_cli_bad_input(capsys):
    for args in (("clobber", "solve", "xoz", "--first", "black"),
                 ("clobber", "solve", "xo", "--first", "black", "--time-limit", "-1"),
                 ("clobber", "perft", "xo", "--depth", "0", "--first", "black"),
                 ("mcgs", "run", "/nonexistent/file.test")):
        code, out, err = run_cli(capsys, *args)
        assert code == 2 and err.startswith("error: ") and "Traceback" not in err, args
        assert len(err.strip().splitlines()) == 1


def test_cli_mcgs_run(capsys, tmp_path):
    f = tmp_path / "t.test"
    f.write_text("{version 1.7}\n[clobber]\nXO|OX {B win, W win}\nXOX|OXO {B win}\n"
                 "[clobber_1xn] XXO {W loss}\n")
    code, out, _ = run_cli(capsys, "mcgs", "run", str(f), "--json")
    d = json.loads(out)
    assert code == 1 and (d["passed"], d["failed"], d["timeouts"]) == (2, 1, 0)
    assert [c["line"] for c in d["cases"]] == [3, 4, 5]
    assert d["cases"][1]["found"] == ["B loss"]
    assert d["files"][0]["file"] == "t.test" and d["files"][0]["recorded_seconds"] is None
    # times recorded in the file's comments are added up and printed beside ours
    g = tmp_path / "u.test"
    g.write_text("[clobber_1xn]\n/* 12.5 ms */ XOXOXO {B loss}\n/* 7.5 ms */ XO {W win}\n")
    code, out, _ = run_cli(capsys, "mcgs", "run", str(f), str(g))
    assert code == 1
    assert "u.test: 2 passed, 0 failed, 0 timed out" in out and "recorded 0.02 s" in out
    assert "the files record 0.02 s" in out


def test_cli_play_transcript(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("a1-a2\nb1-a1\nmoves\nquit\n"))
    code, out, _ = run_cli(capsys, "clobber", "play", "xo/ox", "--time-limit", "1")
    assert code == 0
    assert "not played: move b1-a1 is illegal" in out
    assert "computer plays" in out and "game abandoned." in out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run_cli(capsys, "clobber", "play", "xxo", "--first", "computer",
                           "--human", "black", "--time-limit", "1")
    assert code == 0 and ("computer plays" in out or "no move" in out)


def test_graph_board_via_cli(capsys):
    code, out, _ = run_cli(capsys, "clobber", "solve", "xoxoxo", "--graph", "cycle:6",
                           "--first", "black", "--json")
    p = Position.from_string("xoxoxo", parse_graph_spec("cycle:6"))
    assert code == 0 and (json.loads(out)["winner"] == "black") == brute_wins(p, BLACK)



# -- the kernel's simplifications and reported move ---------------------------------------------

def test_simplify_keeps_the_outcome_and_cancels_small_parts():
    # * + * and ^ + v parts go; what is left has the outcome of the whole
    rng = random.Random(29)
    for _ in range(150):
        p = random_position(rng, rng.randint(2, 4), rng.randint(2, 5), holes=0.45)
        nbr = np.array(p.board.adjacency_masks, dtype=np.uint64)
        b, w = K.simplify(np.uint64(p.black), np.uint64(p.white), nbr)
        q = Position.from_masks(p.board, int(b), int(w))
        for color in (BLACK, WHITE):
            assert brute_wins(q, color) == brute_wins(p, color), (p.text(), q.text())
    for text, left in (("xo.xo", ""), ("xo../...x/...o", ""), ("xxo.oox", ""),
                       ("xox.o/....x", ""), ("xxo.xxo", "xxo.xxo"), ("xox", "xox")):
        p = Position.from_string(text)
        nbr = np.array(p.board.adjacency_masks, dtype=np.uint64)
        b, w = K.simplify(np.uint64(p.black), np.uint64(p.white), nbr)
        q = Position.from_masks(p.board, int(b), int(w))
        assert q.stone_count() == len(left.replace(".", "").replace("/", "")), text
    # on a graph board a triangle x, x, o is ^ (not *): it must not cancel a *
    tri = Position.from_string("xxoxo", parse_graph_spec("tree:0,0,1,3"))  # a path, no triangle
    assert tri.board.n == 5
    board = parse_graph_spec("complete:3")
    p = Position.from_string("xxo", board)
    assert brute_wins(p, WHITE) is False          # ^: White moving first loses
    nbr = np.array(board.adjacency_masks, dtype=np.uint64)
    b, w = K.simplify(np.uint64(p.black), np.uint64(p.white), nbr)
    assert (int(b), int(w)) == (p.black, p.white)


def test_first_winning_move_reported_by_the_kernel_wins():
    rng = random.Random(31)
    checked = 0
    while checked < 60:
        p = random_position(rng, rng.randint(2, 4), rng.randint(2, 5), holes=0.25)
        if p.stone_count() > 11:
            continue
        color = rng.choice((BLACK, WHITE))
        r = solve_outcome(p, color, all_moves=False)
        if r.winner == ("black" if color == BLACK else "white"):
            assert len(r.winning_moves) == 1
            mv = p.parse_move(r.winning_moves[0])
            assert mv in p.moves(color)
            assert not brute_wins(p.play(mv), opponent(color)), (p.text(), mv)
            checked += 1
