"""Certificates of endgame table rows: the problem file of a placement ("the
black king on any legal square, White mates in n") and the strategy the
tables prove, written in the format ``ksolve check`` replays
(``docs/certificate.md``, version 2: each distinct turn written once, so that
a row of 33 moves with some 40,000 distinct White turns is a file of a few
megabytes, not a tree of 10^9 nodes).

The strategy is read back from the search: at each of White's turns, in
the real board's frame, the first attempt the tables prove winning within
the moves left (``EndgameSolver.attempt_wins`` in the canonical frame, the
move mapped back); its answers and Black's replies are computed by the rule
set on the real positions (``BeliefState.attempt``/``replies``), so that the
certificate owes nothing to the tables but the choice of moves, and the
checker (python-chess only) judges the rest.

>>> import chess
>>> from ksolve.rules import get_rules
>>> from ksolve.endgame.solver import EndgameSolver
>>> from ksolve.endgame.material import parse_material
>>> solver = EndgameSolver(parse_material("KQK"), get_rules("berkeley"))
>>> corner = chess.BB_A8 | chess.BB_B8 | chess.BB_A7 | chess.BB_B7
>>> text, proof = certified_row(solver, (chess.A1, chess.H1), 8, corner)
>>> proof["version"], proof["moves"], proof["positions"]
(2, 8, 2)
>>> import ksolve
>>> ksolve.check(ksolve.load_problem_text(text, proof["problem"]), proof).verified
True
"""

from __future__ import annotations

from typing import Any

import chess
import numpy as np

from ksolve.belief import BeliefState
from ksolve.board.convert import move_to_uci
from ksolve.board.layout import COLUMN_BLACK, KING
from ksolve.certificates import DAG_VERSION, FORMAT, DagWriter, observation
from ksolve.checker.problem import problem_digest
from ksolve.endgame import core
from ksolve.endgame.model import white_men
from ksolve.endgame.solver import EndgameSolver
from ksolve.endgame.symmetry import INVERSE, map_move
from ksolve.rules.base import FRESH, Outcome


def problem_id(solver: EndgameSolver, squares: tuple[int, ...], kings: int | None = None) -> str:
    """``kqk-berkeley-Ka1-Qh1``: the material, the rule set and the placement (and
    ``-k`` with the king's squares when they are not all of them)."""
    men = solver.material.describe(squares).replace(" ", "-")
    where = "" if kings is None else "-k" + "".join(chess.square_name(s) for s in chess.scan_forward(kings))
    return f"{solver.material.name.lower()}-{solver.rules.name}-{men}{where}"


def problem_text(solver: EndgameSolver, squares: tuple[int, ...], moves: int, kings: int | None = None) -> str:
    """The problem file of a table row: White's men on ``squares``, the black king on
    any legal square (or on one of ``kings``), White to win within ``moves``."""
    material, rules = solver.material, solver.rules
    mark = "xk" if rules.goal == "king-capture" else "#"
    words = "captures the king" if rules.goal == "king-capture" else "mates"
    where = '"any"' if kings is None else "[" + ", ".join(f'"{chess.square_name(s)}"'
                                                          for s in chess.scan_forward(kings)) + "]"
    anywhere = "anywhere" if kings is None else "restricted"
    return (f'id = "{problem_id(solver, squares, kings)}"\n'
            f'title = "{material.name}, {material.describe(squares)}, the black king {anywhere}: White {words} '
            f'in {moves}"\n'
            f'stipulation = "{mark}{moves}"\n'
            f'rules = "{rules.name}"\n'
            f'notes = "A row of the {material.name} table under {rules.name} (ksolve endgame): the shortest '
            f'sure win from total ignorance."\n\n'
            f'[position]\nfen = "{material.fen(squares)}"\n'
            f'hidden = [{{piece = "k", squares = {where}}}]\n')


def certified_row(solver: EndgameSolver, squares: tuple[int, ...], moves: int, kings: int | None = None
                  ) -> tuple[str, dict[str, Any]]:
    """The problem file's text and the certificate of "White wins within ``moves``"
    from the placement ``squares``, the king on any legal square (or on one of
    ``kings``); raises ``ValueError`` if the tables do not prove it."""
    text = problem_text(solver, squares, moves, kings)
    hidden = "k:any" if kings is None else "k:" + ",".join(chess.square_name(s) for s in chess.scan_forward(kings))
    start = BeliefState.from_hidden(solver.material.fen(squares), [hidden], solver.rules.fog)
    writer = _StrategyWriter(solver)
    initial = [[observation(solver.rules, key), writer.white(part, moves)]
               for key, part in start.turn_info(solver.rules)]
    name = problem_id(solver, squares, kings)
    proof = {"format": FORMAT, "version": DAG_VERSION, "problem": f"{name}.toml",
             "problem_id": name, "problem_sha256": problem_digest(text),
             "rules": solver.rules.name, "goal": solver.rules.goal, "moves": moves, "positions": len(start),
             **writer.dag.ordered(initial)}
    return text, proof


def refuted_row(solver: EndgameSolver, squares: tuple[int, ...], moves: int, kings: int | None = None,
                max_nodes: int = 20_000) -> tuple[str, dict[str, Any]]:
    """The problem file's text and the refutation certificate of "White wins within
    ``moves``" from the placement ``squares`` (a row ``none``), its classes decided
    by the tables (``TableDecider``).  Where every line of it ends the game (Black
    takes White's last man, a draw), the checker finds that White cannot win at any
    length.  ``NothingToRefute`` if the tables prove a win, ``RefutationTooLarge``
    past ``max_nodes``.

    >>> import chess
    >>> from ksolve.endgame.material import parse_material
    >>> from ksolve.rules import get_rules
    >>> solver = EndgameSolver(parse_material("KRK"), get_rules("berkeley"))
    >>> text, refutation = refuted_row(solver, (chess.A1, chess.D3), 60)
    >>> import ksolve
    >>> result = ksolve.check(ksolve.load_problem_text(text, refutation["problem"]), refutation)
    >>> result.verified, result.claim
    (True, 'no mate at any length')
    """
    from ksolve.analysis import Analysis
    from ksolve.problem import load_problem_text
    from ksolve.refutations import Refuter

    text = problem_text(solver, squares, moves, kings)
    name = problem_id(solver, squares, kings)
    analysis = Analysis(load_problem_text(text, f"{name}.toml"))
    proof = Refuter(analysis, max_nodes=max_nodes, decider=TableDecider(solver)).certificate(moves)
    return text, proof


class TableDecider:
    """The tables as a refutation's ``Decider`` (``ksolve.refutations``): a belief of
    White's men against a lone king, its squares mapped into the tables' frame.  The
    turn's state is ignored: against a lone king "Any?" is always answered no (a pawn
    cannot take a king), so asking it changes nothing White can win."""

    def __init__(self, solver: EndgameSolver) -> None:
        self.solver = solver

    def wins(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool:
        number, canonical, _ = self._canonical(belief)
        return self.solver.wins(number, canonical, moves) == core.WIN

    def attempt_wins(self, belief: BeliefState, move: int, moves: int, state: int = FRESH) -> bool:
        number, canonical, g = self._canonical(belief)
        wanted = map_move(g, move)
        for attempt in self.solver.attempts(number):
            if self.solver.move_code(attempt) == wanted:
                return self.solver.attempt_wins(number, canonical, attempt, moves)
        return False

    def _canonical(self, belief: BeliefState) -> tuple[int, int, int]:
        white, squares = white_men(belief.positions[0])
        kings = int(np.bitwise_or.reduce(belief.positions[:, COLUMN_BLACK + KING]))
        return self.solver.canonical(white, squares, kings)


class _StrategyWriter:
    """The strategy's nodes, turn by turn, in the real board's frame, each distinct
    one kept once (``dag``); a turn met again is its node's number."""

    def __init__(self, solver: EndgameSolver) -> None:
        self.solver = solver
        self.rules = solver.rules
        self.dag = DagWriter()
        self.done: dict[tuple[int, int, int], int] = {}
        self.turns = 0

    def white(self, belief: BeliefState, moves: int) -> int:
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
        number = self.done[(belief.key, len(belief), moves)] = self.dag.intern(node)
        return number

    def black(self, belief: BeliefState, moves: int) -> int:
        """Black's reply, grouped by what White hears, each followed by White's turn."""
        replies = []
        for key, part in belief.replies(self.rules):
            if self.rules.outcome(key) is not Outcome.GOES_ON:
                raise ValueError(f"a reply ends the game: {self.rules.describe(key)}")
            replies.append([observation(self.rules, key), self.white(part, moves)])
        return self.dag.intern({"replies": replies})

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
