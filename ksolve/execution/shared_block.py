"""The block of shared memory the worker processes of one proof share
(``ksolve.execution.workers``): control words (which search is current), the
result table (``ksolve.search.shared.SharedResults``) and the words of an
orthodox table.  The parent creates it; the workers attach to it by name.

>>> block = SharedBlock.create(workers=2, slots=1 << 10)
>>> block.results.put_white(12345, proven=3, disproven=1, move=700, work=9)
>>> block.results.white(12345), block.results.white(54321)
((3, 1, 700), None)
>>> search = block.next_search(); block.still_current(search); block.next_search() > search
True
>>> block.close()
"""

from __future__ import annotations

from multiprocessing import shared_memory

import numpy as np

from ksolve.search.memory import MAX_ORTHODOX_SLOTS
from ksolve.search.orthodox import OrthodoxTable
from ksolve.search.shared import HEADER_WORDS, SLOTS, SharedResults, Superseded


class SharedBlock:
    """The shared memory of one group of workers: control words, the result
    table and the words of an orthodox table (``OrthodoxTable.over``)."""

    def __init__(self, memory: shared_memory.SharedMemory, workers: int, slots: int, orthodox_slots: int,
                 owner: bool) -> None:
        self.memory, self.workers, self.slots, self.owner = memory, workers, slots, owner
        self.orthodox_slots = orthodox_slots
        words = np.ndarray((memory.size // 8,), dtype=np.uint64, buffer=memory.buf)
        self.control = words[:HEADER_WORDS]
        self.results = SharedResults(words[HEADER_WORDS:HEADER_WORDS + 2 * slots])
        start = HEADER_WORDS + 2 * slots
        self.orthodox = words[start:start + 2 * orthodox_slots]
        """The orthodox table's words: its position slots, then its move slots."""

    @classmethod
    def create(cls, workers: int, slots: int = SLOTS, orthodox_slots: int = MAX_ORTHODOX_SLOTS) -> "SharedBlock":
        """A new block (zeroed) for ``workers`` workers, ``slots`` result slots and an
        orthodox table of ``orthodox_slots`` (both powers of two)."""
        size = 8 * (HEADER_WORDS + 2 * slots + 2 * orthodox_slots)
        return cls(shared_memory.SharedMemory(create=True, size=size), workers, slots, orthodox_slots, owner=True)

    def orthodox_table(self, slots: int) -> OrthodoxTable:
        """The shared orthodox table of ``slots`` slots (at most the block's: every
        worker of the block must ask for the same number)."""
        slots = min(slots, self.orthodox_slots)
        return OrthodoxTable.over(self.orthodox[:2 * slots])

    @classmethod
    def attach(cls, name: str, workers: int, slots: int, orthodox_slots: int) -> "SharedBlock":
        """The block ``name`` that the process which spawned this one created.

        A spawned process shares its parent's resource tracker, where attaching
        registers the block's name once more (it is a set: no change), so the
        name is left registered: unregistering it here as well would make the
        creator's unlink unregister it twice, and the tracker print a
        ``KeyError`` traceback at the end of every run with workers."""
        return cls(shared_memory.SharedMemory(name=name), workers, slots, orthodox_slots, owner=False)

    @property
    def address(self) -> tuple[str, int, int, int]:
        """What ``attach`` needs."""
        return self.memory.name, self.workers, self.slots, self.orthodox_slots

    @property
    def current(self) -> int:
        """The number of the search every worker should be doing."""
        return int(self.control[0])

    def next_search(self) -> int:
        """Make a new search current (whatever the workers are doing is
        superseded); its number."""
        self.control[0] = np.uint64(self.current + 1)
        return self.current

    def still_current(self, search: int) -> None:
        """Raise ``Superseded`` once a search other than ``search`` has been made current."""
        if int(self.control[0]) != search:
            raise Superseded("superseded")

    def clear(self) -> None:
        """Forget every result and orthodox bound (before the workers take another
        problem: a result holds for one rule set and one stipulation's draws)."""
        self.results.slots[:] = 0
        self.orthodox[:] = 0

    def close(self) -> None:
        """Let go of the block (the creator also removes it)."""
        # The arrays are views of the buffer: drop them before closing it.
        del self.control, self.results, self.orthodox
        self.memory.close()
        if self.owner:
            self.memory.unlink()
