"""The colour-swapped game: Black's side of a game as White's.

ksolve's estimator and prover think for White.  A side that plays Black
thinks in the mirrored game (ranks flipped, colours swapped), where it is
White; every announcement maps over exactly (check directions keep their
names, capture and pawn-try squares flip their rank).

>>> mirror_uci("e7e5"), mirror_square_mask(1 << 12) == 1 << 52
('e2e4', True)
>>> mirror_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").split()[:2]
['rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR', 'w']
"""

from __future__ import annotations

import chess
import numpy as np

from ksolve.board import position_from_board, position_to_board
from ksolve.games.model import Refused, Turn
from ksolve.rules import codes


def mirror_square(square: int) -> int:
    """The square with its rank flipped (e2 <-> e7)."""
    return square ^ 56


def mirror_square_mask(mask: int) -> int:
    """A set of squares (a bitboard) with the ranks flipped."""
    return chess.flip_vertical(mask)


def mirror_uci(uci: str) -> str:
    """A move in UCI with the ranks flipped (promotion kept)."""
    move = chess.Move.from_uci(uci)
    return chess.Move(mirror_square(move.from_square), mirror_square(move.to_square), move.promotion).uci()


def mirror_fen(fen: str) -> str:
    """The FEN of the colour-swapped position (the move number kept)."""
    board = chess.Board(fen)
    mirrored = board.mirror()
    mirrored.fullmove_number = board.fullmove_number
    return mirrored.fen(en_passant="fen")


def mirror_position(row: np.ndarray, fog: bool = False) -> np.ndarray:
    """The colour-swapped position row."""
    board = position_to_board(row)
    mirrored = board.mirror()
    mirrored.fullmove_number = board.fullmove_number
    return position_from_board(mirrored, validate=False, fog=fog)


def mirror_code(code: int, extra: int) -> tuple[int, int]:
    """An announcement code (and its RAND pawn-try squares) in the mirrored game."""
    square = codes.capture_square(code)
    if square is not None:
        code = (code & ~codes.CAPTURE_MASK) | codes.capture_code(mirror_square(square))
    return code, mirror_square_mask(extra)


def mirror_turn(turn: Turn) -> Turn:
    """A recorded turn in the mirrored game (its mover changes colour)."""
    code, extra = mirror_code(turn.code, turn.extra)
    actions = tuple(Refused(mirror_uci(a.move)) if isinstance(a, Refused) else a for a in turn.actions)
    return Turn(not turn.white, actions, None if turn.move is None else mirror_uci(turn.move), code, extra)
