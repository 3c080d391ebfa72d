"""numba kernels of the Kriegspiel referee, vectorised over arrays of positions.

Rule-set differences are a small ``flags`` vector (see ``FLAG_*``), so one
compiled kernel serves all six rule sets.  The announcement of an executed
move follows the order of the referee: capture, promotion, then game end
(stalemate, insufficient material, checkmate, move limit) which replaces the
check announcement, then the pawn-try information of the side now to move.

>>> import numpy as np
>>> from ksolve.board import position_from_fen, move_from_uci
>>> from ksolve.rules.codes import describe
>>> positions = position_from_fen("6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1")[np.newaxis, :]
>>> codes, extras, children = attempt_outcomes(positions, move_from_uci("e1e8"), BERKELEY_FLAGS)
>>> describe(int(codes[0]))
'Checkmate'
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.attacks import attackers_of, color_occupancy
from ksolve.board.batch import expand
from ksolve.board.bitops import lsb, popcount
from ksolve.board.layout import (
    BISHOP, COLUMN_BLACK, COLUMN_HALFMOVE, COLUMN_TURN, KING, KNIGHT, MAX_MOVES, PAWN, QUEEN, ROOK,
)
from ksolve.board.makemove import make_move
from ksolve.board.movegen import has_legal_move, king_square, legal_moves
from ksolve.board.tables import DARK_SQUARES, LIGHT_SQUARES, SQUARE_BB
from ksolve.rules.codes import (
    CAPTURED_PAWN, CHECK_FILE, CHECK_KNIGHT, CHECK_LONG, CHECK_RANK, CHECK_SHORT, EN_PASSANT,
    END_CHECKMATE, END_INSUFFICIENT, END_MASK, END_MOVE_LIMIT, END_SHIFT, END_STALEMATE, ILLEGAL, PAWN_INFO,
    PAWN_TRIES_SHIFT, PROMOTION,
)

ONE = np.uint64(1)
ZERO = np.uint64(0)

# Indices into a rule set's flag vector.
FLAG_CAPTURE_KIND = 0      # 1: say whether a pawn or a piece was captured
FLAG_EN_PASSANT_SQUARE = 1  # 1: en passant announced at the destination with a flag (English)
FLAG_PROMOTION = 2          # 1: promotions are announced (RAND)
FLAG_PAWN_INFO = 3          # PAWN_INFO_* below
FLAG_INSUFFICIENT = 4       # INSUFFICIENT_* below
FLAG_MOVE_LIMIT = 5         # halfmove clock at which the game is drawn
FLAG_COUNT = 6

PAWN_INFO_NONE, PAWN_INFO_COUNT, PAWN_INFO_EXISTS, PAWN_INFO_SQUARES = 0, 1, 2, 3
INSUFFICIENT_BARE = 0       # K v K and K + one minor v K (DOMAIN.md, Berkeley)
INSUFFICIENT_DEAD = 1       # python-chess's is_insufficient_material (the referees of the package)

BERKELEY_FLAGS = np.array([0, 0, 0, PAWN_INFO_NONE, INSUFFICIENT_BARE, 2000], dtype=np.int64)


@njit(cache=True, _nrt=False)
def is_legal(position, move, buffer):
    """Whether ``move`` is legal in ``position`` (``buffer`` is scratch space)."""
    n = legal_moves(position, buffer)
    for i in range(n):
        if buffer[i] == move:
            return True
    return False


@njit(cache=True, _nrt=False)
def _diagonal_is_long(king, other):
    """Whether the diagonal through ``king`` and ``other`` is the longer one at ``king``."""
    kf, kr = king % 8, king // 8
    rising = (other % 8 - kf) * (other // 8 - kr) > 0
    rising_length = 8 - abs(kf - kr)
    falling_length = 8 - abs(kf + kr - 7)
    return rising_length > falling_length if rising else falling_length > rising_length


@njit(cache=True, _nrt=False)
def check_bits(position):
    """Check-direction bits for the side to move's king in ``position``."""
    us = np.int64(position[COLUMN_TURN])
    king = king_square(position, us)
    if king < 0:
        return 0
    occupied = color_occupancy(position, 0) | color_occupancy(position, 1)
    checkers = attackers_of(position, king, 1 - us, occupied)
    bits = 0
    while checkers:
        square = lsb(checkers)
        checkers &= checkers - ONE
        if square % 8 == king % 8:
            bits |= CHECK_FILE
        elif square // 8 == king // 8:
            bits |= CHECK_RANK
        elif abs(square % 8 - king % 8) == abs(square // 8 - king // 8):
            bits |= CHECK_LONG if _diagonal_is_long(king, square) else CHECK_SHORT
        else:
            bits |= CHECK_KNIGHT
    return bits


@njit(cache=True, _nrt=False)
def pawn_captures(position, buffer):
    """Legal pawn captures of the side to move: (count, mask of their source squares).

    The four promotions of one capture count once, en passant counts.
    """
    return _pawn_captures_in(position, buffer, legal_moves(position, buffer))


@njit(cache=True, _nrt=False)
def _pawn_captures_in(position, buffer, n):
    """``pawn_captures`` over the ``n`` legal moves already in ``buffer``."""
    us = np.int64(position[COLUMN_TURN])
    pawns = position[us * COLUMN_BLACK + PAWN]
    count = 0
    sources = ZERO
    for i in range(n):
        move = buffer[i]
        from_square = move & 63
        to_square = (move >> 6) & 63
        promotion = (move >> 12) & 7
        if not pawns & SQUARE_BB[from_square] or from_square % 8 == to_square % 8:
            continue
        if promotion != 0 and promotion != QUEEN:
            continue
        count += 1
        sources |= SQUARE_BB[from_square]
    return count, sources


@njit(cache=True, _nrt=False)
def _has_insufficient_material(position, color):
    """python-chess's rule: ``color`` cannot mate even with the opponent's help."""
    base = color * COLUMN_BLACK
    other = (1 - color) * COLUMN_BLACK
    ours = color_occupancy(position, color)
    if position[base + PAWN] | position[base + ROOK] | position[base + QUEEN]:
        return False
    if position[base + KNIGHT]:
        theirs_minus_king_queen = color_occupancy(position, 1 - color) & ~(position[other + KING] | position[other + QUEEN])
        return popcount(ours) <= 2 and theirs_minus_king_queen == ZERO
    if position[base + BISHOP]:
        bishops = position[BISHOP] | position[COLUMN_BLACK + BISHOP]
        same_color = (bishops & DARK_SQUARES) == ZERO or (bishops & LIGHT_SQUARES) == ZERO
        pawns = position[PAWN] | position[COLUMN_BLACK + PAWN]
        knights = position[KNIGHT] | position[COLUMN_BLACK + KNIGHT]
        return same_color and pawns == ZERO and knights == ZERO
    return True


@njit(cache=True, _nrt=False)
def is_insufficient(position, mode):
    """Whether the referee declares a draw for lack of material (see ``INSUFFICIENT_*``)."""
    if mode == INSUFFICIENT_DEAD:
        return _has_insufficient_material(position, 0) and _has_insufficient_material(position, 1)
    men = popcount(color_occupancy(position, 0) | color_occupancy(position, 1))
    if men == 2:
        return True
    minors = position[KNIGHT] | position[BISHOP] | position[COLUMN_BLACK + KNIGHT] | position[COLUMN_BLACK + BISHOP]
    return men == 3 and minors != ZERO


@njit(cache=True, _nrt=False)
def pawn_info(position, flags, buffer):
    """Start-of-turn pawn-try bits (and RAND squares) for the side to move."""
    if flags[FLAG_PAWN_INFO] == PAWN_INFO_NONE:
        return 0, ZERO
    return _pawn_info_of(flags, *pawn_captures(position, buffer))


@njit(cache=True, _nrt=False)
def _pawn_info_of(flags, count, sources):
    kind = flags[FLAG_PAWN_INFO]
    if kind == PAWN_INFO_SQUARES:
        return PAWN_INFO, sources
    if kind == PAWN_INFO_EXISTS:
        count = min(count, 1)
    return PAWN_INFO | (count << PAWN_TRIES_SHIFT), ZERO


@njit(cache=True, _nrt=False)
def announce(parent, move, child, flags, buffer):
    """The referee's announcement ``(code, extra)`` of the executed ``move``."""
    us = np.int64(parent[COLUMN_TURN])
    their_base = (1 - us) * COLUMN_BLACK
    from_square = move & 63
    to_square = (move >> 6) & 63
    code = 0
    victim = -1
    for piece in range(6):
        if parent[their_base + piece] & SQUARE_BB[to_square]:
            victim = to_square
            code |= CAPTURED_PAWN if piece == PAWN and flags[FLAG_CAPTURE_KIND] else 0
    moved_pawn = parent[us * COLUMN_BLACK + PAWN] & SQUARE_BB[from_square]
    if victim < 0 and moved_pawn and from_square % 8 != to_square % 8:  # en passant
        victim = to_square - 8 if us == 0 else to_square + 8
        code |= CAPTURED_PAWN if flags[FLAG_CAPTURE_KIND] else 0
        if flags[FLAG_EN_PASSANT_SQUARE]:
            victim = to_square
            code |= EN_PASSANT
    if victim >= 0:
        code |= victim + 1
    if flags[FLAG_PROMOTION] and (move >> 12) & 7:
        code |= PROMOTION

    with_pawn_info = flags[FLAG_PAWN_INFO] != PAWN_INFO_NONE
    if with_pawn_info:
        n = legal_moves(child, buffer)
    else:
        n = 1 if has_legal_move(child, buffer) else 0
    in_check = check_bits(child)
    if n == 0 and in_check == 0:
        return code | (END_STALEMATE << END_SHIFT), ZERO
    if is_insufficient(child, flags[FLAG_INSUFFICIENT]):
        return code | (END_INSUFFICIENT << END_SHIFT), ZERO
    if n == 0:
        return code | (END_CHECKMATE << END_SHIFT), ZERO
    if np.int64(child[COLUMN_HALFMOVE]) >= flags[FLAG_MOVE_LIMIT]:
        return code | (END_MOVE_LIMIT << END_SHIFT), ZERO
    if not with_pawn_info:
        return code | in_check, ZERO
    count, sources = _pawn_captures_in(child, buffer, n)
    info, extra = _pawn_info_of(flags, count, sources)
    return code | in_check | info, extra


# The batch entry points below allocate their results and fill them in
# kernels compiled without numba's reference counting (``_nrt=False``), where
# row views such as ``positions[i]`` cost nothing.

@njit(cache=True)
def attempt_outcomes(positions, move, flags):
    """The referee's answer to one attempt in every position: ``(codes, extras, children)``.

    ``codes[i]`` is ``ILLEGAL`` where the move is illegal (``children[i]`` is
    then a copy of the position).
    """
    n = positions.shape[0]
    codes = np.empty(n, dtype=np.int64)
    extras = np.zeros(n, dtype=np.uint64)
    children = positions.copy()
    _attempt_into(positions, move, flags, codes, extras, children, np.empty(MAX_MOVES, dtype=np.int64))
    return codes, extras, children


@njit(cache=True, _nrt=False)
def _attempt_into(positions, move, flags, codes, extras, children, buffer):
    for i in range(positions.shape[0]):
        if not is_legal(positions[i], move, buffer):
            codes[i] = ILLEGAL
            continue
        make_move(positions[i], move, children[i])
        codes[i], extras[i] = announce(positions[i], move, children[i], flags, buffer)


@njit(cache=True)
def reply_outcomes(positions, flags):
    """Every legal reply in every position: ``(children, parents, codes, extras)``."""
    children, parents, moves = expand(positions, False)
    n = children.shape[0]
    codes = np.empty(n, dtype=np.int64)
    extras = np.zeros(n, dtype=np.uint64)
    _announce_all(positions, children, parents, moves, flags, codes, extras, np.empty(MAX_MOVES, dtype=np.int64))
    return children, parents, codes, extras


@njit(cache=True, _nrt=False)
def _announce_all(positions, children, parents, moves, flags, codes, extras, buffer):
    for i in range(children.shape[0]):
        codes[i], extras[i] = announce(positions[parents[i]], moves[i], children[i], flags, buffer)


@njit(cache=True)
def attempt_and_replies(positions, move, flags, with_replies):
    """``attempt_outcomes`` and, with ``with_replies``, ``reply_outcomes`` of the
    children where the game goes on, in one call, as observation keys (code,
    extra): ``(keys, children, reply_keys, reply_children, reply_parents)``,
    ``reply_parents`` indexing ``positions``."""
    codes, extras, children = attempt_outcomes(positions, move, flags)
    n = positions.shape[0]
    keys = np.empty((n, 2), dtype=np.uint64)
    going_on = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(n):
        keys[i, 0] = codes[i]
        keys[i, 1] = extras[i]
        if with_replies and codes[i] != ILLEGAL and codes[i] & END_MASK == 0:
            going_on[count] = i
            count += 1
    going_on = going_on[:count]
    reply_children, parents, reply_codes, reply_extras = reply_outcomes(children[going_on], flags)
    reply_keys = np.empty((reply_children.shape[0], 2), dtype=np.uint64)
    for j in range(reply_children.shape[0]):
        reply_keys[j, 0] = reply_codes[j]
        reply_keys[j, 1] = reply_extras[j]
    return keys, children, reply_keys, reply_children, going_on[parents]


@njit(cache=True)
def turn_infos(positions, flags):
    """Start-of-turn pawn information for the side to move of each position."""
    n = positions.shape[0]
    codes = np.zeros(n, dtype=np.int64)
    extras = np.zeros(n, dtype=np.uint64)
    _turn_infos_into(positions, flags, codes, extras, np.empty(MAX_MOVES, dtype=np.int64))
    return codes, extras


@njit(cache=True, _nrt=False)
def _turn_infos_into(positions, flags, codes, extras, buffer):
    for i in range(positions.shape[0]):
        codes[i], extras[i] = pawn_info(positions[i], flags, buffer)


@njit(cache=True)
def any_answers(positions):
    """The answer to "Any?" in each position: does a legal pawn capture exist?"""
    answers = np.zeros(positions.shape[0], dtype=np.bool_)
    _any_answers_into(positions, answers, np.empty(MAX_MOVES, dtype=np.int64))
    return answers


@njit(cache=True, _nrt=False)
def _any_answers_into(positions, answers, buffer):
    for i in range(positions.shape[0]):
        count, _ = pawn_captures(positions[i], buffer)
        answers[i] = count > 0
