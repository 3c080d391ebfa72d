"""How a sweep's tasks run: the one place the endgame sweep touches the runner
(``ksolve.execution``), so that a change in how work runs changes this module only.

- ``sweep_cluster(jobs, scheduler)``: a Dask client for the whole sweep (a local
  cluster of ``jobs`` one-thread worker processes, or an existing scheduler),
  or None to run the tasks in this process; its workers live as long as the
  sweep, keeping their solvers and tables from wave to wave.
- ``run_wave(client, task, jobs, results, record)``: one wave's tasks (``task(job)``
  for each job), each result
  appended to the results file and handed to ``record`` as it ends; tasks a
  previous run finished are answered from the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ksolve.execution.cluster import Task, optional_cluster, run_tasks
from ksolve.execution.results import ResultsFile, TaskResult

if TYPE_CHECKING:
    from distributed import Client

    from ksolve.endgame.sweep import WaveJob

__all__ = ["ResultsFile", "TaskResult", "run_wave", "sweep_cluster"]


@contextmanager
def sweep_cluster(jobs: int | None, scheduler: str | None) -> Iterator[Client | None]:
    """A Dask client for the sweep (``jobs`` 0: the machine's cores), or None: in process."""
    with optional_cluster(jobs, scheduler) as client:
        yield client


def run_wave(client: Client | None, task: Callable[[WaveJob], dict], jobs: Sequence[WaveJob],
             results: ResultsFile, record: Callable[[TaskResult], None]) -> list[TaskResult]:
    """Run ``task(job)`` for each of one wave's ``jobs``; every result, in the order of ``jobs``."""
    tasks = [Task(job.key, task, (job,)) for job in jobs]
    known = results.finished()
    for one in tasks:  # answered from the file: recorded as if they had just ended
        if one.key in known:
            record(known[one.key])
    ended = run_tasks(tasks, results, client, progress=lambda _done, _total, result: record(result))
    return [ended.get(one.key, TaskResult(one.key, "failed", error="not run")) for one in tasks]
