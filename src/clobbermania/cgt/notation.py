"""CGSuite's notation for short games: printing and parsing.

Printing (``format_game``): numbers as ``0 1 -3/4``; x + u.^ + *n as the number (left out
when 0), then ``^ ^^ ^3 ...`` or ``v vv v3 ...``, then ``* *2 ...`` (``1^*``, ``v3*2``,
``-1/2v*``); a switch {a|b} of numbers a > b as ``m+-d`` (m = (a+b)/2, d = (a-b)/2,
m left out when 0: ``+-1``, ``1/2+-1/2`` for {1|0}; CGSuite reads a+-b as a + {b|-b}); any
other game as ``{L1,L2|R1,R2}``, where a side whose only option is itself a braced game is
written without its braces and the separating bar is doubled, trebled, ... so that it
outnumbers the bars inside (``{1|*||-1}`` is ``{{1|*}|-1}``; ``{0||vv*|vv*}`` is read as
``{0|{vv*|vv*}}``).

Parsing (``parse``) reads what printing writes, and more:

* numbers ``3``, ``1/2``, ``-3/4`` (dyadic only); ``*``, ``*n``; ``^``, ``^^``, ``^n``;
  ``v``, ``vv``, ``vn``; juxtaposed after a number or each other they add (``2*``,
  ``1^*``, ``^^*``, ``v3*2``); a minus directly before a number negates the number only
  (``-1v*`` is -1 + v + *), otherwise it negates what follows (``-^*`` is v*);
* ``{A, B | C}`` with nested bars: the longest run of bars at the top level splits the
  braces, and a side that still contains bars is one option (``{a|b||c}`` = {{a|b}|c});
* ``+-x`` (or ``±x``) is {x | -x}; after another term, ``a+-x`` is a + {x|-x};
* sums and differences ``a + b - c``, parentheses; the Unicode ``↑ ↓ ±`` are accepted.

Printing round-trips: ``parse(format_game(g)) is g`` for every canonical game.

>>> print(parse("{0||vv*|vv*}"), parse("{0|^}"), parse("{2|1||0}"), parse("+-1 + 1/2"))
{0|v3} ^^* {3/2+-1/2|0} 1/2+-1
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..errors import NotationError
from . import game as _g

_fmt_cache: dict[int, str] = {}


#: The longest game expression read, in characters.
MAX_EXPRESSION_LENGTH = 10_000
#: The deepest nesting of braces and parentheses in a game expression.
MAX_NESTING = 200
#: The most digits in one numeral (a number, or the count in ``*n``, ``^n``, ``vn``).
#: Numbers, nimbers and up-multiples are kept as tags, so their size is otherwise free.
MAX_DIGITS = 1_000


def _format_number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _format_nus(x: Fraction, u: int, n: int) -> str:
    parts = []
    if x != 0 or (u == 0 and n == 0):
        parts.append(_format_number(x))
    if u:
        sym = "^" if u > 0 else "v"
        a = abs(u)
        parts.append(sym * a if a <= 2 else f"{sym}{a}")
    if n:
        parts.append("*" if n == 1 else f"*{n}")
    return "".join(parts)


def _braced(g: int) -> tuple[str, int] | None:
    """(text without braces, bar count) when g prints as a braced game, else None."""
    t = _g._nus[g]
    if t is not None:
        return None
    L, R = _g._left[g], _g._right[g]
    if len(L) == 1 and len(R) == 1 and _g._is_number_id(L[0]) and _g._is_number_id(R[0]):
        return None                                  # x+-y
    sides = []
    bars = 0
    for opts in (L, R):
        if len(opts) == 1:
            inner = _braced(opts[0])
            if inner is not None:
                sides.append(inner[0])
                bars = max(bars, inner[1])
                continue
        # simplest options first (by birthday), as CGSuite lists them
        ordered = sorted(opts, key=lambda x: (_g._birthday_of(x), _format_id(x)))
        sides.append(",".join(_format_id(x) for x in ordered))
    bars += 1
    return sides[0] + "|" * bars + sides[1], bars


def _format_id(g: int) -> str:
    s = _fmt_cache.get(g)
    if s is not None:
        return s
    t = _g._nus[g]
    if t is not None:
        s = _format_nus(*t)
    else:
        b = _braced(g)
        if b is None:
            a, c = _g._nus[_g._left[g][0]][0], _g._nus[_g._right[g][0]][0]
            mid = (a + c) / 2
            s = ("" if mid == 0 else _format_number(mid)) + "+-" + _format_number((a - c) / 2)
        else:
            s = "{" + b[0] + "}"
    _fmt_cache[g] = s
    return s


def format_game(game: _g.Game) -> str:
    """The game in CGSuite's syntax.

    >>> from clobbermania.cgt import Game
    >>> [format_game(Game.from_options(l, r)) for l, r in [([0], ["*"]), (["^"], []), ([1], ["*"])]]
    ['^', '1', '{1|*}']
    >>> print(parse("{2|1||0}"), parse("{{1|*}|-1}"), parse("{3|1}"))
    {3/2+-1/2|0} {1|*||-1} 2+-1
    """
    return _format_id(game._id)


# --- parsing ------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>\d+(?:/\d+)?)
  | (?P<pm>\+-|±)
  | (?P<star>\*\d*)
  | (?P<up>\^\d+|\^+|↑+)
  | (?P<down>v\d+|v+|↓+)
  | (?P<bar>\|+)
  | (?P<punct>[{},()+\-])
""", re.VERBOSE)


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind: str, text: str, pos: int) -> None:
        self.kind, self.text, self.pos = kind, text, pos

    def __repr__(self) -> str:                      # pragma: no cover - debugging aid
        return f"{self.kind}:{self.text}@{self.pos}"


def _tokenize(text: str) -> list[_Tok]:
    toks = []
    i = 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None:
            raise NotationError(f"unexpected character {text[i]!r} at position {i + 1} "
                                f"in the game expression {text!r}")
        kind = m.lastgroup
        if kind != "ws":
            toks.append(_Tok(kind if kind != "punct" else m.group(), m.group(), i))
        i = m.end()
    return toks


class _Parser:
    def __init__(self, text: str, toks: list[_Tok]) -> None:
        self.text, self.toks, self.i = text, toks, 0

    # helpers
    def peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def fail(self, tok: _Tok | None, what: str = "") -> NotationError:
        if tok is None:
            return NotationError(f"the game expression {self.text!r} ends too early"
                                 + (f": {what}" if what else ""))
        return NotationError(f"unexpected {tok.text!r} at position {tok.pos + 1} in the game "
                             f"expression {self.text!r}" + (f": {what}" if what else ""))

    def number(self, tok: _Tok) -> Fraction:
        _digits(tok, self.text)
        try:
            x = Fraction(tok.text)
        except ZeroDivisionError:
            raise NotationError(f"{tok.text} at position {tok.pos + 1} divides by zero") \
                from None
        if x.denominator & (x.denominator - 1):
            raise NotationError(f"{tok.text} at position {tok.pos + 1} is not a dyadic "
                                f"rational (its denominator must be a power of 2)")
        return x

    # grammar
    def expr(self) -> int:
        g = self.signed()
        while True:
            t = self.peek()
            if t is None or t.kind not in ("+", "-", "pm"):
                return g
            self.i += 1
            h = self.signed()
            if t.kind == "+":
                g = _g._add(g, h)
            elif t.kind == "-":
                g = _g._add(g, _g._neg(h))
            else:
                g = _g._add(g, _switch(h))

    def signed(self) -> int:
        t = self.peek()
        if t is None:
            raise self.fail(None, "a game is missing")
        if t.kind == "-":
            nxt = self.peek(1)
            if nxt is not None and nxt.kind == "num" and nxt.pos == t.pos + 1:
                self.i += 1
                return self.primary(negate_number=True)
            self.i += 1
            return _g._neg(self.signed())
        if t.kind == "+":
            self.i += 1
            return self.signed()
        if t.kind == "pm":
            self.i += 1
            return _switch(self.signed())
        return self.primary()

    def primary(self, negate_number: bool = False) -> int:
        t = self.peek()
        if t is None:
            raise self.fail(None, "a game is missing")
        g = None
        if t.kind == "num":
            self.i += 1
            x = self.number(t)
            g = _g._nus_id(-x if negate_number else x)
        elif t.kind == "{":
            g = self.braces()
        elif t.kind == "(":
            self.i += 1
            g = self.expr()
            close = self.peek()
            if close is None or close.kind != ")":
                raise self.fail(close, "')' expected")
            self.i += 1
        # suffixes: ^ v * juxtaposed add up
        while True:
            s = self.peek()
            if s is None or s.kind not in ("star", "up", "down"):
                break
            self.i += 1
            h = _suffix(s)
            g = h if g is None else _g._add(g, h)
        if g is None:
            raise self.fail(t, "a game was expected here")
        return g

    def braces(self) -> int:
        open_tok = self.peek()
        self.i += 1
        depth = 0
        start = self.i
        while True:
            t = self.peek()
            if t is None:
                raise NotationError(f"the '{{' at position {open_tok.pos + 1} in the game "
                                    f"expression {self.text!r} is never closed")
            if t.kind in ("{", "("):
                depth += 1
            elif t.kind in ("}", ")"):
                if depth == 0:
                    if t.kind == ")":
                        raise self.fail(t, "'}' expected")
                    break
                depth -= 1
            self.i += 1
        inner = self.toks[start:self.i]
        self.i += 1
        return self.split(inner, open_tok)

    def split(self, toks: list[_Tok], where: _Tok) -> int:
        depth = 0
        bars = []
        for j, t in enumerate(toks):
            if t.kind in ("{", "("):
                depth += 1
            elif t.kind in ("}", ")"):
                depth -= 1
            elif t.kind == "bar" and depth == 0:
                bars.append(j)
        if not bars:
            raise NotationError(f"the braces at position {where.pos + 1} in the game "
                                f"expression {self.text!r} have no '|'")
        longest = max(len(toks[j].text) for j in bars)
        at = [j for j in bars if len(toks[j].text) == longest]
        if len(at) > 1:
            raise NotationError(f"ambiguous bars at positions {toks[at[0]].pos + 1} and "
                                f"{toks[at[1]].pos + 1} in the game expression {self.text!r}")
        j = at[0]
        return _g._canon(self.side(toks[:j], toks[j]), self.side(toks[j + 1:], toks[j]))

    def side(self, toks: list[_Tok], where: _Tok) -> list[int]:
        depth = 0
        if any(t.kind == "bar" for t in toks):
            has_top_bar = False
            for t in toks:
                if t.kind in ("{", "("):
                    depth += 1
                elif t.kind in ("}", ")"):
                    depth -= 1
                elif t.kind == "bar" and depth == 0:
                    has_top_bar = True
            if has_top_bar:
                return [self.split(toks, where)]
        items: list[list[_Tok]] = [[]]
        depth = 0
        for t in toks:
            if t.kind in ("{", "("):
                depth += 1
            elif t.kind in ("}", ")"):
                depth -= 1
            if t.kind == "," and depth == 0:
                items.append([])
            else:
                items[-1].append(t)
        if len(items) == 1 and not items[0]:
            return []
        out = []
        for item in items:
            if not item:
                raise NotationError(f"an option is missing near position {where.pos + 1} in "
                                    f"the game expression {self.text!r}")
            sub = _Parser(self.text, item)
            out.append(sub.expr())
            if sub.i < len(item):
                raise sub.fail(item[sub.i])
        return out


def _digits(tok: _Tok, text: str) -> None:
    longest = max(len(d) for d in re.findall(r"\d+", tok.text))
    if longest > MAX_DIGITS:
        raise NotationError(f"the numeral at position {tok.pos + 1} in the game expression "
                            f"has {longest:,} digits, more than the limit of {MAX_DIGITS:,}")


def _suffix(t: _Tok) -> int:
    s = t.text
    if t.kind == "star":
        return _g._nus_id(Fraction(0), 0, int(s[1:]) if len(s) > 1 else 1)
    n = int(s[1:]) if len(s) > 1 and s[1:].isdigit() else len(s)
    return _g._nus_id(Fraction(0), n if t.kind == "up" else -n, 0)


def _switch(g: int) -> int:
    return _g._canon([g], [_g._neg(g)])


def parse(text: str) -> _g.Game:
    """The canonical game written ``text`` in CGSuite's syntax (see the module docstring).

    Raises NotationError naming the offending character and its position.

    >>> print(parse("^ + v"), parse("1/2 + 1/2"), parse("{0|1}"), parse("-1v*"))
    0 1 1/2 -1v*
    >>> try:
    ...     parse("1 + q")
    ... except NotationError as exc:
    ...     print(exc)
    unexpected character 'q' at position 5 in the game expression '1 + q'
    """
    return _parse(text, True)


def _parse(text: str, bounded: bool) -> _g.Game:
    """:func:`parse`; ``bounded=False`` (text printed by this module, as pickling does)
    skips the caps on length and nesting."""
    if not isinstance(text, str):
        raise NotationError(f"a game expression must be text, not {type(text).__name__}")
    if bounded and len(text) > MAX_EXPRESSION_LENGTH:
        raise NotationError(f"the game expression has {len(text):,} characters, more than "
                            f"the limit of {MAX_EXPRESSION_LENGTH:,}")
    toks = _tokenize(text)
    if not toks:
        raise NotationError("the game expression is empty")
    depth = 0
    for t in toks:
        if t.kind in ("{", "("):
            depth += 1
            if bounded and depth > MAX_NESTING:
                raise NotationError(f"the game expression nests braces and parentheses "
                                    f"deeper than the limit of {MAX_NESTING} (position "
                                    f"{t.pos + 1})")
        elif t.kind in ("}", ")"):
            depth -= 1
        elif t.kind in ("star", "up", "down") and any(c.isdigit() for c in t.text):
            _digits(t, text)
    p = _Parser(text, toks)
    g = p.expr()
    if p.i < len(toks):
        raise p.fail(toks[p.i])
    return _g._objects[g]


__all__ = ["parse", "format_game"]
