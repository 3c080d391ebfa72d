"""Variant presets of the problem format: Kriegspiel variants in which one side
sees the board and the other plays blind, as problems with White blind.

As the sources define them (Wikipedia, "Kriegspiel (chess)", Rule variations):

- **Semikriegspiel** (D. Silverman, 1971): the sighted side has only king and
  queen, placed on any legal squares before the game begins.  Preset: a black
  king and a black queen hidden anywhere (every legal placement).
- **Pickle-pot** (Frankenstein, 1903): the sighted side plays with king, eight
  pawns, queen and one bishop (which one, c8 or f8, is announced), in the usual
  starting position.  Preset: those black men on their starting squares.
- **One-eye** (Frankenstein, 1903): the same with two rooks and one bishop.

White (blind) has the men the problem's FEN gives; the FEN holds no black man
(the preset places them all), and the rule set is the classic problem
convention (``berkeley``) unless the file names another Kriegspiel rule set.

>>> preset = variant_preset("pickle-pot", bishop="c8")
>>> preset.units[:3], preset.describe()
(['k:e8', 'q:d8', 'b:c8'], 'Pickle-pot (Frankenstein 1903): Black, who sees the board, has king, queen, the c8 bishop and eight pawns on their starting squares')
"""

from __future__ import annotations

from dataclasses import dataclass

PAWNS = [f"p:{file}7" for file in "abcdefgh"]
BISHOPS = ("c8", "f8")


@dataclass(frozen=True)
class VariantPreset:
    """A variant's black men (hidden-unit specs) and its words for the report."""

    name: str
    title: str
    units: list[str]
    material: str

    def describe(self) -> str:
        return f"{self.title}: Black, who sees the board, has {self.material}"


VARIANTS = ("semikriegspiel", "pickle-pot", "one-eye")
DEFAULT_RULES = "berkeley"


def variant_preset(name: str, bishop: str | None = None) -> VariantPreset:
    """The preset ``name`` (``VARIANTS``); ``bishop``: the bishop Pickle-pot and
    One-eye keep (``c8`` or ``f8``).  ``ValueError`` with the reason otherwise."""
    if name == "semikriegspiel":
        if bishop is not None:
            raise ValueError("semikriegspiel has no bishop to choose (Black has only king and queen)")
        return VariantPreset(name, "Semikriegspiel (Silverman 1971)", ["k:any", "q:any"],
                             "only king and queen, on any legal squares")
    if name in ("pickle-pot", "one-eye"):
        if bishop not in BISHOPS:
            raise ValueError(f"{name} keeps one bishop, which the problem must name: bishop = 'c8' or 'f8'"
                             + (f" (got {bishop!r})" if bishop is not None else ""))
        title = "Pickle-pot (Frankenstein 1903)" if name == "pickle-pot" else "One-eye (Frankenstein 1903)"
        pieces = ["q:d8"] if name == "pickle-pot" else ["r:a8", "r:h8"]
        material = ("king, queen" if name == "pickle-pot" else "king, two rooks") + \
            f", the {bishop} bishop and eight pawns on their starting squares"
        return VariantPreset(name, title, ["k:e8", *pieces, f"b:{bishop}", *PAWNS], material)
    raise ValueError(f"unknown variant {name!r}; valid: {', '.join(VARIANTS)}")
