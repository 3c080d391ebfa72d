"""The workbench's locks in a real headless Chromium (Debian's, through Playwright,
as the other browser tests): a page of another origin on this machine
(127.0.0.2, another port, served by the test) tries everything a web page can
do to the workbench (``fetch`` in no-cors and cors modes, form posts, framing
it, reading the problems), and a DNS-rebinding name (a host resolver rule maps
``rebind.test`` to 127.0.0.1) asks for the problems.  The workbench starts no
job and changes no file, while its own pages, opened with the token of the
address ``ksolve serve --token`` printed, keep working: Compose, Verify with its
event stream, report and certificate, Try it, Play, the spectator's page and a
PGN download.
"""

from __future__ import annotations

import http.server
import json
import re
import shutil
import threading
from pathlib import Path

import httpx
import pytest
from serve_process import free_port, serving

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (.ci/run installs it)")
playwright_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright's Python package (the test extra)")
expect = playwright_api.expect

TOKEN = "browser-test-token-0123456789"
FOSTER = (ROOT / "problems" / "foster-1996.toml").read_text()
ATTACK = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>a page of another origin</title></head><body>
<iframe name="sink-job"></iframe><iframe name="sink-check"></iframe><iframe name="sink-play"></iframe>
<form id="form-job" method="post" action="{target}/api/jobs" enctype="text/plain" target="sink-job">
  <input name='{{"action": "solve", "problem": {problem}, "x": "' value='"}}'></form>
<form id="form-check" method="post" action="{target}/api/problems/check" target="sink-check">
  <input name="problem" value="x"></form>
<form id="form-play" method="post" action="{target}/api/play" enctype="multipart/form-data" target="sink-play">
  <input name="rules" value="berkeley"></form>
<iframe id="framed" src="{target}/"></iframe>
<script>
const target = {target_json}, problem = {problem};
const body = JSON.stringify({{action: 'solve', problem}});
const vandal = JSON.stringify({{problem: problem.replace('title = "', 'title = "vandalised ')}});
window.results = {{}};
async function attempt(name, path, init) {{
  try {{
    const answer = await fetch(target + path, init);
    window.results[name] = answer.type === 'opaque' ? 'opaque' : `${{answer.status}} ${{await answer.text()}}`;
  }} catch (error) {{
    window.results[name] = 'refused by the browser';
  }}
}}
(async () => {{
  await Promise.all([
    attempt('job, no-cors text', '/api/jobs', {{method: 'POST', mode: 'no-cors', body}}),
    attempt('job, no-cors "json"', '/api/jobs', {{method: 'POST', mode: 'no-cors', body,
                                                 headers: {{'Content-Type': 'application/json'}}}}),
    attempt('job, cors json', '/api/jobs', {{method: 'POST', body, headers: {{'Content-Type': 'application/json'}}}}),
    attempt('save, cors json', '/api/problems/foster-1996', {{method: 'PUT', body: vandal,
                                                              headers: {{'Content-Type': 'application/json'}}}}),
    attempt('save, no-cors', '/api/problems/foster-1996', {{method: 'PUT', mode: 'no-cors', body: vandal}}),
    attempt('try, no-cors', '/api/try', {{method: 'POST', mode: 'no-cors', body: JSON.stringify({{problem}})}}),
    attempt('play, no-cors', '/api/play', {{method: 'POST', mode: 'no-cors', body: '{{"mode": "hotseat"}}'}}),
    attempt('read problems, cors', '/api/problems', {{}}),
    attempt('read a problem, credentials', '/api/problems/foster-1996', {{credentials: 'include'}}),
  ]);
  for (const form of document.querySelectorAll('form')) form.submit();
  window.done = true;
}})();
</script></body></html>
"""


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def workbench_server(tmp_path_factory):
    """``ksolve serve --token`` on a free loopback port over a folder holding Foster 1996: ``(url, folder)``."""
    folder = tmp_path_factory.mktemp("problems")
    shutil.copy(ROOT / "problems" / "foster-1996.toml", folder)
    port = free_port()
    with serving(["--jobs", "2", "--problems", str(folder), "--token", TOKEN], port):
        yield f"http://127.0.0.1:{port}", folder


@pytest.fixture(scope="module")
def attacker(workbench_server):
    """A page of another origin (127.0.0.2, another port) attacking the workbench: its URL."""
    url, _ = workbench_server
    page = ATTACK.format(target=url, target_json=json.dumps(url), problem=json.dumps(FOSTER)).encode()

    class AttackPage(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *_args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.2", free_port("127.0.0.2")), AttackPage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.2:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(workbench):
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[
            *workbench.CHROMIUM_ARGS, "--host-resolver-rules=MAP rebind.test 127.0.0.1"])
        yield browser
        browser.close()


def jobs(url: str) -> list[dict]:
    return httpx.get(url + "/api/jobs", headers={"Authorization": f"Bearer {TOKEN}"}).json()["jobs"]


def test_a_page_of_another_origin_starts_nothing_and_changes_no_file(browser, workbench_server, attacker) -> None:
    url, folder = workbench_server
    before, jobs_before = snapshot(folder), jobs(url)
    context = browser.new_context()
    own = context.new_page()
    own.goto(f"{url}/?token={TOKEN}")                       # the composer's workbench is open, its cookie set
    expect(own.locator("#check-status")).to_contain_text("position", timeout=60_000)
    answers: list[tuple[str, str, int]] = []
    page = context.new_page()
    page.on("response", lambda response: answers.append((response.request.method, response.url, response.status))
            if response.url.startswith(url) else None)
    sent: list[tuple[str, str]] = []
    page.on("request", lambda request: sent.append((request.method, request.url)) if request.url.startswith(url)
            else None)
    page.goto(attacker)
    page.wait_for_function("window.done === true", timeout=30_000)
    page.wait_for_timeout(2000)                              # the forms' posts
    results = page.evaluate("window.results")
    assert set(results) == {'job, no-cors text', 'job, no-cors "json"', "job, cors json", "save, cors json",
                            "save, no-cors", "try, no-cors", "play, no-cors", "read problems, cors",
                            "read a problem, credentials"}
    assert all(result in ("opaque", "refused by the browser") for result in results.values()), results
    # every request made (the answers a no-cors request gets are hidden from the page, and here from
    # Playwright too, by Cross-Origin-Resource-Policy) was refused: no answer below 400 reached the browser
    assert len([request for request in sent if request[0] == "POST"]) >= 8, sent
    assert all(status >= 400 for _, _, status in answers), answers
    framed = page.frame_locator("#framed")
    expect(framed.locator("#tab-compose")).to_have_count(0)  # not framed by another site
    assert snapshot(folder) == before and jobs(url) == jobs_before
    context.close()


def test_a_dns_rebinding_name_gets_400_from_the_workbench(browser, workbench_server) -> None:
    url, _ = workbench_server
    port = url.rsplit(":", 1)[1]
    page = browser.new_page()
    answer = page.goto(f"http://rebind.test:{port}/api/problems?token={TOKEN}")
    assert answer.status == 400
    assert json.loads(page.inner_text("body"))["error"].startswith(f"Host: 'rebind.test:{port}' is not this server's")
    page.close()


def test_the_workbenchs_own_pages_keep_working_with_its_token(browser, workbench_server) -> None:
    url, folder = workbench_server
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda request: None if request.url.startswith((url, "data:", "blob:"))
            else outside.append(request.url))
    streams: list[int] = []
    page.on("response", lambda response: streams.append(response.status) if response.url.endswith("/events")
            else None)
    page.goto(f"{url}/?token={TOKEN}")
    assert page.url == f"{url}/#compose"                    # the token left the address at once
    # Compose and Verify: the check, the job and its event stream, the report in its frame, the certificate
    page.fill("#toml", FOSTER)
    expect(page.locator("#check-status")).to_contain_text("25 positions", timeout=60_000)
    page.click("#tab-verify")
    page.click("#run-verify")
    expect(page.locator("#verdict .verdict")).to_contain_text("Sound", timeout=120_000)
    expect(page.frame_locator("#report-frame").locator(".verdict.good")).to_contain_text("Sound")
    assert streams == [200]                                  # the job's event stream (EventSource) was let in
    certificate = page.get_attribute('#exports a[href$="certificate.json"]', "href")
    assert context.request.get(url + certificate).json()["format"] == "ksolve-certificate"
    # Try it
    page.click("#tab-try")
    page.click("#try-start")
    expect(page.locator("#try-stop")).to_be_enabled(timeout=60_000)
    expect(page.locator("#try-facts")).to_contain_text("25 positions")
    # Library: the folder, read through the token's cookie
    page.click("#tab-library")
    expect(page.locator('#library-table tr[data-name="foster-1996"]')).to_contain_text("#2")
    # Play, a spectator and a PGN download
    play = context.new_page()
    play.goto(url + "/play")
    play.select_option("#play-rules", "berkeley")
    play.select_option("#play-mode", "hotseat")
    play.click("#play-start")
    expect(play.locator("#curtain")).to_be_visible()
    watch = play.get_attribute("#spectate-link", "href")
    spectator = context.new_page()
    spectator.goto(url + watch)
    expect(spectator.locator("#watch-status")).to_contain_text("0 moves (0 half-moves) played")
    play.click("#curtain-go")
    with play.expect_download() as download:
        play.click("#pgn-own")
    assert re.search(r'\[Event ', Path(download.value.path()).read_text())
    assert outside == []
    context.close()
