"""Many independent proofs on Dask: now ``ksolve.execution`` (``cluster.py``: the
cluster and ``run_tasks``/``run_jobs``; ``results.py``: the results file;
``jobs.py``: the job contract).  These names stay importable from here."""

from ksolve.execution.cluster import Task, cluster_client, optional_cluster, run_jobs, run_tasks
from ksolve.execution.jobs import digest
from ksolve.execution.results import DONE, FAILED, ResultsFile, TaskResult

__all__ = ["DONE", "FAILED", "ResultsFile", "Task", "TaskResult", "cluster_client", "digest", "optional_cluster",
           "run_jobs", "run_tasks"]
