"""Batch entry points over arrays of positions, and perft.

``expand`` returns every child of every position in one call, with the index
of its parent and the move that made it: the building block of belief-state
updates.  ``perft`` counts the leaf nodes of the move tree, the standard
move-generator self-test; ``perft_parts`` counts it in parts, so that
Python regains control (and Ctrl-C is honoured) between them.

>>> from ksolve.board.convert import positions_from_fens
>>> start = positions_from_fens(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
>>> children, parents, moves = expand(start)
>>> children.shape[0], int(perft(start[0], 3)), sum(perft_parts(start[0], 3, plies=1))
(20, 8902, 8902)
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
from numba import njit

from ksolve.board.layout import COLUMN_BLACK, KING, MAX_MOVES, POSITION_WIDTH
from ksolve.board.makemove import make_move
from ksolve.board.movegen import fog_moves, legal_moves


@njit(cache=True, inline="always", _nrt=False)
def _moves(position, out, fog):
    if fog:
        # A captured king ends a Fog-of-War game: no moves after it.
        if position[KING] == 0 or position[COLUMN_BLACK + KING] == 0:
            return 0
        return fog_moves(position, out)
    return legal_moves(position, out)


# Each entry point allocates its arrays and hands them to a kernel compiled
# without numba's reference counting (``_nrt=False``): there a row view such
# as ``positions[i]`` costs nothing, where it would otherwise be an atomic
# increment and decrement.

@njit(cache=True)
def count_moves(positions, fog=False):
    """The number of moves of each position (int64 array)."""
    counts = np.empty(positions.shape[0], dtype=np.int64)
    _count_into(positions, fog, counts, np.empty(MAX_MOVES, dtype=np.int64))
    return counts


@njit(cache=True, _nrt=False)
def _count_into(positions, fog, counts, buffer):
    for i in range(positions.shape[0]):
        counts[i] = _moves(positions[i], buffer, fog)


@njit(cache=True)
def move_union(positions, fog=False):
    """Every move legal in at least one of ``positions``, sorted, without duplicates."""
    seen = np.zeros(1 << 15, dtype=np.bool_)  # moves are below 2**15
    _mark_moves(positions, fog, seen, np.empty(MAX_MOVES, dtype=np.int64))
    return np.flatnonzero(seen).astype(np.int64)


@njit(cache=True, _nrt=False)
def _mark_moves(positions, fog, seen, buffer):
    for i in range(positions.shape[0]):
        n = _moves(positions[i], buffer, fog)
        for j in range(n):
            seen[buffer[j]] = True


@njit(cache=True)
def expand(positions, fog=False):
    """All children of all ``positions``: ``(children, parent_index, move)``.

    Children of one parent are contiguous and parents appear in order.  With
    ``fog`` the moves are Fog of War's (king capture, no check rules).
    """
    total = np.int64(count_moves(positions, fog).sum())
    children = np.empty((total, POSITION_WIDTH), dtype=np.uint64)
    parents = np.empty(total, dtype=np.int64)
    moves = np.empty(total, dtype=np.int64)
    _expand_into(positions, fog, children, parents, moves, np.empty(MAX_MOVES, dtype=np.int64))
    return children, parents, moves


@njit(cache=True, _nrt=False)
def _expand_into(positions, fog, children, parents, moves, buffer):
    k = 0
    for i in range(positions.shape[0]):
        n = _moves(positions[i], buffer, fog)
        for j in range(n):
            make_move(positions[i], buffer[j], children[k])
            parents[k] = i
            moves[k] = buffer[j]
            k += 1


@njit(cache=True)
def perft(position, depth, fog=False, bulk=False):
    """Leaf count of the move tree of ``position`` to ``depth`` plies.

    With ``bulk`` the last ply is counted from the move list without making the
    moves (faster, the usual engine trick); without it every leaf is made.
    """
    if depth == 0:
        return 1
    stack = np.empty((depth + 1, POSITION_WIDTH), dtype=np.uint64)
    stack[0] = position
    return _perft(stack, np.empty((depth, MAX_MOVES), dtype=np.int64), np.zeros(depth, dtype=np.int64),
                  np.zeros(depth, dtype=np.int64), depth, fog, bulk)


PERFT_PART_PLIES = 5
"""Plies one ``perft_parts`` kernel call counts: some 5 M leaves, a tenth of a
second, from the start position."""


def perft_parts(position: np.ndarray, depth: int, fog: bool = False, bulk: bool = False,
                plies: int = PERFT_PART_PLIES) -> Iterator[int]:
    """The leaf counts of the subtrees ``plies`` plies deep below ``position``
    (the children are expanded in Python, depth first), one kernel call each:
    their sum is ``perft(position, depth)``.  Between two parts Python regains
    control, so a long count can be interrupted and its progress shown, at
    the cost of microseconds a part.
    """
    if depth <= plies:
        yield int(perft(position, depth, fog, bulk))
        return
    for child in expand(position[np.newaxis, :], fog)[0]:
        yield from perft_parts(child, depth - 1, fog, bulk, plies)


@njit(cache=True, _nrt=False)
def _perft(stack, moves, counts, index, depth, fog, bulk):
    counts[0] = _moves(stack[0], moves[0], fog)
    if bulk and depth == 1:
        return counts[0]
    nodes = 0
    ply = 0
    while ply >= 0:
        if index[ply] == counts[ply]:
            ply -= 1
            continue
        move = moves[ply, index[ply]]
        index[ply] += 1
        make_move(stack[ply], move, stack[ply + 1])
        if ply + 1 == depth:
            nodes += 1
            continue
        child = ply + 1
        counts[child] = _moves(stack[child], moves[child], fog)
        index[child] = 0
        if bulk and child + 1 == depth:
            nodes += counts[child]
            continue
        ply = child
    return nodes
