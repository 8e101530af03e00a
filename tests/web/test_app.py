"""The web application in process (Starlette's TestClient) with a real worker pool: routes,
JSON errors, the Host check, the body cap, refused keys, the queue limit (503), the
time-limit kill (504), and the light requests' latency while every worker is busy."""

from __future__ import annotations

import json
import math
import statistics
import threading
import time
from importlib import resources

import pytest
from starlette.testclient import TestClient

from clobbermania import ClobbermaniaError, __version__, api
from clobbermania.web.app import MAX_BODY_BYTES, allowed_host_names, create_app, is_loopback
from clobbermania.web.pool import run_api_call

TIME_LIMIT = 1.5
KILL_AFTER = TIME_LIMIT * 1.5 + 2


def slow_or_api(name: str, body: dict, max_time_limit: float | None) -> dict:
    """The pool's job in these tests: ``cgt/value`` of the expression ``burn S`` keeps a
    core busy for S seconds, ``sleep S`` sleeps S seconds, ``bug`` raises, ``limit`` returns the
    time limit the server gave; every other
    request runs the real job (:func:`clobbermania.api.call`)."""
    expr = body.get("expr", "") if name == "cgt/value" else ""
    if expr.startswith("burn "):
        end = time.perf_counter() + float(expr.split()[1])
        n = 0
        while time.perf_counter() < end:
            n += 1
        return {"burned": n}
    if expr.startswith("sleep "):
        time.sleep(float(expr.split()[1]))
        return {"slept": True}
    if expr == "bug":
        raise KeyError("a bug")
    if expr == "limit":
        return {"max_time_limit": max_time_limit}
    return run_api_call(name, body, max_time_limit)


@pytest.fixture(scope="module")
def client():
    app = create_app(time_limit=TIME_LIMIT, processes=2, queue=1, job=slow_or_api,
                     warm=None)
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        deadline = time.monotonic() + 60
        while c.get("/api/health").json()["workers"]["ready"] < 2:
            assert time.monotonic() < deadline, "the workers did not start within 60 s"
            time.sleep(0.05)
        yield c


def post(client, name, body, **kw):
    return client.post(f"/api/{name}", content=json.dumps(body), **kw)


def without_timing(obj: dict) -> dict:
    return {k: v for k, v in obj.items() if k not in api.TIMING_KEYS}


def test_health(client):
    r = client.get("/api/health")
    assert r.status_code == 200
    info = r.json()
    assert (info["status"], info["version"]) == ("ok", __version__)
    assert info["time_limit"] == TIME_LIMIT and info["max_body_bytes"] == MAX_BODY_BYTES
    assert info["workers"]["processes"] == 2


def test_heavy_endpoint_through_the_pool_equals_the_api(client):
    body = {"expr": "{0|^}"}
    r = post(client, "cgt/value", body)
    assert r.status_code == 200
    assert r.json()["value"] == "^^*"
    assert without_timing(r.json()) == without_timing(api.call("cgt/value", body, TIME_LIMIT))
    # the library's sentence for bad input, from the worker, as 400
    r = post(client, "cgt/value", {"expr": "{0|"})
    with pytest.raises(ClobbermaniaError) as caught:
        api.call("cgt/value", {"expr": "{0|"})
    assert (r.status_code, r.json()) == (400, {"error": str(caught.value)})


def test_light_endpoints_run_in_the_server(client):
    body = {"board": "xox/oxo", "moves": ["a1-b1"]}
    r = post(client, "clobber/state", body)
    assert r.status_code == 200
    assert r.json() == api.call("clobber/state", body)
    r = post(client, "clobber/state", {"board": "xox/oxo", "moves": ["a1-c3"]})
    assert r.status_code == 400 and r.json()["error"].startswith("move 1 (a1-c3)")
    boards = client.get("/api/samegame/boards")
    assert boards.status_code == 200 and len(boards.json()["boards"]) == 20


def test_the_server_time_limit_reaches_the_job(client):
    """The job gets the server's --time-limit (api.call clamps the request's to it)."""
    r = post(client, "cgt/value", {"expr": "limit", "time_limit": 999})
    assert r.json() == {"max_time_limit": TIME_LIMIT}
    r = post(client, "cgt/value", {"expr": "limit", "time_limit": -1})
    assert r.status_code == 400 and r.json()["error"].startswith("time_limit must be a positive")


def test_pages_come_from_the_package(client):
    static = resources.files("clobbermania.web") / "static"
    page = client.get("/")
    if not (static / "index.html").is_file():
        assert page.status_code == 404 and "index.html" in page.json()["error"]
        return
    assert page.status_code == 200 and page.content == (static / "index.html").read_bytes()
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    types = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}
    for entry in static.iterdir():
        suffix = entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in types:
            r = client.get(f"/static/{entry.name}")
            assert r.status_code == 200 and r.content == entry.read_bytes()
            assert r.headers["content-type"] == types[suffix]


def test_routes_and_errors_are_json(client):
    cases = [
        (client.get("/api/clobber/state"), 405, "GET is not accepted at '/api/clobber/state'"),
        (client.get("/nowhere"), 404, "no page or endpoint at '/nowhere'"),
        (client.get("/static/../pyproject.toml"), 404, None),
        (client.get("/static/nothing.js"), 404, "no file 'nothing.js'"),
        (post(client, "nosuch/verb", {}), 404, "no API endpoint 'nosuch/verb'"),
        (client.post("/api/cgt/value", content=b"{\"expr\": "), 400,
         "the request body is not valid JSON: Expecting value at line 1 column 10"),
        (client.post("/api/cgt/value", content=b"[1, 2]"), 400,
         "the body of cgt/value must be a JSON object, not a list"),
        (client.post("/api/cgt/value", content=b"\xff\xfe"), 400,
         "the request body is not UTF-8 text (byte 0 is 0xff)"),
        (client.post("/api/cgt/value", content=b"[" * 100_000), 400,
         "the request body is not valid JSON: it nests too deeply"),
        (client.post("/api/cgt/value", content=b""), 400, "cgt/value needs the key 'expr'"),
        (post(client, "cgt/value", {"expr": 3}), 400, "expr must be a string"),
        (post(client, "cgt/value", {"expr": "bug"}), 500, "internal error (KeyError)"),
    ]
    for r, status, start in cases:
        assert r.status_code == status, (r.request.url, r.text)
        assert r.headers["content-type"] == "application/json"
        assert "Traceback" not in r.text
        if start is not None:
            assert r.json()["error"].startswith(start), r.json()


@pytest.mark.parametrize("key", ["db", "svg", "workers", "threads", "jobs"])
def test_refused_keys(client, key):
    r = post(client, "solitaire/solve", {"board": "xoxo", key: "/tmp/x"})
    assert r.status_code == 400
    assert r.json()["error"].startswith(f"the key '{key}' is not accepted by the API")


def test_refused_inputs(client):
    r = post(client, "solitaire/solve", {"board": "-"})
    assert (r.status_code, r.json()["error"]) == (
        400, "a board '-' (standard input) is not accepted by the API: send the board's text")
    r = post(client, "clobber/value", {"board": "xo", "graph": "edges:/etc/passwd"})
    assert r.status_code == 400 and "the API reads no files" in r.json()["error"]


def test_body_cap(client):
    pad = MAX_BODY_BYTES - len(json.dumps({"expr": ""}))
    at_cap = json.dumps({"expr": "0" * pad}).encode()
    assert len(at_cap) == MAX_BODY_BYTES
    assert client.post("/api/cgt/value", content=at_cap).status_code != 413
    over = client.post("/api/cgt/value", content=at_cap + b" ")
    assert over.status_code == 413
    assert over.json()["error"] == ("the request body is larger than the server's cap of "
                                    "262,144 bytes")

    def chunks():                  # no Content-Length: counted while read
        for _ in range(5):
            yield b" " * 60_000

    assert client.post("/api/cgt/value", content=chunks()).status_code == 413


def test_host_header(client):
    for host in ("127.0.0.1", "127.0.0.1:8000", "localhost", "LOCALHOST:1234"):
        assert client.get("/api/health", headers={"host": host}).status_code == 200, host
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "[::1]", ""):
        r = client.get("/api/health", headers={"host": host})
        assert r.status_code == 400, host
        assert r.json()["error"].startswith("invalid host header")
    assert post(client, "cgt/value", {"expr": "0"}, headers={"host": "evil.example"}
                ).status_code == 400


def test_allowed_hosts_of_a_network_server():
    import socket

    assert allowed_host_names("127.0.0.1") == {"127.0.0.1", "localhost"}
    names = allowed_host_names("0.0.0.0", ["teacher.example"])
    assert {"127.0.0.1", "localhost", "0.0.0.0", socket.gethostname().lower(),
            "teacher.example"} <= names
    assert not is_loopback("0.0.0.0") and is_loopback("::1") and is_loopback("127.0.0.2")
    # a network server answers its machine's name; no lifespan: the pool never starts
    network = TestClient(create_app(host="0.0.0.0", processes=1))
    for host in (socket.gethostname(), "127.0.0.1:8000", "0.0.0.0"):
        assert network.get("/api/health", headers={"host": host}).status_code == 200, host
    assert network.get("/api/health", headers={"host": "evil.example"}).status_code == 400


def _in_threads(client, bodies):
    """Post cgt/value ``bodies`` from threads at once: the started threads and answers."""
    answers = [None] * len(bodies)

    def send(i):
        answers[i] = post(client, "cgt/value", bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
        time.sleep(0.1)
    return threads, answers


def test_queue_full_is_503_and_light_requests_stay_fast(client):
    """Two workers burn a core each, one request waits: the next heavy request is 503 at
    once with Retry-After, refused keys are still 400, and health and clobber/state answer
    with a 95th percentile under 100 ms."""
    threads, answers = _in_threads(client, [{"expr": "burn 3"}, {"expr": "burn 3"},
                                            {"expr": "0"}])
    deadline = time.monotonic() + 2
    while client.get("/api/health").json()["workers"] != {
            "processes": 2, "ready": 2, "busy": 2, "waiting": 1}:
        assert time.monotonic() < deadline, "the three requests did not reach the pool"
        time.sleep(0.02)
    start = time.perf_counter()
    full = post(client, "cgt/value", {"expr": "0"})
    assert time.perf_counter() - start < 0.5
    assert full.status_code == 503
    assert full.headers["retry-after"] == str(math.ceil(TIME_LIMIT)) == "2"
    assert full.json()["error"].startswith("the server is busy")
    assert post(client, "cgt/value", {"expr": "0", "db": "x"}).status_code == 400
    latencies = []
    body = {"board": "xoxo/oxox/xoxo", "moves": ["a1-b1"]}
    while threads[0].is_alive() and len(latencies) < 200:   # about 2.5 s of burning
        for method, path, payload in (("GET", "/api/health", None),
                                      ("POST", "/api/clobber/state", body)):
            start = time.perf_counter()
            r = client.request(method, path, content=payload and json.dumps(payload))
            latencies.append(time.perf_counter() - start)
            assert r.status_code == 200
        time.sleep(0.02)
    for t in threads:
        t.join()
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert len(latencies) >= 20
    p95 = statistics.quantiles(latencies, n=20)[-1]
    print(f"light requests while both workers burn: n={len(latencies)}, "
          f"median {statistics.median(latencies) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms")
    assert p95 < 0.1


def test_overrun_is_504_and_the_worker_replaced(client):
    pool = client.app.state.pool
    before = set(pool.pids())
    start = time.monotonic()
    r = post(client, "cgt/value", {"expr": "sleep 60"})
    took = time.monotonic() - start
    assert (r.status_code, r.json()) == (504, {
        "error": "the search overran its time limit of 1.5 s and was stopped"})
    assert KILL_AFTER <= took < KILL_AFTER + 2
    after = post(client, "cgt/value", {"expr": "{0|^}"})
    assert after.status_code == 200 and after.json()["value"] == "^^*"
    assert len(set(pool.pids()) - before) == 1 and len(pool.pids()) == 2


# --- red team (issue 26) ---------------------------------------------------------------------

def test_a_lone_surrogate_in_a_refused_move_is_a_400(client):
    # JSON allows "\ud800"; the sentence quoting it could not be encoded as UTF-8 (HTTP 500)
    for name, board in [("clickomania/state", "1122"), ("clobber/state", "xo")]:
        r = client.post(f"/api/{name}",
                        content=b'{"board": "%s", "moves": ["a1\\ud800"]}' % board.encode())
        assert r.status_code == 400, r.text
        assert r.json()["error"].startswith("move 1 (a1\ud800)")


def test_a_time_limit_past_a_floats_range_is_a_400(client):
    r = client.post("/api/clobber/reply", content=b'{"board": "xo", "time_limit": 1%s}'
                    % (b"0" * 400))
    assert r.status_code == 400 and r.json() == {"error": "time_limit must be a finite number"}


def test_a_byte_order_mark_is_ignored_and_a_repeated_key_refused(client):
    body = json.dumps({"board": "xo"}).encode()
    r = client.post("/api/clobber/state", content=b"\xef\xbb\xbf" + body)
    assert r.status_code == 200 and r.json()["legal_moves"] == ["a1-b1"]
    r = client.post("/api/clobber/state", content=b'{"board": "xo", "board": "ox"}')
    assert r.status_code == 400
    assert r.json() == {"error": "the request body gives the key 'board' twice"}


def test_a_refusal_quoting_a_huge_value_stays_short(client):
    # the sentence quoted the whole 100,000-character value (100 kB of error)
    r = post(client, "clobber/state", {"board": "xo", "first": "x" * 100_000})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith("unknown colour 'xxx") and error.endswith("black or white")
    assert len(error) < 200


def test_a_client_leaving_mid_body_is_a_sentence_not_a_traceback():
    # the server logged a ClientDisconnect traceback and tried to answer 500
    import asyncio

    from starlette.requests import Request

    from clobbermania.web.app import BodyError, read_json

    messages = [{"type": "http.request", "body": b'{"bo', "more_body": True},
                {"type": "http.disconnect"}]

    async def receive():
        return messages.pop(0)

    scope = {"type": "http", "method": "POST", "path": "/api/clobber/state",
             "headers": [(b"content-length", b"500")]}
    with pytest.raises(BodyError, match="closed the connection"):
        asyncio.run(read_json(Request(scope, receive)))


def test_an_unterminated_string_is_named_once(client):
    # "Unterminated string starting at at line 1 column 11"
    r = client.post("/api/clobber/state", content=b'{"board": "xo')
    assert r.status_code == 400 and r.json() == {
        "error": "the request body is not valid JSON: Unterminated string starting at line 1 "
                 "column 11"}


def test_byte_mutated_bodies_get_json_answers_or_one_sentence(client):
    """A seeded fuzz over HTTP: valid bodies of every endpoint with their bytes mutated.
    Each answer is 200 with a JSON object, or 400/404/413 with {"error": one line}; never
    a 500 (whose sentence would say "internal error")."""
    import random

    rng = random.Random(26)
    bases = {
        "clobber/state": {"board": "xoxo/oxox", "moves": ["a1-b1"]},
        "grundy/state": {"board": "xoxo", "moves": ["a1-b1"]},
        "solitaire/state": {"board": "xoxo", "moves": ["a1-b1"], "free": True},
        "clickomania/state": {"board": "1122/2211", "moves": ["a1"]},
        "clobber/reply": {"board": "xoxo", "time_limit": 0.2},
        "grundy/options": {"board": "xoxo"},
        "cgt/thermograph": {"expr": "{2|-1}"},
        "cgt/value": {"expr": "{0|^}"},
        "clobber/solve": {"board": "xo/ox", "first": "black"},
        "samegame/play": {"board": "1122/2211", "max_playouts": 5, "left_penalty": "60,0"},
        "solitaire/verify": {"board": "xoxo", "moves": ["a1-b1", "d1-c1"]},
        "nope/nope": {},
    }
    pieces = [b"\x00", b"\xff", b"{", b"}", b"[", b'"', b"\\", b"\\ud800", b"\\u0000",
              b"1e999", b"-", b",", b":", b"null", b"\xef\xbb\xbf", b"\xc3\xa9", b"9" * 400,
              b'"board":', b"\n", b"NaN"]
    seen: dict[int, int] = {}
    for _ in range(150):
        name = rng.choice(sorted(bases))
        raw = json.dumps(bases[name]).encode()
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            i = rng.randint(0, len(raw))
            op = rng.random()
            if op < 0.5:
                raw = raw[:i] + rng.choice(pieces) + raw[i:]
            elif op < 0.75:
                raw = raw[:i] + raw[i + rng.randint(1, 4):]
            elif op < 0.9:
                raw = raw[:i]
            else:
                raw = raw[:i] + raw[i:i + 8] * rng.randint(2, 40_000) + raw[i:]
        r = client.post(f"/api/{name}", content=raw)
        if r.status_code == 504:   # the fixture's workers skip the warm-up: a cold worker's
            r = client.post(f"/api/{name}", content=raw)   # first search may overrun
        seen[r.status_code] = seen.get(r.status_code, 0) + 1
        assert r.status_code in (200, 400, 404, 413), (name, raw[:200], r.text[:300])
        answer = r.json()
        assert isinstance(answer, dict)
        if r.status_code != 200:
            assert set(answer) == {"error"} and answer["error"].strip(), answer
            assert "\n" not in answer["error"] and len(answer["error"]) < 5000
    assert seen.get(200, 0) > 10 and seen.get(400, 0) > 50, seen


def test_a_content_length_of_a_non_ascii_digit_is_not_a_crash():
    # '²' (latin-1 0xb2) passed str.isdigit, and int() raised ValueError; the body decides
    import asyncio

    from starlette.requests import Request

    from clobbermania.web.app import read_json

    messages = [{"type": "http.request", "body": b'{"board": "xo"}', "more_body": False}]

    async def receive():
        return messages.pop(0)

    scope = {"type": "http", "method": "POST", "path": "/api/clobber/state",
             "headers": [(b"content-length", b"\xb2")]}
    assert asyncio.run(read_json(Request(scope, receive))) == {"board": "xo"}


def test_a_request_from_another_sites_page_is_refused(client):
    # a page elsewhere could POST text/plain bodies (no CORS preflight) and keep the
    # workers busy: the Host header is the server's own, only Origin tells
    body = json.dumps({"board": "xo"})
    for origin in ["http://evil.com", "https://127.0.0.1.evil.com:8000", "null",
                   "http://evil.com/x"]:
        r = client.post("/api/clobber/state", content=body,
                        headers={"origin": origin, "content-type": "text/plain"})
        assert r.status_code == 400, origin
        assert r.json()["error"].startswith("a request from the page of another site")
    for origin in ["http://127.0.0.1:8000", "http://localhost:5173", "http://LOCALHOST"]:
        r = client.post("/api/clobber/state", content=body, headers={"origin": origin})
        assert r.status_code == 200, origin


def test_an_empty_allowed_host_is_refused():
    # --allow-host '' let a request with no Host header (HTTP/1.0) through the check
    with pytest.raises(ClobbermaniaError, match="--allow-host needs a host name"):
        allowed_host_names("127.0.0.1", [""])
    assert allowed_host_names("127.0.0.1", ["School.Local.", "[::2]"]) >= {"school.local",
                                                                             "::2"}
