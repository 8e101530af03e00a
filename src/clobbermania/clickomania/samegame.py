"""Scored SameGame: a strong search for the highest score, and the standard benchmark.

Scoring (as in the NMCS / NRPA literature and CodinGame): a removed group of ``n`` blocks
scores ``(n-2)^2``; clearing the board adds 1000; there is **no end penalty** for blocks
left (Schadd et al.'s SP-MCTS program also subtracted ``(c-2)^2`` per colour with ``c > 2``
blocks left; we do not).

The search is iterated Monte-Carlo beam search (Cazenave, *Monte Carlo Beam Search*, IEEE
TCIAIG 2012) with the memorisation of nested Monte-Carlo search (Cazenave, *Nested
Monte-Carlo Search*, IJCAI 2009):

- a beam of ``w`` boards advances one click per level; every child of every board is valued
  by one tabu-colour playout (the most frequent colour, then the second, is clicked only
  when nothing else can be: the big late groups are where SameGame's points are; a
  playout draws a block of the allowed groups and keeps its group of n with probability
  2/n, which draws the groups uniformly without finding them all after each click);
- each board carries the best complete game known through it, and the child on that line
  inherits it, so the best line never leaves the beam; equal boards are merged (Zobrist);
  the beam ranks a board by that game's score less :data:`LEFT_PENALTY` points a block
  the game leaves (the scores reported stay true: the penalty only steers the beam
  towards lines that clear, where the +1000 is);
- beams from the start of width 16, 32, 64, ... run in turn for half the budget, each
  following the best game found so far; then, until the time is up, beams start from the
  board after the first ``k`` clicks of the best game, ``k = p-6, p-12, ..., 0`` (``p``:
  where the proved end below starts, at most the game's length), and again twice as wide
  (improving the game from its end backwards, where beams are cheap);
- after each new best game, an exact endgame (:func:`._samegame_kernels.k_endgame`:
  depth-first branch and bound, Zobrist transposition table kept for the whole search)
  solves the game's end from its last board backwards, one click at a time, while each
  call finishes within a node limit; a better finish is spliced in. The finishes after
  the first ``k`` clicks are then proved optimal, so the improving beams start before
  ``k`` (they back up past an end that is proved not to clear);
- the budget is split into :data:`RESTARTS` equal shares, each an independent search as
  above (its own random streams, nothing of the others' games; only the endgame's table,
  whose bounds hold for any search, is shared): one search tends to get stuck on one
  line, and the spread between searches is large, so several short searches beat one
  long one (measured at 60 CPU-s a board, ``benchmarks/samegame.py``);
- the best complete game seen in any playout or endgame is the answer. A beam that never
  had to drop a child searched every reachable board, and an endgame that solved the game
  from the start proved it: the answer is then optimal (``exact``).

We measured the alternatives on the standard set before choosing (the figures are in
``benchmarks/samegame.py``'s docstring): per CPU second, plain nested Monte-Carlo search
(level 2) and nested rollout policy adaptation (level 3, cut at 400,000 playouts) scored
below this beam; the exact endgame raised it (five boards, 30 and 60 CPU-s, three seeds).

Everything is deterministic given the seed: the random numbers are the search's own
(xorshift64*), and a time limit only decides where the same search stops
(``max_playouts`` stops it at an exact, machine-independent point).

>>> from clobbermania.clickomania.rules import Board
>>> board = Board.from_string("1221/2112/1122")
>>> r = play_samegame(board, max_playouts=200, seed=1)
>>> r.score, r.cleared, r.exact, r.score == score_sequence(board, r.moves)
(1020, True, True, True)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib.resources import files
from pathlib import Path

import numba
import numpy as np

from ..errors import NotationError
from ..limits import interrupted
from ._kernels import k_click
from ._samegame_kernels import k_beam_level, k_endgame, k_playout_scores
from .rules import (
    COLOR_CHARS,
    Board,
    check_cells,
    read_board_file,
    read_boards,
    score_sequence,
    to_grid,
)

#: The standard test set (20 boards, 15x15, 5 colours; Schadd et al. 2008): package data of
#: clobbermania.clickomania (``data/standard-20.txt``, origin and licence in ``data/SOURCE.md``),
#: found with importlib.resources, so a wheel install has it too.
STANDARD_SET = files(__package__) / "data" / "standard-20.txt"

#: Published totals over the standard set (no end penalty), for comparison.
PUBLISHED_TOTALS = {"SP-MCTS (Schadd et al. 2012)": 78012,
                    "NMCS level 3 (Cazenave 2009)": 77934}

#: The playout policy of the search: 2 = two tabu colours (see _samegame_kernels.k_playout).
POLICY = 2
#: The share of the time limit spent on beams from the root; the rest improves the best
#: game from its end backwards.
ROOT_SHARE = 0.5
#: Independent sub-searches the budget is split into (the best game kept).
RESTARTS = 3
#: With RESTARTS > 1: the share of the budget in which the best sub-search alone goes on
#: improving its game (the sub-searches share the rest).
CONTINUE_SHARE = 0.0
#: The beams rank a line by its score less this many points a block it leaves.
LEFT_PENALTY = 60
#: The tabu pairs tried: the ordered pairs of the TABU_COLOURS most frequent colours.
TABU_COLOURS = 4
#: Playouts from the start a tabu pair is tried with (at most), and the share of the
#: budget the trials may use.
TABU_TRIALS = 1000
TABU_SHARE = 0.02
#: Clicks between the starting points of the backward improvement beams.
REFINE_STEP = 6
#: The first beam width; each later beam doubles it.
FIRST_WIDTH = 16
#: The widest beam (memory: about 1 KB a board, 40 children a board).
MAX_WIDTH = 1 << 14
#: The largest board searched (50 x 50: one beam level of a 70 x 70 board outlasts a
#: 2-second limit several times over).
MAX_CELLS = 2_500
#: Independent searches of a board (``workers``; each a process of its own) and
#: sub-searches of a search (``restarts``) at most.
MAX_WORKERS = 64
MAX_RESTARTS = 1_000
#: The largest penalty a block left (the beams' scores stay within 64-bit integers).
MAX_LEFT_PENALTY = 1_000_000_000
#: The largest playout limit: the 64-bit playout counter is compared with a share of it
#: in floating point, exact up to 2^53 (and 10^15 playouts would take years anyway).
MAX_PLAYOUTS = 10 ** 15
#: Searches run at once (``jobs``; one process each) at most: the cores, at least 2.
MAX_JOBS = max(2, os.cpu_count() or 1)
#: Nodes of one exact endgame call (about a million a CPU second) per second of the time
#: limit; without a time limit, ENDGAME_NODES_MIN.
ENDGAME_NODES_PER_SECOND = 10_000
ENDGAME_NODES_MIN = 200_000
#: Transposition table of the exact endgame: 2**bits entries of 16 bytes.
ENDGAME_TT_BITS = 21
#: Beams of fewer states value their children on one thread: starting the threads costs
#: more than it gains there.
PARALLEL_MIN_STATES = 64


@dataclass(frozen=True)
class SameGameResult:
    """The best game found: its replayed score, clicks (square names, each in the board as
    it stands when clicked), whether it clears the board, and the search statistics.

    ``exact`` is True when a beam kept every child at every level (small boards): it then
    searched every reachable board and the score is the optimum."""

    score: int
    cleared: bool
    moves: tuple[str, ...]
    blocks_left: int
    playouts: int
    seconds: float
    cpu_seconds: float
    algorithm: str
    seed: int
    widths: tuple[int, ...] = ()
    exact: bool = False
    #: (seed, score) of each independent search when this is the best of several
    #: (:func:`best_of`); empty for a single search.
    searches: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict:
        return {"score": self.score, "cleared": self.cleared, "moves": list(self.moves),
                "blocks_left": self.blocks_left, "playouts": self.playouts,
                "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "algorithm": self.algorithm, "seed": self.seed, "widths": list(self.widths),
                "exact": self.exact, "searches": [list(x) for x in self.searches]}


class _Clock:
    """Seconds used so far, by the wall clock or by this process's CPU time."""

    def __init__(self, clock: str) -> None:
        if clock not in ("wall", "cpu"):
            raise NotationError(f"clock must be 'wall' or 'cpu', not {clock!r}")
        self._now = time.perf_counter if clock == "wall" else time.process_time
        self._t0 = self._now()

    def __call__(self) -> float:
        return self._now() - self._t0


def _seed_state(seed: int, salt: int) -> np.ndarray:
    # splitmix64-style scrambling, so nearby seeds give unrelated streams; never zero
    x = (seed * 0x9E3779B97F4A7C15 + salt * 0xBF58476D1CE4E5B9 + 1) % (1 << 64)
    x ^= x >> 31
    x = (x * 0x94D049BB133111EB) % (1 << 64)
    return np.array([x | 1], dtype=np.uint64)


def play_samegame(board: Board, time_limit: float | None = 60.0, seed: int = 0,
                  progress: Callable[[dict], None] | None = None, *,
                  max_playouts: int | None = None, clock: str = "wall",
                  first_width: int = FIRST_WIDTH, max_width: int = MAX_WIDTH,
                  endgame_nodes: int | None = None, restarts: int = RESTARTS,
                  threads: int | None = None,
                  continue_share: float = CONTINUE_SHARE,
                  tabu_rank: int | None = None,
                  left_penalty: int = LEFT_PENALTY) -> SameGameResult:
    """The best SameGame game found on ``board`` within ``time_limit`` seconds.

    ``clock``: ``"wall"`` or ``"cpu"`` (this process's CPU time: fair on a loaded
    machine). ``max_playouts`` stops after about that many playouts (checked after each
    beam level) and makes the result independent of the machine; with both limits the
    first reached stops. At least one limit is required. ``progress`` (if given) is called
    after each beam level with a dict (score, width, level, playouts, seconds).

    The returned score is the replayed score of the returned moves
    (:func:`rules.score_sequence`), not the search's own count.

    ``restarts``: the number of independent sub-searches, each given an equal share of
    the limits (the first of them is exactly the search with ``restarts=1`` on that
    share); the best game is kept.

    ``tabu_rank``: the playouts' tabu colours (the first clicked only when nothing else
    can be, the second only before it) are fixed for each sub-search: the ordered pairs of
    the most frequent colours are ranked by playouts from the start
    (:func:`rank_tabu_pairs`), and sub-search ``i`` uses the pair of rank
    ``tabu_rank + i``. ``None``: each playout takes the two most frequent colours of the
    board it starts from (Cazenave's rule).

    ``left_penalty``: the beams rank a line by its score less this many points a block it
    leaves (a guide towards clearing the board; the score returned is the true one).

    ``endgame_nodes``: the node limit of one exact endgame call (default: from the time
    limit, see :data:`ENDGAME_NODES_PER_SECOND`); 0 turns the exact endgame off.

    ``threads``: the threads that value a beam's children (default: one per core). The
    game found does not depend on it; with ``clock="cpu"`` the budget counts the CPU time
    of all threads.

    >>> r = play_samegame(Board.from_string("112/221/112"), max_playouts=100)
    >>> r.score, r.moves, r.exact
    (1009, ('a2', 'a3', 'a3'), True)
    """
    check_cells(board, MAX_CELLS, "the SameGame search")
    if time_limit is None and max_playouts is None:
        raise NotationError("play_samegame needs a time limit or a playout limit")
    if time_limit is not None and not 0 < time_limit < float("inf"):
        raise NotationError(f"the time limit must be a positive number of seconds, "
                            f"not {time_limit}")
    if max_playouts is not None and not 1 <= max_playouts <= MAX_PLAYOUTS:
        shown = str(max_playouts) if len(str(max_playouts)) <= 30 else "a larger number"
        raise NotationError(f"the playout limit must be between 1 and {MAX_PLAYOUTS:,}, "
                            f"not {shown}")
    if first_width < 1 or max_width < first_width:
        raise NotationError("beam widths must satisfy 1 <= first_width <= max_width")
    if not 1 <= restarts <= MAX_RESTARTS:
        raise NotationError(f"--restarts must be between 1 and {MAX_RESTARTS}, not {restarts}")
    if seed < 0:
        raise NotationError(f"the seed must be at least 0, not {seed}")
    if not 0.0 <= continue_share < 1.0:
        raise NotationError(f"the continued share must be at least 0 and below 1, "
                            f"not {continue_share}")
    if restarts == 1:
        continue_share = 0.0  # one sub-search: it simply has the whole budget
    penalties = [left_penalty] if isinstance(left_penalty, int) else list(left_penalty)
    if not penalties or any(not 0 <= p <= MAX_LEFT_PENALTY for p in penalties):
        raise NotationError(f"the penalty a block left must be between 0 and "
                            f"{MAX_LEFT_PENALTY:,}, not {left_penalty}")
    if tabu_rank is not None and tabu_rank < 0:
        raise NotationError(f"the tabu rank must be at least 0, not {tabu_rank}")
    if endgame_nodes is not None and endgame_nodes < 0:
        raise NotationError(f"the endgame node limit must be at least 0, not {endgame_nodes}")
    n_threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
    if not 1 <= n_threads <= numba.config.NUMBA_NUM_THREADS:
        raise NotationError(f"threads must be between 1 and "
                            f"{numba.config.NUMBA_NUM_THREADS}, not {threads}")
    _compile_kernels()
    saved_threads = numba.get_num_threads()
    wall0 = time.perf_counter()
    cpu0 = time.process_time()
    used = _Clock(clock)
    grid = to_grid(board)
    W, H = grid.shape
    L = W * H + 1
    zobrist = np.random.default_rng(seed).integers(
        1, 2**63, size=(W, H, 36), dtype=np.int64).astype(np.uint64)
    best = np.zeros(2, dtype=np.int64)
    best[0] = -1
    best_path = np.zeros(L, dtype=np.int16)
    counters = np.zeros(2, dtype=np.int64)
    widths: list[int] = []

    share = [1.0]  # the share of the budget the current sub-search may use up to

    def out_of_budget(upto: float | None = None) -> bool:
        f = share[0] if upto is None else upto
        return ((time_limit is not None and used() >= f * time_limit)
                or (max_playouts is not None and counters[0] >= f * max_playouts)
                or interrupted())

    stop = [False]
    complete = [False]  # the last beam ended without dropping any child

    def fraction_used() -> float:
        """The fraction of the limits used so far (the larger one)."""
        a = used() / time_limit if time_limit is not None else 0.0
        b = counters[0] / max_playouts if max_playouts is not None else 0.0
        return max(a, b)

    def beam(start: np.ndarray, prefix_score: int, width: int, run: int,
             cont: np.ndarray, value: int) -> tuple[int, np.ndarray | None]:
        """One beam from ``start`` (reached with ``prefix_score``), its root following
        ``cont`` worth ``value``: (best total, its clicks from ``start``), or (value, None)
        when nothing better was found."""
        state = _seed_state(seed, run)
        cur = _beam_arrays(width, W, H, L)
        nxt = _beam_arrays(width, W, H, L)
        cur[0][0] = start
        cur[1][0] = prefix_score
        cur[3][0, :len(cont)] = cont
        cur[4][0] = len(cont)
        cur[5][0] = value
        if left_penalty and value >= 0:  # the beam ranks lines by value less the penalty
            g = start.copy()
            for x in cont:
                k_click(g, int(x) // H, int(x) % H)
            cur[5][0] -= left_penalty * int((g >= 0).sum())
        found = np.array([value, -1], dtype=np.int64)
        path = np.zeros(L, dtype=np.int16)
        nb, level = 1, 0
        counters[1] = 0
        while nb:
            numba.set_num_threads(n_threads if nb >= PARALLEL_MIN_STATES else 1)
            nb = k_beam_level(*cur, nb, level, width, POLICY, tabu[0], tabu[1],
                              left_penalty, state, zobrist, *nxt, found,
                              path, counters)
            cur, nxt = nxt, cur
            level += 1
            if progress is not None:
                progress({"score": int(max(found[0], value)), "width": width,
                          "level": level, "playouts": int(counters[0]), "seconds": used()})
            if out_of_budget():
                stop[0] = True
                break
        complete[0] = not stop[0] and counters[1] == 0
        if found[1] < 0:
            return value, None
        return int(found[0]), path[:found[1]].copy()

    # the exact endgame: its table (bounds depend on the board only) lives for the search
    tt_key = np.zeros(1 << ENDGAME_TT_BITS, dtype=np.uint64)
    tt_val = np.zeros(1 << ENDGAME_TT_BITS, dtype=np.int64)
    eg_path = np.zeros(L, dtype=np.int16)
    eg_stats = np.zeros(3, dtype=np.int64)
    # (at most 2**62: a huge time limit must not overflow the kernel's int64)
    eg_nodes = (max(ENDGAME_NODES_MIN,
                    min(int(ENDGAME_NODES_PER_SECOND * (time_limit or 0)), 1 << 62))
                if endgame_nodes is None else endgame_nodes)
    eg_count = [0, 0]  # calls, nodes

    def endgame_pass(line: np.ndarray, value: int, proved: int
                     ) -> tuple[int, np.ndarray, int]:
        """Solve the line's end exactly, from its last board backwards while each call
        finishes within ``eg_nodes``; splice in any better finish. Returns (value, line,
        k): every finish from the board after the first k clicks is proved optimal
        (``proved`` is that k for ``line`` as it was known before)."""
        boards = [grid.copy()]
        prefixes = [0]
        for x in line:
            g = boards[-1].copy()
            n = k_click(g, int(x) // H, int(x) % H)
            boards.append(g)
            prefixes.append(prefixes[-1] + (n - 2) * (n - 2))
        k = min(proved, len(line))
        if eg_nodes == 0:
            return value, line, k
        while k > 0 and not out_of_budget():
            k -= 1
            eg_stats[:] = 0
            v = k_endgame(boards[k], value - prefixes[k], eg_nodes, zobrist, tt_key, tt_val,
                          eg_path, eg_stats)
            eg_count[0] += 1
            eg_count[1] += int(eg_stats[0])
            if v > value - prefixes[k]:
                value = prefixes[k] + v
                line = np.concatenate([line[:k], eg_path[:eg_stats[1]]])
            if eg_stats[2]:  # the node limit stopped it: the board after k clicks is open
                return value, line, k + 1
        return value, line, k

    def search(lo: float, hi: float) -> tuple[int, np.ndarray, int, bool, int]:
        """One sub-search on the budget from ``lo`` to ``hi`` (fractions of the limits):
        beams from the root, then :func:`refine`. Returns refine's tuple."""
        line = np.zeros(0, dtype=np.int16)  # the best game found (clicks from the root)
        value = -1
        proved = 0  # the finishes after the first `proved` clicks of `line` are optimal
        exhaustive = False
        width = first_width
        while not stop[0] and not exhaustive:
            widths.append(width)
            v, p = beam(grid, 0, width, run[0], line, value)
            run[0] += 1
            if p is not None:
                value, line = v, p
                proved = len(line)
            value, line, proved = endgame_pass(line, value, proved)
            if proved == 0 and value >= 0:
                exhaustive = True  # the whole game is proved optimal
            # nothing was dropped: every reachable board was searched, the game is optimal
            exhaustive = exhaustive or bool(complete[0])
            if fraction_used() >= lo + ROOT_SHARE * (hi - lo):
                break
            width = min(2 * width, max_width)
        return refine(value, line, proved, exhaustive, min(first_width * 4, max_width))

    def refine(value: int, line: np.ndarray, proved: int, exhaustive: bool,
               ref_width: int) -> tuple[int, np.ndarray, int, bool, int]:
        """Improve the best game from its end backwards until the budget share is used: a
        beam from the board after the first k clicks of the line, for k = n - STEP,
        n - 2 STEP, ..., 0, and again twice as wide. Returns (value, line, proved,
        exhaustive, the width the next beams would have)."""
        while not stop[0] and not exhaustive:
            # beams start before the proved end (never needed there)
            for k in [*range(proved - REFINE_STEP, 0, -REFINE_STEP), 0]:
                if stop[0] or k >= proved:
                    break
                g = grid.copy()
                prefix = 0
                for x in line[:k]:
                    n = k_click(g, int(x) // H, int(x) % H)
                    prefix += (n - 2) * (n - 2)
                v, p = beam(g, prefix, ref_width, run[0], line[k:], value)
                run[0] += 1
                n_refine[0] += 1
                refined_width[0] = max(refined_width[0], ref_width)
                if p is not None:
                    value, line = v, np.concatenate([line[:k], p])
                    value, line, proved = endgame_pass(line, value, len(line))
                    if proved == 0:
                        exhaustive = True
                        break
            if stop[0]:
                break  # this round was cut short: a continuation repeats its width
            ref_width = min(2 * ref_width, max_width)
        return value, line, proved, exhaustive, ref_width

    # independent sub-searches on equal shares of the budget (the first 1 - continue_share
    # of it; fresh random streams: the beam's run numbers go on), the best game kept; then
    # the best sub-search alone goes on improving its game for the rest. The endgame's
    # table is shared (its bounds hold for any search).
    pairs: list[tuple[int, int]] = [(-1, -1)]
    if tabu_rank is not None:
        pairs = _tabu_trials(grid, seed, counters, out_of_budget, max_playouts)
    tabu = pairs[0]
    used_pairs: list[tuple[int, int]] = []
    run = [0]
    n_refine = [0]
    refined_width = [0]
    probe = (1.0 - continue_share) / restarts
    best_state = (-1, np.zeros(0, dtype=np.int16), 0, False, first_width)
    best_tabu = tabu
    for part in range(restarts):
        share[0] = (part + 1) * probe if part < restarts - 1 or continue_share else 1.0
        stop[0] = False
        tabu = pairs[((tabu_rank or 0) + part) % len(pairs)]
        used_pairs.append(tabu)
        state = search(part * probe, share[0])
        if state[0] > best_state[0] or state[3]:
            best_state, best_tabu = state, tabu
        if state[3] or out_of_budget(1.0):
            break
    if continue_share and not best_state[3] and not out_of_budget(1.0):
        share[0] = 1.0
        stop[0] = False
        tabu = best_tabu
        best_state = refine(*best_state)
    value, line, _, exhaustive, _ = best_state
    numba.set_num_threads(saved_threads)
    best[0], best[1] = value, len(line)
    best_path[:len(line)] = line
    if best[0] < 0:  # the root had no move at all
        best[0], best[1] = score_sequence(board, []), 0
    moves = tuple(board_square_names(board, best_path[:best[1]]))
    final_score = score_sequence(board, moves)
    final = board
    for m in moves:
        final = final.click(m)
    if final_score != best[0]:
        # the search valued its game differently from the reference rules' replay of the
        # game's own clicks: a bug of the search, never of the input (not a ClobbermaniaError)
        raise AssertionError(
            f"internal error in the SameGame search: its best game was valued {best[0]} but "
            f"its {len(moves)} clicks replay to {final_score} (seed {seed}); please report "
            f"the board, seed and limits")
    return SameGameResult(
        score=final_score, cleared=final.is_cleared, moves=moves, blocks_left=final.n_blocks,
        playouts=int(counters[0]), seconds=time.perf_counter() - wall0,
        cpu_seconds=time.process_time() - cpu0,
        algorithm="iterated Monte-Carlo beam search ("
                  + (f"{restarts} independent sub-searches, " if restarts > 1 else "")
                  + f"root widths {widths[0]}..{max(widths)}"
                  + (f", the best continued for {continue_share:.0%} of the budget"
                     if continue_share and restarts > 1 else "")
                  + f", {n_refine[0]} improving beams up to width {refined_width[0]}"
                  + "; tabu-colour playouts ("
                  + ("each playout's two most frequent colours" if tabu_rank is None else
                     "tabu pairs " + ", ".join(_pair_name(p) for p in used_pairs) + " of "
                     + str(len(pairs)) + " ranked by playouts")
                  + f"), best line kept; exact endgame: {eg_count[0]} "
                  f"calls, {eg_count[1]:,} nodes)",
        seed=seed, widths=tuple(widths), exact=exhaustive)


def _tabu_trials(grid: np.ndarray, seed: int, counters: np.ndarray,
                 out_of_budget: Callable[[float], bool],
                 max_playouts: int | None) -> list[tuple[int, int]]:
    """The candidate tabu pairs, best first (see :func:`rank_tabu_pairs`): rounds of
    playouts for every pair until each had TABU_TRIALS or TABU_SHARE of the budget is
    used (at least one round; with a playout limit the rounds shrink to fit, so the
    search stays independent of the machine). Counts the playouts in ``counters[0]``."""
    pairs = tabu_pairs(grid)
    if len(pairs) <= 1:
        return pairs or [(-1, -1)]
    per_round = 100
    if max_playouts is not None:
        per_round = max(1, min(per_round, int(TABU_SHARE * max_playouts) // len(pairs)))
    scores: list[list[np.ndarray]] = [[] for _ in pairs]
    done = 0
    while done < TABU_TRIALS:
        for i, (a, b) in enumerate(pairs):
            trial_seed = (seed * 1_000_003 + done * 64 + i) % (1 << 62)  # any seed >= 0
            scores[i].append(k_playout_scores(grid, trial_seed, POLICY, per_round, a, b))
        counters[0] += per_round * len(pairs)
        done += per_round
        if out_of_budget(TABU_SHARE):
            break
    merit = [_top_mean(np.concatenate(x)) for x in scores]
    order = sorted(range(len(pairs)), key=lambda i: (-merit[i], i))
    return [pairs[i] for i in order]


def _pair_name(pair: tuple[int, int]) -> str:
    return "".join(COLOR_CHARS[x] for x in pair if x >= 0)


def _top_mean(scores: np.ndarray) -> float:
    """The mean of the best tenth of the scores (at least one)."""
    k = max(1, len(scores) // 10)
    return float(np.sort(scores)[-k:].mean())


def tabu_pairs(grid: np.ndarray) -> list[tuple[int, int]]:
    """The ordered pairs (first, second tabu colour) of the :data:`TABU_COLOURS` most
    frequent colours of a kernel grid (ties: the lower colour first); one colour gives
    ``[(c, -1)]``, an empty grid ``[]``.

    >>> tabu_pairs(to_grid(Board.from_string("112/233/111")))
    [(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2)]
    """
    vals, counts = np.unique(grid[grid >= 0], return_counts=True)
    top = [int(vals[i]) for i in sorted(range(len(vals)), key=lambda i: (-counts[i], vals[i]))]
    top = top[:TABU_COLOURS]
    if len(top) == 1:
        return [(top[0], -1)]
    return [(a, b) for a in top for b in top if a != b]


def rank_tabu_pairs(board: Board, trials: int = TABU_TRIALS, seed: int = 0
                    ) -> list[tuple[str, str, float]]:
    """The candidate tabu pairs of ``board`` ranked as the search ranks them: by the mean
    of the best tenth of ``trials`` policy-2 playouts from the start with the pair fixed
    (first tabu colour, second, merit), best first. Colours are the board's digits.

    >>> [p[:2] for p in rank_tabu_pairs(Board.from_string("1122/2211"), trials=50)][0]
    ('1', '2')
    """
    grid = to_grid(board)
    out = []
    for a, b in tabu_pairs(grid):
        s = k_playout_scores(grid, seed, POLICY, trials, a, b)
        out.append((COLOR_CHARS[a], COLOR_CHARS[b] if b >= 0 else "", _top_mean(s)))
    return sorted(out, key=lambda x: -x[2])


_COMPILED = False


def _compile_kernels() -> None:
    """Compile (or load from numba's cache) the search kernels once per process, before
    any clock starts: a search's time limit is for searching."""
    global _COMPILED
    if _COMPILED:
        return
    grid = np.array([[0, 0]], dtype=np.int8)
    cur, nxt = _beam_arrays(2, 1, 2, 3), _beam_arrays(2, 1, 2, 3)
    cur[0][0] = grid
    zobrist = np.ones((1, 2, 36), dtype=np.uint64)
    k_beam_level(*cur, 1, 0, 2, POLICY, -1, -1, 0, _seed_state(0, 0), zobrist, *nxt,
                 np.zeros(2, dtype=np.int64), np.zeros(3, dtype=np.int16),
                 np.zeros(2, dtype=np.int64))
    k_playout_scores(grid, 0, POLICY, 1, -1, -1)
    _COMPILED = True


def _beam_arrays(width: int, W: int, H: int, L: int) -> tuple[np.ndarray, ...]:
    """grids, scores, paths, continuations, continuation lengths, values."""
    return (np.full((width, W, H), -1, dtype=np.int8), np.zeros(width, dtype=np.int64),
            np.zeros((width, L), dtype=np.int16), np.zeros((width, L), dtype=np.int16),
            np.zeros(width, dtype=np.int64), np.zeros(width, dtype=np.int64))


def board_square_names(board: Board, codes: np.ndarray) -> list[str]:
    """Kernel move codes (``c * H + h``, clicked in turn from ``board``) as square names.

    >>> board_square_names(Board.from_string("11/22"), np.array([0, 0]))
    ['a2', 'a2']
    """
    H = board.height
    return [board.square_name((H - 1 - int(x) % H, int(x) // H)) for x in codes]


def playout_scores(board: Board, n: int, seed: int = 0, policy: int = POLICY) -> np.ndarray:
    """Scores of ``n`` random playouts from ``board`` (policy 0: uniform; 1: one tabu
    colour; 2: two), for statistics.

    >>> playout_scores(Board.from_string("1122"), 3).tolist()
    [1000, 1000, 1000]
    """
    if policy not in (0, 1, 2):
        raise NotationError(f"policy must be 0, 1 or 2, not {policy}")
    return k_playout_scores(to_grid(board), seed, policy, n, -1, -1)


def _bench_one(args: tuple) -> SameGameResult:
    (board, time_limit, seed, clock, max_playouts, restarts, threads, continue_share,
     tabu_rank, left_penalty) = args
    return play_samegame(board, time_limit=time_limit, seed=seed, clock=clock,
                         max_playouts=max_playouts, restarts=restarts, threads=threads,
                         continue_share=continue_share, tabu_rank=tabu_rank,
                         left_penalty=left_penalty)


def best_of(results: list[SameGameResult]) -> SameGameResult:
    """The best of independent searches of one board (root parallelism: Cazenave and
    Jouandeau, *On the parallelization of UCT*, 2007, applied to whole searches): the
    highest score, the lowest seed on ties; playouts and CPU seconds are summed, the wall
    seconds are the longest search's, and ``exact`` holds if any search proved its game
    optimal.

    >>> b = Board.from_string("1221/2112/1122")
    >>> rs = [play_samegame(b, time_limit=None, max_playouts=20, seed=s) for s in (0, 1)]
    >>> best_of(rs).score == max(r.score for r in rs)
    True
    """
    if not results:
        raise ValueError("best_of needs at least one result")
    best = max(results, key=lambda r: (r.score, -r.seed))
    if len(results) == 1:
        return best
    ordered = sorted(results, key=lambda r: r.seed)
    return replace(best, playouts=sum(r.playouts for r in results),
                   seconds=max(r.seconds for r in results),
                   cpu_seconds=sum(r.cpu_seconds for r in results),
                   exact=any(r.exact for r in results),
                   searches=tuple((r.seed, r.score) for r in ordered),
                   algorithm=f"best of {len(results)} independent searches (seeds "
                             f"{', '.join(str(r.seed) for r in ordered)}; this one seed "
                             f"{best.seed}): "
                             + best.algorithm)


def bench_samegame(boards: list[Board], time_limit: float | None = 60.0, seed: int = 0,
                   jobs: int = 1, clock: str = "wall", max_playouts: int | None = None,
                   progress: Callable[[int, SameGameResult], None] | None = None,
                   workers: int = 1, restarts: int = RESTARTS,
                   threads: int | None = None,
                   continue_share: float = CONTINUE_SHARE,
                   tabu_ranks: Sequence[int | None] = (None,),
                   left_penalty: int | Sequence[int] = LEFT_PENALTY
                   ) -> list[SameGameResult]:
    """:func:`play_samegame` on every board, ``jobs`` searches at a time in separate
    processes; results in board order. With ``workers = w > 1`` each board gets ``w``
    independent searches (seeds ``seed .. seed + w - 1``, run side by side, each with the
    whole ``time_limit``) and the best is kept (:func:`best_of`); ``jobs = w`` then gives
    each board the whole machine for ``time_limit`` seconds. ``restarts``: the
    independent sub-searches within each search and ``continue_share`` the share of the
    budget in which the best of them goes on, and search ``w`` of a board uses
    ``tabu_ranks[w % len(tabu_ranks)]`` (:func:`play_samegame`'s ``tabu_rank``: different
    playout policies make the searches of a board differ more); ``left_penalty`` as in
    :func:`play_samegame`, or a sequence: search ``w`` uses ``left_penalty[w % len]``
    (penalised and plain searches find their best games on different boards, so a board
    gains from having both). ``threads``: the
    threads of each search (default: the cores shared out among the jobs).
    ``progress(index, result)`` is called as each board finishes.

    >>> rs = bench_samegame([Board.from_string("1122"), Board.from_string("112/221")],
    ...                     time_limit=None, max_playouts=50)
    >>> [r.score for r in rs]
    [1000, 1]
    """
    if not 1 <= jobs <= MAX_JOBS:
        raise NotationError(f"--jobs must be between 1 and {MAX_JOBS} (the cores, at least "
                            f"2), not {jobs}")
    if not 1 <= workers <= MAX_WORKERS:
        raise NotationError(f"--workers must be between 1 and {MAX_WORKERS}, not {workers}")
    if restarts > MAX_RESTARTS:
        raise NotationError(f"--restarts must be at most {MAX_RESTARTS}, not {restarts}")
    for b in boards:
        check_cells(b, MAX_CELLS, "the SameGame search")
    if restarts < 1:
        raise NotationError(f"--restarts must be at least 1, not {restarts}")
    if seed < 0:
        raise NotationError(f"the seed must be at least 0, not {seed}")
    if threads is None:
        threads = max(1, numba.config.NUMBA_NUM_THREADS // jobs)
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise NotationError(f"threads must be between 1 and "
                            f"{numba.config.NUMBA_NUM_THREADS}, not {threads}")
    # board-major order: the searches of one board run side by side
    if not 0.0 <= continue_share < 1.0:
        raise NotationError(f"the continued share must be at least 0 and below 1, "
                            f"not {continue_share}")
    penalties = [left_penalty] if isinstance(left_penalty, int) else list(left_penalty)
    if not penalties or any(not 0 <= p <= MAX_LEFT_PENALTY for p in penalties):
        raise NotationError(f"the penalty a block left must be between 0 and "
                            f"{MAX_LEFT_PENALTY:,}, not {left_penalty}")
    if not tabu_ranks or any(r is not None and r < 0 for r in tabu_ranks):
        raise NotationError(f"tabu ranks must be None or at least 0, not {list(tabu_ranks)}")
    tasks = [(i, (b, time_limit, seed + w, clock, max_playouts, restarts, threads,
                  continue_share, tabu_ranks[w % len(tabu_ranks)],
                  penalties[w % len(penalties)]))
             for i, b in enumerate(boards) for w in range(workers)]
    parts: list[list[SameGameResult]] = [[] for _ in boards]
    results: list[SameGameResult | None] = [None] * len(boards)

    def done(i: int, r: SameGameResult) -> None:
        parts[i].append(r)
        if len(parts[i]) == workers:
            results[i] = best_of(parts[i])
            if progress is not None:
                progress(i, results[i])

    if jobs == 1 or len(tasks) <= 1:
        for i, t in tasks:
            if interrupted():       # Ctrl-C: the boards played so far were reported
                raise KeyboardInterrupt
            done(i, _bench_one(t))
        return results  # type: ignore[return-value]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    # spawn, not fork: a clean interpreter per worker (numba and threads dislike fork)
    with ProcessPoolExecutor(max_workers=jobs, initializer=_quiet_on_interrupt,
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(_bench_one, t): i for i, t in tasks}
        try:
            for f in as_completed(futures):
                done(futures[f], f.result())
        except BrokenProcessPool:
            if interrupted():        # Ctrl-C ended the workers: the command says so
                raise KeyboardInterrupt from None
            raise
    return results  # type: ignore[return-value]


def _quiet_on_interrupt() -> None:
    """Workers end at once and without a traceback on Ctrl-C, which the terminal sends to
    the whole process group; the parent then reports the interruption."""
    import signal

    signal.signal(signal.SIGINT, lambda *_: os._exit(130))


def read_samegame_set(path: str | Path | None = None) -> list[Board]:
    """The boards of a test-set file (``# position K`` blocks of rows; ``#`` comments).

    With no path: the standard set (:data:`STANDARD_SET`).

    >>> boards = read_samegame_set()
    >>> len(boards), boards[0].width, boards[0].height
    (20, 15, 15)
    """
    p = Path(path) if path is not None else STANDARD_SET
    if not p.is_file():
        raise NotationError(f"no test-set file at {p}")
    boards = read_boards(read_board_file(p))
    if not boards:
        raise NotationError(f"{p} holds no board")
    return boards


__all__ = ["SameGameResult", "play_samegame", "bench_samegame", "best_of", "read_samegame_set",
           "rank_tabu_pairs", "tabu_pairs",
           "playout_scores", "board_square_names", "STANDARD_SET", "PUBLISHED_TOTALS"]
