"""The row database: the Grundy value of every hole-free row of impartial Clobber.

Impartial Clobber (the French study *Un jeu combinatoire : le Clobber*): either player
moves a stone of either colour onto an adjacent stone of the other colour; whoever cannot
move loses. A row's Grundy value is the mex of its options' values, and a move splits the
row into two rows whose values XOR (Sprague-Grundy). Every option of a hole-free row is a
pair of shorter hole-free rows, so the values are computed length by length
(:mod:`clobbermania.clobber._row_kernels` has the rule and the numba kernel).

Encoding (fixed by issue 4): a row of L stones is the integer whose bit j is 1 iff stone
j, counted from the left from 0, is ``x``; rows are ordered by (length, that integer).

Symmetry: swapping the colours of every stone keeps the value, so only rows whose last
stone is ``o`` (index < 2^(L-1)) are stored, in index order: the file of length L is
2^(L-1) bytes, one ``uint8`` value per row, and the value of index ``i >= 2^(L-1)`` is
that of ``i ^ (2^L - 1)``. Reversal also keeps the value (checked on all 30-stone rows),
but it is not used: the index of a reversed row is a bit reversal, so a reversal-halved
file could not be indexed by the row's integer, and filling the other half of a length
from its reversed rows is a scattered gather that alone took 46 s at 30 stones (2 threads,
shared machine) -- longer than computing the whole length (32 s), so it cannot pay.

Files: ``rowsNN.u8`` for each length NN and ``manifest.json`` (format, version, encoding,
symmetry, and per length the file name, rows, sha256 and counts of each value). Each file
is written to a temporary name, fsynced and renamed over the old one, and the manifest is
rewritten the same way after each length, so a build killed at any moment leaves a
database of complete lengths; the next build checks their checksums and resumes after the
last good one. Rows are independent, so the bytes do not depend on ``jobs``.

Example (a tiny database in a temporary directory):

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     db = build_database(d, max_stones=10, jobs=1)
...     db.value("xoxo"), db.value("xxoo"), db.value_of_index(4, 0b0101), db.max_stones
(3, 0, 3, 10)
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ClobbermaniaError, NotationError, UnsupportedError
from ..limits import memory_room
from . import _row_kernels as _k
from ._dbfiles import (
    MANIFEST,
    build_jobs,
    build_lock,
    cache_dir,
    consecutive_entries,
    hashes_ok,
    plain_file_name,
    read_manifest,
    write_atomic,
    write_json_atomic,
)

FORMAT = "clobbermania-rowdb"
VERSION = 1
ENCODING = ("bit j of a row's index is 1 iff stone j (from the left, j = 0..L-1) is x; "
            "rows ordered by (length, index); one uint8 value per row")
SYMMETRY = ("colour swap: only rows whose last stone is o (index < 2^(L-1)) are stored; "
            "index i >= 2^(L-1) has the value of i ^ (2^L - 1)")

#: Above 32 stones a row can have 64 options, so values could leave the kernel's 64-bit
#: mex mask (the kernel detects it); 2^36 bytes of tables is beyond any machine we target.
MAX_STONES = 36

#: Rows per kernel call during a build: the progress bar moves between calls (a multiple
#: of the blocked kernel's block).
PIECE = 1 << 22

_BLACK = frozenset("xX●")
_WHITE = frozenset("oO○")


class RowDatabaseError(ClobbermaniaError):
    """A row database that is missing, damaged, locked, or does not cover a request."""


def default_db_dir() -> Path:
    """Where the database lives unless ``--db`` says otherwise:
    ``$XDG_CACHE_HOME/clobbermania/rows``, or ``~/.cache/clobbermania/rows``.

    >>> default_db_dir().parts[-2:]
    ('clobbermania', 'rows')
    """
    return cache_dir("rows")


def row_index(row: str) -> tuple[int, int]:
    """(length, index) of a hole-free row written with ``x``/``o`` (also ``X O ● ○``).

    >>> row_index("xoo"), row_index("oox")
    ((3, 1), (3, 4))
    """
    index = 0
    for j, ch in enumerate(row):
        if ch in _BLACK:
            index |= 1 << j
        elif ch not in _WHITE:
            raise NotationError(
                f"a database row is a hole-free string of x and o, and {row!r} has "
                f"{ch!r} at position {j + 1}")
    return len(row), index


def row_text(length: int, index: int) -> str:
    """The row of ``length`` stones with ``index`` (inverse of :func:`row_index`).

    >>> row_text(3, 1), row_text(4, 0b1010)
    ('xoo', 'oxox')
    """
    if length < 0 or not 0 <= index < (1 << length):
        raise NotationError(f"no row of {length} stones has index {index}")
    return "".join("x" if index >> j & 1 else "o" for j in range(length))


def _file_name(length: int) -> str:
    return f"rows{length:02d}.u8"


def _read_manifest(db_dir: Path) -> dict | None:
    manifest = read_manifest(db_dir, FORMAT, VERSION, RowDatabaseError, "row database",
                             "row database")
    if manifest is None:
        return None
    path = db_dir / MANIFEST
    lengths = manifest.get("lengths", [])
    if not isinstance(lengths, list) or not all(isinstance(e, dict) for e in lengths):
        raise RowDatabaseError(f"the row database manifest {path} is damaged: its lengths "
                               "are not a list of entries")
    for entry in lengths:
        name = entry.get("file")
        if not plain_file_name(name):
            raise RowDatabaseError(f"the row database manifest {path} is damaged: the file "
                                   f"{str(name)[:40]!r} is not a file name inside {db_dir}")
    return manifest


def _new_manifest() -> dict:
    return {"format": FORMAT, "version": VERSION, "encoding": ENCODING,
            "symmetry": SYMMETRY, "max_stones": 0, "lengths": []}


def _value_counts(table: np.ndarray) -> list[int]:
    counts = _k.histogram(table, 0, table.shape[0])
    nz = np.nonzero(counts)[0]
    return [int(c) for c in counts[: (nz[-1] + 1 if nz.size else 0)]]


@dataclass
class BuildReport:
    """What one :func:`build_database` call did."""

    db_dir: Path
    max_stones: int
    resumed_from: int  #: lengths 1..resumed_from were already complete (checksums checked)
    built: list[int] = field(default_factory=list)  #: lengths computed by this call
    seconds_by_length: dict[int, float] = field(default_factory=dict)
    seconds: float = 0.0  #: whole call, loading and writing included
    jobs: int = 1  #: threads used
    rows_computed: int = 0  #: stored rows computed (each stands for two rows)


def build_database(db_dir: str | os.PathLike | None = None, max_stones: int = 27,
                   jobs: int | None = None,
                   progress: Callable[[int, int, int], None] | None = None) -> RowDatabase:
    """Build (or extend, or finish) the row database in ``db_dir`` up to ``max_stones``.

    Lengths already complete in the directory are checked against their sha256 and kept;
    a damaged or missing length is rebuilt together with every longer one. ``jobs``
    threads (default ``os.cpu_count()``; at most the cores numba may use) share each
    length. ``progress(done_rows, total_rows, length)`` is called between pieces of work.
    Needs ``2^max_stones`` bytes of memory. Returns the opened database, whose
    ``build_report`` says what was done.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     db = build_database(d, max_stones=8, jobs=1)
    ...     db.build_report.built == list(range(1, 9)), build_database(d, 8).build_report.built
    (True, [])
    """
    import numba

    t_start = time.perf_counter()
    if not isinstance(max_stones, int) or not 1 <= max_stones <= MAX_STONES:
        raise UnsupportedError(f"--max-stones must be between 1 and {MAX_STONES}, "
                               f"not {max_stones}")
    jobs = min(build_jobs(jobs, "threads"), numba.config.NUMBA_NUM_THREADS)
    db_dir = Path(db_dir) if db_dir is not None else default_db_dir()
    with build_lock(db_dir, RowDatabaseError):
        manifest = _read_manifest(db_dir) or _new_manifest()
        entries = _good_prefix(manifest)
        # lengths beyond the request stay as they are (they only depend on shorter ones,
        # which are rebuilt bit-identical if damaged)
        tail = entries[max_stones:]
        for i, entry in enumerate(tail):  # a longer length whose file is gone is dropped
            if not (db_dir / entry["file"]).is_file():
                tail = tail[:i]
                break
        report = BuildReport(db_dir=db_dir, max_stones=max(len(entries), max_stones),
                             resumed_from=min(len(entries), max_stones), jobs=jobs)
        if len(entries) >= max_stones and hashes_ok(db_dir, entries[:max_stones]) \
                and all((db_dir / e["file"]).is_file() for e in manifest["lengths"]):
            report.seconds = time.perf_counter() - t_start
            db = RowDatabase.open(db_dir)
            db.build_report = report
            return db
        need = 1 << max_stones
        room = memory_room()
        if need > room:
            raise RowDatabaseError(
                f"building to {max_stones} stones needs {need / 2**30:.1f} GiB of memory "
                f"and only {room / 2**30:.1f} GiB is left under the memory bound (40 % of "
                "the machine's memory)")
        flat = np.zeros(need, np.uint8)  # flat[0] = 0 is the empty row
        entries = _load_lengths(db_dir, entries[:max_stones], flat)
        done = len(entries)
        report.resumed_from = done
        manifest["lengths"] = entries
        manifest["max_stones"] = done

        total = sum(1 << (n - 1) for n in range(done + 1, max_stones + 1))
        finished = 0
        prefix = None
        old_threads = numba.get_num_threads()
        numba.set_num_threads(jobs)
        try:
            for length in range(done + 1, max_stones + 1):
                t0 = time.perf_counter()
                rows = 1 << (length - 1)
                # the blocked kernel needs every option value below 64: true when every
                # shorter value is below 32 (an XOR of two stays below 64)
                top_value = max((len(e["value_counts"]) - 1 for e in entries), default=0)
                blocked = length > _k.BLOCK_BITS + 1 and top_value < 32
                if blocked and prefix is None:
                    prefix = _k.prefix_tables(flat, _k.BLOCK_BITS)
                for start in range(0, rows, PIECE):
                    stop = min(start + PIECE, rows)
                    if blocked:
                        _k.build_rows_blocked(flat, length, start, stop, *prefix)
                    elif _k.build_rows(flat, length, start, stop) >= 64:
                        raise UnsupportedError(
                            f"rows of {length} stones have option values of 64 or more, "
                            "beyond the kernel's 64-bit mex mask")
                    finished += stop - start
                    if progress is not None:
                        progress(finished, total, length)
                table = flat[rows: 2 * rows]
                digest = hashlib.sha256(table).hexdigest()
                write_atomic(db_dir / _file_name(length), table)
                entries.append({"length": length, "file": _file_name(length),
                                "rows": 1 << length, "rows_stored": rows,
                                "sha256": digest, "value_counts": _value_counts(table)})
                if length == max_stones:
                    entries.extend(tail)
                manifest["max_stones"] = len(entries)
                write_json_atomic(db_dir / MANIFEST, manifest)
                report.built.append(length)
                report.rows_computed += rows
                report.seconds_by_length[length] = time.perf_counter() - t0
        finally:
            numba.set_num_threads(old_threads)
        if not report.built:  # nothing to build: the manifest loses its entries without files
            manifest["lengths"] = entries + tail
            manifest["max_stones"] = len(entries) + len(tail)
            write_json_atomic(db_dir / MANIFEST, manifest)
        del flat
        report.seconds = time.perf_counter() - t_start
        db = RowDatabase.open(db_dir)
        db.build_report = report
        return db


def _good_prefix(manifest: dict) -> list[dict]:
    """The manifest's entries for lengths 1, 2, ... as long as they are consecutive and
    their files exist with the right size (checksums are checked when loaded)."""
    return consecutive_entries(manifest.get("lengths", []), "length", 1)


def _load_lengths(db_dir: Path, entries: list[dict], flat: np.ndarray) -> list[dict]:
    """Read the complete lengths into ``flat``, checking each checksum; return the
    entries up to the first missing or damaged one (those after it are rebuilt)."""
    good: list[dict] = []
    for entry in entries:
        length = entry["length"]
        rows = 1 << (length - 1)
        path = db_dir / entry["file"]
        target = flat[rows: 2 * rows]
        try:
            with open(path, "rb") as fh:
                got = fh.readinto(memoryview(target))
                extra = fh.read(1)
        except OSError:
            break
        if got != rows or extra or hashlib.sha256(target).hexdigest() != entry["sha256"]:
            break
        good.append(entry)
    return good


class RowDatabase:
    """An opened row database: lookups by row, by (length, index), or vectorised.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = build_database(d, max_stones=6, jobs=1)
    ...     db = RowDatabase.open(d)
    ...     db.value("oxxo"), db.lookups(3, [0, 1, 2, 5]).tolist(), db.values(3).tolist()
    (0, [0, 2, 1, 1], [0, 2, 1, 2])
    """

    def __init__(self, db_dir: Path, manifest: dict):
        self.path = db_dir
        self.manifest = manifest
        self._entries = _good_prefix(manifest)
        self._tables: dict[int, np.ndarray] = {}
        self.build_report: BuildReport | None = None

    @classmethod
    def open(cls, db_dir: str | os.PathLike | None = None) -> RowDatabase:
        """Open the database in ``db_dir`` (default :func:`default_db_dir`)."""
        path = Path(db_dir) if db_dir is not None else default_db_dir()
        manifest = _read_manifest(path) if path.is_dir() else None
        if manifest is None or not _good_prefix(manifest):
            raise RowDatabaseError(
                f"no row database in {path}: run 'clobbermania grundy build --max-stones N"
                f"{'' if db_dir is None else ' --db ' + str(path)}' first")
        for entry in manifest["lengths"]:
            if not (path / entry["file"]).is_file():
                raise RowDatabaseError(f"the row database file {path / entry['file']} listed "
                                       "in its manifest is missing; rebuild with "
                                       "'clobbermania grundy build'")
        return cls(path, manifest)

    @property
    def max_stones(self) -> int:
        """Every hole-free row of at most this many stones is in the database."""
        return len(self._entries)

    def __repr__(self) -> str:
        return f"RowDatabase({str(self.path)!r}, max_stones={self.max_stones})"

    def _check_length(self, length: int) -> None:
        if not 0 <= length <= self.max_stones:
            raise RowDatabaseError(
                f"the row database in {self.path} covers rows of up to {self.max_stones} "
                f"stones, not {length}; extend it with 'clobbermania grundy build "
                f"--max-stones {max(length, 1)}'")

    def values(self, length: int) -> np.ndarray:
        """The stored table of ``length`` stones (read-only memory map): entry ``i`` is the
        value of index ``i``, for the 2^(length-1) rows whose last stone is ``o``."""
        self._check_length(length)
        if length == 0:
            raise RowDatabaseError("the empty row has no table (its value is 0)")
        table = self._tables.get(length)
        if table is None:
            entry = self._entries[length - 1]
            path = self.path / entry["file"]
            try:
                size = path.stat().st_size
            except OSError:
                raise RowDatabaseError(f"the row database file {path} is missing; rebuild "
                                       "with 'clobbermania grundy build'") from None
            if size != entry["rows_stored"]:
                raise RowDatabaseError(f"the row database file {path} has the wrong size; "
                                       "rebuild with 'clobbermania grundy build'")
            table = np.memmap(path, dtype=np.uint8, mode="r", shape=(entry["rows_stored"],))
            self._tables[length] = table
        return table

    def value_of_index(self, length: int, index: int) -> int:
        """Grundy value of the row of ``length`` stones with ``index`` (0 <= index < 2^L)."""
        self._check_length(length)
        if not 0 <= index < (1 << length):
            raise NotationError(f"no row of {length} stones has index {index}")
        if length == 0:
            return 0
        if index >> (length - 1):
            index ^= (1 << length) - 1
        return int(self.values(length)[index])

    def value(self, row: str) -> int:
        """Grundy value of a hole-free row of ``x`` and ``o`` (``""`` is the empty row).

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as d:
        ...     build_database(d, max_stones=4, jobs=1).value("xoox")
        0
        """
        length, index = row_index(row)
        return self.value_of_index(length, index)

    def lookups(self, length: int, indices: Sequence[int] | np.ndarray) -> np.ndarray:
        """Values of many rows of one length at once (``uint8`` array), by index."""
        self._check_length(length)
        idx = np.ascontiguousarray(indices, dtype=np.int64)
        if length == 0:
            if idx.size and (idx.min() != 0 or idx.max() != 0):
                raise NotationError("the only row of 0 stones has index 0")
            return np.zeros(idx.shape, np.uint8)
        if idx.size and (idx.min() < 0 or idx.max() >= (1 << length)):
            raise NotationError(f"row indices of {length} stones lie in 0..{(1 << length) - 1}")
        out = np.empty(idx.shape, np.uint8)
        _k.lookup_rows(self.values(length), length, idx.reshape(-1), out.reshape(-1))
        return out

    def verify(self) -> None:
        """Recompute every file's sha256 and compare it with the manifest."""
        for entry in self._entries:
            table = self.values(entry["length"])
            if hashlib.sha256(table).hexdigest() != entry["sha256"]:
                raise RowDatabaseError(f"{self.path / entry['file']} does not match its "
                                       "checksum; rebuild with 'clobbermania grundy build'")


# ---------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------

@dataclass
class RowStats:
    """Grundy values over a range of rows (each row counted once, both colour patterns).

    ``counts[v]``: rows of value v; ``distribution[v]``: the same in percent of ``rows``;
    ``losing_share_by_length[L]``: percent of the counted rows of L stones with value 0;
    ``counts_by_length[L]``: counts by value among those rows.
    """

    rows: int
    counts: list[int]
    distribution: list[float]
    losing_share_by_length: dict[int, float]
    rows_by_length: dict[int, int]
    counts_by_length: dict[int, list[int]]
    min_stones: int
    max_stones: int
    first: int | None = None

    def to_dict(self) -> dict:
        """JSON-ready: ``distribution`` (percent by value), ``losing_share_by_length``
        (length -> percent), ``rows``, counts."""
        return {"rows": self.rows, "min_stones": self.min_stones,
                "max_stones": self.max_stones, "first": self.first,
                "distribution": self.distribution, "counts": self.counts,
                "losing_share_by_length": {str(k): v
                                           for k, v in self.losing_share_by_length.items()},
                "rows_by_length": {str(k): v for k, v in self.rows_by_length.items()},
                "counts_by_length": {str(k): v for k, v in self.counts_by_length.items()}}


def _trim(counts: np.ndarray) -> list[int]:
    nz = np.nonzero(counts)[0]
    return [int(c) for c in counts[: (nz[-1] + 1 if nz.size else 0)]]


def row_statistics(db: RowDatabase, max_stones: int | None = None, first: int | None = None,
                   min_stones: int = 1) -> RowStats:
    """The distribution of Grundy values and the losing share by length.

    Rows are taken in the order of issue 4, (length, index), starting at ``min_stones``
    (default 1: the two one-stone rows ``x`` and ``o`` count, as the first rows of that
    order; the French table of losing shares starts at 2 stones, which is just its
    lengths from 2). ``max_stones`` (default: the database's) ends at a length;
    ``first=K`` takes the first K rows instead, the last length possibly in part. Each
    row counts once: a stored row stands for itself and its colour swap.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     s = row_statistics(build_database(d, max_stones=4, jobs=1), min_stones=2)
    ...     s.rows, s.counts, s.losing_share_by_length
    (28, [10, 8, 8, 2], {2: 50.0, 3: 25.0, 4: 37.5})
    """
    if max_stones is not None and first is not None:
        raise NotationError("give --max-stones or --first, not both")
    if not isinstance(min_stones, int) or min_stones < 1:
        raise NotationError(f"--min-stones must be at least 1, not {min_stones}")
    top = db.max_stones if max_stones is None else max_stones
    if first is None:
        if top < min_stones:
            raise NotationError(f"--max-stones {top} is below --min-stones {min_stones}")
        db._check_length(top)
    else:
        available = sum(1 << n for n in range(min_stones, db.max_stones + 1))
        if not 1 <= first <= available:
            raise RowDatabaseError(
                f"--first must be between 1 and {available} (the rows of {min_stones} to "
                f"{db.max_stones} stones in the database), not {first}")
    total = np.zeros(256, np.int64)
    by_length: dict[int, np.ndarray] = {}
    left = first
    length = min_stones
    while True:
        if first is None and length > top:
            break
        if first is not None and left == 0:
            break
        table = db.values(length)
        half = table.shape[0]
        take = 2 * half if left is None else min(left, 2 * half)
        # indices < half are stored as they are; index r >= half is the swap of
        # r ^ (2h - 1), so the indices half..take-1 are the stored 2h-take..h-1
        counts = _k.histogram(table, 0, min(take, half)).astype(np.int64)
        if take > half:
            counts += _k.histogram(table, 2 * half - take, half)
        by_length[length] = counts
        total += counts
        if left is not None:
            left -= take
        length += 1
    rows = int(total.sum())
    return RowStats(
        rows=rows,
        counts=_trim(total),
        distribution=[100.0 * c / rows for c in _trim(total)],
        losing_share_by_length={n: 100.0 * int(c[0]) / int(c.sum())
                                for n, c in by_length.items()},
        rows_by_length={n: int(c.sum()) for n, c in by_length.items()},
        counts_by_length={n: _trim(c) for n, c in by_length.items()},
        min_stones=min_stones, max_stones=max(by_length), first=first)


def plot_statistics(stats: RowStats, path: str | os.PathLike) -> None:
    """Draw the distribution of values and the losing share by length to ``path``
    (any format matplotlib writes: .png, .svg, .pdf). Needs the ``plots`` extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UnsupportedError("--plot needs matplotlib: pip install 'clobbermania[plots]'") \
            from None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    ax1.bar(range(len(stats.distribution)), stats.distribution, color="#4a6fa5")
    ax1.set_xlabel("Grundy value")
    ax1.set_ylabel("rows (%)")
    ax1.set_title(f"Grundy values of {stats.rows:,} rows")
    lengths = sorted(stats.losing_share_by_length)
    ax2.plot(lengths, [stats.losing_share_by_length[n] for n in lengths], "o-",
             color="#b5443a")
    ax2.set_xlabel("stones")
    ax2.set_ylabel("losing rows (value 0, %)")
    ax2.set_title("share of losing rows by length")
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except ValueError as exc:
        raise NotationError(f"cannot write the plot {path}: {exc}") from None
    finally:
        plt.close(fig)


__all__ = ["BuildReport", "RowDatabase", "RowDatabaseError", "RowStats", "build_database",
           "default_db_dir", "plot_statistics", "row_index", "row_statistics", "row_text"]
