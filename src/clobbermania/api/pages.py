"""What the browser pages need: positions after moves, the computer's replies, drawings."""

from __future__ import annotations

from ._request import Endpoint

ENDPOINTS: dict[str, Endpoint] = {}
