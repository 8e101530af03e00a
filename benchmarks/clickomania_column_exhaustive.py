"""One-column Clickomania: every string of up to 14 blocks over at most 4 colours (up to
colour permutation) checked against an exhaustive brute force.

For each string the three methods of :mod:`clobbermania.clickomania.column` are compared
with the brute force: the grammar DP in both forms (the cell-by-cell table and the rows
that ``solve_column`` uses: every interval, solvable, most blocks removable), the two-colour
theorems (on strings of at most two colours: the decision, the O(n^2) and the
O(n log n) optimization), and the witness of each (its clicks replayed
on the block string by an independent checker: each click a maximal run of two or more
equal blocks, and the blocks removed equal to the optimum).

The brute force is a table over all strings, shortest first: the value of a string (most
blocks removable) is the best over its clicks of the blocks clicked plus the value of the
string left, renamed to its canonical form (colours in order of first appearance) and
looked up by rank. Run: ``python benchmarks/clickomania_column_exhaustive.py [--max-len 14]``.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from clobbermania.clickomania import _column_kernels as K

KMAX = 4


def completions(max_len: int, kmax: int) -> np.ndarray:
    """``f[rem, m]``: restricted-growth completions of length rem when m+1 colours are used
    (so ``f[n-1, 0]`` strings of length n)."""
    f = np.zeros((max_len + 1, kmax + 1), np.int64)
    f[0, :] = 1
    for rem in range(1, max_len + 1):
        for m in range(kmax):
            f[rem, m] = (m + 1) * f[rem - 1, m] + (f[rem - 1, m + 1] if m + 1 < kmax else 0)
    return f


@njit(cache=True)
def _rank(s, n, f):
    r = 0
    mx = -1
    for i in range(n):
        for v in range(s[i]):
            r += f[n - 1 - i, max(mx, v)]
        mx = max(mx, s[i])
    return r


@njit(cache=True)
def _canon(s, n, out):
    names = np.full(KMAX, -1, np.int64)
    k = 0
    for i in range(n):
        if names[s[i]] < 0:
            names[s[i]] = k
            k += 1
        out[i] = names[s[i]]


@njit(cache=True)
def _runs(s, n, col, mult):
    r = 0
    for i in range(n):
        if r > 0 and col[r - 1] == s[i]:
            mult[r - 1] += 1
        else:
            col[r] = s[i]
            mult[r] = 1
            r += 1
    return r


@njit(cache=True)
def _segments(choice, lo, hi):
    j = choice.shape[0] - 1
    k = 0
    while j > 0:
        i = choice[j]
        if i < 0:
            j -= 1
        else:
            lo[k] = i
            hi[k] = j - 1
            k += 1
            j = i
    return k


@njit(cache=True)
def _witness_ok(s, n, first, size, expect):
    """Replay clicks (first block, size) on the block string: each a maximal run of >= 2."""
    cur = s[:n].copy()
    m = n
    for t in range(first.shape[0]):
        a = first[t]
        z = a + size[t]
        if size[t] < 2 or z > m:
            return False
        for i in range(a, z):
            if cur[i] != cur[a]:
                return False
        if a > 0 and cur[a - 1] == cur[a]:
            return False
        if z < m and cur[z] == cur[a]:
            return False
        for i in range(z, m):
            cur[i - size[t]] = cur[i]
        m -= size[t]
    return n - m == expect


# not cached: numba's cache does not see changes in the kernels this calls
@njit(cache=False)
def _check_length(n, f, values, offsets, out_counts):
    """Every canonical string of length n: fill values[offsets[n] + rank] and compare.

    out_counts[k, :] for strings of exactly k colours: strings, solvable, grammar decision
    mismatches, grammar optimum mismatches, witness failures, two-colour decision
    mismatches, two-colour optimum mismatches.
    """
    s = np.zeros(n, np.int64)
    pm = np.zeros(n, np.int64)  # prefix maxima
    nxt = np.zeros(n, np.int64)
    col = np.zeros(n, np.int64)
    mult = np.zeros(n, np.int64)
    lo = np.zeros(n, np.int64)
    hi = np.zeros(n, np.int64)
    grp = np.zeros(n, np.int64)
    total = f[n - 1, 0]  # the first block is colour 0
    # the first string is all zeros; then increment in lexicographic (= rank) order
    for r in range(total):
        if r > 0:
            i = n - 1
            while True:
                lim = min(KMAX - 1, pm[i - 1] + 1)
                if s[i] < lim:
                    s[i] += 1
                    break
                s[i] = 0
                i -= 1
            for t in range(i, n):
                pm[t] = max(pm[t - 1], s[t]) if t > 0 else s[t]
        else:
            for t in range(n):
                s[t] = 0
                pm[t] = 0
        ncol = pm[n - 1] + 1
        nr = _runs(s, n, col, mult)
        # brute force
        best = 0
        start = 0
        for q in range(nr):
            if mult[q] >= 2:
                # the string without run q, renamed
                m2 = 0
                for t in range(start):
                    nxt[m2] = s[t]
                    m2 += 1
                for t in range(start + mult[q], n):
                    nxt[m2] = s[t]
                    m2 += 1
                _canon(nxt, m2, nxt)
                v = mult[q] + (values[offsets[m2] + _rank(nxt, m2, f)] if m2 > 0 else 0)
                if v > best:
                    best = v
            start += mult[q]
        values[offsets[n] + r] = best
        solv = best == n
        out_counts[ncol, 0] += 1
        if solv:
            out_counts[ncol, 1] += 1
        # grammar DP
        c_ = col[:nr].copy()
        m_ = mult[:nr].copy()
        A, B, Bm, cm = K.k_clearable_table(c_, m_, ncol)
        if K.k_clearable(A, 0, nr - 1) != solv:
            out_counts[ncol, 2] += 1
        bb, choice = K.k_optimize(m_, B)
        if bb[nr] != best:
            out_counts[ncol, 3] += 1
        ns = _segments(choice, lo, hi)
        for t in range(nr):
            grp[t] = -1
        g = K.k_derive(c_, A, B, Bm, cm, lo[:ns], hi[:ns], grp[:nr])
        first, size, _ = K.k_execute(c_, m_, grp[:nr].copy(), g)
        if not _witness_ok(s, n, first, size, best):
            out_counts[ncol, 4] += 1
        # the grammar DP by rows (what solve_column uses), and its witness
        R, CH, cm2 = K.k_clearable_rows(c_, m_, ncol)
        for i in range(nr):
            for j in range(i, nr):
                if K._bit(R, i, j) != K.k_clearable(A, i, j):
                    out_counts[ncol, 2] += 1
        br, chr_ = K.k_optimize_rows(m_, R)
        if br[nr] != best:
            out_counts[ncol, 3] += 1
        ns = _segments(chr_, lo, hi)
        for t in range(nr):
            grp[t] = -1
        g = K.k_derive_rows(c_, m_, R, CH, cm2, lo[:ns], hi[:ns], grp[:nr])
        first, size, _ = K.k_execute(c_, m_, grp[:nr].copy(), g)
        if not _witness_ok(s, n, first, size, best):
            out_counts[ncol, 4] += 1
        # two colours
        if ncol <= 2:
            sp = K.k_two_solvable(m_)
            if (sp != -2) != solv:
                out_counts[ncol, 5] += 1
            b2, _ = K.k_two_optimize(m_)
            kept, ch2 = K.k_two_min_kept(m_)
            if b2[nr] != best or n - kept[nr] != best:
                out_counts[ncol, 6] += 1
            prev, nx = K.k_big_neighbours(m_)
            for t in range(nr):
                grp[t] = -1
            g = 0
            if sp != -2:
                if sp == -1:
                    g = K.k_two_plan(m_, prev, nx, 0, nr - 1, grp[:nr], g)
                else:
                    g = K.k_two_plan(m_, prev, nx, 0, sp - 1, grp[:nr], g)
                    g = K.k_two_plan(m_, prev, nx, sp, nr - 1, grp[:nr], g)
            else:
                ns = _segments(ch2, lo, hi)
                for t in range(ns):
                    g = K.k_two_plan(m_, prev, nx, lo[t], hi[t], grp[:nr], g)
            first, size, _ = K.k_execute(c_, m_, grp[:nr].copy(), g)
            if not _witness_ok(s, n, first, size, best):
                out_counts[ncol, 4] += 1


FIELDS = ("strings", "solvable", "grammar decision", "grammar optimum", "witness",
          "two-colour decision", "two-colour optimum")


def run(max_len: int, quiet: bool = False) -> np.ndarray:
    """Check every length 1..max_len; returns counts[length, colours, field]."""
    f = completions(max_len, KMAX)
    offsets = np.zeros(max_len + 2, np.int64)
    for n in range(1, max_len + 1):
        offsets[n + 1] = offsets[n] + f[n - 1, 0]
    values = np.zeros(offsets[max_len + 1], np.uint8)
    counts = np.zeros((max_len + 1, KMAX + 1, len(FIELDS)), np.int64)
    for n in range(1, max_len + 1):
        t0 = time.perf_counter()
        _check_length(n, f, values, offsets, counts[n])
        if not quiet:
            row = counts[n]
            bad = int(row[:, 2:].sum())
            print(f"length {n:2d}: {int(row[:, 0].sum()):>10,} strings "
                  f"({', '.join(f'{k} colours {int(row[k, 0]):,}' for k in range(1, KMAX + 1))})"
                  f", solvable {int(row[:, 1].sum()):,}, mismatches {bad}, "
                  f"{time.perf_counter() - t0:.1f} s", flush=True)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-len", type=int, default=14)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    counts = run(args.max_len)
    total = counts.sum(axis=0)
    print(f"\nall strings of 1..{args.max_len} blocks, at most {KMAX} colours, up to colour "
          f"permutation ({time.perf_counter() - t0:.0f} s):")
    print(f"{'colours':>8} " + " ".join(f"{h:>20}" for h in FIELDS))
    for k in range(1, KMAX + 1):
        print(f"{k:>8} " + " ".join(f"{int(v):>20,}" for v in total[k]))
    bad = int(total[:, 2:].sum())
    print(f"mismatches: {bad}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
