"""What the browser pages need: positions after moves, the computer's replies, drawings.

The pages know no rule of any game. Every request carries the START position (``board``)
and every move played since (``moves``), so the server keeps no state; the answers come
from the library's own rules and searches:

* ``clobber/state``, ``grundy/state``, ``solitaire/state`` -- the position after the
  moves (replayed by :func:`clobbermania.solitaire.rules.replay`: alternating colours for
  Clobber and SC, free for impartial Clobber and SC2), whose turn it is, the legal moves
  (:meth:`Position.moves`), whether the game is over and who won, and the position drawn
  (:func:`render.position_svg` with a hit element per square);
* ``clickomania/state`` -- the board after the clicks (:func:`clickomania.rules.
  iter_boards`), every group that can be clicked with its squares and points, the score
  (:func:`clickomania.rules.score_sequence`), and where the last click moved each block
  (:meth:`clickomania.rules.Board.click_moves`), which the page animates;
* ``clobber/reply`` and ``grundy/reply`` -- the computer's move (:func:`clobber.search.
  choose_move`: a proved win when the position is solved in time, else the best search
  move; :func:`clobber.impartial.choose_move`: a winning move, else the French study's
  fewest-winning-replies heuristic);
* ``grundy/options`` -- the Grundy value of a position and of each of its options;
* ``cgt/thermograph`` -- a game's thermograph, exact, and drawn;
* ``samegame/boards`` -- the 20 standard SameGame boards (Schadd et al. 2008).

An illegal move is refused with one sentence naming its number and text (HTTP 400).
Caps: the library's (a Clobber-family board of at most ``stones.MAX_BOARD_SQUARES``
squares, a Clickomania board of at most ``clickomania.rules.LOAD_MAX_CELLS`` cells), and
three of this module: at most as many moves as the board has squares (a game of ``n``
stones has at most ``n - 1`` moves), at most half as many clicks as the board has blocks
(a click removes two or more), and ``grundy/options`` on at most
:data:`MAX_OPTION_SQUARES` squares of option boards in all.

>>> state = clobber_state(board="xo", moves=["a1-b1"])
>>> state["board"], state["game_over"], state["winner"]
('.x', True, 'black')
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache

from ..cgt import parse
from ..cgt.game import time_limit as cgt_time_limit
from ..clickomania.rules import Board as ClickBoard
from ..clickomania.rules import group_score, iter_boards, score_sequence
from ..clickomania.samegame import read_samegame_set
from ..clobber import impartial, search
from ..errors import IllegalMoveError, NotationError, UnsupportedError
from ..render import clickomania_svg, position_svg, thermograph_svg
from ..render.thermograph import frac_text
from ..solitaire.rules import ReplayResult, parse_first, replay
from ..stones import COLOR_NAMES, Move, Position, color_from_name, opponent
from ._request import Endpoint, Param
from .verbs import CGT_TIME_LIMIT, bounded, check_time_limit, load_clicks_board, load_position

#: The squares of the boards in ``svg`` answers, in pixels (the pages scale them).
SQUARE_PX = 48
#: The computer's thinking time per move, and the search time of ``grundy/options``,
#: when a request gives none and no server caps it (the CLI's ``play`` default).
REPLY_TIME_LIMIT = 5.0
#: The most squares the boards of ``grundy/options`` may hold together (options x squares
#: of the board): each option comes with its board, so a 64x64 checkerboard's 16,000
#: options would be a 64 MB answer.
MAX_OPTION_SQUARES = 2_000_000
#: Where the standard SameGame boards come from.
SAMEGAME_SOURCE = ("Schadd, Winands, van den Herik, Chaslot and Uiterwijk, Single-Player "
                   "Monte-Carlo Tree Search, Computers and Games 2008 (LNCS 5131): the "
                   "standard SameGame test set, 20 boards of 15x15 in 5 colours")


# --- Clobber, impartial Clobber, Solitaire Clobber ------------------------------------------

def _parse_moves(position: Position, moves: Sequence[str]) -> list[Move]:
    """The moves of a request, parsed on ``position``'s board; a text that is not a move is
    refused naming its number, and so is a list longer than the board has squares."""
    board = position.board
    if len(moves) > board.n:
        raise NotationError(f"{len(moves):,} moves given, but a game on a board of "
                            f"{board.n:,} squares has fewer moves than squares")
    out = []
    for i, text in enumerate(moves, start=1):
        try:
            out.append(Move.parse(text, board))
        except NotationError as exc:
            shown = text if len(text) <= 20 else text[:17] + "..."
            raise NotationError(f"move {i} ({shown}) is not a move: {exc}") from None
    return out


def _replay(position: Position, moves: Sequence[str], *, free: bool,
            first: int | None) -> tuple[list[Move], ReplayResult]:
    """The parsed moves and their replay (:func:`solitaire.rules.replay`: colours
    alternate from ``first`` unless ``free``); an illegal move raises IllegalMoveError
    with replay's sentence, which names the move's number and the move."""
    parsed = _parse_moves(position, moves)
    result = replay(position, parsed, free=free, first=first)
    if not result.valid:
        raise IllegalMoveError(result.error)
    return parsed, result


def _stones_answer(start: Position, parsed: list[Move], final: Position,
                   legal: list[Move]) -> dict:
    """The keys every ``*/state`` answer of a Clobber-family game shares."""
    board = start.board
    last = parsed[-1] if parsed else None
    return {
        "board": final.text(),
        "start": start.text(),
        "moves": [m.to_str(board) for m in parsed],
        "legal_moves": [m.to_str(board) for m in legal],
        "game_over": not legal,
        "last_move": None if last is None else last.to_str(board),
        "rows": board.rows,
        "cols": board.cols,
        "svg": position_svg(final, size=SQUARE_PX, highlight=last, interactive=True),
    }


def clobber_state(*, board: str, moves: Sequence[str] = (), first: str = "black",
                  graph: str | None = None) -> dict:
    """Two-player Clobber: the position after ``moves`` (``first`` moved first, colours
    alternate), the player to move and their legal moves; when that player has no move
    the game is over and the other player has won (normal play).

    >>> s = clobber_state(board="xoxo", moves=["a1-b1"])
    >>> s["to_move"], s["legal_moves"]
    ('white', ['d1-c1'])
    """
    position = load_position(board, graph, web=True)
    colour = color_from_name(first)
    parsed, result = _replay(position, moves, free=False, first=colour)
    to_move = colour if len(parsed) % 2 == 0 else opponent(colour)
    legal = result.final.moves(to_move)
    answer = _stones_answer(position, parsed, result.final, legal)
    answer["to_move"] = COLOR_NAMES[to_move]
    answer["winner"] = None if legal else COLOR_NAMES[opponent(to_move)]
    return answer


def grundy_state(*, board: str, moves: Sequence[str] = (), graph: str | None = None
                 ) -> dict:
    """Impartial Clobber: the position after ``moves`` (either player moves either
    colour), ``player`` 1 or 2 to move and the legal moves; when there is none the
    player who made the last move has won (``winner`` "first" or "second").

    >>> s = grundy_state(board="xo", moves=["b1-a1"])
    >>> s["board"], s["player"], s["winner"]
    ('o.', 2, 'first')
    """
    position = load_position(board, graph, web=True)
    parsed, result = _replay(position, moves, free=True, first=None)
    legal = result.final.moves()
    answer = _stones_answer(position, parsed, result.final, legal)
    answer["to_move"] = None
    answer["player"] = len(parsed) % 2 + 1
    answer["winner"] = None if legal else ("first" if len(parsed) % 2 else "second")
    return answer


def solitaire_state(*, board: str, moves: Sequence[str] = (), first: str = "any",
                    free: bool = False, graph: str | None = None) -> dict:
    """Solitaire Clobber: the position after ``moves``, the stones left and the legal
    moves. In SC colours alternate from ``first`` (``any``: the colour of the first
    move's stone), and ``to_move`` is the colour due (null before the first move when
    ``first`` is any); in SC2 (``free``) any colour moves and ``to_move`` is null. The
    game is over when no legal move remains; there is no winner, only stones left.

    >>> s = solitaire_state(board="xoxo", moves=["a1-b1"])
    >>> s["to_move"], s["stones_left"], s["legal_moves"]
    ('white', 3, ['d1-c1'])
    """
    position = load_position(board, graph, web=True)
    first_colour = parse_first(first)   # a bad colour is refused under SC2 too
    if free:
        first_colour = None
    parsed, result = _replay(position, moves, free=free, first=first_colour)
    due = None
    if not free and result.first is not None:
        due = result.first if len(parsed) % 2 == 0 else opponent(result.first)
    legal = result.final.moves(due)
    answer = _stones_answer(position, parsed, result.final, legal)
    answer["to_move"] = None if due is None else COLOR_NAMES[due]
    answer["first"] = None if free or result.first is None else COLOR_NAMES[result.first]
    answer["free"] = free
    answer["stones_left"] = result.stones_left
    answer["winner"] = None
    return answer


# --- the computer's replies ----------------------------------------------------------------

def clobber_reply(*, board: str, moves: Sequence[str] = (), first: str = "black",
                  graph: str | None = None, time_limit: float = REPLY_TIME_LIMIT) -> dict:
    """The computer's move in two-player Clobber: the computer is the player to move
    after ``moves`` (clobber.search.choose_move: a proved winning move when the position
    is solved within about half of ``time_limit``, else the best move of its alpha-beta
    search). ``winner`` is "computer" when the human is left without a move, "human" when
    the computer had none (``move`` is then null), else null.

    >>> r = clobber_reply(board="xoxo/oxox", time_limit=2.0)
    >>> r["why"].startswith("proved win"), r["game_over"]
    (True, False)
    """
    t0 = time.perf_counter()
    check_time_limit(time_limit, web=True)
    position = load_position(board, graph, web=True)
    colour = color_from_name(first)
    parsed, result = _replay(position, moves, free=False, first=colour)
    computer = colour if len(parsed) % 2 == 0 else opponent(colour)
    names = [m.to_str(position.board) for m in parsed]
    final = result.final
    if not final.has_move(computer):
        return {"move": None, "why": f"the game is over: {COLOR_NAMES[computer]} (the "
                                     "computer) has no move", "board": final.text(),
                "moves": names, "game_over": True, "winner": "human",
                "seconds": round(time.perf_counter() - t0, 6)}
    move, reason = search.choose_move(final, computer, time_limit=time_limit)
    after = final.play(move, computer)
    if reason == "wins (solved)":
        why = "proved win: the position was solved and this move wins"
    else:
        why = f"best search move: {reason}"
    return _reply(position, names, move, why, after,
                  not after.has_move(opponent(computer)), t0)


def grundy_reply(*, board: str, moves: Sequence[str] = (), graph: str | None = None,
                 time_limit: float = REPLY_TIME_LIMIT) -> dict:
    """The computer's move in impartial Clobber (clobber.impartial.choose_move: a move to
    a position of Grundy value 0 when one exists, else the French study's heuristic, the
    move leaving the fewest winning replies). ``winner`` as in :func:`clobber_reply`.

    >>> r = grundy_reply(board="xoxo")
    >>> r["move"], r["why"].split(":")[0]
    ('c1-b1', 'winning')
    """
    t0 = time.perf_counter()
    check_time_limit(time_limit, web=True)
    position = load_position(board, graph, web=True)
    parsed, result = _replay(position, moves, free=True, first=None)
    names = [m.to_str(position.board) for m in parsed]
    final = result.final
    if not final.has_move():
        return {"move": None, "why": "the game is over: the computer has no move",
                "board": final.text(), "moves": names, "game_over": True,
                "winner": "human", "seconds": round(time.perf_counter() - t0, 6)}
    move, why = impartial.choose_move(final, time_limit=time_limit)
    after = final.play(move)
    return _reply(position, names, move, why, after, not after.has_move(), t0)


def _reply(position: Position, names: list[str], move: Move, why: str, after: Position,
           over: bool, t0: float) -> dict:
    """The answer of a reply endpoint once the computer has played ``move`` (``over``: the
    human has no move left after it)."""
    text = move.to_str(position.board)
    return {"move": text, "why": why, "board": after.text(), "moves": names + [text],
            "game_over": over, "winner": "computer" if over else None,
            "seconds": round(time.perf_counter() - t0, 6)}


def grundy_options(*, board: str, moves: Sequence[str] = (), graph: str | None = None,
                   time_limit: float = REPLY_TIME_LIMIT) -> dict:
    """The Grundy value of the position after ``moves`` and of every option (each move,
    in reference order, with the position it leads to). Values not found within
    ``time_limit`` are null and ``exact`` is false; the values found stay cached.

    >>> o = grundy_options(board="xoxo")
    >>> o["grundy"], [(x["move"], x["grundy"]) for x in o["options"]][:2]
    (3, [('a1-b1', 2), ('c1-b1', 0)])
    """
    t0 = time.perf_counter()
    check_time_limit(time_limit, web=True)
    position = load_position(board, graph, web=True)
    _parsed, result = _replay(position, moves, free=True, first=None)
    final = result.final
    moves_here = final.moves()
    if len(moves_here) * final.board.n > MAX_OPTION_SQUARES:
        raise UnsupportedError(f"grundy/options answers a board per option, and "
                               f"{len(moves_here):,} options of {final.board.n:,} squares "
                               f"are over its limit of {MAX_OPTION_SQUARES:,} squares; "
                               "grundy/value gives the value and the winning moves")
    deadline = t0 + time_limit
    solver = impartial.solver_for(None)
    exact = True

    def value(p: Position) -> int | None:
        nonlocal exact
        if exact:
            try:
                return solver.value(p, deadline)
            except impartial.GrundyTimeout:
                exact = False
        return None

    root = value(final)
    options = []
    for mv in moves_here:
        child = final.play(mv)
        options.append({"move": mv.to_str(position.board), "board": child.text(),
                        "grundy": value(child)})
    return {"board": final.text(), "grundy": root, "options": options, "exact": exact,
            "seconds": round(time.perf_counter() - t0, 6)}


# --- Clickomania -----------------------------------------------------------------------------

def clickomania_state(*, board: str, moves: Sequence[str] = ()) -> dict:
    """Clickomania / SameGame: the board after the clicks ``moves`` (each any square of a
    group, in the board as it stands), every group that can be clicked with its squares
    and SameGame points ``(n-2)^2``, and the score so far (+1000 once the board is clear).
    ``moves`` comes back with each click named by its group's representative square;
    ``fell`` maps each block the last click moved (blocks fall, columns close) from its
    square before to its square after (:meth:`clickomania.rules.Board.click_moves`), null
    before the first click.

    >>> s = clickomania_state(board="1122", moves=["b1"])
    >>> s["board"], s["score"], s["moves"], s["legal_moves"][0]["squares"], s["fell"]
    ('22..', 0, ['a1'], ['a1', 'b1'], {'c1': 'a1', 'd1': 'b1'})
    """
    start = load_clicks_board(board, web=True)
    if len(moves) > start.n_blocks // 2:
        raise NotationError(f"{len(moves):,} clicks given, but a board of "
                            f"{start.n_blocks:,} blocks allows at most "
                            f"{start.n_blocks // 2:,} (a click removes two blocks or more)")
    names = []
    cur = prev = start
    for nxt in iter_boards(start, moves):  # refuses a bad click naming its number
        names.append(cur.square_name(cur.group_at(moves[len(names)]).square))
        cur, prev = nxt, cur
    # where the last click moved blocks: the library's fall and closing, for the drawing
    fell = None if not names else {
        prev.square_name(a): prev.square_name(b)
        for a, b in prev.click_moves(names[-1]).items() if a != b}
    score = score_sequence(start, names)
    legal = [{"square": cur.square_name(g.square), "color": g.color, "size": g.size,
              "squares": [cur.square_name(s) for s in g.squares],
              "points": group_score(g.size)}
             for g in cur.groups() if g.size >= 2]
    return {"board": cur.text(), "start": start.text(), "moves": names, "to_move": None,
            "legal_moves": legal, "score": score, "cleared": cur.is_cleared,
            "blocks_left": cur.n_blocks, "game_over": not legal,
            "last_move": names[-1] if names else None, "fell": fell,
            "rows": cur.height, "cols": cur.width,
            "svg": clickomania_svg(cur, size=SQUARE_PX, interactive=True)}


@lru_cache(maxsize=1)
def _standard_boards() -> tuple[ClickBoard, ...]:
    return tuple(read_samegame_set())


def standard_boards() -> dict:
    """The 20 boards of the standard SameGame test set (package data, read once).

    >>> b = standard_boards()["boards"]
    >>> len(b), b[0]["number"], b[0]["rows"], b[0]["cols"], b[0]["colors"]
    (20, 1, 15, 15, 5)
    """
    return {"boards": [{"number": i, "board": b.text(), "rows": b.height, "cols": b.width,
                        "colors": len(b.color_counts())}
                       for i, b in enumerate(_standard_boards(), start=1)],
            "source": SAMEGAME_SOURCE}


# --- CGT -------------------------------------------------------------------------------------

def cgt_thermograph(*, expr: str, time_limit: float = CGT_TIME_LIMIT) -> dict:
    """The thermograph of ``expr`` (CGSuite syntax; cgt.thermograph), exact: ``value``
    the canonical form, ``mean`` and ``temperature`` (as ``cgt value`` gives them), and
    each wall as its corner points ``[t, x]`` from t = -1 up to where the walls meet
    (above it, the mast at the mean). Numbers are exact strings, like "3/2". Running out
    of ``time_limit`` is an error, as for ``cgt value``.

    >>> th = cgt_thermograph(expr="{2|-1}")
    >>> th["mean"], th["temperature"], th["left_wall"]
    ('1/2', '3/2', [['-1', '3'], ['3/2', '1/2']])
    """
    t0 = time.perf_counter()
    check_time_limit(time_limit, web=True)

    def run():
        with cgt_time_limit(time_limit):
            g = parse(expr)
            return g, g.thermograph(), g.mean, g.temperature

    g, th, mean, temperature = bounded(run)
    return {"expr": expr, "value": str(g), "mean": frac_text(mean),
            "temperature": frac_text(temperature),
            "left_wall": [[frac_text(t), frac_text(x)] for t, x in th.left_wall.points],
            "right_wall": [[frac_text(t), frac_text(x)] for t, x in th.right_wall.points],
            "svg": thermograph_svg(th, title=str(g)),
            "seconds": round(time.perf_counter() - t0, 6)}


# --- the endpoints -----------------------------------------------------------------------------

_BOARD = Param(str, True)
_MOVES = Param(list)
_GRAPH = Param(str)
_REPLY_TIME = Param(float, default=REPLY_TIME_LIMIT)

#: The pages' endpoints by name, with their JSON keys (``heavy`` ones search).
ENDPOINTS: dict[str, Endpoint] = {ep.name: ep for ep in [
    Endpoint("clobber/state", clobber_state, {
        "board": _BOARD, "moves": _MOVES, "first": Param(str, default="black"),
        "graph": _GRAPH}, heavy=False,
        doc="Clobber: the position after the moves, the player to move, legal moves"),
    Endpoint("grundy/state", grundy_state, {
        "board": _BOARD, "moves": _MOVES, "graph": _GRAPH}, heavy=False,
        doc="impartial Clobber: the position after the moves, legal moves, the winner"),
    Endpoint("solitaire/state", solitaire_state, {
        "board": _BOARD, "moves": _MOVES, "first": Param(str, default="any"),
        "free": Param(bool, default=False), "graph": _GRAPH}, heavy=False,
        doc="Solitaire Clobber: the position after the moves, stones left, legal moves"),
    Endpoint("clickomania/state", clickomania_state, {
        "board": _BOARD, "moves": _MOVES}, heavy=False,
        doc="Clickomania: the board after the clicks, its groups, the SameGame score"),
    Endpoint("clobber/reply", clobber_reply, {
        "board": _BOARD, "moves": _MOVES, "first": Param(str, default="black"),
        "graph": _GRAPH, "time_limit": _REPLY_TIME}, heavy=True,
        doc="Clobber: the computer's move (a proved win, else its best search move)"),
    Endpoint("grundy/reply", grundy_reply, {
        "board": _BOARD, "moves": _MOVES, "graph": _GRAPH, "time_limit": _REPLY_TIME},
        heavy=True,
        doc="impartial Clobber: the computer's move (winning, else the French heuristic)"),
    Endpoint("grundy/options", grundy_options, {
        "board": _BOARD, "moves": _MOVES, "graph": _GRAPH, "time_limit": _REPLY_TIME},
        heavy=True, doc="impartial Clobber: the Grundy value of the position and each option"),
    Endpoint("cgt/thermograph", cgt_thermograph, {
        "expr": Param(str, True), "time_limit": Param(float, default=CGT_TIME_LIMIT)},
        heavy=True, doc="a game in CGSuite syntax: its thermograph, mean and temperature"),
    Endpoint("samegame/boards", standard_boards, {}, heavy=False,
             doc="the 20 standard SameGame boards (Schadd et al. 2008)"),
]}


__all__ = ["ENDPOINTS", "clobber_state", "grundy_state", "solitaire_state",
           "clickomania_state", "clobber_reply", "grundy_reply", "grundy_options",
           "cgt_thermograph", "standard_boards", "SQUARE_PX", "REPLY_TIME_LIMIT",
           "MAX_OPTION_SQUARES", "SAMEGAME_SOURCE"]
