"""Run independent tasks on a Dask cluster (or in this process), appending
each result to a ``ResultsFile`` as it finishes and skipping the tasks a
previous run finished.

- ``cluster_client(jobs=N)``: a ``LocalCluster`` of N worker processes with
  one thread each (one task per process at a time), each under ``memory_limit``
  (the nanny restarts a worker past it); ``cluster_client(scheduler=ADDRESS)``:
  an existing cluster (``dask scheduler`` / ``dask worker``).
- A worker killed while running a task (crash, memory limit, ``kill -9``): the
  scheduler gives the task to another worker, up to ``retries`` times, then the
  task is recorded as failed.
- ``hard_timeout``: a task running longer is recorded as failed and its worker
  restarted (the tasks' own search limits, ``Limits(seconds)``, normally end
  them first, with verdict "unknown"; ``processes.hard_limit`` gives it).
- ``run_jobs``: the jobs of ``ksolve.execution.jobs`` as tasks.

>>> import time
>>> results = run_tasks([Task("nap", time.sleep, (0,))], ResultsFile(None))
>>> results["nap"].status, results["nap"].value
('done', None)
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from ksolve.execution.results import DONE, FAILED, ResultsFile, TaskResult

if TYPE_CHECKING:
    from distributed import Client

    from ksolve.execution.jobs import Job

RunProgress = Callable[[int, int, TaskResult], None]
"""Called as each task ends: tasks ended (this run and before), tasks in all, the result."""


@dataclass(frozen=True)
class Task:
    """One independent piece of work: ``function(*args)`` (a module-level
    function, so that a worker can import it), named by a ``key`` that is the
    same in every run of the same work (it is what a re-run skips)."""

    key: str
    function: Callable[..., Any]
    args: tuple = ()


QUIET_TRACKER = "ignore:resource_tracker:UserWarning:multiprocessing.resource_tracker"
"""A warnings option (``-W``) for multiprocessing's resource tracker: the semaphores of a local
cluster's queues, left when Ctrl-C kills its workers (``_kill_local_workers``), are cleaned up silently."""
SCHEDULER_SCHEMES = ("tcp", "tls")
"""The address schemes of a Dask scheduler ksolve connects to (``tcp://host:8786``, or ``host:8786``)."""
CONNECT_SECONDS = 5.0
"""How long reaching a scheduler may take (connecting, then its greeting)."""


def scheduler_address(address: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a scheduler address such as ``tcp://127.0.0.1:8786``
    (``host:port``: tcp), read without connecting; ``SettingError`` naming what is
    wrong otherwise.

    >>> scheduler_address("127.0.0.1:8786"), scheduler_address("tcp://[::1]:8786")
    (('tcp', '127.0.0.1', 8786), ('tcp', '::1', 8786))
    >>> scheduler_address("garbage")
    Traceback (most recent call last):
    ...
    ksolve.errors.SettingError: Dask scheduler: 'garbage' is not an address such as tcp://127.0.0.1:8786 (no port)
    >>> scheduler_address("http://127.0.0.1:8786")
    Traceback (most recent call last):
    ...
    ksolve.errors.SettingError: Dask scheduler: 'http://127.0.0.1:8786' is not an address such as tcp://127.0.0.1:8786 (scheme http: a scheduler speaks tcp or tls)
    """
    import re

    from ksolve.errors import SettingError

    def bad(reason: str) -> SettingError:
        return SettingError("scheduler", f"{address!r} is not an address such as tcp://127.0.0.1:8786 ({reason})")

    scheme, _, location = address.strip().rpartition("://")
    scheme = scheme or "tcp"
    if scheme not in SCHEDULER_SCHEMES:
        raise bad(f"scheme {scheme}: a scheduler speaks {' or '.join(SCHEDULER_SCHEMES)}")
    match = re.fullmatch(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})", location)
    if not match:
        raise bad("no port" if ":" not in location else "not host:port")
    host, port = match[1].strip("[]"), int(match[2])
    if not 0 < port < 65536:
        raise bad(f"port {port}")
    return scheme, host, port


def check_scheduler(address: str, seconds: float = CONNECT_SECONDS) -> str:
    """The scheduler ``address`` with its scheme, once something there greets as
    a Dask scheduler does (a ``tcp`` one sends its handshake at once: what
    listens there is read for ``seconds`` at most); ``SettingError`` naming what
    is wrong otherwise: not an address (``scheduler_address``), nothing
    listening, or something else listening (a web server waits for a request
    and says nothing)."""
    import socket

    from ksolve.errors import SettingError

    scheme, host, port = scheduler_address(address)
    location = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        with socket.create_connection((host, port), timeout=seconds) as connection:
            if scheme == "tls":
                return f"{scheme}://{location}"
            connection.settimeout(seconds)
            greeting = connection.recv(256)
    except socket.timeout:
        raise SettingError("scheduler", f"cannot reach {address}: nothing answered within {seconds:g} s; if something "
                                        "listens there, it is not a Dask scheduler (one greets at once)") from None
    except OSError as error:
        reason = str(error.strerror or error)
        raise SettingError("scheduler", f"cannot reach {address}: {reason[:1].lower() + reason[1:]}") from None
    if b"pickle-protocol" not in greeting:
        raise SettingError("scheduler", f"{address} is not a Dask scheduler: what listens there "
                                        f"{'closed the connection' if not greeting else 'greeted otherwise'}")
    return f"{scheme}://{location}"


@contextmanager
def cluster_client(jobs: int | None = None, scheduler: str | None = None, memory_limit: str | int = "auto",
                   retries: int = 3) -> Iterator["Client"]:
    """A Dask client: of an existing cluster (``scheduler``: ``tcp://host:8786``,
    checked first: ``check_scheduler``) or of a new local cluster of ``jobs``
    worker processes (default: the machine's cores), closed on exit.
    ``memory_limit``: each local worker's (``"2GB"``; ``"auto"``: the machine's
    memory shared out); ``retries``: how often a task may lose its worker.

    The local workers ignore Ctrl-C (``_start_forkserver_deaf_to_ctrl_c``): on
    ``KeyboardInterrupt`` in the block they are killed at once and the
    interrupt goes on, without the cluster's graceful close (seconds, and
    distributed's errors about the workers gone); a process ending on Ctrl-C
    (the command line) should then exit without running ``atexit``'s close
    of the clusters left (``os._exit``)."""
    import logging

    import dask
    from distributed import Client, LocalCluster

    # worker-saturation 1: a worker holds only the task it runs (none queued behind it),
    # so that "processing on a worker" means running (the hard timeout's clock).
    with dask.config.set({"distributed.scheduler.allowed-failures": retries,
                          "distributed.scheduler.worker-saturation": 1.0,
                          "distributed.worker.multiprocessing-method": "forkserver",
                          "distributed.comm.timeouts.connect": f"{CONNECT_SECONDS:g}s"}):
        if scheduler:
            address = check_scheduler(scheduler)
            try:
                client = Client(address, timeout=f"{CONNECT_SECONDS:g}s")
            except (OSError, TimeoutError) as error:
                from ksolve.errors import SettingError

                raise SettingError("scheduler", f"cannot reach {scheduler}: {error}") from None
            with client:
                yield client
            return
        _start_forkserver_deaf_to_ctrl_c()
        cluster = None
        try:
            cluster = LocalCluster(n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   memory_limit=memory_limit, dashboard_address=":0",
                                   silence_logs=logging.CRITICAL)
            client = Client(cluster)
        except KeyboardInterrupt:
            _kill_local_workers()
            raise
        try:
            yield client
        except KeyboardInterrupt:
            _kill_local_workers()
            raise
        except BaseException:
            _close(client, cluster)
            raise
        _close(client, cluster)


def _close(client: "Client", cluster) -> None:
    """Close the client, then the local cluster."""
    try:
        client.close()
    finally:
        # distributed's own bookkeeping may fail at the very end of closing, after its
        # workers and scheduler are stopped, when a worker it restarted (a task past
        # its hard limit) is removed before the cluster heard of it (dask/distributed
        # issue 5407): a KeyError that must not turn a finished run into a traceback.
        with suppress(KeyError):
            cluster.close()


def _start_forkserver_deaf_to_ctrl_c() -> None:
    """Start multiprocessing's fork server, from which the local workers are
    forked, with Ctrl-C ignored, so that the workers ignore it too: a
    terminal's Ctrl-C reaches the whole process group, and each worker would
    stop with its own ``KeyboardInterrupt`` traceback while the parent, which
    says what was established and stops them, is still at work.  (A Ctrl-C
    in the few milliseconds the server takes to start is lost.)  The
    resource tracker it starts cleans up after workers killed on Ctrl-C
    without a warning on stderr (``QUIET_TRACKER``)."""
    import multiprocessing.forkserver
    import signal

    if QUIET_TRACKER not in sys.warnoptions:  # handed to the processes multiprocessing starts
        sys.warnoptions.append(QUIET_TRACKER)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _kill_local_workers() -> None:
    """Kill this process's local Dask worker processes at once (Ctrl-C: their
    tasks are no longer wanted), whether or not their cluster finished starting:
    the processes multiprocessing's fork server forked for this one."""
    import signal

    import psutil

    for server in psutil.Process().children():
        with suppress(psutil.Error):
            if "multiprocessing.forkserver" in " ".join(server.cmdline()):
                for worker in server.children(recursive=True):
                    with suppress(psutil.Error):
                        worker.send_signal(signal.SIGKILL)


@contextmanager
def optional_cluster(jobs: int | None, scheduler: str | None, memory_limit: str | int = "auto"
                     ) -> Iterator["Client | None"]:
    """``cluster_client`` when ``jobs`` (0: the machine's cores) or ``scheduler`` is given,
    else None (the tasks run in this process, one after another)."""
    if jobs is None and not scheduler:
        yield None
        return
    with cluster_client(jobs or None, scheduler, memory_limit) as client:
        yield client


def run_tasks(tasks: Sequence[Task], results: ResultsFile, client: "Client | None" = None,
              hard_timeout: float | None = None, progress: RunProgress | None = None) -> dict[str, TaskResult]:
    """Every task's result by key: those ``results`` already holds, then the others,
    run on ``client``'s cluster (None: one after another in this process) and
    appended to ``results`` as each ends."""
    known = results.finished()
    ended = {task.key: known[task.key] for task in tasks if task.key in known}
    todo = [task for task in tasks if task.key not in known]
    total = len(tasks)

    def record(result: TaskResult) -> None:
        results.append(result)
        ended[result.key] = result
        if progress is not None:
            progress(len(ended), total, result)

    if client is None:
        for task in todo:
            record(_in_process(task))
    else:
        _on_cluster(todo, client, hard_timeout, record)
    return {task.key: ended[task.key] for task in tasks if task.key in ended}


def run_jobs(jobs: Sequence["Job"], results: ResultsFile, client: "Client | None" = None,
             hard_timeout: float | None = None, progress: RunProgress | None = None) -> dict[str, TaskResult]:
    """``run_tasks`` of ``jobs`` (``ksolve.execution.jobs``: each a task keyed by its
    ``key``, its value ``job_value``), by key."""
    from ksolve.execution.jobs import job_value

    return run_tasks([Task(job.key, job_value, (job,)) for job in jobs], results, client, hard_timeout, progress)


def timed_call(function: Callable[..., Any], *args: Any) -> tuple[Any, float, str]:
    """``function(*args)``, its seconds and where it ran (the worker's address, or this process)."""
    started = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - started, _where()


def _where() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"


def _in_process(task: Task) -> TaskResult:
    started = time.perf_counter()
    try:
        value, seconds, where = timed_call(task.function, *task.args)
    except Exception as error:  # a task's failure is its result; the run goes on
        return TaskResult(task.key, FAILED, seconds=time.perf_counter() - started, error=_one_line(error))
    return TaskResult(task.key, DONE, value, seconds, worker=where)


def _on_cluster(tasks: Sequence[Task], client: "Client", hard_timeout: float | None,
                record: Callable[[TaskResult], None]) -> None:
    """Submit every task, record each as it ends (``as_completed``); a watchdog thread
    stops the tasks past ``hard_timeout``."""
    from distributed import as_completed

    futures = {client.submit(timed_call, task.function, *task.args, key=f"ksolve-{task.key}", pure=False): task
               for task in tasks}
    lock = threading.Lock()
    stopped: set[str] = set()
    """The futures' keys the watchdog recorded and cancelled."""

    def locked_record(result: TaskResult) -> None:
        with lock:
            record(result)

    done = threading.Event()
    watchdog = threading.Thread(target=_watch, args=(client, futures, hard_timeout, done, stopped, locked_record),
                                daemon=True)
    if hard_timeout:
        watchdog.start()
    try:
        for future in as_completed(futures):
            task = futures[future]
            with lock:
                if future.key in stopped or future.cancelled():
                    continue
            try:
                value, seconds, where = future.result()
            except Exception as error:  # KilledWorker (lost its worker too often) or the task's own error
                locked_record(TaskResult(task.key, FAILED, error=_one_line(error)))
            else:
                locked_record(TaskResult(task.key, DONE, value, seconds, worker=where))
    finally:
        done.set()
        client.cancel([future for future in futures if not future.done()])


def _watch(client: "Client", futures: dict, hard_timeout: float, done: threading.Event, stopped: set[str],
           record: Callable[[TaskResult], None]) -> None:
    """Once a second: record as failed, cancel and restart the workers of the tasks running
    longer than ``hard_timeout`` (a task starts when first seen processing on a worker)."""
    first_seen: dict[str, float] = {}
    while not done.wait(1.0):
        now = time.monotonic()
        pending = {future.key: future for future in futures if not future.done()}
        overdue, workers = [], set()
        for worker, keys in client.processing().items():
            for key in keys:
                if key in pending and now - first_seen.setdefault(key, now) > hard_timeout:
                    overdue.append(pending[key])
                    workers.add(worker)
        for future in overdue:
            stopped.add(future.key)
            record(TaskResult(futures[future].key, FAILED, seconds=now - first_seen[future.key],
                              error=f"over the hard time limit of {hard_timeout:g} s: its worker was restarted"))
        if overdue:
            client.cancel(overdue, force=True)
            client.restart_workers(list(workers), raise_for_error=False)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
