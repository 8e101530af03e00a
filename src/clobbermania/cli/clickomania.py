"""``clobbermania clickomania ...`` and ``clobbermania samegame ...``: blocks that fall."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def clickomania() -> None:
    """Clickomania: clear a grid of coloured blocks by clicking groups of two or more.

    \b
    Example:
      clobbermania clickomania column 1221 --json
    """


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def samegame() -> None:
    """SameGame: Clickomania scored (n-2)^2 a group of n, +1000 for a cleared board.

    \b
    Example:
      clobbermania samegame play 1122/1122 --json
    """


# Commands defined in their own modules register themselves below, two lines each, just
# above their anchor.
from .clickomania_column import column_cmd  # noqa: E402, I001
clickomania.add_command(column_cmd)
# -- anchor: clickomania column --
from .clickomania_solve import solve_cmd  # noqa: E402, I001
clickomania.add_command(solve_cmd)
# -- anchor: clickomania solve --
from .clickomania_hardness import hardness_cmd  # noqa: E402, I001
clickomania.add_command(hardness_cmd)
# -- anchor: clickomania hardness --
from .clickomania_value import value_cmd  # noqa: E402, I001
clickomania.add_command(value_cmd)
# -- anchor: clickomania value --
from .samegame import play_cmd  # noqa: E402, I001
samegame.add_command(play_cmd)
# -- anchor: samegame play --
from .samegame import bench_cmd  # noqa: E402, I001
samegame.add_command(bench_cmd)
# -- anchor: samegame bench --
