"""One analysis session per problem: the rule set, the stipulated moves, the
initial belief, its first classes and the fitted search bounds, built once
and used by solve, verify, certificates, the games generator and every front end.

The initial belief first splits by what White hears before his first
attempt (pawn-try information, or what he sees in Fog of War): White must
win in every class.  A rule set given instead of the file's must play for
the same goal (a mate stipulation cannot be read as a king capture).

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#2"\\nrules = "wild16"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> analysis = Analysis(problem, rules="berkeley")
>>> analysis.rules.name, analysis.moves, len(analysis.belief), analysis.class_sizes
('berkeley', 2, 1, [('Silent', 1)])
>>> Analysis(problem, memory=1 << 30).limits(Limits(seconds=5)).memory  # every search within the budget
1073741824
>>> Analysis(problem, rules="fog-of-war")
Traceback (most recent call last):
...
ksolve.problem.ProblemError: <problem>: rules: fog-of-war is won by capturing the king, but the stipulation #2 asks for mate
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from ksolve.belief import BeliefState
from ksolve.problem import Problem, ProblemError
from ksolve.resources import Resources
from ksolve.rules import UnknownRules, get_rules
from ksolve.rules.base import RuleSet
from ksolve.rules.conditions import with_conditions
from ksolve.search.prover import Prover
from ksolve.search.run import Limits, Progress, SearchRun

_GOAL_WORDS = {"mate": "mate", "king-capture": "capturing the king"}


@dataclass(frozen=True)
class FirstClass:
    """The positions of the initial belief that give White one first observation."""

    key: np.ndarray
    """The observation's key row."""
    label: str
    """The referee's words for it."""
    belief: BeliefState


class Analysis:
    """A problem under one rule set and one number of moves."""

    def __init__(self, problem: Problem, rules: RuleSet | str | None = None, moves: int | None = None,
                 memory: int | None = None) -> None:
        self.problem = problem
        self.memory = memory if memory is not None else (problem.resources or Resources()).budget
        """The memory budget in bytes (the process's resident size) of the belief and of every
        search table made for this analysis: ``memory``, else the budget the problem was read
        within (by default half of the machine's memory)."""
        self.rules = with_conditions(_rule_set(problem, rules), problem.conditions, problem.fullmove)
        self.moves = moves or problem.moves
        if self.rules.goal != problem.goal:
            raise ProblemError(problem.source, "rules",
                               f"{self.rules.name} is won by {_GOAL_WORDS[self.rules.goal]}, but the stipulation "
                               f"{problem.stipulation} asks for {_GOAL_WORDS[problem.goal]}")
        _refuse_reachable_draw(self)

    @cached_property
    def belief(self) -> BeliefState:
        """The initial belief: every legal placement of the hidden units (as the rule set searches it)."""
        belief = self.problem.belief()
        rows = self.rules.prepare(belief.positions)
        return belief if rows is belief.positions else BeliefState.from_positions(rows)

    @cached_property
    def classes(self) -> list[FirstClass]:
        """The initial belief split by what White hears before his first attempt."""
        return [FirstClass(key, self.rules.describe(key), part) for key, part in self.belief.turn_info(self.rules)]

    @property
    def class_sizes(self) -> list[tuple[str, int]]:
        """Each first class's words and size."""
        return [(first.label, len(first.belief)) for first in self.classes]

    def limits(self, limits: Limits | None = None) -> Limits:
        """``limits`` (seconds, nodes) within this analysis's memory budget (a worker's
        share of it, given by ``Limits.share``, is kept).
        """
        limits = limits or Limits()
        return limits if limits.memory is not None else replace(limits, memory=self.memory)

    def prover(self, limits: Limits | None = None, progress: Progress | None = None,
               run: SearchRun | None = None) -> Prover:
        """A fresh prover for this problem, its bounds fitted to the material, its tables
        within the memory budget (``limits``; ``run``: a run whose limits are used as they are)."""
        prover = Prover(self.rules, None if run is not None else self.limits(limits), progress, run)
        prover.fit_bounds(self.belief)
        if not self.rules.bounds_hold:  # stated conditions: Black has fewer replies than the bounds assume
            prover.viable_depth = prover.orthodox_depth = 0
        elif self.rules.full_information:
            prover.trust_full_information(self.moves)
        return prover


def _refuse_reachable_draw(analysis: Analysis) -> None:
    """Refuse a problem whose move-limit draw the search could reach.

    A belief merges positions that differ only in the halfmove clock (the
    hash, and so the belief's digest, leaves it out).  That is exact as long as
    no clock can reach the rule set's move limit within the stipulated moves,
    the search's horizon: then the clock never changes an outcome.  Within
    reach (Fog of War's 50-move rule after a long history, say) a merged clock
    could turn a draw into a win, so the problem is refused with the reason."""
    clock, plies, limit = analysis.belief.halfmove_clock, 2 * analysis.moves, analysis.rules.move_limit
    if clock + plies >= limit:
        raise ProblemError(analysis.problem.source, "position",
                           f"the {limit // 2}-move draw is within reach (halfmove clock {clock}, {analysis.moves} "
                           f"moves, the draw at {limit}): ksolve's beliefs merge positions that differ only in the "
                           "halfmove clock, which could decide this wrongly; give a halfmove clock below "
                           f"{limit - plies} in the FEN")


def _rule_set(problem: Problem, rules: RuleSet | str | None) -> RuleSet:
    """The rule set to search under: the file's (with its ``probes``), or the
    one named (with the file's ``probes`` if it has probes: 7 by default).
    Conditions on Black's replies are not defined with probes."""
    if rules is None:
        return problem.rules
    if isinstance(rules, str):
        if rules == problem.rules.name:
            return problem.rules
        try:
            rules = get_rules(rules)
        except UnknownRules as error:
            raise ProblemError(problem.source, "rules", str(error)) from None
    if rules.probes and problem.conditions:
        raise ProblemError(problem.source, "condition", f"[[condition]] together with probes ({rules.name}) is not "
                                                        "supported")
    return rules
