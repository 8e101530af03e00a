"""``clobbermania solitaire check PROPERTY --graph SPEC``: decide a reducibility notion of
Dorbec, Duchene and Gravier on a small graph by exhaustive search."""

from __future__ import annotations

import click

from ..errors import NotationError
from ..graphs import parse_graph_spec
from ..render import text_drawing
from ..solitaire.reducibility import PROPERTIES, PROPERTY_DESCRIPTIONS, check_property
from ._common import emit_json


@click.command()
@click.argument("prop", metavar="PROPERTY")
@click.option("--graph", "graph", metavar="SPEC", required=True,
              help="The graph: complete:n hamming:a,b,... hypercube:d grid:RxC path:n "
                   "cycle:n or an edge-list file (at most 16 vertices).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def check(ctx, prop, graph, as_json) -> None:
    """Check PROPERTY on every configuration of the graph; print a counterexample if any.

    PROPERTY is strong1 (strongly 1-reducible), strong1-joker (the same with one colour
    flip allowed), strong2 (strongly 2-reducible) or 1-reducible. SC2 rules: no colour
    alternation; a configuration has a stone on every vertex.

    \b
    Examples:
      clobbermania solitaire check strong1 --graph hamming:2,3
      clobbermania solitaire check strong1-joker --graph hypercube:4 --json
    """
    key = prop.strip().lower()
    if key not in PROPERTIES:
        raise NotationError(f"unknown property {prop!r}: expected one of {', '.join(PROPERTIES)}")
    board = parse_graph_spec(graph)
    result = check_property(board, key)
    if as_json:
        emit_json(result.to_dict())
        return
    verdict = "holds" if result.holds else "fails"
    click.echo(f"{board.describe()}: {PROPERTY_DESCRIPTIONS[key]} ({key}) {verdict}; "
               f"{result.cases:,} cases checked in {result.seconds:.2f} s")
    if result.counterexample is not None:
        ce = result.counterexample
        click.echo(f"counterexample: {ce.describe()}")
        click.echo(text_drawing(ce.position))
