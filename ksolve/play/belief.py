"""One side's belief during a game: every true position consistent with what
he has seen and heard, kept in his own frame (the mirrored game for Black, so
that he is White there and ksolve's estimator and prover apply).

Kriegspiel beliefs are kept by ksolve's ``Estimator`` (exact, including what
the opponent's refused attempts tell).  Fog-of-War beliefs keep the
positions whose observation key (what the side sees after each ply) equals
the one he saw.

The belief is exact until it would pass ``budget`` positions: before the
opponent's turn a belief of more than ``budget // BRANCHING`` positions is
replaced by a uniform random sample of that many (``exact`` becomes False).
A sample can lose every position consistent with a later observation; the
belief is then rebuilt from the start of the game with fresh samples (up to
``REBUILDS`` times) and, failing that, marked ``lost``.

>>> import chess
>>> from ksolve.play.session import GameSession
>>> game = GameSession("berkeley")
>>> belief = SideBelief("berkeley", chess.WHITE)
>>> _ = game.attempt("e2e4"), game.attempt("e7e5")
>>> belief.sync(game.observations[chess.WHITE]); len(belief), belief.exact
(20, True)
"""

from __future__ import annotations

import random

import chess
import numpy as np

from ksolve.board import move_from_uci, position_from_fen
from ksolve.board.layout import COLUMN_BLACK, COLUMN_HASH
from ksolve.games.estimate import Estimator, InconsistentHistory
from ksolve.games.model import STANDARD_FEN
from ksolve.play.mirror import mirror_fen, mirror_turn
from ksolve.play.session import Observation
from ksolve.rules import get_rules

BRANCHING = 32
"""The growth assumed for one opponent turn when sampling ahead of it."""
REBUILDS = 3


class SideBelief:
    """``side``'s belief in a game from ``fen`` (None: the standard start)."""

    def __init__(self, rules: str, side: chess.Color, fen: str | None = None, budget: int = 40_000,
                 seed: int = 0) -> None:
        self.rules_name, self.side = rules, side
        self.rules = get_rules(rules)
        self.fen = fen or STANDARD_FEN
        self.frame_fen = self.fen if side == chess.WHITE else mirror_fen(self.fen)
        self.budget = budget
        self.rng = random.Random(seed)
        self.history: list[Observation] = []
        self.rebuilds = 0
        self.lost = False
        self._reset()

    def _reset(self) -> None:
        self.exact = True
        self.positions = position_from_fen(self.frame_fen, fog=self.rules.fog)[np.newaxis, :]
        self._estimator = None if self.rules.fog else Estimator(self.rules_name, self.frame_fen)

    def __len__(self) -> int:
        return len(self.positions)

    def heat_map(self) -> dict[str, dict[str, float]]:
        """For each enemy man type (``k``, ``q``, ...), the share of the positions with one on
        each square (squares of no position left out), on the real board.

        >>> SideBelief("berkeley", chess.BLACK).heat_map()["k"]
        {'e1': 1.0}
        """
        heat: dict[str, dict[str, float]] = {}
        for piece in range(6):
            boards = self.positions[:, COLUMN_BLACK + piece]
            shares = {}
            for square in range(64):
                share = float(((boards >> np.uint64(square)) & np.uint64(1)).mean()) if len(boards) else 0.0
                if share > 0:
                    shares[chess.square_name(square if self.side == chess.WHITE else square ^ 56)] = round(share, 3)
            heat[chess.piece_symbol(piece + 1)] = shares
        return heat

    # --- hearing ------------------------------------------------------------------
    def sync(self, observations: list[Observation]) -> None:
        """Take in the observations not seen yet (a session's list for this side)."""
        for observation in observations[len(self.history):]:
            self.history.append(observation)
            if not self.lost:
                self._take(observation)

    def _take(self, observation: Observation) -> None:
        try:
            self._update(observation)
        except InconsistentHistory:
            self.positions = self.positions[:0]
        while len(self.positions) == 0 and not self.lost:
            if self.exact or self.rebuilds >= REBUILDS:
                self.lost = True  # an exact belief cannot empty: only a sample can miss
                return
            self.rebuilds += 1
            self._reset()
            try:
                for seen in self.history:
                    self._update(seen)
            except InconsistentHistory:
                self.positions = self.positions[:0]

    def _update(self, observation: Observation) -> None:
        turn = observation.turn if self.side == chess.WHITE else mirror_turn(observation.turn)
        own = turn.white
        if not own:
            self._sample(self.budget // BRANCHING)
        if self._estimator is not None:
            self._estimator.positions = self.positions
            self._estimator.observe(turn)
            self.positions = self._estimator.positions
            return
        key = observation.fog_key
        if own:
            outcome = self.rules.attempt(self.positions, move_from_uci(turn.move))  # type: ignore[arg-type]
        else:
            outcome = self.rules.replies(self.positions)
        keep = (outcome.keys == key).all(axis=1)
        children = outcome.children[keep]
        _, unique = np.unique(children[:, COLUMN_HASH], return_index=True)
        self.positions = children[np.sort(unique)]

    def _sample(self, size: int) -> None:
        if len(self.positions) > size:
            picked = sorted(self.rng.sample(range(len(self.positions)), size))
            self.positions = self.positions[picked]
            self.exact = False
