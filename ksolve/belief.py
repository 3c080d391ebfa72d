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

from dataclasses import dataclass, field
from typing import Iterator

import chess
import numpy as np
from numba import njit

from ksolve.board.layout import COLUMN_BLACK, COLUMN_HALFMOVE, COLUMN_HASH, COLUMN_TURN, POSITION_WIDTH
from ksolve.hidden import HiddenUnit, enumerate_placements, parse_hidden_unit
from ksolve.resources import Resources
from ksolve.retro import LeftOut
from ksolve.rules.base import Outcomes, RuleSet
from ksolve.rules.codes import END_MASK, END_SHIFT, ILLEGAL


@dataclass(frozen=True)
class BeliefState:
    """A set of positions, sorted by hash, without duplicates."""

    positions: np.ndarray
    left_out: LeftOut = field(default=LeftOut(), repr=False, compare=False)
    """The placements left out when the belief was enumerated, no game reaching them (``from_hidden``)."""
    key: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", int(_digest(self.positions[:, COLUMN_HASH])))

    @classmethod
    def _of_class(cls, positions: np.ndarray, key: int) -> "BeliefState":
        """A belief of rows already sorted by hash without duplicates, whose digest
        ``partition`` computed (``key`` equals what ``__post_init__`` would find)."""
        belief = object.__new__(cls)
        object.__setattr__(belief, "positions", positions)
        object.__setattr__(belief, "key", key)
        return belief

    @classmethod
    def from_positions(cls, positions: np.ndarray) -> "BeliefState":
        """A belief of the given rows (any order, duplicates allowed)."""
        positions = np.asarray(positions, dtype=np.uint64).reshape(-1, POSITION_WIDTH)
        _, unique = np.unique(positions[:, COLUMN_HASH], return_index=True)
        return cls(positions[unique])

    @classmethod
    def from_hidden(cls, fen: str, hidden: list[str | HiddenUnit], fog: bool = False,
                    resources: Resources | None = None, reachable: bool = True) -> "BeliefState":
        """Every legal placement of the hidden units into the visible position ``fen``
        (``fog``: Fog of War, where a king may stand attacked) that some game
        reaches (``reachable``; see ``ksolve.retro``: the others are counted in
        ``left_out``), within the memory budget of ``resources`` and telling
        its progress.

        Raises ``ValueError`` (``HiddenUnitError``, ``OverMemoryBudget``) naming what is wrong.

        >>> belief = BeliefState.from_hidden("4k3/8/p4pp1/1p1pp2p/2p5/3N4/R7/b4K2 w - - 0 1", ["b:any"])
        >>> len(belief), belief.left_out.total  # no second dark-squared bishop without a promotion
        (22, 29)
        """
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"invalid FEN {fen!r}: {error}") from None
        units = [parse_hidden_unit(h) if isinstance(h, str) else h for h in hidden]
        placed = enumerate_placements(board, units, fog, resources, reachable)
        return cls(placed.rows, placed.left_out)

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
        return [(key, BeliefState._of_class(members, digest)) for key, members, digest in partition(keys, positions)]

    def attempt(self, rules: RuleSet, move: int) -> list[tuple[np.ndarray, "BeliefState"]]:
        """White attempts ``move``: one class per answer.  The "No" class holds
        the positions themselves (nothing moved); the others the positions after."""
        outcome = rules.attempt(self.positions, move)
        return self.split(outcome.keys, outcome.children)

    def replies(self, rules: RuleSet) -> list[tuple[np.ndarray, "BeliefState"]]:
        """Every reply of the side to move, grouped by what White observes."""
        outcome = rules.replies(self.positions)
        return self.split(outcome.keys, outcome.children)

    def after_attempt(self, rules: RuleSet, move: int, last: bool = False
                      ) -> tuple[list["BeliefState"], list["BeliefState"]] | None:
        """White attempts ``move`` and Black replies: the beliefs of White's next
        turn, ``(replied, refused)``.  ``replied``: Black's replies grouped by what
        White hears of them, the attempt's answers largest first and each one's
        reply classes largest first (the next move's turns); ``refused``: the
        "No" classes (the same turn goes on).  None when an answer or a reply
        ends the game without White's win, or when the game goes on after
        White's ``last`` move.  (``attempt`` then ``replies`` of each class, in
        one call of the rule set's kernels and one of the splitting kernel.)

        >>> from ksolve.rules import get_rules
        >>> from ksolve.board import move_from_uci
        >>> belief = BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"])
        >>> replied, refused = belief.after_attempt(get_rules("berkeley"), move_from_uci("a2g2"))
        >>> [len(part) for part in replied], [len(part) for part in refused]  # Silent, then Bxf6; "No"
        ([30, 1], [3])
        """
        answered, replied = rules.attempt_and_replies(self.positions, move, replies=not last)
        if replied is None:
            replied = _NO_REPLIES
        status, rows, starts, digests, replied_classes = _after_attempt(
            answered.keys, answered.children, replied.keys, replied.children, replied.parents, rules.winning_end,
            last)
        if status < 0:
            return None
        bounds = starts.tolist()
        beliefs = [BeliefState._of_class(rows[bounds[c]:bounds[c + 1]], digest)
                   for c, digest in enumerate(digests.tolist())]
        return beliefs[:replied_classes], beliefs[replied_classes:]

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


def partition(keys: np.ndarray, positions: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """Split ``positions`` into classes of equal ``keys`` rows, each class's
    members sorted by hash without duplicates: ``[(key_row, members, digest), ...]``
    in key order, ``digest`` being the members' ``BeliefState.key``.

    One stable sort per key column that varies (least significant first, after
    the hash), then a scan for the boundaries and the digests: the belief
    update's hot path.

    >>> keys = np.array([[2, 0], [1, 0], [2, 0]], dtype=np.uint64)
    >>> rows = np.zeros((3, POSITION_WIDTH), dtype=np.uint64); rows[:, COLUMN_HASH] = [30, 10, 20]
    >>> [(int(k[0]), [int(h) for h in m[:, COLUMN_HASH]]) for k, m, _ in partition(keys, rows)]
    [(1, [10]), (2, [20, 30])]
    >>> partition(keys, rows)[1][2] == BeliefState.from_positions(rows[[0, 2]]).key
    True
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
    order, starts, digests = _classes(keys, hashes, positions[:, COLUMN_HALFMOVE], order)
    members = positions[order]
    sorted_keys = keys[order[starts[:-1]]]
    bounds = starts.tolist()
    return [(sorted_keys[c], members[bounds[c]:bounds[c + 1]], digest) for c, digest in enumerate(digests.tolist())]


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
def _classes(keys, hashes, clocks, order):
    """The rows of ``order`` without duplicate hashes within a class, the class
    boundaries (``starts`` ends with the row count) and each class's digest.
    Of rows that differ only in their clocks (one member: the hash leaves the
    clocks out) the one with the highest halfmove clock is kept, nearest a
    move-count draw: the worst case for White, whatever order the rows came in."""
    n = hashes.shape[0]
    keep = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    digests = np.empty(n, dtype=np.uint64)
    kept = 0
    classes = 0
    digest = np.uint64(0)
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
            if classes:
                digests[classes - 1] = digest
            starts[classes] = kept
            classes += 1
            digest = DIGEST_SEED
        elif hashes[row] == hashes[previous]:
            if clocks[row] > clocks[keep[kept - 1]]:
                keep[kept - 1] = row
            continue
        digest = _mix(digest ^ hashes[row])
        keep[kept] = row
        kept += 1
    digests[classes - 1] = digest
    starts[classes] = kept
    return keep[:kept], starts[:classes + 1], digests[:classes]


@njit(cache=True)
def _after_attempt(keys, children, reply_keys, reply_children, parents, winning_end, last):
    """``BeliefState.after_attempt`` from the rule set's answers (``keys``,
    ``children``) and replies (``reply_*``, ``parents`` indexing the answers):
    ``(status, rows, starts, digests, replied)``, status -1 when the attempt
    loses at once, else the classes' rows (class ``c`` is ``rows[starts[c]:
    starts[c + 1]]``, sorted by hash, without duplicates), their digests and
    how many of them come from replies (the "No" classes follow)."""
    n = keys.shape[0]
    lost = (np.int64(-1), np.empty((0, children.shape[1]), dtype=np.uint64), np.zeros(1, dtype=np.int64),
            np.empty(0, dtype=np.uint64), np.int64(0))
    going = np.empty(n, dtype=np.int64)
    refused = np.empty(n, dtype=np.int64)
    going_count = refused_count = 0
    for i in range(n):
        code = keys[i, 0]
        if code == ILLEGAL:
            refused[refused_count] = i
            refused_count += 1
            continue
        end = np.int64((code & np.uint64(END_MASK)) >> np.uint64(END_SHIFT))
        if end == 0:
            going[going_count] = i
            going_count += 1
        elif end != winning_end:
            return lost
    if going_count and last:
        return lost
    for j in range(reply_keys.shape[0]):
        if reply_keys[j, 0] == ILLEGAL or reply_keys[j, 0] & np.uint64(END_MASK):
            return lost
    going = going[:going_count]
    refused = refused[:refused_count]
    hash_column = COLUMN_HASH
    # the answers where the game goes on, largest class first (stable in key order)
    part_of = np.full(n, -1, dtype=np.int64)
    going_keys = keys[going]
    going_hashes = children[going, hash_column]
    order = _sorted_order(going_keys, going_hashes) if going_count else np.empty(0, dtype=np.int64)
    sizes = np.zeros(going_count, dtype=np.int64)
    parts = 0
    for t in range(going_count):
        row = order[t]
        if t == 0 or _differ(going_keys, row, order[t - 1]):
            parts += 1
            sizes[parts - 1] += 1
        elif going_hashes[row] != going_hashes[order[t - 1]]:
            sizes[parts - 1] += 1
        part_of[going[row]] = parts - 1
    rank = np.empty(parts, dtype=np.int64)
    by_size = np.argsort(-sizes[:parts], kind="mergesort")
    for r in range(parts):
        rank[by_size[r]] = r
    # Black's replies grouped by (the answer's rank, what White hears), largest first within an answer
    m = reply_keys.shape[0]
    grouped = np.empty((m, reply_keys.shape[1] + 1), dtype=np.uint64)
    for j in range(m):
        grouped[j, 0] = rank[part_of[parents[j]]]
        for column in range(reply_keys.shape[1]):
            grouped[j, column + 1] = reply_keys[j, column]
    reply_hashes = reply_children[:, hash_column]
    kept, starts, digests = _split_rows(grouped, reply_hashes, reply_children[:, COLUMN_HALFMOVE])
    classes = starts.shape[0] - 1
    placing = np.empty(classes, dtype=np.int64)
    for c in range(classes):
        placing[c] = np.int64(grouped[kept[starts[c]], 0]) * (m + 1) + m - (starts[c + 1] - starts[c])
    placed = np.argsort(placing, kind="mergesort")
    # the "No" classes, in key order
    refused_keys = keys[refused]
    refused_hashes = children[refused, hash_column]
    no_kept, no_starts, no_digests = _split_rows(refused_keys, refused_hashes, children[refused, COLUMN_HALFMOVE])
    no_classes = no_starts.shape[0] - 1
    total = kept.shape[0] + no_kept.shape[0]
    rows = np.empty((total, children.shape[1]), dtype=np.uint64)
    out_starts = np.empty(classes + no_classes + 1, dtype=np.int64)
    out_digests = np.empty(classes + no_classes, dtype=np.uint64)
    at = 0
    for c in range(classes):
        source = placed[c]
        out_starts[c] = at
        out_digests[c] = digests[source]
        for t in range(starts[source], starts[source + 1]):
            rows[at] = reply_children[kept[t]]
            at += 1
    for c in range(no_classes):
        out_starts[classes + c] = at
        out_digests[classes + c] = no_digests[c]
        for t in range(no_starts[c], no_starts[c + 1]):
            rows[at] = children[refused[no_kept[t]]]
            at += 1
    out_starts[classes + no_classes] = at
    return np.int64(1), rows, out_starts, out_digests, np.int64(classes)


@njit(cache=True)
def _split_rows(keys, hashes, clocks):
    """``_classes`` of the rows in (key, hash) order, also of no rows at all."""
    if hashes.shape[0] == 0:
        return np.empty(0, dtype=np.int64), np.zeros(1, dtype=np.int64), np.empty(0, dtype=np.uint64)
    return _classes(keys, hashes, clocks, _sorted_order(keys, hashes))


@njit(cache=True, inline="always")
def _differ(keys, a, b):
    """Whether rows ``a`` and ``b`` of ``keys`` differ."""
    for column in range(keys.shape[1]):
        if keys[a, column] != keys[b, column]:
            return True
    return False


DIGEST_SEED = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _mix(x):
    """A 64-bit mixing step (splitmix64's finaliser)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def _digest(hashes):
    """A 64-bit key of a set of hashes (they come sorted, without duplicates):
    each mixed into the last, as ``_classes`` does for every class it finds."""
    digest = DIGEST_SEED
    for i in range(hashes.shape[0]):
        digest = _mix(digest ^ hashes[i])
    return digest


_NO_REPLIES = Outcomes(np.empty((0, 1), dtype=np.uint64), np.empty((0, POSITION_WIDTH), dtype=np.uint64),
                       np.empty(0, dtype=np.int64))
"""The replies of an attempt that is White's last move (none are looked at)."""


def is_refusal(key: np.ndarray) -> bool:
    """Whether an attempt's answer key is the referee's "No"."""
    return int(key[0]) == ILLEGAL
