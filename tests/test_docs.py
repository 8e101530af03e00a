"""The README's Python examples run, and its CLI tour uses commands that exist."""

import re
from pathlib import Path

from click.testing import CliRunner

from clobbermania.cli import cli

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_cli_commands_exist():
    runner = CliRunner()
    seen = set()
    for line in README.read_text().splitlines():
        m = re.match(r"\$?\s*clobbermania ((?:[a-z]+ ?){1,2})", line.strip())
        if m:
            words = [w for w in m.group(1).split() if not w.startswith("-")]
            seen.add(tuple(words))
    assert ("solitaire", "solve") in seen
    for words in seen:
        result = runner.invoke(cli, [*words, "--help"])
        assert result.exit_code == 0, (words, result.output)
