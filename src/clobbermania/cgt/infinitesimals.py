"""Infinitesimal structure: all-small games, atomic weight, reduced canonical form.

**Atomic weight** (Berlekamp, Conway, Guy, *Winning Ways* ch. 8, "atomic weight
calculus"; Albert, Nowakowski, Wolfe, *Lessons in Play* ch. 9). For an all-small G the
atomic weight AW(G) is the game W with G ~ W.^ (G and W.^ have the same outcome in every
context X + *m, m large). It is computed without Norton multiplication by the recursion

    G'' = {AW(G^L) - 2 | AW(G^R) + 2}

which is AW(G) unless G'' is an integer. In that eccentric case compare G with the far star
☆ = *m (m beyond every nimber in G; we take m = birthday(G) + 1):

* G < ☆: AW(G) is the least integer n with n |> AW(G^L) - 2 for every G^L (0 if Left has
  no option);
* G > ☆: AW(G) is the greatest integer n with n <| AW(G^R) + 2 for every G^R (0 if Right
  has no option);
* otherwise (G confused with ☆) AW(G) = G''.

On x + u.^ + *n with x = 0 it gives u; CGSuite computes the same rule. Checked values:
AW(^) = 1, AW(*) = 0, AW(^*) = 1, AW({0|^}) = AW(^^*) = 2, AW(v3) = -3,
AW({0,*|0,v*}) = -1; the tests check every integer atomic weight against the definition
(the outcome of G + X + *m equals that of AW(G).^ + X + *m for m = 64 and every X of a
pool of small all-small games, and AW(G) +- 1 fail it), additivity AW(G + H) = AW(G) +
AW(H) and the two-ahead rule (AW(G) >= 2 implies G > 0) on random all-small games.

**Reduced canonical form** (Calistrat; Grossman and Siegel, *Reductions of partizan
games*, 2009): the simplest game rcf(G) with G - rcf(G) infinitesimal. Computed as CGSuite
does: a number-up-star x + u.^ + *n reduces to x; any other G reduces to the star
projection of G heated by * (heat: {heat(G^L) + * | heat(G^R) + *}, numbers unchanged;
star projection: x* becomes x, numbers stay, others project their options). The tests
check that G - rcf(G) is infinitesimal, that rcf is idempotent and that games differing
by an infinitesimal get the same rcf.

>>> from clobbermania.cgt import Game
>>> [str(Game(s).atomic_weight()) for s in ("^", "*", "^*", "{0|^}", "{0,*|0,v*}")]
['1', '0', '1', '2', '-1']
>>> print(Game("{1|*}").reduced(), Game("^^*").reduced(), Game("{2|^}").reduced())
1/2+-1/2 0 1+-1
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import UnsupportedError
from . import game as _g

_all_small: dict[int, bool] = {}
_aw: dict[int, int] = {}
_heat: dict[int, int] = {}
_proj: dict[int, int] = {}


def _is_all_small(g: int) -> bool:
    r = _all_small.get(g)
    if r is None:
        t = _g._nus[g]
        if t is not None:
            r = t[0] == 0
        else:
            r = all(_is_all_small(x) for x in _g._left[g] + _g._right[g])
        _all_small[g] = r
    return r


def is_all_small(game: _g.Game) -> bool:
    """Whether every follower of ``game`` in which one player can move lets both move.

    >>> is_all_small(_g.Game("{0,*|0,v*}")), is_all_small(_g.Game("{1|*}"))
    (True, False)
    """
    return _is_all_small(game._id)


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _atomic_weight(g: int) -> int:
    r = _aw.get(g)
    if r is not None:
        return r
    t = _g._nus[g]
    if t is not None:
        r = _g._nus_id(Fraction(t[1]))
        _aw[g] = r
        return r
    _g._tick()
    two, mtwo = _g._nus_id(Fraction(2)), _g._nus_id(Fraction(-2))
    L = [_g._add(_atomic_weight(x), mtwo) for x in _g._left[g]]
    R = [_g._add(_atomic_weight(x), two) for x in _g._right[g]]
    r = _g._canon(L, R)
    tr = _g._nus[r]
    if tr is not None and tr[1] == 0 and tr[2] == 0 and tr[0].denominator == 1:
        far = _g._nus_id(Fraction(0), 0, _g._birthday_of(g) + 1)
        le, ge = _g._le(g, far), _g._le(far, g)
        if le and not ge:                   # G < far star
            n = None
            for x in L:
                k = _ceil(_g._stops_of(x)[1])
                if _g._le(_g._nus_id(Fraction(k)), x):
                    k += 1
                n = k if n is None else max(n, k)
            r = _g._nus_id(Fraction(n if n is not None else 0))
        elif ge and not le:                 # G > far star
            n = None
            for y in R:
                k = _floor(_g._stops_of(y)[0])
                if _g._le(y, _g._nus_id(Fraction(k))):
                    k -= 1
                n = k if n is None else min(n, k)
            r = _g._nus_id(Fraction(n if n is not None else 0))
    _aw[g] = r
    return r


def atomic_weight(game: _g.Game) -> _g.Game:
    """The atomic weight of an all-small game (UnsupportedError otherwise).

    >>> print(atomic_weight(_g.Game("v3")), atomic_weight(_g.Game("{0,^*|0,v*}")))
    -3 0
    """
    if not _is_all_small(game._id):
        raise UnsupportedError(f"{game} is not all-small, so it has no atomic weight")
    return _g._objects[_atomic_weight(game._id)]


def _heat_star(g: int) -> int:
    if _g._is_number_id(g):
        return g
    r = _heat.get(g)
    if r is None:
        star = _g._nus_id(Fraction(0), 0, 1)
        _g._tick()
        _g._sum_room(g, "the reduced canonical form")
        L, R = _g._opts(g)
        r = _g._canon([_g._add(_heat_star(x), star) for x in L],
                      [_g._add(_heat_star(x), star) for x in R])
        _heat[g] = r
    return r


def _star_projection(g: int) -> int:
    t = _g._nus[g]
    if t is not None and t[1] == 0 and t[2] <= 1:
        return _g._nus_id(t[0])             # x and x* both project to x
    r = _proj.get(g)
    if r is None:
        _g._tick()
        _g._sum_room(g, "the reduced canonical form")
        L, R = _g._opts(g)
        r = _g._canon([_star_projection(x) for x in L], [_star_projection(x) for x in R])
        _proj[g] = r
    return r


def reduced_canonical_form(game: _g.Game) -> _g.Game:
    """The reduced canonical form: the simplest game infinitesimally close to ``game``.

    >>> print(reduced_canonical_form(_g.Game("{1|*}")), reduced_canonical_form(_g.Game("3^*")))
    1/2+-1/2 3
    """
    g = game._id
    t = _g._nus[g]
    if t is not None:
        return _g._objects[_g._nus_id(t[0])]
    return _g._objects[_star_projection(_heat_star(g))]


__all__ = ["is_all_small", "atomic_weight", "reduced_canonical_form"]
