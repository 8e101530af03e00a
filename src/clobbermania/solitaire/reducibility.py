"""Reducibility notions of Dorbec, Duchene and Gravier for SC2, checked exhaustively.

*Solitaire clobber played on Hamming graphs* (Dorbec, Duchene, Gravier) studies SC2:
Solitaire Clobber without colour alternation, on a graph, starting from a
*configuration* that puts a stone on every vertex. The paper's text is not available
to us; these are our readings of its notions (the wording of strong 1-reducibility is
confirmed by Para, Dantas and Gravier 2014):

* a position is **k-reducible** when some SC2 play leaves at most k stones, and
  **(1, v, c)-reducible** when some play ends with exactly one stone, of colour c, on
  vertex v;
* a graph is **1-reducible** (``"1-reducible"``) when every configuration with both
  colours present is 1-reducible;
* a graph is **strongly 1-reducible** (``"strong1"``) when for every vertex v and colour
  c, every configuration that is not monochromatic on G - v is (1, v, c)-reducible;
* **strongly 2-reducible** (``"strong2"``): for every v, c, every configuration not
  monochromatic on G - v can be reduced to at most two stones, one of which is a stone
  of colour c on v;
* **strongly 1-reducible with a joker** (``"strong1-joker"``): as strong1, but the player
  may once, at any moment, flip the colour of one stone (in the Hamming induction this
  is a stone of another copy clobbering into the copy).

Why hypercubes need the joker (the delta argument behind the paper's Prop 6): on a
bipartite graph with parts X, Y call a stone *even* when it is black on X or white on
Y, *odd* otherwise (:func:`parity_difference`, X is the part of vertex 0 in each
component). A move takes two adjacent stones of different colours, so both even or
both odd, to one stone of the other parity: ``#even - #odd`` changes by 3. One stone
left needs the difference to be +-1 (mod 3), so configurations with difference 0 (mod
3) are not 1-reducible (:func:`prop6_configuration` builds them on every Q_d, d >= 2),
and a joker flip, changing the difference by 2, repairs it. The same invariant fixes
the parity of the last stone, so of (v, black) and (v, white) at most one is ever a
single-stone ending: no bipartite graph with at least 3 vertices (hypercubes included)
is strongly 1-reducible. The tests check all of this by brute force, and on Q2, Q3, Q4
the tables show the invariant is the only obstruction: a configuration with both
colours reduces to one stone exactly when its difference is not 0 mod 3.

Method: a dynamic programme over *every* SC2 state of the board (each vertex empty,
black or white: 3^n states), processed by increasing stone count, so that a state's
children (one stone fewer) are done before it. States are stored grouped by occupied
set, so the children of one occupied set lie in a few small blocks and the lookups
stay in cache. For each state the tables hold the fewest stones reachable, the bitmask
of single-stone endings (v, c) reachable (bit 2v + c - 1), and on request the same for
"at most two stones, one being c on v" and for plays with the joker still unused. The
kernels are numba, parallel over the occupied sets of a level; they are held equal to
the reference rules (:mod:`.rules`) by the tests, on every state of small graphs, and
every witness read back from the tables is replayed by :func:`.rules.replay`. Only half
the colour patterns are searched: swapping every colour swaps the answers. Q_4 (3^16 =
43M states) costs about 2.5 s of CPU time (4.7 s with the joker tables, 0.4 GB);
boards beyond :data:`MAX_VERTICES` vertices are refused.

>>> from clobbermania.graphs import complete, hamming
>>> check_property(complete(4), "strong1").holds
True
>>> r = check_property(hamming(2, 3), "strong1")
>>> r.holds, r.counterexample.to_dict()
(False, {'colouring': 'ooxxxx', 'vertex': 2, 'color': 'white'})
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from ..errors import BoardError, IllegalMoveError, NotationError, UnsupportedError
from ..stones import BLACK, COLOR_NAMES, EMPTY, WHITE, Board, Move, Position, opponent
from .rules import replay

#: Largest board the exhaustive tables accept: 3^16 = 43M states, about 0.6 GB with all
#: tables; at 17 vertices the (vertex, colour) masks need 64 bits and the tables 2-4 GB.
MAX_VERTICES = 16

#: The graph properties :func:`check_property` decides, in CLI spelling.
PROPERTIES = ("strong1", "strong1-joker", "strong2", "1-reducible")

#: A few words for each property, for printing.
PROPERTY_DESCRIPTIONS = {
    "1-reducible": "every configuration with both colours reduces to one stone",
    "strong1": "strongly 1-reducible",
    "strong1-joker": "strongly 1-reducible with a joker",
    "strong2": "strongly 2-reducible",
}


# ---------------------------------------------------------------------------------------
# numba kernels: the only move generator here; tested against the reference rules
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _setup(occ, k, eu, ew, offset):  # pragma: no cover
    """For the occupied set ``occ`` (k vertices): (start, m, pos, la, lb, cbase) with
    ``start`` the index of its first state, ``pos`` its vertices in increasing order,
    ``la/lb`` its m inside edges as ranks a < b into ``pos`` (the first m entries),
    ``cbase[j]`` the first index of the block of ``occ`` without ``pos[j]``."""
    pos = np.empty(k, np.int64)
    la = np.empty(eu.shape[0], np.int64)
    lb = np.empty(eu.shape[0], np.int64)
    cbase = np.empty(k, np.int64)
    j = 0
    v = 0
    rest = occ
    while rest:
        if rest & 1:
            pos[j] = v
            j += 1
        rest >>= 1
        v += 1
    m = 0
    for e in range(eu.shape[0]):
        if (occ >> eu[e] & 1) and (occ >> ew[e] & 1):
            a = 0
            b = 0
            for t in range(k):
                if pos[t] == eu[e]:
                    a = t
                if pos[t] == ew[e]:
                    b = t
            la[m] = min(a, b)
            lb[m] = max(a, b)
            m += 1
    for t in range(k):
        cbase[t] = offset[occ ^ (np.int64(1) << pos[t])]
    return offset[occ], m, pos, la, lb, cbase


@njit(cache=True, inline="always")
def _capture(p, a, b, ca):  # pragma: no cover
    """Colour pattern after the stone of rank ``a`` (colour bit ``ca``) clobbers rank
    ``b``: bit a is removed (ranks above it drop by one) and b's bit becomes ``ca``."""
    q = ((p >> (a + 1)) << a) | (p & ((np.int64(1) << a) - 1))
    nb = b - 1 if b > a else b
    return (q & ~(np.int64(1) << nb)) | (ca << nb)


@njit(cache=True, inline="always")
def _swap_colours(x):  # pragma: no cover
    """The (v, colour) bitmask with black and white exchanged (bits 2v and 2v + 1)."""
    m = np.uint32(0x55555555)
    return ((x & m) << np.uint32(1)) | ((x >> np.uint32(1)) & m)


@njit(cache=True, parallel=True)
def _level_kernel(masks, k, eu, ew, offset, minst, end1, need2, end2):  # pragma: no cover
    """Fill the tables for every state whose occupied set is one of ``masks`` (all of
    popcount k). Children have k - 1 stones, so lower levels must be done. The children
    of one occupied set lie in k blocks of 2^(k-1) states, which keeps lookups in cache.
    Only the patterns whose last stone is black are searched: swapping the colours of
    every stone swaps the (v, black) and (v, white) bits of every answer, so the other
    half is written from them."""
    one = np.uint32(1)
    zero = np.uint32(0)
    flip_all = (np.int64(1) << k) - 1
    for i in prange(masks.shape[0]):
        start, m, pos, la, lb, cbase = _setup(masks[i], k, eu, ew, offset)
        for p in range(np.int64(1) << (k - 1)):
            idx = start + p
            best = k
            e1 = zero
            e2 = zero
            if k == 1:
                e1 = one << (2 * pos[0] + (p & 1))
            if need2 and k <= 2:
                for j in range(k):
                    e2 |= one << (2 * pos[j] + (p >> j & 1))
            for e in range(m):
                a = la[e]
                b = lb[e]
                ca = p >> a & 1
                cb = p >> b & 1
                if ca == cb:
                    continue
                c1 = cbase[a] + _capture(p, a, b, ca)  # a clobbers b
                c2 = cbase[b] + _capture(p, b, a, cb)  # b clobbers a
                best = min(best, minst[c1], minst[c2])
                e1 |= end1[c1] | end1[c2]
                if need2:
                    e2 |= end2[c1] | end2[c2]
            mirror = start + (p ^ flip_all)
            minst[idx] = best
            minst[mirror] = best
            end1[idx] = e1
            end1[mirror] = _swap_colours(e1)
            if need2:
                end2[idx] = e2
                end2[mirror] = _swap_colours(e2)


@njit(cache=True, parallel=True)
def _joker_kernel(masks, k, eu, ew, offset, end1, endj):  # pragma: no cover
    """Single-stone endings with the joker still available, for the states of ``masks``
    (popcount k); needs ``end1`` of this level and ``endj`` of the level below."""
    flip_all = (np.int64(1) << k) - 1
    for i in prange(masks.shape[0]):
        start, m, _, la, lb, cbase = _setup(masks[i], k, eu, ew, offset)
        for p in range(np.int64(1) << (k - 1)):
            ej = end1[start + p]
            for j in range(k):
                ej |= end1[start + (p ^ (np.int64(1) << j))]  # the joker, used now
            for e in range(m):
                a = la[e]
                b = lb[e]
                ca = p >> a & 1
                cb = p >> b & 1
                if ca != cb:
                    ej |= endj[cbase[a] + _capture(p, a, b, ca)]
                    ej |= endj[cbase[b] + _capture(p, b, a, cb)]
            endj[start + p] = ej
            endj[start + (p ^ flip_all)] = _swap_colours(ej)


@njit(cache=True)
def _check_kernel(n, start, minst, table, mode):  # pragma: no cover
    """Scan the full configurations: state ``start + c`` for the colour mask c (bit v set
    = white on v).

    mode 0: every configuration with both colours has minimum <= 1. mode 1: for every
    v and colour, configurations not monochromatic on G - v have bit (v, colour) in
    ``table``. Returns (holds, colour mask, vertex, colour - 1, cases)."""
    full = (np.int64(1) << n) - 1
    cases = np.int64(0)
    for c in range(full + 1):
        if mode == 0:
            if c == 0 or c == full:
                continue
            cases += 1
            if minst[start + c] > 1:
                return False, c, -1, -1, cases
            continue
        mask = table[start + c]
        for v in range(n):
            rest = full & ~(np.int64(1) << v)
            if (c & rest) == 0 or (c & rest) == rest:
                continue  # monochromatic on G - v: not quantified
            for col in range(2):
                cases += 1
                if not (mask >> (2 * v + col) & 1):
                    return False, c, v, col, cases
    return True, -1, -1, -1, cases


# ---------------------------------------------------------------------------------------
# the tables
# ---------------------------------------------------------------------------------------

def _check_board(board: Board) -> None:
    if board.n > MAX_VERTICES:
        raise UnsupportedError(
            f"the reducibility tables cover every SC2 state (3^n of them) and accept boards "
            f"of at most {MAX_VERTICES} vertices; this board has {board.n}")


class ReducibilityTable:
    """Exhaustive SC2 tables of one board (at most :data:`MAX_VERTICES` vertices).

    ``min_stones[i]``: fewest stones reachable from state i; ``end1[i]``: bitmask of the
    single-stone endings (bit 2v + c - 1 for colour c on v); ``end2[i]`` (with
    ``strong2=True``): the (v, c) such that some reachable state of at most two stones
    has c on v; ``endj[i]`` (with ``joker=True``): ``end1`` with one colour flip allowed.
    States are grouped by occupied set: the state with occupied set O (a bitmask) and
    colour pattern p (bit j set when the j-th vertex of O is white) is
    ``offset[O] + p``, where ``offset[O]`` sums 2^|O'| over the sets O' < O; so there
    are 3^n states.

    >>> from clobbermania.graphs import path
    >>> t = ReducibilityTable(path(3))
    >>> sorted(t.singletons(Position.from_string("xoo", path(3))))
    [(1, 2), (2, 1)]
    >>> t.minimum(Position.from_string("xox", path(3)))
    2
    """

    def __init__(self, board: Board, *, strong2: bool = False, joker: bool = False):
        _check_board(board)
        t0 = time.perf_counter()
        self.board = board
        n = board.n
        sizes = np.array([1 << bin(o).count("1") for o in range(1 << n)], dtype=np.int64)
        self.offset = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        size = 3 ** n
        dtype = np.uint32  # 2n <= 32 bits: one (vertex, colour) bit each
        edges = list(board.edges())
        eu = np.array([e[0] for e in edges], dtype=np.int64)
        ew = np.array([e[1] for e in edges], dtype=np.int64)
        self.min_stones = np.zeros(size, dtype=np.uint8)
        self.end1 = np.zeros(size, dtype=dtype)
        self.end2 = np.zeros(size if strong2 else 1, dtype=dtype)
        self.endj = np.zeros(size if joker else 1, dtype=dtype)
        masks = np.arange(1 << n, dtype=np.int64)
        counts = np.zeros(1 << n, dtype=np.int64)
        for v in range(n):
            counts += (masks >> v) & 1
        for k in range(1, n + 1):
            level = masks[counts == k]
            _level_kernel(level, k, eu, ew, self.offset, self.min_stones, self.end1, strong2,
                          self.end2)
            if joker:
                _joker_kernel(level, k, eu, ew, self.offset, self.end1, self.endj)
        self.strong2 = strong2
        self.joker = joker
        self.seconds = time.perf_counter() - t0

    # -- lookups ------------------------------------------------------------------------
    def index(self, position: Position) -> int:
        if position.board != self.board:
            raise BoardError("the position is on another board than this table's")
        occ = pattern = j = 0
        for v, c in enumerate(position.cells):
            if c != EMPTY:
                occ |= 1 << v
                pattern |= (c == WHITE) << j
                j += 1
        return int(self.offset[occ]) + pattern

    def minimum(self, position: Position) -> int:
        return int(self.min_stones[self.index(position)])

    def singletons(self, position: Position) -> frozenset[tuple[int, int]]:
        return _unpack(int(self.end1[self.index(position)]), self.board.n)

    def pairs(self, position: Position) -> frozenset[tuple[int, int]]:
        if not self.strong2:
            raise UnsupportedError("this table was built without strong2=True")
        return _unpack(int(self.end2[self.index(position)]), self.board.n)

    def joker_singletons(self, position: Position) -> frozenset[tuple[int, int]]:
        if not self.joker:
            raise UnsupportedError("this table was built without joker=True")
        return _unpack(int(self.endj[self.index(position)]), self.board.n)

    # -- witnesses, read back with the reference move generator ----------------------------
    def _descend(self, position: Position, keep, done) -> list[Move]:
        """Moves from ``position`` choosing, each time, a reference-rule child on which
        ``keep`` still holds, until ``done``."""
        moves: list[Move] = []
        while not done(position):
            for m in position.moves():
                child = position.play(m)
                if keep(child):
                    moves.append(m)
                    position = child
                    break
            else:  # the tables promised a child: this would be a kernel bug
                raise AssertionError(f"reducibility table inconsistent at {position.text()}")
        return moves

    def witness_min(self, position: Position) -> list[Move]:
        """A play reaching the fewest stones."""
        target = self.minimum(position)
        return self._descend(position, lambda p: self.minimum(p) == target,
                             lambda p: p.stone_count() == target)

    def witness_singleton(self, position: Position, v: int, color: int) -> list[Move] | None:
        """A play ending with exactly one stone, ``color`` on ``v``; None if there is none."""
        bit = 1 << (2 * v + color - 1)
        if not int(self.end1[self.index(position)]) & bit:
            return None
        return self._descend(position, lambda p: bool(int(self.end1[self.index(p)]) & bit),
                             lambda p: p.stone_count() == 1)

    def witness_pair(self, position: Position, v: int, color: int) -> list[Move] | None:
        """A play to at most two stones, one of them ``color`` on ``v``; None if none."""
        if not self.strong2:
            raise UnsupportedError("this table was built without strong2=True")
        bit = 1 << (2 * v + color - 1)
        if not int(self.end2[self.index(position)]) & bit:
            return None
        return self._descend(position, lambda p: bool(int(self.end2[self.index(p)]) & bit),
                             lambda p: p.stone_count() <= 2 and p.cells[v] == color)

    def witness_joker(self, position: Position, v: int, color: int) -> JokerWitness | None:
        """A play to one stone ``color`` on ``v`` using at most one colour flip."""
        if not self.joker:
            raise UnsupportedError("this table was built without joker=True")
        bit = 1 << (2 * v + color - 1)
        if not int(self.endj[self.index(position)]) & bit:
            return None
        before: list[Move] = []
        p = position
        while not int(self.end1[self.index(p)]) & bit:
            # flip now if that suffices, otherwise make a move that keeps the joker option
            for u in p.stones():
                flipped = _flip(p, u)
                if int(self.end1[self.index(flipped)]) & bit:
                    after = self.witness_singleton(flipped, v, color)
                    return JokerWitness(tuple(before), u, tuple(after))
            for m in p.moves():
                child = p.play(m)
                if int(self.endj[self.index(child)]) & bit:
                    before.append(m)
                    p = child
                    break
            else:
                raise AssertionError(f"joker table inconsistent at {p.text()}")
        return JokerWitness(tuple(before), None, tuple(self.witness_singleton(p, v, color)))


def _flip(position: Position, v: int) -> Position:
    cells = bytearray(position.cells)
    cells[v] = opponent(cells[v])
    return Position(position.board, bytes(cells))


def _unpack(mask: int, n: int) -> frozenset[tuple[int, int]]:
    return frozenset((b // 2, b % 2 + 1) for b in range(2 * n) if mask >> b & 1)


@dataclass(frozen=True)
class JokerWitness:
    """A play using the joker: ``before``, then flip the stone on ``flipped`` (None: the
    joker is not needed), then ``after``. :meth:`replay` checks it with the reference
    rules."""

    before: tuple[Move, ...]
    flipped: int | None
    after: tuple[Move, ...]

    def replay(self, position: Position) -> Position:
        """The final position, each part checked by the reference rules; raises
        :class:`~clobbermania.errors.IllegalMoveError` if a part is not a legal SC2 play or
        the joker would flip an empty vertex.

        >>> from clobbermania.graphs import path
        >>> p = Position.from_string("xxo", path(3))
        >>> JokerWitness((), 1, (Move(0, 1), Move(1, 2))).replay(p).text()
        '..x'
        >>> try:
        ...     JokerWitness((Move(1, 2),), 1, ()).replay(p)
        ... except IllegalMoveError as e:
        ...     print(e)
        the joker witness flips vertex 1, which is empty after its first 1 moves
        """
        r = replay(position, self.before, free=True)
        if not r.valid:
            raise IllegalMoveError(f"the joker witness's moves before the flip are not a "
                                   f"legal SC2 play: {r.error}")
        p = r.final
        if self.flipped is not None:
            if not 0 <= self.flipped < p.board.n:
                raise IllegalMoveError(f"the joker witness flips vertex {self.flipped}, which "
                                       f"is not on this {p.board.n}-vertex board")
            if p.cells[self.flipped] == EMPTY:
                raise IllegalMoveError(f"the joker witness flips vertex {self.flipped}, which "
                                       f"is empty after its first {len(self.before)} moves")
            p = _flip(p, self.flipped)
        r = replay(p, self.after, free=True)
        if not r.valid:
            raise IllegalMoveError(f"the joker witness's moves after the flip are not a "
                                   f"legal SC2 play: {r.error}")
        return r.final


_CACHE: dict[Board, ReducibilityTable] = {}


def reducibility_table(board: Board, *, strong2: bool = False,
                       joker: bool = False) -> ReducibilityTable:
    """The tables of ``board``, cached (the last board only, to bound memory).

    >>> from clobbermania.graphs import complete
    >>> reducibility_table(complete(3)).board.n
    3
    """
    _check_board(board)
    t = _CACHE.get(board)
    if t is None or (strong2 and not t.strong2) or (joker and not t.joker):
        if t is not None:
            strong2, joker = strong2 or t.strong2, joker or t.joker
        _CACHE.clear()
        t = ReducibilityTable(board, strong2=strong2, joker=joker)
        _CACHE[board] = t
    return t


def clear_tables() -> None:
    """Drop the cached tables (Q_4's take about 0.6 GB)."""
    _CACHE.clear()


# ---------------------------------------------------------------------------------------
# single positions
# ---------------------------------------------------------------------------------------

def _check_vertex_color(position: Position, v: int, color: int) -> None:
    if not 0 <= v < position.board.n:
        raise NotationError(f"vertex {v} is not on this {position.board.n}-vertex board")
    if color not in (BLACK, WHITE):
        raise NotationError(f"colour must be BLACK (1) or WHITE (2), not {color!r}")


def reachable_singletons(position: Position) -> frozenset[tuple[int, int]]:
    """Every (vertex, colour) on which some SC2 play from ``position`` ends with exactly
    one stone. Boards of at most :data:`MAX_VERTICES` vertices.

    >>> from clobbermania.graphs import path
    >>> sorted(reachable_singletons(Position.from_string("xoo", path(3))))
    [(1, 2), (2, 1)]
    """
    return reducibility_table(position.board).singletons(position)


def sc2_minimum(position: Position) -> int:
    """The fewest stones SC2 play from ``position`` can leave (the empty board: 0).

    >>> from clobbermania.graphs import hypercube
    >>> sc2_minimum(prop6_configuration(2))
    2
    """
    return reducibility_table(position.board).minimum(position)


def is_k_reducible(position: Position, k: int) -> bool:
    """True when some SC2 play from ``position`` leaves at most ``k`` stones.

    >>> from clobbermania.graphs import cycle
    >>> is_k_reducible(Position.from_string("xxoo", cycle(4)), 1)  # Prop 6: delta 0 mod 3
    False
    >>> is_k_reducible(Position.from_string("xooo", cycle(4)), 1)
    True
    """
    return sc2_minimum(position) <= k


def is_1vc_reducible(position: Position, v: int, color: int) -> bool:
    """True when some SC2 play from ``position`` ends with one stone, ``color`` on ``v``.

    >>> from clobbermania.graphs import path
    >>> p = Position.from_string("xoo", path(3))
    >>> is_1vc_reducible(p, 2, BLACK), is_1vc_reducible(p, 0, BLACK)
    (True, False)
    """
    _check_vertex_color(position, v, color)
    return (v, color) in reachable_singletons(position)


def reduce_to_vertex(position: Position, v: int, color: int) -> list[Move] | None:
    """An SC2 play ending with exactly one stone, ``color`` on ``v`` (replayed by the
    reference rules before it is returned), or None when ``position`` is not
    (1, v, color)-reducible.

    >>> from clobbermania.graphs import path
    >>> [m.to_str(path(3)) for m in reduce_to_vertex(Position.from_string("xoo", path(3)),
    ...                                              2, BLACK)]
    ['0-1', '1-2']
    """
    _check_vertex_color(position, v, color)
    moves = reducibility_table(position.board).witness_singleton(position, v, color)
    if moves is not None:
        r = replay(position, moves, free=True)
        if not (r.valid and r.stones_left == 1 and r.final.cells[v] == color):
            raise AssertionError(f"witness failed the reference replay: {r.error}")
    return moves


#: :func:`search_endings` visits every reachable position in plain Python: small boards only.
SEARCH_LIMIT = 12


@dataclass(frozen=True)
class Endings:
    """What SC2 play can reach from one position (see :func:`search_endings`)."""

    minimum: int
    singletons: frozenset[tuple[int, int]]
    pairs: frozenset[tuple[int, int]]
    joker_singletons: frozenset[tuple[int, int]]


def search_endings(position: Position) -> Endings:
    """The same answers as the tables, by a plain memoized search over the positions
    reachable with the reference move generator (:meth:`Position.moves`): the fewest
    stones, the single-stone endings (v, c), the (v, c) of reachable positions with at
    most two stones, and the single-stone endings with one colour flip allowed. It
    shares no code with the numba kernels and confirms their counterexamples. Boards of
    at most :data:`SEARCH_LIMIT` vertices.

    >>> from clobbermania.graphs import path
    >>> e = search_endings(Position.from_string("xox", path(3)))
    >>> e.minimum, sorted(e.singletons), sorted(e.joker_singletons)[:2]
    (2, [], [(0, 1), (0, 2)])
    """
    if position.board.n > SEARCH_LIMIT:
        raise UnsupportedError(f"search_endings visits every reachable position and accepts "
                               f"boards of at most {SEARCH_LIMIT} vertices, not "
                               f"{position.board.n}")
    plain: dict[bytes, tuple[int, frozenset, frozenset]] = {}
    joker: dict[bytes, frozenset] = {}

    def visit(p: Position) -> tuple[int, frozenset, frozenset]:
        got = plain.get(p.cells)
        if got is not None:
            return got
        count = p.stone_count()
        best = count
        singles: set = {(v, p.cells[v]) for v in p.stones()} if count == 1 else set()
        pairs: set = {(v, p.cells[v]) for v in p.stones()} if count <= 2 else set()
        for m in p.moves():
            b, s1, s2 = visit(p.play(m))
            best = min(best, b)
            singles |= s1
            pairs |= s2
        plain[p.cells] = got = (best, frozenset(singles), frozenset(pairs))
        return got

    def visit_joker(p: Position) -> frozenset:
        got = joker.get(p.cells)
        if got is not None:
            return got
        out = set(visit(p)[1])
        for v in p.stones():
            out |= visit(_flip(p, v))[1]
        for m in p.moves():
            out |= visit_joker(p.play(m))
        joker[p.cells] = got = frozenset(out)
        return got

    best, singles, pairs = visit(position)
    return Endings(best, singles, pairs, visit_joker(position))


# ---------------------------------------------------------------------------------------
# graph properties
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Counterexample:
    """A configuration (and, for the strong notions, a vertex and colour) that fails."""

    position: Position
    vertex: int | None = None
    color: int | None = None
    stones_left: int | None = None

    def to_dict(self) -> dict:
        d: dict = {"colouring": self.position.text()}
        if self.vertex is not None:
            d["vertex"] = self.vertex
            d["color"] = COLOR_NAMES[self.color]
        if self.stones_left is not None:
            d["stones_left"] = self.stones_left
        return d

    def describe(self) -> str:
        board = self.position.board
        if self.vertex is None:
            return (f"configuration {self.position.text()} cannot be reduced below "
                    f"{self.stones_left} stones")
        return (f"configuration {self.position.text()} cannot end with a single "
                f"{COLOR_NAMES[self.color]} stone on vertex {board.square_name(self.vertex)}")


@dataclass(frozen=True)
class PropertyCheck:
    """The verdict of :func:`check_property`: ``holds``, the first ``counterexample`` found
    (None when it holds), and ``cases``: the number of (configuration, vertex, colour)
    triples checked (configurations, for 1-reducible) up to and including the failure."""

    property: str
    graph: str
    holds: bool
    counterexample: Counterexample | None
    cases: int
    seconds: float

    def to_dict(self) -> dict:
        return {"property": self.property, "graph": self.graph, "holds": self.holds,
                "counterexample": None if self.counterexample is None
                else self.counterexample.to_dict(),
                "cases": self.cases, "seconds": round(self.seconds, 4)}


def check_property(board: Board, prop: str) -> PropertyCheck:
    """Decide ``prop`` (one of :data:`PROPERTIES`) on ``board`` by enumerating every
    configuration the definition quantifies over (see the module docstring).

    A failure is checked once more against the reference rules: the counterexample is
    confirmed by a plain search when the board has at most 10 vertices.

    >>> from clobbermania.graphs import hypercube
    >>> [check_property(hypercube(2), p).holds for p in PROPERTIES]
    [False, True, True, False]
    """
    if prop not in PROPERTIES:
        raise NotationError(f"unknown property {prop!r}: expected one of "
                            f"{', '.join(PROPERTIES)}")
    t0 = time.perf_counter()
    table = reducibility_table(board, strong2=prop == "strong2", joker=prop == "strong1-joker")
    bits = {"1-reducible": table.end1, "strong1": table.end1, "strong2": table.end2,
            "strong1-joker": table.endj}[prop]
    start = int(table.offset[(1 << board.n) - 1])
    holds, cmask, v, col, cases = _check_kernel(board.n, start, table.min_stones, bits,
                                                0 if prop == "1-reducible" else 1)
    counter = None
    if not holds:
        cells = bytes(WHITE if cmask >> u & 1 else BLACK for u in range(board.n))
        p = Position(board, cells)
        if prop == "1-reducible":
            counter = Counterexample(p, stones_left=table.minimum(p))
        else:
            counter = Counterexample(p, int(v), int(col) + 1)
    return PropertyCheck(prop, board.describe(), bool(holds), counter, int(cases),
                         time.perf_counter() - t0)


# ---------------------------------------------------------------------------------------
# the delta invariant on bipartite graphs (Prop 6)
# ---------------------------------------------------------------------------------------

def parity_difference(position: Position) -> int:
    """``#even - #odd`` stones on a bipartite board: a stone is even when it is black on
    the part X (the part of the least vertex of its component) or white on the other part.
    Every SC2 move changes it by exactly 3 (or -3), so it is invariant mod 3.

    >>> from clobbermania.graphs import hypercube
    >>> parity_difference(Position.from_string("xoox", hypercube(2)))
    4
    """
    sides = position.board.square_colors
    if sides is None:
        raise UnsupportedError("the parity difference is defined on bipartite boards only")
    diff = 0
    for v, c in enumerate(position.cells):
        if c != EMPTY:
            diff += 1 if c == sides[v] else -1
    return diff


def prop6_configuration(d: int, flipped: Iterable[int] | None = None) -> Position:
    """A configuration of the hypercube Q_d (d >= 2) with both colours and ``#even - #odd
    = 0 (mod 3)``, hence not 1-reducible (the delta argument of Prop 6): the checkerboard
    configuration (black on even-weight vertices, every stone even: difference 2^d) with
    the stones on ``flipped`` recoloured, each flip making an even stone odd (difference
    -2). So the number of flips must be 2^(d-1) mod 3 (1 for odd d, 2 for even d), up to
    multiples of 3; by default the first 1 or 2 vertices are flipped.

    >>> p = prop6_configuration(3)
    >>> p.text(), parity_difference(p) % 3, sc2_minimum(p)
    ('oooxoxxo', 0, 2)
    """
    from ..graphs import hypercube

    if d < 2:
        raise UnsupportedError(f"Q_{d} has no configuration with both colours and difference "
                               "0 mod 3; Prop 6 needs d >= 2")
    board = hypercube(d)
    need = pow(2, d - 1, 3)
    chosen: Sequence[int] = list(range(need)) if flipped is None else sorted(set(flipped))
    for v in chosen:
        if not 0 <= v < board.n:
            raise NotationError(f"vertex {v} is not on Q_{d} (0..{board.n - 1})")
    if len(chosen) % 3 != need:
        raise UnsupportedError(f"on Q_{d} the number of flipped stones must be {need} mod 3, "
                               f"not {len(chosen)}")
    sides = board.square_colors
    cells = bytearray(sides)
    for v in chosen:
        cells[v] = opponent(cells[v])
    p = Position(board, bytes(cells))
    if p.stone_count(BLACK) == 0 or p.stone_count(WHITE) == 0:
        raise UnsupportedError("the flips leave a single colour; choose other vertices")
    return p


__all__ = ["MAX_VERTICES", "PROPERTIES", "PROPERTY_DESCRIPTIONS", "SEARCH_LIMIT",
           "ReducibilityTable", "JokerWitness", "reducibility_table", "clear_tables",
           "reachable_singletons", "sc2_minimum", "is_k_reducible", "is_1vc_reducible",
           "reduce_to_vertex", "Endings", "search_endings", "Counterexample", "PropertyCheck",
           "check_property", "parity_difference", "prop6_configuration"]
