"""Pictures: Unicode text drawings and SVG."""
from .clickomania import clickomania_sequence_svg, clickomania_svg, clickomania_text
from .svg import position_svg, sequence_svg
from .text import text_drawing
from .thermograph import thermograph_svg

__all__ = ["text_drawing", "position_svg", "sequence_svg", "clickomania_svg",
           "clickomania_sequence_svg", "clickomania_text", "thermograph_svg"]
