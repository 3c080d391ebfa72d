"""The problem check of the Compose page (load the TOML as the CLI does, count
the belief) in a small pool of worker processes: quick work, but numba
kernels hold the interpreter's lock while they run, so even this stays out of
the event loop, and a large belief is bounded by its own memory budget.
A pool whose process died is replaced and the check tried once more.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ksolve.web.worker import SPAWN, ProblemSummary, become_worker, check_problem


class CheckPool:
    """``await pool.check(text)``: a ``ProblemSummary``, or ``InputError`` with its one line."""

    def __init__(self, workers: int, memory: int) -> None:
        self.workers, self.memory = workers, memory
        self._pool: ProcessPoolExecutor | None = None

    async def check(self, text: str) -> ProblemSummary:
        try:
            return await self._run(text)
        except BrokenProcessPool:  # a process of the pool died (killed from outside): once more, in a new pool
            return await self._run(text)

    async def _run(self, text: str) -> ProblemSummary:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, SPAWN, initializer=become_worker)
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, check_problem, text, self.memory)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            raise

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
