"""The computer opponent: a belief-state player.

It keeps its belief (``SideBelief``: exact, sampled past a budget) and on
each attempt of its turn:

0. **Endgame tables.** When the belief says the opponent has his king alone
   and the player's men are a tabled material (``ksolve.play.endings``: KQK
   and KRK by default), the tables' move is played: the win comes within
   the tables' number of moves whatever the opponent does.
1. **Forced win.** While the belief (filtered by this turn's refusals) holds
   at most ``PROVER_POSITIONS`` positions, ksolve's prover looks for a
   forced mate (Fog of War: king capture) in up to ``PROVER_MOVES`` moves
   within ``PROVER_LIMITS``; a proven strategy's attempt is played.
2. **"Any?"** (rule sets with the question) is asked when at least a
   quarter of the sampled positions have a pawn capture.
3. **Heuristic** (otherwise): each attempt scores the chance it is legal
   times its expected value where it is: a win counts ``WIN`` (100), another
   end of the game -1, and otherwise, over up to ``SAMPLE`` positions drawn
   from the belief, ``captured value + check bonus + promotion gain + pawn
   push - 0.7 * the most valuable man the opponent could take next -
   mobility * the opponent's replies`` (men worth 1, 3, 3, 5, 9; a reply
   that mates, or in Fog of War takes the king, costs ``WIN``, more than any
   material, so moves that allow it are avoided when another does not; the
   opponent's replies weigh more when he has his king alone, so that the
   king is hemmed in), less ``REPEAT`` for each time the player's men stood
   so after one of its moves before (shuffling leads to a draw by
   repetition).  ``Weights`` holds these figures; ``PREVIOUS`` are those of
   the player before mates, mobility, pushes and repetitions counted (the
   match baseline ``computer-previous``).  The chances of legality and of a win are taken over the whole
   belief up to ``FULL_BELIEF`` positions (a mate in 1 % of them must not
   outweigh a queen lost in the others), else over the sample.  A small
   seeded noise breaks ties.  The best attempt is made; after a refusal the
   belief is filtered and the choice made again.

The figures above are those of the default level, ``normal``; ``Level`` and
``LEVELS`` give ``easy`` (a small sample, no prover, no tables) and ``strong``
(a wider sample, a deeper prover, every two-piece ending from the tables).

When the belief is lost (a sample that kept no consistent position, even
after rebuilding and recovering), it makes random attempts of its own board.

>>> import chess
>>> from ksolve.play.session import GameSession
>>> game = GameSession("fog-of-war")
>>> computer = ComputerPlayer("fog-of-war", chess.BLACK, seed=1)
>>> _ = game.attempt("e2e4")
>>> computer.play_turn(game).moved, game.to_move == chess.WHITE
(True, True)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, replace

import chess
import numpy as np

from ksolve.belief import BeliefState
from ksolve.board import move_from_uci, move_to_uci
from ksolve.board.convert import decode_move
from ksolve.board.layout import COLUMN_BLACK, COLUMN_WHITE, KING, PAWN
from ksolve.games.model import STANDARD_FEN
from ksolve.play.belief import SideBelief
from ksolve.play.endings import QUICK_MATERIALS, EndingChoice, EndingPlayer
from ksolve.play.mirror import mirror_uci
from ksolve.play.session import Answer, GameSession, material_balance
from ksolve.rules import codes
from ksolve.rules.base import ASK, FRESH
from ksolve.search.prover import Prover
from ksolve.search.run import Limits, SearchAborted

SAMPLE = 48
FULL_BELIEF = 20_000
"""The largest belief whose every position is tried for an attempt's chances of legality and a win."""
PROVER_POSITIONS = 400
PROVER_MOVES = 2
PROVER_LIMITS = Limits(seconds=1.0, nodes=20_000)


@dataclass(frozen=True)
class Level:
    """How hard the computer thinks: the heuristic's sample, the belief tried whole, the
    prover's reach, the endgame tables it plays from (three-man tables take 25-60 s to
    build the first time in a process)."""

    name: str
    sample: int
    full_belief: int
    prover_positions: int
    prover_moves: int
    prover_nodes: int
    tables: tuple[str, ...]


LEVELS = {level.name: level for level in (
    Level("easy", 12, 2_000, 0, 0, 0, ()),
    Level("normal", SAMPLE, FULL_BELIEF, PROVER_POSITIONS, PROVER_MOVES, PROVER_LIMITS.nodes or 0, QUICK_MATERIALS),
    Level("strong", 128, 60_000, 2_000, 3, 200_000, QUICK_MATERIALS + ("KBBK", "KBNK", "KQQK", "KQRK", "KRRK")),
)}
"""The levels people pick (``normal`` is the default): ``easy`` plays from its sample alone
(no prover, no tables), ``strong`` looks wider and deeper and plays every two-piece ending
from the tables."""
DEFAULT_LEVEL = "normal"
VALUES = np.array([1.0, 3.0, 3.0, 5.0, 9.0, 0.0])
"""Pawn, knight, bishop, rook, queen, king (a king's loss is a loss of the game: ``WIN``)."""
WIN = 100.0
ANY_RATE = 0.25


@dataclass(frozen=True)
class Weights:
    """The heuristic's figures (see the module)."""

    check: float = 0.2
    """A check given."""
    threat: float = 0.7
    """Times the most valuable man the opponent could take next."""
    mates: bool = True
    """Whether a reply that mates costs ``WIN`` (in Fog of War a king taken always does)."""
    mobility: float = 0.01
    """Per reply the opponent has."""
    lone_king_mobility: float = 0.15
    """Per reply of an opponent with his king alone."""
    push: float = 0.04
    """Per rank a pawn gains, times the rank it reaches (the 7th: 7 times)."""
    promotion: bool = True
    """Whether a promotion gains the new man's value less the pawn's."""
    repeat: float = 0.4
    """Per earlier time the player's men stood so after its move."""


CURRENT = Weights()
PREVIOUS = Weights(mates=False, mobility=0.0, lone_king_mobility=0.0, push=0.0, promotion=False, repeat=0.0)
"""The player as it was before mates, mobility, pawn pushes and repetitions counted."""


@dataclass
class ThinkStats:
    """What the player spent: attempts chosen, their total seconds, proofs found, attempts
    the endgame tables chose."""

    choices: int = 0
    seconds: float = 0.0
    proofs: int = 0
    tabled: int = 0

    @property
    def mean_seconds(self) -> float:
        return self.seconds / self.choices if self.choices else 0.0


class ComputerPlayer:
    """The computer playing ``side`` under ``rules``."""

    def __init__(self, rules: str, side: chess.Color, fen: str | None = None, seed: int = 0,
                 budget: int = 40_000, memory: int | None = None,
                 tables: tuple[str, ...] | None = None, weights: Weights = CURRENT,
                 level: str = DEFAULT_LEVEL) -> None:
        from ksolve.resources import Resources

        if level not in LEVELS:
            raise ValueError(f"level: {level!r} is not one of {', '.join(LEVELS)}")
        self.level = LEVELS[level]
        self.side = side
        self.limits = replace(PROVER_LIMITS, memory=Resources(memory).budget, nodes=self.level.prover_nodes)
        """The prover's limits, within the memory budget of the process it thinks in
        (``memory`` bytes; None: half of the machine's memory)."""
        self.belief = SideBelief(rules, side, fen, budget, seed)
        self.rules = self.belief.rules
        self.rng = random.Random(seed + 1)
        self.stats = ThinkStats()
        self.weights = weights
        self.standings: Counter[bytes] = Counter()
        """How often the player's men stood so (their bitboards) after one of its moves."""
        self.endings = EndingPlayer(self.rules, self.level.tables if tables is None else tables)
        self.ending: EndingChoice | None = None
        """The tables' first choice of the game: the ending reached and its number of moves."""
        self.ending_turn = -1
        """The game's number of executed moves when the tables first chose (-1: never)."""
        self.fen = fen or STANDARD_FEN
        self._turn_length = -1
        self._state = FRESH
        self._working = self.belief.positions
        """The belief filtered by this turn's refusals and "Any?" answer."""

    def assume(self, positions: np.ndarray) -> None:
        """Start from ``positions`` (the player's frame) as its belief instead of the start
        position alone: an ending studied with the opponent's men unseen.  Call it before
        the game's first move."""
        self.belief.positions = positions
        self._working = positions

    # --- playing a turn -------------------------------------------------------------
    def play_turn(self, game: GameSession) -> Answer:
        """Make attempts in ``game`` until one is executed (or the game ends)."""
        answer = Answer("illegal", "")
        while not game.over and game.to_move == self.side and not answer.moved:
            action = self.choose(game)
            answer = game.ask_any() if action == "any" else game.attempt(action)
            self.heard(action, answer)
        return answer

    def accepts_draw(self, game: GameSession) -> bool:
        """Whether the computer accepts a draw offered in ``game``: when it is not ahead, that
        is, over the positions it holds possible its material (pawn 1, knight and bishop 3,
        rook 5, queen 9) is on average no more than the opponent's.  A lost belief declines.

        >>> import chess
        >>> ComputerPlayer("berkeley", chess.BLACK).accepts_draw(GameSession("berkeley"))  # level
        True
        """
        self.belief.sync(game.observations[self.side])
        if self.belief.lost or not len(self.belief.positions):
            return False
        return material_balance(self.belief.positions) <= 0  # in its own frame it is White

    def choose(self, game: GameSession) -> str:
        """The next attempt (UCI) or ``"any"``, from what this side knows of ``game``."""
        started = time.perf_counter()
        self.belief.sync(game.observations[self.side])
        if len(game.turns) != self._turn_length:
            self._turn_length, self._state = len(game.turns), FRESH
            self._working = self.belief.positions if not self.belief.lost else self.belief.positions[:0]
        askable = [self._frame(uci) for uci in game.askable()]
        choice = self._choose(askable, game.can_ask())
        self.stats.choices += 1
        self.stats.seconds += time.perf_counter() - started
        return choice if choice == "any" else self._frame(choice)

    def heard(self, action: str, answer: Answer) -> None:
        """The referee's answer to this side's last action."""
        positions = self._working
        if answer.moved and len(positions):
            self.standings[_standing_after(positions[0], move_from_uci(self._frame(action)))] += 1
        if answer.kind == "illegal" and action != "any":
            refused = self.rules.attempt(positions, move_from_uci(self._frame(action))).keys[:, 0]
            self._working = positions[refused == np.uint64(codes.ILLEGAL)]
            self._state = self.rules.state_after_refusal(self._state)
        elif answer.kind in ("any-yes", "any-no"):
            yes = answer.kind == "any-yes"
            self._state = self.rules.state_after_any(yes)
            self._working = positions[self.rules.any_answers(positions) == yes]

    # --- thinking -----------------------------------------------------------------
    def _frame(self, uci: str) -> str:
        return uci if self.side == chess.WHITE else mirror_uci(uci)

    def _choose(self, askable: list[str], can_ask: bool) -> str:
        positions = self._working
        if len(positions) == 0:
            return self._random(askable)
        tabled = self.endings.choose(positions, set(askable), self.belief.exact,
                                     lambda uci: self.standings[_standing_after(positions[0], move_from_uci(uci))])
        if tabled is not None:
            self.stats.tabled += 1
            if self.ending is None:
                self.ending, self.ending_turn = tabled, self._turn_length
            return tabled.uci
        if len(positions) <= self.level.prover_positions:
            proven = self._proven(positions, askable, can_ask)
            if proven is not None:
                self.stats.proofs += 1
                return proven
        size = self.level.sample
        sample = positions if len(positions) <= size else positions[sorted(self.rng.sample(range(len(positions)), size))]
        if can_ask and float(self.rules.any_answers(sample).mean()) >= ANY_RATE:
            return "any"
        scores = {uci: self._score(sample, move_from_uci(uci)) for uci in askable}
        return max(scores, key=lambda uci: scores[uci])

    def _proven(self, positions: np.ndarray, askable: list[str], can_ask: bool) -> str | None:
        """A proven strategy's attempt within the level's prover moves, if the prover finds one."""
        belief = BeliefState.from_positions(positions)
        prover = Prover(self.rules, self.limits)
        prover.fit_bounds(belief)
        try:
            for moves in range(1, self.level.prover_moves + 1):
                if prover.wins(belief, moves, self._state):
                    move, _ = prover.winning_move(belief, moves, self._state)
                    if move == ASK:
                        return "any" if can_ask else None
                    uci = move_to_uci(move)
                    return uci if uci in askable else None
        except SearchAborted:
            return None
        return None

    def _score(self, sample: np.ndarray, move: int) -> float:
        """Chance the attempt is legal times its expected value (see the module): the chances
        of legality, a win and another end over the whole belief (up to ``FULL_BELIEF``
        positions, else the sample), the material over the sample."""
        everything = self._working if len(self._working) <= self.level.full_belief else sample
        ends = _ends(self.rules.attempt(everything, move).keys[:, 0])
        legal = ends >= 0
        noise = self.rng.random() * 0.05
        if not legal.any():
            return noise - 1.0
        won = float((ends == self.rules.winning_end).sum() / legal.sum())
        ended = float(((ends > 0) & (ends != self.rules.winning_end)).sum() / legal.sum())
        outcome = self.rules.attempt(sample, move)
        going = np.flatnonzero(_ends(outcome.keys[:, 0]) == codes.END_NONE)
        material = 0.0
        if len(going):
            keys, parents, children = outcome.keys[going], sample[going], outcome.children[going]
            material = float((_gains(parents, keys, self.weights.check) + self._progress(move, parents)
                              - self._dangers(children)).mean())
            material -= self.weights.repeat * self.standings[_standing(children[:1])[0]]
        expected = won * WIN - ended + (1.0 - won - ended) * material
        return float(legal.mean()) * expected + noise

    def _progress(self, move: int, parents: np.ndarray) -> np.ndarray:
        """Per position, what a pawn's move gains: its push and a promotion's new man."""
        weights = self.weights
        from_square, to_square, promotion = decode_move(move)
        pawn = (parents[:, COLUMN_WHITE + PAWN] >> np.uint64(from_square)) & np.uint64(1)
        gain = weights.push * (to_square // 8 - from_square // 8) * (to_square // 8)
        if promotion and weights.promotion:
            gain += VALUES[promotion] - VALUES[PAWN]
        return pawn.astype(np.float64) * gain

    def _dangers(self, children: np.ndarray) -> np.ndarray:
        """Per child, ``threat`` times the most valuable man the opponent could take next
        (``WIN``: a mate, or the king in Fog of War) plus the opponent's mobility."""
        weights = self.weights
        replies = self.rules.replies(children)
        worst = np.zeros(len(children))
        count = np.bincount(replies.parents, minlength=len(children)).astype(np.float64)
        if len(replies.parents) == 0:
            return worst
        move_codes = replies.keys[:, 0].astype(np.int64)
        taken = np.zeros(len(move_codes))
        captured = (move_codes & codes.CAPTURE_MASK) != 0
        squares = np.maximum(move_codes & codes.CAPTURE_MASK, 1) - 1
        bits = np.left_shift(np.uint64(1), squares.astype(np.uint64))
        for piece in range(KING):
            hit = captured & ((children[replies.parents, COLUMN_WHITE + piece] & bits) != 0)
            taken = np.where(hit, VALUES[piece], taken)
        ends = (move_codes & codes.END_MASK) >> codes.END_SHIFT
        lost = ends == codes.END_KING_CAPTURED if self.rules.fog else \
            (ends == codes.END_CHECKMATE) if weights.mates else np.zeros(len(ends), dtype=bool)
        taken = np.where(lost, WIN / weights.threat, taken)
        np.maximum.at(worst, replies.parents, taken)
        alone = ~children[:, COLUMN_BLACK:COLUMN_BLACK + KING].any(axis=1)
        mobility = np.where(alone, weights.lone_king_mobility, weights.mobility)
        return weights.threat * worst + mobility * count

    def _random(self, askable: list[str]) -> str:
        """With no belief left: a random attempt of its own board."""
        return self.rng.choice(askable)


def _ends(move_codes: np.ndarray) -> np.ndarray:
    """Per announcement code, the game-end kind (``codes.END_*``; 0: goes on), -1 for the "No"."""
    as_ints = move_codes.astype(np.int64)
    return np.where(as_ints == codes.ILLEGAL, -1, (as_ints & codes.END_MASK) >> codes.END_SHIFT)


def _standing(children: np.ndarray) -> list[bytes]:
    """Per position, the player's men (their bitboards) as bytes."""
    return [row.tobytes() for row in children[:, COLUMN_WHITE:COLUMN_WHITE + KING + 1]]


def _standing_after(position: np.ndarray, move: int) -> bytes:
    """The player's men (``_standing``) after ``move`` from ``position`` (in castling the
    king's move alone)."""
    from_square, to_square, promotion = decode_move(move)
    men = position[COLUMN_WHITE:COLUMN_WHITE + KING + 1].copy()
    for piece in range(KING + 1):
        if int(men[piece]) >> from_square & 1:
            men[piece] &= ~np.uint64(1 << from_square)
            men[promotion or piece] |= np.uint64(1 << to_square)
    return men.tobytes()


def _gains(parents: np.ndarray, keys: np.ndarray, check: float) -> np.ndarray:
    """The value of the man each move captured (en passant: a pawn), plus ``check`` for a check."""
    gains = np.zeros(len(keys))
    for i, key in enumerate(keys):
        code = int(key[0])
        square = codes.capture_square(code)
        if square is not None:
            gains[i] = next((VALUES[p] for p in range(6) if int(parents[i, COLUMN_BLACK + p]) >> square & 1), 1.0)
        if code & codes.CHECK_MASK:
            gains[i] += check
    return gains
