"""Small exhaustive checks of the gadget ideas of README.md (BFS over all reachable states).

Run (the .venv of make test):
    .venv/bin/python research/clickomania_five_columns_b/gadget_checks.py
Colours: A = 1, B = 2, C = 3 (keys and gates); columns bottom to top.
"""
from __future__ import annotations

import itertools
import random

from clobbermania.clickomania.rules import Board

A, B, C = 1, 2, 3


def board(cols):
    return Board.from_columns(cols, max(len(c) for c in cols))


def find(b, goal, limit=50000):
    """True if a state satisfying goal is reachable, False if not, None past the limit."""
    seen = {b}
    todo = [b]
    while todo:
        x = todo.pop()
        if goal(x):
            return True
        for mv in x.moves():
            y = x.click(mv)
            if y not in seen:
                seen.add(y)
                todo.append(y)
                if len(seen) > limit:
                    return None
    return False


def count(b, colour, col=None):
    cols = b.columns if col is None else b.columns[col:col + 1]
    return sum(x == colour for cc in cols for x in cc)


def alternating(n, first):
    return [first if i % 2 == 0 else 3 - first for i in range(n)]


# --- Lemma A: a group holding two blocks of one column holds a vertical pair ----------
def lemma_a(trials=3000, seed=1):
    rng = random.Random(seed)
    bad = 0
    for _ in range(trials):
        w, h = rng.randint(2, 5), rng.randint(2, 7)
        cols = [[rng.randint(1, 3) for _ in range(rng.randint(1, h))] for _ in range(w)]
        b = board(cols)
        for g in b.groups():
            bycol = {}
            for (r, c) in g.squares:
                bycol.setdefault(c, []).append(r)
            multi = any(len(v) > 1 for v in bycol.values())
            vert = any(r + 1 in v for v in map(set, bycol.values()) for r in v)
            if multi and not vert:
                bad += 1
    return bad


def main():
    print("Lemma A counterexamples on random boards:", lemma_a())
    # --- Experiment 1: the brief's double key C B C B inserted into L, no gate at all --------
    # L: item C C at the bottom, then alternating letters with the insert; R anti-phase letters.
    for name, ins in (("C B C B", [C, B, C, B]), ("C A C A", [C, A, C, A]),
                      ("C A C (replacement pair)", None)):
        n = 10
        word = alternating(n, A)  # A B A B ...
        if ins is None:
            # replace the letters at positions 4 and 6 (both A) by C: ... B C B C B ...
            body = list(word)
            body[4] = C
            body[6] = C
        else:
            body = word[:5] + ins + word[5:]
        left = [C, C] + body
        right = alternating(len(left), B)  # anti-phase with L's regular letters (even shift)
        b = board([left, right])
        keyless = find(b, lambda s: count(s, C, 0) == 0, limit=200000)
        print(f"double key {name!r}, no gate anywhere: "
              f"L's C's all removable without a gate: {keyless}")
        print("   board:", b.text())


# --- Experiment 2: every short key insert in a parity-locked pair of columns -------------
def key_inserts(max_len=4):
    for n in range(1, max_len + 1):
        for w in itertools.product((A, B, C), repeat=n):
            if C not in w or any(w[i] == w[i + 1] for i in range(n - 1)):
                continue
            yield list(w)


def leak_table(n_letters=12, lattice=((C, C), (C, C))):
    """For each insert (and insertion point): can L lose all its C's with no gate in R?"""
    locks = []
    leaks = 0
    for ins in key_inserts():
        for pos in range(2, n_letters - 2):
            word = alternating(n_letters, A)
            body = word[:pos] + ins + word[pos:]
            if any(body[i] == body[i + 1] for i in range(len(body) - 1)):
                continue
            left = []
            for k, item in enumerate(lattice):
                if k:
                    left.append(A if k % 2 else B)
                left.extend(item)
            left.append(B if len(lattice) % 2 else A)
            first = left[-1]
            # L's regular letters continue the alternation of the lattice separators
            body = [(x if x == C else (x if first == B else 3 - x)) for x in body]
            left.extend(body)
            # R: anti-phase to L's regular letters at shift 0 (items are even: shifts even)
            rfirst = 3 - (body[0] if body[0] != C else 3 - body[1])
            rstart = len(left) - len(body)
            right = [0] * len(left)
            for h in range(len(left)):
                right[h] = rfirst if (h - rstart) % 2 == 0 else 3 - rfirst
            b = board([left, right])
            leak = find(b, lambda s: len(s.columns) == 2 and count(s, C, 0) == 0)
            if leak is None:
                continue  # undecided within the limit (not counted)
            if leak:
                leaks += 1
            else:
                locks.append((ins, pos, b.text()))
    return leaks, locks


def experiment_2():
    for lat in (((C, C),), ((C, C, C, C),), ((C, C), (C, C))):
        leaks, locks = leak_table(lattice=lat)
        print("lattice", lat)
        print("  experiment 2: inserts that leak (L's keys all go with no gate):", leaks,
              "; that hold:", len(locks))
        held = sorted({"".join("ABC"[x - 1] for x in ins) for ins, _pos, _t in locks})
        print("   inserts that hold at some position:", held)


if __name__ == "__main__":
    main()
    experiment_2()
