"""Test positions: the standard perft suite and random-game position streams."""

from __future__ import annotations

import random
from typing import Callable, Iterator

import chess

START = chess.STARTING_FEN

# The chessprogramming wiki's perft positions 1-6 with their published counts
# (the tests recompute them with python-chess rather than trusting the table).
PERFT_SUITE = {
    "start": START,
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "position6": "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
}

# Extra starting points rich in en passant, promotions, pins and castling.
SPECIAL_STARTS = [
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",          # en passant
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",           # en passant exposing the king on the rank
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",          # promotions both sides
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",       # castling
    "r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1",     # castling out of / through check
    "4k3/8/8/8/b7/8/2P5/4K2R w K - 0 1",          # pinned pawn
    "3qk3/8/8/8/8/8/3N4/3K4 w - - 0 1",           # pinned knight
    "4k3/8/8/1b6/8/8/4N3/r3K2R w K - 0 1",        # check evasions
    "4k3/8/5N2/8/8/8/8/K3R3 b - - 0 1",           # double check
    "r3k2r/pp3ppp/8/2bBN3/8/8/PP3PPP/R3K2R w KQkq - 0 1",  # discovered checks
]


def random_game_positions(
    start_fens: list[str],
    games: int,
    seed: int,
    max_plies: int = 160,
    moves_of: Callable[[chess.Board], list[chess.Move]] | None = None,
) -> Iterator[chess.Board]:
    """Boards reached by seeded random play from the given starts (each game
    starts from ``start_fens[i % len]``); the start itself is included.

    ``moves_of`` gives a board's moves (legal moves by default); a game stops
    when there are none.  Captures, promotions and checks are preferred a
    little so games reach endgames, promotions and double checks more often.
    """
    rng = random.Random(seed)
    moves_of = moves_of or (lambda board: list(board.legal_moves))
    for game in range(games):
        board = chess.Board(start_fens[game % len(start_fens)])
        yield board.copy(stack=False)
        for _ in range(max_plies):
            moves = moves_of(board)
            if not moves:
                break
            weights = [3 if board.is_capture(m) or m.promotion or board.gives_check(m) else 1
                       for m in moves]
            board.push(rng.choices(moves, weights)[0])
            yield board.copy(stack=False)


def random_placements(count: int, seed: int) -> Iterator[chess.Board]:
    """Valid boards with a few men scattered at random, castling rights and
    en-passant squares set where possible: they reach checks, double checks,
    pins and en-passant captures far more often than random games do."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        board = chess.Board(None)
        board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(rng.choice([s for s in range(64) if board.piece_at(s) is None]),
                           chess.Piece(chess.KING, chess.BLACK))
        for _ in range(rng.randint(2, 12)):
            piece = chess.Piece(rng.choice([1, 1, 1, 2, 3, 4, 5]), rng.choice([True, False]))
            empty = [s for s in range(64) if board.piece_at(s) is None
                     and not (piece.piece_type == chess.PAWN and chess.square_rank(s) in (0, 7))]
            board.set_piece_at(rng.choice(empty), piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if rng.random() < 0.5:
            board.castling_rights = board.clean_castling_rights() | _possible_castling(board)
        if rng.random() < 0.7:
            _set_possible_en_passant(board, rng)
        if board.is_valid():
            produced += 1
            yield board


def _possible_castling(board: chess.Board) -> int:
    rights = 0
    for color, rank in ((chess.WHITE, 0), (chess.BLACK, 7)):
        if board.piece_at(chess.square(4, rank)) == chess.Piece(chess.KING, color):
            for file in (0, 7):
                if board.piece_at(chess.square(file, rank)) == chess.Piece(chess.ROOK, color):
                    rights |= chess.BB_SQUARES[chess.square(file, rank)]
    return rights


def _set_possible_en_passant(board: chess.Board, rng: random.Random) -> None:
    """Make the last move a double pawn step next to a capturing pawn, if the squares allow."""
    pushed_rank, passed_rank, origin_rank = (4, 5, 6) if board.turn == chess.WHITE else (3, 2, 1)
    file = rng.randrange(8)
    capture_file = file + rng.choice([-1, 1])
    if not 0 <= capture_file < 8:
        return
    squares = [chess.square(file, r) for r in (pushed_rank, passed_rank, origin_rank)]
    capturer = chess.square(capture_file, pushed_rank)
    if any(board.piece_at(s) is not None for s in squares + [capturer]):
        return
    board.set_piece_at(squares[0], chess.Piece(chess.PAWN, not board.turn))
    board.set_piece_at(capturer, chess.Piece(chess.PAWN, board.turn))
    board.ep_square = squares[1]
