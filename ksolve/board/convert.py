"""Conversions between position rows and python-chess: ``chess.Board``, FEN and
UCI moves.  This is the only module of ``ksolve.board`` that knows python-chess.

>>> row = position_from_fen("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1")
>>> position_to_fen(row)
'8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1'
>>> move_to_uci(move_from_uci("e7e8q"))
'e7e8q'
>>> position_from_fen("8/8/8/8/8/8/8/K7 w - - 0 1")
Traceback (most recent call last):
...
ksolve.board.convert.PositionError: illegal position 8/8/8/8/8/8/8/K7 w - - 0 1: no black king
"""

from __future__ import annotations

from typing import Iterable

import chess
import numpy as np

from ksolve.board.layout import (
    CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN, CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN, COLUMN_BLACK,
    COLUMN_CASTLING, COLUMN_EP, COLUMN_FULLMOVE, COLUMN_HALFMOVE, COLUMN_HASH, COLUMN_TURN,
    NO_SQUARE, POSITION_WIDTH, decode_move, encode_move,
)


class PositionError(ValueError):
    """A FEN that does not parse, or a position that is not legal chess."""


_STATUS_REASONS = [
    (chess.STATUS_NO_WHITE_KING, "no white king"),
    (chess.STATUS_NO_BLACK_KING, "no black king"),
    (chess.STATUS_TOO_MANY_KINGS, "more than one king of a colour"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "more than 8 white pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "more than 8 black pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "a pawn on the first or last rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "more than 16 white men"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "more than 16 black men"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "castling rights without king and rook on their squares"),
    (chess.STATUS_INVALID_EP_SQUARE, "impossible en-passant square"),
    (chess.STATUS_OPPOSITE_CHECK, "the side not to move is in check"),
    (chess.STATUS_EMPTY, "empty board"),
    (chess.STATUS_RACE_CHECK, "race check"),
    (chess.STATUS_RACE_OVER, "race over"),
    (chess.STATUS_RACE_MATERIAL, "race material"),
    (chess.STATUS_TOO_MANY_CHECKERS, "more than two men give check"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "a check that no last move could have given"),
]

_CASTLING_BITS = [
    (chess.H1, CASTLE_WHITE_KING), (chess.A1, CASTLE_WHITE_QUEEN),
    (chess.H8, CASTLE_BLACK_KING), (chess.A8, CASTLE_BLACK_QUEEN),
]


_CHECK_RULES = chess.STATUS_OPPOSITE_CHECK | chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK


def illegality_reasons(board: chess.Board, *, fog: bool = False) -> list[str]:
    """Why ``board`` is not a legal position (empty if it is).

    With ``fog`` the check rules are waived: in Fog of War a king may stand
    in check on the opponent's turn.

    >>> illegality_reasons(chess.Board("k7/8/8/8/8/8/8/K6P w - - 0 1"))
    ['a pawn on the first or last rank']
    >>> illegality_reasons(chess.Board("k7/8/8/8/8/8/8/K6R w - - 0 1"), fog=True)
    []
    """
    status = board.status()
    if fog:
        status &= ~_CHECK_RULES
    return [reason for flag, reason in _STATUS_REASONS if status & flag]


def position_from_board(board: chess.Board, *, validate: bool = True, fog: bool = False) -> np.ndarray:
    """The position row of a ``chess.Board``.

    With ``validate`` (the default) a position that is not legal raises
    ``PositionError`` naming every reason (``fog`` waives the check rules, see
    ``illegality_reasons``); without it only what the row cannot represent
    (Chess960 castling) is refused.
    """
    if validate:
        reasons = illegality_reasons(board, fog=fog)
        if reasons:
            raise PositionError(f"illegal position {board.fen()}: {'; '.join(reasons)}")
    row = np.zeros(POSITION_WIDTH, dtype=np.uint64)
    for color_index, color in enumerate((chess.WHITE, chess.BLACK)):
        for piece in range(6):
            row[color_index * COLUMN_BLACK + piece] = np.uint64(board.pieces_mask(piece + 1, color))
    row[COLUMN_TURN] = 0 if board.turn == chess.WHITE else 1
    row[COLUMN_CASTLING] = _castling_bits(board)
    ep = NO_SQUARE
    if board.ep_square is not None and board.has_pseudo_legal_en_passant():
        ep = board.ep_square
    row[COLUMN_EP] = ep
    row[COLUMN_HALFMOVE] = board.halfmove_clock
    row[COLUMN_FULLMOVE] = board.fullmove_number
    from ksolve.board.zobrist import position_hash

    row[COLUMN_HASH] = position_hash(row)
    return row


def _castling_bits(board: chess.Board) -> int:
    rights = board.clean_castling_rights()
    bits = 0
    for square, bit in _CASTLING_BITS:
        if rights & chess.BB_SQUARES[square]:
            bits |= bit
    unsupported = rights & ~(chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8)
    if unsupported:
        raise PositionError(f"Chess960 castling rights are not supported: {board.fen()}")
    return bits


def position_to_board(row: np.ndarray) -> chess.Board:
    """The ``chess.Board`` of a position row."""
    board = chess.Board(None)
    for color_index, color in enumerate((chess.WHITE, chess.BLACK)):
        for piece in range(6):
            mask = int(row[color_index * COLUMN_BLACK + piece])
            for square in chess.scan_forward(mask):
                board.set_piece_at(square, chess.Piece(piece + 1, color))
    board.turn = chess.WHITE if int(row[COLUMN_TURN]) == 0 else chess.BLACK
    castling = int(row[COLUMN_CASTLING])
    board.castling_rights = 0
    for square, bit in _CASTLING_BITS:
        if castling & bit:
            board.castling_rights |= chess.BB_SQUARES[square]
    ep = int(row[COLUMN_EP])
    board.ep_square = None if ep == NO_SQUARE else ep
    board.halfmove_clock = int(row[COLUMN_HALFMOVE])
    board.fullmove_number = int(row[COLUMN_FULLMOVE])
    return board


_LETTERS = ("PNBRQK", "pnbrqk")


def board_fen_of(bitboards: Iterable[int]) -> str:
    """The board part of a FEN from twelve bitboards (White's pawns to king,
    then Black's), without building a ``chess.Board`` (the reports call it
    at every node of a strategy).

    >>> row = position_from_fen("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1")
    >>> board_fen_of(row[:12])
    '8/8/5B2/8/8/3N4/R6p/5K1k'
    """
    cells = [""] * 64
    for index, mask in enumerate(bitboards):
        mask, letter = int(mask), _LETTERS[index // 6][index % 6]
        while mask:
            cells[(mask & -mask).bit_length() - 1] = letter
            mask &= mask - 1
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for cell in cells[rank * 8:rank * 8 + 8]:
            if cell:
                text += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def position_from_fen(fen: str, *, validate: bool = True, fog: bool = False) -> np.ndarray:
    """The position row of a FEN; ``PositionError`` names what is wrong with a bad one."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise PositionError(f"invalid FEN {fen!r}: {error}") from None
    return position_from_board(board, validate=validate, fog=fog)


def position_to_fen(row: np.ndarray) -> str:
    """The FEN of a position row (en passant written only when legal, as python-chess does)."""
    return position_to_board(row).fen()


def positions_from_fens(fens: Iterable[str], *, validate: bool = True, fog: bool = False) -> np.ndarray:
    """A 2-D position array, one row per FEN."""
    rows = [position_from_fen(fen, validate=validate, fog=fog) for fen in fens]
    if not rows:
        return np.zeros((0, POSITION_WIDTH), dtype=np.uint64)
    return np.stack(rows)


def move_from_uci(uci: str) -> int:
    """The move integer of a UCI string such as ``e2e4`` or ``e7e8q``."""
    try:
        move = chess.Move.from_uci(uci)
    except ValueError as error:
        raise ValueError(f"invalid UCI move {uci!r}: {error}") from None
    if move.drop or not move:
        raise ValueError(f"invalid UCI move {uci!r}: not a board move")
    promotion = 0 if move.promotion is None else move.promotion - 1
    return encode_move(move.from_square, move.to_square, promotion)


def move_to_uci(move: int) -> str:
    """The UCI string of a move integer."""
    from_square, to_square, promotion = decode_move(int(move))
    suffix = chess.piece_symbol(promotion + 1) if promotion else ""
    return chess.square_name(from_square) + chess.square_name(to_square) + suffix


def move_to_chess(move: int) -> chess.Move:
    """The ``chess.Move`` of a move integer."""
    from_square, to_square, promotion = decode_move(int(move))
    return chess.Move(from_square, to_square, promotion + 1 if promotion else None)


# Piece indices (layout.PAWN .. layout.KING) are python-chess piece types minus one.
