"""What the worker processes of one problem share (``ksolve.execution.workers``): the
proofs and disproofs they find, their orthodox bounds, and which search is current.

Both live in one block of shared memory (``ksolve.execution.shared_block``)
that the parent creates and the workers attach to by name:

- ``SharedResults``, a lockless hash table of results: a White turn proven
  within p moves (with the winning attempt) or disproven within d, and the
  verdicts after White's move.  A slot is two words, the entry's value and
  the value XOR its key; a reader takes a slot only when the two agree with
  the key it asks for, so a slot two processes wrote at once (a word of each)
  reads as empty, never as a wrong entry.  Results are facts (a proof within
  p holds for more moves, a disproof within d for fewer), so whoever finds
  one may use it; an entry lost to a collision costs only time.
- ``orthodox``: the words of an orthodox table (``OrthodoxTable``, one word
  a slot, written whole, so a reader never sees one position's key with
  another's result); its results are facts too.
- ``current``: the number of the search the workers should be doing; a
  worker whose search is no longer current stops it (``Superseded``), as the
  losers of a race on one proof do.

>>> results = SharedResults(np.zeros(2 << 10, dtype=np.uint64))
>>> results.put_white(12345, proven=3, disproven=1, move=700, work=9)
>>> results.white(12345), results.white(54321)
((3, 1, 700), None)
"""

from __future__ import annotations

import numpy as np

from ksolve.search.run import SearchAborted

MASK = (1 << 64) - 1
NO_MOVE = 0xFFFFFFFF
MOVE_OFFSET = 1 << 31
UNPROVEN_BYTE = 0xFF
HEADER_WORDS = 8
WHITE, AFTER_MOVE = 1, 2
SLOTS = 1 << 20
"""Result slots by default (16 MB)."""


class Superseded(SearchAborted):
    """The search this worker was doing is no longer wanted (another worker decided it)."""


def shared_key(digest: int, size: int, tag: int, kind: int) -> int:
    """A 64-bit key of a result-table key (``table.table_key``) and its kind.

    >>> shared_key(1, 2, 0, WHITE) != shared_key(1, 2, 0, AFTER_MOVE)
    True
    """
    key = digest ^ (size * 0xC2B2AE3D27D4EB4F) ^ ((tag + 16) * 0x165667B19E3779F9) ^ (kind * 0x27D4EB2F165667C5)
    key &= MASK
    key ^= key >> 29
    return (key * 0xBF58476D1CE4E5B9) & MASK or 1  # never 0: an empty slot would read as that key's


class SharedResults:
    """Proofs and disproofs in shared memory (see the module's docstring)."""

    def __init__(self, words: np.ndarray) -> None:
        self.slots = words.reshape(-1, 2)
        """Per slot: [value ^ key, value]."""
        self.mask = self.slots.shape[0] - 1

    def white(self, key: int) -> tuple[int, int, int] | None:
        """``(proven, disproven, move)`` of a White turn (proven ``UNPROVEN_BYTE``
        when only a disproof is known), or None."""
        value = self._read(key)
        if value is None:
            return None
        move_word = (value >> 16) & 0xFFFFFFFF
        return value & 0xFF, (value >> 8) & 0xFF, -1 if move_word == NO_MOVE else move_word - MOVE_OFFSET

    def put_white(self, key: int, proven: int, disproven: int, move: int, work: int) -> None:
        """Share a White turn's result (``proven`` past ``UNPROVEN_BYTE`` or a move
        that does not fit: only the disproof), merged with what the slot holds."""
        move_word = move + MOVE_OFFSET if -MOVE_OFFSET <= move < MOVE_OFFSET and proven < UNPROVEN_BYTE else NO_MOVE
        if move_word == NO_MOVE:
            proven = UNPROVEN_BYTE
        if proven == UNPROVEN_BYTE and disproven == 0:
            return
        known = self.white(key)
        if known is not None:
            if known[0] <= proven:
                proven, move_word = known[0], NO_MOVE if known[0] == UNPROVEN_BYTE else known[2] + MOVE_OFFSET
            disproven = max(disproven, known[1])
        self._write(key, proven | (min(disproven, 0xFF) << 8) | (move_word << 16), work)

    def after_move(self, key: int) -> bool | None:
        """The verdict after White's move (keyed with the moves left), or None."""
        value = self._read(key)
        return None if value is None else bool(value & 1)

    def put_after_move(self, key: int, won: bool, work: int) -> None:
        self._write(key, int(won), work)

    def _read(self, key: int) -> int | None:
        slot = self.slots[key & self.mask]
        check, value = int(slot[0]), int(slot[1])
        return value & ((1 << 48) - 1) if check ^ value == key else None

    def _write(self, key: int, value: int, work: int) -> None:
        """Write ``value`` (48 bits) with its work; a slot holding another key
        is taken unless its entry cost four times more work."""
        slot = self.slots[key & self.mask]
        old_check, old_value = int(slot[0]), int(slot[1])
        work = min(work, 0xFFFF)
        if old_check ^ old_value != key and old_value >> 48 > 4 * work:
            return
        value |= work << 48
        slot[0] = value ^ key
        slot[1] = value
