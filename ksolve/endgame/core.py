"""The AND-OR search over metapositions, compiled (numba), sharing its results.

``wins(c, S, n)``: can White, his men on canonical placement ``c`` and the
black king on one of the squares ``S`` (a 64-bit set), force a win within
``n`` moves whatever the king's square and whatever Black plays?  The
search is the prover's (``ksolve.search.prover``) on the metaposition game
of ``ksolve.endgame.model``: OR over White's attempts, AND over the
referee's answers and, after each, over what White hears of Black's reply;
a "No" keeps the move number and leaves a strictly smaller set.

What it shares, across every belief and every placement searched with the
same ``Workspace`` (one table of a whole sweep):

- a transposition table of proofs ("won within p") and disproofs ("lost
  within d") keyed by the canonical metaposition: the placement up to the
  board's symmetries, the set mapped alike (and, for a placement that a
  symmetry leaves in place, the least of the set's images);
- the table's own rows: once a placement is proven within ``p`` from its start
  (``start_mask``: total ignorance, or general position), every belief inside
  the start's squares is (a subset of a won set is won in no more moves), and
  a disproof of a set disproves its supersets (``dominance``: the last
  ``DOMINANCE`` proofs and disproofs of each placement are checked for
  containment);
- the full-information bound: a set holding a square from which White, seeing
  the king, needs more than ``n`` moves is lost within ``n``; an attempt that
  could not win within ``n`` on one of the squares where it is legal, even
  seen, is not tried.

The search stops after a budget of nodes and says so (``UNKNOWN``); what it
proved until then stays in the table, so that the next call goes on from there.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ksolve.board.bitops import lsb, popcount
from ksolve.endgame.model import ENDED, NO_WIN, WON, Tables
from ksolve.endgame.symmetry import SQUARE_MAP

WIN, LOSS, UNKNOWN, LOST = 1, 0, -1, 2
"""Won; lost within the moves asked; not decided within the budget; lost at any length
(every line of play the refutation follows ends in a capture, a draw, or on a square
White could not win even seeing the king)."""
FOREVER = 126
"""A disproof depth meaning "lost at any length" (``LOST``)."""
MAX_DEPTH = 120
"""The most moves a search may be asked for (below ``FOREVER``)."""
NEVER = 127
"""A proof depth meaning "not proven"."""
DOMINANCE = 8
"""Proofs and disproofs kept per placement for the containment checks."""
PROBES = 4
"""Slots of the transposition table a key may use (the cheapest is replaced)."""
ENTRY_BYTES = 8 + 8 + 1 + 1 + 8
"""One transposition entry: placement, squares, proof, disproof, work."""

NODES, BUDGET, TABLE_HITS, BOUND_CUTS, DOMINANCE_HITS, START_HITS, STORES, MAX_KEYS, MAX_CHILDREN, MAX_MOVES = range(10)
COUNTERS = 10
NONE = 9
"""No child turn has returned."""


class Workspace(NamedTuple):
    """Everything the search learns, shared by all the searches of a sweep."""

    table_placement: np.ndarray
    table_squares: np.ndarray
    table_proven: np.ndarray
    table_disproven: np.ndarray
    table_work: np.ndarray
    start_mask: np.ndarray
    """c -> the black king's squares at the start of the sweep (by default all legal ones)."""
    start_proven: np.ndarray
    """c -> every start class (``start_mask`` split by what White hears at the start) is won
    within this many moves (``NEVER``: not known); so is every belief inside ``start_mask``
    that White can meet, since each lies inside one class."""
    proven_sets: np.ndarray
    proven_depth: np.ndarray
    proven_next: np.ndarray
    disproven_sets: np.ndarray
    disproven_depth: np.ndarray
    disproven_next: np.ndarray
    history: np.ndarray
    """Per attempt: how often and how deep it has won (the move order)."""
    counters: np.ndarray

    @classmethod
    def create(cls, tables: Tables, entries: int) -> Workspace:
        """An empty workspace with room for ``entries`` transposition entries (a power of two is used)."""
        size = 1 << max(10, (max(1, entries) - 1).bit_length())
        configs = len(tables.full)
        counters = np.zeros(COUNTERS, dtype=np.int64)
        counters[MAX_KEYS] = int((tables.key_hi - tables.key_lo).max()) if configs else 0
        classes = int((tables.class_hi - tables.class_lo).max()) if len(tables.class_hi) else 0
        counters[MAX_CHILDREN] = classes * max(1, int(counters[MAX_KEYS])) + 1
        counters[MAX_MOVES] = max(1, int((tables.move_hi - tables.move_lo).max())) if configs else 1
        return cls(
            table_placement=np.full(size, -1, dtype=np.int64), table_squares=np.zeros(size, dtype=np.uint64),
            table_proven=np.full(size, NEVER, dtype=np.int8), table_disproven=np.zeros(size, dtype=np.int8),
            table_work=np.zeros(size, dtype=np.int64),
            start_mask=tables.full.copy(), start_proven=np.full(configs, NEVER, dtype=np.int64),
            proven_sets=np.zeros((configs, DOMINANCE), dtype=np.uint64),
            proven_depth=np.full((configs, DOMINANCE), NEVER, dtype=np.int64),
            proven_next=np.zeros(configs, dtype=np.int64),
            disproven_sets=np.zeros((configs, DOMINANCE), dtype=np.uint64),
            disproven_depth=np.zeros((configs, DOMINANCE), dtype=np.int64),
            disproven_next=np.zeros(configs, dtype=np.int64),
            history=np.zeros(len(tables.move_code), dtype=np.int64), counters=counters)

    @staticmethod
    def entry_bytes() -> int:
        return ENTRY_BYTES


def wins(tables: Tables, work: Workspace, c: int, squares: int, moves: int, budget: int) -> int:
    """``WIN``, ``LOSS``, ``LOST`` (at any length), or ``UNKNOWN`` when ``budget``
    more nodes did not decide it."""
    if not 0 < moves <= MAX_DEPTH:
        raise ValueError(f"moves must be 1 to {MAX_DEPTH}, not {moves}")
    work.counters[BUDGET] = work.counters[NODES] + budget
    return int(_wins(tables, work, SQUARE_MAP, c, np.uint64(squares), moves, -1))


def attempt_wins(tables: Tables, work: Workspace, c: int, squares: int, j: int, moves: int, budget: int) -> int:
    """Whether trying attempt ``j`` first wins ``squares`` within ``moves`` (as ``wins``)."""
    work.counters[BUDGET] = work.counters[NODES] + budget
    return int(_wins(tables, work, SQUARE_MAP, c, np.uint64(squares), moves, j))


def canonical(tables: Tables, c: int, squares: int) -> tuple[int, int]:
    """The canonical image of ``squares`` under the placement's own symmetries and the symmetry used."""
    best, g = _canonical(tables, SQUARE_MAP, c, np.uint64(squares))
    return int(best), int(g)


@njit(cache=True, inline="always")
def _map(square_map, g, mask):
    if g == 0:
        return mask
    out = np.uint64(0)
    rest = mask
    while rest:
        out |= np.uint64(1) << np.uint64(square_map[g, lsb(rest)])
        rest &= rest - np.uint64(1)
    return out


@njit(cache=True)
def _canonical(t, square_map, c, s):
    """The least image of ``s`` under the symmetries leaving placement ``c`` in place."""
    best = s
    used = 0
    stab = t.stabiliser[c]
    if stab == 1:
        return best, used
    for g in range(1, 8):
        if stab & (1 << g):
            image = _map(square_map, g, s)
            if image < best:
                best = image
                used = g
    return best, used


@njit(cache=True, inline="always")
def _hash(c, s):
    x = s ^ (np.uint64(c) * np.uint64(0x9E3779B97F4A7C15))
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def _find(w, c, s):
    """The slot holding (c, s), or -1."""
    mask = np.uint64(w.table_placement.shape[0] - 1)
    h = _hash(c, s) & mask
    for probe in range(PROBES):
        slot = np.int64((h + np.uint64(probe)) & mask)
        if w.table_placement[slot] == c and w.table_squares[slot] == s:
            return slot
        if w.table_placement[slot] < 0:
            return -1
    return -1


@njit(cache=True)
def _store(t, w, c, s, proven, disproven, work):
    """Keep what is known of (c, s): won within ``proven``, lost within ``disproven``."""
    w.counters[STORES] += 1
    if s == w.start_mask[c] and proven < w.start_proven[c]:
        w.start_proven[c] = proven
    if proven < NEVER:
        d = w.proven_next[c]
        w.proven_sets[c, d] = s
        w.proven_depth[c, d] = proven
        w.proven_next[c] = (d + 1) % DOMINANCE
    if disproven > 0:
        d = w.disproven_next[c]
        w.disproven_sets[c, d] = s
        w.disproven_depth[c, d] = disproven
        w.disproven_next[c] = (d + 1) % DOMINANCE
    mask = np.uint64(w.table_placement.shape[0] - 1)
    h = _hash(c, s) & mask
    victim = -1
    for probe in range(PROBES):
        slot = np.int64((h + np.uint64(probe)) & mask)
        if w.table_placement[slot] == c and w.table_squares[slot] == s:
            victim = slot
            break
        if w.table_placement[slot] < 0:
            victim = slot
            break
        if victim < 0 or w.table_work[slot] < w.table_work[victim]:
            victim = slot
    if w.table_placement[victim] == c and w.table_squares[victim] == s:
        if proven < w.table_proven[victim]:  # noqa: PLR1730 (numba kernel)
            w.table_proven[victim] = proven
        if disproven > w.table_disproven[victim]:  # noqa: PLR1730 (numba kernel)
            w.table_disproven[victim] = disproven
        w.table_work[victim] += work
        return
    w.table_placement[victim] = c
    w.table_squares[victim] = s
    w.table_proven[victim] = proven
    w.table_disproven[victim] = disproven
    w.table_work[victim] = work


@njit(cache=True)
def _known(t, w, c, s, n):
    """WIN, LOSS or LOST if the tables, the bounds or dominance decide (c, s, n); else UNKNOWN."""
    if w.start_proven[c] <= n and s & ~w.start_mask[c] == 0:
        w.counters[START_HITS] += 1
        return WIN
    rest = s
    while rest:
        distance = t.distance[c, lsb(rest)]
        if distance > n:
            w.counters[BOUND_CUTS] += 1
            return LOST if distance == NO_WIN else LOSS
        rest &= rest - np.uint64(1)
    slot = _find(w, c, s)
    if slot >= 0:
        if w.table_proven[slot] <= n:
            w.counters[TABLE_HITS] += 1
            return WIN
        if w.table_disproven[slot] >= n:
            w.counters[TABLE_HITS] += 1
            return LOST if w.table_disproven[slot] >= FOREVER else LOSS
    for d in range(DOMINANCE):
        if w.proven_depth[c, d] <= n and s & ~w.proven_sets[c, d] == 0:
            w.counters[DOMINANCE_HITS] += 1
            return WIN
        if w.disproven_depth[c, d] >= n and w.disproven_sets[c, d] & ~s == 0:
            w.counters[DOMINANCE_HITS] += 1
            return LOST if w.disproven_depth[c, d] >= FOREVER else LOSS
    return UNKNOWN


@njit(cache=True)
def _children(t, w, square_map, c, s, j, n, kc, ks, kn, acc):
    """The beliefs White may face after trying attempt ``j`` with the king on ``s``:
    their count in ``kc/ks/kn`` (placement, canonical squares, moves left; room
    for ``MAX_CHILDREN``: answers times reply classes, and the "No"); -1 when an
    answer or a reply ends the game without White's win (a draw, a capture), -2
    when the game goes on after White's last move."""
    count = 0
    refused = s & t.move_refused[j]
    legal = s & ~refused
    c2 = t.move_next[j]
    g = t.move_sym[j]
    lo = t.key_lo[c2]
    keys = t.key_hi[c2] - lo
    for i in range(t.class_lo[j], t.class_hi[j]):
        part = legal & t.class_mask[i]
        if part == 0:
            continue
        kind = t.class_kind[i]
        if kind == WON:
            continue
        if kind == ENDED:
            return -1
        if n == 1:
            return -2
        for k in range(keys):
            acc[k] = 0
        rest = _map(square_map, g, part)
        while rest:
            s2 = lsb(rest)
            for e in range(t.reply_start[c2, s2], t.reply_start[c2, s2 + 1]):
                acc[t.reply_key[e] - lo] |= t.reply_target[e]
            rest &= rest - np.uint64(1)
        for k in range(keys):
            if acc[k] == 0:
                continue
            if t.key_kind[lo + k] == ENDED:
                return -1
            c3 = t.key_next[lo + k]
            s3, _ = _canonical(t, square_map, c3, _map(square_map, t.key_sym[lo + k], acc[k]))
            kc[count] = c3
            ks[count] = s3
            kn[count] = n - 1
            count += 1
    if refused:
        kc[count] = c
        ks[count] = refused
        kn[count] = n
        count += 1
    return count


@njit(cache=True)
def _viable(t, j, legal, n):
    """Whether attempt ``j`` could win within ``n`` on every square of ``legal`` if
    White saw the king: 1 yes, 0 no, -1 never (on some square it wins at no length)."""
    rest = legal
    while rest:
        distance = t.move_distance[j, lsb(rest)]
        if distance > n:
            return -1 if distance == NO_WIN else 0
        rest &= rest - np.uint64(1)
    return 1


@njit(cache=True)
def _grown(array):
    """``array`` with twice the rows, the first ones copied."""
    shape = (array.shape[0] * 2,) + array.shape[1:]
    out = np.zeros(shape, dtype=array.dtype)
    out[:array.shape[0]] = array
    return out


@njit(cache=True)
def _wins(t, w, square_map, c0, s0, n0, only):
    """The search: WIN, LOSS, LOST or UNKNOWN (out of budget); with ``only`` >= 0
    whether that attempt wins (the turn itself is then neither counted nor stored).

    Depth-first without recursion: one frame per open turn, holding its
    attempts in order, the attempt being tried, its children and how many of
    them are won so far, and whether every attempt refuted so far was refuted
    at any length (then so is the turn: ``LOST``)."""
    if n0 <= 0:
        return LOSS
    if s0 == 0:
        return WIN
    if only < 0:
        s0, _ = _canonical(t, square_map, c0, s0)
        known = _known(t, w, c0, s0, n0)
        if known != UNKNOWN:
            return known
        if w.counters[NODES] >= w.counters[BUDGET]:
            return UNKNOWN
        w.counters[NODES] += 1
    room = w.counters[MAX_CHILDREN]
    widest = w.counters[MAX_MOVES]
    capacity = 64
    frame_c = np.empty(capacity, dtype=np.int64)
    frame_s = np.empty(capacity, dtype=np.uint64)
    frame_n = np.empty(capacity, dtype=np.int64)
    frame_started = np.empty(capacity, dtype=np.int64)
    frame_count = np.empty(capacity, dtype=np.int64)
    frame_at = np.empty(capacity, dtype=np.int64)
    frame_move = np.empty(capacity, dtype=np.int64)
    frame_open = np.empty(capacity, dtype=np.int64)
    frame_next = np.empty(capacity, dtype=np.int64)
    frame_forever = np.empty(capacity, dtype=np.bool_)
    frame_order = np.empty((capacity, widest), dtype=np.int64)
    kid_c = np.empty((capacity, room), dtype=np.int64)
    kid_s = np.empty((capacity, room), dtype=np.uint64)
    kid_n = np.empty((capacity, room), dtype=np.int64)
    pending = np.empty((capacity, room), dtype=np.int64)
    acc = np.zeros(max(1, w.counters[MAX_KEYS]), dtype=np.uint64)
    top = 0
    c, s, n = c0, s0, n0
    returned = NONE
    entering = True
    while True:
        if entering:  # a new frame for turn (c, s, n)
            entering = False
            if top == capacity:
                capacity *= 2
                frame_c = _grown(frame_c)
                frame_s = _grown(frame_s)
                frame_n = _grown(frame_n)
                frame_started = _grown(frame_started)
                frame_count = _grown(frame_count)
                frame_at = _grown(frame_at)
                frame_move = _grown(frame_move)
                frame_open = _grown(frame_open)
                frame_next = _grown(frame_next)
                frame_forever = _grown(frame_forever)
                frame_order = _grown(frame_order)
                kid_c = _grown(kid_c)
                kid_s = _grown(kid_s)
                kid_n = _grown(kid_n)
                pending = _grown(pending)
            f = top
            top += 1
            frame_c[f], frame_s[f], frame_n[f] = c, s, n
            frame_started[f] = w.counters[NODES]
            frame_at[f] = 0
            frame_next[f] = -1
            frame_forever[f] = True
            if only >= 0 and f == 0:
                frame_count[f] = 1
                frame_order[f, 0] = only
            else:
                lo = t.move_lo[c]
                count = t.move_hi[c] - lo
                frame_count[f] = count
                order = frame_order[f]
                for a in range(count):  # best history first
                    item = lo + a
                    value = w.history[item]
                    b = a - 1
                    while b >= 0 and w.history[order[b]] < value:
                        order[b + 1] = order[b]
                        b -= 1
                    order[b + 1] = item
        f = top - 1
        c, s, n = frame_c[f], frame_s[f], frame_n[f]
        if returned != NONE:  # a child turn is decided
            result = returned
            returned = NONE
            if result == UNKNOWN:
                return UNKNOWN
            if result == WIN:
                frame_next[f] += 1
            else:
                frame_forever[f] = frame_forever[f] and result == LOST
                frame_at[f] += 1
                frame_next[f] = -1
        if frame_next[f] >= 0:  # the current attempt's children still open
            lost = False
            while frame_next[f] < frame_open[f]:
                i = pending[f, frame_next[f]]
                known = _known(t, w, kid_c[f, i], kid_s[f, i], kid_n[f, i])
                if known == WIN:
                    frame_next[f] += 1
                    continue
                if known == LOSS or known == LOST:
                    frame_forever[f] = frame_forever[f] and known == LOST
                    lost = True
                    break
                if w.counters[NODES] >= w.counters[BUDGET]:
                    return UNKNOWN
                w.counters[NODES] += 1
                c, s, n = kid_c[f, i], kid_s[f, i], kid_n[f, i]
                entering = True
                break
            if entering:
                continue
            if not lost:  # every child won: so does the attempt
                j = frame_move[f]
                if not (only >= 0 and f == 0):
                    w.history[j] += n * n
                    _store(t, w, c, s, n, 0, w.counters[NODES] - frame_started[f] + 1)
                top -= 1
                if top == 0:
                    return WIN
                returned = WIN
                continue
            frame_at[f] += 1
            frame_next[f] = -1
        # the next attempt worth searching
        found = False
        root_only = only >= 0 and f == 0
        while frame_at[f] < frame_count[f]:
            j = frame_order[f, frame_at[f]]
            refused = s & t.move_refused[j]
            if refused == s:
                frame_at[f] += 1
                continue
            if not root_only:
                viable = _viable(t, j, s & ~refused, n)
                if viable != 1:
                    frame_forever[f] = frame_forever[f] and viable < 0
                    frame_at[f] += 1
                    continue
            kids = _children(t, w, square_map, c, s, j, n, kid_c[f], kid_s[f], kid_n[f], acc)
            if kids < 0:
                frame_forever[f] = frame_forever[f] and kids == -1
                frame_at[f] += 1
                continue
            # the children the tables decide first, then the others, fewest squares first
            open_count = 0
            lost = False
            for i in range(kids):
                known = _known(t, w, kid_c[f, i], kid_s[f, i], kid_n[f, i])
                if known == LOSS or known == LOST:
                    frame_forever[f] = frame_forever[f] and known == LOST
                    lost = True
                    break
                if known == UNKNOWN:
                    item = i
                    size = popcount(kid_s[f, i])
                    y = open_count - 1
                    while y >= 0 and popcount(kid_s[f, pending[f, y]]) > size:
                        pending[f, y + 1] = pending[f, y]
                        y -= 1
                    pending[f, y + 1] = item
                    open_count += 1
            if lost:
                frame_at[f] += 1
                continue
            frame_move[f] = j
            frame_open[f] = open_count
            frame_next[f] = 0
            found = True
            break
        if found:
            continue
        verdict = LOST if frame_forever[f] else LOSS
        if not root_only:  # no attempt wins
            _store(t, w, c, s, NEVER, FOREVER if verdict == LOST else n, w.counters[NODES] - frame_started[f] + 1)
        top -= 1
        if top == 0:
            return verdict
        returned = verdict
