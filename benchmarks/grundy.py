"""Impartial Clobber: the row database build, lookups, and the (ox)^n family, timed.

Prints, for BENCHMARKS.md:
  * seconds to build the row database from nothing to 27 stones (median of --repeat
    runs) and to 30 stones (one run), each in its own process, with its peak memory
    (ru_maxrss of that process);
  * a projection for 32 stones (8.6e9 rows) from the last lengths built, and with
    --run-32 the build itself (4 GiB of memory, minutes);
  * row lookups per second: vectorised (``RowDatabase.lookups``) and scalar
    (``value_of_index``, ``value``), random rows of 27 stones;
  * seconds for ``row_statistics`` (value distribution and losing shares) over every
    row of the long build, and of the 32-stone build with --run-32;
  * the nim values of (ox)^n for n up to 100,000 (``families.family_values``), unless
    --skip-family.

The machine may be shared: figures taken while other jobs run are noisy, hence medians.

    python benchmarks/grundy.py [--repeat 3] [--max 30] [--run-32] [--skip-family]
                                [--family-n 100000] [--family-only] [--workdir DIR]
                                [--jobs J]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from clobbermania.clobber.rowdb import RowDatabase

BUILD = """
import json, sys, time
from clobbermania.clobber.rowdb import build_database
t = time.perf_counter()
db = build_database(sys.argv[1], max_stones=int(sys.argv[2]), jobs=int(sys.argv[3]))
r = db.build_report
print(json.dumps({"seconds": time.perf_counter() - t, "built": r.built,
                  "by_length": {str(k): v for k, v in r.seconds_by_length.items()}}))
"""


def timed_build(db_dir: Path, stones: int, jobs: int) -> dict:
    """Build in a fresh process (its own peak memory); the result and ru_maxrss in GiB."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "src"))
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", BUILD, str(db_dir), str(stones), str(jobs)],
                            stdout=subprocess.PIPE, env=env)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"build to {stones} stones failed (status {status})")
    res = json.loads(out)
    res["wall"] = time.perf_counter() - t0
    res["peak_gib"] = usage.ru_maxrss * 1024 / 2**30
    return res


def project(by_length: dict[str, float], target: int) -> tuple[float, float]:
    """Seconds for lengths last+1..target, scaling the last length by the ratio of its
    time to the one before (>= 2: rows double) -- and the plain doubling estimate."""
    lengths = sorted(int(k) for k in by_length)
    last, prev = by_length[str(lengths[-1])], by_length[str(lengths[-2])]
    ratio = max(2.0, last / prev)
    ratio_est = doubling = 0.0
    t_r = t_d = last
    for _ in range(lengths[-1] + 1, target + 1):
        t_r *= ratio
        t_d *= 2
        ratio_est += t_r
        doubling += t_d
    return ratio_est, doubling


def timed_stats(db_dir: Path) -> tuple[float, int]:
    """Seconds for ``row_statistics`` over every row of the database in ``db_dir``, and
    the number of rows it counted."""
    from clobbermania.clobber.rowdb import row_statistics

    t = time.perf_counter()
    stats = row_statistics(RowDatabase.open(db_dir))
    return time.perf_counter() - t, stats.rows


def family(args, report) -> None:
    """The (ox)^n figure, from families.family_values (helper module of issue 4)."""
    try:
        from clobbermania.clobber.families import family_values
    except ImportError:
        report(f"(ox)^n to n = {args.family_n:,}", "not available (no families module)")
        return
    family_values("ox", 50)
    t = time.perf_counter()
    values = family_values("ox", args.family_n)
    report(f"(ox)^n to n = {args.family_n:,}",
           f"{time.perf_counter() - t:.1f} s  ({values.count(0)} losing n)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max", type=int, default=30, help="the long build (default 30)")
    ap.add_argument("--run-32", action="store_true", help="also build to 32 stones")
    ap.add_argument("--skip-family", action="store_true")
    ap.add_argument("--family-only", action="store_true", help="only the (ox)^n figure")
    ap.add_argument("--family-n", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--workdir", type=Path, help="where to build (default: a temp dir)")
    args = ap.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="grundy-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, str]] = []

    def report(name: str, value: str) -> None:
        rows.append((name, value))
        print(f"{name:<48} {value}", flush=True)

    if args.family_only:
        family(args, report)
        return
    # -- build to 27, median of --repeat fresh builds
    runs = []
    for i in range(args.repeat):
        d = work / f"b27-{i}"
        shutil.rmtree(d, ignore_errors=True)
        runs.append(timed_build(d, 27, args.jobs))
        if i:
            shutil.rmtree(d)
    secs = [r["seconds"] for r in runs]
    report("build 1..27 stones (268M rows), median",
           f"{statistics.median(secs):.1f} s  (runs {', '.join(f'{s:.1f}' for s in secs)}; "
           f"peak {max(r['peak_gib'] for r in runs):.2f} GiB)")
    db27 = work / "b27-0"

    # -- lookups on the 27-stone tables
    db = RowDatabase.open(db27)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, 1 << 27, 10_000_000)
    db.lookups(27, idx[:1000])
    times = []
    for _ in range(3):
        t = time.perf_counter()
        db.lookups(27, idx)
        times.append(time.perf_counter() - t)
    report("lookups, vectorised (random 27-stone rows)",
           f"{idx.size / statistics.median(times):.3g} /s")
    few = idx[:200_000].tolist()
    t = time.perf_counter()
    for i in few:
        db.value_of_index(27, i)
    report("lookups, scalar value_of_index", f"{len(few) / (time.perf_counter() - t):.3g} /s")
    texts = ["".join("x" if i >> j & 1 else "o" for j in range(27)) for i in few[:50_000]]
    t = time.perf_counter()
    for s in texts:
        db.value(s)
    report("lookups, scalar value(row text)", f"{len(texts) / (time.perf_counter() - t):.3g} /s")
    del db

    # -- the long build
    d = work / f"b{args.max}"
    shutil.rmtree(d, ignore_errors=True)
    big = timed_build(d, args.max, args.jobs)
    last = ", ".join(f"{k}: {big['by_length'][k]:.1f} s"
                     for k in sorted(big["by_length"], key=int)[-3:])
    report(f"build 1..{args.max} stones ({2 ** (args.max + 1) - 2:.3g} rows)",
           f"{big['seconds']:.1f} s  (peak {big['peak_gib']:.2f} GiB; {last})")
    secs, n = timed_stats(d)
    report(f"stats over all {n:.3g} rows (1..{args.max} stones)", f"{secs:.1f} s")
    if args.max < 32:
        ratio_est, doubling = project(big["by_length"], 32)
        report("projection 1..32 stones (8.6e9 rows)",
               f"{(big['seconds'] + ratio_est) / 60:.1f} min with the last growth ratio, "
               f"{(big['seconds'] + doubling) / 60:.1f} min if time doubles per length; "
               "4 GiB of tables in memory")
    if args.run_32:
        # resume from the long build: lengths up to --max are checked, not recomputed
        r32 = timed_build(d, 32, args.jobs)
        total = big["seconds"] + r32["seconds"]
        last = ", ".join(f"{k}: {r32['by_length'][k]:.0f} s"
                         for k in sorted(r32["by_length"], key=int))
        report("build 1..32 stones (8.6e9 rows)",
               f"{total / 60:.1f} min  ({args.max + 1}..32 resumed: {r32['seconds']:.0f} s, "
               f"{last}; peak {r32['peak_gib']:.2f} GiB)")
        secs, n = timed_stats(d)
        report(f"stats over all {n:.3g} rows (1..32 stones)", f"{secs:.1f} s")
    shutil.rmtree(work / "b27-0", ignore_errors=True)
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)

    if not args.skip_family:
        family(args, report)
    print()
    print("| figure | value |")
    print("|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
