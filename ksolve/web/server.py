"""Running the workbench: bind the address (a port in use is one error line,
before anything starts), say the URL, open the browser if asked, and serve
with uvicorn until Ctrl-C (which cancels the running jobs).

>>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1"), is_loopback("0.0.0.0")
(True, True, True, False)
>>> page_url("::1", 8000), page_url("0.0.0.0", 8080)
('http://[::1]:8000/', 'http://127.0.0.1:8080/')
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from pathlib import Path
from types import FrameType
from typing import Callable

import uvicorn

from ksolve.errors import InputError
from ksolve.web.jobs import JobManager


def is_loopback(host: str) -> bool:
    """Whether ``host`` reaches this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def page_url(host: str, port: int) -> str:
    """The address to open (an unspecified address is opened on loopback)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ``InputError`` naming the option otherwise."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Named TCP, so that asyncio sets TCP_NODELAY on each connection (or a kept-alive one waits 40 ms per answer).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        reason = "the port is in use (another server?)" if error.errno == 98 else error.strerror
        raise InputError(f"--host/--port: cannot listen on {host}:{port}: {reason}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(host: str, port: int, problems_dir: Path | None, max_running: int, open_browser: bool,
          say: Callable[[str], None]) -> None:
    """Serve the workbench until Ctrl-C; ``say`` tells the URL."""
    import webbrowser

    from ksolve.web.app import create_app

    sock = bind(host, port)
    url = page_url(host, port)
    app = create_app(problems_dir, max_running=max_running)
    say(f"ksolve: the workbench is at {url} ({max_running} job{'s' if max_running > 1 else ''} at once"
        f"{f', problems in {problems_dir}' if problems_dir else ''}); Ctrl-C stops it")
    if open_browser:
        webbrowser.open(url)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3)
    JobsFirstServer(config, app.state.jobs).run(sockets=[sock])


class JobsFirstServer(uvicorn.Server):
    """uvicorn's server, which on Ctrl-C (or SIGTERM) first cancels the jobs: their event
    streams end with ``done`` instead of holding the shutdown until the jobs end."""

    def __init__(self, config: uvicorn.Config, jobs: JobManager) -> None:
        super().__init__(config)
        self.jobs = jobs

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        try:
            asyncio.get_running_loop().call_soon_threadsafe(self.jobs.shutdown)
        except RuntimeError:  # no loop running yet
            pass
        super().handle_exit(sig, frame)
