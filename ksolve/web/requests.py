"""Reading request bodies (JSON only, as ``security.Guard`` lets through): the
size limit, JSON, the problem text and a job's action and options, each bad
part answered by ``ApiError`` with one line.

>>> job_request({"problem": "stipulation = '#1'", "action": "verify", "options": {"tries": 3}}).options.tries
3
>>> job_request({"problem": "x", "action": "mate"})
Traceback (most recent call last):
...
ksolve.web.errors.ApiError: action: 'mate' is not one of solve, verify
>>> job_request({"problem": "x", "options": {"timout": 5}})
Traceback (most recent call last):
...
ksolve.web.errors.ApiError: options.timout: unknown option (known: at_most, duals, max_memory, max_nodes, moves, rules, search, timeout, tries)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ksolve.errors import InputError
from ksolve.execution.options import DEFAULT_SECONDS, RunOptions
from ksolve.web.errors import ApiError, error_response, web_message

ACTIONS = ("solve", "verify")
"""What a job does: ``ksolve solve``, or solve and verify as ``ksolve report`` does."""
MAX_TIMEOUT = 3600.0
"""The longest search a job may ask for, in seconds."""


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body over {limit:,} bytes")


class BodyLimit:
    """ASGI middleware: a request whose body is over ``limit`` bytes gets 413,
    by its Content-Length at once, or while a chunked body is read."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.limit:
            message = "Content-Length is not a number" if not length.isdigit() else BodyTooLarge(self.limit).message
            return await error_response(400 if not length.isdigit() else 413, message)(scope, receive, send)
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, limited, send)


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object (400 if it is not one)."""
    body = await request.body()
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise ApiError(400, f"body: not JSON: {error}") from None
    except RecursionError:
        raise ApiError(400, "body: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"body: a JSON object expected, got {type(data).__name__}")
    return data


def problem_field(data: dict[str, Any]) -> str:
    text = data.get("problem")
    if not isinstance(text, str):
        raise ApiError(422, "problem: missing (the problem's TOML as a string)" if text is None
                       else f"problem: must be a string (the problem's TOML), got {type(text).__name__}")
    return text


WEB_OPTIONS = {"timeout": "seconds", "max_nodes": "nodes", "max_memory": "memory", "moves": "moves",
               "rules": "rules", "at_most": "at_most", "search": "search", "tries": "tries", "duals": "duals"}
"""Each option of a job's JSON and the ``RunOptions`` field it gives (as the CLI's options name them)."""


@dataclass(frozen=True)
class JobRequest:
    action: str
    problem: str | None
    """The TOML, or None to read the stored problem ``name``."""
    name: str | None = None
    """The problem's name in ``--problems DIR``: its verdict is kept for the Library page."""
    options: RunOptions = field(default_factory=lambda: RunOptions(seconds=DEFAULT_SECONDS))


def job_request(data: dict[str, Any]) -> JobRequest:
    """``{"problem": "<TOML>" | "name": "<stored>", "action": ..., "options": {...}}`` read and checked."""
    action = data.get("action", "solve")
    if action not in ACTIONS:
        raise ApiError(422, f"action: {action!r} is not one of {', '.join(ACTIONS)}")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise ApiError(422, f"name: must be a string, got {type(name).__name__}")
    problem = problem_field(data) if data.get("problem") is not None or name is None else None
    unknown = sorted(set(data) - {"action", "problem", "name", "options"})
    if unknown:
        raise ApiError(422, f"{unknown[0]}: unknown field (known: action, name, options, problem)")
    options = data.get("options")
    return JobRequest(action, problem, name, job_options({} if options is None else options))


def job_options(data: Any) -> RunOptions:
    """A job's options read from JSON (each value's type checked here, its range by
    ``RunOptions``, whose error names the option as the request did: ``web_message``)."""
    if not isinstance(data, dict):
        raise ApiError(422, f"options: must be an object, got {type(data).__name__}")
    known = sorted(WEB_OPTIONS)
    for name in data:
        if name not in known:
            raise ApiError(422, f"options.{name}: unknown option (known: {', '.join(known)})")
    values = {WEB_OPTIONS[name]: _option(name, value) for name, value in data.items() if value is not None}
    try:
        return RunOptions(**{"seconds": DEFAULT_SECONDS, **values})
    except InputError as error:
        raise ApiError(422, web_message(error)) from None


def _option(name: str, value: Any) -> Any:
    """One option's value of the JSON type it must have (the timeout also within the server's maximum)."""
    def fail(reason: str) -> ApiError:
        return ApiError(422, f"options.{name}: {reason}, got {value!r}")

    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "timeout":
        if not number or not 0 < value <= MAX_TIMEOUT:
            raise fail(f"must be seconds, more than 0 and at most {MAX_TIMEOUT:g}")
        return float(value)
    if name in ("max_nodes", "moves", "tries"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise fail("must be a whole number")
        return value
    if name in ("at_most", "duals"):
        if not isinstance(value, bool):
            raise fail("must be true or false")
        return value
    if name in ("search", "rules"):
        if not isinstance(value, str):
            raise fail("must be a name")
        return value
    from ksolve.resources import parse_memory  # max_memory

    try:
        return parse_memory(str(value))
    except ValueError as error:
        raise ApiError(422, f"options.max_memory: {error}") from None
