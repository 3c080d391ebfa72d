"""Perft: ksolve's leaf counts equal python-chess's on the standard suite, and
the Fog-of-War generator's equal an independent python-chess reference."""

from __future__ import annotations

import chess
import pytest

from ksolve.board import perft, position_from_fen
from positions import PERFT_SUITE, SPECIAL_STARTS
from reference import chess_perft, fog_perft

# Depths required by the foundation issue: start 5, Kiwipete 4, positions 3-6 at least 4.
PERFT_DEPTHS = {"start": 5, "kiwipete": 4, "position3": 5, "position4": 4, "position5": 4, "position6": 4}


@pytest.mark.parametrize("name", sorted(PERFT_DEPTHS))
def test_perft_equals_python_chess(name: str) -> None:
    fen = PERFT_SUITE[name]
    depth = PERFT_DEPTHS[name]
    expected = chess_perft(chess.Board(fen), depth)
    position = position_from_fen(fen)
    assert perft(position, depth) == expected
    assert perft(position, depth, False, True) == expected  # bulk counting agrees


@pytest.mark.parametrize("fen", SPECIAL_STARTS)
def test_perft_on_special_positions(fen: str) -> None:
    assert perft(position_from_fen(fen), 4) == chess_perft(chess.Board(fen), 4)


FOG_CASES = [
    (PERFT_SUITE["start"], 4),
    (PERFT_SUITE["kiwipete"], 3),
    (PERFT_SUITE["position3"], 4),
    (PERFT_SUITE["position4"], 3),
    ("r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1", 3),   # castling out of and through check
    ("4k3/8/8/8/8/8/8/r3K2R w K - 0 1", 4),          # king capturable at once
]


@pytest.mark.parametrize("fen,depth", FOG_CASES)
def test_fog_perft_equals_reference(fen: str, depth: int) -> None:
    position = position_from_fen(fen, fog=True)
    expected = fog_perft(chess.Board(fen), depth)
    assert perft(position, depth, True) == expected
    assert perft(position, depth, True, True) == expected


def test_fog_and_orthodox_differ_where_they_must() -> None:
    """Castling through an attacked square is legal only in Fog of War."""
    fen = "r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1"
    assert perft(position_from_fen(fen), 1) < perft(position_from_fen(fen, fog=True), 1, True)
