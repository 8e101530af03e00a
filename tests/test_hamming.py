"""The constructive SC2 reducer on Hamming graphs and hypercubes (Dorbec, Duchêne, Gravier).

Every move sequence is replayed by the reference rules. Facts come from the paper (strong
1-reducibility of cliques and Hamming graphs other than hypercubes and K2 x K3; the mod-3
invariant on bipartite graphs) and from an independent brute force written here from the
rules alone.
"""

import itertools
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clobbermania.errors import UnsupportedError
from clobbermania.graphs import complete, grid_graph, hamming, hypercube, path
from clobbermania.solitaire import hamming as H
from clobbermania.solitaire import replay
from clobbermania.solitaire.hamming import reduce_hamming
from clobbermania.stones import BLACK, EMPTY, WHITE, Board, Position


def two_coloured_without(cells, v):
    return {c for u, c in enumerate(cells) if u != v} == {BLACK, WHITE}


def check_one(board, cells, to, color):
    p = Position(board, bytes(cells))
    r = replay(p, reduce_hamming(p, to, color), free=True)
    assert r.valid, r.error
    assert r.stones_left == 1 and r.final.cells[to] == color, (p.text(), to, color)


def every_case(board):
    """Every two-colour configuration, vertex v with G - v two-coloured, and colour."""
    n = board.n
    for bits in range(1 << n):
        cells = [BLACK if bits >> i & 1 else WHITE for i in range(n)]
        for v in range(n):
            if two_coloured_without(cells, v):
                for c in (BLACK, WHITE):
                    yield cells, v, c


class Outcomes:
    """Independent brute force: every position with at most two stones reachable in SC2
    (written from the rules, memoized on the cells)."""

    def __init__(self, board: Board):
        self.nbrs = [board.neighbors(v) for v in range(board.n)]

        @cache
        def reach(cells):
            out = set()
            if sum(1 for c in cells if c != EMPTY) <= 2:
                out.add(cells)
            for v, c in enumerate(cells):
                if c == EMPTY:
                    continue
                for u in self.nbrs[v]:
                    if cells[u] == 3 - c:
                        nxt = list(cells)
                        nxt[u], nxt[v] = c, EMPTY
                        out |= reach(tuple(nxt))
            return frozenset(out)

        self.reach = reach


# -- cliques and the base graphs: every case -------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_cliques_every_case(n):
    board = complete(n)
    cases = list(every_case(board))
    assert cases
    for cells, v, c in cases:
        check_one(board, cells, v, c)


@pytest.mark.parametrize("sizes", [(3, 3), (2, 4)])
def test_base_graphs_every_case(sizes):
    """K3 x K3 (512 colourings) and K2 x K4: strongly 1-reducible (Dorbec et al.)."""
    board = hamming(*sizes)
    count = 0
    for cells, v, c in every_case(board):
        check_one(board, cells, v, c)
        count += 1
    assert count == {(3, 3): 9144, (2, 4): 4032}[sizes]


def test_chains_alone_on_k3xk3(monkeypatch):
    """With the exact search switched off, the chains and cliques alone finish every case
    of K3 x K3 (sampled) and every near-monochromatic case of K2 x K4."""
    monkeypatch.setattr(H, "EXACT_VERTICES", 0)
    rng = random.Random(3)
    cases = list(every_case(hamming(3, 3)))
    for cells, v, c in rng.sample(cases, 1500):
        check_one(hamming(3, 3), cells, v, c)
    board = hamming(2, 4)
    for minority in itertools.chain.from_iterable(
            itertools.combinations(range(8), k) for k in (1, 2)):
        for a in (BLACK, WHITE):
            cells = [a] * 8
            for u in minority:
                cells[u] = 3 - a
            for v in range(8):
                if two_coloured_without(cells, v):
                    for c in (BLACK, WHITE):
                        check_one(board, cells, v, c)


def test_k3xk2xk2_sample():
    """K3 x K2 x K2 (12 vertices, a base graph of the paper): a sample of its 98208 cases
    (benchmarks/hamming.py --verify runs them all)."""
    board = hamming(3, 2, 2)
    rng = random.Random(5)
    done = 0
    while done < 600:
        cells = [rng.choice((BLACK, WHITE)) for _ in range(12)]
        v = rng.randrange(12)
        if two_coloured_without(cells, v):
            check_one(board, cells, v, rng.choice((BLACK, WHITE)))
            done += 1


def test_k2xk3_matches_brute_force():
    """K2 x K3 is not strongly 1-reducible; the reducer succeeds exactly on the cases the
    brute force can reach, and refuses the others with UnsupportedError."""
    board = hamming(2, 3)
    brute = Outcomes(board)
    refused = 0
    for cells, v, c in every_case(board):
        finals = brute.reach(tuple(cells))
        want = tuple(c if u == v else EMPTY for u in range(6))
        p = Position(board, bytes(cells))
        if want in finals:
            check_one(board, cells, v, c)
        else:
            refused += 1
            with pytest.raises(UnsupportedError, match="K2 x K3"):
                reduce_hamming(p, v, c)
    assert refused > 0  # the paper: K2 x K3 is not strongly 1-reducible


# -- bigger Hamming graphs: random and near-monochromatic ----------------------------------

BIG = [(3, 3, 3), (4, 3, 2), (5, 2), (7, 2), (4, 2, 2), (3, 3, 2), (3, 2, 2, 2), (4, 4)]


@st.composite
def configurations(draw):
    sizes = draw(st.sampled_from(BIG))
    n = 1
    for a in sizes:
        n *= a
    if draw(st.booleans()):
        cells = draw(st.lists(st.sampled_from((BLACK, WHITE)), min_size=n, max_size=n))
    else:  # near-monochromatic: the hard cases of the induction
        a = draw(st.sampled_from((BLACK, WHITE)))
        minority = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
        cells = [a] * n
        for u in minority:
            cells[u] = 3 - a
    v = draw(st.integers(0, n - 1))
    c = draw(st.sampled_from((BLACK, WHITE)))
    return sizes, cells, v, c


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configurations())
def test_bigger_hamming_graphs(case):
    sizes, cells, v, c = case
    board = hamming(*sizes)
    if two_coloured_without(cells, v):
        check_one(board, cells, v, c)
    else:
        with pytest.raises(UnsupportedError, match="monochromatic"):
            reduce_hamming(Position(board, bytes(cells)), v, c)


@pytest.mark.parametrize("sizes", [(3, 2, 2, 2), (5, 2, 2), (4, 3, 2)])
def test_single_minority_stone_every_place(sizes):
    """All a except one b, every b position, target and colour: the configurations where
    every copy but the target's is one-coloured (opening captures, holes)."""
    board = hamming(*sizes)
    n = board.n
    rng = random.Random(sum(sizes))
    for p in range(n):
        cells = [WHITE] * n
        cells[p] = BLACK
        for v in rng.sample(range(n), 6):
            if two_coloured_without(cells, v):
                for c in (BLACK, WHITE):
                    check_one(board, cells, v, c)


@pytest.mark.parametrize("sizes", [(3, 3, 3), (4, 3, 2), (3, 2, 2, 2), (5, 2, 2)])
def test_structured_configurations(sizes):
    """Colourings constant on the copies of a coordinate, or on everything but one clique,
    or by digit sums: the cases where chains cannot start in a two-coloured copy."""
    board = hamming(*sizes)
    n = board.n
    strides = H._strides(sizes)
    digits = [H._digits(v, sizes, strides) for v in range(n)]
    rng = random.Random(len(sizes))
    patterns = []
    for r in range(len(sizes)):
        patterns.append([1 + d[r] % 2 for d in digits])
        patterns.append([1 + (d[r] == 0) for d in digits])
    patterns.append([1 + sum(d) % 2 for d in digits])
    patterns.append([1 + (sum(d) % 3 == 0) for d in digits])
    t = rng.randrange(n)
    # the clique along coordinate 0 through t white (t too), everything else black
    patterns.append([1 + (d[1:] == digits[t][1:]) for d in digits])
    for cells in patterns:
        for v in rng.sample(range(n), 5):
            if two_coloured_without(cells, v):
                for c in (BLACK, WHITE):
                    check_one(board, cells, v, c)


def test_benchmark_sizes_once():
    rng = random.Random(0)
    for sizes in [(10, 10), (3, 3, 3, 3), (5, 5, 4)]:
        board = hamming(*sizes)
        cells = [rng.choice((BLACK, WHITE)) for _ in range(board.n)]
        check_one(board, cells, board.n - 1, WHITE)


def test_size_one_factors_and_defaults():
    board = hamming(3, 1, 3)
    p = Position.from_string("xoxooxxxo", board)
    r = replay(p, reduce_hamming(p), free=True)
    assert r.valid and r.stones_left == 1 and r.final.cells[0] == BLACK
    assert reduce_hamming(Position.from_string("x", hamming(1))) == []


# -- hypercubes ------------------------------------------------------------------------------

def parity_value(cells):
    return sum(1 if (c == BLACK) == (bin(v).count("1") % 2 == 0) else -1
               for v, c in enumerate(cells)) % 3


@pytest.mark.parametrize("d", [1, 2, 3])
def test_small_cubes_every_case_against_brute_force(d):
    """Q1..Q3, every colouring, vertex and requested colour (or none): the reducer leaves
    one stone exactly when the brute force can, else two with the requested stone on v,
    and refuses only when the brute force finds nothing."""
    board = hypercube(d)
    n = board.n
    brute = Outcomes(board)
    for bits in range(1, (1 << n) - 1):
        cells = [BLACK if bits >> i & 1 else WHITE for i in range(n)]
        finals = brute.reach(tuple(cells))
        for v in range(n):
            for c in (None, BLACK, WHITE):
                ok = [f for f in finals if f[v] != EMPTY and (c is None or f[v] == c)]
                best = min((sum(1 for x in f if x) for f in ok), default=None)
                p = Position(board, bytes(cells))
                if best is None:
                    with pytest.raises(UnsupportedError):
                        reduce_hamming(p, v, c)
                    continue
                r = replay(p, reduce_hamming(p, v, c), free=True)
                assert r.valid and r.stones_left == best
                assert r.final.cells[v] != EMPTY and (c is None or r.final.cells[v] == c)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 7), st.randoms(use_true_random=False), st.booleans())
def test_cubes_two_stones(d, rng, near):
    board = hypercube(d)
    n = board.n
    if near:
        cells = [WHITE] * n
        for u in rng.sample(range(n), rng.randint(1, 3)):
            cells[u] = BLACK
    else:
        cells = [rng.choice((BLACK, WHITE)) for _ in range(n)]
    v = rng.randrange(n)
    c = rng.choice((None, BLACK, WHITE))
    p = Position(board, bytes(cells))
    if not two_coloured_without(cells, v):
        with pytest.raises(UnsupportedError, match="monochromatic"):
            reduce_hamming(p, v, c)
        return
    r = replay(p, reduce_hamming(p, v, c), free=True)
    assert r.valid and r.stones_left <= 2
    assert r.final.cells[v] != EMPTY and (c is None or r.final.cells[v] == c)
    if parity_value(cells) == 0:  # the invariant forbids one stone
        assert r.stones_left == 2
    elif c is None:
        # the lone stone's colour on v is fixed by the invariant; we reach it
        assert r.stones_left == 1


@pytest.mark.parametrize("d", [4, 5, 6, 8])
def test_cube_checkerboards(d):
    """The proper 2-colouring of Q_d: every stone is "even", so entries by flips alone
    would make the running invariant cycle through 0 (the hole entries are needed)."""
    board = hypercube(d)
    n = board.n
    cells = [BLACK if bin(v).count("1") % 2 == 0 else WHITE for v in range(n)]
    value = parity_value(cells)
    assert value == (n % 3)
    for v in (0, 1, n - 1, n // 3):
        for c in (None, BLACK, WHITE):
            p = Position(board, bytes(cells))
            r = replay(p, reduce_hamming(p, v, c), free=True)
            assert r.valid and r.stones_left <= 2 and r.final.cells[v] != EMPTY
            # a lone stone must have the parity value of the whole configuration
            lone = BLACK if (value == 1) == (bin(v).count("1") % 2 == 0) else WHITE
            if c in (None, lone):
                assert r.stones_left == 1 and r.final.cells[v] == lone
            else:
                assert r.stones_left == 2 and r.final.cells[v] == c


def test_q10_once():
    rng = random.Random(1)
    board = hypercube(10)
    cells = [rng.choice((BLACK, WHITE)) for _ in range(board.n)]
    p = Position(board, bytes(cells))
    r = replay(p, reduce_hamming(p), free=True)
    assert r.valid and r.stones_left == (2 if parity_value(cells) == 0 else 1)


# -- internals -----------------------------------------------------------------------------

def test_chain_positions_against_brute_force():
    """The linear-time choice of chain positions agrees with trying every sequence."""
    rng = random.Random(7)

    def ok(conf, flip, s):
        c = list(conf)
        if flip is not None:
            c[flip] = 3 - c[flip]
        return {x for i, x in enumerate(c) if i != s} - {EMPTY} == {BLACK, WHITE}

    for _ in range(400):
        size = rng.choice((3, 4, 5))
        pieces = rng.choice((2, 3))
        configs = []
        for _ in range(pieces):
            a = rng.choice((BLACK, WHITE))
            conf = [a if rng.random() < 0.7 else 3 - a for _ in range(size)]
            if rng.random() < 0.2:
                conf[rng.randrange(size)] = EMPTY
            configs.append(conf)
        t = rng.randrange(size)
        if configs[-1][t] == EMPTY:
            continue
        feasible = False
        for outs in itertools.product(range(size), repeat=pieces - 1):
            seq = list(outs) + [t]
            good = all(configs[m][seq[m]] != EMPTY for m in range(pieces))
            good = good and all(configs[m + 1][seq[m]] != EMPTY for m in range(pieces - 1))
            good = good and ok(configs[0], None, seq[0])
            good = good and all(ok(configs[m], seq[m - 1], seq[m]) for m in range(1, pieces))
            if good:
                feasible = True
                break
        got = H._chain_positions(configs, t)
        assert (got is not None) == feasible
        if got is not None:
            assert got[-1] == t and ok(configs[0], None, got[0])
            assert all(ok(configs[m], got[m - 1], got[m]) for m in range(1, pieces))


def test_gray_and_cube_paths_are_hamiltonian():
    for sizes in [(3,), (2, 3), (3, 3, 2), (4, 2, 3)]:
        g = H._gray(sizes)
        assert len(set(g)) == len(g) == len(list(itertools.product(*map(range, sizes))))
        assert all(sum(x != y for x, y in zip(a, b, strict=True)) == 1
                   for a, b in itertools.pairwise(g))
    for k in range(1, 6):
        for u in range(1 << k):
            for v in range(1 << k):
                if (bin(u ^ v).count("1")) % 2 == 1:
                    p = H._cube_path(k, u, v)
                    assert p[0] == u and p[-1] == v and sorted(p) == list(range(1 << k))
                    assert all(bin(a ^ b).count("1") == 1 for a, b in itertools.pairwise(p))


# -- errors ----------------------------------------------------------------------------------

def test_errors():
    with pytest.raises(UnsupportedError, match="not a Hamming graph"):
        reduce_hamming(Position.from_string("xoxo", path(4)))
    with pytest.raises(UnsupportedError, match="not a Hamming graph"):
        reduce_hamming(Position.from_string("xoxo", grid_graph(2, 2)))
    with pytest.raises(UnsupportedError, match="every vertex"):
        reduce_hamming(Position.from_string("xo.xoxoxo", hamming(3, 3)))
    with pytest.raises(UnsupportedError, match="monochromatic on G - 0"):
        reduce_hamming(Position.from_string("oxxxxxxxx", hamming(3, 3)), to=0)
    with pytest.raises(UnsupportedError, match="not on this"):
        reduce_hamming(Position.from_string("oxxxxxxxo", hamming(3, 3)), to=9)
    # explicit sizes must match the board's edges
    cyc = Board.from_edges(4, [(0, 1), (1, 2), (2, 3), (3, 0)], name="c4")
    with pytest.raises(UnsupportedError, match="not numbered like"):
        reduce_hamming(Position.from_string("xoxo", cyc), sizes=(2, 2))
    ok = Board.from_edges(4, hypercube(2).edges(), name="q")
    r = reduce_hamming(Position.from_string("xoox", ok), sizes=(2, 2), to=0)
    assert replay(Position.from_string("xoox", ok), r, free=True).valid


# -- `reproduce hamming`: the reducer's claims (in reproduce/, not in the library) -----------

def test_reducer_claims_live_in_reproduce_and_fail_honestly(monkeypatch):
    from clobbermania.reproduce import hamming as rh

    assert not hasattr(H, "hamming_claims")  # one definition: reproduce.hamming_claims
    good = rh._one_stone_everywhere("K3", (3,))
    assert good.status == "pass" and "all 24 cases" in good.detail  # 3 vertices x 4 colourings x 2
    assert rh._cube_claim(2).status == "pass"
    # a reducer whose output does not replay to one stone, or that refuses: FAIL, no traceback
    monkeypatch.setattr(rh, "reduce_hamming", lambda p, v, c: [])
    bad = rh._one_stone_everywhere("K3", (3,))
    assert bad.status == "fail" and bad.detail.startswith("fails on ")
    assert rh._cube_claim(2).status == "fail"

    def refuse(p, v, c):
        raise UnsupportedError("refused")

    monkeypatch.setattr(rh, "reduce_hamming", refuse)
    assert rh._one_stone_everywhere("K3", (3,)).status == "fail"
