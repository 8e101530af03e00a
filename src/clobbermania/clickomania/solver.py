"""Exact solver for small Clickomania boards: can every block go, and how many can?

:func:`solve_clickomania` answers the decision question of Biedl et al. (*The Complexity
of Clickomania*: can the board be cleared?) or, with ``maximize=True``, the optimization
question (the most blocks that some click sequence removes), with a witness click sequence
replayed by :func:`clobbermania.clickomania.rules.replay` and the reason it is optimal.

The search (:mod:`._solver_kernels`, numba) is a depth-first branch and bound on the
engine's settled grids:

* **lower bound** on the blocks that must stay: a colour with exactly one block can never
  be removed (a click takes a group of two or more blocks of one colour, and counts only
  fall), so every such colour keeps its block. In the decision question a node with one
  such colour is cut; in the optimization one a node is cut when its bound is no better
  than the best sequence found;
* **transposition table**, a visited set keyed exactly by the packed grid (128-bit keys;
  Zobrist pairs on boards too large to pack) up to the left-right mirror: a node whose
  subtree was exhausted under an earlier, no smaller cut is not searched again (the
  argument is in :mod:`._solver_kernels`);
* **move ordering**: children whose bound is smaller first, then the ordering key
  (``order``; the default was chosen by measurement, see benchmarks/clickomania_exact.py).

A board that is one row, or one column (possibly in a wider frame), goes to the
polynomial grammar DP of :mod:`.column` instead.

The search is exhaustive apart from these cuts, which are sound, so an exhausted search is
a proof. With a ``time_limit`` (or ``node_limit``, or Ctrl-C) it stops with bounds: the
most blocks removed by a sequence found (``lower_bound``) and an upper bound from the
least lower bound over the nodes not yet searched (``upper_bound``).

>>> r = solve_clickomania("1212/1122/2211")
>>> r.solvable, r.exact, r.proof
(True, True, 'witness clears the board')
>>> r = solve_clickomania("12/21", maximize=True)
>>> r.solvable, r.removed, r.upper_bound, r.proof
(False, 0, 0, 'exhaustive search')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import UnsupportedError
from ..limits import interrupted as ctrl_c_pressed
from . import _solver_kernels as K
from .rules import COLOR_CHARS, Board, check_cells, replay

#: Table sizes (entries of 16 bytes): the table starts small and grows by 4x when half
#: full, up to 2^MAX_TT_BITS entries (256 MB); past that entries are replaced.
MIN_TT_BITS = 14
MAX_TT_BITS = 24
#: The largest board the exact solver takes (100 x 100: a 2-second search of one takes
#: about 0.8 GB).
MAX_CELLS = 10_000
#: Aim for a clock check this often (seconds).
_CHUNK_SECONDS = 0.05
#: Orderings of the children with equal bounds (the kernel's ORDER_* constants); the
#: default was measured best (benchmarks/clickomania_exact.py --orders).
ORDERS = {"natural": K.ORDER_NATURAL, "small": K.ORDER_SMALL_FIRST,
          "large": K.ORDER_LARGE_FIRST, "rare": K.ORDER_RARE_FIRST, "low": K.ORDER_LOW_FIRST,
          "high": K.ORDER_HIGH_FIRST, "right": K.ORDER_RIGHT_FIRST}
DEFAULT_ORDER = "natural"


@dataclass(frozen=True)
class ClickResult:
    """What :func:`solve_clickomania` found.

    ``removed`` is the number of blocks the witness ``moves`` removes (square names, each
    the representative of the clicked group in the board as it stands, original frame).
    ``lower_bound`` <= the most removable blocks <= ``upper_bound``; ``exact`` says the
    question asked is answered for certain: with ``maximize`` the two bounds meet at
    ``removed``; without it ``solvable`` is proved True or False. ``solvable`` is None
    when the search stopped before deciding.
    """

    board: Board
    maximize: bool
    solvable: bool | None
    removed: int
    moves: tuple[str, ...]
    exact: bool
    lower_bound: int
    upper_bound: int
    proof: str
    nodes: int
    seconds: float
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def blocks(self) -> int:
        """Blocks on the board at the start."""
        return self.board.n_blocks

    @property
    def left(self) -> int:
        """Blocks left by the witness."""
        return self.board.n_blocks - self.removed

    def boards(self) -> list[Board]:
        """The start and the board after each click of the witness."""
        return replay(self.board, self.moves)

    def _repr_svg_(self) -> str:
        """Jupyter shows a result as the witness drawn as a strip of boards."""
        from ..render.clickomania import clickomania_sequence_svg

        return clickomania_sequence_svg(self.board, list(self.moves))

    def to_dict(self) -> dict:
        return {
            "board": self.board.text(),
            "question": "maximize" if self.maximize else "clear",
            "solvable": self.solvable,
            "blocks": self.board.n_blocks,
            "removed": self.removed,
            "moves": list(self.moves),
            "exact": self.exact,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "proof": self.proof,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class _Search:
    """The kernel's arrays for one board and one question."""

    def __init__(self, board: Board, colors: list[int], cap: int, goal: int, order: int):
        W, H = board.width, board.height
        k = len(colors)
        dense = {x: i for i, x in enumerate(colors)}
        n = board.n_blocks
        depth = n // 2 + 2
        moves = max(1, (W * H) // 2 + 1)
        self.board = board
        self.n = n
        self.order = order
        self.grids = np.full((depth, W, H), -1, dtype=np.int8)
        for c, col in enumerate(board.columns):
            self.grids[0, c, :len(col)] = [dense[x] for x in col]
        self.counts = np.zeros((depth, max(1, k)), dtype=np.int64)
        for col in board.columns:
            for x in col:
                self.counts[0, dense[x]] += 1
        self.lbs = np.zeros(depth, dtype=np.int64)
        self.lbs[0] = int(np.sum(self.counts[0] == 1))
        self.nblocks = np.zeros(depth, dtype=np.int64)
        self.nblocks[0] = n
        self.mc = np.zeros((depth, moves), dtype=np.int64)
        self.mh = np.zeros((depth, moves), dtype=np.int64)
        self.msz = np.zeros((depth, moves), dtype=np.int64)
        self.mcol = np.zeros((depth, moves), dtype=np.int64)
        self.mlb = np.zeros((depth, moves), dtype=np.int64)
        self.mkey = np.zeros((depth, moves), dtype=np.int64)
        self.morder = np.zeros((depth, moves), dtype=np.int64)
        self.nm = np.zeros(depth, dtype=np.int64)
        self.mi = np.zeros(depth, dtype=np.int64)
        self.path_c = np.zeros(depth, dtype=np.int64)
        self.path_h = np.zeros(depth, dtype=np.int64)
        self.best_c = np.zeros(depth, dtype=np.int64)
        self.best_h = np.zeros(depth, dtype=np.int64)
        self.mark = np.zeros((W, H), dtype=np.bool_)
        self.sc = np.zeros(W * H, dtype=np.int32)
        self.sh = np.zeros(W * H, dtype=np.int32)
        # exact keys when the packed grid fits in 128 bits, else a Zobrist pair
        bits = max(1, k.bit_length())
        if bits * W * H <= 128:
            self.bits = bits
            self.za = self.zb = np.zeros((1, 1, 1), dtype=np.uint64)
        else:
            self.bits = 0
            rng = np.random.default_rng(0x5EED)
            self.za = rng.integers(1, 2**63, size=(W, H, max(1, k)), dtype=np.uint64)
            self.zb = rng.integers(1, 2**63, size=(W, H, max(1, k)), dtype=np.uint64)
        self.tt_bits = MIN_TT_BITS
        self.tk1 = np.zeros(1 << self.tt_bits, dtype=np.uint64)
        self.tk2 = np.zeros(1 << self.tt_bits, dtype=np.uint64)
        self.st = np.zeros(K.ST_SIZE, dtype=np.int64)
        self.st[K.ST_PENDING] = 1
        self.st[K.ST_BEST] = n
        self.st[K.ST_CAP] = cap
        self.st[K.ST_GOAL] = goal
        self.st[K.ST_GROW_AT] = len(self.tk1) // 2
        self.chunk = 1024

    @property
    def nodes(self) -> int:
        return int(self.st[K.ST_NODES])

    @property
    def best_left(self) -> int:
        return int(self.st[K.ST_BEST])

    def _grow(self) -> None:
        if self.tt_bits >= MAX_TT_BITS:
            self.st[K.ST_GROW_AT] = 1 << 62  # full size: replace entries from now on
            return
        self.tt_bits = min(MAX_TT_BITS, self.tt_bits + 2)
        nk1 = np.zeros(1 << self.tt_bits, dtype=np.uint64)
        nk2 = np.zeros(1 << self.tt_bits, dtype=np.uint64)
        self.st[K.ST_TT_USED] = K.tt_rehash(self.tk1, self.tk2, nk1, nk2)
        self.tk1, self.tk2 = nk1, nk2
        self.st[K.ST_GROW_AT] = len(nk1) // 2

    def run(self, max_nodes: int) -> int:
        while True:
            status = K.search(self.st, self.grids, self.counts, self.lbs, self.nblocks,
                              self.mc, self.mh, self.msz, self.mcol, self.mlb, self.mkey,
                              self.morder, self.nm, self.mi, self.path_c, self.path_h,
                              self.best_c, self.best_h, self.tk1, self.tk2, self.bits,
                              self.za, self.zb, self.mark, self.sc, self.sh, self.order,
                              max_nodes)
            if status != K.TABLE_FULL:
                return int(status)
            self._grow()

    def run_timed(self) -> int:
        """A chunk of work sized to take about _CHUNK_SECONDS."""
        t0 = time.perf_counter()
        status = self.run(self.chunk)
        spent = time.perf_counter() - t0
        if spent < _CHUNK_SECONDS / 2 and self.chunk < 1 << 24:
            self.chunk *= 2
        elif spent > _CHUNK_SECONDS * 2 and self.chunk > 64:
            self.chunk //= 2
        return status

    def frontier(self) -> int:
        return int(K.frontier_bound(self.st, self.lbs, self.mlb, self.morder, self.nm, self.mi))

    def best_moves(self) -> tuple[str, ...]:
        H = self.board.height
        d = int(self.st[K.ST_BEST_LEN])
        return tuple(self.board.square_name((H - 1 - int(self.best_h[i]), int(self.best_c[i])))
                     for i in range(d))

    def stats(self) -> dict:
        return {"table_entries": int(self.st[K.ST_TT_USED]),
                "table_hits": int(self.st[K.ST_TT_HITS]),
                "cut_children": int(self.st[K.ST_CUTS]),
                "table_keys": "exact 128-bit" if self.bits else "Zobrist 2x64-bit"}


def _as_board(board: Board | str) -> Board:
    return Board.from_string(board) if isinstance(board, str) else board


def single_block_colors(board: Board) -> list[int]:
    """The colours with exactly one block: each keeps its block whatever is clicked.

    >>> single_block_colors(Board.from_string("112/113"))
    [2, 3]
    """
    return [x for x, n in board.color_counts().items() if n == 1]


def solve_clickomania(
    board: Board | str,
    maximize: bool = False,
    time_limit: float | None = None,
    progress: Callable[[dict], None] | None = None,
    *,
    node_limit: int | None = None,
    order: str = DEFAULT_ORDER,
) -> ClickResult:
    """Decide whether ``board`` can be cleared (or, with ``maximize``, find the most blocks
    that can be removed), with a witness replayed by the reference rules and a proof.

    ``time_limit`` (seconds), ``node_limit`` (search nodes) and Ctrl-C stop the search
    with ``exact=False`` and bounds; ``progress`` is called now and then with a dict
    (``nodes``, ``seconds``, ``removed``). ``order`` picks the move ordering among
    children with equal bounds: ``natural`` (the engine's column-major order, the default:
    on 20 random 8x8 5-colour decisions, 5 s each, its median was 10,380 nodes against
    94,000 to 258,000 for the others, and it left the fewest undecided),
    ``small``/``large`` (group size), ``rare`` (colour with fewest blocks first), ``low``,
    ``high``, ``right``.

    >>> r = solve_clickomania("121/212/121")
    >>> r.solvable, r.proof, r.upper_bound
    (False, 'exhaustive search', 8)
    >>> r = solve_clickomania("4112/3122", maximize=True)
    >>> r.removed, r.exact, r.proof.startswith("bound")
    (6, True, True)
    """
    board = _as_board(board)
    check_cells(board, MAX_CELLS, "the exact Clickomania solver")
    if order not in ORDERS:
        raise UnsupportedError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    if time_limit is not None and not time_limit > 0:
        raise UnsupportedError(f"time_limit must be a positive number of seconds, "
                               f"not {time_limit}")
    _warm()
    result = _solve(board, maximize, time_limit, progress, node_limit, ORDERS[order])
    # every answer is replayed by the reference rules
    final = replay(board, result.moves)[-1]
    if final.n_blocks != board.n_blocks - result.removed:  # pragma: no cover
        raise AssertionError("solver witness failed the reference replay")
    return result


_WARM: list[bool] = []


def _warm() -> None:
    """Load the compiled kernels once (about a second), so that ``seconds`` times the
    solving alone."""
    if not _WARM:
        _WARM.append(True)
        _solve(Board.from_string("1122/1212"), True, None, None, None, K.ORDER_NATURAL)


def _solve(board: Board, maximize: bool, time_limit: float | None, progress,
           node_limit: int | None, order: int) -> ClickResult:
    t0 = time.perf_counter()
    n = board.n_blocks
    if n == 0:
        return ClickResult(board, maximize, True, 0, (), True, 0, 0, "the board is empty",
                           0, 0.0)
    if board.height == 1 or len(board.columns) == 1:
        return _solve_one_column(board, maximize, t0)
    singles = single_block_colors(board)
    root_lb = len(singles)
    colors = sorted(board.color_counts())
    why_single = (f"colour{'s' if root_lb > 1 else ''} with a single block: "
                  + ", ".join(COLOR_CHARS[x] for x in singles))
    if not maximize and root_lb > 0:
        # decided without search; a short optimization run supplies a witness
        search = _Search(board, colors, cap=n + 1, goal=root_lb, order=order)
        search.run(20_000)
        left = search.best_left
        return ClickResult(board, False, False, n - left, search.best_moves(), True, n - left,
                           n - root_lb, why_single, search.nodes, time.perf_counter() - t0,
                           search.stats())
    cap = n + 1 if maximize else 1
    goal = root_lb if maximize else 0
    search = _Search(board, colors, cap=cap, goal=goal, order=order)
    deadline = None if time_limit is None else t0 + time_limit
    status = K.RUNNING
    interrupted = False
    try:
        while status == K.RUNNING:
            if ctrl_c_pressed():
                interrupted = True
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if node_limit is not None:
                if search.nodes >= node_limit:
                    break
                status = search.run(min(node_limit - search.nodes, search.chunk * 4))
            else:
                status = search.run_timed()
            if progress is not None:
                progress({"nodes": search.nodes, "seconds": time.perf_counter() - t0,
                          "removed": n - search.best_left})
    except KeyboardInterrupt:
        interrupted = True
    left = search.best_left
    moves = search.best_moves()
    seconds = time.perf_counter() - t0
    stats = search.stats()
    nodes = search.nodes
    if status in (K.GOAL, K.EXHAUSTED):
        if left == 0:
            proof = "witness clears the board"
        elif status == K.GOAL:
            proof = f"bound: {why_single} (the witness leaves only those)"
        elif search.bits:
            proof = "exhaustive search"
        else:
            # a false table match (chance about 2^-128 a pair of boards) is the only way out
            proof = "exhaustive search (table keyed by 128-bit Zobrist hashes)"
        if maximize or left == 0:
            return ClickResult(board, maximize, left == 0, n - left, moves, True, n - left,
                               n - left, proof, nodes, seconds, stats)
        # decision, exhausted: no sequence clears the board
        return ClickResult(board, False, False, n - left, moves, True, n - left, n - 1,
                           proof, nodes, seconds, stats)
    # stopped early: whatever is not yet searched has the frontier's bound at best
    proven_left = max(root_lb, min(left, cap, search.frontier()))
    solvable = None if proven_left == 0 else False
    reason = "interrupted" if interrupted else "limit reached"
    proof = (f"search stopped after {nodes} nodes ({reason}): at least {proven_left} "
             f"block{'s' if proven_left != 1 else ''} stay")
    exact = proven_left == left if maximize else solvable is not None
    return ClickResult(board, maximize, solvable, n - left, moves, exact, n - left,
                       n - proven_left, proof, nodes, seconds, stats)


def _solve_one_column(board: Board, maximize: bool, t0: float) -> ClickResult:
    """A single row or a single column: the polynomial grammar DP of :mod:`.column`."""
    from .column import ColumnPuzzle, solve_column

    # a row is read left to right only on a 1-row frame (ColumnPuzzle names row 0);
    # a single column may stand in a wider frame
    puzzle = ColumnPuzzle(board, "row" if board.height == 1 else "column")
    r = solve_column(puzzle, "grammar")
    best = int(r.max_removed)
    return ClickResult(board, maximize, bool(r.solvable), r.removed, tuple(r.moves), True,
                       best, best, f"one {puzzle.orientation}: {r.proof}", 0,
                       time.perf_counter() - t0, {"algorithm": r.complexity})


__all__ = ["ClickResult", "solve_clickomania", "single_block_colors", "ORDERS",
           "DEFAULT_ORDER"]
