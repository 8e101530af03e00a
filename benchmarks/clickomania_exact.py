"""The exact Clickomania solver on seeded random boards (issue 6's figure).

    .venv/bin/python benchmarks/clickomania_exact.py              # the issue's figure
    .venv/bin/python benchmarks/clickomania_exact.py --scaling 10 # + larger families
    .venv/bin/python benchmarks/clickomania_exact.py --orders     # + move orderings

Sections (each prints its figures as it goes):

1. the issue's figure: 20 seeded random 5x5 / 3-colour and 6x6 / 3-colour boards, the
   decision (can every block go?) and the optimization (most blocks removable): median and
   max wall seconds a board (median of ``--repeat`` runs each; the call includes setting
   up the search, the search and the replay of the witness by the reference rules; numba
   kernels are loaded before timing), nodes, and how many boards are solvable;
2. ``--scaling S``: larger families (6x6 up to 8x8, 3 to 7 colours) with S seconds a
   board: how many are decided, and the median / max time of those decided;
3. ``--orders``: the move orderings (``solve_clickomania(order=...)``) on random 8x8
   5-colour decisions: median and max nodes (why ``natural`` is the default).

Board ``i`` of a family H x W / k is ``random.Random(i)``'s colours, uniform in 0..k-1,
filled column by column (left to right), each from the bottom up. Timings on a shared
2-core machine are noisy; the medians are the figures to quote.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from clobbermania.clickomania.rules import Board
from clobbermania.clickomania.solver import ORDERS, solve_clickomania


def seeded_board(seed: int, height: int, width: int, colors: int) -> Board:
    """Board ``seed`` of the family height x width / colors (see the module docstring)."""
    rng = random.Random(seed)
    return Board.from_columns([[rng.randrange(colors) for _ in range(height)]
                               for _ in range(width)], height, width)


def _timed(board: Board, maximize: bool, repeat: int, time_limit: float | None = None,
           order: str = "natural"):
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = solve_clickomania(board, maximize=maximize, time_limit=time_limit, order=order)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def figure(boards: int, repeat: int) -> None:
    print(f"1. exact solver, {boards} seeded random boards a family "
          f"(median of {repeat} runs a board)")
    print(f"   {'family':<10} {'question':<9} {'median s':>9} {'max s':>9} {'search %':>9} "
          f"{'nodes med':>10} {'nodes max':>10} {'solvable':>9} {'removed (median)':>17}")
    for h, w, k in ((5, 5, 3), (6, 6, 3)):
        family = [seeded_board(i, h, w, k) for i in range(boards)]
        for maximize in (False, True):
            times, nodes, solvable, removed, search = [], [], 0, [], []
            for board in family:
                t, r = _timed(board, maximize, repeat)
                assert r.exact
                times.append(t)
                search.append(r.seconds / t if t else 1.0)
                nodes.append(r.nodes)
                solvable += bool(r.solvable)
                removed.append(r.removed)
            print(f"   {f'{h}x{w}/{k}':<10} {'maximize' if maximize else 'clear':<9} "
                  f"{statistics.median(times):>9.5f} {max(times):>9.5f} "
                  f"{100 * statistics.median(search):>8.0f}% "
                  f"{statistics.median(nodes):>10.0f} {max(nodes):>10} "
                  f"{solvable:>5}/{len(family):<3} {statistics.median(removed):>17}", flush=True)


def scaling(seconds: float, boards: int) -> None:
    print(f"2. larger families, {boards} boards each, time limit {seconds} s a board")
    print(f"   {'family':<10} {'question':<9} {'decided':>8} {'solvable':>9} {'median s':>9} "
          f"{'max s':>9} {'nodes max':>10} {'knodes/s':>9}")
    for h, w, k in ((6, 6, 4), (6, 6, 5), (7, 7, 4), (7, 7, 5), (8, 8, 4), (8, 8, 5),
                    (8, 8, 6), (8, 8, 7)):
        for maximize in (False, True):
            times, nodes, decided, solvable, rate = [], [], 0, 0, []
            for i in range(boards):
                t, r = _timed(seeded_board(i, h, w, k), maximize, 1, time_limit=seconds)
                rate.append(r.nodes / max(r.seconds, 1e-9) / 1000)
                if r.exact:
                    decided += 1
                    solvable += bool(r.solvable)
                    times.append(t)
                    nodes.append(r.nodes)
            med = f"{statistics.median(times):>9.3f}" if times else f"{'-':>9}"
            mx = f"{max(times):>9.3f}" if times else f"{'-':>9}"
            print(f"   {f'{h}x{w}/{k}':<10} {'maximize' if maximize else 'clear':<9} "
                  f"{decided:>5}/{boards:<2} {solvable:>9} {med} {mx} "
                  f"{max(nodes) if nodes else 0:>10} {statistics.median(rate):>9.0f}",
                  flush=True)


def orders(boards: int, seconds: float) -> None:
    print(f"3. move orderings: 8x8/5 decisions, {boards} boards, limit {seconds} s a board")
    family = [seeded_board(i, 8, 8, 5) for i in range(boards)]
    for name in ORDERS:
        nodes, undecided = [], 0
        for board in family:
            r = solve_clickomania(board, time_limit=seconds, order=name)
            nodes.append(r.nodes)
            undecided += not r.exact
        print(f"   {name:<8} nodes median {statistics.median(nodes):>10.0f} max {max(nodes):>10}"
              f"  undecided {undecided}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20, help="boards a family (20)")
    parser.add_argument("--repeat", type=int, default=5, help="runs a board (median; 5)")
    parser.add_argument("--scaling", type=float, metavar="S",
                        help="also the larger families, S seconds a board")
    parser.add_argument("--orders", action="store_true", help="also compare move orderings")
    args = parser.parse_args(argv)
    solve_clickomania("1122/1212")  # load the numba kernels before timing
    figure(args.boards, args.repeat)
    if args.scaling:
        scaling(args.scaling, min(args.boards, 10))
    if args.orders:
        orders(args.boards, 5.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
