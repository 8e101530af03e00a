"""Two-player Clickomania: every one-column puzzle over two colours, both variants.

Prints Markdown: the table by number of blocks (Grundy values of the impartial game;
outcomes, distinct canonical values and their kinds in the partizan game), every partizan
value met with its count, the patterns checked, the closed forms of the long-run family,
full two-colour rectangles, and the time of multi-column searches on seeded random boards.

    .venv/bin/python benchmarks/clickomania_twoplayer.py [--max-blocks 12] [--quick]

Timings are wall-clock on whatever else the machine is running (medians quoted).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections import Counter

from clobbermania.clickomania.rules import Board
from clobbermania.clickomania.twoplayer import (
    TwoPlayerTimeout,
    clear_cache,
    column_statistics,
    column_values,
    grundy_value,
    long_runs_proof,
    partizan_value,
)


def kind(g) -> str:
    if g.is_number:
        return "number"
    t = g.nus
    if t is not None and t[1] == 0 and t[2] == 1:
        return "number*"
    return "other"


def column_table(max_blocks: int) -> dict:
    grundy_value("0011/1100")          # the kernels' compile (or cache load) is not timed
    partizan_value("0011/1100")
    t0 = time.perf_counter()
    vals = column_values(max_blocks)
    seconds = time.perf_counter() - t0
    rows = column_statistics(max_blocks, vals)
    gmax = max(max(r["grundy"]) for r in rows)
    print(f"## One column, two colours, 1..{max_blocks} blocks "
          f"({len(vals):,} puzzles, {seconds:.1f} s for both variants)\n")
    print("Grundy: how many columns of n blocks have each Grundy value (impartial game). "
          "Outcome: partizan outcome classes (Left owns colour 0). Values: distinct "
          "canonical values; num / num* / other: how many of them are numbers, a number "
          "plus *, anything else.\n")
    heads = [f"*{g}" if g else "0" for g in range(gmax + 1)]
    heads[1:2] = ["*"] if gmax >= 1 else []
    print("| n | columns | " + " | ".join(f"G={h}" for h in heads)
          + " | L | R | N | P | values | num | num* | other | largest | temperatures |")
    print("|" + "---|" * (2 + len(heads) + 4 + 6))
    for r in rows:
        gs = " | ".join(str(r["grundy"].get(g, 0)) for g in range(gmax + 1))
        o = r["outcomes"]
        temps = ", ".join(str(t) for t in r["temperatures"])
        print(f"| {r['n']} | {r['count']} | {gs} | {o.get('L', 0)} | {o.get('R', 0)} | "
              f"{o.get('N', 0)} | {o.get('P', 0)} | {r['distinct_values']} | {r['numbers']} | "
              f"{r['number_plus_star']} | {r['other']} | {r['max_value']} | {temps} |")
    print()
    total = Counter()
    for _, v in vals.values():
        total[v] += 1
    order = sorted(total, key=lambda g: (g.nus[0], g.nus[2]) if g.nus else (99, 0))
    print(f"Every partizan value of a column of <= {max_blocks} blocks, with its count "
          "(colour swap pairs x with -x):\n")
    print(", ".join(f"`{g}` {total[g]}" for g in order if not g < 0))
    print()
    return {"vals": vals, "rows": rows}


def patterns(vals: dict, rows: list[dict]) -> None:
    print("## Patterns, checked\n")
    checks = []
    nonnum = [w for w, (_, v) in vals.items() if kind(v) == "other"]
    checks.append(("every partizan value is a number x or x + * (so every temperature is "
                   "<= 0: no column is hot)", not nonnum,
                   f"counterexample {nonnum[0]}" if nonnum else ""))
    first_star = min((w for w, (_, v) in vals.items() if not v.is_number),
                     key=lambda w: (len(w), w), default=None)
    checks.append(("the first value that is not a number", None,
                   f"{first_star} = {vals[first_star][1]}" if first_star else "none"))
    gmax_by_n = {r["n"]: max(r["grundy"]) for r in rows}
    first = {}
    for n, g in gmax_by_n.items():
        first.setdefault(g, n)
    checks.append(("largest Grundy value by length (first length reaching it)", None,
                   ", ".join(f"*{g} at n = {n}" for g, n in sorted(first.items()))))
    longest = max(len(x) for x in vals)
    alt = all(vals[w][0] == 0 and vals[w][1] == 0
              for w in (("01" * longest)[:n] for n in range(1, longest + 1)))
    checks.append(("alternating single blocks 0101...: no move, value 0", alt, ""))
    one_run = all(vals["0" * n][0] == 1 and str(vals["0" * n][1]) == "1"
                  for n in range(2, longest + 1))
    checks.append(("one run 00...0 (n >= 2): Grundy *, value 1", one_run, ""))
    pr = long_runs_proof(12)
    checks.append(("m runs of >= 2 blocks each: Grundy 1, 0, *2 repeating from m = 1 "
                   "(period 3), value 1 at m = 1 then 0, 1/2, *, 1/2* repeating from m = 2 "
                   "(period 4; bottom run of colour 1: negated)", pr["checked"],
                   f"proved by the recursion F(m) from F(m-1), F(m-2): Grundy repeat "
                   f"(start, period) {pr['grundy_period']}, value repeat "
                   f"{pr['value_period']}"))
    print("| statement | holds | detail |")
    print("|---|---|---|")
    for s, ok, d in checks:
        print(f"| {s} | {'-' if ok is None else 'yes' if ok else 'NO'} | {d} |")
    print()


FAMILIES = {"(2,1)^k": (2, 1), "(2,1,1)^k": (2, 1, 1), "(2,2,1)^k": (2, 2, 1),
            "(2,1,2)^k": (2, 1, 2), "(2)^k": (2,)}


def families(kmax: int) -> None:
    print(f"## Families of columns, k = 1..{kmax}\n")
    print("Run lengths from the bottom, colours alternating, the bottom run of colour 0 "
          "(Left's); `(2)^k` is the proved long-run family.\n")
    print("| family | Grundy values | partizan values | seconds |")
    print("|---|---|---|---|")
    for name, runs in FAMILIES.items():
        t0 = time.perf_counter()
        gs, vs = [], []
        for k in range(1, kmax + 1):
            col, c = [], 0
            for n in runs * k:
                col += [c] * n
                c ^= 1
            b = Board.from_columns([col], len(col))
            gs.append(str(grundy_value(b)))
            vs.append(str(partizan_value(b)))
        print(f"| {name} | {', '.join(gs)} | {', '.join(vs)} | "
              f"{time.perf_counter() - t0:.1f} |")
    print()


def rectangles(sizes) -> None:
    print("## Full two-colour rectangles (every colouring)\n")
    print("| rows x cols | boards | numbers | number + * | other | hot (temperature > 0) "
          "| the other values (up to sign) | largest Grundy | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for h, w in sizes:
        t0 = time.perf_counter()
        kinds, hot, gmax, others = Counter(), 0, 0, set()
        for t in itertools.product((0, 1), repeat=h * w):
            b = Board.from_columns([t[i * h:(i + 1) * h] for i in range(w)], h)
            v = partizan_value(b)
            gmax = max(gmax, grundy_value(b))
            kinds[kind(v)] += 1
            hot += v.temperature > 0
            if kind(v) == "other":
                # one of v, -v: the one with the positive mean (or not written negative)
                up = v.mean > 0 or (v.mean == 0 and not str(v).startswith(("v", "-")))
                others.add(v if up else -v)
        print(f"| {h} x {w} | {2 ** (h * w)} | {kinds['number']} | {kinds['number*']} | "
              f"{kinds['other']} | {hot} | "
              f"{', '.join(f'`{g}`' for g in sorted(others, key=str)) or '-'} | {gmax} | "
              f"{time.perf_counter() - t0:.1f} |")
    print()


def random_boards(shapes, count: int, limit: float) -> None:
    print(f"## Random full boards ({count} a size, seeded; each search from an empty cache, "
          f"{limit:g} s limit)\n")
    print("| board | colours | impartial median s | max s | partizan median s | max s | "
          "timed out |")
    print("|---|---|---|---|---|---|---|")
    for h, w, k in shapes:
        rng = random.Random(1000 * h + 10 * w + k)
        ti, tp, out = [], [], 0
        for _ in range(count):
            b = Board.from_columns([[rng.randrange(k) for _ in range(h)] for _ in range(w)],
                                   h)
            for f, acc in ((grundy_value, ti), (partizan_value, tp)):
                clear_cache()
                t0 = time.perf_counter()
                try:
                    f(b, time_limit=limit)
                except TwoPlayerTimeout:
                    out += 1
                acc.append(time.perf_counter() - t0)
        print(f"| {h} x {w} | {k} | {statistics.median(ti):.3f} | {max(ti):.3f} | "
              f"{statistics.median(tp):.3f} | {max(tp):.3f} | {out} |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-blocks", type=int, default=12)
    ap.add_argument("--quick", action="store_true", help="smaller rectangles and boards")
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args()
    data = column_table(args.max_blocks)
    patterns(data["vals"], data["rows"])
    families(8 if args.quick else 12)
    if args.quick:
        rectangles([(2, 2), (2, 3), (3, 3)])
        random_boards([(4, 4, 3), (5, 5, 3)], 5, args.limit)
    else:
        rectangles([(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (2, 6), (3, 4), (4, 3)])
        random_boards([(4, 4, 3), (5, 5, 3), (6, 6, 3), (6, 6, 4), (7, 7, 4)], 20,
                      args.limit)


if __name__ == "__main__":
    main()
