"""Try a problem out: the user plays White against the worst-case referee.

White sees only his own men and what he has heard.  After each attempt the
referee splits White's belief by its possible answers and gives the answer
of the class that is worst for White: one from which the forced mate can no
longer be had within the moves left (the move threw it away: ``mate_kept``
False, with the refutation as composers write it, ``Bxf2! (no mate in 7)``),
else the one whose shortest remaining mate is longest (ties: the larger
class).  When the move was played and the game goes on, Black's reply is
chosen the same way among the classes of what White hears of it.  Every
answer is one that some position consistent with the history gives, so at
the end the fog lifts on one such position and its whole game (``reveal``).

The searches run on the analysis's prover, one per trial (its table grows
from step to step), by proof-number search, within ``Limits`` per step: a
step that hits them says "not decided" (``mate_kept`` None) instead of
claiming anything.

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> trial = Trial(problem)
>>> step = trial.attempt("h1h8")
>>> step.answer, step.san, step.mate_kept, trial.over, trial.result
('Checkmate', 'Rh8#', True, True, 'mate')
>>> trial.reveal().moves
['Rh8#']
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import chess
import numpy as np

from ksolve.analysis import Analysis
from ksolve.belief import BeliefState
from ksolve.board import move_from_uci, move_to_chess, move_to_uci, position_to_board
from ksolve.board.layout import COLUMN_HASH
from ksolve.errors import InputError
from ksolve.problem import Problem
from ksolve.rules import codes
from ksolve.rules.base import FRESH, Outcome, RuleSet
from ksolve.rules.referee import own_board_moves, pawn_diagonal_attempts
from ksolve.search.base import Search, make_search
from ksolve.search.run import Limits, SearchAborted, SearchRun
from ksolve.solution import belief_summary, black_moves, move_label, played_label
from ksolve.verification import ENDS, NO_WIN, refutation_of, refutation_text

__all__ = ["STEP_LIMITS", "Reveal", "Trial", "TrialStep", "TrialView"]

STEP_LIMITS = Limits(seconds=10.0)
"""What one step (and the start) may search: Rotenberg 1976 needs at most about 5 s."""
ANY = "any"


@dataclass
class TrialStep:
    """What White hears after one attempt (or "Any?") and what it means."""

    attempt: str
    """The attempt as UCI, or "any"."""
    label: str
    """The attempt on White's own board (``Nf2``, ``Any?``)."""
    answer: str
    """The referee's words."""
    san: str | None
    """The move as played (``Nf2+``); None when refused or for "Any?"."""
    reply: str | None
    """What White hears of Black's reply (None: no reply, the attempt refused or the game over)."""
    mate_kept: bool | None
    """Whether White can still force the win within the moves left (None: not decided within the limits)."""
    refutation: str | None = None
    """When this step threw the forced win away: why, as composers write it (``Bxf2! (no mate in 7)``)."""
    refuted_by: dict[str, Any] | None = None
    """The refutation's parts (``ksolve.verification.refute``'s dict)."""
    note: str | None = None
    """What the step could not decide within its limits."""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"attempt": self.attempt, "label": self.label, "answer": self.answer, "san": self.san,
                "reply": self.reply, "mate_kept": self.mate_kept, "refutation": self.refutation,
                "note": self.note, "seconds": round(self.seconds, 3)}


@dataclass
class Reveal:
    """The fog lifted: one initial position consistent with everything White
    heard and the game played from it (SAN, both sides' moves)."""

    fen: str
    moves: list[str]
    final_fen: str

    def as_dict(self) -> dict[str, Any]:
        return {"fen": self.fen, "moves": self.moves, "final_fen": self.final_fen}


@dataclass
class TrialView:
    """What White knows now (the page's view of the trial)."""

    fen: str
    """White's own men only."""
    known: str
    """Board FEN of White's men and of the black men standing on the same square in every position."""
    move_number: int
    moves_left: int
    positions: int
    hidden: list[dict[str, Any]]
    heard: list[str]
    over: bool
    result: str | None
    forced_win: bool | None
    """Whether White can still force the win in the moves left (None: not decided)."""
    can_ask: bool = False
    """Whether White may ask "Any?" now (the rule set has the question and the turn is fresh)."""
    reveal: Reveal | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"fen": self.fen, "known": self.known, "move_number": self.move_number,
                "moves_left": self.moves_left, "positions": self.positions, "hidden": self.hidden,
                "heard": self.heard, "over": self.over, "result": self.result, "forced_win": self.forced_win,
                "can_ask": self.can_ask, "reveal": None if self.reveal is None else self.reveal.as_dict()}


@dataclass
class _Class:
    """One class the referee may choose: an answer (or an answer to "Any?",
    or a first announcement, or what White hears of a Black reply)."""

    key: np.ndarray | None
    words: str
    belief: BeliefState
    outcome: Outcome
    state: int = FRESH
    """The turn's state after it (a refusal, an answer to "Any?")."""
    replies: list["_Class"] | None = None
    """Black's reply classes after a move that goes on (None otherwise)."""

    def order(self) -> tuple[bool, int]:
        """The order the referee looks at classes: game-ending ones first, then the largest."""
        return self.outcome is not Outcome.ENDED, -len(self.belief)


@dataclass
class _Turn:
    """One step of the history, for the reveal."""

    before: BeliefState
    move: int | None
    """The attempt (None: "Any?" or the first announcement)."""
    answer: _Class
    reply: _Class | None = None


@dataclass
class _Choice:
    chosen: _Class
    reply: _Class | None
    kept: bool | None
    note: str | None = None


class Trial:
    """One game of a problem against the worst-case referee (see the module)."""

    def __init__(self, problem: Problem | Analysis, limits: Limits | None = None) -> None:
        self.analysis = problem if isinstance(problem, Analysis) else Analysis(problem)
        self.rules: RuleSet = self.analysis.rules
        self.limits = limits or STEP_LIMITS
        self.prover = self.analysis.prover(self.limits)
        self.search: Search | None = None
        """The step's proof-number search (its caches dropped after the step; the prover's table stays)."""
        self.goal = self.rules.goal.replace("-", " ")
        self.hidden_types = tuple(sorted(piece.piece_type for piece, _ in self.analysis.belief.hidden_squares()))
        self.move_number = 1
        self.moves_left = self.analysis.moves
        self.state = FRESH
        self.refused: set[int] = set()
        """Attempts refused this turn."""
        self.any_said_no = False
        """Whether "Any?" was answered "No" this turn (no pawn capture to try)."""
        self.heard: list[str] = []
        self.steps: list[TrialStep] = []
        self.over = False
        self.result: str | None = None
        self._turns: list[_Turn] = []
        classes = self.analysis.classes
        self.belief = self.analysis.belief
        self.forced_win: bool | None = None
        options = [_Class(first.key, first.label, first.belief, Outcome.REFUSED) for first in classes]
        with self._searching():
            choice = self._choose(options, self.moves_left)
        if len(classes) > 1:
            self.heard.append(f"Before 1.: {choice.chosen.words}")
            self._turns.append(_Turn(self.belief, None, choice.chosen))
        self.belief = choice.chosen.belief
        self.forced_win = choice.kept

    # --- playing ----------------------------------------------------------------
    def attempt(self, uci: str) -> TrialStep:
        """White attempts ``uci`` (or asks "any"): the worst-case referee's answer.

        Raises ``InputError`` (one line) for an attempt that is no move of
        White's men on his own board, one refused already this turn, a
        question that cannot be asked now, or any attempt after the end."""
        if self.over:
            raise InputError(f"the game is over ({self.result}): start a new trial")
        token = str(uci).strip().lower()
        number, was_winning = self.move_number, self.forced_win
        with self._searching() as run:
            if token in (ANY, "any?"):
                step = self._ask(number, was_winning)
            else:
                step = self._play(self._valid_move(token), number, was_winning)
        step.seconds = run.stats.seconds
        self.steps.append(step)
        return step

    @contextmanager
    def _searching(self) -> Iterator[SearchRun]:
        """A search for one step, within the trial's limits."""
        run = SearchRun(self.limits)
        self.prover.run = run
        self.search = make_search("pn", self.prover)
        try:
            yield run
        finally:
            self.search = None

    def _ask(self, number: int, was_winning: bool | None) -> TrialStep:
        rules = self.rules
        if not rules.can_ask(self.state):
            if not rules.any_question:
                raise InputError(f"'Any?': the {rules.name} rules have no such question")
            raise InputError("'Any?' was asked already this turn")
        options = [_Class(None, rules.any_answer_words(state), part, Outcome.REFUSED, state)
                   for state, part in self.prover.any_classes(self.belief) if len(part)]
        choice = self._choose(options, self.moves_left)
        self._turns.append(_Turn(self.belief, None, choice.chosen))
        self.belief, self.state = choice.chosen.belief, choice.chosen.state
        self.any_said_no = not rules.must_capture(choice.chosen.state)
        self.heard.append(f"{number}.Any?: {choice.chosen.words}")
        return self._step(ANY, "Any?", choice, None, was_winning, None)

    def _valid_move(self, token: str) -> int:
        row = self.belief.positions[0]
        try:
            move = move_from_uci(token)
        except ValueError as error:
            raise InputError(f"move: {error}") from None
        diagonal = pawn_diagonal_attempts(row)
        if move not in own_board_moves(row) | diagonal:
            raise InputError(f"move: {token} is not a move of White's men on his own board")
        label = move_label(self.belief, move)
        if move in self.refused:
            raise InputError(f"move: {label} was refused already this turn")
        if self.rules.must_capture(self.state) and move not in diagonal:
            raise InputError(f"move: {label}: after '{self.rules.any_answer_words(self.state)}' to Any? White "
                             "must try a pawn capture")
        if self.any_said_no and move in diagonal:
            raise InputError(f"move: {label}: Any? was answered No, no pawn capture is possible")
        return move

    def _play(self, move: int, number: int, was_winning: bool | None) -> TrialStep:
        rules, label = self.rules, move_label(self.belief, move)
        options = []
        after_refusal = rules.state_after_refusal(self.state)
        for key, part in self.belief.attempt(rules, move):
            outcome = rules.outcome(key)
            option = _Class(key, rules.describe(key), part, outcome, after_refusal)
            if outcome is Outcome.GOES_ON and self.moves_left > 1:
                option.replies = [_Class(reply_key, rules.describe(reply_key), reply_part, rules.outcome(reply_key))
                                  for reply_key, reply_part in part.replies(rules)]
            options.append(option)
        choice = self._choose(options, self.moves_left)
        chosen, reply = choice.chosen, choice.reply
        self._turns.append(_Turn(self.belief, move, chosen, reply))
        if chosen.outcome is Outcome.REFUSED:
            self.refused.add(move)
            self.belief, self.state = chosen.belief, chosen.state
            self.heard.append(f"{number}.{label}: {chosen.words}")
            return self._step(move_to_uci(move), label, choice, None, was_winning, None)
        san = played_label(rules, label, chosen.key)
        self.heard.append(f"{number}.{san}: {chosen.words}")
        self.refused, self.state, self.any_said_no = set(), FRESH, False
        self.moves_left -= 1
        self.belief = chosen.belief
        if chosen.outcome is Outcome.WON:
            self._end("mate" if self.goal == "mate" else self.goal)
        elif chosen.outcome is Outcome.ENDED:
            self._end(_end_words(chosen.key))
        elif self.moves_left == 0:
            self._end(f"no {self.goal} in time")
        else:
            assert reply is not None
            self.heard.append(f"{number}...: {reply.words}")
            self.belief = reply.belief
            if reply.outcome is Outcome.ENDED:
                self._end(_end_words(reply.key))
            else:
                self.move_number += 1
        return self._step(move_to_uci(move), label, choice, san, was_winning, reply)

    def _end(self, result: str) -> None:
        self.over, self.result = True, result

    def _step(self, attempt: str, label: str, choice: _Choice, san: str | None, was_winning: bool | None,
              reply: _Class | None) -> TrialStep:
        step = TrialStep(attempt, label, choice.chosen.words, san, None if reply is None else reply.words,
                         choice.kept, note=choice.note)
        if choice.kept is False and was_winning is not False:
            step.refuted_by = self._refutation(choice, san)
            step.refutation = refutation_text(step.refuted_by)
        if choice.kept is not None:
            self.forced_win = choice.kept
        elif self.forced_win:
            self.forced_win = None
        return step

    def _refutation(self, choice: _Choice, san: str | None) -> dict[str, Any]:
        """The refutation of the lost class chosen, as ``verification.refute`` gives it."""
        chosen, reply, moves = choice.chosen, choice.reply, self._moves_before(choice)
        if chosen.outcome is Outcome.ENDED:
            return refutation_of(chosen.words, san, chosen.belief, ENDS, "the game ends without a win")
        if chosen.outcome is Outcome.REFUSED:
            where = "after the refusal" if chosen.key is not None else "after the answer"
            return refutation_of(chosen.words, None, chosen.belief, NO_WIN, f"no {self.goal} in {moves} {where}")
        if reply is None:
            return refutation_of(chosen.words, san, chosen.belief, NO_WIN, f"no {self.goal} with this move")
        black = black_moves(chosen.belief, reply.belief)
        reason = ("Black's reply ends the game" if reply.outcome is Outcome.ENDED
                  else f"no {self.goal} in {moves - 1}")
        return refutation_of(chosen.words, san, reply.belief, NO_WIN, reason, reply.words, black)

    def _moves_before(self, choice: _Choice) -> int:
        """The moves White had left when he made the step's attempt."""
        played = choice.chosen.outcome not in (Outcome.REFUSED,)
        return self.moves_left + (1 if played else 0)

    # --- the worst-case referee -------------------------------------------------------
    def _choose(self, options: list[_Class], moves: int) -> _Choice:
        """The class worst for White among ``options`` (White has ``moves`` left
        before them), and for a move that goes on, the reply class worst for him."""
        if len(options) == 1 and options[0].replies is None and options[0].outcome is not Outcome.REFUSED:
            return _Choice(options[0], None, options[0].outcome is Outcome.WON)
        ordered = sorted(options, key=_Class.order)
        looking: list[_Class | None] = [ordered[0], None]
        """The classes being looked at: what the referee answers if a limit stops the search."""
        winnable = False
        try:
            lost = self._first_lost(ordered, moves, looking)
            if lost is not None:
                return _Choice(lost[0], lost[1], False)
            winnable = True
            looking[:] = [ordered[0], None]
            chosen = self._longest(ordered, moves, looking, 0)
            replies = sorted(chosen.replies, key=_Class.order) if chosen.replies else None
            reply = self._longest(replies, moves - 1, looking, 1) if replies else None
            return _Choice(chosen, reply, True)
        except SearchAborted as aborted:
            chosen, reply = looking
            assert chosen is not None
            if reply is None and chosen.replies:
                reply = sorted(chosen.replies, key=_Class.order)[0]
            if winnable:
                return _Choice(chosen, reply, True, f"the longest line not decided ({aborted}): the larger class chosen")
            return _Choice(chosen, reply, None, f"not decided: {aborted}")

    def _first_lost(self, ordered: list[_Class], moves: int, current: list[_Class | None]
                    ) -> tuple[_Class, _Class | None] | None:
        """The first class (game-ending first, then the largest) from which White
        cannot win within ``moves``, with the reply class that shows it; None if none."""
        for option in ordered:
            current[0], current[1] = option, None
            if option.outcome is Outcome.ENDED:
                return option, None
            if option.outcome is Outcome.WON:
                continue
            if option.outcome is Outcome.REFUSED:
                if not self._wins(option.belief, moves, option.state):
                    return option, None
                continue
            if option.replies is None:  # the last move did not mate
                return option, None
            for reply in sorted(option.replies, key=_Class.order):
                current[1] = reply
                if reply.outcome is Outcome.ENDED or not self._wins(reply.belief, moves - 1, FRESH):
                    return option, reply
        return None

    def _wins(self, belief: BeliefState, moves: int, state: int) -> bool:
        assert self.search is not None
        return moves > 0 and self.search.wins(belief, moves, state)

    def _wins_within(self, option: _Class, moves: int) -> bool:
        if option.outcome is Outcome.WON:
            return True
        if option.outcome is Outcome.ENDED:
            return False
        if option.replies is not None:
            return moves > 1 and all(self._wins_within(reply, moves - 1) for reply in option.replies)
        return self._wins(option.belief, moves, option.state)

    def _longest(self, ordered: list[_Class], moves: int, looking: list[_Class | None], slot: int) -> _Class:
        """Among classes White wins within ``moves``, the one whose shortest win
        is longest (ties: the first, the larger): deepen all together until at
        most one is left unproven.  ``looking[slot]`` follows the likeliest."""
        unresolved = list(ordered)
        for depth in range(1, moves + 1):
            if len(unresolved) == 1:
                break
            left = [option for option in unresolved if not self._wins_within(option, depth)]
            if not left:
                break
            unresolved = left
            looking[slot] = unresolved[0]
        return unresolved[0]

    # --- what White sees ----------------------------------------------------------------
    def view(self) -> TrialView:
        """White's board, what he has heard, the belief's size and the hidden
        men's squares; after the end, the reveal."""
        summary = belief_summary(self.belief, self.hidden_types)
        board = position_to_board(self.belief.positions[0])
        own = board.copy(stack=False)
        for square in chess.SquareSet(own.occupied_co[chess.BLACK]):
            own.remove_piece_at(square)
        own.castling_rights &= own.occupied_co[chess.WHITE]
        own.turn, own.ep_square, own.fullmove_number = chess.WHITE, None, self.move_number
        hidden = [{"name": name, "squares": squares} for name, squares in summary.get("squares", {}).items()]
        return TrialView(own.fen(), summary.get("known", own.board_fen()), self.move_number, self.moves_left,
                         len(self.belief), hidden, list(self.heard), self.over, self.result, self.forced_win,
                         not self.over and self.rules.can_ask(self.state), self.reveal() if self.over else None)

    def reveal(self) -> Reveal:
        """One initial position consistent with everything heard so far and the
        game played from it: a member of the belief traced back class by class."""
        rules = self.rules
        row = self.belief.positions[0]
        plies: list[tuple[int | None, np.ndarray | None]] = []  # (White's move, Black's position after) backwards
        for turn in reversed(self._turns):
            if turn.move is None or turn.answer.outcome is Outcome.REFUSED:
                continue  # nothing moved
            after_reply = None
            if turn.reply is not None:
                after_reply = row
                row = _reply_parent(rules, turn.answer.belief, turn.reply.key, row)
            row = _attempt_parent(rules, turn.before, turn.move, turn.answer.key, row)
            plies.append((turn.move, after_reply))
        board = position_to_board(row)
        initial = board.fen()
        moves: list[str] = []
        for move, after_reply in reversed(plies):
            white = move_to_chess(move)
            moves.append(board.san(white))
            board.push(white)
            if after_reply is not None:
                black = _move_into(board, position_to_board(after_reply), rules.fog)
                moves.append(board.san(black))
                board.push(black)
        return Reveal(initial, moves, board.fen())


def _end_words(key: np.ndarray) -> str:
    """How the game ended, in the referee's words: ``stalemate``, ``draw (insufficient material)``."""
    return codes.describe(int(key[0]) & codes.END_MASK).lower()


def _attempt_parent(rules: RuleSet, before: BeliefState, move: int, key: np.ndarray, child: np.ndarray
                    ) -> np.ndarray:
    """The member of ``before`` that White's ``move`` turned into ``child`` with the answer ``key``."""
    outcome = rules.attempt(before.positions, move)
    match = (outcome.children[:, COLUMN_HASH] == child[COLUMN_HASH]) & np.all(outcome.keys == key, axis=1)
    return before.positions[int(np.flatnonzero(match)[0])]


def _reply_parent(rules: RuleSet, before: BeliefState, key: np.ndarray, child: np.ndarray) -> np.ndarray:
    """The member of ``before`` from which a Black reply heard as ``key`` led to ``child``."""
    outcome = rules.replies(before.positions)
    match = (outcome.children[:, COLUMN_HASH] == child[COLUMN_HASH]) & np.all(outcome.keys == key, axis=1)
    return before.positions[int(outcome.parents[int(np.flatnonzero(match)[0])])]


def _move_into(board: chess.Board, target: chess.Board, fog: bool) -> chess.Move:
    """The move of ``board``'s side to move that leads to ``target``."""
    for move in (board.pseudo_legal_moves if fog else board.legal_moves):
        board.push(move)
        same = board.board_fen() == target.board_fen() and board.castling_rights == target.castling_rights
        board.pop()
        if same:
            return move
    raise ValueError("no move leads to the traced position")
