"""Families P^n of impartial Clobber through shapes: values against a direct search written
here from the rules (the reference move generator and mex, nothing of the shape method),
against the MCGS oracle files, the periodicity rule, the (ooxx)^n proof, the CLI and the
reproduce claims."""

import itertools
import json
import random
from functools import cache

import pytest
from cli_runner import run_cli
from data_paths import MCGS_DATA

from clobbermania.clobber.families import (
    Periodicity,
    _Table,
    family,
    family_values,
    find_period,
    ooxx_proof,
    parse_pattern,
    primitive_root,
    prove_family,
    shape_row,
    shape_types,
)
from clobbermania.errors import NotationError, UnsupportedError
from clobbermania.stones import Position

MCGS = MCGS_DATA


@cache
def brute(row: str) -> int:
    """Grundy value of a row with holes by plain recursion: parts XOR, mex over every move
    of either colour."""
    parts = [s for s in row.split(".") if s]
    if len(parts) != 1:
        g = 0
        for part in parts:
            g ^= brute(part)
        return g
    pos = Position.from_string(parts[0])
    options = {brute(pos.play(m).text()) for m in pos.moves()}
    g = 0
    while g in options:
        g += 1
    return g


PATTERNS = ["".join(t) for k in range(1, 5) for t in itertools.product("xo", repeat=k)]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_family_values_match_direct_search(pattern):
    n = 16 // len(pattern)
    assert family_values(pattern, n) == [brute(pattern * i) for i in range(1, n + 1)]


@pytest.mark.parametrize("pattern", ["ox", "xxo", "ooxx", "xxoxo", "xoo"])
def test_every_shape_of_every_length_matches_direct_search(pattern):
    table = _Table(pattern, every_type=True)
    table.grow(13)
    for fl, a, fr in table.types:
        for length in range(2, 14):
            row = shape_row(pattern, fl, a, fr, length)
            assert table.value(fl, a, fr, length) == brute(row), (fl, a, fr, row)


@pytest.mark.parametrize("pattern", ["ox", "xxo", "ooxx", "xxoxo", "xoooxx", "xxxo"])
def test_closed_set_and_symmetries_lose_nothing(pattern):
    """Only the derived closed set is computed, with mirror images and colour swaps copied;
    every type computed in full gives the same values of P^n."""
    full = _Table(pattern, every_type=True)
    p = len(pattern)
    n = 150 // p
    full.grow(n * p)
    assert family_values(pattern, n) == [full.value(0, 0, 0, i * p) for i in range(1, n + 1)]


def test_shape_closure():
    # (ox)^n reaches all 16 shapes; xxo^n only 36 of the 4 * 3^2 = 36; x^n only itself
    assert len(shape_types("ox")) == 16
    assert len(shape_types("ooxx")) == 64
    assert [str(s) for s in shape_types("x")] == ["(0..0)"]
    shapes = shape_types("xxoo")
    assert all(0 <= s.first < 4 and 0 <= s.last < 4 for s in shapes)


def _mcgs_values(name):
    """(row, nim value) of every single-row case of an MCGS file, read by helper A's reader
    (``clobber.mcgs``)."""
    from clobbermania.clobber.mcgs import parse_test_file

    out = []
    for case in parse_test_file(MCGS / name):
        nims = [e.nim for e in case.expectations if e.player == "N" and e.nim is not None]
        if nims and case.board:
            out.append((case.board.lower(), nims[0]))
    return out


@pytest.mark.parametrize("name,pattern", [
    ("impartial__impartial-easy__impartial_clobber_1xn_xo.test", "xo"),
    ("impartial__impartial-easy__impartial_clobber_1xn_xxo.test", "xxo"),
])
def test_mcgs_oracles(name, pattern):
    cases = _mcgs_values(name)
    assert len(cases) >= 50
    n = max(len(row) // len(pattern) for row, _ in cases)
    values = family_values(pattern, n)
    for row, want in cases:
        k = len(row) // len(pattern)
        assert row == pattern * k
        assert values[k - 1] == want, (pattern, k)


def test_ox_losing_n_to_1500_independent_recurrence():
    """The claim 'no losing (ox)^n beyond n = 390' fails at n = 973: checked against the
    three-shape recurrence of the alternating row written out by hand (a: alternating,
    b: one end flipped, c: both ends flipped), vectorised with numpy."""
    import numpy as np

    def mex(arr):
        seen = np.zeros(int(arr.max()) + 2 if arr.size else 1, bool)
        seen[arr] = True
        return int(np.argmin(seen))

    top = 2 * 1000
    a = np.zeros(top + 1, np.int64)
    b = a.copy()
    c = a.copy()
    for L in range(2, top + 1):
        j = np.arange(0, L - 1)
        a[L] = mex(a[j] ^ b[L - 1 - j])
        j = np.arange(1, L - 1)
        b[L] = mex(np.concatenate([b[j] ^ b[L - 1 - j], c[j + 1] ^ a[L - 2 - j]]))
        j = np.arange(1, L - 2)
        c[L] = mex(c[j + 1] ^ b[L - 2 - j]) if L >= 4 else int(L == 2)
    values = family_values("ox", 1000)
    assert values == [int(a[2 * n]) for n in range(1, 1001)]
    assert [n for n, v in enumerate(values, 1) if v == 0][-3:] == [260, 389, 973]


def test_family_result_and_non_primitive_patterns():
    r = family("ooxx", 40)
    assert r.values == [0] + [3] * 39
    assert r.losing_share == pytest.approx(2.5)
    assert r.period == Periodicity(1, 1)
    # oxox repeated n times is (ox)^(2n)
    assert family_values("oxox", 30) == family_values("ox", 60)[1::2]
    assert primitive_root("xxoxxo") == ("xxo", 2)
    d = r.to_dict()
    assert d["period"] == {"period": 1, "preperiod": 1} and len(d["values"]) == 40


@pytest.mark.parametrize("bad", ["", "ox.", "xo/ox", "xa", "  "])
def test_bad_patterns(bad):
    with pytest.raises(NotationError):
        parse_pattern(bad)


def test_bad_sizes():
    with pytest.raises(UnsupportedError):
        family_values("ox", 0)


def test_period_detector_synthetic():
    rng = random.Random(7)
    for q in (1, 2, 5, 12):
        for s in (0, 3, 17):
            block = [rng.randrange(50) for _ in range(q)]
            pre = [100 + i for i in range(s)]       # never equal to a periodic value
            seq = pre + block * (max(3, s // q + 2) + 1)
            found = find_period(seq)
            # the smallest period may divide q when the block repeats itself
            assert found is not None and q % found.period == 0 and found.preperiod == s
    assert find_period([rng.randrange(1000) for _ in range(300)]) is None
    # three equal values at the end of a long aperiodic run are no evidence of period 1
    assert find_period(list(range(50)) + [7, 7, 7]) is None
    assert find_period([1, 2] * 2) is None                  # two periods are not enough
    assert find_period([1, 2] * 3) == Periodicity(2, 0)
    assert find_period([9] + [4] * 5) == Periodicity(1, 1)


def test_ooxx_proof():
    proof = ooxx_proof()
    assert proof.holds
    assert proof.values_from == {0: 3} and proof.first_n == 2
    assert proof.winning_move == "d1-e1"
    text = proof.text()
    assert "Q.E.D." in text and "FAILED" not in text
    # the proved values and the winning move, against direct search where it reaches
    for n in range(2, 5):
        pos = Position.from_string("ooxx" * n)
        assert brute(pos.text()) == 3
        assert brute(pos.play(pos.parse_move("d1-e1")).text()) == 0
        for k in range(1, n):
            move = pos.parse_move(f"{chr(96 + 4 * k)}1-{chr(97 + 4 * k)}1")
            assert brute(pos.play(move).text()) == 0
    assert brute("ooxx") == 0


def test_proof_needs_periodic_shapes():
    with pytest.raises(UnsupportedError):
        prove_family("ox", 80)
    proof = prove_family("xxoo", 60)             # the colour swap of ooxx
    assert proof.holds and proof.values_from == {0: 3}


def test_cli_family_json(capsys):
    code, out, err = run_cli(capsys, "grundy", "family", "ox", "--to", "30", "--json")
    assert code in (0, None)
    obj = json.loads(out)
    assert obj["values"][:8] == [1, 3, 0, 2, 0, 2, 0, 3] and len(obj["values"]) == 30
    assert obj["losing_share"] == pytest.approx(100 * 9 / 30)      # n = 3, 5, 7, 13, ..., 30
    assert obj["period"] is None and "seconds" in obj


def test_cli_family_text_and_errors(capsys):
    code, out, err = run_cli(capsys, "grundy", "family", "ooxx", "--to", "12")
    assert code in (0, None)
    assert "0 3 3 3" in out and "period: 1 from n = 2" in out
    code, out, err = run_cli(capsys, "grundy", "family", "ox.", "--to", "12")
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err
    code, out, err = run_cli(capsys, "grundy", "family", "ox", "--to", "0")
    assert code == 2 and "--to" in err


def test_reproduce_claims_pieces():
    from clobbermania.reproduce.grundy import _losing_share_claims, _ooxx_claim, _ox_claims

    shares = list(_losing_share_claims())
    assert len(shares) == 17
    # every published figure but 7 stones (28/128 = 21.875 %, printed 21.5) is reproduced
    assert [c.name for c in shares if not c.passed] == ["losing share of rows with 7 stones (%)"]
    assert _ooxx_claim().passed
    share, beyond = _ox_claims(1500)
    assert share.found == "differs: 1.73" and beyond.found == "differs: n = 973"
    assert share.status == beyond.status == "differs" and not share.failed
    assert [c.status for c in shares if not c.passed] == ["differs"]


def test_proof_catches_a_wrong_table(monkeypatch):
    """The proof re-derives every tabled value from the reference moves: one corrupted
    entry of the kernel's table makes it fail instead of proving a wrong statement."""
    from clobbermania.clobber import families

    grow = families._Table.grow

    def corrupted(self, max_length, progress=None):
        grow(self, max_length, progress)
        self.G[self.tindex[1, 2, 0], 9] ^= 1

    monkeypatch.setattr(families._Table, "grow", corrupted)
    proof = prove_family("ooxx", 60)
    assert not proof.holds
    assert "FAILED" in proof.text()
