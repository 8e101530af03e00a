"""The reference rules of Clickomania, and the numba kernels checked against them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from data_paths import SAMEGAME_STANDARD_SET

from clobbermania.clickomania import _kernels as K
from clobbermania.clickomania.rules import (
    Board,
    Game,
    from_grid,
    group_score,
    replay,
    score_sequence,
    to_grid,
)
from clobbermania.errors import BoardError, IllegalMoveError, NotationError


def random_board(rng: random.Random, rows: int, cols: int, colors: int,
                 holes: bool = True) -> Board:
    """A settled random board; with ``holes`` some columns are short or missing."""
    columns = []
    for _ in range(cols):
        h = rng.randint(0, rows) if holes and rng.random() < 0.5 else rows
        columns.append([rng.randrange(colors) for _ in range(h)])
    return Board.from_columns(columns, rows, cols)


def brute_click(board: Board, square: tuple[int, int]) -> Board:
    """An independent click: flood fill on a dense (row, col) grid, then fall, then close."""
    H, W = board.height, board.width
    dense = [[-1] * W for _ in range(H)]
    for r in range(H):
        for c in range(W):
            dense[r][c] = board.cell((r, c))
    r0, c0 = square
    color = dense[r0][c0]
    todo, group = [(r0, c0)], {(r0, c0)}
    while todo:
        r, c = todo.pop()
        for r2, c2 in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= r2 < H and 0 <= c2 < W and (r2, c2) not in group \
                    and dense[r2][c2] == color:
                group.add((r2, c2))
                todo.append((r2, c2))
    assert len(group) >= 2
    cols = []
    for c in range(W):
        col = [dense[r][c] for r in range(H - 1, -1, -1)
               if (r, c) not in group and dense[r][c] >= 0]
        if col:
            cols.append(col)
    return Board.from_columns(cols, H, W)


def test_parse_print_round_trip_and_squares():
    b = Board.from_string("1..\n12.\n223")
    assert b.text() == "1../12./223"
    assert b.columns == ((2, 1, 1), (2, 2), (3,))
    assert b.square_name((2, 0)) == "a3" and b.parse_square("c3") == (2, 2)
    assert b.color_counts() == {1: 2, 2: 3, 3: 1}
    assert Board.from_string("Ab/ab").columns == ((10, 10), (11, 11))


@pytest.mark.parametrize("text, words", [
    ("12/1", "row 2 has 1 cells"),
    ("1#", "bad character '#' at b1"),
    ("1./.1", "floats over an empty square"),
    (".1/.1", "column a is empty but column b"),
    ("", "empty"),
])
def test_bad_boards_name_the_problem(text, words):
    with pytest.raises((NotationError, BoardError), match=words):
        Board.from_string(text)


def test_click_gravity_and_closing():
    b = Board.from_string("21./11./123")
    g = b.group_at("a2")  # the 1s on b1, a2, b2, a3
    assert g.size == 4 and g.square == (2, 0) and g.squares == ((0, 1), (1, 0), (1, 1), (2, 0))
    after = b.click("b2")
    assert after.text() == ".../.../223"
    with pytest.raises(IllegalMoveError, match="alone"):
        after.click("c3")
    with pytest.raises(IllegalMoveError, match="empty"):
        after.click("c1")
    # an emptied column closes up: the columns to its right move left
    b2 = Board.from_string("1.2/1.2".replace(".", "3")).click("b1")
    assert b2.text() == "12./12."


def test_replay_score_and_undo():
    b = Board.from_string("11222/11333")
    # the four 1s score 4, the three 2s 1, the three 3s 1, and the board is clear
    assert score_sequence(b, ["a1", "a1", "a2"]) == 4 + 1 + 1 + 1000
    assert score_sequence(b, ["a1", "a1"]) == 5
    with pytest.raises(IllegalMoveError, match="move 2"):
        replay(b, ["a1", "e1"])
    g = Game(b)
    g.push("c1")
    g.push("a2")
    assert g.score == 5 and g.moves_played == ["c1", "a2"]
    g.pop()
    assert g.board == b.click("c1") and g.score == 1
    assert group_score(7) == 25


def test_rules_click_matches_independent_click():
    rng = random.Random(5)
    for _ in range(300):
        b = random_board(rng, rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 4))
        for sq in b.moves():
            assert b.click(sq) == brute_click(b, sq)


def test_click_moves_carry_every_block_to_its_square_after_the_click():
    rng = random.Random(17)
    clicks = 0
    for _ in range(300):
        b = random_board(rng, rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 4))
        blocks = {(r, c) for r in range(b.height) for c in range(b.width) if b.cell((r, c)) >= 0}
        for sq in b.moves():
            moves = b.click_moves(sq)
            group = set(b.group_at(sq).squares)
            # the group's blocks go, every other block stays somewhere, two never meet
            assert set(moves) == blocks - group
            assert len(set(moves.values())) == len(moves)
            # each block carried to its square: the board an independent click gives
            moved = {dst: b.cell(src) for src, dst in moves.items()}
            after = brute_click(b, sq)
            assert after == b.click(sq)
            for r in range(b.height):
                for c in range(b.width):
                    assert after.cell((r, c)) == moved.get((r, c), -1)
            clicks += 1
    assert clicks > 500
    with pytest.raises(IllegalMoveError, match="alone"):
        Board.from_string("12").click_moves("a1")


def test_kernels_match_rules_on_random_play():
    rng = random.Random(11)
    W_, H_ = 8, 8
    out = [np.empty(W_ * H_, dtype=np.int32) for _ in range(4)]
    for _ in range(400):
        b = random_board(rng, rng.randint(1, H_), rng.randint(1, W_), rng.randint(1, 5))
        while True:
            grid = to_grid(b)
            assert from_grid(grid) == b
            assert K.k_n_blocks(grid) == b.n_blocks
            assert K.k_n_columns(grid) == len(b.columns)
            m = K.k_moves(grid, *out)
            moves = b.moves()
            assert K.k_is_dead(grid) == (not moves)
            for c, col in enumerate(b.columns):
                for h in range(len(col)):
                    assert K.k_has_partner(grid, c, h) == (
                        b.group_at((b.height - 1 - h, c)).size >= 2)
            got = [(b.height - 1 - int(out[1][i]), int(out[0][i])) for i in range(m)]
            assert got == moves
            assert [int(out[2][i]) for i in range(m)] == [b.group_at(s).size for s in moves]
            if not moves:
                break
            sq = rng.choice(moves)
            r, c = sq
            n = K.k_click(grid, c, b.height - 1 - r)
            assert n == b.group_at(sq).size
            b = b.click(sq)
            assert from_grid(grid) == b
        # an illegal click leaves the grid alone
        grid = to_grid(b)
        if b.columns:
            assert K.k_click(grid, 0, 0) == 0 and from_grid(grid) == b


def test_scratch_kernels_match_rules_and_leave_the_scratch_clean():
    # one scratch set shared over many boards of one frame, as the searches use it
    rng = random.Random(12)
    W_, H_ = 7, 6
    out = [np.empty(W_ * H_, dtype=np.int64) for _ in range(4)]
    mark = np.zeros((W_, H_), dtype=np.bool_)
    sc = np.empty(W_ * H_, dtype=np.int32)
    sh = np.empty(W_ * H_, dtype=np.int32)
    for _ in range(200):
        b = random_board(rng, H_, W_, rng.randint(1, 4))
        grid = to_grid(b)
        while True:
            m = K.k_moves_with(grid, *out, mark, sc, sh)
            assert not mark.any()
            moves = b.moves()
            assert [(b.height - 1 - int(out[1][i]), int(out[0][i])) for i in range(m)] == moves
            # an illegal click (a single block, or off the board) changes nothing
            singles = [g.square for g in b.groups() if g.size == 1]
            if singles:
                r, c = singles[0]
                assert K.k_click_with(grid, c, b.height - 1 - r, mark, sc, sh) == 0
                assert not mark.any() and from_grid(grid, b.height, b.width) == b
            if not moves:
                break
            r, c = rng.choice(moves)
            n = K.k_click_with(grid, c, b.height - 1 - r, mark, sc, sh)
            assert not mark.any() and n == b.group_at((r, c)).size
            b = b.click((r, c))
            assert from_grid(grid, b.height, b.width) == b


def test_hash_is_a_function_of_the_board():
    rng = np.random.default_rng(1)
    z = rng.integers(0, 2**63, size=(4, 4, 3), dtype=np.uint64)
    a = Board.from_string("12/21/11/22".replace("/", "/"))
    b = Board.from_string("12/21/11/22")
    assert K.k_hash(to_grid(a), z) == K.k_hash(to_grid(b), z)
    c = a.click("a3")
    assert K.k_hash(to_grid(c), z) != K.k_hash(to_grid(a), z)


def test_standard_set_reader_and_board_files(tmp_path):
    from clobbermania.clickomania.rules import load_board, read_boards
    boards = read_boards(SAMEGAME_STANDARD_SET.read_text(encoding="utf-8"))
    assert len(boards) == 20
    assert all(b.height == 15 and b.width == 15 and b.n_blocks == 225 for b in boards)
    assert all(set(b.color_counts()) == {0, 1, 2, 3, 4} for b in boards)
    assert boards[0].text().startswith("311410404411023/332044131200404")
    one = tmp_path / "one.txt"
    one.write_text("# a comment\n12\n21\n")
    assert load_board(str(one)).text() == "12/21"
    with pytest.raises(NotationError, match="no such file"):
        load_board(str(tmp_path / "missing.txt"))
    with pytest.raises(NotationError, match="neither a board file nor a board"):
        load_board("missing.txt")


def test_remove_marked_from_a_column_matches_the_rules():
    # the playouts remove a group starting at any column up to its leftmost one
    rng = random.Random(13)
    W_, H_ = 7, 6
    mark, sc, sh = np.zeros((W_, H_), dtype=np.bool_), *np.empty((2, W_ * H_), np.int32)
    for _ in range(300):
        grid = to_grid(b := random_board(rng, H_, W_, rng.randint(1, 4)))
        while b.moves():
            r, c = rng.choice(b.moves())
            n = K.k_group(grid, c, b.height - 1 - r, mark, sc, sh)
            left, right = int(sc[:n].min()), int(sc[:n].max())
            # the last column given: the group's rightmost one or any after it, or -1
            last = rng.choice([-1, right, rng.randint(right, W_ - 1)])
            before = K.k_n_columns(grid)
            emptied = K.k_remove_marked_from(grid, mark, rng.randint(0, left), last)
            mark[:, :] = False
            b = b.click((r, c))
            assert from_grid(grid, b.height, b.width) == b
            assert emptied == (K.k_n_columns(grid) < before)
