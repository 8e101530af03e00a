"""Clobber values from the tree kernel (``part_dag``: every unknown part listed children
first in one call, then valued in that order) against the part-by-part recursion and
against a plain recursion over the reference move generator (no parts, no keys)."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from clobbermania.cgt import Game
from clobbermania.clobber import values as V
from clobbermania.clobber._clobber_kernels import part_dag
from clobbermania.stones import BLACK, WHITE, Position


@pytest.fixture(autouse=True)
def _no_part_database():
    """The kernels under test, not the part database, value the parts here."""
    V.use_part_database(None)
    yield
    V.use_part_database()


@cache
def plain_value(text: str) -> Game:
    """{values after Black's moves | values after White's moves} on the whole board."""
    p = Position.from_string(text)
    return Game.from_options([plain_value(p.play(m).text()) for m in p.moves(BLACK)],
                             [plain_value(p.play(m).text()) for m in p.moves(WHITE)])


def random_boards(seed: int, count: int, rows: int, cols: int, holes: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cells = [rng.choice("xo") for _ in range(rows * cols)]
        for i in rng.sample(range(rows * cols), holes):
            cells[i] = "."
        out.append("/".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)))
    return out


@pytest.mark.parametrize("shape", [(2, 4, 1), (3, 3, 1), (1, 9, 2), (3, 4, 4)])
def test_tree_kernel_values_equal_plain_recursion(shape):
    V.clear_cache()
    for text in random_boards(sum(shape), 8, *shape):
        assert V.clobber_value(Position.from_string(text)) is plain_value(text), text


def test_tree_kernel_equals_part_recursion(monkeypatch):
    boards = random_boards(5, 6, 3, 4, 2) + [Position.checkerboard(3, 4).text()]
    V.clear_cache()
    fast = [V.clobber_value(Position.from_string(t)) for t in boards]
    V.clear_cache()
    monkeypatch.setattr(V, "_DAG_LIMIT", 1)          # every tree too big: recurse
    slow = [V.clobber_value(Position.from_string(t)) for t in boards]
    assert fast == slow
    assert str(fast[-1]) == "0"                       # the oracle: 3x4 checkerboard


def test_part_dag_lists_children_first():
    V.clear_cache()
    # the 2x4 checkerboard, as the canonical kernel key
    p = Position.checkerboard(2, 4)
    b = sum(1 << i for i, c in enumerate(p.cells) if c == BLACK)
    w = sum(1 << i for i, c in enumerate(p.cells) if c == WHITE)
    n, keys, order, opt_start, side, ranges, refs, level = part_dag(
        2, 4, b, w, V._known_keys, V._known_vals, 10**6)
    assert n == len(order) == len(set(order.tolist())) and order[-1] == 0
    seen = set()
    for part in order.tolist():
        for o in range(opt_start[part], opt_start[part + 1]):
            for r in range(ranges[o, 0], ranges[o, 1]):
                if refs[r, 0] >= 0:
                    assert refs[r, 0] in seen
                    assert level[refs[r, 0]] < level[part]    # levels are batched in order
        seen.add(part)
    # every option of the root is a legal move of the reference generator
    assert opt_start[1] - opt_start[0] == len(p.moves(BLACK)) + len(p.moves(WHITE))
    assert n == part_dag(2, 4, b, w, V._known_keys, V._known_vals, n)[0]
    assert part_dag(2, 4, b, w, V._known_keys, V._known_vals, n - 1)[0] == -1
    assert np.all(side[:opt_start[1]] == sorted(side[:opt_start[1]]))


def test_timeout_keeps_parts_and_resumes():
    V.clear_cache()
    text = Position.checkerboard(3, 4).text()
    with pytest.raises(V.ValueTimeout):
        V.clobber_value(Position.from_string(text), time_limit=1e-9)
    assert str(V.clobber_value(Position.from_string(text), time_limit=60)) == "0"


def test_sum_and_negative_tables_hold_true_facts():
    # the tables the batch kernel reads are filled by cgt; each entry is checked here
    # against the plain definitions (sum by the recursive formula, canonicalised plainly)
    from clobbermania.cgt import game as G

    V.clear_cache()
    G.clear_caches()
    for text in random_boards(9, 4, 3, 3, 2):
        V.clobber_value(Position.from_string(text))
    full = np.flatnonzero(G._SK != -1)
    assert len(full) > 0
    for i in full.tolist()[:200]:
        key = int(G._SK[i])
        g, h = key >> 32, key & 0xFFFFFFFF
        a, b = G._objects[g], G._objects[h]
        plain = Game.from_options(
            [x + b for x in a.left_options] + [a + y for y in b.left_options],
            [x + b for x in a.right_options] + [a + y for y in b.right_options])
        assert G._SV[i] == plain.id
    for g in np.flatnonzero(G._NEG[:G.table_size()] >= 0).tolist()[:300]:
        a, n = G._objects[g], G._objects[int(G._NEG[g])]
        assert (a + n).id == Game(0).id and set(n.left_options) == \
            {-x for x in a.right_options}


def _images(h: int, w: int, b: int, x: int) -> list[tuple[int, int, int, int]]:
    """The 8 symmetric images of an h x w part as (H, W, black, white), square by square."""
    out = []
    for transpose in (False, True):
        for flip_r in (False, True):
            for flip_c in (False, True):
                H, W = (w, h) if transpose else (h, w)
                ib = ix = 0
                for r in range(h):
                    for c in range(w):
                        rr = h - 1 - r if flip_r else r
                        cc = w - 1 - c if flip_c else c
                        j = cc * W + rr if transpose else rr * W + cc
                        ib |= (b >> (r * w + c) & 1) << j
                        ix |= (x >> (r * w + c) & 1) << j
                out.append((H, W, ib, ix))
    return out


def test_canonical_kernel_is_the_least_image_square_by_square():
    from clobbermania.clobber._clobber_kernels import _crop, canonical

    rng = random.Random(17)
    shapes = [(1, 2), (2, 1), (1, 63), (63, 1), (3, 5), (5, 3), (4, 4), (7, 9), (9, 7),
              (7, 7), (2, 31), (6, 10)]
    for h, w in shapes:
        for _ in range(40):
            cells = [rng.choice("xo.") for _ in range(h * w)]
            b = sum(1 << i for i, c in enumerate(cells) if c == "x")
            x = sum(1 << i for i, c in enumerate(cells) if c == "o")
            plain = [(img, False) for img in _images(h, w, b, x)] + \
                [((H, W, ix, ib), True) for H, W, ib, ix in _images(h, w, b, x)]
            least = min(img for img, _ in plain)
            got = canonical(h, w, b, x)
            assert tuple(got[:4]) == least, (h, w, cells)
            assert (least, got[4]) in plain             # the flag names a swapped image
            if b | x:
                rows = [r for r in range(h) if any(cells[r * w + c] != "." for c in range(w))]
                cols = [c for c in range(w) if any(cells[r * w + c] != "." for r in range(h))]
                H, W = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
                sub = [cells[r * w + c] for r in range(rows[0], rows[-1] + 1)
                       for c in range(cols[0], cols[-1] + 1)]
                assert tuple(_crop(h, w, b, x)) == (
                    H, W, sum(1 << i for i, c in enumerate(sub) if c == "x"),
                    sum(1 << i for i, c in enumerate(sub) if c == "o"))
