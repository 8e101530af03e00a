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
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import numpy as np

from ..graphs import complete, hamming, hypercube
from ..solitaire import replay, solve
from ..solitaire.reducibility import (
    PropertyCheck,
    check_property,
    clear_tables,
    parity_difference,
    prop6_configuration,
    reducibility_table,
    search_endings,
)
from ..stones import BLACK, COLOR_NAMES, WHITE, Board, Position
from . import Claim, register

#: Counterexamples are re-checked by the plain reference search up to this many vertices.
_CONFIRM_LIMIT = 10
#: A property that holds is backed by this many witnesses, replayed by the reference rules.
_WITNESSES = 40


def _replay_witnesses(board: Board, prop: str) -> int:
    """Replay witnesses for seeded random (configuration, v, c) triples the property
    quantifies over; returns how many were replayed (AssertionError if one fails)."""
    table = reducibility_table(board, strong2=prop == "strong2", joker=prop == "strong1-joker")
    rng = random.Random(2014)
    done = 0
    while done < _WITNESSES:
        p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(board.n)))
        v, c = rng.randrange(board.n), rng.choice((BLACK, WHITE))
        if len({x for u, x in enumerate(p.cells) if u != v}) < 2:
            continue  # monochromatic on G - v: not quantified
        if prop == "1-reducible":
            r = replay(p, table.witness_min(p), free=True)
            assert r.valid and r.stones_left == 1, r.error
        elif prop == "strong1-joker":
            final = table.witness_joker(p, v, c).replay(p)
            assert final.stone_count() == 1 and final.cells[v] == c
        else:
            moves = (table.witness_pair if prop == "strong2" else table.witness_singleton)(p, v, c)
            r = replay(p, moves, free=True)
            assert r.valid and r.stones_left <= (2 if prop == "strong2" else 1), r.error
            assert r.final.cells[v] == c
        done += 1
    return done


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
        detail += f"; {_replay_witnesses(board, prop)} random witnesses replayed"
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
    assert parity_difference(sample) == int(diff[-1])
    seconds = time.perf_counter() - t0
    return Claim(f"Prop 6 census: Q{d}, 1-reducible iff difference != 0 mod 3",
                 "0 exceptions", f"{bad} exceptions", bad == 0,
                 f"{len(whites):,} configurations, {int(np.count_nonzero(want == 2)):,} with "
                 f"difference 0 mod 3 (all keep 2 stones), {seconds:.2f} s", seconds)


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
    # Thm 8 / Lemma 7 and Thm 5 constructively: the reducer, every output replayed
    from ..solitaire.hamming import hamming_claims as reducer_claims

    yield from reducer_claims()
