"""The cluster itself (issue 27): the actors' memory cap, joining a real cluster through
``--address``, and the claims that make the private local Ray safe on a shared machine.

One head node is started for the whole module with the ``ray`` command of this Python
(``ray start --head`` on 127.0.0.1, 2 CPUs, in a temporary directory of its own). It is
ended by killing only its own processes (those that use its directory,
:func:`~clobbermania.distributed.cluster.processes_using`), never by ``ray stop``, which
would end every Ray of the machine. The private local Ray of the last test is started
and shut down by :func:`~clobbermania.distributed.cluster.cluster` itself.
"""

from __future__ import annotations

import json
import os
import pprint
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from clobbermania.clobber.impartial import GrundySolver, grundy_value
from clobbermania.clobber.search import solve_outcome
from clobbermania.distributed import cluster as cluster_module
from clobbermania.distributed.cluster import (
    ACTOR_MEMORY,
    ACTOR_MEMORY_ENV,
    ACTOR_ROOM,
    CONNECT_SECONDS,
    MAX_ACTOR_DEATHS,
    OBJECT_STORE_BYTES,
    ClusterError,
    actor_memory,
    cluster,
    processes_using,
)
from clobbermania.stones import Position

ray = pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")

BOARD = "xoxo/oxox/xoxo"          # the 3x4 checkerboard
CHECK = "cluster.run_memory_check_job"
HEAD_CPUS = 2
COMMAND = [sys.executable, "-c", "import sys; from clobbermania.cli import main; "
           "main(sys.argv[1:])"]
#: Ray's token file: a head started while it exists uses token authentication, and a
#: driver joins it only with RAY_AUTH_MODE=token (Ray never sends the token to an
#: --address on its own)
TOKEN_FILE = Path.home() / ".ray" / "auth_token"
AUTH_MODE = "token" if TOKEN_FILE.exists() else "disabled"


@dataclass
class Head:
    address: str
    temp: str          # its --temp-dir: every process of this head uses it
    pids: list[int]    # its processes once started
    env: dict          # the environment of a driver that joins it


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill_all(directory: str) -> None:
    """SIGKILL the processes that use ``directory`` (those of one Ray, started here) until
    none is left (a killed raylet's workers notice and go too); fail if some stay."""
    for _ in range(50):
        left = processes_using(directory)
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)   # (Ray's processes catch SIGTERM and stay)
            except ProcessLookupError:
                pass
        time.sleep(0.2)
    pytest.fail(f"processes of the Ray in {directory} are still running: "
                f"{processes_using(directory)}")


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] not in "ZX"
    except (OSError, IndexError):
        return False


def _accepts(address: str) -> bool:
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def head():
    """A Ray head node of 2 CPUs on 127.0.0.1, started with ``ray start --head``;
    its processes (and only they) are killed at the end, and none may be left."""
    if not Path("/proc").is_dir():
        pytest.skip("no /proc: the head's processes could not be found to end them")
    temp = tempfile.mkdtemp(prefix="cbm-h-", dir="/tmp")   # short: Ray's socket paths
    env = {k: v for k, v in os.environ.items()
           if k not in ("RAY_ADDRESS", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")}
    # RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0: the head takes 127.0.0.1 as its address and
    # listens there only (as the private Ray does, cluster._loopback_only)
    env.update(RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_USAGE_STATS_ENABLED="0",
               RAY_AUTH_MODE=AUTH_MODE, TMPDIR=temp)
    port = _free_port()
    driver_temp = tempfile.mkdtemp(prefix="cbm-d-", dir="/tmp")
    ray_command = str(Path(sys.executable).with_name("ray"))
    try:
        started = subprocess.run(
            [ray_command, "start", "--head", "--port", str(port), "--num-cpus",
             str(HEAD_CPUS), "--temp-dir", temp, "--include-dashboard=false",
             "--disable-usage-stats", "--node-ip-address", "127.0.0.1",
             "--object-store-memory", str(OBJECT_STORE_BYTES)],
            env=env, capture_output=True, text=True, timeout=180)
        assert started.returncode == 0, started.stderr[-2000:]
        pids = processes_using(temp)
        assert pids, "ray start left no process of the head running"
        # a driver's environment: the user's, with the head's auth mode (and no switch:
        # the command itself keeps to the loopback address of a head on 127.0.0.1)
        driver_env = {k: v for k, v in env.items()
                      if k not in ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "RAY_USAGE_STATS_ENABLED")}
        yield Head(f"127.0.0.1:{port}", temp, pids, {**driver_env, "TMPDIR": driver_temp})
    finally:
        print(f"CPU of the head's processes (and their workers): {_cpu(temp):.1f} s")
        _kill_all(temp)
        assert not processes_using(temp)
        shutil.rmtree(temp, ignore_errors=True)
        shutil.rmtree(driver_temp, ignore_errors=True)


def _cpu(directory: str) -> float:
    """CPU seconds of the processes using ``directory`` and of their children ended."""
    ticks = 0
    for pid in processes_using(directory):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        ticks += sum(int(x) for x in fields[11:15])   # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _single_outcome(board: str) -> dict:
    r = solve_outcome(Position.from_string(board), "black")
    return {"winner": r.winner, "winning_moves": sorted(r.winning_moves), "exact": True}


def _single_grundy(board: str) -> dict:
    r = grundy_value(Position.from_string(board), solver=GrundySolver()).to_dict()
    return {k: r[k] for k in ("grundy", "winning_moves", "components", "exact")}


# --- joining a real cluster through --address ---------------------------------------------

@pytest.mark.parametrize("verb", ["clobber solve", "grundy value"])
def test_a_command_joins_the_head_and_leaves_it_running(head, verb, tmp_path):
    """The answer equals the single-process one, one actor per CPU of the head, the
    driver ran on the head (its log is in the head's session), started no Ray of its own
    (nothing in its TMPDIR), and the head still runs afterwards."""
    args = [*verb.split(), BOARD, "--distributed", "--address", head.address,
            "--store", str(tmp_path / "jobs.sqlite"), "--json"]
    if verb == "clobber solve":
        args[3:3] = ["--first", "black"]
    proc = subprocess.Popen([*COMMAND, *args], env=head.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert len(out.splitlines()) == 1   # one JSON object: no worker output forwarded
    got = json.loads(out)
    if verb == "clobber solve":
        assert {"winner": got["winner"], "winning_moves": sorted(got["winning_moves"]),
                "exact": got["exact"]} == _single_outcome(BOARD)
    else:
        assert {k: got[k] for k in ("grundy", "winning_moves", "components", "exact")} \
            == _single_grundy(BOARD)
    assert got["distributed"]["actors"] == HEAD_CPUS
    assert got["distributed"]["jobs"] > 1
    logs = Path(head.temp, "session_latest", "logs")
    assert list(logs.glob(f"python-core-driver-*_{proc.pid}.log")), "not a driver of the head"
    assert os.listdir(head.env["TMPDIR"]) == []
    # the driver did not start the head, so it did not stop it
    assert all(_alive(pid) for pid in head.pids)
    assert _accepts(head.address)


def test_the_head_listens_on_the_loopback_interface_only(head):
    if shutil.which("ss") is None:
        pytest.skip("the ss command (iproute2) is not installed")
    listening = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
    ours = [line for line in listening if any(f"pid={pid}," in line
                                              for pid in processes_using(head.temp))]
    assert len(ours) >= 2   # the GCS (at the head's port) and the raylet at least
    assert any(line.split()[3].endswith(":" + head.address.rpartition(":")[2])
               for line in ours)
    for line in ours:
        assert line.split()[3].rsplit(":", 1)[0] in ("127.0.0.1", "[::ffff:127.0.0.1]"), line


def test_a_cap_with_no_room_for_an_actor_is_one_sentence(head, tmp_path):
    """$CLOBBERMANIA_ACTOR_MEMORY below what an idle actor already takes: refused with one
    sentence, exit 2 (the actor refuses to start; the head stays up)."""
    r = subprocess.run([*COMMAND, "grundy", "value", "xoxo", "--distributed", "--address",
                        head.address, "--store", str(tmp_path / "jobs.sqlite")],
                       env={**head.env, ACTOR_MEMORY_ENV: "256M"}, capture_output=True,
                       text=True, timeout=300)
    assert (r.returncode, r.stdout) == (2, "")
    last = r.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"error: an actor's memory cap of 256 MB leaves less than 512 MB "
                        r"above the [\d,]+ MB its process has at start; set "
                        r"CLOBBERMANIA_ACTOR_MEMORY higher", last), r.stderr
    assert all(_alive(pid) for pid in head.pids)
    r = subprocess.run([*COMMAND, "grundy", "value", "xoxo", "--distributed", "--address",
                        head.address, "--store", str(tmp_path / "other.sqlite")],
                       env={**head.env, ACTOR_MEMORY_ENV: "lots"}, capture_output=True,
                       text=True, timeout=300)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("error: CLOBBERMANIA_ACTOR_MEMORY is a number of bytes, or a number "
                        "with K, M or G (such as 3G), not 'lots'\n")
    assert not (tmp_path / "other.sqlite").exists()   # refused before the store is made


@pytest.mark.skipif(AUTH_MODE != "token", reason="the head has no token authentication")
def test_joining_without_the_token_is_one_sentence_with_the_advice(head, tmp_path):
    """Ray sends its token to an --address only with RAY_AUTH_MODE=token; without it the
    join fails (after Ray's retries, about 20 s) with one sentence that says so."""
    r = subprocess.run([*COMMAND, "grundy", "value", "xoxo", "--distributed", "--address",
                        head.address, "--store", str(tmp_path / "jobs.sqlite")],
                       env={**head.env, "RAY_AUTH_MODE": "disabled"}, capture_output=True,
                       text=True, timeout=300)
    assert (r.returncode, r.stdout) == (2, "")
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: could not join the Ray cluster at {head.address}: ")
    assert last.endswith("is joined with RAY_AUTH_MODE=token and its token in "
                         "~/.ray/auth_token or the file named by RAY_AUTH_TOKEN_PATH")
    assert all(_alive(pid) for pid in head.pids)


def test_the_cap_from_its_text():
    assert actor_memory("3G") == actor_memory("3 GiB") == actor_memory(3 << 30) == 3 << 30
    assert actor_memory("1536m") == actor_memory("1572864K") == 1536 << 20
    for bad in ("0", "-1G", "3T", "1.5G", "", 0):
        with pytest.raises(ClusterError, match="a number of bytes"):
            actor_memory(bad)


def test_nothing_listening_is_refused_within_the_connect_time():
    """A port nobody listens on is refused at once; a host that never answers (a listener
    whose queue is full drops the connection) within CONNECT_SECONDS, not Ray's minutes."""
    with pytest.raises(ClusterError, match=r"^no Ray cluster answers at 127\.0\.0\.1:\d+ "):
        with cluster(address=f"127.0.0.1:{_free_port()}"):
            pass
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        held = socket.create_connection(listener.getsockname())   # the queue is full now
        try:
            t0 = time.monotonic()
            with pytest.raises(ClusterError, match="no Ray cluster answers at .*timed out"):
                with cluster(address=address):
                    pass
            waited = time.monotonic() - t0
            # the command: one sentence, exit 2, no store made (its own start-up aside,
            # well within Ray's minutes)
            store = Path(tempfile.gettempdir(), f"cbm-never-{os.getpid()}.sqlite")
            t0 = time.monotonic()
            r = subprocess.run([*COMMAND, "clobber", "solve", "xo", "--first", "black",
                                "--distributed", "--address", address, "--store",
                                str(store)], capture_output=True, text=True, timeout=120)
            command_waited = time.monotonic() - t0
        finally:
            held.close()
    assert CONNECT_SECONDS - 0.5 <= waited <= CONNECT_SECONDS + 3
    assert not ray.is_initialized()
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (f"error: no Ray cluster answers at {address} (timed out); start one "
                        f"with 'ray start --head' there\n")
    assert CONNECT_SECONDS <= command_waited <= CONNECT_SECONDS + 20
    assert not store.exists()


# --- the actors' memory cap ------------------------------------------------------------

def _rlimit_as(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max address space"):
            return int(line.split()[3])
    raise AssertionError("no address-space line in /proc/PID/limits")


def _inherited_cap() -> int:
    """The cap an actor of the head gets by default: ACTOR_MEMORY, or a lower limit the
    head's processes inherited from this one."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return ACTOR_MEMORY if soft == resource.RLIM_INFINITY else min(ACTOR_MEMORY, soft)


def _pids(c) -> list[int]:
    return ray.get([a.pid.remote() for a in c.actors])


@pytest.fixture()
def auth_mode():
    """RAY_AUTH_MODE for this process to join the head, as for the commands above. (Ray
    reads it into its configuration when imported; it is refreshed as Ray itself does.)"""
    from ray._raylet import Config

    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = AUTH_MODE
    Config.initialize("")
    yield
    if saved is None:
        del os.environ["RAY_AUTH_MODE"]
    else:
        os.environ["RAY_AUTH_MODE"] = saved
    Config.initialize("")


def test_the_memory_cap_stops_a_job_and_spares_the_actors(head, auth_mode, monkeypatch):
    """Each actor's address space is capped (RLIMIT_AS, read in /proc): a job that
    allocates past the cap fails with one sentence, and the driver and both actors go on
    (same processes, none replaced). Then a smaller cap through the ``memory`` argument:
    the same. The allocations are reserved, never written: the machine's memory is never
    at stake, whether the cap works or not."""
    monkeypatch.delenv(ACTOR_MEMORY_ENV, raising=False)
    with cluster(address=head.address) as c:
        assert c.cpus == HEAD_CPUS and c.temp_dir is None and c.memory == ACTOR_MEMORY
        pids = _pids(c)
        assert [_rlimit_as(pid) for pid in pids] == [_inherited_cap()] * HEAD_CPUS
        small = dict(c.map_jobs(CHECK, [{"bytes": 2**20}] * HEAD_CPUS, 1))
        assert {a["cap"] for a in small.values()} == {_inherited_cap()}
        used = max(a["used"] for a in small.values())
        with pytest.raises(ClusterError, match=r"^a job needed more than an actor's memory "
                                               rf"cap \({ACTOR_MEMORY // 2**20:,} MB\)"):
            list(c.map_jobs(CHECK, [{"bytes": _inherited_cap() + 2**30}], 1))
        assert _pids(c) == pids and c.restarts == 0
    assert not ray.is_initialized()

    cap = (used + ACTOR_ROOM + 2**30) // 2**20 * 2**20   # room for a real job's kernels
    with cluster(address=head.address, memory=cap) as c:
        pids = _pids(c)
        assert [_rlimit_as(pid) for pid in pids] == [cap] * HEAD_CPUS
        with pytest.raises(ClusterError, match=rf"memory cap \({cap // 2**20:,} MB\)"):
            list(c.map_jobs(CHECK, [{"bytes": cap}], 1))
        # both actors still work, a real job included, and none was replaced
        got = dict(c.map_jobs(CHECK, [{"bytes": 2**20}] * HEAD_CPUS, 1))
        assert {a["worker"].rsplit(":", 1)[1] for a in got.values()} <= set(map(str, pids))
        assert all(a["used"] < cap for a in got.values())
        (_, answer), = c.map_jobs("grundy.run_grundy_job", [{"key": BOARD}], 10**7)
        assert answer["grundy"] == _single_grundy(BOARD)["grundy"]
        assert _pids(c) == pids and c.restarts == 0
        assert [_rlimit_as(pid) for pid in pids] == [cap] * HEAD_CPUS


def test_a_job_whose_actor_keeps_dying_is_given_up(head, auth_mode):
    """A job whose actor dies MAX_ACTOR_DEATHS times (killed here, as the kernel's
    out-of-memory killer would) ends with one sentence; each dead actor is replaced and
    the cluster goes on."""
    long_job = {"board": Position.checkerboard(5, 5).text(), "to_move": "black"}
    with cluster(address=head.address) as c:
        killed = []

        def kill_the_job_actor() -> None:
            # the job runs on the first actor; after each death on its replacement
            deadline = time.monotonic() + 120
            while len(killed) < MAX_ACTOR_DEATHS and time.monotonic() < deadline:
                actor = c.actors[0]
                if actor not in killed:
                    time.sleep(0.5)   # the job is on it (or queued at it)
                    killed.append(actor)
                    ray.kill(actor)
                time.sleep(0.05)

        pool = c.pool("clobber_search.run_outcome_job", 10**12)
        pool.submit(long_job, "5x5")
        killer = threading.Thread(target=kill_the_job_actor)
        killer.start()
        try:
            with pytest.raises(ClusterError, match=rf"^a job killed its actor "
                                                   rf"{MAX_ACTOR_DEATHS} times"):
                pool.next()
        finally:
            killer.join(timeout=150)
            pool.drop()
        assert len(killed) == MAX_ACTOR_DEATHS and c.restarts == MAX_ACTOR_DEATHS
        assert c.actors[0] not in killed
        (_, answer), = c.map_jobs("clobber_search.run_outcome_job",
                                  [{"board": BOARD, "to_move": "black"}], 10**7)
        assert answer["winner"] == _single_outcome(BOARD)["winner"]


# --- the private local Ray: safe on a shared machine ---------------------------------------

def test_the_private_ray_is_safe_on_a_shared_machine(capfd):
    """Its own temporary directory, no dashboard, usage statistics off, worker output not
    forwarded to the driver, the actors capped; and once the driver that started it is
    done, none of its processes is left and its directory is gone. (Listening on
    127.0.0.1 only: test_clobber.py, with ss.)"""
    from ray._common.usage import usage_lib

    base = tempfile.mkdtemp(prefix="cbm-t-", dir="/tmp")   # short: Ray's socket paths
    saved = tempfile.tempdir
    tempfile.tempdir = base   # the private Ray makes its directory under $TMPDIR
    try:
        with cluster(cpus=1) as c:
            temp = c.temp_dir
            assert temp is not None and Path(temp).parent == Path(base)
            node = ray._private.worker._global_node
            assert Path(node.get_session_dir_path()).is_relative_to(temp)
            assert not node.address_info.get("webui_url")      # no dashboard
            assert usage_lib.usage_stats_enabled() is False
            ours = processes_using(temp)
            assert len(ours) >= 3   # the GCS, the raylet, the actor at least
            if shutil.which("ss"):   # Ray's dashboard process (--minimal) serves nothing
                dashboard = [pid for pid in ours if "dashboard/dashboard.py" in
                             Path(f"/proc/{pid}/cmdline").read_text(errors="replace")]
                listening = subprocess.run(["ss", "-ltnpH"], capture_output=True,
                                           text=True, check=True).stdout
                assert not any(f"pid={pid}," in listening for pid in dashboard)
            (pid,) = _pids(c)
            assert pid in ours and _rlimit_as(pid) == min(_inherited_cap(), c.memory)
            # a worker's print goes to its log file, never to this driver's output
            ray.get(ray.remote(pprint.pprint).options(num_cpus=0).remote("worker says hi"))
            logs = Path(node.get_session_dir_path(), "logs")
            for _ in range(50):
                if any("worker says hi" in f.read_text(errors="replace")
                       for f in logs.glob("worker-*.out")):
                    break
                time.sleep(0.1)
            else:
                pytest.fail("the worker's output is not in its log file")
            time.sleep(1.5)   # Ray's log monitor would have forwarded it by now
            out, err = capfd.readouterr()
            assert "worker says hi" not in out + err
        assert not ray.is_initialized()
        assert not processes_using(temp), "processes of the private Ray are left"
        assert not Path(temp).exists()
        assert cluster_module._SAVED == {}   # Ray's cluster switch restored
    finally:
        tempfile.tempdir = saved
        _kill_all(base)
        shutil.rmtree(base, ignore_errors=True)
