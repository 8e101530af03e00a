"""``clobbermania cgt ...``: canonical forms and comparison of short partizan games."""

from __future__ import annotations

import click

from ..api.verbs import CGT_TIME_LIMIT, cgt_compare, cgt_value
from ._common import emit_json

#: The default of ``--time-limit`` for ``cgt value`` and ``cgt compare``, in seconds.
DEFAULT_TIME_LIMIT = CGT_TIME_LIMIT

_time_limit_option = click.option(
    "--time-limit", "time_limit_s", type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIME_LIMIT, show_default=True, metavar="SECONDS",
    help="Give up after this many seconds: a canonical form has no useful partial answer, "
         "so running out is an error (exit 2), not a bound.")

_OUTCOME_TEXT = {"L": "Left (x) wins", "R": "Right (o) wins",
                 "N": "the first player wins", "P": "the second player wins"}


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
@_time_limit_option
def value_cmd(expr: str, as_json: bool, time_limit_s: float) -> None:
    """Canonical form of EXPR, a game in CGSuite's syntax, and its invariants.

    EXPR may use numbers (3, 1/2, -3/4), * *n ^ ^^ ^n v vv vn, {L1,L2|R1,R2} with nested
    bars ({0||vv*|vv*}), +-x, sums and differences. JSON fields: value, outcome (L R N
    P), mean, temperature (exact, as text), atomic_weight (null unless all-small),
    reduced (reduced canonical form), birthday, seconds; and ``refused`` (only when some
    are) mapping atomic_weight or reduced, then null, to the sentence naming the cap it
    passed: the canonical form is printed even when one of those two is out of reach.

    Numbers, nimbers and up-multiples of any size and their sums are answered from their
    tags at once (*99999999, ^99999999 + 1/1024, {0|*99999}); what would need too many
    explicit options is refused with the limit it passes (docs/limits.md), and so is
    running out of --time-limit (exit 2).

    \b
    Example:
      clobbermania cgt value "{0|^}" --json
    """
    answer = cgt_value(expr=expr, time_limit=time_limit_s)
    info = answer.obj
    if as_json:
        emit_json(info)
        return
    click.echo(info["value"])
    click.echo(f"outcome: {info['outcome']} ({_OUTCOME_TEXT[info['outcome']]})")
    click.echo(f"mean: {info['mean']}   temperature: {info['temperature']}")
    if info["atomic_weight"] is not None:
        click.echo(f"atomic weight: {info['atomic_weight']}")
    red = info["reduced"] if info["reduced"] is not None else "not computed"
    click.echo(f"reduced canonical form: {red}   birthday: {info['birthday']}")
    for name, why in info.get("refused", {}).items():
        click.echo(f"{name.replace('_', ' ')} not computed: {why}")


@cgt.command("compare")
@click.argument("g")
@click.argument("h")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_time_limit_option
def compare_cmd(g: str, h: str, as_json: bool, time_limit_s: float) -> None:
    """Print how G compares with H: one of < > = || (|| : confused, incomparable).

    \b
    Example:
      clobbermania cgt compare "{0|*}" "^"        # prints =
    """
    answer = cgt_compare(g=g, h=h, time_limit=time_limit_s)
    if as_json:
        emit_json(answer.obj)
        return
    click.echo(answer.result)
