"""Checks for research/clickomania_lock_leaks/README.md (run from the repository root).

    .venv/bin/python research/clickomania_lock_leaks/check.py      # about 1 minute

C1  a single key/gate pair (2012 | 2102) at its matching shift, with plain alternating
    background above and below, is cleared completely (exact solver, reference replay);
C2  with a second key/gate pair above, the second key meets the second gate at offsets
    that no lattice shift produces (breadth-first search over every click sequence, the
    path replayed with the reference rules); control: without the first gate, nothing;
C3  the end-game trigger (flag in L, marker M in R, both 2, level with each other after
    everything else is gone) unzips both columns: the boards of README section 4 clear.
"""

from __future__ import annotations

import random
import sys
import time
from collections import deque

from clobbermania.clickomania.rules import Board
from clobbermania.clickomania.solver import solve_clickomania


# -- a tagged two-column engine (tags follow blocks, colours decide groups) --------------
def groups(cols):
    """Groups of two or more blocks, each a list of (column, height)."""
    seen, out = set(), []
    for c, col in enumerate(cols):
        for h in range(len(col)):
            if (c, h) in seen:
                continue
            colour, stack, comp = col[h][0], [(c, h)], []
            seen.add((c, h))
            while stack:
                x, y = stack.pop()
                comp.append((x, y))
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if (0 <= nx < len(cols) and 0 <= ny < len(cols[nx])
                            and (nx, ny) not in seen and cols[nx][ny][0] == colour):
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            if len(comp) >= 2:
                out.append(comp)
    return out


def click(cols, comp):
    gone = set(comp)
    new = (tuple(b for h, b in enumerate(col) if (c, h) not in gone)
           for c, col in enumerate(cols))
    return tuple(col for col in new if col)


def to_board(cols, height):
    return Board.from_columns([[b[0] for b in col] for col in cols], height=height)


def colours(cols):
    return tuple(tuple(b[0] for b in col) for col in cols)


def check_engine(trials: int = 300) -> None:
    rng = random.Random(5)
    for _ in range(trials):
        h = rng.randint(1, 6)
        cols = tuple(tuple((rng.randrange(3), i) for i in range(rng.randint(1, h)))
                     for _ in range(2))
        ref = to_board(cols, h)
        mine = sorted(sorted(comp) for comp in groups(cols))
        assert len(mine) == len(ref.moves()), (cols, mine)
        for comp in groups(cols):
            c, y = comp[0]
            nxt = ref.click((h - 1 - y, c))
            assert nxt.columns == colours(click(cols, comp))


# -- the boards ----------------------------------------------------------------------
def pair_board(below: int, above: int):
    """Key 2012 in L and gate 2102 in R at the same rows, backgrounds in anti-phase."""
    n = below + 4 + above
    L = [2 if h in (below, below + 3) else h % 2 for h in range(n)]
    R = [2 if h in (below, below + 3) else 1 - h % 2 for h in range(n)]
    return L, R


def two_pairs(item: int, gap: int, top: int, offset: int):
    """L: 3 background letters, an item (run of 2), 4 letters, key 1, ``gap`` letters,
    key 2, ``top`` letters. R: gate 1 level with key 1 once the item is gone, gate 2
    ``offset`` rows below where key 2 would be then (offset 0: the honest match)."""
    L, h = [], 0

    def letter(tag="b"):
        nonlocal h
        L.append((h % 2, tag))
        h += 1

    def key(tag: str) -> int:
        """A key (2 at offsets 0 and 3 in place of letters); returns its bottom row."""
        nonlocal h
        bottom = h
        for i in range(4):
            L.append((2, tag) if i in (0, 3) else (h % 2, "b"))
            h += 1
        return bottom

    for _ in range(3):
        letter()
    for _ in range(item):
        L.append((2, "item"))
        h += 1
    for _ in range(4):
        letter()
    k1 = key("k1")
    for _ in range(gap):
        letter()
    k2 = key("k2")
    for _ in range(top):
        letter()
    g1, g2 = k1 - item, k2 - item - offset
    R = [(2, "g1") if y in (g1, g1 + 3) else (2, "g2") if y in (g2, g2 + 3)
         else (1 - y % 2, "r") for y in range(len(L))]
    return tuple(L), tuple(R)


def path_to(parent, s, comp):
    """The click sequence of a breadth-first search (``parent`` maps a board to the board
    and click it came from) that reaches ``s`` and then clicks ``comp``."""
    path = [comp]
    while parent[s] is not None:
        s, prev = parent[s]
        path.append(prev)
    return path[::-1]


def first_meeting(start, a: str, b: str, limit: int = 2_000_000):
    """Shortest click sequence ending in a click that takes a block tagged ``a`` and one
    tagged ``b`` (None if every reachable board was seen without one)."""
    parent = {start: None}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for comp in groups(s):
            tags = {s[c][y][1] for c, y in comp}
            if a in tags and b in tags:
                return path_to(parent, s, comp), len(parent)
            nxt = click(s, comp)
            if nxt not in parent:
                parent[nxt] = (s, comp)
                queue.append(nxt)
                if len(parent) > limit:
                    raise RuntimeError("search limit reached")
    return None, len(parent)


def replay_reference(start, path) -> None:
    """Replay ``path`` with the reference rules, checking the colours at every step."""
    height = max(len(col) for col in start)
    board, cols = to_board(start, height), start
    for comp in path:
        c, y = comp[0]
        board = board.click((height - 1 - y, c))
        cols = click(cols, comp)
        assert board.columns == colours(cols)


def end_board(lam: int, cap: int, r_top: int, gates=()):
    """After every key and item: L = lam letters, the flag (2), cap letters;
    R = letters with the marker M (2) at height lam and unused gates (2 at z, z + 3)."""
    L = [2 if h == lam else h % 2 for h in range(lam + 1 + cap)]
    twos = {lam} | {z + d for z in gates for d in (0, 3)}
    R = [2 if h in twos else 1 - h % 2 for h in range(r_top)]
    return L, R


def main() -> None:
    t0 = time.process_time()
    check_engine()
    print("engine agrees with the reference rules on 300 random boards")

    print("\nC1: one key/gate pair at its matching shift, plain background around it")
    for below, above in ((6, 12), (6, 20), (7, 20)):
        L, R = pair_board(below, above)
        board = Board.from_columns([L, R], height=len(L))
        r = solve_clickomania(board)
        assert r.exact and r.solvable, (below, above)
        print(f"  {below} letters below, {above} above: {board.n_blocks} blocks, cleared "
              f"in {len(r.moves)} clicks (exact solver, replayed)")

    print("\nC2: a second pair above; key 2 meets gate 2 at offsets no lattice shift gives")
    for item in (4, 0):
        for offset in (1, 2, 5, 8, 13):
            start = two_pairs(item, 20, 6, offset)
            path, states = first_meeting(start, "k2", "g2")
            assert path is not None, (item, offset)
            replay_reference(start, path)
            print(f"  item {item}, gate 2 offset {offset:2d}: met after {len(path) - 1:2d} "
                  f"clicks ({states} boards searched, path replayed)")
    for offset in (2, 8, 13):
        L, R = two_pairs(4, 20, 6, offset)
        R = tuple((1 - y % 2, "r") if b[1] == "g1" else b for y, b in enumerate(R))
        path, states = first_meeting((L, R), "k2", "g2")
        assert path is None
        print(f"  control, no gate 1, offset {offset:2d}: never ({states} boards)")

    print("\nC3: the end-game trigger clears both columns")
    cases = [(4, 5, r) for r in range(5, 10)] + [(6, 7, r) for r in range(7, 14)]
    cases += [(4, 12, 16, (9,)), (4, 14, 22, (9, 15)), (5, 14, 21, (11, 16))]
    for case in cases:
        L, R = end_board(*case)
        board = Board.from_columns([L, R], height=max(len(L), len(R)))
        r = solve_clickomania(board, time_limit=60)
        assert r.exact and r.solvable, case
        # without the trigger the same columns are dead
        L2 = [h % 2 if b == 2 and h == case[0] else b for h, b in enumerate(L)]
        R2 = [1 - h % 2 if b == 2 and h == case[0] else b for h, b in enumerate(R)]
        dead = Board.from_columns([L2, R2], height=board.height)
        assert not solve_clickomania(dead, time_limit=60).solvable
        print(f"  lambda {case[0]}, cap {case[1]}, R height {case[2]}, unused gates at "
              f"{list(case[3]) if len(case) > 3 else []}: cleared; without flag and M: not")
    print(f"\nall checks passed ({time.process_time() - t0:.0f} s CPU)")


if __name__ == "__main__":
    sys.exit(main())
