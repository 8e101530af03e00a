"""OpenSpiel's Clobber state strings and moves, in and out.

OpenSpiel (``pyspiel.load_game("clobber", {"rows": R, "columns": C})``) builds a state from
a *board string*: the first character is the player to move, ``0`` or ``1``, then the
cells row by row from the top row, ``o``, ``x`` or ``.`` (checked against open_spiel
2.0.2, ``clobber.cc``: ``game.new_initial_state("0oxox...")``). Its player 0 plays the
``o`` stones and moves first; its start is the checkerboard with ``o`` on the bottom-left
square. Its move text names squares chess-style, the column letter then the row counted
from the *bottom* (``a3b3`` on a 3-row board is our ``a1-b1``), and ``str(state)``
prints the rows with their numbers and a line of column letters.

Colours are the same letters on both sides (``x`` Black, ``o`` White): OpenSpiel's player
0 is our White.

>>> p, to_move = from_openspiel("0oxoxxoxooxox", 3, 4)
>>> p.text(), to_move == WHITE
('oxox/xoxo/oxox', True)
>>> to_openspiel(p, to_move)
'0oxoxxoxooxox'
>>> move_to_openspiel(p.parse_move("a1-b1"), p.board), move_from_openspiel("a3b3", p.board)
('a3b3', Move(src=0, dst=1))
>>> openspiel_start(3, 3).text()
'oxo/xox/oxo'
"""

from __future__ import annotations

import re

from ..errors import NotationError
from ..stones import BLACK, WHITE, Board, Move, Position, column_name

__all__ = ["from_openspiel", "to_openspiel", "move_to_openspiel", "move_from_openspiel",
           "openspiel_start", "parse_openspiel_display", "PLAYER_COLOR"]

#: OpenSpiel's player number -> our colour (its player 0 moves the o stones).
PLAYER_COLOR = {0: WHITE, 1: BLACK}
_COLOR_PLAYER = {WHITE: 0, BLACK: 1}


def from_openspiel(text: str, rows: int, cols: int) -> tuple[Position, int]:
    """(position, colour to move) of an OpenSpiel board string on a rows x cols board."""
    t = text.strip()
    if len(t) != rows * cols + 1:
        raise NotationError(f"an OpenSpiel board string for {rows}x{cols} has "
                            f"{rows * cols + 1} characters (the player, then the cells), "
                            f"not {len(t)}")
    if t[0] not in "01":
        raise NotationError(f"an OpenSpiel board string starts with the player to move, "
                            f"0 or 1, not {t[0]!r}")
    cells = t[1:]
    bad = sorted(set(cells) - set("xo."))
    if bad:
        raise NotationError(f"bad character {bad[0]!r} in the OpenSpiel board string "
                            "(use x, o or .)")
    grid = "/".join(cells[r * cols:(r + 1) * cols] for r in range(rows))
    return Position.from_string(grid), PLAYER_COLOR[int(t[0])]


def to_openspiel(position: Position, to_move: int) -> str:
    """The OpenSpiel board string of a grid position with ``to_move`` to play."""
    if not position.board.is_grid:
        raise NotationError("OpenSpiel's Clobber is played on grids only")
    if to_move not in _COLOR_PLAYER:
        raise NotationError(f"the player to move must be BLACK or WHITE, not {to_move!r}")
    return str(_COLOR_PLAYER[to_move]) + position.text(sep="")


def _square(board: Board, v: int) -> str:
    r, c = divmod(v, board.cols)
    return f"{column_name(c)}{board.rows - r}"


def move_to_openspiel(move: Move, board: Board) -> str:
    """OpenSpiel's text of a move: ``a3b3`` (rows counted from the bottom)."""
    if not board.is_grid:
        raise NotationError("OpenSpiel's Clobber is played on grids only")
    return _square(board, move.src) + _square(board, move.dst)


_OS_MOVE = re.compile(r"([a-z])([0-9]+)([a-z])([0-9]+)")


def move_from_openspiel(text: str, board: Board) -> Move:
    """Our move from OpenSpiel's move text (``a3b3``)."""
    m = _OS_MOVE.fullmatch(text.strip())
    if not m or not board.is_grid:
        raise NotationError(f"bad OpenSpiel move {text!r}: expected two squares like a3b3")
    out = []
    for letter, num in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
        c, r = ord(letter) - ord("a"), board.rows - int(num)
        if not (0 <= r < board.rows and 0 <= c < board.cols):
            raise NotationError(f"OpenSpiel move {text!r} leaves the "
                                f"{board.rows}x{board.cols} board")
        out.append(r * board.cols + c)
    return Move(out[0], out[1])


def openspiel_start(rows: int, cols: int) -> Position:
    """OpenSpiel's start: the checkerboard with ``o`` on the bottom-left square (o, its
    player 0, moves first)."""
    p = Position.checkerboard(rows, cols)
    # our checkerboard has x where r + c is even; the bottom-left square is (rows - 1, 0)
    return p if (rows - 1) % 2 == 1 else p.swap_colors()


def parse_openspiel_display(text: str) -> Position:
    """The position of OpenSpiel's ``str(state)`` (rows prefixed by their numbers, then a
    line of column letters), for example ``'3oxox\\n2xoxo\\n1oxox\\n abcd\\n'``."""
    rows = []
    for line in text.strip("\n").splitlines():
        m = re.fullmatch(r"\s*([0-9]+)([xo.]+)\s*", line)
        if m:
            rows.append(m.group(2))
        elif line.strip() and not re.fullmatch(r"\s*[a-z]+\s*", line):
            raise NotationError(f"bad line {line!r} in an OpenSpiel board display")
    if not rows:
        raise NotationError("no board rows in the OpenSpiel display")
    return Position.from_string("/".join(rows))
