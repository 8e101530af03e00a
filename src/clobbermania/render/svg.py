"""SVG pictures of positions and of move sequences (standard library only).

Grid boards are drawn as a tinted checkerboard with coordinates; general graphs as
vertices on a circle joined by their edges. Stones are ``<circle>`` elements with
``class="stone black"`` or ``class="stone white"``; each board is one ``<g class="board">``.
Boards of more than :data:`LABEL_LIMIT` squares are drawn without labels and smaller.
An *interactive* drawing (for the web pages) adds on top one transparent hit element per
square or vertex, ``class="hit" data-square="a1"`` (the name ``Board.square_name``
gives), so that a page matches a click to a square without computing any layout.

>>> from clobbermania.stones import Position
>>> svg = position_svg(Position.from_string("xo./ox."))
>>> svg.startswith("<svg"), svg.count('class="stone ')
(True, 4)
>>> position_svg(Position.from_string("xo./ox."), interactive=True).count('class="hit"')
6
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from ..stones import BLACK, COLOR_NAMES, EMPTY, WHITE, Move, Position, column_name
from .text import check_highlight

#: Boards with more squares than this are drawn without labels, scaled down.
LABEL_LIMIT = 2500
#: The rough pixel extent that big boards are scaled down to.
MAX_EXTENT = 2000.0
#: The most squares one picture of a sequence draws (boards x squares of a board): a
#: longer sequence is drawn as evenly spaced snapshots, so that a picture stays within a
#: few tens of megabytes and a second or two whatever the witness.
MAX_DRAWN_SQUARES = 100_000

LIGHT_SQUARE = "#f0dcb4"
DARK_SQUARE = "#c49a62"
BOARD_EDGE = "#8a6a3a"
STONE_FILL = {BLACK: "#111111", WHITE: "#ffffff"}
STONE_LINE = "#111111"
EMPTY_VERTEX = "#dddddd"
EMPTY_VERTEX_LINE = "#999999"
EDGE_LINE = "#888888"
ARROW = "#d62728"
TEXT = "#333333"


def _num(x: float) -> str:
    """A compact decimal for an SVG attribute: 12.5, 3, 0.33."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


@dataclass
class _Drawing:
    """One board drawn with its top-left corner at the origin."""

    parts: list[str] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0

    def element(self, x: float = 0.0, y: float = 0.0) -> str:
        """The drawing as a ``<g class="board">`` placed at (x, y)."""
        move = f' transform="translate({_num(x)},{_num(y)})"' if x or y else ""
        return f'<g class="board"{move}>' + "".join(self.parts) + "</g>"


def _text(x: float, y: float, content: str, font: float, cls: str, anchor: str = "middle") -> str:
    return (f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(font)}" '
            f'text-anchor="{anchor}" dominant-baseline="central" fill="{TEXT}">'
            f"{escape(content)}</text>")


def _stone(x: float, y: float, r: float, cell: int, line: float) -> str:
    name = COLOR_NAMES[cell]
    outline = f' stroke="{STONE_LINE}" stroke-width="{_num(line)}"' if cell != BLACK else ""
    return (f'<circle class="stone {name}" cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" '
            f'fill="{STONE_FILL[cell]}"{outline}/>')


def _arrow(x1: float, y1: float, x2: float, y2: float, scale: float) -> str:
    """A dot on (x1, y1) and an arrow from it whose tip is (x2, y2)."""
    out = [f'<g class="highlight" fill="{ARROW}" stroke="{ARROW}" opacity="0.85">',
           f'<circle cx="{_num(x1)}" cy="{_num(y1)}" r="{_num(scale * 0.12)}" stroke="none"/>']
    d = math.hypot(x2 - x1, y2 - y1)
    if d > 0:
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        head = min(scale * 0.35, d * 0.5)
        half = head * 0.6
        bx, by = x2 - ux * head, y2 - uy * head
        out.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(bx)}" y2="{_num(by)}" '
                   f'stroke-width="{_num(scale * 0.1)}" stroke-linecap="round"/>')
        pts = [(x2, y2), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
        out.append('<polygon stroke="none" points="'
                   + " ".join(f"{_num(px)},{_num(py)}" for px, py in pts) + '"/>')
    out.append("</g>")
    return "".join(out)


def _hit(shape: str, geometry: str, name: str) -> str:
    """One transparent element that takes the pointer (and keyboard focus) for the square
    ``name``: filled with opacity 0, so that it receives clicks where ``fill="none"``
    would not."""
    label = escape(name)
    return (f'<{shape} class="hit" data-square="{label}" {geometry} fill="#000" '
            f'fill-opacity="0" tabindex="0" role="button" aria-label="{label}"/>')


def _draw_board(position: Position, size: float, highlight: Move | None,
                interactive: bool = False) -> _Drawing:
    """Draw ``position`` (squares of ``size`` pixels) with ``highlight`` as an arrow, and,
    when ``interactive``, a hit element on top of each square."""
    board = position.board
    check_highlight(board, highlight)
    if board.is_grid:
        return _draw_grid(position, size, highlight, interactive)
    return _draw_graph(position, size, highlight, interactive)


def _draw_grid(position: Position, size: float, highlight: Move | None,
               interactive: bool = False) -> _Drawing:
    board = position.board
    rows, cols = board.rows, board.cols
    labels = board.n <= LABEL_LIMIT
    if not labels:
        size = max(1.0, min(size, MAX_EXTENT / max(rows, cols)))
    pad = size * 0.1
    left = size * (0.25 + 0.25 * len(str(rows))) if labels else pad
    top = size * 0.6 if labels else pad
    d = _Drawing(width=left + cols * size + pad, height=top + rows * size + pad)
    parts = d.parts
    parts.append(f'<rect class="squares" x="{_num(left)}" y="{_num(top)}" '
                 f'width="{_num(cols * size)}" height="{_num(rows * size)}" '
                 f'fill="{LIGHT_SQUARE}"/>')
    sq = _num(size)
    parts.append(f'<g class="dark-squares" fill="{DARK_SQUARE}">')
    for v, color in enumerate(board.square_colors):
        if color == BLACK:
            r, c = divmod(v, cols)
            parts.append(f'<rect x="{_num(left + c * size)}" y="{_num(top + r * size)}" '
                         f'width="{sq}" height="{sq}"/>')
    parts.append("</g>")
    parts.append(f'<rect x="{_num(left)}" y="{_num(top)}" width="{_num(cols * size)}" '
                 f'height="{_num(rows * size)}" fill="none" stroke="{BOARD_EDGE}" '
                 f'stroke-width="{_num(max(0.5, size * 0.03))}"/>')
    if labels:
        font = size * 0.4
        for c in range(cols):
            parts.append(_text(left + (c + 0.5) * size, top - size * 0.3, column_name(c),
                               font, "coord"))
        for r in range(rows):
            parts.append(_text(left - size * 0.15, top + (r + 0.5) * size, str(r + 1), font,
                               "coord", anchor="end"))

    def centre(v: int) -> tuple[float, float]:
        r, c = divmod(v, cols)
        return left + (c + 0.5) * size, top + (r + 0.5) * size

    radius, line = size * 0.4, max(0.5, size * 0.04)
    for v, cell in enumerate(position.cells):
        if cell != EMPTY:
            parts.append(_stone(*centre(v), radius, cell, line))
    if highlight is not None:
        parts.append(_arrow(*centre(highlight.src), *centre(highlight.dst), size))
    if interactive:
        parts.append('<g class="hits">')
        for v in range(board.n):
            r, c = divmod(v, cols)
            parts.append(_hit("rect", f'x="{_num(left + c * size)}" y="{_num(top + r * size)}" '
                                      f'width="{sq}" height="{sq}"', board.square_name(v)))
        parts.append("</g>")
    return d


def _draw_graph(position: Position, size: float, highlight: Move | None,
                interactive: bool = False) -> _Drawing:
    board = position.board
    n = board.n
    labels = n <= LABEL_LIMIT
    spacing = size if labels else max(1.0, min(size, MAX_EXTENT * math.pi / n))
    rv = spacing * 0.3
    big_r = max(spacing * 1.2, n * spacing / (2 * math.pi)) if n > 1 else 0.0
    names = [board.square_name(v) for v in range(n)] if labels else []
    margin = rv + spacing * 0.25
    if labels:
        margin += spacing * (0.15 + 0.25 * max(len(s) for s in names))
    cx = cy = margin + big_r
    d = _Drawing(width=2 * cx, height=2 * cy)
    parts = d.parts

    def angle(v: int) -> float:
        return -math.pi / 2 + 2 * math.pi * v / n

    def centre(v: int) -> tuple[float, float]:
        a = angle(v)
        return cx + big_r * math.cos(a), cy + big_r * math.sin(a)

    points = [centre(v) for v in range(n)]
    path = [f"M{_num(points[u][0])} {_num(points[u][1])}L{_num(points[v][0])} "
            f"{_num(points[v][1])}" for u, v in board.edges()]
    if path:
        parts.append(f'<path class="edges" fill="none" stroke="{EDGE_LINE}" '
                     f'stroke-width="{_num(max(0.3, spacing * 0.05))}" d="{"".join(path)}"/>')
    line = max(0.3, spacing * 0.04)
    for v, cell in enumerate(position.cells):
        x, y = points[v]
        if cell == EMPTY:
            parts.append(f'<circle class="vertex empty" cx="{_num(x)}" cy="{_num(y)}" '
                         f'r="{_num(rv)}" fill="{EMPTY_VERTEX}" stroke="{EMPTY_VERTEX_LINE}" '
                         f'stroke-width="{_num(line)}"/>')
        else:
            parts.append(_stone(x, y, rv, cell, line))
    if labels:
        font = spacing * 0.4
        for v in range(n):
            a = angle(v) if n > 1 else 0.0
            ca, sa = math.cos(a), math.sin(a)
            anchor = "start" if ca > 0.3 else "end" if ca < -0.3 else "middle"
            reach = big_r + rv + spacing * (0.15 + 0.25 * abs(sa))
            parts.append(_text(cx + reach * ca, cy + reach * sa, names[v], font, "label",
                               anchor=anchor))
    if highlight is not None:
        parts.append(_arrow(*points[highlight.src], *points[highlight.dst], spacing))
    if interactive:
        # a disc a little larger than the vertex (vertices are ``spacing`` apart on the
        # circle, so neighbouring discs do not overlap)
        hit_r = _num(min(spacing * 0.48, rv * 1.5))
        parts.append('<g class="hits">')
        for v in range(n):
            x, y = points[v]
            parts.append(_hit("circle", f'cx="{_num(x)}" cy="{_num(y)}" r="{hit_r}"',
                              board.square_name(v)))
        parts.append("</g>")
    return d


def _document(width: float, height: float, body: list[str], title: str | None = None) -> str:
    w, h = math.ceil(width), math.ceil(height)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="sans-serif">')
    tip = f"<title>{escape(title)}</title>" if title else ""
    return head + tip + "".join(body) + "</svg>\n"


def position_svg(
    position: Position,
    *,
    size: int = 40,
    highlight: Move | None = None,
    title: str | None = None,
    interactive: bool = False,
) -> str:
    """A standalone SVG document of ``position``; squares are ``size`` pixels.

    ``highlight`` draws an arrow from the move's source to its destination; ``title`` is
    shown above the board (and as the document's ``<title>``). ``interactive`` adds, on
    top of everything, one transparent ``class="hit"`` element per square (a rectangle)
    or vertex (a disc) with ``data-square`` its name (``a1``, or the vertex label) and
    ``tabindex="0"``: the web pages read the clicked square from it.

    >>> from clobbermania.stones import Move, Position
    >>> p = Position.from_string("xo").play(Move(0, 1))
    >>> svg = position_svg(p, highlight=Move(0, 1), title="a1-b1")
    >>> svg.count('class="stone black"'), 'class="highlight"' in svg
    (1, True)
    >>> svg = position_svg(p, interactive=True)
    >>> svg.count('class="hit" data-square="a1"'), svg.count('class="hit"')
    (1, 2)
    """
    drawing = _draw_board(position, size, highlight, interactive)
    body: list[str] = []
    top = 0.0
    width = drawing.width
    if title:
        font = max(10.0, size * 0.45)
        top = font * 1.6
        width = max(width, len(title) * font * 0.6 + font)
        body.append(_text(width / 2, top / 2, title, font, "title"))
    body.append(drawing.element((width - drawing.width) / 2, top))
    return _document(width, top + drawing.height, body, title)


def snapshot_moves(n_moves: int, squares: int) -> list[int]:
    """Which move numbers (1..n_moves) a picture of a sequence draws a board for.

    Every one when the ``n_moves + 1`` boards of ``squares`` squares fit in
    MAX_DRAWN_SQUARES; otherwise as many as fit (at least two), evenly spaced, the first
    and the last move included.

    >>> snapshot_moves(5, 100)
    [1, 2, 3, 4, 5]
    >>> snapshot_moves(1000, 25_000)
    [1, 501, 1000]
    """
    if n_moves < 1:
        return []
    room = max(2, MAX_DRAWN_SQUARES // max(1, squares) - 1)
    if n_moves <= room:
        return list(range(1, n_moves + 1))
    return sorted({1 + round(i * (n_moves - 1) / (room - 1)) for i in range(room)})


def sequence_svg(
    positions: list[Position],
    moves: list[Move],
    *,
    size: int = 24,
    columns: int = 6,
    captions: list[str] | None = None,
) -> str:
    """One SVG document showing ``positions`` left to right, ``columns`` boards per row.

    ``positions[i + 1]`` is the position after ``moves[i]``, which is drawn as an arrow on
    it. Captions default to ``start``, ``1. a1-b1``, ``2. ...``.

    >>> from clobbermania.stones import Position
    >>> p = Position.from_string("xox")
    >>> m = p.moves()[0]
    >>> sequence_svg([p, p.play(m)], [m]).count('<g class="board"')
    2
    """
    if not positions:
        raise ValueError("sequence_svg needs at least one position")
    if len(positions) != len(moves) + 1:
        raise ValueError(f"{len(positions)} positions need {len(positions) - 1} moves, "
                         f"not {len(moves)}")
    if columns < 1:
        raise ValueError(f"columns must be at least 1, not {columns}")
    if captions is None:
        captions = ["start"] + [f"{i}. {m.to_str(positions[i - 1].board)}"
                                for i, m in enumerate(moves, start=1)]
    elif len(captions) != len(positions):
        raise ValueError(f"{len(captions)} captions given for {len(positions)} positions")
    drawings = [_draw_board(p, size, moves[i - 1] if i else None)
                for i, p in enumerate(positions)]
    font = max(9.0, size * 0.5)
    gap = max(4.0, size * 0.5)
    board_w = max(d.width for d in drawings)
    board_h = max(d.height for d in drawings)
    inner_w = max(board_w, max(len(c) for c in captions) * font * 0.6)
    cell_w, cell_h = inner_w + gap, board_h + font * 1.6 + gap
    ncols = min(columns, len(positions))
    nrows = math.ceil(len(positions) / ncols)
    body = []
    for i, (d, caption) in enumerate(zip(drawings, captions, strict=True)):
        row, col = divmod(i, ncols)
        x, y = gap / 2 + col * cell_w, gap / 2 + row * cell_h
        body.append(f'<g class="frame" transform="translate({_num(x)},{_num(y)})">')
        body.append(d.element((inner_w - d.width) / 2, (board_h - d.height) / 2))
        body.append(_text(inner_w / 2, board_h + font * 0.8, caption, font, "caption"))
        body.append("</g>")
    return _document(ncols * cell_w, nrows * cell_h, body)


__all__ = ["position_svg", "sequence_svg", "snapshot_moves", "LABEL_LIMIT", "MAX_DRAWN_SQUARES"]
