"""`clobbermania reproduce clickomania`: the claim group runs and every claim holds."""

from math import comb, factorial

from clobbermania.reproduce import run_claims
from clobbermania.reproduce.clickomania import canonical_words


def stirling2(n: int, k: int) -> int:
    # S(n, k) by inclusion-exclusion: the number of words up to renaming with exactly k colours
    return sum((-1) ** j * comb(k, j) * (k - j) ** n for j in range(k + 1)) // factorial(k)


def test_canonical_words_counts_words_up_to_renaming():
    for n in range(1, 9):
        words = list(canonical_words(n, 3))
        assert len(words) == len(set(words)) == sum(stirling2(n, k) for k in (1, 2, 3))
        assert all(w[0] == 0 and max(w) <= 2 for w in words)


def test_reproduce_clickomania_all_claims_hold():
    claims = list(run_claims("clickomania"))
    assert len(claims) >= 6
    assert not [c.name for c in claims if c.failed]
    names = " ".join(c.name for c in claims)
    assert "Theorem 2" in names and "Theorem 14" in names and "Theorem 15" in names


def test_a_wrong_method_is_caught(monkeypatch):
    # the claim can fail: a method that calls every column solvable is flagged
    import clobbermania.clickomania.column as column
    from clobbermania.reproduce.clickomania import _disagreements

    real = column.solve_column

    def lenient(word, method="grammar", time_limit=None):
        r = real(word, "grammar")
        if method != "lenient":
            return r
        from dataclasses import replace
        return replace(r, solvable=True, max_removed=len(word))

    monkeypatch.setattr(column, "solve_column", lenient)
    count, bad = _disagreements(iter([(0, 0), (0, 1), (0, 1, 1, 0)]), "lenient", "grammar")
    assert count == 3 and bad == ["01"]


def test_long_runs_claim_passes_only_with_the_proof():
    # PASS needs agreement *and* the repeat of both recursions; agreement alone is a
    # report that says "not proved"; disagreement is a FAIL
    from clobbermania.clickomania.twoplayer import long_runs_proof
    from clobbermania.reproduce.clickomania import _long_runs_claim

    proof = long_runs_proof(8)
    assert proof["grundy_period"] == (1, 3) and proof["value_period"] == (2, 4)
    claim = _long_runs_claim(proof, 0.0)
    assert claim.status == "pass" and claim.found == "proved by the repeat of the recursion"
    no_repeat = _long_runs_claim(dict(proof, value_period=None), 0.0)
    assert no_repeat.status == "report" and not no_repeat.passed
    assert "not proved" in no_repeat.found and "proved by" not in no_repeat.found
    wrong = _long_runs_claim(dict(proof, checked=False), 0.0)
    assert wrong.status == "fail" and wrong.failed
