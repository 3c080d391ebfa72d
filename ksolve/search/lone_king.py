"""White's turns against a lone king, decided by the metaposition engine.

When every position of a belief has White's same men (no pawn, no castling
right) and the black king alone, the belief is a *metaposition*: White's
placement and the set of the king's squares.  The endgame tables' search
(``ksolve.endgame.core``: bitset beliefs, the referee's answers as masks,
proofs shared by canonical metaposition, dominance, the full-information
bound) decides such a turn exactly, much faster than the belief prover, so
both searches (``Prover.wins`` and the proof-number search) ask it first:
a problem that is such an ending from the start (K+R against a king hidden
in a corner), and every line of a problem that reaches one (Black's last man
taken), are decided there.

What it answers is what the prover would: the tables are built by the rule
set's own kernels from the same positions, and the turns it takes are those
where nothing else could differ (a fresh turn, no probes, no stated
conditions on Black's play, the move limit out of reach).  It writes the
strategy's first attempt into the prover's result table (``Entry.move``, in
the real board's frame), so that the strategy is read back turn by turn as
after any proof; each later turn of it is asked again, a table hit.

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> engine = LoneKingEngine(get_rules("berkeley"))
>>> belief = BeliefState.from_hidden("8/8/8/8/8/8/8/K6Q w - - 0 1", ["k:a8,b8,a7,b7"])
>>> turn = engine.turn(belief, 8)
>>> turn.material, len(belief), bin(turn.squares).count("1")  # a8 and b7 are the queen's
('KQK', 2, 2)
>>> from ksolve.search.run import SearchRun
>>> run = SearchRun()
>>> engine.decide(turn, 7, run).won, engine.decide(turn, 8, run).won
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ksolve.belief import BeliefState
from ksolve.board.layout import COLUMN_BLACK, COLUMN_CASTLING, COLUMN_HALFMOVE, COLUMN_WHITE, KING, PAWN
from ksolve.endgame import core
from ksolve.endgame.material import MaterialError, parse_material
from ksolve.endgame.model import white_men
from ksolve.endgame.solver import EndgameSolver
from ksolve.endgame.symmetry import INVERSE, map_move
from ksolve.rules.base import FRESH, RuleSet
from ksolve.rules.kernels import FLAG_MOVE_LIMIT
from ksolve.search.run import SearchRun

__all__ = ["LOST_AT_ANY_LENGTH", "Decision", "LoneKingEngine", "LoneKingTurn"]

MAX_PIECES = 1
"""White's men besides the king in the materials whose tables are built on
first use: one piece (K+Q, K+R, K+B, K+N: tables of about 500 placements built
in a second).  Two pieces make tables of some 10^5 placements (minutes, and
gigabytes): built only for ``ksolve endgame``, not behind a problem's search."""
TABLE_BYTES = 32 << 20
"""The engine's transposition table for one material (about 1.3 M metapositions)."""
STEP_NODES = 20_000
"""Nodes of one engine step: between two, the run's limits are looked at."""
LOST_AT_ANY_LENGTH = 1 << 29
"""``Entry.disproven`` of a turn lost at any length (every line of the refutation
ends in a capture, a draw or a square White cannot win even seeing the king)."""

_TABLES: dict[tuple[str, str], EndgameSolver | None] = {}
"""This process's tables, by material and rule set (None: not built, unsupported)."""


@dataclass(frozen=True)
class Decision:
    """A turn decided by the engine: won or not, and the strategy's first attempt
    (a move code in the real board's frame) or whether it is lost at any length."""

    won: bool
    move: int | None = None
    forever: bool = False


@dataclass(frozen=True)
class LoneKingTurn:
    """A White turn as a metaposition in the tables' frame."""

    material: str
    solver: EndgameSolver
    number: int
    """The canonical placement of White's men."""
    squares: int
    """The black king's squares, mapped into the tables' frame."""
    symmetry: int
    """The symmetry carrying the real board onto the tables' one."""


class LoneKingEngine:
    """The metaposition engine as seen by the belief searches of one rule set."""

    def __init__(self, rules: RuleSet, table_bytes: int = TABLE_BYTES) -> None:
        self.rules = rules
        self.table_bytes = table_bytes
        self.enabled = not rules.probes and rules.bounds_hold and not rules.full_information
        """Whether the engine may answer at all: under probes a turn chooses squares
        to look at, under stated conditions Black's replies are not the tables', and
        in orthodox chess (one position per belief) the tables' model of a refused
        attempt does not hold while the position's own search is already exact."""
        self.move_limit = int(rules.spec.flags[FLAG_MOVE_LIMIT])
        self.turns = 0
        """Turns decided here (statistics)."""
        self._solvers: dict[str, EndgameSolver | None] = {}

    def turn(self, belief: BeliefState, moves: int, state: int = FRESH) -> LoneKingTurn | None:
        """The belief as a metaposition, or None where the engine does not answer."""
        if not self.enabled or state != FRESH or not len(belief):
            return None
        positions = belief.positions
        first = positions[0]
        if first[COLUMN_WHITE + PAWN] or positions[:, COLUMN_BLACK:COLUMN_BLACK + KING].any():
            return None
        if (positions[:, COLUMN_WHITE:COLUMN_BLACK] != first[COLUMN_WHITE:COLUMN_BLACK]).any():
            return None
        if positions[:, COLUMN_CASTLING].any():
            return None
        if int(positions[:, COLUMN_HALFMOVE].max()) + 2 * moves >= self.move_limit:
            return None
        white, squares = white_men(first)
        solver = self._solver(white + "K")
        if solver is None:
            return None
        kings = int(np.bitwise_or.reduce(positions[:, COLUMN_BLACK + KING]))
        number, canonical, symmetry = solver.canonical(white, squares, kings)
        return LoneKingTurn(solver.material.name, solver, number, canonical, symmetry)

    def decide(self, turn: LoneKingTurn, moves: int, run: SearchRun) -> Decision:
        """Whether White wins the turn within ``moves``, and how; the engine's nodes
        counted on ``run``, whose limits are looked at between steps (``SearchAborted``)."""
        solver = turn.solver
        result = _search(run, solver.work, lambda budget: core.wins(solver.tables, solver.work, turn.number,
                                                                    turn.squares, moves, budget))
        self.turns += 1
        if result != core.WIN:
            return Decision(False, None, result == core.LOST)
        for attempt in solver.attempts(turn.number):
            won = _search(run, solver.work, lambda budget: core.attempt_wins(solver.tables, solver.work, turn.number,
                                                                             turn.squares, attempt, moves, budget))
            if won == core.WIN:
                return Decision(True, map_move(int(INVERSE[turn.symmetry]), solver.move_code(attempt)))
        raise AssertionError("a won metaposition with no winning attempt")

    def _solver(self, material: str) -> EndgameSolver | None:
        """This engine's solver of ``material``: the process's tables of it (built on
        first use) with a workspace of this engine's own, so that what a search finds
        and the nodes it counts owe nothing to earlier searches of the process."""
        if material not in self._solvers:
            tables = _tables(material, self.rules)
            self._solvers[material] = None if tables is None else tables.fresh(self.table_bytes)
        return self._solvers[material]


def _tables(material: str, rules: RuleSet) -> EndgameSolver | None:
    """The process's solver of ``material`` under ``rules`` (only its tables are used:
    they are read, never written), or None where no tables are built for it."""
    key = (material, rules.name)
    if key not in _TABLES:
        try:
            parsed = parse_material(material)
        except MaterialError:
            parsed = None
        if parsed is None or parsed.men - 1 > MAX_PIECES:
            _TABLES[key] = None
        else:
            _TABLES[key] = EndgameSolver(parsed, rules, table_bytes=0)
    return _TABLES[key]


def _search(run: SearchRun, work: core.Workspace, step: Callable[[int], int]) -> int:
    """``step(budget)`` repeated until it decides, each step's nodes charged to ``run``."""
    while True:
        before = int(work.counters[core.NODES])
        result = step(STEP_NODES)
        run.charge(int(work.counters[core.NODES]) - before)
        if result != core.UNKNOWN:
            return result
