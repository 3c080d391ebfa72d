"""``ksolve verify FOLDER --jobs N``: every problem's verification as one job
(``jobs.ProblemJob``), on a Dask cluster or in this process, with the results
file's resume.

>>> import ksolve
>>> problem = ksolve.load_problem("problems/anderson-43.toml")
>>> [(p.id, report.verdict) for p, report in verify_all([problem], RunOptions(seconds=60))]
[('anderson-43', 'sound')]
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ksolve.execution.cluster import RunProgress, run_jobs
from ksolve.execution.jobs import VERIFY, ProblemJob
from ksolve.execution.options import RunOptions
from ksolve.execution.results import DONE, ResultsFile
from ksolve.verification import UNKNOWN, Verification

if TYPE_CHECKING:
    from distributed import Client

    from ksolve.problem import Problem


def verify_all(problems: Sequence["Problem"], options: RunOptions, *, client: "Client | None" = None,
               results: str | Path | None = None, hard_timeout: float | None = None,
               progress: RunProgress | None = None) -> list[tuple["Problem", Verification]]:
    """Each problem with its verification under ``options``, in the given order: run on
    ``client``'s cluster (None: in this process), each result appended to ``results`` (a
    JSON-lines file; the problems it already holds with the same text and options are not
    verified again).  A task that failed (its worker killed too often, past
    ``hard_timeout``) gives an "unknown" verification whose reason says why."""
    jobs = [ProblemJob(VERIFY, problem.text, problem.source, options) for problem in problems]
    ended = run_jobs(jobs, ResultsFile(results), client, hard_timeout, progress)
    reports = []
    for problem, job in zip(problems, jobs):
        result = ended[job.key]
        value = result.value if result.status == DONE else {"error": result.error}
        if "error" in value:
            reports.append((problem, Verification(UNKNOWN, options.moves or problem.moves, reason=value["error"],
                                                  rules=options.rules or problem.rules.name, goal=problem.goal)))
        else:
            reports.append((problem, Verification.from_dict(value)))
    return reports
