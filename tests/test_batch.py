"""The batch entry points: children of many positions in one call."""

from __future__ import annotations

import chess
import numpy as np

from ksolve.board import count_moves, expand, move_to_chess, positions_from_fens
from positions import PERFT_SUITE


def test_expand_groups_children_by_parent_in_order() -> None:
    fens = list(PERFT_SUITE.values())
    positions = positions_from_fens(fens)
    children, parents, moves = expand(positions)
    counts = count_moves(positions)
    assert list(counts) == [chess.Board(f).legal_moves.count() for f in fens]
    assert children.shape[0] == parents.shape[0] == moves.shape[0] == counts.sum()
    assert np.all(np.diff(parents) >= 0)
    assert list(np.bincount(parents, minlength=len(fens))) == list(counts)
    for parent, move in zip(parents, moves):
        assert chess.Board(fens[parent]).is_legal(move_to_chess(move))


def test_expand_of_terminal_positions_is_empty() -> None:
    mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    children, parents, moves = expand(positions_from_fens([mate, stalemate]))
    assert children.shape[0] == 0 and parents.shape[0] == 0 and moves.shape[0] == 0


def test_fog_expansion_stops_after_king_capture() -> None:
    king_gone = positions_from_fens(["8/8/8/8/8/8/8/R3K3 b - - 0 1"], validate=False)
    assert count_moves(king_gone, True)[0] == 0
