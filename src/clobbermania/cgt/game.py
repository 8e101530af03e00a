"""Short partizan games in canonical form, hash-consed: equal games are one object.

Every game lives in one global table as an integer id with the ids of its left and right
options. The table is keyed by ``(frozenset(left ids), frozenset(right ids))`` of the
*canonical* form, so two games are equal exactly when they have the same id, and ``G is H``
is the equality test. Games are built from options by :meth:`Game.from_options`, which
puts them in canonical form (Conway, *On Numbers and Games*, ch. 10; Siegel, *Combinatorial
Game Theory*, II.2): dominated options are removed and reversible options bypassed until
neither applies.

Special forms are recognised and kept as a tag on the game, the *number-up-star* (nus)
``x + u.^ + *n`` (x a dyadic rational, u an integer, n a nimber). Their canonical forms
(Siegel II.4; the same forms CGSuite builds) are

* numbers: ``0 = {|}``, ``n+1 = {n|}``, ``-n-1 = {|-n}``, ``m/2^j = {(m-1)/2^j | (m+1)/2^j}``;
* ``x + *n = {x, x*, ..., x*(n-1) | x, x*, ..., x*(n-1)}``;
* ``x + ^* = {x, x* | x}`` and, for u >= 1 otherwise, ``x + u.^ + *n = {x | x + (u-1).^ +
  *(n xor 1)}`` (so ``^ = {0|*}``, ``^^ = {0|^*}``, ``^^* = {0|^}``); negatives mirror.

Sums, negatives and comparisons of two nus games are computed from their tags; other sums
``{G^L+H, G+H^L | G^R+H, G+H^R}`` are canonicalised and memoised, comparisons follow the
recursive definition (``G <= H`` iff no ``G^L >= H`` and no ``H^R <= G``) with the number
avoidance theorem (a number's own options need not be tried against a non-number) and are
memoised by id pair.

**Games kept as tags.** A number-up-star is built with explicit options only while it is
small (|x| <= EXPLICIT_INTEGER with denominator at most 2^EXPLICIT_BITS, |u| <=
EXPLICIT_UPS, n <= EXPLICIT_NIMBER); any other is the tag alone, O(1) memory whatever its
size (``*99999999``, ``^99999999``, ``2^-1000``), its options listed by :func:`_opts` when
an operation needs them (at most MAX_OPTIONS). Sums, negatives, comparisons, stops,
birthday, mean, temperature, atomic weight and reduced form of number-up-stars come from
the tags. A general game with such a follower is flagged (``_sym``) and handled by the
plain Python code below, where x + *n is compared with a game H through H's *profile*
k -> (H <= x + *k, x + *k <= H), piecewise constant with few pieces (see
:func:`_profile`), so that {0 | *99999} = ^*99998 is found without listing 99999 options.
What would still be huge is refused with one sentence naming the limit
(MAX_OPTIONS, MAX_SUM_NIMBER, MAX_SUM_UPS, MAX_DEPTH, MAX_TABLE), and :func:`time_limit`
bounds the time (docs/limits.md, section cgt).

The table is mirrored into flat arrays, and comparison and canonical simplification run in
numba kernels (:mod:`._cgt_kernels`) for games without tag-kept followers (every explicit
number is exactly a float, so float comparison there is exact); the plain Python code
below (:func:`_le_plain`, :func:`_simplify_plain`), which the kernels are tested against,
handles the others, equally exact.

>>> from clobbermania.cgt import Game, UP, STAR
>>> Game.from_options([0], [UP]) is UP + UP + STAR
True
>>> print(Game.from_options([0], [STAR]), UP > 0, (UP + STAR).compare(0))
^ True ||
"""

from __future__ import annotations

import sys
import time
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Union

import numpy as np

from ..errors import UnsupportedError
from ..limits import interrupted
from . import _cgt_kernels as _k

Nus = tuple[Fraction, int, int]

# --- limits (see docs/limits.md, section cgt) --------------------------------------------
#: A number-up-star x + u.^ + *n is built with explicit options (as the kernels need them)
#: only while it is small: |x| <= EXPLICIT_INTEGER with a denominator up to
#: 2^EXPLICIT_BITS (so every explicit number is exactly a float), |u| <= EXPLICIT_UPS and
#: n <= EXPLICIT_NIMBER. Any other is kept as its tag alone, in O(1) memory.
EXPLICIT_INTEGER = 256
EXPLICIT_BITS = 48
EXPLICIT_UPS = 256
EXPLICIT_NIMBER = 64
#: The most options listed at once for a number-up-star kept as a tag (x + *n has n options
#: a side): past that an operation that needs them is refused.
MAX_OPTIONS = 10_000
#: A sum of a game that is not a number-up-star with x + u.^ + *n kept as its tag lists
#: n + 1 options a side (and the sums with x + *k for every k < n, quadratic work) or a
#: chain of |u| sums, each canonicalised: refused past n = MAX_SUM_NIMBER or |u| =
#: MAX_SUM_UPS (the same for the reduced canonical form of such a game).
MAX_SUM_NIMBER = 256
MAX_SUM_UPS = 2_000
#: The deepest recursion of the plain Python code (comparisons, sums, simplification along a
#: game tree); past that the operation is refused rather than overflowing the stack.
MAX_DEPTH = 4_000
#: The most distinct games the table holds (about 700 bytes a game: under 3 GB).
MAX_TABLE = 4_000_000
#: Python memo tables (sums, negatives, comparisons, canonical forms) are emptied when one
#: passes this many entries (results stay exact, only slower).
MAX_MEMO = 2_000_000


class TimeLimitReached(UnsupportedError):
    """The time limit set by :func:`time_limit` ran out during a computation."""


_deadline: float | None = None
_limit_seconds: float = 0.0
_ticks = 0
_blocks = 0   # how many time_limit() blocks are open


def _check_clock() -> None:
    """Raise TimeLimitReached when the deadline has passed, and keep the memos bounded
    (called every 1024 ticks). Within a :func:`time_limit` block, Ctrl-C
    (:func:`clobbermania.limits.interrupted`) raises KeyboardInterrupt here, at a check,
    never inside a kernel: the engine has no partial answer to give."""
    if _blocks and interrupted():
        raise KeyboardInterrupt
    if _deadline is not None and time.perf_counter() > _deadline:
        raise TimeLimitReached(f"the time limit of {_limit_seconds:g} s was reached before "
                               f"the canonical form was found")
    for memo in (_le_memo, _sum_memo, _neg_memo, _canon_memo, _profile_memo):
        if len(memo) > MAX_MEMO:
            memo.clear()


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Within the block, every operation of the engine checks the clock (in its Python
    loops, about every millisecond) and raises :class:`TimeLimitReached` once ``seconds``
    have passed (None: no limit). The table stays consistent after a time-out.

    >>> with time_limit(5):
    ...     print(Game("*99999999") + Game("*3"))
    *99999996
    """
    global _deadline, _limit_seconds, _blocks
    old = (_deadline, _limit_seconds)
    if seconds is not None:
        _deadline = time.perf_counter() + seconds
        _limit_seconds = seconds
    _blocks += 1
    try:
        yield
    finally:
        _deadline, _limit_seconds = old
        _blocks -= 1


def _tick() -> None:
    """Count one step of work; every 1024 steps, check the clock and the memo sizes."""
    global _ticks
    _ticks += 1
    if not _ticks & 1023:
        _check_clock()


def _number_birthday(x: Fraction) -> int:
    """The birthday of the number x: |x| for an integer, floor(|x|) + 1 + j for m/2^j."""
    d = x.denominator
    if d == 1:
        return abs(x.numerator)
    return abs(x.numerator) // d + d.bit_length()


def _nus_birthday(x: Fraction, u: int, n: int) -> int:
    """The birthday of x + u.^ + *n: b(x) + b(u.^ + *n), where b(*n) = n and, for u != 0,
    b(u.^ + *n) = |u| + 1 when the nimber left at |u.^| = 1 (n xor (|u| - 1) mod 2) is 1
    (the form ^* = {0, * | 0}), else |u| + (that nimber xor 1) (the forms {0 | (u-1).^ + *(n
    xor 1)}); checked against the explicit forms in the tests."""
    b = _number_birthday(x)
    if u == 0:
        return b + n
    a = abs(u)
    m = n ^ ((a - 1) & 1)
    return b + (a + 1 if m == 1 else a + (m ^ 1))


def _is_explicit(x: Fraction, u: int, n: int) -> bool:
    # the kernels hold a number as a float: one that a float cannot hold exactly (255 +
    # 2^-48 needs 56 bits) is kept as a tag, so the kernels never have to switch off
    return (abs(x) <= EXPLICIT_INTEGER and x.denominator <= 1 << EXPLICIT_BITS
            and abs(u) <= EXPLICIT_UPS and n <= EXPLICIT_NIMBER and float(x) == x)

# --- the global table -------------------------------------------------------------------
_left: list[tuple[int, ...]] = []
_right: list[tuple[int, ...]] = []
_nus: list[Nus | None] = []
_objects: list[Game] = []
_index: dict[tuple[frozenset, frozenset], int] = {}
_nus_index: dict[Nus, int] = {}

# memo tables of the operations (keys are ids; pair keys are packed into one int)
_le_memo: dict[int, bool] = {}
_sum_memo: dict[int, int] = {}
_neg_memo: dict[int, int] = {}
_canon_memo: dict[tuple[frozenset, frozenset], int] = {}   # raw option sets -> canonical id
_birth: list[int] = []                                  # birthday, set when interned
_kind: list[int] = []           # 1 a number, 2 another number-up-star, 0 any other game
_stop_pairs: list[tuple[Fraction, Fraction] | None] = []  # (left stop, right stop), lazily
# True for a number-up-star kept as its tag (its options in _left/_right are None) and for
# every game with such a follower: the kernels never see these, the plain Python code below
# handles them (see "games kept as tags" in the module docstring)
_sym: list[bool] = []
# profiles of games against the nimber families x + *k (see _profile)
_profile_memo: dict[tuple[int, Fraction], tuple[list[int], list[bool], list[bool]]] = {}

# Sums and comparisons recurse on the game tree (depth about the sum of the birthdays, a
# few Python frames per level); the default limit of 1000 is too low for games born on
# day 200 or so, which a long Clobber row can reach.
if sys.getrecursionlimit() < 20000:
    sys.setrecursionlimit(20000)

_SHIFT = 32

# --- the table mirrored into arrays for the numba kernels (see _cgt_kernels) -----------
# _T[g] = (left start, left count, right start, right count, kind, ups, nim, 0) with the
# options in _O; _X[g] = the number part of a number-up-star as a float. The kernels are
# used while _fast holds: every number part so far is exactly a float and every up and
# nim count fits an int64 (else comparison of floats would not be exact; the plain Python
# code below then takes over for good, equally exact).
_T = np.zeros((1024, 8), np.int64)
_X = np.zeros(1024, np.float64)
_O = np.zeros(4096, np.int64)
_ofill = 0
_fast = True
_MEMO_START = 1 << 18
_MEMO_MAX = 1 << 26          # 64M slots, 576 MB: past that the memo stops growing
_MK = np.full(_MEMO_START, -1, np.int64)
_MV = np.zeros(_MEMO_START, np.int8)
_MC = np.zeros(1, np.int64)
# the kernels' explicit recursion stacks (deep enough for two games of the largest
# birthday in the table) and the per-round memo of comparisons with a raw game
_STK = np.zeros((64, 4), np.int64)
_RSTK = np.zeros((64, 4), np.int64)
_RS = np.zeros(2048, np.int64)
_RV = np.zeros(2048, np.int8)
_STAMP = np.zeros(1, np.int64)
# negatives and sums found so far, for kernels that assemble many options at once:
# _NEG[g] = the id of -G or -1; sums in an open-addressing table (key g << 32 | h, g <= h)
_NEG = np.full(1024, -1, np.int64)
_SUM_START = 1 << 12
_SK = np.full(_SUM_START, -1, np.int64)
_SV = np.zeros(_SUM_START, np.int64)
_SC = 0
# the intern table for the kernels: hash of a game's sorted option lists -> id (every game
# pushed to _T is entered; _IC counts them)
_IK = np.full(1 << 12, -1, np.int64)
_IV = np.zeros(1 << 12, np.int64)
_IC = 0


def _tab_push(g: int, lt: tuple[int, ...], rt: tuple[int, ...], tag: Nus | None,
              sym: bool = False) -> None:
    """Mirror game g (just interned) into the kernel arrays: room is made now, the row
    itself is written by :func:`_flush`, in bulk, before the next kernel call. A game kept
    as a tag, or with such a follower (``sym``), gets a row without options that the
    kernels never read (its option counts are -1, so the kernels' intern table never
    matches it)."""
    global _T, _X, _O, _ofill, _fast, _STK, _RSTK, _RS, _RV, _NEG
    if g >= _T.shape[0]:
        T = np.zeros((2 * _T.shape[0], 8), np.int64)
        T[:g] = _T[:g]
        X = np.zeros(2 * _X.shape[0], np.float64)
        X[:g] = _X[:g]
        _T, _X = T, X
        _RS = np.concatenate((_RS, np.zeros_like(_RS)))   # stamps 0 are never current
        _RV = np.concatenate((_RV, np.zeros_like(_RV)))
        _NEG = np.concatenate((_NEG, np.full_like(_NEG, -1)))
    if sym:
        _pending.append((_ofill, (), (), 0, 0, 0, 0.0, 1))
        return
    if 2 * _birth[g] + 8 > _STK.shape[0]:
        _STK = np.zeros((4 * _birth[g] + 16, 4), np.int64)
        _RSTK = np.zeros((4 * _birth[g] + 16, 4), np.int64)
    need = _ofill + len(lt) + len(rt)
    if need > _O.shape[0]:
        opts = np.zeros(max(2 * _O.shape[0], need), np.int64)
        opts[:_ofill] = _O[:_ofill]
        _O = opts
    kind = u = n = 0
    xf = 0.0
    if tag is not None:
        x, u, n = tag
        kind = 1 if u == 0 and n == 0 else 2
        xf = float(x)
        if xf != x or abs(u) >= 1 << 62 or n >= 1 << 62:
            _fast = False
            _pending.clear()
            return
    _pending.append((_ofill, lt, rt, kind, u, n, xf, 0))
    _ofill = need


# games interned but not yet written to _T/_X/_O: (option offset, left, right, kind, ups,
# nim, x as float), for the ids _IC, _IC + 1, ... in order
_pending: list[tuple] = []


def _flush() -> None:
    """Write the pending games into the kernel arrays and the kernels' intern table (every
    kernel call on the table is preceded by this)."""
    global _IK, _IV, _IC
    if not _pending or not _fast:
        return
    g0 = _IC
    g1 = g0 + len(_pending)
    rows = _pending
    _T[g0:g1] = [(f, -1, f, -1, 0, 0, 0, 1) if sym else
                 (f, len(lt), f + len(lt), len(rt), kind, u, n, 0)
                 for f, lt, rt, kind, u, n, _, sym in rows]
    _X[g0:g1] = [r[6] for r in rows]
    f0 = rows[0][0]
    last = rows[-1]
    _O[f0:last[0] + len(last[1]) + len(last[2])] = [x for r in rows for x in r[1] + r[2]]
    _pending.clear()
    if 2 * g1 > _IK.shape[0]:
        size = _IK.shape[0]
        while 2 * g1 > size:
            size *= 4
        _IK = np.full(size, -1, np.int64)
        _IV = np.zeros(size, np.int64)
        _k.intern_put(_T, _O, _IK, _IV, 0, g1)
    else:
        _k.intern_put(_T, _O, _IK, _IV, g0, g1)
    _IC = g1


def _memo_room() -> None:
    """Grow the kernels' comparison memo when it is half full."""
    global _MK, _MV
    size = _MK.shape[0]
    if _MC[0] * 2 > size and size < _MEMO_MAX:
        _MK, _MV = _k.rehash(_MK, _MV, size * 4)


def table_size() -> int:
    """How many distinct canonical games have been built so far.

    >>> table_size() > 0
    True
    """
    return len(_left)


def clear_caches() -> None:
    """Forget memoised sums, negatives, comparisons and canonicalisations (the games
    themselves stay: ids and objects remain valid). For long runs short of memory.

    >>> clear_caches(); (UP + UP).compare(UP)
    '>'
    """
    global _MK, _MV, _SK, _SV, _SC
    _le_memo.clear()
    _MK = np.full(_MEMO_START, -1, np.int64)
    _MV = np.zeros(_MEMO_START, np.int8)
    _MC[0] = 0
    _NEG[:] = -1
    _SK = np.full(_SUM_START, -1, np.int64)
    _SV = np.zeros(_SUM_START, np.int64)
    _SC = 0
    _sum_memo.clear()
    _neg_memo.clear()
    _canon_memo.clear()
    _profile_memo.clear()


def _is_number_id(g: int) -> bool:
    t = _nus[g]
    return t is not None and t[1] == 0 and t[2] == 0


def _detect_nus(L: tuple[int, ...], R: tuple[int, ...]) -> Nus | None:
    """The nus tag of the canonical game {L | R}, or None (see the module docstring)."""
    if not L and not R:
        return (Fraction(0), 0, 0)
    kind = _kind
    for i in L:
        if not kind[i]:
            return None
    for i in R:
        if not kind[i]:
            return None
    tl = [_nus[i] for i in L]
    tr = [_nus[i] for i in R]
    nl, nr = len(L), len(R)
    if nl == 1 and nr == 0:
        x, u, n = tl[0]
        if u == 0 and n == 0 and x.denominator == 1 and x >= 0:
            return (x + 1, 0, 0)
        return None
    if nl == 0 and nr == 1:
        x, u, n = tr[0]
        if u == 0 and n == 0 and x.denominator == 1 and x <= 0:
            return (x - 1, 0, 0)
        return None
    if nl == 0 or nr == 0:
        return None
    if nl == 1 and nr == 1:
        (a, ua, na), (b, ub, nb) = tl[0], tr[0]
        if ua == na == ub == nb == 0:
            if a < b:
                return ((a + b) / 2, 0, 0)
            return (a, 0, 1) if a == b else None
        if a != b:
            return None
        if ua == 0 and na == 0 and ub >= 0 and (ub, nb) != (0, 0):
            return (a, ub + 1, nb ^ 1)
        if ub == 0 and nb == 0 and ua <= 0 and (ua, na) != (0, 0):
            return (a, ua - 1, na ^ 1)
        return None
    x = tl[0][0]
    if any(t[0] != x for t in tl) or any(t[0] != x for t in tr):
        return None
    if L == R and all(t[1] == 0 for t in tl):
        nims = sorted(t[2] for t in tl)
        if nims == list(range(nl)):
            return (x, 0, nl)
        return None
    if nl == 2 and nr == 1 and sorted((t[1], t[2]) for t in tl) == [(0, 0), (0, 1)] \
            and (tr[0][1], tr[0][2]) == (0, 0):
        return (x, 1, 1)
    if nl == 1 and nr == 2 and sorted((t[1], t[2]) for t in tr) == [(0, 0), (0, 1)] \
            and (tl[0][1], tl[0][2]) == (0, 0):
        return (x, -1, 1)
    return None


def _table_room() -> None:
    if len(_left) >= MAX_TABLE:
        raise UnsupportedError(f"the table of canonical games is full: it holds at most "
                               f"{MAX_TABLE:,} distinct games (cgt.game.MAX_TABLE)")


def _intern(L: Iterable[int], R: Iterable[int]) -> int:
    """The id of the game whose options, already canonical and free of dominated and
    reversible options, are L and R (creating it if new). A number-up-star already known
    by its tag keeps its id (the same game must have one id)."""
    key = (frozenset(L), frozenset(R))
    g = _index.get(key)
    if g is not None:
        return g
    lt = tuple(sorted(key[0]))
    rt = tuple(sorted(key[1]))
    tag = _detect_nus(lt, rt)
    if tag is not None:
        g = _nus_index.get(tag)
        if g is not None:
            _index[key] = g
            return g
    _tick()
    _table_room()
    g = len(_left)
    _left.append(lt)
    _right.append(rt)
    _nus.append(tag)
    _kind.append(0 if tag is None else 1 if tag[1] == 0 and tag[2] == 0 else 2)
    _birth.append(1 + max((_birth[x] for x in lt + rt), default=-1))
    _stop_pairs.append(None)      # found when first asked for (Fractions are slow)
    sym = any(_sym[x] for x in lt) or any(_sym[x] for x in rt)
    _sym.append(sym)
    if _fast:
        _tab_push(g, lt, rt, tag, sym)
    obj = object.__new__(Game)
    obj._id = g
    _objects.append(obj)
    _index[key] = g
    if tag is not None:
        _nus_index[tag] = g
    return g


def _intern_tag(tag: Nus) -> int:
    """A new number-up-star kept as its tag: O(1) memory whatever its size; its options
    are listed by :func:`_opts` when an operation needs them."""
    _table_room()
    x, u, n = tag
    g = len(_left)
    _left.append(None)            # type: ignore[arg-type]
    _right.append(None)           # type: ignore[arg-type]
    _nus.append(tag)
    _kind.append(1 if u == 0 and n == 0 else 2)
    _birth.append(_nus_birthday(x, u, n))
    _stop_pairs.append((x, x))
    _sym.append(True)
    if _fast:
        _tab_push(g, (), (), tag, True)
    obj = object.__new__(Game)
    obj._id = g
    _objects.append(obj)
    _nus_index[tag] = g
    return g


def _nus_id(x: Fraction, u: int = 0, n: int = 0) -> int:
    """The id of x + u.^ + *n: built from its canonical options when small (see
    EXPLICIT_INTEGER and the others), else kept as its tag."""
    tag = (x, u, n)
    g = _nus_index.get(tag)
    if g is not None:
        return g
    if x.denominator & (x.denominator - 1):
        raise UnsupportedError(f"{x} is not a dyadic rational, so it is not a short game")
    if not _is_explicit(x, u, n):
        return _intern_tag(tag)
    if u == 0 and n == 0:
        if x.denominator == 1:
            # integers: build up from the nearest one already known, iteratively
            if (Fraction(0), 0, 0) not in _nus_index:
                _intern((), ())
            k = int(x)
            step = 1 if k > 0 else -1
            j = k
            while (Fraction(j), 0, 0) not in _nus_index:
                j -= step
            while j != k:
                prev = _nus_index[(Fraction(j), 0, 0)]
                j += step
                _intern((prev,), ()) if step > 0 else _intern((), (prev,))
            return _nus_index[tag]
        e = Fraction(1, x.denominator)
        return _intern((_nus_id(x - e),), (_nus_id(x + e),))
    if u == 0:
        # x + *n: build the nimbers below it first, iteratively
        k = n
        while k > 1 and (x, 0, k - 1) not in _nus_index:
            k -= 1
        for m in range(k, n + 1):
            opts = [_nus_id(x, 0, j) for j in range(m)]
            g = _intern(opts, opts)
        return g
    if u == 1 and n == 1:
        return _intern((_nus_id(x), _nus_id(x, 0, 1)), (_nus_id(x),))
    if u == -1 and n == 1:
        return _intern((_nus_id(x),), (_nus_id(x), _nus_id(x, 0, 1)))
    if u > 0:
        k = u
        while k > 1 and (x, k - 1, n ^ ((u - k + 1) & 1)) not in _nus_index:
            k -= 1
        for v in range(k, u + 1):
            m = n ^ ((u - v) & 1)
            if v == 1 and m == 1:
                g = _nus_id(x, 1, 1)
            else:
                g = _intern((_nus_id(x),), (_nus_id(x, v - 1, m ^ 1),))
        return g
    k = u
    while k < -1 and (x, k + 1, n ^ ((k + 1 - u) & 1)) not in _nus_index:
        k += 1
    for v in range(k, u - 1, -1):
        m = n ^ ((v - u) & 1)
        if v == -1 and m == 1:
            g = _nus_id(x, -1, 1)
        else:
            g = _intern((_nus_id(x, v + 1, m ^ 1),), (_nus_id(x),))
    return g


def _nus_option_tags(tag: Nus) -> tuple[list[Nus], list[Nus]] | None:
    """The canonical options of x + u.^ + *n as tags (Siegel II.4; the module docstring),
    or None for x + *n with n >= 1 (a family: x + *k for every k < n, both sides)."""
    x, u, n = tag
    if u == 0 and n == 0:
        d = x.denominator
        if d == 1:
            if x > 0:
                return [(x - 1, 0, 0)], []
            if x < 0:
                return [], [(x + 1, 0, 0)]
            return [], []
        e = Fraction(1, d)
        return [(x - e, 0, 0)], [(x + e, 0, 0)]
    if u == 0:
        return None
    if u == 1 and n == 1:
        return [(x, 0, 0), (x, 0, 1)], [(x, 0, 0)]
    if u == -1 and n == 1:
        return [(x, 0, 0)], [(x, 0, 0), (x, 0, 1)]
    if u > 0:
        return [(x, 0, 0)], [(x, u - 1, n ^ 1)]
    return [(x, u + 1, n ^ 1)], [(x, 0, 0)]


def _too_many_options(g: int, count: int) -> UnsupportedError:
    from .notation import format_game
    return UnsupportedError(
        f"the game {format_game(_objects[g])} would need its {count:,} options listed, "
        f"more than the limit of {MAX_OPTIONS:,} (cgt.game.MAX_OPTIONS); number-up-stars "
        f"alone and their sums are answered from their tags")


def _opts(g: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The canonical (left, right) option ids of game g, listing them for a game kept as
    its tag (x + *n: at most MAX_OPTIONS, else refused with one sentence)."""
    L = _left[g]
    if L is not None:
        return L, _right[g]
    tag = _nus[g]
    tags = _nus_option_tags(tag)
    if tags is None:
        x, _, n = tag
        if n > MAX_OPTIONS:
            raise _too_many_options(g, n)
        fam = _family(x, n)
        return fam, fam
    return tuple(_nus_id(*t) for t in tags[0]), tuple(_nus_id(*t) for t in tags[1])


def _sum_room(g: int, other: str = "") -> None:
    """Refuse work that expands a tag-kept number-up-star past MAX_SUM_NIMBER or MAX_SUM_UPS."""
    if _left[g] is not None:
        return
    _, u, n = _nus[g]
    if abs(u) > MAX_SUM_UPS or n > MAX_SUM_NIMBER:
        from .notation import format_game
        what, cap, name = ("nimbers", MAX_SUM_NIMBER, "NIMBER") if n > MAX_SUM_NIMBER \
            else ("up-multiples", MAX_SUM_UPS, "UPS")
        raise UnsupportedError(
            f"{other or 'this computation'} would expand {format_game(_objects[g])} "
            f"option by option, and {what} past {cap:,} (cgt.game.MAX_SUM_{name}) are "
            f"only added to number-up-stars")


def _family(x: Fraction, n: int) -> tuple[int, ...]:
    """The ids of x, x + *, ..., x + *(n-1)."""
    out = []
    for k in range(n):
        if not k & 1023:
            _tick()
        out.append(_nus_id(x, 0, k))
    return tuple(out)


def _simplest_between(a: Fraction | None, b: Fraction | None) -> Fraction:
    """The simplest number x with a < x < b (None: unbounded); requires a < b."""
    if (a is None or a < 0) and (b is None or b > 0):
        return Fraction(0)
    if b is None or (a is not None and a >= 0):
        k = a.numerator // a.denominator + 1          # least integer > a
        if b is None or k < b:
            return Fraction(k)
    else:
        k = -((-b.numerator) // b.denominator) - 1     # greatest integer < b
        if a is None or k > a:
            return Fraction(k)
    j = 1
    while True:
        m = (a * 2 ** j).__floor__() + 1
        x = Fraction(m, 2 ** j)
        if x < b:
            return x
        j += 1


# --- comparison -------------------------------------------------------------------------

def _nus_le(s: Nus, t: Nus) -> bool:
    if s[0] != t[0]:
        return s[0] < t[0]
    a, b = s[1], t[1]
    if a < b - 1:
        return True
    if a == b - 1:
        return (s[2] ^ t[2]) != 1
    return a == b and s[2] == t[2]


def _le(g: int, h: int) -> bool:
    """G <= H for canonical ids (the kernel while it is exact and no tag-kept game is
    involved, else :func:`_le_plain`)."""
    if g == h:
        return True
    s, t = _nus[g], _nus[h]
    if s is not None and t is not None:
        return _nus_le(s, t)
    if _fast and not (_sym[g] or _sym[h]):
        if _pending:
            _flush()
        _tick()
        r = _k.le(_T, _X, _O, _MK, _MV, _MC, _STK, g, h)
        if _MC[0] * 2 > _MK.shape[0]:
            _memo_room()
        return r
    return _le_plain(g, h)


_depth = 0


def _too_deep() -> UnsupportedError:
    return UnsupportedError(f"the computation recurses deeper than {MAX_DEPTH:,} levels "
                            f"(cgt.game.MAX_DEPTH) along the game tree")


def _le_plain(g: int, h: int) -> bool:
    """G <= H for canonical ids, in plain Python: the recursive definition with number
    avoidance, memoised by id pair (the reference the kernel is tested against). A nimber
    family member x + *n kept as its tag is compared through the profile of the other
    game (:func:`_profile`), never through its n options."""
    global _depth
    if g == h:
        return True
    s, t = _nus[g], _nus[h]
    if s is not None and t is not None:
        return _nus_le(s, t)
    key = (g << _SHIFT) | h
    r = _le_memo.get(key)
    if r is not None:
        return r
    _tick()
    if s is not None and s[1] == 0 and s[2] and _left[g] is None:
        return _profile_at(h, s[0], s[2])[1]          # x + *n <= H
    if t is not None and t[1] == 0 and t[2] and _left[h] is None:
        return _profile_at(g, t[0], t[2])[0]          # G <= x + *n
    _depth += 1
    try:
        if _depth > MAX_DEPTH:
            raise _too_deep()
        result = True
        # number avoidance: a number's options need not be tried against a non-number
        if not (s is not None and s[1] == 0 and s[2] == 0):
            for gl in _opts(g)[0]:
                if _le_plain(h, gl):
                    result = False
                    break
        if result and not (t is not None and t[1] == 0 and t[2] == 0):
            for hr in _opts(h)[1]:
                if _le_plain(hr, g):
                    result = False
                    break
    finally:
        _depth -= 1
    _le_memo[key] = result
    return result


# --- comparisons with a whole nimber family --------------------------------------------
# For a game H and a number x, the profile of H is k -> (H <= x + *k, x + *k <= H) for every
# k >= 0. It is piecewise constant with few pieces, so comparisons with x + *n for huge n
# never list n options. For k >= 1, x + *k has the options x + *j (j < k) on both sides,
# so by the definition of <=
#   H <= x + *k  iff  no H^L >= x + *k  and no j < k with x + *j <= H,
#   x + *k <= H  iff  no H^R <= x + *k  and no j < k with H <= x + *j.
# On a stretch of k where the comparisons with H's options are constant, these settle
# after at most three steps (the "some j < k" flags only ever turn on), and a
# number-up-star option y + v.^ + *m compares differently with x + *k only at k = m or
# m xor 1. So the profile of H follows from those of its options, piece by piece.

_Profile = tuple[list[int], list[bool], list[bool]]


def _nus_profile(tag: Nus, x: Fraction) -> _Profile:
    y, v, m = tag
    c = m & ~1
    starts = [0] if y != x else sorted({0, c, c + 1, c + 2})
    return _compress(starts, [_nus_le(tag, (x, 0, k)) for k in starts],
                     [_nus_le((x, 0, k), tag) for k in starts])


def _compress(starts: list[int], les: list[bool], ges: list[bool]) -> _Profile:
    s2, l2, g2 = [starts[0]], [les[0]], [ges[0]]
    for k, a, b in zip(starts[1:], les[1:], ges[1:], strict=True):
        if a != l2[-1] or b != g2[-1]:
            s2.append(k)
            l2.append(a)
            g2.append(b)
    return s2, l2, g2


def _lookup(p: _Profile, k: int) -> tuple[bool, bool]:
    i = bisect_right(p[0], k) - 1
    return p[1][i], p[2][i]


def _combine(left: list[_Profile], right: list[_Profile], at0: tuple[bool, bool]) -> _Profile:
    """The profile of {left options | right options} from its options' profiles and its
    comparisons (G <= x, x <= G) with x itself (k = 0)."""
    # a sweep over the pieces: how many left options are >= x + *k, right ones <= it
    events: dict[int, list[int]] = {1: [0, 0]}
    for side, profiles, col in ((0, left, 2), (1, right, 1)):
        for q in profiles:
            before = False
            for k, v in zip(q[0], q[col], strict=True):
                if v != before:
                    events.setdefault(k, [0, 0])[side] += 1 if v else -1
                    before = v
    points = sorted(events)
    starts, les, ges = [0], [at0[0]], [at0[1]]
    some_le, some_ge = at0
    count_l = count_r = 0
    for i, p in enumerate(points):
        dl, dr = events[p]
        count_l += dl
        count_r += dr
        if p == 0:
            continue
        end = points[i + 1] if i + 1 < len(points) else None
        a = count_l == 0                # no G^L >= x + *k
        b = count_r == 0                # no G^R <= x + *k
        k = p
        while end is None or k < end:
            le, ge = a and not some_ge, b and not some_le
            starts.append(k)
            les.append(le)
            ges.append(ge)
            if (some_le or le) == some_le and (some_ge or ge) == some_ge:
                break                   # a fixed point: the same up to the next piece
            some_le, some_ge = some_le or le, some_ge or ge
            k += 1
    return _compress(starts, les, ges)


def _profile(h: int, x: Fraction) -> _Profile:
    """The profile of canonical game H against the family x + *k (see above)."""
    key = (h, x)
    p = _profile_memo.get(key)
    if p is not None:
        return p
    _tick()
    t = _nus[h]
    if t is not None:
        p = _nus_profile(t, x)
    else:
        global _depth
        _depth += 1
        try:
            if _depth > MAX_DEPTH:
                raise _too_deep()
            L, R = _opts(h)
            xid = _nus_id(x)
            p = _combine([_profile(a, x) for a in L], [_profile(b, x) for b in R],
                         (_le(h, xid), _le(xid, h)))
        finally:
            _depth -= 1
    _profile_memo[key] = p
    return p


def _profile_at(h: int, x: Fraction, n: int) -> tuple[bool, bool]:
    """(H <= x + *n, x + *n <= H)."""
    return _lookup(_profile(h, x), n)


def _first(p: _Profile, which: int, below: int) -> int | None:
    """The least k < below where the profile's component ``which`` (1 for <=, 2 for >=)
    holds, or None."""
    for i, k in enumerate(p[0]):
        if k >= below:
            return None
        if p[which][i]:
            return k
    return None


# --- canonical simplification -----------------------------------------------------------

def _undominated(opts: set[int], left: bool) -> set[int]:  # plain Python reference
    """The options not dominated by another (for Left: not <= another; for Right: not >=).

    Options are distinct canonical games, so domination is strict and the maximal
    (minimal) ones are found in one pass: a newcomer is dropped if a kept option dominates
    it, else it evicts the kept options it dominates."""
    if len(opts) < 2:
        return opts
    # many number-up-stars (a nimber family bypassed into a game): drop the dominated ones
    # in linear time; the rest are pairwise incomparable and only meet the other options
    # (a number-up-star dominated by a kept other option dominates no other kept one)
    if len(opts) > 8:
        opts = _undominated_nus(opts, left)
        rest = _pairwise_undominated([a for a in opts if _nus[a] is None], left)
        out = []
        for a in opts:
            if _nus[a] is None:
                continue
            _tick()
            if any(_le_plain(a, k) if left else _le_plain(k, a) for k in rest):
                continue
            rest = [k for k in rest if not (_le_plain(k, a) if left else _le_plain(a, k))]
            out.append(a)
        return set(rest) | set(out)
    return set(_pairwise_undominated(list(opts), left))


def _pairwise_undominated(opts: list[int], left: bool) -> list[int]:
    le = _le_plain
    kept: list[int] = []
    for a in opts:
        _tick()
        dominated = False
        if left:
            for k in kept:
                if le(a, k):
                    dominated = True
                    break
            if not dominated:
                kept = [k for k in kept if not le(k, a)]
        else:
            for k in kept:
                if le(k, a):
                    dominated = True
                    break
            if not dominated:
                kept = [k for k in kept if not le(a, k)]
        if not dominated:
            kept.append(a)
    return kept


def _undominated_nus(opts: set[int], left: bool) -> set[int]:
    """``opts`` less the number-up-stars dominated by another number-up-star among them,
    in linear time (then :func:`_undominated` compares what is left pairwise). For Left:
    a larger number part dominates; with the largest x, let U be the largest u: every
    y + u.^ + *n with u <= U - 2 is dominated, those with u = U are incomparable, and one
    with u = U - 1 and nimber n is dominated unless level U is the single x + U.^ +
    *(n xor 1) (by the comparison of Siegel II.4, :func:`_nus_le`). Right's mirror."""
    tags = [(i, _nus[i]) for i in opts if _nus[i] is not None]
    if len(tags) < 2:
        return opts
    sign = 1 if left else -1
    best = max(t[0] for _, t in tags) if left else min(t[0] for _, t in tags)
    top = [(i, sign * t[1], t[2]) for i, t in tags if t[0] == best]
    U = max(u for _, u, _ in top)
    level = [(i, n) for i, u, n in top if u == U]
    keep = {i for i, _ in level}
    if len(level) == 1:
        m = level[0][1]
        keep.update(i for i, u, n in top if u == U - 1 and n == m ^ 1)
    return {i for i in opts if _nus[i] is None} | keep


class _RawGame:
    """Comparisons of canonical games with G = {GL | GR}, a form not yet canonical (a
    nimber family member x + *n kept as its tag is compared through G's profile)."""

    __slots__ = ("GL", "GR", "memo", "profiles")

    def __init__(self, GL: tuple[int, ...], GR: tuple[int, ...]) -> None:
        self.GL, self.GR = GL, GR
        self.memo: dict[tuple[int, int], bool] = {}
        self.profiles: dict[Fraction, _Profile] = {}

    def profile(self, x: Fraction) -> _Profile:
        p = self.profiles.get(x)
        if p is None:
            xid = _nus_id(x)
            p = _combine([_profile(a, x) for a in self.GL], [_profile(b, x) for b in self.GR],
                         (self.le(xid), self.ge(xid)))
            self.profiles[x] = p
        return p

    def _family(self, x: int) -> tuple[Fraction, int] | None:
        t = _nus[x]
        if t is not None and t[1] == 0 and t[2] and _left[x] is None:
            return t[0], t[2]
        return None

    def ge(self, x: int) -> bool:
        """X <= G."""
        return self._compare(0, x)

    def le(self, x: int) -> bool:
        """G <= X."""
        return self._compare(1, x)

    def _compare(self, side: int, x: int) -> bool:
        """X <= G (side 0) or G <= X (side 1), memoised; the two sides mirror each other
        by the definition of <=."""
        global _depth
        k = (side, x)
        r = self.memo.get(k)
        if r is None:
            _tick()
            fam = self._family(x)
            if fam is not None:
                return _lookup(self.profile(fam[0]), fam[1])[1 - side]
            _depth += 1
            try:
                if _depth > MAX_DEPTH:
                    raise _too_deep()
                if side == 0:
                    r = not any(self.le(xl) for xl in _opts(x)[0]) and \
                        not any(_le_plain(gr, x) for gr in self.GR)
                else:
                    r = not any(_le_plain(x, gl) for gl in self.GL) and \
                        not any(self.ge(xr) for xr in _opts(x)[1])
            finally:
                _depth -= 1
            self.memo[k] = r
        return r

    def reverse(self, a: int, left: bool) -> tuple[int, ...] | None:
        """For Left's option A (``left``): the left options of an A^R <= G, or None when A
        is not reversible; Right's mirror: the right options of a B^L >= G."""
        fam = self._family(a)
        if fam is not None:
            x, n = fam
            # the least k < n with x + *k <= G (Left) or G <= x + *k (Right): the
            # replacement is x + *j for j < k
            k = _first(self.profile(x), 2 if left else 1, n)
            if k is None:
                return None
            if k > MAX_OPTIONS:
                raise _too_many_options(_nus_id(x, 0, k), k)
            return _family(x, k) if k else _opts(_nus_id(x))[0 if left else 1]
        if left:
            for ar in _opts(a)[1]:
                if self.ge(ar):
                    return self._block(ar, True)
        else:
            for bl in _opts(a)[0]:
                if self.le(bl):
                    return self._block(bl, False)
        return None

    def _block(self, r: int, left: bool) -> tuple[int, ...]:
        """The options replacing an option reversed through R (Left: R's left options).
        For R = x + *k kept as its tag these are x + *j, j < k; each with some x + *i <= G
        below it (i < j) reverses in turn, through the least such i = k0, into x + *h for
        h < k0, already among them: both bypasses at once leave x + *j for j <= k0 (the
        same value, fewer options). Right's mirror (G <= x + *i)."""
        fam = self._family(r)
        if fam is None:
            return _opts(r)[0 if left else 1]
        x, k = fam
        k0 = _first(self.profile(x), 2 if left else 1, k)
        size = k if k0 is None else k0 + 1
        if size > MAX_OPTIONS:
            raise _HugeBlock(r, x, size)
        return _family(x, size)


class _HugeBlock(Exception):
    """A bypass would list x + *j for every j < size, past MAX_OPTIONS (caught by
    :func:`_simplify_plain`: {that block | the same block} is x + *size, anything else
    is refused)."""

    def __init__(self, r: int, x: Fraction, size: int) -> None:
        super().__init__(r, x, size)
        self.r, self.x, self.size = r, x, size


def _canon(L: Iterable[int], R: Iterable[int]) -> int:
    """The canonical id of {L | R} for canonical option ids (any form, any multiplicity)."""
    key = (frozenset(L), frozenset(R))
    g = _index.get(key)                     # already canonical
    if g is None:
        g = _canon_memo.get(key)
    if g is None:
        g = _canon_uncached(set(key[0]), set(key[1]))
        _canon_memo[key] = g
    return g


def _canon_uncached(Ls: set[int], Rs: set[int]) -> int:
    kind = _kind
    _tick()
    # Clobber's options are never numbers but 0: look at one option before all of them
    first = next(iter(Ls or Rs), None)
    if (first is None or kind[first] == 1) and all(kind[i] == 1 for i in Ls) \
            and all(kind[i] == 1 for i in Rs):
        a = max((_nus[i][0] for i in Ls), default=None)
        b = min((_nus[i][0] for i in Rs), default=None)
        if a is None or b is None or a < b:
            return _nus_id(_simplest_between(a, b))
        return _intern((_nus_id(a),), (_nus_id(b),))
    sym = _sym.__getitem__
    if _fast and not any(map(sym, Ls)) and not any(map(sym, Rs)):
        if _pending:
            _flush()
        L, R = _k.simplify(np.fromiter(Ls, np.int64, len(Ls)), np.fromiter(Rs, np.int64, len(Rs)),
                           _T, _X, _O, _MK, _MV, _MC, _STK, _RSTK, _RS, _RV, _STAMP)
        if _MC[0] * 2 > _MK.shape[0]:
            _memo_room()
        return _intern(L.tolist(), R.tolist())
    return _simplify_plain(Ls, Rs)


def _simplify_plain(Ls: set[int], Rs: set[int]) -> int:
    """Canonical simplification in plain Python (the reference the kernel is tested
    against): remove dominated options, bypass reversible ones, until neither applies."""
    while True:
        _tick()
        Ls = _undominated(Ls, True)
        Rs = _undominated(Rs, False)
        if len(Ls) > MAX_OPTIONS or len(Rs) > MAX_OPTIONS:
            raise UnsupportedError(f"a game with {max(len(Ls), len(Rs)):,} options a side "
                                   f"is more than the limit of {MAX_OPTIONS:,} "
                                   f"(cgt.game.MAX_OPTIONS)")
        GL, GR = tuple(Ls), tuple(Rs)
        raw = _RawGame(GL, GR)
        changed = False
        blocks: list[tuple[bool, _HugeBlock]] = []
        newL: set[int] = set()
        newR: set[int] = set()
        for left, opts, new in ((True, GL, newL), (False, GR, newR)):
            for a in opts:
                try:
                    rep = raw.reverse(a, left)
                except _HugeBlock as block:
                    blocks.append((left, block))
                    continue
                if rep is None:
                    new.add(a)
                else:
                    new.update(rep)            # bypass: replace A by A^RL (A^LR on the right)
                    changed = True
        if blocks:
            # {x, x*, ..., x*(n-1) | the same} is x + *n: the one huge form with a tag
            (s1, b1), (s2, b2) = blocks[0], blocks[-1]
            if len(blocks) == 2 and s1 and not s2 and not newL and not newR and \
                    (b1.x, b1.size) == (b2.x, b2.size):
                return _nus_id(b1.x, 0, b1.size)
            raise _too_many_options(b1.r, b1.size)
        Ls, Rs = newL, newR
        if not changed:
            return _intern(Ls, Rs)


# --- sum and negation -------------------------------------------------------------------

def _neg(g: int) -> int:
    # memoised for the special forms too: their tags hold Fractions, slow to hash
    r = _neg_memo.get(g)
    if r is None:
        t = _nus[g]
        if t is not None:
            r = _nus_id(-t[0], -t[1], t[2])
        else:
            r = _intern([_neg(x) for x in _right[g]], [_neg(x) for x in _left[g]])
        _neg_memo[g] = r
        _neg_memo[r] = g
        if _fast:
            _NEG[g] = r
            _NEG[r] = g
    return r


def _sum_found(g: int, h: int, r: int) -> None:
    """Record G + H = R for the kernels (see _NEG above)."""
    global _SK, _SV, _SC
    if 2 * (_SC + 1) > _SK.shape[0]:
        _SK, _SV = _k.sum_rehash(_SK, _SV, 4 * _SK.shape[0])
    _k.sum_put(_SK, _SV, g, h, r)
    _SC += 1


def _add(g: int, h: int) -> int:
    if g > h:
        g, h = h, g
    key = (g << _SHIFT) | h
    r = _sum_memo.get(key)
    if r is not None:
        return r
    s, t = _nus[g], _nus[h]
    if s is not None and t is not None:
        r = _nus_id(s[0] + t[0], s[1] + t[1], s[2] ^ t[2])
        _sum_memo[key] = r
        if _fast:
            _sum_found(g, h, r)
        return r
    gnum = s is not None and s[1] == 0 and s[2] == 0
    hnum = t is not None and t[1] == 0 and t[2] == 0
    if gnum or hnum:
        # number translation (Siegel II.3): x + G = {x + G^L | x + G^R} for G not a number,
        # and translating a canonical form by a number leaves it canonical
        x, other = (g, h) if gnum else (h, g)
        if _nus[x][0] == 0:
            return other
        _tick()
        Lo, Ro = _opts(other)
        r = _intern([_add(x, y) for y in Lo], [_add(x, y) for y in Ro])
        _sum_memo[key] = r
        if _fast:
            _sum_found(g, h, r)
        return r
    global _depth
    _tick()
    _depth += 1
    try:
        if _depth > MAX_DEPTH:
            raise _too_deep()
        Lg, Lh = _left[g], _left[h]
        if Lg is None or Lh is None:
            _sum_room(g, "adding a game that is not a number-up-star")
            _sum_room(h, "adding a game that is not a number-up-star")
            Lg, Rg = _opts(g)
            Lh, Rh = _opts(h)
        else:
            Rg, Rh = _right[g], _right[h]
        L = [_add(x, h) for x in Lg]
        R = [_add(x, h) for x in Rg]
        L.extend(_add(g, x) for x in Lh)
        R.extend(_add(g, x) for x in Rh)
        r = _canon(L, R)
    finally:
        _depth -= 1
    _sum_memo[key] = r
    if _fast:
        _sum_found(g, h, r)
    return r


# --- derived quantities -----------------------------------------------------------------

def _birthday_of(g: int) -> int:
    return _birth[g]


def _stops_of(g: int) -> tuple[Fraction, Fraction]:
    """(left stop, right stop): x for a number-up-star x + u.^ + *n, else (the greatest
    right stop of a left option, the least left stop of a right option) (Siegel II.3)."""
    r = _stop_pairs[g]
    if r is None:
        # an explicit stack: the followers' stops first (a game may be born on day 1000)
        todo = [g]
        while todo:
            x = todo[-1]
            if _stop_pairs[x] is not None:
                todo.pop()
                continue
            t = _nus[x]
            if t is not None:
                _stop_pairs[x] = (t[0], t[0])
                todo.pop()
                continue
            missing = [y for y in _left[x] + _right[x] if _stop_pairs[y] is None]
            if missing:
                todo.extend(missing)
                continue
            _stop_pairs[x] = (max(_stop_pairs[y][1] for y in _left[x]),
                              min(_stop_pairs[y][0] for y in _right[x]))
            todo.pop()
        r = _stop_pairs[g]
    return r


GameLike = Union["Game", int, Fraction, str]


def _id_of(value: GameLike) -> int:
    if isinstance(value, Game):
        return value._id
    if isinstance(value, bool):
        raise TypeError("a bool is not a game")
    if isinstance(value, int):
        return _nus_id(Fraction(value))
    if isinstance(value, Fraction):
        return _nus_id(value)
    if isinstance(value, float):
        f = Fraction(value)
        return _nus_id(f)
    if isinstance(value, str):
        from .notation import parse
        return parse(value)._id
    raise TypeError(f"cannot make a game from {type(value).__name__}")


class Game:
    """A short partizan game in canonical form; equal games are the same object.

    ``Game(value)`` accepts a game, an integer, a dyadic Fraction or a CGSuite expression.
    Left is the player called x / Black / bLue, Right is o / White / Red.

    >>> g = Game("{0|^}")
    >>> g is Game("^^*"), str(g), g.outcome, g.atomic_weight()
    (True, '^^*', 'L', Game('2'))
    >>> Game(1) + Game("1/2") == Game("3/2"), Game("+-1").temperature
    (True, Fraction(1, 1))
    """

    __slots__ = ("_id", "__weakref__")
    _id: int

    def __new__(cls, value: GameLike = 0) -> Game:
        return _objects[_id_of(value)]

    @classmethod
    def from_options(cls, left: Iterable[GameLike], right: Iterable[GameLike]) -> Game:
        """The canonical game ``{left | right}``; options may be games, numbers or text.

        >>> print(Game.from_options([0, STAR], [0]), Game.from_options([1], [-1]))
        ^* +-1
        """
        return _objects[_canon([_id_of(x) for x in left], [_id_of(x) for x in right])]

    # --- structure ---
    @property
    def id(self) -> int:
        """The game's index in the global table (stable for the life of the process)."""
        return self._id

    @property
    def left_options(self) -> tuple[Game, ...]:
        """Left's options in canonical form (listed on demand for a number-up-star kept as
        its tag; ``*n`` has n of them, refused past MAX_OPTIONS).

        >>> [str(x) for x in Game("*3").left_options], Game("*99999999").birthday
        (['0', '*', '*2'], 99999999)
        """
        return tuple(_objects[x] for x in _opts(self._id)[0])

    @property
    def right_options(self) -> tuple[Game, ...]:
        """Right's options in canonical form."""
        return tuple(_objects[x] for x in _opts(self._id)[1])

    @property
    def nus(self) -> Nus | None:
        """``(x, u, n)`` when the game is x + u.^ + *n, else None.

        >>> Game("1/2v*3").nus
        (Fraction(1, 2), -1, 3)
        """
        return _nus[self._id]

    @property
    def is_number(self) -> bool:
        """Whether the game is a (dyadic rational) number."""
        return _is_number_id(self._id)

    @property
    def is_integer(self) -> bool:
        t = _nus[self._id]
        return t is not None and t[1] == 0 and t[2] == 0 and t[0].denominator == 1

    @property
    def is_nimber(self) -> bool:
        t = _nus[self._id]
        return t is not None and t[0] == 0 and t[1] == 0

    @property
    def is_infinitesimal(self) -> bool:
        """Whether both stops are 0 (0 itself counts)."""
        return _stops_of(self._id) == (0, 0)

    @property
    def is_all_small(self) -> bool:
        """Whether every follower with an option for one player has options for both
        (equivalently: every number among the followers is 0)."""
        from .infinitesimals import is_all_small
        return is_all_small(self)

    def number(self) -> Fraction:
        """The value as a Fraction; UnsupportedError when the game is not a number."""
        if not self.is_number:
            raise UnsupportedError(f"{self} is not a number")
        return _nus[self._id][0]

    @property
    def birthday(self) -> int:
        """The birthday (height of the canonical game tree).

        >>> Game("^").birthday, Game("3/4").birthday
        (2, 3)
        """
        return _birthday_of(self._id)

    # --- comparison ---
    def __le__(self, other: GameLike) -> bool:
        return _le(self._id, _id_of(other))

    def __ge__(self, other: GameLike) -> bool:
        return _le(_id_of(other), self._id)

    def __lt__(self, other: GameLike) -> bool:
        h = _id_of(other)
        return h != self._id and _le(self._id, h)

    def __gt__(self, other: GameLike) -> bool:
        h = _id_of(other)
        return h != self._id and _le(h, self._id)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Game):
            return other is self
        try:
            return _id_of(other) == self._id          # type: ignore[arg-type]
        except (TypeError, ValueError):
            return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return self._id

    def compare(self, other: GameLike) -> str:
        """One of ``'<' '>' '=' '||'`` (``||``: confused, incomparable).

        >>> Game("*").compare(0), Game("^").compare("*"), Game("1/2").compare(1)
        ('||', '||', '<')
        """
        h = _id_of(other)
        if h == self._id:
            return "="
        le, ge = _le(self._id, h), _le(h, self._id)
        return "<" if le else ">" if ge else "||"

    def fuzzy(self, other: GameLike) -> bool:
        """Whether the games are confused (``G || H``)."""
        return self.compare(other) == "||"

    @property
    def outcome(self) -> str:
        """``'L'`` (Left wins), ``'R'``, ``'N'`` (first player wins) or ``'P'`` (second).

        >>> [Game(x).outcome for x in ("1", "-1", "*", "0")]
        ['L', 'R', 'N', 'P']
        """
        zero = _nus_id(Fraction(0))
        ge0, le0 = _le(zero, self._id), _le(self._id, zero)
        return "P" if ge0 and le0 else "L" if ge0 else "R" if le0 else "N"

    # --- arithmetic ---
    def __add__(self, other: GameLike) -> Game:
        return _objects[_add(self._id, _id_of(other))]

    __radd__ = __add__

    def __neg__(self) -> Game:
        return _objects[_neg(self._id)]

    def __pos__(self) -> Game:
        return self

    def __sub__(self, other: GameLike) -> Game:
        return _objects[_add(self._id, _neg(_id_of(other)))]

    def __rsub__(self, other: GameLike) -> Game:
        return _objects[_add(_id_of(other), _neg(self._id))]

    def __mul__(self, n: int) -> Game:
        """``n`` copies of the game added together (n an integer, negative allowed)."""
        if not isinstance(n, int) or isinstance(n, bool):
            return NotImplemented
        g = self._id if n >= 0 else _neg(self._id)
        n = abs(n)
        result = _nus_id(Fraction(0))
        while n:
            if n & 1:
                result = _add(result, g)
            n >>= 1
            if n:
                g = _add(g, g)
        return _objects[result]

    __rmul__ = __mul__

    # --- stops, thermograph, infinitesimal analysis ---
    @property
    def left_stop(self) -> Fraction:
        """Left's stop: the number reached when Left moves first and both play optimally
        for the stopping position (Siegel II.3)."""
        return _stops_of(self._id)[0]

    @property
    def right_stop(self) -> Fraction:
        return _stops_of(self._id)[1]

    def thermograph(self):
        """The thermograph (see :mod:`clobbermania.cgt.thermograph`)."""
        from .thermograph import thermograph
        return thermograph(self)

    @property
    def temperature(self) -> Fraction:
        """The temperature; numbers m/2^j have -1/2^j, as in CGSuite."""
        from .thermograph import temperature
        return temperature(self)

    @property
    def mean(self) -> Fraction:
        """The mean value (the mast of the thermograph)."""
        from .thermograph import mean
        return mean(self)

    def atomic_weight(self) -> Game:
        """The atomic weight of an all-small game (see :mod:`.infinitesimals`)."""
        from .infinitesimals import atomic_weight
        return atomic_weight(self)

    def reduced(self) -> Game:
        """The reduced canonical form (the simplest game infinitesimally close)."""
        from .infinitesimals import reduced_canonical_form
        return reduced_canonical_form(self)

    # --- text ---
    def __str__(self) -> str:
        from .notation import format_game
        return format_game(self)

    def __repr__(self) -> str:
        return f"Game({str(self)!r})"

    def __reduce__(self):
        # pickling rebuilds the game from its text, which yields the same canonical object
        # (read without the caps on user input: the text is the engine's own)
        return (_unpickle, (str(self),))


def _unpickle(text: str) -> Game:
    from .notation import _parse
    return _parse(text, False)


def number(x: int | Fraction | str) -> Game:
    """The number x (a dyadic rational).

    >>> print(number(Fraction(-3, 4)), number(5))
    -3/4 5
    """
    return _objects[_nus_id(Fraction(x))]


def nimber(n: int) -> Game:
    """The nimber *n.

    >>> print(nimber(2) + nimber(3))
    *
    """
    if n < 0:
        raise UnsupportedError(f"a nimber is *n for n >= 0, not *{n}")
    return _objects[_nus_id(Fraction(0), 0, n)]


def nus(x: int | Fraction = 0, ups: int = 0, nim: int = 0) -> Game:
    """x + ups.^ + *nim.

    >>> print(nus(1, 2, 1), nus(0, -3, 0))
    1^^* v3
    """
    if nim < 0:
        raise UnsupportedError(f"a nimber is *n for n >= 0, not *{nim}")
    return _objects[_nus_id(Fraction(x), ups, nim)]


ZERO = number(0)
ONE = number(1)
STAR = nimber(1)
UP = nus(0, 1, 0)
DOWN = -UP


__all__ = ["Game", "number", "nimber", "nus", "table_size", "clear_caches", "time_limit",
           "TimeLimitReached", "ZERO", "ONE",
           "STAR", "UP",
           "DOWN"]
