"""Every example in README.md and docs/ runs, and prints what the page shows.

The pages hold three kinds of fenced blocks, each checked here:

- ```console blocks: lines ``$ clobbermania ARGS`` (a trailing ``# comment`` is the
  shell's), each followed by the output it prints. The command is run in process and
  its output (what a terminal shows, stdout and stderr) must match the shown text,
  with two normalisations: the number after ``seconds:`` / ``"seconds":`` and the
  time in ``in 5.31 s`` may differ, and ``...`` in the shown text stands for any text
  (as doctest's ELLIPSIS; ``...`` alone on a line stands for any lines). The exit
  status must be 2 when the shown output starts with ``error:``, 0 otherwise.
- ```sh blocks: commands without their output. ``clobbermania`` lines are run and must
  exit 0; ``make demo`` / ``make test`` are the two commands this suite is part of,
  so they are not run here.
- ```python blocks: doctests (``>>>`` lines and their output), run with ELLIPSIS and
  NORMALIZE_WHITESPACE; the blocks of one page share one namespace, as a reader's
  session would.

A page's examples run in a scratch folder (the files they write land there) that sees
the repository's ``tests/`` folder, as the root of a clone does, with
``XDG_CACHE_HOME`` pointing into it (so ``grundy build`` and ``grundy stats`` use a
fresh database). A code block in any other language may not hold a ``clobbermania``
command or a ``>>>`` line, so no example escapes these checks, with one exception:
``clobbermania serve`` runs until it is stopped, so docs/web.md shows it in ```text
blocks, and tests/web/test_serve_cli.py checks what it prints. Every SVG picture in
docs/ must be written, byte for byte, by a console example of some page.
"""

import doctest
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from clobbermania.cli import cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: ``clobbermania serve`` lines, allowed in blocks that are not run (it runs until stopped).
SERVE_LINE = re.compile(r"^\s*(\$ )?clobbermania serve\b.*$", re.M)
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
TIME = [
    (re.compile(r'(seconds"?:\s*)[-+0-9.e]+'), r"\1<t>"),
    (re.compile(r"\bin [0-9.]+ s\b"), "in <t> s"),
]


def _page_id(page):
    return str(page.relative_to(ROOT))


def blocks(page):
    """(language, text, line number) of each fenced block of PAGE."""
    text = page.read_text()
    for m in FENCE.finditer(text):
        yield m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1


def console_examples(text):
    """(command line, shown output) pairs of a console block."""
    examples = []
    for line in text.splitlines():
        if line.startswith("$ "):
            examples.append([line[2:], []])
        elif examples:
            examples[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"console block text before its first command: {line!r}")
    return [(cmd, "\n".join(out)) for cmd, out in examples]


def _normalise(text):
    for pattern, repl in TIME:
        text = pattern.sub(repl, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def output_matches(shown, actual):
    """Whether ACTUAL is the SHOWN output up to the normalisations of the docstring."""
    shown, actual = _normalise(shown), _normalise(actual)
    parts = shown.split("...")
    pattern = ".*?".join(re.escape(p) for p in parts)
    return re.fullmatch(pattern, actual, re.S) is not None


def run_command(command_line, env):
    args = shlex.split(command_line, comments=True)
    assert args[0] == "clobbermania", f"an example runs something else: {command_line!r}"
    result = CliRunner().invoke(cli, args[1:], env=env, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def run_page(page, scratch):
    """Run every example of PAGE in SCRATCH; return the number of examples run."""
    env = {"XDG_CACHE_HOME": str(scratch / "cache"), "COLUMNS": "100"}
    globs = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    count = 0
    for lang, text, lineno in blocks(page):
        where = f"{_page_id(page)}:{lineno}"
        if lang == "console":
            for command, shown in console_examples(text):
                code, output = run_command(command, env)
                expected = 2 if shown.lstrip().startswith("error:") else 0
                assert code == expected, f"{where}: `{command}` exited {code}:\n{output}"
                assert output_matches(shown, output), (
                    f"{where}: `{command}` printed\n{output}\ninstead of\n{shown}")
                count += 1
        elif lang == "sh":
            for line in text.splitlines():
                line = line.strip()
                if not line or line.startswith("#") or line.split()[:2] in (
                        ["make", "demo"], ["make", "test"]):
                    continue
                code, output = run_command(line, env)
                assert code == 0, f"{where}: `{line}` exited {code}:\n{output}"
                count += 1
        elif lang == "python":
            test = parser.get_doctest(text, globs, where, str(page), lineno)
            assert test.examples, f"{where}: a python block without >>> examples"
            result = runner.run(test, clear_globs=False)
            globs.update(test.globs)  # DocTest ran on a copy of the page's namespace
            assert result.failed == 0, f"{where}: {result.failed} doctest example(s) failed"
            count += len(test.examples)
        else:
            text = SERVE_LINE.sub("", text)
            assert "$ clobbermania" not in text and not re.search(
                r"^\s*clobbermania ", text, re.M) and ">>>" not in text, (
                f"{where}: an example in a ```{lang} block, which is not run; "
                "use console, sh or python")
    return count


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_page_examples(page, scratch):
    run_page(page, scratch)
    for written in sorted((scratch / "docs").glob("*.svg")):
        committed = ROOT / "docs" / written.name
        assert committed.exists() and committed.read_bytes() == written.read_bytes(), (
            f"{_page_id(page)} writes docs/{written.name}, which differs from the "
            "committed picture (rerun the example into docs/ and commit it)")


def test_every_game_has_a_page_with_examples():
    for name in ("solitaire", "impartial", "clobber", "clickomania"):
        page = ROOT / "docs" / f"{name}.md"
        assert page.exists(), f"docs/{name}.md is missing"
        langs = {lang for lang, _, _ in blocks(page)}
        assert {"console", "python"} <= langs, f"docs/{name}.md lacks CLI or Python examples"


def test_every_picture_is_written_by_an_example():
    """Each docs/*.svg is the output of a console example (checked byte for byte above)."""
    commands = [cmd for page in PAGES for lang, text, _ in blocks(page) if lang == "console"
                for cmd, _ in console_examples(text)]
    pictures = sorted((ROOT / "docs").glob("*.svg"))
    assert pictures, "README.md shows no picture from docs/"
    for picture in pictures:
        assert any(f"--svg docs/{picture.name}" in cmd for cmd in commands), (
            f"no example writes docs/{picture.name}")


def test_links_point_inside_the_repository():
    for page in PAGES:
        text = page.read_text()
        assert "../shared" not in text, f"{_page_id(page)} names a path outside the repo"
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{_page_id(page)}: dead link {target}"


def test_output_matching_is_strict():
    """The matcher itself: times normalised, ``...`` elides, anything else must agree."""
    assert output_matches("nodes: 47   seconds: 0.012", "nodes: 47   seconds: 3.5")
    assert not output_matches("nodes: 47   seconds: 0.012", "nodes: 48   seconds: 0.012")
    assert output_matches('{"a": 1, ...}', '{"a": 1, "b": 2, "seconds": 0.1}')
    assert not output_matches('{"a": 1, ...}', '{"a": 2, "b": 2}')
    assert output_matches("a\n...\nz", "a\nb\nc\nz")
    assert not output_matches("a\nz", "a\nb\nz")


def update_page(page):
    """Rewrite the shown output of each console example of PAGE that no longer matches.

    For a maintainer after a deliberate change of output: ``python tests/test_docs.py
    docs/solitaire.md``. Outputs that still match (with their ``...``) are kept; the
    others are replaced by the full new output, to be trimmed by hand and reviewed.
    """
    import os
    import tempfile

    scratch = Path(tempfile.mkdtemp())
    (scratch / "tests").symlink_to(ROOT / "tests")
    (scratch / "docs").mkdir()
    os.chdir(scratch)
    env = {"XDG_CACHE_HOME": str(scratch / "cache"), "COLUMNS": "100"}

    def refill(m):
        if m.group(1) != "console":
            return m.group(0)
        lines = []
        for command, shown in console_examples(m.group(2)):
            _, output = run_command(command, env)
            keep = shown.strip() and output_matches(shown, output)
            print(("kept   " if keep else "updated") + f"  {command}")
            lines += ["$ " + command, (shown if keep else output).rstrip("\n")]
        return "```console\n" + "\n".join(lines) + "\n```"

    page.write_text(FENCE.sub(refill, page.read_text()))


if __name__ == "__main__":
    import sys

    for name in sys.argv[1:]:
        update_page(Path(name).resolve())
