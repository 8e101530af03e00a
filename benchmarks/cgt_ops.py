"""Speed of the cgt engine: canonicalisation, sums and comparisons of random games, and a
small Clobber workload (values of 1 x n rows, cross-checked against issue 5's oracles).

Run: .venv/bin/python benchmarks/cgt_ops.py [--games N] [--seed S] [--row-max N]
Prints its figures; every phase starts from an empty memo table where noted ("cold").
The machine is shared: figures are medians of --repeat runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction

from clobbermania.cgt import STAR, UP, ZERO, Game, nimber, number
from clobbermania.cgt import game as core
from clobbermania.stones import BLACK, WHITE, Position


def clear_memos() -> None:
    core.clear_caches()


def random_games(n: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    pool = [ZERO, STAR, UP, -UP, number(1), number(-1), number(Fraction(1, 2)), nimber(2)]
    out = []
    while len(out) < n:
        g = Game.from_options(rng.sample(pool, rng.randint(1, 3)),
                              rng.sample(pool, rng.randint(1, 3)))
        pool.append(g)
        out.append(g)
    return out


def row_value(text: str, memo: dict[str, Game]) -> Game:
    """Clobber value of a row by direct recursion (benchmark only; the Clobber value module
    with component splitting and symmetry keys belongs to the clobber package)."""
    g = memo.get(text)
    if g is not None:
        return g
    p = Position.from_string(text)
    left = [row_value(p.play(m, BLACK).text(), memo) for m in p.moves(BLACK)]
    right = [row_value(p.play(m, WHITE).text(), memo) for m in p.moves(WHITE)]
    g = Game.from_options(left, right)
    memo[text] = g
    return g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--row-max", type=int, default=7)
    args = ap.parse_args()
    sys.setrecursionlimit(100000)

    games = random_games(args.games, args.seed)
    births = [g.birthday for g in games]
    print(f"{len(games)} random games from small options: birthday median "
          f"{statistics.median(births)}, max {max(births)}; table {core.table_size()} games")

    rng = random.Random(args.seed)
    pairs = [(rng.choice(games), rng.choice(games)) for _ in range(args.games)]
    sums, cmps, cmps_warm = [], [], []
    for _ in range(args.repeat):
        clear_memos()
        t = time.perf_counter()
        for g, h in pairs:
            g + h
        sums.append(time.perf_counter() - t)
        clear_memos()
        t = time.perf_counter()
        for g in games:
            for h in games:
                g.__le__(h)
        cmps.append(time.perf_counter() - t)
        t = time.perf_counter()
        for g in games:
            for h in games:
                g.__le__(h)
        cmps_warm.append(time.perf_counter() - t)
    n2 = len(games) ** 2
    print(f"sums, cold: {len(pairs)} random pairs in {statistics.median(sums):.3f} s "
          f"({1e3 * statistics.median(sums) / len(pairs):.2f} ms each)")
    print(f"comparisons G <= H, cold: all {n2} pairs in {statistics.median(cmps):.3f} s "
          f"({1e6 * statistics.median(cmps) / n2:.1f} us each); memoised: "
          f"{1e6 * statistics.median(cmps_warm) / n2:.2f} us each")
    sums_big = [g + h for g, h in pairs]
    print(f"  (the sums have birthday median {statistics.median(s.birthday for s in sums_big)},"
          f" max {max(s.birthday for s in sums_big)})")

    oracle = {"xo": "*", "xox": "*", "xxo": "^", "xoo": "v", "xxxo": "^^*", "xxxxo": "^3",
              "xoxo": "{^,*|v,*}", "xoxox": "{*|v}", "xxoo": "0", "xoxoxo": "0",
              "xoxoxoxoxoxo": "{0,^*|0,v*}"}
    memo: dict[str, Game] = {}
    for text, want in oracle.items():
        got = row_value(text, memo)
        assert got is Game(want), (text, str(got), want)
    print("issue 5 row oracles: all", len(oracle), "agree")
    values: set[Game] = set()
    for n in range(2, args.row_max + 1):
        clear_memos()
        memo = {}
        t = time.perf_counter()
        g = row_value("xo" * n, memo)
        dt = time.perf_counter() - t
        values.update(memo.values())
        text = str(g)
        shown = text if len(text) <= 40 else f"<{len(text)} characters, birthday {g.birthday}>"
        print(f"(xo)^{n}: {shown}   {dt:.3f} s for {len(memo)} positions (move generation "
              f"by Position, no component splitting), table {core.table_size()} games")

    # sums and comparisons of genuine Clobber values (every position met above)
    vals = sorted(values, key=lambda v: v.id)
    pairs = [(rng.choice(vals), rng.choice(vals)) for _ in range(args.games)]
    sample = rng.sample(vals, min(len(vals), args.games))
    sums, cmps = [], []
    for _ in range(args.repeat):
        clear_memos()
        t = time.perf_counter()
        for g, h in pairs:
            g + h
        sums.append(time.perf_counter() - t)
        clear_memos()
        t = time.perf_counter()
        for g in sample:
            for h in sample:
                g.__le__(h)
        cmps.append(time.perf_counter() - t)
    b = [v.birthday for v in vals]
    print(f"{len(vals)} distinct Clobber row values (birthday median {statistics.median(b)}, "
          f"max {max(b)}):")
    print(f"  sums, cold: {len(pairs)} random pairs in {statistics.median(sums):.3f} s "
          f"({1e3 * statistics.median(sums) / len(pairs):.2f} ms each)")
    n2 = len(sample) ** 2
    print(f"  comparisons, cold: {n2} pairs in {statistics.median(cmps):.3f} s "
          f"({1e6 * statistics.median(cmps) / n2:.1f} us each)")


if __name__ == "__main__":
    main()
