"""Where Black's men may stand in a belief: per man type, the number of
positions with such a man on each square, as a text grid and an SVG board.

>>> from ksolve.belief import BeliefState
>>> belief = BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"])
>>> counts = square_counts(belief)
>>> sorted(counts), int(counts["bishop"].sum()), int(counts["king"][7])
(['bishop', 'king', 'pawn'], 30, 30)
>>> print(heatmap_text(counts["bishop"], len(belief)).splitlines()[0])
8  .  1  .  1  .  1  .  1
"""

from __future__ import annotations

import chess
import chess.svg
import numpy as np

from ksolve.belief import BeliefState
from ksolve.board.layout import COLUMN_BLACK

def _shade(count: int, total: int) -> str:
    """``.`` never, ``#`` in every position, else the share in tenths (1-9, rounded up)."""
    if count == 0:
        return "."
    if count == total:
        return "#"
    return str(min(9, -(-10 * count // total)))


def square_counts(belief: BeliefState) -> dict[str, np.ndarray]:
    """Per black man type present in the belief: 64 counts (a1 = index 0)."""
    counts: dict[str, np.ndarray] = {}
    squares = np.arange(64, dtype=np.uint64)
    for piece in chess.PIECE_TYPES:
        column = belief.positions[:, COLUMN_BLACK + piece - 1]
        bits = (column[:, None] >> squares[None, :]) & np.uint64(1)
        grid = bits.sum(axis=0).astype(np.int64)
        if grid.any():
            counts[chess.piece_name(piece)] = grid
    return counts


def heatmap_text(grid: np.ndarray, total: int) -> str:
    """An 8x8 text board: ``#`` in every position, ``.`` in none, 1-9 the
    share of the positions in tenths."""
    lines = []
    for rank in range(7, -1, -1):
        lines.append(f"{rank + 1}  " + "  ".join(_shade(int(grid[rank * 8 + f]), total) for f in range(8)))
    lines.append("   " + "  ".join("abcdefgh"))
    return "\n".join(lines)


def heatmap_svg(counts: dict[str, np.ndarray], total: int, size: int = 240) -> str:
    """One small SVG board per black man type, squares filled by how often
    the man stands there (darker red: in more positions), in one SVG page."""
    boards = []
    for index, (name, grid) in enumerate(counts.items()):
        fill = {}
        for square in range(64):
            if grid[square]:
                alpha = 0.15 + 0.85 * float(grid[square]) / total
                fill[square] = f"rgba(200, 30, 30, {alpha:.2f})"
        svg = chess.svg.board(None, size=size, fill=fill, coordinates=True)
        svg = svg.replace("<svg ", f'<svg x="{index * (size + 20)}" y="24" ', 1)
        title = f'<text x="{index * (size + 20) + 4}" y="16" font-family="sans-serif" font-size="14">' \
                f"black {name}</text>"
        boards.append(title + svg)
    width = max(1, len(counts)) * (size + 20)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{width}" height="{size + 30}" viewBox="0 0 {width} {size + 30}">'
            + "".join(boards) + "</svg>\n")
