"""The one exception hierarchy of clobbermania.

Every error a user can cause derives from :class:`ClobbermaniaError`; its message is one
sentence naming the offending character, square, move or option. The command line prints
it as ``error: <sentence>`` and exits with status 2.
"""

from __future__ import annotations


class ClobbermaniaError(Exception):
    """Base class of every error clobbermania raises on bad input."""


class NotationError(ClobbermaniaError, ValueError):
    """Text that does not follow the notation (a board, a square, a move)."""


class BoardError(ClobbermaniaError, ValueError):
    """A board or graph that cannot be built (bad size, bad graph spec, bad edge list)."""


class IllegalMoveError(ClobbermaniaError, ValueError):
    """A move that the rules do not allow in the position it is played in."""


class UnsupportedError(ClobbermaniaError, ValueError):
    """An input outside what an algorithm supports (for example too many squares)."""
