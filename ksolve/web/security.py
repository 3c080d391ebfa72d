"""Who may use the workbench: the checks every request passes before any handler.

In this order (the first that fails answers, with one line):

1. **Host** (400): the name the browser asked for is one of this server's
   (``127.0.0.1``, ``localhost``, ``[::1]``, the address the connection came in on,
   with the port it listens on; a ``--host`` name; any ``--allow-host`` name).
   A DNS-rebinding page asks for ``attacker.example:PORT`` and is refused here.
2. **Origin** (403): a request that is not a GET or HEAD, and every request of the
   API, comes from the server's own origin: ``Origin`` is absent or the page's own,
   and ``Sec-Fetch-Site`` is absent, ``same-origin`` or ``none`` (typed by the user).
   ``same-site`` is refused: ``http://localhost:9000`` is "same site" as
   ``http://localhost:8000``.  No CORS header is ever sent, so a browser refuses a
   cross-origin preflight.
3. **Token** (401), when the server has one (always off loopback): the header
   ``Authorization: Bearer TOKEN``, or the cookie the page gets when opened with
   ``?token=TOKEN`` (HttpOnly, SameSite=Lax; named after the port).  A page address
   with the right ``?token=`` sets the cookie and is redirected to itself without it;
   a page without the token gets a short page that asks for it.
4. **JSON only** (415): a POST, PUT or PATCH body, and any DELETE body, is
   ``application/json``: no form and no ``fetch(..., {mode: "no-cors"})`` can send
   that type, so no "simple" cross-site request reaches a handler.

Every answer also carries headers that keep other sites from framing the pages
or reading the answers (``X-Frame-Options``, ``Cross-Origin-Resource-Policy``...).

Why not Starlette's ``TrustedHostMiddleware``: it compares the name without the
port, cannot allow "the address this connection came in on" (how another machine
reaches a server bound to ``0.0.0.0`` by its IP address), and answers in plain text
rather than the API's one JSON line.  Starlette's ``CORSMiddleware`` is left out on
purpose: the workbench answers no cross-origin request.

>>> access = Access()
>>> access.host_refusal("127.0.0.1:8000", ("127.0.0.1", 8000)) is None
True
>>> access.host_refusal("attacker.example:8000", ("127.0.0.1", 8000))
"Host: 'attacker.example:8000' is not this server's name (127.0.0.1, localhost or [::1] on port 8000; ksolve serve --allow-host NAME adds one)"
>>> access.origin_refusal("http://localhost:8000", None, "localhost:8000") is None
True
>>> access.origin_refusal("http://evil.example", "cross-site", "127.0.0.1:8000")
"Origin: 'http://evil.example' is not this server's (http://127.0.0.1:8000): the workbench answers its own pages only"
"""

from __future__ import annotations

import html
import ipaddress
import re
import secrets
from dataclasses import dataclass
from typing import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.datastructures import Headers
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ksolve.web.errors import error_response

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
"""The names of this machine that every workbench answers to (with the port it listens on)."""
TOKEN = re.compile(r"[A-Za-z0-9._~-]{16,256}")
"""A token: at least 16 characters that need no quoting in an address."""
HOST = re.compile(r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::(?P<port>[0-9]{1,5}))?")
"""A ``Host`` header (or an origin's host and port): a name or an IPv6 address in brackets, a port."""
SAFE_METHODS = ("GET", "HEAD")
BODY_METHODS = ("POST", "PUT", "PATCH")
"""Methods whose requests always carry a JSON body here (a DELETE may have none)."""
SAFE_SITES = ("same-origin", "none")
"""``Sec-Fetch-Site`` values of the page's own requests (``none``: typed or bookmarked by the user)."""
ANSWER_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"content-security-policy", b"frame-ancestors 'self'"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
"""Headers of every answer: no framing by another site, no reading of an answer by another site's page."""


def new_token() -> str:
    """A random token (as Jupyter's): 32 URL-safe characters, 192 bits.

    >>> len(new_token()), TOKEN.fullmatch(new_token()) is not None
    (32, True)
    """
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Access:
    """Which names the server answers to and the token its requests need (None: none).

    ``names``: host names allowed besides the loopback ones and the connection's own address
    (``--host NAME``, ``--allow-host NAME``), lower-case; a page served under one of them (a
    reverse proxy's) is also an origin of the server's own.
    """

    names: frozenset[str] = frozenset()
    token: str | None = None

    @classmethod
    def of(cls, names: Iterable[str] = (), token: str | None = None) -> "Access":
        """``Access`` with ``names`` cleaned (lower-case, IPv6 brackets taken off).

        >>> sorted(Access.of(["Proxy.Example", "[fe80::1]"]).names)
        ['fe80::1', 'proxy.example']
        """
        return cls(frozenset(_bare(name) for name in names if name), token)

    def host_refusal(self, host_header: str | None, server: tuple[str, int | None] | None) -> str | None:
        """Why a request with this ``Host`` is refused (None: it is this server's name)."""
        parsed = _host_port(host_header)
        port = server[1] if server else None
        if parsed is not None:
            name, asked_port = parsed
            if name in self.names:
                return None  # a reverse proxy's name: the proxy chose the port
            own = server is not None and name == _bare(str(server[0]))
            if (name in LOOPBACK_NAMES or own) and (asked_port or 80) == (port or 80):
                return None
        allowed = f"127.0.0.1, localhost or [::1] on port {port}" if port else "127.0.0.1, localhost or [::1]"
        if self.names:
            allowed += ", or " + ", ".join(sorted(self.names))
        return (f"Host: {host_header!r} is not this server's name ({allowed}; "
                "ksolve serve --allow-host NAME adds one)")

    def origin_refusal(self, origin: str | None, site: str | None, host_header: str) -> str | None:
        """Why a request from ``origin`` (``Sec-Fetch-Site``: ``site``) to ``host_header`` is
        refused (None: it comes from the server's own page, or from no page at all)."""
        if origin is not None and not self._own_origin(origin, host_header):
            return (f"Origin: {origin!r} is not this server's (http://{host_header}): "
                    "the workbench answers its own pages only")
        if site is not None and site not in SAFE_SITES:
            return f"Sec-Fetch-Site: {site}: the workbench answers its own pages only"
        return None

    def _own_origin(self, origin: str, host_header: str) -> bool:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (a sandboxed frame, a file) and anything else
        origin_host, own = _host_port(parts.netloc), _host_port(host_header)
        return origin_host is not None and (origin_host == own or origin_host[0] in self.names)

    def token_given(self, headers: Headers, cookie_name: str) -> bool:
        """Whether the request carries the token (header or cookie); always when there is none."""
        if self.token is None:
            return True
        scheme, _, value = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and secrets.compare_digest(value.strip().encode(), self.token.encode()):
            return True
        cookie = _cookie(headers.get("cookie", ""), cookie_name)
        return cookie is not None and secrets.compare_digest(cookie.encode(), self.token.encode())


class Guard:
    """ASGI middleware: the four checks of the module's docstring, then the app."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app, self.access = app, access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = self.refusal(scope)
        if refusal is not None:
            return await refusal(scope, receive, _with_answer_headers(send))
        await self.app(scope, receive, _with_answer_headers(send))

    def refusal(self, scope: Scope) -> Response | None:
        """The answer that refuses this request (None: it may go on to the app)."""
        headers = Headers(scope=scope)
        method, path = scope["method"], scope["path"]
        host = headers.get("host")
        why = self.access.host_refusal(host, scope.get("server"))
        if why is not None:
            return error_response(400, why)
        if method not in SAFE_METHODS or path.startswith("/api/"):
            why = self.access.origin_refusal(headers.get("origin"), headers.get("sec-fetch-site"), host or "")
            if why is not None:
                return error_response(403, why)
        cookie_name = token_cookie_name(scope)
        page = method in SAFE_METHODS and not path.startswith("/api/")
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True) if page else []
        if self.access.token is not None and any(name == "token" for name, _ in query):
            return self._open_with_token(scope, path, query, cookie_name)
        if not self.access.token_given(headers, cookie_name):
            if not page:
                return error_response(401, "this workbench asks for its token: open the address ksolve serve "
                                           "printed (…/?token=…), or send the header Authorization: Bearer TOKEN")
            return HTMLResponse(_token_page(path, query, wrong=False), status_code=401)
        if method in BODY_METHODS or (method not in SAFE_METHODS and _has_body(headers)):
            kind = headers.get("content-type")
            if kind is None or kind.split(";")[0].strip().lower() != "application/json":
                return error_response(415, f"Content-Type: {kind or 'missing'}: the API takes JSON bodies only "
                                           "(Content-Type: application/json)")
        return None

    def _open_with_token(self, scope: Scope, path: str, query: list[tuple[str, str]], cookie_name: str) -> Response:
        """A page's address holding ``?token=``: the right one sets the cookie and opens the page
        again without it (out of the address bar and the history); a wrong one asks again."""
        assert self.access.token is not None
        given = [value for name, value in query if name == "token"][-1]
        rest = [(name, value) for name, value in query if name != "token"]
        if not secrets.compare_digest(given.encode(), self.access.token.encode()):
            return HTMLResponse(_token_page(path, rest, wrong=True), status_code=401)
        answer = RedirectResponse(path + (f"?{urlencode(rest)}" if rest else ""), status_code=303)
        answer.set_cookie(cookie_name, self.access.token, httponly=True, samesite="lax", path="/",
                          secure=scope.get("scheme") == "https")
        return answer


def token_cookie_name(scope: Scope) -> str:
    """The token's cookie, named after the port (a browser sends a host's cookies to all its ports).

    >>> token_cookie_name({"server": ("127.0.0.1", 8000)})
    'ksolve-token-8000'
    """
    server = scope.get("server")
    return f"ksolve-token-{server[1] if server and server[1] else 80}"


def _with_answer_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *ANSWER_HEADERS]
        await send(message)

    return sending


def _has_body(headers: Headers) -> bool:
    return "content-type" in headers or "transfer-encoding" in headers or headers.get("content-length", "0") != "0"


def _bare(name: str) -> str:
    """A host name compared as the server compares it: lower-case, no IPv6 brackets.

    >>> _bare("[::1]"), _bare("LocalHost")
    ('::1', 'localhost')
    """
    name = name.strip().lower()
    return name[1:-1] if name.startswith("[") and name.endswith("]") else name


def _host_port(value: str | None) -> tuple[str, int | None] | None:
    """``Host``'s name (lower-case, no IPv6 brackets) and port (None: not a host and port).

    >>> _host_port("[::1]:8000"), _host_port("Example.org"), _host_port("evil@127.0.0.1")
    (('::1', 8000), ('example.org', None), None)
    """
    match = HOST.fullmatch(value or "")
    if match is None:
        return None
    if match["ipv6"] is not None:
        try:
            ipaddress.IPv6Address(match["ipv6"])
        except ValueError:
            return None
    port = int(match["port"]) if match["port"] else None
    return (match["ipv6"] or match["name"]).lower(), port


def _cookie(header: str, name: str) -> str | None:
    """The value of the cookie ``name`` in a ``Cookie`` header.

    >>> _cookie("a=1; ksolve-token-8000=xyz", "ksolve-token-8000")
    'xyz'
    """
    for pair in header.split(";"):
        key, _, value = pair.strip().partition("=")
        if key == name:
            return value
    return None


def _token_page(path: str, query: list[tuple[str, str]], wrong: bool) -> str:
    """The page asking for the token (a GET form: the answer sets the cookie and comes back here)."""
    hidden = "".join(f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">'
                     for name, value in query)
    said = "<p><strong>That token is not this workbench's.</strong></p>" if wrong else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ksolve workbench: token</title><link rel="icon" href="data:,">
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}}
input{{font:inherit;width:100%;margin:.5rem 0}}</style></head>
<body><h1>ksolve workbench</h1>{said}
<p>This workbench asks for its token. Open the address <code>ksolve serve</code> printed
(it ends in <code>?token=…</code>), or paste the token here:</p>
<form method="get" action="{html.escape(path)}">{hidden}
<label>Token <input name="token" type="password" autocomplete="off" required autofocus></label>
<button type="submit">Open the workbench</button></form></body></html>
"""
