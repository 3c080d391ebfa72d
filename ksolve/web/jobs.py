"""Jobs: each solve / verify / report runs as a ``ksolve.execution.jobs.ProblemJob``
in its own worker process (``start_job_process``: spawned, since forking a
process that holds numba's and the server's threads is unsafe), at most
``max_running`` at once, the others in a queue of at most ``max_queued``
(``QueueFull`` beyond, which the API answers with 429).  Progress comes back
over a pipe and is streamed to subscribers; cancelling terminates the process;
a worker that dies marks its job failed and the server goes on; a process the
system cannot start (out of file descriptors, processes or memory) is
``JobsUnavailable`` for the job being submitted (503) and fails a queued one.

The manager lives in the event loop: one thread per running job only reads
its pipe and hands each message to the loop, so job state changes in one thread.

>>> from ksolve.execution.jobs import ProblemJob
>>> job = Job("0", "solve", ProblemJob("solve", ""))
>>> job.view()["state"], job.finished
('queued', False)
"""

from __future__ import annotations

import asyncio
import math
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from ksolve.errors import InputError
from ksolve.execution.jobs import REPORT, JobResult, Message, ProblemJob, start_job_process
from ksolve.execution.processes import ProcessUnavailable, Worker, death, hard_limit
from ksolve.web.errors import web_message

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINAL_STATES = (DONE, FAILED, CANCELLED)
KEEP_FINISHED = 100
"""Finished jobs kept for their results (the oldest forgotten first)."""


class QueueFull(Exception):
    """No room for another job."""


class JobsUnavailable(Exception):
    """The system could not start the job's process (the API answers 503 with Retry-After)."""


@dataclass
class Job:
    id: str
    action: str
    """What the page asked for (``solve`` or ``verify``)."""
    work: ProblemJob
    name: str | None = None
    """The stored problem it verifies (its verdict is kept)."""
    state: str = QUEUED
    progress: dict[str, Any] | None = None
    output: JobResult | None = None
    error: str | None = None
    created: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    worker: Worker | None = None
    subscribers: list[asyncio.Queue] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.state in FINAL_STATES

    def view(self) -> dict[str, Any]:
        """The job as ``GET /api/jobs/{id}`` answers it."""
        return {"id": self.id, "action": self.action, "name": self.name, "state": self.state,
                "progress": self.progress, "result": self.output.value if self.output else None,
                "error": self.error, "has_report": bool(self.output and self.output.html),
                "has_certificate": bool(self.output and self.output.certificate),
                "created": self.created, "started": self.started, "ended": self.ended}


class JobManager:
    """Queue, run, watch and cancel jobs; ``on_finished(job)`` hears of every job that ends."""

    def __init__(self, max_running: int, max_queued: int,
                 on_finished: Callable[[Job], None] | None = None) -> None:
        self.max_running, self.max_queued = max_running, max_queued
        self.on_finished = on_finished
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.queue: list[Job] = []
        self.running: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def submit(self, action: str, work: ProblemJob, name: str | None = None) -> Job:
        """Start ``work`` now or queue it; ``QueueFull`` when the queue is full,
        ``JobsUnavailable`` when its process cannot start (the job is then forgotten)."""
        if len(self.running) >= self.max_running and len(self.queue) >= self.max_queued:
            raise QueueFull(f"too many jobs: {len(self.running)} running and {len(self.queue)} queued "
                            f"(at most {self.max_running} and {self.max_queued}); try again when one ends")
        self._loop = asyncio.get_running_loop()
        job = Job(secrets.token_hex(8), action, work, name)
        self.jobs[job.id] = job
        self.queue.append(job)
        self._start_queued()
        if job.state == FAILED and job.worker is None:
            del self.jobs[job.id]
            raise JobsUnavailable(f"{job.error}; try again in a moment")
        return job

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def cancel(self, job: Job) -> None:
        """Cancel a queued or running job (its process terminated); a finished job stays as it is."""
        if job.finished:
            return
        if job in self.queue:
            self.queue.remove(job)
        elif job.worker is not None:
            job.worker.process.terminate()  # the pipe's thread sees the end and frees the slot
        self._finish(job, CANCELLED)

    def subscribe(self, job: Job) -> asyncio.Queue:
        """A queue of ``(event, data)``: ``state`` and ``progress`` while the job goes on, ``done`` last."""
        queue: asyncio.Queue = asyncio.Queue()
        job.subscribers.append(queue)
        return queue

    def unsubscribe(self, job: Job, queue: asyncio.Queue) -> None:
        if queue in job.subscribers:
            job.subscribers.remove(queue)

    def shutdown(self) -> None:
        """Cancel every job (the server is stopping)."""
        for job in list(self.jobs.values()):
            self.cancel(job)

    # --- in the event loop ------------------------------------------------------------
    def _start_queued(self) -> None:
        while self.queue and len(self.running) < self.max_running:
            job = self.queue.pop(0)
            try:
                job.worker = start_job_process(job.work, f"ksolve-job-{job.id}")
            except ProcessUnavailable as error:
                job.error = f"the job's process could not start: {error}"
                self._finish(job, FAILED)
                continue
            job.state, job.started = RUNNING, time.time()
            self.running.add(job.id)
            self._publish(job, "state", {"state": RUNNING})
            threading.Thread(target=self._watch, args=(job, job.worker), daemon=True,
                             name=f"ksolve-watch-{job.id}").start()

    def _on_message(self, job: Job, message: Message) -> None:
        kind, data = message
        if job.finished:
            return
        if kind == "progress":
            job.progress = data
            self._publish(job, "progress", data)
        elif kind == "output":
            job.output = data
            self._finish(job, DONE)
        else:
            job.error = web_message(data) if isinstance(data, InputError) else data
            self._finish(job, FAILED)

    def _on_exit(self, job: Job, exitcode: int | None, overtime: bool) -> None:
        self.running.discard(job.id)
        if not job.finished:
            if overtime:
                job.error = f"stopped after {time_limit(job.work):g} s: over the job's time limit"
            elif exitcode is not None and exitcode < 0:
                job.error = f"the worker process {death(exitcode)}; the job is lost"
            else:
                job.error = f"the worker process ended without a result (exit code {exitcode})"
            self._finish(job, FAILED)
        self._start_queued()

    def _finish(self, job: Job, state: str) -> None:
        job.state, job.ended = state, time.time()
        self._publish(job, "done", job.view())
        if self.on_finished is not None:
            self.on_finished(job)
        self._forget_old()

    def _publish(self, job: Job, event: str, data: dict[str, Any]) -> None:
        for queue in job.subscribers:
            queue.put_nowait((event, data))

    def _forget_old(self) -> None:
        finished = [job_id for job_id, job in self.jobs.items() if job.finished]
        for job_id in finished[:max(0, len(finished) - KEEP_FINISHED)]:
            del self.jobs[job_id]

    # --- in the job's thread ----------------------------------------------------------
    def _watch(self, job: Job, worker: Worker) -> None:
        """Hand the worker's messages to the loop until its pipe ends; stop it past its time limit."""
        loop, receiver = self._loop, worker.connection
        assert loop is not None
        deadline = time.monotonic() + (time_limit(job.work) or math.inf)
        overtime = False
        with receiver:
            while True:
                try:
                    if receiver.poll(0.5):
                        _post(loop, self._on_message, job, receiver.recv())
                        continue
                except (EOFError, OSError):
                    break
                if time.monotonic() > deadline and not overtime:
                    overtime = True
                    worker.process.terminate()
        worker.stop()
        _post(loop, self._on_exit, job, worker.process.exitcode, overtime)


def time_limit(work: ProblemJob) -> float | None:
    """Seconds after which a job is stopped (``processes.hard_limit``: a report job solves,
    then verifies)."""
    return hard_limit(work.options.seconds, 2 if work.action == REPORT else 1)


def _post(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    """Run ``callback(*args)`` in the event loop (nothing once the server has stopped it)."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:  # the loop is closed
        pass
