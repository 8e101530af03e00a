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

A second-player win (``--refute-all``, e.g. 2x18) is checked the other way round: every
first move of Black, one per class of moves that the board's symmetries map onto each
other, is answered by the plain search (step 2 alone), which must find White's win after
it. One JSON line per move class (``"check": "refutation"``, with White's winning reply);
a run given the same ``--json`` file skips the classes already refuted, so the proof
outlasts a sitting, and ``--shard I/K`` takes every K-th class from the I-th, so that K
processes share the work. When every class is refuted a closing line
(``"check": "second proof"``, ``"step2_winner": "white"``) sums them up.

    .venv/bin/python benchmarks/clobber_frontier_check.py 2x18 --refute-all \
        --limit 20000 --json benchmarks/results/clobber_frontier.jsonl --shard 0/2
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
from clobbermania.distributed.clobber_search import canonical_key
from clobbermania.stones import BLACK, WHITE, Position, opponent


def plain_solve(position: Position, to_move: int, limit: float):
    """``solve_outcome`` with no part values, no database, no sums, no moves in G (the
    plain bitboard search), a fresh table, the winning move only."""
    search._LAST_ENGINE.clear()
    old = search.PART_STONES
    search.PART_STONES = 0
    try:
        return search.solve_outcome(position, to_move, time_limit=limit, all_moves=False)
    finally:
        search.PART_STONES = old


def move_classes(p: Position, color: int) -> list[tuple[str, str, int]]:
    """Every move of ``color`` on ``p`` up to the board's symmetries: (a move of the class,
    the canonical key of the position after it, the class size), in move order."""
    classes: dict[str, list] = {}
    for m in p.moves(color):
        key = canonical_key(p.play(m, color), opponent(color))
        if key in classes:
            classes[key][2] += 1
        else:
            classes[key] = [m.to_str(p.board), key, 1]
    return [tuple(c) for c in classes.values()]


def refute_all(a, rows: int, cols: int) -> int:
    """Step 2 on the position after every class of Black's first moves (see the module)."""
    p = Position.checkerboard(rows, cols)
    board = f"{rows}x{cols}"
    classes = move_classes(p, BLACK)
    done: dict[str, dict] = {}
    if a.json and a.json.exists():
        for line in a.json.read_text().splitlines():
            rec = json.loads(line)
            if (rec.get("board") == board and rec.get("check") == "refutation"
                    and rec.get("step2_winner") == "white"):
                done[rec["key"]] = rec
    shard, shards = (int(x) for x in a.shard.split("/"))
    todo = [c for i, c in enumerate(classes) if i % shards == shard and c[1] not in done]
    print(f"== refutation of every first move of {board}, Black first: {len(classes)} "
          f"classes of {sum(c[2] for c in classes)} moves, {len(done)} refuted before, "
          f"{len(todo)} for shard {a.shard}; {a.limit:g} s CPU a move, load "
          f"{os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    status = 0
    for move, key, size in todo:
        child = p.play(p.parse_move(move), BLACK)
        c0 = time.process_time()
        r = plain_solve(child, WHITE, a.limit)
        t = time.process_time() - c0
        reply = r.winning_moves[0] if r.winner == "white" and r.winning_moves else None
        verdict = ({"white": f"White wins with {reply}: refuted", "black":
                    "White loses: CONTRADICTS the first search"}.get(r.winner, "undecided"))
        print(f"   {move} (x{size}): {verdict}, {t:.1f} s CPU, {r.nodes:,} nodes", flush=True)
        if r.winner == "black":
            status = 1
        rec = {"board": board, "first": "black", "check": "refutation", "move": move,
               "key": key, "class_size": size, "step2_winner": r.winner, "reply": reply,
               "step2_cpu": round(t, 3), "step2_nodes": r.nodes, "step2_proof": r.proof,
               "load": round(os.getloadavg()[0], 1), "date": time.strftime("%Y-%m-%d")}
        if a.json:
            with a.json.open("a") as f:
                f.write(json.dumps(rec) + "\n")
        if r.winner == "white":
            done[key] = rec
    if all(c[1] in done for c in classes) and a.json:
        recs = [done[c[1]] for c in classes]
        closed = any(r.get("check") == "second proof" and r.get("board") == board
                     for r in map(json.loads, a.json.read_text().splitlines()))
        if not closed:
            rec = {"board": board, "first": "black", "check": "second proof",
                   "move": None, "classes": len(classes),
                   "moves": sum(c[2] for c in classes), "step2_winner": "white",
                   "step2_cpu": round(sum(r["step2_cpu"] for r in recs), 3),
                   "step2_nodes": sum(r["step2_nodes"] for r in recs),
                   "step2_proof": "every first move refuted by the plain search",
                   "date": time.strftime("%Y-%m-%d")}
            with a.json.open("a") as f:
                f.write(json.dumps(rec) + "\n")
            print(f"   every first move refuted: {board} Black first is a second-player "
                  f"win, {rec['step2_cpu']:.1f} s CPU, {rec['step2_nodes']:,} nodes in all")
    return status


def compare(boards: list[tuple[int, int]], limit: float) -> int:
    """The plain search against the search with part values, board by board (see the
    module); stops after the first board the plain search does not decide."""
    for rows, cols in boards:
        p = Position.checkerboard(rows, cols)
        c0 = time.process_time()
        plain = plain_solve(p, BLACK, limit)
        t_plain = time.process_time() - c0
        search._LAST_ENGINE.clear()
        c0 = time.process_time()
        valued = search.solve_outcome(p, BLACK, time_limit=limit, all_moves=False)
        t_valued = time.process_time() - c0
        print(f"{rows}x{cols}: plain search {plain.winner or 'undecided'} {t_plain:.1f} s "
              f"{plain.nodes:,} nodes | with part values {valued.winner or 'undecided'} "
              f"{t_valued:.1f} s {valued.nodes:,} nodes", flush=True)
        if plain.winner is not None and valued.winner is not None and \
                plain.winner != valued.winner:
            print("   the two searches DISAGREE")
            return 1
        if plain.winner is None:
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board", help="ROWSxCOLS, e.g. 3x11 (Black first must be a win)")
    ap.add_argument("--limit", type=float, default=3000.0, help="CPU seconds a step")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--refute-all", action="store_true",
                    help="Black first is a second-player win: refute every first move")
    ap.add_argument("--shard", default="0/1", help="I/K: every K-th move class from the I-th")
    ap.add_argument("--compare", action="store_true",
                    help="BOARD is a list (2x12,2x13): plain search against part values")
    a = ap.parse_args(argv)
    search.time = _CpuClock()
    search.solve_outcome(Position.from_string("xo"), "black")   # load the kernels
    if a.compare:
        return compare([tuple(int(x) for x in b.lower().split("x"))
                        for b in a.board.split(",")], a.limit)
    rows, cols = (int(x) for x in a.board.lower().split("x"))
    if a.refute_all:
        return refute_all(a, rows, cols)
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
    c0 = time.process_time()
    second = plain_solve(child, WHITE, a.limit)
    t2 = time.process_time() - c0
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
