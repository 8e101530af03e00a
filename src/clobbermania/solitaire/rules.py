"""Reference rules of Solitaire Clobber, in plain Python, written for reading.

Solitaire Clobber (Demaine, Demaine, Fleischer): one player moves the stones; a move
picks a stone and clobbers an adjacent stone of the other colour, taking its square.
In SC the moves alternate colours (black, white, black, ... or white, black, ...), and
play stops when the colour due to move has no move. In SC2 (Dorbec, Duchene, Gravier)
any colour may move at any time (``free=True``). The goal is to leave as few stones as
possible.

Every witness a solver returns is replayed here; the numba kernels are tested against
:func:`legal_moves` and :func:`play`.

>>> from clobbermania.stones import Position, BLACK
>>> p = Position.from_string("xoxo")
>>> r = replay(p, ["a1-b1", "d1-c1", "b1-c1"])
>>> r.valid, r.stones_left, r.final.text()
(True, 1, '..x.')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ..errors import ClobbermaniaError, NotationError
from ..stones import BLACK, COLOR_NAMES, EMPTY, Move, Position, check_move, opponent


def legal_moves(position: Position, color: int | None = None) -> list[Move]:
    """The moves of ``color`` (the colour due under alternation), or of both colours when
    ``color`` is None (SC2, or the first move of SC with the first colour free)."""
    return position.moves(color)


def play(position: Position, move: Move, color: int | None = None) -> Position:
    """The position after ``move``; raises IllegalMoveError naming the move if illegal."""
    return position.play(move, color)


def is_over(position: Position, color: int | None = None) -> bool:
    """True when the colour due (any colour when None) has no move."""
    return not position.has_move(color)


@dataclass(frozen=True)
class ReplayResult:
    """What :func:`replay` found: whether every move was legal, and the stones left."""

    valid: bool
    stones_left: int
    moves_played: int
    final: Position
    first: int | None
    error: str | None = None

    def to_dict(self) -> dict:
        d = {"valid": self.valid, "stones_left": self.stones_left,
             "moves_played": self.moves_played, "final": self.final.text(),
             "first": COLOR_NAMES.get(self.first)}
        if self.error is not None:
            d["error"] = self.error
        return d


def replay(
    position: Position,
    moves: Iterable[Move | str],
    *,
    free: bool = False,
    first: int | None = None,
) -> ReplayResult:
    """Play ``moves`` from ``position`` and check each one.

    Under alternation (``free=False``) the first move is by ``first`` (by whichever colour
    the first move's stone has when ``first`` is None) and colours then alternate. Move
    text is parsed in the board's notation. Linear time: the cells are updated in place.
    Text that is not a move at all raises NotationError; an illegal move gives
    ``valid=False`` and an ``error`` naming it.
    """
    board = position.board
    cells = bytearray(position.cells)
    stones = position.stone_count()
    due = None if free else first
    played = 0
    error = None
    for i, m in enumerate(moves, start=1):
        move = m if isinstance(m, Move) else Move.parse(m, board)
        try:
            check_move(board, cells, move, due)
        except ClobbermaniaError as exc:
            error = f"move {i}: {exc}"
            break
        mover = cells[move.src]
        if played == 0 and first is None:
            first = mover
        cells[move.dst] = mover
        cells[move.src] = EMPTY
        stones -= 1
        played += 1
        if not free:
            due = opponent(mover)
    final = Position(board, bytes(cells))
    return ReplayResult(error is None, stones, played, final, None if free else first, error)


def sequence(position: Position, moves: Sequence[Move], *, free: bool = False,
             first: int | None = None, keep: Collection[int] | None = None
             ) -> list[Position]:
    """Every position along a legal sequence, the start included (for pictures); with
    ``keep``, only the start and the positions after those numbers of moves."""
    out = [position]
    cur = position
    due = None if free else first
    for i, move in enumerate(moves, start=1):
        cur = cur.play(move, due)
        if not free:
            due = opponent(cur.cells[move.dst])
        if keep is None or i in keep:
            out.append(cur)
    return out


def parse_first(text: str | None) -> int | None:
    """``black``/``white`` -> colour; ``any``/None -> None."""
    if text is None or text.strip().lower() == "any":
        return None
    t = text.strip().lower()
    if t in ("black", "x"):
        return BLACK
    if t in ("white", "o"):
        return opponent(BLACK)
    raise NotationError(f"unknown first colour {text!r}: expected black, white or any")


__all__ = ["legal_moves", "play", "is_over", "replay", "sequence", "ReplayResult", "parse_first",
           "COLOR_NAMES"]
