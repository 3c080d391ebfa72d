"""Moves a problem file names, checked against its position before any
placement is enumerated: a published key must be a move of White's men on
his own board, and a ``[[condition]]`` move one that some black man could
play at that reply.

A condition's move is checked by reach on an empty board, which can only
over-estimate where Black's men can be: the squares each black man (a
visible one, or a hidden unit on any of its squares, as any of its piece
types) can stand on after the replies before, each reply moving one man
along the lines, jumps and steps of its kind (a pawn that reaches the first
rank as any piece).  So a condition is refused only when no black man could
ever make that move then: a move of White's men, a move no piece makes
(``h8a1`` where no black bishop or queen can stand on h8), a promotion
without a pawn.

>>> board = chess.Board("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1")
>>> condition_move_error([board], [], "a2a8", None, 3)  # the pawn promotes on g1 at the earliest
'no black man can play a2a8 at any of his replies 1 to 2: none can stand on a2 and move like that by then'
>>> condition_move_error([board], [], "a2a8", None, 5) is None  # 1...hxg1=Q 2...Qg2 3...Qxa2 4...Qa8
True
>>> condition_move_error([board], [], "h8a1", 1, 8)  # no black bishop or queen
'no black man can play h8a1 at his reply 1: none can stand on h8 and move like that by then'
>>> key_error([board], [], "h1h2")
"h1h2 is not a move of White's men on his own board"
"""

from __future__ import annotations

import chess

from ksolve.hidden import HiddenUnit

_PROMOTED = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def key_error(boards: list[chess.Board], hidden: list[HiddenUnit], uci: str) -> str | None:
    """Why ``uci`` cannot be White's first attempt in any of ``boards`` (White's
    men only, pawn diagonals included: they may capture a hidden man), or None.
    A move from a square a hidden white unit may stand on is not judged.

    >>> key_error([chess.Board("8/8/8/8/8/8/4P3/4K2k w - - 0 1")], [], "e2d3") is None
    True
    """
    from ksolve.rules.notation import attempt_san, own_board

    try:
        move = chess.Move.from_uci(uci)
    except ValueError:
        return f"{uci!r} is not a move (UCI such as 'a2g2')"
    white_hidden = 0
    for unit in hidden:
        if unit.color == chess.WHITE:
            white_hidden |= unit.squares
    if white_hidden & chess.BB_SQUARES[move.from_square]:
        return None
    for board in boards:
        try:
            attempt_san(own_board(board), uci)
            return None
        except ValueError:
            continue
    return f"{uci} is not a move of White's men on his own board"


def condition_move_error(boards: list[chess.Board], hidden: list[HiddenUnit], uci: str, at: int | None,
                         moves: int) -> str | None:
    """Why no black man of ``boards`` (the visible men; each listed position)
    and ``hidden`` can play ``uci`` at his reply ``at`` (None: any reply of a
    #``moves``), or None (see the module doc).

    >>> board = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    >>> condition_move_error([board], [], "a1a4", 1, 3)
    'no black man can play a1a4 at his reply 1: none can stand on a1 and move like that by then'
    >>> from ksolve.hidden import parse_hidden_unit
    >>> condition_move_error([board], [parse_hidden_unit("q:any")], "a1a4", 2, 3) is None  # Qxa1, then Qa4
    True
    """
    try:
        move = chess.Move.from_uci(uci)
    except ValueError:
        return f"{uci!r} is not a move (UCI such as 'c8b7')"
    last = at if at is not None else max(1, moves - 1)
    when = f"at his reply {last}" if at is not None or last == 1 else f"at any of his replies 1 to {last}"
    reach = set().union(*(_reach(board, hidden, last - 1) for board in boards))
    if not any(_moves_like(piece, move) for piece, square in reach if square == move.from_square):
        return (f"no black man can play {uci} {when}: none can stand on {chess.square_name(move.from_square)} "
                "and move like that by then")
    return None


def _reach(board: chess.Board, hidden: list[HiddenUnit], replies: int) -> set[tuple[int, int]]:
    """(piece type, square) a black man may hold after ``replies`` replies, on an empty board."""
    states = {(piece.piece_type, square) for square, piece in board.piece_map().items() if piece.color == chess.BLACK}
    for unit in hidden:
        if unit.color == chess.BLACK:
            states |= {(piece, square) for piece in unit.pieces for square in chess.scan_forward(unit.squares)}
    frontier = set(states)
    for _ in range(replies):
        frontier = {state for piece, square in frontier for state in _steps(piece, square)} - states
        if not frontier:
            break
        states |= frontier
    return states


def _steps(piece: int, square: int) -> list[tuple[int, int]]:
    """Where a black ``piece`` on ``square`` may stand after one move on an empty board."""
    targets = [target for target in chess.SQUARES if target != square and _moves_like(piece, chess.Move(square, target))]
    if piece == chess.PAWN:
        return [(promoted if chess.square_rank(target) == 0 else chess.PAWN, target)
                for target in targets for promoted in (_PROMOTED if chess.square_rank(target) == 0 else (chess.PAWN,))]
    return [(piece, target) for target in targets]


def _moves_like(piece: int, move: chess.Move) -> bool:
    """Whether a black ``piece`` makes ``move`` on an empty board (castling as the king's two steps)."""
    files = chess.square_file(move.to_square) - chess.square_file(move.from_square)
    ranks = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
    if move.promotion is not None and (piece != chess.PAWN or chess.square_rank(move.to_square) != 0):
        return False
    if piece == chess.PAWN:  # to the first rank with or without the letter (without: any promotion)
        start = chess.square_rank(move.from_square)
        return (ranks == -1 and abs(files) <= 1) or (ranks == -2 and files == 0 and start == 6)
    if piece == chess.KNIGHT:
        return {abs(files), abs(ranks)} == {1, 2}
    if piece == chess.KING:
        return max(abs(files), abs(ranks)) == 1 or (move.from_square == chess.E8 and move.to_square in (chess.G8,
                                                                                                     chess.C8))
    straight, diagonal = (files == 0) != (ranks == 0), abs(files) == abs(ranks) != 0
    return {chess.ROOK: straight, chess.BISHOP: diagonal, chess.QUEEN: straight or diagonal}[piece]
