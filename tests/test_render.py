"""Tests of clobbermania.render: Unicode drawings and SVG pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from clobbermania.errors import BoardError
from clobbermania.graphs import parse_graph_spec
from clobbermania.render import position_svg, sequence_svg, text_drawing
from clobbermania.stones import BLACK, WHITE, Board, Move, Position

SVG = "{http://www.w3.org/2000/svg}"


def cycle_position() -> Position:
    return Position.from_string("xoxo.x", parse_graph_spec("cycle:6"))


def positions() -> list[Position]:
    return [
        Position.from_string("xo./ox."),
        Position.checkerboard(5, 6),
        Position.from_string("x"),
        Position.from_string("..."),
        cycle_position(),
        Position.from_string("xoxo", parse_graph_spec("hypercube:2")),
        Position.from_string("x", Board.from_edges(1, [])),
    ]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    for attr in ("width", "height", "viewBox"):
        assert attr in root.attrib
    return root


def classes(el: ET.Element) -> list[str]:
    return el.get("class", "").split()


def stone_circles(root: ET.Element, color: str | None = None) -> list[ET.Element]:
    return [el for el in root.iter(SVG + "circle")
            if "stone" in classes(el) and (color is None or color in classes(el))]


def board_groups(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter(SVG + "g") if "board" in classes(el)]


# -- text drawings ------------------------------------------------------------------------

@pytest.mark.parametrize("pos", positions(), ids=lambda p: f"{p.board.describe()}:{p}")
def test_text_drawing_counts_stones(pos: Position) -> None:
    drawing = text_drawing(pos)
    assert drawing.count("\u25cf") == pos.stone_count(BLACK)
    assert drawing.count("\u25cb") == pos.stone_count(WHITE)
    lines = drawing.split("\n")
    if pos.board.is_grid:
        assert len(lines) == pos.board.rows + 1
    else:
        assert len(lines) == pos.board.n


def test_text_drawing_grid_exact() -> None:
    assert text_drawing(Position.from_string("xo./ox.")) == "  a b c\n1 \u25cf \u25cb \u00b7\n" \
        "2 \u25cb \u25cf \u00b7"


def test_text_drawing_highlight_keeps_columns_aligned() -> None:
    p = Position.from_string("xo./ox.")
    plain = text_drawing(p).split("\n")
    marked = text_drawing(p, highlight=Move(0, 1)).split("\n")
    assert marked[1] == "1 \u25cf[\u25cb]\u00b7"
    assert marked[2] == plain[2]
    glyph_columns = [i for i, ch in enumerate(plain[1]) if ch in "\u25cf\u25cb\u00b7"]
    assert [i for i, ch in enumerate(marked[1]) if ch in "\u25cf\u25cb\u00b7"] == glyph_columns
    header = plain[0]
    assert [header.index(c) for c in "abc"] == glyph_columns


def test_text_drawing_wide_grid_has_spreadsheet_columns() -> None:
    p = Position.checkerboard(12, 28)
    lines = text_drawing(p).split("\n")
    assert lines[0].split()[-2:] == ["aa", "ab"]
    assert lines[-1].startswith("12 ")
    assert lines[1].startswith(" 1 ")
    # every row's glyphs sit under the column names
    starts = [i for i, ch in enumerate(lines[0]) if ch != " " and lines[0][i - 1] == " "]
    for line in lines[1:]:
        assert [i for i, ch in enumerate(line) if ch in "\u25cf\u25cb\u00b7"] == starts


def test_text_drawing_graph_lists_neighbours() -> None:
    lines = text_drawing(cycle_position(), highlight=Move(0, 1)).split("\n")
    assert lines[0].startswith("0:") and lines[0].endswith("1, 5")
    assert lines[4].startswith("4:") and "\u00b7" in lines[4]
    assert "[\u25cb]" in lines[1]
    assert "[" not in "".join(lines[:1] + lines[2:])


def test_text_drawing_graph_uses_labels() -> None:
    b = Board.from_edges(3, [(0, 1), (1, 2)], labels=[10, 20, 30])
    lines = text_drawing(Position.from_string("xo.", b)).split("\n")
    assert [ln.split(":")[0].strip() for ln in lines] == ["10", "20", "30"]
    assert lines[1].endswith("10, 30")


def test_highlight_off_board_is_an_error() -> None:
    p = Position.from_string("xo")
    with pytest.raises(BoardError):
        text_drawing(p, highlight=Move(0, 5))
    with pytest.raises(BoardError):
        position_svg(p, highlight=Move(7, 0))


# -- SVG ------------------------------------------------------------------------------

@pytest.mark.parametrize("pos", positions(), ids=lambda p: f"{p.board.describe()}:{p}")
def test_position_svg_counts_stones(pos: Position) -> None:
    root = parse(position_svg(pos))
    assert len(stone_circles(root, "black")) == pos.stone_count(BLACK)
    assert len(stone_circles(root, "white")) == pos.stone_count(WHITE)
    assert len(stone_circles(root)) == pos.stone_count()
    assert len(board_groups(root)) == 1


def test_position_svg_grid_squares_and_labels() -> None:
    p = Position.checkerboard(5, 6)
    root = parse(position_svg(p, size=30))
    dark = [el for el in root.iter(SVG + "g") if "dark-squares" in classes(el)]
    assert len(dark) == 1
    assert len(list(dark[0])) == sum(1 for c in p.board.square_colors if c == BLACK)
    coords = [el.text for el in root.iter(SVG + "text") if "coord" in classes(el)]
    assert coords == ["a", "b", "c", "d", "e", "f", "1", "2", "3", "4", "5"]
    # a black stone sits on a1, the top-left square
    first = stone_circles(root)[0]
    xs = sorted(float(el.get("cx")) for el in stone_circles(root))
    assert "black" in classes(first) and float(first.get("cx")) == xs[0]


def test_position_svg_graph_labels_and_empty_vertices() -> None:
    p = cycle_position()
    root = parse(position_svg(p))
    labels = [el.text for el in root.iter(SVG + "text") if "label" in classes(el)]
    assert labels == [p.board.square_name(v) for v in range(6)]
    empties = [el for el in root.iter(SVG + "circle") if "empty" in classes(el)]
    assert len(empties) == 1
    assert len(root.findall(f".//{SVG}path")) == 1


def test_position_svg_highlight_and_title_escaped() -> None:
    p = Position.from_string("xo")
    after = p.play(Move(0, 1))
    assert 'class="highlight"' not in position_svg(after)
    svg = position_svg(after, highlight=Move(0, 1), title="<b> & \"c\"")
    root = parse(svg)
    assert [el for el in root.iter(SVG + "g") if "highlight" in classes(el)]
    assert root.find(f"{SVG}title").text == "<b> & \"c\""
    g = parse(position_svg(cycle_position(), highlight=Move(5, 0)))
    assert [el for el in g.iter(SVG + "g") if "highlight" in classes(el)]


def test_big_board_drops_labels_and_shrinks() -> None:
    p = Position.checkerboard(60, 60)
    root = parse(position_svg(p))
    assert not [el for el in root.iter(SVG + "text")]
    assert float(root.get("width")) <= 2100
    assert len(stone_circles(root)) == 3600
    g = Position(parse_graph_spec("cycle:3000"), bytes([BLACK, WHITE, 0] * 1000))
    groot = parse(position_svg(g))
    assert not [el for el in groot.iter(SVG + "text")]
    assert len(stone_circles(groot, "white")) == 1000
    assert float(groot.get("width")) <= 2100


def test_repr_svg_is_position_svg() -> None:
    for pos in positions():
        assert pos._repr_svg_() == position_svg(pos)


# -- sequences -------------------------------------------------------------------------

def game(start: Position, plies: int) -> tuple[list[Position], list[Move]]:
    ps, ms = [start], []
    for _ in range(plies):
        moves = ps[-1].moves()
        if not moves:
            break
        ms.append(moves[-1])
        ps.append(ps[-1].play(moves[-1]))
    return ps, ms


@pytest.mark.parametrize("start,plies", [
    (Position.checkerboard(3, 4), 7),
    (Position.from_string("xo"), 1),
    (Position.from_string("xo"), 0),
    (cycle_position(), 3),
])
def test_sequence_svg_board_groups(start: Position, plies: int) -> None:
    ps, ms = game(start, plies)
    root = parse(sequence_svg(ps, ms, columns=3))
    boards = board_groups(root)
    assert len(boards) == len(ps)
    for board, pos in zip(boards, ps, strict=True):
        assert len(stone_circles(board)) == pos.stone_count()
    highlights = [el for el in root.iter(SVG + "g") if "highlight" in classes(el)]
    assert len(highlights) == len(ms)
    captions = [el.text for el in root.iter(SVG + "text") if "caption" in classes(el)]
    expected = ["start"] + [f"{i}. {m.to_str(start.board)}" for i, m in enumerate(ms, 1)]
    assert captions == expected


def test_sequence_svg_layout_and_captions() -> None:
    ps, ms = game(Position.checkerboard(3, 4), 6)
    assert len(ps) == 7
    root = parse(sequence_svg(ps, ms, columns=3, captions=[f"<{i}>" for i in range(7)]))
    frames = [el for el in root.iter(SVG + "g") if "frame" in classes(el)]
    offsets = {el.get("transform") for el in frames}
    assert len(offsets) == 7  # every board at its own place
    ys = sorted({el.get("transform").split(",")[1] for el in frames})
    assert len(ys) == 3  # 7 boards in rows of 3
    captions = [el.text for el in root.iter(SVG + "text") if "caption" in classes(el)]
    assert captions == [f"<{i}>" for i in range(7)]


def test_sequence_svg_rejects_bad_lengths() -> None:
    ps, ms = game(Position.from_string("xox"), 1)
    with pytest.raises(ValueError):
        sequence_svg(ps, [])
    with pytest.raises(ValueError):
        sequence_svg([], [])
    with pytest.raises(ValueError):
        sequence_svg(ps, ms, captions=["only one"])
    with pytest.raises(ValueError):
        sequence_svg(ps, ms, columns=0)
