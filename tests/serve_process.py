"""``ksolve serve`` in a child process, for the tests that need a real server (shared by the web tests)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port(address: str = "127.0.0.1") -> int:
    """A TCP port free on ``address`` now."""
    with socket.socket() as probe:
        probe.bind((address, 0))
        return probe.getsockname()[1]


@contextmanager
def serving(arguments: list[str], port: int, headers: dict[str, str] | None = None) -> Iterator[list[str]]:
    """``ksolve serve --port PORT ARGUMENTS`` while the block runs, from the moment its ``/api/info``
    answers (200, or 401 for want of ``headers``' token): yields its stderr lines as they come."""
    process = subprocess.Popen([sys.executable, "-m", "ksolve.cli", "serve", "--port", str(port), *arguments],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True).start()
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, "".join(lines)
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/info", headers=headers, timeout=2).status_code in (200, 401):
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.3)
        yield lines
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
