"""A frontier checkerboard solved through the job store, and the size of its proof
(issue 28: "long solves go through the job store, so that they outlast a sitting";
"solved through the job store, with the proof's size").

    .venv/bin/python benchmarks/clobber_frontier_jobs.py 2x18 --store 2x18.sqlite \\
        --cpus 2 --job-nodes 100000000 --json benchmarks/results/clobber_frontier.jsonl
    .venv/bin/python benchmarks/clobber_frontier_jobs.py 3x11 --winner-only --store s.sqlite
    .venv/bin/python benchmarks/clobber_frontier_jobs.py 2x18 --store 2x18.sqlite --no-run

Black first on the ROWSxCOLS checkerboard, by the job-level proof search of
``clobber solve --distributed`` (``distributed.clobber_search``) on a private Ray of
``--cpus`` actors: every finished job goes into the store, and a run on the same store
reuses them, so a killed run resumes where it stopped (``clobber solve ... --distributed
--store FILE`` is the same search; this script adds the proof's size). With
``--winner-only`` it stops at the first winning first move it proves.

Then the proof is read back from the store: its jobs (each a position with the side to
move, its outcome or "undecided, split"), by depth below the root (the root is not a job:
its first moves are), their nodes and seconds (wall time inside the actors), and the
store's size on disk. ``--no-run`` reads a store only. ``--json FILE`` appends one record.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

from clobbermania.distributed.clobber_search import KIND, solve_outcome_distributed
from clobbermania.distributed.store import JobStore
from clobbermania.stones import Position


def proof_size(store: JobStore) -> dict:
    """The jobs of ``store`` (of the Clobber kind) as a proof: how many, by outcome and by
    depth (first moves at depth 1), their nodes and seconds."""
    depth: dict[int, int] = {}
    outcomes: Counter = Counter()
    by_depth: Counter = Counter()
    nodes = 0
    seconds = 0.0
    for job in store.iter_jobs(KIND, answers=True):
        d = 1 if job["parent"] is None else depth.get(job["parent"], 0) + 1
        depth[job["id"]] = d
        by_depth[d] += 1
        outcomes[job["answer"].get("outcome") or "undecided, split"] += 1
        nodes += job["nodes"]
        seconds += job["seconds"]
    return {"jobs": sum(outcomes.values()), "outcomes": dict(outcomes),
            "jobs_by_depth": {str(d): by_depth[d] for d in sorted(by_depth)},
            "nodes": nodes, "job_seconds": round(seconds, 3),
            "store_bytes": store.path.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board", help="ROWSxCOLS, e.g. 2x18 (x on the top-left square)")
    ap.add_argument("--store", type=Path, required=True, help="the job store (SQLite)")
    ap.add_argument("--cpus", type=int, default=2, help="actors of the private Ray")
    ap.add_argument("--job-nodes", type=int, default=100_000_000, help="a job's node budget")
    ap.add_argument("--time-limit", type=float, help="wall seconds of this run")
    ap.add_argument("--winner-only", action="store_true")
    ap.add_argument("--no-run", action="store_true", help="read the store only")
    ap.add_argument("--json", type=Path, help="append the record to this file")
    a = ap.parse_args(argv)
    rows, cols = (int(x) for x in a.board.lower().split("x"))
    p = Position.checkerboard(rows, cols)
    rec: dict = {"board": f"{rows}x{cols}", "first": "black", "check": "job store",
                 "job_nodes": a.job_nodes, "date": time.strftime("%Y-%m-%d")}
    if not a.no_run:
        from clobbermania.distributed.cluster import cluster

        print(f"== {rows}x{cols}, Black first, through the job store {a.store}: {a.cpus} "
              f"actors, {a.job_nodes:,} nodes a job, load {os.getloadavg()[0]:.1f}, "
              f"{time.strftime('%Y-%m-%d %H:%M')}", flush=True)
        t0 = time.perf_counter()
        with JobStore.open(a.store) as store, cluster(cpus=a.cpus) as c:
            r = solve_outcome_distributed(p, "black", cluster=c, store=store,
                                          job_nodes=a.job_nodes, time_limit=a.time_limit,
                                          winner_only=a.winner_only)
        wall = time.perf_counter() - t0
        print(f"   {r['winner'] or 'undecided'} wins"
              f"{' with ' + ' '.join(r['winning_moves']) if r['winning_moves'] else ''}; "
              f"exact {r['exact']}; {r['proof']}; {wall:.1f} s wall", flush=True)
        rec.update({"winner": r["winner"], "winning_moves": r["winning_moves"],
                    "exact": r["exact"], "winner_only": a.winner_only,
                    "jobs_run": r["distributed"]["jobs"] - r["distributed"]["jobs_reused"],
                    "jobs_reused": r["distributed"]["jobs_reused"], "wall": round(wall, 3),
                    "load": round(os.getloadavg()[0], 1)})
    if not a.store.exists():
        print(f"error: no job store at {a.store}", file=sys.stderr)
        return 2
    with JobStore.open(a.store, read_only=True) as store:
        size = proof_size(store)
    rec["proof_size"] = size
    kinds = ", ".join(f"{v:,} {k}" for k, v in size["outcomes"].items())
    print(f"   the proof in the store: {size['jobs']:,} jobs ({kinds}), by depth "
          f"{size['jobs_by_depth']}, "
          f"{size['nodes']:,} nodes, {size['job_seconds']:,.1f} s of jobs, "
          f"{size['store_bytes']:,} bytes", flush=True)
    if a.json:
        with a.json.open("a") as f:
            f.write(json.dumps(rec) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
