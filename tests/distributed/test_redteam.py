"""Issue 27's contract checked as a demanding user would, for the defects a red-team pass
found: more actors than CPUs, a store whose directory is a file, a huge time limit.

No test here starts a Ray: each refusal comes before Ray starts (or, for a joined
cluster, from a stand-in of the ``ray`` module that answers like a cluster of 2 CPUs).
"""

from __future__ import annotations

import socket
import types

import pytest

from clobbermania.cli import main
from clobbermania.clickomania.rules import Board
from clobbermania.clickomania.samegame import play_samegame
from clobbermania.distributed import cluster as cluster_mod
from clobbermania.distributed.cluster import ClusterError, check_cpus, cluster
from clobbermania.distributed.samegame import search_samegame_distributed
from clobbermania.distributed.store import JobStore, JobStoreError

COMMANDS = [["clobber", "solve", "xo/ox", "--first", "black"],
            ["grundy", "value", "xoxo"],
            ["samegame", "play", "1122/2211", "--max-playouts", "10"],
            ["samegame", "bench", "--boards", "1", "--max-playouts", "10"]]


def _exit(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_more_cpus_than_the_machine_is_refused_before_the_store(command, capsys, tmp_path):
    """A private Ray runs one actor per CPU: --cpus past the machine's CPUs (here 3 on a
    2-core machine started 3 actors; 10**20 gave Ray's own resource message) is one
    sentence, exit 2, before Ray starts and before the store is made."""
    pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")
    machine = check_cpus(None)
    store = tmp_path / "jobs.sqlite"
    for cpus in (machine + 1, 10**20):
        code, out, err = _exit([*command, "--json", "--distributed", "--cpus", str(cpus),
                                "--store", str(store)], capsys)
        assert code == 2 and out == ""
        assert err == (f"error: --cpus {cpus:,} is more than the {machine} CPUs of this "
                       f"machine (a private Ray runs one actor per CPU); give at most "
                       f"{machine}, or --address to use a cluster\n")
        assert not store.exists()


def test_check_cpus_takes_the_machines_cpus_and_any_number_for_a_cluster():
    machine = check_cpus(None)
    assert machine >= 1 and check_cpus(machine) == machine
    assert check_cpus(machine + 100, "head:6379") == machine   # checked once joined
    with pytest.raises(ClusterError, match="at least 1, not 0"):
        check_cpus(0)


class _FakeRay(types.SimpleNamespace):
    """The part of the ``ray`` module that :func:`cluster` uses to join a cluster, for a
    cluster of ``cpus`` CPUs: it records what is called."""

    def __init__(self, cpus: int) -> None:
        super().__init__(calls=[], _cpus=cpus, _up=False)

    def is_initialized(self) -> bool:
        return self._up

    def init(self, **kw) -> None:
        self.calls.append(("init", kw.get("address")))
        self._up = True

    def cluster_resources(self) -> dict:
        return {"CPU": float(self._cpus)}

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))
        self._up = False

    def remote(self, cls):   # pragma: no cover - the refusal comes first
        raise AssertionError("no actor may be started")


def test_more_cpus_than_a_joined_cluster_has_is_refused(monkeypatch):
    """Actors past a joined cluster's CPUs would wait for a CPU forever: refused with one
    sentence once the cluster answers, and the driver disconnects."""
    fake = _FakeRay(2)
    monkeypatch.setattr(cluster_mod, "require_ray", lambda: fake)
    with socket.create_server(("127.0.0.1", 0)) as server:   # an address that answers
        address = f"127.0.0.1:{server.getsockname()[1]}"
        with pytest.raises(ClusterError) as exc, cluster(address, cpus=3):
            pass
        assert str(exc.value) == (f"--cpus 3 is more than the 2 CPUs of the Ray cluster at "
                                  f"{address} (one actor per CPU: the others would wait for "
                                  f"a CPU forever)")
        assert fake.calls == [("init", address), ("shutdown",)]
        empty = _FakeRay(0)
        monkeypatch.setattr(cluster_mod, "require_ray", lambda: empty)
        with pytest.raises(ClusterError) as exc, cluster(address):
            pass
        assert str(exc.value) == f"the Ray cluster at {address} has no CPU to run an actor on"
        assert empty.calls[-1] == ("shutdown",)


def test_a_store_under_a_file_names_the_file(tmp_path, capsys):
    """mkdir's bare "File exists" did not say which file was in the way."""
    (tmp_path / "notes.txt").write_text("my notes")
    store = tmp_path / "notes.txt" / "jobs.sqlite"
    with pytest.raises(JobStoreError) as exc:
        JobStore.open(store)
    assert str(exc.value) == (f"cannot create the job store {store} ({tmp_path / 'notes.txt'}"
                              f" is a file, not a directory)")
    assert (tmp_path / "notes.txt").read_text() == "my notes"


def test_a_huge_time_limit_is_a_search_that_the_playouts_end():
    """--time-limit 1e300 overflowed the exact endgame's int64 node budget (a numba
    traceback, with and without --distributed); it is now the search that
    --max-playouts ends, as with any time limit it cannot reach."""
    board = Board.from_string("1221/2112/1122")
    huge = play_samegame(board, time_limit=1e300, max_playouts=50, seed=3)
    long = play_samegame(board, time_limit=1e6, max_playouts=50, seed=3)
    assert (huge.score, huge.moves) == (long.score, long.moves) == (1020, ("a3", "a3", "a3"))
    results, info = search_samegame_distributed([board], cluster=None, time_limit=1e300,
                                                max_playouts=50, seed=3)
    assert (results[0].score, results[0].moves, info["jobs"]) == (huge.score, huge.moves, 1)


def test_a_pool_waits_no_longer_than_its_timeout():
    """``JobPool.next(timeout)``: None when no job finished in time (a driver's deadline
    or Ctrl-C need not wait for a long job), the answer when one did."""
    pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")
    import time

    with cluster(cpus=1) as c:
        pool = c.pool("clobber_search.run_outcome_job", 10**9)
        pool.submit({"board": "xo", "to_move": "white"}, "small")
        tag, answer = pool.next(timeout=120)
        assert (tag, answer["winner"]) == ("small", "white")
        pool.submit({"board": "xoxox/oxoxo/xoxox/oxoxo/xoxox", "to_move": "black"}, "big")
        t0 = time.monotonic()
        assert pool.next(timeout=0.5) is None
        assert time.monotonic() - t0 < 5
        assert pool.busy    # the job is still running; the driver may wait again or drop
        pool.drop()


class _EndlessPool:
    """A job pool whose searches never end: ``next(timeout)`` always times out."""

    def __init__(self) -> None:
        self.waits: list[float | None] = []
        self.dropped = False
        self.submitted = 0

    def submit(self, payload: dict, tag) -> None:
        self.submitted += 1

    def next(self, timeout: float | None = None):
        if timeout is None:   # the driver would wait for the search's whole time limit
            raise AssertionError("the driver waited with no timeout")
        self.waits.append(timeout)
        return None

    def drop(self) -> None:
        self.dropped = True


def test_ctrl_c_stops_a_distributed_samegame_run_while_its_searches_run(monkeypatch):
    """The driver used to wait for a running search to end (its whole --time-limit, 60 s
    by default; 11 s after Ctrl-C here) before it looked at Ctrl-C."""
    import clobbermania.distributed.samegame as sg

    pool = _EndlessPool()
    fake = types.SimpleNamespace(cpus=2, slots=4, pool=lambda fn, budget: pool)
    presses = iter([False, False, False, True])
    monkeypatch.setattr(sg, "interrupted", lambda: next(presses))
    board = Board.from_string("1221/2112/1122")
    with pytest.raises(KeyboardInterrupt):
        search_samegame_distributed([board], cluster=fake, time_limit=60.0, workers=2)
    assert pool.waits == [sg.POLL_SECONDS] * 3 and pool.dropped and pool.submitted == 2


@pytest.mark.parametrize("text, why", [("{bad", "not JSON: Expecting property name"),
                                       ("[1, 2]", "not a JSON object")])
def test_a_stored_answer_that_is_not_a_json_object_is_one_sentence(tmp_path, capsys, text,
                                                                   why):
    """A row written by hand (or damaged past PRAGMA quick_check) was a JSONDecodeError
    traceback in ``jobs export`` and in every resumed command; the file is left as it
    was."""
    import sqlite3

    path = tmp_path / "jobs.sqlite"
    with JobStore.open(path) as store:
        store.put("grundy-value", "xo", {"grundy": 1}, nodes=1, seconds=0.0)
        store.put("grundy-value", "xoxo", {"grundy": 3}, nodes=9, seconds=0.0)
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE jobs SET answer = ? WHERE key = 'xoxo'", (text,))
    con.close()
    before = path.read_bytes()
    sentence = (f"the job store {path} is damaged: the answer of its job grundy-value xoxo "
                f"is {why}")
    with JobStore.open(path, read_only=True) as store:
        assert store.get("grundy-value", "xo") == {"grundy": 1}
        with pytest.raises(JobStoreError, match=sentence.replace("[", r"\[")):
            store.get("grundy-value", "xoxo")
        with pytest.raises(JobStoreError, match="is damaged"):
            list(store.iter_jobs(answers=True))
        assert [job["key"] for job in store.iter_jobs()] == ["xo", "xoxo"]   # no answers
    for fmt in ("jsonl", "csv"):
        code, out, err = _exit(["jobs", "export", str(path), "--format", fmt], capsys)
        assert code == 2 and err.startswith("error: " + sentence) and err.count("\n") == 1
    assert path.read_bytes() == before


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "127.0.0.1:0", ":6379", "[]:6379"])
def test_an_address_without_a_host_or_a_port_is_refused_as_such(address):
    """127.0.0.1:99999 was "no Ray cluster answers ... (Connection refused)"."""
    from clobbermania.distributed.cluster import check_reachable

    with pytest.raises(ClusterError) as exc:
        check_reachable(address)
    assert str(exc.value) == (f"a Ray address is HOST:PORT with a host and a port from 1 to "
                              f"65535, not {address!r}")


def test_a_stored_grundy_value_that_is_not_one_is_refused(tmp_path):
    """{"value": 3} where a Grundy answer belongs was a KeyError traceback."""
    from clobbermania.distributed.grundy import KIND as GRUNDY
    from clobbermania.distributed.grundy import InProcess, grundy_value_distributed
    from clobbermania.distributed.store import JobStore, JobStoreError
    from clobbermania.stones import Position

    with JobStore.open(tmp_path / "j.sqlite") as store:
        store.put(GRUNDY, "oxox", {"value": 3}, nodes=1, seconds=0)
        with pytest.raises(JobStoreError, match="is damaged: its job grundy-value oxox"):
            grundy_value_distributed(Position.from_string("xoxo"), cluster=InProcess(),
                                     store=store)


def test_ctrl_c_stops_a_distributed_grundy_value(monkeypatch):
    """The driver went on to the end after Ctrl-C (8 s more on the 4x5 grid)."""
    import clobbermania.limits as limits
    from clobbermania.distributed.grundy import InProcess, grundy_value_distributed
    from clobbermania.stones import Position

    monkeypatch.setattr(limits, "_interrupted", True)
    r = grundy_value_distributed(Position.from_string("xoxox/oxoxo/xoxox"),
                                 cluster=InProcess(), job_nodes=10)
    assert (r["grundy"], r["exact"]) == (None, False)


def test_a_clobber_job_stops_at_the_time_limit_its_payload_gives():
    """A job ran to its node budget whatever the command's --time-limit (6.1 s for 3 s)."""
    import time

    from clobbermania.distributed.clobber_search import run_outcome_job

    t0 = time.process_time()
    answer = run_outcome_job({"board": "xoxox/oxoxo/xoxox/oxoxo/xoxox", "to_move": "black",
                              "time_limit": 0.3}, 10**9)
    assert time.process_time() - t0 < 3
    assert answer["winner"] is None and answer["timed_out"]


def test_a_stored_outcome_that_is_not_one_is_refused(tmp_path):
    """{"outcome": "maybe"} in a row gave a wrong answer (13 winning moves of 24) with
    "exact": true."""
    from clobbermania.distributed.clobber_search import KIND as CLOBBER
    from clobbermania.distributed.clobber_search import (
        canonical_key,
        solve_outcome_distributed,
    )
    from clobbermania.stones import BLACK, WHITE, Position

    position = Position.from_string("xoxo/oxox")
    child = position.play(position.moves(BLACK)[0])
    with JobStore.open(tmp_path / "j.sqlite") as store:
        store.put(CLOBBER, canonical_key(child, WHITE), {"outcome": "maybe"}, nodes=1,
                  seconds=0)
        with pytest.raises(JobStoreError, match="is damaged: its job clobber-outcome"):
            solve_outcome_distributed(position, "black", cluster=None, store=store)
