"""Unicode text drawings of positions.

A grid is drawn with column letters on top and row numbers (top row = 1) on the left;
a general graph is drawn one line per vertex with its neighbours. Black stones are ``●``,
white stones ``○`` and empty squares ``·``. A highlighted move's destination square is
bracketed.

>>> from clobbermania.stones import Position
>>> print(text_drawing(Position.from_string("xo./ox.")))
  a b c
1 ● ○ ·
2 ○ ● ·
"""

from __future__ import annotations

from ..errors import BoardError
from ..stones import BLACK, EMPTY, WHITE, Board, Move, Position, column_name

#: The glyph drawn for each cell content.
GLYPHS = {EMPTY: "\u00b7", BLACK: "\u25cf", WHITE: "\u25cb"}


def check_highlight(board: Board, move: Move | None) -> None:
    """Raise BoardError unless ``move`` is None or names two squares of ``board``."""
    if move is None:
        return
    for v in (move.src, move.dst):
        if not 0 <= v < board.n:
            raise BoardError(f"highlighted move {move.src}-{move.dst} names square {v}, "
                             f"which is not on this {board.n}-square board")


def text_drawing(position: Position, highlight: Move | None = None) -> str:
    """A Unicode drawing of ``position``; ``highlight``'s destination is shown as ``[●]``.

    >>> from clobbermania.stones import Move, Position
    >>> print(text_drawing(Position.from_string(".x/ox"), highlight=Move(0, 1)))
      a b
    1 ·[●]
    2 ○ ●
    """
    board = position.board
    check_highlight(board, highlight)
    mark = highlight.dst if highlight is not None else -1
    if board.is_grid:
        return _grid_drawing(position, mark)
    return _graph_drawing(position, mark)


def _grid_drawing(position: Position, mark: int) -> str:
    board = position.board
    rows, cols = board.rows, board.cols
    width = len(column_name(cols - 1))  # widest column name; glyphs are one character
    label_width = len(str(rows))
    header = " " * label_width + " " + " ".join(column_name(c).ljust(width) for c in range(cols))
    lines = [header.rstrip()]
    cells = position.cells
    for r in range(rows):
        base = r * cols
        seps = [" "] * (cols + 1)
        if base <= mark < base + cols:
            seps[mark - base] = "["
            seps[mark - base + 1] = "]"
        parts = [str(r + 1).rjust(label_width)]
        for c in range(cols):
            parts.append(seps[c])
            parts.append(GLYPHS[cells[base + c]].ljust(width))
        parts.append(seps[cols])
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def _graph_drawing(position: Position, mark: int) -> str:
    board = position.board
    names = [board.square_name(v) for v in range(board.n)]
    label_width = max(len(s) for s in names)
    lines = []
    for v, cell in enumerate(position.cells):
        glyph = GLYPHS[cell]
        shown = f"[{glyph}]" if v == mark else f" {glyph} "
        nbrs = board.neighbors(v)
        adj = ", ".join(names[u] for u in nbrs) if nbrs else "(no neighbours)"
        lines.append(f"{names[v].rjust(label_width)}:{shown}\u2014 {adj}")
    return "\n".join(lines)
