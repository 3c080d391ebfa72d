"""Stated conditions on Black's play: moves Black promises not to play,
always or at one of his replies, as a wrapper around any rule set.

A published problem sometimes adds a condition ("Black promises not to play
1...Bb7").  ``Conditioned(rules, conditions, fullmove)`` is ``rules`` with
Black's replies filtered: a reply is dropped when it is one of a condition's
moves and the condition holds at that reply (``at``: Black's reply to White's
``at``-th move; ``None``: every reply).  What the referee announces is not
changed (a promise is no rule of the game).  A condition never leaves Black
without a move: in a position where it would exclude every legal reply it
does not apply.

A move is matched on the board, without move generation: Black's men leave
its from-square and arrive on its to-square (castling: the king's two-square
move, e8g8), and a promotion letter, when given, must be the piece that arrives.

Two consequences for the search, both taken here:

- Black has fewer replies, so the full-information bounds (which give Black
  every legal move) no longer bound anything: ``bounds_hold`` is False and
  the prover turns them off.
- With a condition at a given move, the same belief at two move numbers may
  have two different values.  Positions carry a salt in their hash that
  depends on the move number up to the last conditioned reply (``prepare``
  salts the initial belief, ``replies`` moves the salt on), so the result
  table never mixes them; after the last conditioned reply the salt is 0 and
  beliefs merge again as usual.

>>> from ksolve.rules import get_rules
>>> rules = Conditioned(get_rules("berkeley"), (Condition(frozenset({"c8b7"}), 2),), fullmove=1)
>>> rules.name, rules.bounds_hold, rules.conditions[0].text()
('berkeley', False, 'Black will not play c8b7 at his move 2')
"""

from __future__ import annotations

from typing import Any

import chess
import numpy as np

from ksolve.board.layout import COLUMN_BLACK, COLUMN_FULLMOVE, COLUMN_HASH, KING
from ksolve.rules.base import FRESH, KernelSpec, Outcome, Outcomes, RuleSet
from ksolve.rules.condition import Condition

_SALT_SEED = 0x5EED_C0DE


def excluded_replies(parents: np.ndarray, children: np.ndarray, parent_index: np.ndarray,
                     moves: frozenset[str]) -> np.ndarray:
    """A mask of the replies (``children``, each from ``parents[parent_index]``)
    that play one of ``moves`` (UCI), read from Black's men before and after.

    >>> from ksolve.board import position_from_fen
    >>> parent = position_from_fen("2b1k3/8/8/8/8/8/8/4K3 b - - 0 1")[None, :]
    >>> child = position_from_fen("4k3/1b6/8/8/8/8/8/4K3 w - - 0 2")[None, :]
    >>> excluded_replies(parent, child, np.array([0]), frozenset({"c8b7"})).tolist()
    [True]
    >>> castles = position_from_fen("4k2r/8/8/8/8/8/8/4K3 b k - 0 1")[None, :]
    >>> castled = position_from_fen("5rk1/8/8/8/8/8/8/4K3 w - - 1 2")[None, :]
    >>> [excluded_replies(castles, castled, np.array([0]), frozenset({uci})).tolist() for uci in ("e8f8", "h8f8", "e8g8")]
    [[False], [False], [True]]
    """
    before = np.bitwise_or.reduce(parents[parent_index, COLUMN_BLACK:COLUMN_BLACK + 6], axis=1)
    after = np.bitwise_or.reduce(children[:, COLUMN_BLACK:COLUMN_BLACK + 6], axis=1)
    left, arrived = before & ~after, after & ~before
    king_before, king_after = parents[parent_index, COLUMN_BLACK + KING], children[:, COLUMN_BLACK + KING]
    king_moved = king_before != king_after  # castling moves a rook too: only the king's squares name it
    mask = np.zeros(len(children), dtype=bool)
    for uci in moves:
        move = chess.Move.from_uci(uci)
        king_move = _on(king_before, move.from_square)
        hit = np.where(king_move, king_move & _on(king_after, move.to_square),
                       _on(left, move.from_square) & _on(arrived, move.to_square) & ~king_moved)
        if move.promotion:
            board = children[:, COLUMN_BLACK + move.promotion - 1]
            hit &= ((board >> np.uint64(move.to_square)) & np.uint64(1)).astype(bool)
        mask |= hit
    return mask


def _on(boards: np.ndarray, square: int) -> np.ndarray:
    """Whether each bitboard holds ``square``."""
    return ((boards >> np.uint64(square)) & np.uint64(1)).astype(bool)


class Conditioned(RuleSet):
    """A rule set with conditions on Black's replies (everything else is the wrapped rule set's)."""

    def __init__(self, rules: RuleSet, conditions: tuple[Condition, ...], fullmove: int) -> None:
        self.base, self.conditions, self.first_fullmove = rules, tuple(conditions), int(fullmove)
        self.name, self.title, self.fog = rules.name, rules.title, rules.fog
        self.any_question, self.any_obliges_until_capture = rules.any_question, rules.any_obliges_until_capture
        self.kriegspiel_games, self.move_limit = rules.kriegspiel_games, rules.move_limit
        numbered = [c.at for c in self.conditions if c.at is not None]
        self.last_numbered = max(numbered, default=0)
        rng = np.random.default_rng(_SALT_SEED)
        self._salts = np.zeros(self.last_numbered + 2, dtype=np.uint64)
        self._salts[1:self.last_numbered + 1] = rng.integers(1, 2**63, self.last_numbered, dtype=np.uint64)

    bounds_hold = False

    @property
    def refusal_words(self) -> str:
        return self.base.refusal_words

    def __getattr__(self, name: str) -> Any:  # rule-set specific words (what the opponent hears...)
        if name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)

    # --- the move numbers and their salts ------------------------------------------
    def _turn(self, positions: np.ndarray) -> np.ndarray:
        """White's turn number (1 = the problem's first move) of each position."""
        return positions[:, COLUMN_FULLMOVE].astype(np.int64) - self.first_fullmove + 1

    def _salt(self, turns: np.ndarray) -> np.ndarray:
        return self._salts[np.clip(turns, 0, self.last_numbered + 1)]

    def prepare(self, positions: np.ndarray) -> np.ndarray:
        """The initial belief's rows with the salt of move 1 in their hash."""
        if not self.last_numbered:
            return positions
        rows = positions.copy()
        rows[:, COLUMN_HASH] ^= self._salt(self._turn(rows))
        return rows

    # --- Black's replies, filtered ---------------------------------------------------
    def replies(self, positions: np.ndarray) -> Outcomes:
        outcome = self.base.replies(positions)
        children, parents = outcome.children, outcome.parents
        turns = self._turn(positions)[parents]
        excluded = np.zeros(len(children), dtype=bool)
        for condition in self.conditions:
            holds = np.ones(len(children), dtype=bool) if condition.at is None else turns == condition.at
            if holds.any():
                excluded |= holds & excluded_replies(positions, children, parents, condition.moves)
        if excluded.any():
            kept_per_parent = np.bincount(parents[~excluded], minlength=len(positions))
            excluded &= kept_per_parent[parents] > 0  # never leave Black without a move
        keep = ~excluded
        children, parents, keys = children[keep], parents[keep], outcome.keys[keep]
        if self.last_numbered:
            children = children.copy()
            before = turns[keep]
            children[:, COLUMN_HASH] ^= self._salt(before) ^ self._salt(before + 1)
        return Outcomes(keys, children, parents)

    # --- the rest is the wrapped rule set's --------------------------------------------
    @property
    def flags(self) -> np.ndarray:
        return self.base.flags

    @property
    def spec(self) -> KernelSpec:
        return self.base.spec

    @property
    def goal(self) -> str:
        return self.base.goal

    @property
    def winning_end(self) -> int:
        return self.base.winning_end

    def outcome(self, key: np.ndarray) -> Outcome:
        return self.base.outcome(key)

    def move_marks(self, key: np.ndarray) -> tuple[bool, bool]:
        return self.base.move_marks(key)

    def view_squares(self, key: np.ndarray) -> int | None:
        return self.base.view_squares(key)

    def attempt(self, positions: np.ndarray, move: int) -> Outcomes:
        return self.base.attempt(positions, move)

    def turn_info(self, positions: np.ndarray) -> np.ndarray:
        return self.base.turn_info(positions)

    def describe(self, key: np.ndarray) -> str:
        return self.base.describe(key)

    def observation_json(self, key: np.ndarray) -> dict[str, Any]:
        return self.base.observation_json(key)

    def can_ask(self, state: int) -> bool:
        return self.base.can_ask(state)

    def any_answers(self, positions: np.ndarray) -> np.ndarray:
        return self.base.any_answers(positions)

    def any_split(self, positions: np.ndarray) -> list[tuple[int, np.ndarray]]:
        return self.base.any_split(positions)

    def any_answer_words(self, state: int) -> str:
        return self.base.any_answer_words(state)

    def state_after_refusal(self, state: int) -> int:
        return self.base.state_after_refusal(state)

    def state_after_any(self, yes: bool) -> int:
        return self.base.state_after_any(yes)

    def attempts(self, positions: np.ndarray, state: int = FRESH) -> np.ndarray:
        return self.base.attempts(positions, state)

    def __repr__(self) -> str:
        return f"<RuleSet {self.name} with {len(self.conditions)} condition(s)>"


def with_conditions(rules: RuleSet, conditions: tuple[Condition, ...] | list[Condition],
                    fullmove: int) -> RuleSet:
    """``rules`` itself without conditions, else the conditioned rule set."""
    return Conditioned(rules, tuple(conditions), fullmove) if conditions else rules
