"""Make-move: write the position after a move into a new row (copy-make),
updating castling rights, en passant, clocks and the Zobrist hash incrementally.

The move is not checked for legality: callers pass moves from a generator.

>>> import numpy as np
>>> from ksolve.board.convert import position_from_fen, position_to_fen
>>> from ksolve.board.layout import encode_move
>>> start = position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
>>> child = np.empty_like(start)
>>> make_move(start, encode_move(12, 28), child)
>>> position_to_fen(child)
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.layout import (
    COLUMN_BLACK, COLUMN_CASTLING, COLUMN_EP, COLUMN_FULLMOVE, COLUMN_HALFMOVE, COLUMN_HASH,
    COLUMN_TURN, KING, NO_SQUARE, PAWN, POSITION_WIDTH, ROOK,
)
from ksolve.board.tables import (
    CASTLING_KEEP, PAWN_ATTACKS, SQUARE_BB, ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_PIECE,
    ZOBRIST_WHITE_TO_MOVE,
)

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always", _nrt=False)
def _piece_at(position, base, bit):
    for piece in range(6):
        if position[base + piece] & bit:
            return piece
    return -1


@njit(cache=True, _nrt=False)
def make_move(position, move, out):
    """Write ``position`` after ``move`` into the row ``out`` (which may not alias it)."""
    for column in range(POSITION_WIDTH):  # (a slice copy would need numba's runtime)
        out[column] = position[column]
    us = np.int64(position[COLUMN_TURN])
    them = 1 - us
    base = us * COLUMN_BLACK
    their_base = them * COLUMN_BLACK
    from_square = move & 63
    to_square = (move >> 6) & 63
    promotion = (move >> 12) & 7
    from_bit = SQUARE_BB[from_square]
    to_bit = SQUARE_BB[to_square]
    h = position[COLUMN_HASH]
    ep = np.int64(position[COLUMN_EP])

    piece = _piece_at(position, base, from_bit)
    captured = _piece_at(position, their_base, to_bit)
    if captured >= 0:
        out[their_base + captured] ^= to_bit
        h ^= ZOBRIST_PIECE[them, captured, to_square]
    elif piece == PAWN and to_square == ep:
        victim = to_square - 8 if us == 0 else to_square + 8
        out[their_base + PAWN] ^= SQUARE_BB[victim]
        h ^= ZOBRIST_PIECE[them, PAWN, victim]
        captured = PAWN

    out[base + piece] ^= from_bit | to_bit
    h ^= ZOBRIST_PIECE[us, piece, from_square] ^ ZOBRIST_PIECE[us, piece, to_square]
    if promotion:
        out[base + PAWN] ^= to_bit
        out[base + promotion] |= to_bit
        h ^= ZOBRIST_PIECE[us, PAWN, to_square] ^ ZOBRIST_PIECE[us, promotion, to_square]
    if piece == KING and (to_square - from_square == 2 or from_square - to_square == 2):
        rook_from = from_square + 3 if to_square > from_square else from_square - 4
        rook_to = (from_square + to_square) // 2
        out[base + ROOK] ^= SQUARE_BB[rook_from] | SQUARE_BB[rook_to]
        h ^= ZOBRIST_PIECE[us, ROOK, rook_from] ^ ZOBRIST_PIECE[us, ROOK, rook_to]

    rights = np.int64(position[COLUMN_CASTLING])
    new_rights = rights & np.int64(CASTLING_KEEP[from_square]) & np.int64(CASTLING_KEEP[to_square])
    h ^= ZOBRIST_CASTLING[rights] ^ ZOBRIST_CASTLING[new_rights]
    out[COLUMN_CASTLING] = new_rights

    new_ep = NO_SQUARE
    if piece == PAWN and (to_square - from_square == 16 or from_square - to_square == 16):
        middle = (from_square + to_square) // 2
        if PAWN_ATTACKS[us, middle] & position[their_base + PAWN]:
            new_ep = middle
    h ^= ZOBRIST_EP[ep] ^ ZOBRIST_EP[new_ep]
    out[COLUMN_EP] = new_ep

    out[COLUMN_TURN] = them
    h ^= ZOBRIST_WHITE_TO_MOVE
    if piece == PAWN or captured >= 0:
        out[COLUMN_HALFMOVE] = 0
    else:
        out[COLUMN_HALFMOVE] = position[COLUMN_HALFMOVE] + ONE
    if us == 1:
        out[COLUMN_FULLMOVE] = position[COLUMN_FULLMOVE] + ONE
    out[COLUMN_HASH] = h
