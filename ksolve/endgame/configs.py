"""Placements of White's men up to the board's symmetries, numbered.

A ``ConfigSpace`` numbers the *canonical* placements of a material and of
every material left after captures and promotions (``KRRK`` also holds
``KRK`` and ``K``; ``KPK`` also ``KQK``, ``KRK``, ``KBK`` and ``KNK``):
among the images of a placement under the material's symmetries (eight, or
two with a pawn) the least tuple of squares is its canonical one; a pawn
stands on the second to the seventh rank.  ``locate(material, squares)`` gives a placement's number and
the symmetry that carries it onto its canonical one; ``squares(number)`` the
canonical placement itself.  The numbers are consecutive, material after
material (``offset``), so that the search's arrays index them directly.

>>> import chess
>>> space = ConfigSpace(parse_material("KQK"))
>>> number, g = space.locate("KQ", (chess.H8, chess.A8))
>>> space.material_of(number).name, [chess.square_name(s) for s in space.squares(number)], g
('KQK', ['a1', 'h1'], 3)
>>> space.count("KQ")  # 64 x 63 placements, up to symmetry
518
>>> pawn = ConfigSpace(parse_material("KPK"))
>>> pawn.count("KP"), pawn.locate("KP", (chess.H1, chess.G2))[1]  # 64 x 48 - 48, halved; mirrored
(1512, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ksolve.endgame.material import Material, parse_material
from ksolve.endgame.symmetry import SQUARE_MAP

__all__ = ["ConfigSpace", "parse_material"]


@dataclass
class _Table:
    """The canonical placements of one material."""

    material: Material
    offset: int
    ids: np.ndarray
    """Placement code (``sum(square_i * 64**i)``) -> local number, -1 for no placement."""
    syms: np.ndarray
    """Placement code -> the symmetry that carries it onto its canonical placement."""
    canonical: np.ndarray
    """Local number -> the canonical placement's squares (one row each)."""
    stabilisers: np.ndarray
    """Local number -> bit mask of the symmetries that leave the placement where it is."""


class ConfigSpace:
    """The canonical placements of ``material`` and of the materials under it."""

    def __init__(self, material: Material) -> None:
        self.main = material
        self.tables: dict[str, _Table] = {}
        offset = 0
        for white in _sub_materials(material):
            table = _build_table(Material(white), offset)
            self.tables[white] = table
            offset += len(table.canonical)
        self.size = offset
        """Placements numbered in all."""
        self._material_starts = sorted((table.offset, white) for white, table in self.tables.items())

    def count(self, white: str) -> int:
        """Canonical placements of the material whose White men are ``white``."""
        return len(self.tables[white].canonical)

    def offset(self, white: str) -> int:
        return self.tables[white].offset

    def locate(self, white: str, squares: tuple[int, ...]) -> tuple[int, int]:
        """The number of the placement ``squares`` of White's men ``white`` and the
        symmetry carrying it onto its canonical placement."""
        table = self.tables[white]
        code = _code(_ordered(table.material, squares))
        local = int(table.ids[code])
        if local < 0:
            raise ValueError(f"no placement {squares} of {white}")
        return table.offset + local, int(table.syms[code])

    def material_of(self, number: int) -> Material:
        white = next(white for start, white in reversed(self._material_starts) if start <= number)
        return self.tables[white].material

    def squares(self, number: int) -> tuple[int, ...]:
        """The canonical placement numbered ``number``."""
        table = self.tables[self.material_of(number).white]
        return tuple(int(s) for s in table.canonical[number - table.offset])

    def stabiliser(self, number: int) -> int:
        """Bit mask of the symmetries that map the placement onto itself (bit 0 always)."""
        table = self.tables[self.material_of(number).white]
        return int(table.stabilisers[number - table.offset])


def _sub_materials(material: Material) -> list[str]:
    """``material``'s White men and every material left by capturing some of them (never
    the king) or promoting a pawn, the larger first.

    >>> _sub_materials(parse_material("KRPK"))
    ['KRP', 'KQR', 'KRR', 'KRB', 'KRN', 'KR', 'KP', 'KQ', 'KB', 'KN', 'K']
    """
    found: list[str] = []
    wanted = [material]
    while wanted:
        white = wanted.pop(0).white
        if white in found:
            continue
        found.append(white)
        men = white[1:]
        for kept in range(len(men), -1, -1):
            for chosen in combinations(range(len(men)), kept):
                name = "K" + "".join(men[i] for i in chosen)
                if name not in found:
                    wanted.append(Material(name))
        for index, letter in enumerate(white):
            if letter == "P":
                wanted.extend(Material(white).promotions(index))
    return sorted(found, key=lambda white: -len(white))


def _ordered(material: Material, squares: tuple[int, ...]) -> tuple[int, ...]:
    """``squares`` with men of one kind in increasing square order."""
    out = list(squares)
    for index in range(1, material.men):
        if material.same_kind(index) and out[index] < out[index - 1]:
            out[index - 1], out[index] = out[index], out[index - 1]
    return tuple(out)


def _code(squares: tuple[int, ...]) -> int:
    return sum(square << (6 * i) for i, square in enumerate(squares))


def _build_table(material: Material, offset: int) -> _Table:
    """Every placement of ``material`` (men on distinct squares, men of one kind
    ordered), its canonical image and the symmetry leading there, vectorised."""
    men = material.men
    grids = np.meshgrid(*([np.arange(64)] * men), indexing="ij")
    squares = np.stack([grid.ravel() for grid in grids], axis=1)
    codes = (squares << (6 * np.arange(men))).sum(axis=1)
    valid = np.ones(len(squares), dtype=bool)
    for a in range(men):
        for b in range(a + 1, men):
            valid &= squares[:, a] != squares[:, b]
    for index in range(1, men):
        if material.same_kind(index):
            valid &= squares[:, index - 1] < squares[:, index]
        if material.white[index] == "P":
            valid &= (squares[:, index] >= 8) & (squares[:, index] < 56)
    images = []
    for g in range(material.symmetries):
        image = SQUARE_MAP[g][squares]
        for index in range(1, men):
            if material.same_kind(index):
                low = np.minimum(image[:, index - 1], image[:, index])
                high = np.maximum(image[:, index - 1], image[:, index])
                image[:, index - 1], image[:, index] = low, high
        images.append(image)
    # the least image as a tuple, the king's square first: compare codes with the king most significant
    keys = np.stack([(image << (6 * (men - 1 - np.arange(men)))).sum(axis=1) for image in images], axis=1)
    best = keys.argmin(axis=1)
    chosen = np.take_along_axis(np.stack(images, axis=1), best[:, None, None], axis=1)[:, 0, :]
    canonical_code = (chosen << (6 * np.arange(men))).sum(axis=1)
    is_canonical = valid & (canonical_code == codes)
    local = np.full(64 ** men, -1, dtype=np.int64)
    canonical_rows = squares[is_canonical]
    local[codes[is_canonical]] = np.arange(len(canonical_rows))
    ids = np.full(64 ** men, -1, dtype=np.int64)
    syms = np.zeros(64 ** men, dtype=np.int64)
    ids[codes[valid]] = local[canonical_code[valid]]
    syms[codes[valid]] = best[valid]
    stabilisers = np.zeros(len(canonical_rows), dtype=np.int64)
    own = keys[is_canonical]
    least = own.min(axis=1)
    for g in range(material.symmetries):
        stabilisers |= (own[:, g] == least).astype(np.int64) << g
    return _Table(material, offset, ids, syms, canonical_rows, stabilisers)
