"""``clobbermania clickomania hardness``: the NP-hardness puzzles (Biedl et al. Thms 14, 15)."""

from __future__ import annotations

import sys
import time

import click

from ._common import check_clicks_drawable, check_time_limit, emit_json, write_svg

#: Moves printed in the human-readable output before "... N more".
SHOWN_MOVES = 60
#: The witness is drawn as a strip of boards only up to this many clicks (else the puzzle).
STRIP_LIMIT = 120


@click.command("hardness")
@click.argument("kind", type=click.Choice(["3partition", "3sat"], case_sensitive=False))
@click.argument("instance")
@click.option("--time-limit", type=float, metavar="S", default=10.0, show_default=True,
              help="Seconds for the exact search of a certificate (a 3-partition or a "
                   "satisfying assignment), and, separately, for --solve.")
@click.option("--solve", "run_solver", is_flag=True,
              help="Also run the exact Clickomania solver on the puzzle (exponential: for "
                   "small instances).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the witness as a strip of boards (or, without a witness or when "
                   "it is long, the puzzle) to this SVG file.")
def hardness_cmd(kind, instance, time_limit, run_solver, as_json, svg_file) -> None:
    """Build the puzzle that is solvable exactly when the INSTANCE is a yes-instance,
    with a certificate found by an exact search and the clearing clicks built from it.

    \b
    3partition: INSTANCE is 3m positive integers, comma separated, with sum m*t and
      t/4 < a_i < t/2; the puzzle has 2 columns and 5 colours (Theorem 14).
    3sat: INSTANCE is a CNF formula of clauses of at most 3 literals, numbered
      "1,-2,3;-1,2" (a minus negates) or named "(a|~b|c)&(~a|b)", or a DIMACS .cnf
      file; the puzzle has 2 columns and 6 colours (our reduction: the paper's
      Theorem 15 reaches 5 columns and 3 colours, whose gadgets it does not publish).

    \b
    Examples:
      clobbermania clickomania hardness 3partition 4,4,5,4,4,5
      clobbermania clickomania hardness 3partition 4,4,4,4,4,6 --solve --json
      clobbermania clickomania hardness 3sat "(x|y)&(~x|y)"
      clobbermania clickomania hardness 3sat "1;-1" --solve --json
    """
    from ..clickomania import hardness as hd
    from ..clickomania import hardness_sat as hs

    t0 = time.perf_counter()
    check_time_limit(time_limit)
    kind = kind.lower()
    if kind == "3partition":
        result = hd.reduce_3partition(instance, time_limit=time_limit)
    else:
        result = hs.reduce_3sat(instance, time_limit=time_limit)
    board = result.board
    check_clicks_drawable(svg_file, board)
    solver = None
    from ..clickomania.solver import MAX_CELLS, solve_clickomania

    too_big = board.height * board.width > MAX_CELLS
    if run_solver and not too_big:
        solver = solve_clickomania(board, time_limit=time_limit)
    if svg_file:
        from ..render.clickomania import clickomania_sequence_svg, clickomania_svg

        def draw() -> str:
            if result.moves and len(result.moves) <= STRIP_LIMIT:
                return clickomania_sequence_svg(board, result.moves, per_row=10)
            return clickomania_svg(board, title=f"{kind} puzzle")

        write_svg(svg_file, draw)
    if as_json:
        out = result.to_dict()
        out["solver"] = None if solver is None else {
            "solvable": solver.solvable, "exact": solver.exact, "proof": solver.proof,
            "nodes": solver.nodes, "seconds": round(solver.seconds, 6)}
        out["seconds"] = round(time.perf_counter() - t0, 6)
        emit_json(out)
        return
    from ..render.clickomania import clickomania_text

    p = result.construction.parameters
    click.echo(f"{kind} puzzle: {p['columns']} columns, {p['colors']} colours, "
               f"{board.height} rows, {board.n_blocks} blocks")
    click.echo(clickomania_text(board, color=sys.stdout.isatty()))
    click.echo("parameters: " + ", ".join(f"{k} = {v}" for k, v in p.items()
                                          if isinstance(v, int)))
    for g in result.construction.gadgets[:40]:
        click.echo(f"  {g['name']}: column {g['column']}, rows {g['rows'][0]}-{g['rows'][1]}")
    if len(result.construction.gadgets) > 40:
        click.echo(f"  ... {len(result.construction.gadgets) - 40} more parts")
    name = "3-partition" if kind == "3partition" else "satisfying assignment"
    if result.certificate is not None:
        cert = result.certificate
        if kind == "3sat":
            cert = " ".join(f"{v}={'T' if b else 'F'}" for v, b in cert.items())
        click.echo(f"{name}: {cert}")
        shown = " ".join(result.moves[:SHOWN_MOVES])
        more = len(result.moves) - SHOWN_MOVES
        click.echo(f"witness ({len(result.moves)} clicks, replayed: clears the board): {shown}"
                   + (f" ... {more} more" if more > 0 else ""))
    elif result.certificate_known:
        click.echo(f"{name}: none, so the puzzle cannot be cleared")
    else:
        click.echo(f"{name}: search stopped after {time_limit:g} s")
    if run_solver and too_big:
        click.echo(f"exact solver: not run (the puzzle has {board.height * board.width:,} "
                   f"cells, more than {MAX_CELLS:,})")
    if solver is not None:
        if solver.exact:
            verdict = "solvable" if solver.solvable else "not solvable"
            click.echo(f"exact solver: {verdict} ({solver.proof}, {solver.nodes:,} nodes)")
        else:
            click.echo(f"exact solver: stopped after {time_limit:g} s, undecided")
    if svg_file:
        click.echo(f"picture: {svg_file}")
    click.echo(f"seconds: {time.perf_counter() - t0:.3f}")
