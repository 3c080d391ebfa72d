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
from dataclasses import dataclass, field, fields
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ksolve.web.errors import ApiError, error_response

ACTIONS = ("solve", "verify")
"""What a job does: ``ksolve solve``, or solve and verify as ``ksolve report`` does."""
DEFAULT_TIMEOUT = 600.0
"""A job's search time limit in seconds unless its options say otherwise (the CLI's default)."""
MAX_TIMEOUT = 3600.0
MAX_MOVES = 60
"""The most moves a stipulation may ask for (the loader's limit, as ``ksolve solve --moves`` repeats it)."""


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
    if not isinstance(data, dict):
        raise ApiError(400, f"body: a JSON object expected, got {type(data).__name__}")
    return data


def problem_field(data: dict[str, Any]) -> str:
    text = data.get("problem")
    if not isinstance(text, str):
        raise ApiError(422, "problem: missing (the problem's TOML as a string)" if text is None
                       else f"problem: must be a string (the problem's TOML), got {type(text).__name__}")
    return text


@dataclass(frozen=True)
class JobOptions:
    """A job's options, as the CLI's options of ``solve`` / ``verify`` / ``report`` name them."""

    timeout: float = DEFAULT_TIMEOUT
    """Seconds of search, each of solve and verify (status unknown past them)."""
    max_nodes: int | None = None
    moves: int | None = None
    """Mate in N (default: the stipulation)."""
    rules: str | None = None
    """Another rule set than the problem's."""
    at_most: bool = False
    search: str = "pn"
    tries: int | None = None
    duals: bool = True
    max_memory: int | None = None
    """The belief's memory budget in bytes (``"4G"`` in the request); at most the server's per job."""


@dataclass(frozen=True)
class JobRequest:
    action: str
    problem: str | None
    """The TOML, or None to read the stored problem ``name``."""
    name: str | None = None
    """The problem's name in ``--problems DIR``: its verdict is kept for the Library page."""
    options: JobOptions = field(default_factory=JobOptions)


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


def job_options(data: Any) -> JobOptions:
    if not isinstance(data, dict):
        raise ApiError(422, f"options: must be an object, got {type(data).__name__}")
    known = sorted(option.name for option in fields(JobOptions))
    for name in data:
        if name not in known:
            raise ApiError(422, f"options.{name}: unknown option (known: {', '.join(known)})")
    values = {name: _option(name, value) for name, value in data.items() if value is not None}
    return JobOptions(**values)


def _option(name: str, value: Any) -> Any:
    """One option's value checked (as the CLI's click types check them)."""
    def fail(reason: str) -> ApiError:
        return ApiError(422, f"options.{name}: {reason}, got {value!r}")

    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "timeout":
        if not number or not 0 < value <= MAX_TIMEOUT:
            raise fail(f"must be seconds, more than 0 and at most {MAX_TIMEOUT:g}")
        return float(value)
    if name in ("max_nodes", "moves", "tries"):
        low, high = {"max_nodes": (1, None), "moves": (1, MAX_MOVES), "tries": (0, None)}[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (high and value > high):
            raise fail(f"must be a whole number from {low}{f' to {high}' if high else ''}")
        return value
    if name in ("at_most", "duals"):
        if not isinstance(value, bool):
            raise fail("must be true or false")
        return value
    if name == "search":
        if value not in ("pn", "dfs"):
            raise fail("must be 'pn' or 'dfs'")
        return value
    if name == "rules":
        if not isinstance(value, str):
            raise fail("must be a rule set's name")
        return value
    from ksolve.resources import parse_memory  # max_memory

    try:
        return parse_memory(str(value))
    except ValueError as error:
        raise ApiError(422, f"options.max_memory: {error}") from None
