"""``clobbermania cgt ...``: canonical forms and comparison of short partizan games."""

from __future__ import annotations

import time

import click

from ..cgt import Game, parse
from ._common import emit_json

_OUTCOME_TEXT = {"L": "Left (x) wins", "R": "Right (o) wins",
                 "N": "the first player wins", "P": "the second player wins"}


def _frac(x) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cgt() -> None:
    """Combinatorial game theory: canonical forms in CGSuite's syntax.

    \b
    Examples:
      clobbermania cgt value "{0|^}"
      clobbermania cgt value "^ + v + 1/2" --json
      clobbermania cgt compare "^*" 0
    """


@cgt.command("value")
@click.argument("expr")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def value_cmd(expr: str, as_json: bool) -> None:
    """Canonical form of EXPR, a game in CGSuite's syntax, and its invariants.

    EXPR may use numbers (3, 1/2, -3/4), * *n ^ ^^ ^n v vv vn, {L1,L2|R1,R2} with nested
    bars ({0||vv*|vv*}), +-x, sums and differences. JSON fields: value, outcome (L R N
    P), mean, temperature (exact, as text), atomic_weight (null unless all-small),
    reduced (reduced canonical form), birthday, seconds.

    \b
    Example:
      clobbermania cgt value "{0|^}" --json
    """
    t0 = time.perf_counter()
    g = parse(expr)
    aw = g.atomic_weight() if g.is_all_small else None
    info = {
        "value": str(g),
        "outcome": g.outcome,
        "mean": _frac(g.mean),
        "temperature": _frac(g.temperature),
        "atomic_weight": None if aw is None else str(aw),
        "reduced": str(g.reduced()),
        "birthday": g.birthday,
    }
    info["seconds"] = round(time.perf_counter() - t0, 6)
    if as_json:
        emit_json(info)
        return
    click.echo(info["value"])
    click.echo(f"outcome: {info['outcome']} ({_OUTCOME_TEXT[info['outcome']]})")
    click.echo(f"mean: {info['mean']}   temperature: {info['temperature']}")
    if aw is not None:
        click.echo(f"atomic weight: {info['atomic_weight']}")
    click.echo(f"reduced canonical form: {info['reduced']}   birthday: {info['birthday']}")


@cgt.command("compare")
@click.argument("g")
@click.argument("h")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def compare_cmd(g: str, h: str, as_json: bool) -> None:
    """Print how G compares with H: one of < > = || (|| : confused, incomparable).

    \b
    Example:
      clobbermania cgt compare "{0|*}" "^"        # prints =
    """
    t0 = time.perf_counter()
    a, b = parse(g), parse(h)
    rel = Game.compare(a, b)
    if as_json:
        emit_json({"relation": rel, "left": str(a), "right": str(b),
                   "seconds": round(time.perf_counter() - t0, 6)})
        return
    click.echo(rel)
