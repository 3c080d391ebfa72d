"""Conversions between position rows and python-chess, and their errors."""

from __future__ import annotations

import chess
import chess.polyglot
import numpy as np
import pytest

from ksolve.board import (
    PositionError, move_from_uci, move_to_chess, move_to_uci, position_from_board,
    position_from_fen, position_to_board, position_to_fen, positions_from_fens,
)
from ksolve.board.layout import COLUMN_EP, COLUMN_HASH, NO_SQUARE, POSITION_WIDTH
from positions import random_placements


@pytest.mark.parametrize("fen,reason", [
    ("8/8/8/8/8/8/8/K7 w - - 0 1", "no black king"),
    ("k7/8/8/8/8/8/8/K6P w - - 0 1", "a pawn on the first or last rank"),
    ("k7/8/8/8/8/8/8/RK6 w - - 0 1", "the side not to move is in check"),
    ("kk6/8/8/8/8/8/8/K7 w - - 0 1", "more than one king of a colour"),
    ("k7/8/8/8/8/8/8/K7 w K - 0 1", "castling rights without king and rook on their squares"),
    ("k7/8/8/8/8/8/8/K7 w - e6 0 1", "impossible en-passant square"),
])
def test_illegal_positions_name_the_reason(fen: str, reason: str) -> None:
    with pytest.raises(PositionError, match=reason):
        position_from_fen(fen)


@pytest.mark.parametrize("fen", ["", "not a fen", "8/8/8 w - - 0 1", "k7/8/8/8/8/8/8/K7 x - - 0 1"])
def test_unparsable_fen_is_reported(fen: str) -> None:
    with pytest.raises(PositionError, match="invalid FEN"):
        position_from_fen(fen)


def test_fog_waives_only_the_check_rules() -> None:
    in_check_off_turn = "k7/8/8/8/8/8/8/RK6 w - - 0 1"
    assert position_from_fen(in_check_off_turn, fog=True).shape == (POSITION_WIDTH,)
    with pytest.raises(PositionError, match="first or last rank"):
        position_from_fen("k7/8/8/8/8/8/8/K6P w - - 0 1", fog=True)


def test_round_trip_keeps_every_field() -> None:
    for board in random_placements(500, seed=3):
        row = position_from_board(board)
        assert position_to_fen(row) == board.fen()
        assert int(row[COLUMN_HASH]) == chess.polyglot.zobrist_hash(board)
        assert position_to_board(row) == board or not board.ep_square


def test_en_passant_kept_only_when_a_pawn_can_capture() -> None:
    """The Polyglot convention: an ep square nobody can use is dropped, so
    positions that differ only there are one position."""
    board = chess.Board()
    board.push_uci("e2e4")  # no black pawn next to e4
    assert board.ep_square == chess.E3
    assert int(position_from_board(board)[COLUMN_EP]) == NO_SQUARE
    ready = chess.Board("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    ready.push_uci("e2e4")
    assert int(position_from_board(ready)[COLUMN_EP]) == chess.E3


def test_positions_from_fens_stacks_rows() -> None:
    rows = positions_from_fens([chess.STARTING_FEN, "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"])
    assert rows.shape == (2, POSITION_WIDTH) and rows.dtype == np.uint64
    assert positions_from_fens([]).shape == (0, POSITION_WIDTH)


def test_chess960_castling_is_refused() -> None:
    board = chess.Board("1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1", chess960=True)
    with pytest.raises(PositionError, match="Chess960"):
        position_from_board(board, validate=False)


@pytest.mark.parametrize("uci", ["e2e4", "e1g1", "a7a8q", "h2h1n", "b7c8r", "g2g1b"])
def test_uci_round_trip(uci: str) -> None:
    move = move_from_uci(uci)
    assert move_to_uci(move) == uci
    assert move_to_chess(move) == chess.Move.from_uci(uci)


@pytest.mark.parametrize("uci", ["e2", "z9z9", "0000", "P@e4"])
def test_bad_uci_is_reported(uci: str) -> None:
    with pytest.raises(ValueError, match="invalid UCI move"):
        move_from_uci(uci)
