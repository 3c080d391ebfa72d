"""The workbench's import and export (``POST /api/export``, ``POST /api/import``): a problem
goes out as a YACPDB entry, an Olive document, Popeye's input or a LaTeX diagram, exactly as
``ksolve export`` writes it, and comes back from YAML as the same problem file; what a format
cannot say, and YAML the server will not read, is one 4xx line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from web_answers import one_line_error

from ksolve.cli import main
from ksolve.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
FOSTER = ROOT / "problems" / "foster-1996.toml"
ORTHODOX = 'id = "o1"\nstipulation = "#1"\nrules = "orthodox"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(None, max_running=1, max_queued=1)) as client:
        yield client


@pytest.mark.parametrize("to", ["yacpdb", "olive", "latex"])
def test_an_export_is_what_the_command_line_writes(client, to: str) -> None:
    answer = client.post("/api/export", json={"problem": FOSTER.read_text(encoding="utf-8"), "to": to})
    assert answer.status_code == 200, answer.text
    written = CliRunner().invoke(main, ["export", str(FOSTER), "--to", to])
    assert answer.json()["text"] == written.output
    assert answer.json()["filename"] == "foster-1996." + {"yacpdb": "yaml", "olive": "olv", "latex": "tex"}[to]


def test_popeye_takes_an_orthodox_problem_and_refuses_a_kriegspiel_one(client) -> None:
    answer = client.post("/api/export", json={"problem": ORTHODOX, "to": "popeye"}).json()
    assert answer["filename"] == "o1.inp" and "stipulation #1" in answer["text"].lower()
    refused = client.post("/api/export", json={"problem": FOSTER.read_text(encoding="utf-8"), "to": "popeye"})
    assert "Popeye solves orthodox problems" in one_line_error(refused, 422)


def test_an_exported_collection_imports_back_as_the_same_problem_files(client, tmp_path) -> None:
    paths = [FOSTER, ROOT / "problems" / "rotenberg-1976.toml", ROOT / "problems" / "fog-05.toml"]
    folder = tmp_path / "three"
    folder.mkdir()
    for path in paths:
        (folder / path.name).write_bytes(path.read_bytes())
    olive = CliRunner().invoke(main, ["export", str(folder), "--to", "olive"]).output
    problems = client.post("/api/import", json={"text": olive}).json()["problems"]
    assert [problem["id"] for problem in problems] == ["fog-05", "foster-1996", "rotenberg-1976"]
    for problem in problems:
        original = tomllib.loads((folder / f"{problem['id']}.toml").read_text(encoding="utf-8"))
        assert tomllib.loads(problem["problem"]) == original


@pytest.mark.parametrize("body, status, words", [
    ({"problem": ORTHODOX, "to": "pgn"}, 422, "to: 'pgn' is not one of yacpdb, olive, popeye, latex"),
    ({"problem": ORTHODOX}, 422, "to: missing"),
    ({"problem": 'stipulation = "#1"\n', "to": "latex"}, 422, "<problem>: rules: missing"),
    ({"text": 7}, 422, "text: must be a string"),
    ({"text": "a: &x [1, 2]\nb: *x\n"}, 422, "YAML aliases"),
    ({"text": "algebraic: {white: [Ka1, Gb2], black: [Kh8]}\nstipulation: '#2'\n"}, 422, "fairy pieces"),
    ({"text": "--- [\n"}, 422, "YAML"),
    ({"text": "[" * 5000 + "]" * 5000}, 422, ""),
])
def test_what_cannot_be_exported_or_imported_is_one_line(client, body, status, words) -> None:
    route = "/api/import" if "text" in body else "/api/export"
    assert words in one_line_error(client.post(route, json=body), status)
