"""The command-line options of job-level solving on Ray (docs/distributed.md), shared by
the commands that take ``--distributed``: ``--address``, ``--store``, ``--cpus`` and
``--job-nodes``, and the check that these need ``--distributed``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..errors import NotationError
from ._common import check_time_limit, load_position, progress_reporter

__all__ = ["distributed_options", "check_distributed", "run_distributed", "grid_position",
           "distributed_line", "DEFAULT_JOB_NODES"]

#: The node budget of one job when --job-nodes is not given.
DEFAULT_JOB_NODES = 200_000


def distributed_options(fn: Callable) -> Callable:
    """Decorate a click command with ``--distributed``, ``--address A``, ``--store FILE``,
    ``--cpus N`` and ``--job-nodes K`` (parameters distributed, address, store, cpus,
    job_nodes); the command calls :func:`check_distributed` first."""
    options = [
        click.option("--distributed", is_flag=True,
                     help="Solve by jobs on Ray: a private local Ray on this machine, or "
                          "the cluster at --address (needs clobbermania[distributed])."),
        click.option("--address", metavar="HOST:PORT",
                     help="Join the Ray cluster at HOST:PORT (with --distributed)."),
        click.option("--store", metavar="FILE",
                     help="The SQLite job store (with --distributed; default "
                          "$XDG_CACHE_HOME/clobbermania/jobs.sqlite): finished jobs are "
                          "kept there and reused, so a killed run resumes."),
        click.option("--cpus", type=int, metavar="N",
                     help="Actors to start, one per CPU (with --distributed; default: "
                          "every CPU of the machine or cluster)."),
        click.option("--job-nodes", type=int, metavar="K",
                     help=f"The node budget of one job (with --distributed; default "
                          f"{DEFAULT_JOB_NODES:,}); a job that runs out is split."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def check_distributed(distributed: bool, address: str | None, store: str | None,
                      cpus: int | None, job_nodes: int | None) -> None:
    """A usage error (exit 2, one sentence) when an option of job-level solving is given
    without ``--distributed``, or a count is below 1."""
    if not distributed:
        given = [name for name, value in (("--address", address), ("--store", store),
                                          ("--cpus", cpus), ("--job-nodes", job_nodes))
                 if value is not None]
        if given:
            verb = "needs" if len(given) == 1 else "need"
            raise click.UsageError(f"{' and '.join(given)} {verb} --distributed")
        return
    if cpus is not None and cpus < 1:
        raise click.UsageError(f"--cpus must be at least 1, not {cpus}")
    if job_nodes is not None and job_nodes < 1:
        raise click.UsageError(f"--job-nodes must be at least 1, not {job_nodes}")
    if address is not None and ":" not in address:
        raise click.UsageError(f"--address is HOST:PORT, not {address!r}")


def run_distributed(label: str, describe: Callable[[str, dict], str], store: str | None,
                    address: str | None, cpus: int | None, job_nodes: int | None,
                    solve: Callable[..., dict]) -> dict:
    """The answer of ``solve(cluster=, store=, job_nodes=, progress=)`` run on the job
    store ``store`` and the Ray cluster (a private one, or the one at ``address``), with
    a progress line ``describe(label, info)`` on stderr when it is a terminal. Ray is
    checked first, so that nothing (no store file) is created when it is missing."""
    from ..distributed.cluster import (
        actor_memory,
        check_cpus,
        check_reachable,
        cluster,
        require_ray,
    )
    from ..distributed.store import JobStore

    require_ray()
    # refused before the store is made: a bad $CLOBBERMANIA_ACTOR_MEMORY, more --cpus than
    # this machine has for a private Ray, a dead --address
    actor_memory()
    check_cpus(cpus, address)
    if address is not None:
        check_reachable(address)
    with JobStore.open(store) as job_store, cluster(address, cpus) as c, \
            progress_reporter(label, describe) as progress:
        return solve(cluster=c, store=job_store, job_nodes=job_nodes or DEFAULT_JOB_NODES,
                     progress=progress)


def distributed_line(answer: dict[str, Any]) -> str:
    """The text line that ends a distributed answer: jobs run and reused, the store."""
    d = answer["distributed"]
    return (f"distributed: {d['jobs']:,} jobs, {d['jobs_reused']:,} reused from the store "
            f"{d['store']}, {d['actors']} actors")


def grid_position(board: str, graph: str | None, time_limit: float | None):
    """The position of a ``--distributed`` command, with its time limit checked: grids and
    rows only (the jobs' keys are those of grid parts and rows), so ``--graph`` is
    refused with one sentence."""
    position = load_position(board, graph)
    check_time_limit(time_limit)
    if graph:
        raise NotationError("--distributed solves grids and rows; --graph is not supported "
                            "with it yet")
    return position
