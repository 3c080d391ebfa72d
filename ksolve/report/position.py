"""What a report shows of a problem's position: White's board (``visible_board``),
the hidden units' marks (``hidden_marks``) and, in Fog of War, the squares White
does not see (``initial_fog``).  Read by the HTML, text and notebook renderers.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from ksolve.report.tree_html import PALETTE, squares_phrase


@dataclass(frozen=True)
class UnitMark:
    """A hidden unit as the diagram marks it."""

    label: str
    """E.g. ``black bishop: 30 dark squares``."""
    mask: int
    """The squares it may stand on."""
    color: str
    names: tuple[str, ...]
    """Its possible piece names (``bishop``; ``queen``, ``rook``...)."""


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def hidden_marks(problem) -> list[UnitMark]:
    """The hidden units of a problem with the squares they may really stand
    on (the unit's squares, not occupied, where the initial belief has them)."""
    try:
        belief = problem.belief()
        found = list(belief.hidden_squares())
    except Exception:  # a report still renders without the belief's squares
        belief, found = None, []
    marks = []
    if problem.fen:
        occupied = chess.BaseBoard(problem.fen.split()[0]).occupied
        for index, unit in enumerate(problem.hidden):
            mask = unit.squares & ~occupied
            seen = 0
            for piece, squares in found:
                if piece.color == unit.color and piece.piece_type in unit.pieces:
                    seen |= squares
            mask = mask & seen or mask
            names = tuple(chess.piece_name(p) for p in unit.pieces)
            who = f"{'perhaps a ' if unit.optional else ''}{'white' if unit.color else 'black'} {_or(list(names))}"
            marks.append(UnitMark(f"{who}: {squares_phrase(mask)}", mask,
                                  PALETTE[index % len(PALETTE)], names))
    else:  # an explicit list of positions: one mark per black man type that varies
        known = visible_board(problem).occupied if belief is not None else 0
        for index, (piece, squares) in enumerate(found):
            squares = squares & ~known or squares
            name = chess.piece_name(piece.piece_type)
            marks.append(UnitMark(f"black {name}: {squares_phrase(squares)}", squares,
                                  PALETTE[index % len(PALETTE)], (name,)))
    return marks


def initial_fog(problem) -> int:
    """The squares White does not see before his first move (Fog of War: the
    complement of what his men see in every initial position); 0 under a referee
    that shows no squares.

    >>> from ksolve.problem import load_problem_text
    >>> fog = initial_fog(load_problem_text('stipulation = "xk1"\\nrules = "fog-of-war"\\n[position]\\n'
    ...                                     'fen = "k7/8/8/8/8/8/8/RK6 w - - 0 1"\\n'))
    >>> chess.BB_A8 & fog, bin(fog).count("1")
    (0, 52)
    """
    rules = problem.rules
    try:
        keys = rules.turn_info(problem.belief().positions)
    except Exception:  # a report still renders without the belief
        return 0
    seen = chess.BB_ALL
    for key in keys:
        view = rules.view_squares(key)
        if view is None:
            return 0
        seen &= view
    return ~seen & chess.BB_ALL


def visible_board(problem) -> chess.BaseBoard:
    """What White sees: the position without its hidden units (for explicit positions, White's men
    and the black men standing in every one)."""
    if problem.fen:
        return chess.BaseBoard(problem.fen.split()[0])
    from ksolve.solution import belief_summary
    return chess.BaseBoard(belief_summary(problem.belief()).get("known", "8/8/8/8/8/8/8/8"))
