"""SC2 on Hamming graphs and hypercubes: the constructive reducer, timed and checked.

Prints, for BENCHMARKS.md:
  * median seconds (time.perf_counter, --repeat runs, a fresh random colouring each run)
    of ``reduce_hamming`` plus the reference replay (``rules.replay(..., free=True)``)
    on K10 x K10, K3^4, K5 x K5 x K4 (one stone, random target and colour) and Q10
    (at most two stones), with the stones left;
  * with --verify: every case (colouring, vertex, colour) of K3 x K3, K2 x K4 and
    K3 x K2 x K2, and --samples random and near-monochromatic cases of larger Hamming
    graphs and hypercubes Q4..Q8, each replayed, with the time taken.

    python benchmarks/hamming.py [--repeat 5] [--verify] [--samples 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from clobbermania.graphs import hamming, hypercube
from clobbermania.solitaire import replay
from clobbermania.solitaire.hamming import reduce_hamming
from clobbermania.stones import BLACK, EMPTY, WHITE, Position

GRAPHS = [("K10 x K10", (10, 10)), ("K3^4", (3, 3, 3, 3)), ("K5 x K5 x K4", (5, 5, 4)),
          ("Q10", (2,) * 10)]


def two_coloured_without(cells, v) -> bool:
    return {c for u, c in enumerate(cells) if u != v} == {BLACK, WHITE}


def timed(board, cube: bool, rng: random.Random) -> tuple[float, int]:
    while True:
        cells = [rng.choice((BLACK, WHITE)) for _ in range(board.n)]
        v = rng.randrange(board.n)
        if two_coloured_without(cells, v):
            break
    color = None if cube else rng.choice((BLACK, WHITE))
    p = Position(board, bytes(cells))
    t0 = time.perf_counter()
    moves = reduce_hamming(p, v, color)
    r = replay(p, moves, free=True)
    seconds = time.perf_counter() - t0
    assert r.valid and r.final.cells[v] != EMPTY and r.stones_left <= (2 if cube else 1)
    return seconds, r.stones_left


def check(board, cells, v, color, cube: bool) -> int:
    p = Position(board, bytes(cells))
    r = replay(p, reduce_hamming(p, v, color), free=True)
    assert r.valid, (p.text(), v, color, r.error)
    assert r.final.cells[v] != EMPTY and (color is None or r.final.cells[v] == color)
    assert r.stones_left <= (2 if cube else 1), (p.text(), v, color)
    return r.stones_left


def verify(samples: int) -> None:
    for sizes in [(3, 3), (2, 4), (3, 2, 2)]:
        board = hamming(*sizes)
        n = board.n
        t0 = time.perf_counter()
        cases = 0
        for bits in range(1 << n):
            cells = [BLACK if bits >> i & 1 else WHITE for i in range(n)]
            for v in range(n):
                if two_coloured_without(cells, v):
                    for c in (BLACK, WHITE):
                        check(board, cells, v, c, False)
                        cases += 1
        print(f"every case of hamming:{','.join(map(str, sizes))}: {cases} cases reduced to "
              f"one stone, {time.perf_counter() - t0:.1f} s")
    rng = random.Random(2026)
    bigger = [(3, 3, 3), (4, 3, 2), (5, 2), (7, 2), (4, 2, 2), (3, 3, 2), (3, 2, 2, 2),
              (4, 4), (6, 6), (4, 4, 4), (3, 3, 3, 3), (5, 2, 2, 2), (3, 3, 2, 2),
              (3, 2, 2, 2, 2, 2)] + [(2,) * d for d in range(4, 9)]
    for sizes in bigger:
        board = hamming(*sizes)
        cube = all(a == 2 for a in sizes)
        n = board.n
        t0 = time.perf_counter()
        cases = 0
        hist = {1: 0, 2: 0}
        while cases < samples:
            if cases % 2:
                cells = [rng.choice((BLACK, WHITE)) for _ in range(n)]
            else:
                a = rng.choice((BLACK, WHITE))
                cells = [a] * n
                for u in rng.sample(range(n), rng.randint(1, 3)):
                    cells[u] = 3 - a
            v = rng.randrange(n)
            if not two_coloured_without(cells, v):
                continue
            color = rng.choice((None, BLACK, WHITE) if cube else (BLACK, WHITE))
            hist[check(board, cells, v, color, cube)] += 1
            cases += 1
        extra = f" ({hist[1]} one stone, {hist[2]} two)" if cube else ""
        print(f"hamming:{','.join(map(str, sizes))}: {cases} random and near-monochromatic "
              f"cases replayed{extra}, {time.perf_counter() - t0:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--samples", type=int, default=2000)
    args = ap.parse_args()
    rng = random.Random(1)
    for name, sizes in GRAPHS:
        board = hamming(*sizes) if name[0] == "K" else hypercube(len(sizes))
        cube = name[0] == "Q"
        timed(board, cube, rng)  # warm-up (the Q3 table)
        runs = [timed(board, cube, rng) for _ in range(args.repeat)]
        med = statistics.median(s for s, _ in runs)
        left = sorted({k for _, k in runs})
        print(f"{name:14s} {board.n:5d} vertices  reduce + replay median {med:.3f} s "
              f"(max {max(s for s, _ in runs):.3f} s), stones left {left}")
    if args.verify:
        verify(args.samples)


if __name__ == "__main__":
    main()
