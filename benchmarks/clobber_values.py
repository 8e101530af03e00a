"""Clobber values: the (xxo)^n conjecture pushed as far as a time budget allows, and our
canonical values timed against pycgt (when installed) on the 3x4, 3x5 and 4x4
checkerboards and on random 4x4 positions.

The checkerboards are timed cold: our part cache and the cgt tables are cleared before
each board, and so are pycgt's caches. The random positions are one batch with the caches
cleared once before it (both sides reuse parts from one position to the next). The
machine is shared, so figures are noisy; each board is timed once (pycgt's are long),
the conjecture's n in one warm run (each n reuses the parts of the smaller ones, which is
how the push works).

    .venv/bin/python benchmarks/clobber_values.py                       # everything
    .venv/bin/python benchmarks/clobber_values.py --budget 60 --no-pycgt
    .venv/bin/python benchmarks/clobber_values.py --budget 0 --random 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from clobbermania.cgt import Game, clear_caches
from clobbermania.clobber.values import ValueTimeout, clear_cache, clobber_value
from clobbermania.stones import Position


def conjectured(n: int) -> Game:
    return Game("^") * ((n + 1) // 2)


def push_conjecture(budget: float) -> None:
    """(xxo)^n = floor((n+1)/2).^ for n = 1, 2, ... until the budget runs out."""
    print(f"(xxo)^n = floor((n+1)/2).^, budget {budget:g} s")
    clear_cache()
    t0 = time.perf_counter()
    n = 0
    while True:
        left = budget - (time.perf_counter() - t0)
        if left <= 0:
            break
        t = time.perf_counter()
        try:
            v = clobber_value(Position.from_string("xxo" * (n + 1)), time_limit=left)
        except ValueTimeout:
            break
        n += 1
        ok = v is conjectured(n)
        dt = time.perf_counter() - t
        if n % 5 == 0 or not ok or dt > 5:
            print(f"  n = {n:3d}  {str(v):6s} {'holds' if ok else 'FAILS'}  {dt:8.2f} s  "
                  f"(total {time.perf_counter() - t0:.1f} s)", flush=True)
        if not ok:
            print(f"  COUNTEREXAMPLE at n = {n}: {v}")
            break
    print(f"  largest n checked: {n} in {time.perf_counter() - t0:.1f} s\n", flush=True)


def _clear_pycgt() -> None:
    import pycgt
    import pycgt.rulesets.clobber

    mods = [m for name, m in sys.modules.items() if name.startswith("pycgt") and m]
    for mod in mods:
        for obj in vars(mod).values():
            if hasattr(obj, "cache_clear"):
                obj.cache_clear()
    del pycgt


def ours(text: str, cold: bool = True) -> tuple[Game, float]:
    if cold:
        clear_cache()
        clear_caches()
    t = time.perf_counter()
    v = clobber_value(Position.from_string(text))
    return v, time.perf_counter() - t


def theirs(text: str, cold: bool = True):
    from pycgt.rulesets import clobber as pc

    if cold:
        _clear_pycgt()
    t = time.perf_counter()
    v = pc.value(pc.board(text.replace("/", "|")))
    return v, time.perf_counter() - t


def agree(ours_value: Game, their_value) -> str:
    from pycgt import outcome, render

    text = render(their_value)
    try:
        return "=" if Game(text) is ours_value else f"DIFFER ({text})"
    except Exception:  # pycgt's notation is not always CGSuite's: compare outcomes
        o = str(outcome(their_value)).split(".")[-1][:1]
        return f"outcome {'=' if o == ours_value.outcome else 'DIFFERS'} ({text})"


def compare(random_count: int, with_pycgt: bool, seed: int) -> None:
    try:
        import pycgt
        version = getattr(pycgt, "__version__", None)
        if version is None:
            from importlib.metadata import version as _v
            version = _v("pycgt")
    except ImportError:
        with_pycgt = False
        version = None
    label = f"pycgt {version}" if with_pycgt else "pycgt not run"
    print(f"values: ours vs {label}")
    boards = [("3x4 checkerboard", Position.checkerboard(3, 4).text()),
              ("3x5 checkerboard", Position.checkerboard(3, 5).text()),
              ("4x4 checkerboard", Position.checkerboard(4, 4).text())]
    for name, text in boards:
        v, t = ours(text)
        line = f"  {name:18s} ours {t:8.3f} s  value {v}"
        if with_pycgt:
            pv, pt = theirs(text)
            line += f"   pycgt {pt:8.2f} s  ratio {pt / t:7.1f}x  {agree(v, pv)}"
        print(line, flush=True)
    if random_count:
        rng = random.Random(seed)
        ts, ps, same = [], [], 0
        # one batch, caches cleared once before it (each side keeps its part cache from
        # one position to the next, as a session computing many values would)
        clear_cache()
        clear_caches()
        if with_pycgt:
            _clear_pycgt()
        for _ in range(random_count):
            text = "/".join("".join(rng.choice("xo") for _ in range(4)) for _ in range(4))
            v, t = ours(text, cold=False)
            ts.append(t)
            if with_pycgt:
                pv, pt = theirs(text, cold=False)
                ps.append(pt)
                same += agree(v, pv).startswith(("=", "outcome ="))
        line = (f"  {random_count} random full 4x4 (seed {seed}, one warm batch): ours median "
                f"{statistics.median(ts):.3f} s, max {max(ts):.3f} s, total {sum(ts):.2f} s")
        if with_pycgt:
            ratios = [p / t for p, t in zip(ps, ts, strict=True)]
            line += (f"; pycgt median {statistics.median(ps):.2f} s, total {sum(ps):.1f} s; "
                     f"ratio median {statistics.median(ratios):.1f}x, min {min(ratios):.1f}x; "
                     f"agree on {same}/{random_count}")
        print(line, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=300.0,
                    help="seconds for the (xxo)^n push (0: skip)")
    ap.add_argument("--random", type=int, default=50, help="random 4x4 positions")
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--no-pycgt", action="store_true", help="time ours alone")
    args = ap.parse_args()
    clobber_value(Position.from_string("xo"))   # compile / load the numba kernels
    if args.budget > 0:
        push_conjecture(args.budget)
    compare(args.random, not args.no_pycgt, args.seed)


if __name__ == "__main__":
    main()
