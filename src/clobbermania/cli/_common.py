"""Shared pieces of the command line: board arguments, JSON output, progress, errors."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager

import click

from ..errors import NotationError
from ..graphs import parse_graph_spec
from ..stones import Position


def load_position(board: str, graph: str | None = None) -> Position:
    """The BOARD argument, on the grid it describes or on the ``--graph`` SPEC.

    ``-`` reads the board from standard input.
    """
    if board == "-":
        board = sys.stdin.read()
    if graph is None:
        return Position.from_string(board)
    return Position.from_string(board, parse_graph_spec(graph))


def emit_json(obj: dict) -> None:
    """Exactly one JSON object on stdout."""
    click.echo(json.dumps(obj, ensure_ascii=False))


def check_time_limit(value: float | None) -> float | None:
    if value is not None and not value > 0:
        raise NotationError(f"--time-limit must be a positive number of seconds, not {value}")
    return value


@contextmanager
def progress_reporter(label: str) -> Callable[[dict], None] | None:
    """A callback that shows search progress on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console

    console = Console(stderr=True)
    last = [0.0]
    with console.status(label) as status:
        def update(info: dict) -> None:
            now = time.perf_counter()
            if now - last[0] > 0.2:
                last[0] = now
                status.update(f"{label}: target {info.get('target')} stones, "
                              f"{info.get('nodes', 0):,} nodes, {info.get('seconds', 0):.1f} s")
        yield update


def read_line() -> str | None:
    """One line typed at a ``play`` prompt, None at end of file. Piped input is echoed
    so that a transcript reads like a session."""
    line = sys.stdin.readline()
    if line and not sys.stdin.isatty():
        click.echo(line.strip())
    return None if line == "" else line.strip()


__all__ = ["load_position", "emit_json", "check_time_limit", "progress_reporter",
           "read_line"]
