"""Whether some game reaches a position, by the problem world's static
counts, on python-chess alone (``docs/guide/problem-format.md``, "Positions
no game reaches"): the checker's own reading of the rule, sharing no code
with ``ksolve.retro``.

For each side: the men beyond the first army (queens over one, rooks and
knights over two, bishops over one per square colour, and every bishop of a
colour whose home bishop is shut in by the two unmoved pawns beside its home
square) are promoted, one missing pawn each; and the pawns, each from a file
of its own, at most one file per step forward and one capture per file,
need no more captures than the other side has men missing.

>>> reachable(chess.Board("4k3/8/p4pp1/1p1pp2p/2p5/2bN4/R7/b4K2 w - - 0 1"))
False
>>> reachable(chess.Board("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"))
True
"""

from __future__ import annotations

from functools import lru_cache

import chess

# (side, square colour mask) -> (home square, the pawns that shut it in)
_SHUT_IN = {
    (chess.WHITE, chess.BB_DARK_SQUARES): (chess.C1, chess.B2, chess.D2),
    (chess.WHITE, chess.BB_LIGHT_SQUARES): (chess.F1, chess.E2, chess.G2),
    (chess.BLACK, chess.BB_LIGHT_SQUARES): (chess.C8, chess.B7, chess.D7),
    (chess.BLACK, chess.BB_DARK_SQUARES): (chess.F8, chess.E7, chess.G7),
}


def reachable(board: chess.Board) -> bool:
    """True unless the counts of either side rule out every game (see the module doc)."""
    return all(_promotions(board, side) <= 8 - len(board.pieces(chess.PAWN, side))
               and _captures(board, side) <= 16 - chess.popcount(board.occupied_co[not side])
               for side in chess.COLORS)


def _promotions(board: chess.Board, side: chess.Color) -> int:
    """The men of ``side`` that only a promotion explains."""
    promoted = sum(max(0, len(board.pieces(piece, side)) - first)
                   for piece, first in ((chess.QUEEN, 1), (chess.ROOK, 2), (chess.KNIGHT, 2)))
    pawns = board.pieces_mask(chess.PAWN, side)
    for (owner, colour), (home, left, right) in _SHUT_IN.items():
        if owner != side:
            continue
        bishops = board.pieces_mask(chess.BISHOP, side) & colour
        if pawns & chess.BB_SQUARES[left] and pawns & chess.BB_SQUARES[right]:
            promoted += chess.popcount(bishops & ~chess.BB_SQUARES[home])
        else:
            promoted += max(0, chess.popcount(bishops) - 1)
    return promoted


def _captures(board: chess.Board, side: chess.Color) -> int | float:
    """The fewest captures the pawns of ``side`` have made (infinity: none explains them)."""
    pawns = tuple((chess.square_file(square),
                   chess.square_rank(square) - 1 if side == chess.WHITE else 6 - chess.square_rank(square))
                  for square in board.pieces(chess.PAWN, side))
    return _cheapest(pawns, 0)


@lru_cache(maxsize=4096)
def _cheapest(pawns: tuple[tuple[int, int], ...], used: int) -> int | float:
    """The cheapest choice of distinct start files (not in ``used``) for ``pawns``."""
    if not pawns:
        return 0
    (file, forward), rest = pawns[0], pawns[1:]
    best: int | float = float("inf")
    for start in range(8):
        distance = abs(file - start)
        if distance <= forward and not used & (1 << start):
            best = min(best, distance + _cheapest(rest, used | 1 << start))
    return best
