"""Reproducible claims: each paper's results re-derived by our own solvers.

A *claim group* is a function yielding :class:`Claim` objects, registered under a name
with :func:`register`. ``clobbermania reproduce NAME`` runs one group, ``clobbermania
reproduce`` runs them all. Later capabilities add their groups by importing a module
here.

>>> claims = list(run_claims("solitaire"))[:1]
>>> claims[0].name, claims[0].passed
('Table 1: A_1, black first', True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Claim:
    """One checked statement: what the paper says, what we found, and whether they agree."""

    name: str
    expected: Any
    found: Any
    passed: bool
    detail: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {"name": self.name, "expected": self.expected, "found": self.found,
                "pass": self.passed, "detail": self.detail, "seconds": round(self.seconds, 4)}


REGISTRY: dict[str, Callable[[], Iterator[Claim]]] = {}


def register(name: str) -> Callable[[Callable[[], Iterator[Claim]]], Callable[[], Iterator[Claim]]]:
    """Register a claim group under ``name``."""
    def deco(fn: Callable[[], Iterator[Claim]]) -> Callable[[], Iterator[Claim]]:
        REGISTRY[name] = fn
        return fn
    return deco


def run_claims(name: str) -> Iterator[Claim]:
    """Run the claim group ``name``, yielding each claim as it is checked."""
    yield from REGISTRY[name]()


# the claim groups (import registers them)
from . import solitaire  # noqa: E402, F401
from .hamming import hamming_claims  # noqa: E402, F401
# -- anchor: reproduce hamming --
from .grundy import grundy_claims  # noqa: E402, F401
# -- anchor: reproduce grundy --
