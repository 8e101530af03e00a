"""Number-up-stars kept as their tags (clobbermania.cgt.game: "games kept as tags").

The engine builds x + u.^ + *n with explicit options only while it is small; larger ones
are a tag, their comparisons with other games go through profiles against the nimber
families (``game._profile``) and the plain Python code. These tests hold the tag path
equal to the explicit one: in a fresh process whose explicit thresholds are lowered to
almost nothing, a random workload gives exactly the answers of the ordinary engine; tag
games equal games built by hand from their textbook options; and huge tags are answered
at once, or refused with one sentence naming the limit.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import time
from fractions import Fraction
from functools import cache

import pytest
from cli_runner import run_cli

from clobbermania.cgt import Game, nimber, number, nus, parse
from clobbermania.cgt import game as G
from clobbermania.errors import NotationError, UnsupportedError

# --- the tag path equals the explicit path ----------------------------------------------

WORKLOAD = r'''
import json, random, sys
from fractions import Fraction
from clobbermania.cgt import Game, nus
from clobbermania.cgt import game as G
if sys.argv[1] == "tags":
    G.EXPLICIT_INTEGER, G.EXPLICIT_BITS, G.EXPLICIT_UPS, G.EXPLICIT_NIMBER = 1, 0, 1, 1
rng = random.Random(int(sys.argv[2]))
xs = [Fraction(0), Fraction(0), Fraction(1, 2), Fraction(-1), Fraction(2)]
pool = [nus(rng.choice(xs), rng.randint(-3, 3), rng.randint(0, 5)) for _ in range(14)]
pool += [nus(0, 0, k) for k in range(2, 7)] + [nus(0, 2, 0), nus(0, -2, 1)]
for _ in range(2):
    new = []
    for _ in range(14):
        new.append(Game.from_options(rng.sample(pool, rng.randint(1, 3)),
                                     rng.sample(pool, rng.randint(0, 3))))
    pool += new
out = []
for _ in range(70):
    g, h = rng.choice(pool), rng.choice(pool)
    s = g + h
    row = [str(g), str(h), str(s), g.compare(h), s.outcome, str(s.mean), str(s.temperature),
           str(s.left_stop), str(s.right_stop), s.birthday, str(g.reduced()),
           str(s.atomic_weight()) if s.is_all_small else None]
    out.append(row)
tagged = sum(1 for i in range(len(G._left)) if G._left[i] is None)
print(json.dumps({"rows": out, "tagged": tagged}))
'''


def _run_workload(mode: str, seed: int) -> dict:
    res = subprocess.run([sys.executable, "-c", WORKLOAD, mode, str(seed)],
                         capture_output=True, text=True, check=True, timeout=600)
    return json.loads(res.stdout)


@pytest.mark.parametrize("seed", [1, 2])
def test_tag_path_equals_explicit_path(seed):
    tags = _run_workload("tags", seed)
    explicit = _run_workload("explicit", seed)
    assert tags["tagged"] >= 20 and explicit["tagged"] == 0     # the test has teeth
    for a, b in zip(tags["rows"], explicit["rows"], strict=True):
        assert a == b


HAND = r'''
from fractions import Fraction
from clobbermania.cgt import Game, nus, ZERO
from clobbermania.cgt import game as G
G.EXPLICIT_INTEGER, G.EXPLICIT_BITS, G.EXPLICIT_UPS, G.EXPLICIT_NIMBER = 1, 0, 1, 1
# the tags first (kept as tags), then the same games built by hand from their options:
# *n = {0, *, ..., *(n-1) | same}, each option built by hand as well
tags = [nus(0, 0, n) for n in range(9)]
assert all(G._left[tags[n].id] is None for n in range(2, 9))
hand = [ZERO]
for n in range(1, 9):
    hand.append(Game.from_options(hand[:n], hand[:n]))
assert all(hand[n] is tags[n] for n in range(9))
tags = {(x, u, m): nus(x, u, m) for x in (Fraction(0), Fraction(3, 2), Fraction(-2))
        for u in range(-5, 6) for m in range(4)}
# x + u.^ + *n: {x | x + (u-1).^ + *(n xor 1)} for u >= 1 but ^* = {x, x* | x}
for x in (Fraction(0), Fraction(3, 2), Fraction(-2)):
    xs = Game.from_options([], []) + Game(x)
    prev = {}
    for u in range(1, 6):
        level = {}
        for m in range(4):
            if (u, m) == (1, 1):
                g = Game.from_options([xs, xs + hand[1]], [xs])
            elif u == 1:
                g = Game.from_options([xs], [xs + hand[m ^ 1]])
            else:
                g = Game.from_options([xs], [prev[m ^ 1]])
            level[m] = g
            assert g is tags[(x, u, m)], (x, u, m)
            assert -g is tags[(-x, -u, m)] if (-x, -u, m) in tags else True
        prev = level
# numbers: n + 1 = {n |}, m/2^j = {(m-1)/2^j | (m+1)/2^j}
t2, t32 = nus(2), nus(Fraction(3, 2))
assert G._left[t2.id] is None and G._left[t32.id] is None
one = Game.from_options([ZERO], [])
two = Game.from_options([one], [])
assert two is t2 and Game.from_options([one], [two]) is t32
print("ok")
'''


def test_tag_games_equal_games_built_by_hand():
    res = subprocess.run([sys.executable, "-c", HAND], capture_output=True, text=True,
                         check=True, timeout=600)
    assert res.stdout.strip() == "ok"


def test_birthday_formula_equals_explicit_forms():
    for x in (Fraction(0), Fraction(1), Fraction(-2), Fraction(1, 2), Fraction(-3, 4),
              Fraction(21, 8)):
        for u in range(-5, 6):
            for n in range(7):
                g = nus(x, u, n)
                assert G._left[g.id] is not None                # explicit here
                assert G._nus_birthday(x, u, n) == g.birthday, (x, u, n)


def test_thermograph_of_tags_is_that_of_the_representative():
    # the shortcut for tags: x + u.^ + *n has the thermograph of x + ^, x + v or x + *;
    # here every game is explicit, so the thermographs come from the recursion
    for x in (Fraction(0), Fraction(1, 2), Fraction(-5, 4), Fraction(2)):
        for u in range(-4, 5):
            for n in range(6):
                if u == 0 and n == 0:
                    continue
                rep = (x, 1, 0) if u > 0 and (u, n) != (1, 1) else \
                    (x, -1, 0) if u < 0 and (u, n) != (-1, 1) else (x, 0, 1)
                assert nus(x, u, n).thermograph() == nus(*rep).thermograph(), (x, u, n)
    th = nus(Fraction(1, 2), 99999999, 7).thermograph()
    assert th == nus(Fraction(1, 2), 1, 0).thermograph() and th.mast == Fraction(1, 2)


# --- huge tags at once ---------------------------------------------------------------------

@cache
def _raw_le(g, h) -> bool:
    """Conway's definition on raw trees (left options, right options), nothing else."""
    return not any(_raw_le(h, gl) for gl in g[0]) and not any(_raw_le(hr, g) for hr in h[1])


@cache
def _raw_sum(g, h):
    return (tuple(_raw_sum(x, h) for x in g[0]) + tuple(_raw_sum(g, x) for x in h[0]),
            tuple(_raw_sum(x, h) for x in g[1]) + tuple(_raw_sum(g, x) for x in h[1]))


def _raw_nim(n: int):
    opts = tuple(_raw_nim(k) for k in range(n))
    return (opts, opts)


def test_zero_bar_nimber_by_brute_force():
    # {0 | *n} = ^ + *(n xor 1) on raw trees: ^ = {0 | *}, sums by the definition
    zero = ((), ())
    up = ((zero,), (_raw_nim(1),))
    for n in range(1, 6):
        g = ((zero,), (_raw_nim(n),))
        h = _raw_sum(up, _raw_nim(n ^ 1))
        assert _raw_le(g, h) and _raw_le(h, g), n


def test_zero_bar_nimber_pattern():
    # {0 | *n} = ^ + *(n xor 1) for n >= 1 ({0|*} = ^, {0|*2} = ^*3, ...), by the canonical
    # form of x + u.^ + *n (u = 1); the mirror {*n | 0} = v*(n xor 1); {*n | *m} = 0
    # for n, m >= 1 (whoever moves to *k, the other answers to 0)
    for n in range(1, 40):
        assert Game.from_options([0], [nimber(n)]) is nus(0, 1, n ^ 1), n
    t = time.perf_counter()
    for n in (99999, 99999999, 2**200 + 5):
        assert parse(f"{{0|*{n}}}") is nus(0, 1, n ^ 1)
        assert parse(f"{{*{n}|0}}") is nus(0, -1, n ^ 1)
        assert parse(f"{{*{n}|*{n - 1}}}") is number(0)
    assert str(parse("{0|*99999}")) == "^*99998"
    assert time.perf_counter() - t < 1


def test_bypassed_nimber_families():
    # reversing through a huge x + *k lists x + *j (j < k) only up to the first that
    # reverses the rest, or recognises {x, ..., x*(n-1) | the same} as x + *n; the small
    # cases by the explicit engine give the patterns the huge ones must follow
    for n in range(2, 12):
        assert parse(f"{{{{0|*{n}}}|{{*{n}|0}}}}") is nimber(n)
        assert parse(f"{{{{0|*{n}}}|{{*{n - 1}|0}}}}") is \
            Game.from_options([nus(0, 1, n ^ 1)], [nus(0, -1, (n - 1) ^ 1)])
        assert parse(f"{{^*{n}|}}") is number(1)
        assert parse(f"{{{{0|*{n}}},1|{{*{n}|0}}}}") is \
            Game.from_options([1], [nus(0, -1, n ^ 1)])
    t = time.perf_counter()
    n = 99999999
    assert parse(f"{{{{0|*{n}}}|{{*{n}|0}}}}") is nimber(n)
    assert str(parse(f"{{{{0|*{n}}}|{{*{n - 1}|0}}}}")) == "{^*99999998|v*99999999}"
    assert parse(f"{{^*{n}|}}") is number(1)
    assert str(parse(f"{{{{0|*{n}}},1|{{*{n}|0}}}}")) == "{1|v*99999998}"
    assert time.perf_counter() - t < 1


def test_huge_tags_answered_at_once():
    t = time.perf_counter()
    g = parse("*99999999")
    assert str(g) == "*99999999" and g.birthday == 99999999 and g.outcome == "N"
    assert str(parse("*99999999 + *3")) == "*99999996"
    assert str(parse("^99999999 + v99999998")) == "^"
    assert str(parse("^99999999 + ^")) == "^100000000"
    assert str(parse("99999999 + 1")) == "100000000"
    big = "1/" + str(2**100)
    assert parse(f"{big} + {big}") is number(Fraction(1, 2**99))
    assert parse(big).temperature == Fraction(-1, 2**100)
    assert parse(f"{big}").birthday == 101
    assert parse("*99999999").compare("*99999998") == "||"
    assert parse("^99999999").compare("^99999998") == ">"
    assert parse("^99999999").compare("^99999998*") == "||"     # their difference is ^*
    assert parse("^99999999").compare(big) == "<"          # infinitesimal < any number > 0
    assert parse("99999999v").compare("99999999") == "<"
    assert (nimber(2**64) + nimber(2**64 + 1)) is nimber(1)
    h = parse("{*99999|0}") - parse("{*99998|0}")       # v*99998 - v*99999 = *
    assert h is nimber(1)
    s = parse("^99999999*5 + 1/2")
    assert (s.outcome, s.mean, s.temperature, s.left_stop, s.right_stop) == \
        ("L", Fraction(1, 2), 0, Fraction(1, 2), Fraction(1, 2))
    assert parse("^99999999*5").atomic_weight() is number(99999999)
    assert parse("1/2^99999999*5").reduced() is number(Fraction(1, 2))
    assert nus(0, 3, 0) * 10**30 is nus(0, 3 * 10**30, 0)
    assert time.perf_counter() - t < 1


def test_general_games_with_tag_followers():
    # comparisons of games with huge tags as options go through the nimber profiles. The
    # explicit engine on small n: {1 | *n} are pairwise confused, and {*n | 1} = 0 (Left's
    # *n reverses through 0 <= G, leaving {|1} = 0)
    for n in range(1, 10):
        g = Game.from_options([1], [nimber(n)])
        assert all(g.compare(Game.from_options([1], [nimber(m)])) == "||"
                   for m in range(1, 10) if m != n)
        assert Game.from_options([nimber(n)], [1]) is number(0)
    t = time.perf_counter()
    a, b = parse("{1|*99999}"), parse("{1|*99998}")
    assert G._sym[a.id] and a.compare(b) == "||" and a.compare("{1|*2}") == "||"
    assert parse("{*99999999|1}") is number(0)
    assert a.outcome == Game("{1|*}").outcome == "L"
    assert a.mean == a.temperature == Fraction(1, 2)
    assert [str(x) for x in parse("*5").left_options] == ["0", "*", "*2", "*3", "*4"]
    assert pickle.loads(pickle.dumps(a)) is a
    assert time.perf_counter() - t < 1


# --- refusals ----------------------------------------------------------------------------------

def test_refusals_name_the_limit():
    with pytest.raises(UnsupportedError, match="more than the limit of 10,000"):
        _ = parse("*20000").left_options
    with pytest.raises(UnsupportedError, match="nimbers past 256 .cgt.game.MAX_SUM_NIMBER."):
        parse("{1|*} + *5000")
    with pytest.raises(UnsupportedError, match="up-multiples past 2,000 .cgt.game.MAX_SUM_UPS"):
        parse("{^3000|*}").reduced()
    assert str(parse("{1|*} + ^300")) == "{1^300|^300*}"     # as {1|*} + ^5 = {1^5|^5*}
    with pytest.raises(NotationError, match="10,001 characters"):
        parse("*" * 10001)


def test_depth_cap(monkeypatch):
    monkeypatch.setattr(G, "MAX_DEPTH", 3)
    with pytest.raises(UnsupportedError, match="deeper than 3 levels"):
        parse("{{{{{1|*}|*}|*}|*}|*} + *100")
    assert G._depth == 0


def test_table_cap(monkeypatch):
    monkeypatch.setattr(G, "MAX_TABLE", G.table_size())
    with pytest.raises(UnsupportedError, match="holds at most"):
        nimber(10**12 + 7)


def test_time_limit_stops_a_long_computation():
    t = time.perf_counter()
    with pytest.raises(G.TimeLimitReached, match="time limit of 0.2 s"):
        with G.time_limit(0.2):
            parse("{1|*} + *250")
    assert time.perf_counter() - t < 0.2 * 1.1 + 0.5
    # the table is still sound afterwards
    assert parse("{1|*} + *3") is parse("{1*3|*2}") and G._deadline is None


def test_cli_huge_tags(capsys):
    code, out, _ = run_cli(capsys, "cgt", "value", "*99999999", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["value"] == "*99999999" and obj["birthday"] == 99999999
    assert obj["seconds"] < 1
    code, out, _ = run_cli(capsys, "cgt", "value", "{0|*99999}")
    assert code == 0 and out.splitlines()[0] == "^*99998"
    code, out, _ = run_cli(capsys, "cgt", "compare", "*99999999", "*99999999 + 0")
    assert code == 0 and out.strip() == "="
    code, out, err = run_cli(capsys, "cgt", "value", "{1|*} + *5000")
    assert code == 2 and out == "" and "MAX_SUM_NIMBER" in err and "Traceback" not in err


def test_cli_value_reports_a_refused_invariant(capsys):
    # the canonical form stands; the reduced form would expand ^3000 past MAX_SUM_UPS
    code, out, _ = run_cli(capsys, "cgt", "value", "{^3000|*}", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["value"] == "{^3000|*}" and obj["reduced"] is None
    assert "MAX_SUM_UPS" in obj["refused"]["reduced"] and "atomic_weight" not in obj["refused"]
    # AW({^u | *}) = {AW(^u) - 2 | AW(*) + 2} = {u - 2 | 2}, as the explicit engine says for u = 30
    assert Game("{^30|*}").atomic_weight() is Game("{28|2}")
    assert obj["atomic_weight"] == str(Game("{2998|2}")) == "1500+-1498"
    code, out, _ = run_cli(capsys, "cgt", "value", "{^3000|*}")
    assert code == 0 and "reduced canonical form: not computed" in out
    assert "reduced not computed: the reduced canonical form would expand ^3000" in out


def test_cli_time_limit(capsys):
    t = time.perf_counter()
    code, out, err = run_cli(capsys, "cgt", "value", "{1|*} + *250", "--time-limit", "0.3")
    assert time.perf_counter() - t < 0.3 * 1.1 + 0.5
    assert code == 2 and err.strip() == ("error: the time limit of 0.3 s was reached before "
                                         "the canonical form was found")
    code, out, err = run_cli(capsys, "cgt", "compare", "{1|*} + *250", "0", "--time-limit",
                             "0.3")
    assert code == 2 and "time limit of 0.3 s" in err
