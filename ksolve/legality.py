"""What a problem's visible position breaks, whatever the hidden units: the
rule named in words, before any placement is enumerated.

Hidden units only add men on empty squares, so some rules can be decided on
the visible men alone: too many kings, pawns or men of a side (counting the
hidden units that must be placed), a pawn on the first or eighth rank,
castling rights without king and rook at home, an impossible en-passant
square, and (outside Fog of War) the side not to move in check where no
hidden unit could block the check, and (with ``reachable``) men that no game
reaches by the counts of ``ksolve.retro`` (promotions against missing pawns,
pawn captures against missing men, shut-in bishops).  A missing king is an
error only when no hidden unit can be that king.  What depends on the
placement is left to the enumeration.

>>> position_error(chess.Board("4k3/8/8/8/8/8/8/4K2K w - - 0 1"), [])
'two white kings (e1, h1): each side has exactly one king'
>>> from ksolve.hidden import parse_hidden_unit
>>> position_error(chess.Board("8/8/8/8/8/8/8/4K3 w - - 0 1"), [parse_hidden_unit("k:any")]) is None
True
"""

from __future__ import annotations

import chess

from ksolve.hidden import HiddenUnit
from ksolve.retro import unreachable_reason

_COLOR = {chess.WHITE: "white", chess.BLACK: "black"}
_NUMBER = {2: "two", 3: "three", 4: "four"}
_CASTLING = {chess.H1: "K", chess.A1: "Q", chess.H8: "k", chess.A8: "q"}


def position_error(board: chess.Board, hidden: list[HiddenUnit], fog: bool = False,
                   reachable: bool = True) -> str | None:
    """The first rule the visible ``board`` breaks whatever the ``hidden`` units
    (see the module doc), in words; None if none is certain.

    >>> position_error(chess.Board("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"), [])
    'a white pawn on a1: pawns never stand on the first or eighth rank'
    >>> position_error(chess.Board("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), [])
    'castling right K without the white king on e1 and a rook on h1'
    >>> position_error(chess.Board("4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1"), [])
    'no game reaches it: a second white queen (b1) needs a promotion, and no white pawn is missing'
    """
    for check in (_kings, _pawns, _men, _castling, _en_passant):
        reason = check(board, hidden)
        if reason:
            return reason
    if reachable:
        reason = unreachable_reason(board)
        if reason:
            return f"no game reaches it: {reason}"
    return None if fog else _opposite_check(board, hidden)


def _names(mask: int) -> str:
    return ", ".join(chess.square_name(square) for square in chess.scan_forward(mask))


def _certain(hidden: list[HiddenUnit], color: chess.Color) -> list[HiddenUnit]:
    """The units of ``color`` that must be placed."""
    return [unit for unit in hidden if unit.color == color and not unit.optional]


def _kings(board: chess.Board, hidden: list[HiddenUnit]) -> str | None:
    for color in chess.COLORS:
        kings = board.pieces_mask(chess.KING, color)
        count = chess.popcount(kings)
        if count > 1:
            return f"{_NUMBER.get(count, count)} {_COLOR[color]} kings ({_names(kings)}): each side has exactly one king"
        may_be_king = [unit for unit in hidden if unit.color == color and chess.KING in unit.pieces]
        if count == 0 and not may_be_king:
            unless = ", and no hidden unit can be one" if hidden else ""
            return f"no {_COLOR[color]} king{unless}: each side has exactly one king"
        for unit in _certain(hidden, color):
            if count == 1 and unit.pieces == (chess.KING,):
                return (f"hidden unit {unit.spec!r} is a second {_COLOR[color]} king (one stands on "
                        f"{_names(kings)}): each side has exactly one king")
    return None


def _pawns(board: chess.Board, hidden: list[HiddenUnit]) -> str | None:
    for color in chess.COLORS:
        pawns = board.pieces_mask(chess.PAWN, color)
        back = pawns & (chess.BB_RANK_1 | chess.BB_RANK_8)
        if back:
            return (f"a {_COLOR[color]} pawn on {_names(back)}: pawns never stand on the first or "
                    "eighth rank")
        count = chess.popcount(pawns) + sum(unit.pieces == (chess.PAWN,) for unit in _certain(hidden, color))
        if count > 8:
            return f"{count} {_COLOR[color]} pawns{_counted(hidden, color)}: a side has at most 8"
    return None


def _men(board: chess.Board, hidden: list[HiddenUnit]) -> str | None:
    for color in chess.COLORS:
        count = chess.popcount(board.occupied_co[color]) + len(_certain(hidden, color))
        if count > 16:
            return f"{count} {_COLOR[color]} men{_counted(hidden, color)}: a side has at most 16"
    return None


def _counted(hidden: list[HiddenUnit], color: chess.Color) -> str:
    return " (hidden units included)" if _certain(hidden, color) else ""


def _castling(board: chess.Board, hidden: list[HiddenUnit]) -> str | None:
    bad = board.castling_rights & ~board.clean_castling_rights()
    for square in chess.scan_forward(bad):
        color = chess.square_rank(square) == 0
        king = "e1" if color else "e8"
        right = _CASTLING.get(square, chess.square_name(square))
        return (f"castling right {right} without the {_COLOR[color]} king on {king} and a rook on "
                f"{chess.square_name(square)}")
    return None


def _en_passant(board: chess.Board, hidden: list[HiddenUnit]) -> str | None:
    square = board.ep_square
    if square is None:
        return None
    name = chess.square_name(square)
    if chess.square_rank(square) != 5:
        return f"en-passant square {name}: with White to move it is on the sixth rank"
    file = chess.square_file(square)
    pawn, start = chess.square(file, 4), chess.square(file, 6)
    if board.piece_at(pawn) == chess.Piece(chess.PAWN, chess.BLACK) and not board.occupied & (
            chess.BB_SQUARES[square] | chess.BB_SQUARES[start]):
        return None
    return (f"en-passant square {name}: impossible unless a black pawn stands on {chess.square_name(pawn)} "
            f"with {name} and {chess.square_name(start)} empty (it has just come from there)")


def _opposite_check(board: chess.Board, hidden: list[HiddenUnit]) -> str | None:
    """The side not to move in check, where no hidden unit can stand between."""
    them = not board.turn
    king = board.king(them)
    if king is None:
        return None
    squares = 0
    for unit in hidden:
        squares |= unit.squares & ~board.occupied
    for checker in chess.scan_forward(board.attackers_mask(board.turn, king)):
        if not chess.between(king, checker) & squares:
            piece = chess.piece_name(board.piece_type_at(checker))
            blocked = " (and no hidden unit can stand between)" if hidden else ""
            return (f"{_COLOR[them].capitalize()}, not to move, is in check from the {piece} on "
                    f"{chess.square_name(checker)}{blocked}: the side that has just moved cannot be in check")
    if not hidden:
        checkers = board.checkers_mask()
        if chess.popcount(checkers) > 2:
            return f"{_COLOR[board.turn].capitalize()} is in check from {_names(checkers)}: at most two men give check"
    return None
