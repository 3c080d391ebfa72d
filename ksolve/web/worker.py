"""What runs in worker processes: a job sending its progress and its result
back over a pipe, and the quick problem check of ``/api/problems/check``.
Only the library API is called.  A ``solve`` job's result is what ``ksolve
solve --json`` prints; a ``verify`` job solves, then verifies as ``ksolve
report`` does: ``{"solution": <solve JSON>, "verification": <verify JSON> | null}``
(null when the solve was not decided in time).

>>> summary = check_problem(open("problems/rotenberg-1976.toml").read(), 2**28)
>>> summary.size, summary.hidden[0].name, len(summary.hidden[0].squares), len(summary.possible["b"])
(30, 'bishop', 32, 30)
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Callable

import ksolve
from ksolve.errors import InputError
from ksolve.web.requests import JobOptions

JOB_NICENESS = 10
"""How much a job's process yields the processor (Unix ``nice``): a long search runs in the
background, and the pages' quick checks and answers come first."""
SPAWN = multiprocessing.get_context("spawn")
"""How every worker process starts (jobs, checks, trials): spawned, since forking a process
that holds numba's and the server's threads is unsafe."""
PROGRESS_EVERY = 0.25
"""Seconds between two progress messages of a job (the first of each phase goes at once)."""


@dataclass(frozen=True)
class JobSpec:
    """What a worker process is given."""

    action: str
    problem: str
    """The problem's TOML."""
    source: str
    """How errors name the problem (``<problem>``, or the stored file's name)."""
    options: JobOptions
    memory: int
    """The belief's memory budget in bytes."""


@dataclass(frozen=True)
class JobOutput:
    """A finished job: ``result`` as ``--json`` prints it, the HTML report and the certificate (when solved)."""

    result: dict[str, Any]
    html: str | None = None
    certificate: dict[str, Any] | None = None


Message = tuple[str, Any]
"""``("progress", {...})``, ``("output", JobOutput)`` or ``("error", "<one line>")``."""


def exit_with_parent() -> None:
    """End this worker process when the server's does, even a killed server that could not tell it."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="ksolve-parent-watch").start()


def become_worker(niceness: int = 0) -> None:
    """The start of a worker process's life: end with the server (``exit_with_parent``), leave
    Ctrl-C to it (the terminal sends SIGINT to the whole process group; the server stops its
    workers itself, so they need not each print a ``KeyboardInterrupt`` traceback) and yield
    the processor by ``niceness`` (Unix ``nice``; nothing on Windows)."""
    exit_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)


def run_job(spec: JobSpec, conn: Connection) -> None:
    """A worker process's whole life: run ``spec``, send what it makes, close the pipe."""
    become_worker(JOB_NICENESS)
    try:
        conn.send(("output", _run(spec, _progress_sender(conn))))
    except InputError as error:
        conn.send(("error", str(error)))
    except Exception as error:  # a bug: the traceback goes to the server's stderr, the page gets one line
        traceback.print_exc()
        conn.send(("error", f"internal error: {type(error).__name__}: {error}"))
    finally:
        conn.close()


def _run(spec: JobSpec, progress: Callable[[dict[str, Any]], None]) -> JobOutput:
    from ksolve.report import render_report
    from ksolve.report.json import result_json

    options = spec.options

    started = time.monotonic()

    def enumeration(tried: int, total: int, kept: int) -> None:
        progress({"phase": "belief", "depth": 0, "nodes": 0, "seconds": round(time.monotonic() - started, 2),
                  "tried": tried, "total": total, "positions": kept})

    def search(phase: str):
        return lambda stats, depth: progress({"phase": phase, "depth": depth, "nodes": stats.nodes,
                                              "seconds": round(stats.seconds, 2)})

    problem = ksolve.load_problem_text(spec.problem, spec.source, resources=ksolve.Resources(spec.memory, enumeration))
    session = ksolve.Analysis(problem, options.rules, options.moves)
    limits = ksolve.Limits(options.timeout or None, options.max_nodes)
    solution = ksolve.solve(session, at_most=options.at_most, limits=limits, progress=search("solve"),
                            search=options.search)
    verification = None
    if spec.action == "verify" and solution.status != "unknown":
        verification = ksolve.verify(session, limits=limits, tries=options.tries, duals=options.duals,
                                     progress=search("verify"))
    result = result_json(solution, problem)
    if spec.action == "verify":
        result = {"solution": result, "verification": verification.as_dict() if verification else None}
    certificate = ksolve.certificate(problem, solution) if solution.status == "solved" else None
    return JobOutput(result, render_report("html", problem, solution, verification), certificate)


def _progress_sender(conn: Connection) -> Callable[[dict[str, Any]], None]:
    """Send progress at most every ``PROGRESS_EVERY`` seconds (and at once when the phase changes)."""
    last = {"phase": None, "at": 0.0}

    def send(progress: dict[str, Any]) -> None:
        now = time.monotonic()
        if progress["phase"] != last["phase"] or now - last["at"] >= PROGRESS_EVERY:
            last.update(phase=progress["phase"], at=now)
            conn.send(("progress", progress))

    return send


@dataclass(frozen=True)
class HiddenUnitSummary:
    piece: str
    """Its piece letter (upper case: White's), or the alternatives: ``q|r|b|n``."""
    name: str
    """``bishop``, ``queen or rook``..."""
    squares: list[str]
    """The squares the problem gives it."""
    optional: bool


@dataclass(frozen=True)
class ProblemSummary:
    """What the Compose page shows while the problem is edited."""

    size: int
    """The belief's size: the positions White cannot tell apart."""
    stipulation: str
    moves: int
    rules: str
    goal: str
    fen: str | None
    """The visible men (None for a problem given as a list of positions)."""
    title: str
    author: str
    hidden: list[HiddenUnitSummary] = field(default_factory=list)
    possible: dict[str, list[str]] = field(default_factory=dict)
    """Per black man type (``b``, ``n``...) whose square White does not know: where it may stand."""


def check_problem(text: str, memory: int) -> ProblemSummary:
    """Load ``text`` as the CLI loads a problem file (its belief within ``memory`` bytes) and sum it up.
    Bad input raises ``InputError`` with its one line (rebuilt, so that it crosses the process boundary)."""
    import chess

    try:
        problem = ksolve.load_problem_text(text, resources=ksolve.Resources(memory))
        belief = problem.belief()
    except InputError as error:
        raise InputError(str(error)) from None
    hidden = [HiddenUnitSummary("|".join(chess.piece_symbol(p).upper() if unit.color else chess.piece_symbol(p)
                                         for p in unit.pieces),
                                " or ".join(chess.piece_name(p) for p in unit.pieces),
                                [chess.square_name(s) for s in chess.scan_forward(unit.squares)], unit.optional)
              for unit in problem.hidden]
    possible = {piece.symbol(): [chess.square_name(s) for s in chess.scan_forward(squares)]
                for piece, squares in belief.hidden_squares()}
    return ProblemSummary(len(belief), problem.stipulation, problem.moves, problem.rules.name, problem.goal,
                          problem.fen, problem.title, problem.author, hidden, possible)
