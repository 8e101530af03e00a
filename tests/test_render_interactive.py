"""Interactive drawings (hit elements for the web pages) and thermograph pictures."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from clobbermania.cgt import Game
from clobbermania.clickomania.rules import Board as ClickBoard
from clobbermania.errors import UnsupportedError
from clobbermania.graphs import parse_graph_spec
from clobbermania.render import clickomania_svg, position_svg, thermograph_svg
from clobbermania.stones import Position

SVG = "{http://www.w3.org/2000/svg}"


def _hits(svg: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == "hit"]


@pytest.mark.parametrize("text", ["xo./ox.", "x", "xoxoxoxoxoxo/" * 11 + "oxoxoxoxoxox"])
def test_grid_hits_cover_every_square_once(text: str) -> None:
    pos = Position.from_string(text)
    svg = position_svg(pos, size=48, highlight=pos.moves()[0] if pos.moves() else None,
                       interactive=True)
    hits = _hits(svg)
    names = [pos.board.square_name(v) for v in range(pos.board.n)]
    assert [h.get("data-square") for h in hits] == names
    # each hit is the square's cell: 48 px wide, and the cells tile the board
    cells = {(float(h.get("x")), float(h.get("y"))) for h in hits}
    assert len(cells) == pos.board.n
    assert all(h.get("width") == h.get("height") == "48" for h in hits)
    assert all(h.get("fill-opacity") == "0" and h.get("tabindex") == "0" for h in hits)
    # on top: after every stone and the highlight
    order = [e.get("class") for e in ET.fromstring(svg).iter() if e.get("class")]
    last_drawn = max(i for i, c in enumerate(order) if c.startswith(("stone", "highlight")))
    assert min(i for i, c in enumerate(order) if c == "hit") > last_drawn


def test_hit_square_is_under_its_stone() -> None:
    pos = Position.from_string("x.o/.x.")
    root = ET.fromstring(position_svg(pos, interactive=True))
    stones = [(float(e.get("cx")), float(e.get("cy"))) for e in root.iter(f"{SVG}circle")
              if "stone" in (e.get("class") or "")]
    by_name = {h.get("data-square"): h for h in _hits(position_svg(pos, interactive=True))}
    for v in pos.stones():
        h = by_name[pos.board.square_name(v)]
        x, y, w = float(h.get("x")), float(h.get("y")), float(h.get("width"))
        assert sum(x < cx < x + w and y < cy < y + w for cx, cy in stones) == 1


def test_graph_hits_are_vertex_labels() -> None:
    board = parse_graph_spec("hypercube:3")
    pos = Position.from_string("xoxoxoxo", board)
    hits = _hits(position_svg(pos, interactive=True))
    assert [h.get("data-square") for h in hits] == [str(v) for v in range(8)]
    assert all(h.tag == f"{SVG}circle" for h in hits)


def test_no_hits_unless_interactive() -> None:
    assert 'class="hit"' not in position_svg(Position.from_string("xo"))
    assert "data-square" not in clickomania_svg(ClickBoard.from_string("12/12"))


def test_clickomania_blocks_carry_their_squares() -> None:
    board = ClickBoard.from_string("1.../12../1223")
    root = ET.fromstring(clickomania_svg(board, size=48, interactive=True))
    blocks = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "block"]
    assert len(blocks) == board.n_blocks
    marked = {e.get("data-square"): int(e.get("data-color")) for e in blocks}
    expected = {board.square_name((r, c)): board.cell((r, c))
                for r in range(board.height) for c in range(board.width)
                if board.cell((r, c)) >= 0}
    assert marked == expected


# --- thermographs ---------------------------------------------------------------------------

def _polyline(root: ET.Element, cls: str) -> list[tuple[float, float]]:
    (line,) = [e for e in root.iter(f"{SVG}polyline") if e.get("class") == cls]
    return [tuple(map(float, p.split(","))) for p in line.get("points").split()]


@pytest.mark.parametrize("expr", ["{2|-1}", "+-1", "^", "{4|{2|0}}", "{3|{1|0}}", "1/2"])
def test_thermograph_drawing_matches_the_walls(expr: str) -> None:
    th = Game(expr).thermograph()
    root = ET.fromstring(thermograph_svg(th, title=expr))
    left, right = _polyline(root, "wall left"), _polyline(root, "wall right")
    assert len(left) == len(th.left_wall.points) and len(right) == len(th.right_wall.points)
    # one affine map sends (value, temperature) to the picture: values grow to the left,
    # temperatures upwards, one scale for both axes
    pts = list(th.left_wall.points) + list(th.right_wall.points)
    drawn = left + right
    (t0, x0), (px0, py0) = pts[0], drawn[0]
    scale = None
    for (t, x), (px, py) in zip(pts, drawn, strict=True):
        if (t, x) == (t0, x0):
            continue
        if x != x0:
            s = (px0 - px) / float(x - x0)
            scale = s if scale is None else scale
            assert s == pytest.approx(scale, abs=0.05)
        if t != t0:
            s = (py0 - py) / float(t - t0)
            scale = s if scale is None else scale
            assert s == pytest.approx(scale, abs=0.05)
    assert scale is not None and scale > 0
    # Left's wall is never to the right of Right's, and they end at the same point
    assert left[0][0] <= right[0][0] and left[-1] == right[-1]
    (mast,) = [e for e in root.iter(f"{SVG}line") if e.get("class") == "mast"]
    assert float(mast.get("x1")) == pytest.approx(left[-1][0], abs=0.01)
    text = " ".join(e.text or "" for e in root.iter(f"{SVG}text"))
    mean = th.mast
    m = re.search(r"mean (\S+)", text)
    assert m and Fraction(m.group(1)) == mean
    assert f"temperature {th.temperature}" in text


def test_thermograph_of_an_integer_is_a_mast() -> None:
    th = Game("3").thermograph()
    root = ET.fromstring(thermograph_svg(th))
    assert _polyline(root, "wall left") == _polyline(root, "wall right")
    text = " ".join(e.text or "" for e in root.iter(f"{SVG}text"))
    assert "mean 3" in text and "temperature -1" in text


def test_a_number_added_translates_the_drawing() -> None:
    # adding an integer moves the thermograph sideways (Winning Ways: the walls of G + n
    # are those of G moved by n); the picture is centred near the mean, so it is the same
    # (for a G whose walls already reach the temperature axis, which the picture keeps)
    small = ET.fromstring(thermograph_svg(Game("{2|-1}").thermograph()))
    big = ET.fromstring(thermograph_svg(Game("1" + "0" * 20 + "+{2|-1}").thermograph()))
    for cls in ("wall left", "wall right"):
        assert _polyline(small, cls) == _polyline(big, cls)
    text = " ".join(e.text or "" for e in big.iter(f"{SVG}text"))
    assert "value - 100000000000000000000 " in text and "+1" in text.split()


def test_too_large_thermographs_are_refused() -> None:
    with pytest.raises(UnsupportedError, match="too wide or too hot to draw"):
        thermograph_svg(Game("+-" + "1" + "0" * 400).thermograph())
