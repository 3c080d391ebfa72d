"""The result table every search writes: proofs and disproofs of beliefs.

A White-to-move belief is identified by its digest, its size and the turn's
"Any?" state (``table_key``, the one place the key is built).  An ``Entry``
says the belief is won with ``proven`` moves or more (by the attempt
``move``) and lost with ``disproven`` moves or fewer.  Beliefs after White's
move (Black to reply) keep a plain verdict per number of moves.

Each result is kept with its *work*, the search nodes it took: a table with
a capacity (``WorkCache``), when full, drops the entries that took least work
first (they are the cheapest to find again), so a search within a memory
budget keeps the proofs that save it most.  A dropped entry costs time,
never correctness: whoever needs it searches again.

>>> from ksolve.belief import BeliefState
>>> table = ResultTable()
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> table.store(belief, FRESH, Entry(proven=1), work=3)
>>> table.entry(belief).proven, table.entry(belief, 1)
(1, None)
"""

from __future__ import annotations

from typing import Generic, Hashable, TypeVar

import numpy as np

from ksolve.belief import BeliefState
from ksolve.rules.base import FRESH
from ksolve.search.entry import UNPROVEN, Entry
from ksolve.search.shared import AFTER_MOVE, UNPROVEN_BYTE, WHITE, SharedResults, shared_key
from ksolve.search.subsume import Subsumption

KEEP_SHARE = 0.5
"""The share of a full table's entries kept when it sheds: those that cost most work."""

TableKey = tuple[int, int, int]
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def table_key(belief: BeliefState, tag: int = FRESH) -> TableKey:
    """The key of a belief: its digest, its size and ``tag`` (White to move:
    the turn's state; after White's move: the moves left)."""
    return belief.key, len(belief), tag


def shed_cheapest(items: dict[K, tuple], keep: float = KEEP_SHARE) -> dict[K, tuple]:
    """The ``keep`` share of ``items`` that cost most work, each item a tuple
    whose last element is its work (ties at the cut are dropped).

    >>> shed_cheapest({"a": (1, 5), "b": (2, 1), "c": (3, 9), "d": (4, 2)})
    {'a': (1, 5), 'c': (3, 9)}
    """
    count = len(items)
    kept = int(count * keep)
    if count == 0 or kept >= count:
        return items
    works = np.fromiter((item[-1] for item in items.values()), dtype=np.int64, count=count)
    cut = np.partition(works, count - kept - 1)[count - kept - 1]
    return {key: item for key, item in items.items() if item[-1] > cut}


class WorkCache(Generic[K, V]):
    """A dict of values with the work each cost; past ``capacity`` entries
    (None: no bound) it sheds the cheapest.

    >>> cache = WorkCache(capacity=2)
    >>> cache.put("a", 1, work=5); cache.put("b", 2, work=1); cache.put("c", 3, work=9)
    >>> sorted(cache.items), cache.dropped
    (['a', 'c'], 1)
    """

    def __init__(self, capacity: int | None = None) -> None:
        self.items: dict[K, tuple[V, int]] = {}
        self.capacity = capacity
        self.dropped = 0
        """Entries shed so far."""

    def get(self, key: K) -> V | None:
        item = self.items.get(key)
        return None if item is None else item[0]

    def work(self, key: K) -> int:
        """The work recorded for ``key`` (0 if absent; an item's last element)."""
        item = self.items.get(key)
        return 0 if item is None else item[-1]

    def put(self, key: K, value: V, work: int) -> None:
        """Keep ``value`` with its ``work``, shedding first if the cache is full."""
        if self.capacity is not None and len(self.items) >= self.capacity and key not in self.items:
            self.shed()
        self.items[key] = (value, work)

    def shed(self, keep: float = KEEP_SHARE) -> bool:
        """Keep the ``keep`` share of the entries that cost most work (ties at
        the cut are dropped); whether anything was dropped."""
        count = len(self.items)
        self.items = shed_cheapest(self.items, keep)
        self.dropped += count - len(self.items)
        return len(self.items) < count

    def __len__(self) -> int:
        return len(self.items)


class ResultTable:
    """Proofs and disproofs of White-to-move beliefs, and verdicts after White's
    move, within ``capacity`` entries in all (None: no bound)."""

    def __init__(self, capacity: int | None = None) -> None:
        half = None if capacity is None else max(1, capacity // 2)
        self.white: WorkCache[TableKey, Entry] = WorkCache(half)
        self.after_move: WorkCache[TableKey, bool] = WorkCache(half)
        """(belief after White's move, moves left) -> whether White wins after every reply."""
        self.subsumption = Subsumption(half)
        """Decided beliefs indexed for containment (``contained``)."""
        self.shared: SharedResults | None = None
        """Results shared with other worker processes of the same proof
        (``ksolve.search.shared``): every result is written there too, and what
        they found is merged in whenever an entry is looked up."""

    def entry(self, belief: BeliefState, state: int = FRESH) -> Entry | None:
        """The entry of a White-to-move belief, if any."""
        key = table_key(belief, state)
        entry = self.white.get(key)
        if self.shared is not None:
            found = self.shared.white(shared_key(*key, WHITE))
            if found is not None:
                proven, disproven, move = found
                proven = UNPROVEN if proven == UNPROVEN_BYTE else proven
                if entry is None:
                    entry = Entry(proven, disproven, move)
                    self.white.put(key, entry, 1)
                    self.subsumption.note(belief, state, entry)
                else:
                    if proven < entry.proven:
                        entry.proven, entry.move = proven, move
                    entry.disproven = max(entry.disproven, disproven)
        return entry

    def store(self, belief: BeliefState, state: int, entry: Entry, work: int) -> None:
        """Keep ``entry`` for a White-to-move belief, with the ``work`` (search
        nodes) it has cost now added to what it cost before."""
        key = table_key(belief, state)
        self.white.put(key, entry, work + self.white.work(key))
        self.subsumption.note(belief, state, entry)
        if self.shared is not None:
            self.shared.put_white(shared_key(*key, WHITE), min(entry.proven, UNPROVEN_BYTE), entry.disproven,
                                  entry.move, work)

    def contained(self, belief: BeliefState, state: int, moves: int) -> Entry | None:
        """A proof within ``moves`` of a belief containing this one, or a
        disproof of one it contains (``subsume.Subsumption``), if indexed."""
        return self.subsumption.lookup(belief, state, moves)

    def after_move_result(self, belief: BeliefState, moves: int) -> bool | None:
        """The verdict on a belief after White's move with ``moves`` left, if known."""
        key = table_key(belief, moves)
        known = self.after_move.get(key)
        if known is None and self.shared is not None:
            known = self.shared.after_move(shared_key(*key, AFTER_MOVE))
        return known

    def store_after_move(self, belief: BeliefState, moves: int, won: bool, work: int) -> None:
        key = table_key(belief, moves)
        self.after_move.put(key, won, work)
        if self.shared is not None:
            self.shared.put_after_move(shared_key(*key, AFTER_MOVE), won, work)

    def shed(self) -> bool:
        """Drop the cheapest half of each part; whether anything was dropped."""
        return any([self.white.shed(), self.after_move.shed(), self.subsumption.shed()])

    @property
    def dropped(self) -> int:
        """Entries dropped to stay within the capacity."""
        return self.white.dropped + self.after_move.dropped

    def __len__(self) -> int:
        return len(self.white) + len(self.after_move)
