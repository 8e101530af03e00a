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
from ..errors import UnsupportedError
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


def _ticks(lo: float, hi: float) -> list[Fraction]:
    """Tick positions in [lo, hi], exact: multiples of a step of 1, 2 or 5 times a power
    of ten giving about 4 to 10 ticks.

    >>> [str(t) for t in _ticks(-1.0, 2.5)], [str(t) for t in _ticks(-1.0, 1.0)]
    (['-1', '0', '1', '2'], ['-1', '-1/2', '0', '1/2', '1'])
    """
    raw = Fraction((hi - lo) / 6 if hi > lo else 1.0)
    power = Fraction(10) ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    k = math.ceil(Fraction(lo) / step)
    out = []
    while k * step <= Fraction(hi):
        out.append(k * step)
        k += 1
    return out


def _decimal(x: Fraction) -> str:
    """A number whose denominator divides a power of ten, written in decimals, exactly.

    >>> _decimal(Fraction(-3, 2)), _decimal(Fraction(10**20 + 1, 5)), _decimal(Fraction(7))
    ('-1.5', '20000000000000000000.2', '7')
    """
    if x.denominator == 1:
        return str(x.numerator)
    digits = 1
    while (x * 10 ** digits).denominator != 1:
        digits += 1
    n = abs(x.numerator * 10 ** digits // x.denominator)
    body = str(n).rjust(digits + 1, "0")
    return ("-" if x < 0 else "") + body[:-digits] + "." + body[-digits:]


#: The largest coordinate (in units of the game, after centring on the mean) drawn.
MAX_DRAWN = 10.0 ** 12


def thermograph_svg(thermograph: Thermograph, *, title: str | None = None,
                    extent: float = EXTENT) -> str:
    """A standalone SVG document of ``thermograph``.

    The plotting area is scaled so that its larger side is about ``extent`` pixels, with
    the same scale on both axes (walls of slope 1 are drawn at 45 degrees). ``title`` is
    shown above the drawing (and as the document's ``<title>``). The mean and temperature
    labelled are ``thermograph.mast`` and ``thermograph.temperature``, exact. Values are
    drawn around the mean, so a large number plus a small game draws as the small game;
    walls spanning more than :data:`MAX_DRAWN` around the mean, or a temperature above
    it, are refused (UnsupportedError): such a picture would show nothing.

    >>> from clobbermania.cgt import Game
    >>> svg = thermograph_svg(Game("+-1").thermograph(), title="+-1")
    >>> "temperature 1" in svg, svg.count('class="mast"')
    (True, 1)
    """
    left, right = thermograph.left_wall.points, thermograph.right_wall.points
    # values are drawn relative to an integer near the mean, so that a game like
    # 10^30 + {1|0} is drawn as exactly as {1|0}; the tick labels add it back
    centre = Fraction(math.floor(thermograph.mast))
    try:
        temp = float(thermograph.temperature)
        mean = float(thermograph.mast - centre)
        xs = [float(x - centre) for _, x in left + right] + [mean]
        drawable = all(abs(v) <= MAX_DRAWN for v in xs + [temp])
    except OverflowError:
        drawable = False
    if not drawable:
        raise UnsupportedError(f"the thermograph is too wide or too hot to draw: its walls "
                               f"span more than {MAX_DRAWN:.0e} around the mean, or its "
                               f"temperature is more than {MAX_DRAWN:.0e}")
    t_low = -1.0
    t_meet = max(temp, 0.0)
    x_lo, x_hi = min(xs), max(xs)
    # the temperature axis (value 0) is shown when it is near the walls
    zero = float(-centre) if abs(centre) <= MAX_DRAWN else math.inf
    if x_lo - (x_hi - x_lo) - 2 <= zero <= x_hi + (x_hi - x_lo) + 2:
        x_lo, x_hi = min(x_lo, zero), max(x_hi, zero)
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
    # axes: t = 0 (values) and x = 0 (temperature, when in the picture), with ticks
    axes = [f'<g class="axes" stroke="{AXIS}" stroke-width="1">',
            f'<line x1="{_num(px(x_hi))}" y1="{_num(py(0))}" x2="{_num(px(x_lo))}" '
            f'y2="{_num(py(0))}"/>']
    if x_lo <= zero <= x_hi:
        axes.append(f'<line x1="{_num(px(zero))}" y1="{_num(py(t_low))}" '
                    f'x2="{_num(px(zero))}" y2="{_num(py(t_high))}"/>')
    labels = []
    # ticks name values, or, around a mean too large for short labels, offsets from
    # the integer the picture is centred on (the axis label names it)
    shift = centre if abs(centre) >= 10 ** 5 else Fraction(0)
    for x in _ticks(x_lo, x_hi):
        axes.append(f'<line x1="{_num(px(float(x)))}" y1="{_num(py(0) - 3)}" '
                    f'x2="{_num(px(float(x)))}" y2="{_num(py(0) + 3)}"/>')
        tick = centre + x - shift
        labels.append(_text(px(float(x)), py(t_low) + font * 1.0,
                            ("+" if shift and tick > 0 else "") + _decimal(tick),
                            font * 0.85, "tick"))
    for t in _ticks(t_low, t_high):
        axes.append(f'<line x1="{_num(margin_l - 3)}" y1="{_num(py(float(t)))}" '
                    f'x2="{_num(margin_l + 3)}" y2="{_num(py(float(t)))}"/>')
        labels.append(_text(margin_l - font * 0.4, py(float(t)), _decimal(t), font * 0.85,
                            "tick", anchor="end"))
    axes.append("</g>")
    body += axes + labels
    what = "value"
    if shift:
        what += f" - {frac_text(shift)}" if len(frac_text(shift)) <= 24 else \
            " - the integer part of the mean"
    body.append(_text(margin_l + (x_hi - x_lo) * unit / 2, height - font * 0.9,
                      f"{what} (Left positive, on the left)", font * 0.9, "axis-label"))
    body.append(_text(margin_l - font * 0.4, margin_t - font * 0.9, "t", font, "axis-label",
                      anchor="end"))

    def polyline(points, cls: str, colour: str) -> str:
        pts = " ".join(f"{_num(px(float(x - centre)))},{_num(py(float(t)))}"
                       for t, x in points)
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


__all__ = ["thermograph_svg", "frac_text", "MAX_DRAWN"]
