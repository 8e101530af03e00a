"""A second proof of a frontier outcome (issue 28: "a new outcome checked by a second
method"): the first-player win of a checkerboard, taken apart and proved again.

    .venv/bin/python benchmarks/clobber_frontier_check.py 3x11 --limit 3000
    MCGS_BIN=/path/to/MCGS .venv/bin/python benchmarks/clobber_frontier_check.py 3x11

1. The search of today (big parts + G, parts of up to 8 stones) finds Black's winning
   first move on the ROWSxCOLS checkerboard (``solve_outcome(..., all_moves=False)``);
   the move is played by the reference rules (``Position.play``).
2. The position after it, White to move, is proved a loss for White by the plain
   bitboard search: no part values, no part database, no cgt sums, no moves in G
   (``search.PART_STONES = 0``): the code it shares with step 1 is the move generator,
   the table and the canonical keys, which the tests hold equal to the reference rules.
   So the win rests on two different searches: the one that found the move and one that
   knows nothing of values.
3. With ``MCGS_BIN`` set, MCGS (a different program) is asked the same question as step 2
   within the same limit (``{W loss}``), and its verdict is printed beside ours.

CPU seconds of this process (``time.process_time``; the machine is shared). ``--json FILE``
appends one JSON line (the record kept in ``benchmarks/results/clobber_frontier.jsonl``).
Exit status 1 when the second proof contradicts the first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from clobber_frontier import _CpuClock, run_mcgs_text

from clobbermania.clobber import search
from clobbermania.stones import BLACK, WHITE, Position


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board", help="ROWSxCOLS, e.g. 3x11 (Black first must be a win)")
    ap.add_argument("--limit", type=float, default=3000.0, help="CPU seconds a step")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    rows, cols = (int(x) for x in a.board.lower().split("x"))
    search.time = _CpuClock()
    search.solve_outcome(Position.from_string("xo"), "black")   # load the kernels
    p = Position.checkerboard(rows, cols)
    print(f"== second proof of {rows}x{cols}, Black first; {a.limit:g} s CPU a step, load "
          f"{os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    c0 = time.process_time()
    first = search.solve_outcome(p, BLACK, time_limit=a.limit, all_moves=False)
    t1 = time.process_time() - c0
    if first.winner != "black" or not first.winning_moves:
        print(f"   step 1: Black's win not found ({first.proof}); nothing to check")
        return 1
    move = first.winning_moves[0]
    child = p.play(p.parse_move(move), BLACK)
    print(f"   step 1 (big parts + G): Black wins with {move}, {t1:.1f} s CPU, "
          f"{first.nodes:,} nodes", flush=True)
    search._LAST_ENGINE.clear()
    old = search.PART_STONES
    search.PART_STONES = 0
    try:
        c0 = time.process_time()
        second = search.solve_outcome(child, WHITE, time_limit=a.limit, all_moves=False)
        t2 = time.process_time() - c0
    finally:
        search.PART_STONES = old
    agree = second.winner == "black"
    verdict = ("White to move loses: confirmed" if agree else
               "undecided" if second.winner is None else "White wins: CONTRADICTS step 1")
    print(f"   step 2 (plain search, no part values): after {move}, {verdict}, {t2:.1f} s "
          f"CPU, {second.nodes:,} nodes", flush=True)
    rec = {"board": f"{rows}x{cols}", "first": "black", "check": "second proof",
           "move": move, "step1_cpu": round(t1, 3), "step1_nodes": first.nodes,
           "step2_winner": second.winner, "step2_cpu": round(t2, 3),
           "step2_nodes": second.nodes, "step2_proof": second.proof,
           "load": round(os.getloadavg()[0], 1), "date": time.strftime("%Y-%m-%d")}
    binary = os.environ.get("MCGS_BIN")
    if binary:
        text = "|".join(line.upper() for line in child.text().split("/"))
        verdict_m, secs, cpu = run_mcgs_text(binary, text, "white", a.limit)
        print(f"   step 3 (MCGS): after {move}, White to move: {verdict_m}, "
              f"{cpu:.1f} s CPU", flush=True)
        rec["mcgs"] = {"verdict": verdict_m, "seconds": secs, "cpu": round(cpu, 3)}
    if a.json:
        with a.json.open("a") as f:
            f.write(json.dumps(rec) + "\n")
    return 1 if second.winner == "white" else 0


if __name__ == "__main__":
    sys.exit(main())
