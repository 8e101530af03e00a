"""``clobbermania grundy value`` and ``clobbermania grundy play``: impartial Clobber values
and a game against the computer opponent."""

from __future__ import annotations

import random

import click

from ..api.verbs import grundy_value, open_db
from ..clobber.impartial import GrundyTimeout, choose_move
from ..render import text_drawing
from ._common import (
    board_text,
    check_time_limit,
    emit_json,
    graph_help,
    load_position,
    play_in_terminal,
)
from ._distributed import (
    check_distributed,
    distributed_line,
    distributed_options,
    grid_position,
    run_distributed,
)

GRAPH_HELP = graph_help("CONFIG")


@click.command("value")
@click.argument("config")
@click.option("--graph", "graph", metavar="SPEC", help=GRAPH_HELP)
@click.option("--db", "db_dir", metavar="DIR",
              help="Row database to look rows up in (default: the default location, when "
                   "a database has been built there).")
@click.option("--time-limit", type=float, metavar="S",
              help="Stop after S seconds (then grundy is null and exact false).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@distributed_options
def value_cmd(config, graph, db_dir, time_limit, as_json, distributed, address, store, cpus,
              job_nodes) -> None:
    """The Grundy value of CONFIG under impartial Clobber, and every winning move.

    Either player may move a stone of either colour onto an adjacent stone of the other
    colour; whoever cannot move loses. Value 0: the player to move loses. CONFIG is a row
    (holes '.' or '_'), a grid (rows separated by '/'), or vertex colours with --graph.

    \b
    Examples:
      clobbermania grundy value xoxo --json
      clobbermania grundy value xo_oxx
      clobbermania grundy value xox/oxo/xox
      clobbermania grundy value xoxoxo --graph cycle:6
      clobbermania grundy value xoxox/oxoxo/xoxox --distributed --cpus 2 --json

    With --distributed the values of the options are jobs run on Ray, split further when
    a job's node budget runs out, the mex taken here (docs/distributed.md): the same
    answer, plus a "distributed" object (jobs, jobs reused from the store, actors,
    store).
    """
    check_distributed(distributed, address, store, cpus, job_nodes)
    if distributed:
        _value_distributed(config, graph, db_dir, time_limit, as_json, address, store, cpus,
                           job_nodes)
        return
    answer = grundy_value(board=board_text(config), graph=graph, time_limit=time_limit,
                          db_dir=db_dir)
    result, position, db_path = answer.result, answer.position, answer.obj["db"]
    if as_json:
        emit_json(answer.obj)
        return
    _show_value(result, position, db_path, answer.obj["seconds"])


def _show_value(result, position, db_path: str | None, seconds: float) -> None:
    """The text answer of ``grundy value``."""
    if isinstance(result, GrundyTimeout):
        click.echo(text_drawing(position))
        click.echo(f"Grundy value: unknown ({result})")
        return
    click.echo(f"Impartial Clobber on {position.board.describe()}")
    click.echo(text_drawing(position))
    who = "the player to move wins" if result.grundy else "the player to move loses"
    click.echo(f"Grundy value: {result.grundy} ({who})")
    moves = result.move_strings()
    click.echo(f"winning moves ({len(moves)}): {' '.join(moves) or '(none)'}")
    if len(result.components) > 1:
        parts = ", ".join(f"{k} = {g}" for k, g in result.components)
        click.echo(f"parts: {parts}")
    source = f"; {result.db_lookups} looked up in {db_path}" if db_path else ""
    click.echo(f"searched: {result.searched:,} part values{source}   "
               f"seconds: {seconds:.3f}")


def _describe_jobs(label: str, info: dict) -> str:
    return (f"{label}: {info['jobs']:,} jobs done ({info['jobs_reused']:,} reused), "
            f"{info['queued']:,} queued, {info['split']:,} split; "
            f"{info['nodes'] / max(info['seconds'], 1e-9):,.0f} nodes/s")


def _value_distributed(config, graph, db_dir, time_limit, as_json, address, store, cpus,
                       job_nodes) -> None:
    """``grundy value --distributed``: distributed.grundy on a Ray cluster."""
    from ..clobber.impartial import GrundyResult
    from ..distributed.grundy import grundy_value_distributed

    position = grid_position(config, graph, time_limit)
    db = open_db(db_dir)
    db_path = str(db.path) if db is not None and hasattr(db, "path") else None
    obj = run_distributed(
        "grundy value", _describe_jobs, store, address, cpus, job_nodes,
        lambda **kw: grundy_value_distributed(position, time_limit=time_limit, db=db,
                                              db_path=db_path, **kw))
    if as_json:
        emit_json(obj)
        return
    if obj["exact"]:
        moves = {m.to_str(position.board): m for m in position.moves()}
        result = GrundyResult(obj["grundy"], tuple(moves[m] for m in obj["winning_moves"]),
                              tuple((c["key"], c["grundy"]) for c in obj["components"]),
                              position.board, obj["seconds"], obj["searched"],
                              obj["db_lookups"])
    else:
        result = GrundyTimeout("the time limit ran out (the finished jobs stay in the store)")
    _show_value(result, position, db_path, obj["seconds"])
    click.echo(distributed_line(obj))


@click.command("play")
@click.argument("config", default="xoxoxoxoxo")
@click.option("--graph", "graph", metavar="SPEC", help=GRAPH_HELP)
@click.option("--first", type=click.Choice(["human", "computer"], case_sensitive=False),
              default="human", show_default=True, help="Who moves first.")
@click.option("--seed", type=int, help="Break the computer's ties at random with this seed "
                                       "(default: the first move in move order).")
@click.option("--db", "db_dir", metavar="DIR", help="Row database (see 'grundy value').")
@click.option("--time-limit", type=float, default=10.0, show_default=True, metavar="S",
              help="Seconds the computer may think per move; then it plays the best move "
                   "found so far and says so.")
def play_cmd(config, graph, first, seed, db_dir, time_limit) -> None:
    """Play impartial Clobber against the computer on CONFIG (default xoxoxoxoxo).

    Type moves like a1-b1 (a stone of either colour onto an adjacent stone of the other
    colour; on a graph, vertex numbers like 3-7). 'moves' lists the legal moves, 'quit'
    (or end of input) stops. The computer plays a winning move whenever there is one,
    else the move that leaves you the fewest winning replies, and says which.

    \b
    Examples:
      clobbermania grundy play
      clobbermania grundy play xoxoxx/oxo.ox --first computer --seed 3
    """
    position = load_position(config, graph)
    check_time_limit(time_limit)
    db = open_db(db_dir)
    rng = random.Random(seed) if seed is not None else None
    play_in_terminal(position, first.lower() == "computer",
                     lambda p: choose_move(p, db=db, rng=rng, time_limit=time_limit))


__all__ = ["value_cmd", "play_cmd", "open_db"]

