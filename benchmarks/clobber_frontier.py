"""The Clobber frontier: our outcome search on the boards MCGS solved last (issue 28).

    .venv/bin/python benchmarks/clobber_frontier.py --limit 120            # goal boards
    .venv/bin/python benchmarks/clobber_frontier.py --suite medium --limit 60
    .venv/bin/python benchmarks/clobber_frontier.py --cases 4x7:B,4x7:W --limit 100
    MCGS_BIN=/path/to/MCGS .venv/bin/python benchmarks/clobber_frontier.py --suite medium

Boards are MCGS's checkerboards (``XOXO|OXOX``: x, Black, on the top-left square, which is
our :meth:`Position.checkerboard`). Each case is one board and one first player, run by
:func:`clobbermania.clobber.search.solve_outcome` (``all_moves=False``: the winner only)
with a per-case limit of CPU seconds, in this process one after another (kernels loaded before the
clock; a fresh table each case).
Each line prints the CPU seconds of this process (``time.process_time``: the machine is
shared, wall time is not a fair figure), the nodes, the outcome (the winner, or
"undecided" when the limit ran out) and MCGS's figure beside it:

* with ``MCGS_BIN`` naming an MCGS binary (built from github.com/ualberta-mueller-group/MCGS,
  without its database), that binary on the same case and limit, run now (its own wall
  time as it reports it, and the CPU time of the child process);
* otherwise the times MCGS records (Folkersen, Müller, Du; the figures of issue 28:
  MCGS with its 4x4 database, one core of its authors' machine).

Suites: ``goal`` (4x7 both first players, 5x6, 3x10 and 2x17 Black first: the goals of
issue 28) and ``medium`` (MCGS's medium checkerboard suite, 2x12 .. 5x5, 9 cases counting
each first player of the boards that are not their own negatives).

``--json FILE`` appends one JSON line per case (the machine-readable record).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clobbermania.clobber import search
from clobbermania.stones import Position

#: MCGS's recorded times (seconds, with its 4x4 database; issue 28 and the comments of
#: its test files) and, from its test files (benchmarks/data/mcgs-frontier), the outcome
#: with Black first: "win" or "loss" (None where it records none).
MCGS_TIMES: dict[tuple[int, int], float] = {
    (4, 7): 2142.0, (5, 6): 43797.0, (3, 10): 14149.0, (2, 17): 17987.0, (2, 16): 2109.0,
    (2, 15): 1372.0, (2, 14): 138.0, (3, 9): 397.0,
}
MCGS_FILES = Path(__file__).resolve().parent / "data" / "mcgs-frontier"


def mcgs_recorded_outcomes() -> dict[tuple[int, int], str]:
    """(rows, cols) -> MCGS's recorded outcome with Black first ("win" / "loss") of the
    single checkerboards in its hard, very hard and unsolved test files."""
    from clobbermania.clobber.mcgs import parse_test_file

    out = {}
    for f in sorted(MCGS_FILES.glob("*.test")):
        for case in parse_test_file(f):
            if len(case.games) != 1 or case.game != "clobber":
                continue
            p = case.games[0].position()
            if p != Position.checkerboard(p.board.rows, p.board.cols):
                continue
            for e in case.expectations:
                if e.player == "B" and e.outcome:
                    out[(p.board.rows, p.board.cols)] = e.outcome
    return out


GOAL = [(4, 7, "black"), (4, 7, "white"), (5, 6, "black"), (3, 10, "black"),
        (2, 17, "black")]
#: the goal of issue 28 for each goal case, in CPU seconds
GOAL_SECONDS = {(4, 7): 100.0, (5, 6): 2000.0, (3, 10): 600.0, (2, 17): 600.0}

MEDIUM = [(2, 12, "black"), (2, 13, "black"), (2, 13, "white"), (2, 14, "black"),
          (3, 8, "black"), (3, 9, "black"), (3, 9, "white"), (4, 6, "black"),
          (5, 5, "black")]


class _CpuClock:
    """``time`` for the search module with ``perf_counter`` reading this process's CPU
    time, so that a case's limit is CPU seconds on a loaded machine."""

    def __getattr__(self, name):
        return getattr(time, name)

    @staticmethod
    def perf_counter() -> float:
        return time.process_time()


def parse_cases(text: str) -> list[tuple[int, int, str]]:
    """``4x7:B,5x6:W`` as [(4, 7, 'black'), (5, 6, 'white')]."""
    out = []
    for item in text.split(","):
        dims, _, who = item.strip().partition(":")
        r, _, c = dims.partition("x")
        first = {"b": "black", "w": "white", "": "black"}.get(who.lower())
        if first is None or not r.isdigit() or not c.isdigit():
            raise SystemExit(f"error: a case is ROWSxCOLS[:B|W], not {item!r}")
        out.append((int(r), int(c), first))
    return out


def mcgs_text(rows: int, cols: int) -> str:
    """The checkerboard in MCGS's notation (rows joined by ``|``)."""
    p = Position.checkerboard(rows, cols)
    return "|".join(line.upper() for line in p.text().split("/"))


def run_mcgs(binary: str, rows: int, cols: int, first: str, limit: float
             ) -> tuple[str, float | None, float]:
    """MCGS on one checkerboard via its test runner: (its verdict, its reported time in
    seconds when it gives one, the child's CPU seconds)."""
    return run_mcgs_text(binary, mcgs_text(rows, cols), first, limit)


def run_mcgs_text(binary: str, board: str, first: str, limit: float
                  ) -> tuple[str, float | None, float]:
    """MCGS on one board in its notation (rows joined by ``|``), ``first`` to move."""
    with tempfile.TemporaryDirectory() as tmp:
        test = Path(tmp) / "case.test"
        want = "B win" if first == "black" else "W win"
        test.write_text("{version 1.7}\n[clobber]\n" + board + "\n\t{" + want + "}\n")
        out = Path(tmp) / "out.csv"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([binary, "--run-tests", "--test-dir", tmp, "--out-file", str(out),
                        "--test-timeout", str(int(limit * 1000))],
                       capture_output=True, text=True, timeout=limit * 3 + 60)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        verdict, secs = "no output", None
        if out.exists():
            rows_ = list(csv.DictReader(out.read_text().splitlines()))
            if rows_:
                # (MCGS 1.7 writes "Result" (Win/Loss for the first player), "Status"
                # (PASS/FAIL against the expected result, or TIMEOUT) and "Time (ms)")
                row = {k.strip().lower(): v for k, v in rows_[0].items() if k}
                status = row.get("status", "?")
                verdict = "timeout" if status.upper() == "TIMEOUT" else \
                    {"win": "first wins", "loss": "second wins"}.get(
                        row.get("result", "").strip().lower(), status)
                try:
                    secs = float(row.get("time (ms)", "")) / 1000
                except ValueError:
                    secs = None
        return verdict, secs, cpu


def run_case(rows: int, cols: int, first: str, limit: float) -> dict:
    p = Position.checkerboard(rows, cols)
    # a fresh table each case: each first player is timed from scratch (a kept table
    # would answer the second player of a board that is its own negative at once)
    search._LAST_ENGINE.clear()
    search._LAST_SUM.clear()
    c0 = time.process_time()
    r = search.solve_outcome(p, first, time_limit=limit, all_moves=False)
    cpu = time.process_time() - c0
    if r.winner is None:
        outcome = "undecided"
    else:
        outcome = "first wins" if r.winner == first else "second wins"
    return {"board": f"{rows}x{cols}", "first": first, "winner": r.winner,
            "outcome": outcome, "cpu": round(cpu, 3), "nodes": r.nodes,
            "limit": limit, "proof": r.proof, "parts": search.PART_STONES,
            "tt_bits": search._MAX_TT_BITS}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", choices=["goal", "medium", "all"], default="goal")
    ap.add_argument("--cases", help="ROWSxCOLS[:B|W],... instead of a suite")
    ap.add_argument("--limit", type=float, default=120.0, help="CPU seconds a case")
    ap.add_argument("--json", type=Path, help="append one JSON line per case to this file")
    ap.add_argument("--parts", type=int, default=search.PART_STONES,
                    help="value parts of up to this many stones inside the search (0: off; "
                         f"default {search.PART_STONES})")
    ap.add_argument("--tt-bits", type=int, default=search._MAX_TT_BITS,
                    help=f"the largest table, 2^N entries of 29 bytes (default "
                         f"{search._MAX_TT_BITS})")
    a = ap.parse_args(argv)
    search.PART_STONES = a.parts
    search._MAX_TT_BITS = a.tt_bits
    # the limit is CPU seconds of this process: the search's clock reads process_time
    search.time = _CpuClock()
    if a.cases:
        cases = parse_cases(a.cases)
    else:
        cases = {"goal": GOAL, "medium": MEDIUM, "all": GOAL + MEDIUM}[a.suite]
    mcgs_bin = os.environ.get("MCGS_BIN")
    recorded = mcgs_recorded_outcomes()
    search.solve_outcome(Position.from_string("xo"), "black")   # load the kernels
    load = os.getloadavg()[0]
    print(f"== Clobber frontier, {len(cases)} cases, {a.limit:g} s CPU a case, parts <= "
          f"{a.parts} stones, table 2^{a.tt_bits}, load "
          f"{load:.1f}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    total = 0.0
    solved = mcgs_solved = disagree = 0
    for rows, cols, first in cases:
        rec = run_case(rows, cols, first, a.limit)
        total += rec["cpu"]
        rec_s = MCGS_TIMES.get((rows, cols))
        rec_black = recorded.get((rows, cols))
        # (MCGS records Black first only)
        rec_out = None if rec_black is None or first != "black" else (
            "first wins" if rec_black == "win" else "second wins")
        mcgs = (f"MCGS recorded {rec_s:,.0f} s" if rec_s else "MCGS: no time recorded") + (
            f" ({rec_out})" if rec_out else "")
        if rec_out and rec["winner"] is not None:
            if rec_out != rec["outcome"]:
                disagree += 1
                mcgs += " -- DISAGREES with ours"
            rec["mcgs_recorded"] = rec_out
        if mcgs_bin:
            verdict, secs, cpu = run_mcgs(mcgs_bin, rows, cols, first, a.limit)
            mcgs = (f"MCGS now: {verdict}, "
                    + (f"{secs:.1f} s, " if secs is not None else "")
                    + f"{cpu:.1f} s CPU")
            rec["mcgs"] = {"verdict": verdict, "seconds": secs, "cpu": round(cpu, 3)}
            if verdict in ("first wins", "second wins"):
                mcgs_solved += 1
                if rec["winner"] is not None and verdict != rec["outcome"]:
                    disagree += 1
                    mcgs += " -- DISAGREES with ours"
        solved += rec["winner"] is not None
        goal = GOAL_SECONDS.get((rows, cols))
        goal_text = "" if goal is None else (
            f"; goal {goal:g} s: " + ("met" if rec["winner"] and rec["cpu"] <= goal
                                      else "not met"))
        print(f"   {rows}x{cols} {first[0].upper()} first: {rec['outcome']:11s} "
              f"{rec['cpu']:9.1f} s CPU {rec['nodes']:>15,} nodes   {mcgs}{goal_text}",
              flush=True)
        rec["load"] = round(os.getloadavg()[0], 1)
        rec["date"] = time.strftime("%Y-%m-%d")
        if a.json:
            with a.json.open("a") as f:
                f.write(json.dumps(rec) + "\n")
    print(f"   total {total:.1f} s CPU; ours solved {solved} of {len(cases)}"
          + (f", MCGS {mcgs_solved} of {len(cases)} within {a.limit:g} s a case"
             + (f"; {disagree} DISAGREE" if disagree else ", no disagreement")
             if mcgs_bin else ""), flush=True)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
