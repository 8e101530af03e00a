"""Canonical values of two-player Clobber positions (x = Black = Left, o = White = Right).

A position is the sum of its connected parts (stones joined by board adjacency; no move
ever joins two parts, since a stone only moves onto a neighbouring stone). The value of a
part is ``{values of Black's options | values of White's options}`` (Conway, *On Numbers
and Games*; Albert, Grossman, Nowakowski, Wolfe, *An introduction to Clobber*, 2005), each
option being again a sum of parts. :mod:`clobbermania.cgt` puts every value in canonical
form (dominated options removed, reversible ones bypassed), so equal values are one object.

Parts are cached by a canonical key, so that a part met again anywhere is not searched
again:

* on a grid, a part is cropped to its bounding box and written row by row with ``/``
  between rows (translation); the key is the least of its images under the 8 symmetries
  of a rectangle (the 4 reflections and rotation by 180 degrees, and the same after
  transposing, which maps an h x w box onto a w x h one); a 1 x n row thus meets its
  reversal and its vertical twin;
* colour swap negates: the key is the least of those 8 images and of their 8 colour-swapped
  images, and a part whose least image is a swapped one has the negated value;
* on a general graph board (``--graph``), a part is kept where it is, and the key is the
  least of the (black, white) bitmask pairs of its images under the board's known
  symmetries (:meth:`~clobbermania.stones.Board.symmetries`) and their colour swaps.

A part in which neither colour can move is 0 (a lone stone, a one-coloured group); the
search gets that for free as ``{ | } = 0``.

A grid part of at most 63 squares is valued in three steps, each a numba kernel call:
``part_dag`` lists every part below it whose value is not yet known (once each, by its
canonical key; a known part stands for its value), children before parents and grouped
by level (a part's level is one more than its highest new child's); then, level by level,
``raw_options`` assembles every option's value from the values below (a sum of parts,
each maybe negated; sums and negatives cgt has not met yet are asked of cgt and the level
retried), and cgt's ``simplify_many`` kernel (:mod:`clobbermania.cgt._cgt_kernels`) puts
all of the level's games in canonical form at once, cgt interning each result. Python
thus runs a few calls per level instead of a few per part. A tree larger than the
kernel's limit, or any part when cgt's kernels are off, goes to the plain recursion part
by part (which checks the clock often).

The part database (:mod:`clobbermania.clobber.partdb`: the value of every connected part
up to N squares, 8 shipped with the package) is asked before a grid part is valued (see
:func:`use_part_database`); it holds the values this module computes, so answers do not
depend on it.

>>> print(clobber_value(Position.from_string("xxo")), clobber_value(Position.from_string("xoxox")))
^ {*|v}
>>> r = value_result(Position.from_string("xo/ox"))
>>> print(r.value, r.outcome, r.atomic_weight)
* N 0

Moves are those of the reference generator (:meth:`Position.moves
<clobbermania.stones.Position.moves>`); the string search below is held equal to it by
``tests/test_clobber_values.py`` (a plain recursion over ``Position.moves`` / ``play``).
"""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..cgt import Game
from ..cgt import game as _cg
from ..errors import ClobbermaniaError
from ..limits import interrupted
from ..stones import BLACK, WHITE, Board, Position, opponent
from ._clobber_kernels import (
    MAX_CELLS,
    canonical,
    known_get,
    known_put,
    part_dag,
    part_options,
    raw_options,
)

__all__ = ["clobber_value", "value_result", "outcome", "ValueResult", "ValueTimeout",
           "component_values", "clear_cache", "cache_size", "use_part_database",
           "part_database", "part_database_stats"]

ZERO = Game(0)
_ZERO_ID = ZERO.id


class ValueTimeout(ClobbermaniaError):
    """The value search ran out of its time limit (the message names the limit)."""


# --- grid parts, as row strings ---------------------------------------------------------
# A grid part is a string of its cropped bounding box, rows joined by "/": the separator
# doubles as a wall, so with a row stride of w + 1 a horizontal step never wraps.

_SWAP = str.maketrans("xo", "ox")
_XBITS = str.maketrans("xo./", "1000")
_OBITS = str.maketrans("xo./", "0100")
_grid_memo: dict[str, Game] = {}     # raw or canonical part string -> value
# board -> {(black, white) raw or canonical -> value}; one dict per board, so that the
# board (whose hash walks its whole adjacency) is hashed once per call, not once per part
_graph_memo: dict[Board, dict[tuple[int, int], Game]] = {}
_option_memo: dict[str, Game] = {}   # an option's uncropped string -> value of its sum
# canonical (h, w, black, white) -> cgt id of the part's value, for parts valued by the
# part-by-part recursion (_int_search); the tree kernel's parts are in _known_keys alone
_int_memo: dict[tuple[int, int, int, int], int] = {}


# the same canonical parts in a table the tree kernel (part_dag) reads: rows (h, w, black,
# white), h = -1 for an empty slot, and the value ids; kept at most half full
_KNOWN_START = 1 << 12
_known_keys = np.full((_KNOWN_START, 4), -1, np.int64)
_known_vals = np.zeros(_KNOWN_START, np.int64)
_known_count = 0
# how many new parts one tree call may list before handing over to the recursion (which
# checks the clock often); under a time limit, as many as about a quarter of the time
# left allows (the listing runs at some 10-20 us a part and cannot be interrupted)
_DAG_LIMIT = 500_000     # about 1-2 kB a part while listed
_DAG_PARTS_PER_SECOND = 20_000


def clear_cache() -> None:
    """Forget every cached part value (the cgt table itself is kept)."""
    global _known_keys, _known_vals, _known_count, _part_db_loaded
    _part_db_loaded = False     # the database's parts leave the table with the rest
    _grid_memo.clear()
    _graph_memo.clear()
    _option_memo.clear()
    _int_memo.clear()
    _known_keys = np.full((_KNOWN_START, 4), -1, np.int64)
    _known_vals = np.zeros(_KNOWN_START, np.int64)
    _known_count = 0


def cache_size() -> int:
    """How many part keys are cached (raw and canonical strings both count)."""
    return len(_grid_memo) + sum(map(len, _graph_memo.values())) + len(_int_memo) \
        + _known_count


def _known_value(key: tuple[int, int, int, int]) -> int | None:
    """The value id of a canonical kernel part valued before, or None."""
    v = _int_memo.get(key)
    if v is None:
        v = int(known_get(_known_keys, _known_vals, *key))
        if v < 0:
            return None
    return v


@contextmanager
def _gc_paused():
    """The cyclic garbage collector paused: a value search allocates millions of small
    objects without cycles (cgt's option tuples and games, part keys), and the collections
    they set off took about 13 % of the time (py-spy, 3x5 checkerboard)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Clock:
    """Checks a deadline every few hundred parts searched (cheap enough to leave on)."""

    __slots__ = ("deadline", "limit", "count")

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.deadline = None if limit is None else time.perf_counter() + limit
        self.count = 0

    def advance(self, n: int) -> None:
        """Count n parts searched at once and check the deadline."""
        self.count += n
        self.check()

    def tick(self) -> None:
        self.count += 1
        if not self.count & 255:
            self.check()

    def check(self) -> None:
        """Check the deadline now (after a step that may be long: a sum of part values);
        Ctrl-C (:func:`clobbermania.limits.interrupted`) counts as the deadline passed."""
        if interrupted():
            raise ValueTimeout(f"the value search was interrupted after {self.count:,} "
                               "parts (values are exponential to compute; try 'clobber "
                               "solve' for the outcome alone)")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise ValueTimeout(f"the value search ran out of its time limit of {self.limit:g} s "
                               f"after {self.count:,} parts (values are exponential to compute; "
                               "try 'clobber solve' for the outcome alone)")


def _canonical_grid(s: str) -> tuple[str, bool]:
    """(key, negated): the least image of part ``s`` under the 8 rectangle symmetries and
    colour swap, and whether that image is colour-swapped."""
    rows = s.split("/")
    c = "/".join(rows[::-1])                  # upside down
    imgs = [s, s[::-1], c, c[::-1]]           # identity, rotation 180, the two flips
    if len(rows) > 1 or len(s) > 1:
        cols = ["".join(t) for t in zip(*rows, strict=True)]
        t = "/".join(cols)
        u = "/".join(cols[::-1])
        imgs += [t, t[::-1], u, u[::-1]]
    m1 = min(imgs)
    m2 = min(x.translate(_SWAP) for x in imgs)
    return (m1, False) if m1 <= m2 else (m2, True)


def _int_search(h: int, w: int, b: int, wm: int, clock: _Clock) -> int:
    """The value (a cgt id) of a canonical part of at most 63 squares, its options from
    the kernel. Works on cgt's ids, not Game objects: this loop runs once per part."""
    side, start, parts = part_options(h, w, b, wm)
    start = start.tolist()
    parts = parts.tolist()
    left: list[int] = []
    right: list[int] = []
    memo = _int_memo
    neg, add = _cg._neg, _cg._add
    for k, sd in enumerate(side.tolist()):
        total = _ZERO_ID
        for ph, pw, pb, px, ng in parts[start[k]:start[k + 1]]:
            key = (ph, pw, pb, px)
            g = _known_value(key)
            if g is None:
                clock.tick()
                g = _int_search(ph, pw, pb, px, clock)
                memo[key] = g
            if ng:
                g = neg(g)
            if total == _ZERO_ID:
                total = g
            else:
                total = add(total, g)
                clock.check()   # a sum of large values can take a good part of a second
        (right if sd else left).append(total)
    return _cg._canon(left, right)


def _known_add(keys: np.ndarray, vals: np.ndarray) -> None:
    """Enter parts into the kernel's table of known parts, growing it first if need be."""
    global _known_keys, _known_vals, _known_count
    size = _known_keys.shape[0]
    if 2 * (_known_count + len(vals)) > size:
        while 2 * (_known_count + len(vals)) > size:
            size *= 4
        full = _known_keys[:, 0] != -1
        old_keys, old_vals = _known_keys[full], _known_vals[full]
        _known_keys = np.full((size, 4), -1, np.int64)
        _known_vals = np.zeros(size, np.int64)
        known_put(_known_keys, _known_vals, old_keys, old_vals)
    known_put(_known_keys, _known_vals, keys, vals)
    _known_count += len(vals)


def _dag_value(key: tuple[int, int, int, int], clock: _Clock) -> int | None:
    """The value id of a canonical part from its whole tree of unknown parts, listed by
    one kernel call (children first) and valued in that order; None when the tree is
    larger than the kernel's limit (the caller then recurses, checking the clock)."""
    if not _cg._fast:
        return None             # the cgt kernels are off (see cgt.game): recurse
    if clock.deadline is None:
        limit = _DAG_LIMIT
    else:
        left_s = clock.deadline - time.perf_counter()
        limit = int(max(0.0, left_s) * _DAG_PARTS_PER_SECOND) + 100
    n, keys, order, opt_start, side, ranges, refs, level = part_dag(
        *key, _known_keys, _known_vals, limit)
    if n < 0:
        return None
    vals = np.full(n, -1, np.int64)
    # level by level: a level's parts only need the values of lower ones
    by_level = np.argsort(level, kind="stable")
    bounds = np.searchsorted(level[by_level], np.arange(level.max() + 2)).tolist()
    try:
        for lv in range(len(bounds) - 1):
            if not value_listed(by_level[bounds[lv]:bounds[lv + 1]], vals, opt_start, side,
                                ranges, refs, clock):
                return None     # the cgt kernels stood down meanwhile: recurse
    finally:
        # on a timeout too: the parts valued so far are kept for the next call
        got = np.flatnonzero(vals >= 0)
        _known_add(keys[got], vals[got])
    return int(vals[0])


def value_listed(pending: np.ndarray, vals: np.ndarray, opt_start: np.ndarray,
                 side: np.ndarray, ranges: np.ndarray, refs: np.ndarray,
                 clock: _Clock | None = None) -> bool:
    """Value the parts ``pending`` of a listing in ``part_dag``'s layout (every part they
    refer to already valued in ``vals`` or known), writing their cgt ids into ``vals``:
    ``raw_options`` sums each option, cgt's ``simplify_many`` kernel simplifies them all.
    False when cgt's kernels are off (nothing is then valued). The part database's build
    (:mod:`clobbermania.clobber.partdb`) values a whole size through it."""
    neg, add = _cg._neg, _cg._add
    while pending.shape[0]:
        if not _cg._fast:
            return False
        ready, ls, lo, rs, ro, req = raw_options(
            pending, vals, opt_start, side, ranges, refs, _cg._NEG, _cg._SK, _cg._SV,
            _ZERO_ID)
        for kind, a, b in req.tolist():       # negatives and sums not known yet
            if kind == 0:
                neg(a)
            else:
                add(a, b)
        count = _value_batch(pending, ready, vals, ls, lo, rs, ro)
        if count and clock is not None:
            clock.advance(count)
        pending = pending[ready == 0]
    return True


def _value_batch(pending: np.ndarray, ready: np.ndarray, vals: np.ndarray, ls: np.ndarray,
                 lo: np.ndarray, rs: np.ndarray, ro: np.ndarray) -> int:
    """Value the ready parts among ``pending`` from their raw options (``raw_options``'s
    output): one kernel call simplifies them all, then cgt interns each result. Returns
    how many were valued."""
    cg = _cg
    cg._flush()
    flag, cls, co, crs, cro = cg._k.simplify_many(
        ready, ls, lo, rs, ro, cg._T, cg._X, cg._O, cg._MK, cg._MV, cg._MC, cg._STK,
        cg._RSTK, cg._RS, cg._RV, cg._STAMP, cg._IK, cg._IV)
    if cg._MC[0] * 2 > cg._MK.shape[0]:
        cg._memo_room()
    flag = flag.tolist()
    cls, co, crs, cro = cls.tolist(), co.tolist(), crs.tolist(), cro.tolist()
    canon, intern = cg._canon, cg._intern
    count = 0
    for j, p in enumerate(pending.tolist()):
        f = flag[j]
        if f >= 3:          # a game already in the table
            vals[p] = f - 3
            count += 1
            continue
        if f == 2:
            continue
        if f == 1:          # options all numbers: cgt's closed form
            v = canon(lo[ls[j]:ls[j + 1]].tolist(), ro[rs[j]:rs[j + 1]].tolist())
        else:
            v = intern(co[cls[j]:cls[j + 1]], cro[crs[j]:crs[j + 1]])
        vals[p] = v
        count += 1
    return count


def _grid_part_value(s: str, clock: _Clock) -> Game:
    g = _grid_memo.get(s)
    if g is not None:
        return g
    h = s.count("/") + 1
    w = len(s) // h
    if h * w <= MAX_CELLS:
        # small parts go to the kernel, keyed by bitboards
        flat = s.replace("/", "")[::-1]
        kh, kw, kb, kx, neg = canonical(h, w, int(flat.translate(_XBITS), 2),
                                        int(flat.translate(_OBITS), 2))
        key = (int(kh), int(kw), int(kb), int(kx))
        i = _known_value(key)
        if i is None and _part_db is not None:
            i = _db_value(key)
        if i is None:
            i = canonical_part_value(key, clock)
        g = _cg._objects[_cg._neg(i) if neg else i]
        _grid_memo[s] = g
        return g
    key, neg = _canonical_grid(s)
    g = _grid_memo.get(key)
    if g is None:
        clock.tick()
        g = _grid_search(key, clock)
        _grid_memo[key] = g
    if neg:
        g = -g
    _grid_memo[s] = g
    return g


def canonical_part_value(key: tuple[int, int, int, int], clock: _Clock | None = None) -> int:
    """The cgt id of the value of a canonical kernel part (h, w, black, white) not known
    yet: its tree of unknown parts by the tree kernel, else the part-by-part recursion."""
    if clock is None:
        clock = _Clock(None)
    i = _dag_value(key, clock)
    if i is None:
        clock.tick()
        i = _int_search(*key, clock)
        _int_memo[key] = i
    return i


# --- the part database hook ----------------------------------------------------------------
# The database values.py consults (clobbermania.clobber.partdb): _DEFAULT until first
# needed (then the default database, opened then), a PartDatabase, or None (off).
_DEFAULT = object()
_part_db: object = _DEFAULT
_part_db_loaded = False     # every stored part entered into the known table
_db_stats = {"hits": 0, "loaded": 0}
#: The parts of the database the tree kernel sees: those of at most this many squares are
#: entered into its table when a larger part is first valued (51,035 parts up to 8
#: squares, 0.05 s; the 2.7 million up to 10 take 2.5 s and 0.7 GB, more than the whole
#: value of a 4x4 board). Larger stored parts are answered when asked for directly.
PRELOAD_SQUARES = 8


def use_part_database(db: object = "default") -> None:
    """Set the part database the value search consults before valuing a grid part:
    a :class:`~clobbermania.clobber.partdb.PartDatabase`, ``None`` (off), or
    ``"default"`` (the built cache database if larger than the shipped one, else the
    shipped one of 8 squares; the initial setting). Cached part values are kept: the
    database holds the same values.

    >>> use_part_database(None); print(clobber_value(Position.from_string("xxo")))
    ^
    >>> use_part_database(); part_database().max_squares >= 8
    True
    """
    global _part_db, _part_db_loaded
    if db == "default":
        db = _DEFAULT
    elif db is not None:
        from .partdb import PartDatabase
        if not isinstance(db, PartDatabase):
            raise ClobbermaniaError(f"use_part_database takes a PartDatabase, None or "
                                    f"'default', not {type(db).__name__}")
    _part_db = db
    _part_db_loaded = False


def part_database():
    """The part database in use (opened now if it is the default), or None."""
    global _part_db
    if _part_db is _DEFAULT:
        from .partdb import default_database
        _part_db = default_database()
    return _part_db


def part_database_stats() -> dict[str, int]:
    """How many part values the database answered directly (``hits``) and how many parts
    it entered into the known table for the tree kernel (``loaded``), since the start."""
    return dict(_db_stats)


def _db_value(key: tuple[int, int, int, int]) -> int | None:
    """The value id of canonical part ``key`` from the part database, or None. A part
    larger than the database first gets every stored part entered into the kernel's
    table, so that the search below it finds them all."""
    global _part_db_loaded
    db = part_database()
    if db is None:
        return None
    i = db.value_id(*key)
    if i is not None:
        _db_stats["hits"] += 1
        _known_add(np.array([key], np.int64), np.array([i], np.int64))
        return i
    if not _part_db_loaded:
        _part_db_loaded = True
        _db_stats["loaded"] += db.load_all(PRELOAD_SQUARES)
        return _known_value(key)
    return None


def _grid_parts(cells: list[str], stride: int) -> list[str]:
    """The connected parts of ``cells`` (a row-separated grid as a list of characters, row
    stride ``stride``), each cropped to its bounding box, as part strings."""
    n = len(cells)
    seen = [False] * n
    out = []
    for start in range(n):
        if seen[start] or cells[start] not in "xo":
            continue
        seen[start] = True
        comp = [start]
        stack = [start]
        while stack:
            i = stack.pop()
            for j in (i - 1, i + 1, i - stride, i + stride):
                if 0 <= j < n and not seen[j] and (cells[j] == "x" or cells[j] == "o"):
                    seen[j] = True
                    comp.append(j)
                    stack.append(j)
        if len(comp) == 1:
            continue            # a lone stone is 0
        rs = [i // stride for i in comp]
        cs = [i % stride for i in comp]
        r0, r1, c0, c1 = min(rs), max(rs), min(cs), max(cs)
        w = c1 - c0 + 1
        box = [["."] * w for _ in range(r1 - r0 + 1)]
        colours = set()
        for i, r, c in zip(comp, rs, cs, strict=True):
            box[r - r0][c - c0] = cells[i]
            colours.add(cells[i])
        if len(colours) == 2:   # a one-coloured part never moves: 0
            out.append("/".join("".join(row) for row in box))
    return out


def _grid_search(s: str, clock: _Clock) -> Game:
    """The value of the connected part ``s`` from its options."""
    n = len(s)
    w = s.find("/")
    stride = w + 1 if w >= 0 else n + 1
    left: dict[str, None] = {}
    right: dict[str, None] = {}
    for i, ch in enumerate(s):
        if ch == "x":
            other, dest = "o", left
        elif ch == "o":
            other, dest = "x", right
        else:
            continue
        for j in (i - 1, i + 1, i - stride, i + stride):
            if 0 <= j < n and s[j] == other:
                clock.check()   # each option is a copy of the part: O(n) already
                cells = list(s)
                cells[j] = ch
                cells[i] = "."
                dest["".join(cells)] = None
    return Game.from_options([_grid_option(o, stride, clock) for o in left],
                             [_grid_option(o, stride, clock) for o in right])





def _crop(t: str) -> str:
    """A connected part's string cut down to its bounding box."""
    rows = t.split("/")
    i, j = 0, len(rows)
    while not rows[i].strip("."):
        i += 1
    while not rows[j - 1].strip("."):
        j -= 1
    rows = rows[i:j]
    a = min(len(r) - len(r.lstrip(".")) for r in rows)
    b = min(len(r) - len(r.rstrip(".")) for r in rows)
    return "/".join([r[a:len(r) - b] for r in rows])


def _grid_option(text: str, stride: int, clock: _Clock) -> Game:
    """The value of an option (a sum of parts), the parts found by bitmask flood fill."""
    g = _option_memo.get(text)
    if g is not None:
        return g
    clock.check()   # a flood fill over the whole part: far more than reading the clock
    # bit i is character i; the "/" walls are never stones, so shifting by 1 or by the
    # stride only ever reaches a real neighbour once masked with the stones
    xs = int(text.translate(_XBITS)[::-1], 2)
    os_ = int(text.translate(_OBITS)[::-1], 2)
    stones = xs | os_
    rest = stones
    parts = []
    while rest:
        comp = rest & -rest
        while True:
            nxt = (comp | comp << 1 | comp >> 1 | comp << stride | comp >> stride) & stones
            if nxt == comp:
                break
            comp = nxt
        rest ^= comp
        if comp & xs and comp & os_:
            parts.append(comp)
    if not parts:
        g = ZERO
    elif len(parts) == 1 and parts[0] == stones:
        g = _grid_part_value(_crop(text), clock)
    else:
        g = ZERO
        n = len(text)
        for comp in parts:
            bits = format(comp, "b").zfill(n)[::-1]
            sub = "".join([c if k == "1" or c == "/" else "."
                           for c, k in zip(text, bits, strict=True)])
            g = g + _grid_part_value(_crop(sub), clock)
            clock.check()
    _option_memo[text] = g
    return g


# --- general graph boards, as bitmasks ----------------------------------------------------

def _mask_parts(adj: tuple[int, ...], black: int, white: int,
                clock: _Clock | None = None) -> list[tuple[int, int]]:
    """(black, white) of each connected part with stones of both colours (reading
    ``clock`` at every part: a part costs bitmask operations over the whole board)."""
    stones = black | white
    out = []
    while stones:
        if clock is not None:
            clock.check()
        low = stones & -stones
        comp = low
        frontier = low
        while frontier:
            grow = 0
            m = frontier
            while m:
                b = m & -m
                grow |= adj[b.bit_length() - 1]
                m ^= b
            frontier = grow & stones & ~comp
            comp |= frontier
        stones &= ~comp
        b, w = black & comp, white & comp
        if b and w:
            out.append((b, w))
    return out


def _permute(mask: int, perm: tuple[int, ...]) -> int:
    out = 0
    while mask:
        b = mask & -mask
        out |= 1 << perm[b.bit_length() - 1]
        mask ^= b
    return out


def _graph_part_value(board: Board, memo: dict, black: int, white: int, clock: _Clock
                      ) -> Game:
    raw = (black, white)
    g = memo.get(raw)
    if g is not None:
        return g
    clock.check()   # keying costs symmetries x vertices, far more than reading the clock
    imgs = [(_permute(black, p), _permute(white, p)) for p in board.symmetries()]
    m1 = min(imgs)
    m2 = min((w, b) for b, w in imgs)
    key, neg = (m1, False) if m1 <= m2 else (m2, True)
    g = memo.get(key)
    if g is None:
        clock.tick()
        g = _graph_search(board, memo, key[0], key[1], clock)
        memo[key] = g
    if neg:
        g = -g
    memo[raw] = g
    return g


def _graph_search(board: Board, memo: dict, black: int, white: int, clock: _Clock) -> Game:
    adj = board.adjacency_masks
    options: list[list[Game]] = [[], []]
    for side, (mine, theirs) in enumerate(((black, white), (white, black))):
        m = mine
        while m:
            b = m & -m
            m ^= b
            t = adj[b.bit_length() - 1] & theirs
            while t:
                d = t & -t
                t ^= d
                nm, nt = (mine ^ b) | d, theirs ^ d
                nb, nw = (nm, nt) if side == 0 else (nt, nm)
                total = ZERO
                for pb, pw in _mask_parts(adj, nb, nw, clock):
                    total = total + _graph_part_value(board, memo, pb, pw, clock)
                    clock.check()
                options[side].append(total)
    return Game.from_options(options[0], options[1])


# --- public API -----------------------------------------------------------------------------

def _grid_text_parts(position: Position) -> list[str]:
    C = position.board.cols
    chars = [".xo"[c] for c in position.cells]
    cells: list[str] = []
    for r in range(position.board.rows):
        cells.extend(chars[r * C:(r + 1) * C])
        cells.append("/")
    return _grid_parts(cells, C + 1)


def component_values(position: Position, *, time_limit: float | None = None
                     ) -> list[tuple[str, Game]]:
    """The parts of ``position`` that can still move, each with its value.

    A grid part is given as its cropped rows (``xo/.x``); a part of a graph board as its
    vertex colours (``x``, ``o``, ``.`` in vertex order, only the part's stones shown).

    >>> [(t, str(g)) for t, g in component_values(Position.from_string("xxo.xo.x/.......o"))]
    [('xxo', '^'), ('xo', '*'), ('x/o', '*')]
    """
    clock = _Clock(time_limit)
    with _gc_paused():
        if position.board.is_grid:
            return [(p, _grid_part_value(p, clock)) for p in _grid_text_parts(position)]
        board = position.board
        memo = _graph_memo.setdefault(board, {})
        out = []
        for b, w in _mask_parts(board.adjacency_masks, position.black, position.white, clock):
            text = "".join("x" if b >> v & 1 else "o" if w >> v & 1 else "."
                           for v in range(board.n))
            out.append((text, _graph_part_value(board, memo, b, w, clock)))
        return out


def clobber_value(position: Position, *, time_limit: float | None = None) -> Game:
    """The canonical value of a Clobber position (x = Black = Left), as a cgt Game.

    Raises :class:`ValueTimeout` when ``time_limit`` seconds run out (part values found
    so far stay cached, so a second call resumes where the first stopped).

    >>> [str(clobber_value(Position.from_string(s))) for s in ("xo", "xxxo", "xoxox", "xxoo")]
    ['*', '^^*', '{*|v}', '0']
    >>> print(clobber_value(Position.checkerboard(3, 3)))
    *
    """
    total = ZERO
    for _, g in component_values(position, time_limit=time_limit):
        total = total + g
    return total


@dataclass(frozen=True)
class ValueResult:
    """A position's value and what follows from it.

    ``outcome`` is ``L`` (Black wins whoever starts), ``R`` (White wins), ``N`` (the player
    to move wins) or ``P`` (the player to move loses). Every Clobber position is all-small
    (Albert et al. 2005), so ``atomic_weight`` is always defined; ``temperature`` is that
    of an infinitesimal (0 for a non-number, -1 for the number 0, as CGSuite prints).
    """

    value: Game
    outcome: str
    atomic_weight: Game
    temperature: Fraction
    seconds: float
    components: list[tuple[str, Game]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"value": str(self.value), "outcome": self.outcome,
                "atomic_weight": str(self.atomic_weight),
                "temperature": str(self.temperature),
                "components": [{"part": p, "value": str(g)} for p, g in self.components],
                "seconds": round(self.seconds, 6)}


def value_result(position: Position, *, time_limit: float | None = None) -> ValueResult:
    """:func:`clobber_value` with outcome, atomic weight, temperature, parts and time.

    >>> r = value_result(Position.from_string("xxxxo"))
    >>> print(r.value, r.outcome, r.atomic_weight, r.temperature)
    ^3 L 3 0
    """
    t0 = time.perf_counter()
    clock = _Clock(time_limit)
    parts = component_values(position, time_limit=time_limit)
    clock.count = len(parts)
    total = ZERO
    for _, g in parts:
        total = total + g
        clock.check()   # the sum of many large parts takes time too
    return ValueResult(total, total.outcome, total.atomic_weight(), total.temperature,
                       time.perf_counter() - t0, parts)


def outcome(position: Position, first: int, *, time_limit: float | None = None) -> int:
    """The winner (BLACK or WHITE) when ``first`` moves first, read off the value.

    >>> outcome(Position.from_string("xoxo"), BLACK) == BLACK
    True
    >>> outcome(Position.from_string("xxoo"), BLACK) == WHITE
    True
    """
    if first not in (BLACK, WHITE):
        raise ClobbermaniaError(f"the first player must be BLACK (1) or WHITE (2), not {first!r}")
    o = clobber_value(position, time_limit=time_limit).outcome
    if o == "L":
        return BLACK
    if o == "R":
        return WHITE
    return first if o == "N" else opponent(first)
