"""Fog of War (dark chess) as a rule set: no referee, the board shows what you see.

White sees his own men, every square one of them could move to (Fog-of-War
moves: pawns see the empty squares ahead they can advance to and diagonal
squares holding an enemy man they could capture), any enemy man on such a
square, and the passed pawn when he may capture it en passant.  There is no
check: the game is won by capturing the king.  A capture of one of White's
men shows as the square where it was taken (the marked square when he no
longer sees it).  Stalemate (no move at all) and the 50-move rule draw;
threefold repetition needs the game's history and is left to the game level.

An observation key row is: the code (capture square, game end), the visible
squares, Black's men on them (six bitboards), White's men (six bitboards) and
White's castling rights.

>>> import numpy as np
>>> from ksolve.board import position_from_fen
>>> key = FOG_OF_WAR.turn_info(position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))
>>> bin(int(key[0, 1])).count("1")  # ranks 1-4 are visible at the start
32
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess
import numpy as np
from numba import njit

from ksolve.board.attacks import color_occupancy
from ksolve.board.batch import expand
from ksolve.board.layout import (
    COLUMN_BLACK, COLUMN_CASTLING, COLUMN_EP, COLUMN_HALFMOVE, COLUMN_TURN, KING, MAX_MOVES,
    NO_SQUARE,
)
from ksolve.board.makemove import make_move
from ksolve.board.movegen import fog_moves
from ksolve.board.tables import SQUARE_BB
from ksolve.rules import codes
from ksolve.rules.base import Outcomes, RuleSet

KEY_WIDTH = 15
FIFTY_MOVE_HALFMOVES = 100
WHITE_CASTLING = np.uint64(3)


@njit(cache=True)
def visible_squares(position, color, buffer):
    """The squares ``color`` sees in ``position`` (whoever is to move)."""
    row = position.copy()
    if np.int64(position[COLUMN_TURN]) != color:
        row[COLUMN_TURN] = color
        row[COLUMN_EP] = NO_SQUARE  # an en-passant right belongs to the side to move only
    seen = color_occupancy(position, color)
    n = fog_moves(row, buffer)
    for i in range(n):
        seen |= SQUARE_BB[(buffer[i] >> 6) & 63]
    ep = np.int64(row[COLUMN_EP])
    if ep != NO_SQUARE:
        seen |= SQUARE_BB[ep - 8 if color == 0 else ep + 8]
    return seen


@njit(cache=True)
def _end_code(position, buffer):
    if position[KING] == 0 or position[COLUMN_BLACK + KING] == 0:
        return codes.END_KING_CAPTURED << codes.END_SHIFT
    if fog_moves(position, buffer) == 0:
        return codes.END_STALEMATE << codes.END_SHIFT
    if np.int64(position[COLUMN_HALFMOVE]) >= FIFTY_MOVE_HALFMOVES:
        return codes.END_MOVE_LIMIT << codes.END_SHIFT
    return 0


@njit(cache=True)
def _capture_code(parent, move):
    us = np.int64(parent[COLUMN_TURN])
    their_base = (1 - us) * COLUMN_BLACK
    from_square = move & 63
    to_square = (move >> 6) & 63
    for piece in range(6):
        if parent[their_base + piece] & SQUARE_BB[to_square]:
            return to_square + 1
    if parent[us * COLUMN_BLACK] & SQUARE_BB[from_square] and from_square % 8 != to_square % 8:
        return (to_square - 8 if us == 0 else to_square + 8) + 1  # en passant
    return 0


@njit(cache=True)
def _write_key(position, code, key, buffer):
    """White's view of ``position`` into the key row ``key``."""
    seen = visible_squares(position, 0, buffer)
    key[0] = code
    key[1] = seen
    for piece in range(6):
        key[2 + piece] = position[COLUMN_BLACK + piece] & seen
        key[8 + piece] = position[piece]
    key[14] = position[COLUMN_CASTLING] & WHITE_CASTLING


@njit(cache=True)
def fog_attempt(positions, move):
    n = positions.shape[0]
    keys = np.zeros((n, KEY_WIDTH), dtype=np.uint64)
    children = positions.copy()
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(n):
        game_over = positions[i, KING] == 0 or positions[i, COLUMN_BLACK + KING] == 0
        count = 0 if game_over else fog_moves(positions[i], buffer)
        legal = False
        for j in range(count):
            legal = legal or buffer[j] == move
        if not legal:
            keys[i, 0] = codes.ILLEGAL
            continue
        make_move(positions[i], move, children[i])
        code = _capture_code(positions[i], move) | _end_code(children[i], buffer)
        _write_key(children[i], code, keys[i], buffer)
    return keys, children


@njit(cache=True)
def fog_replies(positions):
    children, parents, moves = expand(positions, True)
    keys = np.zeros((children.shape[0], KEY_WIDTH), dtype=np.uint64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(children.shape[0]):
        code = _capture_code(positions[parents[i]], moves[i]) | _end_code(children[i], buffer)
        _write_key(children[i], code, keys[i], buffer)
    return children, parents, keys


@njit(cache=True)
def fog_turn_info(positions):
    keys = np.zeros((positions.shape[0], KEY_WIDTH), dtype=np.uint64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(positions.shape[0]):
        _write_key(positions[i], 0, keys[i], buffer)
    return keys


def sight_words(key: np.ndarray) -> str:
    """The black men White sees, as problemists write them ("sees Kg4, Ph7";
    "sees no black man"): what tells one Fog-of-War observation from another
    in a solution.

    >>> key = np.zeros(KEY_WIDTH, dtype=np.uint64)
    >>> key[2 + 5], key[2] = 1 << chess.G4, 1 << chess.H7
    >>> sight_words(key)
    'sees Kg4, Ph7'
    """
    men = sorted((square, piece) for piece in range(6) for square in chess.scan_forward(int(key[2 + piece])))
    if not men:
        return "sees no black man"
    return "sees " + ", ".join(f"{chess.piece_symbol(piece + 1).upper()}{chess.square_name(square)}"
                               for square, piece in sorted(men, key=lambda m: (-m[1], m[0])))


@dataclass(frozen=True, repr=False)
class FogOfWarRules(RuleSet):
    """Fog of War: what White sees after each ply."""

    name: str = "fog-of-war"
    title: str = "Fog of War (dark chess)"
    fog: bool = True
    move_limit: int = FIFTY_MOVE_HALFMOVES

    def attempt(self, positions: np.ndarray, move: int) -> Outcomes:
        keys, children = fog_attempt(positions, move)
        return Outcomes(keys, children)

    def replies(self, positions: np.ndarray) -> Outcomes:
        children, parents, keys = fog_replies(positions)
        return Outcomes(keys, children, parents)

    def turn_info(self, positions: np.ndarray) -> np.ndarray:
        return fog_turn_info(np.atleast_2d(positions))

    def describe(self, key: np.ndarray) -> str:
        code = int(key[0])
        if code == codes.ILLEGAL:
            return "Impossible"
        parts = []
        square = codes.capture_square(code)
        if square is not None:
            parts.append(f"Capture at {chess.square_name(square)}")
        end = codes.end_of(code)
        if end:
            parts.append({codes.END_KING_CAPTURED: "king captured", codes.END_STALEMATE: "stalemate",
                          codes.END_MOVE_LIMIT: "draw (50 moves)"}[end])
        parts.append(sight_words(key))
        text = ", ".join(parts)
        return text[0].upper() + text[1:]

    def view_squares(self, key: np.ndarray) -> int | None:
        return int(key[1])

    def observation_json(self, key: np.ndarray) -> dict[str, Any]:
        """The announcement (capture square, end) and White's view: the visible
        squares, Black's men on them, White's men and castling rights."""
        black, white = {}, {}
        for piece in range(6):
            for square in chess.scan_forward(int(key[2 + piece])):
                black[chess.square_name(square)] = chess.piece_symbol(piece + 1)
            for square in chess.scan_forward(int(key[8 + piece])):
                white[chess.square_name(square)] = chess.piece_symbol(piece + 1).upper()
        rights = int(key[14])
        return {**codes.announcement_json(int(key[0])),
                "visible": [chess.square_name(s) for s in chess.scan_forward(int(key[1]))], "black": black,
                "white": white, "castling": ("K" if rights & 1 else "") + ("Q" if rights & 2 else "")}


FOG_OF_WAR = FogOfWarRules()
RULE_SETS = {FOG_OF_WAR.name: FOG_OF_WAR}
