"""Modern Kriegspiel (Trone 1986): Berkeley announcements plus probes.

In Modern Kriegspiel a player names up to seven squares and the referee
shows what stands on them.  ksolve gives White the probe at the start of
each of his turns, before his first attempt (so also before move 1): the
squares are looked at in the position he is about to move in, once per
turn; a refused attempt does not give another probe.  The number of squares
is the problem's ``probes = k`` (1 to 7; 7 by default).

In the search a turn with probes left is an OR over *probe sets*, each an AND
over the *answers* (the contents seen): ``probe_sets`` generates them,
``probe_answers`` splits a belief by the contents of a set.  Generating every
k-subset of 64 squares is impossible and needless; the pruning below loses
nothing.

**Why the pruning is exact.**  Write ``P(S)`` for the partition of the belief
``B`` by the contents of the squares ``S``, and call ``P(S)`` *finer* than
``P(T)`` when every class of ``P(S)`` lies inside a class of ``P(T)``.

1. *Monotonicity.*  A strategy that wins a belief wins every subset of it
   (it meets a subset of each class it met).  So if ``P(S)`` is finer than
   ``P(T)``, probing ``S`` wins whenever probing ``T`` does: each class of
   ``S`` lies in a class of ``T``, which ``T``'s strategy wins.  Probing is
   also never worse than not probing (``P(S)`` is finer than ``{B}``), so a
   turn that can learn something (``B`` differs on some square) only probes.
2. *Squares where every position agrees* split nothing: ``P(S) = P(S ∩ D)``
   with ``D`` the squares on which the positions differ.  Only ``D`` is used,
   and of squares with the same partition (a hidden king's two remaining
   squares, say) one is kept.
3. *A redundant square* ``s`` of ``S`` (one with ``P(S - {s}) = P(S)``)
   makes ``S`` no better than a smaller set.  Adding squares in ascending
   order and keeping only additions that split a class, every partition a
   set of at most k squares can make is made by one of the sets generated:
   drop from any set, in order, each square that splits nothing more; what
   is left is generated and has the same partition.
4. *Smaller sets* are dominated: a generated set of fewer than k squares
   that some square still refines is coarser than that extension, and the
   extension's partition is again made by a generated set (3), strictly
   finer; this ends at a set of k squares or at the finest partition
   ``P(D)``.  A set reaching ``P(D)`` dominates every other set, so it is
   then the only one kept.
5. *Coarser partitions* are dropped: of the generated sets of k squares
   only those whose partition no other's refines are kept (one per
   partition).

The sets kept are ordered by how evenly they split the belief (smallest
largest class first, then most classes).  A turn with more than
``MAX_PROBE_SETS`` undominated sets is beyond an exact search: the search
stops there as unknown (``TooManyProbeSets``) rather than guess.

>>> from ksolve.belief import BeliefState
>>> rules = modern_rules(2)
>>> belief = BeliefState.from_hidden("7k/8/6K1/8/8/8/8/R7 w - - 0 1", ["p:a7,b7,c7"])
>>> [probe_words(mask) for mask in rules.probe_sets(belief.positions)]
['a7, b7']
>>> [rules.describe_probe(key, 3 << 48) for key, _ in belief.split(rules.probe_answers(belief.positions, 3 << 48))]
['a7 empty, b7 empty', 'a7 black pawn, b7 empty', 'a7 empty, b7 black pawn']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import chess
import numpy as np

from ksolve.board.layout import COLUMN_BLACK
from ksolve.rules.base import FRESH, PROBED, TooManyProbeSets
from ksolve.rules.kernels import INSUFFICIENT_BARE
from ksolve.rules.kriegspiel import KriegspielRules

MAX_PROBES = 7
"""The most squares a probe names (Trone's rule)."""
MAX_PROBE_SETS = 4000
"""Undominated probe sets one turn may have before the search gives up on it."""
_PIECES = 12
"""Key columns of a probe answer: each man's bitboard restricted to the squares probed."""


@dataclass(frozen=True, repr=False)
class ModernRules(KriegspielRules):
    """Berkeley with White's probe of ``probes`` squares at the start of each turn."""

    probes: int = MAX_PROBES
    kriegspiel_games: bool = False  # a game's probes have no Kriegspiel PGN

    def probe_sets(self, positions: np.ndarray, state: int = FRESH) -> list[int]:
        if state != FRESH or not len(positions):
            return []
        return probe_sets(positions, self.probes)

    def with_probes(self, count: int) -> "ModernRules":
        return modern_rules(count)

    def state_after_refusal(self, state: int) -> int:
        """A refused attempt ends the probing: the probe comes before the first attempt."""
        return PROBED if state == FRESH else state

    def probe_answers(self, positions: np.ndarray, mask: int) -> np.ndarray:
        return np.ascontiguousarray(positions[:, :_PIECES] & np.uint64(mask))

    def describe_probe(self, key: np.ndarray, mask: int) -> str:
        contents = probe_contents(key, mask)
        return ", ".join(f"{square} {_piece_words(symbol)}" for square, symbol in contents.items())

    def probe_json(self, key: np.ndarray, mask: int) -> dict[str, Any]:
        return probe_contents(key, mask)


def modern_rules(probes: int = MAX_PROBES) -> ModernRules:
    """The ``modern`` rule set with ``probes`` squares per probe (1 to 7).

    >>> modern_rules(3).probes, modern_rules(3).name
    (3, 'modern')
    """
    if not 1 <= probes <= MAX_PROBES:
        raise ValueError(f"a probe names 1 to {MAX_PROBES} squares, not {probes}")
    if probes == MAX_PROBES:
        return RULE_SETS["modern"]
    return replace(RULE_SETS["modern"], probes=probes, title=f"{RULE_SETS['modern'].title}, {probes} squares a probe")


# --- what a probe shows ------------------------------------------------------------
def probe_contents(key: np.ndarray, mask: int) -> dict[str, str | None]:
    """The squares of ``mask`` and what stands there (a python-chess symbol, None: empty).

    >>> probe_contents(np.array([0] * 8 + [1 << 9] + [0] * 3, dtype=np.uint64), 1 << 9 | 1)
    {'a1': None, 'b2': 'b'}
    """
    contents: dict[str, str | None] = {}
    for square in chess.scan_forward(mask):
        contents[chess.square_name(square)] = None
        for column in range(_PIECES):
            if int(key[column]) >> square & 1:
                color = chess.WHITE if column < COLUMN_BLACK else chess.BLACK
                contents[chess.square_name(square)] = chess.Piece(column % 6 + 1, color).symbol()
    return contents


def probe_words(mask: int) -> str:
    """The squares of a probe in words: ``a7, b7``."""
    return ", ".join(chess.square_name(square) for square in chess.scan_forward(mask))


def _piece_words(symbol: str | None) -> str:
    if symbol is None:
        return "empty"
    piece = chess.Piece.from_symbol(symbol)
    return f"{'white' if piece.color else 'black'} {chess.piece_name(piece.piece_type)}"


# --- the probe sets worth trying ------------------------------------------------------
def differing_squares(positions: np.ndarray) -> int:
    """The squares on which the positions do not all agree (a bitboard).

    >>> from ksolve.belief import BeliefState
    >>> belief = BeliefState.from_hidden("7k/8/6K1/8/8/8/8/R7 w - - 0 1", ["p:a7,b7"])
    >>> probe_words(differing_squares(belief.positions))
    'a7, b7'
    """
    men = positions[:, :_PIECES]
    return int(np.bitwise_or.reduce((men ^ men[0]).ravel())) if len(positions) else 0


def square_contents(positions: np.ndarray, squares: list[int]) -> np.ndarray:
    """``(positions, squares)`` codes of what stands there: 0 empty, 1 + column of the man."""
    codes = np.zeros((len(positions), len(squares)), dtype=np.int64)
    for j, square in enumerate(squares):
        bits = (positions[:, :_PIECES] >> np.uint64(square)) & np.uint64(1)
        codes[:, j] = (bits.astype(np.int64) * np.arange(1, _PIECES + 1)).sum(axis=1)
    return codes


def _labels(values: np.ndarray) -> np.ndarray:
    """Class labels numbered by first appearance (equal partitions give equal labels)."""
    _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    return order[inverse.ravel()]


def _finer_or_equal(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether partition ``a`` refines partition ``b`` (labels per position)."""
    pairs = np.unique(a * (int(b.max()) + 1) + b)
    return len(pairs) == int(a.max()) + 1


def probe_sets(positions: np.ndarray, k: int) -> list[int]:
    """The undominated probe sets of at most ``k`` squares (bitboards), most
    even split first; [] when every position agrees on every square.
    Raises ``TooManyProbeSets`` past ``MAX_PROBE_SETS``.

    >>> from ksolve.belief import BeliefState
    >>> belief = BeliefState.from_hidden("7k/8/6K1/8/8/8/8/R7 w - - 0 1", ["p:a7,b7,c7"])
    >>> [probe_words(mask) for mask in probe_sets(belief.positions, 1)]
    ['a7', 'b7', 'c7']
    """
    squares = list(chess.scan_forward(differing_squares(positions)))
    if not squares:
        return []
    codes = square_contents(positions, squares)
    kept, seen = [], set()
    for j, square in enumerate(squares):  # one square per partition
        labels = _labels(codes[:, j])
        signature = labels.tobytes()
        if signature not in seen:
            seen.add(signature)
            kept.append((square, labels))
    finest = _labels(np.unique(codes, axis=0, return_inverse=True)[1].ravel())
    finest_count = int(finest.max()) + 1
    if len(kept) <= k:
        return [sum(1 << square for square, _ in kept)]
    found: list[tuple[int, np.ndarray]] = []

    def extend(start: int, mask: int, labels: np.ndarray, size: int) -> int | None:
        """Depth-first over non-redundant additions; a mask reaching the finest partition, if any."""
        count = int(labels.max()) + 1
        if count == finest_count:
            return mask
        if size == k:
            found.append((mask, labels))
            if len(found) > MAX_PROBE_SETS:
                raise TooManyProbeSets(f"more than {MAX_PROBE_SETS:,} undominated probe sets of {k} squares "
                                       f"in a belief of {len(positions):,} positions")
            return None
        for index in range(start, len(kept)):
            square, square_labels = kept[index]
            joined = _labels(labels * (int(square_labels.max()) + 1) + square_labels)
            if int(joined.max()) + 1 > count:
                best = extend(index + 1, mask | 1 << square, joined, size + 1)
                if best is not None:
                    return best
        return None

    best = extend(0, 0, np.zeros(len(positions), dtype=np.int64), 0)
    if best is not None:
        return [best]
    undominated = _maximal(found)
    undominated.sort(key=lambda item: (int(np.bincount(item[1]).max()), -int(item[1].max()), item[0]))
    return [mask for mask, _ in undominated]


def _maximal(found: list[tuple[int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    """The sets whose partition no other set's strictly refines, one per partition."""
    by_partition: dict[bytes, tuple[int, np.ndarray]] = {}
    for mask, labels in found:
        by_partition.setdefault(labels.tobytes(), (mask, labels))
    items = sorted(by_partition.values(), key=lambda item: -int(item[1].max()))
    kept: list[tuple[int, np.ndarray]] = []
    for mask, labels in items:  # most classes first: a strictly finer partition has more
        classes = int(labels.max())
        if not any(int(other.max()) > classes and _finer_or_equal(other, labels) for _, other in kept):
            kept.append((mask, labels))
    return kept


RULE_SETS = {
    "modern": ModernRules("modern", "Modern Kriegspiel (Trone 1986)", insufficient=INSUFFICIENT_BARE),
}
