"""One verification over several worker processes (``ksolve verify FILE --jobs N``).

A verification is mostly finding which first attempts win, in how few
moves, and refuting the others.  First attempts are independent questions,
so they are shared among ``jobs`` worker processes (each with its own
prover, sharing the proofs, disproofs and orthodox bounds found,
``ksolve.search.shared``): each is handed to the next idle worker
(``Workers.keys_and_tries``), which decides it at the stipulated depth
first, then a key's fewest moves (with several first classes or probes it
deepens on the attempt from one move); what they find is merged.  Both are exact, so
the merged verdict, keys and tries are those of one process.  The duals of
a single key: a worker reads the strategy back into questions, one a White
turn (on a fresh prover, begun while the key is still being decided when a
worker is idle), and the workers then share their attempts.

Workers send their progress (nodes, depth) at most once a second, and say
when they compile kernels; Ctrl-C reaches only the parent, which stops them.
The parent holds the time limit: a worker stops itself at the limit between
two search nodes, but one node over a large belief is a kernel call that can
last long past it, so the parent stops the workers ``GRACE`` seconds past the
limit, and says the progress meanwhile once a second (``HEARTBEAT``).  That
is why a search over a belief of more than ``WATCHED_POSITIONS`` positions
runs in a worker process even with one job (``watched``).  A worker that dies
(out of memory, killed) ends the search as a limit does, with its reason.

>>> from ksolve.analysis import Analysis
>>> from ksolve.board import move_from_uci
>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> with Workers(jobs=2) as workers:
...     workers.load(Analysis(problem))
...     split = workers.keys_and_tries([move_from_uci("h1h8"), move_from_uci("h1g1")])
>>> [attempt.label for attempt in split.tries], list(split.needed.values())
(['Rg1'], [1])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any

from ksolve.compilation import heard_compilation, listen_to_compilation, work_clock
from ksolve.errors import InputError
from ksolve.search.prover import ASK
from ksolve.search.run import Limits, Progress, SearchAborted, Stats
from ksolve.execution.processes import become_worker, start_context, start_worker
from ksolve.execution.shared_block import SharedBlock

if TYPE_CHECKING:
    from ksolve.analysis import Analysis
    from ksolve.verification import DualQuestion, FirstMove

RACE_EPSILONS = (0.25, 0.5, 0.125, 0.75)
"""The 1 + epsilon share of each worker racing on one proof (``Workers.prove``)."""


PROGRESS_EVERY = 1.0
"""Seconds between two progress messages of a worker."""
HEARTBEAT = 1.0
"""Seconds between two progress reports of the parent while no worker reports."""
GRACE = 0.5
"""Seconds past the time limit after which the parent stops workers that have not stopped themselves
(a worker between two nodes stops at the limit itself, and says how far it got)."""
WATCHED_POSITIONS = 50_000
"""Beliefs larger than this are searched in a worker process even with one job
(``watched``): one step over them (a kernel call over every position: an
attempt's children and Black's replies to each) takes about a second from here."""
DIED = "a worker process died (out of memory, or killed)"


def worker_processes(analysis: "Analysis", limits: Limits | None, jobs: int) -> int:
    """How many worker processes search ``analysis`` (0: this process does):
    ``jobs`` when more than one, as many as the memory budget holds (the
    analysis's, ``Analysis.limits``), one for a ``watched`` belief;
    ``BudgetTooSmall`` when the budget holds no search at all, said before
    the search begins (``search.memory.fitting_processes``)."""
    from ksolve.search.memory import fitting_processes

    fitting = fitting_processes(analysis.belief.positions, analysis.rules.fog, analysis.limits(limits).memory,
                                max(1, jobs))
    if jobs > 1:
        return fitting
    return 1 if watched(len(analysis.belief), limits) else 0


def watched(positions: int, limits: Limits | None) -> bool:
    """Whether a search over a belief of ``positions`` under ``limits`` runs in a
    worker process, so that the parent holds its time limit: with a time limit
    and a belief larger than ``WATCHED_POSITIONS``.

    >>> watched(30, Limits(600)), watched(3_000_000, Limits(600)), watched(3_000_000, Limits())
    (False, True, False)
    """
    return limits is not None and limits.seconds is not None and positions > WATCHED_POSITIONS


@dataclass
class Split:
    """What the workers found: each key's fewest moves, the tries, and how far they got."""

    needed: dict[int, int] = field(default_factory=dict)
    tries: list["FirstMove"] = field(default_factory=list)
    nodes: int = 0
    aborted: str | None = None
    """Why a worker stopped early (its limit), None when all finished."""
    undecided: dict[int, int] = field(default_factory=dict)
    """The first attempts left undecided, each with the depth it stopped at (0: never begun)."""
    within: list[int] = field(default_factory=list)
    """Keys found to win within the moves whose fewest moves a limit left undecided."""


@dataclass
class Reading:
    """A worker reading a first attempt's strategy back into dual questions
    (``verification.dual_questions``) as search ``number`` of the shared block
    (superseded if the attempt turns out not to be the only key); the
    questions, or why there are none, once done."""

    first: int
    worker: int
    number: int
    questions: list["DualQuestion"] = field(default_factory=list)
    reason: str | None = None
    done: bool = False

    def dual_jobs(self) -> "DualJobs":
        """The questions read back, to be answered (its worker holds them already)."""
        return DualJobs(self.questions, reason=self.reason, holders={self.worker})


@dataclass
class DualJobs:
    """The dual questions of one key's strategy, answered one (question,
    attempt) pair at a time.  A worker keeps to one question until its
    attempts are all handed out, then takes the next question no worker has
    taken, the most moves left first (the longest jobs first, so that none
    is left alone at the end: family-11-walls-a5-e3's one question with 11
    moves left, listed 265th of 309, takes 46-70 s of the duals' 140-200 s of work);
    with none left it takes the last attempt of the question with the most
    left (its owner goes on from the front).  ``holders``: the workers sent
    the questions.

    >>> from types import SimpleNamespace
    >>> work = DualJobs([SimpleNamespace(attempts=[5], needed=1), SimpleNamespace(attempts=[7, 8, 9], needed=2)])
    >>> work.next_job(0), work.next_job(1), work.next_job(1), work.next_job(0), work.next_job(1)
    ((1, 7), (0, 5), (1, 9), (1, 8), None)
    >>> work.record((0, 8), True, None); work.complete()
    False
    """

    questions: list["DualQuestion"]
    reason: str | None = None
    """Why a question was left unanswered (a worker's limit), None while all go on."""
    holders: set[int] = field(default_factory=set)
    mates: set[tuple[int, int]] = field(default_factory=set)
    """The (question, attempt) pairs found to mate as fast as the strategy's move."""
    answered: int = 0
    left: dict[int, list[int]] = field(init=False)
    """Per question not yet handed out whole (the most moves left first), its attempts left."""
    taking: dict[int, int] = field(default_factory=dict)
    """Per worker, the question it keeps to."""

    def __post_init__(self) -> None:
        longest_first = sorted(range(len(self.questions)), key=lambda index: -self.questions[index].needed)
        self.left = {index: list(self.questions[index].attempts) for index in longest_first
                     if self.questions[index].attempts}

    def next_job(self, worker: int) -> tuple[int, int] | None:
        """The next (question index, attempt) for ``worker``, None when none is left
        (or a question was stopped)."""
        if self.reason is not None or not self.left:
            return None
        question = self.taking.get(worker)
        if question in self.left:
            attempt = self.left[question].pop(0)
        else:
            taken = set(self.taking.values())
            question = next((index for index in self.left if index not in taken), None)
            if question is not None:
                self.taking[worker] = question
                attempt = self.left[question].pop(0)
            else:
                question = max(self.left, key=lambda index: len(self.left[index]))
                attempt = self.left[question].pop()
        if not self.left[question]:
            del self.left[question]
        return question, attempt

    def record(self, job: tuple[int, int], mates: bool, stopped: str | None) -> None:
        """One worker's answer to ``job`` (``stopped``: why it has none)."""
        self.reason = self.reason or stopped
        if stopped is None:
            self.answered += 1
            if mates:
                self.mates.add(job)

    def complete(self) -> bool:
        """Whether every pair is answered, or one was stopped."""
        return self.reason is not None or self.answered == sum(len(question.attempts) for question in self.questions)

    def result(self) -> tuple[list[dict[str, Any]], bool, str | None]:
        """``(duals, all checked, why not)`` as ``Workers.duals`` gives them."""
        from ksolve.verification import dual_entries

        answers = [[move for move in question.attempts if (index, move) in self.mates]
                   for index, question in enumerate(self.questions)]
        return dual_entries(self.questions, answers), self.reason is None, self.reason


@dataclass
class Fewest:
    """What the workers found of the fewest moves: the key and its moves (None:
    none within the depths asked), the worker holding its proof, the deepest
    depth at which every attempt was refuted, and why a worker stopped early."""

    moves: int | None = None
    key: int | None = None
    worker: int = -1
    nodes: int = 0
    settled: int = 0
    aborted: str | None = None


class Workers:
    """``jobs`` worker processes (started by ``context``, default
    ``start_context()``); ``load`` gives them a problem (they can serve one
    after another), ``keys_and_tries`` and ``duals`` put them to work."""

    def __init__(self, jobs: int, context: BaseContext | None = None,
                 analysis: "Analysis | None" = None) -> None:
        self.progress: Progress | None = None
        self.started = work_clock()
        self.live: dict[int, tuple[int, int]] = {}
        """Per worker: its nodes and depth as last reported."""
        self.deadline: float | None = None
        """When (``work_clock``: compilation left out) the parent stops the workers."""
        self.limit = ""
        """What the time limit is called when the parent stops the workers at it."""
        self.stopped: str | None = None
        """Why the workers were stopped (the time limit, a death): every later request ends at once."""
        self.compiling: set[int] = set()
        """The workers compiling kernels now."""
        self.heard = 0.0
        """When (``work_clock``) the progress was last reported."""
        self.owner: dict[int, int] = {}
        """Which worker decided each first attempt (the key's worker reads its strategy back)."""
        self.early_duals: tuple[int, tuple[list[dict[str, Any]], bool, str | None]] | None = None
        """The first key found and its duals, looked for while other attempts went on."""
        self.pipes: list[Connection] = []
        self.processes = []
        self.block = SharedBlock.create(jobs)
        """The memory the workers of one proof share (``ksolve.search.shared``)."""
        self.loaded = False
        """Whether a problem was loaded (the block then holds its results)."""
        context = context or start_context()
        self.inherited = analysis if context.get_start_method() == "fork" else None
        """The analysis forked workers hold from the start (``load`` then sends none: a large belief
        is neither pickled nor copied, its pages shared with this process)."""
        for index in range(jobs):
            worker = start_worker(_serve, (index, self.block.address, self.inherited), context=context,
                                  name=f"ksolve-worker-{index}")
            self.pipes.append(worker.connection)
            self.processes.append(worker.process)

    def load(self, analysis: "Analysis", limits: Limits | None = None, progress: Progress | None = None) -> None:
        """Give every worker the analysis's problem, rules and moves (none when
        they hold it from the start), each with its share of the limits (the
        analysis's memory budget and the nodes split evenly), the time limit held here too."""
        jobs = len(self.pipes)
        limits = analysis.limits(limits)
        share = limits.share(jobs)
        self.progress, self.started, self.heard, self.live = progress, work_clock(), work_clock(), {}
        self.deadline = None if limits.seconds is None else self.started + limits.seconds + GRACE
        self.limit = "" if limits.seconds is None else f"time limit {limits.seconds:g} s reached"
        if self.loaded:
            self.block.clear()
        self.loaded = True
        try:
            for index in range(jobs):
                self._send(index, ("load", None if analysis is self.inherited else
                                   (analysis.problem, analysis.rules, analysis.moves), share))
            for _ in self._answers(range(jobs)):
                pass
        except SearchAborted:  # said by the work asked next
            pass

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker (at once: what they were doing is no longer wanted)."""
        if self.stopped is None:
            self._terminate()
        for pipe in self.pipes:
            pipe.close()
        self.block.close()

    def _terminate(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()
        self._compiled()

    def _compiled(self) -> None:
        """No worker compiles any more (for this process's clock)."""
        for _ in self.compiling:
            heard_compilation(False)
        self.compiling.clear()

    def _stop(self, reason: str) -> SearchAborted:
        """Stop every worker for ``reason`` (no later request is sent): the ``SearchAborted`` to raise.
        Killed, not waited for: one holding gigabytes takes a while to give them back, and the
        result need not wait (multiprocessing reaps them at exit)."""
        self.stopped = self.stopped or reason
        for process in self.processes:
            if process.is_alive():
                process.kill()
        self._compiled()
        return SearchAborted(self.stopped)

    def keys_and_tries(self, firsts: list[int], duals: bool = False, from_the_top: bool = False) -> Split:
        """Each first attempt handed to the next idle worker, which deepens on
        it alone (its fewest moves if it wins, else its refutation); the
        results merged in the attempts' order.  After a worker stops at its
        limit no more attempts are handed out.

        ``from_the_top`` (one first class, no probes): the worker decides the
        attempt at the stipulated depth first (``verification.decide_first``):
        a try is refuted there alone, and a key is said at once, before its
        fewest moves are found, so that a limit leaves it named (``within``).

        ``duals``: the first key's strategy is read back into questions
        (``verification.DualQuestion``) by a fresh prover, and their attempts
        are queued behind the first attempts, for any idle worker
        (``DualJobs``); the answers are kept for ``duals`` if that key stays the
        only one, and a second key (a cooked problem, whose duals are not looked
        for) drops those left.  A worker left idle while attempts are still
        being decided reads back the strategy of the first of them meanwhile,
        as if it were the key (``Reading``): stopped if it is not, a head start
        of the whole re-proof if it is (family-11-walls-a5-e3: 30 s)."""
        from ksolve.attempts import attempt_text

        pending = list(firsts)
        """The first attempts not yet handed out (the duals' jobs come after them)."""
        idle, busy = list(range(len(self.pipes))), {}
        self.owner, self.early_duals = {}, None
        nodes: dict[int, int] = {}
        split = Split()
        reading: Reading | None = None
        work: DualJobs | None = None

        def read_back(worker: int, first: int) -> Reading:
            idle.remove(worker)
            busy[worker] = ("questions", first)
            started = Reading(first, worker, self.block.next_search())
            self._send(worker, ("dual questions", first, started.number))
            return started

        def stop_reading() -> None:
            nonlocal reading
            if reading is not None and not reading.done:
                self.block.next_search()  # its worker stops (Superseded) and answers
            reading = None

        try:
            self._check_stopped()
            while True:
                while idle and split.aborted is None:
                    if pending:
                        worker, first = idle.pop(), pending.pop(0)
                        busy[worker], self.owner[first] = ("keys", first), worker
                        self._send(worker, ("decide", first) if from_the_top else ("keys", [first]))
                    elif work is not None and (job := work.next_job(idle[-1])) is not None:
                        worker = idle.pop()
                        busy[worker] = ("dual", *job)
                        self._ask_dual(worker, work, job)
                    else:
                        break
                if not busy:
                    break
                if duals and idle and reading is None and not split.needed and split.aborted is None:
                    deciding = [job[1] for job in busy.values() if job[0] == "keys"]
                    if deciding:
                        # the first that is known to win within the moves, else the first in order
                        reading = read_back(idle[-1], min(deciding, key=lambda first: (first not in split.within,
                                                                                       firsts.index(first))))
                worker, answer = self._next_answer(busy)
                if answer[0] == "key":  # it wins within the moves; its fewest comes next
                    split.within.append(busy[worker][1])
                    continue
                kind, *item = busy.pop(worker)
                idle.append(worker)
                if kind == "questions":
                    if reading is None or reading.worker != worker:
                        continue  # stopped: not the key after all
                    reading.questions, reading.reason, reading.done = answer[1], answer[2], True
                    if list(split.needed) == [reading.first]:
                        work = reading.dual_jobs()
                    continue
                if kind == "dual":
                    if work is not None:
                        work.record(tuple(item), answer[1], answer[2])
                    continue
                (first,) = item
                _, needed, tries, nodes[worker], aborted, depth = answer
                if needed:
                    split.within = [attempt for attempt in split.within if attempt not in needed]
                first_key = duals and needed and not split.needed and aborted is None
                split.needed.update(needed)
                if first_key and reading is not None and reading.first == first:
                    if reading.done:
                        work = reading.dual_jobs()
                elif first_key:
                    stop_reading()
                    reading = read_back(worker, first)
                elif reading is not None and (reading.first == first or len(split.needed) > 1):
                    stop_reading()  # a try, undecided, or a second key
                if len(split.needed) > 1:  # cooked: no duals wanted
                    work = None
                split.tries.extend(tries)
                if aborted is not None:
                    split.aborted = split.aborted or aborted
                    if first not in split.within:
                        split.undecided[first] = depth
        except SearchAborted as stop:  # the workers stopped: the attempts in hand are undecided
            split.aborted = split.aborted or str(stop)
            for job in busy.values():
                if job[0] == "keys" and job[1] not in split.within:
                    split.undecided[job[1]] = 0
            work = None
        if duals and len(split.needed) == 1 and work is not None and work.complete():
            self.early_duals = (next(iter(split.needed)), work.result())
        split.undecided.update(dict.fromkeys(pending, 0))
        split.undecided = {first: split.undecided[first] for first in firsts if first in split.undecided}
        split.within = [first for first in firsts if first in split.within]
        split.nodes = sum(nodes.values())
        order = {move: index for index, move in enumerate(firsts)}
        split.needed = dict(sorted(split.needed.items(), key=lambda item: order[item[0]]))
        uci_order = {attempt_text(move): index for index, move in enumerate(firsts)}
        split.tries.sort(key=lambda attempt: uci_order[attempt.move])  # as one process lists them
        return split

    def _ask_dual(self, worker: int, work: "DualJobs", job: tuple[int, int]) -> None:
        """Ask ``worker`` whether attempt ``job[1]`` mates at question ``job[0]``
        (sending it the questions first, once)."""
        if worker not in work.holders:
            self._send(worker, ("dual load", work.questions))
            work.holders.add(worker)
        self._send(worker, ("dual attempt", *job))

    def fewest(self, firsts: list[int], low: int, high: int) -> "Fewest":
        """The fewest moves (``low`` .. ``high``) with which one of ``firsts`` wins
        the analysis's one first class: the attempts dealt round-robin, each
        worker deepening on its share as one OR; a depth is settled when every
        worker has either refuted it or won at or below it.  A worker that
        refutes its whole share helps another still deepening: it takes the
        second half of the attempts that one has not yet handed out and deepens
        on them from that one's depth (the owner keeps its whole share, so
        what settles a depth is unchanged; a helper's win is a win).  The key is
        the first, in the attempts' order, of those found winning at that depth
        (with several keys, which one is found first may vary from run to run);
        asking "Any?" only when no attempt wins as fast, as in one process."""
        jobs = len(self.pipes)
        shares = {index: firsts[index::jobs] for index in range(jobs)}
        order = {first: index for index, first in enumerate(firsts)}
        done = dict.fromkeys(range(jobs), low - 1)
        """Per worker, the deepest depth refuted for its own share."""
        wins: dict[int, tuple[int, int]] = {}
        nodes: dict[int, int] = {}
        result = Fewest()
        running = set(range(jobs))
        owner_of: dict[int, int] = {}
        """Per helping worker, the worker whose share it took part of."""
        def settled(depth: int) -> bool:
            return all((w in wins and wins[w][0] <= depth) or done[w] >= depth for w in range(jobs))

        try:
            self._check_stopped()
            for index in range(jobs):
                self._send(index, ("fewest", shares[index], low, high), "solving")
            while True:
                best = min((depth for depth, _ in wins.values()), default=None)
                keys = [first for depth, first in wins.values() if depth == best]
                # "Any?" is a key only when no attempt wins as fast: then the whole depth must be known
                if best is not None and settled(best - 1) and (keys != [ASK] or settled(best)):
                    result.key = min(keys, key=lambda first: (first == ASK, order[first]))
                    result.moves = best
                    result.worker = next(w for w, won in wins.items() if won == (best, result.key))
                    break
                if not running:
                    break
                worker, message = self._next_answer(running, "solving")
                if message[0] == "depth":
                    if worker not in owner_of:
                        done[worker] = message[1]
                    continue
                _, won, nodes[worker], aborted = message
                running.discard(worker)
                if won is not None:
                    wins[worker] = won
                elif aborted is not None:
                    result.aborted = result.aborted or aborted
                else:
                    if worker not in owner_of:
                        done[worker] = high  # its whole share refuted
                    self._help(worker, shares, running, owner_of, done, high if best is None else best - 1)
        except SearchAborted as stop:
            result.aborted = str(stop)
        result.nodes = sum(nodes.values())
        result.settled = min(done.values())
        return result

    def _help(self, worker: int, shares: dict[int, list[int]], running: set[int], owner_of: dict[int, int],
              done: dict[int, int], high: int) -> None:
        """Hand idle ``worker`` the second half of the largest share a running
        worker has not yet handed out (that share keeps the first half), to
        deepen on from its owner's depth up to ``high``; nothing if no share
        has two attempts left."""
        candidates = [other for other in running if len(shares[other]) > 1]
        if not candidates:
            return
        other = max(candidates, key=lambda candidate: len(shares[candidate]))
        owner = owner_of.get(other, other)
        start = done[owner] + 1
        if start > high:
            return
        half = len(shares[other]) // 2
        shares[worker], shares[other] = shares[other][half:], shares[other][:half]
        owner_of[worker] = owner
        running.add(worker)
        self._send(worker, ("fewest", shares[worker], start, high), "solving")

    def prove(self, low: int, high: int) -> "Fewest":
        """The fewest moves (``low`` .. ``high``) with which White wins the
        analysis's one first class, the workers racing: each searches the whole
        tree by proof-number search on its own, tuned differently
        (``RACE_EPSILONS``; the first worker as one process), and the first to
        decide a depth decides it (the others' searches are then superseded).
        The key is that worker's winning attempt.  Proof-number search is
        chaotic (a small change of its tuning can double or halve its nodes on
        one problem), so the fastest of several is often much faster than one,
        and never slower but for starting the workers."""
        jobs = len(self.pipes)
        result = Fewest()
        nodes: dict[int, int] = {}
        try:
            self._check_stopped()
            for depth in range(low, high + 1):
                number = self.block.next_search()
                for index in range(jobs):
                    self._send(index, ("prove", number, depth), "solving")
                decided: tuple[int, Any] | None = None
                waiting = set(range(jobs))
                while waiting:
                    worker, (_, won, key, nodes[worker], aborted) = self._next_answer(waiting, "solving")
                    waiting.discard(worker)
                    if decided is None and (won is not None or aborted is not None):
                        decided = worker, (won, key, aborted)
                        self.block.next_search()  # the others stop
                worker, (won, key, aborted) = decided
                if aborted is not None:
                    result.aborted = aborted
                    break
                if won:
                    result.moves, result.key, result.worker = depth, key, worker
                    break
                result.settled = depth
        except SearchAborted as stop:
            result.aborted = str(stop)
        result.nodes = sum(nodes.values())
        return result

    def tree(self, result: "Fewest") -> tuple[Any, str | None]:
        """The strategy of ``result``'s key, read from its worker's tables:
        ``(tree, None)``, or ``(None, why not)`` when reading it back reached
        the run's limits."""
        try:
            self._check_stopped()
            self._send(result.worker, ("tree", result.key, result.moves))
            _, tree, reason = next(self._answers([result.worker]))
        except SearchAborted as stop:
            return None, f"the strategy was not read back: {stop}"
        return tree, reason

    def duals(self, key: int) -> tuple[list[dict[str, Any]], bool, str | None]:
        """The duals of the key's strategy: ``(duals, all checked, why not)``.
        The worker that proved the key reads its strategy back into questions,
        one a White turn (``verification.DualQuestion``), and each of their
        attempts goes to the next idle worker (``DualJobs``), so that the duals,
        otherwise most of a long verification's time, are shared by all workers."""
        if self.early_duals is not None and self.early_duals[0] == key:
            return self.early_duals[1]
        try:
            self._check_stopped()
            self._send(self.owner[key], ("dual questions", key, None))
            _, questions, reason = next(self._answers([self.owner[key]]))
        except SearchAborted as stop:
            return [], False, str(stop)
        work = DualJobs(questions, reason=reason, holders={self.owner[key]})
        idle, busy = list(range(len(self.pipes))), {}
        try:
            while True:
                while idle and (job := work.next_job(idle[-1])) is not None:
                    worker = idle.pop()
                    busy[worker] = job
                    self._ask_dual(worker, work, job)
                if not busy:
                    break
                worker, (_, mates, stopped) = self._next_answer(busy)
                work.record(busy.pop(worker), mates, stopped)
                idle.append(worker)
        except SearchAborted as stop:
            work.reason = work.reason or str(stop)
        return work.result()

    def _answers(self, workers) -> Any:
        """The next answer of each of ``workers``."""
        waiting = {index: None for index in workers}
        while waiting:
            worker, message = self._next_answer(waiting)
            del waiting[worker]
            yield message

    def _check_stopped(self) -> None:
        """``SearchAborted`` if the workers were stopped (no request can be answered)."""
        if self.stopped is not None:
            raise SearchAborted(self.stopped)

    def _send(self, worker: int, request: tuple, what: str = "verification") -> None:
        """Send ``request`` to ``worker``; one that has died stops the workers
        (``SearchAborted``: its pipe is closed, the request cannot even be written)."""
        try:
            self.pipes[worker].send(request)
        except OSError:  # BrokenPipeError and the like
            raise self._stop(DIED) from None

    def _next_answer(self, workers, what: str = "verification") -> tuple[int, Any]:
        """The next message but progress of one of ``workers`` (a collection of
        their indexes), relaying their progress meanwhile (and saying it once a
        ``HEARTBEAT`` while none reports); a worker's bad input is raised
        (``InputError``); past the time limit and ``GRACE`` (compilation left
        out), or when a worker dies, the workers are stopped (``SearchAborted``)."""
        pipes = {self.pipes[index]: index for index in workers}
        while True:
            now = work_clock()
            if self.deadline is not None and now >= self.deadline:
                raise self._stop(self.limit)
            if now - self.heard >= HEARTBEAT:
                self._report()
            wake = HEARTBEAT if self.deadline is None else min(HEARTBEAT, max(0.01, self.deadline - now))
            for pipe in wait(list(pipes), timeout=wake):
                try:
                    message = pipe.recv()
                except (EOFError, OSError):
                    raise self._stop(DIED) from None
                if message[0] == "progress":
                    self._progress(pipes[pipe], *message[1:])
                    continue
                if message[0] == "compiling":
                    self._compiling(pipes[pipe], message[1])
                    continue
                if message[0] == "error":
                    raise message[1]
                return pipes[pipe], message

    def _compiling(self, worker: int, compiling: bool) -> None:
        """A worker began or ended compiling kernels: this process's clock leaves it out."""
        if compiling and worker not in self.compiling:
            self.compiling.add(worker)
            heard_compilation(True)
        elif not compiling and worker in self.compiling:
            self.compiling.discard(worker)
            heard_compilation(False)

    def _progress(self, worker: int, nodes: int, depth: int) -> None:
        self.live[worker] = (nodes, depth)
        self._report()

    def _report(self) -> None:
        """Tell the progress callback the workers' nodes and depth as last reported."""
        self.heard = work_clock()
        if self.progress is None:
            return
        stats = Stats(nodes=sum(n for n, _ in self.live.values()), started=self.started)
        self.progress(stats, min((d for _, d in self.live.values()), default=1))


def _serve(pipe: Connection, index: int, address: tuple[str, int, int, int], inherited: "Analysis | None") -> None:
    """Worker ``index``: answer ``load`` (build the analysis, or take the ``inherited`` one), ``keys``, ``decide``,
    ``fewest``, ``prove``, ``tree``, ``dual questions``, ``dual load`` and ``dual attempt`` requests, sharing
    the block at ``address``."""
    become_worker()  # Ctrl-C is the parent's to handle; a killed parent ends the worker
    listen_to_compilation(lambda compiling: pipe.send(("compiling", compiling)))
    from ksolve.analysis import Analysis
    from ksolve.search.pns import ProofNumberSearch
    from ksolve.execution.shared_block import SharedBlock
    from ksolve.search.shared import Superseded
    from ksolve.solution import strategy_tree
    from ksolve.verification import decide_firsts, dual_mates, dual_questions

    block = SharedBlock.attach(*address)

    last = [0.0]

    def progress(stats: Stats, depth: int) -> None:
        if stats.seconds - last[0] >= PROGRESS_EVERY:
            last[0] = stats.seconds
            pipe.send(("progress", stats.nodes, depth))

    prover = classes = moves = private_orthodox = dual_search = None
    held: list = []
    """The dual questions last read back or sent ("dual load")."""
    while True:
        try:
            request = pipe.recv()
        except EOFError:
            return
        if request[0] == "load":
            _, given, limits = request
            last[0] = 0.0
            try:
                analysis = inherited if given is None else Analysis(*given)
                moves = analysis.moves
                classes = [first.belief for first in analysis.classes]
                prover, dual_search, held = analysis.prover(limits, progress), None, []
                prover.table.shared = block.results
                private_orthodox, prover.orthodox = prover.orthodox, block.orthodox_table(prover.memory.orthodox_slots)
            except InputError as error:
                pipe.send(("error", error))
                continue
            pipe.send(("loaded",))
        elif request[0] in ("keys", "decide"):  # "decide": one attempt, ("key",) said as soon as it wins
            from_the_top = request[0] == "decide"
            firsts = [request[1]] if from_the_top else request[1]
            decided = decide_firsts(prover, classes, firsts, moves, from_the_top,
                                    (lambda: pipe.send(("key",))) if from_the_top else None)
            pipe.send(("keys", decided.needed, decided.tries, prover.stats.nodes, decided.aborted,
                       decided.depth))
        elif request[0] == "fewest":
            _, group, low, high = request
            search = ProofNumberSearch(prover)
            won, aborted = None, None
            try:
                for depth in range(low, high + 1):
                    prover.run.depth = depth
                    first = search.first_wins(classes[0], depth, group)
                    if first is not None:
                        won = (depth, first)
                        break
                    pipe.send(("depth", depth))
            except SearchAborted as stop:
                aborted = str(stop)
            pipe.send(("fewest", won, prover.stats.nodes, aborted))
        elif request[0] == "prove":
            _, number, depth = request
            # racing: each search on its own, the first worker's as one process's
            prover.table.shared, prover.orthodox = None, private_orthodox
            search = ProofNumberSearch(prover)
            search.epsilon = RACE_EPSILONS[index % len(RACE_EPSILONS)]
            search.still_wanted = lambda: block.still_current(number)
            won = key = aborted = None
            try:
                prover.run.depth = depth
                won = search.wins(classes[0], depth)
                if won:
                    key = prover.winning_move(classes[0], depth, search=search)[0]
            except Superseded:
                pass
            except SearchAborted as stop:
                aborted = str(stop)
            search.still_wanted = None
            pipe.send(("proved", won, key, prover.stats.nodes, aborted))
        elif request[0] == "tree":
            try:
                pipe.send(("tree", strategy_tree(prover, classes[0], request[2], first=request[1],
                                                 search=ProofNumberSearch(prover)), None))
            except SearchAborted as stop:  # reading back searched again, past the run's limits
                pipe.send(("tree", None, f"the strategy was not read back: {stop}"))
        elif request[0] == "dual questions":  # read back by a fresh prover, stopped when superseded
            _, key, number = request
            try:
                held = dual_questions(prover, classes, moves, key,
                                      None if number is None else lambda: block.still_current(number))
                pipe.send(("dual questions", held, None))
            except (SearchAborted, ValueError) as stop:  # ValueError: the attempt does not win
                pipe.send(("dual questions", [], str(stop)))
        elif request[0] == "dual load":  # the questions the next "dual attempt" requests are about
            held = request[1]
        elif request[0] == "dual attempt":
            _, question, attempt = request
            dual_search = dual_search or ProofNumberSearch(prover)
            try:
                pipe.send(("dual attempt", dual_mates(dual_search, held[question], attempt), None))
            except SearchAborted as stop:
                pipe.send(("dual attempt", False, str(stop)))
