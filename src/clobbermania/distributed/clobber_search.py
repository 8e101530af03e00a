"""Two-player Clobber outcomes by a job-level proof search on a Ray cluster (issue 27).

The driver (:func:`solve_outcome_distributed`) searches the tree of opening sequences.
A *job* is one position with a side to move, solved on an actor by
:func:`clobbermania.clobber.search.solve_outcome` within a node budget
(:func:`run_outcome_job`). A job that runs out is split into its children (the positions
after each move), and the answers are backed up at the driver as in an AND/OR tree: a
position is won for the player to move when some child is lost for the opponent, and lost
when every child is won for the opponent (no move: lost). The first moves of the root are
all jobs, so that every winning first move is known, as ``solve_outcome`` lists them
(with ``winner_only``, the root is an OR node as any other: the search stops at the
first winning move proved, or when every first move is refuted).

The driver chooses the next job by a proof-number search over the tree (L. V. Allis,
M. van der Meulen, H. J. van den Herik, "Proof-number search", Artificial Intelligence
66, 1994), at the level of jobs as in job-level proof-number search (I-C. Wu et al.,
"Job-level proof-number search", IEEE Trans. Comput. Intell. AI in Games 5(1), 2013;
the survey of A. Kishimoto, M. H. M. Winands, M. Müller, J-T. Saito, "Game-tree search
using proof numbers: the first twenty years", ICGA Journal 35(3), 2012). Each position
has a proof number ``pn`` (the player to move wins) and a disproof number ``dn`` (that
player loses), in negamax form: a position with no job yet has pn = w and dn = w times
its number of moves (one move may win, every move must lose), w = :data:`GROWTH` to the
power of its stones (a bigger position is a harder job); a split one has pn = the least
dn of its children and dn = the sum of their pn; a decided one 0 and infinity.
Below the root the driver follows the child of least dn to the most-proving position
and runs it as a job; at the root every first move must be decided, so it takes the
undecided first move with the fewest jobs in flight, then the least min(pn, dn). With
several free slots it picks again, the positions in flight set aside (no job starts at
or below a position all of whose open lines are in flight), so a second CPU works on
the next most-proving position, preferably under another first move, rather than on
every child of an OR node at once (a breadth-first queue did that: on the 5x5
checkerboard it ran 4.5x the nodes of one process). The positions form a DAG: equal
positions (up to the board's symmetries, and a colour swap with a side swap) are one
node, asked once, whose numbers count once under each parent.

Every finished job goes into the job store (:mod:`.store`) under kind
:data:`KIND` and the key :func:`canonical_key`, with its answer relative to the player to
move: ``{"outcome": "win" | "loss" | null, "budget": B}`` (null: undecided within B
nodes, then split). A run on a store resumes: a stored answer is reused, never run again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..clobber.search import solve_outcome
from ..errors import UnsupportedError
from ..limits import interrupted
from ..stones import BLACK, COLOR_NAMES, WHITE, Position, color_from_name, opponent
from .cluster import InProcess
from .store import JobStoreError

__all__ = ["KIND", "JOB", "run_outcome_job", "canonical_key", "solve_outcome_distributed"]

#: The store kind of a Clobber outcome job.
KIND = "clobber-outcome"
#: The job function, as :meth:`.cluster.Cluster.pool` names it.
JOB = "clobber_search.run_outcome_job"

WIN, LOSS = "win", "loss"


def run_outcome_job(payload: dict, budget: int) -> dict:
    """One job: who wins ``payload["board"]`` (grid text) with ``payload["to_move"]``
    ("black"/"white") to move, by :func:`clobbermania.clobber.search.solve_outcome`
    within ``budget`` nodes (no move list).

    Returns {"winner": "black" | "white" | None (undecided), "nodes", "seconds"}.

    >>> run_outcome_job({"board": "xo", "to_move": "white"}, 1000)["winner"]
    'white'
    """
    t0 = time.perf_counter()
    r = solve_outcome(Position.from_string(payload["board"]), payload["to_move"],
                      time_limit=payload.get("time_limit"), node_limit=budget,
                      all_moves=False)
    return {"winner": r.winner, "nodes": r.nodes,
            "timed_out": r.winner is None and r.nodes < budget,
            "seconds": round(time.perf_counter() - t0, 6)}


def canonical_key(position: Position, to_move: int) -> str:
    """The store key of ``position`` with ``to_move`` to move: the least text of its
    images under the board's symmetries, after a colour swap when White is to move
    ("White to move on P" is "Black to move on P with the colours swapped"), and the
    side to move (always black after that swap).

    >>> canonical_key(Position.from_string("ox"), BLACK) == canonical_key(
    ...     Position.from_string("ox"), WHITE) == "ox black"
    True
    """
    p = position if to_move == BLACK else position.swap_colors()
    return min(p.transform(perm).text() for perm in p.board.symmetries()) + " black"


#: A proof or disproof number that cannot be reached (a decided node's other number).
INF = math.inf
#: How much harder a position with one stone more is taken to be, as a job: a position
#: with no job yet weighs GROWTH ** stones, so that a position whose job ran out and was
#: split (its numbers are its children's: 1/GROWTH of its own) goes on before a sibling
#: with no job yet (whose job would likely run out too).
GROWTH = 4


@dataclass(eq=False)
class _Node:
    key: str
    position: Position
    to_move: int
    stones: int
    moves: int                           # the moves of the player to move
    status: str | None = None            # WIN / LOSS for the player to move
    parents: list[_Node] = field(default_factory=list)
    children: list[_Node] | None = None  # once split
    running: bool = False                # its job is in flight
    started: bool = False                # its job was started
    stored_split: bool = False           # the store says: undecided, split it
    job_id: int | None = None
    pn: int = 1                          # proof number: the player to move wins
    dn: int = 1                          # disproof number: the player to move loses
    avail: bool = True                   # a job can be started at or below it
    first: _Node | None = None           # the first move (root child) it was chosen under


class _Search:
    def __init__(self, cluster, store, job_nodes: int, deadline: float | None,
                 progress: Callable[[dict], None] | None, winner_only: bool = False) -> None:
        self.cluster = cluster
        self.winner_only = winner_only
        self.store = store
        self.budget = job_nodes
        self.deadline = deadline
        self.progress = progress
        self.nodes: dict[str, _Node] = {}
        self.seq = 0
        self.jobs = 0              # run now
        self.reused = 0            # read from the store
        self.searched = 0          # nodes of every job the answer rests on
        self.waiting = 0           # frontier positions with no job yet (some may not matter)
        self.t0 = time.perf_counter()
        self.root: _Node | None = None
        cluster = InProcess() if cluster is None else cluster
        self.pool = cluster.pool(JOB, job_nodes)
        self.actors, self.slots = cluster.cpus, cluster.slots
        self.running: dict[int, _Node] = {}
        self.busy: dict[int, int] = {}   # id(first move) -> its jobs in flight

    # -- the DAG ---------------------------------------------------------------------

    def node(self, position: Position, to_move: int, parent: _Node | None) -> _Node:
        key = canonical_key(position, to_move)
        n = self.nodes.get(key)
        if n is None:
            moves = len(position.moves(to_move))
            n = self.nodes[key] = _Node(key, position, to_move, position.stone_count(),
                                        moves)
            stored = self.store.get(KIND, key) if self.store is not None else None
            if stored is not None:
                nodes = stored.get("nodes", 0)
                if stored.get("outcome") not in (WIN, LOSS, None) or isinstance(
                        nodes, bool) or not isinstance(nodes, int) or nodes < 0:
                    raise JobStoreError(
                        f"the job store {self.store.path} is damaged: its job {KIND} {key} "
                        f"has the answer {stored}, not an outcome; move the store aside, "
                        "or pass another --store")
                self.reused += 1
                self.searched += nodes
                if stored["outcome"] is not None:
                    n.status = stored["outcome"]
                else:
                    n.stored_split = True   # split once its parent links are in place
                    n.job_id = self.store.job_id(KIND, key)   # its children's parent
            elif moves == 0:
                n.status = LOSS             # no move: lost, no job needed
            if n.status is None:
                self.waiting += 1
            self.evaluate(n)
        if parent is not None:
            n.parents.append(parent)
        return n

    def split(self, n: _Node) -> None:
        """Make the children of ``n`` (every move), back up what is known (a child
        stored as undecided is split at once, until ``n`` is decided)."""
        other = opponent(n.to_move)
        if n is not self.root and n.status is None:
            self.waiting -= 1
        n.children = [self.node(n.position.play(mv), other, n)
                      for mv in n.position.moves(n.to_move)]
        self.update(n)
        for c in n.children:   # (no more once n is decided: they no longer matter)
            if n.status is not None and n is not self.root:
                break
            if c.stored_split and c.children is None and c.status is None:
                self.split(c)

    def evaluate(self, n: _Node) -> None:
        """Decide ``n`` from its children when they decide it; set its proof and
        disproof numbers (relative to the player to move: pn = min of the children's
        dn, dn = sum of their pn) and whether a job can start at or below it."""
        cs = n.children
        if n.status is None and cs is not None and n is not self.root:
            if any(c.status == LOSS for c in cs):
                n.status = WIN
            elif all(c.status == WIN for c in cs):
                n.status = LOSS
        if n.status == WIN:
            n.pn, n.dn, n.avail = 0, INF, False
        elif n.status == LOSS:
            n.pn, n.dn, n.avail = INF, 0, False
        elif cs is None:   # a frontier position: mobility (one move may win, all must lose)
            w = GROWTH ** n.stones
            n.pn, n.dn, n.avail = w, w * max(1, n.moves), not n.running
        else:
            n.pn = min((c.dn for c in cs), default=INF)   # (the root may have no move)
            n.dn = sum(c.pn for c in cs)
            n.avail = any(c.avail for c in cs)

    def update(self, n: _Node) -> None:
        """Evaluate ``n`` and, while something changes, its ancestors."""
        stack = [n]
        while stack:
            m = stack.pop()
            before = (m.status, m.pn, m.dn, m.avail)
            self.evaluate(m)
            if (m.status, m.pn, m.dn, m.avail) != before:
                stack.extend(m.parents)

    def live(self, n: _Node, memo: dict) -> bool:
        """Whether deciding ``n`` can still matter: undecided, below the root through
        undecided positions."""
        if n is self.root:
            return True
        if n.status is not None:
            return False
        got = memo.get(n.key)
        if got is None:
            got = memo[n.key] = any(self.live(p, memo) for p in n.parents)
        return got

    def select(self) -> _Node | None:
        """The most-proving position with no job yet: at the root, the undecided first
        move with the fewest jobs in flight below it, then the least min(pn, dn) (every
        first move must be decided; with ``winner_only``, the least dn: one winning move
        will do); below, the child with the least dn (the cheapest to
        prove the parent's mover a winner: Allis' most-proving node in negamax form),
        among those where a job can start. Positions whose jobs are in flight are set
        aside, so the next call gives the next most-proving one."""
        firsts = [c for c in self.root.children if c.status is None and c.avail]
        if not firsts:
            return None
        if self.winner_only:
            n = first = min(firsts, key=lambda c: (self.busy.get(id(c), 0), c.dn, c.pn))
        else:
            n = first = min(firsts, key=lambda c: (self.busy.get(id(c), 0),
                                                   min(c.pn, c.dn)))
        while n.children is not None:
            n = min((c for c in n.children if c.status is None and c.avail),
                    key=lambda c: (c.dn, c.pn))
        n.first = first
        return n

    # -- jobs --------------------------------------------------------------------------

    def finish(self, n: _Node, answer: dict) -> None:
        winner = answer["winner"]
        outcome = None if winner is None else (
            WIN if winner == COLOR_NAMES[n.to_move] else LOSS)
        self.jobs += 1
        self.searched += int(answer["nodes"])
        n.running = False
        if n.first is not None:
            self.busy[id(n.first)] -= 1
        if self.store is not None:
            parent = next((p.job_id for p in n.parents if p.job_id and p.job_id > 0), None)
            n.job_id = self.store.put(KIND, n.key, {"outcome": outcome, "budget": self.budget,
                                                    "nodes": int(answer["nodes"])},
                                      nodes=int(answer["nodes"]),
                                      seconds=float(answer["seconds"]), parent=parent,
                                      worker=str(answer.get("worker", "")))
        if n.status is not None:
            return
        if outcome is None:
            if self.live(n, {}):
                self.waiting += 1
                self.split(n)
            else:
                n.stored_split = True   # split if it matters again
                self.waiting += 1
                self.update(n)
        else:
            n.status = outcome
            self.update(n)

    def done(self) -> bool:
        """Every first move decided; with ``winner_only``, or one of them winning."""
        return (all(c.status is not None for c in self.root.children)
                or (self.winner_only and any(c.status == LOSS for c in self.root.children)))

    def out_of_time(self) -> bool:
        return interrupted() or (self.deadline is not None
                                 and time.perf_counter() >= self.deadline)

    def fill(self) -> None:
        """Start the most-proving jobs, one per free slot (a position stored as
        undecided is split at the driver instead)."""
        while len(self.running) < self.slots:
            n = self.select()
            if n is None:
                return
            if n.stored_split:
                self.split(n)
                continue
            n.started = n.running = True
            self.waiting -= 1
            self.busy[id(n.first)] = self.busy.get(id(n.first), 0) + 1
            self.update(n)
            self.seq += 1
            self.running[self.seq] = n
            extra = {} if self.deadline is None else {
                "time_limit": max(0.001, self.deadline - time.perf_counter())}
            self.pool.submit({**extra, "board": n.position.text(),
                              "to_move": COLOR_NAMES[n.to_move]}, self.seq)

    def report(self) -> None:
        if self.progress is None:
            return
        seconds = time.perf_counter() - self.t0
        decided = sum(c.status is not None for c in self.root.children)
        self.progress({"jobs": self.jobs + self.reused, "running": len(self.running),
                       "queued": self.waiting, "reused": self.reused,
                       "nodes": self.searched, "seconds": seconds,
                       "nodes_per_second": self.searched / seconds if seconds else 0.0,
                       "decided": decided, "first_moves": len(self.root.children),
                       "won": sum(c.status == LOSS for c in self.root.children)})

    def run(self, position: Position, color: int) -> bool:
        """Search until every first move is decided (True) or the time runs out."""
        self.root = _Node("", position, color, position.stone_count(),
                          len(position.moves(color)))
        self.split(self.root)
        while not self.done():
            if self.out_of_time():
                break
            self.fill()
            if not self.running:   # pragma: no cover - a live question with no job
                break
            got = self.pool.next(timeout=0.5)
            if got is None:   # no job ended yet: look at the clock and Ctrl-C again
                continue
            seq, answer = got
            n = self.running.pop(seq)
            if answer.get("timed_out"):   # stopped by the run's time: not a finished job
                break
            self.finish(n, answer)
            self.report()
        self.pool.drop()
        return self.done()


def solve_outcome_distributed(position: Position, first: int | str, *, cluster, store=None,
                              job_nodes: int = 200_000, time_limit: float | None = None,
                              progress: Callable[[dict], None] | None = None,
                              winner_only: bool = False) -> dict:
    """Who wins ``position`` with ``first`` to move, and every winning first move, by a
    job-level proof search on ``cluster`` (:func:`.cluster.cluster`; None: the jobs run
    one by one in this process), reusing and filling
    ``store`` (a :class:`.store.JobStore`, or None).

    The JSON of ``clobber solve --json`` (winner, first, winning_moves, exact, nodes,
    seconds, proof, board; ``nodes`` the total of the jobs the answer rests on, those run
    now and those reused from the store) plus ``"distributed": {"jobs" (every job the
    answer rests on: run now or read from the store), "jobs_reused" (those read from
    the store), "actors", "store" (its path or null)}``. ``time_limit`` (seconds): then
    ``exact`` is false, ``winner`` null unless a winning first move was proved.
    ``progress(info)`` is called after every job (jobs: run and reused so far, reused,
    running, queued, nodes, seconds, nodes_per_second, decided, first_moves, won).
    With ``winner_only`` the search stops at the first winning first move it proves
    (``winning_moves`` lists the winning moves proved by then, ``"winner_only": true``),
    as ``clobber solve --winner-only`` does without Ray: the outcome's proof, without
    deciding every other first move.

    >>> from clobbermania.distributed.cluster import cluster
    >>> with cluster(cpus=1) as c:                                    # doctest: +SKIP
    ...     solve_outcome_distributed(Position.checkerboard(3, 4), "black",
    ...                               cluster=c)["winner"]
    'black'
    """
    color = color_from_name(first) if isinstance(first, str) else first
    if color not in (BLACK, WHITE):
        raise UnsupportedError(f"the first player is black or white, not {first!r}")
    if not position.board.is_grid:
        raise UnsupportedError("--distributed solves grid boards; a --graph board is not "
                               "supported yet")
    if job_nodes < 1:
        raise UnsupportedError(f"a job needs a node budget of at least 1, not {job_nodes}")
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    search = _Search(cluster, store, job_nodes, deadline, progress, winner_only)
    exact = search.run(position, color)
    root = search.root
    moves = position.moves(color)
    winning = tuple(mv.to_str(position.board) for mv, c in zip(moves, root.children,
                                                               strict=True)
                    if c.status == LOSS)
    if winning:
        winner: str | None = COLOR_NAMES[color]
    elif exact:
        winner = COLOR_NAMES[opponent(color)]
    else:
        winner = None
    seconds = time.perf_counter() - t0
    actors = search.actors
    how = (f"job-level proof search, {search.jobs:,} jobs run and {search.reused:,} "
           f"reused on {actors} actors, {search.searched:,} nodes")
    proof = how if exact else f"time limit reached in a {how}"
    out = {"winner": winner, "first": COLOR_NAMES[color], "winning_moves": list(winning),
           "exact": exact, "nodes": search.searched, "seconds": round(seconds, 6),
           "proof": proof, "board": position.text()}
    if winner_only:
        out["winner_only"] = True
    out["distributed"] = {"jobs": search.jobs + search.reused, "jobs_reused": search.reused,
                          "actors": actors,
                          "store": None if store is None else str(store.path)}
    return out
