"""The SameGame benchmark (issue 6): the standard 20-board set, scored (n-2)^2 per group,
+1000 for a cleared board, NO end penalty.

Published totals on this set: SP-MCTS 78,012 (Schadd et al. 2012), NMCS level 3 77,934
(Cazenave 2009); the goal is >= 78,012 at <= 5 minutes a board on a 2-core machine.

Prints the date, the machine, the load average (before and after), then one line per
board as it finishes (score, cleared or blocks left, playouts, wall and CPU seconds) and
the total. ``--clock cpu`` gives each board a budget of its own process's CPU time: the
fair measure on a machine shared with other jobs (the wall time is then longer). Each
board's search is deterministic given the seed (``--max-playouts`` makes it independent
of the machine too). ``--log FILE`` appends the same lines to FILE as they come, so an
interrupted run keeps its finished boards; after each board's line it also writes one JSON
line (``{"samegame_board": K, "settings": {...}, "board": TEXT, "score": ..., "moves":
[...], ...}``): the board, the settings of the run and the board's whole click sequence.

``--resume`` (with ``--log``) reads the log first and does not play again a board already
finished by a run with the same settings: time limit, clock, seed, workers, restarts,
continue share, tabu, left penalty, max playouts and the board file's content (its
SHA-256; ``--jobs`` and ``--threads`` are not among them: like the machine's load, they
change the searches' speed). Each reused board's clicks are replayed by the reference rules
(``clickomania.rules.replay_score``) and its score, clearance and blocks
left checked before it is counted in the total; its line ends in "reused". A record that
the replay does not confirm is refused (``error: <one sentence>`` on stderr, exit status
2). Records of other settings are ignored, and a line that is not whole JSON (a run killed
mid-write) too; one line on stdout says how many. When a board has several records of
the settings, the first is used. ``--json-out FILE`` writes, once every board is played or
reused, one JSON object: the settings, the total, and each board's text, score and
clicks, so that a new best can be committed as its 20 click sequences and replayed.

    python benchmarks/samegame.py --time-limit 300 --jobs 2 --clock cpu --log run.log
    python benchmarks/samegame.py --time-limit 300 --jobs 2 --clock cpu --log run.log \
        --resume --json-out run.json        # the same run again: only unfinished boards
    python benchmarks/samegame.py --boards 1-3 --time-limit 2 --max-playouts 2000 --jobs 1 \
        --log /tmp/sg.log --resume --json-out /tmp/sg.json   # a second or two; run twice
    python benchmarks/samegame.py --time-limit 300 --jobs 2 --workers 2 --restarts 1 --clock cpu
    python benchmarks/samegame.py --boards 1-4 --time-limit 30        # a quick look

``--workers W`` gives each board W independent searches (seeds SEED..SEED+W-1) and keeps
the best; with ``--jobs W`` they run side by side, so each board has the whole machine
for the time limit (the figure of BENCHMARKS.md, "Two searches a board"). Each line then
also shows every search's score.

Choosing the search (2026-11-22, numba prototypes on this machine's engine kernels, CPU
seconds of one process while 6-8 other jobs shared the 2 cores; one seed each; the
prototypes were not kept):

    search                                        board 1        board 2
    one tabu colour, best of 5,000 playouts       1,341          2,189
    NMCS level 1                                  1,388 (~0.2 s) 2,377 (0.2 s)
    NMCS level 2                                  -              3,215 (123 s)
    NRPA level 2 (10,000 playouts)                1,823 (2.2 s)  2,674 (2.7 s)
    NRPA level 3, cut at 400,000 playouts         2,007 (80 s)   -
    beam, heuristic (score + sum (g-2)^2), w 4096 1,335 (11 s)   2,121 (14 s)
    beam, score + kept-colour potential, w 512    1,125 (1.3 s)  1,164 (1.6 s)
      (2026-11-24: (n_keep-2)^2 + sum of the other colours' (g-2)^2 - 50 a lone
      block; 350,000 children valued a CPU second; not kept)
    beam, one playout a child, w 64               1,764 (7 s)    3,367 (9 s)
    beam, one playout a child, w 256              1,871 (34 s)   -
    this search (best line kept, backward beams)  2,076 (30 s)   3,317 (30 s)
                                                  2,077 (60 s)   3,317 (60 s)

The exact endgame (2026-11-24; boards 1, 2, 7, 14, 17; CPU seconds a board, 2 jobs; the
load average went from 0.1 to 4 during these runs, other jobs sharing the cores):

    candidate                       seed  budget  b1    b2    b7    b14   b17   sum
    no endgame (commit 219ee07)     0     30 s    2076  3317  1938  2295  3951  13577
    endgame, 10,000 nodes/s         0     30 s    2077  3317  2043  2303  3962  13702
    endgame, 50,000 nodes/s         0     30 s    2077  3105  1934  2303  3917  13336
    endgame, ROOT_SHARE 0.3         0     30 s    2157  3317  1934  1920  3912  13240
    no endgame                      1     30 s    2168  3481  1949  2877  3927  14402
    endgame, 10,000 nodes/s         1     30 s    2839  3483  1917  2913  3919  15071
    endgame, ROOT_SHARE 0.3         1     30 s    2839  3481  2217  2899  4251  15687
    no endgame                      2     30 s    2148  3461  1931  2069  3886  13495
    endgame, 10,000 nodes/s         2     30 s    2141  3495  2245  2049  3881  13811
    endgame, ROOT_SHARE 0.3         2     30 s    1992  3495  2245  2055  3881  13668
    no endgame                      0     60 s    2077  3317  1939  2895  3932  14160
    endgame, 10,000 nodes/s         0     60 s    2077  3317  2549  2873  3938  14754
    endgame, 10,000 nodes/s         0     300 s   2187  -     -     -     4661  -
      (300 s without it, BENCHMARKS.md: board 1 2167, board 17 3942; the endgame used
      41 million nodes on the two boards, about 7% of the time)

Kept: the endgame at 10,000 nodes a call per second of the time limit (at least
200,000): over seeds 0-2 at 30 s, 42,584 against 41,474 without it (+1,110); ROOT_SHARE
0.5 (0.3 was even over three seeds: 42,595 against 42,584).

Restarts (2026-11-24, 21:55-22:45 UTC; boards 1, 2, 7, 10, 14, 17; 60 CPU-s a board;
seeds 0, 1, 2 (``--workers 3 --jobs 2``, every search printed); load average 0.0-2.9,
the 2 cores shared; "all pairs": the sum over the 18 (board, seed) searches; "best of 2":
the sum of max(seed 0, seed 1) a board, as in the full run):

    candidate (RESTARTS)           seed 0  seed 1  seed 2  all pairs  best of 2  best of 3
    1, one search (commit aedecdc) 17438   18696   16268   52402      18773      19130
    2 sub-searches of 30 s         17403   18744   17122   53269      18850      19052
    3 sub-searches of 20 s         18903   19040   17722   55665      19880      19880
    4 sub-searches of 15 s         18504   18505   17509   54518      19302      19302
    6 sub-searches of 10 s         17583   17699   18172   53454      17772      18328

    per board (b1 b2 b7 b10 b14 b17), seeds 0 / 1 / 2:
    1: 2077 3317 1998 3231 2873 3942 / 2827 3493 1961 3191 2955 4269 / 2162 3603 2245 2294 2081 3883
    2: 2088 3505 2043 3231 2307 4229 / 2839 3543 1997 3283 2913 4169 / 2141 3499 2245 3241 2083 3913
    3: 2603 3561 1934 3289 2897 4619 / 2839 3543 2675 3115 2889 3979 / 2138 3499 2245 3211 2719 3910
    4: 2045 3487 2449 3239 2873 4411 / 2763 3551 1964 3195 2889 4143 / 2134 3499 2245 3227 2551 3853
    6: 2060 3541 1981 3141 2895 3965 / 2141 3551 2053 3167 2869 3918 / 2171 3499 2505 3241 2869 3887

Kept: 3 sub-searches (+3,263 over all pairs, +6.2%; +1,107 best of 2; per search +181
on average, standard error 82, 11 better, 6 worse, 1 equal). Not measured: the
best number at 300 s a board (the first of R sub-searches is the single search on 1/R of
the budget, so R = 3 at 300 s contains the 100-s search). At 300 CPU-s a search, the
whole standard set, best of seeds 0 and 1 (BENCHMARKS.md): R = 3 totals 75,336 against
76,666 for R = 1 (better on 8 boards, worse on 10); use ``--restarts 1`` there.

Faster playouts (2026-11-25, 00:41-01:00 UTC; boards 1, 2, 7, 10, 14, 17; 60 CPU-s a
board, 3 sub-searches; seeds 0, 1, 2; load average 0.7-3.0). Policy 2 used to find every
group after every click (``k_moves_with``); now one scan lists the blocks with a neighbour
of their colour and only the drawn group is filled (``k_playout_two_tabu``). Drawing a
block uniformly draws groups in proportion to their size; accepting a group of n with
probability 2/n restores policy 2's uniform draw. Playouts a CPU second from the start
position (boards 1-6, 5,000 each): 8,300 before, 17,100 after (mean / best score 580 / 1,860
both ways; size-weighted 20,000, 564 / 1,815); in the search 23,600 against ~15,000:

    candidate                         seed 0  seed 1  seed 2  all pairs  best of 3
    3 sub-searches (table above)      18903   19040   17722   55665      19880
    size-weighted draw (rejected)     18048   18048   18498   54594      19160
    uniform draw by rejection (kept)  19121   18423   17536   55080      19816
    the same, clicks named by their   18125   18752   19030   55907      19962
      representative (8b0dd3d; 02:58-03:08 UTC, load 1.0-2.0)

    per board (b1 b2 b7 b10 b14 b17), seeds 0 / 1 / 2:
    size-weighted: 2231 3121 2073 3149 2837 4637 / 3063 3093 1974 3281 2765 3872 /
                   2677 3149 1969 3247 2699 4757
    by rejection:  2158 3515 2899 3235 2769 4545 / 2661 3695 2185 3221 2781 3880 /
                   2089 3623 1937 3189 2275 4423
    fixed:         2192 3473 2485 3235 2833 3907 / 2903 3549 1973 3289 2953 4085 /
                   2189 3461 2859 3159 3087 4275

Then (commit 9708b51) only the columns a click changed are scanned again (the same draws
bit for bit): 17,800 playouts a CPU second against 14,200 (medians of 3 runs, boards 1-6,
3,000 playouts each, while a benchmark shared the cores; the group finder's policy 2 ran
6,300 in the same conditions). In the search (10 CPU-s, boards 1 and 7) both give about
26,000 playouts a second: the beam's own work and the endgame take the rest.

Then (2026-11-25) a click scans again only the group's columns and their two neighbours
(and falls only in the group's columns) unless a column empties (the same draws bit for
bit): ``--playout-speed 5000 --boards 1-6`` prints a median of 27,100 playouts a CPU
second against 19,300 before (boards 1-6 medians of 3 runs each, idle machine); in the
search (board 1, seed 1, one sub-search, 1,000,000 playouts, one thread; the same game,
2,517) 39,300 playouts a CPU second against 28,400.

Then (2026-11-25) the playout works on column words (``k_playout_two_tabu``: one 64-bit
word a column, 4 bits a block; neighbours, tiers, group fills and counts by word
operations; the same draws, clicks and final board as the grid version, checked by the
tests on 1,500 random boards): ``--playout-speed 5000 --boards 1-6`` 47,800 a CPU second
(median; 27,100 on the grid); in the search (board 1, seed 0, one sub-search, 1,000,000
playouts, no endgame, one thread; the same game, 2,677) 14.8 CPU s against 21.7 s on the
grid (1.47 times). The beam's own work is about 0.8 microseconds a child, 6%: the
playouts are the search. Then a fall cuts each removed run out of the column word at once
(a carry finds the run's end) instead of moving the blocks one by one, and the board is
read and counted in one pass: 54,100 a CPU second (median, boards 1-6, measured while
the whole-set benchmark ran on both cores, so low).

The size-weighted draw loses on board 2 in all three seeds (about 3,100 against 3,500); the
uniform draw is the same search with 1.6 times the playouts, even with the old one at 60
s within the noise (a search's standard deviation is about 300 a board). Kept for the
throughput, which matters where the search is long (300 s). Measured there afterwards
(the whole set, ``--workers 2 --restarts 1``, BENCHMARKS.md "Faster playouts"): 75,755
against 76,666 with the old playouts (better on 11 boards, worse on 9). Both rows above
and that run had a defect: the playout named a click by the drawn block, not by its
group's representative, so the beam often failed to follow its best line (fixed in
8b0dd3d: the row "clicks named by their representative", +242 over all pairs on the
group finder's playouts, within the noise; not yet measured at 300 s).

One search on both cores (2026-11-25, commit 4174e12; ``--jobs 1 --workers 1 --restarts 1
--clock wall --threads 2``, 300 s of wall time a board, 524-558 CPU s): 75,734 over the
set, 18 cleared, against 76,666 for two single-core searches a board (BENCHMARKS.md, "One
search on both cores"). A second independent search beats doubling one search's time.

Playout policies (mean / best of 5,000 playouts, averaged over boards 1-6): one tabu
colour 496 / 1,914; one tabu colour, moves weighted by group size 493 / 2,054; by 1/size
506 / 1,998; two tabu colours 581 / 1,895 (the search uses two). Uniform random clicks
(boards 1-4, 20,000 playouts): mean 197, best 1,160.

Which colours are tabu (2026-11-25, 20,000 policy-2 playouts from the start for each
ordered pair of the three most frequent colours, the pair fixed for the whole playout;
mean / 99.9th percentile). Cazenave's rule takes the two most frequent colours of the
board a playout starts from (on boards 11-15 all five colours have 45 blocks, so the rule
falls back on the colour order); another pair is often far better from the start:

    board  rule's pair          best pair            board  rule's pair     best pair
    1      13: 358 / 824        03: 407 / 1,295      11     01: 433 / 1,191  20: 465 / 1,412
    2      30: 610 / 1,859      31: 641 / 2,271      12     01: 475 / 1,329  10: 634 / 1,624
    3      20: 440 / 1,075      24: 523 / 1,270      13     01: 569 / 1,436  20: 477 / 1,578
    4      20: 721 / 1,916      02: 904 / 2,102      14     01: 500 / 1,330  20: 547 / 1,534
    5      32: 660 / 2,260      (the same)           15     01: 519 / 1,283  21: 654 / 1,845
    6      10: 695 / 2,027      (the same)           16     10: 1,957 / 3,168 12: 2,004 / 3,489
    7      04: 213 / 551        10: 591 / 1,773      17     20: 1,615 / 3,063 (the same)
    8      31: 846 / 1,597      32: 827 / 2,344      18     30: 1,002 / 2,979 31: 1,405 / 3,340
    9      01: 1,726 / 3,279    (the same)           19     40: 826 / 2,873  (the same)
    10     12: 412 / 905        23: 492 / 1,678      20     01: 993 / 1,975  (the same)

In the search the rule is applied afresh from every child's board, so the beam mixes
policies; fixing the pair ranked best by playouts from the start (``tabu_rank=0``,
:func:`rank_tabu_pairs`: the mean of the best tenth of up to 1,000 playouts a pair, 2%
of the budget) scores the same as the rule over twelve boards at 30 CPU s (seed 0, one
search, one thread; 2026-11-25 while a benchmark shared the cores): boards 1, 7, 15, 18,
10, 12: 18,958 fixed against 19,227 (board 7: 2,357 against 1,955; board 15: 2,893
against 3,437); boards 2, 4, 13, 14, 16, 20: 21,250 against 20,890. Sum 40,208 against
40,117: within the noise, so the rule stays the default, and ``--tabu dyn,0`` gives a
board's two searches different policies (the searches of one policy tend to end on the
same lines; see BENCHMARKS.md).

A penalty a block left (2026-11-25, 07:40-07:58 UTC; ``left_penalty``: the beams rank a
line by its score less P points a block its end leaves, so they steer towards boards that
can be cleared; the scores reported are true ones). Random playouts from the start almost
never clear boards 1 and 7 (0.00-0.10% of 20,000 for every policy; boards 17 and 20:
34-86%), so the +1000 only shows deep in the beams, and the searches above often failed
to clear them. One search, 30 CPU s, one thread, seed as shown (total of the boards):

    boards (seeds)            P = 0                       P = 30       P = 60
    1, 7 (seeds 0, 1, 2)      13,142 (1 of 6 cleared)     16,490 (6)   -
    17, 20, 9, 16 (seed 0)    16,164 (2 of 4 cleared)     17,664 (4)   17,680 (4)
    14, 13, 11 (seed 0)       9,375 (3 of 3)              8,785 (3)    8,955 (3)

    per board, P = 0 / 30 / 60: b1 2142 2967 2149 / 2643 2525 2589; b7 1955 1942 1987 /
    2937 2953 2843; b17 3965 / 4081 / 4085; b20 3733 / 4271 / 4413; b9 4121 / 4785 / 4537;
    b16 4345 / 4527 / 4645; b14 2825 / 2643 / 2725; b13 3317 / 3141 / 3065; b11 3233 /
    3001 / 3165

+4,258 for P = 30 over the 13 searches, every one of them cleared; P = 60 about the same
as 30 where both ran (+186 over 7 boards). The run of the whole set with P = 60 at 300
CPU s a search (BENCHMARKS.md, "A penalty a block left, the whole set") totals 76,100,
all cleared, against 76,666 without it: at five minutes the searches clear the boards
anyway, and the penalty does not pay.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from clobbermania.clickomania.rules import Board, replay_score
from clobbermania.clickomania.samegame import (
    CONTINUE_SHARE,
    LEFT_PENALTY,
    PUBLISHED_TOTALS,
    RESTARTS,
    STANDARD_SET,
    SameGameResult,
    bench_samegame,
    playout_scores,
    read_samegame_set,
)
from clobbermania.errors import IllegalMoveError

#: the key that marks a log line as a finished board's record
RECORD_KEY = "samegame_board"


def shown_path(path: str) -> str:
    """``path`` as a log shows it: relative to the repository when inside it, so that a
    committed log names no machine's folders."""
    p = Path(path).resolve()
    root = Path(__file__).resolve().parents[1]
    try:
        return str(p.relative_to(root))
    except ValueError:
        return str(path)


class RecordRefused(Exception):
    """A log record that the reference rules do not confirm (one sentence)."""


def run_settings(args: argparse.Namespace) -> dict:
    """The settings a finished board's record carries: a board is reused only by a run of
    the same settings. The board file is named by its content, not by its path."""
    return {"time_limit": args.time_limit, "clock": args.clock, "seed": args.seed,
            "workers": args.workers, "restarts": args.restarts,
            "continue_share": args.continue_share,
            "tabu": [None if x.strip() == "dyn" else int(x) for x in args.tabu.split(",")],
            "left_penalty": [int(x) for x in args.left_penalty.split(",")],
            "max_playouts": args.max_playouts,
            "board_file_sha256": hashlib.sha256(Path(args.file).read_bytes()).hexdigest()}


def board_record(number: int, board: Board, r: SameGameResult, settings: dict) -> dict:
    """The JSON record of a finished board (board numbered from 1)."""
    return {RECORD_KEY: number, "settings": settings, "board": board.text(),
            "score": r.score, "cleared": r.cleared, "blocks_left": r.blocks_left,
            "moves": list(r.moves), "playouts": r.playouts,
            "seconds": round(r.seconds, 3), "cpu_seconds": round(r.cpu_seconds, 3),
            "seed": r.seed, "searches": [list(x) for x in r.searches],
            "algorithm": r.algorithm}


def read_log(path: str, settings: dict) -> tuple[dict[int, tuple[int, dict]], int, int,
                                                 list[str]]:
    """The records of ``path`` made with ``settings``, the first of each board
    ({board number: (line number, record)}); the number of records of other settings and of
    lines that are not whole JSON (a run killed mid-write), and the settings in which the
    records of other settings differ from ``settings``."""
    found: dict[int, tuple[int, dict]] = {}
    other = unreadable = 0
    differ: set[str] = set()
    p = Path(path)
    if not p.exists():
        return found, other, unreadable, []
    with p.open(encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, start=1):
            if not line.lstrip().startswith("{"):
                continue            # a human-readable line
            try:
                rec = json.loads(line)
            except ValueError:
                unreadable += 1
                continue
            if not isinstance(rec, dict) or RECORD_KEY not in rec:
                continue
            if rec.get("settings") != settings:
                other += 1
                theirs = rec.get("settings")
                theirs = theirs if isinstance(theirs, dict) else {}
                differ.update(k for k in set(settings) | set(theirs)
                              if settings.get(k) != theirs.get(k))
                continue
            number = rec[RECORD_KEY]
            if isinstance(number, int) and number not in found:
                found[number] = (n, rec)
    return found, other, unreadable, sorted(differ)


def checked_record(board: Board, rec: dict, where: str) -> SameGameResult:
    """The result a log record stands for, once its clicks are replayed by the reference
    rules (:func:`~clobbermania.clickomania.rules.replay_score`);
    :class:`RecordRefused` when the replay does not confirm its score, clearance or blocks
    left, a click is illegal, the board differs or a field is missing."""
    try:
        moves = rec["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise TypeError
        claimed = (int(rec["score"]), bool(rec["cleared"]), int(rec["blocks_left"]))
        text = str(rec["board"])
        stats = dict(playouts=int(rec["playouts"]), seconds=float(rec["seconds"]),
                     cpu_seconds=float(rec["cpu_seconds"]), seed=int(rec["seed"]),
                     searches=tuple((int(a), int(b)) for a, b in rec["searches"]),
                     algorithm=str(rec["algorithm"]))
    except (KeyError, TypeError, ValueError):
        raise RecordRefused(f"{where} lacks a field of a finished board's record (board, "
                            "score, cleared, blocks_left, moves, playouts, seconds, "
                            "cpu_seconds, seed, searches, algorithm); refused") from None
    if text != board.text():
        raise RecordRefused(f"{where} is of another board than the board file's; refused")
    try:
        final, score = replay_score(board, moves)
    except IllegalMoveError as exc:
        raise RecordRefused(f"{where} has clicks that the reference rules refuse ({exc}); "
                            "refused") from None
    if claimed != (score, final.is_cleared, final.n_blocks):
        state = "cleared" if claimed[1] else "not cleared"
        raise RecordRefused(
            f"{where} gives a score of {claimed[0]} ({state}, {claimed[2]} left), but its "
            f"{len(moves)} clicks replay to {score} ({final.n_blocks} left) by the reference "
            "rules; refused")
    return SameGameResult(score=score, cleared=final.is_cleared, moves=tuple(moves),
                          blocks_left=final.n_blocks, **stats)


def write_json_out(path: str, settings: dict, args: argparse.Namespace, numbers: list[int],
                   boards: list[Board], results: list[SameGameResult]) -> None:
    """Write the finished run (settings, total, each board's clicks) to ``path`` at once
    (a temporary file renamed)."""
    data = {"benchmark": "SameGame", "file": shown_path(args.file), "settings": settings,
            "scoring": "(n-2)^2 a group of n, +1000 cleared, no end penalty",
            "total": sum(r.score for r in results),
            "cleared": sum(r.cleared for r in results),
            "boards": [board_record(k, b, r, settings) for k, b, r in
                       zip(numbers, boards, results, strict=True)]}
    for rec in data["boards"]:
        del rec["settings"]
    rows = data.pop("boards")
    # one line a board: the file stays readable with 20 boards of ~70 clicks each
    text = (json.dumps(data)[:-1] + ', "boards": [\n'
            + ",\n".join(json.dumps(r) for r in rows) + "\n]}\n")
    tmp = Path(path).with_name(Path(path).name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _selection(text: str | None, n: int) -> list[int]:
    if not text:
        return list(range(n))
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo) - 1, int(hi or lo)))
    return out


def playout_speed(file: str, selection: str | None, n: int) -> int:
    """Print the playouts a CPU second from the start of each board (median of 3 runs)."""
    boards = read_samegame_set(file)
    which = _selection(selection, len(boards))
    playout_scores(boards[which[0]], 10)  # compile
    rates = []
    for i in which:
        times = []
        for run in range(3):
            t0 = time.process_time()
            scores = playout_scores(boards[i], n, seed=run)
            times.append(time.process_time() - t0)
        rates.append(n / statistics.median(times))
        print(f"board {i + 1:2d}: {rates[-1]:9,.0f} playouts a CPU second "
              f"(mean score {scores.mean():.0f})", flush=True)
    print(f"median over {len(which)} boards: {statistics.median(rates):,.0f} a CPU second")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(STANDARD_SET))
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds a board")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="cpu")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1,
                    help="independent searches a board (seeds seed..seed+w-1), best kept")
    ap.add_argument("--restarts", type=int, default=RESTARTS,
                    help="independent sub-searches within each search (best kept)")
    ap.add_argument("--continue-share", type=float, default=CONTINUE_SHARE,
                    help="with --restarts > 1: the share of the budget in which the best "
                         "sub-search alone goes on")
    ap.add_argument("--tabu", default="dyn",
                    help="the playout policy of search w of a board, cycling over a comma "
                         "list: dyn (each playout's two most frequent colours) or a rank "
                         "of the tabu pairs ranked by playouts (0 = best); e.g. dyn,0")
    ap.add_argument("--left-penalty", default=str(LEFT_PENALTY),
                    help="the beams rank a line by its score less this much a block left; "
                         "a comma list cycles over the searches of a board, e.g. 60,0")
    ap.add_argument("--threads", type=int,
                    help="threads of each search (default: the cores shared out among the jobs)")
    ap.add_argument("--boards", help="e.g. 1-5,7 (numbered from 1)")
    ap.add_argument("--max-playouts", type=int)
    ap.add_argument("--log", help="append the output lines, and a JSON line a finished "
                                   "board, to this file as they come")
    ap.add_argument("--resume", action="store_true",
                    help="with --log: reuse the boards the log records as finished with the "
                         "same settings (their clicks replayed by the reference rules)")
    ap.add_argument("--json-out", metavar="FILE",
                    help="write the finished run (settings, total, every board's clicks) "
                         "to this JSON file")
    ap.add_argument("--playout-speed", type=int, metavar="N",
                    help="only measure: N playouts (the search's policy) from the start of "
                         "each board, median CPU time of 3 runs")
    args = ap.parse_args(argv)
    if args.playout_speed:
        return playout_speed(args.file, args.boards, args.playout_speed)
    if args.resume and not args.log:
        ap.error("--resume needs --log FILE (the log to resume from)")
    tabu_ranks = [None if x.strip() == "dyn" else int(x) for x in args.tabu.split(",")]
    penalties = [int(x) for x in args.left_penalty.split(",")]
    boards = read_samegame_set(args.file)
    which = _selection(args.boards, len(boards))
    settings = run_settings(args)
    reused: dict[int, SameGameResult] = {}     # index in the file -> checked result
    resume_note = None
    if args.resume:
        found, other, unreadable, differ = read_log(args.log, settings)
        try:
            for i in which:
                if i + 1 in found:
                    n, rec = found[i + 1]
                    reused[i] = checked_record(boards[i], rec,
                                               f"{args.log} line {n} (board {i + 1})")
        except RecordRefused as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        resume_note = (f"# resume from {args.log}: "
                       + (f"boards {sorted(i + 1 for i in reused)} reused, their clicks "
                          "replayed by the reference rules" if reused else
                          "no finished board of these settings"))
        if other or unreadable:
            resume_note += ("; ignored: " + ", ".join(
                ([f"{other} record(s) of other settings (differing in "
                  f"{', '.join(differ)})"] if other else [])
                + ([f"{unreadable} line(s) not whole JSON (a run killed mid-write)"]
                   if unreadable else [])))
    log = None
    if args.log:
        p = Path(args.log)
        ends_open = p.exists() and p.stat().st_size and p.read_bytes()[-1:] != b"\n"
        log = open(p, "a", encoding="utf-8")
        if ends_open:
            log.write("\n")        # a killed run's last line stays a line of its own

    def out(line: str) -> None:
        print(line, flush=True)
        if log:
            log.write(line + "\n")
            log.flush()

    out(f"# SameGame benchmark {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
        f"UTC on {platform.machine()} ({os.cpu_count()} cores), Python "
        f"{platform.python_version()}")
    out(f"# {shown_path(args.file)}: boards {[i + 1 for i in which]}; "
        f"{args.time_limit:g} s a board "
        f"({args.clock} clock), {args.jobs} jobs, seed {args.seed}, {args.workers} "
        f"search(es) a board, {args.restarts} sub-search(es) a search"
        + (f" (the best continued for {args.continue_share:g} of the budget)"
           if args.continue_share and args.restarts > 1 else "")
        + f", tabu {args.tabu}, left penalty {args.left_penalty}, "
        f"{args.threads or 'default'} thread(s) a search; scoring (n-2)^2 a group, "
        "+1000 cleared, no end penalty")
    out(f"# load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if resume_note:
        out(resume_note)
    t0 = time.perf_counter()

    def line(number: int, r, tail: str = "") -> str:
        return (f"board {number:2d}: {r.score:5d}  "
                f"{'cleared' if r.cleared else f'{r.blocks_left} left':>9s}  "
                f"{r.playouts:>10,} playouts  wall {r.seconds:6.1f} s  cpu "
                f"{r.cpu_seconds:6.1f} s"
                + (f"  best seed {r.seed} (" + ", ".join(f"seed {a}: {b}" for a, b in r.searches)
                   + ")" if args.workers > 1 else "") + tail)

    for i in which:
        if i in reused:
            out(line(i + 1, reused[i], "  reused"))
    todo = [i for i in which if i not in reused]

    def report(j: int, r) -> None:
        out(line(todo[j] + 1, r))
        if log:
            log.write(json.dumps(board_record(todo[j] + 1, boards[todo[j]], r, settings))
                      + "\n")
            log.flush()

    played = bench_samegame([boards[i] for i in todo], time_limit=args.time_limit,
                            seed=args.seed, jobs=args.jobs, clock=args.clock,
                            max_playouts=args.max_playouts, progress=report,
                            workers=args.workers, restarts=args.restarts,
                            threads=args.threads, continue_share=args.continue_share,
                            tabu_ranks=tabu_ranks, left_penalty=penalties) if todo else []
    by_index = {**reused, **dict(zip(todo, played, strict=True))}
    results = [by_index[i] for i in which]
    total = sum(r.score for r in results)
    out(f"total: {total} over {len(results)} boards, {sum(r.cleared for r in results)} "
        f"cleared" + (f" ({len(reused)} reused)" if reused else "")
        + f"; wall {time.perf_counter() - t0:.0f} s")
    if len(results) == len(boards) and Path(args.file).resolve() == STANDARD_SET.resolve():
        for name, value in PUBLISHED_TOTALS.items():
            out(f"  {name}: {value} (ours {total - value:+d})")
    out(f"# load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    out(f"# search: {results[0].algorithm if results else '-'}")
    if args.json_out:
        write_json_out(args.json_out, settings, args, [i + 1 for i in which],
                       [boards[i] for i in which], results)
        out(f"# {len(results)} boards' clicks written to {args.json_out}")
    if log:
        log.close()
    return 0

if __name__ == "__main__":
    sys.exit(main())
