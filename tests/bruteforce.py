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
- Under the rule sets with "Any?" (``english``, ``berkeley-any``) White may
  also ask the question, once a turn, at any point of it before his legal
  move: first, or after any number of refused attempts.  The answer splits the
  belief: "No" goes on without the question; the yes ("Try" under
  Berkeley+Any, "Yes" under English) obliges pawn-capture attempts, under
  Berkeley+Any until one is legal, under English one at least (any diagonal
  pawn step on White's board, refused everywhere or not; its "No" ends the
  obligation).  Every order of attempts and the question is searched: nothing
  here assumes when asking is best.

>>> solver = BruteForce("berkeley")
>>> solver.wins(frozenset(["k7/8/1K6/8/8/8/8/7R w - -"]), 1)
True
"""

from __future__ import annotations

from collections import defaultdict

import chess

from ksolve.checker.problem import ProblemFileError, initial_positions
from ksolve.checker.referee import any_answer, canonical, is_pawn_capture_attempt, play

RULE_SETS = ("berkeley", "wild16", "cincinnati", "rand", "orthodox", "english", "berkeley-any")
MATE, OTHER_END = "checkmate", "game over"
ASK = "any"
"""White's choice of asking "Any?" (the UCI-like name ``ksolve verify`` gives it)."""
FRESH, ASKED, UNTIL_LEGAL, AT_LEAST_ONE = "fresh", "asked", "pawn captures until one is legal", "a pawn try"
"""A turn's state: "Any?" not asked yet; asked (and answered no, or the
obligation met); answered yes under Berkeley+Any; answered yes under English."""
OBLIGATION = {"berkeley-any": UNTIL_LEGAL, "english": AT_LEAST_ONE}


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


def pawn_capture_attempts(board: chess.Board) -> list[chess.Move]:
    """Every diagonal step of White's pawns onto a square his men do not hold
    (the four promotions on the last rank): the pawn captures he may try."""
    attempts = []
    for start in board.pieces(chess.PAWN, chess.WHITE):
        for target in chess.SquareSet(chess.BB_PAWN_ATTACKS[chess.WHITE][start] & ~board.occupied_co[chess.WHITE]):
            promotions = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT) if chess.square_rank(target) == 7 \
                else (None,)
            attempts.extend(chess.Move(start, target, promotion) for promotion in promotions)
    return sorted(attempts, key=chess.Move.uci)


# --- the AND-OR search ---------------------------------------------------------
class BruteForce:
    def __init__(self, rules: str) -> None:
        assert rules in RULE_SETS, rules
        self.rules = rules
        self.moves_memo: dict[str, dict[chess.Move, tuple[tuple | str, str]]] = {}
        self.mates_memo: dict[str, tuple[set[chess.Move], set[chess.Move]]] = {}
        self.white_memo: dict[tuple[frozenset, int, str], bool] = {}
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

    def wins(self, belief: frozenset[str], n: int, state: str = FRESH) -> bool:
        """White to move in every member of ``belief``, in a turn in ``state``: mate within ``n`` moves?"""
        if n < 1:
            return False
        key = (belief, n, state)
        if key not in self.white_memo:
            if n == 1 and any(not self.legal_and_mating(epd)[1] for epd in belief):
                return False  # shortcut: a position that no move mates can never be mated now
            self.white_memo[key] = any(self.choice_wins(belief, choice, n, state)
                                       for choice in self.choices(belief, state))
        return self.white_memo[key]

    def choices(self, belief: frozenset[str], state: str = FRESH) -> list[chess.Move | str]:
        """What White may do in a turn in ``state``: the attempts legal in some
        member (any other is refused everywhere and tells nothing), after a yes
        to "Any?" only pawn captures (under English every pawn-capture attempt,
        since even a refused one meets the obligation), and ``ASK``."""
        legal = {move for epd in belief for move in self.legal_and_mating(epd)[0]}
        board = to_board(next(iter(belief)))
        if state == UNTIL_LEGAL:
            return sorted((move for move in legal if is_pawn_capture_attempt(board, move)), key=chess.Move.uci)
        if state == AT_LEAST_ONE:
            return pawn_capture_attempts(board)
        choices: list[chess.Move | str] = sorted(legal, key=chess.Move.uci)
        if state == FRESH and self.rules in OBLIGATION:
            choices.append(ASK)
        return choices

    def choice_wins(self, belief: frozenset[str], choice: chess.Move | str, n: int, state: str = FRESH) -> bool:
        """Whether White wins within ``n`` whatever the answer when he makes ``choice`` now."""
        if choice == ASK:
            return self.ask_wins(belief, n)
        return self.attempt_wins(belief, choice, n, state)

    def ask_wins(self, belief: frozenset[str], n: int) -> bool:
        """"Any?" asked now: White wins after either answer."""
        yes = frozenset(epd for epd in belief if any_answer(to_board(epd)))
        no = belief - yes
        return ((not yes or self.wins(yes, n, OBLIGATION[self.rules]))
                and (not no or self.wins(no, n, ASKED)))

    def attempt_wins(self, belief: frozenset[str], move: chess.Move, n: int, state: str = FRESH) -> bool:
        refused = frozenset(epd for epd in belief if move not in self.legal_and_mating(epd)[0])
        after_refusal = ASKED if state == AT_LEAST_ONE else state
        if refused == belief and after_refusal == state:
            return False  # refused everywhere: the same turn again, nothing learnt
        if n == 1:  # every position where the move is legal must be mated
            mated = all(move in self.legal_and_mating(epd)[1] for epd in belief - refused)
            return mated and (not refused or self.wins(refused, n, after_refusal))
        classes: dict[tuple, set[str]] = defaultdict(set)  # n >= 2 from here on
        for epd in belief - refused:
            heard, after = self.outcomes(epd)[move]
            classes[heard].add(after)
        for heard, members in classes.items():
            if heard == (OTHER_END,):
                return False
            if heard != (MATE,) and not self.wins_after_black(frozenset(members), n - 1):
                return False
        return not refused or self.wins(refused, n, after_refusal)

    def keys(self, belief: frozenset[str], n: int) -> set[str]:
        """The first choices after which White wins within ``n`` (UCI, ``ASK`` for "Any?")."""
        return {choice if choice == ASK else choice.uci()
                for choice in self.choices(belief) if self.choice_wins(belief, choice, n)}

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
