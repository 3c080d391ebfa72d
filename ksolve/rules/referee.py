"""A Kriegspiel referee for one game: the true position, the turn's state
("Any?" asked, attempts refused, the pawn-capture obligation) and the answers.

The solver works on whole belief states through the rule sets' vectorised
methods; this class is the same referee for a single game, for both sides, as
``ksolve referee`` and the differential tests use it.

An attempt gets one of the answers: ``impossible`` (not a move on the
mover's own board, or not allowed now), ``nonsense`` (Cincinnati and RAND's
word for it), ``illegal`` (the "No"), ``move`` (executed, with the
announcement), and to "Any?": ``any-yes`` / ``any-no``.  English and Wild 16
answer impossible attempts with "illegal", as their referees do.

>>> from ksolve.board import position_from_fen, move_from_uci
>>> from ksolve.rules import get_rules
>>> referee = Referee(get_rules("berkeley"), position_from_fen("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"))
>>> referee.attempt(move_from_uci("a2h2")).words
'Capture at h2, check on the file'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ksolve.board.layout import COLUMN_BLACK, COLUMN_TURN, MAX_MOVES
from ksolve.board.batch import expand
from ksolve.board.movegen import legal_moves
from ksolve.board.tables import SQUARE_BB
from ksolve.rules import codes
from ksolve.rules.base import FRESH, RuleSet
from ksolve.rules.kernels import (
    PAWN_INFO_COUNT, PAWN_INFO_EXISTS, PAWN_INFO_SQUARES, any_answers, pawn_captures,
)
from ksolve.rules.kriegspiel import KriegspielRules
from ksolve.rules.pawn_tries import pawn_diagonal_attempts

@dataclass(frozen=True)
class Answer:
    """One referee answer; ``code``/``extra`` describe an executed move."""

    kind: str
    words: str
    code: int = 0
    extra: int = 0


class Referee:
    """The referee of one Kriegspiel game from a given position."""

    def __init__(self, rules: RuleSet, position: np.ndarray) -> None:
        self.rules = rules
        self.position = np.array(position, dtype=np.uint64).reshape(-1)
        self.game_over = False
        self._new_turn()

    # --- the turn's state -------------------------------------------------
    def _new_turn(self) -> None:
        self.refused: set[int] = set()
        self.state = FRESH
        """The turn's "Any?" state (``ksolve.rules.base``), moved on by the rule set."""
        self.any_answer: bool | None = None
        if not isinstance(self.rules, KriegspielRules):
            # Full information and Fog of War: the mover sees every move he has.
            self._own_moves = set(int(m) for m in expand(self.position[np.newaxis, :], self.rules.fog)[2])
            self._pawn_tries: set[int] = set()
            return
        buffer = np.empty(MAX_MOVES, dtype=np.int64)
        self._pawn_count, self._pawn_sources = pawn_captures(self.position, buffer)
        self._own_moves = own_board_moves(self.position)
        self._pawn_tries = self._allowed_pawn_tries(self.rules)

    def _allowed_pawn_tries(self, rules: KriegspielRules) -> set[int]:
        """Pawn-diagonal attempts the rule set lets the mover make this turn."""
        tries = pawn_diagonal_attempts(self.position)
        info = rules.pawn_info
        if info in (PAWN_INFO_COUNT, PAWN_INFO_EXISTS) and self._pawn_count == 0:
            return set()
        if info == PAWN_INFO_SQUARES:
            return {m for m in tries if SQUARE_BB[m & 63] & self._pawn_sources}
        return tries

    @property
    def must_use_pawns(self) -> bool:
        """Whether the next attempt must be a pawn capture ("Any?" answered yes)."""
        return self.rules.must_capture(self.state)

    def can_ask(self) -> bool:
        """Whether the mover may ask "Any?" now (``RuleSet.can_ask``).

        >>> from ksolve.board import position_from_fen, move_from_uci
        >>> from ksolve.rules import get_rules
        >>> referee = Referee(get_rules("english"), position_from_fen("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1"))
        >>> referee.attempt(move_from_uci("a1a8")).kind, referee.can_ask()
        ('illegal', True)
        >>> referee.ask_any().words, referee.can_ask()
        ('No', False)
        """
        return not self.game_over and self.rules.can_ask(self.state)

    def askable(self) -> set[int]:
        """The attempts the mover may make now (moves as integers)."""
        if self.game_over:
            return set()
        if self.must_use_pawns:
            return self._pawn_tries - self.refused
        moves = self._own_moves | self._pawn_tries
        if self.any_answer is False:
            moves -= self._pawn_tries  # "No" to Any?: no pawn capture is worth trying
        return moves - self.refused

    @property
    def impossible_answer(self) -> str:
        if self.must_use_pawns or not isinstance(self.rules, KriegspielRules):
            return "impossible"
        return self.rules.impossible_answer

    # --- questions ----------------------------------------------------------
    def attempt(self, move: int) -> Answer:
        """The answer to an attempt of the side to move (executed if legal)."""
        if move not in self.askable():
            kind = self.impossible_answer
            return Answer(kind, "No" if kind == "illegal" else kind.capitalize())
        outcome = self.rules.attempt(self.position[np.newaxis, :], move)
        code, extra = int(outcome.keys[0, 0]), int(outcome.keys[0, 1])
        if code == codes.ILLEGAL:
            self.refused.add(move)
            self.state = self.rules.state_after_refusal(self.state)
            return Answer("illegal", "No")
        self.position = outcome.children[0]
        self.game_over = codes.end_of(code) != codes.END_NONE
        self._new_turn()
        return Answer("move", self.rules.describe(outcome.keys[0]), code, extra)

    def ask_any(self) -> Answer:
        """The answer to "Any?" (are there pawn captures?) for the side to move."""
        if not self.can_ask():
            return Answer("impossible", "Impossible")
        yes = bool(any_answers(self.position[np.newaxis, :])[0])
        self.any_answer = yes
        self.state = self.rules.state_after_any(yes)
        return Answer("any-yes" if yes else "any-no", self.rules.any_answer_words(self.state))

    @property
    def turn(self) -> int:
        """0 if White is to move, 1 if Black."""
        return int(self.position[COLUMN_TURN])


def own_board_moves(position: np.ndarray) -> set[int]:
    """Legal moves on the mover's own board: the position without enemy men.

    >>> from ksolve.board import position_from_fen, move_to_uci
    >>> sorted(move_to_uci(m) for m in own_board_moves(position_from_fen("k7/8/8/8/8/8/8/K6r w - - 0 1")))
    ['a1a2', 'a1b1', 'a1b2']
    """
    own = np.array(position, dtype=np.uint64).reshape(-1).copy()
    enemy = (1 - int(own[COLUMN_TURN])) * COLUMN_BLACK
    own[enemy: enemy + 6] = 0
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    count = legal_moves(own, buffer)
    return {int(m) for m in buffer[:count]}


