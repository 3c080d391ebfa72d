"""What one side of a game sees: his own men always; under Fog of War also
the squares his men could move to and the enemy men on them.

The Fog-of-War visibility is the rule set's own (``ksolve.rules.fog``): a
man sees every square it could move to (Fog-of-War moves: king captures
allowed, castling through attacked squares), a pawn the empty squares it can
advance to and the diagonals holding an enemy man, and the pawn that may be
taken en passant.

>>> from ksolve.board import position_from_fen
>>> start = position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", fog=True)
>>> len(visible_squares(start, chess.BLACK)), len(side_view(start, chess.WHITE, fog=True).enemy)
(32, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess
import numpy as np

from ksolve.board.layout import COLUMN_BLACK, MAX_MOVES
from ksolve.rules.fog import visible_squares as _visible_squares


def visible_squares(position: np.ndarray, color: chess.Color) -> chess.SquareSet:
    """The squares ``color`` sees under Fog of War (whoever is to move)."""
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    return chess.SquareSet(int(_visible_squares(position, 0 if color == chess.WHITE else 1, buffer)))


def men(position: np.ndarray, color: chess.Color, mask: int = chess.BB_ALL) -> dict[chess.Square, chess.Piece]:
    """The men of ``color`` standing on ``mask``."""
    base = 0 if color == chess.WHITE else COLUMN_BLACK
    found = {}
    for piece in range(6):
        for square in chess.scan_forward(int(position[base + piece]) & mask):
            found[square] = chess.Piece(piece + 1, color)
    return found


@dataclass(frozen=True)
class SideView:
    """One side's board: his men, and under Fog of War what he sees of the enemy."""

    side: chess.Color
    own: dict[chess.Square, chess.Piece]
    enemy: dict[chess.Square, chess.Piece] = field(default_factory=dict)
    """Enemy men in sight (Fog of War; always empty in Kriegspiel)."""
    visible: chess.SquareSet | None = None
    """The squares he sees (Fog of War); None where nothing is fogged but the enemy men."""
    marks: tuple[chess.Square, ...] = ()
    """Squares where one of his men was just taken and that he no longer sees."""

    def as_dict(self) -> dict:
        """The view at the JSON edge: square names and piece symbols."""
        return {"side": "white" if self.side else "black",
                "own": {chess.square_name(s): p.symbol() for s, p in self.own.items()},
                "enemy": {chess.square_name(s): p.symbol() for s, p in self.enemy.items()},
                "visible": None if self.visible is None else [chess.square_name(s) for s in self.visible],
                "marks": [chess.square_name(s) for s in self.marks]}


def side_view(position: np.ndarray, side: chess.Color, fog: bool, lost: chess.Square | None = None) -> SideView:
    """``side``'s view of ``position``; ``lost`` is where one of his men was just captured."""
    own = men(position, side)
    if not fog:
        return SideView(side, own)
    seen = visible_squares(position, side)
    enemy = men(position, not side, int(seen))
    marks = (lost,) if lost is not None and lost not in seen else ()
    return SideView(side, own, enemy, seen, marks)
