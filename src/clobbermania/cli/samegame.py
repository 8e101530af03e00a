"""``clobbermania samegame play`` and ``samegame bench``: scored SameGame search."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from ..api.verbs import (
    SAMEGAME_TIME_LIMIT,
    Answer,
    check_playouts,
    check_workers,
    default_restarts,
    left_penalties,
    load_clicks_board,
    samegame_play,
)
from ..errors import NotationError
from ._common import (
    check_clicks_drawable,
    check_time_limit,
    emit_json,
    progress_reporter,
    show_clicks_answer,
)
from ._distributed import (
    check_distributed,
    distributed_line,
    distributed_options,
    run_distributed,
)

CLOCK_CHOICE = click.Choice(["wall", "cpu"], case_sensitive=False)


def _beam_progress(label: str, info: dict) -> str:
    """The beam search's progress line."""
    return (f"{label}: best {info['score']}, beam width {info['width']}, level "
            f"{info['level']}, {info['playouts']:,} playouts, {info['seconds']:.1f} s")


_PENALTY_HELP = ("The beams rank a line by its score less P points a block it leaves, "
                 "steering towards boards that clear; scores stay true (default: "
                 "samegame.LEFT_PENALTY). A comma list, e.g. 60,0, gives search w of a "
                 "board the w-th penalty, cycling (with --workers).")


@click.command("play")
@click.argument("board_or_file", metavar="BOARD_OR_FILE")
@click.option("--time-limit", type=float, default=SAMEGAME_TIME_LIMIT, show_default=True,
              metavar="S", help="Search for S seconds.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the search's random numbers (same seed, same search).")
@click.option("--max-playouts", type=int, metavar="N",
              help="Also stop after about N playouts (a machine-independent limit; "
                   "N at most 10^15).")
@click.option("--clock", type=CLOCK_CHOICE, default="wall", show_default=True,
              help="Count the time limit in wall time or in this process's CPU time.")
@click.option("--workers", type=int, default=1, show_default=True, metavar="W",
              help="Independent searches of each board (seeds SEED..SEED+W-1) side by side, "
                   "one process each; the best game is kept. W = the number of cores gives "
                   "a board the whole machine.")
@click.option("--restarts", type=int, default=None, metavar="R",
              help="Independent sub-searches within each search, each with 1/R of the "
                   "budget, the best kept (default: samegame.RESTARTS = 3).")
@click.option("--left-penalty", default=None, metavar="P[,P...]", help=_PENALTY_HELP)
@click.option("--threads", type=int, default=None, metavar="T",
              help="Threads of each search (default: one per core, shared out among the "
                   "workers); the game found does not depend on it.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the game as a strip of boards to this SVG file.")
@distributed_options
def play_cmd(board_or_file, time_limit, seed, max_playouts, clock, workers, restarts,
             left_penalty, threads, as_json, svg_file, distributed, address, store, cpus,
             job_nodes) -> None:
    """Find a high-scoring SameGame game: (n-2)^2 a group of n, +1000 for a cleared board
    (no end penalty).

    BOARD_OR_FILE is a board (rows top first, separated by '/', colours 0-9 a-z, '.'
    empty) or a file holding one board. The moves are squares of the clicked groups, each
    in the board as it stands when clicked (rows from the top of the original board).

    \b
    Examples:
      clobbermania samegame play 1122/2211 --json
      clobbermania samegame play board.txt --time-limit 300 --seed 7 --svg game.svg
      clobbermania samegame play board.txt --time-limit 300 --workers 2
      clobbermania samegame play board.txt --time-limit 300 --workers 8 --distributed

    With --distributed the W searches (--workers) are jobs on Ray (docs/distributed.md),
    each on one thread, kept in the job store: the same answer, plus a "distributed"
    object (jobs, jobs reused from the store, actors, store).
    """
    _check_samegame_distributed(distributed, address, store, cpus, job_nodes,
                                threads=threads)
    if distributed:
        _play_distributed(board_or_file, time_limit, seed, max_playouts, clock, workers,
                          restarts, left_penalty, as_json, svg_file, address, store, cpus)
        return
    with progress_reporter("searching", _beam_progress) as progress:
        answer = samegame_play(board=board_or_file, time_limit=time_limit, seed=seed,
                               max_playouts=max_playouts, clock=clock, restarts=restarts,
                               left_penalty=left_penalty, workers=workers, threads=threads,
                               before_search=lambda b: check_clicks_drawable(svg_file, b),
                               progress=progress)
    if show_clicks_answer(answer, svg_file, as_json):
        return
    _show_play(answer, svg_file)


def _show_play(answer: Answer, svg_file: str | None) -> None:
    """The text answer of ``samegame play`` after its board."""
    result = answer.result
    status = "cleared" if result.cleared else f"{result.blocks_left} blocks left"
    proof = " (optimal: every reachable board searched)" if result.exact else ""
    click.echo(f"score: {result.score} ({status}){proof}")
    click.echo(f"moves ({len(result.moves)}): {' '.join(result.moves) or '(none)'}")
    click.echo(f"search: {result.algorithm}")
    click.echo(f"playouts: {result.playouts:,}   seconds: {result.seconds:.1f} "
               f"(cpu {result.cpu_seconds:.1f})   seed: {result.seed}")
    if svg_file:
        click.echo(f"picture: {svg_file}")


play_cmd.name = "play"


def _check_samegame_distributed(distributed: bool, address, store, cpus, job_nodes, *,
                                threads, jobs_given: bool = False) -> None:
    """The usage errors of ``samegame play|bench --distributed``: the options of Ray
    without it, and the options that mean nothing with it (--job-nodes: a job is one
    whole search; --threads: each actor searches on one thread; --jobs: the searches
    run at once are the actors)."""
    if distributed:
        if job_nodes is not None:
            raise click.UsageError("--job-nodes does not apply to samegame --distributed: "
                                   "a job is one whole search, budgeted by --time-limit "
                                   "and --max-playouts")
        if threads is not None:
            raise click.UsageError("--threads does not apply with --distributed: each "
                                   "search runs on one thread of its actor (--cpus sets "
                                   "the actors)")
        if jobs_given:
            raise click.UsageError("--jobs does not apply with --distributed: the "
                                   "searches run at once are the actors (--cpus)")
    check_distributed(distributed, address, store, cpus, job_nodes)


def _describe_samegame(label: str, info: dict) -> str:
    """The progress line of a distributed SameGame run."""
    return (f"{label}: boards done {info['boards_done']}/{info['boards']}, jobs done "
            f"{info['jobs_done']}/{info['jobs']} ({info['jobs_reused']} reused), "
            f"{info['running']} running, {info['queued']} queued; best total so far "
            f"{info['best_total']:,}, {info['seconds']:.0f} s")


def _play_distributed(board_or_file, time_limit, seed, max_playouts, clock, workers,
                      restarts, left_penalty, as_json, svg_file, address, store,
                      cpus) -> None:
    """``samegame play --distributed``: the W searches of the board as jobs on Ray."""
    from ..distributed.samegame import search_samegame_distributed

    board = load_clicks_board(board_or_file)
    check_time_limit(time_limit)
    check_clicks_drawable(svg_file, board)
    check_playouts(max_playouts)
    check_workers(workers)
    restarts = default_restarts(restarts)
    penalties = left_penalties(left_penalty)

    def solve(*, cluster, store, job_nodes, progress):
        del job_nodes   # a job is one whole search (refused above)
        return search_samegame_distributed(
            [board], cluster=cluster, store=store, time_limit=time_limit, seed=seed,
            workers=workers, max_playouts=max_playouts, clock=clock, restarts=restarts,
            left_penalty=penalties, progress=progress)

    results, info = run_distributed("samegame play", _describe_samegame, store, address,
                                    cpus, None, solve)
    answer = Answer({**results[0].to_dict(), "distributed": info}, results[0], board)
    if show_clicks_answer(answer, svg_file, as_json):
        return
    _show_play(answer, svg_file)
    click.echo(distributed_line(answer.obj))


def _parse_selection(text: str | None, n: int) -> list[int]:
    """``"1-5,7"`` -> [0, 1, 2, 3, 4, 6] (board numbers from 1)."""
    if text is None:
        return list(range(n))
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            lo, _, hi = part.partition("-")
            a, b = int(lo), int(hi) if hi else int(lo)
        except ValueError:
            raise NotationError(f"bad board selection {part!r}: expected numbers like 1-5,7")\
                from None
        if not (1 <= a <= b <= n):
            raise NotationError(f"board selection {part!r} is outside 1..{n}")
        out.extend(i for i in range(a - 1, b) if i not in out)
    return out


@click.command("bench")
@click.argument("file", required=False, metavar="[FILE]")
@click.option("--time-limit", type=float, default=60.0, show_default=True, metavar="S",
              help="Seconds of search per board.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every search.")
@click.option("--jobs", type=int, default=1, show_default=True, metavar="J",
              help="Searches run at once, one process each (one per core).")
@click.option("--clock", type=CLOCK_CHOICE, default="wall", show_default=True,
              help="Count each board's limit in wall time or in its process's CPU time "
                   "(use cpu on a loaded machine).")
@click.option("--workers", type=int, default=1, show_default=True, metavar="W",
              help="Independent searches of each board (seeds SEED..SEED+W-1), side by "
                   "side when --jobs allows; the best game is kept. --jobs W --workers W "
                   "gives each board the whole machine.")
@click.option("--boards", "selection", metavar="LIST",
              help="Only these boards, numbered from 1: e.g. 1-5,7.")
@click.option("--max-playouts", type=int, metavar="N",
              help="Also stop each board after about N playouts.")
@click.option("--restarts", type=int, default=None, metavar="R",
              help="Independent sub-searches within each search, each with 1/R of the "
                   "budget, the best kept (default: samegame.RESTARTS = 3).")
@click.option("--left-penalty", default=None, metavar="P[,P...]", help=_PENALTY_HELP)
@click.option("--threads", type=int, default=None, metavar="T",
              help="Threads of each search (default: the cores shared out among the jobs).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@distributed_options
@click.pass_context
def bench_cmd(ctx, file, time_limit, seed, jobs, clock, workers, selection, max_playouts,
              restarts, left_penalty, threads, as_json, distributed, address, store, cpus,
              job_nodes) -> None:
    """Play every board of a SameGame test set; per-board and total scores.

    FILE defaults to the standard set, shipped inside the package (20 boards, 15x15,
    5 colours: Schadd et al. 2008), scored (n-2)^2 a group, +1000 a cleared board, no end
    penalty. Published totals: SP-MCTS 78,012; NMCS level 3 77,934.

    \b
    Examples:
      clobbermania samegame bench --time-limit 300 --jobs 2 --clock cpu
      clobbermania samegame bench --boards 1-3 --time-limit 10 --json
      clobbermania samegame bench --time-limit 300 --jobs 2 --workers 2 --clock cpu
      clobbermania samegame bench --boards 1-5 --time-limit 60 --workers 4 --clock cpu \\
        --distributed --store bench.sqlite

    With --distributed each search (board, seed) is a job on Ray (docs/distributed.md),
    on one thread of an actor, and is kept in the job store: the same answer, plus a
    "distributed" object (jobs, jobs reused from the store, actors, store); "jobs" is
    then the number of actors. Run the same command again on the same store to resume a
    killed run: the searches it finished are read back, not run again.
    """
    from ..clickomania.samegame import (
        MAX_JOBS,
        PUBLISHED_TOTALS,
        STANDARD_SET,
        bench_samegame,
        read_samegame_set,
    )

    jobs_given = ctx.get_parameter_source("jobs") is not click.core.ParameterSource.DEFAULT
    _check_samegame_distributed(distributed, address, store, cpus, job_nodes,
                                threads=threads, jobs_given=jobs_given)
    check_time_limit(time_limit)
    check_playouts(max_playouts)
    if not 1 <= jobs <= MAX_JOBS:
        raise NotationError(f"--jobs must be between 1 and {MAX_JOBS} (the cores, at least "
                            f"2), not {jobs}")
    check_workers(workers)
    restarts = default_restarts(restarts)
    penalties = left_penalties(left_penalty)
    t0 = time.perf_counter()
    boards = read_samegame_set(file)
    which = _parse_selection(selection, len(boards))
    done = [0]

    def report(i: int, r) -> None:
        done[0] += 1
        if not as_json:
            click.echo(f"board {which[i] + 1:2d}: {r.score:5d}  "
                       f"{'cleared' if r.cleared else f'{r.blocks_left} left':>9s}  "
                       f"{r.playouts:>10,} playouts  {r.seconds:6.1f} s "
                       f"(cpu {r.cpu_seconds:6.1f})")
        if progress_bar is not None:
            progress_bar.update(task, completed=done[0])

    info = None
    progress_bar = None
    task = None
    if distributed:
        results, info = _bench_distributed(
            [boards[i] for i in which], report, time_limit=time_limit, seed=seed,
            workers=workers, max_playouts=max_playouts, clock=clock.lower(),
            restarts=restarts, penalties=penalties, address=address, store=store, cpus=cpus)
        jobs = info["actors"]
    elif sys.stderr.isatty() and not as_json:
        from rich.console import Console
        from rich.progress import Progress

        progress_bar = Progress(console=Console(stderr=True), transient=True)
        task = progress_bar.add_task("boards", total=len(which))
        progress_bar.start()
    try:
        if not distributed:
            results = bench_samegame(
                [boards[i] for i in which], time_limit=time_limit,
                seed=seed, jobs=jobs, clock=clock.lower(), max_playouts=max_playouts,
                progress=report, workers=workers, restarts=restarts, threads=threads,
                left_penalty=penalties)
    finally:
        if progress_bar is not None:
            progress_bar.stop()
    total = sum(r.score for r in results)
    seconds = time.perf_counter() - t0
    if as_json:
        rows = [dict(board=i + 1, **r.to_dict()) for i, r in zip(which, results, strict=True)]
        emit_json({"boards": rows,
                   "total": total, "cleared": sum(r.cleared for r in results),
                   "time_limit": time_limit, "clock": clock.lower(), "seed": seed,
                   "jobs": jobs, "workers": workers, "restarts": restarts,
                   "left_penalty": penalties[0] if len(penalties) == 1 else penalties,
                   "scoring": "(n-2)^2 per group, +1000 cleared, no end penalty",
                   "published_totals": PUBLISHED_TOTALS, "seconds": round(seconds, 3),
                   **({} if info is None else {"distributed": info})})
        return
    click.echo(f"total: {total} over {len(results)} boards "
               f"({sum(r.cleared for r in results)} cleared); scoring (n-2)^2, +1000 cleared, "
               "no end penalty")
    # the published totals are for the whole standard set only
    # (STANDARD_SET is a Path unless the package is imported from a zip archive)
    if len(results) == len(boards) and (
            file is None or (isinstance(STANDARD_SET, Path)
                             and Path(file).resolve() == STANDARD_SET.resolve())):
        for name, value in PUBLISHED_TOTALS.items():
            click.echo(f"  {name}: {value}  (ours {total - value:+d})")
    click.echo(f"seconds: {seconds:.1f} ({time_limit:g} s a board, {clock.lower()} clock, "
               f"{jobs} job{'s' if jobs > 1 else ''}, seed {seed}, {restarts} sub-search"
               f"{'es' if restarts > 1 else ''} a search, left penalty "
               f"{','.join(map(str, penalties))}"
               + (f", best of {workers} searches a board)" if workers > 1 else ")"))
    if info is not None:
        click.echo(distributed_line({"distributed": info}))


def _bench_distributed(boards, report, *, time_limit, seed, workers, max_playouts, clock,
                       restarts, penalties, address, store, cpus):
    """``samegame bench --distributed``: each board's searches as jobs on Ray; the
    results in board order and the "distributed" object."""
    from ..distributed.samegame import search_samegame_distributed

    def solve(*, cluster, store, job_nodes, progress):
        del job_nodes   # a job is one whole search (refused above)
        return search_samegame_distributed(
            boards, cluster=cluster, store=store, time_limit=time_limit, seed=seed,
            workers=workers, max_playouts=max_playouts, clock=clock, restarts=restarts,
            left_penalty=penalties, progress=progress, on_board=report)

    return run_distributed("samegame bench", _describe_samegame, store, address, cpus,
                           None, solve)


bench_cmd.name = "bench"
