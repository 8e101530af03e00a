"""``clobbermania clobber value``: the canonical value of a Clobber position."""

from __future__ import annotations

import click

from ..api.verbs import clobber_value
from ..clobber.values import ValueTimeout
from ..render import text_drawing
from ._common import board_text, emit_json, emit_unknown, graph_help

GRAPH_HELP = graph_help("BOARD")

_OUTCOME_WORDS = {"L": "Black (Left) wins whoever starts",
                  "R": "White (Right) wins whoever starts",
                  "N": "the player to move wins",
                  "P": "the player to move loses"}


@click.command("value")
@click.argument("board")
@click.option("--graph", "graph", metavar="SPEC", help=GRAPH_HELP)
@click.option("--time-limit", type=float, metavar="S",
              help="Stop after S seconds: the value is then unknown (null, exact false, "
                   "exit 0); values are exponential to compute.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def value_cmd(board, graph, time_limit, as_json) -> None:
    """The canonical value of BOARD under Clobber (x = Black = Left, o = White = Right),
    in CGSuite syntax, with its outcome class and atomic weight.

    The value is the sum of the values of the connected parts. Outcome: L (Black wins),
    R (White wins), N (the player to move wins), P (the player to move loses).

    \b
    Examples:
      clobbermania clobber value xxo                 # ^
      clobbermania clobber value xoxo/oxox --json
      clobbermania clobber value xoxoxo --graph cycle:6
    """
    answer = clobber_value(board=board_text(board), graph=graph, time_limit=time_limit)
    r, position, seconds = answer.result, answer.position, answer.obj["seconds"]
    if as_json:
        emit_json(answer.obj)
        return
    if isinstance(r, ValueTimeout):
        emit_unknown(False, answer.obj, r, seconds)
        return
    click.echo(f"Clobber on {position.board.describe()}")
    click.echo(text_drawing(position))
    click.echo(f"value: {r.value}")
    click.echo(f"outcome: {r.outcome} ({_OUTCOME_WORDS[r.outcome]})")
    click.echo(f"atomic weight: {r.atomic_weight}   temperature: {r.temperature}")
    if len(r.components) > 1:
        click.echo("parts: " + ", ".join(f"{p} = {g}" for p, g in r.components))
    click.echo(f"seconds: {seconds:.3f}")
