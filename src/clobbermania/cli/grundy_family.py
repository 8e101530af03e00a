"""``clobbermania grundy family PATTERN --to N``: nim values of P^1 .. P^N in impartial
Clobber, through the closed set of shapes (``clobber.families``)."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

import click

from ..errors import NotationError
from ._common import check_time_limit, emit_json


@contextmanager
def _progress_bar(label: str, enabled: bool):
    """A rich progress bar on stderr when it is a terminal (and the job is long enough to
    need one); otherwise no callback."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"
                  " stones"), TimeElapsedColumn(), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task(label, total=1)

        def update(info: dict) -> None:
            bar.update(task, completed=info["done"], total=info["total"])
        yield update


#: Seconds of ``grundy family`` when no --time-limit is given: the tables take time
#: quadratic in the stones of P^N, and nobody expects a --to to run for hours.
DEFAULT_TIME_LIMIT = 60.0


@click.command("family")
@click.argument("pattern")
@click.option("--to", "n", type=int, required=True, metavar="N",
              help="Compute P^1 .. P^N (P^N at most 16,777,215 stones).")
@click.option("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, show_default=True,
              metavar="S",
              help="Stop after S seconds: the values of P^1 .. P^m finished by then "
                   "(exact false when m < N). The tables take time quadratic in the "
                   "stones of P^N (ox to 20,000: 3 s), so a long family is cut here.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def family_cmd(pattern, n, time_limit, as_json) -> None:
    """Nim values of PATTERN repeated 1..N times (impartial Clobber), the share of losing n
    and the smallest period consistent with the values.

    The values come from a dynamic program over the finite set of shapes reachable from
    PATTERN^n (the sets E_n of the French study), O(N^2) time: a long family stops at
    the time limit (60 s unless given) with the values found by then.

    \b
    Examples:
      clobbermania grundy family ox --to 1500
      clobbermania grundy family ooxx --to 100 --json
    """
    from ..clobber.families import family

    if n < 1:
        raise NotationError(f"--to must be at least 1, not {n}")
    check_time_limit(time_limit)
    t0 = time.perf_counter()
    with _progress_bar(f"{pattern}^n", n * len(pattern) > 20_000) as progress:
        result = family(pattern, n, progress, time_limit)
    seconds = time.perf_counter() - t0
    if as_json:
        emit_json(result.to_dict(), seconds)
        return
    period = ("none found (needs 3 periods and a periodic stretch at least as long as the "
              "pre-period)" if result.period is None else
              f"{result.period.period} from n = {result.period.preperiod + 1}")
    got = len(result.values)
    if not result.exact:
        click.echo(f"the time limit ran out: values of n = 1..{got} of the {n} asked")
    shown = result.values if got <= 60 else result.values[:30] + ["..."] + result.values[-10:]
    click.echo(f"{result.pattern}^n, n = 1..{got}: " + " ".join(str(v) for v in shown))
    losing = [i + 1 for i, v in enumerate(result.values) if v == 0]
    click.echo(f"losing n (value 0): {len(losing)} of {got} ({result.losing_share:.2f} %)"
               + (f", the last at n = {losing[-1]}" if losing else ""))
    click.echo(f"period: {period}")
    click.echo(f"{result.shapes} shape types, {seconds:.2f} s")
