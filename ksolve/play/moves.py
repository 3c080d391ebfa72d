"""Moves as players read and type them: SAN on the boards of a game.

- ``played_san``: an executed move in SAN on the true board before it.  In
  Kriegspiel python-chess's SAN (``exd5``, ``Nf3+``, ``Qxf7#``, ``O-O``);
  in Fog of War, where a king may be left attacked and is captured, SAN
  without check marks (``Qxe8`` takes the king), ambiguity settled among the
  mover's moves there (the men he sees).
- ``read_move``: what a player typed, as UCI: UCI itself (``e2e4``,
  ``e7e8q``) or SAN of his own board.  In Kriegspiel that board holds his
  men only, and a pawn capture is written ``exd5`` whatever stands on d5
  (``ksolve.rules.notation.parse_attempt``); in Fog of War SAN is matched
  against the moves he may make (``Nf3``, ``exd5``, ``O-O``, ``0-0``,
  ``e8=Q``; ``x``, ``+`` and ``#`` are optional).

>>> board = chess.Board("r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1")
>>> played_san(board, "e4d5", fog=False), played_san(board, "e1g1", fog=True), played_san(board, "a1a8", fog=True)
('exd5', 'O-O', 'Rxa8')
>>> read_move(board, "Rxa8", fog=True, candidates=["a1a8", "h1h8", "e1g1"]), read_move(board, "0-0", fog=True, candidates=["e1g1"])
('a1a8', 'e1g1')
>>> read_move(board, "Ra7", fog=False)
'a1a7'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import chess

from ksolve.rules.notation import own_board, parse_attempt

UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


class MoveTextError(ValueError):
    """Typed text that is no move of the player's (one line: what and why)."""


def played_san(board: chess.Board, uci: str, fog: bool) -> str:
    """The move ``uci`` in SAN on ``board``, the true position before it."""
    move = chess.Move.from_uci(uci)
    if not fog:
        return board.san(move)
    return fog_san(board, move, (m for m in board.generate_pseudo_legal_moves()))


def fog_san(board: chess.Board, move: chess.Move, moves: Iterable[chess.Move]) -> str:
    """SAN without check marks, ``x`` for a capture (the king's too), ambiguity
    settled among ``moves`` (the mover's).

    >>> fog_san(chess.Board(), chess.Move.from_uci("g1f3"), chess.Board().generate_pseudo_legal_moves())
    'Nf3'
    """
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise ValueError(f"no man on {chess.square_name(move.from_square)}")
    if piece.piece_type == chess.KING and abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) == 2:
        return "O-O" if chess.square_file(move.to_square) == 6 else "O-O-O"
    capture = board.piece_at(move.to_square) is not None or (
        piece.piece_type == chess.PAWN and move.to_square == board.ep_square)
    target = chess.square_name(move.to_square)
    promotion = "" if move.promotion is None else "=" + chess.piece_symbol(move.promotion).upper()
    if piece.piece_type == chess.PAWN:
        prefix = chess.FILE_NAMES[chess.square_file(move.from_square)] + "x" if capture else ""
        return f"{prefix}{target}{promotion}"
    rivals = [m.from_square for m in moves if m.to_square == move.to_square and m.from_square != move.from_square
              and board.piece_type_at(m.from_square) == piece.piece_type]
    which = ""
    if rivals:
        file, rank = chess.square_file(move.from_square), chess.square_rank(move.from_square)
        if all(chess.square_file(s) != file for s in rivals):
            which = chess.FILE_NAMES[file]
        elif all(chess.square_rank(s) != rank for s in rivals):
            which = chess.RANK_NAMES[rank]
        else:
            which = chess.square_name(move.from_square)
    return f"{piece.symbol().upper()}{which}{'x' if capture else ''}{target}{promotion}"


def read_move(board: chess.Board, text: str, fog: bool, candidates: Iterable[str] = ()) -> str:
    """The UCI of what the mover of ``board`` (the true position) typed: UCI, or SAN of
    his own board (Fog of War: matched among ``candidates``, his moves in UCI).
    ``MoveTextError`` for text that is neither."""
    typed = text.strip()
    if UCI.fullmatch(typed.lower()):
        return typed.lower()
    if not typed:
        raise MoveTextError("an empty move (type e.g. e2e4 or Nf3)")
    if not fog:
        try:
            return parse_attempt(own_board(board), typed.replace("0-0-0", "O-O-O").replace("0-0", "O-O"))
        except ValueError:
            raise MoveTextError(f"{typed!r} is no move of your men on your board (UCI e2e4, or SAN Nf3, exd5, O-O)") \
                from None
    return _match_san(board, typed, list(candidates))


_SAN = re.compile(r"([KQRBN])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([QRBNqrbn]))?")
_CASTLING = {"OO": 6, "OOO": 2}


def _match_san(board: chess.Board, typed: str, candidates: list[str]) -> str:
    """The candidate that ``typed`` (SAN) names: its man, target square, origin file or
    rank where given, promotion; ``x``, check marks and ``=`` optional."""
    bare = re.sub(r"[+#!? ]", "", typed).replace("0", "O").replace("-", "")
    moves = [chess.Move.from_uci(uci) for uci in candidates]
    if bare in _CASTLING:
        fitting = [m for m in moves if board.piece_type_at(m.from_square) == chess.KING
                   and chess.square_file(m.to_square) == _CASTLING[bare]
                   and abs(chess.square_file(m.from_square) - chess.square_file(m.to_square)) == 2]
    elif match := _SAN.fullmatch(bare):
        letter, file, rank, target, promotion = match.groups()
        piece = chess.PIECE_SYMBOLS.index(letter.lower()) if letter else chess.PAWN
        fitting = [m for m in moves if board.piece_type_at(m.from_square) == piece
                   and m.to_square == chess.parse_square(target)
                   and (file is None or chess.square_file(m.from_square) == chess.FILE_NAMES.index(file))
                   and (rank is None or chess.square_rank(m.from_square) == int(rank) - 1)
                   and (m.promotion or 0) == (chess.PIECE_SYMBOLS.index(promotion.lower()) if promotion else 0)]
    else:
        fitting = []
    if len(fitting) == 1:
        return fitting[0].uci()
    if len(fitting) > 1:
        names = sorted(fog_san(board, m, moves) for m in fitting)
        raise MoveTextError(f"{typed!r} is ambiguous: {' or '.join(names)}")
    raise MoveTextError(f"{typed!r} is no move of your men (UCI e2e4, or SAN Nf3, exd5, O-O)")
