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
from .clobber_solve import solve_cmd  # noqa: E402, I001
clobber.add_command(solve_cmd)
# -- anchor: clobber solve --
from .clobber_solve import perft_cmd  # noqa: E402, I001
clobber.add_command(perft_cmd)
# -- anchor: clobber perft --
from .clobber_solve import play_cmd  # noqa: E402, I001
clobber.add_command(play_cmd)
# -- anchor: clobber play --
from .clobber_db import build_db_cmd  # noqa: E402, I001
clobber.add_command(build_db_cmd)
# -- anchor: clobber build-db --
from .clobber_solve import mcgs_run_cmd  # noqa: E402, I001
mcgs.add_command(mcgs_run_cmd)
# -- anchor: mcgs run --
