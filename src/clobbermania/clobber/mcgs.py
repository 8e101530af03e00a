"""A reader for MCGS ``.test`` files, and a runner for their Clobber cases (impartial and
two-player: :func:`run_case`).

MCGS (Folkersen, Müller, Du; University of Alberta) solves sums of combinatorial games;
its test files list sums and expected results. The syntax (from MCGS's
``input/info.test``, which this reader follows):

- ``{version 1.7}`` names the language version (a command, first in a file);
- ``/* ... */`` comments, possibly over several lines (``/*_`` ones are private notes);
- ``[section]`` sets the game of what follows until the next section: ``[clobber_1xn]``
  (a row of ``X``, ``O``, ``.``), ``[clobber]`` (a grid, rows separated by ``|``), and
  ``[impartial GAME]`` for the impartial version; a section title may be followed by
  games on the same line;
- games are whitespace-separated words, or bracketed ``( ... )``; all games since the last
  command form a *sum* (games of different sections may be mixed);
- ``{...}`` solves the current sum and then empties it: comma-separated items ``B`` /
  ``W`` (solve with Black / White to move), ``B win``, ``W loss`` ... (with an expected
  outcome for the player to move), ``N`` / ``N 3`` (the nim value of an impartial sum,
  optionally expected). A command after no game solves the empty sum.

Each command becomes a :class:`TestCase`. Boards are converted to clobbermania's notation
(``|`` becomes ``/``; ``X``, ``O`` and ``.`` are read by :class:`~clobbermania.stones.Position`).

>>> cases = parse_test_text('''{version 1.7}
... [impartial clobber_1xn]
... /* 2 pairs */ XOXO {N 3}
... XO OX.X {N 0, B loss}
... [clobber] XO|OX {B win, W win}''')
>>> [(c.line, c.game, c.board, [e.text() for e in c.expectations]) for c in cases]
[(3, 'impartial clobber_1xn', 'XOXO', ['N 3']), (4, 'impartial clobber_1xn', 'XO OX.X', \
['N 0', 'B loss']), (5, 'clobber', 'XO/OX', ['B win', 'W win'])]
>>> run_impartial_case(cases[1])[:2]
(True, 0)
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ClobbermaniaError, NotationError, UnsupportedError
from ..limits import read_capped_text
from ..stones import Position
from .impartial import RowValues, nim_sum, solver_for

__all__ = [
    "Expectation",
    "Game",
    "TestCase",
    "parse_test_file",
    "parse_test_text",
    "read_test_text",
    "read_directory",
    "run_impartial_case",
    "CaseResult",
    "run_case",
    "MAX_TEST_FILE_BYTES",
]

#: The largest ``.test`` file read (as edge-list files): a larger one is refused unread.
MAX_TEST_FILE_BYTES = 32 << 20

#: The characters of a refused case's board echoed in a result (then ``...``).
BOARD_ECHO = 80

#: Sections whose boards this reader checks character by character (the Clobber games).
CLOBBER_GAMES = ("clobber_1xn", "clobber")
_BOARD_CHARS = {"clobber_1xn": set("XO."), "clobber": set("XO.|")}
_ITEM_RE = re.compile(r"(?:(B|W)(?:\s+(win|loss))?|N(?:\s+(\d+))?)")


@dataclass(frozen=True)
class Expectation:
    """One item of a command: ``B``/``W`` with an expected ``win``/``loss`` (or None), or
    ``N`` with an expected nim value (or None)."""

    player: str  # "B", "W" or "N"
    outcome: str | None = None  # "win" or "loss" (B and W only)
    nim: int | None = None  # N only

    def text(self) -> str:
        if self.player == "N":
            return "N" if self.nim is None else f"N {self.nim}"
        return self.player if self.outcome is None else f"{self.player} {self.outcome}"

    def satisfied_by_nim(self, value: int) -> bool:
        """Whether an impartial sum of nim value ``value`` meets this expectation (the
        player to move wins exactly when the value is not 0)."""
        if self.player == "N":
            return self.nim is None or self.nim == value
        if self.outcome is None:
            return True
        return (value != 0) == (self.outcome == "win")


@dataclass(frozen=True)
class Game:
    """One game of a sum: its section (``impartial clobber_1xn``, ``clobber`` ...) and board
    in clobbermania's notation (``|`` already turned into ``/``)."""

    section: str
    board: str

    @property
    def impartial(self) -> bool:
        return self.section.startswith("impartial ")

    @property
    def base(self) -> str:
        """The section without ``impartial``: ``clobber_1xn`` or ``clobber`` for Clobber."""
        return self.section.removeprefix("impartial ").strip()

    def position(self) -> Position:
        """The board as a Position (a Clobber section only)."""
        if self.base not in CLOBBER_GAMES:
            raise UnsupportedError(f"game [{self.section}] is not Clobber")
        return Position.from_string(self.board)


@dataclass(frozen=True)
class TestCase:
    """One command of a ``.test`` file: the sum before it and what is expected of it.

    ``line`` is the line of the sum's first game (of the command when the sum is empty);
    ``game`` the section in force at the command; ``board`` the sum as text, games
    separated by a space; ``games`` the games with their own sections.
    """

    __test__ = False  # not a pytest class, despite its name

    line: int
    game: str
    board: str
    expectations: tuple[Expectation, ...]
    file: str = "<string>"
    games: tuple[Game, ...] = field(default=(), repr=False)
    version: str | None = field(default=None, repr=False)

    @property
    def impartial(self) -> bool:
        """Whether every game of the sum is impartial (so it has a nim value)."""
        return all(g.impartial for g in self.games)

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def _quote(text: str, limit: int = 40) -> str:
    """``text`` for an error message: its repr, of at most ``limit`` characters of it (a
    token of a malformed file can run over many lines; repr keeps the message one line).

    >>> _quote("version 1.7c\\n[clobber_1xn]\\nXOXO {B win", 16)
    "'version 1.7c\\\\n[cl'..."
    """
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


_GAME_END = re.compile(r"\s|/\*")


def _tokens(text: str, file: str) -> Iterable[tuple[str, str, int]]:
    """(kind, text, line) for each section, command, game; comments are skipped."""
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
            continue
        if ch.isspace():
            i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise NotationError(f"{file}:{line}: a comment opened here is never closed "
                                    "with */")
            line += text.count("\n", i, end)
            i = end + 2
            continue
        closers = {"[": ("]", "section"), "{": ("}", "command"), "(": (")", "game")}
        if ch in closers:
            close, kind = closers[ch]
            end = text.find(close, i + 1)
            if end < 0:
                raise NotationError(f"{file}:{line}: {ch!r} is never closed with {close!r}")
            body = text[i + 1:end]
            yield kind, body.strip(), line
            line += body.count("\n")
            i = end + 1
            continue
        if ch in "]})":
            raise NotationError(f"{file}:{line}: {ch!r} closes nothing")
        m = _GAME_END.search(text, i)  # a game runs to a space or a comment
        j = m.start() if m else n
        yield "game", text[i:j], line
        i = j


def _parse_command(body: str, file: str, line: int) -> tuple[Expectation, ...]:
    out = []
    for raw in body.split(","):
        item = " ".join(raw.split())
        m = _ITEM_RE.fullmatch(item)
        if not m:
            raise NotationError(f"{file}:{line}: bad command item {_quote(item)} (expected B, W, "
                                "'B win', 'W loss', N or 'N 3')")
        if m.group(1):
            out.append(Expectation(m.group(1), outcome=m.group(2)))
        else:
            out.append(Expectation("N", nim=None if m.group(3) is None else int(m.group(3))))
    if len(out) > 3:
        raise NotationError(f"{file}:{line}: a command solves a sum at most 3 times, "
                            f"not {len(out)}")
    return tuple(out)


def parse_test_text(text: str, file: str = "<string>") -> list[TestCase]:
    """Every case of the text of an MCGS ``.test`` file (see the module docstring).

    Raises NotationError naming ``file:line`` on bad syntax or a bad Clobber board.
    """
    cases: list[TestCase] = []
    section: str | None = None
    version: str | None = None
    pending: list[Game] = []
    first_line: int | None = None
    for kind, body, line in _tokens(text, file):
        if kind == "section":
            section = " ".join(body.split())
            if not section:
                raise NotationError(f"{file}:{line}: empty section title []")
        elif kind == "game":
            if section is None:
                raise NotationError(f"{file}:{line}: game {_quote(body)} comes before any "
                                    "[section] title")
            base = section.removeprefix("impartial ").strip()
            allowed = _BOARD_CHARS.get(base)
            if allowed is not None:
                bad = sorted(set(body) - allowed)
                if bad or not body:
                    raise NotationError(f"{file}:{line}: bad character {bad[0] if bad else ''!r}"
                                        f" in [{_quote(section)}] board {_quote(body)}")
                if base == "clobber":
                    widths = {len(r) for r in body.split("|")}
                    if len(widths) != 1 or 0 in widths:
                        raise NotationError(f"{file}:{line}: [{_quote(section)}] board "
                                            f"{_quote(body)} is not a rectangle of "
                                            "non-empty rows")
            pending.append(Game(section, body.replace("|", "/")))
            if first_line is None:
                first_line = line
        else:  # command
            words = body.split()
            if words and words[0] == "version":
                if len(words) != 2:
                    raise NotationError(f"{file}:{line}: expected {{version X.Y}}, "
                                        f"not {_quote('{' + body + '}')}")
                version = words[1]
                continue
            exps = _parse_command(body, file, line)
            cases.append(TestCase(
                line=first_line if first_line is not None else line,
                game=section or "",
                board=" ".join(g.board for g in pending),
                expectations=exps,
                file=file,
                games=tuple(pending),
                version=version,
            ))
            pending, first_line = [], None
    if pending:
        raise NotationError(f"{file}:{first_line}: games at the end of the file "
                            "are never solved (no {...} command follows)")
    return cases


def parse_test_file(path: str | Path) -> list[TestCase]:
    """Every case of one ``.test`` file (``file`` is the file's name)."""
    return parse_test_text(read_test_text(path), file=Path(path).name)


def read_test_text(path: str | Path) -> str:
    """The text of a ``.test`` file: refused (one sentence) when it is larger than
    :data:`MAX_TEST_FILE_BYTES` (before it is read) or is not UTF-8 text (naming the
    first bad byte's offset)."""
    return read_capped_text(path, MAX_TEST_FILE_BYTES, "test file")


def read_directory(directory: str | Path, pattern: str = "*.test") -> list[TestCase]:
    """Every case of every matching file in ``directory``, files in name order."""
    out: list[TestCase] = []
    for p in sorted(Path(directory).glob(pattern)):
        out.extend(parse_test_file(p))
    return out


def run_impartial_case(case: TestCase, db: RowValues | None = None,
                       time_limit: float | None = None) -> tuple[bool, int, float]:
    """Solve an impartial case: (passed, nim value found, seconds).

    The nim value of the sum is the XOR of the Grundy values of its games (as
    :func:`~clobbermania.clobber.impartial.grundy_value`, without the winning moves);
    ``B win`` / ``W win`` hold when it is not 0, ``loss`` when it is 0 (in an impartial
    game the player to move decides nothing else). Raises UnsupportedError for a case
    with a partizan or non-Clobber game, and GrundyTimeout when ``time_limit`` runs out.
    """
    if not case.impartial:
        raise UnsupportedError(f"{case.where()}: the case is not impartial (section "
                               f"[{case.game}]); partizan cases need the two-player solver")
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    solver = solver_for(db)
    found = nim_sum(solver.value(g.position(), deadline) for g in case.games)
    passed = all(e.satisfied_by_nim(found) for e in case.expectations)
    return passed, found, time.perf_counter() - t0


# -- partizan cases (two-player Clobber) ------------------------------------------------------

@dataclass(frozen=True)
class CaseResult:
    """The outcome of running one case: ``status`` is ``pass``, ``fail``, ``timeout`` or
    ``refused`` (a game of the case is past a cap of docs/limits.md, for example a row of
    more than 512 stones for the row-sum search; ``reason`` is the cap's sentence);
    ``found`` the results in the command's order (``B win``, ``W loss``, ``N 3`` ...;
    ``?`` where the time ran out or the case was refused)."""

    case: TestCase
    status: str
    found: tuple[str, ...]
    seconds: float
    reason: str | None = None

    def to_dict(self) -> dict:
        board = self.case.board
        if self.status == "refused" and len(board) > BOARD_ECHO:  # may be megabytes long
            board = board[:BOARD_ECHO] + "..."
        return {"file": self.case.file, "line": self.case.line, "board": board,
                "expected": [e.text() for e in self.case.expectations],
                "found": list(self.found), "status": self.status,
                "reason": self.reason, "seconds": round(self.seconds, 6)}


def run_case(case: TestCase, time_limit: float | None = None) -> CaseResult:
    """Run one case of any Clobber section.

    Impartial cases go to :func:`run_impartial_case`. Partizan ones (``[clobber_1xn]``,
    ``[clobber]``) are solved by :func:`clobbermania.clobber.search.solve_sum` for each
    player named (``B`` / ``W``), the sum of the case's boards with that player to move;
    a ``B`` or ``W`` without an expected outcome passes once solved. ``time_limit`` is per
    case (None: no limit). A case whose games are past a cap (the solvers refuse them
    with a ClobbermaniaError) is ``refused``, not an error, so that a run goes on; a case
    that is malformed (``N`` of a partizan sum, impartial and partizan games mixed)
    raises UnsupportedError.

    >>> case = parse_test_text("[clobber_1xn] XOXOXO {B loss, W loss}")[0]
    >>> r = run_case(case)
    >>> r.status, r.found
    ('pass', ('B loss', 'W loss'))
    """
    t0 = time.perf_counter()
    if not case.impartial:
        if any(g.impartial for g in case.games):
            raise UnsupportedError(f"{case.where()}: a sum mixing impartial and partizan "
                                   "games is not supported")
        if any(e.player == "N" for e in case.expectations):
            raise UnsupportedError(f"{case.where()}: a partizan sum has no nim value (N)")
    try:
        return _run_case(case, time_limit, t0)
    except ClobbermaniaError as exc:
        return CaseResult(case, "refused", ("?",) * len(case.expectations),
                          time.perf_counter() - t0, str(exc))


def _run_case(case: TestCase, time_limit: float | None, t0: float) -> CaseResult:
    from ..stones import BLACK, WHITE
    from .impartial import GrundyTimeout
    from .search import solve_sum

    if case.impartial:
        try:
            ok, nim, _ = run_impartial_case(case, time_limit=time_limit)
        except GrundyTimeout:
            return CaseResult(case, "timeout", ("?",) * len(case.expectations),
                              time.perf_counter() - t0)
        found = tuple(f"N {nim}" if e.player == "N" else
                      f"{e.player} {'win' if nim else 'loss'}" for e in case.expectations)
        return CaseResult(case, "pass" if ok else "fail", found, time.perf_counter() - t0)
    positions = [g.position() for g in case.games]
    found = []
    status = "pass"
    for e in case.expectations:
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            found.append("?")
            status = "timeout" if status == "pass" else status
            continue
        first = BLACK if e.player == "B" else WHITE
        r = solve_sum(positions, first, time_limit=left)
        if r.winner is None:
            found.append("?")
            status = "timeout" if status == "pass" else status
            continue
        outcome = "win" if r.winner == ("black" if first == BLACK else "white") else "loss"
        found.append(f"{e.player} {outcome}")
        if e.outcome is not None and e.outcome != outcome:
            status = "fail"
    return CaseResult(case, status, tuple(found), time.perf_counter() - t0)
