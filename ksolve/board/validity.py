"""A numba test of whether a position row is legal chess, for building beliefs
from many placements at once (``convert.illegality_reasons`` says why a single
python-chess board is not).

>>> from ksolve.board.convert import position_from_fen
>>> bool(is_legal_position(position_from_fen("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1")))
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.attacks import attackers_of, color_occupancy
from ksolve.board.bitops import lsb, popcount
from ksolve.board.layout import COLUMN_BLACK, COLUMN_TURN, KING, PAWN
from ksolve.board.tables import RANK_1, RANK_8


@njit(cache=True)
def is_legal_position(position, check_rules=True):
    """One king per side, at most 8 pawns and 16 men per side, no pawn on the
    first or last rank; with ``check_rules`` (not in Fog of War) also the side
    not to move not in check and at most two checkers."""
    white = color_occupancy(position, 0)
    black = color_occupancy(position, 1)
    if white & black:
        return False
    occupied = white | black
    for color in range(2):
        base = color * COLUMN_BLACK
        if popcount(position[base + KING]) != 1 or popcount(position[base + PAWN]) > 8:
            return False
        if popcount(white if color == 0 else black) > 16:
            return False
        if position[base + PAWN] & (RANK_1 | RANK_8):
            return False
    if not check_rules:
        return True
    us = np.int64(position[COLUMN_TURN])
    them = 1 - us
    their_king = lsb(position[them * COLUMN_BLACK + KING])
    if attackers_of(position, their_king, us, occupied):
        return False
    our_king = lsb(position[us * COLUMN_BLACK + KING])
    return popcount(attackers_of(position, our_king, them, occupied)) <= 2
