"""The results file of a run: one JSON object per line, appended (and flushed)
as each task finishes, so that a crash or a killed worker loses no finished
result and a re-run skips the tasks already done.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> results = ResultsFile(path)
>>> results.append(TaskResult("a", "done", {"verdict": "sound"}, 0.5))
>>> sorted(ResultsFile(path).finished())
['a']
>>> ResultsFile(path).finished()["a"].value
{'verdict': 'sound'}
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SYNC_SECONDS = 1.0
"""How often the file is synced to the disk (an fsync costs milliseconds: one per row would
bound a large cluster's run to a few hundred results a second)."""
DONE, FAILED = "done", "failed"
"""A task's end: its value computed, or no value (killed every time it ran, over its time, an error)."""


@dataclass
class TaskResult:
    """What one task left: its ``key``, ``status`` (``done``/``failed``), the
    JSON ``value`` (or the failure's ``error`` line), seconds, and where it ran."""

    key: str
    status: str
    value: Any = None
    seconds: float = 0.0
    error: str = ""
    worker: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if not data["extra"]:
            del data["extra"]
        return data


class ResultsFile:
    """A JSON-lines file of ``TaskResult`` rows (None: keep them in memory only).

    A torn last line (the process killed while writing it) is ignored when read."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self._memory: list[TaskResult] = []
        self._synced = float("-inf")

    def finished(self) -> dict[str, TaskResult]:
        """The tasks done so far, by key (a later line wins; failed tasks are left out: a
        re-run tries them again)."""
        rows: dict[str, TaskResult] = {}
        for row in self._rows():
            if row.status == DONE:
                rows[row.key] = row
            else:
                rows.pop(row.key, None)
        return rows

    def append(self, result: TaskResult) -> None:
        """Write one row and hand it to the operating system before returning (a crash or
        kill of this process then loses nothing); the file is synced to the disk at most
        every ``SYNC_SECONDS`` (a power cut may lose the last second's rows)."""
        if self.path is None:
            self._memory.append(result)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a+b") as out:
            torn = out.tell() > 0 and out.seek(-1, os.SEEK_END) >= 0 and out.read(1) != b"\n"
            line = json.dumps(result.as_dict(), separators=(",", ":")) + "\n"
            out.write((("\n" if torn else "") + line).encode())  # a torn last line stays apart
            out.flush()
            if time.monotonic() - self._synced >= SYNC_SECONDS:
                os.fsync(out.fileno())
                self._synced = time.monotonic()

    def _rows(self) -> list[TaskResult]:
        if self.path is None:
            return list(self._memory)
        if not self.path.exists():
            return []
        rows = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line torn by a crash
            if isinstance(data, dict) and "key" in data and "status" in data:
                rows.append(TaskResult(**{name: data[name] for name in data if name in TaskResult.__dataclass_fields__}))
        return rows
