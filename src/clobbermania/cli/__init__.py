"""The ``clobbermania`` command: ``clobbermania GAME VERB ...``.

Exit status: 0 success; 1 a checked claim failed (``reproduce``, ``verify`` of an invalid
sequence); 2 bad input or usage, with ``error: <sentence>`` on stderr.

Every verb runs under the one memory bound of :mod:`clobbermania.limits` (an address-space
limit of 40 % of the machine's memory); an input that needs more is refused with one
sentence naming the bound and exit status 2 (docs/limits.md lists every cap).
"""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..errors import ClobbermaniaError
from ..limits import apply_memory_bound, install_interrupt_handler, memory_bound_sentence
from .cgt import cgt
from .clickomania import clickomania, samegame
from .clobber import clobber, mcgs
from .grundy import grundy
from .jobs import jobs
from .reproduce import reproduce
from .serve import serve
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
cli.add_command(serve)
cli.add_command(jobs)


def _fail(message: str, status: int = 2) -> None:
    """Print ``error: <message>`` as exactly one line (whitespace, newlines included, is
    collapsed: click's message for a missing Choice option spans three lines, and an error
    may quote user text) and exit with ``status``."""
    click.echo("error: " + " ".join(message.split()), err=True)
    sys.exit(status)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command under the memory bound and the Ctrl-C handler of
    :mod:`clobbermania.limits` (the first Ctrl-C makes the searches stop with the bounds
    found so far, the second exits 130), restoring the previous SIGINT handler on return.
    """
    restore = install_interrupt_handler()
    try:
        _main(argv)
    except KeyboardInterrupt:   # raised at a check by a verb with nothing to report
        _fail("interrupted", 130)
    finally:
        restore()


def _main(argv: list[str] | None = None) -> None:
    """Run the command under the memory bound, turning every bad input (and every input
    that needs more memory than the bound) into one sentence and exit 2."""
    apply_memory_bound()
    try:
        rv = cli.main(args=argv, prog_name="clobbermania", standalone_mode=False)
    except MemoryError:
        _fail(memory_bound_sentence())
    except ClobbermaniaError as exc:
        _fail(str(exc))
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc), err=True)
        sys.exit(2)
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        _fail(f"{exc.format_message()}{hint}")
    except click.ClickException as exc:
        _fail(exc.format_message())
    except click.exceptions.Abort:
        _fail("interrupted", 130)
    except UnicodeError as exc:  # a board, edge-list, DIMACS or test-set file, or stdin
        _fail(f"a file or standard input is not UTF-8 text ({str(exc)[:120]})")
    except OSError as exc:
        name = str(exc.filename or "")
        if len(name) > 80:
            name = name[:60] + "..." + name[-10:]
        _fail(f"{exc.strerror or exc}: {name}".rstrip(": "))
    sys.exit(rv if isinstance(rv, int) else 0)


__all__ = ["cli", "main"]
