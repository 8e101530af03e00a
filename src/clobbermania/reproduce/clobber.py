"""Claims about two-player Clobber values and outcomes, re-derived by our own computations.

* The values of issue 5's oracle table (pycgt and ludology agree; x = Left): rows such as
  ``xxxo = ^^*`` and ``xoxoxoxoxoxo = {0,^*|0,v*}``, and the checkerboards (x top-left)
  2x2, 3x3, 2x4, 3x5, 4x4 = * and 2x3, 3x4, 2x6 = 0, by
  :func:`clobbermania.clobber.values.clobber_value`.
* ``(xxo)^n`` = ^, ^, ^^, ^^, ^3, ^3, ^4 for n = 1..7, and the conjecture of Albert,
  Grossman, Nowakowski and Wolfe (*An introduction to Clobber*, 2005) that
  ``(xxo)^n = floor((n+1)/2).^``, checked by values for every n up to a bound reached in
  about 10 s (others checked it to n = 28; ``benchmarks/clobber_values.py`` pushes on).
* Checkerboard outcomes (Grossman 2004; the MCGS suites): 2 x n is a second-player win
  (P) exactly when n = 0 mod 3, 3 x n exactly when n is even, and 4x4..4x7 are N N P N.
  Small boards are decided by their values; larger ones by the proof search of
  :func:`clobbermania.clobber.search.solve_outcome` (both first players). A board that
  search cannot decide within its time here is reported ("report"), not failed; the
  larger boards (2x12 on, 3x8 on, 4x6, 4x7, 5x5, 5x6) are left to ``benchmarks/clobber.py``.
* ``(xo)^n`` is a first-player win exactly when n != 3: conjectured by Albert, Grossman,
  Nowakowski and Wolfe in 2004 (checked by computer to n = 50 before the proof) and proved
  in 2025 by Chen, Folkersen, Hasham, Hayward, Lee, Randall, Schultz and Vandermeer (*A
  Proof of the 2004 Albert-Grossman-Nowakowski-Wolfe Conjecture on Alternating Linear
  Clobber*, arXiv:2509.08985). Our check runs n = 1, 2, ... while a budget of about 10 s
  lasts (to n = 30..38 on the 2-core test machine, by its load; the claim states the n it
  reached), by :func:`clobbermania.clobber.search.solve_sum` with each first player (the
  row-sum search keeps its tables from n - 1 to n); ``benchmarks/clobber.py --xo S``
  pushes on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..stones import Position
from . import Claim, register

#: Issue 5's value oracles (x = Left).
ROW_VALUES = [("xo", "*"), ("xox", "*"), ("xxo", "^"), ("xoo", "v"), ("xxxo", "^^*"),
              ("xxxxo", "^3"), ("xoxo", "{^,*|v,*}"), ("xoxox", "{*|v}"), ("xxoo", "0"),
              ("xoxoxo", "0"), ("xoxoxoxoxoxo", "{0,^*|0,v*}")]
CHECKERBOARD_VALUES = [((2, 2), "*"), ((3, 3), "*"), ((2, 4), "*"), ((2, 3), "0"),
                       ((3, 4), "0"), ((2, 6), "0"), ((3, 5), "*"), ((4, 4), "*")]
XXO_VALUES = ["^", "^", "^^", "^^", "^3", "^3", "^4"]

#: Boards decided by values (fast enough) and by the proof search, with its time limit.
VALUE_BOARDS = [(2, n) for n in range(1, 9)] + [(3, n) for n in range(3, 6)] + [(4, 4)]
SEARCH_BOARDS = [(2, n) for n in range(9, 12)] + [(3, n) for n in range(6, 8)] + [(4, 5)]
SEARCH_LIMIT = 20.0


def conjectured_xxo(n: int) -> str:
    """floor((n+1)/2).^ in CGSuite syntax."""
    k = (n + 1) // 2
    return "^" if k == 1 else "^^" if k == 2 else f"^{k}"


def expected_outcome(rows: int, cols: int) -> str | None:
    """The published outcome class of the rows x cols checkerboard (None: not stated)."""
    if rows == 2:
        return "P" if cols % 3 == 0 else "N"
    if rows == 3 and cols >= 3:
        return "P" if cols % 2 == 0 else "N"
    if rows == 4 and 4 <= cols <= 7:
        return "NNPN"[cols - 4]
    return None


def _value_claims() -> Iterator[Claim]:
    from ..cgt import Game
    from ..clobber.values import clobber_value

    for board, value in ROW_VALUES:
        t0 = time.perf_counter()
        v = clobber_value(Position.from_string(board))
        yield Claim(f"value of {board}", value, str(v), v is Game(value), "",
                    time.perf_counter() - t0)
    for (r, c), value in CHECKERBOARD_VALUES:
        t0 = time.perf_counter()
        v = clobber_value(Position.checkerboard(r, c))
        yield Claim(f"value of the {r}x{c} checkerboard", value, str(v), v is Game(value), "",
                    time.perf_counter() - t0)
    t0 = time.perf_counter()
    found = [str(clobber_value(Position.from_string("xxo" * n))) for n in range(1, 8)]
    yield Claim("(xxo)^n for n = 1..7", " ".join(XXO_VALUES), " ".join(found),
                found == XXO_VALUES, "", time.perf_counter() - t0)


def _conjecture_claim(budget: float = 10.0) -> Claim:
    """(xxo)^n = floor((n+1)/2).^ for n = 1, 2, ... while the budget lasts."""
    from ..cgt import Game
    from ..clobber.values import ValueTimeout, clobber_value

    t0 = time.perf_counter()
    n, bad = 0, []
    while time.perf_counter() - t0 < budget:
        left = budget - (time.perf_counter() - t0)
        try:
            v = clobber_value(Position.from_string("xxo" * (n + 1)), time_limit=max(left, 0.01))
        except ValueTimeout:
            break
        n += 1
        if v is not Game(conjectured_xxo(n)):
            bad.append(f"n={n}: {v}")
    return Claim("conjecture (xxo)^n = floor((n+1)/2).^ (Albert et al. 2005)",
                 "holds", "; ".join(bad) or f"holds for n = 1..{n}", not bad,
                 f"checked by values for n <= {n} in {budget:g} s (others: n <= 28)",
                 time.perf_counter() - t0)


def xo_first_player_wins(n: int) -> bool:
    """The theorem's statement for (xo)^n: the first player wins exactly when n != 3."""
    return n != 3


def _xo_claim(budget: float = 10.0) -> Claim:
    """(xo)^n is N (first player wins) exactly when n != 3, for n = 1, 2, ... while the
    budget lasts (both first players searched)."""
    from ..clobber.search import solve_sum

    t0 = time.perf_counter()
    n, bad = 0, []
    while True:
        left = budget - (time.perf_counter() - t0)
        if left <= 0:
            break
        p = Position.from_string("xo" * (n + 1))
        rs = [solve_sum([p], first, time_limit=max(left, 0.01)) for first in ("black", "white")]
        if any(r.winner is None for r in rs):
            break
        n += 1
        first_wins = all(r.winner == r.first for r in rs)
        if first_wins != xo_first_player_wins(n):
            bad.append(f"n={n}: {'N' if first_wins else 'not N'}")
    return Claim("(xo)^n is a first-player win exactly when n != 3 (conjectured by Albert "
                 "et al. 2004, proved by Chen et al. 2025, arXiv:2509.08985)",
                 "holds", "; ".join(bad) or f"holds for n = 1..{n}", not bad,
                 f"our check: row-sum search, both first players, n = 1..{n} in {budget:g} s",
                 time.perf_counter() - t0)


def _outcome_claims() -> Iterator[Claim]:
    from ..clobber.values import clobber_value

    for r, c in VALUE_BOARDS:
        t0 = time.perf_counter()
        found = clobber_value(Position.checkerboard(r, c)).outcome
        expected = expected_outcome(r, c)
        yield Claim(f"outcome of the {r}x{c} checkerboard (Grossman 2004; MCGS)", expected,
                    found, found == expected, "from the value", time.perf_counter() - t0)
    from ..clobber.search import solve_outcome

    for r, c in SEARCH_BOARDS:
        t0 = time.perf_counter()
        p = Position.checkerboard(r, c)
        black = solve_outcome(p, "black", time_limit=SEARCH_LIMIT, all_moves=False)
        white = solve_outcome(p, "white", time_limit=SEARCH_LIMIT, all_moves=False)
        seconds = time.perf_counter() - t0
        expected = expected_outcome(r, c)
        name = f"outcome of the {r}x{c} checkerboard (Grossman 2004; MCGS)"
        if not (black.exact and white.exact):
            yield Claim(name, expected, f"undecided in {SEARCH_LIMIT:g} s per first player",
                        False, "proof search", seconds, "report")
            continue
        found = {("black", "white"): "N", ("white", "black"): "P",
                 ("black", "black"): "L", ("white", "white"): "R"}[(black.winner, white.winner)]
        yield Claim(name, expected, found, found == expected,
                    f"proof search, {black.nodes + white.nodes:,} nodes", seconds)


@register("clobber")
def clobber_claims() -> Iterator[Claim]:
    yield from _value_claims()
    yield _conjecture_claim()
    yield from _outcome_claims()
    yield _xo_claim()
