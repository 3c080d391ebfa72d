"""The full-information kernels the prover's bounds rest on, against python-chess:
which moves check (``gives_check``, computed from a per-position context) and
orthodox forced mate within one and two moves (``orthodox_wins``)."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from ksolve.board import position_from_fen
from ksolve.board.convert import move_from_uci, move_to_uci
from ksolve.board.layout import MAX_MOVES, POSITION_WIDTH
from ksolve.board.movegen import checking_moves, has_legal_move, legal_moves
from ksolve.rules import get_rules
from ksolve.search.orthodox import OrthodoxTable, gives_check, orthodox_wins
from positions import PERFT_SUITE, SPECIAL_STARTS, random_game_positions, random_placements

ORTHODOX_FLAGS = get_rules("orthodox").flags


def _boards_for_checks():
    yield from random_game_positions(list(PERFT_SUITE.values()) + SPECIAL_STARTS, 120, seed=11, max_plies=80)
    yield from random_placements(1500, seed=12)
    # Promotions onto the line of the king behind the pawn, discovered checks by
    # every kind of man, castling and en passant into check.
    for fen in ("8/1P6/8/8/8/8/8/1k4K1 w - - 0 1", "n6k/1P6/8/8/8/8/8/6K1 w - - 0 1",
                "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "7k/8/8/4N3/8/8/1B6/K7 w - - 0 1",
                "5k2/8/8/8/8/8/8/R3K3 w Q - 0 1", "8/8/8/k1pP3Q/8/8/8/4K3 w - c6 0 1",
                "8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1", "3k4/8/8/8/8/8/3P4/3RK3 w - - 0 1"):
        yield chess.Board(fen)


def test_gives_check_agrees_with_python_chess_on_every_legal_move() -> None:
    scratch = np.empty(POSITION_WIDTH, dtype=np.uint64)
    compared = checks = 0
    for board in _boards_for_checks():
        position = position_from_fen(board.fen())
        for move in board.legal_moves:
            expected = board.gives_check(move)
            assert bool(gives_check(position, move_from_uci(move.uci()), scratch)) == expected, (board.fen(), move)
            compared += 1
            checks += expected
    assert compared > 40_000 and checks > 2_000


def test_checking_moves_hold_every_check_and_only_legal_moves() -> None:
    """The mate search's last White move looks only at ``checking_moves``: a
    superset of the checking moves (python-chess's), within the legal ones,
    with the count of all legal moves (the search's budget unit)."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    checks = candidates = legal = 0
    for board in _boards_for_checks():
        position = position_from_fen(board.fen())
        count, all_moves = checking_moves(position, out)
        found = {move_to_uci(int(move)) for move in out[:count]}
        moves = {move_to_uci(int(move)) for move in out[:legal_moves(position, out)]}
        wanted = {move.uci() for move in board.legal_moves if board.gives_check(move)}
        assert wanted <= found <= moves, (board.fen(), wanted - found, found - moves)
        assert all_moves == len(moves) == board.legal_moves.count(), board.fen()
        checks, candidates, legal = checks + len(wanted), candidates + len(found), legal + len(moves)
    assert checks > 2_000 and candidates < 2 * checks and legal > 10 * candidates


def test_has_legal_move_agrees_with_python_chess() -> None:
    """The mate and stalemate test (stopping at the first legal move) on the
    same positions and each one's first replies, mates and stalemates among them."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    without = 0
    for board in _boards_for_checks():
        for move in [None, *list(board.legal_moves)[:4]]:
            after = board.copy(stack=False)
            if move is not None:
                after.push(move)
            expected = any(True for _ in after.legal_moves)
            assert bool(has_legal_move(position_from_fen(after.fen()), out)) == expected, after.fen()
            without += not expected
    assert without >= 10


def _mates_within(board: chess.Board, moves: int) -> bool:
    """python-chess brute force: White to move forces mate within ``moves``."""
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_checkmate() and not board.is_insufficient_material():
                return True
            if moves > 1 and not board.is_game_over() and all(
                    _after_reply(board, reply, moves - 1) for reply in list(board.legal_moves)):
                return True
        finally:
            board.pop()
    return False


def _after_reply(board: chess.Board, reply: chess.Move, moves: int) -> bool:
    board.push(reply)
    try:
        return not board.is_game_over() and _mates_within(board, moves)
    finally:
        board.pop()


def _sparse_white_to_move(count: int, seed: int, most_men: int):
    for board in random_placements(count * 50, seed):
        if board.turn == chess.WHITE and len(board.piece_map()) <= most_men and not board.is_game_over():
            yield board
            count -= 1
            if count == 0:
                return


@pytest.mark.parametrize("moves, count, most_men", [(1, 400, 14), (2, 70, 7)])
def test_orthodox_mate_agrees_with_python_chess(moves: int, count: int, most_men: int) -> None:
    table = OrthodoxTable(1 << 16)
    outcomes = []
    for board in _sparse_white_to_move(count, seed=100 + moves, most_men=most_men):
        expected = _mates_within(board, moves)
        position = position_from_fen(board.fen())
        assert bool(orthodox_wins(position, moves, ORTHODOX_FLAGS, False, *table.arrays)) == expected, board.fen()
        outcomes.append(expected)
    assert len(outcomes) == count and 0 < sum(outcomes) < count  # both answers occur


def test_a_position_whose_slot_holds_a_deeper_result_takes_the_neighbour() -> None:
    """The table's slots come in pairs: a new result displaces its own slot's
    only if that was proven for as few moves or fewer, else the neighbour's;
    both stay readable, and a shallower newcomer never evicts the deeper one."""
    from ksolve.board.layout import COLUMN_HASH
    from ksolve.search.orthodox import _probe, _store

    table = OrthodoxTable(1 << 16)
    rows = [position_from_fen("7k/8/8/8/8/8/8/K5R1 w - - 0 1").copy() for _ in range(3)]
    for row, h in zip(rows, (0x20000, 0x30000, 0x40000)):  # all three hash to slot 0 of 2**16
        row[COLUMN_HASH] = np.uint64(h)
    deep, shallow, newer = rows
    _store(deep, 5, 0, ORTHODOX_FLAGS, *table.arrays)  # lost within 5: slot 0
    _store(shallow, 2, 0, ORTHODOX_FLAGS, *table.arrays)  # lost within 2: the neighbour, slot 1
    assert _probe(deep, 5, ORTHODOX_FLAGS, *table.arrays) == 0
    assert _probe(shallow, 2, ORTHODOX_FLAGS, *table.arrays) == 0
    assert [int(word) & ~0xFFFF for word in table.slots[:2]] == [0x20000, 0x30000]
    _store(newer, 3, 1, ORTHODOX_FLAGS, *table.arrays)  # won in 3: evicts the shallow neighbour
    assert _probe(deep, 5, ORTHODOX_FLAGS, *table.arrays) == 0
    assert _probe(newer, 3, ORTHODOX_FLAGS, *table.arrays) == 1
    assert _probe(shallow, 2, ORTHODOX_FLAGS, *table.arrays) == -1
