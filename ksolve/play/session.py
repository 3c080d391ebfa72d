"""One game between two sides, kept by the referee: Kriegspiel under any of
ksolve's rule sets, or Fog of War.

The side to move makes attempts (``attempt``: UCI or SAN of his own board,
and ``ask_any`` where the rule set has "Any?"); the referee answers in the
rule set's words and executes the first legal attempt.  The session keeps
the announcements each side heard (``log``, moves in SAN; the lines a
spectator may read are marked ``public``), what each side sees (``view``),
what each side knows of the last move and of a check (``last_squares``,
``in_check``), the record (``record``: the full game as
``ksolve.games.model.Game``) and what each side heard of every turn
(``observations``, what a computer player thinks from).

The rule sets played are ``PLAYABLE``: the six Kriegspiel rule sets and Fog
of War (orthodox chess has no hidden men; Modern Kriegspiel's probes are
not offered in a game).

Besides attempts, a side may ``resign``, offer a draw on his turn (``offer_draw``;
the other side ``answer_draw``s it, and a move of his lets it lapse) and take
back the last executed move (``take_back``: the game as it stood before that
move, with the mover's refused attempts of that turn still heard).  A game may
have a clock (``TimeControl``): the referee measures every attempt and
question (``timings``), charges the mover's time once each side has made his
first move, adds the increment after each move, and a side whose time has run
out loses (draws, if the other has his king alone) at his next attempt or at
``flag``.

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
>>> game = GameSession("berkeley")
>>> game.attempt("Nf3").words, game.attempt("e7e5").words, game.attempt("Nxe5").words
('Silent', 'Silent', 'Capture at e5')
>>> [f"{entry.number} {entry.text}" for entry in game.log_for(chess.WHITE)], game.last_squares(chess.BLACK)
(['1. Nf3: Silent', '1... Black moved: Silent', '2. Nxe5: Capture at e5'], ('e7', 'e5'))
>>> game.take_back(); game.to_move == chess.WHITE, game.log_for(chess.BLACK)[-1].text
(True, 'White takes back his move')
>>> game.offer_draw(chess.WHITE); _ = game.attempt("Nxe5"); game.answer_draw(chess.BLACK, True)
>>> game.result, game.termination
('1/2-1/2', 'draw by agreement')
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import chess
import numpy as np

from ksolve.board import move_from_uci, move_to_uci, position_from_fen, position_to_board
from ksolve.board.layout import COLUMN_BLACK, COLUMN_HALFMOVE, COLUMN_HASH, COLUMN_WHITE
from ksolve.games.model import STANDARD_FEN, Action, Ask, Game, Refused, Turn, heard_actions, result_of
from ksolve.play.mirror import mirror_code, mirror_position
from ksolve.play.moves import MoveTextError, played_san, read_move
from ksolve.play.views import SideView, side_view
from ksolve.retro import unreachable_reason
from ksolve.rules import REGISTRY, codes, get_rules, kriegspiel_rule_set_names
from ksolve.rules.notation import attempt_san, own_board
from ksolve.rules.referee import Referee

FIFTY_MOVES = 100
"""Halfmoves without a capture or pawn move that draw the game."""
REPETITIONS = 3
PLAYABLE = (*kriegspiel_rule_set_names(), "fog-of-war")
"""The rule sets a game is played under (the first names in ``ksolve.rules.REGISTRY``' order)."""


MATERIAL = (1, 3, 3, 5, 9)
"""The men's values for a material count: pawn, knight, bishop, rook, queen."""


class PlayError(ValueError):
    """Bad input to a game (one line: what and why)."""


class PlayConflict(PlayError):
    """A request the game refuses as it stands now (it is over, it is not that side's
    turn, there is no offer to answer or no move to take back): one line."""


@dataclass(frozen=True)
class TimeControl:
    """A clock: ``limit`` seconds for each side, ``increment`` seconds added after each of
    his moves (Fischer).

    >>> TimeControl(300, 5).name, TimeControl(90, 0).name
    ('300+5', '90+0')
    """

    limit: float
    increment: float = 0.0

    @property
    def name(self) -> str:
        """As PGN's ``TimeControl`` tag writes it: seconds, ``+``, the increment."""
        return f"{self.limit:g}+{self.increment:g}"


@dataclass(frozen=True)
class Timing:
    """What one attempt or question took, as the referee measured it."""

    ply: int
    """The turn it belongs to (0: the game's first move)."""
    white: bool
    kind: str
    """The answer's kind (``move``, ``illegal``, ``any-yes``, ...)."""
    seconds: float
    counted: bool
    """Whether it was charged to the clock (not before each side's first move, nor untimed)."""


@dataclass(frozen=True)
class LogEntry:
    """One line of the announcements log and who heard it."""

    number: str
    """The move number as written before the move: ``12.`` or ``12...``."""
    text: str
    heard_by: tuple[chess.Color, ...]
    public: str | None = None
    """The line as a spectator reads it (None: it is not for spectators: a move, a refused attempt)."""


@dataclass(frozen=True)
class Answer:
    """The referee's answer to one attempt or question."""

    kind: str
    """``move``, ``illegal``, ``impossible``, ``nonsense``, ``any-yes`` or ``any-no``; ``time``:
    the mover's time had run out (nothing was attempted, the game is over)."""
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
    """A game from a start position: ``fen``, None for the standard start (Fog of
    War: the standard start only); ``PlayError`` for a rule set not played here or
    a FEN that is no position to play from (an empty one among them).  ``clock``:
    the time control (None: untimed); ``now``: the referee's clock in seconds."""

    def __init__(self, rules: str = "wild16", fen: str | None = None, clock: TimeControl | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        if rules not in PLAYABLE:
            what = f"{rules} is not played here" if rules in REGISTRY else f"unknown rule set {rules!r}"
            raise PlayError(f"rules: {what}; played here: {', '.join(PLAYABLE)}")
        self.rules = get_rules(rules)
        self.rules_name = rules
        if fen is not None and not fen.strip():
            raise PlayError("fen: an empty FEN is no position (leave it out for the standard start)")
        if self.rules.fog and fen not in (None, STANDARD_FEN):
            raise PlayError("fen: Fog of War is played from the standard start position only")
        try:
            position = position_from_fen(fen or STANDARD_FEN, fog=self.rules.fog)
        except ValueError as error:
            raise PlayError(f"fen: {error}") from None
        start = chess.Board(fen or STANDARD_FEN)
        unreachable = unreachable_reason(start)
        if unreachable:
            raise PlayError(f"fen: no game reaches it: {unreachable}")
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
        self._move_marks: list[int] = []
        """The log's length before each executed move's lines (what a takeback cuts)."""
        self.draw_offer: chess.Color | None = None
        """The side whose draw offer stands (None: no offer)."""
        self._offered: dict[chess.Color, int] = {}
        """The turn (number of moves played) of each side's last draw offer."""
        self.clock = clock
        self._now = now
        self.remaining: dict[chess.Color, float] = {} if clock is None else \
            {chess.WHITE: float(clock.limit), chess.BLACK: float(clock.limit)}
        """Each side's time left when his clock last stopped (see ``time_left``)."""
        self.timings: list[Timing] = []
        self._mark = now()
        """When the mover began thinking (his turn began, or his last answer came)."""

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

    def board_at(self, ply: int) -> chess.Board:
        """The true position before the move ``ply`` (0: the start; ``len(turns)``: now)."""
        return position_to_board(self.positions[ply])

    def board_fens(self) -> list[str]:
        """The true board (FEN's first field) before each move and after the last."""
        return [position_to_board(position).board_fen() for position in self.positions]

    def log_for(self, side: chess.Color) -> list[LogEntry]:
        """The announcements ``side`` heard, in order."""
        return [entry for entry in self.log if side in entry.heard_by]

    def san(self, ply: int) -> str:
        """The move of ``ply`` (0: the first) in SAN on the true board before it."""
        return played_san(position_to_board(self.positions[ply]), self.turns[ply].move, bool(self.rules.fog))  # type: ignore[arg-type]

    def sans(self) -> list[str]:
        """Every move played, in SAN."""
        return [self.san(ply) for ply in range(len(self.turns))]

    def last_squares(self, side: chess.Color) -> tuple[str, ...]:
        """The squares of the last moves that ``side`` knows: both squares of his own last
        move, and where the opponent's move after it captured (the square is announced).

        >>> game = GameSession("berkeley")
        >>> _ = game.attempt("e4"), game.attempt("d5")
        >>> game.last_squares(chess.WHITE), game.last_squares(chess.BLACK)
        (('e2', 'e4'), ('d7', 'd5'))
        """
        white = side == chess.WHITE
        own = next((turn for turn in reversed(self.turns) if turn.white == white), None)
        squares = () if own is None else (own.move[:2], own.move[2:4])  # type: ignore[index]
        if self.turns and self.turns[-1].white != white:
            square = codes.capture_square(self.turns[-1].code)
            if square is not None and chess.square_name(square) not in squares:
                squares += (chess.square_name(square),)
        return squares

    def in_check(self, side: chess.Color) -> bool:
        """Whether ``side``'s king is in check as he was told (Kriegspiel: the opponent's
        last move announced a check; Fog of War announces none)."""
        if self.rules.fog or not self.turns or self.to_move != side:
            return False
        return bool(self.turns[-1].code & codes.CHECK_MASK)

    def refused(self) -> list[str]:
        """The mover's attempts refused this turn (UCI)."""
        return [action.move for action in self._actions if isinstance(action, Refused)]

    def can_offer_draw(self, side: chess.Color) -> bool:
        """Whether ``side`` may offer a draw now: on his turn, once a turn, no offer standing."""
        return (not self.over and side == self.to_move and self.draw_offer is None
                and self._offered.get(side) != len(self.turns))

    def must_capture(self) -> bool:
        """Whether the mover must try a pawn capture now ("Any?" answered yes)."""
        return not self.over and self.referee.must_use_pawns

    # --- the clock ------------------------------------------------------------------
    @property
    def clock_running(self) -> bool:
        """Whether the mover's clock runs: a timed game going on, each side has moved once."""
        return self.clock is not None and not self.over and len(self.turns) >= 2

    def time_left(self, side: chess.Color) -> float | None:
        """``side``'s time left now, in seconds (None: an untimed game).

        >>> seconds = [0.0]
        >>> game = GameSession("berkeley", clock=TimeControl(60, 2), now=lambda: seconds[0])
        >>> _ = game.attempt("e4"), game.attempt("e5")   # each side's first move is free
        >>> seconds[0] = 10.0; game.time_left(chess.WHITE)
        50.0
        >>> seconds[0] = 12.5; _ = game.attempt("Nf3"); game.time_left(chess.WHITE)  # 12.5 s spent, 2 added
        49.5
        """
        if self.clock is None:
            return None
        left = self.remaining[side]
        if side == self.to_move and self.clock_running:
            left -= self._now() - self._mark
        return max(0.0, left)

    def flag(self) -> bool:
        """End the game if the mover's time has run out; whether it has."""
        if not self.clock_running or self.time_left(self.to_move) > 0:  # type: ignore[operator]
            return False
        loser = self.to_move
        self.remaining[loser] = 0.0
        board = self.board()
        name, other = _name(loser), _name(not loser)
        if board.occupied_co[not loser] == board.kings & board.occupied_co[not loser]:
            self._end("1/2-1/2", f"draw: {name}'s time ran out and {other} has only his king")
        else:
            self._end(_won(not loser), f"{name} lost on time")
        return True

    def _spend(self, mover: chess.Color, kind: str, moved: bool) -> None:
        """Charge the attempt just answered to the mover's clock (and record its time)."""
        now = self._now()
        seconds, self._mark = now - self._mark, now
        counted = self.clock_running
        self.timings.append(Timing(len(self.turns), mover == chess.WHITE, kind, round(seconds, 3), counted))
        if counted and self.clock is not None:
            self.remaining[mover] -= seconds
            if moved:
                self.remaining[mover] += self.clock.increment

    # --- resigning, draws, takebacks --------------------------------------------------
    def resign(self, side: chess.Color) -> None:
        """``side`` resigns: the other side wins."""
        self._going_on("resign")
        self._end(_won(not side), f"{_name(side)} resigns")

    def offer_draw(self, side: chess.Color) -> None:
        """``side`` offers a draw on his turn (once a turn; it stands until the other side
        answers it or makes a move).  An offer when the other side's stands accepts it."""
        self._going_on("draw")
        if self.draw_offer == (not side):
            return self.answer_draw(side, True)
        if side != self.to_move:
            raise PlayConflict(f"draw: a draw is offered on one's own turn; it is {_name(self.to_move)}'s")
        if self.draw_offer == side or self._offered.get(side) == len(self.turns):
            raise PlayConflict(f"draw: {_name(side)} has offered a draw this turn already")
        self.draw_offer, self._offered[side] = side, len(self.turns)
        self._say(f"{_name(side)} offers a draw", (chess.WHITE, chess.BLACK), f"{_name(side)} offers a draw")

    def answer_draw(self, side: chess.Color, accept: bool) -> None:
        """``side`` accepts (a draw by agreement) or declines the other side's offer."""
        self._going_on("draw")
        if self.draw_offer != (not side):
            raise PlayConflict(f"draw: no draw has been offered to {_name(side)}")
        if accept:
            self._end("1/2-1/2", "draw by agreement")
            return
        self.draw_offer = None
        self._say(f"{_name(side)} declines the draw", (chess.WHITE, chess.BLACK), f"{_name(side)} declines the draw")

    def take_back(self) -> None:
        """Undo the last executed move and everything heard since: the game stands as it
        did before that move (its mover's refused attempts of that turn still heard), his
        clock loses the move's increment and runs again; a standing draw offer is withdrawn.

        >>> game = GameSession("berkeley")
        >>> _ = game.attempt("e4"), game.attempt("e5"), game.attempt("e4e5")
        >>> game.take_back(); game.board().fen().split()[0], game.to_move == chess.BLACK
        ('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR', True)
        """
        self._going_on("takeback")
        if not self.turns:
            raise PlayConflict("takeback: no move has been made yet")
        last, mark, ply = self.turns[-1], self._move_marks[-1], len(self.turns) - 1
        mover = chess.WHITE if last.white else chess.BLACK
        now = self._now()
        if self.clock is not None:
            if self.clock_running:
                self.remaining[self.to_move] -= now - self._mark  # the time the other side spent stays spent
            if any(t.ply == ply and t.kind == "move" and t.counted for t in self.timings):
                self.remaining[mover] -= self.clock.increment
        self._mark = now
        fresh = GameSession(self.rules_name, self.fen)
        for turn in self.turns[:-1]:
            fresh._replay(turn.actions)
            fresh.attempt(turn.move)  # type: ignore[arg-type]
        fresh._replay(last.actions)
        for name in ("referee", "turns", "positions", "observations", "_actions", "_lost", "_seen"):
            setattr(self, name, getattr(fresh, name))
        self.log, self._move_marks = self.log[:mark], self._move_marks[:-1]
        self.timings = [t for t in self.timings if t.ply < ply or (t.ply == ply and t.kind != "move")]
        self.draw_offer = None
        self._offered.pop(mover, None)
        self._say(f"{_name(mover)} takes back his move", (chess.WHITE, chess.BLACK),
                  f"{_name(mover)} takes back his move")

    def _replay(self, actions: tuple) -> None:
        for action in actions:
            if isinstance(action, Ask):
                self.ask_any()
            elif isinstance(action, Refused):
                self.attempt(action.move)

    def _going_on(self, what: str) -> None:
        """``PlayConflict`` unless the game goes on (a mover whose time ran out loses first)."""
        self.flag()
        if self.over:
            raise PlayConflict(f"{what}: the game is over ({self.result}, {self.termination})")

    def _end(self, result: str, termination: str) -> None:
        """The game ends off the board (resignation, agreement, time): said to both."""
        self.result, self.termination = result, termination
        self.referee.game_over = True
        self.draw_offer = None
        self._say(termination[0].upper() + termination[1:], (chess.WHITE, chess.BLACK),
                  termination[0].upper() + termination[1:])

    # --- playing -------------------------------------------------------------------
    def read(self, text: str) -> str:
        """What the mover typed, as UCI (UCI, or SAN of his own board); ``PlayError`` otherwise."""
        if self.over:
            raise PlayError(f"move: the game is over ({self.result}, {self.termination})")
        try:
            return read_move(self.board(), str(text), bool(self.rules.fog), self.askable())
        except MoveTextError as error:
            raise PlayError(f"move: {error}") from None

    def attempt(self, text: str) -> Answer:
        """The mover attempts ``text`` (UCI, or SAN of his own board); raises ``PlayError``
        for text that is no move and for any attempt after the end.  A mover whose time
        has run out loses on time instead (kind ``time``)."""
        if self.flag():
            return Answer("time", self.termination)
        token = self.read(text)
        try:
            move = move_from_uci(token)
        except ValueError as error:
            raise PlayError(f"move: {error}") from None
        mover = self.to_move
        if move not in self.referee.askable():
            kind = self.referee.impossible_answer
            words = self.rules.refusal_words if kind == "illegal" else kind.capitalize()
            self._say(f"{str(text).strip()}: {words}", (mover,))
            self._spend(mover, kind, False)
            return Answer(kind, words)
        before = self.referee.position.copy()
        answer = self.referee.attempt(move)
        if answer.kind == "illegal":
            self._actions.append(Refused(token))
            words = self.rules.refusal_words
            self._say(f"{attempt_san(own_board(position_to_board(before)), token)}: {words}", (mover,))
            self._spend(mover, "illegal", False)
            return Answer("illegal", words)
        code = answer.code
        turn = Turn(mover == chess.WHITE, tuple(self._actions), token, code, 0 if self.rules.fog else answer.extra)
        self._spend(mover, "move", True)
        self._finish_turn(turn, before)
        return Answer("move", self._move_words(code))

    def ask_any(self) -> Answer:
        """The mover asks "Any?"; ``PlayError`` where it cannot be asked now (a mover whose
        time has run out loses on time instead)."""
        if self.flag():
            return Answer("time", self.termination)
        if not self.can_ask():
            if not self.rules.any_question:
                raise PlayError(f"any: the {self.rules_name} rules have no 'Any?' question")
            raise PlayError("any: 'Any?' cannot be asked now" + (" (the game is over)" if self.over else ""))
        mover = "White" if self.to_move == chess.WHITE else "Black"
        answer = self.referee.ask_any()
        self._actions.append(Ask(answer.kind == "any-yes"))
        both = self.rules.opponent_any_heard
        self._say(f"Any? {answer.words}", (chess.WHITE, chess.BLACK) if both else (self.to_move,),
                  f"{mover}: Any? {answer.words}" if both else None)
        self._spend(self.to_move, answer.kind, False)
        return Answer(answer.kind, answer.words)

    # --- the record ----------------------------------------------------------------
    def record(self, tags: tuple[tuple[str, str], ...] = ()) -> Game:
        """The full game (every move and attempt)."""
        if self.clock is not None:
            tags = tags + (("TimeControl", self.clock.name),)
        if self.termination:
            tags = tags + (("Termination", self.termination),)
        return Game(self.rules_name, tuple(self.turns), self.fen, None, self.result, tags)

    # --- inside -----------------------------------------------------------------------
    def _say(self, text: str, heard_by: tuple[chess.Color, ...], public: str | None = None) -> None:
        self.log.append(LogEntry(self.number, text, heard_by, public))

    def _move_words(self, code: int) -> str:
        if not self.rules.fog:
            return self.rules.describe(np.array([code, self.turns[-1].extra], dtype=np.uint64))
        return fog_words(code, for_mover=True)

    def _finish_turn(self, turn: Turn, before: np.ndarray) -> None:
        """Log the executed move (under this turn's number), then record it and judge the position."""
        mover = chess.WHITE if turn.white else chess.BLACK
        name = "White" if turn.white else "Black"
        if self.draw_offer == (not mover):  # he plays on: the offer made to him lapses
            self.draw_offer = None
        self._move_marks.append(len(self.log))
        san = played_san(position_to_board(before), turn.move, bool(self.rules.fog))  # type: ignore[arg-type]
        opponent_heard = heard_actions(self.rules_name, turn.actions, position_to_board(before)) \
            if self.rules.kriegspiel_games else ()
        if self.rules.fog:
            self._say(f"{san}: {fog_words(turn.code, True)}", (mover,))
            self._say(f"{name} {fog_words(turn.code, False)}", (not mover,), f"{name} {fog_words(turn.code, False).replace('your man ', '')}")
            self._lost = {mover: None, not mover: codes.capture_square(turn.code)}
        else:
            if opponent_heard:
                heard = _heard_words(opponent_heard)
                self._say(heard, (not mover,), f"{name}: {heard}")
            words = self.rules.describe(np.array([turn.code, turn.extra], dtype=np.uint64))
            self._say(f"{san}: {words}", (mover,))
            self._say(f"{name} moved: {words}", (not mover,), f"{name} moved: {words}")
        self.turns.append(turn)
        self._actions = []
        position = self.referee.position
        self.positions.append(position.copy())
        self._observe(turn, opponent_heard, mover)
        self._judge(turn, position)
        if self.over:
            self.draw_offer = None

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
            self._say(self.termination.capitalize(), (chess.WHITE, chess.BLACK), self.termination.capitalize())


def material_balance(positions: np.ndarray) -> float:
    """Over ``positions`` (rows of the board layout), the mean of White's material less
    Black's (``MATERIAL``: pawn 1, knight and bishop 3, rook 5, queen 9); 0 for none.

    >>> from ksolve.board import position_from_fen
    >>> material_balance(position_from_fen("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1")[np.newaxis, :])
    6.0
    """
    if not len(positions):
        return 0.0
    total = np.zeros(len(positions))
    for piece, value in enumerate(MATERIAL):
        for column, sign in ((COLUMN_WHITE + piece, 1), (COLUMN_BLACK + piece, -1)):
            bits = np.ascontiguousarray(positions[:, column]).view(np.uint8).reshape(-1, 8)
            total += sign * value * np.unpackbits(bits, axis=1).sum(axis=1, dtype=np.int64)
    return float(total.mean())


def _name(side: chess.Color) -> str:
    return "White" if side == chess.WHITE else "Black"


def _won(side: chess.Color) -> str:
    return "1-0" if side == chess.WHITE else "0-1"


def fog_words(code: int, for_mover: bool) -> str:
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

