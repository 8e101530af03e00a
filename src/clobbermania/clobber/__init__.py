"""Clobber played by two: impartial Clobber (Grundy values, the row database, families,
a computer opponent) and, later, partizan Clobber values.

Moves come from the one move generator of :mod:`clobbermania.stones`
(``Position.moves(color)``); impartial Clobber lets the player to move use either colour.
"""
