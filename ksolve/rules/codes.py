"""Observation codes: what a player hears, packed into one integer.

A Kriegspiel referee's answer to an executed move is one ``int64`` code
(plus, under RAND, the pawn-try squares as a second ``uint64`` word) so that a
belief state splits into classes by a single sort.  ``ILLEGAL`` is the "No".

Bit layout of a move announcement:

=========  =================================================================
0-6        capture square + 1 (0: no capture)
7          the captured man was a pawn (rule sets that say pawn/piece)
8          the capture was en passant (English says so)
9-13       check directions: rank, file, long diagonal, short diagonal, knight
14-16      game end: checkmate, stalemate, insufficient material, move-count
           draw, king captured (Fog of War)
17         a pawn promoted (RAND)
18-23      pawn tries of the side now to move (Wild 16 count; Cincinnati 0/1)
24         pawn-try information present (Wild 16, Cincinnati, RAND)
=========  =================================================================

>>> describe(capture_code(36) | CHECK_FILE)
'Capture at e5, check on the file'
>>> describe(ILLEGAL)
'No'
>>> describe(capture_code(36) | CAPTURED_PAWN | CHECK_LONG | PAWN_INFO, 0, "count", ICC)
'Pawn at e5 captured, Long-diagonal check'
"""

from __future__ import annotations

import chess

CAPTURE_MASK = 0x7F
CAPTURED_PAWN = 1 << 7
EN_PASSANT = 1 << 8
CHECK_RANK = 1 << 9
CHECK_FILE = 1 << 10
CHECK_LONG = 1 << 11
CHECK_SHORT = 1 << 12
CHECK_KNIGHT = 1 << 13
CHECK_MASK = CHECK_RANK | CHECK_FILE | CHECK_LONG | CHECK_SHORT | CHECK_KNIGHT
END_SHIFT = 14
END_MASK = 7 << END_SHIFT
END_NONE, END_CHECKMATE, END_STALEMATE, END_INSUFFICIENT, END_MOVE_LIMIT, END_KING_CAPTURED = range(6)
PROMOTION = 1 << 17
PAWN_TRIES_SHIFT = 18
PAWN_TRIES_MASK = 63 << PAWN_TRIES_SHIFT
PAWN_INFO = 1 << 24
ILLEGAL = 1 << 30
"""The referee's "No": the attempt is illegal in this position."""

_CHECK_WORDS = [(CHECK_RANK, "rank"), (CHECK_FILE, "file"), (CHECK_LONG, "long diagonal"),
                (CHECK_SHORT, "short diagonal"), (CHECK_KNIGHT, "knight")]
_ICC_CHECK_WORDS = {"rank": "Rank check", "file": "File check", "long diagonal": "Long-diagonal check",
                    "short diagonal": "Short-diagonal check", "knight": "Knight check"}
REFEREE, ICC = "referee", "icc"
"""The wordings of ``describe``: the classic referee's ("Capture at e5, check on the file") and the
Internet Chess Club's Wild 16 announcements ("Piece at e5 captured, File check", "2 pawn tries")."""
_END_WORDS = {END_CHECKMATE: "checkmate", END_STALEMATE: "stalemate",
              END_INSUFFICIENT: "draw (insufficient material)", END_MOVE_LIMIT: "draw (move limit)",
              END_KING_CAPTURED: "king captured"}


def capture_code(square: int) -> int:
    """The code bits of a capture on ``square``.

    >>> capture_square(capture_code(0))
    0
    """
    return square + 1


def capture_square(code: int) -> int | None:
    """The capture square of a code, or None."""
    value = code & CAPTURE_MASK
    return value - 1 if value else None


def end_of(code: int) -> int:
    """The game-end kind of a code (``END_NONE`` if the game goes on)."""
    return (code & END_MASK) >> END_SHIFT


def check_words(code: int) -> list[str]:
    """The check directions of a code, e.g. ``['file', 'knight']``."""
    return [word for bit, word in _CHECK_WORDS if code & bit]


def pawn_try_count(code: int) -> int | None:
    """The pawn-try count carried by a code, or None if it carries none."""
    if not code & PAWN_INFO:
        return None
    return (code & PAWN_TRIES_MASK) >> PAWN_TRIES_SHIFT


def describe(code: int, extra: int = 0, pawn_info: str = "none", wording: str = REFEREE) -> str:
    """The referee's words for a code.

    ``pawn_info`` is the rule set's kind of pawn-try information ("count",
    "exists", "squares" or "none") and ``extra`` the RAND pawn-try squares.
    ``wording`` ``ICC`` gives the Internet Chess Club's words (its Wild 16 help
    file): "Pawn at d4 captured", "Piece at g7 captured", "Rank check",
    "Long-diagonal check", and "n pawn tries" only when there are some.

    >>> describe(capture_code(12) | CAPTURED_PAWN | PAWN_INFO | (2 << PAWN_TRIES_SHIFT), 0, "count")
    'Pawn captured at e2, 2 pawn tries'
    >>> describe(PAWN_INFO, 1 << 12 | 1 << 13, "squares")
    'Silent, pawn tries from e2 f2'
    >>> describe(capture_code(62) | CHECK_FILE | CHECK_KNIGHT | PAWN_INFO | (1 << PAWN_TRIES_SHIFT), 0, "count", ICC)
    'Piece at g8 captured, File check, Knight check, 1 pawn try'
    >>> describe(PAWN_INFO, 0, "count", ICC)
    'Silent'
    """
    if code == ILLEGAL:
        return "No"
    if wording == ICC:
        return _icc_words(code)
    parts = []
    square = capture_square(code)
    if square is not None:
        name = chess.square_name(square)
        if code & CAPTURED_PAWN:
            parts.append(f"Pawn captured at {name}")
        else:
            parts.append(f"Capture at {name}")
        if code & EN_PASSANT:
            parts[-1] += " (en passant)"
    if code & PROMOTION:
        parts.append("promotion")
    checks = check_words(code)
    if len(checks) == 1:
        parts.append("knight check" if checks[0] == "knight" else f"check on the {checks[0]}")
    elif checks:
        parts.append("double check: " + " and ".join(checks))
    end = end_of(code)
    if end:
        parts.append(_END_WORDS[end])
    if not parts:
        parts.append("silent")
    if code & PAWN_INFO:
        parts.append(_pawn_info_words(code, extra, pawn_info))
    text = ", ".join(parts)
    return text[0].upper() + text[1:]


def _icc_words(code: int) -> str:
    """The ICC's announcements of a move, one after another ("Silent" when there is none)."""
    parts = []
    square = capture_square(code)
    if square is not None:
        parts.append(f"{'Pawn' if code & CAPTURED_PAWN else 'Piece'} at {chess.square_name(square)} captured")
    parts += [_ICC_CHECK_WORDS[word] for word in check_words(code)]
    end = end_of(code)
    if end:
        parts.append(_END_WORDS[end][0].upper() + _END_WORDS[end][1:])
    count = pawn_try_count(code)
    if count:
        parts.append(f"{count} pawn tr{'y' if count == 1 else 'ies'}")
    return ", ".join(parts) or "Silent"


def _pawn_info_words(code: int, extra: int, pawn_info: str) -> str:
    count = pawn_try_count(code)
    if pawn_info == "exists":
        return "pawn capture possible" if count else "no pawn capture"
    if pawn_info == "squares":
        squares = [chess.square_name(s) for s in chess.scan_forward(extra)]
        return "pawn tries from " + " ".join(squares) if squares else "no pawn tries"
    return f"{count} pawn tr{'y' if count == 1 else 'ies'}"


_CHECK_JSON = [(CHECK_RANK, "rank"), (CHECK_FILE, "file"), (CHECK_LONG, "long"), (CHECK_SHORT, "short"),
               (CHECK_KNIGHT, "knight")]
_END_JSON = {END_CHECKMATE: "checkmate", END_STALEMATE: "stalemate", END_INSUFFICIENT: "insufficient",
             END_MOVE_LIMIT: "move-limit", END_KING_CAPTURED: "king-captured"}


def announcement_json(code: int, capture_kind: bool = False) -> dict:
    """The certificate's JSON words for a move announcement (pawn tries aside:
    their form belongs to the rule set).

    >>> announcement_json(capture_code(36) | CAPTURED_PAWN | CHECK_FILE, capture_kind=True)
    {'capture': 'e5', 'captured': 'pawn', 'checks': ['file']}
    """
    if code == ILLEGAL:
        raise ValueError("a refusal is not an observation (it is the 'no' branch)")
    result: dict = {}
    square = capture_square(code)
    if square is not None:
        result["capture"] = chess.square_name(square)
        if capture_kind:
            result["captured"] = "pawn" if code & CAPTURED_PAWN else "piece"
        if code & EN_PASSANT:
            result["en_passant"] = True
    if code & PROMOTION:
        result["promotion"] = True
    checks = [word for bit, word in _CHECK_JSON if code & bit]
    if checks:
        result["checks"] = checks
    end = end_of(code)
    if end:
        result["end"] = _END_JSON[end]
    return result
