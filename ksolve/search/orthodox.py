"""Full-information lower bounds: orthodox forced mate (king capture in Fog
of War) within a few moves, with a transposition table shared by all calls.

If White cannot force a win in ``n`` moves even seeing everything, he cannot
with less information.  Two uses in the prover:

- ``fails_in``: a belief holding a position without an orthodox win in ``n``
  is lost in ``n``;
- ``viable_attempts``: an attempt is worth searching only if, in every member
  where it is legal, it is an orthodox winning first move within ``n`` (where
  it is refused the member stays, with ``n`` moves, and is checked by the
  bound on that smaller belief).

The table (``OrthodoxTable``) maps a position's Zobrist hash (White to move)
to the fewest moves it is known to win in (0: none known) and the most it is
known to fail in.  It is bypassed near a move-count draw, where the halfmove clock (not in
the hash) could matter.

>>> from ksolve.board import position_from_fen
>>> from ksolve.rules.kernels import BERKELEY_FLAGS
>>> table = OrthodoxTable(1 << 16)
>>> bool(orthodox_wins(position_from_fen("6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1"), 1, BERKELEY_FLAGS, False, *table.arrays))
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.attacks import bishop_attacks, color_occupancy, rook_attacks
from ksolve.board.bitops import lsb
from ksolve.board.layout import (
    BISHOP, COLUMN_BLACK, COLUMN_HALFMOVE, COLUMN_HASH, COLUMN_TURN, KING, KNIGHT, MAX_MOVES, PAWN,
    POSITION_WIDTH, QUEEN, ROOK,
)
from ksolve.board.makemove import make_move
from ksolve.board.movegen import checkers_of, checking_moves, fog_moves, has_legal_move, legal_moves
from ksolve.board.tables import BETWEEN, BISHOP_PSEUDO, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS, ROOK_PSEUDO, SQUARE_BB
from ksolve.rules.kernels import FLAG_INSUFFICIENT, FLAG_MOVE_LIMIT, is_insufficient



class OrthodoxTable:
    """A fixed-size hash table of orthodox results (``size`` a power of two, at
    least ``MIN_SLOTS``): one 64-bit word a slot, so that a slot is read and
    written whole (an aligned word is, on every processor numba targets), and
    workers sharing the table (``OrthodoxTable.over`` shared memory) can never
    read one position's key with another's result.

    A position's word: its hash's upper 48 bits, the fewest moves it is known
    to win in (bits 8-15, 0: none known) and the most it is known to fail in
    (bits 0-7); its slot is chosen by the hash's lower bits, so with at least
    ``MIN_SLOTS`` slots the slot and the word together hold the whole hash.
    A move's word (``move_wins`` results): its key but the lowest two bits,
    and 1 (loses) or 2 (wins).

    >>> table = OrthodoxTable(1 << 16)
    >>> table.slots.nbytes + table.move_slots.nbytes
    1048576
    """

    def __init__(self, size: int = 1 << 20, words: np.ndarray | None = None) -> None:
        if size < MIN_SLOTS or size & (size - 1):
            raise ValueError(f"an orthodox table has a power of two slots, at least {MIN_SLOTS}, not {size}")
        # All zeros (0 = nothing known), so the operating system hands out the
        # pages lazily: a small problem touches a few of them.
        words = np.zeros(2 * size, dtype=np.uint64) if words is None else words
        self.slots = words[:size]
        self.move_slots = words[size:2 * size]

    @classmethod
    def over(cls, words: np.ndarray) -> "OrthodoxTable":
        """The table whose slots are ``words`` (``2 * size`` of them, e.g. shared memory)."""
        return cls(words.shape[0] // 2, words)

    @property
    def arrays(self) -> tuple[np.ndarray]:
        """The position table, as the kernels take it."""
        return (self.slots,)

    @property
    def move_arrays(self) -> tuple[np.ndarray]:
        """The (position, move, moves) table of ``move_wins`` results."""
        return (self.move_slots,)


MIN_SLOTS = 1 << 16
"""The fewest slots: the slot's index (the hash's lowest bits) and the word's
tag (its upper 48) then cover the whole hash."""
TAG_MASK = np.uint64(0xFFFFFFFFFFFF0000)
MOVE_TAG_MASK = np.uint64(0xFFFFFFFFFFFFFFFC)


@njit(cache=True, inline="always", _nrt=False)
def _slot_of(h, slots):
    """``(slot, word)`` of hash ``h``, or ``(-1, 0)``: a position lives in one of
    a pair of slots (``h``'s own and its neighbour, in the same cache line).
    The word is the one read there, once: a worker sharing the table may
    overwrite the slot, and reading it again could give another position's."""
    slot = np.int64(h & np.uint64(slots.shape[0] - 1))
    word = slots[slot]
    if word != 0 and (word ^ h) & TAG_MASK == 0:
        return slot, word
    word = slots[slot ^ 1]
    if word != 0 and (word ^ h) & TAG_MASK == 0:
        return slot ^ 1, word
    return np.int64(-1), np.uint64(0)


@njit(cache=True, inline="always", _nrt=False)
def _won(word):
    return np.int64((word >> np.uint64(8)) & np.uint64(0xFF))


@njit(cache=True, inline="always", _nrt=False)
def _lost(word):
    return np.int64(word & np.uint64(0xFF))


@njit(cache=True, inline="always", _nrt=False)
def _probe(position, moves, flags, slots):
    """1 known win, 0 known loss, -1 unknown (or too near a move-count draw)."""
    if np.int64(position[COLUMN_HALFMOVE]) + 2 * moves >= flags[FLAG_MOVE_LIMIT]:
        return -1
    slot, word = _slot_of(position[COLUMN_HASH], slots)
    if slot < 0:
        return -1
    won = _won(word)
    if won != 0 and won <= moves:
        return 1
    if _lost(word) >= moves:
        return 0
    return -1


@njit(cache=True, inline="always", _nrt=False)
def _store(position, moves, result, flags, slots):
    """Keep a result.  A new position takes its own slot if what that holds was
    proven for as few moves or fewer (the deeper result cost more to find),
    else the neighbour, whatever it holds (so the table never clogs)."""
    if np.int64(position[COLUMN_HALFMOVE]) + 2 * moves >= flags[FLAG_MOVE_LIMIT]:
        return
    h = position[COLUMN_HASH]
    slot, word = _slot_of(h, slots)
    if slot < 0:
        slot = np.int64(h & np.uint64(slots.shape[0] - 1))
        resident = slots[slot]
        if resident != 0 and max(_won(resident), _lost(resident)) > moves:
            slot = slot ^ 1
        won, lost = np.int64(0), np.int64(0)
    else:
        won, lost = _won(word), _lost(word)
    if result == 1:
        won = moves if won == 0 else min(won, moves)
    else:
        lost = max(lost, moves)
    slots[slot] = (h & TAG_MASK) | (np.uint64(won) << np.uint64(8)) | np.uint64(lost)


@njit(cache=True)
def orthodox_wins(position, moves, flags, fog, slots):
    """Whether White, seeing everything, forces a win within ``moves`` moves."""
    return _search(position, moves, flags, fog, slots, 0, workspace(moves)) == 1


@njit(cache=True)
def workspace(moves):
    """Scratch arrays for a search of ``moves`` moves: ``(stack, lists, counts,
    index, scratch, spare)``.  The search kernels themselves run without
    numba's reference counting (``_nrt=False``), which made every array view
    an atomic increment and decrement and cost about half of their time."""
    rows = 2 * moves + 1
    return (np.empty((rows, POSITION_WIDTH), dtype=np.uint64), np.empty((rows, MAX_MOVES), dtype=np.int64),
            np.zeros(rows, dtype=np.int64), np.zeros(rows, dtype=np.int64),
            np.empty(POSITION_WIDTH, dtype=np.uint64), np.empty(MAX_MOVES, dtype=np.int64))


@njit(cache=True, inline="always", _nrt=False)
def _copy_row(source, target):
    for column in range(POSITION_WIDTH):
        target[column] = source[column]


@njit(cache=True, _nrt=False)
def _search(position, moves, flags, fog, slots, budget, work):
    """1 if White forces a win within ``moves``, 0 if not, -1 if undecided
    after ``budget`` moves made (0: no budget); ``work`` is a ``workspace``
    of at least ``moves`` moves.

    An iterative AND-OR depth-first search (even plies White's, odd Black's).
    On White's last move only checks (king captures in Fog of War) can win.
    """
    known = _probe(position, moves, flags, slots)
    if known >= 0:
        return known
    stack, lists, counts, index, scratch, spare = work
    _copy_row(position, stack[0])
    index[0] = 0
    counts[0] = checking_moves(stack[0], lists[0])[0] if not fog and moves == 1 else _generate(stack[0], lists[0], fog)
    if not fog and moves > 1:
        _checks_first(stack[0], lists[0], counts[0], scratch)
    ply = 0
    made = 0
    while True:
        made += 1
        if budget > 0 and made > budget:
            return -1
        result = -1  # -1: keep going at this ply; 0/1: this ply's node is decided
        if index[ply] == counts[ply]:
            result = 0 if ply % 2 == 0 else 1  # White found no win / Black found no escape
        elif ply % 2 == 0:
            move = lists[ply, index[ply]]
            index[ply] += 1
            last = ply // 2 + 1 == moves
            result = _after_white_move(stack, lists, counts, index, ply, move, last, flags, fog)
            if result == 2:
                left = moves - ply // 2 - 1
                if left >= 2 and _known_escape(stack[ply + 1], lists[ply + 1], counts[ply + 1], left, flags, fog,
                                               slots, scratch):
                    result = -1  # a reply known to refute: the move does not win
                else:
                    ply += 1
                    result = -1
        else:
            reply = lists[ply, index[ply]]
            index[ply] += 1
            child = stack[ply + 1]
            make_move(stack[ply], reply, child)
            left = moves - (ply + 1) // 2
            # A position known won has moves and is no draw: probe before generating.
            known = -1 if fog and child[KING] == 0 else _probe(child, left, flags, slots)
            ended = False
            legal = 0
            if known < 0:
                if fog:
                    ended = child[KING] == 0
                    counts[ply + 1] = 0 if ended else fog_moves(child, lists[ply + 1])
                elif left == 1:  # White's last move: only the moves that may check are listed
                    counts[ply + 1], legal = checking_moves(child, lists[ply + 1])
                    ended = legal == 0 or _drawn(child, flags)
                else:
                    counts[ply + 1] = legal_moves(child, lists[ply + 1])
                    ended = counts[ply + 1] == 0 or _drawn(child, flags)
            if ended:
                result = 0
            else:
                if known >= 0:
                    result = -1 if known == 1 else 0
                elif left == 1 and not fog:  # White's last move: one pass over those that may check
                    made += legal  # all his moves count, as when each was tested: a budget buys the same search
                    mates = _mates_in_one(child, lists[ply + 1], counts[ply + 1], flags, scratch, spare)
                    _store(child, 1, mates, flags, slots)
                    result = -1 if mates else 0
                else:
                    if not fog and left > 1:
                        _checks_first(child, lists[ply + 1], counts[ply + 1], scratch)
                    index[ply + 1] = 0
                    ply += 1
        while result >= 0:  # a decided node answers its parent
            if ply % 2 == 0:
                _store(stack[ply], moves - ply // 2, result, flags, slots)
            if ply == 0:
                return result
            ply -= 1
            if ply % 2 == 0:  # White's node: a winning move decides it, a losing one does not
                result = 1 if result == 1 else -1
            else:  # Black's node: a refutation decides it
                result = 0 if result == 0 else -1


@njit(cache=True, _nrt=False)
def _after_white_move(stack, lists, counts, index, ply, move, last, flags, fog):
    """1: the move wins at once; -1: it does not (try the next); 2: go on to Black's replies."""
    position = stack[ply]
    child = stack[ply + 1]
    if fog:
        if position[COLUMN_BLACK + KING] & SQUARE_BB[(move >> 6) & 63]:
            return 1
        if last:
            return -1
        make_move(position, move, child)
        counts[ply + 1] = fog_moves(child, lists[ply + 1])
        index[ply + 1] = 0
        return 2 if counts[ply + 1] > 0 else -1
    if last:
        if not gives_check(position, move, child):
            return -1
        make_move(position, move, child)
        if not has_legal_move(child, lists[ply + 1]) and not _drawn(child, flags):
            return 1
        return -1
    make_move(position, move, child)
    counts[ply + 1] = legal_moves(child, lists[ply + 1])
    if counts[ply + 1] == 0:  # mate or stalemate
        return 1 if checkers_of(child) != 0 and not _drawn(child, flags) else -1
    if _drawn(child, flags):
        return -1
    _captures_first(child, lists[ply + 1], counts[ply + 1])
    index[ply + 1] = 0
    return 2


@njit(cache=True, _nrt=False)
def _known_escape(position, replies, count, left, flags, fog, slots, scratch):
    """Whether one of Black's ``replies`` leads where the table already knows
    White has no win in ``left`` (an enhanced transposition cutoff: probing
    every reply costs less than searching the first)."""
    for j in range(count):
        make_move(position, replies[j], scratch)
        if fog and scratch[KING] == 0:
            return True
        if _probe(scratch, left, flags, slots) == 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def check_context(position):
    """What decides whether a move of the side to move checks the enemy king,
    computed once per position: ``(king square or -1, squares from which a
    pawn / knight / bishop / rook checks, men whose leaving the line to the
    king discovers a check)``."""
    us = np.int64(position[COLUMN_TURN])
    king = position[(1 - us) * COLUMN_BLACK + KING]
    zero = np.uint64(0)
    if king == 0:
        return -1, zero, zero, zero, zero, zero
    ksq = lsb(king)
    base = us * COLUMN_BLACK
    ours = color_occupancy(position, us)
    occupied = ours | color_occupancy(position, 1 - us)
    queens = position[base + QUEEN]
    snipers = ((ROOK_PSEUDO[ksq] & (position[base + ROOK] | queens))
               | (BISHOP_PSEUDO[ksq] & (position[base + BISHOP] | queens)))
    discoverers = zero
    while snipers:
        sniper = lsb(snipers)
        snipers &= snipers - np.uint64(1)
        between = BETWEEN[ksq, sniper] & occupied
        if between and not between & (between - np.uint64(1)) and between & ours:
            discoverers |= between
    return (ksq, PAWN_ATTACKS[1 - us, ksq], KNIGHT_ATTACKS[ksq], bishop_attacks(ksq, occupied),
            rook_attacks(ksq, occupied), discoverers)


@njit(cache=True, inline="always", _nrt=False)
def _checks(position, move, context, scratch):
    """Whether the legal ``move`` checks, given the position's ``check_context``
    (castling, en passant and promotions are made in ``scratch``)."""
    ksq, pawn_squares, knight_squares, bishop_squares, rook_squares, discoverers = context
    if ksq < 0:
        return False
    start = move & 63
    to = (move >> 6) & 63
    from_bb = SQUARE_BB[start]
    to_bb = SQUARE_BB[to]
    base = np.int64(position[COLUMN_TURN]) * COLUMN_BLACK
    piece = KING
    for p in range(5):
        if position[base + p] & from_bb:
            piece = p
            break
    if (move >> 12) != 0 or (piece == KING and abs((to & 7) - (start & 7)) == 2) or (
            piece == PAWN and (to & 7) != (start & 7)
            and not (color_occupancy(position, 0) | color_occupancy(position, 1)) & to_bb):
        make_move(position, move, scratch)  # promotion, castling, en passant
        return checkers_of(scratch) != 0
    if discoverers & from_bb and not LINE[ksq, start] & to_bb:
        return True
    if piece == PAWN:
        return (pawn_squares & to_bb) != 0
    if piece == KNIGHT:
        return (knight_squares & to_bb) != 0
    if piece == BISHOP:
        return (bishop_squares & to_bb) != 0
    if piece == ROOK:
        return (rook_squares & to_bb) != 0
    if piece == QUEEN:
        return ((bishop_squares | rook_squares) & to_bb) != 0
    return False


@njit(cache=True, _nrt=False)
def gives_check(position, move, scratch):
    """Whether the legal ``move`` checks the enemy king, mostly without making
    it (promotions, castling and en passant are made in ``scratch``)."""
    return _checks(position, move, check_context(position), scratch)


@njit(cache=True, _nrt=False)
def _mates_in_one(position, moves, count, flags, scratch, spare):
    """Whether one of White's ``moves`` mates (orthodox chess)."""
    context = check_context(position)
    for i in range(count):
        if _checks(position, moves[i], context, scratch):
            make_move(position, moves[i], scratch)
            if not has_legal_move(scratch, spare) and not _drawn(scratch, flags):
                return True
    return False


@njit(cache=True, _nrt=False)
def _checks_first(position, moves, count, scratch):
    """Reorder White's ``moves`` in place: checking moves first (mates are checks)."""
    context = check_context(position)
    front = 0
    for i in range(count):
        if _checks(position, moves[i], context, scratch):
            moves[front], moves[i] = moves[i], moves[front]
            front += 1


@njit(cache=True, _nrt=False)
def _captures_first(position, moves, count):
    """Reorder Black's ``moves`` in place: captures first (the usual refutations)."""
    us = np.int64(position[COLUMN_TURN])
    theirs = np.uint64(0)
    for piece in range(6):
        theirs |= position[(1 - us) * COLUMN_BLACK + piece]
    front = 0
    for i in range(count):
        if theirs & SQUARE_BB[(moves[i] >> 6) & 63]:
            moves[front], moves[i] = moves[i], moves[front]
            front += 1


@njit(cache=True, _nrt=False)
def _drawn(position, flags):
    """A referee's draw for lack of material or the move limit."""
    return (is_insufficient(position, flags[FLAG_INSUFFICIENT])
            or np.int64(position[COLUMN_HALFMOVE]) >= flags[FLAG_MOVE_LIMIT])


@njit(cache=True, _nrt=False)
def _generate(position, out, fog):
    return fog_moves(position, out) if fog else legal_moves(position, out)


@njit(cache=True)
def fails_in(positions, moves, spec, slots, budget):
    """Index of the first position shown to have no orthodox win in ``moves``,
    or -1 (a search that runs out of ``budget`` shows nothing); ``spec`` is
    the rule set's ``KernelSpec``."""
    flags, fog = spec.flags, spec.fog
    work = workspace(moves)
    for i in range(positions.shape[0]):
        if _search(positions[i], moves, flags, fog, slots, budget, work) == 0:
            return i
    return -1


@njit(cache=True)
def no_win_within(position, moves, spec, slots, budget):
    """Whether ``position`` is shown to have no orthodox win within ``moves``.

    The depths are searched one after another, the last with ``budget`` moves
    and each shallower one with a quarter of the next one's (the tree grows
    about fourfold a move; at least ``DEEPENING_FLOOR``): a short win ends
    the search at once, where one search of all ``moves`` went deep first
    and often spent its whole budget before trying it.  False when a win is
    found or a search runs out of its share (nothing shown).

    >>> from ksolve.board import position_from_fen
    >>> from ksolve.rules.orthodox import ORTHODOX
    >>> mate_in_two = position_from_fen("3bR3/8/5B2/p7/P7/3Np3/4P2p/5K1k w - - 6 4")
    >>> table = OrthodoxTable(1 << 16)
    >>> bool(no_win_within(mate_in_two, 8, ORTHODOX.spec, *table.arrays, 50_000))
    False
    >>> bool(no_win_within(mate_in_two, 1, ORTHODOX.spec, *table.arrays, 50_000))
    True
    """
    flags, fog = spec.flags, spec.fog
    work = workspace(moves)
    for depth in range(1, moves + 1):
        share = max(DEEPENING_FLOOR, budget >> (2 * (moves - depth)))
        if _search(position, depth, flags, fog, slots, share, work) != 0:
            return False
    return True


DEEPENING_FLOOR = 1_000
"""The fewest moves ``no_win_within`` gives a shallow depth's search."""


@njit(cache=True, _nrt=False)
def move_wins(position, move, moves, flags, fog, slots, budget, outer, inner):
    """Whether ``move`` (legal in ``position``) is an orthodox winning first move
    within ``moves``: 1 yes, 0 no, -1 undecided within ``budget`` per reply.
    ``outer`` (a ``workspace(1)``) holds the move and Black's replies, ``inner``
    (a ``workspace(moves)``) the searches after them."""
    stack, lists, counts, index, scratch, spare = outer
    _copy_row(position, stack[0])
    outcome = _after_white_move(stack, lists, counts, index, 0, move, moves == 1, flags, fog)
    if outcome != 2:
        return 1 if outcome == 1 else 0
    child = stack[1]
    grandchild = stack[2]
    for j in range(counts[1]):  # a reply known to refute spares searching the others
        make_move(child, lists[1, j], grandchild)
        if _probe(grandchild, moves - 1, flags, slots) == 0:
            return 0
    undecided = False
    for j in range(counts[1]):
        make_move(child, lists[1, j], grandchild)
        if fog:
            if grandchild[KING] == 0:
                return 0
        elif not has_legal_move(grandchild, lists[2]) or _drawn(grandchild, flags):
            return 0
        result = _search(grandchild, moves - 1, flags, fog, slots, budget, inner)
        if result == 0:
            return 0
        undecided = undecided or result < 0
    return -1 if undecided else 1


@njit(cache=True)
def orthodox_winning_move(position, moves, spec, slots, budget):
    """White's first move, checks first, that wins within ``moves`` with full
    information: the move, -1 if none does, -2 if none was found and a search
    ran out of ``budget`` moves (deciding nothing).

    >>> from ksolve.board import move_to_uci, position_from_fen
    >>> from ksolve.rules.orthodox import ORTHODOX
    >>> table = OrthodoxTable(1 << 16)
    >>> move_to_uci(int(orthodox_winning_move(position_from_fen("6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1"), 1, ORTHODOX.spec, *table.arrays, 0)))
    'e1e8'
    """
    flags, fog = spec.flags, spec.fog
    candidates = np.empty(MAX_MOVES, dtype=np.int64)
    count = _generate(position, candidates, fog)
    if not fog and moves > 1:
        _checks_first(position, candidates, count, np.empty(POSITION_WIDTH, dtype=np.uint64))
    outer, inner = workspace(1), workspace(moves)
    undecided = False
    for i in range(count):
        result = move_wins(position, candidates[i], moves, flags, fog, slots, budget, outer, inner)
        if result == 1:
            return candidates[i]
        undecided = undecided or result < 0
    return -2 if undecided else -1


MOVE_SALT = np.uint64(0x9E3779B97F4A7C15)
DEPTH_SALT = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always", _nrt=False)
def _move_slot(position, move, moves, move_slots):
    """The (key, slot) of ``move`` in ``position`` with ``moves`` left in the move table."""
    key = position[COLUMN_HASH] ^ (np.uint64(move + 1) * MOVE_SALT) ^ (np.uint64(moves) * DEPTH_SALT)
    return key, np.int64(key & np.uint64(move_slots.shape[0] - 1))


@njit(cache=True, _nrt=False)
def _cached_move_wins(position, move, moves, flags, fog, slots, move_slots, budget, outer, inner):
    """``move_wins`` remembered per (position, move, moves) when decided
    (stored as 1 + result, beside the key's upper 62 bits); an undecided move
    counts as winning (it is kept)."""
    key, slot = _move_slot(position, move, moves, move_slots)
    near_draw = np.int64(position[COLUMN_HALFMOVE]) + 2 * moves >= flags[FLAG_MOVE_LIMIT]
    word = move_slots[slot]
    if word & np.uint64(3) != 0 and (word ^ key) & MOVE_TAG_MASK == 0 and not near_draw:
        return word & np.uint64(3) == 2
    result = move_wins(position, move, moves, flags, fog, slots, budget, outer, inner)
    if result < 0:
        return True
    if not near_draw:
        move_slots[slot] = (key & MOVE_TAG_MASK) | np.uint64(2 if result == 1 else 1)
    return result == 1


@njit(cache=True)
def viable_attempts(positions, candidates, moves, spec, slots, move_slots, budget):
    """Per candidate attempt: the index of a position where it is legal but not
    an orthodox winning first move within ``moves``, or -1 (viable); ``spec``
    is the rule set's ``KernelSpec``.

    Positions are tried in the order given, so callers put the positions that
    refuted attempts before first.  An orthodox search that exceeds ``budget``
    moves decides nothing, and the attempt is kept.
    """
    flags, fog = spec.flags, spec.fog
    refuted_by = np.full(candidates.shape[0], -1, dtype=np.int64)
    _refute_into(positions, candidates, moves, flags, fog, slots, move_slots, budget,
                 refuted_by, np.empty(MAX_MOVES, dtype=np.int64), workspace(1), workspace(moves))
    return refuted_by


@njit(cache=True, _nrt=False)
def _refute_into(positions, candidates, moves, flags, fog, slots, move_slots, budget,
                 refuted_by, buffer, outer, inner):
    m = candidates.shape[0]
    open_count = m
    # Position by position (the order given), each position's moves generated
    # once: a candidate is tested where legal until one position refutes it,
    # and positions are no longer generated once every candidate is refuted.
    for i in range(positions.shape[0]):
        if open_count == 0:
            break
        count = _generate(positions[i], buffer, fog)
        for j in range(count):
            move = buffer[j]
            for c in range(m):
                if candidates[c] == move:
                    if refuted_by[c] < 0 and not _cached_move_wins(positions[i], move, moves, flags, fog, slots,
                                                                   move_slots, budget, outer, inner):
                        refuted_by[c] = i
                        open_count -= 1
                    break
