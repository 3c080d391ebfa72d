"""The one job contract: ``Job -> run_job(job, progress) -> JobResult``.

A job is plain data (picklable, the problem's TOML rather than its path, so
that a worker on another machine needs no shared folder) with a ``key`` that
is the same for the same work (what a re-run skips) and a ``run(progress)``.
The same job runs in this process, in a web job's worker process
(``JobProcess``) or as a Dask task (``job_value``): a problem's solve or
verification (``ProblemJob``), a composer's candidate
(``ksolve.compose.checks.CandidateJob``), a generated game
(``ksolve.games.generate.GameJob``).

>>> text = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> job = ProblemJob(VERIFY, text, "mate1.toml", RunOptions(seconds=60))
>>> value = run_job(job).value
>>> value["verdict"], [key["move"] for key in value["keys"]]
('sound', ['h1h8'])
>>> job.key == ProblemJob(VERIFY, text, "mate1.toml", RunOptions(seconds=60)).key != ProblemJob(VERIFY, text, "mate1.toml").key
True
>>> run_job(ProblemJob(SOLVE, "stipulation = 3", "bad.toml")).error
'bad.toml: stipulation: must be a string, got 3'
"""

from __future__ import annotations

import hashlib
import json
import time
import traceback
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Callable, Protocol

from ksolve.errors import InputError
from ksolve.execution.options import RunOptions
from ksolve.execution.processes import Worker, become_worker, start_worker

SOLVE, VERIFY, REPORT = "solve", "verify", "report"
"""What a ``ProblemJob`` does: ``ksolve solve``; ``ksolve verify``; solve, then verify as ``ksolve report`` does."""
JOB_NICENESS = 10
"""How much a web job's process yields the processor (Unix ``nice``): a long search runs in
the background, and the pages' quick checks and answers come first."""
PROGRESS_EVERY = 0.25
"""Seconds between two progress messages of a job's process (the first of each phase goes at once)."""

JobProgress = Callable[[dict[str, Any]], None]
"""Hears a job's progress: ``{"phase", "depth", "nodes", "seconds", ...}``."""


@dataclass(frozen=True)
class JobResult:
    """What a job made: its JSON-ready ``value``, and for a rendered problem job the HTML
    report and the certificate (when solved); ``error``: the one line of bad input."""

    value: Any = None
    html: str | None = None
    certificate: dict[str, Any] | None = None
    error: str | None = None
    setting: str | None = None
    """The run setting the error is about (``ksolve.errors.SETTINGS``), for the caller to name it."""


class Job(Protocol):
    """Any job: its ``key`` and what it does."""

    @property
    def key(self) -> str: ...

    def run(self, progress: JobProgress) -> JobResult: ...


def run_job(job: Job, progress: JobProgress | None = None) -> JobResult:
    """Run ``job`` here, telling ``progress`` how it goes; bad input is the result's ``error``."""
    try:
        return job.run(progress or _silent)
    except InputError as error:
        return JobResult(error=str(error), setting=error.setting)


def job_value(job: Job) -> Any:
    """A job's value as a Dask task returns it (bad input: ``{"error": line}``, with the
    problem's source when the job has one)."""
    result = run_job(job)
    if result.error is None:
        return result.value
    source = getattr(job, "source", None)
    return {**({"problem": source} if source is not None else {}), "error": result.error}


def digest(data: Any) -> str:
    """A short stable hash of JSON-ready ``data`` (a job's key).

    >>> digest({"a": 1}) == digest({"a": 1}) != digest({"a": 2})
    True
    """
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


@dataclass(frozen=True)
class ProblemJob:
    """A problem's solve, verification, or both (``REPORT``), with ``options``;
    ``render``: the HTML report and the certificate too (the workbench's jobs).

    Values: ``SOLVE``: what ``ksolve solve --json`` prints; ``VERIFY``: what
    ``ksolve verify --json`` prints, with the problem's source; ``REPORT``:
    ``{"solution": <solve JSON>, "verification": <verify JSON> | null}`` (null
    when the solve was not decided in time)."""

    action: str
    problem: str
    """The problem's TOML."""
    source: str = "<problem>"
    """How errors name the problem (``<problem>``, or a file's name)."""
    options: RunOptions = field(default_factory=RunOptions)
    render: bool = False

    @property
    def key(self) -> str:
        return f"{self.action}-" + digest(asdict(self))

    def run(self, progress: JobProgress) -> JobResult:
        import ksolve
        from ksolve.report.json import result_json

        options, started = self.options, time.monotonic()

        def enumeration(tried: int, total: int, kept: int) -> None:
            progress({"phase": "belief", "depth": 0, "nodes": 0, "seconds": round(time.monotonic() - started, 2),
                      "tried": tried, "total": total, "positions": kept})

        def search(phase: str):
            return lambda stats, depth: progress({"phase": phase, "depth": depth, "nodes": stats.nodes,
                                                  "seconds": round(stats.seconds, 2)})

        problem = ksolve.load_problem_text(self.problem, self.source, _stem(self.source),
                                           ksolve.Resources(options.memory, enumeration))
        session = ksolve.Analysis(problem, options.rules, options.moves)
        limits = options.limits()
        if self.action == VERIFY:
            report = ksolve.verify(session, limits=limits, tries=options.tries, duals=options.duals,
                                   progress=search("verify"), jobs=options.workers)
            return JobResult({"problem": self.source, "rules": report.rules, "goal": report.goal,
                              **report.as_dict()})
        solution = ksolve.solve(session, at_most=options.at_most, limits=limits, progress=search("solve"),
                                search=options.search, jobs=options.workers)
        verification = None
        if self.action == REPORT and solution.status != "unknown":
            verification = ksolve.verify(session, limits=limits, tries=options.tries, duals=options.duals,
                                         progress=search("verify"), jobs=options.workers)
        value = result_json(solution, problem)
        if self.action == REPORT:
            value = {"solution": value, "verification": verification.as_dict() if verification else None}
        if not self.render:
            return JobResult(value)
        from ksolve.report import render_report

        others = ksolve.key_solutions(session, solution, verification, limits)
        certificate = ksolve.certificate(problem, solution) if solution.status == "solved" else None
        return JobResult(value, render_report("html", problem, solution, verification, others), certificate)


def _stem(source: str) -> str:
    """A problem's id from its source: the file name without ``.toml``.

    >>> _stem("problems/anderson-43.toml"), _stem("<problem>")
    ('anderson-43', '<problem>')
    """
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-5] if name.endswith(".toml") else name


def _silent(_progress: dict[str, Any]) -> None:
    """Progress nobody hears."""


# --- a job in its own process ------------------------------------------------------------
Message = tuple[str, Any]
"""What a job's process sends: ``("progress", {...})``, ``("output", JobResult)``, ``("error", InputError)``
(bad input, naming the setting it is about) or ``("error", "<one line>")`` (a bug)."""


def start_job_process(job: Job, name: str) -> Worker:
    """``job`` run in a new spawned process (``ProcessUnavailable`` if none can start),
    which sends ``Message``s on the worker's connection and closes it when done."""
    return start_worker(_job_process, (job,), name=name, duplex=False)


def _job_process(connection: Connection, job: Job) -> None:
    """A job process's whole life: run ``job``, send what it makes, close the pipe."""
    become_worker(JOB_NICENESS)
    try:
        connection.send(("output", job.run(_progress_sender(connection))))
    except InputError as error:  # sent whole: the caller names the setting it is about its own way
        connection.send(("error", error))
    except Exception as error:  # a bug: the traceback goes to stderr, the caller gets one line
        traceback.print_exc()
        connection.send(("error", f"internal error: {type(error).__name__}: {error}"))
    finally:
        connection.close()


def _progress_sender(connection: Connection) -> JobProgress:
    """Send progress at most every ``PROGRESS_EVERY`` seconds (and at once when the phase changes)."""
    last: dict[str, Any] = {"phase": None, "at": 0.0}

    def send(progress: dict[str, Any]) -> None:
        now = time.monotonic()
        if progress["phase"] != last["phase"] or now - last["at"] >= PROGRESS_EVERY:
            last.update(phase=progress["phase"], at=now)
            connection.send(("progress", progress))

    return send
