"""Solitaire Clobber and SC2: reference rules, theory, and the exact solver."""

from .rules import ReplayResult, legal_moves, play, replay
from .solver import SolitaireResult, solve
from .theory import checkerboard_value, clashing_stones, delta, one_d_value

__all__ = ["ReplayResult", "legal_moves", "play", "replay", "SolitaireResult", "solve",
           "checkerboard_value", "clashing_stones", "delta", "one_d_value"]
