"""Pictures of thermographs (standard library only).

A thermograph (Berlekamp, Conway, Guy, *Winning Ways* ch. 6; Siegel, *Combinatorial Game
Theory* II.5) is drawn as Winning Ways and CGSuite draw it: the temperature ``t`` grows
upwards, and values grow to the *left* (Left's positive values on Left's side), so Left's
wall is the left-hand line and Right's wall the right-hand one. Both walls run from
``t = -1`` up to the temperature, where they meet; above it the vertical mast, at the
mean, runs up to the top of the picture (an arrow: it goes on for ever). The value axis
is the horizontal line ``t = 0``, the temperature axis the vertical line ``x = 0``; the
point where the walls meet is marked and labelled with the mean and the temperature.

Elements: ``<polyline class="wall left">``, ``<polyline class="wall right">``,
``<line class="mast">``, ``<circle class="meet">``, axes in ``<g class="axes">``.

>>> from clobbermania.cgt import Game
>>> svg = thermograph_svg(Game("{2|-1}").thermograph())
>>> svg.startswith("<svg"), svg.count('class="wall left"'), "mean 1/2" in svg
(True, 1, True)
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..cgt.thermograph import Thermograph
from .svg import TEXT, _document, _num, _text

LEFT_WALL = "#1f5fbf"
RIGHT_WALL = "#c0392b"
MAST = "#333333"
AXIS = "#999999"
#: The rough pixel extent of the larger side of the plotting area.
EXTENT = 420.0


def frac_text(x: Fraction) -> str:
    """An exact number as text: ``3``, ``-1/2``.

    >>> frac_text(Fraction(3, 2)), frac_text(Fraction(-4))
    ('3/2', '-4')
    """
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _step(span: float) -> float:
    """A tick step of 1, 2 or 5 times a power of ten giving about 4 to 10 ticks."""
    raw = span / 6 if span > 0 else 1.0
    p = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * p >= raw:
            return m * p
    return 10 * p  # pragma: no cover - the loop ends at 10 * p >= raw


def _ticks(lo: float, hi: float) -> list[float]:
    step = _step(hi - lo)
    k = math.ceil(lo / step - 1e-9)
    out = []
    while k * step <= hi + 1e-9:
        out.append(k * step)
        k += 1
    return out


def _tick_text(x: float) -> str:
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:g}"


def thermograph_svg(thermograph: Thermograph, *, title: str | None = None,
                    extent: float = EXTENT) -> str:
    """A standalone SVG document of ``thermograph``.

    The plotting area is scaled so that its larger side is about ``extent`` pixels, with
    the same scale on both axes (walls of slope 1 are drawn at 45 degrees). ``title`` is
    shown above the drawing (and as the document's ``<title>``). The mean and temperature
    labelled are ``thermograph.mast`` and ``thermograph.temperature``, exact.

    >>> from clobbermania.cgt import Game
    >>> svg = thermograph_svg(Game("+-1").thermograph(), title="+-1")
    >>> "temperature 1" in svg, svg.count('class="mast"')
    (True, 1)
    """
    left, right = thermograph.left_wall.points, thermograph.right_wall.points
    temp, mean = float(thermograph.temperature), float(thermograph.mast)
    xs = [float(x) for _, x in left + right] + [0.0, mean]
    t_low = -1.0
    t_meet = max(temp, 0.0)
    x_lo, x_hi = min(xs), max(xs)
    # room above the meeting point for the mast, and some width around narrow walls
    t_high = t_meet + max(1.0, 0.25 * (t_meet - t_low))
    if x_hi - x_lo < 2.0:
        mid = (x_hi + x_lo) / 2
        x_lo, x_hi = mid - 1.0, mid + 1.0
    pad_x = 0.08 * (x_hi - x_lo)
    x_lo, x_hi = x_lo - pad_x, x_hi + pad_x
    unit = extent / max(x_hi - x_lo, t_high - t_low)
    font = 13.0
    margin_l, margin_r = font * 3.5, font * 3.5
    margin_t = font * 2.2 + (font * 1.8 if title else 0.0)
    margin_b = font * 3.0
    width = margin_l + (x_hi - x_lo) * unit + margin_r
    height = margin_t + (t_high - t_low) * unit + margin_b

    def px(x: float) -> float:  # values grow to the left
        return margin_l + (x_hi - x) * unit

    def py(t: float) -> float:  # temperature grows upwards
        return margin_t + (t_high - t) * unit

    body: list[str] = []
    if title:
        body.append(_text(width / 2, font * 1.1, title, font * 1.2, "title"))
    # axes: t = 0 (values) and x = 0 (temperature), with ticks
    axes = [f'<g class="axes" stroke="{AXIS}" stroke-width="1">',
            f'<line x1="{_num(px(x_hi))}" y1="{_num(py(0))}" x2="{_num(px(x_lo))}" '
            f'y2="{_num(py(0))}"/>',
            f'<line x1="{_num(px(0))}" y1="{_num(py(t_low))}" x2="{_num(px(0))}" '
            f'y2="{_num(py(t_high))}"/>']
    labels = []
    for x in _ticks(x_lo, x_hi):
        axes.append(f'<line x1="{_num(px(x))}" y1="{_num(py(0) - 3)}" x2="{_num(px(x))}" '
                    f'y2="{_num(py(0) + 3)}"/>')
        labels.append(_text(px(x), py(t_low) + font * 1.0, _tick_text(x), font * 0.85,
                            "tick"))
    for t in _ticks(t_low, t_high):
        axes.append(f'<line x1="{_num(px(0) - 3)}" y1="{_num(py(t))}" x2="{_num(px(0) + 3)}" '
                    f'y2="{_num(py(t))}"/>')
        labels.append(_text(margin_l - font * 0.4, py(t), _tick_text(t), font * 0.85, "tick",
                            anchor="end"))
    axes.append("</g>")
    body += axes + labels
    body.append(_text(margin_l + (x_hi - x_lo) * unit / 2, height - font * 0.9,
                      "value (Left positive, on the left)", font * 0.9, "axis-label"))
    body.append(_text(margin_l - font * 0.4, margin_t - font * 0.9, "t", font, "axis-label",
                      anchor="end"))

    def polyline(points, cls: str, colour: str) -> str:
        pts = " ".join(f"{_num(px(float(x)))},{_num(py(float(t)))}" for t, x in points)
        return (f'<polyline class="{cls}" points="{pts}" fill="none" stroke="{colour}" '
                f'stroke-width="2.5" stroke-linejoin="round"/>')

    body.append(polyline(left, "wall left", LEFT_WALL))
    body.append(polyline(right, "wall right", RIGHT_WALL))
    # the mast: from where the walls meet, up for ever (an arrow head at the top)
    mx, top = px(mean), py(t_high)
    body.append(f'<line class="mast" x1="{_num(mx)}" y1="{_num(py(temp))}" x2="{_num(mx)}" '
                f'y2="{_num(top + 6)}" stroke="{MAST}" stroke-width="2.5"/>')
    body.append(f'<polygon class="mast-head" points="{_num(mx)},{_num(top)} '
                f'{_num(mx - 5)},{_num(top + 9)} {_num(mx + 5)},{_num(top + 9)}" '
                f'fill="{MAST}"/>')
    body.append(f'<circle class="meet" cx="{_num(mx)}" cy="{_num(py(temp))}" r="4" '
                f'fill="{MAST}"/>')
    mean_s, temp_s = frac_text(thermograph.mast), frac_text(thermograph.temperature)
    # the labels: above the meeting point (only the mast is there), on the wider side
    anchor, dx = ("start", 8.0) if mx < margin_l + (x_hi - x_lo) * unit / 2 else ("end", -8.0)
    body.append(_text(mx + dx, py(temp) - font * 2.1, f"mean {mean_s}", font, "mean",
                      anchor=anchor))
    body.append(_text(mx + dx, py(temp) - font * 0.8, f"temperature {temp_s}", font,
                      "temperature", anchor=anchor))
    body.append(_text(margin_l + font * 0.2, margin_t - font * 0.9, "Left", font * 0.9,
                      "side", anchor="start").replace(f'fill="{TEXT}"', f'fill="{LEFT_WALL}"'))
    body.append(_text(width - margin_r - font * 0.2, margin_t - font * 0.9, "Right",
                      font * 0.9, "side", anchor="end"
                      ).replace(f'fill="{TEXT}"', f'fill="{RIGHT_WALL}"'))
    return _document(width, height, body, title)


__all__ = ["thermograph_svg", "frac_text"]
