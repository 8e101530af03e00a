"""One-column Clickomania: the grammar DP, the two-colour theorems and the brute force
against an independent brute force written here, every witness replayed by the rules."""

from __future__ import annotations

import functools
import json
import random

import pytest
from cli_runner import run_cli

from clobbermania.clickomania.column import (
    BRUTE_MAX_BLOCKS,
    ColumnPuzzle,
    is_solvable,
    max_removable,
    solve_column,
)
from clobbermania.clickomania.rules import Board, replay
from clobbermania.errors import NotationError, UnsupportedError


@functools.cache
def oracle(s: str) -> int:
    """Most blocks removable from the block string s: try every maximal run of >= 2."""
    best = 0
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        if j - i >= 2:
            best = max(best, j - i + oracle(s[:i] + s[j:]))
        i = j
    return best


def canonical_strings(n: int, k: int):
    """Every string of n blocks over at most k colours, colours named in order of first
    appearance (so each string up to colour permutation once)."""
    def rec(prefix: str, used: int):
        if len(prefix) == n:
            yield prefix
            return
        for c in range(min(used + 1, k)):
            yield from rec(prefix + "123456789"[c], max(used, c + 1))
    yield from rec("", 0)


def check(text: str, method: str) -> None:
    """The answer of ``method`` equals the oracle's, and its witness replays to it."""
    r = solve_column(text, method)
    blocks = "".join(str(x) for x in ColumnPuzzle.from_string(text).blocks)
    best = oracle(blocks)
    assert r.exact
    assert r.max_removed == best, (text, method)
    assert r.solvable == (best == len(blocks)), (text, method)
    end = replay(r.puzzle.board, r.moves)[-1]
    assert r.puzzle.board.n_blocks - end.n_blocks == best, (text, method, r.moves)
    assert r.removed == best


def test_every_string_up_to_8_blocks():
    count = 0
    for n in range(1, 9):
        for s in canonical_strings(n, 4):
            check(s, "grammar")
            if len(set(s)) <= 2:
                check(s, "two-color")
            if n <= 6:
                check(s, "brute")
            count += 1
    assert count == 3771  # sum of Stirling numbers S(n, k), k <= 4, n <= 8


def test_two_colour_strings_up_to_12_blocks():
    # all 2-colour strings up to 12 blocks: the theorems and the grammar agree with the oracle
    for n in range(9, 13):
        for s in canonical_strings(n, 2):
            r2 = solve_column(s, "two-color")
            rg = solve_column(s, "grammar")
            best = oracle(s)
            assert r2.max_removed == rg.max_removed == best, s
            assert r2.solvable == (best == n)


def test_random_longer_strings():
    rng = random.Random(6)
    for _ in range(60):
        n = rng.randint(12, 20)
        k = rng.choice([2, 3, 4, 5])
        s = "".join(rng.choice("12345"[:k]) for _ in range(n))
        check(s, "grammar")
        if len(set(s)) <= 2:
            check(s, "two-color")
    for _ in range(8):  # the module's brute force on longer strings
        s = "".join(rng.choice("123") for _ in range(18))
        check(s, "brute")


def test_columns_are_the_same_game_with_squares_in_the_column():
    rng = random.Random(7)
    for _ in range(30):
        s = "".join(rng.choice("123") for _ in range(rng.randint(5, 14)))
        col = "/".join(s)
        for method in ("grammar", "brute"):
            rr = solve_column(s, method)
            rc = solve_column(col, method)
            assert rc.puzzle.orientation == "column"
            assert rr.max_removed == rc.max_removed
            end = replay(rc.puzzle.board, rc.moves)[-1]
            assert rc.puzzle.board.n_blocks - end.n_blocks == rc.max_removed
            assert all(m.startswith("a") for m in rc.moves)


def test_published_examples():
    # the one-dimensional Clickomania problem (ACM ICPC, "Clickomania"): ABBAABBAAB is
    # solvable, ABBAAAAB is not
    assert is_solvable("1221122112")
    assert not is_solvable("12211112")
    # the grammar's own productions: cSc, cScSc, SS
    for s in ("11", "134431", "1221331", "12213443", "12211222"):
        assert is_solvable(s) and oracle(s) == len(s), s
    for s in ("121", "12213441", "1212"):
        assert not is_solvable(s) and oracle(s) < len(s), s
    # runs that meet early: in 1 22 1 33 1 44 1, clicking 22 first joins the outer 1 to
    # the second, which a plan must then treat as one group
    for s in ("1221331441", "1223322113344311"):
        check(s, "grammar")


def test_two_colour_median_rule():
    # seven groups (t = 3), the median a single block: solvable iff the nearest groups of
    # two or more blocks on each side, at distances a and b, have a + b <= t
    cases = {
        "122121221": False,   # 1 22 1 [2] 1 22 1: a = b = 2
        "121121221": True,    # 1 2 11 [2] 1 22 1: a = 1, b = 2
        "122112121": False,   # big groups on the left only
        "12122121": True,     # the median group is big
    }
    for s, solvable in cases.items():
        r = solve_column(s, "two-color")
        assert r.solvable is solvable, s
        assert (oracle(s) == len(s)) is solvable, s
    # an even number of groups splits into two odd solvable parts
    r = solve_column("1121122", "two-color")
    assert r.solvable and "even number of groups" in r.proof


def test_two_colour_long_strings_agree_with_the_grammar():
    # two independent exact algorithms: Theorems 10/12 with the O(n log n) optimization,
    # and the grammar DP; sparse big groups so that many strings are not solvable
    import numpy as np

    from clobbermania.clickomania import _column_kernels as K

    rng = random.Random(12)
    unsolvable = 0
    for _ in range(40):
        n = rng.randint(30, 150)
        p_big = rng.choice([0.02, 0.05, 0.2])
        s = "".join(("11" if rng.random() < p_big else "1") if i % 2 == 0 else
                    ("22" if rng.random() < p_big else "2") for i in range(n))
        r2 = solve_column(s, "two-color")
        rg = solve_column(s, "grammar")
        assert r2.max_removed == rg.max_removed and r2.solvable == rg.solvable, s
        unsolvable += not r2.solvable
        end = replay(r2.puzzle.board, r2.moves)[-1]
        assert r2.puzzle.board.n_blocks - end.n_blocks == r2.max_removed
        mult = np.array([m for _, m in r2.puzzle.runs], dtype=np.int64)
        best, _ = K.k_two_optimize(mult)
        kept, _ = K.k_two_min_kept(mult)
        assert best[-1] == mult.sum() - kept[-1]
    assert unsolvable >= 8


def test_interval_rows_equal_the_cell_by_cell_table():
    # the two forms of the grammar DP on strings too long for a brute force: every interval
    import numpy as np

    from clobbermania.clickomania import _column_kernels as K
    from clobbermania.clickomania.column import _run_arrays

    rng = random.Random(31)
    for t in range(30):
        half = [rng.randrange(rng.choice([2, 3, 5])) for _ in range(rng.randint(40, 160))]
        colors = half + half[::-1] if t % 3 == 0 else half  # palindromes: many clearable
        col, mult, k = _run_arrays(ColumnPuzzle.from_colors(colors))
        A, B, _, _ = K.k_clearable_table(col, mult, k)
        R, _, _ = K.k_clearable_rows(col, mult, k)
        n = len(col)

        def bits(x):
            return np.unpackbits(x.view(np.uint8), axis=1, bitorder="little")

        table = bits(A)[:n, 1:n + 1]  # A[i] has bit j+1 for i..j
        rows = bits(R)[:n, :n]
        assert table.any() and (table == rows).all()
        assert K.k_optimize(mult, B)[0][n] == K.k_optimize_rows(mult, R)[0][n]


def test_large_string_is_fast_and_its_witness_replays():
    rng = random.Random(2000)
    runs = []
    last = -1
    while len(runs) < 300:
        c = rng.randrange(5)
        if c != last:
            runs.append(str(c + 1) * rng.choice([1, 1, 2]))
            last = c
    s = "".join(runs)
    r = solve_column(s)
    # fast because polynomial: the grammar DP of Theorem 2 answers, exactly, with no search
    assert r.method == "grammar" and r.exact and r.nodes == 0
    end = replay(r.puzzle.board, r.moves)[-1]
    assert r.puzzle.board.n_blocks - end.n_blocks == r.max_removed
    assert end.is_dead
    assert max_removable(s) == r.max_removed


def test_errors():
    with pytest.raises(UnsupportedError, match="at most two colours"):
        solve_column("123", "two-color")
    with pytest.raises(UnsupportedError, match="one row or one column"):
        solve_column("12/21")
    with pytest.raises(UnsupportedError, match=str(BRUTE_MAX_BLOCKS)):
        solve_column("12" * 13, "brute")
    with pytest.raises(NotationError, match="unknown method"):
        solve_column("11", "magic")
    with pytest.raises(NotationError):
        solve_column("1!2")


def test_brute_time_limit_gives_bounds():
    rng = random.Random(80)
    s = "".join(rng.choice("123") for _ in range(80))
    r = solve_column(s, "brute", time_limit=0.05)
    assert not r.exact and r.solvable is None and r.max_removed is None
    assert r.lower_bound <= solve_column(s).max_removed <= r.upper_bound <= len(s)
    end = replay(r.puzzle.board, r.moves)[-1]
    assert r.puzzle.board.n_blocks - end.n_blocks == r.lower_bound == r.removed
    d = r.to_dict()
    assert d["exact"] is False and d["lower_bound"] == r.lower_bound


def test_empty_board():
    r = solve_column(Board.from_string(".."))
    assert r.solvable and r.max_removed == 0 and r.moves == ()


def test_cli(capsys, tmp_path):
    code, out, err = run_cli(capsys, "clickomania", "column", "1/2/2/1/2/2/1", "--method",
                             "two-color", "--json")
    assert code == 0 and err == ""
    d = json.loads(out)
    assert d["solvable"] is True and d["max_removed"] == 7 and d["n_blocks"] == 7
    assert d["method"] == "two-color" and "complexity" in d and "seconds" in d
    assert len(replay(Board.from_string("1/2/2/1/2/2/1"), d["moves"])[-1].columns) == 0
    code, out, _ = run_cli(capsys, "clickomania", "column", "12123")
    assert code == 0 and "not solvable" in out and "0 of 5" in out
    code, out, err = run_cli(capsys, "clickomania", "column", "123", "--method", "two-color")
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err
    code, _, err = run_cli(capsys, "clickomania", "column", "12" * 20, "--method", "brute")
    assert code == 2 and "24 blocks" in err
    code, out, _ = run_cli(capsys, "clickomania", "column", "12" * 20, "--method", "brute",
                           "--time-limit", "5", "--json")
    d = json.loads(out)
    assert code == 0 and (d["exact"] is False or d["max_removed"] == 0)
    svg = tmp_path / "w.svg"
    code, out, _ = run_cli(capsys, "clickomania", "column", "1221331", "--svg", str(svg))
    assert code == 0 and "moves (3, removing 7)" in out
    assert svg.read_text().count('class="board"') == 4
