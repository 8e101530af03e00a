"""``clobbermania solitaire reduce``: the constructions of both papers, checked by replay.

``reduce ROWSxCOLS`` writes out Theorem 5 of Demaine, Demaine and Fleischer for the
checkerboard (:func:`clobbermania.solitaire.checkerboard.reduce_checkerboard`);
``reduce BOARD --graph SPEC`` the SC2 reduction of a Hamming graph or hypercube of Dorbec,
Duchêne and Gravier (:func:`clobbermania.solitaire.hamming.reduce_hamming`).
"""

from __future__ import annotations

import re
import time

import click

from ..errors import BoardError, NotationError
from ..render import text_drawing
from ..render.svg import sequence_svg
from ..solitaire import replay
from ..solitaire.checkerboard import optimum_stones, reduce_checkerboard
from ..solitaire.hamming import reduce_hamming
from ..stones import COLOR_NAMES, Position, color_from_name
from ._common import emit_json, load_position, write_svg

#: Largest checkerboard written out (moves are kept in memory: about 100 bytes each).
MAX_SQUARES = 1_000_000
#: Longest side of a board of two or more rows and columns: the construction's Python
#: DP walks each band of rows along the whole long side (measured: 200x5000 4.9 s of CPU,
#: 100x10000 7.3 s, 32x31250 20 s, 2x500000 35 s; one row of 1,000,000: 1.3 s).
MAX_LONG_SIDE = 5_000
#: Largest board drawn with --svg, and how many snapshots a long sequence is cut into.
MAX_SVG_SQUARES = 10_000
SVG_SNAPSHOTS = 8

_SIZE_RE = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*")


def _parse_size(text: str) -> tuple[int, int]:
    m = _SIZE_RE.fullmatch(text)
    if not m:
        raise NotationError(f"bad board size {text!r}: expected ROWSxCOLS, like 8x8 (or give "
                            "a board with --graph SPEC)")
    rows, cols = int(m.group(1)), int(m.group(2))
    if rows < 1 or cols < 1:
        raise BoardError(f"bad board size {text!r}: both sides must be at least 1")
    if rows * cols > MAX_SQUARES:
        raise BoardError(f"the {rows}x{cols} board has {rows * cols:,} squares; reduce writes "
                         f"out at most {MAX_SQUARES:,}")
    if min(rows, cols) >= 2 and max(rows, cols) > MAX_LONG_SIDE:
        raise BoardError(f"the {rows}x{cols} board has a side of {max(rows, cols):,}; reduce "
                         f"writes out boards of two or more rows with sides of at most "
                         f"{MAX_LONG_SIDE:,} (one row: up to {MAX_SQUARES:,} squares)")
    return rows, cols


def _snapshot_svg(position: Position, moves: list, free: bool, first) -> str:
    """The whole sequence when short, else SVG_SNAPSHOTS evenly spaced positions."""
    if position.board.n > MAX_SVG_SQUARES:
        raise BoardError(f"--svg draws boards of at most {MAX_SVG_SQUARES:,} squares, not "
                         f"{position.board.n:,}")
    if len(moves) <= 3 * SVG_SNAPSHOTS:
        cuts = list(range(1, len(moves) + 1))
    else:
        step = len(moves) / SVG_SNAPSHOTS
        cuts = sorted({round(step * (i + 1)) for i in range(SVG_SNAPSHOTS)})
    positions, shown, captions = [position], [], ["start"]
    done = 0
    for cut in cuts:
        positions.append(replay(positions[-1], moves[done:cut], free=free,
                                first=None if free else (first if done % 2 == 0 else
                                                         3 - first)).final)
        shown.append(moves[cut - 1])
        captions.append(f"{cut}. {moves[cut - 1].to_str(position.board)}")
        done = cut
    return sequence_svg(positions, shown, captions=captions)


@click.command("reduce")
@click.argument("board")
@click.option("--first", type=click.Choice(["black", "white"], case_sensitive=False),
              default="black", show_default=True, help="Colour of the first move (ROWSxCOLS).")
@click.option("--graph", "graph", metavar="SPEC",
              help="BOARD is a configuration on this graph (hamming:a,b,..., hypercube:d, "
                   "complete:n): SC2 reduction of Dorbec, Duchene and Gravier.")
@click.option("--to", "to", metavar="VERTEX", help="With --graph: the vertex to end on.")
@click.option("--color", "color", type=click.Choice(["black", "white"], case_sensitive=False),
              help="With --graph: the colour of the last stone.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True),
              help="Draw the sequence (snapshots when it is long) to this SVG file.")
@click.option("--no-moves", is_flag=True, help="Leave the move list out of the output.")
def reduce_cmd(board: str, first: str, graph: str | None, to: str | None, color: str | None,
               as_json: bool, svg_file: str | None, no_moves: bool) -> None:
    """Write out a reduction and check it by replay.

    BOARD is ROWSxCOLS: the checkerboard with black where row + column is even, reduced
    with alternating moves to the optimum of Theorem 5 (one stone, or two when 3 divides
    ROWS*COLS or when black moves first on an odd board), in time linear in its size.
    At most 1,000,000 squares, and sides of at most 5,000 unless one side is 1 (the
    time grows with the long side: a 200x5000 board takes about 5 s).

    With --graph SPEC, BOARD is a configuration on a Hamming graph, hypercube or clique,
    reduced with SC2 moves to one stone on --to of colour --color (hypercubes: to at most
    two stones).

    \b
    Examples:
      clobbermania solitaire reduce 8x8 --first white
      clobbermania solitaire reduce 1000x1000 --json --no-moves
      clobbermania solitaire reduce xxoxoxxoo --graph hamming:3,3 --to 4 --color white
    """
    t0 = time.perf_counter()
    if graph is None:
        if to is not None or color is not None:
            raise click.UsageError("--to and --color need --graph")
        rows, cols = _parse_size(board)
        first_colour = color_from_name(first)
        moves = reduce_checkerboard(rows, cols, first_colour)
        position = Position.checkerboard(rows, cols)
        result = replay(position, moves, first=first_colour)
        optimum = optimum_stones(rows, cols, first_colour)
        free = False
        header = (f"Theorem 5: the {rows}x{cols} checkerboard, {COLOR_NAMES[first_colour]} "
                  f"first; the optimum is {optimum}")
        extra = {"rows": rows, "cols": cols, "first": COLOR_NAMES[first_colour],
                 "optimum": optimum}
    else:
        position = load_position(board, graph)
        target = None if to is None else position.board.parse_square(to)
        colour = None if color is None else color_from_name(color)
        moves = reduce_hamming(position, target, colour)
        result = replay(position, moves, free=True)
        free = True
        header = f"SC2 reduction on {position.board.describe()}"
        extra = {"graph": position.board.describe()}
    seconds = time.perf_counter() - t0
    write_svg(svg_file, lambda: _snapshot_svg(position, moves, free,
                                              None if free else color_from_name(first)))
    if as_json:
        out = {"stones_left": result.stones_left, "verified": result.valid,
               "moves_count": len(moves), "seconds": round(seconds, 4), **extra}
        if not no_moves:
            board_ = position.board
            out["moves"] = [m.to_str(board_) for m in moves]
        if not result.valid:
            out["error"] = result.error
        emit_json(out)
    else:
        click.echo(header)
        if position.board.n <= 400:
            click.echo(text_drawing(position))
        verdict = "verified by replay" if result.valid else f"REPLAY FAILED: {result.error}"
        click.echo(f"stones left: {result.stones_left} after {len(moves):,} moves ({verdict})")
        if not no_moves:
            board_ = position.board
            click.echo("moves: " + (" ".join(m.to_str(board_) for m in moves) or "(none)"))
        click.echo(f"seconds: {seconds:.3f}")
        if svg_file:
            click.echo(f"picture: {svg_file}")
    if not result.valid:
        raise SystemExit(1)
