"""OpenSpiel's information-set MCTS as a match player: the peer the computer
is measured against (``ksolve.play.match``, ``benchmarks/bench_match.py``).

OpenSpiel (``pip install open_spiel``: not a dependency of ksolve, the test
extra installs it) has Kriegspiel as ``kriegspiel`` (the ICC Wild 16 rules:
ksolve's ``wild16``) and Fog of War as ``dark_chess`` (``fog-of-war``), and
information-set MCTS (Cowling, Powley & Whitehouse 2012) as
``open_spiel.python.algorithms.ismcts.ISMCTSBot``.  IS-MCTS simulates worlds
drawn from the player's information set, which a game provides by
``ResampleFromInfostate``; neither of the two games implements it.  This
player gives the bot its worlds from ksolve's belief of the side
(``SideBelief``, exact or a uniform sample): each simulation starts from a
position drawn uniformly from the belief, as OpenSpiel's game started from
that position's FEN (the move clocks set to 0 so that every world shows the
same).  The bot's tree keys a node by what its player has seen since that
root: in Kriegspiel the information state with the start FEN left out, in
Fog of War the observation (what is visible now).  The rest is OpenSpiel's:
UCT selection, a random rollout to the end of the game as the evaluation
(``RandomRolloutEvaluator``), the most visited action played.

On the referee's "No" the belief is filtered as the computer's is, and the
bot searches again; an attempt refused this turn is never made twice (the
worlds, started afresh, do not know it was refused).

>>> import chess
>>> from ksolve.play.session import GameSession
>>> game = GameSession("wild16")
>>> player = IsmctsPlayer("wild16", chess.WHITE, simulations=8, seed=1)
>>> player.play_turn(game).moved, game.to_move == chess.BLACK
(True, True)
"""

from __future__ import annotations

import random
import time

import chess
import numpy as np

from ksolve.board import move_from_uci, position_to_board
from ksolve.play.belief import SideBelief
from ksolve.play.mirror import mirror_position, mirror_uci
from ksolve.play.session import Answer, GameSession
from ksolve.rules import codes

GAMES = {"wild16": "kriegspiel", "fog-of-war": "dark_chess"}
"""OpenSpiel's game of each rule set it plays."""
SIMULATIONS = 100
"""Simulations per search (each a random rollout to the end of a game: about 10 ms)."""
UCT_C = 2.0


def openspiel_available() -> bool:
    """Whether OpenSpiel's Python package is importable."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


class IsmctsPlayer:
    """OpenSpiel's IS-MCTS playing ``side`` under ``rules`` (``wild16`` or ``fog-of-war``)."""

    def __init__(self, rules: str, side: chess.Color, fen: str | None = None, seed: int = 0,
                 simulations: int = SIMULATIONS, budget: int = 40_000) -> None:
        if rules not in GAMES:
            raise ValueError(f"rules: OpenSpiel's IS-MCTS plays {', '.join(GAMES)}, not {rules}")
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        self.side, self.rules_name = side, rules
        self.game_name = GAMES[rules]
        self.belief = SideBelief(rules, side, fen, budget, seed)
        self.rules = self.belief.rules
        self.rng = random.Random(seed + 2)
        self.seconds = 0.0
        self.searches = 0
        self._pyspiel = pyspiel
        random_state = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        kriegspiel = self.game_name == "kriegspiel"
        self.bot = _RootedBot(pyspiel.load_game(self.game_name), evaluator, UCT_C, simulations,
                              random_state=random_state, use_observation_string=not kriegspiel,
                              allow_inconsistent_action_sets=True)
        self.bot.set_resampler(lambda _state, _player: self._world())
        self._working = self.belief.positions

    def play_turn(self, game: GameSession) -> Answer:
        """Make attempts in ``game`` until one is executed (or the game ends)."""
        started = time.perf_counter()
        self.belief.sync(game.observations[self.side])
        self._working = self.belief.positions
        refused: set[str] = set()
        answer = Answer("illegal", "")
        while not game.over and game.to_move == self.side and not answer.moved:
            uci = self._choose(set(game.askable()) - refused)
            answer = game.attempt(uci)
            if answer.kind == "illegal":
                refused.add(uci)
                self._refused(uci)
        self.seconds += time.perf_counter() - started
        return answer

    # --- the search -----------------------------------------------------------------
    def _choose(self, askable: set[str]) -> str:
        """The most visited of the bot's root actions that may be attempted now."""
        if len(self._working) == 0:
            return self.rng.choice(sorted(askable))
        root = self._world()
        self.searches += 1
        policy = self.bot.run_search(root)
        ranked = sorted(policy, key=lambda pair: -pair[1])
        for action, _ in ranked:
            uci = root.action_to_string(root.current_player(), action)
            if uci in askable:
                return uci
        return self.rng.choice(sorted(askable))

    def _world(self):
        """A state of OpenSpiel's game at a position drawn from the belief (the real board)."""
        row = self._working[self.rng.randrange(len(self._working))]
        if self.side == chess.BLACK:
            row = mirror_position(row, self.rules.fog)
        board = position_to_board(row)
        board.turn = self.side
        board.halfmove_clock, board.fullmove_number = 0, 1
        game = self._pyspiel.load_game(self.game_name, {"fen": board.fen(en_passant="fen")})
        return game.new_initial_state()

    def _refused(self, uci: str) -> None:
        """Keep the positions where the refused attempt is illegal (the side's frame)."""
        frame = uci if self.side == chess.WHITE else mirror_uci(uci)
        refused = self.rules.attempt(self._working, move_from_uci(frame)).keys[:, 0]
        self._working = self._working[refused == np.uint64(codes.ILLEGAL)]


def _rooted_bot_class():
    from open_spiel.python.algorithms import ismcts

    class RootedBot(ismcts.ISMCTSBot):
        """OpenSpiel's IS-MCTS with nodes keyed by what was seen since the drawn root."""

        def get_state_key(self, state):
            player = state.current_player()
            if self._use_observation_string:
                return player, state.observation_string(player)
            seen = state.information_state_string(player).split("\n", 2)
            return player, seen[2] if len(seen) > 2 else ""

    return RootedBot


def _RootedBot(*args, **kwargs):  # noqa: N802 - builds the class on first use (OpenSpiel is optional)
    return _rooted_bot_class()(*args, **kwargs)
