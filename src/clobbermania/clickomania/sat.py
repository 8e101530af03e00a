"""CNF formulas: parsing, evaluation and an exact satisfiability search (DPLL).

The source problem of Biedl et al.'s Theorem 15 (*The Complexity of Clickomania*) is
3-SAT: a conjunction of clauses, each an OR of at most three literals (a variable or its
negation). This module reads such formulas, checks assignments, and decides
satisfiability exactly: :func:`dpll` (Davis-Putnam-Logemann-Loveland: unit propagation,
pure literals, branching on the most frequent variable; exponential in the worst case,
as the problem is NP-complete, so it takes a time limit) and :func:`brute_force` (every
assignment, the independent oracle the tests hold :func:`dpll` to).

Syntax (:func:`parse_formula`), one of

* numbered, DIMACS-like: clauses separated by ``;``, literals by ``,`` or spaces, a
  negative number negates: ``"1,-2,3;-1,2,4"``;
* named: clauses joined by ``&``, literals by ``|``, negation ``~`` (or ``!`` or ``-``),
  parentheses optional: ``"(a|~b|c)&(~a|b|d)"``; variables are numbered in order of first
  appearance;
* a DIMACS CNF file (``p cnf V C`` header, ``c`` comment lines, clauses ended by ``0``):
  pass the text, or use :func:`load_formula` with a path.

A literal is a nonzero int: ``v`` or ``-v`` for variable ``v`` (1-based). A clause with a
variable and its negation is always true and is kept (it costs nothing).

>>> f = parse_formula("(a|~b)&(b|c)&(~a|~c)")
>>> f.names, f.clauses
(('a', 'b', 'c'), ((1, -2), (2, 3), (-1, -3)))
>>> f.text()
'(a | ~b) & (b | c) & (~a | ~c)'
>>> dpll(f)
{'a': True, 'b': True, 'c': False}
>>> dpll(parse_formula("1;-1")) is None
True
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import NotationError, UnsupportedError
from ..limits import read_capped_text

#: :func:`brute_force` refuses formulas with more variables (2^20 assignments).
BRUTE_FORCE_MAX_VARIABLES = 20
#: The largest variable number of a DIMACS formula, and the largest formula file read.
MAX_VARIABLE = 1_000_000
MAX_FILE_BYTES = 32 << 20

_NAME = re.compile(r"[A-Za-z0-9_]+")


@dataclass(frozen=True)
class Formula:
    """A CNF formula: ``clauses`` of nonzero ints (``-v`` negates variable ``v``, 1-based);
    ``names[v - 1]`` is variable v's name. Every variable occurs in some clause.
    """

    names: tuple[str, ...]
    clauses: tuple[tuple[int, ...], ...]

    @property
    def n_variables(self) -> int:
        return len(self.names)

    def literal_name(self, lit: int) -> str:
        return ("~" if lit < 0 else "") + self.names[abs(lit) - 1]

    def text(self) -> str:
        """The formula in the named syntax."""
        return " & ".join("(" + " | ".join(self.literal_name(x) for x in c) + ")"
                          for c in self.clauses)

    def dimacs(self) -> str:
        """The numbered syntax, ``1,-2;2,3``."""
        return ";".join(",".join(str(x) for x in c) for c in self.clauses)

    def satisfied_by(self, assignment: dict[str, bool]) -> bool:
        """Whether ``assignment`` (name -> bool, every variable) makes every clause true."""
        missing = [n for n in self.names if n not in assignment]
        if missing:
            raise NotationError(f"the assignment gives no value to variable {missing[0]!r}")
        return all(any(assignment[self.names[abs(x) - 1]] == (x > 0) for x in c)
                   for c in self.clauses)


def _parse_dimacs_file(text: str) -> list[list[int]]:
    clauses: list[list[int]] = []
    cur: list[int] = []
    header = None
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("c") or s.startswith("%"):
            continue
        if s.startswith("p"):
            parts = s.split()
            if len(parts) != 4 or parts[1] != "cnf" or not all(p.isdigit() for p in parts[2:]):
                raise NotationError(f"line {lineno}: {s!r} is not a 'p cnf VARIABLES CLAUSES' "
                                    "header")
            header = (int(parts[2]), int(parts[3]))
            continue
        for tok in s.split():
            if not re.fullmatch(r"-?\d+", tok):
                raise NotationError(f"line {lineno}: {tok!r} is not a literal (a nonzero "
                                    "integer) or the clause end 0")
            v = int(tok)
            if v == 0:
                if not cur:
                    raise NotationError(f"line {lineno}: an empty clause (a lone 0) can "
                                        "never be true")
                clauses.append(cur)
                cur = []
            else:
                if header is not None and abs(v) > header[0]:
                    raise NotationError(f"line {lineno}: literal {v} names a variable beyond "
                                        f"the header's {header[0]}")
                cur.append(v)
    if cur:
        clauses.append(cur)
    if header is None:
        raise NotationError("a DIMACS file needs a 'p cnf VARIABLES CLAUSES' line")
    return clauses


def parse_formula(text: str, max_clause_length: int | None = 3) -> Formula:
    """Read a CNF formula (syntaxes in the module docstring). Clauses longer than
    ``max_clause_length`` (3 by default: 3-SAT; None for any length) are refused, as are
    empty clauses, bad literals and an empty formula. Repeated literals in a clause are
    dropped.

    >>> parse_formula("1, -2 3; -3").clauses
    ((1, -2, 3), (-3,))
    >>> parse_formula("x1 | ~x2 & x2").names
    ('x1', 'x2')
    >>> parse_formula("(a|b|c|d)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clobbermania.errors.NotationError: clause 1 (a | b | c | d) has 4 literals; 3-SAT ...
    """
    if not isinstance(text, str):
        raise NotationError("a formula is text, like '1,-2,3;-1,2' or '(a|~b)&(b|c)'")
    src = text.strip()
    if not src:
        raise NotationError("the formula is empty: write clauses like '1,-2,3;-1,2' or "
                            "'(a|~b|c)&(~a|b)'")
    names: list[str] = []
    raw: list[list[int]] = []
    if re.search(r"^\s*p\s+cnf\b", src, re.M):
        raw = _parse_dimacs_file(src)
        nv = max((abs(x) for c in raw for x in c), default=0)
        if nv > MAX_VARIABLE:
            raise UnsupportedError(f"variable {nv:,} is beyond the largest variable number "
                                   f"a DIMACS formula may use, {MAX_VARIABLE:,}")
        names = [str(i) for i in range(1, nv + 1)]
    elif re.search(r"[|&()~!]", src):
        index: dict[str, int] = {}
        for k, part in enumerate(src.split("&"), 1):
            body = part.strip()
            if body.startswith("(") and body.endswith(")"):
                body = body[1:-1]
            if not body.strip():
                raise NotationError(f"clause {k} is empty: an empty clause can never be true")
            clause = []
            for tok in body.split("|"):
                t = tok.strip()
                neg = False
                while t[:1] in ("~", "!", "-"):
                    neg = not neg
                    t = t[1:].strip()
                if not _NAME.fullmatch(t):
                    shown = tok.strip() or "(nothing)"
                    raise NotationError(f"clause {k}: {shown!r} is not a literal (a name "
                                        "like x1, or ~x1 for its negation)")
                if t not in index:
                    index[t] = len(names) + 1
                    names.append(t)
                clause.append(-index[t] if neg else index[t])
            raw.append(clause)
    else:
        for k, part in enumerate(src.split(";"), 1):
            toks = [t for t in re.split(r"[,\s]+", part.strip()) if t]
            if not toks:
                raise NotationError(f"clause {k} is empty: an empty clause can never be true")
            clause = []
            for t in toks:
                if not re.fullmatch(r"[+-]?\d+", t) or int(t) == 0:
                    hint = (": named variables take the (a|~b)&(c) form"
                            if _NAME.fullmatch(t.lstrip("+-")) else "")
                    raise NotationError(f"clause {k}: {t!r} is not a literal (a nonzero "
                                        f"integer, negative for a negated variable){hint}")
                clause.append(int(t))
            raw.append(clause)
        used = sorted({abs(x) for c in raw for x in c})
        # numbered variables keep their numbers' names; unused numbers are closed up
        renum = {v: i + 1 for i, v in enumerate(used)}
        names = [str(v) for v in used]
        raw = [[renum[abs(x)] * (1 if x > 0 else -1) for x in c] for c in raw]
    if not raw:
        raise NotationError("the formula has no clauses")
    clauses = [tuple(dict.fromkeys(c)) for c in raw]
    # (checked before unused variables are dropped: names still match the numbers)
    check_clause_lengths(Formula(tuple(names), tuple(clauses)), max_clause_length)
    # a DIMACS header may announce variables that no clause uses: drop them, renumbered
    used = sorted({abs(x) for c in clauses for x in c})
    if len(used) != len(names):
        renum = {v: i + 1 for i, v in enumerate(used)}
        names = [names[v - 1] for v in used]
        clauses = [tuple(renum[abs(x)] * (1 if x > 0 else -1) for x in c) for c in clauses]
    return Formula(tuple(names), tuple(clauses))


def check_clause_lengths(formula: Formula, max_clause_length: int | None) -> Formula:
    """The formula itself, or NotationError naming its first clause of more than
    ``max_clause_length`` literals (None: any length)."""
    if max_clause_length is not None:
        for k, c in enumerate(formula.clauses, 1):
            if len(c) > max_clause_length:
                shown = " | ".join(formula.literal_name(x) for x in c)
                raise NotationError(f"clause {k} ({shown}) has {len(c)} literals; 3-SAT "
                                    f"takes at most {max_clause_length}")
    return formula


def _existing_file(text: str) -> Path | None:
    """The file ``text`` names (``~`` expanded), or None if it names none or cannot be a
    name: ``~x`` for an unknown user x, a name too long for the system, a NUL byte."""
    try:
        p = Path(text).expanduser()
        return p if p.is_file() else None
    except (RuntimeError, OSError, ValueError):
        return None


def load_formula(text_or_path: str, max_clause_length: int | None = 3) -> Formula:
    """:func:`parse_formula` of the text, or of the file if ``text_or_path`` names one
    (a DIMACS CNF file, or a file holding either syntax).

    The text is read as a file name when it ends in ``.cnf``, ``.dimacs`` or ``.txt`` or
    starts with ``/``, ``./`` or ``~``; a text starting with ``~`` that names no file is a
    formula whose first literal is negated (``~a|b``), never a ``~user`` folder.

    >>> load_formula("~~a&(b|~a)").clauses
    ((1,), (2, -1))
    """
    if (text_or_path.endswith((".cnf", ".dimacs", ".txt"))
            or text_or_path.startswith(("/", "~", "./"))):
        p = _existing_file(text_or_path)
        if p is not None:
            return parse_formula(read_capped_text(p, MAX_FILE_BYTES, "formula file"),
                                 max_clause_length)
        if (not text_or_path.startswith("~") or text_or_path.startswith("~/")
                or text_or_path.endswith((".cnf", ".dimacs", ".txt"))):
            raise NotationError(f"no formula file {text_or_path[:80]!r}")
    return parse_formula(text_or_path, max_clause_length)


def _as_formula(formula: Formula | str) -> Formula:
    return parse_formula(formula, None) if isinstance(formula, str) else formula


def brute_force(formula: Formula | str) -> dict[str, bool] | None:
    """The first satisfying assignment in binary order (variable 1 the most significant,
    False before True), or None: tries all 2^n assignments (n <= 20).

    >>> brute_force("(a|b)&(~a)")
    {'a': False, 'b': True}
    """
    f = _as_formula(formula)
    n = f.n_variables
    if n > BRUTE_FORCE_MAX_VARIABLES:
        raise UnsupportedError(f"brute force tries 2^n assignments; {n} variables is over "
                               f"{BRUTE_FORCE_MAX_VARIABLES}")
    masks = []
    for c in f.clauses:
        pos = neg = 0
        for x in c:
            bit = 1 << (n - abs(x))
            if x > 0:
                pos |= bit
            else:
                neg |= bit
        masks.append((pos, neg))
    full = (1 << n) - 1
    for a in range(1 << n):
        if all((a & pos) or (~a & full & neg) for pos, neg in masks):
            return {f.names[i]: bool(a >> (n - 1 - i) & 1) for i in range(n)}
    return None


def dpll(formula: Formula | str, time_limit: float | None = 10.0) -> dict[str, bool] | None:
    """A satisfying assignment (name -> bool, every variable) or None if there is none.

    Davis-Putnam-Logemann-Loveland: unit propagation to a fixed point, then pure literals
    set true, then a branch on the unset variable in the most unsatisfied clauses (True
    first if it occurs more often positively), with chronological backtracking on an
    explicit trail (no recursion). Exact; exponential in the worst case. Raises
    UnsupportedError when ``time_limit`` seconds pass first. Variables that no remaining
    clause constrains are set False.

    >>> dpll("1,2;-1,2;1,-2;-1,-2") is None
    True
    >>> dpll("(x|y|z)&(~x|~y)&(~z)")
    {'x': True, 'y': False, 'z': False}
    """
    f = _as_formula(formula)
    n = f.n_variables
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    clauses = [list(c) for c in f.clauses]
    occurs: list[list[int]] = [[] for _ in range(n + 1)]  # clause indices by variable
    for k, c in enumerate(clauses):
        for x in c:
            occurs[abs(x)].append(k)
    value = [0] * (n + 1)  # 0 unset, 1 true, -1 false
    trail: list[int] = []  # assigned literals in order
    # decision stack: (trail length before the decision, literal tried, flipped yet?)
    decisions: list[tuple[int, int, bool]] = []
    steps = 0

    def lit_value(x: int) -> int:
        v = value[abs(x)]
        return v if x > 0 else -v

    def assign(x: int) -> None:
        value[abs(x)] = 1 if x > 0 else -1
        trail.append(x)

    def propagate() -> bool:
        """Unit propagation over all clauses to a fixed point; False on a conflict."""
        changed = True
        while changed:
            changed = False
            for c in clauses:
                free = None
                n_free = 0
                sat = False
                for x in c:
                    v = lit_value(x)
                    if v == 1:
                        sat = True
                        break
                    if v == 0:
                        n_free += 1
                        free = x
                if sat:
                    continue
                if n_free == 0:
                    return False
                if n_free == 1:
                    assign(free)
                    changed = True
        return True

    def undo_to(length: int) -> None:
        while len(trail) > length:
            value[abs(trail.pop())] = 0

    def choose() -> int:
        """0 when every clause is satisfied, else the literal to branch on (pure
        literals are assigned here, not branched on)."""
        while True:
            pos = [0] * (n + 1)
            neg = [0] * (n + 1)
            open_clauses = 0
            for c in clauses:
                if any(lit_value(x) == 1 for x in c):
                    continue
                open_clauses += 1
                for x in c:
                    if value[abs(x)] == 0:
                        if x > 0:
                            pos[x] += 1
                        else:
                            neg[-x] += 1
            if open_clauses == 0:
                return 0
            pure = [v for v in range(1, n + 1) if value[v] == 0 and (pos[v] == 0) != (neg[v] == 0)]
            if not pure:
                break
            for v in pure:
                assign(v if pos[v] else -v)
        best = max((v for v in range(1, n + 1) if value[v] == 0),
                   key=lambda v: (pos[v] + neg[v], -v))
        return best if pos[best] >= neg[best] else -best

    ok = propagate()
    while True:
        steps += 1
        if deadline is not None and steps % 64 == 0 and time.perf_counter() > deadline:
            raise UnsupportedError(f"satisfiability not decided within {time_limit:g} s")
        if ok:
            lit = choose()
            if lit == 0:
                return {f.names[v - 1]: value[v] == 1 for v in range(1, n + 1)}
            decisions.append((len(trail), lit, False))
            assign(lit)
            ok = propagate()
            continue
        # conflict: flip the latest decision not yet flipped
        while decisions and decisions[-1][2]:
            decisions.pop()
        if not decisions:
            return None
        length, lit, _ = decisions.pop()
        undo_to(length)
        decisions.append((length, -lit, True))
        assign(-lit)
        ok = propagate()


__all__ = ["Formula", "parse_formula", "load_formula", "brute_force", "dpll",
           "BRUTE_FORCE_MAX_VARIABLES"]
