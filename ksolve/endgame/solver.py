"""One material under one rule set: the metaposition tables and the shared
search workspace, with the questions the sweep and the certificates ask.

>>> import chess
>>> from ksolve.rules import get_rules
>>> solver = EndgameSolver(parse_material("KQK"), get_rules("berkeley"))
>>> placement = solver.placement((chess.A1, chess.H1))
>>> solver.shortest(placement, 20).moves  # the queen in the corner, the king anywhere
16
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ksolve.endgame import core
from ksolve.endgame.material import Material, parse_material
from ksolve.endgame.model import NO_WIN, EndgameModel
from ksolve.endgame.symmetry import COMPOSE, map_squares
from ksolve.rules.base import RuleSet

__all__ = ["EndgameSolver", "Placement", "Shortest", "parse_material"]

ANYWHERE, GENERAL = "anywhere", "general"
"""Where the black king may start: on any legal square, or in general position."""
STARTS = (ANYWHERE, GENERAL)
DEFAULT_TABLE_BYTES = 256 << 20
"""The transposition table's default size (about ten million entries)."""
STEP_NODES = 200_000
"""Nodes searched between two looks at the clock and the progress callback."""


@dataclass(frozen=True)
class Placement:
    """A canonical placement of White's men: its number and squares."""

    number: int
    squares: tuple[int, ...]


@dataclass(frozen=True)
class Shortest:
    """The outcome of a shortest-win search from total ignorance.

    ``moves``: the fewest moves of a sure win, or None; ``refuted``: no win
    within this many moves is proven (``moves - 1`` when ``moves`` is found);
    ``never``: no sure win at any length (every first move loses outright in
    some line: a capture, a draw); ``complete``: the search ended (not a limit)."""

    moves: int | None
    refuted: int
    never: bool
    nodes: int
    seconds: float
    complete: bool = True


class SearchStopped(Exception):
    """Raised by a ``should_stop`` callback to end the search (a time limit, Ctrl-C)."""


class EndgameSolver:
    """The tables of ``material`` under ``rules`` and one workspace shared by every search
    (``progress`` and ``should_stop``: of the tables' build, ``EndgameModel``)."""

    def __init__(self, material: Material, rules: RuleSet, table_bytes: int = DEFAULT_TABLE_BYTES,
                 progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], None] | None = None) -> None:
        self.material = material
        self.rules = rules
        self.model = EndgameModel(material, rules, progress, should_stop)
        self.tables = self.model.tables
        self.space = self.model.space
        self.work = core.Workspace.create(self.tables, max(1024, table_bytes // core.ENTRY_BYTES))
        self.should_stop: Callable[[], None] | None = None
        """Called between steps of a search; raises ``SearchStopped`` to end it."""
        self.start = ANYWHERE
        """The start whose rows the workspace's ``start_proven`` holds."""

    def use_start(self, start: str) -> None:
        """Let the workspace's per-placement proofs (``start_proven``) be about ``start``'s
        squares; switching start forgets those of the other (every other result stays)."""
        if start == self.start:
            return
        white = self.material.white
        offset, count = self.space.offset(white), self.space.count(white)
        for number in range(offset, offset + count):
            self.work.start_mask[number] = self.start_squares(number, start)
        self.work.start_proven[offset:offset + count] = core.NEVER
        self.start = start

    def remember(self, won: dict[int, int]) -> None:
        """Placements (numbers) known won within so many moves from the current start."""
        proven = self.work.start_proven
        for number, moves in won.items():
            proven[number] = min(int(proven[number]), moves)

    def fresh(self, table_bytes: int = DEFAULT_TABLE_BYTES) -> EndgameSolver:
        """A solver of the same tables (shared: they are only read) with an empty
        workspace: what it finds owes nothing to what this one searched."""
        twin = object.__new__(EndgameSolver)
        twin.__dict__.update(self.__dict__)
        twin.work = core.Workspace.create(self.tables, max(1024, table_bytes // core.ENTRY_BYTES))
        twin.should_stop = None
        twin.start = ANYWHERE
        return twin

    # --- placements -----------------------------------------------------------------
    def placements(self) -> list[Placement]:
        """Every placement of the material up to symmetry, in canonical order."""
        white = self.material.white
        offset = self.space.offset(white)
        return [Placement(number, self.space.squares(number))
                for number in range(offset, offset + self.space.count(white))]

    def placement(self, squares: tuple[int, ...]) -> Placement:
        """The canonical placement of White's men standing on ``squares`` (material order)."""
        number, _ = self.space.locate(self.material.white, squares)
        return Placement(number, self.space.squares(number))

    def start_classes(self, number: int, start: str = ANYWHERE) -> list[int]:
        """The sets of king squares White tells apart at the start (``EndgameModel.start_classes``),
        within the start's squares (``start_squares``)."""
        squares = self.start_squares(number, start)
        return [part & squares for part in self.model.start_classes(number) if part & squares]

    def start_squares(self, number: int, start: str = ANYWHERE) -> int:
        """The black king's squares at the start: ``anywhere`` (every legal square), or
        in ``general`` position (Ferguson): not next to a White man no other guards,
        so that the king cannot take a man at once."""
        full = int(self.tables.full[number])
        if start == ANYWHERE:
            return full
        if start != GENERAL:
            raise ValueError(f"unknown start {start!r}; valid: {ANYWHERE}, {GENERAL}")
        return full & ~unguarded_neighbours(self.space.material_of(number).white, self.space.squares(number))

    def belief_size(self, number: int, start: str = ANYWHERE) -> int:
        """The size of White's initial belief: the black king's squares at the start."""
        return self.start_squares(number, start).bit_count()

    def lower_bound(self, number: int, squares: int | None = None) -> int:
        """The fewest moves White could need even seeing the king (``NO_WIN``: he never wins)."""
        squares = int(self.tables.full[number]) if squares is None else squares
        distances = self.tables.distance[number]
        return max((int(distances[s]) for s in range(64) if squares >> s & 1), default=0)

    # --- searching ---------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        return int(self.work.counters[core.NODES])

    def wins(self, number: int, squares: int, moves: int, budget: int | None = None) -> int:
        """``core.WIN``, ``core.LOSS`` or ``core.LOST`` (at any length): whether White
        wins the king on ``squares`` within ``moves``, searching in steps
        (``should_stop`` between them); ``core.UNKNOWN`` after ``budget`` nodes."""
        spent = 0
        while True:
            step = STEP_NODES if budget is None else min(STEP_NODES, budget - spent)
            if step <= 0:
                return core.UNKNOWN
            before = self.nodes
            result = core.wins(self.tables, self.work, number, squares, moves, step)
            spent += self.nodes - before
            if result != core.UNKNOWN:
                return result
            if self.should_stop is not None:
                self.should_stop()

    def attempt_wins(self, number: int, squares: int, attempt: int, moves: int) -> bool:
        """Whether trying attempt ``attempt`` (an index into the tables) first wins within ``moves``."""
        while True:
            result = core.attempt_wins(self.tables, self.work, number, squares, attempt, moves, STEP_NODES)
            if result != core.UNKNOWN:
                return result == core.WIN
            if self.should_stop is not None:
                self.should_stop()

    def start_wins(self, number: int, moves: int, start: str = ANYWHERE) -> int:
        """Whether White wins every start class of placement ``number`` within ``moves``
        (``core.LOST`` if one is lost at any length, else ``core.LOSS`` if one is lost)."""
        self.use_start(start)
        results = [self.wins(number, squares, moves) for squares in self.start_classes(number, start)]
        if all(result == core.WIN for result in results):
            return core.WIN
        return core.LOST if core.LOST in results else core.LOSS

    def shortest(self, placement: Placement, max_moves: int) -> Shortest:
        """The fewest moves White needs from total ignorance, up to ``max_moves``
        (iterative deepening from the full-information bound; every depth's
        results stay in the shared table)."""
        return self._shortest(placement.number, int(self.tables.full[placement.number]), max_moves)

    def shortest_from(self, squares: tuple[int, ...], kings: int, max_moves: int,
                      white: str | None = None) -> Shortest:
        """The fewest moves White needs with his men (``white``, default the
        material's) on ``squares`` and the black king on one of ``kings`` (a
        bitboard; squares where the king cannot legally stand are left out),
        up to ``max_moves``: the same search on any set of squares.

        >>> import chess
        >>> from ksolve.rules import get_rules
        >>> solver = EndgameSolver(parse_material("KQK"), get_rules("berkeley"))
        >>> corner = chess.BB_A8 | chess.BB_B8 | chess.BB_A7 | chess.BB_B7
        >>> solver.shortest_from((chess.A1, chess.H1), corner, 20).moves  # benchmarks/deep/kq-k-2x2.toml
        8
        """
        number, canonical, _ = self.canonical(white or self.material.white, squares, kings)
        return self._shortest(number, canonical & int(self.tables.full[number]), max_moves)

    def _shortest(self, number: int, kings: int, max_moves: int) -> Shortest:
        started, nodes = time.perf_counter(), self.nodes
        low = self.lower_bound(number, kings)
        if low >= NO_WIN:
            return Shortest(None, max_moves, True, 0, 0.0)
        classes = [kings & part for part in self.start_classes(number) if kings & part]
        for moves in range(max(1, low), max_moves + 1):
            results = [self.wins(number, part, moves) for part in classes]
            if all(result == core.WIN for result in results):
                return Shortest(moves, moves - 1, False, self.nodes - nodes, time.perf_counter() - started)
            if core.LOST in results:
                return Shortest(None, max_moves, True, self.nodes - nodes, time.perf_counter() - started)
        return Shortest(None, max_moves, False, self.nodes - nodes, time.perf_counter() - started)

    # --- frames ---------------------------------------------------------------------
    def canonical(self, white: str, squares: tuple[int, ...], kings: int) -> tuple[int, int, int]:
        """A position of White's men ``white`` on ``squares`` with the king on one of
        ``kings``, in the tables' frame: ``(placement number, king squares, symmetry)``
        where the symmetry carries the real board onto the tables' one."""
        number, g = self.space.locate(white, squares)
        mapped = map_squares(g, kings)
        canonical, h = core.canonical(self.tables, number, mapped)
        return number, canonical, int(COMPOSE[h, g])

    def attempts(self, number: int) -> range:
        """The placement's attempts, as indices into the tables."""
        return range(int(self.tables.move_lo[number]), int(self.tables.move_hi[number]))

    def move_code(self, attempt: int) -> int:
        return int(self.tables.move_code[attempt])

    def counters(self) -> dict[str, int]:
        """The search's counters by name."""
        names = ("nodes", "budget", "table_hits", "bound_cuts", "dominance_hits", "start_hits", "stores")
        return {name: int(value) for name, value in zip(names, self.work.counters) if name != "budget"}


def unguarded_neighbours(white: str, squares: tuple[int, ...]) -> int:
    """The squares next to a White man (not the king) that no other White man guards:
    where the black king could take it at once.

    >>> import chess
    >>> chess.SquareSet(unguarded_neighbours("KR", (chess.A1, chess.H8))) == chess.SquareSet(
    ...     chess.BB_KING_ATTACKS[chess.H8])
    True
    >>> unguarded_neighbours("KR", (chess.A1, chess.B2))
    0
    """
    import chess

    board = chess.Board(None)
    for letter, square in zip(white, squares):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    out = 0
    for letter, square in zip(white[1:], squares[1:]):
        if not board.is_attacked_by(chess.WHITE, square):
            out |= chess.BB_KING_ATTACKS[square]
    return out


def material_solver(material: str, rules: RuleSet, **options) -> EndgameSolver:
    """``EndgameSolver`` of a material written as text (``KQK``)."""
    return EndgameSolver(parse_material(material), rules, **options)

