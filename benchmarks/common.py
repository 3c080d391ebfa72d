"""Helpers shared by the benchmark scripts: timing, the machine's description,
and a workbench server on loopback for the web benchmarks."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
import time
from pathlib import Path
from typing import Any, Callable


def best_of(repeats: int, function: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeats`` runs of ``function``: ``(seconds, result)``."""
    best: tuple[float, Any] | None = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        elapsed = time.perf_counter() - start
        if best is None or elapsed < best[0]:
            best = (elapsed, result)
    assert best is not None
    return best


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    import chess
    import numba
    import numpy

    return {"python": platform.python_version(), "processor": platform.machine(), "cores": os.cpu_count(),
            "chess": chess.__version__, "numba": numba.__version__, "numpy": numpy.__version__}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(command: list[str], port: int, cwd: Path) -> subprocess.Popen:
    """Start a workbench server (``command``, listening on ``port``) and return once
    ``/api/info`` answers; exit with its stderr if it does not within 60 s."""
    import httpx

    server = subprocess.Popen(command, cwd=cwd, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=1).raise_for_status()
            return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"the server did not start: {server.stderr.read() if server.stderr else ''}")
