"""``clobbermania serve``: the local web application (docs/web.md)."""

from __future__ import annotations

import errno
import signal
import socket
import threading
import webbrowser

import click

from ..errors import NotationError
from ..web.pool import MAX_PROCESSES, MAX_TIME_LIMIT

#: Seconds a stopping server waits for the requests in flight before cutting them.
_GRACE_SECONDS = 1.0


def _url(host: str, port: int) -> str:
    """``http://host:port/``, with an IPv6 address in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: a free port); NotationError with
    one sentence when the port is in use, not allowed, or the host unknown."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise NotationError(f"cannot serve on host {host[:80]!r}: "
                            f"{getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise NotationError(f"port {port} on {host} is in use (another server?); "
                                "choose another with --port") from None
        raise NotationError(f"cannot listen on {_url(host, port)[7:-1]}: "
                            f"{exc.strerror or exc}") from None
    sock.set_inheritable(False)
    return sock


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Another address than this machine's loopback "
                   "(0.0.0.0: every interface) lets other machines use the server: a "
                   "warning is printed.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="TCP port (0: any free port, printed).")
@click.option("--time-limit", "time_limit", type=click.FloatRange(0, MAX_TIME_LIMIT,
              min_open=True), default=5.0, show_default=True, metavar="SECONDS",
              help="The longest search a request may ask for; a search running past "
                   "1.5 times this plus 2 s is stopped (HTTP 504).")
@click.option("--processes", type=click.IntRange(1, MAX_PROCESSES), default=None,
              help="Worker processes running the searches  [default: the cores]")
@click.option("--queue", type=click.IntRange(0, 100_000), default=32, show_default=True,
              help="Requests that may wait for a worker; more are answered 503 with "
                   "Retry-After.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests addressed to NAME (a DNS name of this machine); "
                   "repeatable.")
@click.option("--open", "open_browser", is_flag=True,
              help="Open the application in the default web browser.")
def serve(host: str, port: int, time_limit: float, processes: int | None, queue: int,
          allow_hosts: tuple[str, ...], open_browser: bool) -> None:
    """Serve the web application: play every game and ask the solvers, in a browser.

    Listens on 127.0.0.1 (this machine only) unless --host says otherwise, prints the
    URL, and runs until Ctrl-C. The pages and the JSON API (POST /api/<game>/<verb>, the
    objects the verbs' --json print) are described in docs/web.md. Requests are
    stateless: the position and the moves travel in each one.

    \b
    Examples:
      clobbermania serve
      clobbermania serve --port 8080 --open
      clobbermania serve --host 0.0.0.0 --processes 4    # a class on a local network
    """
    import uvicorn

    from ..web.app import create_app, is_loopback

    app = create_app(time_limit=time_limit, processes=processes, queue=queue, host=host,
                     port=port, allowed_hosts=allow_hosts)
    if not is_loopback(host):
        click.echo(f"warning: serving on {host}, not this machine's loopback: other "
                   "machines of the network can use this server (no login, no "
                   "encryption); stop it when the class is over", err=True)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    url = _url("127.0.0.1" if host in ("0.0.0.0", "::") else host, port)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=_GRACE_SECONDS, server_header=False)
    pool = app.state.pool

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: object) -> None:
            if self.should_exit:
                # already stopping, within about a second: uvicorn's "force exit" would
                # skip the lifespan's shutdown and log a traceback for nothing
                return
            super().handle_exit(sig, frame)
            pool.stop_soon()    # searches in flight are answered 503 at once

    server = Server(config)
    # uvicorn takes SIGINT and SIGTERM while it runs (Ctrl-C stops it: the searches in
    # flight are answered 503 at once, requests in threads get a second to end, the
    # workers are terminated), then restores the handler it found and raises the signal
    # again: with SIGINT ignored here, that second delivery does nothing and the command
    # exits 0 (under the CLI's own handler it would print "interrupted").
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        click.echo(f"serving on {url} (Ctrl-C stops)")
        if host in ("0.0.0.0", "::"):
            click.echo(f"other machines: http://{socket.gethostname()}:{port}/ or this "
                       "machine's network address", err=True)
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        server.run(sockets=[sock])
    finally:
        pool.close()   # done by the lifespan already, unless uvicorn failed
        sock.close()
        signal.signal(signal.SIGINT, previous)


__all__ = ["serve", "bind"]
