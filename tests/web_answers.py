"""What every workbench API test asserts of an error answer (shared by the web tests)."""

from __future__ import annotations


def one_line_error(response, status: int) -> str:
    """Assert ``response`` is ``status`` with ``{"error": "<one line>"}`` (no traceback); return the line."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message
