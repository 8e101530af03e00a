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
(under alternation, with black first, with white first, or either) if and only if G has
a Hamiltonian circuit. For n <= 2 no graph has a circuit and no configuration reduces to
one stone (the three graphs are checked exhaustively by the tests; the horizontal domino
is built transposed, see below).

Proof of "if". A circuit through v must use both of v's edges, and v's only possible
neighbours are R and D (nothing lies above v or left of it in its row). Orient it as
v, D, ..., R. White first: the bomb eats v, D, ..., R (n white moves, each onto an
adjacent black node); between them the fire eats the tail from the far end and then the
junction (n black moves); the last, (n + 1)-th, white move is the bomb on R eating the
fire on the junction. Black first: the same n black fuse moves and n white bomb moves
interleaved the other way, then the fire on the junction eats the bomb on R. The fire
lands on the junction next to R, a black node or already the bomb: no conflict.
:func:`witness_from_circuit` produces exactly these sequences and they are replayed by
the reference rules.

Proof of "only if". Take any alternating sequence leaving one stone.

1. *Connectivity.* A stone only moves onto an occupied square, so squares never become
   occupied again and the stones of one connected group of occupied squares stay in
   it; each group keeps at least one stone. Hence every position along the sequence has
   its occupied squares connected.
2. *Phase I*: while the tail T and the rest S = nodes + bomb square both hold stones.
   The junction J is the only link between them, so J stays occupied and J's stone never
   moves (moving empties J). Inside T, a capture away from an end of T's occupied part
   (or the white under the fire taking the fire) would disconnect T; so T's occupied part
   stays an initial stretch of the tail, its top stone is the fire, and every capture
   inside T is the fire eating the next tail stone downwards; T empties only by the fire,
   from the square next to J, eating a white stone on J. S empties only by its last stone
   moving into J. Within S the only white stone is the bomb (whites could only enter S
   from J). So in phase I every white move is a bomb move.
3. *After phase I.* If T emptied, the fire is on J and the tail whites and the
   junction's white are gone; the only white left can be the bomb. If S emptied, the
   stones lie on the path J, tail: one stone X on J, whites, the fire on top; on a path
   only end captures keep it connected, and a tail white moving would take the fire
   upwards or take X leaving a hole, both disconnecting. Either way: **every white move
   of the whole sequence is made by the bomb**.
4. *Counting.* 2n + 2 stones, 2n + 1 moves, colours alternating: white makes W moves and
   black K, with W, K in {n, n + 1}. So the bomb makes W >= n >= 3 captures; its squares
   are distinct (a square it leaves stays empty). While the bomb lives, black node stones
   can only move by the stone on R eating the junction's white (any other black capture
   in S takes the bomb), so the nodes the bomb eats are the original node stones.
5. *The bomb's first step is v.* Its other neighbour is J. If it eats a black on J first,
   that black is the stone from R (R is then empty) or the fire, which needs n >= 3 black
   moves to reach J, impossible before white's first move (at most one black move comes
   before it). From J with R empty the bomb can go only up the tail, at most one more
   step: W <= 2 < n, a contradiction.
6. *Conclusion.* So the bomb walks v = s1, s2, ... through node squares, each step onto an
   adjacent node, possibly ending by a step from R onto the fire on J (J is then the only
   black square it can leave G for: the bomb square is empty, the tail is not adjacent to
   G, and a black on J from R is impossible once the bomb has eaten R's stone).
   (a) If it ends on J, the last stone is the bomb, so all n + 1 blacks were eaten by the
   bomb: W = n + 1 and s1..sn is a Hamiltonian path of G from v to R.
   (b) Otherwise its walk lies in G and W >= n, so it visits all n nodes: a Hamiltonian
   path from v to t = sn; then K = n + 1, so the bomb is eaten at t by a black stone. All
   node stones are gone, so that is the fire, which can only be on the tail or J (the
   bomb square is empty); of these only J touches a node, and only R. So t = R.
   Either way G has a Hamiltonian path from v to R, and with the edge R-v (n >= 3) a
   Hamiltonian circuit.  QED

The same argument shows, for any n, that one stone is reachable only if G has a
Hamiltonian path from v to R. For n <= 2 the only such graph is the horizontal domino
(v, R), which has no circuit; :func:`from_grid_graph` builds it transposed (the vertical
domino: an isomorphic graph, so its answer is unchanged), whose configuration does not
reduce to one stone. Deciding the question is in NP (a sequence is a certificate), so the
problem is NP-complete; the reduction is linear in n (the board has O(n) squares).
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
        nodes = set()
        for item in spec:
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
            f"nodes of G (black, {self.n}): {' '.join(name(v) for v in squares)}",
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


def from_grid_graph(graph: GridGraphSpec) -> HardnessConstruction:
    """The Solitaire Clobber configuration of Theorem 6 (DDF 2004) for the grid graph G.

    It reduces to one stone (colours alternating, either colour first) exactly when G has
    a Hamiltonian circuit; see the module docstring for the construction and the proof.
    The board has O(n) squares: the graph's bounding box, one row for bomb and junction,
    and the snaking tail, with the width chosen to keep the board small.

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
        tail = _tail_squares(n, a_col + 1, last_col)
        top = min(r for r, _ in tail)
        area = (height - top) * (last_col + 1)
        if best is None or area < best[0]:
            best = (area, last_col, tail, top)
    _, last_col, tail, top = best
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
    assert sum(1 for x in cells if x != EMPTY) == 2 * n + 2
    return HardnessConstruction(g, Position(board, bytes(cells)), node_squares, bomb, fuse,
                                tail_sq[-1], anchor, exit_node, junction + cols, transposed)


# -- Hamiltonian circuits ---------------------------------------------------------------------
def hamiltonian_circuit(graph: GridGraphSpec, *,
                        time_limit: float | None = None) -> list[Node] | None:
    """A Hamiltonian circuit of the grid graph (nodes in circuit order, from the anchor v
    = the first node in reading order, then the node below it), or None if there is none.

    Backtracking with pruning: a grid graph is bipartite, so n must be even with as many
    nodes of each square colour; v has at most the two neighbours right and below, so a
    circuit goes v, below, ..., right; a partial path is abandoned when an unvisited node
    has fewer than two usable neighbours or the unvisited nodes are not connected to the
    path's end. Exponential in the worst case (the problem is NP-complete); raises
    UnsupportedError if ``time_limit`` seconds pass first.

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
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    path = [v, down]
    visited = {v, down}

    def usable(u: Node) -> int:
        # neighbours still able to be next to u on the circuit: unvisited ones, the path's
        # end, and v when u is `right` (the closing edge)
        end = path[-1]
        return sum(1 for m in nbrs[u] if m not in visited or m == end or (m == v and u == right))

    def feasible() -> bool:
        rest = g - visited
        for u in rest:
            if usable(u) < 2:
                return False
        # the unvisited nodes must all be reachable from the path's end through unvisited
        end = path[-1]
        seen = set()
        stack = [m for m in nbrs[end] if m not in visited]
        seen.update(stack)
        while stack:
            for m in nbrs[stack.pop()]:
                if m not in visited and m not in seen:
                    seen.add(m)
                    stack.append(m)
        return len(seen) == len(rest)

    def candidates() -> list[Node]:
        end = path[-1]
        # `right` closes the circuit, so it may only come last
        return [m for m in nbrs[end]
                if m not in visited and (m != right or len(path) == n - 1)]

    # iterative depth-first search (paths can be far longer than Python's recursion limit)
    stack = [iter(candidates())]
    steps = 0
    while stack:
        steps += 1
        if deadline is not None and steps % 1024 == 0 and time.perf_counter() > deadline:
            raise UnsupportedError(f"the Hamiltonian circuit search did not finish within "
                                   f"{time_limit:g} seconds")
        m = next(stack[-1], None)
        if m is None:
            stack.pop()
            if len(path) > 2:
                visited.discard(path.pop())
            continue
        path.append(m)
        visited.add(m)
        if len(path) == n:
            if m == right:
                return list(path)
        elif feasible():
            stack.append(iter(candidates()))
            continue
        visited.discard(path.pop())
    return None


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
    assert nodes[-1] == c.exit
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
