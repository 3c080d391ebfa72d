"""The computer converts tabled lone-king endings within the tables' number of moves.

Each game starts from a K+Q or K+R position whose lone king the computer does
not see: its belief is set to every square it cannot tell apart from the true
one (what it would know after taking the opponent's last man far from its
king).  The opponent plays a random or a greedy policy (the greedy one peeks
at the board and takes a man whenever it can).  The tables' first move names
its number of moves ``n``; the game must end in the computer's win within
``n`` of its moves, whichever side it plays, under each rule set.
"""

from __future__ import annotations

import random
from dataclasses import replace

import chess
import numpy as np
import pytest

from ksolve.belief import BeliefState
from ksolve.board import move_to_uci
from ksolve.board.layout import COLUMN_BLACK, KING
from ksolve.games.play import greedy_policy, random_policy
from ksolve.play.match import play_policy_turn
from ksolve.play.computer import ComputerPlayer
from ksolve.play.endings import EndingPlayer, unseen_king_belief
from ksolve.play.mirror import mirror_fen
from ksolve.play.session import GameSession
from ksolve.rules import codes, get_rules

GAMES = [
    ("berkeley", "8/8/8/2k5/8/8/8/KR6 w - - 0 1", chess.WHITE, random_policy),
    ("berkeley", "8/8/1k6/8/8/8/3Q4/6K1 w - - 0 1", chess.WHITE, greedy_policy),
    ("wild16", "k7/8/8/8/4K3/8/8/7R w - - 0 1", chess.WHITE, greedy_policy),
    ("wild16", "1r6/8/5k2/8/8/8/2K5/8 b - - 0 1", chess.BLACK, random_policy),
]


def _ignorance(rules: str, fen: str, side: chess.Color) -> np.ndarray:
    return unseen_king_belief(get_rules(rules), fen, side)


def _play(rules: str, fen: str, side: chess.Color, policy, seed: int) -> tuple[GameSession, ComputerPlayer]:
    game = GameSession(rules, fen)
    computer = ComputerPlayer(rules, side, fen, seed=seed)
    computer.assume(_ignorance(rules, fen, side))
    rng = random.Random(seed)
    while not game.over and len(game.turns) < 200:
        if game.to_move == side:
            computer.play_turn(game)
            continue
        play_policy_turn(game, policy, rng)
    return game, computer


@pytest.mark.parametrize("rules, fen, side, policy", GAMES)
def test_a_tabled_ending_is_won_within_the_tables_moves(rules, fen, side, policy):
    for seed in range(3):
        game, computer = _play(rules, fen, side, policy, seed)
        won = "1-0" if side == chess.WHITE else "0-1"
        assert game.result == won, (rules, fen, seed, game.result, game.sans())
        assert computer.ending is not None and computer.ending_turn == 0
        own_moves = (len(game.turns) + (0 if side == game_first(fen) else 1)) // 2
        assert own_moves <= computer.ending.moves, (rules, fen, seed, own_moves, computer.ending)
        assert computer.stats.tabled >= own_moves


def game_first(fen: str) -> chess.Color:
    return chess.Board(fen).turn


@pytest.mark.parametrize("fen", ["8/8/8/8/8/5k2/8/K6Q w - - 0 1", "8/8/3k4/8/8/8/8/KQ6 w - - 0 1"])
def test_fog_of_war_endings_are_won_within_the_tables_moves(fen):
    """Fog of War games start only from the standard position, so the game is played on
    beliefs: White's belief and the true position, split by what White sees."""
    rules = get_rules("fog-of-war")
    player = EndingPlayer(rules)
    for seed in range(3):
        rng = random.Random(seed)
        belief = BeliefState.from_positions(_ignorance("fog-of-war", fen, chess.WHITE))
        truth = BeliefState.from_positions(_true_position(fen))
        first = None
        for turn in range(60):
            askable = {move_to_uci(int(m)) for m in truth.candidate_attempts(fog=True)}
            choice = player.choose(belief.positions, askable)
            assert choice is not None, (fen, seed, turn)
            first = first or choice
            assert choice.moves <= first.moves - turn
            key, truth = _the(truth.attempt(rules, _move(choice.uci)))
            belief = _same(belief.attempt(rules, _move(choice.uci)), key)
            if codes.end_of(int(key[0])) == rules.winning_end:
                break
            key, truth = rng.choice(truth.replies(rules))
            belief = _same(belief.replies(rules), key)
        else:
            raise AssertionError(f"{fen}: not won in 60 moves")
        assert turn + 1 <= first.moves


def _true_position(fen: str) -> np.ndarray:
    from ksolve.board import position_from_fen

    return position_from_fen(fen, fog=True)[None, :]


def _move(uci: str) -> int:
    from ksolve.board import move_from_uci

    return move_from_uci(uci)


def _the(classes):
    (only,) = classes
    return only


def _same(classes, key):
    return next(part for seen, part in classes if (seen == key).all())


def test_the_tables_decline_what_they_do_not_hold():
    """Another material, a pawn, the opponent's second man, or a rule set with probes: no move."""
    from ksolve.board import position_from_fen

    player = EndingPlayer(get_rules("berkeley"))
    for fen in ("7k/8/5K2/8/8/8/8/5BB1 w - - 0 1",  # KBBK is not played by default
                "7k/8/5K2/8/8/8/P7/6R1 w - - 0 1",
                "7k/7n/5K2/8/8/8/8/6R1 w - - 0 1"):
        assert player.choose(position_from_fen(fen)[None, :], {"g1g8"}) is None, fen
    assert EndingPlayer(get_rules("modern")).material_of(position_from_fen("7k/8/5K2/8/8/8/8/6R1 w - - 0 1")[None, :]) \
        is None


def test_a_win_the_50_move_rule_would_draw_first_is_said_so():
    """Ka1 Rb1 against the king anywhere is a mate in about 30; with 60 of the 100 plies of
    the 50-move rule gone (the session draws every rule set at 100, Berkeley's referee only
    at 2,000) the tables' move is the same, marked as beyond the 50-move rule."""
    from ksolve.board.layout import COLUMN_HALFMOVE

    rules = get_rules("berkeley")
    belief = unseen_king_belief(rules, "k7/8/8/8/8/8/8/KR6 w - - 0 1", chess.WHITE)
    player = EndingPlayer(rules)
    askable = {"b1b7", "b1b2", "a1a2", "a1b2", "b1h1"}
    fresh = player.choose(belief, askable)
    assert fresh is not None and fresh.moves > 20 and not fresh.beyond_fifty
    late = belief.copy()
    late[:, COLUMN_HALFMOVE] = 60
    assert player.choose(late, askable) == replace(fresh, beyond_fifty=True)


def test_a_sampled_belief_is_widened_to_every_square_the_king_may_be_on():
    """A sample that lost the king's true square: the move still wins wherever the king is."""
    rules = get_rules("berkeley")
    fen = "8/8/8/2k5/8/8/8/KR6 w - - 0 1"
    everything = _ignorance("berkeley", fen, chess.WHITE)
    sample = everything[:3]
    player = EndingPlayer(rules)
    askable = {"b1b2", "b1b8", "a1a2", "a1b2"} | {f"b1{f}1" for f in "cdefgh"}
    exact = player.choose(sample, askable, exact=True)
    widened = player.choose(sample, askable, exact=False)
    full = player.choose(everything, askable, exact=True)
    assert exact is not None and widened is not None and full is not None
    assert widened == full
    assert exact.moves < full.moves
