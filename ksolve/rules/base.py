"""The rule-set interface: a rule set owns the whole referee protocol as White meets it.

- **Observations.** Every method works on a whole array of positions at once
  and returns observation *keys*: a 2-D ``uint64`` array with one row per
  position (or per child).  Two positions give White the same observation
  exactly when their key rows are equal, so a belief state splits into
  classes with one sort.  Column 0 of every key row is the announcement code
  of ``ksolve.rules.codes`` (``ILLEGAL`` for the "No").
- **What an observation means** (``outcome``): refused, won (the rule set's
  win condition: mate, or king capture in Fog of War), the game over without
  a win, or play goes on.
- **Turn states** ("Any?" asked, "Try"/"Yes" obligations) and their
  transitions (``can_ask``, ``any_split``, ``state_after_refusal``,
  ``attempts``).
- **Words and formats** of an observation: ``describe`` (the referee's
  words), ``observation_json`` (the certificate's JSON object).
- **The kernels' view** of the rule set: ``spec``, one ``KernelSpec`` handed
  to the numba kernels.

>>> from ksolve.rules import get_rules
>>> rules = get_rules("berkeley-any")
>>> rules.goal, rules.can_ask(FRESH), rules.can_ask(ASKED), rules.any_answer_words(MUST_CAPTURE)
('mate', True, False, 'Try')
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ksolve.board.batch import move_union
from ksolve.rules import codes

class TurnState(enum.IntEnum):
    """White's turn states (see below); their int values are part of every transposition-table key."""

    FRESH = 0
    ASKED = 1
    MUST_CAPTURE = 2
    MUST_TRY = 3
    PROBED = 4


FRESH, ASKED, MUST_CAPTURE, MUST_TRY, PROBED = TurnState
"""White's turn states: "Any?" not asked (nor a probe made); asked (answered
no, or the obligation fulfilled); answered "Try" (Berkeley+Any: pawn captures
until one is legal); answered "Yes" (English: at least one pawn try); the
probe made or given up (Modern Kriegspiel: no probe before the next turn).
``TurnState`` members are ints (0 to 4): they are part of every transposition-table key.

When "Any?" may be asked: once a turn, at any point before the turn's legal
move, after refused attempts too (a "No" leaves a fresh turn fresh).  The
sources agree: the rules as published describe "Any?" as a question of the
turn, never one of its start only, and the ``kriegspiel`` package's English
and Berkeley+Any rule sets keep the question among the possible ones after an
illegal attempt.  ``can_ask``, ``state_after_any`` and ``state_after_refusal``
are the one statement of it: the search (its last move included), the game
referee, Try it, play and the computer player read them here."""

ASK = -2
""""Any?" as a choice in a strategy or a player's turn (move codes are >= 0)."""


class TooManyProbeSets(ValueError):
    """A turn with more undominated probe sets than an exact search tries
    (``ksolve.rules.modern``); the search stops there as unknown."""


class KernelSpec(NamedTuple):
    """What the numba kernels need of a rule set, as one argument.

    ``flags`` is the referee kernels' flag vector (``ksolve.rules.kernels``),
    ``fog`` selects Fog-of-War moves and the king-capture goal.
    """

    flags: np.ndarray
    fog: bool


class Outcome(enum.Enum):
    """What an observation means for White's goal."""

    REFUSED = "refused"
    """The referee's "No": nothing moved, the same turn goes on."""
    WON = "won"
    """The rule set's win condition (mate; king capture in Fog of War)."""
    ENDED = "ended"
    """The game is over without a win (stalemate, a draw)."""
    GOES_ON = "goes on"


def goes_on(codes: np.ndarray) -> np.ndarray:
    """Per observation code: whether the game goes on after it (no "No", no end).

    >>> goes_on(np.array([0, codes.ILLEGAL, codes.END_CHECKMATE << codes.END_SHIFT], dtype=np.uint64)).tolist()
    [True, False, False]
    """
    return (codes != _ILLEGAL) & ((codes & _END_MASK) == 0)


_ILLEGAL = np.uint64(codes.ILLEGAL)
_END_MASK = np.uint64(codes.END_MASK)


@dataclass(frozen=True)
class Outcomes:
    """The referee's answers for an array of positions: keys plus the positions after."""

    keys: np.ndarray
    """``(n, k)`` uint64 observation keys (k depends on the rule set); column 0 is the code."""
    children: np.ndarray
    """``(n, POSITION_WIDTH)`` positions after the move (the position itself where illegal)."""
    parents: np.ndarray | None = None
    """For replies: the index of each child's parent position."""


class RuleSet(ABC):
    """A referee rule set, seen from White's side.

    Subclasses say what White hears: ``attempt`` (White's move attempt in each
    position), ``replies`` (every Black reply with White's observation of it),
    ``turn_info`` (what White hears at the start of his turn before any
    attempt: pawn tries, or what he sees in Fog of War).
    """

    name: str
    title: str
    fog: bool = False
    """Fog-of-War move generation (king capture) instead of legal chess moves."""
    any_question: bool = False
    """Whether White may ask "Any?" (are there pawn captures?)."""
    any_obliges_until_capture: bool = False
    """After "Try" to Any?: pawn captures must be tried until one is legal
    (Berkeley+Any), rather than at least one (English)."""
    kriegspiel_games: bool = False
    """Whether games under this rule set are Kriegspiel games (a referee, PGN
    with announcements in comments, the game-level tools)."""
    move_limit: int = 2000
    """The halfmove clock at which the game is drawn (Fog of War: the 50-move rule)."""
    full_information: bool = False
    """Whether White sees every position (orthodox chess): then a single
    position's orthodox search is its exact answer, not only a bound."""
    bounds_hold: bool = True
    """Whether the full-information bounds of the search hold: Black may play every
    legal reply (False under stated conditions on his play, ``rules/conditions.py``)."""

    def prepare(self, positions: np.ndarray) -> np.ndarray:
        """The initial belief's rows as this rule set searches them (the same rows,
        except where the rule set keys positions by more than the board)."""
        return positions

    # --- the kernels' view ---------------------------------------------------
    @property
    def flags(self) -> np.ndarray:
        """The flag vector of the referee kernels (``ksolve.rules.kernels``) for
        this rule set's announcements of mate, stalemate and draws."""
        from ksolve.rules.kernels import BERKELEY_FLAGS

        return BERKELEY_FLAGS

    @property
    def spec(self) -> KernelSpec:
        """The one argument the search kernels take for this rule set."""
        return KernelSpec(self.flags, bool(self.fog))

    # --- the win condition -----------------------------------------------------
    @property
    def goal(self) -> str:
        """``"mate"``, or ``"king-capture"`` in Fog of War."""
        return "king-capture" if self.fog else "mate"

    @property
    def winning_end(self) -> int:
        """The game-end code (``codes.END_*``) that is White's win."""
        return codes.END_KING_CAPTURED if self.fog else codes.END_CHECKMATE

    def outcome(self, key: np.ndarray) -> Outcome:
        """What the observation ``key`` means for White's goal."""
        code = int(key[0])
        if code == codes.ILLEGAL:
            return Outcome.REFUSED
        end = codes.end_of(code)
        if end == codes.END_NONE:
            return Outcome.GOES_ON
        return Outcome.WON if end == self.winning_end else Outcome.ENDED

    def move_marks(self, key: np.ndarray) -> tuple[bool, bool]:
        """Whether the move that ``key`` answers captured, and whether it gave
        check, as the referee tells them (for ``x`` and ``+`` in SAN)."""
        code = int(key[0])
        return codes.capture_square(code) is not None, bool(codes.check_words(code))

    def view_squares(self, key: np.ndarray) -> int | None:
        """The squares the observation ``key`` shows White (a bitboard), or None
        under a referee that shows no squares (Fog of War: what his men see)."""
        return None

    # --- observations ------------------------------------------------------------
    @abstractmethod
    def attempt(self, positions: np.ndarray, move: int) -> Outcomes:
        """White attempts ``move`` in every position."""

    @abstractmethod
    def replies(self, positions: np.ndarray) -> Outcomes:
        """Every reply of the side to move in every position, with White's observation."""

    def attempt_and_replies(self, positions: np.ndarray, move: int, replies: bool = True
                            ) -> tuple[Outcomes, Outcomes | None]:
        """``attempt`` in every position, and (with ``replies``) Black's ``replies``
        wherever the game goes on after it, their ``parents`` indexing
        ``positions``: the two halves of a White move, in one call where a rule
        set's kernels can do both at once.

        >>> from ksolve.board import move_from_uci, position_from_fen
        >>> from ksolve.rules import get_rules
        >>> rows = position_from_fen("k7/8/1K6/8/8/8/8/6R1 w - - 0 1")[None, :]
        >>> answered, replied = get_rules("fog-of-war").attempt_and_replies(rows, move_from_uci("g1g7"))
        >>> len(answered.children), sorted(set(replied.parents.tolist()))
        (1, [0])
        """
        answered = self.attempt(positions, move)
        if not replies:
            return answered, None
        going_on = np.flatnonzero(goes_on(answered.keys[:, 0]))
        replied = self.replies(answered.children[going_on])
        return answered, Outcomes(replied.keys, replied.children, going_on[replied.parents])

    @abstractmethod
    def turn_info(self, positions: np.ndarray) -> np.ndarray:
        """Keys of what the side to move hears at the start of its turn."""

    @abstractmethod
    def describe(self, key: np.ndarray) -> str:
        """The referee's words for one key row."""

    @abstractmethod
    def observation_json(self, key: np.ndarray) -> dict[str, Any]:
        """One observation key row as the certificate's JSON object (``docs/certificate.md``)."""

    # --- the turn's states ---------------------------------------------------------
    def can_ask(self, state: int) -> bool:
        """Whether White may ask "Any?" in a turn in ``state``."""
        return self.any_question and state == FRESH

    def any_answers(self, positions: np.ndarray) -> np.ndarray:
        """The answer to "Any?" per position (rule sets with the question only)."""
        raise ValueError(f"the {self.name} rule set has no 'Any?' question")

    def any_split(self, positions: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """The answers to "Any?" as ``(next turn state, mask of the positions)``: yes first, then no."""
        yes = self.any_answers(positions)
        return [(self.state_after_any(True), yes), (self.state_after_any(False), ~yes)]

    def state_after_any(self, yes: bool) -> int:
        """The turn's state after "Any?" is answered ``yes`` (pawn captures are
        possible: the attempts that follow must be pawn captures) or no.

        >>> from ksolve.rules import get_rules
        >>> [get_rules(name).state_after_any(True) for name in ("berkeley-any", "english")] == [MUST_CAPTURE, MUST_TRY]
        True
        """
        if not yes:
            return ASKED
        return MUST_CAPTURE if self.any_obliges_until_capture else MUST_TRY

    def must_capture(self, state: int) -> bool:
        """Whether an attempt in a turn in ``state`` must be a pawn capture."""
        return state in (MUST_CAPTURE, MUST_TRY)

    def any_answer_words(self, state: int) -> str:
        """The referee's word for the "Any?" answer that leads to ``state``."""
        if state == ASKED:
            return "No"
        return "Try" if self.any_obliges_until_capture else "Yes"

    @property
    def refusal_words(self) -> str:
        """The referee's word for an attempt he refuses (a game's log says it)."""
        return "No"

    def state_after_refusal(self, state: int) -> int:
        """The turn's state after a "No": unchanged (a fresh turn may still ask
        "Any?"; Berkeley+Any's "Try" still obliges), except that one refused pawn
        try fulfils English's "Yes".

        >>> from ksolve.rules import get_rules
        >>> english = get_rules("english")
        >>> english.can_ask(english.state_after_refusal(FRESH)), english.state_after_refusal(MUST_TRY) == ASKED
        (True, True)
        """
        return ASKED if state == MUST_TRY else state

    # --- probes (Modern Kriegspiel, ``ksolve.rules.modern``) ------------------------
    probes: int = 0
    """The squares White may name at the start of his turn (0: no probes)."""

    def with_probes(self, count: int) -> "RuleSet":
        """This rule set with ``count`` squares per probe (``ValueError`` if it has no
        probes or the count is out of range)."""
        raise ValueError(f"the {self.name} rule set has no probes")

    def probe_sets(self, positions: np.ndarray, state: int = FRESH) -> list[int]:
        """The probes worth making in a turn in ``state``, as bitboards of squares,
        best first ([]: none; then the turn goes on with attempts)."""
        return []

    def probe_answers(self, positions: np.ndarray, mask: int) -> np.ndarray:
        """Key rows of what each position shows on the squares of ``mask``."""
        raise ValueError(f"the {self.name} rule set has no probes")

    def describe_probe(self, key: np.ndarray, mask: int) -> str:
        """The referee's words for a probe's answer."""
        raise ValueError(f"the {self.name} rule set has no probes")

    def probe_json(self, key: np.ndarray, mask: int) -> dict[str, Any]:
        """A probe's answer as the certificate's JSON object (square -> symbol or None)."""
        raise ValueError(f"the {self.name} rule set has no probes")

    def attempts(self, positions: np.ndarray, state: int = FRESH) -> np.ndarray:
        """The attempts worth making in a turn in ``state``: moves legal in some
        position (any other is refused everywhere and tells nothing); after
        "Any?" answered yes, the pawn captures (English: also a refused one)."""
        candidates = move_union(positions, self.fog)
        if self.must_capture(state):
            from ksolve.rules.pawn_tries import pawn_diagonal_attempts

            diagonal = np.array(sorted(pawn_diagonal_attempts(positions[0])), dtype=np.int64)
            candidates = diagonal if state == MUST_TRY else np.intersect1d(candidates, diagonal)
        return candidates

    def __repr__(self) -> str:
        return f"<RuleSet {self.name}>"
