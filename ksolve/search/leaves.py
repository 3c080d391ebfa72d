"""The last move, decided in one kernel: can White win *now* whatever the
position of the belief, trying attempts one after another until one is legal?

An attempt is *safe* for a set of positions when in none of them it is legal
without winning (mate, or king capture in Fog of War).  Trying a safe attempt
never hurts: where it is legal it wins, elsewhere the "No" leaves a smaller
set.  So White wins at once exactly when repeatedly trying safe attempts
empties the set, in any order: ``win_now`` computes that closure, and the
positions it leaves (the smallest set safe attempts can narrow the belief
to, where a rule set with "Any?" may still ask the question).

>>> import numpy as np
>>> from ksolve.board import positions_from_fens
>>> from ksolve.rules import get_rules
>>> positions = positions_from_fens(["6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1"])
>>> won, attempts, left = win_now(positions, get_rules("berkeley").spec)
>>> bool(won), int(left.sum())
(True, 0)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.batch import expand
from ksolve.board.layout import COLUMN_BLACK, KING, MAX_MOVES
from ksolve.board.tables import SQUARE_BB
from ksolve.rules.codes import END_CHECKMATE, END_MASK, END_SHIFT
from ksolve.rules.kernels import announce

STATUS_ILLEGAL, STATUS_WINS, STATUS_FAILS = 0, 1, 2


@njit(cache=True)
def attempt_status(positions, flags, fog):
    """For every move legal somewhere: ``(moves, status[position, move])``."""
    children, parents, moves = expand(positions, fog)
    unique = np.unique(moves)
    status = np.zeros((positions.shape[0], unique.shape[0]), dtype=np.int8)
    _status_into(positions, children, parents, moves, unique, flags, fog, status, np.empty(MAX_MOVES, dtype=np.int64))
    return unique, status


@njit(cache=True, _nrt=False)
def _status_into(positions, children, parents, moves, unique, flags, fog, status, buffer):
    """Fill ``status`` (compiled without reference counting: row views are free)."""
    for i in range(children.shape[0]):
        column = np.searchsorted(unique, moves[i])
        parent = parents[i]
        if fog:
            wins = positions[parent, COLUMN_BLACK + KING] & SQUARE_BB[(moves[i] >> 6) & 63]
        else:
            code, _ = announce(positions[parent], moves[i], children[i], flags, buffer)
            wins = (code & END_MASK) >> END_SHIFT == END_CHECKMATE
        status[parent, column] = STATUS_WINS if wins else STATUS_FAILS


@njit(cache=True)
def win_now(positions, spec):
    """Whether White wins in one move against every position: ``(wins, attempts, left)``.

    ``spec`` is the rule set's ``KernelSpec``; ``attempts`` lists the safe
    attempts in the order to try them (each legal in some position still left);
    ``left`` masks the positions in which every one of them is refused.
    """
    unique, status = attempt_status(positions, spec.flags, spec.fog)
    n, m = status.shape
    remaining = np.ones(n, dtype=np.bool_)
    left = n
    chosen = np.empty(m, dtype=np.int64)
    count = 0
    progress = True
    while left > 0 and progress:
        progress = False
        for j in range(m):
            safe = True
            useful = False
            for i in range(n):
                if remaining[i]:
                    if status[i, j] == STATUS_FAILS:
                        safe = False
                        break
                    if status[i, j] == STATUS_WINS:
                        useful = True
            if safe and useful:
                for i in range(n):
                    if remaining[i] and status[i, j] == STATUS_WINS:
                        remaining[i] = False
                        left -= 1
                chosen[count] = unique[j]
                count += 1
                progress = True
    return left == 0, chosen[:count], remaining
