"""The brute-force reference (``bruteforce.py``) with stated conditions on Black's
play: moves Black will not play, always or at his reply to White's move ``at``.

Semantics, written here independently of ``ksolve.rules.conditions``: at
Black's reply to White's k-th move, every legal move whose UCI (or, for a
condition without a promotion letter, whose first four letters) a condition
holding at k names is left out; when that would leave no move, none is left
out.  What White hears is unchanged.  ``total`` fixes the stipulation, so
that ``wins(belief, n)`` knows which reply comes next (White's move
``total - n + 1``); use one instance per number of moves.

>>> solver = ConditionedBruteForce("berkeley", [(frozenset({"a8b8"}), None)], total=1)
>>> solver.wins(frozenset(["k7/8/1K6/8/8/8/8/7R w - -"]), 1)
True
"""

from __future__ import annotations

from collections import defaultdict

import chess

from bruteforce import MATE, OTHER_END, BruteForce, to_board

Conditions = list[tuple[frozenset[str], int | None]]


def excluded(move: chess.Move, conditions: Conditions, reply: int) -> bool:
    """Whether a condition holding at Black's ``reply`` names ``move``.

    >>> excluded(chess.Move.from_uci("e2e1q"), [(frozenset({"e2e1"}), 2)], 2)
    True
    >>> excluded(chess.Move.from_uci("e2e1q"), [(frozenset({"e2e1n"}), None)], 1)
    False
    """
    return any((at is None or at == reply) and (move.uci() in moves or move.uci()[:4] in moves)
               for moves, at in conditions)


class ConditionedBruteForce(BruteForce):
    """``BruteForce`` with Black's replies filtered by ``conditions`` (see the module)."""

    def __init__(self, rules: str, conditions: Conditions, total: int) -> None:
        super().__init__(rules)
        self.conditions, self.total = conditions, total

    def _wins_after_black(self, belief: frozenset[str], n: int) -> bool:
        reply = self.total - n  # Black answers White's move number total - n
        classes: dict[tuple, set[str]] = defaultdict(set)
        for epd in belief:
            outcomes = self.outcomes(epd)
            kept = [move for move in outcomes if not excluded(move, self.conditions, reply)] or list(outcomes)
            for move in kept:
                heard, after = outcomes[move]
                if heard in ((MATE,), (OTHER_END,)):
                    return False
                classes[heard].add(after)
        return all(self.wins(frozenset(members), n) for members in classes.values())


def black_moves(epd: str) -> list[str]:
    """Black's legal moves (UCI) in the position ``epd`` with Black to move instead."""
    board = to_board(epd)
    board.turn = chess.BLACK
    board.ep_square = None
    return sorted(move.uci() for move in board.legal_moves)
