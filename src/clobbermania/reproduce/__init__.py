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
    """One checked statement: what the paper says, what we found, and whether they agree.

    ``status`` is ``"pass"`` or ``"fail"`` (from ``passed``) unless set: ``"differs"``
    when our computation, itself checked independently, contradicts the published figure
    (the paper is then the suspect: not a failure of ours), ``"report"`` when there is
    nothing published to compare with and the claim only reports what we find.
    """

    name: str
    expected: Any
    found: Any
    passed: bool
    detail: str = ""
    seconds: float = 0.0
    status: str = ""

    def __post_init__(self) -> None:
        if not self.status:
            object.__setattr__(self, "status", "pass" if self.passed else "fail")
        elif self.status not in ("pass", "fail", "differs", "report"):
            raise ValueError(f"unknown claim status {self.status!r}")

    @property
    def failed(self) -> bool:
        """A real failure: our computation disagrees with what it should reproduce."""
        return self.status == "fail"

    def to_dict(self) -> dict:
        return {"name": self.name, "expected": self.expected, "found": self.found,
                "pass": self.passed, "status": self.status, "detail": self.detail,
                "seconds": round(self.seconds, 4)}


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
from . import solitaire  # noqa: E402, F401, I001
from .hamming import hamming_claims  # noqa: E402, F401
# -- anchor: reproduce hamming --
from .grundy import grundy_claims  # noqa: E402, F401
# -- anchor: reproduce grundy --
from .clobber import clobber_claims  # noqa: E402, F401, I001
# -- anchor: reproduce clobber --
from .clickomania import clickomania_claims  # noqa: E402, F401, I001
# -- anchor: reproduce clickomania --
