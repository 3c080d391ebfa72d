"""The brute-force reference (``bruteforce.py``) with Modern Kriegspiel probes.

Semantics, written here independently of ``ksolve.rules.modern``: at the
start of each of his turns, before his first attempt, White may name a set of
at most ``k`` squares, *any* of the 64 (the empty set: no probe); the
positions split by what stands on those squares, and White must win every
part, with no further probe that turn (a "No" keeps the turn without a new
probe).  The announcements are Berkeley's.  No pruning of the probe sets:
every subset of the board is tried, so that ksolve's generation of
undominated sets is checked against all of them.

>>> solver = ProbesBruteForce(1)
>>> belief = frozenset(["k7/8/2K5/8/8/8/8/3R4 w - -", "1k6/8/2K5/8/8/8/8/3R4 w - -", "2k5/8/2K5/8/8/8/8/3R4 w - -"])
>>> solver.wins(belief, 2), BruteForce("berkeley").wins(belief, 2)
(True, False)
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import chess

from bruteforce import MATE, OTHER_END, BruteForce, to_board


class ProbesBruteForce(BruteForce):
    """``BruteForce`` under Berkeley with a probe of at most ``k`` squares at each turn's start."""

    def __init__(self, k: int, squares: list[int] | None = None) -> None:
        super().__init__("berkeley")
        squares = list(chess.SQUARES) if squares is None else squares
        self.probe_sets = [frozenset(c) for size in range(k + 1) for c in combinations(squares, size)]
        self.fresh_memo: dict[tuple[frozenset, int], bool] = {}
        self.contents_memo: dict[str, dict[int, str]] = {}

    def contents(self, epd: str) -> dict[int, str]:
        """What stands where in ``epd`` (square -> symbol)."""
        if epd not in self.contents_memo:
            self.contents_memo[epd] = {square: piece.symbol() for square, piece in to_board(epd).piece_map().items()}
        return self.contents_memo[epd]

    def probe_classes(self, belief: frozenset[str], probe: frozenset[int]) -> list[frozenset[str]]:
        """``belief`` split by what the squares of ``probe`` show."""
        classes: dict[tuple, set[str]] = defaultdict(set)
        for epd in belief:
            seen = self.contents(epd)
            classes[tuple(seen.get(square) for square in sorted(probe))].add(epd)
        return [frozenset(members) for members in classes.values()]

    def wins(self, belief: frozenset[str], n: int) -> bool:
        """A fresh turn: some probe (or none) after which every part is won."""
        if n < 1:
            return False
        key = (belief, n)
        if key not in self.fresh_memo:
            self.fresh_memo[key] = any(all(self.probed_wins(part, n) for part in self.probe_classes(belief, probe))
                                       for probe in self.probe_sets)
        return self.fresh_memo[key]

    def probed_wins(self, belief: frozenset[str], n: int) -> bool:
        """The turn after its probe: attempts only (``BruteForce.wins``)."""
        return BruteForce.wins(self, belief, n)

    def attempt_wins(self, belief: frozenset[str], move: chess.Move, n: int, state: str = "fresh") -> bool:
        """As ``BruteForce.attempt_wins`` (Berkeley: ``state`` stays fresh), the "No"
        branch a probed turn (no probe before the next turn)."""
        refused = frozenset(epd for epd in belief if move not in self.legal_and_mating(epd)[0])
        if n == 1:
            mated = all(move in self.legal_and_mating(epd)[1] for epd in belief - refused)
            return mated and (not refused or self.probed_wins(refused, n))
        classes: dict[tuple, set[str]] = defaultdict(set)
        for epd in belief - refused:
            heard, after = self.outcomes(epd)[move]
            classes[heard].add(after)
        for heard, members in classes.items():
            if heard == (OTHER_END,):
                return False
            if heard != (MATE,) and not self.wins_after_black(frozenset(members), n - 1):
                return False
        return not refused or self.probed_wins(refused, n)
