"""The web application of ``clobbermania serve``: the pages and the JSON API over HTTP.

Routes (docs/web.md has the API reference):

* ``GET /`` -- the application page; ``GET /static/<file>`` -- its scripts and styles,
  read from the package (nothing is loaded from outside it).
* ``GET /api/health`` -- ``{"status": "ok", "version": ..., "time_limit": ..., "workers":
  {...}}``.
* ``GET /api/samegame/boards`` -- the 20 standard SameGame boards.
* ``POST /api/<game>/<verb>`` -- the endpoint ``<game>/<verb>`` of
  :mod:`clobbermania.api` on the JSON body. Heavy endpoints (the searches) run in the
  :class:`~clobbermania.web.pool.WorkerPool` under the server's time limit; light ones (a
  position after moves, its drawing) run in a thread of the server process.

Every answer is JSON; an error is ``{"error": "<one sentence>"}`` with status 400 (bad
input, a refused key, a body that is not a JSON object, more memory than the bound), 404
(no such endpoint or page), 405 (wrong method), 413 (a body over :data:`MAX_BODY_BYTES`),
503 (every worker busy and the queue full, with ``Retry-After``; or the server stopping),
504 (a search that overran the time limit and was stopped), never a traceback.

Requests whose ``Host`` header does not name the served address are refused (400): a web
page elsewhere cannot reach the server through a DNS name rebound to 127.0.0.1.

>>> app = create_app(processes=1)
>>> sorted(app.state.allowed_hosts)
['127.0.0.1', 'localhost']
"""

from __future__ import annotations

import codecs
import contextlib
import ipaddress
import json
import socket
from collections.abc import AsyncIterator, Callable, Iterable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import __version__, api
from ..errors import ClobbermaniaError, NotationError
from ..limits import memory_bound_sentence
from .pool import PoolError, PoolFull, WorkerPool, run_api_call, warm_up

#: The largest request body the server reads, in bytes (a 256 KiB JSON object holds any
#: board the endpoints accept).
MAX_BODY_BYTES = 262_144

#: Content types of the files under ``static/``, by suffix.
_CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}

#: Headers of every page and static file: no framing by other sites, no MIME sniffing,
#: no referrer leaving the machine, and nothing loaded from outside the server.
_PAGE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
}


# ----------------------------------------------------------------------------------------
# hosts


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine's loopback only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    host = host.strip("[]").lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _machine_addresses() -> set[str]:
    """The names and addresses under which other machines may reach this one: its host
    name, fully qualified name, and every address of its interfaces that can be read."""
    names: set[str] = set()
    hostname = socket.gethostname()
    names.update({hostname, socket.getfqdn()})
    with contextlib.suppress(OSError, UnicodeError):
        for info in socket.getaddrinfo(hostname, None):
            names.add(str(info[4][0]).split("%")[0])
    names.update(_interface_addresses())
    return {n.lower() for n in names if n}


def _interface_addresses() -> set[str]:
    """IPv4 and IPv6 addresses of the machine's interfaces (Linux; empty elsewhere)."""
    found: set[str] = set()
    try:
        import fcntl
        import struct
    except ImportError:  # pragma: no cover - not POSIX
        return found
    with contextlib.suppress(OSError), \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(sock.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name[:15].encode()))
                found.add(socket.inet_ntoa(packed[20:24]))
    with contextlib.suppress(OSError, ValueError), \
            open("/proc/net/if_inet6", encoding="ascii") as fh:
        for line in fh:
            raw = line.split()[0]
            found.add(str(ipaddress.IPv6Address(bytes.fromhex(raw))))
    return found


def allowed_host_names(host: str, extra: Iterable[str] = ()) -> set[str]:
    """The ``Host`` header names the server answers when bound to ``host``.

    A loopback host allows itself and ``localhost`` (``localhost`` also allows
    ``127.0.0.1`` and ``::1``); another host (``0.0.0.0``, a network address) also allows
    the machine's names and addresses. ``extra`` adds names (``--allow-host``).

    >>> sorted(allowed_host_names("localhost"))
    ['127.0.0.1', '::1', 'localhost']
    """
    host = host.strip("[]").lower().rstrip(".")
    names = {host, "localhost"}
    if host == "localhost":
        names.update({"127.0.0.1", "::1"})
    if not is_loopback(host):
        names.update({"127.0.0.1", "::1"})
        names.update(_machine_addresses())
    for e in extra:
        name = _host_name(e)
        if not name:   # an empty name would let a request with no Host header through
            raise NotationError(f"--allow-host needs a host name, not {e!r}")
        names.add(name)
    return names


def _host_name(header: str) -> str:
    """The name of a ``Host`` header, without its port: ``[::1]:80`` -> ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[1:end] if end > 0 else header
    if header.count(":") == 1:
        header = header.split(":", 1)[0]
    return header.rstrip(".")


def _origin_host(origin: str) -> str | None:
    """The host name of an ``Origin`` header (``http://localhost:8000`` -> ``localhost``);
    None for ``null`` (a sandboxed or local-file page) or anything else.

    >>> _origin_host("http://[::1]:8000"), _origin_host("null")
    ('::1', None)
    """
    scheme, sep, rest = origin.strip().partition("://")
    if not sep or scheme.lower() not in ("http", "https") or not rest or "/" in rest:
        return None
    return _host_name(rest)


class HostCheck:
    """ASGI middleware refusing (400) a request whose Host header is not allowed, or whose
    Origin header (sent by browsers with a script's POST) names another site: a page
    elsewhere could otherwise make the visitor's browser keep the workers busy (its
    ``text/plain`` POSTs need no CORS preflight)."""

    def __init__(self, app: ASGIApp, allowed: set[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            header = ""
            origin = None
            for key, value in scope.get("headers", ()):
                if key == b"host" and not header:
                    header = value.decode("latin-1")
                elif key == b"origin":
                    origin = value.decode("latin-1")
            if origin is not None and _origin_host(origin) not in self.allowed:
                shown = origin if len(origin) <= 60 else origin[:57] + "..."
                response = JSONResponse(
                    {"error": f"a request from the page of another site ({shown!r}) is "
                              f"refused: this server answers its own pages, at "
                              f"{self.served}"}, status_code=400)
                await response(scope, receive, send)
                return
            if _host_name(header) not in self.allowed:
                shown = header if len(header) <= 60 else header[:57] + "..."
                response = JSONResponse(
                    {"error": f"invalid host header {shown!r}: this server answers only "
                              f"requests addressed to {self.served}"},
                    status_code=400)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @property
    def served(self) -> str:
        names = sorted(self.allowed, key=lambda n: (not is_loopback(n), n))
        shown = ", ".join(names[:4])
        return shown + (f" and {len(names) - 4} other names" if len(names) > 4 else "")


# ----------------------------------------------------------------------------------------
# answers


def _json_bytes(obj: Any) -> bytes:
    """``obj`` as compact UTF-8 JSON. A lone surrogate (JSON allows ``"\\ud800"``, and a
    sentence may quote a request's text) is written as its JSON escape, not refused."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode("utf-8", "backslashreplace")


#: The longest word of an error sentence: a sentence quoting a request's 100 kB value
#: shows its start and end.
MAX_ERROR_WORD = 120


def _sentence(message: str) -> str:
    """``message`` on one line, each word of more than :data:`MAX_ERROR_WORD` characters
    cut in its middle.

    >>> _sentence("unknown colour '" + "x" * 5000 + "': expected black or white")[:40]
    "unknown colour 'xxxxxxxxxxxxxxxxxxxxxxxx"
    >>> len(_sentence("x" * 5000))
    123
    """
    return " ".join(w if len(w) <= MAX_ERROR_WORD else
                    w[:MAX_ERROR_WORD - 20] + "..." + w[-20:] for w in str(message).split())


def _error(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    return Response(_json_bytes({"error": _sentence(message)}), status_code=status,
                    headers=headers, media_type="application/json")


class BodyError(Exception):
    """A request body that cannot be read as a JSON value: ``status`` 400 or 413."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class DuplicateKey(ValueError):
    """A JSON object of the body names a key twice."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict, refusing a key given twice (RFC 8259 leaves its meaning
    open; ``{"board": "xo", "board": "ox"}`` is a mistake, not a choice)."""
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                shown = key if len(key) <= 40 else key[:37] + "..."
                raise DuplicateKey(f"the request body gives the key {shown!r} twice")
            seen.add(key)
    return out


async def read_json(request: Request) -> Any:
    """The request body as a JSON value (an empty body is ``{}``), read up to
    :data:`MAX_BODY_BYTES`; :class:`BodyError` with one sentence otherwise."""
    too_big = BodyError(f"the request body is larger than the server's cap of "
                        f"{MAX_BODY_BYTES:,} bytes", 413)
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_BODY_BYTES:   # not '²'
        raise too_big
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise too_big
            chunks.append(chunk)
    except ClientDisconnect:   # nobody to answer; not a traceback in the server's log
        raise BodyError("the client closed the connection before sending the whole "
                        "body") from None
    raw = b"".join(chunks)
    if raw.startswith(codecs.BOM_UTF8):   # RFC 8259 section 8.1: a parser may ignore it
        raw = raw[len(codecs.BOM_UTF8):]
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(f"the request body is not UTF-8 text (byte {exc.start:,} is "
                        f"{raw[exc.start]:#04x})") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except DuplicateKey as exc:
        raise BodyError(str(exc)) from None
    except json.JSONDecodeError as exc:
        # (json's "Unterminated string starting at" names the place itself)
        raise BodyError(f"the request body is not valid JSON: {exc.msg.removesuffix(' at')} "
                        f"at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise BodyError("the request body is not valid JSON: it nests too deeply") from None
    except ValueError as exc:   # a number of more than 4,300 digits
        raise BodyError(f"the request body is not valid JSON: {str(exc)[:120]}") from None


def _internal_error(exc: BaseException) -> Response:
    """One sentence for an unexpected error (the server logs its traceback)."""
    return _error(f"internal error ({type(exc).__name__}); the server's log has the details",
                  500)


def _run_encoded(endpoint: api.Endpoint, body: Any, time_limit: float) -> bytes:
    """The answer of a light endpoint as JSON bytes (as JSONResponse encodes)."""
    return _json_bytes(api.run_endpoint(endpoint, body, time_limit))


async def _answer(request: Request, name: str, body: Any) -> Response:
    """Run the endpoint ``name`` on ``body``: heavy ones in the pool, light ones here."""
    app_state = request.app.state
    time_limit = app_state.time_limit
    try:
        endpoint = api.endpoint(name)
        if endpoint.heavy:
            api.check_body(endpoint, body, time_limit)   # refuse at once, not in a worker
            answer = await app_state.pool.run(name, body, time_limit)
        else:
            # encoded in the thread too: a drawing of a large board is megabytes of JSON
            answer = await run_in_threadpool(_run_encoded, endpoint, body, time_limit)
    except api.NotFound as exc:
        return _error(str(exc), 404)
    except ClobbermaniaError as exc:
        return _error(str(exc), 400)
    except MemoryError:
        return _error(memory_bound_sentence(), 400)
    except PoolFull as exc:
        return _error(str(exc), 503, {"Retry-After": str(exc.retry_after)})
    except PoolError as exc:
        return _error(str(exc), exc.status)
    if not isinstance(answer, bytes):
        answer = _json_bytes(answer)
    return Response(answer, media_type="application/json")


async def post_endpoint(request: Request) -> Response:
    name = f"{request.path_params['game']}/{request.path_params['verb']}"
    try:
        body = await read_json(request)
    except BodyError as exc:
        return _error(str(exc), exc.status)
    return await _answer(request, name, body)


async def health(request: Request) -> Response:
    state = request.app.state
    return JSONResponse({"status": "ok", "version": __version__,
                         "time_limit": state.time_limit, "max_body_bytes": MAX_BODY_BYTES,
                         "workers": state.pool.stats()})


async def samegame_boards(request: Request) -> Response:
    return await _answer(request, "samegame/boards", {})


def _static_file(name: str) -> Response:
    """A file of the package's ``static`` folder (404 for anything else)."""
    folder = resources.files("clobbermania.web") / "static"
    if "/" in name or "\\" in name or name.startswith("."):
        raise HTTPException(404, f"no file {name[:60]!r} in the application")
    entry = folder / name
    try:
        data = entry.read_bytes() if entry.is_file() else None
    except OSError:
        data = None
    if data is None:
        if name == "index.html":
            raise HTTPException(404, "the application page (static/index.html) is not "
                                "installed; the JSON API under /api/ works")
        raise HTTPException(404, f"no file {name[:60]!r} in the application")
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return Response(data, media_type=_CONTENT_TYPES.get(suffix, "application/octet-stream"),
                    headers=_PAGE_HEADERS)


async def index(request: Request) -> Response:
    return _static_file("index.html")


async def static(request: Request) -> Response:
    return _static_file(request.path_params["name"])


async def _http_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        headers = dict(exc.headers or {})
        detail = exc.detail
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no page or endpoint at {request.url.path[:80]!r}"
        elif exc.status_code == 405:
            allowed = headers.get("Allow", headers.get("allow", ""))
            detail = f"{request.method} is not accepted at {request.url.path[:80]!r}" + \
                (f" (use {allowed})" if allowed else "")
        return _error(detail, exc.status_code, headers or None)
    return _internal_error(exc)


def create_app(*, time_limit: float = 5.0, processes: int | None = None, queue: int = 32,
               host: str = "127.0.0.1", port: int = 8000,
               allowed_hosts: Iterable[str] | None = None,
               job: Callable[..., Any] = run_api_call,
               warm: Callable[[], None] | None = warm_up) -> Starlette:
    """The Starlette application of ``clobbermania serve`` bound to ``host:port``.

    ``time_limit`` caps every request's ``time_limit`` (seconds; a search running past
    ``time_limit * 1.5 + 2`` is killed, HTTP 504); ``processes`` worker processes (default:
    the cores) run the heavy endpoints, with at most ``queue`` requests waiting (then
    503); ``allowed_hosts`` adds names the Host header may give (:func:`allowed_host_names`).
    ``job`` and ``warm`` are the pool's job and warm-up functions (module-level; tests pass
    slow ones). The lifespan starts and stops the pool. Bad settings raise
    :class:`~clobbermania.errors.ClobbermaniaError` with one sentence.
    """
    pool = WorkerPool(job, processes=processes, queue=queue, time_limit=time_limit,
                      warm=warm)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            pool.close()    # on the loop's thread: it fails the jobs still waiting

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/static/{name:path}", static, methods=["GET"]),
        Route("/api/health", health, methods=["GET"]),
        Route("/api/samegame/boards", samegame_boards, methods=["GET"]),
        Route("/api/{game}/{verb}", post_endpoint, methods=["POST"]),
    ]
    allowed = allowed_host_names(host, allowed_hosts or ())
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error, Exception: _http_error})
    app.add_middleware(HostCheck, allowed=allowed)
    app.state.pool = pool
    app.state.time_limit = pool.time_limit
    app.state.allowed_hosts = allowed
    app.state.host = host
    app.state.port = port
    return app


__all__ = ["create_app", "MAX_BODY_BYTES", "allowed_host_names", "is_loopback", "read_json",
           "HostCheck", "BodyError"]
