"""SC2 on trees: the polynomial algorithm proved against a brute force, and timed.

Prints, for BENCHMARKS.md:
  * agreement with an independent brute force on every two-colour colouring of every
    tree (networkx.nonisomorphic_trees) of 1..--max-n vertices (default 12: 551 trees x
    4096 colourings on 12 vertices), every witness replayed by the reference rules, and
    the time; with --holes K also every colouring with empty vertices of the trees of up
    to K vertices;
  * seconds for the algorithm (witness included, reference replay excluded) on random
    trees of 100, 1000, 5000 vertices, and on the worst shapes for it (stars) and long
    paths, median of --repeat runs.

    python benchmarks/trees.py [--max-n 12] [--holes 8] [--repeat 3] [--workers 2]

The brute force is written from the rules alone (it shares no code with the algorithm):
a numba table over every state of the tree (occupied set, colours), filled in increasing
order of the occupied set, since a move always empties a vertex.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import networkx as nx
import numpy as np
from numba import njit

from clobbermania.graphs import from_networkx, tree
from clobbermania.solitaire import replay
from clobbermania.solitaire.trees import tree_sc2
from clobbermania.stones import BLACK, EMPTY, WHITE, Move, Position


@njit(cache=True)
def brute_force_table(adj: np.ndarray) -> np.ndarray:
    """value[occ << n | col] = fewest stones from the stones ``occ`` (bitmask), white where
    ``col`` has a bit (col a subset of occ), black elsewhere in occ. SC2 rules."""
    n = adj.shape[0]
    value = np.zeros(1 << (2 * n), dtype=np.int8)
    for occ in range(1 << n):
        count = 0
        for v in range(n):
            count += (occ >> v) & 1
        col = occ
        while True:  # every subset col of occ
            best = count
            for v in range(n):
                if (occ >> v) & 1:
                    cv = (col >> v) & 1
                    moves = adj[v] & occ
                    for u in range(n):
                        if (moves >> u) & 1 and ((col >> u) & 1) != cv:
                            # v's stone moves onto u: u takes v's colour, v empties
                            nocc = occ & ~(1 << v)
                            ncol = (col & ~(1 << v) & ~(1 << u)) | (cv << u)
                            x = value[(nocc << n) | ncol]
                            if x < best:
                                best = x
            value[(occ << n) | col] = best
            if col == 0:
                break
            col = (col - 1) & occ
    return value


def _tree_boards(n: int):
    if n == 1:
        return [tree([])]
    return [from_networkx(t) for t in nx.nonisomorphic_trees(n)]


def _check_tree(args) -> tuple[int, int, int, list[str]]:
    """(cases, disagreements, failed replays, examples) for one tree's colourings."""
    n, edges, holes = args
    board = tree([]) if n == 1 else from_networkx(nx.Graph(edges))
    adj = np.zeros(n, dtype=np.int64)
    for u, v in edges:
        adj[u] |= 1 << v
        adj[v] |= 1 << u
    table = brute_force_table(adj)
    cases = wrong = bad_replay = 0
    examples: list[str] = []
    for cells in itertools.product((EMPTY, BLACK, WHITE) if holes else (BLACK, WHITE),
                                   repeat=n):
        occ = sum(1 << v for v, c in enumerate(cells) if c != EMPTY)
        col = sum(1 << v for v, c in enumerate(cells) if c == WHITE)
        expected = int(table[(occ << n) | col])
        p = Position(board, bytes(cells))
        value, pairs = tree_sc2(p)
        r = replay(p, [Move(a, b) for a, b in pairs], free=True)
        cases += 1
        if not r.valid or r.stones_left != value:
            bad_replay += 1
        if value != expected:
            wrong += 1
            if len(examples) < 3:
                examples.append(f"{sorted(edges)} {p.text()}: {value} vs {expected}")
    return cases, wrong, bad_replay, examples


def verify(max_n: int, holes: bool, workers: int) -> None:
    brute_force_table(np.zeros(2, dtype=np.int64))  # compile once before timing
    t0 = time.perf_counter()
    jobs = [(b.n, list(b.edges()), holes) for n in range(1, max_n + 1)
            for b in _tree_boards(n)]
    cases = wrong = bad_replay = 0
    examples: list[str] = []
    with ProcessPoolExecutor(workers) as pool:
        for c, w, b, ex in pool.map(_check_tree, jobs, chunksize=4):
            cases, wrong, bad_replay = cases + c, wrong + w, bad_replay + b
            examples += ex
    what = "every colouring with empty vertices" if holes else "every two-colour colouring"
    print(f"trees of 1..{max_n} vertices ({len(jobs)} trees), {what}: {cases} cases, "
          f"{wrong} disagreements with the brute force, {bad_replay} witnesses failing the "
          f"reference replay ({time.perf_counter() - t0:.0f} s, {workers} workers)")
    for e in examples:
        print("  disagreement:", e)


def timing(repeat: int) -> None:
    rng = random.Random(1)
    shapes = []
    for n in (100, 1000, 5000):
        shapes.append((f"random tree (uniform parent) of {n} vertices",
                       tree([rng.randrange(i) for i in range(1, n)])))
    for n in (1000, 5000):
        shapes.append((f"star of {n} vertices", tree([0] * (n - 1))))
    shapes.append(("path of 5000 vertices (as a tree)", tree(list(range(4999)))))
    for name, board in shapes:
        p = Position(board, bytes(rng.choice((BLACK, WHITE)) for _ in range(board.n)))
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            value, pairs = tree_sc2(p)
            times.append(time.perf_counter() - t0)
        r = replay(p, [Move(a, b) for a, b in pairs], free=True)
        print(f"{name}: {value} stones, {statistics.median(times):.3f} s "
              f"(witness replayed: {r.valid and r.stones_left == value})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=12)
    ap.add_argument("--holes", type=int, default=8, help="also colourings with empty "
                    "vertices for trees of up to this many vertices (0: skip)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip-verify", action="store_true")
    args = ap.parse_args()
    if not args.skip_verify:
        if args.holes:
            verify(args.holes, True, args.workers)
        verify(args.max_n, False, args.workers)
    timing(args.repeat)


if __name__ == "__main__":
    main()
