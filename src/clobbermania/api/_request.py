"""The request side of the JSON API: endpoints, their keys, and the checks every request
passes before a library function runs.

An :class:`Endpoint` names a function of :mod:`.verbs` or :mod:`.pages` and the keys its
JSON body may hold (:class:`Param`). :func:`run_endpoint` checks a body against them: the
body is an object, every key is known and of its type, no key names a file, a process
count or standard input, and a ``time_limit`` is clamped to the server's. A failed check
is a :class:`RequestError`, one sentence (HTTP 400 on the web).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import NotationError

#: Keys that name a file, a process count or standard input: the CLI has them, a request
#: never does (a server must not read its own files or start processes for a caller).
REFUSED_KEYS: dict[str, str] = {
    "db": "it names a database folder on the server",
    "svg": "it names a file to write on the server (the pages draw with the 'svg' answers)",
    "workers": "it sets a process count",
    "threads": "it sets a thread count",
    "jobs": "it sets a process count",
    "processes": "it sets a process count",
    "file": "it names a file on the server",
}

#: Keys whose value may depend on timing or caches, and so may differ between two equal
#: answers (the CLI's --json and the API's, or two runs).
TIMING_KEYS = frozenset({"seconds", "cpu_seconds", "nodes", "searched", "db_lookups", "db"})


class RequestError(NotationError):
    """A request the API refuses: one sentence naming the key or value (HTTP 400)."""


class NotFound(RequestError):
    """No endpoint of that name (HTTP 404)."""


_TYPE_NAMES = {str: "a string", bool: "true or false", int: "a whole number",
               float: "a number", list: "a list of strings"}


@dataclass(frozen=True)
class Param:
    """One key of a request body: its JSON type (str, bool, int, float, list for a list
    of strings, or a tuple of these), whether it must be given, and its default."""

    kind: type | tuple[type, ...]
    required: bool = False
    default: Any = None


@dataclass(frozen=True)
class Endpoint:
    """An API endpoint: ``run(**checked_body)`` returns the answer object.

    ``heavy`` endpoints search (they run in the server's worker processes, under its time
    limit); the others answer in milliseconds. ``timed`` endpoints take ``time_limit``.
    """

    name: str
    run: Callable[..., dict]
    params: Mapping[str, Param] = field(default_factory=dict)
    heavy: bool = True
    doc: str = ""

    @property
    def timed(self) -> bool:
        return "time_limit" in self.params


def _check_value(endpoint: str, key: str, value: Any, kind: type | tuple[type, ...]
                 ) -> Any:
    """``value`` if it is of JSON type ``kind`` (ints accepted as floats; a tuple of types:
    any of them), else a RequestError naming the key."""
    if isinstance(kind, tuple):
        for k in kind:
            try:
                return _check_value(endpoint, key, value, k)
            except RequestError:
                pass
        raise RequestError(f"{key} must be "
                           f"{' or '.join(_TYPE_NAMES[k] for k in kind)} for {endpoint}, "
                           f"not {_json_type(value)}")
    ok = False
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if ok:
            try:
                value = float(value)
            except OverflowError:   # a JSON integer past a float's range (10**400)
                value = math.inf
            if not math.isfinite(value):
                raise RequestError(f"{key} must be a finite number")
    elif kind is str:
        ok = isinstance(value, str)
    elif kind is list:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    if not ok:
        raise RequestError(f"{key} must be {_TYPE_NAMES[kind]} for {endpoint}, "
                           f"not {_json_type(value)}")
    return value


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list" if all(isinstance(v, str) for v in value) else \
            "a list holding something other than strings"
    return "an object"


def check_body(endpoint: Endpoint, body: Any, max_time_limit: float | None = None
               ) -> dict[str, Any]:
    """The keyword arguments of ``endpoint.run`` from the JSON ``body``, checked.

    ``max_time_limit`` (the server's ``--time-limit``) caps a timed endpoint's
    ``time_limit``, and is its value when the body gives none.

    >>> ep = Endpoint("x/y", dict, {"board": Param(str, True), "time_limit": Param(float)})
    >>> check_body(ep, {"board": "xo", "time_limit": 99}, max_time_limit=5)
    {'board': 'xo', 'time_limit': 5.0}
    >>> check_body(ep, {"board": "xo", "db": "/tmp"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clobbermania.api._request.RequestError: the key 'db' is not accepted by the API: ...
    """
    if not isinstance(body, dict):
        raise RequestError(f"the body of {endpoint.name} must be a JSON object, "
                           f"not {_json_type(body)}")
    for key in body:
        if key in REFUSED_KEYS:
            raise RequestError(f"the key {key!r} is not accepted by the API: "
                               f"{REFUSED_KEYS[key]}")
    unknown = [k for k in body if k not in endpoint.params]
    if unknown:
        first = unknown[0] if isinstance(unknown[0], str) else repr(unknown[0])  # call(dict)
        shown = first if len(first) <= 40 else first[:37] + "..."
        accepted = ", ".join(endpoint.params) or "none"
        raise RequestError(f"unknown key {shown!r} for {endpoint.name} (accepted: "
                           f"{accepted})")
    out: dict[str, Any] = {}
    for key, param in endpoint.params.items():
        if key in body and body[key] is not None:
            out[key] = _check_value(endpoint.name, key, body[key], param.kind)
        elif param.required:
            raise RequestError(f"{endpoint.name} needs the key {key!r}")
        elif param.default is not None:
            out[key] = param.default
    if out.get("board") == "-":
        raise RequestError("a board '-' (standard input) is not accepted by the API: "
                           "send the board's text")
    if endpoint.timed:
        asked = out.get("time_limit")
        if asked is not None and asked <= 0:
            raise RequestError(f"time_limit must be a positive number of seconds, not "
                               f"{asked:g}")
        if max_time_limit is not None:
            max_time_limit = float(max_time_limit)
            out["time_limit"] = max_time_limit if asked is None else min(asked,
                                                                         max_time_limit)
    return out


def run_endpoint(endpoint: Endpoint, body: Any, max_time_limit: float | None = None
                 ) -> dict:
    """Check ``body`` and run ``endpoint``: the answer object, without the ``db`` key
    (the API never shows a server path)."""
    kwargs = check_body(endpoint, body, max_time_limit)
    answer = endpoint.run(**kwargs)
    answer.pop("db", None)
    return answer


__all__ = ["Param", "Endpoint", "RequestError", "NotFound", "REFUSED_KEYS", "TIMING_KEYS",
           "check_body", "run_endpoint"]
