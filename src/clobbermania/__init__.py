"""clobbermania: algorithmic game theory of stone-removal games.

>>> from clobbermania import Position, solitaire
>>> solitaire.solve(Position.from_string("xoxo")).stones_left
1
"""

from importlib.metadata import PackageNotFoundError, version

from .errors import BoardError, ClobbermaniaError, IllegalMoveError, NotationError
from .stones import BLACK, EMPTY, WHITE, Board, Move, Position

try:
    __version__ = version("clobbermania")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["BLACK", "WHITE", "EMPTY", "Board", "Move", "Position", "ClobbermaniaError",
           "NotationError", "BoardError", "IllegalMoveError", "__version__"]
