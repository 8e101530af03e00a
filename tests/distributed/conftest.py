"""One private local Ray (2 CPUs) per test module: the fixture ``ray_cluster``.

Skipped, with the reason, when Ray is not installed (``pip install
'clobbermania[distributed]'``; ``make test`` installs it). The Ray is shut down by the
module that started it; nothing else on the machine is touched (never ``ray stop``).
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def ray_cluster():
    """A :class:`clobbermania.distributed.cluster.Cluster` of 2 actors on a local Ray."""
    pytest.importorskip("ray", reason="Ray is not installed (clobbermania[distributed])")
    from clobbermania.distributed.cluster import cluster

    with cluster(cpus=2) as c:
        yield c
