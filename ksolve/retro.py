"""Retro-legality: whether some game reaches a side's men, by the static
counts of the problem world, with the reason in words.

A position is *unreachable* when, for one side:

- **promotions**: its men beyond the game's first army (a second queen, a
  third rook or knight, a second bishop on one square colour) each need a
  promotion, and so a missing pawn of that side, and fewer of its pawns are
  missing.  A bishop's home square (c1 and f1 for White, c8 and f8 for Black)
  is *shut in* when the pawns on both its diagonal neighbours have never moved
  (b2 and d2 for c1): then that colour's own bishop never left home, and every
  bishop of that square colour elsewhere is promoted;
- **captures**: its pawns need more captures than the other side has men
  missing.  Each pawn came from a file of its own; a file step is a capture,
  and a pawn has made at most as many as its steps forward (one on its
  second rank has never moved).  The fewest captures is the cheapest way to
  give every pawn its own file.

Hidden units only add men, and a man added never makes an unreachable
position reachable, so the visible position alone is refused before any
placement is enumerated.  A full retro analysis (whose move it was, the
last move, the order of the captures) is beyond these counts.

>>> unreachable_reason(chess.Board("4k3/8/p4pp1/1p1pp2p/2p5/2bN4/R7/b4K2 w - - 0 1"))
'a second black dark-squared bishop (c3) needs a promotion, and no black pawn is missing'
>>> unreachable_reason(chess.Board("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1")) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import chess
import numpy as np
from numba import njit

from ksolve.board.bitops import lsb, popcount
from ksolve.board.layout import COLUMN_BLACK, COLUMN_WHITE

REACHABLE = 0
"""The code of a reachable position (``reason_codes``)."""
_PROMOTIONS, _CAPTURES = 0, 1
REASON_CODES = 5
"""Codes 1-4: the first rule broken, ``1 + 2 * side + kind`` (side 0 White, 1
Black; kind 0 promotions, 1 captures)."""
_IMPOSSIBLE = 99
"""Captures standing for "the pawns cannot each have a file of their own"."""

_COLOR = {chess.WHITE: "white", chess.BLACK: "black"}
_ORDINAL = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth",
            9: "ninth", 10: "tenth"}
# Each bishop's home square and the two pawns that shut it in, by colour and square colour.
_HOMES = {
    (chess.WHITE, "dark"): (chess.C1, (chess.B2, chess.D2)),
    (chess.WHITE, "light"): (chess.F1, (chess.E2, chess.G2)),
    (chess.BLACK, "light"): (chess.C8, (chess.B7, chess.D7)),
    (chess.BLACK, "dark"): (chess.F8, (chess.E7, chess.G7)),
}
_SQUARE_COLOURS = {"dark": chess.BB_DARK_SQUARES, "light": chess.BB_LIGHT_SQUARES}


@dataclass(frozen=True)
class LeftOut:
    """The placements of a belief's hidden units that no game reaches, left out
    of it: how many, by the reason of one of them.

    >>> LeftOut((("a second black dark-squared bishop (c3) needs a promotion", 29),)).describe()
    '29 placements no game reaches: a second black dark-squared bishop (c3) needs a promotion'
    >>> LeftOut().describe()
    ''
    """

    reasons: tuple[tuple[str, int], ...] = ()
    """``(an example of the rule broken, in words; how many broke it)``, the most first."""

    @property
    def total(self) -> int:
        """How many placements were left out."""
        return sum(count for _, count in self.reasons)

    def describe(self) -> str:
        """One line for the reports, "" when none was left out."""
        if not self.reasons:
            return ""
        total = self.total
        examples = "; ".join(f"{reason}{f' ({count:,})' if len(self.reasons) > 1 else ''}"
                             for reason, count in self.reasons)
        return f"{total:,} placement{'' if total == 1 else 's'} no game reaches: {examples}"

    def as_dict(self) -> dict:
        """The JSON form: ``{"total": N, "reasons": [{"reason": ..., "count": ...}]}``."""
        return {"total": self.total, "reasons": [{"reason": reason, "count": count} for reason, count in self.reasons]}


def unreachable_reason(board: chess.Board) -> str | None:
    """The first rule (see the module doc) that no game reaches ``board`` by, in
    words; None when the counts allow it.

    >>> unreachable_reason(chess.Board("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1")) is None  # a3 took one of 15 men
    True
    >>> unreachable_reason(chess.Board("rnbqkbnr/pppppppp/8/8/8/P7/P7/4K3 w - - 0 1"))
    'the white pawns (a2, a3) need at least 1 capture (a file step each), and no black man is missing'
    """
    for color in chess.COLORS:
        reason = _promotion_reason(board, color) or _capture_reason(board, color)
        if reason:
            return reason
    return None


def _promotion_reason(board: chess.Board, color: chess.Color) -> str | None:
    needs = []
    for piece, first_army in ((chess.QUEEN, 1), (chess.ROOK, 2), (chess.KNIGHT, 2)):
        men = sorted(board.pieces(piece, color))
        needs += [f"a {_ORDINAL.get(n, f'{n}th')} {_COLOR[color]} {chess.piece_name(piece)} "
                  f"({chess.square_name(men[n - 1])})" for n in range(first_army + 1, len(men) + 1)]
    for shade, squares in _SQUARE_COLOURS.items():
        bishops = sorted(board.pieces(chess.BISHOP, color) & chess.SquareSet(squares))
        home, (left, right) = _HOMES[(color, shade)]
        pawns = board.pieces(chess.PAWN, color)
        if left in pawns and right in pawns:
            promoted = [square for square in bishops if square != home]
            needs += [f"a {_COLOR[color]} {shade}-squared bishop on {chess.square_name(square)} (the "
                      f"{chess.square_name(home)} bishop is shut in by the pawns on {chess.square_name(left)} "
                      f"and {chess.square_name(right)})" for square in promoted]
        else:
            needs += [f"a {_ORDINAL.get(n, f'{n}th')} {_COLOR[color]} {shade}-squared bishop "
                      f"({chess.square_name(bishops[n - 1])})" for n in range(2, len(bishops) + 1)]
    missing = 8 - len(board.pieces(chess.PAWN, color))
    if len(needs) <= missing:
        return None
    promotions = "needs a promotion" if len(needs) == 1 else f"need {len(needs)} promotions"
    pawns = f"no {_COLOR[color]} pawn is" if missing == 0 else \
        f"only {missing} {_COLOR[color]} pawn{' is' if missing == 1 else 's are'}"
    return f"{_join(needs)} {promotions}, and {pawns} missing"


def _capture_reason(board: chess.Board, color: chess.Color) -> str | None:
    pawns = sorted(board.pieces(chess.PAWN, color))
    captures = fewest_pawn_captures([chess.square_file(s) for s in pawns],
                                    [_steps(s, color) for s in pawns])
    missing = 16 - chess.popcount(board.occupied_co[not color])
    if captures <= missing:
        return None
    names = ", ".join(chess.square_name(square) for square in pawns)
    if captures == _IMPOSSIBLE:
        return (f"the {_COLOR[color]} pawns ({names}) cannot each have come from a file of its own "
                "(a pawn steps to the next file only by a capture, at most once per step forward)")
    other = f"no {_COLOR[not color]} man is" if missing == 0 else \
        f"only {missing} {_COLOR[not color]} man{' is' if missing == 1 else 'men are'}"
    return (f"the {_COLOR[color]} pawns ({names}) need at least {captures} capture{'s' * (captures != 1)} "
            f"(a file step each), and {other} missing")


def _steps(square: chess.Square, color: chess.Color) -> int:
    """How many steps forward a pawn on ``square`` has made."""
    rank = chess.square_rank(square)
    return rank - 1 if color == chess.WHITE else 6 - rank


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def fewest_pawn_captures(files: list[int], steps: list[int]) -> int:
    """The fewest captures that bring pawns on ``files`` (each having made
    ``steps`` forward) from distinct starting files; 99 when none can.

    >>> fewest_pawn_captures([0, 0], [1, 1]), fewest_pawn_captures([0, 0, 0], [0, 1, 1])
    (1, 99)
    """
    best, following = np.empty(256, dtype=np.int64), np.empty(256, dtype=np.int64)
    return int(_fewest_captures(np.array(files + [0] * (8 - len(files)), dtype=np.int64),
                                np.array(steps + [0] * (8 - len(steps)), dtype=np.int64), len(files), best, following))


MEMO_SIZE = 1 << 11
"""Pawn structures remembered per side in one ``reason_codes`` call (a belief holds few)."""


def reason_codes(rows: np.ndarray) -> tuple[np.ndarray, int]:
    """Per position row, ``REACHABLE`` or the code of the first rule it breaks
    (see ``REASON_CODES``), as ``unreachable_reason`` decides it; and how many
    rows break one.

    >>> from ksolve.board.convert import position_from_board
    >>> row = position_from_board(chess.Board("rnbqkbnr/pppppppp/8/8/8/P7/P7/4K3 w - - 0 1"))
    >>> codes, broken = reason_codes(row.reshape(1, -1))
    >>> codes.tolist(), broken
    ([2], 1)
    """
    codes = np.empty(rows.shape[0], dtype=np.int8)
    memo = np.zeros((2, 2, MEMO_SIZE), dtype=np.uint64)
    broken = _reason_codes(rows, codes, memo, np.empty((4, 256), dtype=np.int64))
    return codes, int(broken)


_DARK = np.uint64(chess.BB_DARK_SQUARES)
_LIGHT = np.uint64(chess.BB_LIGHT_SQUARES)
# Per side: (dark home, its two pawns, light home, its two pawns).
_HOME_SQUARES = np.array([[chess.C1, chess.B2, chess.D2, chess.F1, chess.E2, chess.G2],
                          [chess.F8, chess.E7, chess.G7, chess.C8, chess.B7, chess.D7]], dtype=np.int64)


# The loops below run without numba's reference counting (``_nrt=False``, as in
# ``ksolve.hidden``): every array they use is allocated by the caller.

@njit(cache=True, _nrt=False)
def _reason_codes(rows, codes, memo, work):
    broken = 0
    for i in range(rows.shape[0]):
        codes[i] = _first_broken(rows, i, memo, work)
        if codes[i] != REACHABLE:
            broken += 1
    return broken


@njit(cache=True, inline="always")
def _bit(bb, square):
    return (bb >> np.uint64(square)) & np.uint64(1)


@njit(cache=True, inline="always")
def _files_distinct(pawns):
    """Whether no two of ``pawns`` share a file (the ranks folded onto one byte)."""
    folded = pawns | (pawns >> np.uint64(32))
    folded |= folded >> np.uint64(16)
    folded |= folded >> np.uint64(8)
    return popcount(folded & np.uint64(0xFF)) == popcount(pawns)


@njit(cache=True, _nrt=False, inline="always")
def _first_broken(rows, i, memo, work):
    for side in range(2):
        column = COLUMN_WHITE if side == 0 else COLUMN_BLACK
        other = COLUMN_BLACK if side == 0 else COLUMN_WHITE
        pawns = rows[i, column]
        needs = max(0, popcount(rows[i, column + 4]) - 1) + max(0, popcount(rows[i, column + 3]) - 2) \
            + max(0, popcount(rows[i, column + 1]) - 2)
        bishops = rows[i, column + 2]
        for shade in range(2):
            home = _HOME_SQUARES[side, 3 * shade]
            on_shade = popcount(bishops & (_DARK if shade == 0 else _LIGHT))
            if _bit(pawns, _HOME_SQUARES[side, 3 * shade + 1]) and _bit(pawns, _HOME_SQUARES[side, 3 * shade + 2]):
                needs += on_shade - np.int64(_bit(bishops, home))
            else:
                needs += max(0, on_shade - 1)
        if needs > 8 - popcount(pawns):
            return 1 + 2 * side + _PROMOTIONS
        if _files_distinct(pawns):
            continue  # each pawn on its own file: no capture needed
        missing = 16
        for piece in range(6):
            missing -= popcount(rows[i, other + piece])
        if _remembered_captures(pawns, side, memo[side, 0], memo[side, 1], work) > missing:
            return 1 + 2 * side + _CAPTURES
    return REACHABLE


@njit(cache=True, _nrt=False)
def _remembered_captures(pawns, side, keys, values, work):
    """``_fewest_captures`` of the pawn bitboard ``pawns``, remembered in the
    open-addressing table ``keys``/``values`` (0: an empty slot)."""
    slot = np.int64((pawns * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(53)) & (keys.shape[0] - 1)
    for _ in range(8):
        if keys[slot] == pawns:
            return np.int64(values[slot])
        if keys[slot] == 0:
            break
        slot = (slot + 1) & (keys.shape[0] - 1)
    files, steps = work[0], work[1]
    count = 0
    rest = pawns
    while rest:
        square = lsb(rest)
        rest &= rest - np.uint64(1)
        files[count] = square & 7
        steps[count] = (square >> 3) - 1 if side == 0 else 6 - (square >> 3)
        count += 1
    fewest = _fewest_captures(files, steps, count, work[2], work[3])
    if keys[slot] == 0:
        keys[slot] = pawns
        values[slot] = np.uint64(fewest)
    return fewest


@njit(cache=True, _nrt=False)
def _fewest_captures(files, steps, count, best, following):
    """See ``fewest_pawn_captures``: the cheapest assignment of the first
    ``count`` pawns, by dynamic programming over the starting files taken."""
    for taken in range(256):
        best[taken] = _IMPOSSIBLE
    best[0] = 0
    for p in range(count):  # best[taken]: the first p pawns from the files ``taken``
        for taken in range(256):
            following[taken] = _IMPOSSIBLE
        for taken in range(256):
            if best[taken] == _IMPOSSIBLE:
                continue
            for start in range(max(0, files[p] - steps[p]), min(7, files[p] + steps[p]) + 1):
                if not taken & (1 << start):
                    cost = best[taken] + abs(files[p] - start)
                    if cost < following[taken | (1 << start)]:
                        following[taken | (1 << start)] = cost
        for taken in range(256):
            best[taken] = following[taken]
    fewest = _IMPOSSIBLE
    for taken in range(256):
        fewest = min(fewest, best[taken])
    return fewest


def left_out(rows: np.ndarray, codes: np.ndarray) -> LeftOut:
    """What ``reason_codes`` found in ``rows``: per broken rule, how many, with
    the words of the first such row."""
    from ksolve.board.convert import position_to_board

    reasons = []
    for code in range(1, REASON_CODES):
        where = np.flatnonzero(codes == code)
        if where.size:
            reasons.append((unreachable_reason(position_to_board(rows[where[0]])) or "", int(where.size)))
    return LeftOut(tuple(sorted(reasons, key=lambda item: -item[1])))


__all__ = ["LeftOut", "REACHABLE", "fewest_pawn_captures", "left_out", "reason_codes", "unreachable_reason"]
