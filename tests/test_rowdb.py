"""The row database (clobber/rowdb.py): values against an independent brute force and the
MCGS oracles, the French losing-share table, statistics, atomic files and resume after a
SIGKILL at random moments, determinism over --jobs, and the two CLI commands."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_cli
from data_paths import MCGS_DATA

from clobbermania.clobber import rowdb
from clobbermania.clobber.rowdb import (
    RowDatabase,
    RowDatabaseError,
    build_database,
    row_index,
    row_statistics,
    row_text,
)
from clobbermania.errors import ClobbermaniaError, NotationError
from clobbermania.stones import BLACK, WHITE, Position

MCGS = MCGS_DATA
DB_STONES = 20


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> RowDatabase:
    return build_database(tmp_path_factory.mktemp("rows"), max_stones=DB_STONES, jobs=2)


# ---------------------------------------------------------------------------------------
# independent brute force: Position.moves (the reference move generator), both colours
# ---------------------------------------------------------------------------------------

def _mex(values) -> int:
    m = 0
    while m in values:
        m += 1
    return m


@cache
def brute_whole(text: str) -> int:
    """mex over the options of the whole position (holes and all): no Sprague-Grundy sum."""
    pos = Position.from_string(text)
    opts = {brute_whole(pos.play(m).text()) for c in (BLACK, WHITE) for m in pos.moves(c)}
    return _mex(opts)


@cache
def brute_part(row: str) -> int:
    """Value of one hole-free row: mex of the options, an option's parts XORed."""
    if len(row) < 2:
        return 0
    pos = Position.from_string(row)
    opts = set()
    for c in (BLACK, WHITE):
        for m in pos.moves(c):
            opts.add(brute_holes(pos.play(m).text()))
    return _mex(opts)


def brute_holes(text: str) -> int:
    v = 0
    for part in text.split("."):
        v ^= brute_part(part)
    return v


def test_brute_force_sum_rule_on_small_rows():
    # the XOR of parts (used by brute_part and the kernel) equals plain mex over whole
    # positions, on every row of up to 7 stones
    for n in range(1, 8):
        for r in range(1 << n):
            row = row_text(n, r)
            assert brute_whole(row) == brute_holes(row), row


def test_every_row_to_12_stones_matches_brute_force(db):
    for n in range(1, 13):
        got = db.lookups(n, np.arange(1 << n))
        want = [brute_part(row_text(n, r)) for r in range(1 << n)]
        assert got.tolist() == want, n


def test_blocked_kernel_equals_row_kernel(db):
    # lengths above 13 come from the blocked kernel; the plain per-row kernel (checked by
    # the brute force above) must give the same bytes for every length of the fixture
    from clobbermania.clobber import _row_kernels

    flat = np.zeros(1 << DB_STONES, np.uint8)
    for n in range(1, DB_STONES + 1):
        assert _row_kernels.build_rows(flat, n, 0, 1 << (n - 1)) < 64
        assert np.array_equal(flat[1 << (n - 1): 1 << n], db.values(n)), n
    assert DB_STONES > _row_kernels.BLOCK_BITS + 3


def test_known_small_values(db):
    # (xo)^n from the MCGS file below; single stones and one-colour rows are 0
    assert [db.value("xo" * n) for n in range(1, 7)] == [1, 3, 0, 2, 0, 2]
    assert db.value("") == 0 and db.value("x") == 0 and db.value("o" * 20) == 0
    assert db.value("●○") == 1 and db.value("XO") == 1


# ---------------------------------------------------------------------------------------
# oracles: the French table, the MCGS files
# ---------------------------------------------------------------------------------------

#: Losing shares by number of stones 2..18 in the French study (percent, rounded to 0.1).
FRENCH_LOSING = [50, 25, 37.5, 37.5, 37.5, 21.5, 23.4, 23.4, 27.1, 21.4, 22.2, 20.8, 22.3,
                 19.9, 20.0, 18.5, 18.9]


def test_french_losing_shares(db):
    stats = row_statistics(db, max_stones=18, min_stones=2)
    assert sorted(stats.losing_share_by_length) == list(range(2, 19))
    for n, published in zip(range(2, 19), FRENCH_LOSING, strict=True):
        share = stats.losing_share_by_length[n]
        if n == 7:
            # the one difference: 28 of the 128 rows of 7 stones lose (21.875 %). The
            # published 21.5 is a misprint: no whole number k has k/128 round to 21.5 %
            # (27/128 = 21.09, 28/128 = 21.88), and the brute-force test above confirms
            # every 7-stone value.
            assert stats.counts_by_length[7][0] == 28
            assert not any(round(100 * k / 128, 1) == 21.5 for k in range(129))
            continue
        assert round(share, 1) == published, (n, share)


def _mcgs_cases(name: str):
    """(text, nim value) pairs of an MCGS impartial 1xn file: a case is a line of stones
    (maybe empty) followed on the same or the next line by ``{N v...}``."""
    text = (MCGS / name).read_text(encoding="utf-8")
    # drop /* comments */ and [section] headers and {version}
    import re

    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"\{version[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    cases = []
    for m in re.finditer(r"([XO.]*)\s*\{N\s+(\d+)[^}]*\}", text):
        cases.append((m.group(1), int(m.group(2))))
    return cases


@pytest.mark.parametrize("name", ["impartial__impartial-easy__impartial_clobber_1xn_xo.test",
                                  "impartial__impartial-easy__impartial_clobber_1xn_xxo.test",
                                  "impartial__impartial-easy__impartial_clobber_random_1xn_le_2"
                                  "-14.test"])
def test_mcgs_rows(db, name):
    cases = _mcgs_cases(name)
    assert len(cases) >= 10
    checked = 0
    for text, nim in cases:
        parts = [p.lower() for p in text.split(".") if p]
        if any(len(p) > db.max_stones for p in parts):
            continue
        v = 0
        for p in parts:
            v ^= db.value(p)
        assert v == nim, text
        checked += 1
    assert checked >= 5


# ---------------------------------------------------------------------------------------
# lookups, encoding, errors
# ---------------------------------------------------------------------------------------

def test_encoding_and_colour_swap(db):
    assert row_index("xoo") == (3, 1) and row_index("oox") == (3, 4)
    assert row_text(*row_index("xxoxo")) == "xxoxo"
    rng = np.random.default_rng(1)
    for n in (5, 13, DB_STONES):
        idx = rng.integers(0, 1 << n, 500)
        vec = db.lookups(n, idx)
        full = (1 << n) - 1
        for i, v in zip(idx.tolist(), vec.tolist(), strict=True):
            assert db.value_of_index(n, i) == v == db.value_of_index(n, i ^ full)
            assert db.value(row_text(n, i)) == v
            # reversal keeps the value too (not used for storage, but a fact to check)
            assert db.value(row_text(n, i)[::-1]) == v


def test_values_memmap_is_read_only(db):
    table = db.values(10)
    assert table.shape == (512,) and table.dtype == np.uint8
    with pytest.raises(ValueError):
        table[0] = 1


def test_errors(db):
    with pytest.raises(NotationError, match="hole-free"):
        db.value("xo.ox")
    with pytest.raises(RowDatabaseError, match="up to 20 stones"):
        db.value("xo" * 11)
    with pytest.raises(NotationError):
        db.value_of_index(3, 8)
    with pytest.raises(NotationError):
        db.lookups(3, [0, 9])
    with pytest.raises(RowDatabaseError, match="grundy build"):
        RowDatabase.open(db.path / "nothing-here")
    with pytest.raises(ClobbermaniaError):
        build_database(db.path, max_stones=0)
    with pytest.raises(ClobbermaniaError):
        build_database(db.path, max_stones=5, jobs=0)


def test_default_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert rowdb.default_db_dir() == tmp_path / "clobbermania" / "rows"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert rowdb.default_db_dir() == Path.home() / ".cache" / "clobbermania" / "rows"


# ---------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------

def test_statistics_by_enumeration(db):
    # counts straight from scalar lookups of every row, both colour patterns
    for first in (1, 2, 7, 100, 2 ** 9 + 5, 3000):
        stats = row_statistics(db, first=first)
        counts: dict[int, int] = {}
        seen = 0
        n = 1
        by_len: dict[int, list[int]] = {}
        while seen < first:
            for i in range(1 << n):
                if seen == first:
                    break
                v = db.value_of_index(n, i)
                counts[v] = counts.get(v, 0) + 1
                by_len.setdefault(n, []).append(v)
                seen += 1
            n += 1
        assert stats.rows == first
        assert stats.counts == [counts.get(v, 0) for v in range(max(counts) + 1)]
        assert stats.rows_by_length == {k: len(v) for k, v in by_len.items()}
        assert stats.losing_share_by_length == {
            k: 100 * v.count(0) / len(v) for k, v in by_len.items()}
        assert abs(sum(stats.distribution) - 100) < 1e-9


def test_statistics_match_manifest_counts(db):
    stats = row_statistics(db)
    assert stats.rows == sum(1 << n for n in range(1, DB_STONES + 1))
    for entry in db.manifest["lengths"]:
        n = entry["length"]
        assert [c // 2 for c in stats.counts_by_length[n]] == entry["value_counts"]
    with pytest.raises(NotationError):
        row_statistics(db, max_stones=5, first=5)
    with pytest.raises(RowDatabaseError):
        row_statistics(db, first=2 ** 30)
    with pytest.raises(RowDatabaseError):
        row_statistics(db, max_stones=DB_STONES + 1)
    # a length below the start is named as such, not as "extend the database"
    for bad in (0, -3):
        with pytest.raises(NotationError, match=f"--max-stones {bad} is below"):
            row_statistics(db, max_stones=bad)


# ---------------------------------------------------------------------------------------
# files: manifest, checksums, determinism, crash safety
# ---------------------------------------------------------------------------------------

def _snapshot(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.iterdir()) if p.name != ".lock"}


def test_manifest_and_checksums(db):
    m = json.loads((db.path / "manifest.json").read_text())
    assert m["format"] == rowdb.FORMAT and m["version"] == rowdb.VERSION
    assert m["max_stones"] == DB_STONES and "colour swap" in m["symmetry"]
    for entry in m["lengths"]:
        data = (db.path / entry["file"]).read_bytes()
        assert len(data) == entry["rows_stored"] == entry["rows"] // 2
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    db.verify()


def test_deterministic_over_jobs_and_extension(db, tmp_path):
    # one thread, built in two steps (resume), gives the same bytes as two threads at once
    a = tmp_path / "a"
    build_database(a, max_stones=12, jobs=1)
    rep = build_database(a, max_stones=16, jobs=1).build_report
    assert rep.resumed_from == 12 and rep.built == [13, 14, 15, 16]
    b = tmp_path / "b"
    build_database(b, max_stones=16, jobs=2)
    assert _snapshot(a) == _snapshot(b)
    for n in range(1, 17):
        assert (a / rowdb._file_name(n)).read_bytes() == (db.path / rowdb._file_name(n)) \
            .read_bytes()


def test_damaged_file_is_rebuilt(tmp_path):
    d = tmp_path / "d"
    build_database(d, max_stones=14, jobs=1)
    clean = _snapshot(d)
    path = d / rowdb._file_name(11)
    data = bytearray(path.read_bytes())
    data[7] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(RowDatabaseError, match="checksum"):
        RowDatabase.open(d).verify()
    # asking for 12 stones checks 1..12, rebuilds 11 and 12 and keeps 13 and 14 (they were
    # computed from correct tables and their own checksums still hold)
    rep = build_database(d, max_stones=12, jobs=1).build_report
    assert rep.resumed_from == 10 and rep.built == [11, 12]
    assert _snapshot(d) == clean
    assert build_database(d, max_stones=14, jobs=1).build_report.built == []
    (d / rowdb._file_name(3)).unlink()
    assert build_database(d, max_stones=14, jobs=1).build_report.built == list(range(3, 15))
    assert _snapshot(d) == clean


def test_crash_at_every_write_step(tmp_path, monkeypatch):
    # in-process: make the k-th fsync/rename of a build fail, for every k, then resume
    clean_dir = tmp_path / "clean"
    build_database(clean_dir, max_stones=9, jobs=1)
    clean = _snapshot(clean_dir)
    real_replace = os.replace

    def no_fsync(fd):  # durability is not under test here, the order of steps is
        return None

    k = 0
    while True:
        d = tmp_path / f"crash{k}"
        calls = [0]

        class Crash(Exception):
            pass

        def counting(real, calls=calls, k=k):
            def f(*args):
                calls[0] += 1
                if calls[0] == k + 1:
                    raise Crash
                return real(*args)
            return f

        monkeypatch.setattr(rowdb.os, "replace", counting(real_replace))
        monkeypatch.setattr(rowdb.os, "fsync", counting(no_fsync))
        try:
            build_database(d, max_stones=9, jobs=1)
            crashed = False
        except Crash:
            crashed = True
        monkeypatch.setattr(rowdb.os, "replace", real_replace)
        monkeypatch.setattr(rowdb.os, "fsync", no_fsync)
        build_database(d, max_stones=9, jobs=1)
        assert _snapshot(d) == clean, k
        if not crashed:
            break
        k += 1
    assert k > 30  # 9 lengths x (file + manifest) x (fsync, rename, dir fsync)


KILL_SCRIPT = ("import sys\nfrom clobbermania.clobber.rowdb import build_database\n"
               "build_database(sys.argv[1], max_stones=int(sys.argv[2]), jobs=2)\n")


def test_sigkill_at_random_moments_then_resume(tmp_path, db):
    stones = 21
    env = dict(os.environ, PYTHONPATH=str(Path(rowdb.__file__).parents[2]))

    def start(d):
        return subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(d), str(stones)],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    # the uninterrupted build, timed, is the reference
    ref = tmp_path / "ref"
    t0 = time.perf_counter()
    proc = start(ref)
    assert proc.wait(timeout=120) == 0, proc.stderr.read()
    whole = time.perf_counter() - t0
    d = tmp_path / "killed"
    rng = random.Random(4)
    kills = 0
    # kill early enough that a change of load between the timed build and the restarts
    # still leaves work to interrupt; up to ten tries for three kills
    for _ in range(10):
        proc = start(d)
        time.sleep(rng.uniform(0.15, 0.6) * whole)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
        if kills == 3:
            break
    assert kills == 3
    proc = start(d)
    assert proc.wait(timeout=120) == 0, proc.stderr.read()
    assert not list(d.glob("*.tmp"))
    assert json.loads((d / "manifest.json").read_text())["max_stones"] == stones
    # bit-identical to the uninterrupted builds (this one and the fixture's, to 20 stones)
    assert _snapshot(ref) == _snapshot(d)
    for n in range(1, DB_STONES + 1):
        assert (d / rowdb._file_name(n)).read_bytes() == \
            (db.path / rowdb._file_name(n)).read_bytes()
    RowDatabase.open(d).verify()


# ---------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------

def test_cli_build_and_stats(capsys, tmp_path):
    d = str(tmp_path / "cli")
    code, out, err = run_cli(capsys, "grundy", "build", "--max-stones", "10", "--db", d,
                             "--jobs", "1")
    assert code == 0 and "built rows of 1 to 10 stones" in out and err == ""
    code, out, _ = run_cli(capsys, "grundy", "build", "--max-stones", "12", "--db", d)
    assert code == 0 and "resumed after 10 stones" in out
    code, out, _ = run_cli(capsys, "grundy", "stats", "--db", d, "--json", "--max-stones",
                           "9", "--min-stones", "2")
    assert code == 0
    obj = json.loads(out)
    assert obj["losing_share_by_length"]["9"] == pytest.approx(23.4375)
    assert obj["rows"] == sum(1 << n for n in range(2, 10))
    assert abs(sum(obj["distribution"]) - 100) < 1e-9
    code, out, _ = run_cli(capsys, "grundy", "stats", "--db", d, "--first", "6", "--json")
    obj = json.loads(out)
    assert obj["rows"] == 6 and obj["losing_share_by_length"] == {"1": 100.0, "2": 50.0}
    code, out, _ = run_cli(capsys, "grundy", "stats", "--db", d)
    assert code == 0 and "losing rows" in out


def test_cli_errors(capsys, tmp_path):
    code, out, err = run_cli(capsys, "grundy", "stats", "--db", str(tmp_path / "none"))
    assert code == 2 and out == ""
    assert err.startswith("error: no row database") and "grundy build" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run_cli(capsys, "grundy", "build", "--max-stones", "99", "--db",
                           str(tmp_path / "x"))
    assert code == 2 and "--max-stones" in err


def test_cli_plot(capsys, tmp_path, db):
    target = tmp_path / "stats.png"
    code, out, err = run_cli(capsys, "grundy", "stats", "--db", str(db.path), "--plot",
                             str(target), "--max-stones", "12")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert code == 2 and "matplotlib" in err
        return
    assert code == 0 and target.stat().st_size > 1000
