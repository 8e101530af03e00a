"""Checks for the notes in README.md (this folder): two-colour, two-column dynamics.

Run:  .venv/bin/python research/clickomania_two_colour_dynamics/experiments.py
Colours 1 (A) and 2 (B); columns bottom to top.  A two-column board is written as a word
of row types over a=(0,0), b=(1,1), x=(0,1), y=(1,0): the spins (L, R) of that row,
spin = [colour = A] xor ((column + height) mod 2); see engine.from_rows.
"""
from __future__ import annotations

import itertools
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engine import (  # noqa: E402
    ROW,
    canon,
    check_against_reference,
    click,
    from_rows,
    groups,
    solvable,
    to_board,
)

from clobbermania.clickomania.solver import solve_clickomania  # noqa: E402


def c0_reference():
    """The search engine's clicks equal the reference rules' clicks."""
    n = check_against_reference(400)
    # and the memoised search agrees with the library's exact solver on small boards
    agree = 0
    words = ["axb", "aaxbb", "aaxb", "axbbbb", "aaxxa", "abxy", "aayyb", "axbya"]
    for w in words:
        s = from_rows(w)
        r = solve_clickomania(to_board(s), time_limit=20)
        assert r.exact and r.solvable == solvable(s), w
        agree += 1
    print(f"C0 engine = reference rules on {n} random clicks; solver agrees on {agree} boards")


def c1_census(max_h=7):
    """How many equal-height two-column boards (row words, up to colour swap) clear."""
    out = []
    for n in range(1, max_h + 1):
        tot = sol = 0
        for w in itertools.product("abxy", repeat=n):
            if w[0] not in "ax":  # colour swap maps b->a, y->x
                continue
            tot += 1
            sol += solvable(from_rows("".join(w)))
        out.append((n, sol, tot))
    print("C1 census (height, solvable, boards):", out)
    assert out[:4] == [(1, 1, 2), (2, 3, 8), (3, 19, 32), (4, 87, 128)]


def c2_fold():
    """The Z is a forced symmetric fold: a^n x b^m -> a^(n-1) x b^(m-1) is the only click
    (n, m >= 2), and a^n x b^m clears iff m == n or m >= n + 3."""
    for n in range(1, 10):
        for m in range(1, 10):
            s = from_rows("a" * n + "x" + "b" * m)
            gs = groups(s)
            assert len(gs) == 1 and len(gs[0]) == 4
            if n > 1 and m > 1:
                assert canon(click(s, gs[0])) == from_rows("a" * (n - 1) + "x" + "b" * (m - 1))
    # the two one-parameter families the forced play reduces to
    fam1 = [j for j in range(0, 31) if solvable(from_rows("a" + "x" + "b" * j))]
    fam2 = [j for j in range(1, 31) if solvable(from_rows("a" * j + "x" + "b"))]
    assert fam1 == [1] + list(range(4, 31)) and fam2 == [1], (fam1, fam2)
    table = []
    for n in range(1, 8):
        row = [m for m in range(0, 13) if solvable(from_rows("a" * n + "x" + "b" * m))]
        assert row == [n] + list(range(n + 3, 13)), (n, row)
        table.append(row)
    print("C2 fold: forced (n, m <= 9); a x b^j clears iff j = 1 or j >= 4 (j <= 30);"
          " a^j x b iff j = 1 (j <= 30); table n <= 7, m <= 12 matches m = n or m >= n + 3")


def c3_burning_caps(max_len=7, M=16):
    """A tall quiet cap (equal column heights) over ANY row word clears: for every W,
    W + x + b^m is solvable for all m >= len(W) + 5 (len(W) <= max_len, m <= M)."""
    excess = Counter()
    for n in range(1, max_len + 1):
        for w in itertools.product("abxy", repeat=n - 1):
            W = "a" + "".join(w)
            S = {m for m in range(M + 1) if solvable(from_rows(W + "x" + "b" * m))}
            m0 = M
            while m0 - 1 in S:
                m0 -= 1
            assert M - 1 in S and m0 <= len(W) + 5, W
            excess[m0 - len(W)] += 1
    print(f"C3 burning caps: all {sum(excess.values())} words W (len <= {max_len}) clear with"
          f" a quiet cap of m >= len(W)+5; threshold-len(W) histogram {sorted(excess.items())}")


def c4_rigid_tails(max_len=7, margin=8):
    """A one-column tail (L continued alone, alternating) is rigid: the set S(W) of tail
    lengths t with which W clears is bounded, max S(W) <= len(W) + 5 (t is tried up to
    len(W) + 5 + margin, so at least `margin` longer tails fail after the last success)."""
    sizes = Counter()
    worst = 0
    two = []
    for n in range(1, max_len + 1):
        for w in itertools.product("abxy", repeat=n - 1):
            W = "a" + "".join(w)
            spin_l = str(ROW[W[-1]][0])
            S = [t for t in range(len(W) + 6 + margin)
                 if solvable(from_rows(W, spin_l * t))]
            if S:
                worst = max(worst, max(S) - len(W))
            sizes[len(S)] += 1
            if len(S) == 2 and len(W) <= 5:
                two.append((W, tuple(S)))
    assert worst <= 5
    print(f"C4 rigid tails: words up to length {max_len}: |S(W)| histogram "
          f"{sorted(sizes.items())}; max(S) - len(W) <= {worst}")
    print("   two-route examples (W, S):", two[:10])


def c5_band(max_h=16):
    """A lone wall at the bottom of L under a quiet pair of columns (a band to the top)
    always clears; so does a band of width w under a quiet cap for every w, cap."""
    ok = 0
    assert not solvable(from_rows("ay"))  # the one exception: a band of one row
    for h in range(2, max_h):
        assert solvable(from_rows("a" + "y" * h))  # L wall at (0,1): rows >= 1 contacts
        ok += 1
    caps = {}
    for w in range(1, 6):
        # a band of w contact rows over a quiet base a^3, under a quiet cap b^cap
        caps[w] = [c for c in range(12) if solvable(from_rows("aaa" + "y" * w + "b" * c))]
        assert all(c in caps[w] for c in range(6, 12))
    print(f"C5 lone bottom wall (band to top) clears for heights 3..{max_h} (not 2): {ok} boards;"
          f" band a^3 y^w b^cap clears for cap in {caps}")


def c6_two_folds_and_examples():
    """Two folds a^p x b^q x a^r (1 <= q < p <= 5): the least r that clears is p - q + 1,
    r = p - q + 2 fails, and every r from p - q + 3 to 11 clears (burning); and two
    two-route tail words of C4 read from the README."""
    for p in range(2, 6):
        for q in range(1, p):
            word = "a" * p + "x" + "b" * q + "x"
            S = [r for r in range(12) if solvable(from_rows(word + "a" * r))]
            d = p - q
            assert S == [d + 1] + list(range(d + 3, 12)), (p, q, S)
    for W, want in (("aaaba", [3, 5]), ("aaxaba", [2, 6])):
        spin_l = str(ROW[W[-1]][0])
        assert [t for t in range(20) if solvable(from_rows(W, spin_l * t))] == want
    print("C6 two folds: least clearing r = p - q + 1 (1 <= q < p <= 5), then burning from"
          " r = p - q + 3; tails: aaaba -> {3, 5}, aaxaba -> {2, 6}")


def main():
    t = time.process_time()
    c0_reference()
    c1_census()
    c2_fold()
    c3_burning_caps()
    c4_rigid_tails()
    c5_band()
    c6_two_folds_and_examples()
    print(f"done in {time.process_time() - t:.1f} s CPU")


if __name__ == "__main__":
    main()
