"""Clobber values: the (xxo)^n conjecture pushed as far as a time budget allows, and our
canonical values timed against pycgt (when installed) on the 3x4, 3x5 and 4x4
checkerboards and on random 4x4 positions.

A random 4x4 position (issue 5: "pycgt 2-9 s each") is drawn as: ``--holes`` squares
(default 2) chosen uniformly at random are empty, every other square is x or o with
probability 1/2 each, from ``random.Random(--seed)`` (seed 2005: the 50 positions are
the same in every run). Full random 4x4 boards (no holes) take pycgt minutes each, so
they are timed for us alone (``--full N``).

Every timing of ours is cold and in a fresh process (``--one``): the kernels are loaded
from numba's cache and run once on a 3x3 board, then the position is valued with empty
part caches and a cgt table holding only the few games of that warm-up (a second run in
the same process would find most canonical games already in the table). Each board is
timed ``--repeat`` times (default 5) and the median is printed. pycgt runs in this
process with its caches cleared before each position, once per position (its runs are
long), and a random position gets ``--pycgt-timeout`` seconds (default 120; a timeout is
counted and reported, and the ratio is then a lower bound). Both wall time and CPU time
(``time.process_time``) are printed, with ratios of each: on a shared machine the CPU
time is the steadier figure. Values are checked exactly: pycgt's value is rebuilt as our
game from its options and must be our value. The conjecture's n run in one warm process
(each n reuses the parts of the smaller ones, which is how the push works).

    .venv/bin/python benchmarks/clobber_values.py                       # everything
    .venv/bin/python benchmarks/clobber_values.py --budget 60 --no-pycgt
    .venv/bin/python benchmarks/clobber_values.py --budget 0 --random 10 --full 0
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
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


def ours_here(text: str) -> tuple[Game, float, float]:
    """(value, wall seconds, CPU seconds) in this process, part caches emptied first."""
    clear_cache()
    clear_caches()
    t, c = time.perf_counter(), time.process_time()
    v = clobber_value(Position.from_string(text))
    return v, time.perf_counter() - t, time.process_time() - c


def ours(text: str, repeat: int) -> tuple[Game, float, float]:
    """(value, median wall seconds, median CPU seconds) of ``repeat`` cold runs, each in
    a fresh process (see the module docstring)."""
    walls, cpus, value = [], [], None
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--one", text], check=True,
                             capture_output=True, text=True, env=os.environ).stdout
        r = json.loads(out.splitlines()[-1])
        v = Game(r["value"])
        if value is not None and v is not value:
            raise SystemExit(f"two runs of {text} disagree: {value} and {v}")
        value = v
        walls.append(r["wall"])
        cpus.append(r["cpu"])
    return value, statistics.median(walls), statistics.median(cpus)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def theirs(text: str, timeout: float | None = None):
    """(pycgt's value or None on a timeout, wall seconds, CPU seconds), caches cleared."""
    from pycgt.rulesets import clobber as pc

    _clear_pycgt()
    if timeout:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    t, c = time.perf_counter(), time.process_time()
    try:
        v = pc.value(pc.board(text.replace("/", "|")))
    except _Timeout:
        v = None
    finally:
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
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


def compare(random_count: int, with_pycgt: bool, seed: int, holes: int, full: int,
            repeat: int, timeout: float) -> None:
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
    print(f"values: ours (median of {repeat} cold runs, each in a fresh process) vs {label} "
          "(one cold run); wall s / CPU s")
    boards = [("3x4 checkerboard", Position.checkerboard(3, 4).text()),
              ("3x5 checkerboard", Position.checkerboard(3, 5).text()),
              ("4x4 checkerboard", Position.checkerboard(4, 4).text())]
    for name, text in boards:
        v, t, c = ours(text, repeat)
        line = f"  {name:18s} ours {t:7.3f} / {c:7.3f}  value {v}"
        if with_pycgt:
            pv, pt, pc = theirs(text)
            line += (f"   pycgt {pt:7.2f} / {pc:7.2f}  ratio {pt / t:6.1f}x wall, "
                     f"{pc / c:6.1f}x CPU  {agree(v, pv)}")
        print(line, flush=True)
    if random_count:
        rng = random.Random(seed)
        texts = [random_board(rng, holes) for _ in range(random_count)]
        ts, cs, ps, pcs, same, timeouts, ratios = [], [], [], [], 0, 0, []
        for text in texts:
            v, t, c = ours(text, 1)
            ts.append(t)
            cs.append(c)
            if with_pycgt:
                pv, pt, pc = theirs(text, timeout)
                ps.append(pt)
                pcs.append(pc)
                ratios.append(pc / c)
                if pv is None:
                    timeouts += 1
                else:
                    same += agree(v, pv) == "="
        print(f"  {random_count} random 4x4 with {holes} holes (seed {seed}), each cold "
              "(ours in a fresh process, pycgt's caches cleared):")
        print(f"    ours  total {sum(ts):8.2f} / {sum(cs):8.2f} s, median "
              f"{statistics.median(ts):.3f} / {statistics.median(cs):.3f} s, "
              f"max {max(ts):.3f} / {max(cs):.3f} s", flush=True)
        if with_pycgt:
            print(f"    pycgt total {sum(ps):8.1f} / {sum(pcs):8.1f} s, median "
                  f"{statistics.median(ps):.2f} / {statistics.median(pcs):.2f} s, "
                  f"min {min(ps):.2f} / {min(pcs):.2f} s, max {max(ps):.2f} / {max(pcs):.2f} s"
                  f"; {timeouts} over the {timeout:g} s timeout")
            print(f"    ratio of totals {sum(ps) / sum(ts):.1f}x wall, "
                  f"{sum(pcs) / sum(cs):.1f}x CPU; per position (CPU) min "
                  f"{min(ratios):.1f}x, median {statistics.median(ratios):.1f}x; values "
                  f"agree on {same}/{random_count - timeouts}", flush=True)
    if full:
        rng = random.Random(seed + 1)
        ws, cs = [], []
        for _ in range(full):
            _, t, c = ours(random_board(rng, 0), 1)
            ws.append(t)
            cs.append(c)
        print(f"  {full} full random 4x4 (no holes, seed {seed + 1}, each cold), ours alone: "
              f"median {statistics.median(ws):.2f} / {statistics.median(cs):.2f} s, "
              f"max {max(ws):.2f} / {max(cs):.2f} s", flush=True)


def load_kernels() -> None:
    """Load the numba kernels (from numba's cache, or compile them) before any timing: a
    small board that goes through every kernel, and the growth of the memo tables."""
    clobber_value(Position.checkerboard(3, 3))
    (clobber_value(Position.from_string("xxo/oox/xo.")) + Game("^*")).compare("*")
    warm_kernels()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=300.0,
                    help="seconds for the (xxo)^n push (0: skip)")
    ap.add_argument("--random", type=int, default=50, help="random 4x4 positions")
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--holes", type=int, default=2, help="empty squares per random 4x4")
    ap.add_argument("--full", type=int, default=5,
                    help="full random 4x4 boards timed for us alone")
    ap.add_argument("--repeat", type=int, default=5,
                    help="cold runs of ours per checkerboard (the median is printed)")
    ap.add_argument("--pycgt-timeout", type=float, default=120.0,
                    help="seconds pycgt gets per random position")
    ap.add_argument("--no-pycgt", action="store_true", help="time ours alone")
    ap.add_argument("--one", metavar="BOARD",
                    help="(internal) time one cold value in this process, print JSON")
    args = ap.parse_args()
    load_kernels()
    if args.one:
        v, t, c = ours_here(args.one)
        print(json.dumps({"value": str(v), "wall": t, "cpu": c}))
        return
    if args.budget > 0:
        push_conjecture(args.budget)
    compare(args.random, not args.no_pycgt, args.seed, args.holes, args.full, args.repeat,
            args.pycgt_timeout)


if __name__ == "__main__":
    main()
