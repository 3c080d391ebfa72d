"""How much one client may ask of the workbench: requests per minute on the routes
that start work or write, and event streams open at once.  Past a limit the
request gets 429 with one line and ``Retry-After``; nothing reaches the handler.

A client is an address (``scope["client"]``; behind a reverse proxy on this machine,
uvicorn takes it from ``X-Forwarded-For``).  On loopback every page of this machine is
one client, which the limits leave room for: a person composing sends a few requests
a minute to each of these routes.  The rates are moving windows of the ``limits``
package (Flask-Limiter's and SlowAPI's), in memory.

The problem check (``POST /api/problems/check``, a millisecond's work in the check
pool, sent 300 ms after each edit) has no rate: its pool bounds the work, and the
connections a client may hold (``connections.py``) bound what waits for it.
Jobs, trials and games are bounded in number where they are kept (``jobs.py``,
``trials.py``, ``play.py``); the saved problems' bytes in ``problems_store.py``.

>>> limit = route_limit("POST", "/api/try/3f2a/attempt")
>>> limit.route, str(limit.rate)
('POST /api/try/{id}/attempt', '120 per 1 minute')
>>> route_limit("GET", "/api/jobs") is None
True
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from ksolve.web.errors import error_response

RATES = {
    "POST /api/jobs": "30/minute",
    "PUT /api/problems/{name}": "60/minute",
    "POST /api/try": "30/minute",
    "POST /api/try/{id}/attempt": "120/minute",
    "POST /api/play": "60/minute",
    "POST /api/play/replay": "60/minute",
    "POST /api/play/{id}/attempt": "300/minute",
    "GET /api/play/{id}/belief": "60/minute",
}
"""Requests per client on the routes that start work (a job's process, a trial's belief, the
computer's move) or write a file."""
MAX_STREAMS = 16
"""Event streams (``GET /api/jobs/{id}/events``) one client may hold open at once."""
STREAMS = re.compile(r"/api/jobs/[^/]+/events")


@dataclass(frozen=True)
class RouteLimit:
    route: str
    pattern: re.Pattern[str]
    rate: RateLimitItem


LIMITS = [RouteLimit(route, re.compile(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(route.split(" ", 1)[1]))),
                     parse(rate)) for route, rate in RATES.items()]


def route_limit(method: str, path: str) -> RouteLimit | None:
    """The rate of the route that ``method path`` asks for (None: no rate)."""
    for limit in LIMITS:
        if limit.route.startswith(method + " ") and limit.pattern.fullmatch(path):
            return limit
    return None


class ClientLimits:
    """ASGI middleware: the rates of ``RATES`` and ``MAX_STREAMS``, per client."""

    def __init__(self, app: ASGIApp, max_streams: int = MAX_STREAMS) -> None:
        self.app, self.max_streams = app, max_streams
        self.windows = MovingWindowRateLimiter(MemoryStorage())
        self.streams: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = scope["client"][0] if scope.get("client") else "?"
        method, path = scope["method"], scope["path"]
        limit = route_limit(method, path)
        if limit is not None and not self.windows.hit(limit.rate, client, limit.route):
            reset = self.windows.get_window_stats(limit.rate, client, limit.route).reset_time
            wait = max(1, round(reset - time.time()))
            return await error_response(429, f"{limit.route}: at most {limit.rate} from one client; try again in "
                                             f"{wait} s", {"Retry-After": str(wait)})(scope, receive, send)
        if method != "GET" or STREAMS.fullmatch(path) is None:
            return await self.app(scope, receive, send)
        if self.streams[client] >= self.max_streams:
            return await error_response(429, f"{self.streams[client]} event streams open from {client} "
                                             f"(at most {self.max_streams}): close one", {"Retry-After": "5"}
                                        )(scope, receive, send)
        self.streams[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.streams[client] -= 1
            if not self.streams[client]:
                del self.streams[client]
