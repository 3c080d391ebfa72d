"""The chess engine of ksolve: positions as rows of a uint64 array and numba
kernels over them (attack tables, legal and Fog-of-War move generation,
make-move, Zobrist hashing, batch expansion, perft).

>>> from ksolve.board import position_from_fen, perft
>>> int(perft(position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 2))
400
"""

from ksolve.compilation import refresh_kernel_cache

refresh_kernel_cache()  # before any kernel is loaded: a cached caller may hold a changed callee's old code

from ksolve.board.batch import count_moves, expand, perft, perft_parts  # noqa: E402
from ksolve.board.convert import (
    PositionError, illegality_reasons, move_from_uci, move_to_chess, move_to_uci,
    position_from_board, position_from_fen, position_to_board, position_to_fen,
    positions_from_fens,
)
from ksolve.board.layout import MAX_MOVES, POSITION_WIDTH
from ksolve.board.makemove import make_move
from ksolve.board.movegen import checkers_of, fog_moves, king_square, legal_moves
from ksolve.board.zobrist import position_hash

__all__ = [
    "MAX_MOVES", "POSITION_WIDTH", "PositionError", "checkers_of", "count_moves", "expand",
    "fog_moves", "illegality_reasons", "king_square", "legal_moves", "make_move",
    "move_from_uci", "move_to_chess", "move_to_uci", "perft", "perft_parts", "position_from_board",
    "position_from_fen", "position_hash", "position_to_board", "position_to_fen",
    "positions_from_fens",
]
