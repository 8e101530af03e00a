"""The reproduce claims say PASS only when their checks hold: a damaged input or a wrong
witness gives FAIL (or an honest report), never a traceback or a silent pass; and the
library checks with conditions, not ``assert`` statements or swallowed ImportErrors."""

import pytest

from clobbermania.clobber.rowdb import build_database, default_db_dir
from clobbermania.reproduce.grundy import _cached_database


def test_a_damaged_cached_row_database_is_a_fail(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    build_database(None, max_stones=6, jobs=1)  # at the default location, under tmp_path
    db, damaged = _cached_database(6)
    assert db is not None and damaged is None and db.value("xoox") == 0
    # too small for the request: not used, and not a failure
    assert _cached_database(7) == (None, None)
    # one flipped bit in the table of 6 stones: the checksum no longer matches
    table = default_db_dir() / "rows06.u8"
    data = bytearray(table.read_bytes())
    data[5] ^= 1
    table.write_bytes(bytes(data))
    db, damaged = _cached_database(6)
    assert db is None and damaged is not None
    assert damaged.status == "fail" and not damaged.passed
    assert "rows06.u8" in damaged.found and "checksum" in damaged.found


@pytest.mark.parametrize("module", ["reproduce.clobber", "reproduce.grundy",
                                    "reproduce.hamming", "reproduce.clickomania",
                                    "cli.grundy_value", "clobber.search"])
def test_no_import_error_of_our_own_modules_is_hidden(module):
    # an ImportError of our own module is a bug: these modules once swallowed one
    import importlib
    import inspect

    source = inspect.getsource(importlib.import_module(f"clobbermania.{module}"))
    assert "except ImportError" not in source


def test_no_assert_statement_in_library_code():
    # python -O drops assert statements: a check written as one would vanish (and print a
    # traceback instead of a FAIL or an error sentence); internal invariants raise instead
    import ast
    from pathlib import Path

    import clobbermania

    root = Path(clobbermania.__file__).parent
    found = [f"{path.relative_to(root)}:{node.lineno}"
             for path in sorted(root.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(), str(path)))
             if isinstance(node, ast.Assert)]
    assert not found, found
