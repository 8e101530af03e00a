"""Checks of research/clickomania_thm15_time/README.md (every measured claim).

Run: .venv/bin/python research/clickomania_thm15_time/experiments.py   (well under a minute)

Colours are 0, 1, 2 (A, B, C); columns are listed bottom to top. A *word* is a column
with no two equal vertical neighbours; its *lift* H is the integer path with H(0) = w(0),
H(y + 1) - H(y) = +1 or -1 and H(y) = w(y) (mod 3).

E1  Lemma 1 (lifted paths), exhaustively: two facing words of equal length touch nowhere
    iff H_u - H_w takes only values in {c, c + 2} for one c = 2 (mod 3).
E2  Corollary 2: a word facing a pure period-3 word (steps all +1) with no contact has at
    most one -1 step; exhaustively, with the count of such words.
E3  Corollary 3: of the defect inserts of length 1-5 put into a pure period-3 word, the
    only ones quiet beside a pure word (at some shift) have length 2 (mod 3) and one -1
    step (they are deletions mod 3); and two such deletions, at any gap 3-12, leave a
    contact in the part below, between or above them at every phase.
E4  Lemma 1 in its sliding form: at any relative shift, two words are quiet on their
    overlap iff the unmatched down-steps of the two alternate and the residue is right
    (a sample of pairs of length 10 at every shift).
E5  The private-colour parity design (README section 4): quiet at every even lattice
    shift before the key is used; after the key-gate click both columns hold a fold
    pair and the fold cascades (reference rules), and an even slide after the click puts
    a band of contacts between L's part above and R's part below.
E6  A middle column of one colour is a single group (README section 5): with the key
    colour it takes every key level with it in one click.
E7  The read head (README section 3): the neck of L (the rows just below the lowest key)
    faces the base and then the gate region; exhaustively, a neck word of length >= 4 that
    is quiet against a one-colour base and against the two-letter gate-region word at
    every even shift is the alternation (Z X)* in one phase, so the neck carries no
    structure (no key, no stuck letter, no defect).
"""

from __future__ import annotations

import itertools

from clobbermania.clickomania.rules import Board


# -- words and lifts ------------------------------------------------------------------
def words(n: int):
    """All words of length n over {0, 1, 2} with no two equal neighbours."""
    for first in range(3):
        for steps in itertools.product((1, 2), repeat=n - 1):
            w = [first]
            for s in steps:
                w.append((w[-1] + s) % 3)
            yield tuple(w)


def lift(w: tuple[int, ...]) -> list[int]:
    h = [w[0]]
    for a, b in itertools.pairwise(w):
        h.append(h[-1] + (1 if (b - a) % 3 == 1 else -1))
    return h


def contact_free(u, w, shift: int = 0) -> bool:
    """u[y] faces w[y + shift] on the overlap; True if no facing pair has one colour."""
    return all(u[y] != w[y + shift] for y in range(len(u)) if 0 <= y + shift < len(w))


def down_steps(w) -> int:
    return sum(1 for a, b in itertools.pairwise(w) if (b - a) % 3 == 2)


def e1(max_len: int = 8) -> None:
    pairs = agree = 0
    for n in range(1, max_len + 1):
        ws = list(words(n))
        for u in ws:
            hu = lift(u)
            for w in ws:
                hw = lift(w)
                d = {a - b for a, b in zip(hu, hw, strict=True)}
                pred = any(d <= {c, c + 2} for c in range(min(d) - 2, min(d) + 1)
                           if c % 3 == 2)
                pairs += 1
                agree += pred == contact_free(u, w)
    print(f"E1 lifted-path lemma: {agree}/{pairs} pairs of words of length <= {max_len} "
          f"agree")
    assert agree == pairs


def pure(n: int, phase: int, step: int = 1) -> tuple[int, ...]:
    return tuple((phase + step * y) % 3 for y in range(n))


def e2(max_len: int = 12) -> None:
    worst = 0
    quiet = 0
    total = 0
    for n in range(2, max_len + 1):
        ws = list(words(n))
        for u in ws:
            total += 1
            if any(contact_free(u, pure(n, p)) for p in range(3)):
                quiet += 1
                worst = max(worst, down_steps(u))
    print(f"E2 facing a pure word: {quiet}/{total} words of length 2..{max_len} can be "
          f"quiet, and the most -1 steps among them is {worst}")
    assert worst <= 1


def inserts(max_k: int = 5):
    """Every insert of length 1..max_k."""
    for k in range(1, max_k + 1):
        yield from itertools.product(range(3), repeat=k)


def e3(side: int = 9) -> None:
    tried = 0
    quiet_kinds = set()
    for phase in range(3):
        base = pure(2 * side, phase)
        for ins in inserts():
            u = base[:side] + ins + base[side:]
            if any(a == b for a, b in itertools.pairwise(u)) or down_steps(u) == 0:
                continue  # illegal, or the pure continuation (no defect at all)
            tried += 1
            for shift in range(-3, 4):
                for p in range(3):
                    if contact_free(u, pure(len(u) + 8, p), shift):
                        quiet_kinds.add((len(ins) % 3, down_steps(u)))
    print(f"E3 {tried} legal defect inserts of length 1-5 in a pure word; the quiet ones "
          f"beside a pure word have (length mod 3, down-steps) in {sorted(quiet_kinds)}")
    assert quiet_kinds == {(2, 1)}
    # two single-down-step defects, any distance apart: never quiet beside a pure word
    # facing the whole of it, and the part above the second is in contact at every phase
    bad = 0
    for gap in range(3, 13):
        base = pure(2 * side + gap + 2, 0)
        u = base[:side] + base[side + 1:side + gap] + base[side + gap + 1:]
        below, middle, above = u[:side], u[side:side + gap - 1], u[side + gap - 1:]
        for p in range(3):
            r = pure(len(u), p)
            seg_quiet = [contact_free(below, r[:side]),
                         contact_free(middle, r[side:side + gap - 1]),
                         contact_free(above, r[side + gap - 1:])]
            if not all(seg_quiet):
                bad += 1
    print(f"   two deletions (gaps 3-12): the parts below, between and above are never "
          f"all quiet beside one pure word ({bad}/30 phase x gap cases have a contact)")
    assert bad == 30


def e4(n: int = 10) -> None:
    """Two -1 steps in u at distance t: against a pure word no shift is quiet; against a
    word v with its own -1 steps, the quiet shifts s are those where a -1 step of v lies
    strictly between (interleaving). Checked: for every u, v of length n, the set of
    quiet shifts equals the interleaving prediction of Lemma 1."""
    checked = ok = 0
    ws = list(words(n))
    for u in ws[:: max(1, len(ws) // 120)]:
        for v in ws[:: max(1, len(ws) // 120)]:
            for s in range(-n + 1, n):
                checked += 1
                overlap = [y for y in range(n) if 0 <= y + s < n]
                uu = tuple(u[y] for y in overlap)
                vv = tuple(v[y + s] for y in overlap)
                hu, hv = lift(uu), lift(vv)
                d = [a - b for a, b in zip(hu, hv, strict=True)]
                # interleaving: unmatched steps alternate (u down, v down, ...), and the
                # residue of the first value is right
                steps = [x - y for x, y in itertools.pairwise(d)]
                nz = [x for x in steps if x]
                alternate = all(a == -b for a, b in itertools.pairwise(nz))
                pred = alternate and all(x % 3 != 0 for x in d)
                ok += pred == contact_free(uu, vv)
    print(f"E4 quiet shift = alternating unmatched down-steps: {ok}/{checked} agree")
    assert ok == checked


# -- the private-colour parity design (section 4) ----------------------------------------
X, Y, Z = 0, 1, 2


def t1_columns(lattice=(4, 6), neck: int = 16, key_at: int = 8, region: int = 24,
               gate_at: int = 30, base: int = 17):
    """L: X-items (even) with Z separators, neck (Z even rows, X odd rows), key region
    (Z even, Y odd, key X at an even row with Y neighbours). R: Y base of odd height,
    then Y on even rows and Z on odd rows, the gate X replacing a Y."""
    left: list[int] = []
    for i, size in enumerate(lattice):
        if i:
            left.append(Z)
            if len(left) % 2:  # keep every item on even length and even start
                left.append(X)
        left.extend([X] * size)
    while len(left) % 2:
        left.append(Z)
    start = len(left)
    for y in range(start, start + neck):
        left.append(Z if y % 2 == 0 else X)
    k0 = len(left)
    key_height = None
    for y in range(k0, k0 + region):
        if y == k0 + key_at:
            left.append(X)
            key_height = y
        else:
            left.append(Z if y % 2 == 0 else Y)
    right = [Y] * base
    for y in range(base, gate_at + 12):
        right.append(X if y == gate_at else (Y if y % 2 == 0 else Z))
    assert key_height % 2 == 0 and gate_at % 2 == 0 and base % 2 == 1
    return left, right, key_height


def cross_groups(b: Board) -> list:
    """Groups of two or more blocks that span both columns."""
    out = []
    for g in b.groups():
        if g.size >= 2 and len({c for _, c in g.squares}) > 1:
            out.append(g)
    return out


def e5() -> None:
    left, right, key_h = t1_columns()
    gate_h = 30
    height = max(len(left), len(right)) + 2
    # slide L down by every even amount the lattice allows (drop whole rows at the bottom
    # of L as a stand-in for removed items: the content above is what faces R)
    quiet_before = []
    for s in range(0, 12, 2):
        b = Board.from_columns([left[s:], right], height)
        groups = cross_groups(b)
        quiet_before.append((s, [(g.color, g.size) for g in groups]))
    print("E5 private-colour design, cross-column groups at each even slide s "
          "(before the key is used):")
    for s, gs in quiet_before:
        print(f"   s={s:2d}: {gs}")
    # align key and gate: slide by key_h - gate_h (even)
    s = key_h - gate_h
    b = Board.from_columns([left[s:], right], height)
    g = [g for g in cross_groups(b) if g.color == X]
    assert len(g) == 1 and g[0].size == 2, g
    b2 = b.click(g[0].square)
    free_l = [gg for gg in b2.groups() if gg.size >= 2 and all(c == 0 for _, c in gg.squares)]
    free_r = [gg for gg in b2.groups() if gg.size >= 2 and all(c == 1 for _, c in gg.squares)]
    print(f"   at slide {s} key and gate form one group of 2; after it: fold pairs in L "
          f"{[(x.color, x.size) for x in free_l]}, in R {[(x.color, x.size) for x in free_r]}")
    # the fold cascades: keep clicking a group of Y or Z that holds a block of L (not
    # the base, not an item), lowest first
    cur = b2
    gone_l = gone_r = 0
    while True:
        cand = [gg for gg in cur.groups() if 2 <= gg.size <= 6 and gg.color != X
                and any(c == 0 for _, c in gg.squares)]
        if not cand:
            break
        gg = max(cand, key=lambda x: x.square[0])
        gone_l += sum(1 for _, c in gg.squares if c == 0)
        gone_r += sum(1 for _, c in gg.squares if c == 1)
        cur = cur.click(gg.square)
    print(f"   the fold then cascades: {gone_l} more blocks of L and {gone_r} of R go in "
          f"groups of Y or Z")
    # the band: after the click (no folds), slide L's remaining content by 2, 4, ...
    lcol, rcol = list(b2.columns[0]), list(b2.columns[1])
    bands = []
    for t in (2, 4, 6, 8):
        bb = Board.from_columns([lcol[t:], rcol], height)
        bands.append((t, sum(1 for gg in cross_groups(bb))))
    print(f"   then sliding L by t more (even): cross-column groups {bands}")
    assert gone_l >= 6 and all(n > 0 for _, n in bands)


def e6() -> None:
    # L: keys C=2 between letters; M: a column of C; R: gates C between letters
    left = [0, 1, 2, 0, 1, 0, 2, 1, 0, 1, 2, 0]
    mid = [2] * 12
    right = [1, 0, 1, 0, 2, 0, 1, 0, 1, 0, 1, 0]
    b = Board.from_columns([left, mid, right], 12)
    g = b.group_at(b.square_name((11, 1)))
    cols = sorted({c for _, c in g.squares})
    print(f"E6 middle column of the key colour: one group of {g.size} blocks over columns "
          f"{cols} (every key and gate level with it goes in one click)")
    assert g.size == 12 + 3 + 1


def e7(n: int = 8) -> None:
    """Neck words quiet against a base run of colour Y=1 and against (Y Z)* at every even
    shift (both parities of R's pattern)."""
    found = set()
    for u in words(n):
        if Y in u:
            continue  # touches the base
        r = tuple(Y if y % 2 == 0 else Z for y in range(n))
        if contact_free(u, r):  # even shifts keep this alignment
            found.add(u)
    print(f"E7 neck words of length {n} quiet against the Y base and against (Y Z)* at "
          f"every even shift: {sorted(found)}")
    assert found == {tuple(Z if y % 2 == 0 else X for y in range(n))}


def main() -> None:
    e1()
    e2()
    e3()
    e4()
    e5()
    e6()
    e7()


if __name__ == "__main__":
    main()
