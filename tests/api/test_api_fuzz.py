"""Fuzzing the JSON API in process: every endpoint of :data:`clobbermania.api.ENDPOINTS`
gets a few hundred bodies, valid and malformed, through ``api.call(name, body,
max_time_limit=0.3)`` (issue 26's red team).

The contract checked for every body: the call answers a JSON object (encodable with
``allow_nan=False`` as strict UTF-8) or raises a
:class:`~clobbermania.errors.ClobbermaniaError` with one non-empty sentence; any other
exception is a finding; no call takes longer than the server would let it run before
killing its worker (``time_limit * 1.5 + 2`` s, with slack for a loaded machine).

On the valid bodies the answers are also checked against each other and the rules: every
move a ``*/state`` answer lists is accepted by the next ``state`` request and leads to the
board the reply endpoints give for it; the computer's move is one of the legal moves;
``grundy/options``' value is the mex of its options' values (Sprague-Grundy), and its
options are exactly the legal moves; a Clickomania click adds ``(n - 2)^2`` to the score
(+1000 when it clears the board); a thermograph's walls start at t = -1 and meet at the
temperature and mean ``cgt/value`` gives; a ``solitaire/verify`` of moves the state
endpoint allowed is valid and ends on its board.

Bodies are generated from a fixed seed (input ``i`` depends on ``(SEED, i)`` alone): a
failing input is reproduced by ``generate(SEED, i)``.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from typing import Any

import pytest
from fuzzing import CGT_BOUNDARY, WEIRD, _cgt_expr, _checker, _grid, mutate

from clobbermania import api
from clobbermania.api import REFUSED_KEYS
from clobbermania.errors import ClobbermaniaError

SEED = 26
#: Inputs in the test (a few seconds; the seeds of benchmarks-size runs found nothing more).
N_INPUTS = 1500
#: The server's cap on a request's time limit in these calls.
MAX_TIME_LIMIT = 0.3
#: The longest a call may take: the pool kills a worker at ``time_limit * 1.5 + 2``;
#: slack for a machine shared with other test runs.
CALL_CAP = (MAX_TIME_LIMIT * 1.5 + 2) * 2

#: JSON values of every type, and the extremes a JSON number or string can reach.
JUNK: list[Any] = [
    None, True, False, 0, -1, 1, 2**63, -(2**63), 10**400, -(10**400), 1e308, -1e308, 5e-324,
    0.5, -0.0, math.nan, math.inf, -math.inf, "", " ", "0", "1", "-1", "true", "null",
    "x" * 100_000, "\x00", "\ud800", "a\u00b2", "\u202e", "1e308", [], [""], ["a1-b1"],
    [1, 2], [None], [[["a1"]]], ["a1"] * 1000, {}, {"board": "xo"}, {"a": {"b": {"c": []}}},
]
#: Keys no endpoint has, a refused key among them now and then.
ALIEN_KEYS = ["Board", "board ", "moves[]", "", "\ud800", "x" * 200, "__class__",
              "time-limit", "timeLimit", *REFUSED_KEYS]


@dataclass
class Input:
    """One API call: the endpoint, the body, and whether the body is valid as generated
    (unmutated), so that the answer's facts may be checked."""

    name: str
    body: Any
    valid: bool


# --------------------------------------------------------------------------- generation

def _stone_board(rng: random.Random, big: bool = False) -> str:
    rows, cols = rng.randint(1, 6 if big else 3), rng.randint(1, 7 if big else 4)
    if rng.random() < 0.4:
        return _checker(rows, cols)
    return _grid(rng, rows, cols, "xo", hole=0.15)


def _colour_board(rng: random.Random, max_cells: int = 16) -> str:
    rows = rng.randint(1, 4)
    cols = rng.randint(1, max(1, max_cells // rows))
    return _grid(rng, rows, cols, "123"[:rng.randint(1, 3)])


def _graph(rng: random.Random) -> tuple[str, int]:
    """A built-in graph SPEC of at most 8 vertices and its vertex count."""
    kind = rng.choice(["path", "cycle", "complete", "tree", "grid", "hypercube", "hamming"])
    if kind == "hypercube":
        return "hypercube:3", 8
    if kind == "hamming":
        return "hamming:2,3", 6
    n = rng.randint(3, 8)
    if kind == "tree":
        return "tree:" + ",".join(str(rng.randint(0, v - 1)) for v in range(1, n)), n
    if kind == "grid":
        return f"grid:2x{n // 2}", 2 * (n // 2)
    return f"{kind}:{n}", n


def _stones_with_graph(rng: random.Random, body: dict) -> dict:
    if rng.random() < 0.2:
        spec, n = _graph(rng)
        body["graph"] = spec
        body["board"] = "".join(rng.choice("xo.") for _ in range(n))
    return body


def _play(name: str, body: dict, rng: random.Random) -> dict:
    """``body`` with ``moves``: a random game of up to a few moves on its board, played by
    the API's own ``state`` answers (each listed move is legal: checked in ``check``)."""
    try:
        state = api.call(name, body)
    except ClobbermaniaError:
        return body
    moves: list[str] = []
    for _ in range(rng.randint(0, 4)):
        legal = state["legal_moves"]
        if not legal:
            break
        pick = rng.choice(legal)
        moves.append(pick["square"] if isinstance(pick, dict) else pick)
        state = api.call(name, {**body, "moves": moves})
    return {**body, "moves": moves}


def valid_body(name: str, rng: random.Random) -> dict:
    """A valid body of endpoint ``name``: mostly small (answered at once), one in
    twenty large enough for the searches to run into the time limit."""
    big = rng.random() < 0.05
    time_limit = {} if rng.random() < 0.5 else {"time_limit": rng.choice([0.05, 0.1, 99])}
    if name in ("cgt/value", "cgt/thermograph"):
        return {"expr": _cgt_expr(rng, rng.randint(0, 5 if big else 3)), **time_limit}
    if name == "cgt/compare":
        depth = 4 if big else 2
        return {"g": _cgt_expr(rng, depth), "h": _cgt_expr(rng, depth), **time_limit}
    if name == "samegame/boards":
        return {}
    if name in ("clickomania/solve", "clickomania/column", "samegame/play",
                "clickomania/state"):
        board = _colour_board(rng, 80 if big else 16)
        if name == "clickomania/column":
            board = board.split("/")[0]
            return {"board": board, "method": rng.choice(["grammar", "two-color", "brute",
                                                          "GRAMMAR"]), **time_limit}
        if name == "clickomania/solve":
            return {"board": board, "maximize": rng.random() < 0.5, **time_limit}
        if name == "samegame/play":
            return {"board": board, "seed": rng.choice([0, 7, 2**64, 10**30]),
                    "max_playouts": rng.randint(1, 50), "restarts": rng.randint(1, 3),
                    "clock": rng.choice(["wall", "cpu", "CPU"]),
                    "left_penalty": rng.choice([None, 0, 60, "60,0", " 5 , 6"]), **time_limit}
        return _play(name, {"board": board}, rng)
    body = _stones_with_graph(rng, {"board": _stone_board(rng, big)})
    first = rng.choice(["black", "white"])
    if name == "solitaire/solve":
        return {**body, "free": rng.random() < 0.3, "first": rng.choice(["any", first]),
                "no_theorems": rng.random() < 0.2,
                **({"node_limit": rng.randint(0, 50)} if rng.random() < 0.3 else {}),
                **time_limit}
    if name == "solitaire/verify":
        return {"moves": [], **_play("solitaire/state", body, rng)}
    if name in ("grundy/value", "clobber/value"):
        return {**body, **time_limit}
    if name == "clobber/solve":
        return {**body, "first": first, **time_limit}
    if name == "clobber/state":
        return _play(name, {**body, "first": first}, rng)
    if name == "solitaire/state":
        return _play(name, {**body, "first": rng.choice(["any", first]),
                            "free": rng.random() < 0.3}, rng)
    if name == "grundy/state":
        return _play(name, body, rng)
    if name == "clobber/reply":
        return {**_play("clobber/state", {**body, "first": first}, rng), **time_limit}
    if name in ("grundy/reply", "grundy/options"):
        return {**_play("grundy/state", body, rng), **time_limit}
    raise AssertionError(f"no generator for {name}")   # a new endpoint: add one


def _mutate_value(rng: random.Random, value: Any) -> Any:
    if isinstance(value, str) and rng.random() < 0.6:
        return mutate(rng, value, "\x00\ud800\u00b2\U0001d7cf\u00e9\ufeff\n")
    if isinstance(value, list) and value and rng.random() < 0.6:
        out = list(value)
        i = rng.randrange(len(out))
        op = rng.random()
        if op < 0.4:
            out[i] = mutate(rng, out[i]) if isinstance(out[i], str) else rng.choice(JUNK)
        elif op < 0.6:
            out[i] = rng.choice(WEIRD)
        elif op < 0.8:
            out.insert(i, out[i])           # a move played twice
        else:   # a long list (the server's body cap allows about 40,000 moves)
            out = (out * rng.randint(2, 20_000))[:50_000]
        return out
    return rng.choice(JUNK)


def malformed(name: str, body: dict, rng: random.Random) -> Any:
    """``body`` broken in one to three ways (a value, a key, or the whole body)."""
    if rng.random() < 0.05:
        return rng.choice([None, [], [body], "board", 0, 1.5, True, ["board", "xo"]])
    out = dict(body)
    params = list(api.endpoint(name).params)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        if op < 0.55 and (out or params):
            key = rng.choice(list(out) or params)
            out[key] = _mutate_value(rng, out.get(key))
        elif op < 0.7 and out:
            del out[rng.choice(list(out))]
        elif op < 0.8:
            out[rng.choice(ALIEN_KEYS)] = rng.choice(["", 1, None])
        elif op < 0.9 and params:
            out[rng.choice(params)] = rng.choice(JUNK)
        elif "board" in out or "expr" in out:
            key = "board" if "board" in out else "expr"
            out[key] = rng.choice(WEIRD + CGT_BOUNDARY + [
                "xo" * 8192, "/".join(["xo" * 64] * 128), "/".join(["12" * 50] * 100),
                "1" * 10_000, "x\no", "\ufeffxo", "xo\r\n"])
    return out


def generate(seed: int, i: int) -> Input:
    """Input ``i`` of ``seed``: a third valid, the rest malformed."""
    rng = random.Random(f"{seed}:{i}")
    names = sorted(api.ENDPOINTS)
    name = names[i % len(names)]
    body = valid_body(name, rng)
    if rng.random() < 0.35:
        return Input(name, body, True)
    return Input(name, malformed(name, body, rng), False)


# --------------------------------------------------------------------------- checking

def _mex(values: list[int]) -> int:
    seen = set(values)
    return next(g for g in range(len(seen) + 1) if g not in seen)


def check(case: Input, answer: dict) -> None:
    """Facts of a valid body's answer, from the rules and the other endpoints."""
    name, body = case.name, case.body
    if name in ("clobber/state", "grundy/state", "solitaire/state", "clickomania/state"):
        assert answer["game_over"] == (not answer["legal_moves"])
        for pick in answer["legal_moves"][:3]:
            move = pick["square"] if isinstance(pick, dict) else pick
            after = api.call(name, {**body, "moves": [*body.get("moves", []), move]})
            assert after["start"] == answer["start"]
            if name == "clickomania/state":
                gained = (pick["size"] - 2) ** 2 + (1000 if after["cleared"] else 0)
                assert after["score"] == answer["score"] + gained
                assert after["blocks_left"] == answer["blocks_left"] - pick["size"]
    if name in ("clobber/reply", "grundy/reply"):
        state_name = "clobber/state" if name == "clobber/reply" else "grundy/state"
        state_body = {k: v for k, v in body.items() if k != "time_limit"}
        state = api.call(state_name, state_body)
        if answer["move"] is None:
            assert state["game_over"] and answer["winner"] == "human"
        else:
            assert answer["move"] in state["legal_moves"]
            after = api.call(state_name, {**state_body, "moves": answer["moves"]})
            assert after["board"] == answer["board"]
            assert answer["game_over"] == after["game_over"]
    if name == "grundy/options":
        state = api.call("grundy/state", {k: v for k, v in body.items() if k != "time_limit"})
        assert [o["move"] for o in answer["options"]] == state["legal_moves"]
        values = [o["grundy"] for o in answer["options"]]
        if answer["exact"]:
            assert answer["grundy"] == _mex(values)
    if name == "cgt/thermograph":    # the walls start at t = -1 and meet at (temperature,
        value = api.call("cgt/value", body)   # mean), as cgt/value gives them
        assert (answer["value"], answer["mean"], answer["temperature"]) == \
            (value["value"], value["mean"], value["temperature"])
        for wall in (answer["left_wall"], answer["right_wall"]):
            assert wall[0][0] == "-1" and wall[-1] == [answer["temperature"], answer["mean"]]
    if name == "solitaire/verify":   # a game the state endpoint allowed, move by move
        state = api.call("solitaire/state", body)
        assert answer["valid"] is True and answer["final"] == state["board"]
        assert answer["stones_left"] == state["stones_left"]


def run(case: Input) -> tuple[str, float]:
    """Call the API on ``case``: ``("ok" | "refused", seconds)``; any other exception, an
    answer that is not strict JSON, or a bad sentence fails the test naming the input."""
    t0 = time.perf_counter()
    try:
        answer = api.call(case.name, case.body, max_time_limit=MAX_TIME_LIMIT)
    except ClobbermaniaError as exc:
        sentence = str(exc)
        assert sentence.strip(), f"{case}: an empty sentence ({type(exc).__name__})"
        return "refused", time.perf_counter() - t0
    except Exception as exc:  # noqa: BLE001 - the finding itself
        pytest.fail(f"{case.name} {json.dumps(case.body, default=str)[:300]}: "
                    f"{type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - t0
    assert isinstance(answer, dict), f"{case.name}: answered {type(answer).__name__}"
    json.dumps(answer, allow_nan=False, ensure_ascii=False).encode("utf-8")
    if case.valid:
        check(case, answer)
    return "ok", seconds


def test_every_endpoint_survives_the_fuzz() -> None:
    names = sorted(api.ENDPOINTS)
    for name in names:   # load the compiled kernels once, out of the timings
        run(generate(SEED, names.index(name)))
    counts = {"ok": 0, "refused": 0}
    slowest = (0.0, "")
    t0 = time.perf_counter()
    for i in range(N_INPUTS):
        case = generate(SEED, i)
        outcome, seconds = run(case)
        counts[outcome] += 1
        if seconds >= CALL_CAP:
            # a kernel the warm-up did not reach compiles on its first call (a fresh clone
            # has no numba cache): the same input again must keep to the cap
            first = seconds
            _, seconds = run(case)
            assert seconds < CALL_CAP, (f"input {i} ({case.name}) took {first:.1f} s, then "
                                        f"{seconds:.1f} s again")
        slowest = max(slowest, (seconds, f"input {i} ({case.name})"))
    total = time.perf_counter() - t0
    print(f"{N_INPUTS} inputs in {total:.1f} s: {counts['ok']} answered, "
          f"{counts['refused']} refused; slowest {slowest[1]} {slowest[0]:.2f} s")
    # every endpoint both answered and refused something
    assert counts["ok"] > N_INPUTS // 5 and counts["refused"] > N_INPUTS // 3


def test_the_generator_is_reproducible() -> None:
    assert [repr(generate(SEED, i)) for i in range(20)] == \
        [repr(generate(SEED, i)) for i in range(20)]
    kinds = {generate(SEED, i).name for i in range(len(api.ENDPOINTS))}
    assert kinds == set(api.ENDPOINTS)
