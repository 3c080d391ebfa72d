"""Fog of War on python-chess alone (DOMAIN.md section 4): the moves and what
White sees.

Moves are every pseudo-legal move (kings may be captured, a king may move into
or stay in check), castling rebuilt: it needs only the right, king and rook on
their squares and empty squares between them.  No moves once a king is gone.

White sees his own men, every square one of his Fog-of-War moves goes to (so a
pawn sees the empty squares ahead it can advance to and the diagonals holding
an enemy man), the passed pawn when he may capture en passant, and the enemy
men on those squares.  After White's own move (Black to move) the view is
taken as if White were to move, without an en-passant right.

>>> board = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
>>> sorted(view(board)["visible"], key=chess.parse_square)
['d1', 'e1', 'f1', 'd2', 'e2', 'f2', 'e3', 'e4']
"""

from __future__ import annotations

from typing import Any

import chess

FIFTY_MOVES = 100
"""Half-moves without capture or pawn move after which the game is drawn."""


def pseudo_moves(board: chess.Board) -> list[chess.Move]:
    """The Fog-of-War moves of the side to move, whether or not a king is gone.

    >>> [m.uci() for m in pseudo_moves(chess.Board("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1"))][-1]
    'e1c1'
    """
    moves = [m for m in board.generate_pseudo_legal_moves() if not board.is_castling(m)]
    rank = 0 if board.turn == chess.WHITE else 7
    king_square = chess.square(4, rank)
    if board.piece_at(king_square) != chess.Piece(chess.KING, board.turn):
        return moves
    rights = board.clean_castling_rights()
    for rook_file, king_to_file in ((7, 6), (0, 2)):
        rook_square = chess.square(rook_file, rank)
        if not rights & chess.BB_SQUARES[rook_square]:
            continue
        if board.piece_at(rook_square) != chess.Piece(chess.ROOK, board.turn):
            continue
        if chess.between(king_square, rook_square) & board.occupied:
            continue
        moves.append(chess.Move(king_square, chess.square(king_to_file, rank)))
    return moves


def fog_moves(board: chess.Board) -> list[chess.Move]:
    """The moves of the side to move: none once either king has been captured.

    >>> fog_moves(chess.Board("8/8/8/8/8/8/8/K6R w - - 0 1"))
    []
    """
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        return []
    return pseudo_moves(board)


def end(board: chess.Board) -> str | None:
    """How the game ended with ``board`` (after a move), or None.

    >>> end(chess.Board("8/8/8/8/8/8/8/K6R b - - 0 1"))
    'king-captured'
    """
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        return "king-captured"
    if not pseudo_moves(board):
        return "stalemate"
    if board.halfmove_clock >= FIFTY_MOVES:
        return "move-limit"
    return None


def view(board: chess.Board) -> dict[str, Any]:
    """What White sees of ``board``: ``visible``, ``black``, ``white``, ``castling``.

    >>> view(chess.Board("4k3/8/8/8/8/8/4p3/4K3 b - - 0 1"))["black"]
    {'e2': 'p'}
    """
    turn, ep_square = board.turn, board.ep_square
    if turn != chess.WHITE:
        board.turn, board.ep_square = chess.WHITE, None
    try:
        seen = board.occupied_co[chess.WHITE]
        for move in pseudo_moves(board):
            seen |= chess.BB_SQUARES[move.to_square]
        if board.ep_square is not None and board.has_pseudo_legal_en_passant():
            seen |= chess.BB_SQUARES[board.ep_square - 8]
    finally:
        board.turn, board.ep_square = turn, ep_square
    rights = board.clean_castling_rights()
    return {
        "visible": [chess.square_name(s) for s in chess.scan_forward(seen)],
        "black": {chess.square_name(s): board.piece_at(s).symbol()  # type: ignore[union-attr]
                  for s in chess.scan_forward(seen & board.occupied_co[chess.BLACK])},
        "white": {chess.square_name(s): board.piece_at(s).symbol()  # type: ignore[union-attr]
                  for s in chess.scan_forward(board.occupied_co[chess.WHITE])},
        "castling": ("K" if rights & chess.BB_H1 else "") + ("Q" if rights & chess.BB_A1 else ""),
    }


def observation(board: chess.Board, move: chess.Move) -> tuple[dict[str, Any], chess.Board]:
    """What White sees after ``move`` (a Fog-of-War move of either side), and the board after.

    >>> obs, after = observation(chess.Board("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"), chess.Move.from_uci("e1e8"))
    >>> obs["capture"], obs["end"], obs["black"]
    ('e8', 'king-captured', {})
    """
    seen: dict[str, Any] = {}
    if board.is_en_passant(move):
        seen["capture"] = chess.square_name(move.to_square + (-8 if board.turn == chess.WHITE else 8))
    elif board.occupied_co[not board.turn] & chess.BB_SQUARES[move.to_square]:
        seen["capture"] = chess.square_name(move.to_square)
    after = board.copy(stack=False)
    after.push(move)
    finished = end(after)
    if finished:
        seen["end"] = finished
    seen.update(view(after))
    return seen, after
