"""The workbench's HTTP API (``ksolve serve``, ``docs/web-api.md``) driven with
Starlette's TestClient: every endpoint, jobs in real worker processes (done,
failed, cancelled, killed), the queue bound, the problems folder's name checks
and oversized bodies.  The client re-raises any exception that reaches the
server's last-resort handler, so every bad input here is shown to get its
one-line 4xx answer, never a 500.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_answers import one_line_error

from ksolve.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
FOSTER = (ROOT / "problems" / "foster-1996.toml").read_text()
ROTENBERG = (ROOT / "problems" / "rotenberg-1976.toml").read_text()
LONG = (ROOT / "problems" / "anderson-37.toml").read_text()
"""A #9 the solver does not decide within minutes: a job that runs until it is stopped."""
BAD_TOML = 'stipulation = "#2"\nrules = "berkeley"\n[position\nfen = "8/8/8/8/8/8/8/K6k w - - 0 1"\n'


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("web")
    problems = root / "problems"
    problems.mkdir()
    for name in ("foster-1996", "rotenberg-1976"):
        shutil.copy(ROOT / "problems" / f"{name}.toml", problems)
    (root / "outside.toml").write_text(FOSTER)
    (problems / "link-out.toml").symlink_to(root / "outside.toml")
    return problems


@pytest.fixture(scope="module")
def app(folder):
    return create_app(folder, max_running=2, max_queued=1, max_body=64 * 1024)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as client:
        yield client


def wait_for(client, job_id: str, states: tuple[str, ...], seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        job = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] in states or time.monotonic() > deadline:
            assert job["state"] in states, job
            return job
        time.sleep(0.05)


def submit(client, problem: str, action: str = "solve", **fields) -> str:
    response = client.post("/api/jobs", json={"problem": problem, "action": action, **fields})
    assert response.status_code == 202, response.text
    return response.json()["id"]


def wait_idle(app, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while app.state.jobs.running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not app.state.jobs.running


def cancel_all(client) -> None:
    for job in client.get("/api/jobs").json()["jobs"]:
        client.delete(f"/api/jobs/{job['id']}")


# --- the problem check --------------------------------------------------------------------
def test_check_gives_the_belief_size_and_the_hidden_units_squares(client):
    response = client.post("/api/problems/check", json={"problem": ROTENBERG})
    assert response.status_code == 200, response.text
    summary = response.json()
    assert (summary["size"], summary["stipulation"], summary["moves"], summary["rules"], summary["goal"]) == \
        (30, "#8", 8, "berkeley", "mate")
    assert summary["fen"] == "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
    bishop = summary["hidden"][0]
    assert (bishop["piece"], bishop["name"], bishop["optional"], len(bishop["squares"])) == ("b", "bishop", False, 32)
    assert len(summary["possible"]["b"]) == 30 and "f6" not in summary["possible"]["b"]
    assert summary["left_out"] == ""


def test_check_says_which_placements_no_game_reaches(client):
    text = ('stipulation = "#2"\nrules = "berkeley"\n[position]\n'
            'fen = "4k3/8/p4pp1/1p1pp2p/2p5/3N4/R7/b4K2 w - - 0 1"\nhidden = ["b:any"]\n')
    summary = client.post("/api/problems/check", json={"problem": text}).json()
    assert summary["size"] == 22
    assert summary["left_out"].startswith("29 placements no game reaches: a second black dark-squared bishop")


@pytest.mark.parametrize("text, start", [
    (BAD_TOML, "<problem>: toml: "),
    ('stipulation = "#2"\n', "<problem>: rules: missing"),
    ('stipulation = "#2"\nrules = "berkley"\n[position]\nfen = "8/8/8/8/8/8/8/K6k w - - 0 1"\n', "<problem>: rules: "),
    ('stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "8/8/8/8/8/8/8/K6k w - - 0 1"\nhidden = ["x:e4"]\n',
     "<problem>: position.hidden[1]: "),
    ('stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "4k3/8/8/8/3B4/8/PPPPPPPP/4K3 w - - 0 1"\n',
     "<problem>: position.fen: no game reaches it: a white dark-squared bishop on d4 (the c1 bishop is shut in"),
    ('stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "8/8/p4pp1/1p1pp2p/2p5/3N4/R7/b4K1k w - - 0 1"\n'
     'hidden = ["b:dark"]\n', "<problem>: position.hidden: no placement of the hidden units is reachable in a game"),
])
def test_a_bad_problem_gets_422_and_the_loaders_one_line(client, text, start):
    assert one_line_error(client.post("/api/problems/check", json={"problem": text}), 422).startswith(start)


@pytest.mark.parametrize("body, status, words", [
    (b"{", 400, "not JSON"),
    (b"[1, 2]", 400, "a JSON object"),
    (b'{"problem": 5}', 422, "problem: must be a string"),
    (b"{}", 422, "problem: missing"),
])
def test_unreadable_bodies_get_one_line(client, body, status, words):
    response = client.post("/api/problems/check", content=body, headers={"content-type": "application/json"})
    assert words in one_line_error(response, status)


def test_a_body_over_the_limit_gets_413(client):
    big = "# " + "x" * (70 * 1024) + "\n" + FOSTER
    assert one_line_error(client.post("/api/problems/check", json={"problem": big}), 413) == \
        "request body over 65,536 bytes"
    json_body = {"content-type": "application/json"}
    assert one_line_error(client.post("/api/jobs", content=big.encode(), headers=json_body), 413).startswith(
        "request body over")
    chunks = (b"x" * 8192 for _ in range(10))  # no Content-Length: counted while read
    assert one_line_error(client.post("/api/problems/check", content=chunks, headers=json_body), 413).startswith(
        "request body over")


# --- jobs -----------------------------------------------------------------------------------
def test_a_solve_job_ends_done_with_the_cli_json_report_and_certificate(client):
    job_id = submit(client, FOSTER)
    job = wait_for(client, job_id, ("done",))
    result = job["result"]
    assert result["status"] == "solved" and result["key"] == "a8a4" and result["solution"].startswith("1.Ra4!")
    assert job["error"] is None and job["progress"] is not None
    certificate = client.get(f"/api/jobs/{job_id}/certificate.json")
    assert certificate.status_code == 200 and json.loads(certificate.text)["format"] == "ksolve-certificate"
    report = client.get(f"/api/jobs/{job_id}/report.html")
    assert report.status_code == 200 and report.text.lstrip().lower().startswith("<!doctype html")


def test_a_verify_job_streams_progress_and_ends_with_done(client):
    job_id = submit(client, FOSTER, "verify", options={"tries": 2, "timeout": 60})
    events = []
    with client.stream("GET", f"/api/jobs/{job_id}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        name = None
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line[len("event: "):]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[len("data: "):])))
    names = [name for name, _ in events]
    assert names[-1] == "done" and names.count("done") == 1 and "progress" in names
    assert all({"depth", "nodes", "seconds"} <= set(data) for name, data in events if name == "progress")
    final = events[-1][1]
    assert final["state"] == "done" and final["result"]["solution"]["key"] == "a8a4"
    assert final["result"]["verification"]["verdict"] == "sound"
    assert client.get(f"/api/jobs/{job_id}").json() == final


def test_a_bad_problem_job_fails_with_the_loaders_line(client):
    job = wait_for(client, submit(client, BAD_TOML), ("failed",))
    assert job["error"].startswith("<problem>: toml: ") and job["result"] is None


def test_a_job_keeps_to_its_memory_budget(client):
    two_hidden = ('stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'
                  'hidden = ["q:any", "r:any"]\n')
    job = wait_for(client, submit(client, two_hidden, options={"max_memory": "1M"}), ("failed",))
    assert job["error"].startswith("<problem>: position.hidden: the belief would need ~3,656 positions")


@pytest.mark.parametrize("body, words", [
    ({"problem": FOSTER, "action": "mate"}, "action: 'mate' is not one of solve, verify"),
    ({"problem": FOSTER, "options": {"timout": 5}}, "options.timout: unknown option"),
    ({"problem": FOSTER, "options": {"timeout": 0}}, "options.timeout: must be seconds"),
    ({"problem": FOSTER, "options": {"timeout": 7200}}, "at most 3600"),
    ({"problem": FOSTER, "options": {"moves": 0}}, "options.moves: 0 is not a number of moves from 1 to 60"),
    ({"problem": FOSTER, "options": {"tries": "all"}}, "options.tries"),
    ({"problem": FOSTER, "options": {"max_memory": "lots"}}, "options.max_memory: 'lots' is not a size"),
    ({"problem": FOSTER, "options": {"max_memory": "1T"}}, "over the server's"),
    ({"problem": FOSTER, "options": []}, "options: must be an object"),
    ({"problem": FOSTER, "extra": 1}, "extra: unknown field"),
    ({"name": "../x", "action": "verify"}, "name: '../x' is not a problem name"),
])
def test_bad_job_requests_get_422(client, body, words):
    assert words in one_line_error(client.post("/api/jobs", json=body), 422)


def test_unknown_jobs_and_methods_get_one_line(client):
    assert "no job 'nope'" in one_line_error(client.get("/api/jobs/nope"), 404)
    assert one_line_error(client.delete("/api/jobs/nope"), 404)
    assert one_line_error(client.get("/api/jobs/nope/events"), 404)
    assert one_line_error(client.put("/api/jobs", json={}), 405)


def test_a_job_without_a_report_or_certificate_says_so(client):
    job_id = submit(client, BAD_TOML)
    wait_for(client, job_id, ("failed",))
    assert "no report" in one_line_error(client.get(f"/api/jobs/{job_id}/report.html"), 404)
    assert "no certificate" in one_line_error(client.get(f"/api/jobs/{job_id}/certificate.json"), 404)


def test_cancelling_a_long_job_terminates_its_process(client, app):
    job_id = submit(client, LONG)
    wait_for(client, job_id, ("running",))
    time.sleep(1.0)  # into the search
    process = app.state.jobs.get(job_id).worker.process
    response = client.delete(f"/api/jobs/{job_id}")
    assert response.status_code == 200 and response.json()["state"] == "cancelled"
    wait_idle(app)
    assert process.exitcode == -signal.SIGTERM
    with pytest.raises(ProcessLookupError):
        os.kill(process.pid, 0)
    assert client.get(f"/api/jobs/{job_id}").json()["state"] == "cancelled"
    assert client.delete(f"/api/jobs/{job_id}").json()["state"] == "cancelled"  # cancelling again changes nothing


def test_beyond_the_queue_bound_jobs_get_429_until_one_ends(client, app):
    wait_idle(app)  # a job that has just ended holds its slot until its process is gone
    ids = [submit(client, LONG) for _ in range(3)]  # two running, one queued (max_running=2, max_queued=1)
    assert [client.get(f"/api/jobs/{i}").json()["state"] for i in ids] == ["running", "running", "queued"]
    response = client.post("/api/jobs", json={"problem": FOSTER})
    assert "too many jobs: 2 running and 1 queued" in one_line_error(response, 429)
    assert response.headers["retry-after"]
    assert client.delete(f"/api/jobs/{ids[2]}").json()["state"] == "cancelled"  # a queued job: no process
    assert client.post("/api/jobs", json={"problem": FOSTER}).status_code == 202
    cancel_all(client)


def test_a_killed_worker_fails_its_job_and_the_next_job_runs(client, app):
    job_id = submit(client, LONG)
    wait_for(client, job_id, ("running",))
    os.kill(app.state.jobs.get(job_id).worker.process.pid, signal.SIGKILL)
    job = wait_for(client, job_id, ("failed",))
    assert job["error"] == "the worker process was killed (signal 9); the job is lost"
    assert wait_for(client, submit(client, FOSTER), ("done",))["result"]["status"] == "solved"


# --- the problems folder ----------------------------------------------------------------------
def test_the_folder_lists_reads_and_saves_problems(client, folder):
    listed = client.get("/api/problems").json()
    assert [p["name"] for p in listed] == ["foster-1996", "rotenberg-1976"]  # the link out is not listed
    assert listed[1]["stipulation"] == "#8" and listed[1]["verdict"] is None
    assert client.get("/api/problems/rotenberg-1976").json() == {"name": "rotenberg-1976", "problem": ROTENBERG}
    response = client.put("/api/problems/my-1.draft", json={"problem": FOSTER})
    assert response.status_code == 201 and (folder / "my-1.draft.toml").read_text() == FOSTER
    assert client.put("/api/problems/my-1.draft", json={"problem": ROTENBERG}).status_code == 200
    assert client.get("/api/problems/my-1.draft").json()["problem"] == ROTENBERG
    assert one_line_error(client.put("/api/problems/broken", json={"problem": BAD_TOML}), 422).startswith(
        "<problem>: toml:")
    assert not (folder / "broken.toml").exists()
    assert "no problem 'absent'" in one_line_error(client.get("/api/problems/absent"), 404)


def test_a_verify_job_of_a_stored_problem_keeps_its_verdict(client, folder):
    job = wait_for(client, submit(client, None, "verify", name="foster-1996"), ("done",))
    assert job["name"] == "foster-1996"
    verdicts = {p["name"]: (p["verdict"], p["line"]) for p in client.get("/api/problems").json()}
    assert verdicts["foster-1996"] == ("sound", "sound: key 1.Ra4! (#2), the published key")
    (folder / "foster-1996.toml").write_text(FOSTER + "\n# edited\n")  # another text: no verdict until verified
    assert {p["name"]: p["verdict"] for p in client.get("/api/problems").json()}["foster-1996"] is None


@pytest.mark.parametrize("path, status", [
    ("/api/problems/%2e%2e", 422),
    ("/api/problems/..%2f..%2fetc%2fpasswd", 404),
    ("/api/problems/%2fetc%2fpasswd", 404),
    ("/api/problems//etc/passwd", 404),
    ("/api/problems/.hidden", 422),
    ("/api/problems/Upper", 422),
    ("/api/problems/a%20b", 422),
    ("/api/problems/" + "a" * 65, 422),
    ("/api/problems/link-out", 404),  # a symbolic link leading out of the folder
])
def test_names_that_leave_the_folder_are_refused(client, folder, path, status):
    before = sorted(p.name for p in folder.parent.rglob("*"))
    one_line_error(client.get(path), status)
    one_line_error(client.put(path, json={"problem": FOSTER}), status)
    assert sorted(p.name for p in folder.parent.rglob("*")) == before


def test_without_a_folder_the_problem_endpoints_say_so():
    with TestClient(create_app(None, max_running=1)) as client:
        assert "--problems DIR" in one_line_error(client.get("/api/problems"), 404)
        assert "--problems DIR" in one_line_error(client.put("/api/problems/x", json={"problem": FOSTER}), 404)
        assert client.get("/api/info").json()["problems"] is False


# --- the rest ---------------------------------------------------------------------------------
def test_info_and_the_pages(client):
    info = client.get("/api/info").json()
    assert "berkeley" in info["rules"] and info["limits"]["max_running"] == 2 and info["problems"] is True
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert client.get("/static/index.html").status_code == 200
    assert one_line_error(client.get("/static/none.js"), 404)



def test_the_server_stands_on_the_library_api():
    import ast

    forbidden = ("ksolve.board", "ksolve.rules.kernels", "ksolve.search", "ksolve.belief", "ksolve.hidden",
                 "ksolve.solver", "ksolve.verification", "ksolve.analysis", "ksolve.problem")
    for name in ("app", "checks", "client_limits", "connections", "errors", "jobs", "problems_store", "requests",
                 "security", "server", "worker"):
        tree = ast.parse((ROOT / "ksolve" / "web" / f"{name}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not [module for module in imported if module.startswith(forbidden)], (name, imported)

# --- ksolve serve -------------------------------------------------------------------------------
def test_serve_says_a_port_in_use_in_one_line():
    import socket

    from click.testing import CliRunner

    from ksolve.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = CliRunner().invoke(main, ["serve", "--port", port])
        assert result.exit_code == 2
        assert result.output == f"ksolve: error: --host/--port: cannot listen on 127.0.0.1:{port}: the port is in use " \
                                "(another server?)\n"


def test_an_internal_error_is_one_logged_line(app, caplog):
    def broken():
        raise RuntimeError("boom")

    with TestClient(app, raise_server_exceptions=False) as client:
        app.state.store.list = broken
        try:
            response = client.get("/api/problems")
        finally:
            del app.state.store.list
    assert one_line_error(response, 500) == "internal error: RuntimeError (the server's log has the details)"
    assert "boom" in caplog.text
