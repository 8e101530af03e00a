"""Constructive SC2 reductions on Hamming graphs and hypercubes (Dorbec, Duchêne, Gravier).

SC2 is Solitaire Clobber without colour alternation; a configuration puts a stone on every
vertex. A graph is *strongly 1-reducible* when, for every vertex v and colour c, every
configuration that is not monochromatic on G - v can be reduced to one stone of colour c
on v. Dorbec, Duchêne and Gravier (Integers 8 (2008) G03) prove that cliques K_n (n >= 3)
and every Hamming graph K_{n1} x ... x K_{nk} other than the hypercubes and K2 x K3 are
strongly 1-reducible (Thm 8, by induction over Cartesian products G x K_n, Lemma 7, from
small base graphs), and that hypercubes reduce to two stones (Thm 5); on a bipartite graph
(#even - #odd) mod 3 is an SC2 invariant, so some hypercube configurations need two.

:func:`reduce_hamming` turns this into an algorithm (our own induction, described in its
docstring) that outputs a move sequence; every sequence is checked by
:func:`clobbermania.solitaire.rules.replay` in the tests.

>>> from clobbermania.graphs import hamming
>>> from clobbermania.stones import Position
>>> from clobbermania.solitaire import replay
>>> p = Position.from_string("xxoxoxxoo", hamming(3, 3))
>>> r = replay(p, reduce_hamming(p, to=4, color=WHITE), free=True)
>>> r.valid, r.final.text()
(True, '....o....')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from ..errors import UnsupportedError
from ..stones import BLACK, COLOR_NAMES, EMPTY, WHITE, Board, Move, Position

#: Sub-graphs with at most this many stones are finished by exact search (the base
#: graphs K3 x K3, K2 x K4, K3 x K2 x K2 have 9, 8 and 12 vertices; K3 x K2 x K2 needs
#: it: the chains alone miss about 6% of its cases).
EXACT_VERTICES = 12
#: Node budget of one exact search (a refuted sub-graph with holes could otherwise take
#: seconds; a solvable base graph needs far fewer nodes).
EXACT_NODES = 200_000


class _Fail(Exception):
    """A planned construction does not apply; the caller restores the state and tries
    another one."""


def hamming_sizes(board: Board) -> tuple[int, ...]:
    """The factor sizes of a board built by :func:`clobbermania.graphs.hamming`,
    :func:`~clobbermania.graphs.hypercube` or :func:`~clobbermania.graphs.complete`,
    read from its name and checked against its edges.

    >>> from clobbermania.graphs import hypercube
    >>> hamming_sizes(hypercube(3))
    (2, 2, 2)
    """
    name = board.name or ""
    kind, _, arg = name.partition(":")
    try:
        if kind == "hamming":
            sizes = tuple(int(x) for x in arg.split(","))
        elif kind == "hypercube":
            sizes = (2,) * int(arg)
        elif kind == "complete":
            sizes = (int(arg),)
        else:
            raise ValueError
    except ValueError:
        raise UnsupportedError(f"board {name or 'graph'!r} is not a Hamming graph: build it "
                               "with --graph hamming:a,b,... or hypercube:d") from None
    _check_board(board, sizes)
    return sizes


def _check_board(board: Board, sizes: Sequence[int]) -> None:
    n = 1
    for a in sizes:
        n *= a
    if n != board.n or board.is_grid:
        raise UnsupportedError(f"the board has {board.n} vertices, not the {n} of the Hamming "
                               f"graph {','.join(map(str, sizes))}")
    edges = n * sum(a - 1 for a in sizes) // 2
    if sum(len(board.neighbors(v)) for v in range(board.n)) != 2 * edges:
        raise UnsupportedError("the board's edges are not those of the Hamming graph "
                               f"{','.join(map(str, sizes))}")
    # right edge count and every edge joining tuples that differ in one digit: the board
    # is the Hamming graph with the numbering of graphs.hamming (one pass over the edges)
    strides = _strides(sizes)
    digits = [_digits(v, sizes, strides) for v in range(n)]
    for v in range(n):
        dv = digits[v]
        for u in board.neighbors(v):
            if sum(1 for x, y in zip(dv, digits[u], strict=True) if x != y) != 1:
                raise UnsupportedError("the board is not numbered like hamming:"
                                       + ",".join(map(str, sizes)))


def _strides(sizes: Sequence[int]) -> list[int]:
    out = [1] * len(sizes)
    for k in range(len(sizes) - 2, -1, -1):
        out[k] = out[k + 1] * sizes[k + 1]
    return out


def _digits(v: int, sizes: Sequence[int], strides: Sequence[int]) -> tuple[int, ...]:
    return tuple((v // s) % a for a, s in zip(sizes, strides, strict=True))


def _strongly_1_reducible(sizes: Sequence[int]) -> bool:
    """Dorbec et al.: K_n (n >= 3) and Hamming graphs other than hypercubes and K2 x K3."""
    s = sorted((a for a in sizes if a > 1), reverse=True)
    return bool(s) and s[0] >= 3 and s != [3, 2]


def _other(color: int) -> int:
    return BLACK + WHITE - color


# --------------------------------------------------------------------------------------
# The reducer: state, moves, and the constructions
# --------------------------------------------------------------------------------------

#: A chain: inner coordinates, the pieces' bases in chain order, and an optional opening
#: capture (src, dst) played first.
_Plan = tuple[tuple[int, ...], list[int], tuple[int, int] | None]


class _Reducer:
    """Plays moves on a mutable copy of the cells and records them.

    A *sub-graph* is a product of some coordinates (``coords``) with the others fixed:
    its vertices are ``base + offset`` over the offsets of ``coords`` (``base`` has zero
    digits on ``coords``). Every sub-graph is again a Hamming graph.
    """

    def __init__(self, sizes: Sequence[int], cells: bytearray):
        self.sizes = tuple(sizes)
        self.strides = _strides(self.sizes)
        self.cells = cells
        self.moves: list[Move] = []
        self._offsets: dict[tuple[int, ...], list[int]] = {}

    # -- primitives -----------------------------------------------------------------------
    def play(self, u: int, v: int) -> None:
        cells = self.cells
        # the constructions only plan legal moves; this guards the invariant cheaply
        if cells[u] == EMPTY or cells[v] != _other(cells[u]):
            raise _Fail
        cells[v] = cells[u]
        cells[u] = EMPTY
        self.moves.append(Move(u, v))

    def offsets(self, coords: tuple[int, ...]) -> list[int]:
        """Offsets of the vertices of a sub-graph on ``coords``, in mixed-radix order."""
        out = self._offsets.get(coords)
        if out is None:
            out = [0]
            for k in coords:
                s, a = self.strides[k], self.sizes[k]
                out = [o + x * s for o in out for x in range(a)]
            self._offsets[coords] = out
        return out

    def digit(self, v: int, k: int) -> int:
        return (v // self.strides[k]) % self.sizes[k]

    def snapshot(self) -> int:
        return len(self.moves)

    def restore(self, snap: int) -> None:
        """Undo the moves played since ``snapshot`` (a capture u -> v left u empty and
        v with u's colour, so v's old stone had the other colour)."""
        cells = self.cells
        while len(self.moves) > snap:
            m = self.moves.pop()
            cells[m.src] = cells[m.dst]
            cells[m.dst] = _other(cells[m.src])

    # -- strongly 1-reducible graphs -------------------------------------------------------
    def solve(self, coords: tuple[int, ...], base: int, t: int, c: int) -> None:
        """Reduce the stones of a sub-graph to one stone of colour ``c`` on ``t``.

        The sub-graph may have holes (empty vertices) left by an opening capture. Raises
        _Fail when no construction applies (the caller restores the state); on strongly
        1-reducible sub-graphs without holes, and configurations not monochromatic on
        S - t, this does not happen (see :func:`reduce_hamming`).
        """
        coords = tuple(k for k in coords if self.sizes[k] > 1)
        cells = self.cells
        verts = [base + o for o in self.offsets(coords) if cells[base + o] != EMPTY]
        if cells[t] == EMPTY:
            raise _Fail
        if len(verts) == 1:
            if cells[t] != c:
                raise _Fail
            return
        if len(verts) == 2:  # K2: the other stone must capture t with colour c
            u = verts[0] if verts[1] == t else verts[1]
            if cells[u] != c or cells[t] != _other(c) or self.distance(u, t) != 1:
                raise _Fail
            self.play(u, t)
            return
        if {cells[v] for v in verts if v != t} != {BLACK, WHITE}:
            raise _Fail  # monochromatic on S - t: excluded by the definition
        if len(coords) == 1:
            self.clique(verts, t, c)
            return
        if len(verts) <= EXACT_VERTICES:
            self.exact(verts, t, c)
            return
        for plan in self._plans(coords, base, t):
            snap = self.snapshot()
            try:
                self.chain(plan, t, c)
                return
            except _Fail:
                self.restore(snap)
        raise _Fail

    def distance(self, u: int, v: int) -> int:
        return sum(1 for k in range(len(self.sizes)) if self.digit(u, k) != self.digit(v, k))

    def clique(self, verts: Sequence[int], t: int, c: int) -> None:
        """K_n, n >= 3, stones on all of ``verts`` (mutually adjacent): one stone c on t.

        Let R = verts - t hold x stones of colour c and y of the other colour, x, y >= 1.
        In a clique an other-coloured stone can eat a c stone (x - 1) and a c stone an
        other-coloured one (y - 1) as long as both colours remain. If t holds the other
        colour, R goes to (1, 0) and its last stone captures t. If t holds c, R goes to
        (1, 1): its other-coloured stone captures t, then its c stone recaptures.
        """
        cells = self.cells
        rest = [v for v in verts if v != t and cells[v] != EMPTY]
        mine = [v for v in rest if cells[v] == c]
        theirs = [v for v in rest if cells[v] == _other(c)]
        if not mine or not theirs:
            raise _Fail
        keep = 1 if cells[t] == c else 0
        while len(mine) > 1:
            u = mine.pop()
            self.play(theirs[-1], u)
            theirs[-1] = u
        u = mine[0]
        while len(theirs) > keep:
            v = theirs.pop()
            self.play(u, v)
            u = v
        if keep:
            self.play(theirs[0], t)
        self.play(u, t)

    # -- chains of pieces -------------------------------------------------------------------
    def _plans(self, coords: tuple[int, ...], base: int,
               t: int) -> Iterator[_Plan]:
        """Candidate chains (inner coordinates, piece bases in chain order, opening move).

        Copy chains: the pieces are the copies of G = S without coordinate r (they are
        pairwise joined by the cliques of coordinate r, so any order works); G must be
        strongly 1-reducible. Fibre chains: the pieces are the cliques K_{n_r} along
        coordinate r (n_r >= 3), visited along a Hamiltonian path (a reflected Gray code)
        of the other coordinates ending at the target's clique.
        """
        cells = self.cells
        for r in coords:
            inner = tuple(k for k in coords if k != r)
            if not _strongly_1_reducible([self.sizes[k] for k in inner]):
                continue
            offs = self.offsets(inner)
            s = self.strides[r]
            tv = self.digit(t, r)
            pieces = [base + v * s for v in range(self.sizes[r])]
            starts = []
            for v in range(self.sizes[r]):
                if v == tv:
                    continue
                seen = {cells[pieces[v] + o] for o in offs} - {EMPTY}
                if len(seen) == 2:
                    starts.append(v)
            for v in starts[:4]:
                order = [v] + [u for u in range(self.sizes[r]) if u not in (v, tv)] + [tv]
                yield inner, [pieces[u] for u in order], None
            if starts:
                continue
            # Every copy but the target's is one-coloured: an opening capture from the
            # target's copy into another copy gives that copy two colours (and the target's
            # copy a hole).
            tried = 0
            for v in range(self.sizes[r]):
                if v == tv or tried >= 3:
                    continue
                colors = {cells[pieces[v] + o] for o in offs} - {EMPTY}
                if len(colors) != 1:
                    continue
                a = colors.pop()
                for o in offs:
                    g = pieces[tv] + o
                    if g != t and cells[g] == _other(a) and cells[pieces[v] + o] == a:
                        order = [v] + [u for u in range(self.sizes[r]) if u not in (v, tv)]
                        yield inner, [pieces[u] for u in order + [tv]], (g, pieces[v] + o)
                        tried += 1
                        break
        for r in coords:
            if self.sizes[r] < 3:
                continue
            outer = tuple(k for k in coords if k != r)
            yield from self._fibre_plans(r, outer, base, t)

    def _fibre_plans(self, r: int, outer: tuple[int, ...], base: int,
                     t: int) -> Iterator[_Plan]:
        cells = self.cells
        offs_r = self.offsets((r,))
        tt = [self.digit(t, k) for k in outer]
        tried = 0
        for perm in itertools.islice(itertools.permutations(range(len(outer))), 6):
            order = [outer[i] for i in perm]
            sizes = [self.sizes[k] for k in order]
            gray = _gray(sizes)
            start, end = gray[0], gray[-1]
            target = [tt[outer.index(k)] for k in order]
            free = [i for i in range(len(order)) if start[i] != end[i]]
            # choose start digits (different from the target's) giving a two-coloured clique
            options = [[x for x in range(sizes[i]) if x != target[i]] for i in free]
            for choice in itertools.islice(itertools.product(*options), 8):
                sigma = []
                for i, a in enumerate(sizes):
                    m = {end[i]: target[i]}
                    if i in free:
                        m[start[i]] = choice[free.index(i)]
                    rest_src = [x for x in range(a) if x not in m]
                    rest_dst = [x for x in range(a) if x not in m.values()]
                    m.update(zip(rest_src, rest_dst, strict=True))
                    sigma.append(m)
                first = base + sum(sigma[i][start[i]] * self.strides[k]
                                   for i, k in enumerate(order))
                if len({cells[first + o] for o in offs_r} - {EMPTY}) < 2:
                    continue
                pieces = [base + sum(sigma[i][g[i]] * self.strides[k]
                                     for i, k in enumerate(order)) for g in gray]
                yield (r,), pieces, None
                tried += 1
                if tried >= 6:
                    return

    def chain(self, plan: _Plan, t: int, c: int) -> None:
        """Reduce the pieces one after the other: piece m is reduced to one stone at inner
        position s_m, of the colour opposite to piece m+1's stone there, which then
        captures it (the pieces are joined there); the last piece ends at t with colour c.
        The positions s_m come from :func:`_chain_positions`."""
        inner, pieces, opening = plan
        offs = self.offsets(inner)
        cells = self.cells
        if opening is not None:
            self.play(*opening)
        configs = [[cells[p + o] for o in offs] for p in pieces]
        t_inner = offs.index(t - pieces[-1])
        far = [self.distance(pieces[-1] + o, t) for o in offs]
        outs = _chain_positions(configs, t_inner, far)
        if outs is None:
            raise _Fail
        for m, p in enumerate(pieces):
            s = outs[m]
            if m + 1 < len(pieces):
                nxt = pieces[m + 1] + offs[s]
                self.solve(inner, p, p + offs[s], _other(cells[nxt]))
                self.play(p + offs[s], nxt)
            else:
                self.solve(inner, p, t, c)

    # -- exact search on small sub-graphs ----------------------------------------------
    def exact(self, verts: Sequence[int], t: int, c: int) -> None:
        """Depth-first search with a table of refuted states (a few vertices only): one
        stone of colour c on t."""
        moves = _exact_search(self._local_adjacency(verts), [self.cells[v] for v in verts],
                              list(verts).index(t), c)
        if moves is None:
            raise _Fail
        for a, b in moves:
            self.play(verts[a], verts[b])

    def _local_adjacency(self, verts: Sequence[int]) -> list[int]:
        digits = [_digits(v, self.sizes, self.strides) for v in verts]
        adj = []
        for di in digits:
            m = 0
            for j, dj in enumerate(digits):
                if sum(1 for x, y in zip(di, dj, strict=True) if x != y) == 1:
                    m |= 1 << j
            adj.append(m)
        return adj


def _chain_positions(configs: list[list[int]], t: int,
                     far: Sequence[int] | None = None) -> list[int] | None:
    """Positions s_1..s_n (s_n = t) making every piece reducible, or None.

    Piece 1 must be two-coloured on G - s_1; piece m >= 2, whose stone at s_{m-1} is
    flipped by the incoming capture, must be two-coloured on G - s_m after the flip. With
    p = s_{m-1} != s, flipping p keeps G - s two-coloured exactly when G - s holds at least
    two stones of p's colour. s_m must hold a stone in pieces m and m + 1 (holes are
    empty). The reachable sets R_m are computed in O(|G|) per piece. Going back from
    s_n = t, the last piece's entry is preferably a stone of its majority colour far from
    t (``far`` ranks positions), so that the flip leaves no one-coloured region around t.
    """
    n = len(configs)
    size = len(configs[0])
    reach: list[list[bool]] = []
    prev: list[bool] | None = None
    for m, conf in enumerate(configs):
        nb = conf.count(BLACK)
        nw = conf.count(WHITE)
        nxt = configs[m + 1] if m + 1 < n else None
        cur = [False] * size
        if prev is not None:
            rb = sum(1 for p in range(size) if prev[p] and conf[p] == BLACK)
            rw = sum(1 for p in range(size) if prev[p] and conf[p] == WHITE)
        for s in range(size):
            if conf[s] == EMPTY or (nxt is not None and nxt[s] == EMPTY):
                continue
            cb = nb - (conf[s] == BLACK)
            cw = nw - (conf[s] == WHITE)
            if prev is None:
                cur[s] = cb >= 1 and cw >= 1
                continue
            if prev[s] and cb >= 1 and cw >= 1:
                cur[s] = True
                continue
            ob = rb - (prev[s] and conf[s] == BLACK)
            ow = rw - (prev[s] and conf[s] == WHITE)
            cur[s] = (ob > 0 and cb >= 2) or (ow > 0 and cw >= 2)
        reach.append(cur)
        prev = cur
    if not reach[-1][t]:
        return None
    outs = [t]
    for m in range(n - 1, 0, -1):
        conf, s, prev = configs[m], outs[-1], reach[m - 1]
        cb = conf.count(BLACK) - (conf[s] == BLACK)
        cw = conf.count(WHITE) - (conf[s] == WHITE)
        candidates = range(size)
        if m == n - 1 and far is not None:
            major = BLACK if cb >= cw else WHITE
            candidates = sorted(range(size), key=lambda p: (conf[p] != major, -far[p]))
        elif prev[s] and cb >= 1 and cw >= 1:
            outs.append(s)
            continue
        for p in candidates:
            if p == s and prev[s] and cb >= 1 and cw >= 1:
                outs.append(p)
                break
            if p != s and prev[p] and ((conf[p] == BLACK and cb >= 2)
                                       or (conf[p] == WHITE and cw >= 2)):
                outs.append(p)
                break
        else:  # pragma: no cover - reach[m] guarantees a predecessor
            return None
    outs.reverse()
    return outs


def _gray(sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """The reflected mixed-radix Gray code: consecutive tuples differ in one digit, so it
    is a Hamiltonian path of the Hamming graph K_{sizes[0]} x ..."""
    out: list[tuple[int, ...]] = [()]
    for a in reversed(sizes):
        nxt = []
        for x in range(a):
            seq = out if x % 2 == 0 else out[::-1]
            nxt.extend((x,) + g for g in seq)
        out = nxt
    return out


def _exact_search(adj: list[int], colors: list[int], t: int,
                  c: int) -> list[tuple[int, int]] | None:
    """Moves leaving one stone of colour c on vertex t, or None (none exists, or none was
    found within EXACT_NODES nodes); stones on ``adj``'s vertices coloured ``colors``.

    A stone never leaves t (t could not be refilled) and the stones must stay connected
    (separated groups never meet again). On at most 6 vertices (K2 x K3) the budget
    exceeds the 3^6 states, so None there is a proof."""
    n = len(adj)
    black = sum(1 << v for v in range(n) if colors[v] == BLACK)
    white = sum(1 << v for v in range(n) if colors[v] == WHITE)
    goal = (1 << t, 0) if c == BLACK else (0, 1 << t)
    refuted: set[tuple[int, int]] = set()
    path: list[tuple[int, int]] = []
    tbit = 1 << t

    def connected(occ: int) -> bool:
        low = occ & -occ
        seen, frontier = low, low
        while frontier:
            nxt = 0
            f = frontier
            while f:
                b = f & -f
                f ^= b
                nxt |= adj[b.bit_length() - 1]
            nxt &= occ & ~seen
            seen |= nxt
            frontier = nxt
        return seen == occ

    budget = [EXACT_NODES]

    def dfs(b: int, w: int) -> bool:
        if (b, w) == goal:
            return True
        occ = b | w
        if not occ & tbit or occ == tbit or (b, w) in refuted or not connected(occ):
            return False
        budget[0] -= 1
        if budget[0] < 0:  # give up: the caller treats it as "no sequence" and moves on
            return False
        for mine, theirs, is_black in ((b, w, True), (w, b, False)):
            m = mine & ~tbit
            while m:
                bit = m & -m
                m ^= bit
                u = bit.bit_length() - 1
                targets = adj[u] & theirs
                while targets:
                    tb = targets & -targets
                    targets ^= tb
                    v = tb.bit_length() - 1
                    if is_black:
                        nb, nw = (b ^ bit) | tb, w ^ tb
                    else:
                        nb, nw = b ^ tb, (w ^ bit) | tb
                    path.append((u, v))
                    if dfs(nb, nw):
                        return True
                    path.pop()
        refuted.add((b, w))
        return False

    return list(path) if dfs(black, white) else None


# --------------------------------------------------------------------------------------
# Public entry point
# --------------------------------------------------------------------------------------

def reduce_hamming(position: Position, to: int | None = None, color: int | None = None,
                   sizes: Sequence[int] | None = None) -> list[Move]:
    """SC2 moves reducing a configuration on a Hamming graph to one stone (hypercubes: to
    one stone or two).

    ``position`` puts a stone on every vertex of a board built by ``graphs.hamming``,
    ``graphs.hypercube`` or ``graphs.complete`` (recognised by its name, or give the
    factor ``sizes``; vertex numbering as in :mod:`clobbermania.graphs`). The moves leave
    one stone of colour ``color`` on vertex ``to``. Defaults: ``to`` is the first vertex v
    with G - v two-coloured, ``color`` is black (hypercubes: the colour the invariant
    allows). Replay them with ``rules.replay(position, moves, free=True)``.

    Theorem (Dorbec, Duchêne, Gravier 2008, Thm 8 and Lemma 7): K_n (n >= 3) and every
    Hamming graph other than the hypercubes and K2 x K3 are strongly 1-reducible: every
    configuration not monochromatic on G - v reduces to one stone of either colour on v.
    Hypercubes (Thm 5) reduce to two stones; on a bipartite graph (#even - #odd) mod 3 is
    invariant (a stone is even when black on vertex 0's side or white on the other), and
    a lone stone has value +-1, so value 0 forces two stones and otherwise fixes the
    colour a lone stone on ``to`` can have.

    Method (our own induction). *Cliques*: with x stones of colour c and y of the other
    on K_n - v (x, y >= 1), other-coloured stones eat c stones down to one, which eats
    the rest; if v holds c, one other-coloured stone is kept to capture v first.
    *Chains*: split S = G x K_m along a coordinate. Reduce the copies of G one after the
    other, each to one stone on a position s whose colour is opposite to the next copy's
    stone there; that stone captures it (the copies are joined by the K_m cliques), which
    flips one stone of the next copy. A copy is reducible to s exactly when (after its
    flip) it is two-coloured on G - s, so a linear pass over the positions finds the s
    of every copy (``_chain_positions``); the last copy ends on ``to``. Any copy other
    than the target's that has both colours can start. When all of them are
    one-coloured, the chain runs over the cliques of one coordinate instead (visited
    along a reflected Gray code of the others), or an opening capture from the target's
    copy gives another copy two colours (the target's copy keeps a hole, and the
    induction continues on sub-graphs with holes). Sub-graphs of at most 12 vertices (the
    paper's base graphs K3 x K3, K2 x K4, K3 x K2 x K2) are finished by an exact
    depth-first search; a plan that fails is undone and the next one tried. *Hypercubes*:
    Q_d is cut into Q3 pieces chained along a Hamiltonian path of the other d - 3
    coordinates; each piece is reduced, by a table of all 3^8 Q3 positions, to one stone
    or, when the running invariant is 0, two stones, which enter the next piece on the
    same positions (capturing there, or, for a stone of the same colour, after a
    neighbour inside the next piece has captured that stone: this is what proper
    2-colourings need); a forward search over the pieces' possible states (at most 16
    kept per piece) picks the stones, and a few first captures and choices of the three
    coordinates are tried when a chain cannot start.

    Guarantees: on a strongly 1-reducible Hamming graph, one stone of colour ``color``
    on ``to`` whenever G - ``to`` is two-coloured. The chain steps are exact (a copy is
    reducible to s iff it is two-coloured on G - s); the opening captures and the
    sub-graphs with holes they create go beyond the paper's lemma, so they are backed by
    evidence instead: every case of K3..K6, K3 x K3, K2 x K4 and K3 x K2 x K2 and
    thousands of random and near-monochromatic cases of larger graphs are replayed (tests
    and ``benchmarks/hamming.py --verify``). If no plan applied, UnsupportedError would
    say so ("internal"); it has not happened. On Q_d with G - ``to`` two-coloured: at
    most two stones, one on ``to`` (of colour ``color`` when given), and one stone
    whenever the invariant allows it for the requested colour: exhaustively checked on
    Q2, Q3 (there one stone is possible exactly then) and in every sampled case of
    Q4..Q10. K2 x K3 is searched exactly (six vertices). Raises UnsupportedError for
    other boards, for configurations monochromatic on G - ``to`` (no sequence exists),
    and for K2 x K3 configurations that cannot end as asked.

    Complexity: O(k |V|) time on k factors and |V| vertices, plus constant work per
    base piece (the exact search on at most 12 vertices, the Q3 table); a random
    colouring of K10 x K10, K3^4, K5 x K5 x K4 or Q10 takes well under a second.

    >>> from clobbermania.graphs import hamming, hypercube
    >>> from clobbermania.solitaire import replay
    >>> p = Position.from_string("xxoooxoxoxoo", hamming(4, 3))
    >>> moves = reduce_hamming(p, to=11, color=BLACK)
    >>> r = replay(p, moves, free=True)
    >>> r.valid, r.stones_left, r.final.cells[11] == BLACK
    (True, 1, True)
    >>> q = Position.from_string("xxxxxxxxxxxxxxxo", hypercube(4))
    >>> replay(q, reduce_hamming(q, to=0), free=True).stones_left
    1
    """
    board = position.board
    sizes = tuple(sizes) if sizes is not None else hamming_sizes(board)
    _check_board(board, sizes)
    cells = bytearray(position.cells)
    if EMPTY in cells:
        raise UnsupportedError("the construction needs a stone on every vertex (an SC2 "
                               "configuration)")
    if color is not None and color not in (BLACK, WHITE):
        raise UnsupportedError("color must be BLACK or WHITE")
    if to is not None and not 0 <= to < board.n:
        raise UnsupportedError(f"vertex {to} is not on this {board.n}-vertex graph")
    real = [a for a in sizes if a > 1]
    if not real:
        if color is not None and cells[0] != color:
            raise UnsupportedError("a one-vertex graph keeps its stone's colour")
        return []
    cube = all(a == 2 for a in real)
    small_cube = cube and len(real) <= 3  # decided by the exact table, whatever the case
    if to is None:
        to = next((v for v in range(board.n)
                   if {cells[u] for u in range(board.n) if u != v} == {BLACK, WHITE}),
                  0 if small_cube else None)
        if to is None:
            raise UnsupportedError("the configuration is monochromatic on G - v for every "
                                   "vertex v: no sequence ends with one stone")
    if not small_cube and {cells[u] for u in range(board.n) if u != to} != {BLACK, WHITE}:
        # only the stone on `to` could move, and moving it empties `to`
        raise UnsupportedError(f"the configuration is monochromatic on G - {to}: no sequence "
                               f"leaves a stone on {to} with the rest cleared")
    if cube:
        return _reduce_hypercube(sizes, cells, to, color)
    if color is None:
        color = BLACK
    red = _Reducer(sizes, cells)
    if sorted(real) == [2, 3]:
        # not strongly 1-reducible: search its six vertices exactly
        try:
            red.exact(list(range(board.n)), to, color)
        except _Fail:
            raise UnsupportedError(f"K2 x K3 is not strongly 1-reducible: this configuration "
                                   f"cannot end with one {COLOR_NAMES[color]} stone on {to} "
                                   "(exhaustive search)") from None
        return red.moves
    try:
        red.solve(tuple(range(len(sizes))), 0, to, color)
    except _Fail:
        raise UnsupportedError("internal: no construction applied to this configuration "
                               f"({position.text()}, to {to}, {COLOR_NAMES[color]}); "
                               "please report it") from None
    return red.moves


# --------------------------------------------------------------------------------------
# Hypercubes: chains of Q3 pieces, finished from a table of all Q3 positions
# --------------------------------------------------------------------------------------

_Q3_TABLE: dict[tuple[int, int], frozenset[tuple[int, int]]] | None = None
_Q3_ADJ = [sum(1 << (v ^ (1 << k)) for k in range(3)) for v in range(8)]


def _outcomes(adj: Sequence[int], memo: dict, b: int, w: int) -> frozenset[tuple[int, int]]:
    """Every position with at most two stones reachable from (b, w) (bitmasks)."""
    key = (b, w)
    out = memo.get(key)
    if out is not None:
        return out
    acc: set[tuple[int, int]] = set()
    if (b | w).bit_count() <= 2:
        acc.add(key)
    for u in range(len(adj)):
        ub = 1 << u
        if b & ub:
            for v in range(len(adj)):
                if adj[u] >> v & 1 and w >> v & 1:
                    acc |= _outcomes(adj, memo, (b ^ ub) | (1 << v), w ^ (1 << v))
        elif w & ub:
            for v in range(len(adj)):
                if adj[u] >> v & 1 and b >> v & 1:
                    acc |= _outcomes(adj, memo, b ^ (1 << v), (w ^ ub) | (1 << v))
    out = frozenset(acc)
    memo[key] = out
    return out


def _q3_table() -> dict[tuple[int, int], frozenset[tuple[int, int]]]:
    """All 3^8 positions of Q3 with their reachable outcomes of at most two stones
    (computed once, about 0.1 s)."""
    global _Q3_TABLE
    if _Q3_TABLE is None:
        memo: dict = {}
        for bits in range(256):
            _outcomes(_Q3_ADJ, memo, bits, 255 ^ bits)
        _Q3_TABLE = memo
    return _Q3_TABLE


def _cube_path(k: int, u: int, v: int) -> list[int]:
    """A Hamiltonian path of Q_k from u to v (u, v of opposite parity, k >= 1); Q_k is
    Hamiltonian-laceable. Split on the top bit: if u, v lie in different halves, cover
    u's half from u to u ^ 1, cross, and cover v's half; otherwise take a path of their
    half and detour through the other half over its first edge."""
    if k == 1:
        return [u, v]
    top = 1 << (k - 1)
    low = top - 1
    if (u ^ v) & top:
        if k == 1:
            return [u, v]
        w = u ^ 1
        first = _cube_path(k - 1, u & low, w & low)
        second = _cube_path(k - 1, (w ^ top) & low, v & low)
        return [x | (u & top) for x in first] + [x | (v & top) for x in second]
    half = [x | (u & top) for x in _cube_path(k - 1, u & low, v & low)]
    other = [x | ((u & top) ^ top) for x in _cube_path(k - 1, half[0] & low, half[1] & low)]
    return [half[0]] + other + half[1:]


class _CubeReducer(_Reducer):
    """Q_d: pieces are the Q3 copies on three chosen coordinates, chained along a
    Hamiltonian path of the other d - 3 coordinates; each piece is reduced by the Q3
    table."""

    def finish(self, verts: Sequence[int], goal: tuple[int, int]) -> None:
        """Play from the (Q3 or smaller) position on ``verts`` to the outcome ``goal``
        (local bitmasks), following the table."""
        table = _q3_table() if len(verts) == 8 else None
        local = {v: i for i, v in enumerate(verts)}
        adj = [sum(1 << local[u] for u in self.neighbours(v) if u in local) for v in verts]
        memo: dict = table if table is not None else {}
        cells = self.cells
        while True:
            b = sum(1 << i for i, v in enumerate(verts) if cells[v] == BLACK)
            w = sum(1 << i for i, v in enumerate(verts) if cells[v] == WHITE)
            if (b, w) == goal:
                return
            for i, v in enumerate(verts):
                col = cells[v]
                if col == EMPTY:
                    continue
                for j in range(len(verts)):
                    if adj[i] >> j & 1 and cells[verts[j]] == _other(col):
                        if col == BLACK:
                            child = ((b ^ (1 << i)) | (1 << j), w ^ (1 << j))
                        else:
                            child = (b ^ (1 << j), (w ^ (1 << i)) | (1 << j))
                        if goal in _outcomes(adj, memo, *child):
                            self.play(v, verts[j])
                            break
                else:
                    continue
                break
            else:
                raise _Fail

    def neighbours(self, v: int) -> list[int]:
        # all factors have size 1 or 2, so the strides of the size-2 ones are bits
        return [v ^ s for s, a in zip(self.strides, self.sizes, strict=True) if a == 2]


def _masks(conf: Sequence[int]) -> tuple[int, int]:
    b = sum(1 << i for i, x in enumerate(conf) if x == BLACK)
    w = sum(1 << i for i, x in enumerate(conf) if x == WHITE)
    return b, w


def _flip(conf: Sequence[int], p: int) -> tuple[int, int]:
    c = list(conf)
    c[p] = _other(c[p])
    return _masks(c)


def _reduce_hypercube(sizes: Sequence[int], cells: bytearray, to: int,
                      color: int | None) -> list[Move]:
    coords = [k for k, a in enumerate(sizes) if a == 2]
    d = len(coords)
    n = len(cells)
    if BLACK not in cells or WHITE not in cells:
        raise UnsupportedError("the configuration is monochromatic: no move is possible")
    red = _CubeReducer(sizes, cells)
    strides = [red.strides[k] for k in coords]
    goals = _goal_order(cells, to, color)
    if d <= 3:
        verts = [sum(strides[i] for i in range(d) if x >> (d - 1 - i) & 1) for x in range(n)]
        local = {v: i for i, v in enumerate(verts)}
        adj = [sum(1 << local[u] for u in red.neighbours(v) if u in local) for v in verts]
        memo = _q3_table() if d == 3 else {}
        outs = _outcomes(adj, memo, *_masks([cells[v] for v in verts]))
        for kind, want in goals:
            for goal in sorted(outs):
                if _goal_matches(goal, local[to], kind, want):
                    red.finish(verts, goal)
                    return red.moves
        want = "" if color is None else COLOR_NAMES[color] + " "
        raise UnsupportedError(f"no sequence leaves at most two stones with a {want}stone on "
                               f"vertex {to} (exhaustive search of Q{d})")
    for kind, want in goals:
        for opening in [None, *_cube_openings(red, to)]:
            snap = red.snapshot()
            if opening is not None:
                red.play(*opening)
            for plan in _cube_plans(red, coords, to):
                for holes in (False, True):
                    inner = red.snapshot()
                    try:
                        if _cube_chain(red, plan, to, kind, want, holes):
                            return red.moves
                    except _Fail:
                        pass
                    red.restore(inner)
            red.restore(snap)
    raise UnsupportedError("internal: no hypercube chain applied to this configuration")


def _parity_value(v: int, col: int) -> int:
    """+1 for an "even" stone (black on the side of vertex 0, white on the other), -1
    for an odd one; on a hypercube the side of v is the parity of its bit count."""
    return 1 if (col == BLACK) == (v.bit_count() % 2 == 0) else -1


def _goal_order(cells: Sequence[int], to: int, color: int | None) -> list[tuple[int, int | None]]:
    """(stones, colour on ``to``) goals, best first. (#even - #odd) mod 3 is invariant in
    SC2 on a bipartite graph and a single stone has value +-1, so one stone is possible
    only when the value is not 0, and then only in the colour of that parity on ``to``."""
    value = sum(_parity_value(v, c) for v, c in enumerate(cells)) % 3
    goals: list[tuple[int, int | None]] = []
    if value:
        forced = BLACK if (value == 1) == (to.bit_count() % 2 == 0) else WHITE
        if color is None or color == forced:
            goals.append((1, forced))
    goals.append((2, color))
    return goals


def _goal_matches(goal: tuple[int, int], t: int, kind: int, want: int | None) -> bool:
    b, w = goal
    if (b | w).bit_count() != kind or not (b | w) >> t & 1:
        return False
    have = BLACK if b >> t & 1 else WHITE
    return want is None or have == want


def _cube_openings(red: _CubeReducer, to: int) -> list[tuple[int, int]]:
    """A few first captures by stones of the minority colour (not involving ``to``): when
    the only two-coloured piece lies at even distance from the target's piece, moving a
    minority stone across one coordinate changes that parity."""
    cells = red.cells
    nb = cells.count(BLACK)
    minority = BLACK if nb <= len(cells) - nb else WHITE
    out = []
    for u, col in enumerate(cells):
        if col != minority or u == to:
            continue
        for v in red.neighbours(u):
            if v != to and cells[v] == _other(col):
                out.append((u, v))
                break
        if len(out) >= 4:
            break
    return out


def _cube_plans(red: _CubeReducer, coords: list[int], to: int) -> Iterator[tuple]:
    """(inner coordinates, piece bases in path order) for a few choices of the three
    inner coordinates and of the start piece (a two-coloured piece at odd distance from
    the target's piece in the outer cube)."""
    cells = red.cells
    d = len(coords)
    tried = 0
    for inner in itertools.combinations(coords, 3):
        outer = [k for k in coords if k not in inner]
        offs = red.offsets(tuple(inner))
        ostr = [red.strides[k] for k in outer]
        tbits = sum(1 << i for i, k in enumerate(outer) if red.digit(to, k))
        base_of = [sum(ostr[i] for i in range(len(outer)) if x >> i & 1)
                   for x in range(1 << len(outer))]
        starts = []
        for x in range(1 << len(outer)):
            if (x ^ tbits).bit_count() % 2 == 1:
                colours = {cells[base_of[x] + o] for o in offs} - {EMPTY}
                if len(colours) == 2:
                    starts.append(((x ^ tbits).bit_count(), x))
        starts.sort()
        for _, x in starts[:3]:
            path = _cube_path(len(outer), x, tbits)
            yield inner, [base_of[y] for y in path]
            tried += 1
        if tried >= 3 * d:
            return


_CUBE_STATES = 16  # carried-in states kept per piece (the first found; flips come first)


def _cube_chain(red: _CubeReducer, plan: tuple, to: int, kind: int, want: int | None,
                holes: bool = False) -> bool:
    """Reduce the Q3 pieces one after the other to the goal on ``to``.

    Piece m is reduced to one or two stones, which then enter piece m+1 on the same inner
    positions. A stone whose colour is opposite to piece m+1's stone there captures it
    (flipping it). With ``holes``, a stone of the same colour may enter too: a neighbour
    u inside piece m+1 first captures that stone, then ours recaptures (piece m+1 keeps
    its colours, with a hole at u). One carried stone is not always possible: on a
    bipartite graph a lone stone's parity value must equal the piece's (#even - #odd)
    mod 3, the running sum of the pieces' values, and on a proper 2-colouring flips alone
    make it cycle through 0 (the hole entries break that cycle). Reachability comes from
    the Q3 table; the states of each piece (its stones when its turn comes) are built
    forward, at most _CUBE_STATES per piece, then one path is traced back.
    """
    inner, pieces = plan
    offs = red.offsets(tuple(inner))
    cells = red.cells
    table = _q3_table()
    configs = [_masks([cells[p + o] for o in offs]) for p in pieces]
    n = len(pieces)
    t_local = offs.index(to - pieces[-1])
    # back[m][state of piece m+1] = (state of piece m, outcome of piece m, entries)
    # where an entry is (position, u) with u = None for a flip
    back: list[dict] = []
    states: list[tuple[int, int]] = [configs[0]]
    for m in range(n - 1):
        nb, nw = configs[m + 1]
        cur: dict = {}
        for state in states:
            for g in _outcomes(_Q3_ADJ, table, *state):
                b, w = g
                pos = [i for i in range(8) if (b | w) >> i & 1]
                options: list[list[tuple[int, int | None]]] = []
                for i in pos:
                    mine_black = bool(b >> i & 1)
                    theirs_black = bool(nb >> i & 1)
                    if not (nb | nw) >> i & 1:  # a hole (from an opening): no entry
                        options.append([])
                    elif mine_black != theirs_black:
                        options.append([(i, None)])
                    elif holes:
                        other = nw if mine_black else nb
                        options.append([(i, u) for u in range(8)
                                        if _Q3_ADJ[i] >> u & 1 and other >> u & 1
                                        and u not in pos])
                    else:
                        options.append([])
                for entries in itertools.product(*options):
                    us = [u for _, u in entries if u is not None]
                    if len(set(us)) != len(us):
                        continue
                    xb, xw = nb, nw
                    for i, u in entries:
                        if u is None:
                            bit = 1 << i
                            xb ^= bit
                            xw ^= bit
                        else:
                            xb &= ~(1 << u)
                            xw &= ~(1 << u)
                    if (xb, xw) not in cur:
                        cur[(xb, xw)] = (state, g, entries)
                if len(cur) >= _CUBE_STATES:
                    break
            if len(cur) >= _CUBE_STATES:
                break
        if not cur:
            return False
        back.append(cur)
        states = list(cur)
    goal = last = None
    for state in states:
        for g in sorted(_outcomes(_Q3_ADJ, table, *state)):
            if _goal_matches(g, t_local, kind, want):
                goal, last = g, state
                break
        if goal is not None:
            break
    if goal is None:
        return False
    steps: list[tuple] = [(goal, ())]
    state = last
    for m in range(n - 2, -1, -1):
        state, g, entries = back[m][state]
        steps.append((g, entries))
    steps.reverse()
    for m, p in enumerate(pieces):
        g = steps[m][0]
        red.finish([p + o for o in offs], g)
        if m + 1 < n:
            q = pieces[m + 1]
            for i, u in steps[m][1]:
                if u is not None:
                    red.play(q + offs[u], q + offs[i])
                red.play(p + offs[i], q + offs[i])
    return True
