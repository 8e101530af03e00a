"""SameGame on a cluster: independent seeded searches as jobs, the best line kept.

A *job* is one seeded search of one board for a budget: the iterated Monte-Carlo beam
search :func:`clobbermania.clickomania.samegame.play_samegame`, run by
:func:`run_samegame_job` on an actor with one numba thread (the actor's compiled kernels
stay warm from job to job). A board searched by ``workers`` = W jobs gets the seeds
SEED..SEED+W-1 (root parallelisation: Cazenave and Jouandeau, *On the parallelization of
UCT*, 2007, applied to whole searches, as ``samegame bench --workers`` does in processes
of one machine); the best line of a board is kept by
:func:`~clobbermania.clickomania.samegame.best_of` (highest score, lowest seed on ties).
Search ``w`` of a board uses the ``w``-th left penalty of ``left_penalty``, cycling.

Every answer, whether it comes from an actor or from the job store, is replayed by the
reference rules (:func:`clobbermania.clickomania.rules.replay_score`) before it is
stored or used: an
illegal click, or a replayed score, clearance or block count other than the answer's,
is refused with one sentence (:class:`SameGameAnswerRefused`).

Each finished job goes into the job store (:mod:`.store`) under kind :data:`KIND` and
the key :func:`job_key`, which names the board (its text), the method (algorithm,
sub-searches, left penalty, clock), the seed and the budget (time limit and playout
limit); its answer holds the game (score, moves, cleared, blocks left) and the search's
statistics (playouts, seconds, CPU seconds, algorithm, widths, exact). A run on a store
reads back every job stored under its key instead of running it again: a killed
standard-set run resumes board by board, seed by seed.

With ``cluster=None`` the jobs run one by one in this process (no Ray):

>>> from clobbermania.clickomania.rules import Board
>>> results, info = search_samegame_distributed(
...     [Board.from_string("1221/2112/1122")], cluster=None, time_limit=None,
...     max_playouts=200, seed=1)
>>> results[0].score, results[0].cleared, info["jobs"], info["jobs_reused"]
(1020, True, 1, 0)
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from ..clickomania.rules import Board, check_cells, replay_score
from ..clickomania.samegame import (
    LEFT_PENALTY,
    MAX_CELLS,
    MAX_LEFT_PENALTY,
    MAX_PLAYOUTS,
    MAX_RESTARTS,
    MAX_WORKERS,
    RESTARTS,
    SameGameResult,
    best_of,
    play_samegame,
)
from ..errors import ClobbermaniaError, IllegalMoveError, NotationError
from ..limits import interrupted
from .cluster import InProcess

__all__ = ["KIND", "JOB", "ALGORITHM", "POLL_SECONDS", "SameGameAnswerRefused", "job_key",
           "run_samegame_job", "checked_result", "search_samegame_distributed"]

#: The store kind of one seeded SameGame search.
KIND = "samegame-search"
#: The job function, as :meth:`.cluster.Cluster.pool` names it.
JOB = "samegame.run_samegame_job"
#: Seconds the driver waits for a search to end before it looks at Ctrl-C again (a
#: search on an actor runs to its time limit: the driver need not wait for it).
POLL_SECONDS = 0.5
#: The search's name in a job's key: iterated Monte-Carlo beam search
#: (:func:`~clobbermania.clickomania.samegame.play_samegame`).
ALGORITHM = "mcbs"
#: The fields of a job's answer (besides "worker", added by the actor).
ANSWER_FIELDS = ("score", "moves", "cleared", "blocks_left", "playouts", "seconds",
                 "cpu_seconds", "algorithm", "seed", "widths", "exact")


class SameGameAnswerRefused(ClobbermaniaError):
    """An answer of a SameGame job (from an actor or from the job store) that the
    reference rules do not confirm: an illegal click, or a replayed score, clearance or
    block count other than the answer's; or an answer without its fields."""


def _number(x: float | None) -> str:
    return "-" if x is None else repr(float(x))


def job_key(board_text: str, seed: int, *, time_limit: float | None,
            max_playouts: int | None, clock: str, restarts: int, left_penalty: int) -> str:
    """The job store key of one seeded search: the board's text, then the method
    (algorithm, sub-searches, left penalty, clock), the seed and the budget (time limit
    in seconds and playout limit; ``-``: none), separated by spaces.

    >>> job_key("1122/2211", 3, time_limit=10, max_playouts=None, clock="cpu",
    ...         restarts=3, left_penalty=60)
    '1122/2211 mcbs restarts=3 left-penalty=60 clock=cpu seed=3 time-limit=10.0 max-playouts=-'
    """
    playouts = "-" if max_playouts is None else str(int(max_playouts))
    return (f"{board_text} {ALGORITHM} restarts={restarts} left-penalty={left_penalty} "
            f"clock={clock} seed={seed} time-limit={_number(time_limit)} "
            f"max-playouts={playouts}")


def run_samegame_job(payload: dict, budget: int) -> dict:
    """One job: :func:`~clobbermania.clickomania.samegame.play_samegame` of the board
    ``payload["board"]`` (its text) with ``payload``'s seed, time_limit (seconds or
    None), clock, restarts and left_penalty, on one numba thread; ``budget`` is the
    playout limit (0: none, the time limit alone).

    Returns the game and the search's statistics: {"score", "moves", "cleared",
    "blocks_left", "playouts", "seconds", "cpu_seconds", "algorithm", "seed", "widths",
    "exact"}.

    >>> r = run_samegame_job({"board": "112/221/112", "seed": 0, "time_limit": None,
    ...                       "clock": "wall", "restarts": 3, "left_penalty": 60}, 100)
    >>> r["score"], r["moves"]
    (1009, ['a2', 'a3', 'a3'])
    """
    try:
        board = Board.from_string(payload["board"])
        kwargs = {k: payload[k] for k in ("seed", "time_limit", "clock", "restarts",
                                          "left_penalty")}
    except (KeyError, TypeError):
        raise ClobbermaniaError("a samegame job needs a board, seed, time_limit, clock, "
                                "restarts and left_penalty") from None
    r = play_samegame(board, max_playouts=budget or None, threads=1, **kwargs)
    return {"score": r.score, "moves": list(r.moves), "cleared": r.cleared,
            "blocks_left": r.blocks_left, "playouts": r.playouts,
            "seconds": round(r.seconds, 6), "cpu_seconds": round(r.cpu_seconds, 6),
            "algorithm": r.algorithm, "seed": r.seed, "widths": list(r.widths),
            "exact": r.exact}


def checked_result(board: Board, answer: dict, seed: int, where: str) -> SameGameResult:
    """The :class:`~clobbermania.clickomania.samegame.SameGameResult` of a job's
    ``answer`` for ``board`` and ``seed``, once its moves are replayed by the reference
    rules; :class:`SameGameAnswerRefused` (one sentence naming ``where`` the answer came
    from) when the replay does not confirm the answer's score, clearance and blocks left,
    a click is illegal, the seed differs, or a field is missing.

    >>> b = Board.from_string("1122")
    >>> good = {"score": 1000, "moves": ["a1", "a1"], "cleared": True, "blocks_left": 0,
    ...         "playouts": 5, "seconds": 0.1, "cpu_seconds": 0.1, "algorithm": "mcbs",
    ...         "seed": 0, "widths": [16], "exact": True}
    >>> checked_result(b, good, 0, "the test").score
    1000
    >>> checked_result(b, {**good, "score": 1004}, 0, "the test")
    Traceback (most recent call last):
    ...
    clobbermania.distributed.samegame.SameGameAnswerRefused: the test gives board 1122 seed \
0 a score of 1004, but its 2 moves replay to 1000 by the reference rules; the answer was \
refused
    """
    head = f"{where} gives board {board.text()} seed {seed}"
    try:
        moves = answer["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise TypeError
        claimed = (answer["score"], answer["cleared"], answer["blocks_left"])
        stats = (int(answer["playouts"]), float(answer["seconds"]),
                 float(answer["cpu_seconds"]), str(answer["algorithm"]),
                 int(answer["seed"]), tuple(int(w) for w in answer["widths"]),
                 bool(answer["exact"]))
    except (KeyError, TypeError, ValueError):
        raise SameGameAnswerRefused(f"{head} an answer without its fields "
                                    f"({', '.join(ANSWER_FIELDS)}); the answer was refused"
                                    ) from None
    if stats[4] != seed:
        raise SameGameAnswerRefused(f"{head} the answer of seed {stats[4]}; the answer was "
                                    "refused")
    try:
        final, score = replay_score(board, moves)
    except IllegalMoveError as exc:
        raise SameGameAnswerRefused(f"{head} moves that the reference rules refuse ({exc}); "
                                    "the answer was refused") from None
    if claimed[0] != score:
        raise SameGameAnswerRefused(f"{head} a score of {claimed[0]}, but its {len(moves)} "
                                    f"moves replay to {score} by the reference rules; the "
                                    "answer was refused")
    if claimed[1:] != (final.is_cleared, final.n_blocks):
        raise SameGameAnswerRefused(
            f"{head} cleared {claimed[1]} with {claimed[2]} blocks left, but its moves "
            f"leave {final.n_blocks} by the reference rules; the answer was refused")
    playouts, seconds, cpu_seconds, algorithm, _, widths, exact = stats
    return SameGameResult(score=score, cleared=final.is_cleared, moves=tuple(moves),
                          blocks_left=final.n_blocks, playouts=playouts, seconds=seconds,
                          cpu_seconds=cpu_seconds, algorithm=algorithm, seed=seed,
                          widths=widths, exact=exact)


def _check(boards: Sequence[Board], time_limit: float | None, max_playouts: int | None,
           seed: int, workers: int, restarts: int, penalties: list[int], clock: str) -> None:
    """Refuse, at the driver and with one sentence, what a job would refuse."""
    if not boards:
        raise NotationError("a distributed SameGame search needs at least one board")
    for b in boards:
        check_cells(b, MAX_CELLS, "the SameGame search")
    if time_limit is None and max_playouts is None:
        raise NotationError("a SameGame search needs a time limit or a playout limit")
    if time_limit is not None and not 0 < time_limit < math.inf:
        raise NotationError(f"the time limit must be a positive number of seconds, "
                            f"not {time_limit}")
    if max_playouts is not None and not 1 <= max_playouts <= MAX_PLAYOUTS:
        raise NotationError(f"the playout limit must be between 1 and {MAX_PLAYOUTS:,}, "
                            f"not {max_playouts}")
    if seed < 0:
        raise NotationError(f"the seed must be at least 0, not {seed}")
    if not 1 <= workers <= MAX_WORKERS:
        raise NotationError(f"--workers must be between 1 and {MAX_WORKERS}, not {workers}")
    if not 1 <= restarts <= MAX_RESTARTS:
        raise NotationError(f"--restarts must be between 1 and {MAX_RESTARTS}, not {restarts}")
    if not penalties or any(not 0 <= p <= MAX_LEFT_PENALTY for p in penalties):
        raise NotationError(f"the penalty a block left must be between 0 and "
                            f"{MAX_LEFT_PENALTY:,}, not {penalties}")
    if clock not in ("wall", "cpu"):
        raise NotationError(f"clock must be 'wall' or 'cpu', not {clock!r}")


def search_samegame_distributed(
        boards: Sequence[Board], *, cluster: Any, store: Any = None,
        time_limit: float | None = 60.0, seed: int = 0, workers: int = 1,
        max_playouts: int | None = None, clock: str = "wall", restarts: int = RESTARTS,
        left_penalty: int | Sequence[int] = LEFT_PENALTY,
        progress: Callable[[dict], None] | None = None,
        on_board: Callable[[int, SameGameResult], None] | None = None
        ) -> tuple[list[SameGameResult], dict]:
    """The best game found on each of ``boards`` by ``workers`` independent searches a
    board (seeds ``seed .. seed + workers - 1``, search ``w`` with the left penalty
    ``left_penalty[w % len]``), each one job on ``cluster``
    (:func:`.cluster.cluster`; None: one by one in this process), reusing and filling
    ``store`` (a :class:`.store.JobStore`, or None).

    Each job is :func:`~clobbermania.clickomania.samegame.play_samegame` with
    ``time_limit`` (counted by ``clock``: ``"wall"``, or ``"cpu"``, the actor's CPU
    time), ``max_playouts``, ``restarts`` and its own seed and penalty, on one thread: the
    same game as the single-process search with that seed and budget (exactly the same
    under a playout limit alone). Every answer is replayed by the reference rules before
    it is stored or used (:func:`checked_result`). A board's best game is
    :func:`~clobbermania.clickomania.samegame.best_of` its searches, as
    ``samegame bench --workers`` keeps it.

    Returns the results in board order and ``{"jobs" (the searches the results rest on,
    run now or read from the store), "jobs_reused" (read from the store), "actors",
    "store" (its path, or None)}``. ``on_board(index, result)`` is called as each board's
    searches are all done (boards whose searches are all stored first);
    ``progress(info)`` after every job, with boards_done, boards, jobs_done, jobs,
    queued, running, jobs_reused, best_total (of the best games so far) and seconds. A
    Ctrl-C (:func:`clobbermania.limits.interrupted`) stops the run with
    KeyboardInterrupt within :data:`POLL_SECONDS` (the searches running are dropped);
    the finished jobs are in the store.

    >>> boards = [Board.from_string("1122/2211"), Board.from_string("112/221/112")]
    >>> results, info = search_samegame_distributed(boards, cluster=None, time_limit=None,
    ...                                             max_playouts=100, workers=2)
    >>> [(r.score, r.searches) for r in results], info["jobs"]
    ([(1004, ((0, 1004), (1, 1004))), (1009, ((0, 1009), (1, 1009)))], 4)
    """
    penalties = [left_penalty] if isinstance(left_penalty, int) else list(left_penalty)
    clock = clock.lower()
    _check(boards, time_limit, max_playouts, seed, workers, restarts, penalties, clock)
    t0 = time.perf_counter()
    budget = max_playouts or 0
    cluster = InProcess() if cluster is None else cluster
    pool = cluster.pool(JOB, budget)
    actors, slots = int(cluster.cpus), int(cluster.slots)
    texts = [b.text() for b in boards]
    parts: list[list[SameGameResult]] = [[] for _ in boards]
    results: list[SameGameResult | None] = [None] * len(boards)
    # one job per distinct key (a board given twice is searched once): key -> its places
    places: dict[str, list[tuple[int, int]]] = {}
    payloads: dict[str, dict] = {}
    for i, text in enumerate(texts):
        for w in range(workers):
            penalty = penalties[w % len(penalties)]
            key = job_key(text, seed + w, time_limit=time_limit, max_playouts=max_playouts,
                          clock=clock, restarts=restarts, left_penalty=penalty)
            if key not in places:
                payloads[key] = {"board": text, "seed": seed + w, "time_limit": time_limit,
                                 "clock": clock, "restarts": restarts,
                                 "left_penalty": penalty}
            places.setdefault(key, []).append((i, w))
    count = {"jobs": 0, "reused": 0, "done": 0}

    def report(queued: int, running: int) -> None:
        if progress is None:
            return
        best = sum(max(r.score for r in p) for p in parts if p)
        progress({"boards_done": sum(r is not None for r in results),
                  "boards": len(boards), "jobs_done": count["done"], "jobs": len(places),
                  "queued": queued, "running": running, "jobs_reused": count["reused"],
                  "best_total": best, "seconds": time.perf_counter() - t0})

    def record(key: str, answer: dict, where: str) -> None:
        first_board = places[key][0][0]
        r = checked_result(boards[first_board], answer, payloads[key]["seed"], where)
        count["done"] += 1
        for i, _w in places[key]:
            count["jobs"] += 1
            parts[i].append(r)
            if len(parts[i]) == workers:
                results[i] = best_of(parts[i])
                if on_board is not None:
                    on_board(i, results[i])

    todo: list[str] = []
    for key in places:
        stored = store.get(KIND, key) if store is not None else None
        if stored is None:
            todo.append(key)
            continue
        record(key, stored, f"the job store {store.path}")
        count["reused"] += len(places[key])
    report(len(todo), 0)
    # queue only what the actors can start, so a killed run has started few jobs beyond
    # those it finished, and the queue follows the boards' order
    waiting = deque(todo)
    running = 0
    try:
        while waiting or running:
            if interrupted():
                raise KeyboardInterrupt
            while waiting and running < slots:
                key = waiting.popleft()
                pool.submit(payloads[key], key)
                running += 1
            got = pool.next(timeout=POLL_SECONDS)
            if got is None:   # no search ended yet: look at Ctrl-C again
                continue
            key, answer = got
            running -= 1
            worker = str(answer.get("worker", ""))
            record(key, answer, "the job run in this process" if worker == "in-process"
                   else f"the job run by {worker or 'an actor'}")
            if store is not None:
                store.put(KIND, key, {k: answer[k] for k in ANSWER_FIELDS},
                          nodes=int(answer["playouts"]), seconds=float(answer["seconds"]),
                          worker=worker)
            report(len(waiting), running)
    finally:
        pool.drop()
    info = {"jobs": count["jobs"], "jobs_reused": count["reused"], "actors": actors,
            "store": None if store is None else str(store.path)}
    return [r for r in results if r is not None], info
