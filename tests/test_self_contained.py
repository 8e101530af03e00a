"""The repository alone is enough: no file of the code, the tests, the benchmarks, the
Makefile or CI names data outside the repository, the shipped data is all there, and the
package data a wheel needs is declared in pyproject.toml."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["src", "tests", "benchmarks", "Makefile", ".ci"]
SKIPPED_DIRS = {"__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache"}

#: A path outside the repository: the workspace's shared folder (as a string or joined with
#: pathlib), or any absolute path under /work/.
OUTSIDE = re.compile(r"\.\./shared|shared/data|/work/"
                     r"""|["']shared["']\s*/\s*["']data["']""")
#: A guard that the text is absent (``"../shared" not in text``) names no path.
GUARD = re.compile(r"""["'][^"']*["']\s+not\s+in\b""")


def _files(root: Path) -> list[Path]:
    """Every text file under the scanned paths of ``root`` but build and cache folders."""
    out = []
    for name in SCANNED:
        top = root / name
        if top.is_file():
            out.append(top)
            continue
        for p in sorted(top.rglob("*")):
            parts = set(p.relative_to(root).parts)
            if (p.is_file() and not parts & SKIPPED_DIRS
                    and not any(x.endswith(".egg-info") for x in parts)):
                out.append(p)
    return out


def _outside_mentions(root: Path, exclude: set[Path]) -> list[str]:
    hits = []
    for p in _files(root):
        if p.resolve() in exclude:
            continue
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary
        for i, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line) and not GUARD.search(line):
                hits.append(f"{p.relative_to(root)}:{i}: {line.strip()}")
    return hits


def test_no_file_names_data_outside_the_repo():
    files = _files(ROOT)
    assert len(files) > 100  # the scan saw the tree (src, tests, benchmarks, ...)
    assert _outside_mentions(ROOT, exclude={Path(__file__).resolve()}) == []


def test_the_scan_finds_a_path_outside(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "Makefile").write_text("test:\n\tpytest\n")
    (tmp_path / "src" / "ok.py").write_text('DATA = Path(__file__).parent / "data"\n')
    (tmp_path / "src" / "a.py").write_text('X = "../shared/data/mcgs"\n')
    (tmp_path / "tests" / "b.py").write_text('Y = ROOT.parent / "shared" / "data"\n')
    (tmp_path / "tests" / "c.txt").write_text("see /work/main/notes\n")
    (tmp_path / "tests" / "guard.py").write_text('assert "../shared" not in text\n')
    cache = tmp_path / "src" / "__pycache__"
    cache.mkdir()
    (cache / "d.txt").write_text("/work/ in a cache is ignored\n")
    hits = _outside_mentions(tmp_path, exclude=set())
    assert [h.split(":")[0] for h in hits] == ["src/a.py", "tests/b.py", "tests/c.txt"]


def test_the_mcgs_files_are_shipped_with_their_licence():
    mcgs = ROOT / "tests" / "data" / "mcgs"
    assert len(sorted(mcgs.glob("*.test"))) == 34
    assert "MIT" in (mcgs / "SOURCE.md").read_text(encoding="utf-8")
    assert "Permission is hereby granted" in (mcgs / "LICENSE.md").read_text(encoding="utf-8")


def _package_data() -> dict[str, list[str]]:
    """The [tool.setuptools.package-data] table of pyproject.toml (read without tomllib,
    which Python 3.10 lacks): package -> glob patterns."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = re.search(r"^\[tool\.setuptools\.package-data\]\n(.*?)(?=^\[|\Z)", text,
                      flags=re.M | re.S)
    assert table, "pyproject.toml has no [tool.setuptools.package-data] table"
    out = {}
    for package, patterns in re.findall(r'^"([\w.]+)"\s*=\s*\[(.*?)\]', table.group(1),
                                        flags=re.M):
        out[package] = re.findall(r'"([^"]+)"', patterns)
    return out


def test_every_data_file_of_the_package_is_declared_package_data():
    # a file under src/clobbermania/**/data/ that no pattern matches would be missing
    # from a wheel install (the standard SameGame set among them)
    declared = _package_data()
    src = ROOT / "src"
    data_files = [p for p in sorted(src.glob("clobbermania/**/data/*")) if p.is_file()]
    assert any(p.name == "standard-20.txt" for p in data_files)
    for p in data_files:
        package = ".".join(p.parent.parent.relative_to(src).parts)
        rel = f"data/{p.name}"
        assert any(fnmatch.fnmatch(rel, pat) for pat in declared.get(package, [])), \
            f"{p.relative_to(ROOT)} is not package data of {package} in pyproject.toml"
