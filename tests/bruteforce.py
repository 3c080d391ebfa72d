"""A slow, obviously-correct brute-force Kriegspiel problem solver on python-chess alone.

It shares no code with ``ksolve``: it re-implements DOMAIN.md sections 2-3 so
that the prover can be checked against it on small problems.

A belief is a frozenset of EPD strings (positions without move clocks), all
White to move.  ``BruteForce(rules).wins(belief, n)``: White wins within ``n``
legal moves whatever the position in ``belief`` and whatever Black plays.

- White picks an attempt: a move legal in at least one member.  Members where
  it is illegal form the "No" branch (same move number, smaller belief).
- Members where it is legal are played and grouped by announcement.  A
  checkmate class is won; any other game end loses; every other class needs
  ``n - 1 >= 1`` moves left and a win after every Black reply, replies grouped
  by what White hears of them.  A Black move that ends the game loses.

>>> solver = BruteForce("berkeley")
>>> solver.wins(frozenset(["k7/8/1K6/8/8/8/8/7R w - -"]), 1)
True
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import chess

RULE_SETS = ("berkeley", "wild16", "cincinnati", "rand", "orthodox")
MATE, OTHER_END = "checkmate", "game over"


def to_board(epd: str) -> chess.Board:
    return chess.Board(epd + " 0 1")


# --- what the referee announces ------------------------------------------------
def check_direction(king: int, checker: int, piece_type: int) -> str:
    """R(ank), F(ile), L(ong) or S(hort) diagonal, N(knight), seen from the king."""
    if piece_type == chess.KNIGHT:
        return "N"
    kf, kr = chess.square_file(king), chess.square_rank(king)
    f, r = chess.square_file(checker), chess.square_rank(checker)
    if r == kr:
        return "R"
    if f == kf:
        return "F"
    a1h8_length = 8 - abs(kf - kr)  # the diagonal on which file - rank is constant
    a8h1_length = 8 - abs(kf + kr - 7)  # the diagonal on which file + rank is constant
    on_a1h8 = f - r == kf - kr
    mine, other = (a1h8_length, a8h1_length) if on_a1h8 else (a8h1_length, a1h8_length)
    return "L" if mine > other else "S"


def game_over(board: chess.Board, rules: str) -> bool:
    """Stalemate or draw (checkmate is tested before)."""
    if not any(board.legal_moves):
        return True
    if rules == "berkeley":  # bare kings, or king + one knight/bishop against a bare king
        others = [p.piece_type for p in board.piece_map().values() if p.piece_type != chess.KING]
        return others == [] or others in ([chess.KNIGHT], [chess.BISHOP])
    return board.is_insufficient_material()


def pawn_captures(board: chess.Board) -> set[tuple[int, int]]:
    """(from, to) of the legal pawn captures of the side to move (promotions once)."""
    pawns = board.pawns & board.occupied_co[board.turn]
    return {(m.from_square, m.to_square) for m in board.generate_legal_moves(from_mask=pawns)
            if board.is_capture(m)}


def announcement(board: chess.Board, move: chess.Move, rules: str) -> tuple[tuple, str]:
    """(what White hears when the side to move plays ``move``, EPD after it)."""
    en_passant = board.is_en_passant(move)
    captured = (chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
                if en_passant else move.to_square if board.is_capture(move) else None)
    captured_type = board.piece_type_at(captured) if captured is not None else None
    board.push(move)
    try:
        after = board.epd()
        if board.is_checkmate():
            return (MATE,), after
        if game_over(board, rules):
            return (OTHER_END,), after
        if rules == "orthodox":
            return ("position", after), after
        king = board.king(board.turn)
        checks = tuple(sorted(check_direction(king, sq, board.piece_type_at(sq))
                              for sq in board.checkers()))
        heard = [captured, checks]
        if rules in ("wild16", "cincinnati", "rand") and captured is not None:
            heard.append("pawn" if captured_type == chess.PAWN else "piece")
        if rules == "wild16":
            heard.append(len(pawn_captures(board)))
        elif rules == "cincinnati":
            heard.append(bool(pawn_captures(board)))
        elif rules == "rand":
            heard.append(frozenset(frm for frm, _ in pawn_captures(board)))
            heard.append(move.promotion is not None)
        return tuple(heard), after
    finally:
        board.pop()


# --- the AND-OR search ---------------------------------------------------------
class BruteForce:
    def __init__(self, rules: str) -> None:
        assert rules in RULE_SETS, rules
        self.rules = rules
        self.moves_memo: dict[str, dict[chess.Move, tuple[tuple, str]]] = {}
        self.mates_memo: dict[str, tuple[set[chess.Move], set[chess.Move]]] = {}
        self.white_memo: dict[tuple[frozenset, int], bool] = {}
        self.black_memo: dict[tuple[frozenset, int], bool] = {}

    def outcomes(self, epd: str) -> dict[chess.Move, tuple[tuple, str]]:
        """Every legal move of the side to move -> (what White hears, EPD after)."""
        if epd not in self.moves_memo:
            board = to_board(epd)
            self.moves_memo[epd] = {move: announcement(board, move, self.rules) for move in board.legal_moves}
        return self.moves_memo[epd]

    def legal_and_mating(self, epd: str) -> tuple[set[chess.Move], set[chess.Move]]:
        """The legal moves and the mating moves (a shortcut for the last move)."""
        if epd not in self.mates_memo:
            board, mates = to_board(epd), set()
            for move in board.legal_moves:
                if board.gives_check(move):
                    board.push(move)
                    if board.is_checkmate():
                        mates.add(move)
                    board.pop()
            self.mates_memo[epd] = set(board.legal_moves), mates
        return self.mates_memo[epd]

    def wins(self, belief: frozenset[str], n: int) -> bool:
        """White to move in every member of ``belief``: mate within ``n`` moves?"""
        if n < 1:
            return False
        key = (belief, n)
        if key not in self.white_memo:
            if n == 1 and any(not self.legal_and_mating(epd)[1] for epd in belief):
                return False  # shortcut: a position that no move mates can never be mated now
            attempts = {move for epd in belief for move in self.legal_and_mating(epd)[0]}
            self.white_memo[key] = any(self.attempt_wins(belief, move, n) for move in attempts)
        return self.white_memo[key]

    def attempt_wins(self, belief: frozenset[str], move: chess.Move, n: int) -> bool:
        refused = frozenset(epd for epd in belief if move not in self.legal_and_mating(epd)[0])
        if n == 1:  # every position where the move is legal must be mated
            mated = all(move in self.legal_and_mating(epd)[1] for epd in belief - refused)
            return mated and (not refused or self.wins(refused, n))
        classes: dict[tuple, set[str]] = defaultdict(set)  # n >= 2 from here on
        for epd in belief - refused:
            heard, after = self.outcomes(epd)[move]
            classes[heard].add(after)
        for heard, members in classes.items():
            if heard == (OTHER_END,):
                return False
            if heard != (MATE,) and not self.wins_after_black(frozenset(members), n - 1):
                return False
        return not refused or self.wins(refused, n)

    def wins_after_black(self, belief: frozenset[str], n: int) -> bool:
        """Black to move in every member: does White win within ``n`` after every reply?"""
        key = (belief, n)
        if key not in self.black_memo:
            self.black_memo[key] = self._wins_after_black(belief, n)
        return self.black_memo[key]

    def _wins_after_black(self, belief: frozenset[str], n: int) -> bool:
        classes: dict[tuple, set[str]] = defaultdict(set)
        for epd in belief:
            for heard, after in self.outcomes(epd).values():
                if heard in ((MATE,), (OTHER_END,)):
                    return False
                classes[heard].add(after)
        return all(self.wins(frozenset(members), n) for members in classes.values())

    def solve(self, belief: frozenset[str], max_moves: int) -> int | None:
        return next((n for n in range(1, max_moves + 1) if self.wins(belief, n)), None)


# --- initial beliefs -------------------------------------------------------------
def parse_squares(text: str) -> list[int]:
    """``dark``, ``light``, ``any``, ``a-file``, ``rank-3`` or ``e2,e5``, joined with ``+``."""
    squares: set[int] = set()
    for part in text.split("+"):
        if part in ("dark", "light", "any"):
            mask = {"dark": chess.BB_DARK_SQUARES, "light": chess.BB_LIGHT_SQUARES, "any": chess.BB_ALL}[part]
            squares |= set(chess.SquareSet(mask))
        elif part.endswith("-file"):
            squares |= {chess.square(chess.FILE_NAMES.index(part[0]), r) for r in range(8)}
        elif part.startswith("rank-"):
            squares |= {chess.square(f, int(part[5:]) - 1) for f in range(8)}
        else:
            squares |= {chess.parse_square(name) for name in part.split(",")}
    return sorted(squares)


def belief_from_hidden(fen: str, specs: list[str]) -> frozenset[str]:
    """Every legal placement of the hidden units ``PIECES:SQUARES`` (``q|r:e1``,
    ``p?:a-file``) on empty squares of ``fen``: one king a side, no pawn on rank
    1 or 8, the side not to move not in check, at most two checkers."""
    options = []
    for spec in specs:
        pieces, squares = spec.split(":")
        choices = [(chess.Piece.from_symbol(symbol), square)
                   for symbol in pieces.rstrip("?").split("|") for square in parse_squares(squares)]
        options.append(choices + [None] if pieces.endswith("?") else choices)
    belief = set()
    for placement in itertools.product(*options):
        board = chess.Board(fen)
        placed = [p for p in placement if p is not None]
        if len({square for _, square in placed}) < len(placed) or any(board.piece_at(s) for _, s in placed):
            continue
        for piece, square in placed:
            board.set_piece_at(square, piece)
        kings_ok = all(len(board.pieces(chess.KING, color)) == 1 for color in chess.COLORS)
        pawns_ok = not board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8)
        if kings_ok and pawns_ok and not board.was_into_check() and len(board.checkers()) <= 2:
            belief.add(board.epd())
    return frozenset(belief)
