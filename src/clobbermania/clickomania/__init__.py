"""Clickomania and SameGame: blocks that fall (Biedl et al., *The Complexity of Clickomania*).

``rules`` holds the reference rules (:class:`~clobbermania.clickomania.rules.Board`, clicks,
gravity, column closing, scores, undo); ``_kernels`` the numba click that every search uses.
The algorithms: ``column`` (one column or row: the grammar DP of Theorem 2 and the
two-colour method of Theorems 10 and 12), ``solver`` (exact search of small boards),
``samegame`` (scored play), ``hardness`` (the NP-hardness constructions) and ``twoplayer``
(the impartial and partizan two-player games of section 5).

>>> from clobbermania.clickomania import Board, solve_clickomania, solve_column
>>> solve_column("1221331").solvable
True
>>> r = solve_clickomania(Board.from_string("1122/2211"))
>>> r.solvable, r.moves
(True, ('a2', 'a2', 'a2'))
"""

from .column import ColumnResult, solve_column
from .rules import CLEAR_BONUS, Board, Game, Group, group_score, replay, score_sequence
from .samegame import SameGameResult, play_samegame
from .solver import ClickResult, solve_clickomania
from .twoplayer import grundy_value, partizan_value

__all__ = ["Board", "Game", "Group", "replay", "score_sequence", "group_score", "CLEAR_BONUS",
           "solve_column", "ColumnResult", "solve_clickomania", "ClickResult",
           "play_samegame", "SameGameResult", "grundy_value", "partizan_value"]
