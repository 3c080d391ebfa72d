"""The rule-set interface: a rule set is White's observation model.

Every method works on a whole array of positions at once and returns
observation *keys*: a 2-D ``uint64`` array with one row per position (or per
child).  Two positions give White the same observation exactly when their
key rows are equal, so a belief state splits into classes with one
``np.unique(keys, axis=0)``.  Column 0 of every key row is the announcement
code of ``ksolve.rules.codes`` (``ILLEGAL`` for the "No").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from ksolve.rules import codes


@dataclass(frozen=True)
class Outcomes:
    """The referee's answers for an array of positions: keys plus the positions after."""

    keys: np.ndarray
    """``(n, k)`` uint64 observation keys (k depends on the rule set); column 0 is the code."""
    children: np.ndarray
    """``(n, POSITION_WIDTH)`` positions after the move (the position itself where illegal)."""
    parents: np.ndarray | None = None
    """For replies: the index of each child's parent position."""

    @property
    def codes(self) -> np.ndarray:
        """Column 0 of the keys as int64 announcement codes."""
        return self.keys[:, 0].astype(np.int64)


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

    @property
    def flags(self) -> np.ndarray:
        """The flag vector of the referee kernels (``ksolve.rules.kernels``) for
        this rule set's announcements of mate, stalemate and draws."""
        from ksolve.rules.kernels import BERKELEY_FLAGS

        return BERKELEY_FLAGS

    @abstractmethod
    def attempt(self, positions: np.ndarray, move: int) -> Outcomes:
        """White attempts ``move`` in every position."""

    @abstractmethod
    def replies(self, positions: np.ndarray) -> Outcomes:
        """Every reply of the side to move in every position, with White's observation."""

    @abstractmethod
    def turn_info(self, positions: np.ndarray) -> np.ndarray:
        """Keys of what the side to move hears at the start of its turn."""

    @abstractmethod
    def describe(self, key: np.ndarray) -> str:
        """The referee's words for one key row."""

    def any_answers(self, positions: np.ndarray) -> np.ndarray:
        """The answer to "Any?" per position (rule sets with the question only)."""
        raise ValueError(f"the {self.name} rule set has no 'Any?' question")

    def end_of(self, key: np.ndarray) -> int:
        """The game-end kind (``codes.END_*``) announced in a key row."""
        return codes.end_of(int(key[0]))

    def __repr__(self) -> str:
        return f"<RuleSet {self.name}>"
