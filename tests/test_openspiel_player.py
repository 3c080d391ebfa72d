"""OpenSpiel's IS-MCTS as a match player (``ksolve.play.openspiel_player``): its
worlds come from the side's belief and show the side what it has seen, and it
plays whole turns in ksolve's games without making a refused attempt twice."""

from __future__ import annotations

import random

import chess
import pytest

pytest.importorskip("pyspiel", reason="needs OpenSpiel (the test extra)")

from ksolve.games.play import random_policy  # noqa: E402
from ksolve.play.match import PolicyPlayer, make_player  # noqa: E402
from ksolve.play.openspiel_player import IsmctsPlayer  # noqa: E402
from ksolve.play.session import GameSession  # noqa: E402


@pytest.mark.parametrize("rules", ["wild16", "fog-of-war"])
def test_every_world_shows_the_side_what_it_has_seen(rules):
    game = GameSession(rules)
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6"):
        game.attempt(uci)
    player = IsmctsPlayer(rules, chess.WHITE, simulations=4, seed=2)
    player.belief.sync(game.observations[chess.WHITE])
    player._working = player.belief.positions
    assert len(player._working) > 1
    keys = {player.bot.get_state_key(player._world()) for _ in range(20)}
    boards = {player._world().to_string() for _ in range(20)}
    assert len(keys) == 1 and len(boards) > 1


@pytest.mark.parametrize("rules, side", [("wild16", chess.WHITE), ("wild16", chess.BLACK),
                                         ("fog-of-war", chess.BLACK)])
def test_it_plays_whole_turns_and_never_repeats_a_refused_attempt(rules, side):
    game = GameSession(rules)
    player = IsmctsPlayer(rules, side, simulations=6, seed=5)
    opponent = PolicyPlayer(random_policy, random.Random(6))
    while not game.over and len(game.turns) < 24:
        if game.to_move == side:
            before = len(game.turns)
            player.play_turn(game)
            assert len(game.turns) == before + 1 or game.over
            turn = game.turns[before] if len(game.turns) > before else None
            if turn is not None:
                refused = [action.move for action in turn.actions if getattr(action, "move", None)]
                assert len(refused) == len(set(refused)), refused
        else:
            opponent.play_turn(game)
    assert player.searches > 0


def test_the_match_runner_names_it_and_it_plays_only_its_rule_sets():
    assert isinstance(make_player("ismcts", "wild16", chess.WHITE, 0), IsmctsPlayer)
    with pytest.raises(ValueError, match="OpenSpiel's IS-MCTS plays wild16, fog-of-war, not berkeley"):
        make_player("ismcts", "berkeley", chess.WHITE, 0)
