"""The worker pool of ``clobbermania serve``: real spawned processes running module-level
job functions (a slow one for the time limit and the queue), checked from outside (process
ids in /proc, the workers' own report of their limits)."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from clobbermania.errors import NotationError, UnsupportedError
from clobbermania.limits import memory_bound
from clobbermania.web.pool import (
    MAX_PROCESSES,
    MIN_WORKER_MEMORY,
    WORKER_NICE,
    JobFailed,
    JobOverran,
    PoolClosed,
    PoolFull,
    WorkerLost,
    WorkerPool,
)


def job(kind: str, arg: float = 0.0) -> object:
    """The test job, run in a worker: ``sleep`` (seconds), ``pid``, ``facts`` (the
    worker's own settings), ``refuse`` (a library error), ``allocate`` (bytes),
    ``crash`` (the worker dies), ``bug`` (an unexpected exception)."""
    if kind == "sleep":
        time.sleep(arg)
        return os.getpid()
    if kind == "pid":
        return os.getpid()
    if kind == "facts":
        import resource

        import numba

        return {"sigint": signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
                "rlimit_as": resource.getrlimit(resource.RLIMIT_AS)[0],
                "nice": os.nice(0), "ppid": os.getppid(),
                "numba_threads": numba.config.NUMBA_NUM_THREADS,
                "numba_in_use": numba.get_num_threads()}
    if kind == "refuse":
        raise UnsupportedError("the board has 99 squares; the limit is 64")
    if kind == "allocate":
        return len(bytearray(int(arg)))
    if kind == "crash":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "bug":
        return 1 // 0
    raise ValueError(kind)


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (read from /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def run(scenario, **settings):
    """Run ``scenario(pool)`` on a fresh event loop with a started pool, closed after."""
    async def main():
        pool = WorkerPool(job, warm=None, **settings)
        pool.start()
        try:
            await pool.wait_ready(60)
            return await scenario(pool)
        finally:
            pool.close()
    return asyncio.run(main())


def test_worker_setup_and_errors():
    """A worker ignores SIGINT, has its share of the memory bound as RLIMIT_AS, runs
    numba on one thread at a lower priority; a library error, an allocation past the
    bound and a bug become answers (400, 400, 500), and the worker lives on."""
    async def scenario(pool):
        facts = await pool.run("facts")
        refused = allocated = bug = None
        try:
            await pool.run("refuse")
        except JobFailed as exc:
            refused = exc
        try:
            await pool.run("allocate", pool.memory_per_worker + (1 << 30))
        except JobFailed as exc:
            allocated = exc
        try:
            await pool.run("bug")
        except JobFailed as exc:
            bug = exc
        small = await pool.run("allocate", 1 << 20)
        return facts, refused, allocated, bug, small, pool.memory_per_worker, pool.pids()

    facts, refused, allocated, bug, small, per_worker, pids = run(scenario, processes=2)
    assert per_worker == memory_bound() // 2
    assert facts["sigint"] is True
    assert facts["rlimit_as"] == per_worker
    assert facts["nice"] >= WORKER_NICE
    assert facts["ppid"] == os.getpid()
    assert facts["numba_threads"] == 1 and facts["numba_in_use"] == 1
    assert (refused.status, str(refused)) == (400, "the board has 99 squares; the limit is 64")
    assert allocated.status == 400
    assert f"memory bound of {per_worker / 2**30:.1f} GiB" in str(allocated)
    assert bug.status == 500 and "ZeroDivisionError" in str(bug)
    assert "Traceback" not in str(bug)
    assert small == 1 << 20
    assert not any(alive(pid) for pid in pids)      # close() left no worker behind


def test_overrun_is_killed_and_replaced():
    """A job past time_limit * 1.5 + 2 s gets JobOverran (HTTP 504) at that time; its
    worker is killed and a new one answers the next job."""
    async def scenario(pool):
        before = pool.pids()
        start = time.monotonic()
        with pytest.raises(JobOverran) as caught:
            await pool.run("sleep", 60)
        took = time.monotonic() - start
        after = await pool.run("pid")
        for _ in range(40):
            if not alive(before[0]):
                break
            await asyncio.sleep(0.05)
        return caught.value, took, before, after, pool.kill_after

    exc, took, before, after, kill_after = run(scenario, processes=1, time_limit=0.2)
    assert kill_after == pytest.approx(2.3)
    assert kill_after <= took < kill_after + 1.5
    assert exc.status == 504
    assert str(exc) == "the search overran its time limit of 0.2 s and was stopped"
    assert after != before[0] and not alive(before[0])


def test_queue_limit_and_close():
    """With every worker busy, ``queue`` jobs wait and the next is refused at once with
    PoolFull (Retry-After: the time limit rounded up); close() fails the waiting ones."""
    async def scenario(pool):
        running = asyncio.ensure_future(pool.run("sleep", 0.6))
        await asyncio.sleep(0.2)                      # the worker has taken it
        waiting = asyncio.ensure_future(pool.run("pid"))
        await asyncio.sleep(0.05)
        stats = pool.stats()
        start = time.monotonic()
        with pytest.raises(PoolFull) as full:
            await pool.run("pid")
        refused_in = time.monotonic() - start
        answers = await asyncio.gather(running, waiting)
        # a job left waiting when the pool closes is answered PoolClosed
        busy = asyncio.ensure_future(pool.run("sleep", 5))
        await asyncio.sleep(0.2)
        left = asyncio.ensure_future(pool.run("pid"))
        await asyncio.sleep(0.05)
        pids = pool.pids()
        pool.close()
        outcomes = await asyncio.gather(busy, left, return_exceptions=True)
        return stats, full.value, refused_in, answers, outcomes, pids

    stats, full, refused_in, answers, outcomes, pids = run(
        scenario, processes=1, queue=1, time_limit=2.5)
    assert stats == {"processes": 1, "ready": 1, "busy": 1, "waiting": 1}
    assert full.status == 503 and full.retry_after == 3
    assert refused_in < 0.1
    assert answers[0] == answers[1]                   # the same worker answered both
    assert all(isinstance(o, PoolClosed) for o in outcomes)
    assert not any(alive(pid) for pid in pids)


def test_a_dying_worker_is_reported_and_replaced():
    async def scenario(pool):
        before = pool.pids()
        with pytest.raises(WorkerLost) as lost:
            await pool.run("crash")
        return lost.value, before, await pool.run("pid")

    lost, before, after = run(scenario, processes=1)
    assert lost.status == 500
    assert "stopped unexpectedly (killed by signal 9)" in str(lost)
    assert after != before[0]


def test_settings_are_checked():
    too_many = memory_bound() // MIN_WORKER_MEMORY + 1
    if too_many <= MAX_PROCESSES:       # a machine with less than 640 GiB of memory
        with pytest.raises(NotationError, match=f"a worker needs 1 GiB: use at most "
                                                f"{too_many - 1}$"):
            WorkerPool(job, processes=too_many)
    with pytest.raises(NotationError, match="between 1 and 256, not 0"):
        WorkerPool(job, processes=0)
    with pytest.raises(NotationError, match="queue must hold between 0 and 100,000"):
        WorkerPool(job, queue=-1)
    with pytest.raises(NotationError, match="time limit must be above 0"):
        WorkerPool(job, time_limit=0)
    assert WorkerPool(job, time_limit=4).kill_after == 8.0


def die_at_start() -> None:
    """A warm-up that kills its worker (as a worker that cannot start would end)."""
    os._exit(3)


def test_workers_that_cannot_start_break_the_pool_with_a_sentence():
    """Workers dying before they are ready are replaced twice, then the pool answers
    every job PoolClosed (HTTP 503) naming the failure, instead of spawning forever."""
    async def scenario():
        pool = WorkerPool(job, processes=1, warm=die_at_start)
        pool.start()
        try:
            with pytest.raises(PoolClosed) as caught:
                await pool.run("pid")
            with pytest.raises(PoolClosed):
                await pool.run("pid")
            return caught.value, pool.stats()
        finally:
            pool.close()

    exc, stats = asyncio.run(scenario())
    assert str(exc) == ("the worker processes fail to start (exit status 3); the server's "
                        "log has the details")
    assert exc.status == 503 and stats["error"] == str(exc)
