"""``clobbermania clobber ...`` and ``clobbermania mcgs ...``: two-player Clobber."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def clobber() -> None:
    """Two-player Clobber: values, outcomes, perft, play (x = Black = Left moves first
    unless told otherwise).

    \b
    Example:
      clobbermania clobber value xxo --json
    """


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def mcgs() -> None:
    """Run MCGS `.test` files (Clobber and impartial Clobber suites)."""


# Commands defined in their own modules register themselves below, one line each.
from .clobber_value import value_cmd  # noqa: E402, I001
clobber.add_command(value_cmd)
# -- anchor: clobber value --
# -- anchor: clobber solve --
# -- anchor: clobber perft --
# -- anchor: clobber play --
# -- anchor: mcgs run --
