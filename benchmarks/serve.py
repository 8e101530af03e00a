"""Load benchmark of ``clobbermania serve``: concurrent clients, light and heavy requests.

    .venv/bin/python benchmarks/serve.py                      # 20 clients, 1,000 requests
    .venv/bin/python benchmarks/serve.py --clients 20 --requests 1000 --processes 2 \\
        --heavy-share 0.2 --time-limit 2 --repeat 3

Starts the server as a subprocess on a free loopback port (never another host), waits for
``/api/health``, then ``--clients`` threads send ``--requests`` requests in all, a mix of
light ones (``/api/health``, ``clobber/state``, ``clickomania/state``, ``solitaire/state``)
and heavy ones (``samegame/play`` on a standard 15x15 board with a fresh seed, which
searches its whole limit; ``clobber/solve``, ``grundy/value`` and ``clobber/value`` on
fresh random boards of 5x6, 5x5 and 4x5, which no worker has cached), each heavy one
asking for a time limit of ``--heavy-seconds``.

With ``--retry N`` a client answered 503 waits the ``Retry-After`` seconds and asks again,
up to N times. Prints, per run and as the median of ``--repeat`` runs: requests answered
by status (200, 400, 503 with Retry-After, 504, other; with ``--retry``, the waits too),
errors other than 503 (count them: the goal is 0), lost answers (a request with no HTTP
answer at all: goal 0), and the p50 / p95 latency of the light requests while heavy ones
run. Bounded: at most ``--requests`` requests and
``--max-seconds`` of wall time a run; the server is stopped with SIGINT at the end (and
killed if it does not stop within 10 s).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

LIGHT = [
    ("GET", "/api/health", None),
    ("POST", "/api/clobber/state", {"board": "xoxo/oxox/xoxo", "moves": ["a1-b1"],
                                     "first": "black"}),
    ("POST", "/api/clickomania/state", {"board": "1122/2211/1212", "moves": ["a1"]}),
    ("POST", "/api/solitaire/state", {"board": "xoxo/oxox/xoxo/oxox", "moves": []}),
]


def random_stones(rng: random.Random, rows: int, cols: int, holes: float) -> str:
    """A random Clobber board: each square a hole with probability ``holes``, else x or o."""
    return "/".join("".join("." if rng.random() < holes else rng.choice("xo")
                            for _ in range(cols)) for _ in range(rows))


def heavy_request(rng: random.Random, seconds: float, boards: list[str]
                  ) -> tuple[str, str, dict]:
    """A search that uses its time: fresh random positions (no worker has them cached) and
    SameGame on a standard board (its search runs the whole limit)."""
    kind = rng.randrange(4)
    if kind == 0:
        return ("POST", "/api/samegame/play", {"board": rng.choice(boards),
                                               "time_limit": seconds,
                                               "seed": rng.randrange(1 << 30)})
    if kind == 1:
        return ("POST", "/api/clobber/solve", {"board": random_stones(rng, 5, 6, 0.15),
                                               "first": "black", "time_limit": seconds})
    if kind == 2:
        return ("POST", "/api/grundy/value", {"board": random_stones(rng, 5, 5, 0.1),
                                              "time_limit": seconds})
    return ("POST", "/api/clobber/value", {"board": random_stones(rng, 4, 5, 0.1),
                                           "time_limit": seconds})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, processes: int, time_limit: float, queue: int
                 ) -> subprocess.Popen:
    exe = Path(sys.executable).with_name("clobbermania")
    cmd = [str(exe), "serve", "--port", str(port), "--processes", str(processes),
           "--time-limit", str(time_limit), "--queue", str(queue)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"error: the server exited with {proc.returncode}: "
                     f"{proc.stderr.read().strip()[:300]}")
        try:
            status, _, _ = request(port, "GET", "/api/health", None, timeout=2)
            if status == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.25)
    proc.kill()
    sys.exit("error: the server did not answer /api/health within 120 s")


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def request(port: int, method: str, path: str, body: dict | None, timeout: float = 60
            ) -> tuple[int, dict, str | None]:
    """(status, JSON answer, Retry-After) of one request on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:
            answer = {"unparsed": raw[:200].decode("utf-8", "replace")}
        return resp.status, answer, resp.getheader("Retry-After")
    finally:
        conn.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


def one_run(args: argparse.Namespace, seed: int) -> dict:
    port = free_port()
    proc = start_server(port, args.processes, args.time_limit, args.queue)
    rng = random.Random(seed)
    _, boards, _ = request(port, "GET", "/api/samegame/boards", None)
    standard = [b["board"] for b in boards["boards"]]
    plan = [("heavy", heavy_request(rng, args.heavy_seconds, standard))
            if rng.random() < args.heavy_share
            else ("light", rng.choice(LIGHT)) for _ in range(args.requests)]
    lock = threading.Lock()
    counts: dict[str, int] = {}
    light_busy: list[float] = []   # light latencies while at least one heavy request ran
    light_all: list[float] = []
    errors: list[str] = []
    lost = [0]
    heavy_running = [0]
    next_item = [0]
    t_end = time.monotonic() + args.max_seconds

    def client() -> None:
        while True:
            with lock:
                if next_item[0] >= len(plan) or time.monotonic() > t_end:
                    return
                kind, (method, path, body) = plan[next_item[0]]
                next_item[0] += 1
                if kind == "heavy":
                    heavy_running[0] += 1
                busy = heavy_running[0] > 0
            t0 = time.perf_counter()
            try:
                status, answer, retry = request(port, method, path, body)
                for _ in range(args.retry):   # a polite client: wait as told, ask again
                    if status != 503 or retry is None:
                        break
                    with lock:
                        counts["503 retried"] = counts.get("503 retried", 0) + 1
                    time.sleep(float(retry))
                    status, answer, retry = request(port, method, path, body)
            except OSError as exc:
                with lock:
                    lost[0] += 1
                    errors.append(f"{path}: no answer ({exc})")
                    if kind == "heavy":
                        heavy_running[0] -= 1
                continue
            dt = time.perf_counter() - t0
            with lock:
                if kind == "heavy":
                    heavy_running[0] -= 1
                key = str(status)
                counts[key] = counts.get(key, 0) + 1
                if status == 503 and retry is None:
                    errors.append(f"{path}: 503 without Retry-After")
                elif status not in (200, 503):
                    errors.append(f"{path}: {status} {str(answer)[:120]}")
                if kind == "light" and status == 200:
                    light_all.append(dt)
                    if busy:
                        light_busy.append(dt)

    t0 = time.perf_counter()
    try:
        with ThreadPoolExecutor(args.clients) as pool:
            for f in [pool.submit(client) for _ in range(args.clients)]:
                f.result()
    finally:
        stop_server(proc)
    wall = time.perf_counter() - t0
    sent = next_item[0]
    return {"sent": sent, "statuses": counts, "errors": len(errors),
            "error_samples": errors[:5], "lost": lost[0], "wall": wall,
            "light_n": len(light_busy),
            "light_p50_ms": 1000 * percentile(light_busy, 0.50),
            "light_p95_ms": 1000 * percentile(light_busy, 0.95),
            "light_all_p95_ms": 1000 * percentile(light_all, 0.95)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--queue", type=int, default=32)
    ap.add_argument("--time-limit", type=float, default=5.0,
                    help="the server's --time-limit")
    ap.add_argument("--heavy-seconds", type=float, default=0.5,
                    help="time_limit asked by each heavy request")
    ap.add_argument("--heavy-share", type=float, default=0.2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--retry", type=int, default=0,
                    help="a client answered 503 waits Retry-After and asks again, up to N "
                         "times (the statuses count the last answer; '503 retried' the "
                         "waits)")
    ap.add_argument("--max-seconds", type=float, default=600.0)
    args = ap.parse_args()
    if not (1 <= args.clients <= 200 and 1 <= args.requests <= 100_000
            and 1 <= args.repeat <= 20 and 0 <= args.heavy_share <= 1
            and 0 <= args.retry <= 100):
        sys.exit("error: --clients 1..200, --requests 1..100,000, --repeat 1..20, "
                 "--heavy-share 0..1, --retry 0..100")
    print(f"clobbermania serve under load: {args.clients} clients, {args.requests} "
          f"requests ({args.heavy_share:.0%} heavy at {args.heavy_seconds:g} s), "
          f"{args.processes} worker processes, queue {args.queue}, "
          f"{os.cpu_count()} cores")
    runs = []
    for i in range(args.repeat):
        r = one_run(args, seed=i)
        runs.append(r)
        print(f"run {i + 1}: {r['sent']} sent in {r['wall']:.1f} s; statuses "
              f"{dict(sorted(r['statuses'].items()))}; errors other than 503: "
              f"{r['errors']}; lost: {r['lost']}; light while heavy ran: n={r['light_n']}, "
              f"p50 {r['light_p50_ms']:.1f} ms, p95 {r['light_p95_ms']:.1f} ms "
              f"(all light p95 {r['light_all_p95_ms']:.1f} ms)")
        for e in r["error_samples"]:
            print(f"    {e}")
    if len(runs) > 1:
        med = {k: statistics.median(r[k] for r in runs)
               for k in ("light_p50_ms", "light_p95_ms", "wall")}
        print(f"median of {len(runs)}: light p50 {med['light_p50_ms']:.1f} ms, "
              f"p95 {med['light_p95_ms']:.1f} ms, wall {med['wall']:.1f} s; "
              f"errors {sum(r['errors'] for r in runs)}, lost {sum(r['lost'] for r in runs)}, "
              f"503s {sum(r['statuses'].get('503', 0) for r in runs)}")


if __name__ == "__main__":
    main()
