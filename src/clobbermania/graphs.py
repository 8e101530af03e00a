"""Board factories: grids, paths, cycles, trees, complete graphs, Hamming graphs,
hypercubes, networkx graphs and edge-list files, and the ``--graph SPEC`` parser of the CLI.

Vertex numbering (the CLI contract): ``grid:RxC`` row-major; ``path:n`` and ``cycle:n``
along the path/cycle from 0; ``tree:P1,P2,...`` has vertex i joined to its parent Pi < i
(vertex 0 is the root); ``complete:n`` 0..n-1; ``hamming:a,b,...`` mixed radix with
the first factor varying slowest, adjacent when the tuples differ in exactly one
coordinate; ``hypercube:d`` = ``hamming:2,...,2``; an edge-list file keeps its own integer
labels, sorted.

>>> hamming(3, 3).n, len(list(hamming(3, 3).edges()))
(9, 18)
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable

import networkx as nx

from .errors import BoardError
from .stones import MAX_BOARD_SQUARES, Board

#: Refuse graphs whose adjacency would not fit comfortably in memory: the searches key
#: parts by bitmasks of the whole board (n^2 / 8 bytes); the same cap as a grid's squares
#: (``stones.MAX_BOARD_SQUARES``; docs/limits.md).
MAX_GRAPH_VERTICES = MAX_BOARD_SQUARES
MAX_GRAPH_EDGES = 1 << 17
#: Cycles of at most this many vertices carry their 2n rotations and reflections as
#: known symmetries (2n^2 numbers); longer ones only the identity.
MAX_CYCLE_SYMMETRY_VERTICES = 256
#: The largest edge-list file read (bytes).
MAX_EDGE_LIST_BYTES = 32 << 20


def grid(rows: int, cols: int) -> Board:
    """The rows x cols grid (same as :meth:`Board.grid`)."""
    return Board.grid(rows, cols)


def grid_graph(rows: int, cols: int) -> Board:
    """The rows x cols grid as a graph board: vertices row-major, named by number.

    Same adjacency and symmetries as :func:`grid`, but squares print as vertex numbers
    (the ``--graph grid:RxC`` form).
    """
    g = Board.grid(rows, cols)
    return Board.from_edges(g.n, g.edges(), name=f"grid:{rows}x{cols}",
                            symmetries=g.symmetries())


def path(n: int) -> Board:
    """The path 0-1-...-(n-1); its reversal is a known symmetry."""
    _check_size(n, "path")
    return Board.from_edges(n, ((i, i + 1) for i in range(n - 1)), name=f"path:{n}",
                            symmetries=[tuple(range(n - 1, -1, -1))])


def cycle(n: int) -> Board:
    """The cycle 0-1-...-(n-1)-0 (n >= 3); its rotations and reflections are symmetries
    (known up to :data:`MAX_CYCLE_SYMMETRY_VERTICES` vertices)."""
    _check_size(n, "cycle")
    if n < 3:
        raise BoardError(f"a cycle needs at least 3 vertices, not {n}")
    syms = []
    if n <= MAX_CYCLE_SYMMETRY_VERTICES:
        syms = [tuple((i + k) % n for i in range(n)) for k in range(n)]
        syms += [tuple((k - i) % n for i in range(n)) for k in range(n)]
    return Board.from_edges(n, ((i, (i + 1) % n) for i in range(n)), name=f"cycle:{n}",
                            symmetries=syms)


def tree(parents: Iterable[int]) -> Board:
    """The tree on vertices 0..n-1 where vertex i >= 1 hangs from ``parents[i - 1]`` < i.

    Every tree has such a numbering (any breadth-first order from a root); ``tree([])``
    is the single vertex.

    >>> t = tree([0, 0, 1])
    >>> t.n, sorted(t.edges())
    (4, [(0, 1), (0, 2), (1, 3)])
    """
    parents = [int(p) for p in parents]
    n = len(parents) + 1
    _check_size(n, "tree", n - 1)
    for i, p in enumerate(parents, start=1):
        if not 0 <= p < i:
            raise BoardError(f"the parent of tree vertex {i} must be a vertex 0..{i - 1}, "
                             f"not {p}")
    return Board.from_edges(n, ((p, i) for i, p in enumerate(parents, start=1)),
                            name="tree:" + ",".join(map(str, parents)))


def complete(n: int) -> Board:
    """The complete graph K_n."""
    _check_size(n, "complete graph", n * (n - 1) // 2)
    return Board.from_edges(n, itertools.combinations(range(n), 2), name=f"complete:{n}")


def hamming(*sizes: int) -> Board:
    """The Hamming graph K_a x K_b x ... (Cartesian product of cliques).

    Vertex ((i1*a2)+i2)*a3+i3 ... is the tuple (i1, i2, i3, ...); two vertices are adjacent
    when their tuples differ in exactly one coordinate.
    """
    if not sizes:
        raise BoardError("a Hamming graph needs at least one factor")
    for a in sizes:
        if a < 1:
            raise BoardError(f"a Hamming graph factor must be at least 1, not {a}")
    n = 1
    for a in sizes:
        n *= a
    _check_size(n, "Hamming graph", n * sum(a - 1 for a in sizes) // 2)
    tuples = list(itertools.product(*(range(a) for a in sizes)))
    index = {t: i for i, t in enumerate(tuples)}
    edges = []
    for i, t in enumerate(tuples):
        for k, a in enumerate(sizes):
            for x in range(t[k] + 1, a):
                edges.append((i, index[t[:k] + (x,) + t[k + 1:]]))
    return Board.from_edges(n, edges, name="hamming:" + ",".join(map(str, sizes)))


def hypercube(d: int) -> Board:
    """The hypercube Q_d = hamming:2,...,2 (d factors)."""
    if d < 1:
        raise BoardError(f"a hypercube needs dimension at least 1, not {d}")
    if 1 << min(d, 64) > MAX_GRAPH_VERTICES:
        raise BoardError(f"a hypercube of dimension {d} has 2^{d} vertices, more than the "
                         f"limit {MAX_GRAPH_VERTICES:,} (dimension at most "
                         f"{MAX_GRAPH_VERTICES.bit_length() - 1})")
    board = hamming(*([2] * d))
    return Board.from_edges(board.n, board.edges(), name=f"hypercube:{d}")


def from_networkx(g: nx.Graph, name: str = "") -> Board:
    """A board from a networkx graph with integer nodes; vertices are the nodes sorted.

    >>> from_networkx(nx.path_graph([3, 5, 9])).square_name(1)
    '5'
    """
    if g.is_directed():
        raise BoardError("boards are undirected graphs")
    nodes = list(g.nodes)
    if not nodes:
        raise BoardError("the graph has no vertices")
    if not all(isinstance(v, int) for v in nodes):
        mapping = {v: i for i, v in enumerate(nodes)}
        g = nx.relabel_nodes(g, mapping)
        nodes = list(range(len(nodes)))
    labels = sorted(nodes)
    index = {lab: i for i, lab in enumerate(labels)}
    edges = [(index[u], index[v]) for u, v in g.edges if u != v]
    if any(u == v for u, v in g.edges):
        raise BoardError("the graph has a loop; boards are simple graphs")
    plain = labels == list(range(len(labels)))
    return Board.from_edges(len(labels), edges, labels=None if plain else labels,
                            name=name or f"graph:{len(labels)}")


def read_edge_list(path: str | os.PathLike) -> Board:
    """A board from a text file of edges ``u v`` (or ``u-v``, ``u,v``), one a line.

    ``#`` starts a comment; a line with a single integer declares an isolated vertex.
    Vertices keep their integer labels and are numbered in sorted label order.
    """
    try:
        size = os.path.getsize(path)
        if size > MAX_EDGE_LIST_BYTES:
            raise BoardError(f"edge-list file {str(path)!r} has {size:,} bytes; the limit is "
                             f"{MAX_EDGE_LIST_BYTES:,}")
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise BoardError(f"cannot read edge-list file {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise BoardError(f"edge-list file {str(path)!r} is not UTF-8 text") from None
    g = nx.Graph()
    edges = 0           # counted here: networkx's number_of_edges is linear in the graph
    for lineno, line in enumerate(lines, start=1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        parts = [p for p in re.split(r"[\s,;]+|(?<=\d)-(?=-?\d)", body) if p]
        try:
            nums = [int(p) for p in parts]
        except ValueError:
            raise BoardError(f"line {lineno} of {str(path)!r} is not an edge 'u v': "
                             f"{line.strip()!r}") from None
        if len(nums) == 1:
            g.add_node(nums[0])
        elif len(nums) == 2:
            if nums[0] == nums[1]:
                raise BoardError(f"line {lineno} of {str(path)!r} is a loop {nums[0]}-{nums[1]}")
            if not g.has_edge(*nums):
                edges += 1
                g.add_edge(*nums)
        else:
            raise BoardError(f"line {lineno} of {str(path)!r} has {len(nums)} numbers; an edge "
                             "has two")
        if g.number_of_nodes() > MAX_GRAPH_VERTICES or edges > MAX_GRAPH_EDGES:
            _check_size(g.number_of_nodes(), f"graph of {str(path)!r}", edges)
    if g.number_of_nodes() == 0:
        raise BoardError(f"edge-list file {str(path)!r} has no edges")
    return from_networkx(g, name=f"file:{os.path.basename(str(path))}")


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise BoardError(f"bad {what} size {text[:40]!r}: expected integers") from None


#: The kinds of built-in graph specs (``kind:args``); any other SPEC names an edge-list
#: file.
GRAPH_KINDS = ("grid", "path", "cycle", "tree", "complete", "hamming", "hypercube")


def is_builtin_spec(spec: str) -> bool:
    """Whether ``spec`` names a built-in graph (``cycle:6``, ``grid:3x4``, ...), which
    :func:`parse_graph_spec` builds without reading a file, rather than an edge-list file.

    >>> is_builtin_spec("cycle:6"), is_builtin_spec("Hypercube:3"), is_builtin_spec("g.txt")
    (True, True, False)
    """
    kind, sep, _ = spec.strip().partition(":")
    return bool(sep) and kind.lower() in GRAPH_KINDS


def parse_graph_spec(spec: str) -> Board:
    """Build the board named by a ``--graph`` SPEC.

    ``grid:4x5 path:9 cycle:10 tree:0,0,1 complete:5 hamming:3,3 hypercube:4`` or the
    path of an edge-list file. ``tree:P1,P2,...`` lists the parent of vertex 1, 2, ...
    (each smaller than its child; ``tree:`` alone is the single vertex).

    >>> parse_graph_spec("hypercube:3").n
    8
    >>> parse_graph_spec("tree:0,0,1").neighbors(0)
    (1, 2)
    """
    s = spec.strip()
    kind, sep, arg = s.partition(":")
    kind = kind.lower()
    if is_builtin_spec(s):
        if kind == "grid":
            m = re.fullmatch(r"\s*(\d{1,9})\s*[xX]\s*(\d{1,9})\s*", arg)
            if not m:
                raise BoardError(f"bad grid spec {spec!r}: expected grid:RxC, like grid:4x5")
            r, c = int(m.group(1)), int(m.group(2))
            _check_size(r * c, "grid")
            return grid_graph(r, c)
        if kind == "hamming":
            return hamming(*_ints(arg, "Hamming"))
        if kind == "tree":
            if not arg.strip():
                return tree([])
            try:
                parents = [int(x) for x in arg.split(",")]
            except ValueError:
                raise BoardError(f"bad tree spec {spec!r}: expected tree:P1,P2,... (the parent "
                                 "of vertex 1, 2, ...), like tree:0,0,1") from None
            return tree(parents)
        nums = _ints(arg, kind)
        if len(nums) != 1:
            raise BoardError(f"bad {kind} spec {spec!r}: expected one integer")
        n = nums[0]
        return {"path": path, "cycle": cycle, "complete": complete, "hypercube": hypercube}[kind](n)
    if os.path.exists(s):
        return read_edge_list(s)
    if sep and re.fullmatch(r"[a-z]+", kind):
        raise BoardError(f"unknown graph kind {kind!r} in {spec!r}: expected grid:RxC, path:n, "
                         "cycle:n, tree:P1,P2,..., complete:n, hamming:a,b,..., hypercube:d or "
                         "an edge-list file")
    raise BoardError(f"no edge-list file {spec!r}, and it is not a graph spec (grid:RxC, "
                     "path:n, cycle:n, tree:P1,P2,..., complete:n, hamming:a,b,..., "
                     "hypercube:d)")


def _check_size(n: int, what: str, edges: int = 0) -> None:
    if n < 1:
        raise BoardError(f"a {what} needs at least one vertex, not {n}")
    if n > MAX_GRAPH_VERTICES:
        raise BoardError(f"a {what} with {n:,} vertices is too large (limit "
                         f"{MAX_GRAPH_VERTICES:,})")
    if edges > MAX_GRAPH_EDGES:
        raise BoardError(f"a {what} with {edges:,} edges is too large (limit "
                         f"{MAX_GRAPH_EDGES:,})")


def as_networkx(board: Board) -> nx.Graph:
    """The board as a networkx graph on vertices 0..n-1."""
    g = nx.Graph()
    g.add_nodes_from(range(board.n))
    g.add_edges_from(board.edges())
    return g


def components(board: Board, vertices: Iterable[int]) -> list[list[int]]:
    """Connected components of the subgraph induced by ``vertices``."""
    vs = set(vertices)
    out = []
    while vs:
        start = vs.pop()
        comp, stack = [start], [start]
        while stack:
            u = stack.pop()
            for v in board.neighbors(u):
                if v in vs:
                    vs.remove(v)
                    comp.append(v)
                    stack.append(v)
        out.append(sorted(comp))
    return out
