"""Claims of the French study *Un jeu combinatoire : le Clobber* (impartial Clobber on a
row), re-derived by our own computations.

* The losing share by number of stones, 2..18: the row database (``clobber.rowdb``,
  every row of each length) gives the percentage of rows of value 0; a published figure
  passes when it is our percentage rounded to one decimal.
* The Grundy distribution over "250 millions" rows. The published percentages are not
  in our sources, so they cannot be compared: the group reports our distribution over
  the candidate sets (the first 250,000,000 rows in the order of issue 4, and every row
  of 1..27 stones, 268,435,454 rows, which is what "250 millions" most likely rounds),
  read from the row database of 27 stones at the default location, once every file
  matches its checksum (a damaged database is a FAIL and is not used), or built for the
  run in a temporary directory (about 30 s on the 2-core test machine).
* ``(ooxx)^n`` has value 3 for n >= 2: by the shape-method proof
  (``families.ooxx_proof``), every step checked by program.
* ``(ox)^n``: "about 1.67 % losing, none beyond n = 390", checked for n <= 1500 with the
  shape tables (``families.family``).

A claim whose published value our computation contradicts has status "differs", its
``found`` text starting with "differs:" (the study's figure, not our computation, is then
the suspect: every value here is checked against brute force in the tests); the
distribution, with nothing published to compare, has status "report".
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator

from . import Claim, register

#: The study's losing shares (percent) by number of stones, 2..18.
LOSING_SHARE = {2: 50, 3: 25, 4: 37.5, 5: 37.5, 6: 37.5, 7: 21.5, 8: 23.4, 9: 23.4, 10: 27.1,
                11: 21.4, 12: 22.2, 13: 20.8, 14: 22.3, 15: 19.9, 16: 20.0, 17: 18.5,
                18: 18.9}


def _percent_claim(name: str, expected: float, found: float, detail: str,
                   seconds: float) -> Claim:
    """Pass when ``found`` rounds to the published one-decimal figure."""
    ok = abs(found - expected) < 0.05 + 1e-9
    shown = f"{found:.2f}" if ok else f"differs: {found:.2f}"
    return Claim(name, expected, shown, ok, detail, seconds, "" if ok else "differs")


def _distribution_text(distribution: list[float]) -> str:
    return " ".join(f"{v}:{d:.2f}%" for v, d in enumerate(distribution) if d >= 0.005)


def _losing_share_claims(db=None) -> Iterator[Claim]:
    """The 17 published losing shares, from ``db`` (a RowDatabase of at least 18 stones)
    or from one built to 18 stones in a temporary directory."""
    from ..clobber.rowdb import build_database, row_statistics

    t0 = time.perf_counter()
    if db is None:
        with tempfile.TemporaryDirectory() as d:
            stats = row_statistics(build_database(d, max_stones=18), min_stones=2)
    else:
        stats = row_statistics(db, max_stones=18, min_stones=2)
    seconds = time.perf_counter() - t0
    for n, expected in LOSING_SHARE.items():
        found = stats.losing_share_by_length[n]
        zeros = stats.counts_by_length[n][0]
        yield _percent_claim(f"losing share of rows with {n} stones (%)", expected, found,
                             f"{zeros:,} of {2 ** n:,} rows have value 0", seconds)
        seconds = 0.0


def _cached_database(min_stones: int):
    """The row database at the default location, if it covers ``min_stones`` and every
    file matches its checksum (:meth:`RowDatabase.verify`): (database or None, None). A
    damaged one is not used: (None, a failed claim saying so)."""
    from ..clobber.rowdb import RowDatabase, RowDatabaseError

    t0 = time.perf_counter()
    try:
        db = RowDatabase.open()
    except RowDatabaseError:
        return None, None
    if db.max_stones < min_stones:
        return None, None
    try:
        db.verify()
    except RowDatabaseError as e:
        return None, Claim(f"the cached row database in {db.path} matches its checksums",
                           "every file matches", str(e), False,
                           "its tables are not used; a database is built for this run",
                           time.perf_counter() - t0)
    return db, None


def _database_claims() -> Iterator[Claim]:
    """The losing shares and the distribution, from the row database of 27 stones at the
    default location, or one built for the run in a temporary directory."""
    from ..clobber.rowdb import build_database, row_statistics

    t0 = time.perf_counter()
    note = "the study's percentages are not in our sources: reported, not compared"
    db, damaged = _cached_database(27)
    if damaged is not None:
        yield damaged
    elif db is not None:
        note += f"; the cached database in {db.path} matches its checksums"
    with tempfile.TemporaryDirectory() as d:
        if db is None:           # about 30 s and 2^27 bytes on the 2-core test machine
            db = build_database(d, max_stones=27)
            note += "; database of 27 stones built for this run"
        build = time.perf_counter() - t0
        yield from _losing_share_claims(db)
        for label, kwargs in (("the first 250,000,000 rows (issue 4 order)",
                               {"first": 250_000_000}),
                              ("every row of 1..27 stones", {"max_stones": 27})):
            t0 = time.perf_counter()
            stats = row_statistics(db, **kwargs)
            yield Claim(f"Grundy distribution over {label}", "not available",
                        _distribution_text(stats.distribution), True,
                        f"{stats.rows:,} rows; {note}", time.perf_counter() - t0 + build,
                        "report")
            build = 0.0
        del db


def _ooxx_claim() -> Claim:
    from ..clobber.families import ooxx_proof

    t0 = time.perf_counter()
    proof = ooxx_proof()
    found = f"3 for n >= 2, proved ({len(proof.steps)} steps)" if proof.holds else \
        "proof failed: " + "; ".join(s.claim[:60] for s in proof.steps if not s.checked)
    return Claim("(ooxx)^n has value 3 for n >= 2", "3 for n >= 2", found, proof.holds,
                 f"shape method: every shape's value has period {proof.period} in its length "
                 f"from {proof.threshold} stones, each step checked by program; winning "
                 f"first move {proof.winning_move} (any capture between squares 4k and "
                 "4k + 1)", time.perf_counter() - t0)


def _ox_claims(n: int = 1500) -> Iterator[Claim]:
    from ..clobber.families import family

    t0 = time.perf_counter()
    result = family("ox", n)
    seconds = time.perf_counter() - t0
    losing = [i + 1 for i, v in enumerate(result.values) if v == 0]
    yield _percent_claim(f"(ox)^n: about 1.67 % of n <= {n} losing", 1.67,
                         result.losing_share,
                         f"{len(losing)} losing n of {n}: {', '.join(map(str, losing))}",
                         seconds)
    beyond = [m for m in losing if m > 390]
    yield Claim(f"(ox)^n: no losing n beyond 390 (checked to {n})", "none",
                "none" if not beyond else f"differs: n = {', '.join(map(str, beyond))}",
                not beyond, f"last losing n at or below 390: "
                f"{max((m for m in losing if m <= 390), default=None)}", 0.0,
                "" if not beyond else "differs")


@register("grundy")
def grundy_claims() -> Iterator[Claim]:
    yield from _database_claims()
    yield _ooxx_claim()
    yield from _ox_claims()
