"""Randomised differential test of the engine against python-chess: for every
position reached by seeded random games, the move set and every child's FEN
and Zobrist hash must equal python-chess's; Fog of War against the reference."""

from __future__ import annotations

from collections import Counter, defaultdict

import chess
import chess.polyglot
import numpy as np
import pytest

from ksolve.board import (
    checkers_of, expand, move_to_chess, position_from_board, position_hash, position_to_board,
    position_to_fen,
)
from ksolve.board.layout import COLUMN_HASH
from positions import PERFT_SUITE, SPECIAL_STARTS, random_game_positions, random_placements
from reference import fog_reference_moves

STARTS = [PERFT_SUITE["start"]] * 4 + list(PERFT_SUITE.values()) + SPECIAL_STARTS


def _features(board: chess.Board) -> set[str]:
    """The move-generation features a position exercises."""
    found = set()
    if board.is_check():
        found.add("check")
        if len(board.checkers()) > 1:
            found.add("double check")
    king = board.king(board.turn)
    if any(board.is_pinned(board.turn, sq) for sq in chess.SquareSet(board.occupied_co[board.turn])
           if sq != king):
        found.add("pin")
    for move in board.legal_moves:
        if board.is_en_passant(move):
            found.add("en passant")
        if board.is_castling(move):
            found.add("castling")
        if move.promotion:
            found.add("promotion")
    return found


@pytest.fixture(scope="module")
def random_boards() -> list[chess.Board]:
    """10,000 positions from random games plus 4,000 random placements."""
    boards = []
    for board in random_game_positions(STARTS, games=120, seed=20261130, max_plies=200):
        boards.append(board)
        if len(boards) >= 10_000:
            break
    boards.extend(random_placements(4_000, seed=11))
    return boards


def _children_by_parent(boards: list[chess.Board], fog: bool):
    positions = np.stack([position_from_board(b, validate=False) for b in boards])
    children, parents, moves = expand(positions, fog)
    grouped = defaultdict(list)
    for child, parent, move in zip(children, parents, moves):
        grouped[int(parent)].append((move_to_chess(move), child))
    return positions, grouped


@pytest.mark.slow
def test_moves_children_and_hashes_match_python_chess(random_boards: list[chess.Board]) -> None:
    assert len(random_boards) >= 14_000
    positions, grouped = _children_by_parent(random_boards, fog=False)
    coverage = Counter()
    for index, board in enumerate(random_boards):
        coverage.update(_features(board))
        assert position_hash(positions[index]) == chess.polyglot.zobrist_hash(board), board.fen()
        assert bool(checkers_of(positions[index])) == board.is_check(), board.fen()
        ours = dict(grouped[index])
        assert set(ours) == set(board.legal_moves), board.fen()
        for move, child in ours.items():
            board.push(move)
            assert position_to_fen(child) == board.fen(), (board.fen(), move)
            assert int(child[COLUMN_HASH]) == chess.polyglot.zobrist_hash(board), (board.fen(), move)
            board.pop()
    # The random games must actually exercise every special rule, many times.
    for feature in ("check", "double check", "pin", "en passant", "castling", "promotion"):
        assert coverage[feature] >= 20, (feature, coverage)


@pytest.mark.slow
def test_fog_moves_and_children_match_reference() -> None:
    boards = list(random_game_positions(STARTS, games=40, seed=7, max_plies=150,
                                        moves_of=fog_reference_moves))
    boards.extend(random_placements(2_000, seed=12))
    assert len(boards) >= 4_000
    positions, grouped = _children_by_parent(boards, fog=True)
    kings_captured = 0
    for index, board in enumerate(boards):
        ours = dict(grouped[index])
        reference = fog_reference_moves(board)
        assert set(ours) == set(reference), board.fen()
        for move, child in ours.items():
            board.push(move)
            assert position_to_board(child).fen(en_passant="xfen") == board.fen(en_passant="xfen")
            assert int(child[COLUMN_HASH]) == chess.polyglot.zobrist_hash(board)
            kings_captured += board.king(board.turn) is None
            board.pop()
    assert kings_captured >= 100  # king capture is exercised
