"""The ``--problems DIR`` folder: its problem files (``NAME.toml``) listed with
their last verdicts, read and saved.  A name is lower-case letters, digits,
``.``, ``_`` and ``-``, beginning with a letter or digit (at most 64); nothing
is read or written outside the folder (no ``..``, no absolute path, no
symbolic link leading out), and a save that would take the folder past
``MAX_PROBLEMS`` files or ``MAX_FOLDER_BYTES`` is refused (413).  The verdicts live in a small cache file, each
with the hash of the text it was found for, so that an edited problem shows
none until it is verified again.

>>> import tempfile
>>> store = ProblemStore(Path(tempfile.mkdtemp()))
>>> text = 'title = "A"\\nstipulation = "#1"\\n'
>>> store.save("mate-in-1", text)
True
>>> store.record_verdict("mate-in-1", text, "sound", "sound: key 1.Rh8! (#1)")
>>> [(p.name, p.title, p.verdict) for p in store.list()]
[('mate-in-1', 'A', 'sound')]
>>> store.read("../etc/passwd")
Traceback (most recent call last):
...
ksolve.web.errors.ApiError: name: '../etc/passwd' is not a problem name: lower-case letters, digits, '.', '_' and '-', beginning with a letter or digit, at most 64
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ksolve.errors import InputError, read_text
from ksolve.web.errors import ApiError

NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
SUFFIX = ".toml"
MAX_PROBLEMS = 2000
"""Problem files a save may bring the folder to (listing 1,000 takes about half a second)."""
MAX_FOLDER_BYTES = 32 << 20
"""Bytes of problem files a save may bring the folder to (a problem is one or two kilobytes)."""
VERDICTS = ".ksolve-verdicts.json"
"""The cache of verdicts, in the folder (a dot file: never listed, never a problem name)."""


@dataclass(frozen=True)
class StoredProblem:
    """One problem file as the Library page lists it."""

    name: str
    title: str
    stipulation: str
    rules: str
    verdict: str | None
    """The last verification's verdict for this very text (None: not verified since it changed)."""
    line: str | None


class ProblemStore:
    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()

    def list(self) -> list[StoredProblem]:
        """Every problem file of the folder, by name."""
        verdicts = self._verdicts()
        problems = []
        for path in sorted(self.folder.glob(f"*{SUFFIX}")):
            name = path.name[:-len(SUFFIX)]
            if not _valid(name) or not self._inside(path) or not path.is_file():
                continue
            try:
                text = read_text(path)
            except (OSError, InputError):
                continue
            fields = _display_fields(text)
            known = verdicts.get(name, {})
            fresh = known.get("sha256") == _digest(text)
            problems.append(StoredProblem(name, fields.get("title", ""), fields.get("stipulation", ""),
                                          fields.get("rules", ""), known.get("verdict") if fresh else None,
                                          known.get("line") if fresh else None))
        return problems

    def read(self, name: str) -> str:
        """The text of the problem ``name`` (404 if there is none, 422 if it is not UTF-8)."""
        path = self.path(name)
        if not path.is_file():
            raise ApiError(404, f"no problem {name!r} in the problems folder")
        try:
            return read_text(path)
        except OSError as error:
            raise ApiError(404, f"{name}: cannot read: {error.strerror}") from None
        except InputError as error:
            raise ApiError(422, f"{name}{SUFFIX}: {error}") from None

    def save(self, name: str, text: str) -> bool:
        """Write ``text`` as the problem ``name`` (whole or not at all); True if it is new."""
        path = self.path(name)
        created = not path.exists()
        self._make_room(path, len(text.encode("utf-8")))
        handle, temporary = tempfile.mkstemp(prefix=".saving-", suffix=SUFFIX, dir=self.folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except OSError as error:
            Path(temporary).unlink(missing_ok=True)
            raise ApiError(422, f"{name}: cannot write: {error.strerror}") from None
        return created

    def _make_room(self, path: Path, size: int) -> None:
        """413 unless ``size`` bytes as ``path`` keep the folder within its limits."""
        others = [(other, other.stat().st_size) for other in self.folder.glob(f"*{SUFFIX}")
                  if other.name != path.name and other.is_file()]
        if len(others) + 1 > MAX_PROBLEMS:
            raise ApiError(413, f"the problems folder holds {len(others):,} problem files: at most {MAX_PROBLEMS:,} "
                                "are saved from the workbench")
        total = sum(size for _, size in others) + size
        if total > MAX_FOLDER_BYTES:
            raise ApiError(413, f"the problems folder would hold {total:,} bytes of problem files: at most "
                                f"{MAX_FOLDER_BYTES:,} are saved from the workbench")

    def record_verdict(self, name: str, text: str, verdict: str, line: str) -> None:
        """Keep ``verdict``, found for ``text``: listed while the file holds that very text."""
        verdicts = self._verdicts()
        verdicts[name] = {"verdict": verdict, "line": line, "sha256": _digest(text)}
        self._write_verdicts(verdicts)

    def path(self, name: str) -> Path:
        """The file of the problem ``name``, checked to be directly inside the folder."""
        if not _valid(name):
            raise ApiError(422, f"name: {name!r} is not a problem name: lower-case letters, digits, '.', '_' and "
                                "'-', beginning with a letter or digit, at most 64")
        path = self.folder / f"{name}{SUFFIX}"
        if not self._inside(path):
            raise ApiError(404, f"no problem {name!r} in the problems folder")
        return path

    def _inside(self, path: Path) -> bool:
        """Whether ``path`` (followed through any link) is directly inside the folder."""
        return path.resolve().parent == self.folder

    def _verdicts(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads((self.folder / VERDICTS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write_verdicts(self, verdicts: dict[str, dict[str, str]]) -> None:
        handle, temporary = tempfile.mkstemp(prefix=".saving-", dir=self.folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(verdicts, out, indent=1, sort_keys=True)
            os.replace(temporary, self.folder / VERDICTS)
        except OSError:
            Path(temporary).unlink(missing_ok=True)


def _valid(name: str) -> bool:
    return NAME.fullmatch(name) is not None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _display_fields(text: str) -> dict[str, str]:
    """The title, stipulation and rules as written (for the list only: the loader checks problems);
    a variant problem without ``rules`` is played under the variants' default rule set.

    >>> _display_fields('stipulation = "#2"\\nvariant = {name = "one-eye", bishop = "c8"}\\n')["rules"]
    'berkeley'
    """
    from ksolve.rules.variants import DEFAULT_RULES

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    fields = {key: data[key] for key in ("title", "stipulation", "rules") if isinstance(data.get(key), str)}
    if "variant" in data and "rules" not in data:
        fields["rules"] = DEFAULT_RULES
    return fields
