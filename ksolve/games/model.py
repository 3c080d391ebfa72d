"""The game model: one Kriegspiel game as a referee recorded it (unfiltered) or
as one player heard it (filtered).

A game is a sequence of turns.  A turn is what its mover did before the move
was executed (``actions``: refused attempts, "Any?" questions with their
answers) and the executed move with the referee's announcement (the
``ksolve.rules.codes`` integer plus, under RAND, the pawn-try squares).

Filtering for one side hides the other side's turns: the move becomes None
and the actions become what the viewer hears of them (``Hidden`` counts of
refused attempts, public "Any?" answers), per rule set:

============  ==========================================================
berkeley,     the number of refused attempts ("No" is heard by both)
cincinnati,
rand
berkeley-any  the number of refused attempts; "Any?" is answered to the
              asker alone, and a "No" adds the number of his possible
              pawn captures (distinct from-to diagonal steps) to that
              count (DOMAIN.md section 3)
english       refused attempts and "Any?" with its answer, in order (the
              umpire's words are heard by both players)
wild16        nothing ("Illegal" is told to the mover only)
============  ==========================================================

>>> game = Game("berkeley", (Turn(True, (Refused("e2e4"),), "d2d4", 0),))
>>> filter_game(game, False).turns[0]
Turn(white=True, actions=(Hidden(count=1),), move=None, code=0, extra=0)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Union

import chess

from ksolve.rules import codes, get_rules

STANDARD_FEN = chess.STARTING_FEN


@dataclass(frozen=True)
class Refused:
    """An attempt the referee refused ("No"), as UCI."""

    move: str


@dataclass(frozen=True)
class Ask:
    """"Any?" and its answer: ``yes`` for "Try" / "Yes"."""

    yes: bool


@dataclass(frozen=True)
class Hidden:
    """The hidden side's refused attempts, heard only as their number (>= 1)."""

    count: int


Action = Union[Refused, Ask, Hidden]


@dataclass(frozen=True)
class Turn:
    """One player's turn: what he did, then the executed move (None if hidden)."""

    white: bool
    actions: tuple[Action, ...]
    move: str | None
    code: int
    extra: int = 0

    @property
    def hidden(self) -> bool:
        return self.move is None


@dataclass(frozen=True)
class Game:
    """A recorded game; ``view`` is the side it is filtered for (None: unfiltered)."""

    rules: str
    turns: tuple[Turn, ...]
    fen: str | None = None
    """The start position (None: the standard one)."""
    view: bool | None = None
    result: str = "*"
    tags: tuple[tuple[str, str], ...] = field(default=())
    """Other PGN tags (Event, Site, ...), in order."""

    @property
    def start_fen(self) -> str:
        return self.fen or STANDARD_FEN

    def boards(self) -> list[chess.Board]:
        """The true position before each turn and after the last (unfiltered games).

        >>> [b.fen().split()[0] for b in Game("berkeley", (Turn(True, (), "e2e4", 0),)).boards()][1]
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR'
        """
        if self.view is not None:
            raise ValueError("a filtered game has no true positions")
        board = chess.Board(self.start_fen)
        boards = [board.copy(stack=False)]
        for turn in self.turns:
            board.push(chess.Move.from_uci(turn.move))  # type: ignore[arg-type]
            boards.append(board.copy(stack=False))
        return boards


def possible_pawn_captures(board: chess.Board) -> int:
    """The number of distinct diagonal pawn steps of the side to move onto squares
    not held by its own men: what Berkeley+Any adds to the refused count after "No".

    >>> possible_pawn_captures(chess.Board("4k3/8/8/8/8/8/1P5P/4K3 w - - 0 1"))
    3
    """
    own = board.occupied_co[board.turn]
    return sum(len(board.attacks(square) & ~chess.SquareSet(own))
               for square in board.pieces(chess.PAWN, board.turn))


def heard_actions(rules: str, actions: tuple[Action, ...], board: chess.Board | None) -> tuple[Action, ...]:
    """What the opponent hears of a turn's ``actions`` (``board``: the position
    before the turn, needed under berkeley-any), in canonical form: counts >= 1,
    no two counts in a row.

    >>> heard_actions("english", (Refused("e2e4"), Ask(False), Refused("d2d4"), Refused("c2c4")), None)
    (Hidden(count=1), Ask(yes=False), Hidden(count=2))
    """
    rule_set = get_rules(rules)
    if not rule_set.refusal_count_heard:
        return ()
    heard: list[Action] = []
    count = 0
    for action in actions:
        if isinstance(action, (Refused, Hidden)):
            count += 1 if isinstance(action, Refused) else action.count
        elif rule_set.opponent_any_heard:
            if count:
                heard.append(Hidden(count))
            count = 0
            heard.append(action)
        elif rule_set.any_no_counts_pawn_captures and not action.yes:
            if board is None:
                raise ValueError(f"{rules} needs the position to count the possible pawn captures")
            count += possible_pawn_captures(board)
    if count:
        heard.append(Hidden(count))
    return tuple(heard)


def filter_game(game: Game, view: bool) -> Game:
    """The game as ``view`` (True: White) heard it: the other side's turns hidden."""
    if game.view is not None:
        if game.view != view:
            raise ValueError("a game filtered for one side cannot be filtered for the other")
        return game
    counts_pawn_captures = get_rules(game.rules).any_no_counts_pawn_captures
    boards = game.boards() if counts_pawn_captures else [None] * (len(game.turns) + 1)
    turns = tuple(turn if turn.white == view else
                  replace(turn, actions=heard_actions(game.rules, turn.actions, boards[i]), move=None)
                  for i, turn in enumerate(game.turns))
    return replace(game, turns=turns, view=view)


def result_of(code: int, mover_white: bool, rules: str) -> str:
    """The PGN result after a move announced with ``code`` by ``mover_white``.

    >>> result_of(codes.END_CHECKMATE << codes.END_SHIFT, False, "berkeley")
    '0-1'
    """
    end = codes.end_of(code)
    if end == codes.END_NONE:
        return "*"
    if end == codes.END_CHECKMATE or (end == codes.END_STALEMATE and get_rules(rules).stalemate_wins):
        return "1-0" if mover_white else "0-1"
    return "1/2-1/2"
