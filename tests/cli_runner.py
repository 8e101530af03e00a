"""Run the ``clobbermania`` command in-process, as the tests of every command do."""

import pytest

from clobbermania.cli import main


def run_cli(capsys, *args):
    """(exit code, stdout, stderr) of ``clobbermania ARGS``."""
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err
