"""Hidden units: black (or white) men whose squares White does not know, and
the enumeration of every legal placement of them into a visible position.

A unit is written ``PIECES:SQUARES``: ``PIECES`` is a piece letter (lower
case black, upper case white), or alternatives such as ``q|r|b|n``, with a
``?`` for an optional unit (present or not); ``SQUARES`` is ``dark``,
``light``, ``any``, a file (``a-file``), a rank (``rank-3``) or a comma list
of squares (``e2,e5,e6``); several sets can be joined with ``+``.

>>> unit = parse_hidden_unit("b:dark")
>>> unit.pieces, unit.color, bin(unit.squares).count("1")
((3,), False, 32)
>>> parse_hidden_unit("p?:a-file").optional
True
>>> parse_hidden_unit("x:e4")
Traceback (most recent call last):
...
ksolve.hidden.HiddenUnitError: hidden unit 'x:e4': unknown piece 'x' (use one of p n b r q k, upper case for White)
"""

from __future__ import annotations

from dataclasses import dataclass

import chess
import numpy as np

from numba import njit

from ksolve.board.layout import COLUMN_BLACK, COLUMN_HASH, POSITION_WIDTH
from ksolve.board.tables import SQUARE_BB
from ksolve.board.validity import is_legal_position
from ksolve.board.zobrist import position_hash
from ksolve.resources import OverMemoryBudget, Resources
from ksolve.retro import REACHABLE, LeftOut, left_out, reason_codes

class HiddenUnitError(ValueError):
    """A hidden-unit specification that cannot be read, or that no position satisfies."""


@dataclass(frozen=True)
class HiddenUnit:
    """One hidden man: its possible piece types, colour and squares."""

    pieces: tuple[int, ...]
    """python-chess piece types (alternatives)."""
    color: bool
    squares: int
    """Bitboard of the squares it may stand on."""
    optional: bool = False
    spec: str = ""

    def describe(self) -> str:
        """A short description, e.g. ``black bishop on 32 squares``.

        >>> parse_hidden_unit("q|r:e1").describe()
        'black queen or rook on e1'
        """
        color = "white" if self.color else "black"
        names = " or ".join(chess.piece_name(p) for p in self.pieces)
        count = chess.popcount(self.squares)
        where = chess.square_name(chess.lsb(self.squares)) if count == 1 else f"{count} squares"
        return f"{'optional ' if self.optional else ''}{color} {names} on {where}"


def parse_squares(text: str) -> int:
    """The bitboard of a square-set expression (see the module docstring).

    >>> chess.SquareSet(parse_squares("rank-8+h1"))
    SquareSet(0xff00_0000_0000_0080)
    """
    mask = 0
    for part in text.split("+"):
        part = part.strip().lower()
        if part == "dark":
            mask |= chess.BB_DARK_SQUARES
        elif part == "light":
            mask |= chess.BB_LIGHT_SQUARES
        elif part == "any":
            mask |= chess.BB_ALL
        elif part.endswith("-file") and len(part) == 6 and part[0] in chess.FILE_NAMES:
            mask |= chess.BB_FILES[chess.FILE_NAMES.index(part[0])]
        elif part.startswith("rank-") and part[5:] in chess.RANK_NAMES:
            mask |= chess.BB_RANKS[chess.RANK_NAMES.index(part[5:])]
        else:
            for name in part.split(","):
                name = name.strip()
                if name not in chess.SQUARE_NAMES:
                    raise HiddenUnitError(f"unknown square or square set {name!r} "
                                          "(use dark, light, any, a-file, rank-3 or squares like e4)")
                mask |= chess.BB_SQUARES[chess.SQUARE_NAMES.index(name)]
    return mask


def parse_hidden_unit(spec: str) -> HiddenUnit:
    """Read one ``PIECES:SQUARES`` unit."""
    if ":" not in spec:
        raise HiddenUnitError(f"hidden unit {spec!r}: expected PIECES:SQUARES, e.g. b:dark")
    pieces_text, squares_text = spec.split(":", 1)
    optional = pieces_text.endswith("?")
    pieces_text = pieces_text.rstrip("?")
    letters = [p.strip() for p in pieces_text.split("|")]
    colors = {letter.isupper() for letter in letters}
    pieces = []
    for letter in letters:
        if len(letter) != 1 or letter.lower() not in "pnbrqk":
            raise HiddenUnitError(f"hidden unit {spec!r}: unknown piece {letter!r} "
                                  "(use one of p n b r q k, upper case for White)")
        pieces.append(chess.PIECE_SYMBOLS.index(letter.lower()))
    if len(colors) != 1:
        raise HiddenUnitError(f"hidden unit {spec!r}: alternatives must be of one colour")
    try:
        squares = parse_squares(squares_text)
    except HiddenUnitError as error:
        raise HiddenUnitError(f"hidden unit {spec!r}: {error}") from None
    return HiddenUnit(tuple(pieces), colors.pop(), squares, optional, spec)


MAX_PLACEMENTS = 1 << 62
"""Placements are numbered in 64-bit integers."""
PLACEMENTS_PER_CALL = 1 << 20
"""Placements one kernel call tries: Python regains control (progress, Ctrl-C) between calls."""
SAMPLE_SIZE = 20_000
"""Random placements tried to estimate a large belief's size before enumerating it."""


@dataclass(frozen=True)
class Placements:
    """The positions a visible board and its hidden units make."""

    rows: np.ndarray
    """Position rows, sorted by hash, without duplicates."""
    left_out: LeftOut = LeftOut()
    """The legal placements no game reaches (``ksolve.retro``), not in ``rows``."""


def enumerate_placements(board: chess.Board, units: list[HiddenUnit], fog: bool = False,
                         resources: Resources | None = None, reachable: bool = True) -> Placements:
    """Every legal position made by placing ``units`` on empty allowed squares
    of ``board``: position rows, duplicates removed, sorted by hash; with
    ``reachable``, those some game reaches (``ksolve.retro``), the others
    counted in ``left_out``.

    Identical units are placed in increasing square order (each position is
    made once).  The placements are tried in batches, ``resources.progress``
    hearing of each; a belief whose size, estimated from a sample before the
    work, or counted during it, passes ``resources``' memory budget raises
    ``OverMemoryBudget``.  Raises ``HiddenUnitError`` when the belief would be
    empty (naming why).  With ``fog`` (Fog of War) a king may stand attacked.

    >>> placed = enumerate_placements(chess.Board("8/8/8/8/8/8/8/K6k w - - 0 1"), [parse_hidden_unit("b:c3,e3")] * 2)
    >>> placed.rows.shape[0]  # bishops on c3 and e3, placed once
    1
    >>> placed.left_out.total  # Black's eight pawns missing: one of them promoted
    0
    """
    from ksolve.board.convert import position_from_board

    resources = resources or Resources()
    base = position_from_board(board, validate=False)
    pieces, squares, counts, same = _options(board, units)
    columns = np.array([COLUMN_BLACK * (not unit.color) for unit in units], dtype=np.int64)
    total = int(np.prod(counts.astype(object))) if len(units) else 1
    if total >= MAX_PLACEMENTS:
        raise HiddenUnitError(f"the hidden units allow {total:,} placements, too many to try "
                              f"(at most {MAX_PLACEMENTS:,})")
    limit = resources.max_positions
    if total > limit:
        _refuse_if_over(_estimated_positions(base, pieces, squares, counts, same, columns, not fog, total),
                        limit, resources)
    # Room for the budget's positions and one call's more; the pages are used only as they are written.
    rows = np.empty((min(total, limit + PLACEMENTS_PER_CALL), POSITION_WIDTH), dtype=np.uint64)
    kept = 0
    for start in range(0, total, PLACEMENTS_PER_CALL):
        stop = min(total, start + PLACEMENTS_PER_CALL)
        kept = place_range(base, pieces, squares, counts, same, columns, not fog, start, stop, rows, kept)
        if resources.progress is not None:
            resources.progress(stop, total, kept)
        if kept > limit:
            _refuse_if_over(kept * total // stop, limit, resources)
    if kept == 0:
        raise HiddenUnitError("no legal position: every placement of the hidden units puts two men "
                              "on one square or gives an illegal position (king count, check on the "
                              "side not to move, pawns on the first or last rank)")
    kept = sort_unique(rows[:kept], np.argsort(rows[:kept, COLUMN_HASH]))
    dropped = LeftOut()
    if reachable:
        codes, broken = reason_codes(rows[:kept])
        if broken:
            dropped = left_out(rows[:kept], codes)
            kept = keep_rows(rows[:kept], codes == REACHABLE)
            if kept == 0:
                raise HiddenUnitError(f"no placement of the hidden units is reachable in a game: "
                                      f"{dropped.reasons[0][0]}")
    rows.resize((kept, POSITION_WIDTH), refcheck=False)  # in place: no copy of the belief
    return Placements(rows, dropped)


@njit(cache=True)
def keep_rows(rows, keep):
    """Move the rows where ``keep`` holds to the front, in order: returns how many."""
    kept = 0
    for i in range(rows.shape[0]):
        if keep[i]:
            if kept != i:
                rows[kept, :] = rows[i, :]
            kept += 1
    return kept


def _options(board: chess.Board, units: list[HiddenUnit]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each unit's options as ``pieces[u, k]`` (python-chess type, 0: absent)
    and ``squares[u, k]`` (-1: absent), their ``counts[u]``, and ``same[u]``,
    the last earlier unit identical to ``u`` (-1: none)."""
    empty = ~int(board.occupied) & chess.BB_ALL
    choices = []
    for unit in units:
        allowed = unit.squares & empty
        if unit.pieces == (chess.PAWN,):
            allowed &= ~(chess.BB_RANK_1 | chess.BB_RANK_8)
        options = [(piece, square) for piece in unit.pieces for square in chess.scan_forward(allowed)]
        if unit.optional:
            options.append((0, -1))
        if not options:
            raise HiddenUnitError(f"hidden unit {unit.spec!r}: none of its squares is empty on the board")
        choices.append(options)
    width = max((len(options) for options in choices), default=1)
    pieces = np.zeros((len(units), width), dtype=np.int64)
    squares = np.full((len(units), width), -1, dtype=np.int64)
    for u, options in enumerate(choices):
        pieces[u, :len(options)] = [piece for piece, _ in options]
        squares[u, :len(options)] = [square for _, square in options]
    counts = np.array([len(options) for options in choices], dtype=np.int64)
    same = np.array([max((v for v in range(u) if _identical(units[v], units[u])), default=-1)
                     for u in range(len(units))], dtype=np.int64)
    return pieces, squares, counts, same


def _identical(a: HiddenUnit, b: HiddenUnit) -> bool:
    return (a.pieces, a.color, a.squares, a.optional) == (b.pieces, b.color, b.squares, b.optional)


def _estimated_positions(base, pieces, squares, counts, same, columns, check_rules, total: int) -> int:
    """The positions ``total`` placements give, estimated from a random sample (seeded)."""
    rng = np.random.default_rng(0)
    sample = np.stack([rng.integers(0, count, SAMPLE_SIZE) for count in counts], axis=1)
    legal = count_legal(base, pieces, squares, same, columns, check_rules, sample)
    return legal * total // SAMPLE_SIZE


def _refuse_if_over(positions: int, limit: int, resources: Resources) -> None:
    if positions > limit:
        raise OverMemoryBudget(positions, resources.budget)


@njit(cache=True)
def sort_unique(rows, order):
    """Sort ``rows`` in place into ``order`` and move the first of each run of
    equal hashes to the front: returns how many there are.  (A gather
    ``rows[order]`` would hold the belief twice.)"""
    return _sort_unique(rows, order, np.zeros(rows.shape[0], dtype=np.bool_), np.empty(rows.shape[1], rows.dtype))


@njit(cache=True, _nrt=False)
def _sort_unique(rows, order, done, held):
    n, width = rows.shape
    for start in range(n):  # follow each cycle of the permutation
        if done[start]:
            continue
        for c in range(width):
            held[c] = rows[start, c]
        i = start
        while True:
            done[i] = True
            j = order[i]
            if j == start:
                for c in range(width):
                    rows[i, c] = held[c]
                break
            for c in range(width):
                rows[i, c] = rows[j, c]
            i = j
    kept = 0
    for i in range(n):
        if kept == 0 or rows[i, COLUMN_HASH] != rows[kept - 1, COLUMN_HASH]:
            for c in range(width):
                rows[kept, c] = rows[i, c]
            kept += 1
    return kept


@njit(cache=True)
def place_range(base, pieces, squares, counts, same, columns, check_rules, start, stop, out, kept):
    """Try placements ``start`` .. ``stop`` (mixed-radix numbers, unit 0's option
    the lowest digit), writing the legal positions into ``out`` from row
    ``kept``; returns the new ``kept``.  ``out`` needs ``stop - start`` free rows."""
    digits = np.empty(counts.shape[0], dtype=np.int64)
    rest = start
    for u in range(counts.shape[0]):
        digits[u] = rest % counts[u]
        rest //= counts[u]
    return _place_range(base, pieces, squares, counts, same, columns, check_rules, stop - start, out, kept,
                        digits, np.empty(counts.shape[0], dtype=np.int64))


# The loops below run without numba's reference counting (``_nrt=False``):
# there a row view such as ``out[kept]`` costs nothing.

@njit(cache=True, _nrt=False)
def _place_range(base, pieces, squares, counts, same, columns, check_rules, n, out, kept, digits, codes):
    units = counts.shape[0]
    for _ in range(n):
        if _place(base, pieces, squares, same, columns, check_rules, digits, codes, out[kept]):
            kept += 1
        for u in range(units):  # the next placement
            digits[u] += 1
            if digits[u] < counts[u]:
                break
            digits[u] = 0
    return kept


@njit(cache=True)
def count_legal(base, pieces, squares, same, columns, check_rules, sample):
    """How many of the placements ``sample[i] = option of each unit`` are legal."""
    return _count_legal(base, pieces, squares, same, columns, check_rules, sample, np.empty_like(base),
                        np.empty(sample.shape[1], dtype=np.int64))


@njit(cache=True, _nrt=False)
def _count_legal(base, pieces, squares, same, columns, check_rules, sample, row, codes):
    legal = 0
    for i in range(sample.shape[0]):
        if _place(base, pieces, squares, same, columns, check_rules, sample[i], codes, row):
            legal += 1
    return legal


@njit(cache=True, _nrt=False)
def _place(base, pieces, squares, same, columns, check_rules, digits, codes, row):
    """Write ``base`` with the units on the options ``digits`` into ``row``, and
    its hash; False if two men share a square, identical units are out of
    order, or the position is illegal."""
    for column in range(base.shape[0]):
        row[column] = base[column]
    placed = np.uint64(0)
    for piece in range(12):
        placed |= base[piece]
    for u in range(digits.shape[0]):
        piece, square = pieces[u, digits[u]], squares[u, digits[u]]
        codes[u] = piece * 64 + square if square >= 0 else -1
        twin = same[u]
        if twin >= 0 and codes[u] <= codes[twin] and not (codes[u] == -1 and codes[twin] == -1):
            return False
        if square < 0:
            continue
        if placed & SQUARE_BB[square]:
            return False
        placed |= SQUARE_BB[square]
        row[columns[u] + piece - 1] |= SQUARE_BB[square]
    if not is_legal_position(row, check_rules):
        return False
    row[COLUMN_HASH] = position_hash(row)
    return True
