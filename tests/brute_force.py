"""An independent brute force for Solitaire Clobber, written from the rules alone (shared by
the rule and solver tests; it uses no solver code)."""

from clobbermania.stones import BLACK, EMPTY, WHITE, Board


class BruteForce:
    """Fewest stones left, written from the rules alone, memoized on (cells, colour due).

    ``due`` BLACK/WHITE: SC, colours alternate and play ends when the colour due has no
    move. ``due`` 0: SC2, any colour moves at any time. Every move removes exactly one
    stone, so the minimum over finished games is the minimum over all games.
    """

    def __init__(self, board: Board):
        self.nbrs = [tuple(board.neighbors(v)) for v in range(board.n)]
        self.memo: dict = {}

    def children(self, cells: tuple, color: int):
        other = 3 - color
        for v, c in enumerate(cells):
            if c == color:
                for u in self.nbrs[v]:
                    if cells[u] == other:
                        nxt = list(cells)
                        nxt[u] = color
                        nxt[v] = EMPTY
                        yield tuple(nxt)

    def value(self, cells: tuple, due: int) -> int:
        key = (cells, due)
        if key in self.memo:
            return self.memo[key]
        best = sum(1 for c in cells if c != EMPTY)
        for color in ((BLACK, WHITE) if due == 0 else (due,)):
            nxt_due = 0 if due == 0 else 3 - due
            for child in self.children(cells, color):
                best = min(best, self.value(child, nxt_due))
        self.memo[key] = best
        return best
