"""Ctrl-C never crashes a command (DESIGN principle 3: "Ctrl-C does the same" as a time
limit): the first SIGINT makes the search stop with the bounds found so far (exit 0,
``exact: false``), never a segmentation fault or a traceback; the second exits 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from clobbermania import limits
from clobbermania.stones import Position

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"),
                                reason="reads a process's CPU time from /proc")

EXE = [sys.executable, "-c", "from clobbermania.cli import main; main()"]
# without Ctrl-C: more than 10 s (clobber value), more than 30 s (solitaire solve)
CLOBBER_HARD = "xoxoxo/oxoxox/xoxoxo/oxoxox/xoxoxo"
SOLITAIRE_HARD = "ox.xo.oo/ooo.oooo/ooxooo.x/.xxoooxo/x...oo../oxxx.o.x/xxxoxxxx/xoxox.xo"
NOTE = "interrupted: stopping at the next check; Ctrl-C again to abort"


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupted_run(args: list[str], cpu: float, presses: int = 1
                     ) -> subprocess.CompletedProcess:
    """Run the command, press Ctrl-C once it has used ``cpu`` seconds of CPU (the imports
    take about 0.7 s, so the handler is in place), and return what it printed."""
    proc = subprocess.Popen([*EXE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        start = time.monotonic()
        while proc.poll() is None and _cpu_seconds(proc.pid) < cpu:
            if time.monotonic() - start > 60:
                pytest.fail(f"the command did not reach {cpu} s of CPU within 60 s")
            time.sleep(0.05)
        assert proc.poll() is None, "the command ended before Ctrl-C: pick a harder input"
        for _ in range(presses):
            proc.send_signal(signal.SIGINT)
            time.sleep(0.2)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _assert_bounds_answer(p: subprocess.CompletedProcess) -> dict:
    assert "Traceback" not in p.stderr and "Fatal" not in p.stderr, p.stderr
    assert p.returncode == 0, (p.returncode, p.stderr)
    assert p.stderr.splitlines() == [NOTE]
    lines = p.stdout.splitlines()
    assert len(lines) == 1
    d = json.loads(lines[0])
    assert d["exact"] is False
    return d


@pytest.mark.parametrize("cpu", [1.2, 1.9, 2.6])
def test_ctrl_c_in_clobber_value_answers_unknown(cpu):
    """The red-team finding: Ctrl-C at 1.5-2.5 s crashed this command (exit 139, a
    segmentation fault in a numba kernel) or printed a traceback."""
    d = _assert_bounds_answer(_interrupted_run(["clobber", "value", CLOBBER_HARD, "--json"],
                                               cpu))
    assert d["value"] is None and d["board"] == CLOBBER_HARD
    assert "interrupted" in d["reason"]


def test_ctrl_c_in_solitaire_solve_reports_bounds():
    d = _assert_bounds_answer(_interrupted_run(["solitaire", "solve", SOLITAIRE_HARD,
                                                "--json"], 1.5))
    # the bounds stand: a stone count of an actual witness, a lower bound below it
    board = Position.from_string(SOLITAIRE_HARD)
    assert d["stones_left"] == board.stone_count() - len(d["moves"])
    assert 1 <= d["lower_bound"] <= d["stones_left"]
    assert "interrupted" in d["proof"]


def test_second_ctrl_c_exits_130(monkeypatch, capfd):
    """The handler itself, pressed twice: the first press only sets the flag and says so,
    the second ends the process with 130. (Two real presses race the search, which stops
    at the first: the answer may come before the second.)"""
    exits = []

    def fake_exit(code):
        exits.append(code)
        raise SystemExit(code)

    monkeypatch.setattr(limits.os, "_exit", fake_exit)
    restore = limits.install_interrupt_handler()
    try:
        limits._on_sigint(signal.SIGINT, None)
        assert limits.interrupted() and exits == []
        with pytest.raises(SystemExit):
            limits._on_sigint(signal.SIGINT, None)
    finally:
        restore()
    assert exits == [130] and not limits.interrupted()
    assert capfd.readouterr().err.splitlines() == [NOTE, "error: interrupted"]


def test_flag_stops_each_search_at_its_check(monkeypatch):
    """With the flag set, every search's clock counts its time as up, at once."""
    from clobbermania.cgt import game
    from clobbermania.clickomania.samegame import (
        bench_samegame,
        play_samegame,
        read_samegame_set,
    )
    from clobbermania.clickomania.solver import solve_clickomania
    from clobbermania.clobber.impartial import GrundyTimeout, grundy_value
    from clobbermania.clobber.search import solve_outcome
    from clobbermania.clobber.values import ValueTimeout, value_result
    from clobbermania.solitaire.solver import solve as solitaire_solve

    monkeypatch.setattr(limits, "_interrupted", True)
    assert limits.interrupted()
    with pytest.raises(ValueTimeout, match="interrupted"):
        value_result(Position.from_string(CLOBBER_HARD))
    with pytest.raises(GrundyTimeout):
        grundy_value(Position.from_string(CLOBBER_HARD))
    r = solve_outcome(Position.from_string(CLOBBER_HARD + "/oxoxox"), "black")
    assert not r.exact and r.winner is None
    r = solitaire_solve(Position.from_string(SOLITAIRE_HARD))
    assert not r.exact and "interrupted" in r.proof
    r = solve_clickomania("beacaddddbad/addeadcbeaca/aaeadbdaebdd/ebcbbdcadeab/cacedebccede")
    assert not r.exact and "interrupted" in r.proof
    board = read_samegame_set()[0]
    start = time.process_time()
    r = play_samegame(board, time_limit=60)      # the best line of its first steps
    assert time.process_time() - start < 20 and r.score >= 0
    with pytest.raises(KeyboardInterrupt):       # a bench stops before its next board
        bench_samegame([board, board], time_limit=60, jobs=1)
    with pytest.raises(KeyboardInterrupt), game.time_limit(None):
        for k in range(1, 5000):
            game._tick()
            assert k < 1024, "the 1024th tick reads the flag"


def test_handler_is_restored_after_main():
    from clobbermania.cli import main

    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(SystemExit):
        main(["solitaire", "solve", "xo", "--json"])
    assert signal.getsignal(signal.SIGINT) is before
    assert not limits.interrupted()
