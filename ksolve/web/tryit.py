"""The "Try it" page's API: White against the worst-case referee (``ksolve.trial``).

- ``POST /api/try`` ``{"problem": "<TOML>"}`` → 201 ``{"id", "view"}``;
- ``GET /api/try/{id}`` → ``{"id", "view"}``;
- ``POST /api/try/{id}/attempt`` ``{"move": "<uci>" | "any"}`` → ``{"answer", "san", "reply",
  "mate_kept", "refutation", "note", "view", ...}`` (``TrialStep.as_dict``);
- ``DELETE /api/try/{id}`` → ``{"id", "deleted": true}``.

Errors are ``{"error": "<one line>"}``: 400 unreadable JSON, 404 no such trial,
422 a bad problem or a move that is no move of White's men on his own board.
The handlers answer them themselves, so the routes work in any Starlette app.

Trials live in this module's ``STORE``: at most ``MAX_TRIALS``, the least
recently used dropped first, each with a lock so that its steps run one at a
time; a step runs in Starlette's thread pool, never in the event loop.

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

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ksolve.errors import InputError
from ksolve.web.errors import ApiError, error_response
from ksolve.web.requests import problem_field, read_json

MAX_TRIALS = 32
"""Trials kept at once (a trial holds its search table: about 30 MB after a long game of
Rotenberg 1976); starting one more drops the least recently used."""
TRIAL_MEMORY = 256 << 20
"""The belief's memory budget of a trial (about 620,000 positions), as a problem check's."""


@dataclass
class _Entry:
    trial: Any  # ksolve.trial.Trial (imported in the worker thread: the first import compiles kernels)
    lock: threading.Lock


class TrialStore:
    """The trials being played, by id: bounded, least recently used dropped first."""

    def __init__(self, capacity: int = MAX_TRIALS) -> None:
        self.capacity = capacity
        self._trials: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, trial: Any) -> str:
        trial_id = secrets.token_hex(8)
        with self._lock:
            self._trials[trial_id] = _Entry(trial, threading.Lock())
            while len(self._trials) > self.capacity:
                self._trials.popitem(last=False)
        return trial_id

    def get(self, trial_id: str) -> _Entry:
        """The trial ``trial_id`` (``ApiError`` 404 if there is none)."""
        with self._lock:
            entry = self._trials.get(trial_id)
            if entry is not None:
                self._trials.move_to_end(trial_id)
        if entry is None:
            raise ApiError(404, f"no trial {trial_id!r} (it ended, or was dropped: at most {self.capacity} "
                                "are kept; start a new one)")
        return entry

    def remove(self, trial_id: str) -> None:
        with self._lock:
            if self._trials.pop(trial_id, None) is None:
                raise ApiError(404, f"no trial {trial_id!r}")

    def __len__(self) -> int:
        return len(self._trials)


STORE = TrialStore()


def _answer(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """``handler`` with its errors answered as one JSON line (422 for bad input)."""
    async def answered(request: Request) -> JSONResponse:
        try:
            return await handler(request)
        except ApiError as error:
            return error_response(error.status, error.message, error.headers)
        except InputError as error:
            return error_response(422, str(error))

    answered.__name__ = handler.__name__
    return answered


def _fields(data: dict[str, Any], known: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ApiError(422, f"{unknown[0]}: unknown field (known: {', '.join(known)})")


def _start(text: str) -> tuple[Any, dict[str, Any]]:
    import ksolve
    from ksolve.trial import Trial

    problem = ksolve.load_problem_text(text, resources=ksolve.Resources(TRIAL_MEMORY))
    trial = Trial(problem)
    return trial, trial.view().as_dict()


@_answer
async def start_trial(request: Request) -> JSONResponse:
    data = await read_json(request)
    _fields(data, ("problem",))
    trial, view = await run_in_threadpool(_start, problem_field(data))
    return JSONResponse({"id": STORE.add(trial), "view": view}, status_code=201)


@_answer
async def get_trial(request: Request) -> JSONResponse:
    trial_id = request.path_params["id"]
    entry = STORE.get(trial_id)

    def view() -> dict[str, Any]:
        with entry.lock:
            return entry.trial.view().as_dict()

    return JSONResponse({"id": trial_id, "view": await run_in_threadpool(view)})


@_answer
async def attempt(request: Request) -> JSONResponse:
    entry = STORE.get(request.path_params["id"])
    data = await read_json(request)
    _fields(data, ("move",))
    move = data.get("move")
    if not isinstance(move, str):
        raise ApiError(422, "move: missing (an attempt in UCI such as 'a2g2', or 'any' for Any?)" if move is None
                       else f"move: must be a string (UCI, or 'any'), got {type(move).__name__}")

    def step() -> dict[str, Any]:
        with entry.lock:
            return {**entry.trial.attempt(move).as_dict(), "view": entry.trial.view().as_dict()}

    return JSONResponse(await run_in_threadpool(step))


@_answer
async def end_trial(request: Request) -> JSONResponse:
    trial_id = request.path_params["id"]
    STORE.remove(trial_id)
    return JSONResponse({"id": trial_id, "deleted": True})


routes = [
    Route("/api/try", start_trial, methods=["POST"]),
    Route("/api/try/{id}", get_trial, methods=["GET"]),
    Route("/api/try/{id}", end_trial, methods=["DELETE"]),
    Route("/api/try/{id}/attempt", attempt, methods=["POST"]),
]
"""The Try-it routes, for ``create_app`` to mount."""
