"""The process primitives every worker kind uses: how a process starts, how it
lives (ends with its parent, leaves Ctrl-C to it, yields the processor), how
long it may take, how its death is said, a request/answer server process and
a pool.  Nothing outside ``ksolve.execution`` starts a process.

- ``start_context``: forked where that is safe, spawned otherwise; ``SPAWN``
  for the web server's workers (a process holding numba's and the server's
  threads must not fork);
- ``start_worker``: a process with a pipe to it (``ProcessUnavailable`` when the
  system cannot start one: out of file descriptors, processes or memory);
- ``become_worker``: the start of a worker's life (``exit_with_parent``, Ctrl-C
  ignored, ``nice``);
- ``hard_limit``: when a piece of work whose searches stop themselves is
  stopped from outside;
- ``death``: how a process ended, in words;
- ``RequestServer`` / ``serve_requests``: one process answering requests one at
  a time over a pipe, started on first use, its death said once;
- ``WorkerPool``: a pool of spawned processes for short calls from the event loop.

>>> worker = start_worker(_echo_twice, name="ksolve-doctest")
>>> worker.connection.send("hello"); worker.connection.recv()
'hellohello'
>>> worker.stop(); death(worker.process.exitcode)
'was killed (signal 15)'
>>> hard_limit(600), hard_limit(600, searches=2), hard_limit(None)
(660.0, 1260.0, None)
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Callable

from ksolve.errors import InputError

SPAWN = multiprocessing.get_context("spawn")
"""How the web server's workers start (jobs, checks, trials, the computer player): spawned,
since forking a process that holds numba's and the server's threads is unsafe."""
HARD_GRACE = 60.0
"""Seconds a piece of work may run past its searches' time limits before it is stopped from
outside (the limits bound the searches; reading the belief and writing the report come on top)."""
PARENT_WATCH_SECONDS = 1.0
"""How often a worker looks whether its parent still runs."""


class ProcessUnavailable(Exception):
    """The system could not start a process (out of file descriptors, processes or memory)."""


class ProcessLost(Exception):
    """A process died (killed, out of memory) or was stopped: what it held is gone."""


def start_context() -> BaseContext:
    """How a command's workers start: forked where that is safe (Linux, and this
    process runs one thread: ksolve's kernels start none), so that they begin
    with the parent's modules and kernels loaded instead of importing them again
    (about half a second a worker); spawned otherwise, as from the workbench's
    job processes, which run a watching thread (a forked copy of a threaded
    process may inherit a lock some other thread held).

    >>> start_context().get_start_method() in ("fork", "spawn")
    True
    """
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return SPAWN


def exit_with_parent() -> None:
    """End this process when its parent does, even a killed parent that could not tell it."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="ksolve-parent-watch").start()


def become_worker(niceness: int = 0) -> None:
    """The start of a worker process's life: end with the parent (``exit_with_parent``),
    leave Ctrl-C to it (the terminal sends SIGINT to the whole process group; the parent
    stops its workers itself, so they need not each print a ``KeyboardInterrupt``
    traceback) and yield the processor by ``niceness`` (Unix ``nice``; nothing on Windows)."""
    exit_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)


def hard_limit(seconds: float | None, searches: int = 1) -> float | None:
    """Seconds after which work made of ``searches`` searches, each stopping itself
    after ``seconds``, is stopped from outside: their limits and ``HARD_GRACE``
    (None: no limit)."""
    return searches * seconds + HARD_GRACE if seconds else None


def death(exitcode: int | None) -> str:
    """How a process ended, in the words of the one error line saying it.

    >>> death(-9), death(1), death(None)
    ('was killed (signal 9)', 'ended (exit code 1)', 'is still running')
    """
    if exitcode is None:
        return "is still running"
    return f"was killed (signal {-exitcode})" if exitcode < 0 else f"ended (exit code {exitcode})"


@dataclass
class Worker:
    """A started process and this process's end of the pipe to it."""

    process: BaseProcess
    connection: Connection

    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self, wait: float = 5.0) -> None:
        """Terminate the process, kill it if it has not ended within ``wait`` seconds, close the pipe."""
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(wait)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()

    def kill(self) -> None:
        """Kill the process at once, not waiting for it (one holding gigabytes takes a while
        to give them back; multiprocessing reaps it at exit)."""
        if self.process.is_alive():
            self.process.kill()


def start_worker(target: Callable[..., None], args: tuple = (), *, name: str,
                 context: BaseContext | None = None, duplex: bool = True) -> Worker:
    """Start ``target(connection, *args)`` in a new process (``context``, default
    ``SPAWN``; a daemon: it ends with this process) and return it with this end of
    the pipe (``duplex`` False: the worker only sends).  The worker holds the only
    other end, so its death ends the pipe.  ``ProcessUnavailable`` when the
    system cannot start a process."""
    context = context or SPAWN
    mine, theirs = context.Pipe(duplex=duplex)
    process = context.Process(target=target, args=(theirs, *args), daemon=True, name=name)
    try:
        process.start()
    except OSError as error:
        mine.close()
        raise ProcessUnavailable(f"cannot start a worker process: {error.strerror or error}") from None
    finally:
        theirs.close()
    return Worker(process, mine)


# --- a request/answer server process -------------------------------------------------------
Answer = tuple[str, Any]
"""``("ok", value)``, ``("input", "<one line>")`` (bad input) or ``("bug", "<type>: <message>")``."""


def serve_requests(connection: Connection, handle: Callable[[Any], Any], niceness: int = 0) -> None:
    """A server process's whole life: answer each request on ``connection`` with
    ``("ok", handle(request))`` until the other end closes it.  A request that fails
    gets its answer (the one line of bad input, or the bug's, whose traceback goes to
    stderr) and the process goes on."""
    become_worker(niceness)
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):  # the parent closed the pipe, or ended
            return
        try:
            answer: Answer = ("ok", handle(request))
        except InputError as error:
            answer = ("input", str(error))
        except Exception as error:  # a bug: the traceback goes to stderr, the caller gets one line
            traceback.print_exc()
            answer = ("bug", f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return


class RequestServer:
    """One process answering requests one at a time (``serve_requests`` running
    ``target``'s handler), started on first use.  Each process started is a new
    ``generation``: a request that names an older one (what it held died with it)
    raises ``ProcessLost``, as does a process that dies or gives no answer within
    ``answer_within`` seconds (it is stopped).  ``call`` blocks: call it in a thread."""

    def __init__(self, name: str, target: Callable[..., None], answer_within: float) -> None:
        self.name, self.target, self.answer_within = name, target, answer_within
        self.generation = 0
        self.worker: Worker | None = None
        self.ended = "was not started"
        """How the last process ended (for the lost work's line)."""
        self._lock = threading.Lock()

    def call(self, generation: int | None, request: Any) -> tuple[Answer, int]:
        """Send ``request`` to the process of ``generation`` (None: the live one, started if
        need be) and wait for its answer: the answer and the generation that gave it."""
        with self._lock:
            if generation is None:
                if not self._alive():
                    self._start()
            elif generation != self.generation or not self._alive():
                raise ProcessLost(self.ended)
            assert self.worker is not None
            try:
                self.worker.connection.send(request)
                if not self.worker.connection.poll(self.answer_within):
                    self._stop(f"was stopped: no answer within {self.answer_within:g} s")
                    raise ProcessLost(self.ended)
                return self.worker.connection.recv(), self.generation
            except (EOFError, OSError):  # the pipe ended: the process is ending (or was stopped)
                self._reap()
                raise ProcessLost(self.ended) from None

    def pid(self) -> int | None:
        """The live process's id (None when none runs)."""
        return self.worker.process.pid if self.worker is not None else None

    def shutdown(self, why: str = "was stopped") -> None:
        """Stop the process (what it held is lost); the next ``call`` starts a new one."""
        with self._lock:
            if self.worker is not None:
                self._stop(why)

    def _alive(self) -> bool:
        """Whether the process runs; if it ended, why (``ended``) and its pipe closed."""
        if self.worker is None:
            return False
        if self.worker.alive():
            return True
        self.worker.process.join()
        self.ended = death(self.worker.process.exitcode)
        self.worker.connection.close()
        self.worker = None
        return False

    def _reap(self) -> None:
        """Wait for a process whose pipe ended, and say how it ended."""
        if self.worker is None:
            return
        self.worker.process.join(5)
        if self._alive():
            self._stop("closed its pipe")

    def _start(self) -> None:
        self.worker = start_worker(self.target, name=f"ksolve-{self.name}")
        self.generation += 1

    def _stop(self, why: str) -> None:
        assert self.worker is not None
        self.worker.stop()
        self.ended, self.worker = why, None


# --- a pool for short calls -------------------------------------------------------------
class WorkerPool:
    """``processes`` spawned worker processes (``become_worker``) for short calls made
    from the event loop, started on first use: ``await pool.run(function, *args)``.  A
    pool one of whose processes died is dropped (the next call starts a new one) and
    the call raises ``ProcessLost``; bad input raised by ``function`` comes back as it
    was (``InputError``)."""

    def __init__(self, processes: int, niceness: int = 0) -> None:
        self.processes, self.niceness = processes, niceness
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.processes, SPAWN, initializer=become_worker,
                                             initargs=(self.niceness,))
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            raise ProcessLost("a process of the pool died") from None

    def pids(self) -> list[int]:
        """The ids of the pool's processes (none before the first call)."""
        return [] if self._pool is None else list(self._pool._processes)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _echo_twice(connection: Connection) -> None:
    """The doctest's worker: answers each message doubled."""
    while True:
        connection.send(connection.recv() * 2)
