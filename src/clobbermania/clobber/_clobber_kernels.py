"""Numba kernels for Clobber values on grids: a part as an h x w bitboard (h * w <= 63).

Square (r, c) of the part's bounding box is bit ``r * w + c``; ``b`` and ``wm`` are the
black and white stones. :func:`part_options` lists every option of a part (Black's, then
White's), each option split into its connected parts, cropped and put in canonical form
(:func:`canonical`: the least (h, w, black, white) among the 8 symmetries of the box and
their colour swaps, with a flag when the least is a swapped image, whose value is the
negative). The moves are those of the reference generator
(:meth:`clobbermania.stones.Position.moves`); ``tests/test_clobber_values.py`` holds the
kernel's options equal to it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._bits import GOLDEN, mix64, reverse_low
from ..cgt._cgt_kernels import sum_get

MAX_CELLS = 63   # the bits of a non-negative int64


@njit(cache=True, inline="always")
def _reverse(x, n):
    """The n squares of part x (0 < n < 64) in reverse order: the part turned by 180
    degrees."""
    return np.int64(reverse_low(np.uint64(x), n))


@njit(cache=True)
def _flip_rows(x, h, w):
    """The h x w part x upside down (row r goes to row h - 1 - r), a row at a time."""
    row = (np.int64(1) << w) - 1
    out = np.int64(0)
    for r in range(h):
        out |= ((x >> (r * w)) & row) << ((h - 1 - r) * w)
    return out


@njit(cache=True)
def _transpose(x, h, w):
    """The h x w part x transposed into a w x h box: square (r, c) goes to (c, r)."""
    out = np.int64(0)
    i = 0
    for r in range(h):
        for c in range(w):
            if (x >> i) & 1:
                out |= np.int64(1) << (c * h + r)
            i += 1
    return out


@njit(cache=True)
def _less(h1, w1, b1, x1, h2, w2, b2, x2):
    if h1 != h2:
        return h1 < h2
    if w1 != w2:
        return w1 < w2
    if b1 != b2:
        return b1 < b2
    return x1 < x2


@njit(cache=True)
def canonical(h, w, b, wm):
    """(H, W, black, white, negated) of the least image of the part (see the module).

    The images of an h x w box are the part itself, turned by 180 degrees (its bits
    reversed), and each of those upside down (a row at a time); transposed, the same four
    of the transpose. The least image has the fewer rows, so a box that is not square
    needs only the four with min(h, w) rows."""
    if h > w:                   # only the transposed images can be least
        b = _transpose(b, h, w)
        wm = _transpose(wm, h, w)
        h, w = w, h
    n = h * w
    bh, bw, bb, bx, neg = h, w, b, wm, False
    if wm < b:
        bb, bx, neg = wm, b, True
    for t in range(8 if h == w else 4):
        if t == 4:              # a square box: its transposed images too
            b = _transpose(b, h, w)
            wm = _transpose(wm, h, w)
        k = t & 3
        if k == 0:
            if t == 0:
                continue        # the part itself, taken above
            ob, ow = b, wm
        elif k == 1:
            ob, ow = _reverse(b, n), _reverse(wm, n)
        elif k == 2:
            ob, ow = _flip_rows(b, h, w), _flip_rows(wm, h, w)
        else:
            ob, ow = _flip_rows(_reverse(b, n), h, w), _flip_rows(_reverse(wm, n), h, w)
        if _less(h, w, ob, ow, bh, bw, bb, bx):
            bh, bw, bb, bx, neg = h, w, ob, ow, False
        if _less(h, w, ow, ob, bh, bw, bb, bx):
            bh, bw, bb, bx, neg = h, w, ow, ob, True
    return bh, bw, bb, bx, neg


@njit(cache=True)
def _crop(h, w, b, wm):
    """The part cut down to its bounding box: (H, W, b', w'), a row at a time."""
    stones = b | wm
    row = (np.int64(1) << w) - 1
    r0, r1 = h, -1
    cols = np.int64(0)
    for r in range(h):
        bits = (stones >> (r * w)) & row
        if bits:
            if r0 == h:
                r0 = r
            r1 = r
            cols |= bits
    c0 = 0
    while not (cols >> c0) & 1:
        c0 += 1
    c1 = w - 1
    while not (cols >> c1) & 1:
        c1 -= 1
    H, W = r1 - r0 + 1, c1 - c0 + 1
    keep = (np.int64(1) << W) - 1
    ob = np.int64(0)
    ow = np.int64(0)
    for r in range(r0, r1 + 1):
        shift = r * w + c0
        ob |= ((b >> shift) & keep) << ((r - r0) * W)
        ow |= ((wm >> shift) & keep) << ((r - r0) * W)
    return H, W, ob, ow


@njit(cache=True)
def _col_masks(h, w):
    not_first = np.int64(0)
    not_last = np.int64(0)
    for r in range(h):
        for c in range(w):
            bit = np.int64(1) << (r * w + c)
            if c > 0:
                not_first |= bit
            if c < w - 1:
                not_last |= bit
    return not_first, not_last


@njit(cache=True)
def part_options(h, w, b, wm):
    """Every option of the part, split and canonical.

    Returns (side, start, parts): option k is Black's when side[k] == 0, White's when 1;
    its parts are rows start[k]..start[k+1]-1 of ``parts`` (H, W, black, white, negated).
    Parts where nobody can ever move (one colour, or a lone stone) are left out.
    """
    not_first, not_last = _col_masks(h, w)
    n = h * w
    count = 0
    for i in range(n):
        bit = np.int64(1) << i
        if (b | wm) & bit:
            r, c = i // w, i % w
            theirs = wm if b & bit else b
            if r > 0 and theirs & (bit >> w):
                count += 1
            if r < h - 1 and theirs & (bit << w):
                count += 1
            if c > 0 and theirs & (bit >> 1):
                count += 1
            if c < w - 1 and theirs & (bit << 1):
                count += 1
    side = np.empty(count, np.int64)
    start = np.empty(count + 1, np.int64)
    parts = np.empty((4 * count + 1, 5), np.int64)
    k = 0
    p = 0
    for s in range(2):
        mine = b if s == 0 else wm
        theirs = wm if s == 0 else b
        for i in range(n):
            bit = np.int64(1) << i
            if not mine & bit:
                continue
            r, c = i // w, i % w
            for d in range(4):
                if d == 0:
                    if r == 0:
                        continue
                    j = i - w
                elif d == 1:
                    if c == 0:
                        continue
                    j = i - 1
                elif d == 2:
                    if c == w - 1:
                        continue
                    j = i + 1
                else:
                    if r == h - 1:
                        continue
                    j = i + w
                dbit = np.int64(1) << j
                if not theirs & dbit:
                    continue
                nm = (mine ^ bit) | dbit
                nt = theirs ^ dbit
                nb = nm if s == 0 else nt
                nw = nt if s == 0 else nm
                side[k] = s
                start[k] = p
                stones = nb | nw
                rest = stones
                while rest:
                    comp = rest & -rest
                    while True:
                        grow = comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) \
                            | (comp << w) | (comp >> w)
                        grow &= stones
                        if grow == comp:
                            break
                        comp = grow
                    rest ^= comp
                    if comp & nb and comp & nw:
                        H, W, cb, cw = _crop(h, w, nb & comp, nw & comp)
                        H, W, cb, cw, neg = canonical(H, W, cb, cw)
                        parts[p, 0] = H
                        parts[p, 1] = W
                        parts[p, 2] = cb
                        parts[p, 3] = cw
                        parts[p, 4] = 1 if neg else 0
                        p += 1
                k += 1
    start[k] = p
    return side, start, parts[:p]


# --- the whole tree of parts in one call ------------------------------------------------
# A known part is kept in an open-addressing table ``hkeys`` (rows h, w, black, white; h =
# -1 marks an empty slot) with its value's cgt id in ``hvals``; values.py fills it.

@njit(cache=True)
def _hslot(h, w, b, x, mask):
    k = np.uint64(b) * GOLDEN ^ np.uint64(x) * np.uint64(0xC2B2AE3D27D4EB4F)
    k ^= np.uint64(h * 64 + w) * np.uint64(0x165667B19E3779F9)
    return np.int64(mix64(k) & np.uint64(mask))


@njit(cache=True)
def known_get(hkeys, hvals, h, w, b, x):
    """The value id of a known part, or -1."""
    mask = hkeys.shape[0] - 1
    i = _hslot(h, w, b, x, mask)
    while hkeys[i, 0] != -1:
        if hkeys[i, 0] == h and hkeys[i, 1] == w and hkeys[i, 2] == b and hkeys[i, 3] == x:
            return hvals[i]
        i = (i + 1) & mask
    return -1


@njit(cache=True)
def known_put(hkeys, hvals, keys, vals):
    """Enter parts ``keys`` (rows h, w, black, white) with value ids ``vals``; the caller
    keeps the table at most half full."""
    mask = hkeys.shape[0] - 1
    for j in range(keys.shape[0]):
        h, w, b, x = keys[j, 0], keys[j, 1], keys[j, 2], keys[j, 3]
        i = _hslot(h, w, b, x, mask)
        while hkeys[i, 0] != -1:
            if hkeys[i, 0] == h and hkeys[i, 1] == w and hkeys[i, 2] == b and hkeys[i, 3] == x:
                break
            i = (i + 1) & mask
        hkeys[i, 0] = h
        hkeys[i, 1] = w
        hkeys[i, 2] = b
        hkeys[i, 3] = x
        hvals[i] = vals[j]


@njit(cache=True)
def _grown(a, need):
    if need <= a.shape[0]:
        return a
    shape = (max(2 * a.shape[0], need),) + a.shape[1:]
    out = np.empty(shape, a.dtype)
    out[:a.shape[0]] = a
    return out


@njit(cache=True)
def part_dag(h, w, b, wm, hkeys, hvals, limit):
    """Every part below the canonical part (h, w, b, wm) whose value is not yet known, with
    its options, children before parents.

    Returns (n, keys, order, opt_start, side, ranges, refs, level): the new parts are local
    indices 0..n-1 (0 the root), ``keys[i]`` = (h, w, black, white); ``order`` lists them
    children first; the options of part i are opt_start[i]..opt_start[i+1]-1, option k
    being Black's when side[k] == 0, its parts refs[ranges[k, 0]:ranges[k, 1]] as rows
    (ref, negated) with ref >= 0 a new part and ref < 0 the known value id -ref-1;
    ``level[i]`` is 0 for a part with no new part below it, else 1 + the greatest level of
    one. n = -1 when more than ``limit`` new parts were met (nothing else is then valid)."""
    keys = np.empty((256, 4), np.int64)
    opt_start = np.zeros(1, np.int64)
    side = np.empty(1024, np.int64)
    ref_start = np.zeros(1025, np.int64)
    refs = np.empty((2048, 2), np.int64)
    order = np.empty(256, np.int64)
    state = np.zeros(256, np.int64)          # 0 new, 1 expanded, 2 emitted
    level = np.zeros(256, np.int64)          # 1 + the greatest level of a new child
    lmask = 1023
    lkeys = np.full((1024, 4), -1, np.int64)  # local table: key -> local index
    lidx = np.empty(1024, np.int64)
    keys[0, 0], keys[0, 1], keys[0, 2], keys[0, 3] = h, w, b, wm
    n = 1
    j = _hslot(h, w, b, wm, lmask)
    lkeys[j, 0], lkeys[j, 1], lkeys[j, 2], lkeys[j, 3] = h, w, b, wm
    lidx[j] = 0
    nopt = 0
    nref = 0
    norder = 0
    stack = np.empty(256, np.int64)
    stack[0] = 0
    sp = 1
    # options are stored part by part in expansion order: part i's are ostart_of[i]..
    ostart_of = np.zeros(256, np.int64)
    oend_of = np.zeros(256, np.int64)
    while sp > 0:
        p = stack[sp - 1]
        if state[p] == 2:
            sp -= 1
            continue
        if state[p] == 1:
            state[p] = 2
            order[norder] = p
            norder += 1
            sp -= 1
            lv = 0
            for o in range(ostart_of[p], oend_of[p]):
                for r in range(ref_start[o], ref_start[o + 1] if o + 1 < nopt else nref):
                    if refs[r, 0] >= 0:
                        lv = max(lv, level[refs[r, 0]] + 1)
            level[p] = lv
            continue
        state[p] = 1
        s, st, pr = part_options(keys[p, 0], keys[p, 1], keys[p, 2], keys[p, 3])
        k = s.shape[0]
        side = _grown(side, nopt + k)
        ref_start = _grown(ref_start, nopt + k + 1)
        refs = _grown(refs, nref + pr.shape[0])
        ostart_of[p] = nopt
        for o in range(k):
            side[nopt] = s[o]
            ref_start[nopt] = nref
            for r in range(st[o], st[o + 1]):
                ph, pw, pb, px = pr[r, 0], pr[r, 1], pr[r, 2], pr[r, 3]
                v = known_get(hkeys, hvals, ph, pw, pb, px)
                if v >= 0:
                    refs[nref, 0] = -v - 1
                else:
                    if 2 * n >= lkeys.shape[0]:          # keep the local table half empty
                        size = 4 * lkeys.shape[0]
                        lmask = size - 1
                        nk = np.full((size, 4), -1, np.int64)
                        ni = np.empty(size, np.int64)
                        for q in range(n):
                            t = _hslot(keys[q, 0], keys[q, 1], keys[q, 2], keys[q, 3], lmask)
                            while nk[t, 0] != -1:
                                t = (t + 1) & lmask
                            nk[t] = keys[q]
                            ni[t] = q
                        lkeys, lidx = nk, ni
                    t = _hslot(ph, pw, pb, px, lmask)
                    q = -1
                    while lkeys[t, 0] != -1:
                        if lkeys[t, 0] == ph and lkeys[t, 1] == pw and lkeys[t, 2] == pb \
                                and lkeys[t, 3] == px:
                            q = lidx[t]
                            break
                        t = (t + 1) & lmask
                    if q < 0:
                        if n >= limit:
                            return -1, keys, order, opt_start, side, \
                                np.empty((0, 2), np.int64), refs, level
                        q = n
                        n += 1
                        keys = _grown(keys, n)
                        state = _grown(state, n)
                        state[q] = 0
                        level = _grown(level, n)
                        order = _grown(order, n)
                        ostart_of = _grown(ostart_of, n)
                        oend_of = _grown(oend_of, n)
                        keys[q, 0], keys[q, 1], keys[q, 2], keys[q, 3] = ph, pw, pb, px
                        lkeys[t, 0], lkeys[t, 1], lkeys[t, 2], lkeys[t, 3] = ph, pw, pb, px
                        lidx[t] = q
                    refs[nref, 0] = q
                    if state[q] == 0:
                        stack = _grown(stack, sp + 1)
                        stack[sp] = q
                        sp += 1
                refs[nref, 1] = pr[r, 4]
                nref += 1
            nopt += 1
        oend_of[p] = nopt
    ref_start[nopt] = nref
    # options renumbered so that part i's are opt_start[i]..opt_start[i+1]-1 (i local)
    opt_start = np.empty(n + 1, np.int64)
    side2 = np.empty(nopt, np.int64)
    ranges = np.empty((nopt, 2), np.int64)
    o2 = 0
    for i in range(n):
        opt_start[i] = o2
        for o in range(ostart_of[i], oend_of[i]):
            side2[o2] = side[o]
            ranges[o2, 0] = ref_start[o]
            ranges[o2, 1] = ref_start[o + 1]
            o2 += 1
    opt_start[n] = o2
    return n, keys[:n].copy(), order[:n].copy(), opt_start, side2, ranges, refs[:nref].copy(), \
        level[:n].copy()


@njit(cache=True)
def _request(req, nreq, kind, g, h):
    """``req`` (grown when full) with row ``nreq`` = (kind, g, h)."""
    req = _grown(req, nreq + 1)
    req[nreq, 0] = kind
    req[nreq, 1] = g
    req[nreq, 2] = h
    return req


@njit(cache=True)
def raw_options(batch, vals, opt_start, side, ranges, refs, neg, skeys, svals, zero):
    """The options of parts ``batch`` (of a :func:`part_dag` listing, every new part below
    them valued in ``vals``) as cgt ids, each option the sum of its parts' values.

    Negatives and sums come from game.py's tables (``neg``, ``skeys``/``svals``); a part
    needing one not found there is not ready. Returns (ready, ls, lopts, rs, ropts, req):
    for ready[j] = 1, part batch[j]'s options are lopts[ls[j]:ls[j+1]] (Black's) and
    ropts[rs[j]:rs[j+1]] (White's); ``req`` rows (0, g, 0) ask for -G, (1, g, h) for G + H.
    An option without a live part is ``zero``."""
    m = batch.shape[0]
    ready = np.ones(m, np.int64)
    ls = np.zeros(m + 1, np.int64)
    rs = np.zeros(m + 1, np.int64)
    total_opts = 0
    for j in range(m):
        p = batch[j]
        total_opts += opt_start[p + 1] - opt_start[p]
    lopts = np.empty(total_opts, np.int64)
    ropts = np.empty(total_opts, np.int64)
    req = np.empty((total_opts + 8, 3), np.int64)
    nreq = 0
    nl = 0
    nr = 0
    for j in range(m):
        p = batch[j]
        l0 = nl
        r0 = nr
        for o in range(opt_start[p], opt_start[p + 1]):
            total = -1
            ok = True
            for r in range(ranges[o, 0], ranges[o, 1]):
                ref = refs[r, 0]
                v = vals[ref] if ref >= 0 else -ref - 1
                if refs[r, 1]:
                    v = neg[v]
                    if v < 0:
                        req = _request(req, nreq, 0, vals[ref] if ref >= 0 else -ref - 1, 0)
                        nreq += 1
                        ok = False
                        break
                if total < 0 or total == zero:
                    total = v
                elif v != zero:
                    t = sum_get(skeys, svals, total, v)
                    if t < 0:
                        req = _request(req, nreq, 1, total, v)
                        nreq += 1
                        ok = False
                        break
                    total = t
            if not ok:
                ready[j] = 0
                break
            if total < 0:
                total = zero                # every stone of the option is dead
            if side[o] == 0:
                lopts[nl] = total
                nl += 1
            else:
                ropts[nr] = total
                nr += 1
        if ready[j] == 0:
            nl = l0
            nr = r0
        ls[j + 1] = nl
        rs[j + 1] = nr
    return ready, ls, lopts[:nl], rs, ropts[:nr], req[:nreq]
