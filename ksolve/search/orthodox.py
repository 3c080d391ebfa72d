"""Full-information lower bounds: orthodox forced mate (or king capture) in a
few moves, one position at a time.

If White cannot force a win in ``n`` moves even seeing everything, he cannot
force it with less information: a belief holding such a position is lost in
``n``.  ``fails_in`` finds the first member without an orthodox win in ``n``.

>>> from ksolve.board import position_from_fen
>>> from ksolve.rules.kernels import BERKELEY_FLAGS
>>> bool(orthodox_wins(position_from_fen("6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1"), 1, BERKELEY_FLAGS, False))
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.layout import COLUMN_BLACK, COLUMN_HALFMOVE, KING, MAX_MOVES, POSITION_WIDTH
from ksolve.board.makemove import make_move
from ksolve.board.movegen import checkers_of, fog_moves, has_legal_move, legal_moves
from ksolve.board.tables import SQUARE_BB
from ksolve.rules.kernels import FLAG_INSUFFICIENT, FLAG_MOVE_LIMIT, is_insufficient


@njit(cache=True)
def orthodox_wins(position, moves, flags, fog):
    """Whether White, seeing everything, forces a win within ``moves`` moves.

    An iterative AND-OR depth-first search (even plies White's, odd Black's).
    On White's last move only checks (king captures in Fog of War) are tried.
    """
    plies = 2 * moves
    stack = np.empty((plies + 1, POSITION_WIDTH), dtype=np.uint64)
    lists = np.empty((plies + 1, MAX_MOVES), dtype=np.int64)
    counts = np.zeros(plies + 1, dtype=np.int64)
    index = np.zeros(plies + 1, dtype=np.int64)
    stack[0] = position
    counts[0] = _generate(stack[0], lists[0], fog)
    ply = 0
    while True:
        result = -1  # -1: keep going at this ply; 0/1: this ply's node is decided
        if index[ply] == counts[ply]:
            result = 0 if ply % 2 == 0 else 1  # White found no win / Black found no escape
        elif ply % 2 == 0:
            move = lists[ply, index[ply]]
            index[ply] += 1
            last = ply // 2 + 1 == moves
            result = _after_white_move(stack, lists, counts, index, ply, move, last, flags, fog)
            if result == 2:
                ply += 1
                result = -1
        else:
            reply = lists[ply, index[ply]]
            index[ply] += 1
            child = stack[ply + 1]
            make_move(stack[ply], reply, child)
            if fog:
                ended = child[KING] == 0
                counts[ply + 1] = 0 if ended else fog_moves(child, lists[ply + 1])
            else:
                counts[ply + 1] = legal_moves(child, lists[ply + 1])
                ended = counts[ply + 1] == 0 or _drawn(child, flags)
            if ended:
                result = 0
            else:
                index[ply + 1] = 0
                ply += 1
        while result >= 0:  # a decided node answers its parent
            if ply == 0:
                return result == 1
            ply -= 1
            if ply % 2 == 0:  # White's node: a winning move decides it, a losing one does not
                result = 1 if result == 1 else -1
            else:  # Black's node: a refutation decides it
                result = 0 if result == 0 else -1


@njit(cache=True)
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
    make_move(position, move, child)
    in_check = checkers_of(child) != 0
    if last:
        if in_check and not has_legal_move(child, lists[ply + 1]) and not _drawn(child, flags):
            return 1
        return -1
    counts[ply + 1] = legal_moves(child, lists[ply + 1])
    if counts[ply + 1] == 0:
        return 1 if in_check and not _drawn(child, flags) else -1
    if _drawn(child, flags):
        return -1
    index[ply + 1] = 0
    return 2


@njit(cache=True)
def _drawn(position, flags):
    """A referee's draw for lack of material or the move limit."""
    return (is_insufficient(position, flags[FLAG_INSUFFICIENT])
            or np.int64(position[COLUMN_HALFMOVE]) >= flags[FLAG_MOVE_LIMIT])


@njit(cache=True)
def _generate(position, out, fog):
    return fog_moves(position, out) if fog else legal_moves(position, out)


@njit(cache=True)
def fails_in(positions, moves, flags, fog):
    """Index of the first position without an orthodox win in ``moves``, or -1."""
    for i in range(positions.shape[0]):
        if not orthodox_wins(positions[i], moves, flags, fog):
            return i
    return -1
