"""Game-agnostic combinatorial game theory: short partizan games in canonical form.

* :mod:`.game` -- :class:`Game` (hash-consed canonical forms, equal games are one object),
  built with :meth:`Game.from_options`; sum, negation, comparison (``<= >= < > ==``,
  :meth:`Game.compare` giving ``< > = ||``), outcome class, stops; the special forms
  number + up multiple + nimber (:func:`number`, :func:`nimber`, :func:`nus`), of any
  size, kept as tags past small sizes; :func:`time_limit` and the caps of docs/limits.md.
* :mod:`.notation` -- CGSuite syntax: :func:`parse` and printing (``str(game)``).
* :mod:`.thermograph` -- thermographs, mean and temperature.
* :mod:`.infinitesimals` -- all-small games, atomic weight, reduced canonical form.

>>> from clobbermania.cgt import parse, UP, DOWN, STAR
>>> UP + DOWN == 0, parse("{0|^}") is UP + UP + STAR, str(parse("{1|0}") + parse("{1|0}"))
(True, True, '1')
"""

from .game import (
    DOWN,
    ONE,
    STAR,
    UP,
    ZERO,
    Game,
    TimeLimitReached,
    clear_caches,
    nimber,
    number,
    nus,
    table_size,
    time_limit,
)
from .infinitesimals import atomic_weight, is_all_small, reduced_canonical_form
from .notation import format_game, parse
from .thermograph import Thermograph, Trajectory, mean, temperature, thermograph

__all__ = ["Game", "number", "nimber", "nus", "table_size", "clear_caches", "time_limit",
           "TimeLimitReached", "ZERO", "ONE",
           "STAR", "UP",
           "DOWN", "parse", "format_game", "thermograph", "temperature", "mean",
           "Thermograph", "Trajectory", "atomic_weight", "is_all_small",
           "reduced_canonical_form"]
