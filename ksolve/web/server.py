"""Running the workbench: decide who may use it (``access_for``: the names it
answers to, its token), bind the address (a port in use is one error line,
before anything starts), say the URL, open the browser if asked, and serve
with uvicorn, its connections bounded (``connections.py``), until Ctrl-C
(which cancels the running jobs).

>>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1"), is_loopback("0.0.0.0")
(True, True, True, False)
>>> page_url("::1", 8000), page_url("0.0.0.0", 8080), page_url("127.0.0.1", 8000, "abc")
('http://[::1]:8000/', 'http://127.0.0.1:8080/', 'http://127.0.0.1:8000/?token=abc')
>>> access_for("127.0.0.1", None, False, ["ksolve.example.org"])
Access(names=frozenset({'ksolve.example.org'}), token=None)
>>> access_for("0.0.0.0", None, True, [])
Traceback (most recent call last):
...
ksolve.errors.InputError: --no-token: refused off loopback: whoever reaches 0.0.0.0 could use the workbench and its --problems folder
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from pathlib import Path
from types import FrameType
from typing import Callable, Sequence

import uvicorn

from ksolve.errors import InputError
from ksolve.web.connections import KEEP_ALIVE_SECONDS, MAX_CONNECTIONS, bounded_protocol
from ksolve.web.jobs import JobManager
from ksolve.web.security import HOST, TOKEN, Access, new_token

UNSPECIFIED = ("0.0.0.0", "::")
"""Addresses that listen on every interface of the machine."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` reaches this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def page_url(host: str, port: int, token: str | None = None) -> str:
    """The address to open (an unspecified address is opened on loopback), with the token if any."""
    if host in UNSPECIFIED:
        host = "127.0.0.1"
    url = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
    return url + (f"?token={token}" if token else "")


def access_for(host: str, token: str | None, no_token: bool, allow_hosts: Sequence[str]) -> Access:
    """Who may use a workbench listening on ``host``: ``token`` None (no ``--token``), ``""``
    (``--token`` alone: a random one) or the token; a token always off loopback;
    ``allow_hosts``: the names a reverse proxy reaches it by."""
    if not host.strip():
        raise InputError(f"--host: {host!r} is not an address to listen on (127.0.0.1: this machine only; "
                         "0.0.0.0: every interface)")
    if no_token and token is not None:
        raise InputError("--token, --no-token: give one of them")
    if no_token and not is_loopback(host):
        raise InputError(f"--no-token: refused off loopback: whoever reaches {host} could use the workbench "
                         "and its --problems folder")
    if token and TOKEN.fullmatch(token) is None:
        raise InputError("--token: at least 16 of the characters A-Z a-z 0-9 . _ ~ - "
                         "(or --token alone for a random one)")
    for name in allow_hosts:
        if (match := HOST.fullmatch(name)) is None or match["port"]:
            raise InputError(f"--allow-host: {name!r} is not a host name (a name or address, without a port)")
    if token == "" or (token is None and not no_token and not is_loopback(host)):
        token = new_token()
    names = list(allow_hosts)
    if host in UNSPECIFIED:
        names.append(socket.gethostname())  # how the machine's neighbours name it
    elif not is_loopback(host):
        names.append(host)
    return Access.of(names, token or None)


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
          say: Callable[[str], None], access: Access = Access()) -> None:
    """Serve the workbench until Ctrl-C; ``say`` tells the URL (with the token, if any)."""
    import webbrowser

    from ksolve.web.app import create_app

    sock = bind(host, port)
    url = page_url(host, port, access.token)
    app = create_app(problems_dir, max_running=max_running, access=access)
    say(f"ksolve: the workbench is at {url} ({max_running} job{'s' if max_running > 1 else ''} at once"
        f"{f', problems in {problems_dir}' if problems_dir else ''}); Ctrl-C stops it")
    if host in UNSPECIFIED:
        say(f"ksolve: other machines: {page_url(socket.gethostname(), port, access.token)} or this machine's "
            "address instead of its name (every request needs the token; --allow-host NAME for another name)")
    if open_browser:
        webbrowser.open(url)
    JobsFirstServer(server_config(app), app.state.jobs).run(sockets=[sock])


def server_config(app: object) -> uvicorn.Config:
    """uvicorn's settings for the workbench: its connections bounded (``connections.py``)."""
    return uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3, http=bounded_protocol(),
                          timeout_keep_alive=KEEP_ALIVE_SECONDS, limit_concurrency=MAX_CONNECTIONS + 1)


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
