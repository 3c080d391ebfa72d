"""An endgame table: one row per placement of White's men (up to symmetry),
written as a tab-separated file that a sweep appends to as rows are decided
and that ``read_table`` reads back.

The file starts with ``#`` lines naming the material, the rule set, the
longest win searched (and ``# start general`` when the king starts in general
position), then a header and the rows::

    # ksolve endgame table
    # material	KQK
    # rules	berkeley
    # max-moves	40
    placement	belief	shortest	nodes	seconds
    Ka1 Qh1	40	16	138269	3.91

``shortest`` is the fewest moves of a sure win from total ignorance, ``none
within N`` when no win within ``N`` moves exists (the search went no
further), or ``none`` when there is no sure win at any length (every
strategy meets, in some line, a capture of White's men, a draw, or a square
from which White could not win even seeing the king).

>>> row = EndgameRow("Ka1 Qh1", 40, 16, 15, False, 138269, 3.91)
>>> row.result, EndgameRow("Ka1 Rd3", 45, None, 60, True, 1, 0.0).result
('16', 'none')
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import chess

from ksolve.endgame.material import PIECE_ORDER, Material, MaterialError, parse_material
from ksolve.errors import InputError

MAGIC = "# ksolve endgame table"
COLUMNS = ("placement", "belief", "shortest", "nodes", "seconds")


@dataclass(frozen=True)
class EndgameRow:
    """One placement's row."""

    placement: str
    """White's men and their squares, e.g. ``Ka1 Qh1`` (the canonical image)."""
    belief: int
    """The black king's squares at the start: the size of White's initial belief."""
    moves: int | None
    """The fewest moves of a sure win, or None."""
    refuted: int
    """No win within this many moves is proven."""
    never: bool
    """No sure win at any length."""
    nodes: int
    seconds: float

    @property
    def result(self) -> str:
        """The ``shortest`` column: ``16``, ``none within 40`` or ``none``."""
        if self.moves is not None:
            return str(self.moves)
        return "none" if self.never else f"none within {self.refuted}"

    @property
    def squares(self) -> tuple[int, ...]:
        """The men's squares, in the material's order."""
        return tuple(chess.parse_square(word[1:]) for word in self.placement.split())

    def line(self) -> str:
        return "\t".join((self.placement, str(self.belief), self.result, str(self.nodes), f"{self.seconds:.3f}"))


@dataclass
class EndgameTable:
    """A material's table under one rule set (complete or not)."""

    material: str
    rules: str
    max_moves: int
    rows: list[EndgameRow] = field(default_factory=list)
    placements: int = 0
    """Placements the material has up to symmetry (0: unknown)."""
    start: str = "anywhere"
    """Where the black king may start: ``anywhere`` (any legal square) or ``general``
    (not next to a White man no other guards)."""
    stopped: str = ""
    """Why the sweep that made the table stopped before its end ("" when it did not)."""

    def describe(self) -> str:
        """``KQK under berkeley`` (with ``, the king in general position`` when so)."""
        return f"{self.material} under {self.rules}" + (", the king in general position"
                                                         if self.start == "general" else "")

    @property
    def complete(self) -> bool:
        """Whether every placement has its row."""
        return bool(self.placements) and len(self.rows) >= self.placements

    def won(self) -> list[EndgameRow]:
        return [row for row in self.rows if row.moves is not None]

    @property
    def maximum(self) -> int | None:
        """The longest shortest win over the placements that have one."""
        return max((row.moves for row in self.won()), default=None)

    def reaching_maximum(self) -> list[EndgameRow]:
        """The rows whose shortest win is the maximum."""
        top = self.maximum
        return [row for row in self.rows if top is not None and row.moves == top]

    def counts(self) -> dict[str, int]:
        """Rows per result: each length, ``none within N``, ``none``."""
        out: dict[str, int] = {}
        for row in sorted(self.rows, key=lambda r: (r.moves is None, r.moves or 0, r.never)):
            out[row.result] = out.get(row.result, 0) + 1
        return out

    def header(self) -> str:
        start = f"# start\t{self.start}\n" if self.start != "anywhere" else ""
        return (f"{MAGIC}\n# material\t{self.material}\n# rules\t{self.rules}\n# max-moves\t{self.max_moves}\n"
                + start + "\t".join(COLUMNS) + "\n")


def read_table(path: str | Path) -> EndgameTable:
    """The table in ``path``; ``InputError`` naming the line and the reason otherwise:
    a row must be a placement of the header's material (its men, in the material's
    order) and go no deeper than the header's ``max-moves``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not an endgame table (not UTF-8 text)") from None
    lines = text.splitlines()
    if not lines or lines[0] != MAGIC:
        raise InputError(f"{path}: not an endgame table (the first line must be {MAGIC!r})")
    meta: dict[str, str] = {}
    where: dict[str, int] = {}
    """The line of each header field."""
    number = 1
    for number, line in enumerate(lines[1:], 2):
        if not line.startswith("#"):
            break
        name, _, value = line[1:].strip().partition("\t")
        meta[name] = value.strip()
        where[name] = number
    for name in ("material", "rules", "max-moves"):
        if name not in meta:
            raise InputError(f"{path}: the header has no '# {name}' line")
    try:
        material = parse_material(meta["material"])
    except MaterialError as error:
        raise InputError(f"{path}: line {where['material']}: {error}") from None
    try:
        max_moves = int(meta["max-moves"])
    except ValueError:
        raise InputError(f"{path}: line '# max-moves': not a number: {meta['max-moves']!r}") from None
    if max_moves < 1:
        raise InputError(f"{path}: line {where['max-moves']}: '# max-moves {max_moves}': a table looks for wins "
                         "of 1 move or more")
    start = meta.get("start", "anywhere")
    if start not in ("anywhere", "general"):
        raise InputError(f"{path}: line '# start': {start!r} is neither 'anywhere' nor 'general'")
    table = EndgameTable(material.name, meta["rules"], max_moves, start=start)
    header = _Header(material, where["material"], max_moves, where["max-moves"])
    body = lines[number - 1:]
    if not body or body[0].split("\t") != list(COLUMNS):
        raise InputError(f"{path}: line {number}: the column header must be {' '.join(COLUMNS)}")
    seen: dict[str, int] = {}
    torn = not text.endswith("\n")
    last = len(body)
    for offset, line in enumerate(body[1:], number + 1):
        if not line.strip():
            continue
        try:
            row = _row(path, offset, line, header)
        except InputError:
            if torn and offset - number + 1 == last:
                continue  # the last line, torn by a crash: its placement is searched again
            raise
        if row.placement in seen:
            table.rows[seen[row.placement]] = row
            continue
        seen[row.placement] = len(table.rows)
        table.rows.append(row)
    return table


@dataclass(frozen=True)
class _Header:
    """What a table file's rows are checked against: its material and its
    ``max-moves``, with the lines that give them."""

    material: Material
    material_line: int
    max_moves: int
    max_moves_line: int


def _row(path: Path, number: int, line: str, header: _Header) -> EndgameRow:
    fields = line.split("\t")
    if len(fields) != len(COLUMNS):
        raise InputError(f"{path}: line {number}: expected {len(COLUMNS)} tab-separated fields, got {len(fields)}")
    placement, belief, shortest, nodes, seconds = fields
    try:
        men = placement.split()
        for word in men:
            if word[0] not in PIECE_ORDER or chess.parse_square(word[1:]) is None:
                raise ValueError
        moves, refuted, never = _shortest(shortest, header.max_moves)
        row = EndgameRow(placement, int(belief), moves, refuted, never, int(nodes), float(seconds))
    except (ValueError, IndexError):
        raise InputError(f"{path}: line {number}: cannot read the row {line!r}") from None
    if "".join(word[0] for word in men) != header.material.white:
        raise InputError(f"{path}: line {number}: {placement!r} is not a placement of {header.material.name} "
                         f"(the header's '# material {header.material.name}', line {header.material_line})")
    if (moves if moves is not None else refuted) > header.max_moves:
        what = f"a shortest win of {moves} moves" if moves is not None else repr(shortest)
        raise InputError(f"{path}: line {number}: {placement}: {what} is beyond the header's "
                         f"'# max-moves {header.max_moves}' (line {header.max_moves_line})")
    return row


def _shortest(text: str, max_moves: int) -> tuple[int | None, int, bool]:
    if text == "none":
        return None, max_moves, True
    if text.startswith("none within "):
        return None, int(text[len("none within "):]), False
    moves = int(text)
    if moves < 1:
        raise ValueError(text)
    return moves, moves - 1, False


class TableWriter:
    """Appends rows to a table file as they are decided (each line handed to the
    operating system at once: a crash or Ctrl-C loses no decided row).  A file
    that cannot be written (a full disk) is an ``InputError`` naming it: the
    header, written on creation, finds it before any row is searched."""

    def __init__(self, path: str | Path | None, table: EndgameTable) -> None:
        self.path = Path(path) if path is not None else None
        self.table = table
        if self.path is not None and (not self.path.exists() or self.path.stat().st_size == 0):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_text(self.path, table.header())

    def append(self, row: EndgameRow) -> None:
        self.table.rows.append(row)
        if self.path is not None:
            write_text(self.path, row.line() + "\n", append=True)

    def rewrite_sorted(self, order: list[str]) -> None:
        """Write the whole file again, rows in ``order`` (placement names), atomically."""
        rank = {name: index for index, name in enumerate(order)}
        self.table.rows.sort(key=lambda row: rank.get(row.placement, len(rank)))
        if self.path is None:
            return
        temporary = self.path.with_name(self.path.name + ".tmp")
        write_text(temporary, self.table.header() + "".join(row.line() + "\n" for row in self.table.rows))
        os.replace(temporary, self.path)


def write_text(path: Path, text: str, append: bool = False) -> None:
    """Write (or ``append``) ``text`` to the table file ``path``, handed to the
    operating system at once; ``InputError`` naming the file and the reason otherwise."""
    try:
        with open(path, "a" if append else "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
    except OSError as error:
        raise InputError(f"{path}: cannot write: {error.strerror or error}") from None
