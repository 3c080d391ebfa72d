"""What one task of a run computes, as module-level functions of plain
arguments (the problem's TOML text, not its path, so that a worker on another
machine needs no shared folder) returning JSON-ready values.

>>> text = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> job = VerifyJob(text, "mate1.toml", seconds=60)
>>> value = verify_task(job)
>>> value["verdict"], [key["move"] for key in value["keys"]]
('sound', ['h1h8'])
>>> verification_from_dict(value).line()
'sound: key 1.Rh8! (#1)'
>>> job.key == VerifyJob(text, "mate1.toml", seconds=60).key != VerifyJob(text, "mate1.toml", seconds=30).key
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from ksolve.verification import FirstMove, Verification


@dataclass(frozen=True)
class VerifyJob:
    """The verification of one problem with ``ksolve verify``'s options."""

    text: str
    source: str
    moves: int | None = None
    rules: str | None = None
    seconds: float | None = None
    tries: int | None = None
    duals: bool = True
    memory: int | None = None
    """The belief's memory budget in bytes (None: the worker machine's default)."""

    @property
    def key(self) -> str:
        """The same for the same problem text and options (what a re-run skips)."""
        return "verify-" + digest(asdict(self))


def digest(data: Any) -> str:
    """A short stable hash of JSON-ready ``data``.

    >>> digest({"a": 1}) == digest({"a": 1}) != digest({"a": 2})
    True
    """
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


def verify_task(job: VerifyJob) -> dict[str, Any]:
    """``ksolve.verify`` of the job's problem as JSON (``Verification.as_dict`` with the
    problem's source and the goal); a problem that cannot be read gives ``{"error": line}``."""
    import ksolve

    try:
        problem = ksolve.load_problem_text(job.text, job.source, _stem(job.source), ksolve.Resources(job.memory))
        report = ksolve.verify(problem, rules=job.rules, moves=job.moves, limits=ksolve.Limits(job.seconds),
                               tries=job.tries, duals=job.duals)
    except ksolve.InputError as error:
        return {"problem": job.source, "error": str(error)}
    return {"problem": job.source, "rules": report.rules, "goal": report.goal, **report.as_dict()}


def verification_from_dict(data: dict[str, Any]) -> Verification:
    """The ``Verification`` a ``verify_task`` value describes (for the summary table)."""
    return Verification(
        data["verdict"], data["moves"], keys=[_first_move(key) for key in data["keys"]],
        tries=[_first_move(attempt) for attempt in data["tries"]], tries_total=data["tries_total"],
        duals=data["duals"], duals_checked=data["duals_checked"], published_key=data["published_key"],
        published_label=data["published_label"], after_question=data["after_question"],
        belief_size=data["belief_size"], nodes=data["nodes"], seconds=data["seconds"],
        reason=data.get("reason", ""), rules=data.get("rules", ""), goal=data.get("goal", "mate"))


def _first_move(data: dict[str, Any]) -> FirstMove:
    return FirstMove(data["move"], data["label"], data.get("moves"), data.get("refuted_by"))


def _stem(source: str) -> str:
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-5] if name.endswith(".toml") else name
