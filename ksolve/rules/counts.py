"""How many attempts the side to move could have had refused: a numba kernel
over arrays of positions.

What White hears of Black's turn (the number of refused attempts, "Any?"
answers) constrains the position Black moved from.  The constraint needs,
per position, the mover's *askable* attempts that are illegal: the moves of
his own board (his men only) and the pawn tries the rule set lets him make
(``ksolve.rules.referee.Referee.askable`` at the start of a turn), minus the
legal moves.

Columns of ``attempt_counts``:

================  ==================================================
``ILLEGAL``       askable attempts that are illegal
``ILLEGAL_PAWN``  of those, the pawn tries (diagonal pawn steps)
``POSSIBLE_PAWN`` distinct from-to diagonal pawn steps onto squares not held by
                  the mover's men (Berkeley+Any's "possible pawn captures")
``PAWN_CAPTURES`` legal pawn captures (promotions once)
================  ==================================================

>>> from ksolve.board import position_from_fen
>>> from ksolve.rules.kernels import PAWN_INFO_NONE
>>> row = position_from_fen("4k3/8/8/8/8/2n5/1P1P4/4K3 w - - 0 1")
>>> [int(x) for x in attempt_counts(row[None, :], PAWN_INFO_NONE)[0]]
[4, 2, 4, 2]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.bitops import lsb
from ksolve.board.layout import COLUMN_BLACK, COLUMN_TURN, KNIGHT, MAX_MOVES, PAWN, QUEEN
from ksolve.board.movegen import legal_moves
from ksolve.board.tables import PAWN_ATTACKS, RANK_1, RANK_8, SQUARE_BB
from ksolve.rules.kernels import PAWN_INFO_COUNT, PAWN_INFO_EXISTS, PAWN_INFO_SQUARES, _pawn_captures_in

ILLEGAL, ILLEGAL_PAWN, POSSIBLE_PAWN, PAWN_CAPTURES = range(4)
ZERO = np.uint64(0)


@njit(cache=True)
def _contains(moves, n, move):
    for i in range(n):
        if moves[i] == move:
            return True
    return False


@njit(cache=True)
def _try_allowed(pawn_info, captures, sources, from_square):
    """Whether the rule set lets the mover attempt a pawn try from ``from_square``."""
    if pawn_info == PAWN_INFO_COUNT or pawn_info == PAWN_INFO_EXISTS:
        return captures > 0
    if pawn_info == PAWN_INFO_SQUARES:
        return (sources & SQUARE_BB[from_square]) != ZERO
    return True


@njit(cache=True)
def attempt_counts(positions, pawn_info):
    """Per position: (illegal askable, illegal pawn tries, possible pawn steps, legal pawn captures)."""
    n = positions.shape[0]
    out = np.zeros((n, 4), dtype=np.int64)
    legal = np.empty(MAX_MOVES, dtype=np.int64)
    own_moves = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(n):
        position = positions[i]
        us = np.int64(position[COLUMN_TURN])
        base = us * COLUMN_BLACK
        n_legal = legal_moves(position, legal)
        captures, sources = _pawn_captures_in(position, legal, n_legal)
        out[i, PAWN_CAPTURES] = captures
        own = position.copy()
        enemy = (1 - us) * COLUMN_BLACK
        for piece in range(6):
            own[enemy + piece] = ZERO
        n_own = legal_moves(own, own_moves)
        pawns = position[base + PAWN]
        ours = ZERO
        for piece in range(6):
            ours |= position[base + piece]
        illegal = 0
        for j in range(n_own):  # own-board moves (a diagonal pawn step is counted below if allowed)
            move = own_moves[j]
            from_square = move & 63
            to_square = (move >> 6) & 63
            diagonal = (pawns & SQUARE_BB[from_square]) != ZERO and from_square % 8 != to_square % 8
            if diagonal and _try_allowed(pawn_info, captures, sources, from_square):
                continue
            if not _contains(legal, n_legal, move):
                illegal += 1
        illegal_pawn = 0
        possible = 0
        rest = pawns
        while rest:
            from_square = lsb(rest)
            rest &= rest - np.uint64(1)
            targets = PAWN_ATTACKS[us, from_square] & ~ours
            allowed = _try_allowed(pawn_info, captures, sources, from_square)
            while targets:
                to_square = lsb(targets)
                targets &= targets - np.uint64(1)
                possible += 1
                if not allowed:
                    continue
                move = from_square | (to_square << 6)
                if (SQUARE_BB[to_square] & (RANK_1 | RANK_8)) != ZERO:
                    for promotion in range(KNIGHT, QUEEN + 1):
                        if not _contains(legal, n_legal, move | (promotion << 12)):
                            illegal_pawn += 1
                elif not _contains(legal, n_legal, move):
                    illegal_pawn += 1
        out[i, ILLEGAL] = illegal + illegal_pawn
        out[i, ILLEGAL_PAWN] = illegal_pawn
        out[i, POSSIBLE_PAWN] = possible
    return out
