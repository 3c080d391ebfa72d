"""Attack kernels: slider attacks by ray scanning, and who attacks a square.

>>> import numpy as np
>>> from ksolve.board.tables import SQUARE_BB
>>> bin(int(rook_attacks(0, SQUARE_BB[16])) & 0xFFFFFF)  # rook a1, blocker a3
'0b10000000111111110'
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.bitops import lsb, msb
from ksolve.board.layout import BISHOP, COLUMN_BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK
from ksolve.board.tables import KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, RAYS

ZERO = np.uint64(0)


@njit(cache=True, inline="always", _nrt=False)
def _positive_ray(direction, square, occupied):
    attacks = RAYS[direction, square]
    blockers = attacks & occupied
    if blockers:
        attacks ^= RAYS[direction, lsb(blockers)]
    return attacks


@njit(cache=True, inline="always", _nrt=False)
def _negative_ray(direction, square, occupied):
    attacks = RAYS[direction, square]
    blockers = attacks & occupied
    if blockers:
        attacks ^= RAYS[direction, msb(blockers)]
    return attacks


@njit(cache=True, _nrt=False)
def rook_attacks(square, occupied):
    """Squares a rook on ``square`` attacks given the ``occupied`` bitboard."""
    return (_positive_ray(0, square, occupied) | _positive_ray(1, square, occupied)
            | _negative_ray(4, square, occupied) | _negative_ray(5, square, occupied))


@njit(cache=True, _nrt=False)
def bishop_attacks(square, occupied):
    """Squares a bishop on ``square`` attacks given the ``occupied`` bitboard."""
    return (_positive_ray(2, square, occupied) | _positive_ray(3, square, occupied)
            | _negative_ray(6, square, occupied) | _negative_ray(7, square, occupied))


@njit(cache=True, inline="always", _nrt=False)
def color_occupancy(position, color):
    """All men of ``color`` (0 white, 1 black) in a position row."""
    base = color * COLUMN_BLACK
    return (position[base] | position[base + 1] | position[base + 2]
            | position[base + 3] | position[base + 4] | position[base + 5])


@njit(cache=True, _nrt=False)
def attackers_of(position, square, by_color, occupied):
    """Men of ``by_color`` that attack ``square`` with ``occupied`` as the blockers.

    ``occupied`` is passed separately so callers can ask "what if" questions
    (a king stepping away from its square, an en-passant capture).
    """
    base = by_color * COLUMN_BLACK
    queens = position[base + QUEEN]
    return ((PAWN_ATTACKS[1 - by_color, square] & position[base + PAWN])
            | (KNIGHT_ATTACKS[square] & position[base + KNIGHT])
            | (KING_ATTACKS[square] & position[base + KING])
            | (rook_attacks(square, occupied) & (position[base + ROOK] | queens))
            | (bishop_attacks(square, occupied) & (position[base + BISHOP] | queens)))
