"""Job-level solving on a Ray cluster, with a persistent SQLite job store
(docs/distributed.md). Ray is an optional extra: ``pip install clobbermania[distributed]``.
"""
