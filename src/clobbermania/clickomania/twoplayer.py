"""Two-player Clickomania: the impartial game (Grundy values) and the partizan game (values).

Biedl, Demaine, Demaine, Fleischer, Jacobsen and Munro, *The Complexity of Clickomania*,
close (section 5) with two-player versions of the puzzle, played under the normal play
convention (a player who cannot click loses):

* **impartial**: either player clicks any group of two or more blocks. A board is worth a
  nimber ``*g``, ``g = mex`` of the Grundy values of the boards one click away
  (Sprague-Grundy); ``g = 0`` exactly when the player to move loses.
* **partizan**: each player clicks only groups of the colours they own. With two colours
  Left owns colour ``0`` and Right colour ``1``. With more colours we split them by
  parity: Left owns the even colours ``0, 2, 4, ...``, Right the odd ones ``1, 3, 5,
  ...``. The paper leaves the sharing of k > 2 colours open (as far as this module follows
  it); the parity split extends the two-colour convention, gives each player half of any
  ``0..k-1`` palette, and makes the colour swap ``c <-> c xor 1`` exchange the players,
  so that it negates the value. Any other split is ``left_colors=`` (Right owns the rest).
  Values are canonical short games (:mod:`clobbermania.cgt`), printed in CGSuite syntax.

What the search may assume, each proved here and checked by ``tests/clickomania/
test_twoplayer.py`` against a plain minimax that knows none of it:

1. *Only the sequence of non-empty columns matters* (not the board's height or width), and
   *mirroring it left-right is a symmetry*: groups are made of blocks in the same or in
   adjacent columns, and closing up leaves the order of the remaining columns unchanged
   whichever side one closes to.
2. *Colour renaming.* In the impartial game any renaming of the colours is a symmetry; in
   the partizan game any renaming that keeps each colour's owner, and a renaming that
   exchanges the owners negates the value. Keys are written with the colours renamed by
   first appearance (Left's as 0, 2, 4, ..., Right's as 1, 3, 5, ...).
3. *One column or one row is a word of runs, each run's length capped at 2.* In one column
   a click removes a whole run (a maximal block of one colour) of length >= 2, and the runs
   below and above it meet, merging when they share a colour; a 1 x n row plays the same
   (its columns close up). Which runs are clickable depends only on whether their length is
   1 or >= 2, and a merged run always has length >= 2: so the game is a function of the
   run word with every length capped at 2. Reading the word backwards is a symmetry.
4. *Permanent separators.* A block whose colour occurs once on the board can never be
   removed (no second block ever joins it). In one column such a block splits the column
   into the part below it and the part above it, which never meet: the column is the
   *sum* of the two parts (nim sum of Grundy values; sum of games). On a board of several
   columns, a column all of whose blocks have colours occurring once on the board is
   likewise never removed and never joins a group; the columns to its left and those to
   its right never meet, so the board is the sum of those two boards. (A row is covered:
   its columns are single blocks.) No other splitting is used: in general columns close up
   and blocks fall, so parts of a board do interact.

Values are memoised for the life of the process under keys that apply facts 1-3 (written
in :mod:`._twoplayer_kernels`: one numba call a position decodes its key, tests fact 4,
makes every click with the engine's ``k_click`` and returns each result's key; the plain
:func:`impartial_key` and :func:`partizan_key` say the same slowly and are held equal to
it by the tests).

>>> print(grundy_value("1100/0011"), partizan_value("0011"), partizan_value("1/1/0/0/1/1"))
1 0 -1/2
>>> r = value_result("00110011", "partizan")
>>> r.text, r.outcome
('*', 'N')
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from ..cgt import Game as CGTGame
from ..cgt import nimber
from ..clobber.impartial import mex, nim_sum
from ..errors import ClobbermaniaError, NotationError
from ._twoplayer_kernels import MODE_IMPARTIAL, MODE_PARTIZAN, k_encode, k_node
from .rules import COLOR_CHARS, MAX_COLORS, Board, check_cells

__all__ = ["grundy_value", "partizan_value", "value_result", "TwoPlayerResult",
           "TwoPlayerTimeout", "owner", "impartial_key", "partizan_key", "column_values",
           "column_statistics", "long_runs_grundy", "long_runs_value", "long_runs_proof",
           "grundy_text", "clear_cache", "cache_size", "VARIANTS"]

VARIANTS = ("impartial", "partizan")
#: The largest board valued (32 x 32: a 2-second search of a 5-colour one holds about
#: 0.3 GB; 100 x 100 took 9 GB).
MAX_CELLS = 1_024
Columns = tuple[tuple[int, ...], ...]

_ZERO = CGTGame(0)


class TwoPlayerTimeout(ClobbermaniaError):
    """The value search ran out of its time limit (the values found so far stay cached)."""


# --- the caches: key bytes (see _twoplayer_kernels) -> value ---------------------------
_grundy: dict[bytes, int] = {}
_values: dict[bytes, CGTGame] = {}


def clear_cache() -> None:
    """Forget every memoised value (both variants).

    >>> clear_cache(); cache_size()
    (0, 0)
    """
    _grundy.clear()
    _values.clear()


def cache_size() -> tuple[int, int]:
    """(impartial, partizan) numbers of cached keys."""
    return len(_grundy), len(_values)


# --- owners and keys ---------------------------------------------------------------------
def _left_set(left_colors: Iterable[int] | None) -> frozenset[int] | None:
    if left_colors is None:
        return None
    out = frozenset(int(c) for c in left_colors)
    for c in out:
        if not 0 <= c < MAX_COLORS:
            raise NotationError(f"colour {c} is not in 0..{MAX_COLORS - 1}")
    return out


def owner(color: int, left_colors: Iterable[int] | None = None) -> str:
    """``'L'`` or ``'R'``: who may click groups of ``color`` in the partizan game.

    By default Left owns the even colours and Right the odd ones (with two colours: Left
    ``0``, Right ``1``); with ``left_colors`` Left owns those and Right the rest.

    >>> owner(0), owner(1), owner(4), owner(1, left_colors=[1, 2])
    ('L', 'R', 'L', 'L')
    """
    left = _left_set(left_colors)
    if left is None:
        return "L" if color % 2 == 0 else "R"
    return "L" if color in left else "R"


def _is_line(cols: Columns) -> bool:
    """One column, or one row (every column a single block): the game of a word of runs."""
    return len(cols) == 1 or all(len(col) == 1 for col in cols)


def _capped_word(cols: Columns) -> tuple[int, ...]:
    """The colours of a line (one column bottom to top, or one row left to right), each
    run of length >= 2 cut to length 2 (fact 3 of the module docstring)."""
    word = cols[0] if len(cols) == 1 else tuple(col[0] for col in cols)
    out: list[int] = []
    for i, x in enumerate(word):
        if i >= 2 and word[i - 1] == x and word[i - 2] == x:
            continue
        out.append(x)
    return tuple(out)


def _relabel(cols: Columns) -> Columns:
    """Colours renamed 0, 1, 2, ... by first appearance (columns left to right, bottom up)."""
    names: dict[int, int] = {}
    return tuple(tuple(names.setdefault(x, len(names)) for x in col) for col in cols)


def _relabel_parity(cols: Columns) -> Columns:
    """Colours renamed by first appearance within each owner: even ones (Left's) to 0, 2,
    4, ..., odd ones (Right's) to 1, 3, 5, ... ."""
    names: dict[int, int] = {}
    count = [0, 0]

    def name(x: int) -> int:
        y = names.get(x)
        if y is None:
            p = x & 1
            y = names[x] = 2 * count[p] + p
            count[p] += 1
        return y
    return tuple(tuple(name(x) for x in col) for col in cols)


def _orientations(cols: Columns) -> list[Columns]:
    """The board and its symmetric images (fact 1 and 3): a line as its capped word, read
    both ways (written as one column); other boards and their mirror images."""
    if _is_line(cols):
        w = _capped_word(cols)
        return [(w,), (w[::-1],)]
    return [cols, cols[::-1]]


def impartial_key(board: Board | str) -> Columns:
    """The cache key of a board in the impartial game: equal keys, equal Grundy values.

    >>> impartial_key("0011/2233") == impartial_key("1100/3322"), impartial_key("0001000")
    (True, ((0, 0, 1, 0, 0),))
    """
    b = _board(board)
    return min(_relabel(o) for o in _orientations(b.columns))


def _to_parity(cols: Columns, left: frozenset[int] | None) -> Columns:
    """Colours renamed so that Left's are even and Right's odd (identity by default)."""
    if left is None:
        return cols
    names: dict[int, int] = {}
    count = [0, 0]
    for col in cols:
        for x in col:
            if x not in names:
                p = 0 if x in left else 1
                names[x] = 2 * count[p] + p
                count[p] += 1
    return tuple(tuple(names[x] for x in col) for col in cols)


def _partizan_key(cols: Columns) -> tuple[Columns, int]:
    """(key, sign) of parity-owned columns: the board's value is sign * value(key)."""
    # the least key over every orientation and both parity flips (the first on a tie)
    return min(((key, sign) for o in _orientations(cols)
                for key, sign in ((_relabel_parity(o), 1),
                                  (_relabel_parity(tuple(tuple(x ^ 1 for x in col)
                                                         for col in o)), -1))),
               key=lambda cand: cand[0])


def partizan_key(board: Board | str, left_colors: Iterable[int] | None = None
                 ) -> tuple[Columns, int]:
    """(key, sign): the board's partizan value is ``sign`` times the value cached at key.

    >>> partizan_key("0011")[0] == partizan_key("1100")[0], partizan_key("001")[1]
    (True, 1)
    >>> partizan_key("110")[1]
    -1
    """
    b = _board(board)
    return _partizan_key(_to_parity(b.columns, _left_set(left_colors)))


def _board(board: Board | str) -> Board:
    return board if isinstance(board, Board) else Board.from_string(board)


# --- separators (fact 4) -----------------------------------------------------------------
def _split(cols: Columns) -> list[Columns] | None:
    """The independent parts of a board cut at permanent separators, or None if none."""
    counts = Counter(x for col in cols for x in col)
    if len(cols) == 1:
        col = cols[0]
        if all(counts[x] > 1 for x in col):
            return None
        parts, cur = [], []
        for x in col:
            if counts[x] == 1:
                if cur:
                    parts.append(((tuple(cur)),))
                cur = []
            else:
                cur.append(x)
        if cur:
            parts.append((tuple(cur),))
        return parts
    cut = [i for i, col in enumerate(cols) if all(counts[x] == 1 for x in col)]
    if not cut:
        return None
    parts, start = [], 0
    for i in cut:
        if i > start:
            parts.append(cols[start:i])
        start = i + 1
    if start < len(cols):
        parts.append(cols[start:])
    return parts


# --- the search --------------------------------------------------------------------------
@dataclass
class _Search:
    deadline: float | None
    nodes: int = 0
    limit: float | None = None
    progress: Callable[[int, float], None] | None = None
    start: float = field(default_factory=time.perf_counter)

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % 256:
            return
        now = time.perf_counter()
        if self.progress is not None and self.nodes % 4096 == 0:
            self.progress(self.nodes, now - self.start)
        if self.deadline is not None and now > self.deadline:
            raise TwoPlayerTimeout(f"the value search ran out of its {self.limit:g} s limit "
                                   f"after {self.nodes:,} positions")


def _grid(cols: Columns) -> np.ndarray:
    """The kernels' array of some columns (``grid[c, h]``, -1 empty)."""
    grid = np.full((len(cols), max(len(c) for c in cols)), -1, dtype=np.int8)
    for c, col in enumerate(cols):
        grid[c, :len(col)] = col
    return grid


def _key(cols: Columns, mode: int) -> tuple[bytes, int]:
    """(key bytes, sign) of some columns (partizan: colours already parity-owned)."""
    if not cols:
        return b"", 1
    grid = _grid(cols)
    out = np.empty(grid.size + grid.shape[0], dtype=np.int8)
    n, sign = k_encode(grid, mode, out)
    return out[:n].tobytes(), sign


def _decode(key: bytes) -> Columns:
    cols, cur = [], []
    for x in key:
        if x == 0:
            cols.append(tuple(cur))
            cur = []
        else:
            cur.append(x - 1)
    return tuple(cols)


def _split_parts(key: bytes) -> list[Columns]:
    """The parts of a board the kernel reported as splitting (:func:`_split` agrees)."""
    parts = _split(_decode(key))
    if parts is None:  # the kernel and _split disagree: a bug, not an input error
        raise AssertionError(f"the kernel splits the board {_decode(key)}, _split does not")
    return parts


def _known_or_node(key: bytes, known: dict, empty, s: _Search, mode: int):
    """(value, None) for the empty board or a key in ``known``; else (None, the kernel's
    node: k_node's answer), one more node counted by the search's clock."""
    if not key:
        return empty, None
    value = known.get(key)
    if value is not None:
        return value, None
    s.tick()
    return None, k_node(np.frombuffer(key, dtype=np.int8), mode)


def _grundy_key(key: bytes, s: _Search) -> int:
    """The Grundy value of the board a key encodes."""
    g, node = _known_or_node(key, _grundy, 0, s, MODE_IMPARTIAL)
    if node is None:
        return g
    split, m, keys, lens, _, _, _ = node
    if split:
        parts = _split_parts(key)
        g = nim_sum(_grundy_key(_key(p, MODE_IMPARTIAL)[0], s) for p in parts)
    else:
        raw, width = keys.tobytes(), keys.shape[1]
        g = mex({_grundy_key(raw[i * width:i * width + n], s)
                 for i, n in enumerate(lens.tolist()[:m])})
    _grundy[key] = g
    return g


def _value_key(key: bytes, s: _Search) -> CGTGame:
    """The partizan value of the board a key encodes (Left owns the even colours)."""
    v, node = _known_or_node(key, _values, _ZERO, s, MODE_PARTIZAN)
    if node is None:
        return v
    split, m, keys, lens, signs, colors, _ = node
    if split:
        parts = _split_parts(key)
        v = _ZERO
        for p in parts:
            k, sign = _key(p, MODE_PARTIZAN)
            v = v + (_value_key(k, s) if sign > 0 else -_value_key(k, s))
    else:
        raw, width = keys.tobytes(), keys.shape[1]
        left, right = [], []
        for i, (n, sign, color) in enumerate(zip(lens.tolist()[:m], signs.tolist()[:m],
                                                 colors.tolist(), strict=True)):
            child = _value_key(raw[i * width:i * width + n], s)
            (left if color % 2 == 0 else right).append(child if sign > 0 else -child)
        v = CGTGame.from_options(left, right)
    _values[key] = v
    return v


def _grundy_of(cols: Columns, s: _Search) -> int:
    return _grundy_key(_key(cols, MODE_IMPARTIAL)[0], s)


def _value_of(cols: Columns, s: _Search) -> CGTGame:
    """The partizan value of parity-owned columns (Left even, Right odd)."""
    key, sign = _key(cols, MODE_PARTIZAN)
    v = _value_key(key, s)
    return v if sign > 0 else -v


def _search(time_limit: float | None,
            progress: Callable[[int, float], None] | None = None) -> _Search:
    if time_limit is not None and not time_limit > 0:
        raise NotationError(f"the time limit must be a positive number of seconds, "
                            f"not {time_limit}")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    return _Search(deadline, limit=time_limit, progress=progress)


def grundy_value(board: Board | str, *, time_limit: float | None = None) -> int:
    """The Grundy value of ``board`` in impartial Clickomania (either player clicks any
    group of two or more blocks; who cannot click loses).

    ``time_limit`` (seconds) raises :class:`TwoPlayerTimeout` when exceeded.

    >>> grundy_value("0110"), grundy_value("00110011"), grundy_value("01/10")
    (0, 1, 0)
    """
    return _grundy_of(_board(board).columns, _search(time_limit))


def partizan_value(board: Board | str, *, left_colors: Iterable[int] | None = None,
                   time_limit: float | None = None) -> CGTGame:
    """The canonical value of ``board`` in partizan Clickomania (Left clicks groups of its
    colours, by default the even ones; Right those of the others).

    >>> print(partizan_value("0110"), partizan_value("001100"), partizan_value("0010011"))
    0 1/2 1
    >>> print(partizan_value("1100", left_colors=[0, 1]), partizan_value("1100"))
    2 0
    """
    cols = _to_parity(_board(board).columns, _left_set(left_colors))
    return _value_of(cols, _search(time_limit))


def grundy_text(g: int) -> str:
    """A Grundy value in CGSuite syntax: ``0``, ``*``, ``*2``, ...

    >>> grundy_text(0), grundy_text(1), grundy_text(3)
    ('0', '*', '*3')
    """
    return str(nimber(g))


# --- results -----------------------------------------------------------------------------
_OUTCOME_WORDS = {"L": "Left wins whoever starts", "R": "Right wins whoever starts",
                  "N": "the player to move wins", "P": "the player to move loses"}


@dataclass(frozen=True)
class TwoPlayerResult:
    """A board's value in one variant, with the clicks that win.

    ``value`` is the Grundy value (impartial) or the canonical game (partizan); ``text``
    its CGSuite spelling; ``outcome`` L, R, N or P. ``winning`` maps the player to move
    (``"next"`` in the impartial game, ``"left"`` / ``"right"`` in the partizan game) to
    the clicks that win (square names of the groups' representatives).
    """

    variant: str
    board: str
    value: int | CGTGame
    text: str
    outcome: str
    winning: dict[str, tuple[str, ...]]
    nodes: int
    seconds: float
    left_colors: tuple[int, ...] | None = None
    extra: dict = field(default_factory=dict)

    @property
    def outcome_words(self) -> str:
        return _OUTCOME_WORDS[self.outcome]

    def to_dict(self) -> dict:
        out = {"variant": self.variant, "board": self.board, "value": self.text,
               "outcome": self.outcome, "winning_moves": {k: list(v) for k, v in
                                                          self.winning.items()},
               "nodes": self.nodes, "exact": True, "seconds": round(self.seconds, 6)}
        if self.variant == "impartial":
            out["grundy"] = self.value
        else:
            g = self.value  # a CGTGame for the partizan variant
            out["left_colors"] = list(self.left_colors) if self.left_colors is not None \
                else "even"
            out["is_number"] = g.is_number
            out["temperature"] = str(g.temperature)
        return out


def value_result(board: Board | str, variant: str = "partizan", *,
                 left_colors: Iterable[int] | None = None,
                 time_limit: float | None = None,
                 progress: Callable[[int, float], None] | None = None) -> TwoPlayerResult:
    """The value of ``board`` in ``variant`` (``"impartial"`` or ``"partizan"``) with the
    outcome class and every winning first click.

    ``time_limit`` (seconds) raises :class:`TwoPlayerTimeout`; ``progress(positions,
    seconds)`` is called now and then during a long search.

    >>> r = value_result("0011/0011", "impartial")
    >>> r.text, r.outcome, r.winning
    ('0', 'P', {'next': ()})
    >>> r = value_result("001100")
    >>> r.text, r.outcome, r.winning
    ('1/2', 'L', {'left': ('a1', 'e1'), 'right': ()})
    """
    if variant not in VARIANTS:
        raise NotationError(f"unknown variant {variant!r}: choose impartial or partizan")
    t0 = time.perf_counter()
    b = _board(board)
    check_cells(b, MAX_CELLS, "the two-player value search")
    s = _search(time_limit, progress)
    left = _left_set(left_colors)
    if variant == "impartial":
        g = _grundy_of(b.columns, s)
        wins = tuple(b.square_name(grp.square) for grp in b.groups() if grp.size >= 2
                     and _grundy_of(b.click(grp.square).columns, s) == 0)
        return TwoPlayerResult("impartial", b.text(), g, grundy_text(g),
                               "P" if g == 0 else "N", {"next": wins}, s.nodes,
                               time.perf_counter() - t0)
    v = _value_of(_to_parity(b.columns, left), s)
    good: dict[str, list[str]] = {"left": [], "right": []}
    for grp in b.groups():
        if grp.size < 2:
            continue
        child = _value_of(_to_parity(b.click(grp.square).columns, left), s)
        who = owner(grp.color, left)
        # a first click wins when the opponent, to move next, loses: child >= 0 for Left
        if who == "L" and child >= 0:
            good["left"].append(b.square_name(grp.square))
        elif who == "R" and child <= 0:
            good["right"].append(b.square_name(grp.square))
    return TwoPlayerResult("partizan", b.text(), v, str(v), v.outcome,
                           {k: tuple(x) for k, x in good.items()}, s.nodes,
                           time.perf_counter() - t0,
                           tuple(sorted(left)) if left is not None else None)


# --- one column: every puzzle, statistics, closed forms ----------------------------------
def column_board(word: str) -> Board:
    """The one-column board of ``word``, read from the top block down.

    >>> column_board("011").text()
    '0/1/1'
    """
    if not word:
        raise NotationError("a column needs at least one block")
    return Board.from_string("/".join(word))


def column_values(max_blocks: int = 12, colors: int = 2,
                  min_blocks: int = 1) -> dict[str, tuple[int, CGTGame]]:
    """Word -> (Grundy value, partizan value) of every one-column puzzle of
    ``min_blocks..max_blocks`` blocks over ``colors`` colours (words read top down; a word
    and its reversal have the same values, fact 3).

    >>> vals = column_values(4)
    >>> len(vals), vals["0011"][0], str(vals["0011"][1]), str(vals["1000"][1])
    (30, 0, '0', '1')
    """
    if not 1 <= colors <= MAX_COLORS:
        raise NotationError(f"the number of colours must be in 1..{MAX_COLORS}, not {colors}")
    if max_blocks < 1 or min_blocks < 1:
        raise NotationError("a column needs at least one block")
    s = _search(None)
    out: dict[str, tuple[int, CGTGame]] = {}
    alphabet = COLOR_CHARS[:colors]
    for n in range(min_blocks, max_blocks + 1):
        for t in product(alphabet, repeat=n):
            word = "".join(t)
            cols = (tuple(COLOR_CHARS.index(ch) for ch in reversed(word)),)
            out[word] = (_grundy_of(cols, s), _value_of(cols, s))
    return out


def column_statistics(max_blocks: int = 12, values: dict | None = None) -> list[dict]:
    """Per length n = 1..max_blocks, over the 2^n two-colour columns: how many have each
    Grundy value, each partizan outcome, how many distinct partizan values, how many of
    those values are numbers, numbers plus ``*``, or other, the largest number, and the
    temperatures met.

    >>> row = column_statistics(4)[3]
    >>> row["n"], row["grundy"], row["outcomes"]
    (4, {0: 6, 1: 10}, {'L': 5, 'P': 6, 'R': 5})
    """
    vals = column_values(max_blocks) if values is None else values
    rows = []
    for n in range(1, max_blocks + 1):
        words = [w for w in vals if len(w) == n]
        grundy = Counter(vals[w][0] for w in words)
        games = Counter(vals[w][1] for w in words)
        outcomes = Counter(g.outcome for g in (vals[w][1] for w in words))
        kinds = Counter(_kind(g) for g in games)
        rows.append({
            "n": n, "count": len(words), "grundy": dict(sorted(grundy.items())),
            "outcomes": dict(sorted(outcomes.items())),
            "distinct_values": len(games),
            "numbers": kinds["number"], "number_plus_star": kinds["number*"],
            "other": kinds["other"],
            "max_value": str(max((g for g in games if g.is_number),
                                 key=lambda g: g.number())),
            "temperatures": sorted({g.temperature for g in games}),
            "values": {str(g): c for g, c in sorted(games.items(), key=_value_order)},
        })
    return rows


def _kind(g: CGTGame) -> str:
    if g.is_number:
        return "number"
    t = g.nus
    if t is not None and t[1] == 0 and t[2] == 1:
        return "number*"
    return "other"


def _value_order(item: tuple[CGTGame, int]) -> tuple:
    g = item[0]
    t = g.nus
    return (0, t[0], t[1], t[2]) if t is not None else (1, str(g))


def long_runs_grundy(m: int) -> int:
    """The Grundy value of a two-colour column (or row) of ``m`` runs, each of >= 2
    blocks: 0 for m = 0, 1 for m = 1, and for m >= 2 the period 0, *2, * (m = 2, 3, 4,
    5, ...). See :func:`long_runs_proof`.

    >>> [long_runs_grundy(m) for m in range(9)]
    [0, 1, 0, 2, 1, 0, 2, 1, 0]
    """
    if m < 0:
        raise NotationError(f"a number of runs is >= 0, not {m}")
    if m < 2:
        return m
    return (0, 2, 1)[(m - 2) % 3]


def long_runs_value(m: int, bottom: int = 0) -> CGTGame:
    """The partizan value of a two-colour column (or row) of ``m`` runs, each of >= 2
    blocks, the bottom (first) run of colour ``bottom`` (0 = Left's): for ``bottom = 0``,
    0 for m = 0, 1 for m = 1, and for m >= 2 the period ``0, 1/2, *, 1/2*``
    (m = 2, 3, 4, 5, ...); ``bottom = 1`` negates. See :func:`long_runs_proof`.

    >>> [str(long_runs_value(m)) for m in range(7)]
    ['0', '1', '0', '1/2', '*', '1/2*', '0']
    """
    if m < 0:
        raise NotationError(f"a number of runs is >= 0, not {m}")
    if bottom not in (0, 1):
        raise NotationError(f"the bottom colour is 0 or 1, not {bottom}")
    if m < 2:
        g = CGTGame(m)
    else:
        g = CGTGame(("0", "1/2", "*", "1/2*")[(m - 2) % 4])
    return g if bottom == 0 else -g


def long_runs_proof(upto: int = 12) -> dict:
    """The proof of :func:`long_runs_grundy` and :func:`long_runs_value`, re-derived.

    Let F(m, c) be a two-colour line of m runs, each of >= 2 blocks, the first run of
    colour c. Clicking the first run leaves F(m-1, 1-c); clicking the last run leaves
    F(m-1, c); clicking an interior run merges its two neighbours (same colour) into one
    run of >= 4 blocks and leaves F(m-2, c). So the family is closed, and for m >= 4 (when
    both colours have interior runs) the options of F(m, .) are given by one rule from the
    values at m-1 and m-2 that depends only on m mod 2 (the last run's colour). Two
    consecutive layers that repeat after an even number of steps therefore repeat for
    ever. This function builds F by that recursion (values by :mod:`clobbermania.cgt`,
    Grundy values by mex), finds the repeat, and checks the closed forms and the values of
    the real columns ``F(m, c)`` of 2 blocks a run for m <= ``upto`` against the search.

    >>> p = long_runs_proof(8)
    >>> p["grundy_period"], p["value_period"], p["checked"]
    ((1, 3), (2, 4), True)
    """
    top = 4 * max(upto, 8)
    g: list[int] = [0, 1]
    v: list[tuple[CGTGame, CGTGame]] = [(_ZERO, _ZERO), (CGTGame(1), CGTGame(-1))]
    for m in range(2, top):
        g.append(mex([g[m - 1]] + ([g[m - 2]] if m >= 3 else [])))
        layer = []
        for c in (0, 1):
            last = c if m % 2 == 1 else 1 - c
            opts = [(c, v[m - 1][1 - c]), (last, v[m - 1][c])]
            if m >= 3:
                # the interior runs of F(3, c) are of colour 1-c only; from m = 4 on,
                # both colours have one
                inner = {1 - c} if m == 3 else {0, 1}
                opts += [(col, v[m - 2][c]) for col in inner]
            layer.append(CGTGame.from_options([x for col, x in opts if col == 0],
                                              [x for col, x in opts if col == 1]))
        v.append((layer[0], layer[1]))

    def repeat(seq: list, first: int, even: bool) -> tuple[int, int] | None:
        # the least period p (even when the rule depends on m mod 2), then the least start
        # k >= first, with layers k, k+1 equal to k+p, k+p+1 inside the computed range
        for p in range(2 if even else 1, top // 2, 2 if even else 1):
            for k in range(first, top - p - 1):
                if seq[k] == seq[k + p] and seq[k + 1] == seq[k + p + 1]:
                    return (k, p)
        return None
    # Grundy: one rule for every m >= 3, so layers k, k+1 with k >= 1 determine the rest;
    # values: one rule per parity of m for every m >= 4, so k >= 2 and p even
    grundy_period = repeat(g, 1, False)
    value_period = repeat(v, 2, True)
    checked = all(g[i] == long_runs_grundy(i) and v[i][0] is long_runs_value(i, 0)
                  and v[i][1] is long_runs_value(i, 1) for i in range(len(g)))
    s = _search(None)
    for i in range(1, upto + 1):
        for c in (0, 1):
            cols = (tuple((c + j) % 2 for j in range(i) for _ in range(2)),)
            checked = checked and _grundy_of(cols, s) == long_runs_grundy(i) \
                and _value_of(cols, s) is long_runs_value(i, c)
    return {"grundy_period": grundy_period, "value_period": value_period, "checked": checked,
            "layers": len(g)}
