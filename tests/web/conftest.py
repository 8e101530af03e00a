"""Fixtures of the browser tests: the real server on a free loopback port, and Debian's
Chromium driven by Playwright (its own browser download cannot work offline).

``CLOBBERMANIA_TEST_URL=http://127.0.0.1:8000`` runs the browser tests against a server
already running instead of starting one; ``CLOBBERMANIA_SCREENSHOTS=DIR`` writes their
screenshots to DIR instead of tests/web/screenshots/; ``CLOBBERMANIA_REQUIRE_BROWSER=1``
(set by .ci/run, which installs Chromium) makes a missing browser a failure, not a skip.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Where the browser tests write a screenshot of each page (git-ignored).
SCREENSHOTS = Path(__file__).parent / "screenshots"

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """The Chromium binary of the system (Debian's ``chromium`` package), or None."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The URL of a running ``clobbermania serve`` (create_app + uvicorn in a thread, two
    worker processes, time limit 5 s), stopped at the end of the module."""
    given = os.environ.get("CLOBBERMANIA_TEST_URL")
    if given:
        yield given.rstrip("/")
        return
    import uvicorn

    from clobbermania.web.app import create_app

    port = _free_port()
    app = create_app(time_limit=5.0, processes=2, host="127.0.0.1", port=port)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            pytest.fail("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(60)


@contextlib.contextmanager
def _address_space_of_the_hard_limit() -> Iterator[None]:
    """Lift this process's soft RLIMIT_AS to its hard limit while Playwright's driver,
    which starts Chromium, is started (and restore it after): the CLI tests run
    ``clobbermania`` in this process, which lowers it to the memory bound, and Chromium
    reserves far more address space than it uses (its launcher fails under such a
    limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (skipped, saying why, when none is installed)."""
    path = chromium_path()
    required = os.environ.get("CLOBBERMANIA_REQUIRE_BROWSER") == "1"
    if path is None:
        why = ("no Chromium binary found (install Debian's 'chromium' package to run the "
               "browser tests)")
        if required:
            pytest.fail(why + "; CLOBBERMANIA_REQUIRE_BROWSER=1 requires them")
        pytest.skip(why)
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install -e .[dev])")
    with _address_space_of_the_hard_limit():   # Playwright's driver starts Chromium
        p = sync_api.sync_playwright().start()
    try:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
    finally:
        p.stop()


@pytest.fixture
def page(browser):
    """A fresh page, 1200 x 900; a JavaScript error on it fails the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # a refused request (HTTP 400) is shown on the page and logged by Chromium as a failed
    # resource: that is not a page error
    pg.on("console", lambda m: errors.append(m.text)
          if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    yield pg
    context.close()
    assert not errors, f"errors on the page: {errors}"


@pytest.fixture
def call_api(server_url):
    """POST a JSON body to the server's API: the answer object (fails on HTTP errors)."""
    def call(name: str, body: dict) -> dict:
        req = urllib.request.Request(f"{server_url}/api/{name}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{name} {body}: HTTP {e.code} {e.read()[:300]!r}") from None
    return call


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The folder the tests write screenshots to: tests/web/screenshots/, or the folder
    named by CLOBBERMANIA_SCREENSHOTS (``make screenshots`` points it at docs/img/)."""
    folder = Path(os.environ.get("CLOBBERMANIA_SCREENSHOTS") or SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
