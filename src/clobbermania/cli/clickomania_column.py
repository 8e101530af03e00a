"""``clobbermania clickomania column``: one-column (or one-row) Clickomania, exactly."""

from __future__ import annotations

import click

from ..api.verbs import clickomania_column
from ._common import emit_json, write_clicks_svg

#: Moves printed in the human-readable output before "... N more".
SHOWN_MOVES = 60


@click.command("column")
@click.argument("string")
@click.option("--method", type=click.Choice(["grammar", "two-color", "brute"],
                                            case_sensitive=False),
              default="grammar", show_default=True,
              help="grammar: the O(n^3/w) DP, any colours; two-color: Theorems 10 and 12 "
                   "(at most two colours); brute: exhaustive search (the oracle).")
@click.option("--time-limit", type=float, metavar="S",
              help="brute only: stop after S seconds and report bounds (exact: false); "
                   "without it the brute force refuses strings over 24 blocks.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the witness as a strip of boards to this SVG file.")
def column_cmd(string, method, time_limit, as_json, svg_file) -> None:
    """Can every block of a one-column puzzle go, and how many can? With the clicks.

    STRING is a row like 1221 or a column like 1/2/2/1 (top to bottom); colours 0-9 a-z.
    Clicks are named by the square of the clicked group's lowest (column) or leftmost
    (row) block, in the board as it stands.

    \b
    Examples:
      clobbermania clickomania column 1221
      clobbermania clickomania column 1/2/2/1/2/2/1 --method two-color --json
      clobbermania clickomania column 1213312 --method brute
    """
    answer = clickomania_column(board=string, method=method, time_limit=time_limit)
    result = answer.result
    write_clicks_svg(svg_file, result.puzzle.board, result.moves)
    if as_json:
        emit_json(answer.obj)
        return
    p = result.puzzle
    click.echo(f"one-column Clickomania: {p.describe()}")
    n = len(p.blocks)
    if result.solvable is True:
        click.echo("solvable: every block can be removed")
    elif result.solvable is False:
        click.echo("not solvable: some block always stays")
    else:
        click.echo("undecided (the time limit ran out)")
    if result.exact:
        click.echo(f"most blocks removable: {result.max_removed} of {n}")
    else:
        click.echo(f"most blocks removable: between {result.lower_bound} and "
                   f"{result.upper_bound} of {n}")
    click.echo(f"proof: {result.proof}")
    moves = list(result.moves)
    shown = " ".join(moves[:SHOWN_MOVES]) or "(none)"
    if len(moves) > SHOWN_MOVES:
        shown += f" ... ({len(moves) - SHOWN_MOVES} more; --json lists all)"
    click.echo(f"moves ({len(moves)}, removing {result.removed}): {shown}")
    click.echo(f"method: {result.method}, {result.complexity}")
    click.echo(f"seconds: {result.seconds:.3f}")
    if svg_file:
        click.echo(f"picture: {svg_file}")
