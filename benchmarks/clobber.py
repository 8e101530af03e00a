"""Two-player Clobber figures: our solver against OpenSpiel, perft, the MCGS suites,
the 5x6 start, and the (XO)^n first-player-win family.

    .venv/bin/python benchmarks/clobber.py                 # everything but the long runs
    .venv/bin/python benchmarks/clobber.py --openspiel     # + OpenSpiel's alpha_beta_search
    .venv/bin/python benchmarks/clobber.py --five-by-six 600 --xo 120

Sections (each prints its figures as it goes):

1. starts (OpenSpiel's: o on the bottom-left square, o to move): our time to decide the
   outcome (and to list every winning move) on 3x4, 4x4, 3x6, 4x5, 5x5; with
   ``--openspiel`` the same run of OpenSpiel's ``alpha_beta_search`` (python minimax
   module, open_spiel 2.0.2) on 3x4, 4x4, 3x6 and the ratio;
2. perft of OpenSpiel's 8x8 start to depth 4 (oracle 112, 11848, 1182276, 111070552);
3. the MCGS suites (``tests/data/mcgs`` in the repo): per file passed / failed / timeouts and our
   total time, next to the total of the times MCGS recorded in the files' comments;
4. ``--five-by-six S``: the 5x6 start with a limit of S seconds (first moves refuted in
   rounds of growing node budgets: the count refuted is the bound reached);
5. ``--xo S``: (XO)^n for n = 1, 2, ... with both first players, S seconds per n: the
   largest n decided and its time (theorem: a first-player win exactly when n != 3).

Timings on a shared 2-core machine are noisy; medians of ``--repeat`` runs are printed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from clobbermania.clobber import search
from clobbermania.clobber.mcgs import parse_test_file, run_case
from clobbermania.clobber.openspiel import openspiel_start, to_openspiel
from clobbermania.stones import WHITE, Position

#: The MCGS test files shipped in the repository (tests/data/mcgs, MIT; see its SOURCE.md).
MCGS = Path(__file__).resolve().parents[1] / "tests" / "data" / "mcgs"


def mcgs_files(pattern: str = "*.test") -> list[Path]:
    """The MCGS files matching ``pattern``; exit 2 with one sentence when there are none."""
    files = sorted(MCGS.glob(pattern))
    if not files:
        print(f"error: no MCGS test file {pattern} in {MCGS} (the repository ships them "
              "in tests/data/mcgs)", file=sys.stderr)
        sys.exit(2)
    return files


def median_time(fn, repeat: int, clock=time.perf_counter) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = clock()
        out = fn()
        times.append(clock() - t0)
    return statistics.median(times), out


def cold(fn):
    """Run ``fn`` with no table left over from an earlier call (search keeps the last
    engine for the next call on the same board)."""
    search._LAST_ENGINE.clear()
    search._LAST_SUM.clear()
    search._ROW_SEARCH.clear()
    return fn()


def starts(repeat: int, with_openspiel: bool) -> None:
    print("== starts (o bottom-left, o to move): outcome / all winning moves")
    search.solve_outcome(Position.from_string("xo"), "black")  # compile / load kernels
    os_times = {}
    if with_openspiel:
        try:
            import pyspiel
            from open_spiel.python.algorithms import minimax
        except ImportError:
            print("   open_spiel is not installed: pip install open_spiel")
            with_openspiel = False
    # times are CPU seconds of this process (time.process_time), ours and OpenSpiel's
    # alike: on a shared machine wall-clock times of millisecond searches measure the
    # other jobs more than the search; the wall-clock median is printed beside ours
    for r, c in ((3, 4), (4, 4), (3, 6), (4, 5), (5, 5)):
        p = openspiel_start(r, c)
        reps = repeat if r * c <= 20 else 1
        if r * c <= 12:
            reps = max(reps, 25)   # a fraction of a millisecond: more runs for a median
        t_out, res = median_time(lambda p=p: cold(lambda: search.solve_outcome(
            p, WHITE, all_moves=False)), reps, time.process_time)
        w_out, _ = median_time(lambda p=p: cold(lambda: search.solve_outcome(
            p, WHITE, all_moves=False)), reps)
        t_all, res_all = median_time(lambda p=p: cold(lambda: search.solve_outcome(p, WHITE)),
                                     1, time.process_time)
        line = (f"   {r}x{c}: {res.winner} wins with o first (first winning move "
                f"{res.winning_moves[0] if res.winning_moves else '-'}); outcome "
                f"{t_out * 1000:.2f} ms CPU ({w_out * 1000:.2f} ms wall, {res.nodes:,} "
                f"nodes), all winning moves {t_all:.3f} s ({len(res_all.winning_moves)} "
                "winning)")
        if with_openspiel and (r, c) in ((3, 4), (4, 4), (3, 6)):
            game = pyspiel.load_game("clobber", {"rows": r, "columns": c})
            state = game.new_initial_state(to_openspiel(p, WHITE))
            os_reps = 3 if r * c <= 16 else 1

            def run_os(game=game, state=state):
                return minimax.alpha_beta_search(game, state=state, maximizing_player_id=0)
            os_times[(r, c)], (value, _) = median_time(run_os, os_reps, time.process_time)
            os_wall, _ = median_time(run_os, os_reps)
            agree = (value > 0) == (res.winner == "white")
            line += (f"; OpenSpiel alpha_beta_search {os_times[(r, c)]:.3f} s CPU "
                     f"({os_wall:.3f} s wall; {'agrees' if agree else 'DISAGREES'}): "
                     f"{os_times[(r, c)] / t_out:,.0f}x CPU, {os_wall / w_out:,.0f}x wall")
        print(line, flush=True)


def perft8(repeat: int) -> None:
    print("== perft, 8x8 OpenSpiel start")
    p = openspiel_start(8, 8)
    search.perft(p, WHITE, 1)
    t, counts = median_time(lambda: search.perft(p, WHITE, 4), repeat)
    ok = counts == [112, 11848, 1182276, 111070552]
    print(f"   depth 4: {counts} in {t:.2f} s ({'matches' if ok else 'DIFFERS FROM'} "
          "the oracle)", flush=True)


_MS = re.compile(r"/\*\s*([0-9.]+)\s*ms\s*\*/")


def mcgs_suites(time_limit: float) -> None:
    # the brief's rule: a case may take max(20 x the file's recorded time, 60 s); the
    # recorded times are milliseconds, so 60 s a case is the limit everywhere
    print(f"== MCGS suites ({MCGS}), {time_limit:g} s per case; one process, so later "
          "files reuse the tables of earlier ones (the grid files repeat the row files)")
    grand = Counter()
    total = 0.0
    cpu_total = 0.0
    slowest = (0.0, "")
    for f in mcgs_files():
        cases = parse_test_file(f)
        recorded = sum(float(x) for x in _MS.findall(f.read_text())) / 1000
        c = Counter()
        t0 = time.perf_counter()
        c0 = time.process_time()
        for case in cases:
            r = run_case(case, time_limit=time_limit)
            c[r.status] += 1
            slowest = max(slowest, (r.seconds, f"{f.name}:{case.line}"))
            if r.status != "pass":
                print(f"      {r.status} line {case.line}: {case.board[:50]} "
                      f"expected {[e.text() for e in case.expectations]} found {r.found}")
        t = time.perf_counter() - t0
        cpu = time.process_time() - c0
        total += t
        cpu_total += cpu
        grand.update(c)
        rec = f"; MCGS recorded {recorded:.2f} s" if recorded else ""
        print(f"   {f.name}: {c['pass']} passed, {c['fail']} failed, "
              f"{c['timeout']} timeouts; {cpu:.2f} s CPU ({t:.2f} s wall){rec}", flush=True)
    print(f"   all: {grand['pass']} passed, {grand['fail']} failed, {grand['timeout']} "
          f"timeouts; {cpu_total:.1f} s CPU ({total:.1f} s wall); slowest case "
          f"{slowest[0]:.2f} s wall ({slowest[1]})", flush=True)


def five_by_six(limit: float, tt_bits: int = 24) -> None:
    """The 5x6 start (Grossman: P, the first player loses) within ``limit`` seconds. A
    P-position is proved by refuting every first move, so the first moves are searched
    in rounds (one table of 2^tt_bits entries), each unrefuted move given a node budget
    four times the last round's: the easy refutations are all found, and the count refuted
    when the time runs out is the bound reached."""
    print(f"== 5x6 start, o first, {limit:g} s limit: first moves refuted in rounds "
          f"(table 2^{tt_bits})")
    p = openspiel_start(5, 6)
    search.solve_outcome(Position.from_string("xo"), "black")  # compile / load kernels
    engine = search._Engine(p.board, tt_bits=tt_bits)
    total = search._Budget(limit, None)
    c0 = time.process_time()
    me, opp = p.white, p.black
    todo = p.moves(WHITE)
    n_moves = len(todo)
    refuted = 0
    share = 1_000_000
    try:
        while todo:
            left = []
            for mv in todo:
                sub = search._Budget(None, share)
                sub.deadline = total.deadline
                nme = (me & ~(1 << mv.src)) | (1 << mv.dst)
                nopp = opp & ~(1 << mv.dst)
                try:
                    won = engine.wins(nopp, nme, sub)
                except search._OutOfTime:
                    total.nodes += sub.nodes
                    if total.expired():
                        raise
                    left.append(mv)
                    continue
                total.nodes += sub.nodes
                if not won:
                    print(f"   {mv.to_str(p.board)} WINS for o: contradicts Grossman")
                    return
                refuted += 1
            print(f"   round of {share:,} nodes a move: {refuted}/{n_moves} refuted; "
                  f"{total.nodes:,} nodes, {time.process_time() - c0:.1f} s CPU, "
                  f"{time.perf_counter() - total.t0:.1f} s wall", flush=True)
            todo = left
            share *= 4
    except search._OutOfTime:
        pass
    cpu = time.process_time() - c0
    wall = time.perf_counter() - total.t0
    verdict = ("P: every first move refuted (Grossman: P)" if refuted == n_moves
               else f"undecided: {refuted} of {n_moves} first moves refuted")
    print(f"   {verdict}; {total.nodes:,} nodes, {cpu:.1f} s CPU ({wall:.1f} s wall)",
          flush=True)


def xo_family(limit: float) -> None:
    print(f"== (XO)^n, both first players, {limit:g} s per n (the row-sum search keeps its "
          "tables from n - 1: one computation of the family)")
    n = 1
    while True:
        p = Position.from_string("xo" * n)
        t0 = time.perf_counter()
        c0 = time.process_time()
        search._LAST_ENGINE.clear()
        search._LAST_SUM.clear()
        rs = []
        for f in ("black", "white"):
            left = limit - (time.perf_counter() - t0)
            rs.append(search.solve_sum([p], f, time_limit=max(left, 0.001)))
        t = time.perf_counter() - t0
        cpu = time.process_time() - c0
        if any(r.winner is None for r in rs):
            print(f"   n = {n}: not decided in {limit:g} s; largest n decided: {n - 1}")
            return
        first_wins = all(r.winner == r.first for r in rs)
        ok = first_wins == (n != 3)
        print(f"   n = {n}: {'first player wins' if first_wins else 'not N'} "
              f"({'as the theorem says' if ok else 'CONTRADICTS THE THEOREM'}), "
              f"{cpu:.2f} s CPU ({t:.2f} s wall; {rs[0].proof})", flush=True)
        n += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--openspiel", action="store_true")
    ap.add_argument("--mcgs-time-limit", type=float, default=60.0)
    ap.add_argument("--skip-mcgs", action="store_true")
    ap.add_argument("--five-by-six", type=float, metavar="S")
    ap.add_argument("--xo", type=float, metavar="S")
    ap.add_argument("--only", choices=["starts", "perft", "mcgs", "five", "xo"])
    a = ap.parse_args(argv)
    if a.only in (None, "mcgs") and not a.skip_mcgs:
        mcgs_files()  # no data: fail at once, not after the other sections
    if a.only in (None, "starts"):
        starts(a.repeat, a.openspiel)
    if a.only in (None, "perft"):
        perft8(a.repeat)
    if a.only in (None, "mcgs") and not a.skip_mcgs:
        mcgs_suites(a.mcgs_time_limit)
    if a.five_by_six:
        five_by_six(a.five_by_six)
    if a.xo:
        xo_family(a.xo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
