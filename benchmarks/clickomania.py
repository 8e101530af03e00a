"""Clickomania figures (issue 6): one column, the exact solver, SameGame.

``python benchmarks/clickomania.py [--only column|exact|samegame] [section options]``

- column (here): one-column decision and optimization at n = 250, 500, 1000, 2000 groups
  (and 4000, 8000, 16000 to show the growth), 5 colours, seeded random strings (each block a
  uniform random colour, drawn until the string has n groups), median of 3 strings, and
  the exponent fitted to the medians; then two colours at 10^4..10^6 groups: the decision
  (Theorems 10 and 12, linear) and the optimization (O(n log n)).
- exact: ``benchmarks/clickomania_exact.py`` (its ``main``).
- samegame: ``benchmarks/samegame.py`` (its ``main``).

Options after the section's own (``--only exact --time-limit 5``) go to that section.
Timings on a shared 2-core machine are noisy: medians are reported.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

SECTIONS = ("column", "exact", "samegame")
COLUMN_SIZES = (250, 500, 1000, 2000, 4000, 8000, 16000)
TWO_COLOUR_SIZES = (10_000, 100_000, 1_000_000)


def random_string(n_groups: int, n_colors: int, seed: int) -> str:
    """Uniform random blocks over ``n_colors`` colours until there are ``n_groups`` runs."""
    rng = random.Random(seed)
    out: list[str] = []
    runs = 0
    while True:
        c = "123456789"[rng.randrange(n_colors)]
        if not out or out[-1] != c:
            if runs == n_groups:
                break
            runs += 1
        out.append(c)
    return "".join(out)


def random_solvable_string(n_groups: int, n_colors: int, seed: int) -> str:
    """A solvable string of at least ``n_groups`` runs by random reverse play: insert a
    run of 2 or 3 blocks of a colour that neither neighbour has, anywhere (also inside a
    run, which it splits); clicking the inserted runs in reverse order clears it."""
    rng = random.Random(seed)
    s: list[str] = []
    runs = 0
    while runs < n_groups:
        x = rng.randrange(len(s) + 1)
        left = s[x - 1] if x > 0 else ""
        right = s[x] if x < len(s) else ""
        c = rng.choice([c for c in "123456789"[:n_colors] if c not in (left, right)])
        runs += 2 if left and left == right else 1  # splitting a run makes two of it
        s[x:x] = [c] * rng.choice([2, 3])
    return "".join(s)


def fit_exponent(ns: list[int], ts: list[float]) -> float:
    """Least-squares slope of log t against log n."""
    xs = [math.log(n) for n in ns]
    ys = [math.log(max(t, 1e-9)) for t in ts]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / \
        sum((x - mx) ** 2 for x in xs)


def column_section(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="clickomania.py --only column")
    ap.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")],
                    default=list(COLUMN_SIZES))
    ap.add_argument("--colors", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--table-max", type=int, default=4000,
                    help="time the cell-by-cell table up to this many groups")
    args = ap.parse_args(argv)

    from clobbermania.clickomania import _column_kernels as K
    from clobbermania.clickomania.column import ColumnPuzzle, _run_arrays, solve_column

    solve_column("1221")  # compile / load the kernels outside the timings
    solve_column("1221", "two-color")
    print(f"one-column Clickomania, {args.colors} colours, random strings, median of "
          f"{args.repeats} (seeds 0..{args.repeats - 1})")
    print("decision: the interval rows (k_clearable_rows); optimization: solve_column (rows,"
          " optimum, derivation, witness clicks); cell-by-cell: the CYK table kept as the "
          f"cross-check (up to {args.table_max} groups)")
    print(f"{'groups':>7} {'blocks':>7} {'decision s':>11} {'optimization s':>15} "
          f"{'cell-by-cell s':>15} {'solvable':>9} {'max removed':>16}")
    ns, dec, opt = [], [], []
    for n in args.sizes:
        td, to, tt, info = [], [], [], []
        for seed in range(args.repeats):
            s = random_string(n, args.colors, seed)
            p = ColumnPuzzle.from_colors([int(ch) for ch in s])
            col, mult, k = _run_arrays(p)
            t0 = time.perf_counter()
            R, _, _ = K.k_clearable_rows(col, mult, k)
            solvable = bool(K._bit(R, 0, len(col) - 1))
            td.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            r = solve_column(p)
            to.append(time.perf_counter() - t0)
            assert r.solvable == solvable
            if n <= args.table_max:
                t0 = time.perf_counter()
                A, _, _, _ = K.k_clearable_table(col, mult, k)
                tt.append(time.perf_counter() - t0)
                assert bool(K.k_clearable(A, 0, len(col) - 1)) == solvable
            info.append((len(s), r.solvable, r.max_removed))
        ns.append(n)
        dec.append(statistics.median(td))
        opt.append(statistics.median(to))
        blocks = info[0][0]
        table = f"{statistics.median(tt):.4f}" if tt else "-"
        print(f"{n:>7} {blocks:>7} {dec[-1]:>11.4f} {opt[-1]:>15.4f} {table:>15} "
              f"{sum(x[1] for x in info):>6}/{len(info)} "
              f"{'/'.join(str(x[2]) for x in info):>16}", flush=True)
    if len(ns) >= 2:
        print(f"fitted exponent (t ~ n^e): decision {fit_exponent(ns, dec):.2f}, "
              f"optimization {fit_exponent(ns, opt):.2f}")
        big = [i for i, n in enumerate(ns) if n >= 1000]
        if len(big) >= 2:
            print(f"fitted exponent over n >= 1000: decision "
                  f"{fit_exponent([ns[i] for i in big], [dec[i] for i in big]):.2f}, "
                  f"optimization "
                  f"{fit_exponent([ns[i] for i in big], [opt[i] for i in big]):.2f}")
    print("\nsolvable strings (random reverse play), decision and optimization with witness")
    print(f"{'groups':>7} {'blocks':>7} {'decision s':>11} {'optimization s':>15} "
          f"{'solvable':>9}")
    for n in args.sizes:
        td, to, ok = [], [], 0
        for seed in range(args.repeats):
            s = random_solvable_string(n, args.colors, seed)
            p = ColumnPuzzle.from_colors([int(ch) for ch in s])
            col, mult, k = _run_arrays(p)
            t0 = time.perf_counter()
            R, _, _ = K.k_clearable_rows(col, mult, k)
            solvable = bool(K._bit(R, 0, len(col) - 1))
            td.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            r = solve_column(p)
            to.append(time.perf_counter() - t0)
            ok += solvable and r.solvable and r.max_removed == len(s)
        print(f"{len(col):>7} {len(s):>7} {statistics.median(td):>11.4f} "
              f"{statistics.median(to):>15.4f} {ok:>6}/{args.repeats}", flush=True)
    print("\ntwo colours: decision (Theorems 10 and 12, linear) and optimization "
          "(O(n log n)), median of", args.repeats)
    print(f"{'groups':>9} {'decision s':>11} {'solvable':>9} {'optimization s':>15} "
          f"{'runs left':>10}")
    for n in TWO_COLOUR_SIZES:
        rng = np.random.default_rng(n)
        # big groups (3 %) only in the first 20 %: not solvable, and the optimum must
        # choose where the single blocks of the tail are covered
        mult = np.where(rng.random(n) < 0.03, 2, 1).astype(np.int64)
        mult[int(0.2 * n):] = 1
        ts, to = [], []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            sol = K.k_two_solvable(mult) != -2
            ts.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            kept, _ = K.k_two_min_kept(mult)
            to.append(time.perf_counter() - t0)
        print(f"{n:>9} {statistics.median(ts):>11.5f} {sol!s:>9} "
              f"{statistics.median(to):>15.4f} {int(kept[n]):>10}", flush=True)
    return 0


def _load(name: str):
    here = Path(__file__).resolve().parent
    if not (here / f"{name}.py").is_file():
        return None
    if str(here) not in sys.path:
        sys.path.insert(0, str(here))
    return importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    # -h after --only SECTION is the section's own help
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False)
    ap.add_argument("--only", choices=SECTIONS, help="Run one section.")
    args, rest = ap.parse_known_args(argv)
    if not args.only and {"-h", "--help"} & set(rest):
        ap.print_help()
        return 0
    if rest and not args.only:
        ap.error(f"options {' '.join(rest)} belong to one section: give --only SECTION")
    sections = [args.only] if args.only else list(SECTIONS)
    status = 0
    for sec in sections:
        print(f"== {sec} ==", flush=True)
        if sec == "column":
            status |= column_section(rest if args.only else [])
            continue
        module = _load("clickomania_exact" if sec == "exact" else "samegame")
        if module is None:
            print(f"(skipped: benchmarks/{'clickomania_exact' if sec == 'exact' else 'samegame'}"
                  ".py is not there yet)")
            continue
        status |= int(module.main(rest if args.only else []) or 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
