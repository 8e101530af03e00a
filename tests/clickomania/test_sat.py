"""CNF parsing and the exact satisfiability search (the source of Biedl et al. Thm 15)."""

from __future__ import annotations

import itertools
import random

import pytest

from clobbermania.clickomania.sat import (
    Formula,
    brute_force,
    dpll,
    load_formula,
    parse_formula,
)
from clobbermania.errors import NotationError, UnsupportedError


def satisfiable_by_enumeration(f: Formula) -> bool:
    """Independent oracle: itertools.product over all assignments."""
    return any(f.satisfied_by(dict(zip(f.names, bits, strict=True)))
               for bits in itertools.product([False, True], repeat=f.n_variables))


def random_formula(rng: random.Random, n: int, m: int, k: int = 3) -> Formula:
    clauses = []
    for _ in range(m):
        vs = rng.sample(range(1, n + 1), rng.randint(1, min(k, n)))
        clauses.append(",".join(str(v if rng.random() < 0.5 else -v) for v in vs))
    return parse_formula(";".join(clauses))


def test_dpll_and_brute_force_agree_with_enumeration_on_random_formulas():
    rng = random.Random(7)
    counts = {True: 0, False: 0}
    for _ in range(400):
        n = rng.randint(1, 7)
        f = random_formula(rng, n, rng.randint(1, 5 * n))
        truth = satisfiable_by_enumeration(f)
        counts[truth] += 1
        a, b = dpll(f), brute_force(f)
        assert (a is not None) == truth == (b is not None), f.text()
        if truth:
            assert f.satisfied_by(a) and f.satisfied_by(b)
    assert counts[True] > 50 and counts[False] > 50  # both answers exercised


def test_every_formula_over_two_variables_with_up_to_three_clauses():
    lits = [1, -1, 2, -2]
    clauses = [c for r in (1, 2) for c in itertools.combinations(lits, r)]
    for m in (1, 2, 3):
        for cs in itertools.combinations(clauses, m):
            f = parse_formula(";".join(",".join(map(str, c)) for c in cs), None)
            assert (dpll(f) is not None) == satisfiable_by_enumeration(f), cs


def test_the_eight_clauses_over_three_variables_are_unsatisfiable():
    cs = [",".join(str(s * v) for s, v in zip(signs, (1, 2, 3), strict=True))
          for signs in itertools.product([1, -1], repeat=3)]
    f = parse_formula(";".join(cs))
    assert dpll(f) is None and brute_force(f) is None
    # any seven of them are satisfiable: the missing clause's opposite assignment
    for i in range(8):
        g = parse_formula(";".join(cs[:i] + cs[i + 1:]))
        a = dpll(g)
        assert a is not None and g.satisfied_by(a)


def test_pigeonhole_needs_backtracking_and_is_refuted():
    # 4 pigeons in 3 holes: unsatisfiable, and no unit or pure literal settles it
    var = {(p, h): 3 * p + h + 1 for p in range(4) for h in range(3)}
    cs = [[var[p, h] for h in range(3)] for p in range(4)]
    cs += [[-var[p, h], -var[q, h]] for h in range(3) for p in range(4) for q in range(p)]
    f = parse_formula(";".join(",".join(map(str, c)) for c in cs))
    assert dpll(f) is None and brute_force(f) is None


def test_syntaxes_agree():
    a = parse_formula("(a|~b|c)&(~a|b|d)")
    b = parse_formula("1,-2,3;-1,2,4")
    c = parse_formula("p cnf 4 2\nc a comment\n1 -2 3 0\n-1 2 4 0\n")
    assert a.clauses == b.clauses == c.clauses == ((1, -2, 3), (-1, 2, 4))
    assert a.names == ("a", "b", "c", "d") and b.names == c.names == ("1", "2", "3", "4")
    assert parse_formula(a.text()) == a and parse_formula(b.dimacs()).clauses == b.clauses
    # numbers left unused are closed up but keep their names
    f = parse_formula("5,-9")
    assert f.clauses == ((1, -2),) and f.names == ("5", "9")
    assert dpll(f) == {"5": True, "9": False}


def test_dimacs_file(tmp_path):
    p = tmp_path / "f.cnf"
    p.write_text("c x\np cnf 3 2\n1 -3 0\n2 3\n0\n")
    f = load_formula(str(p))
    assert f.clauses == ((1, -3), (2, 3))
    with pytest.raises(NotationError, match="no formula file"):
        load_formula(str(tmp_path / "missing.cnf"))


def test_formula_starting_with_tilde_is_not_a_home_folder(tmp_path, monkeypatch):
    # '~~a' once went to Path.expanduser ('~user' of an unknown user: RuntimeError)
    assert load_formula("~~a").clauses == ((1,),)
    assert load_formula("~a|b").clauses == ((-1, 2),)
    with pytest.raises(NotationError, match="no formula file"):
        load_formula("~nosuchuser/f.cnf")
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "f.cnf").write_text("p cnf 1 1\n-1 0\n")
    assert load_formula("~/f.cnf").clauses == ((-1,),)


@pytest.mark.parametrize("bad, words", [
    ("", "empty"),
    ("1,2;;3", "clause 2 is empty"),
    ("1,x2", "'x2' is not a literal"),
    ("1,0,2", "'0' is not a literal"),
    ("(a|b)&()", "clause 2 is empty"),
    ("(a|b)&(c|#)", "'#' is not a literal"),
    ("(a|b|c|d)", "has 4 literals"),
    ("1,2,3,4", "has 4 literals"),
    ("p cnf 2 1\n1 3 0\n", "beyond the header"),
    ("p cnf 2 1\n1 0\n0\n", "empty clause"),
])
def test_bad_formulas_name_the_token(bad, words):
    with pytest.raises(NotationError, match=words):
        parse_formula(bad)


def test_longer_clauses_when_allowed_and_limits():
    f = parse_formula("1,2,3,4;-1", max_clause_length=None)
    a = dpll(f)
    assert a is not None and f.satisfied_by(a) and a["1"] is False
    with pytest.raises(UnsupportedError):
        brute_force(parse_formula(";".join(str(v) for v in range(1, 22)), None))
    with pytest.raises(NotationError, match="no value"):
        f.satisfied_by({"1": True})


def test_time_limit_stops_the_search():
    # pigeonhole 8 -> 7 takes DPLL far longer than 0.05 s
    var = {(p, h): 7 * p + h + 1 for p in range(8) for h in range(7)}
    cs = [[var[p, h] for h in range(7)] for p in range(8)]
    cs += [[-var[p, h], -var[q, h]] for h in range(7) for p in range(8) for q in range(p)]
    f = parse_formula(";".join(",".join(map(str, c)) for c in cs), None)
    with pytest.raises(UnsupportedError, match="not decided"):
        dpll(f, time_limit=0.05)
