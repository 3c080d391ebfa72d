"""Certificates of endgame table rows: the problem file of a placement ("the
black king on any legal square, White mates in n") and the strategy the
tables prove, written in the format ``ksolve check`` replays
(``docs/certificate.md``).

The strategy is read back from the search: at each of White's turns, in
the real board's frame, the first attempt the tables prove winning within
the moves left (``EndgameSolver.attempt_wins`` in the canonical frame, the
move mapped back); its answers and Black's replies are computed by the rule
set on the real positions (``BeliefState.attempt``/``replies``), so that the
certificate owes nothing to the tables but the choice of moves, and the
checker (python-chess only) judges the rest.

>>> import chess
>>> from ksolve.rules import get_rules
>>> from ksolve.endgame.model import white_men
from ksolve.endgame.solver import EndgameSolver
>>> from ksolve.endgame.material import parse_material
>>> solver = EndgameSolver(parse_material("KQK"), get_rules("berkeley"))
>>> text, proof = certified_row(solver, (chess.B6, chess.H1), 3)
>>> proof["moves"], proof["positions"]
(3, 30)
>>> import ksolve
>>> ksolve.check(ksolve.load_problem_text(text, "kqk-berkeley-Kb6-Qh1.toml"), proof).verified
True
"""

from __future__ import annotations

from typing import Any

import chess
import numpy as np

from ksolve.belief import BeliefState
from ksolve.board.convert import move_to_uci
from ksolve.board.layout import COLUMN_BLACK, KING
from ksolve.certificates import FORMAT, VERSION, observation
from ksolve.checker.problem import problem_digest
from ksolve.endgame.model import white_men
from ksolve.endgame.solver import EndgameSolver
from ksolve.endgame.symmetry import INVERSE, map_move
from ksolve.rules.base import Outcome


def problem_id(solver: EndgameSolver, squares: tuple[int, ...]) -> str:
    """``kqk-berkeley-Ka1-Qh1``: the material, the rule set and the placement."""
    men = solver.material.describe(squares).replace(" ", "-")
    return f"{solver.material.name.lower()}-{solver.rules.name}-{men}"


def problem_text(solver: EndgameSolver, squares: tuple[int, ...], moves: int) -> str:
    """The problem file of a table row: White's men on ``squares``, the black king on
    any legal square, White to win within ``moves``."""
    material, rules = solver.material, solver.rules
    mark = "xk" if rules.goal == "king-capture" else "#"
    words = "captures the king" if rules.goal == "king-capture" else "mates"
    return (f'id = "{problem_id(solver, squares)}"\n'
            f'title = "{material.name}, {material.describe(squares)}, the black king anywhere: White {words} '
            f'in {moves}"\n'
            f'stipulation = "{mark}{moves}"\n'
            f'rules = "{rules.name}"\n'
            f'notes = "A row of the {material.name} table under {rules.name} (ksolve endgame): the shortest '
            f'sure win from total ignorance."\n\n'
            f'[position]\nfen = "{material.fen(squares)}"\n'
            f'hidden = [{{piece = "k", squares = "any"}}]\n')


def certified_row(solver: EndgameSolver, squares: tuple[int, ...], moves: int) -> tuple[str, dict[str, Any]]:
    """The problem file's text and the certificate of "White wins within ``moves``"
    from the placement ``squares`` (raises ``ValueError`` if the tables do not prove it)."""
    text = problem_text(solver, squares, moves)
    start = BeliefState.from_hidden(solver.material.fen(squares), ["k:any"], solver.rules.fog)
    writer = _StrategyWriter(solver)
    initial = [[observation(solver.rules, key), writer.white(part, moves)]
               for key, part in start.turn_info(solver.rules)]
    proof = {"format": FORMAT, "version": VERSION, "problem": f"{problem_id(solver, squares)}.toml",
             "problem_id": problem_id(solver, squares), "problem_sha256": problem_digest(text),
             "rules": solver.rules.name, "goal": solver.rules.goal, "moves": moves, "positions": len(start),
             "initial": initial}
    return text, proof


class _StrategyWriter:
    """The strategy tree, turn by turn, in the real board's frame."""

    def __init__(self, solver: EndgameSolver) -> None:
        self.solver = solver
        self.rules = solver.rules
        self.done: dict[tuple[int, int, int], dict[str, Any]] = {}
        self.turns = 0

    def white(self, belief: BeliefState, moves: int) -> dict[str, Any]:
        """White's turn: the attempt the tables prove, and what follows each answer."""
        known = self.done.get((belief.key, len(belief), moves))
        if known is not None:
            return known
        self.turns += 1
        move = self._winning_move(belief, moves)
        node: dict[str, Any] = {"attempt": move_to_uci(move)}
        answers = []
        for key, part in belief.attempt(self.rules, move):
            outcome = self.rules.outcome(key)
            if outcome is Outcome.REFUSED:
                node["no"] = self.white(part, moves)
            elif outcome is Outcome.WON:
                answers.append([observation(self.rules, key), "win"])
            elif outcome is Outcome.GOES_ON and moves > 1:
                answers.append([observation(self.rules, key), self.black(part, moves - 1)])
            else:
                raise ValueError(f"the tables' move {move_to_uci(move)} loses: {self.rules.describe(key)}")
        if answers:
            node["answers"] = answers
        self.done[(belief.key, len(belief), moves)] = node
        return node

    def black(self, belief: BeliefState, moves: int) -> dict[str, Any]:
        """Black's reply, grouped by what White hears, each followed by White's turn."""
        replies = []
        for key, part in belief.replies(self.rules):
            if self.rules.outcome(key) is not Outcome.GOES_ON:
                raise ValueError(f"a reply ends the game: {self.rules.describe(key)}")
            replies.append([observation(self.rules, key), self.white(part, moves)])
        return {"replies": replies}

    def _winning_move(self, belief: BeliefState, moves: int) -> int:
        """The first of the placement's attempts (in the tables' order) that wins within ``moves``."""
        white, squares = white_men(belief.positions[0])
        kings = int(np.bitwise_or.reduce(belief.positions[:, COLUMN_BLACK + KING]))
        number, canonical, g = self.solver.canonical(white, squares, kings)
        for attempt in self.solver.attempts(number):
            if self.solver.attempt_wins(number, canonical, attempt, moves):
                return map_move(int(INVERSE[g]), self.solver.move_code(attempt))
        raise ValueError(f"the tables prove no win within {moves} for {white} {squares} "
                         f"with the king on {chess.SquareSet(kings)}")
