"""Move generation kernels.

``legal_moves`` generates the legal moves of orthodox chess (castling, en
passant, promotions, pins and check evasions handled directly, without trying
moves).  ``fog_moves`` generates the moves of Fog of War, where kings may be
captured: every pseudo-legal move, moving into or staying in check allowed,
and castling allowed out of, through and into attacked squares (the squares
between king and rook must still be empty).

Both write move integers (see ``layout``) into ``out`` and return the count.
``checking_moves`` writes only the legal moves that may give check (White's
last move in a mate search) and counts the others.

>>> import numpy as np
>>> from ksolve.board.convert import position_from_fen
>>> out = np.empty(256, dtype=np.int64)
>>> legal_moves(position_from_fen("8/8/8/8/8/8/8/K6k w - - 0 1"), out)
3
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ksolve.board.attacks import attackers_of, bishop_attacks, color_occupancy, rook_attacks
from ksolve.board.bitops import lsb, popcount
from ksolve.board.layout import (
    BISHOP, COLUMN_BLACK, COLUMN_CASTLING, COLUMN_EP, COLUMN_TURN, KING, KNIGHT, NO_SQUARE, PAWN,
    QUEEN, ROOK,
)
from ksolve.board.tables import (
    BETWEEN, BISHOP_PSEUDO, CASTLE_EMPTY, CASTLE_KING_FROM, CASTLE_KING_PATH, CASTLE_KING_TO,
    CASTLE_ROOK_FROM, KING_ATTACKS, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS, RANK_1, RANK_2, RANK_7,
    RANK_8, ROOK_PSEUDO, SQUARE_BB,
)

ONE = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)


@njit(cache=True, inline="always", _nrt=False)
def _add_targets(out, n, from_square, targets):
    while targets:
        to = lsb(targets)
        targets &= targets - ONE
        out[n] = from_square | (to << 6)
        n += 1
    return n


@njit(cache=True, inline="always", _nrt=False)
def _add_pawn_targets(out, n, from_square, targets):
    promotion_ranks = RANK_1 | RANK_8
    while targets:
        to = lsb(targets)
        targets &= targets - ONE
        if SQUARE_BB[to] & promotion_ranks:
            for promotion in (QUEEN, ROOK, BISHOP, KNIGHT):
                out[n] = from_square | (to << 6) | (promotion << 12)
                n += 1
        else:
            out[n] = from_square | (to << 6)
            n += 1
    return n


@njit(cache=True, _nrt=False)
def king_square(position, color):
    """The square of ``color``'s king, or -1 if it has none (captured in Fog of War)."""
    king = position[color * COLUMN_BLACK + KING]
    if king == ZERO:
        return -1
    return lsb(king)


@njit(cache=True, _nrt=False)
def checkers_of(position):
    """Enemy men giving check to the side to move's king (0 if it has no king)."""
    us = np.int64(position[COLUMN_TURN])
    ksq = king_square(position, us)
    if ksq < 0:
        return ZERO
    occupied = color_occupancy(position, 0) | color_occupancy(position, 1)
    return attackers_of(position, ksq, 1 - us, occupied)


@njit(cache=True, _nrt=False)
def _pinned(position, ksq, us, ours, occupied):
    them_base = (1 - us) * COLUMN_BLACK
    queens = position[them_base + QUEEN]
    snipers = ((ROOK_PSEUDO[ksq] & (position[them_base + ROOK] | queens))
               | (BISHOP_PSEUDO[ksq] & (position[them_base + BISHOP] | queens)))
    pinned = ZERO
    while snipers:
        sniper = lsb(snipers)
        snipers &= snipers - ONE
        blockers = BETWEEN[ksq, sniper] & occupied
        if blockers and (blockers & (blockers - ONE)) == ZERO and (blockers & ours):
            pinned |= blockers
    return pinned


@njit(cache=True, inline="always", _nrt=False)
def _generate(position, out, legal, checking, first):
    """Shared generator: ``legal`` True for orthodox chess, False for Fog of
    War; ``checking`` (orthodox only) writes only the moves that may check the
    enemy king (``checking_moves``); ``first`` stops at the first move written
    (``has_legal_move``).  Returns ``(moves written, legal moves)``, the second
    counted only when ``checking`` (else the first)."""
    us = np.int64(position[COLUMN_TURN])
    them = 1 - us
    base = us * COLUMN_BLACK
    ours = color_occupancy(position, us)
    theirs = color_occupancy(position, them)
    occupied = ours | theirs
    not_ours = ~ours
    n = 0
    ksq = king_square(position, us)
    if legal and ksq < 0:
        return 0, 0
    # Where each kind of man checks from, and the men whose leaving their line
    # to the enemy king may discover a check (not checking: every square).
    wanted_pawn = wanted_knight = wanted_bishop = wanted_rook = wanted_king = ALL
    discoverers = ZERO
    target = king_square(position, them) if checking else -1
    if target >= 0:
        wanted_pawn = PAWN_ATTACKS[them, target] | RANK_1 | RANK_8  # a promotion may check as any piece
        wanted_knight = KNIGHT_ATTACKS[target]
        wanted_bishop = bishop_attacks(target, occupied)
        wanted_rook = rook_attacks(target, occupied)
        wanted_king = ZERO
        discoverers = _pinned(position, target, them, ours, occupied)  # ours alone between our slider and his king
    elif checking:  # no king to check
        wanted_pawn = wanted_knight = wanted_bishop = wanted_rook = wanted_king = ZERO
    legal_count = 0

    evasion = ALL
    pinned = ZERO
    checkers = ZERO
    if ksq >= 0:
        targets = KING_ATTACKS[ksq] & not_ours
        kept = _wanted_from(wanted_king, discoverers, target, ksq)
        if legal:
            without_king = occupied ^ SQUARE_BB[ksq]
            while targets:
                to = lsb(targets)
                targets &= targets - ONE
                if attackers_of(position, to, them, without_king) == ZERO:
                    legal_count += 1
                    if kept & SQUARE_BB[to]:
                        out[n] = ksq | (to << 6)
                        n += 1
                        if first:
                            return n, n
            checkers = attackers_of(position, ksq, them, occupied)
            if checkers:
                if checkers & (checkers - ONE):
                    return n, legal_count if checking else n  # double check: only the king moves
                evasion = BETWEEN[ksq, lsb(checkers)] | checkers
            pinned = _pinned(position, ksq, us, ours, occupied)
        else:
            n = _add_targets(out, n, ksq, targets & kept)
        if checkers == ZERO:
            before = n
            n = _castling_moves(position, out, n, us, them, ksq, occupied, legal)
            legal_count += n - before

    for piece in (KNIGHT, BISHOP, ROOK, QUEEN):
        men = position[base + piece]
        while men:
            from_square = lsb(men)
            men &= men - ONE
            if piece == KNIGHT:
                attacks = KNIGHT_ATTACKS[from_square]
                wanted = wanted_knight
            elif piece == BISHOP:
                attacks = bishop_attacks(from_square, occupied)
                wanted = wanted_bishop
            elif piece == ROOK:
                attacks = rook_attacks(from_square, occupied)
                wanted = wanted_rook
            else:
                attacks = rook_attacks(from_square, occupied) | bishop_attacks(from_square, occupied)
                wanted = wanted_bishop | wanted_rook
            attacks &= not_ours & evasion
            if pinned & SQUARE_BB[from_square]:
                attacks &= LINE[ksq, from_square]
            if checking:
                legal_count += popcount(attacks)
                attacks &= _wanted_from(wanted, discoverers, target, from_square)
            n = _add_targets(out, n, from_square, attacks)
            if first and n:
                return n, n

    n, pawn_count = _pawn_moves(position, out, n, us, them, ksq, occupied, theirs, evasion, pinned, legal,
                                checking, wanted_pawn, discoverers, target)
    return n, legal_count + pawn_count if checking else n


@njit(cache=True, inline="always", _nrt=False)
def _wanted_from(wanted, discoverers, target, from_square):
    """The targets wanted of a man on ``from_square``: ``wanted``, and every
    square off his line to the enemy king on ``target`` if he may discover a check."""
    if discoverers & SQUARE_BB[from_square]:
        return wanted | ~LINE[target, from_square]
    return wanted


@njit(cache=True, _nrt=False)
def _castling_moves(position, out, n, us, them, ksq, occupied, legal):
    rights = np.int64(position[COLUMN_CASTLING])
    rooks = position[us * COLUMN_BLACK + ROOK]
    for side in (2 * us, 2 * us + 1):
        if not (rights >> side) & 1:
            continue
        if ksq != CASTLE_KING_FROM[side] or not (rooks & SQUARE_BB[CASTLE_ROOK_FROM[side]]):
            continue
        if CASTLE_EMPTY[side] & occupied:
            continue
        if legal:
            path = CASTLE_KING_PATH[side]
            safe = True
            while path:
                square = lsb(path)
                path &= path - ONE
                if attackers_of(position, square, them, occupied):
                    safe = False
                    break
            if not safe:
                continue
        out[n] = ksq | (CASTLE_KING_TO[side] << 6)
        n += 1
    return n


@njit(cache=True, inline="always", _nrt=False)
def _pawn_moves(position, out, n, us, them, ksq, occupied, theirs, evasion, pinned, legal,
                checking, wanted, discoverers, target):
    """The pawns' moves after ``n`` others, and how many are legal (counted
    only when ``checking``, where only those that may check are written)."""
    pawns = position[us * COLUMN_BLACK + PAWN]
    ep = np.int64(position[COLUMN_EP])
    forward = 8 if us == 0 else -8
    start_rank = RANK_2 if us == 0 else RANK_7
    legal_count = 0
    while pawns:
        from_square = lsb(pawns)
        pawns &= pawns - ONE
        targets = PAWN_ATTACKS[us, from_square] & theirs
        one_step = from_square + forward
        if not (occupied & SQUARE_BB[one_step]):
            targets |= SQUARE_BB[one_step]
            if SQUARE_BB[from_square] & start_rank and not (occupied & SQUARE_BB[one_step + forward]):
                targets |= SQUARE_BB[one_step + forward]
        targets &= evasion
        if pinned & SQUARE_BB[from_square]:
            targets &= LINE[ksq, from_square]
        if checking:
            legal_count += popcount(targets) + 3 * popcount(targets & (RANK_1 | RANK_8))
            targets &= _wanted_from(wanted, discoverers, target, from_square)
        n = _add_pawn_targets(out, n, from_square, targets)
        if ep != NO_SQUARE and PAWN_ATTACKS[us, from_square] & SQUARE_BB[ep]:
            if not legal or _en_passant_is_safe(position, us, them, ksq, from_square, ep, occupied):
                out[n] = from_square | (ep << 6)
                n += 1
                legal_count += 1
    return n, legal_count


@njit(cache=True, _nrt=False)
def _en_passant_is_safe(position, us, them, ksq, from_square, ep, occupied):
    """Whether capturing en passant leaves our king unattacked (tested in full)."""
    captured = ep - 8 if us == 0 else ep + 8
    after = (occupied ^ SQUARE_BB[from_square] ^ SQUARE_BB[captured]) | SQUARE_BB[ep]
    return (attackers_of(position, ksq, them, after) & ~SQUARE_BB[captured]) == ZERO


@njit(cache=True, _nrt=False)
def legal_moves(position, out):
    """Write the legal moves of ``position`` into ``out``; return how many."""
    return _generate(position, out, True, False, False)[0]


@njit(cache=True, _nrt=False)
def fog_moves(position, out):
    """Write the Fog-of-War moves of ``position`` into ``out``; return how many.

    A side without a king (captured) still gets its moves generated; callers
    treat king capture as the end of the game.
    """
    return _generate(position, out, False, False, False)[0]


@njit(cache=True, _nrt=False)
def checking_moves(position, out):
    """Write into ``out`` the legal moves of ``position`` that may check the
    enemy king: ``(how many, how many legal moves there are)``.  They are every
    checking move and a few that do not check (promotions, castling, en passant
    and every move of a man that may discover a check), for an exact test such
    as ``orthodox.gives_check``: White's last move of a mate search needs no
    other moves, and the count of all of them is the search's budget unit.

    >>> import numpy as np
    >>> from ksolve.board.convert import position_from_fen
    >>> out = np.empty(256, dtype=np.int64)
    >>> checking_moves(position_from_fen("6k1/8/8/8/8/8/8/K3R3 w - - 0 1"), out)  # Re8+, Rg1+ of 16
    (2, 16)
    """
    return _generate(position, out, True, True, False)


@njit(cache=True, _nrt=False)
def has_legal_move(position, out):
    """Whether the side to move has a legal move (mate and stalemate tests).

    Generates the king's steps first and stops at the first legal move, which
    settles most positions without generating every move; ``out`` is scratch
    space.
    """
    return _generate(position, out, True, False, True)[0] > 0
