"""The JSON API: one place that turns a request into the object the CLI's ``--json``
prints, shared by the command line and the web server (docs/web.md).

* :mod:`.verbs` -- the CLI's verbs (``solitaire/solve``, ``clobber/value``, ...): each a
  function the CLI calls for its output and the web calls for its answer.
* :mod:`.pages` -- what the browser pages need: a position after moves (``*/state``), the
  computer's reply, Grundy values of options, thermographs, the standard SameGame boards.
* :func:`call` -- run an endpoint by name on a JSON body, with every check of
  :mod:`._request` (unknown and refused keys, types, the server's time limit).

This layer sits below ``cli`` and ``web`` and imports neither.

>>> call("cgt/value", {"expr": "{0|^}"})["value"]   # {0|up} = double-up star
'^^*'
"""

from __future__ import annotations

from typing import Any

from ._request import (
    REFUSED_KEYS,
    TIMING_KEYS,
    Endpoint,
    NotFound,
    Param,
    RequestError,
    check_body,
    run_endpoint,
)
from .pages import ENDPOINTS as _PAGE_ENDPOINTS
from .verbs import ENDPOINTS as _VERB_ENDPOINTS

#: Every POST endpoint by name (``"solitaire/solve"``, ``"clobber/state"``, ...).
ENDPOINTS: dict[str, Endpoint] = {**_VERB_ENDPOINTS, **_PAGE_ENDPOINTS}


def endpoint(name: str) -> Endpoint:
    """The endpoint called ``name``; NotFound (one sentence) when there is none."""
    try:
        return ENDPOINTS[name]
    except KeyError:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise NotFound(f"no API endpoint {shown!r}") from None


def call(name: str, body: Any, max_time_limit: float | None = None) -> dict:
    """Run the endpoint ``name`` on the JSON ``body``: the answer object.

    ``max_time_limit`` caps (and defaults) the request's ``time_limit``. Bad input raises a
    :class:`~clobbermania.errors.ClobbermaniaError` with one sentence.
    """
    return run_endpoint(endpoint(name), body, max_time_limit)


__all__ = ["ENDPOINTS", "Endpoint", "Param", "RequestError", "NotFound", "REFUSED_KEYS",
           "TIMING_KEYS", "call", "check_body", "endpoint"]
