"""The CLI's verbs as functions returning the object their ``--json`` prints.

Each verb of the command line (``clobbermania solitaire solve``, ``cgt value``, ...) is one
function here, with keyword arguments named as the JSON keys of its endpoint: it parses
and checks its input, runs the library, and returns an :class:`Answer` whose ``obj`` is
exactly what ``--json`` prints. The CLI prints ``obj`` (or text from ``result``); the web
answers ``obj`` (:data:`ENDPOINTS`, through :func:`clobbermania.api.call`), so the two
cannot drift apart.

With ``web=True`` a function reads nothing from the machine: a board is text (never a
file, never standard input) and a ``graph`` is a built-in spec
(:func:`~clobbermania.graphs.is_builtin_spec`). The CLI passes ``web=False`` and its own
keyword-only extras (a row database folder, a worker count, progress callbacks), which
are no JSON keys.

>>> cgt_value(expr="{0|^}").obj["value"]
'^^*'
>>> solitaire_verify(board="xoxo", moves=["a1-b1", "a1-b1"]).exit_code
1
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cgt import Game, parse
from ..cgt.game import TimeLimitReached
from ..cgt.game import time_limit as cgt_time_limit
from ..clobber.impartial import GrundyTimeout
from ..clobber.impartial import grundy_value as _grundy_value
from ..clobber.search import solve_outcome
from ..clobber.values import ValueTimeout, value_result
from ..errors import NotationError, UnsupportedError
from ..graphs import is_builtin_spec, parse_graph_spec
from ..solitaire import replay, solve
from ..solitaire.rules import parse_first
from ..stones import Move, Position, color_from_name
from ._request import Endpoint, Param, RequestError

#: The default time limit of ``cgt value`` and ``cgt compare``, in seconds: a canonical
#: form has no partial answer, so running out is an error, not a bound.
CGT_TIME_LIMIT = 60.0
#: The default time limit of ``samegame play``, in seconds.
SAMEGAME_TIME_LIMIT = 60.0


@dataclass(frozen=True)
class Answer:
    """What a verb answers.

    ``obj`` is exactly the object ``--json`` prints (and the web answers, less ``db``);
    ``result`` the library's result object (for the CLI's text output and ``--svg``), or
    the time-out exception whose sentence the text prints when a search stopped with no
    value; ``position`` the parsed position or Clickomania board; ``exit_code`` 1 for a
    ``verify`` of an illegal sequence (the web still answers HTTP 200).
    """

    obj: dict
    result: Any = None
    position: Any = None
    exit_code: int = 0


def _opt(name: str, web: bool) -> str:
    """How a sentence names option ``name``: the JSON key on the web, ``--name`` else."""
    return name if web else "--" + name.replace("_", "-")


def check_time_limit(value: float | None, web: bool = False) -> float | None:
    """The time limit, refused unless a finite positive number (no limit: None).

    >>> check_time_limit(2.5)
    2.5
    >>> check_time_limit(0)
    Traceback (most recent call last):
    ...
    clobbermania.errors.NotationError: --time-limit must be a positive number of seconds, not 0
    """
    if value is not None and not 0 < value < float("inf"):
        raise NotationError(f"{_opt('time_limit', web)} must be a positive number of "
                            f"seconds, not {value}")
    return value


def _refuse_stdin(board: str) -> None:
    if board == "-":
        raise RequestError("a board '-' (standard input) is not accepted by the API: send "
                           "the board's text")


def load_position(board: str, graph: str | None = None, web: bool = False) -> Position:
    """The position ``board`` (board text) on the grid it describes or on the graph
    ``graph`` (a SPEC of :func:`graphs.parse_graph_spec`). With ``web``, a graph must be a
    built-in spec and the board may not be ``-`` (the API reads no file or stdin).

    >>> load_position("xoxo", "cycle:4", web=True).text()
    'xoxo'
    """
    if web:
        _refuse_stdin(board)
        if graph is not None and not is_builtin_spec(graph):
            raise RequestError("graph must be a built-in spec such as cycle:6; the API "
                               "reads no files")
    if graph is None:
        return Position.from_string(board)
    return Position.from_string(board, parse_graph_spec(graph))


def load_clicks_board(board: str, web: bool = False):
    """The Clickomania board ``board``: on the command line a board or the name of a file
    holding one (:func:`clickomania.rules.load_board`); with ``web``, board text only,
    under the same cell cap (:data:`clickomania.rules.LOAD_MAX_CELLS`).

    >>> load_clicks_board("12/21", web=True).n_blocks
    4
    """
    from ..clickomania.rules import LOAD_MAX_CELLS, Board, load_board

    if web:
        _refuse_stdin(board)
        return Board.from_string(board, LOAD_MAX_CELLS)
    return load_board(board)


# --- Solitaire Clobber ------------------------------------------------------------------

def solitaire_solve(*, board: str, free: bool = False, first: str = "any",
                    graph: str | None = None, time_limit: float | None = None,
                    node_limit: int | None = None, no_theorems: bool = False,
                    web: bool = False, progress: Callable[[dict], None] | None = None
                    ) -> Answer:
    """``solitaire solve``: the fewest stones Solitaire Clobber can leave on ``board``
    (SC, or SC2 when ``free``), a witness and why it is optimal (solitaire.solve).

    >>> solitaire_solve(board="xoxo").obj["stones_left"]
    1
    """
    position = load_position(board, graph, web)
    check_time_limit(time_limit, web)
    if node_limit is not None and node_limit < 0:
        raise NotationError(f"{_opt('node_limit', web)} must be at least 0, not {node_limit}")
    first_color = parse_first(first)   # checked under SC2 too, as the CLI's choice does
    if free:
        first_color = None
    result = solve(position, free=free, first=first_color, time_limit=time_limit,
                   node_limit=node_limit, use_theorems=not no_theorems, progress=progress)
    return Answer(result.to_dict(), result, position)


def solitaire_verify(*, board: str, moves: list[str] | tuple[str, ...] = (),
                     free: bool = False, first: str = "any", graph: str | None = None,
                     web: bool = False) -> Answer:
    """``solitaire verify``: replay ``moves`` on ``board`` with the reference rules;
    ``valid`` false and exit code 1 when a move is illegal.

    >>> solitaire_verify(board="xoxo", moves=["a1-b1", "d1-c1", "b1-c1"]).obj["final"]
    '..x.'
    """
    t0 = time.perf_counter()
    position = load_position(board, graph, web)
    first_color = parse_first(first)   # checked under SC2 too, as the CLI's choice does
    parsed = [Move.parse(m, position.board) for m in moves]
    result = replay(position, parsed, free=free, first=None if free else first_color)
    out = result.to_dict()
    out["seconds"] = round(time.perf_counter() - t0, 6)
    return Answer(out, result, position, 0 if result.valid else 1)


# --- Impartial Clobber ------------------------------------------------------------------

def open_db(db_dir: str | None):
    """The row database in ``db_dir``; without it, the default one when it has been
    built there (else None: every part is searched)."""
    from ..clobber.rowdb import RowDatabase, RowDatabaseError

    if db_dir is not None:
        return RowDatabase.open(db_dir)
    try:
        return RowDatabase.open(None)
    except RowDatabaseError:
        return None


def grundy_value(*, board: str, graph: str | None = None, time_limit: float | None = None,
                 web: bool = False, db_dir: str | None = None) -> Answer:
    """``grundy value``: the Grundy value of ``board`` under impartial Clobber and every
    winning move (clobber.impartial.grundy_value), using the row database ``db_dir`` or
    the default one when built; ``grundy`` null and ``exact`` false when ``time_limit``
    ran out (``result`` is then the :class:`GrundyTimeout`).

    >>> grundy_value(board="xoxo").obj["grundy"]
    3
    """
    if web and db_dir is not None:
        raise RequestError("the API opens no database folder named in a request")
    t0 = time.perf_counter()
    position = load_position(board, graph, web)
    check_time_limit(time_limit, web)
    db = open_db(db_dir)
    db_path = str(db.path) if db is not None and hasattr(db, "path") else None
    try:
        result = _grundy_value(position, db=db, time_limit=time_limit)
    except GrundyTimeout as exc:
        return Answer({"grundy": None, "winning_moves": None, "exact": False,
                       "board": position.text(), "db": db_path,
                       "seconds": round(time.perf_counter() - t0, 6)}, exc, position)
    out = result.to_dict()
    out["board"] = position.text()
    out["db"] = db_path
    out["seconds"] = round(time.perf_counter() - t0, 6)
    return Answer(out, result, position)


# --- Clobber ----------------------------------------------------------------------------

def clobber_value(*, board: str, graph: str | None = None, time_limit: float | None = None,
                  web: bool = False) -> Answer:
    """``clobber value``: the canonical value of ``board`` under Clobber in CGSuite
    syntax, its outcome class and atomic weight (clobber.values.value_result); null
    values, ``exact`` false and the reason when ``time_limit`` ran out (``result`` is
    then the :class:`ValueTimeout`).

    >>> clobber_value(board="xxo").obj["value"]
    '^'
    """
    t0 = time.perf_counter()
    position = load_position(board, graph, web)
    check_time_limit(time_limit, web)
    try:
        r = value_result(position, time_limit=time_limit)
    except ValueTimeout as exc:
        return Answer({"value": None, "outcome": None, "atomic_weight": None,
                       "board": position.text(), "exact": False, "reason": str(exc),
                       "seconds": round(time.perf_counter() - t0, 6)}, exc, position)
    out = {**r.to_dict(), "exact": True, "board": position.text()}
    return Answer({**out, "seconds": round(time.perf_counter() - t0, 6)}, r, position)


def clobber_solve(*, board: str, first: str, graph: str | None = None,
                  time_limit: float | None = None, winner_only: bool = False,
                  web: bool = False) -> Answer:
    """``clobber solve``: who wins ``board`` under Clobber with ``first`` to move, and
    every winning first move (clobber.search.solve_outcome); with ``winner_only``, the
    winner and, when the player to move wins, the one winning move that proved it (the
    other first moves are not searched; the JSON says ``"winner_only": true``).

    >>> clobber_solve(board="xoxo/oxox", first="white").obj["winner"]
    'white'
    >>> clobber_solve(board="xoxo/oxox", first="black", winner_only=True).obj["winning_moves"]
    ['a1-b1']
    """
    position = load_position(board, graph, web)
    check_time_limit(time_limit, web)
    r = solve_outcome(position, color_from_name(first), time_limit=time_limit,
                      all_moves=not winner_only)
    obj = {**r.to_dict(), "winner_only": True} if winner_only else r.to_dict()
    return Answer(obj, r, position)


# --- CGT --------------------------------------------------------------------------------

def bounded(run: Callable[[], Any]) -> Any:
    """Run ``run()`` (the whole computation) refusing, with one sentence, games whose
    recursion is deeper than Python's stack allows."""
    try:
        return run()
    except RecursionError:
        raise UnsupportedError("the game is nested too deeply for the engine's recursion "
                               "(see cgt.game.MAX_DEPTH)") from None


def _frac(x) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def cgt_value(*, expr: str, time_limit: float | None = CGT_TIME_LIMIT,
              web: bool = False) -> Answer:
    """``cgt value``: the canonical form of ``expr`` (CGSuite syntax) and its invariants:
    outcome, mean, temperature, atomic weight, reduced canonical form, birthday; a cap
    passed by the atomic weight or the reduced form leaves that key null and its sentence
    under ``refused``. Running out of ``time_limit`` is an error (no partial answer).

    >>> cgt_value(expr="{2|1}").obj["temperature"]
    '1/2'
    """
    t0 = time.perf_counter()
    check_time_limit(time_limit, web)
    refused: dict[str, str] = {}

    def capped(name, compute):
        # a cap on atomic weight or reduced form leaves the rest of the answer standing;
        # running out of time does not
        try:
            return compute()
        except TimeLimitReached:
            raise
        except UnsupportedError as exc:
            refused[name] = str(exc)
            return None

    def run():
        with cgt_time_limit(time_limit):
            g = parse(expr)
            aw = capped("atomic_weight", g.atomic_weight) if g.is_all_small else None
            red = capped("reduced", g.reduced)
            return g, {
                "value": str(g),
                "outcome": g.outcome,
                "mean": _frac(g.mean),
                "temperature": _frac(g.temperature),
                "atomic_weight": None if aw is None else str(aw),
                "reduced": None if red is None else str(red),
                "birthday": g.birthday,
            }

    g, info = bounded(run)
    if refused:
        info["refused"] = refused
    info["seconds"] = round(time.perf_counter() - t0, 6)
    return Answer(info, g)


def cgt_compare(*, g: str, h: str, time_limit: float | None = CGT_TIME_LIMIT,
                web: bool = False) -> Answer:
    """``cgt compare``: how the game ``g`` compares with ``h`` (CGSuite syntax): one of
    ``<``, ``>``, ``=``, ``||`` (confused); ``result`` is the relation.

    >>> cgt_compare(g="{0|*}", h="^").obj["relation"]
    '='
    """
    t0 = time.perf_counter()
    check_time_limit(time_limit, web)

    def run():
        with cgt_time_limit(time_limit):
            a, b = parse(g), parse(h)
            return Game.compare(a, b), str(a), str(b)

    rel, sa, sb = bounded(run)
    return Answer({"relation": rel, "left": sa, "right": sb,
                   "seconds": round(time.perf_counter() - t0, 6)}, rel)


# --- Clickomania and SameGame -----------------------------------------------------------

def clickomania_solve(*, board: str, maximize: bool = False, time_limit: float | None = None,
                      web: bool = False, before_search: Callable[[Any], None] | None = None,
                      progress: Callable[[dict], None] | None = None) -> Answer:
    """``clickomania solve``: can every block of ``board`` be removed (or, ``maximize``,
    how many can), with a witness and a proof (clickomania.solver.solve_clickomania).
    ``before_search(board)`` runs once the board is read (the CLI checks ``--svg``).

    >>> clickomania_solve(board="1212/1122/2211").obj["solvable"]
    True
    """
    from ..clickomania.solver import solve_clickomania

    b = load_clicks_board(board, web)
    check_time_limit(time_limit, web)
    if before_search is not None:
        before_search(b)
    result = solve_clickomania(b, maximize=maximize, time_limit=time_limit, progress=progress)
    return Answer(result.to_dict(), result, b)


def clickomania_column(*, board: str, method: str = "grammar",
                       time_limit: float | None = None, web: bool = False) -> Answer:
    """``clickomania column``: a one-column (or one-row) puzzle solved exactly with
    ``method`` grammar (Theorem 2's DP), two-color (Theorems 10 and 12) or brute
    (clickomania.column.solve_column); ``position`` is the puzzle.

    >>> clickomania_column(board="1221").obj["solvable"]
    True
    """
    from ..clickomania.column import solve_column

    check_time_limit(time_limit, web)
    result = solve_column(board, method=method.lower(), time_limit=time_limit)
    return Answer(result.to_dict(), result, result.puzzle)


def check_playouts(value: int | None, web: bool = False) -> None:
    """Refuse a playout limit outside 1..samegame.MAX_PLAYOUTS."""
    from ..clickomania.samegame import MAX_PLAYOUTS

    if value is not None and not 1 <= value <= MAX_PLAYOUTS:
        shown = str(value) if len(str(value)) <= 30 else f"{str(value)[:12]}..."
        raise NotationError(f"{_opt('max_playouts', web)} must be between 1 and "
                            f"{MAX_PLAYOUTS:,}, not {shown}")


def check_workers(value: int) -> None:
    """Refuse a worker count outside 1..samegame.MAX_WORKERS."""
    from ..clickomania.samegame import MAX_WORKERS

    if not 1 <= value <= MAX_WORKERS:
        raise NotationError(f"--workers must be between 1 and {MAX_WORKERS}, not {value}")


def default_restarts(value: int | None) -> int:
    """``value``, or the library's default number of sub-searches (samegame.RESTARTS)
    when None; the library refuses bad values."""
    from ..clickomania.samegame import RESTARTS

    return RESTARTS if value is None else value


def left_penalties(value: str | int | None, web: bool = False) -> list[int]:
    """The penalties a block left of ``left_penalty``: one whole number, or a comma list
    (``"60,0"``) that cycles over the searches; default samegame.LEFT_PENALTY.

    >>> left_penalties("60,0"), left_penalties(7)
    ([60, 0], [7])
    """
    from ..clickomania.samegame import LEFT_PENALTY, MAX_LEFT_PENALTY

    if value is None:
        return [LEFT_PENALTY]
    out = []
    for part in ([value] if isinstance(value, int) else value.split(",")):
        try:
            out.append(int(part))
        except ValueError:
            raise NotationError(f"{_opt('left_penalty', web)} takes whole numbers separated "
                                f"by commas, not {part.strip()!r}") from None
        if not 0 <= out[-1] <= MAX_LEFT_PENALTY:
            shown = str(out[-1]) if len(str(out[-1])) <= 30 else f"{str(out[-1])[:12]}..."
            raise NotationError(f"the penalty a block left must be between 0 and "
                                f"{MAX_LEFT_PENALTY:,}, not {shown}")
    return out


def samegame_play(*, board: str, time_limit: float | None = SAMEGAME_TIME_LIMIT,
                  seed: int = 0, max_playouts: int | None = None, clock: str = "wall",
                  restarts: int | None = None, left_penalty: str | int | None = None,
                  web: bool = False, workers: int = 1, threads: int | None = None,
                  before_search: Callable[[Any], None] | None = None,
                  progress: Callable[[dict], None] | None = None) -> Answer:
    """``samegame play``: a high-scoring SameGame game on ``board`` ((n-2)^2 a group of
    n, +1000 for a cleared board) by the iterated Monte-Carlo beam search of
    clickomania.samegame.play_samegame, within ``time_limit`` and ``max_playouts``.
    ``workers`` > 1 (CLI only) runs that many searches side by side, the best kept. On
    the web the search uses the threads numba is set to in the serving process.

    >>> samegame_play(board="1122/2211", time_limit=5).obj["score"]
    1004
    """
    from ..clickomania.samegame import MAX_JOBS, bench_samegame, play_samegame

    b = load_clicks_board(board, web)
    check_time_limit(time_limit, web)
    if before_search is not None:
        before_search(b)
    check_playouts(max_playouts, web)
    check_workers(workers)
    restarts = default_restarts(restarts)
    penalties = left_penalties(left_penalty, web)
    if web:
        import numba

        threads = numba.get_num_threads()
    if workers > 1:
        # the searches side by side, as many at once as there are cores
        result = bench_samegame([b], time_limit=time_limit, seed=seed,
                                jobs=min(workers, MAX_JOBS), clock=clock.lower(),
                                max_playouts=max_playouts, workers=workers,
                                restarts=restarts, threads=threads,
                                left_penalty=penalties)[0]
    else:
        result = play_samegame(b, time_limit=time_limit, seed=seed, progress=progress,
                               max_playouts=max_playouts, clock=clock.lower(),
                               restarts=restarts, threads=threads,
                               left_penalty=penalties[0])
    return Answer(result.to_dict(), result, b)


# --- the endpoints ----------------------------------------------------------------------

def _endpoint(name: str, fn: Callable[..., Answer], params: dict[str, Param],
              doc: str) -> Endpoint:
    return Endpoint(name, lambda **kw: fn(**kw, web=True).obj, params, heavy=True, doc=doc)


_GRAPH = Param(str)
_TIME = Param(float)

#: The CLI's verbs by endpoint name, with their JSON keys.
ENDPOINTS: dict[str, Endpoint] = {ep.name: ep for ep in [
    _endpoint("solitaire/solve", solitaire_solve, {
        "board": Param(str, True), "free": Param(bool, default=False),
        "first": Param(str, default="any"), "graph": _GRAPH, "time_limit": _TIME,
        "node_limit": Param(int), "no_theorems": Param(bool, default=False)},
        "Solitaire Clobber: the fewest stones left, a witness and its proof"),
    _endpoint("solitaire/verify", solitaire_verify, {
        "board": Param(str, True), "moves": Param(list),
        "free": Param(bool, default=False), "first": Param(str, default="any"),
        "graph": _GRAPH},
        "Solitaire Clobber: replay moves with the reference rules (valid false if illegal)"),
    _endpoint("grundy/value", grundy_value, {
        "board": Param(str, True), "graph": _GRAPH, "time_limit": _TIME},
        "impartial Clobber: the Grundy value and every winning move"),
    _endpoint("clobber/value", clobber_value, {
        "board": Param(str, True), "graph": _GRAPH, "time_limit": _TIME},
        "Clobber: the canonical value, outcome class and atomic weight"),
    _endpoint("clobber/solve", clobber_solve, {
        "board": Param(str, True), "first": Param(str, True), "graph": _GRAPH,
        "time_limit": _TIME, "winner_only": Param(bool, default=False)},
        "Clobber: who wins with 'first' to move, and every winning first move (with "
        "'winner_only': the one that proved the win)"),
    _endpoint("cgt/value", cgt_value, {
        "expr": Param(str, True), "time_limit": Param(float, default=CGT_TIME_LIMIT)},
        "a game in CGSuite syntax: canonical form and invariants"),
    _endpoint("cgt/compare", cgt_compare, {
        "g": Param(str, True), "h": Param(str, True),
        "time_limit": Param(float, default=CGT_TIME_LIMIT)},
        "two games in CGSuite syntax: <, >, = or || (confused)"),
    _endpoint("clickomania/solve", clickomania_solve, {
        "board": Param(str, True), "maximize": Param(bool, default=False),
        "time_limit": _TIME},
        "Clickomania: can every block go (or how many can), with a witness"),
    _endpoint("clickomania/column", clickomania_column, {
        "board": Param(str, True), "method": Param(str, default="grammar"),
        "time_limit": _TIME},
        "one-column Clickomania solved exactly (grammar, two-color or brute)"),
    _endpoint("samegame/play", samegame_play, {
        "board": Param(str, True),
        "time_limit": Param(float, default=SAMEGAME_TIME_LIMIT),
        "seed": Param(int, default=0), "max_playouts": Param(int),
        "clock": Param(str, default="wall"), "restarts": Param(int),
        "left_penalty": Param((str, int))},
        "SameGame: a high-scoring game by Monte-Carlo beam search"),
]}


__all__ = ["Answer", "ENDPOINTS", "solitaire_solve", "solitaire_verify", "grundy_value",
           "clobber_value", "clobber_solve", "cgt_value", "cgt_compare",
           "clickomania_solve", "clickomania_column", "samegame_play", "load_position",
           "load_clicks_board", "check_time_limit", "open_db", "bounded", "check_playouts",
           "check_workers", "default_restarts", "left_penalties", "CGT_TIME_LIMIT",
           "SAMEGAME_TIME_LIMIT"]
