"""The "Try it" page's API: White against the worst-case referee (``ksolve.trial``).

- ``POST /api/try`` ``{"problem": "<TOML>"}`` → 201 ``{"id", "view"}``;
- ``GET /api/try/{id}`` → ``{"id", "view"}``;
- ``POST /api/try/{id}/attempt`` ``{"move": "<uci>" | "any"}`` → ``{"answer", "san", "reply",
  "mate_kept", "refutation", "note", "view", ...}`` (``TrialStep.as_dict``);
- ``DELETE /api/try/{id}`` → ``{"id", "deleted": true}``.

Errors are ``{"error": "<one line>"}``: 400 unreadable JSON, 404 no such trial,
422 a bad problem or a move that is no move of White's men on his own board,
410 a trial whose process died (killed from outside, or stopped past its time),
503 a trial that could not be started (its process died meanwhile: try again).
The handlers answer them themselves, so the routes work in any Starlette app.

The trials live in worker processes (``trials.py``: a step's search would
hold the interpreter's lock, stalling the event loop and every other
request); ``TRIALS`` keeps at most ``MAX_TRIALS`` of them, the least recently
used dropped first.  A handler waits for its process's answer in Starlette's
thread pool, never in the event loop.

>>> from starlette.applications import Starlette
>>> from starlette.testclient import TestClient
>>> client = TestClient(Starlette(routes=routes))
>>> problem = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> started = client.post("/api/try", json={"problem": problem})
>>> started.status_code, started.json()["view"]["positions"]
(201, 1)
>>> step = client.post(f"/api/try/{started.json()['id']}/attempt", json={"move": "h1h8"}).json()
>>> step["san"], step["view"]["result"]
('Rh8#', 'mate')
"""

from __future__ import annotations

from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ksolve.errors import InputError
from ksolve.web.errors import ApiError, error_response
from ksolve.web.requests import problem_field, read_json
from ksolve.web.trials import MAX_TRIALS, NoSuchTrial, TrialLost, TrialPool, TrialsUnavailable

__all__ = ["MAX_TRIALS", "TRIALS", "routes"]

TRIALS = TrialPool()
"""The trials being played, in their processes (started with the first trial)."""


def _answer(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """``handler`` with its errors answered as one JSON line (422 for bad input)."""
    async def answered(request: Request) -> JSONResponse:
        try:
            return await handler(request)
        except ApiError as error:
            return error_response(error.status, error.message, error.headers)
        except InputError as error:
            return error_response(422, str(error))
        except NoSuchTrial as error:
            return error_response(404, str(error))
        except TrialLost as error:
            return error_response(410, str(error))
        except TrialsUnavailable as error:
            return error_response(503, str(error), {"Retry-After": "1"})

    answered.__name__ = handler.__name__
    return answered


def _fields(data: dict[str, Any], known: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ApiError(422, f"{unknown[0]}: unknown field (known: {', '.join(known)})")


@_answer
async def start_trial(request: Request) -> JSONResponse:
    data = await read_json(request)
    _fields(data, ("problem",))
    trial_id, view = await run_in_threadpool(TRIALS.start, problem_field(data))
    return JSONResponse({"id": trial_id, "view": view}, status_code=201)


@_answer
async def get_trial(request: Request) -> JSONResponse:
    trial_id = request.path_params["id"]
    TRIALS.find(trial_id)
    return JSONResponse({"id": trial_id, "view": await run_in_threadpool(TRIALS.view, trial_id)})


@_answer
async def attempt(request: Request) -> JSONResponse:
    trial_id = request.path_params["id"]
    TRIALS.find(trial_id)  # an unknown or lost trial before a bad body
    data = await read_json(request)
    _fields(data, ("move",))
    move = data.get("move")
    if not isinstance(move, str):
        raise ApiError(422, "move: missing (an attempt in UCI such as 'a2g2', or 'any' for Any?)" if move is None
                       else f"move: must be a string (UCI, or 'any'), got {type(move).__name__}")
    return JSONResponse(await run_in_threadpool(TRIALS.attempt, trial_id, move))


@_answer
async def end_trial(request: Request) -> JSONResponse:
    trial_id = request.path_params["id"]
    TRIALS.end(trial_id)
    return JSONResponse({"id": trial_id, "deleted": True})


def shutdown() -> None:
    """Stop the trials' processes (the server is stopping)."""
    TRIALS.shutdown()


routes = [
    Route("/api/try", start_trial, methods=["POST"]),
    Route("/api/try/{id}", get_trial, methods=["GET"]),
    Route("/api/try/{id}", end_trial, methods=["DELETE"]),
    Route("/api/try/{id}/attempt", attempt, methods=["POST"]),
]
"""The Try-it routes, for ``create_app`` to mount."""
