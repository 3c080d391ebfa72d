"""Zobrist hashing with the Polyglot keys, so that a position's hash equals
``chess.polyglot.zobrist_hash`` of the same position.

Make-move keeps the hash in column ``COLUMN_HASH`` up to date incrementally;
``position_hash`` recomputes it from scratch (used on conversion and in tests).

>>> from ksolve.board.convert import position_from_fen
>>> hex(int(position_hash(position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))))
'0x463b96181691fc9c'
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.bitops import lsb
from ksolve.board.layout import COLUMN_CASTLING, COLUMN_EP, COLUMN_TURN
from ksolve.board.tables import ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_PIECE, ZOBRIST_WHITE_TO_MOVE

ONE = np.uint64(1)


@njit(cache=True, _nrt=False)
def position_hash(position):
    """The 64-bit Zobrist (Polyglot) hash of a position row."""
    h = np.uint64(0)
    for color in range(2):
        for piece in range(6):
            men = position[6 * color + piece]
            while men:
                square = lsb(men)
                men &= men - ONE
                h ^= ZOBRIST_PIECE[color, piece, square]
    h ^= ZOBRIST_CASTLING[np.int64(position[COLUMN_CASTLING])]
    h ^= ZOBRIST_EP[np.int64(position[COLUMN_EP])]
    if position[COLUMN_TURN] == 0:
        h ^= ZOBRIST_WHITE_TO_MOVE
    return h
