"""Theorem 5 of Demaine, Demaine and Fleischer, constructively: :func:`reduce_checkerboard`.

Theorem 5 says that the n x m checkerboard (n, m >= 2) reduces to one stone, or to two
when 3 divides nm (fewer is ruled out by the delta invariant). Under alternation the
first colour also matters: on an odd board the colour with more stones cannot move first
and still reach one stone (counting argument, :func:`optimum_stones`). The paper's own
sweep is only sketched, so this module uses its own scheme, built on one observation:

**Symmetry makes alternation free.** Suppose the board has a symmetry ``s`` that swaps
the colours (the left-right mirror when the number of columns is even, the half turn of a
two-row board of odd length). Cut the board into a half ``L`` and its image ``s(L)``. Any
SC2 sequence on ``L`` (no alternation at all) together with its image on ``s(L)`` can be
ordered into an *alternating* sequence: a move and its image have opposite colours, so
each pair is played in whichever order the colour due asks for, and after the pair the
same colour is due again (:func:`_paired_sequence`).

1. **Even boards** (nm even; transposed so that the mirror exists and the halves are at
   least two columns wide). The half is swept by one *carry* stone along bands of two rows
   (one of three when the number of rows is odd, or one band of two or three columns),
   the last band running into the centre line. A *carry gadget* takes the carry and the
   next one to six cells of the sweep to a single stone again, with SC2 moves. By the SC2
   invariant of bipartite graphs (a stone is *even* on its own checkerboard colour; each
   move turns two stones of equal parity into one of the other, so #even - #odd mod 3
   never changes) a single carry exists exactly when the eaten area is not 0 mod 3. A
   dynamic programme over (cells eaten, carry square) chains gadgets; bands of one kind
   repeat, so it is cached band by band and costs time linear in the number of bands plus
   a few band lengths. The half stops one or two columns short of the centre, and the
   two half-residues are finished with alternating moves by a stored *endgame*.
2. **Odd boards** (both sides odd). When black, the majority, moves first, two stones is
   the optimum and the board is simply cut (:func:`_majority_first_split`): an even strip
   of two or four columns (or rows) goes first, black first, to one stone; its moves are
   odd in number, so white is due on the odd rest, which goes to one stone white first.
   Otherwise (white first, or 3 divides both sides), transposed so that m >= n: the top-left
   (n-3) x (m-3) block is even both ways: it is reduced as in 1, except that its endgame
   hands one to three stones down onto its bottom rows. The rest, an L three cells thick
   (the three right columns, then the three bottom rows), is read as a word of *groups*
   (a row of the right band, a column of the bottom band with any stones handed down
   onto it) and swept with alternating moves by a finite automaton: its state is the
   contents of a window of the last three groups (at most four stones) and the colour
   due; reading a group, a stored *step* plays a few alternating moves in the window and
   the new group and empties the oldest group. Steps depend only on the local shape (the
   *key*), so a few dozen keys and states cover every board; a dynamic programme over
   the word chains them and a stored *ending* brings the last window down to the target.

The carry gadgets, the endgames and the odd automaton are found once by breadth-first
search (over at most seven and fourteen stones; the automaton from the sweeps of every
board with odd sides up to 41, keeping only the states those sweeps pass through) by
:func:`build_gadget_table`, run as ``python -m clobbermania.solitaire.checkerboard``, and
stored in ``data/checkerboard_gadgets.json``; the same command with ``--check`` rebuilds it
and compares (about 45 s of CPU: identical), and each run replays the plans of all 826
boards and first colours it was built from (:func:`verify_gadget_table`). At run time
nothing is searched: the plans only chain stored entries by dynamic programming (a missing
carry gadget or endgame is an error; a missing odd step just closes that way through).
Every answer is linear in nm: a 1000 x 1000 board is planned in about two seconds.
:func:`reduce_checkerboard` replays nothing itself; callers check the answer with
:func:`clobbermania.solitaire.replay` (the CLI and the tests do).

>>> from clobbermania.stones import Position, BLACK, WHITE
>>> from clobbermania.solitaire import replay
>>> replay(Position.checkerboard(4, 5), reduce_checkerboard(4, 5), first=BLACK).stones_left
1
>>> replay(Position.checkerboard(3, 3), reduce_checkerboard(3, 3, WHITE), first=WHITE).stones_left
2
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial
from pathlib import Path

import numpy as np

from ..errors import UnsupportedError
from ..stones import BLACK, EMPTY, WHITE, Board, Move, Position
from .construction import reduce_row

#: How many new cells one carry gadget may eat, and how far behind the front the carry
#: may stand (in cells of the sweep order).
GADGET_CELLS = 6
CARRY_LAG = 4
#: A half may stop this many cells before its end and leave them to the endgame.
END_CELLS = 4
ROTATION_END_CELLS = 6
#: How many ways of handing the even block's stones down the odd sweep may try.
ODD_HANDOFFS = 24
#: The odd sweep's window: the last three groups (rows or columns of the L), holding at
#: most four stones.
ODD_GROUPS = 3
ODD_STONES = 4
#: The odd automaton is built from every board with odd sides up to this.
ODD_BUILD_SIDE = 41

_DATA = Path(__file__).with_name("data") / "checkerboard_gadgets.json"

Cell = tuple[int, int]


def _colour(r: int, c: int) -> int:
    return BLACK if (r + c) % 2 == 0 else WHITE


def _other(colour: int) -> int:
    return BLACK + WHITE - colour


def optimum_stones(rows: int, cols: int, first: int) -> int:
    """The fewest stones the rows x cols checkerboard (black where r + c is even) can be
    reduced to when ``first`` moves first: Theorems 2 and 5, and the counting argument.

    One stone needs nm - 1 moves; on an odd board the majority colour (black) moving first
    makes (nm - 1)/2 captures, removing every white stone, while the last move is white's,
    a contradiction: so black first gives 2 there.

    >>> optimum_stones(5, 5, BLACK), optimum_stones(5, 5, WHITE), optimum_stones(3, 4, WHITE)
    (2, 1, 2)
    """
    from .theory import checkerboard_value

    value = checkerboard_value(rows, cols)
    if rows >= 2 and cols >= 2 and rows * cols % 2 == 1 and value == 1 and first == BLACK:
        return 2
    return value  # a single row: Theorem 2 holds for either first colour


# -- the stored gadgets --------------------------------------------------------------------

class _GadgetTable:
    """Carry gadgets (SC2) and endgames (alternating), keyed by their local shape.

    A key lists cells relative to a base cell with their colours; a value lists the
    outcomes. ``search_missing`` is only set by :func:`build_gadget_table`.
    """

    def __init__(self) -> None:
        self.carry: dict[str, list] = {}
        self.endgame: dict[str, list] = {}
        self.odd: dict[str, dict] = {}
        self.odd_end: dict[str, dict] = {}
        self.search_missing = False
        self.loaded = False

    def load(self) -> None:
        if self.loaded:
            return
        if _DATA.exists():
            data = json.loads(_DATA.read_text())
            self.carry = data["carry"]
            self.endgame = data["endgame"]
            self.odd = data["odd"]
            self.odd_end = data["odd_end"]
        self.loaded = True


_TABLE = _GadgetTable()


def gadget_table() -> dict[str, dict[str, list]]:
    """The stored gadgets: ``{"carry": {key: outcomes}, "endgame": {key: outcomes}}``.

    Carry key: ``"dr,dc,colour;..."`` for the carry (or nothing at the very start, key
    beginning with ``"-"``) then the cells eaten, relative to the first cell eaten.
    Outcome: ``[[[index, colour], ...], [[src, dst], ...]]``, the stones left (one, or two
    for the last gadget of a half) and the SC2 moves, cells as indices into the key.

    Odd step key: the cells of the window's groups and the new group (``"dr,dc"``,
    ``;`` between cells, ``|`` between groups, relative to the new group's last cell),
    ``#``, the new group's colours; ``odd[key][state]`` lists ``[next state, moves]``, a
    state being the window's colours then the colour due (digits), moves alternating from
    that colour, cells indexed over the key's groups. ``odd_end["END" shape "#" target]
    [state]`` holds the moves that bring the last window down to the target.
    """
    _TABLE.load()
    return {"carry": _TABLE.carry, "endgame": _TABLE.endgame, "odd": _TABLE.odd,
            "odd_end": _TABLE.odd_end}


def _key(cells: Iterable[tuple[int, int, int]]) -> str:
    return ";".join(f"{a},{b},{c}" for a, b, c in cells)


def _search_gadget(ctx: tuple[tuple[int, int, int], ...], alternate: int = 0,
                   goal_rows: frozenset | None = None, target: int = 0) -> list:
    """Breadth-first search over the stones of ``ctx`` (build time only).

    With ``alternate == 0``: SC2 moves; outcomes are the endings with one or two stones.
    Otherwise colours alternate from ``alternate``; outcomes are endings with ``target``
    stones, or with every stone on a row of ``goal_rows``, with the colour due after.
    """
    cells = [(a, b) for a, b, _ in ctx]
    index = {cell: i for i, cell in enumerate(cells)}
    # the cells as a graph board, so that moves come from the reference move generator
    board = Board.from_edges(len(cells), [(i, index[(r + 1, c)]) for i, (r, c) in
                                          enumerate(cells) if (r + 1, c) in index]
                             + [(i, index[(r, c + 1)]) for i, (r, c) in enumerate(cells)
                                if (r, c + 1) in index])
    start = (tuple(col for _, _, col in ctx), alternate)
    parent: dict = {start: None}
    frontier = [start]
    outcomes: dict = {}
    while frontier:
        nxt = []
        for state in frontier:
            stones, due = state
            occupied = [i for i, x in enumerate(stones) if x]
            if alternate == 0:
                if len(occupied) <= 2:
                    key = tuple((i, stones[i]) for i in occupied)
                    outcomes.setdefault(key, state)
            else:
                if target and len(occupied) == target:
                    outcomes.setdefault((tuple((i, stones[i]) for i in occupied), due), state)
                elif goal_rows is not None and _handoff_ok(cells, index, stones, occupied,
                                                           goal_rows):
                    outcomes.setdefault((tuple((i, stones[i]) for i in occupied), due), state)
            for s, d in Position(board, bytes(stones)).moves(due or None):
                new = list(stones)
                new[d], new[s] = stones[s], EMPTY
                child = (tuple(new), _other(due) if alternate else 0)
                if child not in parent:
                    parent[child] = (state, (s, d))
                    nxt.append(child)
        frontier = nxt

    def path(state):
        moves = []
        while parent[state] is not None:
            state, mv = parent[state]
            moves.append(list(mv))
        return moves[::-1]

    out = []
    for key, state in outcomes.items():
        if alternate == 0:
            out.append([[list(x) for x in key], path(state)])
        else:
            stones_left, due = key
            out.append([[list(x) for x in stones_left], due, path(state)])
    return out


def _handoff_ok(cells, index, stones, occupied, goal_rows) -> bool:
    """A strip may hand on its stones when all lie in it (rows ``goal_rows``: the last is
    the bottom row), some lie on the bottom row, and each stone above the bottom row
    stands on a stone (else it could never move again)."""
    bottom = max(goal_rows)
    if not occupied or not any(cells[i][0] == bottom for i in occupied):
        return False
    for i in occupied:
        r, c = cells[i]
        if r not in goal_rows:
            return False
        if r != bottom:
            below = index.get((r + 1, c))
            if below is None or not stones[below]:
                return False
    return True


_OUTCOMES: dict = {}


def _carry_outcomes(ctx: tuple[tuple[int, int, int], ...]) -> list:
    found = _OUTCOMES.get(ctx)
    if found is None:
        found = _OUTCOMES[ctx] = _stored_carry_outcomes(ctx)
    return found


def _stored_carry_outcomes(ctx: tuple[tuple[int, int, int], ...]) -> list:
    key = _key(ctx) if ctx[0] != (None, None, None) else "-;" + _key(ctx[1:])
    found = _TABLE.carry.get(key)
    if found is None:
        if not _TABLE.search_missing:
            raise UnsupportedError(f"no stored carry gadget for shape {key!r}; "
                                   "the gadget table is incomplete")
        raw = ctx if ctx[0] != (None, None, None) else ctx[1:]
        found = _search_gadget(raw)
        if ctx[0] == (None, None, None):
            found = [[[[i + 1, c] for i, c in left], [[s + 1, d + 1] for s, d in mv]]
                     for left, mv in found]
        _TABLE.carry[key] = found
    return found


# -- the carry sweep of a half ----------------------------------------------------------------

class _Half:
    """A half ``L`` in sweep order, made of bands, then ``extra`` cells.

    A band is a strip of rows (``"h"``: rows r0..r0+w-1, crossed column by column in
    direction d) or of columns (``"v"``: columns c0..c0+w-1, crossed row by row) over the
    half's whole length. Bands of the same kind are translates of each other, which the
    sweep uses to cache its work."""

    def __init__(self, rows: int, cols: int, bands: list[tuple[str, int, int, int]],
                 extra: tuple[Cell, ...] = ()) -> None:
        self.bands = bands
        self.extra = extra
        self.order: list[Cell] = []
        self.starts: list[int] = []
        for axis, a0, w, d in bands:
            self.starts.append(len(self.order))
            if axis == "h":
                for c in (range(cols) if d > 0 else range(cols - 1, -1, -1)):
                    self.order.extend((r, c) for r in range(a0, a0 + w))
            else:
                for r in (range(rows) if d > 0 else range(rows - 1, -1, -1)):
                    self.order.extend((r, c) for c in range(a0, a0 + w))
        self.order.extend(extra)

    def shift(self, seg: int) -> Cell:
        axis, a0, _, _ = self.bands[seg]
        return (a0, 0) if axis == "h" else (0, a0)


def _carry_step(order: list[Cell], i: int, p: int | None, n_cells: int):
    """Gadgets from the state (i cells eaten, carry on order[p]): yields
    (cells eaten after, carry index or None, residue or None, moves)."""
    br, bc = order[i]
    if p is None:
        head = [(None, None, None)]
        ctx_cells: list = [None]
    else:
        pr, pc = order[p]
        own = _colour(pr, pc)
        head = [(pr - br, pc - bc, own if i % 3 == 1 else _other(own))]
        ctx_cells = [order[p]]
    for c in range(1, GADGET_CELLS + 1):
        if i + c > n_cells:
            break
        ctx = head + [(r - br, cc - bc, _colour(r, cc)) for r, cc in order[i:i + c]]
        cells = ctx_cells + order[i:i + c]
        for left, moves in _carry_outcomes(tuple(ctx)):
            abs_moves = [(cells[s], cells[d]) for s, d in moves]
            q = None
            if len(left) == 1:
                j = left[0][0]
                q = p if j == 0 else i + j - 1
                if q < i + c - CARRY_LAG:
                    q = None
            residue = (frozenset((cells[j], col) for j, col in left)
                       if i + c == n_cells else None)
            if q is not None or residue is not None:
                yield i + c, q, residue, abs_moves


def _carry_plans(half: _Half, near, end_cells: int = 0) -> list[tuple[frozenset, object]]:
    """Every way the carry sweep can leave ``half``: (residue, moves) pairs, the residue a
    frozenset of (cell, colour) all on cells where ``near(cell)`` holds, and ``moves()``
    writing out the SC2 moves.

    A dynamic programme over (cells eaten, carry square). Bands of the same kind repeat,
    so the programme is run band by band and each band's transitions are cached by the
    band's kind and the states entering it: the cost is linear in the number of bands
    plus the length of a few bands."""
    order = half.order
    n_cells = len(order)
    if _TABLE.search_missing:  # build time: every shape the sweep could meet
        for i in range(n_cells):
            carries = [None] if i == 0 else [] if i % 3 == 0 else range(
                max(0, i - CARRY_LAG), i)
            for p in carries:
                for _ in _carry_step(order, i, p, n_cells):
                    pass
    bounds = half.starts[1:] + [n_cells - len(half.extra) if half.extra else n_cells]
    # last segment: the last band plus the extra cells
    bounds[-1] = n_cells
    seg_starts = half.starts
    cache: dict = {}
    # frontier: state (i, p) -> None; back[seg] = {out state: (in state, moves)}
    frontier: dict = {(0, None): None}
    backs: list[dict] = []
    finals: dict = {}
    for seg, (lo, hi) in enumerate(zip(seg_starts, bounds, strict=True)):
        last = seg == len(seg_starts) - 1
        axis, a0, h, d = half.bands[seg]
        nxt_h = half.bands[seg + 1][2] if not last else 0
        prev_h = half.bands[seg - 1][2] if seg else 0
        kind = (axis, h, d, prev_h, nxt_h, lo % 3, a0 % 2)
        sr, sc = half.shift(seg)
        rel_in = frozenset((i - lo, None if p is None else p - lo) for i, p in frontier)
        key = (kind, rel_in)
        if not last and key in cache:
            rel_out, rel_back = cache[key]
        else:
            states: dict[int, dict] = {}
            out: dict = {}
            back: dict = {}
            for i, p in frontier:
                states.setdefault(i, {})[p] = None
                if i >= hi and not last:  # a band shorter than a gadget: pass it on
                    out[(i, p)] = ((i, p), [])
            for i in range(lo, hi):
                if i not in states:
                    continue
                for p in list(states[i]):
                    if last and p is not None and i >= n_cells - (end_cells or END_CELLS):
                        pr, pc = order[p]
                        own = _colour(pr, pc)
                        residue = frozenset([(order[p], own if i % 3 == 1 else _other(own))]
                                            + [(cell, _colour(*cell)) for cell in order[i:]])
                        if residue not in finals and all(near(cell) for cell, _ in residue):
                            finals[residue] = ((i, p), [])
                    for i2, q, residue, moves in _carry_step(order, i, p, n_cells):
                        if residue is not None and last:
                            if residue not in finals and all(near(cl) for cl, _ in residue):
                                finals[residue] = ((i, p), moves)
                        if q is None:
                            continue
                        if i2 < hi or last:
                            if i2 < n_cells and q not in states.setdefault(i2, {}):
                                states[i2][q] = ((i, p), moves)
                        elif (i2, q) not in out:
                            out[(i2, q)] = ((i, p), moves)
            # path pieces from the entering states, per state leaving the band
            def piece(state, states=states, lo=lo):
                i, p = state
                moves: list = []
                while i >= lo and states.get(i, {}).get(p) is not None:
                    (i, p), mv = states[i][p]
                    moves[:0] = mv
                return (i, p), moves
            if last:
                backs.append({"states": states, "lo": lo})
                break
            for state, (prev, mv) in out.items():
                entry, moves = piece(prev)
                back[state] = (entry, moves + mv)
            rel_out = frozenset((i - hi, p - hi) for i, p in out)
            shift = np.array([sr, sc, sr, sc])
            rel_back = {(i - hi, p - hi): ((e[0] - lo, None if e[1] is None else e[1] - lo),
                                           _as_array(moves) - shift)
                        for (i, p), (e, moves) in back.items()}
            cache[key] = (rel_out, rel_back)
        backs.append({"rel_back": rel_back, "lo": lo, "hi": hi, "shift": (sr, sc)})
        frontier = {(i + hi, p + hi): None for i, p in rel_out}
        if not frontier:
            return []
    # each final residue with a function writing out its moves (only the chosen one is)
    last_info = backs[-1]
    states = last_info["states"]
    lo = last_info["lo"]

    def unwind(state, mv):
        pieces = [mv]
        i, p = state
        while i >= lo and states.get(i, {}).get(p) is not None:
            (i, p), prev = states[i][p]
            pieces.append(prev)
        for seg in range(len(backs) - 2, -1, -1):
            info = backs[seg]
            (ei, ep), piece_moves = info["rel_back"][(i - info["hi"], p - info["hi"])]
            sr, sc = info["shift"]
            pieces.append(piece_moves + np.array([sr, sc, sr, sc]))
            i, p = ei + info["lo"], None if ep is None else ep + info["lo"]
        return np.concatenate([_as_array(piece) if isinstance(piece, list) else piece
                               for piece in reversed(pieces)])

    plans = [(residue, (lambda st=state, mv=mv: unwind(st, mv)))
             for residue, (state, mv) in finals.items()]
    plans.sort(key=lambda plan: (len(plan[0]), sorted(plan[0])))
    return plans


def _all_end_residues(half: _Half, near, end_cells: int) -> set[frozenset]:
    """Every residue the carry sweep of ``half`` could end with, reachable or not (build
    time): a carry with the cells not yet eaten, or what a last gadget leaves."""
    order = half.order
    n_cells = len(order)
    out = set()
    for i in range(max(1, n_cells - max(end_cells, END_CELLS, GADGET_CELLS)), n_cells):
        if i % 3 == 0:
            continue
        for p in range(max(0, i - CARRY_LAG), i):
            pr, pc = order[p]
            own = _colour(pr, pc)
            carry = (order[p], own if i % 3 == 1 else _other(own))
            if i >= n_cells - (end_cells or END_CELLS):
                out.add(frozenset([carry] + [(cell, _colour(*cell)) for cell in order[i:]]))
            for _, _, residue, _ in _carry_step(order, i, p, n_cells):
                if residue is not None:
                    out.add(residue)
    return {res for res in out if all(near(cell) for cell, _ in res)}


def _as_array(moves) -> np.ndarray:
    """Moves ((r1, c1), (r2, c2)) as an int array of rows r1, c1, r2, c2."""
    return np.array([(a, b, c, d) for (a, b), (c, d) in moves], dtype=np.int64).reshape(-1, 4)


def _paired_sequence(half_moves: np.ndarray, image, due: int) -> np.ndarray:
    """The alternating sequence on both halves: each SC2 move of the half with its
    image, in the order the colour due asks for (idea 2). ``image`` maps arrays of rows
    and columns to the image's."""
    if len(half_moves) == 0:
        return half_moves
    r1, c1, r2, c2 = half_moves.T
    width = int(max(c1.max(), c2.max())) + 1
    src = (r1 * width + c1).tolist()
    dst = (r2 * width + c2).tolist()
    colour_at: dict = {}
    movers = []
    for a, b in zip(src, dst, strict=True):  # which colour makes each move
        mover = colour_at.get(a)
        if mover is None:
            mover = BLACK if (a // width + a % width) % 2 == 0 else WHITE
        colour_at[b] = mover
        colour_at[a] = EMPTY
        movers.append(mover)
    own_first = (np.array(movers) == due)[:, None]
    ir1, ic1 = image(r1, c1)
    ir2, ic2 = image(r2, c2)
    images = np.stack([ir1, ic1, ir2, ic2], axis=1)
    out = np.empty((2 * len(half_moves), 4), dtype=np.int64)
    out[0::2] = np.where(own_first, half_moves, images)
    out[1::2] = np.where(own_first, images, half_moves)
    return out


def _endgame(stones: tuple[tuple[Cell, int], ...], due: int, goal_rows: frozenset | None,
             target: int) -> list:
    """Stored alternating endgame for a few stones: outcomes
    [((cell, colour), ...), due after, moves] that leave ``target`` stones, or (with
    ``goal_rows``) that hand every stone on to the rows below (:func:`_handoff_ok`)."""
    stones = tuple(sorted(stones))
    (br, bc) = stones[0][0]
    ctx = tuple((r - br, c - bc, col) for (r, c), col in stones)
    rel_rows = frozenset(r - br for r in goal_rows) if goal_rows else None
    rows_text = ",".join(map(str, sorted(rel_rows))) if rel_rows else ""
    key = f"{_key(ctx)}|{due}|{rows_text}|{target}"
    found = _TABLE.endgame.get(key)
    if found is None:
        if not _TABLE.search_missing:
            raise UnsupportedError(f"no stored endgame for {key!r}; the gadget table is "
                                   "incomplete")
        found = _search_gadget(ctx, due, rel_rows, target)
        _TABLE.endgame[key] = found
    cells = [cell for cell, _ in stones]
    return [[tuple((cells[i], col) for i, col in left), nd, [(cells[s], cells[d]) for s, d in mv]]
            for left, nd, mv in found]


def _symmetric(half: _Half, image, near, due: int, goal_rows, target: int,
               end_cells: int = 0):
    """Reduce a half and its image with paired moves (idea 2), then finish with an
    endgame: to ``target`` stones, or handing on to the rows below ``goal_rows``.
    Yields the candidates (moves, stones left, colour due after); ``moves()`` writes
    the moves out."""
    if _TABLE.search_missing:  # build time: the endgame of every way a half can end
        for residue in _all_end_residues(half, near, end_cells):
            stones = tuple(sorted(set(residue) | {(image(*cell), _other(col))
                                                  for cell, col in residue}))
            for colour in (BLACK, WHITE):
                _endgame(stones, colour, goal_rows, target)
    for residue, half_moves in _carry_plans(half, near, end_cells):
        stones = tuple(sorted(set(residue) | {(image(*cell), _other(col))
                                              for cell, col in residue}))
        for left, due_after, end_moves in _endgame(stones, due, goal_rows, target):
            if target and len(left) != target:
                continue
            if goal_rows and len(left) > 3:
                continue
            def moves(half_moves=half_moves, end_moves=end_moves):
                return np.concatenate([_paired_sequence(half_moves(), image, due),
                                       _as_array(end_moves)])

            yield moves, left, due_after


# -- the odd part (both sides odd) ----------------------------------------------------------
#
# The L is read as a word of *groups*: a row of the right band, then a column of the
# bottom band (with the stones handed down onto that column just before it). The sweep
# keeps a *window* of the last ODD_GROUPS groups; reading a group, it plays alternating
# moves inside the window and the new group until the oldest group of the window is
# empty, which then leaves the window. A state is the contents of the window and the
# colour due; its transitions depend only on the shape of the window and the new group
# (the *key*) and on the new group's colours. The stored automaton has a few dozen keys
# and states, found at build time (:func:`build_gadget_table`); at run time a dynamic
# programme over the word chains its transitions, with no search.

def _odd_groups(n: int, m: int, hanging: dict) -> list[list[Cell]]:
    """The L of :func:`_plan_odd` as groups: the rows of the right band, top down, then
    the columns of the bottom band from the right, each after the stones handed down onto
    it."""
    groups = [[(r, m - 3), (r, m - 2), (r, m - 1)] for r in range(n - 3)]
    for c in range(m - 1, -1, -1):
        groups.append(sorted(cell for cell in hanging if cell[1] == c)
                      + [(n - 3, c), (n - 2, c), (n - 1, c)])
    return groups


def _odd_shape(groups: list[list[Cell]], base: Cell) -> str:
    br, bc = base
    return "|".join(";".join(f"{r - br},{c - bc}" for r, c in grp) for grp in groups)


def _odd_key(groups: list[list[Cell]], g: int, colours: dict) -> str:
    """Key of reading group g: the shape of the window and group g (relative to the last
    cell of group g), then the colours of group g."""
    region = groups[max(0, g - ODD_GROUPS):g + 1]
    return (_odd_shape(region, groups[g][-1]) + "#"
            + "".join(str(colours[cell]) for cell in groups[g]))


def _odd_end_key(groups: list[list[Cell]], target: int) -> str:
    return "END" + _odd_shape(groups[-ODD_GROUPS:], groups[-1][-1]) + f"#{target}"


def _odd_cells(shape: str) -> tuple[list[list[Cell]], list[list[int]]]:
    """The groups of a key's shape, and each cell's neighbours (indices, flattened)."""
    groups = [[tuple(int(x) for x in cell.split(",")) for cell in grp.split(";")]
              for grp in shape.split("|")]
    cells = [cell for grp in groups for cell in grp]
    index = {cell: i for i, cell in enumerate(cells)}
    nbrs = [[index[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
             if (r + dr, c + dc) in index] for r, c in cells]
    return groups, nbrs


def _odd_bfs(nbrs: list[list[int]], stones: tuple[int, ...], due: int):
    """Every position reachable from ``stones`` by alternating moves, ``due`` first, in
    breadth-first order: yields (stones, colour due, moves). Build time only."""
    seen = {(stones, due)}
    frontier = [(stones, due, [])]
    while frontier:
        nxt = []
        for conf, colour, moves in frontier:
            yield conf, colour, moves
            for s, x in enumerate(conf):
                if x != colour:
                    continue
                for d in nbrs[s]:
                    if conf[d] == _other(colour):
                        new = list(conf)
                        new[d], new[s] = colour, EMPTY
                        child = (tuple(new), _other(colour))
                        if child not in seen:
                            seen.add(child)
                            nxt.append((child[0], child[1], moves + [[s, d]]))
        frontier = nxt


_ODD_SEARCHED: dict = {}  # build time: (key, state) -> {next state: moves}


def _odd_search(key: str, state: str) -> dict[str, list]:
    """Build time: every transition of ``state`` reading the group of ``key`` that keeps
    at most ODD_STONES stones in the window, with the first moves found."""
    found = _ODD_SEARCHED.get((key, state))
    if found is not None:
        return found
    shape, new_colours = key.split("#")
    groups, nbrs = _odd_cells(shape)
    drop = len(groups[0]) if len(groups) == ODD_GROUPS + 1 else 0
    stones = tuple(int(x) for x in state[:-1]) + tuple(int(x) for x in new_colours)
    found = {}
    if len(stones) == len(nbrs):
        for conf, due, moves in _odd_bfs(nbrs, stones, int(state[-1])):
            if not any(conf[:drop]) and sum(1 for x in conf if x) <= ODD_STONES:
                found.setdefault("".join(map(str, conf[drop:])) + str(due), moves)
    _ODD_SEARCHED[(key, state)] = found
    return found


def _odd_end_search(key: str, state: str) -> list | None:
    """Build time: alternating moves in the last window down to the target, or None."""
    shape, target = key[3:].split("#")
    _, nbrs = _odd_cells(shape)
    stones = tuple(int(x) for x in state[:-1])
    if len(stones) != len(nbrs):
        return None
    for conf, _, moves in _odd_bfs(nbrs, stones, int(state[-1])):
        if sum(1 for x in conf if x) == int(target):
            return moves
    return None


class _OddBuild:
    """Build time: the states the chosen sweeps pass through, and the keys met."""

    states: set[str] = set()
    keys: set[str] = set()
    end_keys: set[str] = set()


def _odd_l_sweep(n: int, m: int, hanging: dict, due: int, target: int):
    """Sweep the L of :func:`_plan_odd` (with the stones ``hanging`` handed down onto it)
    with alternating moves, ``due`` first, down to ``target`` stones: the moves, or None.

    A dynamic programme over the groups; each layer holds the window states reachable so
    far (at most the few dozen states of the stored automaton). On a straight stretch the
    same key and layer recur, so the layers are cached and the work per group is a
    dictionary lookup."""
    groups = _odd_groups(n, m, hanging)
    colours = {cell: hanging.get(cell) or _colour(*cell) for grp in groups for cell in grp}
    building = _TABLE.search_missing
    layer: dict[str, int] = {str(due): 0}  # state -> cost (build time: states not yet used)
    backs: list[dict] = []
    cache: dict = {}
    for g in range(len(groups)):
        key = _odd_key(groups, g, colours)
        if building:
            _OddBuild.keys.add(key)
            back: dict = {}
            for state, cost in sorted(layer.items()):
                for nxt, moves in _odd_search(key, state).items():
                    c = cost + (nxt not in _OddBuild.states)
                    if nxt not in back or back[nxt][2] > c:
                        back[nxt] = (state, moves, c)
            layer = {state: c for state, (_, _, c) in back.items()}
        else:
            memo = (key, frozenset(layer))
            back = cache.get(memo)
            if back is None:
                table = _TABLE.odd.get(key, {})  # a shape never met: no way through
                back = {}
                for state in sorted(layer):
                    for nxt, moves in table.get(state, ()):
                        back.setdefault(nxt, (state, moves, 0))
                cache[memo] = back
            layer = dict.fromkeys(back, 0)
        backs.append(back)
        if not layer:
            return None
    end_key = _odd_end_key(groups, target)
    best = None
    for state in sorted(layer, key=lambda s: (layer[s], s)):
        if building:
            _OddBuild.end_keys.add(end_key)
            end = _odd_end_search(end_key, state)
        else:
            end = _TABLE.odd_end.get(end_key, {}).get(state)
        if end is not None:
            best = (state, end)
            break
    if best is None:
        return None
    state, end_moves = best
    window = [cell for grp in groups[-ODD_GROUPS:] for cell in grp]
    pieces = [[(window[s], window[d]) for s, d in end_moves]]
    for g in range(len(groups) - 1, -1, -1):
        if building:
            _OddBuild.states.add(state)
        prev, moves, _ = backs[g][state]
        cells = [cell for grp in groups[max(0, g - ODD_GROUPS):g + 1] for cell in grp]
        pieces.append([(cells[s], cells[d]) for s, d in moves])
        state = prev
    if building:
        _OddBuild.states.add(state)
    return [mv for piece in reversed(pieces) for mv in piece]


def _odd_automaton() -> tuple[dict, dict]:
    """Build time: the stored automaton, every transition between the states the chosen
    sweeps used, for every key met; and the endings of those states."""
    states = _OddBuild.states
    odd: dict = {}
    for key in sorted(_OddBuild.keys):
        entry = {}
        for state in sorted(states):
            steps = [[nxt, moves] for nxt, moves in sorted(_odd_search(key, state).items())
                     if nxt in states]
            if steps:
                entry[state] = steps
        odd[key] = entry
    ends: dict = {}
    for key in sorted(_OddBuild.end_keys):
        entry = {}
        for state in sorted(states):
            moves = _odd_end_search(key, state)
            if moves is not None:
                entry[state] = moves
        ends[key] = entry
    return odd, ends


# -- the whole board ------------------------------------------------------------------------

def reduce_checkerboard(rows: int, cols: int, first: int = BLACK) -> list[Move]:
    """Theorem 5, constructively: an alternating move sequence from the rows x cols
    checkerboard (black where r + c is even; ``Position.checkerboard``), ``first`` moving
    first, that leaves :func:`optimum_stones` stones: 1, or 2 when 3 divides rows * cols or
    when black (the majority) moves first on an odd board. A single row or column uses
    the Theorem 1 construction (:func:`.construction.reduce_row`).

    Time and the number of moves are linear in rows * cols (see the module docstring for
    the scheme). Squares are numbered ``r * cols + c``.

    >>> from clobbermania.stones import Position
    >>> from clobbermania.solitaire import replay
    >>> moves = reduce_checkerboard(2, 3, first=WHITE)
    >>> replay(Position.checkerboard(2, 3), moves, first=WHITE).stones_left
    2
    """
    if not (isinstance(rows, int) and isinstance(cols, int)) or rows < 1 or cols < 1:
        raise UnsupportedError(f"a checkerboard needs positive whole sides, not {rows}x{cols}")
    if first not in (BLACK, WHITE):
        raise UnsupportedError("first must be BLACK or WHITE")
    if rows == 1 or cols == 1:
        return reduce_row(rows * cols, first)  # square i is the i-th of the line either way
    _TABLE.load()
    target = optimum_stones(rows, cols, first)
    split = _majority_first_split(rows, cols, first)
    if split is not None:
        return split
    transpose = _transposed(rows, cols)
    cells = None
    # both sides even: either side may carry the mirror; try the preferred one first
    for flip in (transpose, not transpose) if rows % 2 == cols % 2 == 0 else (transpose,):
        n, m = (cols, rows) if flip else (rows, cols)
        cells = _plan_even(n, m, first, target) if n * m % 2 == 0 else _plan_odd(
            n, m, first, target)
        if cells is not None:
            transpose = flip
            break
    if cells is None:
        raise UnsupportedError(f"no construction found for the {rows}x{cols} board")
    r1, c1, r2, c2 = cells.T
    if transpose:  # cell (r, c) of the n x m plan is square (c, r) of the board
        r1, c1, r2, c2 = c1, r1, c2, r2
    src = (r1 * cols + c1).tolist()
    dst = (r2 * cols + c2).tolist()
    # Move is a named tuple: tuple.__new__ skips its Python-level constructor
    return list(map(partial(tuple.__new__, Move), zip(src, dst, strict=True)))


def _majority_first_split(rows: int, cols: int, first: int) -> list[Move] | None:
    """Black (the majority) first on an odd board: two stones is the optimum, so cut off
    two or four columns (or rows) A, even, and reduce A to one stone black first; its
    nm - 1 moves are odd in number, so white is then due on the odd rest B, which white
    first reduces to one stone. Both need 3 not dividing their areas; None when no cut
    works (then the general odd plan applies)."""
    if first != BLACK or rows * cols % 2 == 0 or min(rows, cols) < 3:
        return None
    for cut_cols in (True, False):
        along, across = (cols, rows) if cut_cols else (rows, cols)
        if across % 3 == 0:
            continue
        a = 2 if (along - 2) % 3 else 4
        if along - a < 3:
            continue
        if cut_cols:
            part = reduce_checkerboard(rows, a, BLACK)
            rest = reduce_checkerboard(rows, cols - a, WHITE)
            w = cols - a
            moves = [Move(m.src // a * cols + m.src % a, m.dst // a * cols + m.dst % a)
                     for m in part]
            moves += [Move(m.src // w * cols + m.src % w + a, m.dst // w * cols + m.dst % w + a)
                      for m in rest]
        else:
            part = reduce_checkerboard(a, cols, BLACK)
            rest = reduce_checkerboard(rows - a, cols, WHITE)
            moves = list(part) + [Move(m.src + a * cols, m.dst + a * cols) for m in rest]
        return moves
    return None


def _transposed(rows: int, cols: int) -> bool:
    """Plan on the transposed board? Even boards want an even number of columns (the
    mirror) and halves at least two columns wide, or two rows of odd length (the half
    turn); odd boards want cols >= rows (see :func:`_plan_odd`)."""
    if rows * cols % 2 == 1:
        return rows > cols
    if rows == 2 and cols % 2 == 1:
        return False
    if cols % 2 == 1:
        return True
    return cols == 2 and rows > 2


def _even_halves(n: int, k: int) -> list[_Half]:
    """Ways to sweep the n x k half (its column k - 1 lies on the centre line), each
    ending on the centre: bands of two rows (one of three when n is odd) whose last runs
    towards the centre, or, for a half two or three columns wide, one band of columns."""
    out = []
    if k in (2, 3):
        out.append(_Half(n, k, [("v", 0, k, 1)]))
    if n % 2 == 0:
        options = [[2] * (n // 2)]
    else:
        options = [[2] * ((n - 3) // 2) + [3], [3] + [2] * ((n - 3) // 2)]
    for heights in options:
        bands, r0 = [], 0
        for b, h in enumerate(heights):
            d = 1 if (len(heights) - 1 - b) % 2 == 0 else -1
            bands.append(("h", r0, h, d))
            r0 += h
        out.append(_Half(n, k, bands))
    return out


def _plan_even(n: int, m: int, first: int, target: int):
    """n x m with nm even, m even after transposing (the mirror c -> m - 1 - c), or
    2 x m with m odd (the half turn (r, c) -> (1 - r, m - 1 - c))."""
    if m % 2 == 1:
        c0 = m // 2
        halves = [_Half(2, c0, [("h", 0, 2, 1)], extra=((0, c0),))]

        def image(r, c):
            return (1 - r, m - 1 - c)

        near_cols = range(c0 - 3, c0 + 1)
    else:
        halves = _even_halves(n, m // 2)

        def image(r, c):
            return (r, m - 1 - c)

        near_cols = range(m // 2 - 2, m // 2)
    for half in halves:
        for moves, _, _ in _symmetric(half, image, lambda cell: cell[1] in near_cols, first,
                                      None, target, ROTATION_END_CELLS if m % 2 else 0):
            return moves()
    return None


def _plan_odd(n: int, m: int, first: int, target: int):
    """Both sides odd, m >= n: the top-left (n-3) x (m-3) block by the mirror (it is even
    both ways), its last stones handed down next to the bottom band; then the L-shaped
    rest (three columns on the right, three rows at the bottom) swept with alternating
    moves, taking in the handed-down stones on the way."""
    if n == 3:
        tail = _odd_l_sweep(n, m, {}, first, target)
        return None if tail is None else _as_array(tail)
    e_rows, e_cols = n - 3, m - 3
    k = e_cols // 2
    heights = [2] * (e_rows // 2)
    bands = [("h", 2 * b, 2, 1 if (len(heights) - 1 - b) % 2 == 0 else -1)
             for b in range(len(heights))]
    half = _Half(e_rows, k, bands)

    def image(r, c):
        return (r, e_cols - 1 - c)

    near_cols = range(k - 2, k)
    candidates = []
    for part, left, due in _symmetric(half, image, lambda cell: cell[1] in near_cols, first,
                                      frozenset({e_rows - 2, e_rows - 1}), 0):
        if _counts_allow(n, m, left, due, target):
            candidates.append((part, left, due))
        if len(candidates) >= ODD_HANDOFFS:
            break
    # fewest stones handed down first, in one piece
    candidates.sort(key=lambda cand: (len(cand[1]), _pieces(cand[1])))
    for part, left, due in candidates:
        tail = _odd_l_sweep(n, m, dict(left), due, target)
        if tail is not None:
            return np.concatenate([part(), _as_array(tail)])
    return None


def _pieces(stones) -> int:
    """Connected pieces of a few stones (handing down one piece works best)."""
    cells = {cell for cell, _ in stones}
    pieces = 0
    while cells:
        pieces += 1
        todo = [cells.pop()]
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells:
                    cells.remove(nb)
                    todo.append(nb)
    return pieces


def _counts_allow(n: int, m: int, hanging, due: int, target: int) -> bool:
    """The counting argument on the L and the handed-down stones: with colours
    alternating from ``due``, each black move removes a white stone and each white move
    a black one, and the colour moving last keeps a stone."""
    ell = [(r, c) for r in range(n - 3) for c in range(m - 3, m)]
    ell += [(r, c) for r in range(n - 3, n) for c in range(m)]
    black = sum(1 for r, c in ell if (r + c) % 2 == 0)
    white = len(ell) - black
    black += sum(1 for _, col in hanging if col == BLACK)
    white += sum(1 for _, col in hanging if col == WHITE)
    moves = black + white - target
    if moves <= 0:
        return moves == 0
    by_due, by_other = (moves + 1) // 2, moves // 2
    black_moves, white_moves = (by_due, by_other) if due == BLACK else (by_other, by_due)
    black_left, white_left = black - white_moves, white - black_moves
    last = due if moves % 2 == 1 else _other(due)
    return black_left >= 0 and white_left >= 0 and (
        black_left if last == BLACK else white_left) >= 1


# -- building the table ---------------------------------------------------------------------

def build_gadget_table(max_side: int = 16) -> dict:
    """Find every gadget the scheme uses on boards up to ``max_side`` (build time; the
    shapes are local, so these are all the shapes of any board) and return the table.
    Run ``python -m clobbermania.solitaire.checkerboard`` to rewrite the stored file."""
    _TABLE.loaded = True
    _TABLE.carry, _TABLE.endgame, _TABLE.odd, _TABLE.odd_end = {}, {}, {}, {}
    _OUTCOMES.clear()
    _ODD_SEARCHED.clear()
    _OddBuild.states, _OddBuild.keys, _OddBuild.end_keys = set(), set(), set()
    _TABLE.search_missing = True
    try:
        for n, m in _build_boards(max_side):
            for first in (BLACK, WHITE):
                reduce_checkerboard(n, m, first)
        _TABLE.odd, _TABLE.odd_end = _odd_automaton()
    finally:
        _TABLE.search_missing = False
    return {"carry": dict(sorted(_TABLE.carry.items())),
            "endgame": dict(sorted(_TABLE.endgame.items())),
            "odd": _TABLE.odd, "odd_end": _TABLE.odd_end}


def _build_boards(max_side: int, odd_side: int = ODD_BUILD_SIDE) -> list[tuple[int, int]]:
    """The boards :func:`build_gadget_table` plans (and :func:`verify_gadget_table`
    replays), in that order: every n x m with sides 2..max_side, a few longer bands (the
    same shapes, checked), and every board with odd sides up to ``odd_side`` (for the odd
    automaton)."""
    boards = [(n, m) for n in range(2, max_side + 1) for m in range(2, max_side + 1)]
    boards += [(2, 41), (41, 2), (3, 40), (40, 3), (30, 31), (31, 30)]
    boards += [(n, m) for n in range(3, odd_side + 1, 2) for m in range(n, odd_side + 1, 2)]
    return list(dict.fromkeys(boards))


def verify_gadget_table(max_side: int = 16,
                        odd_side: int = ODD_BUILD_SIDE) -> tuple[int, list[str]]:
    """Replay the plan of every board the table was built from (with the defaults; smaller
    sides check a subset), both first colours, with the reference rules
    (:func:`clobbermania.solitaire.replay`, which shares nothing with the gadget search):
    each must be legal, alternate colours and end with :func:`optimum_stones` stones.
    Uses the table in memory (the stored one unless :func:`build_gadget_table` just ran).
    Returns (boards checked, failures).

    >>> verify_gadget_table(4, 5)
    (34, [])
    """
    from .rules import replay

    failures: list[str] = []
    checked = 0
    for n, m in _build_boards(max_side, odd_side):
        for first in (BLACK, WHITE):
            checked += 1
            name = f"{n}x{m}, {'black' if first == BLACK else 'white'} first"
            try:
                moves = reduce_checkerboard(n, m, first)
            except UnsupportedError as e:
                failures.append(f"{name}: no plan ({e})")
                continue
            r = replay(Position.checkerboard(n, m), moves, first=first)
            want = optimum_stones(n, m, first)
            if not r.valid:
                failures.append(f"{name}: illegal plan ({r.error})")
            elif r.stones_left != want:
                failures.append(f"{name}: {r.stones_left} stones left, not {want}")
    return checked, failures


def main(argv: list[str] | None = None) -> int:
    """``python -m clobbermania.solitaire.checkerboard``: rebuild the stored gadget table
    by search and write it to ``data/checkerboard_gadgets.json`` (``--check``: compare
    with the stored file and write nothing; ``--verify-only``: no search), then replay
    every board's plan (:func:`verify_gadget_table`). Exit status 0 when all holds, 1 on
    a difference or a failed replay."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m clobbermania.solitaire.checkerboard",
                                     description=main.__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="rebuild and compare with the stored table; write nothing")
    mode.add_argument("--verify-only", action="store_true",
                      help="replay the plans of the stored table; no search")
    parser.add_argument("--max-side", type=int, default=16, metavar="N",
                        help="verify every board with sides 2..N (default 16, the build's)")
    parser.add_argument("--odd-side", type=int, default=ODD_BUILD_SIDE, metavar="N",
                        help=f"and every board with odd sides up to N (default "
                             f"{ODD_BUILD_SIDE}, the build's)")
    args = parser.parse_args(argv)
    status = 0
    if not args.verify_only:
        table = build_gadget_table()
        text = json.dumps(table, separators=(",", ":"))
        steps = sum(len(steps) for entry in table["odd"].values() for steps in entry.values())
        print(f"built {len(table['carry'])} carry gadgets, {len(table['endgame'])} endgames, "
              f"odd automaton: {len(table['odd'])} keys, {len(_OddBuild.states)} states, "
              f"{steps} steps")
        if args.check:
            stored = json.loads(_DATA.read_text()) if _DATA.exists() else None
            if stored == json.loads(text):
                print(f"identical to the stored table {_DATA}")
            else:
                print(f"DIFFERS from the stored table {_DATA}")
                status = 1
        else:
            _DATA.parent.mkdir(exist_ok=True)
            _DATA.write_text(text)
            print(f"written to {_DATA}")
    checked, failures = verify_gadget_table(args.max_side, args.odd_side)
    for failure in failures[:20]:
        print("FAIL", failure)
    print(f"{checked} plans replayed by the reference rules: "
          + ("all reach the optimum" if not failures else f"{len(failures)} FAIL"))
    return 1 if failures else status


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["reduce_checkerboard", "optimum_stones", "gadget_table", "build_gadget_table",
           "verify_gadget_table"]
