"""``clobbermania clobber build-db``: the database of Clobber part values."""

from __future__ import annotations

import click

from ..clobber.partdb import MAX_SQUARES, build_part_database
from ._common import echo_build_start, emit_json, progress_reporter


def _describe(label: str, info: dict) -> str:
    return (f"{label}: parts of {info['squares']} squares, {info['done']:,} of "
            f"{info['total']:,}")


@click.command("build-db")
@click.option("--max-squares", type=int, default=MAX_SQUARES, show_default=True, metavar="N",
              help=f"Every connected part of up to N squares (2..{MAX_SQUARES}; 10 takes "
                   "about 25 CPU seconds, 1.1 GB of memory a process and 29 MB of disk; "
                   "8 ships with clobbermania).")
@click.option("--db", "db_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Database directory (default: $XDG_CACHE_HOME/clobbermania/parts).")
@click.option("--jobs", type=int, metavar="J",
              help="Processes (default: the number of cores).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def build_db_cmd(max_squares, db_dir, jobs, as_json) -> None:
    """Build the part database: the canonical value of every connected Clobber part of up
    to N squares (a part and its colour swap stored once), resuming an interrupted or
    smaller build. The value search uses the database in the default directory when it
    is larger than the 8-square one shipped with clobbermania.

    \b
    Example:
      clobbermania clobber build-db --max-squares 9 --db /tmp/parts
    """
    with progress_reporter("building", _describe) as show:
        progress = None if show is None else (
            lambda done, total, n: show({"done": done, "total": total, "squares": n}))
        rep = build_part_database(db_dir, max_squares=max_squares, jobs=jobs,
                                  progress=progress)
    if as_json:
        emit_json(rep.to_dict())
        return
    if echo_build_start("part database", rep.db_dir, rep.max_squares, "squares", rep.built,
                        2):
        return
    parts = sum(rep.parts_by_size.values())
    click.echo(f"built parts of {rep.built[0]} to {rep.built[-1]} squares: {parts:,} parts "
               f"in {rep.seconds:.1f} s with {rep.jobs} process(es)")
    click.echo("  " + ", ".join(f"{n} squares {rep.parts_by_size[n]:,} parts "
                                f"{rep.seconds_by_size[n]:.2f} s" for n in rep.built[-3:]))
    click.echo(f"part database in {rep.db_dir}: complete to {rep.max_squares} squares, "
               f"{rep.bytes_total:,} bytes")


build_db_cmd.name = "build-db"
