"""The job store (clobbermania.distributed.store) and ``clobbermania jobs show|export``.

The refusals are checked on the file itself: its SHA-256 and the directory's listing
(no ``-wal``/``-shm`` left behind) are the same before and after. The crash test kills a
real writer process with SIGKILL and counts what survived.
"""

import csv
import hashlib
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from cli_runner import run_cli

from clobbermania.distributed.store import (
    SCHEMA_VERSION,
    STORE_KIND,
    JobStore,
    JobStoreError,
    default_store_path,
)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(path: Path) -> tuple[str, list[str]]:
    """The file's hash and its directory's listing."""
    return sha(path), sorted(os.listdir(path.parent))


def make_store(path: Path, jobs: int = 3) -> Path:
    with JobStore.open(path) as store:
        for i in range(jobs):
            store.put("grundy-value", f"row{i}", {"value": i}, nodes=10 * i + 1,
                      seconds=0.5 * i, parent=None if i == 0 else 1, worker=f"w{i % 2}")
    return path


# -- the store itself ----------------------------------------------------------------------


def test_round_trip_first_answer_kept_and_log(tmp_path):
    path = tmp_path / "deep" / "er" / "jobs.sqlite"   # parents are created
    with JobStore.open(path) as store:
        assert store.count() == 0 and store.log() == [] and store.get("k", "a") is None
        a = store.put("clobber-outcome", "xo/ox b", {"winner": "Left", "moves": ["a1-b1"]},
                      nodes=100, seconds=1.5, worker="actor-0")
        b = store.put("clobber-outcome", "x.o w", {"winner": "Right"}, nodes=7, seconds=0.25,
                      parent=a)
        c = store.put("grundy-value", "xoxo", {"value": 1}, nodes=3, seconds=0.0)
        # a job stored twice keeps its first answer and id
        assert store.put("clobber-outcome", "xo/ox b", {"winner": "Right"}, nodes=1,
                         seconds=9.0) == a
        assert (a, b, c) == (1, 2, 3)
        assert store.get("clobber-outcome", "xo/ox b") == {"winner": "Left",
                                                           "moves": ["a1-b1"]}
        assert store.get("grundy-value", "xo/ox b") is None   # the kind is part of the key
        assert store.count() == 3 and store.count("clobber-outcome") == 2
        assert store.count("nothing") == 0
        log = store.log()
        assert [(j["id"], j["kind"], j["key"], j["parent"], j["nodes"], j["seconds"],
                 j["worker"]) for j in log] == [
            (1, "clobber-outcome", "xo/ox b", None, 100, 1.5, "actor-0"),
            (2, "clobber-outcome", "x.o w", 1, 7, 0.25, ""),
            (3, "grundy-value", "xoxo", None, 3, 0.0, "")]
        assert [j["id"] for j in store.log("grundy-value")] == [3]
        assert all(j["finished"].endswith("+00:00") for j in log)
        assert store.kinds() == {
            "clobber-outcome": {"jobs": 2, "nodes": 107, "seconds": 1.75,
                                "first": log[0]["finished"], "last": log[1]["finished"]},
            "grundy-value": {"jobs": 1, "nodes": 3, "seconds": 0.0,
                             "first": log[2]["finished"], "last": log[2]["finished"]}}
        meta = store.meta()
        assert meta["kind"] == STORE_KIND and meta["schema_version"] == str(SCHEMA_VERSION)
    # reopened: everything is still there
    with JobStore.open(path) as store:
        assert store.count() == 3 and store.get("grundy-value", "xoxo") == {"value": 1}
    # WAL mode is recorded in the file header (bytes 18 and 19 are 2)
    assert path.read_bytes()[18:20] == b"\x02\x02"
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_default_path_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_store_path() == tmp_path / "cache" / "clobbermania" / "jobs.sqlite"
    with JobStore.open() as store:
        assert store.path == default_store_path() and store.path.exists()
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_store_path() == tmp_path / "home" / ".cache" / "clobbermania" / "jobs.sqlite"


@pytest.mark.parametrize("call, words", [
    (lambda s: s.put("", "a", {}, nodes=1, seconds=0), "non-empty texts"),
    (lambda s: s.put("k", "a", [1, 2], nodes=1, seconds=0), "not a JSON object"),
    (lambda s: s.put("k", "a", {"v": float("nan")}, nodes=1, seconds=0), "not JSON data"),
    (lambda s: s.put("k", "a", {"v": object()}, nodes=1, seconds=0), "not JSON data"),
    (lambda s: s.put("k", "a", {}, nodes=-1, seconds=0), "nodes is a count"),
    (lambda s: s.put("k", "a", {}, nodes=1, seconds=float("inf")), "finite time"),
    (lambda s: s.put("k", "a", {}, nodes=1, seconds=0, parent="1"), "parent is a job id"),
])
def test_bad_jobs_are_refused_and_not_stored(tmp_path, call, words):
    with JobStore.open(tmp_path / "jobs.sqlite") as store:
        with pytest.raises(JobStoreError, match=words):
            call(store)
        assert store.count() == 0


def test_read_only_and_closed_stores_refuse_writes(tmp_path):
    path = make_store(tmp_path / "jobs.sqlite")
    with JobStore.open(path, read_only=True) as store:
        assert store.count() == 3
        with pytest.raises(JobStoreError, match="opened read-only"):
            store.put("k", "a", {}, nodes=1, seconds=0)
    store.close()   # twice is harmless
    with pytest.raises(JobStoreError, match="is closed"):
        store.count()
    with pytest.raises(JobStoreError, match="no job store at"):
        JobStore.open(tmp_path / "missing.sqlite", read_only=True)
    assert not (tmp_path / "missing.sqlite").exists()
    assert sorted(os.listdir(tmp_path)) == ["jobs.sqlite"]   # reading leaves no -wal/-shm


# -- refusals: the file is left byte for byte as it was --------------------------------------


def _text_file(path):
    path.write_text("kind,key\nnot,a store\n")


def _empty_file(path):
    path.write_bytes(b"")


def _other_sqlite(path):
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("CREATE TABLE songs (title TEXT)")
    con.execute("INSERT INTO songs VALUES ('clobber blues')")
    con.commit()
    con.close()


def _other_meta_kind(path):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO meta VALUES ('kind', 'someone-elses-jobs')")
    con.commit()
    con.close()


def _other_version(path):
    make_store(path)
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                (str(SCHEMA_VERSION + 1),))
    con.commit()
    con.close()


def _no_version(path):
    make_store(path)
    con = sqlite3.connect(path)
    con.execute("DELETE FROM meta WHERE key = 'schema_version'")
    con.commit()
    con.close()


def _damaged(path):
    """A sound store (many jobs, so several b-tree pages) with one page overwritten."""
    with JobStore.open(path) as store:
        for i in range(300):
            store.put("grundy-value", f"row-{i:04d}", {"value": i, "pad": "x" * 40},
                      nodes=i, seconds=0.0)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 6 * page
    data[3 * page:4 * page] = bytes(range(256)) * (page // 256)
    path.write_bytes(bytes(data))


def _truncated(path):
    _damaged(path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 3])


REFUSED = [
    (_text_file, "not an SQLite file"),
    (_empty_file, "the file is empty"),
    (_other_sqlite, "another kind"),
    (_other_meta_kind, "another kind"),
    (_other_version, f"schema version {SCHEMA_VERSION + 1}, and this clobbermania reads"),
    (_no_version, "no schema version"),
    (_damaged, "damaged"),
    (_truncated, "damaged"),
]


@pytest.mark.parametrize("make, words", REFUSED, ids=[m.__name__ for m, _ in REFUSED])
def test_refused_files_are_left_unchanged(tmp_path, capsys, make, words):
    path = tmp_path / "jobs.sqlite"
    make(path)
    before = snapshot(path)
    for read_only in (False, True):
        with pytest.raises(JobStoreError) as exc:
            JobStore.open(path, read_only=read_only)
        message = str(exc.value)
        assert words in message and "left unchanged" in message and "\n" not in message
        assert snapshot(path) == before
    for verb in ("show", "export"):
        code, out, err = run_cli(capsys, "jobs", verb, str(path))
        assert (code, out) == (2, "") and err.startswith("error: ") and words in err
        assert err.count("\n") == 1
        assert snapshot(path) == before


def test_a_directory_and_an_unwritable_place_are_refused(tmp_path):
    with pytest.raises(JobStoreError, match="is a directory"):
        JobStore.open(tmp_path)
    (tmp_path / "plain").write_text("a file, not a directory")
    with pytest.raises(JobStoreError, match="cannot create the job store"):
        JobStore.open(tmp_path / "plain" / "jobs.sqlite")
    # /proc cannot be written even by root
    with pytest.raises(JobStoreError, match="cannot create the job store"):
        JobStore.open("/proc/clobbermania-test/jobs.sqlite")


def _unprivileged(check):
    """``check()``'s JSON result, computed by a forked child that cannot write where root
    can: as root, the child becomes the user nobody (uid 65534), for whom the test's
    root-owned directories are read-only; otherwise it keeps the test's user, for whom
    the directories' mode 0555 does it."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: never returns into pytest
        status = 1
        try:
            os.close(read)
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            os.write(write, json.dumps(check()).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as fh:
        text = fh.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0 and text, "the unprivileged check failed"
    return json.loads(text)


def test_read_only_directory():
    base = Path(tempfile.mkdtemp())
    try:
        os.chmod(base, 0o755)           # the user nobody may enter it, not write in it
        made = make_store(base / "ro" / "jobs.sqlite")
        (base / "new").mkdir()
        os.chmod(base / "new", 0o555)
        os.chmod(base / "ro", 0o555)
        before = snapshot(made)

        def check():
            out = []
            for path, read_only in ((base / "new" / "jobs.sqlite", False), (made, False),
                                    (made, True)):
                try:
                    with JobStore.open(path, read_only=read_only) as store:
                        out.append(store.count())
                except JobStoreError as exc:
                    out.append(str(exc))
            return out

        def check_while_the_driver_writes():
            with JobStore.open(made, read_only=True) as store:
                return store.count()

        assert _unprivileged(check) == [
            f"cannot create the job store {base / 'new' / 'jobs.sqlite'} (Permission denied)",
            f"the job store {made} cannot be written (no write permission on the file or "
            "its directory)",
            3]                          # reading still works
        assert snapshot(made) == before
        os.chmod(base / "ro", 0o755)
        with JobStore.open(made) as driver:   # the -wal and -shm exist while it is open
            driver.put("k", "a", {}, nodes=1, seconds=0.0)
            os.chmod(base / "ro", 0o555)
            assert _unprivileged(check_while_the_driver_writes) == 4
            os.chmod(base / "ro", 0o755)
    finally:
        for sub in ("new", "ro"):
            if (base / sub).exists():
                os.chmod(base / sub, 0o755)
        shutil.rmtree(base)


# -- a writer process: concurrent reading, and a SIGKILL ------------------------------------

WRITER = textwrap.dedent("""
    import sys
    from clobbermania.distributed.store import JobStore
    store = JobStore.open(sys.argv[1])
    i = store.count()
    while True:
        store.put("clobber-outcome", f"position-{i:06d}", {"i": i, "pad": "p" * 200},
                  nodes=i, seconds=0.001, parent=i if i else None, worker="writer")
        print(i, flush=True)   # job i is committed
        i += 1
""")


def test_sigkilled_writer_loses_at_most_its_job_in_flight(tmp_path):
    path = tmp_path / "jobs.sqlite"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        # a reader follows the writer: counts never go down, every job it sees is whole
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        while writer.stdout.readline().strip() != "0" and time.monotonic() < deadline:
            pass
        seen = []
        with JobStore.open(path, read_only=True) as reader:
            while len(seen) < 30 or seen[-1] < 500:
                n = reader.count()
                seen.append(n)
                if n:
                    assert reader.get("clobber-outcome", f"position-{n - 1:06d}")["i"] == n - 1
                assert time.monotonic() < deadline, "the writer is too slow"
                time.sleep(0.005)
        assert seen == sorted(seen) and seen[-1] > seen[0]
        os.kill(writer.pid, signal.SIGKILL)
        rest = writer.stdout.read().split()
        writer.wait(timeout=10)
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    assert writer.returncode == -signal.SIGKILL
    acknowledged = int(rest[-1]) + 1 if rest else seen[-1]
    # the driver reopens its store: whole, every acknowledged job there, at most one more
    with JobStore.open(path) as store:
        n = store.count()
        assert acknowledged <= n <= acknowledged + 1
        log = store.log()
        assert [j["key"] for j in log] == [f"position-{i:06d}" for i in range(n)]
        assert [j["id"] for j in log] == list(range(1, n + 1))
        assert all(store.get("clobber-outcome", f"position-{i:06d}")["i"] == i
                   for i in range(0, n, 37))
        store.put("clobber-outcome", "after the crash", {"i": -1}, nodes=0, seconds=0.0)
        assert store.count() == n + 1
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    con.close()


# -- the command line ------------------------------------------------------------------------


def test_jobs_show(tmp_path, capsys):
    path = make_store(tmp_path / "jobs.sqlite")
    with JobStore.open(path) as store:
        store.put("clobber-outcome", "xo b", {"winner": "Left"}, nodes=1234567, seconds=2.0)
        created = store.meta()["created"]
    code, out, err = run_cli(capsys, "jobs", "show", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"job store {path}",
        f"schema version 1, created {created}",
        "kind                   jobs             nodes       seconds",
        "clobber-outcome           1         1,234,567         2.000",
        "grundy-value              3                33         1.500",
        "total                     4         1,234,600         3.500",
    ]
    code, out, err = run_cli(capsys, "jobs", "show", str(path), "--json")
    obj = json.loads(out)
    assert (code, err, out.count("\n")) == (0, "", 1)
    assert {k: obj[k] for k in ("store", "kind", "schema_version", "created", "total")} == {
        "store": str(path), "kind": STORE_KIND, "schema_version": 1, "created": created,
        "total": {"jobs": 4, "nodes": 1234600, "seconds": 3.5}}
    assert 0 <= obj["seconds"] < 5   # the command's own time, as in every --json
    assert obj["kinds"]["grundy-value"]["jobs"] == 3
    # an empty store, and the default store when there is none (never created)
    with JobStore.open(tmp_path / "empty.sqlite"):
        pass
    code, out, _ = run_cli(capsys, "jobs", "show", str(tmp_path / "empty.sqlite"))
    assert code == 0 and out.splitlines()[-1] == "no finished job"


def test_show_and_export_never_create_a_store(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for args in (["show"], ["export"], ["show", str(tmp_path / "x.sqlite")]):
        code, out, err = run_cli(capsys, "jobs", *args)
        assert (code, out) == (2, "") and err.startswith("error: no job store at ")
    assert os.listdir(tmp_path) == []


def test_jobs_export(tmp_path, capsys):
    path = make_store(tmp_path / "jobs.sqlite")
    with JobStore.open(path) as store:
        store.put("clobber-outcome", 'x,"o" b', {"winner": "Left", "moves": ["a1-b1"]},
                  nodes=5, seconds=0.125, parent=2)
        expected = [{**j, "answer": store.get(j["kind"], j["key"])} for j in store.log()]
    code, out, err = run_cli(capsys, "jobs", "export", str(path))
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == expected
    code, out, _ = run_cli(capsys, "jobs", "export", str(path), "--kind", "clobber-outcome")
    assert [json.loads(line)["key"] for line in out.splitlines()] == ['x,"o" b']
    code, out, _ = run_cli(capsys, "jobs", "export", str(path), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 4
    assert [(r["id"], r["kind"], r["key"], r["parent"], r["nodes"], r["seconds"],
             r["worker"], r["finished"], json.loads(r["answer"])) for r in rows] == [
        (str(j["id"]), j["kind"], j["key"], "" if j["parent"] is None else str(j["parent"]),
         str(j["nodes"]), str(j["seconds"]), j["worker"], j["finished"], j["answer"])
        for j in expected]
    code, out, err = run_cli(capsys, "jobs", "export", str(path), "--kind", "samegame")
    assert (code, out) == (2, "")
    assert err == (f"error: the job store {path} holds no job of kind 'samegame' "
                   "(it holds: clobber-outcome, grundy-value)\n")


def test_show_while_the_driver_writes(tmp_path, capsys):
    """A reader (the command) reads a store whose driver holds it open and writes."""
    path = tmp_path / "jobs.sqlite"
    with JobStore.open(path) as driver:
        for i in range(5):
            driver.put("grundy-value", f"r{i}", {"value": i}, nodes=1, seconds=0.0)
            code, out, _ = run_cli(capsys, "jobs", "show", str(path), "--json")
            assert code == 0 and json.loads(out)["total"]["jobs"] == i + 1
