"""Constructive reductions (Demaine, Demaine, Fleischer).

:func:`reduce_row` realises Theorem 1: the checkerboard row A_n = xoxo... is cut into
blocks of four, each reduced to one stone in three alternating moves (x first or o
first, as the alternation requires), and a remainder of 1, 2 or 3 stones (one move for
2 or 3); this meets the bound ceil(n/4) + [n = 3 mod 4] of Theorem 2, for either first
colour, in linear time.

>>> from clobbermania.stones import Board, Position
>>> from clobbermania.solitaire import replay
>>> [m.to_str(Board.grid(1, 4)) for m in reduce_row(4)]
['a1-b1', 'd1-c1', 'b1-c1']
>>> replay(Position.from_string("xo" * 15), reduce_row(30)).stones_left
8
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..stones import BLACK, WHITE, Move


def reduce_row(n: int, first: int = BLACK) -> list[Move]:
    """Theorem 1: moves (vertex i = i-th square of the row) reducing A_n, black on the
    even squares, to ceil(n/4) + [n = 3 mod 4] stones, colours alternating from
    ``first``."""
    if n < 1:
        raise UnsupportedError(f"A_n needs n >= 1, not {n}")
    if first not in (BLACK, WHITE):
        raise UnsupportedError("first must be BLACK or WHITE")
    moves: list[Move] = []
    due = first
    for a in range(0, n - 3, 4):
        b, c, d = a + 1, a + 2, a + 3  # x o x o
        if due == BLACK:
            moves += [Move(a, b), Move(d, c), Move(b, c)]
        else:
            moves += [Move(d, c), Move(a, b), Move(c, b)]
        due = BLACK + WHITE - due  # three moves: the other colour is due next
    a = n - n % 4
    if n - a >= 2:  # "xo" or "xox": one capture, by whichever colour is due
        moves.append(Move(a, a + 1) if due == BLACK else Move(a + 1, a))
    return moves


__all__ = ["reduce_row"]
