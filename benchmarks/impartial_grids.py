"""Impartial Clobber on checkerboard grids: Grundy values, CPU seconds and nodes, before and
after the outcome search and the grid-part database (issue 28), for BENCHMARKS.md.

Each case runs in a forked child under a CPU-time limit (``RLIMIT_CPU``: the machine is
shared, so CPU seconds, not wall seconds, are what a case costs), with a fresh solver:

  * ``before``: the plain mex search of every component (``exact_stones=64``, no
    grid-part database): the search as it was before issue 28;
  * ``after``: the outcome search for components of more than 10 stones and the grid-part
    database (``--parts``: ``none``, ``memory:N`` to build every part of up to N squares
    in memory first, its seconds printed apart, or a database directory).

Printed per case and mode: the Grundy value (or "not finished"), CPU seconds, nodes (the
solver's ``searched``: values and outcomes computed), value-memo and outcome-table entries,
table evictions, peak resident memory. ``--json FILE`` writes the rows.

    python benchmarks/impartial_grids.py [--cases 4x5,4x6,5x5] [--modes before,after]
        [--limit 400] [--parts memory:8] [--exact-stones 10] [--json FILE]
    python benchmarks/impartial_grids.py --build 10 [--jobs 2]

The stretch grids (2x14, 3x9, 4x7) are cases like any other: ``--cases 2x14,3x9,4x7``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path

from clobbermania.clobber.gridparts import GridPartDatabase, build_grid_parts
from clobbermania.clobber.impartial import GrundySolver
from clobbermania.stones import Position


def _parts(spec: str) -> tuple[GridPartDatabase | None, float]:
    """The database named by ``--parts`` and the CPU seconds it took to build (0 if
    opened)."""
    if spec == "none":
        return None, 0.0
    if spec.startswith("memory:"):
        t0 = time.process_time()
        db = build_grid_parts(None, max_squares=int(spec.split(":", 1)[1]), jobs=1)
        return db, time.process_time() - t0
    return GridPartDatabase.open(spec), 0.0


EXACT = {"after": 10}  # --exact-stones of the after mode


def _solve(rows: int, cols: int, mode: str, parts: GridPartDatabase | None) -> dict:
    if mode == "before":
        solver = GrundySolver(parts=None, exact_stones=64)
    elif mode == "check":
        solver = GrundySolver(parts=None, exact_stones=14)
    else:
        solver = GrundySolver(parts=parts, exact_stones=EXACT["after"])
    t0 = time.process_time()
    note = None
    try:
        g = solver.value(Position.checkerboard(rows, cols))
    except _OutOfCpu as exc:  # the search's state when the CPU limit came
        g, note = None, str(exc)
    cpu = time.process_time() - t0
    memo = sum(len(e[5]) for e in solver._kernel_boards.values())
    table = sum(len(e[6]) for e in solver._kernel_boards.values())
    out = {"grundy": g, "cpu": round(cpu, 2), "nodes": solver.searched, "memo": memo,
           "table": table, "evictions": solver.evictions}
    if note:
        out["note"] = note
    return out


class _OutOfCpu(Exception):
    pass


def _out_of_cpu(signum, frame):
    raise _OutOfCpu("not finished within the CPU limit")


def _stopped(signum, frame):
    raise _OutOfCpu("stopped by SIGTERM before it finished")


def run_case(rows: int, cols: int, mode: str, parts: GridPartDatabase | None,
             limit: float) -> dict:
    """One case in a forked child limited to ``limit`` CPU seconds."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        code = 0
        try:
            used = resource.getrusage(resource.RUSAGE_SELF)
            start = used.ru_utime + used.ru_stime
            # SIGXCPU at the limit (the handler stops the search between two kernel
            # chunks and the figures reached are reported), SIGKILL 60 s later
            signal.signal(signal.SIGXCPU, _out_of_cpu)
            signal.signal(signal.SIGTERM, _stopped)  # kill -TERM <child>: report, then end
            resource.setrlimit(resource.RLIMIT_CPU, (int(start + limit) + 1,
                                                     int(start + limit) + 60))
            out = _solve(rows, cols, mode, parts)
            out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            os.write(write, json.dumps(out).encode())
        except BaseException as exc:  # noqa: BLE001 - reported by the parent
            os.write(write, json.dumps({"error": repr(exc)}).encode())
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    _, status, usage = os.wait4(pid, 0)
    row = {"case": f"{rows}x{cols}", "mode": mode}
    if chunks:
        row.update(json.loads(b"".join(chunks)))
    elif os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        row.update({"grundy": None, "cpu": round(usage.ru_utime + usage.ru_stime, 1),
                    "note": f"killed at {limit:g} + 60 CPU s",
                    "rss_mb": usage.ru_maxrss // 1024})
    else:
        row.update({"grundy": None, "note": f"child ended with status {status}"})
    return row


def build_figures(max_squares: int, jobs: int, sample: int) -> None:
    """Build the grid-part database to ``max_squares`` in a temporary directory: CPU and
    wall seconds per size, parts, bytes on disk, and ``sample`` parts checked against the
    plain search."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        c0, w0 = time.process_time(), time.perf_counter()
        db = build_grid_parts(d, max_squares=max_squares, jobs=jobs)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        size = sum(f.stat().st_size for f in Path(d).iterdir() if f.is_file())
        per = ", ".join(f"{n}: {t:.2f}" for n, t in db.build_report.seconds_by_size.items())
        print(f"grid-part database to {max_squares} squares, {jobs} thread(s): "
              f"{db.count:,} parts, {size / 2**20:.1f} MiB, {cpu:.1f} CPU s, {wall:.1f} s "
              f"wall (wall seconds by size: {per})")
        c0 = time.process_time()
        checked = db.verify(sample=sample)
        print(f"  {checked:,} random parts equal to the plain search "
              f"({time.process_time() - c0:.1f} CPU s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default="4x5,4x6,5x5")
    ap.add_argument("--modes", default="before,after")
    ap.add_argument("--limit", type=float, default=400.0, help="CPU seconds a case")
    ap.add_argument("--parts", default="memory:8")
    ap.add_argument("--json", dest="json_file")
    ap.add_argument("--build", type=int, metavar="N",
                    help="only build the grid-part database to N squares (temporary "
                         "directory) and print its figures")
    ap.add_argument("--jobs", type=int, default=2, help="threads of --build")
    ap.add_argument("--exact-stones", type=int, default=10,
                    help="the after mode values parts of up to this many stones by the "
                         "plain search (GrundySolver's exact_stones)")
    args = ap.parse_args(argv)
    EXACT["after"] = args.exact_stones
    if args.build:
        build_figures(args.build, args.jobs, sample=5000)
        return 0
    parts, build = _parts(args.parts)
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on "
          f"{os.cpu_count()} cores; parts {args.parts}"
          + (f" ({parts.count:,} parts, built in {build:.2f} CPU s)" if parts else ""))
    print(f"{'case':>5} {'mode':>6} {'value':>6} {'CPU s':>8} {'nodes':>12} {'memo':>11} "
          f"{'table':>11} {'evict':>5} {'MB':>6}")
    rows_out = []
    for case in args.cases.split(","):
        r, c = (int(x) for x in case.lower().split("x"))
        for mode in args.modes.split(","):
            row = run_case(r, c, mode, parts, args.limit)
            rows_out.append(row)
            value = "-" if row.get("grundy") is None else f"*{row['grundy']}" \
                if row["grundy"] else "0"
            print(f"{row['case']:>5} {mode:>6} {value:>6} {row.get('cpu', '-'):>8} "
                  f"{row.get('nodes', '-'):>12} {row.get('memo', '-'):>11} "
                  f"{row.get('table', '-'):>11} {row.get('evictions', '-'):>5} "
                  f"{row.get('rss_mb', '-'):>6} {row.get('note', row.get('error', ''))}",
                  flush=True)
    if args.json_file:
        with open(args.json_file, "w", encoding="utf-8") as fh:
            json.dump({"date": time.strftime("%Y-%m-%d"), "parts": args.parts,
                       "parts_build_cpu": round(build, 2), "limit": args.limit,
                       "load": os.getloadavg(), "rows": rows_out}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
