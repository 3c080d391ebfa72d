"""The result table every search writes: proofs and disproofs of beliefs.

A White-to-move belief is identified by its digest, its size and the turn's
"Any?" state (``table_key``, the one place the key is built).  An ``Entry``
says the belief is won with ``proven`` moves or more (by the attempt
``move``) and lost with ``disproven`` moves or fewer.  Beliefs after White's
move (Black to reply) keep a plain verdict per number of moves.

>>> from ksolve.belief import BeliefState
>>> table = ResultTable()
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> table.slot(belief).proven = 1
>>> table.entry(belief).proven, table.entry(belief, 1)
(1, None)
"""

from __future__ import annotations

from dataclasses import dataclass

from ksolve.belief import BeliefState
from ksolve.rules.base import FRESH

UNPROVEN = 1 << 30

TableKey = tuple[int, int, int]


@dataclass
class Entry:
    """What the table knows of one belief: won with ``proven`` moves or more,
    lost with ``disproven`` moves or fewer, and the winning attempt."""

    proven: int = UNPROVEN
    disproven: int = 0
    move: int = -1


def table_key(belief: BeliefState, tag: int = FRESH) -> TableKey:
    """The key of a belief: its digest, its size and ``tag`` (White to move:
    the turn's state; after White's move: the moves left)."""
    return belief.key, len(belief), tag


class ResultTable:
    """Proofs and disproofs of White-to-move beliefs, and verdicts after White's move."""

    def __init__(self) -> None:
        self.white: dict[TableKey, Entry] = {}
        self.after_move: dict[TableKey, bool] = {}
        """(belief after White's move, moves left) -> whether White wins after every reply."""

    def entry(self, belief: BeliefState, state: int = FRESH) -> Entry | None:
        """The entry of a White-to-move belief, if any."""
        return self.white.get(table_key(belief, state))

    def slot(self, belief: BeliefState, state: int = FRESH) -> Entry:
        """The entry of a White-to-move belief, made empty if there was none."""
        key = table_key(belief, state)
        entry = self.white.get(key)
        if entry is None:
            entry = self.white[key] = Entry()
        return entry

    def after_move_result(self, belief: BeliefState, moves: int) -> bool | None:
        """The verdict on a belief after White's move with ``moves`` left, if known."""
        return self.after_move.get(table_key(belief, moves))

    def store_after_move(self, belief: BeliefState, moves: int, won: bool) -> None:
        self.after_move[table_key(belief, moves)] = won

    def __len__(self) -> int:
        return len(self.white) + len(self.after_move)
