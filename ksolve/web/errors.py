"""Every error of the web API as one JSON line, ``{"error": "<one line>"}``:
bad input (the library's ``InputError``: 422), a request the API cannot read
(400, 404, 405, 413, 429) and, as a last resort, an internal error (500,
logged with its traceback, never shown to the page).

>>> error_response(422, "<problem>: stipulation: missing").body
b'{"error":"<problem>: stipulation: missing"}'
>>> one_line("a\\n  b")
'a b'
"""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from ksolve.errors import InputError

log = logging.getLogger("ksolve.web")


class ApiError(Exception):
    """A request answered with ``status`` and the one line ``message``; ``headers`` (e.g. ``Retry-After``)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers


WEB_SETTINGS = {"memory": "options.max_memory", "timeout": "options.timeout", "nodes": "options.max_nodes",
                "moves": "options.moves", "tries": "options.tries", "search": "options.search",
                "rules": "options.rules", "jobs": "jobs"}
"""The option of a job's JSON that gives each run setting the library's errors speak of
(``ksolve.errors.SETTINGS``; the command line's are ``cli_support.OPTIONS``)."""


def web_message(error: InputError) -> str:
    """The library's error in the web API's words: a setting it speaks of named by the
    option of a job's JSON (``WEB_SETTINGS``).

    >>> from ksolve.errors import SettingError
    >>> web_message(SettingError("moves", "0 is not a number of moves from 1 to 60"))
    'options.moves: 0 is not a number of moves from 1 to 60'
    >>> web_message(InputError("<problem>: position.hidden: over the memory budget of 1.0 GB", "memory"))
    '<problem>: position.hidden: over the memory budget of 1.0 GB (options.max_memory)'
    """
    from ksolve.errors import SettingError

    setting = getattr(error, "setting", None)
    if setting is None or setting not in WEB_SETTINGS:
        return str(error)
    if isinstance(error, SettingError):
        return f"{WEB_SETTINGS[setting]}: {error.reason}"
    return f"{error} ({WEB_SETTINGS[setting]})"


def one_line(message: str) -> str:
    """``message`` on one line (whitespace runs across lines become one space)."""
    return " ".join(message.split()) if "\n" in message else message


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status, headers=headers)


async def api_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    return error_response(error.status, error.message, error.headers)


async def input_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, InputError)
    return error_response(422, web_message(error))


async def http_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    return error_response(error.status_code, str(error.detail), error.headers)


async def internal_error(request: Request, error: Exception) -> JSONResponse:
    """The last resort: log the traceback, answer one line (the tests keep every documented bad input away)."""
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=error)
    return error_response(500, f"internal error: {type(error).__name__} (the server's log has the details)")


EXCEPTION_HANDLERS = {ApiError: api_error, InputError: input_error, HTTPException: http_error,
                      Exception: internal_error}
"""The app's exception handlers (``Exception``: Starlette's server-error middleware calls it)."""
