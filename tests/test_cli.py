"""The command-line contract: JSON fields, exit codes, one-sentence errors."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from cli_runner import run_cli as run

from clobbermania.solitaire.theory import one_d_value


def run_json(capsys, *args):
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("clobbermania ")


def test_solve_json_fields_and_verify_roundtrip(capsys):
    board = "xoxoxo/oxoxox/xoxoxo/oxoxox/xoxoxo/oxoxox"
    d = run_json(capsys, "solitaire", "solve", board, "--first", "white")
    for key in ("stones_left", "moves", "exact", "proof", "first", "nodes", "seconds"):
        assert key in d
    assert d["stones_left"] == 2 and d["exact"] is True and d["first"] == "white"
    assert d["proof"].startswith("delta invariant")
    v = run_json(capsys, "solitaire", "verify", board, *d["moves"], "--first", "white")
    assert v["valid"] is True and v["stones_left"] == 2


def test_solve_row_by_search(capsys):
    d = run_json(capsys, "solitaire", "solve", "xo" * 7 + "x", "--first", "black",
                 "--no-theorems")
    assert d["stones_left"] == one_d_value(15) == 5 and d["exact"]
    assert d["proof"].startswith("exhaustive search")


def test_solve_graph_specs(capsys):
    d = run_json(capsys, "solitaire", "solve", "xoxoxxoo", "--graph", "hypercube:3", "--free")
    assert d["stones_left"] == 2 and d["exact"]
    assert all("-" in m and m.replace("-", "").isdigit() for m in d["moves"])
    v = run_json(capsys, "solitaire", "verify", "xoxoxxoo", *d["moves"], "--graph",
                 "hypercube:3", "--free")
    assert v["valid"] and v["stones_left"] == 2
    # K_5 with 3 black, 2 white under alternation: the graph numbering is 0..4
    d = run_json(capsys, "solitaire", "solve", "xxxoo", "--graph", "complete:5")
    assert d["stones_left"] == 1


def test_edge_list_file(capsys, tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("# a path 10-20-30-40\n10 20\n20 30\n30 40\n")
    d = run_json(capsys, "solitaire", "solve", "xoxo", "--graph", str(f), "--free")
    assert d["stones_left"] == 1
    assert all(part in {"10", "20", "30", "40"} for m in d["moves"] for part in m.split("-"))


def test_verify_invalid_exits_1(capsys):
    code, out, _ = run(capsys, "solitaire", "verify", "xoxo", "a1-b1", "c1-d1", "--json")
    d = json.loads(out)
    assert code == 1 and d["valid"] is False and "c1-d1" in d["error"]
    # two black moves are fine without alternation
    d = run_json(capsys, "solitaire", "verify", "xoxo", "a1-b1", "c1-d1", "--free")
    assert d["valid"] is True and d["stones_left"] == 2


@pytest.mark.parametrize("args, needle", [
    (["solitaire", "solve", "xo/oq"], "'q' at row 2, column 2"),
    (["solitaire", "solve", "xo/oxo"], "row 2"),
    (["solitaire", "solve", "xo", "--graph", "cycle:2"], "cycle"),
    (["solitaire", "solve", "xox", "--graph", "path:4"], "4 vertices"),
    (["solitaire", "solve", "xo", "--time-limit", "-1"], "--time-limit"),
    (["solitaire", "solve", "xo", "--time-limit", "inf"], "--time-limit"),
    (["clobber", "value", "xo", "--time-limit", "1e400"], "--time-limit"),
    (["clickomania", "solve", "12/12", "--time-limit", "nan"], "--time-limit"),
    (["solitaire", "solve", "xo", "--first", "red"], "--first"),
    (["solitaire", "verify", "xoxo", "a1-q7"], "q7"),
    (["solitaire", "verify", "xoxo", "a1b1"], "a1b1"),
    (["solitaire", "solve", "xxo" * 30], "64 squares"),
    (["reproduce", "nosuch"], "nosuch"),
    (["nosuch"], "nosuch"),
])
def test_bad_input_one_sentence_exit_2(capsys, args, needle):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err


def test_time_limit_returns_bounds(capsys):
    d = run_json(capsys, "solitaire", "solve", "xoxoxoxo/" * 7 + "xoxoxoxo", "--first", "black",
                 "--time-limit", "0.3")
    assert d["lower_bound"] <= d["stones_left"]
    v = run_json(capsys, "solitaire", "verify", "xoxoxoxo/" * 7 + "xoxoxoxo", *d["moves"],
                 "--first", "black")
    assert v["valid"] and v["stones_left"] == d["stones_left"]


def test_svg_output(capsys, tmp_path):
    f = tmp_path / "w.svg"
    code, out, err = run(capsys, "solitaire", "solve", "xoxo/oxox", "--svg", str(f))
    assert code == 0, err
    root = ET.parse(f).getroot()
    assert root.tag.endswith("svg")


def test_reproduce_solitaire_json(capsys):
    d = run_json(capsys, "reproduce", "solitaire")
    names = [c["name"] for c in d["claims"]]
    assert sum(n.startswith("Table 1") for n in names) == 24
    assert sum(n.startswith("Theorem 5: ") for n in names) == 25
    assert sum(n.startswith("Theorem 5 constructively") for n in names) == 8
    assert all(c["pass"] for c in d["claims"]) and d["failed"] == 0


def test_console_script_error_has_no_traceback():
    exe = [sys.executable, "-c", "from clobbermania.cli import main; main()"]
    p = subprocess.run([*exe, "solitaire", "solve", "xz"], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stdout == ""


def test_reproduce_statuses_and_exit_code(capsys, monkeypatch):
    """DIFF (the paper contradicted) and INFO claims do not fail the run; FAIL does."""
    from clobbermania.reproduce import REGISTRY, Claim

    def group(bad):
        def claims():
            yield Claim("agrees", 1, 1, True)
            yield Claim("paper wrong", 2, "differs: 3", False, status="differs")
            yield Claim("nothing published", "not available", 5, True, status="report")
            if bad:
                yield Claim("ours wrong", 1, 2, False)
        return claims

    monkeypatch.setitem(REGISTRY, "fake-ok", group(False))
    monkeypatch.setitem(REGISTRY, "fake-bad", group(True))
    code, out, err = run(capsys, "reproduce", "fake-ok", "--json")
    data = json.loads(out)
    assert code == 0 and (data["passed"], data["failed"], data["differs"]) == (1, 0, 1)
    assert [c["status"] for c in data["claims"]] == ["pass", "differs", "report"]
    code, out, err = run(capsys, "reproduce", "fake-bad")
    assert code == 1 and "DIFF" in out and "INFO" in out and "FAIL" in out
    with pytest.raises(ValueError):
        Claim("x", 1, 1, True, status="maybe")


def test_clobber_solve_winner_only_names_one_of_the_winning_moves(capsys):
    board = "xoxoxox/oxoxoxo/xoxoxox"
    full = run_json(capsys, "clobber", "solve", board, "--first", "black")
    one = run_json(capsys, "clobber", "solve", board, "--first", "black", "--winner-only")
    assert one["winner"] == full["winner"] == "black" and one["winner_only"] is True
    assert len(one["winning_moves"]) == 1 and one["winning_moves"][0] in full["winning_moves"]
    assert len(full["winning_moves"]) > 1 and one["nodes"] < full["nodes"]
    lost = run_json(capsys, "clobber", "solve", "xoxoxo/oxoxox/xoxoxo", "--first", "black",
                    "--winner-only")
    assert lost["winner"] == "white" and lost["winning_moves"] == []
