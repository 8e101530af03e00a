"""Stones on a graph: the model shared by Clobber and Solitaire Clobber.

A :class:`Board` is a set of squares (vertices) with an adjacency: a rectangular grid of
any size, or any finite simple graph. A :class:`Position` puts black (``x``) and white
(``o``) stones on some of its squares. A :class:`Move` takes the stone on ``src`` to the
adjacent square ``dst``, clobbering the stone of the other colour there.

Notation (see DESIGN.md): a grid is written row by row, top row first, rows separated by
``/`` or newlines, ``x`` black, ``o`` white, ``.`` empty (``X ● O ○ _ ·`` are accepted
too). Squares are spreadsheet-style, ``a1`` top-left, and a move is ``a1-b1``. On a
general graph a square is its vertex label and a move is ``3-7``.

>>> p = Position.from_string("xo./ox.")
>>> str(p)
'xo./ox.'
>>> [m.to_str(p.board) for m in p.moves()]
['a1-b1', 'a1-a2', 'b2-b1', 'b2-a2', 'b1-a1', 'b1-b2', 'a2-a1', 'a2-b2']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from .errors import BoardError, IllegalMoveError, NotationError, UnsupportedError

EMPTY = 0
BLACK = 1
WHITE = 2
COLORS = (BLACK, WHITE)
COLOR_NAMES = {BLACK: "black", WHITE: "white"}
COLOR_BY_NAME = {"black": BLACK, "white": WHITE, "x": BLACK, "o": WHITE}

#: The most squares a board written out in text may have (grid notation; graph boards
#: are capped by ``graphs.MAX_GRAPH_VERTICES``, the same number).
MAX_BOARD_SQUARES = 1 << 14

#: The longest board text read (4 characters a square: a square, a two-character line
#: break and a space): a longer text is refused before it is parsed (a 100 MB text took
#: 8 s and 0.5 GB to parse before the square cap refused it).
MAX_BOARD_TEXT = 4 * MAX_BOARD_SQUARES

#: Characters accepted for each cell content; the first of each is the one printed.
CELL_CHARS = {EMPTY: ".", BLACK: "x", WHITE: "o"}
_CHAR_TO_CELL = {
    "x": BLACK, "X": BLACK, "\u25cf": BLACK,
    "o": WHITE, "O": WHITE, "\u25cb": WHITE,
    ".": EMPTY, "_": EMPTY, "\u00b7": EMPTY,
}


def opponent(color: int) -> int:
    """The other colour: ``opponent(BLACK) == WHITE``."""
    return 3 - color


def color_from_name(name: str) -> int:
    """``"black"``/``"x"`` -> BLACK, ``"white"``/``"o"`` -> WHITE."""
    try:
        return COLOR_BY_NAME[name.strip().lower()]
    except KeyError:
        raise NotationError(f"unknown colour {name!r}: expected black or white") from None


def column_name(c: int) -> str:
    """Spreadsheet column letters: 0 -> 'a', 25 -> 'z', 26 -> 'aa'."""
    letters = ""
    c += 1
    while c:
        c, r = divmod(c - 1, 26)
        letters = chr(ord("a") + r) + letters
    return letters


def _column_index(letters: str) -> int:
    c = 0
    for ch in letters:
        c = c * 26 + (ord(ch) - ord("a") + 1)
    return c - 1


_SQUARE_RE = re.compile(r"([a-z]+)([0-9]+)")


@dataclass(frozen=True)
class Board:
    """Squares and their adjacency: a rows x cols grid, or any finite simple graph.

    Vertices are numbered 0..n-1. On a grid, square (r, c) is vertex ``r * cols + c``,
    r counted from the top row. Graph boards keep the caller's vertex ``labels`` for
    printing moves; grid boards name squares spreadsheet-style.

    >>> Board.grid(2, 3).neighbors(4)
    (1, 3, 5)
    >>> len(Board.grid(4, 4).symmetries())
    8
    """

    n: int
    rows: int | None = None
    cols: int | None = None
    graph_neighbors: tuple[tuple[int, ...], ...] | None = field(default=None, repr=False)
    labels: tuple[int, ...] | None = field(default=None, repr=False)
    name: str = field(default="", compare=False)
    graph_symmetries: tuple[tuple[int, ...], ...] | None = field(
        default=None, repr=False, compare=False
    )

    # -- construction ---------------------------------------------------------------
    @classmethod
    def grid(cls, rows: int, cols: int) -> Board:
        """The rows x cols grid with orthogonal adjacency."""
        if rows < 1 or cols < 1:
            raise BoardError(f"a grid needs at least one row and one column, not {rows}x{cols}")
        return cls(n=rows * cols, rows=rows, cols=cols, name=f"grid:{rows}x{cols}")

    @classmethod
    def from_edges(
        cls,
        n: int,
        edges: Iterable[tuple[int, int]],
        *,
        labels: Sequence[int] | None = None,
        name: str = "",
        symmetries: Iterable[Sequence[int]] | None = None,
    ) -> Board:
        """A graph board on vertices 0..n-1 with the given undirected edges."""
        if n < 1:
            raise BoardError("a board needs at least one vertex")
        nbrs: list[set[int]] = [set() for _ in range(n)]
        for u, v in edges:
            if not (0 <= u < n and 0 <= v < n):
                raise BoardError(f"edge {u}-{v} names a vertex outside 0..{n - 1}")
            if u == v:
                raise BoardError(f"edge {u}-{v} is a loop; boards are simple graphs")
            nbrs[u].add(v)
            nbrs[v].add(u)
        if labels is not None:
            labels = tuple(int(x) for x in labels)
            if len(labels) != n or len(set(labels)) != n:
                raise BoardError("vertex labels must be n distinct integers")
        syms = None
        if symmetries is not None:
            syms = tuple(tuple(p) for p in symmetries)
        return cls(
            n=n,
            graph_neighbors=tuple(tuple(sorted(s)) for s in nbrs),
            labels=labels,
            name=name or f"graph:{n}",
            graph_symmetries=syms,
        )

    # -- structure --------------------------------------------------------------------
    @property
    def is_grid(self) -> bool:
        return self.rows is not None

    def adjacent(self, u: int, v: int) -> bool:
        """Whether squares ``u`` and ``v`` are adjacent (orthogonal neighbours on a grid)."""
        if self.graph_neighbors is not None:
            return v in self.graph_neighbors[u]
        d = abs(u - v)
        return d == self.cols or (d == 1 and min(u, v) % self.cols != self.cols - 1)

    def neighbors(self, v: int) -> tuple[int, ...]:
        """The vertices adjacent to ``v``, in increasing order."""
        if self.graph_neighbors is not None:
            return self.graph_neighbors[v]
        cols = self.cols
        r, c = divmod(v, cols)
        out = []
        if r > 0:
            out.append(v - cols)
        if c > 0:
            out.append(v - 1)
        if c + 1 < cols:
            out.append(v + 1)
        if r + 1 < self.rows:
            out.append(v + cols)
        return tuple(out)

    def edges(self) -> Iterator[tuple[int, int]]:
        """Each undirected edge once, as (u, v) with u < v."""
        for u in range(self.n):
            for v in self.neighbors(u):
                if u < v:
                    yield (u, v)

    @cached_property
    def adjacency_masks(self) -> tuple[int, ...]:
        """Bitmask of the neighbours of each vertex (bit v set when v is adjacent)."""
        out = []
        for v in range(self.n):
            m = 0
            for u in self.neighbors(v):
                m |= 1 << u
            out.append(m)
        return tuple(out)

    @cached_property
    def square_colors(self) -> tuple[int, ...] | None:
        """The checkerboard colour of every square, or None when the graph is not bipartite.

        On a grid square (r, c) is BLACK when r + c is even. On a bipartite graph the
        smallest vertex of each connected component is BLACK.
        """
        if self.is_grid:
            cols = self.cols
            return tuple(BLACK if (v // cols + v % cols) % 2 == 0 else WHITE
                         for v in range(self.n))
        colors = [EMPTY] * self.n
        for start in range(self.n):
            if colors[start]:
                continue
            colors[start] = BLACK
            stack = [start]
            while stack:
                u = stack.pop()
                for v in self.neighbors(u):
                    if colors[v] == EMPTY:
                        colors[v] = opponent(colors[u])
                        stack.append(v)
                    elif colors[v] == colors[u]:
                        return None
        return tuple(colors)

    @property
    def is_bipartite(self) -> bool:
        return self.square_colors is not None

    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's automorphisms that clobbermania knows, as vertex permutations.

        ``perm[v]`` is the image of v. A square grid has 8 (the dihedral group), a
        rectangle 4 (2 when it is a single row or column); a general graph has only the
        identity unless the factory that built it supplied more.
        """
        return self._symmetries

    @cached_property
    def _symmetries(self) -> tuple[tuple[int, ...], ...]:
        ident = tuple(range(self.n))
        if not self.is_grid:
            perms = self.graph_symmetries or (ident,)
            return tuple(dict.fromkeys((ident, *perms)))
        R, C = self.rows, self.cols
        maps = [
            lambda r, c: (r, c),
            lambda r, c: (r, C - 1 - c),
            lambda r, c: (R - 1 - r, c),
            lambda r, c: (R - 1 - r, C - 1 - c),
        ]
        if R == C:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (C - 1 - c, r),
                lambda r, c: (c, R - 1 - r),
                lambda r, c: (C - 1 - c, R - 1 - r),
            ]
        perms = []
        for f in maps:
            perm = [0] * self.n
            for v in range(self.n):
                r2, c2 = f(*divmod(v, C))
                perm[v] = r2 * C + c2
            perms.append(tuple(perm))
        return tuple(dict.fromkeys(perms))

    # -- square names ---------------------------------------------------------------
    def square_name(self, v: int) -> str:
        """``a1`` style on a grid, the vertex label on a graph."""
        if not 0 <= v < self.n:
            raise NotationError(f"square {v} is not on this {self.n}-square board")
        if self.is_grid:
            r, c = divmod(v, self.cols)
            return f"{column_name(c)}{r + 1}"
        return str(self.labels[v] if self.labels is not None else v)

    def parse_square(self, text: str) -> int:
        """The vertex named ``text`` (``b3`` on a grid, a vertex label on a graph)."""
        t = text.strip().lower()
        if self.is_grid:
            m = _SQUARE_RE.fullmatch(t)
            if not m:
                raise NotationError(f"bad square {text!r}: expected a column letter and a row "
                                    "number, like a1")
            c, r = _column_index(m.group(1)), int(m.group(2)) - 1
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise NotationError(f"square {text!r} is off the {self.rows}x{self.cols} board")
            return r * self.cols + c
        if not re.fullmatch(r"-?[0-9]+", t):
            raise NotationError(f"bad vertex {text!r}: expected a vertex number")
        label = int(t)
        if self.labels is None:
            if not 0 <= label < self.n:
                raise NotationError(f"vertex {label} is not on this graph (0..{self.n - 1})")
            return label
        try:
            return self._label_index[label]
        except KeyError:
            raise NotationError(f"vertex {label} is not on this graph") from None

    @cached_property
    def _label_index(self) -> dict[int, int]:
        return {lab: i for i, lab in enumerate(self.labels or ())}

    def describe(self) -> str:
        return self.name or (f"grid:{self.rows}x{self.cols}" if self.is_grid else f"graph:{self.n}")


class Move(NamedTuple):
    """The stone on ``src`` clobbers the stone on the adjacent square ``dst``.

    A named tuple: cheap to create by the million (constructions emit that many) and
    compared, hashed and ordered as ``(src, dst)``.
    """

    src: int
    dst: int

    def to_str(self, board: Board) -> str:
        return f"{board.square_name(self.src)}-{board.square_name(self.dst)}"

    @classmethod
    def parse(cls, text: str, board: Board) -> Move:
        """Parse ``a1-b1`` (grid) or ``3-7`` (graph)."""
        t = text.strip()
        if board.is_grid:
            parts = t.split("-")
        else:
            m = re.fullmatch(r"\s*(-?[0-9]+)\s*-\s*(-?[0-9]+)\s*", t)
            parts = [m.group(1), m.group(2)] if m else []
        if len(parts) != 2 or not parts[0] or not parts[1]:
            example = "a1-b1" if board.is_grid else "3-7"
            raise NotationError(f"bad move {text!r}: expected two squares joined by '-', "
                                f"like {example}")
        return cls(board.parse_square(parts[0]), board.parse_square(parts[1]))


def check_move(board: Board, cells: Sequence[int], move: Move, color: int | None = None) -> None:
    """Raise IllegalMoveError unless the stone on ``move.src`` (of ``color``, when given) can
    clobber the adjacent stone of the other colour on ``move.dst``. The one legality rule
    of Clobber and Solitaire Clobber; ``cells`` may be a mutable bytearray."""
    src, dst = move
    if not (0 <= src < board.n and 0 <= dst < board.n):
        raise IllegalMoveError(f"move {src}-{dst} names a square off the board")
    mover = cells[src]
    # the legal case is checked first and cheaply: replays run to millions of moves
    if (mover != EMPTY and (color is None or mover == color) and cells[dst] == 3 - mover
            and board.adjacent(src, dst)):
        return
    name = move.to_str(board)
    if mover == EMPTY:
        raise IllegalMoveError(f"move {name} is illegal: {board.square_name(src)} is empty")
    if color is not None and mover != color:
        raise IllegalMoveError(f"move {name} is illegal: it is {COLOR_NAMES[color]}'s turn "
                               f"but {board.square_name(src)} holds a "
                               f"{COLOR_NAMES[mover]} stone")
    if not board.adjacent(src, dst):
        raise IllegalMoveError(f"move {name} is illegal: the squares are not adjacent")
    target = cells[dst]
    what = "is empty" if target == EMPTY else "holds a stone of the same colour"
    raise IllegalMoveError(f"move {name} is illegal: {board.square_name(dst)} {what}")


def _parse_cells(chars: str, place: str) -> bytes:
    """The cells written by the characters x, o and . of ``chars``; a bad character is
    refused naming its place (``place`` with ``{}`` for its 1-based index in ``chars``).

    >>> list(_parse_cells("xo.", "position {}"))
    [1, 2, 0]
    """
    cells = bytearray()
    for j, ch in enumerate(chars, start=1):
        cell = _CHAR_TO_CELL.get(ch)
        if cell is None:
            raise NotationError(f"bad character {ch!r} at {place.format(j)} (use x, o or .)")
        cells.append(cell)
    return bytes(cells)


def parse_grid_text(text: str) -> tuple[int, int, bytes]:
    """Parse grid notation into (rows, cols, cells); errors name row and column."""
    if not isinstance(text, str):
        raise NotationError("a board must be given as text")
    body = text.strip()
    if not body:
        raise NotationError("the board is empty: give at least one square, like xo")
    rows_text = [r.strip() for r in re.split(r"/|\r\n|\n|\r", body)]
    cells = bytearray()
    width = None
    for i, row in enumerate(rows_text, start=1):
        if not row:
            raise NotationError(f"row {i} of the board is empty")
        cells += _parse_cells(row, f"row {i}, column {{}} of the board")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise NotationError(f"row {i} has {len(row)} squares but row 1 has {width}; "
                                "a board must be rectangular")
    return len(rows_text), width, bytes(cells)


def parse_vertex_colors(text: str, n: int) -> bytes:
    """Vertex colours in vertex order, e.g. ``xoxoxxoo``; '/' and line breaks are ignored."""
    body = re.sub(r"[/\r\n]", "", text.strip())
    cells = _parse_cells(body, "position {} of the vertex colours")
    if len(cells) != n:
        raise NotationError(f"the board gives {len(cells)} vertex colours but the graph has "
                            f"{n} vertices")
    return bytes(cells)


@dataclass(frozen=True)
class Position:
    """Black and white stones on a board; immutable.

    ``cells[v]`` is EMPTY, BLACK or WHITE. ``black`` and ``white`` are the stone sets as
    bitmasks (bit v for vertex v).

    >>> p = Position.from_string("xox")
    >>> p.stone_count(), p.play(Move(0, 1)).text()
    (3, '.xx')
    """

    board: Board
    cells: bytes

    def __post_init__(self) -> None:
        if len(self.cells) != self.board.n:
            raise BoardError(f"{len(self.cells)} cells given for a {self.board.n}-square board")

    # -- construction -----------------------------------------------------------------
    @classmethod
    def from_string(cls, text: str, board: Board | None = None) -> Position:
        """Parse grid notation, or vertex colours in vertex order when ``board`` is a graph.

        A grid has at most :data:`MAX_BOARD_SQUARES` squares (the searches key parts by
        bitmasks of the whole board: n^2 / 8 bytes of masks).
        """
        if isinstance(text, str) and len(text) > MAX_BOARD_TEXT:
            raise UnsupportedError(f"the board text is longer than {MAX_BOARD_TEXT:,} "
                                   f"characters; boards have at most {MAX_BOARD_SQUARES:,} "
                                   "squares")
        if board is None or board.is_grid:
            rows, cols, cells = parse_grid_text(text)
            if rows * cols > MAX_BOARD_SQUARES:
                raise UnsupportedError(f"the {rows}x{cols} board has {rows * cols:,} squares; "
                                       f"boards have at most {MAX_BOARD_SQUARES:,}")
            if board is not None and (rows, cols) != (board.rows, board.cols):
                if rows == 1 and cols == board.n:  # a grid given in vertex order
                    return cls(board, cells)
                raise NotationError(f"the board is {rows}x{cols} but the grid is "
                                    f"{board.rows}x{board.cols}")
            return cls(board or Board.grid(rows, cols), cells)
        return cls(board, parse_vertex_colors(text, board.n))

    @classmethod
    def from_masks(cls, board: Board, black: int, white: int) -> Position:
        if black & white:
            raise BoardError("a square cannot hold both a black and a white stone")
        cells = bytearray(board.n)
        for v in range(board.n):
            if black >> v & 1:
                cells[v] = BLACK
            elif white >> v & 1:
                cells[v] = WHITE
        return cls(board, bytes(cells))

    @classmethod
    def checkerboard(cls, rows: int, cols: int) -> Position:
        """The n x m checkerboard configuration: black on squares with r + c even."""
        b = Board.grid(rows, cols)
        return cls(b, bytes(b.square_colors))

    # -- stones -------------------------------------------------------------------------
    @cached_property
    def black(self) -> int:
        return sum(1 << v for v, c in enumerate(self.cells) if c == BLACK)

    @cached_property
    def white(self) -> int:
        return sum(1 << v for v, c in enumerate(self.cells) if c == WHITE)

    def mask(self, color: int) -> int:
        return self.black if color == BLACK else self.white

    def stone_count(self, color: int | None = None) -> int:
        if color is None:
            return self.board.n - self.cells.count(EMPTY)
        return self.cells.count(color)

    def stones(self, color: int | None = None) -> list[int]:
        if color is None:
            return [v for v, c in enumerate(self.cells) if c != EMPTY]
        return [v for v, c in enumerate(self.cells) if c == color]

    # -- moves (the reference move generator) ---------------------------------------------
    def moves(self, color: int | None = None) -> list[Move]:
        """Every move of ``color`` (both colours when None): black moves first, each stone's
        moves in neighbour order."""
        out = []
        for col in (COLORS if color is None else (color,)):
            other = opponent(col)
            for v, c in enumerate(self.cells):
                if c == col:
                    for u in self.board.neighbors(v):
                        if self.cells[u] == other:
                            out.append(Move(v, u))
        return out

    def has_move(self, color: int | None = None) -> bool:
        for v, c in enumerate(self.cells):
            if c != EMPTY and (color is None or c == color):
                other = opponent(c)
                if any(self.cells[u] == other for u in self.board.neighbors(v)):
                    return True
        return False

    def check_move(self, move: Move, color: int | None = None) -> None:
        """Raise IllegalMoveError, naming the move, unless ``move`` is legal here."""
        check_move(self.board, self.cells, move, color)

    def play(self, move: Move, color: int | None = None) -> Position:
        """The position after ``move`` (checked; ``color`` is the colour that must move)."""
        self.check_move(move, color)
        cells = bytearray(self.cells)
        cells[move.dst] = cells[move.src]
        cells[move.src] = EMPTY
        return Position(self.board, bytes(cells))

    def parse_move(self, text: str) -> Move:
        return Move.parse(text, self.board)

    # -- transformations ------------------------------------------------------------------
    def swap_colors(self) -> Position:
        return Position(self.board, self.cells.translate(bytes([EMPTY, WHITE, BLACK]) + bytes(253)))

    def transform(self, perm: Sequence[int]) -> Position:
        """The position with the stone of v moved to ``perm[v]``."""
        cells = bytearray(self.board.n)
        for v, c in enumerate(self.cells):
            cells[perm[v]] = c
        return Position(self.board, bytes(cells))

    # -- printing -------------------------------------------------------------------------
    def text(self, sep: str = "/") -> str:
        """Notation: rows joined by ``sep`` on a grid, vertex colours on a graph."""
        chars = "".join(CELL_CHARS[c] for c in self.cells)
        if not self.board.is_grid:
            return chars
        C = self.board.cols
        return sep.join(chars[i:i + C] for i in range(0, len(chars), C))

    def __str__(self) -> str:
        return self.text()

    def drawing(self) -> str:
        """A Unicode drawing with coordinates (see :mod:`clobbermania.render`)."""
        from .render import text_drawing
        return text_drawing(self)

    def _repr_svg_(self) -> str:
        from .render import position_svg
        return position_svg(self)
