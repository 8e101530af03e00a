"""The one memory bound of clobbermania, and the room a search still has under it.

No input may take a process past :data:`MEMORY_SHARE` (40 %) of the machine's physical
memory. The command line enforces the bound once, for every verb, with an address-space
limit (:func:`apply_memory_bound`, called by ``clobbermania.cli.main``); the searches that
grow tables (the Grundy memo of ``clobber.impartial``, the row database build) size them
with :func:`memory_room`, so that they stop with an answer (``exact: false``) or a clear
sentence before the limit is reached. ``docs/limits.md`` lists every cap, verb by verb.

Ctrl-C is a time limit too: the command line installs :func:`install_interrupt_handler`,
whose first SIGINT only sets a flag (:func:`interrupted`) that every search's clock reads
as "time is up", so the verb answers as on a time-out (bounds, ``exact: false``); the
second SIGINT ends the process with ``error: interrupted`` and exit status 130. No
exception is ever raised asynchronously (one landing inside a numba kernel's return
crashes the interpreter).

>>> 0 < memory_bound() <= physical_memory()
True
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import NotationError, UnsupportedError

#: The share of physical memory a clobbermania process may take (address space).
MEMORY_SHARE = 0.4

#: Used when the machine does not say how much memory it has.
_FALLBACK_PHYSICAL = 8 << 30


def physical_memory() -> int:
    """Bytes of physical memory of the machine (8 GiB when it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return _FALLBACK_PHYSICAL


def memory_bound() -> int:
    """Bytes of address space a clobbermania process may use: 40 % of physical memory."""
    return int(MEMORY_SHARE * physical_memory())


def _address_space_limit() -> int | None:
    """The soft RLIMIT_AS of this process in bytes, None when unlimited or unknown."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def apply_memory_bound() -> int:
    """Limit this process's address space to :func:`memory_bound` (unless a lower limit
    is already set) and return the limit in force, in bytes.

    Every allocation past it fails with ``MemoryError``, which the command line reports
    as one sentence (:func:`memory_bound_sentence`) with exit status 2.
    """
    bound = memory_bound()
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return bound
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY and soft <= bound:
        return int(soft)
    if hard != resource.RLIM_INFINITY and hard < bound:
        bound = int(hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (bound, hard))
    except (ValueError, OSError):  # pragma: no cover - refused by the system
        return bound
    return bound


def _proc_bytes(path: str, field: str) -> int | None:
    """A ``Field:  N kB`` line of a /proc file in bytes (None when not on Linux)."""
    try:
        with open(path, encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def address_space() -> int | None:
    """Bytes of address space this process uses (``VmSize``; None where there is no /proc).

    >>> address_space() > 10 * 2**20     # a Python process: more than 10 MB
    True
    """
    return _proc_bytes("/proc/self/status", "VmSize")


def _limit_in_force() -> int:
    """The memory bound, or the lower address-space limit already in force."""
    in_force = _address_space_limit()
    return memory_bound() if in_force is None else min(memory_bound(), in_force)


def memory_room() -> int:
    """Bytes this process may still allocate: the memory bound (or the lower address-space
    limit in force) less the address space it already uses, and at most 40 % of the
    memory available on the machine now. Never negative.

    >>> 0 <= memory_room() <= memory_bound()
    True
    """
    room = _limit_in_force() - (_proc_bytes("/proc/self/status", "VmSize") or 0)
    avail = _proc_bytes("/proc/meminfo", "MemAvailable")
    if avail is not None:
        room = min(room, int(MEMORY_SHARE * avail))
    return max(0, room)


def memory_bound_sentence() -> str:
    """The sentence the command line prints when an input needs more memory than the
    bound allows."""
    limit = _limit_in_force()
    return (f"the computation needs more than the memory bound of {limit / 2**30:.1f} GiB "
            f"({MEMORY_SHARE:.0%} of the machine's memory); give a smaller input or a "
            "time limit")


#: Set by the first Ctrl-C under :func:`install_interrupt_handler`.
_interrupted = False

_INTERRUPT_NOTE = "interrupted: stopping at the next check; Ctrl-C again to abort\n"


def interrupted() -> bool:
    """True once Ctrl-C was pressed under :func:`install_interrupt_handler`: the searches'
    clocks then count their time limit as reached and return the bounds found so far.

    >>> interrupted()
    False
    """
    return _interrupted


def _on_sigint(signum: int, frame: Any) -> None:
    """First SIGINT: set the flag and say so in one line; second: exit 130 at once."""
    global _interrupted
    if _interrupted:
        try:
            os.write(2, b"error: interrupted\n")
        finally:
            os._exit(130)
    _interrupted = True
    try:
        os.write(2, _INTERRUPT_NOTE.encode())
    except OSError:  # pragma: no cover - stderr closed
        pass


def read_capped_text(path: str | Path, limit: int, what: str) -> str:
    """The UTF-8 text of the file at ``path``, refused in one sentence naming it as
    ``what`` when it has more than ``limit`` bytes (before it is read), cannot be read,
    or is not UTF-8 (naming the first bad byte). The one reader of input files.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > limit:
            raise UnsupportedError(f"{what} {str(p)[:80]!r} has {size:,} bytes; the limit "
                                   f"is {limit:,}")
        data = p.read_bytes()
    except OSError as exc:
        raise NotationError(f"cannot read {what} {str(p)[:80]!r}: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotationError(f"{what} {str(p)[:80]!r} is not UTF-8 text (byte {exc.start:,} "
                            f"is {data[exc.start]:#04x})") from None


def deadline_passed(deadline: float | None) -> bool:
    """Whether a search must stop now: ``deadline`` (a ``time.perf_counter()`` time) has
    passed, or Ctrl-C was pressed (:func:`interrupted`). The one clock test of the
    searches that keep a bare deadline.

    >>> deadline_passed(None), deadline_passed(0.0)
    (False, True)
    """
    return _interrupted or deadline is not None and time.perf_counter() > deadline


def install_interrupt_handler() -> Callable[[], None]:
    """Make Ctrl-C set the :func:`interrupted` flag instead of raising KeyboardInterrupt
    (a second Ctrl-C exits with status 130); return a function restoring the previous
    handler and clearing the flag. Does nothing (but returns a no-op) off the main thread.
    """
    global _interrupted
    try:
        previous = signal.signal(signal.SIGINT, _on_sigint)
    except (ValueError, OSError):   # not the main thread
        return lambda: None
    _interrupted = False

    def restore() -> None:
        global _interrupted
        _interrupted = False
        try:
            signal.signal(signal.SIGINT, previous if previous is not None else
                          signal.default_int_handler)
        except (ValueError, OSError):  # pragma: no cover - not the main thread
            pass

    return restore


__all__ = ["MEMORY_SHARE", "physical_memory", "memory_bound",
           "apply_memory_bound", "memory_room", "address_space", "memory_bound_sentence",
           "interrupted",
           "deadline_passed", "read_capped_text", "install_interrupt_handler"]
