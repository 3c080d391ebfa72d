"""A slow, obviously-correct brute-force Kriegspiel problem solver on python-chess alone.

It shares no code with the solver: the referee (DOMAIN.md section 3) and the
initial beliefs are those of the independent certificate checker
(``ksolve.checker``, python-chess only), so that the prover can be checked
against them on small problems.

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

from collections import defaultdict

import chess

from ksolve.checker.problem import ProblemFileError, initial_positions
from ksolve.checker.referee import canonical, play

RULE_SETS = ("berkeley", "wild16", "cincinnati", "rand", "orthodox")
MATE, OTHER_END = "checkmate", "game over"


def to_board(epd: str) -> chess.Board:
    return chess.Board(epd + " 0 1")


# --- what the referee announces ------------------------------------------------
def announcement(board: chess.Board, move: chess.Move, rules: str) -> tuple[tuple | str, str]:
    """(what White hears when the side to move plays ``move``, EPD after it): the
    certificate checker's observation as canonical JSON, or ``(MATE,)`` /
    ``(OTHER_END,)`` when the game ends."""
    heard, after = play(board, move, rules)
    if heard.get("end") == "checkmate":
        return (MATE,), after.epd()
    if "end" in heard:
        return (OTHER_END,), after.epd()
    return canonical(heard), after.epd()


# --- the AND-OR search ---------------------------------------------------------
class BruteForce:
    def __init__(self, rules: str) -> None:
        assert rules in RULE_SETS, rules
        self.rules = rules
        self.moves_memo: dict[str, dict[chess.Move, tuple[tuple | str, str]]] = {}
        self.mates_memo: dict[str, tuple[set[chess.Move], set[chess.Move]]] = {}
        self.white_memo: dict[tuple[frozenset, int], bool] = {}
        self.black_memo: dict[tuple[frozenset, int], bool] = {}

    def outcomes(self, epd: str) -> dict[chess.Move, tuple[tuple | str, str]]:
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
def belief_from_hidden(fen: str, specs: list[str]) -> frozenset[str]:
    """Every legal placement of the hidden units ``PIECES:SQUARES`` (``q|r:e1``,
    ``p?:a-file``) on empty squares of ``fen``, as EPDs (the checker's enumeration)."""
    try:
        return frozenset(board.epd() for board in initial_positions(fen, specs))
    except ProblemFileError:  # no legal placement
        return frozenset()
