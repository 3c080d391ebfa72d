"""``ksolve verify FOLDER --jobs N``: every problem's verification as one task,
on a Dask cluster, with the results file's resume.

>>> import ksolve
>>> problem = ksolve.load_problem("problems/anderson-43.toml")
>>> [(p.id, report.verdict) for p, report in verify_all([problem], seconds=60)]
[('anderson-43', 'sound')]
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ksolve.runs.results import DONE, ResultsFile
from ksolve.runs.runner import RunProgress, Task, run_tasks
from ksolve.runs.tasks import VerifyJob, verification_from_dict, verify_task
from ksolve.verification import UNKNOWN, Verification

if TYPE_CHECKING:
    from distributed import Client

    from ksolve.problem import Problem


def verify_all(problems: Sequence["Problem"], *, moves: int | None = None, rules: str | None = None,
               seconds: float | None = None, tries: int | None = None, duals: bool = True,
               memory: int | None = None, client: "Client | None" = None, results: str | Path | None = None,
               hard_timeout: float | None = None, progress: RunProgress | None = None
               ) -> list[tuple["Problem", Verification]]:
    """Each problem with its verification, in the given order: run on ``client``'s cluster
    (None: in this process), each result appended to ``results`` (a JSON-lines file; the
    problems it already holds with the same text and options are not verified again).
    A task that failed (its worker killed too often, past ``hard_timeout``) gives an
    "unknown" verification whose reason says why."""
    jobs = [VerifyJob(problem.text, problem.source, moves, rules, seconds, tries, duals, memory)
            for problem in problems]
    ended = run_tasks([Task(job.key, verify_task, (job,)) for job in jobs], ResultsFile(results), client,
                      hard_timeout, progress)
    reports = []
    for problem, job in zip(problems, jobs):
        result = ended[job.key]
        value = result.value if result.status == DONE else {"error": result.error}
        if "error" in value:
            reports.append((problem, Verification(UNKNOWN, moves or problem.moves, reason=value["error"],
                                                  rules=rules or problem.rules.name, goal=problem.goal)))
        else:
            reports.append((problem, verification_from_dict(value)))
    return reports
