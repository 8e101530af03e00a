"""Two-player Clobber outcomes on Ray: the cluster, the job-level proof search and the
--distributed branch of ``clobber solve`` (issue 27).

The reference is the single-process proof search (clobber.search.solve_outcome, itself
checked against a brute force and the MCGS suites in tests/test_clobber_search.py).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import pytest
from cli_runner import run_cli

from clobbermania.clobber import search
from clobbermania.clobber.search import solve_outcome
from clobbermania.distributed import clobber_search as dcs
from clobbermania.distributed.clobber_search import (
    KIND,
    canonical_key,
    run_outcome_job,
    solve_outcome_distributed,
)
from clobbermania.distributed.store import JobStore
from clobbermania.stones import BLACK, WHITE, Position, opponent

JOB = "clobber_search.run_outcome_job"
BOARD_4X5 = "xoxox/oxoxo/xoxox/oxoxo"
#: a few 4x5 positions: the checkerboard, one with a hole, one with two stones swapped
POSITIONS_4X5 = [BOARD_4X5, "xoxox/oxoxo/xo.ox/oxoxo", "xxoxo/oxoxo/xoxox/ooxox"]
CHECKERBOARDS = [(r, c) for r in range(1, 5) for c in range(r, 5)]   # 1x1 .. 4x4


def single(board: str, first: str):
    return solve_outcome(Position.from_string(board), first)


def same_answer(got: dict, expected) -> None:
    assert got["exact"] is True
    assert got["winner"] == expected.winner
    assert set(got["winning_moves"]) == set(expected.winning_moves)
    assert len(got["winning_moves"]) == len(expected.winning_moves)


# --- the job, the key, the search without Ray --------------------------------------------

def test_a_job_out_of_budget_is_undecided_and_one_within_it_is_decided():
    r = run_outcome_job({"board": BOARD_4X5, "to_move": "black"}, 10)
    assert r["winner"] is None and r["nodes"] >= 10
    assert run_outcome_job({"board": "xoxo/oxox", "to_move": "white"}, 10**6)["winner"] == \
        single("xoxo/oxox", "white").winner


def test_the_key_is_the_same_for_symmetric_and_colour_swapped_questions():
    p = Position.from_string("xxo/o.x")
    mirrored = Position.from_string("oxx/x.o")           # left-right mirror
    swapped = p.swap_colors()
    assert canonical_key(p, BLACK) == canonical_key(mirrored, BLACK) == \
        canonical_key(swapped, WHITE)
    assert canonical_key(p, BLACK) != canonical_key(p, WHITE)


def test_resuming_on_a_store_runs_no_job_again(tmp_path):
    """Without Ray (the jobs in this process): the second run takes every answer from the
    store and gives the same answer."""
    expected = single(BOARD_4X5, "white")
    with JobStore.open(tmp_path / "jobs.sqlite") as store:
        first = solve_outcome_distributed(Position.from_string(BOARD_4X5), "white",
                                          cluster=None, store=store, job_nodes=5000)
        rows = store.count(KIND)
        again = solve_outcome_distributed(Position.from_string(BOARD_4X5), "white",
                                          cluster=None, store=store, job_nodes=5000)
        assert store.count(KIND) == rows
    same_answer(first, expected)
    same_answer(again, expected)
    # "jobs": every job the answer rests on; "jobs_reused": those read from the store
    assert first["distributed"]["jobs"] == rows > 1 and first["distributed"]["jobs_reused"] == 0
    assert again["distributed"]["jobs"] == again["distributed"]["jobs_reused"] > 0


@pytest.mark.parametrize("board,first", [("xoxox/oxoxo/xoxox", "black"),
                                         ("xoxoxo/oxoxox/xoxoxo", "black"),
                                         ("xoxo/oxox/xoxo/oxox", "white")])
def test_winner_only_stops_at_a_proved_winning_move(tmp_path, board, first):
    """Without Ray: with ``winner_only`` the job-level search gives the single-process
    winner; a first-player win names winning moves only (each among the single-process
    ones, each proved again here by replaying it), in no more jobs than the full search;
    a second-player win (3x6) refutes every first move, as the full search does. The
    store it fills answers the full search too."""
    position = Position.from_string(board)
    expected = solve_outcome(position, first)
    with JobStore.open(tmp_path / "jobs.sqlite") as store:
        one = solve_outcome_distributed(position, first, cluster=None, store=store,
                                        job_nodes=2000, winner_only=True)
        full = solve_outcome_distributed(position, first, cluster=None, job_nodes=2000)
        resumed = solve_outcome_distributed(position, first, cluster=None, store=store,
                                            job_nodes=2000)
    assert one["exact"] is True and one["winner_only"] is True
    assert one["winner"] == full["winner"] == expected.winner
    same_answer(full, expected)
    same_answer(resumed, expected)
    assert "winner_only" not in full
    assert set(one["winning_moves"]) <= set(expected.winning_moves)
    color = BLACK if first == "black" else WHITE
    for mv in one["winning_moves"]:
        after = position.play(position.parse_move(mv), color)
        assert solve_outcome(after, opponent(color)).winner == first
    if expected.winner == first:
        assert one["winning_moves"] and one["distributed"]["jobs"] <= full["distributed"]["jobs"]
    else:
        assert one["winning_moves"] == []


def test_the_cli_gives_winner_only_with_distributed(capsys, monkeypatch, tmp_path):
    """``clobber solve --distributed --winner-only`` (its jobs in this process: the Ray
    cluster is replaced by none): one JSON object with ``"winner_only": true`` and moves
    that win, or the text answer naming a winning move and the jobs."""
    import contextlib

    from clobbermania.distributed import cluster as cluster_mod

    monkeypatch.setattr(cluster_mod, "require_ray", lambda: None)
    monkeypatch.setattr(cluster_mod, "cluster",
                        lambda address, cpus: contextlib.nullcontext(None))
    board = "xoxox/oxoxo/xoxox"
    args = ("clobber", "solve", board, "--first", "black", "--distributed", "--store",
            str(tmp_path / "jobs.sqlite"), "--job-nodes", "2000", "--winner-only")
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    obj = json.loads(out)
    expected = single(board, "black")
    assert obj["winner"] == "black" and obj["winner_only"] is True and obj["exact"] is True
    assert obj["winning_moves"] and set(obj["winning_moves"]) <= set(expected.winning_moves)
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert f"winning move: {obj['winning_moves'][0]} (the other first moves were not " \
           "searched)" in out
    assert "reused from the store" in out


def breadth_first_select(self):
    """The order the driver had before the proof-number search (a baseline): the live
    position with no job yet and the fewest stones, the oldest first."""
    memo: dict = {}
    waiting = [n for n in self.nodes.values() if n.children is None and n.status is None
               and not n.started and self.live(n, memo)]
    return min(waiting, key=lambda n: n.stones, default=None)


@pytest.mark.parametrize("board,job_nodes", [("xoxox/oxoxo/xoxox", 20),
                                              ("xoxo/oxox/xoxo/oxox", 100)])
def test_the_proof_number_order_runs_fewer_jobs_than_breadth_first(monkeypatch, board,
                                                                  job_nodes):
    """Black first on the 3x5 and 4x4 checkerboards with small jobs, one job at a time
    in this process (a cold table each run, so both orders pay the same): the
    proof-number order runs at most 0.7 of the jobs of the breadth-first one (with the
    kernels of commit dfd465b: 805 against 1,857 on 3x5, 741 against 1,460 on 4x4; of
    6947274: 613 against 1,327, 494 against 935), and both give the single-process
    answer."""
    position = Position.from_string(board)
    expected = solve_outcome(position, "black")
    runs = {}
    for order in ("proof numbers", "breadth-first"):
        if order == "breadth-first":
            monkeypatch.setattr(dcs._Search, "select", breadth_first_select)
        search._LAST_ENGINE.clear()
        runs[order] = solve_outcome_distributed(position, "black", cluster=None,
                                                job_nodes=job_nodes)
        same_answer(runs[order], expected)
    pns, bfs = (runs[o]["distributed"]["jobs"] for o in ("proof numbers", "breadth-first"))
    assert 0 < pns <= 0.7 * bfs


# --- on Ray --------------------------------------------------------------------------------

def test_map_jobs_gives_the_single_process_answers(ray_cluster):
    boards = [("xoxo/oxox/xoxo", "black"), ("xoxo/oxox/xoxo/oxox", "white"),
              ("xoxox/oxoxo/xoxox", "black")]
    payloads = [{"board": b, "to_move": f} for b, f in boards]
    got = dict(ray_cluster.map_jobs(JOB, payloads, 10**7))
    assert sorted(got) == [0, 1, 2]
    for i, (b, f) in enumerate(boards):
        assert got[i]["winner"] == single(b, f).winner
        assert got[i]["worker"]   # host:pid of the actor
    assert ray_cluster.cpus == 2


@pytest.mark.parametrize("rows,cols", CHECKERBOARDS)
def test_checkerboards_up_to_4x4_as_single_process(ray_cluster, rows, cols):
    board = Position.checkerboard(rows, cols)
    for first in ("black", "white"):
        got = solve_outcome_distributed(board, first, cluster=ray_cluster, job_nodes=300)
        same_answer(got, solve_outcome(board, first))
        assert got["distributed"] == {"jobs": got["distributed"]["jobs"], "jobs_reused": 0,
                                      "actors": 2, "store": None}
        assert set(got) == {"winner", "first", "winning_moves", "exact", "nodes", "seconds",
                            "proof", "board", "distributed"}


@pytest.mark.parametrize("board", POSITIONS_4X5)
def test_4x5_positions_as_single_process(ray_cluster, board):
    for first in ("black", "white"):
        got = solve_outcome_distributed(Position.from_string(board), first,
                                        cluster=ray_cluster, job_nodes=20_000)
        same_answer(got, single(board, first))
        assert got["distributed"]["jobs"] > 1   # split into jobs indeed


def test_an_actor_killed_mid_run_gives_the_same_answer(ray_cluster):
    ray = pytest.importorskip("ray")
    restarts = ray_cluster.restarts
    killed = []

    def kill_one(info: dict) -> None:
        if info["jobs"] == 5 and not killed:
            killed.append(ray_cluster.actors[0])
            ray.kill(ray_cluster.actors[0])   # busy or idle: its job is run again

    got = solve_outcome_distributed(Position.from_string(BOARD_4X5), "black",
                                    cluster=ray_cluster, job_nodes=5000, progress=kill_one)
    same_answer(got, single(BOARD_4X5, "black"))
    assert killed and ray_cluster.restarts > restarts
    assert ray_cluster.actors[0] is not killed[0]


def test_a_pool_job_in_flight_on_a_killed_actor_is_run_again(ray_cluster):
    ray = pytest.importorskip("ray")
    pool = ray_cluster.pool(JOB, 10**8)
    for i, first in enumerate(("black", "white")):
        pool.submit({"board": BOARD_4X5, "to_move": first}, i)
    victim = ray_cluster.actors[0]
    ray.kill(victim)
    got = {}
    while pool.busy:
        tag, answer = pool.next()
        got[tag] = answer["winner"]
    assert [got[0], got[1]] == [single(BOARD_4X5, f).winner for f in ("black", "white")]
    assert ray_cluster.actors[0] is not victim


# --- the command line --------------------------------------------------------------------

COMMAND = [sys.executable, "-c", "import sys; from clobbermania.cli import main; "
           "main(sys.argv[1:])"]


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_the_options_need_distributed(capsys):
    code, out, err = run_cli(capsys, "clobber", "solve", "xoxo", "--first", "black",
                             "--store", "x.sqlite", "--cpus", "2")
    assert (code, out) == (2, "")
    assert err.startswith("error: --store and --cpus need --distributed")
    code, out, err = run_cli(capsys, "clobber", "solve", "xo", "--first", "black",
                             "--job-nodes", "5")
    assert code == 2 and err.startswith("error: --job-nodes needs --distributed")


def test_without_distributed_the_json_is_unchanged(capsys):
    code, out, _ = run_cli(capsys, "clobber", "solve", "xoxo/oxox", "--first", "black",
                           "--json")
    assert code == 0
    got = json.loads(out)
    expected = single("xoxo/oxox", "black").to_dict()
    assert set(got) == set(expected)
    assert {k: got[k] for k in ("winner", "winning_moves", "exact", "board")} == \
        {k: expected[k] for k in ("winner", "winning_moves", "exact", "board")}


def _our_ray_processes(temp: str) -> list[int]:
    """The pids of the processes of the private Ray whose temporary directory is under
    ``temp``: only what this test started."""
    from clobbermania.distributed.cluster import processes_using

    return processes_using(temp)


def test_the_driver_killed_and_started_again_resumes(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")
    temp = tempfile.mkdtemp(prefix="cbm-t-", dir="/tmp")   # short: Ray's socket paths
    store = tmp_path / "jobs.sqlite"
    env = {**os.environ, "TMPDIR": temp}
    args = ("clobber", "solve", BOARD_4X5, "--first", "black", "--distributed", "--cpus",
            "2", "--store", str(store), "--job-nodes", "5000", "--json")
    proc = subprocess.Popen([*COMMAND, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        rows = 0
        t0 = time.monotonic()
        while rows < 100 and time.monotonic() - t0 < 120 and proc.poll() is None:
            time.sleep(0.2)
            if store.exists():
                with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
                    try:
                        rows = con.execute("SELECT count(*) FROM jobs").fetchone()[0]
                    except sqlite3.OperationalError:   # not created yet
                        rows = 0
        assert proc.poll() is None, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        time.sleep(1)
        left = _our_ray_processes(temp)
        for pid in left:   # what Ray left of the killed driver
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        print(f"Ray processes left by the killed driver: {len(left)}")
    with JobStore.open(store) as s:
        before = s.count(KIND)
    assert before >= 100
    r = cli(*args, env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    same_answer(out, single(BOARD_4X5, "black"))
    d = out["distributed"]
    assert d["jobs_reused"] > 0 and d["store"] == str(store) and d["actors"] == 2
    with JobStore.open(store) as s:
        after = s.count(KIND)
    # every job run again would have found its answer stored (put keeps the first):
    # the rows grew by exactly the jobs the second run ran, so none was a finished one
    assert after == before + d["jobs"] - d["jobs_reused"]
    assert not _our_ray_processes(temp)
    shutil.rmtree(temp, ignore_errors=True)


def test_a_time_limit_gives_what_is_proved_so_far():
    got = solve_outcome_distributed(Position.from_string(BOARD_4X5), "black", cluster=None,
                                    job_nodes=1000, time_limit=0.0)
    assert got["exact"] is False and got["winner"] is None and got["winning_moves"] == []
    assert got["proof"].startswith("time limit reached")


def test_a_job_refused_by_the_library_is_one_sentence(ray_cluster):
    from clobbermania.distributed.cluster import ClusterError

    with pytest.raises(ClusterError, match="'q'"):
        list(ray_cluster.map_jobs(JOB, [{"board": "xq", "to_move": "black"}], 100))
    with pytest.raises(ClusterError, match="'<module>.<function>'"):
        ray_cluster.pool("run_outcome_job", 100)
    # the cluster still works afterwards
    assert dict(ray_cluster.map_jobs(JOB, [{"board": "xo", "to_move": "black"}], 100)
                )[0]["winner"] == "black"


def test_distributed_without_ray_is_one_sentence(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)   # import ray fails as if not installed
    store = tmp_path / "jobs.sqlite"
    code, out, err = run_cli(capsys, "clobber", "solve", "xo", "--first", "black",
                             "--distributed", "--store", str(store))
    assert (code, out) == (2, "")
    assert err == "error: --distributed needs Ray: pip install 'clobbermania[distributed]'\n"
    assert not store.exists()


def test_an_address_where_no_cluster_answers_is_one_sentence(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")
    r = cli("clobber", "solve", "xo", "--first", "black", "--distributed", "--address",
            "127.0.0.1:9", "--store", str(tmp_path / "jobs.sqlite"))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.startswith("error: no Ray cluster answers at 127.0.0.1:9 (")


def test_the_local_ray_listens_on_the_loopback_interface_only(ray_cluster):
    """Its GCS and raylet (the processes started with its own temporary directory) accept
    connections on 127.0.0.1 only."""
    if shutil.which("ss") is None:
        pytest.skip("the ss command (iproute2) is not installed")
    ours = set(_our_ray_processes(ray_cluster.temp_dir))
    listening = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
    mine = [line for line in listening
            if any(f"pid={pid}," in line for pid in ours)]
    assert len(mine) >= 2   # the GCS and the raylet at least
    for line in mine:
        local = line.split()[3]
        assert local.rsplit(":", 1)[0] in ("127.0.0.1", "[::ffff:127.0.0.1]"), line


def test_the_proof_size_of_a_store(tmp_path, monkeypatch):
    """benchmarks/clobber_frontier_jobs.py reads a finished run back from its store: every
    job once, first moves at depth 1 and the jobs they were split into below, the nodes of
    the answer (jobs too small for their positions, so that some are split)."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import clobber_frontier_jobs

    position = Position.from_string(BOARD_4X5)
    with JobStore.open(tmp_path / "jobs.sqlite") as store:
        r = solve_outcome_distributed(position, "white", cluster=None, store=store,
                                      job_nodes=5000)
        size = clobber_frontier_jobs.proof_size(store)
        assert size["jobs"] == store.count(KIND) == r["distributed"]["jobs"]
    assert size["nodes"] == r["nodes"]
    assert sum(size["jobs_by_depth"].values()) == size["jobs"]
    assert size["jobs_by_depth"]["1"] == len({canonical_key(position.play(m, WHITE), BLACK)
                                              for m in position.moves(WHITE)})
    assert len(size["jobs_by_depth"]) > 1 and size["outcomes"]["undecided, split"] > 0
