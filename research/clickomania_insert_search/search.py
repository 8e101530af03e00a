"""Exhaustive key/gate insert search for two sliding columns (README.md of this folder).

Run: .venv/bin/python research/clickomania_insert_search/search.py   (a few minutes, 1 core)

Colours 0, 1, 2; columns bottom to top. L (keys) slides down past R (gates).

Search space, for each period P in PERIODS:
* backgrounds bL, bR: cyclic words of length P over {0, 1, 2} with no two equal cyclic
  neighbours (so every word of smaller period dividing P is included); bR is normalised
  by the colour symmetry (bR[0] = 0, bR[1] = 1), bL ranges over all of them;
* a key: L(y) = bL[y mod P] for y < 0, the insert key[0..a) on rows 0..a-1, then
  bL resumed at any phase jL above (L(a + i) = bL[(jL + i) mod P]); a in 0..6 (a = 0
  is a pure deletion, jL != 0). The phase below is 0 without loss of generality (bL runs
  over all rotations); the insert is trimmed (its first letter is not bL[0], its last not
  bL[jL - 1]), so each column is counted once. A gate is the same in R (b, gate, jR);
* the lattice: L row y faces R row y + t, t in S = r + P*Z (variant 1: one residue class,
  all shifts that are multiples of P apart) or S = Z (variant 2).

Conditions (README): (a) exactly one t in S has a facing pair of one colour (the
*matching* shift t*), every other t in S is quiet; the columns are words (no equal
vertical neighbours, junctions included); (b) at t* some click sequence ends in a dead
board with both columns pure backgrounds (A_weak), and with the same number of blocks
removed from each column modulo P (A_strict); (B) the band variant: some click sequence
removes at least one key block and one gate block and ends in a board that is dead at t*
and quiet at every later shift t* - kP, k >= 1 (L slides on); (c) leaks: a dead end,
quiet at every later shift, in which key blocks went but no gate block (or the reverse).

Stage 1 enumerates (a) through a decomposition into far-field, key-against-background,
gate-against-background and key-against-gate conditions, and re-checks every survivor
directly on the bi-infinite columns. Stage 2 runs a breadth-first search over every click
sequence at t* on a finite window (margins of MARGIN(P) = 3P + 6 background rows above and
below the inserts) with a small two-column engine, checked first against the reference
rules (clobbermania.clickomania.rules.Board) on random boards.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from collections import Counter

from clobbermania.clickomania.rules import Board

PERIODS = (2, 3, 4, 6)
MAX_INSERT = 6


# -- words ----------------------------------------------------------------------------
def cyclic_words(P: int) -> list[tuple[int, ...]]:
    """Words of length P with no two equal cyclic neighbours (periodic backgrounds)."""
    return [w for w in itertools.product(range(3), repeat=P)
            if all(w[i] != w[(i + 1) % P] for i in range(P))]


def words(n: int):
    """All words of length n over {0, 1, 2} with no two equal neighbours."""
    if n == 0:
        yield ()
        return
    for first in range(3):
        for steps in itertools.product((1, 2), repeat=n - 1):
            w = [first]
            for s in steps:
                w.append((w[-1] + s) % 3)
            yield tuple(w)


def quiet_offsets(bL, bR, P: int) -> set[int]:
    """Offsets d (mod P) with bL[y] != bR[y + d] for every y: quiet background pairs."""
    return {d for d in range(P) if all(bL[y] != bR[(y + d) % P] for y in range(P))}


def inserts(bg, P: int, jump: int, bad_offsets, other_bg):
    """Trimmed inserts (word, resume phase) into bg with phase jump (len - j) = jump mod P,
    quiet against other_bg at the given offsets (insert row y faces other_bg[y + d])."""
    out = []
    for n in range(MAX_INSERT + 1):
        j = (n - jump) % P
        for w in words(n):
            if n == 0:
                if j == 0 or bg[P - 1] == bg[j]:
                    continue
            elif (w[0] in (bg[P - 1], bg[0]) or w[-1] in (bg[j], bg[(j - 1) % P])):
                continue
            if any(w[y] == other_bg[(y + d) % P] for y in range(n) for d in bad_offsets):
                continue
            out.append((w, j))
    return out


class Column:
    """A bi-infinite column: bg below row 0, the insert, bg resumed at phase j above."""

    def __init__(self, bg, ins, j):
        self.bg, self.ins, self.j, self.P = bg, ins, j, len(bg)

    def __call__(self, y: int) -> int:
        n = len(self.ins)
        if y < 0:
            return self.bg[y % self.P]
        if y < n:
            return self.ins[y]
        return self.bg[(y - n + self.j) % self.P]


def contacts(Lc: Column, Rc: Column, t: int, span: int) -> int:
    """Facing pairs of one colour at shift t (L row y faces R row y + t), |y| <= span."""
    return sum(Lc(y) == Rc(y + t) for y in range(-span, span + 1))


# -- stage 1: condition (a) -------------------------------------------------------------
def stage1(P: int, all_shifts: bool = False):
    """Every (bL, bR, r, key, gate) meeting (a) for lattice S = r + P*Z (or S = Z)."""
    bgs = cyclic_words(P)
    out = []
    for bR in (w for w in bgs if w[0] == 0 and w[1] == 1):
        for bL in bgs:
            Q = quiet_offsets(bL, bR, P)
            if all_shifts and len(Q) < P:
                continue  # far from the inserts every residue must be quiet
            for r in sorted(Q):
                for al, be in itertools.product(range(P), repeat=2):
                    # far field: L-above vs R-below, L-below vs R-above, L-above vs R-above
                    if not {(r + al) % P, (r - be) % P, (r + al - be) % P} <= Q:
                        continue
                    keys = inserts(bL, P, al, (r, r - be), bR)
                    if not keys:
                        continue
                    gates = inserts(bR, P, be, (-r, -r - al), bL)
                    for (k, jL), (g, jR) in itertools.product(keys, gates):
                        hits = [t for t in range(-len(k) - P, len(g) + P + 1)
                                if (t - r) % P == 0
                                and any(k[y] == g[y + t] for y in range(len(k))
                                        if 0 <= y + t < len(g))]
                        if len(hits) == 1:
                            out.append((bL, bR, r, k, jL, g, jR, hits[0]))
    return out


def check_stage1_direct(cand) -> bool:
    """(a) re-checked on the bi-infinite columns, every shift of the class up to far out."""
    bL, bR, r, k, jL, g, jR, ts = cand
    P = len(bL)
    Lc, Rc = Column(bL, k, jL), Column(bR, g, jR)
    span = 8 * P + 30
    hit = [t for t in range(r - 10 * P, r + 10 * P + 1, P) if contacts(Lc, Rc, t, span)]
    words_ok = all(Lc(y) != Lc(y + 1) and Rc(y) != Rc(y + 1) for y in range(-span, span))
    return words_ok and hit == [ts]


# -- stage 2: a two-column engine --------------------------------------------------------
def groups2(cols):
    """Maximal one-colour groups (size >= 2) of a board of columns (colour lists)."""
    seen = set()
    out = []
    for c, col in enumerate(cols):
        for h in range(len(col)):
            if (c, h) in seen:
                continue
            colour = col[h]
            comp = [(c, h)]
            seen.add((c, h))
            i = 0
            while i < len(comp):
                cc, hh = comp[i]
                i += 1
                for c2, h2 in ((cc - 1, hh), (cc + 1, hh), (cc, hh - 1), (cc, hh + 1)):
                    if (0 <= c2 < len(cols) and 0 <= h2 < len(cols[c2])
                            and (c2, h2) not in seen and cols[c2][h2] == colour):
                        seen.add((c2, h2))
                        comp.append((c2, h2))
            if len(comp) >= 2:
                out.append(comp)
    return out


def click2(cols, ids, comp):
    """Remove a group; returns (colours, ids) with blocks fallen and empty columns closed."""
    gone = set(comp)
    nc, ni = [], []
    for c in range(len(cols)):
        col = [x for h, x in enumerate(cols[c]) if (c, h) not in gone]
        idc = [x for h, x in enumerate(ids[c]) if (c, h) not in gone]
        if col:
            nc.append(col)
            ni.append(idc)
    return nc, ni


def check_engine(n_boards: int = 400, seed: int = 1) -> None:
    """The engine against the reference rules on random boards of 2-3 columns."""
    rng = random.Random(seed)
    for _ in range(n_boards):
        W, H = rng.randint(2, 3), rng.randint(2, 9)
        cols = [[rng.randrange(3) for _ in range(rng.randint(1, H))] for _ in range(W)]
        board = Board.from_columns(cols, height=H, width=W)
        gs = groups2(cols)
        assert sorted(len(g) for g in gs) == sorted(g.size for g in board.groups()
                                                    if g.size >= 2)
        for comp in gs:
            c, h = comp[0]
            ref = board.click((H - 1 - h, c))
            mine, _ = click2(cols, [list(range(len(col))) for col in cols], comp)
            assert tuple(map(tuple, mine)) == ref.columns


def window(cand, margin: int, shift: int | None = None):
    """The board at shift t (default the matching t*): columns on the floor, equal tops."""
    bL, bR, r, k, jL, g, jR, ts = cand
    ts = ts if shift is None else shift
    Lc, Rc = Column(bL, k, jL), Column(bR, g, jR)
    mL = margin + max(ts, 0)  # L row y at height y + mL, R row z at height z + mR
    mR = mL - ts
    top = max(mL + len(k), mR + len(g)) + margin
    L = [Lc(h - mL) for h in range(top)]
    R = [Rc(h - mR) for h in range(top)]
    Lkey = {h for h in range(mL, mL + len(k))}
    Rgate = {h for h in range(mR, mR + len(g))}
    return L, R, Lkey, Rgate, mL, mR


def periodic_phase(word, bg):
    """The phase f with word[i] = bg[(i + f) mod P] for all i, or None."""
    P = len(bg)
    for f in range(P):
        if all(x == bg[(i + f) % P] for i, x in enumerate(word)):
            return f
    return None


def later_quiet(L, R, bL, bR, mL, mR, n_shifts: int) -> bool:
    """L slides down k*P (k = 1..n_shifts) past R: no facing pair of one colour.

    Each column is extended below by its untouched background and above by its top's
    periodic continuation (the window margins are untouched background, checked)."""
    P = len(bL)
    fL = periodic_phase(L[-P:], bL)
    fR = periodic_phase(R[-P:], bR)
    if fL is None or fR is None:
        return False

    def ext(col, bg, m, f):
        def at(h):
            if h < 0:
                return bg[(h - m) % P]
            if h < len(col):
                return col[h]
            return bg[(h + f) % P]
        return at

    Lx, Rx = ext(L, bL, mL, fL), ext(R, bR, mR, fR)
    span = len(L) + len(R) + n_shifts * P + 2 * P
    return all(Lx(h) != Rx(h - s * P) for s in range(1, n_shifts + 1)
               for h in range(-span, span))


def stage2(cand, margin: int, zone: int):
    """Every dead end reachable at t* by clicks inside the zone, classified.

    A click may take only blocks that started within ``zone`` rows of the key (in L) or
    of the gate (in R): the search is over *local* click sequences, so a fold running into
    the background is not followed (it never stops by itself in an unbounded column).
    Returns (tag counts, a witness click list per tag, clicks refused, states)."""
    bL, bR, r, k, jL, g, jR, ts = cand
    P = len(bL)
    L, R, Lkey, Rgate, mL, mR = window(cand, margin)
    n0 = (len(L), len(R))
    okL = range(mL - zone, mL + len(k) + zone)
    okR = range(mR - zone, mR + len(g) + zone)
    start = (tuple(range(n0[0])), tuple(range(n0[1])))
    parent = {start: None}
    stack = [start]
    refused = 0
    res = Counter()
    witness = {}
    n_shifts = (len(L) + len(R)) // P + 4
    while stack:
        il, ir = stack.pop()
        cols = [[L[i] for i in il], [R[i] for i in ir]]
        ids = [list(il), list(ir)]
        gs = groups2(cols)
        for comp in gs:
            if not all(ids[c][h] in (okL if c == 0 else okR) for c, h in comp):
                refused += 1
                continue
            nc, ni = click2(cols, ids, comp)
            st = (tuple(ni[0]), tuple(ni[1]))
            if st not in parent and not stuck_pair(nc, ni, okL, okR):
                parent[st] = ((il, ir), min(comp))
                stack.append(st)
        if gs or (il, ir) == start:
            continue
        cl, cr = cols
        lost_l = set(range(n0[0])) - set(il)
        lost_r = set(range(n0[1])) - set(ir)
        key_hit = bool(lost_l & Lkey)
        gate_hit = bool(lost_r & Rgate)
        quiet_later = later_quiet(cl, cr, bL, bR, mL, mR, n_shifts)
        pure_l = periodic_phase(cl, bL) is not None
        pure_r = periodic_phase(cr, bR) is not None
        tags = []
        if pure_l and pure_r:
            tags.append("A_weak")
            if (len(lost_l) - len(lost_r)) % P == 0:
                tags.append("A_strict")
        if key_hit and gate_hit and quiet_later:
            tags.append("B")
        if quiet_later and pure_l != pure_r:
            # one insert fully gone, the other still there, and the lattice can go on
            tags.append("leak_key" if pure_l else "leak_gate")
        for tag in tags:
            res[tag] += 1
            if tag not in witness:
                moves, st = [], (il, ir)
                while parent[st] is not None:
                    st, sq = parent[st]
                    moves.append(sq)
                witness[tag] = (len(lost_l), len(lost_r), moves[::-1])
    return res, witness, refused, len(parent)


def stuck_pair(cols, ids, okL, okR) -> bool:
    """A vertical pair of one colour with a block outside the zone: it falls as one piece,
    so it stays clickable for ever and no dead end can follow (a sound cut)."""
    for c, ok in ((0, okL), (1, okR)):
        col, idc = cols[c], ids[c]
        for h in range(len(col) - 1):
            if col[h] == col[h + 1] and (idc[h] not in ok or idc[h + 1] not in ok):
                return True
    return False


def replay_reference(cand, margin: int, moves):
    """Replay a witness (column, height) click list with the reference rules."""
    L, R, *_ = window(cand, margin)
    H = len(L)
    board = Board.from_columns([L, R], height=H)
    for c, h in moves:
        board = board.click((H - 1 - h, c))
    return board


def fmt(w) -> str:
    return "".join(map(str, w)) or "-"


def verify_reference(cand, margin: int, moves) -> bool:
    """With the reference rules: (a) at t* + kP, |k| <= 6 (clickable only at k = 0), and
    the witness ends dead with both columns pure backgrounds."""
    P = len(cand[0])
    for kk in range(-6, 7):
        L, R, *_ = window(cand, margin, cand[7] + kk * P)
        clickable = bool(Board.from_columns([L, R], height=len(L)).moves())
        if clickable != (kk == 0):
            return False
    end = replay_reference(cand, margin, moves)
    return (end.is_dead and len(end.columns) == 2
            and periodic_phase(end.columns[0], cand[0]) is not None
            and periodic_phase(end.columns[1], cand[1]) is not None)


def min_period(w) -> int:
    P = len(w)
    return min(p for p in range(1, P + 1)
               if P % p == 0 and all(w[i] == w[(i + p) % P] for i in range(P)))


SAMPLE_6 = 150  # P = 6: stage 2 on a fixed random sample (stage 1 is exhaustive)


def main() -> None:
    t_start = time.process_time()
    check_engine()
    print("engine agrees with the reference rules on 400 random boards")
    # variant 2 (S = Z) needs every residue quiet far from the inserts: never with 3 colours
    for P in PERIODS:
        bgs = cyclic_words(P)
        best = max(len(quiet_offsets(a, b, P)) for a in bgs for b in bgs)
        print(f"P={P}: variant 2 (S = Z): max quiet residues {best} of {P}; "
              f"survivors {len(stage1(P, all_shifts=True))}")
    clean_rows = []
    for P in PERIODS:
        cands = stage1(P)
        assert all(check_stage1_direct(c) for c in cands)
        mp = Counter((min_period(c[0]), min_period(c[1])) for c in cands)
        todo = cands
        if P == 6:
            todo = random.Random(0).sample(cands, min(SAMPLE_6, len(cands)))
        margin, zone = 3 * P + 6, 2 * P if P < 6 else P
        per = Counter()
        states = refused = 0
        for cand in todo:
            res, wit, ref, n = stage2(cand, margin, zone)
            states += n
            refused += ref
            tags = set(res)
            per.update(tags)
            leaks = bool(tags & {"leak_key", "leak_gate"})
            if "A_strict" in tags:
                per["A_strict, no leak"] += not leaks
                if not leaks:
                    clean_rows.append((cand, wit["A_strict"], margin))
            if "B" in tags and not leaks:
                per["B, no leak"] += 1
        print(f"P={P}: (a) survivors {len(cands)} (re-checked directly), by minimal periods "
              f"(bL, bR) {dict(sorted(mp.items()))}; stage 2 on {len(todo)} (zone {zone}, "
              f"margin {margin}): {states} states; candidates with a dead end of each kind "
              f"{dict(sorted(per.items()))}; cpu {time.process_time() - t_start:.0f} s")
        sys.stdout.flush()
    clean_rows.sort(key=lambda row: (len(row[0][0]), len(row[0][3]) + len(row[0][5]),
                                     row[1][0] + row[1][1]))
    print(f"gadgets meeting (a), (b) in phase and (c): {len(clean_rows)}; smallest per P, "
          "witness replayed and (a) re-checked with the reference rules:")
    shown = Counter()
    for cand, (nl, nr, moves), margin in clean_rows:
        bL, bR, r, k, jL, g, jR, ts = cand
        if shown[len(bL)] >= 6:
            continue
        shown[len(bL)] += 1
        ok = verify_reference(cand, margin, moves)
        print(f"  P={len(bL)} bL={fmt(bL)} bR={fmt(bR)} key={fmt(k)} (resume {jL}) "
              f"gate={fmt(g)} (resume {jR}) t*={ts} removes {nl}+{nr} in {len(moves)} "
              f"clicks; reference {'ok' if ok else 'FAILED'}")


if __name__ == "__main__":
    main()
