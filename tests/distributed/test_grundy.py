"""Impartial Clobber on Ray: the Grundy job, the driver (options as jobs, split when a job
runs out, mex at the driver), the store's reuse and ``grundy value --distributed``
(issue 27).

The reference is the single-process search (clobber.impartial.grundy_value, itself
checked against a brute force and the French study's tables in tests/test_impartial*.py),
run with a fresh solver so that no cache is shared with the jobs.
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

from clobbermania.clobber import impartial
from clobbermania.clobber.impartial import GrundyNodeLimit, GrundySolver, grundy_value
from clobbermania.distributed import grundy as dg
from clobbermania.distributed.cluster import processes_using
from clobbermania.distributed.grundy import (
    KIND,
    InProcess,
    grundy_value_distributed,
    part_keys,
    run_grundy_job,
)
from clobbermania.distributed.store import JobStore
from clobbermania.errors import ClobbermaniaError, UnsupportedError
from clobbermania.graphs import cycle
from clobbermania.stones import Position


def checkerboard(rows: int, cols: int) -> str:
    return "/".join("".join("xo"[(r + c) % 2] for c in range(cols)) for r in range(rows))


#: every checkerboard up to 3x4, grids with holes and stones swapped, rows with holes
BOARDS = [checkerboard(r, c) for r in range(1, 4) for c in range(r, 5)] + [
    "xoxo/oxox/xo.o", "xxoo/oxox/xoxo", ".oxo/oxox/xox.", "xxo/oox/xo.", "xoxo/o..x/xoxo",
    "xo.oxxo.ox", "xoxoxo_oxxo", "x.o.xo.oxoxo", "xoxoxoxo.xxoo",
]
COMPARED = ("grundy", "winning_moves", "components", "exact")


@pytest.fixture()
def fresh_job_solver(monkeypatch):
    """The jobs of one test use a solver of their own (a cold memo, as a new actor's)."""
    solver = GrundySolver()
    monkeypatch.setattr(dg, "solver_for", lambda db=None: solver)
    return solver


def single(board: str) -> dict:
    return grundy_value(Position.from_string(board), solver=GrundySolver()).to_dict()


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("job_nodes", [1, 300, 10**7])
def test_distributed_equals_single_process(board, job_nodes, fresh_job_solver):
    got = grundy_value_distributed(Position.from_string(board), cluster=InProcess(),
                                   job_nodes=job_nodes)
    expected = single(board)
    assert {k: got[k] for k in COMPARED} == {k: expected[k] for k in COMPARED}
    assert got["board"] == Position.from_string(board).text()
    assert got["distributed"]["store"] is None and got["distributed"]["jobs_reused"] == 0


def test_a_small_budget_splits_jobs(fresh_job_solver, tmp_path):
    board = checkerboard(3, 4)
    runner = InProcess()
    with JobStore.open(tmp_path / "j.sqlite") as store:
        got = grundy_value_distributed(Position.from_string(board), cluster=runner,
                                       store=store, job_nodes=50)
        log = store.log(KIND)
    assert got["grundy"] == single(board)["grundy"] == 0
    split = [row for row in log if row["worker"].startswith("driver")]
    # the root is split at the driver; parts that ran out of budget were split too
    assert len(split) > 1
    assert got["distributed"]["jobs"] == len(log)
    assert len(runner.ran) > len(log) - len(split)   # the unfinished runs were run too


def test_a_store_is_reused_and_no_job_recomputed(fresh_job_solver, tmp_path):
    path = tmp_path / "jobs.sqlite"
    for board in ("xoxo/oxox/xoxo", "xoxox/oxoxo", "xo.oxxo.ox"):
        with JobStore.open(path) as store:
            first = grundy_value_distributed(Position.from_string(board),
                                             cluster=InProcess(), store=store, job_nodes=200)
            rows = store.count(KIND)
        again = InProcess()
        with JobStore.open(path) as store:
            second = grundy_value_distributed(Position.from_string(board), cluster=again,
                                              store=store, job_nodes=200)
            assert store.count(KIND) == rows   # nothing new stored
        assert {k: second[k] for k in COMPARED} == {k: first[k] for k in COMPARED}
        assert second["distributed"]["jobs_reused"] == second["distributed"]["jobs"] > 0
        assert again.ran == []                 # no job run at all
        assert second["distributed"]["store"] == str(path)


def test_equal_parts_are_one_job(fresh_job_solver):
    # two copies of the same part (rotated and colour-swapped): one job, value XOR = 0
    runner = InProcess()
    got = grundy_value_distributed(Position.from_string("xox.oxo/o...x../x...o.."),
                                   cluster=runner, job_nodes=10**7)
    assert got["grundy"] == single("xox.oxo/o...x../x...o..")["grundy"] == 0
    keys = part_keys(Position.from_string("xox.oxo/o...x../x...o.."))
    assert len(keys) == 2 and keys[0] == keys[1]


def test_the_job_reports_an_unfinished_budget(fresh_job_solver):
    short = run_grundy_job({"key": checkerboard(3, 4)}, 10)
    assert short["finished"] is False and short["grundy"] is None and short["nodes"] >= 10
    full = run_grundy_job({"key": checkerboard(3, 4)}, 10**7)
    assert full["finished"] is True and full["grundy"] == single(checkerboard(3, 4))["grundy"]
    with pytest.raises(ClobbermaniaError, match="one part"):
        run_grundy_job({"key": "xo.ox"}, 10)
    with pytest.raises(ClobbermaniaError, match="budget"):
        run_grundy_job({"key": "xo"}, 0)


def test_the_node_limit_of_the_solver():
    solver = GrundySolver()
    pos = Position.from_string(checkerboard(3, 4))
    (key,) = solver.component_keys(pos.board, pos.cells)
    with pytest.raises(GrundyNodeLimit):  # (the search of 3x4 stores 71 values and outcomes)
        solver.solve_key(key, node_limit=20)
    # what it found stays: the search resumes and finishes with the right value
    assert solver.solve_key(key) == single(checkerboard(3, 4))["grundy"]


def test_part_keys_are_board_independent():
    # the same part on two boards, rotated: one key; an L-shaped path is keyed as a row
    assert part_keys(Position.from_string("xo/ox/x.")) == \
        part_keys(Position.from_string("....../.xox../..xo..")) == [".o/ox/xo"]
    assert part_keys(Position.from_string("xo./.xo")) == [impartial.row_key("xoxo")]
    with pytest.raises(UnsupportedError, match="graph"):
        part_keys(Position.from_string("xoxo", cycle(4)))


def test_a_time_limit_that_runs_out(fresh_job_solver):
    got = grundy_value_distributed(Position.from_string("xoxox/oxoxo/xoxox/oxoxo"),
                                   cluster=InProcess(), job_nodes=100, time_limit=0.05)
    assert (got["grundy"], got["winning_moves"], got["exact"]) == (None, None, False)


# --- on Ray ------------------------------------------------------------------------------

RAY_BOARDS = [checkerboard(3, 4), checkerboard(2, 4), "xoxo/oxox/xo.o", "xoxoxo_oxxo"]


@pytest.mark.parametrize("board", RAY_BOARDS)
def test_on_ray_equals_single_process(board, ray_cluster, tmp_path):
    with JobStore.open(tmp_path / "j.sqlite") as store:
        got = grundy_value_distributed(Position.from_string(board), cluster=ray_cluster,
                                       store=store, job_nodes=200)
    expected = single(board)
    assert {k: got[k] for k in COMPARED} == {k: expected[k] for k in COMPARED}
    assert got["distributed"]["actors"] == 2


def test_an_actor_killed_mid_run_gives_the_same_answer(ray_cluster):
    ray = pytest.importorskip("ray")
    restarts = ray_cluster.restarts
    killed = []

    def kill_one(info: dict) -> None:
        if info["ran"] == 5 and not killed:
            killed.append(ray_cluster.actors[0])
            ray.kill(ray_cluster.actors[0])   # busy or idle: its job is run again

    board = "xoxo/oxox/xoxo/oxo."
    got = grundy_value_distributed(Position.from_string(board), cluster=ray_cluster,
                                   job_nodes=500, progress=kill_one)
    expected = single(board)
    assert {k: got[k] for k in COMPARED} == {k: expected[k] for k in COMPARED}
    assert killed and ray_cluster.restarts > restarts


# --- the command line --------------------------------------------------------------------

def test_the_options_need_distributed(capsys):
    code, out, err = run_cli(capsys, "grundy", "value", "xoxo", "--store", "x.sqlite")
    assert (code, out) == (2, "") and err.startswith("error: --store needs --distributed")


def test_without_distributed_the_json_is_unchanged(capsys):
    code, out, _ = run_cli(capsys, "grundy", "value", "xoxo/oxox", "--json")
    assert code == 0
    got = json.loads(out)
    assert list(got) == ["grundy", "winning_moves", "components", "exact", "searched",
                         "db_lookups", "seconds", "board", "db"]
    assert got["grundy"] == single("xoxo/oxox")["grundy"]


COMMAND = [sys.executable, "-c", "import sys; from clobbermania.cli import main; "
           "main(sys.argv[1:])"]


def test_the_command_runs_and_resumes_from_its_store(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")
    temp = tempfile.mkdtemp(prefix="cbm-t-", dir="/tmp")   # short: Ray's socket paths
    env = {**os.environ, "TMPDIR": temp}
    store = tmp_path / "jobs.sqlite"
    args = [*COMMAND, "grundy", "value", "xoxo/oxox/xoxo", "--distributed", "--cpus", "1",
            "--store", str(store), "--job-nodes", "300", "--json"]
    answers = [json.loads(subprocess.run(args, capture_output=True, text=True, env=env,
                                         timeout=300, check=True).stdout)
               for _ in range(2)]
    expected = single("xoxo/oxox/xoxo")
    for got in answers:
        assert {k: got[k] for k in COMPARED} == {k: expected[k] for k in COMPARED}
        assert set(got) == set(expected) | {"board", "db", "distributed"}
    first, second = (a["distributed"] for a in answers)
    assert first["jobs_reused"] == 0 and first["actors"] == 1
    assert second["jobs_reused"] == second["jobs"] > 0
    with JobStore.open(store) as s:
        assert s.count(KIND) == first["jobs"]


def test_the_driver_killed_and_started_again_resumes(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")
    temp = tempfile.mkdtemp(prefix="cbm-t-", dir="/tmp")   # short: Ray's socket paths
    env = {**os.environ, "TMPDIR": temp}
    store = tmp_path / "jobs.sqlite"
    board = "xoxox/oxoxo/xoxox"
    args = [*COMMAND, "grundy", "value", board, "--distributed", "--cpus", "2",
            "--store", str(store), "--job-nodes", "300", "--json"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    rows = 0
    try:
        for _ in range(600):   # until some jobs are stored, then SIGKILL the driver
            try:
                proc.wait(timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                pass
            if store.exists():   # read-only: the driver is the one writer
                with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
                    try:
                        rows = con.execute("SELECT count(*) FROM jobs").fetchone()[0]
                    except sqlite3.OperationalError:   # not created yet
                        rows = 0
                if rows >= 20:
                    break
        if proc.poll() is not None:
            pytest.skip("the run finished before it could be killed")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.communicate(timeout=30)
        time.sleep(1)
        for pid in processes_using(temp):   # what Ray left of the killed driver (ours)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    with JobStore.open(store) as s:
        before = {r["key"]: r["id"] for r in s.log(KIND)}
    assert len(before) >= 20
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300,
                          check=True)
    got = json.loads(done.stdout)
    expected = single(board)
    assert {k: got[k] for k in COMPARED} == {k: expected[k] for k in COMPARED}
    assert got["distributed"]["jobs_reused"] > 0
    with JobStore.open(store) as s:
        after = {r["key"]: r["id"] for r in s.log(KIND)}
    # every finished job kept its row: none was computed (and stored) again
    assert {k: after[k] for k in before} == before
    assert len(after) == got["distributed"]["jobs"] - got["distributed"]["jobs_reused"] \
        + len(before)
    shutil.rmtree(temp, ignore_errors=True)
