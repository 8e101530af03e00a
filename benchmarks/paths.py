"""SC2 on paths and cycles: the polynomial algorithm, checked and timed.

Prints, for BENCHMARKS.md:
  * agreement with the exhaustive solver on every two-colour colouring of the path and
    the cycle with n vertices, for n up to --max-n (default 14), and the time it took;
  * seconds for the polynomial algorithm on random paths and cycles of 250, 500, 1000
    vertices (median of --repeat runs).

    python benchmarks/paths.py [--max-n 14] [--repeat 3]
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from clobbermania import Position
from clobbermania.graphs import cycle, path
from clobbermania.solitaire import solve
from clobbermania.solitaire.paths import cycle_sc2, path_sc2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=14)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    path_sc2("xoxo")
    for kind, factory, algo, lo in (("path", path, path_sc2, 1), ("cycle", cycle, cycle_sc2, 3)):
        t0 = time.perf_counter()
        cases = disagreements = 0
        for n in range(lo, args.max_n + 1):
            board = factory(n)
            for cells in itertools.product("xo", repeat=n):
                text = "".join(cells)
                value = algo(text)[0]
                exhaustive = solve(Position.from_string(text, board), free=True,
                                   algorithm="search")
                cases += 1
                disagreements += (not exhaustive.exact) or exhaustive.stones_left != value
        print(f"{kind}s of {lo}..{args.max_n} vertices, every two-colour colouring: "
              f"{cases} cases, {disagreements} disagreements with the exhaustive solver "
              f"({time.perf_counter() - t0:.0f} s)")
    rng = random.Random(1)
    for n in (250, 500, 1000):
        text = "".join(rng.choice("xo") for _ in range(n))
        for kind, algo in (("path", path_sc2), ("cycle", cycle_sc2)):
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                value = algo(text)[0]
                times.append(time.perf_counter() - t0)
            print(f"random {kind} of {n} vertices: {value} stones, "
                  f"{statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
