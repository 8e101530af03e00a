"""NP-hardness of Solitaire Clobber: the reduction from Hamiltonian circuits in grid graphs.

Demaine, Demaine and Fleischer (*Solitaire Clobber*, TCS 2004, Theorem 6) prove that
deciding whether a Solitaire Clobber configuration (colours alternate) can be reduced to
one stone is NP-complete, by a reduction from Hamiltonian circuit in grid graphs (Itai,
Papadimitriou, Szwarcfiter 1982). The paper's figure is not available to us, so this
module designs its own placement of the paper's four parts and proves it below:

* the **nodes** of the grid graph G: one black stone per node, at the node's own square
  (adjacent nodes are adjacent squares, so no scaling is needed);
* the **bomb**: a white stone directly above the anchor node v, the first node of G in
  reading order (smallest row, then smallest column);
* the **fuse**: n white stones (n = number of nodes). The first, the *junction*, sits
  directly above R, the square right of v, so it touches the bomb and (when R is a node)
  R. The other n - 1 form the *tail*, an induced path going up from the junction and then
  snaking (rows two apart, so no two tail squares touch unless consecutive) above the
  graph; the tail touches nothing but the junction;
* the **fire**: a black stone at the far end of the tail.

So there are n + 1 black and n + 1 white stones, and a sequence to one stone has 2n + 1
moves. The intended play: the bomb eats v, then the nodes along a Hamiltonian circuit,
ending at R (v's other circuit neighbour is D, the square below v), while the fire
burns the fuse, one stone per black move, from the tail's far end down to the junction;
then bomb (on R) and fire (on the junction) are adjacent and the last move is a capture
between them. This works with either colour first: white first ends with the bomb
taking the fire, black first with the fire taking the bomb.

>>> c = from_grid_graph("##/##")
>>> print(c.position.text("\\n"))
xo
.o
.o
oo
xx
xx
>>> circuit = hamiltonian_circuit("##/##")
>>> circuit
[(0, 0), (1, 0), (1, 1), (0, 1)]
>>> from clobbermania.solitaire.rules import replay
>>> from clobbermania.stones import BLACK, WHITE
>>> [replay(c.position, witness_from_circuit("##/##", circuit, first=f), first=f).stones_left
...  for f in (WHITE, BLACK)]
[1, 1]

Theorem
-------
Let n >= 3. The configuration ``from_grid_graph(G).position`` reduces to one stone
(colours alternating; black first, white first, or either) if and only if G has a
Hamiltonian circuit. For n <= 2 no graph has a circuit and no configuration reduces to
one stone (see the end).

Proof of "if". A circuit through v must use both of v's edges, and v's only possible
neighbours are R and D (nothing lies above v or left of it in its row). Orient it as
v, D, ..., R. White first: the bomb eats v, D, ..., R (n white moves, each onto an
adjacent black node); between them the fire eats the tail whites from the far end and
then the junction (n black moves); the last, (n + 1)-th, white move is the bomb on R
eating the fire on the junction. Black first: the same n fire moves and n bomb moves
interleaved the other way, then the fire on the junction eats the bomb on R. (The fire
lands on the junction next to R, a black node or already the bomb: no conflict.)
:func:`witness_from_circuit` produces exactly these sequences; the tests replay them
with the reference rules.

Proof of "only if". Let T be the tail's n squares (the n - 1 tail whites and the fire),
J the junction, B the bomb's square and S = the node squares plus B. Only J links T to
S: J touches B, R and the first tail square; T is an induced path touching nothing else;
B touches only v and J. Take any alternating sequence leaving one stone.

1. *Connectivity.* A stone only moves onto an occupied square, so a square once empty
   stays empty and the stones of one connected group of occupied squares stay in it;
   each group keeps at least one stone. Hence every position along the sequence has its
   occupied squares connected.
2. *Phase I*: while T and S both hold stones. Then J stays occupied and J's stone never
   moves (moving empties J and cuts T from S). No stone enters T (only J's stone could),
   so T holds the fire and whites. A white in T moving, or a capture by the fire that is
   not onto the next tail stone towards J, would leave a hole with stones on both sides;
   so T's stones fill the tail from J up to the fire, and every move inside T is the fire
   eating the next tail white towards J. T empties only by the fire, next to J, eating a
   white stone on J. S empties only by its last stone moving into J (a capture inside S
   leaves the capturer in S; J's stone does not move). The only white stone in S is the
   bomb (whites could enter S only from J). So in phase I every white move is a bomb move.
3. *After phase I.* If T emptied, the fire is on J and the tail whites and J's white are
   gone: the only white left can be the bomb. If S emptied, the stones lie on the path
   J, T: a stone X on J, tail whites, the fire on top. The first tail white to move would
   leave a hole with X on one side and the fire on the other (X and the fire can be taken
   only by a tail white or, once no white lies between them, by each other); so tail
   whites never move. Either way:
   **every white move of the whole sequence is made by the bomb**.
4. *Counting.* 2n + 2 stones, 2n + 1 moves, colours alternating: white makes W moves and
   black K, with W, K in {n, n + 1}. So the bomb makes W >= n >= 3 captures; its squares
   are distinct (a square it leaves stays empty). While the bomb lives, a node stone can
   move only as the stone on R eating J's white (any other capture by a node stone takes
   the bomb), and a stone entering a node square takes the bomb unless it is the bomb:
   so the stones the bomb eats on node squares are the original node stones.
5. *The bomb's first step is onto v.* Its other neighbour is J. A black on J before
   white's first move (at most one black move precedes it) is the stone from R (the fire
   needs n >= 3 moves to reach J), and then R is empty; from J the bomb could then only
   go onto the first tail square and stop there (J, R, B empty): W <= 2 < n.
6. *Conclusion.* So the bomb walks v = s1, s2, ... over node squares, each step onto an
   adjacent node. It can leave the node squares only onto J, from R (B is empty, T does
   not touch nodes), and the black it eats there is the fire (a node stone on J came from
   R, whose stone the bomb ate); then the bomb is stuck, with B, R and the tail square
   next to J all empty, and no black can ever reach it.
   (a) If it ends on J, it is never captured, so it is the last stone: all n + 1 blacks
   were eaten, all by the bomb; W = n + 1, and s1..sn visit all n nodes: a Hamiltonian
   path of G from v to sn = R.
   (b) Otherwise its walk s1..sW lies in the node squares, so W = n and it visits every
   node: a Hamiltonian path from v to t = sn. Then K = n + 1: every white, the bomb too,
   is eaten, the bomb at t (it makes no further move). The node stones are all gone, so
   the fire eats it, from the tail or J (B is empty and the fire reaches a node square
   only by eating the bomb); of these only J touches a node, namely R. So t = R.
   Either way G has a Hamiltonian path from v to R, and with the edge R-v (n >= 3) a
   Hamiltonian circuit.  QED

Small graphs: a single node, the horizontal domino (v, R) and the vertical one (v, D)
have no circuit. The single node and the vertical domino (J touches no node: the fire
and the bomb cannot both survive the end game) do not reduce to one stone; the
horizontal domino would (bomb eats v then R while the fire burns the two fuse stones,
then they meet: v, R is a Hamiltonian path to R but no circuit). So
:func:`from_grid_graph` builds the horizontal domino transposed, as the vertical one (an
isomorphic graph, same answer). These three cases are checked exhaustively by the tests.

Deciding 1-reducibility is in NP (the move sequence is a certificate), so with this
reduction it is NP-complete. The reduction is polynomial: the board is G's bounding box
(at most about n^2/4 squares; O(n) for compact graphs) plus a row for the bomb and the
junction and about 2n / width rows of snaking tail.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from ..errors import BoardError, NotationError, UnsupportedError
from ..stones import BLACK, EMPTY, WHITE, Board, Move, Position

Node = tuple[int, int]
GridGraphSpec = str | Iterable[Sequence[int]]

_DOMINO = frozenset({(0, 0), (0, 1)})


# -- grid graphs ----------------------------------------------------------------------------
#: The most nodes a grid graph of the construction may have (its configuration then has
#: about five times as many squares).
MAX_NODES = 4_096


def parse_grid_graph(spec: GridGraphSpec) -> frozenset[Node]:
    """The nodes of a grid graph, translated so the smallest row and column are 0.

    ``spec`` is a mask (``'#'`` a node, ``'.'`` none, rows top first separated by ``/``
    or line breaks) or an iterable of (row, col) pairs. The graph is the subgraph of the
    grid induced by the nodes; it must be non-empty and connected.

    >>> sorted(parse_grid_graph("#./##"))
    [(0, 0), (1, 0), (1, 1)]
    >>> sorted(parse_grid_graph({(5, 7), (5, 8)}))
    [(0, 0), (0, 1)]
    """
    if isinstance(spec, str):
        nodes = _parse_mask(spec)
    else:
        try:
            items = list(spec)
        except TypeError:
            raise NotationError(f"a grid graph is a mask like ###/#.#/### or a set of (row, "
                                f"column) pairs, not {type(spec).__name__}") from None
        nodes = set()
        for item in items:
            try:
                r, c = item
                if isinstance(r, bool) or isinstance(c, bool):
                    raise TypeError
                node = (int(r), int(c))
                if node != (r, c):
                    raise TypeError
            except (TypeError, ValueError):
                raise NotationError(f"grid graph node {item!r} is not a (row, column) pair "
                                    "of integers") from None
            nodes.add(node)
        if not nodes:
            raise BoardError("the grid graph has no nodes: give at least one")
    if len(nodes) > MAX_NODES:
        raise UnsupportedError(f"the grid graph has {len(nodes):,} nodes; the construction "
                               f"takes at most {MAX_NODES:,}")
    r0 = min(r for r, _ in nodes)
    c0 = min(c for _, c in nodes)
    graph = frozenset((r - r0, c - c0) for r, c in nodes)
    _check_connected(graph)
    return graph


def _parse_mask(text: str) -> set[Node]:
    body = text.strip()
    if not body:
        raise NotationError("the grid graph mask is empty: give rows of '#' and '.', "
                            "like ###/#.#/###")
    rows = [row.strip() for row in re.split(r"/|\r\n|\n|\r", body)]
    width = None
    nodes: set[Node] = set()
    for i, row in enumerate(rows, start=1):
        if not row:
            raise NotationError(f"row {i} of the grid graph mask is empty")
        for j, ch in enumerate(row, start=1):
            if ch == "#":
                nodes.add((i - 1, j - 1))
            elif ch != ".":
                raise NotationError(f"bad character {ch!r} at row {i}, column {j} of the grid "
                                    "graph mask (use '#' for a node and '.' for none)")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise NotationError(f"row {i} of the grid graph mask has {len(row)} characters but "
                                f"row 1 has {width}; the mask must be rectangular")
    if not nodes:
        raise BoardError("the grid graph mask has no nodes: mark at least one square with '#'")
    return nodes


def _neighbours(node: Node) -> tuple[Node, ...]:
    r, c = node
    return ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))


def _check_connected(graph: frozenset[Node]) -> None:
    start = min(graph)
    seen = {start}
    stack = [start]
    while stack:
        for m in _neighbours(stack.pop()):
            if m in graph and m not in seen:
                seen.add(m)
                stack.append(m)
    if len(seen) != len(graph):
        missing = min(graph - seen)
        raise BoardError(f"the grid graph is not connected: node {missing} (row, column from "
                         f"0) cannot be reached from node {start}")


def mask_text(graph: GridGraphSpec) -> str:
    """The mask notation of a grid graph: ``'#'`` a node, ``'.'`` none, rows joined by '/'.

    >>> mask_text({(0, 0), (1, 0), (1, 1)})
    '#./##'
    """
    g = parse_grid_graph(graph)
    h = max(r for r, _ in g) + 1
    w = max(c for _, c in g) + 1
    return "/".join("".join("#" if (r, c) in g else "." for c in range(w)) for r in range(h))


# -- the construction -----------------------------------------------------------------------
@dataclass(frozen=True)
class HardnessConstruction:
    """The configuration of Theorem 6 built from a grid graph, and where its parts are.

    ``graph`` holds the nodes (translated to start at row 0, column 0); ``node_squares``
    maps each node to its square (a vertex of ``position.board``); ``bomb`` and ``fire``
    are squares; ``fuse`` lists the fuse's squares in the order the fire burns them (the
    junction last); ``anchor`` is the node v and ``exit`` the node R the bomb's tour must
    end on (None when R is not a node: then the answer is no), ``exit_square`` R's square
    (right of the anchor's square, below the junction). ``transposed`` is True only for
    the horizontal domino, built as the vertical one (see the module proof).
    """

    graph: frozenset[Node]
    position: Position
    node_squares: dict[Node, int] = field(compare=False)
    bomb: int
    fuse: tuple[int, ...]
    fire: int
    anchor: Node
    exit: Node | None
    exit_square: int
    transposed: bool = False

    @property
    def n(self) -> int:
        """The number of nodes of G (also the fuse length)."""
        return len(self.graph)

    def describe(self) -> str:
        """Where the parts are, in the board's square names."""
        name = self.position.board.square_name
        squares = sorted(self.node_squares.values())
        fuse_text = f"{name(self.fuse[0])} ... {name(self.fuse[-1])}" if self.n > 1 \
            else name(self.fuse[0])
        lines = [
            f"board {self.position.board.rows}x{self.position.board.cols}, "
            f"{self.position.stone_count()} stones",
            f"nodes of G (black, {self.n}): {' '.join(name(v) for v in squares[:40])}"
            + (" ..." if self.n > 40 else ""),
            f"bomb (white): {name(self.bomb)}, above the anchor node "
            f"{name(self.node_squares[self.anchor])}",
            f"fuse (white, {len(self.fuse)}), in burning order: {fuse_text}; "
            f"the junction {name(self.fuse[-1])} is above the exit square "
            f"{name(self.exit_square)}",
            f"fire (black): {name(self.fire)}",
        ]
        if self.transposed:
            lines.append("(the horizontal domino is built as its transpose)")
        return "\n".join(lines)


def _tail_squares(length: int, start_col: int, last_col: int) -> list[Node]:
    """``length`` squares of an induced path starting at (-2, start_col), relative to the
    anchor's row: right along row -2, then up two rows at the end of each row and back
    along the next row (the odd rows hold only the connecting square, so no two squares
    touch unless consecutive). Row -2 avoids the square above the bomb."""
    out: list[Node] = []
    row, cols = -2, list(range(start_col, last_col + 1))
    leftwards = False
    while True:
        for c in cols:
            out.append((row, c))
            if len(out) == length:
                return out
        out.append((row - 1, cols[-1]))
        if len(out) == length:
            return out
        row -= 2
        leftwards = not leftwards
        cols = list(range(last_col, -1, -1)) if leftwards else list(range(0, last_col + 1))


def _tail_top(length: int, first_row: int, width: int) -> int:
    """The topmost row of :func:`_tail_squares` (first row ``first_row`` squares long,
    later rows ``width``), in O(length / width) steps."""
    row, left, run = -2, length, first_row
    while True:
        if left <= run:
            return row
        left -= run + 1  # the row, then the connecting square above its end
        if left <= 0:
            return row - 1
        row, run = row - 2, width


def from_grid_graph(graph: GridGraphSpec) -> HardnessConstruction:
    """The Solitaire Clobber configuration of Theorem 6 (DDF 2004) for the grid graph G.

    It reduces to one stone (colours alternating, either colour first) exactly when G has
    a Hamiltonian circuit; see the module docstring for the construction and the proof.
    The board is the graph's bounding box, one row for bomb and junction, and the snaking
    tail, with the width chosen to keep the board small (O(n) squares for a compact G).

    >>> c = from_grid_graph("###/#.#/###")
    >>> c.n, c.position.stone_count(), c.position.board.rows, c.position.board.cols
    (8, 18, 9, 3)
    >>> print(c.describe())
    board 9x3, 18 stones
    nodes of G (black, 8): a7 b7 c7 a8 c8 a9 b9 c9
    bomb (white): a6, above the anchor node a7
    fuse (white, 8), in burning order: a2 ... b6; the junction b6 is above the exit square b7
    fire (black): a1
    """
    g = parse_grid_graph(graph)
    transposed = g == _DOMINO
    if transposed:
        g_built = frozenset((c, r) for r, c in g)
    else:
        g_built = g
    n = len(g_built)
    anchor = min(g_built)  # smallest row, then smallest column
    a_col = anchor[1]
    height = max(r for r, _ in g_built) + 1
    base_last = max(max(c for _, c in g_built), a_col + 1)
    best = None
    # widening the board shortens the tail's snake; keep the smallest board among widths up
    # to about sqrt(2n) more (beyond that the tail's rows no longer pay for the width)
    for last_col in range(base_last, base_last + math.isqrt(2 * n) + 3):
        top = _tail_top(n, last_col - a_col, last_col + 1)
        area = (height - top) * (last_col + 1)
        if best is None or area < best[0]:
            best = (area, last_col, top)
    _, last_col, top = best
    tail = _tail_squares(n, a_col + 1, last_col)
    if min(r for r, _ in tail) != top:  # _tail_top and _tail_squares disagree: a bug
        raise AssertionError(f"the tail of {n} nodes does not reach row {top}")
    board = Board.grid(height - top, last_col + 1)
    cols = last_col + 1

    def sq(r: int, c: int) -> int:
        return (r - top) * cols + c

    cells = bytearray(board.n)
    built_squares = {node: sq(*node) for node in g_built}
    for v in built_squares.values():
        cells[v] = BLACK
    bomb = sq(-1, a_col)
    junction = sq(-1, a_col + 1)
    tail_sq = [sq(r, c) for r, c in tail]
    cells[bomb] = WHITE
    cells[junction] = WHITE
    for v in tail_sq[:-1]:
        cells[v] = WHITE
    cells[tail_sq[-1]] = BLACK
    fuse = tuple(reversed(tail_sq[:-1])) + (junction,)
    exit_node: Node | None = (anchor[0], anchor[1] + 1)
    if exit_node not in g_built:
        exit_node = None
    if transposed:
        # built nodes are (c, r) of the original ones; the domino's exit is no node
        node_squares = {(r, c): built_squares[(c, r)] for r, c in g}
        anchor = (anchor[1], anchor[0])
    else:
        node_squares = built_squares
    if sum(1 for x in cells if x != EMPTY) != 2 * n + 2:  # a bug in the layout above
        raise AssertionError(f"the construction of {n} nodes does not hold 2n + 2 stones")
    return HardnessConstruction(g, Position(board, bytes(cells)), node_squares, bomb, fuse,
                                tail_sq[-1], anchor, exit_node, junction + cols, transposed)


# -- Hamiltonian circuits ---------------------------------------------------------------------
def hamiltonian_circuit(graph: GridGraphSpec, *,
                        time_limit: float | None = None) -> list[Node] | None:
    """A Hamiltonian circuit of the grid graph (nodes in circuit order, from the anchor v
    = the first node in reading order, then the node below it), or None if there is none.

    Backtracking with pruning: a grid graph is bipartite, so n must be even with as many
    nodes of each square colour; a graph with a cut vertex has no circuit; v has at most
    the two neighbours right and below, so a circuit goes v, below, ..., right; a partial
    path is abandoned when an unvisited node has fewer than two usable neighbours or the
    unvisited nodes are not connected to the path's end. Exponential in the worst case
    (the problem is NP-complete); raises UnsupportedError if ``time_limit`` seconds pass
    first.

    >>> hamiltonian_circuit("###/#.#/###")
    [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
    >>> hamiltonian_circuit("###/###/###") is None  # 9 nodes: odd
    True
    """
    g = parse_grid_graph(graph)
    n = len(g)
    if n < 4 or n % 2:
        return None
    if 2 * sum((r + c) % 2 for r, c in g) != n:
        return None
    v = min(g)
    right, down = (v[0], v[1] + 1), (v[0] + 1, v[1])
    if right not in g or down not in g:
        return None
    nbrs = {u: [m for m in _neighbours(u) if m in g] for u in g}
    if _has_cut_vertex(nbrs, v):
        return None  # a circuit leaves the graph connected after removing any one node
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    path = [v, down]
    visited = {v, down}

    def usable(u: Node) -> int:
        # neighbours still able to be next to u on the circuit: unvisited ones, the path's
        # end, and v when u is `right` (the closing edge)
        end = path[-1]
        return sum(1 for m in nbrs[u] if m not in visited or m == end or (m == v and u == right))

    def connected(rest: set[Node]) -> bool:
        if not rest:
            return True
        start = next(iter(rest))
        seen = {start}
        todo = [start]
        while todo:
            for m in nbrs[todo.pop()]:
                if m in rest and m not in seen:
                    seen.add(m)
                    todo.append(m)
        return len(seen) == len(rest)

    def feasible(prev: Node, m: Node) -> bool:
        # The path grew from `prev` to `m`. Invariant of every state searched: each unvisited
        # node has >= 2 usable neighbours and the unvisited nodes are connected (the rest of
        # the path runs through all of them). Only prev's neighbours lost a usable one.
        for u in nbrs[prev]:
            if u not in visited and usable(u) < 2:
                return False
        if len(visited) == n:
            return True
        if all(u in visited for u in nbrs[m]):
            return False
        # removing m keeps the unvisited nodes connected when its unvisited 4-neighbours are
        # joined around its 8-neighbour ring; only otherwise search the whole graph
        r, c = m
        ring = [(r - 1, c), (r - 1, c + 1), (r, c + 1), (r + 1, c + 1),
                (r + 1, c), (r + 1, c - 1), (r, c - 1), (r - 1, c - 1)]
        free = [q in g and q not in visited for q in ring]
        runs_with_neighbour = 0
        for k in range(8):
            if free[k] and not free[k - 1]:  # a run of free ring squares starts at k
                j, touches = k, False
                while free[j % 8] and j < k + 8:
                    touches |= j % 2 == 0
                    j += 1
                runs_with_neighbour += touches
        if all(free) or runs_with_neighbour <= 1:
            return True
        return connected(set(g) - visited)

    def candidates() -> list[Node]:
        end = path[-1]
        # `right` closes the circuit, so it may only come last
        return [m for m in nbrs[end]
                if m not in visited and (m != right or len(path) == n - 1)]

    if any(usable(u) < 2 for u in g - visited) or not connected(set(g) - visited):
        return None
    # iterative depth-first search (paths can be far longer than Python's recursion limit)
    stack = [iter(candidates())]
    steps = 0
    every = 1024 if n <= 1024 else 1  # a step may search the whole graph (connected)
    while stack:
        steps += 1
        if deadline is not None and steps % every == 0 and time.perf_counter() > deadline:
            raise UnsupportedError(f"the Hamiltonian circuit search did not finish within "
                                   f"{time_limit:g} seconds")
        m = next(stack[-1], None)
        if m is None:
            stack.pop()
            if len(path) > 2:
                visited.discard(path.pop())
            continue
        prev = path[-1]
        path.append(m)
        visited.add(m)
        if len(path) == n:
            if m == right:
                return list(path)
        elif feasible(prev, m):
            stack.append(iter(candidates()))
            continue
        visited.discard(path.pop())
    return None


def _has_cut_vertex(nbrs: dict[Node, list[Node]], root: Node) -> bool:
    """True when removing some node disconnects the (connected) graph: Tarjan's low-point
    depth-first search, iterative."""
    order = {root: 0}
    low = {root: 0}
    root_children = 0
    stack = [(root, None, iter(nbrs[root]))]
    while stack:
        u, parent, it = stack[-1]
        m = next(it, None)
        if m is None:
            stack.pop()
            if parent is not None:
                low[parent] = min(low[parent], low[u])
                if parent != root and low[u] >= order[parent]:
                    return True
            continue
        if m == parent:
            continue
        if m in order:
            low[u] = min(low[u], order[m])
        else:
            order[m] = low[m] = len(order)
            if u == root:
                root_children += 1
            stack.append((m, u, iter(nbrs[m])))
    return root_children > 1


def check_circuit(graph: GridGraphSpec, circuit: Sequence[Sequence[int]]) -> list[Node]:
    """``circuit`` as a list of nodes, after checking that it is a Hamiltonian circuit of
    the grid graph (in the graph's own coordinates, as :func:`parse_grid_graph` gives
    them). Raises BoardError naming the first problem.

    >>> check_circuit("##/##", [(0, 0), (0, 1), (1, 1), (1, 0)])
    [(0, 0), (0, 1), (1, 1), (1, 0)]
    """
    g = parse_grid_graph(graph)
    nodes = []
    for item in circuit:
        try:
            r, c = item
            nodes.append((int(r), int(c)))
        except (TypeError, ValueError):
            raise NotationError(f"circuit entry {item!r} is not a (row, column) pair") from None
    if len(g) < 3:
        raise BoardError(f"a grid graph with {len(g)} node(s) has no Hamiltonian circuit")
    for u in nodes:
        if u not in g:
            raise BoardError(f"circuit node {u} is not a node of the grid graph")
    if len(set(nodes)) != len(nodes):
        dup = next(u for u in nodes if nodes.count(u) > 1)
        raise BoardError(f"circuit node {dup} appears more than once")
    if len(nodes) != len(g):
        missing = min(g - set(nodes))
        raise BoardError(f"the circuit misses node {missing}")
    for a, b in pairwise(nodes + nodes[:1]):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise BoardError(f"circuit nodes {a} and {b} are consecutive but not adjacent")
    return nodes


def witness_from_circuit(graph: GridGraphSpec, circuit: Sequence[Sequence[int]], *,
                         first: int = WHITE) -> list[Move]:
    """The alternating move sequence that reduces ``from_grid_graph(graph).position`` to one
    stone, given a Hamiltonian circuit of the graph (any start, either direction), with
    ``first`` (WHITE or BLACK) moving first. White first, the bomb makes the last move;
    black first, the fire does. Replay it with ``solitaire.rules.replay``.

    >>> from clobbermania.solitaire.rules import replay
    >>> c = from_grid_graph("###/#.#/###")
    >>> moves = witness_from_circuit("###/#.#/###", hamiltonian_circuit("###/#.#/###"))
    >>> [m.to_str(c.position.board) for m in moves[:4]]
    ['a6-a7', 'a1-a2', 'a7-a8', 'a2-a3']
    >>> replay(c.position, moves, first=WHITE).stones_left
    1
    """
    if first not in (BLACK, WHITE):
        raise UnsupportedError(f"first must be BLACK or WHITE, not {first!r}")
    c = from_grid_graph(graph)
    nodes = check_circuit(c.graph, circuit)
    # rotate to start at the anchor, and orient it to end on the exit node R
    i = nodes.index(c.anchor)
    nodes = nodes[i:] + nodes[:i]
    if nodes[-1] != c.exit:
        nodes = nodes[:1] + nodes[1:][::-1]
    # check_circuit proved nodes[-1] is adjacent to the anchor; the anchor's only possible
    # neighbours are R and D, so after the flip the tour ends on R
    if nodes[-1] != c.exit:
        raise AssertionError("the checked circuit does not pass through the anchor's exit")
    bomb_squares = [c.bomb] + [c.node_squares[u] for u in nodes]
    bomb_moves = [Move(a, b) for a, b in pairwise(bomb_squares)]
    fire_squares = [c.fire, *c.fuse]
    fire_moves = [Move(a, b) for a, b in pairwise(fire_squares)]
    last_white, last_black = bomb_squares[-1], fire_squares[-1]
    moves: list[Move] = []
    if first == WHITE:
        for w, b in zip(bomb_moves, fire_moves, strict=True):
            moves += [w, b]
        moves.append(Move(last_white, last_black))
    else:
        for b, w in zip(fire_moves, bomb_moves, strict=True):
            moves += [b, w]
        moves.append(Move(last_black, last_white))
    return moves


__all__ = ["HardnessConstruction", "from_grid_graph", "parse_grid_graph", "mask_text",
           "hamiltonian_circuit", "check_circuit", "witness_from_circuit"]
