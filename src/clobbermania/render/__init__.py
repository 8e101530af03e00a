"""Pictures: Unicode text drawings and SVG."""
from .svg import position_svg, sequence_svg
from .text import text_drawing

__all__ = ["text_drawing", "position_svg", "sequence_svg"]
