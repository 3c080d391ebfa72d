"""Problem files: a Kriegspiel (or Fog-of-War, or orthodox) problem in TOML,
read and validated with errors that name the file, the field and the reason.

The format is documented in ``problems/README.md``; in short::

    title = "Rotenberg, The Problemist 1976"
    author = "J. Rotenberg"
    source = "The Problemist"
    year = 1976
    stipulation = "#8"          # mate in 8; "xk3": capture the king in 3 (Fog of War)
    rules = "berkeley"

    [position]
    fen = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
    hidden = ["b:dark"]         # or tables: {piece = "p", squares = "a-file", optional = true}
    # positions = ["FEN", ...]  # instead of fen + hidden: the belief, explicitly

    [published]
    key = "a2g2"
    solution = "1.Rg2 ..."

>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> problem.moves, problem.rules.name, len(problem.belief())
(1, 'berkeley', 1)
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import chess

from ksolve.errors import InputError, NotText, read_text
from ksolve.hidden import HiddenUnit, HiddenUnitError, parse_hidden_unit, parse_squares
from ksolve.legality import position_error
from ksolve.rules import RULE_SET_NAMES, UnknownRules, get_rules

if TYPE_CHECKING:
    from ksolve.belief import BeliefState
    from ksolve.resources import Resources
    from ksolve.rules.base import RuleSet

MAX_MOVES = 60
YEARS = range(1000, 3000)
"""The years a problem's ``year`` may name."""
_STIPULATION = re.compile(r"^\s*(#|xk)\s*(\d+)\s*$", re.IGNORECASE)
_TOP_FIELDS = {"id", "title", "author", "source", "year", "award", "stipulation", "rules", "position",
               "published", "notes"}


class ProblemError(InputError):
    """A problem file that cannot be used: ``file: field: reason``."""

    def __init__(self, source: str, field_name: str, reason: str) -> None:
        super().__init__(f"{source}: {field_name}: {reason}")
        self.source, self.field_name, self.reason = source, field_name, reason


@dataclass
class Problem:
    """A validated problem."""

    source: str
    id: str
    stipulation: str
    moves: int
    goal: str
    """"mate" or "king-capture"."""
    rules: "RuleSet"
    fen: str | None
    hidden: list[HiddenUnit] = field(default_factory=list)
    positions: list[str] = field(default_factory=list)
    title: str = ""
    author: str = ""
    origin: str = ""
    year: int | None = None
    award: str = ""
    published_key: str | None = None
    published_solution: str = ""
    notes: str = ""
    text: str = field(default="", repr=False)
    """The TOML text the problem was read from (what the independent checker reads)."""
    resources: "Resources | None" = field(default=None, repr=False, compare=False)
    """The memory budget of the belief's enumeration and who hears of its progress (``ksolve.resources``)."""
    _belief: "BeliefState | None" = field(default=None, init=False, repr=False, compare=False)

    def belief(self) -> "BeliefState":
        """The initial belief state (every legal placement of the hidden units),
        enumerated once."""
        if self._belief is None:
            self._belief = self._enumerate_belief()
        return self._belief

    def _repr_svg_(self) -> str:
        """The diagram with the hidden units' possible squares (Jupyter)."""
        from ksolve.report.notebook import problem_svg

        return problem_svg(self)

    def _enumerate_belief(self) -> "BeliefState":
        from ksolve.belief import BeliefState
        from ksolve.board import PositionError, positions_from_fens

        if self.positions:
            try:
                rows = positions_from_fens(self.positions, fog=self.rules.fog)
            except PositionError as error:
                raise ProblemError(self.source, "position.positions", str(error)) from None
            belief = BeliefState.from_positions(rows)
        else:
            try:
                belief = BeliefState.from_hidden(self.fen, self.hidden, self.rules.fog, self.resources)
            except (ValueError, HiddenUnitError) as error:
                raise ProblemError(self.source, "position.hidden" if self.hidden else "position.fen",
                                   str(error)) from None
        return belief

    @property
    def name(self) -> str:
        """A one-line name: title, or author and year, or the id."""
        if self.title:
            return self.title
        if self.author:
            return f"{self.author}{f' {self.year}' if self.year else ''}"
        return self.id


def load_problem(path: str | Path, resources: "Resources | None" = None) -> Problem:
    """Read and validate a problem file (its belief enumerated within ``resources``)."""
    path = Path(path)
    try:
        text = read_text(path)
    except OSError as error:
        raise ProblemError(str(path), "file", error.strerror or str(error)) from None
    except NotText as error:
        raise ProblemError(str(path), "file", str(error)) from None
    return load_problem_text(text, str(path), path.stem, resources)


def load_problem_text(text: str, source: str = "<problem>", default_id: str = "problem",
                      resources: "Resources | None" = None) -> Problem:
    """Read and validate a problem from TOML text (its belief enumerated within ``resources``:
    a memory budget, by default half of the machine's memory, and a progress callback)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProblemError(source, "toml", str(error)) from None
    unknown = sorted(set(data) - _TOP_FIELDS)
    if unknown:
        raise ProblemError(source, unknown[0], f"unknown field (known: {', '.join(sorted(_TOP_FIELDS))})")
    stipulation = _text(data, "stipulation", source, required=True)
    match = _STIPULATION.match(stipulation)
    if not match:
        raise ProblemError(source, "stipulation", f"{stipulation!r} is not '#N' (mate in N) or 'xkN' "
                                                  "(capture the king in N)")
    goal = "mate" if match.group(1) == "#" else "king-capture"
    moves = int(match.group(2))
    if not 1 <= moves <= MAX_MOVES:
        raise ProblemError(source, "stipulation", f"the number of moves must be 1 to {MAX_MOVES}")
    rules_name = _text(data, "rules", source, required=True)
    try:
        rules = get_rules(rules_name)
    except UnknownRules as error:
        raise ProblemError(source, "rules", str(error)) from None
    if goal != rules.goal:
        raise ProblemError(source, "stipulation", "capture the king ('xkN') goes with rules = 'fog-of-war', "
                                                  "mate ('#N') with the other rule sets")
    problem = Problem(source=source, id=_text(data, "id", source) or default_id, stipulation=stipulation.strip(),
                      moves=moves, goal=goal, rules=rules, fen=None,
                      title=_text(data, "title", source), author=_text(data, "author", source),
                      origin=_text(data, "source", source), award=_text(data, "award", source),
                      notes=_text(data, "notes", source), text=text, resources=resources)
    year = data.get("year")
    if year is not None and (not isinstance(year, int) or isinstance(year, bool) or year not in YEARS):
        raise ProblemError(source, "year", f"must be a year such as 1976 ({YEARS.start} to {YEARS.stop - 1}), "
                                           f"got {year!r}")
    problem.year = year
    _read_position(data.get("position"), problem, source)
    _read_published(data.get("published"), problem, source)
    return problem


def _text(data: dict, name: str, source: str, required: bool = False, within: str = "") -> str:
    """The string field ``name`` of ``data`` ("" if absent); ``within``: the table's prefix in errors."""
    value = data.get(name)
    if value is None:
        if required:
            raise ProblemError(source, within + name, "missing")
        return ""
    if not isinstance(value, str):
        raise ProblemError(source, within + name, f"must be a string, got {value!r}")
    return value


def _read_position(section: Any, problem: Problem, source: str) -> None:
    if not isinstance(section, dict):
        raise ProblemError(source, "position", "missing table [position] with fen (and hidden) or positions")
    unknown = sorted(set(section) - {"fen", "hidden", "positions"})
    if unknown:
        raise ProblemError(source, f"position.{unknown[0]}", "unknown field (known: fen, hidden, positions)")
    if "positions" in section:
        if "fen" in section or "hidden" in section:
            raise ProblemError(source, "position.positions", "give either positions or fen (+ hidden), not both")
        fens = section["positions"]
        if not isinstance(fens, list) or not fens or not all(isinstance(f, str) for f in fens):
            raise ProblemError(source, "position.positions", "must be a non-empty list of FEN strings")
        for number, fen in enumerate(fens, 1):
            _check_fen(fen, problem, source, f"position.positions[{number}]")
        problem.positions = fens
        problem.belief()  # every listed position must be legal
        return
    fen = section.get("fen")
    if fen is None:
        raise ProblemError(source, "position.fen", "missing (a FEN of the visible men)")
    if not isinstance(fen, str):
        raise ProblemError(source, "position.fen", f"must be a string (a FEN of the visible men), got {fen!r}")
    board = _check_fen(fen, problem, source, "position.fen")
    problem.fen = fen
    hidden = section.get("hidden", [])
    if not isinstance(hidden, list):
        raise ProblemError(source, "position.hidden", "must be a list of units")
    for number, unit in enumerate(hidden, 1):
        problem.hidden.append(_read_unit(unit, source, f"position.hidden[{number}]"))
    reason = position_error(board, problem.hidden, fog=problem.rules.fog)
    if reason:
        raise ProblemError(source, "position.hidden" if reason.startswith("hidden unit") else "position.fen",
                           reason)
    problem.belief()  # an empty, contradictory or oversized belief is a bad problem file


def _check_fen(fen: str, problem: Problem, source: str, field_name: str) -> chess.Board:
    """The board of a FEN with White to move, or the error naming the field."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise ProblemError(source, field_name, f"invalid FEN {fen!r}: {error}") from None
    if board.turn != chess.WHITE:
        raise ProblemError(source, field_name, "White must be to move (the stipulation is White's)")
    return board


def _read_unit(unit: Any, source: str, field_name: str) -> HiddenUnit:
    try:
        if isinstance(unit, str):
            return parse_hidden_unit(unit)
        if isinstance(unit, dict):
            unknown = sorted(set(unit) - {"piece", "squares", "optional", "note"})
            if unknown:
                raise HiddenUnitError(f"unknown field {unknown[0]!r} (known: piece, squares, optional, note)")
            piece, squares = unit.get("piece"), unit.get("squares")
            if not isinstance(piece, str):
                raise HiddenUnitError("piece must be a string such as 'b' or 'q|r|b|n'")
            if isinstance(squares, list):
                squares = ",".join(str(s) for s in squares)
            if not isinstance(squares, str):
                raise HiddenUnitError("squares must be a string (dark, light, any, a-file, rank-3, e4) or a list")
            parse_squares(squares)
            optional = unit.get("optional", False)
            if not isinstance(optional, bool):
                raise HiddenUnitError("optional must be true or false")
            return parse_hidden_unit(f"{piece}{'?' if optional else ''}:{squares}")
    except HiddenUnitError as error:
        raise ProblemError(source, field_name, str(error)) from None
    raise ProblemError(source, field_name, "must be a string like 'b:dark' or a table {piece, squares}")


def _read_published(section: Any, problem: Problem, source: str) -> None:
    if section is None:
        return
    if not isinstance(section, dict):
        raise ProblemError(source, "published", "must be a table")
    unknown = sorted(set(section) - {"key", "solution", "notes"})
    if unknown:
        raise ProblemError(source, f"published.{unknown[0]}", "unknown field (known: key, solution, notes)")
    key = section.get("key")
    if key is not None:
        if not isinstance(key, str) or not re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", key):
            raise ProblemError(source, "published.key", f"{key!r} is not a UCI move such as 'a2g2'")
        problem.published_key = key
    problem.published_solution = _text(section, "solution", source, within="published.")
    problem.notes = problem.notes or _text(section, "notes", source, within="published.")


__all__ = ["Problem", "ProblemError", "load_problem", "load_problem_text", "RULE_SET_NAMES"]
