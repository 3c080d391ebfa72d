"""The material of a composing search, and random legal placements of it.

``"KRBN+P v KP"``: White's men before ``v``, Black's visible men after it
(``+`` only groups, as composers write it); the hidden units (``b:dark``)
come on top, placed by the problem's belief.

>>> material = parse_material("KRBN+P v KP")
>>> material.describe()
'KRBNP v KP'
>>> fen = random_placement(material, random.Random(3))
>>> chess.Board(fen).is_valid(), fen.split()[1]
(True, 'w')
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

from ksolve.errors import InputError
from ksolve.games.generate import mating_kings
from ksolve.retro import unreachable_reason


@dataclass(frozen=True)
class Material:
    """Piece types of each side's visible men (one king each)."""

    white: tuple[int, ...]
    black: tuple[int, ...]

    def describe(self) -> str:
        return (f"{''.join(chess.piece_symbol(p).upper() for p in self.white)} v "
                f"{''.join(chess.piece_symbol(p).upper() for p in self.black)}")

    @property
    def men(self) -> int:
        return len(self.white) + len(self.black)


def parse_material(text: str) -> Material:
    """``"KQ v K"``; ``InputError`` naming ``--material`` otherwise.

    >>> parse_material("KX v K")
    Traceback (most recent call last):
    ...
    ksolve.errors.InputError: --material: 'KX v K': unknown man 'X' (use K Q R B N P)
    """
    parts = text.replace("+", "").replace("vs", "v").split(" v ")
    if len(parts) != 2:
        raise InputError(f"--material: {text!r}: write White's men, ' v ', Black's (e.g. 'KRBN+P v KP')")
    sides = []
    for part in parts:
        men = []
        for letter in part.strip().upper():
            if letter not in "KQRBNP":
                raise InputError(f"--material: {text!r}: unknown man {letter!r} (use K Q R B N P)")
            men.append(chess.PIECE_SYMBOLS.index(letter.lower()))
        if men.count(chess.KING) != 1:
            raise InputError(f"--material: {text!r}: each side has exactly one king (K)")
        promoted = _promoted(men)
        if promoted > 8 - men.count(chess.PAWN):
            missing = 8 - men.count(chess.PAWN)
            raise InputError(f"--material: {text!r}: no game reaches it: {promoted} promotion{'s' * (promoted > 1)} "
                             f"needed (men beyond one queen, two rooks, two knights and two bishops), and "
                             f"{'no' if missing == 0 else f'only {missing}'} pawn{'s' * (missing != 1)} missing")
        sides.append(tuple(sorted(men, reverse=True)))
    return Material(*sides)


def _promoted(men: list[int]) -> int:
    """The fewest of ``men`` a promotion explains, whatever their squares (bishops on both colours).

    >>> _promoted([chess.QUEEN, chess.QUEEN, chess.BISHOP, chess.BISHOP, chess.BISHOP])
    2
    """
    return sum(max(0, men.count(piece) - first)
               for piece, first in ((chess.QUEEN, 1), (chess.ROOK, 2), (chess.KNIGHT, 2), (chess.BISHOP, 2)))


def random_placement(material: Material, rng: random.Random, tries: int = 1000) -> str:
    """A legal position of ``material`` that some game reaches (``ksolve.retro``), White
    to move and not yet mated or stalemated, the black king usually on the edge and the
    white king near it (where mates are)."""
    for _ in range(tries):
        board = chess.Board(None)
        kings = mating_kings(rng)
        if kings is None:
            continue
        white_king, black_king = kings
        board.set_piece_at(black_king, chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(white_king, chess.Piece(chess.KING, chess.WHITE))
        men = [(p, chess.WHITE) for p in material.white if p != chess.KING]
        men += [(p, chess.BLACK) for p in material.black if p != chess.KING]
        for piece_type, color in men:
            free = [s for s in chess.SQUARES if board.piece_at(s) is None
                    and not (piece_type == chess.PAWN and chess.square_rank(s) in (0, 7))]
            board.set_piece_at(rng.choice(free), chess.Piece(piece_type, color))
        if board.is_valid() and not board.is_game_over() and not board.is_check() \
                and unreachable_reason(board) is None:
            return board.fen()
    raise InputError(f"--material: {material.describe()}: no legal placement found")
