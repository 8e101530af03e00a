"""The JSON API's verbs answer what the CLI's ``--json`` prints (issue 26).

For every verb endpoint and several real inputs, ``api.call`` and ``clobbermania ... --json``
(run in process) give equal objects apart from the keys that depend on timing or caches
(``api.TIMING_KEYS``); bad input is refused with the CLI's sentence; nothing in a request
may name a file, a process count or standard input; the server's time limit caps a
request's.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from cli_runner import run_cli

from clobbermania import api
from clobbermania.api import verbs
from clobbermania.errors import ClobbermaniaError

# a position the proof search cannot finish in a second (the 6x8 checkerboard)
HARD_CLOBBER = "/".join(["xoxoxoxo", "oxoxoxox"] * 3)

#: (endpoint, body): real inputs of every verb. The SameGame searches are bounded by a
#: playout count (a machine-independent limit) so that both runs play the same game.
CASES = [
    ("solitaire/solve", {"board": "xoxo"}),
    ("solitaire/solve", {"board": "xoxoxo/oxoxox", "first": "white"}),
    ("solitaire/solve", {"board": "xoxoxxoo", "graph": "hypercube:3", "free": True}),
    ("solitaire/solve", {"board": "xoxo/oxox/xoxo", "free": True}),
    ("solitaire/solve", {"board": "xoxo/oxox/xoxo", "first": "black", "no_theorems": True}),
    ("solitaire/solve", {"board": "xxo.o/oxoxx/.oxox", "node_limit": 3}),
    ("solitaire/verify", {"board": "xoxo", "moves": ["a1-b1", "d1-c1", "b1-c1"]}),
    ("solitaire/verify", {"board": "xoxo", "moves": ["a1-b1", "a1-b1"]}),
    ("solitaire/verify", {"board": "xoxo", "moves": ["a1-b1"], "first": "white"}),
    ("solitaire/verify", {"board": "xoxo", "moves": ["a1-b1", "c1-b1"], "free": True}),
    ("solitaire/verify", {"board": "xoxo", "moves": ["0-1", "3-2"], "graph": "cycle:4"}),
    ("grundy/value", {"board": "xoxo"}),
    ("grundy/value", {"board": "xo_oxx"}),
    ("grundy/value", {"board": "xox/oxo/xox"}),
    ("grundy/value", {"board": "xoxoxo", "graph": "cycle:6"}),
    ("clobber/value", {"board": "xxo"}),
    ("clobber/value", {"board": "xoxo/oxox"}),
    ("clobber/value", {"board": "xoxoxo", "graph": "cycle:6"}),
    ("clobber/value", {"board": "xxoo.xo/o.xxo.x"}),
    ("clobber/solve", {"board": "xoxo/oxox", "first": "white"}),
    ("clobber/solve", {"board": "xoxo/oxox/xoxo", "first": "black"}),
    ("clobber/solve", {"board": "xoxoxo", "first": "white", "graph": "cycle:6"}),
    ("cgt/value", {"expr": "{0|^}"}),
    ("cgt/value", {"expr": "^ + v + 1/2"}),
    ("cgt/value", {"expr": "{2|1}"}),
    ("cgt/value", {"expr": "*99999999"}),
    ("cgt/compare", {"g": "{0|*}", "h": "^"}),
    ("cgt/compare", {"g": "^*", "h": "0"}),
    ("cgt/compare", {"g": "1", "h": "*"}),
    ("clickomania/solve", {"board": "1212/1122/2211"}),
    ("clickomania/solve", {"board": "121/212/121", "maximize": True}),
    ("clickomania/solve", {"board": "12/34"}),
    ("clickomania/column", {"board": "1221"}),
    ("clickomania/column", {"board": "1/2/2/1/2/2/1", "method": "two-color"}),
    ("clickomania/column", {"board": "1213312", "method": "brute", "time_limit": 30}),
    ("samegame/play", {"board": "1122/2211", "max_playouts": 100}),
    ("samegame/play", {"board": "112233/223311/331122", "max_playouts": 200, "seed": 3}),
    ("samegame/play", {"board": "1122/2211", "max_playouts": 50, "left_penalty": "60,0"}),
]

_POSITIONAL = ("board", "expr", "g", "h")


def cli_argv(name: str, body: dict) -> list[str]:
    """The command line of the request ``body``: positional board/expr/g/h and moves,
    then each other key as its long option (a true bool as a flag)."""
    argv = name.split("/") + [body[k] for k in _POSITIONAL if k in body]
    argv += body.get("moves", [])
    for key, value in body.items():
        if key in _POSITIONAL or key == "moves" or value is False:
            continue
        argv.append("--" + key.replace("_", "-"))
        if value is not True:
            argv.append(str(value))
    return argv + ["--json"]


def without_timing(obj):
    """``obj`` less the keys of api.TIMING_KEYS, at every depth, and with the node count
    of a proof sentence blanked (the transposition table lives on between calls)."""
    if isinstance(obj, dict):
        return {k: re.sub(r"[\d,]+ nodes", "N nodes", v) if k == "proof" and
                isinstance(v, str) else without_timing(v)
                for k, v in obj.items() if k not in api.TIMING_KEYS}
    if isinstance(obj, list):
        return [without_timing(v) for v in obj]
    return obj


def test_every_verb_is_an_endpoint_and_is_exercised_here():
    names = {"solitaire/solve", "solitaire/verify", "grundy/value", "clobber/value",
             "clobber/solve", "cgt/value", "cgt/compare", "clickomania/solve",
             "clickomania/column", "samegame/play"}
    assert set(verbs.ENDPOINTS) == names
    assert {name for name, _ in CASES} == names
    for name in names:
        ep = api.endpoint(name)
        assert ep.heavy and ep.doc
        assert ep.timed == (name != "solitaire/verify")
        assert not set(ep.params) & set(api.REFUSED_KEYS)


@pytest.mark.parametrize("name, body", CASES, ids=[f"{n}:{json.dumps(b)}" for n, b in CASES])
def test_the_api_answers_what_the_cli_prints(capsys, name, body):
    code, out, err = run_cli(capsys, *cli_argv(name, body))
    assert code in (0, 1), err
    printed = json.loads(out)
    answer = api.call(name, body)
    assert without_timing(answer) == without_timing(printed)
    # the same keys in the same order, less the server path of a row database
    assert list(answer) == [k for k in printed if k != "db"]
    if name == "solitaire/verify":
        # an illegal sequence: exit 1 on the command line, an answer (HTTP 200) on the web
        assert code == (0 if printed["valid"] else 1)
        fn = verbs.solitaire_verify(**body, web=True)
        assert fn.exit_code == code and fn.obj["valid"] == printed["valid"]


def test_a_verify_of_an_illegal_sequence_is_an_answer_with_valid_false():
    answer = api.call("solitaire/verify", {"board": "xoxo", "moves": ["a1-b1", "a1-b1"]})
    assert answer["valid"] is False and answer["moves_played"] == 1
    assert answer["error"] == "move 2: move a1-b1 is illegal: a1 is empty"


def test_the_cli_keeps_the_database_path_the_api_drops_it(capsys):
    code, out, _ = run_cli(capsys, "grundy", "value", "xoxo", "--json")
    assert code == 0 and "db" in json.loads(out)
    assert "db" in verbs.grundy_value(board="xoxo").obj
    assert "db" not in api.call("grundy/value", {"board": "xoxo"})


#: (endpoint, body): bad input the API refuses with the CLI's sentence.
BAD = [
    ("solitaire/solve", {"board": "xo?o"}),
    ("solitaire/solve", {"board": "xoxo", "graph": "cycle:5"}),
    ("solitaire/solve", {"board": "xoxo", "first": "green"}),
    ("solitaire/verify", {"board": "xoxo", "moves": ["a1-b1", "zz"]}),
    ("grundy/value", {"board": "xoxo", "graph": "tree:0,5"}),
    ("clobber/solve", {"board": "xoxo", "first": "red"}),
    ("cgt/value", {"expr": "{0|"}),
    ("cgt/value", {"expr": "{" * 300 + "0|" + "}" * 300}),
    ("cgt/compare", {"g": "x", "h": "*"}),
    ("clickomania/solve", {"board": "1x?"}),
    ("clickomania/column", {"board": "1221", "method": "greedy"}),
    ("samegame/play", {"board": "1122/2211", "restarts": 0}),
    ("samegame/play", {"board": "1122/2211", "left_penalty": "60,-1"}),
]


@pytest.mark.parametrize("name, body", BAD, ids=[f"{n}:{json.dumps(b)[:40]}" for n, b in BAD])
def test_bad_input_is_refused_with_the_cli_sentence(capsys, name, body):
    with pytest.raises(ClobbermaniaError) as exc:
        api.call(name, body)
    sentence = str(exc.value)
    assert "\n" not in sentence
    code, out, err = run_cli(capsys, *cli_argv(name, body))
    if code == 2 and "Invalid value" not in err:   # the CLI's own check, not click's
        assert err.strip() == f"error: {sentence}"
    else:
        assert code == 2 and out == ""


def test_option_sentences_name_the_json_key_on_the_web():
    with pytest.raises(ClobbermaniaError, match=r"^left_penalty takes whole numbers"):
        api.call("samegame/play", {"board": "1122/2211", "left_penalty": "6x"})
    with pytest.raises(ClobbermaniaError, match=r"^max_playouts must be between 1 and"):
        api.call("samegame/play", {"board": "1122/2211", "max_playouts": 0})
    with pytest.raises(ClobbermaniaError, match=r"^node_limit must be at least 0, not -1"):
        api.call("solitaire/solve", {"board": "xoxo", "node_limit": -1})
    with pytest.raises(ClobbermaniaError, match=r"^time_limit must be a positive number"):
        verbs.clobber_value(board="xo", time_limit=-1.0, web=True)


@pytest.mark.parametrize("key, value", [("db", "/tmp"), ("svg", "out.svg"), ("workers", 2),
                                        ("threads", 2), ("jobs", 2)])
def test_keys_naming_files_or_processes_are_refused(key, value):
    with pytest.raises(api.RequestError, match=f"the key '{key}' is not accepted by the API"):
        api.call("samegame/play", {"board": "1122/2211", key: value})
    with pytest.raises(api.RequestError, match=f"the key '{key}' is not accepted"):
        api.call("grundy/value", {"board": "xoxo", key: value})


@pytest.mark.parametrize("name", ["solitaire/solve", "grundy/value", "clickomania/solve",
                                  "samegame/play", "clickomania/column"])
def test_standard_input_is_refused(name):
    with pytest.raises(api.RequestError, match=r"standard input"):
        api.call(name, {"board": "-"})
    if name != "clickomania/column":
        with pytest.raises(api.RequestError, match=r"standard input"):
            getattr(verbs, name.replace("/", "_"))(board="-", web=True)


def test_a_graph_file_is_read_by_the_cli_and_refused_by_the_api(capsys, tmp_path):
    edges = tmp_path / "square.txt"
    edges.write_text("0 1\n1 2\n2 3\n3 0\n")
    code, out, _ = run_cli(capsys, "clobber", "solve", "xoxo", "--first", "black",
                           "--graph", str(edges), "--json")
    assert code == 0 and json.loads(out)["winner"] in ("black", "white")
    sentence = "graph must be a built-in spec such as cycle:6; the API reads no files"
    for name in ("clobber/solve", "solitaire/solve", "solitaire/verify", "grundy/value",
                 "clobber/value"):
        body = {"board": "xoxo", "graph": str(edges)}
        if name == "clobber/solve":
            body["first"] = "black"
        with pytest.raises(api.RequestError) as exc:
            api.call(name, body)
        assert str(exc.value) == sentence
    # a spec that is neither built in nor an existing file is refused the same way
    with pytest.raises(api.RequestError, match="built-in spec"):
        api.call("grundy/value", {"board": "xoxo", "graph": "nosuch.txt"})


def test_a_board_naming_a_file_is_read_by_the_cli_only(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board-1").write_text("1212\n1122\n2211\n")
    code, out, _ = run_cli(capsys, "clickomania", "solve", "board-1", "--json")
    assert code == 0 and json.loads(out)["solvable"] is True
    for name in ("clickomania/solve", "samegame/play"):
        with pytest.raises(ClobbermaniaError, match="^bad character .-. at f1"):
            api.call(name, {"board": "board-1"})


@pytest.mark.parametrize("body, sentence", [
    ({"board": "xoxo", "depth": 3}, "unknown key 'depth' for grundy/value"),
    ({"board": 12}, "board must be a string for grundy/value, not a number"),
    ({"board": "xoxo", "time_limit": "5"}, "time_limit must be a number"),
    ({"board": "xoxo", "graph": ["cycle:4"]}, "graph must be a string"),
    ({}, "grundy/value needs the key 'board'"),
    (["xoxo"], "must be a JSON object"),
])
def test_unknown_keys_and_wrong_types_are_refused(body, sentence):
    with pytest.raises(api.RequestError, match=sentence):
        api.call("grundy/value", body)


def test_wrong_types_of_the_other_verbs():
    for name, body in [("solitaire/verify", {"board": "xoxo", "moves": "a1-b1"}),
                       ("solitaire/verify", {"board": "xoxo", "moves": [1, 2]}),
                       ("solitaire/solve", {"board": "xoxo", "free": "yes"}),
                       ("samegame/play", {"board": "12", "seed": 1.5}),
                       ("cgt/compare", {"g": "1"})]:
        with pytest.raises(api.RequestError):
            api.call(name, body)


def test_the_server_time_limit_caps_the_request(capsys):
    api.call("clobber/solve", {"board": "xoxo", "first": "black"})   # warm the kernels
    api.call("grundy/value", {"board": "xox/oxo"})
    t0 = time.perf_counter()
    answer = api.call("clobber/solve", {"board": HARD_CLOBBER, "first": "black",
                                        "time_limit": 1000}, max_time_limit=0.5)
    assert time.perf_counter() - t0 < 2.5
    assert answer["exact"] is False and answer["winner"] is None
    t0 = time.perf_counter()
    answer = api.call("grundy/value", {"board": HARD_CLOBBER}, max_time_limit=0.3)
    assert time.perf_counter() - t0 < 2.5
    assert answer["exact"] is False and answer["grundy"] is None
    # a canonical form has no partial answer: running out is the CLI's error
    t0 = time.perf_counter()
    with pytest.raises(ClobbermaniaError, match=r"^the time limit of 0.3 s was reached"):
        api.call("cgt/value", {"expr": "{1|*} + *250", "time_limit": 60}, max_time_limit=0.3)
    assert time.perf_counter() - t0 < 1.5


# --- red team (issue 26): numbers past a float's range --------------------------------------

def test_a_time_limit_past_a_floats_range_is_one_sentence() -> None:
    # JSON allows 10**400 as an integer: float() of it raised OverflowError (HTTP 500)
    for name, body in [("solitaire/solve", {"board": "xoxo"}), ("cgt/value", {"expr": "*"}),
                       ("clobber/reply", {"board": "xo"})]:
        with pytest.raises(api.RequestError, match="time_limit must be a finite number"):
            api.call(name, {**body, "time_limit": 10**400}, max_time_limit=1.0)


def test_a_huge_penalty_is_refused_in_a_short_sentence() -> None:
    with pytest.raises(ClobbermaniaError) as info:
        api.call("samegame/play", {"board": "1122/2211", "left_penalty": 10**400})
    assert "between 0 and 1,000,000,000" in str(info.value) and len(str(info.value)) < 120


def test_a_bad_first_colour_is_refused_under_sc2_too() -> None:
    # free (SC2) skipped the check: {"free": true, "first": "bogus"} was answered
    for name, body in [("solitaire/solve", {"board": "xoxo"}),
                       ("solitaire/verify", {"board": "xoxo", "moves": ["a1-b1"]}),
                       ("solitaire/state", {"board": "xoxo"})]:
        with pytest.raises(ClobbermaniaError, match="unknown first colour 'bogus'"):
            api.call(name, {**body, "free": True, "first": "bogus"})
        assert api.call(name, {**body, "free": True, "first": "white"})


def test_a_key_that_is_not_a_string_is_named() -> None:
    # api.call takes any dict: an int key raised TypeError (len of an int)
    with pytest.raises(api.RequestError, match=r"^unknown key '1' for clobber/state"):
        api.call("clobber/state", {1: "x", "board": "xo"})
