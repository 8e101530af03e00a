"""Theorem 6 (DDF): the grid-graph construction, checked exhaustively and timed.

Prints, for BENCHMARKS.md:
  * for every grid graph (connected induced subgraph of the grid, up to translation) with
    1..--max-n nodes (default 9): whether the exact solver finds the construction
    1-reducible (black first and white first) exactly when the graph has a Hamiltonian
    circuit (the bitmask DP of tests/test_hardness.py), the count of disagreements, and
    the solver's time per configuration;
  * the same on the seeded sample of the unit test (up to 12 nodes) and on random grid
    graphs of 13..--max-random nodes whose board still fits the solver's 64 squares;
  * seconds for construction + circuit search + witness + reference replay on k x k grids
    (linear in n apart from the search).

    python benchmarks/hardness.py [--max-n 9] [--max-random 16]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from test_hardness import GRAPHS, has_circuit_dp, random_grid_graph  # noqa: E402

from clobbermania.solitaire.hardness import (  # noqa: E402
    from_grid_graph,
    hamiltonian_circuit,
    mask_text,
    parse_grid_graph,
    witness_from_circuit,
)
from clobbermania.solitaire.rules import replay  # noqa: E402
from clobbermania.solitaire.solver import MAX_SQUARES, solve  # noqa: E402
from clobbermania.stones import BLACK, WHITE  # noqa: E402


def polyominoes(max_n: int):
    """Every connected set of 1..max_n grid squares, up to translation, by size."""
    level = {frozenset({(0, 0)})}
    for n in range(1, max_n + 1):
        yield n, sorted(level, key=sorted)
        nxt = set()
        for g in level:
            for r, c in g:
                for m in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if m not in g:
                        h = g | {m}
                        r0 = min(x for x, _ in h)
                        c0 = min(y for _, y in h)
                        nxt.add(frozenset((x - r0, y - c0) for x, y in h))
        level = nxt


def check(graphs, label: str) -> None:
    t0 = time.perf_counter()
    cases = circuits = disagreements = skipped = 0
    times = []
    for g in graphs:
        c = from_grid_graph(g)
        if c.position.board.n > MAX_SQUARES:
            skipped += 1
            continue
        expected = has_circuit_dp(g)
        found = hamiltonian_circuit(g)
        bad = (found is not None) != expected
        for first in (BLACK, WHITE):
            t1 = time.perf_counter()
            r = solve(c.position, free=False, first=first, time_limit=120, tt_bits=18)
            times.append(time.perf_counter() - t1)
            bad |= (not r.exact) or (r.stones_left == 1) != expected
            if found is not None:
                w = replay(c.position, witness_from_circuit(g, found, first=first), first=first)
                bad |= not (w.valid and w.stones_left == 1)
        if bad:
            print(f"  DISAGREEMENT on {mask_text(g)}")
        cases += 1
        circuits += expected
        disagreements += bad
    times.sort()
    extra = f", {skipped} skipped (board over {MAX_SQUARES} squares)" if skipped else ""
    print(f"{label}: {cases} graphs ({circuits} with a circuit), {disagreements} "
          f"disagreements{extra}; solver per configuration: median "
          f"{times[len(times) // 2] * 1e3:.1f} ms, max {times[-1] * 1e3:.0f} ms; "
          f"total {time.perf_counter() - t0:.1f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=9)
    ap.add_argument("--max-random", type=int, default=16)
    ap.add_argument("--per-size", type=int, default=40)
    args = ap.parse_args()
    solve(from_grid_graph("##/##").position)  # load the compiled kernels first
    for n, graphs in polyominoes(args.max_n):
        check(graphs, f"every grid graph with {n} nodes")
    check(GRAPHS, "the unit test's seeded sample (1..12 nodes)")
    rng = random.Random(7)
    for n in range(13, args.max_random + 1):
        graphs = set()
        for _ in range(args.per_size):
            rows, cols = rng.choice([(r, c) for r, c in ((4, 4), (3, 5), (4, 5), (3, 6), (2, 8))
                                     if r * c >= n])
            graphs.add(parse_grid_graph(random_grid_graph(rng, n, rows, cols)))
        for rows, cols in ((4, 4), (2, 8), (3, 5), (4, 5)):
            if rows * cols >= n and n % 2 == 0:
                # dense graphs (a box minus a few squares) more often have a circuit
                for _ in range(args.per_size // 4):
                    sq = [(r, c) for r in range(rows) for c in range(cols)]
                    try:
                        graphs.add(parse_grid_graph(rng.sample(sq, n)))
                    except Exception:  # disconnected sample: skip it
                        pass
        check(sorted(graphs, key=sorted), f"random grid graphs with {n} nodes")
    for k in (10, 20, 40, 80):
        mask = "/".join(["#" * k] * k)
        t0 = time.perf_counter()
        c = from_grid_graph(mask)
        t1 = time.perf_counter()
        circuit = hamiltonian_circuit(mask)
        t2 = time.perf_counter()
        moves = witness_from_circuit(mask, circuit, first=BLACK)
        r = replay(c.position, moves, first=BLACK)
        t3 = time.perf_counter()
        assert r.valid and r.stones_left == 1
        print(f"{k}x{k} grid ({k * k} nodes, board {c.position.board.rows}x"
              f"{c.position.board.cols}): construction {t1 - t0:.3f} s, circuit search "
              f"{t2 - t1:.3f} s, witness + replay {t3 - t2:.3f} s ({len(moves)} moves, "
              f"1 stone left)", flush=True)


if __name__ == "__main__":
    main()
