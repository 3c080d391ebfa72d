"""Problem files: a Kriegspiel (or Fog-of-War, or orthodox) problem in TOML,
read and validated with errors that name the file, the field and the reason.

The format is documented in ``docs/guide/problem-format.md``; in short::

    title = "Rotenberg, The Problemist 1976"
    author = "J. Rotenberg"
    source = "The Problemist"
    year = 1976
    stipulation = "#8"          # mate in 8; "xk3": capture the king in 3 (Fog of War)
    rules = "berkeley"
    # probes = 3                # rules = "modern" only: squares per probe, 1 to 7 (default 7)
    # positions = "all"         # keep placements no game reaches (default "reachable")

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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import chess

from ksolve.errors import InputError, NotText, read_text
from ksolve.hidden import HiddenUnit, HiddenUnitError, parse_hidden_unit, parse_squares
from ksolve.legality import position_error
from ksolve.retro import unreachable_reason
from ksolve.rules import RULE_SET_NAMES, UnknownRules, get_rules, kriegspiel_rule_set_names
from ksolve.rules.condition import Condition
from ksolve.rules.variants import DEFAULT_RULES, VARIANTS, VariantPreset, variant_preset

if TYPE_CHECKING:
    from ksolve.belief import BeliefState
    from ksolve.retro import LeftOut
    from ksolve.resources import Resources
    from ksolve.rules.base import RuleSet

MAX_MOVES = 60
YEARS = range(1000, 3000)
"""The years a problem's ``year`` may name."""
_STIPULATION = re.compile(r"^\s*(#|xk)\s*(\d+)\s*$", re.IGNORECASE)
_TOP_FIELDS = {"id", "title", "author", "source", "year", "award", "stipulation", "rules", "position",
               "published", "notes", "condition", "twin", "variant", "probes", "positions"}
POSITION_SETS = ("reachable", "all")
"""``positions = ...``: the positions some game reaches (the problemist's convention), or every legal one."""
_UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
_CONDITION_FIELDS = {"moves", "move", "at", "note"}
_TWIN_FIELDS = {"name", "fen", "hidden", "positions", "stipulation", "key", "note"}


class ProblemError(InputError):
    """A problem file that cannot be used: ``file: field: reason``."""

    def __init__(self, source: str, field_name: str, reason: str, setting: str | None = None) -> None:
        super().__init__(f"{source}: {field_name}: {reason}", setting)
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
    conditions: list[Condition] = field(default_factory=list)
    """Moves Black will not play (``[[condition]]``), always or at one of his replies."""
    fullmove: int = 1
    """The move number of the first position (what a condition's ``at`` counts from)."""
    twin: str = ""
    """This problem's twin name (``[[twin]]``), "" for the problem as printed."""
    twin_note: str = ""
    """What the twin changes, in words."""
    variant: "VariantPreset | None" = None
    """The variant preset (``variant = ...``) that placed Black's men, if any."""
    twins: list["Problem"] = field(default_factory=list, repr=False)
    """The problem's twins, each a whole problem verified on its own."""
    text: str = field(default="", repr=False)
    """The TOML text the problem was read from (what the independent checker reads)."""
    resources: "Resources | None" = field(default=None, repr=False, compare=False)
    """The memory budget of the belief's enumeration and who hears of its progress (``ksolve.resources``)."""
    reachable: bool = True
    """Whether the positions no game reaches are left out (``positions = "reachable"``, the default)."""
    _belief: "BeliefState | None" = field(default=None, init=False, repr=False, compare=False)

    def belief(self) -> "BeliefState":
        """The initial belief state (every legal placement of the hidden units),
        enumerated once."""
        if self._belief is None:
            self._belief = self._enumerate_belief()
        return self._belief

    @property
    def left_out(self) -> "LeftOut":
        """The placements of the hidden units left out of the belief because no game reaches them."""
        return self.belief().left_out

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
                belief = BeliefState.from_hidden(self.fen, self.hidden, self.rules.fog, self.resources,
                                                 self.reachable)
            except (ValueError, HiddenUnitError) as error:
                raise ProblemError(self.source, "position.hidden" if self.hidden else "position.fen",
                                   str(error), getattr(error, "setting", None)) from None
        return belief

    def __getstate__(self) -> dict:
        """What a copy in another process (a worker) gets: everything but the
        progress callback of ``resources``, which belongs to the front end."""
        state = dict(self.__dict__)
        if self.resources is not None and self.resources.progress is not None:
            state["resources"] = replace(self.resources, progress=None)
        return state

    def with_twins(self) -> list["Problem"]:
        """The problem as printed, then each of its twins (each verified on its own)."""
        return [self, *self.twins]

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
    if text.startswith("\ufeff"):
        raise ProblemError(source, "toml", "line 1, column 1: the text begins with a byte-order mark (U+FEFF): save "
                                           "it as UTF-8 without one")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProblemError(source, "toml", str(error)) from None
    except RecursionError:
        raise ProblemError(source, "toml", "arrays or tables nested too deeply (a problem file nests a few "
                                           "levels: [position], [[twin]], hidden = [...])") from None
    twins = data.get("twin", [])
    if not isinstance(twins, list) or not all(isinstance(t, dict) for t in twins):
        raise ProblemError(source, "twin", "must be [[twin]] tables")
    problem = _from_data(data, text, source, default_id, resources)
    names: dict[str, int] = {}
    for number, twin in enumerate(twins, 1):
        name, changed = twin_data(data, twin, source, number)
        if name in names:
            raise ProblemError(source, f"twin[{number}].name", f"{name!r} names twin[{names[name]}] too: each twin "
                                                               "needs a name of its own")
        names[name] = number
        if changed.get("position") == data.get("position") and changed.get("stipulation") == data.get("stipulation"):
            raise ProblemError(source, f"twin[{number}]", "changes nothing: a twin gives another fen, hidden, "
                                                          "positions or stipulation")
        try:
            member = _from_data(changed, text, source, f"{problem.id}-{name}", resources, twin=name)
        except ProblemError as error:
            raise ProblemError(source, f"twin[{number}] ({name}): {error.field_name}", error.reason,
                               error.setting) from None
        member.id, member.twin_note = f"{problem.id}-{name}", _text(twin, "note", source, within=f"twin[{number}].")
        problem.twins.append(member)
    return problem


def twin_data(data: dict, twin: dict, source: str, number: int) -> tuple[str, dict]:
    """A twin's name and the problem data with its changes: ``fen``, ``hidden``
    or ``positions`` replace the position's, ``stipulation`` the stipulation,
    ``key`` the published key (a twin without one has none: the printed
    problem's key and solution are not the twin's).

    >>> name, changed = twin_data({"stipulation": "#2", "position": {"fen": "x", "hidden": ["b:dark"]}},
    ...                           {"name": "b", "stipulation": "#3", "hidden": []}, "f", 1)
    >>> name, changed["stipulation"], changed["position"]
    ('b', '#3', {'fen': 'x', 'hidden': []})
    """
    unknown = sorted(set(twin) - _TWIN_FIELDS)
    if unknown:
        raise ProblemError(source, f"twin[{number}].{unknown[0]}",
                           f"unknown field (known: {', '.join(sorted(_TWIN_FIELDS))})")
    name = twin.get("name", chr(ord("a") + number))
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.]{1,20}", name):
        raise ProblemError(source, f"twin[{number}].name", f"must be a short name such as 'b', got {_shown(name)}")
    changed = {key: value for key, value in data.items() if key != "twin"}
    position = dict(changed.get("position") or {})
    if "positions" in twin:
        position = {"positions": twin["positions"]}
    if "fen" in twin:
        position.pop("positions", None)
        position["fen"] = twin["fen"]
    if "hidden" in twin:
        position["hidden"] = twin["hidden"]
    changed["position"] = position
    if "stipulation" in twin:
        changed["stipulation"] = twin["stipulation"]
    # The printed problem's key and solution are not the twin's: only its own ``key`` is published.
    published = {k: v for k, v in (changed.get("published") or {}).items() if k not in ("key", "solution")}
    if "key" in twin:
        published["key"] = twin["key"]
    changed["published"] = published
    return name, changed


def _from_data(data: dict, text: str, source: str, default_id: str, resources: "Resources | None",
               twin: str = "") -> Problem:
    """The problem (or one twin) of the parsed TOML ``data``."""
    variant = _read_variant(data, source)
    if variant is not None:
        data = _with_variant(data, variant, source)
    unknown = sorted(set(data) - _TOP_FIELDS)
    if unknown:
        raise ProblemError(source, unknown[0], f"unknown field (known: {', '.join(sorted(_TOP_FIELDS))})")
    stipulation = _text(data, "stipulation", source, required=True)
    match = _STIPULATION.match(stipulation)
    if not match:
        raise ProblemError(source, "stipulation", f"{stipulation!r} is not '#N' (mate in N) or 'xkN' "
                                                  "(capture the king in N)")
    goal = "mate" if match.group(1) == "#" else "king-capture"
    digits = match.group(2)
    if len(digits) > len(str(MAX_MOVES)) or not 1 <= int(digits) <= MAX_MOVES:
        raise ProblemError(source, "stipulation", f"the number of moves must be 1 to {MAX_MOVES}")
    moves = int(digits)
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
                                           f"got {_shown(year)}")
    problem.year = year
    problem.twin, problem.variant = twin, variant
    _read_conditions(data.get("condition", []), problem, source)
    _read_probes(data, problem, source)
    _read_position_set(data, problem, source)
    _read_position(data.get("position"), problem, source)
    _read_published(data.get("published"), problem, source)
    _check_condition_moves(problem, source)
    problem.belief()  # an empty, contradictory or oversized belief is a bad problem file
    return problem


def _read_position_set(data: dict, problem: Problem, source: str) -> None:
    """``positions = "reachable"`` (the default) or ``"all"``."""
    value = data.get("positions", "reachable")
    if value not in POSITION_SETS:
        raise ProblemError(source, "positions", f"must be one of {', '.join(map(repr, POSITION_SETS))} (the positions "
                                                f"some game reaches, or every legal one), got {_shown(value)}")
    problem.reachable = value == "reachable"


def _read_variant(data: dict, source: str) -> "VariantPreset | None":
    """``variant = "semikriegspiel"``, or a table ``{name = "pickle-pot", bishop = "c8"}``."""
    value = data.get("variant")
    if value is None:
        return None
    if isinstance(value, str):
        name, bishop = value, None
    elif isinstance(value, dict) and isinstance(value.get("name"), str):
        unknown = sorted(set(value) - {"name", "bishop"})
        if unknown:
            raise ProblemError(source, f"variant.{unknown[0]}", "unknown field (known: bishop, name)")
        name, bishop = value["name"], value.get("bishop")
    else:
        raise ProblemError(source, "variant", f"must be a name ({', '.join(VARIANTS)}) or a table "
                                              "{name, bishop}")
    try:
        return variant_preset(name, bishop)
    except ValueError as error:
        raise ProblemError(source, "variant", str(error)) from None


def _with_variant(data: dict, variant: "VariantPreset", source: str) -> dict:
    """The data with the preset's black men as hidden units and its rule set."""
    position = data.get("position")
    if not isinstance(position, dict) or not isinstance(position.get("fen"), str):
        raise ProblemError(source, "position.fen", f"missing: the {variant.name} preset needs White's men as a FEN")
    if "hidden" in position or "positions" in position:
        raise ProblemError(source, "position.hidden", f"the {variant.name} preset places Black's men itself; "
                                                      "give White's men only")
    try:
        board = chess.Board(position["fen"])
    except ValueError:
        board = None  # the FEN's own error is reported when the position is read
    if board is not None and board.occupied_co[chess.BLACK]:
        raise ProblemError(source, "position.fen", f"the {variant.name} preset places Black's men itself; the FEN "
                                                   f"holds black men on {', '.join(chess.square_name(s) for s in chess.scan_forward(board.occupied_co[chess.BLACK]))}")
    if board is not None:
        taken = [unit for unit in variant.units if unit.split(":")[1] != "any"
                 and board.piece_at(chess.parse_square(unit.split(":")[1])) is not None]
        if taken:
            raise ProblemError(source, "position.fen", f"a white man stands where the {variant.name} preset puts "
                                                       f"Black's {taken[0]}")
    rules = data.get("rules", DEFAULT_RULES)
    if isinstance(rules, str) and rules in RULE_SET_NAMES and rules not in kriegspiel_rule_set_names():
        raise ProblemError(source, "rules", f"{variant.name} is Kriegspiel for the blind side: use a Kriegspiel "
                                            f"rule set ({', '.join(kriegspiel_rule_set_names())}), not {rules}")
    return {**data, "rules": rules, "position": {**position, "hidden": list(variant.units)}}


def _read_conditions(tables: Any, problem: Problem, source: str) -> None:
    """``[[condition]]``: ``moves`` (or ``move``) Black will not play, ``at`` his reply to
    White's move number (absent: always), ``note``."""
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ProblemError(source, "condition", "must be [[condition]] tables")
    for number, table in enumerate(tables, 1):
        where = f"condition[{number}]"
        unknown = sorted(set(table) - _CONDITION_FIELDS)
        if unknown:
            raise ProblemError(source, f"{where}.{unknown[0]}",
                               f"unknown field (known: {', '.join(sorted(_CONDITION_FIELDS))})")
        if "move" in table and "moves" in table:
            raise ProblemError(source, f"{where}.move", "give move (one) or moves (a list), not both")
        moves = table.get("moves", [table["move"]] if "move" in table else None)
        if not isinstance(moves, list) or not moves:
            raise ProblemError(source, f"{where}.moves", "missing: the move (or list of moves) Black will not play")
        for move in moves:
            if not isinstance(move, str) or not _UCI.fullmatch(move):
                raise ProblemError(source, f"{where}.moves", f"{move!r} is not a UCI move such as 'c8b7'")
        at = table.get("at")
        if at is not None and (not isinstance(at, int) or isinstance(at, bool) or not 1 <= at <= problem.moves):
            raise ProblemError(source, f"{where}.at", f"must be Black's move number, 1 to {problem.moves}, "
                                                      f"got {_shown(at)}")
        problem.conditions.append(Condition(frozenset(moves), at, _text(table, "note", source, within=f"{where}.")))


def _read_probes(data: dict, problem: Problem, source: str) -> None:
    """``probes = k``: the squares White names in a probe (Modern Kriegspiel, 1 to 7)."""
    value = data.get("probes")
    if value is None:
        if problem.rules.probes and problem.conditions:
            raise ProblemError(source, "condition", "[[condition]] together with probes (rules = 'modern') is not "
                                                    "supported")
        return
    if not problem.rules.probes:
        raise ProblemError(source, "probes", f"only the modern rule set has probes, not {problem.rules.name}")
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProblemError(source, "probes",
                           f"must be the number of squares per probe, 1 to 7, got {_shown(value)}")
    try:
        problem.rules = problem.rules.with_probes(value)
    except ValueError as error:
        raise ProblemError(source, "probes", str(error)) from None
    if problem.conditions:
        raise ProblemError(source, "condition", "[[condition]] together with probes (rules = 'modern') is not "
                                                "supported")


def _text(data: dict, name: str, source: str, required: bool = False, within: str = "") -> str:
    """The string field ``name`` of ``data`` ("" if absent); ``within``: the table's prefix in errors."""
    value = data.get(name)
    if value is None:
        if required:
            raise ProblemError(source, within + name, "missing")
        return ""
    if not isinstance(value, str):
        raise ProblemError(source, within + name, f"must be a string, got {_shown(value)}")
    return value


def _shown(value: Any, limit: int = 40) -> str:
    """A field's value as an error shows it: its repr cut short, a list or table by its kind and size.

    >>> _shown(7), _shown([[1]] * 500), _shown("x" * 100)[-4:]
    ('7', 'a list of 500 items', 'xxx…')
    """
    if isinstance(value, (list, dict)):
        return f"a {'list' if isinstance(value, list) else 'table'} of {len(value):,} item{'s' if len(value) != 1 else ''}"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


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
            board = _check_fen(fen, problem, source, f"position.positions[{number}]")
            reason = unreachable_reason(board) if problem.reachable else None
            if reason:
                raise ProblemError(source, f"position.positions[{number}]", f"no game reaches it: {reason} "
                                   "(positions = \"all\" keeps such positions)")
        problem.positions = fens
        problem.fullmove = chess.Board(fens[0]).fullmove_number
        numbers = sorted({chess.Board(fen).fullmove_number for fen in fens})
        if len(numbers) > 1 and any(condition.at is not None for condition in problem.conditions):
            raise ProblemError(source, "position.positions", f"move numbers {numbers[0]} to {numbers[-1]}: a "
                               "[[condition]] at a move number needs the listed positions at one move number")
        return  # every listed position must be legal: the belief, enumerated last, says
    fen = section.get("fen")
    if fen is None:
        raise ProblemError(source, "position.fen", "missing (a FEN of the visible men)")
    if not isinstance(fen, str):
        raise ProblemError(source, "position.fen",
                           f"must be a string (a FEN of the visible men), got {_shown(fen)}")
    board = _check_fen(fen, problem, source, "position.fen")
    problem.fen = fen
    problem.fullmove = board.fullmove_number
    hidden = section.get("hidden", [])
    if not isinstance(hidden, list):
        raise ProblemError(source, "position.hidden", "must be a list of units")
    for number, unit in enumerate(hidden, 1):
        problem.hidden.append(_read_unit(unit, source, f"position.hidden[{number}]"))
    reason = position_error(board, problem.hidden, fog=problem.rules.fog, reachable=problem.reachable) \
        or _too_many_units(board, problem.hidden)
    if reason:
        raise ProblemError(source, "position.hidden" if reason.startswith("hidden unit") else "position.fen",
                           reason)


def _too_many_units(board: chess.Board, hidden: list[HiddenUnit]) -> str | None:
    """More hidden units of a side than it can have men besides its visible ones (optional units included)."""
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        units = sum(unit.color == color for unit in hidden)
        room = 16 - chess.popcount(board.occupied_co[color])
        if units > room:
            return (f"hidden units: {units:,} {name} ones where at most {room} fit besides the visible men (a side "
                    "has at most 16 men)")
    return None


def _boards(problem: Problem) -> list[chess.Board]:
    """The visible position, or each listed one."""
    return [chess.Board(fen) for fen in (problem.positions or [problem.fen])]


def _check_condition_moves(problem: Problem, source: str) -> None:
    """Each ``[[condition]]`` names a move a black man could play at that reply
    (``moves_check``; of a list, one at least: "every move from d5" may list
    the moves of any man)."""
    from ksolve.moves_check import condition_move_error

    boards = _boards(problem)
    for number, condition in enumerate(problem.conditions, 1):
        reasons = [condition_move_error(boards, problem.hidden, move, condition.at, problem.moves)
                   for move in sorted(condition.moves)]
        if all(reasons):
            raise ProblemError(source, f"condition[{number}].moves", reasons[0] if len(reasons) == 1 else
                               f"none of its {len(reasons)} moves can be played: {reasons[0]}")


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
            raise ProblemError(source, "published.key", f"{_shown(key)} is not a UCI move such as 'a2g2'")
        from ksolve.moves_check import key_error

        reason = key_error(_boards(problem), problem.hidden, key)
        if reason:
            raise ProblemError(source, "published.key", reason)
        problem.published_key = key
    problem.published_solution = _text(section, "solution", source, within="published.")
    problem.notes = problem.notes or _text(section, "notes", source, within="published.")


__all__ = ["Problem", "ProblemError", "load_problem", "load_problem_text", "RULE_SET_NAMES"]
