"""Clickomania and SameGame: blocks that fall (Biedl et al., *The Complexity of Clickomania*).

``rules`` holds the reference rules (:class:`~clobbermania.clickomania.rules.Board`, clicks,
gravity, column closing, scores, undo); ``_kernels`` the numba click that every search uses.
"""

from .rules import CLEAR_BONUS, Board, Game, Group, group_score, replay, score_sequence

__all__ = ["Board", "Game", "Group", "replay", "score_sequence", "group_score", "CLEAR_BONUS"]
