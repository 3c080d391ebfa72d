"""One game between two sides, kept by the referee: Kriegspiel under any of
ksolve's rule sets, or Fog of War.

The side to move makes attempts (``attempt``, and ``ask_any`` where the rule
set has "Any?"); the referee answers in the rule set's words and executes the
first legal attempt.  The session keeps the announcements each side heard
(``log``), what each side sees (``view``), the record (``record``: the full
game as ``ksolve.games.model.Game``) and what each side heard of every turn
(``observations``, what a computer player thinks from).

Draws: whatever the rule set's referee announces (stalemate, insufficient
material where the rule set says so, Fog of War's 50-move rule), and at the
game level for every rule set threefold repetition of the position (same men,
side to move, castling and en-passant rights) and the 50-move rule.  Fog of
War is never drawn for insufficient material and is won by capturing the king.

>>> game = GameSession("fog-of-war")
>>> game.attempt("e2e4").words, game.to_move == chess.BLACK
('Moved', True)
>>> [entry.text for entry in game.log_for(chess.BLACK)]
['White moved']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import chess
import numpy as np

from ksolve.board import move_from_uci, move_to_uci, position_from_fen, position_to_board
from ksolve.board.layout import COLUMN_HALFMOVE, COLUMN_HASH
from ksolve.games.model import STANDARD_FEN, Action, Ask, Game, Refused, Turn, heard_actions, result_of
from ksolve.play.mirror import mirror_code, mirror_position
from ksolve.play.views import SideView, side_view
from ksolve.rules import UnknownRules, codes, get_rules
from ksolve.rules.referee import Referee

FIFTY_MOVES = 100
"""Halfmoves without a capture or pawn move that draw the game."""
REPETITIONS = 3


class PlayError(ValueError):
    """Bad input to a game (one line: what and why)."""


@dataclass(frozen=True)
class LogEntry:
    """One line of the announcements log and who heard it."""

    number: str
    """The move number as written before the move: ``12.`` or ``12...``."""
    text: str
    heard_by: tuple[chess.Color, ...]


@dataclass(frozen=True)
class Answer:
    """The referee's answer to one attempt or question."""

    kind: str
    """``move``, ``illegal``, ``impossible``, ``nonsense``, ``any-yes`` or ``any-no``."""
    words: str
    """In the rule set's words, as the mover hears them."""

    @property
    def moved(self) -> bool:
        return self.kind == "move"


@dataclass(frozen=True)
class Observation:
    """What one side heard of one finished turn.

    ``turn`` is the turn as that side heard it (his own in full; the
    opponent's with the move hidden and only the actions he hears).
    ``fog_key`` (Fog of War) is the rule set's observation key of the
    position after the turn in that side's frame (the mirrored game for
    Black), its code column the turn's announcement."""

    turn: Turn
    fog_key: np.ndarray | None = None


class GameSession:
    """A game from a start position (Fog of War: the standard start only)."""

    def __init__(self, rules: str = "wild16", fen: str | None = None) -> None:
        try:
            self.rules = get_rules(rules)
        except UnknownRules as error:
            raise PlayError(f"rules: {error}") from None
        if not (self.rules.fog or self.rules.kriegspiel_games):
            raise PlayError(f"rules: {rules} is not played here (the Kriegspiel rule sets and fog-of-war)")
        self.rules_name = rules
        if self.rules.fog and fen not in (None, STANDARD_FEN):
            raise PlayError("fen: Fog of War is played from the standard start position only")
        try:
            position = position_from_fen(fen or STANDARD_FEN, fog=self.rules.fog)
        except ValueError as error:
            raise PlayError(f"fen: {error}") from None
        start = chess.Board(fen or STANDARD_FEN)
        if not any(start.pseudo_legal_moves if self.rules.fog else start.legal_moves):
            raise PlayError("fen: the side to move has no move (mate or stalemate): there is no game to play")
        self.fen = fen
        self.referee = Referee(self.rules, position)
        self.turns: list[Turn] = []
        self.positions: list[np.ndarray] = [self.referee.position.copy()]
        """The true position before each turn and after the last."""
        self.log: list[LogEntry] = []
        self.observations: dict[chess.Color, list[Observation]] = {chess.WHITE: [], chess.BLACK: []}
        self.result = "*"
        self.termination = ""
        self._actions: list[Action] = []
        self._lost: dict[chess.Color, chess.Square | None] = {chess.WHITE: None, chess.BLACK: None}
        self._seen = Counter([int(position[COLUMN_HASH])])

    # --- the state --------------------------------------------------------------
    @property
    def to_move(self) -> chess.Color:
        return chess.WHITE if self.referee.turn == 0 else chess.BLACK

    @property
    def over(self) -> bool:
        return self.result != "*"

    @property
    def number(self) -> str:
        """The current move number as written before the mover's move."""
        start = chess.Board(self.fen or STANDARD_FEN)
        plies = len(self.turns) + (start.turn == chess.BLACK)
        full = start.fullmove_number + plies // 2
        return f"{full}." if plies % 2 == 0 else f"{full}..."

    def can_ask(self) -> bool:
        """Whether the mover may ask "Any?" now."""
        return not self.over and self.referee.can_ask()

    def askable(self) -> list[str]:
        """The attempts the mover may make now, in UCI (his own board's moves and
        pawn tries, without those refused this turn)."""
        if self.over:
            return []
        return sorted(move_to_uci(m) for m in self.referee.askable())

    def view(self, side: chess.Color) -> SideView:
        """What ``side`` sees now (his men; in Fog of War also what they see)."""
        return side_view(self.referee.position, side, self.rules.fog, self._lost[side])

    def board(self) -> chess.Board:
        """The true position (the referee's board)."""
        return position_to_board(self.referee.position)

    def board_fens(self) -> list[str]:
        """The true board (FEN's first field) before each move and after the last."""
        return [position_to_board(position).board_fen() for position in self.positions]

    def log_for(self, side: chess.Color) -> list[LogEntry]:
        """The announcements ``side`` heard, in order."""
        return [entry for entry in self.log if side in entry.heard_by]

    # --- playing -------------------------------------------------------------------
    def attempt(self, uci: str) -> Answer:
        """The mover attempts ``uci``; raises ``PlayError`` for text that is no move
        or any attempt after the end."""
        if self.over:
            raise PlayError(f"move: the game is over ({self.result}, {self.termination})")
        token = str(uci).strip()
        try:
            move = move_from_uci(token)
        except ValueError as error:
            raise PlayError(f"move: {error}") from None
        mover = self.to_move
        if move not in self.referee.askable():
            kind = self.referee.impossible_answer
            words = self.rules.refusal_words if kind == "illegal" else kind.capitalize()
            self._say(words, (mover,))
            return Answer(kind, words)
        before = self.referee.position.copy()
        answer = self.referee.attempt(move)
        if answer.kind == "illegal":
            self._actions.append(Refused(token))
            words = self.rules.refusal_words
            self._say(f"{token}: {words}", (mover,))
            return Answer("illegal", words)
        code = answer.code
        turn = Turn(mover == chess.WHITE, tuple(self._actions), token, code, 0 if self.rules.fog else answer.extra)
        self._finish_turn(turn, before)
        return Answer("move", self._move_words(code))

    def ask_any(self) -> Answer:
        """The mover asks "Any?"; ``PlayError`` where it cannot be asked now."""
        if not self.can_ask():
            if not self.rules.any_question:
                raise PlayError(f"any: the {self.rules_name} rules have no 'Any?' question")
            raise PlayError("any: 'Any?' cannot be asked now" + (" (the game is over)" if self.over else ""))
        answer = self.referee.ask_any()
        self._actions.append(Ask(answer.kind == "any-yes"))
        heard = (chess.WHITE, chess.BLACK) if self.rules.opponent_any_heard else (self.to_move,)
        self._say(f"Any? {answer.words}", heard)
        return Answer(answer.kind, answer.words)

    # --- the record ----------------------------------------------------------------
    def record(self, tags: tuple[tuple[str, str], ...] = ()) -> Game:
        """The full game (every move and attempt)."""
        if self.termination:
            tags = tags + (("Termination", self.termination),)
        return Game(self.rules_name, tuple(self.turns), self.fen, None, self.result, tags)

    # --- inside -----------------------------------------------------------------------
    def _say(self, text: str, heard_by: tuple[chess.Color, ...]) -> None:
        self.log.append(LogEntry(self.number, text, heard_by))

    def _move_words(self, code: int) -> str:
        if not self.rules.fog:
            return self.rules.describe(np.array([code, self.turns[-1].extra], dtype=np.uint64))
        return _fog_words(code, for_mover=True)

    def _finish_turn(self, turn: Turn, before: np.ndarray) -> None:
        mover = chess.WHITE if turn.white else chess.BLACK
        number = self.number
        self.turns.append(turn)
        self._actions = []
        position = self.referee.position
        self.positions.append(position.copy())
        opponent_heard = heard_actions(self.rules_name, turn.actions, position_to_board(before)) \
            if self.rules.kriegspiel_games else ()
        if self.rules.fog:
            self.log.append(LogEntry(number, f"{turn.move}: {_fog_words(turn.code, True)}", (mover,)))
            self.log.append(LogEntry(number, f"{'White' if turn.white else 'Black'} "
                                     f"{_fog_words(turn.code, False)}", (not mover,)))
            square = codes.capture_square(turn.code)
            self._lost = {mover: None, not mover: square}
        else:
            if opponent_heard:
                self.log.append(LogEntry(number, _heard_words(opponent_heard), (not mover,)))
            words = self.rules.describe(np.array([turn.code, turn.extra], dtype=np.uint64))
            self.log.append(LogEntry(number, f"{turn.move}: {words}", (mover,)))
            self.log.append(LogEntry(number, f"{'White' if turn.white else 'Black'} moved: {words}", (not mover,)))
        self._observe(turn, opponent_heard, mover)
        self._judge(turn, position)

    def _observe(self, turn: Turn, opponent_heard: tuple, mover: chess.Color) -> None:
        hidden = Turn(turn.white, opponent_heard, None, turn.code, turn.extra)
        for side, seen in ((mover, turn), (not mover, hidden)):
            key = None
            if self.rules.fog:
                frame = self.referee.position if side == chess.WHITE else mirror_position(self.referee.position, True)
                key = self.rules.turn_info(frame)[0].copy()
                key[0] = turn.code if side == chess.WHITE else mirror_code(turn.code, 0)[0]
            self.observations[side].append(Observation(seen, key))

    def _judge(self, turn: Turn, position: np.ndarray) -> None:
        end = codes.end_of(turn.code)
        if end != codes.END_NONE:
            if end == self.rules.winning_end and self.rules.fog:
                self.result = "1-0" if turn.white else "0-1"
            else:
                self.result = result_of(turn.code, turn.white, self.rules_name)
            self.termination = codes.describe(turn.code & codes.END_MASK)
            return
        key = int(position[COLUMN_HASH])
        self._seen[key] += 1
        if self._seen[key] >= REPETITIONS:
            self.result, self.termination = "1/2-1/2", "draw by threefold repetition"
        elif int(position[COLUMN_HALFMOVE]) >= FIFTY_MOVES:
            self.result, self.termination = "1/2-1/2", "draw by the 50-move rule"
        if self.over:
            self.referee.game_over = True
            self.log.append(LogEntry(self.number, self.termination.capitalize(), (chess.WHITE, chess.BLACK)))


def _fog_words(code: int, for_mover: bool) -> str:
    """Fog of War's report of a move: to its mover, or to the other side."""
    parts = []
    square = codes.capture_square(code)
    if square is not None:
        name = chess.square_name(square)
        parts.append(f"captured on {name}" if for_mover else f"captured your man on {name}")
    end = codes.end_of(code)
    if end == codes.END_KING_CAPTURED:
        parts = ["captured the king"]
    elif end:
        parts.append(codes.describe(code & codes.END_MASK))
    if not parts:
        return "Moved" if for_mover else "moved"
    text = ", ".join(parts)
    return text[0].upper() + text[1:] if for_mover else text


def _heard_words(actions: tuple) -> str:
    """What the opponent heard of a turn's attempts, as one line."""
    words = []
    for action in actions:
        if isinstance(action, Ask):
            words.append(f"Any? {'Yes' if action.yes else 'No'}")
        else:
            words.append(f"{action.count} refused attempt{'s' if action.count != 1 else ''}")
    return ", ".join(words)

