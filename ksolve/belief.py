"""Belief states: the set of positions White cannot tell apart.

A ``BeliefState`` holds its positions as rows of a ``uint64`` array, sorted
by Zobrist hash with duplicates removed, and an order-independent 64-bit
``key`` (a digest of the sorted hashes) for transposition tables.  Splitting
a belief by the referee's answers is one vectorised ``np.unique`` over the
observation keys the rule set computes.

>>> from ksolve.rules import get_rules
>>> from ksolve.board import move_from_uci
>>> rules = get_rules("berkeley")
>>> belief = BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"])
>>> len(belief)
30
>>> classes = belief.attempt(rules, move_from_uci("a2g2"))
>>> [(rules.describe(key), len(b)) for key, b in classes]
[('Silent', 27), ('No', 3)]
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Iterator

import chess
import numpy as np
from numba import njit

from ksolve.board.layout import COLUMN_BLACK, COLUMN_HALFMOVE, COLUMN_HASH, COLUMN_TURN, POSITION_WIDTH
from ksolve.hidden import HiddenUnit, enumerate_placements, parse_hidden_unit
from ksolve.resources import Resources
from ksolve.rules.base import RuleSet
from ksolve.rules.codes import ILLEGAL


@dataclass(frozen=True)
class BeliefState:
    """A set of positions, sorted by hash, without duplicates."""

    positions: np.ndarray
    key: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", _digest(self.positions[:, COLUMN_HASH]))

    @classmethod
    def from_positions(cls, positions: np.ndarray) -> "BeliefState":
        """A belief of the given rows (any order, duplicates allowed)."""
        positions = np.asarray(positions, dtype=np.uint64).reshape(-1, POSITION_WIDTH)
        _, unique = np.unique(positions[:, COLUMN_HASH], return_index=True)
        return cls(positions[unique])

    @classmethod
    def from_hidden(cls, fen: str, hidden: list[str | HiddenUnit], fog: bool = False,
                    resources: Resources | None = None) -> "BeliefState":
        """Every legal placement of the hidden units into the visible position ``fen``
        (``fog``: Fog of War, where a king may stand attacked), within the
        memory budget of ``resources`` and telling its progress.

        Raises ``ValueError`` (``HiddenUnitError``, ``OverMemoryBudget``) naming what is wrong.
        """
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"invalid FEN {fen!r}: {error}") from None
        units = [parse_hidden_unit(h) if isinstance(h, str) else h for h in hidden]
        return cls(enumerate_placements(board, units, fog, resources))

    def __len__(self) -> int:
        return self.positions.shape[0]

    @property
    def side_to_move(self) -> str:
        """``"White"`` or ``"Black"``: who is to move in the members."""
        return "White" if int(self.positions[0, COLUMN_TURN]) == 0 else "Black"

    @property
    def halfmove_clock(self) -> int:
        """The largest halfmove clock of the members.  (Members that differ only
        in the clock are one member: the hash leaves the clock out.)"""
        return int(self.positions[:, COLUMN_HALFMOVE].max()) if len(self) else 0

    @property
    def hashes(self) -> np.ndarray:
        """The members' Zobrist hashes, ascending."""
        return self.positions[:, COLUMN_HASH]

    def split(self, keys: np.ndarray, positions: np.ndarray | None = None
              ) -> list[tuple[np.ndarray, "BeliefState"]]:
        """Group ``positions`` (default: this belief's) by equal key rows:
        ``[(key_row, BeliefState), ...]`` in key order."""
        positions = self.positions if positions is None else positions
        return [(key, BeliefState(members)) for key, members in partition(keys, positions)]

    def attempt(self, rules: RuleSet, move: int) -> list[tuple[np.ndarray, "BeliefState"]]:
        """White attempts ``move``: one class per answer.  The "No" class holds
        the positions themselves (nothing moved); the others the positions after."""
        outcome = rules.attempt(self.positions, move)
        return self.split(outcome.keys, outcome.children)

    def replies(self, rules: RuleSet) -> list[tuple[np.ndarray, "BeliefState"]]:
        """Every reply of the side to move, grouped by what White observes."""
        outcome = rules.replies(self.positions)
        return self.split(outcome.keys, outcome.children)

    def turn_info(self, rules: RuleSet) -> list[tuple[np.ndarray, "BeliefState"]]:
        """The belief split by what White hears at the start of his turn."""
        return self.split(rules.turn_info(self.positions))

    def candidate_attempts(self, fog: bool = False) -> np.ndarray:
        """Every move legal in at least one member: the attempts worth making.

        (An attempt illegal in every member is refused everywhere and tells
        nothing.)"""
        from ksolve.board.batch import move_union

        return move_union(self.positions, fog)

    def squares_of(self, color: bool, piece: int) -> int:
        """Bitboard of the squares where a man of ``color`` and python-chess
        type ``piece`` stands in at least one member."""
        column = (0 if color == chess.WHITE else COLUMN_BLACK) + piece - 1
        return int(np.bitwise_or.reduce(self.positions[:, column])) if len(self) else 0

    def hidden_squares(self) -> Iterator[tuple[chess.Piece, int]]:
        """Per black man type whose squares are not the same in every member:
        the bitboard of its possible squares."""
        for piece in chess.PIECE_TYPES:
            column = COLUMN_BLACK + piece - 1
            values = self.positions[:, column]
            if len(self) and not np.all(values == values[0]):
                yield chess.Piece(piece, chess.BLACK), self.squares_of(chess.BLACK, piece)


NUMBA_SORT_LIMIT = 512
"""Beliefs up to this size are sorted inside one numba call; larger ones with numpy's sorts."""


def partition(keys: np.ndarray, positions: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Split ``positions`` into classes of equal ``keys`` rows, each class's
    members sorted by hash without duplicates: ``[(key_row, members), ...]``.

    One stable sort per key column that varies (least significant first, after
    the hash), then a scan for the boundaries: the belief update's hot path.

    >>> keys = np.array([[2, 0], [1, 0], [2, 0]], dtype=np.uint64)
    >>> rows = np.zeros((3, POSITION_WIDTH), dtype=np.uint64); rows[:, COLUMN_HASH] = [30, 10, 20]
    >>> [(int(k[0]), [int(h) for h in m[:, COLUMN_HASH]]) for k, m in partition(keys, rows)]
    [(1, [10]), (2, [20, 30])]
    """
    if positions.shape[0] == 0:
        return []
    keys = np.ascontiguousarray(keys)
    hashes = positions[:, COLUMN_HASH]
    if hashes.shape[0] <= NUMBA_SORT_LIMIT:
        order = _sorted_order(keys, hashes)
    else:
        order = np.argsort(hashes)
        for column in range(keys.shape[1] - 1, -1, -1):
            values = keys[:, column]
            if values.min() != values.max():
                order = order[np.argsort(values[order], kind="stable")]
    order, starts = _classes(keys, hashes, order)
    members = positions[order]
    sorted_keys = keys[order[starts[:-1]]]
    return [(sorted_keys[c], members[starts[c]:starts[c + 1]]) for c in range(starts.shape[0] - 1)]


@njit(cache=True)
def _sorted_order(keys, hashes):
    """The rows in (key, hash) order: the sorts of ``partition`` in one call
    (numba's sorts win on small arrays, numpy's on large ones)."""
    order = np.argsort(hashes)  # equal hashes are equal positions: no stability needed
    for column in range(keys.shape[1] - 1, -1, -1):
        values = keys[:, column]
        if values.min() != values.max():
            order = order[np.argsort(values[order], kind="mergesort")]
    return order


@njit(cache=True)
def _classes(keys, hashes, order):
    """The rows of ``order`` without duplicate hashes within a class, and the
    class boundaries (``starts`` ends with the row count)."""
    n = hashes.shape[0]
    keep = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    kept = 0
    classes = 0
    for i in range(n):
        row = order[i]
        new_class = i == 0
        if not new_class:
            previous = order[i - 1]
            for column in range(keys.shape[1]):
                if keys[row, column] != keys[previous, column]:
                    new_class = True
                    break
        if new_class:
            starts[classes] = kept
            classes += 1
        elif hashes[row] == hashes[previous]:
            continue
        keep[kept] = row
        kept += 1
    starts[classes] = kept
    return keep[:kept], starts[:classes + 1]


def _digest(hashes: np.ndarray) -> int:
    """An order-independent 64-bit key of a set of hashes (they come sorted)."""
    return int.from_bytes(hashlib.blake2b(np.ascontiguousarray(hashes).tobytes(), digest_size=8).digest(),
                          "little")


def is_refusal(key: np.ndarray) -> bool:
    """Whether an attempt's answer key is the referee's "No"."""
    return int(key[0]) == ILLEGAL
