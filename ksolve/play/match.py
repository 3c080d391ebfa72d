"""Games and matches between players: the computer (``ComputerPlayer``) and the
simple policies of ``ksolve.games.play`` (``random_policy``, ``greedy_policy``),
over a ``GameSession``.

- ``play_match``: one game between two players given as objects (a policy or
  a ``ComputerPlayer``), the session returned.
- ``run_match``: a match between two players given by name (``PLAYERS``:
  ``random``, ``greedy``, ``computer``) in seat-swapped pairs of games (each
  pair: one seed, the first player White in the pair's first game and Black
  in its second), each game recorded as a ``GameRecord`` and the match
  summed up as a ``MatchSummary``: wins, draws and losses of the first
  player, his score with a 95 % Wilson interval and the Elo difference with
  its interval (``wilson_interval``, ``elo_difference``).

A game stopped at the ply cap is scored as a draw (and counted apart, as
``capped``).  Seconds per move are wall seconds of a side's whole turns
(refused attempts and "Any?" included) over its executed moves; each record
also counts each side's refused attempts.

>>> game = play_match("berkeley", random_policy, random_policy, max_plies=6, seed=3)
>>> len(game.turns), game.result
(6, '*')
>>> match = run_match("wild16", "greedy", "random", pairs=1, max_plies=4, seed=5)
>>> [(record.white, record.black, record.seed) for record in match.games]
[('greedy', 'random', 5), ('random', 'greedy', 5)]
>>> match.summary.games, match.summary.capped, match.summary.score
(2, 2, 0.5)
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Callable, Literal, Protocol, Union

import chess

from ksolve.board import move_to_uci
from ksolve.games.model import Refused
from ksolve.games.play import ASK, Policy, greedy_policy, random_policy
from ksolve.play.computer import PREVIOUS, ComputerPlayer
from ksolve.play.session import GameSession
from ksolve.rules import codes

Player = Union[ComputerPlayer, Policy]
"""What ``play_match`` takes for a side: a computer player or a policy."""

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


# --- players ---------------------------------------------------------------------------
class TurnPlayer(Protocol):
    """Anything that plays its side's whole turn in a session (its attempts until a move)."""

    def play_turn(self, game: GameSession) -> object: ...


def play_policy_turn(game: GameSession, policy: Policy, rng: random.Random) -> None:
    """One turn of a policy: its actions until a move is executed."""
    moved = False
    while not moved and not game.over:
        choice = policy(game.referee, rng)
        if choice == ASK:
            game.ask_any()
        else:
            moved = game.attempt(move_to_uci(choice)).moved


@dataclass
class PolicyPlayer:
    """A policy of ``ksolve.games.play`` with its own random stream, as a ``TurnPlayer``.

    >>> player = PolicyPlayer(random_policy, random.Random(1))
    >>> game = GameSession("wild16")
    >>> player.play_turn(game); len(game.turns)
    1
    """

    policy: Policy
    rng: random.Random

    def play_turn(self, game: GameSession) -> None:
        play_policy_turn(game, self.policy, self.rng)


PlayerFactory = Callable[[str, chess.Color, int, Union[str, None]], TurnPlayer]
"""Makes a player: ``(rules, side, seed, fen) -> TurnPlayer``."""

PLAYERS: dict[str, PlayerFactory] = {
    "random": lambda rules, side, seed, fen: PolicyPlayer(random_policy, random.Random(seed)),
    "greedy": lambda rules, side, seed, fen: PolicyPlayer(greedy_policy, random.Random(seed)),
    "computer": lambda rules, side, seed, fen: ComputerPlayer(rules, side, fen=fen, seed=seed),
    "computer-easy": lambda rules, side, seed, fen: ComputerPlayer(rules, side, fen=fen, seed=seed, level="easy"),
    "computer-strong": lambda rules, side, seed, fen: ComputerPlayer(rules, side, fen=fen, seed=seed,
                                                                     level="strong"),
    "computer-previous": lambda rules, side, seed, fen: ComputerPlayer(rules, side, fen=fen, seed=seed, tables=(),
                                                                       weights=PREVIOUS),
    "ismcts": lambda rules, side, seed, fen: _ismcts(rules, side, seed, fen),
}
"""The players a match names: the two policies, the computer at its levels (``computer``:
the default, ``normal``) and the
computer as it was before the endgame tables, mates, mobility, pawn pushes and repetitions
counted (``computer.PREVIOUS``), and OpenSpiel's information-set MCTS
(``openspiel_player.IsmctsPlayer``: Wild 16 and Fog of War, OpenSpiel installed)."""


def _ismcts(rules: str, side: chess.Color, seed: int, fen: str | None) -> TurnPlayer:
    from ksolve.play.openspiel_player import IsmctsPlayer, openspiel_available

    if not openspiel_available():
        raise ValueError("ismcts: OpenSpiel is not installed (pip install open_spiel)")
    return IsmctsPlayer(rules, side, fen, seed)


def make_player(name: str, rules: str, side: chess.Color, seed: int, fen: str | None = None) -> TurnPlayer:
    """The player ``name`` of ``PLAYERS`` for ``side``; ``ValueError`` for an unknown name.

    >>> type(make_player("greedy", "wild16", chess.WHITE, 0)).__name__
    'PolicyPlayer'
    """
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; players: {', '.join(PLAYERS)}")
    return PLAYERS[name](rules, side, seed, fen)


def _turn_player(player: Player | TurnPlayer, rng: random.Random) -> TurnPlayer:
    return player if hasattr(player, "play_turn") else PolicyPlayer(player, rng)  # type: ignore[arg-type,return-value]


# --- one game ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Clock:
    """Wall seconds each side spent on its turns, and its executed moves."""

    white_seconds: float = 0.0
    black_seconds: float = 0.0
    white_moves: int = 0
    black_moves: int = 0


def play_game(game: GameSession, white: TurnPlayer, black: TurnPlayer, max_plies: int) -> Clock:
    """Play ``game`` on until it ends or holds ``max_plies`` executed moves; each side's time."""
    seconds = {chess.WHITE: 0.0, chess.BLACK: 0.0}
    moves = {chess.WHITE: 0, chess.BLACK: 0}
    while not game.over and len(game.turns) < max_plies:
        side = game.to_move
        before = len(game.turns)
        started = time.perf_counter()
        (white if side == chess.WHITE else black).play_turn(game)
        seconds[side] += time.perf_counter() - started
        moves[side] += len(game.turns) - before
    return Clock(seconds[chess.WHITE], seconds[chess.BLACK], moves[chess.WHITE], moves[chess.BLACK])


def play_match(rules: str, white: Player, black: Player, max_plies: int, seed: int = 0,
               fen: str | None = None) -> GameSession:
    """A game of at most ``max_plies`` executed moves (fewer if it ends); the policies
    among the players share one random stream seeded with ``seed``."""
    game = GameSession(rules, fen)
    rng = random.Random(seed)
    play_game(game, _turn_player(white, rng), _turn_player(black, rng), max_plies)
    return game


class Ending(str, Enum):
    """How a game ended."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient-material"
    FIFTY_MOVES = "fifty-moves"
    """The 50-move rule: the session's, or Fog of War referee's own."""
    REPETITION = "repetition"
    KING_CAPTURE = "king-capture"
    """Fog of War: the king was taken."""
    PLY_CAP = "ply-cap"
    """Stopped at the match's ply cap, unfinished (scored as a draw)."""


_ENDS = {codes.END_CHECKMATE: Ending.CHECKMATE, codes.END_STALEMATE: Ending.STALEMATE,
         codes.END_INSUFFICIENT: Ending.INSUFFICIENT_MATERIAL, codes.END_MOVE_LIMIT: Ending.FIFTY_MOVES,
         codes.END_KING_CAPTURED: Ending.KING_CAPTURE}


def ending_of(game: GameSession) -> Ending:
    """How ``game`` ended (``PLY_CAP`` while it is not over).

    >>> game = GameSession("wild16")
    >>> for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
    ...     _ = game.attempt(uci)
    >>> ending_of(game).value, game.result
    ('checkmate', '0-1')
    """
    if not game.over:
        return Ending.PLY_CAP
    end = codes.end_of(game.turns[-1].code)
    if end in _ENDS:
        return _ENDS[end]
    if "repetition" in game.termination:
        return Ending.REPETITION
    if "50-move" in game.termination:
        return Ending.FIFTY_MOVES
    raise ValueError(f"an ending not known to the match runner: {game.termination!r}")


Colour = Literal["white", "black"]


@dataclass(frozen=True)
class GameRecord:
    """One game of a match: who sat where, how it ended, its length and each side's time."""

    pair: int
    """The pair's index in the match (0: the first)."""
    seed: int
    """The pair's seed (both its games)."""
    white: str
    black: str
    first_is_white: bool
    """Whether the match's first player had White in this game."""
    result: str
    """PGN: ``1-0``, ``0-1``, ``1/2-1/2``, ``*`` (the ply cap)."""
    winner: Colour | None
    ending: Ending
    termination: str
    """The session's words for the end (empty at the ply cap)."""
    plies: int
    white_moves: int
    black_moves: int
    white_seconds_per_move: float
    black_seconds_per_move: float
    moves: tuple[str, ...] = field(default=(), repr=False)
    """The executed moves, in UCI."""
    white_refused: int = 0
    black_refused: int = 0
    """Each side's attempts the referee refused ("No", "Illegal") over the game."""

    @property
    def first_score(self) -> float:
        """The first player's points: 1 a win, 1/2 a draw or the ply cap, 0 a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if (self.winner == "white") == self.first_is_white else 0.0

    def seconds_per_move(self, first: bool) -> float:
        """The first (or the second) player's seconds per move in this game."""
        return self.white_seconds_per_move if first == self.first_is_white else self.black_seconds_per_move

    def moves_of(self, first: bool) -> int:
        """The first (or the second) player's executed moves in this game."""
        return self.white_moves if first == self.first_is_white else self.black_moves

    def refused_of(self, first: bool) -> int:
        """The first (or the second) player's refused attempts in this game."""
        return self.white_refused if first == self.first_is_white else self.black_refused


def record_game(game: GameSession, clock: Clock, pair: int, seed: int, white: str, black: str,
                first_is_white: bool) -> GameRecord:
    """The record of a played ``game``."""
    winner: Colour | None = {"1-0": "white", "0-1": "black"}.get(game.result)  # type: ignore[assignment]
    refused = {side: sum(isinstance(action, Refused) for turn in game.turns if turn.white == side
                         for action in turn.actions) for side in (True, False)}
    return GameRecord(pair, seed, white, black, first_is_white, game.result, winner, ending_of(game),
                      game.termination, len(game.turns), clock.white_moves, clock.black_moves,
                      clock.white_seconds / max(clock.white_moves, 1), clock.black_seconds / max(clock.black_moves, 1),
                      tuple(turn.move for turn in game.turns if turn.move is not None), refused[True], refused[False])


def play_pair(rules: str, first: str, second: str, pair: int, seed: int, max_plies: int,
              fen: str | None = None) -> tuple[GameRecord, GameRecord]:
    """Two games under one seed, colours swapped: the first player White, then Black.
    Each player is made afresh per game with its own seed (first ``2 * seed``, second
    ``2 * seed + 1``), the same in both games of the pair."""
    records = []
    for first_is_white in (True, False):
        seats = (first, second) if first_is_white else (second, first)
        seeds = (2 * seed, 2 * seed + 1) if first_is_white else (2 * seed + 1, 2 * seed)
        white = make_player(seats[0], rules, chess.WHITE, seeds[0], fen)
        black = make_player(seats[1], rules, chess.BLACK, seeds[1], fen)
        game = GameSession(rules, fen)
        clock = play_game(game, white, black, max_plies)
        records.append(record_game(game, clock, pair, seed, seats[0], seats[1], first_is_white))
    return records[0], records[1]


# --- statistics ------------------------------------------------------------------------
def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a mean per-game score ``score`` over ``games`` games
    (a draw counted as half a win; with draws the interval is a little wider than it
    need be, never narrower).  Unlike the normal approximation it stays wide at 0 and 1.

    >>> low, high = wilson_interval(0.8, 10)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)
    >>> wilson_interval(1.0, 100)[1]
    1.0
    """
    if games <= 0:
        return 0.0, 1.0
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (score + z2 / (2 * games)) / denominator
    half = z * math.sqrt(max(score * (1 - score), 0.0) / games + z2 / (4 * games * games)) / denominator
    low = 0.0 if score <= 0 else max(0.0, centre - half)     # exact at the ends, not rounded off them
    high = 1.0 if score >= 1 else min(1.0, centre + half)
    return low, high


def elo_difference(score: float, games: int) -> float:
    """``400 log10(s / (1 - s))`` of a score, with ``s`` clipped to ``[1/(2n), 1 - 1/(2n)]``
    over ``n`` games (as though half a game had gone the other way), so that a clean
    sweep gives a large finite difference that grows with the games played.

    >>> round(elo_difference(0.8, 10), 1), elo_difference(0.5, 10)
    (240.8, 0.0)
    >>> round(elo_difference(1.0, 100)), round(elo_difference(0.0, 100))
    (920, -920)
    """
    margin = 0.5 / max(games, 1)
    clipped = min(max(score, margin), 1 - margin)
    return 400 * math.log10(clipped / (1 - clipped))


@dataclass(frozen=True)
class MatchSummary:
    """A match from the first player's point of view."""

    rules: str
    first: str
    second: str
    games: int
    wins: int
    draws: int
    """Draws, the games stopped at the ply cap included."""
    losses: int
    capped: int
    """Games stopped at the ply cap (among the draws)."""
    score: float
    """The first player's mean points per game (win 1, draw 1/2)."""
    score_low: float
    score_high: float
    elo: float
    """The first player's Elo over the second (see ``elo_difference``)."""
    elo_low: float
    elo_high: float
    first_seconds_per_move: float
    second_seconds_per_move: float
    first_refused_per_move: float
    """The first player's refused attempts per executed move."""
    second_refused_per_move: float
    mean_plies: float
    endings: tuple[tuple[Ending, int], ...]
    """How many games ended each way, in ``Ending``'s order."""
    interval: str = "Wilson score interval, 95 %, on the per-game score (draw = 1/2)"


def summarize(rules: str, first: str, second: str, records: tuple[GameRecord, ...] | list[GameRecord]) -> MatchSummary:
    """The summary of ``records`` (at least one game) for the first player.

    >>> def game(winner, first_is_white=True):
    ...     return GameRecord(0, 0, "a", "b", first_is_white, "", winner, Ending.CHECKMATE, "", 40, 20, 20, 0.1, 0.2)
    >>> s = summarize("wild16", "a", "b", [game("white")] * 7 + [game(None)] * 2 + [game("black")])
    >>> (s.wins, s.draws, s.losses, s.score, round(s.score_low, 3), round(s.elo))
    (7, 2, 1, 0.8, 0.49, 241)
    """
    if not records:
        raise ValueError("a match summary needs at least one game")
    games = len(records)
    points = [record.first_score for record in records]
    score = sum(points) / games
    low, high = wilson_interval(score, games)
    ended = Counter(record.ending for record in records)

    def per_move(first_side: bool, refused: bool = False) -> float:
        moves = sum(record.moves_of(first_side) for record in records)
        total = sum(record.refused_of(first_side) if refused else
                    record.seconds_per_move(first_side) * record.moves_of(first_side) for record in records)
        return total / moves if moves else 0.0

    return MatchSummary(
        rules, first, second, games, points.count(1.0), points.count(0.5), points.count(0.0),
        ended[Ending.PLY_CAP], score, low, high,
        elo_difference(score, games), elo_difference(low, games), elo_difference(high, games),
        per_move(True), per_move(False), per_move(True, True), per_move(False, True), sum(record.plies for record in records) / games,
        tuple((ending, ended[ending]) for ending in Ending if ended[ending]))


# --- a match ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    """A match's settings and its games, in play order (two per pair)."""

    rules: str
    first: str
    second: str
    pairs: int
    max_plies: int
    seed: int
    games: tuple[GameRecord, ...]

    @property
    def summary(self) -> MatchSummary:
        return summarize(self.rules, self.first, self.second, self.games)

    def as_json(self) -> dict[str, Any]:
        """The match as JSON-ready data: its settings, every game and the summary."""
        summary = asdict(self.summary)
        summary["endings"] = {ending.value: count for ending, count in self.summary.endings}
        games = [{**asdict(record), "ending": record.ending.value, "moves": " ".join(record.moves)}
                 for record in self.games]
        return {"rules": self.rules, "first": self.first, "second": self.second, "pairs": self.pairs,
                "max_plies": self.max_plies, "seed": self.seed, "summary": summary, "games": games}


def run_match(rules: str, first: str, second: str, pairs: int, max_plies: int, seed: int = 0,
              fen: str | None = None, progress: Callable[[Match], None] | None = None) -> Match:
    """``pairs`` seat-swapped pairs (``play_pair``) of ``first`` against ``second``, pair
    ``i`` under seed ``seed + i``; ``progress`` is called with the match so far after each pair."""
    for name in (first, second):
        if name not in PLAYERS:
            raise ValueError(f"unknown player {name!r}; players: {', '.join(PLAYERS)}")
    records: list[GameRecord] = []
    match = Match(rules, first, second, pairs, max_plies, seed, ())
    for pair in range(pairs):
        records.extend(play_pair(rules, first, second, pair, seed + pair, max_plies, fen))
        match = Match(rules, first, second, pairs, max_plies, seed, tuple(records))
        if progress is not None:
            progress(match)
    return match
