"""The part database: the canonical value of every connected Clobber part up to N squares.

A *part* is a connected set of squares of the grid (a polyomino), each holding a black
(``x``, Left) or white (``o``, Right) stone, with both colours present (a one-coloured part
is 0). Its value is the canonical value :mod:`clobbermania.clobber.values` computes, and
the key is the one values.py uses: the part cropped to its bounding box, the least of its
images under the 8 symmetries of the box and their colour swaps (a swapped least image has
the negated value), so a part and its colour swap are stored once.

**Enumeration.** The shapes of n squares are the fixed polyominoes of n cells from
Redelmeier's algorithm (D. H. Redelmeier, *Counting polyominoes: yet another attack*,
Discrete Mathematics 36 (1981) 191-203: grow a polyomino cell by cell from an untried set,
each fixed polyomino met exactly once), cut down to one per symmetry class; each shape
gets every colouring with both colours, put in canonical form and deduplicated.

**Valuing.** Sizes are valued in increasing order: every option of a part of n stones is a
sum of parts of fewer stones (a move removes a stone and never joins parts), all valued
already. A size is valued in chunks by values.py's own machinery: the options of each part
from ``part_options`` (values.py's move generator, through
:func:`._partdb_kernels.list_options`), then :func:`values.value_listed` (sums of the
known part values, cgt's ``simplify_many`` kernel). Nothing else generates moves or
simplifies games.

**Files** (one set per size n = 2..N, all numpy ``.npy`` files, memory-mapped at load):

* ``partsNN-keys.npy``: int64, the sorted packed keys of the canonical parts of n squares
  (``h << 58 | w << 54 | stones << 12 | colours``, see :mod:`._partdb_kernels`);
* ``partsNN-value.npy``: uint16 (int32 past 65,536 games), per part the index of its value
  in the size's game table;
* ``partsNN-games.npy``: int64 rows (start, left count, outcome) per game of the table, one
  more row (end, 0, 0); the games are every value of the size and all their followers, in
  canonical form, children before parents; outcome 0 P, 1 N, 2 L, 3 R;
* ``partsNN-options.npy``: int32, the options of game i at ``start .. start + left count``
  (Left's) and ``.. next start`` (Right's), as indices of earlier games.

Loading rebuilds cgt games from the table exactly (stored options are canonical, so each
game is interned as it is). ``manifest.json`` holds the format, version, key encoding and
per size the files with their sha256, the counts and the build time. Files and manifest are
written to a temporary name, fsynced and renamed (:mod:`._dbfiles`), the manifest
after each size, so a build killed at any moment leaves complete sizes, and the next build
resumes after the last one whose checksums hold.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     rep = build_part_database(d, max_squares=4, jobs=1)
...     db = PartDatabase.open(d)
...     print(db.max_squares, db.count, db.value("xxo"), db.value("xo/ox"), db.value("oox"))
4 30 ^ * v
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..cgt import Game
from ..cgt import game as _cg
from ..errors import ClobbermaniaError, NotationError, UnsupportedError
from ..limits import interrupted, memory_room
from ..stones import Position
from . import _partdb_kernels as _pk
from . import values as _values
from ._clobber_kernels import canonical
from ._dbfiles import (
    MANIFEST,
    build_jobs,
    build_lock,
    cache_dir,
    consecutive_entries,
    fsync_dir,
    hashes_ok,
    npy_bytes,
    plain_file_name,
    read_manifest,
    write_atomic,
    write_json_atomic,
)

__all__ = ["BuildReport", "PartDatabase", "PartDatabaseError", "build_part_database",
           "default_db_dir", "part_keys", "fixed_polyominoes", "free_shapes", "MAX_SQUARES",
           "shipped_db_dir"]

FORMAT = "clobbermania-partdb"
VERSION = 1
ENCODING = ("part key: int64 h << 58 | w << 54 | stones << 12 | colours of the canonical "
            "image (the least (h, w, black, white) of the 8 box symmetries and their colour "
            "swaps); bit r*w+c of stones is square (r, c); bit j of colours is 1 iff the "
            "j-th stone in bit order is black (x)")

#: The largest N a build accepts: the largest measured (see BENCHMARKS.md, "The Clobber
#: part database"): 2.3 million parts of 10 squares, 25 CPU seconds from scratch and 1.1 GB of
#: memory. Parts of 11 squares would be about 7.5 times as many (memory grows alike).
MAX_SQUARES = 10

#: The canonical parts of n squares (found by :func:`part_keys`; the benchmark prints them).
PARTS_BY_SIZE = {2: 1, 3: 4, 4: 25, 5: 136, 6: 907, 7: 6_138, 8: 43_824, 9: 317_161,
                 10: 2_332_537}
#: Peak memory of a build per part up to its size (1,083 MB for the 2.7 million parts up
#: to 10 squares, most of it values.py's table of known parts), with some margin.
BYTES_PER_PART = 480

#: Parts valued per kernel call during a build (the progress bar moves between calls).
CHUNK = 20_000

_OUTCOMES = "PNLR"


class PartDatabaseError(ClobbermaniaError):
    """A part database that is missing, damaged, of another version, or locked."""


def default_db_dir() -> Path:
    """Where ``clobber build-db`` writes unless ``--db`` says otherwise:
    ``$XDG_CACHE_HOME/clobbermania/parts``, or ``~/.cache/clobbermania/parts``.

    >>> default_db_dir().parts[-2:]
    ('clobbermania', 'parts')
    """
    return cache_dir("parts")


def shipped_db_dir() -> Path:
    """The small database shipped with the package (package data: every part of up to
    :data:`SHIPPED_SQUARES` squares).

    >>> PartDatabase.open(shipped_db_dir()).max_squares == SHIPPED_SQUARES
    True
    """
    return Path(__file__).resolve().parent / "data" / "parts"


#: The size of the shipped database (see :func:`shipped_db_dir`).
SHIPPED_SQUARES = 8


# --- enumeration -----------------------------------------------------------------------

def fixed_polyominoes(max_n: int) -> list[list[tuple[int, int, int]]]:
    """The fixed polyominoes of 1..max_n cells by Redelmeier's algorithm (1981), each as
    (h, w, cells) with bit r * w + c of cells for square (r, c) of its h x w bounding box;
    entry n - 1 lists those of
    n cells (1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446 for n = 1..10, OEIS A001168).

    >>> [len(p) for p in fixed_polyominoes(6)]
    [1, 2, 6, 19, 63, 216]
    """
    stride = 2 * max_n + 1
    out: list[list[tuple[int, int, int]]] = [[] for _ in range(max_n)]
    origin = max_n              # cell (x, y) is y * stride + x + max_n, |x| < max_n
    poly: list[int] = []
    seen = {origin}

    def grow(untried: list[int]) -> None:
        # cells >= origin: above the first row, or in it at or right of the origin
        while untried:
            cell = untried.pop()
            poly.append(cell)
            ys = [c // stride for c in poly]
            xs = [c % stride for c in poly]
            y0, x0 = min(ys), min(xs)
            w = max(xs) - x0 + 1
            mask = 0
            for y, x in zip(ys, xs, strict=True):
                mask |= 1 << ((y - y0) * w + (x - x0))
            out[len(poly) - 1].append((max(ys) - y0 + 1, w, mask))
            if len(poly) < max_n:
                new = [nb for nb in (cell + 1, cell - 1, cell + stride, cell - stride)
                       if nb >= origin and nb not in seen]
                seen.update(new)
                grow(untried + new)
                seen.difference_update(new)
            poly.pop()

    grow([origin])
    return out


def free_shapes(n: int, fixed: list[tuple[int, int, int]] | None = None
                ) -> list[tuple[int, int, int]]:
    """One (h, w, cells) per polyomino of n cells up to the 8 symmetries (the least image,
    as values.py's ``canonical`` orders them), from the fixed ones (``fixed``, default
    :func:`fixed_polyominoes`); 1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655 for n = 1..10
    (OEIS A000105).

    >>> [len(free_shapes(n)) for n in range(1, 8)]
    [1, 1, 2, 5, 12, 35, 108]
    """
    if fixed is None:
        fixed = fixed_polyominoes(n)[n - 1]
    shapes: set[tuple[int, int, int]] = set()
    for h, w, mask in fixed:
        # the least image of the shape: as a one-coloured part, its swapped image wins
        kh, kw, kb, kx, _ = canonical(h, w, mask, 0)
        shapes.add((int(kh), int(kw), int(kb | kx)))
    return sorted(shapes)


def part_keys(n: int, shapes: list[tuple[int, int, int]] | None = None) -> np.ndarray:
    """The sorted packed keys of every canonical part of n squares (both colours present).

    >>> [len(part_keys(n)) for n in range(2, 6)]
    [1, 4, 25, 136]
    """
    if not 2 <= n <= _pk.MAX_PACKED_SQUARES:
        raise UnsupportedError(f"parts of {n} squares are outside 2..{_pk.MAX_PACKED_SQUARES}")
    if shapes is None:
        shapes = free_shapes(n)
    # different shapes never share a key (a key's stones are an image of its shape)
    chunks = [np.unique(_pk.canonical_keys(h, w, s, n)) for h, w, s in shapes]
    return np.sort(np.concatenate(chunks))


# --- the game table of a size --------------------------------------------------------------

def _export(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(value index per part, games, options) of the cgt ids ``ids``: the games are every
    id and its followers, ordered by birthday and, within a birthday, by their sorted
    option indices, so the table does not depend on cgt's ids (nor on jobs or resumes)."""
    birth = _cg._birth
    seen: set[int] = set(ids.tolist())
    todo = list(seen)
    opts: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    while todo:
        g = todo.pop()
        lr = _cg._opts(g)
        opts[g] = lr
        for c in lr[0] + lr[1]:
            if c not in seen:
                seen.add(c)
                todo.append(c)
    by_birth: dict[int, list[int]] = {}
    for g in seen:
        by_birth.setdefault(birth[g], []).append(g)
    index: dict[int, int] = {}
    rows: list[tuple[list[int], list[int], int]] = []
    objects = _cg._objects
    for b in sorted(by_birth):
        level = []
        for g in by_birth[b]:
            left, right = opts[g]
            level.append((sorted(index[c] for c in left), sorted(index[c] for c in right), g))
        level.sort()
        for lo, ro, g in level:
            index[g] = len(rows)
            rows.append((lo, ro, g))
    games = np.zeros((len(rows) + 1, 3), np.int64)
    flat: list[int] = []
    for i, (lo, ro, g) in enumerate(rows):
        games[i, 0] = len(flat)
        games[i, 1] = len(lo)
        games[i, 2] = _OUTCOMES.index(objects[g].outcome)
        flat.extend(lo)
        flat.extend(ro)
    games[len(rows), 0] = len(flat)
    dtype = np.uint16 if len(rows) <= 1 << 16 else np.int32
    value = np.fromiter((index[g] for g in ids.tolist()), dtype, ids.shape[0])
    return value, games, np.asarray(flat, np.int32)


def _rebuild(games: np.ndarray, options: np.ndarray, upto: int | None = None,
             memo: np.ndarray | None = None) -> np.ndarray:
    """cgt ids of the games of a table (all of them, or game ``upto`` and its followers),
    interning each from its canonical options; ``memo`` (-1 = not built) is filled."""
    count = games.shape[0] - 1
    if memo is None:
        memo = np.full(count, -1, np.int64)
    starts = games[:, 0]
    lefts = games[:, 1]
    if upto is None:
        todo = np.flatnonzero(memo < 0).tolist()
    else:
        need: set[int] = set()
        stack = [upto]
        while stack:
            i = stack.pop()
            if i in need or memo[i] >= 0:
                continue
            need.add(i)
            stack.extend(options[starts[i]:starts[i + 1]].tolist())
        todo = sorted(need)
    if not todo:
        return memo
    intern = _cg._intern
    if upto is not None:        # a few games: read and write the memo in place
        for i in todo:
            o = [int(memo[j]) for j in options[starts[i]:starts[i + 1]].tolist()]
            nl = int(lefts[i])
            memo[i] = intern(o[:nl], o[nl:])
        return memo
    ids = memo.tolist()
    st = starts.tolist()
    nls = lefts.tolist()
    for i in todo:
        o = options[st[i]:st[i + 1]].tolist()
        nl = nls[i]
        ids[i] = intern([ids[j] for j in o[:nl]], [ids[j] for j in o[nl:]])
    memo[:] = ids
    return memo


# --- building -------------------------------------------------------------------------------

@dataclass
class BuildReport:
    """What one :func:`build_part_database` call did."""

    db_dir: Path
    max_squares: int
    resumed_from: int  #: sizes 2..resumed_from were already complete (checksums checked)
    built: list[int] = field(default_factory=list)  #: sizes valued by this call
    parts_by_size: dict[int, int] = field(default_factory=dict)
    games_by_size: dict[int, int] = field(default_factory=dict)
    seconds_by_size: dict[int, float] = field(default_factory=dict)
    cpu_seconds_by_size: dict[int, float] = field(default_factory=dict)
    bytes_total: int = 0  #: the files of every size in the directory
    seconds: float = 0.0  #: whole call, loading and writing included
    jobs: int = 1

    def to_dict(self) -> dict:
        return {"db": str(self.db_dir), "max_squares": self.max_squares,
                "resumed_from": self.resumed_from, "built": self.built,
                "parts_by_size": {str(k): v for k, v in self.parts_by_size.items()},
                "games_by_size": {str(k): v for k, v in self.games_by_size.items()},
                "seconds_by_size": {str(k): round(v, 3)
                                    for k, v in self.seconds_by_size.items()},
                "bytes": self.bytes_total, "seconds": round(self.seconds, 3),
                "jobs": self.jobs}


def _names(n: int) -> dict[str, str]:
    return {k: f"parts{n:02d}-{k}.npy" for k in ("keys", "value", "games", "options")}


def _new_manifest() -> dict:
    return {"format": FORMAT, "version": VERSION, "encoding": ENCODING, "max_squares": 1,
            "sizes": []}


def _read_manifest(db_dir: Path) -> dict | None:
    manifest = read_manifest(
        db_dir, FORMAT, VERSION, PartDatabaseError, "part database", "part database",
        wrong_version=lambda found: (
            f"the part database in {db_dir} is version {found!r}, and this clobbermania "
            f"reads version {VERSION}; rebuild it with 'clobbermania clobber build-db' into "
            "another directory"))
    if manifest is None:
        return None
    path = db_dir / MANIFEST
    sizes = manifest.get("sizes")
    if not isinstance(sizes, list) or not all(isinstance(e, dict) for e in sizes):
        raise PartDatabaseError(f"the part database manifest {path} is damaged: its sizes "
                                "are not a list of entries")
    for entry in sizes:
        files = entry.get("files")
        if not isinstance(files, dict) or set(files) != {"keys", "value", "games", "options"}:
            raise PartDatabaseError(f"the part database manifest {path} is damaged: a size "
                                    "does not list its four files")
        for f in files.values():
            name = f.get("file") if isinstance(f, dict) else None
            if not plain_file_name(name) or not isinstance(f.get("sha256"), str):
                raise PartDatabaseError(f"the part database manifest {path} is damaged: "
                                        f"{str(name)[:40]!r} is not a file name inside "
                                        f"{db_dir} with its sha256")
    return manifest


def _good_prefix(manifest: dict) -> list[dict]:
    """The manifest's entries for sizes 2, 3, ... as long as they are consecutive."""
    return consecutive_entries(manifest.get("sizes", []), "squares", 2)


def _file_entries(entry: dict) -> list[dict]:
    return [{"file": f["file"], "sha256": f["sha256"]} for f in entry["files"].values()]


def _value_size(keys: np.ndarray, progress: Callable[[int], None] | None = None
                ) -> np.ndarray:
    """The cgt ids of the canonical parts ``keys`` (packed, all of one size), every smaller
    part already in values.py's table of known parts; the parts are entered there too."""
    out = np.empty(keys.shape[0], np.int64)
    for start in range(0, keys.shape[0], CHUNK):
        rows = _pk.unpack_many(keys[start:start + CHUNK])
        missing, opt_start, side, ranges, refs = _pk.list_options(
            rows, _values._known_keys, _values._known_vals)
        if missing:
            raise PartDatabaseError(f"{missing} option parts of a size were not valued before "
                                    "it (the smaller sizes are incomplete)")
        vals = np.full(rows.shape[0], -1, np.int64)
        with _values._gc_paused():
            ok = _values.value_listed(np.arange(rows.shape[0]), vals, opt_start, side,
                                      ranges, refs)
        if not ok:      # cgt's kernels are off: values.py's plain path, part by part
            vals = np.fromiter((_values.canonical_part_value(tuple(r)) for r in rows.tolist()),
                               np.int64, rows.shape[0])
        _values._known_add(rows, vals)
        out[start:start + rows.shape[0]] = vals
        if progress is not None:
            progress(rows.shape[0])
    return out


def _value_chunk(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A worker's share of a size (forked from the builder, so the smaller sizes are in its
    tables): the values as a small game table (:func:`_export`'s layout)."""
    return _export(_value_size(keys))


def _load_size(db_dir: Path, entry: dict) -> int:
    """Enter the parts of one stored size into values.py's table (the games rebuilt)."""
    arrays = {k: np.load(db_dir / f["file"], mmap_mode="r")
              for k, f in entry["files"].items()}
    ids = _rebuild(arrays["games"], arrays["options"])
    rows = _pk.unpack_many(np.asarray(arrays["keys"]))
    _values._known_add(rows, ids[np.asarray(arrays["value"])])
    return rows.shape[0]


def build_part_database(db_dir: str | os.PathLike | None = None, max_squares: int = 8,
                        jobs: int | None = None,
                        progress: Callable[[int, int, int], None] | None = None
                        ) -> BuildReport:
    """Build (or extend, or finish) the part database in ``db_dir`` up to ``max_squares``.

    Sizes already complete are checked against their sha256 and kept (and loaded, as the
    larger sizes are valued from them); a damaged or missing size is rebuilt with every
    larger one. ``jobs`` processes (default: the number of cores) share each size;
    the files do not depend on it. ``progress(done, total, squares)`` is called between
    chunks of parts. The parts valued or loaded stay in values.py's table of known parts
    (:func:`values.clear_cache` empties it). Returns a :class:`BuildReport`.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     r1 = build_part_database(d, max_squares=4, jobs=1)
    ...     r2 = build_part_database(d, max_squares=5, jobs=1)
    ...     r1.built, r1.parts_by_size, r2.resumed_from, r2.built
    ([2, 3, 4], {2: 1, 3: 4, 4: 25}, 4, [5])
    """
    t_start = time.perf_counter()
    if isinstance(max_squares, bool) or not isinstance(max_squares, int) \
            or not 2 <= max_squares <= MAX_SQUARES:
        raise UnsupportedError(f"--max-squares must be between 2 and {MAX_SQUARES} (the "
                               "largest measured: 2.3 million parts of 10 squares, 1 GB of "
                               f"memory), not {max_squares}")
    jobs = build_jobs(jobs, "processes")
    db_dir = Path(db_dir) if db_dir is not None else default_db_dir()
    with build_lock(db_dir, PartDatabaseError):
        manifest = _read_manifest(db_dir) or _new_manifest()
        entries = _good_prefix(manifest)
        report = BuildReport(db_dir=db_dir, max_squares=max_squares, resumed_from=1,
                             jobs=jobs)
        # each forked process grows its own copy of values.py's table: counted in full
        need = BYTES_PER_PART * jobs * sum(PARTS_BY_SIZE[n] for n in range(2, max_squares + 1))
        room = memory_room()
        if len(entries) < max_squares - 1 and need > room:
            raise PartDatabaseError(
                f"building to {max_squares} squares needs about {need / 2**20:,.0f} MB of "
                f"memory and only {room / 2**20:,.0f} MB is left under the memory bound "
                "(40 % of the machine's memory)")
        # the complete sizes: checked, then their values entered (the larger need them)
        good: list[dict] = []
        for entry in entries[:max_squares - 1]:
            if not hashes_ok(db_dir, _file_entries(entry)):
                break
            good.append(entry)
        if len(good) < max_squares - 1:     # something to build: it needs the smaller
            for entry in good:
                _load_size(db_dir, entry)
        report.resumed_from = len(good) + 1
        manifest["sizes"] = good
        manifest["max_squares"] = len(good) + 1
        shapes_all = None
        for n in range(len(good) + 2, max_squares + 1):
            t0, c0 = time.perf_counter(), time.process_time()
            if shapes_all is None:
                shapes_all = fixed_polyominoes(max_squares)
            keys = part_keys(n, free_shapes(n, shapes_all[n - 1]))
            done = [0]

            def step(k: int, n=n, total=keys.shape[0], done=done) -> None:
                done[0] += k
                if progress is not None:
                    progress(done[0], total, n)
                if interrupted():       # Ctrl-C: the complete sizes stay
                    raise PartDatabaseError(
                        f"the build was interrupted in the parts of {n} squares; those of "
                        f"up to {n - 1} are complete, and the next build resumes after them")

            if jobs > 1 and keys.shape[0] > 2 * CHUNK:
                value, games, options = _build_parallel(keys, jobs, step)
            else:
                value, games, options = _export(_value_size(keys, step))
            arrays = {"keys": keys, "value": value, "games": games, "options": options}
            names = _names(n)
            files = {}
            for k, a in arrays.items():
                data = npy_bytes(np.ascontiguousarray(a))
                write_atomic(db_dir / names[k], data)
                files[k] = {"file": names[k], "sha256": hashlib.sha256(data).hexdigest(),
                            "bytes": len(data)}
            seconds = time.perf_counter() - t0
            entry = {"squares": n, "parts": int(keys.shape[0]),
                     "games": int(games.shape[0] - 1), "files": files,
                     "seconds": round(seconds, 3)}
            manifest["sizes"].append(entry)
            manifest["max_squares"] = n
            write_json_atomic(db_dir / MANIFEST, manifest)
            report.built.append(n)
            report.parts_by_size[n] = int(keys.shape[0])
            report.games_by_size[n] = int(games.shape[0] - 1)
            report.seconds_by_size[n] = seconds
            report.cpu_seconds_by_size[n] = time.process_time() - c0
        if not report.built:        # larger sizes already there stay as they are
            manifest["sizes"] = entries
            manifest["max_squares"] = len(entries) + 1
        fsync_dir(db_dir)
        report.bytes_total = sum(f.get("bytes", 0) for e in manifest["sizes"]
                                 for f in e["files"].values())
        report.max_squares = manifest["max_squares"]
        report.seconds = time.perf_counter() - t_start
        return report


def _build_parallel(keys: np.ndarray, jobs: int, step: Callable[[int], None]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Value a size in ``jobs`` forked processes (each inherits the smaller sizes' values),
    then merge their game tables into this process's cgt table and export the whole."""
    import multiprocessing as mp

    pieces = np.array_split(keys, 4 * jobs)
    ids = np.empty(keys.shape[0], np.int64)
    ctx = mp.get_context("fork")
    with ctx.Pool(jobs) as pool:
        pos = 0
        for piece, (value, games, options) in zip(pieces, pool.imap(_value_chunk, pieces),
                                                  strict=True):
            local = _rebuild(games, options)
            ids[pos:pos + piece.shape[0]] = local[value]
            pos += piece.shape[0]
            step(piece.shape[0])
    _values._known_add(_pk.unpack_many(keys), ids)
    return _export(ids)


# --- reading --------------------------------------------------------------------------------

class PartDatabase:
    """An opened part database: values of parts by text or packed key, memory-mapped.

    >>> db = PartDatabase.open(shipped_db_dir())
    >>> print(db.value("xxo"), db.value("xo"), db.value("xo/ox"), db.outcome("xxo"))
    ^ * * L
    """

    def __init__(self, db_dir: Path, manifest: dict) -> None:
        self.path = db_dir
        self.manifest = manifest
        self._entries = {e["squares"]: e for e in _good_prefix(manifest)}
        self._arrays: dict[int, dict[str, np.ndarray]] = {}
        self._ids: dict[int, np.ndarray] = {}

    @classmethod
    def open(cls, db_dir: str | os.PathLike | None = None, *, verify: bool = True
             ) -> PartDatabase:
        """Open the database in ``db_dir`` (default :func:`default_db_dir`), checking every
        file's sha256 unless ``verify`` is False; refuses a directory that holds no part
        database, one of another version, or a damaged one, with one sentence."""
        path = Path(db_dir) if db_dir is not None else default_db_dir()
        manifest = _read_manifest(path) if path.is_dir() else None
        if manifest is None or not _good_prefix(manifest):
            raise PartDatabaseError(
                f"no part database in {path}: run 'clobbermania clobber build-db "
                f"--max-squares N{'' if db_dir is None else ' --db ' + str(path)}' first")
        for entry in _good_prefix(manifest):
            for f in entry["files"].values():
                if not (path / f["file"]).is_file():
                    raise PartDatabaseError(f"the part database file {path / f['file']} "
                                            "listed in its manifest is missing; rebuild "
                                            "with 'clobbermania clobber build-db'")
            if verify and not hashes_ok(path, _file_entries(entry)):
                raise PartDatabaseError(f"the part database in {path} does not match its "
                                        f"checksums (parts of {entry['squares']} squares); "
                                        "rebuild with 'clobbermania clobber build-db'")
        return cls(path, manifest)

    @property
    def max_squares(self) -> int:
        """Every connected part of at most this many squares is in the database."""
        return len(self._entries) + 1

    @property
    def count(self) -> int:
        """How many canonical parts are stored (a part and its colour swap count once)."""
        return sum(e["parts"] for e in self._entries.values())

    def __repr__(self) -> str:
        return f"PartDatabase({str(self.path)!r}, max_squares={self.max_squares})"

    def arrays(self, squares: int) -> dict[str, np.ndarray]:
        """The memory-mapped arrays of one size (``keys``, ``value``, ``games``,
        ``options``; see the module docstring)."""
        a = self._arrays.get(squares)
        if a is None:
            entry = self._entries.get(squares)
            if entry is None:
                raise PartDatabaseError(f"the part database in {self.path} holds parts of 2 "
                                        f"to {self.max_squares} squares, not {squares}")
            try:
                a = {k: np.load(self.path / f["file"], mmap_mode="r", allow_pickle=False)
                     for k, f in entry["files"].items()}
            except (OSError, ValueError) as exc:
                raise PartDatabaseError(f"the part database in {self.path} cannot be read "
                                        f"({exc}); rebuild with 'clobbermania clobber "
                                        "build-db'") from None
            self._arrays[squares] = a
        return a

    def _find(self, h: int, w: int, b: int, x: int) -> tuple[int, int, bool] | None:
        """(squares, game index, negated) of a part given as a bitboard, or None when it
        is larger than the database."""
        n = int(b | x).bit_count()
        if n > self.max_squares:
            return None
        kh, kw, kb, kx, neg = canonical(h, w, b, x)
        key = int(_pk.pack(kh, kw, kb, kx))
        a = self.arrays(n)
        i = int(np.searchsorted(a["keys"], key))
        if i >= a["keys"].shape[0] or int(a["keys"][i]) != key:
            raise PartDatabaseError(f"the part database in {self.path} lacks a part of {n} "
                                    "squares (damaged); rebuild with 'clobbermania clobber "
                                    "build-db'")
        return n, int(a["value"][i]), bool(neg)

    def _game_id(self, n: int, gi: int) -> int:
        memo = self._ids.get(n)
        a = self.arrays(n)
        if memo is None:
            memo = self._ids[n] = np.full(a["games"].shape[0] - 1, -1, np.int64)
        if memo[gi] < 0:
            _rebuild(np.asarray(a["games"]), a["options"], gi, memo)
        return int(memo[gi])

    def value_id(self, h: int, w: int, b: int, x: int) -> int | None:
        """The cgt id of the value of the connected part (h x w box, black b, white x as
        bitboards, square (r, c) = bit r * w + c), or None when it has more squares than
        the database holds."""
        found = self._find(h, w, b, x)
        if found is None:
            return None
        n, gi, neg = found
        g = self._game_id(n, gi)
        return _cg._neg(g) if neg else g

    def board_value_ids(self, rows: int, cols: int, blacks: np.ndarray, whites: np.ndarray
                        ) -> np.ndarray:
        """The cgt ids of many connected parts at once, each given by its (black, white)
        bitmasks on a rows x cols board of at most 63 squares (square (r, c) = bit
        r * cols + c); -1 for a part with more squares than the database holds. A numba
        call keys them all, then one binary search a size.

        >>> db = PartDatabase.open(shipped_db_dir())
        >>> ids = db.board_value_ids(2, 3, np.array([0b011, 0b001]), np.array([0b100, 0b010]))
        >>> [str(_cg._objects[i]) for i in ids]
        ['^', '*']
        """
        if rows * cols > 63:
            raise UnsupportedError(f"board_value_ids takes boards of at most 63 squares, not "
                                   f"{rows}x{cols}")
        b = np.ascontiguousarray(blacks, np.int64)
        x = np.ascontiguousarray(whites, np.int64)
        keys, squares, neg = _pk.board_keys(rows, cols, b, x)
        out = np.full(keys.shape[0], -1, np.int64)
        for n in np.unique(squares).tolist():
            if n > self.max_squares:
                continue
            if n < 2:
                raise NotationError("a part of the database has stones of both colours")
            at = np.flatnonzero(squares == n)
            a = self.arrays(n)
            idx = np.searchsorted(a["keys"], keys[at])
            idx = np.minimum(idx, a["keys"].shape[0] - 1)
            if not np.array_equal(a["keys"][idx], keys[at]):
                raise NotationError("board_value_ids was given a part that is not one "
                                    "connected part with stones of both colours")
            gi = np.asarray(a["value"])[idx].astype(np.int64)
            memo = self._ids.get(n)
            if memo is None:
                memo = self._ids[n] = np.full(a["games"].shape[0] - 1, -1, np.int64)
            for g in np.unique(gi[memo[gi] < 0]).tolist():
                _rebuild(np.asarray(a["games"]), a["options"], g, memo)
            out[at] = memo[gi]
        for i in np.flatnonzero(neg & (out >= 0)).tolist():
            out[i] = _cg._neg(int(out[i]))
        return out

    def _bitboard(self, part: str | int) -> tuple[int, int, int, int]:
        if isinstance(part, (int, np.integer)) and not isinstance(part, bool):
            h, w, b, x = (int(v) for v in _pk.unpack(np.int64(part)))
            return h, w, b, x
        if not isinstance(part, str):
            raise NotationError(f"a part is given as its rows (like 'xo/.x') or as its packed "
                                f"key, not as {type(part).__name__}")
        pos = Position.from_string(part)
        parts = _values._grid_text_parts(pos)
        if len(parts) != 1 or sum(1 for c in parts[0] if c in "xo") \
                != pos.black.bit_count() + pos.white.bit_count():
            raise NotationError(f"{part!r} is not one connected part with stones of both "
                                "colours")
        rows = parts[0].split("/")
        h, w = len(rows), len(rows[0])
        b = x = 0
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "x":
                    b |= 1 << (r * w + c)
                elif ch == "o":
                    x |= 1 << (r * w + c)
        return h, w, b, x

    def value(self, part: str | int) -> Game | None:
        """The canonical value of a connected part (its rows, like ``"xo/.x"``, or its
        packed key), or None when it has more squares than the database holds.

        >>> db = PartDatabase.open(shipped_db_dir())
        >>> print(db.value("xoxox"), db.value("ox"), db.value("x" * 9 + "o"))
        {*|v} * None
        """
        i = self.value_id(*self._bitboard(part))
        return None if i is None else _cg._objects[i]

    def outcome(self, part: str | int) -> str | None:
        """The outcome class (L, R, N, P) of a part, read from the table without building
        its value; None when the part is larger than the database."""
        found = self._find(*self._bitboard(part))
        if found is None:
            return None
        n, gi, neg = found
        o = _OUTCOMES[int(self.arrays(n)["games"][gi, 2])]
        return {"L": "R", "R": "L"}.get(o, o) if neg else o

    def keys(self, squares: int) -> np.ndarray:
        """The sorted packed keys of the stored parts of ``squares`` squares."""
        return self.arrays(squares)["keys"]

    def load_all(self, max_squares: int | None = None) -> int:
        """Enter every stored part (of at most ``max_squares`` squares) into values.py's
        table of known parts, so that the value search's tree kernel finds them, rebuilding
        their games; returns how many parts were entered."""
        total = 0
        for n in sorted(self._entries):
            if max_squares is not None and n > max_squares:
                break
            a = self.arrays(n)
            memo = self._ids.get(n)
            if memo is None or (memo < 0).any():
                memo = self._ids[n] = _rebuild(np.asarray(a["games"]), a["options"],
                                               memo=memo)
            rows = _pk.unpack_many(np.asarray(a["keys"]))
            _values._known_add(rows, memo[np.asarray(a["value"])])
            total += rows.shape[0]
        return total


def default_database() -> PartDatabase | None:
    """The database values.py consults unless told otherwise: the one in
    :func:`default_db_dir` when it is built, its checksums hold and it is larger than the
    shipped one, else the shipped one; None when neither opens (checking the 29 MB of a
    10-square database takes about 0.1 s, once a process)."""
    for d in (default_db_dir(), shipped_db_dir()):
        try:
            db = PartDatabase.open(d)
        except PartDatabaseError:
            continue
        if d == shipped_db_dir() or db.max_squares > SHIPPED_SQUARES:
            return db
    return None
