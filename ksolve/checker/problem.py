"""Problem files read a second time, on python-chess alone: the rule set, the
goal, the number of moves and the initial positions.

This module shares no code with ``ksolve.problem`` / ``ksolve.hidden``; it
re-implements the format of ``docs/guide/problem-format.md`` so that the certificate
checker does not trust the solver's own enumeration.  A hidden unit
``PIECES:SQUARES`` (or a table ``{piece, squares, optional}``) stands on one
of its allowed *empty* squares, hidden units on distinct squares; a placement
is kept when the position is legal the way ksolve's builder decides: one king
a side, at most 8 pawns and 16 men a side, no pawn on rank 1 or 8, and
(except in Fog of War, which has no check rules) the side not to move not in
check and at most two checkers.  Castling rights and the en-passant square
are those of the visible position (cleaned as python-chess does) and are not
revived by a hidden unit.  Unless the file says ``positions = "all"``, a
position no game reaches (``ksolve.checker.reachable``) is left out, and a
listed one refused.

>>> problem = parse_problem('stipulation = "#8"\\nrules = "berkeley"\\n[position]\\n'
...                         'fen = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"\\nhidden = ["b:dark"]\\n')
>>> problem.moves, problem.goal, len(problem.boards)
(8, 'mate', 30)
"""

from __future__ import annotations

import hashlib
import itertools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess

from ksolve.checker.reachable import reachable
from ksolve.checker.referee import MAX_PROBES, PROBES, RULE_SETS

MAX_PLACEMENTS = 20_000_000
_STIPULATION = re.compile(r"^\s*(#|xk)\s*(\d+)\s*$", re.IGNORECASE)
_CHECK_STATUS = chess.STATUS_OPPOSITE_CHECK | chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK


class ProblemFileError(ValueError):
    """A problem file the checker cannot read."""


@dataclass
class CheckProblem:
    """What the checker needs of a problem: rules, goal, moves, initial positions."""

    rules: str
    """The rule set checked (the file's unless overridden)."""
    goal: str
    """``mate`` or ``king-capture``."""
    moves: int
    boards: list[chess.Board] = field(default_factory=list)
    """The initial positions, White to move, duplicates removed."""
    file_rules: str = ""
    """The rule set the file names."""
    id: str = ""
    """The file's ``id`` field ("" if it has none)."""
    forbidden: list[tuple[frozenset[str], int | None]] = field(default_factory=list)
    """The ``[[condition]]`` tables: (UCI moves Black will not play, at his reply number or None: always)."""
    twin: str = ""
    """The twin checked ("" for the problem as printed)."""
    probes: int = 0
    """Squares White may name in a probe (``probes``, Modern Kriegspiel; 0: no probes)."""


def read_problem(path: str | Path, rules: str | None = None) -> CheckProblem:
    """Read a problem file; ``rules`` overrides the file's rule set (the
    placement filter depends on whether it is Fog of War)."""
    return parse_problem_file(path, read_problem_text(path), rules)


def read_problem_text(path: str | Path) -> str:
    """The UTF-8 text of a problem file (``ProblemFileError`` naming the file otherwise)."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ProblemFileError(f"{path}: file: {error.strerror or error}") from None
    try:
        return decode_utf8(data)
    except ValueError as error:
        raise ProblemFileError(f"{path}: file: {error}") from None


def parse_problem_file(path: str | Path, text: str, rules: str | None = None, twin: str = "") -> CheckProblem:
    """``parse_problem`` with errors naming the file ``path``, whose stem is the default id."""
    try:
        problem = parse_problem(text, rules, twin)
    except ProblemFileError as error:
        raise ProblemFileError(f"{path}: {error}") from None
    problem.id = problem.id or Path(path).stem
    if twin:
        problem.id = f"{problem.id}-{twin}"
    return problem


def decode_utf8(data: bytes) -> str:
    """``data`` as UTF-8 text, or ``ValueError`` naming the first bad byte (a
    control byte: binary data; or a byte that is not UTF-8).

    >>> decode_utf8("café".encode("latin-1"))
    Traceback (most recent call last):
    ...
    ValueError: line 1, column 4: byte 0xe9 is not UTF-8 (save the file as UTF-8)
    >>> decode_utf8(b"\\xef\\xbb\\xbfid = 'x'")
    Traceback (most recent call last):
    ...
    ValueError: line 1, column 1: the file begins with a byte-order mark (bytes EF BB BF): save it as UTF-8 without one
    """
    if data.startswith(b"\xef\xbb\xbf"):
        raise ValueError("line 1, column 1: the file begins with a byte-order mark (bytes EF BB BF): "
                         "save it as UTF-8 without one")
    control = re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", data)
    if control:
        line, column = _line_column(data, control.start())
        raise ValueError(f"line {line}, column {column}: control byte 0x{data[control.start()]:02x}: binary data, "
                         "not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _line_column(data, error.start)
        raise ValueError(f"line {line}, column {column}: byte 0x{data[error.start]:02x} is not UTF-8 "
                         "(save the file as UTF-8)") from None


def _line_column(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in bytes) of ``offset``."""
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def problem_digest(text: str) -> str:
    """The SHA-256 of a problem file's text, line ends as ``\\n`` (a certificate's
    ``problem_sha256``).

    >>> problem_digest("a\\r\\nb") == problem_digest("a\\nb")
    True
    """
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def with_twin(data: dict[str, Any], name: str) -> dict[str, Any]:
    """The problem's data as its twin ``name`` has it: the twin's ``fen``,
    ``hidden`` or ``positions`` replace the position's, its ``stipulation`` the
    stipulation.  Twins are named by ``name``, by default b, c, ... in order.

    >>> changed = with_twin({"stipulation": "#2", "position": {"fen": "x"},
    ...                      "twin": [{"stipulation": "#3", "hidden": ["b:e4"]}]}, "b")
    >>> changed["stipulation"], changed["position"]
    ('#3', {'fen': 'x', 'hidden': ['b:e4']})
    """
    twins = data.get("twin", [])
    for number, twin in enumerate(twins if isinstance(twins, list) else [], 1):
        if isinstance(twin, dict) and twin.get("name", "abcdefghijklmnopqrstuvwxyz"[number % 26]) == name:
            break
    else:
        raise ProblemFileError(f"twin: the problem has no twin {name!r}")
    position = dict(_position_table(data))
    if "positions" in twin:
        position = {"positions": twin["positions"]}
    if "fen" in twin:
        position.pop("positions", None)
        position["fen"] = twin["fen"]
    if "hidden" in twin:
        position["hidden"] = twin["hidden"]
    changed = {**data, "position": position}
    if "stipulation" in twin:
        changed["stipulation"] = twin["stipulation"]
    return changed


def _position_table(data: dict[str, Any]) -> dict[str, Any]:
    """The ``[position]`` table (``ProblemFileError`` if it is something else)."""
    position = data.get("position", {})
    if not isinstance(position, dict):
        raise ProblemFileError("position: missing table")
    return position


def with_variant(data: dict[str, Any]) -> dict[str, Any]:
    """The problem's data with a variant's black men as hidden units (the checker's
    own reading of the presets: Semikriegspiel, Black's king and queen anywhere;
    Pickle-pot, king e8, queen d8, the named bishop and the pawns of rank 7 at
    home; One-eye, the same with rooks a8 and h8 instead of the queen) and the
    rule set ``berkeley`` unless the file names one.

    >>> with_variant({"variant": "semikriegspiel", "position": {"fen": "x"}})["position"]["hidden"]
    ['k:any', 'q:any']
    """
    variant = data.get("variant")
    if variant is None:
        return data
    if not isinstance(variant, (str, dict)):
        raise ProblemFileError(f"variant: cannot read {variant!r}")
    name, bishop = (variant, None) if isinstance(variant, str) else (variant.get("name"), variant.get("bishop"))
    pawns = [f"p:{chr(file)}7" for file in range(ord("a"), ord("i"))]
    if name == "semikriegspiel":
        units = ["k:any", "q:any"]
    elif name == "pickle-pot" and bishop in ("c8", "f8"):
        units = ["k:e8", "q:d8", f"b:{bishop}"] + pawns
    elif name == "one-eye" and bishop in ("c8", "f8"):
        units = ["k:e8", "r:a8", "r:h8", f"b:{bishop}"] + pawns
    else:
        raise ProblemFileError(f"variant: cannot read {variant!r}")
    position = dict(_position_table(data))
    position["hidden"] = units
    return {**data, "rules": data.get("rules", "berkeley"), "position": position}


def black_conditions(data: dict[str, Any]) -> list[tuple[frozenset[str], int | None]]:
    """The ``[[condition]]`` tables: the UCI moves Black will not play and at which of his replies.

    >>> black_conditions({"condition": [{"move": "c8b7", "at": 2}, {"moves": ["e8g8"]}]})
    [(frozenset({'c8b7'}), 2), (frozenset({'e8g8'}), None)]
    """
    found = []
    tables = data.get("condition", [])
    for number, table in enumerate(tables if isinstance(tables, list) else [None], 1):
        if not isinstance(table, dict):
            raise ProblemFileError(f"condition[{number}]: must be a table")
        moves = table.get("moves", [table.get("move")])
        at = table.get("at")
        if not isinstance(moves, list) or not all(isinstance(m, str) and re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", m)
                                                   for m in moves):
            raise ProblemFileError(f"condition[{number}].moves: must be UCI moves, got {moves!r}")
        if at is not None and (not isinstance(at, int) or isinstance(at, bool) or at < 1):
            raise ProblemFileError(f"condition[{number}].at: must be a move number, got {at!r}")
        found.append((frozenset(moves), at))
    return found


def parse_problem(text: str, rules: str | None = None, twin: str = "") -> CheckProblem:
    """Read a problem from TOML text (see ``read_problem``); ``twin``: one of its twins."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProblemFileError(f"toml: {error}") from None
    if twin:
        data = with_twin(data, twin)
    data = with_variant(data)
    match = _STIPULATION.match(str(data.get("stipulation", "")))
    if not match:
        raise ProblemFileError(f"stipulation: {data.get('stipulation')!r} is not '#N' or 'xkN'")
    file_rules = data.get("rules")
    if not isinstance(file_rules, str) or file_rules not in RULE_SETS:
        raise ProblemFileError(f"rules: {file_rules!r} is not one of {', '.join(RULE_SETS)}")
    rules = rules or file_rules
    goal = "mate" if match.group(1) == "#" else "king-capture"
    problem = CheckProblem(rules, goal, int(match.group(2)), file_rules=file_rules,
                           id=data["id"] if isinstance(data.get("id"), str) else "",
                           forbidden=black_conditions(data), twin=twin)
    problem.probes = probe_count(data, rules)
    section = data.get("position")
    if not isinstance(section, dict):
        raise ProblemFileError("position: missing table")
    fog = rules == "fog-of-war"
    every = data.get("positions", "reachable") == "all"
    if "positions" in section:
        problem.boards = explicit_positions(section["positions"], fog, every)
        return problem
    fen, hidden = section.get("fen", ""), section.get("hidden", [])
    if not isinstance(fen, str):
        raise ProblemFileError(f"position.fen: must be a string, got {fen!r}")
    if not isinstance(hidden, list):
        raise ProblemFileError(f"position.hidden: must be a list of units, got {hidden!r}")
    problem.boards = initial_positions(fen, [_unit_spec(unit) for unit in hidden], fog, every)
    return problem


def probe_count(data: dict[str, Any], rules: str) -> int:
    """The squares a probe may name under ``rules``: the file's ``probes`` (1 to
    7, default 7) under a rule set with probes, else 0.

    >>> probe_count({"probes": 3}, "modern"), probe_count({}, "modern"), probe_count({}, "berkeley")
    (3, 7, 0)
    """
    if rules not in PROBES:
        return 0
    count = data.get("probes", MAX_PROBES)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_PROBES:
        raise ProblemFileError(f"probes: must be 1 to {MAX_PROBES}, got {count!r}")
    return count


def _unit_spec(unit: Any) -> str:
    """A hidden unit as the string ``PIECES[?]:SQUARES``."""
    if isinstance(unit, str):
        return unit
    if isinstance(unit, dict) and isinstance(unit.get("piece"), str):
        squares = unit.get("squares", "")
        if isinstance(squares, list):
            squares = ",".join(str(s) for s in squares)
        return f"{unit['piece']}{'?' if unit.get('optional') else ''}:{squares}"
    raise ProblemFileError(f"position.hidden: cannot read unit {unit!r}")


def parse_squares(text: str) -> int:
    """The bitboard of ``dark``, ``light``, ``any``, ``a-file``, ``rank-3`` or
    ``e2,e5``, several joined with ``+``.

    >>> [chess.square_name(s) for s in chess.scan_forward(parse_squares("h-file+a1,b2"))]
    ['a1', 'h1', 'b2', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8']
    """
    mask = 0
    for part in text.split("+"):
        part = part.strip().lower()
        named = {"dark": chess.BB_DARK_SQUARES, "light": chess.BB_LIGHT_SQUARES, "any": chess.BB_ALL}
        if part in named:
            mask |= named[part]
        elif re.fullmatch(r"[a-h]-file", part):
            mask |= chess.BB_FILES[ord(part[0]) - ord("a")]
        elif re.fullmatch(r"rank-[1-8]", part):
            mask |= chess.BB_RANKS[int(part[5]) - 1]
        else:
            for name in part.split(","):
                if name.strip() not in chess.SQUARE_NAMES:
                    raise ProblemFileError(f"position.hidden: unknown square set {name!r}")
                mask |= chess.BB_SQUARES[chess.parse_square(name.strip())]
    return mask


def unit_options(spec: str, empty: int) -> list[tuple[chess.Piece, int] | None]:
    """The (piece, square) choices of one unit on the ``empty`` squares (None: absent).

    >>> unit_options("q|r:e1", chess.BB_ALL)
    [(Piece.from_symbol('q'), 4), (Piece.from_symbol('r'), 4)]
    """
    if ":" not in spec:
        raise ProblemFileError(f"position.hidden: {spec!r} is not PIECES:SQUARES")
    pieces, squares = spec.split(":", 1)
    optional = pieces.strip().endswith("?")
    letters = [letter.strip() for letter in pieces.strip().rstrip("?").split("|")]
    if not all(len(letter) == 1 and letter.lower() in "pnbrqk" for letter in letters):
        raise ProblemFileError(f"position.hidden: {spec!r}: unknown piece")
    options: list = [(chess.Piece.from_symbol(letter), square)
                     for letter in letters for square in chess.scan_forward(parse_squares(squares) & empty)]
    return options + [None] if optional else options


def legal_for_ksolve(board: chess.Board, fog: bool) -> bool:
    """ksolve's placement filter (see the module docstring).

    >>> legal_for_ksolve(chess.Board("k6R/8/8/8/8/8/8/K7 w - - 0 1"), fog=False)
    False
    >>> legal_for_ksolve(chess.Board("k6R/8/8/8/8/8/8/K7 w - - 0 1"), fog=True)
    True
    """
    for color in chess.COLORS:
        men = board.occupied_co[color]
        if chess.popcount(board.kings & men) != 1 or chess.popcount(board.pawns & men) > 8:
            return False
        if chess.popcount(men) > 16:
            return False
    if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
        return False
    if fog:
        return True
    if board.was_into_check():
        return False
    return chess.popcount(board.checkers_mask()) <= 2


def initial_positions(fen: str, units: list[str], fog: bool = False, every: bool = False) -> list[chess.Board]:
    """Every legal placement of the hidden ``units`` into ``fen`` that some game
    reaches (``every``: reached or not), duplicates removed.

    >>> [b.epd() for b in initial_positions("7k/8/6K1/8/8/8/1R6/R7 w - - 0 1", ["p:a5,b5"])]
    ['7k/8/6K1/p7/8/8/1R6/R7 w - -', '7k/8/6K1/1p6/8/8/1R6/R7 w - -']
    """
    try:
        base = chess.Board(fen)
    except ValueError as error:
        raise ProblemFileError(f"position.fen: invalid FEN {fen!r}: {error}") from None
    if base.turn != chess.WHITE:
        raise ProblemFileError("position.fen: White must be to move")
    base.castling_rights = base.clean_castling_rights()
    if base.ep_square is not None and not base.has_pseudo_legal_en_passant():
        base.ep_square = None
    empty = chess.BB_ALL & ~base.occupied
    choices = [unit_options(spec, empty) for spec in units]
    total = 1
    for options in choices:
        total *= len(options)
    if total > MAX_PLACEMENTS:
        raise ProblemFileError(f"position.hidden: {total:,} placements, more than {MAX_PLACEMENTS:,}")
    found: dict[str, chess.Board] = {}
    for placement in itertools.product(*choices):
        placed = [choice for choice in placement if choice is not None]
        if len({square for _, square in placed}) < len(placed):
            continue
        board = base.copy(stack=False)
        for piece, square in placed:
            board.set_piece_at(square, piece)
        if legal_for_ksolve(board, fog) and (every or reachable(board)):
            found.setdefault(board.epd(en_passant="xfen"), board)
    if not found:
        raise ProblemFileError("position: no legal placement of the hidden units that a game reaches")
    return list(found.values())


def explicit_positions(fens: Any, fog: bool = False, every: bool = False) -> list[chess.Board]:
    """The boards of a ``positions = [FEN, ...]`` list, each checked legal
    (python-chess's status; Fog of War waives the check rules) and, unless
    ``every``, reached by some game.

    >>> len(explicit_positions(["k7/8/1K6/8/8/8/8/7R w - - 0 1"] * 2))
    1
    """
    if not isinstance(fens, list) or not fens:
        raise ProblemFileError("position.positions: must be a non-empty list of FENs")
    found: dict[str, chess.Board] = {}
    for number, fen in enumerate(fens, 1):
        if not isinstance(fen, str):
            raise ProblemFileError(f"position.positions[{number}]: must be a FEN string, got {fen!r}")
        try:
            board = chess.Board(fen)
        except (TypeError, ValueError) as error:
            raise ProblemFileError(f"position.positions[{number}]: invalid FEN {fen!r}: {error}") from None
        status = board.status() & ~(_CHECK_STATUS if fog else 0)
        if status or board.turn != chess.WHITE:
            raise ProblemFileError(f"position.positions[{number}]: illegal position {fen!r}")
        if not every and not reachable(board):
            raise ProblemFileError(f"position.positions[{number}]: no game reaches {fen!r}")
        board.castling_rights = board.clean_castling_rights()
        found.setdefault(board.epd(en_passant="xfen"), board)
    return list(found.values())
