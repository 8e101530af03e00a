"""The SC2 reducibility checker (Dorbec, Duchene, Gravier notions).

The numba tables are held equal, on every state of small graphs, to the plain reference
search (:func:`search_endings`, reference move generator) and to the independent brute
force of tests/brute_force.py; the paper's claims are checked on the small Hamming
graphs; the parity (delta) argument is checked move by move; every witness is replayed.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from brute_force import BruteForce
from cli_runner import run_cli as run

from clobbermania.errors import BoardError, IllegalMoveError, NotationError, UnsupportedError
from clobbermania.graphs import complete, cycle, hamming, hypercube, path
from clobbermania.reproduce import REGISTRY, run_claims
from clobbermania.solitaire import replay, solve
from clobbermania.solitaire.reducibility import (
    MAX_VERTICES,
    PROPERTIES,
    ReducibilityTable,
    check_property,
    is_1vc_reducible,
    is_k_reducible,
    parity_difference,
    prop6_configuration,
    reachable_singletons,
    reduce_to_vertex,
    reducibility_table,
    sc2_minimum,
    search_endings,
)
from clobbermania.stones import BLACK, EMPTY, WHITE, Board, Position


def random_graph(n: int, p: float, seed: int) -> Board:
    rng = random.Random(seed)
    edges = [(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < p]
    return Board.from_edges(n, edges, name=f"random:{n}:{seed}")


def all_positions(board: Board):
    for cells in itertools.product((EMPTY, BLACK, WHITE), repeat=board.n):
        yield Position(board, bytes(cells))


def full_configurations(board: Board):
    for cells in itertools.product((BLACK, WHITE), repeat=board.n):
        yield Position(board, bytes(cells))


SMALL_BOARDS = [path(4), cycle(5), complete(4), hamming(2, 2),
                Board.from_edges(5, [(0, 1), (0, 2), (0, 3), (0, 4)], name="star:5")]
SMALL_BOARDS += [random_graph(5, 0.5, seed) for seed in range(4)]


# -- the tables against the reference rules ------------------------------------------------

@pytest.mark.parametrize("board", SMALL_BOARDS, ids=lambda b: b.name)
def test_tables_equal_reference_search_on_every_state(board):
    table = ReducibilityTable(board, strong2=True, joker=True)
    brute = BruteForce(board)
    for p in all_positions(board):
        ref = search_endings(p)
        assert table.minimum(p) == ref.minimum == brute.value(p.cells, 0), p.text()
        assert table.singletons(p) == ref.singletons, p.text()
        assert table.pairs(p) == ref.pairs, p.text()
        assert table.joker_singletons(p) == ref.joker_singletons, p.text()


@pytest.mark.parametrize("seed", range(4))
def test_tables_equal_reference_on_random_7_vertex_graphs(seed):
    rng = random.Random(100 + seed)
    board = random_graph(7, rng.uniform(0.3, 0.8), 100 + seed)
    table = ReducibilityTable(board, strong2=True, joker=True)
    brute = BruteForce(board)
    for _ in range(30):
        cells = bytes(rng.choice((EMPTY, BLACK, WHITE, BLACK, WHITE)) for _ in range(7))
        p = Position(board, cells)
        ref = search_endings(p)
        assert table.minimum(p) == ref.minimum == brute.value(cells, 0)
        assert table.singletons(p) == ref.singletons
        assert table.pairs(p) == ref.pairs
        assert table.joker_singletons(p) == ref.joker_singletons


def test_minimum_agrees_with_exact_solver_on_hamming_configurations():
    board = hamming(3, 3)
    rng = random.Random(7)
    for _ in range(15):
        p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(board.n)))
        r = solve(p, free=True)
        assert r.exact and sc2_minimum(p) == r.stones_left


# -- the graph properties: the paper's claims ------------------------------------------------

@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_cliques_strongly_1_reducible(k):
    r = check_property(complete(k), "strong1")
    assert r.holds and r.counterexample is None
    # every configuration not monochromatic on K_k - v, each v and colour
    assert r.cases == 2 * k * 2 * (2 ** (k - 1) - 2)


def test_k2xk3_1_reducible_but_not_strongly():
    board = hamming(2, 3)
    assert check_property(board, "1-reducible").holds
    r = check_property(board, "strong1")
    assert not r.holds
    ce = r.counterexample
    # the configuration is quantified over (not monochromatic on G - v) and the reference
    # search confirms that (v, c) is not a single-stone ending
    rest = [c for u, c in enumerate(ce.position.cells) if u != ce.vertex]
    assert BLACK in rest and WHITE in rest
    assert (ce.vertex, ce.color) not in search_endings(ce.position).singletons
    assert reduce_to_vertex(ce.position, ce.vertex, ce.color) is None


@pytest.mark.parametrize("sizes", [(3, 3), (2, 4), (3, 2, 2)])
def test_small_hamming_graphs_strongly_1_reducible(sizes):
    assert check_property(hamming(*sizes), "strong1").holds


@pytest.mark.parametrize("d", [2, 3])
def test_hypercubes(d):
    board = hypercube(d)
    assert check_property(board, "strong2").holds
    assert check_property(board, "strong1-joker").holds
    r = check_property(board, "strong1")
    assert not r.holds
    assert (r.counterexample.vertex, r.counterexample.color) not in \
        search_endings(r.counterexample.position).singletons
    one = check_property(board, "1-reducible")
    assert not one.holds and one.counterexample.stones_left == 2
    assert parity_difference(one.counterexample.position) % 3 == 0


def test_properties_fail_where_they_should():
    # a path's end vertex cannot receive the last stone from xoox-like configurations
    assert not check_property(path(4), "strong1").holds
    assert not check_property(path(5), "1-reducible").holds
    r = check_property(cycle(5), "1-reducible")
    assert r.holds == all(sc2_minimum(p) <= 1 for p in full_configurations(cycle(5))
                          if len(set(p.cells)) == 2)


@pytest.mark.parametrize("board", [complete(3), path(4), hamming(2, 3), hypercube(2),
                                   random_graph(6, 0.6, 3)], ids=lambda b: b.name)
@pytest.mark.parametrize("prop", PROPERTIES)
def test_check_property_equals_definition_by_reference_search(board, prop):
    """The verdict, the counterexample and the case count, re-derived from the definitions
    with the plain search."""
    holds, cases, first = True, 0, None
    for p in sorted(full_configurations(board),
                    key=lambda q: sum(1 << v for v, c in enumerate(q.cells) if c == WHITE)):
        e = search_endings(p)
        if prop == "1-reducible":
            if len(set(p.cells)) < 2:
                continue
            cases += 1
            if e.minimum > 1:
                holds, first = False, (p.text(), None, None)
                break
            continue
        reach = {"strong1": e.singletons, "strong2": e.pairs,
                 "strong1-joker": e.joker_singletons}[prop]
        for v in range(board.n):
            if len({c for u, c in enumerate(p.cells) if u != v}) < 2:
                continue
            for color in (BLACK, WHITE):
                cases += 1
                if (v, color) not in reach:
                    holds, first = False, (p.text(), v, color)
                    break
            if not holds:
                break
        if not holds:
            break
    r = check_property(board, prop)
    assert r.holds == holds and r.cases == cases
    if not holds:
        ce = r.counterexample
        assert (ce.position.text(), ce.vertex, ce.color) == first


# -- the parity (delta) argument -----------------------------------------------------------------

@pytest.mark.parametrize("board", [hypercube(3), path(5), cycle(6), hamming(2, 2)],
                         ids=lambda b: b.name)
def test_every_move_changes_parity_difference_by_3(board):
    for p in all_positions(board):
        before = parity_difference(p)
        for m in p.moves():
            assert abs(parity_difference(p.play(m)) - before) == 3


@pytest.mark.parametrize("board", [path(3), path(6), cycle(6), hamming(2, 2),
                                   Board.from_edges(7, [(0, 1), (0, 2), (1, 3), (1, 4),
                                                        (2, 5), (2, 6)], name="tree:7")],
                         ids=lambda b: b.name)
def test_no_bipartite_graph_is_strongly_1_reducible(board):
    """The invariant fixes the parity of the last stone: (v, black) and (v, white) are
    never both single-stone endings, so strong1 fails on every bipartite graph with at
    least 3 vertices."""
    table = reducibility_table(board)
    for p in full_configurations(board):
        ends = table.singletons(p)
        assert not any((v, BLACK) in ends and (v, WHITE) in ends for v in range(board.n))
    assert not check_property(board, "strong1").holds


def test_parity_explains_hypercube_failures():
    """On Q3: every single-stone ending respects the invariant; a configuration with both
    colours reaches one stone exactly when its difference is not 0 mod 3 (else 2); and a
    joker flip always repairs it."""
    board = hypercube(3)
    table = reducibility_table(board, joker=True)
    for p in full_configurations(board):
        diff = parity_difference(p)
        for v, c in table.singletons(p):
            end = 1 if c == board.square_colors[v] else -1
            assert (diff - end) % 3 == 0
        if len(set(p.cells)) == 2:
            assert table.minimum(p) == (2 if diff % 3 == 0 else 1)
            assert table.joker_singletons(p)


@pytest.mark.parametrize("d", [2, 3, 4, 5, 6])
def test_prop6_configuration(d):
    p = prop6_configuration(d)
    check = Position(p.board, bytes(p.board.square_colors))
    assert sum(a != b for a, b in zip(p.cells, check.cells, strict=True)) in (1, 2)
    assert parity_difference(p) % 3 == 0
    assert p.stone_count(BLACK) and p.stone_count(WHITE)
    if d <= 4:
        r = solve(p, free=True)  # the exact solver, independent of the tables
        assert r.exact and r.stones_left == 2
    if d <= 3:
        assert sc2_minimum(p) == 2 and not is_k_reducible(p, 1) and is_k_reducible(p, 2)


def test_prop6_configuration_custom_flips_and_errors():
    p = prop6_configuration(3, flipped=[5])
    assert parity_difference(p) % 3 == 0 and sc2_minimum(p) == 2
    p = prop6_configuration(3, flipped=[0, 1, 2, 3, 1])  # duplicates count once: 4 flips
    assert parity_difference(p) % 3 == 0 and sc2_minimum(p) == 2
    with pytest.raises(UnsupportedError):
        prop6_configuration(1)
    with pytest.raises(UnsupportedError):
        prop6_configuration(3, flipped=[0, 1])
    with pytest.raises(NotationError):
        prop6_configuration(3, flipped=[8])


# -- witnesses, replayed by the reference rules -------------------------------------------------

def test_witnesses_replay():
    rng = random.Random(3)
    board = hypercube(3)
    table = reducibility_table(board, strong2=True, joker=True)
    for _ in range(30):
        p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(8)))
        v, c = rng.randrange(8), rng.choice((BLACK, WHITE))
        moves = table.witness_min(p)
        r = replay(p, moves, free=True)
        assert r.valid and r.stones_left == table.minimum(p)
        w = table.witness_singleton(p, v, c)
        assert (w is not None) == ((v, c) in table.singletons(p))
        if w is not None:
            r = replay(p, w, free=True)
            assert r.valid and r.stones_left == 1 and r.final.cells[v] == c
        w = table.witness_pair(p, v, c)
        assert (w is not None) == ((v, c) in table.pairs(p))
        if w is not None:
            r = replay(p, w, free=True)
            assert r.valid and r.stones_left <= 2 and r.final.cells[v] == c
        j = table.witness_joker(p, v, c)
        assert (j is not None) == ((v, c) in table.joker_singletons(p))
        if j is not None:
            final = j.replay(p)
            assert final.stone_count() == 1 and final.cells[v] == c


def test_reduce_to_vertex_on_k3xk3():
    rng = random.Random(11)
    board = hamming(3, 3)
    for _ in range(20):
        p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(9)))
        v, c = rng.randrange(9), rng.choice((BLACK, WHITE))
        moves = reduce_to_vertex(p, v, c)
        assert (moves is not None) == is_1vc_reducible(p, v, c)
        if len({x for u, x in enumerate(p.cells) if u != v}) == 2:
            assert moves is not None  # K3 x K3 is strongly 1-reducible
        if moves is not None:
            r = replay(p, moves, free=True)
            assert r.valid and r.stones_left == 1 and r.final.cells[v] == c
    assert reachable_singletons(Position.from_string("x" * 9, board)) == frozenset()


# -- errors ----------------------------------------------------------------------------------------

def test_errors():
    with pytest.raises(NotationError, match="unknown property"):
        check_property(complete(3), "strong3")
    with pytest.raises(UnsupportedError, match=f"at most {MAX_VERTICES}"):
        check_property(hypercube(5), "strong1")
    with pytest.raises(UnsupportedError):
        search_endings(Position(hypercube(4), bytes([BLACK] * 16)))
    with pytest.raises(NotationError):
        is_1vc_reducible(Position.from_string("xo", path(2)), 2, BLACK)
    with pytest.raises(NotationError):
        reduce_to_vertex(Position.from_string("xo", path(2)), 0, 3)
    with pytest.raises(BoardError):
        ReducibilityTable(path(2)).minimum(Position.from_string("xox", path(3)))
    with pytest.raises(UnsupportedError):
        parity_difference(Position.from_string("xox", complete(3)))


def test_vacuous_and_tiny_graphs():
    r = check_property(complete(1), "strong1")
    assert r.holds and r.cases == 0
    assert check_property(complete(2), "1-reducible").holds
    # K2: G - v is a single vertex, always monochromatic: nothing to check
    assert check_property(complete(2), "strong1").cases == 0


# -- command line and reproduce -----------------------------------------------------------------



def test_cli_check_json_and_text(capsys):
    code, out, err = run(capsys, "solitaire", "check", "strong1", "--graph", "hamming:2,3",
                         "--json")
    assert code == 0, err
    d = json.loads(out)
    assert {"holds", "counterexample", "cases", "seconds", "property", "graph"} <= set(d)
    assert d["holds"] is False and d["property"] == "strong1" and d["graph"] == "hamming:2,3"
    assert set(d["counterexample"]) == {"colouring", "vertex", "color"}
    code, out, _ = run(capsys, "solitaire", "check", "strong1-joker", "--graph", "hypercube:3")
    assert code == 0 and "holds" in out and out.count("\n") == 1
    code, out, _ = run(capsys, "solitaire", "check", "1-reducible", "--graph", "hypercube:2")
    assert code == 0 and "fails" in out and "\u25cb" in out and "\u25cf" in out


def test_cli_check_errors(capsys):
    code, out, err = run(capsys, "solitaire", "check", "strong9", "--graph", "complete:3")
    assert code == 2 and err.startswith("error: unknown property") and not out
    code, _, err = run(capsys, "solitaire", "check", "strong1", "--graph", "hypercube:5")
    assert code == 2 and err.startswith("error:") and "16" in err


def test_reproduce_hamming_registered_and_small_claims_pass():
    assert "hamming" in REGISTRY
    claims = list(itertools.islice(run_claims("hamming"), 19))  # everything before Q4
    assert claims[-1].name.startswith("Prop 6 census: Q3")
    assert all(c.passed for c in claims), [c for c in claims if not c.passed]


# -- witnesses are checked, not asserted ------------------------------------------------------

def test_joker_witness_replay_raises_on_a_bad_witness():
    from clobbermania.solitaire.reducibility import JokerWitness
    from clobbermania.stones import Move

    p = Position.from_string("xxo", path(3))
    assert JokerWitness((), 1, (Move(0, 1), Move(1, 2))).replay(p).text() == "..x"
    with pytest.raises(IllegalMoveError, match="flips vertex 1, which is empty"):
        JokerWitness((Move(1, 2),), 1, ()).replay(p)
    with pytest.raises(IllegalMoveError, match="vertex 3, which is not on this 3-vertex"):
        JokerWitness((), 3, ()).replay(p)
    with pytest.raises(IllegalMoveError, match="before the flip"):
        JokerWitness((Move(0, 1),), None, ()).replay(p)  # x takes x: not a capture
    with pytest.raises(IllegalMoveError, match="after the flip"):
        JokerWitness((), None, (Move(0, 2),)).replay(p)  # 0 and 2 are not adjacent


@pytest.mark.parametrize("prop, method", [("strong1", "witness_singleton"),
                                          ("strong2", "witness_pair"),
                                          ("1-reducible", "witness_min")])
def test_reproduce_hamming_fails_on_a_bad_witness(monkeypatch, prop, method):
    # a table whose witnesses do not replay makes the claim FAIL (no AssertionError, and
    # the same under python -O, since the checks are plain conditions)
    from clobbermania.reproduce import hamming as rh

    board = complete(4) if prop != "strong2" else hypercube(2)
    good = rh._property_claim("good", board, prop, True)
    assert good.status == "pass" and "random witnesses replayed" in good.detail
    monkeypatch.setattr(ReducibilityTable, method, lambda self, p, *args: [])
    bad = rh._property_claim("bad", board, prop, True)
    assert bad.status == "fail" and not bad.passed
    assert "fails the reference replay" in bad.detail


def test_reproduce_hamming_fails_on_a_bad_joker_witness(monkeypatch):
    from clobbermania.reproduce import hamming as rh
    from clobbermania.solitaire.reducibility import JokerWitness

    board = hypercube(2)
    assert rh._property_claim("good", board, "strong1-joker", True).status == "pass"
    # flips a vertex the play has just emptied: an illegal witness, caught as a FAIL
    monkeypatch.setattr(ReducibilityTable, "witness_joker",
                        lambda self, p, v, c: JokerWitness((p.moves()[0],), p.moves()[0].src, ()))
    bad = rh._property_claim("bad", board, "strong1-joker", True)
    assert bad.status == "fail" and "which is empty" in bad.detail
