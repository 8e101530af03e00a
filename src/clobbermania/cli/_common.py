"""Shared pieces of the command line: board arguments, JSON output, progress, errors."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from ..api.verbs import check_time_limit
from ..api.verbs import load_position as api_load_position
from ..errors import ClobbermaniaError
from ..render import text_drawing
from ..stones import MAX_BOARD_TEXT, Move, Position, opponent


def board_text(board: str) -> str:
    """The text of the BOARD argument: ``-`` reads it from standard input."""
    if board == "-":  # read one character past the cap, so a longer text is refused
        return sys.stdin.read(MAX_BOARD_TEXT + 1)
    return board


def graph_help(argument: str) -> str:
    """The help text of a ``--graph SPEC`` option whose colours come from ``argument``."""
    return ("Play on a graph: grid:RxC path:n cycle:n tree:P1,P2,... complete:n "
            f"hamming:a,b,... hypercube:d or an edge-list file; {argument} gives vertex "
            "colours in vertex order.")


def load_position(board: str, graph: str | None = None) -> Position:
    """The BOARD argument, on the grid it describes or on the ``--graph`` SPEC.

    ``-`` reads the board from standard input.
    """
    return api_load_position(board_text(board), graph)


def emit_json(obj: dict, seconds: float | None = None) -> None:
    """Exactly one JSON object on stdout; ``seconds``, when given, goes in as "seconds"."""
    if seconds is not None:
        obj = {**obj, "seconds": round(seconds, 6)}
    click.echo(json.dumps(obj, ensure_ascii=False))


def emit_unknown(as_json: bool, fields: dict, reason: Exception, seconds: float,
                 title: str | None = None) -> None:
    """The answer of a search its time limit stopped: with --json, ``fields`` (the value
    fields null) with "exact": false, the reason and the seconds; else the title (when
    given), "value: unknown (reason)" and the seconds."""
    if as_json:
        emit_json({**fields, "exact": False, "reason": str(reason)}, seconds)
        return
    if title:
        click.echo(title)
    click.echo(f"value: unknown ({reason})")
    click.echo(f"seconds: {seconds:.3f}")


def write_svg(svg_file: str | None, draw: Callable[[], str]) -> None:
    """Write the picture ``draw()`` to ``svg_file``, when one is given. The picture is
    drawn before the file is opened, so a drawing refused (too large) leaves an existing
    file as it was."""
    if svg_file:
        text = draw()
        with open(svg_file, "w", encoding="utf-8") as fh:
            fh.write(text)


def check_clicks_drawable(svg_file: str | None, board) -> None:
    """Refuse at once, before a search, a ``--svg`` of a board too large to draw."""
    if svg_file:
        from ..render.clickomania import check_drawable

        check_drawable(board)


def show_clicks_answer(answer, svg_file: str | None, as_json: bool) -> bool:
    """Write the ``--svg`` picture of a Clickomania or SameGame answer, then print its JSON
    object (True: the command is done) or its board as text (False: the command prints
    the rest of its answer)."""
    write_clicks_svg(svg_file, answer.position, answer.result.moves)
    if as_json:
        emit_json(answer.obj)
        return True
    from ..render.clickomania import clickomania_text

    click.echo(clickomania_text(answer.position, color=sys.stdout.isatty()))
    return False


def write_clicks_svg(svg_file: str | None, board, moves) -> None:
    """Write the clicks ``moves`` on the Clickomania ``board`` as a strip of boards to
    ``svg_file``, when one is given."""
    from ..render.clickomania import clickomania_sequence_svg

    write_svg(svg_file, lambda: clickomania_sequence_svg(board, list(moves)))


def _stones_progress(label: str, info: dict) -> str:
    return (f"{label}: target {info.get('target')} stones, {info.get('nodes', 0):,} nodes, "
            f"{info.get('seconds', 0):.1f} s")


@contextmanager
def progress_reporter(label: str, describe: Callable[[str, dict], str] | None = None
                      ) -> Iterator[Callable[[dict], None] | None]:
    """A callback that shows search progress on stderr, only when stderr is a terminal.

    The callback takes the search's progress dict; ``describe(label, info)`` writes the
    status line (default: the Solitaire searches' target, nodes and seconds). Updates
    come at most five times a second.
    """
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console

    describe = describe or _stones_progress
    last = [0.0]
    with Console(stderr=True).status(label) as status:
        def update(info: dict) -> None:
            now = time.perf_counter()
            if now - last[0] > 0.2:
                last[0] = now
                status.update(describe(label, info))
        yield update


def echo_build_start(what: str, path, top: int, unit: str, built: list[int],
                     smallest: int) -> bool:
    """The first line of a database build's summary: "<what> in <path>: complete to <top>
    <unit>, nothing to build" when ``built`` is empty (True: the summary is done), else
    "resumed after K <unit> (checksums checked)" when the build began above ``smallest``.

    >>> echo_build_start("row database", "/tmp/rows", 9, "stones", [8, 9], 1)
    resumed after 7 stones (checksums checked)
    False
    """
    if not built:
        click.echo(f"{what} in {path}: complete to {top} {unit}, nothing to build")
        return True
    if built[0] > smallest:
        click.echo(f"resumed after {built[0] - 1} {unit} (checksums checked)")
    return False


def read_line() -> str | None:
    """One line typed at a ``play`` prompt, None at end of file. Piped input is echoed
    so that a transcript reads like a session."""
    line = sys.stdin.readline()
    if line and not sys.stdin.isatty():
        click.echo(line.strip())
    return None if line == "" else line.strip()


def play_in_terminal(position: Position, computer_first: bool,
                     computer_move: Callable[[Position], tuple[Move, str]],
                     human: int | None = None) -> None:
    """The game loop of the ``play`` commands: draw the board, let the computer
    (``computer_move`` gives its move and the reason) and the person take turns until one
    has no move. ``human`` is the colour the person moves and the computer moves the other
    (None: impartial, both move either colour). The person types moves (``a1-b1``, or
    ``3-7`` on a graph), ``moves`` for the legal ones, ``quit`` or end of input to stop;
    an illegal move is refused with one sentence and asked again."""
    computer = None if human is None else opponent(human)
    computer_turn = computer_first
    example = "a1-b1" if position.board.is_grid else "3-7"
    while True:
        click.echo(text_drawing(position))
        if not position.has_move(computer if computer_turn else human):
            if computer_turn:
                click.echo("The computer has no move: you win.")
            else:
                click.echo("You have no move: the computer wins.")
            return
        if computer_turn:
            move, why = computer_move(position)
            click.echo(f"computer plays {move.to_str(position.board)} ({why})")
            position = position.play(move, computer)
            computer_turn = False
            continue
        click.echo(f"your move ({example}, 'moves' or 'quit'): ", nl=False)
        line = read_line()
        if line is None:
            click.echo()
            click.echo("end of input: game abandoned.")
            return
        if line.lower() in {"quit", "q", "exit"}:
            click.echo("game abandoned.")
            return
        if line.lower() in {"moves", "?", "help"}:
            click.echo("legal moves: " + " ".join(m.to_str(position.board)
                                                    for m in position.moves(human)))
            continue
        if not line:
            continue
        try:
            position = position.play(Move.parse(line, position.board), human)
        except ClobbermaniaError as exc:
            click.echo(f"not played: {exc}")
            continue
        computer_turn = True


__all__ = ["load_position", "board_text", "emit_json", "check_time_limit", "progress_reporter",
           "read_line", "play_in_terminal", "write_svg", "write_clicks_svg",
           "check_clicks_drawable", "show_clicks_answer"]
