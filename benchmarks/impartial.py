"""Grundy values of impartial Clobber by search (clobber/impartial.py): timings for
BENCHMARKS.md.

Prints, each with a fresh cache (median of --repeat runs where it says so):
  * seconds for each MCGS ``impartial__*.test`` file, and whether every case passed;
  * seconds for the rows (xo)^n and (xxo)^n (n = 100, 200, 400 pairs / 100 triples), by
    the string search (rows longer than 64 squares never reach the numba kernel);
  * seconds and component values computed for full checkerboards (the numba kernel);
    those that run out of --limit seconds are reported as such;
  * seconds for one choice of the computer opponent.

The machine is shared: figures taken while other jobs run are noisy (the load average is
printed with them).

    python benchmarks/impartial.py [--limit 120] [--repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from clobbermania.clobber.impartial import GrundySolver, GrundyTimeout, choose_move, nim_sum
from clobbermania.clobber.mcgs import parse_test_file
from clobbermania.stones import Position

#: The MCGS test files shipped in the repository (tests/data/mcgs, MIT; see its SOURCE.md).
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "mcgs"


def impartial_files() -> list[Path]:
    """The MCGS ``impartial__*.test`` files; exit 2 with one sentence when there are none."""
    files = sorted(DATA.glob("impartial__*.test"))
    if not files:
        print(f"error: no MCGS impartial__*.test file in {DATA} (the repository ships them "
              "in tests/data/mcgs)", file=sys.stderr)
        sys.exit(2)
    return files


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def mcgs_files(repeat: int) -> None:
    for path in impartial_files():
        cases = parse_test_file(path)
        ok = []

        def run(cases=cases, ok=ok):
            solver = GrundySolver()
            ok.clear()
            for c in cases:
                g = nim_sum(solver.value(game.position()) for game in c.games)
                ok.append(all(e.satisfied_by_nim(g) for e in c.expectations))

        s = _median(run, repeat)
        print(f"{path.name}: {len(cases)} cases, {sum(ok)} passed, {s:.2f} s "
              f"(median of {repeat}, fresh cache)")


def rows(repeat: int, quick: bool) -> None:
    for pattern, n in (("xo", 100), ("xo", 200), ("xxo", 100), ("xo", 400)):
        if quick and n > 200:
            continue
        p = Position.from_string(pattern * n)
        out = {}

        def run(p=p, out=out):
            s = GrundySolver()
            out["g"] = s.value(p)
            out["n"] = s.searched

        s = _median(run, 1 if n > 200 else repeat)
        print(f"({pattern})^{n} ({len(pattern) * n} stones): value {out['g']}, "
              f"{out['n']:,} rows searched, {s:.2f} s")


def checkerboards(limit: float, quick: bool) -> None:
    sizes = [(2, 9), (3, 5), (4, 4), (3, 6), (2, 10), (4, 5), (2, 12), (3, 7), (5, 5), (2, 14)]
    if quick:
        sizes = sizes[:5]
    for r, c in sizes:
        s = GrundySolver()
        t0 = time.perf_counter()
        try:
            g = s.value(Position.checkerboard(r, c), deadline=t0 + limit)
            print(f"{r}x{c} checkerboard: value {g}, {s.searched:,} component values, "
                  f"{time.perf_counter() - t0:.2f} s")
        except GrundyTimeout:
            print(f"{r}x{c} checkerboard: not finished in {limit:.0f} s "
                  f"({s.searched:,} component values)")


def opponent(repeat: int) -> None:
    for text in ("xoxoxoxoxoxoxoxoxoxo", "xoxo/oxox/xoxo/oxox"):
        p = Position.from_string(text)
        s = _median(lambda p=p: choose_move(p), repeat)
        print(f"choose_move on {text}: {s * 1000:.1f} ms (median of {repeat}, warm cache)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=120.0,
                    help="seconds allowed for each checkerboard")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="the small cases only")
    args = ap.parse_args()
    impartial_files()  # no data: fail at once
    GrundySolver().value(Position.from_string("xo/ox"))     # compile / load the kernel
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    mcgs_files(args.repeat)
    rows(args.repeat, args.quick)
    checkerboards(args.limit, args.quick)
    opponent(args.repeat)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
