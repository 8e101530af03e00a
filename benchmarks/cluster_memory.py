"""The address space of a Ray actor and its cap (issue 27, docs/distributed.md): how much
an actor of a private local Ray takes when it starts and once a Clobber outcome job and a
Grundy job have loaded their numba kernels, the cap in force (RLIMIT_AS, read in the
actor), and a reservation past the cap refused with the actors unharmed.

    .venv/bin/python benchmarks/cluster_memory.py [--cap 3G] [--repeat 3]

The figures are what ``cluster.run_memory_check_job`` reports (``VmSize`` of the actor's
process): they set :data:`clobbermania.distributed.cluster.ACTOR_ROOM` (the room a cap
must leave above an actor's start) and the example of docs/distributed.md.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile

from clobbermania.distributed.cluster import ClusterError, cluster

CHECK = "cluster.run_memory_check_job"


def one_run(cap: str | None) -> tuple[int, int, int, str]:
    """(address space at start, after the kernels, cap, the refusal's sentence)."""
    with cluster(cpus=1, memory=cap) as c:
        (_, start), = c.map_jobs(CHECK, [{"bytes": 0}], 1)
        list(c.map_jobs("clobber_search.run_outcome_job",
                        [{"board": "xoxo/oxox/xoxo", "to_move": "black"}], 10**6))
        list(c.map_jobs("grundy.run_grundy_job", [{"key": "xoxo/oxox/xoxo"}], 10**6))
        (_, warm), = c.map_jobs(CHECK, [{"bytes": 0}], 1)
        try:
            list(c.map_jobs(CHECK, [{"bytes": warm["cap"] + 1}], 1))
            refused = "NOT REFUSED"
        except ClusterError as e:
            refused = str(e)
        assert c.restarts == 0
    return start["used"], warm["used"], warm["cap"], refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", default=None, help="the actors' cap (default: the default)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    base = tempfile.mkdtemp(prefix="cbm-m-", dir="/tmp")   # short: Ray's socket paths
    tempfile.tempdir = base
    try:
        runs = [one_run(args.cap) for _ in range(args.repeat)]
    finally:
        shutil.rmtree(base, ignore_errors=True)
    mb = 2**20
    starts = [r[0] / mb for r in runs]
    warms = [r[1] / mb for r in runs]
    print(f"actor address space at start: median {statistics.median(starts):,.0f} MB "
          f"(runs: {', '.join(f'{x:,.0f}' for x in starts)})")
    print(f"after an outcome and a Grundy job: median {statistics.median(warms):,.0f} MB "
          f"(runs: {', '.join(f'{x:,.0f}' for x in warms)})")
    print(f"cap in force (RLIMIT_AS): {runs[0][2] / mb:,.0f} MB")
    print(f"a reservation of the cap + 1 byte: {runs[0][3]}")


if __name__ == "__main__":
    main()
