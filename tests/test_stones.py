"""Tests of clobbermania.stones and clobbermania.graphs: notation, boards, graph factories.

Expected values come from the notation rules (DESIGN.md) or from small independent
computations written here; the library is never compared with itself.
"""

from __future__ import annotations

import itertools
import string

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clobbermania.errors import BoardError, ClobbermaniaError, NotationError
from clobbermania.graphs import (
    complete,
    cycle,
    from_networkx,
    hamming,
    hypercube,
    parse_graph_spec,
    path,
    read_edge_list,
)
from clobbermania.stones import BLACK, EMPTY, WHITE, Board, Move, Position

FAST = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

ALTERNATES = {"x": "xX\u25cf", "o": "oO\u25cb", ".": "._\u00b7"}
CELL_OF = {"x": BLACK, "o": WHITE, ".": EMPTY}


def spreadsheet(c: int) -> str:
    """Column letters written independently: bijective base 26."""
    out = []
    n = c + 1
    while n > 0:
        n -= 1
        out.append(string.ascii_lowercase[n % 26])
        n //= 26
    return "".join(reversed(out))


def edge_set(board: Board) -> set[frozenset[int]]:
    return {frozenset((u, v)) for u in range(board.n) for v in board.neighbors(u)}


def grid_edge_set(rows: int, cols: int) -> set[frozenset[int]]:
    """Orthogonal adjacency of a rows x cols grid, vertex r * cols + c."""
    out = set()
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if c + 1 < cols:
                out.add(frozenset((v, v + 1)))
            if r + 1 < rows:
                out.add(frozenset((v, v + cols)))
    return out


@st.composite
def grids(draw, max_rows: int = 8, max_cols: int = 8) -> list[str]:
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    return ["".join(draw(st.lists(st.sampled_from("xo."), min_size=cols, max_size=cols)))
            for _ in range(rows)]


# -- parsing and printing -------------------------------------------------------------------


@FAST
@given(grids())
def test_text_round_trip(rows):
    text = "/".join(rows)
    p = Position.from_string(text)
    assert p.board.rows == len(rows) and p.board.cols == len(rows[0])
    assert p.cells == bytes(CELL_OF[ch] for row in rows for ch in row)
    assert p.text() == text
    assert str(p) == text
    assert Position.from_string(p.text()) == p
    assert Position.from_string(p.text(sep="\n")) == p
    assert Position.from_string(p.text(sep="\r\n")) == p
    # black / white bitmasks agree with the cells
    assert p.black == sum(1 << v for v, c in enumerate(p.cells) if c == BLACK)
    assert p.white == sum(1 << v for v, c in enumerate(p.cells) if c == WHITE)
    assert p.stone_count() == sum(ch != "." for row in rows for ch in row)
    assert Position.from_masks(p.board, p.black, p.white) == p


@FAST
@given(grids(), st.data())
def test_alternate_characters_parse_to_same_cells(rows, data):
    plain = Position.from_string("/".join(rows))
    fancy_rows = ["".join(data.draw(st.sampled_from(ALTERNATES[ch])) for ch in row)
                  for row in rows]
    sep = data.draw(st.sampled_from(["/", "\n", "\r\n", "\r"]))
    fancy = Position.from_string("  " + sep.join(fancy_rows) + "\n")
    assert fancy.cells == plain.cells
    assert fancy == plain
    assert fancy.text() == "/".join(rows)


def test_alternate_characters_examples():
    assert Position.from_string("\u25cf\u25cb\u00b7/_OX").text() == "xo./.ox"
    assert Position.from_string("xo\nox").text() == "xo/ox"


@pytest.mark.parametrize(
    "text, pieces",
    [
        ("xo/oq", ["'q'", "row 2", "column 2"]),
        ("q", ["'q'", "row 1", "column 1"]),
        ("xox/o.o/..#", ["'#'", "row 3", "column 3"]),
        ("x o", ["' '", "row 1", "column 2"]),
        ("xo\nxZ", ["'Z'", "row 2", "column 2"]),
    ],
)
def test_bad_character_names_row_and_column(text, pieces):
    with pytest.raises(NotationError) as exc:
        Position.from_string(text)
    for piece in pieces:
        assert piece in str(exc.value)


@FAST
@given(grids(), st.data())
def test_bad_character_position_fuzz(rows, data):
    r = data.draw(st.integers(0, len(rows) - 1))
    c = data.draw(st.integers(0, len(rows[0]) - 1))
    bad = data.draw(st.sampled_from("qwertyzQ#1?!@-+"))
    rows = list(rows)
    rows[r] = rows[r][:c] + bad + rows[r][c + 1:]
    with pytest.raises(NotationError) as exc:
        Position.from_string("/".join(rows))
    msg = str(exc.value)
    assert repr(bad) in msg and f"row {r + 1}" in msg and f"column {c + 1}" in msg


@pytest.mark.parametrize("text", ["xo/o", "x/oo", "xox/ox/xox", "xo\no"])
def test_ragged_grid(text):
    with pytest.raises(NotationError, match="rectangular"):
        Position.from_string(text)


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "\t"])
def test_empty_board(text):
    with pytest.raises(NotationError, match="empty"):
        Position.from_string(text)


def test_empty_row():
    with pytest.raises(NotationError, match="row 2"):
        Position.from_string("xo//ox")


def test_position_from_string_with_board():
    board = Board.grid(2, 2)
    assert Position.from_string("xo/ox", board).board == board
    # a grid given in vertex order
    assert Position.from_string("xoox", board).text() == "xo/ox"
    with pytest.raises(NotationError):
        Position.from_string("xo/ox/xo", board)
    g = cycle(5)
    p = Position.from_string("xo.ox", g)
    assert p.cells == bytes([BLACK, WHITE, EMPTY, WHITE, BLACK])
    assert p.text() == "xo.ox"
    assert Position.from_string(p.text(), g) == p
    with pytest.raises(NotationError, match="5 vertices"):
        Position.from_string("xo", g)
    with pytest.raises(NotationError, match="'q'"):
        Position.from_string("xoqox", g)


def test_cell_and_mask_errors():
    with pytest.raises(BoardError):
        Position(Board.grid(2, 2), bytes(3))
    with pytest.raises(BoardError):
        Position.from_masks(Board.grid(1, 3), 0b011, 0b010)
    with pytest.raises(BoardError):
        Board.grid(0, 3)
    with pytest.raises(BoardError):
        Board.grid(3, -1)


# -- square names -----------------------------------------------------------------------------


def test_square_names_on_a_wide_board():
    board = Board.grid(1, 60)
    names = [board.square_name(v) for v in range(60)]
    assert names[0] == "a1" and names[25] == "z1" and names[26] == "aa1"
    assert names[27] == "ab1" and names[51] == "az1" and names[52] == "ba1"
    assert names[59] == "bh1"
    assert names == [spreadsheet(c) + "1" for c in range(60)]
    assert len(set(names)) == 60
    for v, name in enumerate(names):
        assert board.parse_square(name) == v
        assert board.parse_square(name.upper()) == v


def test_square_names_rows_from_the_top():
    board = Board.grid(12, 3)
    assert board.square_name(0) == "a1"
    assert board.square_name(2) == "c1"
    assert board.square_name(3) == "a2"
    assert board.square_name(3 * 11 + 2) == "c12"
    for v in range(board.n):
        r, c = divmod(v, 3)
        assert board.square_name(v) == f"{'abc'[c]}{r + 1}"
        assert board.parse_square(board.square_name(v)) == v


@pytest.mark.parametrize("text", ["a0", "d1", "a4", "1a", "a", "1", "", "a1b", "a-1", "é1"])
def test_parse_square_errors(text):
    with pytest.raises(NotationError):
        Board.grid(3, 3).parse_square(text)


def test_square_name_off_board():
    with pytest.raises(NotationError):
        Board.grid(2, 2).square_name(4)
    with pytest.raises(NotationError):
        cycle(5).square_name(-1)


def test_move_parse_and_print():
    board = Board.grid(3, 4)
    m = Move.parse("a1-b1", board)
    assert m == Move(0, 1)
    assert Move.parse(" B2 - b3 ", board) == Move(5, 9)
    assert m.to_str(board) == "a1-b1"
    assert Move(11, 7).to_str(board) == "d3-d2"
    g = cycle(8)
    assert Move.parse("3-7", g) == Move(3, 7)
    assert Move.parse(" 3 - 4 ", g) == Move(3, 4)
    assert Move(3, 7).to_str(g) == "3-7"


@pytest.mark.parametrize("text", ["a1", "a1-", "-b1", "a1-b1-c1", "", "a1 b1", "a1-e1",
                                  "a1-a9", "x-y", "a1--b1"])
def test_move_parse_errors_on_grid(text):
    with pytest.raises(NotationError):
        Move.parse(text, Board.grid(3, 4))


@pytest.mark.parametrize("text", ["3", "3-", "3-x", "a1-b1", "3-8", "-1-2", "1-2-3", ""])
def test_move_parse_errors_on_graph(text):
    with pytest.raises(NotationError):
        Move.parse(text, cycle(8))


def test_move_parse_error_message_names_the_move():
    with pytest.raises(NotationError, match="'a1b1'"):
        Move.parse("a1b1", Board.grid(2, 2))


# -- symmetries ---------------------------------------------------------------------------


def assert_automorphisms(board: Board, perms) -> None:
    edges = edge_set(board)
    for perm in perms:
        assert sorted(perm) == list(range(board.n))
        assert {frozenset(perm[v] for v in e) for e in edges} == edges


@pytest.mark.parametrize("n", range(2, 8))
def test_square_grid_has_eight_symmetries(n):
    board = Board.grid(n, n)
    perms = board.symmetries()
    assert len(perms) == 8 and len(set(perms)) == 8
    assert tuple(range(n * n)) in perms
    assert edge_set(board) == grid_edge_set(n, n)
    assert_automorphisms(board, perms)


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 2), (2, 5), (4, 3), (3, 7), (6, 5)])
def test_rectangle_has_four_symmetries(rows, cols):
    board = Board.grid(rows, cols)
    perms = board.symmetries()
    assert len(perms) == 4 and len(set(perms)) == 4
    assert edge_set(board) == grid_edge_set(rows, cols)
    assert_automorphisms(board, perms)


@pytest.mark.parametrize("rows, cols, count", [(1, 1, 1), (1, 2, 2), (1, 7, 2), (5, 1, 2)])
def test_thin_grid_symmetries(rows, cols, count):
    board = Board.grid(rows, cols)
    assert len(board.symmetries()) == count
    assert_automorphisms(board, board.symmetries())


def test_graph_factory_symmetries_are_automorphisms():
    for board in [cycle(7), cycle(6), path(5), parse_graph_spec("grid:3x3"), complete(4),
                  hamming(2, 3)]:
        assert_automorphisms(board, board.symmetries())
    assert len(cycle(7).symmetries()) == 14
    assert len(path(5).symmetries()) == 2


def test_transform_preserves_move_count():
    p = Position.from_string("xo.x/oxo./..xo")
    for perm in p.board.symmetries():
        q = p.transform(perm)
        assert q.stone_count() == p.stone_count()
        assert len(q.moves()) == len(p.moves())
        assert len(q.moves(BLACK)) == len(p.moves(BLACK))


# -- square colours -------------------------------------------------------------------------


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (3, 3), (4, 6), (5, 2)])
def test_grid_square_colors(rows, cols):
    colors = Board.grid(rows, cols).square_colors
    assert colors == tuple(BLACK if (r + c) % 2 == 0 else WHITE
                           for r in range(rows) for c in range(cols))
    assert Position.checkerboard(rows, cols).cells == bytes(colors)


def assert_proper_two_colouring(board: Board) -> None:
    colors = board.square_colors
    assert colors is not None and board.is_bipartite
    assert set(colors) <= {BLACK, WHITE}
    for u, v in board.edges():
        assert colors[u] != colors[v]


def test_bipartite_graph_colors():
    for board in [path(6), cycle(8), hypercube(3), hamming(2, 2), parse_graph_spec("grid:3x4")]:
        assert_proper_two_colouring(board)
        assert board.square_colors[0] == BLACK
    q4 = hypercube(4)
    assert q4.square_colors == tuple(BLACK if bin(v).count("1") % 2 == 0 else WHITE
                                     for v in range(16))
    # every component's smallest vertex is black
    g = Board.from_edges(5, [(1, 2), (2, 3)])
    assert g.square_colors == (BLACK, BLACK, WHITE, BLACK, BLACK)
    g = Board.from_edges(4, [(0, 1), (2, 3)])
    assert g.square_colors == (BLACK, WHITE, BLACK, WHITE)


@pytest.mark.parametrize("spec", ["cycle:3", "cycle:7", "complete:3", "complete:5", "hamming:3,3",
                                  "hamming:2,3"])
def test_non_bipartite_graphs_have_no_colors(spec):
    board = parse_graph_spec(spec)
    assert board.square_colors is None
    assert not board.is_bipartite


# -- graph factories ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_path_counts(n):
    b = parse_graph_spec(f"path:{n}")
    assert b.n == n and len(list(b.edges())) == n - 1
    assert edge_set(b) == {frozenset((i, i + 1)) for i in range(n - 1)}
    assert b == path(n)


@pytest.mark.parametrize("n", [3, 4, 7, 10])
def test_cycle_counts(n):
    b = parse_graph_spec(f"cycle:{n}")
    assert b.n == n and len(list(b.edges())) == n
    assert all(len(b.neighbors(v)) == 2 for v in range(n))
    assert edge_set(b) == {frozenset((i, (i + 1) % n)) for i in range(n)}


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_complete_counts(n):
    b = parse_graph_spec(f"complete:{n}")
    assert b.n == n and len(list(b.edges())) == n * (n - 1) // 2
    assert all(b.neighbors(v) == tuple(u for u in range(n) if u != v) for v in range(n))


@pytest.mark.parametrize("sizes", [(3, 3), (2, 3), (3, 2), (2, 2, 2), (4,), (2, 3, 4)])
def test_hamming_numbering(sizes):
    b = parse_graph_spec("hamming:" + ",".join(map(str, sizes)))
    n = 1
    for a in sizes:
        n *= a
    assert b.n == n
    # mixed radix, first factor slowest, computed independently
    tuples = []
    for v in range(n):
        t, x = [], v
        for a in reversed(sizes):
            t.append(x % a)
            x //= a
        tuples.append(tuple(reversed(t)))
    expected = {frozenset((u, v)) for u in range(n) for v in range(n)
                if sum(p != q for p, q in zip(tuples[u], tuples[v], strict=True)) == 1}
    assert edge_set(b) == expected
    assert len(list(b.edges())) == n * sum(a - 1 for a in sizes) // 2


def test_hamming_examples():
    b = parse_graph_spec("hamming:3,3")
    assert b.n == 9 and len(list(b.edges())) == 18
    b = parse_graph_spec("hamming:2,3")
    assert b.n == 6 and len(list(b.edges())) == 9
    assert b.neighbors(4) == (1, 3, 5)  # vertex 4 = (1, 1)
    assert b.neighbors(0) == (1, 2, 3)  # vertex 0 = (0, 0)


def test_hypercube():
    b = parse_graph_spec("hypercube:4")
    assert b.n == 16 and len(list(b.edges())) == 32
    assert all(len(b.neighbors(v)) == 4 for v in range(16))
    assert edge_set(b) == {frozenset((u, v)) for u in range(16) for v in range(16)
                           if bin(u ^ v).count("1") == 1}
    assert parse_graph_spec("hypercube:1").n == 2


def test_grid_spec_is_a_graph_board():
    b = parse_graph_spec("grid:3x4")
    assert not b.is_grid
    assert b.n == 12 and len(list(b.edges())) == 17
    assert edge_set(b) == grid_edge_set(3, 4)
    assert b.square_name(5) == "5"
    assert Move.parse("5-6", b) == Move(5, 6)
    assert parse_graph_spec(" GRID: 2 X 2 ").n == 4


@pytest.mark.parametrize(
    "spec",
    ["", "torus:3", "grid:3", "grid:0x3", "grid:3x", "grid:axb", "path:", "path:x", "path:1,2",
     "path:0", "path:-3", "cycle:2", "cycle:0", "complete:0", "hamming:", "hamming:2,0",
     "hamming:2,x", "hypercube:0", "hypercube:2,2", "hypercube:40", "path:2000000",
     "no/such/edge-list.txt"],
)
def test_parse_graph_spec_errors(spec):
    with pytest.raises(BoardError):
        parse_graph_spec(spec)


def test_from_edges_errors():
    with pytest.raises(BoardError):
        Board.from_edges(0, [])
    with pytest.raises(BoardError):
        Board.from_edges(3, [(0, 3)])
    with pytest.raises(BoardError):
        Board.from_edges(3, [(1, 1)])
    with pytest.raises(BoardError):
        Board.from_edges(3, [(0, 1)], labels=[5, 5, 6])


# -- edge-list files ----------------------------------------------------------------------


def test_edge_list_file_with_labels(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("# a path 10-20-30 and an isolated vertex\n30 20\n10 20   # edge\n\n40\n")
    for board in (read_edge_list(f), parse_graph_spec(str(f))):
        assert board.n == 4
        assert [board.square_name(v) for v in range(4)] == ["10", "20", "30", "40"]
        assert edge_set(board) == {frozenset((0, 1)), frozenset((1, 2))}
        assert board.neighbors(3) == ()
        assert board.parse_square("30") == 2
        assert Move.parse("10-20", board) == Move(0, 1)
        assert Move(2, 1).to_str(board) == "30-20"
        with pytest.raises(NotationError):
            board.parse_square("3")
        p = Position.from_string("xo.x", board)
        assert [m.to_str(board) for m in p.moves()] == ["10-20", "20-10"]


def test_edge_list_separators_and_negative_labels(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("5,3\n3;-2\n-2--7\n")
    b = read_edge_list(f)
    assert [b.square_name(v) for v in range(b.n)] == ["-7", "-2", "3", "5"]
    assert edge_set(b) == {frozenset((2, 3)), frozenset((1, 2)), frozenset((0, 1))}
    assert b.parse_square("-7") == 0


def test_edge_list_plain_labels(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("0 1\n1 2\n2 0\n")
    b = read_edge_list(f)
    assert b.n == 3 and b.labels is None and b.square_colors is None


@pytest.mark.parametrize(
    "content, match",
    [("1 2 3\n", "line 1"), ("1 2\nfoo bar\n", "line 2"), ("1 2\n4 4\n", "line 2"),
     ("# nothing\n\n", "no edges")],
)
def test_edge_list_errors(tmp_path, content, match):
    f = tmp_path / "g.txt"
    f.write_text(content)
    with pytest.raises(BoardError, match=match):
        read_edge_list(f)


def test_edge_list_missing_file(tmp_path):
    with pytest.raises(BoardError, match="cannot read"):
        read_edge_list(tmp_path / "missing.txt")
    with pytest.raises(BoardError):
        read_edge_list(tmp_path)  # a directory


def test_edge_list_binary_file(tmp_path):
    f = tmp_path / "g.bin"
    f.write_bytes(b"\x80\x81 1 2\n")
    with pytest.raises(BoardError):
        parse_graph_spec(str(f))


# -- networkx -------------------------------------------------------------------------------


def test_from_networkx():
    b = from_networkx(nx.path_graph([3, 5, 9]))
    assert b.n == 3 and b.square_name(1) == "5"
    assert edge_set(b) == {frozenset((0, 1)), frozenset((1, 2))}
    b = from_networkx(nx.petersen_graph())
    assert b.n == 10 and len(list(b.edges())) == 15 and b.labels is None
    assert all(len(b.neighbors(v)) == 3 for v in range(10))
    # non-integer nodes are renumbered
    b = from_networkx(nx.grid_2d_graph(2, 3))
    assert b.n == 6 and len(list(b.edges())) == 7
    g = nx.Graph([(30, 10), (10, 20)])
    b = from_networkx(g)
    assert [b.square_name(v) for v in range(3)] == ["10", "20", "30"]
    assert edge_set(b) == {frozenset((0, 1)), frozenset((0, 2))}


def test_from_networkx_errors():
    with pytest.raises(BoardError):
        from_networkx(nx.DiGraph([(0, 1)]))
    with pytest.raises(BoardError):
        from_networkx(nx.Graph())
    with pytest.raises(BoardError):
        from_networkx(nx.Graph([(0, 1), (1, 1)]))


# -- fuzzing: bad input raises ClobbermaniaError, nothing else -------------------------------

FUZZ = settings(max_examples=300, deadline=None)
NEAR_NOTATION = st.text(alphabet="xo.XO_\u25cf\u25cb\u00b7/\n\r \tq#-ab1", max_size=30)
NEAR_MOVE = st.text(alphabet="abcz0123456789- \t\u0663K", max_size=12)


def _parses_or_clobbermania_error(fn, *args) -> None:
    try:
        fn(*args)
    except ClobbermaniaError:
        pass


@FUZZ
@given(st.one_of(st.text(max_size=40), NEAR_NOTATION))
def test_fuzz_position_from_string(text):
    _parses_or_clobbermania_error(Position.from_string, text)
    _parses_or_clobbermania_error(Position.from_string, text, Board.grid(2, 3))
    _parses_or_clobbermania_error(Position.from_string, text, cycle(5))


@FUZZ
@given(st.one_of(st.text(max_size=20), NEAR_MOVE))
def test_fuzz_move_parse(text):
    for board in (Board.grid(3, 30), cycle(12), path(4)):
        try:
            m = Move.parse(text, board)
        except ClobbermaniaError:
            continue
        assert 0 <= m.src < board.n and 0 <= m.dst < board.n


# Arguments stay tiny so that no spec names a graph too large to build quickly.
SPEC_KIND = st.sampled_from(["grid", "path", "cycle", "complete", "hamming", "hypercube",
                             "GRID", "torus", ""])
SPEC_ARG = st.text(alphabet="123,x -+_\u0663", max_size=3)


@FUZZ
@given(st.one_of(st.text(max_size=20),
                 st.builds(lambda k, a: f"{k}:{a}", SPEC_KIND, SPEC_ARG)))
def test_fuzz_parse_graph_spec(spec):
    try:
        board = parse_graph_spec(spec)
    except ClobbermaniaError:
        return
    assert board.n >= 1
    assert all(u != v for u, v in board.edges())


def test_all_small_texts_parse_or_raise():
    """Exhaustive over short texts: every accepted grid round-trips."""
    for k in range(1, 5):
        for chars in itertools.product("xo./q", repeat=k):
            text = "".join(chars)
            try:
                p = Position.from_string(text)
            except NotationError:
                continue
            assert Position.from_string(p.text()) == p
