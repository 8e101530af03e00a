"""Figures for the 3-partition hardness puzzle (clobbermania.clickomania.hardness).

Prints, for a few instances: puzzle size, the time to build it, to find a 3-partition,
to build and replay the witness, and the exact Clickomania solver's verdict and time
(median of --repeat runs; the machine is shared, so timings are noisy). Then the check of
the theorem on every m = 2 instance with t <= --t-max: solvable <=> 3-partition.

    .venv/bin/python benchmarks/clickomania_hardness.py [--t-max 16] [--repeat 3]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from clobbermania.clickomania.hardness import (
    find_3partition,
    from_3partition,
    witness_from_partition,
)
from clobbermania.clickomania.rules import replay
from clobbermania.clickomania.solver import solve_clickomania

INSTANCES = [
    (4, 4, 5, 4, 4, 5),
    (4, 4, 4, 4, 4, 6),
    (4, 4, 5, 4, 4, 5, 4, 4, 5),
    (4, 4, 4, 4, 4, 4, 4, 5, 6),
    (7, 8, 9, 7, 9, 8, 8, 7, 9, 8, 8, 8),
]


def timed(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t-max", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--solver-limit", type=float, default=120.0)
    args = ap.parse_args()
    print("instance | m t K | rows blocks | build s | 3-partition s | witness clicks, "
          "build+replay s | exact solver")
    for a in INSTANCES:
        c, t_build = timed(lambda a=a: from_3partition(a), args.repeat)
        p = c.parameters
        tri, t_cert = timed(lambda a=a: find_3partition(a), args.repeat)
        wit = "-"
        if tri is not None:
            def build_and_replay(a=a, tri=tri, board=c.board):
                moves = witness_from_partition(a, tri)
                assert replay(board, moves)[-1].is_cleared
                return moves
            moves, t_w = timed(build_and_replay, args.repeat)
            wit = f"{len(moves)}, {t_w:.3f}"
        r = solve_clickomania(c.board, time_limit=args.solver_limit)
        verdict = ("solvable" if r.solvable else "unsolvable") if r.exact else "undecided"
        print(f"{','.join(map(str, a))} | {p['m']} {p['t']} {p['scale']} | {p['rows']} "
              f"{p['blocks']} | {t_build:.4f} | {t_cert:.4f} ({'yes' if tri else 'no'}) | "
              f"{wit} | {verdict}, {r.nodes:,} nodes, {r.seconds:.2f} s")
    for scale, label in ((None, "K = 2m - 1 (proved)"), (1, "K = 1 (unscaled, not proved)")):
        n = mism = n_no = 0
        t0 = time.perf_counter()
        for t in range(6, args.t_max + 1):
            vals = [v for v in range(1, t) if 4 * v > t and 2 * v < t]
            for combo in itertools.combinations_with_replacement(vals, 6):
                if sum(combo) != 2 * t:
                    continue
                n += 1
                yes = find_3partition(combo) is not None
                n_no += not yes
                r = solve_clickomania(from_3partition(combo, scale).board,
                                      time_limit=args.solver_limit)
                if not r.exact or r.solvable != yes:
                    mism += 1
                    print("MISMATCH or undecided:", combo)
        print(f"{label}, m = 2, t <= {args.t_max}: {n} instances ({n_no} no-instances), "
              f"{mism} mismatches ({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
