"""Proofs and disproofs reused between beliefs that contain one another.

A strategy that wins every position of a belief wins every position of a
smaller one (the referee's answers there are among those the strategy
meets), so White wins a *subset* of a proven belief with as many moves, and
loses a *superset* of a disproven one with as few.  The exact-match table
(``table.ResultTable``) sees none of this: after a "No" or in another move
order the belief differs by a few positions and is searched again.

``Subsumption`` indexes the decided beliefs by White's men and the turn's
state (beliefs that can contain one another have both in common).  Inside a
group each belief is a bit mask over the positions the group has seen, so a
containment test is one integer operation.  A group keeps its ``PER_GROUP``
most recent beliefs, and the index holds at most ``capacity`` beliefs in
all: dropping one costs time, never correctness.  The prover reuses the
disproofs only (``Prover.reused_result`` says why).

>>> from ksolve.belief import BeliefState
>>> from ksolve.search.table import Entry
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

from ksolve.belief import BeliefState
from ksolve.board.layout import COLUMN_BLACK
from ksolve.search.table import UNPROVEN, Entry

PER_GROUP = 24
"""Decided beliefs kept per group (White's men and state), the most recent."""


class _Group:
    """The decided beliefs with the same White men and state, as bit masks."""

    __slots__ = ("bits", "beliefs")

    def __init__(self) -> None:
        self.bits: dict[int, int] = {}
        """Position hash -> its bit in the masks."""
        self.beliefs: OrderedDict[int, tuple[int, Entry]] = OrderedDict()
        """Belief key -> (mask, its table entry, shared: later results show)."""

    def mask(self, hashes: list[int], grow: bool) -> int | None:
        """The belief's mask; None if a position is new and ``grow`` is false
        (the belief then is a subset of no indexed belief)."""
        mask = 0
        bits = self.bits
        for h in hashes:
            bit = bits.get(h)
            if bit is None:
                if not grow:
                    return None
                bit = bits[h] = len(bits)
            mask |= 1 << bit
        return mask


class Subsumption:
    """Decided beliefs indexed for containment (see the module docstring)."""

    def __init__(self, capacity: int | None = None) -> None:
        self.groups: dict[tuple, _Group] = {}
        self.capacity = capacity
        self.size = 0
        self.hits = 0
        """Lookups answered by a containing or contained belief."""

    def note(self, belief: BeliefState, state: int, entry: Entry) -> None:
        """Index a belief whose ``entry`` holds a proof or a disproof."""
        if entry.proven >= UNPROVEN and entry.disproven <= 0 or not len(belief):
            return
        group = self.groups.get(_group_key(belief, state))
        if group is None:
            if self.capacity is not None and self.size >= self.capacity:
                self.shed()
            group = self.groups[_group_key(belief, state)] = _Group()
        if belief.key in group.beliefs:
            group.beliefs.move_to_end(belief.key)
            return
        group.beliefs[belief.key] = (group.mask(belief.hashes.tolist(), grow=True), entry)
        self.size += 1
        if len(group.beliefs) > PER_GROUP:
            group.beliefs.popitem(last=False)
            self.size -= 1

    def lookup(self, belief: BeliefState, state: int, moves: int) -> Entry | None:
        """A proof (``proven <= moves``, with its first attempt) of a belief
        containing this one, or a disproof (``disproven >= moves``) of one it
        contains; None if the index holds neither."""
        group = self.groups.get(_group_key(belief, state)) if len(belief) else None
        if group is None:
            return None
        hashes = belief.hashes.tolist()
        inside = group.mask(hashes, grow=False)  # None: it holds a position no indexed belief holds
        # its positions that indexed beliefs hold, where a contained belief must fit
        present = inside if inside is not None else group.mask([h for h in hashes if h in group.bits], grow=False)
        for mask, entry in reversed(group.beliefs.values()):
            if inside is not None and entry.proven <= moves and inside & ~mask == 0:
                self.hits += 1
                return Entry(proven=entry.proven, move=entry.move)
            if entry.disproven >= moves and mask & ~present == 0:
                self.hits += 1
                return Entry(disproven=entry.disproven)
        return None

    def shed(self) -> bool:
        """Drop the older half of the groups; whether anything was dropped."""
        if not self.groups:
            return False
        keys = list(self.groups)
        for key in keys[:max(1, len(keys) // 2)]:
            self.size -= len(self.groups.pop(key).beliefs)
        return True

    def __len__(self) -> int:
        return self.size


def _group_key(belief: BeliefState, state: int) -> tuple:
    """White's men (the first member's; a belief's members share them) and the state."""
    return state, belief.positions[0, :COLUMN_BLACK].tobytes()

