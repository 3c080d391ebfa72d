"""The Try-it trials (``ksolve.Trial``) kept in worker processes, out of the server's.

A trial's step searches for up to ten seconds in numba kernels that hold the
interpreter's lock while they run: in a thread of the server it stalled the
event loop and every other request (during 1.Ke1 of Rotenberg 1976, 5 s, a
problem check took 45 ms at the median and up to 0.3 s; 3 ms and 10 ms with
the trial in its own process: ``benchmarks/bench_tryit.py``).
So the trials live in ``TRIAL_PROCESSES`` spawned processes (started when a
trial first needs one, ending with the server, as the jobs' and the checks'
workers do: ``ksolve.execution.processes``), each trial pinned to the process that
made it.  A process answers its requests one at a time over a pipe; the
server waits for the answer in a thread blocked on the pipe, which holds no
lock the event loop needs.

The server side (``TrialPool``) keeps the trial ids in a bounded store, the
least recently used dropped first (the processes hear of dropped and ended
trials with their next request).  A bad request gets its one line and the
process goes on; a process that dies (killed, or stopped after
``ANSWER_WITHIN`` seconds without an answer) loses its trials, which then
raise ``TrialLost``, and the next new trial starts a new process.

>>> store = TrialStore(capacity=1)
>>> store.add("a", "first"); store.add("b", "second")
[]
[('a', 'first')]
>>> store.get("b"), len(store)
('second', 1)
"""

from __future__ import annotations

import functools
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ksolve.errors import InputError
from ksolve.execution.processes import Answer, ProcessLost, ProcessUnavailable, RequestServer, serve_requests

if TYPE_CHECKING:
    from ksolve.execution.processes import Connection

MAX_TRIALS = 32
"""Trials kept at once (a trial holds its search table: about 30 MB after a long game of
Rotenberg 1976); starting one more drops the least recently used."""
TRIAL_MEMORY = 1 << 30
"""The memory budget of a trial's belief and search tables: its process's resident size, the
kernels included (the belief's share: about 2.4 million positions)."""
TRIAL_PROCESSES = 2
"""Processes holding the trials: two people's steps search at once (each process answers one
request at a time); the second starts only when a second trial is made."""
TRIAL_NICENESS = 0
"""How much a trial's process yields the processor (Unix ``nice``): not at all, unlike the long
jobs' (``worker.JOB_NICENESS``, 10).  Someone waits for each step, and a step's limit is in
seconds: at nice 5, a stream of problem checks made 1.Ke1 of Rotenberg 1976 run out of its
10 s ("not decided") in two runs of three, at nice 0 in none; the checks, in their own
processes, no longer wait for it either way."""
ANSWER_WITHIN = 120.0
"""Seconds a request may take before its process is stopped (a step searches for at most
``ksolve.trial.STEP_LIMITS``, 10 s; starting a trial loads its belief first)."""

Request = tuple[str, str, Any]
"""``(operation, trial id, argument)``: ``("create", id, "<TOML>")``, ``("view", id, None)``,
``("attempt", id, "<uci>" | "any")``."""


class NoSuchTrial(Exception):
    """No trial of that id (it ended, or was dropped)."""


class TrialLost(Exception):
    """The trial's process died: the trial is gone."""


class TrialsUnavailable(Exception):
    """No process could make the trial (its process died while starting it)."""


# --- the server's side ---------------------------------------------------------------
V = TypeVar("V")


class TrialStore(Generic[V]):
    """Values by trial id: bounded, least recently used dropped first.  Thread-safe."""

    def __init__(self, capacity: int = MAX_TRIALS) -> None:
        self.capacity = capacity
        self._values: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, trial_id: str, value: V) -> list[tuple[str, V]]:
        """Keep ``value``; the ids and values dropped to make room for it."""
        dropped = []
        with self._lock:
            self._values[trial_id] = value
            while len(self._values) > self.capacity:
                dropped.append(self._values.popitem(last=False))
        return dropped

    def get(self, trial_id: str) -> V:
        """The value of ``trial_id`` (``NoSuchTrial`` if there is none), now the most recently used."""
        with self._lock:
            value = self._values.get(trial_id)
            if value is not None:
                self._values.move_to_end(trial_id)
        if value is None:
            raise NoSuchTrial(f"no trial {trial_id!r} (it ended, or was dropped: at most {self.capacity} "
                              "are kept; start a new one)")
        return value

    def remove(self, trial_id: str) -> V:
        with self._lock:
            value = self._values.pop(trial_id, None)
        if value is None:
            raise NoSuchTrial(f"no trial {trial_id!r}")
        return value

    def values(self) -> list[V]:
        with self._lock:
            return list(self._values.values())

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


class TrialHost:
    """One process holding trials (``ksolve.execution.processes.RequestServer``).  ``call``
    sends a request and waits for its answer, one request at a time, with the trials to
    drop; a request that names an older ``generation`` (its trials died with their
    process) raises ``TrialLost``."""

    def __init__(self, name: str) -> None:
        self.server = RequestServer(name, serve_trials, ANSWER_WITHIN)
        self._drops: list[str] = []
        self._drops_lock = threading.Lock()

    @property
    def generation(self) -> int:
        return self.server.generation

    @property
    def ended(self) -> str:
        """How the last process ended (for the lost trials' line)."""
        return self.server.ended

    def call(self, generation: int | None, request: Request) -> tuple[Answer, int]:
        """Send ``request`` to the process of ``generation`` (None: the live one, started if
        need be) and wait for its answer; the answer and the generation that gave it.  Blocks:
        call it in a thread."""
        with self._drops_lock:
            drops, self._drops = self._drops, []
        try:
            return self.server.call(generation, (*request, drops))
        except ProcessUnavailable as error:
            raise TrialsUnavailable(f"cannot start the Try-it process: {error}") from None
        except ProcessLost as lost:
            raise TrialLost(str(lost)) from None

    def drop(self, generation: int, trial_ids: list[str]) -> None:
        """Tell the process of ``generation`` to forget ``trial_ids`` (with its next request)."""
        with self._drops_lock:
            if generation == self.generation:
                self._drops.extend(trial_ids)

    def pid(self) -> int | None:
        return self.server.pid()

    def shutdown(self) -> None:
        """Stop the process (it loses its trials); the next ``call`` starts a new one."""
        with self._drops_lock:
            self._drops = []
        self.server.shutdown("was stopped with the server")


@dataclass(frozen=True)
class _Pinned:
    """Where a trial lives."""

    process: TrialHost
    generation: int


class TrialPool:
    """The trials of the Try-it routes, each pinned to one of ``processes`` processes (a new
    trial goes to the one holding the fewest); at most ``capacity`` kept.  The methods block
    while the process works: call them in a thread.

    Raises ``NoSuchTrial`` (an unknown id), ``TrialLost`` (its process died),
    ``TrialsUnavailable`` (no process could make the trial), ``InputError`` (a bad problem
    or move: the one line), ``RuntimeError`` (a bug in the process: its traceback went to
    the server's stderr)."""

    def __init__(self, processes: int = TRIAL_PROCESSES, capacity: int = MAX_TRIALS) -> None:
        self.processes = [TrialHost(f"trials-{number}") for number in range(processes)]
        self.store: TrialStore[_Pinned] = TrialStore(capacity)

    def start(self, problem: str) -> tuple[str, dict[str, Any]]:
        """A new trial of the problem ``problem`` (TOML): its id and its view."""
        trial_id = secrets.token_hex(8)
        process = self._least_loaded()
        try:
            answer, generation = process.call(None, ("create", trial_id, problem))
        except TrialLost as lost:
            raise TrialsUnavailable(f"the Try-it process {lost} while starting the trial; try again") from None
        view = _result(answer, trial_id)
        for dropped in self.store.add(trial_id, _Pinned(process, generation)):
            self._drop(*dropped)
        return trial_id, view

    def find(self, trial_id: str) -> _Pinned:
        """Where ``trial_id`` lives (``NoSuchTrial``; ``TrialLost`` if its process is known to have died)."""
        pinned = self.store.get(trial_id)
        if pinned.generation != pinned.process.generation:
            raise self._lost(trial_id, pinned)
        return pinned

    def view(self, trial_id: str) -> dict[str, Any]:
        """What White knows now (``TrialView.as_dict``)."""
        return self._call(trial_id, "view", None)

    def attempt(self, trial_id: str, move: str) -> dict[str, Any]:
        """White attempts ``move`` (UCI, or "any"): ``TrialStep.as_dict`` and the ``view`` after it."""
        return self._call(trial_id, "attempt", move)

    def end(self, trial_id: str) -> None:
        """Forget ``trial_id`` at once (its process drops it with its next request)."""
        self._drop(trial_id, self.store.remove(trial_id))

    def pid(self, trial_id: str) -> int | None:
        """The process id holding ``trial_id`` (None once it died)."""
        return self.find(trial_id).process.pid()

    def shutdown(self) -> None:
        """Stop the processes and forget the trials (the server is stopping)."""
        self.store.clear()
        for process in self.processes:
            process.shutdown()

    def __len__(self) -> int:
        return len(self.store)

    def _call(self, trial_id: str, operation: str, argument: Any) -> dict[str, Any]:
        pinned = self.find(trial_id)
        try:
            answer, _ = pinned.process.call(pinned.generation, (operation, trial_id, argument))
        except TrialLost:
            raise self._lost(trial_id, pinned) from None
        return _result(answer, trial_id)

    def _lost(self, trial_id: str, pinned: _Pinned) -> TrialLost:
        return TrialLost(f"trial {trial_id!r} is lost: its process {pinned.process.ended}; start a new trial")

    def _least_loaded(self) -> TrialHost:
        held = {id(process): 0 for process in self.processes}
        for pinned in self.store.values():
            if pinned.generation == pinned.process.generation:
                held[id(pinned.process)] += 1
        return min(self.processes, key=lambda process: held[id(process)])

    def _drop(self, trial_id: str, pinned: _Pinned) -> None:
        pinned.process.drop(pinned.generation, [trial_id])


def _result(answer: Answer, trial_id: str) -> dict[str, Any]:
    kind, value = answer
    if kind == "ok" and value is not None:
        return value
    if kind == "ok":
        raise NoSuchTrial(f"no trial {trial_id!r} (it ended, or was dropped; start a new one)")
    if kind == "input":
        raise InputError(value)
    raise RuntimeError(f"the Try-it process failed: {value}")


# --- in the trials' process ------------------------------------------------------------------
def serve_trials(connection: "Connection") -> None:
    """A trials process's whole life: answer each request until the server closes the pipe
    (``serve_requests``: a request that fails gets its one line and the process goes on)."""
    serve_requests(connection, functools.partial(_serve, {}), TRIAL_NICENESS)


def _serve(trials: dict[str, Any], request: tuple[str, str, Any, list[str]]) -> dict[str, Any] | None:
    """The answer to one request (None: no such trial in this process)."""
    import ksolve

    operation, trial_id, argument, drops = request
    for dropped in drops:
        trials.pop(dropped, None)
    if operation == "create":
        problem = ksolve.load_problem_text(argument, resources=ksolve.Resources(TRIAL_MEMORY))
        trial = ksolve.Trial(problem)
        trials[trial_id] = trial
        return trial.view().as_dict()
    trial = trials.get(trial_id)
    if trial is None:
        return None
    if operation == "view":
        return trial.view().as_dict()
    if operation == "attempt":
        return {**trial.attempt(argument).as_dict(), "view": trial.view().as_dict()}
    raise ValueError(f"unknown request {operation!r}")
