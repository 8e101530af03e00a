"""NP-hardness of Clickomania from 3-SAT: our two-column, six-colour puzzle.

Biedl, Demaine, Demaine, Fleischer, Jacobsen and Munro (*The Complexity of Clickomania*,
2002, Theorem 15) reduce 3-SAT to puzzles of five columns and three colours; the
published version omits the gadgets. This module does **not** reach those parameters: it
reduces 3-SAT to puzzles of **two columns and six colours**, with our own gadgets, proved
below and checked by program (the witness built from a satisfying assignment is replayed
by :func:`clobbermania.clickomania.rules.replay`; the exact solver confirms the smallest
unsatisfiable formulas give unsolvable puzzles). Why three colours are hard for this
kind of puzzle: a column sliding past another keeps its inert blocks apart from the other
column's only if the two columns' inert colours differ; with three colours one of them is
the active colour, so both columns' inert words would alternate the same two colours, and
their parity of contact flips at every key and gate.

The puzzle (:func:`from_3sat`)
------------------------------
Let the formula have variables x_1..x_n and clauses C_1..C_m (at most three distinct
literals each; r_j = |C_j|, R = r_1 + ... + r_m). Parameters: A = n + 1, X = n(2A + 1),
D = X + 1, the scale K = R + 1, and for each literal its *state value*
v(x_i) = (2i - 1)A + i - 1, v(~x_i) = (2i - 1)A + i. Colours: ``0`` items, ``1``/``2``
the left column's inert blocks, ``3`` keys and gates, ``4``/``5`` the right column's inert
blocks. An *inert word* alternates its two colours; the right and left columns share only
colour 3. Columns are listed bottom to top.

* Left column L. The *lattice items*: n items of K*A blocks ``0`` and n of K*(A + 1),
  separated by single inert blocks. Then the *clause keys* k_1..k_m (single ``3``), k_j at
  height Y_j = K*U_j where U_j = U_1 + (j - 1)D, with inert spacers between; then a top
  spacer. All inert blocks so far, read bottom to top, form the word W. Then the *cap* Q:
  W reversed, with *extras* inserted between its letters near its top: for s = 1..R - m a
  *tuning item* t_s (``000``) directly below a *clean-up key* c_s (``3``); no extra sits
  right after the w-th letter of Q when some clause key has exactly w letters of W above
  it.
* Right column R. An inert word with the *gates* inserted (single ``3``): for each clause
  j and literal l of C_j the gate g(j, l) at height Z(j, l) = K(U_j - v(l)); then that
  word's inert letters reversed.

The intended solution, from a satisfying assignment (:func:`witness_from_assignment`).
Remove the lattice items in the order a b for a true x_i and b a for a false one
(i = 1..n): the pair (p, q) of a- and b-items removed then passes through the state
(i, i - 1) when x_i is true and (i - 1, i) when it is false, and the blocks removed number
S = K((p + q)A + q), which is K*v(l) exactly at the state of literal l. For each clause
pick a true literal l; at l's state, clause key k_j is level with gate g(j, l): click
them. (A click at height h lowers both columns above h by one; the pairs of other clauses
are both above or both below every such h, because the bands of different clauses are
K(D - X) = K > R apart, so each click keeps them level-to-be.) The R - m gates left are
then taken by the clean-up keys, for s = 1, 2, ...: c_s with the highest gate G left.
Remove the tuning item left from stage s - 1, if any; fold L's palindrome (each fold takes
one letter of W and one of Q, both below c_s, so c_s comes down two), first removing t_s
(three) if c_s's height and G's differ by an odd number; click c_s with G. This works:
c_s starts above G (the top spacer makes W taller than every gate, and later c_s sits
eight letters and t_s above c_(s-1), which met a higher gate), so the difference is at
least 8 after the tuning items; and c_s reaches G before the fold reaches t_s, because c_s
follows at least |W| - Z + R + 4 letters of Q, Z the lowest gate's starting height, so
folding up to t_s would bring it down to |W| - (that) + 3 < Z - R, below every gate (a
gate only drops by the gates removed under it). Last, L and R are each an even
palindrome of alternating letters, W Q and the right word: both fold up to nothing.

Theorem
-------
The puzzle can be cleared if and only if the formula is satisfiable.

*If*: the sequence above; :func:`witness_from_assignment` builds it (checking each step)
and :func:`reduce_3sat` replays it on the reference rules.

*Only if*. Take a sequence that clears the board and look at it while clause keys remain.

1. *Groups spanning both columns are of colour 3*: the columns share no other colour.
2. *Inert blocks go only by folding, from the middle, above the highest key.* L's inert
   blocks (colours 1, 2) touch nothing of their colours in R, so they go in vertical
   groups; their word is W Q with W alternating and Q = reverse(W), whose only equal
   neighbours are the middle two, and removing them leaves a word of the same form. So L's
   inert blocks go in pairs from the middle out, each pair only once nothing (a key or an
   extra) lies between; no inert block below a remaining key of W is removed. The same
   holds for R's inert blocks and its gates.
3. *A clause key goes only with a gate level with it.* Below k_j lies an inert block of W
   (it stays by 2). Above it lies a letter of W, or, once every letter of W above k_j is
   folded away, say w of them, the block of Q that follows Q's first w letters: by
   construction no extra sits there, so it is a letter. Hence k_j's group holds no other
   block of L, and a click needs a block of colour 3 of R level with it: a gate.
4. *Lattice items go whole, one per click*, while any clause key remains (separators stay
   by 2, and colour 0 is nowhere in R).

Now take the click of k_j with a gate g(j', l'). Let (p, q) be the items removed so far,
v = (p + q)A + q, c the number of clause keys below k_j already gone and d the number of
gates below g(j', l') already gone. By 2 and 4, k_j is at height K*U_j - K*v - c and the
gate at K(U_j' - v(l')) - d, so

    K (U_j - U_j' + v(l') - v) = c - d.

0 <= c <= m - 1 <= R - 1 and 0 <= d <= R - 1, so |c - d| < K and both sides are 0:
U_j - U_j' = v - v(l') lies within [-X, X], so j = j' (the U_j are D = X + 1 apart), and
v = v(l'). Since q <= n < A, v fixes
(p, q): the state was l''s state. Each click removes one item, so p + q grows by one a
click and the states (p, q) with p + q = 2i - 1 are passed at most once; set x_i true if
the sequence passed (i, i - 1) and false otherwise. Clause j's key went at the state of a
literal l' of C_j, which is then true: every clause is satisfied.

Remarks. Size: the board is about 2 K(U_1 + (m - 1)D) rows high, O(m^2 n^2) rows for
R = O(m). ``from_3sat(..., scale=k)`` builds the same layout with any K = k > R (the proof
uses only K > R).

>>> c = from_3sat("(x)&(~x)")
>>> c.parameters["columns"], c.parameters["colors"], c.parameters["scale"]
(2, 6, 3)
>>> r = reduce_3sat("(a|b)&(~a|b)&(~b|a)")
>>> r.certificate, r.verified
({'a': True, 'b': True}, True)
>>> reduce_3sat("(x)&(~x)").certificate is None
True
"""

from __future__ import annotations

import time

from ..errors import NotationError, UnsupportedError
from .hardness import Construction, HardnessResult, reduce_with_certificate
from .rules import Board
from .sat import Formula, check_clause_lengths, dpll, load_formula, parse_formula

#: The colours of the puzzle.
ITEM, L_INERT, KEY, R_INERT = 0, (1, 2), 3, (4, 5)
#: The tallest 3-SAT puzzle built: building the witness and replaying it take time
#: quadratic in the rows (8,000 rows: about 4 s CPU).
MAX_PUZZLE_ROWS = 8_000
#: Letters of Q between consecutive clean-up pairs (room for the parity steps).
_CLEANUP_GAP = 8


def _as_formula(formula: Formula | str) -> Formula:
    if isinstance(formula, Formula):
        return check_clause_lengths(formula, 3)
    return load_formula(formula, max_clause_length=3)


def state_value(lit: int, a: int) -> int:
    """v(l): (2i - 1)A + i - 1 for x_i, (2i - 1)A + i for ~x_i (module docstring)."""
    i = abs(lit)
    return (2 * i - 1) * a + i - (1 if lit > 0 else 0)


def _layout(f: Formula, scale: int | None):
    """Both columns as lists of (colour, tag), bottom to top, and the parameters."""
    n, m = f.n_variables, len(f.clauses)
    total_lits = sum(len(c) for c in f.clauses)
    n_clean = total_lits - m
    needed = total_lits + 1
    k = needed if scale is None else scale
    if isinstance(k, bool) or not isinstance(k, int) or k < needed:
        raise NotationError(f"the scale must be an integer at least the number of literal "
                            f"occurrences plus one ({needed}), not {scale!r}")
    a = n + 1
    x_total = n * (2 * a + 1)
    d = x_total + 1
    lattice_height = k * x_total + 2 * n - 1
    # room under the lowest gate for the clean-up keys' descent (see _cleanup_positions)
    z_min_needed = total_lits + (_CLEANUP_GAP + 4) * n_clean + m + 4
    u1 = max(x_total + -(-z_min_needed // k), -(-(lattice_height + 1) // k))
    u = [u1 + j * d for j in range(m)]
    top = k * x_total + 2 * m + 8  # so that the cap starts above every gate
    # the left column (the taller): items, inert letters and keys up to the top spacer,
    # then the cap (W reversed, with the clean-up extras)
    below_cap = k * u[-1] + 1 + top
    w_total = below_cap - n * k * (2 * a + 1) - m
    rows = below_cap + w_total + 4 * n_clean
    if rows > MAX_PUZZLE_ROWS:
        raise UnsupportedError(f"the puzzle of this formula would have {rows:,} rows; the "
                               f"3-SAT puzzles are built up to {MAX_PUZZLE_ROWS:,} "
                               "rows (the rows grow as the square of variables times clauses)")
    left: list[tuple[int, tuple]] = []
    word: list[int] = []  # W's letters, bottom to top

    def inert(count: int, tag: tuple) -> None:
        for _ in range(count):
            c = L_INERT[len(word) % 2]
            word.append(c)
            left.append((c, tag))

    for i in range(n):
        for kind, size in (("a", k * a), ("b", k * (a + 1))):
            if left:
                inert(1, ("separator",))
            left.extend([(ITEM, ("item", kind, i + 1))] * size)
    letters_above: list[int] = []
    key_heights = []
    for j in range(m):
        inert(k * u[j] - len(left), ("spacer", j))
        key_heights.append(len(left))
        letters_above.append(len(word))  # letters below k_j for now; fixed up below
        left.append((KEY, ("key", j + 1)))
    inert(top, ("spacer", m))
    w_len = len(word)
    letters_above = [w_len - x for x in letters_above]
    # clean-up extras: (t_s, c_s) after pi_s letters of Q, high enough to reach the lowest
    # gate (see the module docstring), never where a clause key could meet them
    gates: dict[tuple[int, int], int] = {}
    for j, clause in enumerate(f.clauses):
        for lit in clause:
            gates[(j + 1, lit)] = k * (u[j] - state_value(lit, a))
    z_low = min(gates.values())
    pis = []
    pi = w_len - (z_low - total_lits) + 4
    for _ in range(n_clean):
        while pi in letters_above:
            pi += 1
        pis.append(pi)
        pi += _CLEANUP_GAP
    if pis and pis[-1] > w_len:  # pragma: no cover - z_min_needed leaves the room
        raise AssertionError("no room for the clean-up keys in the cap")
    extras_at = {p: s for s, p in enumerate(pis)}
    cap_start = len(left)
    for idx, c in enumerate(reversed(word)):
        if idx in extras_at:
            s = extras_at[idx]
            left.extend([(ITEM, ("tune", s + 1))] * 3)
            left.append((KEY, ("clean", s + 1)))
        left.append((c, ("cap",)))
    if w_len in extras_at:  # pragma: no cover - pis stay below w_len
        raise AssertionError("extra above the cap")
    # the right column: inert word with gates at their heights, then its letters reversed
    right: list[tuple[int, tuple]] = []
    rword: list[int] = []
    by_height = {h: key for key, h in gates.items()}
    top_gate = max(gates.values())
    h = 0
    while h <= top_gate or not rword or right[-1][0] == KEY:
        if h in by_height:
            right.append((KEY, ("gate",) + by_height[h]))
        else:
            c = R_INERT[len(rword) % 2]
            rword.append(c)
            right.append((c, ("right",)))
        h += 1
    right.extend((c, ("right cap",)) for c in reversed(rword))
    params = {
        "columns": 2, "colors": 6, "n": n, "m": m, "literals": total_lits,
        "scale": k, "A": a, "X": x_total, "D": d, "U1": u1,
        "rows": max(len(left), len(right)),
        "blocks": len(left) + len(right),
        "item_blocks": {"a": k * a, "b": k * (a + 1)},
        "key_heights": key_heights,
        "gate_heights": {f"{j}:{f.literal_name(lit)}": z for (j, lit), z in gates.items()},
        "word_length": w_len, "cap_start": cap_start, "cleanup_keys": n_clean,
        "color_roles": {"0": "lattice items and tuning items (left)",
                        "1": "left inert word", "2": "left inert word",
                        "3": "clause keys, clean-up keys (left) and gates (right)",
                        "4": "right inert word", "5": "right inert word"},
    }
    return left, right, params


def from_3sat(formula: Formula | str, scale: int | None = None) -> Construction:
    """The two-column, six-colour puzzle of a 3-CNF formula (module docstring).

    ``formula`` is a :class:`~clobbermania.clickomania.sat.Formula` or text in any syntax
    of :func:`~clobbermania.clickomania.sat.parse_formula` (or a DIMACS file path).

    >>> c = from_3sat("1;-1")
    >>> c.board.width, c.parameters["n"], c.parameters["m"], c.parameters["gate_heights"]
    (2, 1, 2, {'1:1': 18, '2:~1': 33})
    """
    f = _as_formula(formula)
    left, right, params = _layout(f, scale)
    height = params["rows"]
    board = Board.from_columns([[c for c, _ in left], [c for c, _ in right]], height)

    def parts(col: list, column: str) -> list[dict]:
        out: list[dict] = []
        start = 0
        for i in range(1, len(col) + 1):
            if i == len(col) or col[i][1] != col[start][1]:
                tag = col[start][1]
                name = _part_name(f, tag)
                out.append({"name": name, "column": column,
                            "rows": [height - i + 1, height - start]})
                start = i
        return [p for p in out if not p["name"].startswith(("cap", "right", "separator"))]

    gadgets = parts(left, "a") + parts(right, "b")
    instance = {"formula": f.text(), "variables": list(f.names),
                "clauses": [list(c) for c in f.clauses]}
    return Construction("3sat", instance, board, params, gadgets)


def _part_name(f: Formula, tag: tuple) -> str:
    kind = tag[0]
    if kind == "item":
        return f"lattice item {tag[1]}{tag[2]} ({'K*A' if tag[1] == 'a' else 'K*(A+1)'})"
    if kind == "key":
        return f"clause key {tag[1]}"
    if kind == "gate":
        return f"gate of clause {tag[1]} for {f.literal_name(tag[2])}"
    if kind == "spacer":
        return "top spacer" if tag[1] == len(f.clauses) else f"spacer {tag[1]}"
    if kind == "tune":
        return f"tuning item {tag[1]}"
    if kind == "clean":
        return f"clean-up key {tag[1]}"
    return " ".join(str(x) for x in tag)


def witness_from_assignment(formula: Formula | str, assignment: dict[str, bool],
                            scale: int | None = None) -> list[str]:
    """The click sequence that clears ``from_3sat(formula, scale).board``, built from a
    satisfying ``assignment`` (variable name -> bool); NotationError if some clause is
    false under it.

    >>> from clobbermania.clickomania.rules import replay
    >>> moves = witness_from_assignment("(x)&(x|y)", {"x": True, "y": False})
    >>> replay(from_3sat("(x)&(x|y)").board, moves)[-1].is_cleared
    True
    """
    f = _as_formula(formula)
    if not f.satisfied_by(assignment):
        raise NotationError("the assignment leaves a clause false, so it builds no witness")
    left, right, params = _layout(f, scale)
    height = params["rows"]
    cols = [list(left), list(right)]
    moves: list[str] = []

    def where(tag: tuple) -> tuple[int, int]:
        for ci, col in enumerate(cols):
            for hi, (_, t) in enumerate(col):
                if t == tag:
                    return ci, hi
        raise AssertionError(f"no block {tag}")  # pragma: no cover

    def click(ci: int, hi: int, removed: list[tuple[int, int]]) -> None:
        # name the clicked block in the current frame (columns close up when one empties)
        moves.append(f"{'ab'[ci]}{height - hi}")
        for c2, h2 in sorted(removed, key=lambda x: -x[1]):
            del cols[c2][h2]
        if not cols[0]:
            cols.pop(0)

    def click_item(tag: tuple) -> None:
        ci, hi = where(tag)
        size = sum(1 for _, t in cols[ci] if t == tag)
        click(ci, hi, [(ci, hi + x) for x in range(size)])

    def click_pair(key_tag: tuple, gate_tag: tuple) -> None:
        _, hk = where(key_tag)
        _, hg = where(gate_tag)
        if hk != hg:  # pragma: no cover - the theorem's "if" part says they are level
            raise AssertionError(f"{key_tag} at height {hk} is not level with {gate_tag} "
                                 f"at {hg}")
        click(0, hk, [(0, hk), (1, hg)])

    a = params["A"]
    chosen = {}
    for j, clause in enumerate(f.clauses):
        for lit in clause:
            if assignment[f.names[abs(lit) - 1]] == (lit > 0):
                chosen[j + 1] = lit
                break
    by_state: dict[int, list[int]] = {}
    for j, lit in chosen.items():
        by_state.setdefault(state_value(lit, a), []).append(j)
    p = q = 0
    for i in range(1, f.n_variables + 1):
        order = "ab" if assignment[f.names[i - 1]] else "ba"
        for kind in order:
            click_item(("item", kind, i))
            p, q = (p + 1, q) if kind == "a" else (p, q + 1)
            for j in by_state.get((p + q) * a + q, []):
                click_pair(("key", j), ("gate", j, chosen[j]))
    # clean-up: lowest clean-up key with the highest gate left, one by one
    n_clean = params["cleanup_keys"]
    for s in range(1, n_clean + 1):
        for s2 in range(1, s):  # tuning items left below this key go first
            if any(t == ("tune", s2) for _, t in cols[0]):
                click_item(("tune", s2))
        gate_h = max(h for h, (_, t) in enumerate(cols[1]) if t[0] == "gate")
        gate_tag = cols[1][gate_h][1]
        _, hk = where(("clean", s))
        if (hk - gate_h) % 2:
            click_item(("tune", s))
            hk -= 3
        if hk < gate_h:  # pragma: no cover - the spacing of the cap prevents it
            raise AssertionError(f"clean-up key {s} passed the gate {gate_tag}")
        for _ in range((hk - gate_h) // 2):
            _fold_left(cols, click)
        click_pair(("clean", s), gate_tag)
    for s in range(1, n_clean + 1):
        if any(t == ("tune", s) for _, t in cols[0]):
            click_item(("tune", s))
    # both columns are now even palindromes of alternating letters: fold them up
    while len(cols) == 2:
        _fold_left(cols, click)
    while cols:
        _fold_left(cols, click)
    return moves


def _fold_left(cols: list, click) -> None:
    """Click the middle pair of the first column's palindrome (equal neighbours)."""
    col = cols[0]
    for h in range(len(col) - 1):
        if col[h][0] == col[h + 1][0] and col[h][0] in L_INERT + R_INERT:
            if h + 2 < len(col) and col[h + 2][0] == col[h][0]:  # pragma: no cover
                raise AssertionError("a fold group of three")
            click(0, h, [(0, h), (0, h + 1)])
            return
    raise AssertionError("the column has no middle pair to fold")  # pragma: no cover


def reduce_3sat(formula: Formula | str, time_limit: float | None = 10.0,
                scale: int | None = None) -> HardnessResult:
    """Build the puzzle of a 3-CNF formula, decide satisfiability exactly (DPLL, within
    ``time_limit`` seconds) and from a satisfying assignment the clearing click sequence,
    replayed by the reference rules.

    >>> r = reduce_3sat("1,2;-1,2;1,-2;-1,-2")
    >>> r.certificate, r.certificate_known, r.moves
    (None, True, None)
    """
    t0 = time.perf_counter()
    f = _as_formula(formula)
    return reduce_with_certificate(
        from_3sat(f, scale), lambda: dpll(f, time_limit=time_limit),
        lambda assignment: witness_from_assignment(f, assignment, scale), "assignment", t0)


__all__ = ["state_value", "from_3sat", "witness_from_assignment", "reduce_3sat",
           "parse_formula", "MAX_PUZZLE_ROWS"]
