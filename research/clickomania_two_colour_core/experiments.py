"""Checks for the two-colour notes in README.md (this folder).

Run:  .venv/bin/python research/clickomania_two_colour_core/experiments.py  (the .venv of make test)
Colours 1 (A) and 2 (B). Columns bottom to top.
"""
from __future__ import annotations

import itertools
import time

from clobbermania.clickomania.rules import Board
from clobbermania.clickomania.solver import solve_clickomania

A, B = 1, 2


def spin(board: Board):
    """s(c, h) = [colour is A] xor ((c + h) mod 2)."""
    return [[(x == A) ^ ((c + h) & 1) for h, x in enumerate(col)]
            for c, col in enumerate(board.columns)]


def e1_frozen(max_h=4, max_w=3):
    """Lemma 1: no legal click <=> spin constant on the whole board."""
    n = agree = frozen = 0
    for w in range(1, max_w + 1):
        for heights in itertools.product(range(1, max_h + 1), repeat=w):
            cells = sum(heights)
            for bits in range(1 << cells):
                cols, k = [], 0
                for h in heights:
                    cols.append([A if (bits >> (k + i)) & 1 else B for i in range(h)])
                    k += h
                b = Board.from_columns(cols, max_h)
                s = {x for col in spin(b) for x in col}
                dead = not b.moves()
                n += 1
                frozen += dead
                agree += dead == (len(s) == 1)
    print(f"E1 frozen lemma: {agree}/{n} boards agree ({frozen} without a legal click)")
    assert agree == n


def e2_every_defect_clickable():
    """Corollary: a checkerboard with ONE block recoloured always has a legal click that
    contains the recoloured block (no inert key/gate in two colours)."""
    n = ok = 0
    for w in (1, 2, 3, 4):
        for h in range(2, 9):
            for c0 in range(w):
                for h0 in range(h):
                    cols = [[A if (c + i) % 2 == 0 else B for i in range(h)] for c in range(w)]
                    cols[c0][h0] = A + B - cols[c0][h0]
                    b = Board.from_columns(cols, h)
                    g = b.group_at((h - 1 - h0, c0))
                    n += 1
                    ok += g.size >= 2
    print(f"E2 single recoloured block is always clickable: {ok}/{n}")
    assert ok == n


def alt(start, length):
    return [start if i % 2 == 0 else A + B - start for i in range(length)]


def walled(start, length, walls):
    """An alternating column with domain walls: colour(i) == colour(i - 1) iff i in walls."""
    col = [start]
    for i in range(1, length):
        col.append(col[-1] if i in walls else A + B - col[-1])
    return col


def e3_walls():
    """A lone domain wall in L (a vertical domino) beside an alternating R makes every
    row above it a contact; a staggered pair (L wall at h, R wall at h - 1) keeps the
    rows above and below anti-phase and is one Z-shaped group of four."""
    h = 12
    L = alt(A, 6) + alt(B, 6)            # wall between heights 5 and 6 (B B)
    R = alt(B, h)
    b = Board.from_columns([L, R], h)
    contacts = [i for i in range(h) if L[i] == R[i]]
    print("E3 lone wall: contact rows", contacts)
    r = solve_clickomania(b, time_limit=20)
    print("   lone wall board solvable:", r.solvable, "moves", len(r.moves))
    L = walled(A, h, {6})                # L[5] = L[6]
    R = walled(B, h, {5})                # R[4] = R[5]
    b = Board.from_columns([L, R], h)
    contacts = [i for i in range(h) if L[i] == R[i]]
    groups = [(g.color, g.size) for g in b.groups() if g.size >= 2]
    print("E3 staggered pair: contact rows", contacts, "clickable groups", groups)
    seq, cur = [], b
    while cur.moves():
        mv = cur.moves()[0]
        g = cur.group_at(mv)
        seq.append(g.size)
        cur = cur.click(mv)
    print("   clicking the only group repeatedly removes", seq, "blocks; left",
          cur.n_blocks, "in columns of heights", [len(c) for c in cur.columns])


def e4_base_lattice():
    """Lemma 3 (base): L = items B^k separated by single A's, then an alternating word;
    R = a run of A at least as tall as L's part that faces it.  While the base exists,
    the legal clicks are the items (each alone) and the base group."""
    n = ok = 0
    for sizes in itertools.product((2, 3, 4), repeat=3):
        L = []
        for s in sizes:
            if L:
                L.append(A)
            L += [B] * s
        L += [A] + alt(B, 5)
        H = len(L) + 2
        R = [A] * H
        b = Board.from_columns([L, R], H)
        gs = [g for g in b.groups() if g.size >= 2]
        items = [g for g in gs if g.color == B]
        base = [g for g in gs if g.color == A]
        n += 1
        ok += (len(items) == 3 and len(base) == 1
               and sorted(g.size for g in items) == sorted(sizes))
    print(f"E4 base + lattice: clicks are exactly the items and the base in {ok}/{n}")
    assert ok == n


def e5_wall_pairs(h=14):
    """An L wall at y and an R wall at z < y (an in-phase band of width y - z between
    them): which dead ends are reachable?  Matched (y = z + 1, the Z) and mismatched
    pairs both clear two 14-high columns completely in most cases: a wall pair is no
    lock."""
    from collections import deque
    rows = []
    for z, y in ((3, 4), (3, 5), (3, 7), (3, 10), (5, 6), (5, 9)):
        b = Board.from_columns([walled(A, h, {y}), walled(B, h, {z})], h)
        seen, dq, dead = {b}, deque([b]), set()
        while dq:
            x = dq.popleft()
            mv = x.moves()
            if not mv:
                dead.add(tuple(len(c) for c in x.columns))
            for m in mv:
                nb = x.click(m)
                if nb not in seen:
                    seen.add(nb)
                    dq.append(nb)
        rows.append((z, y, () in dead, len(seen)))
        print(f"E5 R wall z={z}, L wall y={y} (band {y - z}): clearable={() in dead}, "
              f"{len(seen)} positions")
    return rows


if __name__ == "__main__":
    t = time.process_time()
    e1_frozen()
    e2_every_defect_clickable()
    e3_walls()
    e4_base_lattice()
    e5_wall_pairs()
    print(f"CPU {time.process_time() - t:.1f} s")
