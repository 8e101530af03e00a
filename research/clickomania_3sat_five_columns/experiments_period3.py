"""Checks of section 6 of research/clickomania_3sat_five_columns/README.md.

Run: .venv/bin/python research/clickomania_3sat_five_columns/experiments_period3.py
(about 10 s of CPU). Prints:

1. the damage lemma, local form, exhaustively: for every word over three colours of length
   at most 9 and every set of runs of one colour removed from it, the potential
   Psi = 2 * sum(len(run) - 1) + #(descending gaps) changes by at most
   sum(3 - 2 * len(run)) over the removed runs;
2. the damage lemma, global form, on random play with the reference rules: a column that
   starts as (123)^k beside a random column loses at most three blocks per singleton
   removed from it by a group that reaches into the other column;
3. the contrast with two colours: one such singleton removed from (12)^k lets the column
   lose almost everything (the one-column grammar of column.py);
4. an inserted letter in a period-3 word, beside an unchanged period-3 word: at every
   relative shift, the inserted letter or one of its two vertical neighbours touches a
   block of its colour (so an inserted single-letter key is never quiet).
"""

from __future__ import annotations

import itertools
import random

from clobbermania.clickomania.column import max_removable
from clobbermania.clickomania.rules import Board


def runs(word: tuple[int, ...]) -> list[tuple[int, int]]:
    """(colour, length) of each maximal run, bottom to top."""
    out: list[tuple[int, int]] = []
    for x in word:
        if out and out[-1][0] == x:
            out[-1] = (x, out[-1][1] + 1)
        else:
            out.append((x, 1))
    return out


def potential(word: tuple[int, ...]) -> int:
    """Psi: twice the surplus of the runs plus the descending gaps (colours mod 3)."""
    rs = runs(word)
    surplus = sum(n - 1 for _, n in rs)
    descending = sum(1 for (a, _), (b, _) in zip(rs, rs[1:], strict=False)
                     if (b - a) % 3 == 2)
    return 2 * surplus + descending


def local_lemma(max_len: int = 9) -> None:
    checked = 0
    for n in range(1, max_len + 1):
        for word in itertools.product(range(3), repeat=n):
            rs = runs(word)
            starts = list(itertools.accumulate([0] + [k for _, k in rs]))
            psi = potential(word)
            for colour in range(3):
                idx = [i for i, (c, _) in enumerate(rs) if c == colour]
                for r in range(1, len(idx) + 1):
                    for chosen in itertools.combinations(idx, r):
                        gone = set()
                        for i in chosen:
                            gone.update(range(starts[i], starts[i + 1]))
                        after = tuple(x for j, x in enumerate(word) if j not in gone)
                        bound = sum(3 - 2 * rs[i][1] for i in chosen)
                        assert potential(after) - psi <= bound, (word, chosen)
                        checked += 1
    print(f"damage lemma, local form: {checked} removals from all words of length <= "
          f"{max_len} over three colours, none breaks the bound")


def random_play(trials: int = 2000, seed: int = 6) -> None:
    rng = random.Random(seed)
    worst = 0.0
    events = 0
    for _ in range(trials):
        k = rng.randint(2, 7)
        left = [c for _ in range(k) for c in (1, 2, 3)]
        right = [rng.randint(1, 3) for _ in range(rng.randint(1, 3 * k))]
        b = Board.from_columns([left, right], 3 * k)
        singles = lost = 0
        while b.moves() and len(b.columns) == 2:
            sq = rng.choice(b.moves())
            g = b.group_at(sq)
            H = b.height
            mine = sorted(H - 1 - r for r, c in g.squares if c == 0)
            col = b.columns[0]
            # the runs of the left column that the group takes, and their lengths
            taken = runs(tuple(col[h] for h in mine)) if mine else []
            for h0 in mine:
                below = h0 == 0 or col[h0 - 1] != col[h0]
                above = h0 + 1 == len(col) or col[h0 + 1] != col[h0]
                singles += below and above
            lost += len(mine)
            b = b.click(sq)
            events += bool(taken)
        assert lost <= 3 * singles, (left, right, lost, singles)
        if singles:
            worst = max(worst, lost / singles)
    print(f"damage lemma, global form: {trials} random plays beside (123)^k, {events} "
          f"clicks reaching the left column; blocks lost per singleton taken by a "
          f"cross-column group at most {worst:.2f} (bound 3)")


def two_colour_contrast() -> None:
    for k in (4, 8, 16):
        word = [1, 2] * k
        hole = word[:k] + word[k + 1:]  # one singleton taken by a cross-column group
        print(f"two colours: (12)^{k} ({2 * k} blocks) with one block taken from the "
              f"middle loses {max_removable(hole)} more by its own groups")


def inserted_letter() -> None:
    n = 12
    base = [h % 3 for h in range(n)]
    for at in range(3, 9):
        key = (base[at - 1] + 2) % 3  # differs from the letters below and above it
        col = base[:at] + [key] + base[at:]
        quiet_shifts = []
        for shift in range(-3, 4):
            other = [(h + shift) % 3 for h in range(n + 2)]
            touches = any(col[h] == other[h] for h in (at - 1, at, at + 1))
            if not touches:
                quiet_shifts.append(shift)
        assert not quiet_shifts, (at, quiet_shifts)
    print("inserted letter in a period-3 word: at every relative shift the letter or a "
          "vertical neighbour touches its colour in the other period-3 word")


if __name__ == "__main__":
    local_lemma()
    random_play()
    two_colour_contrast()
    inserted_letter()
