"""Where the tests' oracle data lives: inside the repository, nothing outside it.

- ``MCGS_DATA``: the MCGS test files, ``tests/data/mcgs/`` (MIT; origin in its SOURCE.md).
- ``MCGS_FRONTIER``: MCGS's hard, very hard and unsolved Clobber test files,
  ``benchmarks/data/mcgs-frontier/`` (MIT; hours each, so not under ``tests/data/mcgs/``),
  and ``FRONTIER_RESULTS``, our frontier records (``benchmarks/results/``).
- ``SAMEGAME_STANDARD_SET``: the standard SameGame set, package data of
  ``clobbermania.clickomania`` (``data/standard-20.txt``), the file ``samegame bench`` plays.

A missing file is a failure of the test that reads it, never a skip.
"""

from pathlib import Path

from clobbermania.clickomania.samegame import STANDARD_SET

MCGS_DATA = Path(__file__).resolve().parent / "data" / "mcgs"
_BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
MCGS_FRONTIER = _BENCHMARKS / "data" / "mcgs-frontier"
FRONTIER_RESULTS = _BENCHMARKS / "results" / "clobber_frontier.jsonl"
SAMEGAME_STANDARD_SET = STANDARD_SET
