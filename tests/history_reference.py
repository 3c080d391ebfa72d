"""A slow, independent python-chess reference for state estimation.

It re-implements, on python-chess alone, what White hears in a Kriegspiel
game (DOMAIN.md section 3, the six rule sets) and which of Black's move
sequences are consistent with it, and computes White's belief by brute
force: every Black move from every position still possible, kept when Black
could have played it with exactly the refusals and "Any?" answers White
heard (a search over Black's sequences of attempts) and when its
announcement is the one White heard.

The only thing taken from ksolve is the bit layout of the recorded
announcement codes (``ksolve.rules.codes``), decoded into the same tuple this
module computes from the board.

>>> board = chess.Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
>>> heard_of_move(board, chess.Move.from_uci("e1d1"), "wild16")
(None, None, False, False, (), None, 1)
"""

from __future__ import annotations

import functools

import chess
import chess.polyglot

from ksolve.rules import codes

BARE_KINGS_RULES = ("berkeley", "berkeley-any")
CAPTURE_KIND_RULES = ("cincinnati", "rand", "wild16")
ANY_RULES = ("berkeley-any", "english")


def check_letter(king: int, checker: int, piece_type: int) -> str:
    """R(ank), F(ile), L(ong) or S(hort) diagonal, N(knight), seen from the king."""
    if piece_type == chess.KNIGHT:
        return "N"
    kf, kr = chess.square_file(king), chess.square_rank(king)
    f, r = chess.square_file(checker), chess.square_rank(checker)
    if r == kr:
        return "R"
    if f == kf:
        return "F"
    rising = 8 - abs(kf - kr)
    falling = 8 - abs(kf + kr - 7)
    mine, other = (rising, falling) if f - r == kf - kr else (falling, rising)
    return "L" if mine > other else "S"


def legal_pawn_captures(board: chess.Board) -> list[chess.Move]:
    pawns = board.pawns & board.occupied_co[board.turn]
    return [m for m in board.generate_legal_moves(from_mask=pawns) if board.is_capture(m)]


def insufficient(board: chess.Board, rules: str) -> bool:
    if rules in BARE_KINGS_RULES:
        others = sorted(p.piece_type for p in board.piece_map().values() if p.piece_type != chess.KING)
        return others == [] or others in ([chess.KNIGHT], [chess.BISHOP])
    return board.is_insufficient_material()


def heard_of_move(board: chess.Board, move: chess.Move, rules: str) -> tuple:
    """(capture square, captured kind, en passant flag, promotion, check letters,
    game end, pawn information of the side then to move)."""
    en_passant = board.is_en_passant(move)
    square = kind = None
    if board.is_capture(move):
        square = move.to_square
        if en_passant and rules != "english":
            square = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
        if rules in CAPTURE_KIND_RULES:
            victim = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square)) \
                if en_passant else move.to_square
            kind = "pawn" if board.piece_type_at(victim) == chess.PAWN else "piece"
    flag = en_passant and rules == "english"
    promotion = rules == "rand" and move.promotion is not None
    after = board.copy(stack=False)
    after.push(move)
    end = None
    if not any(after.legal_moves) and not after.is_check():
        end = "stalemate"
    elif insufficient(after, rules):
        end = "draw"
    elif after.is_checkmate():
        end = "mate"
    if end:
        return square, kind, flag, promotion, (), end, None
    king = after.king(after.turn)
    checks = tuple(sorted(check_letter(king, s, after.piece_type_at(s)) for s in after.checkers()))
    captures = legal_pawn_captures(after)
    info = None
    if rules == "wild16":
        info = len({(m.from_square, m.to_square) for m in captures})
    elif rules == "cincinnati":
        info = bool(captures)
    elif rules == "rand":
        info = frozenset(m.from_square for m in captures)
    return square, kind, flag, promotion, checks, end, info


def heard_of_code(code: int, extra: int, rules: str) -> tuple:
    """The recorded announcement code as the tuple ``heard_of_move`` computes."""
    square = codes.capture_square(code)
    kind = None
    if square is not None and rules in CAPTURE_KIND_RULES:
        kind = "pawn" if code & codes.CAPTURED_PAWN else "piece"
    letters = {codes.CHECK_RANK: "R", codes.CHECK_FILE: "F", codes.CHECK_LONG: "L", codes.CHECK_SHORT: "S",
               codes.CHECK_KNIGHT: "N"}
    checks = tuple(sorted(letter for bit, letter in letters.items() if code & bit))
    end = {codes.END_NONE: None, codes.END_CHECKMATE: "mate", codes.END_STALEMATE: "stalemate",
           codes.END_INSUFFICIENT: "draw"}[codes.end_of(code)]
    info = None
    if end is None and rules == "wild16":
        info = codes.pawn_try_count(code)
    elif end is None and rules == "cincinnati":
        info = bool(codes.pawn_try_count(code))
    elif end is None and rules == "rand":
        info = frozenset(chess.scan_forward(extra))
    return (square, kind, bool(code & codes.EN_PASSANT), bool(code & codes.PROMOTION), checks, end, info)


# --- what the mover may attempt ------------------------------------------------------
def pawn_diagonals(board: chess.Board) -> set[chess.Move]:
    """Every diagonal pawn step onto a square not held by the mover (4 promotions on the last rank)."""
    moves = set()
    for square in board.pieces(chess.PAWN, board.turn):
        for target in board.attacks(square):
            if board.color_at(target) == board.turn:
                continue
            if chess.square_rank(target) in (0, 7):
                moves |= {chess.Move(square, target, p) for p in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)}
            else:
                moves.add(chess.Move(square, target))
    return moves


def allowed_pawn_tries(board: chess.Board, rules: str) -> set[chess.Move]:
    tries = pawn_diagonals(board)
    captures = legal_pawn_captures(board)
    if rules in ("cincinnati", "wild16") and not captures:
        return set()
    if rules == "rand":
        sources = {m.from_square for m in captures}
        return {m for m in tries if m.from_square in sources}
    return tries


def own_moves(board: chess.Board) -> set[chess.Move]:
    own = board.copy(stack=False)
    for square in chess.SquareSet(board.occupied_co[not board.turn]):
        own.remove_piece_at(square)
    return set(own.legal_moves)


def possible_pawn_captures(board: chess.Board) -> int:
    return len({(m.from_square, m.to_square) for m in pawn_diagonals(board)})


def feasible_moves(board: chess.Board, rules: str, events: tuple) -> set[chess.Move]:
    """The legal moves Black can end his turn with, having produced exactly the
    heard ``events`` ("No" per heard refusal, ("Any", yes) for a heard "Any?").

    A search over Black's sequences of actions, the referee's turn state
    following each.  Illegal attempts are interchangeable within their class
    (pawn tries, other askable attempts), so the state keeps how many of each
    class were refused, not which."""
    legal = set(board.legal_moves)
    if rules == "wild16":
        return legal
    tries = allowed_pawn_tries(board, rules)
    illegal_tries = len(tries - legal)
    illegal_others = len((own_moves(board) - tries) - legal)
    has_capture = bool(legal_pawn_captures(board))
    possible = possible_pawn_captures(board)
    found: set[chess.Move] = set()

    @functools.lru_cache(maxsize=None)
    def search(refused_tries: int, refused_others: int, asked: bool, answer, must: bool, index: int) -> None:
        if index == len(events):  # the next attempt is the executed move
            if must:
                found.update(legal & tries)
            elif answer is False:
                found.update(legal - tries)
            else:
                found.update(legal)
        refusal = index < len(events) and events[index] == "No"
        if refusal and (must or answer is not False) and refused_tries < illegal_tries:
            release = must and rules == "english"  # one refused pawn try fulfils the English "Yes"
            search(refused_tries + 1, refused_others, asked, answer, must and not release, index + 1)
        if refusal and not must and refused_others < illegal_others:
            search(refused_tries, refused_others + 1, asked, answer, must, index + 1)
        if rules in ANY_RULES and not asked and not must:
            if rules == "english":
                if index < len(events) and events[index] == ("Any", has_capture):
                    search(refused_tries, refused_others, True, has_capture, has_capture, index + 1)
            elif has_capture:  # Berkeley+Any "Try", unheard: pawn tries until one is legal
                search(refused_tries, refused_others, True, True, True, index)
            elif events[index:index + possible] == ("No",) * possible:  # "No": heard as refusals
                search(refused_tries, refused_others, True, False, False, index + possible)

    search(0, 0, False, None, False, 0)
    return found


def events_of(actions: tuple) -> tuple:
    events: list = []
    for action in actions:
        if hasattr(action, "count"):
            events += ["No"] * action.count
        else:
            events.append(("Any", action.yes))
    return tuple(events)


# --- the belief -----------------------------------------------------------------------------
def brute_force_beliefs(game) -> list[set[int]]:
    """White's belief (as Polyglot hashes) before the first turn and after each
    turn of a game filtered for White (``ksolve.games.model.Game``)."""
    rules = game.rules
    boards = {chess.polyglot.zobrist_hash(b): b for b in [chess.Board(game.start_fen)]}
    history = [set(boards)]
    for turn in game.turns:
        heard = heard_of_code(turn.code, turn.extra, rules)
        new: dict[int, chess.Board] = {}
        for board in boards.values():
            if turn.white:
                ok = True
                for action in turn.actions:
                    if hasattr(action, "move"):
                        ok = ok and chess.Move.from_uci(action.move) not in board.legal_moves
                    else:
                        ok = ok and bool(legal_pawn_captures(board)) == action.yes
                move = chess.Move.from_uci(turn.move)
                candidates = [move] if ok and move in board.legal_moves else []
            else:
                candidates = sorted(feasible_moves(board, rules, events_of(turn.actions)), key=lambda m: m.uci())
            for move in candidates:
                if heard_of_move(board, move, rules) == heard:
                    after = board.copy(stack=False)
                    after.push(move)
                    new[chess.polyglot.zobrist_hash(after)] = after
        boards = new
        history.append(set(boards))
    return history
