"""``clobbermania clobber solve|perft|play`` and ``clobbermania mcgs run``: two-player
Clobber outcomes, move counts, a game against the computer, and the MCGS test suites."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import click

from ..api.verbs import clobber_solve
from ..clobber.search import choose_move, perft_counts
from ..errors import NotationError
from ..render import text_drawing
from ..stones import BLACK, COLOR_NAMES, color_from_name, opponent
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

GRAPH_HELP = graph_help("BOARD")
_FIRST = click.Choice(["black", "white"], case_sensitive=False)


@click.command("solve")
@click.argument("board")
@click.option("--first", type=_FIRST, required=True, help="The player to move first.")
@click.option("--graph", "graph", metavar="SPEC", help=GRAPH_HELP)
@click.option("--time-limit", type=float, metavar="S",
              help="Stop after S seconds (then winner may be null and exact is false).")
@click.option("--winner-only", is_flag=True,
              help="Stop at the first winning move found: the winner and that move (the "
                   "outcome's proof) without searching every other first move.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@distributed_options
def solve_cmd(board, first, graph, time_limit, winner_only, as_json, distributed, address,
              store, cpus, job_nodes) -> None:
    """Who wins BOARD with --first to move, and every winning first move.

    x (Black, Left) moves a black stone onto an adjacent white stone, removing it; o
    (White) likewise; whoever cannot move loses. Exhaustive proof search (numba
    bitboards, transposition table over symmetries; large sums use part values).

    \b
    Examples:
      clobbermania clobber solve xoxo/oxox/xoxo --first black --json
      clobbermania clobber solve xoxox/oxoxo/xoxox/oxoxo --first white --time-limit 30
      clobbermania clobber solve xoxox/oxoxo/xoxox/oxoxo --first black --distributed --json
      clobbermania clobber solve xoxoxoxoxox/oxoxoxoxoxo/xoxoxoxoxox --first black --winner-only

    With --distributed the search is split into jobs run on Ray (docs/distributed.md):
    the same answer, plus a "distributed" object (jobs run, jobs reused from the
    store, actors, store).
    """
    check_distributed(distributed, address, store, cpus, job_nodes)
    if distributed:
        _solve_distributed(board, first, graph, time_limit, as_json, address, store, cpus,
                           job_nodes, winner_only)
        return
    answer = clobber_solve(board=board_text(board), first=first, graph=graph,
                           time_limit=time_limit, winner_only=winner_only)
    r, position = answer.result, answer.position
    if as_json:
        emit_json(answer.obj)
        return
    _show_solve(r, position, first, winner_only)


def _describe_jobs(label: str, info: dict) -> str:
    return (f"{label}: {info['jobs']:,} jobs done ({info['reused']:,} reused), "
            f"{info['running']} running, {info['queued']:,} queued, "
            f"{info['nodes_per_second']:,.0f} nodes/s; first moves decided "
            f"{info['decided']}/{info['first_moves']} ({info['won']} winning)")


def _solve_distributed(board, first, graph, time_limit, as_json, address, store, cpus,
                       job_nodes, winner_only: bool = False) -> None:
    """``clobber solve --distributed``: distributed.clobber_search on a Ray cluster."""
    from ..clobber.search import SolveResult
    from ..distributed.clobber_search import solve_outcome_distributed

    position = grid_position(board, graph, time_limit)
    obj = run_distributed(
        "clobber solve", _describe_jobs, store, address, cpus, job_nodes,
        lambda **kw: solve_outcome_distributed(position, first.lower(),
                                               time_limit=time_limit,
                                               winner_only=winner_only, **kw))
    if as_json:
        emit_json(obj)
        return
    r = SolveResult(obj["winner"], obj["first"], tuple(obj["winning_moves"]), obj["exact"],
                    obj["nodes"], obj["seconds"], obj["proof"], obj["board"])
    _show_solve(r, position, first, winner_only)
    click.echo(distributed_line(obj))


def _show_solve(r, position, first: str, winner_only: bool = False) -> None:
    """The text answer of ``clobber solve``."""
    click.echo(text_drawing(position))
    if r.winner is None:
        click.echo(f"{first} to move: unknown ({r.proof})")
    else:
        who = "the player to move wins" if r.winner == first.lower() else \
            "the player to move loses"
        click.echo(f"{first} to move: {r.winner} wins ({who})")
        if r.winning_moves and winner_only:
            click.echo(f"winning move: {r.winning_moves[0]} (the other first moves were "
                       "not searched)")
        elif r.winning_moves:
            label = "winning moves" if r.exact else "winning moves found so far"
            click.echo(f"{label} ({len(r.winning_moves)}): {' '.join(r.winning_moves)}")
    click.echo(f"{r.proof}; seconds: {r.seconds:.3f}")


@click.command("perft")
@click.argument("board")
@click.option("--depth", type=int, required=True,
              help="Longest sequence length D (at most 64).")
@click.option("--first", type=_FIRST, required=True, help="The player to move first.")
@click.option("--graph", "graph", metavar="SPEC", help=GRAPH_HELP)
@click.option("--time-limit", type=float, metavar="S",
              help="Stop after S seconds: the lengths finished are printed, exact false.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def perft_cmd(board, depth, first, graph, time_limit, as_json) -> None:
    """The number of move sequences of each length 1..D from BOARD (players alternating),
    up to the first length that no sequence reaches.

    OpenSpiel's start is the checkerboard with o on the bottom-left square, o to move:

    \b
    Examples:
      clobbermania clobber perft oxo/xox/oxo --depth 4 --first white   # 12 88 376 936
      clobbermania clobber perft xoxo/oxox --depth 3 --first black --json
    """
    t0 = time.perf_counter()
    position = load_position(board, graph)
    check_time_limit(time_limit)
    if depth < 1:
        raise NotationError(f"--depth must be at least 1, not {depth}")
    r = perft_counts(position, color_from_name(first), depth, time_limit=time_limit)
    seconds = time.perf_counter() - t0
    if as_json:
        emit_json({"board": position.text(), "first": first.lower(), "depth": depth,
                   "counts": r.counts, "exact": r.exact, "nodes": r.nodes,
                   "seconds": round(seconds, 6)})
        return
    for d, c in enumerate(r.counts, start=1):
        click.echo(f"depth {d}: {c:,}")
    if not r.exact:
        click.echo(f"depth {len(r.counts) + 1} and beyond: unknown (the time limit ran out)")
    elif len(r.counts) < depth:
        click.echo(f"depth {len(r.counts) + 1} and beyond: 0 (no longer sequence)")
    click.echo(f"seconds: {seconds:.3f}")


@click.command("play")
@click.argument("board", default="xoxox/oxoxo/xoxox/oxoxo")
@click.option("--graph", "graph", metavar="SPEC", help=GRAPH_HELP)
@click.option("--first", type=click.Choice(["human", "computer"], case_sensitive=False),
              default="human", show_default=True, help="Who moves first.")
@click.option("--human", "human_color", type=_FIRST, default="black", show_default=True,
              help="The colour you play (Black, x, moves first).")
@click.option("--time-limit", type=float, default=5.0, show_default=True, metavar="S",
              help="Seconds the computer may think per move.")
def play_cmd(board, graph, first, human_color, time_limit) -> None:
    """Play Clobber against the computer on BOARD (default: the 4x5 checkerboard).

    Type moves like a1-b1 (a stone of yours onto an adjacent stone of the other colour;
    on a graph, vertex numbers like 3-7). 'moves' lists your legal moves, 'quit' (or end
    of input) stops. The computer plays perfectly when it solves the position in its
    time, otherwise the best move of an alpha-beta search on mobility, and says which.

    \b
    Examples:
      clobbermania clobber play
      clobbermania clobber play xoxo/oxox/xoxo --first computer
    """
    position = load_position(board, graph)
    check_time_limit(time_limit)
    human = color_from_name(human_color)
    computer = opponent(human)
    click.echo(f"you play {COLOR_NAMES[human]} ({'x' if human == BLACK else 'o'})")
    play_in_terminal(position, first.lower() == "computer",
                     lambda p: choose_move(p, computer, time_limit=time_limit), human)


_RECORDED = re.compile(r"/\*\s*([0-9.]+)\s*ms\s*\*/")


def recorded_seconds(text: str) -> float:
    """The total of the solving times recorded in an MCGS file's comments (``/* 17.02 ms
    */`` before a case), in seconds; 0 when the file records none.

    >>> recorded_seconds("/* 17.5 ms */ XO {B win} /* 2.5 ms */ XO {W win}")
    0.02
    """
    return sum(float(x) for x in _RECORDED.findall(text)) / 1000


#: The statuses of an MCGS case (clobber.mcgs.CaseResult).
STATUSES = ("pass", "fail", "timeout", "refused")


@click.command("run")
@click.argument("files", nargs=-1, required=True)
@click.option("--time-limit", type=float, metavar="S",
              help="Seconds per case (then the case is a timeout).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def mcgs_run_cmd(files, time_limit, as_json) -> None:
    """Run every case of MCGS `.test` FILES (or of every *.test in a directory).

    Prints each file's counts and our time next to the total time recorded in the file's
    comments (MCGS's, or the tool named there). Exit status 1 when a case fails (a
    timeout is not a failure, nor is a case refused because a game of it is past a cap
    of docs/limits.md, such as a row of more than 512 stones: it is counted, with its
    sentence, and the run goes on).

    \b
    Examples:
      clobbermania mcgs run tests/data/mcgs/ --time-limit 60
      clobbermania mcgs run tests/data/mcgs/seg_tests__clobber__random_3x4.test --json
    """
    from ..clobber.mcgs import parse_test_file, read_test_text, run_case

    check_time_limit(time_limit)
    t0 = time.perf_counter()
    paths: list[Path] = []
    for f in files:
        p = Path(f)
        if p.is_dir():
            paths.extend(sorted(p.glob("*.test")))
        elif p.is_file():
            paths.append(p)
        else:
            raise NotationError(f"no such file or directory: {f}")
    per_file = [(p, parse_test_file(p)) for p in paths]   # every file parsed before a run
    results = []
    summaries = []
    for p, cases in per_file:
        f0 = time.perf_counter()
        mine = []
        for c in cases:
            r = run_case(c, time_limit=time_limit)
            mine.append(r)
            if not as_json and r.status == "refused":
                click.echo(f"REFUSED {c.where()}: {c.board[:60]}: {r.reason}")
            elif not as_json and r.status != "pass":
                click.echo(f"{r.status.upper()} {c.where()}: {c.board[:60]} expected "
                           f"{', '.join(e.text() for e in c.expectations)}; found "
                           f"{', '.join(r.found)} ({r.seconds:.2f} s)")
        results.extend(mine)
        count = {s: sum(1 for r in mine if r.status == s) for s in STATUSES}
        rec = recorded_seconds(read_test_text(p))
        summaries.append({"file": p.name, "passed": count["pass"], "failed": count["fail"],
                          "timeouts": count["timeout"], "refused": count["refused"],
                          "seconds": round(time.perf_counter() - f0, 6),
                          "recorded_seconds": round(rec, 6) if rec else None})
        if not as_json and len(per_file) > 1:
            s = summaries[-1]
            extra = f"; recorded {rec:.2f} s" if rec else ""
            refused = f", {s['refused']} refused" if s["refused"] else ""
            click.echo(f"{p.name}: {s['passed']} passed, {s['failed']} failed, "
                       f"{s['timeouts']} timed out{refused}; {s['seconds']:.2f} s{extra}")
    count = {s: sum(1 for r in results if r.status == s) for s in STATUSES}
    seconds = time.perf_counter() - t0
    recorded = sum(s["recorded_seconds"] or 0 for s in summaries)
    if as_json:
        emit_json({"passed": count["pass"], "failed": count["fail"],
                   "timeouts": count["timeout"], "refused": count["refused"],
                   "files": summaries,
                   "cases": [r.to_dict() for r in results], "seconds": round(seconds, 6),
                   "recorded_seconds": round(recorded, 6)})
    else:
        extra = (f" (the files record {recorded:.2f} s for their timed cases)"
                 if recorded else "")
        refused = f", {count['refused']} refused (past a cap)" if count["refused"] else ""
        click.echo(f"{len(results)} cases in {len(paths)} files: {count['pass']} passed, "
                   f"{count['fail']} failed, {count['timeout']} timed out{refused}; "
                   f"seconds: {seconds:.2f}{extra}")
    if count["fail"]:
        sys.exit(1)


__all__ = ["solve_cmd", "perft_cmd", "play_cmd", "mcgs_run_cmd", "recorded_seconds"]
