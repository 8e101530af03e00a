"""``clobbermania serve`` as a user runs it: a subprocess on a free port that prints its
URL, answers, opens the browser when asked, and stops on Ctrl-C with exit 0 and no worker
process left; bad settings and a port in use are one sentence and exit 2."""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import run_cli

from clobbermania.limits import memory_bound
from clobbermania.web.pool import MIN_WORKER_MEMORY

CLOBBERMANIA = Path(sys.executable).parent / "clobbermania"


def children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid``, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def exists(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def request(port: int, method: str, path: str, body: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=None if body is None else json.dumps(body))
    r = conn.getresponse()
    out = r.status, json.loads(r.read())
    conn.close()
    return out


def read_line(stream, timeout: float) -> str:
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else ""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes in /proc")
def test_serve_answers_and_ctrl_c_stops_it(tmp_path):
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    env = {**os.environ, "BROWSER": str(browser)}
    proc = subprocess.Popen(
        [str(CLOBBERMANIA), "serve", "--port", "0", "--processes", "1", "--open"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True)          # its own process group, as in a terminal
    try:
        line = read_line(proc.stdout, 60)
        match = re.fullmatch(r"serving on http://127\.0\.0\.1:(\d+)/ \(Ctrl-C stops\)\n",
                             line)
        assert match, (line, proc.stderr.read() if proc.poll() is not None else "")
        port = int(match.group(1))
        status, health = request(port, "GET", "/api/health")
        assert status == 200 and health["status"] == "ok"
        status, answer = request(port, "POST", "/api/cgt/value", {"expr": "{0|^}"})
        assert (status, answer["value"]) == (200, "^^*")
        workers = [p for p in children(proc.pid)
                   if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()]
        assert len(workers) == 1
        deadline = time.monotonic() + 10
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text().strip() == f"http://127.0.0.1:{port}/"
        os.killpg(proc.pid, signal.SIGINT)      # Ctrl-C: the whole group gets SIGINT
        code = proc.wait(15)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert code == 0, err
    assert "Traceback" not in err and "interrupted" not in err
    assert not any(exists(pid) for pid in workers)


def _listening_port() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock


def test_a_port_in_use_is_one_sentence(capsys):
    with _listening_port() as used:
        port = used.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--port", str(port), "--processes", "1")
    assert (code, out) == (2, "")
    assert err == (f"error: port {port} on 127.0.0.1 is in use (another server?); choose "
                   "another with --port\n")


def test_another_host_is_warned(capsys):
    with _listening_port() as used:
        port = used.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--host", "0.0.0.0", "--port", str(port),
                                 "--processes", "1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 2
    assert lines[0].startswith("warning: serving on 0.0.0.0, not this machine's loopback: "
                               "other machines of the network can use this server")
    assert lines[1] == (f"error: port {port} on 0.0.0.0 is in use (another server?); "
                        "choose another with --port")


def test_settings_are_checked(capsys):
    code, _, err = run_cli(capsys, "serve", "--time-limit", "0")
    assert code == 2 and err.startswith("error: Invalid value for '--time-limit'")
    too_many = memory_bound() // MIN_WORKER_MEMORY + 1
    if too_many <= 256:
        code, _, err = run_cli(capsys, "serve", "--processes", str(too_many))
        assert code == 2 and err.endswith(f"a worker needs 1 GiB: use at most "
                                          f"{too_many - 1}\n")
