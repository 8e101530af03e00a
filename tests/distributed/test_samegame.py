"""SameGame on Ray: seeded searches as jobs, the best line kept, the job store resumed
(issue 27), and the --distributed branches of ``samegame play`` and ``samegame bench``.

The reference is the single-process search (clickomania.samegame.play_samegame and
bench_samegame, checked in tests/clickomania/test_samegame.py): under a playout limit it
is deterministic, so a job must give exactly its game. Most tests run the jobs in this
process (``cluster=None``, or the command's Ray replaced by it); one runs them on the
module's local Ray.
"""

from __future__ import annotations

import importlib
import json
import sqlite3
import sys

import pytest
from cli_runner import run_cli

import clobbermania.distributed.samegame as dsg
from clobbermania.clickomania.rules import score_sequence
from clobbermania.clickomania.samegame import (
    bench_samegame,
    best_of,
    play_samegame,
    read_samegame_set,
)
from clobbermania.distributed.samegame import (
    KIND,
    SameGameAnswerRefused,
    job_key,
    search_samegame_distributed,
)
from clobbermania.distributed.store import JobStore

#: the module of ``samegame play|bench`` (``clobbermania.cli.samegame`` as an attribute is
#: the command group)
samegame_cli = importlib.import_module("clobbermania.cli.samegame")
#: the first boards of the standard set (15x15, 5 colours)
BOARDS = read_samegame_set()[:3]
#: a playout limit: a deterministic, machine-independent budget (about 0.05 CPU-s here)
PLAYOUTS = 2000


def single(board, seed, penalty=60):
    return play_samegame(board, time_limit=None, max_playouts=PLAYOUTS, seed=seed,
                         left_penalty=penalty)


def search(boards, **kw):
    kw = {"cluster": None, "time_limit": None, "max_playouts": PLAYOUTS, **kw}
    return search_samegame_distributed(boards, **kw)


@pytest.fixture
def ran(monkeypatch):
    """The payloads of the jobs run in this process, in order."""
    calls: list[dict] = []
    real = dsg.run_samegame_job

    def counted(payload, budget):
        calls.append(payload)
        return real(payload, budget)

    monkeypatch.setattr(dsg, "run_samegame_job", counted)
    return calls


@pytest.fixture
def in_process(monkeypatch):
    """The commands' --distributed branch with its jobs in this process instead of on a
    private Ray (the store and everything else as on Ray)."""
    def run_here(label, describe, store, address, cpus, job_nodes, solve):
        with JobStore.open(store) as job_store:
            return solve(cluster=None, store=job_store, job_nodes=job_nodes, progress=None)

    monkeypatch.setattr(samegame_cli, "run_distributed", run_here)


# --- a job is the single-process search ----------------------------------------------------

def test_a_job_is_the_single_process_search_with_its_seed_and_budget():
    (r,), info = search(BOARDS[:1], seed=5)
    expected = single(BOARDS[0], 5)
    assert (r.score, r.moves, r.seed, r.playouts) == \
        (expected.score, expected.moves, 5, expected.playouts)
    assert r.score == score_sequence(BOARDS[0], r.moves) > 0
    assert info == {"jobs": 1, "jobs_reused": 0, "actors": 1, "store": None}


def test_the_best_of_w_seeds_is_the_best_of_w_single_runs():
    got, info = search(BOARDS[:2], seed=7, workers=3, left_penalty=[60, 0])
    for board, r in zip(BOARDS[:2], got, strict=True):
        runs = [single(board, 7 + w, (60, 0)[w % 2]) for w in range(3)]
        expected = best_of(runs)
        assert (r.score, r.moves, r.seed, r.searches) == \
            (expected.score, expected.moves, expected.seed, expected.searches)
        assert r.score == max(x.score for x in runs)
        assert r.seed == min(x.seed for x in runs if x.score == r.score)   # ties: lowest
    assert info["jobs"] == 6 and info["jobs_reused"] == 0


def test_a_board_given_twice_is_searched_once(ran):
    got, info = search([BOARDS[0], BOARDS[0]], workers=2)
    assert len(ran) == 2 and info["jobs"] == 4
    assert got[0] == got[1]


def test_the_key_names_board_method_seed_and_budget():
    text = BOARDS[0].text()
    base = {"time_limit": 60.0, "max_playouts": None, "clock": "cpu", "restarts": 3,
            "left_penalty": 60}
    key = job_key(text, 0, **base)
    assert key.startswith(text + " mcbs ")
    variants = [job_key(text, 1, **base), job_key(BOARDS[1].text(), 0, **base)] + [
        job_key(text, 0, **{**base, name: value})
        for name, value in (("time_limit", 30.0), ("max_playouts", 5000), ("clock", "wall"),
                            ("restarts", 1), ("left_penalty", 0))]
    assert len({key, *variants}) == 8   # all different


# --- the store: resuming, and answers refused --------------------------------------------

def test_a_second_run_on_the_store_reads_every_job_back(tmp_path, ran):
    infos: list[dict] = []
    with JobStore.open(tmp_path / "jobs.sqlite") as store:
        first, info1 = search(BOARDS[:2], workers=2, store=store, progress=infos.append)
        rows = store.count(KIND)
        best = sum(r.score for r in first)
        assert samegame_cli._describe_samegame("samegame bench", infos[-1]).startswith(
            f"samegame bench: boards done 2/2, jobs done 4/4 (0 reused), 0 running, 0 "
            f"queued; best total so far {best:,}, ")
        assert len(ran) == rows == info1["jobs"] == 4 and info1["jobs_reused"] == 0
        again, info2 = search(BOARDS[:2], workers=2, store=store)
        assert len(ran) == 4 and store.count(KIND) == rows   # nothing run again
    assert info2["jobs_reused"] == info2["jobs"] == 4
    assert [(r.score, r.moves, r.searches) for r in again] == \
        [(r.score, r.moves, r.searches) for r in first]


def test_a_killed_run_resumes_board_by_board(tmp_path, ran):
    """The driver stopped after three jobs (as by SIGKILL: the store holds what finished);
    the same run again runs only the jobs not stored, and a wider run reuses them all."""
    def stop_after_three(info):
        if info["jobs_done"] == 3:
            raise KeyboardInterrupt

    with JobStore.open(tmp_path / "jobs.sqlite") as store:
        with pytest.raises(KeyboardInterrupt):
            search(BOARDS, workers=2, store=store, progress=stop_after_three)
        assert store.count(KIND) == len(ran) == 3
        done = []
        got, info = search(BOARDS, workers=2, store=store,
                           on_board=lambda i, r: done.append(i))
        assert len(ran) == 6 and store.count(KIND) == 6
        assert info == {"jobs": 6, "jobs_reused": 3, "actors": 1, "store": str(store.path)}
        assert done[0] == 0   # board 1, whose searches were both stored, comes first
        _, wider = search(BOARDS, workers=3, store=store)
        assert wider["jobs_reused"] == 6 and store.count(KIND) == 9
    fresh = [best_of([single(b, w) for w in range(2)]) for b in BOARDS]
    assert [(r.score, r.moves) for r in got] == [(r.score, r.moves) for r in fresh]


def _tamper(path, change):
    with sqlite3.connect(path) as con:
        (answer,) = con.execute("SELECT answer FROM jobs").fetchone()
        con.execute("UPDATE jobs SET answer = ?", (json.dumps(change(json.loads(answer))),))
    con.close()


@pytest.mark.parametrize("change, why", [
    (lambda a: {**a, "score": a["score"] + 1}, "moves replay to"),
    (lambda a: {**a, "moves": a["moves"][:-1]}, "moves replay to"),
    (lambda a: {**a, "moves": ["a1"] + a["moves"]}, "moves that the reference rules refuse"),
    (lambda a: {**a, "blocks_left": a["blocks_left"] + 3}, "but its moves leave"),
    (lambda a: {k: v for k, v in a.items() if k != "moves"}, "without its fields"),
])
def test_a_tampered_stored_answer_is_refused(tmp_path, ran, change, why):
    path = tmp_path / "jobs.sqlite"
    with JobStore.open(path) as store:
        search(BOARDS[:1], store=store)
    _tamper(path, change)
    with JobStore.open(path) as store, \
            pytest.raises(SameGameAnswerRefused, match=why) as exc:
        search(BOARDS[:1], store=store)
    assert len(ran) == 1 and str(exc.value).startswith(f"the job store {path} gives board ")
    assert str(exc.value).endswith("the answer was refused")


def test_a_wrong_answer_of_an_actor_is_refused_and_not_stored(tmp_path, monkeypatch):
    real = dsg.run_samegame_job
    monkeypatch.setattr(dsg, "run_samegame_job",
                        lambda p, b: {**real(p, b), "score": 99999})
    with JobStore.open(tmp_path / "jobs.sqlite") as store:
        with pytest.raises(SameGameAnswerRefused,
                           match=r"^the job run in this process gives board .* a score of 99999, "
                                 r"but its \d+ moves replay to \d+ by the reference rules"):
            search(BOARDS[:1], store=store)
        assert store.count() == 0


# --- the commands -------------------------------------------------------------------------

def _json(capsys, *args):
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return json.loads(out)


def test_play_distributed_is_play_with_the_same_seed_and_budget(capsys, tmp_path,
                                                                 in_process):
    board = BOARDS[0].text()
    args = ("samegame", "play", board, "--seed", "3", "--max-playouts", str(PLAYOUTS),
            "--json")
    plain = _json(capsys, *args)
    store = tmp_path / "jobs.sqlite"
    got = _json(capsys, *args, "--distributed", "--store", str(store))
    assert (got["score"], got["moves"], got["seed"]) == \
        (plain["score"], plain["moves"], plain["seed"])
    assert set(got) == set(plain) | {"distributed"}
    assert got["distributed"] == {"jobs": 1, "jobs_reused": 0, "actors": 1,
                                  "store": str(store)}
    code, out, _ = run_cli(capsys, *args[:-1], "--distributed", "--store", str(store))
    assert code == 0 and f"\nscore: {plain['score']} (" in out
    assert out.endswith(f"distributed: 1 jobs, 1 reused from the store {store}, 1 actors\n")


def test_bench_distributed_is_bench_plus_the_distributed_object(capsys, tmp_path,
                                                                in_process):
    args = ("samegame", "bench", "--boards", "1-2", "--workers", "2", "--max-playouts",
            str(PLAYOUTS), "--left-penalty", "60,0", "--clock", "cpu", "--json")
    plain = _json(capsys, *args)
    store = tmp_path / "jobs.sqlite"
    got = _json(capsys, *args, "--distributed", "--store", str(store))
    keys = ("board", "score", "moves", "seed", "searches", "cleared", "blocks_left")
    assert [{k: b[k] for k in keys} for b in got["boards"]] == \
        [{k: b[k] for k in keys} for b in plain["boards"]]
    assert got["total"] == plain["total"]
    assert set(got) == set(plain) | {"distributed"}
    assert got["distributed"] == {"jobs": 4, "jobs_reused": 0, "actors": 1,
                                  "store": str(store)}
    again = _json(capsys, *args, "--distributed", "--store", str(store))
    assert again["distributed"]["jobs_reused"] == again["distributed"]["jobs"] == 4
    assert again["total"] == plain["total"]


@pytest.mark.parametrize("args, sentence", [
    (["play", "1122", "--distributed", "--job-nodes", "5"],
     "--job-nodes does not apply to samegame --distributed: a job is one whole search"),
    (["play", "1122", "--distributed", "--threads", "1"],
     "--threads does not apply with --distributed"),
    (["bench", "--distributed", "--jobs", "2"],
     "--jobs does not apply with --distributed: the searches run at once are the actors"),
    (["bench", "--distributed", "--threads", "2"],
     "--threads does not apply with --distributed"),
    (["bench", "--store", "x.sqlite"], "--store needs --distributed"),
    (["play", "1122", "--cpus", "2", "--address", "h:1"], "--address and --cpus need"),
    (["bench", "--distributed", "--cpus", "0"], "--cpus must be at least 1, not 0"),
])
def test_usage_errors_are_one_sentence(capsys, tmp_path, args, sentence):
    code, out, err = run_cli(capsys, "samegame", *args)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {sentence}") and err.count("\n") == 1
    assert not (tmp_path / "x.sqlite").exists()


def test_bad_input_is_refused_before_ray_starts(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)   # would fail if Ray were asked for
    store = tmp_path / "jobs.sqlite"
    code, _, err = run_cli(capsys, "samegame", "bench", "--boards", "1", "--distributed",
                           "--store", str(store), "--max-playouts", "0")
    assert code == 2 and err.startswith("error: --max-playouts must be between 1 and")
    code, _, err = run_cli(capsys, "samegame", "play", "1122", "--distributed",
                           "--store", str(store))
    assert err == "error: --distributed needs Ray: pip install 'clobbermania[distributed]'\n"
    assert code == 2 and not store.exists()


# --- on the module's local Ray --------------------------------------------------------------

def test_bench_on_ray_equals_the_single_process_bench(capsys, tmp_path, monkeypatch,
                                                      ray_cluster):
    """The command's jobs on the 2 actors of the module's Ray: each board's best game is
    that of bench_samegame with the same seeds and budget, and each job was run by an
    actor (its worker is host:pid)."""
    def on_ray(label, describe, store, address, cpus, job_nodes, solve):
        with JobStore.open(store) as job_store:
            return solve(cluster=ray_cluster, store=job_store, job_nodes=job_nodes,
                         progress=None)

    monkeypatch.setattr(samegame_cli, "run_distributed", on_ray)
    store = tmp_path / "jobs.sqlite"
    got = _json(capsys, "samegame", "bench", "--boards", "1-3", "--workers", "2",
                "--max-playouts", str(PLAYOUTS), "--seed", "4", "--distributed",
                "--store", str(store), "--json")
    expected = bench_samegame(BOARDS, time_limit=None, max_playouts=PLAYOUTS, seed=4,
                              workers=2)
    assert [(b["score"], b["moves"], b["searches"]) for b in got["boards"]] == \
        [(r.score, list(r.moves), [list(s) for s in r.searches]) for r in expected]
    assert got["distributed"] == {"jobs": 6, "jobs_reused": 0, "actors": 2,
                                  "store": str(store)}
    assert got["jobs"] == 2
    with JobStore.open(store, read_only=True) as s:
        workers = {job["worker"] for job in s.log(KIND)}
    assert workers and all(w.rsplit(":", 1)[1].isdigit() for w in workers)
