"""Moved to ``ksolve.execution.cluster``; these names stay importable from here."""

from ksolve.execution.cluster import RunProgress, Task, cluster_client, optional_cluster, run_jobs, run_tasks

__all__ = ["RunProgress", "Task", "cluster_client", "optional_cluster", "run_jobs", "run_tasks"]
