"""``clobbermania grundy build`` and ``grundy stats``: the row database and its statistics."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

import click

from ..clobber.rowdb import (
    RowDatabase,
    build_database,
    plot_statistics,
    row_statistics,
)
from ._common import echo_build_start, emit_json

DB_OPTION_HELP = "Database directory (default: $XDG_CACHE_HOME/clobbermania/rows)."


@contextmanager
def _build_progress():
    """A rich progress bar on stderr when stderr is a terminal, else no callback."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.percentage:>5.1f}%"), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task("building", total=None)

        def update(done: int, total: int, length: int) -> None:
            bar.update(task, completed=done, total=total,
                       description=f"rows of {length} stones")
        yield update


@click.command("build")
@click.option("--max-stones", type=int, required=True, metavar="N",
              help="Build every hole-free row of up to N stones (2^N bytes of memory).")
@click.option("--db", "db_dir", type=click.Path(file_okay=False), metavar="DIR",
              help=DB_OPTION_HELP)
@click.option("--jobs", type=int, metavar="J",
              help="Threads (default: the number of cores).")
def build_cmd(max_stones, db_dir, jobs) -> None:
    """Build the row database up to N stones, resuming an interrupted or shorter build.

    \b
    Example:
      clobbermania grundy build --max-stones 20 --db /tmp/rows
    """
    with _build_progress() as progress:
        db = build_database(db_dir, max_stones=max_stones, jobs=jobs, progress=progress)
    rep = db.build_report
    if echo_build_start("row database", db.path, db.max_stones, "stones", rep.built, 1):
        return
    click.echo(f"built rows of {rep.built[0]} to {rep.built[-1]} stones: "
               f"{2 * rep.rows_computed:,} rows ({rep.rows_computed:,} stored, colour swap "
               f"halves them) in {rep.seconds:.1f} s with {rep.jobs} thread(s)")
    slow = [n for n in rep.built if n >= max(rep.built[-1] - 2, rep.built[0])]
    click.echo("  " + ", ".join(f"{n} stones {rep.seconds_by_length[n]:.2f} s" for n in slow))
    click.echo(f"row database in {db.path}: complete to {db.max_stones} stones")


build_cmd.name = "build"


@click.command("stats")
@click.option("--db", "db_dir", type=click.Path(file_okay=False), metavar="DIR",
              help=DB_OPTION_HELP)
@click.option("--max-stones", type=int, metavar="N", help="Rows of up to N stones.")
@click.option("--first", type=int, metavar="K",
              help="The first K rows in the order (length, index), the last length in part.")
@click.option("--min-stones", type=int, default=1, show_default=True, metavar="M",
              help="Start at rows of M stones (the French losing-share table starts at 2).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Draw the distribution and the losing share (needs matplotlib).")
def stats_cmd(db_dir, max_stones, first, min_stones, as_json, plot_file) -> None:
    """Distribution of Grundy values and share of losing rows by length.

    \b
    Example:
      clobbermania grundy stats --db /tmp/rows --max-stones 18 --min-stones 2
    """
    t0 = time.perf_counter()
    db = RowDatabase.open(db_dir)
    stats = row_statistics(db, max_stones=max_stones, first=first, min_stones=min_stones)
    if plot_file:
        plot_statistics(stats, plot_file)
    if as_json:
        out = stats.to_dict()
        out["database"] = str(db.path)
        out["seconds"] = round(time.perf_counter() - t0, 6)
        if plot_file:
            out["plot"] = plot_file
        emit_json(out)
        return
    what = (f"the first {stats.rows:,} rows" if first is not None
            else f"{stats.rows:,} rows")
    click.echo(f"{what} of {stats.min_stones} to {stats.max_stones} stones "
               f"(row database {db.path})")
    click.echo("Grundy value distribution:")
    for v, (c, p) in enumerate(zip(stats.counts, stats.distribution, strict=True)):
        if c:
            click.echo(f"  {v:>3}  {p:8.4f} %  {c:>14,}")
    click.echo("losing rows (value 0) by number of stones:")
    for n, share in stats.losing_share_by_length.items():
        click.echo(f"  {n:>3}  {share:6.2f} %  of {stats.rows_by_length[n]:,}")
    if plot_file:
        click.echo(f"plot: {plot_file}")


stats_cmd.name = "stats"


@click.command("build-parts")
@click.option("--max-squares", type=int, default=10, show_default=True, metavar="N",
              help="Value every connected grid part of up to N squares (at most 12).")
@click.option("--db", "db_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Database directory (default: $XDG_CACHE_HOME/clobbermania/grid-parts).")
@click.option("--jobs", type=int, metavar="J",
              help="Threads (default: the number of cores).")
def build_parts_cmd(max_squares, db_dir, jobs) -> None:
    """Build the grid-part database (impartial values of every connected part of up to N
    squares) that the Grundy search on grids uses, resuming an interrupted or smaller build.

    \b
    Example:
      clobbermania grundy build-parts --max-squares 8 --db /tmp/grid-parts
    """
    from ..clobber.gridparts import build_grid_parts, default_db_dir

    db = build_grid_parts(db_dir if db_dir is not None else default_db_dir(),
                          max_squares=max_squares, jobs=jobs)
    rep = db.build_report
    if echo_build_start("grid-part database", db.path, db.max_squares, "squares", rep.built,
                        2):
        return
    click.echo(f"valued the parts of {rep.built[0]} to {rep.built[-1]} squares in "
               f"{rep.seconds:.1f} s with {rep.jobs} thread(s)")
    click.echo(f"grid-part database in {db.path}: {db.count:,} parts, complete to "
               f"{db.max_squares} squares")


build_parts_cmd.name = "build-parts"
