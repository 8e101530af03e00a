"""Impartial Clobber: every configuration of up to 14 squares checked against a brute force.

Issue 4's oracle list asks for "brute-force recursion on every configuration up to 14
squares, holes included". This script checks the Grundy values of
``clobbermania.clobber.impartial`` (the solver behind ``grundy_value``) on EVERY
configuration over {x, o, hole} of

  * the rows 1x1 .. 1xN (sum of 3^k over k = 1..N: 7,174,452 configurations for N = 14),
  * the grids with both sides >= 2 and at most N squares: 2x2 .. 2x7, 3x3, 3x4 and, run
    in full as well, their transposes 3x2 .. 7x2 and 4x3 (the solver keys grid parts by
    symmetry images of the board they are on, and a 2x7 and a 7x2 board are different
    boards, so the transposes are a check of their own, not a repeat),

against an INDEPENDENT oracle, and prints per family the configurations checked, the
mismatches (expected: 0) and the seconds.

The oracle (:func:`oracle_values`) is the plain recursion "value = mex of the options'
values" with a memo keyed by the exact configuration, no splitting into parts, no
symmetry, no clobbermania code: the configurations of a rows x cols board are the base-3
integers ``sum(cell[v] * 3**v)`` (cell 0 hole, 1 x, 2 o, square (r, c) is v = r*cols + c)
and the memo is a table over all of them, filled by increasing stone count (a move
removes one stone, so every option is filled before the configurations that reach it:
the recursion unrolled). Its move rule is its own bit-level loop in numba (written for
this oracle, allowed in benchmarks and tests): a stone of either colour moves onto an
orthogonally adjacent stone of the other colour, which is removed.
``tests/test_impartial_exhaustive.py`` holds that loop equal to the reference move
generator ``Position.moves`` (every table entry is the mex of the table entries of the
reference options) on small boards.

What is compared: ``GrundySolver.value_of_cells`` (components split off, canonical keys
looked up in its cache, the numba kernel for grid parts, the string search for paths), one
fresh solver per family, on every configuration. ``grundy_value`` itself (which adds the
winning moves, read from the same solver's option values) costs about 8x more per call,
so it is run on a random sample of ``--sample`` configurations per family, its value and
its full set of winning moves compared with the oracle's (moves to a 0 option).

    python benchmarks/impartial_exhaustive.py [--max-squares 14] [--sample 2000]
                                              [--jobs 1] [--no-transposes]

``--jobs J`` splits each family's configurations among J forked processes (each with its
own solver). The machine may be shared: timings taken while other jobs run are noisy (the
load average is printed). Exit status 1 when any mismatch is found.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from clobbermania.clobber.impartial import GrundySolver, grundy_value
from clobbermania.stones import Board, Position

_CHUNK = 65_536  # configurations decoded to cells at a time (numpy, then sliced)


# -- the oracle ----------------------------------------------------------------------------


def grid_neighbours(rows: int, cols: int) -> np.ndarray:
    """Orthogonal neighbours of each square of a rows x cols grid, padded with -1.

    Written here rather than read from ``Board`` so that the oracle shares no code with
    what it checks.

    >>> grid_neighbours(1, 3).tolist()
    [[1, -1, -1, -1], [0, 2, -1, -1], [1, -1, -1, -1]]
    """
    n = rows * cols
    out = np.full((n, 4), -1, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            k = 0
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    out[r * cols + c, k] = rr * cols + cc
                    k += 1
    return out


@njit(cache=True)
def _oracle_table(n: int, nbr: np.ndarray) -> np.ndarray:
    total = 3 ** n
    pow3 = np.empty(n, dtype=np.int64)
    p = 1
    for v in range(n):
        pow3[v] = p
        p *= 3
    # stone counts, then the configurations in order of increasing stone count
    stones = np.zeros(total, dtype=np.int64)
    for i in range(1, total):
        stones[i] = stones[i // 3] + (1 if i % 3 else 0)
    start = np.zeros(n + 2, dtype=np.int64)
    for i in range(total):
        start[stones[i] + 1] += 1
    for s in range(n + 1):
        start[s + 1] += start[s]
    order = np.empty(total, dtype=np.int64)
    for i in range(total):
        order[start[stones[i]]] = i
        start[stones[i]] += 1
    val = np.zeros(total, dtype=np.uint8)
    digit = np.zeros(n, dtype=np.int64)
    for i in order:
        x = i
        for v in range(n):
            digit[v] = x % 3
            x //= 3
        # at most 2 * (edges) <= 2 * 19 options on 14 squares: the seen set fits 64 bits
        seen = np.uint64(0)
        for u in range(n):
            d = digit[u]
            if d == 0:
                continue
            for k in range(4):
                v = nbr[u, k]
                if v < 0:
                    break
                if digit[v] == 3 - d:
                    # u empties; v turns from the other colour (3 - d) to d
                    child = i - d * pow3[u] + (2 * d - 3) * pow3[v]
                    seen |= np.uint64(1) << np.uint64(val[child])
        g = 0
        while (seen >> np.uint64(g)) & np.uint64(1):
            g += 1
        val[i] = g
    return val


def oracle_values(rows: int, cols: int) -> np.ndarray:
    """The Grundy value of every configuration of a rows x cols grid, by brute force.

    Entry ``i`` is the value of the configuration whose square v holds digit v of ``i``
    in base 3 (0 hole, 1 x, 2 o). See the module docstring for the method.

    >>> t = oracle_values(1, 4)
    >>> int(t[config_index(Position.from_string("xoxo"))])  # the issue's value of xoxo
    3
    """
    return _oracle_table(rows * cols, grid_neighbours(rows, cols))


def config_index(position: Position) -> int:
    """The base-3 index of a grid position's cells (the oracle table's entry).

    >>> config_index(Position.from_string("xo."))
    7
    """
    return sum(int(c) * 3 ** v for v, c in enumerate(position.cells))


def config_cells(n: int, start: int, stop: int) -> np.ndarray:
    """The cells (EMPTY/BLACK/WHITE bytes) of configurations ``start .. stop - 1``.

    >>> config_cells(2, 3, 6).tolist()
    [[0, 1], [1, 1], [2, 1]]
    """
    idx = np.arange(start, stop, dtype=np.int64)
    out = np.empty((stop - start, n), dtype=np.uint8)
    for v in range(n):
        out[:, v] = idx % 3
        idx //= 3
    return out


# -- the check -----------------------------------------------------------------------------


@dataclass
class FamilyResult:
    """What one board's check found: configurations compared, mismatches, seconds."""

    name: str
    checked: int = 0
    mismatches: int = 0
    examples: list[tuple[str, int, int]] = field(default_factory=list)  # (text, oracle, got)
    oracle_seconds: float = 0.0
    check_seconds: float = 0.0
    sampled: int = 0
    sample_mismatches: int = 0


def check_range(rows: int, cols: int, table: np.ndarray, start: int, stop: int,
                solver: GrundySolver | None = None) -> FamilyResult:
    """Compare the solver with ``table`` on configurations ``start .. stop - 1``.

    >>> r = check_range(1, 3, oracle_values(1, 3), 0, 27)
    >>> r.checked, r.mismatches
    (27, 0)
    """
    board = Board.grid(rows, cols)
    n = rows * cols
    solver = solver or GrundySolver()
    value = solver.value_of_cells
    res = FamilyResult(f"{rows}x{cols}")
    for lo in range(start, stop, _CHUNK):
        hi = min(stop, lo + _CHUNK)
        flat = config_cells(n, lo, hi).tobytes()
        expected = table[lo:hi].tolist()
        for j in range(hi - lo):
            cells = flat[j * n:(j + 1) * n]
            got = value(board, cells)
            if got != expected[j]:
                res.mismatches += 1
                if len(res.examples) < 5:
                    res.examples.append((Position(board, cells).text(), expected[j], got))
        res.checked += hi - lo
    return res


def check_sample(rows: int, cols: int, table: np.ndarray, count: int,
                 rng: random.Random) -> tuple[int, int]:
    """``grundy_value`` (value and every winning move) on ``count`` random configurations
    (all of them when the board has no more).

    Returns (sampled, mismatches); the oracle's winning moves are those to a 0 entry.

    >>> check_sample(2, 2, oracle_values(2, 2), 20, random.Random(0))
    (20, 0)
    """
    board = Board.grid(rows, cols)
    n = rows * cols
    total = 3 ** n
    solver = GrundySolver()
    # all of a small board, else distinct random configurations
    picks = range(total) if count >= total else rng.sample(range(total), count)
    bad = 0
    for i in picks:
        pos = Position(board, config_cells(n, i, i + 1).tobytes())
        r = grundy_value(pos, solver=solver)
        want = {mv for mv in pos.moves() if table[config_index(pos.play(mv))] == 0}
        expect_moves = want if table[i] else set()
        if r.grundy != table[i] or set(r.winning_moves) != expect_moves:
            bad += 1
    return len(picks), bad


_SHARED: dict[str, object] = {}  # the table handed to forked workers (copy on write)


def _worker(args: tuple[int, int, int, int]) -> FamilyResult:
    rows, cols, lo, hi = args
    return check_range(rows, cols, _SHARED["table"], lo, hi)  # type: ignore[arg-type]


def check_board(rows: int, cols: int, jobs: int = 1, sample: int = 0,
                rng: random.Random | None = None) -> FamilyResult:
    """The oracle table of a rows x cols grid, then every configuration compared.

    >>> r = check_board(2, 2, sample=100)
    >>> r.checked, r.mismatches, r.sampled, r.sample_mismatches
    (81, 0, 81, 0)
    """
    t0 = time.perf_counter()
    table = oracle_values(rows, cols)
    t1 = time.perf_counter()
    total = len(table)
    if jobs <= 1 or total < 10_000:
        res = check_range(rows, cols, table, 0, total)
    else:
        _SHARED["table"] = table
        bounds = [total * k // jobs for k in range(jobs + 1)]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_worker, [(rows, cols, bounds[k], bounds[k + 1])
                                       for k in range(jobs)])
        res = FamilyResult(f"{rows}x{cols}")
        for p in parts:
            res.checked += p.checked
            res.mismatches += p.mismatches
            res.examples.extend(p.examples[:5 - len(res.examples)])
    res.oracle_seconds = t1 - t0
    if sample:
        res.sampled, res.sample_mismatches = check_sample(rows, cols, table, sample,
                                                          rng or random.Random(0))
    res.check_seconds = time.perf_counter() - t1
    return res


def families(max_squares: int, transposes: bool = True) -> list[tuple[int, int]]:
    """The boards checked: rows 1x1 .. 1xN, then grids with both sides >= 2, <= N squares.

    >>> families(6)
    [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3), (3, 2)]
    >>> families(9, transposes=False)[-4:]
    [(2, 2), (2, 3), (2, 4), (3, 3)]
    """
    out = [(1, k) for k in range(1, max_squares + 1)]
    for r in range(2, max_squares + 1):
        for c in range(r, max_squares // r + 1):
            out.append((r, c))
            if transposes and c != r:
                out.append((c, r))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-squares", type=int, default=14)
    ap.add_argument("--sample", type=int, default=2000,
                    help="configurations per family also run through grundy_value")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-transposes", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    if not 1 <= a.max_squares <= 16:
        ap.error("--max-squares must be between 1 and 16 (the oracle table has 3^N entries)")
    rng = random.Random(a.seed)
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"jobs {a.jobs}")
    print(f"{'board':>6} {'configurations':>15} {'mismatches':>10} {'oracle s':>9} "
          f"{'check s':>9} {'sampled':>8} {'sample bad':>10}")
    t_all = time.perf_counter()
    totals = {"rows": [0, 0], "grids": [0, 0]}
    for rows, cols in families(a.max_squares, not a.no_transposes):
        r = check_board(rows, cols, a.jobs, a.sample, rng)
        fam = "rows" if rows == 1 else "grids"
        totals[fam][0] += r.checked
        totals[fam][1] += r.mismatches + r.sample_mismatches
        print(f"{r.name:>6} {r.checked:>15,} {r.mismatches:>10} {r.oracle_seconds:>9.2f} "
              f"{r.check_seconds:>9.2f} {r.sampled:>8} {r.sample_mismatches:>10}", flush=True)
        for text, want, got in r.examples:
            print(f"    MISMATCH {text}: oracle {want}, solver {got}")
    elapsed = time.perf_counter() - t_all
    bad = 0
    for fam, (checked, mism) in totals.items():
        print(f"{fam}: {checked:,} configurations, {mism} mismatches")
        bad += mism
    print(f"total: {sum(t[0] for t in totals.values()):,} configurations, {bad} mismatches, "
          f"{elapsed:.1f} s; load average at end: {os.getloadavg()[0]:.2f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
