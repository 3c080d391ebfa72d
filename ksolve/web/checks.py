"""The problem check of the Compose page (load the TOML as the CLI does, count
the belief) in a small pool of worker processes (``ksolve.execution.processes.WorkerPool``):
quick work, but numba kernels hold the interpreter's lock while they run, so
even this stays out of the event loop, and a large belief is bounded by its own
memory budget.  A pool whose process died is replaced and the check tried once more.
"""

from __future__ import annotations

from ksolve.execution.processes import ProcessLost, WorkerPool
from ksolve.web.worker import ProblemSummary, check_problem


class CheckPool:
    """``await pool.check(text)``: a ``ProblemSummary``, or ``InputError`` with its one line."""

    def __init__(self, workers: int, memory: int) -> None:
        self.workers, self.memory = workers, memory
        self._pool = WorkerPool(workers)

    async def check(self, text: str) -> ProblemSummary:
        try:
            return await self._pool.run(check_problem, text, self.memory)
        except ProcessLost:  # a process of the pool died (killed from outside): once more, in a new pool
            return await self._pool.run(check_problem, text, self.memory)

    def shutdown(self) -> None:
        self._pool.shutdown()
