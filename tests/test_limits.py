"""No input can exhaust the machine (issue 25, docs/limits.md): every size argument has a
stated cap, refused with one sentence and exit 2; every search with a time limit answers
within it (CPU time, with slack: the machine may be loaded); one memory bound for all."""

import io
import json
import resource
import time

import pytest
from cli_runner import run_cli

from clobbermania import limits
from clobbermania.clobber import impartial
from clobbermania.clobber.families import family
from clobbermania.stones import BLACK, WHITE, Position

#: Allowed CPU seconds past a time limit: the 10 % plus half a second of docs/limits.md,
#: and as much again for the process's own start-up work in the call (parsing, tables).
SLACK = 1.5


def cpu_run(capsys, *args):
    """(exit code, stdout, stderr, CPU seconds) of ``clobbermania ARGS`` in this process."""
    c0 = time.process_time()
    code, out, err = run_cli(capsys, *args)
    return code, out, err, time.process_time() - c0


def refused(capsys, *args, words=()):
    """The command exits 2 with one ``error:`` sentence holding every one of ``words``."""
    code, out, err = run_cli(capsys, *args)
    assert code == 2, (args, code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# -- the memory bound --------------------------------------------------------------------

def test_memory_bound_is_forty_percent_of_physical_memory():
    # the machine's memory read independently: MemTotal of /proc/meminfo (a little less
    # than the physical pages, which include what the kernel keeps)
    with open("/proc/meminfo", encoding="ascii") as fh:
        total = next(int(line.split()[1]) * 1024 for line in fh
                     if line.startswith("MemTotal:"))
    assert 0.4 * total * 0.999 <= limits.memory_bound() <= 0.4 * total * 1.1
    assert 0 <= limits.memory_room() <= limits.memory_bound()


def test_cli_runs_under_the_address_space_bound(capsys):
    code, _, _ = run_cli(capsys, "clobber", "perft", "xo", "--depth", "1", "--first", "black")
    assert code == 0
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    assert soft != resource.RLIM_INFINITY and soft <= limits.memory_bound()


def test_grundy_memo_sized_under_the_bound():
    solver = impartial.GrundySolver()
    assert solver.memo_limit * impartial.MEMO_ENTRY_BYTES <= max(
        limits.memory_bound(), 1_000_000 * impartial.MEMO_ENTRY_BYTES)


def test_memory_error_is_one_sentence(capsys, monkeypatch):
    import clobbermania.cli.clobber_solve as cs

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cs, "perft_counts", exhausted)
    refused(capsys, "clobber", "perft", "xo", "--depth", "1", "--first", "black",
            words=("memory bound", "GiB"))


# -- clobber perft ---------------------------------------------------------------------------

def _brute_perft(p: Position, color: int, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(q, c, d):
        if d == depth:
            return
        for m in q.moves(c):
            counts[d] += 1
            walk(q.play(m, c), WHITE if c == BLACK else BLACK, d + 1)

    walk(p, color, 0)
    return counts


def test_perft_depth_capped(capsys):
    refused(capsys, "clobber", "perft", "xoxo/oxox", "--depth", "1000000", "--first", "black",
            words=("--depth", "64", "1000000"))


def test_perft_stops_where_the_counts_reach_zero(capsys):
    code, out, _ = run_cli(capsys, "clobber", "perft", "xoxo/oxox", "--depth", "64",
                           "--first", "black", "--json")
    assert code == 0
    d = json.loads(out)
    brute = _brute_perft(Position.from_string("xoxo/oxox"), BLACK, 8)
    assert brute[-1] == 0 and d["counts"] == brute[:brute.index(0)] and d["exact"]


def test_perft_time_limit(capsys):
    limit = 1.0
    code, out, _, cpu = cpu_run(capsys, "clobber", "perft", "xoxoxo/oxoxox/xoxoxo/oxoxox",
                                "--depth", "30", "--first", "black", "--time-limit",
                                str(limit), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["exact"] is False and cpu <= limit * 1.1 + SLACK
    # the lengths it reports are finished: the first three against the brute force
    assert d["counts"][:3] == _brute_perft(Position.checkerboard(4, 6), BLACK, 3)


# -- time limits of the searches ---------------------------------------------------------

BOARD_3X20 = "/".join(("xo" * 10, "ox" * 10, "xo" * 10))


def test_clobber_value_time_limit_on_3x20(capsys):
    limit = 2.0
    code, out, _, cpu = cpu_run(capsys, "clobber", "value", BOARD_3X20, "--time-limit",
                                str(limit), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["exact"] is False and d["value"] is None
    assert cpu <= limit * 1.1 + SLACK


@pytest.mark.parametrize("verb", [["grundy", "value"], ["clobber", "value"]])
def test_value_time_limit_on_a_long_row(capsys, monkeypatch, verb):
    # 8,192 stones: every move of the row copies it (the clock is read at every one)
    monkeypatch.setattr("sys.stdin", io.StringIO("xo" * 4096))
    limit = 1.0
    code, out, _, cpu = cpu_run(capsys, *verb, "-", "--time-limit", str(limit), "--json")
    assert code == 0
    assert json.loads(out)["exact"] is False
    assert cpu <= limit * 1.1 + SLACK


def test_grundy_family_time_limit(capsys):
    limit = 0.5
    code, out, _, cpu = cpu_run(capsys, "grundy", "family", "ox", "--to", "1000000",
                                "--time-limit", str(limit), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["exact"] is False and d["requested"] == 1000000 and 0 < d["n"] < 1000000
    assert cpu <= limit * 1.1 + SLACK
    # the values it reports are finished ones
    assert d["values"][:200] == family("ox", 200).values


# -- caps on sizes -------------------------------------------------------------------------

def test_clickomania_hardness_caps(capsys):
    refused(capsys, "clickomania", "hardness", "3partition",
            "1000000,1000000,1000001,1000000,1000000,1000001",
            words=("36,000,026 rows", "20,000"))
    refused(capsys, "clickomania", "hardness", "3partition", "1" + "0" * 40 + ",1,1",
            words=("18 digits",))
    refused(capsys, "clickomania", "hardness", "3sat", "1,2,3;-1,2,4;2,-3,-4;1,4;-1,-2,5",
            words=("11,184 rows", "8,000"))


@pytest.mark.parametrize("spec, words", [
    ("hamming:1000,1000", ("1,000,000 vertices", "16,384")),
    ("hypercube:60", ("2^60", "16,384")),
    ("complete:2000", ("1,999,000 edges", "131,072")),
    ("cycle:100000", ("100,000 vertices", "16,384")),
    ("path:" + "9" * 5000, ("expected integers",)),
    ("clique:100000", ("unknown graph kind",)),
])
def test_graph_spec_caps(capsys, spec, words):
    refused(capsys, "solitaire", "solve", "x", "--graph", spec, words=words)


def test_board_squares_capped(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("/".join(["xo" * 64] * 129)))
    refused(capsys, "grundy", "value", "-", words=("129x128", "16,384"))


def test_solitaire_reduce_capped(capsys):
    refused(capsys, "solitaire", "reduce", "100000x100000", words=("1,000,000",))


def test_clickomania_board_caps(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("/".join(["12" * 16] * 33)))
    refused(capsys, "clickomania", "value", "-", words=("1,024 cells", "33x32"))
    refused(capsys, "samegame", "play", "/".join(["12" * 25] * 51), "--time-limit", "1",
            words=("2,500 cells",))
    refused(capsys, "clickomania", "solve", "/".join(["12" * 50] * 101),
            words=("10,000 cells",))


def test_samegame_process_caps(capsys):
    refused(capsys, "samegame", "play", "1122", "--workers", "1000", "--time-limit", "1",
            words=("--workers", "64"))
    refused(capsys, "samegame", "bench", "--jobs", "1000", words=("--jobs",))


def test_formula_and_grid_graph_caps(capsys, tmp_path):
    cnf = tmp_path / "big.cnf"
    cnf.write_text("p cnf 1000000000 1\n1 -999999999 0\n")
    refused(capsys, "clickomania", "hardness", "3sat", str(cnf),
            words=("999,999,999", "1,000,000"))
    refused(capsys, "solitaire", "hardness", "/".join(["#" * 65] * 64),
            words=("4,160 nodes", "4,096"))


def test_clobber_solve_row_cap_and_time_limit(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("xo" * 2048))
    refused(capsys, "clobber", "solve", "-", "--first", "white", words=("512", "4,096"))
    limit = 1.0
    code, out, _, cpu = cpu_run(capsys, "clobber", "solve", "xo" * 256, "--first", "white",
                                "--time-limit", str(limit), "--json")
    assert code == 0 and json.loads(out)["exact"] is False
    assert cpu <= limit * 1.1 + SLACK


def test_polynomial_solitaire_algorithms_capped(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("xo" * 500))
    refused(capsys, "solitaire", "solve", "-", "--graph", "cycle:1000", "--free",
            words=("400", "1,000"))
    monkeypatch.setattr("sys.stdin", io.StringIO("xo" * 8192))
    star = "tree:" + ",".join(["0"] * 16383)
    refused(capsys, "solitaire", "solve", "-", "--graph", star, "--free",
            words=("268,435,456", "30,000,000"))


def test_samegame_penalty_capped(capsys):
    refused(capsys, "samegame", "play", "1122/2211", "--left-penalty", "9" * 30,
            "--time-limit", "1", words=("1,000,000,000",))


def test_family_root_capped(capsys):
    refused(capsys, "grundy", "family", "xxxoxooxxxoooo", "--to", "3",
            words=("14 stones", "12"))


def test_family_length_capped_and_default_time_limit(capsys):
    refused(capsys, "grundy", "family", "ox", "--to", "9" * 300,
            words=("16,777,215 stones", "8,388,607 repetitions", "300 digits"))
    refused(capsys, "grundy", "family", "xoxxo", "--to", "3355444",
            words=("3,355,443 repetitions",))
    # without --time-limit a long family stops at the stated default (docs/limits.md)
    from clobbermania.cli.grundy_family import DEFAULT_TIME_LIMIT, family_cmd

    option = next(p for p in family_cmd.params if p.name == "time_limit")
    assert option.default == DEFAULT_TIME_LIMIT == 60.0


# -- the contract of exit 2: one line, one sentence (the fuzz's findings) ----------------

def test_missing_choice_option_is_one_line(capsys):
    # click's own message for a missing Choice option spans three lines
    refused(capsys, "clobber", "perft", "o.", "--depth", "4",
            words=("--first", "black, white"))
    refused(capsys, "clobber", "solve", "xo", "--time-limit", "1", words=("--first",))


def test_playout_and_node_limits_capped(capsys):
    # 300 nines once overflowed the float comparison of the playout budget
    refused(capsys, "samegame", "play", "/".join("0" * 20), "--max-playouts", "9" * 300,
            words=("1,000,000,000,000,000",))
    code, out, err = run_cli(capsys, "samegame", "play", "0/0", "--max-playouts",
                             str(10 ** 15), "--json")
    assert code == 0 and json.loads(out)["score"] > 0, err
    refused(capsys, "solitaire", "solve", "xoxo", "--node-limit", "-1",
            words=("--node-limit",))


def test_mcgs_case_past_a_cap_is_counted_and_the_run_goes_on(capsys, tmp_path):
    f = tmp_path / "big.test"
    f.write_text("[clobber_1xn]\nXOXO {B win}\n" + "XO" * 300 + " {B win}\n"
                 "XOXOXO {B loss}\n")
    code, out, err = run_cli(capsys, "mcgs", "run", str(f), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert (d["passed"], d["failed"], d["timeouts"], d["refused"]) == (2, 0, 0, 1)
    refused_case = next(c for c in d["cases"] if c["status"] == "refused")
    assert refused_case["line"] == 3 and "512 stones" in refused_case["reason"]
    code, out, _ = run_cli(capsys, "mcgs", "run", str(f))
    assert code == 0 and "REFUSED big.test:3" in out and "1 refused" in out


def test_mcgs_syntax_error_quotes_one_bounded_line(capsys, tmp_path):
    f = tmp_path / "a.test"
    f.write_text("{version 1.7c\n[clobber_1xn]\nXOXO {B win}\n" + "XO" * 100 + " {B win}\n")
    line = refused(capsys, "mcgs", "run", str(f), words=("a.test:1", "{version X.Y}"))
    assert len(line) < 160, line


def test_svg_of_a_long_witness_is_drawn_as_snapshots(capsys, tmp_path):
    """A 1x2048 row's witness has 1,536 moves: the picture draws only as many boards as
    render.svg.MAX_DRAWN_SQUARES allows (the first and last move among them)."""
    from clobbermania.render.svg import MAX_DRAWN_SQUARES

    svg = tmp_path / "row.svg"
    code, out, _ = run_cli(capsys, "solitaire", "solve", "xo" * 1024, "--time-limit", "5",
                           "--svg", str(svg), "--json")
    assert code == 0 and json.loads(out)["stones_left"] == 512    # ceil(n/4), Theorem 1
    text = svg.read_text()
    boards = text.count('<g class="board"')
    assert 2 < boards <= MAX_DRAWN_SQUARES // 2048
    assert ">start<" in text and ">1536. " in text and ">1. " in text


def test_refused_picture_leaves_the_file_and_refuses_before_the_search(capsys, tmp_path):
    svg = tmp_path / "keep.svg"
    svg.write_text("precious")
    start = time.process_time()
    code, _, err = run_cli(capsys, "clickomania", "hardness", "3partition",
                           ",".join(["33", "33", "62"] * 5), "--solve", "--time-limit", "30",
                           "--svg", str(svg))
    assert code == 2 and err.startswith("error: ") and "too large to draw" in err
    assert time.process_time() - start < 20          # refused before the 30 s search
    assert svg.read_text() == "precious"


# -- red-team findings F1, F4, F5, F7, F8 (issue 25 §2) ------------------------------------

def test_long_board_texts_are_refused_before_parsing(capsys, monkeypatch, tmp_path):
    """A board text past the read caps is refused at once, from stdin, a file or inline."""
    from clobbermania.clickomania.rules import MAX_BOARD_TEXT, Board
    from clobbermania.errors import UnsupportedError
    from clobbermania.stones import MAX_BOARD_SQUARES
    big = "x" * (MAX_BOARD_TEXT + 10)
    monkeypatch.setattr("sys.stdin", io.StringIO(big))
    c0 = time.process_time()
    refused(capsys, "clobber", "value", "-", "--time-limit", "1",
            words=("65,536 characters", f"{MAX_BOARD_SQUARES:,} squares"))
    monkeypatch.setattr("sys.stdin", io.StringIO(big))
    refused(capsys, "clickomania", "value", "-", "--time-limit", "1",
            words=("1,048,576 characters",))
    f = tmp_path / "big.txt"
    f.write_text(big)
    refused(capsys, "clickomania", "solve", str(f), "--time-limit", "1",
            words=("big.txt", "1,048,576"))
    # rows x columns past the largest search cap: refused before the grid is built
    refused(capsys, "clickomania", "solve", "1" * 200_000, words=("1x200000", "10,000 cells"))
    assert time.process_time() - c0 < 2.0
    with pytest.raises(UnsupportedError):
        Board.from_string(big)
    # the column verb, whose board is one long row, keeps its own caps below the text cap
    assert Board.from_string("12" * 20_000).width == 40_000


def test_row_database_manifest_damage_is_one_sentence(capsys, tmp_path):
    """A manifest that is JSON but not an object, a file name leaving the directory, or an
    entry whose file is gone: one sentence each; a build drops the entry without a file."""
    from clobbermania.clobber.rowdb import build_database
    db = tmp_path / "db"
    build_database(db, max_stones=6, jobs=1)
    manifest = db / "manifest.json"
    good = json.loads(manifest.read_text())
    for text in ("[1, 2]", '"x"'):
        manifest.write_text(text)
        refused(capsys, "grundy", "stats", "--db", str(db), words=("not a version-",))
        refused(capsys, "grundy", "value", "xoxoxo", "--db", str(db), words=("manifest",))
    escaping = json.loads(json.dumps(good))
    escaping["lengths"][0]["file"] = "../../../../etc/passwd"
    manifest.write_text(json.dumps(escaping))
    refused(capsys, "grundy", "stats", "--db", str(db), words=("not a file name inside",))
    orphan = json.loads(json.dumps(good))
    orphan["lengths"].append({**good["lengths"][-1], "length": 40, "file": "rows40.u8"})
    manifest.write_text(json.dumps(orphan))
    refused(capsys, "grundy", "stats", "--db", str(db), words=("rows40.u8", "missing"))
    build_database(db, max_stones=6, jobs=1)
    assert json.loads(manifest.read_text())["lengths"] == good["lengths"]
    code, out, err = run_cli(capsys, "grundy", "value", "xoxoxo", "--db", str(db), "--json")
    assert code == 0, err


def test_files_that_are_not_utf8_are_one_sentence(capsys, tmp_path):
    """An mcgs test file, a board file or a DIMACS file with a byte that is not UTF-8:
    one sentence, exit 2 (the first two name the file and the byte's offset)."""
    t = tmp_path / "bin.test"
    t.write_bytes(b"{version 1.7}\n[clobber_1xn]\nXO\xff\x00 {B win}\n")
    refused(capsys, "mcgs", "run", str(t), "--time-limit", "1", "--json",
            words=("bin.test", "not UTF-8", "byte 30 is 0xff"))
    b = tmp_path / "b.txt"
    b.write_bytes(b"12\xff/2100\n")
    refused(capsys, "clickomania", "solve", str(b), words=("b.txt", "not UTF-8", "byte 2"))
    d = tmp_path / "d.cnf"
    d.write_bytes(b"p cnf 1 1\n1 \xff0\n")
    refused(capsys, "clickomania", "hardness", "3sat", str(d), words=("not UTF-8",))


def test_mcgs_file_size_cap_and_bounded_echo_of_a_refused_board(capsys, tmp_path,
                                                                monkeypatch):
    """A .test file past the cap is refused unread; a game too long for any board is
    refused as a case at once, and its board is echoed in at most 83 characters."""
    from clobbermania.clobber import mcgs
    f = tmp_path / "huge.test"
    f.write_text("[clobber_1xn]\n" + "XO" * 1_000_000 + " {B win}\nXOXO {B win}\n")
    c0 = time.process_time()
    code, out, err = run_cli(capsys, "mcgs", "run", str(f), "--time-limit", "1", "--json")
    assert code == 0, err
    assert time.process_time() - c0 < 3.0
    d = json.loads(out)
    assert (d["passed"], d["refused"]) == (1, 1)
    case = d["cases"][0]
    assert case["board"] == "XO" * 40 + "..." and "16,384 squares" in case["reason"]
    assert case["seconds"] < 0.5 and len(out) < 2000
    monkeypatch.setattr(mcgs, "MAX_TEST_FILE_BYTES", 1 << 20)
    refused(capsys, "mcgs", "run", str(f), words=("huge.test", "1,048,576"))


def test_solitaire_reduce_caps_the_long_side_of_thin_boards(capsys):
    """Thin boards near the square cap took 20-50 s: the long side is capped at 5,000 when
    both sides are at least 2; one row keeps the 1,000,000-square cap."""
    for size in ("2x500000", "4x250000", "32x31250", "100x10000", "5001x2"):
        refused(capsys, "solitaire", "reduce", size, words=("5,000",))
    c0 = time.process_time()
    code, out, err = run_cli(capsys, "solitaire", "reduce", "2x5000", "--no-moves", "--json")
    assert code == 0, err
    d = json.loads(out)
    # Theorem 5: one stone left (3 does not divide 10,000 and the board is even)
    assert d["verified"] and d["stones_left"] == d["optimum"] == 1
    assert time.process_time() - c0 < 5.0
    code, out, err = run_cli(capsys, "solitaire", "reduce", "1x200000", "--no-moves", "--json")
    assert code == 0, err
    d = json.loads(out)  # the optimum of one row (optimum_stones), about n/4
    assert d["verified"] and d["stones_left"] == d["optimum"] == 50_000
