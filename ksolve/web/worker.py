"""The quick problem check of ``/api/problems/check``, run in the checks' worker
processes (``checks.py``); only the library API is called.  The jobs themselves
run as ``ksolve.execution.jobs.ProblemJob``s in their own processes (``jobs.py``).

>>> summary = check_problem(open("problems/rotenberg-1976.toml").read(), 2**28)
>>> summary.size, summary.hidden[0].name, len(summary.hidden[0].squares), len(summary.possible["b"])
(30, 'bishop', 32, 30)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import ksolve
from ksolve.errors import InputError


@dataclass(frozen=True)
class HiddenUnitSummary:
    piece: str
    """Its piece letter (upper case: White's), or the alternatives: ``q|r|b|n``."""
    name: str
    """``bishop``, ``queen or rook``..."""
    squares: list[str]
    """The squares the problem gives it."""
    optional: bool


@dataclass(frozen=True)
class ProblemSummary:
    """What the Compose page shows while the problem is edited."""

    size: int
    """The belief's size: the positions White cannot tell apart."""
    stipulation: str
    moves: int
    rules: str
    goal: str
    fen: str | None
    """The visible men (None for a problem given as a list of positions)."""
    title: str
    author: str
    hidden: list[HiddenUnitSummary] = field(default_factory=list)
    possible: dict[str, list[str]] = field(default_factory=dict)
    """Per black man type (``b``, ``n``...) whose square White does not know: where it may stand."""
    left_out: str = ""
    """The placements left out because no game reaches them, in words ("" when none)."""


def check_problem(text: str, memory: int) -> ProblemSummary:
    """Load ``text`` as the CLI loads a problem file (its belief within ``memory`` bytes) and sum it up.
    Bad input raises ``InputError`` with its one line (rebuilt, so that it crosses the process boundary)."""
    import chess

    try:
        problem = ksolve.load_problem_text(text, resources=ksolve.Resources(memory))
        belief = problem.belief()
    except InputError as error:
        raise InputError(str(error)) from None
    hidden = [HiddenUnitSummary("|".join(chess.piece_symbol(p).upper() if unit.color else chess.piece_symbol(p)
                                         for p in unit.pieces),
                                " or ".join(chess.piece_name(p) for p in unit.pieces),
                                [chess.square_name(s) for s in chess.scan_forward(unit.squares)], unit.optional)
              for unit in problem.hidden]
    possible = {piece.symbol(): [chess.square_name(s) for s in chess.scan_forward(squares)]
                for piece, squares in belief.hidden_squares()}
    return ProblemSummary(len(belief), problem.stipulation, problem.moves, problem.rules.name, problem.goal,
                          problem.fen, problem.title, problem.author, hidden, possible, belief.left_out.describe())
