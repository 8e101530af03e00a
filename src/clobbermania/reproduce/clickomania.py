"""Claims about Clickomania (Biedl et al., *The Complexity of Clickomania*), re-derived.

* **Theorem 2** (a one-column puzzle is solvable exactly when the grammar
  ``S -> empty | SS | cSc | cScSc`` derives it): our grammar DP
  (:func:`clobbermania.clickomania.column.solve_column`) agrees with an exhaustive search
  of the clicks, on solvability *and* on the most blocks removable, for every column of up
  to 9 blocks over at most 3 colours (colours named by first appearance); every witness is
  replayed by the reference rules.
* **Theorems 10 and 12** (two colours: linear-time decision and solution): the two-colour
  method agrees with the grammar DP on every two-colour column of up to 14 blocks.
* **Theorem 14** (3-partition -> a 2-column, 5-colour puzzle): the puzzle of a yes-instance
  is cleared by the click sequence built from its 3-partition (replayed), and the exact
  solver proves the puzzle of the smallest no-instances unsolvable.
* **Theorem 15** (3-SAT is reducible to Clickomania): our reduction
  (:mod:`clobbermania.clickomania.hardness_sat`, two columns and six colours, not the
  paper's five columns and three colours, whose gadgets are unpublished): the puzzle of a
  satisfiable formula is cleared by the click sequence built from a satisfying assignment
  (replayed), and the exact solver proves the puzzle of an unsatisfiable one unsolvable.
* **Section 5** (two-player variants): nothing is published to compare with. The closed
  forms of two-colour lines of long runs
  (:func:`clobbermania.clickomania.twoplayer.long_runs_proof`) pass only when proved: they
  agree with the recursion and the search, and the recursion is seen to repeat (without
  a repeat the claim reports how far they agree, status "report"). The census of the
  values of every one-column two-colour puzzle of up to 12 blocks is reported.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

from . import Claim, register

#: Exhaustive limits (each claim runs in about a second).
GRAMMAR_MAX_BLOCKS = 9
GRAMMAR_COLORS = 3
TWO_COLOR_MAX_BLOCKS = 14
TWO_PLAYER_MAX_BLOCKS = 12
#: 3-partition instances: a yes-instance and the no-instances with m = 2 that the exact
#: solver decides in well under a second.
PARTITION_YES = (4, 4, 5, 4, 4, 5)
PARTITION_NO = [(4, 4, 4, 4, 4, 6), (4, 4, 4, 6, 6, 6)]
#: 3-SAT: a satisfiable formula and the smallest unsatisfiable one (each about a second).
SAT_YES = "(x|y)&(~x)"
SAT_NO = "(x)&(~x)"


def canonical_words(n: int, colors: int) -> Iterator[tuple[int, ...]]:
    """Every word of length ``n`` over at most ``colors`` colours, up to renaming (each
    colour is named by its first appearance: 0, then 1, ...).

    >>> list(canonical_words(3, 2))
    [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    """
    def extend(prefix: tuple[int, ...], used: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == n:
            yield prefix
            return
        for c in range(min(used + 1, colors)):
            yield from extend(prefix + (c,), max(used, c + 1))
    yield from extend((), 0)


def _disagreements(words: Iterator[tuple[int, ...]], method: str, oracle: str
                   ) -> tuple[int, list[str]]:
    """Solve each word by ``method`` and by ``oracle``; count them and list the words where
    solvability or the most blocks removable differ, or the witness of ``method`` does not
    remove what it claims on replay."""
    from ..clickomania.column import solve_column
    from ..clickomania.rules import replay

    count, bad = 0, []
    for word in words:
        r = solve_column(word, method)
        o = solve_column(word, oracle)
        count += 1
        left = replay(r.puzzle.board, r.moves)[-1].n_blocks
        if (r.solvable, r.max_removed) != (o.solvable, o.max_removed) \
                or left != len(word) - r.max_removed:
            bad.append("".join(map(str, word)))
    return count, bad


def _grammar_claims() -> Iterator[Claim]:
    t0 = time.perf_counter()
    words = (w for n in range(1, GRAMMAR_MAX_BLOCKS + 1)
             for w in canonical_words(n, GRAMMAR_COLORS))
    count, bad = _disagreements(words, "grammar", "brute")
    yield Claim(f"Theorem 2: the grammar decides every column of <= {GRAMMAR_MAX_BLOCKS} "
                f"blocks over <= {GRAMMAR_COLORS} colours (and its DP finds the optimum)",
                "agrees with exhaustive search", ", ".join(bad[:5]) or f"agrees on {count:,}",
                not bad, "solvable and max removed, grammar DP vs brute force; witnesses "
                "replayed", time.perf_counter() - t0)

    t0 = time.perf_counter()
    words = ((0,) + rest for n in range(1, TWO_COLOR_MAX_BLOCKS + 1)
             for rest in itertools.product((0, 1), repeat=n - 1))
    count, bad = _disagreements(words, "two-color", "grammar")
    yield Claim(f"Theorems 10 and 12: the linear two-colour method on every two-colour "
                f"column of <= {TWO_COLOR_MAX_BLOCKS} blocks", "agrees with the grammar",
                ", ".join(bad[:5]) or f"agrees on {count:,}", not bad,
                "solvable and max removed; witnesses replayed", time.perf_counter() - t0)


def _undecided_status(found: str) -> str:
    """A puzzle the exact solver did not decide within its time is reported, not failed
    (nothing was contradicted); "solvable" is a FAIL."""
    return "report" if found == "undecided" else ""


def _partition_claims() -> Iterator[Claim]:
    from ..clickomania.hardness import from_3partition, reduce_3partition
    from ..clickomania.solver import solve_clickomania

    t0 = time.perf_counter()
    r = reduce_3partition(PARTITION_YES)
    yield Claim(f"Theorem 14: the puzzle of the yes-instance {PARTITION_YES} is cleared",
                "cleared by the witness", "cleared" if r.verified else "not cleared",
                r.verified, f"3-partition {r.certificate}, {len(r.moves or [])} clicks, "
                f"{r.board.n_blocks} blocks in 2 columns", time.perf_counter() - t0)
    for numbers in PARTITION_NO:
        t0 = time.perf_counter()
        c = from_3partition(numbers)
        s = solve_clickomania(c.board, time_limit=30)
        found = "unsolvable" if s.exact and s.solvable is False else \
            "solvable" if s.solvable else "undecided"
        yield Claim(f"Theorem 14: the puzzle of the no-instance {numbers} is unsolvable",
                    "unsolvable", found, found == "unsolvable",
                    f"exact solver: {s.proof}, {s.nodes:,} nodes", time.perf_counter() - t0,
                    _undecided_status(found))


def _sat_claims() -> Iterator[Claim]:
    from ..clickomania.hardness_sat import reduce_3sat
    from ..clickomania.solver import solve_clickomania

    t0 = time.perf_counter()
    r = reduce_3sat(SAT_YES)
    p = r.construction.parameters
    yield Claim(f"Theorem 15 (3-SAT; our puzzle: {p['columns']} columns, {p['colors']} "
                f"colours): the puzzle of the satisfiable {SAT_YES} is cleared",
                "cleared by the witness", "cleared" if r.verified else "not cleared",
                r.verified, f"assignment {r.certificate}, {len(r.moves or [])} clicks, "
                f"{r.board.n_blocks} blocks", time.perf_counter() - t0)
    t0 = time.perf_counter()
    r = reduce_3sat(SAT_NO)
    s = solve_clickomania(r.board, time_limit=30)
    found = "unsolvable" if s.exact and s.solvable is False else \
        "solvable" if s.solvable else "undecided"
    yield Claim(f"Theorem 15 (3-SAT; our puzzle): the puzzle of the unsatisfiable {SAT_NO} "
                "is unsolvable", "unsolvable", found,
                found == "unsolvable" and r.certificate is None and r.certificate_known,
                f"DPLL: no assignment; exact solver: {s.proof}, {s.nodes:,} nodes, "
                f"{r.board.n_blocks} blocks", time.perf_counter() - t0,
                _undecided_status(found) if r.certificate is None and r.certificate_known
                else "")


def _long_runs_claim(p: dict, seconds: float) -> Claim:
    """The closed forms of lines of long runs, from :func:`long_runs_proof`'s result: PASS
    only when they agree with the recursion and the search *and* both recursions were
    seen to repeat (the repeat is the proof for every m); agreement without a repeat is a
    report of what was checked, not a proof; disagreement is a FAIL."""
    periods = (f"Grundy period {p['grundy_period']}, value period {p['value_period']}; "
               f"recursion to m = {p['layers'] - 1}, search to {TWO_PLAYER_MAX_BLOCKS} runs")
    repeated = p["grundy_period"] is not None and p["value_period"] is not None
    if not p["checked"]:
        found, status = "the closed forms fail", "fail"
    elif repeated:
        found, status = "proved by the repeat of the recursion", "pass"
    else:
        found, status = (f"agree up to m = {p['layers'] - 1}, but no repeat was found: "
                         "not proved"), "report"
    return Claim("two-colour lines of m long runs: Grundy 0, 1, then 0, *2, * repeating; "
                 "partizan 0, 1, then 0, 1/2, *, 1/2* repeating", "closed forms", found,
                 status == "pass", periods, seconds, status)


def _two_player_claims() -> Iterator[Claim]:
    from ..clickomania.twoplayer import column_statistics, column_values, long_runs_proof

    t0 = time.perf_counter()
    yield _long_runs_claim(long_runs_proof(TWO_PLAYER_MAX_BLOCKS), time.perf_counter() - t0)
    t0 = time.perf_counter()
    stats = column_statistics(TWO_PLAYER_MAX_BLOCKS, column_values(TWO_PLAYER_MAX_BLOCKS))
    last = stats[-1]
    only_numbers = all(s["other"] == 0 for s in stats)
    yield Claim(f"every one-column two-colour partizan value (<= {TWO_PLAYER_MAX_BLOCKS} "
                "blocks) is a number or a number plus *", "observation",
                "holds" if only_numbers else "fails", only_numbers,
                f"n = {last['n']}: {last['count']:,} columns, outcomes {last['outcomes']}, "
                f"Grundy {last['grundy']}, {last['distinct_values']} distinct values",
                time.perf_counter() - t0, "report" if only_numbers else "")


@register("clickomania")
def clickomania_claims() -> Iterator[Claim]:
    yield from _grammar_claims()
    yield from _partition_claims()
    yield from _sat_claims()
    yield from _two_player_claims()
