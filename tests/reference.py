"""Independent python-chess references for the engine tests.

These share no code with ``ksolve.board``: they are written on python-chess
alone so that the engine is checked against a second implementation.
"""

from __future__ import annotations

import chess


def chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft, counting the last ply from the legal move list."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_perft(board, depth - 1)
        board.pop()
    return nodes


def fog_reference_moves(board: chess.Board) -> list[chess.Move]:
    """Fog-of-War moves by the rules of DOMAIN.md section 4, on python-chess.

    Every pseudo-legal move (python-chess's pseudo-legal generator already
    allows moving into check and capturing a king), except that castling is
    rebuilt here: it needs only the castling right, king and rook on their
    squares and empty squares between them, attacked squares do not matter.
    No moves once either king has been captured.
    """
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        return []
    moves = [m for m in board.generate_pseudo_legal_moves() if not board.is_castling(m)]
    rank = 0 if board.turn == chess.WHITE else 7
    king_square = chess.square(4, rank)
    king = board.piece_at(king_square)
    if king != chess.Piece(chess.KING, board.turn):
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


def fog_perft(board: chess.Board, depth: int) -> int:
    """Leaf count of the Fog-of-War move tree, made move by move with python-chess."""
    if depth == 0:
        return 1
    nodes = 0
    for move in fog_reference_moves(board):
        if depth == 1:
            nodes += 1
            continue
        board.push(move)
        nodes += fog_perft(board, depth - 1)
        board.pop()
    return nodes
