"""The ``clobbermania`` command: ``clobbermania GAME VERB ...``.

Exit status: 0 success; 1 a checked claim failed (``reproduce``, ``verify`` of an invalid
sequence); 2 bad input or usage, with ``error: <sentence>`` on stderr.
"""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..errors import ClobbermaniaError
from .cgt import cgt
from .clickomania import clickomania, samegame
from .clobber import clobber, mcgs
from .grundy import grundy
from .reproduce import reproduce
from .solitaire import solitaire


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="clobbermania",
                      message="%(prog)s %(version)s")
def cli() -> None:
    """Algorithmic game theory of stone-removal games.

    \b
    Example:
      clobbermania solitaire solve xoxoxo/oxoxox --json
    """


cli.add_command(solitaire)
cli.add_command(reproduce)
cli.add_command(grundy)
cli.add_command(cgt)
cli.add_command(clobber)
cli.add_command(mcgs)
cli.add_command(clickomania)
cli.add_command(samegame)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command, turning every bad input into one sentence and exit 2."""
    try:
        rv = cli.main(args=argv, prog_name="clobbermania", standalone_mode=False)
    except ClobbermaniaError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc), err=True)
        sys.exit(2)
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        click.echo(f"error: {exc.format_message()}{hint}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("error: interrupted", err=True)
        sys.exit(130)
    except OSError as exc:
        click.echo(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), err=True)
        sys.exit(2)
    sys.exit(rv if isinstance(rv, int) else 0)


__all__ = ["cli", "main"]
