"""benchmarks/impartial_exhaustive.py on small bounds: its oracle held to the reference moves
and to the MCGS nim values, then the exhaustive comparison with the solver (to 8 squares),
and a planted error that the comparison must report."""

import doctest
import importlib.util
import itertools
import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from data_paths import MCGS_DATA

from clobbermania.stones import Board, Position

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "impartial_exhaustive.py"
_spec = importlib.util.spec_from_file_location("impartial_exhaustive", _PATH)
X = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = X  # (its dataclasses look their module up by name)
_spec.loader.exec_module(X)

MCGS = MCGS_DATA


def _mex(values):
    s = set(values)
    g = 0
    while g in s:
        g += 1
    return g


@pytest.mark.parametrize("rows,cols", [(1, 6), (2, 3), (3, 2), (2, 4)])
def test_oracle_is_the_mex_over_the_reference_moves(rows, cols):
    # every entry equals the mex of the entries of the options given by Position.moves:
    # the oracle's own move loop agrees with the reference generator on these boards
    table = X.oracle_values(rows, cols)
    board = Board.grid(rows, cols)
    n = rows * cols
    assert len(table) == 3 ** n
    cells = X.config_cells(n, 0, 3 ** n)
    for i in range(3 ** n):
        p = Position(board, cells[i].tobytes())
        assert X.config_index(p) == i
        want = _mex(int(table[X.config_index(p.play(m))]) for m in p.moves())
        assert table[i] == want, p.text()


def test_oracle_matches_mcgs_nim_values():
    # the MCGS files' nim values of positions of at most 14 squares: checkerboard grids,
    # (xo)^n and (xxo)^n rows
    tables = {}
    checked = 0
    for path in sorted(MCGS.glob("impartial__*.test")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        for board, nim in re.findall(r"^([XO.|]*)\s*\{N (\d+)", text, flags=re.M):
            rows = board.split("|")
            if not board or len(rows) * len(rows[0]) > 12:
                continue
            shape = (len(rows), len(rows[0]))
            if shape not in tables:
                tables[shape] = X.oracle_values(*shape)
            p = Position.from_string("/".join(rows))
            assert int(tables[shape][X.config_index(p)]) == int(nim), board
            checked += 1
    assert checked >= 12  # 4 grids, 6 (xo)^n, 4 (xxo)^n, ...


def test_oracle_against_a_string_recursion():
    # a second brute force, on strings, for random rows of 7 squares
    def brute(row):
        opts = []
        for i, j in itertools.permutations(range(len(row)), 2):
            if abs(i - j) == 1 and row[i] != "." and row[j] not in (".", row[i]):
                r = list(row)
                r[j], r[i] = r[i], "."
                opts.append(brute("".join(r)))
        return _mex(opts)

    table = X.oracle_values(1, 7)
    rng = random.Random(4)
    for _ in range(300):
        row = "".join(rng.choice("xo.") for _ in range(7))
        assert table[X.config_index(Position.from_string(row))] == brute(row), row


def test_families():
    fams = X.families(14)
    assert fams[:14] == [(1, k) for k in range(1, 15)]
    grids = set(fams[14:])
    assert grids == {(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2), (2, 6), (6, 2),
                     (2, 7), (7, 2), (3, 3), (3, 4), (4, 3)}
    assert set(X.families(14, transposes=False)[14:]) == {(2, c) for c in range(2, 8)} | {
        (3, 3), (3, 4)}


def test_exhaustive_to_8_squares():
    checked = 0
    for rows, cols in X.families(8):
        r = X.check_board(rows, cols, sample=150, rng=random.Random(1))
        assert (r.checked, r.mismatches, r.sample_mismatches) == (3 ** (rows * cols), 0, 0)
        checked += r.checked
    assert checked == sum(3 ** k for k in range(1, 9)) + 2 * 3 ** 6 + 2 * 3 ** 8 + 3 ** 4


def test_a_planted_error_is_reported():
    board = Board.grid(2, 3)
    true = X.oracle_values(2, 3)
    i = X.config_index(Position.from_string("xo./.ox"))  # two parts xo: 1 ^ 1 = 0
    assert true[i] == 0
    table = true.copy()
    table[i] = 1
    r = X.check_range(2, 3, table, 0, len(table))
    assert r.mismatches == 1
    assert r.examples == [("xo./.ox", 1, 0)]
    # grundy_value differs from the planted table on i itself and on the winning moves of
    # every configuration with a move to i
    parents = 0
    for j in range(729):
        p = Position(board, X.config_cells(6, j, j + 1).tobytes())
        parents += any(X.config_index(p.play(m)) == i for m in p.moves())
    assert parents > 0
    assert X.check_sample(2, 3, table, 10_000, random.Random(0)) == (729, 1 + parents)


def test_main_exit_status(capsys):
    assert X.main(["--max-squares", "4", "--sample", "10"]) == 0
    out = capsys.readouterr().out
    assert "rows: 120 configurations, 0 mismatches" in out
    assert "grids: 81 configurations, 0 mismatches" in out
    assert np.all(X.oracle_values(1, 1) == 0)


def test_doctests_of_the_script():
    # benchmarks/ is outside the doctest paths: its examples run here
    assert doctest.testmod(X).failed == 0
