"""Solve a problem: iterative deepening over its analysis (``ksolve.analysis``)
with a named search, and the strategy tree of the win found.

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> result = solve(problem)
>>> result.status, result.moves, result.key
('solved', 1, 'h1h8')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import networkx as nx
import numpy as np

from ksolve.analysis import Analysis, FirstClass
from ksolve.attempts import attempt_from_text, attempt_text
from ksolve.belief import BeliefState
from ksolve.compilation import work_clock
from ksolve.problem import Problem
from ksolve.rules.base import FRESH, RuleSet
from ksolve.search.base import Search, make_search
from ksolve.search.prover import ASK, Prover
from ksolve.search.run import Limits, Progress, SearchAborted
from ksolve.solution import belief_summary, key_move, strategy_tree

SOLVED, NO_SOLUTION, UNKNOWN = "solved", "no solution", "unknown"


@dataclass
class Solution:
    """What a solve found (``ksolve.report`` renders it; ``_repr_html_`` shows it in Jupyter)."""

    status: str
    """``solved``, ``no solution`` (proved: no win within the moves) or ``unknown``."""
    moves: int | None
    """The fewest moves that win (when solved); with ``shortest`` False, the
    moves proven (a shorter win was not looked for)."""
    max_moves: int
    key: str | None
    """The first attempt as UCI ("any": asking "Any?"); None when it depends
    on the first announcement or nothing was proven."""
    belief_size: int
    nodes: int
    seconds: float
    reason: str = ""
    tree: nx.DiGraph | None = None
    classes: list[tuple[str, int]] = field(default_factory=list)
    """The initial classes (what White hears first) and their sizes."""
    shortest: bool = True
    """Whether every shorter win was refuted (``moves`` is the fewest)."""
    rules: str = ""
    """The rule set solved under."""
    problem: Problem | None = field(default=None, repr=False, compare=False)

    def _repr_html_(self) -> str:
        from ksolve.report.notebook import solution_html

        return solution_html(self)


def as_analysis(problem: Problem | Analysis, rules: RuleSet | str | None = None, moves: int | None = None
                ) -> Analysis:
    """``problem``'s analysis (a given analysis is used as it is when nothing overrides it)."""
    if isinstance(problem, Analysis):
        if rules is None and moves is None:
            return problem
        problem = problem.problem
    return Analysis(problem, rules, moves)


def solve(problem: Problem | Analysis, moves: int | None = None, rules: RuleSet | str | None = None,
          limits: Limits | None = None, progress: Progress | None = None, tree: bool = True,
          search: str = "pn", shortest: bool = True) -> Solution:
    """Prove or refute the problem's stipulation in this process (``moves``/``rules``
    override the file's; ``ksolve.solve`` chooses where it runs: ``ksolve.execution.executors``).

    ``search``: a name of ``ksolve.search.base.SEARCHES`` (``pn``: df-pn,
    ``dfs``: the depth-first prover alone); both prove the same results, at
    different speeds.  ``shortest``: deepen from one move so that the fewest
    moves are found; False proves the stipulation alone (mate in at most n),
    which is much cheaper for long problems: refuting the depths below the
    mate is the costly part.  Raises ``ProblemError`` for a rule set whose goal
    differs from the stipulation's, ``BudgetTooSmall`` when the memory budget
    holds no search of the belief."""
    started = work_clock()  # the search's time, without compiling kernels
    analysis = as_analysis(problem, rules, moves)
    prover = analysis.prover(limits, progress)
    searcher = make_search(search, prover)
    wins = searcher.wins
    solution = new_solution(analysis, shortest)
    found = None
    try:
        for depth in range(1 if shortest else analysis.moves, analysis.moves + 1):
            prover.run.depth = depth
            if all(wins(first.belief, depth) for first in analysis.classes):
                found = depth
                break
    except SearchAborted as aborted:
        solution.reason = str(aborted) + established(analysis, prover.run.depth, shortest)
    else:
        solution.status, solution.moves = (SOLVED if found else NO_SOLUTION), found
        solution.nodes = prover.stats.nodes  # the search's nodes (reading the strategy back adds none of substance)
        if found is not None:
            _read_strategy(solution, prover, analysis, found, tree, searcher)
    if solution.status == UNKNOWN:
        solution.nodes = prover.stats.nodes
    solution.seconds = work_clock() - started
    return solution


def new_solution(analysis: Analysis, shortest: bool) -> Solution:
    """The solution a solve fills: nothing decided yet."""
    return Solution(UNKNOWN, None, analysis.moves, None, len(analysis.belief), 0, 0.0,
                    classes=analysis.class_sizes, shortest=shortest, rules=analysis.rules.name,
                    problem=analysis.problem)


def _read_strategy(solution: Solution, prover: Prover, analysis: Analysis, moves: int, tree: bool,
                   search: Search) -> None:
    """Read the proven strategy (``tree``) or its key back from the prover's table.

    Entries a memory budget dropped are searched again (by ``search``, the
    solve's), so reading can reach the run's limits after the proof: the
    problem stays solved, without the strategy (``reason`` says why)."""
    try:
        if tree:
            solution.tree = _tree(prover, analysis.classes, moves,
                                  lambda p, b, m: strategy_tree(p, b, m, search=search))
            solution.key = key_move(solution.tree) if len(analysis.classes) == 1 else None
        elif len(analysis.classes) == 1:
            solution.key = attempt_text(prover.winning_move(analysis.classes[0].belief, moves, search=search)[0])
    except SearchAborted as aborted:
        solution.reason = f"the strategy was not read back: {aborted}"


def root_choices(analysis: Analysis) -> list[int]:
    """White's first choices when the belief is one first class ("Any?" last);
    [] when the search is not shared this way (several classes, probes)."""
    rules = analysis.rules
    if len(analysis.classes) != 1 or rules.probes:
        return []
    firsts = [int(move) for move in rules.attempts(analysis.classes[0].belief.positions)]
    return firsts + ([ASK] if rules.can_ask(FRESH) else [])


def established(analysis: Analysis, depth: int, shortest: bool) -> str:
    """What a stopped search has shown: ``; no mate in 5 or fewer, depth 6 not decided``."""
    goal = analysis.rules.goal.replace("-", " ")
    if shortest and depth > 1:
        return f"; no {goal} in {depth - 1} or fewer, {depth} not decided"
    return f"; {goal} in {depth} not decided"


def _tree(prover: Prover, classes: list[FirstClass], moves: int,
          build: Callable[[Prover, BeliefState, int], nx.DiGraph] = strategy_tree) -> nx.DiGraph:
    """The strategy (each class's tree made by ``build``); with several
    initial classes, a ``start`` node joins their trees."""
    if len(classes) == 1:
        return build(prover, classes[0].belief, moves)
    tree = nx.DiGraph(moves=moves, rules=prover.rules.name)
    tree.add_node(0, kind="start", number=1, size=sum(len(first.belief) for first in classes))
    # the black men whose squares differ between the classes, named in each (one position each
    # under full information, where every class is "Silent")
    varying = tuple(piece.piece_type for piece, _ in BeliefState(
        np.concatenate([first.belief.positions[:1] for first in classes])).hidden_squares())
    for first in classes:
        subtree = build(prover, first.belief, moves)
        offset = tree.number_of_nodes()
        tree = nx.union(tree, nx.relabel_nodes(subtree, {n: n + offset for n in subtree.nodes}))
        tree.add_edge(0, offset, kind="info", label=first.label, key=[int(k) for k in first.key])
        tree.nodes[offset].update(belief_summary(first.belief, varying))
    return tree


def solve_with_key(problem: Problem | Analysis, key: str, moves: int | None = None,
                   limits: Limits | None = None) -> Solution:
    """The solution whose strategy begins with ``key`` (UCI; one of the keys of
    a cooked problem, say), for its certificate.  Raises ``ValueError`` if
    ``key`` does not win within ``moves`` (default: the stipulation),
    ``SearchAborted`` past ``limits``.

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/6RR w - - 0 1"\\n')
    >>> solve_with_key(problem, "g1g8").key, solve_with_key(problem, "h1h8").key
    ('g1g8', 'h1h8')
    """
    started = time.perf_counter()
    analysis = as_analysis(problem, None, moves)
    prover = analysis.prover(limits)
    first = attempt_from_text(key)
    search = make_search("pn", prover)
    tree = _tree(prover, analysis.classes, analysis.moves,
                 lambda p, b, m: strategy_tree(p, b, m, first=first, search=search))
    return Solution(SOLVED, analysis.moves, analysis.moves, key, len(analysis.belief), prover.stats.nodes,
                    time.perf_counter() - started, tree=tree, classes=analysis.class_sizes,
                    rules=analysis.rules.name, problem=analysis.problem)


def key_wins(problem: Problem | Analysis, key: str, moves: int | None = None, limits: Limits | None = None
             ) -> bool | None:
    """Whether the first attempt ``key`` (UCI, or "any" for asking "Any?") starts
    a win within ``moves`` (default: the stipulation) in every first class;
    None if the search was cut off by ``limits``.

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> key_wins(problem, "h1h8"), key_wins(problem, "h1h7")
    (True, False)
    """
    analysis = as_analysis(problem, None, moves)
    search = make_search("pn", analysis.prover(limits))
    first = attempt_from_text(key)
    try:
        return all(search.attempt_wins(part.belief, first, analysis.moves) for part in analysis.classes)
    except SearchAborted:
        return None


def key_solutions(problem: Problem | Analysis, solution: Solution, keys: list[tuple[str, int]],
                  limits: Limits | None = None) -> list[Solution]:
    """The strategies of a cooked problem's ``keys`` (``(UCI, fewest moves)`` each) other
    than ``solution``'s own, each mating as fast as that key can: what a composer needs to
    mend the cook.  Each is searched within ``limits``; one that reaches them is left out.

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
    ...                             'fen = "k7/8/1K6/8/8/8/8/6RR w - - 0 1"\\n')
    >>> [other.key for other in key_solutions(problem, solve(problem), [("g1g8", 1), ("h1h8", 1)])]
    ['h1h8']
    """
    if len(keys) < 2:
        return []
    base = problem.problem if isinstance(problem, Analysis) else problem
    others = []
    for key, fewest in keys:
        if key == solution.key:
            continue
        try:
            others.append(solve_with_key(Analysis(base, solution.rules or None, fewest or solution.max_moves), key,
                                         limits=limits))
        except SearchAborted:
            continue
    return others
