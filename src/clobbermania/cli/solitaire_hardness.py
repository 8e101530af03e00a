"""``clobbermania solitaire hardness GRIDGRAPH``: the NP-hardness construction (DDF Thm 6)."""

from __future__ import annotations

import time

import click

from ..errors import UnsupportedError
from ..render import text_drawing
from ..solitaire.hardness import from_grid_graph, hamiltonian_circuit, witness_from_circuit
from ..solitaire.solver import MAX_SQUARES, solve
from ..stones import COLOR_NAMES, WHITE
from ._common import check_time_limit, emit_json, progress_reporter


@click.command("hardness")
@click.argument("gridgraph")
@click.option("--time-limit", type=float, metavar="S", default=10.0, show_default=True,
              help="Seconds for the exact solver (and, separately, the circuit search); "
                   "stones_left is null when the solver cannot finish.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def hardness(gridgraph: str, time_limit: float, as_json: bool) -> None:
    """Build the Solitaire Clobber configuration of Theorem 6 (Demaine, Demaine, Fleischer)
    from the grid graph GRIDGRAPH: black stones on its nodes, a white bomb, a fuse of n
    white stones and a black fire. It reduces to one stone exactly when the graph has a
    Hamiltonian circuit; from a circuit the witness is printed.

    GRIDGRAPH is a mask: '#' a node, '.' none, rows top first separated by '/'.

    \b
    Example:
      clobbermania solitaire hardness '###/#.#/###' --json
    """
    t0 = time.perf_counter()
    check_time_limit(time_limit)
    c = from_grid_graph(gridgraph)
    board = c.position.board
    circuit_known = True
    try:
        circuit = hamiltonian_circuit(c.graph, time_limit=time_limit)
    except UnsupportedError:
        # the search is exponential in the worst case; report "unknown", not "none"
        circuit, circuit_known = None, False
    first = WHITE
    moves = witness_from_circuit(c.graph, circuit, first=first) if circuit else []
    result = None
    if board.n <= MAX_SQUARES:
        with progress_reporter("solving") as progress:
            result = solve(c.position, free=False, first=None, time_limit=time_limit,
                           progress=progress)
    stones_left = result.stones_left if result is not None and result.exact else None
    if as_json:
        emit_json({
            "configuration": c.position.text(),
            "nodes": c.n,
            "hamiltonian_circuit": [list(u) for u in circuit] if circuit else None,
            "circuit_search_finished": circuit_known,
            "stones_left": stones_left,
            "solver": None if result is None else {
                "exact": result.exact, "stones_left": result.stones_left,
                "lower_bound": result.lower_bound, "first": COLOR_NAMES.get(result.first),
                "proof": result.proof, "nodes": result.nodes},
            "moves": [m.to_str(board) for m in moves],
            "first": COLOR_NAMES[first],
            "seconds": round(time.perf_counter() - t0, 6),
        })
        return
    click.echo(f"Theorem 6 construction for a grid graph with {c.n} nodes")
    click.echo(text_drawing(c.position))
    click.echo(c.describe())
    if circuit:
        click.echo("Hamiltonian circuit: " + " ".join(f"({r},{col})" for r, col in circuit))
        click.echo(f"witness, {COLOR_NAMES[first]} first ({len(moves)} moves, leaves 1 stone): "
                   + " ".join(m.to_str(board) for m in moves))
    elif circuit_known:
        click.echo("Hamiltonian circuit: none, so the configuration cannot reduce to 1 stone")
    else:
        click.echo(f"Hamiltonian circuit: search stopped after {time_limit:g} s")
    if result is None:
        click.echo(f"exact solver: not run (the board has {board.n} squares, "
                   f"more than {MAX_SQUARES})")
    elif result.exact:
        verdict = "1-reducible" if result.stones_left == 1 else "not 1-reducible"
        click.echo(f"exact solver: {result.stones_left} stone(s) at best, {verdict} "
                   f"({result.nodes:,} nodes)")
    else:
        click.echo(f"exact solver: stopped after {time_limit:g} s; between "
                   f"{result.lower_bound} and {result.stones_left} stones")
    click.echo(f"seconds: {time.perf_counter() - t0:.3f}")
