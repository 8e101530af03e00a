"""The CGT-aided bitboard search (issue 28): small parts valued inside the search and
folded into one summed value G, which the search plays in as a game ("big parts + G").

Held against the plain bitboard search (parts off) and against the values of
:mod:`clobbermania.clobber.values`: the winner and the winning-move list on every
rectangle up to 4x5 and 3x6 and on random positions; a reduced position has the value of
the original."""

from __future__ import annotations

import random

import numpy as np
import pytest
from data_paths import FRONTIER_RESULTS, MCGS_FRONTIER

from clobbermania.clobber import _search_kernels as K
from clobbermania.clobber import search
from clobbermania.clobber.values import clobber_value
from clobbermania.stones import BLACK, WHITE, Position


def random_position(rng: random.Random, rows: int, cols: int, holes: float) -> Position:
    cells = ["." if (x := rng.random()) < holes else "x" if x < holes + (1 - holes) / 2
             else "o" for _ in range(rows * cols)]
    return Position.from_string("/".join("".join(cells[r * cols:(r + 1) * cols])
                                         for r in range(rows)))


def engine(board, pmax: int, chunk: int = 50_000_000) -> search._Engine:
    """A fresh engine with parts of up to ``pmax`` stones valued; kernel calls of at most
    ``chunk`` nodes (the parts a call lists are valued after it). (A call resumes from the
    root, so a small ``chunk`` must still exceed the nodes of walking back down to where
    the last call stopped.)"""
    old = search.PART_STONES
    search.PART_STONES = pmax
    try:
        e = search._Engine(board)
    finally:
        search.PART_STONES = old
    e.max_chunk = chunk
    return e


def warm_engine(p: Position, color: int, pmax: int) -> search._Engine:
    """An engine with a fresh transposition table whose part and sum tables already hold
    every part and pair of values that a search of p met: the search uses them from its
    first node (a small search is done in one kernel call, before any part is valued)."""
    first = engine(p.board, pmax)
    outcome_and_moves(first, p, color)
    e = engine(p.board, pmax)
    e.parts, e.sums, e.values = first.parts, first.sums, first.values
    return e


def outcome_and_moves(e: search._Engine, p: Position, color: int) -> tuple[bool, list]:
    """Whether ``color`` to move wins p, and its winning first moves, on engine e."""
    budget = search._Budget(None, None)
    me, opp = (p.black, p.white) if color == BLACK else (p.white, p.black)
    root = e.wins(me, opp, budget)
    moves = []
    for mv in p.moves(color):
        nme = (me & ~(1 << mv.src)) | (1 << mv.dst)
        if not e.wins(opp & ~(1 << mv.dst), nme, budget):
            moves.append(mv.to_str(p.board))
    return root, moves


RECTANGLES = [(r, c) for r in range(1, 5) for c in range(2, 6)] + [(2, 6), (3, 6)]


@pytest.mark.parametrize("rows,cols", RECTANGLES)
def test_rectangles_same_winner_and_winning_moves(rows, cols):
    p = Position.checkerboard(rows, cols)
    for color in (BLACK, WHITE):
        plain = outcome_and_moves(engine(p.board, 0), p, color)
        parts = warm_engine(p, color, 8)
        assert outcome_and_moves(parts, p, color) == plain
        if rows * cols >= 12:
            assert parts.parts.count > 0     # parts were met and valued


def test_random_positions_same_winner_and_winning_moves():
    rng = random.Random(28)
    used = 0
    for _ in range(50):
        p = random_position(rng, rng.randint(2, 4), rng.randint(3, 5), rng.random() * 0.4)
        color = rng.choice((BLACK, WHITE))
        e = warm_engine(p, color, rng.choice((4, 6, 8, 10)))
        assert outcome_and_moves(e, p, color) == outcome_and_moves(engine(p.board, 0), p,
                                                                   color), p.text()
        used += e.parts.count
    assert used > 200


def test_folded_positions_keep_their_value_and_empty_boards_their_outcome():
    """fold_parts on random positions, with the part and sum tables filled by an engine:
    the board left plus G has the value of the original (both colours to move; G is
    valued with the owner of ``me`` as Left), and when no board is left the outcome of G
    in the value tables (``lwin``) is the outcome of the original with the owner of ``me``
    first."""
    rng = random.Random(2026)
    board = Position.checkerboard(4, 4).board
    e = warm_engine(Position.checkerboard(4, 4), BLACK, 8)   # tables filled
    folded = emptied = 0
    for _ in range(150):
        # (a third or more of the squares empty: the values of the whole stay cheap)
        p = random_position(rng, 4, 4, 0.3 + rng.random() * 0.4)
        for color in (BLACK, WHITE):
            me, opp = (p.black, p.white) if color == BLACK else (p.white, p.black)
            sme, sopp = K.simplify(np.uint64(me), np.uint64(opp), e.nbr)
            rme, ropp, g = K.fold_parts(
                np.uint64(sme), np.uint64(sopp), 0, e.nbr, e.syms, e.cols, e.row0, e.pmax,
                *e.parts.arrays, *e.sums.arrays, e.pend, e.spend, e.pstat)
            e._value_parts()
            before = clobber_value(p)
            rb, rw = (int(rme), int(ropp)) if color == BLACK else (int(ropp), int(rme))
            G = e.values.game(int(g))
            after = clobber_value(Position.from_masks(board, rb, rw)) + \
                (G if color == BLACK else -G)
            assert before == after, p.text()
            if g != 0:
                folded += 1
            if rme == 0 and ropp == 0:
                emptied += 1
                o = (before if color == BLACK else -before).outcome
                assert (e.values.lwin[g] == 1) == (o in ("L", "N")), p.text()
    assert folded > 10 and emptied > 10, (folded, emptied)


def test_value_tables_hold_negatives_options_and_outcomes():
    """Every id the engine registered on the 4x5 search: ``gneg`` is its negative, its
    listed moves are the negatives of its canonical Left options, ``lwin`` its outcome
    with Left first (cgt's comparisons)."""
    p = Position.checkerboard(4, 5)
    e = engine(p.board, 8)
    outcome_and_moves(e, p, BLACK)
    vals = e.values
    assert len(vals.games) > 1000
    for i in range(len(vals.games)):
        g = vals.game(i)
        assert vals.game(int(vals.gneg[i])) == -g
        kids = vals.glo[vals.gls[i]:vals.gls[i] + vals.glc[i]]
        assert sorted(vals.game(int(c)).id for c in kids) == \
            sorted((-x).id for x in g.left_options)
        assert (vals.lwin[i] == 1) == (g.outcome in ("L", "N"))


def test_values_past_the_option_cap_stay_on_the_board():
    """A value with more options than the engine plays in as G is declined: its part
    stays pending, and the search still answers as the plain search does."""
    p = Position.checkerboard(4, 5)
    e = engine(p.board, 8)
    e.values.max_options = 2
    assert outcome_and_moves(e, p, WHITE) == outcome_and_moves(engine(p.board, 0), p, WHITE)
    vals = e.values
    assert all(vals.glc[i] <= 2 for i in range(len(vals.games)))
    assert (e.parts.arrays[2] == K.PART_PENDING).sum() > 0


def test_parts_valued_between_kernel_calls_agree_on_4x5():
    """A search of several kernel calls, parts valued as they are met (no warm tables):
    the 4x5 start's winner and winning moves with parts equal those with parts off, and
    the search used fewer nodes."""
    p = Position.checkerboard(4, 5)
    e = engine(p.board, 10)   # the first call is 2^14 nodes, the next ones larger
    a = outcome_and_moves(e, p, WHITE)
    b = outcome_and_moves(engine(p.board, 0), p, WHITE)
    assert a == b and a[0] is True
    assert e.parts.count > 1000 and e.sums.count > 100


def test_frontier_records_agree_with_mcgs_recorded_outcomes(monkeypatch):
    """Every decided case of our frontier records (benchmarks/results) with Black first
    agrees with the outcome MCGS records in its hard and very hard test files (2x15,
    2x16, 2x17, 3x10, 4x7, 5x6 checkerboards, solved by MCGS in hours)."""
    import json

    monkeypatch.syspath_prepend(str(FRONTIER_RESULTS.parents[1]))
    import clobber_frontier

    assert clobber_frontier.MCGS_FILES.resolve() == MCGS_FRONTIER.resolve()
    recorded = {f"{r}x{c}": outcome
                for (r, c), outcome in clobber_frontier.mcgs_recorded_outcomes().items()}
    assert {"4x7", "2x17", "3x10", "5x6"} <= set(recorded), recorded
    compared = set()
    checked: dict[str, str] = {}
    first_search: dict[str, str | None] = {}
    through_store: dict[str, str] = {}
    for line in FRONTIER_RESULTS.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("check") == "refutation":
            # one first move of a second-player win, answered by the plain search
            assert rec["step2_winner"] in ("white", None), rec
            continue
        if rec.get("check") == "second proof":
            # benchmarks/clobber_frontier_check.py: Black's winning move, and the position
            # after it a loss for White by the plain search (or undecided in its limit);
            # or (a second-player win) every first move refuted by it
            assert rec["step2_winner"] in ("black", "white", None), rec
            if rec["step2_winner"] is not None:
                checked[rec["board"]] = rec["step2_winner"]
            continue
        if rec.get("check") == "job store":
            # benchmarks/clobber_frontier_jobs.py: the job-level search, through the store
            if rec.get("winner") is not None and rec.get("exact"):
                through_store[rec["board"]] = rec["winner"]
            continue
        if rec["winner"] is not None:
            first_search[rec["board"]] = rec["winner"]
        if rec["winner"] is None or rec["first"] != "black" or rec["board"] not in recorded:
            continue
        assert (rec["winner"] == "black") == (recorded[rec["board"]] == "win"), rec
        compared.add(rec["board"])
    assert {"4x7", "2x17", "3x10", "5x6"} <= compared, compared
    assert {"3x11", "4x8"} <= set(checked)
    for board, winner in [*checked.items(), *through_store.items()]:
        # the second proof, and the run through the job store, agree with the first search
        assert first_search[board] == winner, board
        if board in recorded:
            assert (winner == "black") == (recorded[board] == "win"), board


def test_refuting_every_first_move_checks_a_second_player_win(tmp_path, monkeypatch):
    """benchmarks/clobber_frontier_check.py --refute-all on 3x6 (Black first loses): one
    record a class of Black's first moves up to symmetry, in two shards; each record's
    reply is White's win, by a search with part values; the closing record comes once all
    classes are in, and a second run finds nothing left to do."""
    import json

    monkeypatch.syspath_prepend(str(FRONTIER_RESULTS.parents[1]))
    monkeypatch.setattr(search, "time", search.time)      # the script sets a CPU clock
    import clobber_frontier_check as check

    out = tmp_path / "r.jsonl"
    p = Position.checkerboard(3, 6)
    assert search.solve_outcome(p, BLACK).winner == "white"

    def run(shard):
        assert check.main(["3x6", "--refute-all", "--limit", "60", "--json", str(out),
                           "--shard", shard]) == 0
        return [json.loads(x) for x in out.read_text().splitlines()]

    recs = run("0/2")
    assert all(r["check"] == "refutation" for r in recs)
    recs = run("1/2")
    closing = [r for r in recs if r["check"] == "second proof"]
    refutations = [r for r in recs if r["check"] == "refutation"]
    children = {min(p.play(m, BLACK).swap_colors().transform(t).text()
                    for t in p.board.symmetries()) for m in p.moves(BLACK)}
    assert len(refutations) == len(children) == closing[0]["classes"]
    assert closing[0]["moves"] == len(p.moves(BLACK)) == 27
    assert closing[0]["step2_winner"] == "white"
    for r in refutations:
        after = p.play(p.parse_move(r["move"]), BLACK)
        reply = after.play(after.parse_move(r["reply"]), WHITE)
        assert search.solve_outcome(reply, BLACK, all_moves=False).winner == "white"
    assert run("0/1") == recs                   # resumed: nothing left, no second closing


def test_a_full_table_of_games_leaves_the_parts_on_the_board(monkeypatch):
    """When cgt's table of canonical games is full, every new sum, and the part database's
    values, are refused by cgt (UnsupportedError); the search declines them (no error)
    and still answers as the plain search does. (cgt's table is shared by the whole test
    session, so which sums are new depends on the tests before: the refusal is forced.)"""
    from clobbermania.clobber.partdb import PartDatabase
    from clobbermania.errors import UnsupportedError

    def full(*args, **kwargs):
        raise UnsupportedError("the table of canonical games is full (test)")

    p = Position.checkerboard(4, 5)
    plain = outcome_and_moves(engine(p.board, 0), p, BLACK)
    # the database's values refused: the parts are valued one by one by values.py
    monkeypatch.setattr(PartDatabase, "board_value_ids", full)
    e = engine(p.board, 8)
    assert outcome_and_moves(e, p, BLACK) == plain
    assert e.parts.count > 0
    # every sum refused too (values.py's own sums included): the parts stay on the board
    monkeypatch.setattr(search._cg, "_add", full)
    e = engine(p.board, 8)
    assert outcome_and_moves(e, p, BLACK) == plain
    pending = (e.parts.arrays[2] == K.PART_PENDING).sum() + \
        (e.sums.arrays[2] == K.PART_PENDING).sum()
    assert pending > 0


def test_moves_in_g_are_searched_with_their_reply_counts():
    """_order with moves in G: a move in G leaves the opponent the board's moves plus its
    moves in the value left; a board move leaves its board replies plus the opponent's
    moves in -G. Held against the reference move generator and the value tables of a
    4x4 search, on random boards with random values."""
    rng = random.Random(77)
    e = warm_engine(Position.checkerboard(4, 4), BLACK, 8)
    vals = e.values
    checked = 0
    for _ in range(200):
        p = random_position(rng, 4, 4, rng.random() * 0.5)
        g = rng.randrange(len(vals.games))
        me, opp = p.black, p.white
        moves = p.moves(BLACK)
        nb = len(moves)
        kids = vals.glo[vals.gls[g]:vals.gls[g] + vals.glc[g]].tolist()
        n = nb + len(kids)
        if n == 0:
            continue
        src = np.array([m.src for m in moves] + [-1] * len(kids), np.int64)
        dst = np.array([m.dst for m in moves] + kids, np.int64)
        keys = np.zeros(n, np.int64)
        order = np.zeros(n, np.int64)
        extra = int(vals.glc[vals.gneg[g]])
        imm = K._order(np.uint64(me), np.uint64(opp), e.nbr, src, dst, keys, order, nb, n,
                       extra, vals.glc)
        replies = [len(p.play(m).moves(WHITE)) + extra for m in moves]
        replies += [nb + int(vals.glc[c]) for c in kids]
        if imm >= 0:
            assert replies[imm] == 0 and all(replies[:imm])
            continue
        assert list(keys[:n]) == replies
        assert [replies[i] for i in order[:n]] == sorted(replies)
        checked += 1
    assert checked > 100


def test_the_2x18_proof_in_the_committed_job_store(tmp_path):
    """benchmarks/results/2x18-jobs.sqlite, the job store of the run that proved the 2x18
    checkerboard a second-player win (Black first) by the job-level search: the driver,
    run again on a copy, decides the root from the stored answers alone (no job runs);
    every answer the independent pass (the plain search of
    benchmarks/clobber_frontier_check.py --refute-all) has given so far agrees with the
    store's answer for the same position."""
    import json
    import shutil

    from clobbermania.distributed.clobber_search import KIND, solve_outcome_distributed
    from clobbermania.distributed.store import JobStore

    copy = tmp_path / "2x18.sqlite"
    shutil.copy(FRONTIER_RESULTS.parent / "2x18-jobs.sqlite", copy)
    with JobStore.open(copy) as store:
        r = solve_outcome_distributed(Position.checkerboard(2, 18), "black", cluster=None,
                                      store=store, job_nodes=1)
        assert (r["winner"], r["exact"]) == ("white", True)
        assert r["distributed"]["jobs"] == r["distributed"]["jobs_reused"] == \
            store.count(KIND) == 100
        for line in FRONTIER_RESULTS.read_text().splitlines():
            rec = json.loads(line)
            if rec["board"] == "2x18" and rec.get("check") == "refutation" and \
                    rec["step2_winner"] is not None:
                assert store.get(KIND, rec["key"])["outcome"] == "win", rec
