"""Theory of Solitaire Clobber: the delta invariant and the proved values.

A stone is *clashing* when its colour differs from the checkerboard colour of its square.
Demaine, Demaine and Fleischer (Solitaire Clobber, Lemma 3) show that

    delta = (number of stones + number of clashing stones) mod 3

never changes: a move removes one stone and flips the clash status of the mover
(+1 or -2 clashing stones), so delta moves by 0 or -3. One stone has delta 1 (matching)
or 2 (clashing), so a position with delta = 0 can never be reduced to one stone.
The invariant needs a checkerboard colouring, i.e. a bipartite board.

>>> from clobbermania.stones import Position
>>> delta(Position.checkerboard(3, 3)), delta(Position.checkerboard(2, 3))
(0, 0)
>>> one_d_value(30)
8
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..graphs import components
from ..stones import BLACK, EMPTY, WHITE, Position


def clashing_stones(position: Position) -> int:
    """The number of stones whose colour differs from their square's colour."""
    colors = position.board.square_colors
    if colors is None:
        raise UnsupportedError("clashing stones need a checkerboard colouring, and this board "
                               "is not bipartite")
    return sum(1 for v, c in enumerate(position.cells) if c != EMPTY and c != colors[v])


def delta(position: Position) -> int:
    """(stones + clashing stones) mod 3, the invariant of Lemma 3."""
    return (position.stone_count() + clashing_stones(position)) % 3


def one_d_value(n: int) -> int:
    """Theorems 1 and 2: the checkerboard row A_n = xoxo... (n stones) reduces to exactly
    ceil(n/4) + [n = 3 mod 4] stones, and no fewer."""
    if n < 1:
        raise UnsupportedError(f"A_n needs n >= 1, not {n}")
    return -(-n // 4) + (1 if n % 4 == 3 else 0)


def checkerboard_value(rows: int, cols: int) -> int:
    """Theorem 5: the rows x cols checkerboard (rows, cols >= 2) reduces to one stone, or
    to two when 3 divides rows * cols; a 1 x n board follows the 1-D formula."""
    if rows < 1 or cols < 1:
        raise UnsupportedError(f"a checkerboard needs positive sides, not {rows}x{cols}")
    if rows == 1 or cols == 1:
        return one_d_value(rows * cols)
    return 2 if (rows * cols) % 3 == 0 else 1


def is_checkerboard_row(position: Position) -> bool:
    """True when the position is A_n or its colour swap on a single row (1 x n grid) or a
    path graph in path order: every square occupied, colours alternating."""
    b = position.board
    if b.is_grid:
        if b.rows != 1 and b.cols != 1:
            return False
    elif not (b.name.startswith("path:") or b.n == 1):
        return False
    cells = position.cells
    if EMPTY in cells:
        return False
    return all(cells[i] != cells[i + 1] for i in range(len(cells) - 1))


def is_checkerboard_rectangle(position: Position) -> bool:
    """True for a full n x m grid (n, m >= 2) whose stones all match, or all clash."""
    b = position.board
    if not b.is_grid or b.rows < 2 or b.cols < 2 or EMPTY in position.cells:
        return False
    colors = b.square_colors
    same = all(c == colors[v] for v, c in enumerate(position.cells))
    swapped = all(c != colors[v] for v, c in enumerate(position.cells))
    return same or swapped


def component_lower_bound(position: Position) -> tuple[int, str]:
    """A lower bound on the stones left under either rule set, with its reason.

    Stones never cross between connected groups of stones. A one-coloured group never
    moves; a mixed group keeps at least one stone, and at least two when the board is
    bipartite and the group's delta is 0 (Lemma 3 applied to the group).
    """
    board = position.board
    colors = board.square_colors
    total = 0
    stuck = delta_groups = 0
    for comp in components(board, position.stones()):
        kinds = {position.cells[v] for v in comp}
        if len(kinds) == 1:
            total += len(comp)
            stuck += len(comp)
            continue
        if colors is not None:
            clash = sum(1 for v in comp if position.cells[v] != colors[v])
            if (len(comp) + clash) % 3 == 0:
                total += 2
                delta_groups += 1
                continue
        total += 1
    reasons = []
    if delta_groups:
        reasons.append(f"delta invariant: {delta_groups} group(s) with delta = 0 (mod 3) keep "
                       "at least 2 stones")
    if stuck:
        reasons.append(f"{stuck} stone(s) with no stone of the other colour in their group "
                       "can never move")
    if not reasons:
        reasons.append("at least one stone always remains in each group of stones")
    return total, "; ".join(reasons)


def theorem_lower_bound(position: Position) -> tuple[int, str] | None:
    """The value a theorem proves for this position under alternation (SC), when one
    applies (Thms 1, 2, 5); the solver uses it as a lower bound."""
    if is_checkerboard_row(position):
        n = position.stone_count()
        return one_d_value(n), f"Theorems 1 and 2 (1-D checkerboard A_{n})"
    if is_checkerboard_rectangle(position):
        b = position.board
        return checkerboard_value(b.rows, b.cols), f"Theorem 5 ({b.rows}x{b.cols} checkerboard)"
    return None


__all__ = ["clashing_stones", "delta", "one_d_value", "checkerboard_value", "BLACK", "WHITE",
           "component_lower_bound", "theorem_lower_bound", "is_checkerboard_row",
           "is_checkerboard_rectangle"]
