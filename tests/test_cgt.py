"""clobbermania.cgt: canonical short games, checked against textbook identities and an
independent brute force on raw game trees written here (no canonical forms, no memo
tricks beyond caching, no number avoidance)."""

from __future__ import annotations

import json
import pickle
import random
import sys
from fractions import Fraction
from functools import cache

import pytest
from cli_runner import run_cli

from clobbermania.cgt import (
    DOWN,
    STAR,
    UP,
    ZERO,
    Game,
    format_game,
    nimber,
    number,
    nus,
    parse,
    thermograph,
)
from clobbermania.cgt.game import _canon_uncached
from clobbermania.errors import NotationError, UnsupportedError

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

# --- the independent brute force: a raw game is (left options, right options) ------------

RZERO: tuple = ((), ())


@cache
def raw_le(g, h) -> bool:
    """Conway's definition: G <= H iff no G^L >= H and no H^R <= G."""
    return not any(raw_le(h, gl) for gl in g[0]) and not any(raw_le(hr, g) for hr in h[1])


def raw_eq(g, h) -> bool:
    return raw_le(g, h) and raw_le(h, g)


def raw_rel(g, h) -> str:
    a, b = raw_le(g, h), raw_le(h, g)
    return "=" if a and b else "<" if a else ">" if b else "||"


@cache
def raw_sum(g, h):
    return (tuple(raw_sum(x, h) for x in g[0]) + tuple(raw_sum(g, x) for x in h[0]),
            tuple(raw_sum(x, h) for x in g[1]) + tuple(raw_sum(g, x) for x in h[1]))


@cache
def raw_neg(g):
    return (tuple(raw_neg(x) for x in g[1]), tuple(raw_neg(x) for x in g[0]))


def raw_int(n: int):
    g = RZERO
    for _ in range(abs(n)):
        g = ((g,), ()) if n > 0 else ((), (g,))
    return g


def raw_dyadic(x: Fraction):
    if x.denominator == 1:
        return raw_int(int(x))
    e = Fraction(1, x.denominator)
    return ((raw_dyadic(x - e),), (raw_dyadic(x + e),))


def raw_nim(n: int):
    opts = tuple(raw_nim(k) for k in range(n))
    return (opts, opts)


RSTAR = raw_nim(1)
RUP = ((RZERO,), (RSTAR,))


def to_raw(g: Game):
    return (tuple(to_raw(x) for x in g.left_options), tuple(to_raw(x) for x in g.right_options))


def canon(raw) -> Game:
    return Game.from_options([canon(x) for x in raw[0]], [canon(x) for x in raw[1]])


def random_raw_pool(seed: int, rounds: int = 3, per_round: int = 20, width: int = 3):
    rng = random.Random(seed)
    pool = [RZERO, RSTAR, RUP, raw_int(1), raw_int(-1), raw_dyadic(Fraction(1, 2))]
    for _ in range(rounds):
        new = []
        for _ in range(per_round):
            left = tuple(rng.sample(pool, rng.randint(0, min(width, len(pool)))))
            right = tuple(rng.sample(pool, rng.randint(0, min(width, len(pool)))))
            new.append((left, right))
        pool += new
    return pool


def random_games(seed: int, rounds: int = 3, per_round: int = 25, all_small: bool = False):
    """Canonical games built from small options, level by level."""
    rng = random.Random(seed)
    if all_small:
        pool = [ZERO, STAR, UP, DOWN, nimber(2), UP + STAR]
    else:
        pool = [ZERO, STAR, UP, number(1), number(-1), number(Fraction(1, 2)), nimber(2)]
    for _ in range(rounds):
        new = []
        for _ in range(per_round):
            k = rng.randint(1, 3)
            left = rng.sample(pool, k)
            right = rng.sample(pool, rng.randint(1 if all_small else 0, 3))
            new.append(Game.from_options(left, right))
        pool += new
    return pool


# --- canonical forms against the brute force ----------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_canonical_form_equals_raw_game(seed):
    pool = random_raw_pool(seed)
    games = [canon(r) for r in pool]
    for r, g in zip(pool, games, strict=True):
        assert raw_eq(r, to_raw(g)), str(g)
    # hash-consing: games equal by the brute force are the same object, others are not
    rng = random.Random(seed)
    for _ in range(1500):
        i, j = rng.randrange(len(pool)), rng.randrange(len(pool))
        assert games[i].compare(games[j]) == raw_rel(pool[i], pool[j])
        assert (games[i] is games[j]) == raw_eq(pool[i], pool[j])


@pytest.mark.parametrize("seed", [4, 5])
def test_sum_and_negation_equal_raw(seed):
    pool = random_raw_pool(seed, rounds=2, per_round=15)
    games = [canon(r) for r in pool]
    rng = random.Random(seed)
    for _ in range(120):
        i, j = rng.randrange(len(pool)), rng.randrange(len(pool))
        assert raw_eq(raw_sum(pool[i], pool[j]), to_raw(games[i] + games[j]))
        assert raw_eq(raw_neg(pool[i]), to_raw(-games[i]))


def test_canonical_forms_have_no_dominated_or_reversible_options():
    pool = random_games(11)
    translated = [g + number(x) for g in pool[::3] for x in (Fraction(-3, 2), 1, Fraction(5, 4))]
    for g in pool + translated:
        L, R = g.left_options, g.right_options
        for a in L:
            assert not any(a != b and a <= b for b in L)
            assert not any(ar <= g for ar in a.right_options)
        for a in R:
            assert not any(a != b and b <= a for b in R)
            assert not any(al >= g for al in a.left_options)
        assert _canon_uncached(set(x.id for x in L), set(x.id for x in R)) == g.id


def test_number_up_star_forms_against_raw_sums():
    # x + u.^ + *n built by the engine's formulas equals the raw sum of its parts
    for x in (-1, 0, 1):
        for u in range(-3, 4):
            for n in range(4 if x == 0 and abs(u) < 3 else 2):
                g = nus(x, u, n)
                r = raw_int(x)
                for _ in range(abs(u)):
                    r = raw_sum(r, RUP if u > 0 else raw_neg(RUP))
                r = raw_sum(r, raw_nim(n))
                assert raw_eq(r, to_raw(g)), (x, u, n)
                assert g.nus == (Fraction(x), u, n)
                assert Game.from_options(g.left_options, g.right_options) is g
    for k in range(-17, 18):
        x = Fraction(k, 8)
        assert raw_eq(raw_dyadic(x), to_raw(number(x)))
        assert number(x).number() == x


# --- textbook identities ------------------------------------------------------------------

@pytest.mark.parametrize("lhs, rhs", [
    ("^ + v", "0"), ("* + *", "0"), ("{0|^}", "^^*"), ("{0|*}", "^"), ("{*|0}", "v"),
    ("1/2 + 1/2", "1"), ("{0|1}", "1/2"), ("{1|0} + {1|0}", "1"), ("{0,*|0}", "^*"),
    ("{0|^*}", "^^"), ("*2 + *3", "*"), ("^ + ^ + ^", "^3"), ("v3", "-^3"),
    ("{|}", "0"), ("{0|}", "1"), ("{|0}", "-1"), ("{1|}", "2"), ("{0|2}", "1"),
    ("{-1|1}", "0"), ("{1/2|1}", "3/4"), ("{*|*}", "0"), ("{0,*|0,*}", "*2"),
    ("+-1", "{1|-1}"), ("2+-1", "{3|1}"), ("1^*", "1 + ^ + *"), ("-1v*", "-1 + v + *"),
    ("2*", "{2|2}"), ("{0||vv*|vv*}", "{0|{vv*|vv*}}"), ("(1/2)*", "1/2 + *"),
    ("{2|1||0}", "{{2|1}|0}"), ("-^*", "v*"), ("↑ + ↓", "0"), ("±1", "+-1"),
])
def test_identities(lhs, rhs):
    assert parse(lhs) is parse(rhs)


def test_order_facts():
    assert UP > 0 and DOWN < 0 and STAR.fuzzy(0)
    assert (UP + STAR).compare(0) == "||"           # ^* || 0
    assert UP.compare(STAR) == "||"
    assert parse("1/2").compare(1) == "<"
    assert parse("{1|0}").compare(parse("1/2")) == "||"
    assert [parse(s).outcome for s in ("1", "-1", "*", "0", "^*", "^", "{1|-1}")] == \
        ["L", "R", "N", "P", "N", "L", "N"]
    # x + u.^ + *n versus 0: positive exactly when u >= 2, or u = 1 and n != 1
    for u in range(-3, 4):
        for n in range(4):
            g = nus(0, u, n)
            expect = "L" if (u >= 2 or (u == 1 and n != 1)) else \
                "R" if (u <= -2 or (u == -1 and n != 1)) else "P" if (u, n) == (0, 0) else "N"
            assert g.outcome == expect, (u, n)


def test_printing_special_forms():
    cases = {"0": "0", "*": "*", "*2": "*2", "^": "^", "v": "v", "^^*": "^^*",
             "v3": "v3", "^3": "^3", "{1|*}": "{1|*}", "1/2": "1/2", "-3/4": "-3/4",
             "+-1": "+-1", "{0,*|0}": "^*", "2*": "2*", "1^*": "1^*", "{0|^}": "^^*",
             "{1|0}": "1/2+-1/2", "+-1/2": "+-1/2", "^ + *2": "^*2", "{3|1}": "2+-1",
             "{0|-1}": "-1/2+-1/2", "{2|1||0}": "{3/2+-1/2|0}", "{{1|*}|-1}": "{1|*||-1}",
             "{0||0|-1}": "{0|-1/2+-1/2}"}
    for text, printed in cases.items():
        assert str(parse(text)) == printed, text


# --- random-game algebra -------------------------------------------------------------------

@pytest.mark.parametrize("seed", [21, 22])
def test_group_laws_on_random_games(seed):
    pool = random_games(seed)
    rng = random.Random(seed)
    for _ in range(150):
        g, h, k = (rng.choice(pool) for _ in range(3))
        assert g + h is h + g
        assert (g + h) + k is g + (h + k)
        assert g - g is ZERO
        assert g.__neg__().__neg__() is g
        assert g + ZERO is g
        # comparison is the outcome of the difference
        d = (g - h).outcome
        assert g.compare(h) == {"P": "=", "L": ">", "R": "<", "N": "||"}[d]
        assert (g <= h) == ((h - g) >= 0)
        # canonical form idempotent, printing round-trips
        assert Game.from_options(g.left_options, g.right_options) is g
        assert parse(str(g)) is g
        assert parse(f"{g} + {h}") is g + h
        assert 3 * g is g + g + g and -2 * g is -(g + g)


def test_game_constructor_and_pickle():
    g = parse("{0,^*|0,v*}")
    assert Game(str(g)) is g and Game(g) is g and Game(2) is number(2)
    assert pickle.loads(pickle.dumps(g)) is g
    assert g == "{0,^*|0,v*}" and g != 0
    assert {g, Game(str(g))} == {g}
    assert format_game(g) == str(g) and repr(g) == "Game('{0,^*|0,v*}')"


# --- stops, mean, temperature ----------------------------------------------------------------

def test_known_thermal_values():
    cases = {"{4|{2|0}}": ("5/2", "3/2"), "{3|{1|0}}": ("7/4", "5/4"), "+-2": ("0", "2"),
             "{2|0||-1}": ("0", "1"), "{1|*}": ("1/2", "1/2"), "^*": ("0", "0"),
             "3/4": ("3/4", "-1/4"), "5": ("5", "-1"), "2*": ("2", "0"), "{5|1}": ("3", "2")}
    for text, (m, t) in cases.items():
        g = parse(text)
        assert (g.mean, g.temperature) == (Fraction(m), Fraction(t)), text
    th = thermograph(parse("+-1"))
    assert th.left_wall(Fraction(0)) == 1 and th.right_wall(Fraction(0)) == -1
    assert th.left_wall(Fraction(5)) == 0 and th.mast == 0


@pytest.mark.parametrize("seed", [31, 32])
def test_mean_is_additive_and_stops_bound_it(seed):
    pool = random_games(seed, rounds=2)
    rng = random.Random(seed)
    for _ in range(60):
        g, h = rng.choice(pool), rng.choice(pool)
        assert (g + h).mean == g.mean + h.mean
        assert g.right_stop <= g.mean <= g.left_stop
        # the temperature of a sum is at most the larger temperature
        assert (g + h).temperature <= max(g.temperature, h.temperature, 0)
        if not g.is_number:
            assert (g + 1).temperature == g.temperature
            assert g.temperature >= 0
            th = g.thermograph()
            assert th.left_wall(Fraction(0)) == g.left_stop
            assert th.right_wall(Fraction(0)) == g.right_stop


# --- atomic weight ------------------------------------------------------------------------------

def test_atomic_weight_known_values():
    cases = {"^": 1, "*": 0, "^*": 1, "{0|^}": 2, "^^*": 2, "v3": -3, "0": 0, "*5": 0,
             "{0,*|0,v*}": -1, "{0,^*|0,v*}": 0}
    for text, w in cases.items():
        assert parse(text).atomic_weight() is number(w), text
    with pytest.raises(UnsupportedError):
        parse("{1|*}").atomic_weight()


_CONTEXTS = [parse(s) for s in ("0", "*", "^", "v", "^*", "v*", "*2", "^^*", "vv*",
                                "{0,*|0,v*}", "{0,^*|0,v*}")]


def _same_outcomes(g: Game, w: int) -> bool:
    # the definition of atomic weight: G ~ w.^ in every context X + *m, m large (beyond
    # the birthday of every sum compared, so that *m is remote)
    for x in _CONTEXTS:
        far = nimber(g.birthday + x.birthday + abs(w) + 3)
        if (g + x + far).outcome != (nus(0, w, 0) + x + far).outcome:
            return False
    return True


def test_atomic_weight_against_its_definition():
    checked = 0
    for g in random_games(41, rounds=2, per_round=20, all_small=True):
        aw = g.atomic_weight()
        if not aw.is_integer:
            continue
        w = int(aw.number())
        assert _same_outcomes(g, w), str(g)
        checked += 1
    assert checked >= 20
    # the check has teeth: an off-by-one weight fails it
    g = parse("{0,*|0,v*}")
    assert not _same_outcomes(g, 0) and not _same_outcomes(g, -2)


def test_atomic_weight_additive_and_two_ahead():
    pool = random_games(42, rounds=2, per_round=20, all_small=True)
    rng = random.Random(42)
    for _ in range(60):
        g, h = rng.choice(pool), rng.choice(pool)
        assert (g + h).atomic_weight() is g.atomic_weight() + h.atomic_weight()
    for g in pool:
        if g.atomic_weight() >= 2:
            assert g > 0
        if g.atomic_weight() <= -2:
            assert g < 0


# --- reduced canonical form --------------------------------------------------------------------

def test_reduced_canonical_form():
    assert [str(parse(s).reduced()) for s in ("^", "^^*", "3/2v*", "{1|*}", "{2|^}")] == \
        ["0", "0", "3/2", "1/2+-1/2", "1+-1"]
    pool = random_games(51, rounds=2)
    rng = random.Random(51)
    for g in pool:
        r = g.reduced()
        assert (g - r).is_infinitesimal, str(g)
        assert r.reduced() is r
        assert r.birthday <= g.birthday
        eps = rng.choice([UP, DOWN, STAR, UP + STAR, parse("{0||0|-1}")])
        assert (g + eps).reduced() is r


# --- parsing errors and the command line -----------------------------------------------------

@pytest.mark.parametrize("text, fragment", [
    ("1+q", "'q' at position 3"), ("{0|1|2}", "ambiguous bars"), ("1/3", "not a dyadic"),
    ("{", "never closed"), ("", "empty"), ("{0|1", "never closed"), ("1 +", "ends too early"),
    ("{0,|1}", "option is missing"), ("(1", "')' expected"), ("1 2", "'2' at position 3"),
    ("1/0", "divides by zero"), ("{0|2/0}", "2/0 at position 4 divides by zero"),
    ("1" * 1001, "1,001 digits, more than the limit of 1,000"),
    ("*" + "9" * 1001, "1,001 digits"), ("^" + "9" * 1001, "1,001 digits"),
    ("1+" * 5000 + "1", "10,001 characters, more than the limit of 10,000"),
    ("{" * 201 + "|" + "}" * 201, "deeper than the limit of 200"),
])
def test_parse_errors(text, fragment):
    with pytest.raises(NotationError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse(text)


def test_cli_value(capsys):
    code, out, err = run_cli(capsys, "cgt", "value", "{0|^}")
    assert code == 0 and out.splitlines()[0] == "^^*" and "atomic weight: 2" in out
    code, out, _ = run_cli(capsys, "cgt", "value", "{0|^}", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["value"] == "^^*" and obj["outcome"] == "L"
    assert obj["atomic_weight"] == "2" and obj["temperature"] == "0" and "seconds" in obj
    code, out, _ = run_cli(capsys, "cgt", "value", "+-1 + 1/2", "--json")
    obj = json.loads(out)
    assert obj["value"] == "1/2+-1" and obj["atomic_weight"] is None
    assert obj["mean"] == "1/2" and obj["temperature"] == "1"


def test_cli_compare(capsys):
    for g, h, rel in [("^*", "0", "||"), ("{0|*}", "^", "="), ("1/2", "1", "<"), ("^", "v", ">")]:
        code, out, _ = run_cli(capsys, "cgt", "compare", g, h)
        assert code == 0 and out.strip() == rel
    code, out, _ = run_cli(capsys, "cgt", "compare", "*", "0", "--json")
    assert json.loads(out)["relation"] == "||"


def test_cli_bad_expression(capsys):
    code, out, err = run_cli(capsys, "cgt", "value", "{0|x}")
    assert code == 2 and out == ""
    assert err.strip() == ("error: unexpected character 'x' at position 4 in the game "
                           "expression '{0|x}'")
    assert "Traceback" not in err
