"""The local web application of ``clobbermania serve`` (docs/web.md).

* :mod:`.app` -- :func:`~clobbermania.web.app.create_app`, the Starlette application:
  the pages of ``static/``, ``/api/health`` and the JSON API of :mod:`clobbermania.api`,
  with its error answers, the Host-header check and the body cap.
* :mod:`.pool` -- :class:`~clobbermania.web.pool.WorkerPool`, the spawned worker processes
  that run the searches under the server's time limit.

This package imports neither at import time: a worker process imports :mod:`.pool`
before it has set numba to one thread, and must not load numba (or Starlette) first.
``create_app`` is reachable from here all the same:

>>> from clobbermania.web import create_app
>>> create_app(processes=1).state.time_limit
5.0
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module 'clobbermania.web' has no attribute {name!r}")


__all__ = ["create_app"]
