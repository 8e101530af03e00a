"""Impartial Clobber: Grundy values of any configuration, winning moves, a computer opponent.

Rules (the French study *Un jeu combinatoire : le Clobber*): the player to move takes a
stone of *either* colour onto an adjacent stone of the other colour, removing it; whoever
cannot move loses (normal play). The moves are those of the reference generator,
``Position.moves()`` with no colour (both colours).

Theory used (Sprague-Grundy): the Grundy value of a position is the mex (least excluded
non-negative integer) of its options' values; a position made of separate parts has the
XOR (nim sum) of their values; value 0 means the player to move loses.

How a value is computed:

- The stones split into connected components (only occupied squares can ever be reached,
  so a component is a game of its own) and the values are XORed. A component of one
  colour has no move and value 0.
- A component is *canonically keyed* so that equal games share one cache entry. The game
  of a component depends only on the graph its stones induce and on their colours, so:

  * a component whose stones induce a path (on any board: a row, an L-shaped or snaking
    path in a grid, a path in a graph) is keyed as the row string read along the path,
    the least of the string, its reversal and their colour swaps (swapping colours gives
    the same impartial game);
  * any other grid component is cut to its bounding box and keyed by the least text of
    the 8 rotations / reflections of the box and their colour swaps (translation is gone
    with the box);
  * any other component of a general graph is keyed by the least image under the board's
    known symmetries (``Board.symmetries``) and the colour swap.

- Values are found by a mex search with a memo over those keys. The search is iterative
  (an explicit stack), so rows of thousands of stones do not hit Python's recursion limit.
- On a board of at most 64 squares a part of more than ``exact_stones`` (10) stones is
  valued by an outcome search instead (numba, :func:`._impartial_kernels.outcome`): G + *k
  is a loss for the player to move iff the Grundy value of G is k (Sprague-Grundy; the
  method of Lemoine and Viennot for Sprouts), so the value is the first k whose sum is
  proved lost, and a win needs only one losing option (issue 28: the 4x6 checkerboard in
  about 22 s of CPU; the plain search had not finished after 150 s).
- Grid parts of up to ``parts.max_squares`` stones are looked up in the grid-part
  database (:mod:`clobbermania.clobber.gridparts`; by default the one built by
  ``grundy build-parts``, else every part of up to 8 squares built in memory).
- With a row database (``db``: any object with ``max_stones`` and ``value(row) -> int``,
  such as :class:`clobbermania.clobber.rowdb.RowDatabase`), every component keyed as a row
  of at most ``db.max_stones`` stones is answered by lookup: hole-free row segments and, by
  the same argument, every induced path.

Time limit: when ``time_limit`` seconds pass before the value is known,
:class:`GrundyTimeout` (a :class:`~clobbermania.errors.ClobbermaniaError`) is raised; the
values found so far stay cached in the solver, so a second call resumes. A Grundy value
has no useful bounds to report, so the API never returns a partial answer; the CLI turns
the timeout into ``"exact": false`` with ``"grundy": null``.

>>> from clobbermania.stones import Position
>>> r = grundy_value(Position.from_string("xoxo"))
>>> r.grundy, [m.to_str(r.board) for m in r.winning_moves]
(3, ['c1-b1', 'b1-c1'])
>>> grundy_value(Position.from_string("xo_oxx")).grundy
3
>>> [k for k, g in grundy_value(Position.from_string("xo.oxx/.o..x.")).components]
['oox', 'xoo/.o.']
"""

from __future__ import annotations

import random
import time
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..errors import ClobbermaniaError, IllegalMoveError
from ..limits import deadline_passed, memory_room
from ..stones import BLACK, EMPTY, WHITE, Board, Move, Position

__all__ = [
    "GrundyResult",
    "GrundySolver",
    "GrundyMemoryLimit",
    "GrundyNodeLimit",
    "GrundyTimeout",
    "RowValues",
    "choose_move",
    "grid_part_key",
    "grundy_value",
    "mex",
    "nim_sum",
    "row_key",
    "solver_for",
]

_SWAP = str.maketrans("xo", "ox")
_CELL_CHAR = {EMPTY: ".", BLACK: "x", WHITE: "o"}
# nodes the kernel searches between two looks at the clock (its memo keeps the progress)
_KERNEL_CHUNK = 20_000
# the least chunk under a node cap (doubled after a chunk that finished nothing)
_MIN_CHUNK = 65
#: Components of more stones than this are valued by the outcome search (is G + *k a
#: loss?), smaller ones by the plain mex search; 10 measured best on the 4x6 grid.
EXACT_STONES = 10
# the cache of row parts' keys is emptied beyond this many entries (a bound on memory)
_PART_CACHE = 1_000_000
# how often (in search steps) the clock is read: cheap enough, and about every few ms
_CLOCK_EVERY = 512


class RowValues(Protocol):
    """What a row database offers: the Grundy value of a hole-free row of ``x``/``o``."""

    max_stones: int

    def value(self, row: str) -> int: ...


class GrundyTimeout(ClobbermaniaError):
    """The time limit ran out before the Grundy value was known."""


class GrundyMemoryLimit(GrundyTimeout):
    """The memo reached its size limit (``GrundySolver.memo_limit``) before the value was
    known; handled like a timeout (the CLI reports ``exact: false``)."""


class GrundyNodeLimit(GrundyTimeout):
    """A search stopped at its node limit (``GrundySolver.solve_key(..., node_limit)``)
    before the value was known; handled like a timeout."""


def _check_node_cap(searched: int, cap: int | None) -> None:
    if cap is not None and searched >= cap:
        raise GrundyNodeLimit(f"the node limit ran out after {searched:,} component values "
                              "were computed (they stay cached)")


#: Bytes a memo entry of the numba kernel may take at worst: 18-byte slots in a table
#: 35-70 % full, and the old and new tables side by side while it grows (a numba typed
#: dict took about 105 bytes an entry, measured).
MEMO_ENTRY_BYTES = 80


def _default_memo_limit() -> int:
    """Memo entries allowed: the room left under the memory bound (40 % of the machine's
    memory, :func:`clobbermania.limits.memory_room`), at least a million."""
    return max(1_000_000, memory_room() // MEMO_ENTRY_BYTES)


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least non-negative integer not in ``values``.

    >>> mex([0, 1, 3]), mex([]), mex([2, 2, 5])
    (2, 0, 0)
    """
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def nim_sum(values: Iterable[int]) -> int:
    """The nim sum (XOR) of Grundy values: the value of a sum of impartial games.

    >>> nim_sum([1, 2, 3]), nim_sum([5]), nim_sum([])
    (0, 5, 0)
    """
    out = 0
    for v in values:
        out ^= v
    return out


def row_key(row: str) -> str:
    """The canonical key of a row of stones: least of it, its reversal, and their swaps.

    All four are the same impartial game.

    >>> row_key("oox"), row_key("xxo")
    ('oox', 'oox')
    """
    rev = row[::-1]
    sw = row.translate(_SWAP)
    return min(row, rev, sw, sw[::-1])


# -- component keys ------------------------------------------------------------------------


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _components(adj: tuple[int, ...], occupied: int) -> list[int]:
    """The connected components of the occupied squares, as bitmasks."""
    out = []
    while occupied:
        comp = frontier = occupied & -occupied
        while frontier:
            nb = 0
            for v in _bits(frontier):
                nb |= adj[v]
            frontier = nb & occupied & ~comp
            comp |= frontier
        occupied &= ~comp
        out.append(comp)
    return out


def _path_string(adj: tuple[int, ...], cells: bytes | bytearray, comp: int) -> str | None:
    """The colours read along ``comp`` when its stones induce a path, else None."""
    ends = []
    edges2 = 0
    for v in _bits(comp):
        d = (adj[v] & comp).bit_count()
        if d > 2:
            return None
        edges2 += d
        if d <= 1:
            ends.append(v)
    size = comp.bit_count()
    # a connected graph with size - 1 edges is a tree; with degrees <= 2 it is a path
    if edges2 != 2 * (size - 1):
        return None
    prev, v = -1, ends[0]
    chars = []
    while True:
        chars.append(_CELL_CHAR[cells[v]])
        nxt = adj[v] & comp & ~(1 << prev if prev >= 0 else 0)
        if not nxt:
            break
        prev, v = v, nxt.bit_length() - 1
    return "".join(chars)


_DIHEDRAL = (
    lambda g: g,
    lambda g: [r[::-1] for r in g],
    lambda g: g[::-1],
    lambda g: [r[::-1] for r in g[::-1]],
    lambda g: ["".join(t) for t in zip(*g, strict=True)],
    lambda g: ["".join(t) for t in zip(*g[::-1], strict=True)],
    lambda g: ["".join(t) for t in zip(*g, strict=True)][::-1],
    lambda g: ["".join(t) for t in zip(*g[::-1], strict=True)][::-1],
)


def grid_part_key(board: Board, cells: bytes | bytearray, comp: int) -> str:
    """The canonical key of a grid component (its stones' mask ``comp``): the least text of
    its bounding box under the 8 symmetries of a rectangle and colour swap, the key under
    which the Grundy search and the distributed driver store its value.

    >>> from clobbermania.stones import Position
    >>> p = Position.from_string("ox/x.")
    >>> grid_part_key(p.board, p.cells, 0b0111)   # the three stones, an L
    '.o/ox'
    """
    cols = board.cols
    rs, cs = [], []
    for v in _bits(comp):
        r, c = divmod(v, cols)
        rs.append(r)
        cs.append(c)
    r0, r1, c0, c1 = min(rs), max(rs), min(cs), max(cs)
    rows = []
    for r in range(r0, r1 + 1):
        base = r * cols
        rows.append("".join(_CELL_CHAR[cells[base + c]] if comp >> (base + c) & 1 else "."
                            for c in range(c0, c1 + 1)))
    best = None
    for f in _DIHEDRAL:
        t = "/".join(f(rows))
        for s in (t, t.translate(_SWAP)):
            if best is None or s < best:
                best = s
    return best


@dataclass(frozen=True)
class GrundyResult:
    """The Grundy value of a position and its evidence.

    ``winning_moves`` are all the moves to a position of value 0 (empty when the value is
    0); ``components`` the canonical key and value of each part that has a move;
    ``searched`` how many component values and outcomes (of a part plus a nimber) the
    search computed (cache misses), ``db_lookups`` how many came from the row database.
    ``exact`` is always True (a time limit that runs out raises :class:`GrundyTimeout`).
    """

    grundy: int
    winning_moves: tuple[Move, ...]
    components: tuple[tuple[str, int], ...]
    board: Board
    seconds: float
    searched: int = 0
    db_lookups: int = 0
    exact: bool = True

    def move_strings(self) -> list[str]:
        return [m.to_str(self.board) for m in self.winning_moves]

    def to_dict(self) -> dict[str, Any]:
        return {
            "grundy": self.grundy,
            "winning_moves": self.move_strings(),
            "components": [{"key": k, "grundy": g} for k, g in self.components],
            "exact": self.exact,
            "searched": self.searched,
            "db_lookups": self.db_lookups,
            "seconds": round(self.seconds, 6),
        }



def live_components(board: Board, cells: bytes | bytearray
                    ) -> list[tuple[int, int, int, str | None]]:
    """The components of the stones that have a move (both colours), each as (its mask,
    its black stones, its white stones, its row string when its stones form a path on
    the board, else None): the parts a Grundy value is the nim-sum of.

    >>> from clobbermania.stones import Position
    >>> p = Position.from_string("xo.xx")
    >>> [(bin(m), path) for m, _, _, path in live_components(p.board, p.cells)]
    [('0b11', 'xo')]
    """
    adj = board.adjacency_masks
    black = white = 0
    for v, c in enumerate(cells):
        if c == BLACK:
            black |= 1 << v
        elif c == WHITE:
            white |= 1 << v
    out = []
    for comp in _components(adj, black | white):
        if comp & black and comp & white:
            out.append((comp, black & comp, white & comp, _path_string(adj, cells, comp)))
    return out


class GrundySolver:
    """A memo of component values (by canonical key) and the search that fills it.

    Reuse one solver to share the cache across calls; :func:`grundy_value` keeps one per
    database. ``db``: an optional row database (see :class:`RowValues`). ``memo_limit``:
    the most component values and outcomes the numba kernels may store (default: the
    room left under the memory bound, :func:`clobbermania.limits.memory_room`); at the
    limit the table of outcomes is emptied when it holds a quarter of the entries
    (``evictions`` counts it), else the search stops with :class:`GrundyMemoryLimit`.
    ``parts``: a :class:`~clobbermania.clobber.gridparts.GridPartDatabase`, None for
    none, or ``"default"`` (:func:`~clobbermania.clobber.gridparts.default_parts`, on the
    first grid part). ``exact_stones``: parts of more stones take the outcome search.

    >>> s = GrundySolver()
    >>> s.value(Position.from_string("xoxo")), s.value(Position.from_string("xxo/..o"))
    (3, 0)
    """

    def __init__(self, db: RowValues | None = None, memo_limit: int | None = None,
                 parts: Any = "default", exact_stones: int = EXACT_STONES) -> None:
        self.db = db
        self.parts = parts
        self.exact_stones = exact_stones
        self.evictions = 0
        self.memo_limit = memo_limit if memo_limit is not None else _default_memo_limit()
        self.db_max = int(db.max_stones) if db is not None else 0
        self.values: dict[Any, int] = {}
        # graph components: key -> (board, cells) to expand; boards numbered for the key
        self._graph_reps: dict[Any, tuple[Board, bytes]] = {}
        self._board_ids: dict[int, tuple[Board, int]] = {}
        # boards of at most 64 squares: (board, slot, adj, symmetry tables, cols, memo)
        self._kernel_boards: dict[Any, tuple[Any, ...]] = {}
        # row part (as cut from a row) -> its canonical key, or None when it has no move
        self._part_keys: dict[str, str | None] = {}
        self.searched = 0
        self.db_lookups = 0

    # -- keys -------------------------------------------------------------------------
    def _board_id(self, board: Board) -> int:
        entry = self._board_ids.get(id(board))
        if entry is None or entry[0] is not board:
            entry = (board, len(self._board_ids))
            self._board_ids[id(board)] = entry
        return entry[1]

    def component_keys(self, board: Board, cells: bytes | bytearray) -> list[Any]:
        """The canonical keys of the components that have a move (the others are 0)."""
        keys = []
        for comp, black, white, path in live_components(board, cells):
            if path is not None:
                keys.append(row_key(path))
            elif board.n <= 64:
                keys.append(self._kernel_key(board, black, white))
            elif board.is_grid:
                keys.append(grid_part_key(board, cells, comp))
            else:
                keys.append(self._graph_key(board, cells, comp))
        return keys

    def _kernel_board(self, board: Board) -> tuple[Any, ...]:
        slot = ("grid", board.rows, board.cols) if board.is_grid else ("graph", id(board))
        entry = self._kernel_boards.get(slot)
        if entry is None or (slot[0] == "graph" and entry[0] is not board):
            from . import _impartial_kernels as K

            adj = np.array(board.adjacency_masks, dtype=np.uint64)
            perms = np.array(board.symmetries(), dtype=np.int64).reshape(-1, board.n)
            cols = board.cols if board.is_grid else 0
            rows = board.rows if board.is_grid else 0
            entry = (board, slot, adj, K.perm_tables(perms), cols, K.new_memo(),
                     K.OutcomeTable(), rows)
            self._kernel_boards[slot] = entry
        return entry

    def _kernel_key(self, board: Board, black: int, white: int) -> Any:
        from . import _impartial_kernels as K

        _board, slot, _adj, tabs, cols = self._kernel_board(board)[:5]
        kb, kw = K.canonical(np.uint64(black), np.uint64(white), tabs, cols)
        return ("k", slot, int(kb), int(kw))

    def _parts_arrays(self, rows: int, cols: int) -> tuple[np.ndarray, ...]:
        """The grid-part database's arrays for the kernels (empty ones without a database,
        or on a board whose parts the packed key cannot hold)."""
        from . import _impartial_kernels as K

        if isinstance(self.parts, str):  # "default": resolved on the first grid part
            from .gridparts import default_parts

            self.parts = default_parts()
        if self.parts is None or cols == 0 or rows * cols > 64:
            return K.no_parts()
        return self.parts.arrays()

    def _kernel_value(self, key: Any, deadline: float | None, cap: int | None = None) -> int:
        from . import _impartial_kernels as K

        _board, _slot, adj, tabs, cols, memo, table, rows = self._kernel_boards[key[1]]
        b, w = np.uint64(key[2]), np.uint64(key[3])
        parts = self._parts_arrays(rows, cols)
        # large components: the outcome search (is the component + *k a loss?), whose
        # cut-offs skip most options; small ones: the plain mex search
        by_outcomes = (key[2] | key[3]).bit_count() > self.exact_stones
        budget = np.zeros(1, dtype=np.int64)
        floor = _MIN_CHUNK
        while True:
            before = len(memo) + len(table)
            if memo.full:  # (below the limit: checked after the chunk that filled it)
                K.grow_memo(memo)
            if table.full:
                K.grow_table(table)
            # under a node cap a chunk stops at the cap; one that finished nothing (a path
            # deeper than its budget) is followed by one twice as long, so the search
            # always advances
            budget[0] = _KERNEL_CHUNK if cap is None else \
                max(floor, min(_KERNEL_CHUNK, cap - self.searched))
            if by_outcomes:
                g = K.value_by_outcomes(b, w, adj, tabs, cols, *memo.arrays(),
                                        *table.arrays(), budget, self.exact_stones, *parts,
                                        rows)
            else:
                g = K.component_value(b, w, adj, tabs, cols, *memo.arrays(), budget, *parts,
                                      rows)
            self.searched += len(memo) + len(table) - before
            if g >= 0:
                return int(g)
            if len(memo) + len(table) == before:
                floor *= 2
            _check_node_cap(self.searched, cap)
            if len(memo) + len(table) + len(self.values) >= self.memo_limit:
                if len(table) >= self.memo_limit // 4:
                    # the outcome table holds only shortcuts (the values proved on the way
                    # are in the value memo): forget it and go on
                    K.clear_table(table)
                    self.evictions += 1
                else:
                    raise GrundyMemoryLimit(
                        f"the search stopped at its memory limit of {self.memo_limit:,} "
                        "stored component values (about "
                        f"{self.memo_limit * MEMO_ENTRY_BYTES / 2**30:.1f} GiB)")
            if deadline_passed(deadline):
                raise GrundyTimeout(f"the time limit ran out after {self.searched:,} component "
                                    "values were computed (they stay cached)")

    def _graph_key(self, board: Board, cells: bytes | bytearray, comp: int) -> Any:
        local = bytes(cells[v] if comp >> v & 1 else EMPTY for v in range(board.n))
        swapped = local.translate(bytes([EMPTY, WHITE, BLACK]) + bytes(253))
        best = None
        for perm in board.symmetries():
            for src in (local, swapped):
                img = bytearray(board.n)
                for v in _bits(comp):
                    img[perm[v]] = src[v]
                b = bytes(img)
                if best is None or b < best:
                    best = b
        key = (self._board_id(board), best)
        if key not in self._graph_reps:
            self._graph_reps[key] = (board, best)
        return key

    # -- options of a component -------------------------------------------------------
    def _options(self, key: Any, deadline: float | None = None) -> list[list[Any]]:
        """For each move of the component: the keys of the parts of the result (a grid or
        graph component checks ``deadline`` at every move: each costs a flood fill)."""
        if isinstance(key, str):
            if "/" not in key:
                return self._row_options(key, deadline if len(key) > 256 else None)
            pos = Position.from_string(key)
        else:
            board, cells = self._graph_reps[key]
            pos = Position(board, cells)
        out = []
        for mv in pos.moves():
            if deadline_passed(deadline):
                raise GrundyTimeout(f"the time limit ran out after {self.searched:,} component "
                                    "values were computed (they stay cached)")
            cells = bytearray(pos.cells)
            cells[mv.dst] = cells[mv.src]
            cells[mv.src] = EMPTY
            out.append(self.component_keys(pos.board, cells))
        return out

    def _row_options(self, row: str, deadline: float | None = None) -> list[list[Any]]:
        # the move src -> dst empties src: the row splits there into two shorter rows, the
        # one on dst's side starting (or ending) with the mover's colour (a long row checks
        # ``deadline`` at every move: each copies the row)
        out = []
        part_keys = self._part_keys
        if len(part_keys) > _PART_CACHE:
            part_keys.clear()
        for src, dst in Position.from_string(row).moves():
            if deadline_passed(deadline):
                raise GrundyTimeout(f"the time limit ran out after {self.searched:,} component "
                                    "values were computed (they stay cached)")
            if dst > src:
                left, right = row[:src], row[src] + row[dst + 1:]
            else:
                left, right = row[:dst] + row[src], row[src + 1:]
            parts = []
            for part in (left, right):
                # the same parts recur across rows (measured: 2,360 distinct among 523,640
                # on (xo)^150), so their keys are cached; None marks a part with no move
                key = part_keys.get(part, 0)
                if key == 0:
                    key = row_key(part) if "x" in part and "o" in part else None
                    part_keys[part] = key
                if key is not None:
                    parts.append(key)
            out.append(parts)
        return out

    # -- search -------------------------------------------------------------------------
    def _lookup(self, key: Any) -> int | None:
        if (self.db is not None and isinstance(key, str) and len(key) <= self.db_max
                and "/" not in key):
            self.db_lookups += 1
            return int(self.db.value(key))
        return None

    def key_text(self, key: Any) -> str:
        """A component key as people read it: a row or grid text, or vertex colours on a
        graph board (:meth:`component_keys` gives the keys)."""
        if isinstance(key, str):
            return key
        if key[0] == "k":
            board = self._kernel_boards[key[1]][0]
            text = Position.from_masks(board, key[2], key[3]).text()
            if board.is_grid:  # crop to the stones' bounding box
                rows = [r for r in text.split("/") if r.strip(".")]
                keep = [c for c in range(board.cols) if any(r[c] != "." for r in rows)]
                text = "/".join("".join(r[c] for c in range(keep[0], keep[-1] + 1))
                                for r in rows)
            return text
        return "".join(_CELL_CHAR[c] for c in key[1])

    def solve_key(self, root: Any, deadline: float | None = None,
                  node_limit: int | None = None) -> int:
        """The value of the component with canonical key ``root`` (iterative mex search).

        ``node_limit``: raise :class:`GrundyNodeLimit` once this call has computed that
        many component values (what it found stays cached, so a second call resumes).
        """
        values = self.values
        if root in values:
            return values[root]
        cap = None if node_limit is None else self.searched + node_limit
        stack = [root]
        pending: dict[Any, list[list[Any]]] = {}
        steps = 0
        while stack:
            key = stack[-1]
            if key in values:
                stack.pop()
                continue
            steps += 1
            if steps % _CLOCK_EVERY == 0 and deadline_passed(deadline):
                raise GrundyTimeout(f"the time limit ran out after {self.searched:,} component "
                                    "values were computed (they stay cached)")
            _check_node_cap(self.searched, cap)
            opts = pending.get(key)
            if opts is None:
                if isinstance(key, tuple) and key[0] == "k":
                    values[key] = self._kernel_value(key, deadline, cap)
                    stack.pop()
                    continue
                found = self._lookup(key)
                if found is not None:
                    values[key] = found
                    stack.pop()
                    continue
                opts = self._options(key, deadline)
                missing = [c for o in opts for c in o if c not in values]
                if missing:
                    pending[key] = opts
                    stack.extend(dict.fromkeys(missing))
                    continue
            else:
                del pending[key]
            # children have fewer stones, so every one pushed above is solved by now
            reachable = set()
            for o in opts:
                g = 0
                for c in o:
                    g ^= values[c]
                reachable.add(g)
            values[key] = mex(reachable)
            self.searched += 1
            stack.pop()
        return values[root]

    def value_of_cells(self, board: Board, cells: bytes | bytearray,
                       deadline: float | None = None) -> int:
        return nim_sum(self.solve_key(k, deadline) for k in self.component_keys(board, cells))

    def value(self, position: Position, deadline: float | None = None) -> int:
        """The Grundy value of ``position``."""
        return self.value_of_cells(position.board, position.cells, deadline)

    def option_values(self, position: Position, deadline: float | None = None
                      ) -> list[tuple[Move, int]]:
        """Every move of ``position`` (reference order) with the value it moves to."""
        out = []
        for mv in position.moves():
            cells = bytearray(position.cells)
            cells[mv.dst] = cells[mv.src]
            cells[mv.src] = EMPTY
            out.append((mv, self.value_of_cells(position.board, cells, deadline)))
        return out


_DEFAULT_SOLVER = GrundySolver()
_DB_SOLVERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def solver_for(db: RowValues | None = None) -> GrundySolver:
    """The shared solver (and cache) for ``db`` (None: no database)."""
    if db is None:
        return _DEFAULT_SOLVER
    try:
        solver = _DB_SOLVERS.get(db)
        if solver is None:
            solver = _DB_SOLVERS[db] = GrundySolver(db)
        return solver
    except TypeError:  # an object that cannot be weakly referenced: no sharing
        return GrundySolver(db)


def grundy_value(position: Position, db: RowValues | None = None,
                 time_limit: float | None = None, solver: GrundySolver | None = None
                 ) -> GrundyResult:
    """The Grundy value of ``position`` under impartial Clobber, and every winning move.

    Components are solved separately and XORed (see the module docstring for the keys,
    the search and the database hook). Raises :class:`GrundyTimeout` when
    ``time_limit`` seconds run out.

    >>> from clobbermania.graphs import cycle
    >>> grundy_value(Position.from_string("xxoxxo")).grundy
    0
    >>> grundy_value(Position.from_string("xxoxo", cycle(5))).grundy
    4
    """
    t0 = time.perf_counter()
    if time_limit is not None and not time_limit > 0:
        raise ClobbermaniaError(f"the time limit must be a positive number of seconds, "
                                f"not {time_limit}")
    deadline = None if time_limit is None else t0 + time_limit
    solver = solver or solver_for(db)
    searched0, lookups0 = solver.searched, solver.db_lookups
    keys = solver.component_keys(position.board, position.cells)
    parts = tuple((solver.key_text(k), solver.solve_key(k, deadline)) for k in keys)
    total = nim_sum(g for _, g in parts)
    winning: tuple[Move, ...] = ()
    if total:
        winning = tuple(mv for mv, g in solver.option_values(position, deadline) if g == 0)
    return GrundyResult(
        grundy=total,
        winning_moves=winning,
        components=parts,
        board=position.board,
        seconds=time.perf_counter() - t0,
        searched=solver.searched - searched0,
        db_lookups=solver.db_lookups - lookups0,
    )




def choose_move(position: Position, db: RowValues | None = None,
                rng: random.Random | int | None = None,
                time_limit: float | None = None) -> tuple[Move, str]:
    """The computer opponent's move and the reason for it.

    A winning move (to a position of Grundy value 0) whenever one exists; otherwise the
    French study's heuristic: the move to the position that leaves the opponent the fewest
    winning replies. Ties go to the first move in reference order, or to a random one
    when ``rng`` (a ``random.Random`` or a seed) is given. Raises IllegalMoveError when
    there is no move. When ``time_limit`` seconds run out the best move found so far is
    played (the reason says so); with no values at all, the first (or a random) legal move.

    >>> mv, why = choose_move(Position.from_string("xoxo"))
    >>> mv.to_str(Position.from_string("xoxo").board), why.split(":")[0]
    ('c1-b1', 'winning')
    >>> choose_move(Position.from_string("xoxoxo"))[1].split(":")[0]
    'heuristic'
    """
    if isinstance(rng, int):
        rng = random.Random(rng)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    solver = solver_for(db)
    moves = position.moves()
    if not moves:
        raise IllegalMoveError("there is no move: the player to move has lost")
    try:
        options = solver.option_values(position, deadline)
    except GrundyTimeout:
        # bounded, never hung: without the values, any legal move will do
        mv = rng.choice(moves) if rng is not None else moves[0]
        return mv, (f"out of time: {mv.to_str(position.board)} was played without analysis "
                    f"(the values were not known within {time_limit} s)")
    winning = [mv for mv, g in options if g == 0]
    if winning:
        mv = rng.choice(winning) if rng is not None else winning[0]
        return mv, (f"winning: {mv.to_str(position.board)} moves to a position of Grundy "
                    f"value 0 ({len(winning)} winning move{'s' * (len(winning) != 1)})")
    best: list[Move] = []
    fewest = None
    examined = 0
    for mv, _g in options:
        child = position.play(mv)
        try:
            replies = sum(1 for _m, g in solver.option_values(child, deadline) if g == 0)
        except GrundyTimeout:
            break
        examined += 1
        if fewest is None or replies < fewest:
            fewest, best = replies, [mv]
        elif replies == fewest:
            best.append(mv)
    if not best:
        mv = rng.choice(moves) if rng is not None else moves[0]
        return mv, (f"out of time: every move loses against perfect play, and "
                    f"{mv.to_str(position.board)} was played without counting the replies")
    mv = rng.choice(best) if rng is not None else best[0]
    partial = "" if examined == len(options) else \
        f" among the {examined} of {len(options)} moves examined in time"
    return mv, (f"heuristic: the position has Grundy value 0, so every move loses "
                f"against perfect play; {mv.to_str(position.board)} leaves {fewest} winning "
                f"repl{'y' if fewest == 1 else 'ies'}, the fewest{partial}")
