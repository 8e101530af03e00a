"""Where the tests' oracle data lives: inside the repository, nothing outside it.

- ``MCGS_DATA``: the MCGS test files, ``tests/data/mcgs/`` (MIT; origin in its SOURCE.md).
- ``SAMEGAME_STANDARD_SET``: the standard SameGame set, package data of
  ``clobbermania.clickomania`` (``data/standard-20.txt``), the file ``samegame bench`` plays.

A missing file is a failure of the test that reads it, never a skip.
"""

from pathlib import Path

from clobbermania.clickomania.samegame import STANDARD_SET

MCGS_DATA = Path(__file__).resolve().parent / "data" / "mcgs"
SAMEGAME_STANDARD_SET = STANDARD_SET
