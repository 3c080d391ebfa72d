"""Endgame tables drawn: heat maps of the shortest sure win by the square of
each of White's men, as a text grid, an SVG board and an HTML page.

A table holds one row per placement up to the board's eight symmetries; a
heat map spreads every row over its images, so that each square of (say)
the White king shows the *worst* shortest win over the placements with the
king there (the other men anywhere), and how many of them have no sure win.
The SVG is written here (squares, numbers and a colour scale: no plotting
library); ``docs/`` turns it into PNG with the browser when a picture is wanted.

>>> from ksolve.endgame.table import EndgameRow, EndgameTable
>>> table = EndgameTable("KQK", "berkeley", 20, [EndgameRow("Ka1 Qh1", 40, 16, 15, False, 1, 0.1),
...                                              EndgameRow("Ka1 Qb1", 42, 16, 15, False, 1, 0.1)])
>>> maps = heat_maps(table)
>>> [m.man for m in maps], maps[0].worst[0], maps[0].worst[63], maps[0].worst[27]
(['K', 'Q'], 16, 16, None)
>>> print(heat_map_text(maps[0]).splitlines()[0])
8  16   .   .   .   .   .   .  16
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from ksolve.endgame.material import Material
from ksolve.endgame.symmetry import SQUARE_MAP
from ksolve.endgame.table import EndgameRow, EndgameTable

__all__ = ["HeatMap", "heat_map_svg", "heat_map_text", "heat_maps", "report_html", "summary_text", "without_svg"]

_SCALE = ("#fde725", "#b5de2b", "#6ece58", "#35b779", "#1f9e89", "#26828e", "#31688e", "#3e4989", "#482878",
          "#440154")
"""Viridis, light (short wins) to dark (long ones)."""
_NO_WIN = "#d62728"
_EMPTY = "#eeeeee"


@dataclass
class HeatMap:
    """Per square of one of White's men: the worst shortest win over the
    placements with that man there, and how many of them have none."""

    man: str
    """The man's letter; ``B1``/``B2`` when the material has two of a kind."""
    title: str
    worst: list[int | None] = field(default_factory=lambda: [None] * 64)
    placements: list[int] = field(default_factory=lambda: [0] * 64)
    without: list[int] = field(default_factory=lambda: [0] * 64)
    """Placements without a sure win (none at all, or none within the table's depth)."""
    total: list[int] = field(default_factory=lambda: [0] * 64)
    """The sum of the shortest wins (of the placements that have one)."""

    @property
    def mean(self) -> list[float | None]:
        """The mean shortest win per square over the placements that have one."""
        won = [p - w for p, w in zip(self.placements, self.without)]
        return [t / n if n else None for t, n in zip(self.total, won)]

    def range(self, mean: bool = False) -> tuple[float, float]:
        values = [v for v in (self.mean if mean else self.worst) if v is not None]
        return (min(values), max(values)) if values else (0, 0)


def heat_maps(table: EndgameTable) -> list[HeatMap]:
    """One heat map per man of White (the king first), over every image of every row."""
    letters = table.material[:-1]
    names = _man_names(letters)
    maps = [HeatMap(name, f"{_title(name)}'s square") for name in names]
    for row in table.rows:
        for image in _images(row.squares, letters):
            for index, square in enumerate(image):
                heat = maps[index]
                heat.placements[square] += 1
                if row.moves is None:
                    heat.without[square] += 1
                    continue
                heat.total[square] += row.moves
                if heat.worst[square] is None or row.moves > heat.worst[square]:
                    heat.worst[square] = row.moves
    return maps


def _man_names(letters: str) -> list[str]:
    names = []
    for index, letter in enumerate(letters):
        twins = letters.count(letter)
        names.append(letter if twins == 1 else f"{letter}{letters[:index].count(letter) + 1}")
    return names


def _title(name: str) -> str:
    piece = chess.piece_name(chess.Piece.from_symbol(name[0]).piece_type)
    return f"the White {piece}" + (f" ({'first' if name[1] == '1' else 'second'} of two)" if len(name) > 1 else "")


def _images(squares: tuple[int, ...], letters: str) -> set[tuple[int, ...]]:
    """The distinct images of a placement under the material's symmetries (eight; the
    identity and the mirror of the files with a pawn), men of one kind counted once
    (their squares ordered)."""
    out = set()
    for g in range(Material(letters).symmetries):
        image = [int(SQUARE_MAP[g][s]) for s in squares]
        for index in range(1, len(image)):
            if letters[index] == letters[index - 1] and image[index] < image[index - 1]:
                image[index - 1], image[index] = image[index], image[index - 1]
        out.add(tuple(image))
    return out


def heat_map_text(heat: HeatMap, mean: bool = False) -> str:
    """An 8x8 grid: the worst (``mean``: the mean) shortest win per square, ``x``
    where no placement with the man there has a sure win, ``.`` where none was tabled."""
    values = heat.mean if mean else heat.worst
    lines = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            square = rank * 8 + file
            value = values[square]
            if value is not None:
                cells.append(f"{value:>4.1f}" if mean else f"{value:>3d}")
            else:
                cells.append(f"{'x' if heat.placements[square] else '.':>{4 if mean else 3}}")
        lines.append(f"{rank + 1} " + " ".join(cells))
    width = 4 if mean else 3
    lines.append("  " + " ".join(f"{name:>{width}}" for name in "abcdefgh"))
    return "\n".join(lines)


def _colour(value: float | None, low: float, high: float) -> str:
    if value is None:
        return _NO_WIN
    if high == low:
        return _SCALE[len(_SCALE) // 2]
    step = (value - low) * (len(_SCALE) - 1) / (high - low)
    return _SCALE[round(step)]


def heat_map_svg(heat: HeatMap, mean: bool = False, cell: int = 40) -> str:
    """An SVG board: each square coloured by its worst (``mean``: mean) shortest win
    (light: short, dark: long; red where no placement with the man there has a sure
    win, grey where none was tabled), the number written in it, files and ranks around."""
    values = heat.mean if mean else heat.worst
    low, high = heat.range(mean)
    word = "mean" if mean else "worst"

    def square_view(square: int) -> tuple[str, str | None, str]:
        value = values[square]
        if not heat.placements[square]:
            return _EMPTY, None, ""
        text = "none" if value is None else (f"{value:.1f}" if mean else str(value))
        dark = value is not None and high > low and (value - low) / (high - low) > 0.45
        return _colour(value, low, high), text, "#ffffff" if dark or value is None else "#000000"

    shown = (lambda v: f"{v:.1f}") if mean else (lambda v: f"{v:g}")
    return _board_svg(f"{word} shortest win by {heat.title}", square_view,
                      f"{word}: {shown(low)} (light) to {shown(high)} (dark)", "#ffffff", cell)


def without_svg(heat: HeatMap, cell: int = 40) -> str:
    """An SVG board: per square of the man, the share of the placements with it there
    that have no sure win (white: none of them, red: all of them), in per cent."""

    def square_view(square: int) -> tuple[str, str | None, str]:
        total = heat.placements[square]
        if not total:
            return _EMPTY, None, ""
        share = heat.without[square] / total
        fill = f"rgb(255,{round(255 * (1 - share))},{round(255 * (1 - share))})"
        return fill, str(round(100 * share)), "#ffffff" if share > 0.6 else "#000000"

    return _board_svg(f"placements without a sure win by {heat.title}", square_view,
                      "% of placements without a sure win", "#dddddd", cell)


def _board_svg(title: str, square_view: Callable[[int], tuple[str, str | None, str]], footer: str,
               stroke: str, cell: int) -> str:
    """An SVG board of 8x8 squares, ``square_view(square)`` giving each one's fill, its
    text (None: no text) and the text's colour; files and ranks around, ``footer`` below."""
    margin = 18
    size = 8 * cell + margin
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size + 34}" width="{size}" '
              f'height="{size + 34}" font-family="sans-serif">'),
             f"<title>{html.escape(title)}</title>"]
    for square in range(64):
        rank, file = divmod(square, 8)
        x, y = margin + file * cell, (7 - rank) * cell
        fill, text, colour = square_view(square)
        parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="{stroke}"/>')
        if text is not None:
            parts.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 5}" text-anchor="middle" '
                         f'font-size="{cell // 3}" fill="{colour}">{text}</text>')
    for index in range(8):
        parts.append(f'<text x="{margin + index * cell + cell / 2}" y="{8 * cell + 14}" text-anchor="middle" '
                     f'font-size="12">{"abcdefgh"[index]}</text>')
        parts.append(f'<text x="{margin / 2}" y="{(7 - index) * cell + cell / 2 + 4}" text-anchor="middle" '
                     f'font-size="12">{index + 1}</text>')
    parts.append(f'<text x="{margin}" y="{8 * cell + 30}" font-size="12">{html.escape(footer)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def summary_text(table: EndgameTable) -> str:
    """The table in a few lines: placements, results, the maximum and where it is reached."""
    lines = [f"{table.describe()}: {len(table.rows)} placements tabled"
             + (f" of {table.placements}" if table.placements else "")
             + ("" if table.complete or not table.placements else " (incomplete)")]
    counts = table.counts()
    lines.append("shortest sure win (moves: placements): " + ", ".join(f"{k}: {v}" for k, v in counts.items()))
    top = table.maximum
    if top is None:
        lines.append("no placement has a sure win within the table's depth")
    else:
        reaching = table.reaching_maximum()
        shown = ", ".join(row.placement for row in reaching[:12]) + (", ..." if len(reaching) > 12 else "")
        lines.append(f"maximum: {top} moves, reached by {len(reaching)} placement(s): {shown}")
    nodes = sum(row.nodes for row in table.rows)
    seconds = sum(row.seconds for row in table.rows)
    lines.append(f"search: {nodes:,} nodes, {seconds:.1f} s in the rows (shared work counted where it was done)")
    return "\n".join(lines)


def report_html(table: EndgameTable, certificates: dict[str, str] | None = None) -> str:
    """One HTML page: the summary, the heat maps, the placements reaching the
    maximum (linked to their certificates, ``certificates``: placement -> file)."""
    certificates = certificates or {}
    maps = heat_maps(table)
    rows = "".join(_row_html(row, certificates.get(row.placement)) for row in table.reaching_maximum())
    boards = "".join(f'<figure>{heat_map_svg(heat, mean)}<figcaption>{"mean" if mean else "worst"} shortest win '
                     f'by {html.escape(heat.title)}</figcaption></figure>' for mean in (False, True) for heat in maps)
    if any(row.moves is None for row in table.rows):
        boards += "".join(f'<figure>{without_svg(heat)}<figcaption>placements without a sure win by '
                          f'{html.escape(heat.title)}</figcaption></figure>' for heat in maps)
    summary = html.escape(summary_text(table))
    where = " not next to a White man no other guards" if table.start == "general" else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(table.describe())}: ksolve endgame table</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}}
figure{{display:inline-block;margin:0 1em 1em 0}}figcaption{{text-align:center}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px}}pre{{white-space:pre-wrap}}</style>
</head><body>
<h1>{html.escape(table.describe())}</h1>
<p>The shortest sure win from total ignorance (the black king on any legal square{where}, White to move),
per placement of White's men; heat maps show, per square of one man, the worst shortest win over
the placements with that man there (red: none of them has a sure win).</p>
<pre>{summary}</pre>
{boards}
<h2>Placements reaching the maximum</h2>
<table><tr><th>placement</th><th>belief</th><th>shortest</th><th>nodes</th><th>certificate</th></tr>{rows}</table>
</body></html>
"""


def _row_html(row: EndgameRow, certificate: str | None) -> str:
    link = f'<a href="{html.escape(certificate)}">{html.escape(certificate)}</a>' if certificate else ""
    return (f"<tr><td>{html.escape(row.placement)}</td><td>{row.belief}</td><td>{row.result}</td>"
            f"<td>{row.nodes:,}</td><td>{link}</td></tr>")
