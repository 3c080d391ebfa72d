"""One candidate problem's checks, cheapest first, as a task (a plain function
of a frozen ``CandidateJob``, JSON back) that a Dask worker runs:

1. it is a legal problem (the loader's checks) with a belief of at most
   ``max_belief`` positions;
2. cheap proofs: each known cook (``refute``) no longer wins (``refuted``
   lists those that do not); the key to keep
   (``keep``) wins; for a new problem (no key), no mate in fewer moves and a
   mate in the stipulated number (one proof-number search each);
3. the full verification: sound, and the key kept;
4. the certificate of a solution, replayed by the independent checker, and
   the solution's ranking (``ranking.py``).

The first failing check ends the task with its stage and reason.

>>> text = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> check_candidate(CandidateJob(text, "mate1", keep="h1h8", seconds=60))["status"]
'sound'
>>> result = check_candidate(CandidateJob(text, "mate1", keep="h1h7", seconds=60))
>>> result["status"], result["stage"], result["reason"]
('rejected', 'key', 'the key 1.Rh7 does not mate in 1')
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ksolve.compose.edits import men_of
from ksolve.compose.ranking import rank
from ksolve.execution.jobs import JobProgress, JobResult, digest

SOUND, REJECTED = "sound", "rejected"
CHECKS_VERSION = 2
"""Part of every task key: a results file written by other checks is not reused."""


@dataclass(frozen=True)
class CandidateJob:
    """A candidate problem (its TOML text) and what it must satisfy."""

    text: str
    source: str
    keep: str | None = None
    """The first move it must keep as its unique key (UCI); None: any unique key."""
    refute: tuple[str, ...] = ()
    """First moves that must no longer win (the original's cooks), checked first."""
    seconds: float | None = 60.0
    """Each search's time limit."""
    max_belief: int = 5_000
    certify: bool = True
    label: str = ""
    """What the candidate is (an edit's description, a seed): carried into the result."""
    memory: int | None = None
    """The memory budget in bytes of its searches (None: half of the machine's memory)."""

    @property
    def key(self) -> str:
        return "candidate-" + digest({"version": CHECKS_VERSION, **asdict(self)})

    def run(self, progress: JobProgress) -> JobResult:
        """The job contract (``ksolve.execution.jobs``): ``check_candidate``'s value."""
        return JobResult(check_candidate(self))


def check_candidate(job: CandidateJob) -> dict[str, Any]:
    """``{"status": "sound" | "rejected", "stage", "reason", "label", ...}``; a sound one
    carries its ``verification`` (JSON) and ``certified`` (the checker's verdict)."""
    import ksolve
    from ksolve.analysis import Analysis

    result: dict[str, Any] = {"label": job.label, "source": job.source}
    try:
        problem = ksolve.load_problem_text(job.text, job.source, "candidate",
                                           ksolve.Resources(memory=job.max_belief * 3 * 1024))
        if len(problem.belief()) > job.max_belief:
            return _rejected(result, "belief", f"{len(problem.belief())} positions, over {job.max_belief}")
        analysis = Analysis(problem, memory=ksolve.Resources(job.memory).budget)
    except ksolve.InputError as error:
        return _rejected(result, "legal", str(error))
    result["belief_size"] = len(analysis.belief)
    try:
        return _checked(job, problem, analysis, result)
    except ksolve.InputError as error:  # a run setting (the memory budget) that holds no search
        return _rejected(result, "setting", str(error))


def _checked(job: CandidateJob, problem, analysis, result: dict[str, Any]) -> dict[str, Any]:
    """The checks after the candidate was read (``check_candidate``)."""
    import ksolve
    from ksolve.search.run import SearchAborted

    refuted: list[str] = []
    try:
        reason = _cheap_reason(analysis, job, refuted)
    except SearchAborted as error:
        return _rejected(result, "cheap", f"not decided: {error}")
    finally:
        result["refuted"] = refuted
    if reason:
        return _rejected(result, *reason)
    report = ksolve.verify(analysis, limits=ksolve.Limits(job.seconds))
    result["verification"] = report.as_dict()
    if report.verdict != "sound":
        return _rejected(result, "verify", report.line())
    if job.keep is not None and report.keys[0].move != job.keep:
        return _rejected(result, "verify", f"the unique key is 1.{report.keys[0].label}, not the one to keep")
    result["key"] = report.keys[0].move
    if job.certify:
        solution = ksolve.solve(analysis, limits=ksolve.Limits(job.seconds), at_most=True)
        checked = ksolve.check(problem, ksolve.certificate(problem, solution)) if solution.status == "solved" else None
        result["certified"] = bool(checked and checked.verified)
        if not result["certified"]:
            return _rejected(result, "certificate", checked.format() if checked else f"solve: {solution.status}")
        result["ranking"] = rank(solution.tree, result["verification"], men_of(problem)).as_dict()
    result.update(status=SOUND, stage="done", reason=report.line())
    return result


def _rejected(result: dict[str, Any], stage: str, reason: str) -> dict[str, Any]:
    result.update(status=REJECTED, stage=stage, reason=reason)
    return result


def _cheap_reason(analysis, job: CandidateJob, refuted: list[str]) -> tuple[str, str] | None:
    """Why the candidate fails a cheap proof (stage, words), or None; the cooks it
    refutes are added to ``refuted``."""
    from ksolve.board import move_from_uci
    from ksolve.search.pns import ProofNumberSearch
    from ksolve.search.run import Limits
    from ksolve.solution import move_label

    prover = analysis.prover(Limits(job.seconds))
    search = ProofNumberSearch(prover)
    classes = [first.belief for first in analysis.classes]
    moves = analysis.moves
    legal = {int(m) for part in classes for m in analysis.rules.attempts(part.positions)}

    def wins(uci: str, depth: int) -> bool:
        move = move_from_uci(uci)
        prover.run.depth = depth
        return move in legal and all(search.attempt_wins(part, move, depth) for part in classes)

    goal = "mate" if analysis.rules.goal == "mate" else "capture the king"
    cooks = [cook for cook in job.refute if cook not in (job.keep, "any")]
    winning = [cook for cook in cooks if wins(cook, moves)]  # all of them: mend pairs the changes by what they refute
    refuted.extend(cook for cook in cooks if cook not in winning)
    if winning:
        labels = ", ".join(f"1.{move_label(classes[0], move_from_uci(cook))}" for cook in winning)
        return "cooks", f"the cook{'s' if len(winning) > 1 else ''} {labels} still win{'' if len(winning) > 1 else 's'}"
    if job.keep is not None:
        if move_from_uci(job.keep) not in legal:
            return "key", f"the key {job.keep} is no attempt on White's board"
        if not wins(job.keep, moves):
            return "key", f"the key 1.{move_label(classes[0], move_from_uci(job.keep))} does not {goal} in {moves}"
        if moves > 1 and wins(job.keep, moves - 1):
            return "key", f"the key already wins in {moves - 1}"
        return None
    prover.run.depth = moves
    if not all(search.wins(part, moves) for part in classes):
        return "win", f"White cannot {goal} in {moves}"
    prover.run.depth = moves - 1
    if moves > 1 and all(search.wins(part, moves - 1) for part in classes):
        return "short", f"White wins in {moves - 1}"
    return None
