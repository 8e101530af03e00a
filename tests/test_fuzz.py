"""A few hundred fuzzed calls of every CLI verb keep the CLI's contract (issue 25).

The contract and the generator are in ``tests/fuzzing.py``; ``benchmarks/fuzz.py`` runs
the same generator on >= 10,000 inputs. Here the benchmark script runs in a fresh process
(a warm parent forking a child per input), so that neither its warm-up nor its forks touch
the state of the test process; it writes its figures to a JSON file that the tests read.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import fuzzing
import pytest

REPO = Path(__file__).resolve().parents[1]
SEED = 2026
INPUTS = 300


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    if not hasattr(os, "fork"):
        pytest.skip("the fuzz runner forks a child per input")
    out = tmp_path_factory.mktemp("fuzz") / "figures.json"
    cmd = [sys.executable, str(REPO / "benchmarks" / "fuzz.py"), "--light", "--inputs",
           str(INPUTS), "--seed", str(SEED), "--jobs", "2", "--progress", "0", "--json", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if not out.exists():
        pytest.fail(f"the fuzz run wrote no figures (exit {proc.returncode}):\n"
                    f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(out.read_text())


def test_the_generator_covers_every_verb_but_the_long_running_ones():
    assert set(fuzzing.VERBS) | set(fuzzing.EXCLUDED) == set(fuzzing.leaf_verbs())
    assert not set(fuzzing.VERBS) & set(fuzzing.EXCLUDED)


def test_inputs_depend_on_seed_and_index_alone():
    assert fuzzing.generate(5, 17) == fuzzing.generate(5, 17)
    assert [fuzzing.generate(5, i).argv for i in range(20)] != \
        [fuzzing.generate(6, i).argv for i in range(20)]


def test_a_finding_is_caught():
    # the classifier itself: a traceback, a stray exit status, a two-line error, a
    # --json output without seconds and an overrun limit are each reported
    case = fuzzing.Case(index=0, verb="cgt value", kind="valid",
                        argv=("cgt", "value", "*", "--json"), limit=1.0)
    def res(**kw):
        return fuzzing.classify(fuzzing.Result(case=case, **kw), 1 << 30)
    assert res(code=0, stdout='{"value": "*", "seconds": 0.01}\n') == []
    assert res(code=1, traceback=True, stderr="Traceback (most recent call last):\nX\n")
    assert res(code=3, stdout='{"seconds": 0}')
    assert res(code=2, stderr="error: one\nerror: two\n")
    assert res(code=0, stdout='{"value": "*"}')
    assert res(code=0, stdout='{"value": "*", "seconds": 2.5}')
    assert res(code=None, killed_by_cap=True)


def test_every_verb_is_fuzzed(figures):
    assert figures["inputs"] == INPUTS
    # seed 2026 draws every verb, reproduce (weight 0.1) included, within 300 inputs
    assert set(figures["verbs"]) == set(fuzzing.VERBS)
    # valid inputs run and bad ones are refused: both kinds of answer occur
    assert figures["exit_codes"].get("0", 0) > INPUTS // 5
    assert figures["exit_codes"].get("2", 0) > INPUTS // 5


def test_no_input_breaks_the_contract(figures):
    lines = [f"input {f['index']} ({f['verb']}): {'; '.join(f['findings'])}\n    {f['call']}"
             for f in figures["findings"]]
    assert figures["tracebacks"] == 0, "\n".join(lines)
    assert not lines, "\n".join(lines)
