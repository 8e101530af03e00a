"""The part database (clobbermania.clobber.partdb): its values against direct valuation,
its enumeration against the polyomino counts, its files (round trip, determinism, resume
after a kill, refusals that leave the files alone) and the values.py hook."""

from __future__ import annotations

import functools
import hashlib
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_cli

from clobbermania.cgt import Game
from clobbermania.clobber import _partdb_kernels as pk
from clobbermania.clobber import partdb, values
from clobbermania.clobber.partdb import PartDatabase, PartDatabaseError, build_part_database
from clobbermania.errors import ClobbermaniaError, NotationError
from clobbermania.stones import BLACK, WHITE, Position


@pytest.fixture
def shipped():
    return PartDatabase.open(partdb.shipped_db_dir())


@pytest.fixture
def db_off():
    """values.py without a database and with empty caches; the default restored after."""
    values.use_part_database(None)
    values.clear_cache()
    yield
    values.clear_cache()
    values.use_part_database()


def _text(h: int, w: int, b: int, x: int) -> str:
    return "/".join("".join("x" if b >> (r * w + c) & 1 else "o" if x >> (r * w + c) & 1
                            else "." for c in range(w)) for r in range(h))


def _snapshot(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.iterdir()) if p.name != ".lock"}


def _files(path: Path) -> dict[str, str]:
    """The checksums of the data files (the manifest also holds build times)."""
    return {k: v for k, v in _snapshot(path).items() if k.endswith(".npy")}


# --- enumeration -------------------------------------------------------------------------

def test_polyomino_counts():
    # OEIS A001168 (fixed) and A000105 (free polyominoes)
    fixed = partdb.fixed_polyominoes(9)
    assert [len(f) for f in fixed] == [1, 2, 6, 19, 63, 216, 760, 2725, 9910]
    assert [len(partdb.free_shapes(n, fixed[n - 1])) for n in range(1, 10)] \
        == [1, 1, 2, 5, 12, 35, 108, 369, 1285]
    # every fixed polyomino is connected, cropped and distinct
    for n in (5, 7):
        seen = set()
        for h, w, cells in fixed[n - 1]:
            assert cells.bit_count() == n and (h, w, cells) not in seen
            seen.add((h, w, cells))
            p = Position.from_string(_text(h, w, cells, 0))
            assert len(values._mask_parts(p.board.adjacency_masks, p.black, p.black)) == 1


def test_part_counts_by_brute_force():
    # every colouring of every placement in a box, keyed by values.py's own string key
    # (values._canonical_grid), against the packed canonical keys of part_keys
    for n in range(2, 7):
        fixed = partdb.fixed_polyominoes(n)[n - 1]
        keys = set()
        for h, w, cells in fixed:
            bits = [1 << i for i in range(h * w) if cells >> i & 1]
            for c in range(1, (1 << n) - 1):
                b = sum(bit for k, bit in enumerate(bits) if c >> k & 1)
                keys.add(values._canonical_grid(_text(h, w, b, cells ^ b))[0])
        assert len(partdb.part_keys(n)) == len(keys)


def test_pack_round_trip():
    rng = random.Random(3)
    for n in (2, 6, 8):
        keys = partdb.part_keys(n)
        for k in rng.sample(list(keys), min(50, len(keys))):
            h, w, b, x = pk.unpack(k)
            assert pk.pack(h, w, b, x) == k and (b | x).bit_count() == n and not b & x


# --- values -------------------------------------------------------------------------------

def test_known_values(shipped):
    # Albert, Grossman, Nowakowski, Wolfe (2005) and docs/clobber.md
    for part, value in [("xo", "*"), ("x/o", "*"), ("xxo", "^"), ("oox", "v"),
                        ("xxxo", "^^*"), ("xxxxo", "^3"), ("xoxox", "{*|v}"), ("xxoo", "0"),
                        ("xo/ox", "*")]:
        assert shipped.value(part) is Game(value), part
    assert shipped.outcome("xxo") == "L" and shipped.outcome("oox") == "R"
    assert shipped.outcome("xo") == "N" and shipped.outcome("xxoo") == "P"
    assert shipped.value("x" * 8 + "o") is None     # 9 squares: beyond the shipped 8
    assert shipped.max_squares == 8 and shipped.count == 51035
    assert all(len(shipped.keys(n)) == partdb.PARTS_BY_SIZE[n] for n in range(2, 9))


def test_sample_against_direct_valuation(shipped, db_off):
    # a random sample of every size, valued by values.py with no database
    rng = random.Random(28)
    for n in range(2, 9):
        keys = shipped.keys(n)
        for i in rng.sample(range(len(keys)), min(25, len(keys))):
            key = int(keys[i])
            text = _text(*(int(v) for v in pk.unpack(key)))
            g = values.clobber_value(Position.from_string(text))
            assert shipped.value(key) is g and shipped.value(text) is g, text
            assert shipped.outcome(text) == g.outcome


@functools.cache
def _raw_value(position: Position) -> Game:
    """An independent brute force from the rules alone (Position.moves / play): no parts,
    no symmetry, no colour swap, no kernel."""
    return Game.from_options([_raw_value(position.play(m)) for m in position.moves(BLACK)],
                             [_raw_value(position.play(m)) for m in position.moves(WHITE)])


def test_sample_against_brute_force(shipped):
    rng = random.Random(1981)
    for n in range(2, 8):
        keys = shipped.keys(n)
        for i in rng.sample(range(len(keys)), min(8, len(keys))):
            text = _text(*(int(v) for v in pk.unpack(keys[i])))
            assert shipped.value(text) is _raw_value(Position.from_string(text)), text


def test_symmetric_and_swapped_parts(shipped):
    rng = random.Random(5)
    keys = shipped.keys(7)
    for i in rng.sample(range(len(keys)), 40):
        h, w, b, x = (int(v) for v in pk.unpack(keys[i]))
        rows = _text(h, w, b, x).split("/")
        g = shipped.value(keys[i])
        images = [rows, rows[::-1], [r[::-1] for r in rows],
                  ["".join(t) for t in zip(*rows, strict=True)]]
        for img in images:
            t = "/".join(img)
            assert shipped.value(t) is g
            assert shipped.value(t.translate(str.maketrans("xo", "ox"))) is -g
        # placed on a larger board with a border of holes: same part
        padded = "/".join(["." * (w + 2)] + ["." + r + "." for r in rows] + ["." * (w + 2)])
        assert shipped.value(padded) is g


def test_board_value_ids(shipped):
    # parts placed on a 7 x 9 board (63 squares), the colours maybe swapped, in one call
    rng = random.Random(9)
    rows, cols = 7, 9
    blacks, whites, expect = [], [], []
    for n in range(2, 9):
        keys = shipped.keys(n)
        for i in rng.sample(range(len(keys)), min(30, len(keys))):
            h, w, b, x = (int(v) for v in pk.unpack(keys[i]))   # w <= 8 < cols
            text = _text(h, w, b, x)
            if rng.random() < 0.5:
                text = text.translate(str.maketrans("xo", "ox"))
            dr, dc = rng.randrange(rows - h + 1), rng.randrange(cols - w + 1)
            bm = wm = 0
            for r, line in enumerate(text.split("/")):
                for c, ch in enumerate(line):
                    bit = 1 << ((r + dr) * cols + c + dc)
                    bm |= bit if ch == "x" else 0
                    wm |= bit if ch == "o" else 0
            blacks.append(bm)
            whites.append(wm)
            expect.append(shipped.value(text).id)
    blacks.append((1 << 8) - 2)          # o x x x x x x x o: 9 squares, beyond 8
    whites.append(1 << 8 | 1)
    expect.append(-1)
    ids = shipped.board_value_ids(rows, cols, np.array(blacks), np.array(whites))
    assert ids.tolist() == expect


def test_refuses_non_parts(shipped):
    for bad in ("xo.xo", "xx", "x", "xo./..x", "x./.o"):
        with pytest.raises(NotationError, match="connected part"):
            shipped.value(bad)
    with pytest.raises(NotationError):
        shipped.value(1.5)


# --- files --------------------------------------------------------------------------------

def test_round_trip_deterministic_and_resume(shipped, tmp_path, monkeypatch):
    a = tmp_path / "a"
    rep = build_part_database(a, max_squares=7, jobs=1)
    assert rep.built == [2, 3, 4, 5, 6, 7] and rep.resumed_from == 1
    assert rep.parts_by_size == {n: len(shipped.keys(n)) for n in range(2, 8)}
    # the same bytes as the shipped database's sizes (built in another process, earlier)
    shipped_files = _files(partdb.shipped_db_dir())
    assert _files(a) == {k: v for k, v in shipped_files.items() if k < "parts08"}
    db = PartDatabase.open(a)
    for n in range(2, 8):
        assert np.array_equal(db.keys(n), shipped.keys(n))
        for k in db.keys(n)[::97]:
            assert db.value(int(k)) is shipped.value(int(k))
    # a build killed inside size 7 (progress raising), a stray temporary file left behind
    b = tmp_path / "b"

    def kill(done, total, n):
        if n == 7:
            raise KeyboardInterrupt

    monkeypatch.setattr(partdb, "CHUNK", 1000)
    with pytest.raises(KeyboardInterrupt):
        build_part_database(b, max_squares=7, jobs=1, progress=kill)
    m = json.loads((b / "manifest.json").read_text())
    assert [e["squares"] for e in m["sizes"]] == [2, 3, 4, 5, 6]
    (b / "parts07-keys.npy.tmp").write_bytes(b"half a file")
    rep = build_part_database(b, max_squares=7, jobs=1)
    assert rep.resumed_from == 6 and rep.built == [7]
    assert _files(b) == _files(a)
    # two processes, the size cut into pieces (small chunks), give the same bytes
    c = tmp_path / "c"
    monkeypatch.setattr(partdb, "CHUNK", 500)
    assert build_part_database(c, max_squares=7, jobs=2).built == [2, 3, 4, 5, 6, 7]
    assert _files(c) == _files(a)
    assert build_part_database(c, max_squares=7, jobs=2).built == []


def test_resume_after_sigkill(tmp_path):
    # a real kill: a child process building to 8 squares is SIGKILLed once sizes up to 6
    # are written; the next build resumes and writes the shipped database's bytes
    d = tmp_path / "k"
    code = ("import sys; from clobbermania.clobber import partdb; "
            "partdb.build_part_database(sys.argv[1], max_squares=8, jobs=1)")
    child = subprocess.Popen([sys.executable, "-c", code, str(d)])
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            try:
                m = json.loads((d / "manifest.json").read_text())
            except (OSError, ValueError):
                m = {"sizes": []}
            if len(m["sizes"]) >= 5:
                break
            time.sleep(0.01)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    done = [e["squares"] for e in json.loads((d / "manifest.json").read_text())["sizes"]]
    assert done == list(range(2, 2 + len(done))) and len(done) >= 5
    rep = build_part_database(d, max_squares=8, jobs=1)
    assert rep.resumed_from == 1 + len(done) and rep.built == list(range(2 + len(done), 9))
    assert _files(d) == _files(partdb.shipped_db_dir())
    assert not list(d.glob("*.tmp"))


def test_refusals_leave_files_unchanged(tmp_path):
    d = tmp_path / "d"
    build_part_database(d, max_squares=5, jobs=1)
    clean = _snapshot(d)
    # another version
    m = json.loads((d / "manifest.json").read_text())
    m["version"] = partdb.VERSION + 1
    (d / "manifest.json").write_text(json.dumps(m))
    before = _snapshot(d)
    for call in (lambda: PartDatabase.open(d), lambda: build_part_database(d, 6, jobs=1)):
        with pytest.raises(PartDatabaseError, match="version"):
            call()
        assert _snapshot(d) == before
    m["version"] = partdb.VERSION
    (d / "manifest.json").write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")
    assert _files(d) == _files_of(clean)
    # a damaged file: refused on open, rebuilt (same bytes) by a build
    path = d / "parts04-games.npy"
    data = bytearray(path.read_bytes())
    data[-3] ^= 1
    path.write_bytes(bytes(data))
    before = _snapshot(d)
    with pytest.raises(PartDatabaseError, match="checksums"):
        PartDatabase.open(d)
    assert _snapshot(d) == before
    rep = build_part_database(d, max_squares=5, jobs=1)
    assert rep.resumed_from == 3 and rep.built == [4, 5]
    assert _files(d) == _files_of(clean)
    # not a database
    for setup in (lambda p: None, lambda p: (p / "manifest.json").write_text("[1, 2]"),
                  lambda p: (p / "manifest.json").write_text("{not json")):
        e = tmp_path / f"e{random.random()}"
        e.mkdir()
        setup(e)
        before = _snapshot(e)
        with pytest.raises(PartDatabaseError):
            PartDatabase.open(e)
        assert _snapshot(e) == before
    with pytest.raises(PartDatabaseError, match="no part database"):
        PartDatabase.open(tmp_path / "missing")


def _files_of(snapshot: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in snapshot.items() if k.endswith(".npy")}


def test_ctrl_c(monkeypatch, tmp_path):
    # the CLI's first Ctrl-C sets limits.interrupted(): the build stops between chunks
    monkeypatch.setattr(partdb, "CHUNK", 1000)
    calls = []
    monkeypatch.setattr(partdb, "interrupted", lambda: len(calls) > 5 or calls.append(1))
    with pytest.raises(PartDatabaseError, match="interrupted in the parts of 7 squares; "
                                                "those of up to 6 are complete"):
        build_part_database(tmp_path, max_squares=8, jobs=1)
    m = json.loads((tmp_path / "manifest.json").read_text())
    assert [e["squares"] for e in m["sizes"]] == [2, 3, 4, 5, 6]


def test_memory_refusal(monkeypatch, tmp_path):
    monkeypatch.setattr(partdb, "memory_room", lambda: 10 ** 6)
    with pytest.raises(PartDatabaseError, match="needs about 3 MB of memory and only 1 MB"):
        build_part_database(tmp_path / "m", max_squares=7, jobs=1)
    assert not (tmp_path / "m" / "manifest.json").exists()


def test_default_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert partdb.default_db_dir() == tmp_path / "clobbermania" / "parts"
    # no database there: the default is the shipped one
    assert partdb.default_database().path == partdb.shipped_db_dir()


# --- the values.py hook -------------------------------------------------------------------

def test_hook(tmp_path, db_off):
    build_part_database(tmp_path, max_squares=6, jobs=1)
    values.clear_cache()        # the build left its parts in values.py's table
    db = PartDatabase.open(tmp_path)
    values.use_part_database(db)
    assert values.part_database() is db
    s0 = values.part_database_stats()
    pos = Position.from_string("xxo.xo/......")
    assert str(values.clobber_value(pos)) == "^*"
    s1 = values.part_database_stats()
    assert s1["hits"] - s0["hits"] == 2 and s1["loaded"] == s0["loaded"]
    # a part larger than the database: every stored part goes to the tree kernel's table
    big = Position.from_string("xoxo/oxox")
    g = values.clobber_value(big)
    assert values.part_database_stats()["loaded"] - s0["loaded"] == db.count
    values.use_part_database(None)
    values.clear_cache()
    assert values.clobber_value(big) is g
    with pytest.raises(ClobbermaniaError, match="PartDatabase"):
        values.use_part_database("shipped")


# --- command line -------------------------------------------------------------------------

def test_cli(capsys, tmp_path):
    code, out, err = run_cli(capsys, "clobber", "build-db", "--max-squares", "5", "--db",
                             str(tmp_path), "--jobs", "1")
    assert code == 0 and err == ""      # no progress when stderr is not a terminal
    assert "built parts of 2 to 5 squares: 166 parts" in out
    code, out, _ = run_cli(capsys, "clobber", "build-db", "--max-squares", "5", "--db",
                           str(tmp_path), "--json")
    assert code == 0 and json.loads(out)["built"] == []
    code, _, err = run_cli(capsys, "clobber", "build-db", "--max-squares", "11", "--db",
                           str(tmp_path))
    assert code == 2 and err.startswith("error: --max-squares must be between 2 and 10")
