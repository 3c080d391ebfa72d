"""The board's eight symmetries (rotations and reflections) on squares,
square sets and moves: pawnless endgames look the same in all eight.

Symmetry ``g`` maps square ``(file, rank)`` to ``TRANSFORMS[g](file, rank)``;
``SQUARE_MAP[g, square]`` is the image of a square, ``INVERSE[g]`` undoes
``g`` and ``COMPOSE[g, h]`` is "first ``h``, then ``g``".

>>> import chess
>>> chess.square_name(int(SQUARE_MAP[1, chess.A1])), chess.square_name(int(SQUARE_MAP[4, chess.B1]))
('h1', 'a2')
>>> all(map_squares(INVERSE[g], map_squares(g, 0x8100000000000081 | 1 << 9)) == 0x8100000000000081 | 1 << 9
...     for g in range(8))
True
"""

from __future__ import annotations

import numpy as np

TRANSFORMS = (
    lambda f, r: (f, r),
    lambda f, r: (7 - f, r),
    lambda f, r: (f, 7 - r),
    lambda f, r: (7 - f, 7 - r),
    lambda f, r: (r, f),
    lambda f, r: (7 - r, f),
    lambda f, r: (r, 7 - f),
    lambda f, r: (7 - r, 7 - f),
)
"""Identity, the mirror of files, of ranks, the half turn, the two diagonal
reflections and the two quarter turns (in the order of their indices)."""
SYMMETRIES = len(TRANSFORMS)


def _square_map() -> np.ndarray:
    table = np.empty((SYMMETRIES, 64), dtype=np.int64)
    for g, transform in enumerate(TRANSFORMS):
        for square in range(64):
            file, rank = transform(square % 8, square // 8)
            table[g, square] = rank * 8 + file
    return table


SQUARE_MAP = _square_map()
INVERSE = np.array([next(h for h in range(SYMMETRIES) if (SQUARE_MAP[h][SQUARE_MAP[g]] == np.arange(64)).all())
                    for g in range(SYMMETRIES)], dtype=np.int64)
COMPOSE = np.array([[next(k for k in range(SYMMETRIES) if (SQUARE_MAP[k] == SQUARE_MAP[g][SQUARE_MAP[h]]).all())
                     for h in range(SYMMETRIES)] for g in range(SYMMETRIES)], dtype=np.int64)


def map_squares(g: int, mask: int) -> int:
    """The image of the square set ``mask`` (a bitboard) under symmetry ``g``."""
    out = 0
    row = SQUARE_MAP[g]
    while mask:
        low = mask & -mask
        out |= 1 << int(row[low.bit_length() - 1])
        mask ^= low
    return out


def map_move(g: int, move: int) -> int:
    """The image of a move code (``ksolve.board.layout``: from, to, promotion) under ``g``."""
    row = SQUARE_MAP[g]
    return int(row[move & 63]) | int(row[(move >> 6) & 63]) << 6 | (move & ~0xFFF)
