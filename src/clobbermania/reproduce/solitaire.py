"""Claims of Demaine, Demaine and Fleischer, *Solitaire Clobber*, re-derived by search.

* Table 1 / Theorems 1 and 2: the checkerboard row A_n (n = 1..12) reduces to
  ceil(n/4) + [n = 3 mod 4] stones, with black or with white moving first. Found by the
  exact solver with the theorems switched off (so the values are proved by search).
  Beyond the table, Theorems 1 and 2 are checked the same way for n = 13..40, and in
  SC2 (no alternation) for n = 1..40, where the same formula holds.
* Theorem 5: the n x m checkerboard, 2 <= n, m <= 6, reduces to 1 stone, or 2 when 3
  divides nm. The lower bound is the delta invariant; the solver finds a witness meeting
  it. The first colour matters when nm is odd: a 5 x 5 board starting with black (13
  black, 12 white stones) cannot end on one stone, since black's twelfth capture leaves
  white unable to move; so the claim is checked with the first colour chosen by the
  solver, as in the theorem, and the colour used is reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..solitaire import solve
from ..solitaire.theory import checkerboard_value, one_d_value
from ..stones import BLACK, COLOR_NAMES, WHITE, Position
from . import Claim, register


def _claim(name: str, expected: int, position: Position, first: int | None,
           free: bool = False) -> Claim:
    r = solve(position, first=first, free=free, use_theorems=False, time_limit=120)
    found = r.stones_left if r.exact else f">={r.lower_bound}"
    detail = f"{r.nodes} nodes, {r.seconds:.2f} s"
    if first is None and not free:
        detail = f"{COLOR_NAMES[r.first]} first, " + detail
    return Claim(name, expected, found, r.exact and r.stones_left == expected, detail,
                 r.seconds)


@register("solitaire")
def solitaire_claims() -> Iterator[Claim]:
    for n in range(1, 13):
        row = Position.from_string(("xo" * n)[:n])
        for first in (BLACK, WHITE):
            yield _claim(f"Table 1: A_{n}, {COLOR_NAMES[first]} first", one_d_value(n), row,
                         first)
    for n in range(13, 41):
        row = Position.from_string(("xo" * n)[:n])
        yield _claim(f"Theorems 1-2: A_{n}, black first", one_d_value(n), row, BLACK)
    for n in range(1, 41):
        row = Position.from_string(("xo" * n)[:n])
        yield _claim(f"Theorems 1-2 in SC2: A_{n}", one_d_value(n), row, None, free=True)
    for rows in range(2, 7):
        for cols in range(2, 7):
            yield _claim(f"Theorem 5: {rows}x{cols} checkerboard",
                         checkerboard_value(rows, cols), Position.checkerboard(rows, cols), None)
