"""``clobbermania solitaire ...``: solve and verify Solitaire Clobber (SC and SC2)."""

from __future__ import annotations

import click

from ..api.verbs import solitaire_solve, solitaire_verify
from ..render import text_drawing
from ..stones import COLOR_NAMES
from ._common import board_text, emit_json, graph_help, progress_reporter, write_svg

FIRST_CHOICE = click.Choice(["black", "white", "any"], case_sensitive=False)


@click.group()
def solitaire() -> None:
    """Solitaire Clobber: leave as few stones as possible.

    SC: moves alternate colours (black, white, ...). SC2 (--free): any colour may move.

    \b
    Examples:
      clobbermania solitaire solve xoxoxo/oxoxox/xoxoxo --first black
      clobbermania solitaire solve xoxoxxoo --graph hypercube:3 --free --json
      clobbermania solitaire verify xoxo a1-b1 d1-c1 b1-c1
    """


@solitaire.command()
@click.argument("board")
@click.option("--free", is_flag=True, help="SC2: no colour alternation.")
@click.option("--first", type=FIRST_CHOICE, default="any", show_default=True,
              help="Colour of the first move under alternation; 'any' lets the solver choose.")
@click.option("--graph", "graph", metavar="SPEC", help=graph_help("BOARD"))
@click.option("--time-limit", type=float, metavar="S",
              help="Stop after S seconds and report bounds (exact: false).")
@click.option("--node-limit", type=click.IntRange(min=0), metavar="N",
              help="Stop after about N search nodes (N >= 0).")
@click.option("--no-theorems", is_flag=True,
              help="Prove theorem values (1-D formula, Theorem 5) by search instead of citing.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the witness as a strip of boards to this SVG file.")
def solve_cmd(board, free, first, graph, time_limit, node_limit, no_theorems, as_json,
              svg_file) -> None:
    """Solve BOARD exactly: fewest stones left, a witness, and why it is optimal.

    \b
    Example:
      clobbermania solitaire solve xoxoxo/oxoxox/xoxoxo/oxoxox/xoxoxo/oxoxox --json
    """
    with progress_reporter("solving") as progress:
        answer = solitaire_solve(board=board_text(board), free=free, first=first, graph=graph,
                                 time_limit=time_limit, node_limit=node_limit,
                                 no_theorems=no_theorems, progress=progress)
    result, position = answer.result, answer.position
    write_svg(svg_file, result._repr_svg_)
    if as_json:
        emit_json(answer.obj)
        return
    rules = "SC2 (free)" if free else f"SC, {COLOR_NAMES.get(result.first, 'black')} first"
    click.echo(f"Solitaire Clobber ({rules}) on {position.board.describe()}")
    click.echo(text_drawing(position))
    status = "optimal" if result.exact else f"best found; optimum >= {result.lower_bound}"
    click.echo(f"stones left: {result.stones_left} ({status})")
    click.echo(f"proof: {result.proof}")
    moves = " ".join(result.move_strings()) or "(none)"
    click.echo(f"moves ({len(result.moves)}): {moves}")
    click.echo(f"nodes: {result.nodes:,}   seconds: {result.seconds:.3f}")
    if svg_file:
        click.echo(f"picture: {svg_file}")


solve_cmd.name = "solve"


@solitaire.command()
@click.argument("board")
@click.argument("moves", nargs=-1)
@click.option("--free", is_flag=True, help="SC2: no colour alternation.")
@click.option("--first", type=FIRST_CHOICE, default="any", show_default=True,
              help="Colour that must make the first move ('any': the first move decides).")
@click.option("--graph", "graph", metavar="SPEC", help="Play on a graph (see solve --help).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def verify(ctx, board, moves, free, first, graph, as_json) -> None:
    """Replay MOVES on BOARD with the reference rules; exit 1 if a move is illegal.

    \b
    Example:
      clobbermania solitaire verify xoxo a1-b1 d1-c1 b1-c1 --json
    """
    answer = solitaire_verify(board=board_text(board), moves=moves, free=free, first=first,
                              graph=graph)
    result = answer.result
    if as_json:
        emit_json(answer.obj)
    else:
        click.echo(text_drawing(result.final))
        if result.valid:
            click.echo(f"valid: {result.moves_played} moves, {result.stones_left} stones left")
        else:
            click.echo(f"invalid: {result.error}")
    if answer.exit_code:
        ctx.exit(answer.exit_code)


# Commands defined in their own modules register themselves below, one line each.
from .solitaire_check import check  # noqa: E402, I001
solitaire.add_command(check)
# -- anchor: solitaire check --
from .solitaire_hardness import hardness  # noqa: E402, I001
solitaire.add_command(hardness)
# -- anchor: solitaire hardness --
from .solitaire_reduce import reduce_cmd  # noqa: E402, I001
solitaire.add_command(reduce_cmd)
# -- anchor: solitaire reduce --
