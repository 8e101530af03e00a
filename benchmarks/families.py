"""Families P^n of impartial Clobber through shapes: timings, for BENCHMARKS.md.

Prints:
  * seconds for (ox)^n to n = 10,000 and 20,000 (median of --repeat runs), and one run to
    --big (default 100,000; the issue's target is 10 minutes on the 2-core machine), with
    the largest value, the losing share and the last losing n;
  * seconds for (xxo)^n and (ooxx)^n to n = 10,000;
  * seconds for the (ooxx)^n proof.

The machine is shared: figures taken while other jobs run are noisy (the load average is
printed with them).

    python benchmarks/families.py [--big 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from clobbermania.clobber.families import family, family_values, ooxx_proof


def _median_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    family_values("ox", 10)                                   # compile / load the kernel
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for pattern, n in (("ox", 10_000), ("ox", 20_000), ("xxo", 10_000), ("ooxx", 10_000)):
        s = _median_seconds(lambda p=pattern, k=n: family_values(p, k), args.repeat)
        print(f"({pattern})^n to n = {n:,} ({n * len(pattern):,} stones): {s:.2f} s "
              f"(median of {args.repeat})")
    t0 = time.perf_counter()
    proof = ooxx_proof()
    print(f"(ooxx)^n = 3 proof: {'holds' if proof.holds else 'FAILED'}, "
          f"{time.perf_counter() - t0:.2f} s")
    if args.big:
        t0 = time.perf_counter()
        r = family("ox", args.big)
        s = time.perf_counter() - t0
        losing = [i + 1 for i, v in enumerate(r.values) if v == 0]
        print(f"(ox)^n to n = {args.big:,}: {s:.1f} s (one run), largest value "
              f"{max(r.values)}, losing share {r.losing_share:.3f} % ({len(losing)} n), last "
              f"losing n = {losing[-1] if losing else None}, period {r.period}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
