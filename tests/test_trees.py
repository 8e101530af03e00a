"""SC2 on trees and forests: the polynomial algorithm against an independent brute force.

The full proof (every two-colour colouring of every tree of up to 12 vertices) is
benchmarks/trees.py; here a sample: every colouring, holes included, of every tree of up
to 6 vertices, every two-colour colouring of every tree of 7 and 8, and random larger trees.
"""

import itertools
import json
import random

import networkx as nx
import pytest
from brute_force import BruteForce

from clobbermania import Position
from clobbermania.cli import main
from clobbermania.errors import BoardError, UnsupportedError
from clobbermania.graphs import cycle, from_networkx, grid, parse_graph_spec, path, tree
from clobbermania.solitaire import replay, solve
from clobbermania.solitaire.paths import path_sc2
from clobbermania.solitaire.trees import is_forest, reducible_ends, tree_sc2
from clobbermania.stones import BLACK, EMPTY, WHITE, Move


def trees(n):
    if n == 1:
        return [tree([])]
    return [from_networkx(t) for t in nx.nonisomorphic_trees(n)]


def check(position, brute=None, np_width=None):
    """The algorithm's value is what its witness leaves, and the brute force agrees."""
    kw = {} if np_width is None else {"np_width": np_width}
    value, pairs = tree_sc2(position, **kw)
    r = replay(position, [Move(a, b) for a, b in pairs], free=True)
    assert r.valid and r.stones_left == value, (position.text(), r.error)
    brute = brute or BruteForce(position.board)
    assert value == brute.value(tuple(position.cells), 0), position.text()
    return value


def one_stone_ends(position):
    """Brute force: every (vertex, colour) a single last stone can reach."""
    board = position.board
    start = tuple(position.cells)
    seen, stack, ends = {start}, [start], set()
    while stack:
        cells = stack.pop()
        occupied = [v for v, c in enumerate(cells) if c != EMPTY]
        if len(occupied) == 1:
            ends.add((occupied[0], cells[occupied[0]]))
        for v in occupied:
            for u in board.neighbors(v):
                if cells[u] not in (EMPTY, cells[v]):
                    nxt = list(cells)
                    nxt[u], nxt[v] = cells[v], EMPTY
                    nxt = tuple(nxt)
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
    return sorted(ends)


def test_every_colouring_with_holes_of_every_tree_up_to_6():
    cases = 0
    for n in range(1, 7):
        for board in trees(n):
            brute = BruteForce(board)
            for cells in itertools.product((EMPTY, BLACK, WHITE), repeat=n):
                check(Position(board, bytes(cells)), brute)
                cases += 1
    assert cases == 5304  # 3 + 9 + 27 + 2 * 81 + 3 * 243 + 6 * 729


def test_every_two_colour_colouring_of_every_tree_of_7_and_8():
    for board in trees(7) + trees(8):
        brute = BruteForce(board)
        for cells in itertools.product((BLACK, WHITE), repeat=board.n):
            check(Position(board, bytes(cells)), brute)


def test_one_stone_ends_match_the_brute_force_up_to_7():
    for n in range(1, 8):
        for board in trees(n):
            for cells in itertools.product((BLACK, WHITE), repeat=n):
                p = Position(board, bytes(cells))
                assert reducible_ends(p) == one_stone_ends(p), p.text()
                # 1-reducible exactly when the optimum is one stone
                assert (tree_sc2(p)[0] == 1) == bool(reducible_ends(p))


def test_random_larger_trees_and_forests_with_holes():
    rng = random.Random(11)
    for _ in range(60):
        n = rng.randint(9, 13)
        board = tree([rng.randrange(i) for i in range(1, n)])
        cells = bytes(rng.choice((BLACK, WHITE, BLACK, WHITE, EMPTY)) for _ in range(n))
        check(Position(board, cells))


def test_numpy_knapsack_agrees_with_the_plain_one():
    # np_width=0 sends every vertex to numpy: same values against the brute force ...
    for n in range(1, 7):
        for board in trees(n):
            brute = BruteForce(board)
            for cells in itertools.product((BLACK, WHITE), repeat=n):
                check(Position(board, bytes(cells)), brute, np_width=0)
    # ... and the same values as plain Python on wide stars and random trees
    rng = random.Random(5)
    boards = [tree([0] * 120), tree([rng.randrange(max(1, i // 8)) for i in range(1, 300)])]
    for board in boards:
        for _ in range(3):
            p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(board.n)))
            assert tree_sc2(p, np_width=0)[0] == tree_sc2(p, np_width=10**9)[0]


def test_paths_agree_with_the_path_algorithm():
    rng = random.Random(3)
    for _ in range(30):
        n = rng.randint(1, 60)
        text = "".join(rng.choice("xxoo.") for _ in range(n))
        board = tree(list(range(n - 1)))
        assert tree_sc2(Position.from_string(text, board))[0] == path_sc2(text)[0]


def test_stars():
    # every colouring of the stars with up to 8 leaves
    for leaves in range(1, 9):
        board = tree([0] * leaves)
        brute = BruteForce(board)
        for cells in itertools.product((BLACK, WHITE), repeat=leaves + 1):
            check(Position(board, bytes(cells)), brute)
    # Lemma 2 at the centre x: 3 o leaves and 2 x leaves capture it o, x, o, x, o in turn,
    # the last stone is on the centre, white; 3 o leaves and 1 x leaf cannot all come in
    p = Position.from_string("xoooxx", tree([0] * 5))
    assert tree_sc2(p)[0] == 1 and (0, WHITE) in reducible_ends(p)
    assert (0, WHITE) not in reducible_ends(Position.from_string("xooox", tree([0] * 4)))


def test_stones_inducing_a_forest_on_any_board():
    # on a grid the stones may form a tree; the algorithm applies (exhaustive check)
    rng = random.Random(2)
    board = grid(3, 4)
    done = 0
    while done < 25:
        cells = bytes(rng.choice((BLACK, WHITE, EMPTY)) for _ in range(board.n))
        p = Position(board, cells)
        try:
            value, pairs = tree_sc2(p)
        except UnsupportedError:
            continue
        assert replay(p, [Move(a, b) for a, b in pairs], free=True).stones_left == value
        assert value == solve(p, free=True, algorithm="search").stones_left
        done += 1


def test_stones_around_a_cycle_are_refused():
    with pytest.raises(UnsupportedError, match="cycle"):
        tree_sc2(Position.from_string("xoxo", cycle(4)))
    with pytest.raises(UnsupportedError, match="cycle"):
        reducible_ends(Position.from_string("xo/ox"))
    # with a hole in the cycle the stones form a path: fine
    assert tree_sc2(Position.from_string("xoxo.", cycle(5)))[0] == 1


def test_reducible_ends_of_disconnected_or_empty_stones():
    assert reducible_ends(Position.from_string("x.o", path(3))) == []
    assert reducible_ends(Position.from_string("...", path(3))) == []
    assert reducible_ends(Position.from_string(".o.", path(3))) == [(1, WHITE)]
    assert tree_sc2(Position.from_string("...", path(3))) == (0, [])


def test_is_forest():
    assert is_forest(tree([0, 0, 1, 1])) and is_forest(path(7))
    assert not is_forest(cycle(3)) and not is_forest(grid(2, 2))
    assert is_forest(from_networkx(nx.Graph([(0, 1), (2, 3)])))


def test_tree_factory_and_spec():
    t = parse_graph_spec("tree:0,0,1,1")
    assert t.n == 5 and sorted(t.edges()) == [(0, 1), (0, 2), (1, 3), (1, 4)]
    assert t.name == "tree:0,0,1,1"
    assert parse_graph_spec("tree:").n == 1
    with pytest.raises(BoardError, match="parent of tree vertex 2"):
        tree([0, 2])
    with pytest.raises(BoardError, match="bad tree spec"):
        parse_graph_spec("tree:0,a")
    with pytest.raises(BoardError, match="tree:P1,P2"):
        parse_graph_spec("shrub:3")


def test_solve_answers_large_trees_by_the_algorithm():
    rng = random.Random(9)
    n = 2000
    board = tree([rng.randrange(i) for i in range(1, n)])
    p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(n)))
    r = solve(p, free=True)
    assert r.exact and r.stones_left == tree_sc2(p)[0] < n
    assert "1-reducible subtrees" in r.proof
    # small tree boards: the same value as the exhaustive search
    for _ in range(20):
        m = rng.randint(2, 14)
        board = tree([rng.randrange(i) for i in range(1, m)])
        p = Position(board, bytes(rng.choice((BLACK, WHITE, EMPTY)) for _ in range(m)))
        auto, search = solve(p, free=True), solve(p, free=True, algorithm="search")
        assert auto.stones_left == search.stones_left and auto.proof.startswith("polynomial")


def test_cli_tree_spec_and_edge_list(capsys, tmp_path):
    def run_json(*args):
        with pytest.raises(SystemExit) as exc:
            main(list(args) + ["--json"])
        out, err = capsys.readouterr()
        assert exc.value.code == 0, err
        return json.loads(out)

    d = run_json("solitaire", "solve", "xoooxx", "--free", "--graph", "tree:0,0,0,0,0")
    assert d["stones_left"] == 1 and d["exact"] and "tree" in d["proof"]
    f = tmp_path / "t.edges"
    f.write_text("0 1\n1 2\n1 3\n3 4\n")
    d = run_json("solitaire", "solve", "xoxox", "--free", "--graph", str(f))
    assert d["stones_left"] == 2 and "1-reducible subtrees" in d["proof"]
    with pytest.raises(SystemExit) as exc:
        main(["solitaire", "solve", "xo", "--free", "--graph", "tree:1"])
    assert exc.value.code == 2
    assert "parent of tree vertex 1" in capsys.readouterr().err
