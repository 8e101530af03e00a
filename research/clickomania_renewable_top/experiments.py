"""Renewable-top search (see README.md, this folder).

Run:  .venv/bin/python research/clickomania_renewable_top/experiments.py   # a few minutes

Two columns: R short (height r), L = T's left column + a one-column tail (a spin word over
"0"/"1", spin = [colour = A] xor ((c + h) mod 2), as in ../clickomania_two_colour_dynamics/).
board(T, w) = engine.from_rows(T, tail_l=w).  Every claim in README.md marked *measured*
is asserted here.
"""
from __future__ import annotations

import itertools
import os
import random
import sys
import time
from functools import cache

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "clickomania_two_colour_dynamics"))

from engine import (  # noqa: E402
    ROW,
    canon,
    check_against_reference,
    click,
    from_rows,
    groups,
    reachable,
    solvable,
)

from clobbermania.clickomania.column import is_solvable  # noqa: E402


def row_words(r):
    """Row words of length r, one per colour-swap class (first letter a or x)."""
    return ["".join(w) for w in itertools.product("abxy", repeat=r) if w[0] in "ax"]


def spin_words(lo, hi):
    return ["".join(w) for n in range(lo, hi + 1) for w in itertools.product("01", repeat=n)]


def board(t, tail):
    return from_rows(t, tail)


def l_only_moves(state):
    """Groups lying entirely in column 0 (they touch no block of R)."""
    return [g for g in groups(state) if all(c == 0 for c, _ in g)]


@cache
def l_only_reach(state, target):
    """Can L-only clicks turn ``state`` into ``target`` (both canonical)?"""
    if state == target:
        return True
    if len(state) != len(target) or len(state[0]) <= len(target[0]):
        return False
    return any(l_only_reach(canon(click(state, g)), target) for g in l_only_moves(state))


def fall(v, k):
    """The spin word of V after it falls by k rows (colours kept, spins flip if k odd)."""
    return v if k % 2 == 0 else v.translate(str.maketrans("01", "10"))


def renewable(t, u, contexts):
    """board(T, u V) ->* board(T, V fallen by |u|) for every V in contexts."""
    return all(l_only_reach(board(t, u + v), board(t, fall(v, len(u))))
               for v in contexts if not v or v[0] == u[-1])


def one_column_renewable(t, u, contexts):
    """The same with R deleted: L's colour string alone (one-column play)."""
    def col(tail):
        return canon((board(t, tail)[0],))
    return all(l_only_reach(col(u + v), col(fall(v, len(u))))
               for v in contexts if not v or v[0] == u[-1])


# -- E0 -----------------------------------------------------------------------------------
def e0_engine():
    n = check_against_reference(200, seed=7)
    print(f"E0 engine clicks = reference rules on {n} random clicks")


# -- E1: Lemma R (R only shrinks) -- full rules versus L-only search ------------------------
def e1_lemma_r(rmax=3, umax=6):
    """With full rules, board(T, u) reaches board(T, '') iff it does by L-only clicks; and
    every reachable state has at most |R| blocks in R (clicks never add blocks)."""
    pairs = hits = 0
    for r in range(1, rmax + 1):
        for t in row_words(r):
            target = board(t, "")
            for u in spin_words(1, umax):
                s = board(t, u)
                reach = reachable(s)
                full = target in reach
                assert full == l_only_reach(s, target), (t, u)
                pairs += 1
                hits += full
    print(f"E1 Lemma R: {pairs} pairs (r<={rmax}, |u|<={umax}); full-rule renewal = "
          f"L-only renewal on all of them ({hits} renewable)")


# -- E2: census of renewable pairs ----------------------------------------------------------
def e2_census(rmax=5, umax=8, ctx_len=2):
    contexts = [""] + spin_words(1, ctx_len)
    out = {}
    by_top = {}
    for r in range(1, rmax + 1):
        n_pairs = n_ren = n_stack = n_masked = n_tdep = 0
        first = None
        for t in row_words(r):
            for u in spin_words(1, umax):
                n_pairs += 1
                if not l_only_reach(board(t, u), board(t, "")):
                    continue
                n_ren += 1
                if not renewable(t, u, contexts):
                    continue
                n_stack += 1
                if first is None or len(u) < len(first[1]):
                    first = (t, u)
                # u continues T's top spin (no wall at the junction) and its colour
                # string is one-column clearable (Biedl et al.'s grammar)
                assert u[0] == str(ROW[t[-1]][0]), (t, u)
                assert is_solvable(list(board(t, u)[0][len(t):])), (t, u)
                by_top.setdefault(ROW[t[-1]][0], set()).add((t, u))
        for t in row_words(r):
            for u in spin_words(1, min(umax, 6)):
                alone = one_column_renewable(t, u, contexts)
                withr = renewable(t, u, contexts)
                assert not withr or alone, (t, u)  # R can only forbid clicks (a mask)
                n_masked += alone and not withr
                n_tdep += withr
        # the renewable u at T depend on T only through the spin of L's top block
        sets = {}
        for (t, u) in set().union(*by_top.values()):
            if len(t) == r:
                sets.setdefault(ROW[t[-1]][0], {}).setdefault(t, set()).add(u)
        for top, per_t in sets.items():
            assert len({frozenset(v) for v in per_t.values()}) == 1, (r, top)
        out[r] = (n_pairs, n_ren, n_stack, n_masked, first)
        print(f"E2 r={r}: {n_pairs} (T,u) pairs, |u|<={umax}: {n_ren} renew with V='', "
              f"{n_stack} for all {len(contexts)} contexts V (|V|<={ctx_len}); "
              f"shortest {first}; |u|<=6: {n_masked} renew in L alone but are blocked by "
              f"R's mask, none the other way")
    return out


# -- E3: what a segment can pass on: outcome sets with labelled blocks -----------------------
def outcomes(state, seg, nxt):
    """States B' (not canonicalised) such that B'.nxt is reachable from B.seg.nxt with
    every block of nxt untouched and every block of seg gone.  seg and nxt are colour
    tuples stacked on column 0; blocks carry labels 0 (B), 1 (seg), 2 (nxt)."""
    lab = [[(x, 0) for x in col] for col in state]
    lab[0] = lab[0] + [(x, 1) for x in seg] + [(x, 2) for x in nxt]
    start = tuple(tuple(c) for c in lab)
    seen = {start}
    stack = [start]
    res = set()
    while stack:
        s = stack.pop()
        labels = [lb for col in s for _, lb in col]
        if labels.count(2) < len(nxt):
            continue
        if 1 not in labels:
            cols = [tuple(x for x, lb in col if lb != 2) for col in s]
            res.add(tuple(cols[:1]) + tuple(col for col in cols[1:] if col) if cols else ((),))
        for g in groups(tuple(tuple(x for x, _ in col) for col in s)):
            t = click(s, g)
            if t not in seen:
                seen.add(t)
                stack.append(t)
    return res


def dp_stack(t, segs):
    """Window DP over (segment index, board below the rest): each segment is consumed
    with the next one as untouched lookahead.  Returns (verdict, largest state set)."""
    full = board(t, "".join(segs))
    left = full[0]
    cuts = [len(t)]
    for s in segs:
        cuts.append(cuts[-1] + len(s))
    pieces = [left[cuts[i]:cuts[i + 1]] for i in range(len(segs))]
    states = {(left[:len(t)],) + full[1:]}
    widest = 1
    for i, seg in enumerate(pieces):
        nxt = pieces[i + 1] if i + 1 < len(pieces) else ()
        states = set().union(*(outcomes(b, seg, nxt) for b in states)) if states else set()
        widest = max(widest, len(states))
    return any(solvable(canon(tuple(c for c in b if c))) for b in states), widest


def e3_dp_vs_exact(t="aaxx", lib=("01", "0110", "0011", "011", "0100", "1"),
                   trials=150, kmax=4, seed=3):
    """Random stacks of library segments on T: window DP versus the exact solver."""
    rng = random.Random(seed)
    agree = dp_only = ex_only = 0
    for _ in range(trials):
        segs = [rng.choice(lib) for _ in range(rng.randint(1, kmax))]
        dp, _ = dp_stack(t, segs)
        ex = solvable(board(t, "".join(segs)))
        assert not (dp and not ex), (t, segs)  # the DP only replays real plays
        agree += dp == ex
        ex_only += ex and not dp
        dp_only += dp and not ex
    print(f"E3 window DP vs exact solver, T={t}, {trials} random stacks of <= {kmax} "
          f"segments from {list(lib)}: agree {agree}, solvable but missed by the DP "
          f"{ex_only} (plays that are not segment-by-segment)")
    return agree, ex_only


# -- E4: semantic transparency (the brief's definition) --------------------------------------
def e4_transparency(rmax=3, umax=5, vmax=4):
    """(T, u) is transparent when clears(T, uV) == clears(T, V) for all |V| <= vmax."""
    vs = [""] + spin_words(1, vmax)
    ctx2 = [""] + spin_words(1, 2)
    n_disc = n_tr = n_tr_ren = 0
    examples = []
    for r in range(1, rmax + 1):
        for t in row_words(r):
            base = [solvable(board(t, v)) for v in vs]
            if all(base) or not any(base):
                continue  # T does not discriminate its contexts
            n_disc += 1
            for u in spin_words(1, umax):
                if all(solvable(board(t, u + v)) == b for v, b in zip(vs, base, strict=True)):
                    n_tr += 1
                    ren = renewable(t, u, ctx2)
                    n_tr_ren += ren
                    if not ren and len(examples) < 3:
                        examples.append((t, u))
    print(f"E4 transparency: {n_disc} discriminating T (r<={rmax}); {n_tr} transparent "
          f"(T,u) with |u|<={umax} over {len(vs)} contexts; {n_tr_ren} of them are "
          f"renewable by L-only clicks; others e.g. {examples}")
    return n_tr, n_tr_ren


def main():
    t0 = time.process_time()
    e0_engine()
    e1_lemma_r()
    e2_census(rmax=6)
    e3_dp_vs_exact()
    e4_transparency()
    print(f"total {time.process_time() - t0:.1f} s CPU")


if __name__ == "__main__":
    main()
