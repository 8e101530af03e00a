"""Figures of issue 3: the constructions at scale, every output replayed.

    python benchmarks/constructions.py            # all three parts
    python benchmarks/constructions.py --quick    # smaller boards, one repeat
    python benchmarks/constructions.py --random 300   # more random sizes

1. ``reduce_checkerboard`` on n x n checkerboards (250, 500, 1000; odd sides too), both
   first colours, construction + reference replay, median of ``--repeat`` runs, and the
   time per square (linear growth means a flat column).
2. The Hamming reducer on random colourings of K10 x K10, K3^4, K5 x K5 x K4 and Q10.
   Then random sizes up to 300 x 300 (``--random``), every one replayed to the optimum.
3. The strong-reducibility checker on Q4 (all 2^16 colourings x 16 vertices x 2 colours).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from clobbermania.graphs import hamming, hypercube
from clobbermania.solitaire import replay
from clobbermania.solitaire.checkerboard import optimum_stones, reduce_checkerboard
from clobbermania.solitaire.hamming import reduce_hamming
from clobbermania.solitaire.reducibility import check_property, clear_tables
from clobbermania.stones import BLACK, WHITE, Position


def checkerboards(sides: list[int], repeat: int) -> None:
    print("## reduce_checkerboard + reference replay (median of", repeat, "runs)")
    print(f"{'board':>11} {'first':>6} {'moves':>9} {'left':>5} {'reduce s':>9} "
          f"{'replay s':>9} {'total s':>8} {'us/square':>10}")
    reduce_checkerboard(4, 4)  # load the gadget table
    for n in sides:
        position = Position.checkerboard(n, n)
        for first in (BLACK, WHITE):
            build, check, left, count = [], [], None, 0
            for _ in range(repeat):
                t0 = time.perf_counter()
                moves = reduce_checkerboard(n, n, first)
                t1 = time.perf_counter()
                result = replay(position, moves, first=first)
                t2 = time.perf_counter()
                assert result.valid and result.stones_left == optimum_stones(n, n, first)
                build.append(t1 - t0)
                check.append(t2 - t1)
                left, count = result.stones_left, len(moves)
            b, c = statistics.median(build), statistics.median(check)
            print(f"{n:>5}x{n:<5} {'black' if first == BLACK else 'white':>6} {count:>9,} "
                  f"{left:>5} {b:>9.2f} {c:>9.2f} {b + c:>8.2f} {1e6 * (b + c) / n / n:>10.2f}")


def random_sizes(count: int, seed: int = 2026) -> None:
    """Random boards up to 300 x 300, either first colour: all must reach the optimum."""
    print(f"\n## {count} random checkerboards up to 300x300 (seed {seed}), replayed")
    rng = random.Random(seed)
    bad, worst = [], (0.0, None)
    for _ in range(count):
        n, m, first = rng.randrange(2, 301), rng.randrange(2, 301), rng.choice((BLACK, WHITE))
        t0 = time.perf_counter()
        result = replay(Position.checkerboard(n, m), reduce_checkerboard(n, m, first),
                        first=first)
        seconds = time.perf_counter() - t0
        if not (result.valid and result.stones_left == optimum_stones(n, m, first)):
            bad.append((n, m, first))
        worst = max(worst, (seconds, (n, m, first)))
    print(f"failures: {bad or 'none'}; slowest: {worst[1]} in {worst[0]:.2f} s")


def hamming_reducer(repeat: int) -> None:
    print("\n## Hamming reducer + reference replay on random colourings (median of",
          repeat, "runs)")
    rng = random.Random(2008)
    for name, board in (("K10 x K10", hamming(10, 10)), ("K3^4", hamming(3, 3, 3, 3)),
                        ("K5 x K5 x K4", hamming(5, 5, 4)), ("Q10", hypercube(10))):
        times, lefts = [], []
        for _ in range(repeat):
            while True:
                cells = bytes(rng.choice((1, 2)) for _ in range(board.n))
                if len(set(cells[1:])) == 2:
                    break
            position = Position(board, cells)
            t0 = time.perf_counter()
            moves = reduce_hamming(position, 0)
            result = replay(position, moves, free=True)
            times.append(time.perf_counter() - t0)
            assert result.valid
            lefts.append(result.stones_left)
        print(f"{name:>13}: {statistics.median(times):.3f} s (max {max(times):.3f} s), "
              f"stones left {sorted(set(lefts))}")


def checker() -> None:
    print("\n## Strong-reducibility checker on Q4 (2^16 colourings x 16 vertices x 2 colours)")
    for prop in ("strong1", "strong1-joker", "strong2", "1-reducible"):
        clear_tables()
        t0 = time.perf_counter()
        result = check_property(hypercube(4), prop)
        print(f"{prop:>14}: holds={result.holds!s:5} cases={result.cases:>9,} "
              f"{time.perf_counter() - t0:6.2f} s (tables built from scratch)")
    clear_tables()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small boards, one repeat")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--random", type=int, default=100, help="random boards to check")
    ap.add_argument("--sides", default="250,251,500,501,999,1000",
                    help="sides of the square boards timed, comma-separated")
    args = ap.parse_args()
    print(f"# {time.strftime('%Y-%m-%d')}  {platform.machine()}  Python "
          f"{platform.python_version()}")
    if args.quick:
        checkerboards([50, 101], 1)
        hamming_reducer(1)
        return
    checkerboards([int(x) for x in args.sides.split(",")], args.repeat)
    random_sizes(args.random)
    hamming_reducer(max(args.repeat, 5))
    checker()


if __name__ == "__main__":
    main()
