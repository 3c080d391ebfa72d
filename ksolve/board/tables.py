"""Precomputed tables: single-square bitboards, leaper attacks, slider rays,
between/line masks, castling-rights masks and the Zobrist keys.

The tables are plain numpy arrays built once at import; numba kernels read
them as compile-time constants.

>>> bin(int(KNIGHT_ATTACKS[0]))  # a knight on a1 attacks b3 and c2
'0b100000010000000000'
>>> int(BETWEEN[0, 3]) == int(SQUARE_BB[1] | SQUARE_BB[2])
True
"""

from __future__ import annotations

import numpy as np
from chess.polyglot import POLYGLOT_RANDOM_ARRAY

from ksolve.board.layout import (
    CASTLE_BLACK_KING,
    CASTLE_BLACK_QUEEN,
    CASTLE_WHITE_KING,
    CASTLE_WHITE_QUEEN,
    NO_SQUARE,
)

U64 = np.uint64

# Ray directions as (file step, rank step).  0-3 increase the square index
# (scan the lowest blocker), 4-7 decrease it (scan the highest blocker).
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _leaper_table(steps: tuple[tuple[int, int], ...]) -> np.ndarray:
    table = np.zeros(64, dtype=U64)
    for square in range(64):
        file, rank = square % 8, square // 8
        for df, dr in steps:
            if _on_board(file + df, rank + dr):
                table[square] |= U64(1) << U64(8 * (rank + dr) + file + df)
    return table


def _ray_table() -> np.ndarray:
    rays = np.zeros((8, 64), dtype=U64)
    for direction, (df, dr) in enumerate(DIRECTIONS):
        for square in range(64):
            file, rank = square % 8 + df, square // 8 + dr
            while _on_board(file, rank):
                rays[direction, square] |= U64(1) << U64(8 * rank + file)
                file, rank = file + df, rank + dr
    return rays


def _between_and_line(rays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    between = np.zeros((64, 64), dtype=U64)
    line = np.zeros((64, 64), dtype=U64)
    for a in range(64):
        for direction in range(8):
            ray = int(rays[direction, a])
            opposite = (direction + 4) % 8
            for b in range(64):
                if ray >> b & 1:
                    between[a, b] = U64(ray & ~int(rays[direction, b]) & ~(1 << b))
                    full = ray | int(rays[opposite, a]) | (1 << a)
                    line[a, b] = U64(full)
    return between, line


SQUARE_BB = np.array([1 << s for s in range(64)], dtype=U64)
KNIGHT_ATTACKS = _leaper_table(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
KING_ATTACKS = _leaper_table(((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)))
PAWN_ATTACKS = np.stack([_leaper_table(((-1, 1), (1, 1))), _leaper_table(((-1, -1), (1, -1)))])
RAYS = _ray_table()
BETWEEN, LINE = _between_and_line(RAYS)
ROOK_PSEUDO = RAYS[0] | RAYS[1] | RAYS[4] | RAYS[5]
BISHOP_PSEUDO = RAYS[2] | RAYS[3] | RAYS[6] | RAYS[7]

RANK_1, RANK_2, RANK_7, RANK_8 = (U64(0xFF << (8 * r)) for r in (0, 1, 6, 7))
LIGHT_SQUARES = U64(0x55AA55AA55AA55AA)
DARK_SQUARES = U64(~0x55AA55AA55AA55AA & 0xFFFFFFFFFFFFFFFF)


def _castling_keep_mask() -> np.ndarray:
    """Per square, the castling rights that survive a move from or to it."""
    keep = np.full(64, 15, dtype=U64)
    keep[4] = U64(15 & ~(CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN))
    keep[0] = U64(15 & ~CASTLE_WHITE_QUEEN)
    keep[7] = U64(15 & ~CASTLE_WHITE_KING)
    keep[60] = U64(15 & ~(CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN))
    keep[56] = U64(15 & ~CASTLE_BLACK_QUEEN)
    keep[63] = U64(15 & ~CASTLE_BLACK_KING)
    return keep


CASTLING_KEEP = _castling_keep_mask()

# Castling geometry per right bit index (0: white O-O, 1: white O-O-O, 2: black O-O, 3: black O-O-O):
# king from, king to, rook from, squares that must be empty, squares the king crosses.
CASTLE_KING_FROM = np.array([4, 4, 60, 60], dtype=np.int64)
CASTLE_KING_TO = np.array([6, 2, 62, 58], dtype=np.int64)
CASTLE_ROOK_FROM = np.array([7, 0, 63, 56], dtype=np.int64)
CASTLE_EMPTY = np.array([BETWEEN[4, 7], BETWEEN[4, 0], BETWEEN[60, 63], BETWEEN[60, 56]], dtype=U64)
CASTLE_KING_PATH = np.array(
    [SQUARE_BB[4] | SQUARE_BB[5] | SQUARE_BB[6], SQUARE_BB[4] | SQUARE_BB[3] | SQUARE_BB[2],
     SQUARE_BB[60] | SQUARE_BB[61] | SQUARE_BB[62], SQUARE_BB[60] | SQUARE_BB[59] | SQUARE_BB[58]],
    dtype=U64,
)


def _zobrist_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.uint64]:
    """The Polyglot keys, so hashes agree with ``chess.polyglot.zobrist_hash``."""
    keys = np.array(POLYGLOT_RANDOM_ARRAY, dtype=U64)
    pieces = np.zeros((2, 6, 64), dtype=U64)
    for color in range(2):
        for piece in range(6):
            kind = 2 * piece + (1 - color)  # Polyglot: black pawn 0, white pawn 1, ...
            pieces[color, piece] = keys[64 * kind: 64 * kind + 64]
    castling = np.zeros(16, dtype=U64)
    for rights in range(16):
        for bit in range(4):
            if rights >> bit & 1:
                castling[rights] ^= keys[768 + bit]
    ep_files = np.zeros(NO_SQUARE + 1, dtype=U64)  # indexed by square; NO_SQUARE -> 0
    for square in range(64):
        ep_files[square] = keys[772 + square % 8]
    return pieces, castling, ep_files, keys[780]


ZOBRIST_PIECE, ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_WHITE_TO_MOVE = _zobrist_tables()
