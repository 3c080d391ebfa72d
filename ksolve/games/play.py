"""Playing games with the referee between simple policies, recorded as ``Game``.

A policy chooses one action at a time from what the referee lets the mover
ask now (``Referee.askable``: moves on his own board and pawn tries, minus
those refused this turn): a move (an integer) or ``ASK`` for "Any?".  The
referee refuses or executes it; the turn ends with the executed move.

- ``random_policy``: a uniformly random askable attempt; "Any?" now and then.
- ``greedy_policy``: usually a capture or a check, found by peeking at the
  true board; otherwise as the random policy (so it still gets refused).

>>> import random
>>> game = play_game("wild16", random_policy, random_policy, plies=6, rng=random.Random(1))
>>> len(game.turns), game.rules
(6, 'wild16')
"""

from __future__ import annotations

import random
from typing import Callable

import numpy as np

from ksolve.board import move_to_uci, position_from_fen
from ksolve.board.batch import expand
from ksolve.games.model import STANDARD_FEN, Action, Ask, Game, Refused, Turn, result_of
from ksolve.rules import codes, get_rules
from ksolve.rules.base import ASK
from ksolve.rules.referee import Referee

Policy = Callable[[Referee, random.Random], int]


def random_policy(referee: Referee, rng: random.Random, ask_rate: float = 0.15) -> int:
    """A uniformly random askable attempt (or "Any?" with probability ``ask_rate``)."""
    if referee.can_ask() and rng.random() < ask_rate:
        return ASK
    return rng.choice(sorted(referee.askable()))


def greedy_policy(referee: Referee, rng: random.Random, greed: float = 0.7) -> int:
    """With probability ``greed`` a legal capture or check (mates first), else random."""
    if referee.can_ask() and rng.random() < 0.3:
        return ASK
    if rng.random() < greed:
        best = _captures_and_checks(referee)
        if best:
            return rng.choice(best)
    return random_policy(referee, rng, 0.0)


def _captures_and_checks(referee: Referee) -> list[int]:
    """The askable legal moves that mate, else those that capture or check."""
    position = referee.position[np.newaxis, :]
    _, _, moves = expand(position, False)
    askable = referee.askable()
    mates, others = [], []
    for move in (int(m) for m in moves):
        if move not in askable:
            continue
        code = int(referee.rules.attempt(position, move).keys[0, 0])
        if codes.end_of(code) == codes.END_CHECKMATE:
            mates.append(move)
        elif code & (codes.CAPTURE_MASK | codes.CHECK_MASK):
            others.append(move)
    return sorted(mates or others)


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def play_turn(referee: Referee, policy: Policy, rng: random.Random, max_actions: int = 1000) -> Turn:
    """One turn: the policy's actions until a move is executed."""
    white = referee.turn == 0
    actions: list[Action] = []
    for _ in range(max_actions):
        choice = policy(referee, rng)
        if choice == ASK:
            answer = referee.ask_any()
            if answer.kind not in ("any-yes", "any-no"):
                raise RuntimeError(f"the policy asked 'Any?' when it could not ({answer.words})")
            actions.append(Ask(answer.kind == "any-yes"))
            continue
        if choice not in referee.askable():
            raise RuntimeError(f"the policy chose {move_to_uci(choice)}, which cannot be attempted now")
        answer = referee.attempt(choice)
        if answer.kind == "move":
            return Turn(white, tuple(actions), move_to_uci(choice), answer.code, answer.extra)
        actions.append(Refused(move_to_uci(choice)))
    raise RuntimeError(f"no move executed after {max_actions} actions")


def play_game(rules: str, white: Policy, black: Policy, plies: int, rng: random.Random,
              fen: str | None = None, tags: tuple[tuple[str, str], ...] | None = None) -> Game:
    """A game of at most ``plies`` executed moves (fewer if it ends) from ``fen``
    (None: the standard start)."""
    referee = Referee(get_rules(rules), position_from_fen(fen or STANDARD_FEN))
    turns: list[Turn] = []
    result = "*"
    while len(turns) < plies and not referee.game_over:
        policy = white if referee.turn == 0 else black
        turn = play_turn(referee, policy, rng)
        turns.append(turn)
        result = result_of(turn.code, turn.white, rules)
    if tags is None:
        tags = (("Event", "ksolve random game"), ("White", getattr(white, "__name__", "?")),
                ("Black", getattr(black, "__name__", "?")))
    return Game(rules, tuple(turns), fen, None, result, tags)
