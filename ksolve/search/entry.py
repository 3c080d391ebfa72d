"""What a result table knows of one belief (``Entry``), apart from the tables
that hold it (``table.py``, ``subsume.py``).

>>> Entry(proven=3).proven, Entry().proven == UNPROVEN
(3, True)
"""

from __future__ import annotations

from dataclasses import dataclass

UNPROVEN = 1 << 30
"""``Entry.proven`` of a belief with no proof."""


@dataclass(slots=True)
class Entry:
    """What the table knows of one belief: won with ``proven`` moves or more,
    lost with ``disproven`` moves or fewer, and the winning attempt."""

    proven: int = UNPROVEN
    disproven: int = 0
    move: int = -1
