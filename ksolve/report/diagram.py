"""Chess diagrams for the HTML report: python-chess ``chess.svg`` boards,
inline, sharing one set of piece drawings per page.

``chess.svg.board`` repeats the drawing of every piece it shows (about 1-2 KB
each) and its 64 squares (about 6 KB) in every board.  A page with hundreds
of small diagrams keeps one copy of each: ``page_defs()`` is a hidden SVG
with the piece drawings and the empty board, the diagrams refer to them.

Possible squares are marked with dots, one per unit standing there:

>>> svg = mini_board(chess.BaseBoard("8/8/8/8/8/8/8/K6k"), {chess.E4: ["#1e88e5"]})
>>> svg.count("<rect"), svg.count("<circle"), '<use href="#ks-board"' in svg, "<defs" in svg
(0, 1, True, False)
"""

from __future__ import annotations

import html
import math
import re

import chess
import chess.svg

BOARD_ID = "ks-board"
"""The id of the shared empty board (a ``<symbol>`` in ``page_defs()``)."""

_DEFS = re.compile(r"<defs\s*/>|<defs>.*?</defs>", re.S)
_DESC = re.compile(r"<desc>.*?</desc>", re.S)
_SQUARE = re.compile(r'<rect[^>]*class="square [^"]*"[^>]*/>')
_OPEN_TAG = re.compile(r"^<svg[^>]*>")
_FIRST_PIECE = re.compile(r'<use href="#(white|black)-')


def _strip(svg: str, title: str) -> str:
    """The board without its own piece definitions and ASCII description,
    with ``title`` (escaped) as its accessible name and tooltip."""
    svg = _DESC.sub("", _DEFS.sub("", svg, count=1), count=1)
    if title:
        opening = _OPEN_TAG.match(svg).group(0)
        svg = opening[:-1] + ' role="img">' + f"<title>{html.escape(title)}</title>" + svg[len(opening):]
    return svg


SQUARE = 45
"""A square's side in ``chess.svg`` units (the margin with coordinates is a third of it)."""
DOT = 5.5
"""A hidden unit's dot's radius in those units on a full diagram: clearly smaller than a man."""
MINI_DOT = 7.5
"""The same on a small diagram (about 150 px), where a smaller dot would vanish."""


def dots(marks: dict[int, list[str]], margin: float, radius: float = DOT) -> str:
    """SVG circles on the marked squares: one dot for one colour, smaller dots
    in a ring for several (a man fills most of his square: a dot is a quarter of it).

    >>> dots({chess.A1: ["red"]}, 0)
    '<circle cx="22.5" cy="337.5" r="5.5" fill="red" stroke="#fff" stroke-width="1" />'
    """
    circles = []
    for square, colors in marks.items():
        x = margin + chess.square_file(square) * SQUARE + SQUARE / 2
        y = margin + (7 - chess.square_rank(square)) * SQUARE + SQUARE / 2
        if len(colors) == 1:
            places = [(x, y, radius)]
        else:
            places = [(x + 10 * math.sin(2 * math.pi * i / len(colors)),
                       y - 10 * math.cos(2 * math.pi * i / len(colors)), radius * 2 / 3) for i in range(len(colors))]
        for (cx, cy, r), color in zip(places, colors):
            circles.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{color}" '
                           'stroke="#fff" stroke-width="1" />')
    return "".join(circles)


FOG = "#5f6368"
"""The fog's colour: squares White does not see (Fog of War), greyed under the men."""


def fog_rects(mask: int, margin: float) -> str:
    """Grey squares over the fog (``mask``: the squares White does not see).

    >>> fog_rects(chess.BB_A1, 0)
    '<rect class="fog" x="0" y="315" width="45" height="45" fill="#5f6368" fill-opacity="0.55" />'
    """
    return "".join(f'<rect class="fog" x="{margin + chess.square_file(square) * SQUARE:g}" '
                   f'y="{margin + (7 - chess.square_rank(square)) * SQUARE:g}" width="{SQUARE}" height="{SQUARE}" '
                   f'fill="{FOG}" fill-opacity="0.55" />' for square in chess.scan_forward(mask))


def _with_dots(svg: str, marks: dict[int, list[str]] | None, margin: float, radius: float = DOT,
               fog: int = 0) -> str:
    """The fog and dots drawn over the squares, under the pieces."""
    if not marks and not fog:
        return svg
    at = _FIRST_PIECE.search(svg)
    at = at.start() if at else svg.rindex("</svg>")
    return svg[:at] + fog_rects(fog, margin) + dots(marks or {}, margin, radius) + svg[at:]


def board(board: chess.BaseBoard, marks: dict[int, list[str]] | None = None, size: int = 360,
          title: str = "", fog: int = 0) -> str:
    """A full diagram with coordinates (pieces drawn from ``page_defs()``),
    ``marks`` (square -> colours) dotted, the ``fog`` squares greyed.

    >>> svg = board(chess.BaseBoard("8/8/8/8/8/8/8/K6k"), title="a <b>")
    >>> "<title>a &lt;b&gt;</title>" in svg, svg.count('href="#white-king"') > 0
    (True, True)
    """
    svg = _strip(chess.svg.board(board, size=size, coordinates=True), title)
    return _with_dots(svg, marks, SQUARE / 3, fog=fog)


def mini_board(board: chess.BaseBoard, marks: dict[int, list[str]] | None = None, size: int = 150,
               title: str = "", fog: int = 0) -> str:
    """A small diagram without coordinates; its squares are the shared empty board
    (``fog``: the squares greyed as unseen)."""
    svg = _strip(chess.svg.board(board, size=size, coordinates=False), title)
    opening = _OPEN_TAG.match(svg).group(0)
    body = _SQUARE.sub("", svg[len(opening):])
    title_end = body.find("</title>")
    at = title_end + len("</title>") if title_end >= 0 else 0
    return _with_dots(opening + body[:at] + f'<use href="#{BOARD_ID}" />' + body[at:], marks, 0, MINI_DOT,
                      fog)


def page_defs() -> str:
    """A hidden SVG holding the twelve piece drawings and the empty board.

    >>> defs = page_defs()
    >>> defs.count("<g id="), f'<symbol id="{BOARD_ID}"' in defs
    (12, True)
    """
    empty = chess.svg.board(chess.BaseBoard.empty(), coordinates=False)
    squares = "".join(_SQUARE.findall(empty))
    pieces = "".join(chess.svg.PIECES[symbol] for symbol in "PNBRQKpnbrqk")
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" '
            'style="position:absolute;width:0;height:0;overflow:hidden">'
            f'<defs>{pieces}<symbol id="{BOARD_ID}" viewBox="0 0 360 360">{squares}</symbol></defs></svg>')


def square_marks(groups: list[tuple[int, str]]) -> dict[int, list[str]]:
    """Square -> the colours of the ``(bitboard, colour)`` groups holding it.

    >>> square_marks([(0b11, "red"), (0b110, "blue")])
    {0: ['red'], 1: ['red', 'blue'], 2: ['blue']}
    """
    marks: dict[int, list[str]] = {}
    for mask, color in groups:
        for square in chess.scan_forward(mask):
            if color not in marks.setdefault(square, []):
                marks[square].append(color)
    return dict(sorted(marks.items()))
