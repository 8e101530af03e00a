"""SC2 (no alternation) on trees and forests, exactly, in polynomial time.

The algorithm is our own (the survey of Beaudou, Duchêne and Gravier states that trees
are polynomial without giving the algorithm here); ``benchmarks/trees.py`` holds it equal
to an independent brute force on every two-colour colouring of every tree of up to 12
vertices. It applies whenever the *stones* induce a forest (any board that is a tree or a
forest, with or without empty vertices). Colours: ``c(v)`` is BLACK or WHITE and
``~c`` the other one.

**Lemma 1 (emptied stays empty; territories).** A move ``u -> v`` empties ``u`` and no
move ever fills an empty vertex. Follow each stone: its *territory* is the set of
vertices it visited together with the territories of the stones it captured. Territories
are connected, partition the starting stones, every move is inside one territory, and a
move only reads and writes the two vertices it involves. Hence the moves of one
territory, played alone, reduce it to its one last stone, and conversely reductions of
disjoint connected parts to one stone each can be concatenated. *The optimum is the least
number of parts of a partition of the stones into connected parts that are each
1-reducible on their own.*

**Lemma 2 (1-reducing a tree).** Let a coloured tree ``T`` be reduced to one stone on
``r``. Root ``T`` at ``r``. Each vertex ``w != r`` is emptied by one move, and at that
moment all other branches at ``w`` must already be empty (they could never be reached
again), so ``w`` is a leaf of the occupied subtree and moves onto its parent. A capture
always flips the colour of the captured vertex. So a non-root ``w`` leaves with colour
``f(w) = c(w)`` flipped once per child: ``f(w) = c(w)`` if ``w`` has an even number of
children, else ``~c(w)``. The children of a vertex ``p`` capture it one at a time, the
i-th with colour ``~c(p)`` for odd i and ``c(p)`` for even i. Conversely, reducing the
subtrees of the children in any order before they move makes every such schedule legal.
*T is 1-reducible to a stone on r if and only if at every vertex p, among its children,
the number a(p) with f(w) != c(p) minus the number b(p) with f(w) = c(p) is 0 or 1*; the
last stone then has colour ``c(r)`` flipped ``deg(r)`` times. Since ``f`` depends only on
the degree, the test for all roots at once is a rerooting pass: O(n)
(:func:`reducible_ends`).

**Recurrence (partition DP).** Root each component of the forest at its least vertex.
In an optimal partition every part is oriented towards its last stone (Lemma 2), so each
tree edge ``v``-``u`` (``u`` a child of ``v``) is *cut*, *up* (``u`` is a part-child of
``v``) or *down* (``v`` is a part-child of ``u``). For a vertex ``v`` let

* ``A[v][f]``: least number of parts rooted strictly inside the subtree of ``v`` when
  ``v`` moves up to its parent with colour ``f``;
* ``C[v]``: least number of parts of the subtree of ``v`` when the parent edge is cut;
* ``D[v][b]``: the same when the parent joins ``v``'s part as a part-child of ``v``
  arriving with colour ``b`` (so the part's last stone is inside the subtree of ``v``).

Each child ``u`` contributes ``C[u]`` (balance 0), ``A[u][~c(v)]`` (balance +1),
``A[u][c(v)]`` (balance -1) or, for at most one child, ``D[u][f(v)]`` (balance 0; ``v``
moves down to ``u``). A knapsack over the children on the balance ``d = a - b`` gives
``T0[d]`` (no child chosen down) and ``T1_f[d]`` (one child chosen down, ``v`` leaving
with colour ``f``); by Lemma 2 the total balance must be 0 or 1 and ``f(v) = c(v)``
exactly when it is 0. With ``e = +1`` if ``b != c(v)`` else ``-1`` (the parent's
contribution) and ``[f]`` = 0 if ``f = c(v)`` else 1::

    A[v][f] = T0[[f]]
    C[v]    = min(1 + T0[0], 1 + T0[1], T1_f[[f]] over f)
    D[v][b] = min(1 + T0[d] for d + e in {0, 1}, T1_f[d] for d + e = [f])

The ``1 +`` counts the part whose last stone is ``v``. The answer for a component with
root ``r`` is ``C[r]``; the witness is read back top-down through each vertex's knapsack
choices (kept for narrow knapsacks, recomputed for wide ones), then played part by part
in post-order, children in the alternating order of Lemma 2.

**Complexity.** The knapsack at a vertex with ``m`` children keeps balances in
``[-k, k]`` after ``k`` children and never more than the remaining children + 2 away from
the target, so it costs O(min(k, m - k) + 1) per child: O(n + sum of m^2 / 4) time in
all, O(n) for bounded degree and O(n^2) in the worst case (a star; wide knapsacks run
vectorised in numpy). Memory O(n) plus one wide knapsack's choices during read-back.

>>> from clobbermania.graphs import tree
>>> from clobbermania.stones import Position
>>> star = Position.from_string("xoxox", tree([0, 0, 0, 0]))   # centre 0, leaves 1..4
>>> tree_sc2(star)[0], reducible_ends(star)
(1, [(0, 1), (2, 2), (4, 2)])
>>> tree_sc2(Position.from_string("xoooo", tree([0, 0, 0, 0])))[0]
4
"""

from __future__ import annotations

import numpy as np

from ..errors import UnsupportedError
from ..stones import BLACK, EMPTY, WHITE, Board, Position

INF = 1 << 40  # "impossible"; sums of a few INFs stay far below any overflow


def _other(c: int) -> int:
    return BLACK + WHITE - c


def is_forest(board: Board) -> bool:
    """Whether the board's graph has no cycle (every component is a tree).

    >>> from clobbermania.graphs import cycle, path
    >>> is_forest(path(5)), is_forest(cycle(5))
    (True, False)
    """
    return _forest(board, range(board.n)) is not None


def _forest(board: Board, vertices) -> list[tuple[list[int], list[int]]] | None:
    """For the subgraph induced by ``vertices``: per component (its BFS order from its
    least vertex, the parent of each vertex, -1 at the root), or None if it has a cycle."""
    inside = [False] * board.n
    for v in vertices:
        inside[v] = True
    parent = [-1] * board.n
    seen = [False] * board.n
    out = []
    for s in range(board.n):
        if not inside[s] or seen[s]:
            continue
        seen[s] = True
        order = [s]
        i = 0
        while i < len(order):
            u = order[i]
            i += 1
            for w in board.neighbors(u):
                if not inside[w] or w == parent[u]:
                    continue
                if seen[w]:
                    return None  # a second path to w: a cycle
                seen[w] = True
                parent[w] = u
                order.append(w)
        out.append((order, parent))
    return out


def _stone_forest(position: Position):
    cells = position.cells
    comps = _forest(position.board, (v for v in range(position.board.n) if cells[v] != EMPTY))
    if comps is None:
        raise UnsupportedError("the stones do not form a forest (they surround a cycle); "
                               "the tree algorithm needs stones on a tree or forest")
    return comps


def reducible_ends(position: Position) -> list[tuple[int, int]]:
    """Where and in which colour one last stone can end: the sorted (vertex, colour)
    pairs, by Lemma 2 of the module docstring with one rerooting pass (O(n)).

    Empty when the stones are disconnected (they cannot be reduced to one stone) or
    absent. Raises UnsupportedError when the stones surround a cycle.

    >>> from clobbermania.graphs import path
    >>> reducible_ends(Position.from_string("xoxo", path(4)))
    [(1, 2), (2, 1)]
    """
    comps = _stone_forest(position)
    if len(comps) != 1:
        return []
    order, parent = comps[0]
    board, c = position.board, position.cells
    nbrs = {v: [w for w in board.neighbors(v) if c[w] != EMPTY] for v in order}
    # g(w): the colour w leaves with when it is not the last stone (deg(w) - 1 captures)
    g = {v: c[v] if (len(nbrs[v]) - 1) % 2 == 0 else _other(c[v]) for v in order}
    s = {v: sum(1 if g[w] != c[v] else -1 for w in nbrs[v]) for v in order}

    def bad(v: int, p: int) -> int:
        """1 if v cannot have p as its parent (Lemma 2's balance fails at v)."""
        sigma = 1 if g[p] != c[v] else -1
        return 0 if s[v] - sigma in (0, 1) else 1

    down = dict.fromkeys(order, 0)  # bad edges in v's subtree pointing towards v
    for v in reversed(order):
        p = parent[v]
        if p >= 0:
            down[p] += down[v] + bad(v, p)
    total = {order[0]: down[order[0]]}  # bad edges pointing towards v, whole tree
    for v in order[1:]:
        p = parent[v]
        total[v] = total[p] - bad(v, p) + bad(p, v)
    ends = [(v, c[v] if len(nbrs[v]) % 2 == 0 else _other(c[v]))
            for v in order if total[v] == 0 and s[v] in (0, 1)]
    return sorted(ends)


#: Knapsacks at least this wide run vectorised in numpy; narrower ones in plain Python
#: (numpy's per-call overhead dominates on the small vertices of most trees).
NUMPY_WIDTH = 40


def _step_py(old, lo: int, nlo: int, width: int, costs, special=None, special_cost=INF,
             keep=True):
    """One child added to a knapsack track held as a list: new table and choices
    (0 cut, 1 up with balance +1, 2 up with balance -1, 3 the child taken as down)."""
    cut, plus, minus = costs
    new, choice = [INF] * width, [0] * width
    n_old = len(old)
    for i in range(width):
        j = nlo + i - lo
        best, how = INF, 0
        if 0 <= j < n_old and old[j] + cut < best:
            best, how = old[j] + cut, 0
        if 0 <= j - 1 < n_old and old[j - 1] + plus < best:
            best, how = old[j - 1] + plus, 1
        if 0 <= j + 1 < n_old and old[j + 1] + minus < best:
            best, how = old[j + 1] + minus, 2
        if special is not None and 0 <= j < len(special) and special[j] + special_cost < best:
            best, how = special[j] + special_cost, 3
        new[i], choice[i] = min(best, INF), how
    return new, choice


def _padded(old: np.ndarray, lo: int, nlo: int, width: int) -> np.ndarray:
    """``P[k]`` = the old entry for balance nlo + k - 1 (INF outside), k in 0..width+1."""
    pad = np.full(width + 2, INF, dtype=np.int64)
    a = lo - nlo + 1  # where old[0] lands
    s0, s1 = max(0, -a), min(len(old), width + 2 - a)
    if s0 < s1:
        pad[a + s0:a + s1] = old[s0:s1]
    return pad


def _step_np(old, lo: int, nlo: int, width: int, costs, special=None, special_cost=INF,
             keep=True):
    """:func:`_step_py` vectorised (argmin keeps the first minimum: same choices);
    without ``keep`` only the table (no choices: fewer passes over the arrays)."""
    cut, plus, minus = costs
    pad = _padded(old, lo, nlo, width)
    rows = [pad[1:width + 1] + cut, pad[0:width] + plus, pad[2:width + 2] + minus]
    if special is not None:
        rows.append(_padded(special, lo, nlo, width)[1:width + 1] + special_cost)
    if not keep:
        new = rows[0]
        for row in rows[1:]:
            np.minimum(new, row, out=new)
        return np.minimum(new, INF, out=new), None
    stack = np.minimum(np.stack(rows), INF)
    choice = np.argmin(stack, axis=0).astype(np.int8)
    return stack[choice, np.arange(width)], choice


def _knapsack(opts: list[tuple[int, int, int, int, int]], keep: bool, np_width: int,
              tracks=(BLACK, WHITE)):
    """The children's knapsack at a vertex.

    ``opts[i] = (C, A_plus, A_minus, D_black, D_white)`` for child i (A_plus: the child
    moves up with the colour that is not the vertex's, balance +1). Returns ``(lo, T0,
    T1, history)``: ``T0[d - lo]`` and ``T1[f][d - lo]`` for the balances d kept and the
    colours f in ``tracks``, and, if ``keep``, the per-child choices for
    :func:`_read_back`.
    """
    m = len(opts)
    vector = m + 2 >= np_width
    step = _step_np if vector else _step_py
    lo = 0
    if vector:
        t0 = np.zeros(1, dtype=np.int64)
        t1 = {f: np.full(1, INF, dtype=np.int64) for f in tracks}
    else:
        t0, t1 = [0], {f: [INF] for f in tracks}
    history = []
    for k, (cut, plus, minus, d_black, d_white) in enumerate(opts):
        rem = m - k - 1  # balances further than rem + 2 from 0 can no longer close
        nlo = max(lo - 1, -(rem + 2))
        nhi = min(lo + len(t0), rem + 2)
        width = nhi - nlo + 1
        costs = (cut, plus, minus)
        n0, c0 = step(t0, lo, nlo, width, costs, keep=keep)
        n1, c1 = {}, {}
        for f in tracks:
            n1[f], c1[f] = step(t1[f], lo, nlo, width, costs, t0,
                                d_black if f == BLACK else d_white, keep=keep)
        if keep:
            history.append((nlo, c0, c1))
        lo, t0, t1 = nlo, n0, n1
    return lo, t0, t1, history


def _at(lo: int, table: list[int], d: int) -> int:
    j = d - lo
    return int(table[j]) if 0 <= j < len(table) else INF


def _finals(cv: int, lo: int, t0, t1):
    """Every way to close the vertex: (state, cost, (track, d, role)).

    state: ("A", f), ("C",), ("D", b); track: None (T0) or the colour f of T1_f;
    role: "up", "root" or "down"."""
    # the closing balances all lie in -1..2
    x0 = {d: _at(lo, t0, d) for d in range(-1, 3)}
    x1 = {f: {d: _at(lo, t1[f], d) for d in range(-1, 3)} for f in (BLACK, WHITE)}
    out = []
    for f in (BLACK, WHITE):
        bal = 0 if f == cv else 1
        out.append((("A", f), x0[bal], (None, bal, "up")))
        out.append((("C",), x1[f][bal], (f, bal, "down")))
    for d in (0, 1):
        out.append((("C",), 1 + x0[d], (None, d, "root")))
    for b in (BLACK, WHITE):
        e = 1 if b != cv else -1
        for d in (-e, 1 - e):
            out.append((("D", b), 1 + x0[d], (None, d, "root")))
        for f in (BLACK, WHITE):
            d = (0 if f == cv else 1) - e
            out.append((("D", b), x1[f][d], (f, d, "down")))
    return out


def _read_back(history, track, d: int, cv: int, children: list[int]):
    """Each child's option, from the last child back: (child, option, colour)."""
    picks = []
    for k in range(len(history) - 1, -1, -1):
        lo_after, c0, c1 = history[k]
        how = (c0 if track is None else c1[track])[d - lo_after]
        u = children[k]
        if how == 0:
            picks.append((u, "cut", 0))
        elif how == 1:
            picks.append((u, "up", _other(cv)))
            d -= 1
        elif how == 2:
            picks.append((u, "up", cv))
            d += 1
        else:
            picks.append((u, "down", track))
            track = None
    if d != 0 or track is not None:  # pragma: no cover - the tables guarantee this
        raise AssertionError("tree DP read-back lost its way")
    return picks


def _solve_component(cells: bytes, order: list[int], parent: list[int], np_width: int):
    """(least number of parts, part_parent) for one tree component of the stones."""
    children = {v: [] for v in order}
    for v in order[1:]:
        children[parent[v]].append(v)
    A, C, D = {}, {}, {}
    saved = {}  # closing options, and narrow knapsacks' choices, for the read-back
    for v in reversed(order):
        cv = cells[v]
        opts = [(C[u], A[u][_other(cv)], A[u][cv], D[u][BLACK], D[u][WHITE])
                for u in children[v]]
        keep = len(opts) + 2 < np_width
        lo, t0, t1, history = _knapsack(opts, keep, np_width)
        finals = _finals(cv, lo, t0, t1)
        saved[v] = finals, (history if keep else None)
        a, cc, dd = {BLACK: INF, WHITE: INF}, INF, {BLACK: INF, WHITE: INF}
        for state, cost, _how in finals:
            if state[0] == "A":
                a[state[1]] = min(a[state[1]], cost)
            elif state[0] == "C":
                cc = min(cc, cost)
            else:
                dd[state[1]] = min(dd[state[1]], cost)
        # anything at or above INF is impossible; keep it at INF so sums stay small
        A[v] = {f: min(x, INF) for f, x in a.items()}
        D[v] = {b: min(x, INF) for b, x in dd.items()}
        C[v] = min(cc, INF)
    root = order[0]
    part_parent = {}
    want = {root: ("C",)}
    for v in order:
        cv = cells[v]
        finals, history = saved.pop(v)
        kind = want[v][0]
        target = C[v] if kind == "C" else (A[v] if kind == "A" else D[v])[want[v][1]]
        closing = [how for state, cost, how in finals if state == want[v] and cost == target]
        if not closing:  # pragma: no cover - the minimum is attained by one of the finals
            raise AssertionError("tree DP read-back found no closing option")
        track, d, role = closing[0]
        if history is None:  # a wide knapsack: recompute it, choices kept, one T1 track
            opts = [(C[u], A[u][_other(cv)], A[u][cv], D[u][BLACK], D[u][WHITE])
                    for u in children[v]]
            history = _knapsack(opts, True, np_width, () if track is None else (track,))[3]
        if role == "up":
            part_parent[v] = parent[v]
        elif role == "root":
            part_parent[v] = -1
        for u, option, colour in _read_back(history, track, d, cv, children[v]):
            if option == "cut":
                want[u] = ("C",)
            elif option == "up":
                want[u] = ("A", colour)
            else:
                want[u] = ("D", colour)
                part_parent[v] = u
        if want[v][0] == "D":
            part_parent[parent[v]] = v
    return C[root], part_parent


def _moves_of_part(cells: bytes, root: int, kids: dict[int, list[int]]) -> list[tuple[int, int]]:
    """Lemma 2's schedule for one part: each child's subtree is reduced, then the child
    captures its parent; the children of a vertex capture it alternately with colours
    ~c, c, ~c, ... (a vertex with k part-children leaves with c flipped k times)."""

    def leave(w: int) -> int:
        return cells[w] if len(kids.get(w, ())) % 2 == 0 else _other(cells[w])

    def schedule(v: int) -> list[int]:
        flip = [w for w in kids.get(v, ()) if leave(w) != cells[v]]
        same = [w for w in kids.get(v, ()) if leave(w) == cells[v]]
        if len(flip) - len(same) not in (0, 1):  # pragma: no cover - DP invariant
            raise AssertionError("tree DP produced an unbalanced part")
        return [w for pair in zip(flip, same + [-1], strict=False) for w in pair if w != -1]

    moves: list[tuple[int, int]] = []
    stack = [(root, schedule(root), 0)]
    while stack:
        v, seq, i = stack.pop()
        if i < len(seq):
            stack.append((v, seq, i + 1))
            w = seq[i]
            stack.append((w, schedule(w), 0))
        elif stack:
            moves.append((v, stack[-1][0]))  # v is reduced to one stone: capture the parent
    return moves


def tree_sc2(position: Position, *, np_width: int = NUMPY_WIDTH
             ) -> tuple[int, list[tuple[int, int]]]:
    """SC2 optimum and witness when the stones of ``position`` induce a forest.

    Returns (fewest stones, moves as (from, to) vertex pairs). Raises UnsupportedError
    when the stones surround a cycle. See the module docstring for the proof;
    O(n + sum of squared degrees) time. ``np_width`` (tests only) is the knapsack width
    from which numpy takes over from plain Python.

    >>> from clobbermania.graphs import tree
    >>> spider = tree([0, 1, 0, 3, 0, 5])        # three legs of length 2 from vertex 0
    >>> tree_sc2(Position.from_string("xoxoxox", spider))[0]   # every leg arrives as x
    3
    >>> tree_sc2(Position.from_string("xxooxxo", spider))
    (1, [(2, 1), (6, 5), (5, 0), (4, 3), (3, 0), (0, 1)])
    """
    cells = position.cells
    total = 0
    moves: list[tuple[int, int]] = []
    for order, parent in _stone_forest(position):
        value, part_parent = _solve_component(cells, order, parent, np_width)
        total += value
        kids: dict[int, list[int]] = {}
        for v in order:  # BFS order, so every part's children come out in a fixed order
            p = part_parent[v]
            if p >= 0:
                kids.setdefault(p, []).append(v)
        for v in order:
            if part_parent[v] == -1:
                moves += _moves_of_part(cells, v, kids)
    return total, moves


__all__ = ["tree_sc2", "reducible_ends", "is_forest"]
