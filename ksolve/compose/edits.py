"""Small changes of a problem, each a new problem text (the author's file
edited with tomlkit, so his comments, notes and fields stay as they were):
add a pawn or a piece, remove a man, move one man, narrow a hidden unit's
squares, change the stipulation by one.

An ``Edit`` has a ``cost`` (1 for the smallest changes, 2 for adding a
piece) and the number of men after it: ``sort_key`` orders the fixes
"smallest first", then the more economical.

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> edits = list(edits_of(problem))
>>> [edit.describe() for edit in edits if edit.kind == "stipulation"]
['stipulation #1', 'stipulation #3']
>>> moved = next(edit for edit in edits if edit.describe() == "move Rh1-h2")
>>> load_problem_text(moved.text).fen
'k7/8/1K6/8/8/8/7R/8 w - - 0 1'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import chess
import tomlkit

from ksolve.problem import MAX_MOVES, Problem

ADD, REMOVE, MOVE, NARROW, STIPULATION, PAIR = "add", "remove", "move", "narrow", "stipulation", "pair"
COSTS = {ADD: 1, REMOVE: 1, MOVE: 1, NARROW: 1, STIPULATION: 1}
"""The size of each kind of change; adding a piece (not a pawn) costs one more."""
ADDED_PIECES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


@dataclass(frozen=True)
class Edit:
    """One small change and the problem text it gives."""

    kind: str
    detail: str
    """What changed, in words (``+wPc3``, ``Rh1-h2``, ``b:dark without a1``, ``#3``)."""
    cost: int
    men: int
    """Men on the board after the change (hidden units counted once each)."""
    text: str

    def describe(self) -> str:
        return self.detail if self.kind == PAIR else f"{self.kind} {self.detail}"

    @property
    def sort_key(self) -> tuple[int, int, str, str]:
        return self.cost, self.men, self.kind, self.detail


def edits_of(problem: Problem, kinds: tuple[str, ...] = (STIPULATION, NARROW, REMOVE, ADD, MOVE),
             keep: str | None = None) -> Iterator[Edit]:
    """Every small change of ``problem`` of the given ``kinds``.  ``keep``: a key (UCI)
    whose moving man and destination every change leaves alone.  A problem given as a
    list of positions has only its stipulation changed (its men are not one board)."""
    document = tomlkit.parse(problem.text)
    men = men_of(problem)
    if STIPULATION in kinds:
        for moves in (problem.moves - 1, problem.moves + 1):
            if 1 <= moves <= MAX_MOVES:
                symbol = "#" if problem.goal == "mate" else "xk"
                yield Edit(STIPULATION, f"{symbol}{moves}", COSTS[STIPULATION], men,
                           _with(document, stipulation=f"{symbol}{moves}"))
    if problem.fen is None:
        return
    board = chess.Board(problem.fen)
    hidden_squares = 0
    for unit in problem.hidden:
        hidden_squares |= unit.squares
    fixed = set()
    if keep:
        move = chess.Move.from_uci(keep)
        fixed = {move.from_square, move.to_square}
    if NARROW in kinds:
        yield from _narrowings(problem, document, men, board.occupied)
    if REMOVE in kinds:
        for square, piece in board.piece_map().items():
            if piece.piece_type != chess.KING and square not in fixed:
                changed = board.copy()
                changed.remove_piece_at(square)
                yield Edit(REMOVE, f"{piece.symbol()}{chess.square_name(square)}", COSTS[REMOVE], men - 1,
                           _with(document, fen=changed.fen()))
    empty = [square for square in chess.SQUARES if board.piece_at(square) is None and square not in fixed]
    if ADD in kinds:
        for color in chess.COLORS:
            for piece_type in ADDED_PIECES:
                for square in empty:
                    if piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                        continue
                    changed = board.copy()
                    piece = chess.Piece(piece_type, color)
                    changed.set_piece_at(square, piece)
                    yield Edit(ADD, f"{piece.symbol()}{chess.square_name(square)}",
                               COSTS[ADD] + (piece_type != chess.PAWN), men + 1, _with(document, fen=changed.fen()))
    if MOVE in kinds:
        for origin, piece in board.piece_map().items():
            if origin in fixed:
                continue
            for square in empty:
                if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                    continue
                changed = board.copy()
                changed.remove_piece_at(origin)
                changed.set_piece_at(square, piece)
                changed.castling_rights = chess.BB_EMPTY if piece.piece_type in (chess.KING, chess.ROOK) \
                    else changed.castling_rights
                yield Edit(MOVE, f"{piece.symbol()}{chess.square_name(origin)}-{chess.square_name(square)}",
                           COSTS[MOVE], men, _with(document, fen=changed.fen()))


def _narrowings(problem: Problem, document: tomlkit.TOMLDocument, men: int, occupied: int) -> Iterator[Edit]:
    """Each hidden unit without one of its (empty) squares."""
    for number, unit in enumerate(problem.hidden):
        squares = list(chess.scan_forward(unit.squares & ~occupied))
        if len(squares) < 2:
            continue
        letters = "|".join(chess.piece_symbol(p).upper() if unit.color else chess.piece_symbol(p)
                           for p in unit.pieces)
        for dropped in squares:
            kept = ",".join(chess.square_name(s) for s in squares if s != dropped)
            hidden = _hidden_specs(problem)
            hidden[number] = f"{letters}{'?' if unit.optional else ''}:{kept}"
            yield Edit(NARROW, f"{unit.spec or letters} without {chess.square_name(dropped)}", COSTS[NARROW], men,
                       _with(document, hidden=hidden))


def _hidden_specs(problem: Problem) -> list[str]:
    specs = []
    for unit in problem.hidden:
        letters = "|".join(chess.piece_symbol(p).upper() if unit.color else chess.piece_symbol(p) for p in unit.pieces)
        squares = ",".join(chess.square_name(s) for s in chess.scan_forward(unit.squares))
        specs.append(f"{letters}{'?' if unit.optional else ''}:{squares}")
    return specs


def men_of(problem: Problem) -> int:
    """The men of a problem: on its board and hidden (each hidden unit once)."""
    if problem.fen is None:
        return chess.popcount(chess.Board(problem.positions[0]).occupied)
    return chess.popcount(chess.Board(problem.fen).occupied) + len(problem.hidden)


def _with(document: tomlkit.TOMLDocument, stipulation: str | None = None, fen: str | None = None,
          hidden: list[str] | None = None) -> str:
    """The document's text with one field changed (the document itself unchanged)."""
    changed = document.copy()
    if stipulation is not None:
        changed["stipulation"] = stipulation
    if fen is not None or hidden is not None:
        position = dict(changed["position"])
        if fen is not None:
            position["fen"] = fen
        if hidden is not None:
            position["hidden"] = hidden
        changed["position"] = position
    return tomlkit.dumps(changed)


def combined(problem: Problem, first: Edit, second: Edit) -> Edit | None:
    """Both board changes at once (None when they touch the same square, or either is
    not a change of the board's men).

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> edits = {edit.describe(): edit for edit in edits_of(problem, (ADD, MOVE))}
    >>> both = combined(problem, edits["add Pa2"], edits["move Rh1-h2"])
    >>> both.describe(), both.cost, both.men, load_problem_text(both.text).fen
    ('add Pa2 + move Rh1-h2', 2, 4, 'k7/8/1K6/8/8/8/P6R/8 w - - 0 1')
    >>> combined(problem, edits["add Pa2"], edits["move Rh1-a2"]) is None
    True
    """
    if problem.fen is None or {first.kind, second.kind} - {ADD, REMOVE, MOVE}:
        return None
    board = chess.Board(problem.fen)
    changes = [_changes(board, edit) for edit in (first, second)]
    if set(changes[0]) & set(changes[1]):
        return None
    result = board.copy()
    for square, piece in {**changes[0], **changes[1]}.items():
        result.set_piece_at(square, piece) if piece else result.remove_piece_at(square)
    if any(piece and piece.piece_type in (chess.KING, chess.ROOK) for change in changes for piece in change.values()):
        result.castling_rights = chess.BB_EMPTY
    return Edit(PAIR, f"{first.describe()} + {second.describe()}", first.cost + second.cost,
                first.men + second.men - men_of(problem), _with(tomlkit.parse(problem.text), fen=result.fen()))


def _changes(board: chess.Board, edit: Edit) -> dict[int, chess.Piece | None]:
    """The squares an edit of ``board`` changes, and what stands there after it."""
    after = chess.Board(tomlkit.parse(edit.text)["position"]["fen"])
    return {square: after.piece_at(square) for square in chess.SQUARES if after.piece_at(square) != board.piece_at(square)}
