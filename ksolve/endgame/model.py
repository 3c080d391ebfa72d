"""The metaposition game of White's men against a lone king, as tables.

Against a lone king White's belief is a *metaposition* (Ciancarini & Favini):
where his men stand and the set of squares where the black king may be, a
64-bit square set.  What happens next depends on the rule set only through
what White hears, and what White hears with the black king on square ``s``
depends on ``s`` alone, not on the rest of the set.  So the game is
tabulated once per placement, asking the rule set itself (its kernels, one
call per attempt over the king's every square):

- per White attempt ``m``: the squares where the referee refuses it, and the
  other squares grouped by the answer (silent, the checks, mate, stalemate,
  a draw), with the placement after the move;
- per placement with Black to move and each king square ``s``: the squares
  the king may go to, grouped by what White hears of the reply (silent, the
  captures, in Fog of War what he sees), with the placement after it.

A belief's answer classes are then intersections with these masks, and the
squares after Black's reply the union of the targets of its squares: the
search (``ksolve.endgame.core``) needs nothing else.  Placements are
canonical (``ksolve.endgame.configs``): a move leading to a placement that
is not canonical says which symmetry carries it there.

The same tables give the full-information bound: a belief is lost within
``n`` moves if White, seeing the king, could not mate it within ``n`` from
one of its squares (``full_information_distances``).

>>> import chess
>>> from ksolve.endgame.material import parse_material
>>> from ksolve.rules import get_rules
>>> model = EndgameModel(parse_material("KQK"), get_rules("berkeley"))
>>> number, _ = model.space.locate("KQ", (chess.A1, chess.H1))
>>> bin(model.tables.full[number]).count("1")  # the king's legal squares
40
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import chess
import numpy as np
from numba import njit

from ksolve.belief import BeliefState
from ksolve.board.batch import move_union
from ksolve.board.bitops import lsb
from ksolve.board.layout import COLUMN_BLACK, COLUMN_WHITE, KING
from ksolve.endgame.configs import ConfigSpace
from ksolve.endgame.material import PIECE_ORDER, Material
from ksolve.rules.base import Outcome, RuleSet

GOES_ON, WON, ENDED = 0, 1, 2
"""What an answer or a reply class means: the game goes on, White has won, it ended otherwise."""
NO_WIN = 255
"""A distance meaning "no win at all" in the full-information tables."""
_KIND = {Outcome.GOES_ON: GOES_ON, Outcome.WON: WON, Outcome.ENDED: ENDED}


class Tables(NamedTuple):
    """The game's tables as numpy arrays, the argument of the numba search.

    Placements ``c`` (canonical numbers), attempts ``j``, answer classes ``i``,
    reply entries ``e``, reply keys ``k``."""

    full: np.ndarray
    """c -> the black king's squares when White is to move (uint64)."""
    stabiliser: np.ndarray
    """c -> bit mask of the symmetries mapping the placement onto itself."""
    move_lo: np.ndarray
    move_hi: np.ndarray
    """c -> its attempts ``move_lo[c] .. move_hi[c] - 1``."""
    reply_start: np.ndarray
    """(c, s) -> reply entries ``reply_start[c, s] .. reply_start[c, s + 1] - 1`` (shape (C, 65))."""
    key_lo: np.ndarray
    key_hi: np.ndarray
    """c -> its reply keys."""
    move_code: np.ndarray
    """j -> the move (``ksolve.board.layout`` code) in the placement's own frame."""
    move_refused: np.ndarray
    """j -> the king's squares where the referee says "No"."""
    move_next: np.ndarray
    move_sym: np.ndarray
    """j -> the placement after the move and the symmetry carrying the position there."""
    class_lo: np.ndarray
    class_hi: np.ndarray
    """j -> its answer classes."""
    class_mask: np.ndarray
    class_kind: np.ndarray
    """i -> the king's squares giving this answer, and what it means (``GOES_ON``, ``WON``, ``ENDED``)."""
    reply_key: np.ndarray
    reply_target: np.ndarray
    """e -> the reply key (global) and the squares the king reaches with replies heard so."""
    key_kind: np.ndarray
    key_next: np.ndarray
    key_sym: np.ndarray
    """k -> what the reply means (``GOES_ON`` or ``ENDED``: a reply never wins for White),
    the placement after it and the symmetry carrying it there."""
    distance: np.ndarray
    """(c, s) -> White's fewest moves to win with full information (``NO_WIN``: never), uint8."""
    move_distance: np.ndarray
    """(j, s) -> the same after trying move j first (0 where it is refused), uint8."""


@dataclass
class BuildStats:
    placements: int = 0
    attempts: int = 0
    reply_entries: int = 0
    seconds: float = 0.0


class EndgameModel:
    """The tables of ``material`` under ``rules`` (and of the materials left
    after captures, where the game goes on), built on creation."""

    def __init__(self, material: Material, rules: RuleSet,
                 progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], None] | None = None) -> None:
        """``progress(done, total)`` hears of the placements tabulated so far;
        ``should_stop()`` is called between placements and between rounds of the
        full-information bound, and ends the build by raising (a time limit)."""
        if rules.probes:
            raise ValueError(f"the {rules.name} rule set has probes: no endgame tables for it")
        self.material = material
        self.rules = rules
        self.space = ConfigSpace(material)
        self.stats = BuildStats()
        started = time.perf_counter()
        self.tables = _Builder(self, progress, should_stop).build()
        self.stats.seconds = time.perf_counter() - started

    def start_classes(self, number: int) -> list[int]:
        """The king's squares White cannot tell apart at the start, White to move
        with placement ``number`` (what he hears at the start of his turn: one
        class under the Kriegspiel rule sets; in Fog of War each square he sees
        is its own class, the others one)."""
        rows = self.rows(number, white_to_move=True)
        keys = self.rules.turn_info(rows)
        labels, firsts = label_rows(np.ascontiguousarray(keys))
        squares = _king_squares(rows)
        classes = [0] * len(firsts)
        for label, square in zip(labels.tolist(), squares.tolist()):
            classes[label] |= 1 << square
        return classes

    def rows(self, number: int, white_to_move: bool) -> np.ndarray:
        """The positions of placement ``number`` with the black king on every legal square."""
        material = self.space.material_of(number)
        fen = material.fen(self.space.squares(number))
        if not white_to_move:
            fen = fen.replace(" w ", " b ")
        return BeliefState.from_hidden(fen, ["k:any"], self.rules.fog).positions


class _Builder:
    """Fills the tables, placement after placement, asking the rule set."""

    def __init__(self, model: EndgameModel, progress: Callable[[int, int], None] | None,
                 should_stop: Callable[[], None] | None = None) -> None:
        self.model = model
        self.space = model.space
        self.rules = model.rules
        self.progress = progress
        self.should_stop = should_stop
        size = self.space.size
        self.full = np.zeros(size, dtype=np.uint64)
        self.stabiliser = np.zeros(size, dtype=np.int64)
        self.move_lo = np.zeros(size, dtype=np.int64)
        self.move_hi = np.zeros(size, dtype=np.int64)
        self.reply_start = np.zeros((size, 65), dtype=np.int64)
        self.key_lo = np.zeros(size, dtype=np.int64)
        self.key_hi = np.zeros(size, dtype=np.int64)
        self.moves: list[tuple[int, int, int, int, int, int]] = []
        self.classes: list[tuple[int, int]] = []
        self.replies: list[tuple[int, int]] = []
        self.keys: list[tuple[int, int, int]] = []
        self.built = np.zeros(size, dtype=bool)

    def build(self) -> Tables:
        wanted = [self.space.main.white]
        done: set[str] = set()
        while wanted:
            white = wanted.pop(0)
            if white in done:
                continue
            done.add(white)
            offset, count = self.space.offset(white), self.space.count(white)
            for number in range(offset, offset + count):
                if self.should_stop is not None:
                    self.should_stop()
                for needed in self._placement(number):
                    if needed not in done and needed not in wanted:
                        wanted.append(needed)
                self.model.stats.placements += 1
                if self.progress is not None and number % 64 == 0:
                    self.progress(number - offset, count)
        moves = np.array(self.moves, dtype=np.int64).reshape(-1, 6)
        classes = np.array(self.classes, dtype=np.uint64).reshape(-1, 2)
        replies = np.array(self.replies, dtype=np.uint64).reshape(-1, 2)
        keys = np.array(self.keys, dtype=np.int64).reshape(-1, 3)
        tables = Tables(
            full=self.full, stabiliser=self.stabiliser, move_lo=self.move_lo, move_hi=self.move_hi,
            reply_start=self.reply_start, key_lo=self.key_lo, key_hi=self.key_hi,
            move_code=moves[:, 0].copy(), move_refused=moves[:, 1].astype(np.uint64), move_next=moves[:, 2].copy(),
            move_sym=moves[:, 3].copy(), class_lo=moves[:, 4].copy(), class_hi=moves[:, 5].copy(),
            class_mask=classes[:, 0].copy(), class_kind=classes[:, 1].astype(np.int64),
            reply_key=replies[:, 0].astype(np.int64), reply_target=replies[:, 1].copy(),
            key_kind=keys[:, 0].copy(), key_next=keys[:, 1].copy(), key_sym=keys[:, 2].copy(),
            distance=np.zeros((0, 64), dtype=np.uint8), move_distance=np.zeros((0, 64), dtype=np.uint8))
        self.model.stats.attempts = len(moves)
        self.model.stats.reply_entries = len(replies)
        distance, move_distance = full_information_distances(tables, self.should_stop)
        return tables._replace(distance=distance, move_distance=move_distance)

    def _locate(self, row: np.ndarray) -> tuple[int, int]:
        """The canonical number of the White men of ``row`` and the symmetry leading there."""
        white, squares = white_men(row)
        return self.space.locate(white, squares)

    def _placement(self, number: int) -> set[str]:
        """Tabulate one placement; the materials its promotions and captures lead to."""
        rules = self.rules
        self.stabiliser[number] = self.space.stabiliser(number)
        needed: set[str] = set()
        rows = self.model.rows(number, white_to_move=True)
        squares = _king_squares(rows)
        self.full[number] = np.uint64(int(np.bitwise_or.reduce(np.uint64(1) << squares.astype(np.uint64))))
        self.move_lo[number] = len(self.moves)
        for move in move_union(rows, rules.fog).tolist():
            answered = rules.attempt(rows, move)
            labels, firsts = label_rows(np.ascontiguousarray(answered.keys))
            masks = _label_masks(labels, squares, len(firsts))
            refused, next_number, next_sym = 0, -1, 0
            class_lo = len(self.classes)
            for label, first in enumerate(firsts.tolist()):
                outcome = rules.outcome(answered.keys[first])
                if outcome is Outcome.REFUSED:
                    refused = int(masks[label])
                    continue
                if next_number < 0:
                    next_number, next_sym = self._locate(answered.children[first])
                    promoted, _ = white_men(answered.children[first])
                    if promoted != self.space.material_of(number).white:
                        needed.add(promoted)
                self.classes.append((int(masks[label]), _KIND[outcome]))
            if next_number < 0:
                continue  # refused everywhere: never worth trying
            self.moves.append((move, _signed(refused), next_number, next_sym, class_lo, len(self.classes)))
        self.move_hi[number] = len(self.moves)
        # Black to move: the king's replies from every square, grouped by what White hears
        black_rows = self.model.rows(number, white_to_move=False)
        replied = rules.replies(black_rows)
        key_labels, key_firsts = label_rows(np.ascontiguousarray(replied.keys))
        self.key_lo[number] = len(self.keys)
        for first in key_firsts.tolist():
            # a reply that ends the game (a capture leaving too little, Black taking
            # White's king in Fog of War) is never White's win
            kind = GOES_ON if rules.outcome(replied.keys[first]) is Outcome.GOES_ON else ENDED
            next_number, next_sym = -1, 0
            if kind == GOES_ON:
                white, _ = white_men(replied.children[first])
                if white != self.space.material_of(number).white:
                    needed.add(white)
                next_number, next_sym = self._locate(replied.children[first])
            self.keys.append((kind, next_number, next_sym))
        self.key_hi[number] = len(self.keys)
        origins = _king_squares(black_rows)[replied.parents]
        targets = _king_squares(replied.children)
        entries = _reply_entries(origins, key_labels, targets)
        start = self.reply_start[number]
        position = len(self.replies)
        for square in range(64):
            start[square] = position
            for label, mask in entries.get(square, ()):
                self.replies.append((int(self.key_lo[number]) + label, mask))
                position += 1
        start[64] = position
        return needed


def _signed(mask: int) -> int:
    """A 64-bit square set as the signed integer of the same bits (an int64 column;
    ``astype(np.uint64)`` gives the set back)."""
    return mask - (1 << 64) if mask >> 63 else mask


def _reply_entries(origins: np.ndarray, labels: np.ndarray, targets: np.ndarray) -> dict[int, list[tuple[int, int]]]:
    """Per origin square: (reply label, target squares) pairs."""
    grouped: dict[tuple[int, int], int] = {}
    for origin, label, target in zip(origins.tolist(), labels.tolist(), targets.tolist()):
        grouped[(origin, label)] = grouped.get((origin, label), 0) | (1 << target)
    out: dict[int, list[tuple[int, int]]] = {}
    for (origin, label), mask in sorted(grouped.items()):
        out.setdefault(origin, []).append((label, mask))
    return out


def _king_squares(rows: np.ndarray) -> np.ndarray:
    """The black king's square in each row (-1 where it was captured)."""
    kings = rows[:, COLUMN_BLACK + KING]
    out = np.full(len(rows), -1, dtype=np.int64)
    present = kings != 0
    out[present] = np.log2(kings[present].astype(np.float64)).astype(np.int64)
    return out


def white_men(row: np.ndarray) -> tuple[str, tuple[int, ...]]:
    """White's men of a position: their letters in material order and their squares."""
    letters, squares = [], []
    for letter in PIECE_ORDER:
        bitboard = int(row[COLUMN_WHITE + chess.Piece.from_symbol(letter).piece_type - 1])
        for square in chess.scan_forward(bitboard):
            letters.append(letter)
            squares.append(square)
    return "".join(letters), tuple(squares)


@njit(cache=True)
def label_rows(keys):
    """A label per row of ``keys``, equal rows equal labels numbered in order of
    first appearance, and the first row of each label."""
    n, width = keys.shape
    labels = np.empty(n, dtype=np.int64)
    firsts = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(n):
        found = -1
        for label in range(count):
            f = firsts[label]
            same = True
            for column in range(width):
                if keys[i, column] != keys[f, column]:
                    same = False
                    break
            if same:
                found = label
                break
        if found < 0:
            firsts[count] = i
            found = count
            count += 1
        labels[i] = found
    return labels, firsts[:count]


@njit(cache=True)
def _label_masks(labels, squares, count):
    masks = np.zeros(count, dtype=np.uint64)
    for i in range(labels.shape[0]):
        masks[labels[i]] |= np.uint64(1) << np.uint64(squares[i])
    return masks


def full_information_distances(tables: Tables, should_stop: Callable[[], None] | None = None
                               ) -> tuple[np.ndarray, np.ndarray]:
    """White's fewest moves to win seeing the king, per placement and king square,
    and per attempt and king square: the game on single squares, by rounds of
    value iteration until nothing changes (``should_stop()`` called between
    rounds: it ends the computation by raising)."""
    from ksolve.endgame.symmetry import SQUARE_MAP

    distance = np.full((tables.full.shape[0], 64), NO_WIN, dtype=np.int64)
    while _distance_round(tables, SQUARE_MAP, distance):
        if should_stop is not None:
            should_stop()
    return distance.astype(np.uint8), _move_distances(tables, SQUARE_MAP, distance)


@njit(cache=True)
def _move_value(t, square_map, distance, j, s):
    """Moves to win by trying ``j`` first with the king on ``s`` (``NO_WIN``: never)."""
    kind = -1
    for i in range(t.class_lo[j], t.class_hi[j]):
        if t.class_mask[i] & (np.uint64(1) << np.uint64(s)):
            kind = t.class_kind[i]
            break
    if kind == WON:
        return 1
    if kind != GOES_ON:
        return NO_WIN
    c2 = t.move_next[j]
    s2 = square_map[t.move_sym[j], s]
    worst = 0
    for e in range(t.reply_start[c2, s2], t.reply_start[c2, s2 + 1]):
        k = t.reply_key[e]
        if t.key_kind[k] == ENDED:
            return NO_WIN
        c3 = t.key_next[k]
        g = t.key_sym[k]
        rest = t.reply_target[e]
        while rest:
            value = distance[c3, square_map[g, lsb(rest)]]
            if value == NO_WIN:
                return NO_WIN
            if value > worst:  # noqa: PLR1730 (numba kernel)
                worst = value
            rest &= rest - np.uint64(1)
    return worst + 1 if worst + 1 < NO_WIN else NO_WIN  # noqa: FURB136 (numba kernel)


@njit(cache=True)
def _distance_round(t, square_map, distance):
    """One round of value iteration over ``distance`` (in place); whether it changed."""
    changed = False
    for c in range(t.full.shape[0]):
        for s in range(64):
            if not t.full[c] & (np.uint64(1) << np.uint64(s)):
                continue
            best = distance[c, s]
            for j in range(t.move_lo[c], t.move_hi[c]):
                if t.move_refused[j] & (np.uint64(1) << np.uint64(s)):
                    continue
                value = _move_value(t, square_map, distance, j, s)
                if value < best:  # noqa: PLR1730 (numba kernel)
                    best = value
            if best < distance[c, s]:
                distance[c, s] = best
                changed = True
    return changed


@njit(cache=True)
def _move_distances(t, square_map, distance):
    """Per attempt and king square, the moves to win by trying the attempt first."""
    configs = t.full.shape[0]
    moves = t.move_code.shape[0]
    move_distance = np.zeros((moves, 64), dtype=np.uint8)
    for c in range(configs):
        for j in range(t.move_lo[c], t.move_hi[c]):
            for s in range(64):
                bit = np.uint64(1) << np.uint64(s)
                if t.full[c] & bit and not t.move_refused[j] & bit:
                    move_distance[j, s] = _move_value(t, square_map, distance, j, s)
    return move_distance
