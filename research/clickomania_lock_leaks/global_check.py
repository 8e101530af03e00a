"""Global re-check of the insert search's stage-1 candidates (README section 6).

    .venv/bin/python research/clickomania_lock_leaks/global_check.py 4   # about 15 min
    .venv/bin/python research/clickomania_lock_leaks/global_check.py 4 0 survivors.json

(the second form writes every survivor to a JSON file for leak_check.py; a third and
fourth argument K N check only candidates with index = K mod N, for parallel runs).

For each candidate (key and gate inserts quiet at every lattice shift but one), the exact
solver finds the most blocks removable at the matching shift on two finite windows whose
background margins differ by 2P rows. A lock that does not unzip removes the same number
on both; an unzipping one removes more on the larger window.
"""

from __future__ import annotations

import json
import pathlib
import random
import sys
import time

from clobbermania.clickomania.rules import Board
from clobbermania.clickomania.solver import solve_clickomania

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent
                       / "clickomania_insert_search"))
import search  # noqa: E402


def most_removed(cand, margin: int, time_limit: float = 4.0):
    L, R, *_ = search.window(cand, margin)
    board = Board.from_columns([L, R], height=len(L))
    r = solve_clickomania(board, maximize=True, time_limit=time_limit)
    return r.removed, r.exact, board.n_blocks


def main() -> None:
    P = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    out = sys.argv[3] if len(sys.argv) > 3 else None
    part, parts = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0, 1)
    cands = search.stage1(P)
    if limit and len(cands) > limit:
        cands = random.Random(1).sample(cands, limit)
    cands = cands[part::parts]
    t0 = time.time()
    good, undecided = [], 0
    for cand in cands:
        a = most_removed(cand, 2 * P + 3)
        b = most_removed(cand, 4 * P + 3)
        if not (a[1] and b[1]):
            undecided += 1
        elif a[0] == b[0] < a[2]:
            good.append((cand, a[0]))
    print(f"P={P}: {len(cands)} candidates, {len(good)} with a margin-independent maximum, "
          f"{undecided} undecided, {time.time() - t0:.0f} s")
    if out:
        pathlib.Path(out).write_text(json.dumps(good))  # tuples become lists
    for cand, m in good[:20]:
        bL, bR, r, k, jL, g, jR, ts = cand
        print(f"  bL {search.fmt(bL)} bR {search.fmt(bR)} key {search.fmt(k)} (resume {jL}) "
              f"gate {search.fmt(g)} (resume {jR}) t* {ts}: at most {m} removed")


if __name__ == "__main__":
    main()
