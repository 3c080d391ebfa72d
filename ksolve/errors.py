"""The one error type of bad input: its message is the one line a front end shows.

>>> str(InputError("problems/x.toml: stipulation: '#0' is not '#N'"))
"problems/x.toml: stipulation: '#0' is not '#N'"
>>> decode_text("café".encode("latin-1"))
Traceback (most recent call last):
...
ksolve.errors.NotText: line 1, column 4: byte 0xe9 is not UTF-8 (save the file as UTF-8)
"""

from __future__ import annotations

import re
from pathlib import Path

BOM = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark, which some editors write first."""
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Bytes no text file holds (tab, line feed and carriage return are text)."""


class InputError(ValueError):
    """Input ksolve cannot use (a file, a field, a setting); the message names it and the reason.

    ``setting``: the run setting (a key of ``SETTINGS``) the message speaks of,
    if any: the library names a setting in words ("the memory budget"), never
    as one front end's option, and each front end adds its own name for it
    (the command line ``--max-memory``, the web API ``options.max_memory``)."""

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.setting = setting

    def __reduce__(self):
        return type(self)._rebuilt, (type(self), str(self), self.setting, self.__dict__)

    @staticmethod
    def _rebuilt(kind: type, message: str, setting: str | None, fields: dict) -> "InputError":
        """The error again in another process (its fields kept, whatever its ``__init__`` takes)."""
        error = InputError.__new__(kind)
        InputError.__init__(error, message, setting)
        error.__dict__.update(fields)
        return error


SETTINGS = {"memory": "memory budget", "jobs": "worker processes", "scheduler": "Dask scheduler",
            "timeout": "time limit", "key": "key to keep", "moves": "moves", "nodes": "node limit",
            "tries": "tries", "search": "search", "rules": "rule set"}
"""The run settings an error may be about, with the library's words for them."""


class SettingError(InputError):
    """A run setting that cannot be used: ``reason`` says why, after the setting's words.

    >>> error = SettingError("jobs", "1,000 is more than this machine's 2 cores")
    >>> str(error), error.setting, error.reason
    ("worker processes: 1,000 is more than this machine's 2 cores", 'jobs', "1,000 is more than this machine's 2 cores")
    """

    def __init__(self, setting: str, reason: str) -> None:
        super().__init__(f"{SETTINGS[setting]}: {reason}", setting)
        self.reason = reason


class NotText(InputError):
    """Bytes that are not UTF-8 text (a binary file, or another encoding such as Latin-1)."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"line {line}, column {column}: {reason}")
        self.line, self.column, self.reason = line, column, reason


def decode_text(data: bytes) -> str:
    """``data`` as UTF-8 text; ``NotText`` naming the first bad byte's line and column.

    >>> decode_text(b"title = 'ok'")
    "title = 'ok'"
    >>> decode_text(b"a\\nb\\x00")
    Traceback (most recent call last):
    ...
    ksolve.errors.NotText: line 2, column 2: control byte 0x00: binary data, not a text file
    """
    if data.startswith(BOM):
        raise NotText(1, 1, "the file begins with a byte-order mark (bytes EF BB BF): save it as UTF-8 without one "
                            "(the TOML, JSON and PGN readers take none)")
    control = _CONTROL.search(data)
    if control:
        line, column = _line_column(data, control.start())
        raise NotText(line, column, f"control byte 0x{data[control.start()]:02x}: binary data, not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _line_column(data, error.start)
        raise NotText(line, column, f"byte 0x{data[error.start]:02x} is not UTF-8 (save the file as UTF-8)") from None


def read_text(path: str | Path) -> str:
    """The UTF-8 text of the file at ``path``: ``OSError`` if it cannot be read,
    ``NotText`` if it is not UTF-8 text."""
    return decode_text(Path(path).read_bytes())


def _line_column(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in bytes) of ``offset``."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1
