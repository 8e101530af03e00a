"""Pictures of Clickomania boards: SVG (one board, or a solution as a strip) and text.

Colours 0..35 get a fixed palette (the first five are the usual SameGame red, blue, green,
yellow and purple). A clicked group is outlined in the board it is clicked on.

>>> from clobbermania.clickomania.rules import Board
>>> svg = clickomania_svg(Board.from_string("12/12"))
>>> svg.startswith("<svg"), svg.count('class="block"')
(True, 4)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..clickomania.rules import COLOR_CHARS, Board, Square, iter_boards
from ..errors import BoardError
from .svg import TEXT, _document, _num, _text, snapshot_moves

#: Fill colours by colour index (cycled past the end).
PALETTE = (
    "#e6194b", "#4363d8", "#3cb44b", "#ffe119", "#911eb4", "#f58231", "#42d4f4", "#f032e6",
    "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
    "#808000", "#ffd8b1", "#000075", "#a9a9a9",
)
#: Boards with more cells than this are not drawn (the picture would be unreadable).
DRAW_LIMIT = 10_000
#: 256-colour terminal codes for the text drawing, by colour index (cycled).
_ANSI = (196, 27, 34, 220, 129, 208, 51, 201, 154, 218, 30, 183, 94, 230, 88, 158, 100,
         223, 18, 248)


def check_drawable(board: Board) -> None:
    """Refuse, with one sentence, a board too large to draw (more than DRAW_LIMIT cells);
    callers check it before a long search whose picture is asked for."""
    if board.height * board.width > DRAW_LIMIT:
        raise BoardError(f"a {board.height}x{board.width} board is too large to draw "
                         f"(limit {DRAW_LIMIT} cells)")


def _board_parts(board: Board, size: float, outline: Sequence[Square] = (),
                 interactive: bool = False) -> list[str]:
    parts = [f'<rect x="0" y="0" width="{_num(board.width * size)}" '
             f'height="{_num(board.height * size)}" fill="#f4f4f4" stroke="#999"/>']
    for c, col in enumerate(board.columns):
        for h, x in enumerate(col):
            r = board.height - 1 - h
            name = board.square_name((r, c))
            hit = (f' data-square="{name}" data-color="{x}" tabindex="0" role="button" '
                   f'aria-label="{name}"') if interactive else ""
            parts.append(f'<rect class="block"{hit} x="{_num(c * size + 1)}" '
                         f'y="{_num(r * size + 1)}" width="{_num(size - 2)}" '
                         f'height="{_num(size - 2)}" rx="{_num(size/6)}"'
                         f' fill="{PALETTE[x % len(PALETTE)]}"><title>{COLOR_CHARS[x]} '
                         f'{name}</title></rect>')
    for r, c in outline:
        parts.append(f'<rect class="clicked" x="{_num(c * size + 2)}" y="{_num(r * size + 2)}" '
                     f'width="{_num(size - 4)}" height="{_num(size - 4)}" fill="none" '
                     f'stroke="#111" stroke-width="{_num(max(1.5, size / 10))}"/>')
    return parts


def clickomania_svg(board: Board, *, size: int = 24, title: str | None = None,
                    interactive: bool = False) -> str:
    """A standalone SVG document of ``board``; cells are ``size`` pixels.

    ``interactive`` (for the web pages) gives every block ``data-square`` (its name in
    the board as it stands, ``a1`` top-left: any square of a group clicks the group),
    ``data-color`` and ``tabindex="0"``; empty cells get none.

    >>> svg = clickomania_svg(Board.from_string("1./12"), interactive=True)
    >>> svg.count('data-square='), 'data-square="b2"' in svg, 'data-square="b1"' in svg
    (3, True, False)
    """
    check_drawable(board)
    top = 0.0
    body = []
    width = board.width * size
    if title:
        font = max(10.0, size * 0.6)
        top = font * 1.6
        width = max(width, len(title) * font * 0.6)
        body.append(_text(width / 2, top / 2, title, font, "title"))
    body.append(f'<g class="board" transform="translate(0,{_num(top)})">'
                + "".join(_board_parts(board, size, interactive=interactive)) + "</g>")
    return _document(width, top + board.height * size, body, title)


def clickomania_sequence_svg(board: Board, moves: Sequence[Square | str], *, size: int = 14,
                             per_row: int = 8) -> str:
    """A solution as a strip of boards: the start, then each board with the clicked group
    outlined before it goes (captions ``1. a3``, ...), and the final board. A sequence
    too long to draw every board of (render.svg.MAX_DRAWN_SQUARES) shows evenly spaced
    clicks, the first and the last included.

    >>> from clobbermania.clickomania.rules import Board
    >>> svg = clickomania_sequence_svg(Board.from_string("1122"), ["a1", "a1"])
    >>> svg.count('<g class="board"'), svg.count('class="clicked"')
    (3, 4)
    """
    check_drawable(board)
    if per_row < 1:
        raise ValueError(f"per_row must be at least 1, not {per_row}")
    moves = list(moves)
    # a long sequence on a big board: evenly spaced clicks only (the last board always)
    shown = set(snapshot_moves(len(moves), board.height * board.width))
    frames = []
    b = board
    for i, nxt in enumerate(iter_boards(board, moves), start=1):
        if i in shown:
            g = b.group_at(moves[i - 1])
            frames.append((b, g.squares, f"{i}. {b.square_name(g.square)}"))
        b = nxt
    frames.append((b, (), "end: cleared" if b.is_cleared else f"end: {b.n_blocks} left"))
    font = max(9.0, size * 0.7)
    gap = max(6.0, size * 0.5)
    bw, bh = board.width * size, board.height * size
    cell_w = max(bw, 8 * font * 0.6) + gap
    cell_h = bh + font * 1.8 + gap
    ncols = min(per_row, len(frames))
    nrows = math.ceil(len(frames) / ncols)
    body = []
    for i, (b, outline, caption) in enumerate(frames):
        row, col = divmod(i, ncols)
        x, y = gap / 2 + col * cell_w, gap / 2 + row * cell_h
        body.append(f'<g class="board" transform="translate({_num(x)},{_num(y)})">'
                    + "".join(_board_parts(b, size, outline)) + "</g>")
        body.append(_text(x + bw / 2, y + bh + font * 0.9, caption, font, "caption"))
    return _document(ncols * cell_w, nrows * cell_h, body)


def clickomania_text(board: Board, color: bool = False) -> str:
    """The board as text with column letters and row numbers; ``color`` adds ANSI colours.

    >>> print(clickomania_text(Board.from_string("1./12")))
      a b
    1 1 .
    2 1 2
    """
    from ..stones import column_name
    wide = max(len(str(board.height)), 1)
    lines = [" " * (wide + 1) + " ".join(column_name(c) for c in range(board.width))]
    for r, row in enumerate(board.text("\n").splitlines()):
        cells = []
        for ch in row:
            if color and ch != ".":
                k = COLOR_CHARS.index(ch)
                cells.append(f"\x1b[38;5;{_ANSI[k % len(_ANSI)]}m{ch}\x1b[0m")
            else:
                cells.append(ch)
        lines.append(f"{r + 1:>{wide}} " + " ".join(cells))
    return "\n".join(lines)


__all__ = ["clickomania_svg", "clickomania_sequence_svg", "check_drawable", "clickomania_text",
           "PALETTE", "DRAW_LIMIT", "TEXT"]
