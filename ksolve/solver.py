"""Solve a problem: its initial belief, iterative deepening with the prover,
and the strategy tree of the shortest win.

The initial belief first splits by what White hears before his first
attempt (pawn-try information, or what he sees in Fog of War): White must
win in every class.

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

from ksolve.belief import BeliefState
from ksolve.problem import Problem
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import Limits, Prover, SearchAborted, Stats
from ksolve.solution import belief_summary, key_move, strategy_tree

SOLVED, NO_SOLUTION, UNKNOWN = "solved", "no solution", "unknown"


@dataclass
class SolveResult:
    """What a solve found."""

    status: str
    """``solved``, ``no solution`` (proved: no win within the moves) or ``unknown``."""
    moves: int | None
    """The fewest moves that win (when solved); with ``shortest`` False, the
    moves proven (a shorter win was not looked for)."""
    max_moves: int
    key: str | None
    belief_size: int
    nodes: int
    seconds: float
    reason: str = ""
    tree: nx.DiGraph | None = None
    classes: list[tuple[str, int]] = field(default_factory=list)
    """The initial classes (what White hears first) and their sizes."""
    shortest: bool = True
    """Whether every shorter win was refuted (``moves`` is the fewest)."""


SEARCHES = ("pn", "dfs")
"""Proof-number search over the depth-first prover's exact leaves, or the depth-first prover alone."""


def solve(problem: Problem, moves: int | None = None, rules=None, limits: Limits | None = None,
          progress: Callable[[Stats, int], None] | None = None, tree: bool = True,
          search: str = "pn", shortest: bool = True) -> SolveResult:
    """Prove or refute the problem's stipulation (``moves``/``rules`` override the file's).

    ``search``: ``pn`` (df-pn, ``ksolve.search.pns``) or ``dfs`` (the depth-first
    prover alone); both prove the same results, at different speeds.
    ``shortest``: deepen from one move so that the fewest moves are found;
    False proves the stipulation alone (mate in at most n), which is much
    cheaper for long problems: refuting the depths below the mate is the
    costly part."""
    rules = rules or problem.rules
    max_moves = moves or problem.moves
    started = time.perf_counter()
    belief = problem.belief()
    classes = belief.turn_info(rules)
    labelled = [(rules.describe(key), part) for key, part in classes]
    first_keys = [[int(k) for k in np.asarray(key)] for key, _ in classes]
    prover = Prover(rules, limits, progress)
    prover.fit_bounds(belief)
    wins = ProofNumberSearch(prover).wins if search == "pn" else prover.wins
    found = None
    try:
        for depth in range(1 if shortest else max_moves, max_moves + 1):
            prover.depth = depth
            if all(wins(part, depth) for _, part in labelled):
                found = depth
                break
    except SearchAborted as aborted:
        return SolveResult(UNKNOWN, None, max_moves, None, len(belief), prover.stats.nodes,
                           time.perf_counter() - started, reason=str(aborted),
                           classes=[(label, len(part)) for label, part in labelled])
    result = SolveResult(SOLVED if found else NO_SOLUTION, found, max_moves, None, len(belief),
                         prover.stats.nodes, 0.0, classes=[(label, len(part)) for label, part in labelled],
                         shortest=shortest)
    if found is not None and tree:
        result.tree = _tree(prover, labelled, first_keys, found)
        result.key = key_move(result.tree) if len(labelled) == 1 else None
    elif found is not None and len(labelled) == 1:
        result.key = _first_move(prover, labelled[0][1], found)
    result.seconds = time.perf_counter() - started
    return result


def _first_move(prover: Prover, belief: BeliefState, moves: int) -> str:
    """The UCI of the proven strategy's first attempt ("any" for asking "Any?")."""
    from ksolve.board import move_to_uci
    from ksolve.search.leaves import win_now
    from ksolve.search.prover import ASK

    entry = prover.entry(belief)
    if entry.move == ASK:
        return "any"
    if entry.proven == 1:
        return move_to_uci(int(win_now(belief.positions, prover.rules.flags, prover.rules.fog)[1][0]))
    return move_to_uci(entry.move)


def _tree(prover: Prover, labelled: list[tuple[str, BeliefState]], keys: list[list[int]], moves: int,
          build: Callable[[Prover, BeliefState, int], nx.DiGraph] = strategy_tree) -> nx.DiGraph:
    """The strategy (each class's tree made by ``build``); with several
    initial classes, a ``start`` node joins their trees."""
    if len(labelled) == 1:
        return build(prover, labelled[0][1], moves)
    tree = nx.DiGraph(moves=moves, rules=prover.rules.name)
    tree.add_node(0, kind="start", number=1, size=sum(len(b) for _, b in labelled))
    for (label, part), key in zip(labelled, keys):
        subtree = build(prover, part, moves)
        offset = tree.number_of_nodes()
        tree = nx.union(tree, nx.relabel_nodes(subtree, {n: n + offset for n in subtree.nodes}))
        tree.add_edge(0, offset, kind="info", label=label, key=key)
        tree.nodes[offset].update(belief_summary(part))
    return tree


def solve_with_key(problem: Problem, key: str, moves: int | None = None) -> SolveResult:
    """The result whose strategy begins with ``key`` (UCI; one of the keys of
    a cooked problem, say), for its certificate.  Raises ``ValueError`` if
    ``key`` does not win within ``moves`` (default: the stipulation).

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/6RR w - - 0 1"\\n')
    >>> solve_with_key(problem, "g1g8").key, solve_with_key(problem, "h1h8").key
    ('g1g8', 'h1h8')
    """
    from ksolve.board import move_from_uci
    from ksolve.solution import strategy_with_key

    moves = moves or problem.moves
    started = time.perf_counter()
    belief = problem.belief()
    classes = belief.turn_info(problem.rules)
    labelled = [(problem.rules.describe(k), part) for k, part in classes]
    first_keys = [[int(v) for v in np.asarray(k)] for k, _ in classes]
    prover = Prover(problem.rules)
    prover.fit_bounds(belief)
    move = move_from_uci(key)
    tree = _tree(prover, labelled, first_keys, moves, lambda p, b, m: strategy_with_key(p, b, move, m))
    return SolveResult(SOLVED, moves, moves, key, len(belief), prover.stats.nodes,
                       time.perf_counter() - started, tree=tree,
                       classes=[(label, len(part)) for label, part in labelled])


def key_wins(problem: Problem, key: str, moves: int | None = None, limits: Limits | None = None) -> bool | None:
    """Whether the first attempt ``key`` (UCI, or "any" for asking "Any?") starts
    a win within ``moves`` (default: the stipulation) in every first class;
    None if the search was cut off by ``limits``.

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> key_wins(problem, "h1h8"), key_wins(problem, "h1h7")
    (True, False)
    """
    from ksolve.board import move_from_uci

    moves = moves or problem.moves
    prover = Prover(problem.rules, limits)
    belief = problem.belief()
    prover.fit_bounds(belief)
    try:
        for _, part in belief.turn_info(problem.rules):
            if key == "any":
                won = problem.rules.any_question and prover.ask_wins(part, moves)
            else:
                won = prover.attempt_wins(part, move_from_uci(key), moves)
            if not won:
                return False
    except SearchAborted:
        return None
    return True
