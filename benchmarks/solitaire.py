"""Headline figures of the Solitaire Clobber solver (issue: Foundation).

Prints, for BENCHMARKS.md:
  * seconds to solve the 6x6 checkerboard exactly, black first and white first;
  * median and max seconds over 20 seeded random 5x5 two-colour fillings, each proved
    exact (first colour chosen by the solver, and black first);
  * seconds to prove the 1-D bound for A_n (theorems off) for n = 30 and beyond;
  * the 7x7 and 8x8 checkerboards (beyond the targets);
  * search nodes per second on a hard search (a seeded random 7x7 board with holes, 5 s).
Each time is the median of --repeat runs (time.perf_counter), after a warm-up that
compiles the numba kernels. No peer program solves Solitaire Clobber (OpenSpiel, pycgt
and CGSuite have no solitaire variant), so there is no side-by-side column.

    python benchmarks/solitaire.py [--repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from clobbermania import BLACK, WHITE, Board, Position
from clobbermania.solitaire import solve
from clobbermania.solitaire.theory import one_d_value


def timed(position: Position, repeat: int, **kw):
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = solve(position, **kw)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="fewer cases (smoke run)")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} "
          f"{platform.python_version()}, {platform.system()}")
    solve(Position.from_string("xoxo/oxox"))  # compile / load the kernels

    print("\n6x6 checkerboard (target <= 5 s)")
    for first in (BLACK, WHITE):
        sec, r = timed(Position.checkerboard(6, 6), args.repeat, first=first)
        print(f"  {'black' if first == BLACK else 'white'} first: {r.stones_left} stones, "
              f"exact={r.exact}, {r.nodes} nodes, {sec:.3f} s")

    count = 5 if args.quick else 20
    print(f"\n{count} seeded random 5x5 two-colour fillings (target median <= 2 s, max <= 60 s)")
    for label, first in (("solver's choice of first colour", None), ("black first", BLACK)):
        rng = random.Random(2026)
        times, exact, values = [], 0, []
        for _ in range(count):
            cells = bytes(rng.choice((1, 2)) for _ in range(25))
            sec, r = timed(Position(Board.grid(5, 5), cells), args.repeat, first=first)
            times.append(sec)
            exact += r.exact
            values.append(r.stones_left)
        print(f"  {label}: median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
              f"{exact}/{count} proved exact; values {values}")

    print("\n1-D bound proved by search, theorems off (target n = 30 <= 60 s)")
    for n in ((30,) if args.quick else (30, 40, 50, 64)):
        row = Position.from_string(("xo" * n)[:n])
        for free in (False, True):
            sec, r = timed(row, args.repeat, first=BLACK, free=free, use_theorems=False,
                           time_limit=120)
            ok = r.exact and r.stones_left == one_d_value(n)
            print(f"  A_{n} {'SC2' if free else 'SC '}: {r.stones_left} stones (formula "
                  f"{one_d_value(n)}), proved={ok}, {r.nodes} nodes, {sec:.3f} s")

    print("\nlarger checkerboards (Theorem 5 values: 7x7 -> 1, 8x8 -> 1)")
    for rows, cols in ((7, 7), (8, 8)):
        for first in (BLACK, WHITE):
            sec, r = timed(Position.checkerboard(rows, cols), args.repeat, first=first,
                           time_limit=60)
            print(f"  {rows}x{cols} {'black' if first == BLACK else 'white'} first: "
                  f"{r.stones_left} stones, exact={r.exact}, {r.nodes} nodes, {sec:.3f} s")

    print("\nsearch speed (seeded random 7x7 board with holes, black first, 5 s budget)")
    rng = random.Random(11)
    boards = [bytes(rng.choice((0, 1, 1, 2, 2)) for _ in range(49)) for _ in range(4)]
    hard = Position(Board.grid(7, 7), boards[3])
    t0 = time.perf_counter()
    r = solve(hard, first=BLACK, time_limit=5)
    sec = time.perf_counter() - t0
    print(f"  {hard.text()}: {r.stats['search_nodes'] / sec:,.0f} search nodes/s "
          f"(+{r.stats['group_nodes']:,} group nodes); bounds {r.lower_bound}..{r.stones_left} "
          f"(exact={r.exact})")

if __name__ == "__main__":
    main()
