"""The SC2 reducibility checker (Dorbec, Duchene, Gravier notions), timed on Q4.

Prints, for BENCHMARKS.md:
  * for each property (strong1, strong1-joker, strong2, 1-reducible) on the hypercube Q4:
    the verdict, the cases checked (all 2^16 colourings x 16 vertices x 2 colours for the
    strong notions that hold), the seconds including building the tables (median of
    --repeat runs, each from an empty cache; wall clock and CPU time, since the wall clock
    of the parallel kernels suffers when other jobs share the cores), and the memory of
    the tables;
  * the same on the other graphs of `reproduce hamming` (a few milliseconds each);
  * a verification pass: on --samples random (configuration, vertex, colour) triples of
    Q4 the witnesses read back from the tables are replayed by the reference rules.

    python benchmarks/reducibility.py [--repeat 3] [--samples 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numba

from clobbermania.graphs import complete, hamming, hypercube
from clobbermania.solitaire import replay
from clobbermania.solitaire.reducibility import (
    PROPERTIES,
    check_property,
    clear_tables,
    reducibility_table,
)
from clobbermania.stones import BLACK, WHITE, Position


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--samples", type=int, default=200)
    args = ap.parse_args()
    check_property(hypercube(2), "strong1-joker")  # warm-up: load the compiled kernels
    check_property(hypercube(2), "strong2")
    q4 = hypercube(4)
    for prop in PROPERTIES:
        times, cpu = [], []
        for _ in range(args.repeat):
            clear_tables()
            t0, c0 = time.perf_counter(), time.process_time()
            r = check_property(q4, prop)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        t = reducibility_table(q4, strong2=prop == "strong2", joker=prop == "strong1-joker")
        mb = sum(a.nbytes for a in (t.min_stones, t.end1, t.end2, t.endj, t.offset)) / 2 ** 20
        verdict = "holds" if r.holds else f"fails ({r.counterexample.describe()})"
        print(f"Q4 {prop}: {verdict}; {r.cases:,} cases; {statistics.median(times):.2f} s "
              f"wall, {statistics.median(cpu):.2f} s CPU on {numba.get_num_threads()} threads "
              f"(tables {mb:.0f} MiB)")
    clear_tables()
    for name, board in [("K6", complete(6)), ("K3xK3", hamming(3, 3)),
                        ("K2xK4", hamming(2, 4)), ("K3xK2xK2", hamming(3, 2, 2)),
                        ("Q3", hypercube(3))]:
        for prop in ("strong1", "strong2", "strong1-joker"):
            clear_tables()
            t0 = time.perf_counter()
            r = check_property(board, prop)
            print(f"{name} {prop}: {'holds' if r.holds else 'fails'}; {r.cases:,} cases; "
                  f"{time.perf_counter() - t0:.3f} s")
    t0 = time.perf_counter()
    table = reducibility_table(q4, strong2=True, joker=True)
    rng = random.Random(5)
    replayed = 0
    for _ in range(args.samples):
        p = Position(q4, bytes(rng.choice((BLACK, WHITE)) for _ in range(16)))
        v, c = rng.randrange(16), rng.choice((BLACK, WHITE))
        moves = table.witness_pair(p, v, c)
        if moves is not None:
            r = replay(p, moves, free=True)
            assert r.valid and r.stones_left <= 2 and r.final.cells[v] == c
            replayed += 1
        j = table.witness_joker(p, v, c)
        if j is not None:
            final = j.replay(p)
            assert final.stone_count() == 1 and final.cells[v] == c
            replayed += 1
    print(f"Q4 witnesses (strong2 and joker) for {args.samples} random triples: {replayed} "
          f"replayed by the reference rules, all valid ({time.perf_counter() - t0:.1f} s with "
          "the tables)")


if __name__ == "__main__":
    main()
