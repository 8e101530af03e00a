"""benchmarks/samegame.py resumed board by board: a finished board is recorded in the log
as a JSON line with its settings and clicks, a run with ``--resume`` reuses it (replayed
by the reference rules, not searched again) and totals what a fresh run totals; a record
whose score the replay does not confirm is refused (exit status 2), a record of other
settings and a line cut off mid-write are ignored; ``--json-out`` holds every board's
clicks. Under a playout limit the search is deterministic, so the runs can be compared."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from clobbermania.clickomania.rules import score_sequence
from clobbermania.clickomania.samegame import read_samegame_set

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "samegame.py"
_spec = importlib.util.spec_from_file_location("samegame_benchmark", _PATH)
X = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = X
_spec.loader.exec_module(X)

#: a small, deterministic budget (a few hundredths of a CPU second a board); one job and
#: one thread, in this process
FAST = ["--time-limit", "2", "--max-playouts", "2000", "--jobs", "1", "--threads", "1"]


@pytest.fixture
def searched(monkeypatch):
    """The number of boards each run handed to the search."""
    calls: list[int] = []
    real = X.bench_samegame

    def spy(boards, **kw):
        calls.append(len(boards))
        return real(boards, **kw)

    monkeypatch.setattr(X, "bench_samegame", spy)
    return calls


def run(capsys, *args):
    code = X.main([*FAST, *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def board_lines(out):
    return {int(line.split(":")[0].split()[1]): line for line in out.splitlines()
            if line.startswith("board ")}


def total(out):
    return int(next(line for line in out.splitlines() if line.startswith("total:")).split()[1])


def records(log):
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


def test_resume_reuses_a_finished_board_and_totals_as_a_fresh_run(tmp_path, capsys, searched):
    log, js = tmp_path / "run.log", tmp_path / "run.json"
    code, fresh, _ = run(capsys, "--boards", "1-2")
    assert code == 0 and searched == [2]
    code, first, _ = run(capsys, "--boards", "1", "--log", log)
    assert code == 0 and searched == [2, 1]
    [rec] = records(log)
    assert rec["samegame_board"] == 1 and rec["settings"]["max_playouts"] == 2000
    assert rec["score"] == score_sequence(read_samegame_set()[0], rec["moves"])
    code, out, _ = run(capsys, "--boards", "1-2", "--log", log, "--resume", "--json-out", js)
    assert code == 0
    assert searched == [2, 1, 1]              # only board 2 was searched
    lines = board_lines(out)
    assert lines[1].endswith("reused") and "reused" not in lines[2]
    assert lines[1].split()[2] == board_lines(fresh)[1].split()[2]
    assert total(out) == total(fresh)
    assert "boards [1] reused" in out
    # the log now holds both boards, the human-readable lines as before
    assert [r["samegame_board"] for r in records(log)] == [1, 2]
    logged = [line for line in log.read_text().splitlines() if line.startswith("board ")]
    assert logged == [board_lines(first)[1], lines[1], lines[2]]
    # the finished run's clicks, replayed by the reference rules
    data = json.loads(js.read_text())
    assert data["total"] == total(fresh)
    boards = read_samegame_set()
    for b in data["boards"]:
        k = b["samegame_board"]
        assert b["board"] == boards[k - 1].text()
        assert score_sequence(boards[k - 1], b["moves"]) == b["score"]
    # everything finished: a third run searches nothing
    code, out, _ = run(capsys, "--boards", "1-2", "--log", log, "--resume")
    assert code == 0 and searched == [2, 1, 1] and total(out) == total(fresh)
    assert "boards [1, 2] reused" in out


@pytest.mark.parametrize("tamper", ["score", "moves", "board"])
def test_a_record_the_replay_does_not_confirm_is_refused(tmp_path, capsys, searched, tamper):
    log = tmp_path / "run.log"
    assert run(capsys, "--boards", "1", "--log", log)[0] == 0
    lines = log.read_text().splitlines(keepends=True)
    n = next(i for i, line in enumerate(lines) if line.startswith("{"))
    rec = json.loads(lines[n])
    if tamper == "score":
        rec["score"] += 100
    elif tamper == "moves":
        rec["moves"] = rec["moves"][:-1]
    else:
        rec["board"] = read_samegame_set()[1].text()
    lines[n] = json.dumps(rec) + "\n"
    log.write_text("".join(lines))
    before = log.read_text()
    code, out, err = run(capsys, "--boards", "1-2", "--log", log, "--resume")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "refused" in err
    assert f"line {n + 1} (board 1)" in err
    assert searched == [1]                   # nothing searched, the log untouched
    assert log.read_text() == before


def test_records_of_other_settings_are_ignored(tmp_path, capsys, searched):
    log = tmp_path / "run.log"
    assert X.main(["--time-limit", "2", "--max-playouts", "1000", "--jobs", "1",
                   "--threads", "1", "--boards", "1", "--log", str(log)]) == 0
    run(capsys, "--boards", "1", "--log", log, "--seed", "1")
    capsys.readouterr()
    code, out, _ = run(capsys, "--boards", "1", "--log", log, "--resume")
    assert code == 0 and searched == [1, 1, 1]     # board 1 searched again
    assert "reused" not in board_lines(out)[1]
    [note] = [line for line in out.splitlines() if line.startswith("# resume")]
    assert "no finished board" in note
    assert "2 record(s) of other settings (differing in max_playouts, seed)" in note


def test_a_line_cut_off_mid_write_is_ignored(tmp_path, capsys, searched):
    log = tmp_path / "run.log"
    assert run(capsys, "--boards", "1", "--log", log)[0] == 0
    rec = next(line for line in log.read_text().splitlines() if line.startswith("{"))
    with log.open("a") as f:                  # a run killed while writing board 2's record
        f.write(rec.replace('"samegame_board": 1', '"samegame_board": 2')[:80])
    code, out, _ = run(capsys, "--boards", "1-2", "--log", log, "--resume")
    assert code == 0 and searched == [1, 1]
    lines = board_lines(out)
    assert lines[1].endswith("reused") and "reused" not in lines[2]
    assert "1 line(s) not whole JSON" in out
    # the new run began on a line of its own: its board 2 record is whole
    assert [r["samegame_board"] for r in records_whole(log)] == [1, 2]


def records_whole(log):
    out = []
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def test_resume_needs_a_log(capsys):
    with pytest.raises(SystemExit) as exc:
        X.main([*FAST, "--resume"])
    assert exc.value.code == 2
    assert "--resume needs --log" in capsys.readouterr().err


def test_the_committed_repeat_with_seeds_2_and_3_replays():
    """benchmarks/results/samegame-seeds-2-3.json (issue 28's repeat of the standard-set
    run with other seeds): each board of the standard set in order, its clicks replayed
    by the reference rules to its recorded score and a cleared board, and the total."""
    from clobbermania.clickomania.rules import Board, replay_score

    path = _PATH.parent / "results" / "samegame-seeds-2-3.json"
    run = json.loads(path.read_text())
    boards = read_samegame_set()
    assert [b["samegame_board"] for b in run["boards"]] == list(range(1, 21))
    total = 0
    for rec, board in zip(run["boards"], boards, strict=True):
        assert Board.from_string(rec["board"]) == board
        final, score = replay_score(board, rec["moves"])
        assert score == rec["score"] and final.is_cleared == rec["cleared"]
        total += score
    assert total == run["total"] == 77_882 and run["cleared"] == 20
