"""The mate problem at the end of a game's history, as a ``ksolve.problem.Problem``
whose initial belief is White's estimated belief: ``ksolve.solver.solve``
and the reports take it as they take a problem file.

``ply`` D (plies, both sides counted) and ``moves`` n (White's moves) are two
names for one stipulation: mate within D plies is mate in n = (D + 1) // 2.

>>> from ksolve.games.model import Game, Turn
>>> from ksolve.solver import solve
>>> game = Game("berkeley", (Turn(True, (), "a1a2", 0), Turn(False, (), None, 0)),
...             fen="7k/8/6K1/8/8/8/8/R7 w - - 0 1")
>>> problem = game_problem(game, ply=1, source="game.pgn")
>>> problem.stipulation, len(problem.belief())
('#1', 1)
>>> result = solve(problem)
>>> result.status, result.key
('solved', 'a2a8')
"""

from __future__ import annotations

from dataclasses import dataclass

from ksolve.belief import BeliefState
from ksolve.board.layout import COLUMN_TURN
from ksolve.games.estimate import estimate
from ksolve.games.model import Game
from ksolve.problem import MAX_MOVES, Problem
from ksolve.rules import get_rules
from ksolve.rules.base import RuleSet


@dataclass
class GameProblem(Problem):
    """A problem whose initial belief was estimated from a game's history."""

    estimated: BeliefState | None = None
    game: Game | None = None

    def _enumerate_belief(self) -> BeliefState:
        return self.estimated  # type: ignore[return-value]


def moves_of(ply: int | None, moves: int | None) -> int:
    """White's moves for a stipulation given in plies or in moves (exactly one).

    >>> moves_of(5, None), moves_of(None, 3)
    (3, 3)
    """
    if (ply is None) == (moves is None):
        raise ValueError("give the depth either in plies or in moves")
    n = (ply + 1) // 2 if ply is not None else moves
    if not 1 <= n <= MAX_MOVES:  # type: ignore[operator]
        raise ValueError(f"the number of moves must be 1 to {MAX_MOVES}")
    return n  # type: ignore[return-value]


def game_problem(game: Game, ply: int | None = None, moves: int | None = None, max_positions: int | None = None,
                 source: str = "<game>") -> GameProblem:
    """The problem "White mates within ``ply`` plies (or ``moves`` moves)" at the
    end of ``game`` (filtered for White, or unfiltered: it is filtered first).

    Raises ``ValueError`` when White is not to move at the end, and the
    estimator's ``BeliefTooLarge`` / ``InconsistentHistory``."""
    n = moves_of(ply, moves)
    belief = estimate(game, max_positions)
    if int(belief.positions[0, COLUMN_TURN]) != 0:
        raise ValueError(f"{source}: Black is to move at the end of the game; the problem is White's")
    if game.result != "*":
        raise ValueError(f"{source}: the game is over ({game.result})")
    problem = belief_problem(belief, get_rules(game.rules), n, source)
    problem.id = source.rsplit("/", 1)[-1].removesuffix(".pgn")
    problem.title, problem.game = dict(game.tags).get("Event", ""), game
    return problem


def belief_problem(belief: BeliefState, rules: RuleSet, moves: int, source: str = "<belief>") -> GameProblem:
    """The problem "White mates within ``moves``" from a given belief (White to move)."""
    return GameProblem(source=source, id="belief", stipulation=f"#{moves}", moves=moves, goal=rules.goal,
                       rules=rules, fen=None, estimated=belief)
