"""NP-hardness of Clickomania: 3-partition -> a two-column, five-colour puzzle.

Biedl, Demaine, Demaine, Fleischer, Jacobsen and Munro (*The Complexity of Clickomania*,
2002, Theorem 14) show that deciding whether a Clickomania puzzle can be cleared is
NP-complete already for two columns and five colours, by a reduction from 3-partition.
The published version omits the gadgets, so this module builds its own puzzle with the
paper's parameters (two columns, five colours; the idea of the paper: the blocks of one
column are the numbers, and removing them slides that column past the other, whose
blocks can only be matched at exact heights) and proves it below. Every construction is
also checked by program: the witness built from a certificate is replayed by
:func:`clobbermania.clickomania.rules.replay`, and the exact solver
(:func:`clobbermania.clickomania.solver.solve_clickomania`) confirms the smallest
no-instances give unsolvable puzzles (tests/clickomania/test_hardness.py).

3-partition: given 3m positive integers a_1..a_3m with sum m*t and the strong bounds
t/4 < a_i < t/2, can they be split into m triples of sum t each? (Any set of them with sum
t then has exactly three members.) It is strongly NP-complete (Garey and Johnson), so
the numbers may be written in unary: the puzzle has O(m^2 t) blocks.

The puzzle (:func:`from_3partition`)
------------------------------------
Colours: ``0`` items, ``1`` and ``2`` inert blocks, ``3`` keys and gates, ``4`` the
right column's base and fillers. Let n = 3m, K = 2m - 1 (the scale; for m = 1, K = 1,
or 2 for the instance 1,1,1, whose items would otherwise be single blocks, which can
never be clicked) and b = K(m - 1)t + n - 1. Columns are listed bottom to top.

* Left column L: the *items* I_1..I_n, I_i = a run of K*a_i blocks ``0``, in input order,
  separated by n - 1 single *separators*; then the *keys* k_1..k_m (single ``3``), with a
  *spacer* P_j of K*t + 1 blocks between k_j and k_{j+1}; then the *cap* Q. The
  separators and spacers, read bottom to top, form the word W = 1212... (alternating,
  length n - 1 + (m - 1)(Kt + 1)); the cap Q is W reversed.
* Right column R: the *base*, b blocks ``4``; then the *gates* G_1..G_m (single ``3``)
  with one *filler* ``4`` between consecutive gates.

The board is as tall as L: K*m*t + 2|W| + m rows.

The intended solution, from triples T_1..T_m (:func:`witness_from_partition`): for j = 1..m
click the three items of T_j (any order), then key k_j, which now sits level with gate
G_j (it is at height b + j - 1: K(m - j)t item blocks, n - 1 separators and j - 1 spacers
of Kt + 1 lie below it; below G_j lie the base and j - 1 fillers). After k_m, L holds
only W Q, a palindrome of even length: the two middle blocks are equal and adjacent,
and clicking them brings the next two together, down to the floor. R holds only ``4``s,
one group. Both columns clear.

Theorem
-------
The puzzle can be cleared if and only if the numbers have a 3-partition.

*If*: the sequence above; :func:`witness_from_partition` builds it and the tests replay it.

*Only if*. Take a sequence that clears the board. Facts, each true at every moment:

1. *Horizontal groups pair a key with a gate and nothing else.* R holds only colours 3
   and 4, L holds colour 3 only in keys and never 4; so a group spanning both columns is
   made of keys and gates.
2. *B/C blocks (colours 1, 2) of L go only by the cascade, and only above the highest
   key left.* R holds no 1 or 2, so these blocks go in groups inside L, which need two
   equal ones adjacent. Their word (in L order, ignoring the items and keys between them)
   is W Q: W alternates and Q = reverse(W), so the only equal neighbours in the word are
   the middle two, and removing them leaves again a word W'Q' of the same form. So the
   removed B/C blocks are always the last few of W and the first few of Q, removed in
   pairs from the middle outwards; the middle pair is adjacent in L only once every key
   and item between it and the old middle is gone. Hence: no separator or spacer below
   a key that is still there has been removed, and while any key is left no separator
   has.
3. *Items are removed one at a time, each whole,* until the last key goes: items (colour
   0, only in L) are separated by separators, which stay by (2).
4. *Keys are never adjacent to each other, and each key goes with a gate.* Between two
   keys lies a spacer of Kt + 1 >= 2 blocks, which stays while the upper key does (2);
   below k_1 lies an item or a separator. So a key's group needs a gate (1).
5. *Counting.* The m keys go in clicks that each take one key (keys are pairwise
   non-adjacent, and a group reaching two keys would need Kt + 3 > m gates in a row) and
   at least one gate; there are only m gates, so each key click takes exactly one gate
   level with it, and no gate goes any other way.

Now take the click of key k_j with a gate G_l level with it. Let S be the sum of the a_i
of the items removed so far, k the number of keys below k_j already removed, g the
number of gates below G_l still there and e the number of ``4`` blocks below G_l
removed. By (2), (3) and (4) the height of k_j is K(mt - S) + (n - 1) + (j - 1)(Kt + 1) +
(j - 1 - k), and the height of G_l is (b + l - 1 - e) + g. Equal heights give

    K (j t - S) = (l - j) - (j - 1 - k) + g - e.                            (*)

The base starts as one group of b blocks; a group of ``4`` blocks either contains what is
left of the base or consists of fillers only. If some click removed the base, e >= b
and the right side of (*) is at most 2(m - 1) - b < -K(m - 1)t, while the left side is
at least K(t - mt): impossible. So e <= l - 1 (only fillers below G_l went), and the right
side lies between -2(m - 1) and 2(m - 1), so it is a multiple of K = 2m - 1 of absolute
value less than K, hence 0: S = jt. The value of S never decreases, so the keys go in the
order k_1, k_2, ..., k_m, at S = t, 2t, ..., mt; the items removed between the clicks
of k_(j-1) and k_j (one at a time, by (3)) sum to t, so there are three of them (the
strong bounds), and these m triples are a 3-partition.

Remarks. The puzzle has exactly five colours and two columns. The scale K = 2m - 1 is
what the proof needs (for m = 1 any K works); every item needs K a_i >= 2 blocks to be
clickable at all, which only the instance 1,1,1 at K = 1 would break (a_i = 1 forces
t = 3); ``from_3partition(..., scale=1)`` builds the
unscaled puzzle, about 2m times shorter, which the exact solver finds correct on every
instance with m = 2 and t <= 20 (benchmarks/clickomania_hardness.py), an observation,
not a theorem.

>>> c = from_3partition([2, 2, 2])
>>> c.board.width, c.board.height, c.parameters["scale"], c.board.text()
(2, 11, 1, '1./2./3./0./0./2./0./0./13/04/04')
>>> r = reduce_3partition("4,4,5,4,4,5")
>>> r.certificate, len(r.moves), r.verified
([[5, 4, 4], [5, 4, 4]], 54, True)
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import ClobbermaniaError, NotationError, UnsupportedError
from .rules import Board, iter_boards

#: The colours of the two-column puzzle.
ITEM, INERT_1, INERT_2, KEY, BASE = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class Construction:
    """A hardness puzzle and what it is made of.

    ``board`` is the puzzle; ``parameters`` the documented sizes (JSON-ready);
    ``gadgets`` names each part with the rows (from the top) and column it occupies.
    """

    source: str
    instance: dict
    board: Board
    parameters: dict
    gadgets: list[dict] = field(default_factory=list)


@dataclass(frozen=True)
class HardnessResult:
    """A construction with the certificate found for the source problem and the witness.

    ``certificate`` is the 3-partition (or the satisfying assignment), None when the
    instance has none, and ``certificate_known`` is False when the search for one was
    stopped by its time limit (then ``certificate`` is None too). ``moves`` is the click
    sequence built from the certificate (square names), ``verified`` says the reference
    rules replayed it and it cleared the board.
    """

    construction: Construction
    certificate: object
    certificate_known: bool
    moves: list[str] | None
    verified: bool
    seconds: float

    @property
    def board(self) -> Board:
        return self.construction.board

    def to_dict(self) -> dict:
        c = self.construction
        return {
            "source": c.source,
            "instance": c.instance,
            "board": c.board.text(),
            "parameters": c.parameters,
            "gadgets": c.gadgets,
            "certificate": self.certificate,
            "certificate_search_finished": self.certificate_known,
            "moves": self.moves,
            "verified": self.verified if self.moves is not None else None,
            "seconds": round(self.seconds, 6),
        }


# -- 3-partition ---------------------------------------------------------------------------

#: Digits a number of an instance may have (the puzzles are unary in the numbers: any
#: number past MAX_PUZZLE_ROWS is refused anyway, this keeps the arithmetic small).
MAX_DIGITS = 18

def parse_numbers(text: str | Iterable[int]) -> list[int]:
    """``"4,4,5,4,4,5"`` (commas or spaces) or a sequence -> list of ints.

    >>> parse_numbers("4, 4,5 4")
    [4, 4, 5, 4]
    """
    if isinstance(text, str):
        parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
        if not parts:
            raise NotationError("no numbers given: write them like 4,4,5,4,4,5")
        out = []
        for p in parts:
            if not re.fullmatch(r"[+-]?\d+", p):
                raise NotationError(f"{p[:40]!r} is not a whole number")
            if len(p.lstrip("+-")) > MAX_DIGITS:
                raise UnsupportedError(f"the number {p[:20]}... has more than {MAX_DIGITS} "
                                       "digits; the numbers are at most 10^18")
            out.append(int(p))
        return out
    out = []
    for x in text:
        if isinstance(x, bool) or int(x) != x:
            raise NotationError(f"{x!r} is not a whole number")
        if abs(int(x)) > 10 ** MAX_DIGITS:
            raise UnsupportedError(f"the number {int(x)} is over 10^18; the numbers are at "
                                   "most 10^18")
        out.append(int(x))
    return out


def check_3partition(numbers: str | Iterable[int]) -> tuple[list[int], int, int]:
    """Validate a 3-partition instance; return (numbers, m, t).

    The instance needs 3m positive integers, sum m*t, each strictly between t/4 and t/2
    (the strong form; the paper's t/3 <= a_i <= 2t/3 would force every a_i = t/3).

    >>> check_3partition("4,4,5,4,4,5")
    ([4, 4, 5, 4, 4, 5], 2, 13)
    >>> check_3partition("1,2,3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clobbermania.errors.NotationError: the number 1 is not strictly between t/4 = 1.5 ...
    """
    a = parse_numbers(numbers)
    for x in a:
        if x <= 0:
            raise NotationError(f"the number {x} is not positive: 3-partition takes positive "
                                "integers")
    if not a or len(a) % 3:
        raise NotationError(f"3-partition takes 3m numbers, and {len(a)} is not a positive "
                            "multiple of 3")
    m = len(a) // 3
    total = sum(a)
    if total % m:
        raise NotationError(f"the sum {total} is not a multiple of m = {m}, so no triples "
                            "of equal sum exist")
    t = total // m
    for x in a:
        if not (4 * x > t and 2 * x < t):
            raise NotationError(f"the number {x} is not strictly between t/4 = {t / 4:g} and "
                                f"t/2 = {t / 2:g} (t = {t})")
    return a, m, t


def find_3partition(numbers: str | Iterable[int],
                    time_limit: float | None = 10.0) -> list[list[int]] | None:
    """A 3-partition of ``numbers`` (triples of values, each of sum t) or None if none.

    Exact backtracking (exponential in the worst case): the largest number left goes into
    a triple with two others that complete it to t; dead multisets are remembered.
    Raises UnsupportedError when ``time_limit`` seconds pass first.

    >>> find_3partition([5, 4, 4, 4, 4, 5])
    [[5, 4, 4], [5, 4, 4]]
    >>> find_3partition([4, 4, 4, 4, 4, 6]) is None
    True
    """
    a, m, t = check_3partition(numbers)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    dead: set[tuple[int, ...]] = set()
    steps = [0]

    def search(rest: tuple[int, ...]) -> list[list[int]] | None:
        # rest is sorted decreasing; the largest must be in some triple
        if not rest:
            return []
        if rest in dead:
            return None
        steps[0] += 1
        if deadline is not None and steps[0] % 1024 == 0 and time.perf_counter() > deadline:
            raise UnsupportedError(f"no 3-partition found or ruled out within {time_limit:g} s")
        x = rest[0]
        tried = set()
        for i in range(1, len(rest)):
            for j in range(i + 1, len(rest)):
                if x + rest[i] + rest[j] != t or (rest[i], rest[j]) in tried:
                    continue
                tried.add((rest[i], rest[j]))
                sub = rest[1:i] + rest[i + 1:j] + rest[j + 1:]
                found = search(sub)
                if found is not None:
                    return [[x, rest[i], rest[j]]] + found
        dead.add(rest)
        return None

    return search(tuple(sorted(a, reverse=True)))


def _w_color(i: int) -> int:
    """Colour of the i-th letter of the alternating word W."""
    return INERT_1 if i % 2 == 0 else INERT_2


#: The tallest 3-partition puzzle built: the witness replay takes time quadratic in the
#: rows (20,000 rows: about 2 s CPU).
MAX_PUZZLE_ROWS = 20_000


def puzzle_rows_3partition(numbers: str | Iterable[int], scale: int | None = None) -> int:
    """The rows of :func:`from_3partition`'s puzzle, computed without building it: the
    items (K a_i each), 3m - 1 separators, m keys, m - 1 spacers of Kt + 1 and the cap.

    >>> puzzle_rows_3partition([4, 4, 5, 4, 4, 5])
    170
    """
    a, m, t = check_3partition(numbers)
    k = _check_scale(a, m, scale)
    n = 3 * m
    return k * sum(a) + 2 * (n - 1) + m + 2 * (m - 1) * (k * t + 1)


def _proven_scale(a: Sequence[int], m: int) -> int:
    """The smallest scale K the theorem covers: 2m - 1 (the proof's counting), and at
    least 2 when some a_i = 1 (an item of K a_i = 1 block could never be clicked)."""
    return max(2 * m - 1, 2 if min(a) == 1 else 1)


def _check_scale(a: Sequence[int], m: int, scale: int | None) -> int:
    """The scale to build with: ``scale``, or the proven one when None; refused when it is
    not a positive integer or makes an item a single block."""
    if scale is None:
        return _proven_scale(a, m)
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise NotationError(f"the scale must be a positive integer, not {scale!r}")
    if scale * min(a) < 2:
        raise UnsupportedError(f"scale {scale} makes the item of the number {min(a)} a "
                               "single block, which can never be clicked; the scale must "
                               "be at least 2 here")
    return scale


def _check_rows(rows: int, what: str) -> None:
    if rows > MAX_PUZZLE_ROWS:
        raise UnsupportedError(f"the puzzle of this {what} would have {rows:,} rows; the "
                               f"3-partition puzzles are built up to {MAX_PUZZLE_ROWS:,} "
                               "rows (the puzzle is unary in the numbers)")


def from_3partition(numbers: str | Iterable[int], scale: int | None = None) -> Construction:
    """The two-column, five-colour puzzle of a 3-partition instance (module docstring).

    ``scale`` is K; the default 2m - 1 (for m = 1: 1, or 2 for 1,1,1) is what the
    theorem's proof needs, and ``parameters["proven"]`` says whether the chosen K is
    covered by it. A scale that makes an item a single block (K a_i = 1) is refused. A smaller K
    gives a smaller puzzle whose intended witness still clears it (experiments only).

    >>> c = from_3partition([4, 4, 5, 4, 4, 5])
    >>> c.parameters["scale"], c.parameters["t"], c.board.height, c.board.n_blocks
    (3, 13, 170, 217)
    >>> from_3partition([4, 4, 5, 4, 4, 5], scale=1).parameters["proven"]
    False
    """
    a, m, t = check_3partition(numbers)
    n = 3 * m
    needed = _proven_scale(a, m)
    k = _check_scale(a, m, scale)
    _check_rows(puzzle_rows_3partition(a, k), "3-partition instance")
    left: list[int] = []
    word: list[int] = []
    parts: list[tuple[str, int, int]] = []  # (name, first height, length) in L

    def inert(count: int) -> None:
        for _ in range(count):
            c = _w_color(len(word))
            word.append(c)
            left.append(c)

    for i, x in enumerate(a):
        parts.append((f"item {i + 1} (a = {x})", len(left), k * x))
        left.extend([ITEM] * (k * x))
        if i < n - 1:
            parts.append((f"separator {i + 1}", len(left), 1))
            inert(1)
    for j in range(m):
        parts.append((f"key {j + 1}", len(left), 1))
        left.append(KEY)
        if j < m - 1:
            parts.append((f"spacer {j + 1}", len(left), k * t + 1))
            inert(k * t + 1)
    parts.append(("cap (the separators and spacers reversed)", len(left), len(word)))
    left.extend(reversed(word))
    base = k * (m - 1) * t + n - 1
    right = [BASE] * base
    rparts = [("base", 0, base)]
    for j in range(m):
        rparts.append((f"gate {j + 1}", len(right), 1))
        right.append(KEY)
        if j < m - 1:
            rparts.append((f"filler {j + 1}", len(right), 1))
            right.append(BASE)
    height = len(left)
    board = Board.from_columns([left, right], height)

    def rows(h0: int, length: int) -> list[int]:
        # rows from the top, 1-based, of heights h0 .. h0+length-1
        return [height - (h0 + length - 1), height - h0]

    gadgets = [{"name": name, "column": "a", "rows": rows(h0, ln)} for name, h0, ln in parts]
    gadgets += [{"name": name, "column": "b", "rows": rows(h0, ln)} for name, h0, ln in rparts]
    params = {
        "columns": 2, "colors": 5, "m": m, "t": t, "n": n, "scale": k,
        "proven": k >= needed,
        "rows": height, "blocks": board.n_blocks,
        "item_blocks": [k * x for x in a], "spacer_length": k * t + 1,
        "base_length": base, "word_length": len(word),
        "key_heights_at_click": [base + j for j in range(m)],
        "color_roles": {"0": "items", "1": "separators, spacers and cap (alternating)",
                        "2": "separators, spacers and cap (alternating)",
                        "3": "keys (left) and gates (right)",
                        "4": "base and fillers (right)"},
    }
    return Construction("3partition", {"numbers": a, "m": m, "t": t}, board, params, gadgets)


def witness_from_partition(numbers: str | Iterable[int],
                           triples: Sequence[Sequence[int]],
                           scale: int | None = None) -> list[str]:
    """The click sequence that clears ``from_3partition(numbers).board``, from a
    3-partition given as triples of values (as :func:`find_3partition` returns), for the
    puzzle of the same ``scale``.

    >>> from clobbermania.clickomania.rules import replay
    >>> moves = witness_from_partition([2, 2, 2], [[2, 2, 2]])
    >>> moves
    ['a5', 'a8', 'a11', 'a9', 'b11', 'a10', 'a11']
    >>> replay(from_3partition([2, 2, 2]).board, moves)[-1].is_cleared
    True
    """
    a, m, t = check_3partition(numbers)
    c = from_3partition(a, scale)
    board = c.board
    n = 3 * m
    k = c.parameters["scale"]
    H = board.height
    # triples of values -> triples of item indices
    pool: dict[int, list[int]] = {}
    for i, x in enumerate(a):
        pool.setdefault(x, []).append(i)
    order: list[list[int]] = []
    if len(triples) != m:
        raise NotationError(f"a 3-partition of {n} numbers has {m} triples, not {len(triples)}")
    for tr in triples:
        if len(tr) != 3 or sum(tr) != t:
            raise NotationError(f"{list(tr)} is not a triple of sum t = {t}")
        idx = []
        for x in tr:
            if not pool.get(x):
                raise NotationError(f"the triples use {x} more often than the numbers do")
            idx.append(pool[x].pop())
        order.append(idx)
    present = [True] * n
    moves: list[str] = []
    for j, idx in enumerate(order):
        for i in idx:
            # item i's lowest block: remaining items below it, and i separators
            h = sum(k * a[q] for q in range(i) if present[q]) + i
            moves.append(board.square_name((H - 1 - h, 0)))
            present[i] = False
        # key j: level with gate j at height b + j
        moves.append(board.square_name((H - 1 - (c.parameters["base_length"] + j), 0)))
    # the right column is one group of 4s now; then the left palindrome folds up
    moves.append(board.square_name((H - 1, 1)))
    wlen = c.parameters["word_length"]
    for i in range(wlen):
        moves.append(board.square_name((H - 1 - (wlen - 1 - i), 0)))
    return moves


def reduce_with_certificate(construction: Construction, find_certificate, build_witness,
                            what: str, t0: float) -> HardnessResult:
    """The result of a reduction: search the certificate (``find_certificate()``; an
    UnsupportedError means it ran out of time), build the clearing clicks from it
    (``build_witness(certificate)``) and replay them by the reference rules. Shared by
    :func:`reduce_3partition` and :func:`hardness_sat.reduce_3sat`."""
    known = True
    try:
        certificate = find_certificate()
    except UnsupportedError:
        certificate, known = None, False
    moves = None
    verified = False
    if certificate is not None:
        moves = build_witness(certificate)
        board = construction.board
        try:
            for after in iter_boards(construction.board, moves):  # one board at a time
                board = after
        except ClobbermaniaError as exc:  # pragma: no cover - the theorem says no
            raise AssertionError(f"the witness built from the {what} has an illegal "
                                 f"click: {exc}") from None
        verified = board.is_cleared
        if not verified:  # pragma: no cover - the theorem says this cannot happen
            raise AssertionError(f"the witness built from the {what} did not clear")
    return HardnessResult(construction, certificate, known, moves, verified,
                          time.perf_counter() - t0)


def reduce_3partition(numbers: str | Iterable[int], time_limit: float | None = 10.0,
                      scale: int | None = None) -> HardnessResult:
    """Build the puzzle of a 3-partition instance, search a 3-partition (exactly, within
    ``time_limit`` seconds), and from it the clearing click sequence, replayed.
    ``scale`` as in :func:`from_3partition`.

    >>> r = reduce_3partition([4, 4, 4, 4, 4, 6])
    >>> r.certificate, r.certificate_known, r.moves
    (None, True, None)
    """
    t0 = time.perf_counter()
    c = from_3partition(numbers, scale)
    a = c.instance["numbers"]
    return reduce_with_certificate(
        c, lambda: find_3partition(a, time_limit=time_limit),
        lambda triples: witness_from_partition(a, triples, scale), "3-partition", t0)


__all__ = ["Construction", "HardnessResult", "parse_numbers", "check_3partition",
           "find_3partition", "from_3partition", "witness_from_partition",
           "reduce_3partition", "puzzle_rows_3partition", "MAX_PUZZLE_ROWS"]
