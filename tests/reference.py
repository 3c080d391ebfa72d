"""Independent python-chess references for the engine tests.

These share no code with ``ksolve.board``: they are written on python-chess
alone (the Fog-of-War moves are those of the certificate checker,
``ksolve.checker``, also python-chess alone) so that the engine is checked
against a second implementation.
"""

from __future__ import annotations

import chess

from ksolve.checker.fog import fog_moves


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
    """Fog-of-War moves by the rules of DOMAIN.md section 4, on python-chess:
    the certificate checker's generator (``ksolve.checker.fog``, python-chess
    alone, no code shared with ``ksolve.board``).  Every pseudo-legal move
    (moving into check and capturing a king allowed), castling needing only
    the right, king and rook in place and the squares between empty; no moves
    once either king has been captured."""
    return fog_moves(board)


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
