"""A Ray cluster to run jobs on: a private local Ray, or an existing cluster joined.

:func:`cluster` is a context manager giving a :class:`Cluster` of long-lived actors (one
per CPU). Each actor is one worker process that keeps its compiled numba kernels and its
tables warm across jobs, runs numba on one thread, and has an address-space cap
(RLIMIT_AS: :data:`ACTOR_MEMORY`, or ``$CLOBBERMANIA_ACTOR_MEMORY``, or the ``memory``
argument of :func:`cluster`; never above a lower limit the actor inherits). A job that
allocates past it fails with ``MemoryError`` in its actor, which survives; the driver
reports the job with :class:`ClusterError`.

A job is a plain function ``run_<kind>_job(payload, budget) -> dict`` of a workload
module of this package (``clobber_search``, ``grundy``), named ``"<module>.<function>"``;
it can be tested without Ray.

The private local Ray is safe on a shared machine: bound to 127.0.0.1, no dashboard,
usage statistics off, worker output not forwarded to the driver (so ``--json`` still
prints one object), its own temporary directory (under ``$TMPDIR``), a small object
store, and shut down by the driver that started it (``ray.shutdown()``; never ``ray
stop``, which would end every Ray process of the machine).

An actor that dies (killed, out of memory, its machine gone) is replaced by a new one and
its job run again there: a job is a pure function of its payload and budget, so the
answer is the same. A job whose actor dies :data:`MAX_ACTOR_DEATHS` times is given up
with :class:`ClusterError`.

Joining a cluster at a loopback address (``127.0.0.1:PORT``, a head started on this
machine with ``--node-ip-address 127.0.0.1``) keeps the driver on the loopback address
too (Ray would otherwise look for the head at the machine's network address).

>>> with cluster(cpus=1) as c:                                  # doctest: +SKIP
...     list(c.map_jobs("clobber_search.run_outcome_job",
...                     [{"board": "xo", "to_move": "black"}], 1000))
[(0, {... 'winner': 'black', ...})]
"""

from __future__ import annotations

import collections
import importlib
import ipaddress
import os
import re
import shutil
import signal
import socket
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import ClobbermaniaError, UnsupportedError
from ..limits import address_space

__all__ = ["RayMissing", "ClusterError", "Cluster", "JobPool", "InProcess", "InProcessPool",
           "cluster", "require_ray",
           "ACTOR_MEMORY", "ACTOR_MEMORY_ENV", "ACTOR_ROOM", "actor_memory",
           "run_memory_check_job", "CONNECT_SECONDS", "check_reachable", "check_cpus",
           "OBJECT_STORE_BYTES", "MAX_ACTOR_DEATHS", "PIPELINE", "processes_using"]

#: The address-space cap of one actor process (RLIMIT_AS), in bytes: a job that needs
#: more fails with MemoryError instead of taking the machine's memory.
ACTOR_MEMORY = 6 * 1024**3
#: The environment variable that sets the actors' cap instead: bytes, or a number with
#: K, M or G (powers of 1024), e.g. ``CLOBBERMANIA_ACTOR_MEMORY=3G``.
ACTOR_MEMORY_ENV = "CLOBBERMANIA_ACTOR_MEMORY"
#: The least room a cap must leave above the address space an actor has when it starts
#: (an idle Ray worker has about 1.4 GB; loading the numba kernels takes about 0.3 GB).
ACTOR_ROOM = 512 * 1024**2
#: The object store of a private local Ray (jobs exchange only small dicts).
OBJECT_STORE_BYTES = 100 * 1024**2
#: A job whose actor dies this many times is given up (with one sentence).
MAX_ACTOR_DEATHS = 3
#: Seconds to wait for a cluster's address to accept a connection.
CONNECT_SECONDS = 5.0
#: Jobs sent to one actor at a time: the next one waits at the actor while the driver
#: handles the answer of the last, so that a short job does not leave its CPU idle.
PIPELINE = 2


class RayMissing(UnsupportedError):
    """``--distributed`` asked for while Ray is not installed."""

    def __init__(self) -> None:
        super().__init__("--distributed needs Ray: pip install 'clobbermania[distributed]'")


class ClusterError(ClobbermaniaError):
    """The cluster cannot be started or joined, or keeps losing the actor of a job."""


def require_ray():
    """The ``ray`` module; :class:`RayMissing` (one sentence) when it is not installed.

    A command calls it before it opens a job store or does any other work."""
    try:
        import ray
    except ImportError:
        raise RayMissing() from None
    return ray


def actor_memory(memory: int | str | None = None) -> int:
    """The actors' address-space cap in bytes: ``memory`` (bytes, or a text such as
    ``"3G"``), else ``$CLOBBERMANIA_ACTOR_MEMORY``, else :data:`ACTOR_MEMORY`.
    ClusterError (one sentence) for a size that is not a positive number of bytes, or a
    number with K, M or G.

    >>> actor_memory("3G") == 3 * 1024**3, actor_memory(2**31), actor_memory("512m")
    (True, 2147483648, 536870912)
    """
    where = "the actors' memory cap"
    if memory is None:
        memory = os.environ.get(ACTOR_MEMORY_ENV) or ACTOR_MEMORY
        where = ACTOR_MEMORY_ENV if ACTOR_MEMORY_ENV in os.environ else where
    if isinstance(memory, int) and not isinstance(memory, bool):
        size = memory
    else:
        m = re.fullmatch(r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*", str(memory), re.IGNORECASE)
        size = int(m[1]) * {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}[m[2].lower()] \
            if m else 0
    if size < 1:
        raise ClusterError(f"{where} is a number of bytes, or a number with K, M or G "
                           f"(such as 3G), not {memory!r}")
    return size


def run_memory_check_job(payload: dict, budget: int) -> dict:
    """One job that checks its actor's memory cap: it reserves ``payload["bytes"]`` bytes
    of address space (an array never written to, so it takes no memory) and frees it.
    Returns {"cap": the RLIMIT_AS in force (None: none), "used": the address space the
    actor uses, "reserved": the bytes reserved}; past the cap the reservation fails with
    ``MemoryError``, reported by the driver as :class:`ClusterError`. ``budget`` is not
    used (a job's signature).

    >>> run_memory_check_job({"bytes": 2**20}, 1)["reserved"]
    1048576
    """
    import resource

    import numpy as np

    size = payload.get("bytes")
    if not isinstance(size, int) or size < 0:
        raise ClobbermaniaError(f"a memory check job reserves a number of bytes, not {size!r}")
    block = np.empty(size, dtype=np.uint8)   # reserved, never touched
    del block
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return {"cap": None if soft == resource.RLIM_INFINITY else soft,
            "used": address_space(), "reserved": size}


def _resolve(fn_name: str):
    """``"clobber_search.run_outcome_job"`` -> that function of this package."""
    module, _, fn = fn_name.rpartition(".")
    if not module or not fn:
        raise ClusterError(f"a job function is named '<module>.<function>', not {fn_name!r}")
    return getattr(importlib.import_module(f"{__package__}.{module}"), fn)


class _Worker:
    """The body of one actor (wrapped by ray.remote in :func:`cluster`)."""

    def __init__(self, memory: int | None) -> None:
        os.environ["NUMBA_NUM_THREADS"] = "1"
        os.environ["OMP_NUM_THREADS"] = "1"
        if memory:
            import resource
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            # never above a limit the actor inherits (the command line's memory bound)
            cap = min([memory] + [x for x in (soft, hard) if x != resource.RLIM_INFINITY])
            used = address_space() or 0
            if cap < used + ACTOR_ROOM:
                raise ClusterError(
                    f"an actor's memory cap of {cap // 2**20:,} MB leaves less than "
                    f"{ACTOR_ROOM // 2**20} MB above the {used // 2**20:,} MB its process "
                    f"has at start; set {ACTOR_MEMORY_ENV} higher")
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        self.name = f"{socket.gethostname()}:{os.getpid()}"
        self.jobs = 0

    def run(self, fn_name: str, payload: dict, budget: int) -> dict:
        """``fn(payload, budget)`` with the key "worker" (host:pid) added."""
        self.jobs += 1
        answer = dict(_resolve(fn_name)(payload, budget))
        answer["worker"] = self.name
        return answer

    def pid(self) -> int:
        return os.getpid()


class Cluster:
    """Actors (one per CPU) and the jobs running on them; made by :func:`cluster`.

    ``cpus`` is the number of actors, ``slots`` the jobs they take at a time (each
    actor runs one and holds :data:`PIPELINE` - 1 more). :meth:`map_jobs` runs a list of
    jobs; :meth:`pool` gives a :class:`JobPool` to which a driver adds jobs as it goes.
    """

    def __init__(self, ray, actor_cls, cpus: int, address: str | None,
                 memory: int = ACTOR_MEMORY) -> None:
        self._ray = ray
        self._actor_cls = actor_cls
        self.cpus = cpus
        self.slots = cpus * PIPELINE
        self.address = address
        self.memory = memory      # each actor's address-space cap, in bytes
        self.temp_dir: str | None = None   # the private local Ray's directory
        self.actors: list[Any] = [self._new_actor() for _ in range(cpus)]
        self.restarts = 0
        # the tasks in flight: ref -> (actor slot, actor, pool, tag, job)
        self._running: dict[Any, tuple[int, Any, JobPool | None, Any, tuple]] = {}
        self._load = [0] * cpus   # tasks in flight on each actor
        # wait until every actor is up (its process started, the class imported)
        try:
            ray.get([a.pid.remote() for a in self.actors])
        except ray.exceptions.RayActorError as e:   # the actor's __init__ refused
            raise ClusterError(_creation_error(e)) from None

    def _new_actor(self):
        return self._actor_cls.options(num_cpus=1).remote(self.memory)

    def pool(self, fn_name: str, budget: int) -> JobPool:
        """A :class:`JobPool` running ``fn_name(payload, budget)`` for each payload added."""
        _resolve(fn_name)   # a wrong name is refused here, not in every actor
        return JobPool(self, fn_name, budget)

    def map_jobs(self, fn_name: str, payloads: list[dict], budget: int
                 ) -> Iterator[tuple[int, dict]]:
        """Run ``fn_name(payload, budget)`` for every payload on the actors; yield
        ``(index, answer)`` as the jobs finish (answer: the function's dict plus
        "worker"). Leaving the loop early drops the jobs not started."""
        pool = self.pool(fn_name, budget)
        for i, p in enumerate(payloads):
            pool.submit(p, i)
        try:
            while pool.busy:
                yield pool.next()
        finally:
            pool.drop()

    # --- scheduling (used by JobPool) ---------------------------------------------------

    def _dispatch(self, pool: JobPool) -> None:
        while pool.queue:
            slot = min(range(len(self.actors)), key=self._load.__getitem__)
            if self._load[slot] >= PIPELINE:
                return
            tag, payload, deaths = pool.queue.popleft()
            actor = self.actors[slot]
            ref = actor.run.remote(pool.fn_name, payload, pool.budget)
            self._running[ref] = (slot, actor, pool, tag, (payload, deaths))
            self._load[slot] += 1
            pool.in_flight += 1

    def _wait_one(self, pool: JobPool, timeout: float | None = None
                  ) -> tuple[Any, dict] | None | bool:
        """Wait for one task; the (tag, answer) of a finished job of ``pool``, None (a
        stale task finished, or an actor died and its job was queued again), or False
        when no task finished within ``timeout`` seconds."""
        ray = self._ray
        ready, _ = ray.wait(list(self._running), num_returns=1, timeout=timeout)
        if not ready:
            return False
        ref = ready[0]
        slot, actor, owner, tag, (payload, deaths) = self._running.pop(ref)
        current = self.actors[slot] is actor   # (not an actor replaced since)
        if current:
            self._load[slot] -= 1
        if owner is pool:
            pool.in_flight -= 1
        try:
            answer = ray.get(ref)
        except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError,
                ray.exceptions.OutOfMemoryError):   # (the last: Ray's memory monitor)
            if current:
                self._replace(slot)
            if owner is pool:
                if deaths + 1 >= MAX_ACTOR_DEATHS:
                    raise ClusterError(f"a job killed its actor {deaths + 1} times (out of "
                                       f"memory? the cap is {self.memory // 2**20:,} MB): "
                                       f"{payload}") from None
                pool.queue.appendleft((tag, payload, deaths + 1))
            return None
        except ray.exceptions.RayTaskError as e:
            if owner is not pool:
                return None
            cause = e.as_instanceof_cause()
            if isinstance(cause, ClobbermaniaError):
                raise ClusterError(str(cause.args[0]) if cause.args else str(e)) from None
            if isinstance(cause, MemoryError):
                raise ClusterError(f"a job needed more than an actor's memory cap "
                                   f"({self.memory // 2**20:,} MB): {payload}") from None
            raise
        if owner is not pool:
            return None
        return tag, answer

    def _replace(self, slot: int) -> None:
        ray = self._ray
        try:
            ray.kill(self.actors[slot])
        except Exception:  # already gone
            pass
        self.actors[slot] = self._new_actor()
        self._load[slot] = 0
        self.restarts += 1

    def _drop(self, pool: JobPool) -> None:
        pool.queue.clear()
        # tasks in flight keep their actor busy until they end (a job has a budget);
        # their answers are then ignored
        for ref, (slot, actor, owner, tag, job) in list(self._running.items()):
            if owner is pool:
                self._running[ref] = (slot, actor, None, tag, job)
        pool.in_flight = 0


class JobPool:
    """Jobs of one function and budget on a :class:`Cluster`: :meth:`submit` adds one
    (with a tag of the caller's), :meth:`next` waits for one to finish and returns
    ``(tag, answer)``; a job whose actor dies is run again on its replacement."""

    def __init__(self, cluster: Cluster, fn_name: str, budget: int) -> None:
        self.cluster = cluster
        self.fn_name = fn_name
        self.budget = budget
        self.queue: collections.deque = collections.deque()
        self.in_flight = 0

    @property
    def busy(self) -> bool:
        """Whether a job is queued or running."""
        return bool(self.queue) or self.in_flight > 0

    @property
    def queued(self) -> int:
        return len(self.queue)

    def submit(self, payload: dict, tag: Any) -> None:
        """Queue ``fn(payload, budget)``; it starts as soon as an actor is free."""
        self.queue.append((tag, payload, 0))
        self.cluster._dispatch(self)

    def next(self, timeout: float | None = None) -> tuple[Any, dict] | None:
        """The (tag, answer) of the next job to finish (ClusterError when none is left);
        with ``timeout`` (seconds), None when no job finished within it, so that a
        driver can stop at its deadline, or at a Ctrl-C, while jobs run (a job stopped
        so is lost, its actor runs it to its end unheard: :meth:`drop`)."""
        if not self.busy:
            raise ClusterError("no job is queued or running")
        end = None if timeout is None else time.monotonic() + max(0.0, timeout)
        while True:
            self.cluster._dispatch(self)
            left = None if end is None else max(0.0, end - time.monotonic())
            got = self.cluster._wait_one(self, left)
            if got is False:
                return None
            if got is not None:
                self.cluster._dispatch(self)
                return got

    def drop(self) -> None:
        """Forget the jobs queued and running (their actors finish them unheard)."""
        self.cluster._drop(self)


def _creation_error(error: Exception) -> str:
    """The sentence of the ClobbermaniaError an actor's ``__init__`` raised (Ray reports
    it as the actor's death), or Ray's first line."""
    text = str(error)
    m = re.search(r"(?:ClusterError|ClobbermaniaError): (.+)", text)
    if m:
        return m[1].strip()
    return f"an actor could not be started: {text.strip().splitlines()[0] if text else error}"


def _is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface.

    >>> _is_loopback("127.0.0.1"), _is_loopback("[::1]"), _is_loopback("10.0.0.7")
    (True, True, False)
    """
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class InProcess:
    """A stand-in for :class:`Cluster` that runs every job in this process, one at a time,
    in the order submitted (one "actor", named ``in-process`` in the job store): the
    drivers without Ray (``cluster=None``), for tests and for checking a cluster's
    answers. ``ran`` lists the payloads of the jobs it ran.

    >>> pool = InProcess().pool("grundy.run_grundy_job", 10)
    >>> pool.submit({"key": "xo"}, "tag"); pool.next()[1]["grundy"]
    1
    """

    cpus = 1
    slots = 1

    def __init__(self) -> None:
        self.ran: list[dict] = []

    def pool(self, fn_name: str, budget: int) -> InProcessPool:
        return InProcessPool(self, _resolve(fn_name), budget)

    def map_jobs(self, fn_name: str, payloads: list[dict], budget: int
                 ) -> Iterator[tuple[int, dict]]:
        pool = self.pool(fn_name, budget)
        for i, p in enumerate(payloads):
            pool.submit(p, i)
        while pool.busy:
            yield pool.next()


class InProcessPool:
    """The job pool of :class:`InProcess` (the interface of :class:`JobPool`)."""

    def __init__(self, owner: InProcess, run: Any, budget: int) -> None:
        self.owner, self.run, self.budget = owner, run, budget
        self.queue: collections.deque[tuple[dict, Any]] = collections.deque()

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    @property
    def queued(self) -> int:
        return len(self.queue)

    def submit(self, payload: dict, tag: Any) -> None:
        self.queue.append((payload, tag))

    def next(self, timeout: float | None = None) -> tuple[Any, dict]:
        """The next job, run here and now (``timeout`` is moot: it never waits)."""
        if not self.queue:
            raise ClusterError("no job is queued")
        payload, tag = self.queue.popleft()
        self.owner.ran.append(payload)
        return tag, {**self.run(payload, self.budget), "worker": "in-process"}

    def drop(self) -> None:
        self.queue.clear()


def _loopback_only(ray, on: bool = True) -> None:
    """Make a local Ray take 127.0.0.1 as this node's address, so that its servers listen
    on the loopback interface only. (``ray.init(_node_ip_address="127.0.0.1")`` alone is
    turned into the machine's address by Ray; Ray takes the loopback address when its
    clusters are off, as on Windows and macOS: ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER``,
    read when ray is imported, hence this switch.) ``on=False`` switches it back."""
    constants = getattr(getattr(ray, "_private", None), "ray_constants", None)
    if constants is not None and hasattr(constants, "ENABLE_RAY_CLUSTER"):
        if on:
            _SAVED.setdefault("ENABLE_RAY_CLUSTER", constants.ENABLE_RAY_CLUSTER)
            constants.ENABLE_RAY_CLUSTER = False
        elif "ENABLE_RAY_CLUSTER" in _SAVED:
            constants.ENABLE_RAY_CLUSTER = _SAVED.pop("ENABLE_RAY_CLUSTER")


_SAVED: dict[str, Any] = {}


def processes_using(directory: str) -> list[int]:
    """The pids of this user's processes (this one aside) that have a file under
    ``directory`` open or name it on their command line: the processes of the private
    Ray whose temporary directory it is. (Its two agents, renamed ``ray::DashboardAgent``
    and ``ray::RuntimeEnvAgent``, outlive ``ray.shutdown()`` by about a minute.) Empty
    where there is no /proc.

    >>> processes_using("/nonexistent-directory")
    []
    """
    found = []
    proc = Path("/proc")
    if not proc.is_dir():
        return found
    for d in proc.iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            if directory in (d / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(d.name))
                continue
            for fd in (d / "fd").iterdir():
                if os.readlink(fd).startswith(directory):
                    found.append(int(d.name))
                    break
        except OSError:   # another user's process, or gone
            continue
    return found


def _machine_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, else the machine's count): the
    most actors a private Ray starts.

    >>> _machine_cpus() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):   # no affinity mask on this platform
        return os.cpu_count() or 1


def check_cpus(cpus: int | None, address: str | None = None) -> int:
    """This machine's CPUs, after refusing with one sentence ``cpus`` actors that a
    private Ray (no ``address``) cannot give one CPU each (a command checks it before it
    opens its job store; a joined cluster's CPUs are checked once it is joined).

    >>> check_cpus(10**6)
    Traceback (most recent call last):
    ...
    clobbermania.distributed.cluster.ClusterError: --cpus 1,000,000 is more than the ... \
CPUs of this machine (a private Ray runs one actor per CPU); give at most ..., or --address \
to use a cluster
    """
    machine = _machine_cpus()
    if cpus is not None and cpus < 1:
        raise ClusterError(f"--cpus must be at least 1, not {cpus}")
    if address is None and cpus is not None and cpus > machine:
        raise ClusterError(f"--cpus {cpus:,} is more than the {machine} CPUs of this machine "
                           "(a private Ray runs one actor per CPU); give at most "
                           f"{machine}, or --address to use a cluster")
    return machine


def check_reachable(address: str) -> None:
    """ClusterError when nothing accepts a connection at ``address`` ("HOST:PORT") within
    :data:`CONNECT_SECONDS` (Ray itself retries for minutes); :func:`cluster` checks it
    before joining, a command before it opens its job store.

    >>> check_reachable("127.0.0.1:port")
    Traceback (most recent call last):
    ...
    clobbermania.distributed.cluster.ClusterError: a Ray address is HOST:PORT, not '127.0.0.1:port'
    """
    host, _, port = address.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise ClusterError(f"a Ray address is HOST:PORT, not {address!r}") from None
    if not host.strip("[]") or not 0 < number < 65536:
        raise ClusterError(f"a Ray address is HOST:PORT with a host and a port from 1 to "
                           f"65535, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), number), timeout=CONNECT_SECONDS).close()
    except OSError as e:
        raise ClusterError(f"no Ray cluster answers at {address} ({e.strerror or e}); "
                           f"start one with 'ray start --head' there") from None


@contextmanager
def cluster(address: str | None = None, cpus: int | None = None,
            memory: int | str | None = None) -> Iterator[Cluster]:
    """A :class:`Cluster`: with no ``address`` a private local Ray of ``cpus`` CPUs (all of
    this machine's when None) started here and shut down on exit; with ``address``
    ("HOST:PORT") an existing Ray cluster joined (``cpus`` actors, or one per CPU it
    has), and only disconnected from on exit (the cluster keeps running). ``memory``:
    each actor's address-space cap (:func:`actor_memory`: by default
    ``$CLOBBERMANIA_ACTOR_MEMORY``, else :data:`ACTOR_MEMORY`).

    RayMissing (one sentence, exit 2 on the command line) when Ray is not installed;
    ClusterError when Ray cannot be started or joined, or the cap leaves an actor no room.
    """
    ray = require_ray()
    machine = total = check_cpus(cpus, address)
    cap = actor_memory(memory)
    if ray.is_initialized():
        raise ClusterError("Ray is already running in this process; one cluster at a time")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    temp_dir = None
    machine = total = check_cpus(cpus, address)
    try:
        if address is None:
            n = cpus or machine
            temp_dir = tempfile.mkdtemp(prefix="cbm-ray-")
            _loopback_only(ray)
            ray.init(address="local", num_cpus=n, include_dashboard=False,
                     log_to_driver=False, _temp_dir=temp_dir, configure_logging=False,
                     _node_ip_address="127.0.0.1", object_store_memory=OBJECT_STORE_BYTES,
                     namespace="clobbermania")
        else:
            check_reachable(address)
            if _is_loopback(address.rpartition(":")[0]):
                _loopback_only(ray)   # a head on this machine's loopback interface
            ray.init(address=address, log_to_driver=False, configure_logging=False,
                     namespace="clobbermania")
            total = int(ray.cluster_resources().get("CPU", 0))
            n = cpus or max(1, total)
    except (ConnectionError, RuntimeError, ValueError) as e:
        if ray.is_initialized():
            ray.shutdown()
        _loopback_only(ray, on=False)
        if temp_dir:
            shutil.rmtree(temp_dir, ignore_errors=True)
        where = f"join the Ray cluster at {address}" if address else "start a local Ray"
        hint = ""
        if address and os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
            # Ray sends its token only to the clusters it starts, not to an --address
            hint = ("; a cluster with token authentication (Ray's default) is joined with "
                    "RAY_AUTH_MODE=token and its token in ~/.ray/auth_token or the file "
                    "named by RAY_AUTH_TOKEN_PATH")
        raise ClusterError(f"could not {where}: {str(e).splitlines()[0] if str(e) else e}"
                           f"{hint}") from None
    try:
        if address is not None and total < 1:
            raise ClusterError(f"the Ray cluster at {address} has no CPU to run an actor on")
        if address is not None and n > total:
            raise ClusterError(f"--cpus {n:,} is more than the {total} CPUs of the Ray "
                               f"cluster at {address} (one actor per CPU: the others would "
                               "wait for a CPU forever)")
        actor_cls = ray.remote(_Worker)
        c = Cluster(ray, actor_cls, n, address, cap)
        c.temp_dir = temp_dir
        yield c
    finally:
        ray.shutdown()
        _loopback_only(ray, on=False)
        if temp_dir:
            for pid in processes_using(temp_dir):
                try:
                    os.kill(pid, signal.SIGKILL)   # (they catch SIGTERM and stay)
                except OSError:   # gone already
                    pass
            shutil.rmtree(temp_dir, ignore_errors=True)
