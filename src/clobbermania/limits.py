"""The one memory bound of clobbermania, and the room a search still has under it.

No input may take a process past :data:`MEMORY_SHARE` (40 %) of the machine's physical
memory. The command line enforces the bound once, for every verb, with an address-space
limit (:func:`apply_memory_bound`, called by ``clobbermania.cli.main``); the searches that
grow tables (the Grundy memo of ``clobber.impartial``, the row database build) size them
with :func:`memory_room`, so that they stop with an answer (``exact: false``) or a clear
sentence before the limit is reached. ``docs/limits.md`` lists every cap, verb by verb.

>>> 0 < memory_bound() <= physical_memory()
True
>>> memory_bound() == int(MEMORY_SHARE * physical_memory())
True
"""

from __future__ import annotations

import os

from .errors import ClobbermaniaError

#: The share of physical memory a clobbermania process may take (address space).
MEMORY_SHARE = 0.4

#: Used when the machine does not say how much memory it has.
_FALLBACK_PHYSICAL = 8 << 30


class MemoryBoundError(ClobbermaniaError, MemoryError):
    """A computation would pass the memory bound (:func:`memory_bound`)."""


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


def _status_bytes(field: str) -> int | None:
    """A ``Vm...`` field of /proc/self/status in bytes (None when not on Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _available_memory() -> int | None:
    """MemAvailable of /proc/meminfo in bytes (None when not on Linux)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def memory_room() -> int:
    """Bytes this process may still allocate: the memory bound (or the lower address-space
    limit in force) less the address space it already uses, and at most 40 % of the
    memory available on the machine now. Never negative.

    >>> 0 <= memory_room() <= memory_bound()
    True
    """
    limit = memory_bound()
    in_force = _address_space_limit()
    if in_force is not None:
        limit = min(limit, in_force)
    used = _status_bytes("VmSize") or 0
    room = limit - used
    avail = _available_memory()
    if avail is not None:
        room = min(room, int(MEMORY_SHARE * avail))
    return max(0, room)


def memory_bound_sentence() -> str:
    """The sentence the command line prints when an input needs more memory than the
    bound allows."""
    limit = memory_bound()
    in_force = _address_space_limit()
    if in_force is not None:
        limit = min(limit, in_force)
    return (f"the computation needs more than the memory bound of {limit / 2**30:.1f} GiB "
            f"({MEMORY_SHARE:.0%} of the machine's memory); give a smaller input or a "
            "time limit")


__all__ = ["MEMORY_SHARE", "MemoryBoundError", "physical_memory", "memory_bound",
           "apply_memory_bound", "memory_room", "memory_bound_sentence"]
