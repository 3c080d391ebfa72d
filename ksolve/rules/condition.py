"""A stated condition on Black's play, as a problem file states it (light: no
numpy, so that reading a problem loads no kernels; ``rules/conditions.py``
applies it in the search).

>>> Condition(frozenset({"c8b7"}), at=2).text()
'Black will not play c8b7 at his move 2'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Condition:
    """Moves Black will not play: always (``at`` None) or in his reply to White's ``at``-th move."""

    moves: frozenset[str]
    """UCI moves (``c8b7``; castling as the king's move ``e8g8``; ``e2e1q`` names the promotion)."""
    at: int | None = None
    note: str = ""

    def text(self) -> str:
        """The condition in words.

        >>> Condition(frozenset({"c8b7", "c8a6"})).text()
        'Black will not play c8a6 or c8b7'
        """
        moves = sorted(self.moves)
        words = ", ".join(moves[:-1]) + " or " + moves[-1] if len(moves) > 1 else moves[0]
        when = f" at his move {self.at}" if self.at is not None else ""
        return f"Black will not play {words}{when}"
