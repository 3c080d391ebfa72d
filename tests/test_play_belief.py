"""A side's belief in a game when its sample misses the truth (``ksolve.play.belief``)."""

from __future__ import annotations

import chess
import pytest

from ksolve.board import position_from_fen
from ksolve.play.belief import SideBelief
from ksolve.play.session import GameSession


@pytest.mark.parametrize("rules", ["wild16", "berkeley", "english", "cincinnati", "rand", "berkeley-any"])
@pytest.mark.parametrize("seed", [4, 7, 9])
def test_a_sampled_belief_that_misses_recovers_and_keeps_the_sides_men(rules, seed):
    """A belief sampled down to a handful of positions soon misses the truth; it recovers
    (positions that agree with the capture heard) instead of giving up, and its own men are
    the side's true men at every turn of the game."""
    import random as random_module

    from ksolve.board.layout import COLUMN_WHITE
    from ksolve.games.play import greedy_policy
    from ksolve.play.match import PolicyPlayer

    game = GameSession(rules)
    belief = SideBelief(rules, chess.WHITE, budget=96, seed=seed)
    opponent = PolicyPlayer(greedy_policy, random_module.Random(seed + 1))
    rng = random_module.Random(seed + 2)
    while not game.over and len(game.turns) < 120:
        if game.to_move == chess.WHITE:
            belief.sync(game.observations[chess.WHITE])
            assert not belief.lost
            truth = position_from_fen(game.board().fen())
            assert (belief.positions[:, COLUMN_WHITE:COLUMN_WHITE + 6] == truth[COLUMN_WHITE:COLUMN_WHITE + 6]).all()
            while not game.over and not game.attempt(rng.choice(game.askable())).moved:
                pass
        else:
            opponent.play_turn(game)
    assert belief.recoveries > 0
