"""``clobbermania jobs show|export``: what a job store of the distributed solvers holds.

Both commands only read the store (docs/distributed.md, "The job store"): they never
create one, and a missing, foreign or damaged file is one sentence and exit status 2.
"""

from __future__ import annotations

import csv
import io
import json
import time

import click

from ..distributed.store import LOG_FIELDS, JobStore, JobStoreError
from ._common import emit_json


def _open(store: str | None) -> JobStore:
    return JobStore.open(store, read_only=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def jobs() -> None:
    """The job store of the distributed solvers: what it holds, and every job in it.

    \b
    Example:
      clobbermania jobs show ~/.cache/clobbermania/jobs.sqlite
    """


@jobs.command("show")
@click.argument("store", required=False, metavar="[STORE]")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def show_cmd(store: str | None, as_json: bool) -> None:
    """The kinds of job in STORE, with their counts and their nodes and seconds totals,
    the schema version and the path. STORE defaults to the default of --store,
    $XDG_CACHE_HOME/clobbermania/jobs.sqlite. With --json, "total" and each of "kinds"
    hold the jobs' counts and sums, and "seconds" is this command's time, as in every
    --json.

    \b
    Example:
      clobbermania jobs show ~/.cache/clobbermania/jobs.sqlite --json
    """
    t0 = time.perf_counter()
    with _open(store) as db:
        meta, kinds = db.meta(), db.kinds()
    total = {"jobs": sum(k["jobs"] for k in kinds.values()),
             "nodes": sum(k["nodes"] for k in kinds.values()),
             "seconds": round(sum(k["seconds"] for k in kinds.values()), 6)}
    if as_json:
        emit_json({"store": str(db.path), "kind": meta.get("kind"),
                   "schema_version": int(meta["schema_version"]),
                   "created": meta.get("created"), "total": total, "kinds": kinds},
                  time.perf_counter() - t0)
        return
    click.echo(f"job store {db.path}")
    click.echo(f"schema version {meta['schema_version']}, created {meta.get('created')}")
    if not kinds:
        click.echo("no finished job")
        return
    width = max(len("kind"), *(len(k) for k in kinds))
    click.echo(f"{'kind':<{width}}  {'jobs':>10}  {'nodes':>16}  {'seconds':>12}")
    rows = [*kinds.items(), ("total", total)] if len(kinds) > 1 else list(kinds.items())
    for name, k in rows:
        click.echo(f"{name:<{width}}  {k['jobs']:>10,}  {k['nodes']:>16,}  "
                   f"{k['seconds']:>12,.3f}")


@jobs.command("export")
@click.argument("store", required=False, metavar="[STORE]")
@click.option("--kind", metavar="K", help="Only the jobs of kind K (e.g. clobber-outcome).")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default="jsonl",
              show_default=True,
              help="One JSON object a line, or CSV with a header (the answer as JSON text).")
def export_cmd(store: str | None, kind: str | None, fmt: str) -> None:
    """Every finished job of STORE on standard output, in the order they finished: id,
    kind, key, parent, nodes, seconds, worker, finished (ISO 8601, UTC) and answer.
    STORE defaults to $XDG_CACHE_HOME/clobbermania/jobs.sqlite.

    \b
    Example:
      clobbermania jobs export ~/.cache/clobbermania/jobs.sqlite --format csv
    """
    with _open(store) as db:
        if kind is not None and not db.count(kind):
            held = ", ".join(db.kinds()) or "no job at all"
            raise JobStoreError(f"the job store {db.path} holds no job of kind {kind!r} "
                                f"(it holds: {held})")
        if fmt == "jsonl":
            for job in db.iter_jobs(kind, answers=True):
                click.echo(json.dumps(job, ensure_ascii=False))
            return
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([*LOG_FIELDS, "answer"])
        for job in db.iter_jobs(kind, answers=True):
            job["answer"] = json.dumps(job["answer"], ensure_ascii=False,
                                       separators=(",", ":"))
            job["parent"] = "" if job["parent"] is None else job["parent"]
            writer.writerow(job.values())
            if buffer.tell() > 1 << 16:
                click.echo(buffer.getvalue(), nl=False)
                buffer.seek(0)
                buffer.truncate()
        click.echo(buffer.getvalue(), nl=False)


__all__ = ["jobs"]
