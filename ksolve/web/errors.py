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


def one_line(message: str) -> str:
    """``message`` on one line (whitespace runs across lines become one space)."""
    return " ".join(message.split()) if "\n" in message else message


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status, headers=headers)


async def api_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    return error_response(error.status, error.message, error.headers)


async def input_error(_request: Request, error: Exception) -> JSONResponse:
    return error_response(422, str(error))


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
