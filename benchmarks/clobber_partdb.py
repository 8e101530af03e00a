"""The Clobber part database (clobbermania.clobber.partdb): build figures and its effect.

    .venv/bin/python benchmarks/clobber_partdb.py                  # build to 10, all figures
    .venv/bin/python benchmarks/clobber_partdb.py --max-squares 9 --sample 50

Sections (each prints its figures as it goes):

1. the build from scratch to ``--max-squares`` (one process, ``--jobs 1``) in a temporary
   directory: per size the parts, the distinct games stored, CPU seconds (this process;
   the first size includes numba's compilation when its cache is cold), bytes, and the
   peak memory of the build;
2. the check: ``--sample`` random parts of every size valued again by values.py with no
   database (caches emptied), against the database (value and outcome);
3. the effect: CPU seconds of a few workloads, each in a fresh process, with no database
   (``off``), the shipped one of 8 squares (``8``), and the one just built (``N``):
   ``clobber value`` of checkerboards, MCGS's ``random_8x_3x3`` file (sums of eight 3x3
   boards, 72 stones: the sum search values the small parts) and ``clobber solve`` of the
   4x5 checkerboard (a bitboard proof search; it values the parts that split off when
   the search of the tree asks for them);
4. the answer path: random parts of the two largest sizes valued one by one by
   ``values.clobber_value``, with no database and with it, and all at once by
   ``PartDatabase.board_value_ids`` (microseconds a part, games built on the way).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clobbermania.clobber import _partdb_kernels as pk
from clobbermania.clobber import partdb, values
from clobbermania.stones import Position

MCGS = Path(__file__).resolve().parents[1] / "tests" / "data" / "mcgs"

#: The child of section 3: one workload, the database set by its mode, CPU time printed.
CHILD = r"""
import json, sys, time
from clobbermania.clobber import values
mode, kind, arg = sys.argv[1:4]
if mode == "off":
    values.use_part_database(None)
t0 = time.process_time()
from clobbermania.stones import Position
if kind == "value":
    r, c = map(int, arg.split("x"))
    out = str(values.clobber_value(Position.checkerboard(r, c)))
elif kind == "mcgs":
    from clobbermania.clobber.mcgs import parse_test_file, run_case
    res = [run_case(case) for case in parse_test_file(arg)]
    out = f"{sum(r.status == 'pass' for r in res)}/{len(res)} pass"
else:
    from clobbermania.clobber.search import solve_outcome
    r, c = map(int, arg.split("x"))
    out = solve_outcome(Position.checkerboard(r, c), "black").winner
cpu = time.process_time() - t0
db = values.part_database() if mode != "off" else None
print(json.dumps({"cpu": cpu, "out": out, "stats": values.part_database_stats(),
                  "db": None if db is None else db.max_squares}))
"""


def _text(h: int, w: int, b: int, x: int) -> str:
    return "/".join("".join("x" if b >> (r * w + c) & 1 else "o" if x >> (r * w + c) & 1
                            else "." for c in range(w)) for r in range(h))


def build(db_dir: Path, max_squares: int) -> None:
    print(f"== 1. build to {max_squares} squares (jobs 1) in {db_dir}")
    values.use_part_database(None)
    t0 = time.process_time()
    rep = partdb.build_part_database(db_dir, max_squares=max_squares, jobs=1)
    cpu = time.process_time() - t0
    m = json.loads((db_dir / "manifest.json").read_text())
    total_parts = total_bytes = 0
    print(f"{'squares':>7} {'parts':>10} {'games':>7} {'CPU s':>7} {'bytes':>11} "
          f"{'parts <= n':>11} {'bytes <= n':>11}")
    for e in m["sizes"]:
        n = e["squares"]
        size = sum(f["bytes"] for f in e["files"].values())
        total_parts += e["parts"]
        total_bytes += size
        print(f"{n:>7} {e['parts']:>10,} {e['games']:>7,} {rep.cpu_seconds_by_size[n]:>7.2f} "
              f"{size:>11,} {total_parts:>11,} {total_bytes:>11,}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"build: {cpu:.1f} CPU s in all, peak memory {peak:,.0f} MB "
          f"(load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def check(db_dir: Path, sample: int) -> None:
    print(f"== 2. {sample} random parts of each size against values.py without a database")
    db = partdb.PartDatabase.open(db_dir)
    values.use_part_database(None)
    values.clear_cache()
    rng = random.Random(2026)
    checked = differ = 0
    for n in range(2, db.max_squares + 1):
        keys = db.keys(n)
        t0 = time.process_time()
        for i in rng.sample(range(len(keys)), min(sample, len(keys))):
            text = _text(*(int(v) for v in pk.unpack(keys[i])))
            g = values.clobber_value(Position.from_string(text))
            checked += 1
            if db.value(int(keys[i])) is not g or db.outcome(text) != g.outcome:
                differ += 1
                print(f"  DIFFERS: {text}: database {db.value(int(keys[i]))}, search {g}")
        print(f"  {n} squares: {min(sample, len(keys))} parts checked "
              f"({time.process_time() - t0:.2f} CPU s)")
    print(f"checked {checked} parts: {differ} differ")


def effect(db_dir: Path, repeat: int) -> None:
    print("== 3. effect (CPU s of the workload in a fresh process; median of "
          f"{repeat}; load {os.getloadavg()[0]:.1f})")
    built = partdb.PartDatabase.open(db_dir).max_squares
    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as cache:
        (Path(cache) / "clobbermania").mkdir()
        (Path(cache) / "clobbermania" / "parts").symlink_to(db_dir.resolve())
        modes = [("off", empty), ("8", empty), (str(built), cache)]
        work = [("value", "3x5"), ("value", "4x4"), ("value", "3x6"),
                ("mcgs", str(MCGS / "seg_tests__clobber__random_8x_3x3.test")),
                ("solve", "4x5")]
        for kind, arg in work:
            label = f"{kind} {Path(arg).stem if kind == 'mcgs' else arg}"
            row = []
            for mode, xdg in modes:
                runs = []
                for _ in range(repeat):
                    env = dict(os.environ, XDG_CACHE_HOME=xdg)
                    out = subprocess.run([sys.executable, "-c", CHILD, mode if mode == "off"
                                          else "on", kind, arg], env=env, check=True,
                                         capture_output=True, text=True).stdout
                    runs.append(json.loads(out.strip().splitlines()[-1]))
                runs.sort(key=lambda r: r["cpu"])
                r = runs[len(runs) // 2]
                row.append(f"{mode}: {r['cpu']:.2f} s")
                answer = r["out"]
                extra = r["stats"]
            print(f"  {label:<40} {answer!s:<10} " + "   ".join(row)
                  + f"   (with {built}: {extra['hits']:,} hits, {extra['loaded']:,} loaded)")


def hits(db_dir: Path, count: int) -> None:
    print(f"== 4. {count} random parts of each of the database's two largest sizes valued "
          "one by one (clobber_value), without and with the database, each in a fresh "
          "process")
    for mode in ("off", "on", "batch"):
        out = subprocess.run([sys.executable, "-c", HITS_CHILD, mode, str(db_dir), str(count)],
                             check=True, capture_output=True, text=True).stdout
        print("\n".join("  " + line for line in out.strip().splitlines()))


#: The child of section 4.
HITS_CHILD = r"""
import random, sys, time
from clobbermania.clobber import _partdb_kernels as pk, partdb, values
from clobbermania.stones import Position
mode, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = partdb.PartDatabase.open(path)
values.use_part_database(None if mode == "off" else db)
rng = random.Random(1)
def text(h, w, b, x):
    return "/".join("".join("x" if b >> (r * w + c) & 1 else "o" if x >> (r * w + c) & 1
                            else "." for c in range(w)) for r in range(h))
ps = []
for n in (db.max_squares - 1, db.max_squares):
    keys = db.keys(n)
    for i in rng.sample(range(len(keys)), count):
        ps.append(Position.from_string(text(*(int(v) for v in pk.unpack(keys[i])))))
values.clobber_value(Position.from_string("xo"))      # compiled and opened before the clock
if mode == "batch":     # PartDatabase.board_value_ids: the parts as masks on a 6 x 10 board
    import numpy as np
    masks = np.array([[sum(1 << (k // p.board.cols * 10 + k % p.board.cols)
                           for k in range(p.board.n) if m >> k & 1)
                       for m in (p.black, p.white)] for p in ps])
    db.board_value_ids(6, 10, masks[:1, 0], masks[:1, 1])
    t = time.process_time()
    ids = db.board_value_ids(6, 10, masks[:, 0], masks[:, 1])
    dt = time.process_time() - t
    assert (ids >= 0).all()
    t = time.process_time()
    db.board_value_ids(6, 10, masks[:, 0], masks[:, 1])
    print(f"batch again (games built): {1e6 * (time.process_time() - t) / len(ps):.1f} us a part")
else:
    t = time.process_time()
    for p in ps:
        values.clobber_value(p)
    dt = time.process_time() - t
print(f"{mode}: {len(ps)} parts of {db.max_squares - 1}-{db.max_squares} squares, "
      f"{dt:.2f} CPU s, {1e6 * dt / len(ps):.0f} us a part; {values.part_database_stats()}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-squares", type=int, default=10)
    ap.add_argument("--sample", type=int, default=30, help="parts checked per size")
    ap.add_argument("--repeat", type=int, default=1, help="runs per effect figure")
    ap.add_argument("--db", type=Path, help="use this built database (skip section 1)")
    ap.add_argument("--skip", nargs="*", default=[], choices=["check", "effect", "hits"])
    ap.add_argument("--hits", type=int, default=1000, help="parts a size in section 4")
    args = ap.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        db_dir = args.db or Path(tmp) / "parts"
        if args.db is None:
            build(db_dir, args.max_squares)
        if "check" not in args.skip:
            check(db_dir, args.sample)
        if "effect" not in args.skip:
            effect(db_dir, args.repeat)
        if "hits" not in args.skip:
            hits(db_dir, args.hits)


if __name__ == "__main__":
    main()
