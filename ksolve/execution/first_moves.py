"""One verification on a Dask cluster: its first attempts as tasks
(``ksolve verify PROBLEM --scheduler ADDRESS``).

The manager (this process) splits the verification at the top of the AND-OR
tree, where its questions are independent: each first attempt is a task,
decided by a worker as a local worker process decides its share
(``verification.decide_firsts``: at the stipulated depth first, then a key's
fewest moves; with several first classes or probes, by deepening from one
move).  The problem goes to every worker once (``Client.scatter``); a worker
keeps its analysis (the belief, built once) and its prover for the tasks of
that problem, so that they share its tables, and searches each attempt within
the time left of the verification's limit.  The answers are merged in the attempts' order, then
the duals of a single key are a task of their own and "Any?" first, when
nothing else wins, is searched here: the verdict, keys and tries are those of
one process (each answer is exact).

What a task reports besides its answer (``FirstOutcome``: nodes, seconds,
the worker) is what ``benchmarks/bench_deep_dask.py``'s cost model reads.

>>> from ksolve.execution.cluster import cluster_client
>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> with cluster_client(jobs=1) as client:
...     spread = verify_on_dask(problem, client)
>>> spread.report.verdict, [key.move for key in spread.report.keys], len(spread.report.tries), len(spread.outcomes)
('sound', ['h1h8'], 19, 20)
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ksolve.compilation import work_clock
from ksolve.search.run import Limits, Progress, Stats

if TYPE_CHECKING:
    from distributed import Client

    from ksolve.analysis import Analysis
    from ksolve.problem import Problem
    from ksolve.search.prover import Prover
    from ksolve.verification import FirstMove, Verification

GRACE = 5.0
"""Seconds past the verification's time limit after which the manager stops waiting for a task
(a worker stops its search at the limit itself; one node over a large belief may last longer)."""


@dataclass(frozen=True)
class ProofSpec:
    """What every task of one verification needs: the problem (a twin is a problem of its
    own), the rule set's and moves' overrides, the memory budget and node limit of a task,
    and ``token``, naming the verification so that a worker keeps its analysis for its tasks."""

    problem: "Problem"
    rules: str | None
    moves: int | None
    memory: int | None
    nodes: int | None
    token: str


@dataclass(frozen=True)
class FirstOutcome:
    """One task's answer: the first attempt, its fewest moves if it is a key, its
    refutation if it is a try, or why a limit stopped it; the work it took."""

    first: int
    fewest: int | None
    attempt: "FirstMove | None"
    aborted: str | None
    depth: int
    within: bool
    nodes: int
    seconds: float
    """The search's time on the worker (without compiling kernels)."""
    worker: str


@dataclass
class SpreadVerification:
    """A verification made on a cluster, and what each of its tasks took."""

    report: "Verification"
    outcomes: list[FirstOutcome] = field(default_factory=list)
    setup_seconds: float = 0.0
    """The manager's time before the tasks were handed out (its analysis, the problem scattered)."""
    duals_seconds: float = 0.0
    """The duals' task, from its hand-out to its answer."""


_HELD: dict[str, tuple["Analysis", "Prover"]] = {}
"""A worker's analysis and prover of the verification whose tasks it ran last, by its token."""


def _held(spec: ProofSpec, deadline: float | None, seconds: float | None) -> tuple["Analysis", "Prover"]:
    """The worker's analysis and prover for the verification ``spec`` names (made for its
    first task there, kept for the next, so that they share the prover's tables), the
    prover's limits set for one more task: the time left until ``deadline`` (wall clock;
    messages name the verification's ``seconds``) and the spec's nodes."""
    from ksolve.analysis import Analysis

    if spec.token not in _HELD:
        _HELD.clear()
        analysis = Analysis(spec.problem, spec.rules, spec.moves, spec.memory)
        _HELD[spec.token] = analysis, analysis.prover(Limits(memory=spec.memory))
    analysis, prover = _HELD[spec.token]
    stats, run = prover.stats, prover.run
    left = None if deadline is None else stats.seconds + max(0.0, deadline - time.time())
    run.limits = Limits(left, None if spec.nodes is None else stats.nodes + spec.nodes, run.limits.memory,
                        asked=Limits(seconds, spec.nodes))
    return analysis, prover


def decide_task(spec: ProofSpec, first: int, from_the_top: bool, deadline: float | None,
                seconds: float | None) -> FirstOutcome:
    """A worker's task: first attempt ``first`` decided (``verification.decide_firsts``)."""
    from distributed import get_worker

    from ksolve.verification import decide_firsts

    analysis, prover = _held(spec, deadline, seconds)
    nodes, started = prover.stats.nodes, prover.stats.seconds
    decided = decide_firsts(prover, [part.belief for part in analysis.classes], [first], analysis.moves,
                            from_the_top)
    return FirstOutcome(first, decided.needed.get(first), decided.tries[0] if decided.tries else None,
                        decided.aborted, decided.depth, decided.within, prover.stats.nodes - nodes,
                        prover.stats.seconds - started, get_worker().address)


def duals_task(spec: ProofSpec, key: int, deadline: float | None, seconds: float | None
               ) -> tuple[list[dict[str, Any]], bool, str | None]:
    """A worker's task: the duals of the single key's strategy (``verification.duals_of``)."""
    from ksolve.verification import duals_of

    analysis, prover = _held(spec, deadline, seconds)
    return duals_of(prover, [part.belief for part in analysis.classes], analysis.moves, key)


def verify_on_dask(problem: "Problem", client: "Client", rules: str | None = None, moves: int | None = None,
                   limits: Limits | None = None, tries: int | None = None, duals: bool = True,
                   progress: Progress | None = None) -> SpreadVerification:
    """``problem`` verified with its first attempts as tasks on ``client``'s cluster
    (``limits.seconds``: the whole verification's, from now)."""
    from distributed import as_completed

    from ksolve.analysis import Analysis
    from ksolve.execution.jobs import digest
    from ksolve.search.prover import ASK
    from ksolve.verification import conclude, duals_of, first_attempts, keys_first, new_report

    limits = limits or Limits()
    started, wall = work_clock(), time.time()
    deadline = None if limits.seconds is None else wall + limits.seconds
    analysis = Analysis(problem, rules, moves, limits.memory)
    classes = [part.belief for part in analysis.classes]
    firsts = first_attempts(analysis)
    from_the_top = keys_first(classes, firsts)
    spec = ProofSpec(problem, rules, moves, limits.memory, limits.nodes,
                     digest([problem.text, problem.id, rules, moves, wall]))
    shared = client.scatter(spec, broadcast=True)
    futures = {client.submit(decide_task, shared, first, from_the_top, deadline, limits.seconds,
                             key=f"ksolve-first-{spec.token}-{first}", priority=-index, pure=False): first
               for index, first in enumerate(firsts)}
    setup = time.time() - wall
    outcomes: dict[int, FirstOutcome] = {}
    stats, aborted = Stats(), None
    try:
        wait = None if deadline is None else max(0.0, deadline + GRACE - time.time())
        try:
            for future in as_completed(futures, timeout=wait):
                try:
                    outcome = future.result()
                except Exception as error:  # its worker died too often (killed, past its memory)
                    aborted = f"a worker's task failed: {type(error).__name__}: {error}"
                    client.cancel(list(futures))
                    break
                outcomes[outcome.first] = outcome
                stats.nodes += outcome.nodes
                if outcome.aborted is not None and aborted is None:
                    aborted = outcome.aborted
                    client.cancel([other for other in futures if not other.done()])
                    break
                if progress is not None:
                    progress(stats, analysis.moves)
        except TimeoutError:
            aborted = f"time limit {limits.seconds:g} s reached"
            client.cancel(list(futures))
    except KeyboardInterrupt:
        client.cancel(list(futures))
        raise
    report = new_report(analysis)
    needed = {first: outcomes[first].fewest for first in firsts
              if first in outcomes and outcomes[first].fewest is not None}
    found = [outcomes[first].attempt for first in firsts if first in outcomes and outcomes[first].attempt]
    undecided = {first: outcomes[first].depth if first in outcomes else 0 for first in firsts
                 if (first not in outcomes or outcomes[first].aborted is not None)
                 and not (first in outcomes and outcomes[first].within)}
    within = [first for first in firsts if first in outcomes and outcomes[first].within]
    question_prover = functools.cache(lambda: analysis.prover(replace(limits, seconds=_left(deadline))))
    duals_seconds = [0.0]

    def duals_on_worker(key: int) -> tuple[list[dict[str, Any]], bool, str | None]:
        if key == ASK:
            return duals_of(question_prover(), classes, analysis.moves, key)
        began = time.monotonic()
        try:
            return client.submit(duals_task, shared, key, deadline, limits.seconds, pure=False).result(
                timeout=None if deadline is None else max(0.0, deadline + GRACE - time.time()))
        except TimeoutError:
            return [], False, f"time limit {limits.seconds:g} s reached"
        finally:
            duals_seconds[0] = time.monotonic() - began

    conclude(report, analysis, needed, found, aborted, None, tries, question_prover,
             duals_on_worker if duals else None, undecided if aborted is not None else None, within)
    report.nodes, report.seconds = stats.nodes, work_clock() - started
    client.cancel([shared])
    return SpreadVerification(report, [outcomes[first] for first in firsts if first in outcomes], setup,
                              duals_seconds[0])


def _left(deadline: float | None) -> float | None:
    """Seconds left until ``deadline`` (None: no limit)."""
    return None if deadline is None else max(0.001, deadline - time.time())
