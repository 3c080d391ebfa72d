"""Hidden units: black (or white) men whose squares White does not know, and
the enumeration of every legal placement of them into a visible position.

A unit is written ``PIECES:SQUARES``: ``PIECES`` is a piece letter (lower
case black, upper case white), or alternatives such as ``q|r|b|n``, with a
``?`` for an optional unit (present or not); ``SQUARES`` is ``dark``,
``light``, ``any``, a file (``a-file``), a rank (``rank-3``) or a comma list
of squares (``e2,e5,e6``); several sets can be joined with ``+``.

>>> unit = parse_hidden_unit("b:dark")
>>> unit.pieces, unit.color, bin(unit.squares).count("1")
((3,), False, 32)
>>> parse_hidden_unit("p?:a-file").optional
True
>>> parse_hidden_unit("x:e4")
Traceback (most recent call last):
...
ksolve.hidden.HiddenUnitError: hidden unit 'x:e4': unknown piece 'x' (use one of p n b r q k, upper case for White)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import chess
import numpy as np

from numba import njit

from ksolve.board.layout import COLUMN_BLACK, COLUMN_HASH
from ksolve.board.tables import SQUARE_BB
from ksolve.board.validity import is_legal_position
from ksolve.board.zobrist import position_hash

MAX_PLACEMENTS = 20_000_000
"""The largest initial belief ksolve builds (about 3 GB of positions)."""


class HiddenUnitError(ValueError):
    """A hidden-unit specification that cannot be read, or that no position satisfies."""


@dataclass(frozen=True)
class HiddenUnit:
    """One hidden man: its possible piece types, colour and squares."""

    pieces: tuple[int, ...]
    """python-chess piece types (alternatives)."""
    color: bool
    squares: int
    """Bitboard of the squares it may stand on."""
    optional: bool = False
    spec: str = ""

    def describe(self) -> str:
        """A short description, e.g. ``black bishop on 32 squares``.

        >>> parse_hidden_unit("q|r:e1").describe()
        'black queen or rook on e1'
        """
        color = "white" if self.color else "black"
        names = " or ".join(chess.piece_name(p) for p in self.pieces)
        count = chess.popcount(self.squares)
        where = chess.square_name(chess.lsb(self.squares)) if count == 1 else f"{count} squares"
        return f"{'optional ' if self.optional else ''}{color} {names} on {where}"


def parse_squares(text: str) -> int:
    """The bitboard of a square-set expression (see the module docstring).

    >>> chess.SquareSet(parse_squares("rank-8+h1"))
    SquareSet(0xff00_0000_0000_0080)
    """
    mask = 0
    for part in text.split("+"):
        part = part.strip().lower()
        if part == "dark":
            mask |= chess.BB_DARK_SQUARES
        elif part == "light":
            mask |= chess.BB_LIGHT_SQUARES
        elif part == "any":
            mask |= chess.BB_ALL
        elif part.endswith("-file") and len(part) == 6 and part[0] in chess.FILE_NAMES:
            mask |= chess.BB_FILES[chess.FILE_NAMES.index(part[0])]
        elif part.startswith("rank-") and part[5:] in chess.RANK_NAMES:
            mask |= chess.BB_RANKS[chess.RANK_NAMES.index(part[5:])]
        else:
            for name in part.split(","):
                name = name.strip()
                if name not in chess.SQUARE_NAMES:
                    raise HiddenUnitError(f"unknown square or square set {name!r} "
                                          "(use dark, light, any, a-file, rank-3 or squares like e4)")
                mask |= chess.BB_SQUARES[chess.SQUARE_NAMES.index(name)]
    return mask


def parse_hidden_unit(spec: str) -> HiddenUnit:
    """Read one ``PIECES:SQUARES`` unit."""
    if ":" not in spec:
        raise HiddenUnitError(f"hidden unit {spec!r}: expected PIECES:SQUARES, e.g. b:dark")
    pieces_text, squares_text = spec.split(":", 1)
    optional = pieces_text.endswith("?")
    pieces_text = pieces_text.rstrip("?")
    letters = [p.strip() for p in pieces_text.split("|")]
    colors = {letter.isupper() for letter in letters}
    pieces = []
    for letter in letters:
        if len(letter) != 1 or letter.lower() not in "pnbrqk":
            raise HiddenUnitError(f"hidden unit {spec!r}: unknown piece {letter!r} "
                                  "(use one of p n b r q k, upper case for White)")
        pieces.append(chess.PIECE_SYMBOLS.index(letter.lower()))
    if len(colors) != 1:
        raise HiddenUnitError(f"hidden unit {spec!r}: alternatives must be of one colour")
    try:
        squares = parse_squares(squares_text)
    except HiddenUnitError as error:
        raise HiddenUnitError(f"hidden unit {spec!r}: {error}") from None
    return HiddenUnit(tuple(pieces), colors.pop(), squares, optional, spec)


def enumerate_placements(board: chess.Board, units: list[HiddenUnit],
                         limit: int = MAX_PLACEMENTS, fog: bool = False) -> np.ndarray:
    """Every legal position made by placing ``units`` on empty allowed squares
    of ``board``: position rows, duplicates removed, sorted by hash.

    Raises ``HiddenUnitError`` when the belief would be empty (naming why) or
    larger than ``limit``.  With ``fog`` (Fog of War) a king may stand attacked.
    """
    from ksolve.board.convert import position_from_board

    base = position_from_board(board, validate=False)
    empty = ~int(board.occupied) & chess.BB_ALL
    choices = []
    for unit in units:
        squares = unit.squares & empty
        if unit.pieces == (chess.PAWN,):
            squares &= ~(chess.BB_RANK_1 | chess.BB_RANK_8)
        options = [(piece, square) for piece in unit.pieces for square in chess.scan_forward(squares)]
        if unit.optional:
            options.append((0, -1))
        if not options:
            raise HiddenUnitError(f"hidden unit {unit.spec!r}: none of its squares is empty on the board")
        choices.append(options)
    total = 1
    for options in choices:
        total *= len(options)
    if total > limit:
        raise HiddenUnitError(f"the hidden units allow up to {total:,} placements, more than the "
                              f"limit of {limit:,} positions this machine can hold")
    table = np.array(list(itertools.product(*choices)) if choices else [[]], dtype=np.int64)
    table = table.reshape(len(table), len(units), 2)
    colors = np.array([COLUMN_BLACK * (not unit.color) for unit in units], dtype=np.int64)
    rows = legal_placements(base, table, colors, not fog)
    if rows.shape[0] == 0:
        raise HiddenUnitError("no legal position: every placement of the hidden units puts two men "
                              "on one square or gives an illegal position (king count, check on the "
                              "side not to move, pawns on the first or last rank)")
    _, unique = np.unique(rows[:, COLUMN_HASH], return_index=True)
    return rows[unique]



@njit(cache=True)
def legal_placements(base, table, columns, check_rules):
    """Rows of ``base`` with each placement of ``table`` applied, legal ones only.

    ``table[p, u] = (piece index + 1 or 0 for an absent optional unit, square)``;
    ``columns[u]`` is the first piece column of unit ``u``'s colour.
    """
    n, units = table.shape[0], table.shape[1]
    rows = np.empty((n, base.shape[0]), dtype=np.uint64)
    kept = 0
    for p in range(n):
        row = rows[kept]
        row[:] = base
        placed = np.uint64(0)
        for piece in range(12):
            placed |= base[piece]
        clash = False
        for u in range(units):
            piece, square = table[p, u, 0], table[p, u, 1]
            if square < 0:
                continue
            if placed & SQUARE_BB[square]:
                clash = True
                break
            placed |= SQUARE_BB[square]
            row[columns[u] + piece - 1] |= SQUARE_BB[square]
        if clash or not is_legal_position(row, check_rules):
            continue
        row[COLUMN_HASH] = position_hash(row)
        kept += 1
    return rows[:kept].copy()
