"""Outcomes of two-player Clobber positions by proof search, perft, and a computer player.

Clobber: Black (``x``, Left) moves a black stone onto an orthogonally adjacent white stone,
removing it; White (``o``, Right) likewise; who cannot move loses. A position is a sum of
its connected parts (Albert, Grossman, Nowakowski, Wolfe, *An introduction to Clobber*,
2005), which the search uses four ways, after MCGS (Folkersen, Müller, Du):

1. parts of one colour can never move and are dropped (they are 0);
2. positions of at most 64 live stones are searched by the numba negamax of
   :mod:`._search_kernels`, over bitboards, with a transposition table keyed by the least
   image of the stones under the board's symmetries and translation (and colour: "Black to
   move on (b, w)" is "White to move on (w, b)"); on grids, below the root, the parts of
   up to :data:`PART_STONES` stones are valued (the part database, else :mod:`.values`,
   between kernel calls) and folded into one summed value G, and a node is "big parts +
   G": a move is a move on the board or one of G's canonical Left options, and a node
   whose board is empty is decided by G's outcome (:func:`._search_kernels.solve`,
   :func:`._search_kernels.fold_parts`);
3. sums of rows (every part in one row or column) that the bitboard search has not
   decided in :data:`KERNEL_FIRST_NODES` nodes (:data:`ROW_KERNEL_NODES` beyond
   :data:`ROW_KERNEL_STONES` stones) go to the MCGS-style row-sum search of
   :mod:`.rowsum`: parts of at most :data:`ROW_SMALL` stones as canonical values, the sum
   simplified at every node, comparisons at the leaves;
4. other sums of more than 64 stones (the MCGS suites add up to eight 3x3 boards): each
   small part (at most :data:`SMALL_PART` stones) is replaced by its value
   (:func:`clobbermania.clobber.values.clobber_value`), the values are added into one cgt
   game G, and the search runs on "big parts + G", where a move is either a move in a big
   part or an option of G; when the big parts are gone the outcome of G decides.

:func:`solve_outcome` returns a :class:`SolveResult` (winner, every winning first move,
nodes, seconds, and a one-line proof); :func:`perft` counts move sequences;
:func:`choose_move` is the computer player.

>>> r = solve_outcome(Position.from_string("xoxo/oxox"), "black")   # the value is *
>>> r.winner, r.winning_moves, r.exact
('black', ('a1-b1', 'a1-a2', 'c1-b1', 'c1-c2', 'b2-b1', 'b2-c2', 'd2-d1', 'd2-c2'), True)
>>> solve_outcome(Position.checkerboard(2, 3), "white").winner   # 2x3 is P: first loses
'black'
>>> perft(Position.from_string("oxo/xox/oxo"), "white", 4)
[12, 88, 376, 936]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..cgt import game as _cg
from ..errors import ClobbermaniaError, UnsupportedError
from ..limits import interrupted, memory_room
from ..stones import BLACK, COLOR_NAMES, WHITE, Board, Move, Position, color_from_name, opponent
from . import _search_kernels as K
from .rowsum import RowSumSearch, RowSumTimeout

__all__ = ["SolveResult", "solve_outcome", "solve_sum", "perft", "perft_counts",
           "PerftResult", "MAX_PERFT_DEPTH", "choose_move",
           "SMALL_PART", "SMALL_ROW", "KERNEL_FIRST_NODES", "MAX_STONES", "PART_STONES"]

#: Parts with at most this many stones are replaced by their values in large sums...
SMALL_PART = 10
#: ... and parts lying in one row or column with at most this many (row values are cheap:
#: a 24-stone row takes about 0.05 s, a 32-stone one seconds).
SMALL_ROW = 22
#: Sums of at most 64 stones get this many bitboard nodes before the part-value search
#: takes over (when the values module is there).
KERNEL_FIRST_NODES = 3_000_000
#: Sums of rows of more stones than this get only ROW_KERNEL_NODES bitboard nodes before
#: the row-sum search (:mod:`.rowsum`) takes over.
ROW_KERNEL_STONES = 30
ROW_KERNEL_NODES = 20_000
#: The row-sum search replaces rows of at most this many stones by their values (16: the
#: best of 14 / 16 / 18 / 20 on the MCGS random 50-stone rows and on (xo)^n).
ROW_SMALL = 16
#: The row-sum search is renewed when its table holds more entries than this.
ROW_MEMO_LIMIT = 3_000_000
#: The bitboard kernels take at most this many live stones.
MAX_STONES = 64
#: The row-sum search takes rows of at most this many stones (the options of a row are
#: listed at once, each a copy of it, and so are those of each option for the move order:
#: n^3 bytes, 134 MB at 512).
MAX_ROW_STONES = 512
#: The table's largest size: 2^25 entries of 29 bytes (970 MB), reached only by searches
#: of more than 2^23 nodes and only while the memory bound leaves room
#: (:func:`clobbermania.limits.memory_room`); the 3x10 checkerboard took 256M nodes and
#: 276 s CPU with 2^24 entries (BENCHMARKS.md, "The frontier").
_MAX_TT_BITS = 25
_TT_ENTRY_BYTES = 29
#: Inside the bitboard search (grid boards), parts of up to this many stones are valued
#: (the part database, else :func:`clobbermania.clobber.values.clobber_value`, between
#: kernel calls) and folded into one summed value G that the search plays in
#: (:func:`._search_kernels.fold_parts`); 0 turns it off.
PART_STONES = 8
_PART_FIRST_BITS = 16  # the part table's first size (grown 4x when half full)
_PART_PENDING = 4096   # parts a kernel call may list for valuing
_FIRST_TT_BITS = 14  # the table's first size (grown as the search needs)
_MAX_VALUE_OPTIONS = 64  # values with more options on a side are not played in as G
_MAX_NEW_VALUES = 20_000  # nor those adding more new followers at once


def _color(first: int | str) -> int:
    if isinstance(first, str):
        return color_from_name(first)
    if first not in (BLACK, WHITE):
        raise ClobbermaniaError(f"the first player must be black or white, not {first!r}")
    return first


@dataclass(frozen=True)
class SolveResult:
    """The outcome of a Clobber position with ``first`` to move.

    ``winner`` is ``"black"``, ``"white"`` or None (unknown: the time or node limit ran
    out). ``winning_moves`` lists every winning first move when ``exact`` (with
    ``all_moves=False``: the one that proved the win); when the limit ran out after the
    winner was known, at least one. ``proof`` says how it was decided.
    """

    winner: str | None
    first: str
    winning_moves: tuple[str, ...]
    exact: bool
    nodes: int
    seconds: float
    proof: str
    board: str = field(default="", compare=False)

    def to_dict(self) -> dict:
        return {"winner": self.winner, "first": self.first,
                "winning_moves": list(self.winning_moves), "exact": self.exact,
                "nodes": self.nodes, "seconds": round(self.seconds, 6), "proof": self.proof,
                "board": self.board}


class _Budget:
    """A deadline and a node limit shared by every search of one call."""

    def __init__(self, time_limit: float | None, node_limit: int | None) -> None:
        self.t0 = time.perf_counter()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.node_limit = node_limit
        self.nodes = 0

    def expired(self) -> bool:
        """True once the node limit or the deadline is reached, or Ctrl-C was pressed."""
        if interrupted():
            return True
        if self.node_limit is not None and self.nodes >= self.node_limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


class _OutOfTime(Exception):
    pass


_SYM_TABLES: dict[Board, np.ndarray] = {}


def _symmetry_tables(board: Board) -> np.ndarray:
    tab = _SYM_TABLES.get(board)
    if tab is None:
        tab = _SYM_TABLES[board] = K.symmetry_tables(board.symmetries())
    return tab


_BOARD_ARRAYS: dict[Board, tuple[np.ndarray, np.ndarray]] = {}


def _board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(neighbour masks, symmetry tables) of a board, checked and built once per board:
    on small starts these Python set-up costs rival the search itself."""
    arrs = _BOARD_ARRAYS.get(board)
    if arrs is None:
        if board.n > MAX_STONES:
            raise UnsupportedError(f"the bitboard search takes at most {MAX_STONES} squares, "
                                   f"not {board.n}")
        _check_edges(board)
        arrs = _BOARD_ARRAYS[board] = (np.array(board.adjacency_masks, dtype=np.uint64),
                                       _symmetry_tables(board))
    return arrs


class _PartTable:
    """An open-addressing table of (uint64, uint64) keys to int32 values for the kernels
    (:func:`._search_kernels.part_slot`), grown 4x whenever it would be over half full."""

    def __init__(self, size: int) -> None:
        self.arrays = (np.zeros(size, np.uint64), np.zeros(size, np.uint64),
                       np.zeros(size, np.int32))
        self.count = 0

    def put(self, keys: np.ndarray, vals: np.ndarray) -> None:
        """Store vals[i] under keys[i] (rows (a, b)); their slots, marked pending by the
        kernel, count already."""
        self.count += len(keys)
        size = self.arrays[2].shape[0]
        if 2 * (self.count + _PART_PENDING) > size:
            k1, k2, v = self.arrays
            used = v != K.PART_EMPTY
            grown = 4 * size
            while 2 * (self.count + _PART_PENDING) > grown:
                grown *= 4
            self.arrays = (np.zeros(grown, np.uint64), np.zeros(grown, np.uint64),
                           np.zeros(grown, np.int32))
            K.part_put(*self.arrays, k1[used], k2[used], v[used])
        K.part_put(*self.arrays, keys[:, 0].copy(), keys[:, 1].copy(), vals)


class _Values:
    """The value tables of one engine (the kernel's ids; module notes of
    :mod:`._search_kernels` above ``PART_EMPTY``): id 0 is the game 0, and every id comes
    with its negative and the values its Left options leave (each registered in turn), so
    that the kernel can play in any G it meets. A game with more than ``max_options``
    options on a side, or whose followers would add more than :data:`_MAX_NEW_VALUES` ids
    at once, is declined (its part stays on the board, searched stone by stone). Games are
    held as ids of :mod:`clobbermania.cgt`'s table (``games[i]``), which does the sums."""

    def __init__(self, max_options: int) -> None:
        self.max_options = max_options
        self.games: list[int] = []       # id -> cgt id
        self.ids: dict[int, int] = {}    # cgt id -> id
        self.gneg = np.zeros(1024, np.int64)
        self.gls = np.zeros(1024, np.int64)
        self.glc = np.zeros(1024, np.int64)
        self.lwin = np.zeros(1024, np.int8)
        self.glo = np.zeros(4096, np.int64)
        self.nlo = 0
        from ..cgt import ZERO

        if self.register(ZERO.id) != 0:
            raise ClobbermaniaError("the value tables must give the game 0 the id 0")

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.gneg, self.gls, self.glc, self.glo, self.lwin

    def game(self, i: int):
        """The cgt Game of id i."""
        return _cg._objects[self.games[i]]

    def add(self, i: int, j: int) -> int:
        """The id of the sum of ids i and j, or -1 (declined; also when cgt's table of
        games is full, the search then goes on with the parts on the board)."""
        try:
            return self.register(_cg._add(self.games[i], self.games[j]))
        except UnsupportedError:
            return -1

    def register_part(self, g: int) -> int:
        """:meth:`register`; -1 for g = -1 (not valued) or when cgt's table is full."""
        if g < 0:
            return -1
        try:
            return self.register(g)
        except UnsupportedError:
            return -1

    def register(self, g: int) -> int:
        """The id of the game of cgt id g (with its followers and their negatives), or -1
        (declined)."""
        known = self.ids.get(g)
        if known is not None:
            return known
        # the closure not yet registered, each game with its negative and the negatives
        # of its Left options, before any is registered
        new: dict[int, tuple[int, list[int]]] = {}
        todo = [g]
        while todo:
            x = todo.pop()
            if x in self.ids or x in new:
                continue
            left, right = _cg._opts(x)
            if len(left) > self.max_options or len(right) > self.max_options \
                    or len(new) >= _MAX_NEW_VALUES:
                return -1
            neg = _cg._neg(x)
            children = [_cg._neg(y) for y in left]
            new[x] = (neg, children)
            todo.append(neg)
            todo.extend(children)
        start = len(self.games)
        for k, x in enumerate(new):
            self.ids[x] = start + k
            self.games.append(x)
        n = len(self.games)
        if n > self.gneg.shape[0]:
            size = max(2 * self.gneg.shape[0], n)
            for name in ("gneg", "gls", "glc", "lwin"):
                old = getattr(self, name)
                grown = np.zeros(size, old.dtype)
                grown[:old.shape[0]] = old
                setattr(self, name, grown)
        more = sum(len(c) for _, c in new.values())
        if self.nlo + more > self.glo.shape[0]:
            grown = np.zeros(max(2 * self.glo.shape[0], self.nlo + more), np.int64)
            grown[:self.nlo] = self.glo[:self.nlo]
            self.glo = grown
        for x, (neg, children) in new.items():
            i = self.ids[x]
            self.gneg[i] = self.ids[neg]
            self.gls[i] = self.nlo
            self.glc[i] = len(children)
            for y in children:
                self.glo[self.nlo] = self.ids[y]
                self.nlo += 1
        # Left moving first wins x when a Left option leaves the opponent, moving first
        # in it, a loss (followers have smaller birthdays: children before parents)
        done: set[int] = set()
        for x in new:
            stack = [self.ids[x]]
            while stack:
                i = stack[-1]
                if i in done:
                    stack.pop()
                    continue
                kids = self.glo[self.gls[i]:self.gls[i] + self.glc[i]].tolist()
                pending = [c for c in kids if c >= start and c not in done]
                if pending:
                    stack.extend(pending)
                    continue
                self.lwin[i] = 1 if any(self.lwin[c] == 0 for c in kids) else 0
                done.add(i)
                stack.pop()
        return self.ids[g]


class _Engine:
    """The numba proof search on one board (<= 64 squares), with its table.

    The table starts small (zeroing and touching a large one costs more than a small
    search: 25 MB for 2^20 entries) and is rehashed into one four times larger whenever
    the search has visited more nodes than it has entries, up to 2^:data:`_MAX_TT_BITS`
    entries while the memory bound leaves room for it (a search that cannot grow its
    table goes on with the one it has: entries are replaced, answers stay exact)."""

    def __init__(self, board: Board, tt_bits: int | None = None, stones: int = 64) -> None:
        self.board = board
        self.nbr, self.syms = _board_arrays(board)
        self.cols = board.cols if board.is_grid else 0
        self.row0 = np.uint64((1 << self.cols) - 1 if self.cols else 0)
        self.max_bits = _MAX_TT_BITS if tt_bits is None else tt_bits
        # (a start of 12 squares or fewer: a few hundred nodes, 2^12 entries are plenty)
        first = _FIRST_TT_BITS if stones > 12 else 12
        bits = min(self.max_bits, first) if tt_bits is None else tt_bits
        self.tt = self._table(bits)
        self.stats = np.zeros(4, np.int64)   # nodes, hits, winning move (src, dst)
        self.chunk = 1 << bits
        #: the most nodes of one kernel call (the parts a call lists are valued after it)
        self.max_chunk = 50_000_000
        self.move: tuple[int, int] | None = None  # the last win's first move, when known
        # the part and sum tables and the values (module notes of _search_kernels)
        self.pmax = PART_STONES if board.is_grid else 0
        psize = 1 << (_PART_FIRST_BITS if self.pmax else 1)
        self.parts = _PartTable(psize)
        self.sums = _PartTable(psize)
        # a node's moves (board and G) must fit the kernel's move buffers
        edges = sum(1 for _ in board.edges())
        self.values = _Values(max(0, min(_MAX_VALUE_OPTIONS, K.MAXM - edges)))
        npend = _PART_PENDING if self.pmax else 1
        self.pend = np.zeros((npend, 2), np.uint64)
        self.spend = np.zeros((npend, 2), np.uint64)
        self.pstat = np.zeros(2, np.int64)
        self.db = None   # the part database, opened at the first parts to value

    def _value_parts(self) -> None:
        """Value the parts, and add the pairs of values, that the last kernel call
        listed, and store them in the part and sum tables (a declined value stays
        pending: its part stays on the board)."""
        n, m = int(self.pstat[0]), int(self.pstat[1])
        if n == 0 and m == 0:
            return
        from . import values

        self.pstat[:] = 0
        vals = self.values
        if n:
            keys = self.pend[:n].copy()
            cgt_ids = self._part_db_ids(keys)
            if cgt_ids is None:
                cgt_ids = [self._part_value_id(values, int(a), int(b)) for a, b in keys]
            ids = np.array([vals.register_part(int(c)) for c in cgt_ids], np.int32)
            ok = ids >= 0
            self.parts.put(keys[ok], ids[ok] + 2)
        if m:
            keys = self.spend[:m].copy()
            ids = np.array([vals.add(int(a), int(b)) for a, b in keys], np.int32)
            ok = ids >= 0
            self.sums.put(keys[ok], ids[ok] + 2)

    def _part_value_id(self, values, me: int, opp: int) -> int:
        """The cgt id of the part's value (``me`` as Left) by :mod:`.values`, -1 when
        cgt's table of games is full."""
        try:
            return values.clobber_value(Position.from_masks(self.board, me, opp)).id
        except UnsupportedError:
            return -1

    def _part_db_ids(self, keys: np.ndarray) -> np.ndarray | None:
        """The cgt ids of the parts (rows (me, opp) of masks, ``me`` as Left) from the
        part database (:func:`.partdb.default_database`), or None when it does not hold
        them all (the board is over 63 squares or the parts larger than the database)."""
        board = self.board
        if board.rows * board.cols > 63:
            return None
        if self.db is None:
            from .partdb import default_database

            self.db = default_database() or False
        if not self.db or self.db.max_squares < self.pmax:
            return None
        try:
            ids = self.db.board_value_ids(board.rows, board.cols, keys[:, 0].view(np.int64),
                                          keys[:, 1].view(np.int64))
        except UnsupportedError:   # cgt's table of games is full: valued one by one
            return None
        return None if (ids < 0).any() else ids

    @staticmethod
    def _table(bits: int) -> tuple[np.ndarray, ...]:
        size = 1 << bits
        return (np.zeros(size, np.uint64), np.zeros(size, np.uint64),
                np.zeros(size, np.int32), np.zeros(size, np.int8), np.zeros(size, np.int64))

    def _grow(self) -> None:
        size = self.tt[3].shape[0]
        bits = size.bit_length() - 1
        if bits >= self.max_bits or int(self.stats[0]) < size:
            return
        new_bits = min(self.max_bits, bits + 2)
        if memory_room() < 2 * (_TT_ENTRY_BYTES << new_bits):
            return
        new = self._table(new_bits)
        K.tt_rehash(*self.tt, *new)
        self.tt = new

    def wins(self, me: int, opp: int, budget: _Budget) -> bool:
        """Whether the owner of ``me`` wins moving first; _OutOfTime when the budget ends."""
        while True:
            limit = int(self.stats[0]) + min(self.chunk, self.max_chunk)
            if budget.node_limit is not None:
                limit = min(limit, int(self.stats[0]) + max(1, budget.node_limit - budget.nodes))
            before = int(self.stats[0])
            t = time.perf_counter()
            r = K.solve(np.uint64(me), np.uint64(opp), self.nbr, self.syms, self.cols,
                        self.row0, *self.tt, self.stats, limit, self.pmax,
                        *self.parts.arrays, *self.sums.arrays, self.pend, self.spend,
                        self.pstat, *self.values.arrays)
            budget.nodes += int(self.stats[0]) - before
            self._value_parts()
            if r != K.ABORT:
                self.move = (int(self.stats[2]), int(self.stats[3])) \
                    if r == K.WIN and self.stats[2] >= 0 else None
                return r == K.WIN
            # aim at about 0.2 s between looks at the clock
            dt = time.perf_counter() - t
            if dt < 0.1:
                self.chunk = min(self.chunk * 2, self.max_chunk)
            elif dt > 0.4:
                self.chunk = max(self.chunk // 2, 10_000)
            if budget.expired():
                raise _OutOfTime
            self._grow()


def _check_edges(board: Board) -> None:
    # a player has at most one move per edge: the kernels' move buffers hold MAXM
    edges = sum(1 for _ in board.edges())
    if edges > K.MAXM:
        raise UnsupportedError(f"the bitboard search takes boards of at most {K.MAXM} edges, "
                               f"not {edges}")


_LAST_ENGINE: list[_Engine] = []
_LAST_SUM: list = []  # the last _SumSearch, reused on the same board
_ROW_SEARCH: list[RowSumSearch] = []  # the row-sum search, reused by every call


def _engine_for(board: Board, stones: int) -> _Engine:
    """The engine of the last call when it was on the same board (its table entries hold
    for any position of that board: an MCGS case asks B and W of one sum, and W on
    (xo)^n is B on its mirror image), else a new one."""
    if _LAST_ENGINE and _LAST_ENGINE[0].board == board:
        return _LAST_ENGINE[0]
    engine = _Engine(board, stones=stones)
    _LAST_ENGINE[:] = [engine]
    return engine


# -- parts ---------------------------------------------------------------------------------

def _live_parts(position: Position) -> list[list[int]]:
    """The connected parts of the stones that hold both colours (the others never move)."""
    from ..graphs import components

    cells = position.cells
    out = []
    for comp in components(position.board, position.stones()):
        colors = {cells[v] for v in comp}
        if len(colors) == 2:
            out.append(sorted(comp))
    return out


def _in_a_line(board: Board, part: list[int]) -> bool:
    """Whether the part lies in one row or one column of a grid."""
    if not board.is_grid:
        return False
    C = board.cols
    return len({v // C for v in part}) == 1 or len({v % C for v in part}) == 1


def _is_small(board: Board, part: list[int]) -> bool:
    if len(part) <= SMALL_PART:
        return True
    return len(part) <= SMALL_ROW and _in_a_line(board, part)


def _part_position(position: Position, part: list[int]) -> Position:
    """One part on its own board: its bounding box on a grid, else the induced graph."""
    board = position.board
    if board.is_grid:
        C = board.cols
        rs = [v // C for v in part]
        cs = [v % C for v in part]
        r0, r1, c0, c1 = min(rs), max(rs), min(cs), max(cs)
        inside = set(part)
        rows = []
        for r in range(r0, r1 + 1):
            rows.append("".join(".xo"[position.cells[r * C + c]] if r * C + c in inside
                                else "." for c in range(c0, c1 + 1)))
        return Position.from_string("/".join(rows))
    index = {v: i for i, v in enumerate(part)}
    edges = [(index[u], index[v]) for u in part for v in board.neighbors(u)
             if v in index and u < v]
    sub = Board.from_edges(len(part), edges, name=f"part of {board.describe()}")
    return Position(sub, bytes(position.cells[v] for v in part))


@dataclass
class _Packed:
    """Stones of one or more positions on one board of <= 64 squares: ``origin[v]`` is
    (index of the position, its square) of square v."""

    board: Board
    black: int
    white: int
    origin: list[tuple[int, int]]


def _pack(positions: list[Position], parts: list[tuple[int, list[int]]]) -> _Packed:
    """The given parts ((position index, squares)) on one board: the position's own board
    when there is one position of <= 64 squares (keeps its symmetries), else the disjoint
    union of the parts as a graph."""
    if len(positions) == 1 and positions[0].board.n <= MAX_STONES:
        p = positions[0]
        keep = 0
        for _, part in parts:
            for v in part:
                keep |= 1 << v
        return _Packed(p.board, p.black & keep, p.white & keep,
                       [(0, v) for v in range(p.board.n)])
    origin: list[tuple[int, int]] = []
    index: dict[tuple[int, int], int] = {}
    for gi, part in parts:
        for v in part:
            index[(gi, v)] = len(origin)
            origin.append((gi, v))
    if len(origin) > MAX_STONES:
        raise UnsupportedError(f"the large parts hold {len(origin)} stones; the search takes "
                               f"at most {MAX_STONES}")
    edges = []
    black = white = 0
    for (gi, v), i in index.items():
        pos = positions[gi]
        if pos.cells[v] == BLACK:
            black |= 1 << i
        else:
            white |= 1 << i
        for u in pos.board.neighbors(v):
            j = index.get((gi, u))
            if j is not None and i < j:
                edges.append((i, j))
    board = Board.from_edges(max(1, len(origin)), edges, name="sum of parts")
    return _Packed(board, black, white, origin)


def _masks(me: int, opp: int, color: int) -> tuple[int, int]:
    return (me, opp) if color == BLACK else (opp, me)


# -- the sum of big parts and a game ---------------------------------------------------------

class _SumSearch:
    """Search of "bitboard parts + cgt game G" (see the module docstring, point 3)."""

    def __init__(self, board: Board, budget: _Budget) -> None:
        from . import values  # the component values (helper module, with its own cache)

        self.values = values
        self.board = board
        self.engine = _Engine(board, tt_bits=18)
        self.budget = budget
        self.memo: dict[tuple, bool] = {}
        self.part_memo: dict[tuple[int, int], object] = {}
        self.src = np.zeros(K.MAXM, np.int64)
        self.dst = np.zeros(K.MAXM, np.int64)

    def fold(self, black: int, white: int, game):
        """(black, white, game): every small part of the stones folded into ``game``."""
        pos = Position.from_masks(self.board, black, white)
        g = game
        for part in _live_parts(pos):
            if not _is_small(self.board, part):
                continue
            mask = sum(1 << v for v in part)
            b, w = black & mask, white & mask
            key = K.canonical(np.uint64(b), np.uint64(w), self.engine.syms, self.engine.cols,
                              self.engine.row0)
            key = (int(key[0]), int(key[1]))
            val = self.part_memo.get(key)
            if val is None:
                val = self.values.clobber_value(_part_position(pos, part))
                self.part_memo[key] = val
            g = g + val
            black &= ~mask
            white &= ~mask
        b, w = K.strip_dead(np.uint64(black), np.uint64(white), self.engine.nbr)
        return int(b), int(w), g

    def wins(self, black: int, white: int, game, color: int) -> bool:
        """Whether ``color`` to move wins on the stones plus ``game`` (already folded)."""
        self.budget.nodes += 1
        if self.budget.nodes % 256 == 0 and self.budget.expired():
            raise _OutOfTime
        if black == 0 and white == 0:
            o = game.outcome
            return o == "N" or o == ("L" if color == BLACK else "R")
        if game == 0 and (black | white).bit_count() <= 20:
            me, opp = _masks(black, white, color)
            return self.engine.wins(me, opp, self.budget)
        # keyed from the mover's side: White to move on (b, w) + G is Black to move on
        # the colour-swapped stones + (-G), so both questions share their answers
        me, opp = _masks(black, white, color)
        key = K.canonical(np.uint64(me), np.uint64(opp), self.engine.syms,
                          self.engine.cols, self.engine.row0)
        mkey = (int(key[0]), int(key[1]), (game if color == BLACK else -game).id)
        hit = self.memo.get(mkey)
        if hit is not None:
            return hit
        result = False
        other = opponent(color)
        # moves in the game part first: cheap, and often decisive
        for g2 in (game.left_options if color == BLACK else game.right_options):
            if not self.wins(black, white, g2, other):
                result = True
                break
        if not result:
            me, opp = _masks(black, white, color)
            n = K.gen_moves(np.uint64(me), np.uint64(opp), self.engine.nbr, self.src, self.dst)
            moves = [(int(self.src[i]), int(self.dst[i])) for i in range(n)]
            for s, d in moves:
                nme = (me & ~(1 << s)) | (1 << d)
                nopp = opp & ~(1 << d)
                b2, w2 = _masks(nme, nopp, color)
                b2, w2, g2 = self.fold(b2, w2, game)
                if not self.wins(b2, w2, g2, other):
                    result = True
                    break
        self.memo[mkey] = result
        return result


def _row_strings(positions: list[Position], parts: list[tuple[int, list[int]]]) -> list[str]:
    """Each part lying in one row or column as its string of x and o (squares in order)."""
    return ["".join(".xo"[positions[gi].cells[v]] for v in sorted(part)) for gi, part in parts]


def _row_search() -> RowSumSearch:
    """The row-sum search kept from the last call (its tables hold for any sum of rows),
    renewed when its table has grown past :data:`ROW_MEMO_LIMIT` entries."""
    if not _ROW_SEARCH or len(_ROW_SEARCH[0].memo) > ROW_MEMO_LIMIT:
        _ROW_SEARCH[:] = [RowSumSearch(small=ROW_SMALL)]
    return _ROW_SEARCH[0]


def _solve_rows(positions, parts, color, budget, result) -> SolveResult:
    longest = max((len(part) for _, part in parts), default=0)
    if longest > MAX_ROW_STONES:   # its options are copies of the row: n^2 bytes at once
        raise UnsupportedError(f"the row-sum search takes rows of at most {MAX_ROW_STONES:,} "
                               f"stones, and this part has {longest:,}")
    search = _row_search()
    before = search.nodes
    left = None if budget.deadline is None else budget.deadline - time.perf_counter()
    nodes = None if budget.node_limit is None else max(1, budget.node_limit - budget.nodes)
    try:
        win = search.wins_first(_row_strings(positions, parts), color, time_limit=left,
                                node_limit=nodes)
    except RowSumTimeout:
        budget.nodes += search.nodes - before
        raise _OutOfTime from None
    budget.nodes += search.nodes - before
    return result(color if win else opponent(color),
                  f"row-sum search (parts of <= {search.small} stones as values), "
                  f"{budget.nodes:,} nodes")


_WARM: list[bool] = []


def _warm() -> None:
    """Load (on a fresh install: compile) the search kernels once per process, before any
    clock starts, so that a time limit and ``seconds`` measure the search alone."""
    if not _WARM:
        _WARM.append(True)
        solve_outcome(Position.checkerboard(2, 3), BLACK)


def solve_sum(positions: list[Position], first: int | str, *,
              time_limit: float | None = None, node_limit: int | None = None) -> SolveResult:
    """The outcome of the sum of ``positions`` (separate boards) with ``first`` to move.

    Up to 64 live stones in all: one bitboard search on their disjoint union. Beyond: the
    small parts are replaced by their values (module docstring, point 3); the large parts
    must then hold at most 64 stones together. ``winning_moves`` are not listed for sums
    (a move names a board and a square).

    >>> a, b = Position.from_string("xo"), Position.from_string("xo")
    >>> solve_sum([a, b], "black").winner     # * + * = 0: the first player loses
    'white'
    """
    color = _color(first)
    _warm()
    budget = _Budget(time_limit, node_limit)
    text = " ".join(p.text() for p in positions)
    parts = [(gi, part) for gi, p in enumerate(positions) for part in _live_parts(p)]
    stones = sum(len(part) for _, part in parts)

    def result(winner: int | None, proof: str) -> SolveResult:
        return SolveResult(None if winner is None else COLOR_NAMES[winner], COLOR_NAMES[color],
                           (), winner is not None, budget.nodes,
                           time.perf_counter() - budget.t0, proof, text)

    try:
        from . import values  # the component values (loaded when first needed)

        if stones <= MAX_STONES:
            packed = _pack(positions, parts)
            engine = _engine_for(packed.board, stones)
            me, opp = _masks(packed.black, packed.white, color)
            rows_only = all(_in_a_line(positions[gi].board, part) for gi, part in parts)
            if not rows_only:
                win = engine.wins(me, opp, budget)
                return result(color if win else opponent(color),
                              f"exhaustive search, {budget.nodes:,} nodes")
            # rows: the bitboard search first; when it has not decided within its share,
            # the row-sum search with part values (long rows split into parts whose values
            # are cheap; grid parts are not, so grids stay with the bitboard search)
            share = KERNEL_FIRST_NODES if stones <= ROW_KERNEL_STONES else ROW_KERNEL_NODES
            if budget.node_limit is not None:
                share = min(share, budget.node_limit)
            first_try = _Budget(None, share)
            first_try.deadline = budget.deadline
            try:
                win = engine.wins(me, opp, first_try)
                budget.nodes += first_try.nodes
                return result(color if win else opponent(color),
                              f"exhaustive search, {budget.nodes:,} nodes")
            except _OutOfTime:
                budget.nodes += first_try.nodes
                if budget.expired():
                    raise
            return _solve_rows(positions, parts, color, budget, result)
        if all(_in_a_line(positions[gi].board, part) for gi, part in parts):
            return _solve_rows(positions, parts, color, budget, result)
        from ..cgt import ZERO

        big = [(gi, part) for gi, part in parts if not _is_small(positions[gi].board, part)]
        small = [(gi, part) for gi, part in parts if _is_small(positions[gi].board, part)]
        big_stones = sum(len(part) for _, part in big)
        if big_stones > MAX_STONES:   # refused before any part is valued
            raise UnsupportedError(f"the large parts hold {big_stones} stones; the search "
                                   f"takes at most {MAX_STONES}")
        game = ZERO
        for gi, part in small:
            game = game + values.clobber_value(_part_position(positions[gi], part))
            if budget.expired():
                raise _OutOfTime
        if not big:
            o = game.outcome
            win = o == "N" or o == ("L" if color == BLACK else "R")
            return result(color if win else opponent(color),
                          f"sum of {len(small)} part values = {game} ({o})")
        packed = _pack(positions, big)
        if _LAST_SUM and _LAST_SUM[0].board == packed.board:
            search = _LAST_SUM[0]  # its memo holds for any stones of that board
            search.budget = budget
            search.engine.stats[:] = 0
        else:
            search = _SumSearch(packed.board, budget)
            _LAST_SUM[:] = [search]
        win = search.wins(packed.black, packed.white, game, color)
        return result(color if win else opponent(color),
                      f"search of {len(big)} large parts + {len(small)} part values, "
                      f"{budget.nodes:,} nodes")
    except _OutOfTime:
        return result(None, f"time or node limit reached after {budget.nodes:,} nodes")


def solve_outcome(position: Position, first: int | str, time_limit: float | None = None,
                  node_limit: int | None = None, *, all_moves: bool = True) -> SolveResult:
    """Who wins ``position`` with ``first`` (``"black"``/``"white"`` or BLACK/WHITE) to move,
    and every winning first move.

    The root is decided first; then, when ``all_moves``, every first move is searched
    (with the same table) so that ``winning_moves`` is complete. When ``time_limit``
    (seconds) or ``node_limit`` runs out: ``exact`` is False, ``winner`` is None unless a
    winning move had been found (then it is listed). Positions of more than 64 live
    stones, and rows of more than :data:`ROW_KERNEL_STONES`, go to :func:`solve_sum`
    (each first move then solved on its own).

    >>> solve_outcome(Position.from_string("xxo"), "white").winner   # ^ > 0: Black wins
    'black'
    >>> solve_outcome(Position.checkerboard(3, 4), "black").proof.startswith("exhaustive")
    True
    """
    color = _color(first)
    _warm()
    budget = _Budget(time_limit, node_limit)
    board = position.board
    stones = position.stone_count()
    parts = None
    if board.n > MAX_STONES or stones > ROW_KERNEL_STONES:
        parts = _live_parts(position)
        stones = sum(len(p) for p in parts)
        long_rows = stones > ROW_KERNEL_STONES and all(_in_a_line(board, p) for p in parts)
        if stones > MAX_STONES or long_rows:
            r = solve_sum([position], color, time_limit=time_limit, node_limit=node_limit)
            if r.winner == COLOR_NAMES[color] and all_moves:
                moves, nodes, complete = _winning_moves_by_sum(position, color, budget,
                                                               time_limit, node_limit)
                return SolveResult(r.winner, r.first, moves, r.exact and complete,
                                   r.nodes + nodes, time.perf_counter() - budget.t0,
                                   f"{r.proof}; then each first move solved "
                                   f"({nodes:,} nodes)", r.board)
            return r
    if board.n <= MAX_STONES:
        # the position's own board: the kernel drops the dead parts itself, and squares
        # are their own indices (no Python set-up beyond the masks)
        engine = _engine_for(board, stones)
        to_packed = None
        me, opp = _masks(position.black, position.white, color)
    else:
        packed = _pack([position], [(0, p) for p in parts])
        engine = _engine_for(packed.board, stones)
        to_packed = {orig[1]: v for v, orig in enumerate(packed.origin)}
        me, opp = _masks(packed.black, packed.white, color)
    other = opponent(color)
    winner: int | None = None
    found: list[str] = []
    exact = False
    try:
        winner = color if engine.wins(me, opp, budget) else other
        if winner == color and not all_moves and engine.move is not None:
            # the kernel names the move that won the root: no second search
            s, d = engine.move
            if to_packed is not None:
                s, d = packed.origin[s][1], packed.origin[d][1]
            found.append(Move(s, d).to_str(board))
        # (a lost root, or a won one whose move the kernel named, needs no move list)
        for mv in position.moves(color) if all_moves or (winner == color and not found) \
                else ():
            if winner != color and not all_moves:
                break
            if winner == color and not all_moves and found:
                break
            if to_packed is None:
                s, d = mv.src, mv.dst
            else:
                s, d = to_packed.get(mv.src), to_packed.get(mv.dst)
                if s is None or d is None:  # a move inside a part we dropped: impossible
                    continue  # pragma: no cover - dead parts have no moves
            nme = (me & ~(1 << s)) | (1 << d)
            nopp = opp & ~(1 << d)
            if winner == color and not engine.wins(nopp, nme, budget):
                found.append(mv.to_str(position.board))
        if winner == color and not found:  # pragma: no cover - would contradict the root
            raise ClobbermaniaError("internal error: a won position without a winning move")
        exact = True
    except _OutOfTime:
        pass
    if not exact and winner == color and not found:
        winner = None  # known won, but no move found yet: report what is sure
    proof = (f"exhaustive search, {budget.nodes:,} nodes" if exact else
             f"time or node limit reached after {budget.nodes:,} nodes")
    return SolveResult(None if winner is None else COLOR_NAMES[winner], COLOR_NAMES[color],
                       tuple(found), exact, budget.nodes, time.perf_counter() - budget.t0,
                       proof, position.text())


def _winning_moves_by_sum(position: Position, color: int, budget: _Budget,
                          time_limit: float | None, node_limit: int | None
                          ) -> tuple[tuple[str, ...], int, bool]:
    """The winning first moves, each decided by a solve_sum of the position after it; the
    nodes spent; whether every move was decided (False when the time ran out)."""
    out = []
    nodes = 0
    for mv in position.moves(color):
        left = None if budget.deadline is None else budget.deadline - time.perf_counter()
        if left is not None and left <= 0:
            return tuple(out), nodes, False
        r = solve_sum([position.play(mv)], opponent(color), time_limit=left,
                      node_limit=node_limit)
        nodes += r.nodes
        if r.winner is None:
            return tuple(out), nodes, False
        if r.winner == COLOR_NAMES[color]:
            out.append(mv.to_str(position.board))
    return tuple(out), nodes, True


# -- perft -----------------------------------------------------------------------------------

#: The deepest perft: a board has at most 64 squares and every move removes a stone, so no
#: sequence is longer than 63 moves.
MAX_PERFT_DEPTH = 64
#: Positions a second perft expands, at the least, before it has measured its own rate
#: (used only to size the first time-limited round).
_PERFT_FIRST_RATE = 2_000_000


@dataclass(frozen=True)
class PerftResult:
    """Move-sequence counts: ``counts[i]`` sequences of length ``i + 1``.

    ``counts`` stops before the first length with no sequence (all longer ones have none
    too). ``exact`` is False when the time limit ran out: then ``counts`` holds the lengths
    whose counts were finished, and longer ones are unknown. ``nodes`` counts the
    positions expanded.
    """

    counts: list[int]
    depth: int
    exact: bool
    nodes: int
    seconds: float

    def to_dict(self) -> dict:
        return {"counts": list(self.counts), "depth": self.depth, "exact": self.exact,
                "nodes": self.nodes, "seconds": round(self.seconds, 6)}


def _perft_kernel(me: int, opp: int, nbr: np.ndarray, depth: int, budget: int
                  ) -> tuple[list[int], int, bool]:
    """(counts of lengths 1..depth, positions expanded, finished) for one kernel run."""
    b = np.array([budget], dtype=np.int64)
    counts = K.perft(np.uint64(me), np.uint64(opp), nbr, depth, b)
    done = int(b[0]) >= 0
    return [int(x) for x in counts], budget - max(int(b[0]), 0), done


def perft_counts(position: Position, first: int | str, depth: int,
                 time_limit: float | None = None) -> PerftResult:
    """The number of move sequences of each length 1..``depth``, players alternating from
    ``first``, stopping at the first length with none; with ``time_limit``, the lengths
    finished within it (``exact`` False when it ran out).

    ``depth`` is at most :data:`MAX_PERFT_DEPTH`. With a time limit the lengths are counted
    by iterative deepening, each round given the positions the remaining time affords at
    the rate measured in the round before.

    >>> perft_counts(Position.from_string("xoxo"), "black", 10).counts  # 3 moves at most
    [3, 2, 1]
    """
    color = _color(first)
    if not 1 <= depth <= MAX_PERFT_DEPTH:
        raise UnsupportedError(f"--depth must be between 1 and {MAX_PERFT_DEPTH} (a move "
                               f"removes a stone from at most 64 squares), not {depth}")
    if time_limit is not None and not 0 < time_limit < float("inf"):
        raise UnsupportedError(f"the time limit must be a positive number of seconds, not "
                               f"{time_limit}")
    if position.board.n > MAX_STONES:
        raise UnsupportedError(f"perft takes boards of at most {MAX_STONES} squares, "
                               f"not {position.board.n}")
    _check_edges(position.board)
    t0 = time.perf_counter()
    nbr = np.array(position.board.adjacency_masks, dtype=np.uint64)
    me, opp = _masks(position.black, position.white, color)
    # no sequence is longer than the stones less one
    reach = max(1, min(depth, position.stone_count() - 1))

    def trimmed(counts: list[int]) -> list[int]:
        return counts[:counts.index(0)] if 0 in counts else counts

    if time_limit is None:
        counts, nodes, _ = _perft_kernel(me, opp, nbr, reach, 1 << 62)
        return PerftResult(trimmed(counts), depth, True, nodes,
                           time.perf_counter() - t0)
    deadline = t0 + time_limit
    best: list[int] = []
    nodes = 0
    rate = float(_PERFT_FIRST_RATE)
    d = 1
    while d <= reach:
        left = deadline - time.perf_counter()
        if left <= 0:
            return PerftResult(best, depth, False, nodes, time.perf_counter() - t0)
        budget = max(1000, int(left * rate))
        t1 = time.perf_counter()
        counts, used, done = _perft_kernel(me, opp, nbr, d, budget)
        nodes += used
        spent = time.perf_counter() - t1
        if used >= 100_000 and spent > 0:
            rate = used / spent
        if not done:
            # the budget ran out: when time is left (the rate was underestimated, or the
            # kernel compiled in the round before), the same length again with a new budget
            rate = max(rate, 2 * used / max(spent, 1e-3))
            continue
        best = trimmed(counts)
        if len(best) < d:  # a length with no sequence: every longer one has none
            break
        d += 1
    return PerftResult(best, depth, True, nodes, time.perf_counter() - t0)


def perft(position: Position, first: int | str, depth: int) -> list[int]:
    """The number of move sequences of length 1..``depth``, players alternating from
    ``first`` (the "perft" of chess programs; a sequence stops when a player cannot move);
    zeros for the lengths no sequence reaches. ``depth`` is at most
    :data:`MAX_PERFT_DEPTH`; :func:`perft_counts` takes a time limit.

    >>> perft(Position.from_string("xo/ox"), "black", 3)
    [4, 4, 4]
    >>> perft(Position.from_string("xo"), "black", 3)
    [1, 0, 0]
    """
    if not isinstance(depth, int):      # perft_counts refuses a depth out of range
        raise ClobbermaniaError(f"--depth must be a whole number, not {depth!r}")
    counts = perft_counts(position, first, depth).counts
    return counts + [0] * (depth - len(counts))


# -- the computer player ---------------------------------------------------------------------

def choose_move(position: Position, to_move: int | str, time_limit: float = 5.0
                ) -> tuple[Move, str]:
    """A move for ``to_move`` and why: a winning move when the position is solved within
    about half of ``time_limit``; when it is lost, the move keeping the most mobility;
    otherwise the best move of an iterative-deepening alpha-beta search whose leaves score
    the mobility difference (moves of the player to move minus the opponent's).

    >>> mv, why = choose_move(Position.from_string("xoxo/oxox"), "black", 2.0)
    >>> why
    'wins (solved)'
    """
    color = _color(to_move)
    moves = position.moves(color)
    if not moves:
        raise ClobbermaniaError(f"{COLOR_NAMES[color]} has no move in {position.text()}")
    t0 = time.perf_counter()
    try:
        r = solve_outcome(position, color, time_limit=time_limit * 0.5, all_moves=False)
    except UnsupportedError:   # parts past the exact search (a 9x9 board): no proof, a move
        r = None
    if r is not None and r.winner == COLOR_NAMES[color] and r.winning_moves:
        return position.parse_move(r.winning_moves[0]), "wins (solved)"
    if position.board.n > MAX_STONES:
        return moves[0], "no search on boards over 64 squares: first legal move"
    nbr = np.array(position.board.adjacency_masks, dtype=np.uint64)
    me, opp = _masks(position.black, position.white, color)
    src = np.array([m.src for m in moves], np.int64)
    dst = np.array([m.dst for m in moves], np.int64)
    best = int(np.argmax([position.play(m).stone_count() for m in moves]))
    best_depth = 0
    depth = 0
    # depth 0 always runs (it costs one move generation per root move)
    while (depth == 0 or time.perf_counter() - t0 < time_limit * 0.9) \
            and depth < position.stone_count():
        stats = np.zeros(2, np.int64)
        left = time_limit - (time.perf_counter() - t0)
        # a node budget that the remaining time can afford (measured rate ~ 2e6 nodes/s)
        limit = max(1000, int(left * 1_000_000))
        scores = K.root_scores(np.uint64(me), np.uint64(opp), nbr, depth, stats, limit,
                               src, dst, len(moves))
        if stats[0] > limit:
            break
        best = int(np.argmax(scores))
        best_depth = depth + 1
        depth += 1
    lost = " (lost with best play)" if r is not None and \
        r.winner == COLOR_NAMES[opponent(color)] else ""
    return moves[best], f"alpha-beta, {best_depth} plies{lost}"
