"""Moved to ``ksolve.execution.results``; these names stay importable from here."""

from ksolve.execution.results import DONE, FAILED, ResultsFile, TaskResult

__all__ = ["DONE", "FAILED", "ResultsFile", "TaskResult"]
