"""Impartial Clobber: Grundy values against an independent brute force, winning moves,
canonical keys, the row-database hook, the numba kernel, the computer opponent."""

import io
import itertools
import json
import random

import numpy as np
import pytest
from cli_runner import run_cli

from clobbermania.clobber import _impartial_kernels as K
from clobbermania.clobber import rowdb
from clobbermania.clobber.impartial import (
    GrundyMemoryLimit,
    GrundySolver,
    GrundyTimeout,
    choose_move,
    grundy_value,
    mex,
    nim_sum,
    row_key,
)
from clobbermania.errors import ClobbermaniaError, IllegalMoveError
from clobbermania.graphs import complete, cycle, grid_graph, hypercube, path, tree
from clobbermania.stones import Board, Position


class BruteForce:
    """Plain recursion over Position with the reference moves: no components, no symmetry;
    memoized on the exact cells of one board only (its own cache, shared with nothing)."""

    def __init__(self):
        self.memo = {}

    def value(self, p):
        k = (p.board.rows, p.board.cols, p.cells) if p.board.is_grid else (id(p.board), p.cells)
        g = self.memo.get(k)
        if g is None:
            g = mex(self.value(p.play(m)) for m in p.moves())
            self.memo[k] = g
        return g

    def options(self, p):
        return [(m, self.value(p.play(m))) for m in p.moves()]


def _fillings(rows, cols, alphabet="xo."):
    for cells in itertools.product(alphabet, repeat=rows * cols):
        if set(cells) == {"."}:
            continue
        yield "/".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))


def _check(position, bf, solver=None):
    r = grundy_value(position, solver=solver)
    expected = bf.value(position)
    assert r.grundy == expected, position.text()
    zero = {m for m, g in bf.options(position) if g == 0}
    assert set(r.winning_moves) == zero, position.text()
    assert len(r.winning_moves) == len(zero)
    assert (r.grundy == 0) == (not zero)


def test_mex_and_nim_sum():
    assert mex([]) == 0 and mex([1, 2]) == 0 and mex([0, 1, 2, 4]) == 3
    assert mex(iter([0, 0, 1])) == 2
    assert nim_sum([3, 5, 6]) == 0 and nim_sum([7]) == 7 and nim_sum(iter([1, 2])) == 3


def test_every_row_with_holes_up_to_9_squares():
    bf = BruteForce()
    solver = GrundySolver()
    n = 0
    for length in range(1, 10):
        for text in _fillings(1, length):
            _check(Position.from_string(text), bf, solver)
            n += 1
    assert n == sum(3 ** k - 1 for k in range(1, 10))


def test_every_hole_free_row_of_10_and_a_sample_to_14():
    bf = BruteForce()
    solver = GrundySolver()
    for text in _fillings(1, 10, "xo"):
        p = Position.from_string(text)
        assert solver.value(p) == bf.value(p), text
    rng = random.Random(20261122)
    for length in range(11, 15):
        for _ in range(6):
            text = "".join(rng.choice("xo") for _ in range(length))
            p = Position.from_string(text)
            _check(p, BruteForce(), GrundySolver())


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_every_small_grid_filling(rows, cols):
    bf = BruteForce()
    solver = GrundySolver()
    for text in _fillings(rows, cols):
        p = Position.from_string(text)
        if rows * cols == 9:
            # winning moves on every 3x3 would double the time: values on all, moves on some
            assert solver.value(p) == bf.value(p), text
        else:
            _check(p, bf, solver)
    rng = random.Random(7)
    for text in rng.sample(list(_fillings(rows, cols)), 300 if rows * cols > 6 else 20):
        _check(Position.from_string(text), bf, solver)


def test_random_larger_grids_against_brute_force():
    rng = random.Random(99)
    for rows, cols in [(2, 5), (3, 4), (4, 3), (2, 6)]:
        for _ in range(4):
            text = "/".join("".join(rng.choice("xxoo.") for _ in range(cols))
                            for _ in range(rows))
            if set(text) <= {".", "/"}:
                continue
            _check(Position.from_string(text), BruteForce(), GrundySolver())


@pytest.mark.parametrize("board", [cycle(7), complete(5), hypercube(3), tree([0, 0, 1, 1, 2, 2]),
                                   path(8), grid_graph(2, 4)])
def test_graph_boards_against_brute_force(board):
    rng = random.Random(board.n)
    bf = BruteForce()
    solver = GrundySolver()
    for _ in range(40):
        text = "".join(rng.choice("xo.") for _ in range(board.n))
        _check(Position.from_string(text, board), bf, solver)


def test_graph_grid_equals_grid_and_path_equals_row():
    rng = random.Random(3)
    for _ in range(30):
        text = "".join(rng.choice("xo.") for _ in range(12))
        grid_text = text[:4] + "/" + text[4:8] + "/" + text[8:]
        g1 = grundy_value(Position.from_string(grid_text)).grundy
        g2 = grundy_value(Position.from_string(text, grid_graph(3, 4))).grundy
        assert g1 == g2
        row = text.replace(".", "x")[:9]
        assert (grundy_value(Position.from_string(row, path(9))).grundy
                == grundy_value(Position.from_string(row)).grundy)


def test_canonical_keys_are_invariant():
    rng = random.Random(11)
    for _ in range(60):
        rows, cols = rng.choice([(1, 9), (2, 4), (3, 4), (3, 3), (2, 6)])
        grid = ["".join(rng.choice("xxoo.") for _ in range(cols)) for _ in range(rows)]
        text = "/".join(grid)
        if set(text) <= {".", "/"}:
            continue
        swap = text.translate(str.maketrans("xo", "ox"))
        rev = "/".join(r[::-1] for r in grid)
        flip = "/".join(grid[::-1])
        transposed = "/".join("".join(t) for t in zip(*grid, strict=True))
        solver = GrundySolver()
        base = Position.from_string(text)
        keys = sorted(map(repr, solver.component_keys(base.board, base.cells)))
        value = solver.value(base)
        for other in (swap, rev, flip, transposed):
            p = Position.from_string(other)
            assert GrundySolver().value(p) == value
            if p.board.rows == base.board.rows:  # same board: the very same keys
                assert sorted(map(repr, solver.component_keys(p.board, p.cells))) == keys


def test_row_keys_and_bent_paths():
    assert row_key("xxo") == row_key("oxx") == row_key("xoo") == row_key("oox") == "oox"
    assert row_key("xoxx") == "ooxo"
    solver = GrundySolver()
    # an L-shaped path of stones reads as the row x o x o o
    bent = Position.from_string("xox/..o/..o")
    assert solver.component_keys(bent.board, bent.cells) == [row_key("xoxoo")]
    assert solver.value(bent) == BruteForce().value(Position.from_string("xoxoo"))


def test_known_values():
    # (xo)^n from the MCGS files and the French study; the 2x2 and 3x3 checkerboards
    values = [0, 1, 3, 0, 2, 0, 2, 0]
    for n, g in enumerate(values):
        if n:
            assert grundy_value(Position.from_string("xo" * n)).grundy == g
    assert grundy_value(Position.from_string("xo/ox")).grundy == 0
    assert grundy_value(Position.from_string("xox/oxo/xox")).grundy == 1
    assert grundy_value(Position.from_string("xo_oxx")).grundy == \
        BruteForce().value(Position.from_string("xo.oxx"))


def test_long_rows_do_not_recurse():
    # 2400 stones: the iterative search has no recursion limit to hit
    p = Position.from_string("x" * 1200 + "o" * 1200)
    r = grundy_value(p, solver=GrundySolver())
    assert r.grundy == grundy_value(p).grundy
    # xx...xoo...o: brute force on small cases agrees with the solver's pattern
    for k in range(1, 5):
        q = Position.from_string("x" * k + "o" * k)
        assert GrundySolver().value(q) == BruteForce().value(q)


class FakeDb:
    """A row database stand-in: the values of a brute force, counting its lookups."""

    def __init__(self, max_stones, lie=None):
        self.max_stones = max_stones
        self.calls = []
        self.lie = lie

    def value(self, row):
        assert set(row) <= {"x", "o"} and len(row) <= self.max_stones
        self.calls.append(row)
        if self.lie is not None:
            return self.lie
        return BruteForce().value(Position.from_string(row))


def test_database_hook_is_used_for_rows_and_paths():
    db = FakeDb(6)
    p = Position.from_string("xoxoxoxo.xxo.oxoxoxo")
    r = grundy_value(p, db=db)
    assert r.grundy == GrundySolver().value(p)
    assert db.calls and r.db_lookups == len(db.calls)
    assert all(len(c) <= 6 for c in db.calls)
    assert "oox" in db.calls  # the part xxo, keyed as its least form
    # the hook really answers: a database that says 0 for everything changes the value
    liar = FakeDb(4, lie=0)
    assert grundy_value(Position.from_string("xoxo"), db=liar).grundy == 0
    assert liar.calls == ["oxox"]
    # a bent path in a grid is a row too
    bent_db = FakeDb(8)
    bent = Position.from_string("xox/..o/..o")
    assert grundy_value(bent, db=bent_db).grundy == GrundySolver().value(bent)
    assert bent_db.calls[0] == row_key("xoxoo")


def test_real_row_database(tmp_path):
    rowdb.build_database(tmp_path, max_stones=10, jobs=1)
    db = rowdb.RowDatabase.open(tmp_path)
    solver = GrundySolver()
    rng = random.Random(5)
    lookups = 0
    for _ in range(50):
        text = "".join(rng.choice("xxoo.") for _ in range(16))
        if set(text) == {"."}:
            continue
        p = Position.from_string(text)
        r = grundy_value(p, db=db)
        lookups += r.db_lookups
        assert r.grundy == solver.value(p)
    assert lookups > 0


def test_kernel_moves_equal_reference_moves():
    rng = random.Random(17)
    boards = [Board.grid(4, 5), Board.grid(1, 12), hypercube(4), cycle(9), complete(6),
              Board.grid(8, 8)]
    for board in boards:
        adj = np.array(board.adjacency_masks, dtype=np.uint64)
        for _ in range(30):
            text = "".join(rng.choice("xo.") for _ in range(board.n))
            p = Position.from_string(text, board) if not board.is_grid else \
                Position(board, bytes(".xo".index(c) for c in text))
            src, dst = K.impartial_moves(np.uint64(p.black), np.uint64(p.white), adj)
            assert [(int(a), int(b)) for a, b in zip(src, dst, strict=True)] == \
                [tuple(m) for m in p.moves()]


def test_kernel_canonical_key_is_a_symmetric_image():
    board = Board.grid(4, 4)
    perms = K.perm_tables(np.array(board.symmetries(), dtype=np.int64))
    a = Position.from_string("xo../.x../..../....")
    b = Position.from_string("..../..../..x./..ox")  # rotated by 180 degrees, shifted
    c = Position.from_string("..../..../.o../.xo.").swap_colors()
    keys = {K.canonical(np.uint64(p.black), np.uint64(p.white), perms, 4) for p in (a, b, c)}
    assert len(keys) == 1


def test_winning_moves_and_result_fields():
    r = grundy_value(Position.from_string("xoxo"))
    assert r.grundy == 3 and r.move_strings() == ["c1-b1", "b1-c1"]
    d = r.to_dict()
    assert d["grundy"] == 3 and d["winning_moves"] == ["c1-b1", "b1-c1"] and "seconds" in d
    assert grundy_value(Position.from_string("xoxoxo")).winning_moves == ()
    assert grundy_value(Position.from_string("x.o")).grundy == 0


def test_time_limit_raises_and_resumes():
    solver = GrundySolver()
    p = Position.from_string("xo" * 100)
    with pytest.raises(GrundyTimeout):
        grundy_value(p, time_limit=0.02, solver=solver)
    assert solver.searched > 0  # kept: the next call starts from these values
    assert grundy_value(p, solver=solver).grundy == 3  # (xo)^100 in the MCGS xo file
    big = Position.checkerboard(6, 6)  # the kernel path checks the clock between chunks
    with pytest.raises(GrundyTimeout):
        grundy_value(big, time_limit=0.05, solver=GrundySolver())
    with pytest.raises(ClobbermaniaError):
        grundy_value(p, time_limit=0)


def test_choose_move_wins_when_it_can():
    rng = random.Random(23)
    bf = BruteForce()
    for _ in range(40):
        text = "".join(rng.choice("xo.") for _ in range(9))
        p = Position.from_string(text)
        opts = bf.options(p)
        if not opts:
            with pytest.raises(IllegalMoveError):
                choose_move(p)
            continue
        mv, why = choose_move(p)
        if any(g == 0 for _, g in opts):
            assert bf.value(p.play(mv)) == 0 and why.startswith("winning")
        else:
            # the French heuristic: fewest winning replies, checked by brute force
            replies = {m: sum(1 for _, g in bf.options(p.play(m)) if g == 0) for m, _ in opts}
            fewest = min(replies.values())
            assert replies[mv] == fewest and why.startswith("heuristic")
            assert f"leaves {fewest} winning" in why


def test_choose_move_seed_is_deterministic():
    p = Position.from_string("xoxoxoxoxx")
    a = [choose_move(p, rng=s)[0] for s in range(5)]
    b = [choose_move(p, rng=s)[0] for s in range(5)]
    assert a == b
    assert all(m in p.moves() for m in a)
    assert choose_move(p)[0] == choose_move(p)[0]


# -- command line ----------------------------------------------------------------------------


def test_cli_value_json_and_text(capsys):
    code, out, err = run_cli(capsys, "grundy", "value", "xoxo", "--json")
    assert code == 0 and err == ""
    d = json.loads(out)
    assert d["grundy"] == 3 and d["winning_moves"] == ["c1-b1", "b1-c1"] and d["exact"]
    assert "seconds" in d and d["board"] == "xoxo"
    code, out, _ = run_cli(capsys, "grundy", "value", "xo_oxx")
    assert code == 0 and "Grundy value: 3" in out and "winning moves" in out and "●" in out
    code, out, _ = run_cli(capsys, "grundy", "value", "xxoxo", "--graph", "cycle:5", "--json")
    assert json.loads(out)["grundy"] == 4
    code, out, _ = run_cli(capsys, "grundy", "value", "xoxoxo", "--json")
    assert json.loads(out)["winning_moves"] == []


def test_cli_value_with_database_and_errors(capsys, tmp_path):
    rowdb.build_database(tmp_path, max_stones=8, jobs=1)
    code, out, _ = run_cli(capsys, "grundy", "value", "xoxo.xxo", "--db", str(tmp_path),
                           "--json")
    d = json.loads(out)
    assert code == 0 and d["db"] == str(tmp_path) and d["db_lookups"] >= 1
    assert d["grundy"] == GrundySolver().value(Position.from_string("xoxo.xxo"))
    code, out, err = run_cli(capsys, "grundy", "value", "xoz")
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and out == ""
    code, out, err = run_cli(capsys, "grundy", "value", "xo", "--db", str(tmp_path / "none"))
    assert code == 2 and "no row database" in err


def test_cli_value_time_limit_is_not_an_error(capsys):
    code, out, _ = run_cli(capsys, "grundy", "value", "xoxoxo/oxoxox/xoxoxo/oxoxox/xoxoxo",
                           "--time-limit", "0.05", "--json")
    d = json.loads(out)
    assert code == 0 and d["exact"] is False and d["grundy"] is None


def _play(capsys, monkeypatch, text, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run_cli(capsys, "grundy", "play", *args)


def test_cli_play_rejects_illegal_moves_and_the_computer_wins(capsys, monkeypatch):
    # xoxox has value != 0; after the human's a1-b1 the computer has a winning reply
    code, out, err = _play(capsys, monkeypatch, "z9-a1\na1-c1\nmoves\na1-b1\n", "xoxox")
    assert code == 0 and err == ""
    assert "not played: square 'z9' is off the 1x5 board" in out
    assert "not played: move a1-c1 is illegal: the squares are not adjacent" in out
    assert "legal moves: a1-b1 c1-b1" in out
    assert "computer plays" in out and "(winning:" in out
    assert out.rstrip().endswith("You have no move: the computer wins.")


def test_cli_play_computer_first_eof_and_quit(capsys, monkeypatch):
    code, out, _ = _play(capsys, monkeypatch, "", "xoxoxo", "--first", "computer", "--seed", "1")
    assert code == 0 and "(heuristic:" in out and "end of input" in out  # xoxoxo has value 0
    code, out, _ = _play(capsys, monkeypatch, "quit\n")
    assert code == 0 and "game abandoned" in out and "●" in out  # the default configuration
    code, out, _ = _play(capsys, monkeypatch, "0-1\n", "xo", "--graph", "path:2")
    assert code == 0 and "The computer has no move: you win." in out


def test_cli_play_a_whole_game_against_itself(capsys, monkeypatch):
    # the human side plays the computer's own choices: the game ends with a winner
    p = Position.from_string("xoxxo/oxoox")
    moves, turn = [], True
    while p.has_move():
        mv, _ = choose_move(p)
        if turn:
            moves.append(mv.to_str(p.board))
        p = p.play(mv)
        turn = not turn
    code, out, _ = _play(capsys, monkeypatch, "\n".join(moves) + "\n", "xoxxo/oxoox")
    assert code == 0 and ("you win" in out or "computer wins" in out)
    assert "not played" not in out


def test_choose_move_out_of_time_still_moves():
    p = Position.checkerboard(6, 6)
    mv, why = choose_move(p, time_limit=0.01)
    assert mv in p.moves() and why.startswith("out of time")


def test_memory_limit_stops_the_kernel():
    solver = GrundySolver(memo_limit=50_000)
    with pytest.raises(GrundyMemoryLimit, match="memory limit of 50,000"):
        solver.value(Position.checkerboard(4, 5))
    assert isinstance(GrundyMemoryLimit("x"), GrundyTimeout)  # the CLI reports exact: false


def test_kernel_table_grows_and_keeps_every_value():
    board = Board.grid(3, 6)
    adj = np.array(board.adjacency_masks, dtype=np.uint64)
    perms = K.perm_tables(np.array(board.symmetries(), dtype=np.int64))
    p = Position.checkerboard(3, 6)
    memo = K.Memo(capacity_log2=4)  # 16 slots: the search has to grow it many times
    budget = np.zeros(1, dtype=np.int64)
    while True:
        if memo.full:
            K.grow_memo(memo)
        budget[0] = 10**9
        g = K.component_value(np.uint64(p.black), np.uint64(p.white), adj, perms, 6,
                              *memo.arrays(), budget, *K.no_parts(), 3)
        if g >= 0:
            break
    # the 3x6 value is 0 (MCGS: 3xn impartial checkerboards); 333,152 parts, as the typed
    # dict of the first version of this kernel stored: growth loses nothing
    assert g == 0 and len(memo) == 333_152
    assert memo.keys_b.shape[0] >= len(memo) / 0.7
    kb, kw = K.canonical(np.uint64(p.black), np.uint64(p.white), perms, 6)
    assert K.memo_get(memo, kb, kw) == 0
    small = Position.from_string("xo..../ox..../......")
    sb, sw = K.canonical(np.uint64(small.black), np.uint64(small.white), perms, 6)
    assert K.memo_get(memo, sb, sw) == 0  # the 2x2 checkerboard, stored on the way


def test_cycle_board_with_more_symmetries_than_tabulated():
    # cycle:36 lists 72 symmetries (64 are tabulated). A full cycle's value is the mex over
    # its moves of the row left behind, which the string search gives independently.
    board = cycle(36)
    assert len(board.symmetries()) > K.MAX_SYMMETRIES
    text = "xxo" * 12
    p = Position.from_string(text, board)
    options = set()
    for mv in p.moves():
        cells = ".xo"
        after = [cells[c] for c in p.play(mv).cells]
        start = mv.src  # the emptied vertex: the row runs from the next vertex round the cycle
        row = "".join(after[(start + 1 + i) % 36] for i in range(35))
        options.add(GrundySolver().value(Position.from_string(row)))
    assert grundy_value(p, solver=GrundySolver()).grundy == mex(options)


def test_outcome_search_on_a_graph_vertex_of_degree_six_equals_the_plain_search():
    """A move from the centre of a six-legged spider leaves up to six parts (the kernels'
    part arrays once held four); the outcome search (parts of more than 4 stones) agrees
    with the plain mex search on random colourings."""
    import random

    from clobbermania.cli._common import load_position
    from clobbermania.clobber.impartial import GrundySolver

    parents = [i if i % 3 else 0 for i in range(18)]   # vertex i + 1: 6 legs of 3 from 0
    spec = "tree:" + ",".join(map(str, parents))
    rng = random.Random(1)
    values = []
    for _ in range(6):
        p = load_position("".join(rng.choice("xo") for _ in range(19)), spec)
        outcome, plain = GrundySolver(exact_stones=4), GrundySolver(exact_stones=64)
        got = [outcome.solve_key(k) for k in outcome.component_keys(p.board, p.cells)]
        assert got == [plain.solve_key(k) for k in plain.component_keys(p.board, p.cells)]
        values += got
    assert len(set(values)) > 1   # not all one value: the check can tell them apart
