"""Helpers shared by the benchmark scripts: timing, the machine's description,
and a workbench server on loopback for the web benchmarks."""

from __future__ import annotations

import os
import platform
import signal
import socket
import subprocess
import time
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator


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


@dataclass
class ProcessRun:
    """What one measured process did: exit code, wall seconds, its own peak MB, its output."""

    exit: int
    seconds: float
    peak_mb: int
    stdout: str
    stderr: str


def measured_process(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> ProcessRun:
    """Run ``command`` to its end (in ``env``, default this process's), reading its
    output, and reap it with ``os.wait4`` to read the child's own peak resident size."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env)
    stderr: list[str] = []
    reader = threading.Thread(target=lambda: stderr.append(child.stderr.read()))
    reader.start()
    stdout = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    reader.join()
    return ProcessRun(os.waitstatus_to_exitcode(status), round(time.perf_counter() - start, 2),
                      round(usage.ru_maxrss / 1024), stdout, stderr[0] if stderr else "")


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    import chess
    import numba
    import numpy

    return {"python": platform.python_version(), "processor": platform.machine(), "cores": os.cpu_count(),
            "chess": chess.__version__, "numba": numba.__version__, "numpy": numpy.__version__,
            "revision": _revision()}


def _revision() -> str | None:
    """The checkout's commit (with ``+`` when files differ from it), or None outside git."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return commit + ("+" if dirty else "")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(command: list[str], port: int, cwd: Path, headers: dict[str, str] | None = None) -> Iterator[str]:
    """A workbench server (``command``, listening on ``port``) while the block runs:
    yields its base URL once ``/api/info`` answers (asked with ``headers``: a token's; exits
    with its stderr if it does not within 60 s), then stops it with Ctrl-C (killed after 30 s)."""
    import httpx

    server = subprocess.Popen(command, cwd=cwd, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/api/info", headers=headers, timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    server.kill()
                    raise SystemExit(f"the server did not start: {server.stderr.read() if server.stderr else ''}")
                time.sleep(0.2)
        yield base
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
