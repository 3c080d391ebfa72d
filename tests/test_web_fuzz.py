"""No request body gives the workbench a 500: every route that reads JSON, fed what
hypothesis makes of it (any JSON value, nested deep or not; objects with the routes'
own field names and any values; bytes that are no JSON), answers 2xx or one 4xx line.

Starlette's TestClient re-raises an exception that reaches the server's last-resort
handler, so an unexpected error fails the example that caused it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from ksolve.web.app import create_app
from web_answers import one_line_error

ROOT = Path(__file__).resolve().parent.parent
FOSTER = (ROOT / "problems" / "foster-1996.toml").read_text()
FIELDS = ("problem", "to", "text", "action", "options", "name", "rules", "mode", "side", "seed", "move", "pgn", "log", "reveal",
          "clock", "level")
OPTIONS = ("timeout", "max_nodes", "max_memory", "moves", "rules", "at_most", "search", "tries", "duals",
           "limit", "increment")
WORDS = ("solve", "verify", "yacpdb", "olive", "popeye", "latex", "algebraic: {white: [Kb6], black: [Ka8]}\n",
         "a: &x [1]\nb: *x\n", "--- [\n", "white", "black", "hotseat", "berkeley", "wild16", "e2e4", "Kb1", "any", "#2", FOSTER,
         "offer", "accept", "decline", "easy", "normal", "strong",
         'stipulation = "#' + "9" * 5000 + '"')

scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30) | st.sampled_from(WORDS))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8) | st.sampled_from(OPTIONS), inner, max_size=4),
                      max_leaves=12)
nested = st.integers(min_value=1, max_value=60_000).map(lambda depth: "[" * depth + "]" * depth)
objects = st.dictionaries(st.sampled_from(FIELDS), values | st.dictionaries(st.sampled_from(OPTIONS), values),
                          max_size=5).map(json.dumps)
huge = st.builds(lambda field, digits: '{"%s": %s}' % (field, "9" * digits), st.sampled_from(FIELDS + OPTIONS),
                st.integers(min_value=4000, max_value=6000))
"""A number of more digits than Python converts by default (a ValueError, where unguarded)."""
bodies = objects | values.map(json.dumps) | nested | huge | st.binary(max_size=40).map(lambda raw: raw.decode("latin-1"))

ROUTES = (("POST", "/api/problems/check"), ("POST", "/api/export"), ("POST", "/api/import"), ("PUT", "/api/problems/fuzzed"), ("POST", "/api/jobs"),
          ("POST", "/api/try"), ("POST", "/api/try/{trial}/attempt"), ("POST", "/api/play"),
          ("POST", "/api/play/replay"), ("POST", "/api/play/{game}/attempt"), ("POST", "/api/play/{game}/draw"),
          ("POST", "/api/play/{game}/takeback"), ("POST", "/api/play/{game}/resign"), ("POST", "/api/play/{game}/rematch"))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    problems = tmp_path_factory.mktemp("fuzz") / "problems"
    problems.mkdir()
    shutil.copy(ROOT / "problems" / "foster-1996.toml", problems)
    app = create_app(problems, max_running=1, max_queued=1, max_body=256 * 1024)
    with TestClient(app) as client:
        game = client.post("/api/play", json={"mode": "hotseat", "rules": "berkeley"}).json()["id"]
        trial = client.post("/api/try", json={"problem": FOSTER}).json()["id"]
        client.ids = {"game": game, "trial": trial}
        yield client


@pytest.mark.parametrize("method, route", ROUTES, ids=[f"{method} {route}" for method, route in ROUTES])
def test_no_body_gives_a_500(client, method: str, route: str) -> None:
    path = route.format(**client.ids)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
    @given(body=bodies)
    def answered(body: str) -> None:
        response = client.request(method, path, content=body.encode("utf-8", "surrogatepass"),
                                  headers={"content-type": "application/json"})
        if response.status_code >= 400:
            one_line_error(response, response.status_code)
        assert response.status_code < 500, response.text

    answered()


def test_the_two_inputs_that_gave_500s_get_one_line(client) -> None:
    """JSON nested deeper than the parser recurses, and a stipulation of 5,000 digits."""
    deep = "[" * 50_000 + "]" * 50_000
    assert "nested too deeply" in one_line_error(
        client.post("/api/problems/check", content=deep, headers={"content-type": "application/json"}), 400)
    toml = FOSTER.replace('stipulation = "#2"', 'stipulation = "#' + "9" * 5000 + '"')
    assert toml != FOSTER
    answer = client.post("/api/problems/check", json={"problem": toml})
    assert answer.status_code < 500
    words = json.dumps(answer.json())
    assert "the number of moves must be 1 to" in words
