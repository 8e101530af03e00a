"""Claims of Dorbec, Duchene and Gravier, *Solitaire clobber played on Hamming graphs*,
re-derived by exhaustive search (definitions: :mod:`clobbermania.solitaire.reducibility`).

* Cliques K_3..K_6 are strongly 1-reducible.
* K2 x K3 is 1-reducible (every configuration with both colours reduces to one stone)
  but not strongly 1-reducible; the counterexample found by the tables is confirmed by
  a plain search with the reference rules.
* K3 x K3, K2 x K4 and K3 x K2 x K2 are strongly 1-reducible.
* The hypercubes Q2, Q3, Q4 are strongly 2-reducible and strongly 1-reducible with a
  joker, but not strongly 1-reducible (counterexample confirmed as above for Q2, Q3).
* Prop 6: on Q_d (d = 2, 3, 4) the configuration :func:`prop6_configuration` (parity
  difference 0 mod 3) is not 1-reducible: the exact solver (an independent program)
  finds 2 stones. Beyond the generator, every configuration of Q_d with both colours
  and difference 0 mod 3 is checked in the tables (all keep 2 stones), and every other
  configuration with both colours is 1-reducible, so the delta argument is exactly the
  obstruction on these hypercubes.
* Thm 8 and Thm 5 constructively: :func:`clobbermania.solitaire.hamming.reduce_hamming`
  reduces every configuration of K_3..K_6, K3 x K3 and K2 x K4 (a sample of K3 x K2 x K2)
  to one stone of each colour on each vertex, and every configuration of Q2, Q3 to at
  most two (one exactly when the parity difference is not 0 mod 3), and random colourings
  of K10 x K10, K3^4, K5 x K5 x K4 and Q10; every sequence is replayed by the reference
  rules.

A witness that fails its replay, or a reducer that refuses, makes its claim FAIL (the
checks are plain conditions, not ``assert``, so ``python -O`` runs them too).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import numpy as np

from ..errors import ClobbermaniaError
from ..graphs import complete, hamming, hypercube
from ..solitaire import replay, solve
from ..solitaire.hamming import reduce_hamming
from ..solitaire.reducibility import (
    PropertyCheck,
    check_property,
    clear_tables,
    parity_difference,
    prop6_configuration,
    reducibility_table,
    search_endings,
)
from ..stones import BLACK, COLOR_NAMES, EMPTY, WHITE, Board, Position
from . import Claim, register

#: Counterexamples are re-checked by the plain reference search up to this many vertices.
_CONFIRM_LIMIT = 10
#: A property that holds is backed by this many witnesses, replayed by the reference rules.
_WITNESSES = 40


def _replay_witnesses(board: Board, prop: str) -> tuple[int, str | None]:
    """Replay witnesses for seeded random (configuration, v, c) triples the property
    quantifies over with the reference rules: (how many replayed, the first failure or
    None). A failure is a witness that is missing, illegal or ends elsewhere."""
    table = reducibility_table(board, strong2=prop == "strong2", joker=prop == "strong1-joker")
    rng = random.Random(2014)
    done = 0
    while done < _WITNESSES:
        p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(board.n)))
        v, c = rng.randrange(board.n), rng.choice((BLACK, WHITE))
        if len({x for u, x in enumerate(p.cells) if u != v}) < 2:
            continue  # monochromatic on G - v: not quantified
        case = f"{p.text()}, vertex {v}, {COLOR_NAMES[c]}"
        try:
            if prop == "1-reducible":
                r = replay(p, table.witness_min(p), free=True)
                good, error = r.valid and r.stones_left == 1, r.error
            elif prop == "strong1-joker":
                witness = table.witness_joker(p, v, c)
                if witness is None:
                    return done, f"no joker witness for {case}"
                final = witness.replay(p)
                good, error = final.stone_count() == 1 and final.cells[v] == c, None
            else:
                get = table.witness_pair if prop == "strong2" else table.witness_singleton
                moves = get(p, v, c)
                if moves is None:
                    return done, f"no witness for {case}"
                r = replay(p, moves, free=True)
                good = (r.valid and r.stones_left <= (2 if prop == "strong2" else 1)
                        and r.final.cells[v] == c)
                error = r.error
        except (ClobbermaniaError, AssertionError) as e:  # an illegal joker play, or
            good, error = False, str(e)                  # tables that contradict the rules
        if not good:
            return done, f"the witness for {case} fails the reference replay" + (
                f" ({error})" if error else "")
        done += 1
    return done, None


def _parity_forbids(position: Position, v: int, color: int) -> bool:
    """On a bipartite board: True when the parity invariant (``#even - #odd`` mod 3) rules
    out ending with the single stone ``color`` on ``v``."""
    if not position.board.is_bipartite:
        return False
    end = 1 if color == position.board.square_colors[v] else -1
    return (parity_difference(position) - end) % 3 != 0


def _property_claim(name: str, board: Board, prop: str, expected: bool,
                    table_seconds: float = 0.0) -> Claim:
    r: PropertyCheck = check_property(board, prop)
    detail = f"{r.cases:,} cases, {r.seconds + table_seconds:.2f} s"
    passed = r.holds == expected
    if r.counterexample is not None:
        ce = r.counterexample
        detail = f"counterexample {ce.describe()}; " + detail
        if board.n <= _CONFIRM_LIMIT:
            ends = search_endings(ce.position)
            if ce.vertex is None:
                confirmed = ends.minimum == ce.stones_left
            else:
                confirmed = (ce.vertex, ce.color) not in ends.singletons
            detail += "; reference search " + ("confirms it" if confirmed else "DISAGREES")
            passed = passed and confirmed
        if prop == "strong1" and _parity_forbids(ce.position, ce.vertex, ce.color):
            detail += "; the parity invariant forbids that ending"
    elif board.n >= 3:
        replayed, failure = _replay_witnesses(board, prop)
        if failure is None:
            detail += f"; {replayed} random witnesses replayed"
        else:
            detail = f"{failure}; " + detail
            passed = False
    return Claim(name, expected, r.holds, passed, detail, r.seconds + table_seconds)


def _delta_census(d: int) -> Claim:
    """Every configuration of Q_d with both colours: minimum 2 when the parity difference
    is 0 mod 3, 1 otherwise (vectorized over the 2^(2^d) colourings)."""
    t0 = time.perf_counter()
    board = hypercube(d)
    table = reducibility_table(board)
    n = board.n
    whites = np.arange(1 << n, dtype=np.int64)[1:-1]  # bit v set: white on v
    diff = np.zeros(whites.shape, dtype=np.int64)
    for v, side in enumerate(board.square_colors):
        white = (whites >> v) & 1
        stone = np.where(white == 1, WHITE, BLACK)
        diff += np.where(stone == side, 1, -1)
    want = np.where(diff % 3 == 0, 2, 1)
    start = int(table.offset[(1 << n) - 1])
    found = table.min_stones[start + whites]
    bad = int(np.count_nonzero(found != want))
    # the census's notion of parity must be the package's one: spot-check it
    sample = Position(board, bytes(WHITE if int(whites[-1]) >> v & 1 else BLACK
                                   for v in range(n)))
    same_parity = parity_difference(sample) == int(diff[-1])
    seconds = time.perf_counter() - t0
    detail = (f"{len(whites):,} configurations, {int(np.count_nonzero(want == 2)):,} with "
              f"difference 0 mod 3 (all keep 2 stones), {seconds:.2f} s")
    if not same_parity:
        detail = (f"the census's parity ({int(diff[-1])}) differs from parity_difference "
                  f"({parity_difference(sample)}) on {sample.text()}; " + detail)
    return Claim(f"Prop 6 census: Q{d}, 1-reducible iff difference != 0 mod 3",
                 "0 exceptions", f"{bad} exceptions", bad == 0 and same_parity, detail,
                 seconds)


# -- the constructive reducer (solitaire.hamming.reduce_hamming), every output replayed --

def _every_case(n: int) -> Iterator[tuple[bytes, int, int]]:
    """Every two-colour configuration on n vertices, vertex v with G - v two-coloured,
    and colour."""
    for bits in range(1 << n):
        cells = bytes(BLACK if bits >> i & 1 else WHITE for i in range(n))
        for v in range(n):
            if {c for u, c in enumerate(cells) if u != v} == {BLACK, WHITE}:
                yield cells, v, BLACK
                yield cells, v, WHITE


def _hamming_board(sizes: tuple[int, ...]) -> Board:
    return hypercube(len(sizes)) if all(a == 2 for a in sizes) else hamming(*sizes)


def _reduced(p: Position, v: int, color: int | None):
    """The reducer's sequence for (p, v, color) replayed with the reference rules, or None
    when the reducer refuses."""
    try:
        return replay(p, reduce_hamming(p, v, color), free=True)
    except ClobbermaniaError:
        return None


def _one_stone_everywhere(name: str, sizes: tuple[int, ...], sample: int = 0) -> Claim:
    """Thm 8 constructively: every (colouring, v, c) reduced to one stone c on v."""
    t0 = time.perf_counter()
    board = _hamming_board(sizes)
    cases = list(_every_case(board.n))
    if sample:
        cases = random.Random(2008).sample(cases, sample)
    failed = None
    for cells, v, c in cases:
        p = Position(board, cells)
        r = _reduced(p, v, c)
        if r is None or not (r.valid and r.stones_left == 1 and r.final.cells[v] == c):
            failed = f"{p.text()}, vertex {v}, {COLOR_NAMES[c]}"
            break
    what = f"{len(cases)} random cases" if sample else f"all {len(cases)} cases"
    detail = (f"{what} (colouring, vertex, colour) reduced and replayed"
              if failed is None else f"fails on {failed}")
    return Claim(name, "strongly 1-reducible",
                 "strongly 1-reducible" if failed is None else "counterexample",
                 failed is None, detail, time.perf_counter() - t0)


def _cube_claim(d: int) -> Claim:
    """Thm 5 constructively on Q_d: at most two stones with either colour on v, one
    exactly when the parity difference is not 0 mod 3."""
    t0 = time.perf_counter()
    board = hypercube(d)
    bad = []
    cases = 0
    for cells, v, c in _every_case(1 << d):
        cases += 1
        p = Position(board, cells)
        value = parity_difference(p) % 3
        for want in (c, None):
            r = _reduced(p, v, want)
            ok = r is not None and r.valid and r.stones_left <= 2 and r.final.cells[v] != EMPTY
            if ok and want is None:
                ok = r.stones_left == (1 if value else 2)
            elif ok:
                ok = r.final.cells[v] == want
            if not ok:
                bad.append(p.text())
    return Claim(f"Thm 5: Q{d} reduces to <= 2 stones with either colour on v; one stone "
                 "exactly when (#even - #odd) mod 3 != 0", "holds",
                 "holds" if not bad else bad[0], not bad,
                 f"all {cases} cases (colouring, vertex, colour), replayed",
                 time.perf_counter() - t0)


def _reducer_claims() -> Iterator[Claim]:
    """Thm 8 / Lemma 7 and Thm 5 by the constructive reducer: every sequence replayed by
    the reference rules."""
    for n in range(3, 7):
        yield _one_stone_everywhere(f"Thm 8: K{n} strongly 1-reducible", (n,))
    yield _one_stone_everywhere("Thm 8 base: K3 x K3 strongly 1-reducible", (3, 3))
    yield _one_stone_everywhere("Thm 8 base: K2 x K4 strongly 1-reducible", (2, 4))
    yield _one_stone_everywhere("Thm 8 base: K3 x K2 x K2 strongly 1-reducible", (3, 2, 2),
                                sample=1000)
    for d in (2, 3):
        yield _cube_claim(d)
    rng = random.Random(1)
    for name, sizes in [("K10 x K10", (10, 10)), ("K3^4", (3, 3, 3, 3)),
                        ("K5 x K5 x K4", (5, 5, 4)), ("Q10", (2,) * 10)]:
        t0 = time.perf_counter()
        board = _hamming_board(sizes)
        p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(board.n)))
        cube = name[0] == "Q"
        value = parity_difference(p) % 3 if cube else None
        expected = (1 if value else 2) if cube else 1
        r = _reduced(p, 0, None if cube else WHITE)
        found = "refused" if r is None else r.stones_left
        yield Claim(f"{name}: a random colouring reduced constructively", expected, found,
                    r is not None and r.valid and r.stones_left == expected,
                    "the reducer refused" if r is None else
                    f"{r.moves_played} moves, replayed; "
                    + (f"invariant {value}" if cube else "one white stone on vertex 0"),
                    time.perf_counter() - t0)


@register("hamming")
def hamming_claims() -> Iterator[Claim]:
    for k in range(3, 7):
        yield _property_claim(f"K{k} strongly 1-reducible", complete(k), "strong1", True)
    yield _property_claim("K2xK3 1-reducible", hamming(2, 3), "1-reducible", True)
    yield _property_claim("K2xK3 not strongly 1-reducible", hamming(2, 3), "strong1", False)
    for sizes in ((3, 3), (2, 4), (3, 2, 2)):
        name = "x".join(f"K{a}" for a in sizes)
        yield _property_claim(f"{name} strongly 1-reducible", hamming(*sizes), "strong1", True)
    for d in (2, 3, 4):
        board = hypercube(d)
        # one pass builds every table the three claims read; its time goes to the first
        t0 = time.perf_counter()
        reducibility_table(board, strong2=True, joker=True)
        yield _property_claim(f"Q{d} strongly 2-reducible", board, "strong2", True,
                              time.perf_counter() - t0)
        yield _property_claim(f"Q{d} strongly 1-reducible with a joker", board,
                              "strong1-joker", True)
        yield _property_claim(f"Q{d} not strongly 1-reducible", board, "strong1", False)
        # Prop 6 now, while the tables of Q_d are the cached ones
        p = prop6_configuration(d)
        r = solve(p, free=True)
        colours = "/".join(str(p.stone_count(c)) for c in (BLACK, WHITE))
        yield Claim(f"Prop 6: Q{d} {p.text()} not 1-reducible", 2,
                    r.stones_left if r.exact else f">={r.lower_bound}",
                    r.exact and r.stones_left == 2,
                    f"{COLOR_NAMES[BLACK]}/{COLOR_NAMES[WHITE]} {colours}, difference "
                    f"{parity_difference(p)}; exact solver: {r.proof}", r.seconds)
        yield _delta_census(d)
    clear_tables()  # free Q4's tables (about 0.6 GB) for the next claim group
    yield from _reducer_claims()
