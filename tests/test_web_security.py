"""The workbench's locks (``ksolve/web/security.py``, ``client_limits.py``,
``connections.py``), tried as an attacker would: against the app under
Starlette's TestClient and against a real ``ksolve serve`` on loopback (and one
bound to every interface, which asks for its token).

The same attacks run against both: a DNS-rebinding Host, another site's
``Origin`` / ``Sec-Fetch-Site`` on every route that starts work or writes, and
on the reads of problem text and PGNs, "simple" bodies (text/plain, a form).
Each is refused with its one line before any handler: the problems folder's
bytes are the same after, no job, trial or game was started, and the server's
own page (same origin, JSON) still gets through.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from serve_process import free_port, serving
from web_answers import one_line_error

from ksolve.cli import main
from ksolve.web import play, problems_store, tryit
from ksolve.web.app import create_app
from ksolve.web.security import Access

ROOT = Path(__file__).resolve().parent.parent
FOSTER = (ROOT / "problems" / "foster-1996.toml").read_text()
VANDALISED = FOSTER.replace('title = "', 'title = "vandalised ', 1)
TOKEN = "a-test-token-0123456789"
EVIL_ORIGINS = [
    ({"Origin": "http://evil.example"}, "Origin"),
    ({"Origin": "http://localhost:9000"}, "Origin"),           # same site, another port
    ({"Origin": "null"}, "Origin"),                            # a sandboxed frame, a file
    ({"Sec-Fetch-Site": "cross-site"}, "Sec-Fetch-Site"),      # a form or no-cors fetch without Origin
    ({"Sec-Fetch-Site": "same-site"}, "Sec-Fetch-Site"),
]
SIMPLE_BODIES = [
    ({"Content-Type": "text/plain"}, b'{"problem": "x"}'),
    ({"Content-Type": "application/x-www-form-urlencoded"}, b"problem=x"),
    ({"Content-Type": "multipart/form-data; boundary=b"}, b"--b--\r\n"),
    ({}, b'{"problem": "x"}'),
]


def writes(game: str) -> list[tuple[str, str, dict | None]]:
    """Every request that starts work or writes (``game``: an existing game's id)."""
    return [
        ("POST", "/api/jobs", {"problem": FOSTER, "action": "solve"}),
        ("POST", "/api/jobs", {"name": "foster-1996", "action": "verify"}),
        ("PUT", "/api/problems/foster-1996", {"problem": VANDALISED}),
        ("PUT", "/api/problems/planted", {"problem": VANDALISED}),
        ("POST", "/api/problems/check", {"problem": FOSTER}),
        ("POST", "/api/export", {"problem": FOSTER, "to": "latex"}),
        ("POST", "/api/import", {"text": "algebraic: {white: [Kb6, Rh1], black: [Ka8]}\nstipulation: '#1'\n"}),
        ("POST", "/api/try", {"problem": FOSTER}),
        ("POST", "/api/play", {"rules": "berkeley", "mode": "hotseat"}),
        ("POST", f"/api/play/{game}/attempt", {"side": "white", "move": "e2e4"}),
        ("POST", "/api/play/replay", {"pgn": "1. e4 *"}),
        ("POST", f"/api/play/{game}/resign", {"side": "white"}),
        ("POST", f"/api/play/{game}/draw", {"side": "white", "action": "offer"}),
        ("POST", f"/api/play/{game}/takeback", {"side": "white"}),
        ("POST", f"/api/play/{game}/rematch", {}),
        ("DELETE", f"/api/play/{game}", None),
    ]


def reads(game: str, watch: str) -> list[str]:
    """The reads of problem text, PGNs and a game (``game``: an existing game's id, ``watch``
    its spectators' id)."""
    return ["/api/problems", "/api/problems/foster-1996", "/api/jobs", f"/api/play/watch/{watch}",
            f"/api/play/{game}/pgn?view=white", f"/api/play/{game}?side=white"]


def own_page(host: str) -> dict[str, str]:
    """What the server's own page sends with a request."""
    return {"Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def send(client, method: str, path: str, body: dict | None, headers: dict[str, str]):
    return client.request(method, path, json=body, headers=headers) if body is not None \
        else client.request(method, path, headers=headers)


def attacks(client, host: str, folder: Path) -> None:
    """Every attack on ``client`` (a TestClient or an httpx client of a real server reached as
    ``host``): each refused with its status and one line; nothing written, started or deleted."""
    started = client.post("/api/play", json={"rules": "berkeley", "mode": "hotseat"}, headers=own_page(host)).json()
    game, watch = started["id"], started["watch"]
    before = snapshot(folder)
    jobs = client.get("/api/jobs").json()["jobs"]
    for method, path, body in writes(game):
        assert "Host: 'attacker.example" in one_line_error(send(client, method, path, body, {
            "Host": "attacker.example:8000"}), 400)
        for headers, named in EVIL_ORIGINS:
            assert one_line_error(send(client, method, path, body, headers), 403).startswith(named)
        if body is not None:
            for headers, content in SIMPLE_BODIES:
                response = client.request(method, path, content=content, headers=headers)
                assert one_line_error(response, 415).startswith("Content-Type: ")
    for path in reads(game, watch):
        assert one_line_error(client.get(path, headers={"Host": "attacker.example"}), 400)
        for headers, named in EVIL_ORIGINS:
            assert one_line_error(client.get(path, headers=headers), 403).startswith(named)
    assert snapshot(folder) == before
    assert client.get("/api/jobs").json()["jobs"] == jobs
    watched = client.get(f"/api/play/watch/{watch}").json()
    assert watched["plies"] == 0 and not watched["over"] and watched["draw_offer"] is None  # no resignation, no offer
    # the server's own page gets through, with or without the browser's headers
    for headers in (own_page(host), {"Sec-Fetch-Site": "none"}, {}):
        for path in reads(game, watch):
            assert client.get(path, headers=headers).status_code == 200, path
    step = client.post(f"/api/play/{game}/attempt", json={"side": "white", "move": "e2e4"}, headers=own_page(host))
    assert step.status_code == 200 and step.json()["answer"]["words"]
    assert client.delete(f"/api/play/{game}", headers=own_page(host)).status_code == 200


@pytest.fixture
def folder(tmp_path) -> Path:
    problems = tmp_path / "problems"
    problems.mkdir()
    shutil.copy(ROOT / "problems" / "foster-1996.toml", problems)
    return problems


@pytest.fixture
def client(folder):
    with TestClient(create_app(folder, max_running=1)) as client:
        yield client


# --- the app, under TestClient --------------------------------------------------------------------
def test_every_attack_is_refused_before_any_handler_and_changes_nothing(client, folder) -> None:
    trials, games = len(tryit.TRIALS), len(play.GAMES._games)
    attacks(client, "testserver", folder)
    assert len(tryit.TRIALS) == trials and len(play.GAMES._games) == games


@pytest.mark.parametrize("host, status", [
    ("testserver", 200), ("127.0.0.1", 200), ("localhost", 200), ("[::1]", 200), ("LOCALHOST:80", 200),
    ("127.0.0.1:8000", 400),             # this server listens on port 80 (TestClient's)
    ("attacker.example", 400), ("localhost.attacker.example", 400), ("evil@127.0.0.1", 400), ("", 400),
])
def test_the_host_allow_list_takes_this_machines_names_on_its_port(client, host, status) -> None:
    assert client.get("/api/info", headers={"Host": host}).status_code == status


def test_allow_host_adds_a_reverse_proxys_name_as_host_and_origin(folder) -> None:
    access = Access.of(["ksolve.example.org"])
    with TestClient(create_app(folder, max_running=1, access=access)) as client:
        proxied = {"Host": "ksolve.example.org", "Origin": "https://ksolve.example.org"}
        assert client.post("/api/problems/check", json={"problem": FOSTER}, headers=proxied).status_code == 200
        behind = {"Host": "127.0.0.1", "Origin": "https://ksolve.example.org"}  # a proxy that sets Host itself
        assert client.post("/api/problems/check", json={"problem": FOSTER}, headers=behind).status_code == 200
        other = {"Host": "ksolve.example.org", "Origin": "https://evil.example"}
        assert one_line_error(client.post("/api/problems/check", json={"problem": FOSTER}, headers=other), 403)


def test_no_answer_carries_cors_headers_and_every_answer_forbids_framing(client) -> None:
    preflight = client.options("/api/jobs", headers={"Origin": "http://evil.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert preflight.status_code in (403, 405)
    for response in (preflight, client.get("/"), client.get("/api/info"), client.get("/static/app.js")):
        assert not [name for name in response.headers if name.lower().startswith("access-control-")]
        assert response.headers["x-frame-options"] == "SAMEORIGIN"
        assert response.headers["cross-origin-resource-policy"] == "same-origin"


def test_the_pages_and_their_files_open_from_a_link_on_another_site(client) -> None:
    """A navigation from another site reaches the pages (they start nothing); not the API."""
    elsewhere = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    for path in ("/", "/play", "/static/common.js"):
        assert client.get(path, headers=elsewhere).status_code == 200
    assert one_line_error(client.get("/api/problems", headers=elsewhere), 403)


# --- the token --------------------------------------------------------------------------------------
def api_routes(app) -> list[tuple[str, str]]:
    """Every API route of ``app`` with each of its methods, path parameters filled in."""
    return [(method, re.sub(r"\{\w+\}", "x", route.path)) for route in app.routes
            if route.path.startswith("/api/") for method in sorted(route.methods - {"HEAD"})]


def test_off_loopback_every_api_call_needs_the_token(folder) -> None:
    from ksolve.web.server import access_for

    access = access_for("0.0.0.0", None, False, [])
    assert access.token is not None and len(access.token) >= 32
    app = create_app(folder, max_running=1, access=access)
    with TestClient(app) as client:
        routes = api_routes(app)
        assert len(routes) >= 20
        for method, path in routes:
            body = {} if method in ("POST", "PUT") else None
            response = send(client, method, path, body, {})
            assert "asks for its token" in one_line_error(response, 401), (method, path)
            wrong = send(client, method, path, body, {"Authorization": "Bearer " + "x" * 32})
            assert one_line_error(wrong, 401)
        bearer = {"Authorization": f"Bearer {access.token}"}
        for path in ("/api/info", "/api/problems", "/api/jobs", "/api/problems/foster-1996"):
            assert client.get(path, headers=bearer).status_code == 200
        saved = client.put("/api/problems/foster-1996", json={"problem": FOSTER}, headers=bearer)
        assert saved.status_code == 200


def test_the_printed_address_sets_the_cookie_that_the_pages_requests_carry(folder) -> None:
    with TestClient(create_app(folder, max_running=1, access=Access(token=TOKEN)), follow_redirects=False) as client:
        asked = client.get("/play?watch=abc123")
        assert asked.status_code == 401 and 'name="token"' in asked.text and asked.headers["content-type"].startswith(
            "text/html")
        assert '<input type="hidden" name="watch" value="abc123">' in asked.text  # kept through the form
        wrong = client.get("/?token=" + "y" * 24)
        assert wrong.status_code == 401 and "not this workbench's" in wrong.text and "ksolve-token" not in str(
            wrong.headers)
        spectator = client.get(f"/play?watch=abc123&token={TOKEN}")
        assert spectator.status_code == 303 and spectator.headers["location"] == "/play?watch=abc123"
        cookie = spectator.headers["set-cookie"]
        assert cookie.startswith(f"ksolve-token-80={TOKEN};") and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert client.get("/").status_code == 200                  # the cookie is kept by the client
        assert client.get(f"/?token={TOKEN}").headers["location"] == "/"  # the token leaves the address again
        assert client.get("/api/jobs").status_code == 200
        assert client.post("/api/problems/check", json={"problem": FOSTER}).status_code == 200
        client.cookies.clear()
        assert one_line_error(client.get("/api/jobs"), 401)
        assert one_line_error(client.get(f"/api/jobs?token={TOKEN}"), 401)  # the API takes no token in its address


@pytest.mark.parametrize("arguments, line", [
    (["--host", "0.0.0.0", "--no-token"], "ksolve: error: --no-token: refused off loopback: whoever reaches 0.0.0.0 "
                                          "could use the workbench and its --problems folder"),
    (["--token", "short"], "ksolve: error: --token: at least 16 of the characters A-Z a-z 0-9 . _ ~ - "
                           "(or --token alone for a random one)"),
    (["--token", TOKEN, "--no-token"], "ksolve: error: --token, --no-token: give one of them"),
    (["--allow-host", "proxy.example:443"], "ksolve: error: --allow-host: 'proxy.example:443' is not a host name "
                                            "(a name or address, without a port)"),
])
def test_serve_refuses_an_open_or_weak_setting_in_one_line(arguments, line) -> None:
    result = CliRunner().invoke(main, ["serve", *arguments])
    assert result.exit_code == 2 and result.output == line + "\n"


# --- limits -----------------------------------------------------------------------------------------
def test_a_clients_rate_on_a_route_that_starts_work_is_bounded(client) -> None:
    bad = {"problem": "not a problem"}
    answers = [client.post("/api/try", json=bad).status_code for _ in range(30)]
    assert answers == [422] * 30
    refused = client.post("/api/try", json=bad)
    assert one_line_error(refused, 429).startswith("POST /api/try: at most 30 per 1 minute from one client")
    assert int(refused.headers["retry-after"]) >= 1
    assert client.post("/api/problems/check", json={"problem": FOSTER}).status_code == 200  # other routes go on


def test_a_client_holds_at_most_max_streams_event_streams() -> None:
    from ksolve.web.client_limits import ClientLimits

    release = asyncio.Event()

    async def streaming(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await release.wait()
        await send({"type": "http.response.body", "body": b""})

    async def run() -> list[int]:
        limits = ClientLimits(streaming, max_streams=3)
        statuses: list[int] = []

        def stream(client: str):
            scope = {"type": "http", "method": "GET", "path": "/api/jobs/abc/events", "client": (client, 1),
                     "headers": [], "query_string": b""}

            async def sent(message):
                if message["type"] == "http.response.start":
                    statuses.append(message["status"])

            async def receive():
                return {"type": "http.request", "body": b""}

            return limits(scope, receive, sent)

        tasks = [asyncio.create_task(stream("10.0.0.1")) for _ in range(3)]
        await asyncio.sleep(0.01)
        await stream("10.0.0.1")                      # the fourth: refused at once
        other = asyncio.create_task(stream("10.0.0.2"))
        await asyncio.sleep(0.01)
        release.set()
        await asyncio.gather(*tasks, other)
        assert not limits.streams                      # every count back to nothing
        return statuses

    assert asyncio.run(run()) == [200, 200, 200, 429, 200]


def test_a_save_past_the_folders_bytes_is_refused_and_writes_nothing(client, folder, monkeypatch) -> None:
    monkeypatch.setattr(problems_store, "MAX_FOLDER_BYTES", len(FOSTER.encode()) * 2)
    before = snapshot(folder)
    assert client.put("/api/problems/foster-1996", json={"problem": FOSTER}).status_code == 200  # replacing: room
    refused = client.put("/api/problems/big", json={"problem": FOSTER + "# " + "x" * 100 + "\n"})
    assert one_line_error(refused, 413).startswith("the problems folder would hold ")
    monkeypatch.setattr(problems_store, "MAX_PROBLEMS", 1)
    assert "problem files: at most 1 are saved" in one_line_error(
        client.put("/api/problems/second", json={"problem": FOSTER}), 413)
    assert snapshot(folder) == before


# --- a real uvicorn on loopback ----------------------------------------------------------------------
def test_a_real_server_on_loopback_refuses_every_attack(folder) -> None:
    port = free_port()
    with serving(["--problems", str(folder), "--jobs", "1"], port), \
            httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        attacks(client, f"127.0.0.1:{port}", folder)
        assert one_line_error(client.get("/api/info", headers={"Host": f"localhost:{port + 1}"}), 400)
        assert client.get("/api/info", headers={"Host": f"localhost:{port}"}).status_code == 200


def test_a_real_server_on_every_interface_asks_every_request_for_its_printed_token(folder) -> None:
    port = free_port()
    with serving(["--host", "0.0.0.0", "--problems", str(folder), "--jobs", "1"], port) as lines:
        deadline = time.monotonic() + 5
        while len(lines) < 2 and time.monotonic() < deadline:  # both lines come before the server listens
            time.sleep(0.05)
        printed = "".join(lines)
        token = re.search(rf"http://127\.0\.0\.1:{port}/\?token=([A-Za-z0-9_-]{{32}})", printed).group(1)
        assert f"?token={token}" in printed.splitlines()[1]  # the address for other machines
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30, follow_redirects=True) as client:
            app = create_app(None)
            for method, path in api_routes(app):
                response = send(client, method, path, {} if method in ("POST", "PUT") else None, {})
                assert one_line_error(response, 401), (method, path)
            assert client.get("/").status_code == 401
            opened = client.get(f"/?token={token}")  # follows the redirect with the cookie
            assert opened.status_code == 200 and "<title>ksolve workbench</title>" in opened.text
            assert client.get("/api/problems").status_code == 200
            bearer = httpx.get(f"http://127.0.0.1:{port}/api/jobs", headers={"Authorization": f"Bearer {token}"})
            assert bearer.status_code == 200


# --- connections, on a real uvicorn with small limits -----------------------------------------------
@pytest.fixture
def small_limits_server(folder):
    """The workbench under uvicorn in a thread, at most 3 connections per address, 1 s for a head."""
    import uvicorn

    from ksolve.web.connections import bounded_protocol

    port = free_port()
    config = uvicorn.Config(create_app(folder, max_running=1), host="127.0.0.1", port=port, log_level="warning",
                            http=bounded_protocol(per_client=3, total=5, head_seconds=1.0), timeout_keep_alive=5)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(10)


def test_idle_and_dripping_connections_are_bounded_and_closed(small_limits_server) -> None:
    port = small_limits_server

    def connect(source: str = "127.0.0.1") -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        return sock

    held = [connect() for _ in range(3)]
    refused = connect()
    answer = refused.recv(1000)
    assert answer.startswith(b"HTTP/1.1 503") and b"3 connections open from 127.0.0.1 (at most 3)" in answer
    assert refused.recv(100) == b""                                   # and closed
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
        assert other.get(f"http://127.0.0.1:{port}/api/info").status_code == 200  # another address is answered
    held[0].sendall(b"GET /api/info HTTP/1.1\r\n")                      # a head that never ends
    started = time.monotonic()
    for sock in held:
        assert sock.recv(100) == b""                                    # closed by the server, unanswered
    assert time.monotonic() - started < 3
    fresh = connect()
    fresh.sendall(f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert fresh.recv(100).startswith(b"HTTP/1.1 200")
    for sock in (refused, fresh, *held):
        sock.close()


def test_an_answer_that_takes_longer_than_the_head_deadline_is_not_cut() -> None:
    """The deadline is for a request's head: a long answer (an event stream's) keeps its connection."""
    import uvicorn

    from ksolve.web.connections import bounded_protocol

    async def slow(scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await asyncio.sleep(1.5)
        await send({"type": "http.response.body", "body": b"late but whole"})

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(slow, host="127.0.0.1", port=port, log_level="warning",
                                           http=bounded_protocol(head_seconds=0.5)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            assert client.get("/").text == "late but whole"
            time.sleep(0.2)
            assert client.get("/").text == "late but whole"  # and the next request's answer too
    finally:
        server.should_exit = True
        thread.join(10)


def test_token_alone_asks_for_a_random_one() -> None:
    from ksolve.cli import serve
    from ksolve.web.server import access_for

    assert serve.make_context("serve", ["--token", "--port", "9000"]).params["token"] == ""
    assert serve.make_context("serve", ["--token", TOKEN]).params["token"] == TOKEN
    first, second = access_for("127.0.0.1", "", False, []), access_for("127.0.0.1", "", False, [])
    assert len(first.token) == 32 and first.token != second.token
    assert access_for("127.0.0.1", None, False, []).token is None          # loopback: none unless asked
    assert access_for("192.0.2.7", TOKEN, False, []) == Access.of(["192.0.2.7"], TOKEN)
