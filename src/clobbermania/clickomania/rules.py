"""Clickomania and SameGame: the reference rules, in plain Python.

The rules are those of Biedl, Demaine, Demaine, Fleischer, Jacobsen and Munro, *The
Complexity of Clickomania* (2002): a grid of coloured blocks; a click removes a maximal
orthogonally connected group of at least two blocks of one colour; the blocks above fall;
a column left empty is removed and the columns to its right close up to the left. The
scored variant, SameGame, gives ``(n-2)^2`` for a group of ``n`` and 1000 for clearing the
board (no end penalty).

Notation (DESIGN.md): rows top to bottom, one character a cell, colours ``0``-``9`` then
``a``-``z`` (0..35), empty ``.``; rows separated by ``/`` or newlines. A square ``(r, c)``
counts ``r`` from the top row of the *original* board and ``c`` from the left after the
columns have closed up; it is written spreadsheet-style, ``a1`` the top-left square. The
block at height ``h`` (0 = bottom) of column ``c`` is at row ``H-1-h``.

This module is the reference that the numba kernels (``_kernels.py``) and every solver are
checked against.

>>> b = Board.from_string("12/12/21")
>>> [b.square_name(s) for s in b.moves()]
['a2', 'b2']
>>> b.click("a1").text()
'.2/.2/21'
>>> end = replay(b, ["a2", "b1"])[-1]
>>> end.text(), end.is_cleared, end.is_dead
('../../21', False, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..errors import BoardError, IllegalMoveError, NotationError, UnsupportedError
from ..limits import read_capped_text
from ..stones import _column_index, column_name

#: The characters of colours 0..35, in order; ``.`` is an empty cell.
COLOR_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY_CHAR = "."
#: The most colours a board may use.
MAX_COLORS = len(COLOR_CHARS)

#: The longest board text :meth:`Board.from_string` parses, and the largest board file
#: read (a longer one is refused before it is parsed: a 100 MB board ran for over a
#: minute and 1 GB before a search's cell cap could refuse it).
MAX_BOARD_TEXT = 1 << 20

#: The most cells a board read by :func:`load_board` may have: the largest cap of the
#: searches that read boards this way (``solver.MAX_CELLS``; value and SameGame have
#: smaller caps, checked by each search).
LOAD_MAX_CELLS = 10_000
#: Points for clearing the board in SameGame.
CLEAR_BONUS = 1000

Square = tuple[int, int]


def group_score(n: int) -> int:
    """SameGame points for removing a group of ``n`` blocks: ``(n-2)^2``.

    >>> group_score(2), group_score(5)
    (0, 9)
    """
    if n < 2:
        raise IllegalMoveError(f"a group of {n} block(s) cannot be removed")
    return (n - 2) ** 2


class Group(NamedTuple):
    """A maximal one-colour group: its colour, size, squares (sorted) and representative.

    The representative ``square`` is the group's block in its leftmost column, lowest there.
    """

    color: int
    size: int
    squares: tuple[Square, ...]
    square: Square


@dataclass(frozen=True)
class Board:
    """A settled Clickomania board (an immutable value object).

    ``columns`` holds the non-empty columns, left to right, each listed bottom to top;
    ``height`` and ``width`` are the original board's, and never change.

    >>> b = Board.from_string("1.\\n12")
    >>> b.columns, b.height, b.width, b.n_blocks
    (((1, 1), (2,)), 2, 2, 3)
    """

    columns: tuple[tuple[int, ...], ...]
    height: int
    width: int
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.columns, self.height, self.width)))

    def __hash__(self) -> int:
        return self._hash

    # -- construction ------------------------------------------------------------------
    @classmethod
    def from_columns(cls, columns: Iterable[Sequence[int]], height: int,
                     width: int | None = None) -> Board:
        """A board from columns listed bottom to top (empty columns are dropped).

        >>> Board.from_columns([[0, 1], [], [1]], height=2).text()
        '1../01.'
        """
        cols = tuple(tuple(int(x) for x in col) for col in columns)
        w = len(cols) if width is None else width
        if height < 1 or w < 1:
            raise BoardError(f"a board needs at least one row and one column, not {height}x{w}")
        if len(cols) > w:
            raise BoardError(f"{len(cols)} columns do not fit in a width of {w}")
        for c, col in enumerate(cols):
            if len(col) > height:
                raise BoardError(f"column {column_name(c)} has {len(col)} blocks, more than "
                                 f"the height {height}")
            for x in col:
                if not 0 <= x < MAX_COLORS:
                    raise BoardError(f"colour {x} in column {column_name(c)} is not in "
                                     f"0..{MAX_COLORS - 1}")
        return cls(tuple(col for col in cols if col), height, w)

    @classmethod
    def from_string(cls, text: str, max_cells: int | None = None) -> Board:
        """Parse rows (top first) separated by ``/`` or newlines; the board must be settled.

        A text longer than :data:`MAX_BOARD_TEXT` characters, or (with ``max_cells``) of
        more rows x columns than ``max_cells``, is refused before the grid is built.

        >>> Board.from_string("a./b9").columns
        ((11, 10), (9,))
        """
        if len(text) > MAX_BOARD_TEXT:
            raise UnsupportedError(f"the board text is longer than {MAX_BOARD_TEXT:,} "
                                   "characters, the most a board is read from")
        rows = [r.strip() for r in text.replace("/", "\n").splitlines()]
        rows = [r for r in rows if r]
        if not rows:
            raise NotationError("the board is empty: give rows like 112/122")
        width = len(rows[0])
        if max_cells is not None and len(rows) * width > max_cells:
            raise UnsupportedError(f"the board is {len(rows)}x{width} "
                                   f"({len(rows) * width:,} cells), and no search reading "
                                   f"it takes more than {max_cells:,} cells")
        grid: list[list[int]] = []
        for r, row in enumerate(rows):
            if len(row) != width:
                raise NotationError(f"row {r + 1} has {len(row)} cells but row 1 has {width}: "
                                    "all rows must have the same length")
            cells = []
            for c, ch in enumerate(row):
                if ch == EMPTY_CHAR:
                    cells.append(-1)
                    continue
                k = COLOR_CHARS.find(ch.lower())
                if k < 0:
                    raise NotationError(f"bad character {ch!r} at {column_name(c)}{r + 1}: "
                                        "colours are 0-9 and a-z, empty is '.'")
                cells.append(k)
            grid.append(cells)
        height = len(rows)
        columns = []
        seen_empty_column = None
        for c in range(width):
            col = [grid[r][c] for r in range(height - 1, -1, -1)]  # bottom to top
            n = sum(1 for x in col if x >= 0)
            if any(x < 0 for x in col[:n]):
                h = col.index(-1)
                raise BoardError(f"the block above {column_name(c)}{height - h} floats over an "
                                 "empty square: a board must be settled (blocks fall)")
            if n == 0:
                seen_empty_column = c if seen_empty_column is None else seen_empty_column
                continue
            if seen_empty_column is not None:
                raise BoardError(f"column {column_name(seen_empty_column)} is empty but column "
                                 f"{column_name(c)} to its right is not: empty columns "
                                 "close up to the left")
            columns.append(tuple(col[:n]))
        return cls(tuple(columns), height, width)

    # -- reading -----------------------------------------------------------------------
    def text(self, sep: str = "/") -> str:
        """The board as rows of characters, top row first, joined by ``sep``."""
        rows = []
        for r in range(self.height):
            h = self.height - 1 - r
            rows.append("".join(
                COLOR_CHARS[self.columns[c][h]] if c < len(self.columns)
                and h < len(self.columns[c]) else EMPTY_CHAR for c in range(self.width)))
        return sep.join(rows)

    def __str__(self) -> str:
        return self.text()

    def cell(self, square: Square) -> int:
        """The colour at ``square`` = (r, c), or -1 when it is empty."""
        r, c = square
        h = self.height - 1 - r
        if 0 <= c < len(self.columns) and 0 <= h < len(self.columns[c]):
            return self.columns[c][h]
        return -1

    @cached_property
    def n_blocks(self) -> int:
        """The number of blocks on the board."""
        return sum(len(col) for col in self.columns)

    def color_counts(self) -> dict[int, int]:
        """Colour -> number of blocks of that colour.

        >>> Board.from_string("12/11").color_counts()
        {1: 3, 2: 1}
        """
        counts: dict[int, int] = {}
        for col in self.columns:
            for x in col:
                counts[x] = counts.get(x, 0) + 1
        return dict(sorted(counts.items()))

    @property
    def is_cleared(self) -> bool:
        """True when no block is left."""
        return not self.columns

    @property
    def is_dead(self) -> bool:
        """True when no group of two or more blocks is left (no click is possible)."""
        return not self.moves()

    # -- squares -----------------------------------------------------------------------
    def square_name(self, square: Square) -> str:
        """``(r, c)`` -> ``"a1"`` style text (column letters, row from 1 at the top)."""
        r, c = square
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise NotationError(f"square {square} is off the {self.height}x{self.width} board")
        return f"{column_name(c)}{r + 1}"

    def parse_square(self, text: str | Square) -> Square:
        """``"c3"`` -> (2, 2); a pair (r, c) is checked and returned."""
        if isinstance(text, tuple):
            r, c = text
        else:
            t = text.strip().lower()
            i = 0
            # ASCII only: str.isdigit holds for '²', which int() refuses
            while i < len(t) and t[i].isascii() and t[i].isalpha():
                i += 1
            if i == 0 or i == len(t) or not (t[i:].isascii() and t[i:].isdigit()):
                raise NotationError(f"bad square {text!r}: expected a column letter and a row "
                                    "number, like a1")
            c, r = _column_index(t[:i]), int(t[i:]) - 1
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise NotationError(f"square {self._name(r, c)} is off the "
                                f"{self.height}x{self.width} board")
        return (r, c)

    @staticmethod
    def _name(r: int, c: int) -> str:
        return f"{column_name(c)}{r + 1}" if c >= 0 else f"({r}, {c})"

    # -- groups and clicks -------------------------------------------------------------
    def _flood(self, c: int, h: int) -> Group:
        """The maximal group of block (column c, height h), found by flood fill."""
        cols = self.columns
        color = cols[c][h]
        seen = {(c, h)}
        stack = [(c, h)]
        while stack:
            cc, hh = stack.pop()
            for c2, h2 in ((cc - 1, hh), (cc + 1, hh), (cc, hh - 1), (cc, hh + 1)):
                if (0 <= c2 < len(cols) and 0 <= h2 < len(cols[c2])
                        and (c2, h2) not in seen and cols[c2][h2] == color):
                    seen.add((c2, h2))
                    stack.append((c2, h2))
        H = self.height
        c0, h0 = min(seen)  # leftmost column, lowest there
        squares = tuple(sorted((H - 1 - hh, cc) for cc, hh in seen))
        return Group(color, len(seen), squares, (H - 1 - h0, c0))

    @cached_property
    def _group_list(self) -> tuple[Group, ...]:
        """Every maximal group, ordered by representative (column-major, bottom up)."""
        H = self.height
        seen: set[tuple[int, int]] = set()
        groups = []
        for c, col in enumerate(self.columns):
            for h in range(len(col)):
                if (c, h) not in seen:
                    g = self._flood(c, h)
                    seen.update((cc, H - 1 - r) for r, cc in g.squares)
                    groups.append(g)
        return tuple(groups)

    def groups(self) -> list[Group]:
        """Every maximal one-colour group, singletons included.

        >>> [(g.color, g.size) for g in Board.from_string("11/21").groups()]
        [(2, 1), (1, 3)]
        """
        return list(self._group_list)

    def moves(self) -> list[Square]:
        """The representatives of the groups that can be clicked (two or more blocks)."""
        return [g.square for g in self._group_list if g.size >= 2]

    def group_at(self, square: Square | str) -> Group:
        """The group containing ``square``; IllegalMoveError if the square is empty."""
        sq = self.parse_square(square)
        if self.cell(sq) < 0:
            raise IllegalMoveError(f"square {self.square_name(sq)} is empty")
        r, c = sq
        # one flood fill, not every group of the board: long replays stay linear per click
        return self._flood(c, self.height - 1 - r)

    def _settle(self, square: Square | str) -> list[tuple[int, list[tuple[int, int]]]]:
        """Gravity and the closing of columns after a click, in one place.

        For every column that keeps a block, left to right, its index before the click
        and the runs ``[a, b)`` of heights (bottom to top) whose blocks stay: stacking each
        column's runs is the fall, listing the columns one after another the closing.
        IllegalMoveError when ``square`` is empty or its block is alone.
        """
        g = self.group_at(square)
        if g.size < 2:
            raise IllegalMoveError(f"the block at {self.square_name(g.square)} is alone: "
                                   "only a group of two or more blocks can be clicked")
        H = self.height
        gone: dict[int, list[int]] = {}  # column -> heights of the group's blocks
        for r, c in g.squares:
            gone.setdefault(c, []).append(H - 1 - r)
        kept = []
        for c, col in enumerate(self.columns):
            if c in gone:  # the runs between the removed blocks (they fall onto each other)
                cuts = sorted(gone[c])
                runs = [(a + 1, b) for a, b in zip([-1] + cuts, cuts + [len(col)], strict=True)
                        if b > a + 1]
                if not runs:
                    continue  # an emptied column: those to its right close up
            else:
                runs = [(0, len(col))]
            kept.append((c, runs))
        return kept

    def click(self, square: Square | str) -> Board:
        """The board after clicking the group at ``square`` (blocks fall, columns close).

        >>> Board.from_string("12/12").click("b2").text()
        '1./1.'
        """
        cols = self.columns
        return Board(tuple(cols[c] if len(runs) == 1 and runs[0] == (0, len(cols[c]))
                           else tuple(chain.from_iterable(cols[c][a:b] for a, b in runs))
                           for c, runs in self._settle(square)), self.height, self.width)

    def click_moves(self, square: Square | str) -> dict[Square, Square]:
        """Where every block that stays goes when the group at ``square`` is clicked: its
        square before -> its square after (blocks of the group are not keys). Squares are
        named as everywhere here, rows from the top of the original board; the map is the
        one :meth:`click` applies (the same code), for drawing the fall and the closing.

        >>> b = Board.from_string("2../113")
        >>> moves = b.click_moves("b2")
        >>> {b.square_name(s): b.square_name(t) for s, t in moves.items()}
        {'a1': 'a2', 'c2': 'b2'}
        >>> b.click("b2").text()
        '.../23.'
        """
        H = self.height
        out: dict[Square, Square] = {}
        for new_c, (c, runs) in enumerate(self._settle(square)):
            new_h = 0
            for a, b in runs:
                for h in range(a, b):
                    out[(H - 1 - h, c)] = (H - 1 - new_h, new_c)
                    new_h += 1
        return out

    # -- pictures ----------------------------------------------------------------------
    def _repr_svg_(self) -> str:
        from ..render.clickomania import clickomania_svg
        return clickomania_svg(self)


def check_cells(board: Board, max_cells: int, what: str) -> None:
    """Refuse (UnsupportedError) a board of more than ``max_cells`` cells (rows x columns)
    for ``what``, the search that has that cap (docs/limits.md).

    >>> check_cells(Board.from_string("12/21"), 4, "the test")
    """
    cells = board.height * board.width
    if cells > max_cells:
        raise UnsupportedError(f"{what} takes boards of at most {max_cells:,} cells, and this "
                               f"one is {board.height}x{board.width} ({cells:,} cells)")


def replay(board: Board, moves: Iterable[Square | str]) -> list[Board]:
    """The boards of a click sequence: the start, then one after each click.

    Raises IllegalMoveError naming the move number and square of the first bad click.

    >>> [b.n_blocks for b in replay(Board.from_string("1122"), ["a1", "a1"])]
    [4, 2, 0]
    """
    return [board, *iter_boards(board, moves)]


def iter_boards(board: Board, moves: Iterable[Square | str]) -> Iterator[Board]:
    """The boards after each click of a sequence, one at a time (a long sequence on a big
    board need not be held in memory). Raises IllegalMoveError as :func:`replay` does.

    >>> [b.n_blocks for b in iter_boards(Board.from_string("1122"), ["a1", "a1"])]
    [2, 0]
    """
    cur = board
    for i, m in enumerate(moves, start=1):
        try:
            cur = cur.click(m)
        except (IllegalMoveError, NotationError) as exc:
            raise IllegalMoveError(f"move {i} ({m if isinstance(m, str) else cur._name(*m)})"
                                   f" is illegal: {exc}") from None
        yield cur


def score_sequence(board: Board, moves: Iterable[Square | str]) -> int:
    """The SameGame score of a click sequence: sum of ``(n-2)^2``, +1000 if cleared.

    >>> score_sequence(Board.from_string("1112"), ["a1"])
    1
    """
    return replay_score(board, moves)[1]


def replay_score(board: Board, moves: Iterable[Square | str]) -> tuple[Board, int]:
    """The board after a click sequence and the sequence's SameGame score (as
    :func:`score_sequence`), in one replay; raises IllegalMoveError naming the move number
    of the first bad click (the check a claimed line gets before it is believed).

    >>> final, score = replay_score(Board.from_string("1122"), ["a1", "a1"])
    >>> final.is_cleared, score
    (True, 1000)
    """
    total = 0
    cur = board
    for i, m in enumerate(moves, start=1):
        try:
            n = cur.group_at(m).size
            cur = cur.click(m)
        except (IllegalMoveError, NotationError) as exc:
            raise IllegalMoveError(f"move {i} is illegal: {exc}") from None
        total += group_score(n)
    return cur, total + (CLEAR_BONUS if cur.is_cleared else 0)


class Game:
    """Play with undo (python-chess style ``push`` / ``pop``).

    >>> g = Game(Board.from_string("1122"))
    >>> g.push("c1"); g.push("a1"); g.score, g.board.is_cleared
    (1000, True)
    >>> g.pop(); g.moves_played
    ['c1']
    """

    def __init__(self, board: Board) -> None:
        self.history: list[Board] = [board]
        self._squares: list[str] = []
        self._scores: list[int] = [0]

    @property
    def board(self) -> Board:
        """The board as it stands."""
        return self.history[-1]

    @property
    def score(self) -> int:
        """SameGame points so far, with the bonus once the board is clear."""
        return self._scores[-1] + (CLEAR_BONUS if self.board.is_cleared else 0)

    @property
    def moves_played(self) -> list[str]:
        """The clicks so far, each named by its group's representative square."""
        return list(self._squares)

    def push(self, square: Square | str) -> None:
        """Click the group at ``square``."""
        g = self.board.group_at(square)
        nxt = self.board.click(square)
        self._squares.append(self.board.square_name(g.square))
        self._scores.append(self._scores[-1] + group_score(g.size))
        self.history.append(nxt)

    def pop(self) -> None:
        """Undo the last click."""
        if len(self.history) == 1:
            raise IllegalMoveError("no click to undo")
        self.history.pop()
        self._squares.pop()
        self._scores.pop()


def read_boards(text: str, max_cells: int | None = None) -> list[Board]:
    r"""Every board in a text: blocks of rows separated by blank or ``#`` comment lines.

    This reads the standard SameGame test set's layout (``# position K`` then 15 rows).
    ``max_cells`` caps each board (see :meth:`Board.from_string`).

    >>> [b.text() for b in read_boards("# one\n12\n21\n\n# two\n11")]
    ['12/21', '11']
    """
    boards, rows = [], []
    for line in text.splitlines() + [""]:
        s = line.strip()
        if s and not s.startswith("#"):
            rows.append(s)
        elif rows:
            boards.append(Board.from_string("\n".join(rows), max_cells))
            rows = []
    return boards


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long for the system
        return False


def read_board_file(path: str | Path) -> str:
    """The text of a board file, refused (before it is read) when it holds more than
    :data:`MAX_BOARD_TEXT` bytes, or when it is not UTF-8 text."""
    return read_capped_text(path, MAX_BOARD_TEXT, "board file")


def load_board(board_or_file: str, max_cells: int = LOAD_MAX_CELLS) -> Board:
    """A board from the command line: a path to a file holding one board, or board text,
    of at most ``max_cells`` cells (refused before the board is built).

    >>> load_board("12/21").n_blocks
    4
    """
    path = Path(board_or_file)
    try:
        is_file = path.is_file()
    except OSError:  # a board longer than a file name may be
        is_file = False
    if is_file:
        boards = read_boards(read_board_file(path), max_cells)
        if len(boards) != 1:
            raise NotationError(f"{board_or_file} holds {len(boards)} boards, not one")
        return boards[0]
    if board_or_file.startswith(("/", "~")):
        # no board starts with a row separator: this was meant as a file
        raise NotationError(f"no such file: {board_or_file}")
    try:
        return Board.from_string(board_or_file, max_cells)
    except (NotationError, BoardError) as exc:
        if re.search(r"\.[A-Za-z]{1,5}$", board_or_file) or (
                path.parent != Path(".") and _is_dir(path.parent)):
            raise NotationError(f"{board_or_file!r} is neither a board file nor a board: "
                                f"{exc}") from None
        raise


def to_grid(board: Board) -> np.ndarray:
    """The kernels' array: ``int8[W, H]``, ``grid[c, h]`` the colour at height h, or -1."""
    grid = np.full((board.width, board.height), -1, dtype=np.int8)
    for c, col in enumerate(board.columns):
        grid[c, :len(col)] = col
    return grid


def from_grid(grid: np.ndarray, height: int | None = None, width: int | None = None) -> Board:
    """The Board of a kernel array (the inverse of :func:`to_grid`)."""
    W, H = grid.shape
    cols = []
    for c in range(W):
        col = []
        for h in range(H):
            x = int(grid[c, h])
            if x < 0:
                break
            col.append(x)
        cols.append(col)
    return Board.from_columns(cols, H if height is None else height,
                              W if width is None else width)


__all__ = ["Board", "Group", "Game", "Square", "replay", "iter_boards", "score_sequence",
           "replay_score", "group_score", "to_grid", "from_grid", "read_boards",
           "read_board_file", "load_board",
           "COLOR_CHARS", "CLEAR_BONUS", "MAX_COLORS", "MAX_BOARD_TEXT", "LOAD_MAX_CELLS",
           "check_cells"]
