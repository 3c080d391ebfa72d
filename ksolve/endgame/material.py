"""Endgame materials: White's men against a lone black king.

A material is written as in the endgame literature, White's men then
Black's: ``KQK``, ``KRK``, ``KBBK``, ``KBNK``, ``KRRK``.  Black has the king
alone; White has the king and at most two more men, pawns among them
(``KPK``, ``KQPK``).  Pawnless material has the board's eight
symmetries; a pawn leaves only the mirror of the files, and its promotions
lead to the materials it may become (``KPK`` also holds ``KQK``, ``KRK``,
``KBK`` and ``KNK``).

A *placement* is where White's men stand, as a tuple of squares in the
material's order (the king first); two men of one kind (``KRRK``'s rooks)
stand in increasing square order, so that each placement is written once.

>>> material = parse_material("krrk")
>>> material.name, material.white, material.men
('KRRK', 'KRR', 3)
>>> material.without(1).name
'KRK'
>>> kpk = parse_material("kpk")
>>> kpk.symmetries, [material.name for material in kpk.promotions(1)]
(2, ['KQK', 'KRK', 'KBK', 'KNK'])
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

PIECE_ORDER = "KQRBNP"
"""White's men in the order a material names them (the king first)."""
MAX_PIECES = 2
"""White's men besides the king (tables of three White men and the black king
hold some 250,000 placements; one more man would make them 64 times larger)."""
PROMOTIONS = "QRBN"
"""What a pawn may become, in the material order."""


class MaterialError(ValueError):
    """A material the endgame tables cannot take, with the reason."""


@dataclass(frozen=True)
class Material:
    """White's men against a lone black king."""

    white: str
    """White's men as letters, the king first, e.g. ``"KBN"``."""

    @property
    def name(self) -> str:
        return self.white + "K"

    @property
    def men(self) -> int:
        """White's men, the king included."""
        return len(self.white)

    @property
    def symmetries(self) -> int:
        """The board's symmetries the material keeps (``ksolve.endgame.symmetry``'s first
        ones): all eight without a pawn, the identity and the mirror of the files with pawns."""
        return 2 if "P" in self.white else 8

    def promotions(self, index: int) -> list[Material]:
        """The materials the pawn ``index`` leaves by promoting (queen, rook, bishop, knight)."""
        if self.white[index] != "P":
            raise ValueError("only a pawn promotes")
        rest = self.white[1:index] + self.white[index + 1:]
        return [Material("K" + "".join(sorted(rest + piece, key=PIECE_ORDER.index))) for piece in PROMOTIONS]

    def piece_types(self) -> tuple[int, ...]:
        """python-chess piece types of White's men, in order."""
        return tuple(chess.Piece.from_symbol(letter).piece_type for letter in self.white)

    def same_kind(self, index: int) -> bool:
        """Whether man ``index`` is of the same kind as the one before it
        (the two then stand in increasing square order)."""
        return index > 0 and self.white[index] == self.white[index - 1]

    def without(self, index: int) -> Material:
        """The material left when man ``index`` (not the king) is captured."""
        if index == 0:
            raise ValueError("the king is never captured")
        return Material(self.white[:index] + self.white[index + 1:])

    def fen(self, squares: tuple[int, ...]) -> str:
        """The board of a placement (no black man), White to move, as FEN.

        >>> parse_material("KQK").fen((chess.A1, chess.H1))
        '8/8/8/8/8/8/8/K6Q w - - 0 1'
        """
        board = chess.Board(None)
        for letter, square in zip(self.white, squares):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        return board.fen()

    def describe(self, squares: tuple[int, ...]) -> str:
        """A placement in words, e.g. ``Ka1 Qh1``."""
        return " ".join(f"{letter}{chess.square_name(square)}" for letter, square in zip(self.white, squares))


def parse_material(text: str) -> Material:
    """The material written ``text`` (case does not matter); ``MaterialError`` saying
    what is wrong otherwise."""
    name = text.strip().upper()
    second = name.find("K", 1)
    if not name.startswith("K") or second < 0:
        raise MaterialError(f"material {text!r}: write White's men then Black's, each side's king first, "
                            "e.g. KQK or KBNK")
    white, black = name[:second], name[second:]
    if black != "K":
        raise MaterialError(f"material {text!r}: Black must have the king alone (the tables are of a lone king)")
    if white[1:].strip("QRBNP"):
        raise MaterialError(f"material {text!r}: White has the king and queens, rooks, bishops, knights or "
                            "pawns (e.g. KQK, KRRK, KBNK, KPK)")
    if len(white) - 1 > MAX_PIECES:
        raise MaterialError(f"material {text!r}: at most {MAX_PIECES} White men besides the king")
    if len(white) == 1:
        raise MaterialError(f"material {text!r}: White needs a man besides the king")
    ordered = "K" + "".join(sorted(white[1:], key=PIECE_ORDER.index))
    return Material(ordered)
