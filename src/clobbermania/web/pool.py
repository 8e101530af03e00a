"""The worker processes of ``clobbermania serve``: searches run here, off the event loop.

A :class:`WorkerPool` keeps ``processes`` worker processes, started with multiprocessing's
"spawn" (a clean interpreter each: numba and threads do not survive ``fork``). Each
worker ignores SIGINT (the terminal's Ctrl-C reaches the whole process group; the server
alone decides when workers stop), limits its address space to its share of the memory
bound (:func:`clobbermania.limits.memory_bound` divided by the number of workers), runs
numba on one thread, lowers its CPU priority (so that the server's event loop and the
light requests stay fast while every worker searches), warms up (loads the compiled
kernels), and then runs jobs: ``job(*args)`` for a module-level ``job`` function
(:func:`run_api_call`, which is :func:`clobbermania.api.call`, unless a test passes a
slow one).

Numba code cannot be interrupted, so the pool enforces the time limit from outside: a job
still running ``time_limit * 1.5 + 2`` seconds after it started has its worker killed
(SIGKILL) and replaced, and its caller gets :class:`JobOverran` (HTTP 504). A job finding
every worker busy waits in a queue of at most ``queue`` jobs; one more is refused at once
with :class:`PoolFull` (HTTP 503 with ``Retry-After``).

The pool lives on one asyncio event loop: :meth:`WorkerPool.run` is awaited there, and
every change of its state happens on that loop's thread (a reader thread per worker only
hands the worker's messages over with ``call_soon_threadsafe``).

>>> pool = WorkerPool(processes=2, queue=8, time_limit=5.0)
>>> pool.kill_after, pool.memory_per_worker == memory_bound() // 2
(9.5, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import ClobbermaniaError, NotationError
from ..limits import memory_bound, memory_bound_sentence

#: The least address space a worker of several is given: numba and its compiled kernels
#: need a few hundred MB before any search starts. ``processes`` above 1 is refused when
#: the memory bound divided by it falls below.
MIN_WORKER_MEMORY = 1 << 30

#: The most worker processes a server may start.
MAX_PROCESSES = 256

#: The longest time limit a server accepts, in seconds.
MAX_TIME_LIMIT = 3600.0

#: The niceness a worker adds to its own: searches yield the CPU to the server process
#: (its event loop and the light requests it answers in threads).
WORKER_NICE = 10

#: A worker still starting after this many seconds has failed to start.
START_TIMEOUT = 120.0

#: Workers that die this many times in a row before becoming ready break the pool.
MAX_START_FAILURES = 3

#: Cheap requests a worker answers once before taking jobs, so that its first real job
#: does not pay for loading the compiled kernels (an endpoint not defined is skipped).
WARM_UP_REQUESTS: tuple[tuple[str, dict], ...] = (
    ("cgt/value", {"expr": "{1|*}"}),
    ("clobber/value", {"board": "xo/ox"}),
    ("grundy/value", {"board": "xoxo"}),
    ("solitaire/solve", {"board": "xoxo/oxox"}),
    ("clickomania/solve", {"board": "112/221"}),
)


class PoolError(Exception):
    """A request the pool could not answer: ``status`` is its HTTP status, the message one
    sentence."""

    status = 500


class PoolFull(PoolError):
    """Every worker is busy and the queue is full (HTTP 503, retry after
    ``retry_after`` seconds)."""

    status = 503

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PoolClosed(PoolError):
    """The pool is stopping or broken (HTTP 503)."""

    status = 503


class JobOverran(PoolError):
    """The job ran past the pool's kill time: its worker was killed (HTTP 504)."""

    status = 504


class WorkerLost(PoolError):
    """The worker died while running the job (HTTP 500)."""

    status = 500


class JobFailed(PoolError):
    """The job raised: bad input (400, or 404 for an unknown endpoint), more memory than
    the worker's bound (400), or an unexpected error (500)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


# ----------------------------------------------------------------------------------------
# the worker side


def run_api_call(name: str, body: Any, max_time_limit: float | None) -> dict:
    """The default job: :func:`clobbermania.api.call` (imported in the worker, after its
    set-up, so that numba starts with one thread)."""
    from .. import api

    return api.call(name, body, max_time_limit)


def warm_up() -> None:
    """The default warm-up: each of :data:`WARM_UP_REQUESTS` once, errors ignored (an
    endpoint not defined, or refusing, is skipped; anything unexpected is reported on
    stderr in one line and the worker goes on)."""
    from .. import api

    for name, body in WARM_UP_REQUESTS:
        if name not in api.ENDPOINTS:
            continue
        try:
            api.call(name, body, 1.0)
        except ClobbermaniaError:
            pass
        except Exception as exc:  # noqa: BLE001 - a warm-up never stops a worker
            print(f"warning: worker warm-up with {name} failed: {type(exc).__name__}: "
                  f"{exc}"[:300], file=sys.stderr, flush=True)


def _one_numba_thread() -> None:
    """Make numba use one thread in this process: by its environment variable when numba
    is not loaded yet, else by its run-time setting (a spawned worker loads the parent's
    main script first, which may have imported numba)."""
    numba = sys.modules.get("numba")
    if numba is None:
        os.environ["NUMBA_NUM_THREADS"] = "1"
        return
    numba.config.NUMBA_NUM_THREADS = 1  # read by the searches that pick a thread count
    with contextlib.suppress(Exception):
        numba.set_num_threads(1)


def _limit_address_space(limit: int | None) -> None:
    """Lower this process's soft RLIMIT_AS to ``limit`` bytes (never raise it)."""
    if limit is None:
        return
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or limit < soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _exit_with_parent(parent: int) -> None:
    """Exit this process as soon as ``parent`` is no longer its parent (the server was
    killed without stopping its workers): checked every half second on a daemon thread."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _error_reply(exc: BaseException) -> tuple[str, str, int]:
    """The ``("error", sentence, status)`` message for an exception raised by a job."""
    if isinstance(exc, MemoryError):
        return "error", memory_bound_sentence(), 400
    if isinstance(exc, ClobbermaniaError):
        from ..api import NotFound

        return "error", " ".join(str(exc).split()), 404 if isinstance(exc, NotFound) else 400
    traceback.print_exception(exc, file=sys.stderr)
    return "error", f"internal error ({type(exc).__name__}); the server's log has the details", \
        500


def _worker_main(conn: Any, job: Callable[..., Any], warm: Callable[[], None] | None,
                 memory_limit: int | None, nice: int, parent: int) -> None:
    """A worker's life: set up, warm up, say ``("ready", pid)``, then answer each
    ``(job id, args)`` with ``(job id, ("ok", result))`` or ``(job id, ("error",
    sentence, status))`` until the connection closes or ``None`` arrives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent(parent)
    _one_numba_thread()
    _limit_address_space(memory_limit)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    if warm is not None:
        warm()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job_id, args = message
        try:
            reply: tuple = ("ok", job(*args))
        except BaseException as exc:  # noqa: BLE001 - every failure becomes an answer
            reply = _error_reply(exc)
        try:
            conn.send((job_id, reply))
        except (OSError, ValueError):
            return
        except Exception as exc:  # noqa: BLE001 - an answer that does not pickle
            conn.send((job_id, _error_reply(exc)))


# ----------------------------------------------------------------------------------------
# the server side


@dataclass(eq=False)
class _Job:
    id: int
    args: tuple
    future: asyncio.Future


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Any
    ready: bool = False
    dead: bool = False
    job: _Job | None = None
    timer: asyncio.TimerHandle | None = None


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while a worker is spawned (on the main thread only), so that the new
    interpreter inherits SIG_IGN and no Ctrl-C can interrupt it before its set-up runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def default_processes() -> int:
    """The default number of workers: the cores, but no more than leave each worker
    :data:`MIN_WORKER_MEMORY` of the memory bound."""
    return max(1, min(os.cpu_count() or 1, memory_bound() // MIN_WORKER_MEMORY, MAX_PROCESSES))


class WorkerPool:
    """``processes`` spawned workers running ``job`` under a time limit (module docstring).

    ``time_limit`` is the server's limit in seconds (a job is killed ``time_limit * 1.5 +
    2`` seconds after it started); ``queue`` the most jobs that may wait for a worker;
    ``warm`` a module-level function each worker runs before its first job (None: none).
    Bad settings raise :class:`~clobbermania.errors.NotationError` with one sentence.
    """

    def __init__(self, job: Callable[..., Any] = run_api_call, *,
                 processes: int | None = None, queue: int = 32, time_limit: float = 5.0,
                 warm: Callable[[], None] | None = warm_up, nice: int = WORKER_NICE) -> None:
        if processes is None:
            processes = default_processes()
        if isinstance(processes, bool) or not isinstance(processes, int) or \
                not 1 <= processes <= MAX_PROCESSES:
            raise NotationError(f"the number of processes must be between 1 and "
                                f"{MAX_PROCESSES}, not {processes}")
        per_worker = memory_bound() // processes
        if processes > 1 and per_worker < MIN_WORKER_MEMORY:   # one worker takes the bound
            most = max(1, memory_bound() // MIN_WORKER_MEMORY)
            raise NotationError(
                f"{processes} processes would leave each worker "
                f"{per_worker / 2**30:.2f} GiB of the memory bound of "
                f"{memory_bound() / 2**30:.1f} GiB; a worker needs "
                f"{MIN_WORKER_MEMORY / 2**30:g} GiB: use at most {most}")
        if isinstance(queue, bool) or not isinstance(queue, int) or not 0 <= queue <= 100_000:
            raise NotationError(f"the queue must hold between 0 and 100,000 requests, "
                                f"not {queue}")
        if not isinstance(time_limit, (int, float)) or not math.isfinite(time_limit) or \
                not 0 < time_limit <= MAX_TIME_LIMIT:
            raise NotationError(f"the time limit must be above 0 and at most "
                                f"{MAX_TIME_LIMIT:g} s, not {time_limit}")
        self.job = job
        self.processes = processes
        self.queue = queue
        self.time_limit = float(time_limit)
        self.memory_per_worker = per_worker
        self.warm = warm
        self.nice = nice
        self._ctx = multiprocessing.get_context("spawn")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._workers: list[_Worker] = []
        self._dead: list[Any] = []
        self._waiting: deque[_Job] = deque()
        self._next_id = 0
        self._start_failures = 0
        self._broken: str | None = None
        self._closing = False

    # -- settings and state ----------------------------------------------------------

    @property
    def kill_after(self) -> float:
        """Seconds after which a running job's worker is killed."""
        return self.time_limit * 1.5 + 2

    @property
    def retry_after(self) -> int:
        """The ``Retry-After`` seconds of a refused request: the time limit, rounded up."""
        return max(1, math.ceil(self.time_limit))

    def pids(self) -> list[int]:
        """The process ids of the live workers (ready or starting)."""
        return [w.process.pid for w in self._workers if not w.dead and w.process.pid]

    def stats(self) -> dict[str, Any]:
        """Counts of workers (all, ready, busy) and of waiting jobs; ``error`` when the
        workers fail to start."""
        live = [w for w in self._workers if not w.dead]
        out: dict[str, Any] = {"processes": self.processes,
                               "ready": sum(w.ready for w in live),
                               "busy": sum(w.job is not None for w in live),
                               "waiting": sum(not j.future.done() for j in self._waiting)}
        if self._broken:
            out["error"] = self._broken
        return out

    # -- life cycle --------------------------------------------------------------------

    def start(self) -> None:
        """Spawn the workers (without waiting for them to be ready); call on the event
        loop that will await :meth:`run`."""
        if self._loop is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._closing = False
        for _ in range(self.processes):
            self._spawn()

    async def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until every worker is ready (PoolClosed if the pool broke, TimeoutError
        after ``timeout`` seconds)."""
        end = time.monotonic() + timeout
        while True:
            if self._broken:
                raise PoolClosed(self._broken)
            if sum(w.ready for w in self._workers) == self.processes:
                return
            if time.monotonic() > end:
                raise TimeoutError(f"the workers were not ready within {timeout:g} s")
            await asyncio.sleep(0.05)

    def _spawn(self) -> None:
        parent_conn, child_conn = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=_worker_main, name="clobbermania-worker", daemon=True,
            args=(child_conn, self.job, self.warm, self.memory_per_worker, self.nice,
                  os.getpid()))
        with _sigint_ignored():
            process.start()
        child_conn.close()
        worker = _Worker(process, parent_conn)
        self._workers.append(worker)
        threading.Thread(target=self._read, args=(worker, self._loop), name="worker-reader",
                         daemon=True).start()
        self._loop.call_later(START_TIMEOUT, self._start_overdue, worker)

    def _start_overdue(self, worker: _Worker) -> None:
        """A worker not ready :data:`START_TIMEOUT` seconds after its spawn has failed to
        start: kill it (its death counts as a failed start)."""
        if not worker.dead and not worker.ready:
            with contextlib.suppress(OSError, ValueError):
                worker.process.kill()

    def _replace(self) -> None:
        """Spawn a worker in place of a dead one; a spawn refused by the system (no more
        processes or files) counts as a failed start."""
        try:
            self._spawn()
        except OSError as exc:
            self._start_failures += 1
            if not self._workers or self._start_failures >= MAX_START_FAILURES:
                self._break(f"no worker process can be started ({exc.strerror or exc})")

    def _read(self, worker: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        """Reader thread: hand each message of ``worker`` to the loop; EOF ends it."""
        while True:
            try:
                message = worker.conn.recv()
            except (EOFError, OSError, ValueError):
                message = None
            except Exception as exc:  # noqa: BLE001 - a message that does not unpickle
                message = ("unreadable", exc)
            try:
                loop.call_soon_threadsafe(self._on_message, worker, message)
            except RuntimeError:  # the loop is closed: the server has stopped
                return
            if message is None:
                return

    def _on_message(self, worker: _Worker, message: Any) -> None:
        if worker.dead:
            return
        if message is None:
            self._on_death(worker)
            return
        if message[0] == "ready":
            worker.ready = True
            self._start_failures = 0
            self._dispatch()
            return
        job = worker.job
        if message[0] == "unreadable":
            result: tuple = ("error", f"internal error: an answer could not be read "
                             f"({type(message[1]).__name__})", 500)
        else:
            job_id, result = message
            if job is None or job.id != job_id:
                return
        worker.job = None
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if job is not None and not job.future.done():
            if result[0] == "ok":
                job.future.set_result(result[1])
            else:
                job.future.set_exception(JobFailed(result[1], result[2]))
        self._dispatch()

    def _on_death(self, worker: _Worker) -> None:
        """A worker's connection closed without our asking: fail its job, replace it."""
        was_ready = worker.ready
        with contextlib.suppress(ValueError, AssertionError):
            worker.process.join(0.2)      # its pipe closed as it ended: moments at most
        self._retire(worker, kill=True)
        code = worker.process.exitcode
        how = (f"killed by signal {-code}" if code is not None and code < 0 else
               f"exit status {code}" if code is not None else "connection lost")
        if worker.job is not None and not worker.job.future.done():
            worker.job.future.set_exception(WorkerLost(
                f"the worker process stopped unexpectedly ({how}) and the request was not "
                "answered"))
        worker.job = None
        if self._closing:
            return
        if not was_ready:
            self._start_failures += 1
            if self._start_failures >= MAX_START_FAILURES:
                self._break(f"the worker processes fail to start ({how}); the server's log "
                            "has the details")
                return
        self._replace()

    def _overrun(self, worker: _Worker) -> None:
        """The job of ``worker`` passed the kill time: kill and replace the worker."""
        job = worker.job
        if worker.dead or job is None:
            return
        worker.job = None
        self._retire(worker, kill=True)
        if not job.future.done():
            job.future.set_exception(JobOverran(
                f"the search overran its time limit of {self.time_limit:g} s and was "
                "stopped"))
        if not self._closing:
            self._replace()
            self._loop.call_later(0.5, self._reap)
        self._dispatch()

    def _retire(self, worker: _Worker, kill: bool) -> None:
        worker.dead = True
        worker.ready = False
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if kill and worker.process.is_alive():
            with contextlib.suppress(OSError, ValueError):
                worker.process.kill()
        with contextlib.suppress(OSError):
            worker.conn.close()
        self._workers.remove(worker)
        self._dead.append(worker.process)
        self._reap()

    def _reap(self) -> None:
        """Collect the exit status of killed workers that have ended (no zombies)."""
        alive = []
        for process in self._dead:
            process.join(0)
            if process.exitcode is None:
                alive.append(process)
        self._dead = alive

    def _break(self, reason: str) -> None:
        self._broken = reason
        print(f"error: {reason}", file=sys.stderr, flush=True)
        while self._waiting:
            job = self._waiting.popleft()
            if not job.future.done():
                job.future.set_exception(PoolClosed(reason))

    def _dispatch(self) -> None:
        """Give waiting jobs to idle ready workers, starting each job's kill timer."""
        for worker in list(self._workers):
            if not self._waiting:
                return
            if worker.dead or not worker.ready or worker.job is not None:
                continue
            job = self._waiting.popleft()
            while job.future.done():         # cancelled while waiting
                if not self._waiting:
                    return
                job = self._waiting.popleft()
            try:
                worker.conn.send((job.id, job.args))
            except (OSError, ValueError):
                self._waiting.appendleft(job)
                self._on_death(worker)
                continue
            except Exception as exc:  # noqa: BLE001 - arguments that do not pickle
                job.future.set_exception(JobFailed(
                    f"internal error: the request could not be sent to a worker "
                    f"({type(exc).__name__})", 500))
                continue
            worker.job = job
            worker.timer = self._loop.call_later(self.kill_after, self._overrun, worker)

    async def run(self, *args: Any) -> Any:
        """``job(*args)`` in a worker: its result, or a :class:`PoolError` (the job's own
        errors as :class:`JobFailed` with their sentence and status)."""
        if self._loop is None:
            self.start()
        if self._broken:
            raise PoolClosed(self._broken)
        if self._closing:
            raise PoolClosed("the server is stopping")
        idle = any(w.ready and w.job is None and not w.dead for w in self._workers)
        pending = sum(not j.future.done() for j in self._waiting)
        if not idle and pending >= self.queue:
            busy = sum(w.job is not None for w in self._workers)
            doing = (f"{busy} search{'es' if busy > 1 else ''} running" if busy
                     else "its workers are starting")
            waiting = f"{pending} request{'s' if pending != 1 else ''} waiting"
            raise PoolFull(f"the server is busy ({doing}, {waiting}); "
                           f"try again in {self.retry_after} s", self.retry_after)
        self._next_id += 1
        job = _Job(self._next_id, args, self._loop.create_future())
        self._waiting.append(job)
        self._dispatch()
        try:
            return await job.future
        finally:
            if not job.future.done():     # the caller was cancelled
                job.future.cancel()
                with contextlib.suppress(ValueError):
                    self._waiting.remove(job)

    def stop_soon(self) -> None:
        """Refuse new jobs and answer every waiting and running one with PoolClosed ("the
        server is stopping"), so that a stopping server finishes its requests at once.
        Safe from a signal handler or another thread; the workers stay until
        :meth:`close`."""
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):     # the loop has closed
            loop.call_soon_threadsafe(self._refuse_all)

    def _refuse_all(self) -> None:
        self._closing = True
        stopping = PoolClosed("the server is stopping")
        while self._waiting:
            job = self._waiting.popleft()
            if not job.future.done():
                job.future.set_exception(stopping)
        for worker in self._workers:
            if worker.job is not None and not worker.job.future.done():
                worker.job.future.set_exception(stopping)

    def close(self) -> None:
        """Stop every worker (SIGTERM, SIGKILL after a second) and fail waiting jobs; wait
        for the processes to end. Safe to call twice and from any thread once the event
        loop has stopped."""
        self._closing = True
        while self._waiting:
            job = self._waiting.popleft()
            if not job.future.done():
                with contextlib.suppress(RuntimeError):
                    job.future.set_exception(PoolClosed("the server is stopping"))
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.dead = True
            if worker.timer is not None:
                worker.timer.cancel()
            if worker.job is not None and not worker.job.future.done():
                with contextlib.suppress(RuntimeError):
                    worker.job.future.set_exception(PoolClosed("the server is stopping"))
            with contextlib.suppress(OSError, ValueError):
                worker.process.terminate()
        processes = [w.process for w in workers] + self._dead
        end = time.monotonic() + 1.0
        for process in processes:
            with contextlib.suppress(ValueError, AssertionError):
                process.join(max(0.0, end - time.monotonic()))
                if process.exitcode is None:
                    process.kill()
                    process.join(2.0)
        for worker in workers:
            with contextlib.suppress(OSError):
                worker.conn.close()
        self._dead = []
        self._loop = None


__all__ = ["WorkerPool", "PoolError", "PoolFull", "PoolClosed", "JobOverran", "WorkerLost",
           "JobFailed", "run_api_call", "warm_up", "default_processes", "MIN_WORKER_MEMORY",
           "MAX_PROCESSES", "MAX_TIME_LIMIT", "WORKER_NICE", "WARM_UP_REQUESTS"]
