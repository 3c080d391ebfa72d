"""The Kriegspiel notation inside PGN comments: announcement tokens and
attempts in SAN on the mover's own board.

An announcement is a comma-separated list of tokens, in this order:

===========================  ==============================================
``d5``                       capture on d5 (en passant: the passed pawn's square)
``d5/pawn``, ``d5/piece``    capture with its kind (Cincinnati, RAND, Wild 16)
``d6/ep``                    English en passant: the arrival square
``promotion``                a pawn promoted (RAND)
``R F L S N``                check directions (rank, file, long diagonal, short
                             diagonal, knight), joined: ``FN`` is a double check
``#``, ``stalemate``,        game end: checkmate, stalemate, draw for lack of
``draw``, ``limit``          material, the move-count draw
``T2``, ``T+``, ``T-``,      pawn tries of the side now to move: Wild 16 count;
``Te5g5``                    Cincinnati yes/no; RAND source squares (``T-``: none)
===========================  ==============================================

Attempts are written in SAN on the mover's *own board* (his men only, as he
sees it), except diagonal pawn steps, which are written ``exd5`` (``exd8=Q``)
whatever stands on the target square.

>>> from ksolve.rules import get_rules
>>> tokens = announcement_tokens(codes.capture_code(35) | codes.CHECK_FILE, 0, get_rules("berkeley"))
>>> tokens
['d5', 'F']
>>> parse_announcement(",".join(tokens), get_rules("berkeley")) == (codes.capture_code(35) | codes.CHECK_FILE, 0)
True
"""

from __future__ import annotations

import re

import chess

from ksolve.rules import codes
from ksolve.rules.kernels import PAWN_INFO_COUNT, PAWN_INFO_EXISTS, PAWN_INFO_NONE, PAWN_INFO_SQUARES
from ksolve.rules.kriegspiel import KriegspielRules

CHECK_LETTERS = (("R", codes.CHECK_RANK), ("F", codes.CHECK_FILE), ("L", codes.CHECK_LONG),
                 ("S", codes.CHECK_SHORT), ("N", codes.CHECK_KNIGHT))
END_WORDS = {"#": codes.END_CHECKMATE, "stalemate": codes.END_STALEMATE, "draw": codes.END_INSUFFICIENT,
             "limit": codes.END_MOVE_LIMIT}
_END_TOKENS = {value: word for word, value in END_WORDS.items()}
_CAPTURE = re.compile(r"([a-h][1-8])(?:/(pawn|piece|ep))?$")
_CHECKS = re.compile(r"[RFLSN]+$")
_TRIES = re.compile(r"T(\d+|\+|-|(?:[a-h][1-8])+)$")
_PAWN_TRY = re.compile(r"([a-h])x([a-h][1-8])(?:=([NBRQ]))?$")


class NotationError(ValueError):
    """A token that does not parse; ``offset`` is its position in the parsed text."""

    def __init__(self, reason: str, offset: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


# --- announcements -------------------------------------------------------------
def announcement_tokens(code: int, extra: int, rules: KriegspielRules) -> list[str]:
    """The tokens of an announcement code (see the table above)."""
    tokens = []
    square = codes.capture_square(code)
    if square is not None:
        name = chess.square_name(square)
        if code & codes.EN_PASSANT:
            name += "/ep"
        elif rules.capture_kind:
            name += "/pawn" if code & codes.CAPTURED_PAWN else "/piece"
        tokens.append(name)
    if code & codes.PROMOTION:
        tokens.append("promotion")
    checks = "".join(letter for letter, bit in CHECK_LETTERS if code & bit)
    if checks:
        tokens.append(checks)
    end = codes.end_of(code)
    if end:
        tokens.append(_END_TOKENS[end])
    if code & codes.PAWN_INFO:
        tokens.append(_tries_token(code, extra, rules))
    return tokens


def _tries_token(code: int, extra: int, rules: KriegspielRules) -> str:
    count = codes.pawn_try_count(code)
    if rules.pawn_info == PAWN_INFO_EXISTS:
        return "T+" if count else "T-"
    if rules.pawn_info == PAWN_INFO_SQUARES:
        return "T" + ("".join(chess.square_name(s) for s in chess.scan_forward(extra)) or "-")
    return f"T{count}"


def parse_announcement(text: str, rules: KriegspielRules) -> tuple[int, int]:
    """``(code, extra)`` of a comma-separated token list; ``NotationError`` on a
    token that does not parse or that the rule set never announces."""
    code, extra, offset = 0, 0, 0
    seen: set[str] = set()
    for raw in text.split(","):
        token = raw.strip()
        at = offset + len(raw) - len(raw.lstrip())
        offset += len(raw) + 1
        if not token:
            if text.strip():
                raise NotationError("empty announcement token", at)
            continue
        kind, bits, more = _token_bits(token, rules, at)
        if kind in seen:
            raise NotationError(f"two {kind} tokens", at)
        seen.add(kind)
        code |= bits
        extra |= more
    _check_pawn_info(code, rules, offset - 1)
    return code, extra


def _token_bits(token: str, rules: KriegspielRules, at: int) -> tuple[str, int, int]:
    """(kind, code bits, extra) of one token."""
    if match := _CAPTURE.match(token):
        kind = match.group(2)
        if (kind in ("pawn", "piece")) != rules.capture_kind:
            raise NotationError(f"capture {token!r}: the {rules.name} referee "
                                f"{'says' if rules.capture_kind else 'does not say'} pawn or piece", at)
        if (kind == "ep") and not rules.en_passant_at_arrival:
            raise NotationError(f"capture {token!r}: only the English referee announces en passant", at)
        bits = codes.capture_code(chess.parse_square(match.group(1)))
        bits |= codes.CAPTURED_PAWN if kind == "pawn" else codes.EN_PASSANT if kind == "ep" else 0
        return "capture", bits, 0
    if token == "promotion":
        if not rules.promotion_announced:
            raise NotationError(f"the {rules.name} referee does not announce promotions", at)
        return "promotion", codes.PROMOTION, 0
    if token in END_WORDS:
        return "end", END_WORDS[token] << codes.END_SHIFT, 0
    if _CHECKS.match(token):
        bits = 0
        for letter in token:
            bit = dict(CHECK_LETTERS)[letter]
            if bits & bit:
                raise NotationError(f"check letter {letter!r} twice in {token!r}", at)
            bits |= bit
        if len(token) > 2:
            raise NotationError(f"more than two check directions in {token!r}", at)
        return "check", bits, 0
    if match := _TRIES.match(token):
        return ("tries",) + _tries_bits(match.group(1), rules, at)
    raise NotationError(f"unknown announcement token {token!r}", at)


def _tries_bits(value: str, rules: KriegspielRules, at: int) -> tuple[int, int]:
    kind = rules.pawn_info
    if kind == PAWN_INFO_NONE:
        raise NotationError(f"the {rules.name} referee announces no pawn tries", at)
    if kind == PAWN_INFO_COUNT and value.isdigit() and int(value) < 64:
        return codes.PAWN_INFO | int(value) << codes.PAWN_TRIES_SHIFT, 0
    if kind == PAWN_INFO_EXISTS and value in "+-":
        return codes.PAWN_INFO | (value == "+") << codes.PAWN_TRIES_SHIFT, 0
    if kind == PAWN_INFO_SQUARES and not value.isdigit() and value != "+":
        squares = [] if value == "-" else [chess.parse_square(value[i:i + 2]) for i in range(0, len(value), 2)]
        if squares != sorted(set(squares)):
            raise NotationError(f"pawn-try squares 'T{value}' not in ascending order", at)
        mask = sum(1 << s for s in squares)
        return codes.PAWN_INFO, mask
    expected = {PAWN_INFO_COUNT: "a count (T0, T2)", PAWN_INFO_EXISTS: "T+ or T-",
                PAWN_INFO_SQUARES: "source squares (Te5g5, T-)"}[kind]
    raise NotationError(f"pawn tries 'T{value}': the {rules.name} referee gives {expected}", at)


def _check_pawn_info(code: int, rules: KriegspielRules, at: int) -> None:
    ended = codes.end_of(code) != codes.END_NONE
    if ended and code & codes.CHECK_MASK:
        raise NotationError("a game end is announced without check directions", 0)
    wanted = rules.pawn_info != PAWN_INFO_NONE and not ended
    if wanted and not code & codes.PAWN_INFO:
        raise NotationError(f"missing pawn-try token (the {rules.name} referee announces them after every move)",
                            max(at, 0))
    if ended and code & codes.PAWN_INFO:
        raise NotationError("pawn tries announced after the game ended", 0)


# --- attempts on the mover's own board ----------------------------------------------
def own_board(board: chess.Board) -> chess.Board:
    """The mover's own board: the position without the opponent's men.

    >>> own_board(chess.Board()).fen()
    '8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1'
    """
    own = board.copy(stack=False)
    for square in chess.SquareSet(board.occupied_co[not board.turn]):
        own.remove_piece_at(square)
    own.castling_rights &= own.occupied_co[board.turn]
    own.ep_square = board.ep_square
    return own


def is_pawn_diagonal(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` is a diagonal step of one of the mover's pawns."""
    return (board.pieces_mask(chess.PAWN, board.turn) & chess.BB_SQUARES[move.from_square] != 0
            and chess.square_file(move.from_square) != chess.square_file(move.to_square))


def attempt_san(own: chess.Board, uci: str) -> str:
    """An attempt in SAN on the mover's own board ``own``.

    >>> own = own_board(chess.Board())
    >>> attempt_san(own, "g1f3"), attempt_san(own, "e2d3")
    ('Nf3', 'exd3')
    """
    move = chess.Move.from_uci(uci)
    if is_pawn_diagonal(own, move):
        promotion = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
        return f"{chess.FILE_NAMES[chess.square_file(move.from_square)]}x{chess.square_name(move.to_square)}{promotion}"
    if move not in own.legal_moves:
        raise ValueError(f"{uci} is not a move on the mover's own board")
    return own.san(move).rstrip("+#")


def played_san(attempt: str, capture: bool, check: bool, mate: bool) -> str:
    """An attempt as it was played, in problemists' SAN: ``x`` when it
    captured, ``+`` when it checked, ``#`` when it mated.

    >>> played_san("Kf2", True, False, True), played_san("Nf2", False, True, False), played_san("exd8=Q", True, True, False)
    ('Kxf2#', 'Nf2+', 'exd8=Q+')
    """
    body = attempt.rstrip("+#")
    if capture and "x" not in body and not body.startswith("O-O"):
        square = re.search(r"[a-h][1-8](=[NBRQ])?$", body)
        if square:
            body = body[:square.start()] + "x" + body[square.start():]
    return body + ("#" if mate else "+" if check else "")


def parse_attempt(own: chess.Board, text: str) -> str:
    """The UCI of an attempt written as ``attempt_san`` writes it (any SAN that
    python-chess reads on the own board is accepted)."""
    if match := _PAWN_TRY.match(text.rstrip("+#")):
        target = chess.parse_square(match.group(2))
        file = chess.FILE_NAMES.index(match.group(1))
        pawns = [s for s in own.pieces(chess.PAWN, own.turn)
                 if chess.square_file(s) == file and target in own.attacks(s)]
        if not pawns or own.color_at(target) == own.turn:
            raise ValueError(f"no pawn of the mover can step diagonally as {text!r}")
        last_rank = chess.square_rank(target) in (0, 7)
        if last_rank != bool(match.group(3)):
            raise ValueError(f"{text!r}: a pawn reaching the last rank must name its promotion piece"
                             if last_rank else f"{text!r}: promotion before the last rank")
        promotion = match.group(3).lower() if match.group(3) else ""
        return chess.square_name(pawns[0]) + chess.square_name(target) + promotion
    try:
        return own.parse_san(text).uci()
    except ValueError as error:
        raise ValueError(f"{text!r} is not a move on the mover's own board ({error})") from None
