"""``clobbermania grundy ...``: impartial Clobber (either player moves either colour)."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def grundy() -> None:
    """Impartial Clobber: Grundy values, the row database, statistics, families, play.

    \b
    Example:
      clobbermania grundy value xoxo --json
    """


# Commands defined in their own modules register themselves below, one line each.
from .grundy_value import value_cmd  # noqa: E402, I001
grundy.add_command(value_cmd)
# -- anchor: grundy value --
from .grundy_value import play_cmd  # noqa: E402, I001
grundy.add_command(play_cmd)
# -- anchor: grundy play --
from .grundy_db import build_cmd  # noqa: E402, I001
grundy.add_command(build_cmd)
# -- anchor: grundy build --
from .grundy_db import build_parts_cmd  # noqa: E402, I001
grundy.add_command(build_parts_cmd)
# -- anchor: grundy build-parts --
from .grundy_db import stats_cmd  # noqa: E402, I001
grundy.add_command(stats_cmd)
# -- anchor: grundy stats --
from .grundy_family import family_cmd  # noqa: E402, I001
grundy.add_command(family_cmd)
# -- anchor: grundy family --
