"""Experiments behind research/clickomania_3sat_five_columns/README.md.

Run: .venv/bin/python research/clickomania_3sat_five_columns/experiments.py
Prints (1) what the exact solver says of hardness_sat's puzzle for the unsatisfiable
(x)&(~x) once its six colours are merged into three (the naive recolouring), and (2) the
padding check: a random two-colour board B and B with three columns of a third colour on
its right are solvable together or not at all; (3) the small two-letter facts.
"""

from __future__ import annotations

import random
import time

from clobbermania.clickomania.hardness_sat import from_3sat
from clobbermania.clickomania.rules import Board, from_grid, to_grid
from clobbermania.clickomania.solver import solve_clickomania


def naive_recolouring(time_limit: float = 30.0) -> None:
    grid = to_grid(from_3sat("(x)&(~x)").board)
    # 0 items, 1/2 left inert, 3 keys/gates, 4/5 right inert -> three colours
    for name, mapping in {"4->1 5->2 0->3": {4: 1, 5: 2, 0: 3},
                          "4->2 5->1 0->3": {4: 2, 5: 1, 0: 3}}.items():
        g = grid.copy()
        for a, b in mapping.items():
            g[grid == a] = b
        board = from_grid(g)
        t0 = time.process_time()
        r = solve_clickomania(board, time_limit=time_limit)
        print(f"naive recolouring {name}: colours {sorted(board.color_counts())}, "
              f"solvable={r.solvable} exact={r.exact} "
              f"({time.process_time() - t0:.1f} s CPU, {len(r.moves)} clicks)")


def small_facts() -> None:
    """The two-letter facts of the README, each by the exact solver (colours 1=A 2=B 3=C)."""
    a, b, c = 1, 2, 3
    cases = {
        "in phase (AB)^6 | (AB)^6": [[a, b] * 6, [a, b] * 6],
        "anti phase (AB)^6 | (BA)^6": [[a, b] * 6, [b, a] * 6],
        "keys ACACACA | one gate BABCBAB": [[a, c, a, c, a, c, a], [b, a, b, c, b, a, b]],
    }
    for name, cols in cases.items():
        board = Board.from_columns(cols, max(len(x) for x in cols))
        r = solve_clickomania(board)
        print(f"{name}: solvable={r.solvable} exact={r.exact} moves={' '.join(r.moves)}")


def padding_check(trials: int = 300, seed: int = 1) -> None:
    rng = random.Random(seed)
    agree = solvable = 0
    for _ in range(trials):
        h = rng.randint(2, 6)
        cols = [[rng.randint(1, 2) for _ in range(rng.randint(1, h))] for _ in range(2)]
        pad_h = rng.randint(1, h)
        core = Board.from_columns(cols, h)
        padded = Board.from_columns(cols + [[3] * pad_h] * 3, h)
        a = solve_clickomania(core).solvable
        b = solve_clickomania(padded).solvable
        agree += a == b
        solvable += bool(a)
    print(f"padding: {agree}/{trials} agree ({solvable} solvable cores), 5 columns, "
          "3 colours")


if __name__ == "__main__":
    naive_recolouring()
    small_facts()
    padding_check()
