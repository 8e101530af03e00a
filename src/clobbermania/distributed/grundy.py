"""Impartial Clobber on a cluster: Grundy values with the options' values as jobs.

A job is the Grundy value of one connected part (a component with a move) within a node
budget: :func:`run_grundy_job` runs the single-process search
(:meth:`clobbermania.clobber.impartial.GrundySolver.solve_key` with ``node_limit``) in a
worker that keeps its memo warm across jobs. A job that runs out is *split* at the
driver: each move of the part leaves smaller parts, whose values become jobs of their
own; when they are known, the part's value is their mex (Sprague-Grundy: the value of a
game is the mex of its options' values, a sum of parts has the XOR of theirs). The parts
of the position itself are split at once, so its winning moves come from the same option
values.

Every job is keyed by the part's canonical text, independent of the board it sits on
(:func:`part_keys`): a path is the least of its row string, its reversal and their colour
swaps; any other grid part is the least text of its bounding box under the 8 rotations /
reflections and the colour swap. Equal parts are one job, and a job store
(:class:`clobbermania.distributed.store.JobStore`, kind :data:`KIND`) keeps every value
found, the mex of a split part included, for this run's resumption and for later runs.
A stored value's parent is the part whose split made it: its options' parts are stored
before it (a mex needs their values), so they are given its id once it is stored
(:meth:`~clobbermania.distributed.store.JobStore.set_parent`); a split part's seconds and
nodes are those of its unfinished run, the job its children waited for.

>>> from clobbermania.stones import Position
>>> part_keys(Position.from_string("xo.oxx/.o..x."))
['oox', '.o./oox']
>>> run_grundy_job({"key": "xoxo"}, 1000)["grundy"]
3
>>> grundy_value_distributed(Position.from_string("xoxo"), cluster=InProcess())["grundy"]
3
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..clobber.impartial import (
    GrundyTimeout,
    RowValues,
    grid_part_key,
    live_components,
    mex,
    nim_sum,
    row_key,
    solver_for,
)
from ..errors import ClobbermaniaError, UnsupportedError
from ..limits import deadline_passed
from ..stones import EMPTY, Position
from .cluster import InProcess
from .store import JobStoreError

__all__ = ["KIND", "DEFAULT_JOB_NODES", "InProcess", "part_keys", "run_grundy_job",
           "grundy_value_distributed"]

#: The job store kind of a Grundy value (the key: :func:`part_keys`' text).
KIND = "grundy-value"
#: The node budget of one job (component values a worker computes before the job is split).
DEFAULT_JOB_NODES = 200_000
_JOB_FN = "grundy.run_grundy_job"


def part_keys(position: Position, cells: bytes | bytearray | None = None) -> list[str]:
    """The board-independent canonical texts of the parts of ``position`` (or of
    ``cells`` on its board) that have a move, in the order of
    :meth:`GrundySolver.component_keys` (by lowest square).

    A path (of any shape) is keyed as a row, :func:`~clobbermania.clobber.impartial.row_key`;
    any other part by the least text of its bounding box under the grid's 8 symmetries
    and the colour swap. Refuses a board that is not a grid (a ``--graph`` board).

    >>> part_keys(Position.from_string("xoxo/...."))
    ['oxox']
    >>> part_keys(Position.from_string("xx/ox")), part_keys(Position.from_string("xxx"))
    (['oo/ox'], [])
    """
    board = position.board
    if not board.is_grid:
        raise UnsupportedError("--distributed solves grids and rows; a --graph board is not "
                               "supported with it")
    cells = position.cells if cells is None else cells
    return [row_key(path) if path is not None else grid_part_key(board, cells, comp)
            for comp, _, _, path in live_components(board, cells)]


def _stones(key: str) -> int:
    return key.count("x") + key.count("o")


def _options(key: str) -> list[list[str]]:
    """For each move of the part ``key`` (reference order): the keys of the parts left."""
    position = Position.from_string(key)
    out = []
    for mv in position.moves():
        cells = bytearray(position.cells)
        cells[mv.dst] = cells[mv.src]
        cells[mv.src] = EMPTY
        out.append(part_keys(position, cells))
    return out


def run_grundy_job(payload: dict, budget: int) -> dict:
    """One job: the Grundy value of the part ``payload["key"]`` (a :func:`part_keys`
    text) within ``budget`` component values (and ``payload["time_limit"]`` seconds when
    given), by this process's shared solver (its memo stays warm for the next job).

    Returns ``{"finished": True, "grundy": g, "nodes": n, "seconds": s}``, or
    ``"finished": False`` and ``"grundy": None`` when the budget ran out (the driver then
    splits the part).

    >>> run_grundy_job({"key": "xoxoxo"}, 1_000_000)["grundy"]
    0
    """
    key = payload.get("key")
    if not isinstance(key, str) or not isinstance(budget, int) or budget < 1:
        raise ClobbermaniaError("a grundy job needs a part's text as 'key' and a budget of "
                                "at least one node")
    position = Position.from_string(key)
    if len(part_keys(position)) != 1:
        raise ClobbermaniaError(f"a grundy job is one part with a move, not {key!r}")
    limit = payload.get("time_limit")
    t0 = time.perf_counter()
    deadline = None if limit is None else t0 + float(limit)
    solver = solver_for(None)
    before = solver.searched
    (solver_key,) = solver.component_keys(position.board, position.cells)
    try:
        g: int | None = solver.solve_key(solver_key, deadline, node_limit=budget)
    except GrundyTimeout:   # the node, time or memory limit
        g = None
    return {"finished": g is not None, "grundy": g, "nodes": solver.searched - before,
            "seconds": round(time.perf_counter() - t0, 6)}


class _Driver:
    """The state of one distributed Grundy computation (see the module docstring)."""

    def __init__(self, cluster: Any, store: Any, job_nodes: int, deadline: float | None,
                 db: RowValues | None, progress: Callable[[dict], None] | None) -> None:
        self.cluster, self.store, self.job_nodes = cluster, store, job_nodes
        self.deadline, self.db, self.progress = deadline, db, progress
        self.values: dict[str, int] = {}
        self.split: dict[str, list[list[str]]] = {}      # split part -> options' parts
        self.split_cost: dict[str, tuple[int, float]] = {}
        self.missing: dict[str, int] = {}                # split part -> parts not known
        self.parents: dict[str, list[str]] = {}          # part -> split parts waiting
        self.made_by: dict[str, str] = {}                # part -> the split that made it
        self.jobs = self.reused = self.nodes = self.db_lookups = self.ran = 0
        self.t0 = time.perf_counter()

    def out_of_time(self) -> bool:
        return deadline_passed(self.deadline)   # (the time limit, or Ctrl-C)

    def known(self, key: str) -> bool:
        """Whether ``key``'s value is known, looking it up (row database, store)."""
        if key in self.values:
            return True
        db = self.db
        if db is not None and "/" not in key and len(key) <= int(db.max_stones):
            self.values[key] = int(db.value(key))
            self.db_lookups += 1
            return True
        if self.store is not None:
            answer = self.store.get(KIND, key)
            if answer is not None:
                g = answer.get("grundy")
                if isinstance(g, bool) or not isinstance(g, int) or g < 0:
                    raise JobStoreError(
                        f"the job store {self.store.path} is damaged: its job {KIND} {key} "
                        f"has the answer {answer}, not a Grundy value; move the store "
                        "aside, or pass another --store")
                self.values[key] = g
                self.jobs += 1
                self.reused += 1
                return True
        return False

    def _finish(self, key: str, g: int, nodes: int, seconds: float, worker: str) -> None:
        """Record a value, store it, and settle the split parts that waited only for it
        (their mex; iteratively, up the chain)."""
        todo = [(key, g, nodes, seconds, worker)]
        while todo:
            key, g, nodes, seconds, worker = todo.pop()
            self.values[key] = g
            self.jobs += 1
            if self.store is not None:
                job = self.store.put(KIND, key, {"grundy": g}, nodes=nodes, seconds=seconds,
                                     worker=worker)
                if key in self.split:   # its options' parts, stored before it: its children
                    made = [c for c in dict.fromkeys(c for o in self.split[key] for c in o)
                            if self.made_by.get(c) == key]
                    self.store.set_parent(KIND, made, job)
            for parent in self.parents.pop(key, ()):
                self.missing[parent] -= 1
                if self.missing[parent] == 0:
                    todo.append(self._mex(parent))

    def _mex(self, key: str) -> tuple[str, int, int, float, str]:
        options = self.split[key]
        g = mex(nim_sum(self.values[c] for c in o) for o in options)
        nodes, seconds = self.split_cost[key]
        self.nodes += 1
        return key, g, nodes + 1, seconds, "driver (mex of the options)"

    def _split(self, key: str, nodes: int = 0, seconds: float = 0.0) -> list[str]:
        """Make ``key`` wait for its options' parts; return those to run (not known)."""
        options = _options(key)
        self.split[key] = options
        for c in (c for o in options for c in o):
            self.made_by.setdefault(c, key)
        self.split_cost[key] = (nodes, seconds)
        unknown = [c for c in dict.fromkeys(c for o in options for c in o)
                   if not self.known(c)]
        self.missing[key] = len(unknown)
        for c in unknown:
            self.parents.setdefault(c, []).append(key)
        if not unknown:
            self._finish(*self._mex(key))
        return unknown

    def resolve(self, keys: list[str], split_now: bool) -> bool:
        """Make the values of ``keys`` known (``split_now``: expand them at the driver
        rather than run them as jobs); False when the time limit ran out first."""
        pool = self.cluster.pool(_JOB_FN, self.job_nodes)
        submitted: set[str] = set()

        def run(parts: list[str]) -> None:
            # biggest parts first, so the long jobs start early
            for k in sorted(parts, key=lambda k: (-_stones(k), k)):
                if k in self.values or k in self.split or k in submitted:
                    continue
                payload: dict[str, Any] = {"key": k}
                if self.deadline is not None:
                    payload["time_limit"] = max(0.001, self.deadline - time.perf_counter())
                submitted.add(k)
                pool.submit(payload, k)

        try:
            for key in dict.fromkeys(keys):
                if key in self.split or self.known(key):
                    continue
                run(self._split(key) if split_now else [key])
            while pool.busy:
                if self.out_of_time():
                    return False
                got = pool.next(timeout=0.5)
                if got is None:   # no job ended yet: look at the clock and Ctrl-C again
                    continue
                key, answer = got
                submitted.discard(key)
                self.ran += 1
                nodes, seconds = int(answer["nodes"]), float(answer["seconds"])
                self.nodes += nodes
                if answer["finished"]:
                    self._finish(key, int(answer["grundy"]), nodes, seconds,
                                 str(answer.get("worker", "")))
                else:
                    run(self._split(key, nodes, seconds))
                self._report(pool.queued)
        finally:
            pool.drop()
        return all(k in self.values for k in keys)

    def _report(self, queued: int) -> None:
        if self.progress is not None:
            self.progress({"jobs": self.jobs, "jobs_reused": self.reused, "ran": self.ran,
                           "queued": queued, "split": len(self.split), "nodes": self.nodes,
                           "seconds": time.perf_counter() - self.t0})


def grundy_value_distributed(position: Position, *, cluster: Any, store: Any = None,
                             job_nodes: int = DEFAULT_JOB_NODES,
                             time_limit: float | None = None,
                             progress: Callable[[dict], None] | None = None,
                             db: RowValues | None = None, db_path: str | None = None
                             ) -> dict:
    """The answer of ``grundy value --json`` for ``position``, computed by jobs on
    ``cluster`` (a :class:`~clobbermania.distributed.cluster.Cluster`, or anything with
    ``cpus`` and ``map_jobs``, such as :class:`InProcess`), plus ``"distributed":
    {"jobs", "jobs_reused", "actors", "store"}``.

    The parts of the position are split at once (their options' parts run as jobs of
    ``job_nodes`` component values each, split again when unfinished), their values are
    the mex of their options', and the winning moves are the moves to an XOR of 0.
    ``jobs`` counts the values this run used (run on the cluster, a mex at the driver,
    or read from ``store``); ``jobs_reused`` those read from the store. ``searched`` is
    the component values computed over all jobs. ``progress``, when given, is called
    after each job with a dict (jobs, jobs_reused, ran, queued, split, nodes, seconds).
    Rows up to ``db.max_stones`` stones are
    looked up in the row database ``db`` (``db_path`` is reported as "db"). When
    ``time_limit`` runs out: ``grundy`` and ``winning_moves`` null, ``exact`` false
    (what was finished stays in the store).

    >>> r = grundy_value_distributed(Position.from_string("xoxo/oxox"), cluster=InProcess())
    >>> r["grundy"], r["distributed"]["store"]
    (0, None)
    """
    t0 = time.perf_counter()
    if time_limit is not None and not time_limit > 0:
        raise ClobbermaniaError(f"the time limit must be a positive number of seconds, "
                                f"not {time_limit}")
    if not isinstance(job_nodes, int) or job_nodes < 1:
        raise ClobbermaniaError(f"the job budget must be at least one node, not {job_nodes}")
    roots = part_keys(position)
    driver = _Driver(cluster, store, job_nodes,
                     None if time_limit is None else t0 + time_limit, db, progress)
    distributed = {"actors": int(cluster.cpus),
                   "store": None if store is None else str(store.path)}

    def done(obj: dict) -> dict:
        obj["seconds"] = round(time.perf_counter() - t0, 6)
        obj["distributed"] = {"jobs": driver.jobs, "jobs_reused": driver.reused,
                              **distributed}
        return obj

    timeout = {"grundy": None, "winning_moves": None, "exact": False,
               "board": position.text(), "db": db_path, "seconds": None}
    # the parts known already (store, database) need no split unless moves are asked for
    known = all(driver.known(k) for k in roots)
    total = nim_sum(driver.values[k] for k in roots) if known else None
    winning: list[str] = []
    if total != 0:
        if not driver.resolve(roots, split_now=True):
            return done(timeout)
        total = nim_sum(driver.values[k] for k in roots)
    if total:
        options = []
        for mv in position.moves():
            cells = bytearray(position.cells)
            cells[mv.dst] = cells[mv.src]
            cells[mv.src] = EMPTY
            options.append((mv, part_keys(position, cells)))
        if not driver.resolve([c for _mv, o in options for c in o], split_now=False):
            return done(timeout)
        winning = [mv.to_str(position.board) for mv, o in options
                   if nim_sum(driver.values[c] for c in o) == 0]
    # the parts named as the single-process answer names them (same order as ``roots``)
    solver = solver_for(None)
    names = [solver.key_text(k)
             for k in solver.component_keys(position.board, position.cells)]
    return done({
        "grundy": total,
        "winning_moves": winning,
        "components": [{"key": name, "grundy": driver.values[k]}
                       for name, k in zip(names, roots, strict=True)],
        "exact": True,
        "searched": driver.nodes,
        "db_lookups": driver.db_lookups,
        "seconds": None,
        "board": position.text(),
        "db": db_path,
    })
