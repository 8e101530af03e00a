"""A small, fast two-colour Clickomania engine for exhaustive gadget searches.

States are tuples of columns (each a tuple of colours 1/2, bottom to top).  ``click``
follows the reference rules of ``clobbermania.clickomania.rules`` (checked against them
by ``check_against_reference``).  ``solvable`` is an exhaustive, memoised search.
"""
from __future__ import annotations

import random
import sys
from functools import cache

from clobbermania.clickomania.rules import Board

A, B = 1, 2
sys.setrecursionlimit(100000)


def groups(state):
    """All maximal groups of size >= 2, as frozensets of (c, h)."""
    seen = set()
    out = []
    for c, col in enumerate(state):
        for h in range(len(col)):
            if (c, h) in seen:
                continue
            colour = col[h]
            comp = {(c, h)}
            stack = [(c, h)]
            while stack:
                cc, hh = stack.pop()
                for c2, h2 in ((cc - 1, hh), (cc + 1, hh), (cc, hh - 1), (cc, hh + 1)):
                    if (0 <= c2 < len(state) and 0 <= h2 < len(state[c2])
                            and (c2, h2) not in comp and state[c2][h2] == colour):
                        comp.add((c2, h2))
                        stack.append((c2, h2))
            seen |= comp
            if len(comp) >= 2:
                out.append(frozenset(comp))
    return out


def click(state, group):
    cols = [tuple(x for h, x in enumerate(col) if (c, h) not in group)
            for c, col in enumerate(state)]
    return tuple(col for col in cols if col)


def canon(state):
    """Colour swap is a symmetry: make the bottom-left block colour 1."""
    if state and state[0][0] == B:
        return tuple(tuple(3 - x for x in col) for col in state)
    return state


@cache
def solvable(state):
    if not state:
        return True
    for g in groups(state):
        if solvable(canon(click(state, g))):
            return True
    return False


def witness(state):
    """A clearing sequence of groups (list of frozensets), or None."""
    seq = []
    while state:
        for g in groups(state):
            nxt = canon(click(state, g))
            if solvable(nxt):
                seq.append((state, g))
                state = nxt
                break
        else:
            return None
    return seq


def reachable(state, limit=200000):
    """All states reachable from ``state`` (canonical), up to ``limit``."""
    start = canon(state)
    seen = {start}
    stack = [start]
    while stack:
        s = stack.pop()
        for g in groups(s):
            t = canon(click(s, g))
            if t not in seen:
                seen.add(t)
                if len(seen) > limit:
                    raise RuntimeError("state limit")
                stack.append(t)
    return seen


def to_board(state):
    h = max((len(c) for c in state), default=1)
    return Board.from_columns(state, max(h, 1))


def show(state):
    if not state:
        return "(empty)"
    return to_board(state).text()


def check_against_reference(n=300, seed=1):
    """Random boards: every click of this engine equals the reference click."""
    rng = random.Random(seed)
    ok = 0
    for _ in range(n):
        w = rng.randint(1, 4)
        st = tuple(tuple(rng.choice((A, B)) for _ in range(rng.randint(1, 7)))
                   for _ in range(w))
        b = to_board(st)
        gs = groups(st)
        assert len(gs) == len(b.moves())
        for g in gs:
            c, h = min(g)
            ref = b.click((b.height - 1 - h, c))
            mine = click(st, g)
            assert ref.columns == mine, (st, g)
            ok += 1
    return ok


# -- the row-type (spin) encoding of a two-column board ---------------------------------
#: row type -> (spin of L, spin of R); the spin is [colour = A] xor ((c + h) mod 2).
ROW = {"a": (0, 0), "b": (1, 1), "x": (0, 1), "y": (1, 0)}


def colour(spin_value, c, h):
    return A if spin_value ^ ((c + h) & 1) else B


def from_rows(word, tail_l="", tail_r=""):
    """Two columns from a word of row types (bottom first), plus optional spin tails
    ("0"/"1" characters) stacked on L or R alone."""
    cols = [[], []]
    for h, ch in enumerate(word):
        for c in (0, 1):
            cols[c].append(colour(ROW[ch][c], c, h))
    for c, tail in ((0, tail_l), (1, tail_r)):
        for ch in tail:
            cols[c].append(colour(int(ch), c, len(cols[c])))
    return canon(tuple(tuple(col) for col in cols if col))
