"""What White hears, as the certificate's observation objects, on python-chess alone.

One function per question of ``docs/certificate.md``: ``moves`` (the moves of
the side to move), ``play`` (a legal move: White's observation and the board
after, for White's attempts and Black's replies alike), ``turn_info`` (before
White's first attempt), ``any_answer`` ("Any?") and ``reached_goal``.  This
is a second implementation of DOMAIN.md sections 3-4, sharing no code with
``ksolve.rules``.

>>> obs, after = play(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1"), chess.Move.from_uci("h1h8"), "berkeley")
>>> obs
{'end': 'checkmate'}
>>> play(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1"), chess.Move.from_uci("h1h7"), "wild16")[0]
{'pawn_tries': 0}
>>> canonical({"checks": ["file"], "capture": "e5"})
'{"capture":"e5","checks":["file"]}'
"""

from __future__ import annotations

import json
from typing import Any

import chess

from ksolve.checker import fog

KRIEGSPIEL = ("berkeley", "berkeley-any", "english", "cincinnati", "rand", "wild16")
RULE_SETS = KRIEGSPIEL + ("orthodox", "fog-of-war", "modern")
PROBES = {"modern": "berkeley"}
"""Rule sets with probes (Modern Kriegspiel) and the rule set whose announcements they make."""
MAX_PROBES = 7
"""The most squares a probe names (Trone 1986)."""
ANY_QUESTION = ("berkeley-any", "english")
"""Rule sets where White may ask "Any?"."""
CAPTURE_KIND = ("cincinnati", "rand", "wild16")
"""Rule sets that say whether a pawn or a piece was captured."""
MOVE_LIMIT = 2000
"""Half-moves after which the Kriegspiel and orthodox referees draw (never in practice)."""
CHECK_ORDER = ("rank", "file", "long", "short", "knight")

Observation = dict[str, Any]


def canonical(observation: Observation) -> str:
    """The canonical JSON of an observation: two are equal when these are."""
    return json.dumps(observation, sort_keys=True, separators=(",", ":"))


def announcing(rules: str) -> str:
    """The rule set whose referee answers moves under ``rules`` (Modern
    Kriegspiel announces as Berkeley; the probes are on top).

    >>> announcing("modern"), announcing("wild16")
    ('berkeley', 'wild16')
    """
    return PROBES.get(rules, rules)


def probe(board: chess.Board, squares: list[str]) -> Observation:
    """What the referee shows on ``squares``: each square's man as a
    python-chess symbol, ``None`` where it is empty.

    >>> probe(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1"), ["a8", "a7"])
    {'a8': 'k', 'a7': None}
    """
    shown: Observation = {}
    for name in squares:
        piece = board.piece_at(chess.parse_square(name))
        shown[name] = None if piece is None else piece.symbol()
    return shown


def move_limit(rules: str) -> int:
    """The half-move clock at which the game is drawn.

    >>> move_limit("fog-of-war"), move_limit("berkeley")
    (100, 2000)
    """
    return fog.FIFTY_MOVES if rules == "fog-of-war" else MOVE_LIMIT


def moves(board: chess.Board, rules: str) -> list[chess.Move]:
    """The moves of the side to move (Fog-of-War moves under ``fog-of-war``)."""
    return fog.fog_moves(board) if rules == "fog-of-war" else list(board.legal_moves)


def is_legal(board: chess.Board, move: chess.Move, rules: str) -> bool:
    """Whether the referee executes ``move`` (else "No").

    >>> is_legal(chess.Board("k7/8/8/8/8/8/8/K6r w - - 0 1"), chess.Move.from_uci("a1b1"), "berkeley")
    False
    >>> is_legal(chess.Board("k7/8/8/8/8/8/8/K6r w - - 0 1"), chess.Move.from_uci("a1b1"), "fog-of-war")
    True
    """
    if rules == "fog-of-war":
        return move in fog.fog_moves(board)
    return board.is_legal(move)


def play(board: chess.Board, move: chess.Move, rules: str) -> tuple[Observation, chess.Board]:
    """Play the legal ``move`` of the side to move: (what White hears, the board after)."""
    if rules == "fog-of-war":
        return fog.observation(board, move)
    heard: Observation = {}
    if rules != "orthodox":
        heard.update(_capture(board, move, rules))
    after = board.copy(stack=False)
    after.push(move)
    if rules == "orthodox":
        heard["position"] = after.epd()
    finished = game_end(after, rules)
    if finished:
        heard["end"] = finished
    elif rules != "orthodox":
        checks = check_directions(after)
        if checks:
            heard["checks"] = checks
        heard.update(pawn_tries(after, rules))
    return heard, after


def _capture(board: chess.Board, move: chess.Move, rules: str) -> Observation:
    """The capture fields of a Kriegspiel announcement (and RAND's promotion)."""
    heard: Observation = {}
    if board.is_en_passant(move):
        victim = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
        heard["capture"] = chess.square_name(move.to_square if rules == "english" else victim)
        if rules == "english":
            heard["en_passant"] = True
        kind = chess.PAWN
    else:
        enemy = board.occupied_co[not board.turn] & chess.BB_SQUARES[move.to_square]
        kind = board.piece_type_at(move.to_square) if enemy else None
        if kind is not None:
            heard["capture"] = chess.square_name(move.to_square)
    if "capture" in heard and rules in CAPTURE_KIND:
        heard["captured"] = "pawn" if kind == chess.PAWN else "piece"
    if rules == "rand" and move.promotion:
        heard["promotion"] = True
    return heard


def game_end(board: chess.Board, rules: str) -> str | None:
    """The game end announced for ``board`` (after a move), tested in the
    order stalemate, insufficient material, checkmate, move limit.

    >>> game_end(chess.Board("k7/8/8/8/8/8/8/K6N b - - 0 1"), "berkeley")
    'insufficient'
    >>> bishops = chess.Board("k6b/8/8/8/8/8/8/K1B5 b - - 0 1")  # on squares of one colour
    >>> game_end(bishops, "berkeley"), game_end(bishops, "wild16")
    (None, 'insufficient')
    """
    has_move = any(board.generate_legal_moves())
    if not has_move and not board.is_check():
        return "stalemate"
    if insufficient(board, rules):
        return "insufficient"
    if not has_move:
        return "checkmate"
    if board.halfmove_clock >= MOVE_LIMIT:
        return "move-limit"
    return None


def insufficient(board: chess.Board, rules: str) -> bool:
    """Berkeley (with or without Any?): bare kings, or three men one of them a
    knight or bishop; the other rule sets: python-chess's dead material."""
    if announcing(rules) in ("berkeley", "berkeley-any"):
        men = chess.popcount(board.occupied)
        return men == 2 or (men == 3 and bool(board.knights | board.bishops))
    return board.is_insufficient_material()


def check_directions(board: chess.Board) -> list[str]:
    """The directions of the checks on the side to move's king, seen from the king.

    >>> check_directions(chess.Board("k7/8/8/8/8/8/8/K6Q b - - 0 1"))
    ['long']
    >>> check_directions(chess.Board("k7/8/1N6/8/8/8/8/R5K1 b - - 0 1"))
    ['file', 'knight']
    """
    king = board.king(board.turn)
    if king is None:
        return []
    found = set()
    kf, kr = chess.square_file(king), chess.square_rank(king)
    for square in board.checkers():
        f, r = chess.square_file(square), chess.square_rank(square)
        if board.piece_type_at(square) == chess.KNIGHT:
            found.add("knight")
        elif r == kr:
            found.add("rank")
        elif f == kf:
            found.add("file")
        else:
            rising = (f - kf) * (r - kr) > 0  # the diagonal on which file - rank is constant
            rising_length, falling_length = 8 - abs(kf - kr), 8 - abs(kf + kr - 7)
            longer = rising_length > falling_length if rising else falling_length > rising_length
            found.add("long" if longer else "short")
    return [word for word in CHECK_ORDER if word in found]


def pawn_captures(board: chess.Board) -> set[tuple[int, int]]:
    """(from, to) of the legal pawn captures of the side to move, en passant
    included, the promotions of one capture once.

    >>> sorted(pawn_captures(chess.Board("4k3/8/8/8/8/2p1p3/3P4/4K3 w - - 0 1")))
    [(11, 18), (11, 20)]
    """
    pawns = board.pawns & board.occupied_co[board.turn]
    return {(m.from_square, m.to_square) for m in board.generate_legal_moves(from_mask=pawns)
            if chess.square_file(m.from_square) != chess.square_file(m.to_square)}


def pawn_tries(board: chess.Board, rules: str) -> Observation:
    """The pawn-try field about the side to move (Wild 16, Cincinnati, RAND).

    >>> pawn_tries(chess.Board("4k3/8/8/8/8/2p1p3/3P4/4K3 w - - 0 1"), "rand")
    {'pawn_tries': ['d2']}
    """
    if rules not in CAPTURE_KIND:
        return {}
    captures = pawn_captures(board)
    if rules == "wild16":
        return {"pawn_tries": len(captures)}
    if rules == "cincinnati":
        return {"pawn_tries": bool(captures)}
    sources = sorted({source for source, _ in captures})
    return {"pawn_tries": [chess.square_name(s) for s in sources]}


def turn_info(board: chess.Board, rules: str) -> Observation:
    """What White hears at the start of his turn before any attempt.

    >>> turn_info(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1"), "orthodox")
    {'position': 'k7/8/1K6/8/8/8/8/7R w - -'}
    >>> turn_info(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1"), "berkeley")
    {}
    """
    if rules == "fog-of-war":
        return fog.view(board)
    if rules == "orthodox":
        return {"position": board.epd()}
    return pawn_tries(board, rules)


def may_ask(rules: str, asked: bool) -> bool:
    """Whether White may ask "Any?" now, ``asked`` saying whether he asked it
    this turn: under the rule sets with the question, once a turn, at any
    point before the turn's legal move (after refused attempts too).

    >>> may_ask("english", asked=False), may_ask("english", asked=True), may_ask("berkeley", asked=False)
    (True, False, False)
    """
    return rules in ANY_QUESTION and not asked


def obliged_after_refusal(rules: str, obliged: bool) -> bool:
    """Whether, after a refused attempt, the next attempt must still be a pawn
    capture: under Berkeley+Any until one is legal; under English one refused
    pawn try meets the obligation.

    >>> obliged_after_refusal("berkeley-any", True), obliged_after_refusal("english", True)
    (True, False)
    """
    return obliged and rules == "berkeley-any"


def any_answer(board: chess.Board) -> bool:
    """The answer to "Any?": has the side to move a legal pawn capture?"""
    return bool(pawn_captures(board))


def is_pawn_capture_attempt(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` is a pawn-capture attempt: a pawn of the side to move
    stepping diagonally forward onto a square not held by its own men.

    >>> is_pawn_capture_attempt(chess.Board("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"), chess.Move.from_uci("d2e3"))
    True
    """
    us = board.turn
    if not board.pawns & board.occupied_co[us] & chess.BB_SQUARES[move.from_square]:
        return False
    if board.occupied_co[us] & chess.BB_SQUARES[move.to_square]:
        return False
    return bool(chess.BB_PAWN_ATTACKS[us][move.from_square] & chess.BB_SQUARES[move.to_square])


def reached_goal(observation: Observation, rules: str) -> bool:
    """Whether White's move with this observation wins (mate; king capture in Fog of War)."""
    return observation.get("end") == ("king-captured" if rules == "fog-of-war" else "checkmate")
