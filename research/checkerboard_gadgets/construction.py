"""Constructive reductions of checkerboards (Demaine, Demaine, Fleischer, Thms 1 and 5).

:func:`reduce_row` realises Theorem 1: the row A_n = xoxo... is cut into blocks of four,
each reduced to one stone in three alternating moves (x-first or o-first as the
alternation requires), with a remainder of 1, 2 or 3 stones; this meets the bound
ceil(n/4) + [n = 3 mod 4] of Theorem 2.

:func:`reduce_checkerboard` realises Theorem 5 with our own scheme (the paper's text is
incomplete). The board is cut into horizontal bands of height 2 or 3, and each band into
blocks of width 1, 2 or 3, visited as a snake: along a band, then down into the next.
Each block is reduced, together with the single stone left by the block before it (the
*carry*), to one stone on the block's far edge, which becomes the next block's carry.
How to reduce a block with a given carry, first colour and exit square is a *gadget*,
found once by exhaustive search and stored in ``data/gadgets.json`` (see
:mod:`.gadgets`); the last block reduces to the optimum. Which block sizes and exits to
use is chosen by dynamic programming over the snake; bands that face the same choices
share one solution, so the plan costs time linear in the number of rows and columns and
the moves are written out in time linear in nm.

The optimum is 1 stone, or 2 when 3 divides nm (the delta invariant), or 2 when nm is
odd and the colour with more stones moves first (counting: that colour runs out of
captures one move early).

>>> from clobbermania.stones import Position
>>> from clobbermania.solitaire import replay
>>> moves = reduce_checkerboard(4, 5, first=BLACK)
>>> replay(Position.checkerboard(4, 5), moves, first=BLACK).stones_left
1
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from gadgets import HEIGHTS, WIDTHS, gadget_key

from clobbermania.errors import UnsupportedError
from clobbermania.solitaire.theory import checkerboard_value
from clobbermania.stones import BLACK, WHITE, Board, Move

_DATA = Path(__file__).with_name("gadgets.json")  # written by make_gadgets.py


@lru_cache(maxsize=1)
def gadget_table() -> dict[str, dict[str, list]]:
    """The stored gadgets: input key (see :func:`.gadgets.gadget_key`) -> outcome code
    ``exit,front,next_mover`` (or ``end,stones,next_mover``) -> moves."""
    return json.loads(_DATA.read_text())


def optimum_stones(rows: int, cols: int, first: int) -> int:
    """Fewest stones the rows x cols checkerboard reduces to when ``first`` moves first."""
    value = checkerboard_value(rows, cols)
    n = rows * cols
    black = (n + 1) // 2  # squares with r + c even
    white = n - black
    if rows >= 2 and cols >= 2 and n % 2 == 1 and value == 1:
        # one stone needs n - 1 moves: the colour with more stones must move last
        majority = BLACK if black > white else WHITE
        if first == majority:
            return 2
    return value


def reduce_checkerboard(rows: int, cols: int, first: int = BLACK) -> list[Move]:
    """Theorem 5, constructively: an alternating move sequence from the rows x cols
    checkerboard (black where r + c is even), ``first`` moving first, that leaves the
    optimum (:func:`optimum_stones`): 1 stone, or 2 when 3 divides rows * cols or when
    the colour with more stones moves first on an odd board. Rows or columns of 1 use
    :func:`reduce_row`.
    """
    if rows < 1 or cols < 1:
        raise UnsupportedError(f"a checkerboard needs positive sides, not {rows}x{cols}")
    if first not in (BLACK, WHITE):
        raise UnsupportedError("first must be BLACK or WHITE")
    if rows == 1 or cols == 1:
        from clobbermania.solitaire.construction import reduce_row

        return reduce_row(rows * cols, first)  # vertex i is the i-th square either way
    plan = _plan(rows, cols, first)
    if plan is None:  # pragma: no cover - every size is covered (tests check 2..40)
        raise UnsupportedError(f"no gadget chain found for the {rows}x{cols} board")
    table = gadget_table()
    moves: list[Move] = []
    for key, code, r0, c0 in plan:
        for (ra, ca), (rb, cb) in table[key][code]:
            moves.append(Move((r0 + ra) * cols + c0 + ca, (r0 + rb) * cols + c0 + cb))
    return moves


def _other(color: int) -> int:
    return BLACK + WHITE - color


def _plan(rows: int, cols: int, first: int) -> list[tuple[str, str, int, int]] | None:
    """The chain of gadgets (input key, outcome code, block row, block column) in play
    order, or None when the stored gadgets cannot cover this board."""
    target = optimum_stones(rows, cols, first)
    table = gadget_table()

    @cache
    def band(h: int, parity: int, direction: int, start: tuple, last: bool) -> dict:
        """One band of height h whose top row has this parity, entered with
        start = (entry, front, mover, forced first width or 0). Returns outcome -> chain
        of (key, code, c0): outcome "done" for the last band, else (width of the end
        block, front on its bottom edge, next mover)."""
        entry0, front0, mover0, width0 = start  # width0: the front's width (top entry)
        states: dict[tuple, tuple | None] = {(0, entry0, front0, mover0): None}
        frontier = [(0, entry0, front0, mover0)]
        outcomes: dict = {}
        side = "right" if direction > 0 else "left"
        back_side = "left" if direction > 0 else "right"
        while frontier:
            nxt = []
            for state in frontier:
                k, entry, front, mover = state
                for w in WIDTHS:
                    if k + w > cols or (k == 0 and width0 and w < width0):
                        continue
                    c0 = k if direction > 0 else cols - k - w
                    if k == 0 and width0:
                        # the front lies at the band's starting end: pad it to the block
                        pad = (0,) * (w - width0)
                        front = pad + front0 if direction < 0 else front0 + pad
                    key = gadget_key(h, w, (parity + c0) % 2, entry, front, mover)
                    outs = table.get(key)
                    if outs is None:
                        continue
                    for code in outs:
                        exit_, out, nmover = code.split(",")
                        step = (key, code, c0)
                        if k + w < cols:
                            if exit_ != side:
                                continue
                            new = (k + w, back_side, tuple(int(x) for x in out), int(nmover))
                            if new not in states:
                                states[new] = (state, step)
                                nxt.append(new)
                        elif last:
                            if exit_ == "end" and int(out) == target and "done" not in outcomes:
                                outcomes["done"] = _chain(states, state, step)
                        elif exit_ == "bottom":
                            res = (w, tuple(int(x) for x in out), int(nmover))
                            if res not in outcomes:
                                outcomes[res] = _chain(states, state, step)
            frontier = nxt
        return outcomes

    # bands, top to bottom: state (r0, direction of the next band, start tuple)
    back: dict[tuple, tuple | None] = {}
    frontier = []
    for direction in (1, -1):
        st = (0, direction, ("none", (), first, 0))
        back[st] = None
        frontier.append(st)
    while frontier:
        nxt = []
        for state in frontier:
            r0, direction, start = state
            for h in HEIGHTS:
                rest = rows - r0 - h
                if rest < 0 or (0 < rest < min(HEIGHTS)):
                    continue
                outcomes = band(h, r0 % 2, direction, start, rest == 0)
                if rest == 0:
                    if "done" in outcomes:
                        return _assemble(back, state, outcomes["done"], r0)
                    continue
                for (w, front, nmover), chain in outcomes.items():
                    new = (r0 + h, -direction, ("top", front, nmover, w))
                    if new not in back:
                        back[new] = (state, chain, r0)
                        nxt.append(new)
        frontier = nxt
    return None


def _chain(states, state, last_step):
    out = [last_step]
    while states[state] is not None:
        state, step = states[state]
        out.append(step)
    return out[::-1]


def _assemble(back, state, final_chain, final_r0):
    bands = [(final_chain, final_r0)]
    while back[state] is not None:
        state, chain, r0 = back[state]
        bands.append((chain, r0))
    plan = []
    for chain, r0 in reversed(bands):
        for key, code, c0 in chain:
            plan.append((key, code, r0, c0))
    return plan


def checkerboard_board(rows: int, cols: int) -> Board:
    return Board.grid(rows, cols)


__all__ = ["reduce_checkerboard", "optimum_stones", "gadget_table"]
