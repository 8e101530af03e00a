"""Leak test of the period-4 survivors (README section 7).

    .venv/bin/python research/clickomania_lock_leaks/leak_check.py survivors.json

``survivors.json`` is what ``global_check.py 4 0 survivors.json`` writes. For each
survivor (key and gate inserts that do not unzip at the matching shift) build two-pair
boards: L holds an optional item (a run of P blocks of one colour, so removing it slides L
one lattice step), key 1 and key 2; R holds gate 1, level with key 1 once the item is gone,
and gate 2, ``o`` rows below where key 2 would then need it. Every offset o is a multiple
of P (so every residue the lattice sees is the matching one); o = 0 is the honest match,
and with the item present o = -P is also honest (key 2 meets gate 2 before the item goes).
A breadth-first search over every click sequence (the tagged engine of check.py) asks:
is some block of key 2 ever removed? Honest boards must say yes, the others no.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time
from collections import Counter, deque

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check import click, groups, path_to, replay_reference  # noqa: E402


class Builder:
    """A column built bottom up over a periodic background, tracking its phase."""

    def __init__(self, bg):
        self.bg, self.P, self.phase, self.blocks = tuple(bg), len(bg), 0, []

    def letters(self, n: int, tag: str = "b") -> None:
        for _ in range(n):
            self.blocks.append((self.bg[self.phase], tag))
            self.phase = (self.phase + 1) % self.P

    def to_phase(self, target: int, at_least: int) -> None:
        """Letters until at least ``at_least`` are laid and the phase is ``target``."""
        n = at_least
        while (self.phase + n - target) % self.P:
            n += 1
        self.letters(n)

    def insert(self, word, resume: int, tag: str) -> None:
        assert self.phase == 0
        self.blocks.extend((c, tag) for c in word)
        self.phase = resume


def two_pair_board(cand, offset: int, item: bool, gap: int = 10, margin: int = 6):
    bL, bR, r, k, jL, g, jR, ts = cand
    P = len(bL)
    L = Builder(bL)
    L.to_phase(0, margin)
    if item:
        colour = next(c for c in range(3) if c not in (bL[-1], bL[0]))
        L.insert([colour] * P, 0, "item")
    L.to_phase(0, P)
    hk1 = len(L.blocks) - (P if item else 0)  # key 1's bottom once the item is gone
    L.insert(k, jL, "k1")
    L.to_phase(0, gap)
    hk2 = len(L.blocks) - (P if item else 0)
    L.insert(k, jL, "k2")
    L.letters(margin)
    R = Builder(bR)
    hg1 = hk1 - ts
    if hg1 < 2:
        return None
    R.phase = (-hg1) % P
    R.letters(hg1)
    R.insert(g, jR, "g1")
    hg2 = hk2 - ts - offset
    n = hg2 - len(R.blocks)
    if n < 2 or (R.phase + n) % P:
        return None
    R.letters(n)
    R.insert(g, jR, "g2")
    R.letters(max(margin, len(L.blocks) - len(R.blocks)))
    return tuple(L.blocks), tuple(R.blocks)


def key2_events(start, limit: int = 100_000):
    """How key 2 can go: the set of 'intact' / 'touched' (the state of key 1 at the click
    that first takes a block of key 2) over every reachable board, with one witness path
    per kind; 'limit' if the search is cut."""
    parent = {start: None}
    queue = deque([start])
    k1 = sum(b[1] == "k1" for col in start for b in col)
    found = {}
    while queue:
        s = queue.popleft()
        for comp in groups(s):
            if any(s[c][y][1] == "k2" for c, y in comp):
                kind = ("intact" if sum(b[1] == "k1" for col in s for b in col) == k1
                        else "touched")
                if kind not in found:
                    found[kind] = path_to(parent, s, comp)
                continue
            nxt = click(s, comp)
            if nxt not in parent:
                parent[nxt] = (s, comp)
                queue.append(nxt)
                if len(parent) > limit:
                    return "limit"
    return found


def classify(cand):
    """'untestable', 'undecided', 'false match' (key 2 goes at a wrong offset with key 1
    intact), 'shift' (wrong-offset matches only after key 1 was touched), 'dead' (an
    honest board where key 2 never goes) or 'clean'; with the offsets that leaked."""
    P = len(cand[0])
    tested, kinds, leaks = 0, set(), []
    for item in (False, True):
        for o in range(-3 * P, 3 * P + 1, P):
            board = two_pair_board(cand, o, item)
            if board is None:
                continue
            tested += 1
            found = key2_events(board)
            if found == "limit":
                kinds.add("undecided")
                continue
            for path in found.values():
                replay_reference(board, path)
            honest = o == 0 or (item and o == -P)
            if honest and not found:
                kinds.add("dead")
            if not honest and found:
                kinds.add("false match" if "intact" in found else "shift")
                leaks.append((item, o, sorted(found)))
    if tested == 0:
        return "untestable", leaks
    for verdict in ("false match", "undecided", "dead", "shift"):
        if verdict in kinds:
            return verdict, leaks
    return "clean", leaks


def main() -> None:
    survivors = json.loads(pathlib.Path(sys.argv[1]).read_text())
    t0 = time.time()
    tally = Counter()
    for cand, _ in survivors:
        cand = tuple(tuple(x) if isinstance(x, list) else x for x in cand)
        verdict, leaks = classify(cand)
        tally[verdict] += 1
        if verdict not in ("untestable", "false match"):
            offs = sorted({(int(i), o) for i, o, _ in leaks})
            print(f"  {verdict}: bL {cand[0]} bR {cand[1]} key {cand[3]} (resume {cand[4]}) "
                  f"gate {cand[5]} (resume {cand[6]}) t* {cand[7]}; "
                  f"leaks at (item, o) {offs}", flush=True)
    print(dict(tally), f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
