"""Numba kernels of impartial Clobber: the Grundy value of a component on a board of at
most 64 squares, with a memo keyed by the component's canonical bitsets.

A position is two uint64 bitsets (black, white); ``adj[v]`` is the bitset of v's
neighbours. Moves are those of the reference generator ``Position.moves()`` (a stone of
either colour onto an adjacent stone of the other colour); the tests hold
:func:`impartial_moves` equal to it on random positions, and the values equal to a plain
recursion over ``Position``.

Canonical key of a component: the least (black, white) pair over the board's symmetries
(tabulated byte by byte by :func:`perm_tables`) and the colour swap; on a grid (``cols > 0``) every
image is first translated to touch the top row and the left column (a right shift by
``r0 * cols + c0``: no stone has column < c0, so nothing wraps).

The memo is an open-addressing hash table in three numpy arrays (black keys, white keys,
int16 values; 18 bytes a slot, against about 105 bytes an entry for a numba typed dict),
indexed by the splitmix64 finaliser of the key. A free slot has black key ``EMPTY_KEY``
(all ones: no component has every square black and a white stone too). When the table
is 70 % full the search stops as if its budget had run out; the caller grows the table
(:func:`grow_memo`) and calls again, and the finished values are kept.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..solitaire._kernels import U0, U1, U8, U255, bit_index, flood, lowbit, mix64

EMPTY_KEY = np.uint64(0xFFFFFFFFFFFFFFFF)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# symmetries tabulated for canonical keys (16 KiB each); a cycle board lists 2n
MAX_SYMMETRIES = 64
# the fill (in 1/10) at which a search stops so that the table can grow
MAX_FILL_TENTHS = 7


class Memo:
    """The kernel's table and its entry count (``count[0]``)."""

    def __init__(self, capacity_log2: int = 16) -> None:
        cap = 1 << capacity_log2
        self.keys_b = np.full(cap, EMPTY_KEY, dtype=np.uint64)
        self.keys_w = np.zeros(cap, dtype=np.uint64)
        self.vals = np.zeros(cap, dtype=np.int16)
        self.count = np.zeros(1, dtype=np.int64)

    def __len__(self) -> int:
        return int(self.count[0])

    @property
    def full(self) -> bool:
        return self.count[0] * 10 >= self.keys_b.shape[0] * MAX_FILL_TENTHS

    def nbytes(self) -> int:
        return self.keys_b.nbytes + self.keys_w.nbytes + self.vals.nbytes

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.keys_b, self.keys_w, self.vals, self.count


def new_memo() -> Memo:
    """An empty memo: canonical (black, white) -> Grundy value."""
    return Memo()


def grow_memo(memo: Memo) -> None:
    """Double the table of ``memo``, keeping every entry."""
    cap = memo.keys_b.shape[0] * 2
    kb = np.full(cap, EMPTY_KEY, dtype=np.uint64)
    kw = np.zeros(cap, dtype=np.uint64)
    vals = np.zeros(cap, dtype=np.int16)
    _rehash(memo.keys_b, memo.keys_w, memo.vals, kb, kw, vals)
    memo.keys_b, memo.keys_w, memo.vals = kb, kw, vals


@njit(cache=True, inline="always")
def _slot(kb, kw, mask):
    return mix64(kb * GOLDEN ^ kw) & mask


@njit(cache=True)
def _find(keys_b, keys_w, kb, kw):
    """The slot of key (kb, kw), or of the free slot where it would go."""
    mask = np.uint64(keys_b.shape[0] - 1)
    i = _slot(kb, kw, mask)
    while True:
        cur = keys_b[i]
        if cur == EMPTY_KEY or (cur == kb and keys_w[i] == kw):
            return i
        i = (i + U1) & mask


@njit(cache=True)
def _rehash(ob, ow, ov, nb, nw, nv):
    for i in range(ob.shape[0]):
        if ob[i] != EMPTY_KEY:
            j = _find(nb, nw, ob[i], ow[i])
            nb[j] = ob[i]
            nw[j] = ow[i]
            nv[j] = ov[i]


def memo_get(memo: Memo, kb: int, kw: int) -> int | None:
    """The stored value of canonical key (kb, kw), or None (for tests and tools)."""
    i = _find(memo.keys_b, memo.keys_w, np.uint64(kb), np.uint64(kw))
    return None if memo.keys_b[i] == EMPTY_KEY else int(memo.vals[i])


def perm_tables(perms: np.ndarray) -> np.ndarray:
    """``tabs[s, k, byte]``: the image under symmetry s of the squares 8k..8k+7 in ``byte``
    (so a bitset's image is the OR of one entry per byte). At most ``MAX_SYMMETRIES`` rows
    of ``perms`` are used: a key that is the least image over some of the symmetries is
    still an image of the component, so it stays sound, only shared less."""
    perms = np.asarray(perms, dtype=np.int64)[:MAX_SYMMETRIES]
    nperm, n = perms.shape
    tabs = np.zeros((nperm, 8, 256), dtype=np.uint64)
    byte = np.arange(256)
    for k in range(8):
        for j in range(8):
            v = 8 * k + j
            if v >= n:
                break
            has = (byte >> j) & 1 == 1
            for s in range(nperm):
                tabs[s, k, has] |= np.uint64(1 << int(perms[s, v]))
    return tabs


@njit(cache=True, inline="always")
def _image(m, tabs, s, nbytes):
    out = U0
    for k in range(nbytes):
        out |= tabs[s, k, (m >> np.uint64(8 * k)) & U255]
    return out


@njit(cache=True)
def _translate(m, cols):
    # shift to the top row and to the least occupied column (columns found by folding
    # the rows onto the first one)
    low = lowbit(m)
    r0 = bit_index(low) // cols
    row = (U1 << np.uint64(cols)) - U1
    colbits = U0
    f = m >> np.uint64(r0 * cols)
    while f != U0:
        colbits |= f & row
        f >>= np.uint64(cols)
    c0 = bit_index(lowbit(colbits))
    return np.uint64(r0 * cols + c0)


@njit(cache=True)
def canonical(b, w, tabs, cols):
    """The least (black, white) image of a component under the symmetries tabulated in
    ``tabs`` (see :func:`perm_tables`) and the colour swap."""
    best_b = ~U0
    best_w = ~U0
    nperm = tabs.shape[0]
    top = b | w
    nbytes = 0
    while top != U0:
        nbytes += 1
        top >>= U8
    for s in range(nperm):
        ib = _image(b, tabs, s, nbytes)
        iw = _image(w, tabs, s, nbytes)
        if cols > 0:
            sh = _translate(ib | iw, cols)
            ib >>= sh
            iw >>= sh
        if ib < best_b or (ib == best_b and iw < best_w):
            best_b = ib
            best_w = iw
        if iw < best_b or (iw == best_b and ib < best_w):
            best_b = iw
            best_w = ib
    return best_b, best_w


@njit(cache=True)
def impartial_moves(b, w, adj, n):
    """Every impartial move as two arrays (src, dst): black stones first, then white, each
    stone's moves in increasing neighbour order (the order of ``Position.moves()``)."""
    src = np.empty(4 * n + 8, dtype=np.int64)
    dst = np.empty(4 * n + 8, dtype=np.int64)
    k = 0
    for colour in range(2):
        mine = b if colour == 0 else w
        theirs = w if colour == 0 else b
        for v in range(n):
            if (mine >> np.uint64(v)) & U1:
                prey = adj[v] & theirs
                while prey != U0:
                    lb = lowbit(prey)
                    if k == src.shape[0]:
                        src = np.concatenate((src, np.empty_like(src)))
                        dst = np.concatenate((dst, np.empty_like(dst)))
                    src[k] = v
                    dst[k] = bit_index(lb)
                    k += 1
                    prey ^= lb
    return src[:k], dst[:k]


@njit(cache=True)
def component_value(b, w, adj, tabs, cols, keys_b, keys_w, vals, count, budget):
    """The Grundy value of the connected component (b, w): mex over its moves of the XOR of
    the values of the parts each move leaves.

    ``budget[0]`` is decremented for each value computed; when it goes negative, or the
    table is 70 % full, the search returns -1 at once (the table keeps what was finished,
    so a new call, after growing the table, resumes).
    """
    if b == U0 or w == U0:
        return 0
    kb, kw = canonical(b, w, tabs, cols)
    slot = _find(keys_b, keys_w, kb, kw)
    if keys_b[slot] != EMPTY_KEY:
        return np.int64(vals[slot])
    budget[0] -= 1
    if budget[0] < 0:
        return -1
    occ = b | w
    # collect the XOR of every option first, then take the mex
    nopt = 0
    options = np.empty(256, dtype=np.int64)
    f = occ
    while f != U0:
        lb = lowbit(f)
        f ^= lb
        v = bit_index(lb)
        mover_black = (b & lb) != U0
        prey = adj[v] & (w if mover_black else b)
        while prey != U0:
            lp = lowbit(prey)
            prey ^= lp
            if mover_black:
                nb = (b & ~lb) | lp
                nw = w & ~lp
            else:
                nw = (w & ~lb) | lp
                nb = b & ~lp
            nocc = nb | nw
            rem = nocc
            g = 0
            while rem != U0:
                comp = flood(lowbit(rem), nocc, adj)
                rem &= ~comp
                cb = comp & nb
                cw = comp & nw
                if cb != U0 and cw != U0:
                    part = component_value(cb, cw, adj, tabs, cols, keys_b, keys_w, vals,
                                           count, budget)
                    if part < 0:
                        return -1
                    g ^= part
            if nopt == options.shape[0]:
                options = np.concatenate((options, np.empty_like(options)))
            options[nopt] = g
            nopt += 1
    seen = np.zeros(nopt + 1, dtype=np.bool_)
    for i in range(nopt):
        if options[i] <= nopt:
            seen[options[i]] = True
    m = 0
    while seen[m]:
        m += 1
    # the slot found before the children were searched may since have been taken
    slot = _find(keys_b, keys_w, kb, kw)
    keys_b[slot] = kb
    keys_w[slot] = kw
    vals[slot] = m
    count[0] += 1
    if count[0] * 10 >= keys_b.shape[0] * MAX_FILL_TENTHS:
        budget[0] = -1  # stop: the caller grows the table, then resumes
    return m
