"""Outcomes of sums of Clobber rows, searched the way MCGS searches sums (Folkersen, Müller,
Du, *MCGS*, University of Alberta): a sum of components, each small one replaced by its
canonical value.

A Clobber row (stones in one line, no holes inside) splits at every move: the moving
stone leaves a hole, so ``x`` at square i taking ``o`` at i + 1 leaves the parts
``s[:i]`` and ``x + s[i+2:]``. A position made of rows is therefore a *sum of components*
(Conway; Albert, Grossman, Nowakowski, Wolfe, *An introduction to Clobber*, 2005), and
the search keeps it as one:

* a component of at most ``small`` stones is replaced by its canonical value
  (:func:`clobbermania.clobber.values.clobber_value`, cached by row string), a cgt
  :class:`~clobbermania.cgt.Game` whose options are the moves of that component;
  longer rows stay strings, their moves made on the string;
* the sum is simplified at every node: components that cannot move are dropped (a row of
  one colour, a value 0); values of the form number + ups + nimber are added into one
  (their tags add without recursion); a component and its negative cancel (``G + (-G) =
  0``: a value and its negative, a row and its colour swap; a component equal to its own
  negative, like ``*`` or ``(xo)^n``, cancels a copy of itself);
* only Left (``x``) is ever to move: Right to move on S is Left to move on -S (rows
  colour-swapped, values negated), so both players share one table, keyed by the sorted
  row strings (each the least of itself and its reversal) and the sorted value ids;
* when no long row is left the outcome is read from comparisons, without adding games:
  Left moving first wins ``G`` unless ``G <= 0`` and wins ``G + H`` unless ``G <= -H``
  (Siegel, *Combinatorial Game Theory*, I.1); three or more values are searched on.

The search is negamax over the components' moves (Left's moves on a row string are those
of :meth:`Position.moves <clobbermania.stones.Position.moves>`, held equal by
tests/test_rowsum.py); a repeated component's moves are tried once, and two moves of a
row leaving the same parts are one option. At each node every child is built first: one
that the table or a comparison already shows lost for the opponent wins at once
(enhanced transposition cutoff); the others are searched fewest opponent moves first.

>>> s = RowSumSearch()
>>> s.wins_first(["xoxoxo"], "black"), s.wins_first(["xoxo"], "black")
(False, True)
>>> s.wins_first(["xxo", "xoo"], "white")     # ^ + v = 0: the first player loses
False
"""

from __future__ import annotations

import time
from bisect import bisect_left, insort

from ..cgt import Game
from ..errors import ClobbermaniaError
from ..limits import deadline_passed
from ..stones import BLACK, Position, color_from_name

__all__ = ["RowSumSearch", "RowSumTimeout", "left_row_moves", "canonical_row", "negative_row"]

_SWAP = str.maketrans("xo", "ox")
ZERO = Game(0)


class RowSumTimeout(ClobbermaniaError):
    """The row-sum search ran out of its time or node budget."""


def canonical_row(s: str) -> str:
    """The least of a row string and its reversal (a row and its mirror are one game).

    >>> canonical_row("xxo")
    'oxx'
    """
    r = s[::-1]
    return s if s <= r else r


def negative_row(s: str) -> str:
    """The canonical row of the negative game (colours swapped).

    >>> negative_row("xxo")
    'oox'
    """
    return canonical_row(s.translate(_SWAP))


def left_row_moves(s: str) -> list[tuple[str, str]]:
    """Left's (``x``) moves on the hole-free row ``s``: for each, the two row strings left
    on either side of the hole (either may be empty), in the order of
    :meth:`Position.moves <clobbermania.stones.Position.moves>` (by source square, then
    target square).

    >>> left_row_moves("xox")
    [('', 'xx'), ('xx', '')]
    """
    out = []
    n = len(s)
    for i, ch in enumerate(s):
        if ch != "x":
            continue
        if i > 0 and s[i - 1] == "o":
            out.append((s[:i - 1] + "x", s[i + 1:]))
        if i + 1 < n and s[i + 1] == "o":
            out.append((s[:i], "x" + s[i + 2:]))
    return out


def _live(s: str) -> bool:
    return "x" in s and "o" in s


class RowSumSearch:
    """The sum search (module docstring); its tables persist from call to call, so one
    instance answers many questions about related rows (an MCGS file, B and W of a case).

    ``small``: rows of at most this many stones are replaced by their values. Values are
    handled by their cgt ids, with their negatives, options and sums cached here.
    """

    def __init__(self, small: int = 16, max_values: int = 2) -> None:
        self.small = small
        self.max_values = max_values
        self.memo: dict[tuple, bool] = {}
        self.values: dict[str, int] = {}
        self.row_opts: dict[str, list[tuple[tuple[str, ...], tuple[int, ...]]]] = {}
        self.obj: dict[int, Game] = {ZERO.id: ZERO}
        self.neg: dict[int, int] = {ZERO.id: ZERO.id}
        self.lopts: dict[int, tuple[int, ...]] = {}
        self.nus: dict[int, bool] = {ZERO.id: True}
        self.nus_sum: dict[tuple[int, int], int] = {}
        self.le: dict[tuple[int, int], bool] = {}
        self.sums: dict[tuple[int, ...], int] = {}
        self.neg_rows: dict[str, str] = {}
        self.neg_opts: dict[str, list[tuple[tuple[str, ...], tuple[int, ...]]]] = {}
        self.mob: dict[str, int] = {}
        self.nodes = 0
        self.deadline: float | None = None
        self.node_limit: int | None = None

    # -- values -----------------------------------------------------------------------------
    def _intern(self, g: Game) -> int:
        i = g.id
        if i not in self.obj:
            self.obj[i] = g
            self.nus[i] = g.nus is not None
        return i

    def _neg(self, i: int) -> int:
        n = self.neg.get(i)
        if n is None:
            n = self._intern(-self.obj[i])
            self.neg[i] = n
            self.neg[n] = i
        return n

    def _left_game_options(self, i: int) -> tuple[int, ...]:
        o = self.lopts.get(i)
        if o is None:
            o = self.lopts[i] = tuple(self._intern(g) for g in self.obj[i].left_options)
        return o

    def _le_zero(self, a: int, b: int | None = None) -> bool:
        """Whether G_a (+ G_b) <= 0, as the comparison G_a <= -G_b."""
        h = ZERO.id if b is None else self._neg(b)
        key = (a, h)
        r = self.le.get(key)
        if r is None:
            r = self.le[key] = self.obj[a] <= self.obj[h]
        return r

    def value(self, s: str) -> Game:
        """The canonical value of the row ``s`` (cached; a row and its mirror share it)."""
        return self.obj[self._value_id(s)]

    def _value_id(self, s: str) -> int:
        key = canonical_row(s)
        i = self.values.get(key)
        if i is None:
            h = self.values.get(negative_row(key))
            if h is not None:
                i = self._neg(h)
            else:
                from .values import ValueTimeout, clobber_value
                left = None
                if self.deadline is not None:
                    left = self.deadline - time.perf_counter()
                    if left <= 0:
                        raise RowSumTimeout("the time limit ran out")
                try:
                    g = clobber_value(Position.from_string(key), time_limit=left)
                except ValueTimeout as e:
                    raise RowSumTimeout("the time limit ran out in a row value") from e
                i = self._intern(g)
            self.values[key] = i
        return i

    # -- components -------------------------------------------------------------------------
    def _part(self, s: str, bigs: list[str], games: list[int]) -> None:
        """File the part ``s`` (a row string) as a long row or as a value."""
        if len(s) < 2 or not _live(s):
            return
        if len(s) <= self.small:
            i = self._value_id(s)
            if i != ZERO.id:
                games.append(i)
        else:
            bigs.append(canonical_row(s))

    def _left_options(self, s: str) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        opts = self.row_opts.get(s)
        if opts is None:
            opts = []
            seen = set()
            for a, b in left_row_moves(s):
                bigs: list[str] = []
                games: list[int] = []
                self._part(a, bigs, games)
                self._part(b, bigs, games)
                key = (tuple(sorted(bigs)), tuple(sorted(games)))
                if key not in seen:   # two moves leaving the same parts: one option
                    seen.add(key)
                    opts.append(key)
            self.row_opts[s] = opts
        return opts

    # -- sums -------------------------------------------------------------------------------
    # A sum is kept normalized: two sorted tuples (long rows, value ids), at most one value
    # of the form number + ups + nimber, no 0, no component beside its negative (a
    # component equal to its own negative, like * or (xo)^n, cancels a copy of itself).
    # Children are built from the parent by removing one component and adding the parts
    # of its option one by one, so only the added parts need checking.

    def _add_game(self, lst: list[int], g: int) -> None:
        """Add the value ``g`` to the sorted normalized list ``lst`` (in place)."""
        zero = ZERO.id
        if g == zero:
            return
        isnus = self.nus
        if isnus[g]:
            for j, h in enumerate(lst):
                if isnus[h]:
                    a, b = (h, g) if h < g else (g, h)
                    s = self.nus_sum.get((a, b))
                    if s is None:
                        s = self.nus_sum[(a, b)] = self._intern(self.obj[a] + self.obj[b])
                    del lst[j]
                    if s != zero:
                        insort(lst, s)
                    return
            insort(lst, g)
            return
        n = self._neg(g)
        j = bisect_left(lst, n)
        if j < len(lst) and lst[j] == n:
            del lst[j]
            return
        insort(lst, g)

    @staticmethod
    def _add_big(lst: list[str], s: str) -> None:
        """Add the long row ``s`` (canonical) to the sorted normalized list ``lst``."""
        n = negative_row(s)
        j = bisect_left(lst, n)
        if j < len(lst) and lst[j] == n:
            del lst[j]
            return
        insort(lst, s)

    def normalize(self, bigs: list[str], games: list[int]
                  ) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The simplified sum of the rows ``bigs`` (canonical strings) and the values
        ``games`` (ids): see the comment above."""
        lb: list[str] = []
        lg: list[int] = []
        for s in bigs:
            self._add_big(lb, s)
        for g in games:
            self._add_game(lg, g)
        return tuple(lb), tuple(lg)

    def negate(self, bigs: tuple[str, ...], games: tuple[int, ...]
               ) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """-S for a normalized sum S (still normalized)."""
        neg = self._neg
        return (tuple(sorted([self._neg_row(s) for s in bigs])),
                tuple(sorted([neg(g) for g in games])))

    def _neg_row(self, s: str) -> str:
        n = self.neg_rows.get(s)
        if n is None:
            n = self.neg_rows[s] = negative_row(s)
        return n

    def _neg_left_options(self, s: str) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """Left's options of the row ``s``, each negated (parts of -S^L)."""
        opts = self.neg_opts.get(s)
        if opts is None:
            opts = [(tuple(self._neg_row(x) for x in ob), tuple(self._neg(g) for g in og))
                    for ob, og in self._left_options(s)]
            self.neg_opts[s] = opts
        return opts

    def _terminal(self, bigs: tuple[str, ...], games: tuple[int, ...]) -> bool | None:
        """Left-first outcome of a sum without long rows and with at most two values, by
        comparisons; None otherwise."""
        if bigs or len(games) > self.max_values:
            return None
        if not games:
            return False
        if len(games) == 1:
            return not self._le_zero(games[0])
        if len(games) == 2:
            return not self._le_zero(games[0], games[1])
        return not self._le_zero(self._sum(games[:-1]), games[-1])

    def _sum(self, games: tuple[int, ...]) -> int:
        """The id of the sum of the values (cached by prefix)."""
        s = self.sums.get(games)
        if s is None:
            if len(games) == 1:
                return games[0]
            s = self._intern(self.obj[self._sum(games[:-1])] + self.obj[games[-1]])
            self.sums[games] = s
        return s

    def _children(self, bigs: tuple[str, ...], games: tuple[int, ...]):
        """Every Left option S^L, as -S^L normalized (so Left is again to move)."""
        nb = sorted([self._neg_row(s) for s in bigs])
        ng = sorted([self._neg(g) for g in games])
        tnb = tuple(nb)
        for i, s in enumerate(bigs):
            if i and bigs[i - 1] == s:
                continue
            base = nb[:]
            base.remove(self._neg_row(s))
            for ob, og in self._neg_left_options(s):
                cb = base[:]
                for x in ob:
                    self._add_big(cb, x)
                if og:
                    cg = ng[:]
                    for y in og:
                        self._add_game(cg, y)
                    yield tuple(cb), tuple(cg)
                else:
                    yield tuple(cb), tuple(ng)
        neg = self._neg
        for i, g in enumerate(games):
            if i and games[i - 1] == g:
                continue
            base_g = ng[:]
            base_g.remove(neg(g))
            for gl in self._left_game_options(g):
                cg = base_g[:]
                self._add_game(cg, neg(gl))
                yield tnb, tuple(cg)

    def _mobility(self, bigs: tuple[str, ...], games: tuple[int, ...]) -> int:
        m = 0
        for s in bigs:
            k = self.mob.get(s)
            if k is None:
                k = self.mob[s] = len(self._left_options(s))
            m += k
        for g in games:
            m += len(self._left_game_options(g))
        return m

    def wins(self, bigs: tuple[str, ...], games: tuple[int, ...]) -> bool:
        """Whether Left (x) moving first wins the normalized sum (bigs, games)."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise RowSumTimeout("the node limit ran out")
        if not self.nodes & 63 and deadline_passed(self.deadline):
            raise RowSumTimeout("the time limit ran out")
        t = self._terminal(bigs, games)
        if t is not None:
            return t
        key = (bigs, games)
        r = self.memo.get(key)
        if r is not None:
            return r
        # every child first: one the table or a comparison already shows lost for the
        # opponent wins at once; the rest are searched fewest opponent moves first
        memo = self.memo
        todo = []
        result = False
        for child in self._children(bigs, games):
            c = self._terminal(*child)
            if c is None:
                c = memo.get(child)
            if c is False:
                result = True
                break
            if c is None:
                # the mobility of a long row lists its options: read the clock now and then
                if not len(todo) & 15 and deadline_passed(self.deadline):
                    raise RowSumTimeout("the time limit ran out")
                todo.append((self._mobility(*child), child))
        if not result:
            todo.sort(key=lambda x: x[0])
            for _, child in todo:
                if not self.wins(*child):
                    result = True
                    break
        memo[key] = result
        return result

    def wins_first(self, rows: list[str], first: int | str, *,
                   time_limit: float | None = None, node_limit: int | None = None) -> bool:
        """Whether ``first`` (black/white) moving first wins the sum of the ``rows``
        (strings of ``x``, ``o`` and ``.``). Raises :class:`RowSumTimeout` when the
        limit runs out (the tables keep what was found)."""
        color = color_from_name(first) if isinstance(first, str) else first
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.node_limit = None if node_limit is None else self.nodes + node_limit
        bigs: list[str] = []
        games: list[int] = []
        for s in rows:
            if color != BLACK:
                s = s.translate(_SWAP)
            for piece in s.split("."):
                self._part(piece, bigs, games)
        return self.wins(*self.normalize(bigs, games))
