"""The layout of a position row and of a move.

A position is one row of ``POSITION_WIDTH`` unsigned 64-bit words; a set of
positions (a belief state, a batch of children) is a 2-D ``uint64`` array with
one position per row.  Squares are numbered as in python-chess: a1 = 0, b1 = 1,
..., h8 = 63.

>>> COLUMN_WHITE + KING, COLUMN_BLACK + PAWN
(5, 6)
>>> decode_move(encode_move(12, 28))
(12, 28, 0)

Row columns:

======  ==================================================================
0-5     white pawn, knight, bishop, rook, queen, king bitboards
6-11    black pawn, knight, bishop, rook, queen, king bitboards
12      side to move (0 = white, 1 = black)
13      castling rights: bit 0 white O-O, 1 white O-O-O, 2 black O-O, 3 black O-O-O
14      en-passant target square, or ``NO_SQUARE``; kept only when a pawn of the
        side to move stands ready to capture (the Polyglot convention)
15      halfmove clock
16      fullmove number
17      Zobrist hash (Polyglot keys), kept up to date by make-move
======  ==================================================================

A move is a non-negative integer ``from | to << 6 | promotion << 12`` where
``promotion`` is a piece index (``KNIGHT`` .. ``QUEEN``) or 0.  Castling is
written as the king's two-square move (e1g1), as in UCI.
"""

from __future__ import annotations

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 0, 1, 2, 3, 4, 5
PIECE_SYMBOLS = "pnbrqk"

WHITE, BLACK = 0, 1
COLUMN_WHITE = 0
COLUMN_BLACK = 6
COLUMN_TURN = 12
COLUMN_CASTLING = 13
COLUMN_EP = 14
COLUMN_HALFMOVE = 15
COLUMN_FULLMOVE = 16
COLUMN_HASH = 17
POSITION_WIDTH = 18

NO_SQUARE = 64

CASTLE_WHITE_KING = 1
CASTLE_WHITE_QUEEN = 2
CASTLE_BLACK_KING = 4
CASTLE_BLACK_QUEEN = 8

MAX_MOVES = 256
"""An upper bound on the moves of one position (the known maximum is 218)."""


def encode_move(from_square: int, to_square: int, promotion: int = 0) -> int:
    """Pack a move into one integer (``promotion`` 0 or ``KNIGHT`` .. ``QUEEN``).

    >>> encode_move(52, 60, QUEEN)
    20276
    """
    return from_square | (to_square << 6) | (promotion << 12)


def decode_move(move: int) -> tuple[int, int, int]:
    """Unpack a move into ``(from_square, to_square, promotion)``.

    >>> decode_move(20276)
    (52, 60, 4)
    """
    return move & 63, (move >> 6) & 63, (move >> 12) & 7
