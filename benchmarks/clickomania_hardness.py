"""Figures for the hardness puzzles (clobbermania.clickomania.hardness, hardness_sat).

3-partition (Theorem 14): for a few instances, puzzle size, the time to build it, to find
a 3-partition, to build and replay the witness, and the exact Clickomania solver's verdict
and time (median of --repeat runs; the machine is shared, so timings are noisy); then the
check of the theorem on every m = 2 instance with t <= --t-max: solvable <=> 3-partition.

3-SAT (hardness_sat, two columns and six colours): puzzle size against variables n,
clauses m and literal occurrences R; DPLL, witness build + reference replay (wall and CPU
seconds, medians); the exact solver on the small puzzles; then the check on every formula
of at most --sat-clauses distinct clauses of one or two literals over two variables
(solvable <=> satisfiable; the solver may leave some undecided); last, DPLL alone on
random 3-SAT at clause ratio 4.26.

    .venv/bin/python benchmarks/clickomania_hardness.py [--part 3partition|3sat|all]
        [--t-max 16] [--repeat 3] [--sat-clauses 2] [--sat-solver-limit 20]
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


SAT_FORMULAS = [
    "(x)&(~x)",
    "(x|y)&(~x)",
    "(x|y)&(~x)&(~y)",
    "(a|b)&(~a|b)&(~b|a)",
    "(a|b)&(~a|b)&(~b|a)&(~a|~b)",
    "(a|~b|c)&(~a|b|d)",
    "(a|b|c)&(~a|~b)&(~b|~c)&(~a|~c)",
]
#: The exact solver runs on puzzles of at most this many blocks.
SAT_SOLVER_BLOCKS = 1000


def timed_cpu(fn, repeat: int):
    """(result, median wall seconds, median CPU seconds)."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return out, statistics.median(walls), statistics.median(cpus)


def sat_part(args) -> None:
    from clobbermania.clickomania.hardness_sat import from_3sat, witness_from_assignment
    from clobbermania.clickomania.sat import dpll, parse_formula

    print("formula | n m R | K rows blocks | build s | DPLL s | witness clicks, "
          "build+replay s wall/CPU | exact solver")
    for text in SAT_FORMULAS:
        f = parse_formula(text)
        c, t_build = timed(lambda f=f: from_3sat(f), args.repeat)
        p = c.parameters
        a, t_sat = timed(lambda f=f: dpll(f), args.repeat)
        wit = "-"
        if a is not None:
            def build_and_replay(f=f, a=a, board=c.board):
                moves = witness_from_assignment(f, a)
                assert replay(board, moves)[-1].is_cleared
                return moves
            moves, t_w, c_w = timed_cpu(build_and_replay, args.repeat)
            wit = f"{len(moves)}, {t_w:.2f}/{c_w:.2f}"
        verdict = "-"
        if p["blocks"] <= SAT_SOLVER_BLOCKS:
            c0 = time.process_time()
            r = solve_clickomania(c.board, time_limit=args.solver_limit)
            cpu = time.process_time() - c0
            verdict = ("solvable" if r.solvable else "unsolvable") if r.exact else "undecided"
            verdict += f", {r.nodes:,} nodes, {r.seconds:.2f} s wall, {cpu:.2f} s CPU"
        print(f"{f.text()} | {p['n']} {p['m']} {p['literals']} | {p['scale']} {p['rows']} "
              f"{p['blocks']} | {t_build:.4f} | {t_sat:.5f} ({'sat' if a else 'unsat'}) | "
              f"{wit} | {verdict}")
    # every formula of <= --sat-clauses distinct clauses of 1-2 literals over {x, y}
    lits = ["x", "~x", "y", "~y"]
    clauses = [f"({a})" for a in lits] + [f"({a}|{b})" for a, b in itertools.combinations(
        lits, 2) if a.strip("~") != b.strip("~")]
    n = mism = n_unsat = undecided = 0
    c0, t0 = time.process_time(), time.perf_counter()
    worst = 0.0
    for k in range(1, args.sat_clauses + 1):
        for cs in itertools.combinations(clauses, k):
            f = parse_formula("&".join(cs))
            sat = dpll(f) is not None
            n += 1
            n_unsat += not sat
            r = solve_clickomania(from_3sat(f).board, time_limit=args.sat_solver_limit)
            if not r.exact:
                undecided += 1
                print(f"  undecided in {args.sat_solver_limit:g} s: {f.text()} "
                      f"({'sat' if sat else 'unsat'}, {r.board.n_blocks} blocks)")
                continue
            worst = max(worst, r.seconds)
            if r.solvable != sat:
                mism += 1
                print("  MISMATCH:", f.text(), r.solvable, sat)
    print(f"every formula of 1..{args.sat_clauses} clauses of 1-2 literals over x, y: {n} "
          f"formulas ({n_unsat} unsatisfiable), {mism} mismatches, {undecided} undecided; "
          f"{time.perf_counter() - t0:.1f} s wall, {time.process_time() - c0:.1f} s CPU, "
          f"slowest decided solve {worst:.2f} s")
    import random

    rng = random.Random(1)
    for nv in (20, 40, 60, 80):
        cpus, sats = [], 0
        for _ in range(5):
            cl = []
            for _ in range(round(4.26 * nv)):
                vs = rng.sample(range(1, nv + 1), 3)
                cl.append(",".join(str(v if rng.random() < 0.5 else -v) for v in vs))
            f = parse_formula(";".join(cl))
            c1 = time.process_time()
            sats += dpll(f, time_limit=args.solver_limit) is not None
            cpus.append(time.process_time() - c1)
        print(f"DPLL, random 3-SAT n = {nv}, m = {round(4.26 * nv)}: median "
              f"{statistics.median(cpus):.3f} s CPU, max {max(cpus):.3f} s ({sats}/5 sat)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=["3partition", "3sat", "all"], default="all")
    ap.add_argument("--t-max", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--solver-limit", type=float, default=120.0)
    ap.add_argument("--sat-clauses", type=int, default=2)
    ap.add_argument("--sat-solver-limit", type=float, default=20.0)
    args = ap.parse_args()
    if args.part in ("3sat", "all"):
        sat_part(args)
    if args.part == "3sat":
        return
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
