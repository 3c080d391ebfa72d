"""How a sweep's tasks run: the one place the endgame sweep touches the runner
(``ksolve.runs``), so that moving execution elsewhere changes this module only.

- ``sweep_cluster(jobs, scheduler)``: a Dask client for the whole sweep (a local
  cluster of ``jobs`` one-thread worker processes, or an existing scheduler),
  or None to run the tasks in this process; its workers live as long as the
  sweep, keeping their solvers and tables from wave to wave.
- ``run_wave(client, jobs, results, record)``: one wave's tasks, each result
  appended to the results file and handed to ``record`` as it ends; tasks a
  previous run finished are answered from the file.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from ksolve.runs.results import ResultsFile, TaskResult
from ksolve.runs.runner import Task, optional_cluster, run_tasks

if TYPE_CHECKING:
    from distributed import Client

    from ksolve.endgame.sweep import WaveJob

__all__ = ["TaskResult", "run_wave", "sweep_cluster"]


@contextmanager
def sweep_cluster(jobs: int | None, scheduler: str | None) -> Iterator["Client | None"]:
    """A Dask client for the sweep (``jobs`` 0: the machine's cores), or None: in process."""
    with optional_cluster(jobs, scheduler) as client:
        yield client


def run_wave(client: "Client | None", jobs: Sequence["WaveJob"], results: ResultsFile,
             record: Callable[[TaskResult], None]) -> list[TaskResult]:
    """Run one wave's tasks; every task's result, in the order of ``jobs``."""
    from ksolve.endgame.sweep import wave_task

    tasks = [Task(job.key, wave_task, (job,)) for job in jobs]
    known = results.finished()
    for task in tasks:  # answered from the file: recorded as if they had just ended
        if task.key in known:
            record(known[task.key])
    ended = run_tasks(tasks, results, client, progress=lambda _done, _total, result: record(result))
    return [ended.get(task.key, TaskResult(task.key, "failed", error="not run")) for task in tasks]
