"""Job-level solving on Ray (issue 27): a mid-size proof on 1 and 2 CPUs against one
process, the same run killed and resumed, its job log replayed on simulated clusters,
and SameGame searches as jobs.

    .venv/bin/python benchmarks/distributed.py                      # everything
    .venv/bin/python benchmarks/distributed.py --only clobber --repeat 3
    .venv/bin/python benchmarks/distributed.py --only simulate --store-dir /tmp/runs
    .venv/bin/python benchmarks/distributed.py --only samegame --time-limit 30

Sections (each prints its figures as it goes):

1. ``clobber``: ``clobbermania clobber solve BOARD --first black --json`` (default the
   5x5 checkerboard, a second-player win) as one process and with ``--distributed
   --cpus 1`` and ``--cpus 2``, each on a fresh store, ``--repeat`` times each (medians).
   Then the ``--kill-cpus`` run SIGKILLed after ``--kill-at`` of its median wall time and
   run again on the same store: jobs reused, jobs run in both sittings against an
   uninterrupted run's, and no finished job run twice (the store's rows: every row of
   the first sitting kept, one new row per job of the second).
2. ``simulate``: the job log of a distributed run (``JobStore.log()``: each job's
   seconds and parent) replayed on 1, 2, 8, 64 and 512 simulated workers by list
   scheduling: a job is released when the job it was split from has finished (a job
   with no parent at once), and a free worker takes the released job first in the
   driver's order (the store's ids); the driver handles each finished job in
   ``--driver-ms`` milliseconds, one at a time. Printed: the makespan, the speed-up over
   one worker, and the critical path (the longest chain of parent -> child seconds),
   which bounds the speed-up by total / critical path. The 1- and 2-worker replays of
   the logs of the 1- and 2-CPU runs are checked against their measured search times.
   The logs are those of the ``clobber`` section (kept in ``--store-dir``) and of
   ``grundy value GRUNDY --distributed --cpus 2`` (default the 4x5 checkerboard, about
   10 s of CPU as one process).
3. ``samegame``: ``clobbermania samegame bench FILE --boards 1-5 --time-limit T --clock
   cpu --json`` (the repository's standard set) as one process (1 CPU), with
   ``--distributed --cpus 1 --workers 1`` (the same CPU budget: Ray's overhead) and with
   ``--distributed --cpus 2 --workers 2`` (a second CPU: the better of two seeds).

CPU time is that of every process of a run: the CLI's driver and, for a distributed run,
every process of its private Ray (found by their open files in the run's own temporary
directory, ``TMPDIR``, as :func:`clobbermania.distributed.cluster.processes_using` finds
them), each process's own user + system time read from ``/proc/PID/stat`` every
``--sample`` seconds and taken at its last reading (what a process spends after its
last reading, at most one interval, is missed). A one-process run's CPU time is its
``wait4`` rusage. Wall times are noisy on a loaded machine: the load average is printed.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

from clobbermania.distributed.cluster import processes_using
from clobbermania.distributed.store import JobStore

ROOT = Path(__file__).resolve().parents[1]
CLI = str(Path(sys.executable).with_name("clobbermania"))
#: The standard SameGame set as the repository ships it (inside the package).
STANDARD = ROOT / "src" / "clobbermania" / "clickomania" / "data" / "standard-20.txt"
TICK = os.sysconf("SC_CLK_TCK")


def checkerboard(rows: int, cols: int) -> str:
    return "/".join("".join("xo"[(r + c) % 2] for c in range(cols)) for r in range(rows))


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


# -- running a command and measuring it ---------------------------------------------------

def _own_cpu(pid: int) -> float | None:
    """The user + system seconds of process ``pid`` itself (not its children)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Run:
    """One command line run in a temporary directory of its own (its ``TMPDIR``, where a
    private Ray puts its files), with the CPU time of every process it started."""

    def __init__(self, args: list[str], sample: float, kill_after: float | None = None
                 ) -> None:
        self.args, self.sample, self.kill_after = args, sample, kill_after
        self.cpu: dict[int, float] = {}
        self.answer: dict | None = None
        self.killed = False
        self.ray = "--distributed" in args

    def go(self) -> Run:
        tmp = tempfile.mkdtemp(prefix="cbm-b-", dir="/tmp")   # short: Ray's socket paths
        env = {**os.environ, "TMPDIR": tmp}
        out, err = Path(tmp) / "stdout", Path(tmp) / "stderr"
        stop = threading.Event()
        t0 = time.perf_counter()
        with open(out, "w") as o, open(err, "w") as e:
            proc = subprocess.Popen([CLI, *self.args], stdout=o, stderr=e, env=env)

        def sampler() -> None:
            pids: set[int] = {proc.pid}
            n = 0
            while not stop.is_set():
                if n % 5 == 0:
                    pids |= set(processes_using(tmp))
                n += 1
                for pid in pids:
                    got = _own_cpu(pid)
                    if got is not None:
                        self.cpu[pid] = max(got, self.cpu.get(pid, 0.0))
                if self.kill_after is not None and not self.killed \
                        and time.perf_counter() - t0 >= self.kill_after:
                    self.killed = True
                    os.kill(proc.pid, signal.SIGKILL)
                stop.wait(self.sample)

        thread = threading.Thread(target=sampler, daemon=True)
        thread.start()
        _, status, usage = os.wait4(proc.pid, 0)
        self.wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if self.killed:   # what Ray left of the killed driver (ours: in our TMPDIR)
            time.sleep(1.0)
            for pid in processes_using(tmp):
                got = _own_cpu(pid)
                if got is not None:
                    self.cpu[pid] = max(got, self.cpu.get(pid, 0.0))
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        stop.set()
        thread.join()
        if self.ray:   # every process's own time at its last reading, the driver's too
            self.driver_cpu = self.cpu.pop(proc.pid, 0.0)
        else:          # one process: its rusage (with any child it waited for)
            self.cpu.clear()
            self.driver_cpu = usage.ru_utime + usage.ru_stime
        self.total_cpu = self.driver_cpu + sum(self.cpu.values())
        self.stderr = err.read_text()
        if not self.killed:
            if proc.returncode != 0:
                raise SystemExit(f"error: {' '.join(self.args)} exited {proc.returncode}: "
                                 f"{self.stderr.strip().splitlines()[-1:]}")
            self.answer = json.loads(out.read_text())
        shutil.rmtree(tmp, ignore_errors=True)
        return self


def warm_up(args, commands: list[list[str]]) -> None:
    """Run ``commands`` once, unmeasured: numba compiles the kernels into its cache here
    (a fresh checkout has none), not during a measured run."""
    if args.no_warmup:
        return
    for command in commands:
        Run(command, args.sample).go()


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# -- 1. the mid-size proof ----------------------------------------------------------------

def clobber_section(args, results: dict) -> None:
    board, first = args.board, args.first
    print(f"== clobber solve {board} --first {first}  (load {load()})")
    base = ["clobber", "solve", board, "--first", first, "--json"]
    store_dir = Path(args.store_dir)
    store_dir.mkdir(parents=True, exist_ok=True)
    small = ["clobber", "solve", checkerboard(4, 4), "--first", first, "--json"]
    warm_up(args, [small, [*small, "--distributed", "--cpus", "1", "--store",
                           str(store_dir / "warm-up.sqlite")]])
    configs: dict[str, list[Run]] = {"single": []}
    cpus_list = [int(c) for c in args.cpus.split(",")]
    for c in cpus_list:
        configs[f"cpus{c}"] = []
    for i in range(args.repeat):
        for name in configs:
            extra: list[str] = []
            if name != "single":
                store = store_dir / f"clobber-{name}.sqlite"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{store}{suffix}").unlink(missing_ok=True)
                extra = ["--distributed", "--cpus", name[4:], "--store", str(store)]
                if args.job_nodes:
                    extra += ["--job-nodes", str(args.job_nodes)]
            run = Run(base + extra, args.sample).go()
            configs[name].append(run)
            a = run.answer
            d = a.get("distributed", {})
            print(f"  {name:7} run {i + 1}: {a['winner']} wins, {a['nodes']:,} nodes, "
                  f"jobs {d.get('jobs', '-')}, CPU {run.total_cpu:.1f} s (driver "
                  f"{run.driver_cpu:.1f}), wall {run.wall:.1f} s, search {a['seconds']:.1f} "
                  f"s  (load {load()})", flush=True)
    answers = {json.dumps([r.answer["winner"], sorted(r.answer["winning_moves"])])
               for runs in configs.values() for r in runs}
    if len(answers) != 1:
        raise SystemExit(f"error: the runs disagree: {answers}")
    single_cpu = med([r.total_cpu for r in configs["single"]])
    single_wall = med([r.wall for r in configs["single"]])
    summary = {}
    print(f"  medians of {args.repeat}:")
    for name, runs in configs.items():
        s = {"cpu": med([r.total_cpu for r in runs]), "wall": med([r.wall for r in runs]),
             "search": med([r.answer["seconds"] for r in runs]),
             "nodes": med([r.answer["nodes"] for r in runs]),
             "jobs": med([r.answer.get("distributed", {}).get("jobs", 0) for r in runs]),
             "job_seconds": med([_job_seconds(r) for r in runs]) if name != "single" else 0}
        summary[name] = s
        print(f"  {name:7} CPU {s['cpu']:7.1f} s ({s['cpu'] / single_cpu:4.1f}x one "
              f"process)  wall {s['wall']:6.1f} s (speed-up {single_wall / s['wall']:.2f}x)"
              f"  search {s['search']:6.1f} s  nodes {s['nodes']:,.0f}  jobs "
              f"{s['jobs']:,.0f}  jobs' seconds {s['job_seconds']:.1f}")
    results["clobber"] = {"board": board, "first": first, "answer": sorted(answers)[0],
                          "repeat": args.repeat, "medians": summary}
    if args.no_kill:
        return
    name = f"cpus{args.kill_cpus}"
    wall = summary[name]["wall"] if name in summary else med(
        [r.wall for r in configs["single"]]) * 3
    store = store_dir / "clobber-killed.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    extra = ["--distributed", "--cpus", str(args.kill_cpus), "--store", str(store)]
    if args.job_nodes:
        extra += ["--job-nodes", str(args.job_nodes)]
    first_sitting = Run(base + extra, args.sample, kill_after=args.kill_at * wall).go()
    if not first_sitting.killed:
        print("  the run finished before it could be killed: no resume figure")
        return
    with JobStore.open(store, read_only=True) as s:
        before = {row["id"]: row for row in s.log()}
    second = Run(base + extra, args.sample).go()
    with JobStore.open(store, read_only=True) as s:
        after = s.log()
    d = second.answer["distributed"]
    kept = all(before[row["id"]] == row for row in after if row["id"] in before)
    new_rows = len(after) - len(before)
    same = json.dumps([second.answer["winner"], sorted(second.answer["winning_moves"])]) \
        in answers
    ran = d["jobs"] - d["jobs_reused"]   # "jobs" counts the reused ones too
    total_jobs = len(before) + ran
    print(f"  killed at {first_sitting.wall:.1f} s ({args.kill_at:.0%} of {wall:.1f} s): "
          f"{len(before):,} jobs stored, CPU {first_sitting.total_cpu:.1f} s")
    print(f"  run again: {ran:,} jobs run, {d['jobs_reused']:,} reused, "
          f"{new_rows:,} rows added (none run twice: {new_rows == ran and kept}), "
          f"wall {second.wall:.1f} s, CPU {second.total_cpu:.1f} s, same answer: {same}")
    print(f"  jobs run in both sittings {total_jobs:,} against {summary[name]['jobs']:,.0f} "
          f"(median uninterrupted); CPU {first_sitting.total_cpu + second.total_cpu:.1f} s "
          f"against {summary[name]['cpu']:.1f} s")
    results["clobber"]["killed"] = {
        "cpus": args.kill_cpus, "killed_at": first_sitting.wall, "stored": len(before),
        "second_jobs": ran, "second_reused": d["jobs_reused"], "new_rows": new_rows,
        "kept": kept, "same_answer": same, "total_jobs": total_jobs,
        "cpu": first_sitting.total_cpu + second.total_cpu, "second_wall": second.wall}


def _job_seconds(run: Run) -> float:
    store = run.answer.get("distributed", {}).get("store")
    if not store:
        return 0.0
    with JobStore.open(store, read_only=True) as s:
        return sum(row["seconds"] for row in s.log())


# -- 2. the job log on simulated clusters ---------------------------------------------------

def simulate(log: list[dict], workers: int, driver_seconds: float = 0.0) -> float:
    """The makespan of ``log`` on ``workers`` workers by list scheduling: a job is
    released when its parent job has finished and the driver has handled it (a job whose
    parent is not in the log, at once); a free worker takes the released job with the
    least id; the driver handles finished jobs one at a time, ``driver_seconds`` each."""
    ids = {row["id"] for row in log}
    seconds = {row["id"]: row["seconds"] for row in log}
    children: dict[int, list[int]] = {}
    ready: list[int] = []
    for row in log:
        if row["parent"] in ids:
            children.setdefault(row["parent"], []).append(row["id"])
        else:
            ready.append(row["id"])
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []
    released: list[tuple[float, int]] = []    # (time, id): released later
    t = driver_free = end = 0.0
    free = workers
    while ready or running or released:
        while released and released[0][0] <= t:
            heapq.heappush(ready, heapq.heappop(released)[1])
        while free and ready:
            job = heapq.heappop(ready)
            free -= 1
            heapq.heappush(running, (t + seconds[job], job))
        # the next event: a job ends, or a released job becomes ready
        nexts = [x[0] for x in (running[:1] + released[:1])]
        if not nexts:
            break
        t = max(t, min(nexts))
        while running and running[0][0] <= t:
            done, job = heapq.heappop(running)
            free += 1
            end = max(end, done)
            driver_free = max(driver_free, done) + driver_seconds
            for c in children.get(job, ()):
                heapq.heappush(released, (driver_free, c))
    return max(end, driver_free)


def critical_path(log: list[dict]) -> float:
    """The longest chain of parent -> child seconds in ``log``."""
    by_id = {row["id"]: row for row in log}
    memo: dict[int, float] = {}

    def chain(i: int) -> float:
        stack, total = [], 0.0
        while i in by_id and i not in memo:
            stack.append(i)
            i = by_id[i]["parent"]
        total = memo.get(i, 0.0)
        for j in reversed(stack):
            total += by_id[j]["seconds"]
            memo[j] = total
        return total

    return max((chain(i) for i in by_id), default=0.0)


def replay(name: str, log: list[dict], workers: list[int], driver_ms: float,
           measured: dict[int, float | None]) -> dict:
    total = sum(row["seconds"] for row in log)
    cp = critical_path(log)
    linked = sum(row["parent"] is not None for row in log)
    print(f"  {name}: {len(log):,} jobs ({linked:,} with a parent), {total:.1f} s of jobs, "
          f"critical path {cp:.2f} s (speed-up at most {total / cp:.0f}x)")
    out: dict = {"jobs": len(log), "seconds": total, "critical_path": cp, "workers": {}}
    for d_ms in sorted({0.0, driver_ms}):
        span1 = simulate(log, 1, d_ms / 1000)
        row = []
        for w in workers:
            span = simulate(log, w, d_ms / 1000)
            out["workers"].setdefault(str(w), {})[f"driver_ms={d_ms:g}"] = span
            row.append(f"{w}: {span:.2f} s ({span1 / span:.1f}x)")
        print(f"    driver {d_ms:g} ms a job: " + ", ".join(row))
    for w, search in measured.items():
        span = log_span(log) if search is None else search
        how = "from the first job's start to the last one's end" if search is None else \
            "the search's seconds"
        replayed = simulate(log, w, driver_ms / 1000)
        print(f"    measured on {w} CPU(s): {span:.2f} s ({how}); this log replayed on "
              f"{w}: {replayed:.2f} s")
        out[f"measured_on_{w}"] = {"span": span, "replayed": replayed}
    return out


def log_span(log: list[dict]) -> float:
    """The measured time from the first job's start to the last job's end: the finishing
    times' range plus the first job's seconds (where every job is stored when it ends,
    as Clobber's are; a Grundy split part is stored at its mex, long after its run)."""
    first = min(log, key=lambda row: row["finished"])
    ends = [datetime.fromisoformat(row["finished"]) for row in log]
    return (max(ends) - min(ends)).total_seconds() + first["seconds"]


def simulate_section(args, results: dict) -> None:
    print(f"== job logs replayed  (load {load()})")
    store_dir = Path(args.store_dir)
    workers = [int(w) for w in args.workers.split(",")]
    results["simulate"] = {}
    found = False
    for c in (1, 2):
        store = store_dir / f"clobber-cpus{c}.sqlite"
        if store.exists():
            found = True
            with JobStore.open(store, read_only=True) as s:
                log = s.log()
            measured: dict[int, float | None] = {c: None}
            results["simulate"][f"clobber-cpus{c}"] = replay(
                f"clobber {args.board} (log of the --cpus {c} run)", log, workers,
                args.driver_ms, measured)
    if not found:
        print(f"  no clobber store in {store_dir}: run --only clobber first")
    store_dir.mkdir(parents=True, exist_ok=True)
    if args.no_grundy:
        return
    small = ["grundy", "value", checkerboard(3, 4), "--json"]
    warm_up(args, [small, [*small, "--distributed", "--cpus", "1", "--store",
                           str(store_dir / "warm-up.sqlite")]])
    store = store_dir / "grundy-cpus2.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    single = Run(["grundy", "value", args.grundy, "--json"], args.sample).go()
    run = Run(["grundy", "value", args.grundy, "--json", "--distributed", "--cpus", "2",
               "--store", str(store)], args.sample).go()
    if run.answer["grundy"] != single.answer["grundy"]:
        raise SystemExit(f"error: grundy values differ: {run.answer['grundy']} distributed, "
                         f"{single.answer['grundy']} one process")
    d = run.answer["distributed"]
    print(f"  grundy value {args.grundy} = {single.answer['grundy']}: one process CPU "
          f"{single.total_cpu:.1f} s, wall {single.wall:.1f} s; --distributed --cpus 2 CPU "
          f"{run.total_cpu:.1f} s, wall {run.wall:.1f} s, search {run.answer['seconds']:.1f}"
          f" s, {d['jobs']:,} jobs  (load {load()})")
    with JobStore.open(store, read_only=True) as s:
        log = s.log()
    results["simulate"]["grundy"] = {
        "board": args.grundy, "single_cpu": single.total_cpu, "single_wall": single.wall,
        "cpu": run.total_cpu, "wall": run.wall, "search": run.answer["seconds"],
        "jobs": d["jobs"],
        **replay(f"grundy {args.grundy} (log of the --cpus 2 run)", log, workers,
                 args.driver_ms, {2: run.answer["seconds"]})}


# -- 3. SameGame ------------------------------------------------------------------------------

def samegame_section(args, results: dict) -> None:
    print(f"== samegame bench {STANDARD.name} --boards {args.boards} --time-limit "
          f"{args.time_limit:g} --clock cpu  (load {load()})")
    base = ["samegame", "bench", str(STANDARD), "--boards", args.boards, "--time-limit",
            str(args.time_limit), "--clock", "cpu", "--json"]
    store_dir = Path(args.store_dir)
    store_dir.mkdir(parents=True, exist_ok=True)
    results["samegame"] = {"boards": args.boards, "time_limit": args.time_limit}
    small = ["samegame", "bench", str(STANDARD), "--boards", "1", "--time-limit", "1",
             "--json"]
    warm_up(args, [small, [*small, "--distributed", "--cpus", "1", "--store",
                           str(store_dir / "warm-up.sqlite")]])
    for name, extra in [("one process", ["--threads", "1"]),
                        ("--distributed --cpus 1 --workers 1",
                         ["--distributed", "--cpus", "1", "--workers", "1"]),
                        ("--distributed --cpus 2 --workers 2",
                         ["--distributed", "--cpus", "2", "--workers", "2"])]:
        if "--distributed" in extra:
            store = store_dir / f"samegame-{extra[2]}.sqlite"
            for suffix in ("", "-wal", "-shm"):
                Path(f"{store}{suffix}").unlink(missing_ok=True)
            extra = [*extra, "--store", str(store)]
        run = Run(base + extra, args.sample).go()
        a = run.answer
        scores = [b["score"] for b in a["boards"]]
        print(f"  {name:36} total {a['total']:,}  boards {scores}  CPU {run.total_cpu:.0f} s"
              f"  wall {run.wall:.0f} s  (load {load()})", flush=True)
        results["samegame"][name] = {"total": a["total"], "scores": scores,
                                     "cpu": run.total_cpu, "wall": run.wall}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["clobber", "simulate", "samegame"])
    ap.add_argument("--board", default=checkerboard(5, 5))
    ap.add_argument("--first", default="black", choices=["black", "white"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpus", default="1,2", help="the --cpus of the distributed runs")
    ap.add_argument("--job-nodes", type=int, help="--job-nodes (default: the CLI's)")
    ap.add_argument("--no-kill", action="store_true", help="no killed-and-resumed run")
    ap.add_argument("--kill-cpus", type=int, default=2)
    ap.add_argument("--kill-at", type=float, default=0.5,
                    help="kill the driver after this fraction of the median wall time")
    ap.add_argument("--grundy", default=checkerboard(4, 5))
    ap.add_argument("--no-grundy", action="store_true",
                    help="simulate: replay the Clobber logs of --store-dir only")
    ap.add_argument("--workers", default="1,2,8,64,512")
    ap.add_argument("--driver-ms", type=float, default=1.2,
                    help="the driver's milliseconds a job in the replay (docs: Ray's cost)")
    ap.add_argument("--boards", default="1-5")
    ap.add_argument("--time-limit", type=float, default=30.0,
                    help="SameGame: CPU seconds a board")
    ap.add_argument("--sample", type=float, default=0.1,
                    help="seconds between two readings of the processes' CPU times")
    ap.add_argument("--no-warmup", action="store_true",
                    help="no unmeasured runs first (that fill numba's cache)")
    ap.add_argument("--store-dir", default=str(Path(tempfile.gettempdir())
                                               / "clobbermania-bench-distributed"))
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = ap.parse_args(argv)
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, {os.cpu_count()} CPUs, "
          f"load {load()}")
    results: dict = {}
    if args.only in (None, "clobber"):
        clobber_section(args, results)
    if args.only in (None, "simulate"):
        simulate_section(args, results)
    if args.only in (None, "samegame"):
        samegame_section(args, results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
