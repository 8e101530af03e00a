"""Thermographs, mean and temperature of short games (exact, with Fractions).

The thermograph of G is a pair of walls, piecewise-linear functions of the temperature
t >= -1 (Berlekamp, Conway, Guy, *Winning Ways* ch. 6; Siegel, *Combinatorial Game
Theory* II.5), computed by the standard recursion on the canonical form:

* an integer n: both walls are the vertical mast x = n;
* otherwise the left scaffold is ``max over G^L of RW(G^L)(t) - t`` and the right scaffold
  ``min over G^R of LW(G^R)(t) + t``; the temperature T is the least t >= -1 where the left
  scaffold is no longer to the right of the right one, the mean is their common value
  there, and above T both walls are the mast at the mean.

This is the definition by cooling: G cooled by t is {G^L_t - t | G^R_t + t} until it is
infinitesimally close to a number, and the walls are the stops of the cooled game. Mean
and temperature therefore are exact for every game, not only for stops-based special
cases. As in CGSuite, a number m/2^j (j >= 0) has temperature -1/2^j, and a number plus a
nonzero infinitesimal has temperature 0.

>>> from clobbermania.cgt import Game
>>> g = Game("{4|{2|0}}")
>>> g.mean, g.temperature
(Fraction(5, 2), Fraction(3, 2))
>>> Game("+-1").thermograph().left_wall.points
((Fraction(-1, 1), Fraction(2, 1)), (Fraction(1, 1), Fraction(0, 1)))
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction

from . import game as _g

_MINUS_ONE = Fraction(-1)


@dataclass(frozen=True)
class Trajectory:
    """x as a function of t on [-1, inf): linear between ``points`` (t increasing, the
    first at t = -1), then slope ``tail`` beyond the last point (0 for a mast)."""

    points: tuple[tuple[Fraction, Fraction], ...]
    tail: Fraction = Fraction(0)

    def __call__(self, t: Fraction) -> Fraction:
        pts = self.points
        i = bisect_right([p[0] for p in pts], t) - 1
        if i < 0:
            i = 0
        t0, x0 = pts[i]
        if i + 1 < len(pts):
            t1, x1 = pts[i + 1]
            return x0 + (x1 - x0) * (t - t0) / (t1 - t0)
        return x0 + self.tail * (t - t0)

    def tilt(self, s: Fraction) -> Trajectory:
        """x(t) + s.t."""
        return Trajectory(tuple((t, x + s * t) for t, x in self.points), self.tail + s)

    def negate(self) -> Trajectory:
        return Trajectory(tuple((t, -x) for t, x in self.points), -self.tail)

    def _binary(self, other: Trajectory, pick_max: bool) -> Trajectory:
        f, g = self, other
        ts = sorted({t for t, _ in f.points} | {t for t, _ in g.points})
        better = max if pick_max else min
        out: list[tuple[Fraction, Fraction]] = []
        for a, b in zip(ts, ts[1:], strict=False):
            fa, ga, fb, gb = f(a), g(a), f(b), g(b)
            out.append((a, better(fa, ga)))
            da, db = fa - ga, fb - gb
            if da * db < 0:                     # they cross strictly inside (a, b)
                tc = a + (b - a) * da / (da - db)
                out.append((tc, f(tc)))
        last = ts[-1]
        fl, gl = f(last), g(last)
        out.append((last, better(fl, gl)))
        d, sf, sg = fl - gl, f.tail, g.tail
        sign = 1 if pick_max else -1
        if d * sign > 0:
            tail = sf
            if (sf - sg) * sign < 0:
                tc = last + d / (sg - sf)
                out.append((tc, f(tc)))
                tail = sg
        elif d * sign < 0:
            tail = sg
            if (sg - sf) * sign < 0:
                tc = last + d / (sg - sf)
                out.append((tc, g(tc)))
                tail = sf
        else:
            tail = better(sf, sg)
        return Trajectory(_simplify(out), tail)

    def max(self, other: Trajectory) -> Trajectory:
        return self._binary(other, True)

    def min(self, other: Trajectory) -> Trajectory:
        return self._binary(other, False)


def _simplify(pts: list[tuple[Fraction, Fraction]]) -> tuple[tuple[Fraction, Fraction], ...]:
    out: list[tuple[Fraction, Fraction]] = []
    for p in pts:
        if out and out[-1][0] == p[0]:
            continue
        if len(out) >= 2:
            (t0, x0), (t1, x1) = out[-2], out[-1]
            if (x1 - x0) * (p[0] - t1) == (p[1] - x1) * (t1 - t0):
                out[-1] = p                    # collinear: drop the middle point
                continue
        out.append(p)
    return tuple(out)


def _mast(x: Fraction) -> Trajectory:
    return Trajectory(((_MINUS_ONE, x),), Fraction(0))


@dataclass(frozen=True)
class Thermograph:
    """Left and right walls, the temperature and the mast value (the mean)."""

    left_wall: Trajectory
    right_wall: Trajectory
    temperature: Fraction
    mast: Fraction


_cache: dict[int, Thermograph] = {}


def _truncate(tr: Trajectory, T: Fraction, x: Fraction) -> Trajectory:
    pts = [p for p in tr.points if p[0] < T] + [(T, x)]
    return Trajectory(_simplify(pts), Fraction(0))


def _thermograph_id(g: int) -> Thermograph:
    th = _cache.get(g)
    if th is not None:
        return th
    t = _g._nus[g]
    if t is not None and t[1] == 0 and t[2] == 0 and t[0].denominator == 1:
        th = Thermograph(_mast(t[0]), _mast(t[0]), _MINUS_ONE, t[0])
        _cache[g] = th
        return th
    if t is not None and _g._left[g] is None:
        x, u, n = t
        if u or n:
            # x + u.^ + *n has the thermograph of x + ^ (u >= 1 but ^*), x + v (u <= -1
            # but v*) or x + * (the others): the walls only see whether Left and Right
            # can move to x at once (checked on a grid of x, u, n in the tests)
            rep = (x, 1, 0) if u > 0 and (u, n) != (1, 1) else \
                (x, -1, 0) if u < 0 and (u, n) != (-1, 1) else (x, 0, 1)
            if rep != t:
                th = _thermograph_id(_g._nus_id(*rep))
                _cache[g] = th
                return th
        elif x.denominator.bit_length() > _g.MAX_DEPTH:
            raise _g._too_deep()
    _g._tick()
    L, R = _g._opts(g)
    ls = None
    for x in L:
        w = _thermograph_id(x).right_wall
        ls = w if ls is None else ls.max(w)
    rs = None
    for x in R:
        w = _thermograph_id(x).left_wall
        rs = w if rs is None else rs.min(w)
    # canonical games other than integers have options on both sides
    ls = ls.tilt(_MINUS_ONE)
    rs = rs.tilt(Fraction(1))
    d = _difference(ls, rs)
    T = _first_nonpositive(d)
    x = ls(T)
    th = Thermograph(_truncate(ls, T, x), _truncate(rs, T, x), T, x)
    _cache[g] = th
    return th


def _difference(f: Trajectory, g: Trajectory) -> Trajectory:
    ts = sorted({t for t, _ in f.points} | {t for t, _ in g.points})
    return Trajectory(tuple((t, f(t) - g(t)) for t in ts), f.tail - g.tail)


def _first_nonpositive(d: Trajectory) -> Fraction:
    """The least t >= -1 with d(t) <= 0 (d continuous, piecewise linear)."""
    pts = d.points
    if pts[0][1] <= 0:
        return pts[0][0]
    for (t0, x0), (t1, x1) in zip(pts, pts[1:], strict=False):
        if x1 <= 0:
            return t0 + (t1 - t0) * x0 / (x0 - x1)
    t0, x0 = pts[-1]
    if d.tail >= 0:
        raise ArithmeticError("the scaffolds never meet (not a short game?)")
    return t0 + x0 / -d.tail


def thermograph(game: _g.Game) -> Thermograph:
    """The thermograph of ``game`` (walls for t >= -1).

    >>> th = thermograph(_g.Game("{3|{1|0}}"))
    >>> th.temperature, th.mast
    (Fraction(5, 4), Fraction(7, 4))
    """
    return _thermograph_id(game._id)


def temperature(game: _g.Game) -> Fraction:
    """The temperature: -1/2^j for a number m/2^j, 0 for a number plus a nonzero
    infinitesimal, otherwise where the thermograph's mast begins.

    >>> [str(temperature(_g.Game(s))) for s in ("0", "3/4", "^*", "+-2", "{2|0||-1}")]
    ['-1', '-1/4', '0', '2', '1']
    """
    t = _g._nus[game._id]
    if t is not None:
        if t[1] == 0 and t[2] == 0:
            return Fraction(-1, t[0].denominator)
        return Fraction(0)
    return _thermograph_id(game._id).temperature


def mean(game: _g.Game) -> Fraction:
    """The mean value (additive: mean(G + H) = mean(G) + mean(H)).

    >>> mean(_g.Game("{2|0||-1}")), mean(_g.Game("1^*"))
    (Fraction(0, 1), Fraction(1, 1))
    """
    t = _g._nus[game._id]
    if t is not None:
        return t[0]
    return _thermograph_id(game._id).mast


__all__ = ["Trajectory", "Thermograph", "thermograph", "temperature", "mean"]
