"""State estimation: White's exact belief state from his filtered history.

Starting from the game's start position (known to both players), each of
White's turns keeps the positions in which every attempt got the answer
White heard ("No", "Any?" answers, the executed move's announcement, which
includes Black's pawn-try information where the rule set gives it); each of
Black's turns replaces every position by Black's replies whose announcement
White heard, from positions where Black could have made the heard number of
refused attempts (and, under English, asked "Any?" where he was heard to):

- berkeley, cincinnati, rand: ``k`` refused attempts need ``k`` illegal askable
  attempts (``ksolve.rules.counts``);
- berkeley-any: the same, or no legal pawn capture ("Any?" answered "No",
  which adds the number of possible pawn captures ``p`` to the count) and
  ``p <= k <= p + illegal``;
- english: ``r1`` refusals, "Any?", ``r2`` refusals: "No" needs no legal pawn
  capture, ``r2`` illegal non-pawn attempts and ``r1 + r2`` illegal ones;
  "Yes" needs a legal pawn capture and either the move is a pawn capture
  (``r2 = 0``) or an illegal pawn try exists (``r1 + r2`` illegal in all);
- wild16: nothing is heard, nothing is required.

The belief is a ``BeliefState`` (positions as rows of a ``uint64`` array,
one per distinct position); Black's replies are expanded a chunk of
positions at a time, and a belief that would exceed ``max_positions`` stops
the estimate with ``BeliefTooLarge`` giving the size reached.

>>> from ksolve.games.model import Game, Turn
>>> game = Game("berkeley", (Turn(True, (), "e2e4", 0), Turn(False, (), "e7e5", 0)))
>>> len(estimate(game))
20
>>> estimate(game, max_positions=10)
Traceback (most recent call last):
...
ksolve.games.estimate.BeliefTooLarge: belief over the budget of 10 positions: 20 reached at ply 2 (Black's move)
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from ksolve.belief import BeliefState
from ksolve.board import move_from_uci, position_from_fen
from ksolve.board.layout import COLUMN_BLACK, COLUMN_HASH, COLUMN_TURN, PAWN
from ksolve.games.model import Ask, Game, Hidden, Refused, Turn, filter_game
from ksolve.rules.counts import ILLEGAL, ILLEGAL_PAWN, PAWN_CAPTURES, POSSIBLE_PAWN
from ksolve.rules import codes, get_rules
from ksolve.rules.kriegspiel import KriegspielRules

CHUNK = 4096
"""Positions whose replies are expanded at once."""


class BeliefTooLarge(Exception):
    """The belief outgrew the memory budget; ``size`` is the size reached."""

    def __init__(self, size: int, limit: int, ply: int) -> None:
        super().__init__(f"belief over the budget of {limit:,} positions: {size:,} reached "
                         f"at ply {ply} (Black's move)")
        self.size, self.limit, self.ply = size, limit, ply


class InconsistentHistory(ValueError):
    """No position is consistent with the history (a wrong or corrupted record)."""


class Estimator:
    """White's belief, updated one turn at a time."""

    def __init__(self, rules: str, fen: str, max_positions: int | None = None) -> None:
        self.rules = get_rules(rules)
        self.positions = position_from_fen(fen)[np.newaxis, :]
        self.max_positions = max_positions
        self.ply = 0

    @property
    def belief(self) -> BeliefState:
        return BeliefState.from_positions(self.positions)

    def observe(self, turn: Turn) -> BeliefState:
        """The belief after one more turn (White's seen, or Black's as White heard it)."""
        self.ply += 1
        if turn.white:
            if turn.hidden:
                raise ValueError("White's moves must be visible: estimate from White's side")
            self.positions = self._white(turn)
        else:
            if not turn.hidden:
                raise ValueError("a visible Black move: filter the game for White first")
            self.positions = self._black(turn)
        if len(self.positions) == 0:
            raise InconsistentHistory(f"no position is consistent with the history after ply {self.ply}")
        return self.belief

    # --- White's turn ------------------------------------------------------------------
    def _white(self, turn: Turn) -> np.ndarray:
        positions = self.positions
        for action in turn.actions:
            if isinstance(action, Refused):
                outcome = self.rules.attempt(positions, move_from_uci(action.move))
                positions = positions[outcome.keys[:, 0] == np.uint64(codes.ILLEGAL)]
            elif isinstance(action, Ask):
                positions = positions[self.rules.any_answers(positions) == action.yes]
            else:
                raise ValueError("White's own turn cannot hold a count of hidden attempts")
        outcome = self.rules.attempt(positions, move_from_uci(turn.move))  # type: ignore[arg-type]
        return outcome.children[_heard(outcome.keys, turn)]

    # --- Black's turn ------------------------------------------------------------------
    def _black(self, turn: Turn) -> np.ndarray:
        requirement = _Requirement(self.rules, turn.actions)
        kept: list[np.ndarray] = []
        count = 0
        for start in range(0, len(self.positions), CHUNK):
            chunk = self.positions[start:start + CHUNK]
            outcome = self.rules.replies(chunk)
            keep = _heard(outcome.keys, turn)
            if requirement.active:
                stats = self.rules.refused_attempt_counts(chunk)
                keep &= requirement.parents_ok(stats)[outcome.parents]
                if requirement.pawn_capture:
                    parents = chunk[outcome.parents]
                    column = COLUMN_BLACK + PAWN
                    keep &= (parents[:, column] & ~outcome.children[:, column]) != 0
            kept.append(outcome.children[keep])
            count += int(keep.sum())
            if self.max_positions is not None and count > self.max_positions:
                merged = _unique(np.concatenate(kept))
                kept, count = [merged], len(merged)
                if count > self.max_positions:
                    raise BeliefTooLarge(count, self.max_positions, self.ply)
        return _unique(np.concatenate(kept)) if kept else self.positions[:0]


def _heard(keys: np.ndarray, turn: Turn) -> np.ndarray:
    return (keys[:, 0] == np.uint64(turn.code)) & (keys[:, 1] == np.uint64(turn.extra))


def _unique(positions: np.ndarray) -> np.ndarray:
    _, index = np.unique(positions[:, COLUMN_HASH], return_index=True)
    return positions[index]


class _Requirement:
    """What the heard actions of Black's turn require of the position he moved from."""

    def __init__(self, rules: "KriegspielRules", actions: tuple) -> None:
        self.rules = rules
        asks = [a for a in actions if isinstance(a, Ask)]
        if any(not isinstance(a, (Ask, Hidden)) for a in actions):
            raise ValueError("Black's turn as White heard it holds only counts and 'Any?' answers")
        if len(asks) > 1:
            raise InconsistentHistory("'Any?' asked twice in one turn")
        if actions and not rules.refusal_count_heard:
            raise InconsistentHistory(f"under {rules.name} White hears nothing of Black's attempts")
        self.ask: bool | None = asks[0].yes if asks else None
        split = actions.index(asks[0]) if asks else len(actions)
        self.before = sum(a.count for a in actions[:split])
        self.after = sum(a.count for a in actions[split:] if isinstance(a, Hidden))
        self.active = bool(actions)
        self.pawn_capture = self.ask is True and self.after == 0

    def parents_ok(self, stats: np.ndarray) -> np.ndarray:
        illegal, illegal_pawn = stats[:, ILLEGAL], stats[:, ILLEGAL_PAWN]
        possible, captures = stats[:, POSSIBLE_PAWN], stats[:, PAWN_CAPTURES]
        total = self.before + self.after
        if self.ask is None:
            ok = illegal >= total
            if self.rules.any_no_counts_pawn_captures:  # "Any?" answered "No" adds the possible pawn captures
                ok |= (captures == 0) & (total >= possible) & (total - possible <= illegal)
            return ok
        if self.ask is False:
            return (captures == 0) & (illegal - illegal_pawn >= self.after) & (illegal >= total)
        ok = (captures > 0) & (illegal >= total)
        return ok & (illegal_pawn >= 1) if self.after else ok


def beliefs(game: Game, max_positions: int | None = None) -> Iterator[tuple[int, BeliefState]]:
    """White's belief before the first turn and after each turn: ``(plies played, belief)``.

    An unfiltered game is filtered for White first."""
    game = filter_game(game, True)
    estimator = Estimator(game.rules, game.start_fen, max_positions)
    yield 0, estimator.belief
    for ply, turn in enumerate(game.turns, 1):
        yield ply, estimator.observe(turn)


def white_beliefs(game: Game, max_positions: int | None = None) -> Iterator[tuple[int, BeliefState]]:
    """White's belief at each of his turns (and at the end if White is to move)."""
    for ply, belief in beliefs(game, max_positions):
        if int(belief.positions[0, COLUMN_TURN]) == 0:
            yield ply, belief


def estimate(game: Game, max_positions: int | None = None) -> BeliefState:
    """White's belief at the end of the game's history.

    Raises ``BeliefTooLarge`` past ``max_positions`` and ``InconsistentHistory``
    when no position fits what White heard."""
    belief = None
    for _, belief in beliefs(game, max_positions):
        pass
    return belief  # type: ignore[return-value]
