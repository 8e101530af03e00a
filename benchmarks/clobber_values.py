"""Clobber values: the (xxo)^n conjecture pushed as far as a time budget allows, and our
canonical values timed against pycgt (when installed) on the 3x4, 3x5 and 4x4
checkerboards and on random 4x4 positions.

A random 4x4 position (issue 5: "pycgt 2-9 s each") is drawn as: ``--holes`` squares
(default 2) chosen uniformly at random are empty, every other square is x or o with
probability 1/2 each, from ``random.Random(--seed)``. Full random 4x4 boards (no holes)
take pycgt minutes each, so they are timed for us alone (``--full N``).

The checkerboards are timed cold: our part cache and the cgt tables are cleared before
each board, and so are pycgt's caches. The random positions are one batch with the caches
cleared once before it (both sides reuse parts from one position to the next). Both wall
time and CPU time (``time.process_time``) are printed, with ratios of each: on a shared
machine the CPU time is the steadier figure. Each board is timed once (pycgt's are long),
the conjecture's n in one warm run (each n reuses the parts of the smaller ones, which is
how the push works).

    .venv/bin/python benchmarks/clobber_values.py                       # everything
    .venv/bin/python benchmarks/clobber_values.py --budget 60 --no-pycgt
    .venv/bin/python benchmarks/clobber_values.py --budget 0 --random 10 --full 0
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


def warm_kernels() -> None:
    """Load the numba kernels that a small board may not reach (the growth of the memo
    tables), so that no timing below includes loading them."""
    import numpy as np

    from clobbermania.cgt import game as core

    keys, vals = np.full(8, -1, np.int64), np.zeros(8, np.int8)
    core._k.rehash(keys, vals, 16)
    core._k.sum_rehash(np.full(8, -1, np.int64), np.zeros(8, np.int64), 16)


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


def ours(text: str, cold: bool = True) -> tuple[Game, float, float]:
    """(value, wall seconds, CPU seconds)."""
    if cold:
        clear_cache()
        clear_caches()
    t, c = time.perf_counter(), time.process_time()
    v = clobber_value(Position.from_string(text))
    return v, time.perf_counter() - t, time.process_time() - c


def theirs(text: str, cold: bool = True):
    from pycgt.rulesets import clobber as pc

    if cold:
        _clear_pycgt()
    t, c = time.perf_counter(), time.process_time()
    v = pc.value(pc.board(text.replace("/", "|")))
    return v, time.perf_counter() - t, time.process_time() - c


def random_board(rng: random.Random, holes: int) -> str:
    cells = [rng.choice("xo") for _ in range(16)]
    for i in rng.sample(range(16), holes):
        cells[i] = "."
    return "/".join("".join(cells[4 * r:4 * r + 4]) for r in range(4))


def from_pycgt(g, memo: dict) -> Game:
    """pycgt's game as ours, rebuilt from its options (exact, whatever its notation)."""
    r = memo.get(id(g))
    if r is None:
        r = Game.from_options([from_pycgt(x, memo) for x in g.left],
                              [from_pycgt(x, memo) for x in g.right])
        memo[id(g)] = r
    return r


def agree(ours_value: Game, their_value) -> str:
    """'=' when pycgt's value, rebuilt as our game from its options, is ours (pycgt prints
    large values with its own Tiny(...)/Miny(...) forms, which CGSuite syntax lacks)."""
    from pycgt import render

    if from_pycgt(their_value, {}) is ours_value:
        return "="
    return f"DIFFER ({render(their_value)[:200]})"


def compare(random_count: int, with_pycgt: bool, seed: int, holes: int, full: int) -> None:
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
    print(f"values: ours vs {label} (wall s / CPU s)")
    boards = [("3x4 checkerboard", Position.checkerboard(3, 4).text()),
              ("3x5 checkerboard", Position.checkerboard(3, 5).text()),
              ("4x4 checkerboard", Position.checkerboard(4, 4).text())]
    for name, text in boards:
        v, t, c = ours(text)
        line = f"  {name:18s} ours {t:7.3f} / {c:7.3f}  value {v}"
        if with_pycgt:
            pv, pt, pc = theirs(text)
            line += (f"   pycgt {pt:7.2f} / {pc:7.2f}  ratio {pt / t:6.1f}x wall, "
                     f"{pc / c:6.1f}x CPU  {agree(v, pv)}")
        print(line, flush=True)
    if random_count:
        rng = random.Random(seed)
        ts, cs, ps, pcs, same = [], [], [], [], 0
        # one batch, caches cleared once before it (each side keeps its part cache from
        # one position to the next, as a session computing many values would)
        clear_cache()
        clear_caches()
        if with_pycgt:
            _clear_pycgt()
        for _ in range(random_count):
            text = random_board(rng, holes)
            v, t, c = ours(text, cold=False)
            ts.append(t)
            cs.append(c)
            if with_pycgt:
                pv, pt, pc = theirs(text, cold=False)
                ps.append(pt)
                pcs.append(pc)
                same += agree(v, pv) == "="
        print(f"  {random_count} random 4x4 with {holes} holes (seed {seed}, one warm batch):")
        print(f"    ours  total {sum(ts):8.2f} / {sum(cs):8.2f} s, median "
              f"{statistics.median(ts):.3f} / {statistics.median(cs):.3f} s, "
              f"max {max(ts):.3f} / {max(cs):.3f} s", flush=True)
        if with_pycgt:
            print(f"    pycgt total {sum(ps):8.1f} / {sum(pcs):8.1f} s, median "
                  f"{statistics.median(ps):.2f} / {statistics.median(pcs):.2f} s, "
                  f"max {max(ps):.2f} / {max(pcs):.2f} s")
            print(f"    ratio of totals {sum(ps) / sum(ts):.1f}x wall, "
                  f"{sum(pcs) / sum(cs):.1f}x CPU; values agree on {same}/{random_count}",
                  flush=True)
    if full:
        rng = random.Random(seed + 1)
        ws, cs = [], []
        for _ in range(full):
            text = random_board(rng, 0)
            _, t, c = ours(text)           # cold: each from empty caches
            ws.append(t)
            cs.append(c)
        print(f"  {full} full random 4x4 (no holes, seed {seed + 1}, each cold), ours alone: "
              f"median {statistics.median(ws):.2f} / {statistics.median(cs):.2f} s, "
              f"max {max(ws):.2f} / {max(cs):.2f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=300.0,
                    help="seconds for the (xxo)^n push (0: skip)")
    ap.add_argument("--random", type=int, default=50, help="random 4x4 positions")
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--holes", type=int, default=2, help="empty squares per random 4x4")
    ap.add_argument("--full", type=int, default=5,
                    help="full random 4x4 boards timed for us alone")
    ap.add_argument("--no-pycgt", action="store_true", help="time ours alone")
    args = ap.parse_args()
    # load the numba kernels (from numba's cache, or compile them) before any timing: a
    # small board that goes through every kernel; the caches are cleared before each timing
    clobber_value(Position.checkerboard(3, 3))
    (clobber_value(Position.from_string("xxo/oox/xo.")) + Game("^*")).compare("*")
    warm_kernels()
    if args.budget > 0:
        push_conjecture(args.budget)
    compare(args.random, not args.no_pycgt, args.seed, args.holes, args.full)


if __name__ == "__main__":
    main()
