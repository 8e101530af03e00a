"""Finding the gadgets of the checkerboard construction (a build-time search).

The construction (:mod:`.construction`) cuts an n x m checkerboard into blocks of
h x w squares (h in HEIGHTS, w in WIDTHS) visited as a snake. Between two blocks only a
*front* is left: some stones on the squares along the edge that the next block touches,
every other square of the visited blocks empty. A *gadget* takes a full block plus the
front beside it (entry side "left", "right" or "top"; "none" for the first block) and,
with colours alternating from a given first colour, leaves only a front on one edge of
the block (exit "right", "left" or "bottom"), or the fewest stones possible (exit
"end"). All gadgets are found here by breadth-first search over the block's states and
stored in ``data/gadgets.json``; :func:`gadget_closure` explores only the fronts that
can actually arise. This runs once, from ``scripts/make_gadgets.py``.

Local coordinates: block square (r, c), 0 <= r < h, 0 <= c < w, black when
r + c + phase is even. Front squares: (i, -1) for "left", (i, w) for "right", (-1, i) for
"top", i along the edge. Exit edges: column w - 1 ("right"), column 0 ("left"), row
h - 1 ("bottom"). Fronts are tuples of cells along the edge (0 empty, 1 black, 2 white).
"""

from __future__ import annotations

from collections import deque

from clobbermania.stones import BLACK, WHITE

HEIGHTS = (3, 4)
WIDTHS = (1, 2, 3)


def front_squares(h: int, w: int, entry: str) -> list[tuple[int, int]]:
    if entry == "left":
        return [(i, -1) for i in range(h)]
    if entry == "right":
        return [(i, w) for i in range(h)]
    if entry == "top":
        return [(-1, i) for i in range(w)]
    return []


def exit_squares(h: int, w: int, exit_: str) -> list[tuple[int, int]]:
    if exit_ == "right":
        return [(i, w - 1) for i in range(h)]
    if exit_ == "left":
        return [(i, 0) for i in range(h)]
    if exit_ == "bottom":
        return [(h - 1, i) for i in range(w)]
    raise ValueError(exit_)


def explore(h: int, w: int, phase: int, entry: str, front: tuple, mover: int) -> dict:
    """Every front the block can be reduced to, with a witness each.

    Returns {(exit, front_out, next_mover): moves} plus ("end", left, next_mover) entries
    for the fewest stones reachable; moves are ((r, c), (r, c)) pairs.
    """
    block = [(r, c) for r in range(h) for c in range(w)]
    fsq = front_squares(h, w, entry)
    squares = block + fsq
    index = {sq: i for i, sq in enumerate(squares)}
    nbrs = [[index[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
             if (r + dr, c + dc) in index] for r, c in squares]
    start = [BLACK if (r + c + phase) % 2 == 0 else WHITE for r, c in block] + list(front)
    start_state = (tuple(start), mover)
    parent: dict = {start_state: None}
    queue = deque([start_state])
    exits = {e: [index[sq] for sq in exit_squares(h, w, e)] for e in ("right", "left", "bottom")}
    exit_sets = {e: set(v) for e, v in exits.items()}
    found: dict = {}
    best_end = None
    while queue:
        state = queue.popleft()
        cells, due = state
        occupied = [i for i, x in enumerate(cells) if x]
        for e, allowed in exit_sets.items():
            if all(i in allowed for i in occupied):
                key = (e, tuple(cells[i] for i in exits[e]), due)
                if key not in found:
                    found[key] = state
        if best_end is None or len(occupied) < best_end[0]:
            best_end = (len(occupied), state)
        for v in occupied:
            if cells[v] != due:
                continue
            for u in nbrs[v]:
                if cells[u] == 3 - due:
                    nxt = list(cells)
                    nxt[u], nxt[v] = due, 0
                    child = (tuple(nxt), 3 - due)
                    if child not in parent:
                        parent[child] = (state, (squares[v], squares[u]))
                        queue.append(child)

    def path(state):
        moves = []
        while parent[state] is not None:
            state, mv = parent[state]
            moves.append(mv)
        return moves[::-1]

    out = {key: path(state) for key, state in found.items()}
    left, state = best_end
    out[("end", left, state[1])] = path(state)
    return out


def gadget_key(h, w, phase, entry, front, mover) -> str:
    return f"{h},{w},{phase},{entry},{''.join(map(str, front))},{mover}"


def gadget_closure() -> dict[str, dict]:
    """Explore every gadget input reachable from a first block, and return the table
    ``key -> {"exit,front,mover": moves}`` (moves as [[r, c], [r, c]] lists)."""
    todo = deque()
    seen = set()

    def add(h, w, phase, entry, front, mover):
        k = (h, w, phase, entry, tuple(front), mover)
        if k not in seen:
            seen.add(k)
            todo.append(k)

    for h in HEIGHTS:
        for w in WIDTHS:
            for phase in (0, 1):
                for mover in (BLACK, WHITE):
                    add(h, w, phase, "none", (), mover)
    table: dict[str, dict] = {}
    while todo:
        h, w, phase, entry, front, mover = todo.popleft()
        result = explore(h, w, phase, entry, front, mover)
        entries = {}
        for (exit_, out, nmover), moves in result.items():
            code = f"{exit_},{out if exit_ == 'end' else ''.join(map(str, out))},{nmover}"
            entries[code] = [[list(a), list(b)] for a, b in moves]
            if exit_ in ("right", "left"):
                nentry = "left" if exit_ == "right" else "right"
                for w2 in WIDTHS:
                    for p2 in (0, 1):
                        add(h, w2, p2, nentry, out, nmover)
            elif exit_ == "bottom":
                for h2 in HEIGHTS:
                    for p2 in (0, 1):
                        for w2 in WIDTHS:
                            if w2 >= w:
                                pad = (0,) * (w2 - w)
                                add(h2, w2, p2, "top", pad + tuple(out), nmover)
                                add(h2, w2, p2, "top", tuple(out) + pad, nmover)
        table[gadget_key(h, w, phase, entry, front, mover)] = entries
    return table
