"""``clobbermania clickomania value``: two-player Clickomania, impartial or partizan."""

from __future__ import annotations

import sys
import time

import click

from ..clickomania.rules import COLOR_CHARS, MAX_BOARD_TEXT, load_board
from ..clickomania.twoplayer import TwoPlayerTimeout, value_result
from ..errors import NotationError
from ._common import check_time_limit, emit_json, emit_unknown, progress_reporter


def _positions(label: str, info: dict) -> str:
    return f"{label}: {info['nodes']:,} positions, {info['seconds']:.1f} s"


def _parse_colors(text: str | None) -> list[int] | None:
    if text is None:
        return None
    out = []
    for part in text.split(","):
        part = part.strip().lower()
        if len(part) != 1 or part not in COLOR_CHARS:
            raise NotationError(f"bad colour {part!r} in --left-colors: give colours 0-9, a-z "
                                "separated by commas, like 0,2")
        out.append(COLOR_CHARS.index(part))
    return out


@click.command("value")
@click.argument("board", metavar="BOARD_OR_FILE")
@click.option("--impartial", "variant", flag_value="impartial",
              help="Either player clicks any group (Grundy value).")
@click.option("--partizan", "variant", flag_value="partizan", default=True,
              help="Left clicks its colours, Right the others (the default).")
@click.option("--left-colors", metavar="C,C,...",
              help="Partizan: the colours Left owns (Right owns the rest); default: the "
                   "even colours 0, 2, 4, ... (with two colours, Left 0 and Right 1).")
@click.option("--time-limit", type=float, metavar="S",
              help="Stop after S seconds: the value is then unknown (null, exact false, "
                   "exit 0); values are exponential to compute.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def value_cmd(board, variant, left_colors, time_limit, as_json) -> None:
    """The value of a board in two-player Clickomania (normal play: who cannot click loses).

    --partizan (default): each player clicks only groups of their own colours; the value is
    a canonical game in CGSuite syntax with its outcome: L (Left wins), R (Right wins),
    N (the player to move wins), P (the player to move loses). --impartial: either player
    clicks any group; the value is a nimber *n (0: the player to move loses).
    BOARD_OR_FILE: rows top to bottom separated by '/', colours 0-9 a-z, '.' empty, or a file
    holding one board; '-' reads standard input. A row like 00110 plays the same game as
    the column 0/0/1/1/0.

    \b
    Examples:
      clobbermania clickomania value 00110011                 # *
      clobbermania clickomania value 1100/0011 --impartial --json
      clobbermania clickomania value 0112/0122 --left-colors 0,2
    """
    t0 = time.perf_counter()
    b = load_board(sys.stdin.read(MAX_BOARD_TEXT + 1) if board == "-" else board)
    check_time_limit(time_limit)
    left = _parse_colors(left_colors)
    if left is not None and variant == "impartial":
        raise NotationError("--left-colors applies to the partizan game, not --impartial")
    try:
        with progress_reporter(f"{variant} value", _positions) as report:
            # the value search reports (positions, seconds)
            progress = None if report is None else \
                (lambda nodes, seconds: report({"nodes": nodes, "seconds": seconds}))
            r = value_result(b, variant, left_colors=left, time_limit=time_limit,
                             progress=progress)
    except TwoPlayerTimeout as exc:
        emit_unknown(as_json, {"variant": variant, "board": b.text(), "value": None,
                               "outcome": None}, exc, time.perf_counter() - t0,
                     f"{variant} Clickomania on {b.text()}")
        return
    seconds = time.perf_counter() - t0
    if as_json:
        emit_json(r.to_dict(), seconds)
        return
    from ..render.clickomania import clickomania_text
    click.echo(f"{variant} Clickomania")
    click.echo(clickomania_text(b))
    click.echo(f"value: {r.text}")
    click.echo(f"outcome: {r.outcome} ({r.outcome_words})")
    if variant == "impartial":
        moves = r.winning["next"]
        click.echo("winning clicks: " + (" ".join(moves) if moves else "none"))
    else:
        owners = "Left: " + ("colours " + ",".join(COLOR_CHARS[c] for c in left)
                             if left is not None
                             else "even colours") + "; Right: the others"
        click.echo(f"owners: {owners}")
        for who in ("left", "right"):
            moves = r.winning[who]
            click.echo(f"{who.capitalize()}'s winning first clicks: "
                       + (" ".join(moves) if moves else "none"))
        g = r.value
        click.echo(f"temperature: {g.temperature}")
    click.echo(f"positions searched: {r.nodes:,}   seconds: {seconds:.3f}")
