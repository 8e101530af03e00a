"""The hardness puzzles: 3-partition -> two columns, five colours (Biedl et al. Thm 14)."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from cli_runner import run_cli

from clobbermania.clickomania.hardness import (
    check_3partition,
    find_3partition,
    from_3partition,
    reduce_3partition,
    witness_from_partition,
)
from clobbermania.clickomania.rules import replay
from clobbermania.clickomania.solver import solve_clickomania
from clobbermania.errors import NotationError, UnsupportedError


def brute_has_3partition(a: list[int], t: int) -> bool:
    """Independent oracle: try every ordering, cut into consecutive triples."""
    for perm in itertools.permutations(a):
        if all(sum(perm[i:i + 3]) == t for i in range(0, len(perm), 3)):
            return True
    return False


def strong_instances(m: int, t_max: int):
    """Every multiset of 3m numbers in (t/4, t/2) with sum m*t, for t <= t_max."""
    for t in range(6, t_max + 1):
        vals = [v for v in range(1, t) if 4 * v > t and 2 * v < t]
        for combo in itertools.combinations_with_replacement(vals, 3 * m):
            if sum(combo) == m * t:
                yield list(combo), t


def random_yes_instance(rng: random.Random, m: int, t: int) -> list[int]:
    """m triples of sum t with every number in (t/4, t/2), shuffled."""
    lo, hi = t // 4 + 1, (t - 1) // 2
    if not any(4 * (t - x - y) > t and 2 * (t - x - y) < t
               for x in range(lo, hi + 1) for y in range(lo, hi + 1)):
        raise ValueError(f"no strong triple has sum {t}")  # e.g. t = 8
    out: list[int] = []
    while len(out) < 3 * m:
        x, y = rng.randint(lo, hi), rng.randint(lo, hi)
        z = t - x - y
        if 4 * z > t and 2 * z < t:
            out += [x, y, z]
    rng.shuffle(out)
    return out


def test_find_3partition_matches_brute_force_on_every_small_instance():
    seen_no = 0
    for a, t in strong_instances(2, 19):
        found = find_3partition(a)
        assert (found is not None) == brute_has_3partition(a, t), a
        if found is None:
            seen_no += 1
        else:
            assert sorted(x for tr in found for x in tr) == sorted(a)
            assert all(sum(tr) == t and len(tr) == 3 for tr in found)
    assert seen_no >= 3  # (4,4,4,4,4,6), (4,4,4,6,6,6), (5,5,5,5,5,7), ...


@pytest.mark.parametrize("m", [1, 2, 3])
def test_random_yes_instances_witness_clears(m):
    rng = random.Random(100 + m)
    for _ in range(4):
        a = random_yes_instance(rng, m, rng.choice([7, 9, 10, 11, 12, 13, 14, 15, 16]))
        r = reduce_3partition(a)
        assert r.certificate is not None and r.verified
        final = replay(r.board, r.moves)[-1]
        assert final.is_cleared
        assert r.board.width == 2 and len(r.board.color_counts()) == 5


def test_witness_rejects_a_wrong_partition():
    with pytest.raises(NotationError):
        witness_from_partition([4, 4, 5, 4, 4, 5], [[4, 4, 4], [5, 5, 4]])
    with pytest.raises(NotationError):
        witness_from_partition([4, 4, 5, 4, 4, 5], [[4, 4, 5], [4, 4, 5], [4, 4, 5]])
    # the triples in another order (and listed differently) clear too
    a = [4, 4, 5, 4, 4, 5]
    moves = witness_from_partition(a, [[4, 5, 4], [4, 4, 5]])
    assert replay(from_3partition(a).board, moves)[-1].is_cleared


@pytest.mark.parametrize("numbers", [(4, 4, 4, 4, 4, 6), (4, 4, 4, 6, 6, 6),
                                     (5, 5, 5, 5, 5, 7), (4, 4, 4, 4, 4, 4, 4, 5, 6)])
def test_smallest_no_instances_are_unsolvable_puzzles(numbers):
    # the three no-instances with m = 2 and t <= 16, and one with m = 3 (6 fits no triple)
    assert find_3partition(numbers) is None
    r = solve_clickomania(from_3partition(numbers).board, node_limit=10_000_000)
    assert r.exact and r.solvable is False


@pytest.mark.parametrize("numbers", [(2, 2, 2), (4, 4, 5, 4, 4, 5), (4, 4, 4, 5, 6, 7)])
def test_small_yes_instances_are_solvable_by_the_exact_solver(numbers):
    r = solve_clickomania(from_3partition(numbers).board, node_limit=10_000_000)
    assert r.exact and r.solvable is True


def test_every_m2_instance_up_to_t14_agrees_with_the_exact_solver():
    # the theorem on every instance the solver finishes quickly: solvable <=> 3-partition
    for a, t in strong_instances(2, 14):
        r = solve_clickomania(from_3partition(a).board, node_limit=10_000_000)
        assert r.exact and r.solvable == brute_has_3partition(a, t), a


def test_the_smallest_t_and_single_block_items():
    # t = 3 forces every a_i = 1 (1 in (3/4, 3/2)); at K = 1 an item would be one block,
    # which no click can remove: 1,1,1 is built at K = 2, and its witness clears it
    c = from_3partition([1, 1, 1])
    assert c.parameters["scale"] == 2 and c.parameters["proven"]
    assert min(c.parameters["item_blocks"]) == 2
    r = reduce_3partition("1,1,1")
    assert r.certificate == [[1, 1, 1]] and r.verified
    assert solve_clickomania(c.board, node_limit=1_000_000).solvable is True
    for m in (1, 2):  # every instance with t <= 5 (1,1,1; 2,2,2 and 2x it; ...)
        for t in range(3, 6):
            vals = [v for v in range(1, t) if 4 * v > t and 2 * v < t]
            for combo in itertools.combinations_with_replacement(vals, 3 * m):
                if sum(combo) == m * t:
                    r = reduce_3partition(list(combo))
                    assert r.verified == brute_has_3partition(list(combo), t), combo
    with pytest.raises(UnsupportedError, match="single block"):
        from_3partition([1, 1, 1, 1, 1, 1], scale=1)


def test_parameters_and_layout():
    c = from_3partition([4, 4, 5, 4, 4, 5])
    p = c.parameters
    assert (p["columns"], p["colors"], p["m"], p["t"], p["scale"]) == (2, 5, 2, 13, 3)
    left, right = c.board.columns
    assert left.count(0) == 3 * 26 and left.count(3) == 2
    assert right.count(3) == 2 and right.count(4) == p["base_length"] + 1
    # the inert word and the cap are mirror images; nothing in R meets L's colours
    assert set(right) == {3, 4} and 4 not in left


@pytest.mark.parametrize("bad, word", [
    ("1,2,3", "strictly between"),
    ("4,4,5,4,4", "multiple of 3"),
    ("4,4,5,4,4,x", "not a whole number"),
    ("0,4,5", "not positive"),
    ("4,4,5,4,4,6", "not a multiple of m"),
    ("", "no numbers"),
])
def test_bad_instances(bad, word):
    with pytest.raises(NotationError, match=word):
        check_3partition(bad)


def test_cli_json(capsys):
    code, out, err = run_cli(capsys, "clickomania", "hardness", "3partition", "4,4,5,4,4,5",
                             "--json")
    assert code in (0, None) and err == ""
    d = json.loads(out)
    assert d["certificate"] == [[5, 4, 4], [5, 4, 4]] and d["verified"] is True
    from clobbermania.clickomania.rules import Board

    assert replay(Board.from_string(d["board"]), d["moves"])[-1].is_cleared
    assert d["parameters"]["columns"] == 2 and "seconds" in d


def test_cli_no_instance_and_errors(capsys):
    code, out, _ = run_cli(capsys, "clickomania", "hardness", "3partition", "4,4,4,4,4,6",
                           "--json", "--solve")
    d = json.loads(out)
    assert d["certificate"] is None and d["moves"] is None
    assert d["solver"]["exact"] and d["solver"]["solvable"] is False
    code, out, err = run_cli(capsys, "clickomania", "hardness", "3partition", "1,2,3")
    assert code == 2 and err.startswith("error: the number 1") and "Traceback" not in err


def test_scale_option():
    a = [4, 4, 5, 4, 4, 5]
    small = from_3partition(a, scale=1)
    assert small.parameters["proven"] is False and from_3partition(a).parameters["proven"]
    assert small.board.height < from_3partition(a).board.height
    r = reduce_3partition(a, scale=1)
    assert r.verified and replay(r.board, r.moves)[-1].is_cleared
    # the unscaled no-instance is unsolvable too (an observation the benchmark extends)
    assert solve_clickomania(from_3partition([4, 4, 4, 4, 4, 6], scale=1).board,
                             time_limit=60).solvable is False
    for bad in (0, -2, 1.5, True):
        with pytest.raises(NotationError, match="scale"):
            from_3partition(a, scale=bad)


def test_cli_text_and_svg(capsys, tmp_path):
    svg = tmp_path / "w.svg"
    code, out, err = run_cli(capsys, "clickomania", "hardness", "3partition", "2,2,2",
                             "--svg", str(svg))
    assert code in (0, None) and err == ""
    assert "witness (7 clicks" in out and "a5 a8 a11 a9 b11 a10 a11" in out
    text = svg.read_text()
    assert text.startswith("<svg") and text.count('<g class="board"') == 8
