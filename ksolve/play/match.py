"""Games between players: the computer (``ComputerPlayer``) and the simple
policies of ``ksolve.games.play`` (``random_policy``, ``greedy_policy``),
over a ``GameSession``.

>>> import chess
>>> from ksolve.games.play import random_policy
>>> game = play_match("berkeley", random_policy, random_policy, max_plies=6, seed=3)
>>> len(game.turns), game.result
(6, '*')
"""

from __future__ import annotations

import random
from typing import Union

from ksolve.board import move_to_uci
from ksolve.games.play import ASK, Policy
from ksolve.play.computer import ComputerPlayer
from ksolve.play.session import GameSession

Player = Union[ComputerPlayer, Policy]


def play_policy_turn(game: GameSession, policy: Policy, rng: random.Random) -> None:
    """One turn of a policy: its actions until a move is executed."""
    moved = False
    while not moved and not game.over:
        choice = policy(game.referee, rng)
        if choice == ASK:
            game.ask_any()
        else:
            moved = game.attempt(move_to_uci(choice)).moved


def play_match(rules: str, white: Player, black: Player, max_plies: int, seed: int = 0,
               fen: str | None = None) -> GameSession:
    """A game of at most ``max_plies`` executed moves (fewer if it ends)."""
    game = GameSession(rules, fen)
    rng = random.Random(seed)
    while not game.over and len(game.turns) < max_plies:
        player = white if game.referee.turn == 0 else black
        if isinstance(player, ComputerPlayer):
            player.play_turn(game)
        else:
            play_policy_turn(game, player, rng)
    return game
