"""File handling shared by the three databases: rows (:mod:`.rowdb`), Clobber parts
(:mod:`.partdb`) and impartial grid parts (:mod:`.gridparts`).

Each database keeps its own format constants, error class and sentences; this module holds,
once, what they do alike: the cache directory, the crash-safe write (temporary name, fsync,
rename, fsync of the directory), sha256 checks of files, the build lock, and reading a
manifest (JSON, format and version, file names that stay inside the directory).

>>> import tempfile
>>> from clobbermania.errors import ClobbermaniaError
>>> with tempfile.TemporaryDirectory() as d:
...     write_json_atomic(Path(d) / "manifest.json", {"format": "f", "version": 1})
...     m = read_manifest(Path(d), "f", 1, ClobbermaniaError, "demo", "demo database")
...     m["version"], sha256_file(Path(d) / "missing") is None
(1, True)
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ..errors import ClobbermaniaError, UnsupportedError

MANIFEST = "manifest.json"


def cache_dir(name: str) -> Path:
    """``$XDG_CACHE_HOME/clobbermania/<name>``, or ``~/.cache/clobbermania/<name>``.

    >>> cache_dir("rows").parts[-2:]
    ('clobbermania', 'rows')
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "clobbermania" / name


def fsync_dir(path: Path) -> None:
    """Flush a directory's entries (a rename in it) to disk, where the platform allows."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, data) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old or the new file:
    a temporary name in the same directory, fsync, rename, fsync of the directory."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def write_json_atomic(path: Path, manifest: dict) -> None:
    """:func:`write_atomic` of ``manifest`` as indented, key-sorted JSON (UTF-8)."""
    write_atomic(path, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def npy_bytes(a: np.ndarray) -> bytes:
    """The bytes of ``a`` as a ``.npy`` file (no pickles).

    >>> len(npy_bytes(np.zeros(3, np.uint8))) > 3
    True
    """
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    return buf.getvalue()


def sha256_file(path: Path) -> str | None:
    """The sha256 of a file (read in 16 MiB pieces), or None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 24):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def hashes_ok(db_dir: Path, entries: list[dict]) -> bool:
    """Whether every entry's ``file`` in ``db_dir`` exists and matches its ``sha256``."""
    return all(sha256_file(db_dir / e["file"]) == e["sha256"] for e in entries)


def build_jobs(jobs: int | None, unit: str) -> int:
    """The number of workers a build uses: ``jobs``, or the number of cores when None;
    anything but a positive whole number is refused ("--jobs must be a positive number of
    <unit>, not ...").

    >>> build_jobs(3, "threads"), build_jobs(None, "threads") >= 1
    (3, True)
    """
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise UnsupportedError(f"--jobs must be a positive number of {unit}, not {jobs}")
    return jobs


def consecutive_entries(entries: list[dict], key: str, first: int) -> list[dict]:
    """The leading ``entries`` whose ``key`` runs ``first``, ``first + 1``, ... without a gap
    (a database's complete lengths or sizes).

    >>> consecutive_entries([{"n": 2}, {"n": 3}, {"n": 5}], "n", 2)
    [{'n': 2}, {'n': 3}]
    """
    good: list[dict] = []
    for entry in entries:
        if entry.get(key) != len(good) + first:
            break
        good.append(entry)
    return good


def plain_file_name(name: object) -> bool:
    """Whether ``name`` names a file of the directory itself (no separator, no '..', not
    hidden), as a manifest may list.

    >>> plain_file_name("rows03.u8"), plain_file_name("../x"), plain_file_name(".lock")
    (True, False, False)
    """
    return isinstance(name, str) and bool(name) and "/" not in name and "\\" not in name \
        and not name.startswith(".") and name == Path(name).name


def read_manifest(db_dir: Path, fmt: str, version: int, error: type[ClobbermaniaError],
                  manifest_words: str, noun: str,
                  wrong_version: Callable[[object], str] | None = None) -> dict | None:
    """The manifest of ``db_dir`` checked for format ``fmt`` and ``version``; None when
    there is none. Refusals raise ``error``: "the <manifest_words> manifest <path> is
    unreadable (...)", "<path> is not a version-<version> clobbermania <noun> manifest",
    or, with ``wrong_version``, "<path> is not a clobbermania <noun> manifest" for another
    format and ``wrong_version(found)`` for another version."""
    path = db_dir / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise error(f"the {manifest_words} manifest {path} is unreadable ({exc})") from None
    if wrong_version is None:
        if not isinstance(manifest, dict) or manifest.get("format") != fmt \
                or manifest.get("version") != version:
            raise error(f"{path} is not a version-{version} clobbermania {noun} manifest")
        return manifest
    if not isinstance(manifest, dict) or manifest.get("format") != fmt:
        raise error(f"{path} is not a clobbermania {noun} manifest")
    if manifest.get("version") != version:
        raise error(wrong_version(manifest.get("version")))
    return manifest


@contextmanager
def build_lock(db_dir: Path, error: type[ClobbermaniaError]) -> Iterator[None]:
    """Hold ``db_dir``'s build lock (created with the directory) for a build, and remove
    the temporary files a killed build left; another build holding it raises ``error``."""
    import fcntl

    db_dir.mkdir(parents=True, exist_ok=True)
    with open(db_dir / ".lock", "a+b") as lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise error(f"another build is running in {db_dir}") from None
        for stray in db_dir.glob("*.tmp"):  # left by a killed build
            stray.unlink()
        yield
