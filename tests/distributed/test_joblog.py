"""The job log a benchmark replays (issue 27, benchmarks/distributed.py): every stored job
names as its parent the job whose split made it, and the parent links form a tree of
the search (a child is a position one move below its parent).

Both drivers run in this process (no Ray): the Clobber proof search with ``cluster=None``
and the Grundy driver on :class:`~clobbermania.distributed.grundy.InProcess`. A run
"killed" mid-way is one whose progress callback raises after some jobs (as a SIGKILL, it
leaves the jobs stored so far), then run again on the same store.
"""

from __future__ import annotations

from functools import cache

import pytest

from clobbermania.clobber import search
from clobbermania.clobber.impartial import GrundySolver, grundy_value
from clobbermania.distributed import clobber_search as dc
from clobbermania.distributed import grundy as dg
from clobbermania.distributed.store import JobStore
from clobbermania.stones import BLACK, WHITE, Position

CLOBBER_BOARD = "xoxo/oxox/xoxo/oxox"        # 4x4, Black first: a first-player win
GRUNDY_BOARD = "xoxoxo/oxoxox/x....."        # a 3x6 board, Grundy value 2: moves are asked


class Killed(Exception):
    """Raised by the progress callback: the driver stops as if killed."""


def killer(after: int):
    def progress(info: dict) -> None:
        if info["jobs"] >= after:
            raise Killed
    return progress


def fresh_job_solver(monkeypatch) -> None:
    """The Grundy jobs of the next run use a solver of their own (a cold memo, as a new
    actor's), so that they run out of budget and split as on a new cluster."""
    solver = GrundySolver()
    monkeypatch.setattr(dg, "solver_for", lambda db=None: solver)


def check_tree(log: list[dict], children_of, roots: set[str]) -> int:
    """Every parent is another stored job; a job with a parent is one of its parent's
    children (``children_of(key)``: the keys one move below); a job without one is a
    root question (``roots``). Returns the number of jobs with a parent."""
    by_id = {row["id"]: row for row in log}
    linked = 0
    for row in log:
        parent = row["parent"]
        if parent is None:
            assert row["key"] in roots, row
            continue
        linked += 1
        assert parent in by_id and parent != row["id"], row
        assert row["key"] in children_of(by_id[parent]["key"]), (row, by_id[parent])
        # a parent is a position one move above: its stones are more, so no cycle
        assert stones(by_id[parent]["key"]) > stones(row["key"])
    return linked


def stones(key: str) -> int:
    return key.count("x") + key.count("o")


@cache
def clobber_children(key: str) -> set[str]:
    text, _, side = key.rpartition(" ")
    assert side == "black"
    p = Position.from_string(text)
    return {dc.canonical_key(p.play(mv), WHITE) for mv in p.moves(BLACK)}


def cold_clobber_table() -> None:
    """The next Clobber jobs start with an empty transposition table (as a new actor's),
    so that they run out of budget and split as on a new cluster."""
    search._LAST_ENGINE.clear()


def test_clobber_jobs_record_their_parents_and_a_resumed_run_too(tmp_path):
    position = Position.from_string(CLOBBER_BOARD)
    roots = clobber_children(dc.canonical_key(position, BLACK))
    cold_clobber_table()
    with JobStore.open(tmp_path / "whole.sqlite") as store:
        whole = dc.solve_outcome_distributed(position, "black", cluster=None, store=store,
                                             job_nodes=300)
        log = store.log(dc.KIND)
    assert whole["winner"] == "black" and len(log) == whole["distributed"]["jobs"]
    assert check_tree(log, clobber_children, roots) > len(log) // 2

    with JobStore.open(tmp_path / "resumed.sqlite") as store:
        cold_clobber_table()
        with pytest.raises(Killed):
            dc.solve_outcome_distributed(position, "black", cluster=None, store=store,
                                         job_nodes=300, progress=killer(len(log) // 3))
        before = {row["id"]: row for row in store.log(dc.KIND)}
        cold_clobber_table()
        again = dc.solve_outcome_distributed(position, "black", cluster=None, store=store,
                                             job_nodes=300)
        after = store.log(dc.KIND)
    assert again["winner"] == "black" and again["distributed"]["jobs_reused"] > 0
    assert all(before[row["id"]] == row for row in after if row["id"] in before)
    assert len(after) == len(before) + again["distributed"]["jobs"] \
        - again["distributed"]["jobs_reused"]                   # none run twice
    # the jobs split from a job of the first sitting name it as their parent
    assert any(row["parent"] in before for row in after if row["id"] not in before)
    check_tree(after, clobber_children, roots)


@cache
def grundy_children(key: str) -> set[str]:
    return {part for parts in dg._options(key) for part in parts}


def test_grundy_jobs_record_their_parents_and_a_resumed_run_too(monkeypatch, tmp_path):
    position = Position.from_string(GRUNDY_BOARD)
    value = grundy_value(position, solver=GrundySolver()).grundy
    # the root questions: the position's parts, and (for its winning moves) its options'
    roots = set(dg.part_keys(position)) | grundy_children(position.text())
    fresh_job_solver(monkeypatch)
    with JobStore.open(tmp_path / "whole.sqlite") as store:
        whole = dg.grundy_value_distributed(position, cluster=dg.InProcess(), store=store,
                                            job_nodes=40)
        log = store.log(dg.KIND)
    assert value and whole["grundy"] == value and len(log) == whole["distributed"]["jobs"]
    split = {row["id"] for row in log if row["worker"].startswith("driver")}
    # the root's parts and the parts that ran out of their budget were split: every other
    # job was made by one of those splits
    assert len(split) > len(dg.part_keys(position))
    assert check_tree(log, grundy_children, roots) >= len(log) - len(roots) > 0
    assert {row["parent"] for row in log} - {None} <= split

    with JobStore.open(tmp_path / "resumed.sqlite") as store:
        fresh_job_solver(monkeypatch)
        with pytest.raises(Killed):
            dg.grundy_value_distributed(position, cluster=dg.InProcess(), store=store,
                                        job_nodes=40, progress=killer(len(log) // 2))
        before = {row["key"] for row in store.log(dg.KIND)}
        fresh_job_solver(monkeypatch)
        again = dg.grundy_value_distributed(position, cluster=dg.InProcess(), store=store,
                                            job_nodes=40)
        after = store.log(dg.KIND)
    assert again["grundy"] == value and again["distributed"]["jobs_reused"] > 0
    assert len(after) == len(before) + again["distributed"]["jobs"] \
        - again["distributed"]["jobs_reused"]                   # none stored twice
    assert check_tree(after, grundy_children, roots) >= len(after) - len(roots)
