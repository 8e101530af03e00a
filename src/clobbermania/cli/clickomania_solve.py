"""``clobbermania clickomania solve``: clear a small board, or remove as many blocks as can be."""

from __future__ import annotations

import click

from ..api.verbs import clickomania_solve
from ._common import check_clicks_drawable, progress_reporter, show_clicks_answer


def _removed(label: str, info: dict) -> str:
    return (f"{label}: {info['nodes']:,} nodes, best {info['removed']} blocks removed, "
            f"{info['seconds']:.1f} s")


@click.command("solve")
@click.argument("board_or_file", metavar="BOARD_OR_FILE")
@click.option("--maximize", is_flag=True,
              help="Find the most blocks removable (default: can every block be removed?).")
@click.option("--time-limit", type=float, metavar="S",
              help="Stop after S seconds and report bounds (exact: false).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the witness as a strip of boards to this SVG file.")
def solve_cmd(board_or_file, maximize, time_limit, as_json, svg_file) -> None:
    """Solve a small Clickomania board exactly, with a witness and a proof.

    BOARD_OR_FILE is a board (rows top first, separated by '/', colours 0-9 a-z, '.'
    empty) or a file holding one board (rows on lines; '#' lines are comments).

    \b
    Examples:
      clobbermania clickomania solve 1212/1122/2211
      clobbermania clickomania solve 121/212/121 --maximize --json
    """
    with progress_reporter("solving", _removed) as progress:
        answer = clickomania_solve(board=board_or_file, maximize=maximize,
                                   time_limit=time_limit,
                                   before_search=lambda b: check_clicks_drawable(svg_file, b),
                                   progress=progress)
    result, board = answer.result, answer.position
    if show_clicks_answer(answer, svg_file, as_json):
        return
    n = board.n_blocks
    if result.solvable is True:
        answer = "solvable: every block can be removed"
    elif result.solvable is False:
        answer = "not solvable: some block always stays"
    else:
        answer = "undecided (the search stopped)"
    click.echo(answer)
    if maximize or result.solvable is not True:
        status = ("optimal" if maximize and result.exact
                  else f"the most removable is between {result.lower_bound} and "
                       f"{result.upper_bound}")
        click.echo(f"blocks removed: {result.removed} of {n} ({status})")
    click.echo(f"proof: {result.proof}")
    click.echo(f"moves ({len(result.moves)}): {' '.join(result.moves) or '(none)'}")
    click.echo(f"nodes: {result.nodes:,}   seconds: {result.seconds:.3f}")
    if svg_file:
        click.echo(f"picture: {svg_file}")
