"""Where one proof runs, chosen here and nowhere else: in this process
(``ksolve.solver.solve``, ``ksolve.verification.verify``), or in local worker
processes sharing its tables (``workers.Workers``): with ``jobs`` above one
(and more than one first choice to share), or for a belief large enough that
only a parent outside the search holds its time limit (``workers.watched``).
Many independent proofs go to a Dask cluster instead (``cluster.py``).

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> solve(problem).key, verify(problem).verdict
('h1h8', 'short solution')
"""

from __future__ import annotations

import functools
from contextlib import nullcontext
from typing import TYPE_CHECKING

from ksolve.compilation import work_clock
from ksolve.search.run import Limits, Progress

if TYPE_CHECKING:
    from ksolve.analysis import Analysis
    from ksolve.execution.workers import Workers
    from ksolve.problem import Problem
    from ksolve.rules.base import RuleSet
    from ksolve.solver import Solution
    from ksolve.verification import Verification


def solve(problem: "Problem | Analysis", moves: int | None = None, rules: "RuleSet | str | None" = None,
          limits: Limits | None = None, progress: Progress | None = None, tree: bool = True,
          search: str = "pn", shortest: bool = True, jobs: int = 1) -> "Solution":
    """``ksolve.solver.solve`` where it runs best: ``jobs`` worker processes sharing White's
    first attempts (with one first class and no probes, else one process; a large belief
    is searched in a worker even with one job, so that the time limit holds)."""
    from ksolve.execution.workers import worker_processes
    from ksolve.solver import as_analysis, root_choices, solve as solve_here

    started = work_clock()  # the search's time, without compiling kernels
    analysis = as_analysis(problem, rules, moves)
    processes = worker_processes(analysis, limits, jobs)
    firsts = root_choices(analysis) if processes else []
    if len(firsts) > 1:
        return _solve_in_workers(analysis, firsts, processes, limits, progress, tree, shortest, started)
    return solve_here(analysis, limits=limits, progress=progress, tree=tree, search=search, shortest=shortest)


def verify(problem: "Problem | Analysis", moves: int | None = None, rules: "RuleSet | str | None" = None,
           limits: Limits | None = None, tries: int | None = None, duals: bool = True,
           progress: Progress | None = None, jobs: int = 1, workers: "Workers | None" = None) -> "Verification":
    """``ksolve.verification.verify`` where it runs best: ``jobs`` worker processes sharing the
    first attempts (``workers``: such processes already started, left running)."""
    from ksolve.execution.workers import worker_processes
    from ksolve.solver import as_analysis
    from ksolve.verification import first_attempts, verify as verify_here

    started = work_clock()
    analysis = as_analysis(problem, rules, moves)
    processes = worker_processes(analysis, limits, jobs) if workers is None else len(workers.pipes)
    firsts = first_attempts(analysis)
    if processes and len(firsts) > 1:
        return _verify_in_workers(analysis, firsts, processes, workers, limits, tries, duals, progress, started)
    return verify_here(analysis, limits=limits, tries=tries, duals=duals, progress=progress)


def _solve_in_workers(analysis: "Analysis", firsts: list[int], jobs: int, limits: Limits | None,
                      progress: Progress | None, tree: bool, shortest: bool, started: float) -> "Solution":
    """A solve with the first attempts shared by ``jobs`` worker processes."""
    from ksolve.attempts import attempt_text
    from ksolve.execution.workers import Workers
    from ksolve.solver import NO_SOLUTION, SOLVED, established, new_solution

    solution = new_solution(analysis, shortest)
    with Workers(min(jobs, len(firsts)), analysis=analysis) as workers:
        workers.load(analysis, limits, progress)
        if shortest:  # every shorter depth refuted: each worker refutes its share of the first attempts
            found = workers.fewest(firsts, 1, analysis.moves)
        else:  # one proof: every worker on the whole tree, on different parts of it
            found = workers.prove(analysis.moves, analysis.moves)
        solution.nodes = found.nodes
        if found.moves is not None:
            solution.status, solution.moves, solution.key = SOLVED, found.moves, attempt_text(found.key)
            if tree:
                solution.tree, reason = workers.tree(found)
                solution.reason = reason or ""
        elif found.aborted is None:
            solution.status = NO_SOLUTION
        else:
            solution.reason = found.aborted + established(analysis, found.settled + 1, shortest)
    solution.seconds = work_clock() - started
    return solution


def _verify_in_workers(analysis: "Analysis", firsts: list[int], processes: int, workers: "Workers | None",
                       limits: Limits | None, tries: int | None, duals: bool, progress: Progress | None,
                       started: float) -> "Verification":
    """A verification with the first attempts shared by ``processes`` worker processes
    (``workers``: already started, left running)."""
    from ksolve.execution.workers import Workers
    from ksolve.search.prover import ASK
    from ksolve.verification import conclude, duals_of, keys_first, new_report

    classes = [first.belief for first in analysis.classes]
    report = new_report(analysis)
    pool_here = workers is None
    with Workers(min(processes, len(firsts)), analysis=analysis) if pool_here else nullcontext(workers) as pool:
        pool.load(analysis, limits, progress)
        split = pool.keys_and_tries(firsts, duals=duals, from_the_top=keys_first(classes, firsts))
        question_prover = functools.cache(lambda: analysis.prover(limits, progress))
        """Asking "Any?" first is searched here, when no attempt wins (rare): so are its duals."""
        conclude(report, analysis, split.needed, split.tries, split.aborted, None, tries, question_prover,
                 (lambda key: duals_of(question_prover(), classes, analysis.moves, key) if key == ASK
                  else pool.duals(key)) if duals else None, split.undecided, split.within)
    report.nodes, report.seconds = split.nodes, work_clock() - started
    return report
