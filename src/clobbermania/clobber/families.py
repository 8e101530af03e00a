"""Families of impartial Clobber rows: the nim values of ``P^n`` for a repeated pattern ``P``,
through finite sets of *shapes* (the sets E_n of the French study *Un jeu combinatoire :
le Clobber*), eventual periodicity, and the proof that ``(ooxx)^n`` has value 3.

Impartial Clobber on a row: either player moves a stone of either colour onto an adjacent
stone of the other colour; the player who cannot move loses; the value of a row is the mex
of its options' values, and separate parts XOR (Sprague-Grundy).

**Shapes.** A move on a hole-free row ``s`` empties one square and splits the row in two:
stone ``j`` capturing ``j + 1`` leaves ``s[0..j-1]`` and ``s[j] s[j+2..]``, whose first stone
is ``s[j+1]`` with its colour flipped; stone ``j + 1`` capturing ``j`` leaves ``s[0..j-1]
flip(s[j])`` and ``s[j+2..]``. So every piece is a contiguous part of the row with at most
its cut end flipped. Starting from ``P^n``, every row met is therefore a *shape*
``(fl, a, b, fr)``: a substring of ``PPP...`` from phase ``a`` to phase ``b`` (any length
congruent to ``b - a + 1`` mod ``p = |P|``), its first stone flipped when ``fl = 1`` and
its last when ``fr = 1``. :func:`shape_types` derives by program which shapes are reachable
from ``P^n`` (a breadth-first closure that plays every move with the reference move
generator and names the pieces); each shape's options are XORs of two shorter shapes, so
the kernel fills the value table of every shape of every length 1..N by dynamic
programming over lengths: O(p * L^2) for rows up to ``L = n p`` stones. Shapes that are
each other's colour swap or mirror image share their values (copied), and a shape that is
its own mirror image scans only one direction of capture.

**Periodicity rule** (:func:`find_period`): for the smallest period ``q`` the pre-period is
the smallest ``s`` with ``v[i] = v[i + q]`` for every ``s <= i < N - q``; the pair is
reported only when the periodic stretch ``v[s..N-1]`` holds at least ``min_periods`` (3)
full periods and is at least as long as the pre-period (in the spirit of the
periodicity theorem of octal games, which asks for about ``2 s + q`` terms); otherwise the
next ``q`` is tried, and ``None`` means no period up to ``N // min_periods``. This is what
the data are consistent with, not a proof.

**Proofs** (:func:`prove_family`): if every reachable shape's value is eventually periodic
in its length with a common period ``q`` (a multiple of ``p``) from length ``L0``, then for
``L >= L1 = 2 L0 + q + 1`` each option of a shape pairs a piece shorter than ``L0`` (known
value) with one at least ``L0`` long (value by residue), or two pieces at least ``L0`` long
whose residues run over every class: so the option *set* depends only on ``L mod q``, and
checking its mex against the claimed value once per (shape, residue) proves the claim for
every length by induction; lengths below ``L1`` are computed. :func:`ooxx_proof` runs this
for ``ooxx`` and finds the first move to 0 that wins for every ``n >= 2``.

>>> family_values("ox", 8)
[1, 3, 0, 2, 0, 2, 0, 3]
>>> family("ooxx", 12).period
Periodicity(period=1, preperiod=1)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..errors import NotationError, UnsupportedError
from ..limits import deadline_passed
from ..stones import BLACK, EMPTY, WHITE, Move, Position

# -- patterns and shapes ----------------------------------------------------------------------

_CHAR = {BLACK: "x", WHITE: "o"}
#: The longest primitive root of a family pattern (a 12-stone root has 576 shape types,
#: found in about 0.4 s of CPU; 40 stones took 39 s).
MAX_ROOT = 12
#: The longest row P^n of a family: the kernel indexes the table by length in 24 bits.
#: Time, not memory (the table is 8p bytes a stone: 1.6 GB at p = 12), is what bounds a
#: long family: filling it takes about 1.5e-9 p L^2 seconds for L stones (``ox`` to
#: n = 20,000: 3 s; ``xoxxo`` to 8,000: 11.5 s), hence the time limit of the CLI.
MAX_STONES = (1 << 24) - 1


def parse_pattern(pattern: str) -> str:
    """The pattern as a string of ``x`` and ``o`` (any stone notation is accepted).

    >>> parse_pattern("XO")
    'xo'
    """
    if not isinstance(pattern, str) or not pattern.strip():
        raise NotationError("a family pattern is a row of stones such as ox or ooxx, "
                            "not an empty string")
    try:
        pos = Position.from_string(pattern.strip())
    except NotationError as exc:
        raise NotationError(f"bad family pattern {pattern!r}: {exc}") from None
    if pos.board.rows != 1:
        raise NotationError(f"a family pattern is one row of stones, but {pattern!r} has "
                            f"{pos.board.rows} rows")
    if EMPTY in pos.cells:
        raise NotationError(f"a family pattern has no holes, but {pattern!r} has one at "
                            f"position {pos.cells.index(EMPTY) + 1}")
    return "".join(_CHAR[c] for c in pos.cells)


def primitive_root(pattern: str) -> tuple[str, int]:
    """``(root, k)`` with ``pattern == root * k`` and ``root`` as short as possible.

    >>> primitive_root("oxoxox")
    ('ox', 3)
    """
    p = len(pattern)
    for d in range(1, p + 1):
        if p % d == 0 and pattern[:d] * (p // d) == pattern:
            return pattern[:d], p // d
    raise AssertionError("unreachable")


def _flip(c: str) -> str:
    return "o" if c == "x" else "x"


@dataclass(frozen=True, order=True)
class Shape:
    """A shape type of pattern ``P``: the substring of ``PPP...`` from phase ``first`` to
    phase ``last``, its first stone flipped when ``left_flip`` and its last when
    ``right_flip``; its lengths are those congruent to ``last - first + 1`` mod ``|P|``."""

    left_flip: int
    first: int
    last: int
    right_flip: int

    def row(self, pattern: str, length: int) -> str:
        """The row of this shape with ``length`` stones (``length`` in the shape's class)."""
        p = len(pattern)
        if length % p != (self.last - self.first + 1) % p:
            raise UnsupportedError(f"length {length} is not in the class of {self}")
        return shape_row(pattern, self.left_flip, self.first, self.right_flip, length)

    def __str__(self) -> str:
        return (f"({'~' if self.left_flip else ''}{self.first}..{self.last}"
                f"{'~' if self.right_flip else ''})")


def shape_row(pattern: str, fl: int, a: int, fr: int, length: int) -> str:
    """The row of shape ``(fl, a, fr)`` at ``length``: ``PPP...`` from phase ``a``, ends
    flipped as asked (a single stone is never flipped: its colour does not matter).

    >>> shape_row("ooxx", 1, 0, 1, 6)
    'xoxxox'
    """
    p = len(pattern)
    s = [pattern[(a + k) % p] for k in range(length)]
    if length >= 2:
        if fl:
            s[0] = _flip(s[0])
        if fr:
            s[-1] = _flip(s[-1])
    return "".join(s)


def _identify(pattern: str, piece: str) -> tuple[int, int, int] | None:
    """The (fl, a, fr) of a piece of at least p + 2 stones (unique for a primitive
    pattern), or None if the piece is no shape of the pattern."""
    p = len(pattern)
    inner = piece[1:-1]
    for a in range(p):
        if all(inner[k] == pattern[(a + 1 + k) % p] for k in range(len(inner))):
            fl = int(piece[0] != pattern[a])
            fr = int(piece[-1] != pattern[(a + len(piece) - 1) % p])
            return fl, a, fr
    return None


def row_options(row: str) -> list[tuple[str, str]]:
    """The options of a hole-free row as pairs of pieces, played with the reference move
    generator (either colour moves: impartial Clobber).

    >>> row_options("xox")
    [('', 'xx'), ('o', 'x'), ('x', 'o'), ('xx', '')]
    """
    pos = Position.from_string(row)
    out = []
    for move in pos.moves():
        left, right = pos.play(move).text().split(".")
        out.append((left, right))
    return sorted(out)


def shape_types(pattern: str) -> list[Shape]:
    """The closed set of shape types reachable from ``P^n`` (n >= 1) under moves, derived by
    program: a breadth-first search from ``(0, 0, p-1, 0)`` that plays every move of a
    representative row of each shape (lengths 4p+4 .. 5p+3, so every cut phase appears
    with both pieces long) and names each piece of at least p + 2 stones. Shorter pieces
    are the same types at lengths that longer cuts also produce.

    >>> [str(s) for s in shape_types("ox")][:3]
    ['(0..0)', '(0..0~)', '(0..1)']
    >>> len(shape_types("ooxx"))
    64
    """
    root, _ = primitive_root(parse_pattern(pattern))
    return list(_closure(root))


@lru_cache(maxsize=64)
def _closure(root: str) -> tuple[Shape, ...]:
    p = len(root)
    start = Shape(0, 0, p - 1, 0)
    seen = {start}
    todo = [start]
    while todo:
        shape = todo.pop()
        for length in range(4 * p + 4, 5 * p + 4):
            if length % p != (shape.last - shape.first + 1) % p:
                continue
            for left, right in row_options(shape.row(root, length)):
                for piece in (left, right):
                    if len(piece) < p + 2:
                        continue
                    fl, a, fr = _identify(root, piece)
                    child = Shape(fl, a, (a + len(piece) - 1) % p, fr)
                    if child not in seen:
                        seen.add(child)
                        todo.append(child)
    return tuple(sorted(seen))


# -- the value table -------------------------------------------------------------------------


class _Table:
    """The shape value table of one primitive pattern, grown on demand."""

    def __init__(self, root: str, every_type: bool = False):
        self.root = root
        p = self.p = len(root)
        self.col = np.array([1 if c == "x" else 0 for c in root], dtype=np.int64)
        nt = 4 * p
        self.tindex = np.zeros((2, p, 2), dtype=np.int64)
        self.tfl = np.zeros(nt, dtype=np.int64)
        self.ta = np.zeros(nt, dtype=np.int64)
        self.tfr = np.zeros(nt, dtype=np.int64)
        types = [(fl, a, fr) for fl in (0, 1) for a in range(p) for fr in (0, 1)]
        for t, (fl, a, fr) in enumerate(types):
            self.tindex[fl, a, fr] = t
            self.tfl[t], self.ta[t], self.tfr[t] = fl, a, fr
        self.types = types
        self.shapes = shape_types(root)
        need = np.zeros((nt, p), dtype=np.bool_)
        if every_type:
            need[:] = True
        else:
            for s in self.shapes:
                need[self.tindex[s.left_flip, s.first, s.right_flip],
                     (s.last - s.first + 1) % p] = True
        self.src, self.selfsym = self._symmetries()
        for t in range(nt):
            for rho in range(p):
                if need[t, rho] and self.src[t, rho] >= 0:
                    need[self.src[t, rho], rho] = True
        self.need = need
        self.G = np.zeros((nt, 2), dtype=np.uint16)
        self.filled = 2                  # lengths 0 and 1 have value 0
        self.top = 0                     # the largest value in the table

    def _symmetries(self) -> tuple[np.ndarray, np.ndarray]:
        """Copy sources and mirror-symmetric flags, decided on one representative length
        per class with at least p interior stones (then they hold at every length >= 2 of
        the class: interior stones follow the pattern's phase, ends their fixed flips)."""
        p, nt = self.p, len(self.types)
        src = np.full((nt, p), -1, dtype=np.int64)
        selfsym = np.zeros((nt, p), dtype=np.bool_)
        swap = str.maketrans("xo", "ox")
        for rho in range(p):
            length = next(L for L in range(p + 2, 2 * p + 2) if L % p == rho)
            rows = [shape_row(self.root, fl, a, fr, length) for fl, a, fr in self.types]
            for t, s in enumerate(rows):
                images = {s, s.translate(swap), s[::-1], s[::-1].translate(swap)}
                selfsym[t, rho] = s[::-1] in (s, s.translate(swap))
                for u in range(t):
                    if rows[u] in images:
                        src[t, rho] = u if src[u, rho] < 0 else src[u, rho]
                        break
        return src, selfsym

    def grow(self, max_length: int, progress: Callable[[dict], None] | None = None,
             deadline: float | None = None) -> None:
        """Fill every length up to ``max_length``, in chunks of about a quarter second;
        with ``deadline`` (a ``time.perf_counter()`` value), stop after the chunk that
        passes it (``filled`` says how far the table got)."""
        from ._family_kernels import fill_shapes

        if max_length < self.filled:
            return
        if max_length > MAX_STONES:
            raise UnsupportedError(f"rows of {max_length:,} stones are beyond the family "
                                   f"tables (at most {MAX_STONES:,} stones)")
        if 2 * self.G.shape[0] * (max_length + 1) > 1 << 32:
            raise UnsupportedError(f"the shape table for {max_length:,} stones of a "
                                   f"{self.p}-stone pattern would need more than 4 GB")
        G = np.zeros((self.G.shape[0], max_length + 1), dtype=np.uint16)
        G[:, :self.filled] = self.G[:, :self.filled]
        self.G = G
        L = self.filled
        chunk = 64
        t_start = time.perf_counter()
        while L <= max_length:
            stop = min(max_length + 1, L + chunk)
            t0 = time.perf_counter()
            self.top = fill_shapes(G, self.col, self.tindex, self.tfl, self.ta, self.tfr,
                                   self.src, self.selfsym, self.need, L, stop, self.top)
            if self.top >= 1 << 15:
                raise UnsupportedError("a shape value exceeds the kernel's range (32767)")
            # chunks of about a quarter second, so progress and Ctrl-C stay responsive
            dt = max(time.perf_counter() - t0, 1e-3)
            chunk = max(16, min(1 << 20, int(chunk * (0.25 / dt) ** 0.5)))
            L = stop
            self.filled = stop
            if progress is not None:
                progress({"done": stop - 1, "total": max_length,
                          "seconds": time.perf_counter() - t_start})
            if deadline_passed(deadline):
                return

    def value(self, fl: int, a: int, fr: int, length: int) -> int:
        return int(self.G[self.tindex[fl, a, fr], length]) if length >= 2 else 0


def family_values(pattern: str, n: int,
                  progress: Callable[[dict], None] | None = None,
                  time_limit: float | None = None) -> list[int]:
    """Nim values of ``P^1 .. P^n`` in impartial Clobber (index 0 is ``P^1``), by the shape
    tables of the module docstring. With ``time_limit`` seconds, the values of ``P^1 ..
    P^m`` finished within it (m <= n; the tables fill by length, O(n^2) time in all).

    >>> family_values("xxo", 6)
    [2, 0, 5, 2, 7, 0]
    """
    t0 = time.perf_counter()
    root, k = primitive_root(parse_pattern(pattern))
    if len(root) > MAX_ROOT:
        raise UnsupportedError(f"the pattern's primitive root {root[:20]}"
                               f"{'...' if len(root) > 20 else ''} has {len(root):,} stones; "
                               f"the shape tables take roots of at most {MAX_ROOT} (their "
                               "4p^2 shapes take time about p^4 to find)")
    if n < 1:
        raise UnsupportedError(f"a family needs at least one repetition, not n = {n}")
    if n > MAX_STONES // (k * len(root)):
        shown = f"{n:,}" if n < 10 ** 15 else f"{str(n)[:6]}... ({len(str(n))} digits)"
        raise UnsupportedError(f"the family tables take rows of at most {MAX_STONES:,} "
                               f"stones, so at most {MAX_STONES // (k * len(root)):,} "
                               f"repetitions of the {k * len(root)}-stone pattern, not "
                               f"n = {shown}")
    if time_limit is not None and not 0 < time_limit < float("inf"):
        raise UnsupportedError(f"the time limit must be a positive number of seconds, not "
                               f"{time_limit}")
    table = _Table(root)
    p = len(root)
    table.grow(n * k * p, progress, None if time_limit is None else t0 + time_limit)
    done = min(n, (table.filled - 1) // (k * p))
    return [table.value(0, 0, 0, i * k * p) for i in range(1, done + 1)]


# -- periodicity -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Periodicity:
    """``v[i] = v[i + period]`` for every ``i >= preperiod`` in the data (0-based: index 0
    is ``P^1``)."""

    period: int
    preperiod: int

    def to_dict(self) -> dict:
        return {"period": self.period, "preperiod": self.preperiod}


def find_period(values: list[int], min_periods: int = 3,
                max_period: int | None = None) -> Periodicity | None:
    """The smallest period and its smallest pre-period consistent with ``values`` (the rule
    of the module docstring), or None.

    >>> find_period([5, 1, 2, 1, 2, 1, 2, 1, 2])
    Periodicity(period=2, preperiod=1)
    >>> find_period([0, 1, 0, 0, 1, 1]) is None
    True
    """
    v = list(values)
    N = len(v)
    top = N // min_periods if max_period is None else min(max_period, N // min_periods)
    for q in range(1, top + 1):
        s = 0
        for i in range(N - q - 1, -1, -1):
            if v[i] != v[i + q]:
                s = i + 1
                break
        stretch = N - s
        if stretch >= min_periods * q and stretch >= s:
            return Periodicity(q, s)
    return None


@dataclass(frozen=True)
class FamilyResult:
    """Values of ``P^1 .. P^n`` (``values[0]`` is ``P^1``), the share of losing ``n``
    (value 0) in percent, the periodicity found (or None), and the shapes used."""

    pattern: str
    values: list[int]
    losing_share: float
    period: Periodicity | None
    shapes: int
    seconds: float
    #: False when a time limit stopped the tables before ``P^n``: ``values`` then stops
    #: at the last repetition finished (``requested`` is n).
    exact: bool = True
    requested: int | None = None

    def to_dict(self) -> dict:
        return {"pattern": self.pattern, "n": len(self.values), "values": self.values,
                "losing_share": self.losing_share,
                "period": None if self.period is None else self.period.to_dict(),
                "shapes": self.shapes, "exact": self.exact,
                "requested": len(self.values) if self.requested is None else self.requested,
                "seconds": round(self.seconds, 4)}


def family(pattern: str, n: int,
           progress: Callable[[dict], None] | None = None,
           time_limit: float | None = None) -> FamilyResult:
    """:func:`family_values` with the losing share and :func:`find_period`; with
    ``time_limit``, of the repetitions finished within it (``exact`` False when fewer
    than n).

    >>> r = family("ox", 100)
    >>> r.values[:4], round(r.losing_share, 1), r.exact
    ([1, 3, 0, 2], 17.0, True)
    """
    t0 = time.perf_counter()
    pat = parse_pattern(pattern)
    values = family_values(pat, n, progress, time_limit)
    share = 100.0 * sum(1 for v in values if v == 0) / len(values) if values else 0.0
    root, _ = primitive_root(pat)
    return FamilyResult(pat, values, share, find_period(values), len(shape_types(root)),
                        time.perf_counter() - t0, len(values) == n, n)


# -- proofs by the shape method --------------------------------------------------------------


@dataclass(frozen=True)
class ProofStep:
    """One step of a proof: what it states, whether the program checked it, and how."""

    claim: str
    checked: bool
    detail: str = ""


@dataclass(frozen=True)
class FamilyProof:
    """A proof by the shape method that ``P^n`` has eventually periodic values (for
    ``ooxx``: value 3 for every n >= 2), with every step checked by program."""

    pattern: str
    statement: str
    steps: tuple[ProofStep, ...]
    period: int                       # q, in stones
    threshold: int                    # L0: every shape is periodic from this length on
    values_from: dict[int, int] = field(default_factory=dict)   # n mod period -> value
    first_n: int = 1                  # the values are periodic from this n on
    winning_move: str | None = None
    _values: tuple = field(default=(), repr=False, compare=False)

    @property
    def holds(self) -> bool:
        return all(s.checked for s in self.steps)

    def text(self) -> str:
        lines = [f"Claim: {self.statement}"]
        for i, s in enumerate(self.steps, 1):
            mark = "checked" if s.checked else "FAILED"
            lines.append(f"{i}. [{mark}] {s.claim}")
            if s.detail:
                lines.append(f"   {s.detail}")
        lines.append("Q.E.D." if self.holds else "The proof does not go through.")
        return "\n".join(lines)


def prove_family(pattern: str, max_length: int = 240) -> FamilyProof:
    """Prove by the shape method that the values of ``P^n`` are eventually periodic, with
    the period and values read off the shape table computed to ``max_length`` stones.

    Every step is checked by program, and none trusts the numba kernel: the table is
    re-derived length by length from the options that the reference move generator plays.
    Raises UnsupportedError when the shape values show no common period with room for the
    induction within ``max_length`` stones (the method then proves nothing at that size).

    >>> proof = prove_family("ooxx", 60)
    >>> proof.holds, proof.values_from, proof.first_n
    (True, {0: 3}, 2)
    """
    pat = parse_pattern(pattern)
    root, k = primitive_root(pat)
    p = len(root)
    block = p * k                     # stones per repetition of the pattern as given
    table = _Table(root, every_type=True)
    table.grow(max_length)
    shapes = table.shapes
    G = table.G

    def row_of(s: Shape) -> int:
        return int(table.tindex[s.left_flip, s.first, s.right_flip])

    def in_class(s: Shape, length: int) -> bool:
        return length % p == (s.last - s.first + 1) % p

    # the smallest common period q (a multiple of p) and threshold L0 seen in the table
    best = None
    for q in range(p, max_length // 4 + 1, p):
        L0 = p + 2                    # pieces this long are named uniquely
        for s in shapes:
            t = row_of(s)
            for L in range(2, max_length - q + 1):
                if in_class(s, L) and G[t, L] != G[t, L + q]:
                    L0 = max(L0, L + 1)
        L1 = 2 * L0 + q + 1
        if L1 + 2 * q <= max_length:
            best = (q, L0, L1)
            break
    if best is None:
        raise UnsupportedError(f"the shapes of {pat} show no common period with room for the "
                               f"induction within {max_length} stones")
    q, L0, L1 = best

    def val(t: int, length: int) -> int:
        """The value the induction claims: tabled below L0, periodic from L0 on."""
        if length < 2:
            return 0
        if length < L0:
            return int(G[t, length])
        return int(G[t, L0 + (length - L0) % q])

    allowed = {(s.left_flip, s.first, s.right_flip, (s.last - s.first + 1) % p)
               for s in shapes}

    def mex_of_options(row: str, value: Callable[[int, int], int]) -> int:
        opts = {_piece_value(root, left, value, table.tindex, allowed)
                ^ _piece_value(root, right, value, table.tindex, allowed)
                for left, right in row_options(row)}
        g = 0
        while g in opts:
            g += 1
        return g

    steps = [ProofStep(
        f"Shapes: every row reachable from {pat}^n is one of {len(shapes)} shape types "
        f"(fl, a, b, fr) of the pattern {root} (a substring of {root}{root}... from phase a "
        "to phase b, first/last stone flipped when marked ~), and every option of a shape "
        "is the sum of two shapes of the set (or of shorter-than-2 rows, value 0)",
        True, "closure derived by playing every move of a representative row of each shape "
        "with the reference move generator and naming the pieces: "
        + " ".join(str(s) for s in shapes))]

    bad = [f"{s} at length {L}" for s in shapes for L in range(2, L1 + q)
           if in_class(s, L) and mex_of_options(s.row(root, L), lambda t, n: int(G[t, n])
                                                 if n >= 2 else 0) != G[row_of(s), L]]
    steps.append(ProofStep(
        f"Base: the value of every shape of every length 2..{L1 + q - 1} is the mex of its "
        "options' values (options played with the reference move generator, pieces looked "
        "up in the same table, shorter first)", not bad, "; ".join(bad[:3])
        or f"{sum(1 for s in shapes for L in range(2, L1 + q) if in_class(s, L))} rows"))

    bad = [f"{s} at length {L}" for s in shapes for L in range(L0, L1 + q)
           if in_class(s, L) and int(G[row_of(s), L]) != val(row_of(s), L)]
    steps.append(ProofStep(
        f"Periodicity in the base: from length L0 = {L0} to {L1 + q - 1}, every shape's "
        f"value repeats with period {q} in its length", not bad, "; ".join(bad[:3])))

    bad = []
    cases = 0
    for s in shapes:
        for L in range(L1, L1 + q):
            if in_class(s, L):
                cases += 1
                g = mex_of_options(s.row(root, L), val)
                if g != val(row_of(s), L):
                    bad.append(f"{s} at length {L} mod {q}: mex {g}, claimed "
                               f"{val(row_of(s), L)}")
    steps.append(ProofStep(
        f"Induction: let L >= L1 = 2 L0 + q + 1 = {L1} and assume every shorter shape has "
        f"the periodic value. Each option of a shape of length L pairs a piece shorter than "
        f"{L0} (its tabled value) with one of at least {L0} stones (value fixed by its "
        f"length mod {q} and its shape, which depends only on the cut's phase), or two "
        f"pieces of at least {L0} stones whose lengths run over at least {q} consecutive "
        f"cut positions, hence over every residue: so the option set depends only on "
        f"L mod {q}. Its mex, computed once per shape and residue (L = {L1}..{L1 + q - 1}), "
        f"equals the claimed value, so the value at L is periodic too",
        not bad, "; ".join(bad[:3]) or f"{cases} (shape, residue) cases"))

    start = row_of(Shape(0, 0, p - 1, 0))
    reps = q // math.gcd(q, block)    # period of the values in n
    n_from = -(-L0 // block)
    values_from = {}
    for n in range(n_from, n_from + reps):
        values_from[n % reps] = val(start, n * block)
    first_n = n_from
    while first_n > 1 and val(start, (first_n - 1) * block) == \
            values_from[(first_n - 1) % reps]:
        first_n -= 1
    statement = (f"the value of {pat}^n is periodic in n with period {reps} from n = "
                 f"{first_n} on: " + ", ".join(f"n = {r} mod {reps} -> {v}"
                                              for r, v in sorted(values_from.items())))
    steps.append(ProofStep(
        f"Conclusion: {pat}^n is the shape {Shape(0, 0, p - 1, 0)} at length {block} n; by "
        f"steps 2-4 its value is {values_from} (n mod {reps}) for n >= {n_from}, and the "
        f"table gives the same for {first_n} <= n < {n_from}", True,
        "values: " + ", ".join(f"n={n}: {val(start, n * block)}"
                               for n in range(1, n_from + reps + 2))))
    return FamilyProof(pat, statement, tuple(steps), q, L0, values_from, first_n,
                       _values=(G, table.tindex, val, allowed))


def ooxx_proof() -> FamilyProof:
    """The proof that ``(ooxx)^n`` has value 3 for every n >= 2, with its winning first
    move: the stone on square 4k captures the one on square 4k + 1 (either way), for any
    1 <= k < n, leaves value 0; ``d1-e1`` (k = 1) for every n >= 2.

    >>> proof = ooxx_proof()
    >>> proof.holds, proof.winning_move
    (True, 'd1-e1')
    """
    proof = prove_family("ooxx", 60)
    G, tindex, val, allowed = proof._values
    steps = list(proof.steps)
    L0, q = proof.threshold, proof.period
    ok_value = proof.values_from == {0: 3} and proof.first_n == 2 and \
        val(int(tindex[0, 0, 0]), 4) == 0
    # Winning moves across a block boundary: the pieces are (ooxx)^(k-1) oox | x oxx
    # (ooxx)^(n-k-1) (or the mirror), of 4k - 1 and 4(n - k) stones. Their values are
    # periodic from L0 on with period q = 4, a whole block, so the XOR depends only on
    # (min(k, K), min(n - k, K)) with 4K - 1 >= L0 + q: checking every k, n - k <= K + 1
    # covers every n >= 2 and 1 <= k < n.
    K = -(-(L0 + q + 1) // 4) + 1
    bad = []
    for n in range(2, 2 * K + 2):
        pos = Position.from_string("ooxx" * n)
        for kk in range(1, n):
            for src, dst in ((4 * kk - 1, 4 * kk), (4 * kk, 4 * kk - 1)):
                left, right = pos.play(Move(src, dst)).text().split(".")
                g = _piece_value("ooxx", left, val, tindex, allowed) ^ \
                    _piece_value("ooxx", right, val, tindex, allowed)
                if g != 0:
                    bad.append(f"n={n}, k={kk}: {Move(src, dst).to_str(pos.board)} -> {g}")
    steps.append(ProofStep(
        "Winning first move: for n >= 2 and 1 <= k < n, the capture between squares 4k "
        "and 4k + 1 (the xx|oo junction, either stone capturing) leaves two shapes whose "
        "values XOR to 0; in particular d1-e1 for every n >= 2",
        not bad, "; ".join(bad[:3]) or f"every n <= {2 * K + 1} and k checked with the "
        f"proved values; beyond, both pieces' values repeat with the 4-stone block"))
    statement = "(ooxx)^n has value 3 for every n >= 2 (and value 0 for n = 1)"
    steps.append(ProofStep("Hence " + statement, ok_value and proof.holds,
                           f"from the conclusion: {proof.statement}"))
    return FamilyProof("ooxx", statement, tuple(steps), q, L0, proof.values_from,
                       proof.first_n, winning_move="d1-e1" if not bad else None,
                       _values=proof._values)


def _piece_value(root: str, piece: str, val: Callable[[int, int], int],
                 tindex: np.ndarray, allowed: set) -> int:
    """The value of a piece under ``val``: 0 below two stones, else its shape's. A short
    piece may match several shape types (the same row): the one in the closed set
    ``allowed`` of (fl, a, fr, length mod p) is used, so only checked values are read."""
    if len(piece) < 2:
        return 0
    p = len(root)
    ident = next(((fl, a, fr) for fl in (0, 1) for a in range(p) for fr in (0, 1)
                  if (fl, a, fr, len(piece) % p) in allowed
                  and shape_row(root, fl, a, fr, len(piece)) == piece), None)
    if ident is None:
        raise AssertionError(f"piece {piece} is no shape of {root} in the closed set")
    fl, a, fr = ident
    return val(int(tindex[fl, a, fr]), len(piece))
