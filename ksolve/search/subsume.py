"""Proofs and disproofs reused between beliefs that contain one another.

A strategy that wins every position of a belief wins every position of a
smaller one (the referee's answers there are among those the strategy
meets), so White wins a *subset* of a proven belief with as many moves, and
loses a *superset* of a disproven one with as few.  The exact-match table
(``table.ResultTable``) sees none of this: after a "No" or in another move
order the belief differs by a few positions and is searched again.

``Subsumption`` indexes the decided beliefs by White's men and the turn's
state (beliefs that can contain one another have both in common).  Each
indexed belief keeps its hashes (``Hashes``: ascending, and as a set while
small), so a containment test costs O(n log n) at most in the beliefs' size
n, whatever else the index holds: a set test for small beliefs, a sorted
search (first on a sample, which rejects most non-members at once) for large
ones.  A group keeps its ``PER_GROUP`` most recent beliefs, and the index
holds at most ``capacity`` beliefs in all: dropping one costs time, never
correctness.  The prover reuses the disproofs only (``Prover.reused_result``
says why).

>>> from ksolve.belief import BeliefState
>>> from ksolve.search.entry import Entry
>>> index = Subsumption()
>>> big = BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"])
>>> small = BeliefState(big.positions[:5])
>>> index.note(big, 0, Entry(proven=8, move=42))
>>> index.lookup(small, 0, 8).move, index.lookup(small, 0, 7)
(42, None)
>>> index.note(small, 0, Entry(disproven=3))
>>> index.lookup(big, 0, 3).disproven, index.lookup(big, 0, 4)
(3, None)
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ksolve.belief import BeliefState
from ksolve.board.layout import COLUMN_BLACK
from ksolve.search.entry import UNPROVEN, Entry

PER_GROUP = 24
"""Decided beliefs kept per group (White's men and state), the most recent."""
SET_LIMIT = 512
"""Beliefs of at most this many positions are also kept as a set of hashes
(a set test is faster than a sorted search while small; a large set would
cost some 60 bytes a position)."""
SAMPLE = 64
"""Hashes of the inner belief looked up first in a sorted search."""
CHUNK = 1 << 20
"""Hashes looked up at once in a sorted search (its work arrays stay small)."""


@dataclass(frozen=True, slots=True)
class Hashes:
    """A belief's position hashes for containment tests: ascending, their
    count and range, and (``SET_LIMIT`` positions or fewer) as a set.

    >>> outer, inner = Hashes.of(np.arange(0, 2000, 2, dtype=np.uint64)), Hashes.of(np.array([4, 8], np.uint64))
    >>> inner.within(outer), outer.within(inner), Hashes.of(np.array([4, 9], np.uint64)).within(outer)
    (True, False, False)
    """

    array: np.ndarray
    size: int
    low: int
    high: int
    set: frozenset[int] | None

    @classmethod
    def of(cls, hashes: np.ndarray) -> Hashes:
        """The hashes (ascending, without duplicates: a belief's), copied."""
        array = np.array(hashes, dtype=np.uint64)
        size = len(array)
        return cls(array, size, int(array[0]) if size else 0, int(array[-1]) if size else 0,
                   frozenset(array.tolist()) if size <= SET_LIMIT else None)

    def within(self, outer: Hashes) -> bool:
        """Whether every hash of this belief is one of ``outer``'s."""
        if self.size > outer.size or (self.size and (self.low < outer.low or self.high > outer.high)):
            return False
        if self.set is not None and outer.set is not None:
            return self.set <= outer.set
        inner = self.array
        if self.size > SAMPLE and not _found(outer.array, inner[::self.size // SAMPLE]):
            return False
        return all(_found(outer.array, inner[start:start + CHUNK]) for start in range(0, self.size, CHUNK))


def _found(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether the ascending ``inner`` hashes, within ``outer``'s range, are all in ``outer``."""
    return bool(np.array_equal(outer[np.searchsorted(outer, inner)], inner))


class Subsumption:
    """Decided beliefs indexed for containment (see the module docstring)."""

    def __init__(self, capacity: int | None = None) -> None:
        self.groups: dict[tuple, OrderedDict[int, tuple[Hashes, Entry]]] = {}
        """(state, White's men) -> belief key -> (its hashes, its table entry, shared: later results show),
        the most recent last."""
        self.capacity = capacity
        self.size = 0
        self.hits = 0
        """Lookups answered by a containing or contained belief."""

    def note(self, belief: BeliefState, state: int, entry: Entry) -> None:
        """Index a belief whose ``entry`` holds a proof or a disproof."""
        if entry.proven >= UNPROVEN and entry.disproven <= 0 or not len(belief):
            return
        key = _group_key(belief, state)
        group = self.groups.get(key)
        if group is None:
            if self.capacity is not None and self.size >= self.capacity:
                self.shed()
            group = self.groups[key] = OrderedDict()
        if belief.key in group:
            group.move_to_end(belief.key)
            return
        group[belief.key] = (Hashes.of(belief.hashes), entry)
        self.size += 1
        if len(group) > PER_GROUP:
            group.popitem(last=False)
            self.size -= 1

    def lookup(self, belief: BeliefState, state: int, moves: int) -> Entry | None:
        """A proof (``proven <= moves``, with its first attempt) of a belief
        containing this one, or a disproof (``disproven >= moves``) of one it
        contains; None if the index holds neither."""
        group = self.groups.get(_group_key(belief, state)) if len(belief) else None
        if group is None:
            return None
        hashes = Hashes.of(belief.hashes)
        for indexed, entry in reversed(group.values()):
            if entry.proven <= moves and hashes.within(indexed):
                self.hits += 1
                return Entry(proven=entry.proven, move=entry.move)
            if entry.disproven >= moves and indexed.within(hashes):
                self.hits += 1
                return Entry(disproven=entry.disproven)
        return None

    def shed(self) -> bool:
        """Drop the older half of the groups; whether anything was dropped."""
        if not self.groups:
            return False
        keys = list(self.groups)
        for key in keys[:max(1, len(keys) // 2)]:
            self.size -= len(self.groups.pop(key))
        return True

    def __len__(self) -> int:
        return self.size


def _group_key(belief: BeliefState, state: int) -> tuple:
    """White's men (the first member's; a belief's members share them) and the state."""
    return state, belief.positions[0, :COLUMN_BLACK].tobytes()
