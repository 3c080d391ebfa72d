"""Belief states: construction from hidden units, splitting by the referee's
answers, and the published facts of Rotenberg 1976 and Foster 1996."""

from __future__ import annotations

import itertools

import chess
import chess.polyglot
import numpy as np
import pytest

from ksolve.belief import BeliefState, is_refusal
from ksolve.board import move_from_uci, position_to_board
from ksolve.hidden import HiddenUnitError, parse_hidden_unit
from ksolve.rules import get_rules

ROTENBERG = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
FOSTER = "R7/5PP1/1B4KP/1N6/1Q2B1P1/6P1/P1N2P1P/3R4 w - - 0 1"


def test_rotenberg_belief_has_30_positions() -> None:
    belief = BeliefState.from_hidden(ROTENBERG, ["b:dark"])
    assert len(belief) == 30
    bishops = chess.SquareSet(belief.squares_of(chess.BLACK, chess.BISHOP))
    assert len(bishops) == 30 and all(chess.square_name(s) not in ("f6", "h2") for s in bishops)


def test_rotenberg_rg2_no_class_is_b2_d2_f2() -> None:
    belief = BeliefState.from_hidden(ROTENBERG, ["b:dark"])
    classes = belief.attempt(get_rules("berkeley"), move_from_uci("a2g2"))
    refused = [b for key, b in classes if is_refusal(key)]
    assert len(refused) == 1 and len(refused[0]) == 3
    squares = chess.SquareSet(refused[0].squares_of(chess.BLACK, chess.BISHOP))
    assert sorted(chess.square_name(s) for s in squares) == ["b2", "d2", "f2"]
    assert sum(len(b) for _, b in classes) == 30


def test_foster_belief_enumerates_king_and_optional_pawn() -> None:
    belief = BeliefState.from_hidden(FOSTER, ["k:e2,e5,e6,h3,a6", "p?:a-file"])
    kings = {chess.square_name(s) for s in chess.SquareSet(belief.squares_of(chess.BLACK, chess.KING))}
    assert kings == {"e2", "e5", "e6", "h3", "a6"}
    pawns = {position_to_board(row).pieces(chess.PAWN, chess.BLACK).mask for row in belief.positions}
    assert 0 in pawns and len(pawns) == 6  # no pawn, or one on a3-a7
    for row in belief.positions:
        assert position_to_board(row).is_valid()


def test_every_member_is_the_brute_force_placement_set() -> None:
    """Two hidden units, compared with a python-chess enumeration."""
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    belief = BeliefState.from_hidden(fen, ["n:rank-6", "p:d-file+e-file"])
    expected = set()
    for knight, pawn in itertools.product(chess.SquareSet(chess.BB_RANK_6),
                                          chess.SquareSet(chess.BB_FILE_D | chess.BB_FILE_E)):
        board = chess.Board(fen)
        if knight == pawn or board.piece_at(knight) or board.piece_at(pawn):
            continue
        board.set_piece_at(knight, chess.Piece(chess.KNIGHT, chess.BLACK))
        board.set_piece_at(pawn, chess.Piece(chess.PAWN, chess.BLACK))
        if board.is_valid():
            expected.add(board.fen())
    assert {position_to_board(row).fen() for row in belief.positions} == expected


def test_belief_key_is_order_independent_and_distinguishes_sets() -> None:
    belief = BeliefState.from_hidden(ROTENBERG, ["b:dark"])
    shuffled = BeliefState.from_positions(belief.positions[np.random.default_rng(1).permutation(30)])
    assert shuffled.key == belief.key
    assert BeliefState.from_positions(belief.positions[:29]).key != belief.key


def test_replies_split_covers_every_child_once() -> None:
    belief = BeliefState.from_hidden(ROTENBERG, ["b:dark"])
    rules = get_rules("berkeley")
    silent = [b for key, b in belief.attempt(rules, move_from_uci("a2g2")) if not is_refusal(key)][0]
    classes = silent.replies(rules)
    children = set()
    for row in silent.positions:
        board = position_to_board(row)
        for move in board.legal_moves:
            board.push(move)
            children.add(chess.polyglot.zobrist_hash(board))
            board.pop()
    assert sum(len(b) for _, b in classes) == len(children)
    assert len({rules.describe(key) for key, _ in classes}) == len(classes)


@pytest.mark.parametrize("spec,reason", [
    ("b", "expected PIECES:SQUARES"),
    ("x:e4", "unknown piece"),
    ("b:z9", "unknown square"),
    ("b|N:e4", "one colour"),
])
def test_bad_hidden_specs_are_reported(spec: str, reason: str) -> None:
    with pytest.raises(HiddenUnitError, match=reason):
        parse_hidden_unit(spec)


def test_contradictory_units_give_an_empty_belief_error() -> None:
    with pytest.raises(HiddenUnitError, match="no legal position"):
        BeliefState.from_hidden("8/8/8/8/8/8/8/K7 w - - 0 1", ["k:e4", "k:e4"])
    with pytest.raises(HiddenUnitError, match="none of its squares is empty"):
        BeliefState.from_hidden(ROTENBERG, ["b:f6"])


def test_too_large_a_belief_is_refused() -> None:
    with pytest.raises(ValueError, match="over the memory budget"):
        BeliefState.from_hidden("8/8/8/8/8/8/8/K6k w - - 0 1", ["q:any", "r:any", "b:any", "n:any", "p:any"])


def _attempt_then_replies(belief: BeliefState, rules, move: int, last: bool):
    """``after_attempt`` composed of its parts: the attempt's classes, then each
    class's replies (the order the search took before the fused kernels)."""
    from ksolve.rules.base import Outcome

    going_on, refused = [], []
    for key, part in belief.attempt(rules, move):
        outcome = rules.outcome(key)
        if outcome is Outcome.REFUSED:
            refused.append(part)
        elif outcome is Outcome.ENDED or (outcome is Outcome.GOES_ON and last):
            return None
        elif outcome is Outcome.GOES_ON:
            going_on.append(part)
    replied = []
    for part in sorted(going_on, key=len, reverse=True):
        classes = []
        for key, reply_class in part.replies(rules):
            if rules.outcome(key) is not Outcome.GOES_ON:
                return None
            classes.append(reply_class)
        replied.extend(sorted(classes, key=len, reverse=True))
    return replied, refused


def _rows(beliefs) -> list[tuple[int, bytes]]:
    return [(belief.key, belief.positions.tobytes()) for belief in beliefs]


@pytest.mark.parametrize("rules_name", ["berkeley", "wild16", "cincinnati", "rand", "english", "orthodox", "fog-of-war"])
def test_after_attempt_is_the_attempt_then_each_class_replies(rules_name: str) -> None:
    """The fused split (one kernel for the attempt and the replies under the
    Kriegspiel rule sets, the generic composition under the others) gives the
    classes of the attempt followed by each class's replies, in the same order,
    with the same rows and digests, on random beliefs and every attempt, one
    and two moves deep (captures, checks, mates and stalemates among them)."""
    from test_solver_vs_bruteforce import generate_problems

    rules = get_rules(rules_name)
    compared = lost = 0
    for _, start in generate_problems(40, seed=7):
        beliefs = [start] + [part for move in rules.attempts(start.positions)[:3]
                             for part in (start.after_attempt(rules, int(move)) or ([], []))[0][:2]]
        for belief in beliefs:
            for move in rules.attempts(belief.positions).tolist():
                for last in (False, True):
                    fused = belief.after_attempt(rules, move, last)
                    expected = _attempt_then_replies(belief, rules, move, last)
                    assert (fused is None) == (expected is None), (rules_name, move, last)
                    compared += 1
                    if fused is None:
                        lost += 1
                        continue
                    assert _rows(fused[0]) == _rows(expected[0]) and _rows(fused[1]) == _rows(expected[1])
                    assert all(part.key == BeliefState(part.positions).key for part in fused[0] + fused[1])
    assert compared > 500 and 0 < lost < compared
