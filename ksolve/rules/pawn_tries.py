"""The possible pawn captures of a position, as "Any?" and its obligations count them.

>>> from ksolve.board import move_to_uci, position_from_fen
>>> sorted(move_to_uci(move) for move in pawn_diagonal_attempts(position_from_fen("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1")))
['d2c3', 'd2e3']
"""

from __future__ import annotations

import numpy as np

from ksolve.board.layout import BISHOP, COLUMN_BLACK, COLUMN_TURN, KNIGHT, PAWN, QUEEN, ROOK
from ksolve.board.tables import PAWN_ATTACKS, RANK_1, RANK_8


def pawn_diagonal_attempts(position: np.ndarray) -> set[int]:
    """Every diagonal pawn step onto a square not held by the mover's own men
    (with the four promotions on the last rank): the possible pawn captures."""
    us = int(position[COLUMN_TURN])
    base = us * COLUMN_BLACK
    ours = 0
    for piece in range(6):
        ours |= int(position[base + piece])
    attempts = set()
    pawns = int(position[base + PAWN])
    while pawns:
        from_square = (pawns & -pawns).bit_length() - 1
        pawns &= pawns - 1
        targets = int(PAWN_ATTACKS[us, from_square]) & ~ours
        while targets:
            to_square = (targets & -targets).bit_length() - 1
            targets &= targets - 1
            move = from_square | to_square << 6
            if (1 << to_square) & int(RANK_1 | RANK_8):
                attempts.update(move | p << 12 for p in (QUEEN, ROOK, BISHOP, KNIGHT))
            else:
                attempts.add(move)
    return attempts
