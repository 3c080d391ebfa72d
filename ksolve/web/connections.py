"""The workbench's HTTP connections, bounded: uvicorn's HTTP/1.1 protocol (h11) with
three limits it lacks.

Measured on uvicorn 0.55 before these limits (``benchmarks/bench_web.py --abuse``):
a connection that sends nothing, or drips its request's head a byte a second, stays
open for good (uvicorn's ``timeout_keep_alive`` only runs after an answer), and one
client holding 19,985 idle connections took every file descriptor of the server: a
problem check answered 500 and a job could not start its process ("Too many open
files").  uvicorn's ``limit_concurrency`` answers 503 only once a request has come,
so it holds no idle socket off.  Hence:

- ``MAX_PER_CLIENT`` connections from one address, ``MAX_CONNECTIONS`` in all: the one
  past either gets a 503 line and is closed at once (a browser opens at most 6 to a host);
- ``HEAD_SECONDS``: a connection must send a whole request head within that time of
  opening, or of its last answer, or it is closed (a slow-loris client's);
- uvicorn's own ``timeout_keep_alive`` still closes a kept-alive connection idle
  for 5 s, and its ``h11_max_incomplete_event_size`` (16 KiB) bounds a head's size.

The limits count per server: ``bounded_protocol()`` makes a protocol class with its
own counts for each ``uvicorn.Config(http=...)``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_PER_CLIENT = 128
"""Connections one address may hold (a reverse proxy on this machine is one address for all its clients)."""
MAX_CONNECTIONS = 512
"""Connections in all (the server's file descriptors are also its jobs' pipes)."""
HEAD_SECONDS = 10.0
"""Seconds a connection has to send a whole request head."""
KEEP_ALIVE_SECONDS = 5
"""uvicorn's ``timeout_keep_alive``: an idle kept-alive connection is closed after this."""


def bounded_protocol(per_client: int = MAX_PER_CLIENT, total: int = MAX_CONNECTIONS,
                     head_seconds: float = HEAD_SECONDS) -> type[H11Protocol]:
    """An h11 protocol class for ``uvicorn.Config(http=...)`` holding the limits above.

    >>> protocol = bounded_protocol(per_client=2)
    >>> protocol.per_client, protocol.total, protocol.open_by_client
    (2, 512, Counter())
    """
    return type("BoundedH11Protocol", (BoundedH11Protocol,),
                {"per_client": per_client, "total": total, "head_seconds": head_seconds,
                 "open_by_client": Counter()})


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing the connections past the limits (``bounded_protocol``)."""

    per_client: int
    total: int
    head_seconds: float
    open_by_client: Counter[str]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else "?"
        self.open_by_client[self._address] += 1
        self._head_timer: asyncio.TimerHandle | None = None
        held = self.open_by_client[self._address]
        if held > self.per_client:
            self._refuse(f"{held - 1} connections open from {self._address} (at most {self.per_client})")
        elif len(self.connections) > self.total:
            self._refuse(f"{len(self.connections) - 1} connections open (at most {self.total})")
        else:
            self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self.open_by_client[self._address] -= 1
        if self.open_by_client[self._address] <= 0:
            del self.open_by_client[self._address]
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()

    def _await_head(self) -> None:
        """Close the connection unless a new request's head has come within ``head_seconds``."""
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_late, self.cycle)

    def _head_late(self, cycle_then: Any) -> None:
        answering = self.cycle is not None and not self.cycle.response_complete
        if self.cycle is cycle_then and not answering and not self.transport.is_closing():
            self.transport.close()

    def _cancel_head_timer(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def _refuse(self, why: str) -> None:
        body = ('{"error":"' + why + '"}').encode()
        self.transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
                             b"retry-after: 5\r\nconnection: close\r\ncontent-length: " + str(len(body)).encode()
                             + b"\r\n\r\n" + body)
        self.transport.close()
