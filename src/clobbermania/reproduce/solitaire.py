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
* Theorem 5 constructively: the sequences of ``reduce_checkerboard`` reach the optimum
  (1 or 2 stones; 2 also when black, the majority, moves first on an odd board) on
  every board up to 20 x 20 and on large ones, with either first colour, replayed.
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
    yield from _construction_claims()


def _construction_claims() -> Iterator[Claim]:
    """Theorem 5 constructively: reduce_checkerboard's sequences, replayed, reach the
    optimum on every board up to 20 x 20 and on a few large ones, both first colours."""
    import time

    from ..solitaire import replay
    from ..solitaire.checkerboard import optimum_stones, reduce_checkerboard

    for first in (BLACK, WHITE):
        t0 = time.perf_counter()
        boards = [(n, m) for n in range(2, 21) for m in range(2, 21)]
        bad = []
        for n, m in boards:
            r = replay(Position.checkerboard(n, m), reduce_checkerboard(n, m, first),
                       first=first)
            if not (r.valid and r.stones_left == optimum_stones(n, m, first)):
                bad.append(f"{n}x{m}")
        yield Claim(f"Theorem 5 constructively: every n x m, 2 <= n, m <= 20, "
                    f"{COLOR_NAMES[first]} first", "optimum", ", ".join(bad) or "optimum",
                    not bad, f"{len(boards)} boards, every sequence replayed",
                    time.perf_counter() - t0)
    for n, m in ((100, 100), (99, 101), (250, 251)):
        for first in (BLACK, WHITE):
            t0 = time.perf_counter()
            moves = reduce_checkerboard(n, m, first)
            r = replay(Position.checkerboard(n, m), moves, first=first)
            want = optimum_stones(n, m, first)
            yield Claim(f"Theorem 5 constructively: {n}x{m}, {COLOR_NAMES[first]} first",
                        want, r.stones_left, r.valid and r.stones_left == want,
                        f"{len(moves):,} moves, replayed", time.perf_counter() - t0)
