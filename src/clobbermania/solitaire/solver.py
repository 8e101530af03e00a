"""Exact Solitaire Clobber solver (SC with alternation, and SC2 without).

:func:`solve` finds the fewest stones a position can be reduced to, with a witness move
sequence and the reason that no sequence does better. It searches for a sequence leaving
at most k stones for k = lower bound, lower bound + 1, ...; each failed k is a proof
(the search is exhaustive up to the transposition table and the bounds, which are
sound). The search is a numba depth-first search on bitsets (:mod:`._kernels`) with

* a transposition table keyed by the position up to the board's symmetries and the
  colour swap, holding a proved lower bound for each refuted state;
* the group bound: stones never cross between groups of stones, a one-coloured group
  never moves, and a group whose delta is 0 (mod 3) keeps two stones (Lemma 3);
* under alternation, the colour-count bound;
* the theorems (1-D formula, Theorem 5) as bounds where they apply;
* in SC2, separate groups solved independently;
* moves ordered by the child's bound, then from the rim inwards.

>>> from clobbermania.stones import Position
>>> r = solve(Position.from_string("xoxoxo/oxoxox"))
>>> r.stones_left, r.exact, r.proof.split(":")[0]
(2, True, 'delta invariant')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .._bits import symmetry_tables
from ..errors import UnsupportedError
from ..graphs import components
from ..limits import interrupted as ctrl_c_pressed
from ..stones import BLACK, COLOR_NAMES, EMPTY, WHITE, Board, Move, Position
from . import _kernels as K
from .rules import replay
from .theory import (
    component_lower_bound,
    is_checkerboard_rectangle,
    is_checkerboard_row,
    one_d_value,
    theorem_lower_bound,
)

MAX_SQUARES = 64
#: The SC2 cycle algorithm is O(n^3): cycles of at most this many vertices (about a
#: second of CPU; 1,000 took 18 s).
MAX_CYCLE_VERTICES = 400
#: The SC2 tree algorithm is O(n + sum of squared degrees): at most this much work
#: (about a second of CPU; a star of 16,384 vertices, 2.7e8, took 8 s).
MAX_TREE_WORK = 30_000_000
_CHUNK_SECONDS = 0.05  # aim for a clock check this often


@dataclass(frozen=True)
class SolitaireResult:
    """What :func:`solve` found.

    ``stones_left`` is the stones left by the witness ``moves``; when ``exact`` it is the
    optimum, otherwise the optimum lies in [``lower_bound``, ``stones_left``].
    """

    position: Position
    free: bool
    first: int | None
    stones_left: int
    lower_bound: int
    exact: bool
    moves: tuple[Move, ...]
    proof: str
    nodes: int
    seconds: float
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def upper_bound(self) -> int:
        return self.stones_left

    def move_strings(self) -> list[str]:
        return [m.to_str(self.position.board) for m in self.moves]

    def positions(self) -> list[Position]:
        """The start and every position along the witness."""
        from .rules import sequence

        return sequence(self.position, list(self.moves), free=self.free, first=self.first)

    def _repr_svg_(self) -> str:
        """Jupyter shows a result as the witness drawn as a strip of boards (evenly spaced
        snapshots of a long one: render.svg.snapshot_moves)."""
        from ..render.svg import sequence_svg, snapshot_moves
        from .rules import sequence

        moves = list(self.moves)
        cuts = snapshot_moves(len(moves), self.position.board.n)
        positions = sequence(self.position, moves, free=self.free, first=self.first,
                             keep=set(cuts))
        captions = ["start"] + [f"{c}. {moves[c - 1].to_str(self.position.board)}"
                                for c in cuts]
        return sequence_svg(positions, [moves[c - 1] for c in cuts], captions=captions)

    def to_dict(self) -> dict:
        return {
            "board": self.position.text(),
            "graph": None if self.position.board.is_grid else self.position.board.describe(),
            "rules": "SC2" if self.free else "SC",
            "stones_left": self.stones_left,
            "lower_bound": self.lower_bound,
            "upper_bound": self.stones_left,
            "exact": self.exact,
            "moves": self.move_strings(),
            "proof": self.proof,
            "first": COLOR_NAMES.get(self.first),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class _Search:
    """The kernel's arrays for one board, shared by every target and side."""

    def __init__(self, board: Board, free: bool, tt_bits: int):
        n = board.n
        self.board = board
        self.free = free
        self.adj = np.array(board.adjacency_masks, dtype=np.uint64)
        colors = board.square_colors
        self.bipartite = colors is not None
        self.blacksq = np.uint64(sum(1 << v for v in range(n) if colors and colors[v] == BLACK))
        self.table = symmetry_tables(board.symmetries())
        self.nsym = len(self.table)
        maxm = max(1, 2 * sum(len(board.neighbors(v)) for v in range(n)))
        depth = n + 2
        self.st = np.zeros(K.ST_SIZE, dtype=np.int64)
        self.sb = np.zeros(depth, dtype=np.uint64)
        self.sw = np.zeros(depth, dtype=np.uint64)
        self.ss = np.zeros(depth, dtype=np.int64)
        self.k1 = np.zeros(depth, dtype=np.uint64)
        self.k2 = np.zeros(depth, dtype=np.uint64)
        self.ks = np.zeros(depth, dtype=np.int64)
        self.msrc = np.zeros((depth, maxm), dtype=np.int64)
        self.mdst = np.zeros((depth, maxm), dtype=np.int64)
        self.mscore = np.zeros((depth, maxm), dtype=np.int64)
        self.nm = np.zeros(depth, dtype=np.int64)
        self.mi = np.zeros(depth, dtype=np.int64)
        self.best_path = np.zeros((depth, 2), dtype=np.int64)
        size = 1 << tt_bits
        self.tk1 = np.zeros(size, dtype=np.uint64)
        self.tk2 = np.zeros(size, dtype=np.uint64)
        self.tks = np.zeros(size, dtype=np.int64)
        self.tv = np.zeros(size, dtype=np.int8)
        # SC2 values of groups of stones (exact, memoized across targets and sides)
        gsize = 1 << max(10, tt_bits - 2)
        self.gk1 = np.zeros(gsize, dtype=np.uint64)
        self.gk2 = np.zeros(gsize, dtype=np.uint64)
        self.gks = np.zeros(gsize, dtype=np.int64)
        self.gv = np.zeros(gsize, dtype=np.int8)
        self.counter = np.zeros(3, dtype=np.int64)
        # on grids and paths a group's game does not depend on where it stands
        self.translate = board.is_grid or board.name.startswith("path:")
        self.cols = board.cols if board.is_grid else board.n
        # Exact group values pay off where moves split groups quickly (paths, cycles);
        # on other boards only small groups are evaluated, within a budget per search
        # node (measured best on random 6x6/7x7 boards: 12 stones / 5000 nodes in SC2,
        # 10 / 2000 in SC).
        max_degree = max(len(board.neighbors(v)) for v in range(n))
        if max_degree <= 2:
            self.group_limit, self.group_budget = 64, 20_000
        elif free:
            self.group_limit, self.group_budget = 12, 5000
        else:
            self.group_limit, self.group_budget = 10, 2000
        self.nodes = 0
        self.chunk = 256

    def start(self, black: int, white: int, side: int) -> None:
        self.st[:] = 0
        # the root itself is the first witness (no moves), so bounds always exist
        self.st[K.ST_BEST] = (black | white).bit_count()
        self.sb[0] = black
        self.sw[0] = white
        self.ss[0] = side

    def run(self, target: int, max_nodes: int | None = None) -> int:
        """Search on for a chunk of work; the chunk adapts so that a call takes about
        _CHUNK_SECONDS, whatever a node costs on this board."""
        if max_nodes is None:
            t0 = time.perf_counter()
            status = self.run(target, self.chunk)
            spent = time.perf_counter() - t0
            if spent < _CHUNK_SECONDS / 2 and self.chunk < 1 << 22:
                self.chunk *= 2
            elif spent > _CHUNK_SECONDS * 2 and self.chunk > 16:
                self.chunk //= 2
            return status
        before = int(self.st[K.ST_NODES])
        status = K.search(self.adj, self.blacksq, self.bipartite, self.table, self.nsym, True,
                          self.free, target, self.st, self.sb, self.sw, self.ss, self.k1,
                          self.k2, self.ks, self.msrc, self.mdst, self.mscore, self.nm,
                          self.mi, self.best_path, self.tk1, self.tk2, self.tks, self.tv,
                          max_nodes, self.translate, self.cols, self.gk1, self.gk2, self.gks,
                          self.gv, self.counter, self.group_limit, self.group_budget)
        self.nodes += int(self.st[K.ST_NODES]) - before
        return int(status)

    def run_until(self, target: int, clock: _Clock) -> tuple[int, bool]:
        """:meth:`run` in chunks until the search ends or ``clock`` expires, reporting
        progress after each chunk; returns (status, interrupted): Ctrl-C stops the search
        (status PAUSED) instead of propagating."""
        status = K.PAUSED
        try:
            while status == K.PAUSED and not clock.expired(self.nodes):
                status = self.run(target)
                if clock.progress:
                    clock.progress({"target": target, "nodes": self.nodes,
                                    "seconds": clock.elapsed()})
        except KeyboardInterrupt:
            return status, True
        return status, status == K.PAUSED and ctrl_c_pressed()

    @property
    def group_nodes(self) -> int:
        return int(self.counter[2])

    def nodes_text(self) -> str:
        return (f"{self.nodes + self.group_nodes} nodes ({self.nodes} in the main search, "
                f"{self.group_nodes} computing exact SC2 values of groups)")

    def found_path(self) -> list[Move]:
        d = int(self.st[K.ST_DEPTH])
        return [Move(int(self.msrc[j, self.mi[j] - 1]), int(self.mdst[j, self.mi[j] - 1]))
                for j in range(d)]

    def best(self) -> tuple[int, list[Move]]:
        d = int(self.st[K.ST_BEST_LEN])
        return int(self.st[K.ST_BEST]), [Move(int(self.best_path[j, 0]),
                                              int(self.best_path[j, 1])) for j in range(d)]


class _Clock:
    def __init__(self, time_limit: float | None, node_limit: int | None, progress):
        self.t0 = time.perf_counter()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.node_limit = node_limit
        self.progress = progress

    def expired(self, nodes: int) -> bool:
        """True once the node limit or the deadline is reached, or Ctrl-C was pressed."""
        if ctrl_c_pressed():
            return True
        if self.node_limit is not None and nodes >= self.node_limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0


def solve(
    position: Position,
    *,
    free: bool = False,
    first: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    use_theorems: bool = True,
    tt_bits: int | None = None,
    progress: Callable[[dict], None] | None = None,
    algorithm: str = "auto",
) -> SolitaireResult:
    """The fewest stones ``position`` can be reduced to, with a witness and a proof.

    ``free=False`` is SC (colours alternate, starting with ``first``: BLACK, WHITE, or
    None to let the solver choose); ``free=True`` is SC2. With a ``time_limit`` (seconds)
    or ``node_limit`` the search may stop early and return ``exact=False`` with the
    proved ``lower_bound`` and the best witness found. Ctrl-C does the same.
    ``use_theorems=False`` proves theorem values by search instead of citing them.
    ``progress`` is called now and then with a dict (target, nodes, seconds).
    In SC2 on a path or a cycle (``path:``/``cycle:`` boards, single rows and columns)
    ``algorithm="auto"`` answers by the polynomial algorithm of :mod:`.paths`, and on
    any other board whose graph is a tree or forest (``tree:`` boards, edge-list files)
    by that of :mod:`.trees`, at any size; ``algorithm="search"`` forces the exhaustive
    search.

    >>> from clobbermania.stones import Position
    >>> solve(Position.from_string("xoxoxoxoxoxo"), first=BLACK).stones_left
    3
    """
    if algorithm not in ("auto", "search"):
        raise UnsupportedError(f"algorithm must be 'auto' or 'search', not {algorithm!r}")
    if first not in (None, BLACK, WHITE):
        raise UnsupportedError(f"first must be BLACK, WHITE or None, not {first!r}")
    result = _dispatch(position, free, first, time_limit, node_limit, use_theorems, tt_bits,
                       progress, algorithm)
    # every answer, whichever algorithm gave it, is replayed by the reference rules
    check = replay(position, result.moves, free=free, first=None if free else result.first)
    if not check.valid or check.stones_left != result.stones_left:  # pragma: no cover
        raise AssertionError(f"solver witness failed the reference replay: {check.error}")
    return result


def _dispatch(position, free, first, time_limit, node_limit, use_theorems, tt_bits, progress,
              algorithm) -> SolitaireResult:
    board = position.board
    if free and algorithm == "auto":
        shape = _path_or_cycle(board)
        if shape == "path":  # a path is a tree: the tree algorithm is linear on it
            return _solve_tree(position)
        if shape is not None:
            return _solve_path_like(position, shape)
        if not board.is_grid and _is_forest(board):
            return _solve_tree(position)
    if not free and use_theorems and algorithm == "auto" and board.n > MAX_SQUARES \
            and is_checkerboard_row(position):
        return _solve_row_by_theorem(position, first)
    if not free and use_theorems and algorithm == "auto" and board.n > MAX_SQUARES \
            and is_checkerboard_rectangle(position):
        return _solve_checkerboard_by_theorem(position, first)
    if board.n > MAX_SQUARES:
        raise UnsupportedError(f"the exact solver handles boards of up to {MAX_SQUARES} "
                               f"squares; this one has {board.n}")
    _warm()
    clock = _Clock(time_limit, node_limit, progress)
    if position.stone_count() == 0:
        return SolitaireResult(position, free, first or BLACK, 0, 0, True,
                               (), "no stones on the board", 0, clock.elapsed())
    if tt_bits is None:
        # 2^22 entries (about 100 MB) for large boards, less for small ones
        tt_bits = min(22, 10 + board.n // 2)
    search = _Search(board, free, tt_bits)
    if time_limit is not None:
        # one node's group evaluation is not interruptible: keep it well inside the limit
        search.group_budget = min(search.group_budget, max(500, int(time_limit * 10_000)))
    if free:
        return _solve_free(position, search, clock)
    return _solve_alternating(position, search, clock, first, use_theorems)


_WARM: list[bool] = []


def _warm() -> None:
    """Load (on a fresh install: compile) the search kernels once per process, before any
    clock starts, so that a time limit and ``seconds`` measure the search alone."""
    if not _WARM:
        _WARM.append(True)
        position = Position.from_string("xoo/oxx")
        for free in (False, True):
            search = _Search(position.board, free, 10)
            clock = _Clock(None, None, None)
            if free:
                _solve_free(position, search, clock)
            else:
                _solve_alternating(position, search, clock, None, False)


def _path_or_cycle(board: Board) -> str | None:
    """"path" or "cycle" when the board is one in vertex order, else None."""
    if board.is_grid:
        return "path" if board.rows == 1 or board.cols == 1 else None
    if board.name.startswith("path:"):
        return "path"
    if board.name.startswith("cycle:"):
        return "cycle"
    return None


def _solve_path_like(position: Position, shape: str) -> SolitaireResult:
    from .paths import cycle_sc2, path_sc2

    n = position.board.n
    if shape == "cycle" and n > MAX_CYCLE_VERTICES:
        raise UnsupportedError(f"the SC2 cycle algorithm takes O(n^3) time and cycles of at "
                               f"most {MAX_CYCLE_VERTICES} vertices, not {n:,}")
    t0 = time.perf_counter()
    value, pairs = (path_sc2 if shape == "path" else cycle_sc2)(list(position.cells))
    moves = tuple(Move(a, b) for a, b in pairs)
    n = position.board.n
    first = position.cells[moves[0].src] if moves else BLACK
    proof = (f"polynomial algorithm: dynamic programme over the stretches of the {shape} "
             f"(SC2 on paths and cycles, O(n^3) for n = {n})")
    result = SolitaireResult(position, True, first, value, value, True, moves, proof,
                             4 * n * n, time.perf_counter() - t0,
                             {"algorithm": f"{shape} dynamic programme"})
    return result


def _is_forest(board: Board) -> bool:
    from .trees import is_forest

    return is_forest(board)


def _solve_tree(position: Position) -> SolitaireResult:
    from .trees import tree_sc2

    board = position.board
    work = board.n + sum(len(board.neighbors(v)) ** 2 for v in range(board.n))
    if work > MAX_TREE_WORK:
        raise UnsupportedError(f"the SC2 tree algorithm takes O(n + sum of squared degrees) "
                               f"time, here {work:,}; the limit is {MAX_TREE_WORK:,}")
    t0 = time.perf_counter()
    value, pairs = tree_sc2(position)
    moves = tuple(Move(a, b) for a, b in pairs)
    n = position.board.n
    first = position.cells[moves[0].src] if moves else BLACK
    proof = ("polynomial algorithm: dynamic programme over partitions of the tree into "
             "1-reducible subtrees (SC2 on trees, O(n + sum of squared degrees) for "
             f"n = {n})")
    return SolitaireResult(position, True, first, value, value, True, moves, proof, n,
                           time.perf_counter() - t0, {"algorithm": "tree dynamic programme"})


def _solve_row_by_theorem(position: Position, first: int | None) -> SolitaireResult:
    """A_n (or its colour swap) beyond the search's reach: Theorems 1 and 2."""
    from .construction import reduce_row

    t0 = time.perf_counter()
    n = position.board.n
    swapped = position.cells[0] == WHITE
    mover = first or BLACK
    # reduce_row plays A_n (black first square); on the swapped row swap the colours
    raw = reduce_row(n, mover if not swapped else BLACK + WHITE - mover)
    value = one_d_value(n)
    proof = (f"Theorems 1 and 2: A_{n} reduces to ceil(n/4) + [n = 3 mod 4] = {value} "
             "stones and no fewer; witness by the construction of Theorem 1")
    result = SolitaireResult(position, False, mover, value, value, True, tuple(raw), proof, 0,
                             time.perf_counter() - t0, {"algorithm": "Theorem 1 construction"})
    return result


def _solve_checkerboard_by_theorem(position: Position, first: int | None) -> SolitaireResult:
    """A full checkerboard rectangle beyond the search's reach: Theorem 5, written out by
    :func:`.checkerboard.reduce_checkerboard` (which plays the colouring with black on
    a1; on the swapped one, the same moves with the colours swapped)."""
    from .checkerboard import optimum_stones, reduce_checkerboard

    t0 = time.perf_counter()
    rows, cols = position.board.rows, position.board.cols
    swapped = position.cells[0] == WHITE

    def standard(colour: int) -> int:  # the first colour on the black-on-a1 board
        return BLACK + WHITE - colour if swapped else colour

    if first is None:  # the solver may choose: the colour with the smaller optimum
        first = min((BLACK, WHITE), key=lambda c: (optimum_stones(rows, cols, standard(c)), c))
    value = optimum_stones(rows, cols, standard(first))
    moves = tuple(reduce_checkerboard(rows, cols, standard(first)))
    why = ("3 divides rows x cols: the delta invariant keeps 2" if rows * cols % 3 == 0 else
           "the majority colour moves first on an odd board: counting keeps 2"
           if value == 2 else "one stone is the least possible")
    proof = (f"Theorem 5: the {rows}x{cols} checkerboard reduces to {value} stones and no "
             f"fewer ({why}); witness by our construction (solitaire/checkerboard.py)")
    return SolitaireResult(position, False, first, value, value, True, moves, proof, 0,
                           time.perf_counter() - t0, {"algorithm": "Theorem 5 construction"})


def _lower_bound(position: Position, free: bool, side: int | None,
                 use_theorems: bool) -> tuple[int, str]:
    lb, why = component_lower_bound(position)
    if not free:
        sides = (0, 1) if side is None else (side,)
        alt = min(int(K.alternation_lower_bound(position.stone_count(BLACK),
                                                position.stone_count(WHITE), s)) for s in sides)
        if alt > lb:
            lb, why = alt, "colour counts: under alternation each move removes a stone of " \
                           "the colour not moving"
    if use_theorems:
        thm = theorem_lower_bound(position)
        if thm is not None and thm[0] > lb:
            lb, why = thm
    return lb, why


def _solve_alternating(position: Position, search: _Search, clock: _Clock, first: int | None,
                       use_theorems: bool) -> SolitaireResult:
    sides = (0, 1) if first is None else ((0,) if first == BLACK else (1,))
    lb0, why = _lower_bound(position, False, None if first is None else sides[0], use_theorems)
    k = lb0
    best: tuple[int, list[Move], int] = (position.stone_count(), [], sides[0])
    interrupted = False
    while True:
        outcome = []
        for side in sides:
            search.start(position.black, position.white, side)
            status, stopped = search.run_until(k, clock)
            interrupted |= stopped
            seen, path = search.best()
            if seen < best[0]:
                best = (seen, path, side)
            if status == K.FOUND:
                path = search.found_path()
                left = position.stone_count() - len(path)
                if k == lb0:
                    proof = f"{why}; the witness meets this bound"
                else:
                    proof = (f"exhaustive search: {search.nodes_text()} rule out "
                             f"{k - 1} stone{'s' if k - 1 != 1 else ''} or fewer")
                return _result(position, False, side, left, left, True, path, proof,
                               search, clock)
            outcome.append(status)
            if status != K.EXHAUSTED or interrupted:
                break
        if interrupted or any(s != K.EXHAUSTED for s in outcome):
            left, path, side = best
            for s in sides:
                g = greedy_playout(position, free=False, side=s)
                if position.stone_count() - len(g) < left:
                    left, path, side = position.stone_count() - len(g), g, s
            return _result(position, False, side, left, k, False, path,
                           f"search stopped after {search.nodes} nodes: at least {k} "
                           f"stones ({'interrupted' if interrupted else 'limit reached'})",
                           search, clock)
        k += 1


def _solve_free(position: Position, search: _Search, clock: _Clock) -> SolitaireResult:
    """SC2: groups of stones never interact, so each is solved on its own."""
    board = position.board
    total_left = total_lb = 0
    moves: list[Move] = []
    exact = True
    proofs = []
    groups = components(board, position.stones())
    for comp in groups:
        cells = bytearray(board.n)
        for v in comp:
            cells[v] = position.cells[v]
        sub = Position(board, bytes(cells))
        lb, why = _lower_bound(sub, True, None, False)
        k = lb
        interrupted = False
        while True:
            search.start(sub.black, sub.white, 2)
            status, stopped = search.run_until(k, clock)
            interrupted |= stopped
            if status == K.FOUND:
                path = search.found_path()
                proofs.append("bound" if k == lb else "search")
                left = sub.stone_count() - len(path)
                total_left += left
                total_lb += left
                moves += path
                break
            if status == K.EXHAUSTED and not interrupted:
                k += 1
                continue
            seen, path = search.best()
            g = greedy_playout(sub, free=True)
            if sub.stone_count() - len(g) < seen:
                seen, path = sub.stone_count() - len(g), g
            total_left += seen
            total_lb += k
            moves += path
            exact = False
            break
    if not exact:
        proof = f"search stopped after {search.nodes} nodes: at least {total_lb} stones"
    elif all(p == "bound" for p in proofs):
        _, why = component_lower_bound(position)
        proof = f"{why}; the witness meets this bound"
        if len(groups) > 1:
            proof += f" ({len(groups)} independent groups)"
    else:
        proof = (f"exhaustive search: {search.nodes_text()} over {len(groups)} independent "
                 f"group{'s' if len(groups) > 1 else ''} rule out fewer stones")
    return _result(position, True, None, total_left, total_lb, exact, moves, proof, search, clock)


def greedy_playout(position: Position, *, free: bool, side: int | None = None) -> list[Move]:
    """A quick witness for bounds when the search stops early: play to the end, each
    time taking the move from the square with fewest occupied neighbours that lands next
    to the most stones it can still capture (the search's own tie-break order)."""
    board = position.board
    due = None if free else (BLACK if side in (0, None) else WHITE)
    path: list[Move] = []
    while True:
        options = position.moves(due)
        if not options:
            return path
        move = min(options, key=lambda m, cells=position.cells: _playout_key(board, cells, m))
        path.append(move)
        position = position.play(move)
        if due is not None:
            due = 3 - due


def _playout_key(board: Board, cells: bytes, m: Move) -> tuple[int, int]:
    other = 3 - cells[m.src]
    deg = sum(1 for x in board.neighbors(m.src) if cells[x] != EMPTY)
    prey = sum(1 for x in board.neighbors(m.dst) if x != m.src and cells[x] == other)
    return deg, -prey


def _result(position, free, side, left, lb, exact, path, proof, search, clock) -> SolitaireResult:
    # under SC2 no colour is due; report the colour of the witness's first move anyway
    first = BLACK if side in (0, None) else WHITE
    if path:
        first = position.cells[path[0].src]
    return SolitaireResult(position, free, first, left, lb, exact, tuple(path), proof,
                           search.nodes + search.group_nodes, clock.elapsed(),
                           {"search_nodes": search.nodes, "group_nodes": search.group_nodes,
                            "tt_size": int(search.tv.shape[0])})


__all__ = ["solve", "SolitaireResult", "MAX_SQUARES", "EMPTY"]
