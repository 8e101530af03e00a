"""The grid-part database: the Grundy value of every connected impartial Clobber part of
up to N squares, for the impartial search on grids.

Impartial Clobber (either player moves a stone of either colour onto an adjacent stone of
the other colour; :mod:`clobbermania.clobber.impartial`). A *part* is a connected set of
grid squares (a polyomino) holding stones of both colours; its Grundy value depends only
on the squares and colours, so a part is stored once under the key of the partizan part
database (:mod:`clobbermania.clobber.partdb`): the part cropped to its bounding box, the
least image under the 8 symmetries of the box and the colour swap (swapping the colours
keeps an impartial game), packed into one int64 (``h << 58 | w << 54 | stones << 12 |
colours``, :func:`clobbermania.clobber._partdb_kernels.pack`). The parts of n squares are
those of :func:`clobbermania.clobber.partdb.part_keys` (Redelmeier's enumeration of the
fixed polyominoes, every colouring, canonical, deduplicated).

**Valuing** (Sprague-Grundy): a part's value is the mex over its moves of the XOR of the
values of the parts the move leaves; a move removes a stone, so every such part is
smaller, and sizes are valued in increasing order, in parallel over the parts of a size
(:func:`clobbermania.clobber._impartial_kernels.value_parts`).

**Files**: ``keys.npy`` (int64, the sorted keys of the parts of 2 squares, then 3, ...),
``values.npy`` (uint8, the value of each key, same order) and ``manifest.json`` (format,
version, key encoding, per size its offset in the arrays, count, value counts and build
seconds, and the sha256 of both files). After each size both files are rewritten to a
temporary name, fsynced and renamed, then the manifest (:mod:`._dbfiles`), so a
build killed at any moment leaves the complete sizes, and the next build checks the
checksums and resumes after them. Opening maps the files into memory (``numpy.load``
with ``mmap_mode="r"``): the database is not read, only the pages a search touches.

Without a built database, :func:`default_parts` builds every part of up to
:data:`SMALL_SQUARES` squares in memory on first use (about 0.3 s), so a fresh checkout
answers with the same values (a database only saves search, it never changes a value).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     db = build_grid_parts(d, max_squares=5, jobs=1)
...     db.max_squares, db.count, db.value("xo/ox"), db.value("xox"), db.value("xx/o.")
(5, 166, 0, 1, 2)
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ClobbermaniaError, UnsupportedError
from ..stones import BLACK, WHITE, Position
from ._dbfiles import (
    MANIFEST,
    build_jobs,
    build_lock,
    cache_dir,
    fsync_dir,
    npy_bytes,
    read_manifest,
    sha256_file,
    write_atomic,
    write_json_atomic,
)

__all__ = ["GridPartDatabase", "GridPartDatabaseError", "GridPartsReport", "MAX_SQUARES",
           "SMALL_SQUARES", "build_grid_parts", "default_db_dir", "default_parts"]

FORMAT = "clobbermania-gridparts"
VERSION = 1
ENCODING = ("keys.npy: int64 packed part keys h << 58 | w << 54 | stones << 12 | colours of "
            "the canonical image (least (h, w, black, white) over the 8 symmetries of the "
            "bounding box and the colour swap), bit r*w+c of stones is square (r, c), bit j "
            "of colours is 1 iff the j-th stone in bit order is black; sorted within each "
            "size, sizes 2..N in order; values.npy: uint8 Grundy value of each key")
KEYS = "keys.npy"
VALUES = "values.npy"

#: The largest N a build accepts: the packed key holds parts of at most 12 squares.
#: Measured (BENCHMARKS.md): 10 squares, 2.7 million parts, 25 MB.
MAX_SQUARES = 12

#: The database built in memory when none is built on disk (:func:`default_parts`).
SMALL_SQUARES = 8


class GridPartDatabaseError(ClobbermaniaError):
    """A grid-part database that is missing, damaged, of another version, or locked."""


def default_db_dir() -> Path:
    """Where ``grundy build-parts`` writes unless ``--db`` says otherwise:
    ``$XDG_CACHE_HOME/clobbermania/grid-parts``, or ``~/.cache/clobbermania/grid-parts``.

    >>> default_db_dir().parts[-2:]
    ('clobbermania', 'grid-parts')
    """
    return cache_dir("grid-parts")


@dataclass
class GridPartsReport:
    """What one :func:`build_grid_parts` call did."""

    db_dir: Path | None
    max_squares: int
    resumed_from: int  #: sizes up to this one were already complete (checksums checked)
    built: list[int] = field(default_factory=list)  #: sizes valued by this call
    seconds_by_size: dict[int, float] = field(default_factory=dict)
    seconds: float = 0.0  #: the whole call
    jobs: int = 1


class GridPartDatabase:
    """Opened (or in-memory) grid-part values: lookups by part text, and the arrays the
    search kernels take (:meth:`arrays`).

    >>> db = GridPartDatabase.in_memory(4)
    >>> db.value("xoxo"), db.value("ox/xo"), db.value("xx/o.")   # MCGS: the 2x2 is 0
    (3, 0, 2)
    """

    def __init__(self, keys: np.ndarray, values: np.ndarray, offsets: np.ndarray,
                 path: Path | None, manifest: dict | None = None) -> None:
        self.keys = keys
        self.values = values
        self.offsets = offsets  #: keys of n squares are keys[offsets[n]:offsets[n + 1]]
        self.path = path
        self.manifest = manifest
        self.build_report: GridPartsReport | None = None

    @property
    def max_squares(self) -> int:
        return int(self.offsets.shape[0]) - 2

    @property
    def count(self) -> int:
        """The number of parts stored."""
        return int(self.keys.shape[0])

    def __repr__(self) -> str:
        where = self.path if self.path is not None else "memory"
        return f"GridPartDatabase({where}, {self.count:,} parts to {self.max_squares} squares)"

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(keys, values, offsets) as the kernels take them."""
        return self.keys, self.values, self.offsets

    @classmethod
    def in_memory(cls, max_squares: int = SMALL_SQUARES, jobs: int | None = None
                  ) -> GridPartDatabase:
        """Every part of up to ``max_squares`` squares, valued in memory (nothing written)."""
        return build_grid_parts(None, max_squares=max_squares, jobs=jobs)

    @classmethod
    def open(cls, db_dir: str | os.PathLike | None = None) -> GridPartDatabase:
        """The database in ``db_dir`` (default :func:`default_db_dir`), memory-mapped,
        after checking its manifest and the sha256 of its files."""
        db_dir = Path(db_dir) if db_dir is not None else default_db_dir()
        manifest = _read_manifest(db_dir)
        if manifest is None or not manifest["sizes"]:
            raise GridPartDatabaseError(
                f"no grid-part database in {db_dir} (build one with `clobbermania grundy "
                "build-parts --max-squares 10`)")
        if not _files_ok(db_dir, manifest):
            raise GridPartDatabaseError(f"the grid-part database in {db_dir} is damaged (a "
                                        "checksum does not match): build it again")
        keys = np.load(db_dir / KEYS, mmap_mode="r")
        values = np.load(db_dir / VALUES, mmap_mode="r")
        return cls(np.asarray(keys), np.asarray(values), _offsets(manifest), db_dir, manifest)

    def value(self, part: str) -> int:
        """The stored Grundy value of a connected part written as a grid (``x``, ``o``,
        holes ``.``), of 2 to :attr:`max_squares` stones with both colours."""
        from . import _impartial_kernels as K

        pos = Position.from_string(part)
        board = pos.board
        b = sum(1 << v for v, c in enumerate(pos.cells) if c == BLACK)
        w = sum(1 << v for v, c in enumerate(pos.cells) if c == WHITE)
        n = (b | w).bit_count()
        if not b or not w or not 2 <= n <= self.max_squares or board.n > 64:
            raise UnsupportedError(
                f"{part!r} is not a part of 2 to {self.max_squares} stones with both colours "
                "on at most 64 squares")
        g = int(K.part_value(np.uint64(b), np.uint64(w), board.rows, board.cols,
                             *self.arrays()))
        if g < 0:
            raise UnsupportedError(f"{part!r} is not stored: its stones are not connected")
        return g

    def verify(self, sample: int = 1000, seed: int = 0) -> int:
        """Check ``sample`` random stored parts against the plain mex search (no database);
        return how many were checked, raise :class:`GridPartDatabaseError` on a mismatch."""
        from . import _partdb_kernels as P
        from .impartial import GrundySolver

        rng = np.random.default_rng(seed)
        solver = GrundySolver(parts=None)
        picks = rng.choice(self.count, size=min(sample, self.count), replace=False)
        for i in picks.tolist():
            h, w, b, x = (int(v) for v in P.unpack(np.int64(self.keys[i])))
            cells = bytes(1 if b >> v & 1 else 2 if x >> v & 1 else 0 for v in range(h * w))
            text = "/".join("".join(".xo"[c] for c in cells[r * w:(r + 1) * w])
                            for r in range(h))
            got = solver.value(Position.from_string(text))
            if got != int(self.values[i]):
                raise GridPartDatabaseError(f"the part {text} is stored with value "
                                            f"{int(self.values[i])}, the search gives {got}")
        return int(picks.shape[0])


def _offsets(manifest: dict) -> np.ndarray:
    top = manifest["max_squares"]
    off = np.zeros(top + 2, dtype=np.int64)
    for entry in manifest["sizes"]:
        n = entry["squares"]
        off[n] = entry["offset"]
        off[n + 1] = entry["offset"] + entry["count"]
    return off


def _new_manifest() -> dict:
    return {"format": FORMAT, "version": VERSION, "encoding": ENCODING, "max_squares": 1,
            "sizes": [], "files": {}}


def _read_manifest(db_dir: Path) -> dict | None:
    manifest = read_manifest(db_dir, FORMAT, VERSION, GridPartDatabaseError, "grid-part",
                             "grid-part database")
    if manifest is None:
        return None
    path = db_dir / MANIFEST
    sizes = manifest.get("sizes")
    if not isinstance(sizes, list) or [e.get("squares") for e in sizes] != \
            list(range(2, 2 + len(sizes))):
        raise GridPartDatabaseError(f"the grid-part manifest {path} is damaged: its sizes "
                                    "are not 2, 3, ... in order")
    return manifest


def _files_ok(db_dir: Path, manifest: dict) -> bool:
    files = manifest.get("files", {})
    return all(sha256_file(db_dir / name) == files.get(name) for name in (KEYS, VALUES))


def build_grid_parts(db_dir: str | os.PathLike | None = None, max_squares: int = 10,
                     jobs: int | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     ) -> GridPartDatabase:
    """Build (or finish) the grid-part database in ``db_dir`` up to ``max_squares``
    squares; ``db_dir`` None builds in memory only (nothing written).

    Sizes already complete (checksums checked) are kept and the build resumes after them.
    ``jobs`` threads (default ``os.cpu_count()``) value each size; the files do not
    depend on it. ``progress(squares, max_squares)`` is called before each size. Returns
    the opened database, whose ``build_report`` says what was done.

    >>> db = build_grid_parts(None, max_squares=4)
    >>> db.count, db.build_report.built
    (30, [2, 3, 4])
    """
    import numba

    from . import _impartial_kernels as K
    from .partdb import part_keys

    t_start = time.perf_counter()
    if not isinstance(max_squares, int) or not 2 <= max_squares <= MAX_SQUARES:
        raise UnsupportedError(f"--max-squares must be between 2 and {MAX_SQUARES}, "
                               f"not {max_squares}")
    jobs = min(build_jobs(jobs, "threads"), numba.config.NUMBA_NUM_THREADS)
    path = Path(db_dir) if db_dir is not None else None
    with ExitStack() as stack:
        manifest = _new_manifest()
        keys = np.zeros(0, np.int64)
        values = np.zeros(0, np.uint8)
        if path is not None:
            stack.enter_context(build_lock(path, GridPartDatabaseError))
            old = _read_manifest(path)
            if old is not None and old["sizes"] and _files_ok(path, old):
                manifest = old
                keys = np.load(path / KEYS)
                values = np.load(path / VALUES)
        done = manifest["max_squares"]
        report = GridPartsReport(db_dir=path, max_squares=max(done, max_squares),
                                 resumed_from=done, jobs=jobs)
        old_threads = numba.get_num_threads()
        numba.set_num_threads(jobs)
        try:
            for n in range(done + 1, max_squares + 1):
                if progress is not None:
                    progress(n, max_squares)
                t0 = time.perf_counter()
                new = part_keys(n)
                off = _offsets(manifest)
                out = np.empty(new.shape[0], np.int64)
                K.value_parts(new, keys, values, off, out)
                if new.shape[0] and out.min() < 0:  # a missing smaller part: a bug, not input
                    raise GridPartDatabaseError(f"a part of {n} squares has an option part "
                                                "missing from the smaller sizes")
                entry = {"squares": n, "offset": int(keys.shape[0]),
                         "count": int(new.shape[0]),
                         "value_counts": np.bincount(out).tolist() if out.size else []}
                keys = np.concatenate([keys, new])
                values = np.concatenate([values, out.astype(np.uint8)])
                entry["seconds"] = round(time.perf_counter() - t0, 3)
                manifest["sizes"].append(entry)
                manifest["max_squares"] = n
                if path is not None:
                    for name, arr in ((KEYS, keys), (VALUES, values)):
                        data = npy_bytes(arr)
                        write_atomic(path / name, data)
                        manifest["files"][name] = hashlib.sha256(data).hexdigest()
                    write_json_atomic(path / MANIFEST, manifest)
                report.built.append(n)
                report.seconds_by_size[n] = time.perf_counter() - t0
        finally:
            numba.set_num_threads(old_threads)
        if path is not None:
            fsync_dir(path)
            db = GridPartDatabase.open(path)
        else:
            db = GridPartDatabase(keys, values, _offsets(manifest), None, manifest)
        report.seconds = time.perf_counter() - t_start
        db.build_report = report
        return db


_DEFAULT: list[GridPartDatabase | None] = []


def default_parts() -> GridPartDatabase | None:
    """The grid-part database the search uses by default: the one built in
    :func:`default_db_dir` when there is one (and it opens), else every part of up to
    :data:`SMALL_SQUARES` squares built in memory once per process.

    >>> default_parts().max_squares >= SMALL_SQUARES
    True
    """
    if not _DEFAULT:
        try:
            db = GridPartDatabase.open()
        except GridPartDatabaseError:
            db = GridPartDatabase.in_memory(SMALL_SQUARES)
        _DEFAULT.append(db)
    return _DEFAULT[0]
