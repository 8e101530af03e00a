"""The job store: every finished job of a distributed solve, in one SQLite file.

A distributed driver splits a question into jobs (issue 27, docs/distributed.md); each
finished job is stored here under its kind (the question: ``"clobber-outcome"``,
``"grundy-value"``, ...) and its key (the canonical text of the position asked about),
with its answer (a JSON object), the nodes it searched, its seconds, its parent job and
the worker that ran it. Killing the driver and running the same command again resumes
from the store, and a later command reuses what it holds.

The file is SQLite (the standard library's :mod:`sqlite3`) in WAL mode, so a reader
(``clobbermania jobs show``) can read while the driver writes. Only the driver writes,
through one connection, and it commits after every job: a killed driver loses at most
the job it was storing, never a finished one, and never leaves a damaged file (WAL with
``synchronous=NORMAL`` is safe against a process crash; a power cut may lose the last
few jobs, still leaving a consistent store). A ``meta`` table names the file's kind
(``clobbermania-jobs``) and its schema version. A file that is not SQLite, a SQLite file
of another kind or of another schema version, and a damaged file are refused with one
sentence and left exactly as they were (they are only ever opened read-only to be
checked).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "jobs.sqlite"
>>> with JobStore.open(path) as store:
...     store.put("grundy-value", "xoxo", {"value": 1}, nodes=12, seconds=0.01)
...     store.get("grundy-value", "xoxo"), store.count()
1
({'value': 1}, 1)
"""

from __future__ import annotations

import json
import math
import os
import secrets
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any

from ..errors import ClobbermaniaError

#: The version of the tables below; a store of another version is refused.
SCHEMA_VERSION = 1

#: The ``meta`` table's ``kind`` row of every job store.
STORE_KIND = "clobbermania-jobs"

#: The first 16 bytes of every SQLite 3 database file.
_SQLITE_HEADER = b"SQLite format 3\x00"

#: Seconds a connection waits for another's lock before giving up.
_BUSY_SECONDS = 30.0

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    answer TEXT NOT NULL,
    parent INTEGER,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    finished TEXT NOT NULL,
    UNIQUE (kind, key)
);
"""

#: The columns of :meth:`JobStore.log`, in order.
LOG_FIELDS = ("id", "kind", "key", "parent", "nodes", "seconds", "worker", "finished")


class JobStoreError(ClobbermaniaError):
    """A job store that cannot be opened or written: missing (where it must exist), not
    SQLite, of another kind or schema version, damaged, or in a place that cannot be
    written. The message is one sentence; a file refused is left unchanged."""


def default_store_path() -> Path:
    """Where the job store lives unless ``--store`` says otherwise:
    ``$XDG_CACHE_HOME/clobbermania/jobs.sqlite``, or ``~/.cache/clobbermania/jobs.sqlite``.

    >>> default_store_path().parts[-2:]
    ('clobbermania', 'jobs.sqlite')
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "clobbermania" / "jobs.sqlite"


def _now() -> str:
    """The current UTC time, ISO 8601 to the millisecond."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _refuse(path: Path, why: str) -> JobStoreError:
    return JobStoreError(f"{path} is not a usable clobbermania job store ({why}); "
                         "the file was left unchanged")


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the SQLite file at ``path`` that leaves no trace: SQLite
    reading a WAL-mode file creates its ``-wal`` and ``-shm`` files and leaves them
    behind, so a file whose ``-wal`` is absent (no writer has it open, none crashed with
    commits not yet copied back) is read as immutable, which creates nothing."""
    uri = path.resolve().as_uri()
    wal = path.with_name(path.name + "-wal")
    mode = "immutable=1" if not wal.exists() else "mode=ro"
    return sqlite3.connect(f"{uri}?{mode}", uri=True, timeout=_BUSY_SECONDS)


def _check_existing(path: Path) -> None:
    """Refuse, with one sentence, a file at ``path`` that is not a sound job store of this
    schema version; the file is opened read-only, so it is left as it was."""
    try:
        with open(path, "rb") as fh:
            header = fh.read(len(_SQLITE_HEADER))
    except IsADirectoryError:
        raise JobStoreError(f"{path} is a directory, not a job store file") from None
    except OSError as exc:
        raise JobStoreError(f"cannot read the job store {path} ({exc.strerror})") from None
    if header != _SQLITE_HEADER:
        raise _refuse(path, "the file is empty" if not header else "not an SQLite file")
    try:
        con = _connect_read_only(path)
    except sqlite3.Error as exc:
        raise JobStoreError(f"cannot open the job store {path} ({exc})") from None
    try:
        try:
            tables = {name for (name,) in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            meta = (dict(con.execute("SELECT key, value FROM meta"))
                    if "meta" in tables else {})
        except sqlite3.OperationalError as exc:
            if "unable to open" in str(exc) or "readonly" in str(exc):
                raise JobStoreError(f"cannot read the job store {path} ({exc})") from None
            raise _refuse(path, f"damaged: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise _refuse(path, f"damaged: {exc}") from None
        if meta.get("kind") != STORE_KIND:
            raise _refuse(path, "an SQLite file of another kind, without the meta row "
                          f"kind = '{STORE_KIND}'")
        version = meta.get("schema_version")
        if version != str(SCHEMA_VERSION):
            raise _refuse(path, ("no schema version" if version is None else
                                 f"schema version {version}")
                          + f", and this clobbermania reads version {SCHEMA_VERSION}")
        try:
            problems = [row[0] for row in con.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            raise _refuse(path, f"damaged: {exc}") from None
        if problems != ["ok"]:
            raise _refuse(path, f"damaged: {problems[0]}")
        if "jobs" not in tables:
            raise _refuse(path, "damaged: its jobs table is missing")
    finally:
        con.close()


def _create(path: Path) -> None:
    """Write a new, empty store at ``path``: built under a temporary name in the same
    directory and linked into place, so a store is either complete or absent (a crash
    while creating leaves no half-made file), and a store another process created
    meanwhile is kept."""
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:   # (mkdir's "File exists" would not say which)
            raise JobStoreError(f"cannot create the job store {path} ({path.parent} is a "
                                "file, not a directory)") from None
        tmp_name = str(path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp")
        # the permissions of any new file (0666 less the umask), not mkstemp's 0600
        fd = os.open(tmp_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise JobStoreError(f"cannot create the job store {path} "
                            f"({exc.strerror or exc})") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        con = sqlite3.connect(tmp)
        try:
            con.execute("PRAGMA journal_mode = WAL")
            con.executescript(_SCHEMA)
            con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
                ("kind", STORE_KIND), ("schema_version", str(SCHEMA_VERSION)),
                ("created", _now())])
            con.commit()
        finally:
            con.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process created the store meanwhile: use that one
        except OSError:   # a file system without hard links: rename, unless one appeared
            if not path.exists():
                os.rename(tmp, path)
    except (OSError, sqlite3.Error) as exc:
        raise JobStoreError(f"cannot create the job store {path} "
                            f"({getattr(exc, 'strerror', None) or exc})") from None
    finally:
        tmp.unlink(missing_ok=True)


class JobStore:
    """An open job store (see the module's docstring); open one with :meth:`open`.

    Use it as a context manager, or call :meth:`close`.
    """

    path: Path
    read_only: bool

    def __init__(self, path: Path, con: sqlite3.Connection, read_only: bool) -> None:
        self.path = path
        self.read_only = read_only
        self._con: sqlite3.Connection | None = con

    @classmethod
    def open(cls, path: str | Path | None = None, *, read_only: bool = False) -> JobStore:
        """Open the store at ``path`` (default: :func:`default_store_path`), creating it
        (and its parent directories) when there is none, unless ``read_only``.

        Refused with :class:`JobStoreError` (one sentence; an existing file is left
        byte for byte as it was): a file that is not SQLite, an SQLite file of another
        kind or of another schema version, a damaged file (``PRAGMA quick_check``), a
        directory, a place that cannot be written (unless ``read_only``), and, with
        ``read_only``, a missing file.

        >>> import tempfile, pathlib
        >>> where = pathlib.Path(tempfile.mkdtemp())
        >>> JobStore.open(where / "none.sqlite", read_only=True)
        Traceback (most recent call last):
        ...
        clobbermania.distributed.store.JobStoreError: no job store at .../none.sqlite
        >>> _ = (where / "notes.txt").write_text("not a store")
        >>> JobStore.open(where / "notes.txt")
        Traceback (most recent call last):
        ...
        clobbermania.distributed.store.JobStoreError: .../notes.txt is not a usable \
clobbermania job store (not an SQLite file); the file was left unchanged
        """
        path = Path(path).expanduser() if path is not None else default_store_path()
        if not path.exists() and not path.is_symlink():
            if read_only:
                raise JobStoreError(f"no job store at {path}")
            _create(path)
        _check_existing(path)
        try:
            if read_only:
                con = _connect_read_only(path)
            else:
                if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
                    raise JobStoreError(
                        f"the job store {path} cannot be written (no write permission "
                        "on the file or its directory)")
                con = sqlite3.connect(path, timeout=_BUSY_SECONDS)
                con.execute("PRAGMA journal_mode = WAL")
                con.execute("PRAGMA synchronous = NORMAL")
            con.execute("SELECT count(*) FROM jobs").fetchone()
        except sqlite3.Error as exc:
            raise JobStoreError(f"cannot open the job store {path} ({exc})") from None
        return cls(path, con, read_only)

    # -- reading -------------------------------------------------------------------------

    @property
    def _db(self) -> sqlite3.Connection:
        if self._con is None:
            raise JobStoreError(f"the job store {self.path} is closed")
        return self._con

    def _query(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.DatabaseError as exc:
            raise JobStoreError(f"cannot read the job store {self.path} ({exc})") from None

    def meta(self) -> dict[str, str]:
        """The store's ``meta`` rows: kind, schema_version, created (ISO 8601, UTC)."""
        return dict(self._query("SELECT key, value FROM meta"))

    def get(self, kind: str, key: str) -> dict | None:
        """The answer of the finished job (``kind``, ``key``), or None when none is stored.
        """
        row = self._query("SELECT answer FROM jobs WHERE kind = ? AND key = ?",
                          (kind, key)).fetchone()
        return None if row is None else self._answer(kind, key, row[0])

    def _answer(self, kind: str, key: str, text: Any) -> dict:
        """A stored answer read back: a JSON object, or JobStoreError (one sentence) for
        a row that is not (a store written by hand or damaged past PRAGMA quick_check)."""
        try:
            answer = json.loads(text)
        except (TypeError, ValueError) as exc:
            why = f"not JSON: {exc}"
        else:
            if isinstance(answer, dict):
                return answer
            why = "not a JSON object"
        raise JobStoreError(f"the job store {self.path} is damaged: the answer of its job "
                            f"{kind} {key} is {why}; move the store aside, or pass another "
                            "--store")

    def job_id(self, kind: str, key: str) -> int | None:
        """The id of the finished job (``kind``, ``key``), or None when none is stored (a
        resumed driver names it as the parent of the jobs it splits into)."""
        row = self._query("SELECT id FROM jobs WHERE kind = ? AND key = ?",
                          (kind, key)).fetchone()
        return None if row is None else row[0]

    def count(self, kind: str | None = None) -> int:
        """The number of finished jobs (of ``kind``, when given)."""
        if kind is None:
            return self._query("SELECT count(*) FROM jobs").fetchone()[0]
        return self._query("SELECT count(*) FROM jobs WHERE kind = ?", (kind,)).fetchone()[0]

    def kinds(self) -> dict[str, dict[str, Any]]:
        """Per kind (sorted): its jobs, their total nodes and seconds, and the first and
        last finishing times."""
        rows = self._query(
            "SELECT kind, count(*), sum(nodes), sum(seconds), min(finished), max(finished)"
            " FROM jobs GROUP BY kind ORDER BY kind")
        return {kind: {"jobs": n, "nodes": nodes, "seconds": round(seconds, 6),
                       "first": first, "last": last}
                for kind, n, nodes, seconds, first, last in rows}

    def iter_jobs(self, kind: str | None = None, *, answers: bool = False
                  ) -> Iterator[dict[str, Any]]:
        """Every finished job (of ``kind``, when given) in the order they finished, as a
        dict of :data:`LOG_FIELDS`, plus ``answer`` when ``answers``. Rows are read as
        they are yielded, so a store of millions of jobs streams."""
        cols = ", ".join(LOG_FIELDS) + (", answer" if answers else "")
        where, args = ("WHERE kind = ?", (kind,)) if kind is not None else ("", ())
        cursor = self._query(f"SELECT {cols} FROM jobs {where} ORDER BY id", args)
        names = (*LOG_FIELDS, "answer") if answers else LOG_FIELDS
        for row in cursor:
            job = dict(zip(names, row, strict=True))
            if answers:
                job["answer"] = self._answer(job["kind"], job["key"], job["answer"])
            yield job

    def log(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The job log: every finished job (of ``kind``, when given) in finishing order,
        with its id, kind, key, parent, nodes, seconds, worker and finishing time (ISO
        8601, UTC), as a benchmark replays it in a simulated cluster."""
        return list(self.iter_jobs(kind))

    # -- writing -------------------------------------------------------------------------

    def put(self, kind: str, key: str, answer: dict, *, nodes: int, seconds: float,
            parent: int | None = None, worker: str = "") -> int:
        """Store the finished job (``kind``, ``key``) with its ``answer`` (a JSON object)
        and commit; return its id. When the job is already stored, the first answer is
        kept and its id returned (two runs of one job give one answer).

        ``parent`` is the id of the job this one was split from (None for a root job),
        ``worker`` names what ran it. Refused with one sentence: an empty kind or key, an
        answer that is not a JSON object, negative nodes or seconds, a read-only store.
        """
        if self.read_only:
            raise JobStoreError(f"the job store {self.path} was opened read-only")
        if not isinstance(kind, str) or not kind or not isinstance(key, str) or not key:
            raise JobStoreError(f"a job's kind and key are non-empty texts, not "
                                f"{kind!r} and {key!r}")
        if not isinstance(answer, dict):
            raise JobStoreError(f"the answer of job {kind} {key} is not a JSON object")
        try:
            text = json.dumps(answer, ensure_ascii=False, allow_nan=False,
                              separators=(",", ":"))
        except (TypeError, ValueError) as exc:
            raise JobStoreError(f"the answer of job {kind} {key} is not JSON data "
                                f"({exc})") from None
        if (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0
                or not isinstance(seconds, (int, float)) or not math.isfinite(seconds)
                or seconds < 0):
            raise JobStoreError(f"job {kind} {key}: nodes is a count and seconds a "
                                f"finite time, not {nodes!r} and {seconds!r}")
        if parent is not None and (isinstance(parent, bool) or not isinstance(parent, int)):
            raise JobStoreError(f"job {kind} {key}: the parent is a job id, not {parent!r}")
        con = self._db
        try:
            with con:  # one transaction, committed on leaving
                con.execute(
                    "INSERT INTO jobs (kind, key, answer, parent, nodes, seconds, worker,"
                    " finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (kind, key) DO NOTHING",
                    (kind, key, text, parent, nodes, float(seconds), str(worker), _now()))
                row = con.execute("SELECT id FROM jobs WHERE kind = ? AND key = ?",
                                  (kind, key)).fetchone()
        except sqlite3.Error as exc:
            raise JobStoreError(f"cannot write the job store {self.path} ({exc})") from None
        return row[0]

    def set_parent(self, kind: str, keys: list[str], parent: int) -> int:
        """Make job ``parent`` the parent of the stored jobs (``kind``, key) for ``keys``
        that have none yet, and commit; return how many rows changed. A driver whose
        answer for a job is known only after its children's (a Grundy value is the mex
        of its options' values) stores the children first and names their parent here.

        >>> import tempfile, pathlib
        >>> with JobStore.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite") as store:
        ...     child = store.put("grundy-value", "xo", {"grundy": 1}, nodes=1, seconds=0)
        ...     top = store.put("grundy-value", "xoxo", {"grundy": 3}, nodes=9, seconds=0)
        ...     store.set_parent("grundy-value", ["xo", "oo"], top), store.log()[0]["parent"]
        (1, 2)
        """
        if self.read_only:
            raise JobStoreError(f"the job store {self.path} was opened read-only")
        if isinstance(parent, bool) or not isinstance(parent, int):
            raise JobStoreError(f"a parent is a job id, not {parent!r}")
        con = self._db
        try:
            with con:
                changed = con.executemany(
                    "UPDATE jobs SET parent = ? WHERE kind = ? AND key = ? AND parent IS NULL"
                    " AND id != ?", [(parent, kind, key, parent) for key in keys]).rowcount
        except sqlite3.Error as exc:
            raise JobStoreError(f"cannot write the job store {self.path} ({exc})") from None
        return changed

    # -- closing -------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (a closed store refuses every call; closing twice is
        harmless)."""
        if self._con is not None:
            self._con.close()
            self._con = None

    def __enter__(self) -> JobStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._con is None else ("read-only" if self.read_only else "open")
        return f"<JobStore {self.path} ({state})>"


__all__ = ["SCHEMA_VERSION", "STORE_KIND", "LOG_FIELDS", "JobStore", "JobStoreError",
           "default_store_path"]
