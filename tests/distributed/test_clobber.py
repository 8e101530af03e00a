"""Two-player Clobber outcomes on Ray: the cluster, the job-level proof search and the
--distributed branch of ``clobber solve`` (issue 27)."""

from __future__ import annotations

import pytest

from clobbermania.clobber.search import solve_outcome
from clobbermania.distributed.clobber_search import run_outcome_job
from clobbermania.stones import Position

JOB = "clobber_search.run_outcome_job"


def test_map_jobs_gives_the_single_process_answers(ray_cluster):
    boards = [("xoxo/oxox/xoxo", "black"), ("xoxo/oxox/xoxo/oxox", "white"),
              ("xoxox/oxoxo/xoxox", "black")]
    payloads = [{"board": b, "to_move": f} for b, f in boards]
    got = dict(ray_cluster.map_jobs(JOB, payloads, 10**7))
    assert sorted(got) == [0, 1, 2]
    for i, (b, f) in enumerate(boards):
        assert got[i]["winner"] == solve_outcome(Position.from_string(b), f).winner
        assert got[i]["worker"]   # host:pid of the actor
    assert ray_cluster.cpus == 2


def test_a_job_refused_by_its_budget_is_undecided():
    r = run_outcome_job({"board": "xoxox/oxoxo/xoxox/oxoxo", "to_move": "black"}, 10)
    assert r["winner"] is None and r["nodes"] >= 10


def test_an_actor_killed_mid_run_gives_the_same_answers(ray_cluster):
    ray = pytest.importorskip("ray")
    payloads = [{"board": "xoxox/oxoxo/xoxox/oxoxo", "to_move": f} for f in ("black", "white")]
    expected = [solve_outcome(Position.checkerboard(4, 5), f).winner for f in ("black", "white")]
    pool = ray_cluster.pool(JOB, 10**8)
    for i, p in enumerate(payloads):
        pool.submit(p, i)
    victim = ray_cluster.actors[0]
    ray.kill(victim)      # its job is in flight: run again on a new actor
    got = {}
    while pool.busy:
        tag, answer = pool.next()
        got[tag] = answer["winner"]
    assert [got[0], got[1]] == expected
    assert ray_cluster.restarts >= 1 and ray_cluster.actors[0] is not victim
