"""3-SAT -> Clickomania (clobbermania.clickomania.hardness_sat): witnesses, solver, CLI."""

from __future__ import annotations

import itertools
import json

import pytest
from cli_runner import run_cli

from clobbermania.clickomania.hardness_sat import (
    from_3sat,
    reduce_3sat,
    state_value,
    witness_from_assignment,
)
from clobbermania.clickomania.rules import Board, replay
from clobbermania.clickomania.sat import parse_formula
from clobbermania.clickomania.solver import solve_clickomania
from clobbermania.errors import NotationError


def satisfying_assignments(text: str):
    """Every satisfying assignment, by enumeration (independent of dpll)."""
    f = parse_formula(text)
    for bits in itertools.product([False, True], repeat=f.n_variables):
        a = dict(zip(f.names, bits, strict=True))
        if f.satisfied_by(a):
            yield a


@pytest.mark.parametrize("text", ["(x)", "(~x)&(~x|y)", "(x|y)&(~x)", "(x|~y)&(y)",
                                  "(x|y|z)", "(x|y)&(~x|~y)"])
def test_every_satisfying_assignment_gives_a_clearing_witness(text):
    board = from_3sat(text).board
    seen = 0
    for a in itertools.islice(satisfying_assignments(text), 3):  # at most 3: replay is slow
        moves = witness_from_assignment(text, a)
        assert replay(board, moves)[-1].is_cleared, a
        seen += 1
    assert seen >= 1


def test_a_falsifying_assignment_is_refused():
    with pytest.raises(NotationError, match="leaves a clause false"):
        witness_from_assignment("(x|y)&(~x)", {"x": True, "y": True})


@pytest.mark.parametrize("text", ["(x)&(~x)", "(x|y)&(~x)&(~y)"])
def test_smallest_unsatisfiable_formulas_give_unsolvable_puzzles(text):
    r = reduce_3sat(text)
    assert r.certificate is None and r.certificate_known and r.moves is None
    s = solve_clickomania(r.board, node_limit=20_000_000)  # machine-independent
    assert s.exact and s.solvable is False


@pytest.mark.parametrize("text", ["(x)", "(x|y)&(~x)"])
def test_small_satisfiable_formulas_are_solvable_by_the_exact_solver(text):
    s = solve_clickomania(from_3sat(text).board, node_limit=20_000_000)
    assert s.exact and s.solvable is True


def test_parameters_and_layout():
    f = parse_formula("(a|~b|c)&(~a|b)")
    c = from_3sat(f)
    p = c.parameters
    n, m, lits = 3, 2, 5
    assert (p["columns"], p["colors"], p["n"], p["m"], p["literals"]) == (2, 6, n, m, lits)
    assert p["scale"] == lits + 1 and p["A"] == n + 1 and p["X"] == n * (2 * n + 3)
    left, right = c.board.columns
    assert set(left) == {0, 1, 2, 3} and set(right) == {3, 4, 5}  # only 3 is shared
    # clause keys and clean-up keys on the left, one gate per literal occurrence on the right
    assert left.count(3) == m + (lits - m) and right.count(3) == lits
    k, a = p["scale"], p["A"]
    assert left.count(0) == k * n * (2 * a + 1) + 3 * (lits - m)
    # each gate sits K * v(l) below its clause key's height: level after K * v(l) blocks
    for j, clause in enumerate(f.clauses):
        for lit in clause:
            z = p["gate_heights"][f"{j + 1}:{f.literal_name(lit)}"]
            assert p["key_heights"][j] - z == k * state_value(lit, a)
            assert right[z] == 3 and left[p["key_heights"][j]] == 3
    # the two inert words are even palindromes once the active blocks are gone
    for col, inert in ((left, (1, 2)), (right, (4, 5))):
        word = [x for x in col if x in inert]
        assert word == word[::-1] and all(x != y for x, y in
                                          zip(word[:len(word) // 2], word[1:len(word) // 2],
                                              strict=False))


def test_state_values_are_distinct_and_decode():
    a = 6
    vals = {state_value(s * i, a) for i in range(1, 6) for s in (1, -1)}
    assert len(vals) == 10
    for i in range(1, 6):
        v = state_value(i, a)
        assert ((v // a - v % a), v % a) == (i, i - 1)  # (p, q) from (p + q)A + q
        v = state_value(-i, a)
        assert ((v // a - v % a), v % a) == (i - 1, i)


def test_scale_must_exceed_the_literal_count():
    with pytest.raises(NotationError, match="scale"):
        from_3sat("(x|y)&(~x)", scale=3)
    bigger = from_3sat("(x|y)&(~x)", scale=6)
    moves = witness_from_assignment("(x|y)&(~x)", {"x": False, "y": True}, scale=6)
    assert replay(bigger.board, moves)[-1].is_cleared


def test_cli_json(capsys):
    code, out, err = run_cli(capsys, "clickomania", "hardness", "3sat", "(x|y)&(~x)", "--json")
    assert code in (0, None) and err == ""
    d = json.loads(out)
    assert d["certificate"] == {"x": False, "y": True} and d["verified"] is True
    assert replay(Board.from_string(d["board"]), d["moves"])[-1].is_cleared
    assert d["parameters"]["columns"] == 2 and d["parameters"]["colors"] == 6
    assert "seconds" in d and d["instance"]["formula"] == "(x | y) & (~x)"


def test_cli_unsatisfiable_text_svg_and_dimacs(capsys, tmp_path):
    svg = tmp_path / "p.svg"
    cnf = tmp_path / "f.cnf"
    cnf.write_text("p cnf 1 2\n1 0\n-1 0\n")
    code, out, err = run_cli(capsys, "clickomania", "hardness", "3sat", str(cnf), "--solve",
                             "--svg", str(svg))
    assert code in (0, None) and err == ""
    assert "satisfying assignment: none, so the puzzle cannot be cleared" in out
    assert "exact solver: not solvable" in out
    assert svg.read_text().startswith("<svg")
    code, out, _ = run_cli(capsys, "clickomania", "hardness", "3sat", "1,-2;2")
    assert "satisfying assignment: 1=T 2=T" in out and "replayed: clears the board" in out


@pytest.mark.parametrize("bad, words", [
    ("(a|b|c|d)", "has 4 literals"),
    ("(a|#)", "'#' is not a literal"),
    ("1,,;", "clause 2 is empty"),
    ("1,0", "'0' is not a literal"),
    ("/nowhere/f.cnf", "no formula file"),
])
def test_cli_bad_formulas(capsys, bad, words):
    code, out, err = run_cli(capsys, "clickomania", "hardness", "3sat", bad)
    assert code == 2 and err.startswith("error: ") and words in err
    assert "Traceback" not in err
