"""Issue 28, impartial grids: the grid-part database (built, resumed, checked against the
plain search) and the outcome search (held to the brute-force oracle of
benchmarks/impartial_exhaustive.py on every configuration of small boards, and to the plain
mex search on checkerboards)."""

import importlib.util
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_cli

from clobbermania.clobber import gridparts
from clobbermania.clobber.gridparts import (
    GridPartDatabase,
    GridPartDatabaseError,
    build_grid_parts,
)
from clobbermania.clobber.impartial import (
    GrundyMemoryLimit,
    GrundyNodeLimit,
    GrundySolver,
    live_components,
)
from clobbermania.errors import UnsupportedError
from clobbermania.stones import Position

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "impartial_exhaustive.py"
if "impartial_exhaustive" in sys.modules:  # loaded by test_impartial_exhaustive.py
    X = sys.modules["impartial_exhaustive"]
else:
    _spec = importlib.util.spec_from_file_location("impartial_exhaustive", _PATH)
    X = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = X  # (its dataclasses look their module up by name)
    _spec.loader.exec_module(X)


@pytest.fixture(scope="module")
def parts7():
    return build_grid_parts(None, max_squares=7, jobs=1)


def test_counts_are_the_canonical_parts(parts7):
    # parts of n squares: every colouring with both colours of every polyomino, up to the
    # 8 symmetries and the colour swap (the partizan database's enumeration)
    sizes = [int(parts7.offsets[n + 1] - parts7.offsets[n]) for n in range(2, 8)]
    assert sizes == [1, 4, 25, 136, 907, 6138]
    assert parts7.count == sum(sizes)


def test_every_part_to_7_squares_equals_the_plain_search(parts7):
    assert parts7.verify(sample=parts7.count) == parts7.count  # all 7,211


def test_random_parts_by_text_equal_the_plain_search(parts7):
    rng = random.Random(5)
    plain = GrundySolver(parts=None)
    checked = 0
    while checked < 400:
        r, c = rng.randint(1, 4), rng.randint(1, 5)
        text = "/".join("".join(rng.choice("xo.") for _ in range(c)) for _ in range(r))
        p = Position.from_string(text)
        comps = live_components(p.board, p.cells)
        if len(comps) != 1 or comps[0][0] != p.black | p.white or comps[0][0].bit_count() > 7:
            continue
        assert parts7.value(text) == plain.value(p), text
        checked += 1


def test_value_refuses_what_is_not_a_stored_part(parts7):
    with pytest.raises(UnsupportedError, match="not connected"):
        parts7.value("x./.o")
    with pytest.raises(UnsupportedError, match="2 to 7 stones"):
        parts7.value("xxxx")
    with pytest.raises(UnsupportedError, match="2 to 7 stones"):
        parts7.value("xoxoxoxo")


def test_build_resumes_checks_and_refuses_a_damaged_database(tmp_path):
    d = tmp_path / "gp"
    db = build_grid_parts(d, max_squares=5, jobs=1)
    assert db.build_report.built == [2, 3, 4, 5] and db.count == 166
    manifest = json.loads((d / "manifest.json").read_text())
    assert manifest["format"] == "clobbermania-gridparts" and manifest["max_squares"] == 5
    db = build_grid_parts(d, max_squares=6, jobs=2)
    assert db.build_report.resumed_from == 5 and db.build_report.built == [6]
    # the same bytes as a build in one go, in memory, with another number of threads
    whole = build_grid_parts(None, max_squares=6, jobs=1)
    assert np.array_equal(db.keys, whole.keys) and np.array_equal(db.values, whole.values)
    assert isinstance(db.keys, np.ndarray) and not db.keys.flags.writeable  # memory-mapped
    assert build_grid_parts(d, max_squares=6).build_report.built == []
    values = d / "values.npy"
    data = bytearray(values.read_bytes())
    data[-1] ^= 1
    values.write_bytes(bytes(data))
    with pytest.raises(GridPartDatabaseError, match="damaged"):
        GridPartDatabase.open(d)
    again = build_grid_parts(d, max_squares=6, jobs=1)  # damaged: built again from scratch
    assert again.build_report.built == [2, 3, 4, 5, 6]
    assert np.array_equal(again.values, whole.values)
    with pytest.raises(GridPartDatabaseError, match="no grid-part database"):
        GridPartDatabase.open(tmp_path / "none")
    with pytest.raises(UnsupportedError, match="between 2 and 12"):
        build_grid_parts(d, max_squares=13)


@pytest.mark.parametrize("rows,cols", [(3, 3), (2, 5), (5, 2)])
@pytest.mark.parametrize("parts", ["none", "small"])
def test_outcome_search_on_every_configuration(rows, cols, parts, parts7):
    # exact_stones=2: every component of 3 or more stones goes through the outcome search
    db = None if parts == "none" else build_grid_parts(None, max_squares=4, jobs=1)
    solver = GrundySolver(parts=db, exact_stones=2)
    table = X.oracle_values(rows, cols)
    res = X.check_range(rows, cols, table, 0, 3 ** (rows * cols), solver=solver)
    assert (res.checked, res.mismatches) == (3 ** (rows * cols), 0), res.examples


@pytest.mark.parametrize("rows,cols", [(2, 8), (3, 5), (4, 4), (2, 9)])
def test_checkerboards_equal_the_plain_search(rows, cols, parts7):
    # the outcome search (with and without the database) against the plain mex search
    p = Position.checkerboard(rows, cols)
    plain = GrundySolver(parts=None, exact_stones=64).value(p)
    for solver in (GrundySolver(parts=parts7), GrundySolver(parts=None, exact_stones=5)):
        assert solver.value(p) == plain


def test_node_limit_and_resume_under_the_outcome_search(parts7):
    p = Position.checkerboard(3, 6)
    solver = GrundySolver(parts=parts7, exact_stones=6)
    key = solver.component_keys(p.board, p.cells)[0]
    with pytest.raises(GrundyNodeLimit):
        solver.solve_key(key, node_limit=2_000)
    assert solver.solve_key(key) == 0  # 3x6 = 0 (MCGS's impartial 3xn checkerboards)


def test_memory_limit_evicts_the_outcome_table(parts7):
    solver = GrundySolver(parts=parts7, memo_limit=120_000)
    assert solver.value(Position.checkerboard(4, 5)) == 1
    assert solver.evictions >= 1
    tight = GrundySolver(parts=None, memo_limit=2_000, exact_stones=64)
    with pytest.raises(GrundyMemoryLimit):
        tight.value(Position.checkerboard(4, 5))


def test_default_parts_builds_the_small_database_in_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(gridparts, "_DEFAULT", [])
    db = gridparts.default_parts()
    assert db.path is None and db.max_squares == gridparts.SMALL_SQUARES
    build_grid_parts(gridparts.default_db_dir(), max_squares=5, jobs=1)
    monkeypatch.setattr(gridparts, "_DEFAULT", [])
    assert gridparts.default_parts().path == gridparts.default_db_dir()


def test_cli_build_parts(tmp_path, capsys):
    d = str(tmp_path / "gp")
    code, out, err = run_cli(capsys, "grundy", "build-parts", "--max-squares", "5",
                             "--db", d, "--jobs", "1")
    assert code in (0, None) and "166 parts, complete to 5 squares" in out
    code, out, err = run_cli(capsys, "grundy", "build-parts", "--max-squares", "6",
                             "--db", d)
    assert "resumed after 5 squares" in out and "1,073 parts" in out
    code, out, err = run_cli(capsys, "grundy", "build-parts", "--max-squares", "13",
                             "--db", d)
    assert code == 2 and err.strip() == "error: --max-squares must be between 2 and 12, not 13"
