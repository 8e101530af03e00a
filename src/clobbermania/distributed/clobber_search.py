"""Two-player Clobber outcomes by a job-level proof search on a Ray cluster.

(The driver is written below the job function.)
"""

from __future__ import annotations

import time

from ..clobber.search import solve_outcome
from ..stones import Position


def run_outcome_job(payload: dict, budget: int) -> dict:
    """One job: who wins ``payload["board"]`` (grid text) with ``payload["to_move"]`` to
    move, by :func:`clobbermania.clobber.search.solve_outcome` within ``budget`` nodes.

    Returns {"winner": "black"|"white"|None, "nodes", "seconds"}.

    >>> run_outcome_job({"board": "xo", "to_move": "white"}, 1000)["winner"]
    'white'
    """
    t0 = time.perf_counter()
    r = solve_outcome(Position.from_string(payload["board"]), payload["to_move"],
                      node_limit=budget, all_moves=False)
    return {"winner": r.winner, "nodes": r.nodes,
            "seconds": round(time.perf_counter() - t0, 6)}
