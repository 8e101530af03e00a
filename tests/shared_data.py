"""Where the oracle data lives: ``shared/data`` beside the checkout, as CI has it.

A checkout elsewhere on a machine of this workplace falls back to /work/shared/data.
"""

from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
if not SHARED_DATA.is_dir():
    SHARED_DATA = Path("/work/shared/data")
MCGS_DATA = SHARED_DATA / "mcgs"
SAMEGAME_STANDARD_SET = SHARED_DATA / "samegame" / "standard-20.txt"
