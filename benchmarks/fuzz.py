"""Fuzz every CLI verb: >= 10,000 seeded inputs, each in a forked child under caps.

Each input is a call of ``clobbermania`` (every verb but serve, play, bench and build; see
``tests/fuzzing.py`` for the generator and the contract checked). A warm parent forks a
child per input; the child maps at most 40 % of the machine's memory and is killed after
its wall-clock cap (its time limit * 1.1 + 0.5 s, times 1.5, plus 5 s; 15 s without a
limit). Prints the figures (inputs, verbs, exit codes, peak memory, findings with the
argv to reproduce them) and exits 1 on any finding.

    python benchmarks/fuzz.py                      # 10,000 inputs, seed 0, one at a time
    python benchmarks/fuzz.py --inputs 500 --jobs 2 --seed 3
    python benchmarks/fuzz.py --seed 3 --only 417  # input 417 of seed 3 again, verbosely
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import platform
import re
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fuzzing  # noqa: E402

from clobbermania.limits import physical_memory  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="children at a time (cores)")
    ap.add_argument("--start", type=int, default=0, help="first input index")
    ap.add_argument("--only", type=int, action="append",
                    help="run just this input index (repeatable) and print its output")
    ap.add_argument("--light", action="store_true",
                    help="the test suite's light inputs (small boards, limits <= 0.2 s)")
    ap.add_argument("--findings", metavar="FILE", help="also write the findings (markdown)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures and findings (JSON)")
    ap.add_argument("--progress", type=int, default=500, help="a line every N inputs")
    args = ap.parse_args()

    heavy = not args.light
    if args.only:
        todo = [fuzzing.generate(args.seed, i, heavy) for i in args.only]
    else:
        todo = list(fuzzing.cases(args.seed, args.inputs, heavy, args.start))
    t0 = time.perf_counter()
    runner = fuzzing.Runner(jobs=args.jobs)
    try:
        warm, note = fuzzing.warm_safely(runner)
        if note:
            print(f"warning: {note}", flush=True)
        for res in runner.setup():
            if res.code != 0 or res.findings:
                print(f"warning: setup call {res.case.shell()} failed: exit {res.code}, "
                      f"{res.findings} {res.stderr[-600:]}")
        parent_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"warm parent: {warm or 0:.1f} s, RSS {parent_rss / 1024:.0f} MB; memory cap "
              f"{runner.mem / 2**30:.1f} GB a child; {len(todo)} inputs, seed {args.seed}, "
              f"{args.jobs} at a time", flush=True)
        t1 = time.perf_counter()
        results = []
        for n, res in enumerate(runner.run(todo), start=1):
            results.append(res)
            if args.only:
                print(f"--- input {res.case.index} [{res.case.verb}, {res.case.kind}]: "
                      f"{res.case.shell()}\nexit {res.code} signal {res.signal} "
                      f"wall {res.wall:.2f} s rss {res.maxrss_kb / 1024:.0f} MB\n"
                      f"stdout: {res.stdout[:2000]}\nstderr: {res.stderr[:4000]}\n"
                      f"findings: {res.findings}")
            for f in res.findings:
                print(f"FINDING input {res.case.index}: {f}\n    {res.case.shell()}", flush=True)
            if args.progress and n % args.progress == 0:
                el = time.perf_counter() - t1
                bad = sum(1 for r in results if r.findings)
                print(f"  {n} inputs, {el:.0f} s, {n / el:.1f}/s, {bad} with findings",
                      flush=True)
        elapsed = time.perf_counter() - t1
    finally:
        runner.close()
    report = summarize(results, elapsed, time.perf_counter() - t0, runner.mem, args)
    print(report["text"])
    if args.findings:
        Path(args.findings).write_text(report["markdown"], encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps(report["json"], indent=1), encoding="utf-8")
    return 1 if report["findings"] else 0


def summarize(results, elapsed: float, total: float, mem: int, args) -> dict:
    """The figures of a run, as text and as markdown for the findings file."""
    codes = collections.Counter("killed" if r.killed_by_cap else
                                f"signal {r.signal}" if r.signal is not None else str(r.code)
                                for r in results)
    verbs = collections.Counter(r.case.verb for r in results)
    kinds = collections.Counter(r.case.kind for r in results)
    findings = [r for r in results if r.findings]
    tracebacks = sum(1 for r in results if any(f.startswith("traceback") for f in r.findings))
    peak = max(results, key=lambda r: r.maxrss_kb) if results else None
    per_verb_peak = {}
    for r in results:
        per_verb_peak[r.case.verb] = max(per_verb_peak.get(r.case.verb, 0), r.maxrss_kb)
    slowest = sorted(results, key=lambda r: -r.outer)[:5]
    cmd = "python benchmarks/fuzz.py " + " ".join(sys.argv[1:])
    lines = [
        f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; "
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"{physical_memory() / 2**30:.0f} GB; "
        f"command: {cmd}",
        f"inputs: {len(results)} (seed {args.seed}); kinds: "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())),
        f"verbs covered: {len(verbs)}: " + ", ".join(f"{v} {c}" for v, c in sorted(verbs.items())),
        "exit codes: " + ", ".join(f"{k}: {v}" for k, v in sorted(codes.items())),
        f"peak RSS of a child: {peak.maxrss_kb / 1024:.0f} MB ({peak.case.verb}: "
        f"{peak.case.shell()[:160]}); memory cap {mem / 2**30:.1f} GB" if peak else "",
        "peak RSS by verb (MB): " + ", ".join(f"{v} {k / 1024:.0f}"
                                             for v, k in sorted(per_verb_peak.items())),
        "slowest: " + "; ".join(f"{r.outer:.1f} s {r.case.verb}" for r in slowest),
        f"tracebacks: {tracebacks}; inputs with findings: {len(findings)}",
        f"time: {elapsed:.0f} s for the inputs ({len(results) / max(elapsed, 1e-9):.1f} "
        f"inputs/s), {total:.0f} s in all",
    ]
    md = ["# Fuzz findings", "", *[f"- {ln}" for ln in lines if ln], ""]
    if findings:
        md += ["## Findings", "", "Placeholders: {tmp} = the call's own empty folder (files "
               "listed are written there first), {db} = a row database of up to 10 stones, "
               "{mcgs} = tests/data/mcgs. Reproduce one with "
               f"`python benchmarks/fuzz.py --seed {args.seed}"
               f"{' --light' if args.light else ''} --only INDEX`.", ""]
        by_kind = collections.defaultdict(list)
        for r in findings:
            for f in r.findings:
                key = f[:160] if f.startswith("traceback") else re.sub(
                    r"\d+(\.\d+)?", "N", f.split(":")[0])
                by_kind[(r.case.verb, key)].append((r, f))
        for (verb, key), items in sorted(by_kind.items()):
            md.append(f"### {verb}: {key} ({len(items)} inputs)")
            md.append("")
            for r, f in items[:5]:
                md.append(f"- input {r.case.index}: {f}")
                md.append(f"  `{r.case.shell()[:400]}`")
            md.append("")
    text = "\n".join(ln for ln in lines if ln)
    figures = {
        "inputs": len(results), "seed": args.seed, "verbs": dict(verbs), "kinds": dict(kinds),
        "exit_codes": dict(codes), "tracebacks": tracebacks,
        "peak_rss_mb": round(peak.maxrss_kb / 1024) if peak else 0,
        "memory_cap_gb": round(mem / 2**30, 1), "seconds": round(elapsed, 1),
        "findings": [{"index": r.case.index, "verb": r.case.verb, "findings": r.findings,
                      "call": r.case.shell()[:1000]} for r in findings]}
    return {"text": text, "markdown": "\n".join(md), "findings": len(findings),
            "json": figures}


if __name__ == "__main__":
    sys.exit(main())
