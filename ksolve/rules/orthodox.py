"""Orthodox chess as a rule set: full information, White sees every move.

The observation of a move is its announcement code followed by the whole
position after it, so every observation class holds a single position.

>>> import numpy as np
>>> from ksolve.board import position_from_fen, move_from_uci
>>> out = ORTHODOX.replies(position_from_fen("7k/8/8/8/8/8/8/K7 b - - 0 1")[None, :])
>>> np.unique(out.keys, axis=0).shape[0]  # three king moves, three classes
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ksolve.board.layout import COLUMN_EP, POSITION_WIDTH
from ksolve.rules import codes
from ksolve.rules.base import Outcomes, RuleSet
from ksolve.rules.kernels import (
    FLAG_COUNT, FLAG_INSUFFICIENT, FLAG_MOVE_LIMIT, INSUFFICIENT_DEAD, attempt_outcomes,
    reply_outcomes,
)

_FLAGS = np.zeros(FLAG_COUNT, dtype=np.int64)
_FLAGS[FLAG_INSUFFICIENT] = INSUFFICIENT_DEAD
_FLAGS[FLAG_MOVE_LIMIT] = 2000


@dataclass(frozen=True, repr=False)
class OrthodoxRules(RuleSet):
    """Full information: the position itself is the observation."""

    name: str = "orthodox"
    title: str = "Orthodox chess (full information)"
    full_information: bool = True

    @property
    def flags(self) -> np.ndarray:
        return _FLAGS

    def attempt(self, positions: np.ndarray, move: int) -> Outcomes:
        move_codes, _, children = attempt_outcomes(positions, move, _FLAGS)
        return Outcomes(_keys(move_codes, children), children)

    def replies(self, positions: np.ndarray) -> Outcomes:
        children, parents, reply_codes, _ = reply_outcomes(positions, _FLAGS)
        return Outcomes(_keys(reply_codes, children), children, parents)

    def turn_info(self, positions: np.ndarray) -> np.ndarray:
        return _keys(np.zeros(positions.shape[0], dtype=np.int64), positions)

    def describe(self, key: np.ndarray) -> str:
        return codes.describe(int(key[0]))

    def observation_json(self, key: np.ndarray) -> dict[str, Any]:
        """The end (if any) and the whole position after the move, as EPD."""
        from ksolve.board import position_to_board

        announced = codes.announcement_json(int(key[0]))
        result: dict[str, Any] = {"end": announced["end"]} if "end" in announced else {}
        row = np.zeros(POSITION_WIDTH, dtype=np.uint64)
        row[: COLUMN_EP + 1] = key[2:]
        result["position"] = position_to_board(row).epd()
        return result


def _keys(move_codes: np.ndarray, positions: np.ndarray) -> np.ndarray:
    keys = np.zeros((positions.shape[0], 2 + COLUMN_EP + 1), dtype=np.uint64)
    keys[:, 0] = move_codes.astype(np.uint64)
    keys[:, 2:] = positions[:, : COLUMN_EP + 1]
    return keys


ORTHODOX = OrthodoxRules()
RULE_SETS = {ORTHODOX.name: ORTHODOX}
