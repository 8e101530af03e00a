"""Theorem 6 of Demaine, Demaine, Fleischer (Solitaire Clobber is NP-complete): the
construction from grid graphs reduces to one stone exactly when the graph has a
Hamiltonian circuit, checked on a seeded sample of grid graphs of 1..12 nodes against an
independent Hamiltonian-circuit brute force (a bitmask DP written here) and the exact
solver; witnesses are replayed by the reference rules."""

from __future__ import annotations

import json
import random
from itertools import pairwise

import pytest
from brute_force import BruteForce
from cli_runner import run_cli as run

from clobbermania.errors import BoardError, ClobbermaniaError, NotationError
from clobbermania.solitaire.hardness import (
    check_circuit,
    from_grid_graph,
    hamiltonian_circuit,
    mask_text,
    parse_grid_graph,
    witness_from_circuit,
)
from clobbermania.solitaire.rules import replay
from clobbermania.solitaire.solver import solve
from clobbermania.stones import BLACK, EMPTY, WHITE

# -- independent references -------------------------------------------------------------------


def has_circuit_dp(nodes) -> bool:
    """Hamiltonian circuit by the Held-Karp bitmask DP over node subsets (paths from node 0),
    written from the definition: a cycle through all n >= 3 nodes."""
    nodes = sorted(nodes)
    n = len(nodes)
    if n < 3:
        return False
    index = {u: i for i, u in enumerate(nodes)}
    adj = [0] * n
    for (r, c), i in index.items():
        for m in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if m in index:
                adj[i] |= 1 << index[m]
    # ends[mask]: bitmask of nodes v such that a path from 0 through exactly `mask` ends at v
    ends = [0] * (1 << n)
    ends[1] = 1
    for mask in range(1, 1 << n):
        e = ends[mask]
        if not e or not mask & 1:
            continue
        v = 0
        while e:
            if e & 1:
                free = adj[v] & ~mask
                while free:
                    low = free & -free
                    ends[mask | low] |= low
                    free ^= low
            e >>= 1
            v += 1
    return bool(ends[(1 << n) - 1] & adj[0])


def random_grid_graph(rng: random.Random, n: int, rows: int, cols: int) -> frozenset:
    """A random connected induced subgraph of the rows x cols grid with n nodes, grown one
    random neighbouring square at a time."""
    start = (rng.randrange(rows), rng.randrange(cols))
    nodes = {start}
    while len(nodes) < n:
        frontier = sorted({(r + dr, c + dc) for r, c in nodes
                           for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                           if 0 <= r + dr < rows and 0 <= c + dc < cols} - nodes)
        nodes.add(rng.choice(frontier))
    return frozenset(nodes)


NAMED = [
    "#", "##", "#/#", "###", "#./##", "##/##", "###/###", "###/#.#/###", "####/####/####",
    "###/#../###", "####/#..#/####", "######/######", "#.#/###/#.#", "######",
    "###/.#./.#.", "##./.##/..#", "####/#.../####", "##/##/##/##/##/##", "#../###/..#",
    "###/###/###/###", "##./###/.##", "###/#.#/###/#..", "####/#..#/#..#/####",
    "##.##/#####", "###../#.###/#####",
]


def dense_grid_graph(rng: random.Random, n: int, rows: int, cols: int) -> frozenset | None:
    """n random squares of the rows x cols grid when they are connected, else None: boxes
    little larger than n give graphs with a circuit more often than grown ones do."""
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    nodes = frozenset(rng.sample(squares, n))
    try:
        return parse_grid_graph(nodes)
    except BoardError:
        return None


def sample_graphs(seed: int = 2026, per_size: int = 12, max_nodes: int = 12):
    """The named graphs (trees, 2x2, 2x3, 3x3 minus centre, 3x4, ...); for each size
    1..max_nodes, ``per_size`` random ones grown in boxes 2x2 up to 4x4, 3x5, 2x6 and 1 x n;
    and for each even size, ``per_size`` random connected ones from boxes of n to n + 3
    squares."""
    rng = random.Random(seed)
    seen = set()
    out = []
    for m in NAMED:
        g = parse_grid_graph(m)
        if len(g) <= max_nodes and g not in seen:
            seen.add(g)
            out.append(g)
    boxes = [(2, 2), (2, 3), (3, 3), (2, 4), (3, 4), (4, 4), (3, 5), (2, 6), (2, 5)]
    for n in range(1, max_nodes + 1):
        fits = [(r, c) for r, c in boxes if r * c >= n] + [(1, n)]
        tries = 0
        got = 0
        while got < per_size and tries < 50 * per_size:
            tries += 1
            rows, cols = rng.choice(fits)
            if rng.random() < 0.5:
                rows, cols = cols, rows
            g = parse_grid_graph(random_grid_graph(rng, n, rows, cols))
            if g not in seen:
                seen.add(g)
                out.append(g)
                got += 1
    for n in range(4, max_nodes + 1, 2):
        fits = [(r, c) for r in range(2, 5) for c in range(r, 7) if n <= r * c <= n + 3]
        tries = got = 0
        while got < per_size and tries < 50 * per_size:
            tries += 1
            rows, cols = rng.choice(fits)
            if rng.random() < 0.5:
                rows, cols = cols, rows
            g = dense_grid_graph(rng, n, rows, cols)
            if g is not None and g not in seen:
                seen.add(g)
                out.append(g)
                got += 1
    return out


GRAPHS = sample_graphs()


# -- the theorem --------------------------------------------------------------------------------


def test_sample_covers_every_size_and_both_answers():
    sizes = {len(g) for g in GRAPHS}
    assert sizes == set(range(1, 13))
    answers = {(len(g), has_circuit_dp(g)) for g in GRAPHS}
    for n in (4, 6, 8, 10, 12):
        assert (n, True) in answers and (n, False) in answers, n


def test_dp_reference_knows_small_facts():
    assert has_circuit_dp(parse_grid_graph("##/##"))
    assert not has_circuit_dp(parse_grid_graph("####"))  # a path
    assert has_circuit_dp(parse_grid_graph("###/#.#/###"))
    assert not has_circuit_dp(parse_grid_graph("###/###/###"))  # 9 nodes, bipartite
    assert not has_circuit_dp(parse_grid_graph("####/.##."))  # even, balanced, no circuit
    assert has_circuit_dp(parse_grid_graph("####/####/####"))


def test_theorem_6_on_the_sample():
    """1-reducible (exact solver, black first and white first) iff a Hamiltonian circuit
    (independent DP); the finder agrees with the DP; witnesses replay to one stone."""
    positives = negatives = 0
    most_nodes = 0
    for g in GRAPHS:
        expected = has_circuit_dp(g)
        c = from_grid_graph(g)
        n = len(g)
        assert c.position.stone_count(BLACK) == n + 1 == c.position.stone_count(WHITE)
        assert c.position.board.n <= 64
        circuit = hamiltonian_circuit(g)
        assert (circuit is not None) == expected, mask_text(g)
        for first in (BLACK, WHITE):
            # a small table: these searches take at most a few hundred nodes (296 measured);
            # a node limit, not a clock, so that a loaded machine cannot change the answer
            r = solve(c.position, free=False, first=first, node_limit=20_000, tt_bits=16)
            assert r.exact, mask_text(g)
            most_nodes = max(most_nodes, r.nodes)
            assert (r.stones_left == 1) == expected, (mask_text(g), first, r.stones_left)
            if circuit is not None:
                moves = witness_from_circuit(g, circuit, first=first)
                check = replay(c.position, moves, first=first)
                assert check.valid and check.stones_left == 1, (mask_text(g), check.error)
                assert len(moves) == 2 * n + 1
        positives += expected
        negatives += not expected
    assert positives >= 20 and negatives >= 150
    assert most_nodes <= 1000


def test_small_cases_by_independent_brute_force():
    """For the graphs of up to 4 nodes the rules-only brute force agrees (no solver)."""
    for g in GRAPHS:
        if len(g) > 4:
            continue
        c = from_grid_graph(g)
        bf = BruteForce(c.position.board)
        cells = tuple(c.position.cells)
        for first in (BLACK, WHITE):
            assert (bf.value(cells, first) == 1) == has_circuit_dp(g), mask_text(g)


# -- the construction's shape -------------------------------------------------------------------


def test_parts_are_where_described():
    c = from_grid_graph("###/#.#/###")
    cells = c.position.cells
    board = c.position.board
    assert cells[c.bomb] == WHITE and cells[c.fire] == BLACK
    assert all(cells[v] == WHITE for v in c.fuse) and len(c.fuse) == c.n == 8
    assert sorted(c.node_squares) == sorted(c.graph)
    assert all(cells[v] == BLACK for v in c.node_squares.values())
    # the bomb touches only the anchor node (and the junction); the junction touches R
    anchor = c.node_squares[c.anchor]
    assert anchor in board.neighbors(c.bomb)
    assert c.fuse[-1] in board.neighbors(c.bomb)
    assert c.exit_square == c.node_squares[c.exit] and c.exit_square in board.neighbors(c.fuse[-1])
    # the fire's path is the fuse in burning order
    path = [c.fire, *c.fuse]
    assert all(b in board.neighbors(a) for a, b in pairwise(path))
    # stones: nodes, bomb, fuse, fire and nothing else
    stones = {v for v in range(board.n) if cells[v] != EMPTY}
    assert stones == set(c.node_squares.values()) | {c.bomb, c.fire} | set(c.fuse)
    # node adjacency is grid adjacency
    for u, v in c.node_squares.items():
        for w, x in c.node_squares.items():
            adjacent = abs(u[0] - w[0]) + abs(u[1] - w[1]) == 1
            assert adjacent == (x in board.neighbors(v))


def test_tail_is_an_induced_path_touching_only_the_junction():
    for g in GRAPHS:
        c = from_grid_graph(g)
        board = c.position.board
        tail = [c.fire, *c.fuse[:-1]]
        others = set(c.node_squares.values()) | {c.bomb}
        index = {v: i for i, v in enumerate(tail)}
        for v in tail:
            for w in board.neighbors(v):
                assert w not in others
                if w in index:
                    assert abs(index[w] - index[v]) == 1
        assert c.fuse[-1] in board.neighbors(c.fuse[-2]) if c.n > 1 else True


def test_board_stays_small():
    # 12 nodes fit the exact solver's 64 squares in every sampled shape
    assert max(from_grid_graph(g).position.board.n for g in GRAPHS) <= 64
    assert from_grid_graph("#" * 12).position.board.n <= 64
    assert from_grid_graph("/".join("#" * 12)).position.board.n <= 64


def test_domino_is_transposed_and_not_reducible():
    h = from_grid_graph("##")
    v = from_grid_graph("#/#")
    assert h.transposed and not v.transposed
    assert h.position == v.position
    assert h.exit is None


def test_mask_and_node_inputs_agree():
    a = from_grid_graph("#./##")
    b = from_grid_graph([(10, -3), (11, -3), (11, -2)])
    assert a.position == b.position
    assert mask_text([(10, -3), (11, -3), (11, -2)]) == "#./##"
    assert from_grid_graph("#.\n##").position == a.position


@pytest.mark.parametrize("spec, words", [
    ("#x#", "bad character 'x' at row 1, column 2"),
    ("", "empty"),
    ("../..", "no nodes"),
    ("#./.#", "not connected"),
    ("##/#", "rectangular"),
    ("#//#", "row 2"),
    ([], "no nodes"),
    ([(0, 0.5)], "not a (row, column) pair"),
    ([(0, 0), (0, 2)], "not connected"),
    (17, "not int"),
    ([(0, 0, 1)], "not a (row, column) pair"),
    ([("0", 1)], "not a (row, column) pair"),
])
def test_bad_graphs_are_rejected_in_one_sentence(spec, words):
    with pytest.raises(ClobbermaniaError) as exc:
        from_grid_graph(spec)
    assert words in str(exc.value)
    assert "\n" not in str(exc.value)


def test_bad_circuits_are_rejected():
    good = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert check_circuit("##/##", good) == good
    with pytest.raises(BoardError, match="not adjacent"):
        check_circuit("##/##", [(0, 0), (1, 1), (1, 0), (0, 1)])
    with pytest.raises(BoardError, match="misses"):
        check_circuit("###/###", good)
    with pytest.raises(BoardError, match="more than once"):
        check_circuit("##/##", good + [(0, 0)])
    with pytest.raises(BoardError, match="not a node"):
        check_circuit("##/##", [(0, 0), (1, 0), (1, 1), (0, 2)])
    with pytest.raises(BoardError, match="no Hamiltonian circuit"):
        witness_from_circuit("##", [(0, 0), (0, 1)])
    with pytest.raises(NotationError):
        check_circuit("##/##", [(0, 0), "b", (1, 1), (0, 1)])


def test_witness_accepts_any_rotation_and_direction():
    g = "###/#.#/###"
    c = from_grid_graph(g)
    circuit = hamiltonian_circuit(g)
    for k in range(len(circuit)):
        for cyc in (circuit[k:] + circuit[:k], (circuit[k:] + circuit[:k])[::-1]):
            for first in (BLACK, WHITE):
                r = replay(c.position, witness_from_circuit(g, cyc, first=first), first=first)
                assert r.valid and r.stones_left == 1


def test_circuit_finder_on_larger_graphs():
    assert len(hamiltonian_circuit("########/" * 7 + "########")) == 64
    assert hamiltonian_circuit("#######/" * 6 + "#######") is None  # 49 nodes
    g = "#" * 40
    assert hamiltonian_circuit(g) is None
    big = "/".join(["#" * 20] * 20)
    assert len(hamiltonian_circuit(big)) == 400
    assert check_circuit(big, hamiltonian_circuit(big))


def test_large_graph_witness_replays():
    # far beyond the exact solver: the construction and witness are linear in n
    g = "/".join(["#" * 30] * 20)
    c = from_grid_graph(g)
    circuit = hamiltonian_circuit(g)
    moves = witness_from_circuit(g, circuit, first=BLACK)
    r = replay(c.position, moves, first=BLACK)
    assert r.valid and r.stones_left == 1 and len(moves) == 2 * 600 + 1
    assert c.position.board.n < 4 * 600


# -- the command line ---------------------------------------------------------------------------




def test_cli_json_with_circuit(capsys):
    code, out, err = run(capsys, "solitaire", "hardness", "###/#.#/###", "--json")
    assert code == 0, err
    d = json.loads(out)
    for key in ("configuration", "hamiltonian_circuit", "stones_left", "moves", "seconds"):
        assert key in d
    assert d["stones_left"] == 1
    assert d["hamiltonian_circuit"][0] == [0, 0] and len(d["hamiltonian_circuit"]) == 8
    code, out, err = run(capsys, "solitaire", "verify", d["configuration"], *d["moves"],
                         "--first", d["first"], "--json")
    assert code == 0 and json.loads(out)["stones_left"] == 1


def test_cli_json_without_circuit(capsys):
    code, out, err = run(capsys, "solitaire", "hardness", "####/.##.", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["hamiltonian_circuit"] is None and d["moves"] == []
    assert d["stones_left"] >= 2


def test_cli_beyond_the_solver_gives_null(capsys):
    code, out, err = run(capsys, "solitaire", "hardness", "/".join(["#" * 8] * 8), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["stones_left"] is None and len(d["hamiltonian_circuit"]) == 64
    assert len(d["moves"]) == 129


def test_cli_human_output(capsys):
    code, out, err = run(capsys, "solitaire", "hardness", "##/##")
    assert code == 0, err
    assert "bomb" in out and "fire" in out and "Hamiltonian circuit" in out
    assert "1 stone" in out


def test_cli_bad_mask(capsys):
    code, out, err = run(capsys, "solitaire", "hardness", "#?#")
    assert code == 2 and out == ""
    assert err.startswith("error: bad character '?'") and err.count("\n") == 1


def test_circuit_finder_refutes_cut_vertices_at_once():
    # two 8x8 blocks joined through one corridor row: a cut vertex, so no circuit
    rows = ["#" * 8 + ".." + "#" * 8 for _ in range(8)]
    rows[3] = "#" * 18
    # a limit already over when the search would start: the clock is read every 1,024
    # steps, so None (not UnsupportedError) shows the cut vertex refuted it in < 1,024 steps
    assert hamiltonian_circuit("/".join(rows), time_limit=1e-9) is None
    assert not has_circuit_dp(parse_grid_graph("###/#.#/###/.#./.#."))
    assert hamiltonian_circuit("###/#.#/###/.#./.#.") is None
