"""Perfect play in the tabled lone-king endings: when the player's belief says
the opponent has his king alone and the player's men are a material of the
endgame tables (``ksolve.endgame``), the tables' metaposition search chooses
the move.

The belief is then a metaposition: the player's men (known) and the squares
the lone king may stand on.  ``EndingPlayer.choose`` finds the fewest moves
``n`` of a sure win from that set (iterative deepening from the
full-information bound, as the tables' sweep does) and the first of the
placement's attempts, in the tables' order, that wins within ``n``: whatever
the opponent does, the game is won within ``n`` moves, one fewer at each turn
(among the attempts that win within ``n``, one that would make the player's men stand as
they stood twice before is passed over: a game's threefold repetition is a draw).
After a refusal the belief shrinks to a subset, which is won within the same
``n``, and the choice is made again.

A belief that is a sample (``exact=False``) may have lost the king's true
square, so its squares are widened to every square of the classes White
cannot tell apart now that the sample meets (all the king's legal squares,
in Fog of War those he does not see): a win of that set wins wherever the
king is.

One solver per material and rule set is kept for the whole process (its
workspace keeps every result, so that the turns after the first are mostly
lookups), behind a lock: the web server's games may think in several threads.
A search that passes its node budget gives no move (the caller plays on by
its heuristic); so does a belief the tables do not take.

>>> import chess
>>> from ksolve.board import position_from_fen
>>> from ksolve.rules import get_rules
>>> player = EndingPlayer(get_rules("berkeley"))
>>> position = position_from_fen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")[None, :]
>>> choice = player.choose(position, askable={"g1g7", "g1a7", "f6e6"})
>>> choice.uci, choice.moves, choice.material
('g1g7', 1, 'KQK')
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ksolve.board import move_to_uci
from ksolve.board.layout import COLUMN_BLACK, COLUMN_HALFMOVE, COLUMN_WHITE, KING, PAWN
from ksolve.endgame import core
from ksolve.endgame.material import MAX_PIECES, MaterialError, parse_material
from ksolve.endgame.model import NO_WIN, white_men
from ksolve.endgame.solver import EndgameSolver
from ksolve.endgame.symmetry import COMPOSE, INVERSE, map_move
from ksolve.play.session import FIFTY_MOVES
from ksolve.rules.base import RuleSet

QUICK_MATERIALS = ("KQK", "KRK")
"""The materials played from the tables by default: their tables build in about a second.
Three-man materials (``KBBK``, ``KBNK``, ``KRRK``...) take 25-60 s to build once per process."""
NODE_BUDGET = 4_000_000
"""The most search nodes spent on one choice (about a second or two); past it, no move."""
MAX_MOVES = 60
"""The longest win looked for (every tabled maximum is shorter)."""
TABLE_BYTES = 64 << 20


@dataclass(frozen=True)
class EndingChoice:
    """The tables' move: ``uci`` (the player's frame) wins within ``moves`` moves of ``material``.

    ``beyond_fifty``: the game's 50-move rule (``GameSession`` draws every rule set after 100
    plies without a capture or pawn move) comes first, so the win is sure only if the opponent
    errs.  The tables know no such rule; their move is still played: no shorter sure win
    exists, and the heuristic converts such endings less often (measured in
    ``docs/research/games.md``)."""

    uci: str
    moves: int
    material: str
    beyond_fifty: bool = False


class EndingPlayer:
    """Chooses moves from the tables of ``materials`` under ``rules``."""

    def __init__(self, rules: RuleSet, materials: tuple[str, ...] = QUICK_MATERIALS,
                 node_budget: int = NODE_BUDGET) -> None:
        self.rules = rules
        self.materials = frozenset(parse_material(name).name for name in materials)
        self.node_budget = node_budget

    def material_of(self, positions: np.ndarray) -> str | None:
        """The tabled material of a belief (every position: the player's same men against
        the king alone), or None.

        >>> from ksolve.board import position_from_fen
        >>> from ksolve.rules import get_rules
        >>> player = EndingPlayer(get_rules("berkeley"))
        >>> player.material_of(position_from_fen("7k/8/5K2/8/8/8/8/6R1 w - - 0 1")[None, :])
        'KRK'
        >>> player.material_of(position_from_fen("7k/6p1/5K2/8/8/8/8/6R1 w - - 0 1")[None, :]) is None
        True
        """
        if self.rules.probes or len(positions) == 0:
            return None
        if positions[:, COLUMN_BLACK:COLUMN_BLACK + KING].any() or positions[:, COLUMN_WHITE + PAWN].any():
            return None
        white = positions[0, COLUMN_WHITE:COLUMN_WHITE + KING + 1]
        if not (positions[:, COLUMN_WHITE:COLUMN_WHITE + KING + 1] == white).all():
            return None
        letters, _ = white_men(positions[0])
        if len(letters) - 1 > MAX_PIECES:
            return None
        try:
            name = parse_material(letters + "K").name
        except MaterialError:
            return None
        return name if name in self.materials else None

    def choose(self, positions: np.ndarray, askable: set[str], exact: bool = True,
               repeats: Callable[[str], int] | None = None) -> EndingChoice | None:
        """The tables' move for this belief among the ``askable`` attempts (UCI), or None
        (not a tabled ending, no sure win, the referee's move limit too near, or the budget
        spent);
        a belief that is not ``exact`` is widened (see the module).  ``repeats(uci)``: how
        often the player's men stood as after ``uci`` before; the first winning attempt that
        would not make it three is chosen, so that the game is not drawn by repetition
        (the tables know no such rule), else the first winning attempt."""
        material = self.material_of(positions)
        if material is None:
            return None
        solver, lock = _solver(material, self.rules)
        letters, squares = white_men(positions[0])
        kings = int(np.bitwise_or.reduce(positions[:, COLUMN_BLACK + KING]))
        clock = int(positions[:, COLUMN_HALFMOVE].max())
        longest = min(MAX_MOVES, (self.rules.move_limit - clock) // 2)
        fifty = (min(self.rules.move_limit, FIFTY_MOVES) - clock) // 2
        with lock:
            number, canonical, g = solver.canonical(letters, squares, kings)
            canonical &= int(solver.tables.full[number])
            if not exact:
                canonical, h = core.canonical(solver.tables, number, _widened(solver, number, canonical))
                g = int(COMPOSE[h, g])
            budget = _Budget(solver, self.node_budget)
            moves = _shortest(solver, number, canonical, longest, budget)
            if moves is None:
                return None
            first = None
            for attempt in solver.attempts(number):
                uci = move_to_uci(map_move(int(INVERSE[g]), solver.move_code(attempt)))
                if uci not in askable:
                    continue
                result = core.attempt_wins(solver.tables, solver.work, number, canonical, attempt, moves,
                                           budget.left())
                if result == core.UNKNOWN:
                    break
                if result == core.WIN:
                    if repeats is None or repeats(uci) < 2:
                        return EndingChoice(uci, moves, material, moves > fifty)
                    first = first or EndingChoice(uci, moves, material, moves > fifty)
        return first


class _Budget:
    """The nodes one choice may still spend."""

    def __init__(self, solver: EndgameSolver, nodes: int) -> None:
        self.solver, self.until = solver, solver.nodes + nodes

    def left(self) -> int:
        return max(1, self.until - self.solver.nodes)

    def spent(self) -> bool:
        return self.solver.nodes >= self.until


def _shortest(solver: EndgameSolver, number: int, kings: int, longest: int, budget: _Budget) -> int | None:
    """The fewest moves of a sure win of the king on ``kings``, up to ``longest``; None
    if there is none, or the budget is spent first."""
    low = solver.lower_bound(number, kings)
    if low >= NO_WIN or kings == 0:
        return None
    for moves in range(max(1, low), longest + 1):
        result = core.wins(solver.tables, solver.work, number, kings, moves, budget.left())
        if result == core.WIN:
            return moves
        if result in (core.LOST, core.UNKNOWN) or budget.spent():
            return None
    return None


def _widened(solver: EndgameSolver, number: int, kings: int) -> int:
    """Every square of the classes White cannot tell apart that meet ``kings`` (the tables' frame).

    >>> import chess
    >>> from ksolve.rules import get_rules
    >>> solver, _ = _solver("KQK", get_rules("berkeley"))
    >>> number, kings, _ = solver.canonical("KQ", (chess.A1, chess.H1), chess.BB_E5)
    >>> bin(_widened(solver, number, kings)).count("1")  # every legal square
    40
    """
    out = 0
    for part in solver.model.start_classes(number):
        if part & kings:
            out |= part
    return out


_SOLVERS: dict[tuple[str, str], tuple[EndgameSolver, threading.Lock]] = {}
_BUILDING = threading.Lock()


def _solver(material: str, rules: RuleSet) -> tuple[EndgameSolver, threading.Lock]:
    """The process's solver of ``material`` under ``rules`` (built on first use) and its lock."""
    key = (material, rules.name)
    with _BUILDING:
        if key not in _SOLVERS:
            _SOLVERS[key] = (EndgameSolver(parse_material(material), rules, TABLE_BYTES), threading.Lock())
        return _SOLVERS[key]


def unseen_king_belief(rules: RuleSet, fen: str, side: bool = True) -> np.ndarray:
    """The belief of ``side`` in a lone-king ending ``fen`` when it sees its men but not the
    king: every square of the king's class (what the side hears or sees now, the king's true
    square among them), in the side's frame (mirrored for Black).

    >>> from ksolve.rules import get_rules
    >>> len(unseen_king_belief(get_rules("berkeley"), "8/8/8/2k5/8/8/8/KR6 w - - 0 1"))
    48
    """
    import chess

    from ksolve.belief import BeliefState
    from ksolve.play.mirror import mirror_fen

    board = chess.Board(fen if side == chess.WHITE else mirror_fen(fen))
    truth = board.king(chess.BLACK)
    board.remove_piece_at(truth)
    belief = BeliefState.from_hidden(board.fen(), ["k:any"], rules.fog)
    for _, part in belief.turn_info(rules):
        if (part.positions[:, COLUMN_BLACK + KING] >> np.uint64(truth) & np.uint64(1)).any():
            return part.positions
    raise ValueError(f"{fen}: the king's square is in no class of the belief")

