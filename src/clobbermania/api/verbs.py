"""The CLI's verbs as functions returning the object their ``--json`` prints."""

from __future__ import annotations

from ._request import Endpoint

ENDPOINTS: dict[str, Endpoint] = {}
