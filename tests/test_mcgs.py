"""The MCGS .test reader on every shared file, and the impartial cases run by grundy_value."""

import re
from collections import Counter

import pytest
from data_paths import MCGS_DATA

from clobbermania.clobber.impartial import GrundyTimeout
from clobbermania.clobber.mcgs import (
    Expectation,
    parse_test_file,
    parse_test_text,
    read_directory,
    run_impartial_case,
)
from clobbermania.errors import NotationError, UnsupportedError

DATA = MCGS_DATA
# named, not globbed: a missing file fails its test instead of vanishing from the list
IMPARTIAL_FILES = ["impartial__impartial-easy__impartial_clobber.test",
                   "impartial__impartial-easy__impartial_clobber_1xn_xo.test",
                   "impartial__impartial-easy__impartial_clobber_1xn_xxo.test",
                   "impartial__impartial-easy__impartial_clobber_random_1xn_le_2-14.test"]


def _count_commands(text):
    """An independent count of the solve commands: braces outside comments, minus versions."""
    body = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    commands = re.findall(r"\{([^}]*)\}", body)
    return sum(1 for c in commands if not c.strip().startswith("version"))


def test_every_file_parses_and_every_command_is_a_case():
    files = sorted(DATA.glob("*.test"))
    assert len(files) >= 34
    total = 0
    for f in files:
        cases = parse_test_file(f)
        text = f.read_text()
        assert len(cases) == _count_commands(text), f.name
        for c in cases:
            assert c.file == f.name and c.version == "1.7"
            assert c.game in {"clobber", "clobber_1xn", "impartial clobber",
                              "impartial clobber_1xn"}
            for g in c.games:  # every board is a valid clobbermania position
                g.position()
            assert c.board == " ".join(g.board for g in c.games)
            assert "|" not in c.board
        total += len(cases)
    assert total == len(read_directory(DATA))
    kinds = Counter(e.text().split()[0] for c in read_directory(DATA) for e in c.expectations)
    assert set(kinds) == {"N", "B", "W"}


def test_known_cases_are_read_exactly():
    xo = parse_test_file(DATA / "impartial__impartial-easy__impartial_clobber_1xn_xo.test")
    assert xo[0].board == "" and xo[0].expectations == (Expectation("N", nim=0),)
    assert xo[2].board == "XOXO" and xo[2].expectations[0].nim == 3 and xo[2].line == 13
    assert xo[-1].board == "XO" * 200 and xo[-1].expectations[0].nim == 21
    seg = parse_test_file(DATA / "seg_tests__clobber__random_8x_3x3.test")
    assert len(seg[0].games) == 8 and seg[0].board.split()[0] == "XXO/OXO/OXX"
    assert seg[0].expectations == (Expectation("B"),) and seg[0].line == 4
    imp = parse_test_file(DATA / "main_tests__clobber_1xn_autotests__clobber_1xn_le_2-14_imp_easy"
                                 ".test")
    assert [e.text() for e in imp[0].expectations] == ["N 0", "B loss", "W loss"]
    both = parse_test_file(DATA / "main_tests__clobber_autotests__clobber_random_filled2.test")
    assert both[0].game == "clobber" and both[0].board == "OX/XO/OX/OX/OO/OO"
    assert [e.text() for e in both[0].expectations] == ["B loss", "W win"]
    assert not both[0].impartial


def test_syntax_details():
    text = """{version 1.7}
/*_ a comment
over lines [clobber] XO {B win} */
[clobber_1xn] XOXO OXX
[impartial clobber_1xn]
(XO) /* inline */ XXO
{B, N 1}
{W loss}
[clobber] XO.|O.X {N}
"""
    cases = parse_test_text(text, "t.test")
    assert [c.line for c in cases] == [4, 8, 9]
    first = cases[0]
    assert [g.section for g in first.games] == ["clobber_1xn", "clobber_1xn",
                                               "impartial clobber_1xn", "impartial clobber_1xn"]
    assert first.board == "XOXO OXX XO XXO" and first.game == "impartial clobber_1xn"
    assert [e.text() for e in first.expectations] == ["B", "N 1"]
    assert cases[1].board == "" and cases[1].expectations == (Expectation("W", "loss"),)
    assert cases[2].board == "XO./O.X" and cases[2].expectations == (Expectation("N"),)
    with pytest.raises(UnsupportedError):
        run_impartial_case(first)  # partizan games in the sum
    assert run_impartial_case(cases[1])[:2] == (True, 0)  # the empty sum: a loss


@pytest.mark.parametrize("text,words", [
    ("[clobber_1xn] XO /* never closed", "never closed"),
    ("[clobber_1xn] XOZ {B win}", "bad character 'Z'"),
    ("[clobber] XO|O {B win}", "not a rectangle"),
    ("XO {B win}", "before any [section]"),
    ("[clobber_1xn] XO {B draw}", "bad command item"),
    ("[clobber_1xn] XO {B, W, N, B}", "at most 3 times"),
    ("[clobber_1xn] XO", "never solved"),
    ("[clobber_1xn] XO {B win", "never closed"),
])
def test_bad_syntax_names_file_and_line(text, words):
    with pytest.raises(NotationError, match=re.escape(words)) as exc:
        parse_test_text(text, "bad.test")
    assert str(exc.value).startswith("bad.test:1")


def test_expectations_against_nim_values():
    win, loss = Expectation("B", "win"), Expectation("W", "loss")
    assert win.satisfied_by_nim(2) and not win.satisfied_by_nim(0)
    assert loss.satisfied_by_nim(0) and not loss.satisfied_by_nim(1)
    assert Expectation("N", nim=3).satisfied_by_nim(3)
    assert not Expectation("N", nim=3).satisfied_by_nim(2)
    assert Expectation("N").satisfied_by_nim(7) and Expectation("B").satisfied_by_nim(0)
    case = parse_test_text("[impartial clobber_1xn] XOXO {N 2}")[0]
    assert run_impartial_case(case)[:2] == (False, 3)  # a wrong expectation fails


@pytest.mark.parametrize("name", IMPARTIAL_FILES)
def test_impartial_files_pass(name):
    cases = parse_test_file(DATA / name)
    assert cases and all(c.impartial for c in cases)
    failures = []
    for c in cases:
        # the limit only guards against a hang (GrundyTimeout fails the test)
        passed, found, _ = run_impartial_case(c, time_limit=60)
        if not passed:
            failures.append((c.where(), found, [e.text() for e in c.expectations]))
    assert failures == []


def test_other_impartial_cases_pass():
    """The impartial cases of the main_tests files (CGSuite and Dai-Chen results)."""
    cases = [c for f in sorted(DATA.glob("main_tests__*.test")) for c in parse_test_file(f)
             if c.impartial]
    assert len(cases) > 150
    assert all(run_impartial_case(c, time_limit=60)[0] for c in cases)


def test_time_limit_in_runner():
    case = parse_test_text("[impartial clobber] XOXOX|OXOXO|XOXOX|OXOXO|XOXOX {N}")[0]
    with pytest.raises(GrundyTimeout):
        run_impartial_case(case, time_limit=0.01)
