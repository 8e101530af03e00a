"""Fuzzing the ``clobbermania`` command: a seeded input generator for every verb and a
forking runner that checks each call against the CLI's contract.

The contract (issue 25): whatever the arguments, a call exits 0, 1 or 2; exit 2 prints
exactly one line ``error: <sentence>`` on stderr; no traceback ever; with ``--json`` the
output is one JSON object with a ``seconds`` field; a ``--time-limit`` holds within 10 %
plus half a second (the result's ``seconds``, process start excluded); and no call passes
the address-space cap (40 % of the machine's memory) or the wall-clock cap.

One implementation serves ``benchmarks/fuzz.py`` (>= 10,000 inputs) and
``tests/test_fuzz.py`` (a few hundred, fixed seed). Input ``i`` of seed ``s`` depends on
``(s, i)`` alone, so a finding is reproduced by its argv or by ``--seed s --only i``.

The runner is a warm parent: it imports the CLI, runs each verb once on a tiny input so
that the numba kernels are loaded, then forks a child per input. The child caps its
address space (``RLIMIT_AS``), points stdin/stdout/stderr at files, calls
``clobbermania.cli.main(argv)`` in process and writes its exit code and the wall time
around ``main``; the parent kills the child's process group (``SIGKILL``) when it passes
the wall-clock cap and reads its peak RSS from ``wait4``.

Verbs left out: ``serve``, ``play`` (``clobber play``, ``grundy play``: interactive),
``bench`` and ``build`` (long-running by design). ``samegame play`` is a bounded search,
not a game, and is fuzzed (always with a limit: its default is 60 s). ``grundy build``
runs once, outside the fuzz, to give ``grundy stats`` a small database to read.

Example (a handful of inputs):

    >>> cases = [generate(7, i) for i in range(3)]
    >>> all(c.verb in VERBS for c in cases)
    True
"""

from __future__ import annotations

import contextlib
import faulthandler
import functools
import io
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from data_paths import MCGS_DATA as MCGS_DIR

from clobbermania.limits import memory_bound

REPO = Path(__file__).resolve().parents[1]

#: Verbs not fuzzed, with the reason.
EXCLUDED = {
    "clobber play": "interactive game",
    "grundy play": "interactive game",
    "grundy build": "long-running by design (run once, small, to feed grundy stats)",
    "clobber build-db": "long-running by design (tests/test_clobber_partdb.py runs it)",
    "grundy build-parts": "long-running by design (tests/test_impartial_gridparts.py runs it)",
    "samegame bench": "long-running by design",
    "serve": "a server runs until Ctrl-C (tests/web/test_serve_cli.py runs it)",
}

#: Wall-clock cap of a call without a time limit (a verb's own stated cap must hold in it).
NO_LIMIT_CAP = 15.0
#: Wall-clock cap of ``reproduce NAME``: a whole claim group (the cheap ones take 5-10 s
#: alone, three times that on a loaded machine).
REPRODUCE_CAP = 120.0
#: Seconds past a call's bound (limit * 1.1 + 0.5) after which the runner kills it: the
#: cap is bound * CAP_FACTOR + CAP_EXTRA.
CAP_FACTOR = 1.5
CAP_EXTRA = 5.0
#: Extra seconds allowed to the result's ``seconds`` beyond limit * 1.1 + 0.5 (load).
SECONDS_SLACK = 0.5
#: Extra seconds allowed to the child's wall time around ``main`` (load, output, loading).
WALL_SLACK = 3.0


@dataclass(frozen=True)
class Case:
    """One call: ``argv`` (placeholders ``{tmp}``, ``{db}``, ``{mcgs}``), the text on
    standard input, files written into the call's folder first, and the time budget:
    ``limit`` is the time the call may take by its own options (None: no limit of its
    own), ``cap`` the wall-clock seconds after which the runner kills it."""

    index: int
    verb: str
    kind: str
    argv: tuple[str, ...]
    stdin: str = ""
    files: tuple[tuple[str, str], ...] = ()
    limit: float | None = None
    cap: float = NO_LIMIT_CAP
    before: tuple[tuple[str, ...], ...] = ()

    def concrete_argv(self, tmp: str, db: str) -> list[str]:
        """The argv with its placeholders filled in."""
        return [a.replace("{tmp}", tmp).replace("{db}", db).replace("{mcgs}", str(MCGS_DIR))
                for a in self.argv]

    def shell(self) -> str:
        """The call as a shell line (placeholders left in)."""
        import shlex
        line = "clobbermania " + " ".join(shlex.quote(a) for a in self.argv)
        if self.stdin:
            line = f"printf %s {shlex.quote(self.stdin[:200])} | " + line
        if self.before:
            line = " ; ".join("clobbermania " + " ".join(shlex.quote(a) for a in b)
                              for b in self.before) + " ; " + line + "   # in one process"
        if self.files:
            line += "   # files: " + ", ".join(f"{{tmp}}/{n} ({len(t)} chars)"
                                             for n, t in self.files)
        return line


@dataclass
class Result:
    """What a call did."""

    case: Case
    code: int | None = None          # exit status (None: killed by a signal)
    signal: int | None = None
    killed_by_cap: bool = False
    traceback: bool = False
    wall: float = 0.0                # seconds around main, measured in the child
    outer: float = 0.0               # seconds from fork to reaping, measured by the parent
    maxrss_kb: int = 0
    stdout: str = ""
    stderr: str = ""
    findings: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- generation

SQUARE_CHARS = "xo.XO_●○·"
WEIRD = ["", " ", "-", "--", "/", "//", "\n", "\t", "\x00", "é", "●○", "\u202e", "🀄",
         "\udcff", "x" * 5000, "xo" * 20000, "0", "-1", "1e308", "nan", "inf", "-inf",
         "99999999999999999999", "-99999999999999999999", "{", "}", "|", "{{{{{{", "*",
         "--json", "-h", "a1-b1", "3-7", "#", "'", '"', "\\", "%s", "{tmp}/nonexistent",
         "/dev/null", "/", ".", "..", "NUL", "ſ", "İ", "x\x00o"]
BAD_NUMBERS = ["0", "-1", "-0", "nan", "inf", "-inf", "1e308", "1e400", "abc", "", " ",
               "99999999999999999999999999", "1_000", "0x10", "1e-300", "2.5", "١", "+3",
               "-99999999999999999999", "9" * 400]
BAD_LIMITS = ["0", "-1", "-0", "nan", "NaN", "inf", "-inf", "1e400", "abc", "", "1e-300",
              "5e-324", "0x1", " 1", "1,5", "∞"]
GRAPH_KINDS = ["grid", "path", "cycle", "tree", "complete", "hamming", "hypercube"]


def _stones(rng: random.Random, n: int, alphabet: str = "xo", hole: float = 0.0) -> str:
    return "".join("." if rng.random() < hole else rng.choice(alphabet) for _ in range(n))


def _grid(rng: random.Random, rows: int, cols: int, alphabet: str = "xo",
          hole: float = 0.0) -> str:
    return "/".join(_stones(rng, cols, alphabet, hole) for _ in range(rows))


def _checker(rows: int, cols: int) -> str:
    return "/".join("".join("xo"[(r + c) % 2] for c in range(cols)) for r in range(rows))


def mutate(rng: random.Random, s: str, extra: str = "") -> str:
    """One to four random edits of ``s`` (insert, delete, replace, duplicate, cut)."""
    alphabet = (set(s) | set("xo./-_0123456789{}|*^v+,;:#()~ \néX●") | set(extra)) - {""}
    pool = sorted(alphabet)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randint(0, len(s))
        if op < 0.3:
            s = s[:i] + rng.choice(pool) + s[i:]
        elif op < 0.55 and s:
            s = s[:i] + s[i + 1:]
        elif op < 0.8 and s:
            j = min(len(s) - 1, i)
            s = s[:j] + rng.choice(pool) + s[j + 1:]
        elif op < 0.9 and s:
            j = rng.randint(i, len(s))
            s = s[:j] + s[i:j] * rng.randint(1, 50) + s[j:]
        else:
            s = s[:i]
    return s


def _weird(rng: random.Random) -> str:
    return rng.choice(WEIRD)


def _number(rng: random.Random, lo: int, hi: int) -> str:
    return str(rng.randint(lo, hi)) if rng.random() < 0.7 else rng.choice(BAD_NUMBERS)


class _Ctx:
    """The per-case generation state: random numbers, the kind, files and the limit."""

    def __init__(self, rng: random.Random, kind: str, heavy: bool):
        self.rng = rng
        self.kind = kind
        self.heavy = heavy
        self.files: list[tuple[str, str]] = []
        self.stdin = ""
        self.limit: float | None = None   # seconds the call may take by its options

    # the time-limit option: (argv part); sets self.limit
    def time_limit(self, default: float | None = None, mult: float = 1.0,
                   omit: float = 0.1, big: bool = False) -> list[str]:
        """``--time-limit S`` (small), sometimes a bad value, sometimes none when the verb
        has a finite ``default`` (then that is the limit).

        Policy (docs/limits.md): a verb with a --time-limit called without one runs as
        long as the user let it, so without a finite default a limit is always given
        (``omit`` is ignored); the verbs without a --time-limit must still answer within
        the harness cap or refuse."""
        rng = self.rng
        if default is None:
            omit = 0.0
        r = rng.random()
        if r < omit:
            if default is not None:
                self.limit = default * mult
            return []
        if self.kind == "boundary" and r < omit + 0.25:
            return ["--time-limit", rng.choice(BAD_LIMITS)]
        top = [0.05, 0.1, 0.2, 0.5, 1.0, 1.5] if self.heavy else [0.05, 0.1, 0.2]
        value = rng.choice(top)
        if big and rng.random() < 0.1:
            value = rng.choice([5.0, 1e6])   # only with inputs that finish at once
        self.limit = value * mult
        return ["--time-limit", repr(value)]

    def file(self, name: str, text: str) -> str:
        self.files.append((name, text))
        return "{tmp}/" + name

    def board_arg(self, text: str) -> str:
        """A board given inline or on standard input."""
        r = self.rng.random()
        if r < 0.1:
            self.stdin = text.replace("/", "\n")
            return "-"
        return text

    def maybe(self, p: float, *args: str) -> list[str]:
        return list(args) if self.rng.random() < p else []


def _graph_spec(ctx: _Ctx, n_hint: int) -> tuple[str, int]:
    """A ``--graph`` SPEC and its vertex count (-1 when unknown or invalid)."""
    rng = ctx.rng
    if ctx.kind == "boundary":
        return rng.choice([
            "hypercube:64", "hypercube:30", "complete:100000", "complete:0", "path:0",
            "path:-1", "cycle:2", "cycle:1", "grid:100000x100000", "grid:0x3", "grid:3x",
            "hamming:1000,1000", "hamming:", "hamming:1", "hamming:0,3", "tree:", "tree:0,0,5",
            "tree:-1", "tree:1", "tree:a", "torus:3", "path:1e9", "path:99999999999999999999",
            "hypercube:-1", "grid:3x3x3", ":", "", "{tmp}/nonexistent.edges",
            ctx.file("bad.edges", rng.choice(["1 2 3\n", "a b\n", "\x00\xff", "", "1-1\n",
                                              "0 99999999999999\n", "# only\n"])),
            _weird(rng)]), -1
    kind = rng.choice(GRAPH_KINDS + ["file"])
    n = max(1, n_hint)
    if kind == "grid":
        r = rng.randint(1, 4)
        c = max(1, n // r)
        return f"grid:{r}x{c}", r * c
    if kind in ("path", "cycle", "complete"):
        return f"{kind}:{n}", n
    if kind == "tree":
        parents = [rng.randint(0, v - 1) for v in range(1, n)]
        return "tree:" + ",".join(map(str, parents)), n
    if kind == "hamming":
        dims = rng.choice([[2, 2], [2, 3], [3, 3], [2, 2, 2], [3], [4], [2, 4]])
        return "hamming:" + ",".join(map(str, dims)), math.prod(dims)
    if kind == "hypercube":
        d = rng.randint(1, 4)
        return f"hypercube:{d}", 1 << d
    edges = [(rng.randint(0, n - 1), rng.randint(0, n - 1)) for _ in range(n + 2)]
    text = "# fuzz\n" + "\n".join(f"{u} {v}" for u, v in edges if u != v) + "\n"
    text += "".join(f"{v}\n" for v in range(n))
    return ctx.file("g.edges", text), n


def _board(ctx: _Ctx, max_cells: int, alphabet: str = "xo", hole: float = 0.1) -> str:
    """A stone board: valid (small), boundary or a mutation of a valid one."""
    rng = ctx.rng
    rows = rng.randint(1, 4)
    cols = rng.randint(1, max(1, max_cells // rows))
    good = _grid(rng, rows, cols, alphabet, hole) if rng.random() < 0.8 else _checker(rows, cols)
    if ctx.kind == "valid":
        return good
    if ctx.kind == "mutated":
        return mutate(rng, good, alphabet)
    return rng.choice([_weird(rng), "xo/x", "x/o/xo", "xo" * 5000, "x" * 100000,
                       "/".join(["xo" * 40] * 40), good + "/" + good[:-1], good.upper(),
                       good.replace("x", "●").replace("o", "○"), "xqo", good + "\n",
                       "\n".join([good] * 3), good + " "])


def _colours_board(ctx: _Ctx, max_cells: int, colours: int = 3) -> str:
    rng = ctx.rng
    rows = rng.randint(1, 4)
    cols = rng.randint(1, max(1, max_cells // rows))
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"[:colours]
    good = _grid(rng, rows, cols, alphabet)
    if rng.random() < 0.15 and rows > 1:   # some empty cells at the top (gravity-legal)
        good = "." * cols + "/" + good
    if ctx.kind == "valid":
        return good
    if ctx.kind == "mutated":
        return mutate(rng, good, alphabet + ".")
    return rng.choice([_weird(rng), "12/1", "1.2/121", "ABC", "1" * 100000,
                       "/".join(["0123456789abcdefghijklmnopqrstuvwxyz"] * 30),
                       "/".join(["12" * 60] * 60), "./1", "1/.", "!!", good + "/" + good[:-1],
                       "\n".join([good] * 2), "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"])


def _svg(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    if rng.random() > 0.1:
        return []
    target = rng.choice(["{tmp}/w.svg", "{tmp}/w.svg", "{tmp}/nodir/w.svg", "/", "{tmp}"])
    return ["--svg", target]


# ----------------------------------------------------------------- one generator a verb

def g_solitaire_solve(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    board = _board(ctx, 24 if ctx.heavy else 12)
    args = ["solitaire", "solve", ctx.board_arg(board)]
    if rng.random() < 0.2:
        spec, _ = _graph_spec(ctx, len(board.replace("/", "")))
        args += ["--graph", spec]
    args += ctx.maybe(0.3, "--free")
    if rng.random() < 0.4:
        args += ["--first", rng.choice(["black", "white", "any", "any", "Black", ""])]
    if rng.random() < 0.15:
        args += ["--node-limit", _number(rng, 1, 10**6)]
    args += ctx.maybe(0.15, "--no-theorems")
    args += ctx.time_limit(omit=0.05 if ctx.kind == "valid" else 0.2)
    return args + ctx.maybe(0.6, "--json") + _svg(ctx)


def _move(rng: random.Random, rows: int, cols: int, bad: bool) -> str:
    def sq() -> str:
        return "abcdefghijklmnopqrstuvwxyz"[rng.randrange(cols)] + str(rng.randint(1, rows))
    if bad and rng.random() < 0.5:
        return rng.choice(["a0-a1", "a1-a1", "zz9-a1", "3-7", "a1b1", "a1-", "-a1",
                           "a99999999999999999999-b1", "A1-B1", "a1--b1", "é1-a1", "",
                           "aaaaaaaaaaaaaa1-b1", "0-1", "1-0", "a1 - b1", _weird(rng)])
    return f"{sq()}-{sq()}"


def g_solitaire_verify(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    rows, cols = rng.randint(1, 3), rng.randint(1, 6)
    board = _grid(rng, rows, cols, "xo", 0.1)
    if ctx.kind == "mutated":
        board = mutate(rng, board)
    elif ctx.kind == "boundary" and rng.random() < 0.5:
        board = _weird(rng)
    args = ["solitaire", "verify"]
    args += ctx.maybe(0.3, "--free")
    if rng.random() < 0.3:
        args += ["--first", rng.choice(["black", "white", "any", "grey"])]
    if rng.random() < 0.1:
        spec, _ = _graph_spec(ctx, rows * cols)
        args += ["--graph", spec]
    args += ctx.maybe(0.6, "--json")
    moves = [_move(rng, rows, cols, ctx.kind != "valid") for _ in range(rng.randint(0, 6))]
    if ctx.kind == "boundary" and rng.random() < 0.1:
        moves = ["a1-b1"] * 20000
    return args + ["--", ctx.board_arg(board)] + moves


def g_solitaire_reduce(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    args = ["solitaire", "reduce"]
    if rng.random() < 0.3:
        dims = rng.choice([[2, 2], [2, 3], [3, 3], [2, 2, 2], [4], [3, 4], [2, 2, 2, 2]])
        spec = rng.choice(["hamming:" + ",".join(map(str, dims)), f"hypercube:{rng.randint(1, 5)}",
                           f"complete:{rng.randint(1, 9)}"])
        if ctx.kind == "boundary":
            spec, _ = _graph_spec(ctx, 4)
        n = math.prod(dims) if spec.startswith("hamming") else 16
        board = _stones(rng, n)
        if ctx.kind == "mutated":
            board = mutate(rng, board)
        args += [board, "--graph", spec]
        if rng.random() < 0.6:
            args += ["--to", _number(rng, 0, n - 1)]
        if rng.random() < 0.4:
            args += ["--color", rng.choice(["black", "white", "red"])]
    else:
        big = 300 if ctx.heavy else 60
        r, c = rng.randint(1, big), rng.randint(1, big)
        if ctx.heavy and rng.random() < 0.02:
            r = c = 1000
        board = f"{r}x{c}"
        if ctx.kind == "mutated":
            board = mutate(rng, board, "xX")
        elif ctx.kind == "boundary":
            board = rng.choice(["0x5", "5x0", "-1x3", "99999999x99999999", "100000x100000",
                                "1e3x2", "3X3", "3x3x3", "x", "", "3 x 3", "１x２",
                                "2000x2000", "1x100000000", "100000000x1", _weird(rng)])
        args += [board]
        if rng.random() < 0.4:
            args += ["--first", rng.choice(["black", "white", "any"])]
    args += ctx.maybe(0.5, "--json")
    args += ctx.maybe(0.5 if ctx.kind != "boundary" else 0.2, "--no-moves")
    return args + _svg(ctx)


def g_solitaire_check(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    prop = rng.choice(["strong1", "strong1-joker", "strong2", "1-reducible"])
    if ctx.kind == "mutated":
        prop = mutate(rng, prop)
    elif ctx.kind == "boundary" and rng.random() < 0.3:
        prop = _weird(rng)
    n = rng.randint(1, 12 if ctx.heavy else 8)
    spec, _ = _graph_spec(ctx, n)
    if ctx.kind == "valid" and spec.startswith("hypercube:4") and not ctx.heavy:
        spec = "hypercube:3"
    if ctx.kind == "mutated" and rng.random() < 0.5:
        spec = mutate(rng, spec)
    args = ["solitaire", "check", prop]
    if rng.random() < 0.95:
        args += ["--graph", spec]
    return args + ctx.maybe(0.5, "--json")


def g_solitaire_hardness(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    rows, cols = rng.randint(1, 4), rng.randint(1, 5)
    mask = "/".join("".join(rng.choice("##.") for _ in range(cols)) for _ in range(rows))
    if ctx.kind == "mutated":
        mask = mutate(rng, mask, "#.")
    elif ctx.kind == "boundary":
        mask = rng.choice(["", "#", "##", ".", "/".join(["#" * 100] * 100), "#" * 100000,
                           "##/#", "x#", "###/#.#/###\n", _weird(rng),
                           "/".join(["#" * 12] * 12), "/".join(["#.#" * 10] * 30)])
    args = ["solitaire", "hardness", mask]
    args += ctx.time_limit(default=10.0, mult=2.0, omit=0.05)
    return args + ctx.maybe(0.6, "--json")


def g_grundy_value(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    if rng.random() < 0.6:
        board = _stones(rng, rng.randint(1, 40 if ctx.heavy else 20), "xo", 0.15)
        if ctx.kind == "mutated":
            board = mutate(rng, board, "_")
        elif ctx.kind == "boundary":
            board = _board(ctx, 10)
    else:
        board = _board(ctx, 16 if ctx.heavy else 10)
    args = ["grundy", "value", ctx.board_arg(board)]
    if rng.random() < 0.15:
        spec, _ = _graph_spec(ctx, len(board.replace("/", "")))
        args += ["--graph", spec]
    if rng.random() < 0.3:
        args += ["--db", rng.choice(["{db}", "{db}", "{tmp}/nodb", "{tmp}", "/dev/null",
                                     ctx.file("notadir", "x")])]
    args += ctx.time_limit(omit=0.05 if ctx.kind == "valid" else 0.2)
    return args + ctx.maybe(0.6, "--json")


def g_grundy_family(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    pattern = rng.choice(["ox", "ooxx", "xxo", "oxx", "xoxxo", "xo.",
                          _stones(rng, rng.randint(1, 6))])
    to = str(rng.randint(1, 400 if ctx.heavy else 100))
    if ctx.kind == "mutated":
        pattern = mutate(rng, pattern)
        if rng.random() < 0.3:
            to = mutate(rng, to, "0123456789")
    elif ctx.kind == "boundary":
        if rng.random() < 0.5:
            pattern = rng.choice(["", ".", "xxxx", "oooo", "x" * 1000, "xo" * 500, "x_o",
                                  "xo/ox", _weird(rng)])
        else:
            to = rng.choice(BAD_NUMBERS + ["1000000", "100000", str(10**30), "5000"])
    args = ["grundy", "family", pattern]
    if rng.random() < 0.95:
        args += ["--to", to]
    args += ctx.time_limit()
    return args + ctx.maybe(0.5, "--json")


def g_grundy_stats(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    args = ["grundy", "stats"]
    args += ["--db", rng.choice(["{db}", "{db}", "{db}", "{tmp}/nodb", "{tmp}",
                                 ctx.file("junk", "not a database")])]
    valid = ctx.kind == "valid"
    if rng.random() < 0.6:
        args += ["--max-stones", str(rng.randint(1, 10)) if valid else _number(rng, 0, 14)]
    if rng.random() < 0.3:
        args += ["--first", str(rng.randint(1, 3000)) if valid else _number(rng, 0, 5000)]
    if rng.random() < 0.3:
        args += ["--min-stones", str(rng.randint(1, 8)) if valid else _number(rng, 0, 12)]
    if rng.random() < 0.03:
        args += ["--plot", rng.choice(["{tmp}/p.png", "{tmp}/nodir/p.png"])]
    return args + ctx.maybe(0.6, "--json")


def _cgt_expr(rng: random.Random, depth: int) -> str:
    r = rng.random()
    if depth <= 0 or r < 0.35:
        return rng.choice([
            str(rng.randint(-8, 8)), f"{rng.randint(-9, 9)}/{rng.choice([2, 4, 8, 16])}",
            "*", f"*{rng.randint(0, 40)}", "^", "v", "^^", "vv", f"^{rng.randint(1, 9)}",
            f"v{rng.randint(1, 9)}", "^*", "v*", "0", f"+-{rng.randint(1, 4)}",
            f"{rng.randint(1, 9)}*", f"{rng.randint(0, 5)}.{rng.randint(0, 99)}"])
    if r < 0.7:
        left = ",".join(_cgt_expr(rng, depth - 1) for _ in range(rng.randint(0, 2)))
        right = ",".join(_cgt_expr(rng, depth - 1) for _ in range(rng.randint(0, 2)))
        bars = "|" * rng.choice([1, 1, 1, 2, 3]) if depth > 1 else "|"
        return "{" + left + bars + right + "}"
    op = rng.choice([" + ", " - ", "+", "-"])
    return _cgt_expr(rng, depth - 1) + op + _cgt_expr(rng, depth - 1)


CGT_BOUNDARY = ["*99999999", "*5000", "{0|*99999}", "^99999999", "v99999999", "*" * 10000,
                "{" * 2000 + "0" + "}" * 2000, "{" * 50 + "|" + "}" * 50, "1/3", "1/0", "0/0",
                "99999999999999999999", "-99999999999999999999", "1/" + "2" * 200,
                "+-99999999", "*-1", "^-1", "**", "{|}", "{||}", "{0|||}", "{0|1", "0|1}",
                "{a|b}", "", " ", "+", "-", "1e3", "inf", "nan", "*1e9", "*0x10",
                "*99999999+*99999999", "{*99999|*99999}", "^5000+*5000", "{0|{0|{0|{0|0}}}}",
                "+-{1|0}", "{0,*,*2,*3,*4,*5,*6,*7|0,*,*2,*3}", "{{0|*5000}|{*5000|0}}",
                " + ".join(["{1|-1}"] * 40), " + ".join(["{2|{1|0}}"] * 30),
                "½", "↑", "⇑", "*２", "1/2/3", "1//2", "(1)", "((((0))))", "*" + "9" * 400]


def _cgt_arg(ctx: _Ctx) -> str:
    rng = ctx.rng
    good = _cgt_expr(rng, rng.randint(0, 4 if ctx.heavy else 3))
    if ctx.kind == "valid":
        return good
    if ctx.kind == "mutated":
        return mutate(rng, good, "{}|,*^v+-/0123456789")
    return rng.choice(CGT_BOUNDARY + [_weird(rng)])


def g_cgt_value(ctx: _Ctx) -> list[str]:
    return ["cgt", "value", "--", _cgt_arg(ctx)] + ctx.maybe(0.6, "--json")


def g_cgt_compare(ctx: _Ctx) -> list[str]:
    a, b = _cgt_arg(ctx), _cgt_arg(ctx) if ctx.rng.random() < 0.5 else _cgt_expr(ctx.rng, 2)
    if ctx.rng.random() < 0.5:
        a, b = b, a
    return ["cgt", "compare"] + ctx.maybe(0.6, "--json") + ["--", a, b]


def g_clobber_value(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    board = _board(ctx, 18 if ctx.heavy else 10, hole=0.15)
    args = ["clobber", "value", ctx.board_arg(board)]
    if rng.random() < 0.15:
        spec, _ = _graph_spec(ctx, len(board.replace("/", "")))
        args += ["--graph", spec]
    args += ctx.time_limit(omit=0.05 if ctx.kind == "valid" else 0.2)
    return args + ctx.maybe(0.6, "--json")


def g_clobber_solve(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    board = _board(ctx, 20 if ctx.heavy else 12, hole=0.1)
    args = ["clobber", "solve", ctx.board_arg(board)]
    if rng.random() < 0.95:
        args += ["--first", rng.choice(["black", "white"]) if ctx.kind == "valid"
                 else rng.choice(["black", "white", "any", "", "x"])]
    if rng.random() < 0.15:
        spec, _ = _graph_spec(ctx, len(board.replace("/", "")))
        args += ["--graph", spec]
    args += ctx.time_limit(omit=0.05 if ctx.kind == "valid" else 0.2)
    return args + ctx.maybe(0.6, "--json")


def g_clobber_perft(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    board = _board(ctx, 12 if ctx.heavy else 8, hole=0.1)
    depth = str(rng.randint(0, 7 if ctx.heavy else 5))
    if ctx.kind != "valid" and rng.random() < 0.5:
        depth = rng.choice(BAD_NUMBERS + ["1000000", "1000", str(2**63), str(2**64)])
    args = ["clobber", "perft", ctx.board_arg(board)]
    if rng.random() < 0.95:
        args += ["--depth", depth]
    if rng.random() < 0.95:
        args += ["--first", rng.choice(["black", "white"])]
    if rng.random() < 0.1:
        spec, _ = _graph_spec(ctx, len(board.replace("/", "")))
        args += ["--graph", spec]
    return args + ctx.maybe(0.6, "--json")


_MCGS_CACHE: dict[str, list[str]] = {}


def _mcgs_sample(rng: random.Random) -> tuple[str, int]:
    """A short ``.test`` file cut from a real MCGS file of small cases, and its case count."""
    names = ["seg_tests__clobber_1xn__xo.test", "seg_tests__clobber__random_3x4.test",
             "impartial__impartial-easy__impartial_clobber_1xn_xo.test",
             "main_tests__clobber_1xn_autotests__clobber_1xn_le_4_moves.test",
             "impartial__impartial-easy__impartial_clobber_random_1xn_le_2-14.test"]
    name = rng.choice(names)
    if name not in _MCGS_CACHE:
        path = MCGS_DIR / name
        _MCGS_CACHE[name] = path.read_text(encoding="utf-8").splitlines()
    lines = _MCGS_CACHE[name]
    head = [ln for ln in lines if ln.startswith("{version") or ln.startswith("[")]
    cases = [ln for ln in lines if "{" in ln and not ln.startswith("{version")
             and not ln.startswith("[")]
    k = rng.randint(0, 4)
    pick = cases[:2] + rng.sample(cases, min(k, len(cases))) if cases else []
    pick = pick[:5]
    return "\n".join(head + pick) + "\n", len(pick)


def g_mcgs_run(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    text, n = _mcgs_sample(rng)
    if ctx.kind == "mutated":
        text = mutate(rng, text, "{}[]BWNP ")
        n = max(n, text.count("\n"))
    files: list[str]
    if ctx.kind == "boundary":
        choice = rng.random()
        if choice < 0.3:
            files = [rng.choice(["{tmp}/nonexistent.test", "{tmp}", "/dev/null", "", "-",
                                 "{tmp}/*.test"])]
        elif choice < 0.6:
            files = [ctx.file("b.test", rng.choice([
                "", "{version 1.7}\n", "[clobber]\n" + "X" * 100000 + " {B}\n",
                "{version 1.7}\n[clobber]\n" + "XO" * 40 + " {B}\n",
                "{version 1.7}\n[nosuchgame]\nXO {B}\n", "\x00\xff\xfe",
                "{version 1.7}\n[clobber]\nXO|OX {Q}\n", "{version 1.7}\n[clobber]\n{B}\n",
                "{version 99}\n[clobber]\nXO {B win}\n", "/* unclosed\n[clobber]\nXO {B}\n",
                "{version 1.7}\n[clobber]\n" + "XO {B}\n" * 3 + "XO|" * 300 + "X {B}\n",
                _weird(rng)]))]
            n = max(n, 8)
        else:
            files = [ctx.file("a.test", text), "{tmp}"]
            n *= 3
    else:
        files = [ctx.file("a.test", text)]
        if rng.random() < 0.1:
            files.append(ctx.file("b.test", text))
            n *= 2
    args = ["mcgs", "run"] + files
    args += ctx.time_limit(mult=max(1, n), omit=0.05)
    return args + ctx.maybe(0.6, "--json")


def g_clickomania_solve(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    board = _colours_board(ctx, 16 if ctx.heavy else 9, rng.randint(1, 4))
    src = ctx.board_arg(board)
    if src != "-" and rng.random() < 0.15:
        src = ctx.file("board.txt", "# a board\n" + board.replace("/", "\n") + "\n")
    args = ["clickomania", "solve", src]
    args += ctx.maybe(0.4, "--maximize")
    args += ctx.time_limit(omit=0.05 if ctx.kind == "valid" else 0.2)
    return args + ctx.maybe(0.6, "--json") + _svg(ctx)


def g_clickomania_value(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    board = _colours_board(ctx, 10 if ctx.heavy else 6, rng.randint(1, 3))
    src = ctx.board_arg(board)
    if src != "-" and rng.random() < 0.1:
        src = ctx.file("board.txt", board.replace("/", "\n") + "\n")
    args = ["clickomania", "value", src]
    r = rng.random()
    if r < 0.3:
        args.append("--impartial")
    elif r < 0.4:
        args.append("--partizan")
    elif r < 0.42:
        args += ["--impartial", "--partizan"]
    if rng.random() < 0.2:
        cols = ",".join(rng.choice("0123") for _ in range(rng.randint(1, 3)))
        if ctx.kind != "valid":
            cols = rng.choice([cols, "", ",", "0,,1", "z", "-1", "0123456789", _weird(rng)])
        args += ["--left-colors", cols]
    args += ctx.time_limit(omit=0.05 if ctx.kind == "valid" else 0.2)
    return args + ctx.maybe(0.6, "--json")


def g_clickomania_column(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    method = rng.choice(["grammar", "grammar", "two-color", "brute"])
    colours = 2 if method == "two-color" and rng.random() < 0.8 else rng.randint(1, 4)
    n = rng.randint(1, 60 if method != "brute" else 18)
    if ctx.heavy and method == "grammar" and rng.random() < 0.1:
        n = rng.randint(100, 400)
    s = "".join(rng.choice("0123456789abcdef"[:colours]) for _ in range(n))
    if rng.random() < 0.3:
        s = "/".join(s)
    if ctx.kind == "mutated":
        s = mutate(rng, s, "0123./")
    elif ctx.kind == "boundary":
        s = rng.choice(["", ".", "/", "1" * 100000, "12" * 50000, "12" * 3000, "1" * 24,
                        "12" * 13, "1/2/", "12/21", "1.2", "ABC", "1 2", _weird(rng)])
        if rng.random() < 0.2:
            method = rng.choice(["brute", "bogus", "", "BRUTE"])
    args = ["clickomania", "column", s]
    if rng.random() < 0.8:
        args += ["--method", method]
    if method == "brute" or rng.random() < 0.1:
        args += ctx.time_limit(omit=0.3 if n <= 18 else 0.05)
    return args + ctx.maybe(0.6, "--json") + _svg(ctx)


def _three_partition(rng: random.Random) -> list[int]:
    m = rng.randint(1, 3)
    t = rng.randint(9, 30)
    nums: list[int] = []
    for _ in range(m):
        triple = [t // 3, t // 3, t - 2 * (t // 3)]   # in (t/4, t/2) for every t >= 9
        for _ in range(20):   # or a random one
            a = rng.randint(t // 4 + 1, (t - 1) // 2)
            b = rng.randint(t // 4 + 1, (t - 1) // 2)
            if t / 4 < t - a - b < t / 2:
                triple = [a, b, t - a - b]
                break
        nums += triple
    rng.shuffle(nums)
    return nums


def _cnf(rng: random.Random) -> tuple[str, str, list[list[int]]]:
    nvars = rng.randint(1, 5)
    clauses = [[rng.choice([1, -1]) * rng.randint(1, nvars) for _ in range(rng.randint(1, 3))]
               for _ in range(rng.randint(1, 5))]
    numbered = ";".join(",".join(map(str, c)) for c in clauses)
    names = "abcde"
    named = "&".join("(" + "|".join(("~" if v < 0 else "") + names[abs(v) - 1] for v in c) + ")"
                     for c in clauses)
    return numbered, named, clauses


def g_clickomania_hardness(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    problem = rng.choice(["3partition", "3sat"])
    if problem == "3partition":
        inst = ",".join(map(str, _three_partition(rng)))
        if ctx.kind == "mutated":
            inst = mutate(rng, inst, "0123456789,-")
        elif ctx.kind == "boundary":
            inst = rng.choice(["", "1", "1,2", "1,1,1", "4,4,5,4,4,-5", "4,4,x",
                               "1000000,1000000,1000001,1000000,1000000,1000001",
                               ",".join(["9"] * 3000), "99999999999999999999,1,1",
                               "2,2,2", "0,0,0", "4.5,4,5", "4;4;5", _weird(rng),
                               ",".join(str(x) for x in [10**6] * 3)])
    else:
        numbered, named, clauses = _cnf(rng)
        r = rng.random()
        if r < 0.4:
            inst = numbered
        elif r < 0.8:
            inst = named
        else:
            dimacs = f"c fuzz\np cnf 5 {len(clauses)}\n" + "".join(
                " ".join(map(str, c)) + " 0\n" for c in clauses)
            inst = ctx.file("f.cnf", dimacs if ctx.kind == "valid" else mutate(rng, dimacs))
        if ctx.kind == "mutated" and not inst.endswith(".cnf"):
            inst = mutate(rng, inst, "()|&~,;-")
        elif ctx.kind == "boundary":
            inst = rng.choice(["", ";", "0", "1,2,3,4", "99999999999999", "1;-1;" * 3000,
                               "(a|b|c|d)", "(|)", "()", "a&~a", "~~a", "1,-1",
                               ";".join(f"{i},{-i - 1}" for i in range(1, 500)),
                               "{tmp}/nonexistent.cnf", _weird(rng)])
    args = ["clickomania", "hardness"]
    args.append(problem if ctx.kind != "boundary" or rng.random() < 0.9
                else rng.choice(["3SAT", "2sat", "", "partition"]))
    args.append(inst)
    solve = rng.random() < 0.3
    args += ["--solve"] if solve else []
    args += ctx.time_limit(default=10.0, mult=2.0, omit=0.05)
    return args + ctx.maybe(0.6, "--json") + _svg(ctx)


def g_samegame_play(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    board = _colours_board(ctx, 40 if ctx.heavy else 16, rng.randint(2, 5))
    src = ctx.board_arg(board)
    if src != "-" and rng.random() < 0.1:
        src = ctx.file("board.txt", board.replace("/", "\n") + "\n")
    args = ["samegame", "play", src]
    bad = ctx.kind != "valid"
    playouts = rng.random() < 0.2
    if playouts:
        args += ["--max-playouts", _number(rng, 1, 200) if bad else str(rng.randint(1, 200))]
    # the default limit is 60 s: always give one, except with a small playout limit
    args += ctx.time_limit(default=60.0, omit=0.05 if playouts else 0.0)
    if rng.random() < 0.2:
        args += ["--seed", _number(rng, 0, 2**31) if bad else str(rng.randint(0, 99))]
    if rng.random() < 0.1:
        args += ["--clock", rng.choice(["wall", "cpu"]) if not bad else rng.choice(["wall", "gpu"])]
    if rng.random() < 0.1:
        args += ["--restarts", rng.choice(["1", "2", "3"]) if not bad
                 else rng.choice(["0", "-1", "1000000", "x", "3"])]
    if rng.random() < 0.1:
        args += ["--left-penalty", rng.choice(["60", "0", "60,0"]) if not bad
                 else rng.choice(["", ",", "-5", "nan", "inf", "1e308", "a,b", "60,,0"])]
    if rng.random() < 0.05:
        args += ["--workers", rng.choice(["0", "-1", "x", "2"] if bad else ["1", "2"])]
    if rng.random() < 0.1:
        args += ["--threads", rng.choice(["0", "-1", "x", "1"] if bad else ["1", "2"])]
    return args + ctx.maybe(0.6, "--json") + _svg(ctx)


def g_reproduce(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    cheap = ["clickomania", "solitaire", "hamming"]
    if ctx.heavy and ctx.kind == "valid" and rng.random() < 0.3:
        name = rng.choice(cheap)
    else:
        name = rng.choice(["nosuch", "", "SOLITAIRE", "all", "solitaire,grundy", _weird(rng),
                           mutate(rng, rng.choice(cheap))])
        if name in cheap and not ctx.heavy:
            name = "nosuch"
    return ["reproduce"] + ctx.maybe(0.5, "--json") + ["--", name]


@functools.lru_cache(maxsize=1)
def _job_store_text() -> str:
    """The bytes of a small job store (docs/distributed.md), as surrogate-escaped text (the
    runner writes files that way, so the bytes come back exactly), built by the store's
    own code, its times then fixed and the file vacuumed, so the bytes depend on nothing
    else (inputs depend on the seed and index alone)."""
    import sqlite3
    import tempfile

    from clobbermania.distributed.store import JobStore

    with tempfile.TemporaryDirectory() as tmp:
        with JobStore.open(Path(tmp) / "jobs.sqlite") as store:
            root = store.put("grundy-value", "xoxo", {"value": 1}, nodes=40, seconds=0.02)
            store.put("grundy-value", "xo", {"value": 1}, nodes=3, seconds=0.001, parent=root)
            store.put("clobber-outcome", "xo/ox b", {"winner": "Left"}, nodes=12,
                      seconds=0.004, worker="actor-0")
        con = sqlite3.connect(Path(tmp) / "jobs.sqlite")
        with con:
            con.execute("UPDATE meta SET value = '2026-01-01T00:00:00.000+00:00' "
                        "WHERE key = 'created'")
            con.execute("UPDATE jobs SET finished = '2026-01-01T00:00:01.000+00:00'")
        con.execute("VACUUM INTO ?", (str(Path(tmp) / "fixed.sqlite"),))
        con.close()
        return (Path(tmp) / "fixed.sqlite").read_bytes().decode("utf-8", "surrogateescape")


def _store_arg(ctx: _Ctx) -> str:
    rng = ctx.rng
    if ctx.kind == "valid":
        return ctx.file("jobs.sqlite", _job_store_text())
    if ctx.kind == "mutated":
        return ctx.file("jobs.sqlite", mutate(rng, _job_store_text()))
    r = rng.random()
    if r < 0.4:
        return rng.choice(["{tmp}/nonexistent.sqlite", "{tmp}", "/dev/null", "", "-",
                           "/proc/self/status", _weird(rng)])
    text = rng.choice(["", "SQLite format 3", "SQLite format 3\x00" + "\x00" * 100,
                       _job_store_text()[:rng.randint(0, 8192)], "not a store\n"])
    return ctx.file("jobs.sqlite", text)


def g_jobs_show(ctx: _Ctx) -> list[str]:
    return ["jobs", "show", _store_arg(ctx)] + ctx.maybe(0.5, "--json")


def g_jobs_export(ctx: _Ctx) -> list[str]:
    rng = ctx.rng
    args = ["jobs", "export", _store_arg(ctx)]
    if rng.random() < 0.4:
        args += ["--kind", rng.choice(["grundy-value", "clobber-outcome"])
                 if ctx.kind == "valid" else rng.choice(["samegame", "", _weird(rng)])]
    if rng.random() < 0.5:
        args += ["--format", rng.choice(["jsonl", "csv"] if ctx.kind == "valid"
                                        else ["xml", "", "CSV", _weird(rng)])]
    return args


#: The fuzzed verbs and their generators.
VERBS: dict[str, Callable[[_Ctx], list[str]]] = {
    "solitaire solve": g_solitaire_solve,
    "solitaire verify": g_solitaire_verify,
    "solitaire reduce": g_solitaire_reduce,
    "solitaire check": g_solitaire_check,
    "solitaire hardness": g_solitaire_hardness,
    "grundy value": g_grundy_value,
    "grundy family": g_grundy_family,
    "grundy stats": g_grundy_stats,
    "cgt value": g_cgt_value,
    "cgt compare": g_cgt_compare,
    "clobber value": g_clobber_value,
    "clobber solve": g_clobber_solve,
    "clobber perft": g_clobber_perft,
    "mcgs run": g_mcgs_run,
    "clickomania solve": g_clickomania_solve,
    "clickomania value": g_clickomania_value,
    "clickomania column": g_clickomania_column,
    "clickomania hardness": g_clickomania_hardness,
    "samegame play": g_samegame_play,
    "reproduce": g_reproduce,
    "jobs show": g_jobs_show,
    "jobs export": g_jobs_export,
}
#: Relative frequency of each verb (reproduce runs whole claim groups: rare).
WEIGHTS = {verb: 1.0 for verb in VERBS} | {"reproduce": 0.1, "mcgs run": 0.6,
                                          "samegame play": 0.7, "solitaire check": 0.7}
#: Share of inputs run after an earlier call of the same verb in the same process (state
#: left behind by a call must not change the next one: the tests and the web API call the
#: CLI's objects in one process).
REPEAT_SHARE = 0.03
#: Options that, given anywhere, make the call print help instead of running.
HELP = {"-h", "--help", "--version"}


def generate(seed: int, index: int, heavy: bool = True) -> Case:
    """Input ``index`` of the run seeded ``seed`` (``heavy``: bigger boards and limits up
    to 1.5 s; off for the test suite)."""
    rng = random.Random(f"clobbermania-fuzz:{seed}:{index}")
    verbs = list(VERBS)
    verb = rng.choices(verbs, weights=[WEIGHTS[v] for v in verbs])[0]
    r = rng.random()
    kind = "valid" if r < 0.45 else "boundary" if r < 0.7 else "mutated"
    ctx = _Ctx(rng, kind, heavy)
    argv = VERBS[verb](ctx)
    if kind != "valid" and rng.random() < 0.03:   # an option out of place or unknown
        argv.insert(rng.randint(1, len(argv)), rng.choice(["--bogus", "--json", "-x", "--",
                                                           "--time-limit"]))
    if rng.random() < 0.005:
        argv.append(rng.choice(sorted(HELP)))
    before: tuple[tuple[str, ...], ...] = ()
    if rng.random() < REPEAT_SHARE:   # an earlier call in the same process first
        before = tuple(tuple(c) for c in WARM_CALLS + WARM_CHILD_CALLS
                       if " ".join(c[:2]) == verb or (verb == "reproduce" and c[0] == verb))
    if ctx.limit is not None:
        bound = ctx.limit * 1.1 + 0.5
        cap = bound * CAP_FACTOR + CAP_EXTRA
    else:
        cap = REPRODUCE_CAP if verb == "reproduce" else NO_LIMIT_CAP
    return Case(index=index, verb=verb, kind=kind, argv=tuple(argv), stdin=ctx.stdin,
                files=tuple(ctx.files), limit=ctx.limit, cap=cap, before=before)


def cases(seed: int, count: int, heavy: bool = True, start: int = 0) -> Iterator[Case]:
    """Inputs ``start .. start+count-1`` of the run seeded ``seed``."""
    for i in range(start, start + count):
        yield generate(seed, i, heavy)


def leaf_verbs() -> list[str]:
    """Every leaf command of the CLI (``game verb``, or ``reproduce``), from click's tree."""
    import click

    from clobbermania.cli import cli

    out = []

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                walk(sub, path + [name])
        else:
            out.append(" ".join(path))
    walk(cli, [])
    return sorted(out)


# ------------------------------------------------------------------------------ running

def _call_main(argv: list[str]) -> tuple[int, bool]:
    """Run ``main(argv)`` as the interpreter would: (exit status, traceback printed)."""
    from clobbermania.cli import main

    try:
        main(argv)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0, False
        if isinstance(code, int):
            return code & 0xFF, False
        print(code, file=sys.stderr)
        return 1, False
    except BaseException:   # what the interpreter does with an uncaught exception
        traceback.print_exc()
        return 1, True
    return 0, False


#: The calls that warm the parent. ``clobber value`` is left out: after one call, a second
#: call on a grid in the same process looped (found by this fuzz, 2026-11-27), so a warm
#: parent would hand the loop to every child; the ``before`` inputs cover repeats.
WARM_CALLS = [
    ["solitaire", "solve", "xoxo", "--json"], ["solitaire", "verify", "xoxo", "a1-b1"],
    ["solitaire", "reduce", "3x3"], ["solitaire", "hardness", "##/##", "--time-limit", "1"],
    ["grundy", "value", "xoxo"], ["grundy", "family", "ox", "--to", "5"],
    ["cgt", "value", "{0|^}"], ["cgt", "compare", "^", "0"],
    ["clobber", "solve", "xoxo/oxox", "--first", "black"],
    ["clobber", "perft", "xoxo", "--depth", "2", "--first", "black"],
    ["clickomania", "solve", "1122"], ["clickomania", "value", "0011"],
    ["clickomania", "value", "0011", "--impartial"], ["clickomania", "column", "1221"],
    ["clickomania", "column", "1221", "--method", "two-color"],
    ["clickomania", "column", "1221", "--method", "brute"],
    ["clickomania", "hardness", "3partition", "4,4,5,4,4,5"],
    ["clickomania", "hardness", "3sat", "1;-1"],
]
#: Calls run once in a child before the fuzz, so that their kernels are compiled and in
#: numba's disk cache (parallel kernels: their thread pool must not start in the parent).
WARM_CHILD_CALLS = [
    ["samegame", "play", "1122/2211", "--time-limit", "0.2"],
    ["samegame", "play", "112233/332211/123123", "--time-limit", "0.2", "--threads", "2"],
    ["solitaire", "check", "strong1", "--graph", "complete:4"],
    ["clobber", "value", "xxo/xoo", "--time-limit", "1"],
    ["clickomania", "column", "1221", "--method", "brute", "--time-limit", "1"],
    ["grundy", "stats", "--db", "{db}", "--max-stones", "4"],
]


def warm() -> float:
    """Load the CLI and the numba kernels in this process (each verb once, on a tiny input;
    the parallel kernels of ``solitaire check`` and ``samegame play`` are left to the
    children, as a started thread pool does not survive a fork). Returns the seconds."""
    t0 = time.perf_counter()
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        for argv in WARM_CALLS:
            _call_main(list(argv))
    return time.perf_counter() - t0


def warm_safely(runner: Runner, tries: int = 2) -> tuple[float | None, str]:
    """Warm this process (``warm``) once a child has run the same calls without dying: a
    stale numba cache can abort the process that loads it (LLVM "Symbol not found"), and
    the parent must survive that. Returns (seconds, or None when not warmed; a note)."""
    probe = Case(index=-100, verb="warm-up", kind="setup", cap=300.0,
                 argv=tuple(WARM_CALLS[-1]), before=tuple(tuple(c) for c in WARM_CALLS[:-1]))
    note = ""
    for _ in range(tries):
        res = next(runner.run([probe]))
        if res.signal is None and not res.killed_by_cap:
            return warm(), note
        note = (f"the warm-up calls died in a child ({res.findings}; "
                f"{res.stderr.strip()[-300:]}); the parent is not warmed")
        time.sleep(5)
    return None, note


class Runner:
    """Forks a child per case, ``jobs`` at a time, under the memory and wall-clock caps."""

    def __init__(self, jobs: int = 1, mem_bytes: int | None = None,
                 workdir: str | None = None):
        self.jobs = max(1, jobs)
        self.mem = mem_bytes or memory_bound()   # the project's one memory bound
        self.root = Path(workdir or tempfile.mkdtemp(prefix="clobbermania-fuzz-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.db = str(self.root / "db")

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def setup(self, max_stones: int = 10) -> list[Result]:
        """Build a small row database for ``grundy stats`` and run WARM_CHILD_CALLS once
        (each in a child) so that their kernels are in numba's disk cache."""
        todo = [Case(index=-1, verb="grundy build", kind="setup", cap=60.0,
                     argv=("grundy", "build", "--max-stones", str(max_stones), "--db", "{db}"))]
        todo += [Case(index=-2 - k, verb=" ".join(c[:2]), kind="setup", argv=tuple(c), cap=60.0)
                 for k, c in enumerate(WARM_CHILD_CALLS)]
        jobs, self.jobs = self.jobs, 1
        try:
            return list(self.run(todo))
        finally:
            self.jobs = jobs

    def run(self, todo: Iterable[Case]) -> Iterator[Result]:
        """Run the cases; yield each result (findings filled in) as it completes."""
        pending = iter(todo)
        running: dict[int, tuple[Case, float, Path]] = {}
        try:
            yield from self._loop(pending, running)
        finally:   # interrupted: leave no child behind
            for cpid in running:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(cpid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(cpid, 0)

    def _loop(self, pending: Iterator[Case], running: dict) -> Iterator[Result]:
        exhausted = False
        while True:
            while not exhausted and len(running) < self.jobs:
                case = next(pending, None)
                if case is None:
                    exhausted = True
                    break
                folder = self.root / f"case-{case.index}-{os.getpid()}-{len(running)}"
                folder.mkdir()
                pid = self._fork(case, folder)
                running[pid] = (case, time.monotonic(), folder)
            if not running:
                return
            pid, status, usage = os.wait4(-1, os.WNOHANG)
            if pid == 0:
                now = time.monotonic()
                for cpid, (case, start, _folder) in running.items():
                    if now - start > case.cap:
                        with contextlib.suppress(ProcessLookupError):
                            os.killpg(cpid, signal.SIGKILL)
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(cpid, signal.SIGKILL)
                        (_folder / "killed").write_text(f"{now - start:.1f}")
                time.sleep(0.005)
                continue
            if pid not in running:
                continue
            case, start, folder = running.pop(pid)
            # grandchildren (samegame --workers) die with their parent
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            res = self._collect(case, folder, status, usage, time.monotonic() - start)
            shutil.rmtree(folder, ignore_errors=True)
            yield res

    def _fork(self, case: Case, folder: Path) -> int:
        argv = case.concrete_argv(str(folder), self.db)
        for name, text in case.files:
            (folder / name).write_text(text, encoding="utf-8", errors="surrogateescape")
        (folder / "stdin").write_text(case.stdin, encoding="utf-8", errors="surrogateescape")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            return pid
        code = 70
        try:
            os.setpgid(0, 0)
            resource.setrlimit(resource.RLIMIT_AS, (self.mem, self.mem))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            fin = os.open(folder / "stdin", os.O_RDONLY)
            fout = os.open(folder / "stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            ferr = os.open(folder / "stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fin, 0)
            os.dup2(fout, 1)
            os.dup2(ferr, 2)
            # the streams a real process would have (UTF-8 locale; stderr backslash-escapes)
            sys.stdin = io.TextIOWrapper(open(0, "rb", closefd=False), encoding="utf-8",
                                         errors="surrogateescape")
            sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding="utf-8",
                                          errors="strict", line_buffering=False)
            sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), encoding="utf-8",
                                          errors="backslashreplace", line_buffering=True)
            os.chdir(folder)
            os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
            # a call about to be killed leaves its stacks on stderr, to see where it was
            faulthandler.dump_traceback_later(max(1.0, case.cap - 1.0), file=sys.stderr)
            sink = io.StringIO()
            for earlier in case.before:
                with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                    _call_main([a.replace("{db}", self.db) for a in earlier])
            t0 = time.perf_counter()
            code, tb = _call_main(argv)
            wall = time.perf_counter() - t0
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            (folder / "result.json").write_text(json.dumps(
                {"code": code, "traceback": tb, "wall": wall}))
        except BaseException:
            with contextlib.suppress(Exception):
                traceback.print_exc()
                sys.stderr.flush()
        finally:
            os._exit(code)

    def _collect(self, case: Case, folder: Path, status: int, usage, outer: float) -> Result:
        res = Result(case=case, outer=outer, maxrss_kb=usage.ru_maxrss)
        res.stdout = _read(folder / "stdout")
        res.stderr = _read(folder / "stderr")
        res.killed_by_cap = (folder / "killed").exists()
        if os.WIFSIGNALED(status):
            res.signal = os.WTERMSIG(status)
        else:
            res.code = os.WEXITSTATUS(status)
        info = None
        with contextlib.suppress(OSError, ValueError):
            info = json.loads((folder / "result.json").read_text())
        if info:
            res.traceback = info["traceback"]
            res.wall = info["wall"]
        res.findings = classify(res, self.mem)
        return res


def _read(path: Path, limit: int = 1 << 20) -> str:
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit)
    except OSError:
        return ""
    return data.decode("utf-8", errors="backslashreplace")


def classify(res: Result, mem_bytes: int) -> list[str]:
    """The ways a call broke the contract (empty: it kept it)."""
    case = res.case
    found = []
    if res.signal is not None and re.match(r"Timeout \(\d", res.stderr):
        # faulthandler's dump just before the cap can itself crash a process that is
        # inside a kernel: the call was about to be killed by the cap anyway
        res.killed_by_cap = True
    if res.killed_by_cap:
        found.append(f"killed by the wall-clock cap ({case.cap:.0f} s"
                     + (", no time limit given)" if case.limit is None
                        else f", time limit {case.limit:g} s)") + _where(res.stderr))
        return found
    if res.signal is not None:
        found.append(f"died of signal {res.signal} ({signal.Signals(res.signal).name})")
        return found
    if res.code not in (0, 1, 2):
        found.append(f"exit status {res.code}")
    if res.traceback or "Traceback (most recent call last)" in res.stdout + res.stderr:
        last = [ln for ln in res.stderr.strip().splitlines() if ln.strip()]
        found.append("traceback: " + (last[-1][:300] if last else "?"))
        return found
    helped = any(a in HELP for a in case.argv)
    if res.code == 2 and not helped:
        lines = res.stderr.rstrip("\n").split("\n")
        if len(lines) != 1 or not lines[0].startswith("error: "):
            found.append(f"exit 2 without one 'error: ' line on stderr: {res.stderr[:300]!r}")
    seconds = None
    if res.code in (0, 1) and "--json" in case.argv and not helped:
        try:
            obj = json.loads(res.stdout)
        except ValueError:
            found.append(f"--json output is not one JSON object: {res.stdout[:200]!r}")
        else:
            if not isinstance(obj, dict):
                found.append("--json output is not a JSON object")
            elif "seconds" not in obj:
                found.append("--json object has no 'seconds'")
            else:
                seconds = obj["seconds"]
    if case.limit is not None and res.code in (0, 1):
        bound = case.limit * 1.1 + 0.5
        if isinstance(seconds, (int, float)) and seconds > bound + SECONDS_SLACK:
            found.append(f"time limit overrun: seconds {seconds:.2f} > {bound:.2f} "
                         f"(limit {case.limit:g} s)")
        elif res.wall > bound + WALL_SLACK:
            found.append(f"time limit overrun: wall {res.wall:.2f} s > {bound:.2f} "
                         f"(limit {case.limit:g} s)")
    if res.maxrss_kb * 1024 > mem_bytes:
        found.append(f"peak RSS {res.maxrss_kb / 2**20:.1f} GB past the memory cap")
    return found


def _where(stderr: str) -> str:
    """Where a killed call was: the innermost frame of the stacks ``faulthandler`` left on
    stderr (numba compiling, a kernel, a Python loop), or nothing."""
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        if "most recent call first" in line:
            frames = [ln.strip() for ln in lines[i + 1:i + 40] if ln.strip().startswith("File")]
            inner = next((f for f in frames if "site-packages/numba" not in f), None)
            compiling = any("numba/core/compiler" in f or "numba/core/dispatcher" in f
                            and "_compile_for_args" in f for f in frames)
            where = inner.removeprefix("File ").replace(str(REPO) + "/", "") if inner else ""
            return (" in numba compilation" if compiling else "") + (f" at {where}" if where
                                                                    else "")
    return ""
